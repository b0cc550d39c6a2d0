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

import datetime
import functools
import math
import re
import statistics

import numpy as np

from udfs.errors import ExcelError

from . import calls, fx, fx_excel
from . import xlsx_values as xv

_NESTED = re.compile(r"(?<![\w.])(?:_xlfn\.)?(?:SUBTOTAL|AGGREGATE)\s*\(", re.I)


def install() -> None:
    for name, func in (("SUBTOTAL", subtotal), ("COMBIN", combin), ("COMBINA", combina),
                       ("_XLFN.COMBINA", combina), ("CHOOSE", choose), ("LOOKUP", lookup),
                       ("DOLLAR", dollar), ("BASE", base), ("_XLFN.BASE", base),
                       ("HYPERLINK", hyperlink), ("OFFSET", offset),
                       ("INDIRECT", indirect), ("COUNTA", counta), ("SEARCH", search),
                       ("SEARCHB", search), *AGGREGATES.items(),
                       *BASE_CONVERSIONS.items(), ("TEXT", text), ("XLOOKUP", xlookup),
                       ("_XLFN.XLOOKUP", xlookup), ("YEARFRAC", yearfrac),
                       ("DATE", date)):
        fx.register(name, _impure(func))
    ORIGINAL["INDEX"] = fx.register("INDEX", _impure(index))
    table = fx.load().get_functions()
    for name in DATES_1904:
        if name in table and not isinstance(table[name], dict):
            table[name] = _in_1904(name, table[name])
    for name, func in (("VLOOKUP", _table_lookup("VLOOKUP", True)),
                       ("HLOOKUP", _table_lookup("HLOOKUP", False)), ("MATCH", match)):
        ORIGINAL[name] = fx.register(name, _impure(func))
    from formulas.functions.operators import OPERATORS  # noqa: I001 - fx has loaded it

    if "napkin" not in getattr(OPERATORS[":"], "__name__", ""):
        ORIGINAL[":"] = OPERATORS[":"]
        OPERATORS[":"] = _range_operator


def _range_operator(x, y):
    """Excel's ``:`` between two references a formula computes (``A1:INDEX(...)``,
    ``OFFSET(...):C9``): the smallest area holding both, with the workbook's values
    (formulas' own operator only has the values of the two ends)."""
    ns = fx.load()
    book = getattr(calls.STATE, "book", None)
    if book is None or not (isinstance(x, ns.Ranges) and isinstance(y, ns.Ranges)) \
            or len(x.ranges) != 1 or len(y.ranges) != 1:
        return ORIGINAL[":"](x, y)
    (sx, a1, b1, a2, b2), (sy, c1, d1, c2, d2) = fx.areas(x)[0], fx.areas(y)[0]
    if sx != sy or sx not in book.sid_map:
        return ns.errors["#VALUE!"]
    try:
        return _reference(book.sid_map[sx], min(a1, c1), min(b1, d1), max(a2, c2),
                          max(b2, d2), "a range between computed references")
    except ExcelError as ex:
        calls.record(ex)
        return ns.errors[ex.code]
    except Cannot as ex:
        from .support import CANNOT

        own = getattr(calls.STATE, "own", None)
        if own is not None:
            own["#N/A"] = CANNOT + str(ex)
        return ns.errors["#N/A"]


_range_operator.__name__ = "napkin_range_operator"


#: formulas' own functions napkin's fall back on
ORIGINAL: dict = {}


class Cannot(Exception):
    """napkin cannot give Excel's value here: the workbook is refused in strict mode
    (:func:`addin.support.refused_while_computing`), the cell keeps Excel's value with
    --lenient."""


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
        except Cannot as ex:
            from .support import CANNOT

            own = getattr(calls.STATE, "own", None)
            if own is not None:
                own["#N/A"] = CANNOT + str(ex)
            return ns.errors["#N/A"]

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
        return fx_excel.text_value(str(v))
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


# --------------------------------------------------------------------------- LOOKUP


