"""Evidence for an empty cell given to the math, statistical and logical functions
(``addin/formula/excel_functions/``, December 2026): ROUND, ROUNDUP, ROUNDDOWN, TRUNC (and
a reference to one cell), MOD, POWER, SQRT, SIN, COT, LOG10, ATAN2, CEILING, FLOOR, MROUND,
ODD, COMBIN, DELTA, PRODUCT, SMALL,
STDEV, STDEVP, VAR, VARP, HARMEAN, MODE, AND, OR, NOT, NORM.DIST, NORM.INV, NORM.S.DIST,
NORM.S.INV, NORMINV, NORMSINV, POISSON, POISSON.DIST, BETA.DIST, BETADIST, SUMX2MY2,
SUMX2PY2 and SUMXMY2.

An empty cell reaches a function in two ways, with two meanings in Excel:

* a reference to one cell in a number's place is read as 0 (Microsoft KB Q149577, "XL:
  Formula to Correctly Evaluate Blank Cells": "Microsoft Excel interprets a blank cell as
  zero"), and the cells Excel saved in ``tests/corpus/poi/FormulaEvalTestData_Copy.xlsx``
  (EverythingTests, column D empty): ROUND(D7,D8) = 0 (J1180), ROUNDDOWN(D7,-1) = 0
  (H1184), POWER(C9,D7) = 1 (I1068), MOD(D17,D16) = #DIV/0! (I932), CEILING(D9,D10) = 0
  (F212), CEILING(C12,D11) = 0 (G212);
* in a reference given to an aggregate it is left out: Microsoft Support, "STDEV
  function" (and STDEVP, VAR, VARP: "Empty cells, logical values, text, or error values in
  the array or reference are ignored"), "PRODUCT function" ("only the numbers in the
  array or reference are multiplied"; WorksheetFunction.Product: "Empty cells ... are
  ignored"), "SMALL function", "HARMEAN function", "MODE function", "AND function" and
  "OR function" ("If an array or reference argument contains text or empty cells, those
  values are ignored"; "If the specified range contains no logical values, AND returns
  the #VALUE! error value"). A reference to one cell is a reference: OR(D7,E7,E8,B18) =
  #VALUE! (G1020, none of them a logical value), AND(B7:B9,C9,D7,E7) = FALSE (D136),
  PRODUCT(D7:D10) = 0 (L1084), SMALL(C7:D11,3) = 1.00001 (F1272), SMALL(D7:E10,2) = #NUM!
  (G1272). SUMX2MY2, SUMX2PY2 and SUMXMY2 leave out a pair with an empty cell, #DIV/0! when
  none is left: SUMX2PY2(C8:C10,B15:D15) = 3.2100200002 (E1340: 1E-10 + 1 + 1.21 +
  1.0000200001, the pair of C10 with the empty D15 left out; its two shapes still refused),
  SUMXMY2(D7:D11,C8:C12) = #DIV/0! (G1344).

Refused where no page or saved cell gives the value of the 0 an empty cell is read as:
FLOOR's significance (FLOOR(x,0)), MROUND's multiple (MROUND(x,0)), POISSON's mean;
AVERAGEA (its page's example contradicts its rule) and BETA.INV (formulas fails on an
empty A or B) are not widened.
"""

from __future__ import annotations

import math
import re

import pytest
import xlsx_make

from addin.engine import checked
from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell

WIDENED = ("ROUND", "ROUNDUP", "ROUNDDOWN", "TRUNC", "MOD", "POWER", "SQRT", "SIN", "COT", "LOG10",
           "ATAN2", "CEILING", "FLOOR", "MROUND", "ODD", "COMBIN", "DELTA", "PRODUCT", "SMALL",
           "STDEV", "STDEVP", "VAR", "VARP", "HARMEAN", "MODE", "AND", "OR", "NOT",
           "NORM.DIST", "NORM.INV", "NORM.S.DIST", "NORM.S.INV", "NORMINV", "NORMSINV",
           "POISSON", "POISSON.DIST", "BETA.DIST", "BETADIST", "SUMX2MY2", "SUMX2PY2",
           "SUMXMY2")

