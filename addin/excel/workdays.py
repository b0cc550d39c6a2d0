"""Excel's NETWORKDAYS, NETWORKDAYS.INTL, WORKDAY.INTL, WEEKNUM, ISOWEEKNUM and
TIMEVALUE, napkin's own: computed where Microsoft's pages (and the cells Excel saved in
tests/corpus/sheetjs/formula_stress_test.xlsx, Date!B5, B17, B24, B25, B27) settle the
value, refused in strict mode (``Cannot``) where they do not.

Settled: dates from 1 March 1900 (serial 61) to 31 December 9999 (2958465), given as
numbers, truncated to whole days; the weekend numbers 1-7 and 11-17 and the weekend
strings of seven 0s and 1s from Monday (``"0000011"``: Saturday and Sunday); holidays as
numbers in a range or an array, in any order, an empty cell among them passed over (an
empty cell is day 0, before any date computed here, so reading it as 0 or passing over
it counts the same); the WEEKNUM return types 1, 2, 11-17 and 21 (ISO 8601).

Refused (no page or saved cell says Excel's value): a date before 1 March 1900 (Excel's
calendar holds its 29 February 1900 there, and "January 0, 1900"), a logical value, a
date given as text, text, logical or error values among the holidays, a weekend that is
no whole number nor text, a weekend number other than 1-7 and 11-17 (but WORKDAY.INTL's
0, #NUM!), NETWORKDAYS' (not .INTL's) and ISOWEEKNUM's dates out of range (the pages do
not settle the error value), TIMEVALUE of anything but a time of day
written H:MM or H:MM:SS with AM or PM or none.

References
----------
Microsoft Support, "NETWORKDAYS function" (2012-10-1 to 2013-3-1: 110; 109 with the
holiday 2012-11-22; 107 with 2012-12-4 and 2013-1-21 too), "NETWORKDAYS.INTL function"
(DATE(2006,1,1) to DATE(2006,1,31): 22; DATE(2006,2,28) to DATE(2006,1,31): -21; a
weekend string of invalid length or characters #VALUE!, a date out of range #NUM!,
"1111111" always 0), "WORKDAY.INTL function" (start_date and days truncated; 0 days
yields start_date; "1111111" an invalid string; DATE(2012,1,1), 30 days, weekend 0:
#NUM!; 90 days, weekend 11: 41013; 30 days, weekend 17: 2/05/2012), "WEEKNUM function"
(3/9/2012: 10, with return_type 2: 11; #NUM! for a serial number out of range or
another return_type), "ISOWEEKNUM function" (3/9/2012: 10), "TIMEVALUE function"
("2:24 AM" 0.1).
"""

from __future__ import annotations

import datetime
import math
import re

import numpy as np

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import context, fx
from udfs.machinery.errors import ExcelError

#: serial 61 is 1 March 1900; 2958465 is 31 December 9999
FIRST, LAST = 61, 2958465
_DAY0 = datetime.date(1899, 12, 30)  # (the day a serial from 61 on counts from)

#: the weekend numbers: number -> the weekend days, Monday 0 ... Sunday 6
WEEKENDS = {1: {5, 6}, 2: {6, 0}, 3: {0, 1}, 4: {1, 2}, 5: {2, 3}, 6: {3, 4}, 7: {4, 5},
            11: {6}, 12: {0}, 13: {1}, 14: {2}, 15: {3}, 16: {4}, 17: {5}}


def _is_number(x) -> bool:
    return isinstance(x, (int, float, np.number)) and not isinstance(x, (bool, np.bool_))


def _book_1904() -> bool:
    book = getattr(context.STATE, "book", None)
    return book is not None and bool(book.date1904)