def _values2d(v):
    ns = fx.load()
    if isinstance(v, ns.Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        return v.reshape(1, -1) if v.ndim == 1 else (v.reshape(1, 1) if v.ndim == 0 else v)
    return np.full((1, 1), v, dtype=object)


def _kind(v):
    """0 number, 1 text, 2 logical, None for what LOOKUP passes over (blank, error)."""
    ns = fx.load()
    if isinstance(v, (bool, np.bool_)):
        return 2
    if isinstance(v, (int, float, np.number)):
        return 0
    if isinstance(v, str) and not isinstance(v, ns.XlError):
        return 1
    return None


def _key(v, kind):
    return str(v).lower() if kind == 1 else v


def lookup(lookup_value, lookup_vector, result_vector=None):
    """Excel's ``LOOKUP``: vector form ``LOOKUP(value, lookup_vector, result_vector)``
    and array form ``LOOKUP(value, array)`` (a wider than tall array is searched in its
    first row and answered from its last row, otherwise first and last column).

    The match is the largest value not greater than ``lookup_value`` of the same kind
    (numbers, text without regard to case, logical values); blanks and error values are
    passed over (so ``LOOKUP(2,1/(A1:A9="x"),B1:B9)`` is the last B whose A is "x").
    ``#N/A`` when every value is greater. Excel searches by halving and expects the
    values sorted ascending: on values that are not, napkin does not guess
    (:class:`Cannot`)."""
    ns = fx.load()
    v = _scalar(lookup_value, "LOOKUP's lookup_value")
    kind = _kind(v)
    if kind is None:
        raise Cannot("LOOKUP of a blank cell")
    arr = _values2d(lookup_vector)
    if result_vector is None or fx.is_omitted(result_vector):
        if arr.shape[1] > arr.shape[0]:
            keys, results = arr[0, :], arr[-1, :]
        else:
            keys, results = arr[:, 0], arr[:, -1]
    else:
        if 1 not in arr.shape:
            raise ExcelError("#N/A", "LOOKUP's lookup_vector must be one row or one column")
        keys, results = arr.ravel(), _values2d(result_vector).ravel()
    want, pos, last = _key(v, kind), None, None
    for i, x in enumerate(keys):
        if _kind(x) != kind:
            continue
        k = _key(x, kind)
        if last is not None and k < last:
            raise Cannot("LOOKUP in values that are not sorted ascending")
        last = k
        if k <= want:
            pos = i
    if pos is None:
        raise ExcelError("#N/A", f"LOOKUP: no value is less than or equal to {v!r}")
    if pos >= len(results):
        raise Cannot("LOOKUP with a result_vector shorter than its lookup_vector")
    out = results[pos]
    return ns.EMPTY if out is None else out


# --------------------------------------------------------------------------- text


def dollar(number, decimals=2):
    """Excel's ``DOLLAR(number, [decimals])``: the number rounded to ``decimals`` places
    (left of the point when negative) as text in the format ``$#,##0.00_);($#,##0.00)``
    (Microsoft's DOLLAR help; the United States currency format)."""
    import decimal

    x = _number(number, "DOLLAR's number")
    d = 2 if fx.is_omitted(decimals) else math.trunc(_number(decimals, "DOLLAR's decimals"))
    if d > 127:
        raise ExcelError("#VALUE!", "DOLLAR's decimals must be at most 127")
    r = fx_excel._round15(x, d, decimal.ROUND_HALF_UP)
    text = f"${abs(r):,.{max(d, 0)}f}"
    return f"({text})" if r < 0 else text


_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def base(number, radix, min_length=0):
    """Excel's ``BASE(number, radix, [min_length])``: the number (truncated, 0 to
    2^53) written in base ``radix`` (2-36), padded with zeros to ``min_length``
    (at most 255)."""
    n = math.trunc(_number(number, "BASE's number"))
    b = math.trunc(_number(radix, "BASE's radix"))
    m = 0 if fx.is_omitted(min_length) else math.trunc(_number(min_length, "BASE's min_length"))
    if not 0 <= n < 2 ** 53:
        raise ExcelError("#NUM!", "BASE's number must be from 0 to 2^53")
    if not 2 <= b <= 36:
        raise ExcelError("#NUM!", "BASE's radix must be from 2 to 36")
    if not 0 <= m <= 255:
        raise ExcelError("#NUM!", "BASE's min_length must be from 0 to 255")
    digits = ""
    while n:
        n, r = divmod(n, b)
        digits = _DIGITS[r] + digits
    return (digits or "0").rjust(m, "0")


def hyperlink(link_location, friendly_name=None):
    """Excel's ``HYPERLINK(link_location, [friendly_name])``: the cell shows
    ``friendly_name`` when given, else ``link_location`` (the link itself is not
    followed)."""
    ns = fx.load()
    shown = link_location if friendly_name is None or fx.is_omitted(friendly_name) \
        else friendly_name
    v = _scalar(shown, "HYPERLINK's argument")
    return ns.EMPTY if v is None else v


# --------------------------------------------------------------------------- references


def _reference(sidx: int, r1: int, c1: int, r2: int, c2: int, who: str):
    """A reference to an area of the workbook being computed, with its values; a formula
    cell in it that is not computed yet stops the computation (:class:`Cannot`): the
    order of computing follows the references written in formulas, which OFFSET and
    INDIRECT make up while computing."""
    from .evaluator import KEEP_CELLS

    book = getattr(calls.STATE, "book", None)
    if book is None:
        raise Cannot(f"{who} outside a workbook")
    if not (1 <= r1 <= r2 <= xv.MAX_ROW and 1 <= c1 <= c2 <= xv.MAX_COL):
        raise ExcelError("#REF!", f"{who} goes beyond the sheet")
    sheet = book.sheets[sidx]
    if (r2 - r1 + 1) * (c2 - c1 + 1) > KEEP_CELLS:  # as the evaluator reads large areas
        r2, c2 = max(r1, min(r2, sheet.max_r)), max(c1, min(c2, sheet.max_c))
    ns = fx.load()
    arr = np.empty((r2 - r1 + 1, c2 - c1 + 1), dtype=object)
    arr[:] = ns.EMPTY
    values = sheet.values
    for (r, c), node in sheet.formula_at.items():
        if r1 <= r <= r2 and c1 <= c <= c2 and (r, c) not in values and node.keep is None:
            raise Cannot(f"{who} onto {node.label}, a formula computed after it")
    for (r, c), v in values.items():
        if r1 <= r <= r2 and c1 <= c <= c2:
            arr[r - r1, c - c1] = v
    return fx.make_ranges([fx.area_ref(sheet.sid, r1, c1, r2, c2)], [arr])


def offset(reference, rows, cols, height=None, width=None):
    """Excel's ``OFFSET(reference, rows, cols, [height], [width])``: the area ``rows``
    down and ``cols`` right of ``reference`` (numbers truncated), ``height`` by
    ``width`` cells (the reference's size when omitted; negative: upward or leftward);
    ``#REF!`` off the sheet or for a height or width of 0."""
    ns = fx.load()
    if not isinstance(reference, ns.Ranges) or len(reference.ranges) != 1:
        raise ExcelError("#VALUE!", "OFFSET's reference must be one area")
    book = getattr(calls.STATE, "book", None)
    sid, r1, c1, r2, c2 = fx.areas(reference)[0]
    if book is None or sid not in book.sid_map:
        raise Cannot("OFFSET of a reference napkin cannot place")
    dr = math.trunc(_number(rows, "OFFSET's rows"))
    dc = math.trunc(_number(cols, "OFFSET's cols"))

    def size(v, default, what):
        if v is None or fx.is_omitted(v):
            return default
        return math.trunc(_number(v, f"OFFSET's {what}"))

    h, w = size(height, r2 - r1 + 1, "height"), size(width, c2 - c1 + 1, "width")
    if h == 0 or w == 0:
        raise ExcelError("#REF!", "OFFSET's height and width must not be 0")
    top, left = r1 + dr, c1 + dc
    rows_ = (top, top + h - 1) if h > 0 else (top + h + 1, top)
    cols_ = (left, left + w - 1) if w > 0 else (left + w + 1, left)
    return _reference(book.sid_map[sid], rows_[0], cols_[0], rows_[1], cols_[1], "OFFSET")


_A1_AREA = re.compile(
    r"(?:(?P<sheet>'(?:[^']|'')+'|[^'!:\[\]]+)!)?"
    r"(?:\$?(?P<c1>[A-Za-z]{1,3})\$?(?P<r1>\d+)(?::\$?(?P<c2>[A-Za-z]{1,3})\$?(?P<r2>\d+))?"
    r"|\$?(?P<cc1>[A-Za-z]{1,3}):\$?(?P<cc2>[A-Za-z]{1,3})"
    r"|\$?(?P<rr1>\d+):\$?(?P<rr2>\d+))")


def indirect(ref_text, a1=True):
    """Excel's ``INDIRECT(ref_text, [a1])``: the reference a text names, in A1 style
    (``"B9"``, ``"$B$9"``, ``"Sheet2!A1:C3"``, ``"'My sheet'!A:A"``, a defined name
    that is a range); ``#REF!`` when the text names none. R1C1 style (``a1`` FALSE) is
    not computed (:class:`Cannot`)."""
    text = _scalar(ref_text, "INDIRECT's ref_text")
    style = True if a1 is None or fx.is_omitted(a1) else _scalar(a1, "INDIRECT's a1")
    if not style and style is not fx.load().EMPTY:
        raise Cannot("INDIRECT with an R1C1 address")
    if not isinstance(text, str):
        raise ExcelError("#REF!", f"INDIRECT's ref_text {text!r} is not a reference")
    book = getattr(calls.STATE, "book", None)
    here = (getattr(calls.STATE, "cell", None) or (0, 1, 1))[0]
    if book is None:
        raise Cannot("INDIRECT outside a workbook")
    t = text.strip()
    m = _A1_AREA.fullmatch(t)
    if m is None:
        rng = book.references(here).get(t.upper())
        if rng is None:
            raise ExcelError("#REF!", f"INDIRECT: {text!r} names no cell or range")
        parts = book.parts(rng)
        if not parts or len(parts) != 1:
            raise Cannot(f"INDIRECT of the name {t}")
        return _reference(*parts[0], "INDIRECT")
    sheet = m.group("sheet")
    if sheet:
        sheet = sheet[1:-1].replace("''", "'") if sheet.startswith("'") else sheet
        sidx = next((s.index for s in book.sheets if s.name.upper() == sheet.upper()), None)
        if sidx is None:
            raise ExcelError("#REF!", f"INDIRECT: no sheet named {sheet!r}")
    else:
        sidx = here
    if m.group("c1"):
        r1, c1 = int(m.group("r1")), xv.col2num(m.group("c1").upper())
        r2 = int(m.group("r2") or r1)
        c2 = xv.col2num(m.group("c2").upper()) if m.group("c2") else c1
    elif m.group("cc1"):
        r1, r2 = 1, xv.MAX_ROW
        c1, c2 = xv.col2num(m.group("cc1").upper()), xv.col2num(m.group("cc2").upper())
    else:
        c1, c2 = 1, xv.MAX_COL
        r1, r2 = int(m.group("rr1")), int(m.group("rr2"))
    r1, r2, c1, c2 = min(r1, r2), max(r1, r2), min(c1, c2), max(c1, c2)
    return _reference(sidx, r1, c1, r2, c2, "INDIRECT")


# --------------------------------------------------------------------------- aggregates


def _numbers(args, name: str, count_errors: bool = False):
    """The numbers Excel's SUM, AVERAGE, MIN, MAX, COUNT... take from their arguments:
    from a reference or an array only its numbers (text, logical values and empty cells
    are passed over); an argument given directly counts as a number when it is one, a
    logical value (TRUE is 1) or a text that reads as a number (``"3"``), and is
    ``#VALUE!`` when it is other text; an omitted argument is 0. An error value is the
    result (COUNT passes over errors: ``count_errors`` False skips them)."""
    ns = fx.load()
    out = []
    for a in args:
        direct = not isinstance(a, ns.Ranges) and not (isinstance(a, np.ndarray) and a.size > 1)
        if isinstance(a, ns.Ranges):
            a = a.value
        if direct:
            v = a.ravel()[0] if isinstance(a, np.ndarray) else a
            if fx.is_omitted(v):
                out.append(0.0)
            elif isinstance(v, ns.XlError):
                if count_errors:
                    continue
                raise ExcelError(str(v), calls._message_for(str(v)))
            elif isinstance(v, (bool, np.bool_)):
                out.append(float(v))
            elif isinstance(v, (int, float, np.number)):
                out.append(float(v))
            elif v is ns.EMPTY or v is None:
                out.append(0.0)
            else:
                try:
                    out.append(fx_excel.text_value(str(v)))
                except ValueError:
                    if count_errors:  # COUNT passes over what is not a number
                        continue
                    raise ExcelError("#VALUE!", f"{name}: {str(v)!r} is not a number") \
                        from None
            continue
        for v in np.asarray(a, dtype=object).ravel():
            if isinstance(v, ns.XlError):
                if count_errors:
                    continue
                raise ExcelError(str(v), calls._message_for(str(v)))
            if isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_)):
                out.append(float(v))
    return out


