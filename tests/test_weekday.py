"""WEEKDAY checked against Microsoft's page, weekdays worked by hand and cells Excel saved.

References: Microsoft Support, "WEEKDAY function" (return_type 1 or omitted, 2, 3, 11 to
17; #NUM! for a serial_number out of range and for a return_type outside the table;
2/14/2008, a Thursday, gives 5, 4 and 3 for return_type 1, 2 and 3); ECMA-376 Part 4,
WEEKDAY (serial-value and weekday-start-flag truncated to an integer); Microsoft Knowledge
Base 214326 (Excel takes 1900 for a leap year: serial 60 is 29 February 1900, so the
weekdays it gives before 1 March 1900 are not the calendar's) and 214058 (they are a
day early: WEEKDAY of 16 February 1900 is 5, where the calendar's Friday is 6)."""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell


def _calc(tmp_path, formulas, date1904=False):
    cells = [c(f"A{i}", f, 0) for i, f in enumerate(formulas, 1)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells}, date1904=date1904)
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    return [res[f"S!A{i}"] for i in range(1, len(formulas) + 1)]


def _code(v):
    return getattr(v, "code", None)


def test_the_pages_example_and_every_return_type(tmp_path):
    # the page: 2/14/2008 is a Thursday, serial 39448 + 44 = 39492 (its remark: 1 January
    # 2008 is 39448); 1 gives 5 (Sunday 1), 2 gives 4 (Monday 1), 3 gives 3 (Monday 0).
    # By hand from the page's table, a Thursday: 11 (Monday 1) 4, 12 (Tuesday 1) 3,
    # 13 (Wednesday 1) 2, 14 (Thursday 1) 1, 15 (Friday 1) 7, 16 (Saturday 1) 6,
    # 17 (Sunday 1) 5; omitted is 1
    types = [1, 2, 3, 11, 12, 13, 14, 15, 16, 17]
    got = _calc(tmp_path, ["WEEKDAY(39492)"] + [f"WEEKDAY(39492,{t})" for t in types])
    assert got == [5, 5, 4, 3, 4, 3, 2, 1, 7, 6, 5]


def test_other_return_types_and_serials_out_of_range_are_num(tmp_path):
    # the page: #NUM! for a return_type outside its table (0, 4, 10, 18, -1) and for a
    # serial_number out of range (-1; 2958466, after 31 December 9999, serial 2958465)
    got = _calc(tmp_path, ["WEEKDAY(45000,0)", "WEEKDAY(45000,4)", "WEEKDAY(45000,10)",
                           "WEEKDAY(45000,18)", "WEEKDAY(45000,-1)", "WEEKDAY(-1)",
                           "WEEKDAY(2958466)"])
    assert [_code(v) for v in got] == ["#NUM!"] * 7


def test_known_weekdays_and_truncation(tmp_path):
    # serial 61 is 1 March 1900 (60 is Excel's 29 February 1900, KB 214326), a Thursday
    # (the Gregorian calendar; Python's datetime.date(1900, 3, 1).weekday() == 3): 5, and
    # 3 with return_type 12 (Tuesday 1). Serial 45000 is 15 March 2023 (43831 is 1 January
    # 2020 + 1169 days), a Wednesday: 4; 45000.75 (6 PM that day) truncated to 45000: 4;
    # return_type 2.9 truncated to 2 (ECMA-376 Part 4): 3. Serial 2958465 is 31 December
    # 9999, a Friday: 6, and 1 with return_type 15 (Friday 1)
    got = _calc(tmp_path, ["WEEKDAY(61)", "WEEKDAY(61,12)", "WEEKDAY(45000)",
                           "WEEKDAY(45000.75)", "WEEKDAY(45000,2.9)", "WEEKDAY(2958465)",
                           "WEEKDAY(2958465,15)"])
    assert got == [5, 3, 4, 4, 3, 6, 1]


@pytest.mark.parametrize("serial", ["0", "60", "60.5", "-0.5", "0.99"])
def test_day_0_and_29_february_1900_are_refused(tmp_path, serial):
    # "January 0, 1900" (serial 0) and Excel's 29 February 1900 (serial 60) are days of no
    # calendar: no page or saved cell of the corpora gives their weekday (KB 214058 speaks
    # of the dates before 1 March 1900): refused, with the sentence
    with pytest.raises(WorkbookError, match="WEEKDAY of serial number 0 or 60"):
        _calc(tmp_path, [f"WEEKDAY({serial})"])


