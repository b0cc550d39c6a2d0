"""What napkin's Excel functions (``addin.excel.install``) share: how they are called
from formulas' table (``as_udf``: an ``ExcelError`` becomes the error value and its
message is recorded), the ``Cannot`` that stops strict mode, the table of formulas'
own functions they fall back on, and the conversion of their arguments as Excel converts
them.
"""

from __future__ import annotations

import numpy as np

from addin.formula import context, fx, fx_excel
from addin.formula.array_sizes import broadcast
from addin.formula.excel_numbers import wildcard  # noqa: F401 (xa.wildcard: lookup, text)
from udfs.machinery.errors import ExcelError

#: formulas' own functions napkin's fall back on
ORIGINAL: dict = {}


class Cannot(Exception):
    """napkin cannot give Excel's value here: the workbook is refused in strict mode
    (``addin.engine.support.refused_while_computing``), the cell keeps Excel's value with
    --lenient."""


def error_value(ns, ex: ExcelError | Cannot):
    """The error value formulas writes for ``ex``, its message recorded for the cell: the
    code of an ``ExcelError``, ``#N/A`` for a ``Cannot`` (its reason recorded, so
    that strict mode refuses the workbook). ``ns`` is ``addin.formula.fx.load``'s namespace."""
    if isinstance(ex, ExcelError):
        context.record(ex)
        return ns.errors[ex.code]
    context.refuse(str(ex), "#N/A")
    return ns.errors["#N/A"]


def as_udf(func):
    """``func`` as an entry of formulas' table of functions, ``udf(compiling, *args)``:
    nothing while formulas compiles, the error value of an ``ExcelError`` (its
    message recorded for the cell), ``#N/A`` for ``Cannot`` (its reason recorded)."""
    def udf(compiling, *args):
        ns = fx.load()
        if compiling:
            return ns.NONE
        try:
            return func(*args)
        except (ExcelError, Cannot) as ex:
            return error_value(ns, ex)

    udf.__name__ = func.__name__
    return udf


def lifted(func):
    """``func`` of single values computed for each value of its array arguments, as Excel
    computes a function of value parameters given arrays or ranges (in an array formula):
    the result has the largest number of rows and of columns; an argument of one row
    (or column) is repeated down (or across), a scalar everywhere, and a place that an
    argument does not reach is ``#N/A``; an ``ExcelError`` of one value is that value's
    error. Without arrays, ``func`` itself.

    References: Microsoft Support, "Guidelines and examples of array formulas"."""
    def call(*args):
        ns = fx.load()
        grids = []
        for a in args:
            if isinstance(a, ns.Ranges):
                a = a.value
            grids.append(np.asarray(a, dtype=object).reshape(
                (1, 1) if np.ndim(a) == 0 else np.shape(a) if np.ndim(a) == 2
                else (1, -1)) if isinstance(a, np.ndarray) else None)
        if all(g is None or g.size == 1 for g in grids):
            return func(*args)
        rows, cols, places = broadcast(grids)
        out = np.empty((rows, cols), dtype=object)
        for i, j, at in places:
            if at is None:
                out[i, j] = ns.errors["#N/A"]
                continue
            try:
                out[i, j] = func(*(a if g is None else g[p]
                                   for a, g, p in zip(args, grids, at, strict=True)))
            except ExcelError as ex:
                out[i, j] = error_value(ns, ex)
        return out.view(ns.Array)

    call.__name__ = func.__name__
    call.__doc__ = func.__doc__
    return call


# --------------------------------------------------------------------------- helpers


def scalar(v, what: str):
    """One value of an argument: a one-cell reference or array read; errors raised.
    Many values (an array formula's range, where Excel computes the function for each)
    are ``Cannot``, unless the function is ``lifted``."""
    ns = fx.load()
    if isinstance(v, ns.Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        if v.size > 1:
            raise Cannot(f"{what} given an array or a range of many cells")
        v = v.ravel()[0] if v.size else ns.EMPTY
    if isinstance(v, ns.XlError):
        raise ExcelError(str(v), context.message_for(str(v)) or f"{what} is an error")
    return v


def one_value(v, many=None):
    """The one value of an argument, without raising: a one-cell reference or array read
    (a numpy scalar made Python's), or ``many`` for several values, no value, or a
    reference formulas cannot read (error values are returned as they are; ``scalar``
    raises instead)."""
    ns = fx.load()
    if isinstance(v, ns.Ranges):
        try:
            v = v.value
        except Exception:  # formulas' own error for the reference
            return many
    if isinstance(v, np.ndarray):
        if v.size != 1:
            return many
        v = v.item(0)
    if isinstance(v, np.generic):
        v = v.item()
    return v


def number(v, what: str) -> float:
    """An argument as a number, as Excel converts one given directly: empty is 0, TRUE
    is 1, a text that reads as a number is that number, other text is #VALUE!."""
    v = scalar(v, what)
    ns = fx.load()
    if v is ns.EMPTY or v is None or fx.is_omitted(v):
        return 0.0
    if isinstance(v, (bool, np.bool_)):
        return float(v)
    if isinstance(v, (int, float, np.number)):
        return float(v)
    try:
        return fx_excel.text_value(str(v))
    except ValueError:
        raise ExcelError("#VALUE!", f"{what} {str(v)!r} is not a number") from None


def kind(v):
    """0 number, 1 text, 2 logical, None for what LOOKUP passes over (blank, error)."""
    ns = fx.load()
    if v is ns.EMPTY or v is None:  # (formulas' empty cell is a str)
        return None
    if isinstance(v, (bool, np.bool_)):
        return 2
    if isinstance(v, (int, float, np.number)):
        return 0
    if isinstance(v, str) and not isinstance(v, ns.XlError):
        return 1
    return None


def key(v, kind):
    return str(v).lower() if kind == 1 else v

