"""``napkin native`` of an array formula that calls napkin functions: one translated
formula a cell of its range (``addin.transform.native.cells``), or, where a cell's element
cannot be told, the block frozen and reported."""

from __future__ import annotations

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.worksheet.formula import ArrayFormula

from addin.engine.api import calc_workbook
from addin.transform.native import native


def _book(path, formula: str, block: str = "B1:B4"):
    wb = Workbook()
    ws = wb.active
    for r, s in enumerate((1, 2, 4, 8), start=1):
        ws[f"A{r}"] = s
    ws[block.split(":")[0]] = ArrayFormula(block, formula)
    wb.save(path)
    return path


def _values(path, cells):
    ws = load_workbook(path, data_only=True).active
    return [ws[c].value for c in cells]


def test_an_array_call_becomes_one_native_formula_a_cell(tmp_path):
    src = _book(tmp_path / "in.xlsx", "=_xldudf_AMDAHL(0.9,A1:A4)")
    out, again = tmp_path / "out.xlsx", tmp_path / "again.xlsx"
    r = native(src, out)
    assert not r.frozen
    assert sorted(r.translated) == ["Sheet!B1", "Sheet!B2", "Sheet!B3", "Sheet!B4"]
    ws = load_workbook(out).active
    formulas = [ws[f"B{i}"].value for i in range(1, 5)]
    assert all(isinstance(f, str) and "AMDAHL" not in f.upper() for f in formulas)
    assert "$A$3" in formulas[2]  # the cell's own element of the range
    calc_workbook(out, again)
    # Amdahl's law 1 / ((1 - p) + p / s), p = 0.9, s = 1, 2, 4, 8 (by hand)
    want = [1 / (0.1 + 0.9 / s) for s in (1, 2, 4, 8)]
    assert _values(again, ["B1", "B2", "B3", "B4"]) == pytest.approx(want, rel=1e-12)


def test_a_range_reaching_a_reducing_function_freezes_its_block(tmp_path):
    src = _book(tmp_path / "in.xlsx", "=_xldudf_AMDAHL(0.9,A1:A4)+SUM(A1:A4)*0")
    r = native(src, tmp_path / "out.xlsx")
    assert sorted(r.frozen) == ["Sheet!B1", "Sheet!B2", "Sheet!B3", "Sheet!B4"]
    assert all("SUM" in why for why in r.frozen.values())
    # frozen: napkin's values kept (1, 1.818..., 3.077..., 4.705...)
    want = [1 / (0.1 + 0.9 / s) for s in (1, 2, 4, 8)]
    assert _values(tmp_path / "out.xlsx", ["B1", "B2", "B3", "B4"]) == \
        pytest.approx(want, rel=1e-12)


def test_a_one_row_range_is_broadcast_down_the_block(tmp_path):
    wb = Workbook()
    ws = wb.active
    for col, s in zip("ABC", (2, 4, 8), strict=True):
        ws[f"{col}1"] = s
    for r, p in enumerate((0.5, 0.9), start=2):
        ws[f"A{r}"] = p
    ws["B2"] = ArrayFormula("B2:C3", "=_xldudf_AMDAHL($A2:$A3,B$1:C$1)")
    wb.save(tmp_path / "in.xlsx")
    r = native(tmp_path / "in.xlsx", tmp_path / "out.xlsx")
    assert not r.frozen and len(r.translated) == 4
    calc_workbook(tmp_path / "out.xlsx", tmp_path / "again.xlsx")
    # 1 / ((1 - p) + p / s) for p = 0.5, 0.9 down and s = 4, 8 across (by hand)
    want = [1 / (1 - p + p / s) for p in (0.5, 0.9) for s in (4, 8)]
    assert _values(tmp_path / "again.xlsx", ["B2", "C2", "B3", "C3"]) == \
        pytest.approx(want, rel=1e-12)
