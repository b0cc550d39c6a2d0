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
intersected the repeated products with the formula's row. The values here by hand.
"""

from __future__ import annotations

import pathlib

import sheet_calc
import xlsx_make

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
