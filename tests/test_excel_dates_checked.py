"""The date functions' arguments no evidence settles, refused in strict mode
(addin/excel/dates.py ``checked_serials``, addin/formula/fx_excel_dates.py EDATE and
WORKDAY), and WORKDAY counted as Microsoft's page says. Found by the differential test
(tests/differential), where LibreOffice disagreed and no source said Excel's value."""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError
from udfs.machinery.errors import ExcelError

c = xlsx_make.cell


def _calc(tmp_path, cells, **kw):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    return calc_workbook(src, tmp_path / "out.xlsx", {}, **kw)


def _code(v):
    return v.code if isinstance(v, ExcelError) else None


@pytest.mark.parametrize(("formula", "sentence"), [
    ("DAY(TRUE)", "DAY of a logical value"),
    ("EOMONTH(45000,TRUE)", "EOMONTH of a logical value"),
    ("EDATE(TRUE,1)", "EDATE of a logical value"),
    ("WORKDAY(FALSE,1)", "WORKDAY of a logical value"),
    ("YEARFRAC(TRUE,45000)", "YEARFRAC of a logical value"),
    ("EOMONTH(60,0)", "EOMONTH of a date before 1 March 1900"),
    ("EOMONTH(100,-2)", "EOMONTH giving a date before 1 March 1900"),
    ("EDATE(0,1)", "EDATE of a date before 1 March 1900"),
    ("EDATE(-2,10)", "EDATE of a serial number below 0"),
    # (found by the differential: EDATE("12"^"12",-1), the page #VALUE!, ECMA-376 #NUM!)
    ("EDATE(2958466,-1)", "EDATE of a serial number below 0 or after 31 December 9999"),
    ("EOMONTH(-0.5,10)", "EOMONTH of a date before 1 March 1900"),
    ("WORKDAY(1,5)", "WORKDAY of a date before 1 March 1900"),
    ("YEARFRAC(1,45000)", "YEARFRAC of start_date 1, before 1 March 1900"),
    ("DAYS(45366.5,1)", "DAYS of a date with a time of day"),
    ("DAYS360(0,30)", "DAYS360 of serial number 0"),
    # (found by the differential: -0.6 is no date, though truncated it is day 0)
    ("DAYS360(-0.6,0)", "DAYS360 of a serial number outside 0 to 2958465"),
    ("DATEDIF(-12,-12,\"Y\")", "DATEDIF of a serial number outside 0 to 2958465"),
    ("DATEVALUE(\"12:30\")", "DATEVALUE of a text that holds a time and no date"),
])
def test_an_unsettled_date_argument_is_refused(tmp_path, formula, sentence):
    with pytest.raises(WorkbookError, match=sentence):
        _calc(tmp_path, [c("A1", formula)])


@pytest.mark.parametrize("formula", ["ISERR(EOMONTH(60,0))", "IFERROR(DAYS360(0,30),5)"])
def test_a_refusal_hidden_by_iserr_or_iferror_still_refuses(tmp_path, formula):
    # the error value napkin writes where it refuses never reaches the cell here: the cell
    # is refused all the same (its value would be a guess at whether Excel's is an error)
    with pytest.raises(WorkbookError, match="before 1 March 1900|serial number 0"):
        _calc(tmp_path, [c("A1", formula)])
    # --lenient keeps the value Excel saved in the cell (here 7, written as its cache)
    assert _calc(tmp_path, [c("A1", formula, 7)], strict=False)["S!A1"] == 7


def test_settled_values_next_to_the_refusals_are_computed(tmp_path):
    res = _calc(tmp_path, [
        # tests/corpus/poi/56688_1.xlsx, saved by Excel: EDATE of two empty cells is 0
        c("A1", "EDATE(0,0)"),
        # a day less its own time of day: 0 whatever DAYS does with times
        c("A2", "DAYS(45366.5,45366.5)"),
        # DAYS360 from a day to itself is 0
        c("A3", "DAYS360(0,0)"),
        # EDATE(1,-5) lands in 1899 however serial 1 is read: #NUM! (Microsoft Support,
        # "Excel specifications and limits": dates from 1 January 1900)
        c("A4", "EDATE(1,-5)"),
        # an error of another argument stands: EOMONTH's months "x" is #VALUE!
        c("A5", "EOMONTH(100,\"x\")"),
        # Microsoft Support, "DATE function": DATE(2008,-3,2) is 2 September 2007, 39327
        c("A6", "DATE(2008,-3,2)"),
        # Microsoft Support, "EOMONTH function": #NUM! for a start_date that is no date
        c("A7", "EOMONTH(-1,0)"),
        # tests/corpus/xlcalculator/DATE.xlsx, saved by Excel: DATE(1900,1,-1) is #NUM!
        c("A8", "DATE(1900,1,-1)"),
    ])
    assert res["S!A1"] == 0 and res["S!A2"] == 0 and res["S!A3"] == 0
    assert _code(res["S!A4"]) == "#NUM!" and _code(res["S!A5"]) == "#VALUE!"
    assert res["S!A6"] == 39327
    assert _code(res["S!A7"]) == "#NUM!" and _code(res["S!A8"]) == "#NUM!"


