"""The non-date Excel functions and operators that the differential test (LibreOffice as
a referee, tests/test_differential.py) found computed unlike Excel, or computed where
Excel's value is not documented: each fixed, or refused in strict mode, in a minimal
workbook of our own. Each expected value is Microsoft's documented one, or one Excel
saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (apache/poi's FormulaEvalTestData,
saved by Excel 15), named beside it."""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine import evaluate
from addin.ooxml.guard import WorkbookError
from udfs.machinery.errors import ExcelError

# A1:A3 hold 7, 3.5, 1; A4 TRUE; B1:B3 TRUE, FALSE, TRUE
DATA = {"A1": 7, "A2": 3.5, "A3": 1, "A4": True, "B1": True, "B2": False, "B3": True}


def _calc(tmp_path, cells: dict, **kw):
    return xlsx_make.calc(tmp_path, {"S": DATA | cells}, **kw)


def _code(formula: str) -> str:
    got = evaluate(formula)
    assert isinstance(got, ExcelError), (formula, got)
    return got.code


def test_zero_to_the_power_zero_is_num_and_to_a_negative_power_div0():
    # [MS-OI29500] 2.1.1018: "Office returns #NUM! for POWER(0,0)"; ECMA-376 Part 1,
    # POWER: x zero and y below zero is #DIV/0!; the ^ operator as POWER (napkin's ^ gave
    # 1 and #VALUE!); 0^2 = 0, (-534)^0 = 1 (FormulaEvalTestData F71: B13^0 is 1)
    assert _code("=0^0") == "#NUM!" and _code("=POWER(0,0)") == "#NUM!"
    assert _code("=0^-1") == "#DIV/0!" and _code("=POWER(0,-1)") == "#DIV/0!"
    assert evaluate("=0^2") == 0 and evaluate("=(-534)^0") == 1


def test_a_power_too_small_for_a_float(tmp_path):
    # 10^-400 is below the smallest number a cell holds (2.2251E-308, "Excel
    # specifications and limits"); what Excel gives is not on its POWER page (formulas: 0,
    # LibreOffice: #NUM!), so strict mode refuses; 2^-3 = 1/8
    for formula in ("=10^-400", "=POWER(-1E+10,-1E+10)"):
        with pytest.raises(WorkbookError, match="too small for a number"):
            _calc(tmp_path, {"C1": formula})
    assert _calc(tmp_path, {"C1": "=2^-3"})["S!C1"] == 0.125


def test_if_reads_the_text_true_or_false(tmp_path):
    # FormulaEvalTestData M732: IF("tRue","A","B") is "A" (formulas gave #VALUE!); other
    # text as logical_test is not documented: refused
    res = _calc(tmp_path, {"C1": '=IF("tRue","A","B")', "C2": '=IF("false",1,2)'})
    assert res["S!C1"] == "A" and res["S!C2"] == 2
    with pytest.raises(WorkbookError, match="IF with the text '12'"):
        _calc(tmp_path, {"C1": '=IF("12",1,2)'})


def test_counts_given_as_text():
    # FormulaEvalTestData E824: LEFT("a string","6") is "a stri"; a count given as text is
    # read as a number and truncated: MID("abcdef"," 3.5","2") starts at 3 for 2
    # characters, "cd" (formulas' int(" 3.5") gave #VALUE!); RIGHT("abcdef","2.5") "ef"
    assert evaluate('=LEFT("a string","6")') == "a stri"
    assert evaluate('=MID("abcdef"," 3.5","2")') == "cd"
    assert evaluate('=RIGHT("abcdef","2.5")') == "ef"
    assert evaluate('=MID("abcdef","x",1)').code == "#VALUE!"


@pytest.mark.parametrize("formula, refusal", [
    ("=MROUND(TRUE,1)", "MROUND\\(\\) given a logical value as its number"),
    ("=DELTA(1,A4)", "DELTA\\(\\) given a logical value as its number2"),
    ("=RANK(A4,A1:A3)", "RANK\\(\\) given a logical value as its number"),
    ("=CHOOSE(A4,1,2)", "CHOOSE with TRUE or FALSE as its index_num"),
    ("=DEC2BIN(TRUE)", "DEC2BIN with TRUE or FALSE as its number"),
    ("=DEC2OCT(3,TRUE)", "DEC2OCT with TRUE or FALSE as its places"),
])
def test_logical_numbers_refused(tmp_path, formula, refusal):
    # Microsoft's MROUND, DELTA, RANK, CHOOSE and DEC2BIN pages do not say what TRUE gives
    # as a number (LibreOffice reads it as 1, formulas gives #VALUE!): refused in strict
    # mode, and --lenient keeps the cell
    with pytest.raises(WorkbookError, match=refusal):
        _calc(tmp_path, {"C1": formula})
    assert "S!C1" in _calc(tmp_path, {"C1": formula}, strict=False)


