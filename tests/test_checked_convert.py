"""CONVERT between units of time (``addin/excel/unit_convert.py``).

Microsoft Support, "Convert times": hours in 5.5 days (132) and days in 3.45 years (a year
of 365.25 days: 1260.1125). The cells Excel saved are from the business corpus's heldout8
(HThetard/DatacationCallCenterInvestigation, Prophet_Forecast_Results Editted.xlsx,
Full_Forecast!U4 and S6), rebuilt from the two numbers each multiplies: Excel's value is
a*b*86400/3600 to the last bit where a*b*24 is not.
"""

from __future__ import annotations

import pytest
import sheet_calc
import xlsx_make

c = xlsx_make.cell


def test_microsofts_examples(tmp_path):
    res, kept = sheet_calc.calc_sheet(tmp_path, sheet_calc.formulas_down("B", [
        'CONVERT(5.5,"day","hr")', 'CONVERT(3.45,"yr","day")', 'CONVERT(90,"mn","hr")',
        'CONVERT(2,"hr","sec")', 'CONVERT(1,"d","s")', 'CONVERT(1,"yr","day")']))
    assert kept == {}
    # by hand: 5.5 * 24 = 132; 3.45 * 365.25 = 1260.1125; 90 / 60 = 1.5; 2 * 3600 = 7200;
    # 86400; 365.25
    assert res["S!B1"] == 132 and res["S!B2"] == pytest.approx(1260.1125, rel=1e-15)
    assert [res[f"S!B{i}"] for i in (3, 4, 5, 6)] == [1.5, 7200, 86400, 365.25]


def test_the_order_of_excels_operations(tmp_path):
    # U4: 57 * 0.0018287037037037037 (2:38 a call, in days), Excel 2.5016666666666665;
    # S6: 0.0014583333333333334 * 37, Excel 1.295. Times 24 would give 2.501666666666667
    # and 1.2950000000000002; to seconds (86400) then to hours (3600) gives Excel's
    a, b = 57 * 0.0018287037037037037, 0.0014583333333333334 * 37
    assert (a * 24, b * 24) == (2.501666666666667, 1.2950000000000002)
    assert (a * 86400 / 3600, b * 86400 / 3600) == (2.5016666666666665, 1.295)
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        c("A1", None, 57), c("B1", None, 0.0018287037037037037),
        c("A2", None, 0.0014583333333333334), c("B2", None, 37),
        *sheet_calc.formulas_down("C", ['CONVERT(A1*B1,"day","hr")',
                                        'CONVERT(A2*B2,"day","hr")'])])
    assert kept == {}
    assert (res["S!C1"], res["S!C2"]) == (2.5016666666666665, 1.295)


def test_other_units_and_arguments_are_refused(tmp_path):
    # units napkin holds no factor for (a metric prefix, another group, a unit written in
    # another case), a logical value or a text as the number: refused, not guessed
    res, kept = sheet_calc.calc_sheet(tmp_path, sheet_calc.formulas_down("B", [
        'CONVERT(1,"ms","s")', 'CONVERT(1,"m","ft")', 'CONVERT(1,"Day","hr")',
        'CONVERT(TRUE,"day","hr")', 'CONVERT("1","day","hr")']))
    assert set(kept) == {f"S!B{i}" for i in range(1, 6)}