def test_workday_from_a_weekend_a_holiday_and_past_9999(tmp_path):
    # Microsoft Support, "WORKDAY function": the working days after start_date, weekends
    # and holidays left out; days truncated; #NUM! when start_date plus days is no valid
    # date. 1905-07-15 (serial 2023: 1900-01-01 is 1, plus 29 February 1900) is a
    # Saturday; 2023-03-15 (45000) a Wednesday.
    res = _calc(tmp_path, [
        c("A1", "WORKDAY(2023,1)"),   # Monday 17 July 1905: 2025
        c("A2", "WORKDAY(2023,-1)"),  # Friday 14 July 1905: 2022
        c("A3", "WORKDAY(2023,5)"),   # Friday 21 July 1905: 2029
        c("A4", "WORKDAY(45000,2.7)"),  # Friday 17 March 2023: 45002
        c("A5", "WORKDAY(45001,1,45001)"),  # from a holiday Thursday: Friday, 45002
        c("A6", "WORKDAY(2958465,4)"),
    ])
    assert [res[f"S!A{r}"] for r in range(1, 6)] == [2025, 2022, 2029, 45002, 45002]
    assert _code(res["S!A6"]) == "#NUM!"


def test_a_serial_number_below_0_in_the_1904_system(tmp_path):
    # ECMA-376 Part 1, SpreadsheetML date representation: the 1904 system starts at serial
    # 0, 1 January 1904, and YEAR of a date-value out of range is #NUM! (as
    # FormulaEvalTestData G340, DAY(-1.1), is #NUM! in the 1900 system); napkin gave 1903
    # for YEAR(-0.25). YEAR(0) is 1904 (serial 0, 1 January 1904); EDATE of a serial number
    # below 0 is refused (its pages do not say)
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", "YEAR(-0.25)", 0), xlsx_make.cell("A2", "YEAR(-0.5)", 0),
        xlsx_make.cell("A3", "YEAR(0)", 0)]}, date1904=True)
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!A1"].code == "#NUM!" and res["S!A2"].code == "#NUM!"
    assert res["S!A3"] == 1904
    src = xlsx_make.write(tmp_path / "in2.xlsx", {"S": [
        xlsx_make.cell("A1", "EDATE(-1,5)", 0)]}, date1904=True)
    with pytest.raises(WorkbookError, match="EDATE of a serial number below 0 in the 1904"):
        calc_workbook(src, tmp_path / "out2.xlsx", {})


def test_a_workday_holiday_that_is_no_date_is_refused(tmp_path):
    # Microsoft Support, "WORKDAY function": "If any argument is not a valid date, WORKDAY
    # returns the #VALUE! error value" (formulas: #NUM!, LibreOffice leaves the holiday out):
    # refused
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", "WORKDAY(45000,-3,B1:B2)", 0), xlsx_make.cell("B1", None, -2),
        xlsx_make.cell("B2", None, 45001)]})
    with pytest.raises(WorkbookError, match="WORKDAY with a holiday that is no date"):
        calc_workbook(src, tmp_path / "out.xlsx", {})


def test_edate_of_excels_29_february_1900_is_refused(tmp_path):
    # serial 60 is Excel's 29 February 1900, a day of no calendar ("Excel incorrectly
    # assumes that the year 1900 is a leap year"): napkin gave #NUM!, LibreOffice 363;
    # other engines' readings of Excel's calendar before March 1900 disagree: refused, as
    # EDATE of 59 (28 February 1900) is
    for formula in ("EDATE(60,10)", "EDATE(59,1)"):
        src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [xlsx_make.cell("A1", formula, 0)]})
        with pytest.raises(WorkbookError, match="EDATE of a date before 1 March 1900"):
            calc_workbook(src, tmp_path / "out.xlsx", {})


def test_a_text_with_a_sign_before_a_date_is_refused(tmp_path):
    # YEAR("-1-1"): formulas read it as 1 January of the current year (napkin gave 2026),
    # LibreOffice #VALUE!; no page says how Excel reads a sign before a date: refused.
    # Microsoft Support, "YEAR function": YEAR of a date as text; 15 March 2024 is 2024
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [xlsx_make.cell("A1", 'YEAR("-1-1")', 0)]})
    with pytest.raises(WorkbookError, match="YEAR of a text with a sign before a date"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    src = xlsx_make.write(tmp_path / "in2.xlsx", {"S": [
        xlsx_make.cell("A1", 'YEAR("2024-03-15")', 0)]})
    assert calc_workbook(src, tmp_path / "out2.xlsx", {})["S!A1"] == 2024
