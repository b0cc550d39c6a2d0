"""Step functions (INT, ROUND...) downstream of a function whose last digits napkin does not
know to be Excel's: refused where their result changes within the doubt of their number,
computed elsewhere; a formula that is one such call settles the doubt for its readers
(``addin/formula/discrete_doubt.py``, ``addin/engine/last_digits.py``).

The saved values are what Excel shows for these formulas, worked by hand: LOG10(1000) is
3, 1.5^2 is 2.25, ROUND(2.25,1) is 2.3 (Microsoft Support, "ROUND function": halves round
away from zero), INT(3.5) is 3.
"""

from __future__ import annotations

import sheet_calc
import xlsx_make

from addin.engine import last_digits

c = xlsx_make.cell


def test_int_of_a_logarithm_that_is_an_integer_is_refused(tmp_path):
    # LOG10(1000) is 3 in napkin; Excel's may be 2.9999999999999996, whose INT is 2: the
    # step lies within the doubt of the number, so INT is refused, Excel's 3 kept
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        c("A1", "LOG10(1000)", 3), c("B1", "INT(A1)", 3), c("B2", "INT(LOG10(1000))", 3),
        c("B3", "INT(A1+0.5)", 3)])
    assert set(kept) == {"S!B1", "S!B2"}
    assert "INT() of a number within" in kept["S!B1"] and "LOG10" in kept["S!B1"]
    assert res["S!B3"] == 3  # 3.5 is far from a step: computed


def test_round_of_a_half_computed_with_a_power_is_refused(tmp_path):
    # 1.5^2 = 2.25: ROUND(.,1) rounds the half up to 2.3, and a number a few units in
    # the last place below it would give 2.2; ROUND(.,0) is 2 on either side
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        c("A1", "1.5^2", 2.25), c("B1", "ROUND(A1,1)", 2.3), c("B2", "ROUND(A1,0)", 2),
        c("B3", "ROUNDUP(A1,2)", 2.25), c("B4", "CEILING(A1,0.25)", 2.25)])
    assert set(kept) == {"S!B1", "S!B3", "S!B4"}
    assert "ROUND() of a number within" in kept["S!B1"]
    assert res["S!B2"] == 2


def test_the_same_steps_without_doubt_are_computed(tmp_path):
    # no PMT, ^ or logarithm upstream: napkin's numbers are Excel's, nothing refused
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        c("A1", "2.25*1", 2.25), c("B1", "ROUND(A1,1)", 2.3), c("B2", "INT(3*1)", 3)])
    assert kept == {}
    assert res["S!B1"] == 2.3 and res["S!B2"] == 3


def test_a_formula_that_is_one_step_settles_the_doubt_for_its_readers(tmp_path):
    # B1 = ROUND(0.1^1*1.0001,1) is 0.1 on either side of its doubt, so it is Excel's 0.1;
    # C1 compares B1*3 (0.30000000000000004) with 0.3, equal to 15 digits: Excel's "="
    # gives TRUE (Microsoft Learn, "Floating-point arithmetic may give inaccurate results
    # in Excel"; napkin's near_equal). Were B1 downstream of ^, the comparison would be
    # refused; C2 compares the same through A1 itself (A1/1.0001*3, also
    # 0.30000000000000004), and is.
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        c("A1", "0.1^1*1.0001", 0.10001), c("B1", "ROUND(A1,1)", 0.1),
        c("C1", 'IF(B1*3=0.3,"equal","apart")', "equal", t="str"),
        c("C2", 'IF(A1/1.0001*3=0.3,"equal","apart")', "equal", t="str")])
    assert res["S!B1"] == 0.1 and res["S!C1"] == "equal"
    assert set(kept) == {"S!C2"}


def test_what_settles():
    assert last_digits.settles("ROUND(PMT(B1/12,B2,-B3),2)")
    assert last_digits.settles("=_xlfn.CEILING.MATH(A1^2)")
    assert last_digits.settles('INT(IF(A1>0,A1^2,"x(y"))')
    assert last_digits.settles("CEILING(A1*(1+B1)^2, 0.25)")
    assert not last_digits.settles("ROUND(A1,LOG10(B1))")  # a computed digits argument
    assert not last_digits.settles("ROUND(A1,$B$1)")
    assert not last_digits.settles("ROUND(A1^2,2)*3")
    assert not last_digits.settles("ROUND(A1,2)+ROUND(A2,2)")
    assert not last_digits.settles("SUM(A1^2)")
