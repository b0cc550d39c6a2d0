"""formulas' own MROUND, DELTA, RANK, POWER, XNPV, MOD and MDETERM, computed only where
napkin has evidence of Excel's value: MROUND, DELTA and RANK given a logical value (TRUE
or FALSE) as a number, a power whose result is too small for a float
(``POWER(-1E+10,-1E+10)``), XNPV with a rate not above 0, MOD of a text that is no number
by 0, and MDETERM whose floating-point value is not the exact determinant stop strict
mode (``Cannot``), as do RANK given an empty cell as its number (the page says only
that nonnumeric values in ref are ignored) and MROUND given an empty cell as its multiple
(read as 0: the page gives no MROUND(x,0)); ``--lenient`` keeps Excel's value. XNPV
gives ``#NUM!`` where a date precedes the starting date, as its page says; MROUND rounds
halves away from zero, as its page says (formulas rounded them to even).

Likewise for the functions widened in December 2026: ISEVEN and ISODD given a logical
value; MAXA, MINA and AVERAGEA given the empty text directly; POISSON and POISSON.DIST
with a mean of 0 (an empty cell's too) or a cumulative that is no logical value (x
truncated, as the page says); SUMX2MY2, SUMX2PY2 and SUMXMY2 over arrays of one count
holding other than numbers or of two shapes; REPLACE with a start or count out of
range; and HOUR, MINUTE and SECOND, napkin's own (``addin.excel.dates``), put in
formulas' table from here.

Microsoft's pages say what these give for a nonnumeric argument (``#VALUE!``) but not
whether TRUE is one; LibreOffice reads it as 1. For a result below the smallest float
formulas gives 0, LibreOffice ``#NUM!``, and Microsoft's POWER page says neither.

References
----------
Microsoft Support, "MROUND function", "DELTA function", "RANK function", "POWER
function", "XNPV function", "MOD function", "MDETERM function", and the pages of the
functions widened (``tests/test_checked_common.py`` lists them); ECMA-376 Part 1,
SpreadsheetML function POWER ("the result cannot be represented as a number": #NUM!).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from addin.excel import args as xa
from addin.excel.args import ORIGINAL, Cannot
from addin.excel.dates import TIMES
from addin.formula import excel_functions, fx
from udfs.machinery.errors import ExcelError

#: function -> the names of its arguments read as numbers where a logical value is
#: refused (declared ``no_logical``)
NUMBERS = excel_functions.facts("no_logical")  # (POWER: none, POWER(TRUE,-2) is 1)


def _logical(v) -> bool:
    """Whether ``v`` is, or holds, TRUE or FALSE (a one-cell reference read)."""
    if isinstance(v, fx.load().Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        return any(isinstance(x, (bool, np.bool_)) for x in v.ravel())
    return isinstance(v, (bool, np.bool_))


#: RANK and its two successors: an empty cell as the number refused
_RANKS = ("RANK", "RANK.EQ", "RANK.AVG")


def _checked(name: str, key: str | None = None):
    params = NUMBERS[name]
    key = key or name  # (formulas' table: _XLFN.RANK.EQ for a file's _xlfn.RANK.EQ)

    def call(*args):
        for param, arg in zip(params, args, strict=False):
            if _logical(arg):
                raise Cannot(f"{name}() given a logical value as its {param}")
        if name in _RANKS and args and xa.one_value(args[0]) is fx.load().EMPTY:
            raise Cannot(f"{name}() given an empty cell as its number (Microsoft's page "
                         "says only that nonnumeric values in ref are ignored)")
        if name == "MROUND" and len(args) > 1 and xa.one_value(args[1]) is fx.load().EMPTY:
            raise Cannot("MROUND() given an empty cell as its multiple (read as 0: "
                         "Microsoft's page gives no value for a multiple of 0)")
        got = ORIGINAL[key](*args)
        if name == "CONFIDENCE.T" and len(args) == 3 and _below(args[2], 1):
            raise Cannot("CONFIDENCE.T() given a size below 1 (its page does not say "
                         "Excel's value)")
        if name in _RANKS[1:] and _not_found(args, got):
            raise Cannot(f"{name}() of a number that is not among the numbers of ref "
                         "(its page does not say Excel's value; [MS-OI29500] 2.1.1026 "
                         "says #N/A for RANK only)")
        if name == "MROUND":
            got = _mround(args, got)
        if name == "POWER" and _underflows(args, got):
            raise Cannot("POWER with a result too small for a number (below 2.2E-308)")
        return got

    call.__name__ = name.lower()
    call.__doc__ = (f"formulas' {name}, refused (``Cannot``) given a logical value as "
                    f"its {' or '.join(params)}" if params else
                    f"formulas' {name}, refused (``Cannot``) where its result underflows")
    return call


def _below(v, bound: float) -> bool:
    """Whether ``v`` is one number below ``bound``."""
    v = xa.one_value(v)
    return isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_)) \
        and v < bound


def _not_found(args, got) -> bool:
    """Whether RANK.EQ's or RANK.AVG's result ``got`` is #N/A for a number that is no
    error value: the number is not among those of ref."""
    ns = fx.load()
    value, number = xa.one_value(got), xa.one_value(args[0]) if args else None
    return isinstance(value, ns.XlError) and str(value) == "#N/A" and \
        not isinstance(number, ns.XlError)


def _mround(args, got):
    """Excel's MROUND where formulas rounds half to even (MROUND(1,2) 0, MROUND(1.3,0.2)
    1.2): number/multiple to 15 significant digits, a half rounded away from zero, times
    multiple, to 15 significant digits. Microsoft's page: "MROUND rounds up, away from
    zero, if the remainder of dividing number by multiple is greater than or equal to half
    the value of multiple"; MROUND(1.3,0.2) is 1.4, MROUND(10,3) 9, MROUND(-10,-3) -9.
    formulas' value stands where it is an error or an argument is not one number."""
    from addin.formula.fx_excel_args import one_number

    ns = fx.load()
    number, multiple = (one_number(a, ns) for a in args[:2]) if len(args) == 2 else (None,) * 2
    value = one_number(got, ns)
    if number is None or not multiple or value is None:
        return got
    q = float(f"{number / multiple:.15g}")
    return float(f"{np.copysign(np.floor(abs(q) + 0.5), q) * multiple:.15g}")


