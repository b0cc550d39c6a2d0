"""Corrections to ``formulas``' functions and operators where they differ from Excel
(found on the values Excel saved in tests/corpus and on Microsoft's help pages): the
companion of ``addin.formula.fx``, and with it the only module that imports formulas.
``addin.formula.patches.PATCHES`` names each of them, with what it corrects; they are
put in place once, by ``addin.engine.boot.ready``.
"""

from __future__ import annotations

import functools
import math
import threading

import numpy as np

from addin.formula import context, locale_texts, text_order
from addin.formula.empty_criteria import refused_over_empty_text
from addin.formula.excel_numbers import (
    _ISO_DATE,
    _ONLY_NUMBER_CHARS,
    _TIME_ONLY,
    _quotient,
    _round15,
    near_equal,
    number_text,
    text_number,
)

_ROUNDING = {"ROUND": "ROUND_HALF_UP", "ROUNDUP": "ROUND_UP", "ROUNDDOWN": "ROUND_DOWN"}


def rounding(original, key: str):
    """Excel's ROUND, ROUNDUP or ROUNDDOWN (``key``) in the place of formulas' own
    (``_round15``)."""
    import decimal

    from formulas.functions import wrap_ufunc

    return wrap_ufunc(functools.partial(_round15, mode=getattr(decimal, _ROUNDING[key])))


def isnumber(original, key: str):
    """Excel's ISNUMBER: TRUE for a number only, not for a text that reads as one (``"1"``)
    nor for TRUE."""
    from formulas.functions import wrap_ranges_func
    from formulas.functions.info import FalseArray, iserror

    def number(x):
        return isinstance(x, (int, float, np.number)) and not isinstance(x, (bool, np.bool_))

    return wrap_ranges_func(functools.partial(iserror, check=number, array=FalseArray))


#: why strict mode stops on a month and a number without a year (``text_date``)
MONTH_AND_NUMBER = ("a month and a number without a year (a day of this year, or a year: "
                    "Excel read \"May-25\" as May 2025)")
#: ``on`` while MONTH reads its argument (``addin.formula.fx_excel_dates.month_of_text``)
MONTH_ONLY = threading.local()


def text_date(original, key: None):
    """formulas' reading of a date written as text, refusing a year Excel does not
    accept (``YEAR("7/5/1800")`` and ``DATEVALUE("7/5/10000")`` are ``#VALUE!`` in Excel:
    dates run from 1 January 1900 to 31 December 9999) and a day its month does not have
    (formulas carried ``"2024-02-30"`` over to 1 March), and a text of a month, a weekday
    or a day alone, which formulas' parser reads as a date in the current year (a month
    alone stays a text when typed into Excel: ``"March"`` is no date, nor ``"Mon"`` or
    ``"1st"``); a date whose reading depends on the computer's regional settings
    (``addin.formula.locale_texts``: the order of day and month, its separators) stops
    strict mode (``context.refuse``), and so does a month and a number without a year:
    Excel read "May-25" as May 2025 (the business corpus's fourteenth part), where
    formulas' parser read 25 May of this year; "Feb-29" in a year without that day is
    refused too (formulas' parser gave no date: February 2029, or none?). Only MONTH
    reads such a text (a day of it valid) without stopping, its month being the same read
    either way (``MONTH_ONLY``, ``addin.formula.fx_excel_dates.month_of_text``). A number
    in Excel's text forms (``"$45,809"``, ``"50%"``; YEAR reads ``"45809"`` before) stops
    strict mode too: formulas' parser gave #VALUE!, where Excel may read the number."""

    import calendar

    from formulas.functions import date

    @functools.lru_cache
    def read(text):
        got = original(text)
        if not 1900 <= got[0] <= 9999:
            raise ValueError(f"{text!r} is not a date between 1900 and 9999")
        year, month, day = got[0], got[1], got[2]
        parsed = date._get_date_parser()._parse(text)[0]
        month_and_number = (parsed is not None and parsed.year is None
                            and None not in (parsed.month, parsed.day))
        last = 29 if (year, month) == (1900, 2) else calendar.monthrange(year, month)[1]
        if not 1 <= day <= last:  # 2024-02-30 is no date (1900-02-29 is, in Excel)
            if month_and_number:  # ("Feb-29" in 2026: no day, but February 2029?)
                return None, MONTH_AND_NUMBER
            raise ValueError(f"{text!r} is not a date")
        if parsed is None or parsed.year is not None:
            return got, None
        if month_and_number:  # ("May-25": May 2025 in Excel)
            return got, MONTH_AND_NUMBER
        if parsed.hour is not None:  # ("12 PM": formulas adds 1 January of this year)
            return got, "a time written otherwise than h:mm (no page gives Excel's forms)"
        raise ValueError(f"{text!r} is not a date")  # "March", "Mon", "1st"

    def text2datetime(text):
        if isinstance(text, str) and text_number(text) is not None:  # ("$45,809", "50%")
            context.refuse(f"the text {text!r}, a number written as Excel's VALUE reads it,"
                           " given where a date is read (its serial number? not checked)")
            raise ValueError(f"{text!r} is a number written as text")
        reason = locale_texts.numeric_date_read_by_locale(text)
        got, doubt = read(text)  # (no date at all: ValueError, as before)
        if got is not None and doubt is MONTH_AND_NUMBER and getattr(MONTH_ONLY, "on", False):
            doubt = None  # (its month is the same read either way: ``month_of_text``)
        reason = reason or doubt
        if reason is not None:
            context.refuse(locale_texts.why(text, reason))
            raise ValueError(f"{text!r} is read by the computer's settings")
        return got

    return text2datetime


