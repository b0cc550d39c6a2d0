"""Evidence for the lookups given text that looks like a number or a computed array, the
functions given an error value, and XIRR's refusal (``addin/formula/excel_functions/``,
``addin/excel/lookup.py``, ``addin/engine/first_error.py``: ``first_error``).

* Lookups keep text and numbers apart: Microsoft KB 213476 (Q113261), "Unexpected Results
  with Mixed Text and Numbers in Lookup Table": "When you look up a text value, Microsoft
  Excel looks only at the text values in your table. Similarly, when you look up a
  numeric value, Microsoft looks only at the numeric values"; Microsoft Support, "VLOOKUP
  not working" (b868b9ad-6bfe-4f47-ac0b-2b8d9e20ab77): "make sure the numbers are not
  stored as text". A number that is wanted (INDEX's row_num) reads a text number:
  Microsoft Support, "IS functions": "in most other functions where a number is required,
  the text value "19" is converted to the number 19". Where the number is a setting
  (MATCH's match_type, XLOOKUP's modes, VLOOKUP's index) no page says, and it is refused.
* MIN of an array: Microsoft Support, "MIN function": "If an argument is an array or
  reference, only numbers in that array or reference are used. Empty cells, logical
  values, or text in the array or reference are ignored."
* An error value given to ROUNDDOWN, ROUNDUP, TRUNC, DOLLAR, MEDIAN, CONCATENATE is their
  value, as Excel saved it in the third held-out part's cells (seen); two different ones
  are refused (which comes first no page says).
* XIRR: the 9 cells Excel saved in the seen corpora differ from the rate by up to 5.7e-8
  relative, so napkin (which would give the rate) cannot give Excel's digits.
"""

from __future__ import annotations

import math

import pytest
import sheet_calc
import xlsx_make

from addin.engine.api import refusal_causes

c = xlsx_make.cell


_calc, _text = sheet_calc.calc_sheet, sheet_calc.text


def _array(ref, formula):
    """A one-cell array formula (Excel 365 saves a dynamic formula so, ``cm="1"``)."""
    return f'<c r="{ref}"><f t="array" ref="{ref}">{formula}</f><v>0</v></c>'


def _data():
    # A1:A4 = 1, "2", 3, "x"; B1:B4 = 10, 20, 30, 40; D1 = "2" (text), D2 = 2 (number)
    return [c("A1", None, 1), _text("A2", "2"), c("A3", None, 3), _text("A4", "x"),
            c("B1", None, 10), c("B2", None, 20), c("B3", None, 30), c("B4", None, 40),
            _text("D1", "2"), c("D2", None, 2)]


def test_text_and_numbers_never_match_in_lookups(tmp_path):
    formulas = ["MATCH(D1,A1:A4,0)",           # "2" finds the text "2": 2nd
                "MATCH(D2,A1:A4,0)",           # 2 finds no number 2: #N/A
                "MATCH(\"3\",A1:A4,0)",        # "3" is no text there: #N/A
                "VLOOKUP(D1,A1:B4,2,FALSE)",   # the text's row: 20
                "VLOOKUP(D2,A1:B4,2,FALSE)",   # #N/A
                "_xlfn.XLOOKUP(D1,A1:A4,B1:B4)",  # 20
                "_xlfn.XLOOKUP(3,A1:A4,B1:B4)",   # the number 3: 30
                "_xlfn.XLOOKUP(D2,A1:A4,B1:B4,\"none\")",  # not found: "none"
                "HLOOKUP(D1,{1,\"2\";10,20},2,FALSE)",    # 20
                "INDEX(B1:B4,D1)",             # row "2" read as 2: 20
                "INDEX(B1:B4,\"3\")"]          # 30
    cells = _data() + [c(f"E{i}", f, 0) for i, f in enumerate(formulas, 1)]
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    got = [res[f"S!E{i}"] for i in range(1, len(formulas) + 1)]
    assert got[0] == 2 and got[3] == 20 and got[5] == 20 and got[6] == 30
    assert [str(got[i]).startswith("#N/A") for i in (1, 2, 4)] == [True] * 3
    assert got[7] == "none" and got[8] == 20 and got[9] == 20 and got[10] == 30


@pytest.mark.parametrize("formula, why", [
    ("MATCH(2,B1:B4,\"0\")", "MATCH's match_type given as text"),
    ("VLOOKUP(1,A1:B4,\"2\",FALSE)", "VLOOKUP's index given as text"),
    ("_xlfn.XLOOKUP(1,A1:A4,B1:B4,,\"0\")", "XLOOKUP's match_mode given as text"),
    ("_xlfn.XLOOKUP(2,A1:A4,B1:B4,,1)", "XLOOKUP's next smaller or larger item among"),
])
def test_a_setting_given_as_text_is_refused(tmp_path, formula, why):
    res, kept = _calc(tmp_path, _data() + [c("E1", formula, 0)])
    assert why in kept["S!E1"]


