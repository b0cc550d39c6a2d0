"""RANK over a reference holding empty cells, text and logical values: Microsoft Support,
"RANK function" (and Microsoft Learn, "WorksheetFunction.Rank method (Excel)"): "Nonnumeric
values in ref are ignored". An empty cell given as the number itself is refused (the page
does not say Excel's value)."""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine import checked
from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell


def test_rank_leaves_out_empty_cells_text_and_logical_values(tmp_path):
    assert "empty" in checked.checked()["RANK"][0]
    # A1:A8 = 3, 5, "x", 1, TRUE, (empty), 2, (empty): the numbers of ref are 3, 5, 1, 2.
    # By hand: descending 5, 3, 2, 1 (3 is 2nd, 5 1st, 1 4th); ascending 1, 2, 3, 5 (1 is
    # 1st, 2 is 2nd). Were TRUE read as 1, RANK(2,...,1) would be 3; were an empty cell
    # read as 0, RANK(1,...,1) would be 3.
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        c("A1", None, 3), c("A2", None, 5), c("A3", '"x"', "x", t="str"), c("A4", None, 1),
        c("A5", None, 1, t="b"), c("A7", None, 2),
        c("B1", "RANK(A1,A1:A8)", 2), c("B2", "RANK(A4,A1:A8,1)", 1),
        c("B3", "RANK(A2,A1:A8)", 1), c("B4", "RANK(A7,A1:A8,1)", 2),
        c("B5", "RANK(A4,A1:A8)", 4)]})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert [res[f"S!B{i}"] for i in range(1, 6)] == [2, 1, 1, 2, 4]


def test_rank_of_an_empty_cell_is_refused(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        c("A1", None, 3), c("A2", None, 0), c("B1", "RANK(A9,A1:A2)", 2)]})
    with pytest.raises(WorkbookError, match="RANK"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
