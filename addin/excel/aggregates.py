"""Excel's aggregate functions with Excel's rules for their arguments (SUM, AVERAGE, MIN,
MAX, COUNT, COUNTA, PRODUCT, SUMSQ, DEVSQ, AVEDEV, MEDIAN, VAR, STDEV and their .S/.P
forms), SUBTOTAL, COMBIN and COMBINA.

References
----------
Microsoft Support, "SUBTOTAL function", "COMBIN function", "COMBINA function", and the
help page of each aggregate function.
"""

from __future__ import annotations

import math
import re
import statistics

import numpy as np

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import context, fx, fx_excel, ranges
from udfs.machinery.errors import ExcelError

_NESTED = re.compile(r"(?<![\w.])(?:_xlfn\.)?(?:SUBTOTAL|AGGREGATE)\s*\(", re.I)


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
    num = xa.number(function_num, "SUBTOTAL's function_num")
    code = int(num)
    if code not in _SUBTOTAL and code - 100 not in _SUBTOTAL:
        raise ExcelError("#VALUE!", f"SUBTOTAL's function_num {num:g} is not 1-11 or 101-111")
    skip_hidden, code = code > 100, code % 100
    if not refs:
        raise ExcelError("#VALUE!", "SUBTOTAL needs a reference after function_num")
    book = getattr(context.STATE, "book", None)
    numbers, filled = [], 0
    for ref in refs:
        if fx.is_omitted(ref) or not isinstance(ref, ns.Ranges):
            raise ExcelError("#VALUE!", "SUBTOTAL's ref arguments must be references")
        for (sid, r1, c1, _r2, _c2), arr in ranges.area_values(ref):
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
                    raise ExcelError(str(v), context.message_for(str(v)))
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
    n, k = xa.number(n, f"{name}'s number"), xa.number(k, f"{name}'s number_chosen")
    n, k = math.trunc(n), math.trunc(k)
    if n < 0 or k < 0:
        raise ExcelError("#NUM!", f"{name}: number and number_chosen must not be negative")
    return n, k


def _float(v: int, name: str) -> float:
    try:
        return float(v)
    except OverflowError:
        raise ExcelError("#NUM!", f"{name}: beyond the largest number") from None


def _comb(n: int, k: int, name: str) -> float:
    """n!/(k!(n-k)!) as a float; ``#NUM!`` beyond the largest number, found from its
    logarithm before the integer is computed (COMBIN(2704155,1352078) would take
    half a minute to give a number of 800,000 digits)."""
    if math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) > 710:
        raise ExcelError("#NUM!", f"{name}: beyond the largest number")
    return _float(math.comb(n, k), name)


def combin(number, number_chosen):
    """Excel's ``COMBIN(number, number_chosen)``: the combinations n!/(k!(n-k)!), both
    truncated to integers; ``#NUM!`` if one is negative or number < number_chosen."""
    if any(_logical_in_cell(v) for v in (number, number_chosen)):
        raise Cannot("COMBIN() given a reference to a logical value (its page does not say "
                     "Excel's value)")
    n, k = _combin_args(number, number_chosen, "COMBIN")
    if n < k:
        raise ExcelError("#NUM!", f"COMBIN: number {n} is less than number_chosen {k}")
    return _comb(n, k, "COMBIN")


def combina(number, number_chosen):
    """Excel's ``COMBINA(number, number_chosen)``: combinations with repetitions,
    (n+k-1)!/(k!(n-1)!); ``#NUM!`` if one is negative or number is below
    number_chosen (Microsoft Support, "COMBINA function": number "must be greater than
    or equal to 0, and greater than or equal to number_chosen"). COMBINA(0,0), whose
    value the page does not give, is refused (``Cannot``)."""
    n, k = _combin_args(number, number_chosen, "COMBINA")
    if n < k:  # Microsoft's COMBINA page: number "greater than or equal to number_chosen"
        raise ExcelError("#NUM!", f"COMBINA: number {n} is less than number_chosen {k}")
    if n == 0 and k == 0:  # (0!/0! gives 1; some engines give 0: no evidence of Excel's)
        raise Cannot("COMBINA(0,0), whose value Microsoft's page does not give")
    if n == 0:
        return 0.0
    return _comb(n + k - 1, k, "COMBINA")


# --------------------------------------------------------------------------- aggregates


