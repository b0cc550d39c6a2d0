"""NETWORKDAYS, NETWORKDAYS.INTL, WORKDAY.INTL, WEEKNUM, ISOWEEKNUM, TIMEVALUE and NOW
(addin/excel/workdays.py): the examples of Microsoft's pages, worked by hand here, the
cells Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (sheet Date), and the
refusals of what neither settles.

The pages (Microsoft Support):

* https://support.microsoft.com/en-us/office/networkdays-function-48e717bf-a7a3-495f-969e-5005e3eb18e7
* https://support.microsoft.com/en-us/office/networkdays-intl-function-a9b26239-4f20-46a1-9ab8-4e925bfd5e28
* https://support.microsoft.com/en-us/office/workday-intl-function-a378391c-9ba7-4678-8a39-39611a9bf81d
* https://support.microsoft.com/en-us/office/weeknum-function-e5c43a03-b4ab-426c-b411-b18c13c75340
* https://support.microsoft.com/en-us/office/isoweeknum-function-1c2d0afe-d25b-4ab1-8894-8d0520e90e0e
* https://support.microsoft.com/en-us/office/timevalue-function-0b615c12-33d8-4431-bf3d-f3eb6d186645
* https://support.microsoft.com/en-us/office/now-function-3337fd29-145a-4347-b2e6-20c904739c46

The calendar used by hand: 1 January 2012 was a Sunday (serial 40909), 1 October 2012 a
Monday, 1 January 2006 a Sunday, 1 January 2013 a Tuesday (the Gregorian calendar;
Python's ``datetime.date(...).weekday()`` agrees).
"""

from __future__ import annotations

import datetime

import pytest
import sheet_calc
import xlsx_make

from addin.engine import checked
from addin.ooxml.guard import WorkbookError
from udfs.machinery.errors import ExcelError

c = xlsx_make.cell
_calc, _text = sheet_calc.calc_sheet, sheet_calc.text


def _code(v):
    return v.code if isinstance(v, ExcelError) else None


def test_the_functions_are_checked():
    got = checked.checked()
    for name in ("NETWORKDAYS", "NETWORKDAYS.INTL", "WORKDAY.INTL", "WEEKNUM",
                 "ISOWEEKNUM", "TIMEVALUE", "NOW"):
        assert name in got, name


def test_networkdays_the_pages_examples(tmp_path):
    res, kept = _calc(tmp_path, [
        c("A2", "DATE(2012,10,1)"), c("A3", "DATE(2013,3,1)"),
        c("A4", "DATE(2012,11,22)"), c("A5", "DATE(2012,12,4)"), c("A6", "DATE(2013,1,21)"),
        c("A7", None), c("A8", None),
        # by hand, Monday to Friday of each month: October 2012 (1st a Monday) 23,
        # November 22, December 21, January 2013 23, February 20, 1 March (a Friday) 1:
        # 110; less Thursday 22 November 109; less Tuesday 4 December and Monday 21
        # January 107 (the page: 110, 109, 107)
        c("B1", "NETWORKDAYS(A2,A3)"), c("B2", "NETWORKDAYS(A2,A3,A4)"),
        c("B3", "NETWORKDAYS(A2,A3,A4:A6)"),
        # empty cells among the holidays (A7, A8) change nothing: 107
        c("B4", "NETWORKDAYS(A2,A3,A4:A8)"),
        # the other way round: negative (the NETWORKDAYS.INTL page's rule)
        c("B5", "NETWORKDAYS(A3,A2,A4:A6)"),
        # a holiday on a Saturday (1 December 2012) takes nothing off: 110
        c("B6", "NETWORKDAYS(A2,A3,DATE(2012,12,1))"),
        # one day: a Monday counts 1, a Sunday (30 September 2012) 0
        c("B7", "NETWORKDAYS(A2,A2)"), c("B8", "NETWORKDAYS(A2-1,A2-1)"),
    ])
    assert not kept
    assert [res[f"S!B{i}"] for i in range(1, 9)] == [110, 109, 107, 107, -107, 110, 1, 0]