def _date(v, name: str, what: str, out_of_range: str | None = "#NUM!") -> int:
    """A date argument as a whole serial number from 61 on; ``out_of_range``: the error
    value of a serial below 0 or after 9999 (None: refused)."""
    v = xa.scalar(v, f"{name}'s {what}")
    if isinstance(v, (bool, np.bool_)):
        raise Cannot(f"{name} of a logical value")
    ns = fx.load()
    if v is ns.EMPTY or v is None:
        v = 0
    if not _is_number(v):
        raise Cannot(f"{name} of a {what} given as text ({v!r})")
    serial = math.trunc(float(v))
    if not 0 <= serial <= LAST:
        if out_of_range is None:
            raise Cannot(f"{name} of a serial number below 0 or after 31 December 9999 "
                         "(which error value, its page does not settle)")
        raise ExcelError(out_of_range, f"{name}: the {what} is out of Excel's dates")
    if serial < FIRST:
        raise Cannot(f"{name} of a date before 1 March 1900")
    return serial


def _holidays(v, name: str) -> set[int]:
    """The holidays as whole serial numbers (empty cells passed over)."""
    if v is None or fx.is_omitted(v):
        return set()
    ns = fx.load()
    if isinstance(v, ns.Ranges):
        v = v.value
    values = v.ravel().tolist() if isinstance(v, np.ndarray) else [v]
    out = set()
    for x in values:
        if x is ns.EMPTY or x is None:
            continue
        if not _is_number(x):
            raise Cannot(f"{name} with a holiday that is not a number ({x!r})")
        if not 0 <= x < LAST + 1:
            raise Cannot(f"{name} with a holiday that is no date (below 0 or after 9999)")
        out.add(math.trunc(float(x)))
    return out


def _weekend(v, name: str, workday: bool) -> set[int] | None:
    """The weekend days (Monday 0); None for "1111111" (no working day: NETWORKDAYS.INTL
    gives 0, its page; WORKDAY.INTL #VALUE!, its page: "1111111 is an invalid string").
    Weekend 0 is #NUM! in WORKDAY.INTL (its page's example); another number that is no
    weekend number is refused (the pages do not say)."""
    if v is None or fx.is_omitted(v):
        return WEEKENDS[1]
    v = xa.scalar(v, f"{name}'s weekend")
    if _is_number(v) and float(v) == math.trunc(float(v)):
        got = WEEKENDS.get(int(v))
        if got is None and workday and int(v) == 0:  # (its page's example)
            raise ExcelError("#NUM!", f"{name}: weekend 0 is no weekend number")
        if got is None:
            raise Cannot(f"{name} with a weekend number other than 1-7, 11-17 ({v!r}): its "
                         "page does not say the error value")
        return got
    if isinstance(v, str) and v is not fx.load().EMPTY:
        if len(v) != 7 or set(v) - {"0", "1"}:
            raise ExcelError("#VALUE!", f"{name}: the weekend string {v!r} is not seven "
                             "0s and 1s")
        if v == "1111111":
            if workday:
                raise ExcelError("#VALUE!", f'{name}: the weekend "1111111" is not valid')
            return None
        return {i for i, ch in enumerate(v) if ch == "1"}
    raise Cannot(f"{name} with a weekend that is no whole number nor text ({v!r})")


def _all(name: str, *parts):
    """The values of ``parts`` (functions of no argument, one an argument), each read
    whatever the others give: a refusal (``Cannot``) of any stands; error values of one
    code are that error; of two codes refused (no page says which Excel gives first)."""
    values, errors = [], []
    for part in parts:
        try:
            values.append(part())
        except ExcelError as ex:
            values.append(None)
            errors.append(ex)
    if errors:
        if len({e.code for e in errors}) > 1:
            raise Cannot(f"{name} given arguments of two error values "
                         f"({', '.join(sorted({e.code for e in errors}))}): which comes "
                         "first is on no page")
        raise errors[0]
    return values


def _count(start: int, end: int, weekend: set[int] | None, holidays: set[int]) -> int:
    """The working days from ``start`` to ``end``, both counted; negative when ``end``
    comes first (the pages)."""
    if weekend is None:
        return 0
    low, high = min(start, end), max(start, end)
    first = _DAY0 + datetime.timedelta(days=low)
    mask = [0 if d in weekend else 1 for d in range(7)]  # (numpy's weekmask: Monday first)
    days = int(np.busday_count(np.datetime64(first), np.datetime64(
        first + datetime.timedelta(days=high - low + 1)), weekmask=mask))
    days -= sum(1 for h in holidays if low <= h <= high and
                (_DAY0 + datetime.timedelta(days=h)).weekday() not in weekend)
    return days if start <= end else -days


