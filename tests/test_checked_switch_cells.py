"""SWITCH given a reference to one cell (``addin/excel/logic.py``, declared in
``addin/formula/excel_functions/logical.py``).

As the expression, the cell's value is compared: Microsoft Support, "SWITCH function",
https://support.microsoft.com/en-us/excel/switch-function
(its examples: =SWITCH(A3,1,"Sunday",2,"Monday",3,"Tuesday") is #N/A for A3 = 99, no value
matching and no default; =SWITCH(A5,1,"Sunday",7,"Saturday","weekday") is "weekday" for
A5 = 2, the default). As a result or default, the page says only "the value to be
returned": in a formula that is the SWITCH alone the cell shows that cell's value either
way, as Excel saved 5,000 cells of ``SWITCH(TRUE,M2="Out of Stock",0,E2)`` (the business
corpus's heldout7, Dey-Apurba/Inventory-Managment-Analysis); inside another call, a
function that reads references (SUM leaves a reference's logical values out) could tell a
reference from a value, so it is refused.
"""

from __future__ import annotations

import sheet_calc
import xlsx_make

c = xlsx_make.cell
_calc, _text = sheet_calc.calc_sheet, sheet_calc.text


def test_an_expression_of_one_cell_is_its_value(tmp_path):
    res, kept = _calc(tmp_path, [c("A3", None, 99), c("A5", None, 2), *sheet_calc.formulas_down(
        "B", ['_xlfn.SWITCH(A3,1,"Sunday",2,"Monday",3,"Tuesday")',
              '_xlfn.SWITCH(A5,1,"Sunday",7,"Saturday","weekday")',
              '_xlfn.SWITCH(A5,1,"Sunday",2,"Monday",3,"Tuesday")'])])
    assert kept == {}
    assert str(res["S!B1"]).startswith("#N/A")
    assert [res["S!B2"], res["S!B3"]] == ["weekday", "Monday"]


def test_a_result_of_one_cell_in_a_formula_of_switch_alone(tmp_path):
    # the inventory file's form: 0 where the status is "Out of Stock", else the quantity
    # of column E (12 and the text "n/a" here, given back as they are)
    res, kept = _calc(tmp_path, [
        _text("M1", "Out of Stock"), c("E1", None, 7), _text("M2", "In Stock"),
        c("E2", None, 12), _text("M3", "In Stock"), _text("E3", "n/a"),
        *sheet_calc.formulas_down("B", [f'_xlfn.SWITCH(TRUE,M{i}="Out of Stock",0,E{i})'
                                        for i in (1, 2, 3)])])
    assert kept == {}
    assert [res["S!B1"], res["S!B2"], res["S!B3"]] == [0, 12, "n/a"]


def test_a_result_of_one_cell_inside_another_call_is_refused(tmp_path):
    # SUM(SWITCH(1,1,A1)) with A1 TRUE: 0 if SWITCH gives the reference (SUM leaves a
    # reference's logical value out), 1 if it gives the value; the page does not say
    res, kept = _calc(tmp_path, [c("A1", None, 1, t="b"), *sheet_calc.formulas_down(
        "B", ["SUM(_xlfn.SWITCH(1,1,A1))", "1+_xlfn.SWITCH(2,1,5,A1)"])])
    assert set(kept) == {"S!B1", "S!B2"}
    assert all("write the SWITCH in a cell of its own" in why for why in kept.values())


def test_an_empty_result_cell_is_refused(tmp_path):
    # an empty cell is not among SWITCH's checked forms: refused, not read as 0 unasked
    res, kept = _calc(tmp_path, sheet_calc.formulas_down("B", ["_xlfn.SWITCH(1,1,A9)"]))
    assert list(kept) == ["S!B1"] and "empty cell" in kept["S!B1"]
