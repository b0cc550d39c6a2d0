"""Excel's dates: DATE, YEARFRAC, and the date functions computed in the 1904 date
system (``DATES_1904``).

References
----------
Microsoft Support, "DATE function", "YEARFRAC function", "Date systems in Excel".
"""

from __future__ import annotations

import datetime
import functools
import math
import re

import numpy as np

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import context, excel_functions, fx
from addin.formula.excel_numbers import text_number
from udfs.machinery.errors import ExcelError

# --------------------------------------------------------------------------- YEARFRAC

#: serial 61 is 1 March 1900: below it Excel's calendar holds its 29 February 1900
#: (serial 60) and "January 0, 1900" (serial 0), which the date functions of the
#: Analysis ToolPak (EOMONTH, EDATE, WORKDAY, YEARFRAC) are not documented to count
MARCH_1900 = 61


def _serial_date(serial: int, what: str) -> datetime.date:
    if serial < MARCH_1900:
        raise Cannot(f"YEARFRAC of {what} {serial}, before 1 March 1900")
    if serial > 2958465:  # its page: #VALUE! for a date that is not valid; ECMA-376 #NUM!
        raise Cannot(f"YEARFRAC of {what} {serial}, after 31 December 9999")
    return datetime.date(1899, 12, 30) + datetime.timedelta(days=serial)


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

    if any(isinstance(v, (bool, np.bool_)) for v in (start_date, end_date, basis)):
        raise Cannot("YEARFRAC of a logical value")
    s = math.trunc(xa.number(start_date, "YEARFRAC's start_date"))
    e = math.trunc(xa.number(end_date, "YEARFRAC's end_date"))
    b = 0 if basis is None or fx.is_omitted(basis) else math.trunc(
        xa.number(basis, "YEARFRAC's basis"))
    book = getattr(context.STATE, "book", None)
    last = 2958465 - (DAYS_1904 if book is not None and book.date1904 else 0)
    if not (0 <= s <= last and 0 <= e <= last):  # before basis: which error comes first?
        raise Cannot("YEARFRAC of a serial number below 0 or after 31 December 9999 (its "
                     "page: #VALUE! for a date that is not valid; ECMA-376 and Excel's "
                     "other date functions #NUM!)")
    if not 0 <= b <= 4:
        raise ExcelError("#NUM!", "YEARFRAC: basis is 0 to 4")
    if s > e:
        s, e = e, s
    if s == e:
        return 0.0
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


# --------------------------------------------------------------------------- 1904 dates

#: days from 31 December 1899 (the 1900 system's day 0) to 1 January 1904 (the 1904
#: system's day 0), counting Excel's 29 February 1900
DAYS_1904 = 1462
#: date functions computed in the 1904 date system: name -> (positions of the serial
#: numbers they take, whether they give one), as formulas spells it (declared ``in_1904``)
DATES_1904 = excel_functions.facts("in_1904", spelled=True)