def test_networkdays_intl_the_pages_examples_and_weekends(tmp_path):
    res, kept = _calc(tmp_path, [
        # 1 January 2006 a Sunday: 4 whole weeks (20) and Sunday 29, Monday 30, Tuesday 31
        # (2): 22; 31 January (Tuesday) to 28 February (Tuesday): 4 weeks and a day, 21,
        # backwards -21 (the page: 22, -21)
        c("A1", "NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31))"),
        c("A2", "NETWORKDAYS.INTL(DATE(2006,2,28),DATE(2006,1,31))"),
        # January 2006, weekend 11 (Sunday only): 31 days less 5 Sundays = 26; the string
        # "0000001" the same; "0000011" as weekend 1: 22; 7 (Friday, Saturday): Fridays
        # 6, 13, 20, 27 and Saturdays 7, 14, 21, 28: 31 - 8 = 23
        c("A3", "NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31),11)"),
        _text("B4", "0000001"), c("A4", "NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31),B4)"),
        _text("B5", "0000011"), c("A5", "NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31),B5)"),
        c("A6", "NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31),7)"),
        # holidays: Monday 2 and Monday 16 January 2006 off weekend 1: 20
        c("B7", "DATE(2006,1,2)"), c("B8", "DATE(2006,1,16)"),
        c("A7", "NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31),1,B7:B8)"),
        # the page: "1111111" always 0; a string of another length or characters #VALUE!;
        # weekend omitted is 1
        _text("B9", "1111111"), c("A9", "NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31),B9)"),
        _text("B10", "000001"),
        c("A10", "NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31),B10)"),
        _text("B11", "00000x1"),
        c("A11", "NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31),B11)"),
        c("A12", "NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31),,B7:B8)"),
        # the page: a date out of range #NUM!
        c("A13", "NETWORKDAYS.INTL(-1,DATE(2006,1,31))"),
    ])
    assert not kept
    assert [res[f"S!A{i}"] for i in range(1, 8)] == [22, -21, 26, 26, 22, 23, 20]
    assert res["S!A9"] == 0 and res["S!A12"] == 20
    assert _code(res["S!A10"]) == _code(res["S!A11"]) == "#VALUE!"
    assert _code(res["S!A13"]) == "#NUM!"


def test_workday_intl_the_pages_examples(tmp_path):
    res, kept = _calc(tmp_path, [
        # weekend 0 is no weekend number: #NUM! (the page)
        c("A1", "WORKDAY.INTL(DATE(2012,1,1),30,0)"),
        # weekend 11 (Sunday only), from Sunday 1 January 2012 (40909): 90 working days are
        # 15 weeks of 6 from Monday 2 January, the last a Saturday, 40909 + 104 = 41013
        c("A2", "WORKDAY.INTL(DATE(2012,1,1),90,11)"),
        # weekend 17 (Saturday only): 30 working days are 5 weeks of 6 from Monday 2
        # January, the last Sunday 5 February 2012 = 40909 + 35 = 40944 (the page:
        # 2/05/2012)
        c("A3", "WORKDAY.INTL(DATE(2012,1,1),30,17)"),
        # backwards: 5 working days before Monday 9 January 2012 (40917), weekend 1, is
        # Monday 2 January, 40910; the string "0000011" the same
        c("A4", "WORKDAY.INTL(DATE(2012,1,9),-5)"),
        _text("B5", "0000011"), c("A5", "WORKDAY.INTL(DATE(2012,1,9),-5,B5)"),
        # a holiday (Wednesday 4 January) skipped: 1 working day more back, Friday 30
        # December 2011, 40907
        c("B6", "DATE(2012,1,4)"), c("A6", "WORKDAY.INTL(DATE(2012,1,9),-5,1,B6)"),
        # days truncated (the page): 1.9 is 1, Tuesday 10 January, 40918
        c("A7", "WORKDAY.INTL(DATE(2012,1,9),1.9)"),
        # the page: 0 days yields start_date, Sunday 1 January 2012 (40909) too;
        # "1111111" is an invalid string: #VALUE!
        c("A8", "WORKDAY.INTL(DATE(2012,1,1),0)"),
        _text("B9", "1111111"), c("A9", "WORKDAY.INTL(DATE(2012,1,1),5,B9)"),
        # counted from the day after a day off: 1 working day after Saturday 7 January 2012
        # (40915) is Monday 9 January, 40917; 1 before Sunday 8 January (40916) is Friday
        # 6 January, 40914; past 31 December 9999 (2958465) #NUM! (the page)
        c("A10", "WORKDAY.INTL(40915,1)"), c("A11", "WORKDAY.INTL(40916,-1)"),
        c("A12", "WORKDAY.INTL(2958465,1)"),
    ])
    assert not kept
    assert _code(res["S!A1"]) == "#NUM!" and res["S!A8"] == 40909
    assert _code(res["S!A9"]) == "#VALUE!"
    assert [res["S!A10"], res["S!A11"]] == [40917, 40914] and _code(res["S!A12"]) == "#NUM!"
    assert [res[f"S!A{i}"] for i in range(2, 8)] == [41013, 40944, 40910, 40910, 40907,
                                                     40918]