def _underflows(args, got) -> bool:
    """Whether POWER's result ``got`` is 0 for a base that is not 0 (one value each)."""
    ns = fx.load()
    try:
        base = args[0].value if isinstance(args[0], ns.Ranges) else args[0]
        base = np.asarray(base, dtype=object).ravel()
        result = np.asarray(got, dtype=object).ravel()
        if base.size != 1 or result.size != 1:
            return False
        x, y = base[0], result[0]
        return isinstance(y, (int, float, np.number)) and y == 0 and \
            isinstance(x, (int, float, np.number)) and x != 0
    except (TypeError, ValueError):
        return False


def _values(v) -> list:
    """The values of ``v``, a reference, an array or one value, row by row."""
    if isinstance(v, fx.load().Ranges):
        v = v.value
    return list(np.asarray(v, dtype=object).ravel())


def _is_number(x) -> bool:
    return isinstance(x, (int, float, np.number)) and not isinstance(x, (bool, np.bool_))


def xnpv(rate, values, dates):
    """formulas' XNPV, with ``#NUM!`` where a date precedes the first, the starting date
    (formulas sorts the dates and counts from the earliest); refused (``Cannot``) for a
    rate that is TRUE or FALSE or not above 0, where Microsoft's page does not say Excel's
    value (formulas gives ``#NUM!``).

    References: Microsoft Support, "XNPV function" ("If any number in dates precedes the
    starting date, XNPV returns the #NUM! error value"; "Numbers in dates are truncated
    to integers")."""
    r = xa.one_value(rate)
    if isinstance(r, (bool, np.bool_)) or (_is_number(r) and r <= 0):
        raise Cannot("XNPV with a rate that is a logical value or not above 0")
    got = ORIGINAL["XNPV"](rate, values, dates)
    days = _values(dates)
    if len(days) == len(_values(values)) and days and all(_is_number(d) for d in days):
        first = np.floor(days[0])
        if any(np.floor(d) < first for d in days[1:]):
            return fx.load().errors["#NUM!"]
    return got