def test_lookups_of_a_computed_array_in_an_array_formula(tmp_path):
    # A1:A3 = 1, 2, 3: (A1:A3=2)*1 is {0;1;0}, the 1 is 2nd; (A1:A3=3)*1 finds B3 = 30
    cells = [c("A1", None, 1), c("A2", None, 2), c("A3", None, 3), c("B1", None, 10),
             c("B2", None, 20), c("B3", None, 30),
             _array("E1", "MATCH(1,(A1:A3=2)*1,0)"),
             _array("E2", "_xlfn.XLOOKUP(1,(A1:A3=3)*1,B1:B3)"),
             _array("E3", "MIN((A1:A3&gt;1)*B1:B3)"),   # {0;20;30}: 0
             c("E4", "MIN({4,\"a\",TRUE,3})", 0),         # text, TRUE ignored: 3
             c("E5", "MIN({\"a\",\"b\"})", 1)]            # no numbers: 0 (its page)
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert [res[f"S!E{i}"] for i in range(1, 6)] == [2, 30, 0, 3, 0]


def test_a_lookup_of_a_computed_array_outside_an_array_formula_stays_refused(tmp_path):
    # a plain formula intersects (A1:A3=2) with its row in Excel: refused as before
    cells = [c("A1", None, 1), c("A2", None, 2), c("A3", None, 3),
             c("E5", "MATCH(1,(A1:A3=2)*1,0)", 0)]
    res, kept = _calc(tmp_path, cells)
    assert "a range used as a single value inside MATCH()" in kept["S!E5"]


def test_an_error_value_is_given_back(tmp_path):
    formulas = ["ROUNDDOWN(A1,1)", "ROUNDUP(A1,0)", "TRUNC(NA())", "DOLLAR(A1)",
                "MEDIAN(A1:A2)", "CONCATENATE(\"a\",A1)", "ROUNDDOWN(1/0,2)"]
    cells = [c("A1", "NA()", "#N/A", t="e"), c("A2", None, 1)] + [
        c(f"E{i}", f, 0) for i, f in enumerate(formulas, 1)]
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    got = [str(res[f"S!E{i}"]) for i in range(1, len(formulas) + 1)]
    assert [g[:4] for g in got] == ["#N/A"] * 6 + ["#DIV"]


def test_two_different_error_values_give_the_first(tmp_path):
    # the rule of addin/engine/first_error.py: the first error value in argument order,
    # a row's or a column's cells in order (BETA.DIST(#NAME?,#REF!,...) #NAME?, saved by
    # Excel in Containership_ABS_Model - Copy.xlsm, Beta_Dis!AC5; ATAN2(#N/A,#NAME?) #N/A,
    # poi/FormulaEvalTestData_Copy.xlsx EverythingTests!O168)
    cells = [c("A1", "NA()", "#N/A", t="e"), c("A2", "1/0", "#DIV/0!", t="e"),
             c("E1", "ROUNDDOWN(A1,A2)", "#N/A", t="e"),       # A1's, the first
             c("E2", "CONCATENATE(A2,A1)", "#DIV/0!", t="e"),  # A2's, the first
             c("E3", "MEDIAN(A1:A2)", "#N/A", t="e"),          # A1 before A2
             c("E4", "ROUNDDOWN(A1,A1)", "#N/A", t="e"),
             c("E5", "MEDIAN(5,A2:A3,A1:B1)", "#DIV/0!", t="e")]  # 5, then A2
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert [str(res[f"S!E{i}"])[:4] for i in range(1, 6)] == \
        ["#N/A", "#DIV", "#N/A", "#N/A", "#DIV"]


def test_what_the_first_error_rule_leaves_open_is_refused(tmp_path):
    # B1:C2 = 1, #DIV/0!; #N/A, 2: row by row #DIV/0! comes first, column by column #N/A
    cells = [c("A1", "NA()", "#N/A", t="e"), c("A2", "1/0", "#DIV/0!", t="e"),
             c("B1", None, 1), c("C1", "A2", "#DIV/0!", t="e"), c("B2", "A1", "#N/A", t="e"),
             c("C2", None, 2), _text("D1", "abc"),
             c("E1", "MEDIAN(B1:C2)", "#DIV/0!", t="e"),
             c("E2", "CONCATENATE(D1,A1)", "#N/A", t="e"),   # a text CONCATENATE reads
             c("E3", "MEDIAN(\"abc\",A1:A2)", "#VALUE!", t="e")]  # a text MEDIAN does not read
    res, kept = _calc(tmp_path, cells)
    assert "in a block of several rows and columns" in kept["S!E1"]
    assert "S!E2" not in kept and str(res["S!E2"]).startswith("#N/A")
    assert "MEDIAN() given a text before an error value (#N/A)" in kept["S!E3"]


