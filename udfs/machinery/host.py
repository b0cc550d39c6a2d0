"""What crosses between Excel's host and the catalog, for both routes into Excel.

The add-in's UDF module (``addin/xlwings_udfs.py``) and the xlwings Lite bundle's
``main.py`` (``addin/routes/lite.py``, which ships this package, this module included)
read every argument with ``argument`` and hand every result back with
``result``. They differ only in what an ``udfs.machinery.errors.ExcelError`` becomes,
which each passes in: a COM error value for the add-in, the code text (or, for a lone
``#VALUE!``, a raised exception) for Lite.

Pure Python, importing nothing outside ``udfs``: it runs in Pyodide as it runs here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import ExcelError
from .ranges import rows_as_array
from .xp import np


def argument(value):
    """An argument as the catalog reads it, from a range read with ``ndim=2``.

    Parameters
    ----------
    value : any
        What xlwings passes: a value, or a range as a list of rows.

    Returns
    -------
    any
        A one-cell range as the value in it (as Excel takes it); a range of numbers as a
        float array where numpy is present (``udfs.machinery.ranges.rows_as_array``); any other
        range as its list of rows; a value as it is.
    """
    if isinstance(value, list | tuple) and len(value) == 1:
        row = value[0]
        if isinstance(row, list | tuple) and len(row) == 1:
            return row[0]
    return rows_as_array(value)


def _element(value, error: Callable[[ExcelError], Any]):
    return error(value) if isinstance(value, ExcelError) else value


def result(value, error: Callable[[ExcelError], Any],
           alone: Callable[[ExcelError], Any] | None = None):
    """A catalog result as the host writes it.

    Parameters
    ----------
    value : any
        What the catalog function returned: a value, an ``udfs.machinery.errors.ExcelError``,
        a numpy array or a list of rows.
    error : callable
        What an error inside an array becomes (and a lone error, without ``alone``).
    alone : callable, optional
        What an error that is the whole result becomes (it may raise).

    Returns
    -------
    any
        A numpy array of values as it is (xlwings writes it); an array holding errors, or
        a list of rows, as rows with each error through ``error``; a lone error through
        ``alone`` (else ``error``); any other value as it is.
    """
    if isinstance(value, ExcelError):
        return (alone or error)(value)
    if np is not None and isinstance(value, np.ndarray):
        if value.dtype != object:  # every element a value: xlwings writes the array itself
            return value
        value = value.tolist()
    if isinstance(value, list | tuple):
        return [[_element(x, error) for x in r] if isinstance(r, list | tuple)
                else _element(r, error) for r in value]
    return value
