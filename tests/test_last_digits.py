"""A sum that cancels, or a comparison of nearly equal numbers, downstream of a function
whose last binary digits napkin does not know to be Excel's (``addin/engine/
last_digits.py``): refused, where Excel's rules (``addin/formula/cancellation.py``,
``addin/formula/excel_numbers.near_equal``) would decide on napkin's own last digits.

The case is heldout7's "5 Year Financial Plan for Manufacturing Company.xlsx"
(tools/business_corpus.csv): napkin's PMT was one unit in the last place from Excel's, and
a loan schedule's last balance cancelled 50 binary exponents below its operands in napkin
(made 0) and 45 in Excel (kept, -5.37E-11). Rebuilt here by hand: a payment, the payment
plus one unit in its last place, and their difference.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import sheet_calc
import xlsx_make

from addin.engine import last_digits

c = xlsx_make.cell

# 100,000 over 60 months at 5% a year: PMT(0.05/12,60,-100000), 1887.12 (by the annuity
# formula r*PV*(1+r)^n/((1+r)^n-1)); one unit in its last place is 2^-42 (it lies in
# [1024, 2048)), 2.27E-13, so that adding 2E-13 moves it one unit up
PAYMENT = 1887.1233644010993


def test_the_difference_of_two_numbers_a_unit_apart_is_0_when_both_are_excels():
    # the difference, 2^-42, lies 52 exponents below 1887 (2^10): Excel's rule makes a
    # formula's final '-' 0 there (ZERO_GAP, 50), on operands that are Excel's own
    up = PAYMENT + 2e-13
    assert up - PAYMENT == math.ulp(PAYMENT) == 2.0 ** -42
    assert math.frexp(PAYMENT)[1] - math.frexp(up - PAYMENT)[1] == 52


def test_downstream_of_pmt_a_cancelling_sum_and_a_near_comparison_are_refused(tmp_path):
    # row 1: from PMT; row 2: from the payment written as a number (Excel's value to the
    # last bit, as a saved input is); the same formulas in both, C's operand a product
    # (B*1: napkin's own value, not a cell Excel saved)
    cells = [c("A1", "PMT(0.05/12,60,-100000)", PAYMENT), c("A2", None, PAYMENT)]
    for row in (1, 2):
        cells += [c(f"B{row}", f"A{row}+2E-13", PAYMENT + 2e-13),
                  c(f"C{row}", f"B{row}*1-A{row}", 0), c(f"D{row}", f"B{row}=A{row}", 1, t="b")]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    # from the number: the final '-' made 0 and the comparison TRUE (2^-52.9 apart, the
    # same 15 digits: excel_numbers.EQUAL), as Excel's rules give on Excel's operands
    assert (res["S!C2"], res["S!D2"]) == (0, True)
    # from PMT: napkin's payment may be a unit from Excel's (it was, in heldout7), and
    # then both answers would differ from Excel's: kept, the reason naming PMT
    assert set(kept) == {"S!C1", "S!D1"}
    assert all("computed from PMT" in why for why in kept.values())


def test_downstream_of_pmt_a_final_sum_of_two_cells_takes_excels_operands(tmp_path):
    # heldout7's loan balance in small: Excel's cells a few units in the last place from
    # napkin's. Saved B1 is the payment plus 2^-36 (64 units of 2^-42), napkin's B1 the
    # payment plus one unit: 63 units apart, 2^-47 of the payment, within 2^-40, so the
    # saved values are Excel's operands (addin.formula.saved_operands). On them the
    # difference is 2^-36 = 1.4551915228366852E-11, 46 exponents below 1887 (2^10): kept
    # by Excel's rule (KEPT_GAP, 48), where napkin's own operands (2^-42, 52 below) would
    # have given 0
    saved_b = PAYMENT + 2.0 ** -36
    assert saved_b - PAYMENT == 2.0 ** -36 == 1.4551915228366852e-11
    assert math.frexp(PAYMENT)[1] - math.frexp(2.0 ** -36)[1] == 46
    cells = [c("A1", "PMT(0.05/12,60,-100000)", PAYMENT), c("B1", "A1+2E-13", saved_b),
             c("C1", "B1-A1", 2.0 ** -36), c("E1", "C1*1E11", 2.0 ** -36 * 1e11),
             # an operand napkin computed far from Excel's (its input changed since):
             # Excel's operands are not known, refused
             c("B2", "A1+2E-13", PAYMENT + 1e-6), c("C2", "B2-A1", 1e-6)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert res["S!C1"] == 2.0 ** -36 and res["S!E1"] == 2.0 ** -36 * 1e11
    assert list(kept) == ["S!C2"] and "computed from PMT" in kept["S!C2"]


def test_the_functions_found_in_a_formula():
    assert last_digits.first_unknown("PMT(A1/12,60,B1)+C1") == "PMT"
    assert last_digits.first_unknown("_xlfn.STDEV.S(A1:A9)") == "STDEV.S"
    assert last_digits.first_unknown("B1*(1+B2)^B3") == "^"
    # in a text, in another name, or none at all: nothing
    assert last_digits.first_unknown('"PMT(1)"&A1&"^"') is None
    assert last_digits.first_unknown("MYPMT(1)+SUM(A1:A3)/2") is None


def _node(text, *deps, keep=None):
    return SimpleNamespace(text=text, deps=list(deps), keep=keep, is_name=False)


def test_downstream_follows_what_reads_a_formula_to_the_end():
    pmt = _node("PMT(0.01,12,1000)")
    balance = _node("A1*2")
    balance.deps.append(pmt)
    last = _node("B1-1", balance)
    apart = _node("SUM(C1:C3)")
    kept = _node("EXP(1)", keep="kept: Excel's value")
    reads_kept = _node("E1+1", kept)
    offset = _node("OFFSET(A1,1,0)")
    # given out of order (as a cycle's members may be): the same answer
    got = last_digits.downstream([last, offset, balance, apart, pmt, kept, reads_kept])
    assert {id(n): f for n, f in ((pmt, "PMT"), (balance, "PMT"), (last, "PMT"),
                                  (offset, "PMT"))} == got
    assert last_digits.downstream([apart, kept, reads_kept]) == {}


def test_downstream_of_pmt_a_sum_cancelling_12_exponents_is_not_napkins_own(tmp_path):
    # heldout12's loan schedule (CMPT Assignment.xlsx.xlsm, seen): a payment from ^ 2.1E-15
    # of itself from Excel's, carried through 180 rows, left the last balance's operands
    # 2.6E-13 of themselves apart (about 2^-42); their difference, 30 exponents below them,
    # was then 2.6E-4 of itself from Excel's. Downstream of PMT or ^ a sum cancelling more
    # than 12 binary exponents (cancellation.UNKNOWN_DIGITS_NEAR) is taken as made of those
    # digits, where a cell the formula reads holds another value than Excel saved: from
    # two cells Excel saved, its IEEE result on the saved values; else kept.
    # Saved B1 is the written payment plus 0.5 plus 2^-32, within 2^-40 of napkin's B1
    # (saved_operands.AGREE; napkin's PMT is a few units in the last place from PAYMENT);
    # C1 = B1 - 1887.6233 cancels more than 12 exponents: its value is Excel's, the saved
    # operands' difference, not napkin's own
    saved_b = PAYMENT + 0.5 + 2.0 ** -32
    cells = [c("A1", "PMT(0.05/12,60,-100000)", PAYMENT), c("A2", None, 1887.6233),
             c("B1", "A1+0.5", saved_b), c("C1", "B1-A2", 0), c("D1", "(A1+0.5)-A2", 7),
             c("E1", "B1-1000", 0)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    ours = res["S!B1"]  # (napkin's B1)
    assert abs(ours - saved_b) <= saved_b * 2.0 ** -40 and ours != saved_b
    assert res["S!C1"] == saved_b - 1887.6233 != ours - 1887.6233
    assert math.frexp(ours)[1] - math.frexp(saved_b - 1887.6233)[1] > 12
    # D1's operand is napkin's own sum, not a cell Excel saved: kept, naming the band
    assert set(kept) == {"S!D1"} and "within 2^-12 of themselves, computed from PMT" in \
        kept["S!D1"]
    # a difference that does not cancel so far is napkin's (1887.62 - 1000, 1 exponent)
    assert res["S!E1"] == ours - 1000
    # where every cell D1 reads holds what Excel saved there, to the last bit (A1 and B1
    # saved as napkin computes them), its operands are Excel's: computed, not kept; but
    # not G1's, which raises to a power itself (its own last digits are napkin's, a few
    # units from Excel's) and cancels more than 20 exponents (OWN_DIGITS_NEAR)
    cells = [c("A1", "PMT(0.05/12,60,-100000)", res["S!A1"]), c("A2", None, 1887.6233),
             c("B1", "A1+0.5", ours), c("D1", "(A1+0.5)-A2", 7),
             c("G1", "(A1+0.5)^1-A2", 7)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert res["S!D1"] == (res["S!A1"] + 0.5) - 1887.6233
    assert set(kept) == {"S!G1"} and "computed from ^" in kept["S!G1"]
    assert math.frexp(ours)[1] - math.frexp(ours - 1887.6233)[1] > 20


def test_downstream_of_pmt_a_comparison_within_2_36_is_refused_where_inputs_changed(tmp_path):
    # the comparison's band downstream of PMT or ^ (excel_numbers.UNKNOWN_DIGITS_EQUAL):
    # where a cell the formula reads holds a value within 2^-36 of the one Excel saved but
    # not it (B1, saved 2^-40 off napkin's: last digits apart), napkin's operands may differ
    # from Excel's by 2^-42 of themselves after a long chain (heldout12's loan schedule), and
    # two numbers 2^-38 apart may lie either way round in Excel: E1 is kept. 2^-38 lies
    # outside the band of Excel's own operands (2^-40): before, E1 was computed. Where B1
    # holds what Excel saved (as napkin computes it), the operands are Excel's: 2^-38 apart
    # is apart, computed (FALSE); so where B1 is 2^-30 off, an input changed (napkin's own)
    cells = [c("A1", "PMT(0.05/12,60,-100000)", PAYMENT), c("B1", "A1+0", PAYMENT),
             c("C1", None, PAYMENT * (1 + 2.0 ** -38)), c("E1", "B1=C1", 0, t="b")]
    ours = sheet_calc.calc_sheet(tmp_path, cells)[0]["S!A1"]
    cells[2] = c("C1", None, ours * (1 + 2.0 ** -38))
    for saved_b, is_kept in ((ours * (1 + 2.0 ** -40), True), (ours, False),
                             (ours * (1 + 2.0 ** -30), False)):
        cells[1] = c("B1", "A1+0", saved_b)
        res, kept = sheet_calc.calc_sheet(tmp_path, cells)
        if is_kept:
            assert set(kept) == {"S!E1"} and \
                "within 2^-36 of each other, computed from PMT" in kept["S!E1"]
        else:
            assert not kept and res["S!E1"] is False


def test_downstream_of_pmt_the_text_of_a_number_is_kept_where_its_15th_digit_is_in_doubt(
        tmp_path):
    # the business corpus's thirteenth part (Financing.xlsx, seen): a loan balance 7 units
    # in the last place from Excel's (-1422.5631928883365 saved) written as text by "..."&D
    # ended in ...833 in napkin, ...834 in Excel. Downstream of PMT or ^, where a cell the
    # formula reads holds a value within 2^-36 of the one Excel saved but not it (B1, saved
    # 2^-40 off napkin's: last digits apart), its 15 digits are in doubt
    # (excel_numbers._refuse_digits_not_excels): kept, Excel's text. Where B1 holds Excel's
    # value to the last bit, C1's operand is Excel's: computed, 15 digits (written without
    # trailing zeros, as Excel writes numbers in text). Where B1 is 2^-30 off, an input
    # changed: the text is napkin's own, as its numbers are
    cells = [c("A1", "PMT(0.05/12,60,-100000)", PAYMENT), c("B1", "A1+0", PAYMENT),
             c("C1", '"x"&B1', "x", t="str")]
    ours = sheet_calc.calc_sheet(tmp_path, cells)[0]["S!A1"]
    text = "x" + f"{ours:.15g}".rstrip("0")
    for saved_b, is_kept in ((ours * (1 + 2.0 ** -40), True), (ours, False),
                             (ours * (1 + 2.0 ** -30), False)):
        cells[1] = c("B1", "A1+0", saved_b)
        res, kept = sheet_calc.calc_sheet(tmp_path, cells)
        if is_kept:
            assert set(kept) == {"S!C1"} and "15th digit" in kept["S!C1"]
        else:
            assert not kept and res["S!C1"] == text