def _refuse_1904(name: str) -> None:
    if _book_1904():
        raise Cannot(f"{name} in a workbook of the 1904 date system")


def networkdays(start_date, end_date, holidays=None):
    """Excel's ``NETWORKDAYS(start_date, end_date, [holidays])``: the working days,
    Monday to Friday, from start_date to end_date, both counted, less the holidays;
    negative when end_date comes first. References: Microsoft Support, "NETWORKDAYS
    function"."""
    name = "NETWORKDAYS"
    _refuse_1904(name)
    start, end, hol = _all(name, lambda: _date(start_date, name, "start_date", None),
                           lambda: _date(end_date, name, "end_date", None),
                           lambda: _holidays(holidays, name))
    return _count(start, end, WEEKENDS[1], hol)


def networkdays_intl(start_date, end_date, weekend=None, holidays=None):
    """Excel's ``NETWORKDAYS.INTL(start_date, end_date, [weekend], [holidays])``: as
    NETWORKDAYS with the weekend a number (1 Saturday and Sunday, ..., 17 Saturday
    only) or seven 0s and 1s from Monday (1 a day off; "1111111" gives 0). References:
    Microsoft Support, "NETWORKDAYS.INTL function"."""
    name = "NETWORKDAYS.INTL"
    _refuse_1904(name)
    start, end, days, hol = _all(
        name, lambda: _date(start_date, name, "start_date"),
        lambda: _date(end_date, name, "end_date"),
        lambda: _weekend(weekend, name, workday=False),
        lambda: _holidays(holidays, name))
    return _count(start, end, days, hol)


def workday_intl(start_date, days, weekend=None, holidays=None):
    """Excel's ``WORKDAY.INTL(start_date, days, [weekend], [holidays])``: the date
    ``days`` working days after start_date (before it for days below 0), days truncated,
    counted from the day after start_date; ``#NUM!`` for a date out of range, found or
    given. References: Microsoft Support, "WORKDAY.INTL function", "WORKDAY function"."""
    name = "WORKDAY.INTL"
    _refuse_1904(name)

    def count():
        n = xa.scalar(days, f"{name}'s days")
        if not _is_number(n):
            raise Cannot(f"{name} with days that are not a number ({n!r})")
        return math.trunc(float(n))

    start, n, off, hol = _all(
        name, lambda: _date(start_date, name, "start_date"), count,
        lambda: _weekend(weekend, name, workday=True),
        lambda: _holidays(holidays, name))
    if n == 0:  # (its page: "a zero value yields the already specified start_date")
        return float(start)
    if n > LAST - start:  # (past 9999 even were every day a working day)
        raise ExcelError("#NUM!", f"{name}: the date found is after 9999")
    if -n > start - FIRST:
        raise Cannot(f"{name} giving a date before 1 March 1900")
    # numpy counts from start_date rolled to a working day: back for days after it,
    # forward for days before it, so that the count begins the day after (before) it
    found = np.busday_offset(
        np.datetime64(_DAY0 + datetime.timedelta(days=start), "D"), n,
        roll="backward" if n > 0 else "forward",
        weekmask=[0 if d in off else 1 for d in range(7)],
        holidays=[np.datetime64(_DAY0 + datetime.timedelta(days=h), "D") for h in hol
                  if FIRST <= h <= LAST])
    serial = (found.astype(datetime.date) - _DAY0).days
    if serial > LAST:
        raise ExcelError("#NUM!", f"{name}: the date found is after 9999")
    if serial < FIRST:
        raise Cannot(f"{name} giving a date before 1 March 1900")
    return float(serial)


