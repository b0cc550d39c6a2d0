"""Evidence for the paired statistics (CORREL, PEARSON, RSQ, STEYX, COVAR, COVARIANCE.P,
COVARIANCE.S, INTERCEPT; SLOPE and FORECAST given empty cells), SQRT given an error value,
NORM.S.DIST and NORM.DIST, AVERAGE given an array, and VAR.S/STDEV.S given arrays and
empty cells, in strict mode (``addin/formula/fx_excel_paired.py``,
``addin/formula/excel_functions/statistical.py``, December 2026).

Each expected value is Microsoft's documented example (the page named in the comment), a
cell Excel saved (its file and cell in the comment), or worked by hand here with Python's
``statistics`` from the definition the page gives.
"""

from __future__ import annotations

import math
import statistics

import pytest
import xlsx_make

from addin.engine.api import calc_workbook

c = xlsx_make.cell


def _calc(tmp_path, cells, notes=None, kept=None):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    return calc_workbook(src, tmp_path / "out.xlsx", {}, notes=notes, kept=kept)


def _column(col, values, first=1):
    return [c(f"{col}{i}", None, v) for i, v in enumerate(values, first) if v is not None]


def _array(ref, formula, value, t=None):
    """A one-cell array formula (Ctrl+Shift+Enter), as Excel writes it."""
    return c(ref, formula, value, t=t).replace("<f>", f'<f t="array" ref="{ref}">')


def test_paired_statistics_as_microsofts_examples(tmp_path):
    a, b = [3, 2, 4, 5, 6], [9, 7, 12, 15, 17]
    y, x = [2, 3, 9, 1, 8, 7, 5], [6, 5, 11, 7, 5, 4, 4]
    p, q = [9, 7, 5, 3, 1], [10, 6, 1, 5, 3]
    res = _calc(tmp_path, [
        *_column("A", a), *_column("B", b), *_column("C", y), *_column("D", x),
        *_column("E", p), *_column("F", q),
        c("G1", "CORREL(A1:A5,B1:B5)", 0),  # "CORREL function": 0.997054
        c("G2", "PEARSON(E1:E5,F1:F5)", 0),  # "PEARSON function": 0.699379
        c("G3", "RSQ(C1:C7,D1:D7)", 0),  # "RSQ function": 0.05795
        c("G4", "STEYX(C1:C7,D1:D7)", 0),  # "STEYX function": 3.305719
        c("G5", "_xlfn.COVARIANCE.P(A1:A5,B1:B5)", 0),  # "COVARIANCE.P function": 5.2
        c("G6", "COVAR(A1:A5,B1:B5)", 0),  # "COVAR function": 5.2
        c("G7", "_xlfn.COVARIANCE.S({2,4,8},{5,11,12})", 0),  # 9.666666667
        c("G8", "INTERCEPT(C1:C5,D1:D5)", 0)])  # "INTERCEPT function": 0.0483871
    assert round(res["S!G1"], 6) == 0.997054
    assert res["S!G1"] == pytest.approx(statistics.correlation(a, b), rel=1e-14)
    assert round(res["S!G2"], 6) == 0.699379
    assert round(res["S!G3"], 5) == 0.05795
    assert res["S!G3"] == pytest.approx(statistics.correlation(x, y) ** 2, rel=1e-14)
    assert round(res["S!G4"], 6) == 3.305719
    assert round(res["S!G5"], 9) == 5.2 and round(res["S!G6"], 9) == 5.2
    assert round(res["S!G7"], 9) == 9.666666667
    assert round(res["S!G8"], 7) == 0.0483871


#: Forecast.xlsx (the business corpus's fourth held-out part, seen), 'observed data'!D2:D25
SALES = [610000, 530000, 1020000, 800000, 704000, 540000, 680000, 670000, 760000, 870000,
         710000, 750000, 710000, 830000, 930000, 690000, 710000, 660000, 655000, 748000,
         660000, 570000, 558000, 720000]