def _numbers(args, name: str, count_errors: bool = False):
    """The numbers Excel's SUM, AVERAGE, MIN, MAX, COUNT... take from their arguments:
    from a reference or an array only its numbers (text, logical values and empty cells
    are passed over); an argument given directly counts as a number when it is one, a
    logical value (TRUE is 1) or a text that reads as a number (``"3"``), and is
    ``#VALUE!`` when it is other text; an omitted argument is 0. An error value is the
    result (COUNT passes over errors: ``count_errors`` False skips them). An error value
    beside such a text stops strict mode (``context.refuse``): which of the two Excel
    gives, its pages do not say."""
    ns = fx.load()
    if not count_errors:
        _refuse_an_error_beside_a_text(args, name)
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
                raise ExcelError(str(v), context.message_for(str(v)))
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
                raise ExcelError(str(v), context.message_for(str(v)))
            if isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_)):
                out.append(float(v))
    return out


def _refuse_an_error_beside_a_text(args, name: str) -> None:
    """``context.refuse`` when ``args`` hold an error value other than ``#VALUE!`` and a
    text given directly that reads as no number (``#VALUE!`` in ``_numbers``)."""
    ns = fx.load()
    texts, errors = False, set()
    for a in args:
        cells = a.value if isinstance(a, ns.Ranges) else a
        values = np.asarray(cells, dtype=object).ravel()
        errors |= {str(v) for v in values if isinstance(v, ns.XlError)}
        if values.size == 1 and not isinstance(a, ns.Ranges) and isinstance(values[0], str) \
                and not isinstance(values[0], ns.XlError) and values[0] is not ns.EMPTY:
            try:
                fx_excel.text_value(values[0])
            except ValueError:
                texts = True
    if texts and errors - {"#VALUE!"}:
        context.refuse(f"{name} given an error value ({min(errors)}) and a text that is no "
                       "number: which one Excel gives is not documented")


def _sequential(xs):
    total = 0.0
    for x in xs:
        total += x
    return total


def _logical_in_cell(v) -> bool:
    """Whether ``v`` is a reference to one cell holding TRUE or FALSE."""
    return isinstance(v, fx.load().Ranges) and isinstance(xa.one_value(v), (bool, np.bool_))


def _one_error_or_cannot(args, name: str) -> None:
    """``Cannot`` where ``args`` hold two different error values: the function gives an
    error value (Microsoft's pages: "error values ... cause errors"), which one of
    several comes first no page says."""
    ns = fx.load()
    codes = set()
    for a in args:
        cells = a.value if isinstance(a, ns.Ranges) else a
        codes |= {str(v) for v in np.asarray(cells, dtype=object).ravel()
                  if isinstance(v, ns.XlError)}
    if len(codes) > 1:
        raise Cannot(f"{name}() given different error values ({', '.join(sorted(codes))}): "
                     "which one Excel gives is not documented")


#: the aggregates whose arguments may hold one error value only (``_one_error_or_cannot``)
ONE_ERROR = frozenset({"AVERAGE"})


#: the aggregates whose page speaks of ranges only: given an array (not a reference)
#: holding other than numbers and error values, refused (``_array_forms_or_cannot``)
NUMBERS_IN_ARRAYS = frozenset({"AVERAGE"})
#: the aggregates given an empty cell in a reference only: an empty value given directly
#: (a nested call's) refused (Microsoft Support, "VAR.S function", "STDEV.S function":
#: "Empty cells ... in the array or reference are ignored")
EMPTY_IN_REFERENCES = frozenset({"VAR", "VARP", "STDEV", "STDEVP"})


def _array_forms_or_cannot(args, name: str) -> None:
    """``Cannot`` where ``args`` give AVERAGE (``NUMBERS_IN_ARRAYS``) an array holding a
    text, a logical or an empty value (an IF's FALSE in an array formula): its page says
    such values of a range are ignored, not of an array; and where they give VAR, STDEV
    and their .S/.P forms (``EMPTY_IN_REFERENCES``) an empty value outside a reference."""
    ns = fx.load()
    for a in args:
        if isinstance(a, ns.Ranges):
            continue
        values = np.asarray(a, dtype=object).ravel()
        if name in EMPTY_IN_REFERENCES and any(v is ns.EMPTY or v is None for v in values):
            raise Cannot(f"{name}() given an empty value outside a reference (its page "
                         "speaks of empty cells in a reference)")
        if name in NUMBERS_IN_ARRAYS and values.size > 1 and any(
                not isinstance(v, ns.XlError) and (
                    isinstance(v, (bool, np.bool_, str)) or v is None)
                for v in values):
            raise Cannot(f"{name}() given an array holding a text, logical or empty value "
                         "(its page says such values of a range are ignored, not of an "
                         "array)")


def _aggregate(name, reduce, empty, count_errors=False):
    def agg(*args):
        if name in ONE_ERROR:
            _one_error_or_cannot(args, name)
        if name in NUMBERS_IN_ARRAYS or name in EMPTY_IN_REFERENCES:
            _array_forms_or_cannot(args, name)
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
#: (``_numbers``); Microsoft's help page of each says what an empty list gives
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
