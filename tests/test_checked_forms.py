"""Strict mode computes a listed function only for the forms of argument its declaration
(``addin/formula/excel_functions/``) lists (``addin.engine.forms``): a form the compile
shows (an array, a range, a workbook in the 1904 date system) or a value shows while
computing (text that looks like a number, an empty cell, an error value, from a cell or
from a nested call) is refused with a sentence naming the function and the cell, and
``--lenient`` keeps the value Excel saved there. The second half is the evidence for
forms added to the list: Microsoft's documented examples."""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine import checked, forms
from addin.engine.api import calc_workbook, evaluate
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell


def _strict_and_lenient(tmp_path, cells, match, date1904=False):
    tmp_path = tmp_path / "refused"
    tmp_path.mkdir()
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells}, date1904=date1904)
    with pytest.raises(WorkbookError, match=match) as got:
        calc_workbook(src, tmp_path / "out.xlsx", {})
    assert "--lenient" in str(got.value)
    assert not (tmp_path / "out.xlsx").exists()
    notes = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False, notes=notes)
    assert any("kept the values Excel saved" in n for n in notes), notes
    return res


def test_text_that_looks_like_a_number_in_a_cell_is_refused_and_kept_leniently(tmp_path):
    # ACOS is listed for numbers only; A1 holds the text "0.5". The cached values are
    # what Excel would show (ACOS(0.5) = pi/3 = 1.0471975511965979; B2 = 2 * B1)
    assert "numeric text" not in checked.checked()["ACOS"][0]
    res = _strict_and_lenient(tmp_path, [
        c("A1", None, "0.5", t="inlineStr"), c("B1", "ACOS(A1)", 1.0471975511965979),
        c("B2", "B1*2", 2.0943951023931957)],
        r"ACOS\(\) given text that looks like a number in S!B1")
    assert res["S!B1"] == 1.0471975511965979 and res["S!B2"] == 2.0943951023931957


def test_an_empty_cell_is_refused_where_the_entry_does_not_list_it(tmp_path):
    # BETA.INV is not listed for empty cells (SQRT is since December 2026); the empty A1
    # read as 0 is a probability of 0: #NUM! (Microsoft Support, "BETA.INV function":
    # "If probability <= 0 or probability > 1, BETA.INV returns the #NUM! error value")
    assert "empty" not in checked.checked()["BETA.INV"][0]
    res = _strict_and_lenient(tmp_path, [c("B1", "_xlfn.BETA.INV(A1,2,3)", "#NUM!", t="e"),
                                         c("B2", "SQRT(4)", 2)],
                              r"BETA\.INV\(\) given an empty cell in S!B1")
    assert str(res["S!B1"]).startswith("#NUM!") and res["S!B2"] == 2  # (4 = 2 * 2)


def test_an_error_value_from_a_nested_call_is_seen(tmp_path):
    # (SQRT's, LN's and SIN's list it now; ISODD's does not: tests/test_errors_given.py)
    assert "errors" not in checked.checked()["ISODD"][0]
    _strict_and_lenient(tmp_path, [c("B1", "ISODD(1/0)", "#DIV/0!", t="e")],
                        r"ISODD\(\) given an error value in S!B1")


def test_an_array_constant_is_refused_before_computing(tmp_path):
    # ABS({-1,2}) is {1,2}; SUM of it is 3
    assert "arrays" not in checked.checked()["ABS"][0]
    res = _strict_and_lenient(tmp_path, [c("A1", "SUM(ABS({-1,2}))", 3)],
                              r"ABS\(\) given an array in S!A1")
    assert res["S!A1"] == 3


def test_a_date_function_in_a_1904_workbook_needs_the_form(tmp_path):
    # DATEDIF(0,366,"d") counts the 366 days between the two serials (in either system)
    assert "1904" not in checked.checked()["DATEDIF"][0]
    res = _strict_and_lenient(tmp_path, [c("A1", 'DATEDIF(0,366,"d")', 366)],
                              r"DATEDIF\(\) given a workbook in the 1904 date system in "
                              r"S!A1", date1904=True)
    assert res["S!A1"] == 366


