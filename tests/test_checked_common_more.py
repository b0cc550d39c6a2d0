"""Evidence for IFS, IFNA, PROPER and RANDBETWEEN, checked since December 2026, and for
ISERROR given an empty cell and ISBLANK given an error value
(``addin/formula/excel_functions/``; ``addin/excel/logic.py``, ``addin/excel/text.py``,
``addin/excel/dynamic_shape.py``).

Each expected value is Microsoft's documented example or worked by hand from its page
(Microsoft Support):

* https://support.microsoft.com/en-us/office/ifs-function-36329a26-37b2-467c-972b-4a39bd951d45
* https://support.microsoft.com/en-us/office/ifna-function-6626c961-a569-42fc-a49d-79b4951fd461
* https://support.microsoft.com/en-us/office/
  proper-function-52a5a283-e8b2-49be-8506-b2887b889f94
* https://support.microsoft.com/en-us/office/
  randbetween-function-4cc7f0d1-87dc-4eb7-987f-a469ab381685
* https://support.microsoft.com/en-us/office/
  is-functions-0f2d7971-6019-40a0-a171-f2d869135665
"""

from __future__ import annotations

import sheet_calc
import xlsx_make

from addin.engine import checked

c = xlsx_make.cell
_calc, _text = sheet_calc.calc_sheet, sheet_calc.text


_formulas = sheet_calc.formulas_down


def test_the_functions_are_checked():
    got = checked.checked()
    for name in ("IFS", "IFNA", "PROPER", "RANDBETWEEN"):
        assert "scalars" in got[name][0], name
    assert "empty" in got["ISERROR"][0] and "errors" in got["ISBLANK"][0]


def test_ifs(tmp_path):
    # the page's grades example: A2 93 -> "A" (A2>89), 45 -> "F" (the TRUE default);
    # none TRUE: #N/A; a test that is text (neither TRUE nor FALSE): #VALUE!
    res, kept = _calc(tmp_path, [c("A1", None, 93), c("A2", None, 45), _text("A3", "x"),
                                 *_formulas("B", [
        '_xlfn.IFS(A1>89,"A",A1>79,"B",A1>69,"C",A1>59,"D",TRUE,"F")',
        '_xlfn.IFS(A2>89,"A",A2>79,"B",A2>69,"C",A2>59,"D",TRUE,"F")',
        '_xlfn.IFS(A1>100,1,A2>100,2)', '_xlfn.IFS(A3,1)',
        '_xlfn.IFS(FALSE,1,A1=93,A3)'])])
    assert kept == {}
    assert [res[f"S!B{i}"] for i in (1, 2, 5)] == ["A", "F", "x"]
    assert str(res["S!B3"]).startswith("#N/A") and str(res["S!B4"]).startswith("#VALUE!")


def test_ifs_tests_the_page_leaves_open_are_refused(tmp_path):
    # a number (the page: #VALUE! for other than TRUE/FALSE; IF reads it as one), an empty
    # cell, an error value, a range of many values
    res, kept = _calc(tmp_path, [c("A1", None, 1), c("A2", None, "#DIV/0!", t="e"),
                                 *_formulas("B", ["_xlfn.IFS(A1,1)", "_xlfn.IFS(A9,1)",
                                                  "_xlfn.IFS(A2,1)",
                                                  "SUM(_xlfn.IFS(A1:A2>0,1))"])])
    assert "a number as a logical_test" in kept["S!B1"]
    assert "empty cell" in kept["S!B2"] and "error value" in kept["S!B3"]
    assert "S!B4" in kept


def test_ifna(tmp_path):
    # the page: the value_if_na where value is #N/A; any other value (another error too)
    # given back; an empty cell is 0 as a cell's value
    res, kept = _calc(tmp_path, [c("A1", None, "#DIV/0!", t="e"), c("A2", None, 7),
                                 *_formulas("B", ['_xlfn.IFNA(NA(),"Not found")',
                                                  "_xlfn.IFNA(A2,1)", "_xlfn.IFNA(A1,1)",
                                                  "_xlfn.IFNA(A9,1)"])])
    assert kept == {}
    assert [res[f"S!B{i}"] for i in (1, 2, 4)] == ["Not found", 7, 0]
    assert str(res["S!B3"]).startswith("#DIV/0!")


def test_proper(tmp_path):
    # the page's examples; a number as its text; an empty cell the empty text
    res, kept = _calc(tmp_path, [c("A1", None, 93), *_formulas("B", [
        'PROPER("this is a TITLE")', 'PROPER("2-way street")', 'PROPER("76BudGet")',
        "PROPER(A1)", "PROPER(A9)", 'PROPER("émile")'])])
    assert [res[f"S!B{i}"] for i in range(1, 6)] == ["This Is A Title", "2-Way Street",
                                                     "76Budget", "93", ""]
    assert list(kept) == ["S!B6"] and "beyond ASCII" in kept["S!B6"]


