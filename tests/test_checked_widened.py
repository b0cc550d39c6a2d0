"""Evidence for the forms of argument widened in issue 39 (``checked_functions.csv``): each
case is a cell Excel saved in ``tests/corpus/poi/FormulaEvalTestData_Copy.xlsx`` (apache/poi's
FormulaEvalTestData, saved by Excel), rebuilt here in a workbook of its own and computed in
strict mode, with the value Excel cached there. The corpus test
(``tests/test_fidelity.py``) checks every other computed cell of that file.

An empty cell in a number's place is 0 (Microsoft KB Q149577, "XL: Formula to Correctly
Evaluate Blank Cells": "Microsoft Excel interprets a blank cell as zero") and the empty
text in a text's place; text that looks like a number, given where a number is needed, is
that number (the cells below: ``SIN`` of the text "1.1" is sin 1.1).
"""

from __future__ import annotations

import math

import pytest
import xlsx_make

from addin.engine import checked
from addin.engine.api import calc_workbook

c = xlsx_make.cell


def _calc(tmp_path, cells):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    return calc_workbook(src, tmp_path / "out.xlsx", {})


def test_an_empty_cell_in_the_math_and_text_functions(tmp_path):
    # FormulaEvalTestData, EverythingTests: D7 is empty; M156 ASIN(D7)... are the cells
    # named in each comment, with Excel's values
    for name in ("ASIN", "ATAN", "COS", "EXP", "RADIANS", "EXACT", "CONCATENATE"):
        assert "empty" in checked.checked()[name][0], name
    res = _calc(tmp_path, [
        c("A1", None, 1.1), c("A2", None, -2), c("A3", None, 0, t="b"),
        c("B1", "ASIN(D7)", 0),  # J156: 0
        c("B2", "ATAN(D7)", 0),  # H164: 0
        c("B3", "COS(D7)", 1),  # D276: 1
        c("B4", "EXP(D7)", 1),  # EXP of 0 (K488, EXP(H12:L12) at an empty cell: 1)
        c("B5", "RADIANS(D7)", 0),  # I1100: 0
        c("B6", "EXACT(D8,D9)", 1, t="b"),  # H476: TRUE (two empty cells)
        c("B7", "CONCATENATE(A1,D14,A2,A3)", "1.1-2FALSE", t="str"),  # F264
    ])
    assert [res[f"S!B{i}"] for i in range(1, 6)] == [0, 0, 1, 1, 0]
    assert res["S!B6"] is True and res["S!B7"] == "1.1-2FALSE"


def test_text_that_looks_like_a_number_in_the_math_functions(tmp_path):
    # FormulaEvalTestData, EverythingTests: E15 = "1", E16 = "1.1", E17 = "2.99999" (text
    # given by formulas); the cells named in each comment, with Excel's values
    for name in ("CEILING", "COSH", "MOD", "POWER", "ROUNDUP", "SIN", "TAN"):
        assert "numeric text" in checked.checked()[name][0], name
    res = _calc(tmp_path, [
        c("A15", '"1"', "1", t="str"), c("A16", '"1.1"', "1.1", t="str"),
        c("A17", '"2.99999"', "2.99999", t="str"), c("C16", None, 0),
        c("B1", "CEILING(A17,A15)", 3),  # H212: 3
        c("B2", "COSH(A15)", 1.5430806348152437),  # K280
        c("B3", 'MOD("23","3")', 2),  # G932: 2
        c("B4", "MOD(A17,A16)", 0.7999899999999998),  # H932
        c("B5", "POWER(A15,C16)", 1),  # L1068: "1"^0 = 1
        c("B6", "ROUNDUP(A17,3)", 3),  # K1188: 3
        c("B7", "SIN(A16)", 0.8912073600614354),  # L1252
        c("B8", "TAN(A15)", 1.5574077246549023),  # J1356
    ])
    assert res["S!B1"] == 3 and res["S!B3"] == 2 and res["S!B5"] == 1 and res["S!B6"] == 3
    # the same numbers by hand: cosh 1, 2.99999 - 2 x 1.1, sin 1.1, tan 1
    assert res["S!B2"] == pytest.approx(math.cosh(1), rel=1e-15)
    assert res["S!B4"] == pytest.approx(2.99999 - 2 * 1.1, rel=1e-12)
    assert res["S!B7"] == pytest.approx(math.sin(1.1), rel=1e-15)
    assert res["S!B8"] == pytest.approx(math.tan(1), rel=1e-15)
    # and Excel's
    assert res["S!B2"] == pytest.approx(1.5430806348152437, rel=1e-12)
    assert res["S!B4"] == pytest.approx(0.7999899999999998, rel=1e-9)
    assert res["S!B7"] == pytest.approx(0.8912073600614354, rel=1e-12)
