"""Lookups and references computed as Excel does, each in a minimal workbook of our own:
CHOOSE, LOOKUP, XLOOKUP, INDEX, approximate VLOOKUP/HLOOKUP/MATCH, OFFSET and INDIRECT
(or the workbook refused, saying why)."""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError


def test_choose_returns_the_value_or_reference_as_it_is(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        *[xlsx_make.cell(f"{c}1", None, v) for c, v in zip("BCDE", (1, 2, 3, 4), strict=True)],
        *[xlsx_make.cell(f"F{r}", None, r * 10) for r in (1, 2, 3)],
        # xlcalculator's choose.xlsx, saved by Excel: 12, then 4
        '<c r="A1"><f t="array" ref="A1">CHOOSE(3,B1:D1,E1,12)</f><v>12</v></c>',
        xlsx_make.cell("A2", "CHOOSE(2, B1:D1,E1,11)", 4),
        xlsx_make.cell("A3", "SUM(CHOOSE(2,B1:D1,F1:F3))", 60),  # 10+20+30
        xlsx_make.cell("A4", "CHOOSE(0,1,2)", "#VALUE!", t="e"),
        xlsx_make.cell("A5", "CHOOSE(2.9,\"a\",\"b\",\"c\")", "b", t="str"),
        xlsx_make.cell("A6", "SUM(CHOOSE({1,2},B1,C1))", 3)]})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!A1"] == 12 and res["S!A2"] == 4 and res["S!A3"] == 60
    assert res["S!A4"].code == "#VALUE!" and res["S!A5"] == "b" and res["S!A6"] == 3


def test_lookup_vector_and_array_forms(tmp_path):
    # Microsoft's LOOKUP help, its examples: 4.19 -> orange, 5.75 -> yellow, 7.66 -> blue,
    # 0 -> #N/A; array form: "C" in {"a","b","c","d";1,2,3,4} -> 3, "bump" -> 2
    freq = (4.14, 4.19, 5.17, 5.77, 6.39)
    colors = ("red", "orange", "yellow", "green", "blue")
    cells = [xlsx_make.cell(f"A{r}", None, f) for r, f in enumerate(freq, 2)]
    cells += [xlsx_make.cell(f"B{r}", None, c, t="inlineStr") for r, c in enumerate(colors, 2)]
    cells += [xlsx_make.cell("D1", "LOOKUP(4.19,A2:A6,B2:B6)", 0),
              xlsx_make.cell("D2", "LOOKUP(5.75,A2:A6,B2:B6)", 0),
              xlsx_make.cell("D3", "LOOKUP(7.66,A2:A6,B2:B6)", 0),
              xlsx_make.cell("D4", "LOOKUP(0,A2:A6,B2:B6)", 0),
              xlsx_make.cell("D5", 'LOOKUP("C",{"a","b","c","d";1,2,3,4})', 0),
              xlsx_make.cell("D6", 'LOOKUP("bump",{"a",1;"b",2;"c",3})', 0),
              # the last row below 5: 4.19 (errors of 1/FALSE are passed over)
              xlsx_make.cell("D7", "LOOKUP(2,1/(A2:A6<5),B2:B6)", 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert [res[f"S!D{r}"] for r in (1, 2, 3)] == ["orange", "yellow", "blue"]
    assert res["S!D4"].code == "#N/A" and res["S!D5"] == 3 and res["S!D6"] == 2
    assert res["S!D7"] == "orange"


def test_lookup_in_unsorted_values_is_refused(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", None, 5), xlsx_make.cell("A2", None, 1),
        xlsx_make.cell("A3", None, 3), xlsx_make.cell("B1", "LOOKUP(4,A1:A3)", 3),
        xlsx_make.cell("B2", "B1+1", 4)]})
    with pytest.raises(WorkbookError, match="LOOKUP in values that are not sorted.* S!B1"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    notes: list[str] = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False, notes=notes)
    assert res["S!B1"] == 3 and res["S!B2"] == 4 and "S!B1" in notes[0]  # Excel's 3 kept


