"""AGGREGATE (``addin/excel/aggregate.py``): the cells Excel saved in the business
corpus's fourth held-out part (seen), Microsoft's page's rules for the options worked by
hand, and what strict mode refuses."""

from __future__ import annotations

import statistics

import pytest
import xlsx_make

from addin.engine.api import calc_workbook

c = xlsx_make.cell

#: Motilal_Oswal(1).xlsm, 'Comp Analysis'!P5:P8
PE = [14.159289344009853, 18.738589743589745, 15.193309384822632, 7.203637096774193]


def test_aggregate_as_excels_saved_cells(tmp_path):
    # Motilal_Oswal(1).xlsm, 'Comp Analysis'!P10:P15, each saved by Excel (the value after
    # the formula); option 6 leaves out error values (there are none)
    cells = [*(c(f"P{i}", None, v) for i, v in enumerate(PE, 5)),
             c("P10", "_xlfn.AGGREGATE(4,6,P5:P8)", 18.738589743589745),
             c("P11", "_xlfn.AGGREGATE(17,6,P5:P8,3)", 16.07962947451441),
             c("P12", "_xlfn.AGGREGATE(12,6,P5:P8)", 14.676299364416241),
             c("P13", "_xlfn.AGGREGATE(1,6,P5:P8)", 13.823706392299107),
             c("P14", "_xlfn.AGGREGATE(17,6,P5:P8,1)", 12.420376282200937),
             c("P15", "_xlfn.AGGREGATE(5,6,P5:P8)", 7.203637096774193)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!P10"] == max(PE) and res["S!P15"] == min(PE)
    assert res["S!P11"] == pytest.approx(16.07962947451441, rel=1e-14)
    assert res["S!P14"] == pytest.approx(12.420376282200937, rel=1e-14)
    assert res["S!P12"] == pytest.approx(14.676299364416241, rel=1e-14)
    assert res["S!P13"] == pytest.approx(13.823706392299107, rel=1e-14)
    # by hand: the quartiles are Python's inclusive quantiles, the mean and median
    q1, _q2, q3 = statistics.quantiles(PE, n=4, method="inclusive")
    assert (res["S!P14"], res["S!P11"]) == (pytest.approx(q1), pytest.approx(q3))
    assert res["S!P12"] == pytest.approx(statistics.median(PE))
    assert res["S!P13"] == pytest.approx(statistics.fmean(PE))


def test_aggregate_options_as_its_page_says(tmp_path):
    # A2:A6 = 120, 10, 150, #DIV/0!, 23; row 4 hidden; A7 a SUBTOTAL of A2:A3 (130)
    cells = [c("A2", None, 120), c("A3", None, 10), c("A4", None, 150),
             c("A5", "1/0", "#DIV/0!", t="e"), c("A6", None, 23),
             c("A7", "SUBTOTAL(9,A2:A3)", 130), c("A8", None, "x", t="inlineStr"),
             c("B1", "_xlfn.AGGREGATE(9,3,A2:A8)", 0),  # 120+10+23: not 150, A5, A7
             c("B2", "_xlfn.AGGREGATE(9,6,A2:A8)", 0),  # 120+10+150+23+130
             c("B3", "_xlfn.AGGREGATE(9,4,A2:A8)", 0),  # the error value
             c("B4", "_xlfn.AGGREGATE(2,7,A2:A8)", 0),  # COUNT: 120, 10, 23, 130
             c("B5", "_xlfn.AGGREGATE(3,2,A2:A8)", 0),  # COUNTA: 120, 10, 150, 23, "x"
             c("B6", "_xlfn.AGGREGATE(14,3,A2:A8,2)", 0),  # LARGE of 120, 10, 23: 23
             c("B7", "_xlfn.AGGREGATE(15,7,A2:A8,1)", 0),  # SMALL of 120,10,23,130: 10
             c("B8", "_xlfn.AGGREGATE(10,6,A2:A6)", 0),  # VAR.S of 120, 10, 150, 23
             c("B9", "_xlfn.AGGREGATE(9,6,A2:A8)", 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells}, hidden={"S": {4}})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!B1"] == 153 and res["S!B2"] == 433
    assert str(res["S!B3"]) == "#DIV/0!"
    assert res["S!B4"] == 4 and res["S!B5"] == 5
    assert res["S!B6"] == 23 and res["S!B7"] == 10
    assert res["S!B8"] == pytest.approx(statistics.variance([120, 10, 150, 23]), rel=1e-15)


def test_aggregate_refusals(tmp_path):
    cells = [c("A1", None, 1), c("A2", None, 2), c("A3", None, 4),
             c("B1", "_xlfn.AGGREGATE(13,6,A1:A3)", 0),  # MODE.SNGL: not checked
             c("B2", "_xlfn.AGGREGATE(9,6,A1:A3*2)", 0),  # an array for a reference
             c("B3", "_xlfn.AGGREGATE(4,6,C1:C3)", 0),  # no numbers: no value on the page
             c("B4", "_xlfn.AGGREGATE(14,6,A1:A3,1.5)", 0),  # k not whole
             c("B5", "_xlfn.AGGREGATE(NA(),6,A1:A3)", "#N/A", t="e"),  # an error: no page
             # k past the count: SMALL's page #NUM!, LibreOffice's AGGREGATE #VALUE!
             c("B6", "_xlfn.AGGREGATE(15,3,A1:A3,5)", "#NUM!", t="e")]
    notes, kept = [], []
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    calc_workbook(src, tmp_path / "out.xlsx", {}, notes=notes, kept=kept)
    assert sorted(r.label for r in kept) == ["S!B1", "S!B2", "S!B3", "S!B4", "S!B5",
                                                   "S!B6"]
    said = " ".join(notes)
    assert "AGGREGATE() given function_num 13" in said
    assert "AGGREGATE() given an array" in said  # (the form, before its own refusal)
    assert "AGGREGATE() given function_num 4 over no numbers" in said
    assert "k 1.5, not a whole number" in said
    assert "AGGREGATE() given an error value as its function_num" in said
    assert "AGGREGATE() given k 5, not 1 to the 3 numbers" in said


def test_aggregate_of_function_num_and_options_in_cells(tmp_path):
    # tests/corpus/sheetjs/formula_stress_test.xlsx, Math!B5 = AGGREGATE(A1,B1,C1:K1), A1:K1
    # = 1..11: AVERAGE (1) with option 2 of 3..11, saved 7
    cells = [*(c(f"{col}1", None, v) for col, v in zip("ABCDEFGHIJK", range(1, 12),
                                                         strict=True)),
             c("B5", "_xlfn.AGGREGATE(A1,B1,C1:K1)", 7)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    assert calc_workbook(src, tmp_path / "out.xlsx", {})["S!B5"] == 7