def _calendar(v, name: str) -> datetime.date:
    """serial_number as a day of the calendar (from 1 March 1900); #NUM! out of range."""
    _refuse_1904(name)
    serial = _date(v, name, "serial_number")
    return _DAY0 + datetime.timedelta(days=serial)


def weeknum(serial_number, return_type=None):
    """Excel's ``WEEKNUM(serial_number, [return_type])``: the week of the year, week 1
    the one holding 1 January (system 1), the week beginning on Sunday (1, omitted, 17),
    Monday (2, 11), Tuesday (12) ... Saturday (16); 21 the ISO 8601 week (system 2);
    #NUM! for another return_type. References: Microsoft Support, "WEEKNUM function"."""
    starts = {1: 6, 2: 0, 11: 0, 12: 1, 13: 2, 14: 3, 15: 4, 16: 5, 17: 6}

    def week_kind():
        kind = 1 if return_type is None or fx.is_omitted(return_type) else \
            xa.scalar(return_type, "WEEKNUM's return_type")
        if not _is_number(kind):
            raise Cannot(f"WEEKNUM with a return_type that is no number ({kind!r})")
        kind = math.trunc(float(kind))
        if kind not in starts and kind != 21:
            raise ExcelError("#NUM!", f"WEEKNUM: return_type {kind} is not 1, 2, 11-17 "
                             "or 21")
        return kind

    day, kind = _all("WEEKNUM", lambda: _calendar(serial_number, "WEEKNUM"), week_kind)
    if kind == 21:
        return day.isocalendar()[1]
    january = datetime.date(day.year, 1, 1)
    before = (january.weekday() - starts[kind]) % 7  # days of week 1 before 1 January
    return ((day - january).days + before) // 7 + 1


def isoweeknum(date):
    """Excel's ``ISOWEEKNUM(date)``: the ISO 8601 week of the year (weeks begin on
    Monday, week 1 holds the year's first Thursday). References: Microsoft Support,
    "ISOWEEKNUM function"."""
    _refuse_1904("ISOWEEKNUM")
    # (its page: #NUM! for a date that "is not a valid number", #VALUE! for one "not a
    # valid date type": which a serial number out of range is, it does not say)
    serial = _date(date, "ISOWEEKNUM", "date", None)
    return (_DAY0 + datetime.timedelta(days=serial)).isocalendar()[1]


_TIME = re.compile(r"\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(?:([AaPp])[Mm])?\s*")


def timevalue(time_text):
    """Excel's ``TIMEVALUE(time_text)``: the fraction of a day of a time written as text,
    ``(h*3600 + m*60 + s) / 86400`` ("2:24 AM" is 0.1). Only H:MM or H:MM:SS, with AM or
    PM or none, is computed; a date in the text, a number, an empty cell and other text
    are refused. References: Microsoft Support, "TIMEVALUE function"."""
    v = xa.scalar(time_text, "TIMEVALUE's time_text")
    ns = fx.load()
    if not isinstance(v, str) or v is ns.EMPTY:
        raise Cannot(f"TIMEVALUE of other than text ({v!r})")
    m = _TIME.fullmatch(v)
    if not m:
        raise Cannot(f"TIMEVALUE of a text that is not a time of day written H:MM[:SS] "
                     f"[AM|PM] ({v!r})")
    h, mi, s = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    half = (m.group(4) or "").upper()
    if mi > 59 or s > 59 or (half and not 1 <= h <= 12) or (not half and h > 23):
        raise Cannot(f"TIMEVALUE of a time out of the clock's range ({v!r})")
    if half:
        h = h % 12 + (12 if half == "P" else 0)
    return (h * 3600 + mi * 60 + s) / 86400


#: the functions of this module by the names formulas knows them
WORKDAYS = {"NETWORKDAYS": networkdays, "NETWORKDAYS.INTL": networkdays_intl,
            "WORKDAY.INTL": workday_intl, "WEEKNUM": weeknum, "ISOWEEKNUM": isoweeknum,
            "_XLFN.ISOWEEKNUM": isoweeknum, "TIMEVALUE": timevalue}
