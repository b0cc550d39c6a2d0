"""How Excel writes a number in text and reads a text as a number, rounds to its 15
significant digits, and matches a criterion with wildcards: the parts of napkin's
corrections of formulas (``addin.formula.fx_excel``) that need nothing of formulas.
"""

from __future__ import annotations

import math
import re

import numpy as np

from addin.formula import context


def _round15(x, digits, mode):
    """Excel's ROUND, ROUNDUP and ROUNDDOWN: the number is first taken to the 15
    significant digits Excel keeps, then rounded to ``digits`` (truncated to an integer)
    decimal places in ``mode`` (half away from zero, away from zero, toward zero).

    ``=ROUND(1*(0.001+0.5-0.4-0.05-0.001),1)`` is 0.1 in Excel (the sum is
    0.049999999999999975, 0.0500000000000000 to 15 digits); rounding the binary value
    gives 0. References: Microsoft, "Floating-point arithmetic may give inaccurate
    results in Excel" (15 significant digits); apache/poi ``MathX.round``."""
    import decimal

    digits = int(digits)
    if x == 0 or not math.isfinite(x):
        return x
    q = decimal.Decimal(f"{x:.15g}")
    if digits >= 14 - q.adjusted():  # no digit beyond the 15th to round away
        return float(q)
    with decimal.localcontext() as ctx:
        ctx.prec = 40
        return rounded_double(q.quantize(decimal.Decimal(1).scaleb(-digits), rounding=mode),
                              digits)


#: the bits of the extended precision Excel's ROUND works in before its result is made a
#: double (``rounded_double``)
EXTENDED_BITS = 64


def rounded_double(q, digits: int) -> float:
    """The double Excel's ROUND, ROUNDUP and ROUNDDOWN give for the decimal ``q`` they
    rounded to ``digits`` places: the decimal taken first to ``EXTENDED_BITS`` significant
    bits, then to a double's 53. That is the nearest double (``float(q)``) except where
    ``q`` lies within about 2^-11 of a unit in the last place of the midpoint between two
    doubles, where rounding twice may give the other one.

    ``Fuel!N434`` of Summary_Financials.xlsm (the tuning pool's JetBlue model),
    ``ROUND(+J434/X434*L434,7)+AF434``, rounds to 0.0136044: the nearest double, plus
    AF434's -4.6534528206493286E-8, is 0.013604353465471794, and Excel saved
    0.013604353465471793, the sum with the double below 0.0136044 (0.0136044 lies 2^-11.8
    of a unit above the midpoint). Rounding to 64 bits, then 53, gives it; the nearest
    double gives the 255 other cells of ``Fuel!H388:N451`` (ROUND to 4 and 7 places, plus a
    constant) and all 1,443 ROUND, ROUNDUP and ROUNDDOWN cells that are the formula's
    whole (``=ROUND(...,n)``) of the corpora seen (own, the business parts, the pool), as
    does rounding twice; their results all agree with both ways the 64 bits may be made
    (the decimal correctly rounded, or the whole number of units times 10^-digits rounded
    to 64 bits), so where those two give different doubles the value is not settled and
    strict mode refuses it (``context.refuse``).

    Microsoft's "ROUND function" page says what is rounded, not how the result is made a
    double; the cells above are the evidence."""
    import decimal
    from fractions import Fraction

    nearest = float(q)
    if not q or not math.isfinite(nearest) or not _near_midpoint(abs(q), abs(nearest)):
        return nearest
    exact = Fraction(q)
    correctly = float(_to_bits(exact, EXTENDED_BITS))
    if digits > 0:
        units = int(q.scaleb(digits).to_integral_value(rounding=decimal.ROUND_HALF_EVEN))
        step = _to_bits(Fraction(1, 10 ** digits), EXTENDED_BITS)
        by_units = float(_to_bits(units * step, EXTENDED_BITS))
        if by_units != correctly:
            context.refuse(f"ROUND's result {q} lies so near the midpoint of two doubles "
                           "that which one Excel gives is not settled by the cells it saved")
            raise ValueError(f"ROUND's double of {q}")
    return correctly