def test_an_empty_cell_drops_its_pair_as_excels_saved_correl(tmp_path):
    # Forecast.xlsx, 'observed data': E2:E25 is D2:D25 one row down (E2 empty), G2:G25 two
    # rows down. Excel saved C55 = CORREL(D2:D25,E2:E25) = 0.15798063581296687, equal to
    # L28 = CORREL(D3:D25,E3:E25): the number of D2 went out with its empty E2; C56 =
    # CORREL(D2:D25,G2:G25) = -0.19691241734736006
    lag1, lag2 = [None, *SALES[:-1]], [None, None, *SALES[:-2]]
    res = _calc(tmp_path, [
        *_column("D", SALES, 2), *_column("E", lag1, 2), *_column("G", lag2, 2),
        c("C55", "CORREL(D2:D25,E2:E25)", 0.15798063581296687),
        c("C56", "CORREL(D2:D25,G2:G25)", -0.19691241734736006),
        c("C57", "PEARSON(D2:D25,E2:E25)", 0), c("C58", "_xlfn.COVARIANCE.S(D2:D25,E2:E25)", 0),
        c("C59", "SLOPE(D2:D25,E2:E25)", 0), c("C60", "INTERCEPT(D2:D25,E2:E25)", 0)])
    assert res["S!C55"] == pytest.approx(0.15798063581296687, rel=1e-13)
    assert res["S!C56"] == pytest.approx(-0.19691241734736006, rel=1e-13)
    # by hand: the pairs of rows 3 to 25 (and 4 to 25)
    assert res["S!C55"] == pytest.approx(statistics.correlation(SALES[1:], SALES[:-1]), rel=1e-13)
    assert res["S!C56"] == pytest.approx(statistics.correlation(SALES[2:], SALES[:-2]), rel=1e-13)
    assert res["S!C57"] == res["S!C55"]
    assert res["S!C58"] == pytest.approx(statistics.covariance(SALES[1:], SALES[:-1]), rel=1e-13)
    slope, intercept = statistics.linear_regression(SALES[:-1], SALES[1:])
    assert res["S!C59"] == pytest.approx(slope, rel=1e-12)
    assert res["S!C60"] == pytest.approx(intercept, rel=1e-12)


def test_forecast_of_an_empty_x_is_the_intercept(tmp_path):
    # Motilal_Oswal(1).xlsm (fourth held-out part, seen): 'Ratio Analysis'!M32 =
    # FORECAST(M4,$C32:$L32,$C$3:$L$3), M4 empty, C3:L3 the dates 31 March 2017-2026
    # (serials below), saved 235.458869173662: the line's value at x = 0
    ys = [26.79275847100581, 23.370733341904792, 32.079080934791364, 35.40635878193105,
          7.141121080078261, 10.061700854966098, 9.885144833928145, 10.415284027763214,
          15.172979016663234, 20.807276357914752]
    xs = [42825, 43190, 43555, 43921, 44286, 44651, 45016, 45382, 45747, 46112]
    cells = [c(f"{col}32", None, v) for col, v in zip("CDEFGHIJKL", ys, strict=True)]
    cells += [c(f"{col}3", None, v) for col, v in zip("CDEFGHIJKL", xs, strict=True)]
    res = _calc(tmp_path, [*cells, c("M32", "FORECAST(M4,$C32:$L32,$C$3:$L$3)",
                                     235.458869173662),
                           c("N32", "_xlfn.FORECAST.LINEAR(M4,$C32:$L32,$C$3:$L$3)", 0)])
    assert res["S!M32"] == pytest.approx(235.458869173662, rel=1e-11)
    assert res["S!M32"] == pytest.approx(statistics.linear_regression(xs, ys).intercept,
                                         rel=1e-11)
    assert res["S!N32"] == res["S!M32"]


def test_paired_refusals_and_errors(tmp_path):
    notes, kept = [], []
    res = _calc(tmp_path, [
        *_column("A", [1, 2, 3]), *_column("B", [5, 5, 5]),
        c("A4", None, "x", t="inlineStr"), c("B4", None, 4),
        c("E1", None, 4), c("F1", None, 8), c("G1", None, 7),
        # "CORREL function": #DIV/0! where a standard deviation is 0
        c("C1", "CORREL(A1:A3,B1:B3)", "#DIV/0!", t="e"),
        # every page: #N/A for different numbers of data points
        c("C2", "CORREL(A1:A3,B1:B2)", "#N/A", t="e"),
        c("C3", "RSQ(A1:A4,B1:B4)", 0),  # a text among the points: refused
        c("C4", "PEARSON(A1:A3,B1:B3)", 0),  # zero spread, its page silent: refused
        c("C5", "CORREL(A1:A3,E1:G1)", 0),  # a column beside a row: refused
        c("C6", "STEYX(A1:A2,B1:B2)", 0)], notes, kept)  # fewer than 3 pairs: refused
    assert str(res["S!C1"]) == "#DIV/0!" and str(res["S!C2"]) == "#N/A"
    assert sorted(r.label for r in kept) == ["S!C3", "S!C4", "S!C5", "S!C6"]
    said = " ".join(notes)
    assert "RSQ() given a text or logical value among its points" in said
    assert "PEARSON() given points of which a standard deviation is 0" in said
    assert "CORREL() given two areas of different shapes" in said
    assert "STEYX() given fewer than 3 pairs" in said