def _xirr_root(values, dates):
    """The rate r with sum(v / (1 + r) ** ((d - d0) / 365)) = 0 (Microsoft Support, "XIRR
    function"), by Newton's method to convergence (no step left in doubles)."""
    r = 0.1
    for _ in range(200):
        t = [(d - dates[0]) / 365 for d in dates]
        f = sum(v / (1 + r) ** k for v, k in zip(values, t, strict=True))
        df = sum(-k * v / (1 + r) ** (k + 1) for v, k in zip(values, t, strict=True))
        step = f / df
        r -= step
        if abs(step) < 1e-16 * abs(r):
            break
    return r


def test_xirr_saved_cells_are_not_the_root():
    # tests/corpus/sheetjs/formula_stress_test.xlsx, Finance!B11 =XIRR(E10:H10,E11:H11):
    # -10000, 3000, 4200, 6800 on 2013-01-01, 2013-02-01, 2013-03-01, 2013-04-01
    # (serials 41275, 41306, 41334, 41365); Excel saved 5.3152377605438241
    root = _xirr_root([-10000, 3000, 4200, 6800], [41275, 41306, 41334, 41365])
    assert root == pytest.approx(5.31523773858332, rel=1e-13)
    saved = 5.3152377605438241
    assert math.isclose(saved, root, rel_tol=1e-8)
    assert not math.isclose(saved, root, rel_tol=1e-9)  # the corpus's comparison: refused


