"""EXP, COSH, PMT, DB and VDB, checked in strict mode (``addin/formula/excel_functions/``):
Microsoft's documented examples, each value worked by hand here from the function's
definition (the page shows it rounded to the cents or to 7-9 digits), and VDB's refusals
where the page says nothing (``addin/excel/depreciation.py``)."""

from __future__ import annotations

import math

import pytest
import xlsx_make

from addin.engine import evaluate
from addin.ooxml.guard import WorkbookError


def _pmt(rate, nper, pv, fv=0.0, due=0):
    """PMT by its definition (Microsoft Support, "PV function": pv*(1+rate)^nper +
    pmt*(1+rate*type)*((1+rate)^nper-1)/rate + fv = 0)."""
    g = (1 + rate) ** nper
    return -(pv * g + fv) * rate / ((1 + rate * due) * (g - 1))


def _db(cost, salvage, life, period, month=12):
    """DB by its page: rate = 1 - (salvage/cost)^(1/life) rounded to three places; the
    first period cost*rate*month/12, then (cost - prior depreciation)*rate."""
    rate = round(1 - (salvage / cost) ** (1 / life), 3)
    total, dep = 0.0, 0.0
    for p in range(1, period + 1):
        dep = cost * rate * month / 12 if p == 1 else (cost - total) * rate
        total += dep
    return dep


@pytest.mark.parametrize("formula, hand, shown", [
    # Microsoft Support, "EXP function": EXP(1) 2.71828183, EXP(2) 7.3890561
    ("=EXP(1)", math.e, 2.71828183), ("=EXP(2)", math.e ** 2, 7.3890561),
    # "COSH function": COSH(4) 27.308233, COSH(EXP(1)) 7.6101251; cosh x = (e^x + e^-x)/2
    ("=COSH(4)", (math.e ** 4 + math.e ** -4) / 2, 27.308233),
    ("=COSH(EXP(1))", (math.e ** math.e + math.e ** -math.e) / 2, 7.6101251),
    # "PMT function": 8% a year, 10 months, 10,000: ($1,037.03); due at the start
    # ($1,030.16); saving 50,000 in 18 years at 6%: ($129.08)
    ("=PMT(8%/12,10,10000)", _pmt(0.08 / 12, 10, 10000), -1037.03),
    ("=PMT(8%/12,10,10000,0,1)", _pmt(0.08 / 12, 10, 10000, 0, 1), -1030.16),
    ("=PMT(6%/12,18*12,0,50000)", _pmt(0.06 / 12, 216, 0, 50000), -129.08),
    # "DB function": 1,000,000, salvage 100,000, 6 years, 7 months in the first year
    ("=DB(1000000,100000,6,1,7)", _db(1e6, 1e5, 6, 1, 7), 186083.33),
    ("=DB(1000000,100000,6,2,7)", _db(1e6, 1e5, 6, 2, 7), 259639.42),
    ("=DB(1000000,100000,6,5,7)", _db(1e6, 1e5, 6, 5, 7), 81999.64),
    # "VDB function": 2,400, salvage 300, 10 years: the first day 1.32, the first month
    # 40.00, the first year 480.00, months 6 to 18 396.31, with factor 1.5 311.81
    ("=VDB(2400,300,10*365,0,1)", 2400 * 2 / 3650, 1.32),
    ("=VDB(2400,300,10*12,0,1)", 2400 * 2 / 120, 40.00),
    ("=VDB(2400,300,10,0,1)", 480.0, 480.00),
    ("=VDB(2400,300,10*12,6,18)", 2400 * ((1 - 2 / 120) ** 6 - (1 - 2 / 120) ** 18), 396.31),
    ("=VDB(2400,300,10*12,6,18,1.5)",
     2400 * ((1 - 1.5 / 120) ** 6 - (1 - 1.5 / 120) ** 18), 311.81),
])
def test_microsofts_examples(formula, hand, shown):
    got = evaluate(formula)
    assert got == pytest.approx(hand, rel=1e-12)
    digits = len(str(shown).split(".")[1])
    assert round(got, digits) == pytest.approx(shown)


