"""CONFIDENCE, CONFIDENCE.NORM and CONFIDENCE.T in strict mode: Microsoft's examples, the
156 cells Excel saved in Sales Forecast.xlsx (tests/data/confidence_sales_forecast.csv),
and independent values at many points (mpmath, 40 digits).

Microsoft Support, "CONFIDENCE function", "CONFIDENCE.NORM function":
NORM.S.INV(1 - alpha/2) * standard_dev / SQRT(size), size truncated, #NUM! for alpha <= 0
or >= 1, standard_dev <= 0 or size < 1. "CONFIDENCE.T function": the same with Student's t
quantile of size - 1 degrees of freedom, #DIV/0! for a size of 1 (a size below 1: its page
is silent, refused)."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import mpmath
import pytest
import xlsx_make

from addin.engine import checked
from addin.engine.api import calc_workbook
from addin.engine.census import same
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell
DATA = Path(__file__).parent / "data" / "confidence_sales_forecast.csv"
mpmath.mp.dps = 40


def _col(n: int) -> str:
    s = ""
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def _calc(tmp_path, cells):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    return calc_workbook(src, tmp_path / "out.xlsx", {})


def _z(p) -> mpmath.mpf:
    """The standard normal quantile, 40 digits: sqrt(2) * erfinv(2p - 1)."""
    return mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(p) - 1)


def _t(p, df: int) -> mpmath.mpf:
    """Student's t quantile, 40 digits: the root of its distribution function
    1 - I(df/(df+t^2); df/2, 1/2)/2 (t > 0), the regularized incomplete beta."""
    def cdf(t):
        x = df / (df + t * t)
        return 1 - mpmath.betainc(df / mpmath.mpf(2), mpmath.mpf(1) / 2, 0, x,
                                  regularized=True) / 2
    return mpmath.findroot(lambda t: cdf(t) - p, _z(p))


def test_confidence_functions_are_checked():
    for name in ("CONFIDENCE", "CONFIDENCE.NORM", "CONFIDENCE.T"):
        assert "scalars" in checked.checked()[name][0]


def test_microsoft_examples(tmp_path):
    # CONFIDENCE(0.05,2.5,50) and CONFIDENCE.NORM: 0.692952 (both pages, 6 digits);
    # CONFIDENCE.T(0.05,1,50): 0.284196855 (its page, 9 digits). size 50.9 truncated to 50.
    cells = [c("A1", "CONFIDENCE(0.05,2.5,50)", 0),
             c("A2", "_xlfn.CONFIDENCE.NORM(0.05,2.5,50)", 0),
             c("A3", "_xlfn.CONFIDENCE.T(0.05,1,50)", 0),
             c("A4", "_xlfn.CONFIDENCE.NORM(0.05,2.5,50.9)", 0)]
    res = _calc(tmp_path, cells)
    assert round(res["S!A1"], 6) == round(res["S!A2"], 6) == 0.692952
    assert round(res["S!A3"], 9) == 0.284196855
    assert res["S!A4"] == res["S!A2"]


def test_the_cells_excel_saved_in_sales_forecast(tmp_path):
    # 13 rows x 12 cells: CONFIDENCE(0.05,STDEV(Z4:AK4),COUNT(Z4:AK4)) copied across, over
    # the numbers Excel saved in Z:AV. Each equal to Excel's double to 1e-9 (the census's
    # rule); measured: within 4E-15 relative, the last digit or two.
    with DATA.open() as f:
        rows = list(csv.DictReader(f))
    cells, saved = [], {}
    for i, row in enumerate(rows, 1):
        for j in range(23):
            cells.append(c(f"{_col(26 + j)}{i}", None, row[f"in{j}"]))
        for k in range(12):
            rng = f"{_col(26 + k)}{i}:{_col(37 + k)}{i}"
            ref = f"{_col(62 + k)}{i}"
            saved[ref] = float(row[f"saved{k}"])
            cells.append(c(ref, f"CONFIDENCE(0.05,STDEV({rng}),COUNT({rng}))", saved[ref]))
    res = _calc(tmp_path, cells)
    worst = max(abs(res[f"S!{ref}"] - v) / v for ref, v in saved.items())
    assert len(saved) == 156 and all(same(v, res[f"S!{ref}"]) for ref, v in saved.items())
    assert worst < 1e-14


@pytest.mark.parametrize("alpha", [0.001, 0.01, 0.05, 0.1, 0.2, 0.5, 0.9, 0.999])
def test_norm_and_t_against_40_digit_values(tmp_path, alpha):
    # z_{1-alpha/2} sd / sqrt(n) and t_{1-alpha/2, n-1} sd / sqrt(n), computed with mpmath
    # to 40 digits; napkin's (formulas': Python's NormalDist, scipy's t) agree to 1e-12
    # relative, far inside the 15 digits Excel saves and the census's 1e-9.
    points = [(sd, n) for sd in (0.3, 2.5, 1234.5) for n in (2, 3, 10, 50, 1000)]
    cells = []
    for i, (sd, n) in enumerate(points, 1):
        cells += [c(f"A{i}", f"_xlfn.CONFIDENCE.NORM({alpha},{sd},{n})", 0),
                  c(f"B{i}", f"_xlfn.CONFIDENCE.T({alpha},{sd},{n})", 0)]
    res = _calc(tmp_path, cells)
    p = 1 - mpmath.mpf(alpha) / 2
    for i, (sd, n) in enumerate(points, 1):
        norm = float(_z(p) * sd / mpmath.sqrt(n))
        t = float(_t(p, n - 1) * sd / mpmath.sqrt(n))
        assert math.isclose(res[f"S!A{i}"], norm, rel_tol=1e-12), (alpha, sd, n)
        assert math.isclose(res[f"S!B{i}"], t, rel_tol=1e-12), (alpha, sd, n)


def test_errors_as_the_pages_say(tmp_path):
    # #NUM! for alpha 0 or 1, standard_dev 0, size below 1 (CONFIDENCE.NORM's page);
    # CONFIDENCE.T of a size of 1 (1.7 truncated) is #DIV/0! (its page).
    cells = [c("A1", "_xlfn.CONFIDENCE.NORM(0,1,10)", 0), c("A2", "CONFIDENCE(1,1,10)", 0),
             c("A3", "CONFIDENCE(0.05,0,10)", 0), c("A4", "CONFIDENCE(0.05,1,0.5)", 0),
             c("A5", "_xlfn.CONFIDENCE.T(0.05,1,1.7)", 0), c("A6", "_xlfn.CONFIDENCE.T(1,1,5)", 0)]
    res = _calc(tmp_path, cells)
    assert [str(res[f"S!A{i}"]).split()[0] for i in range(1, 7)] == \
        ["#NUM!"] * 4 + ["#DIV/0!", "#NUM!"]


@pytest.mark.parametrize("formula, why", [
    ("_xlfn.CONFIDENCE.T(0.05,1,0.5)", "size below 1"),
    ("CONFIDENCE(0.05,TRUE,10)", "logical value"),
    ("_xlfn.CONFIDENCE.NORM(0.05,1,TRUE)", "logical value"),
])
def test_what_the_pages_leave_open_is_refused(tmp_path, formula, why):
    with pytest.raises(WorkbookError, match=why):
        _calc(tmp_path, [c("A1", formula, 0)])


def test_the_cells_excel_saved_in_formula_stress_test(tmp_path):
    # tests/corpus/sheetjs/formula_stress_test.xlsx, sheet Statistical (the file was refused
    # whole for other causes until 7 December 2026; tests/test_fidelity.py computes it): B15
    # CONFIDENCE(0.3,1,100) and B16 CONFIDENCE.NORM = Excel's 0.10364333894937899, B17
    # CONFIDENCE.T = 0.10418907592517826; B99 RANK.AVG(4,C99:H99) and B100 RANK.EQ over 1, 2, 4,
    # 8, 16, 32 = 4; B118 CHISQ.TEST(D118:I118,D119:I119) over 1..6 and 1.1, 2.2, 3.1, 7, 4, 9 =
    # 0.76649193674651417.
    data = [c(f"{col}{r}", None, v) for r in (99, 100)
            for col, v in zip("CDEFGH", [1, 2, 4, 8, 16, 32], strict=True)]
    data += [c(f"{col}118", None, v) for col, v in zip("DEFGHI", range(1, 7), strict=True)]
    data += [c(f"{col}119", None, v)
             for col, v in zip("DEFGHI", [1.1, 2.2, 3.1, 7, 4, 9], strict=True)]
    saved = {"B15": ("CONFIDENCE(0.3,1,100)", 0.10364333894937899),
             "B16": ("_xlfn.CONFIDENCE.NORM(0.3,1,100)", 0.10364333894937899),
             "B17": ("_xlfn.CONFIDENCE.T(0.3,1,100)", 0.10418907592517826),
             "B99": ("_xlfn.RANK.AVG(4,C99:H99)", 4), "B100": ("_xlfn.RANK.EQ(4,C100:H100)", 4),
             "B118": ("_xlfn.CHISQ.TEST(D118:I118,D119:I119)", 0.76649193674651417)}
    res = _calc(tmp_path, data + [c(ref, f, v) for ref, (f, v) in saved.items()])
    for ref, (_, v) in saved.items():
        assert math.isclose(res[f"S!{ref}"], v, rel_tol=1e-14), ref
