"""Excel functions the ``formulas`` package lacks, or computes differently from Excel,
written here after Microsoft's documentation and checked against values Excel saved
(``tests/corpus``, ``tests/test_excel_cases.py``).

Each is installed in formulas' table of functions by :func:`install` (called once by
:func:`addin.fx.load`) and called as ``f(compiling, *args)`` with formulas' values:
references arrive as ``Ranges`` (so SUBTOTAL sees which cells it reads, and CHOOSE can
return a reference), everything else as scalars or arrays.

References
----------
Microsoft Support, "SUBTOTAL function", "COMBIN function", "COMBINA function",
"CHOOSE function".
"""

from __future__ import annotations

import math
import re
import statistics

import numpy as np

from udfs.errors import ExcelError

from . import calls, fx

_NESTED = re.compile(r"(?<![\w.])(?:_xlfn\.)?(?:SUBTOTAL|AGGREGATE)\s*\(", re.I)


def install() -> None:
    for name, func in (("SUBTOTAL", subtotal), ("COMBIN", combin), ("COMBINA", combina),
                       ("_XLFN.COMBINA", combina), ("CHOOSE", choose)):
        fx.register(name, _impure(func))


def _impure(func):
    def udf(compiling, *args):
        ns = fx.load()
        if compiling:
            return ns.NONE
        try:
            return func(*args)
        except ExcelError as ex:
            calls.record(ex)
            return ns.errors[ex.code]

    udf.__name__ = func.__name__
    return udf


# --------------------------------------------------------------------------- helpers