def test_weeknum_and_isoweeknum(tmp_path):
    res, kept = _calc(tmp_path, [
        c("A1", "DATE(2012,3,9)"),
        # the pages: WEEKNUM 10, with return_type 2 11; ISOWEEKNUM 10. By hand: 9 March
        # 2012 is day 69 of a year that began on a Sunday; weeks from Sunday: (68+0)//7+1
        # = 10; from Monday (1 January alone in week 1): (68+6)//7+1 = 11
        c("B1", "WEEKNUM(A1)"), c("B2", "WEEKNUM(A1,2)"), c("B3", "_xlfn.ISOWEEKNUM(A1)"),
        # 11 is Monday as 2; 17 Sunday as 1; 21 the ISO week (10)
        c("B4", "WEEKNUM(A1,11)"), c("B5", "WEEKNUM(A1,17)"), c("B6", "WEEKNUM(A1,21)"),
        # 1 January 2012 is in week 1 whatever the return_type; Monday 2 January in week 2
        # from Monday (2), in week 1 from Sunday (1); return_type 16 (Saturday): Saturday
        # 7 January begins week 2
        c("B7", "WEEKNUM(DATE(2012,1,1),2)"), c("B8", "WEEKNUM(DATE(2012,1,2),2)"),
        c("B9", "WEEKNUM(DATE(2012,1,2),1)"), c("B10", "WEEKNUM(DATE(2012,1,7),16)"),
        c("B11", "WEEKNUM(DATE(2012,1,6),16)"),
        # ISO: 1 January 2012 (a Sunday) is in week 52 of 2011; 31 December 2012 (a
        # Monday) in week 1 of 2013; a time of day truncated
        c("B12", "_xlfn.ISOWEEKNUM(DATE(2012,1,1))"),
        c("B13", "_xlfn.ISOWEEKNUM(DATE(2012,12,31)+0.75)"),
        # another return_type #NUM!, a serial number out of range #NUM! (the page)
        c("B14", "WEEKNUM(A1,3)"), c("B15", "WEEKNUM(-1)"),
        # 31 December 9999 (2958465): 1 January 9999 a Friday, week 1 is Friday 1 and
        # Saturday 2; from Sunday 3 January, 362 days are 51 weeks and 5 days: week 53
        # (LibreOffice gives 1: tests/differential/known_differences.csv)
        c("B16", "WEEKNUM(2958465)"),
    ])
    assert not kept
    assert [res[f"S!B{i}"] for i in range(1, 14)] == [10, 11, 10, 11, 10, 10, 1, 2, 1, 2,
                                                      1, 52, 1]
    assert res["S!B16"] == 53
    assert _code(res["S!B14"]) == _code(res["S!B15"]) == "#NUM!"