def test_the_weekdays_before_1_march_1900_a_day_early(tmp_path):
    # Microsoft Knowledge Base 214058 ("Days of the week before March 1, 1900 are incorrect
    # in Excel"): WEEKDAY of 16 February 1900, a Friday, is 5 (Thursday) in Excel, the
    # weekday of the day before, for every date before 1 March 1900 ("add one to the
    # result"). 16 February 1900 is serial 47 (31 days of January + 16). By hand, each a
    # day before the calendar's (Python's datetime agrees on the calendar): 1 January 1900
    # (serial 1) was a Monday, Excel's Sunday: 1; 28 February 1900 (59) a Wednesday,
    # Excel's Tuesday: 3, with return_type 2 (Monday 1) 2, 3 (Monday 0) 1; 7 January 1900
    # (7) a Sunday, Excel's Saturday: 7, with return_type 16 (Saturday 1) 1
    got = _calc(tmp_path, ["WEEKDAY(47)", "WEEKDAY(47,1)", "WEEKDAY(1)", "WEEKDAY(59)",
                           "WEEKDAY(59,2)", "WEEKDAY(59,3)", "WEEKDAY(7)", "WEEKDAY(7,16)"])
    assert got == [5, 5, 1, 3, 2, 1, 7, 1]


def test_a_logical_value_is_refused(tmp_path):
    # no page says how WEEKDAY reads TRUE (as 1, or as #VALUE!)
    with pytest.raises(WorkbookError, match="WEEKDAY of a logical value"):
        _calc(tmp_path, ["WEEKDAY(45000,TRUE)"])


def test_the_1904_date_system(tmp_path):
    # ECMA-376 Part 1: serial 0 of the 1904 system is 1 January 1904, a Friday (datetime
    # .date(1904, 1, 1).weekday() == 4): 6 and, Monday 1, 5; serial 43538 is 15 March 2023
    # (45000 - 1462, the 1462 days from 1 January 1900's count to 1904's), a Wednesday: 4.
    # Below 0 (before 1 January 1904) is refused (the page does not say #NUM! there)
    got = _calc(tmp_path, ["WEEKDAY(0)", "WEEKDAY(0,2)", "WEEKDAY(43538)"], date1904=True)
    assert got == [6, 5, 4]
    with pytest.raises(WorkbookError, match="WEEKDAY of a serial number below 0 in the 1904"):
        _calc(tmp_path, ["WEEKDAY(-1)"], date1904=True)


def test_the_cells_excel_saved_in_the_two_calendars(tmp_path):
    # part heldout6 of tools/business_corpus.csv. thabresh-s's 12-month calendar, year 2019
    # (K2, YEAR(TODAY()) saved 2019), WeekStart "SUNDAY" so return_type
    # ("SUNDAY"="Monday")+1 = 1: January!B3 DATE(2019,1,1)-WEEKDAY(DATE(2019,1,1),1)+1
    # saved 30 December 2018 (1 January 2019 a Tuesday, 3: 43466-3+1 = 43464) and
    # February!B3 the same of 1 February 2019 (a Friday, 6: 43497-6+1 = 43492) saved 27
    # January 2019. KurniaAkbar02's Current Year Calendar, year 2024 (Annual!B1 saved):
    # Annual!B5 IF(WEEKDAY(DATE(2024,1,1))=1,1,"") saved "" and C5's =2 test saved 1
    # (1 January 2024, a Monday)
    got = _calc(tmp_path, [
        'DATE(2019,1,1)-WEEKDAY(DATE(2019,1,1),("SUNDAY"="Monday")+1)+1',
        'DATE(2019,2,1)-WEEKDAY(DATE(2019,2,1),("SUNDAY"="Monday")+1)+1',
        'IF(WEEKDAY(DATE(2024,1,1))=1,1,"")', 'IF(WEEKDAY(DATE(2024,1,1))=2,1,"")'])
    assert got == [43464, 43492, "", 1]