def _sequential(xs):
    total = 0.0
    for x in xs:
        total += x
    return total


def _aggregate(name, reduce, empty, count_errors=False):
    def agg(*args):
        xs = _numbers(args, name, count_errors)
        if not xs:
            if isinstance(empty, ExcelError):
                raise ExcelError(empty.code, f"{name}: no numbers")
            return empty
        try:
            r = reduce(xs)
        except OverflowError:
            raise ExcelError("#NUM!", f"{name}: beyond the largest number") from None
        if isinstance(r, float) and not math.isfinite(r):
            raise ExcelError("#NUM!", f"{name}: beyond the largest number")
        return r

    agg.__name__ = name.lower()
    return agg


def _mean(xs):
    return _sequential(xs) / len(xs)


def _devsq(xs):
    m = _mean(xs)
    return _sequential((x - m) ** 2 for x in xs)


def _svar(xs):
    if len(xs) < 2:
        raise ExcelError("#DIV/0!", "a sample needs two numbers or more")
    return _devsq(xs) / (len(xs) - 1)


def _median(xs):
    return statistics.median(xs)


_DIV0, _NUM = ExcelError("#DIV/0!"), ExcelError("#NUM!")
#: Excel's aggregate functions, computed with Excel's rules for their arguments
#: (:func:`_numbers`); Microsoft's help page of each says what an empty list gives
AGGREGATES = {
    "SUM": _aggregate("SUM", _sequential, 0.0),
    "AVERAGE": _aggregate("AVERAGE", _mean, _DIV0),
    "MIN": _aggregate("MIN", min, 0.0),
    "MAX": _aggregate("MAX", max, 0.0),
    "COUNT": _aggregate("COUNT", len, 0, count_errors=True),
    "PRODUCT": _aggregate("PRODUCT", math.prod, 0.0),
    "SUMSQ": _aggregate("SUMSQ", lambda xs: _sequential(x * x for x in xs), 0.0),
    "DEVSQ": _aggregate("DEVSQ", _devsq, _NUM),
    "AVEDEV": _aggregate("AVEDEV", lambda xs: _mean([abs(x - _mean(xs)) for x in xs]), _NUM),
    "MEDIAN": _aggregate("MEDIAN", _median, _NUM),
    "VAR": _aggregate("VAR", _svar, _DIV0),
    "VARP": _aggregate("VARP", lambda xs: _devsq(xs) / len(xs), _DIV0),
    "STDEV": _aggregate("STDEV", lambda xs: math.sqrt(_svar(xs)), _DIV0),
    "STDEVP": _aggregate("STDEVP", lambda xs: math.sqrt(_devsq(xs) / len(xs)), _DIV0),
}
for _new, _old in (("_XLFN.VAR.S", "VAR"), ("_XLFN.VAR.P", "VARP"), ("_XLFN.STDEV.S", "STDEV"),
                   ("_XLFN.STDEV.P", "STDEVP")):
    AGGREGATES[_new] = AGGREGATES[_new.removeprefix("_XLFN.")] = AGGREGATES[_old]