def test_the_same_functions_given_numbers(tmp_path):
    # Microsoft's examples: MROUND(10,3) is 9, DELTA(5,4) is 0, RANK(3.5,A1:A3,1) is 2
    # (1 < 3.5 < 7), CHOOSE(2,...) the second value, DEC2BIN(9,4) "1001"; RANK of a number
    # not in ref is #N/A ([MS-OI29500] 2.1.1026)
    res = _calc(tmp_path, {"C1": "=MROUND(10,3)", "C2": "=DELTA(5,4)",
                           "C3": "=RANK(A2,A1:A3,1)", "C4": '=CHOOSE(2,"a","b")',
                           "C5": "=DEC2BIN(9,4)", "C6": "=RANK(2,A1:A3)"})
    assert res["S!C1"] == 9 and res["S!C2"] == 0 and res["S!C3"] == 2
    assert res["S!C4"] == "b" and res["S!C5"] == "1001" and res["S!C6"].code == "#N/A"


def test_lookup_over_kinds_or_with_a_result_vector_of_several_rows_and_columns(tmp_path):
    # Microsoft Support, "LOOKUP function": the values must be sorted ascending, the
    # vector form's vectors one row or one column; how Excel's search by halving orders a
    # number, a text and a logical value, and what it gives for a 2-D result_vector, is
    # not said: refused; among numbers only, LOOKUP(4,{1,3.5,7}) is 3.5, the largest not
    # above 4
    with pytest.raises(WorkbookError, match="LOOKUP in values of several kinds"):
        _calc(tmp_path, {"C1": '=LOOKUP("ABC",{1,"a",TRUE})'})
    with pytest.raises(WorkbookError, match="result_vector of several rows and columns"):
        _calc(tmp_path, {"C1": "=LOOKUP(2,{1,2,3},A1:B3)"})
    assert _calc(tmp_path, {"C1": "=LOOKUP(4,{1,3.5,7})"})["S!C1"] == 3.5


def test_a_logical_criterion_over_numbers_is_refused(tmp_path):
    # whether Excel's COUNTIF matches the number 1 to the criterion TRUE is not on
    # Microsoft's COUNTIF page (LibreOffice does): refused; over B1:B3 (TRUE, FALSE, TRUE)
    # TRUE matches two cells
    with pytest.raises(WorkbookError, match="criterion TRUE or FALSE over cells that hold"):
        _calc(tmp_path, {"C1": "=COUNTIF(A1:A3,TRUE)"})
    assert _calc(tmp_path, {"C1": "=COUNTIF(B1:B3,TRUE)"})["S!C1"] == 2


def test_a_number_whose_15_digit_text_depends_on_the_rounding_is_refused(tmp_path):
    # COT(1.5) is the float 0.07091484430265244942...: its 15 digits are ...524 from the
    # binary value, ...525 from its shortest form 0.07091484430265245 rounded half up
    # (LibreOffice's); which Excel writes is not documented: refused. 1/3 is
    # "0.333333333333333" either way (Microsoft, "Floating-point arithmetic may give
    # inaccurate results in Excel": 15 significant digits)
    with pytest.raises(WorkbookError, match="whose 15th digit depends"):
        _calc(tmp_path, {"C1": '=COT(1.5)&""'})
    assert _calc(tmp_path, {"C1": '=(1/3)&""'})["S!C1"] == "0.333333333333333"