def test_forms_listed_are_computed(tmp_path):
    # SUM is listed with ranges, empty cells and error values: SUM(A1:A3) over 1, an empty
    # cell and 2 is 3; SUM(A4) over #N/A is #N/A
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        c("A1", None, 1), c("A3", None, 2), c("A4", "NA()", "#N/A", t="e"),
        c("B1", "SUM(A1:A3)", 3), c("B2", "SUM(A4)", "#N/A", t="e")]})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!B1"] == 3 and res["S!B2"].code == "#N/A"


def test_napkin_eval_is_not_refused_for_forms():
    # one formula without a workbook (napkin eval) computes as before: ABS({-1,2}) is {1,2}
    assert evaluate("=ABS({-1,2})") == [[1, 2]]


def test_text_that_may_be_a_number():
    for text in ("5", " -1.5e3 ", "1,000", "$12", "50%", "1/2/2000", "12:30", "(3)"):
        assert forms.looks_numeric(text), text
    for text in ("", "abc", "TRUE", "x1"):
        assert not forms.looks_numeric(text), text


def test_every_form_listed_is_known():
    for name, (got, _evidence) in checked.checked().items():
        assert got and got <= set(forms.FORMS) | {"no argument"}, name


# ---------------------------------------------------------------- evidence for the list


def _calc(tmp_path, cells):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    return calc_workbook(src, tmp_path / "out.xlsx", {})


def test_int_cells_empty_and_errors(tmp_path):
    # Microsoft Support, "INT function": INT(8.9) = 8, INT(-8.9) = -9, A2-INT(A2) = 0.5
    # for A2 = 19.5. An empty cell is zero (Microsoft KB Q149577, "XL: Formula to
    # Correctly Evaluate Blank Cells": "Microsoft Excel interprets a blank cell as
    # zero"), and a function given an error value returns it ([MS-VSDX] 2.2.11.2.2.2.8
    # "Error Values", the IS functions excepted)
    res = _calc(tmp_path, [
        c("A2", None, 19.5), c("A3", "NA()", "#N/A", t="e"), c("B1", "INT(8.9)", 8),
        c("B2", "A2-INT(A2)", 0.5), c("B3", "INT(-8.9)", -9), c("B4", "INT(A9)", 0),
        c("B5", "INT(A3)", "#N/A", t="e")])
    assert (res["S!B1"], res["S!B2"], res["S!B3"], res["S!B4"]) == (8, 0.5, -9, 0)
    assert res["S!B5"].code == "#N/A"


def test_log10_of_an_error_value(tmp_path):
    # Microsoft Support, "LOG10 function": LOG10(86) = 1.934498451, LOG10(10) = 1,
    # LOG10(1E5) = 5; an error value given is returned ([MS-VSDX] 2.2.11.2.2.2.8)
    res = _calc(tmp_path, [
        c("A1", None, 86), c("A2", "1/0", "#DIV/0!", t="e"),
        c("B1", "LOG10(A1)", 1.934498451), c("B2", "LOG10(10)", 1),
        c("B3", "LOG10(1E5)", 5), c("B4", "LOG10(A2)", "#DIV/0!", t="e")])
    assert res["S!B1"] == pytest.approx(1.934498451, rel=1e-9)
    assert res["S!B2"] == 1 and res["S!B3"] == pytest.approx(5, rel=1e-15)
    assert res["S!B4"].code == "#DIV/0!"


def test_columns_of_a_range(tmp_path):
    # Microsoft Support, "COLUMNS function": COLUMNS(C1:E4) = 3; its other example,
    # COLUMNS({1,2,3;4,5,6}) = 3, napkin computes too (arrays are listed, with
    # tests/test_excel_referee.py::test_rows_and_columns_of_an_array_constant)
    res = _calc(tmp_path, [c("A1", "COLUMNS(C1:E4)", 3), c("A2", "COLUMNS({1,2,3;4,5,6})", 0)])
    assert res["S!A1"] == 3 and res["S!A2"] == 3
    assert "arrays" in checked.checked()["COLUMNS"][0]