def counta(*args):
    """Excel's ``COUNTA(value1, ...)``: the cells of references and arrays that are not
    empty (a formula's "" and error values count), and every argument given directly."""
    ns = fx.load()
    n = 0
    for a in args:
        if isinstance(a, ns.Ranges) or (isinstance(a, np.ndarray) and a.size > 1):
            arr = a.value if isinstance(a, ns.Ranges) else a
            n += sum(1 for v in np.asarray(arr, dtype=object).ravel()
                     if v is not ns.EMPTY and v is not None)
        else:
            n += 1
    return n


def search(find_text, within_text, start_num=1):
    """Excel's ``SEARCH(find_text, within_text, [start_num])``: where ``find_text``
    first appears in ``within_text`` at or after ``start_num``, without regard to case;
    ``?`` stands for one character, ``*`` for any run, ``~`` makes the next one plain.
    Numbers are searched as Excel writes them (1E-05 is "0.00001")."""
    def text(v, what):
        v = _scalar(v, what)
        ns = fx.load()
        if v is ns.EMPTY or v is None:
            return ""
        return fx_excel._str(v)

    find = text(find_text, "SEARCH's find_text")
    within = text(within_text, "SEARCH's within_text")
    start = 1 if fx.is_omitted(start_num) else math.trunc(_number(start_num,
                                                                  "SEARCH's start_num"))
    if not 1 <= start <= len(within) + 1 or (start > len(within) and find):
        raise ExcelError("#VALUE!", f"SEARCH's start_num {start} is outside the text")
    pattern, i = [], 0
    while i < len(find):
        ch = find[i]
        if ch == "~" and i + 1 < len(find) and find[i + 1] in "?*~":
            pattern.append(re.escape(find[i + 1]))
            i += 2
            continue
        pattern.append("." if ch == "?" else ".*?" if ch == "*" else re.escape(ch))
        i += 1
    m = re.compile("".join(pattern), re.I | re.S).search(within, start - 1)
    if m is None:
        raise ExcelError("#VALUE!", f"SEARCH: {find!r} is not in {within!r}")
    return m.start() + 1


# --------------------------------------------------------------------------- bases

_RADIX = {"BIN": 2, "OCT": 8, "DEC": 10, "HEX": 16}


