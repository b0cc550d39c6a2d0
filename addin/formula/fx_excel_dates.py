"""Corrections to ``formulas``' date functions where they differ from Excel: the
companion of ``addin.formula.fx_excel`` for EDATE, EOMONTH, WORKDAY, DAYS360 and DATEDIF's
unit, and with fx and fx_excel one of the modules that import formulas.
``addin.formula.patches.PATCHES`` names each of them, with what it corrects; they are put
in place once, by ``addin.engine.boot.ready``.
"""

from __future__ import annotations

import functools

from addin.formula import context, fx_excel

#: 1 March 1900, serial 61: before it Excel's calendar holds "January 0, 1900" (serial 0)
#: and 29 February 1900 (serial 60)
MARCH_1900 = (1900, 3, 1)


def _logical(*values) -> bool:
    import numpy as np
    from formulas.functions import flatten

    return any(isinstance(v, (bool, np.bool_)) for v in flatten(values, None))


def each_element(func):
    """``func`` of one value per argument computed for each element of its array
    arguments, as Excel computes a function of value parameters given arrays in an array
    (or dynamic array) formula: the result has the most rows and columns of them, an
    argument of one row (or column) repeated down (or across), a single value everywhere,
    a place an argument does not reach ``#N/A``; an error an element raises is that
    element's (formulas' ``FoundError``), any other failure ``#VALUE!``, as formulas'
    ``wrap_func`` gives for one value. Without arrays of several values, ``func`` itself.

    References: Microsoft Support, "Guidelines and examples of array formulas", "Dynamic
    array formulas and spilled array behavior"; the cells Excel saved for
    ``EOMONTH(Start.Date,_xlfn.ANCHORARRAY(B22)-1)`` (132 month ends) in part tune3 of
    tools/business_corpus.csv (tests/test_dates_arrays.py)."""
    import functools

    import numpy as np

    @functools.wraps(func)
    def call(*args):
        from formulas.functions import Error, FoundError

        from addin.formula import fx
        from addin.formula.array_sizes import broadcast

        grids = [np.asarray(a, dtype=object) if isinstance(a, np.ndarray) else None
                 for a in args]
        grids = [None if g is None else g.reshape((1, 1)) if g.ndim == 0 else
                 g.reshape((1, -1)) if g.ndim == 1 else g for g in grids]
        if all(g is None or g.size == 1 for g in grids):
            return func(*args)
        rows, cols, places = broadcast(grids)
        out = np.empty((rows, cols), dtype=object)
        for i, j, at in places:
            if at is None:
                out[i, j] = Error.errors["#N/A"]
                continue
            vals = [a if g is None else g[p] for a, g, p in zip(args, grids, at, strict=True)]
            try:
                got = func(*vals)
            except FoundError as ex:
                got = ex.err
            except Exception:  # (formulas' wrap_func: #VALUE!)
                got = Error.errors["#VALUE!"]
            out[i, j] = np.asarray(got, dtype=object).ravel()[0] if isinstance(
                got, np.ndarray) else got
        return out.view(fx.load().Array)

    return call


def eomonth(original, key: str):
    """formulas' EOMONTH computed element by element given arrays (``each_element``):
    formulas' gave #VALUE! for ``EOMONTH(Start.Date,SEQUENCE(132)-1)``, where Excel
    spilled 132 month ends. The month end is found by counting months, not by the day
    after it: formulas' gave #VALUE! for every month end of December 9999
    (``EOMONTH(2958465,0)``, 31 December 9999 itself) and past it, where the page says
    #NUM! for a start_date plus months that is not a valid date (the differential test,
    seed 3). References: Microsoft Support, "EOMONTH function" ("If start_date plus
    months yields an invalid date, EOMONTH returns the #NUM! error value") and "Excel
    specifications and limits" (dates up to 31 December 9999)."""
    import calendar

    from formulas.functions import Error, wrap_func
    from formulas.functions.date import _xedate, xdate

    def xeomonth(start_date, months):
        date, months = _xedate(start_date, months)
        if date == (1900, 1, 0):
            date = 1900, 1, 1
        year, month = divmod(date[0] * 12 + date[1] - 1 + months, 12)
        if not 1900 <= year <= 9999:
            return Error.errors["#NUM!"]
        return xdate(year, month + 1, calendar.monthrange(year, month + 1)[1])

    return wrap_func(each_element(xeomonth))


