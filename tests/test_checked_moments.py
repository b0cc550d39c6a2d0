"""KURT, SKEW and CHISQ.DIST.RT checked against Microsoft's examples
(``addin/formula/excel_functions/distributions.py``): the business corpus's sixteenth part
(seen) kept 25 cells of them, "function not checked". The values are the pages' own, to the
digits they print."""

from __future__ import annotations

import pytest
import sheet_calc
import xlsx_make

c = xlsx_make.cell
#: Microsoft Support, "KURT function" and "SKEW function": the data of their examples
DATA = [3, 4, 5, 2, 3, 4, 5, 6, 4, 7]


def test_kurt_and_skew_as_the_pages_give_them(tmp_path):
    # KURT(A2:A11) = -0.151799637 (Microsoft Support, "KURT function"; Microsoft Office 97
    # help: KURT(3,4,5,2,3,4,5,6,4,7) returns -0.1518); SKEW(A2:A11) = 0.359543071
    # ("SKEW function"); fewer than four points (KURT), three (SKEW), or all equal: #DIV/0!
    cells = [c(f"A{r}", None, v) for r, v in enumerate(DATA, start=2)]
    cells += [c("B1", "KURT(A2:A11)", -0.151799637), c("B2", "SKEW(A2:A11)", 0.359543071),
              c("B3", "KURT(3,4,5,2,3,4,5,6,4,7)", -0.151799637),
              c("B4", "KURT(1,2,3)", "#DIV/0!", t="e"), c("B5", "SKEW(4,4,4)", "#DIV/0!", t="e")]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {}
    assert res["S!B1"] == pytest.approx(-0.151799637, abs=5e-10)
    assert res["S!B2"] == pytest.approx(0.359543071, abs=5e-10)
    assert res["S!B3"] == res["S!B1"]
    assert res["S!B4"].code == res["S!B5"].code == "#DIV/0!"


def test_chisq_dist_rt_as_its_page_gives_it(tmp_path):
    # Microsoft Support, "CHISQ.DIST.RT function": CHISQ.DIST.RT(18.307,10) = 0.0500006;
    # deg_freedom is truncated (10.7 is 10); deg_freedom below 1: #NUM!; x below 0: #NUM!
    # ("CHIDIST function", the function CHISQ.DIST.RT replaces; ECMA-376 Part 4, CHIDIST)
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        c("A1", "_xlfn.CHISQ.DIST.RT(18.307,10)", 0.0500006),
        c("A2", "_xlfn.CHISQ.DIST.RT(18.307,10.7)", 0.0500006),
        c("A3", "_xlfn.CHISQ.DIST.RT(-1,10)", "#NUM!", t="e"),
        c("A4", "_xlfn.CHISQ.DIST.RT(3,0.5)", "#NUM!", t="e")])
    assert kept == {}
    assert res["S!A1"] == pytest.approx(0.0500006, abs=5e-8) and res["S!A2"] == res["S!A1"]
    assert res["S!A3"].code == res["S!A4"].code == "#NUM!"