def test_sqrt_of_an_error_value_is_that_error(tmp_path):
    # Forecast.xlsx, Holt's Method!R90 = SQRT(Q90), Q90 #N/A: saved #N/A
    res = _calc(tmp_path, [c("A1", "NA()", "#N/A", t="e"), c("B1", "SQRT(A1)", "#N/A", t="e"),
                           c("A2", "1/0", "#DIV/0!", t="e"),
                           c("B2", "SQRT(A2)", "#DIV/0!", t="e")])
    assert str(res["S!B1"]) == "#N/A" and str(res["S!B2"]) == "#DIV/0!"


def test_normal_distributions_as_microsofts_examples(tmp_path):
    notes, kept = [], []
    res = _calc(tmp_path, [
        c("A1", None, 1),
        # "NORM.S.DIST function": 0.908788726 and 0.164010148 at 1.333333
        c("B1", "_xlfn.NORM.S.DIST(1.333333,TRUE)", 0.908788726),
        c("B2", "_xlfn.NORM.S.DIST(1.333333,FALSE)", 0.164010148),
        # Inventory reorder point .xlsx (fourth held-out part, seen), 'Reorder point'!I37 =
        # NORM.S.DIST(E37,TRUE), E37 = 1: saved 0.841344746068543
        c("B3", "_xlfn.NORM.S.DIST(A1,TRUE)", 0.841344746068543),
        # "NORM.DIST function": NORM.DIST(42,40,1.5,TRUE) = 0.9087888, FALSE 0.10934
        c("B4", "_xlfn.NORM.DIST(42,40,1.5,TRUE)", 0.9087888),
        c("B5", "_xlfn.NORM.DIST(42,40,1.5,FALSE)", 0.10934),
        c("B6", "_xlfn.NORM.S.DIST(1,1)", 0)], notes, kept)  # a number as cumulative
    assert round(res["S!B1"], 9) == 0.908788726 and round(res["S!B2"], 9) == 0.164010148
    assert res["S!B3"] == pytest.approx(0.841344746068543, rel=1e-14)
    # by hand: Φ(z) = (1 + erf(z/√2))/2, φ(z) = exp(-z²/2)/√(2π)
    assert res["S!B3"] == pytest.approx((1 + math.erf(1 / math.sqrt(2))) / 2, rel=1e-15)
    z = 2 / 1.5
    assert round(res["S!B4"], 7) == 0.9087888 and round(res["S!B5"], 5) == 0.10934
    assert res["S!B5"] == pytest.approx(math.exp(-z * z / 2) / math.sqrt(2 * math.pi) / 1.5,
                                        rel=1e-14)
    assert [r.label for r in kept] == ["S!B6"]
    assert "NORM.S.DIST() given a cumulative that is not TRUE or FALSE" in " ".join(notes)


def test_normdist_and_normsdist_as_microsofts_examples_and_excel_saved(tmp_path):
    notes, kept = [], []
    res = _calc(tmp_path, [
        c("A1", None, 0), c("B1", None, -1), c("C1", None, 3), c("D1", None, 1, t="b"),
        c("E1", None, 2),
        # "NORMDIST function": NORMDIST(42,40,1.5,TRUE) = 0.9087888, FALSE 0.10934
        c("F1", "NORMDIST(42,40,1.5,TRUE)", 0.9087888),
        c("F2", "NORMDIST(42,40,1.5,FALSE)", 0.10934),
        # "NORMSDIST function": NORMSDIST(1.333333) = 0.908788726
        c("F3", "NORMSDIST(1.333333)", 0.908788726),
        # tests/corpus/sheetjs/formula_stress_test.xlsx, Statistical!B45 and B47 as Excel
        # saved them: NORMDIST(0,-1,3,TRUE) (C41:F41) and NORMSDIST(2) (C47)
        c("F4", "NORMDIST(A1,B1,C1,D1)", 0.6305586598182364),
        c("F5", "NORMSDIST(E1)", 0.9772498680518208),
        c("F6", "NORMDIST(42,40,1.5,1)", 0)], notes, kept)  # a number as cumulative
    assert round(res["S!F1"], 7) == 0.9087888 and round(res["S!F2"], 5) == 0.10934
    assert round(res["S!F3"], 9) == 0.908788726
    assert res["S!F4"] == pytest.approx(0.6305586598182364, rel=1e-14)
    assert res["S!F5"] == pytest.approx(0.9772498680518208, rel=1e-14)
    # by hand: Φ((x - mean)/sd) = (1 + erf(z/√2))/2 at z = 1/3 and 2
    assert res["S!F4"] == pytest.approx((1 + math.erf(1 / 3 / math.sqrt(2))) / 2, rel=1e-15)
    assert res["S!F5"] == pytest.approx((1 + math.erf(2 / math.sqrt(2))) / 2, rel=1e-15)
    assert [r.label for r in kept] == ["S!F6"]
    assert "NORMDIST() given a cumulative that is not TRUE or FALSE" in " ".join(notes)