def _from_based(v, radix: int, name: str) -> int:
    """The argument of BIN2..., OCT2..., HEX2...: at most 10 digits of the radix; ten
    digits with the top bit set are negative (two's complement)."""
    ns = fx.load()
    v = _scalar(v, f"{name}'s number")
    if v is ns.EMPTY or v is None or fx.is_omitted(v):
        return 0
    if isinstance(v, (bool, np.bool_)):
        raise ExcelError("#VALUE!", f"{name}'s number is a logical value")
    if isinstance(v, (int, float, np.number)):
        if float(v) != math.trunc(float(v)) or v < 0:
            raise ExcelError("#NUM!", f"{name}'s number {v!r} is not made of its digits")
        text = str(int(v))
    else:
        text = str(v).upper()
    if len(text) > 10:
        raise ExcelError("#NUM!", f"{name}'s number {text!r} has more than 10 digits")
    if not text:
        return 0
    try:
        n = int(text, radix)
    except ValueError:
        raise ExcelError("#NUM!", f"{name}: {text!r} is not a base-{radix} number") from None
    if not text.isalnum():  # int() takes "+1", "-1", "1_0"
        raise ExcelError("#NUM!", f"{name}: {text!r} is not a base-{radix} number")
    if len(text) == 10 and n >= radix ** 10 // 2:
        n -= radix ** 10
    return n


def _places(places, name: str) -> int | None:
    """The ``places`` argument: None when omitted, else 1 to 10 (``#NUM!`` otherwise,
    checked before the number, as Excel does: DEC2BIN("E",0) is #NUM!)."""
    if places is None or fx.is_omitted(places):
        return None
    ns = fx.load()
    p = _scalar(places, f"{name}'s places")
    if isinstance(p, (bool, np.bool_)):
        raise ExcelError("#VALUE!", f"{name}'s places is a logical value")
    p = 0 if p is ns.EMPTY else math.trunc(_number(p, f"{name}'s places"))
    if not 1 <= p <= 10:
        raise ExcelError("#NUM!", f"{name}'s places must be from 1 to 10")
    return p


def _to_based(n: int, radix: int, places: int | None, name: str) -> str:
    half = radix ** 10 // 2
    if not -half <= n < half:
        raise ExcelError("#NUM!", f"{name}: {n} is out of range for 10 base-{radix} digits")
    if n < 0:
        return np.base_repr(n + radix ** 10, radix)  # ten digits; places is ignored
    digits = np.base_repr(n, radix)
    if places is None:
        return digits
    if places < len(digits):
        raise ExcelError("#NUM!", f"{name}: {digits} does not fit in {places} places")
    return digits.rjust(places, "0")


def _base_function(src: str, dst: str):
    name = f"{src}2{dst}"

    def convert(number, places=None):
        places = _places(places, name) if dst != "DEC" else None
        if src == "DEC":
            v = _scalar(number, f"{name}'s number")
            if isinstance(v, (bool, np.bool_)):
                raise ExcelError("#VALUE!", f"{name}'s number is a logical value")
            if isinstance(v, str) and not v.strip():
                raise ExcelError("#VALUE!", f"{name}'s number is an empty text")
            n = math.trunc(_number(v, f"{name}'s number"))
        else:
            n = _from_based(number, _RADIX[src], name)
        if dst == "DEC":
            return float(n)
        return _to_based(n, _RADIX[dst], places, name)

    convert.__doc__ = (f"Excel's ``{name}(number, [places])``: a base-{_RADIX[src]} number "
                       f"in base {_RADIX[dst]} (Microsoft's {name} help page).")
    return name, convert


BASE_CONVERSIONS = dict(_base_function(a, b) for a in _RADIX for b in _RADIX if a != b)


# --------------------------------------------------------------------------- TEXT


def text(value, format_text):
    """Excel's ``TEXT(value, format_text)``: the value rendered with a number format
    (:func:`addin.numfmt.text`); a text that reads as a number is formatted as that
    number. Format codes napkin does not render as Excel does stop strict mode."""
    from . import numfmt

    ns = fx.load()
    v = _scalar(value, "TEXT's value")
    code = _scalar(format_text, "TEXT's format_text")
    if v is ns.EMPTY or v is None:
        v = 0.0
    if code is ns.EMPTY or code is None:
        code = ""
    if isinstance(code, (bool, np.bool_)):
        code = "TRUE" if code else "FALSE"
    elif not isinstance(code, str):
        code = fx_excel.number_text(float(code))
    if isinstance(v, str):
        try:
            v = fx_excel.text_value(v)
        except ValueError:
            pass
    elif isinstance(v, np.generic):
        v = v.item()
    book = getattr(calls.STATE, "book", None)
    try:
        return numfmt.text(v, code, bool(book is not None and book.date1904))
    except numfmt.Unsupported as ex:
        raise Cannot(f"TEXT with {ex}") from None


# --------------------------------------------------------------------------- XLOOKUP


def _wild(pattern: str):
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "~" and i + 1 < len(pattern) and pattern[i + 1] in "?*~":
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append("." if ch == "?" else ".*" if ch == "*" else re.escape(ch))
        i += 1
    return re.compile("".join(out), re.I | re.S)