def test_offset_and_indirect_give_references(tmp_path):
    # Microsoft's OFFSET help: OFFSET(D3,3,-2,1,1) is B6; SUM(OFFSET(D3:F5,3,-2,3,3)) sums
    # B6:D8; OFFSET(D3,-3,-3) is off the sheet: #REF!. INDIRECT's help: INDIRECT(A2) with
    # A2 = "B2" is B2's value; INDIRECT("B"&A5) is B5's
    cells = [xlsx_make.cell(f"{c}{r}", None, r * 10 + n)
             for r in range(6, 9) for n, c in enumerate("BCD", 1)]
    cells += [xlsx_make.cell("A2", None, "B2", t="inlineStr"), xlsx_make.cell("B2", None, 1.333),
              xlsx_make.cell("A3", None, "no such name", t="inlineStr"),
              xlsx_make.cell("A5", None, 6),
              xlsx_make.cell("F1", "OFFSET(D3,3,-2,1,1)", 0),  # B6 = 61
              xlsx_make.cell("F2", "SUM(OFFSET(D3:F5,3,-2,3,3))", 0),  # B6:D8
              xlsx_make.cell("F3", "OFFSET(D3,-3,-3)", 0),
              xlsx_make.cell("F4", "INDIRECT(A2)", 0), xlsx_make.cell("F5", 'INDIRECT("B"&A5)', 0),
              xlsx_make.cell("F6", 'SUM(INDIRECT("Other!A1:A3"))', 0),
              xlsx_make.cell("F7", 'INDIRECT("nowhere")&INDIRECT(A3)', 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells, "Other": [
        xlsx_make.cell(f"A{r}", None, r) for r in (1, 2, 3)]})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!F1"] == 61 and res["S!F2"] == (61 + 62 + 63) + (71 + 72 + 73) + (81 + 82 + 83)
    assert res["S!F3"].code == "#REF!" and res["S!F4"] == 1.333 and res["S!F5"] == 61
    assert res["S!F6"] == 6 and res["S!F7"].code == "#REF!"


@pytest.mark.parametrize("formula", ["SUM(OFFSET(B6,0,0,-1,3))", "SUM(OFFSET(B6,0,0,1,-2))",
                                     "INDEX(OFFSET(B6:C7,3,1,-1,3),1,1)"])
