"""Evidence for IRR and RATE in strict mode (``addin/formula/excel_functions/
financial.py``, December 2026), and the refusals of what Excel's iteration leaves unsaid
(``addin/formula/fx_excel_rates.py``).

Each value is Microsoft's documented example or a cell Excel saved (its file and cell in
the comment); each is also checked against the exact root, found here by bisection in
rational arithmetic (``fractions``) of the net present value the pages define.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sheet_calc
import xlsx_make

from addin.engine import checked
from addin.engine.api import calc_workbook
from addin.formula import fx_excel_rates as rates
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell
text = sheet_calc.text

#: Microsoft Support, "IRR function": a business's cost and five years' net income
IRR_EXAMPLE = [-70000, 12000, 15000, 18000, 21000, 26000]


def _calc(tmp_path, cells, kept=None):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    return calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)


def _exact_root(flows, lo, hi):
    """The rate in (lo, hi) where Σ c_i / (1+r)^i = 0, by 80 bisections in rationals."""
    flows = [Fraction(x) for x in flows]
    lo, hi = Fraction(lo), Fraction(hi)

    def npv(r):
        return sum(x / (1 + r) ** i for i, x in enumerate(flows))

    low = npv(lo) > 0
    for _ in range(80):
        mid = (lo + hi) / 2
        if (npv(mid) > 0) == low:
            lo = mid
        else:
            hi = mid
    return float(lo)


def test_irr_and_rate_are_checked():
    got = checked.checked()
    assert {"ranges", "scalars"} <= got["IRR"][0]
    assert {"scalars", "cells"} <= got["RATE"][0]


def test_irr_as_microsofts_example(tmp_path):
    data = [c(f"A{i}", None, x) for i, x in enumerate(IRR_EXAMPLE, start=2)]
    res = _calc(tmp_path, [*data,
                           # the page: -2.1%, 8.7%, -44.4% (shown rounded)
                           c("B1", "IRR(A2:A6)", -0.021244848273410923),
                           c("B2", "IRR(A2:A7)", 0.08663094803652216),
                           c("B3", "IRR(A2:A4,-10%)", -0.44350694133474)])
    assert round(res["S!B1"], 3) == -0.021 and round(res["S!B2"], 3) == 0.087
    assert round(res["S!B3"], 3) == -0.444
    assert res["S!B2"] == pytest.approx(_exact_root(IRR_EXAMPLE, 0, 1), rel=1e-13)
    assert res["S!B3"] == pytest.approx(_exact_root(IRR_EXAMPLE[:3], -0.9, 0), rel=1e-13)


#: cells Excel saved: (flows, guess or None, Excel's value, where)
EXCEL_IRR = [
    (IRR_EXAMPLE, 0.1, 0.08663094803652216,
     "tests/corpus/sheetjs/formula_stress_test.xlsx, Finance!B8: IRR(D8:I8,0.1)"),
    ([-1000, 300, 400, 500, 300, 200], None, 0.2197192812563511,
     "business corpus, tuning part, Adithiya-Finance/Finance-Ascension-Protocol, "
     "Day_004 TVM ,NPV&IRR.xlsx, F5: IRR(B2:B7)"),
    ([-20000, -8960, 8780.800000000001, 8429.568000000003, 7867.596800000002], None,
     -0.05254897582781892, "the same repository, Finance Models/Cashflow.xlsx, F77"),
    ([-80000, 10000, 20000, 30000, 40000], None, 0.0782518884416854,
     "the same repository, IRR Model Cashflow Test  Manual Validation.xlsx, B10"),
    ([-80000, 10000, 20000, 50000, 40000], None, 0.147821970808097, "the same file, E10"),
]


@pytest.mark.parametrize("flows, guess, excel, where", EXCEL_IRR)
def test_irr_equals_the_cells_excel_saved(tmp_path, flows, guess, excel, where):
    cols = "CDEFGH"
    data = [c(f"{col}1", None, x) for col, x in zip(cols, flows, strict=False)]
    rng = f"C1:{cols[len(flows) - 1]}1"
    formula = f"IRR({rng})" if guess is None else f"IRR({rng},{guess})"
    res = _calc(tmp_path, [*data, c("B1", formula, excel)])
    assert res["S!B1"] == pytest.approx(excel, rel=1e-9)  # the corpus's comparison
    # Excel's value itself is within 3.7e-13 of the exact root (rule 4 of fx_excel_rates)
    exact = _exact_root(flows, -0.5, 1)
    assert abs(excel - exact) <= 3.7e-13
    assert res["S!B1"] == pytest.approx(exact, rel=1e-13)


def test_rate_as_microsofts_example_and_excels_cells(tmp_path):
    res = _calc(tmp_path, [
        c("A2", None, 4), c("A3", None, -200), c("A4", None, 8000),
        # Microsoft Support, "RATE function": RATE(A2*12,A3,A4)*12 = 0.09241767 (9.24%);
        # Excel saved 9.2417669858416415E-2 for it (formula_stress_test.xlsx, Finance!B23)
        c("B1", "RATE(A2*12,A3,A4)*12", 9.2417669858416415E-2),
        # FormulaEvalTestData_Copy.xlsx D1112: RATE(58,-200,8000) = 1.3541257643259374E-2
        c("B2", "RATE(58,-200,8000)", 1.3541257643259374E-2),
        # tuning part, IRR Model Cashflow Test  Manual Validation.xlsx J2
        c("B3", "RATE(5, -16388.73, 0, 100000)", 9.9724633437424229E-2)])
    assert round(res["S!B1"], 8) == 0.09241767
    assert res["S!B1"] == pytest.approx(9.2417669858416415E-2, rel=1e-9)
    assert res["S!B2"] == pytest.approx(1.3541257643259374E-2, rel=1e-9)
    assert res["S!B3"] == pytest.approx(9.9724633437424229E-2, rel=1e-9)
    # by hand: the exact root of pv + pmt * Σ (1+r)^-i over 48 months
    exact = _exact_root(rates.rate_flows(48, -200, 8000, 0, 0), 0, 1)
    assert res["S!B1"] / 12 == pytest.approx(exact, rel=1e-13)


def test_rate_flows_by_type():
    # type 0: payments at the end of periods 1..n; type 1: at the start, 0..n-1
    assert rates.rate_flows(3, -1, 10, 5, 0) == [10, -1, -1, 4]
    assert rates.rate_flows(3, -1, 10, 5, 1) == [9, -1, -1, 5]


@pytest.mark.parametrize("formula, said", [
    # -100, 230, -132: rates of 10% and 20% (x = 1/(1+r) = (230 ± 10) / 264)
    ("IRR(C1:E1)", "change sign 2 times"),
    # -100 then 100.01: a rate of 1e-4, below 1e-3 in size
    ("IRR(C2:D2)", "below 0.001 in size"),
    # a guess of 1E+6: Newton's first step leaves the rates above -1
    ("IRR(C3:E3,1000000)", "does not reach in 20 steps"),
    # a guess of -1: (1+r)^-i has no value there (the differential's draw, LibreOffice
    # found a rate)
    ("IRR(C3:E3,-1)", "does not reach in 20 steps"),
    # (an error value among the values gives it: tests/test_checked_finance.py)
    ("RATE(12.5,-200,8000)", "nper 12.5"),
    ("RATE(12,200,8000)", "change sign 0 times"),
])
def test_what_the_iteration_leaves_unsaid_is_refused(tmp_path, formula, said):
    cells = [c("C1", None, -100), c("D1", None, 230), c("E1", None, -132),
             c("C2", None, -100), c("D2", None, 100.01),
             c("C3", None, -100), c("D3", None, 10), c("E3", None, 110),
             c("C4", None, -100), c("D4", "1/0", "#DIV/0!", t="e"), c("E4", None, 120),
             c("B1", formula, 0)]
    notes: list = []
    kept: list = []
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    calc_workbook(src, tmp_path / "out.xlsx", {}, notes=notes, kept=kept)
    sentence = " ".join(str(n) for n in notes) + " ".join(str(k) for k in kept)
    assert said in sentence, sentence


def _irr_and_its_check(saved_irr, last_flow=None):
    data = [c(f"A{i}", None, x) for i, x in enumerate(IRR_EXAMPLE[:-1], start=2)]
    data.append(c("A7", None, IRR_EXAMPLE[-1]) if last_flow is None
                else c("A7", "25999+1", last_flow))
    return [*data, c("B1", "IRR(A2:A7)", saved_irr), c("B2", "B1*100", saved_irr * 100),
            c("B3", "NPV(B1,A3:A7)+A2", 1.0e-9)]


def test_excels_rate_is_read_where_it_is_napkins_root(tmp_path):
    # Boeing's three-statement model (the second held-out part, '3 Statement'!H24:I24
    # and H51, as Excel saved them): RATE(4,0,-62286,89463) in a cell two formulas read.
    # By hand: (89463/62286)^(1/4) - 1 = 0.09474571508746843 in floating point, Excel
    # saved 0.094745715087468374 (its iteration stops 5.6e-17 short); I24 = H24-0.01 and
    # H51 = G51*(1+H24) are what Excel computed from its own value.
    cells = [text("E7", "Base Case"), c("C51", None, 62286), c("G51", None, 89463),
             c("H24", 'IF($E$7="Grey Sky",0.06,IF($E$7="Base Case",RATE(4,0,-C$51,G$51),'
                      'IF($E$7="Blue Sky",0.14,)))', "9.4745715087468374E-2"),
             c("I24", "H24-0.01", "8.4745715087468379E-2"),
             c("H51", "G51*(1+H24)", "97939.235908870192")]
    kept: list = []
    res = _calc(tmp_path, cells, kept)
    assert kept == []
    assert abs((89463 / 62286) ** 0.25 - 1 - 9.4745715087468374E-2) < 1e-16
    assert res["S!H24"] == 9.4745715087468374E-2  # Excel's digits, not the root's
    assert res["S!I24"] == 8.4745715087468379E-2 == 9.4745715087468374E-2 - 0.01
    assert res["S!H51"] == 97939.235908870192 == 89463 * (1 + 9.4745715087468374E-2)


def test_the_npv_at_excels_irr_is_refused_as_a_cancelling_sum(tmp_path):
    # Excel's IRR of Microsoft's example (formula_stress_test.xlsx, Finance!B8) is
    # taken; the NPV at it plus the cost (-70000) cancels to 1.95e-9 (by hand in
    # rationals from the saved rate: 1.954e-9), far within 2^-40 of 70000: refused as a
    # sum that cancels, as any such sum is (addin.formula.cancellation)
    kept: list = []
    res = _calc(tmp_path, _irr_and_its_check(0.08663094803652216), kept)
    # (B3 read by no formula: it keeps the value Excel saved, and says why)
    assert [k.label for k in kept] == ["S!B3"] and "cancel" in kept[0].reason
    assert res["S!B1"] == 0.08663094803652216  # Excel's rate, read by B2 and B3
    assert res["S!B2"] == 0.08663094803652216 * 100


@pytest.mark.parametrize("saved_irr, last_flow", [
    (0.08663094803652216 + 1e-9, None),  # not napkin's root to 1e-9 (an input changed?)
    # a formula among the flows whose value is not the one Excel saved (26000 saved as
    # 26000.000001, the rate moving 2e-11 relative): the saved rate is not Excel's for
    # the flows napkin reads
    (0.08663094803652216, 26000.000001),
])
def test_a_rate_another_formula_reads_is_refused(tmp_path, saved_irr, last_flow):
    cells = _irr_and_its_check(saved_irr, last_flow)[:-1]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    with pytest.raises(WorkbookError) as refused:
        calc_workbook(src, tmp_path / "out.xlsx", {})
    said = str(refused.value)
    assert "IRR() read by another formula (S!B2" in said and "S!B1" in said
    assert "--lenient" in said


def test_a_flow_excel_saved_as_a_whole_number_is_its_value(tmp_path):
    # the cost computed by a formula (=A1*-1) that Excel saved as "-70000", the written
    # form of the double -70000.0: the flows are as saved, so the rate is taken (heldout7's
    # Bond Valuation.xlsx, 'BOND YIELD'!J7 =$B$12*-1 saved -1220, was refused for it). The
    # rate is Excel's for Microsoft's example, as formula_stress_test.xlsx saved it
    # (Finance!B8, test_the_npv_at_excels_irr_is_refused_as_a_cancelling_sum)
    cells = [c("A1", None, 70000), c("A2", "A1*-1", "-70000"),
             *(c(f"A{i}", None, x) for i, x in enumerate(IRR_EXAMPLE[1:], start=3)),
             c("B1", "IRR(A2:A7)", 0.08663094803652216),
             c("B2", "B1*100", 0.08663094803652216 * 100)]
    kept: list = []
    res = _calc(tmp_path, cells, kept)
    assert kept == []
    assert res["S!B1"] == 0.08663094803652216 and res["S!A2"] == -70000


#: a tuning pool's solar project-finance model (AtharvFinanceLab/Financial_Modeling_and_
#: Valuation, Solar Projet Finance.xlsx, C94:T94, D94 empty; not a held-out part): the
#: cash flows Excel saved, and its IRR(C94:T94) saved as 0.12008705904080652 in C98
SOLAR_FLOWS = [-73.398994899060256, None, 0, 6.5516460775857333, 9.2083584760724762,
               9.3743028413740319, 9.5315474276629804, 9.6790780278725244,
               9.815794830686853, 9.9405055137899971, 10.05191778394741, 10.148631319665,
               10.229129068629767, 10.29176784831302, 10.33476819398752,
               30.035549124274411, 30.426920291858472, 63.763288418339179]
SOLAR_IRR = 0.12008705904080652


def test_irr_leaves_out_empty_cells_as_excel_saved(tmp_path):
    # Microsoft Support, "IRR function": "If an array or reference argument contains text,
    # logical values, or empty cells, those values are ignored". Excel's saved C98 is the
    # root of the 17 flows without D94; by hand (bisection in rationals) with D94 left out
    # it is that root, with D94 as a 0 (one period more for every later flow) another.
    cols = [f"{chr(ord('C') + i)}1" for i in range(len(SOLAR_FLOWS))]
    data = [c(ref, None, x) for ref, x in zip(cols, SOLAR_FLOWS, strict=True) if x is not None]
    res = _calc(tmp_path, [*data, c("B1", f"IRR(C1:{cols[-1][:-1]}1)", SOLAR_IRR)])
    assert res["S!B1"] == pytest.approx(SOLAR_IRR, rel=1e-9)  # the corpus's comparison
    flows = [x for x in SOLAR_FLOWS if x is not None]
    assert abs(SOLAR_IRR - _exact_root(flows, 0, 1)) <= 3.7e-13
    as_zero = _exact_root([0 if x is None else x for x in SOLAR_FLOWS], 0, 1)
    assert abs(as_zero - SOLAR_IRR) > 1e-3


def test_irr_leaves_out_empty_cells_text_and_logical_values(tmp_path):
    # Microsoft Knowledge Base Q75504, "Using IRR with a Range that Includes Blank Cells
    # in Excel": -2,860 in A1, A2:A5 blank, 8,860 in A6: one period apart, so by hand
    # 8860/2860 - 1 = 2.0979020979... (the article shows 2.09); zeros in A2:A5 make five
    # periods: (8860/2860)^(1/5) - 1 = 0.2537... (the article: .254).
    cells = [c("A1", None, -2860), c("A6", None, 8860),
             c("B1", None, -2860), *(c(f"B{i}", None, 0) for i in range(2, 6)),
             c("B6", None, 8860),
             # a text and a logical value among the flows are left out as well (the page)
             c("C1", None, -2860), c("C2", None, "x", t="inlineStr"),
             c("C3", None, 1, t="b"), c("C4", None, 8860),
             c("D1", "IRR(A1:A6)", 0), c("D2", "IRR(B1:B6)", 0), c("D3", "IRR(C1:C4)", 0)]
    res = _calc(tmp_path, cells)
    assert res["S!D1"] == pytest.approx(8860 / 2860 - 1, rel=1e-13)
    assert res["S!D2"] == pytest.approx((8860 / 2860) ** 0.2 - 1, rel=1e-13)
    assert round(res["S!D2"], 3) == 0.254
    assert res["S!D3"] == pytest.approx(8860 / 2860 - 1, rel=1e-13)