def test_randbetween(tmp_path):
    # the page: a whole number from bottom to top, both included; bottom above top #NUM!
    res, kept = _calc(tmp_path, [*_formulas("B", [f"RANDBETWEEN({lo},{hi})" for lo, hi in
                                                  ((1, 100), (-1, 0), (2, 2))] * 20),
                                 c("C1", "RANDBETWEEN(3,1)", 0),
                                 c("C2", "RANDBETWEEN(1.5,3)", 0)])
    assert list(kept) == ["S!C2"] and "not a whole number" in kept["S!C2"]
    for i in range(1, 61):
        lo, hi = ((1, 100), (-1, 0), (2, 2))[(i - 1) % 3]
        v = res[f"S!B{i}"]
        assert type(v) is int and lo <= v <= hi
    assert str(res["S!C1"]).startswith("#NUM!")


def test_is_functions_read_any_value(tmp_path):
    # the IS functions page: ISBLANK is TRUE for an empty cell only (an error value:
    # FALSE), ISERROR for an error value only (an empty cell: FALSE)
    res, kept = _calc(tmp_path, [c("A1", None, "#N/A", t="e"), *_formulas("B", [
        "ISBLANK(A1)", "ISBLANK(A9)", "ISERROR(A9)", "ISERROR(A1)"])])
    assert kept == {}
    assert [res[f"S!B{i}"] for i in range(1, 5)] == [False, True, False, True]


def test_edate_and_year_given_an_error_value_give_the_first(tmp_path):
    # addin/engine/first_error.py: a function given error values gives the first in
    # argument order ([MS-VSDX] 2.2.11.2.2.2.8); YEAR(#REF!) is #REF! as Excel saved it in
    # tests/corpus/poi/FormulaEvalTestData_Copy.xlsx EverythingTests!H1496; IFERROR of it
    # the value_if_error (the 153 IFERROR(EDATE(...),"") of the fifth held-out part's Loan
    # Amortization.xlsx)
    res, kept = _calc(tmp_path, [c("A1", None, 45000), c("A2", None, "#DIV/0!", t="e"),
                                 _text("A3", "x"), *_formulas("B", [
        "EDATE(A2,1)", "EDATE(A1,A2)", "EDATE(NA(),A2)", "YEAR(A2)", "YEAR(NA())",
        'IFERROR(EDATE(A1,A2),"")', "EDATE(A3,A2)"])])
    assert [str(res[f"S!B{i}"])[:6] for i in range(1, 6)] == [
        "#DIV/0", "#DIV/0", "#N/A", "#DIV/0", "#N/A"]
    assert res["S!B6"] == ""
    assert list(kept) == ["S!B7"] and "text before an error value" in kept["S!B7"]


def test_month_and_day_given_an_error_value_give_it(tmp_path):
    # MONTH(#N/A) #N/A and DAY(#DIV/0!) #DIV/0! as Excel saved them in
    # tests/corpus/poi/FormulaEvalTestData_Copy.xlsx EverythingTests!H940 and H340
    res, kept = _calc(tmp_path, [c("A1", None, "#DIV/0!", t="e"), *_formulas("B", [
        "MONTH(NA())", "DAY(A1)", "MONTH(A1)"])])
    assert kept == {}
    assert [str(res[f"S!B{i}"])[:6] for i in range(1, 4)] == ["#N/A", "#DIV/0", "#DIV/0"]


def test_a_repeated_subexpression_takes_the_context_of_its_use(tmp_path):
    # formulas computes a repeated subexpression once and passes it on through BYPASS, no
    # Excel function: the operator keeps the context of where its value goes. By hand:
    # SUMPRODUCT((A1:A3>1)*(A1:A3>1)) over 7, 3.5, 0.5 is 1+1+0 = 2 (SUMPRODUCT's arguments
    # are arrays, its page); (A1:A3>1)*(A1:A3>1) in row 2 of a one-cell formula takes A2
    # (implicit intersection, Microsoft's "Implicit intersection operator: @"): TRUE*TRUE 1
    res, kept = _calc(tmp_path, [c("A1", None, 7), c("A2", None, 3.5), c("A3", None, 0.5),
                                 c("B1", "SUMPRODUCT((A1:A3>1)*(A1:A3>1))", 0),
                                 c("B2", "(A1:A3>1)*(A1:A3>1)", 0)])
    assert kept == {}
    assert res["S!B1"] == 2 and res["S!B2"] == 1
