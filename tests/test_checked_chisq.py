"""CHISQ.TEST in strict mode (addin/formula/fx_excel_stats.py, chisq_test_settled):
Microsoft's example, the cell Excel saved in part heldout6 of tools/business_corpus.csv,
and 40-digit values (mpmath) at many points.

Microsoft Support, "CHISQ.TEST function": the statistic sum((A - E)^2 / E), its degrees of
freedom (r - 1)(c - 1), c - 1 for one row, r - 1 for one column; the result the
chi-squared distribution's right tail, the regularized upper incomplete gamma
Q(df/2, x/2)."""

from __future__ import annotations

import math

import mpmath
import pytest
import xlsx_make

from addin.engine import checked
from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell
mpmath.mp.dps = 40


def _grid(col: str, row: int, rows) -> list[str]:
    out = []
    for i, r in enumerate(rows):
        for j, v in enumerate(r):
            out.append(c(f"{chr(ord(col) + j)}{row + i}", None, v))
    return out


def _exact(actual, expected) -> float:
    """The right tail of chi-squared at sum((A - E)^2 / E), 40 digits."""
    x = sum((mpmath.mpf(a) - mpmath.mpf(repr(e))) ** 2 / mpmath.mpf(repr(e))
            for ra, re in zip(actual, expected, strict=True) for a, e in zip(ra, re, strict=True))
    r, k = len(actual), len(actual[0])
    df = (r - 1) * (k - 1) if r > 1 and k > 1 else max(r, k) - 1
    return float(mpmath.gammainc(mpmath.mpf(df) / 2, x / 2, mpmath.inf, regularized=True))


def _calc(tmp_path, cells):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    return calc_workbook(src, tmp_path / "out.xlsx", {})


def test_chisq_test_is_checked():
    assert "ranges" in checked.checked()["CHISQ.TEST"][0]


def test_microsoft_example_and_the_cell_excel_saved(tmp_path):
    # The page's example: 0.0003082 (3 x 2: 2 degrees of freedom; exactly exp(-x/2)).
    # A-B Testing.xlsx (part heldout6), L47 = CHISQ.TEST(L36:M37,L42:M43) over actual
    # 4143, 857; 3848, 1152 and expected 3995.5, 1004.5 twice: Excel saved
    # 1.8035589814179596E-13; the 40-digit value is 1.8035589814179525E-13 (Excel's
    # 3.9E-15 from it, napkin's within 1e-13 relative).
    page_a, page_e = [[58, 35], [11, 25], [10, 23]], [[45.35, 47.65], [17.56, 18.44],
                                                       [16.09, 16.91]]
    ab_a, ab_e = [[4143, 857], [3848, 1152]], [[3995.5, 1004.5], [3995.5, 1004.5]]
    cells = [*_grid("A", 2, page_a), *_grid("A", 6, page_e), *_grid("D", 2, ab_a),
             *_grid("D", 6, ab_e), c("H1", "_xlfn.CHISQ.TEST(A2:B4,A6:B8)", 0),
             c("H2", "_xlfn.CHISQ.TEST(D2:E3,D6:E7)", 1.8035589814179596E-13)]
    res = _calc(tmp_path, cells)
    assert round(res["S!H1"], 7) == 0.0003082
    assert math.isclose(res["S!H1"], _exact(page_a, page_e), rel_tol=1e-12)
    assert math.isclose(res["S!H2"], 1.8035589814179596E-13, rel_tol=1e-14)
    assert math.isclose(res["S!H2"], _exact(ab_a, ab_e), rel_tol=1e-13)


@pytest.mark.parametrize("shape", [(1, 4), (5, 1), (2, 2), (3, 4), (6, 3)])
def test_against_40_digit_values(tmp_path, shape):
    # Deterministic counts and expectations (a fixed pattern), tails from about 0.9 down
    # to 1E-30: napkin's (scipy's chi2.sf) within 1e-12 relative of the 40-digit value.
    r, k = shape
    for scale in (1, 3, 10):
        actual = [[(7 * i + 3 * j) % 11 * scale + 5 for j in range(k)] for i in range(r)]
        expected = [[(5 * i + 2 * j) % 7 * scale * 0.9 + 6.5 for j in range(k)]
                    for i in range(r)]
        cells = [*_grid("A", 1, actual), *_grid("J", 1, expected),
                 c("T1", f"_xlfn.CHISQ.TEST(A1:{chr(64 + k)}{r},J1:{chr(73 + k)}{r})", 0)]
        res = _calc(tmp_path, cells)
        assert math.isclose(res["S!T1"], _exact(actual, expected), rel_tol=1e-12), \
            (shape, scale)


def test_different_numbers_of_points_are_na(tmp_path):
    # "If actual_range and expected_range have a different number of data points,
    # CHISQ.TEST returns the #N/A error value."
    cells = [*_grid("A", 1, [[1, 2], [3, 4]]), *_grid("D", 1, [[1, 2, 3]]),
             c("H1", "_xlfn.CHISQ.TEST(A1:B2,D1:F1)", "#N/A", t="e")]
    assert str(_calc(tmp_path, cells)["S!H1"]).split()[0] == "#N/A"


@pytest.mark.parametrize("expected_cells, why", [
    ([c("D1", None, 1), c("E1", None, 2), c("D2", None, 3)], "empty cell"),
    ([c("D1", None, 1), c("E1", None, 2), c("D2", None, 3), c("E2", None, 0)], "0 or below"),
])
def test_what_the_page_leaves_open_is_refused(tmp_path, expected_cells, why):
    cells = [*_grid("A", 1, [[1, 2], [3, 4]]), *expected_cells,
             c("H1", "_xlfn.CHISQ.TEST(A1:B2,D1:E2)", 0)]
    with pytest.raises(WorkbookError, match=why):
        _calc(tmp_path, cells)


def test_two_shapes_of_one_count_are_refused(tmp_path):
    cells = [*_grid("A", 1, [[1, 2], [3, 4]]), *_grid("D", 1, [[1, 2, 3, 4]]),
             c("H1", "_xlfn.CHISQ.TEST(A1:B2,D1:G1)", 0)]
    with pytest.raises(WorkbookError, match="two shapes"):
        _calc(tmp_path, cells)