def xlookup(lookup_value, lookup_array, return_array, if_not_found=None, match_mode=0,
            search_mode=1):
    """Excel's ``XLOOKUP(lookup_value, lookup_array, return_array, [if_not_found],
    [match_mode], [search_mode])``: the row (or column) of ``return_array`` where
    ``lookup_value`` is found in the one-row or one-column ``lookup_array``.

    match_mode 0 exact, -1 exact or the next smaller, 1 exact or the next larger, 2
    wildcards (``* ? ~``); search_mode 1 first to last, -1 last to first, 2 and -2
    binary searches of values sorted ascending or descending (napkin checks that they
    are, and that the value found is not repeated, and otherwise does not guess).
    ``#N/A`` (or ``if_not_found``) when nothing matches."""
    ns = fx.load()
    v = _scalar(lookup_value, "XLOOKUP's lookup_value")
    kind = _kind(v)
    if kind is None:
        raise Cannot("XLOOKUP of a blank cell")
    keys = _values2d(lookup_array)
    if 1 not in keys.shape:
        raise ExcelError("#VALUE!", "XLOOKUP's lookup_array must be one row or one column")
    vertical = keys.shape[1] == 1 and keys.shape[0] >= 1
    keys = keys.ravel()
    ret = _values2d(return_array)
    if (ret.shape[0] if vertical else ret.shape[1]) != len(keys):
        if not (keys.size == 1 and ret.shape[0] == 1 and ret.shape[1] == 1):
            raise ExcelError("#VALUE!", "XLOOKUP's return_array is not as long as its "
                                        "lookup_array")
    mode = 0 if fx.is_omitted(match_mode) else math.trunc(_number(match_mode,
                                                                  "XLOOKUP's match_mode"))
    search = 1 if fx.is_omitted(search_mode) else math.trunc(
        _number(search_mode, "XLOOKUP's search_mode"))
    if mode not in (0, -1, 1, 2) or search not in (1, -1, 2, -2):
        raise ExcelError("#VALUE!", "XLOOKUP's match_mode or search_mode is not one of "
                                    "Excel's")
    want = _key(v, kind)
    entries = [(i, _key(x, kind)) for i, x in enumerate(keys) if _kind(x) == kind]
    if search in (2, -2):
        ks = [k for _, k in entries]
        if len(entries) != sum(1 for x in keys if _kind(x) is not None) or any(
                (a > b) if search == 2 else (a < b) for a, b in zip(ks, ks[1:], strict=False)):
            raise Cannot("XLOOKUP's binary search in values that are not sorted (or not "
                         "all of one kind)")
    order = entries if search in (1, 2) else entries[::-1]
    pos = None
    if mode == 2 and kind == 1:
        rx = _wild(str(v))
        pos = next((i for i, k in order if rx.fullmatch(str(keys[i]))), None)
    else:
        pos = next((i for i, k in order if k == want), None)
        if pos is None and mode in (-1, 1):
            best = None
            for i, k in order:
                if (mode == -1 and k < want) or (mode == 1 and k > want):
                    if best is None or (k > best[1] if mode == -1 else k < best[1]):
                        best = (i, k)
            pos = best[0] if best else None
    if pos is not None and search in (2, -2) and \
            sum(1 for _, k in entries if k == _key(keys[pos], kind)) > 1:
        raise Cannot("XLOOKUP's binary search of a value that is repeated")
    if pos is None:
        if if_not_found is None or fx.is_omitted(if_not_found):
            raise ExcelError("#N/A", f"XLOOKUP: {v!r} is not found")
        return if_not_found
    out = ret[pos:pos + 1, :] if vertical else ret[:, pos:pos + 1]
    if keys.size == 1 and ret.shape == (1, 1):
        out = ret
    out = np.asarray(out, dtype=object)
    return out[0, 0] if out.size == 1 else out.view(ns.Array)


# --------------------------------------------------------------------------- INDEX


def index(array, row_num=None, column_num=None, area_num=None):
    """Excel's ``INDEX(array, row_num, [column_num], [area_num])``: the cell at
    ``row_num`` and ``column_num`` of a reference (a reference itself) or of an array
    (its value). A row or column number of 0 -- or one left out of a range of several
    rows and columns -- is the whole column or row (``INDEX(A1:C3,2,0)`` is A2:C2); in
    a one-row or one-column range a single number counts along it. ``#REF!`` beyond
    the range, ``#VALUE!`` for a negative number."""
    ns = fx.load()

    def num(v, what):
        if v is None or fx.is_omitted(v):
            return None
        if isinstance(v, np.ndarray) and v.size > 1 or isinstance(v, ns.Ranges) and \
                sum((r2 - r1 + 1) * (c2 - c1 + 1) for _, r1, c1, r2, c2 in fx.areas(v)) > 1:
            raise _Fallback
        return math.trunc(_number(v, f"INDEX's {what}"))

    try:
        r, c, a = num(row_num, "row_num"), num(column_num, "column_num"), num(area_num,
                                                                               "area_num")
    except _Fallback:
        original = ORIGINAL["INDEX"]["function"]  # formulas' (takes its compiling flag)
        return original(False, array, row_num, *(x for x in (column_num, area_num)
                                                 if x is not None))
    if isinstance(array, ns.Ranges):
        areas = fx.area_values(array)
        k = 1 if a is None else a
        if not 1 <= k <= len(areas):
            raise ExcelError("#REF!", f"INDEX's area_num {k} is not one of its areas")
        (sid, r1, c1, _r2, _c2), arr = areas[k - 1]
    else:
        sid = None
        arr = _values2d(array)
        r1 = c1 = 1
    rows, cols = arr.shape
    if r is None and c is None:
        raise ExcelError("#VALUE!", "INDEX needs a row_num or a column_num")
    if c is None and (rows == 1 or cols == 1) and r is not None:
        r, c = (r, 1) if cols == 1 else (1, r)  # along a single row or column
    r = 0 if r is None else r
    c = 0 if c is None else c
    if r < 0 or c < 0:
        raise ExcelError("#VALUE!", "INDEX's row_num and column_num must not be negative")
    if r > rows or c > cols:
        raise ExcelError("#REF!", f"INDEX: row {r}, column {c} is outside the "
                                  f"{rows} x {cols} range")
    i1, i2 = (r - 1, r - 1) if r else (0, rows - 1)
    j1, j2 = (c - 1, c - 1) if c else (0, cols - 1)
    sub = np.asarray(arr[i1:i2 + 1, j1:j2 + 1], dtype=object)
    if sid is None:
        return sub[0, 0] if sub.size == 1 else sub.view(ns.Array)
    return fx.make_ranges([fx.area_ref(sid, r1 + i1, c1 + j1, r1 + i2, c1 + j2)], [sub])