def edate(original, key: str):
    """Excel's EDATE in the place of formulas' own: a date moved before 1900 or after
    9999 is ``#NUM!`` (formulas counts a year before 1900 from 1900, EDATE(1,-5) giving
    a date in 3799, and turns one after 9999 into ``#VALUE!``).

    Refused in strict mode: a logical value (formulas gives #VALUE!, no page says what
    Excel gives), a serial number below 0 or after 31 December 9999 (the page says
    #VALUE! for a date that is not valid, ECMA-376 #NUM! for one out of range), a date
    before 1 March 1900, given or given back (but EDATE(0,0), 0 as Excel saved it in
    tests/corpus/poi/56688_1.xlsx, and a date moved before 1900, #NUM!): other engines'
    readings of Excel's calendar before March 1900 disagree.

    References: Microsoft Support, "EDATE function" and "Excel specifications and
    limits" (dates from 1 January 1900 to 31 December 9999)."""
    import datetime

    from dateutil.relativedelta import relativedelta
    from formulas.functions import Error, flatten, wrap_func
    from formulas.functions.date import _xedate, xdate

    def xedate(start_date, months):
        if _logical(start_date, months):
            context.refuse("EDATE of a logical value")
            return Error.errors["#VALUE!"]
        if any(isinstance(v, (int, float)) and not isinstance(v, bool) and not
               0 <= v < 2958466 for v in flatten([start_date], None)):
            # EDATE's page: #VALUE! for a start_date that is not a valid date; ECMA-376's
            # EDATE: #NUM! for one out of range
            context.refuse("EDATE of a serial number below 0 or after 31 December 9999")
            return Error.errors["#VALUE!"]
        date, months = _xedate(start_date, months)
        if date == (1900, 1, 0) and months == 0:
            return 0
        try:
            moved = datetime.datetime(*max(date, (1900, 1, 1))) + relativedelta(months=months)
        except (OverflowError, ValueError):  # (after 9999, or Excel's 29 February 1900)
            if date < MARCH_1900:
                context.refuse("EDATE of a date before 1 March 1900, or giving one")
                return Error.errors["#VALUE!"]
            return Error.errors["#NUM!"]
        if not 1900 <= moved.year <= 9999:
            return Error.errors["#NUM!"]
        if date < MARCH_1900 or (moved.year, moved.month, moved.day) < MARCH_1900:
            context.refuse("EDATE of a date before 1 March 1900, or giving one")
            return Error.errors["#VALUE!"]
        return xdate(moved.year, moved.month, moved.day)

    return wrap_func(each_element(xedate))


def workday(original, key: str):
    """Excel's WORKDAY in the place of formulas' own, which gives #VALUE! for a start on
    a weekend or a holiday (numpy's ``busday_offset`` refuses to roll it) and for a date
    after 9999: the working days are counted from the day after start_date (before it,
    for days below 0), days truncated; a date after 9999 is ``#NUM!``.

    Refused in strict mode: a logical value, a date before 1 March 1900, given or given
    back (Excel's serial 1 is a Sunday, its 29 February 1900 a day of no week), 0
    days from a weekend or a holiday, and a holiday that is no date (below 0: its page
    says #VALUE! for an argument that is no valid date, formulas gives #NUM!).

    References: Microsoft Support, "WORKDAY function" ("If start_date plus days yields an
    invalid date, WORKDAY returns the #NUM! error value"; "If days is not an integer, it
    is truncated"); "Excel incorrectly assumes that the year 1900 is a leap year"."""
    import datetime
    import math

    import numpy as np
    from formulas.functions import Error, wrap_ufunc
    from formulas.functions.date import (
        _convert2float,
        args_xworkday_intl,
        raise_errors,
        xdate,
        xday,
    )

    def excel_workday(start_date, days, weekend=1, holidays=()):
        if _logical(start_date, days):
            context.refuse("WORKDAY of a logical value")
            return Error.errors["#VALUE!"]
        raise_errors(start_date)
        start = tuple(xday(start_date, slice(0, 3)))
        raise_errors(days)
        days = math.trunc(_convert2float(days))
        if start < MARCH_1900:
            context.refuse("WORKDAY of a date before 1 March 1900")
            return Error.errors["#VALUE!"]
        first = np.datetime64(datetime.date(*start))
        if days == 0:
            if not np.is_busday(first, holidays=list(holidays)):
                context.refuse("WORKDAY of 0 days from a weekend or a holiday")
                return Error.errors["#VALUE!"]
            return xdate(*start)
        try:
            found = np.busday_offset(first, days, roll="backward" if days > 0 else "forward",
                                     holidays=list(holidays))
        except (OverflowError, ValueError):
            return Error.errors["#NUM!"]
        if not np.datetime64("1900-01-01") <= found <= np.datetime64("9999-12-31"):
            return Error.errors["#NUM!"]
        found = found.astype("O")
        if (found.year, found.month, found.day) < MARCH_1900:
            context.refuse("WORKDAY giving a date before 1 March 1900")
            return Error.errors["#VALUE!"]
        return xdate(found.year, found.month, found.day)

    def parsed(start_date, days, hdays=()):
        if any(isinstance(x, (int, float)) and not isinstance(x, bool) and
               not 0 <= x <= 2958465 for x in np.asarray(hdays, dtype=object).ravel()):
            context.refuse("WORKDAY with a holiday that is no date (below 0 or after 9999)",
                           "#NUM!")
        return args_xworkday_intl(start_date, days, 1, hdays, True)

    return wrap_ufunc(excel_workday, input_parser=lambda *a: a, check_error=lambda *a: None,
                      args_parser=parsed, excluded={3})