def test_mode_of_a_range(tmp_path):
    # Microsoft Support, "MODE function": data 5.6, 4, 4, 3, 2, 4 in A2:A7, MODE(A2:A7) = 4
    cells = [c(f"A{i}", None, v) for i, v in enumerate([5.6, 4, 4, 3, 2, 4], start=2)]
    res = _calc(tmp_path, cells + [c("B1", "MODE(A2:A7)", 4)])
    assert res["S!B1"] == 4


def test_npv_of_cells_and_a_range(tmp_path):
    # Microsoft Support, "NPV function", example 1: rate 10 % in A2, an initial cost of
    # -10,000 in A3 and returns 3,000, 4,200 and 6,800 in A4:A6: NPV(A2, A3:A6) =
    # $1,188.44 (-10000/1.1 + 3000/1.1^2 + 4200/1.1^3 + 6800/1.1^4 = 1188.4434...)
    cells = [c(f"A{i}", None, v) for i, v in enumerate([0.1, -10000, 3000, 4200, 6800], 2)]
    res = _calc(tmp_path, cells + [c("B1", "NPV(A2,A3:A6)", 1188.44)])
    assert round(res["S!B1"], 2) == 1188.44


def test_workday_with_holidays(tmp_path):
    # Microsoft Support, "WORKDAY function": start 10/1/2008 (39722), 151 days, holidays
    # 11/26/2008, 12/4/2008, 1/21/2009 (39778, 39786, 39834): WORKDAY(A2,A3) = 4/30/2009
    # (39933), WORKDAY(A2,A3,A4:A6) = 5/5/2009 (39938); the same by counting weekdays
    cells = [c(f"A{i}", None, v) for i, v in enumerate([39722, 151, 39778, 39786, 39834], 2)]
    res = _calc(tmp_path, cells + [c("B1", "WORKDAY(A2,A3)", 39933),
                                   c("B2", "WORKDAY(A2,A3,A4:A6)", 39938)])
    assert res["S!B1"] == 39933 and res["S!B2"] == 39938


def test_roman(tmp_path):
    # Microsoft Support, "ROMAN function": ROMAN(499,0) "CDXCIX", (499,1) "LDVLIV",
    # (499,2) "XDIX", (499,3) "VDIV", (499,4) "ID"; form TRUE is the classic form (0),
    # FALSE the simplified one (4)
    forms = [0, 1, 2, 3, 4, "TRUE", "FALSE"]
    want = ["CDXCIX", "LDVLIV", "XDIX", "VDIV", "ID", "CDXCIX", "ID"]
    cells = [c("A1", None, 499)] + [c(f"B{i}", f"ROMAN(A1,{f})", w, t="str")
                                    for i, (f, w) in enumerate(zip(forms, want, strict=True), 1)]
    res = _calc(tmp_path, cells)
    assert [res[f"S!B{i}"] for i in range(1, 8)] == want


def test_days360(tmp_path):
    # Microsoft Support, "DAYS360 function": 1-Jan-11, 30-Jan-11, 1-Feb-11, 31-Dec-11 in
    # A2:A5 (serials 40544, 40573, 40575, 40908): DAYS360(A3,A4) = 1, DAYS360(A2,A5) = 360,
    # DAYS360(A2,A4) = 30. Its U.S. method makes a start on the last day of a month the
    # 30th, and an end on the 31st the 30th when the start is the 30th: 28-Feb-11 (40602)
    # to 31-Mar-11 (40633) is 30 days; the European method (TRUE) only makes a 31st the
    # 30th: (3 - 2) * 30 + (30 - 28) = 32
    cells = [c(f"A{i}", None, v) for i, v in enumerate([40544, 40573, 40575, 40908], 2)]
    cells += [c("A6", None, 40602), c("A7", None, 40633),
              c("B1", "DAYS360(A3,A4)", 1), c("B2", "DAYS360(A2,A5)", 360),
              c("B3", "DAYS360(A2,A4)", 30), c("B4", "DAYS360(A6,A7)", 30),
              c("B5", "DAYS360(A6,A7,FALSE)", 30), c("B6", "DAYS360(A6,A7,TRUE)", 32)]
    res = _calc(tmp_path, cells)
    assert [res[f"S!B{i}"] for i in range(1, 7)] == [1, 360, 30, 30, 30, 32]