def test_timevalue(tmp_path):
    res, kept = _calc(tmp_path, [
        # the page: "2:24 AM" is 0.1 (8,640 s of 86,400); 22:30 is 81,000 s, 0.9375;
        # "12:00 AM" midnight 0, "12:00 PM" noon 0.5
        _text("A1", "2:24 AM"), c("B1", "TIMEVALUE(A1)"),
        c("B2", 'TIMEVALUE("22:30")'), c("B3", 'TIMEVALUE("12:00 AM")'),
        c("B4", 'TIMEVALUE("12:00 PM")'),
    ])
    assert not kept
    assert res["S!B1"] == pytest.approx(0.1, abs=1e-15)
    assert [res["S!B2"], res["S!B3"], res["S!B4"]] == [0.9375, 0, 0.5]


def test_now_is_the_clock(tmp_path):
    # NOW is the serial number of the moment: the date (days from 30 December 1899, the
    # 1900 system counting its 29 February) and the time of day as its fraction
    def serial(t):
        return (t - datetime.datetime(1899, 12, 30)).total_seconds() / 86400

    before = serial(datetime.datetime.now())
    res, kept = _calc(tmp_path, [c("A1", "NOW()"), c("A2", "INT(NOW())=TODAY()")])
    after = serial(datetime.datetime.now())
    assert not kept
    assert before - 1 / 86400 <= res["S!A1"] <= after + 1 / 86400
    assert res["S!A2"] is True or (before // 1 != after // 1)


def test_the_cells_excel_saved(tmp_path):
    # tests/corpus/sheetjs/formula_stress_test.xlsx, sheet Date, saved by Excel: C20
    # 41434 (9 June 2013), D20 41829, C25 17, C5 "11:23:45 PM"
    res, kept = _calc(tmp_path, [
        c("C20", None, 41434), c("D20", None, 41829), c("C25", None, 17),
        _text("C5", "11:23:45 PM"),
        c("B5", "TIMEVALUE(C5)"), c("B17", "WEEKNUM(C20)"),
        c("B24", "NETWORKDAYS(C20,D20)"), c("B25", "NETWORKDAYS.INTL(C20,D20,C25)"),
        c("B27", "WORKDAY.INTL(C20,123,17)"),
    ])
    assert not kept
    assert res["S!B5"] == 0.97482638888888884 and res["S!B17"] == 24
    assert res["S!B24"] == 283 and res["S!B25"] == 340 and res["S!B27"] == 41577


@pytest.mark.parametrize(("formula", "sentence"), [
    ("NETWORKDAYS(1,100)", "before 1 March 1900"),
    ("NETWORKDAYS(TRUE,45000)", "logical value"),
    ('NETWORKDAYS.INTL("2012-10-1",45000)', "given as text"),
    ("NETWORKDAYS(-5,45000)", "below 0 or after"),
    ("NETWORKDAYS.INTL(45000,45100,8)", "weekend number other than"),
    ("WORKDAY.INTL(45000,5,18)", "weekend number other than"),
    ("WEEKNUM(60)", "before 1 March 1900"),
    ("_xlfn.ISOWEEKNUM(TRUE)", "logical value"),
    ('TIMEVALUE("22-Aug-2011 6:35 AM")', "not a time of day"),
    ('TIMEVALUE("25:00")', "out of the clock"),
    ("TIMEVALUE(0.5)", "other than text"),
])
def test_what_the_pages_leave_open_is_refused(tmp_path, formula, sentence):
    with pytest.raises(WorkbookError, match=sentence):
        _calc(tmp_path, [c("A1", formula)])


def test_text_among_the_holidays_is_refused(tmp_path):
    # a heading over the holidays' range: Excel's value is on no page
    with pytest.raises(WorkbookError, match="holiday that is not a number"):
        _calc(tmp_path, [_text("B1", "Holidays"), c("B2", None, 45010),
                         c("A1", "NETWORKDAYS(45000,45100,B1:B2)")])
