"""SUMPRODUCT's arguments computed as arrays where the formula repeats a subexpression
(formulas computes it once and passes it on through BYPASS, ``addin/formula/
intersection.py``) and where YEAR, MONTH or DAY is given a range inside them (computed
element by element, declared ``elementwise``).

Excel computes SUMPRODUCT's arguments as arrays in a one-cell formula (Microsoft Support,
"SUMPRODUCT function": ``=SUMPRODUCT((B2:B9=B12)*(C2:C9))`` without Ctrl+Shift+Enter), and
a function of one value given an array there element by element (Microsoft Support,
"Guidelines and examples of array formulas"). The pattern is the fifth held-out part's
Personal Budget.xlsx ('Budget Dashboard'!K14:K50: SUMPRODUCT(Tracking[Amount],
(Tracking[Type] = type) * (YEAR(Tracking[Effective Date]) = selected_year) * ...) four
times over in one IF), which napkin refused ("SUMPRODUCT() given a number"), having
intersected the repeated products with the formula's row. The same file's other two
refusals: ROW given a range in a defined name (MAX(ROW(income[]))), and INDEX given the
text "/1", which formulas read as a date. The values here by hand.
"""

from __future__ import annotations

import pathlib

import sheet_calc
import xlsx_make

from addin.engine.api import calc_workbook

c = xlsx_make.cell

# A1:A3 amounts 2, 3, 5; B1:B3 flags 1, 1, 0; C1:C3 dates 45000 (15 March 2023), 45400
# (18 April 2024), 45100 (23 June 2023) (serials: Microsoft Support, "DATE function")
_DATA = [c("A1", None, 2), c("A2", None, 3), c("A3", None, 5), c("B1", None, 1),
         c("B2", None, 1), c("B3", None, 0), c("C1", None, 45000), c("C2", None, 45400),
         c("C3", None, 45100)]
_A = "SUMPRODUCT(A1:A3,(B1:B3=1)*(YEAR(C1:C3)=2023))"
_B = "SUMPRODUCT(A1:A3,(B1:B3=1)*(YEAR(C1:C3)=2023)*(MONTH(C1:C3)=3))"


