"""Excel's 0 for a formula's final ``+`` or ``-`` that cancels, and its equality of two
numbers equal but for their last bits (``addin/formula/cancellation.py``,
``addin/formula/excel_numbers.near_equal``).

Each workbook case is a cell Excel saved in a workbook of the business corpus or the own
corpus (``python -m tools.cancel_evidence`` lists all 94 cancelling cells and 14
comparisons), rebuilt here from its operands as Excel saved them, with the value Excel
cached there; no corpus file is copied. Microsoft's own examples are worked by hand.
"""

from __future__ import annotations

import math

import pytest
import xlsx_make

from addin.engine.api import calc_workbook, evaluate
from addin.formula.cancellation import ZERO_GAP, exponent_gap, wrapped_in_parentheses

c = xlsx_make.cell


def _calc(tmp_path, cells):
    kept = []
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    return calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept), [k.label for k in kept]


def _refused(got) -> bool:
    return "napkin cannot compute" in str(getattr(got, "message", ""))


def test_microsoft_examples_by_hand():
    # Microsoft Learn, "Floating-point arithmetic may give inaccurate results in Excel",
    # "Example when a value reaches zero": =.5-.4-.1 is 0, =1*(.5-.4-.1) -2.78E-17.
    # By hand: .5-.4 is 0.09999999999999998 in binary (0.1 less 2^-56 and its rounding),
    # less .1 gives -2^-55 = -2.7755575615628914E-17, the page's -2.78E-17
    assert 0.5 - 0.4 - 0.1 == -(2.0 ** -55) and f"{0.5 - 0.4 - 0.1:.2e}" == "-2.78e-17"
    # 0.1 lies in [2^-4, 2^-3) (frexp's exponent -3), 2^-55 is frexp's 2^-54: 51 apart
    assert exponent_gap(0.09999999999999998, -0.1, -(2.0 ** -55)) == 51 >= ZERO_GAP
    assert evaluate("=.5-.4-.1") == 0
    # inside a product the subtraction is not the final operation: Excel keeps the
    # binary result, and napkin, which cannot tell whether its operands are Excel's to
    # the last bit, refuses it
    assert _refused(evaluate("=1*(.5-.4-.1)"))


def test_exponent_gap_by_hand():
    # frexp(294.04) = (0.574..., 9), frexp(3.979039320256561e-13) = (0.875, -41): 50
    assert exponent_gap(-294.0399999999996, 294.04, 3.979039320256561e-13) == 50
    # 22514.21 is frexp's 2^15, 1.0186340659856796e-10 frexp's 2^-33: 48
    assert exponent_gap(22514.212556922343, -22514.212556922444,
                        -1.0186340659856796e-10) == 48


@pytest.mark.parametrize("a, b, formula", [
    # Three Statement Model.xlsx, Balance Sheet!E29 (heldout): exponents 52 apart
    (64775.115108958846, 64775.11510895884, "A1-A2"),
    # Financial Model worksheet.xlsx, P&L!C18 (heldout): 50 apart, the nearest made 0
    (-294.0399999999996, -294.04, "A1-A2"),
    # the same file, P&L!E18: 15 significant digits differ (674.914000000001 and
    # 674.914000000000), and Excel still gave 0: its rule is not the 15 digits
    (-674.9140000000007, -674.914, "A1-A2"),
    # a tuning file's balance check =H70-H55
    (115192.6, 115192.59999999998, "A1-A2"),
])
def test_final_subtraction_made_zero_as_excel_saved(tmp_path, a, b, formula):
    res, kept = _calc(tmp_path, [c("A1", None, a), c("A2", None, b), c("B1", formula, 0.0)])
    assert res["S!B1"] == 0 and kept == []
    assert a - b != 0  # (IEEE alone would not give Excel's 0)


def test_final_subtraction_of_three_terms(tmp_path):
    # Financial Model worksheet.xlsx, Cash Flow!L24 ='Balance Sheet'!L32-'Balance
    # Sheet'!K32-'P&L'!L14: (5811.0769373261555 - 4854.243843042476) - 956.8330942836797
    # is -4.547473508864641E-13 in binary (2^-41, 50 exponents below 956.8); Excel saved 0
    a, b, d = 5811.0769373261555, 4854.243843042476, 956.8330942836797
    assert a - b - d == -(2.0 ** -41)
    res, kept = _calc(tmp_path, [c("A1", None, a), c("A2", None, b), c("A3", None, d),
                                 c("B1", "A1-A2-A3", 0.0)])
    assert res["S!B1"] == 0 and kept == []


