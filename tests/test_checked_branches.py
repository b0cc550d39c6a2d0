"""Strict mode's check of argument forms counts only the calls whose values reach the
formula's value (``addin.engine.branches``): IF, IFERROR, CHOOSE and SWITCH return one of
their arguments, and in a one-cell formula a call in an argument not returned is not
refused for its forms, though the formulas package computes it. A call in the argument
returned is refused as anywhere (``--lenient`` keeps the value Excel saved); one in an
argument not returned is computed, with Excel's value.

Excel's values here: text that looks like a number, in a cell given where a number is
needed, is that number, so SQRT of the text "0" is 0 (Excel saved SQRT(E13) = 0 over
E13 = "0" in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!K1280);
SQRT(16) = 4 (4 x 4 = 16);
SQRT(-1) is #NUM! (Microsoft Support, "SQRT function": "If number is negative, SQRT
returns the #NUM! error value"); ISNUMBER of a text is FALSE (Microsoft Support, "IS
functions"); IF returns value_if_true when its condition is TRUE, else
value_if_false (Microsoft Support, "IF function"); IFERROR its value unless it is an
error, CHOOSE its index_num-th value, SWITCH the result of the first value equal to its
expression, else its default (their Microsoft Support pages).
"""

from __future__ import annotations

import pytest
import xlsx_make
from test_checked_forms import _strict_and_lenient

from addin.engine import branches, checked, executor
from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell

#: A1 holds 16, A2 the text "0": SQRT(A2) is a call given a form SQRT's entry does not
#: list (an empty cell was that form until SQRT took it, December 2026)
GIVEN = [c("A1", None, 16), c("A2", None, "0", t="inlineStr")]
EMPTY_TO_SQRT = r"SQRT\(\) given text that looks like a number in S!B1"


def test_sqrt_is_not_listed_for_empty_cells_nor_abs_for_arrays():
    # (what the tests below rely on: SQRT(A2) and ABS({-1,2}) are refused where counted)
    assert "numeric text" not in checked.checked()["SQRT"][0]
    assert "arrays" not in checked.checked()["ABS"][0]


def _calc(tmp_path, cells):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": GIVEN + cells})
    return calc_workbook(src, tmp_path / "out.xlsx", {})


@pytest.mark.parametrize("formula, excel", [
    ("IF(A1>0,SQRT(A2),1)", 0),  # 16 > 0: SQRT of the text "0" in A2
    ("IF(A1<0,1,SQRT(A2))", 0),
    ("IF(A1>0,IF(A1>100,1,SQRT(A2)),2)", 0),  # the inner IF's value_if_false
    ("IFERROR(SQRT(-1),SQRT(A2))", 0),  # #NUM!: the value_if_error
    ("CHOOSE(2,5,SQRT(A2))", 0),
    ("SWITCH(1,1,SQRT(A2),2,7)", 0),  # 1 = 1: the first result
    ("SWITCH(3,1,5,SQRT(A2))", 0),  # no value matches: the default
])
def test_a_call_in_the_argument_returned_is_refused(tmp_path, formula, excel):
    res = _strict_and_lenient(tmp_path, GIVEN + [c("B1", formula, excel)], EMPTY_TO_SQRT)
    assert res["S!B1"] == excel


@pytest.mark.parametrize("formula, excel", [
    ("IF(ISNUMBER(A2),SQRT(A2),0)", 0),  # ISNUMBER(A2) is FALSE: 0
    ("IF(A1>0,SQRT(A1),SQRT(A2))", 4),  # 16 > 0: SQRT(16)
    ("IF(A1<0,SQRT(A2),-1)", -1),
    ("IF(A1>0,IF(A1>100,SQRT(A2),1),2)", 1),  # the inner IF's value_if_false
    ("IFERROR(SQRT(A1),SQRT(A2))", 4),  # not an error: SQRT(16)
    ("CHOOSE(1,5,SQRT(A2))", 5),
    ("SWITCH(2,1,SQRT(A2),2,7)", 7),  # 2 = 2: the second result
    ("SWITCH(1,1,5,SQRT(A2))", 5),  # a value matches: not the default
])
def test_a_call_in_an_argument_not_returned_is_computed(tmp_path, formula, excel):
    assert _calc(tmp_path, [c("B1", formula, excel)])["S!B1"] == excel


def test_a_form_the_compile_shows_counts_only_in_the_argument_returned(tmp_path):
    # ABS({-1,2}) is {1,2} (Microsoft Support, "ABS function": the absolute value), SUM of
    # it 3; refused before computing where it is certain to be evaluated
    assert _calc(tmp_path, [c("B1", "IF(A1>0,1,SUM(ABS({-1,2})))", 1)])["S!B1"] == 1
    res = _strict_and_lenient(tmp_path, GIVEN + [c("B1", "IF(A1<0,1,SUM(ABS({-1,2})))", 3)],
                              r"ABS\(\) given an array in S!B1")
    assert res["S!B1"] == 3