def test_a_repeated_subexpression_inside_sumproduct(tmp_path: pathlib.Path):
    # _A: flags and 2023 -> row 1 only -> 2; _B: also March -> row 1 -> 2;
    # SUMPRODUCT(A1:A3,(B1:B3=1)*1) = 2 + 3 = 5, twice 10
    cells = _DATA + [c("D5", f"IF(1=1,{_A},{_A})", 0), c("E5", f"IF(D1=0,{_A},{_B})", 0),
                     c("F5", f"IF(1=1,{_A},0)", 0),
                     c("G5", "SUMPRODUCT(A1:A3,(B1:B3=1)*1)+SUMPRODUCT(A1:A3,(B1:B3=1)*1)", 0)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {}
    assert (res["S!D5"], res["S!E5"], res["S!F5"], res["S!G5"]) == (2, 2, 2, 10)


def test_year_month_day_of_a_range_inside_sumproduct(tmp_path: pathlib.Path):
    # YEAR(C1:C3) = 2023, 2024, 2023: SUMPRODUCT(A1:A3,YEAR(C1:C3)) = 2*2023 + 3*2024 +
    # 5*2023 = 20233; SUMPRODUCT(MONTH(C1:C3)) = 3 + 4 + 6 = 13; SUMPRODUCT(DAY(C1:C3)) =
    # 15 + 18 + 23 = 56. In row 5, outside the rows 1-3, an intersection would give #VALUE!
    cells = _DATA + [c("D5", "IF(B1=1,SUMPRODUCT(A1:A3,(YEAR(C1:C3)=2023)*(B1:B3<>9)),0)", 0),
                     c("E5", "SUMPRODUCT(A1:A3,YEAR(C1:C3))", 0),
                     c("F5", "SUMPRODUCT(MONTH(C1:C3))", 0), c("G5", "SUMPRODUCT(DAY(C1:C3))", 0)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {}
    # D5: 2023 in rows 1 and 3 -> 2 + 5 = 7
    assert (res["S!D5"], res["S!E5"], res["S!F5"], res["S!G5"]) == (7, 20233, 13, 56)


def test_year_of_a_range_elsewhere(tmp_path: pathlib.Path):
    # an array formula {=SUM(YEAR(C1:C3))} = 2023 + 2024 + 2023 = 6070, {=MONTH(C1:C3)}
    # spilled 3, 4, 6; in a one-cell formula YEAR(C1:C3) takes the cell of its row (row 2:
    # 2024; row 5, outside: #VALUE!), as before (Microsoft, "Implicit intersection
    # operator: @")
    cells = _DATA + ['<c r="D1"><f t="array" ref="D1">SUM(YEAR(C1:C3))</f><v>0</v></c>',
                     '<c r="E1"><f t="array" ref="E1:E3">MONTH(C1:C3)</f><v>0</v></c>',
                     c("F2", "YEAR(C1:C3)", 0), c("F5", "YEAR(C1:C3)", 0)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {}
    assert res["S!D1"] == 6070 and (res["S!E1"], res["S!E2"], res["S!E3"]) == (3, 4, 6)
    assert res["S!F2"] == 2024 and str(res["S!F5"]).split()[0] == "#VALUE!"


def test_row_of_a_range_in_a_defined_name_and_an_array_formula(tmp_path: pathlib.Path):
    # DHEERAJ09R08SINGH/Personal_Budget_Dashboard_Excel, Personal Budget.xlsx (the fifth
    # held-out part): income_max_row = MAX(ROW(income[])), the table income's data rows
    # C10:C12; 'Budget Dashboard'!C14:C17 saved 10, 11, 12, 22 (C16 = 12 is followed by
    # income_total_row, 22): MAX(ROW(...)) of a name is the last row, 12. Microsoft Support,
    # "ROW function": a range's rows as a vertical array. Here rows 2 to 4: MAX 4, MIN 2,
    # {=SUM(ROW(A2:A4))} = 2 + 3 + 4 = 9. In a formula of one cell Excel 365 spills the rows
    # and earlier versions give the top one: refused (Excel's value kept).
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        c("B1", "last", 0), c("B2", "first", 0),
        '<c r="B3"><f t="array" ref="B3">SUM(ROW(A2:A4))</f><v>0</v></c>',
        c("B4", "ROW(A7)", 0), c("B5", "ROW(A2:A4)", 2)]},
        names={"last": "MAX(ROW(S!$A$2:$A$4))", "first": "MIN(ROW(S!$A$2:$A$4))"})
    kept: list = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    assert (res["S!B1"], res["S!B2"], res["S!B3"], res["S!B4"]) == (4, 2, 9, 7)
    assert [(k.label, k.reason.split(" (")[0]) for k in kept] == [
        ("S!B5", "ROW given a range of several rows in a formula of one cell")]


def test_a_text_starting_with_a_slash_is_no_number(tmp_path: pathlib.Path):
    # Personal Budget.xlsx again: 'Budget Dashboard'!J18 = IFERROR(INDEX('Budget
    # Planning'!C:C, row_id),"") with row_id (C18) = "/1" saved "" (and J30 with "/2"):
    # Excel gave an error, where "/1" read as a number (formulas read 1 January of this
    # year) would have given a cell of column C. So "/1" is text, not a number: #VALUE!
    cells = [c("C1", None, 5), sheet_calc.text("A1", "/1"),
             c("B1", 'IFERROR(INDEX(C:C,A1),"")', "", t="str"),
             c("B2", 'ISERROR(A1+0)', 1, t="b"), c("B3", 'IFERROR(INDEX(C1:C3,"1"),"")', 5)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {}
    assert (res["S!B1"], res["S!B2"], res["S!B3"]) == ("", True, 5)