def _scalar(v, what: str):
    """One value of an argument (the first of a reference or array); errors raised."""
    ns = fx.load()
    if isinstance(v, ns.Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        v = v.ravel()[0] if v.size else ns.EMPTY
    if isinstance(v, ns.XlError):
        raise ExcelError(str(v), calls._message_for(str(v)) or f"{what} is an error")
    return v


def _number(v, what: str) -> float:
    """An argument as a number, as Excel converts one given directly: empty is 0, TRUE
    is 1, a text that reads as a number is that number, other text is #VALUE!."""
    v = _scalar(v, what)
    ns = fx.load()
    if v is ns.EMPTY or v is None or fx.is_omitted(v):
        return 0.0
    if isinstance(v, (bool, np.bool_)):
        return float(v)
    if isinstance(v, (int, float, np.number)):
        return float(v)
    try:
        return float(str(v).strip())
    except ValueError:
        raise ExcelError("#VALUE!", f"{what} {str(v)!r} is not a number") from None


# --------------------------------------------------------------------------- SUBTOTAL


def _sample_var(xs):
    if len(xs) < 2:
        raise ExcelError("#DIV/0!", "SUBTOTAL: fewer than two numbers for a sample")
    return statistics.variance(xs)


def _population_var(xs):
    if not xs:
        raise ExcelError("#DIV/0!", "SUBTOTAL: no numbers")
    return statistics.pvariance(xs)


def _average(xs):
    if not xs:
        raise ExcelError("#DIV/0!", "SUBTOTAL: AVERAGE of no numbers")
    return math.fsum(xs) / len(xs)


_SUBTOTAL = {
    1: _average,
    2: len,
    3: None,  # COUNTA: counted on the cells
    4: lambda xs: max(xs) if xs else 0.0,
    5: lambda xs: min(xs) if xs else 0.0,
    6: lambda xs: math.prod(xs) if xs else 0.0,
    7: lambda xs: math.sqrt(_sample_var(xs)),
    8: lambda xs: math.sqrt(_population_var(xs)),
    9: math.fsum,
    10: _sample_var,
    11: _population_var,
}


def subtotal(function_num, *refs):
    """Excel's ``SUBTOTAL(function_num, ref1, [ref2], ...)``.

    ``function_num`` 1-11 is AVERAGE, COUNT, COUNTA, MAX, MIN, PRODUCT, STDEV, STDEVP,
    SUM, VAR, VARP of the numbers in the references; 101-111 the same, leaving out the
    rows that are hidden. Cells whose formula has a SUBTOTAL (or AGGREGATE) of its own
    are left out (no double counting), and so are rows a filter hides, whatever the
    number: a hidden row on a sheet with a filter applied counts as filtered out. Text,
    logical values and empty cells of the references are not numbers (COUNTA counts
    every cell that is not empty); an error value in them is the result.

    Returns ``#VALUE!`` for another function number or an argument that is not a
    reference."""
    ns = fx.load()
    num = _number(function_num, "SUBTOTAL's function_num")
    code = int(num)
    if code not in _SUBTOTAL and code - 100 not in _SUBTOTAL:
        raise ExcelError("#VALUE!", f"SUBTOTAL's function_num {num:g} is not 1-11 or 101-111")
    skip_hidden, code = code > 100, code % 100
    if not refs:
        raise ExcelError("#VALUE!", "SUBTOTAL needs a reference after function_num")
    book = getattr(calls.STATE, "book", None)
    numbers, filled = [], 0
    for ref in refs:
        if fx.is_omitted(ref) or not isinstance(ref, ns.Ranges):
            raise ExcelError("#VALUE!", "SUBTOTAL's ref arguments must be references")
        for (sid, r1, c1, _r2, _c2), arr in fx.area_values(ref):
            sheet = book.sheets[book.sid_map[sid]] if book and sid in book.sid_map else None
            hidden = set()
            if sheet is not None and (skip_hidden or sheet.filtered):
                hidden = sheet.hidden_rows
            nested = sheet.formula_at if sheet is not None else {}
            for (i, j), v in np.ndenumerate(arr):
                r, c = r1 + i, c1 + j
                if r in hidden:
                    continue
                node = nested.get((r, c))
                if node is not None and node.text and _NESTED.search(node.text):
                    continue
                if isinstance(v, ns.XlError):
                    if code == 3:
                        filled += 1
                        continue
                    if code == 2:
                        continue
                    raise ExcelError(str(v), calls._message_for(str(v)))
                if v is ns.EMPTY or v is None:
                    continue
                filled += 1
                if isinstance(v, (bool, np.bool_, str)):
                    continue
                numbers.append(float(v))
    if code == 3:
        return filled
    try:
        return _SUBTOTAL[code](numbers)
    except OverflowError:
        raise ExcelError("#NUM!", "SUBTOTAL: beyond the largest number") from None


# --------------------------------------------------------------------------- COMBIN


def _combin_args(n, k, name):
    n, k = _number(n, f"{name}'s number"), _number(k, f"{name}'s number_chosen")
    n, k = math.trunc(n), math.trunc(k)
    if n < 0 or k < 0:
        raise ExcelError("#NUM!", f"{name}: number and number_chosen must not be negative")
    return n, k


def _float(v: int, name: str) -> float:
    try:
        return float(v)
    except OverflowError:
        raise ExcelError("#NUM!", f"{name}: beyond the largest number") from None


def combin(number, number_chosen):
    """Excel's ``COMBIN(number, number_chosen)``: the combinations n!/(k!(n-k)!), both
    truncated to integers; ``#NUM!`` if one is negative or number < number_chosen."""
    n, k = _combin_args(number, number_chosen, "COMBIN")
    if n < k:
        raise ExcelError("#NUM!", f"COMBIN: number {n} is less than number_chosen {k}")
    return _float(math.comb(n, k), "COMBIN")


def combina(number, number_chosen):
    """Excel's ``COMBINA(number, number_chosen)``: combinations with repetitions,
    (n+k-1)!/(k!(n-1)!); ``#NUM!`` if one is negative."""
    n, k = _combin_args(number, number_chosen, "COMBINA")
    if n == 0 and k == 0:
        return 1.0
    if n == 0:
        return 0.0
    return _float(math.comb(n + k - 1, k), "COMBINA")


# --------------------------------------------------------------------------- CHOOSE


def choose(index_num, *values):
    """Excel's ``CHOOSE(index_num, value1, [value2], ...)``: the value (or reference)
    numbered ``index_num`` (truncated), as it is: ``SUM(CHOOSE(2,A1:A3,B1:B3))`` sums
    B1:B3. ``#VALUE!`` if index_num is below 1 or beyond the last value. An array of
    index numbers chooses element by element (``CHOOSE({1,2},A1:A3,B1:B3)`` is the two
    columns side by side)."""
    ns = fx.load()
    if not values:
        raise ExcelError("#VALUE!", "CHOOSE needs a value after index_num")
    idx = index_num.value if isinstance(index_num, ns.Ranges) else index_num
    if isinstance(idx, np.ndarray) and idx.size > 1:
        return _choose_each(np.atleast_2d(idx), values)
    i = _pick(index_num, len(values))
    v = values[i]
    return ns.EMPTY if fx.is_omitted(v) else v  # an omitted value is 0 in Excel


def _pick(index_num, n: int) -> int:
    v = _scalar(index_num, "CHOOSE's index_num")
    if isinstance(v, (bool, np.bool_)):
        raise ExcelError("#VALUE!", "CHOOSE's index_num is TRUE or FALSE, not a number")
    i = math.trunc(_number(v, "CHOOSE's index_num"))
    if not 1 <= i <= n:
        raise ExcelError("#VALUE!", f"CHOOSE's index_num {i} is not between 1 and {n}")
    return i - 1


def _choose_each(idx, values):
    ns = fx.load()
    arrays = []
    for v in values:
        v = v.value if isinstance(v, ns.Ranges) else v
        arrays.append(np.atleast_2d(np.asarray(v, dtype=object)) if isinstance(v, np.ndarray)
                      else np.full((1, 1), v, dtype=object))
    rows = max([idx.shape[0]] + [a.shape[0] for a in arrays])
    cols = max([idx.shape[1]] + [a.shape[1] for a in arrays])

    def at(a, r, c):  # Excel's expansion: one row or column repeats, else #N/A beyond
        rr = 0 if a.shape[0] == 1 else r
        cc = 0 if a.shape[1] == 1 else c
        return a[rr, cc] if rr < a.shape[0] and cc < a.shape[1] else ns.errors["#N/A"]

    out = np.empty((rows, cols), dtype=object)
    for r in range(rows):
        for c in range(cols):
            k = at(idx, r, c)
            if isinstance(k, ns.XlError):
                out[r, c] = k
                continue
            try:
                out[r, c] = at(arrays[_pick(k, len(values))], r, c)
            except ExcelError as ex:
                out[r, c] = ns.errors[ex.code]
    return out.view(ns.Array)