#: the inputs: A1, A2 empty; A3 2, A4 5, A5 TRUE, A6 the text "x", A7 0.5, A8 3
INPUTS = [c("A3", None, 2), c("A4", None, 5), c("A5", None, 1, t="b"),
          c("A6", None, "x", t="inlineStr"), c("A7", None, 0.5), c("A8", None, 3)]


def _calc(tmp_path, formulas: dict[str, object]):
    cells = INPUTS + [c(f"B{i}", f, None) for i, f in enumerate(formulas, 1)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    return {f: res[f"S!B{i}"] for i, f in enumerate(formulas, 1)}


def _same(got, want) -> bool:
    if isinstance(want, str) and want.startswith("#"):
        return str(getattr(got, "code", got)) == want or str(got).startswith(want)
    if isinstance(want, bool):
        return got is want or got == want and isinstance(got, bool)
    return isinstance(got, (int, float)) and not isinstance(got, bool) and \
        got == pytest.approx(want, rel=1e-12, abs=0)


def test_declared():
    for name in WIDENED:
        assert "empty" in checked.checked()[name][0], name
    for name in ("AVERAGEA", "BETA.INV", "MODE.MULT", "CEILING.MATH"):
        assert "empty" not in checked.checked()[name][0], name


def test_an_empty_cell_in_a_numbers_place_is_0(tmp_path):
    want = {
        "ROUND(A1,2)": 0,  # ROUND(0,2); as J1180 ROUND(D7,D8) = 0
        "ROUND(2.567,A1)": 3,  # num_digits 0: the nearest integer (ROUND's page)
        "ROUNDUP(A1,1)": 0, "ROUNDUP(2.1,A1)": 3,  # 2.1 up, away from 0, to 0 digits
        "ROUNDDOWN(2.9,A1)": 2, "ROUNDDOWN(A1,-1)": 0,  # H1184: 0
        "TRUNC(A1)": 0, "TRUNC(8.97,A1)": 8, "TRUNC(-8.9,A1)": -8,  # num_digits 0 (its page)
        "TRUNC(A7)": 0, "TRUNC(A7,A8)": 0.5,  # cells: 0.5 to 0 and to 3 digits
        "MOD(A1,3)": 0,  # 0 - 3*INT(0/3) = 0 (MOD's page: n - d*INT(n/d))
        "MOD(5,A1)": "#DIV/0!",  # MOD's page: divisor 0; I932 MOD(D17,D16) = #DIV/0!
        "POWER(A1,2)": 0, "POWER(3,A1)": 1,  # 3^0 = 1, as I1068 POWER(C9,D7) = 1
        "SQRT(A1)": 0, "SIN(A1)": 0,
        "COT(A1)": "#DIV/0!",  # COT's page: "COT(0) returns the #DIV/0! error value"
        "LOG10(A1)": "#NUM!",  # log of 0: no number (as LOG10(0))
        "ATAN2(A1,A2)": "#DIV/0!",  # ATAN2's page: both 0; D168 ATAN2(B7,B7), B7 = 0
        "ATAN2(A1,1)": math.pi / 2,  # the angle of (0, 1); E168 ATAN2(B7,B8) = pi/2
        "ATAN2(1,A1)": 0,  # the angle of (1, 0)
        "CEILING(A1,1)": 0, "CEILING(2.5,A1)": 0,  # G212 CEILING(C12,D11) = 0
        "FLOOR(A1,1)": 0,  # 0 is a multiple of 1
        "MROUND(A1,3)": 0,
        "ODD(A1)": 1,  # 0 rounded up, away from 0, to the nearest odd integer
        "COMBIN(A1,0)": 1, "COMBIN(5,A1)": 1,  # C(0,0) = C(5,0) = 1
        "COMBIN(A1,1)": "#NUM!",  # COMBIN's page: number < number_chosen
        "DELTA(A1)": 1, "DELTA(A1,1)": 0,  # DELTA(0,0) = 1, DELTA(0,1) = 0 (its page)
        "NOT(A1)": True,  # NOT(0) = TRUE, as D980 NOT(0)
        "_xlfn.NORM.DIST(A1,0,1,TRUE)": 0.5,  # the standard normal's cdf at its mean
        "_xlfn.NORM.DIST(1,A1,1,FALSE)": math.exp(-0.5) / math.sqrt(2 * math.pi),
        "_xlfn.NORM.DIST(1,0,A1,TRUE)": "#NUM!",  # its page: standard_dev <= 0
        "_xlfn.NORM.S.DIST(A1,TRUE)": 0.5,
        "_xlfn.NORM.INV(0.5,A1,1)": 0, "NORMINV(0.5,A1,1)": 0,  # the median is the mean
        "_xlfn.NORM.INV(A1,0,1)": "#NUM!",  # its page: probability <= 0
        "_xlfn.NORM.INV(0.5,0,A1)": "#NUM!",  # its page: standard_dev <= 0
        "_xlfn.NORM.S.INV(A1)": "#NUM!", "NORMSINV(A1)": "#NUM!",
        "POISSON(A1,2,TRUE)": math.exp(-2),  # P(X <= 0) = e^-2
        "_xlfn.POISSON.DIST(A1,2,FALSE)": math.exp(-2),
        "_xlfn.BETA.DIST(A1,2,3,TRUE)": 0,  # x = A = 0: the cdf at its lower bound
        # A empty (0): I_0.5(2,3) = sum of C(4,j)/16 for j = 2..4 = 11/16
        "_xlfn.BETA.DIST(0.5,2,3,TRUE,A1)": 11 / 16, "BETADIST(0.5,2,3,A1)": 11 / 16,
        "BETADIST(A1,2,3)": 0,
        "_xlfn.BETA.DIST(0.5,A1,3,TRUE)": "#NUM!",  # its page: alpha <= 0
        "_xlfn.BETA.DIST(0.5,2,3,TRUE,A1,A2)": "#NUM!",  # its page: A = B
    }
    got = _calc(tmp_path, want)
    bad = {f: got[f] for f, w in want.items() if not _same(got[f], w)}
    assert not bad, bad


def test_an_empty_cell_in_a_reference_is_left_out(tmp_path):
    want = {
        "PRODUCT(A1:A4)": 10,  # 2*5, the empty cells left out
        "PRODUCT(A1,2)": 2,  # a reference's empty cell left out, not read as 0
        "PRODUCT(A1:A2)": 0,  # no number: 0, as L1084 PRODUCT(D7:D10) = 0
        "SMALL(A1:A4,1)": 2,
        "SMALL(A1:A4,A2)": "#NUM!",  # k empty (0): its page, k <= 0
        "SMALL(A1,1)": "#NUM!",  # no number: its page, an empty array; as G1272
        # of 2 and 5: mean 3.5, squares 2.25 + 2.25 = 4.5; over n-1 = 1, over n = 2
        "STDEV(A1:A4)": math.sqrt(4.5), "STDEV(A1,A3,A4)": math.sqrt(4.5),
        "STDEVP(A1:A4)": 1.5, "VAR(A1:A4)": 4.5, "VAR(A1,A3,A4)": 4.5, "VARP(A1:A4)": 2.25,
        "HARMEAN(A1:A4)": 2 / (1 / 2 + 1 / 5),
        "MODE(A1:A8)": "#N/A",  # 2, 5, 0.5, 3: no value twice (its page)
        "AND(A1)": "#VALUE!",  # no logical value left (the page); as G1020 for OR
        "AND(A1,TRUE)": True, "AND(A1:A5)": True,  # 2, 5 and TRUE all TRUE
        "OR(A1)": "#VALUE!", "OR(A1,FALSE)": False, "OR(A1:A5)": True,
        "OR(A1:A2)": "#VALUE!",
        # pairs (empty, 0.5), (2, 3), (5, empty): only (2, 3) kept (E1340 leaves out a pair
        # with an empty cell); none kept: #DIV/0!, as G1344 SUMXMY2(D7:D11,C8:C12)
        "SUMX2MY2(A2:A4,A7:A9)": 4 - 9, "SUMX2PY2(A2:A4,A7:A9)": 4 + 9,
        "SUMXMY2(A2:A4,A7:A9)": (2 - 3) ** 2, "SUMX2PY2(A1:A2,A9:A10)": "#DIV/0!",
    }
    got = _calc(tmp_path, want)
    bad = {f: got[f] for f, w in want.items() if not _same(got[f], w)}
    assert not bad, bad


@pytest.mark.parametrize("formula, says", [
    ("FLOOR(2.5,A1)", "FLOOR() given an empty cell as its significance"),
    ("MROUND(5,A1)", "MROUND() given an empty cell as its multiple"),
    ("POISSON(2,A1,FALSE)", "POISSON.DIST() with a mean of 0"),
    ("AVERAGEA(A1:A4)", "AVERAGEA() given an empty cell"),
    ("_xlfn.BETA.INV(0.5,2,3,A1)", "BETA.INV() given an empty cell"),
    # an empty cell is 0 to the checks of addin/formula/fx_excel_stats.py too: alpha out of
    # the range checked, the density at A
    ("_xlfn.BETA.DIST(0.5,0.001,3,TRUE,A1)", "alpha or beta outside 0.01 to 10,000"),
    ("_xlfn.BETA.DIST(A1,2,3,FALSE)", "the density at A or B"),
])
def test_what_no_page_settles_is_refused(tmp_path, formula, says):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": INPUTS + [c("B1", formula, None),
                                                                c("C1", "B1+1", None)]})
    with pytest.raises(WorkbookError, match=re.escape(says)):
        calc_workbook(src, tmp_path / "out.xlsx", {})