def test_xnpv_dates(tmp_path):
    # Microsoft Support, "XNPV function": "If any number in dates precedes the starting
    # date, XNPV returns the #NUM! error value" (formulas sorted the dates); its example,
    # XNPV(0.09,...) over 1/1/2008, 3/1/2008, 10/30/2008, 2/15/2009, 4/1/2009 is 2086.65,
    # and Excel saved 2175.27828067982 for the same flows over those dates in
    # tests/corpus/xlcalculator/XNPV.xlsx (A1), the last two dates out of order but after
    # the first; what a rate not above 0 gives is not said: refused
    cells = {"D1": 3, "D2": 1, "D3": 4, "E1": -10000, "E2": 2750, "E3": 4250, "E4": 3250,
             "E5": 2750, "F1": 39448, "F2": 39450, "F3": 39751, "F4": 39859, "F5": 39817}
    res = _calc(tmp_path, cells | {"C1": "=XNPV(7.1,D1:D3,D1:D3)",
                                   "C2": "=XNPV(0.09,E1:E5,F1:F5)"})
    assert res["S!C1"].code == "#NUM!" and res["S!C2"] == pytest.approx(2175.27828067982)
    for rate in ("0", "-0.5", "FALSE"):
        with pytest.raises(WorkbookError, match="XNPV with a rate that is a logical value"):
            _calc(tmp_path, cells | {"C1": f"=XNPV({rate},E1:E5,F1:F5)"})


def test_npv_at_a_rate_of_minus_1(tmp_path):
    # Microsoft Support, "NPV function": NPV = sum of value_i / (1 + rate)^i; at a rate
    # of -1 every term divides by 0, and the page does not say Excel's value (formulas
    # gave a value ISERROR saw as no error, LibreOffice #NUM!): refused. A rate of -2
    # is no such case: (1 + rate)^i = (-1)^i, NPV(-2,3,1) = 3/-1 + 1/1 = -2 (by hand)
    with pytest.raises(WorkbookError, match="NPV with a rate of -1"):
        _calc(tmp_path, {"C1": "=NPV(-1,3,1)", "C2": "=ISERROR(C1)"})
    res = _calc(tmp_path, {"C1": "=NPV(-2,3,1)"})
    assert res["S!C1"] == pytest.approx(-2)


def test_minverse_not_exact(tmp_path):
    # [MS-OI29500] 2.1.996: Office computes MINVERSE "with an accuracy of at least 15
    # digits, which can lead to a small numeric error", its last digits not said.
    # {1,2,3;0,1,4;5,6,0} has determinant 1 and the inverse {-24,18,5;20,-15,-4;-5,4,1}
    # (by hand: the adjugate), whose sum is 0; in floating point -24.000000000000085...:
    # refused. Microsoft's MINVERSE example {4,-1;2,0} inverts exactly to {0,0.5;-1,2}
    # (by hand: 1/2 * {0,1;-2,4}): computed
    cells = {"A1": 1, "B1": 2, "C1": 3, "A2": 0, "B2": 1, "C2": 4, "A3": 5, "B3": 6, "C3": 0,
             "E1": 4, "F1": -1, "E2": 2, "F2": 0}
    with pytest.raises(WorkbookError, match="MINVERSE whose value in floating point"):
        _calc(tmp_path, cells | {"H1": "=SUM(MINVERSE(A1:C3))", "H2": "=H1+1"})
    res = _calc(tmp_path, cells | {"H1": "=INDEX(MINVERSE(E1:F2),1,2)",
                                   "H2": "=INDEX(MINVERSE(E1:F2),2,1)",
                                   "H3": "=SUM(MINVERSE(E1:F2))"})
    assert (res["S!H1"], res["S!H2"], res["S!H3"]) == (0.5, -1, 0 + 0.5 - 1 + 2)


def test_mod_of_text_by_0(tmp_path):
    # Microsoft Support, "MOD function": a divisor of 0 is #DIV/0!, and a number that is
    # no number #VALUE!; which comes first for both is not said (formulas: #VALUE!,
    # LibreOffice: #DIV/0!): refused. Its examples: MOD(3,2) is 1, MOD(-3,2) 1, MOD(3,-2)
    # -1; MOD(3,0) is #DIV/0! and MOD("abc",2) #VALUE! by its text
    with pytest.raises(WorkbookError, match="MOD of a text that is no number by a divisor"):
        _calc(tmp_path, {"C1": '=MOD("abc",0)'})
    res = _calc(tmp_path, {"C1": "=MOD(3,2)", "C2": "=MOD(-3,2)", "C3": "=MOD(3,-2)",
                           "C4": "=MOD(3,0)", "C5": '=MOD("abc",2)'})
    assert res["S!C1"] == 1 and res["S!C2"] == 1 and res["S!C3"] == -1
    assert res["S!C4"].code == "#DIV/0!" and res["S!C5"].code == "#VALUE!"