class _Fallback(Exception):
    pass


# --------------------------------------------------------------------------- YEARFRAC


def _serial_date(serial: int, what: str) -> datetime.date:
    if serial == 60 or serial < 1:
        raise Cannot(f"YEARFRAC of {what} {serial}, before 1 March 1900")
    base = datetime.date(1899, 12, 30) if serial > 60 else datetime.date(1899, 12, 31)
    try:
        return base + datetime.timedelta(days=serial)
    except OverflowError:
        raise ExcelError("#NUM!", f"YEARFRAC's {what} is after 9999") from None


def _last_of_feb(d: datetime.date) -> bool:
    return d.month == 2 and (d + datetime.timedelta(days=1)).month == 3


def yearfrac(start_date, end_date, basis=0):
    """Excel's ``YEARFRAC(start_date, end_date, [basis])``: the fraction of a year
    between two dates (truncated to whole days, in either order) by the day count of
    ``basis``: 0 US 30/360, 1 actual/actual, 2 actual/360, 3 actual/365, 4 European
    30/360.

    The 30/360 end-of-month rules and the actual/actual year length (366 when the
    dates lie within one year and span a 29 February, else the average length of the
    years spanned) follow D. A. Wheeler's account of Excel's algorithm (checked against
    Microsoft's YEARFRAC help: 2012-01-01 to 2012-07-30 is 0.58055556, 0.57650273,
    0.57808219 for bases 0, 1, 3).

    References: Microsoft Support, "YEARFRAC function"; D. A. Wheeler, "YEARFRAC
    incompatibilities between Excel 2007 and OOXML (OXML), and the definitions
    actually used by Excel 2007" (2008)."""
    import calendar

    s = math.trunc(_number(start_date, "YEARFRAC's start_date"))
    e = math.trunc(_number(end_date, "YEARFRAC's end_date"))
    b = 0 if basis is None or fx.is_omitted(basis) else math.trunc(
        _number(basis, "YEARFRAC's basis"))
    if s < 0 or e < 0 or not 0 <= b <= 4:
        raise ExcelError("#NUM!", "YEARFRAC: dates must not be negative, basis is 0 to 4")
    if s > e:
        s, e = e, s
    if s == e:
        return 0.0
    book = getattr(calls.STATE, "book", None)
    if book is not None and book.date1904:
        s, e = s + DAYS_1904, e + DAYS_1904
    d1, d2 = _serial_date(s, "start_date"), _serial_date(e, "end_date")
    days = (d2 - d1).days
    if b in (0, 4):
        y1, m1, a = d1.year, d1.month, d1.day
        y2, m2, c = d2.year, d2.month, d2.day
        if b == 4:
            a, c = min(a, 30), min(c, 30)
        elif a == 31 and c == 31:
            a = c = 30
        elif a == 31:
            a = 30
        elif a == 30 and c == 31:
            c = 30
        elif _last_of_feb(d1) and _last_of_feb(d2):
            a = c = 30
        elif _last_of_feb(d1):
            a = 30
        return ((y2 - y1) * 360 + (m2 - m1) * 30 + (c - a)) / 360
    if b == 2:
        return days / 360
    if b == 3:
        return days / 365
    y1, y2 = d1.year, d2.year
    within_a_year = y1 == y2 or (y2 == y1 + 1 and (d1.month, d1.day) >= (d2.month, d2.day))
    if within_a_year:
        if y1 == y2 and calendar.isleap(y1):
            length = 366
        elif _feb29_between(d1, d2) or (d2.month == 2 and d2.day == 29):
            length = 366
        else:
            length = 365
        return days / length
    years = range(y1, y2 + 1)
    average = sum(366 if calendar.isleap(y) else 365 for y in years) / len(years)
    return days / average


def _feb29_between(d1: datetime.date, d2: datetime.date) -> bool:
    import calendar

    for y in {d1.year, d2.year}:
        if calendar.isleap(y) and d1 < datetime.date(y, 3, 1) <= d2 and \
                d1 <= datetime.date(y, 2, 29):
            return True
    return False


# --------------------------------------------------------------------------- approximate


def _sorted_or_cannot(value, vector, descending: bool, who: str) -> None:
    """An approximate match (VLOOKUP/HLOOKUP with range_lookup TRUE, MATCH with type 1 or
    -1) is Excel's search by halving: its answer is the documented one only when the
    values are sorted and of the lookup value's kind. napkin computes it when they are
    (blanks only after the last value, text of letters, digits and spaces, whose order
    Python and Excel agree on), and stops otherwise (:class:`Cannot`)."""
    ns = fx.load()
    v = _scalar(value, f"{who}'s lookup_value")
    kind = _kind(v)
    if kind is None:
        raise Cannot(f"{who}'s approximate match of a blank cell")
    last, blank = None, False
    for x in vector:
        if x is ns.EMPTY or x is None:
            blank = True
            continue
        if blank or _kind(x) != kind or (kind == 1 and not re.fullmatch(r"[\w ]*", str(x))):
            raise Cannot(f"{who}'s approximate match in values not all of one kind")
        k = _key(x, kind)
        if last is not None and (k > last if descending else k < last):
            raise Cannot(f"{who}'s approximate match in values that are not sorted")
        last = k
    if kind == 1 and not re.fullmatch(r"[\w ]*", str(v)):
        raise Cannot(f"{who}'s approximate match of a text with signs in it")