def test_average_of_an_array_of_numbers(tmp_path):
    # Cost Model.xlsx (fourth held-out part, seen), Model!AA25 =
    # +AA24*(AVERAGE($W$25:$Z$25/$W$24:$Z$24)) as an array formula, saved
    # 5382.870132181586; the quotients' mean worked by hand below
    num, den = [5358, 5240, 5145, 7067], [7342, 7302, 7342, 10109]
    cells = [*_column("W", num), *_column("X", den), c("AA24", None, 7562.260000000002),
             _array("AA25", "+AA24*(AVERAGE(W1:W4/X1:X4))", 5382.870132181586),
             _array("AB25", "_xlfn.STDEV.S(W1:W4/X1:X4)", 0),
             _array("AC25", "AVERAGE(IF(W1:W4>5200,W1:W4))", 0)]  # FALSE in the array
    notes, kept = [], []
    res = _calc(tmp_path, cells, notes, kept)
    ratios = [n / d for n, d in zip(num, den, strict=True)]
    assert res["S!AA25"] == pytest.approx(5382.870132181586, rel=1e-13)
    assert res["S!AA25"] == pytest.approx(7562.260000000002 * statistics.fmean(ratios),
                                          rel=1e-13)
    assert res["S!AB25"] == pytest.approx(statistics.stdev(ratios), rel=1e-12)
    assert [r.label for r in kept] == ["S!AC25"]
    assert "AVERAGE() given an array holding a text, logical or empty value" in " ".join(notes)


def test_var_s_of_a_range_with_empty_cells(tmp_path):
    # "VAR.S function": empty cells of a reference are ignored; by hand with statistics
    xs = [0.0003, -0.0057, -0.0123, 0.0345, 0.0275]
    res = _calc(tmp_path, [*_column("A", [None, *xs], 1),
                           c("B1", "_xlfn.VAR.S(A1:A6)", 0),
                           c("B2", "_xlfn.STDEV.P(A1:A7)", 0),
                           c("B3", "_xlfn.VAR.P(A1:A6)", 0)])
    assert res["S!B1"] == pytest.approx(statistics.variance(xs), rel=1e-13)
    assert res["S!B2"] == pytest.approx(statistics.pstdev(xs), rel=1e-13)
    assert res["S!B3"] == pytest.approx(statistics.pvariance(xs), rel=1e-13)


def test_steyx_of_points_on_a_line_is_refused(tmp_path):
    # STEYX of a column against itself: Syy - Sxy²/Sxx is 0 but for the rounding of the
    # two terms (LibreOffice and napkin differed at the 8th digit of a sum over it: the
    # differential test); a line of two points and a third off it is computed, by hand
    # sqrt((Syy - Sxy²/Sxx) / (n - 2)) with x = 1, 2, 3 and y = 1, 2, 4: Sxx = 2,
    # Syy = 14/3, Sxy = 3, so sqrt(14/3 - 9/2) = sqrt(1/6)
    notes, kept = [], []
    res = _calc(tmp_path, [*_column("A", [1.5, -2, 0]), *_column("B", [1, 2, 3]),
                           *_column("C", [1, 2, 4]),
                           c("D1", "STEYX(A1:A3,A1:A3)", 0), c("D2", "STEYX(C1:C3,B1:B3)", 0)],
                notes, kept)
    assert [r.label for r in kept] == ["S!D1"]
    assert "STEYX() given points on a line to within rounding" in " ".join(notes)
    assert res["S!D2"] == pytest.approx(math.sqrt(1 / 6), rel=1e-14)


