"""The UDF module of the xlwings add-in route (Windows desktop Excel, local Python).

Set ``UDF Modules`` to ``addin.xlwings_udfs`` (not ``udfs``): this module declares one
function per catalog entry, with the catalog's name, arguments, docstring (Excel's
description) and argument docs, and adapts what crosses pywin32:

* arguments: each is read with ``ndim=2`` (so a column stays a column: xlwings would
  otherwise read a single row or column as a flat list and the result would come back
  as a row), then a one-cell range is taken as the value in it, as Excel does; with
  ``err_to_str`` an error cell arrives as its code text (``"#N/A"``), which the catalog
  gives back as that error (by default xlwings passes an error cell as None, like an
  empty cell, and ``=RIDGE(989,3.35,NA())`` would compute with the default efficiency);
* results: a numpy array of values (what the catalog returns for a range) goes to
  xlwings as it is, whose ``NumpyArrayConverter`` writes it; in an array with errors,
  and alone, an ``udfs.machinery.errors.ExcelError`` becomes a real Excel error value, a COM
  ``VARIANT`` of type ``VT_ERROR`` with the error's code (``CVErr(xlErrNum)`` for
  ``#NUM!``...), built with pywin32's ``win32com.client.VARIANT``. The cell shows
  ``#NUM!``, ``#N/A``, ``#VALUE!``; ``ISERROR``/``IFERROR`` see an error. A VBA UDF has
  no way to attach a message to an error value, so the message is logged (logger
  ``napkin``; xlwings' "Show Console" shows it). With the environment variable
  ``NAPKIN_ERRORS=text`` the cell shows the code and message as text instead
  (``#NUM! bandwidth: must be greater than 0``), which ``ISERROR`` does not see.
"""

from __future__ import annotations

import inspect
import logging
import os

from xlwings import arg, func

import udfs
from udfs import ExcelError
from udfs.machinery import host

logger = logging.getLogger("napkin")

#: COM's variant type of an error value (pythoncom.VT_ERROR).
VT_ERROR = 10
#: Excel's error numbers (XlCVError, as in CVErr(2036)); COM carries 0x800A0000 + number.
XL_ERRORS = {
    "#NULL!": 2000, "#DIV/0!": 2007, "#VALUE!": 2015, "#REF!": 2023, "#NAME?": 2029,
    "#NUM!": 2036, "#N/A": 2042, "#GETTING_DATA": 2043, "#SPILL!": 2045, "#CALC!": 2050,
}
_FACILITY = -2146828288  # 0x800A0000 as a signed 32-bit int


def scode(code: str) -> int:
    """The COM error code of an Excel error: ``scode("#DIV/0!") == -2146826281``."""
    return _FACILITY + XL_ERRORS[code]


def error_value(err: ExcelError):
    """What the cell receives for ``err``: a VT_ERROR variant, or text (see module doc)."""
    logger.info("%s", err)
    if os.environ.get("NAPKIN_ERRORS", "").lower() != "text":
        try:
            from win32com.client import VARIANT
        except ImportError:  # no pywin32: not inside Excel; text is all we can give
            pass
        else:
            return VARIANT(VT_ERROR, scode(err.code))
    return str(err)


def _cell(value):
    """A catalog result as the add-in writes it (``udfs.machinery.host.result``): each error,
    alone or in an array, as ``error_value``."""
    return host.result(value, error_value)


def _adapter(name: str, fn):
    def udf(*args):
        return _cell(fn(*[host.argument(a) for a in args]))

    udf.__name__ = udf.__qualname__ = name
    udf.__doc__ = fn.__doc__
    udf.__module__ = __name__
    udf.__signature__ = inspect.signature(fn)  # xlwings reads the arguments from it
    g = udf
    for a, doc in reversed(udfs.ARG_DOCS[name].items()):
        g = arg(a, doc=doc, ndim=2, err_to_str=True)(g)
    return func(category="napkin")(g)


for _name, _fn in udfs.CATALOG.items():
    globals()[_name] = _adapter(_name, _fn)
del _name, _fn

__all__ = list(udfs.CATALOG)