def test_days360_to_the_end_of_february_is_refused(tmp_path):
    # 15-Jan-11 (40558) to 28-Feb-11 (40602), U.S. method: 43 days if the end is left as
    # it is, 46 if it moves to the 1st of March as Microsoft's page words it
    _strict_and_lenient(tmp_path, [c("A1", None, 40558), c("A2", None, 40602),
                                   c("B1", "DAYS360(A1,A2)", 43)],
                        r"DAYS360's U.S. method ending on the last day of February in S!B1")


def test_delta(tmp_path):
    # Microsoft Support, "DELTA function": DELTA(5,4) = 0, DELTA(5,5) = 1, DELTA(0.5,0) = 0
    res = _calc(tmp_path, [c("A1", None, 5), c("B1", "DELTA(A1,4)", 0),
                           c("B2", "DELTA(5,A1)", 1), c("B3", "DELTA(0.5,0)", 0)])
    assert (res["S!B1"], res["S!B2"], res["S!B3"]) == (0, 1, 0)


def test_search_of_cells_with_a_start(tmp_path):
    # Microsoft Support, "SEARCH, SEARCHB functions": A2 "Statements", A3 "Profit Margin",
    # A4 "margin", A5 'The "boss" is here.': SEARCH("e",A2,6) = 7, SEARCH(A4,A3) = 8,
    # MID(A3,SEARCH(" ",A3)+1,4) = "Marg", SEARCH("""",A5) = 5
    cells = [c("A2", None, "Statements", t="inlineStr"),
             c("A3", None, "Profit Margin", t="inlineStr"),
             c("A4", None, "margin", t="inlineStr"),
             c("A5", None, 'The "boss" is here.', t="inlineStr"),
             c("B1", 'SEARCH("e",A2,6)', 7), c("B2", "SEARCH(A4,A3)", 8),
             c("B3", 'MID(A3,SEARCH(" ",A3)+1,4)', "Marg", t="str"),
             c("B4", 'SEARCH("""",A5)', 5)]
    res = _calc(tmp_path, cells)
    assert [res[f"S!B{i}"] for i in range(1, 5)] == [7, 8, "Marg", 5]


def test_harmean_of_a_range(tmp_path):
    # Microsoft Support, "HARMEAN function": 4, 5, 8, 7, 11, 4, 3 in A2:A8, HARMEAN(A2:A8)
    # = 5.028376; by hand 7 / (1/4 + 1/5 + 1/8 + 1/7 + 1/11 + 1/4 + 1/3) = 5.0283759...
    cells = [c(f"A{i}", None, v) for i, v in enumerate([4, 5, 8, 7, 11, 4, 3], start=2)]
    res = _calc(tmp_path, cells + [c("B1", "HARMEAN(A2:A8)", 5.028376)])
    assert res["S!B1"] == pytest.approx(7 / (1/4 + 1/5 + 1/8 + 1/7 + 1/11 + 1/4 + 1/3), rel=1e-12)
    assert round(res["S!B1"], 6) == 5.028376
    # an array is not a form its evidence shows: refused, and kept leniently
    res = _strict_and_lenient(tmp_path, [c("A1", "HARMEAN({4,5,8,7,11,4,3})", 5.028376)],
                              r"HARMEAN\(\) given an array in S!A1")
    assert res["S!A1"] == 5.028376