def days360(original, key: str):
    """Excel's DAYS360 in the place of formulas' own, which counts as YEARFRAC's basis 0
    does (the last day of February as the 30th only when both dates are).

    U.S. (NASD) method, FALSE or omitted: a start on the last day of its month is the
    30th; an end on the 31st is the 30th when the start is (now) the 30th, else the 1st
    of the next month (which counts as the 31st). European method, TRUE: a 31st is the
    30th. An end on the last day of February with a start before the 30th, in the U.S.
    method, is refused in strict mode: Microsoft's page moves it to the 1st of March
    ("the last day of a month"), other readings of the method leave it.

    References: Microsoft Support, "DAYS360 function" (the method argument, its
    examples)."""
    import calendar

    from formulas.functions import Error, wrap_ufunc
    from formulas.functions.date import _convert2float, raise_errors, xday

    def last_day(y, m):
        return 29 if (y, m) == (1900, 2) else calendar.monthrange(y, m)[1]  # (Excel's 1900)

    def excel_days360(start_date, end_date, method=False):
        raise_errors(start_date)
        y1, m1, d1 = xday(start_date, slice(0, 3))
        raise_errors(end_date)
        y2, m2, d2 = xday(end_date, slice(0, 3))
        raise_errors(method)
        if _convert2float(method):
            d1, d2 = min(d1, 30), min(d2, 30)
        else:
            if d1 == last_day(y1, m1):
                d1 = 30
            if d2 == 31 and d1 == 30:
                d2 = 30
            elif m2 == 2 and d2 == last_day(y2, m2) and d1 < 30:
                context.refuse("DAYS360's U.S. method ending on the last day of February")
                return Error.errors["#VALUE!"]
        return (y2 - y1) * 360 + (m2 - m1) * 30 + (d2 - d1)

    return wrap_ufunc(excel_days360, input_parser=lambda *a: a, check_error=lambda *a: None)


def datedif_unit(original, key: str):
    """formulas' DATEDIF with its unit read without case (formulas took only ``"D"``).
    References: Microsoft Support, "DATEDIF function" (its examples write "d", "y",
    "ym")."""
    from formulas.functions import date, wrap_ufunc

    def datedif(start_date, end_date, unit):
        unit = unit.upper() if isinstance(unit, str) else unit
        return date.xdatedif(start_date, end_date, unit)

    return wrap_ufunc(datedif, input_parser=lambda *a: date.text2num(a))


def month_of_text(original, key: str):
    """formulas' MONTH, given a month and a number without a year (``"Jun-25"``): its
    month, which is the same whether Excel reads the number as a day of this year or as a
    year (``"May-25"`` was May 2025 in Excel's saved cells, the business corpus's
    fourteenth part; formulas' parser reads 25 May). Other functions given such a text
    (YEAR, DAY, DATEVALUE, arithmetic) stop strict mode as before
    (``addin.formula.fx_excel.text_date``), as does MONTH given one whose day does not
    exist (``"Feb-30"``) or a date of numbers read by the computer's settings
    (``"1/2/2024"``).

    References: Microsoft Support, "MONTH function" (serial_number may be a date written
    as text); "DATEVALUE function" (a year left out of date_text is this year's)."""
    @functools.wraps(original)
    def month(*args, **kwargs):
        fx_excel.MONTH_ONLY.on = True
        try:
            return original(*args, **kwargs)
        finally:
            fx_excel.MONTH_ONLY.on = False

    return month