def _shift(v, days: int):
    """Serial numbers moved by ``days`` (a blank cell is day 0; a text that reads as a
    number, "2", is that serial number: YEAR("2") is 1904 in the 1904 date system, as
    YEAR(2); a text that reads as a date names its day in either system)."""
    ns = fx.load()
    if isinstance(v, ns.Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        out = np.empty(v.shape, dtype=object)
        for idx, x in np.ndenumerate(v):
            out[idx] = _shift(x, days)
        return out.view(ns.Array)
    if v is ns.EMPTY or v is None:
        return days
    if isinstance(v, str) and not isinstance(v, ns.XlError) and text_number(v) is not None:
        return text_number(v) + days  # a text read as a number is a serial number too
    if fx.is_omitted(v) or isinstance(v, (str, bool, np.bool_, ns.XlError)):
        return v
    if isinstance(v, (int, float, np.number)):
        return float(v) + days
    return v


def _below_zero(v) -> bool:
    """Whether ``v`` is, or holds, a number below 0 (a reference's values read)."""
    if isinstance(v, fx.load().Ranges):
        v = v.value
    values = v.ravel() if isinstance(v, np.ndarray) else (v,)
    return any(isinstance(x, (int, float, np.number)) and not isinstance(x, (bool, np.bool_))
               and x < 0 for x in values)


def _one_value(v) -> bool:
    """Whether ``v`` is one value (not a range or array of several)."""
    if isinstance(v, fx.load().Ranges):
        v = v.value
    return not isinstance(v, np.ndarray) or v.size == 1


def in_1904(name: str, original):
    """``original``, a date function of ``DATES_1904``, computed in the 1904 date system
    when the workbook uses it: its serial numbers moved by ``DAYS_1904`` and back. A
    serial number below 0, before 1 January 1904, is ``#NUM!`` for YEAR, MONTH and DAY
    (as below 0 in the 1900 system) and refused in strict mode for the others."""
    serial_args, gives_serial = DATES_1904[name]

    @functools.wraps(original)
    def wrapper(*args):
        book = getattr(context.STATE, "book", None)
        if book is None or not book.date1904:
            return original(*args)
        ns = fx.load()
        if any(_below_zero(a) for i, a in enumerate(args) if i in serial_args):
            if name in ("YEAR", "MONTH", "DAY") and _one_value(args[0]):
                return ns.errors["#NUM!"]  # (before 1 January 1904: no date)
            context.refuse(f"{name} of a serial number below 0 in the 1904 date system")
            return ns.errors["#VALUE!"]
        args = [_shift(a, DAYS_1904) if i in serial_args else a for i, a in enumerate(args)]
        if name == "DATE":
            y = xa.scalar(args[0], "DATE's year") if args else 0
            if isinstance(y, (int, float)) and y < 1904:
                context.record(ExcelError("#NUM!", "a year before 1904 in the 1904 date system"))
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


@xa.lifted
def date(year, month, day):
    """Excel's ``DATE(year, month, day)``: the serial number of the date; a year from 0
    to 1899 is counted from 1900, months and days beyond their range carry over (the
    day is added to the first of the month, so DATE(1900,1,22222) is 22222, counting
    Excel's 29 February 1900); ``#NUM!`` before 1900 (1904 in the 1904 date system),
    the month or day carrying it there too (Excel saved DATE(1900,1,-1) as #NUM! in
    tests/corpus/xlcalculator/DATE.xlsx), or after 9999. References: Microsoft Support,
    "DATE function"."""
    y = math.floor(xa.number(year, "DATE's year"))
    m = math.floor(xa.number(month, "DATE's month"))
    d = math.floor(xa.number(day, "DATE's day"))
    if 0 <= y < 1900:
        y += 1900
    y, m = y + (m - 1) // 12, (m - 1) % 12 + 1
    if not 1900 <= y <= 9999:
        raise ExcelError("#NUM!", f"DATE: the year {y} is outside 1900 to 9999")
    first = datetime.date(y, m, 1)
    serial = (first - datetime.date(1899, 12, 31)).days + (1 if first >= datetime.date(
        1900, 3, 1) else 0) + d - 1
    book = getattr(context.STATE, "book", None)
    low = 0
    if book is not None and book.date1904:
        serial -= DAYS_1904
        if y < 1904:
            raise ExcelError("#NUM!", "a year before 1904 in the 1904 date system")
    if not low <= serial <= 2958465 - (DAYS_1904 if book is not None and book.date1904
                                       else 0):
        raise ExcelError("#NUM!", f"DATE: day {serial} is outside Excel's dates")
    return float(serial)


# --------------------------------------------------------------------------- checked forms

_TIME_ONLY = re.compile(r"\s*\d{1,2}:\d{1,2}(:\d{1,2}(\.\d*)?)?\s*([AaPp][Mm]?)?\s*")


def _elements(v):
    ns = fx.load()
    if isinstance(v, ns.Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        yield from v.ravel().tolist()
    else:
        yield v


def _is_number(x) -> bool:
    return isinstance(x, (int, float, np.number)) and not isinstance(x, (bool, np.bool_))


def _logical_or_time(name: str, x) -> str | None:
    """Why strict mode refuses ``x`` given to ``name`` whatever the other arguments."""
    if isinstance(x, (bool, np.bool_)):
        return f"{name} of a logical value"
    if name == "DATEVALUE" and isinstance(x, str) and _TIME_ONLY.fullmatch(x):
        return "DATEVALUE of a text that holds a time and no date"
    if isinstance(x, str) and x.lstrip()[:1] in ("-", "+") and text_number(x) is None:
        return f"{name} of a text with a sign before a date ({x!r})"  # (no page says)
    return None


def _unsettled_date(name: str, x) -> str | None:
    """Why strict mode refuses the date ``x`` given to ``name`` when the function gives
    a value (an error value from another argument stands)."""
    if not _is_number(x):
        return None
    if name in ("DAYS360", "_XLFN.DAYS360", "DATEDIF") and not 0 <= x <= 2958465:
        return f"{name} of a serial number outside 0 to 2958465 (31 December 9999)"
    if name in ("EOMONTH", "DATEDIF") and -1 < x < MARCH_1900:
        return f"{name} of a date before 1 March 1900"
    if name == "WEEKDAY" and (-1 < x < 1 or 60 <= x < MARCH_1900):
        return ("WEEKDAY of serial number 0 or 60 (January 0, 1900 and Excel's 29 February "
                "1900, days of no calendar)")
    if name in ("DAYS360", "_XLFN.DAYS360") and 0 <= x < 1:
        return "DAYS360 of serial number 0 (January 0, 1900)"
    return None


def _same_whole_days(name: str, dates: list) -> bool:
    """Two dates whose value is settled whatever their parts: DAYS of two dates whose
    times of day cancel, DAYS360 of one day and itself."""
    if len(dates) != 2 or not all(_is_number(x) for x in dates):
        return False
    end, start = dates
    if name in ("DAYS", "_XLFN.DAYS"):
        return math.trunc(end) - math.trunc(start) == end - start
    # (a day of the calendar, both numbers in it: DAYS360(-0.6,0) is no day to itself)
    return 2958465 >= math.trunc(end) == math.trunc(start) >= 0 and min(end, start) >= 0


#: date functions whose arguments strict mode checks beyond their forms: name ->
#: (positions of the arguments checked, how many of them, from the first, are dates)
#: (declared ``serials_checked``)
CHECKED_SERIALS = excel_functions.facts("serials_checked", spelled=True)


def checked_serials(name: str, original):
    """formulas' date function ``name`` (as napkin corrected it), refusing in strict mode
    the arguments no evidence settles: a logical value (Excel's value for DAY(TRUE) or
    EOMONTH(TRUE,1) is documented nowhere), a text holding only a time in DATEVALUE, a
    text with a sign before a date (``YEAR("-1-1")``);
    and, when the function gives a value (an error value of another argument stands),
    a date with a time of day in DAYS that changes the count (its page reads
    ``end_date - start_date``, napkin counts whole days), a serial number outside 0 to
    2958465 in DAYS360 and DATEDIF (no page or saved file says #NUM!; EOMONTH's page
    does), serial number 0 in DAYS360 (but from a day to itself), a date before 1 March
    1900 in EOMONTH and DATEDIF, given or given back by EOMONTH (other engines' readings
    of Excel disagree there), serial numbers 0 and 60 in WEEKDAY ("January 0, 1900" and
    Excel's 29 February 1900, days of no calendar: no page or saved cell gives their
    weekday; from 1 to 59 Excel's weekdays are a day before the calendar's, as formulas
    counts them, Microsoft Knowledge Base 214058: WEEKDAY of 16 February 1900, a Friday,
    is 5). An empty cell is day 0.

    Inside ``in_1904``: a workbook in the 1904 date system gives the serial numbers of
    the 1900 system here.

    References: Microsoft Support, "EOMONTH function", "DAYS function", "DAYS360
    function", "DATEVALUE function"; Microsoft Knowledge Base 205719 (serial 0 is
    January 0, 1900, serial 60 is 29 February 1900), 214058 ("Days of the week before
    March 1, 1900 are incorrect in Excel") and Q149577 (a blank cell is zero)."""
    positions, dates = CHECKED_SERIALS[name]

    @functools.wraps(original)
    def wrapper(*args):
        ns = fx.load()
        # an empty cell is day 0 (Microsoft Knowledge Base Q149577: a blank cell is zero;
        # HOUR(D7), D7 empty, 0 as Excel saved it in FormulaEvalTestData_Copy.xlsx)
        given = [[0.0 if x is ns.EMPTY or x is None else x for x in _elements(a)]
                 for a in args]
        unsettled, at = None, set()
        for i in positions:
            for x in given[i] if i < len(given) else ():
                why = _logical_or_time(name, x)
                if why:
                    context.refuse(why)
                    return ns.errors["#VALUE!"]
                if i < dates:
                    why = _unsettled_date(name, x)
                    if name in ("DAYS", "_XLFN.DAYS") and _is_number(x) and x != math.trunc(x):
                        why = why or "DAYS of a date with a time of day"
                    if why:
                        unsettled, at = unsettled or why, at | {i}
        scalars = [g[0] for g in given[:dates] if len(g) == 1]
        if unsettled and _same_whole_days(name, scalars) and name != "DATEDIF":
            unsettled = None
        r = original(*args)
        if unsettled and all(len(given[i]) == 1 for i in at):
            # an error value that the other arguments give with a settled date stands
            settled = original(*(45000.0 if i in at else a for i, a in enumerate(args)))
            if all(isinstance(x, ns.XlError) for x in _elements(settled)) and \
                    [str(x) for x in _elements(settled)] == [str(x) for x in _elements(r)]:
                return r
        elif not unsettled and all(isinstance(x, ns.XlError) for x in _elements(r)):
            return r
        if unsettled is None and name == "EOMONTH" and any(
                _is_number(x) and 0 <= x < MARCH_1900 for x in _elements(r)):
            unsettled = "EOMONTH giving a date before 1 March 1900"
        if unsettled:
            context.refuse(unsettled)
            return ns.errors["#VALUE!"]
        return r

    return wrapper


# --------------------------------------------------------------------------- HOUR, ...

#: a time within this many seconds of a whole second is that second (a time typed as
#: 16:48:18 is stored as the nearest double, 0.70020833333333332 of a day)
_WHOLE_SECOND = 1e-6


def _time_of_day(serial, name: str) -> int:
    """The seconds since midnight of the serial number ``serial`` (one number, a cell
    holding one or an empty cell, 0), refused (``Cannot``) where Microsoft's page does not
    settle Excel's value: a logical value, a negative number, a time that is not a whole
    second (Excel's rounding of it is not documented: formulas' floors the hours and
    minutes and rounds the seconds, so SECOND(0.999999999) was 60)."""
    v = xa.one_value(serial, serial)
    ns = fx.load()
    if isinstance(v, ns.XlError):
        raise ExcelError(str(v), context.message_for(str(v)))
    if isinstance(v, (bool, np.bool_)):
        raise Cannot(f"{name}() given a logical value as its serial_number")
    if not _is_number(v) and not (v is ns.EMPTY or v is None):
        raise Cannot(f"{name}() given {v!r}: text or an array, not checked")
    x = 0.0 if v is ns.EMPTY or v is None else float(v)
    if x < 0 or x >= 2958466:  # (after 31 December 9999)
        raise Cannot(f"{name}() of a serial_number below 0 or after 9999 (its page gives "
                     "no error value)")
    seconds = (x - math.floor(x)) * 86400.0
    whole = round(seconds)
    if abs(seconds - whole) > _WHOLE_SECOND:
        raise Cannot(f"{name}() of a time that is not a whole second (Excel's rounding of "
                     "it is not documented)")
    return whole % 86400


def hour(serial_number):
    """Excel's ``HOUR(serial_number)``: the hour, 0 (12:00 A.M.) to 23 (11:00 P.M.), of
    the time of day of a serial number (its fraction of a day; Microsoft Support, "HOUR
    function": HOUR(0.75) is 18). ``_time_of_day`` says what is refused."""
    return _time_of_day(serial_number, "HOUR") // 3600


def minute(serial_number):
    """Excel's ``MINUTE(serial_number)``: the minute, 0 to 59, of the time of day
    (Microsoft Support, "MINUTE function": 12:45:00 PM gives 45)."""
    return _time_of_day(serial_number, "MINUTE") // 60 % 60


def second(serial_number):
    """Excel's ``SECOND(serial_number)``: the second, 0 to 59, of the time of day
    (Microsoft Support, "SECOND function": 4:48:18 PM gives 18, 4:48 PM 0)."""
    return _time_of_day(serial_number, "SECOND") % 60


#: HOUR, MINUTE and SECOND, ours (``addin.excel.refusals.CHECKED`` puts them in place)
TIMES = {"HOUR": hour, "MINUTE": minute, "SECOND": second}
