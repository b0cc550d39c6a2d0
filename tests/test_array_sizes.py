"""Operators between arrays of different sizes in an array formula
(``addin/formula/array_sizes.py``): expanded as Excel does, #N/A where one does not
reach. Each expected value is worked by hand in the comment, or a cell Excel saved."""

from __future__ import annotations

import numpy as np
import pytest
import xlsx_make

from addin.engine.api import calc_workbook
from addin.formula.array_sizes import expanded

c = xlsx_make.cell


def _array(ref, formula, value, t=None):
    return c(ref, formula, value, t=t).replace("<f>", f'<f t="array" ref="{ref}">')


def test_expanded_repeats_one_row_or_column_and_fills_na():
    na = "#N/A"
    a = np.array([[1], [2], [3]], dtype=object)  # 3 x 1
    b = np.array([[10, 20]], dtype=object)  # 1 x 2
    d = np.array([[5], [6]], dtype=object)  # 2 x 1
    ea, eb, ed = expanded([a, b, d], na)
    assert ea.tolist() == [[1, 1], [2, 2], [3, 3]]
    assert eb.tolist() == [[10, 20], [10, 20], [10, 20]]
    assert ed.tolist() == [[5, 5], [6, 6], [na, na]]


def test_arrays_of_different_sizes_in_a_formula(tmp_path):
    cells = [c("A1", None, 1), c("A2", None, 2), c("A3", None, 3), c("B1", None, 1),
             c("B2", None, 2), c("C1", None, 10), c("D1", None, 20),
             # 3 rows less 2: the third is #N/A, and so the sum (Forecast.xlsx, Holt's
             # Method!Q90, saved #N/A for 24 rows less 36)
             _array("E1", "SUM((A1:A3-B1:B2)^2)", "#N/A", t="e"),
             # a column times a row: every product, (1+2+3)*(10+20) = 180
             _array("E2", "SUM(A1:A3*C1:D1)", 180),
             # the same sizes: 1-1 + 2-2 = 0
             _array("E3", "SUM(A1:A2-B1:B2)", 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert str(res["S!E1"]) == "#N/A"
    assert res["S!E2"] == pytest.approx(180) and res["S!E3"] == 0