def _approximate(flag) -> bool:
    ns = fx.load()
    if flag is None or fx.is_omitted(flag):
        return True
    f = _scalar(flag, "range_lookup")
    if f is ns.EMPTY:
        return False  # an empty cell is FALSE
    if isinstance(f, str):
        return True  # formulas answers #VALUE! as Excel does
    return bool(f)


def _table_lookup(name: str, vertical: bool):
    def lookup(lookup_value, table_array, index_num, range_lookup=None):
        if _approximate(range_lookup):
            arr = _values2d(table_array)
            vec = arr[:, 0] if vertical else arr[0, :]
            _sorted_or_cannot(lookup_value, vec, False, name)
        args = [lookup_value, table_array, index_num]
        if range_lookup is not None:
            args.append(range_lookup)
        return ORIGINAL[name](*args)

    lookup.__name__ = name.lower()
    return lookup


def match(lookup_value, lookup_array, match_type=None):
    """Excel's MATCH, computed by formulas, after :func:`_sorted_or_cannot` for the
    approximate match types 1 (the default) and -1."""
    t = 1 if match_type is None or fx.is_omitted(match_type) else \
        math.trunc(_number(match_type, "MATCH's match_type"))
    if t != 0:
        _sorted_or_cannot(lookup_value, _values2d(lookup_array).ravel(), t < 0, "MATCH")
    args = [lookup_value, lookup_array] + ([] if match_type is None else [match_type])
    return ORIGINAL["MATCH"](*args)


# --------------------------------------------------------------------------- 1904 dates

#: days from 31 December 1899 (the 1900 system's day 0) to 1 January 1904 (the 1904
#: system's day 0), counting Excel's 29 February 1900
DAYS_1904 = 1462
#: date functions computed in the 1904 date system: name -> (positions of the serial
#: numbers they take, whether they give one)
DATES_1904 = {
    "DATEVALUE": ((), True), "YEAR": ((0,), False),
    "MONTH": ((0,), False), "DAY": ((0,), False), "WEEKDAY": ((0,), False),
    "WEEKNUM": ((0,), False), "EDATE": ((0,), True), "EOMONTH": ((0,), True),
    "DAYS": ((0, 1), False), "_XLFN.DAYS": ((0, 1), False), "DAYS360": ((0, 1), False),
    "DATEDIF": ((0, 1), False),
}


def _shift(v, days: int):
    """Serial numbers moved by ``days`` (a blank cell is day 0)."""
    ns = fx.load()
    if isinstance(v, ns.Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        out = np.empty(v.shape, dtype=object)
        for idx, x in np.ndenumerate(v):
            out[idx] = _shift(x, days)
        return out.view(ns.Array)
    if fx.is_omitted(v) or isinstance(v, (str, bool, np.bool_, ns.XlError)):
        return v
    if v is ns.EMPTY or v is None:
        return days
    if isinstance(v, (int, float, np.number)):
        return float(v) + days
    return v


def _in_1904(name: str, original):
    serial_args, gives_serial = DATES_1904[name]

    @functools.wraps(original)
    def wrapper(*args):
        book = getattr(calls.STATE, "book", None)
        if book is None or not book.date1904:
            return original(*args)
        ns = fx.load()
        args = [_shift(a, DAYS_1904) if i in serial_args else a for i, a in enumerate(args)]
        if name == "DATE":
            y = _scalar(args[0], "DATE's year") if args else 0
            if isinstance(y, (int, float)) and y < 1904:
                calls.record(ExcelError("#NUM!", "a year before 1904 in the 1904 date system"))
                return ns.errors["#NUM!"]
        r = original(*args)
        if not gives_serial:
            return r
        r = _shift(r, -DAYS_1904)
        arr = r if isinstance(r, np.ndarray) else None
        if arr is not None:
            for idx, x in np.ndenumerate(arr):
                if isinstance(x, float) and x < 0:
                    arr[idx] = ns.errors["#NUM!"]
            return arr
        if isinstance(r, float) and r < 0:
            return ns.errors["#NUM!"]
        return r

    return wrapper


def date(year, month, day):
    """Excel's ``DATE(year, month, day)``: the serial number of the date; a year from 0
    to 1899 is counted from 1900, months and days beyond their range carry over (the
    day is added to the first of the month, so DATE(1900,1,22222) is 22222, counting
    Excel's 29 February 1900); ``#NUM!`` before 1900 (1904 in the 1904 date system) or
    after 9999. References: Microsoft Support, "DATE function"."""
    y = math.floor(_number(year, "DATE's year"))
    m = math.floor(_number(month, "DATE's month"))
    d = math.floor(_number(day, "DATE's day"))
    if 0 <= y < 1900:
        y += 1900
    y, m = y + (m - 1) // 12, (m - 1) % 12 + 1
    if not 1900 <= y <= 9999:
        raise ExcelError("#NUM!", f"DATE: the year {y} is outside 1900 to 9999")
    first = datetime.date(y, m, 1)
    serial = (first - datetime.date(1899, 12, 31)).days + (1 if first >= datetime.date(
        1900, 3, 1) else 0) + d - 1
    book = getattr(calls.STATE, "book", None)
    low = 0
    if book is not None and book.date1904:
        serial -= DAYS_1904
        if y < 1904:
            raise ExcelError("#NUM!", "a year before 1904 in the 1904 date system")
    if not low <= serial <= 2958465 - (DAYS_1904 if book is not None and book.date1904
                                       else 0):
        raise ExcelError("#NUM!", f"DATE: day {serial} is outside Excel's dates")
    return float(serial)
