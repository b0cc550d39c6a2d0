"""Cases where Excel's answer is known by hand, each in a minimal workbook of our own:
``napkin calc`` must give Excel's value (or refuse the workbook, saying why)."""

from __future__ import annotations

import openpyxl
import pytest

from addin.engine import calc_workbook


def _calc(tmp_path, sheets: dict[str, dict[str, object]], **kw):
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, cells in sheets.items():
        ws = wb.create_sheet(name)
        for ref, v in cells.items():
            ws[ref] = v
    src = tmp_path / "in.xlsx"
    wb.save(src)
    return calc_workbook(src, tmp_path / "out.xlsx", {}, **kw)


@pytest.mark.parametrize("name", ["1", "2019", "places-dec2", "my sheet", "Q1-2025 (draft)"])
def test_sheet_names_excel_quotes(tmp_path, name):
    q = "'" + name + "'"
    res = _calc(tmp_path, {name: {"A1": 5, "A2": "=A1*2"},
                           "Main": {"A1": f"={q}!A1+{q}!A2", "A2": f"=SUM({q}!A1:A2)"}})
    assert res[f"{q}!A2"] == 10  # 5*2
    assert res["Main!A1"] == 15 and res["Main!A2"] == 15  # 5 + 10


def test_row_and_column_without_argument(tmp_path):
    res = _calc(tmp_path, {"S": {"B3": "=ROW()", "C2": "=COLUMN()", "D4": "=ROW()*100+COLUMN()"}})
    assert res["S!B3"] == 3 and res["S!C2"] == 3 and res["S!D4"] == 404  # D = column 4


def test_double_minus_turns_booleans_into_numbers(tmp_path):
    res = _calc(tmp_path, {"S": {"A1": 1, "A2": 2, "A3": 3,
                                 "B1": "=SUMPRODUCT(--(A1:A3>1))",  # 0+1+1
                                 "B2": "=--TRUE", "B3": "=+TRUE", "B4": "=1--1",
                                 "B5": '=--"3"', "B6": "=-TRUE"}})
    assert res["S!B1"] == 2 and res["S!B2"] == 1 and res["S!B3"] is True
    assert res["S!B4"] == 2 and res["S!B5"] == 3 and res["S!B6"] == -1


def test_ranges_to_the_last_row_and_column(tmp_path):
    res = _calc(tmp_path, {"S": {"B2": 1, "B3": 2, "B9": 4, "C1": 10, "E1": 20,
                                 "A1": "=SUM(B2:B1048576)", "A2": "=SUM(C1:XFD1)",
                                 "A3": "=SUM(B2:XFD1048576)", "A4": "=COUNT(B:B)"}})
    assert res["S!A1"] == 7  # 1+2+4
    assert res["S!A2"] == 30  # 10+20
    assert res["S!A3"] == 7  # rows 2.. of columns B..: B2, B3, B9 (C1, E1 are in row 1)
    assert res["S!A4"] == 3