def test_vdb_switches_to_the_straight_line():
    # 2,400, salvage 300, 10 periods, double declining (20%): the book value after 6
    # periods is 2400*0.8^6 = 629.1456; periods 7-10 depreciate it to the salvage, 329.1456
    # (period 10's declining balance 64.42 is more than the 22.12 left: it takes 22.12)
    assert evaluate("=VDB(2400,300,10,6,10)") == pytest.approx(2400 * 0.8 ** 6 - 300)
    # xlcalculator/VDB.xlsx (values Excel saved): 575,000, salvage 5,000, 10 years,
    # factor 1.5; period 5 is the straight line of what remains, (575000*0.85^4 - 5000)/6
    # = 49,192.265625, more than the declining 45,023.04
    assert evaluate("=VDB(575000,5000,10,4,5,1.5)") == pytest.approx(49192.265625)
    assert evaluate("=VDB(575000,5000,10,4,5,1.5,TRUE)") == pytest.approx(
        575000 * 0.85 ** 4 * 0.15)


@pytest.mark.parametrize("formula", ["=VDB(2400,300,10,0,0.875,1.5)", "=VDB(2400,300,10,0,11)",
                                     "=VDB(2400,300,10,3,3)", "=VDB(2400,3000,10,0,1)"])
def test_vdb_refuses_what_its_page_leaves_unsaid(formula, tmp_path):
    # a fractional period (Microsoft's fifth example, 315.00, is one: napkin does not
    # reproduce Excel's rule there), an end beyond the life, no period, a salvage above
    # the cost
    with pytest.raises(WorkbookError, match="VDB"):
        xlsx_make.calc(tmp_path, {"S": {"A1": formula}})


def _schedule(rate, nper, pv, fv=0.0, due=0):
    """[(interest, principal)] of each period's payment, by walking the loan: the payment
    by its definition (``_pmt``); a payment at the end of a period pays the period's
    interest on the balance (rate * balance, paid out: negative for a loan) and the rest
    is principal; at the start (type 1) the first payment has no interest before it, each
    later one pays the interest of the period before it. At a rate of 0 the payment is
    -(pv + fv) / nper ("PV function": pv + pmt * nper + fv = 0)."""
    pmt = _pmt(rate, nper, pv, fv, due) if rate else -(pv + fv) / nper
    balance, rows = pv, []
    for per in range(1, nper + 1):
        interest = 0.0 if due and per == 1 else -balance * rate
        rows.append((interest, pmt - interest))
        balance += pmt - interest
    return rows


@pytest.mark.parametrize("formula, hand, shown", [
    # Microsoft Support, "IPMT function" (https://support.microsoft.com/en-us/excel/
    # ipmt-function): 10% a year, 3 years, 8,000: the first month's interest ($66.67), the
    # last year's, paid yearly ($292.45)
    ("=IPMT(10%/12,1,3*12,8000)", _schedule(0.1 / 12, 36, 8000)[0][0], -66.67),
    ("=IPMT(10%,3,3,8000)", _schedule(0.1, 3, 8000)[2][0], -292.45),
    # "PPMT function" (https://support.microsoft.com/en-us/Excel/functions/ppmt-function):
    # 10%, 2 years, 2,000: the first month's principal ($75.62); 8%, 10 years, 200,000:
    # the tenth year's ($27,598.05)
    ("=PPMT(10%/12,1,2*12,2000)", _schedule(0.1 / 12, 24, 2000)[0][1], -75.62),
    ("=PPMT(8%,10,10,200000)", _schedule(0.08, 10, 200000)[9][1], -27598.05),
])
def test_ipmt_ppmt_as_microsofts_examples(formula, hand, shown):
    got = evaluate(formula)
    assert got == pytest.approx(hand, rel=1e-12)
    assert round(got, 2) == pytest.approx(shown)


def test_ipmt_ppmt_as_excel_saved_them():
    # tests/corpus/sheetjs/formula_stress_test.xlsx, Finance!B17 and B21 (saved by Excel):
    # IPMT(D17/12,3,E17,G17) and PPMT(...) with D17 10%, E17 3, G17 8000, to the last digit
    assert evaluate("=IPMT(0.1/12,3,3,8000)") == -22.406893015924034
    assert evaluate("=PPMT(0.1/12,3,3,8000)") == -2688.8271619108841