def test_the_cells_excel_saved(tmp_path):
    # FormulaEvalTestData, EverythingTests: column D empty; B7 = 0, B8 = 1, B9 = 2, C7 = 0,
    # C8 = 1E-05, C9 = 1.1, C10 = 1.00001, C11 = 2.99999, C12 = 999999.99999; E7 = "" (a
    # formula's), E8 "nospaces", B18 ="TRUE" (a formula's text); each cell with Excel's value
    cells = [c("B7", None, 0), c("B8", None, 1), c("B9", None, 2), c("C7", None, 0),
             c("C8", None, 1e-05), c("C9", None, 1.1), c("C10", None, 1.00001),
             c("C11", None, 2.99999), c("C12", None, 999999.99999),
             c("E7", '""', "", t="str"), c("E8", None, "nospaces", t="inlineStr"),
             c("B18", '"TRUE"', "TRUE", t="str")]
    want = {"ROUND(D7,D8)": 0, "ROUNDDOWN(D7,-1)": 0, "POWER(C9,D7)": 1,
            "MOD(D17,D16)": "#DIV/0!", "CEILING(D9,D10)": 0, "CEILING(C12,D11)": 0,
            "PRODUCT(D7:D10)": 0, "SMALL(C7:D11,3)": 1.00001, "SMALL(D7:E10,2)": "#NUM!",
            "AND(B7:B9,C9,D7,E7)": False, "OR(D7,E7,E8,B18)": "#VALUE!",
            "SUMXMY2(D7:D11,C8:C12)": "#DIV/0!"}
    cells += [c(f"G{i}", f, None) for i, f in enumerate(want, 30)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    bad = {f: res[f"S!G{i}"] for i, (f, w) in enumerate(want.items(), 30)
           if not _same(res[f"S!G{i}"], w)}
    assert not bad, bad
