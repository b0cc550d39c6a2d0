"""``napkin calc`` fills a legacy array formula's range as Excel does: a result larger
than the range is cut to it (ECMA-376 Part 4, "Single- and Multi-Cell Formulas": a cell
group with fewer rows than the values takes the top-most rows, with fewer columns the
left-most), a smaller one padded with #N/A (Microsoft Support, "Dynamic array formulas vs.
legacy CSE array formulas": a legacy array formula returns #N/A where its range is larger
than the result)."""

from __future__ import annotations

from openpyxl import Workbook, load_workbook
from openpyxl.worksheet.formula import ArrayFormula

from addin.engine.api import calc_workbook


def _computed(tmp_path, block: str):
    wb = Workbook()
    ws = wb.active
    for r, x in enumerate((1, 2, 3), start=1):
        ws[f"B{r}"] = x
    ws[block.split(":")[0]] = ArrayFormula(block, "=B1:B3*2")
    wb.save(tmp_path / "in.xlsx")
    calc_workbook(tmp_path / "in.xlsx", tmp_path / "out.xlsx")
    return load_workbook(tmp_path / "out.xlsx", data_only=True).active


def test_a_result_larger_than_the_range_is_cut_to_it(tmp_path):
    ws = _computed(tmp_path, "A1:A2")
    assert [ws["A1"].value, ws["A2"].value] == [2, 4]  # 1 × 2, 2 × 2; 3 × 2 not shown


def test_a_result_smaller_than_the_range_is_padded_with_na(tmp_path):
    ws = _computed(tmp_path, "A1:A4")
    assert [ws[f"A{r}"].value for r in range(1, 5)] == [2, 4, 6, "#N/A"]