def test_column_of_a_cell(tmp_path):
    # Microsoft Support, "COLUMN function": COLUMN(D10) = 4 (column D is the fourth)
    res = _calc(tmp_path, [c("A1", "COLUMN(D10)", 4)])
    assert res["S!A1"] == 4


def test_if_and_isnumber_over_ranges_in_array_formulas(tmp_path):
    # Microsoft Support, "Guidelines and examples of array formulas": an array formula
    # performs its calculation on each item of the arrays it is given; its examples
    # include {=SUM(IF(ISERROR(Data),"",Data))} (sum a range that holds error values) and
    # a multi-cell formula over two ranges item by item. The template's array formulas use
    # IF and ISNUMBER over ranges in that way. By hand: A1:A4 = 2, "x", 5, #DIV/0!:
    # IF(ISNUMBER(A),A*10,"no") gives 20, "no", 50, "no"; SUM(IF(ISERROR(A),"",A)) = 7;
    # NOT(ISNUMBER(A)) FALSE, TRUE, FALSE, TRUE; CEILING(IF(ISNUMBER(A),A*1.5,0),1) 3, 0, 8
    # (7.5 up), 0; ISNUMBER(IF(ISNUMBER(A),A,"t")) TRUE, FALSE, TRUE, FALSE.
    from openpyxl import Workbook, load_workbook
    from openpyxl.worksheet.formula import ArrayFormula

    wb = Workbook()
    ws = wb.active
    ws.title = "S"
    ws["A1"], ws["A2"], ws["A3"], ws["A4"] = 2, "x", 5, "=1/0"
    ws["B1"] = ArrayFormula("B1:B4", '=IF(ISNUMBER(A1:A4),A1:A4*10,"no")')
    ws["C1"] = ArrayFormula("C1", '=SUM(IF(ISERROR(A1:A4),"",A1:A4))')
    ws["D1"] = ArrayFormula("D1:D4", "=NOT(ISNUMBER(A1:A4))")
    ws["E1"] = ArrayFormula("E1:E4", "=CEILING(IF(ISNUMBER(A1:A4),A1:A4*1.5,0),1)")
    ws["F1"] = ArrayFormula("F1:F4", '=ISNUMBER(IF(ISNUMBER(A1:A4),A1:A4,"t"))')
    wb.save(tmp_path / "in.xlsx")
    calc_workbook(tmp_path / "in.xlsx", tmp_path / "out.xlsx", {})
    got = load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    assert [got[f"B{r}"].value for r in range(1, 5)] == [20, "no", 50, "no"]
    assert got["C1"].value == 7
    assert [got[f"D{r}"].value for r in range(1, 5)] == [False, True, False, True]
    assert [got[f"E{r}"].value for r in range(1, 5)] == [3, 0, 8, 0]
    assert [got[f"F{r}"].value for r in range(1, 5)] == [True, False, True, False]


def test_min_of_an_error_value(tmp_path):
    # Microsoft Support, "MIN function": "Arguments that are error values or text that
    # cannot be translated into numbers cause errors" (MAX's page says the same); in a
    # range only its numbers count. By hand: MIN(4, 1/0) and MIN(A1:A2) over 4 and #DIV/0!
    # are #DIV/0!; MIN(B1:B3) over 4, "x", 2 is 2.
    res = _calc(tmp_path, [
        c("A1", None, 4), c("A2", "1/0", "#DIV/0!", t="e"), c("B1", None, 4),
        c("B2", None, "x", t="inlineStr"), c("B3", None, 2),
        c("C1", "MIN(4,1/0)", 0), c("C2", "MIN(A1:A2)", 0), c("C3", "MIN(B1:B3)", 0)])
    assert (res["S!C1"].code, res["S!C2"].code, res["S!C3"]) == ("#DIV/0!", "#DIV/0!", 2)