def _str(value):
    """formulas' conversion of a value to text, with numbers as Excel writes them."""
    if isinstance(value, (bool, np.bool_)):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float, np.number)):
        return number_text(float(value))
    return str(value)


def excel_text(value) -> str:
    """A value as Excel writes it in text: TRUE/FALSE, a number with its 15 significant
    digits (``number_text``), a text as it is."""
    return _str(value)


def excel_str(original, key: None):
    """``_str`` in the place of formulas' ``_str``."""
    return _str


def text_value(text: str) -> float:
    """A text as Excel reads it where it needs a number: a number (``text_number``),
    else a date or time (``"1/2/2020"``, ``"2020-01-02"``, ``"10:30"``) as its serial
    number, the same date DATEVALUE reads; ValueError for any other text (``"1,00"`` is
    not a date, nor ``"/1"``: tests/test_array_arguments_repeated.py)."""
    reason = locale_texts.number_read_by_locale(text, _reads_as_number_or_time)
    if reason is not None:
        context.refuse(locale_texts.why(text, reason))
        raise ValueError(f"{text!r} is read by the computer's settings")
    x = text_number(text)
    if x is not None:
        return x
    if _ONLY_NUMBER_CHARS.fullmatch(text) and not _ISO_DATE.fullmatch(text) or \
            not text.strip() or text.lstrip()[:1] == "/":
        reason = locale_texts.numeric_date_read_by_locale(text)
        if reason is not None:  # ("1-2-24", "1.2.2024": a date on some computers)
            context.refuse(locale_texts.why(text, reason))
        raise ValueError(f"{text!r} is not a number")
    m = _TIME_ONLY.fullmatch(text)
    if m:  # a time alone is the fraction of a day (formulas would add today's date)
        h, mi, sec = int(m.group(1)), int(m.group(2)), float(m.group(3) or 0)
        if m.group(4):
            if not 1 <= h <= 12:
                raise ValueError(f"{text!r} is not a time")
            h = h % 12 + (12 if m.group(4).upper() == "P" else 0)
        if mi > 59 or sec >= 60:
            raise ValueError(f"{text!r} is not a time")
        return (h * 3600 + mi * 60 + sec) / 86400
    from formulas.errors import FoundError
    from formulas.functions import date

    try:
        d = date._text2datetime(text)
        serial = float(date.xdate(*d[:3]) + date.xtime(*d[3:]))
    except (FoundError, AssertionError, ValueError, TypeError, OverflowError) as ex:
        raise ValueError(f"{text!r} is not a number") from ex
    book = getattr(context.STATE, "book", None)
    if book is not None and book.date1904:  # day 0 is 1 January 1904
        serial -= 1462
        if serial < 0:
            raise ValueError(f"{text!r} is before 1904")
    return serial


def _reads_as_number_or_time(text: str) -> bool:
    """Whether ASCII ``text`` reads as a number or a time of day (``text_number``,
    ``_TIME_ONLY``)."""
    return text_number(text) is not None or bool(_TIME_ONLY.fullmatch(text))


_TEXT2NUM: list = []  # the one text2num, made from formulas.functions._text2num