def _near_midpoint(a, nearest: float) -> bool:
    """Whether the positive decimal ``a`` lies within 2^-9 of a unit in the last place of
    the midpoint between ``nearest`` (its nearest double) and the double beyond it."""
    import decimal

    with decimal.localcontext() as ctx:
        ctx.prec = 80
        off = a - decimal.Decimal(nearest)
        if not off:
            return False
        beyond = math.nextafter(nearest, math.inf if off > 0 else 0.0)
        half = abs(decimal.Decimal(beyond) - decimal.Decimal(nearest)) / 2
        return abs(abs(off) - half) <= half * decimal.Decimal(2) ** -8


def _to_bits(v, bits: int):
    """The rational ``v`` rounded (half to even) to ``bits`` significant bits."""
    from fractions import Fraction

    if v == 0:
        return v
    sign, v = (-1 if v < 0 else 1), abs(v)
    n, d = v.numerator, v.denominator
    e = n.bit_length() - d.bit_length() - 1  # 2^e < v < 2^(e+2)
    if Fraction(2) ** (e + 1) <= v:
        e += 1
    shift = bits - 1 - e
    num, den = (n << shift, d) if shift >= 0 else (n, d << -shift)
    q, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and q & 1):
        q += 1
    return sign * Fraction(q) / Fraction(2) ** shift