def test_large_and_small_given_k_in_a_cell(tmp_path):
    # Financial Model - Tata Steel.xlsx (fourth held-out part, seen) writes
    # SMALL(D63:D67,$C$76) and LARGE(D64:D68,$C$77): k in a cell, read as its number. By
    # hand, of 3, 9, 1, 7, 5: the 2nd largest is 7, the 2nd smallest 3; a k of 2.5 in a
    # cell is refused as it is written (fx_excel_args.ordered_values)
    notes, kept = [], []
    res = _calc(tmp_path, [*_column("A", [3, 9, 1, 7, 5]), c("B1", None, 2), c("B2", None, 2.5),
                           c("C1", "LARGE(A1:A5,$B$1)", 7), c("C2", "SMALL(A1:A5,$B$1)", 3),
                           c("C3", "LARGE(A1:A5,$B$2)", 7)], notes, kept)
    assert (res["S!C1"], res["S!C2"]) == (7, 3)
    assert [r.label for r in kept] == ["S!C3"]
    assert "LARGE given a k that is not a whole number" in " ".join(notes)


def test_the_cells_excel_saved_in_formula_stress_test(tmp_path):
    # tests/corpus/sheetjs/formula_stress_test.xlsx (its file refused whole for other
    # functions until 7 December 2026; tests/test_fidelity.py computes it since): each
    # formula with its input cells as there, Excel's saved value beside
    row = {"C67": 1, "D67": 2, "E67": 3, "F67": 5, "G67": 8, "H67": 13}
    row73 = dict(zip(("C73", "D73", "E73", "F73", "G73", "H73"), (1, 2, 4, 8, 16, 32),
                     strict=True))
    row74 = dict(zip(("C74", "D74", "E74", "F74", "G74", "H74"), (2, 1, 3, 4, 7, 11),
                     strict=True))
    row118 = dict(zip(("D118", "E118", "F118", "G118", "H118", "I118"), range(1, 7),
                      strict=True))
    row119 = dict(zip(("D119", "E119", "F119", "G119", "H119", "I119"),
                      (1.1, 2.2, 3.1, 7, 4, 9), strict=True))
    row128 = dict(zip(("D128", "E128", "F128", "G128", "H128", "I128"), range(1, 7),
                      strict=True))
    row129 = dict(zip(("D129", "E129", "F129", "G129", "H129", "I129"), (2, 4, 6, 8, 11, 11),
                      strict=True))
    inputs = {**row, **row73, **row74, **row118, **row119, **row128, **row129,
              "C41": 0, "D41": -1, "E41": 3, "C43": 3, "C47": 2}
    cells = [c(k, None, v) for k, v in inputs.items()]
    cells += [c("I73", None, 1, t="b"), c("F41", None, 1, t="b"), c("D43", None, 1, t="b")]
    saved = {  # Statistical!B..: Excel's values
        "B67": ("CORREL({2,1,3,4,7,11},C67:H67)", 0.9862413826124554),
        "B73": ("COVAR(C73:H73,C74:H74)", 36.333333333333336),
        "B74": ("_xlfn.COVARIANCE.P(C73:H73,C74:H74)", 36.333333333333336),
        "B75": ("_xlfn.COVARIANCE.S(C73:H73,C74:H74)", 43.6),
        "B131": ("INTERCEPT(D129:I129,D128:I128)", 0.20000000000000018),
        "B133": ("PEARSON(D118:I118,D119:I119)", 0.8646992925647675),
        "B134": ("RSQ(D129:I129,D128:I128)", 0.9714285714285714),
        "B136": ("STEYX(D129:I129,D128:I128)", 0.6969320524371684),
        "B41": ("_xlfn.NORM.DIST(C41,D41,E41,F41)", 0.6305586598182364),
        "B43": ("_xlfn.NORM.S.DIST(C43,D43)", 0.9986501019683699)}
    cells += [c(k, f, v) for k, (f, v) in saved.items()]
    res = _calc(tmp_path, cells)
    for k, (_f, v) in saved.items():
        assert res[f"S!{k}"] == pytest.approx(v, rel=1e-14), k
    # by hand: CORREL of 2,1,3,4,7,11 and 1,2,3,5,8,13 with statistics
    assert res["S!B67"] == pytest.approx(
        statistics.correlation([2, 1, 3, 4, 7, 11], [1, 2, 3, 5, 8, 13]), rel=1e-14)
