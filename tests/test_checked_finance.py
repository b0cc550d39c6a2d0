"""DDB, SYD, CUMIPMT, CUMPRINC, EFFECT, NOMINAL and MIRR checked in strict mode, and IRR
given error values (``addin/formula/excel_functions/financial.py``, December 2026).

Each value is Microsoft's documented example or a cell Excel saved, worked by hand here
from the function's formula on its page (the source in each comment); what the pages
leave unsaid is refused (``addin/excel/depreciation.py``, ``annuity.py``,
``rate_conversions.py``)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy_financial as npf
import pytest
import xlsx_make

from addin.engine import checked
from addin.ooxml.guard import WorkbookError

NEW = ("DDB", "SYD", "CUMIPMT", "CUMPRINC", "EFFECT", "NOMINAL", "MIRR")


def _one(tmp_path, formula, cells=None):
    formula = formula if formula.startswith("=") else f"={formula}"
    return xlsx_make.calc(tmp_path, {"S": {**(cells or {}), "Z1": formula}})["S!Z1"]


def _ddb(cost, salvage, life, period, factor=2):
    """Microsoft Support, "DDB function": each period min((cost - total depreciation from
    prior periods) * (factor/life), cost - salvage - total depreciation from prior
    periods), in rationals."""
    c, s, f, n = Fraction(cost), Fraction(salvage), Fraction(factor), Fraction(life)
    prior = dep = Fraction(0)
    for _ in range(period):
        dep = min((c - prior) * f / n, c - s - prior)
        prior += dep
    return float(dep)


def _syd(cost, salvage, life, per):
    """Microsoft Support, "SYD function": ((cost - salvage) * (life - per + 1) * 2) /
    (life * (life + 1)), in rationals."""
    return float(Fraction((cost - salvage) * (life - per + 1) * 2, life * (life + 1)))


def _loan(rate, nper, pv, start, end, due=0):
    """CUMIPMT and CUMPRINC by hand, in rationals: the payment from the annuity equation
    (Microsoft Support, "PV function": pv*(1+rate)^nper + pmt*(1+rate*type)*((1+rate)^nper
    - 1)/rate = 0), then the balance walked period by period, each period's interest
    rate * balance (none in period 1 when paid at its start), the rest principal."""
    r, p = Fraction(rate), Fraction(pv)
    g = (1 + r) ** nper
    pmt = -p * g * r / ((1 + r * due) * (g - 1))
    balance, interest, principal = p, Fraction(0), Fraction(0)
    for k in range(1, end + 1):
        i = Fraction(0) if due and k == 1 else -balance * r  # (balance after k-1)
        if k >= start:
            interest, principal = interest + i, principal + pmt - i
        balance += pmt - i
    return float(interest), float(principal)


def test_the_new_functions_are_checked():
    got = checked.checked()
    for name in NEW:
        assert {"scalars", "cells"} <= got[name][0], name
    assert {"ranges", "arrays", "empty"} <= got["MIRR"][0]
    assert "errors" in got["IRR"][0]


@pytest.mark.parametrize("formula, hand, shown", [
    # "DDB function": 2,400, salvage 300, 10 years: the first day 1.32, the first month
    # 40.00, the first year 480.00, the second at factor 1.5 306.00, the tenth 22.12
    ("DDB(2400,300,10*365,1)", _ddb(2400, 300, 3650, 1), 1.32),
    ("DDB(2400,300,10*12,1,2)", _ddb(2400, 300, 120, 1), 40.00),
    ("DDB(2400,300,10,1,2)", _ddb(2400, 300, 10, 1), 480.00),
    ("DDB(2400,300,10,2,1.5)", _ddb(2400, 300, 10, 2, Fraction(3, 2)), 306.00),
    ("DDB(2400,300,10,10)", _ddb(2400, 300, 10, 10), 22.12),
    # "SYD function": 30,000, salvage 7,500, 10 years: year 1 4,090.91, year 10 409.09
    ("SYD(30000,7500,10,1)", _syd(30000, 7500, 10, 1), 4090.91),
    ("SYD(30000,7500,10,10)", _syd(30000, 7500, 10, 10), 409.09),
    # "CUMIPMT function", "CUMPRINC function": 9% a year, 30 years, 125,000; the second
    # year (periods 13 to 24) -11,135.23213 and -934.1071234; the first month -937.5 and
    # -68.27827118
    ("CUMIPMT(9%/12,30*12,125000,13,24,0)", _loan(0.09 / 12, 360, 125000, 13, 24)[0],
     -11135.23213),
    ("CUMIPMT(9%/12,30*12,125000,1,1,0)", _loan(0.09 / 12, 360, 125000, 1, 1)[0], -937.5),
    ("CUMPRINC(9%/12,30*12,125000,13,24,0)", _loan(0.09 / 12, 360, 125000, 13, 24)[1],
     -934.1071234),
    ("CUMPRINC(9%/12,30*12,125000,1,1,0)", _loan(0.09 / 12, 360, 125000, 1, 1)[1],
     -68.27827118),
    # "EFFECT function": EFFECT(5.25%,4) 0.0535427 = (1 + 0.0525/4)^4 - 1; "NOMINAL
    # function": NOMINAL(5.3543%,4) 0.05250032 = ((1 + 0.053543)^(1/4) - 1) * 4
    ("EFFECT(5.25%,4)", float((1 + Fraction(525, 40000)) ** 4 - 1), 0.0535427),
    ("NOMINAL(5.3543%,4)", (1.053543 ** 0.25 - 1) * 4, 0.05250032),
    ("NOMINAL(5.3543%,4.9)", (1.053543 ** 0.25 - 1) * 4, 0.05250032),  # npery truncated
])
def test_microsofts_examples(tmp_path, formula, hand, shown):
    got = _one(tmp_path, formula)
    assert got == pytest.approx(hand, rel=1e-12)
    digits = len(str(shown).split(".")[1])
    assert round(got, digits) == pytest.approx(shown)


def _mirr(flows, frate, rrate):
    """Microsoft Support, "MIRR function": ((-NPV(rrate, positive) * (1+rrate)^n) /
    (NPV(frate, negative) * (1+frate)))^(1/(n-1)) - 1, NPV's sum from period 1, the
    ratio in rationals."""
    n = len(flows)

    def npv(r, xs):
        return sum(Fraction(x) / (1 + Fraction(r)) ** i for i, x in enumerate(xs, 1))
    pos = [max(x, 0) for x in flows]
    neg = [min(x, 0) for x in flows]
    ratio = -npv(rrate, pos) * (1 + Fraction(rrate)) ** n / \
        (npv(frate, neg) * (1 + Fraction(frate)))
    return float(ratio) ** (1 / (n - 1)) - 1


MIRR_FLOWS = [-120000, 39000, 30000, 21000, 37000, 46000]


def test_mirr_as_microsofts_example_and_excels_cell(tmp_path):
    # "MIRR function": the example above at 10% and 12%: 13%; its first four: -5%; at 14%:
    # 13%; Excel saved the first as 0.12609413036590511 (tests/corpus/sheetjs/
    # formula_stress_test.xlsx, Finance!B9)
    cells = {f"A{i}": x for i, x in enumerate(MIRR_FLOWS, start=1)}
    cells.update({"B1": 0.1, "B2": 0.12, "C1": "=MIRR(A1:A6,B1,B2)", "C2": "=MIRR(A1:A4,B1,B2)",
                  "C3": "=MIRR(A1:A6,B1,14%)"})
    res = xlsx_make.calc(tmp_path, {"S": cells})
    assert res["S!C1"] == pytest.approx(_mirr(MIRR_FLOWS, 0.1, 0.12), rel=1e-13)
    assert res["S!C1"] == pytest.approx(0.12609413036590511, rel=1e-15)
    assert round(res["S!C1"], 2) == 0.13
    assert res["S!C2"] == pytest.approx(_mirr(MIRR_FLOWS[:4], 0.1, 0.12), rel=1e-13)
    assert round(res["S!C2"], 2) == -0.05
    assert res["S!C3"] == pytest.approx(_mirr(MIRR_FLOWS, 0.1, 0.14), rel=1e-13)
    assert round(res["S!C3"], 2) == 0.13
    # formulas' MIRR (numpy-financial's form) agrees with the page's
    assert res["S!C1"] == pytest.approx(npf.mirr(MIRR_FLOWS, 0.1, 0.12), rel=1e-13)


def test_mirr_leaves_out_text_logical_values_and_empty_cells(tmp_path):
    # the page: "If an array or reference argument contains text, logical values, or empty
    # cells, those values are ignored; however, cells with the value zero are included"
    cells = {"A1": -120000, "A2": "text", "A3": True, "A5": 39000, "A6": 0, "A7": 30000,
             "B1": "=MIRR(A1:A7,10%,12%)"}
    got = xlsx_make.calc(tmp_path, {"S": cells})["S!B1"]
    assert got == pytest.approx(_mirr([-120000, 39000, 0, 30000], 0.1, 0.12), rel=1e-13)


def test_mirr_without_both_signs_is_div0(tmp_path):
    # the page: "Values must contain at least one positive value and one negative value
    # ... Otherwise, MIRR returns the #DIV/0! error value"
    cells = {"A1": 1, "A2": 2, "B1": "=ISERROR(MIRR(A1:A2,10%,12%))",
             "B2": "=ERROR.TYPE(MIRR(A1:A2,10%,12%))"}
    res = xlsx_make.calc(tmp_path, {"S": cells})
    assert res["S!B1"] is True and res["S!B2"] == 2  # 2: #DIV/0!


@pytest.mark.parametrize("formula, saved", [
    # Excel's values in tests/corpus/sheetjs/formula_stress_test.xlsx, Finance!
    ("EFFECT(0.0525,4)", 0.053542667370758412),                          # B4
    ("NOMINAL(EFFECT(0.0525,4),4)", 0.052500000000000213),               # B5
    ("CUMIPMT(0.09/12,30*12,125000,13,24,0)", -11135.232130750841),      # B24
    ("CUMPRINC(0.09/12,30*12,125000,13,24,0)", -934.10712342089789),     # B25
    ("DDB(2400,300,10*365,2)", 1.3143479076749858),                      # B57
    ("SYD(30000,7500,10,10)", 409.09090909090907),                       # B59
])
def test_excels_saved_cells(tmp_path, formula, saved):
    assert _one(tmp_path, formula) == pytest.approx(saved, rel=1e-13)


def test_ddb_sums_the_pages_formula_period_by_period(tmp_path):
    # B57's digits: the page's min(...) summed period by period gives Excel's every digit;
    # the closed form cost*(1-f/l)^(p-1) - cost*(1-f/l)^p (formulas', LibreOffice's) not
    assert _one(tmp_path, "DDB(2400,300,3650,2)") == 1.3143479076749858
    closed = 2400 * (1 - 2 / 3650) - 2400 * (1 - 2 / 3650) ** 2
    assert closed != 1.3143479076749858


@pytest.mark.parametrize("due", [0, 1])
def test_cumipmt_cumprinc_walk_the_schedule(tmp_path, due):
    # a 5-year loan of 10,000 at 1% a month paid at the end (0) or the start (1) of each
    # month: the second year's interest and principal, walked by hand (_loan); interest
    # and principal of all 60 months sum to the payments, and the principal to -pv
    got = [_one(tmp_path, f"{name}(1%,60,10000,13,24,{due})") for name in ("CUMIPMT",
                                                                          "CUMPRINC")]
    hand = _loan(Fraction(1, 100), 60, 10000, 13, 24, due)
    assert got == pytest.approx(list(hand), rel=1e-12)
    assert _one(tmp_path, f"CUMPRINC(1%,60,10000,1,60,{due})") == pytest.approx(-10000)


@pytest.mark.parametrize("formula, code", [
    # CUMIPMT's and CUMPRINC's pages: #NUM! for a rate, nper or pv of 0 or below, a start
    # or end below 1, a start after the end, a type other than 0 or 1; [MS-OI29500]
    # 2.1.918: CUMPRINC #NUM! for an end beyond nper
    ("CUMIPMT(0,10,100,1,2,0)", 6), ("CUMPRINC(1%,10,-100,1,2,0)", 6),
    ("CUMIPMT(1%,10,100,3,2,0)", 6), ("CUMPRINC(1%,10,100,0,2,0)", 6),
    ("CUMIPMT(1%,10,100,1,2,2)", 6), ("CUMPRINC(1%,10,100,1,11,0)", 6),
    # EFFECT's and NOMINAL's pages: #NUM! for a rate of 0 or below or an npery below 1
    ("EFFECT(0,4)", 6), ("EFFECT(5%,0.5)", 6), ("NOMINAL(-1%,4)", 6),
])
def test_the_pages_errors(tmp_path, formula, code):
    assert _one(tmp_path, f"ERROR.TYPE({formula})") == code


@pytest.mark.parametrize("formula", [
    "DDB(2400,300,10,1.5)", "DDB(2400,300,10,11)", "DDB(2400,3000,10,1)", "DDB(0,0,10,1)",
    "DDB(TRUE,0,10,1)",
    "SYD(30000,7500,10,0.5)", "SYD(30000,7500,10,11)", "SYD(30000,7500,10.5,1)",
    "SYD(7500,30000,10,1)",
    "CUMIPMT(1%,10.5,100,1,2,0)", "CUMPRINC(1%,10,100,1.5,2,0)", "CUMIPMT(1%,10,100,1,11,0)",
    "CUMIPMT(TRUE,10,100,1,2,0)",
    "EFFECT(TRUE,4)", "EFFECT(1E-9,365)",
    "MIRR(5,10%,12%)", "MIRR({-1,2},-1,10%)", "MIRR({-1,2},Y9,10%)",
])
def test_what_the_pages_leave_unsaid_is_refused(tmp_path, formula):
    with pytest.raises(WorkbookError):
        _one(tmp_path, f"={formula}")


def test_ddb_of_the_period_its_salvage_cancels_is_refused(tmp_path):
    # 1000 at factor 2 over 4 periods: 500, 250, 125 (prior 875); the fourth's remainder
    # with a salvage of 124.9999999 is 1000 - 124.9999999 - 875 = 1e-7, below 1e-6 of
    # the cost: its digits are the rounding of the prior sum
    with pytest.raises(WorkbookError, match="DDB"):
        _one(tmp_path, "=DDB(1000,124.9999999,4,4)")
    # factor/life 1: the first period takes cost - salvage = 900, the second's remainder
    # 1000 - 100 - 900 is 0 exactly
    assert _one(tmp_path, "=DDB(1000,100,2,2)") == 0.0


def test_effect_of_a_rate_near_0_agrees_or_is_refused():
    from addin.excel import rate_conversions as rc
    assert math.isclose(rc.effect(0.05, 12), (1 + 0.05 / 12) ** 12 - 1)


@pytest.mark.parametrize("second, first", [(50, 2), ("=NA()", 2)])
def test_irr_given_an_error_gives_the_first(tmp_path, second, first):
    # IRR given error values gives the first of them, the range read rows first
    # (addin/engine/first_error.py's rule; IRR's page says nothing of errors): A2's
    # #DIV/0! (ERROR.TYPE 2) before A3's #N/A
    cells = {"A1": -100, "A2": "=1/0", "A3": second, "A4": 70,
             "B1": "=ERROR.TYPE(IRR(A1:A4))"}
    assert xlsx_make.calc(tmp_path, {"S": cells})["S!B1"] == first


@pytest.mark.parametrize("formula, code", [
    # given error values, each gives the first of them in argument order (the rule of
    # addin/engine/first_error.py): A1 holds #DIV/0! (ERROR.TYPE 2), A2 #N/A (7)
    ("DDB(A1,A2,10,1)", 2), ("DDB(2400,300,A2,A1)", 7), ("SYD(30000,A2,10,A1)", 7),
    ("CUMIPMT(1%,60,10000,A1,A2,0)", 2), ("CUMPRINC(A2,60,10000,1,12,0)", 7),
    ("EFFECT(A1,4)", 2), ("NOMINAL(5%,A2)", 7),
    ("MIRR(B1:B3,A2,A1)", 2),   # B2 holds A1's #DIV/0!, before the rates' #N/A
    ("MIRR(B4:B5,A2,A1)", 7),   # numbers only: the finance_rate's #N/A first
])
def test_given_errors_each_gives_the_first(tmp_path, formula, code):
    cells = {"A1": "=1/0", "A2": "=NA()", "B1": -100, "B2": "=A1", "B3": 150,
             "B4": -100, "B5": 150}
    assert _one(tmp_path, f"ERROR.TYPE({formula})", cells) == code


def test_an_irr_cell_holding_no_number_may_be_read(tmp_path):
    # a formula reading a cell that calls IRR is refused where that cell holds a number
    # (addin/engine/roots.py: the iteration's last digits), not where it holds an error
    # value (IRR given one) or a text (IRR in the branch IF does not take): no digit of
    # the iteration reaches the reader
    cells = {"A1": -100, "A2": "=1/0", "A3": 150,
             "B1": "=IRR(A1:A3)", "B2": '=IF(FALSE,IRR(A1:A3),"")',
             "C1": "=IFERROR(B1,-1)", "C2": '=B2&"x"'}
    res = xlsx_make.calc(tmp_path, {"S": cells})
    assert res["S!C1"] == -1 and res["S!C2"] == "x"
    with pytest.raises(WorkbookError, match=r"IRR\(\) read by another formula"):
        xlsx_make.calc(tmp_path, {"S": {"A1": -100, "A2": 150, "B1": "=IRR(A1:A2)",
                                        "C1": "=B1*2"}})
