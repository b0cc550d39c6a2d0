"""A function that gives back a reference, in a one-cell formula, a legacy array formula
and a formula on another sheet: IF, CHOOSE, IFERROR, IFNA, INDEX, OFFSET, INDIRECT, a
defined name, the range and intersection operators. Each formula is its own workbook (a
refusal refuses the whole file).

Excel's values, worked by hand: A1 = 3; B1:B3 = 5, 2, 1 (a column); B1:D3 = 5, 10, 100 /
2, 20, 200 / 1, 30, 300 (a block); F9:H9 = 7, 8, 9 (a row). In a one-cell formula a range
is read at the formula's cell: the cell of a column in the formula's row, of a row in the
formula's column, #VALUE! outside it or for a block (Microsoft Support, "Implicit
intersection operator: @"). IF gives back the argument its test chooses (3 > 0: TRUE;
Microsoft Support, "IF function"); CHOOSE its value numbered 1 (its page: SUM(A2:CHOOSE(2,
A3,A4,A5)), a reference); IFERROR and IFNA their value where it is no error, their
fallback for #VALUE! (IFERROR) (their pages); INDEX(r,0,0), OFFSET(r,0,0), INDIRECT("r") and
a name of r are r. In an array formula of one cell a range shows its top-left value
(Microsoft Support, "Guidelines and examples of array formulas"). LibreOffice gives the
same values (the last test, ``tools/lo_uno.py``).

Before this test, IF's range was read as an array and a one-cell formula showed its
first value: ``IF(A1>0,B1:B3,0)`` was 5 in row 2 (Excel 2) and in row 7 (#VALUE!).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import xlsx_make
from scenario_support import UNO_PYTHON, has_uno

from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell
ROOT = Path(__file__).resolve().parents[1]
GIVEN = [c("A1", None, 3), c("B1", None, 5), c("B2", None, 2), c("B3", None, 1),
         c("C1", None, 10), c("C2", None, 20), c("C3", None, 30),
         c("D1", None, 100), c("D2", None, 200), c("D3", None, 300),
         c("F9", None, 7), c("G9", None, 8), c("H9", None, 9)]
NAMES = {"COL": "S!$B$1:$B$3", "BLOCK": "S!$B$1:$D$3", "ROW": "S!$F$9:$H$9"}
V = "#VALUE!"
#: (cell, formula, Excel's value): one-cell formulas on sheet S
ONE_CELL = [
    ("E2", "IF(A1>0,B1:B3,0)", 2),  # B1:B3 in row 2: B2
    ("E7", "IF(A1>0,B1:B3,0)", V),  # row 7 outside rows 1-3
    ("E2", "IF(A1<0,0,B1:B3)", 2),  # value_if_false
    ("E7", "IF(A1<0,0,B1:B3)", V),
    ("E2", "IF(A1>0,B1:D3,0)", V),  # a block: no single cell
    ("G12", "IF(A1>0,F9:H9,0)", 8),  # F9:H9 in column G: G9
    ("K12", "IF(A1>0,F9:H9,0)", V),  # column K outside F-H
    ("E2", "IF(A1>0,B1:B3,0)+0", 2),  # the operator reads B2
    ("E7", "IF(A1>0,B1:B3,0)+0", V),
    ("E2", "ABS(IF(A1>0,B1:B3,0))", 2),  # ABS's number: B2
    ("E2", "IF(A1>0,IF(A1>1,B1:B3,0),0)", 2),  # nested: the inner IF's B1:B3
    ("E7", "SUM(IF(A1>0,B1:B3,0))", 8),  # SUM reads the range: 5 + 2 + 1
    ("E7", "SUM(IF(A1>0,5,B1:B3))", 5),  # IF gives 5: the other branch is not read
    ("E7", "ROWS(IF(A1>0,B1:B3,0))", 3),
    ("E2", "CHOOSE(1,B1:B3,0)", 2), ("E7", "CHOOSE(1,B1:B3,0)", V),
    ("E2", "IFERROR(B1:B3,0)", 2), ("E7", "IFERROR(B1:B3,0)", 0),  # #VALUE! caught
    ("E2", "_xlfn.IFNA(B1:B3,0)", 2), ("E7", "_xlfn.IFNA(B1:B3,0)", V),  # not #N/A
    ("E2", "INDEX(B1:B3,0,0)", 2), ("E7", "INDEX(B1:B3,0,0)", V),
    ("E2", "OFFSET(B1:B3,0,0)", 2), ("E7", "OFFSET(B1:B3,0,0)", V),
    ("E2", 'INDIRECT("B1:B3")', 2), ("E7", 'INDIRECT("B1:B3")', V),
    ("E2", "COL", 2), ("E7", "COL", V), ("E2", "BLOCK", V), ("G12", "ROW", 8),
    ("E2", "B1:B3", 2), ("E7", "B1:B3", V), ("K12", "F9:H9", V),
    ("E2", "B1:INDEX(B1:B3,3)", 2), ("E7", "B1:INDEX(B1:B3,3)", V),
    ("E2", "(B1:B3 B1:D3)", 2),  # the intersection is B1:B3
    ("E2", "(B1:B3,B1:B3)", V),  # two areas: no single cell
]
#: (cell, formula, Excel's value): a legacy array formula of one cell: the top-left value
ARRAY = [("E7", "IF(A1>0,B1:B3,0)", 5), ("E7", "IF(A1>0,B1:D3,0)", 5),
         ("K12", "IF(A1>0,F9:H9,0)", 7), ("E7", "CHOOSE(1,B1:B3,0)", 5),
         ("E7", "SUM(IF(A1>0,B1:B3,0))", 8)]
#: (cell on sheet T, formula, Excel's value): the same row numbers on another sheet
OTHER = [("E2", "IF(S!A1>0,S!B1:B3,0)", 2), ("E7", "IF(S!A1>0,S!B1:B3,0)", V),
         ("G12", "IF(S!A1>0,S!F9:H9,0)", 8), ("C7", "IF(S!A1>0,S!B1:D3,0)", V)]


def _book(path: Path, ref: str, formula: str, form: str) -> Path:
    if form == "array":
        from xml.sax.saxutils import escape
        cell = f'<c r="{ref}"><f t="array" ref="{ref}">{escape(formula)}</f><v>999</v></c>'
    else:
        cell = c(ref, formula, 999)  # (999: no value of Excel's)
    sheets = {"S": GIVEN + [cell]} if form != "other" else {"S": GIVEN, "T": [cell]}
    return xlsx_make.write(path, sheets, names=NAMES)


def _cases():
    return [(form, *case) for form, cases in (("one", ONE_CELL), ("array", ARRAY),
                                              ("other", OTHER)) for case in cases]


def _value(v):
    return str(v) if not isinstance(v, (int, float)) else float(v)


@pytest.mark.parametrize("strict", [True, False])
def test_a_reference_a_function_gives_back_is_read_at_the_formulas_cell(tmp_path, strict):
    got, want = {}, {}
    for i, (form, ref, formula, value) in enumerate(_cases()):
        res = calc_workbook(_book(tmp_path / f"b{i}.xlsx", ref, formula, form), None, {},
                            strict=strict)
        key = (form, ref, formula)
        got[key], want[key] = _value(res[f"{'T' if form == 'other' else 'S'}!{ref}"]), \
            _value(value)
    assert got == want


#: (cell, formula, what the refusal names): what the pages and the corpora leave open
REFUSED = [
    # SWITCH's page does not say whether a range result is a reference or values
    # (LibreOffice: 2 in row 2 of a one-cell formula, SUM(SWITCH(1,1,5,B1:B3)) 15 in an
    # array formula, 5 in a one-cell one)
    ("E2", "_xlfn.SWITCH(1,1,B1:B3)", "SWITCH"),
    ("E7", "SUM(_xlfn.SWITCH(1,1,5,B1:B3))", "SWITCH"),
    # INDEX's array given an operator on a range in a one-cell formula: an array (4) or
    # the row's cell (LibreOffice: #VALUE! in row 7, Err:504 in row 2)
    ("E7", "INDEX(B1:B3*2,2)", "INDEX"),
    ("E7", "IF(A1>0,INDEX(B1:B3*2,2),INDEX(B1:B3*2,3))", "INDEX"),
]


@pytest.mark.parametrize("ref, formula, says", REFUSED)
def test_what_the_pages_leave_open_is_refused(tmp_path, ref, formula, says):
    src = _book(tmp_path / "in.xlsx", ref, formula, "one")
    with pytest.raises(WorkbookError, match=f"napkin cannot compute .*{says}"):
        calc_workbook(src, None, {})


def test_a_block_on_another_sheet_at_the_formulas_row_and_column_is_refused(tmp_path):
    # T!C2 is in B1:D3's rows and columns: Microsoft's page names the cell of the row or
    # the column, not both (LibreOffice gives S!C2, 20)
    src = _book(tmp_path / "in.xlsx", "C2", "S!B1:D3", "other")
    with pytest.raises(WorkbookError, match="napkin cannot compute a block of many rows"):
        calc_workbook(src, None, {})


def test_an_array_formula_of_several_areas_is_refused(tmp_path):
    src = _book(tmp_path / "in.xlsx", "E7", "(B1:B3,B1:B3)", "array")
    with pytest.raises(WorkbookError, match="several areas"):
        calc_workbook(src, None, {})


@pytest.mark.skipif(not has_uno(), reason="needs LibreOffice and its uno module")
def test_libreoffice_gives_the_same_values(tmp_path):
    books = [(_book(tmp_path / f"b{i}.xlsx", ref, formula, form), form, ref, value)
             for i, (form, ref, formula, value) in enumerate(_cases())]
    proc = subprocess.run([UNO_PYTHON, str(ROOT / "tools" / "lo_uno.py")],
                          input=json.dumps([{"path": str(b[0])} for b in books]),
                          capture_output=True, text=True, timeout=600, check=True)
    got, want = {}, {}
    for (path, form, ref, value), out in zip(books, json.loads(proc.stdout), strict=True):
        kind, v = out["cells"][f"{'T' if form == 'other' else 'S'}!{ref}"]
        got[path.name] = v if kind != "n" else float(v)
        want[path.name] = _value(value)
    assert got == want


@pytest.mark.parametrize("formula", ["SIN(1E+10*1E+10)", "COS(2^27+1)", "TAN(-1E+10)",
                                     "_xlfn.COT(1E+20)"])
def test_trigonometry_of_a_huge_angle_is_refused(tmp_path, formula):
    # found by the differential's draws of IF's ranges: SIN((1E+10*1E+10)) napkin -0.645,
    # LibreOffice #VALUE!; no page says Excel's value beyond 2^27 (134,217,728)
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [c("A1", formula, 999)]})
    with pytest.raises(WorkbookError, match=r"napkin cannot compute .*beyond 1\.34218e\+08"):
        calc_workbook(src, None, {})


def test_trigonometry_up_to_2_to_the_27_is_computed(tmp_path):
    # SIN(2^27) = sin(134217728): Python's math.sin(134217728) = 0.6054..., and SIN(1) the
    # sine of one radian 0.8414709848078965 (Microsoft Support, "SIN function")
    import math
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [c("A1", "SIN(2^27)", 999),
                                                       c("A2", "SIN(1)", 999)]})
    res = calc_workbook(src, None, {})
    assert res["S!A1"] == pytest.approx(math.sin(2.0 ** 27), rel=1e-12)
    assert res["S!A2"] == pytest.approx(0.8414709848078965, rel=1e-15)


def test_xlookup_gives_back_the_reference_of_its_return_array(tmp_path):
    # Microsoft Support, "XLOOKUP function": XLOOKUP(...):XLOOKUP(...) inside SUM (it
    # returns a reference). B1:B3 = 5, 2, 1; C1:D3 = 10, 100 / 20, 200 / 30, 300. 2 is
    # found in row 2: the row C2:D2, read at the formula's cell as any reference (D on
    # another sheet: D2, 200; column F: #VALUE!); SUM of it 20 + 200 = 220; from the row of
    # 5 (C1) to that of 1 (C3): C1:C3, 10 + 20 + 30 = 60 (napkin gave 40 before: a
    # one-cell result was a value, not a reference). (LibreOffice 7.4 has no XLOOKUP.)
    cases = [("T", "D9", "_xlfn.XLOOKUP(2,S!B1:B3,S!C1:D3)", 200),
             ("T", "F9", "_xlfn.XLOOKUP(2,S!B1:B3,S!C1:D3)", "#VALUE!"),
             ("S", "E7", "SUM(_xlfn.XLOOKUP(2,B1:B3,C1:D3))", 220),
             ("S", "E7", "_xlfn.XLOOKUP(2,B1:B3,C1:D3)+0", "#VALUE!"),
             ("S", "E7", "SUM(_xlfn.XLOOKUP(5,B1:B3,C1:C3):_xlfn.XLOOKUP(1,B1:B3,C1:C3))", 60),
             ("S", "E7", "_xlfn.XLOOKUP(2,B1:B3,C1:C3)*2", 40)]
    got = {}
    for i, (sheet, ref, formula, _) in enumerate(cases):
        cell = c(ref, formula, 999)
        sheets = {"S": GIVEN + [cell]} if sheet == "S" else {"S": GIVEN, "T": [cell]}
        res = calc_workbook(xlsx_make.write(tmp_path / f"x{i}.xlsx", sheets), None, {})
        got[formula, ref] = _value(res[f"{sheet}!{ref}"])
    assert got == {(f, ref): _value(v) for _, ref, f, v in cases}