def mod(number, divisor):
    """formulas' MOD, refused (``Cannot``) for a number that is text no number reads and
    a divisor of 0 (formulas gives ``#VALUE!``, LibreOffice ``#DIV/0!``): Microsoft's page
    says each error but not which comes first.

    References: Microsoft Support, "MOD function" ("If divisor is 0, MOD returns the
    #DIV/0! error value")."""
    n, d = xa.one_value(number), xa.one_value(divisor)
    ns = fx.load()
    if isinstance(n, str) and not isinstance(n, ns.XlError) and \
            (d is ns.EMPTY or (not isinstance(d, str) and d is not None and d == 0)):
        try:
            xa.number(n, "MOD's number")
        except ExcelError:
            raise Cannot("MOD of a text that is no number by a divisor of 0") from None
    return ORIGINAL["MOD"](number, divisor)


def mdeterm(array):
    """formulas' MDETERM, refused (``Cannot``) where the determinant computed in floating
    point is not the exact determinant of the numbers given: Microsoft says MDETERM is
    "calculated with an accuracy of approximately 16 digits", not what its last digits
    are, and a text of the number or a rounding of it shows them
    (``ROUNDDOWN(MDETERM({1,2,3;0,1,4;5,6,0}),0)``, 1 exactly, 0.999999999999996 computed).

    References: Microsoft Support, "MDETERM function"; Microsoft Learn,
    "WorksheetFunction.MDeterm method" (the accuracy)."""
    got = ORIGINAL["MDETERM"](array)
    value = xa.one_value(got)
    if not _is_number(value):
        return got
    rows = fx.load().Ranges
    cells = array.value if isinstance(array, rows) else array
    cells = np.asarray(cells, dtype=object)
    if cells.ndim != 2 or cells.shape[0] != cells.shape[1] or \
            not all(_is_number(x) for x in cells.ravel()):
        return got
    if cells.shape[0] > 12:
        raise Cannot("MDETERM of a matrix of more than 12 rows (its last digits unchecked)")
    if float(value) != float(_exact_determinant(cells)):
        raise Cannot("MDETERM whose value in floating point is not exact (Excel's last "
                     "digits are not documented)")
    return got


def _exact_determinant(cells) -> Fraction:
    """The determinant of a square matrix of numbers, in exact fractions (Gaussian
    elimination)."""
    m = [[Fraction(float(x)) for x in row] for row in cells]
    n, det = len(m), Fraction(1)
    for c in range(n):
        pivot = next((r for r in range(c, n) if m[r][c] != 0), None)
        if pivot is None:
            return Fraction(0)
        if pivot != c:
            m[c], m[pivot] = m[pivot], m[c]
            det = -det
        det *= m[c][c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                m[r] = [a - f * b for a, b in zip(m[r], m[c], strict=True)]
    return det


def minverse(array):
    """formulas' MINVERSE, refused (``Cannot``) where an element of the inverse computed
    in floating point is not the exact inverse's (each rounded to the nearest float), as
    MDETERM is: Office computes the inverse "with an accuracy of at least 15 digits, which
    can lead to a small numeric error", not what its last digits are, and a sum of the
    inverse shows them (``SUM(MINVERSE({1,2,3;0,1,4;5,6,0}))``, 0 exactly, 4.4E-16
    computed).

    References: [MS-OI29500] 2.1.996, MINVERSE (https://learn.microsoft.com/en-us/openspecs/
    office_standards/ms-oi29500/3ce40557-31a9-4b8a-8f0f-38f73c07c844); Microsoft Support,
    "MINVERSE function"."""
    got = ORIGINAL["MINVERSE"](array)
    values = np.asarray(xa.one_value(got) if np.ndim(got) == 0 else got, dtype=object)
    cells = np.asarray(array.value if isinstance(array, fx.load().Ranges) else array,
                       dtype=object)
    if values.ndim != 2 or values.shape != cells.shape or cells.shape[0] != cells.shape[1] \
            or not all(_is_number(x) for x in [*cells.ravel(), *values.ravel()]):
        return got
    if cells.shape[0] > 12:
        raise Cannot("MINVERSE of a matrix of more than 12 rows (its last digits unchecked)")
    exact = _exact_inverse(cells)
    if exact is None or any(float(x) != float(e) for x, e in
                            zip(values.ravel(), exact, strict=True)):
        raise Cannot("MINVERSE whose value in floating point is not the exact inverse "
                     "(Excel's last digits are not documented)")
    return got


def _exact_inverse(cells) -> list[Fraction] | None:
    """The inverse of a square matrix of numbers in exact fractions, row by row
    (Gauss-Jordan elimination); None for a singular matrix."""
    n = len(cells)
    m = [[Fraction(float(x)) for x in row] + [Fraction(int(i == r)) for i in range(n)]
         for r, row in enumerate(cells)]
    for c in range(n):
        pivot = next((r for r in range(c, n) if m[r][c] != 0), None)
        if pivot is None:
            return None
        m[c], m[pivot] = m[pivot], m[c]
        m[c] = [a / m[c][c] for a in m[c]]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c], strict=True)]
    return [x for row in m for x in row[n:]]