def test_a_final_subtraction_short_of_the_gap_is_not_made_zero(tmp_path):
    # FMCF(AutoRecovered).xlsx, 'Sc 7'!AA19 =Z$19-Z$22 (heldout2): 48 exponents apart,
    # Excel saved the binary result -1.0186340659856796E-10, not 0. Its operands are
    # references to one cell each whose values napkin has as Excel saved them: Excel's
    # own operands, so the IEEE result is Excel's (addin.formula.saved_operands)
    a, b = 22514.212556922343, 22514.212556922444
    assert a - b == -1.0186340659856796e-10
    res, kept = _calc(tmp_path, [c("A1", None, a), c("A2", None, b),
                                 c("B1", "A1-A2", -1.0186340659856796e-10)])
    assert kept == [] and res["S!B1"] == -1.0186340659856796e-10


def test_a_final_subtraction_short_of_the_gap_of_other_operands_is_refused(tmp_path):
    # the same two numbers, one of them a product's (A2*1, napkin's own value, not one
    # Excel saved): the result is made of the operands' last bits, refused, and Excel's
    # value kept where nothing computed reads it
    a, b = 22514.212556922343, 22514.212556922444
    res, kept = _calc(tmp_path, [c("A1", None, a), c("A2", None, b),
                                 c("B1", "A1-A2*1", -1.0186340659856796e-10)])
    assert kept == ["S!B1"] and res["S!B1"] == -1.0186340659856796e-10


def test_an_operand_a_function_gives_is_judged_as_a_cell_is(tmp_path):
    # formulas' functions give numpy's floats: ABS(A1)-A2 and NPV(...)+cost cancel as
    # A1-A2 does (the same two numbers as above, 48 exponents apart: refused), and the
    # net present value at an IRR plus its cost (70000.00000000195 - 70000 = 1.95e-9 in
    # IEEE arithmetic, 45 exponents apart) too; each keeps Excel's value here
    a, b = 22514.212556922343, 22514.212556922444
    res, kept = _calc(tmp_path, [c("A1", None, a), c("A2", None, b),
                                 c("A3", None, 70000.00000000195), c("A4", None, -70000),
                                 c("B1", "ABS(A1)-A2", -1.0186340659856796e-10),
                                 c("B2", "NPV(0,A3)+A4", 1.0e-9)])
    assert kept == ["S!B1", "S!B2"]
    assert res["S!B1"] == -1.0186340659856796e-10 and res["S!B2"] == 1.0e-9


def test_a_subtraction_inside_the_formula_is_not_made_zero(tmp_path):
    # Amortization Schedule.xlsx, 'amortization schedule'!G34 =G33-F34-D34 (heldout3),
    # D34 empty: the inner G33-F34 cancels 50 exponents below its operands, and Excel
    # saved its binary result 1.4210854715202004E-13, not 0 (as Microsoft's =1*(...)).
    # Its operands are one cell each, Excel's own values: napkin computes the IEEE result
    # of those (addin.formula.saved_operands), Excel's to the last bit
    a, b = 224.6388648485969, 224.63886484859677
    assert a - b == 1.4210854715202004e-13 and exponent_gap(a, -b, a - b) == 50
    res, kept = _calc(tmp_path, [c("A1", None, a), c("A2", None, b),
                                 c("B1", "A1-A2-A3", 1.4210854715202004e-13)])
    assert kept == [] and res["S!B1"] == 1.4210854715202004e-13
    # the same inner subtraction of two numbers no cell holds (written in the formula)
    # is not settled: napkin refuses it and keeps Excel's value
    res, kept = _calc(tmp_path, [c("B1", f"{a!r}-{b!r}-A3", 1.4210854715202004e-13)])
    assert kept == ["S!B1"] and res["S!B1"] == 1.4210854715202004e-13


def test_microsoft_s_subtraction_inside_a_function_is_its_ieee_result(tmp_path):
    # Microsoft Learn, "Floating-point arithmetic may give inaccurate results in Excel":
    # =1*(.5-.4-.1) is -2.78E-17, not 0. Here .5-.4 in one cell (0.09999999999999998,
    # by hand: .5-.4 in IEEE doubles) and 1*(B1-A3) and ROUND(B1-A3,2) reading it: the
    # inner B1-A3 cancels; both are one cell, so it is the IEEE result of those values,
    # 0.09999999999999998-0.1 = -2.7755575615628914E-17; ROUND of it to 2 places is 0
    assert 0.5 - 0.4 == 0.09999999999999998 and 0.09999999999999998 - 0.1 == \
        -2.7755575615628914e-17
    res, kept = _calc(tmp_path, [c("A1", None, 0.5), c("A2", None, 0.4), c("A3", None, 0.1),
                                 c("B1", "A1-A2", 0.09999999999999998),
                                 c("C1", "1*(B1-A3)", -2.7755575615628914e-17),
                                 c("C2", "ROUND(B1-A3,2)", 0)])
    assert kept == []
    assert res["S!C1"] == -2.7755575615628914e-17 and res["S!C2"] == 0


