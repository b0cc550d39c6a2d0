"""Evidence for STDEV.S, STDEV.P, VAR.S, VAR.P, STDEVP and VARP in strict mode
(``addin/formula/excel_functions/statistical.py``, December 2026).

napkin computes them with ``addin/excel/aggregates.py`` (``AGGREGATES``): STDEV.S and
VAR.S as STDEV and VAR (the sample's, divided by n - 1), STDEV.P, STDEVP, VAR.P and VARP
as the population's (divided by n). Each value is Microsoft's documented example or a
cell Excel saved (its file and cell in the comment), and is also worked by hand here
from the definitions the pages give.
"""

from __future__ import annotations

import math

import pytest
import xlsx_make

from addin.engine import checked
from addin.engine.api import calc_workbook

c = xlsx_make.cell

#: Microsoft Support, "STDEV.S function" (and "STDEV.P", "VAR.S", "VAR.P", "STDEVP",
#: "VARP function"): the breaking strength of ten tools, in A2:A11
STRENGTHS = [1345, 1301, 1368, 1322, 1310, 1370, 1318, 1350, 1303, 1299]


def _calc(tmp_path, cells, kept=None):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    return calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)


def _by_hand(xs, ddof):
    """Σ(x - mean)² / (n - ddof), the pages' formula."""
    mean = math.fsum(xs) / len(xs)
    return math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - ddof)


def test_the_spread_functions_are_checked():
    got = checked.checked()
    for name in ("STDEV.S", "STDEV.P", "VAR.S", "VAR.P", "STDEVP", "VARP"):
        assert {"scalars", "cells", "ranges"} <= got[name][0], name


def test_microsofts_examples(tmp_path):
    data = [c(f"A{i}", None, x) for i, x in enumerate(STRENGTHS, start=2)]
    res = _calc(tmp_path, [*data,
                           c("B1", "_xlfn.STDEV.S(A2:A11)", 27.46392),
                           c("B2", "_xlfn.STDEV.P(A2:A11)", 26.05456),
                           c("B3", "_xlfn.VAR.S(A2:A11)", 754.2667),
                           c("B4", "_xlfn.VAR.P(A2:A11)", 678.84),
                           c("B5", "STDEVP(A2:A11)", 26.05456),
                           c("B6", "VARP(A2:A11)", 678.84)])
    # the pages' results, as rounded there
    assert round(res["S!B1"], 5) == 27.46392 and round(res["S!B2"], 5) == 26.05456
    assert round(res["S!B3"], 4) == 754.2667 and round(res["S!B4"], 2) == 678.84
    assert round(res["S!B5"], 5) == 26.05456 and round(res["S!B6"], 2) == 678.84
    # and by hand, to the last digits
    assert res["S!B3"] == pytest.approx(_by_hand(STRENGTHS, 1), rel=1e-15)
    assert res["S!B4"] == pytest.approx(_by_hand(STRENGTHS, 0), rel=1e-15)
    assert res["S!B1"] == pytest.approx(math.sqrt(_by_hand(STRENGTHS, 1)), rel=1e-15)
    assert res["S!B2"] == res["S!B5"] and res["S!B4"] == res["S!B6"]


def test_the_cells_excel_saved(tmp_path):
    # tests/corpus/sheetjs/formula_stress_test.xlsx, Statistical!C104:I104 (the same row
    # values in rows 104-114): Excel saved STDEV.P(C104:H104,I104) = 12.126880245545262,
    # STDEV.S(...) = 13.098527725337247, VAR.P = 147.0612244897959, VAR.S =
    # 171.57142857142856. The row is 1, 2, 4, 8, 16, 32, 30 (read from the file).
    row = [1, 2, 4, 8, 16, 32, 30]
    data = [c(f"{col}1", None, x) for col, x in zip("CDEFGHI", row, strict=True)]
    res = _calc(tmp_path, [*data,
                           c("B1", "_xlfn.STDEV.P(C1:H1,I1)", 12.126880245545262),
                           c("B2", "_xlfn.STDEV.S(C1:H1,I1)", 13.098527725337247),
                           c("B3", "_xlfn.VAR.P(C1:H1,I1)", 147.0612244897959),
                           c("B4", "_xlfn.VAR.S(C1:H1,I1)", 171.57142857142856)])
    assert res["S!B1"] == pytest.approx(12.126880245545262, rel=1e-15)
    assert res["S!B2"] == pytest.approx(13.098527725337247, rel=1e-15)
    assert res["S!B3"] == pytest.approx(147.0612244897959, rel=1e-15)
    assert res["S!B4"] == pytest.approx(171.57142857142856, rel=1e-15)


def test_fewer_values_than_a_sample_needs(tmp_path):
    # the pages: STDEV.S and VAR.S of one value are #DIV/0! (n - 1 = 0); VARP of a
    # number and a text that is none is #DIV/0! (no number left for n)
    res = _calc(tmp_path, [c("A1", None, 5), c("A2", None, "x", t="inlineStr"),
                           c("B1", "_xlfn.STDEV.S(A1)", "#DIV/0!", t="e"),
                           c("B2", "_xlfn.VAR.S(A1)", "#DIV/0!", t="e"),
                           c("B3", "VARP(A2:A2)", "#DIV/0!", t="e"),
                           c("B4", "_xlfn.VAR.P(A1)", 0)])
    assert [str(res[f"S!B{i}"]).split()[0] for i in (1, 2, 3)] == ["#DIV/0!"] * 3
    assert res["S!B4"] == 0