def test_offset_with_a_negative_height_or_width_is_refused(tmp_path, formula):
    # Microsoft's OFFSET page: "Height must be a positive number" (so width); what Excel
    # gives for a negative one it does not say (LibreOffice: #VALUE!): Excel's value kept
    cells = [xlsx_make.cell(f"{c}{r}", None, r) for r in range(1, 12) for c in "BCD"]
    cells += [xlsx_make.cell("F1", formula, 7), xlsx_make.cell("G1", "F1+1", 8)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    with pytest.raises(WorkbookError, match="OFFSET given a negative height or width.* S!F1"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    notes: list[str] = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False, notes=notes)
    assert res["S!F1"] == 7 and "S!F1" in notes[0] and "negative height or width" in notes[0]


def test_offset_onto_a_formula_computed_later_is_computed_first(tmp_path):
    # B3 comes after A1 in the order of computing; OFFSET reaches it: computed then
    # (addin/engine/demand.py; tests/test_offset_on_demand.py). Saved 0: 4 is computed
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", "OFFSET(B1,2,0)", 0), xlsx_make.cell("B3", "2*2", 0)]})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert (res["S!A1"], res["S!B3"]) == (4, 4)


def test_xlookup(tmp_path):
    # Microsoft's XLOOKUP help: exact match by default, if_not_found, match_mode -1/1
    # (next smaller/larger), 2 (wildcards), search_mode -1 (last to first), a row of a
    # two-column return_array; the values here by hand
    names = ("Ann", "Bob", "Cy", "Bob")
    cells = [xlsx_make.cell(f"A{r}", None, n, t="inlineStr") for r, n in enumerate(names, 1)]
    cells += [xlsx_make.cell(f"B{r}", None, r * 10) for r in range(1, 5)]
    cells += [xlsx_make.cell(f"C{r}", None, r * 100) for r in range(1, 5)]
    cells += [xlsx_make.cell("E1", '_xlfn.XLOOKUP("bob",A1:A4,B1:B4)', 0),  # first Bob: 20
              xlsx_make.cell("E2", '_xlfn.XLOOKUP("Bob",A1:A4,B1:B4,,0,-1)', 0),  # last: 40
              xlsx_make.cell("E3", '_xlfn.XLOOKUP("Dee",A1:A4,B1:B4,"none")', 0),
              xlsx_make.cell("E4", '_xlfn.XLOOKUP("Dee",A1:A4,B1:B4)', 0),
              xlsx_make.cell("E5", "_xlfn.XLOOKUP(25,B1:B4,A1:A4,,-1)", 0),  # 20: Bob
              xlsx_make.cell("E6", "_xlfn.XLOOKUP(25,B1:B4,A1:A4,,1)", 0),  # 30: Cy
              xlsx_make.cell("E7", '_xlfn.XLOOKUP("C?",A1:A4,B1:B4,,2)', 0),  # Cy: 30
              '<c r="F1"><f t="array" ref="F1:G1">_xlfn.XLOOKUP("Cy",A1:A4,B1:C4)</f>'
              '<v>0</v></c>']  # 30 and 300
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!E1"] == 20 and res["S!E2"] == 40 and res["S!E3"] == "none"
    assert res["S!E4"].code == "#N/A" and res["S!E5"] == "Bob" and res["S!E6"] == "Cy"
    assert res["S!E7"] == 30 and res["S!F1"] == 30 and res["S!G1"] == 300


def test_index_of_a_whole_row_or_column(tmp_path):
    # Microsoft's INDEX help: row_num or column_num 0 gives the whole column or row (a
    # reference); values by hand: row r, column c holds 10*r + c
    cells = [xlsx_make.cell(f"{c}{r}", None, r * 10 + i)
             for r in (1, 2, 3) for i, c in enumerate("ABC", 1)]
    cells += [xlsx_make.cell("E1", "SUM(INDEX(A1:C3,2,0))", 0),  # 21+22+23
              xlsx_make.cell("E2", "SUM(INDEX(A1:C3,0,2))", 0),  # 12+22+32
              xlsx_make.cell("E3", "INDEX(A1:C3,3,2)", 0),
              xlsx_make.cell("E4", "INDEX(A1:A3,2)", 0), xlsx_make.cell("E5", "INDEX(A1:C1,3)", 0),
              xlsx_make.cell("E6", "INDEX(A1:C3,4,1)", 0),
              xlsx_make.cell("E7", "SUM(A1:INDEX(A1:C3,2,2))", 0),  # A1:B2: 11+12+21+22
              xlsx_make.cell("B5", "INDEX(A1:C3,2,0)", 0),  # one cell: the row's B, 22
              '<c r="F1"><f t="array" ref="F1:H1">INDEX(A1:C3,2,0)</f><v>0</v></c>']
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!E1"] == 66 and res["S!E2"] == 66 and res["S!E3"] == 32 and res["S!E4"] == 21
    assert res["S!E5"] == 13 and res["S!E6"].code == "#REF!" and res["S!E7"] == 66
    assert res["S!B5"] == 22 and [res[f"S!{c}1"] for c in "FGH"] == [21, 22, 23]


def test_approximate_lookups_in_sorted_values_or_refused(tmp_path):
    # Microsoft's VLOOKUP and MATCH help: an approximate match (range_lookup TRUE or left
    # out, match_type 1 or -1) needs values sorted; the largest value not greater (1) or
    # the smallest not less (-1) is found. Brackets here: 0, 10000, 50000 by hand
    cells = [xlsx_make.cell(f"A{r}", None, v) for r, v in ((1, 0), (2, 10000), (3, 50000))]
    cells += [xlsx_make.cell(f"B{r}", None, v) for r, v in ((1, 0.1), (2, 0.2), (3, 0.3))]
    cells += [xlsx_make.cell(f"C{r}", None, v) for r, v in ((1, 30), (2, 20), (3, 10))]
    cells += [xlsx_make.cell("D1", "VLOOKUP(25000,A1:B3,2)", 0),
              xlsx_make.cell("D2", "VLOOKUP(25000,A1:B3,2,TRUE)", 0),
              xlsx_make.cell("D3", "MATCH(60000,A1:A3)", 0),
              xlsx_make.cell("D4", "MATCH(15,C1:C3,-1)", 0),
              xlsx_make.cell("D5", "VLOOKUP(10000,A1:B3,2,FALSE)", 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!D1"] == 0.2 and res["S!D2"] == 0.2 and res["S!D3"] == 3
    assert res["S!D4"] == 2 and res["S!D5"] == 0.2
    src = xlsx_make.write(tmp_path / "in2.xlsx", {"S": [  # A1:A3 not sorted
        *[xlsx_make.cell(f"A{r}", None, v) for r, v in ((1, 0), (2, 90000), (3, 50000))],
        *cells[3:6], xlsx_make.cell("D1", "VLOOKUP(25000,A1:B3,2)", 0)]})
    with pytest.raises(WorkbookError, match="VLOOKUP's approximate match in values that are "
                                            "not sorted"):
        calc_workbook(src, tmp_path / "out2.xlsx", {})


def test_single_is_the_implicit_intersection_operator(tmp_path):
    # Microsoft Support, "Implicit intersection operator: @": a single item is itself; a
    # range gives the cell on the formula's row or column (=@A1:A10 in B5 is A5); Excel
    # 365 saves @ as _xlfn.SINGLE. No intersection: #VALUE! (SUMPRODUCT, "Dynamic Arrays
    # in Action", 21 February 2019). Values worked by hand: A1:A5 hold 10..50, B1:D1 hold
    # 7, 8, 9.
    cells = [xlsx_make.cell(f"A{r}", None, 10 * r) for r in range(1, 6)]
    cells += [xlsx_make.cell(f"{c}1", None, v) for c, v in zip("BCD", (7, 8, 9), strict=True)]
    cells += [xlsx_make.cell("E3", "_xlfn.SINGLE(A1:A5)", 0),  # row 3: A3 = 30
              xlsx_make.cell("E4", "_xlfn.SINGLE(A1:A5)*2", 0),  # A4 * 2 = 80
              xlsx_make.cell("E9", "_xlfn.SINGLE(A1:A5)", 0),  # row 9: none, #VALUE!
              xlsx_make.cell("C6", "_xlfn.SINGLE(B1:D1)", 0),  # column C: C1 = 8
              xlsx_make.cell("E6", "_xlfn.SINGLE(B1:D1)", 0),  # column E: none, #VALUE!
              xlsx_make.cell("F7", "_xlfn.SINGLE(A2)", 0),  # one cell: A2 = 20
              xlsx_make.cell("F8", "_xlfn.SINGLE(12.5)", 0),  # one value: 12.5
              xlsx_make.cell("F9", 'IFERROR(_xlfn.SINGLE(INDEX(A1:A5,4)),"")', 0),  # A4
              xlsx_make.cell("F10", "SUM(_xlfn.SINGLE(A1:A5),1)", 0)]  # row 10: #VALUE!
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert (res["S!E3"], res["S!E4"], res["S!C6"]) == (30, 80, 8)
    assert (res["S!F7"], res["S!F8"], res["S!F9"]) == (20, 12.5, 40)
    assert [res[k].code for k in ("S!E9", "S!E6", "S!F10")] == ["#VALUE!"] * 3


def test_single_of_an_empty_cell_or_an_error_value_is_what_the_cell_holds(tmp_path):
    # the page: "return the value from the cell on the same row or column as the
    # formula": an empty cell reads as an empty cell does (0 alone, "" joined to text),
    # an error value is that error. By hand: A1 empty, A2 #N/A (=NA()), A3 = 3; in row 1
    # and row 2 of column C.
    cells = [xlsx_make.cell("A2", "NA()", "#N/A"), xlsx_make.cell("A3", None, 3),
             xlsx_make.cell("C1", "_xlfn.SINGLE(A1:A3)", 5),  # A1 empty: 0
             xlsx_make.cell("D1", '_xlfn.SINGLE(A1:A3)&"x"', 5),  # "" & "x"
             xlsx_make.cell("E1", "_xlfn.SINGLE(A1)+1", 5),  # 0 + 1
             xlsx_make.cell("C2", "_xlfn.SINGLE(A1:A3)", 5),  # A2: #N/A
             xlsx_make.cell("D2", "IFERROR(_xlfn.SINGLE(A1:A3),7)", 5)]  # 7
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert (res["S!C1"], res["S!D1"], res["S!E1"], res["S!D2"]) == (0, "x", 1, 7)
    assert res["S!C2"].code == "#N/A"


@pytest.mark.parametrize("formula", ["_xlfn.SINGLE(A1:B5)", "_xlfn.SINGLE({1,2,3})",
                                     "_xlfn.SINGLE((A1:A2,B1:B2))"])
def test_single_where_no_evidence_settles_it_is_refused(tmp_path, formula):
    # a block of many rows and columns, an array of many values (top-left per the page,
    # but an array here may be a reference Excel's function returned), several areas
    cells = [xlsx_make.cell(f"A{r}", None, r) for r in range(1, 6)]
    cells += [xlsx_make.cell("C3", formula, 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    with pytest.raises(WorkbookError, match="SINGLE"):
        calc_workbook(src, tmp_path / "out.xlsx", {})


def test_the_at_operator_in_formula_text_is_single(tmp_path):
    # Excel 365 saves @ as _xlfn.SINGLE; a formula written by another program may hold @
    # itself: the same operator (Microsoft Support, "Implicit intersection operator: @").
    # By hand: A1:A5 hold 1..5, B1:D1 hold 7, 8, 9.
    cells = [xlsx_make.cell(f"A{r}", None, r) for r in range(1, 6)]
    cells += [xlsx_make.cell(f"{c}1", None, v) for c, v in zip("BCD", (7, 8, 9), strict=True)]
    cells += [xlsx_make.cell("C5", "@B1:D1", 0),  # column C: C1 = 8
              xlsx_make.cell("C6", "@A1", 0),  # one cell: A1 = 1
              xlsx_make.cell("E3", "@A1:A5*2", 0),  # A3 * 2 = 6
              xlsx_make.cell("E7", "@A1:A5", 0)]  # row 7: none, #VALUE!
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert (res["S!C5"], res["S!C6"], res["S!E3"]) == (8, 1, 6)
    assert res["S!E7"].code == "#VALUE!"