CHECKED = {name: _checked(name) for name in NUMBERS} | {
    "XNPV": xnpv, "MOD": mod, "MDETERM": mdeterm, "MINVERSE": minverse,
    **{f"_XLFN.{name}": _checked(name, f"_XLFN.{name}")
       for name in ("RANK.EQ", "RANK.AVG", "CONFIDENCE.NORM", "CONFIDENCE.T")}}


# --------------------------------------------------------------------------- widened


def _direct_text(args) -> list:
    """The texts given directly among ``args`` (not in a reference or an array)."""
    ns = fx.load()
    out = []
    for a in args:
        if isinstance(a, ns.Ranges) or (isinstance(a, np.ndarray) and a.size != 1):
            continue
        v = xa.one_value(a)
        if isinstance(v, str) and not isinstance(v, ns.XlError) and v is not ns.EMPTY:
            out.append(v)
    return out


def _counting_text(name: str):
    """formulas' MAXA, MINA or AVERAGEA, refused (``Cannot``) given the empty text ""
    directly: Microsoft's AVERAGEA page says both that text given directly that is no
    number is an error and that "empty text ("") evaluates as 0"; formulas gives
    #VALUE!. Text in a reference counts 0 and TRUE 1 (the pages; AVERAGEA's example
    5.6), as formulas counts them."""

    def call(*args):
        if "" in _direct_text(args):
            raise Cannot(f'{name}() given the empty text "" directly (its page says both '
                         "#VALUE! and 0)")
        return ORIGINAL[name](*args)

    call.__name__ = name.lower()
    return call


def poisson(x, mean, cumulative):
    """formulas' POISSON.DIST, with x truncated to an integer as Microsoft's page says
    (formulas gives 0 for POISSON(2.7,5,FALSE), Excel POISSON(2,5,FALSE)); refused
    (``Cannot``) for a mean of 0, a logical value as x or mean, and a cumulative that is
    not TRUE or FALSE, which the page does not settle. ``#NUM!`` for x or mean below 0
    (its page; formulas' own).

    References: Microsoft Support, "POISSON.DIST function", "POISSON function"."""
    xs, m, c = (xa.one_value(v) for v in (x, mean, cumulative))
    if any(isinstance(v, (bool, np.bool_)) for v in (xs, m)):
        raise Cannot("POISSON.DIST() given a logical value as x or mean")
    if not isinstance(c, (bool, np.bool_)):
        raise Cannot("POISSON.DIST() given a cumulative that is not TRUE or FALSE")
    if m is fx.load().EMPTY or _is_number(m) and m == 0:  # (an empty cell: 0)
        raise Cannot("POISSON.DIST() with a mean of 0 (its page does not say Excel's value)")
    if _is_number(xs) and xs >= 0:
        x = float(np.trunc(xs))
    return ORIGINAL["POISSON"](x, mean, cumulative)


def _paired(name: str):
    """formulas' SUMX2MY2, SUMX2PY2 or SUMXMY2, refused (``Cannot``) unless both arrays
    hold numbers and empty cells only, in the same rows and columns: the pages say text,
    logical values and empty cells are ignored, not whether the value paired with one is
    ignored too. A pair with an empty cell is left out, none left ``#DIV/0!``, as Excel
    saved SUMX2PY2(C8:C10,B15:D15) = 3.2100200002 (D15 empty beside 1.00001) and
    SUMX2PY2(E7:E10,D7:D10) = #DIV/0! in FormulaEvalTestData (EverythingTests!E1340,
    K1340). Arrays of different counts are ``#N/A`` (the pages; formulas' own)."""

    def call(array_x, array_y):
        xs, ys = _values(array_x), _values(array_y)
        empty = fx.load().EMPTY
        if len(xs) == len(ys) and (np.shape(_grid(array_x)) != np.shape(_grid(array_y))
                                   or not all(_is_number(v) or v is empty for v in xs + ys)):
            raise Cannot(f"{name}() given arrays holding other than numbers or of "
                         "different shapes (its page does not settle them)")
        if len(xs) == len(ys) and empty in xs + ys:
            pairs = [(x, y) for x, y in zip(xs, ys, strict=True) if x is not empty
                     and y is not empty]
            if not pairs:
                return fx.load().errors["#DIV/0!"]
            array_x, array_y = (np.array([[p[k] for p in pairs]], dtype=float) for k in (0, 1))
        return ORIGINAL[name](array_x, array_y)

    call.__name__ = name.lower()
    return call


