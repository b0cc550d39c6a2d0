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

import numpy as np

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import context, fx
from udfs.errors import ExcelError

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

    s = math.trunc(xa.number(start_date, "YEARFRAC's start_date"))
    e = math.trunc(xa.number(end_date, "YEARFRAC's end_date"))
    b = 0 if basis is None or fx.is_omitted(basis) else math.trunc(
        xa.number(basis, "YEARFRAC's basis"))
    if s < 0 or e < 0 or not 0 <= b <= 4:
        raise ExcelError("#NUM!", "YEARFRAC: dates must not be negative, basis is 0 to 4")
    if s > e:
        s, e = e, s
    if s == e:
        return 0.0
    book = getattr(context.STATE, "book", None)
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


def in_1904(name: str, original):
    serial_args, gives_serial = DATES_1904[name]

    @functools.wraps(original)
    def wrapper(*args):
        book = getattr(context.STATE, "book", None)
        if book is None or not book.date1904:
            return original(*args)
        ns = fx.load()
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
    Excel's 29 February 1900); ``#NUM!`` before 1900 (1904 in the 1904 date system) or
    after 9999. References: Microsoft Support, "DATE function"."""
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