def number_text(x) -> str:
    """A number as Excel writes it in text (``="x"&A1``, LEN, LEFT...): its 15
    significant digits, without trailing zeros and in plain notation (0.1+0.2 is "0.3",
    1/3 "0.333333333333333", 1E-05 "0.00001"). Outside 1E-05 to 1E+15 Excel switches to
    scientific notation by rules napkin does not reproduce: such a number stops strict
    mode (``addin.formula.context.CANNOT``); so does one whose 15 digits from its
    binary value differ from those of its shortest decimal form rounded half up
    (0.07091484430265245: "0.0709148443026524" or "0.0709148443026525").

    References: Microsoft, "Floating-point arithmetic may give inaccurate results in
    Excel" (15 digits); apache/poi FormulaEvalTestData.xls, SEARCH(1, 0.00001) is 7."""
    import decimal

    if x == 0:
        return "0"
    if not 1e-5 <= abs(x) < 1e15:
        context.refuse(f"the text of the number {x:.15g} (Excel writes it in scientific "
                       "notation by its own rules)")
        raise ValueError(f"{x!r} as text")
    exact = decimal.Decimal(f"{x:.15g}")
    shortest = decimal.Decimal(repr(float(x)))
    if shortest.quantize(decimal.Decimal(1).scaleb(shortest.adjusted() - 14),
                         rounding=decimal.ROUND_HALF_UP) != exact:
        context.refuse(f"the text of the number {float(x)!r}, whose 15th digit depends "
                       "on whether Excel rounds its binary value or its 17 digits")
        raise ValueError(f"{x!r} as text")
    _refuse_digits_not_excels(float(x))
    text = format(exact, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


#: how far (relative) napkin's value may lie from Excel's where it calls a function whose
#: last digits are not Excel's itself, on Excel's own inputs: a few units in the last
#: place (``addin.formula.cancellation.OWN_DIGITS_NEAR``'s note), 64 of them
OWN_DIGITS_APART = 2.0 ** -46


def _refuse_digits_not_excels(x: float) -> None:
    """Refuse (``context.refuse``) the 15 digits of ``x`` where napkin's last digits may
    not be Excel's and the 15th digit would change within that doubt: downstream of PMT,
    ``^`` and the like (``context.last_digits_unknown``), ``UNKNOWN_DIGITS_EQUAL`` where a
    cell the formula reads holds a value within that of Excel's saved one but not it
    (last digits apart: Excel's text is the one saved), ``OWN_DIGITS_APART`` where the
    formula calls such a function itself; nothing where its operands are Excel's, nor
    where an input changed (the text is then napkin's own, as its numbers are, whose
    last bits may differ from Excel's). (The business corpus's thirteenth part: a loan
    balance 7 units in the last place from Excel's, -1422.5631928883365 in Excel, written
    as text, ended in 833 where Excel's ended in 834.)"""
    unknown = context.last_digits_unknown()
    digits = repr(abs(x)).split("e")[0].replace(".", "").strip("0")
    if not unknown or len(digits) <= 15:  # (a short decimal, as ROUND gives: "47.3")
        return
    from addin.formula import saved_operands

    if not saved_operands.inputs_as_saved():
        if not saved_operands.inputs_as_saved(within=UNKNOWN_DIGITS_EQUAL):
            return  # (an input changed: napkin's own value, as for its numbers)
        doubt = UNKNOWN_DIGITS_EQUAL
    elif saved_operands.calls_unknown_digits():
        doubt = OWN_DIGITS_APART
    else:
        return
    if f"{x * (1 - doubt):.15g}" != f"{x * (1 + doubt):.15g}":
        context.refuse(f"the text of the number {x!r}, computed from {unknown} (napkin's "
                       f"last digits of {unknown} are not always Excel's, and its 15th "
                       "digit would change within them)")
        raise ValueError(f"{x!r} as text")


_NUMBER_TEXT = re.compile(
    r"\s*(?P<sign>[-+])?\s*(?P<open>\()?\s*\$?\s*(?P<sign2>[-+])?\s*"
    r"(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?P<exp>[eE][-+]?\d+)?"
    r"\s*(?P<pct>%)?\s*(?P<close>\))?\s*")
_TIME_ONLY = re.compile(r"\s*(\d{1,2}):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?\s*(?:([AaPp])[Mm])?\s*")
_ONLY_NUMBER_CHARS = re.compile(r"[\d\s,.$%()+\-eE]*")
_ISO_DATE = re.compile(r"\s*\d{4}-\d{1,2}-\d{1,2}\s*")  # 2024-03-15: a date, as DATEVALUE reads it


def text_number(text: str) -> float | None:
    """A text Excel reads as a number (``"1,000"``, ``"$1,000"``, ``"50%"``,
    ``"(12)"``, ``"1E3"``), or None. References: Microsoft, "VALUE function"."""
    m = _NUMBER_TEXT.fullmatch(text)
    if not m or bool(m.group("open")) != bool(m.group("close")) or \
            (m.group("sign") and m.group("sign2")):
        return None
    x = float(m.group("num").replace(",", "") + (m.group("exp") or ""))
    if m.group("pct"):
        x /= 100
    if m.group("open") or "-" in (m.group("sign") or "") + (m.group("sign2") or ""):
        x = -x
    return x


def _quotient(q: float) -> float:
    """A quotient taken to the 15 significant digits Excel keeps before it is rounded to
    a whole number (7.1/0.1 is 70.99999999999999 in binary, 71 in Excel)."""
    return float(f"{q:.15g}") if math.isfinite(q) else q


_WILDCARD = re.compile(r"(?<!~)[?*]")


def wildcard(pattern: str, star: str = ".*"):
    """Excel's wildcard ``pattern`` (``?`` one character, ``*`` any run, ``~`` escaping
    ``?``, ``*`` or ``~``) as a compiled, case-insensitive regular expression; ``star`` is
    what ``*`` becomes (``".*?"`` where the shortest match is wanted)."""
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "~" and i + 1 < len(pattern) and pattern[i + 1] in "?*~":
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append("." if ch == "?" else star if ch == "*" else re.escape(ch))
        i += 1
    return re.compile("".join(out), re.I | re.S)


def _wildcard_match(raw, body: str):
    """Which cells of ``raw`` a criterion with wildcards matches, as Excel's COUNTIF: the
    whole text, without case (``"a*"`` matches "Apple pie"), ``?`` one character, ``*``
    any, ``~?`` and ``~*`` themselves (formulas matched with case, and a prefix only)."""
    match = wildcard(body).fullmatch
    return np.vectorize(lambda v: isinstance(v, str) and bool(match(v)), otypes=[bool])(raw)


#: two different numbers this near (relative to the larger) are refused by a comparison
#: (``fx_excel.comparison``) unless Excel's answer is settled (``EQUAL``, ``APART``): their
#: last digits are rounding errors that a chain of operations carries, as in a sum near 0
#: (``addin.formula.cancellation.NEAR``)
NEAR_EQUAL = 2.0 ** -40
#: two numbers agreeing to 15 significant digits and within this fraction of the larger
#: are equal to Excel's comparison: 14 cells Excel saved as equal, balance checks such as
#: ``IFERROR(I67=I54,0)`` of 84596.90000000001 and 84596.9 (2^-52.4 apart) or
#: ``=H74=H61`` of 5723.7300000000005 and 5723.73 (2^-52.0 to 2^-53.0 apart, the business
#: corpus's parts; ``python -m tools.cancel_evidence``)
EQUAL = 2.0 ** -52
#: two numbers differing in their 15 significant digits and at least this fraction of
#: the larger apart are different to Excel's comparison: 2 cells Excel saved so, the
#: nearer 80777.98632504555 and 80777.9863250455 (2^-50.3 apart, a balance check of
#: heldout3's Financial Feasibility.xlsx: this bound is their distance), the other
#: 1.11111111111111 and 1.1111111111111 (2^-46.7 apart, tests/corpus/poi
#: FormulaEvalTestData_Copy.xlsx, EverythingTests!F35). Excel's 15 digits and any binary
#: bound from 2^-52 up to that distance give all 16 cells; where they part (15 digits the
#: same beyond 2^-52, or different nearer than this) no saved cell settles which Excel
#: takes: refused
APART = (80777.98632504555 - 80777.9863250455) / 80777.98632504555
#: downstream of a function whose last digits are not Excel's (PMT, ``^``...), where a
#: cell the formula reads holds in napkin another value than Excel saved there, two
#: numbers this near are not settled either: napkin's operands there may differ from
#: Excel's by 2^-42 of themselves (the twelfth part's 180-row loan schedule,
#: ``addin.formula.cancellation.UNKNOWN_DIGITS_NEAR``), 64 times that is the margin
UNKNOWN_DIGITS_EQUAL = 2.0 ** -36
_REAL = (int, float, np.float64)


def _noise_bound() -> float:
    return context.saved_noise() * context.NOISE_MARGIN


def _refuse_beyond_excels_operands(x, y, key: str) -> None:
    """Refuse (``context.refuse``) comparison ``key`` of ``x`` and ``y``, within
    ``UNKNOWN_DIGITS_EQUAL`` of each other, where they are downstream of a function whose
    last digits are not Excel's and a cell the formula reads holds a value within that of
    the one Excel saved but not it (``saved_operands.inputs_as_saved``: last digits apart):
    Excel's operands may lie on the other side of each other. Where an input changed the
    comparison is napkin's own, as its numbers are."""
    unknown = context.last_digits_unknown()
    if not unknown:
        return
    from addin.formula import saved_operands

    if not saved_operands.inputs_as_saved() and \
            saved_operands.inputs_as_saved(within=UNKNOWN_DIGITS_EQUAL):
        context.refuse(f"'{key}' of two numbers within 2^-36 of each other, computed from "
                       f"{unknown} through cells whose values differ from Excel's (napkin's "
                       f"last digits of {unknown} are not always Excel's, and a chain "
                       "carries them)")


def near_equal(x, y, key: str):
    """``(x, y)`` as comparison ``key`` takes them: two different numbers within 2^-40 of
    each other (``NEAR_EQUAL``) that agree to 15 significant digits within 2^-52
    (``EQUAL``) as equal, ``(x, x)``; that differ in those digits 2^-50.3 (``APART``) or
    more apart as they are; the cell refused (``context.refuse``) for the others: Excel
    may take them as equal or not, and no saved cell settles which. Downstream of a cycle
    Excel saved short of its fixed point (``context.saved_noise``), two numbers within
    that noise (``context.NOISE_MARGIN``) are refused, none settled; downstream of PMT,
    ``^`` and the like, where the formula's inputs are not Excel's to the last bit, two
    within 2^-36 (``UNKNOWN_DIGITS_EQUAL``, ``_refuse_beyond_excels_operands``)."""
    if type(x) in _REAL and type(y) in _REAL and x == y and x and context.saved_noise():
        context.refuse(f"'{key}' of two numbers equal in napkin, downstream of a circular "
                       "reference Excel saved short of its fixed point (Excel's may differ "
                       "by what its unfinished iteration leaves, and then are not equal)")
    if type(x) in _REAL and type(y) in _REAL and x != y and \
            abs(x - y) <= max(abs(x), abs(y)) * UNKNOWN_DIGITS_EQUAL and \
            abs(x - y) > max(abs(x), abs(y)) * max(NEAR_EQUAL, _noise_bound()):
        _refuse_beyond_excels_operands(x, y, key)
    if type(x) in _REAL and type(y) in _REAL and x != y and \
            abs(x - y) <= max(abs(x), abs(y)) * max(NEAR_EQUAL, _noise_bound()):
        apart, same = abs(x - y) / max(abs(x), abs(y)), f"{x:.14e}" == f"{y:.14e}"
        settled = not context.saved_noise()  # (else Excel's are its iteration's values)
        unknown = context.last_digits_unknown()  # (PMT, ^...: not Excel's last bits)
        if unknown and settled:  # (refused; the rule's answer on napkin's operands given)
            context.refuse(f"'{key}' of two numbers within 2^-40 of each other, computed "
                           f"from {unknown} (napkin's last digits of {unknown} are not "
                           "always Excel's: Excel may take them as equal or not)")
        if settled and same and apart <= EQUAL:
            return x, x
        if settled and not same and apart >= APART:
            return x, y
        if unknown and settled:
            return x, y
        context.refuse(f"'{key}' of two numbers within what Excel's unfinished iteration "
                       "of a circular reference leaves in its values (Excel may take them "
                       "as equal)" if not settled else
                       f"'{key}' of two numbers within 2^-40 of each other (Excel may take "
                       "them as equal)")
    return x, y


#: a number as Excel may read one from text: sign, currency, thousands, exponent, percent
_NUMBER = re.compile(r"\s*[-+(]?\s*[$€£¥]?\s*[-+]?(?:\d[\d,]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
                     r"\s*%?\)?\s*")
#: a date or a time as Excel may read one: digits around ``/ : - .``, commas and spaces,
#: AM/PM and English month or day names only (``"3:1"``, ``"1-Jan-2020"``, ``"Mon, 3 Feb"``),
#: with a separator between two digits; a text with any other word is not read as a date
_DATE_WORD = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
              r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
              r"mon(?:day)?|tue(?:sday)?|wed(?:nesday)?|thu(?:rsday)?|fri(?:day)?|"
              r"sat(?:urday)?|sun(?:day)?|[ap]\.?m\.?")
_DATE = re.compile(rf"(?i)(?=.*\d\s*[/:.-]\s*\d|.*(?:{_DATE_WORD}))"
                   rf"(?:[\d\s/:.,-]|{_DATE_WORD})+")


def looks_numeric(text: str) -> bool:
    """Whether Excel may read ``text`` as a number: digits with a sign, decimal point,
    thousands separators, exponent, percent or currency sign, or a date or a time (digits
    around ``/ : - .`` with month or day names and AM/PM only). Errs on the side of yes
    within those shapes; a text with any other word (a model's name, a note) is text."""
    return bool(text) and any(ch.isdigit() for ch in text) and bool(
        _NUMBER.fullmatch(text) or _DATE.fullmatch(text))
