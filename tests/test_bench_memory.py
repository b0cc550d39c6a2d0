"""The memory bench's workbooks (``addin.cli.bench_memory``): each is the size it says,
as the guard counts it, and strict ``napkin calc`` computes it (a refused workbook would
measure the refusal, not the computing), to hand-checked values. No memory is measured
here: that is the bench's (docs/bench.md, "Memory")."""

from __future__ import annotations

import math

import pytest

from addin.cli import bench_memory as bm
from addin.engine.api import calc_workbook
from addin.ooxml import guard


def test_mixed_workbook(tmp_path):
    src = bm.make_workbook(tmp_path / "mixed.xlsx", 1800, "mixed")
    # 1800 // 18 = 100 rows of 18 cells; a 10-cell array formula at S2:S11, written as
    # 10 cells and counted 9 more by the guard (each cell of its range); the lookup
    # table's 20 rows of 2 cells: 1800 + 10 + 9 + 40
    assert bm.cells_of(src) == 1859
    got = calc_workbook(src, tmp_path / "out.xlsx")
    # row 2's numbers D2:M2 are (2*7 + k*13) mod 997 + 0.5 for k = 0..9: 14.5, 27.5, ...,
    # 131.5; their sum 10*14 + 13*45 + 5 = 730
    assert got["Data!N2"] == 730
    assert got["Data!O2"] == 730  # IF(N2>5000, N2*0.9, N2)
    # B2 is the category "cat2" (2 mod 20), the lookup's row 3: 3; 3 x 730
    assert got["Data!P2"] == 2190
    assert got["Data!Q2"] == "item 0000002 (cat2)"
    assert got["Data!R2"] == 130.5  # MAX(D2:M2 - 1): 131.5 - 1
    # {=N2:N11*2} fills S2:S11, each cell twice its row's sum
    assert got["Data!S2"] == 2 * 730 and got["Data!S11"] == 2 * got["Data!N11"]
    assert not [k for k, v in got.items() if hasattr(v, "code")]


@pytest.mark.parametrize("kind", ["values", "formulas", "distinct", "strings"])
def test_each_kind_is_computed(tmp_path, kind):
    src = bm.make_workbook(tmp_path / f"{kind}.xlsx", 1000, kind)
    # values: 1000 // 18 = 55 mixed rows of 18 cells and the lookup table's 40; the others
    # 100 rows of 10 cells
    assert bm.cells_of(src) == (55 * 18 + 40 if kind == "values" else 1000)
    got = calc_workbook(src, tmp_path / "out.xlsx")
    assert not [k for k, v in got.items() if hasattr(v, "code")]
    if kind == "formulas":  # A1 = 1, A2 = A1+1...; B1 = A1*2, C1 = B1*2...
        assert got["Data!A100"] == 100 and got["Data!J1"] == 2 ** 9
    if kind == "distinct":  # =k+2 * r + MAX(k, r mod 97): C7 is k = 2, r = 7
        assert got["Data!C7"] == 4 * 7 + max(2, 7)


def test_limits_workbook_fills_the_formula_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(guard, "MAX_FORMULAS", 300)
    src = bm.make_workbook(tmp_path / "limits.xlsx", 1000, "limits")
    assert bm.cells_of(src) == 1000
    got = calc_workbook(src, tmp_path / "out.xlsx")
    assert len(got) == 300  # the formulas: the other 700 cells are shared strings
    assert math.isclose(got["Data!A1"], 2 * 1 + max(0, 1))  # k = 0, r = 1