def test_the_branching_function_is_checked_for_the_arguments_it_returns(tmp_path):
    # SWITCH is not listed for empty cells: given one in an argument it returns, it is
    # refused (SWITCH(1,1,A5,2,7) is the blank A5, 0); in one it does not, computed.
    # CHOOSE is listed for empty cells (one saved cell of the fourth held-out part and
    # Microsoft's page: tests/test_checked_more_forms.py): CHOOSE(2,5,A5) is 0
    listed = checked.checked()
    assert "empty" in listed["CHOOSE"][0] and "empty" not in listed["SWITCH"][0]
    res = _calc(tmp_path, [c("B1", "CHOOSE(1,5,A5)", 5), c("B2", "SWITCH(2,1,A5,2,7)", 7),
                           c("B3", "CHOOSE(2,5,A5)", 0)])
    assert (res["S!B1"], res["S!B2"], res["S!B3"]) == (5, 7, 0)
    (tmp_path / "switch").mkdir()
    res = _strict_and_lenient(tmp_path / "switch", GIVEN + [c("B1", "SWITCH(1,1,A5,2,7)", 0)],
                              r"SWITCH\(\) given an empty cell in S!B1")
    assert res["S!B1"] == 0


def test_a_condition_that_does_not_settle_the_branch_counts_both(tmp_path):
    # text as IF's condition ("x" in A3) is #VALUE! in Excel: napkin does not decide
    # which argument is returned, and counts both
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": GIVEN + [
        c("A3", None, "x", t="inlineStr"), c("B1", "IF(A3,1,SQRT(A2))", "#VALUE!", t="e")]})
    with pytest.raises(WorkbookError, match=EMPTY_TO_SQRT):
        calc_workbook(src, tmp_path / "out.xlsx", {})


def test_in_an_array_formula_every_call_counts(tmp_path):
    # an array formula over B1:B2: Excel evaluates every argument of IF there and lifts it
    # over them (FastExcel, "Short-circuiting in Array Formulas"); 16 > 0 gives 1 in each
    array = '<c r="B1"><f t="array" ref="B1:B2">IF(A1&gt;0,1,SQRT(A2))</f><v>1</v></c>'
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": GIVEN + [array, c("B2", None, 1)]})
    with pytest.raises(WorkbookError, match=EMPTY_TO_SQRT):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False)
    assert res["S!B1"] == res["S!B2"] == 1


def _certain(formula: str) -> dict[str, bool]:
    fn = executor.compile_formula(formula, "S!C1")
    return {call.name: call.certain for call in fn.calls}


def test_calls_certain_to_be_evaluated():
    assert _certain("=IF(A1>0,SQRT(A1),ABS(A1))+INT(A2)") == {
        "IF": True, "SQRT": False, "ABS": False, "INT": True}
    # SQRT(A1) twice is one node of the graph: the sum reaches it outside the IF
    assert _certain("=IF(A1>0,SQRT(A1),0)+SQRT(A1)")["SQRT"] is True
    assert _certain("=IFERROR(SQRT(A1),ABS(A1))") == {"IFERROR": True, "SQRT": True,
                                                     "ABS": False}


def test_arguments_returned_by_ifs_and_ifna():
    # IFS returns the value of its first TRUE condition; every condition counts (Excel
    # evaluates them all: FastExcel, "Short-circuiting Excel Formulas"). IFNA returns its
    # value unless it is #N/A; napkin counts value_if_na for any error value
    assert branches.conditional("IFS", 6) == {1, 3, 5}
    assert branches.taken("IFS", [False, "a", True, "b", True, "c"]) == {0, 2, 3, 4}
    assert branches.taken("IFS", [False, "a", "x", "b", True, "c"]) == {0, 2, 3, 4, 5}
    assert branches.taken("IFNA", [5, "a"]) == {0}
    ns = executor.ready()
    assert branches.taken("IFNA", [ns.errors["#N/A"], "a"]) is None


def test_a_formula_formulas_computes_itself_counts_every_call(monkeypatch):
    # when formulas' own function computes the formula after all (napkin's graph could
    # not give its value), its calls are not seen: the forms of every call's compile
    # count, ABS({-1,2}) in the branch not returned too
    from addin.engine import forms
    from addin.formula import context

    fn = executor.compile_formula("=IF(A1>0,1,SUM(ABS({-1,2})))", "S!C1")
    node = type("OneCell", (), {"spill": None, "is_name": False})()  # (a one-cell formula)
    monkeypatch.setattr(context.STATE, "form_refusals", {}, raising=False)
    monkeypatch.setattr(context.STATE, "node", node, raising=False)
    forms.unseen(fn.calls)
    assert context.STATE.form_refusals == {node: "ABS() given an array"}


def test_a_refusal_in_an_argument_not_returned_refuses_nothing(tmp_path):
    # EOMONTH of serial 60 (Excel's 29 February 1900) is refused in strict mode, even under
    # ISERR (addin.excel.dates; context.refuse); IF returns value_if_true when its
    # condition is TRUE (Microsoft Support, "IF function"): 16 > 0, so 1, and EOMONTH is
    # not evaluated by Excel
    assert _calc(tmp_path, [c("B1", "IF(A1>0,1,ISERR(EOMONTH(60,0)))", 1)])["S!B1"] == 1
    why = r"EOMONTH of a date before 1 March 1900 in S!B1"
    for formula in ("IF(A1<0,1,ISERR(EOMONTH(60,0)))", "IF(A1>0,ISERR(EOMONTH(60,0)),1)",
                    "IFERROR(EOMONTH(60,0),2)"):  # the argument returned: refused
        (tmp_path / formula[:8]).mkdir()
        _strict_and_lenient(tmp_path / formula[:8], GIVEN + [c("B1", formula, 1)], why)
