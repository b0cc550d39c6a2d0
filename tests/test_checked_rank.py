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


def test_rank_eq_and_rank_avg_microsoft_examples(tmp_path):
    # Microsoft Support, "RANK.EQ function": A2:A6 = 7, 3.5, 3.5, 1, 2. Ascending (order
    # 1) 1, 2, 3.5, 3.5, 7: 7 is 5th, the first 3.5 3rd (duplicates take the top rank);
    # descending 7, 3.5, 3.5, 2, 1: 2 is 4th. Its page adjusts the rank for ties by
    # [COUNT(ref) + 1 - RANK.EQ(n,ref,0) - RANK.EQ(n,ref,1)]/2 = (5 + 1 - 2 - 3)/2 = 0.5:
    # 3.5, the average of ranks 3 and 4, RANK.AVG's value. Descending, the 3.5s hold
    # ranks 2 and 3: RANK.AVG 2.5.
    # Microsoft Support, "RANK.AVG function": RANK.AVG(94,B2:B8) over 89, 88, 92, 101, 94,
    # 97, 95 is 4 (101, 97, 95, 94).
    cells = [*(c(f"A{i}", None, v) for i, v in enumerate([7, 3.5, 3.5, 1, 2], 2)),
             *(c(f"B{i}", None, v) for i, v in enumerate([89, 88, 92, 101, 94, 97, 95], 2)),
             c("D1", "_xlfn.RANK.EQ(A2,A2:A6,1)", 5), c("D2", "_xlfn.RANK.EQ(A6,A2:A6)", 4),
             c("D3", "_xlfn.RANK.EQ(A3,A2:A6,1)", 3), c("D4", "_xlfn.RANK.AVG(A3,A2:A6,1)", 3.5),
             c("D5", "_xlfn.RANK.AVG(A3,A2:A6)", 2.5), c("D6", "_xlfn.RANK.AVG(94,B2:B8)", 4)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert [res[f"S!D{i}"] for i in range(1, 7)] == [5, 4, 3, 3.5, 2.5, 4]


def test_rank_eq_and_rank_avg_leave_out_what_is_no_number(tmp_path):
    # A1:A8 = 3, 5, "x", 3, TRUE, (empty), 2, (empty): the numbers of ref are 3, 5, 3, 2.
    # By hand, descending 5, 3, 3, 2: RANK.EQ(3) = 2, RANK.AVG(3) = (2 + 3)/2 = 2.5;
    # ascending 2, 3, 3, 5: RANK.AVG(3,...,1) = 2.5, RANK.AVG(5,...,1) = 4. Were TRUE read
    # as 1 or an empty cell as 0, the ascending ranks would be higher.
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        c("A1", None, 3), c("A2", None, 5), c("A3", '"x"', "x", t="str"), c("A4", None, 3),
        c("A5", None, 1, t="b"), c("A7", None, 2),
        c("B1", "_xlfn.RANK.EQ(A1,A1:A8)", 2), c("B2", "_xlfn.RANK.AVG(A1,A1:A8)", 2.5),
        c("B3", "_xlfn.RANK.AVG(A4,A1:A8,1)", 2.5), c("B4", "_xlfn.RANK.AVG(A2,A1:A8,1)", 4),
        c("B5", "_xlfn.RANK.EQ(A7,A1:A8,1)", 1)]})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert [res[f"S!B{i}"] for i in range(1, 6)] == [2, 2.5, 2.5, 4, 1]


@pytest.mark.parametrize("name", ["RANK.EQ", "RANK.AVG"])
def test_rank_eq_and_rank_avg_of_an_empty_cell_or_a_logical_value_are_refused(tmp_path, name):
    for number in ("A9", "TRUE"):
        src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
            c("A1", None, 3), c("A2", None, 0), c("B1", f"_xlfn.{name}({number},A1:A2)", 2)]})
        with pytest.raises(WorkbookError, match=name.replace(".", r"\.")):
            calc_workbook(src, tmp_path / "out.xlsx", {})


@pytest.mark.parametrize("name", ["RANK.EQ", "RANK.AVG"])
def test_rank_eq_and_rank_avg_of_a_number_not_in_ref_are_refused(tmp_path, name):
    # RANK is #N/A there ([MS-OI29500] 2.1.1026); the RANK.EQ and RANK.AVG pages are
    # silent, and LibreOffice gives a rank or #VALUE!: refused.
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        c("A1", None, 3), c("A2", None, 0), c("B1", f"_xlfn.{name}(7,A1:A2)", "#N/A", t="e")]})
    with pytest.raises(WorkbookError, match="not among the numbers of ref"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