def _grid(v):
    if isinstance(v, fx.load().Ranges):
        v = v.value
    return np.atleast_2d(np.asarray(v, dtype=object))


def replace(old_text, start_num, num_chars, new_text):
    """formulas' REPLACE, refused (``Cannot``) for a start_num below 1, a num_chars below
    0 or either not a whole number, and a logical value in any argument: Microsoft's page
    does not say Excel's value there. An empty cell as start_num or num_chars is 0
    (Microsoft KB Q149577: "Microsoft Excel interprets a blank cell as zero").

    References: Microsoft Support, "REPLACE, REPLACEB functions"."""
    values = [xa.one_value(v) for v in (old_text, start_num, num_chars, new_text)]
    if any(isinstance(v, (bool, np.bool_)) for v in values):
        raise Cannot("REPLACE() given a logical value")
    empty = fx.load().EMPTY  # an empty cell is 0 in a number's place (KB Q149577)
    start, count = (0 if v is empty else v for v in values[1:3])
    if not (_is_number(start) and _is_number(count) and start >= 1 and count >= 0
            and start == int(start) and count == int(count)):
        raise Cannot("REPLACE() with a start_num or num_chars not a whole number, below 1 "
                     "or below 0 (its page does not say Excel's value)")
    return ORIGINAL["REPLACE"](old_text, start_num, num_chars, new_text)


def find(find_text, within_text, start_num=None):
    """formulas' FIND, refused (``Cannot``) for an empty find_text with a start_num
    greater than the length of within_text: Microsoft's page says both that an empty
    find_text "matches the character numbered start_num" and that a start_num "greater
    than the length of within_text" is #VALUE! (``FIND("","",1)``: formulas 1,
    LibreOffice #VALUE!; ECMA-376's FIND says the same two things).

    References: Microsoft Support, "FIND, FINDB functions"; ECMA-376 Part 1, SpreadsheetML
    function FIND."""
    ns = fx.load()
    args = (find_text, within_text) if start_num is None or fx.is_omitted(start_num) else \
        (find_text, within_text, start_num)
    # an empty cell is the empty text in a text's place and 0 in start_num's (KB Q149577)
    values = [("" if i < 2 else 0) if v is ns.EMPTY else v
              for i, v in enumerate(xa.one_value(v) for v in args)]
    start = values[2] if len(values) == 3 else 1
    texts = values[:2]
    if values[0] == "" and _is_number(start) and all(
            isinstance(v, str) and not isinstance(v, ns.XlError) for v in texts) and \
            start > len(texts[1]):
        raise Cannot("FIND() of an empty find_text with a start_num beyond within_text "
                     "(its page says both the character numbered start_num and #VALUE!)")
    return ORIGINAL["FIND"](*args)


def npv(rate, *values):
    """formulas' NPV, refused (``Cannot``) for a rate of -1: every term divides by
    (1 + rate)^i, 0 there, and Microsoft's page says nothing of that case (formulas gives
    a value no error test sees, written #NUM!; LibreOffice #NUM!).

    References: Microsoft Support, "NPV function" (NPV = sum of values_i / (1 + rate)^i)."""
    r = xa.one_value(rate)
    if _is_number(r) and r == -1:
        raise Cannot("NPV with a rate of -1 (each value divided by (1 + rate)^i = 0; its "
                     "page does not say Excel's value)")
    return ORIGINAL["NPV"](rate, *values)


CHECKED |= {"MAXA": _counting_text("MAXA"), "MINA": _counting_text("MINA"),
            "AVERAGEA": _counting_text("AVERAGEA"), "POISSON": poisson,
            "POISSON.DIST": poisson, "_XLFN.POISSON.DIST": poisson,
            "REPLACE": replace, "FIND": find, "NPV": npv}
CHECKED |= {name: _paired(name) for name in ("SUMX2MY2", "SUMX2PY2", "SUMXMY2")}
CHECKED |= TIMES