def test_xirr_is_refused_with_its_reason(tmp_path):
    cells = [c("A1", None, -100), c("A2", None, 110), c("B1", None, 41275),
             c("B2", None, 41640), c("E1", "XIRR(A1:A2,B1:B2)", 0.1)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    reasons = [r.reason for r in refusal_causes(src)]
    assert any(r.startswith("XIRR (Excel's iteration, not published") for r in reasons)


def test_address_as_microsofts_examples(tmp_path):
    # Microsoft Support, "ADDRESS function": its examples and those of its description
    formulas = {"ADDRESS(2,3)": "$C$2", "ADDRESS(77,300)": "$KN$77",
                "ADDRESS(2,3,2)": "C$2", "ADDRESS(2,3,2,FALSE)": "R2C[3]",
                "ADDRESS(2,3,1,FALSE,\"EXCEL SHEET\")": "'EXCEL SHEET'!R2C3",
                "ADDRESS(1,1,,,\"Sheet2\")": "Sheet2!$A$1",
                # abs_num 3 and 4 by the page's table: relative row, absolute column...
                "ADDRESS(2,3,3)": "$C2", "ADDRESS(2,3,4)": "C2",
                "ADDRESS(2,3,3,FALSE)": "R[2]C3", "ADDRESS(2,3,4,FALSE)": "R[2]C[3]"}
    cells = [c(f"E{i}", f, 0) for i, f in enumerate(formulas, 1)]
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert [res[f"S!E{i}"] for i in range(1, len(formulas) + 1)] == list(formulas.values())


@pytest.mark.parametrize("formula, why", [
    ("ADDRESS(1,16385)", "16385 as its column_num"),
    ("ADDRESS(1048577,1)", "1.04858e+06 as its row_num"),
    ("ADDRESS(2.5,1)", "2.5 as its row_num"),
    ("ADDRESS(1,1,5)", "5 as its abs_num"),
    # Excel saved [Book1]Sheet1!$C2 (FormulaEvalTestData_Copy.xlsx F128), Microsoft's page
    # shows '[Book1]Sheet1'!R2C3: refused
    ("ADDRESS(2,3,3,TRUE,\"[Book1]Sheet1\")", "the sheet_text '[Book1]Sheet1'"),
    ("ADDRESS(1,1,1,TRUE,\"A1\")", "the sheet_text 'A1'"),
])
def test_address_refuses_what_no_source_shows(tmp_path, formula, why):
    res, kept = _calc(tmp_path, [c("E1", formula, 0)])
    assert why in kept["S!E1"]


def test_sumifs_given_a_cell(tmp_path):
    # Microsoft Support, "SUMIFS function": criteria "can be entered as 32, ">32", B4,
    # "apples", or "32"". B1:B3 = 1, 2, 1 and C1:C3 = 10, 20, 30: the criteria 1 (in A1)
    # adds 10 + 30 = 40, ">1" (in A2) adds 20; a one-cell sum_range beside a three-cell
    # criteria_range is refused (the page: "the same number of rows and columns")
    cells = [c("A1", None, 1), _text("A2", ">1"), c("B1", None, 1), c("C1", None, 10),
             c("B2", None, 2), c("C2", None, 20), c("B3", None, 1), c("C3", None, 30),
             c("E1", "SUMIFS(C1:C3,B1:B3,A1)", 0), c("E2", "SUMIFS(C1:C3,B1:B3,A2)", 0),
             c("E3", "SUMIFS(C1,B1,A1)", 0), c("E4", "SUMIFS(C1,B1:B3,1)", 0)]
    res, kept = _calc(tmp_path, cells)
    assert [res["S!E1"], res["S!E2"], res["S!E3"]] == [40, 20, 10]
    assert list(kept) == ["S!E4"] and "different sizes" in kept["S!E4"]


def test_lookup_given_empty_cells(tmp_path):
    # A1:A5 = 1, 2, 3, blank, blank; B1:B5 = 10, blank, 30, blank, blank.
    # LOOKUP(2.5, A1:A5, B1:B5): the largest value not above 2.5 is 2 (its page), B2 is
    # blank: 0. LOOKUP(2,1/(A1:A5>=2),B1:B5) (an array formula): {#DIV/0!;1;1;#DIV/0!;
    # #DIV/0!}, the last 1 is the 3rd: 30. A blank before a value is refused.
    cells = [c("A1", None, 1), c("A2", None, 2), c("A3", None, 3), c("B1", None, 10),
             c("B3", None, 30), c("C1", None, 1), c("C3", None, 3),
             c("E1", "LOOKUP(2.5,A1:A5,B1:B5)", 0),
             _array("E2", "LOOKUP(2,1/(A1:A5&gt;=2),B1:B5)"),
             c("E3", "LOOKUP(2,A1:A5,B1:B5)", 0),
             c("E4", "LOOKUP(3,C1:C3,B1:B3)", 0)]
    res, kept = _calc(tmp_path, cells)
    assert [res["S!E1"], res["S!E2"], res["S!E3"]] == [0, 30, 0]
    assert list(kept) == ["S!E4"] and "blank cell before the last value" in kept["S!E4"]


def test_xlookup_given_empty_cells(tmp_path):
    # A1:A3 = "a", blank, "c"; B1:B3 = 10, 20, blank. XLOOKUP("c",...) finds the 3rd,
    # whose return value is blank: 0 in the cell (and =0 TRUE, the IF(XLOOKUP(...)=0,"",...)
    # of business workbooks); "b" is not found: if_not_found, here a blank cell, is refused
    # (no source says what Excel gives), as are a blank lookup_value and a binary search
    # over blanks.
    cells = [_text("A1", "a"), _text("A3", "c"), c("B1", None, 10), c("B2", None, 20),
             c("E1", "_xlfn.XLOOKUP(\"c\",A1:A3,B1:B3)", 1),
             c("E2", "_xlfn.XLOOKUP(\"c\",A1:A3,B1:B3)=0", False),
             c("E3", "_xlfn.XLOOKUP(\"b\",A1:A3,B1:B3,D1)", 1),
             c("E4", "_xlfn.XLOOKUP(\"a\",A1:A3,B1:B3)", 0),
             c("E5", "_xlfn.XLOOKUP(D1,A1:A3,B1:B3)", 0),
             c("E6", "_xlfn.XLOOKUP(\"c\",A1:A3,B1:B3,,0,2)", 0)]
    res, kept = _calc(tmp_path, cells)
    assert [res["S!E1"], res["S!E2"], res["S!E4"]] == [0, True, 10]
    assert "if_not_found given as an empty cell" in kept["S!E3"]
    assert "XLOOKUP of a blank cell" in kept["S!E5"]
    assert "binary search" in kept["S!E6"]


def test_mround_rounds_halves_away_from_zero(tmp_path):
    # Microsoft Support, "MROUND function": it "rounds up, away from zero, if the remainder
    # of dividing number by multiple is greater than or equal to half the value of
    # multiple"; its examples MROUND(10,3) = 9, MROUND(-10,-3) = -9, MROUND(1.3,0.2) = 1.4
    # (1.3/0.2 is 6.499999999999999 in binary, 6.5 to Excel's 15 digits), MROUND(5,-2)
    # #NUM!. By the rule: 0.5 -> 1, 2.5 -> 3, -2.5 -> -3 (formulas rounded half to even:
    # 0, 2, -2; found by the differential, MROUND(0.5,1))
    formulas = ["MROUND(10,3)", "MROUND(-10,-3)", "MROUND(1.3,0.2)", "MROUND(0.5,1)",
                "MROUND(2.5,1)", "MROUND(-2.5,-1)", "MROUND(5,-2)"]
    res, kept = _calc(tmp_path, [c(f"E{i}", f, 0) for i, f in enumerate(formulas, 1)])
    assert kept == {}
    got = [res[f"S!E{i}"] for i in range(1, 7)]
    assert got == [9, -9, pytest.approx(1.4, rel=1e-15), 1, 3, -3]
    assert str(res["S!E7"]).startswith("#NUM!")