def text2num(original, key: None):
    """formulas' ``_text2num`` reading text as Excel does (``text_value``); one
    function for every module of formulas that holds ``_text2num``, made from the first
    module's (``formulas.functions``, whose ``_text2num`` the others import)."""
    if not _TEXT2NUM:
        from formulas.functions import Array, Error

        def convert(value):
            if isinstance(value, Array) and not value.shape:
                value = value.tolist()
            if isinstance(value, str) and not isinstance(value, Error):
                try:
                    return text_value(value)
                except ValueError:
                    return value
            return original(value)

        _TEXT2NUM.append(convert)
    return _TEXT2NUM[0]


def text2num_vectorize(original, key: None):
    """formulas' ``_text2num_vectorize`` with its cache emptied, so that it vectorizes the
    ``_text2num`` of ``text2num``."""
    original.cache_clear()
    return original


def _to_float(v):
    return text_value(v) if isinstance(v, str) else float(v)


def _arithmetic():
    from formulas.functions import Error

    from addin.formula import fx

    return {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "U-": lambda x: -x,
            "*": lambda x, y: x * y, "^": fx._power, "%": lambda x: x / 100.0,
            "/": lambda x, y: (x / y) if y else Error.errors["#DIV/0!"]}


def text_arithmetic(original, key: str):
    """formulas' operator ``key`` (``+ - U- * ^ % /``) reading a text operand as Excel does
    (``text_value``); ``^`` beyond a float is ``#NUM!`` (``addin.formula.fx._power``)."""
    from formulas.functions import wrap_ufunc

    return wrap_ufunc(_arithmetic()[key], input_parser=lambda *a: map(_to_float, a))


_VALUE: list = []  # the one VALUE, in formulas' text module and its table


def value(original, key: str):
    """Excel's VALUE: a text as Excel reads it (``text_value``), ``#VALUE!`` for a
    logical value."""
    if not _VALUE:
        from formulas.functions import Error, wrap_ufunc

        def excel_value(v):
            if isinstance(v, (bool, np.bool_)):
                raise ValueError("VALUE of a logical value")
            if isinstance(v, str) and not isinstance(v, Error):
                return text_value(v)
            return float(v)

        _VALUE.append(wrap_ufunc(excel_value, input_parser=lambda *a: a))
    return _VALUE[0]


_ORDERS = ("<", ">", "<=", ">=")


def comparison(original, key: str):
    """formulas' comparison ``key`` (``= <> < > <= >=``) with Excel's blank cell: FALSE
    beside a logical value, "" beside text, 0 beside a number. Two different error
    values stop strict mode (``context.refuse``): which of them Excel gives is not
    documented (formulas gives the left one); so does an order of two texts whose order
    in Excel is not known to be napkin's (``addin.formula.text_order``)."""
    from formulas.functions import XlError, get_error, operators, sh, wrap_ufunc
    from formulas.functions.look import _get_type_id

    def error_of(x, y):
        if isinstance(x, XlError) and isinstance(y, XlError) and str(x) != str(y):
            context.refuse(f"a comparison of two error values, {x} and {y}", str(x))
        return get_error(x, y)

    def logic_input(x, y):
        def blank(v, other):
            if v is not sh.EMPTY:
                return v
            if isinstance(other, (bool, np.bool_)):
                return False
            return "" if isinstance(other, str) else 0
        x, y = blank(x, y), blank(y, x)
        x, y = near_equal(x, y, key)  # (equal but for their last bits, or refused)
        xt, yt = _get_type_id(x), _get_type_id(y)
        if xt == yt == 1:
            if key in _ORDERS and not text_order.settled(x, y):  # (refused)
                context.refuse(f"'{key}' of two texts: " + text_order.why(x, y))
            x, y = x.upper(), y.upper()
        return (xt, x), (yt, y)

    return wrap_ufunc(operators.LOGIC_OPERATORS[key], input_parser=logic_input,
                      args_parser=lambda *a: a, check_error=error_of)