def test_mdeterm_not_exact(tmp_path):
    # Microsoft Learn, "WorksheetFunction.MDeterm method": MDETERM "is calculated with an
    # accuracy of approximately 16 digits", its last digits not said. The determinant of
    # {1,2,3;0,1,4;5,6,0} is 1*(0-24)-2*(0-20)+3*(0-5) = 1 by the page's formula, and the
    # floating-point value 0.999999999999996: refused, as ROUNDDOWN or a text of it would
    # show those digits. Microsoft's example MDETERM({3,6,1;1,1,0;3,10,2}) is 1, exact
    # here; tests/corpus/poi/MatrixFormulaEvalTestData.xlsx H110, saved by Excel:
    # MDETERM(B110:C111) of {1,2;2,3} is -1 (1*3-2*2)
    grid = {"D1": 1, "E1": 2, "F1": 3, "D2": 0, "E2": 1, "F2": 4, "D3": 5, "E3": 6, "F3": 0}
    with pytest.raises(WorkbookError, match="MDETERM whose value in floating point"):
        _calc(tmp_path, grid | {"C1": "=MDETERM(D1:F3)"})
    example = {"D1": 3, "E1": 6, "F1": 1, "D2": 1, "E2": 1, "F2": 0, "D3": 3, "E3": 10,
               "F3": 2, "G1": 1, "H1": 2, "G2": 2, "H2": 3}
    res = _calc(tmp_path, example | {"C1": "=MDETERM(D1:F3)", "C2": "=MDETERM(G1:H2)"})
    assert res["S!C1"] == 1 and res["S!C2"] == -1


def test_combina_0_0_and_places_from_an_empty_cell_are_refused(tmp_path):
    # Microsoft Support, "COMBINA function": number >= 0 and >= number_chosen, so
    # COMBINA(0,0) is allowed, but its value is not given (0!/0! is 1; engines differ):
    # refused; its example COMBINA(4,3) is 20. "DEC2BIN function": places zero or
    # negative is #NUM!, an empty cell as places is neither said to be 0 nor left out:
    # refused; its example DEC2BIN(9,4) is "1001"
    with pytest.raises(WorkbookError, match=r"COMBINA\(0,0\)"):
        _calc(tmp_path, {"C1": "=COMBINA(0,0)"})
    with pytest.raises(WorkbookError, match="DEC2BIN with an empty cell as its places"):
        _calc(tmp_path, {"C1": "=DEC2BIN(9,D9)"})
    res = _calc(tmp_path, {"C1": "=COMBINA(4,3)", "C2": "=DEC2BIN(9,4)"})
    assert res["S!C1"] == 20 and res["S!C2"] == "1001"


def test_substitute_with_an_instance_below_1(tmp_path):
    # tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, saved by Excel 15: G1312
    # SUBSTITUTE("teststr","t","T",0) is #VALUE!; the same with an empty old_text (napkin
    # gave the text back); F1312 SUBSTITUTE("teststr","t","T",1.9) is "Teststr"
    res = _calc(tmp_path, {"C1": '=SUBSTITUTE(1.5,"","x",-1)', "C2": '=SUBSTITUTE("ab","","x")',
                           "C3": '=SUBSTITUTE("teststr","t","T",1.9)'})
    assert res["S!C1"].code == "#VALUE!" and res["S!C2"] == "ab" and res["S!C3"] == "Teststr"


def test_criteria_ranges_of_different_sizes(tmp_path):
    # Microsoft Support, "COUNTIFS function" and "SUMIFS function": each additional range
    # "must have the same number of rows and columns" as the first (formulas counted 0
    # over A1:B3 and D1:D3): refused. Over A1:A3 (7, 3.5, 1) and D1:D3 (1, 2, 3):
    # COUNTIFS(A1:A3,">2",D1:D3,"<3") counts rows 1 and 2, 2; SUMIFS(D1:D3,A1:A3,">2") is
    # 1+2 = 3
    cells = {"D1": 1, "D2": 2, "D3": 3}
    for formula in ('=COUNTIFS(A1:B3,">2",D1:D3,"<3")', '=SUMIFS(D1:D2,A1:A3,">2")'):
        with pytest.raises(WorkbookError, match="IFS with ranges of different sizes"):
            _calc(tmp_path, cells | {"C1": formula})
    res = _calc(tmp_path, cells | {"C1": '=COUNTIFS(A1:A3,">2",D1:D3,"<3")',
                                   "C2": '=SUMIFS(D1:D3,A1:A3,">2")'})
    assert res["S!C1"] == 2 and res["S!C2"] == 3
