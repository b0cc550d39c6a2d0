"""An empty cell given to a date function (the second round of December 2026): Excel reads
it as 0, serial number 0 ("January 0, 1900"), as a number argument reads it.

Evidence: Microsoft Knowledge Base Q149577 (a blank cell is zero in a formula) and
Microsoft Knowledge Base 205719 (serial 0 is January 0, 1900); the cells Excel saved in
tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests: G720 ``HOUR(D7)`` with
D7 empty, 0; F340 ``DAY(0)`` 0, F940 ``MONTH(0)`` 1, F1496 ``YEAR(0)`` 1900. So DAY,
MONTH and YEAR of an empty cell are DAY(0), MONTH(0), YEAR(0). For the functions of
several arguments the pages settle the value of 0 there (DATE: a year from 0 to 1899 is
added to 1900, a month below 1 and a day below 1 count back from January and from the
first of the month; DAYS: end_date - start_date; YEARFRAC: basis "0 or omitted";
DAYS360: method FALSE or omitted the U.S. method, 0 is FALSE; EOMONTH and WORKDAY: 0
months, 0 days). A date argument of 0 stays refused where the function refuses serial 0
(EOMONTH, DAYS360, YEARFRAC, WORKDAY, WEEKDAY: the days before 1 March 1900).
LibreOffice's day 0 is 30 December 1899 (tests/differential/known_differences.csv, the
row of DAY, MONTH and YEAR of serials 0 to 60).

The pages (Microsoft Support): date-function, days-function, yearfrac-function,
days360-function, eomonth-function, workday-function, time-function, datevalue-function.
"""

from __future__ import annotations

import pytest
import sheet_calc
import xlsx_make

from addin.ooxml.guard import WorkbookError
from udfs.machinery.errors import ExcelError

c = xlsx_make.cell
_calc = sheet_calc.calc_sheet


def _code(v):
    return v.code if isinstance(v, ExcelError) else None


def test_an_empty_cell_is_day_0(tmp_path):
    res, kept = _calc(tmp_path, [
        c("Z1", None),  # the empty cell
        # DAY(0) 0, MONTH(0) 1, YEAR(0) 1900: FormulaEvalTestData_Copy F340, F940, F1496
        c("A1", "DAY(Z1)"), c("A2", "MONTH(Z1)"), c("A3", "YEAR(Z1)"),
        # DATE(0,1,1): year 0 is 1900, 1 January 1900 = 1; DATE(2020,0,1) is 1 December
        # 2019: 43800 (1 January 2020 is 43831, less December's 31 days); DATE(2020,1,0)
        # the day before 1 January 2020, 43830
        c("A4", "DATE(Z1,1,1)"), c("A5", "DATE(2020,Z1,1)"), c("A6", "DATE(2020,1,Z1)"),
        # TIME(0,30,0) = 1800/86400; TIME(1,0,0) = 3600/86400
        c("A7", "TIME(Z1,30,0)"), c("A8", "TIME(1,Z1,Z1)"),
        # EOMONTH(45000,0): 45000 is 15 March 2023, its month's end 31 March, 45016
        c("A9", "EOMONTH(45000,Z1)"),
        # DAYS: end_date - start_date, 45000 - 0 and 0 - 45000
        c("A10", "_xlfn.DAYS(45000,Z1)"), c("A11", "_xlfn.DAYS(Z1,45000)"),
        # YEARFRAC basis 0 (30/360): 15 March 2023 to 23 June 2023 (45100) is 3 months
        # and 8 days, 98/360
        c("A12", "YEARFRAC(45000,45100,Z1)"),
        # DAYS360, the U.S. method (FALSE): the same 98 days
        c("A13", "DAYS360(45000,45100,Z1)"),
        # WORKDAY of 0 days from Wednesday 15 March 2023 is that day
        c("A14", "WORKDAY(45000,Z1)"),
        # DAYS360 from day 0 to itself: 0 whatever day 0 is
        c("A15", "DAYS360(Z1,Z1)"),
        # DATEVALUE of an empty cell reads the empty text: #VALUE! (the page: a text that
        # is no date)
        c("A16", "DATEVALUE(Z1)"),
    ])
    assert not kept, kept
    assert [res[f"S!A{i}"] for i in range(1, 7)] == [0, 1, 1900, 1, 43800, 43830]
    assert res["S!A7"] == pytest.approx(1800 / 86400, rel=1e-15)
    assert res["S!A8"] == pytest.approx(3600 / 86400, rel=1e-15)
    assert [res["S!A9"], res["S!A10"], res["S!A11"]] == [45016, 45000, -45000]
    assert res["S!A12"] == pytest.approx(98 / 360, rel=1e-15)
    assert [res["S!A13"], res["S!A14"], res["S!A15"]] == [98, 45000, 0]
    assert _code(res["S!A16"]) == "#VALUE!"


def test_time_of_cells_as_excel_saved_it(tmp_path):
    # tests/corpus/sheetjs/formula_stress_test.xlsx, Date!B4, saved by Excel:
    # TIME(C4,D4,E4) with 6, 9, 23 is 0.2565162037037037 (22163 s of 86400)
    res, kept = _calc(tmp_path, [c("C4", None, 6), c("D4", None, 9), c("E4", None, 23),
                                 c("B4", "TIME(C4,D4,E4)")])
    assert not kept
    assert res["S!B4"] == 0.2565162037037037 == 22163 / 86400


@pytest.mark.parametrize(("formula", "sentence"), [
    ("EOMONTH(Z1,5)", "EOMONTH of a date before 1 March 1900"),
    ("DAYS360(Z1,45000)", "DAYS360 of serial number 0"),
    ("YEARFRAC(Z1,45000)", "YEARFRAC of start_date 0"),
    ("WORKDAY(Z1,3)", "WORKDAY of a date before 1 March 1900"),
    ("DATEDIF(Z1,45000,\"D\")", "DATEDIF"),
    ("WEEKDAY(Z1)", "WEEKDAY"),
])
def test_day_0_stays_refused_where_serial_0_is(tmp_path, formula, sentence):
    with pytest.raises(WorkbookError, match=sentence):
        _calc(tmp_path, [c("Z1", None), c("A1", formula)])