def _to_multiple(num, sig, up: bool, mode=0, math_form: bool = False):
    """``num`` to a multiple of ``sig``, up (CEILING) or down (FLOOR), after Excel's
    rules (see ``to_multiple``)."""
    from formulas.functions import Error

    whole = math.ceil if up else math.floor
    if math_form:
        sig = 1.0 if sig is None else abs(sig)
        if sig == 0 or num == 0:
            return 0.0
        if num < 0 and mode:  # CEILING.MATH away from zero, FLOOR.MATH toward it
            return _quotient(-(math.ceil if up else math.floor)(_quotient(-num / sig)) * sig)
        return _quotient(whole(_quotient(num / sig)) * sig)
    if sig == 0:
        return 0.0 if up or num == 0 else Error.errors["#DIV/0!"]
    if num > 0 > sig:
        return Error.errors["#NUM!"]
    return _quotient(whole(_quotient(num / sig)) * sig)


def to_multiple(original, key: str):
    """Excel's FLOOR, CEILING and their .MATH and .PRECISE forms (``key``) in the place of
    formulas' own: the quotient taken to 15 significant digits before it is rounded
    (FLOOR(7.1,0.1) is 7.1, not 7), and CEILING.MATH/FLOOR.MATH of a negative number
    rounded toward or away from zero as ``mode`` says.

    References: Microsoft Support, "FLOOR function", "CEILING function", "FLOOR.MATH
    function" (FLOOR.MATH(-5.5,2,-1) is -4), "CEILING.MATH function"
    (CEILING.MATH(-5.5,2,-1) is -6)."""
    from formulas.functions import wrap_ufunc

    up = "CEILING" in key
    if "MATH" in key or "PRECISE" in key:
        def f(num, sig=None, mode=0):
            return _to_multiple(num, sig, up, mode if "MATH" in key else 0, True)
    else:
        def f(num, sig):
            return _to_multiple(num, sig, up)
    return wrap_ufunc(f)


def criteria_total(original, key: str, resize=None):
    """Excel's SUMIF/AVERAGEIF in the place of formulas': the sum (the mean) of the
    numbers only of the cells matched (formulas adds a text that reads as a number,
    ``"12"``). A sum_range of another size than range is range's size from its top left
    cell (``resize``: ``addin.excel.references.resized``), else refused, as is ``"<>"``
    over a formula's empty text (``addin.formula.empty_criteria``). References: Microsoft
    Support, "SUMIF function" (sum_range "does not have to be the same size and shape as
    the range", from its "upper leftmost cell"); "WorksheetFunction.AverageIf method"."""
    from formulas.functions import Error, wrap_func, xfilter
    from formulas.tokens.operand import XlError

    def total(values):
        added, n = 0.0, 0  # (added in order, as Excel adds)
        for v in np.asarray(values, dtype=object).ravel():
            if isinstance(v, XlError):
                return v
            if isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_)):
                added, n = added + float(v), n + 1
        if key == "AVERAGEIF":
            return added / n if n else Error.errors["#DIV/0!"]
        return added

    computed = wrap_func(functools.partial(xfilter, total))

    def shape(v):  # (a reference's, an array's)
        return np.shape(getattr(v, "value", v))
    @functools.wraps(original)
    def of_size(test_range, condition, operating_range=None):
        if refused_over_empty_text(key, test_range, condition):
            return Error.errors["#VALUE!"]
        if operating_range is None:
            return computed(test_range, condition)
        if shape(test_range) != shape(operating_range):
            try:  # (Cannot, ExcelError, no resize or no reference: refused)
                operating_range = resize(operating_range, *test_range.ranges and shape(
                    test_range), f"{key}'s range to add")
            except Exception:
                context.refuse(f"{key} with a range to add of another size than its range")
                return Error.errors["#VALUE!"]
        return computed(test_range, condition, operating_range)

    return of_size


def empty_old_text(original, key: str):
    """formulas' SUBSTITUTE, an empty old_text leaving the text as it is (formulas put
    new_text between every two characters: ``"xaxbx"`` for ``SUBSTITUTE("ab","","x")``),
    an instance_num below 1 ``#VALUE!`` there too. An instance_num given as text or a
    logical value stops strict mode (``context.refuse``): no evidence says Excel's value.
    References: Microsoft Support, "SUBSTITUTE function" (old_text: the text replaced);
    tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, saved by Excel (G1312:
    SUBSTITUTE("teststr","t","T",0) is #VALUE!; P1312: SUBSTITUTE("testblankmatch","",
    "!",1) is the text)."""
    from formulas.functions import Error, replace_empty, wrap_ufunc
    from formulas.functions.text import _str as text_of
    from formulas.functions.text import xsubstitute
    from formulas.tokens.operand import XlError

    def substitute(text, old_text, new_text, instance_num=None):
        for v in (text, old_text, new_text, instance_num):
            if isinstance(v, XlError):
                return v
        if isinstance(instance_num, (str, bool, np.bool_)):
            context.refuse("SUBSTITUTE with an instance_num given as text or a logical "
                           "value")
            return Error.errors["#VALUE!"]
        if text_of(old_text) == "":
            if isinstance(instance_num, (int, float)) and instance_num < 1:
                return Error.errors["#VALUE!"]  # (as for any old_text)
            return text_of(text)
        return xsubstitute(text, old_text, new_text, instance_num)

    return wrap_ufunc(substitute, input_parser=lambda *a: a,
                      args_parser=lambda *a: (replace_empty(v, "") for v in a))


