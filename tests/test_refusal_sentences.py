"""Every refusal of strict mode is a sentence a user can act on: it names the cell, the
function (or the operator, or the kind of formula) and the form of argument, and what
would let napkin compute it (``--lenient``, or rewriting the formula). Each case is a
workbook whose refused cell is read by another (``ISERROR(B1)``), computed in strict mode
without keeping cells, so that the workbook is refused with the sentence; cell by cell
(``addin/engine/kept.py``, as ``napkin calc`` does) both keep Excel's values, and the
note says the same cause."""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell

CASES = {
    # name: (the refused cell's formula and cached value, what the sentence must say)
    "function not checked": ("BITAND(1,5)", 1, ["BITAND()", "S!B1", "--lenient",
                                                "rewrite the formula"]),
    "form not checked": ("_xlfn.BETA.INV(A9,2,3)", 0, ["BETA.INV() given an empty cell in S!B1",
                                                       "--lenient", "rewrite the formula"]),
    "unknown function": ("NOSUCHFN(1)", 1, ["NOSUCHFN", "S!B1", "--lenient"]),
    "refused while computing": ("LARGE(TRUE,1)", 1, [
        "LARGE given one logical value or text as its array in S!B1", "--lenient"]),
    "a quartile its page leaves unsaid": ("QUARTILE(A1:A2,-0.5)", 0, [
        "QUARTILE() given quart -0.5, a fraction outside 0 to 4", "S!B1", "--lenient"]),
    "a mean that cancels": ("_xlfn.NORM.INV(0.63055865981823644,-1,3)", 0, [
        "NORM.INV() given a mean that standard_dev * z cancels", "S!B1", "--lenient"]),
    "a comparison of near-equal numbers": ("A1=A2", 0, [
        "'=' of two numbers within 2^-40 of each other", "S!B1", "--lenient"]),
    # (inside: a final one is 0; of two cells, Excel's saved values: A1*1 is none)
    "a sum that cancels": ("1*(A1*1-A2)", 0, [
        "'-' of two numbers that cancel to within 2^-40", "S!B1", "--lenient"]),
    "a rate not settled": ("IRR(A1:A2)", 0.1, [
        "IRR() given cash flows that change sign 0 times", "S!B1", "--lenient"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_refusal_names_cell_function_form_and_fix(tmp_path, case):
    formula, cached, said = CASES[case]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        c("A1", None, 115192.6), c("A2", None, 115192.59999999998),
        c("B1", formula, cached), c("C1", "ISERROR(B1)", 0, t="b")]})
    with pytest.raises(WorkbookError) as got:
        calc_workbook(src, tmp_path / "out.xlsx", {})
    sentence = " ".join(str(got.value).split())
    for part in said:
        assert part in sentence, (part, sentence)
    # cell by cell, the cell reading it keeps Excel's value too, for that reason
    notes, kept = [], []
    calc_workbook(src, tmp_path / "kept-out.xlsx", {}, notes=notes, kept=kept)
    assert [(r.label, r.kind) for r in kept][1:] == [("S!C1", "reads a cell kept")], kept
    assert any("S!B1" in n for n in notes), notes
    # kept where nothing reads it, the note naming the same cause and cell
    src = xlsx_make.write(tmp_path / "leaf.xlsx", {"S": [
        c("A1", None, 115192.6), c("A2", None, 115192.59999999998), c("B1", formula, cached)]})
    notes, kept = [], []
    calc_workbook(src, tmp_path / "leaf-out.xlsx", {}, notes=notes, kept=kept)
    assert [r.label for r in kept] == ["S!B1"], kept
    assert any("kept Excel's values in 1 cell" in n and "S!B1" in n for n in notes), notes


def test_a_circular_reference_names_its_cells_and_the_fix(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        c("B1", "B2+1", 1), c("B2", "B1+1", 2), c("C1", "B1*2", 2)]})
    with pytest.raises(WorkbookError) as got:
        calc_workbook(src, tmp_path / "out.xlsx", {})
    sentence = " ".join(str(got.value).split())
    for part in ("circular reference through S!B1, S!B2", "rewrite them without the cycle",
                 "--lenient"):
        assert part in sentence, (part, sentence)
