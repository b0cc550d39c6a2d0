"""A range given as the criterion of SUMIF, SUMIFS, COUNTIFS, AVERAGEIF or AVERAGEIFS in a
one-cell formula: Excel intersects it with the formula's cell, as with any argument that
takes one value (Microsoft Support, "Implicit intersection operator: @"), and COUNTIF
already did so here. Before, napkin took the range's first cell wherever the formula was:
``SUMIF(A5:A8,A5:A6,B5:B8)`` in row 4 gave 5 (the sum for "x"), where Excel's intersection
fails (#VALUE!) and the criterion #VALUE! matches no cell: 0.

Excel's value for that form is a cell it saved: ``SUMIF(AA7:AA13,C10:D10,C7)`` in row 1324
of tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests!E1324) is 1.1, the
value beside the one #VALUE! cell of AA7:AA13 (tests/test_errors_given.py reads it).
Every other value below is worked by hand from the data in the comment."""

from __future__ import annotations

import openpyxl
import pytest
from openpyxl.worksheet.formula import ArrayFormula

from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError

# A5:A8 "x", "y", "x", "z"; B5:B8 1, 2, 4, 8
DATA = [("x", 1), ("y", 2), ("x", 4), ("z", 8)]


def _values(tmp_path, cells=None, arrays=None):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    for row, (a, b) in enumerate(DATA, 5):
        ws[f"A{row}"], ws[f"B{row}"] = a, b
    for ref, formula in (cells or {}).items():
        ws[ref] = "=" + formula
    for ref, formula in (arrays or {}).items():
        ws[ref.split(":")[0]] = ArrayFormula(ref, "=" + formula)
    wb.save(tmp_path / "in.xlsx")
    return calc_workbook(tmp_path / "in.xlsx", tmp_path / "out.xlsx", {})


@pytest.mark.parametrize(("formula", "row4", "row6"), [
    # row 4 is outside A5:A6: #VALUE!, which no cell of A5:A8 holds
    # row 6 meets A6 = "y": the rows of "y" alone, B6 = 2
    ("SUMIF(A5:A8,A5:A6,B5:B8)", 0, 2),
    ("SUMIFS(B5:B8,A5:A8,A5:A6)", 0, 2),
    ("COUNTIF(A5:A8,A5:A6)", 0, 1),
    ("COUNTIFS(A5:A8,A5:A6)", 0, 1),
    # no row matched: an average of nothing, #DIV/0!; row 6: the mean of B6 alone
    ("AVERAGEIF(A5:A8,A5:A6,B5:B8)", "#DIV/0!", 2),
    ("AVERAGEIFS(B5:B8,A5:A8,A5:A6)", "#DIV/0!", 2),
])
def test_a_range_as_criterion_is_intersected_with_the_formulas_row(tmp_path, formula, row4,
                                                                   row6):
    got = _values(tmp_path, {"D4": formula, "D6": formula})
    assert [str(got["S!D4"]).split(" ")[0] if isinstance(row4, str) else got["S!D4"],
            got["S!D6"]] == [row4, row6]


def test_countifs_reads_a_criterion_from_one_cell(tmp_path):
    # COUNTIFS's page: criteria1 "in the form of a number, expression, cell reference, or
    # text". A5 = "x" is in rows 5 and 7; with B above 1, row 7 alone
    got = _values(tmp_path, {"D1": "COUNTIFS(A5:A8,A5)", "D2": 'COUNTIFS(A5:A8,A5,B5:B8,">1")'})
    assert (got["S!D1"], got["S!D2"]) == (2, 1)


def test_in_an_array_formula_each_criterion_is_taken(tmp_path):
    # {=SUM(SUMIF(A5:A8,A5:A6,B5:B8))}: "x" gives 1 + 4, "y" 2; 7
    got = _values(tmp_path, arrays={"D1:D1": "SUM(SUMIF(A5:A8,A5:A6,B5:B8))"})
    assert got["S!D1"] == 7


def test_inside_sumproduct_it_is_refused_not_computed_from_one_criterion(tmp_path):
    # SUMPRODUCT's arguments are an array context, where Excel takes each criterion (7);
    # napkin does not compute SUMIF element by element over its criteria there
    with pytest.raises(WorkbookError, match="SUMPRODUCT"):
        _values(tmp_path, {"D4": "SUMPRODUCT(SUMIF(A5:A8,A5:A6,B5:B8))"})
