"""The range operator ``:`` given a reference in parentheses or a function other than
INDEX, OFFSET and XLOOKUP is refused in strict mode (``addin/engine/range_operands.py``):
formulas reads such a range otherwise than Excel. With A1 = 1 and B1 = 2, Excel's
``A1:B1`` holds both, so SUM of it is 3 (Microsoft Support, "Calculation operators and
precedence in Excel": ":" makes "one reference to all the cells between two references,
including the two references"), whichever way the two references are written."""

from __future__ import annotations

import pytest
import xlsx_make
from xlsx_make import cell

from addin.engine.api import calc_workbook
from addin.engine.range_operands import refusal

NAMES = {"START": "S!$A$1", "END": "S!$B$1", "COL": "S!$A:$A", "ROW": "S!$1:$1"}


def _calc(tmp_path, formula, **kw):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        cell("A1", None, 1), cell("B1", None, 2), cell("C2", formula, 3)]}, names=NAMES)
    kept = []
    return calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept, **kw), kept


@pytest.mark.parametrize("formula", ["SUM(A1:B1)", "SUM(START:B1)", "SUM(B1:START)",
                                     "SUM(START:END)", "SUM(A1:INDEX(A1:B1,1,2))",
                                     "SUM(INDEX(A1:B1,1,1):INDEX(A1:B1,1,2))",
                                     "SUM(A1:OFFSET(A1,0,1))", "SUM($A$1:$B$1)"])
def test_the_forms_formulas_reads_as_excel_are_computed(tmp_path, formula):
    res, kept = _calc(tmp_path, formula)
    assert res["S!C2"] == 3 and kept == []


@pytest.mark.parametrize("formula, lenient", [
    ("SUM((A1):B1)", 1),
    ("SUM((COL ROW):B1)", 1),  # (the intersection is A1: heldout3's TimeSim.xlsx)
])
def test_the_forms_it_reads_otherwise_are_kept_not_computed(tmp_path, formula, lenient,
                                                           monkeypatch):
    res, kept = _calc(tmp_path, formula)
    assert res["S!C2"] == 3  # Excel's value, kept
    assert [(k.label, k.kind) for k in kept] == [("S!C2", "cannot compute")]
    assert kept[0].reason.startswith("the range operator ':' given ")
    # why: not refused, formulas gives another value than Excel's 3
    monkeypatch.setattr("addin.engine.range_operands.refusal", lambda code: None)
    res, kept = _calc(tmp_path, formula)
    assert res["S!C2"] == lenient and kept == []


def test_what_the_refusal_names():
    assert refusal("SUM((A1):B1)").startswith("the range operator ':' given a reference in "
                                               "parentheses")
    assert "the value of IF()" in refusal("SUM(IF(A1,B1,C1):D1)")
    # written out, in other sheets, whole columns and rows, table columns, 3-D: not here
    for code in ("SUM(START:END)", "SUM(A:A)", "SUM($21:$21)", "SUM(S!A1:B1)", "SUM('Q'!A1:'Q'!B1)",
                 "T[[a]:[b]]", "SUM(Sheet1:Sheet3!A1)", "SUM(Sheet2!A1:Sheet2!B1)"):
        assert refusal(code) is None, code