def sumproduct(original, key: str):
    """Excel's SUMPRODUCT in the place of formulas': arrays of different dimensions are
    ``#VALUE!``, an error value they hold is the result (two kinds, or an error value
    with dimensions that differ, stop strict mode: no page says which comes), and an
    entry that is not a number counts as 0 (formulas reads the text ``"12"`` as 12).

    References: Microsoft Support, "SUMPRODUCT function" ("The array arguments must
    have the same dimensions. If they do not, SUMPRODUCT returns the #VALUE! error
    value"; "SUMPRODUCT treats non-numeric array entries as if they were zeros");
    poi/FormulaEvalTestData_Copy.xlsx K1328: SUMPRODUCT of K1330:L1330 holding #REF!."""
    from formulas.functions import Error
    from formulas.tokens.operand import XlError

    def grid(v):
        a = np.asarray(getattr(v, "value", v), dtype=object)
        return a if a.ndim == 2 else np.atleast_2d(a)

    @functools.wraps(original)
    def computed(*args):
        arrays = [grid(a) for a in args]
        found = {str(v): v for a in arrays for v in a.ravel() if isinstance(v, XlError)}
        if len(found) > 1 or found and len({a.shape for a in arrays}) > 1:
            context.refuse("SUMPRODUCT() given error values of two kinds, or arrays of "
                           "different dimensions holding one (no page says which comes)")
        if len({a.shape for a in arrays}) > 1:
            return Error.errors["#VALUE!"]
        number = np.vectorize(lambda v: float(v) if isinstance(v, (int, float, np.number))
                              and not isinstance(v, (bool, np.bool_)) else 0.0, otypes=[float])
        return next(iter(found.values())) if found else \
            float(np.sum(functools.reduce(np.multiply, map(number, arrays))))

    return computed


def roman(original, key: str):
    """Excel's ROMAN in the place of formulas' own: the form FALSE is the simplified one
    (form 4; formulas takes both logical values as the classic form 0), TRUE the classic.

    References: Microsoft Support, "ROMAN function" (form: 0 or omitted, or TRUE,
    classic; 4, or FALSE, simplified; ROMAN(499,4) is "ID")."""
    from formulas.functions import wrap_ufunc
    from formulas.functions.math import xroman

    def excel_roman(number, form=0):
        if isinstance(form, (bool, np.bool_)):
            form = 0 if form else 4
        return xroman(number, form)

    return wrap_ufunc(excel_roman, input_parser=lambda *a: a)


def array_constant(original, key: str):
    """formulas' ``ARRAY``/``ARRAYROW`` (which build an array constant, ``{-1,0.5,4}``)
    with each negative element a number, as Excel's: formulas computes ``-1`` as a
    0-dimensional array, which SUM, MAX, COUNT... pass over as not a number
    (``SUM({-1,0.5,4})`` gave 4.5, Excel 3.5) and CONCAT writes as ``-1.0``.

    References: Microsoft Support, "Use array constants in array formulas" (an array
    constant holds numbers, text, logical values and errors)."""

    def build(*args):
        return original(*[a.item() if isinstance(a, np.ndarray) and a.ndim == 0 else a
                          for a in args])

    return build


def vertical_array(original, key: str):
    """formulas' MODE.MULT with its modes as a vertical array, as Excel's (formulas gives
    a Python list, which SUM read as a text). References: Microsoft Support, "MODE.MULT
    function" (a vertical array of the most frequently occurring values)."""
    from formulas.functions import Array

    @functools.wraps(original)
    def modes(*args, **kwargs):
        got = original(*args, **kwargs)
        if isinstance(got, list):
            return np.asarray(got, dtype=object).reshape(-1, 1).view(Array)
        return got

    return modes
