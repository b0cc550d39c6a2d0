"""The double Excel's ROUND gives for a decimal lying near the midpoint of two doubles
(``addin.formula.excel_numbers.rounded_double``): taken to 64 significant bits, then to
53, as the cells Excel saved show."""

import decimal
import math
from fractions import Fraction

import pytest
import sheet_calc
import xlsx_make

from addin.formula.excel_numbers import _round15, _to_bits, rounded_double

HALF_UP = decimal.ROUND_HALF_UP
c = xlsx_make.cell


def test_jetblue_fuel_n434_is_the_double_below_the_nearest():
    # Summary_Financials.xlsm (the tuning pool's Katsuvest+JetBlue), sheet Fuel, row 434,
    # the values Excel saved: J434 2427503, X434 417894023, L434 2.3419859831275098,
    # AF434 -4.6534528206493286E-8 (a constant), N434 = ROUND(+J434/X434*L434,7)+AF434
    # saved as 1.3604353465471793E-2; AD434 = IF(K434=0,0,+N434*X434-K434) with
    # K434 5685178 saved as -9.3132257461547852E-10.
    j, x, l_, af = 2427503.0, 417894023.0, 2.3419859831275098, -4.6534528206493286e-8
    rounded = _round15(j / x * l_, 7, HALF_UP)
    # by hand: the decimal is 0.0136044; the nearest double is 0.0136044000000000008671...,
    # the one below 0.0136043999999999991324...; their midpoint lies 2.5e-22 below
    # 0.0136044, within a 64-bit unit (8.5e-22), and rounding to 64 bits lands below it
    assert rounded == math.nextafter(0.0136044, 0.0)
    n434 = rounded + af
    assert n434 == 1.3604353465471793e-2
    assert n434 * 417894023.0 - 5685178.0 == -9.3132257461547852e-10  # AD434, -2^-30


@pytest.mark.parametrize(("formula_value", "digits", "saved"), [
    # the other cells of Fuel!N388:N451 and H388:H451 of the same file: the nearest
    # double, as rounding twice gives (values Excel saved: N388's inputs give 0.0136044
    # only in row 434; a sample of rows where the two ways agree)
    ("1543.687", 4, 1543.6869999999999),  # 77it loan.asset_src.xlsx C25, ROUND($D$2-D24,4)
    ("245.2019", 4, 245.20189999999999),  # the same file's D30, ROUND(E11*$B$3/$B$5,4)
    ("2.2", 1, 2.2000000000000002),  # tests/corpus/xlcalculator/ROUND.xlsx A1, ROUND(2.15, 1)
    ("-1.48", 2, -1.48),  # the same file's A3, ROUND(-1.475, 2)
])
def test_saved_round_cells_are_the_nearest_double(formula_value, digits, saved):
    assert rounded_double(decimal.Decimal(formula_value), digits) == saved


def test_far_from_a_midpoint_is_the_nearest_double():
    for text in ("0.1", "0.3", "123.456", "1E-7", "99999.99999"):
        q = decimal.Decimal(text)
        assert rounded_double(q, 7) == float(q)


def test_rounding_to_bits_by_hand():
    # 5 to 2 bits: 4 or 6, a tie, to even (binary 10 -> 4); 7 to 2 bits: 8 (the tie 6|8
    # goes to the even 8); 1/3 to 53 bits is the double 1/3
    assert _to_bits(Fraction(5), 2) == 4
    assert _to_bits(Fraction(7), 2) == 8
    assert _to_bits(Fraction(-1, 3), 53) == Fraction(-1 / 3)


def _differing_decimal():
    """A decimal of 7 places whose two ways to 64 bits (the decimal correctly rounded, or
    its units times 10^-7 rounded to 64 bits) give different doubles, found by search."""
    step = _to_bits(Fraction(1, 10**7), 64)
    for k in range(136000, 10**6):
        q = decimal.Decimal(k).scaleb(-7)
        if float(_to_bits(Fraction(q), 64)) != float(_to_bits(k * step, 64)):
            return q
    raise AssertionError("no such decimal below 0.1")


def test_two_ways_to_64_bits_that_differ_are_refused():
    # the cells Excel saved do not settle which way Excel computes
    with pytest.raises(ValueError):
        rounded_double(_differing_decimal(), 7)


def test_the_jetblue_row_computed_as_napkin_calc_does(tmp_path):
    # the cells of Fuel row 434 (values Excel saved, above); AD434 = -2^-30 is a '-' of two
    # numbers within 2^-40 inside IF, not the formula's final operation: refused
    # (addin/formula/cancellation.py), its saved value kept
    cells = [c("J1", None, 2427503), c("X1", None, 417894023),
             c("L1", None, 2.3419859831275098), c("AF1", None, -4.6534528206493286e-8),
             c("K1", None, 5685178),
             c("N1", "ROUND(+J1/X1*L1,7)+AF1", 1.3604353465471793e-2),
             c("P1", "ROUND(+J1/X1*L1,7)", 0.0136044),
             c("AD1", "IF(K1=0,0,+N1*X1-K1)", -9.3132257461547852e-10)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert res["S!N1"] == 1.3604353465471793e-2
    assert res["S!P1"] == math.nextafter(0.0136044, 0.0)
    assert list(kept) == ["S!AD1"] and "2^-40" in kept["S!AD1"]


def test_a_round_of_an_unsettled_double_is_kept(tmp_path):
    q = _differing_decimal()
    cells = [c("A1", None, float(q)), c("B1", "ROUND(A1,7)", float(q))]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert "midpoint of two doubles" in kept["S!B1"]