def test_a_final_addition_follows_the_same_rule():
    # no saved cell has a cancelling final +; a + b is a - (-b) to the last bit, and
    # Microsoft's page names addition and subtraction: the same rule
    assert evaluate("=-674.9140000000007+674.914") == 0
    assert _refused(evaluate("=-22514.212556922343+22514.212556922444"))


def test_parentheses_around_the_whole_formula_are_refused():
    # Microsoft's page: not "within parentheses"; no saved cell settles =(A1-A2)
    assert wrapped_in_parentheses("=(A1-A2)") and wrapped_in_parentheses("( A1-A2 )")
    assert not wrapped_in_parentheses("=(A1)-(A2)")
    assert not wrapped_in_parentheses("=(\"(\")-A2") and not wrapped_in_parentheses("=A1-A2")
    assert wrapped_in_parentheses("=('a)b'!A1-A2)")
    assert _refused(evaluate("=(.5-.4-.1)"))


@pytest.mark.parametrize("a, b, formula, saved", [
    # Maruti Suzuki project.xlsx, HistoricalFS!I69 (heldout): napkin's and Excel's sums
    (84596.90000000001, 84596.9, "IFERROR(A1=A2,0)", True),
    # Financial Model (Trent comp).xlsx, HistoricalFS!H76 (heldout)
    (5723.7300000000005, 5723.73, "A1=A2", True),
    # Maruti Suzuki, K69: 2^-52.0 apart, the farthest saved TRUE
    (131971.19999999998, 131971.2, "IFERROR(A1=A2,0)", True),
    # DCF_MODEL.xlsx, HISTORICALS!C65 (heldout3)
    (10559.029999999999, 10559.03, "IF(A1=A2,TRUE,FALSE)", True),
])
def test_comparison_of_numbers_equal_but_for_their_last_bits(tmp_path, a, b, formula, saved):
    assert a != b and f"{a:.14e}" == f"{b:.14e}"
    assert abs(a - b) <= max(abs(a), abs(b)) * 2.0 ** -52
    res, kept = _calc(tmp_path, [c("A1", None, a), c("A2", None, b),
                                 c("B1", formula, int(saved), t="b")])
    assert res["S!B1"] is saved and kept == []


def test_other_comparisons_see_them_equal_too():
    # one comparison routine: the numbers taken as equal for = are equal for < and >=
    assert evaluate("=84596.90000000001<84596.9") is False
    assert evaluate("=84596.90000000001>=84596.9") is True
    assert evaluate("=84596.90000000001<>84596.9") is False


@pytest.mark.parametrize("a, b, saved", [
    # FormulaEvalTestData_Copy.xlsx, EverythingTests!F35 =1.11111111111111=1.1111111111111
    # (the own corpus): Excel saved FALSE, 2^-46.7 apart, 15 digits differ
    (1.11111111111111, 1.1111111111111, False),
    # Financial Feasibility.xlsx, 'Balance sheet forecast'!D52 (heldout3)
    # =IF(D51=D56," ","Does not balance by "&...): Excel took them as different
    (80777.98632504555, 80777.9863250455, False),
])
def test_comparison_of_numbers_apart_in_their_15_digits(tmp_path, a, b, saved):
    assert f"{a:.14e}" != f"{b:.14e}"
    assert -51 < math.log2(abs(a - b) / max(a, b)) < -46
    res, kept = _calc(tmp_path, [c("A1", None, a), c("A2", None, b),
                                 c("B1", "A1=A2", int(saved), t="b")])
    assert kept == [] and res["S!B1"] is saved


def test_comparison_not_settled_is_refused(tmp_path):
    # 115192.6 and 115192.59999999998 agree to 15 digits but are 2^-51.8 apart: Excel's
    # 15 digits take them as equal, a binary bound of 2^-52 (which gives every saved
    # cell too) does not: refused, Excel's value kept (here a made-up TRUE)
    a, b = 115192.6, 115192.59999999998
    assert f"{a:.14e}" == f"{b:.14e}" and abs(a - b) > a * 2.0 ** -52
    res, kept = _calc(tmp_path, [c("A1", None, a), c("A2", None, b),
                                 c("B1", "A1=A2", 1, t="b")])
    assert kept == ["S!B1"] and res["S!B1"] is True
