"""FORMULATEXT (``addin/excel/formulatext.py``): the formula of a cell as Excel's formula
bar shows it, checked on the cells Excel saved in the seen corpora (their inputs copied
here) and on Microsoft's page; what the text Excel writes does not settle refused."""

from __future__ import annotations

import sheet_calc
import test_excel_dynamic as dynamic
import xlsx_make

from addin.engine.api import calc_workbook

c = xlsx_make.cell


def test_legacy_array_formulas_as_excel_saved(tmp_path):
    # Akshit37/Loan-Amortization, Loan Amortization.xlsx (the fifth held-out part),
    # 'Audit Report': B3 = {SUM(IF(ISERROR(Dashboard!A1:L21),1))} written <f t="array"
    # ref="B3"> (no dynamic-array flag); C3 = _xlfn.FORMULATEXT(B3) saved
    # "{=SUM(IF(ISERROR(Dashboard!A1:L21),1))}": the formula bar shows a legacy array
    # formula between braces. Here on one sheet S (the text is the cell's own).
    cells = [c("A1", None, 1), c("A2", None, 2),
             '<c r="B3"><f t="array" ref="B3">SUM(IF(ISERROR(S!A1:A2),1))</f><v>0</v></c>',
             '<c r="B4"><f t="array" ref="B4">SUM(IF(ISERROR(\'S\'!A1:A2),1,0))</f><v>0</v></c>',
             c("C3", "_xlfn.FORMULATEXT(B3)", "", t="str"),
             c("C4", "_xlfn.FORMULATEXT(B4)", "", t="str")]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {}
    assert res["S!C3"] == "{=SUM(IF(ISERROR(S!A1:A2),1))}"
    assert res["S!C4"] == "{=SUM(IF(ISERROR('S'!A1:A2),1,0))}"


def test_dynamic_array_formulas_as_excel_saved(tmp_path):
    # calebjgartner/Financial-Modeling-Projects, Option Pricing Model (BlackScholes).xlsx
    # (the tuning pool): C11 = CallPrice(B12,B11,B13,B14,B16,B15) written with cm="1" (a
    # dynamic array formula); D11 = _xlfn.FORMULATEXT(C11) saved
    # "=CallPrice(B12,B11,B13,B14,B16,B15)": no braces. Here a dynamic SUM of two cells.
    cells = [c("B11", None, 2), c("B12", None, 3),
             *dynamic.spill("C11", "C11", "SUM(B11,B12)", [[5]]),
             c("D11", "_xlfn.FORMULATEXT(C11)", "", t="str")]
    src = dynamic.write(tmp_path / "in.xlsx", cells)
    kept: list = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    assert kept == []
    assert res["S!D11"] == "=SUM(B11,B12)"


def test_the_pages_cases(tmp_path):
    # Microsoft Support, "FORMULATEXT function": A2 = TODAY() gives "=TODAY()" (here a
    # formula of one cell and a function, =A1*2+ROUND(A1,0)); a range gives its
    # upper-left cell's formula; a cell without a formula gives #N/A; a text that only
    # looks like a reference is no reference (#VALUE! by the page: refused here)
    cells = [c("A1", None, 1.5), c("B1", "A1*2+ROUND(A1,0)", 5), c("B2", "B1+1", 6),
             c("C1", "FORMULATEXT(B1)", "", t="str"),
             c("C2", "FORMULATEXT(B1:B2)", "", t="str"),
             c("C3", "FORMULATEXT(A1)", 0), c("C4", "FORMULATEXT(Z9)", 0),
             c("C5", 'LEN(FORMULATEXT(B2))', 0)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {}
    assert res["S!C1"] == res["S!C2"] == "=A1*2+ROUND(A1,0)"
    assert str(res["S!C3"]).split()[0] == str(res["S!C4"]).split()[0] == "#N/A"
    assert res["S!C5"] == len("=B1+1")


def test_what_excel_may_show_otherwise_is_refused(tmp_path):
    # a range or a name outside an array formula (Excel 365 may show @ in it), a prefixed
    # function (shown without its _xlfn.), INDIRECT: no saved cell shows their text
    cells = [c("A1", None, 1), c("A2", None, 2),
             c("B1", "SUM(A1:A2)", 3), c("B2", "_xlfn.CONCAT(A1,A2)", "12", t="str"),
             c("B3", 'INDIRECT("A1")', 1),
             c("C1", "FORMULATEXT(B1)", "=SUM(A1:A2)", t="str"),
             c("C2", "FORMULATEXT(B2)", "=CONCAT(A1,A2)", t="str"),
             c("C3", "FORMULATEXT(B3)", '=INDIRECT("A1")', t="str")]
    _, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {
        "S!C1": "FORMULATEXT of a formula that is not an array formula and reads a range "
                "(Excel 365 may show @ in it)",
        "S!C2": "FORMULATEXT of a formula naming a function with Excel's prefix (_xlfn., "
                "_xlws., _xlpm.), which Excel shows otherwise",
        "S!C3": "FORMULATEXT of a formula that is not an array formula and calls INDIRECT "
                "(Excel 365 may show @ in it)"}