@pytest.mark.parametrize("rate, nper, pv, fv, due", [
    (0.05 / 12, 24, 15000, 0, 0), (0.05 / 12, 24, 15000, 0, 1),
    (0.07, 10, -50000, 20000, 0), (0.07, 10, -50000, 20000, 1),
    (0.0, 6, 1200, 0, 0), (-0.02, 8, 1000, 0, 1),
])
def test_ipmt_ppmt_walk_the_schedule(rate, nper, pv, fv, due):
    # every period of a loan (a balloon fv, payments at the start, a rate of 0, a
    # negative rate) against the schedule walked by hand; each period's two parts sum
    # to the payment
    for per, (interest, principal) in enumerate(_schedule(rate, nper, pv, fv, due), 1):
        args = f"{rate!r},{per},{nper},{pv},{fv},{due}"
        assert evaluate(f"=IPMT({args})") == pytest.approx(interest, rel=1e-11, abs=1e-9)
        assert evaluate(f"=PPMT({args})") == pytest.approx(principal, rel=1e-11, abs=1e-9)


@pytest.mark.parametrize("formula", [
    "=IPMT(0.1,1.5,3,8000)", "=PPMT(0.1,3.5,3,8000)",
    # a whole per between nper and nper + 1: [MS-OI29500] 2.1.978 and 2.1.1019 differ
    "=IPMT(0.1,4,3.5,8000)", "=PPMT(0.1,4,3.5,8000)",
    "=PPMT(-1,1,3,8000)", "=IPMT(0.1,1,3,8000,0,2)", "=PPMT(TRUE,1,3,8000)",
    "=IPMT(0.1,1,3,8000,FALSE)", "=IPMT(0.1,1,0,8000)",
    # the payment and the interest on fv cancel (more than 20 bits lost)
    "=IPMT(-0.3724800481901750,3,38,-4000,2446.15,1)",
    # the balance forward from pv cancels (LibreOffice 0; the exact value -2.02E9)
    "=IPMT(45000,5,5,45000)", "=PPMT(45000,5,5,45000,45000)", "=PPMT(16000,2,5,16000)",
])
def test_ipmt_ppmt_refuse_what_their_pages_leave_unsaid(formula):
    # a per not whole (the pages: "must be in the range 1 to nper", no error value named),
    # a rate of -1, a type of 2, a logical value, no period
    got = evaluate(formula)
    assert "napkin cannot compute" in str(getattr(got, "message", "")), (formula, got)


@pytest.mark.parametrize("formula", [
    "=IPMT(0.1,0,3,8000)", "=PPMT(0.1,4,3,8000)", "=IPMT(0.1,-1,3,8000)",
    "=PPMT(0.1,0,3,8000)", "=IPMT(0.1,4,3,8000)", "=PPMT(0.08,13,12,148.3)",
    "=IPMT(0.1,5,3.5,8000)", "=PPMT(0.1,5,3.5,8000)",
])
def test_ipmt_ppmt_of_a_whole_per_outside_1_to_nper_are_num(formula):
    # [MS-OI29500] 2.1.1019 (PPMT): "In Excel, if the per argument is less than 1 or
    # greater than the nper argument, #NUM! is returned"; 2.1.978 (IPMT): #NUM! where per
    # is not in 1 <= per < nper+1 (https://learn.microsoft.com/en-us/openspecs/
    # office_standards/ms-oi29500/e6f17fb3-cf25-42c5-817d-d67f8c6241e3 and .../5c0583c2-
    # 5459-4b56-9657-c94fb48dc600)
    got = evaluate(formula)
    assert getattr(got, "code", None) == "#NUM!", (formula, got)
    assert "napkin cannot compute" not in str(getattr(got, "message", ""))


def test_ppmt_schedule_past_nper_as_excel_saved():
    # a tuning pool's solar project-finance model (AtharvFinanceLab/Financial_Modeling_
    # and_Valuation, Solar Projet Finance.xlsx, not a held-out part), F72:T72:
    # IFERROR(-PPMT($C$67,E69,$C$66,$C$64),0) with C67 0.08, C66 12, C64
    # 148.30508474576268 and per 1 to 16: Excel saved 7.8149389506628566 (per 1),
    # 18.221616416966544 (per 12) and 0 for per 13 to 16 (an error, IFERROR's 0)
    pv = 148.30508474576268
    saved = {1: 7.8149389506628566, 12: 18.221616416966544, 13: 0, 16: 0}
    for per, value in saved.items():
        got = evaluate(f"=IFERROR(-PPMT(0.08,{per},12,{pv!r}),0)")
        assert got == pytest.approx(value, rel=1e-9, abs=0), (per, got)
    # by hand (the annuity equation): the principal of period 1 is pmt less pv's interest
    pmt = pv * 0.08 / (1 - 1.08 ** -12)
    assert -evaluate(f"=PPMT(0.08,1,12,{pv!r})") == pytest.approx(pmt - pv * 0.08, rel=1e-12)
