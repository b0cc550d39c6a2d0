"""The forms the differential test's full run of seed 1 found unsettled (December 2026,
``docs/fidelity.md``): napkin's value where a page or an Excel-saved cell gives Excel's
(LibreOffice's difference recorded in ``tests/differential/known_differences.csv``), and
strict mode's refusal where none does (the unary + of an empty cell read by a function
or a comparison: ``addin.engine.forms.unary_plus_readers``).
"""

from __future__ import annotations

import xlsx_make

from addin.engine.api import calc_workbook

c = xlsx_make.cell


def _calc(tmp_path, cells, date1904=False):
    """The values computed and the reasons of the cells kept (Excel's value kept)."""
    kept: list = []
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells}, date1904=date1904)
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    return res, {k.label: k.reason for k in kept}


def test_the_unary_plus_of_an_empty_cell_read_by_a_function_is_refused(tmp_path):
    # [MS-XLS] 2.5.198.95 PtgUplus "leaves a unary-expression unchanged": +A9 may be the
    # empty cell itself, where formulas gives 0; no page or Excel-saved cell says what
    # LEFT, VARP, COUNTA or = then read ("0" or "", counted or left out, FALSE or TRUE).
    # Arithmetic reads an empty cell as 0 either way (Microsoft KB Q149577: "Microsoft
    # Excel interprets a blank cell as zero"), and so does the formula's own value.
    res, kept = _calc(tmp_path, [
        c("A1", None, 2), c("A2", None, 4),
        c("B1", "+A9", 0), c("B2", "+A9+A1", 2), c("B3", "-+A9*A2", 0),
        c("B4", "LEFT(+A1)", "2", t="str"),  # a number: "2" whichever the reading
        c("C1", "LEFT(+A9,1)", "", t="str"), c("C2", "VARP(A1:A2,+A9)", 1),
        c("C3", '+A9=""', 1, t="b"), c("C4", "IF(A1>1,LEFT(+A9),1)", "", t="str")])
    assert (res["S!B1"], res["S!B2"], res["S!B3"], res["S!B4"]) == (0, 2, 0, "2")
    assert set(kept) == {"S!C1", "S!C2", "S!C3", "S!C4"}
    assert all("unary + of an empty cell" in why for why in kept.values())


def test_a_branch_not_taken_does_not_refuse_the_unary_plus(tmp_path):
    res, kept = _calc(tmp_path, [c("A1", None, 0), c("B1", "IF(A1>1,LEFT(+A9),7)", 7)])
    assert res["S!B1"] == 7 and not kept


def test_napkin_gives_excels_value_where_libreoffice_differs(tmp_path):
    res, kept = _calc(tmp_path, [
        c("A1", None, 1, t="b"), c("A2", None, 2), c("A3", None, 3),
        # a logical value as text: Excel saved RIGHT(TRUE,2) as "UE" and LEFT(TRUE,2) as
        # "TR" (tests/corpus/poi/FormulaEvalTestData_Copy.xlsx I1168, I824)
        c("B1", "RIGHT(AND(0))", "E", t="str"), c("B2", "LEFT(OR(1),2)", "TR", t="str"),
        # DATE(1900,1,9) is serial 9 (Microsoft KB 205719: 1 is 1 January 1900)
        c("B3", "TRIM(DATE(1900,1,9))", "9", t="str"),
        # numbers < text < FALSE < TRUE: 1E+10>TRUE is FALSE, INT(FALSE) 0 (Excel saved
        # INT of TRUE in a cell as 1: FormulaEvalTestData F756)
        c("B4", "INT((1E+10>TRUE))", 0), c("B5", "INT(A1)", 1),
        # month 255 of 9999 is in 10020, past 31 December 9999 (KB Q214331): #NUM!
        c("B6", 'DATE(9999,255,"2")', "#NUM!", t="e"),
        # SUMSQ: a logical value in a reference left out, one typed in counted (its page;
        # Excel saved SUMSQ(TRUE, TRUE, FALSE) as 2, FormulaEvalTestData M1332):
        # 2^2 + 3^2 = 13, and 13 + 1 + 1 = 15
        c("B7", "SUMSQ(A2:A3,A1,A1)", 13), c("B8", "SUMSQ(A2:A3,TRUE,TRUE)", 15),
        # 0^0 is #NUM! ([MS-OI29500]: "Office returns #NUM! for POWER(0,0)"), an empty
        # cell being 0: IFERROR gives its value_if_error
        c("B9", "IFERROR((A9^A9),-2.5)", -2.5),
        # HYPERLINK's value is the text of link_location, "TRUE", no number: #VALUE!
        c("B10", "-0.25+HYPERLINK(TRUE)", "#VALUE!", t="e")])
    assert not kept
    assert [res[f"S!B{i}"] for i in (1, 2, 3, 4, 5)] == ["E", "TR", "9", 0, 1]
    assert (res["S!B6"].code, res["S!B10"].code) == ("#NUM!", "#VALUE!")
    assert (res["S!B7"], res["S!B8"], res["S!B9"]) == (13, 15, -2.5)


def test_seed3_forms_napkin_computed_wrong_are_fixed(tmp_path):
    res, kept = _calc(tmp_path, [
        c("A1", None, 1, t="b"), c("A2", None, 2),
        # NPER at a rate of 0: pmt*nper + pv + fv = 0 (Microsoft Support, "PV function":
        # "If rate is 0, then: (pmt * nper) + pv + fv = 0"), so nper = -(pv + fv)/pmt:
        # -(1 + 3)/-2 = 2, -(1 + 1)/1 = -2, -(2 + 7.1)/7.1 = -1.2816901408450705
        c("B1", "NPER(0,-2,A1,2+A1)", 2), c("B2", "NPER(0,1,1,1)", -2),
        c("B3", "NPER((7.1>\"abc\"),7.1,2,7.1,0)", -1.28),
        # a nested call's text given to AND or OR is given directly: #VALUE! (Excel saved
        # AND("1",1) as #VALUE!, tests/corpus/poi/FormulaEvalTestData_Copy.xlsx J136)
        c("B4", 'AND(0,CLEAN("o"))', "#VALUE!", t="e"), c("B5", 'OR(0,"o")', "#VALUE!", t="e")])
    assert not kept
    assert (res["S!B1"], res["S!B2"]) == (2, -2)
    assert abs(res["S!B3"] - -9.1 / 7.1) < 1e-12
    assert res["S!B4"].code == res["S!B5"].code == "#VALUE!"


def test_seed3_forms_no_source_settles_are_refused(tmp_path):
    res, kept = _calc(tmp_path, [
        c("A1", None, 1.5),
        # SEARCH's page says nothing of an empty find_text (FIND's: start_num's character)
        c("B1", 'SEARCH("","abc")', 1), c("B2", 'SEARCH("b","abc")', 2),
        # YEARFRAC of a date that is not valid: its page #VALUE!, ECMA-376 #NUM!; a basis
        # out of range is #NUM! too: which comes first is not documented
        c("B3", "YEARFRAC(1E+10,1E+10,2)", 0), c("B4", "YEARFRAC(-1,-1,5)", "#NUM!", t="e"),
        c("B5", "YEARFRAC(45000,45100,5)", "#NUM!", t="e"),
        # DAYS360 of a day past 31 December 9999 and itself: no page says #NUM! or 0
        c("B6", "DAYS360(1E+20,1E+20)", 0),
        # ("abc"&A9) is one value in a formula (#VALUE! in OR), an array in an array
        # formula (its text left out): the engine cannot tell the two apart
        c("B7", 'OR(("abc"&A9),A1)', 1, t="b")])
    assert res["S!B2"] == 2 and res["S!B5"].code == "#NUM!"
    assert set(kept) == {"S!B1", "S!B3", "S!B4", "S!B6", "S!B7"}
    assert "empty find_text" in kept["S!B1"] and "YEARFRAC of a serial" in kept["S!B3"]
    assert "DAYS360 of a serial number outside" in kept["S!B6"]
    assert "one-value array" in kept["S!B7"]


def test_nper_refusal_reads_a_nested_calls_number(tmp_path):
    # TANH(0) is numpy's 0.0: a payment of 0 with a rate of 0 (no nper solves it, or
    # every one does) and a rate of -1 or below are refused, as when typed
    res, kept = _calc(tmp_path, [c("B1", "NPER(TANH(0),0,TANH(0))", 0),
                                 c("B2", "NPER(-2.5,-2.5,TANH(0))", 0)])
    assert set(kept) == {"S!B1", "S!B2"} and all("NPER with" in w for w in kept.values())


def test_mround_rounds_a_half_away_from_zero(tmp_path):
    # Microsoft Support, "MROUND function": "MROUND rounds up, away from zero, if the
    # remainder of dividing number by multiple is greater than or equal to half the value
    # of multiple"; its examples MROUND(10,3) 9, MROUND(-10,-3) -9, MROUND(1.3,0.2) 1.4,
    # MROUND(5,-2) #NUM!. A remainder of exactly half: 1/2 -> 2, 5/2 -> 6, -1/-2 -> -2
    # (formulas rounded half to even: 0, 4, -0, and 1.3/0.2 to 1.2)
    res, kept = _calc(tmp_path, [
        c("B1", "MROUND(10,3)", 9), c("B2", "MROUND(-10,-3)", -9), c("B3", "MROUND(1.3,0.2)", 1.4),
        c("B4", "MROUND(5,-2)", "#NUM!", t="e"), c("B5", "MROUND(1,2)", 2),
        c("B6", "MROUND((1+0),(1+1))", 2), c("B7", "MROUND(5,2)", 6), c("B8", "MROUND(-1,-2)", -2)])
    assert not kept
    assert [res[f"S!B{i}"] for i in (1, 2, 3)] == [9, -9, 1.4]
    assert res["S!B4"].code == "#NUM!"
    assert [res[f"S!B{i}"] for i in (5, 6, 7, 8)] == [2, 2, 6, -2]


def test_a_text_read_as_a_number_is_a_serial_number_of_the_1904_system(tmp_path):
    # YEAR("2") reads the text as the number 2, serial number 2: 3 January 1904 in the
    # 1904 date system (ECMA-376 Part 1, date representation: serial 0 is 1 January 1904),
    # as YEAR(2); a text that reads as a date names its day in either system
    res, kept = _calc(tmp_path, [
        c("B1", 'YEAR("2")', 1904), c("B2", "YEAR(BIN2OCT(10))", 1904), c("B3", "YEAR(2)", 1904),
        c("B4", 'YEAR("2024-03-15")', 2024)], date1904=True)
    assert not kept
    assert [res[f"S!B{i}"] for i in (1, 2, 3, 4)] == [1904, 1904, 1904, 2024]


def test_beta_dist_refusals_read_a_nested_calls_number(tmp_path):
    # ACOS(0) is numpy's 1.5707963267948966: the density at B (BETA.DIST(1,...,FALSE),
    # x = B = 1) is refused as when alpha is typed (its page says no value there); the
    # cumulative at 0.5 stays computed: 0.5^alpha for beta 1 (I_x(a,1) = x^a), and
    # BETA.DIST(0.5,2,3,TRUE) = I_0.5(2,3) = 11/16 (the sum of C(4,j)/16 for j = 2..4)
    res, kept = _calc(tmp_path, [
        c("B1", "BETA.DIST(1,ACOS(0),1,FALSE)", 0), c("B2", "BETA.DIST(0.5,ACOS(0),1,TRUE)", 0),
        c("B3", "BETA.DIST(0.5,2,3,1=1)", 0)])
    assert set(kept) == {"S!B1"} and "density at A or B" in kept["S!B1"]
    assert abs(res["S!B2"] - 0.5 ** (3.141592653589793 / 2)) < 1e-12
    assert abs(res["S!B3"] - 11 / 16) < 1e-12


def test_trunc_where_the_15_digits_excel_keeps_would_cut_otherwise_is_refused(tmp_path):
    # 7.1^3 is 357.91099999999994 in binary, 357.911 in the 15 digits Excel keeps: cut to 5
    # places the two give 357.91099 and 357.911 (ROUNDDOWN takes the 15 digits first,
    # tests/test_excel_cases.py; whether TRUNC does, no page says); where both cut the
    # same, TRUNC is computed (its page: TRUNC(8.9) is 8, TRUNC(-8.9) -8, TRUNC(PI()) 3)
    res, kept = _calc(tmp_path, [
        c("B1", "TRUNC((7.1^3),5)", 0), c("B2", "TRUNC(8.9)", 8), c("B3", "TRUNC(-8.9)", -8),
        c("B4", "TRUNC(PI())", 3), c("B5", "TRUNC(1234.567,-2)", 1200),
        # FACT of SQRT(1000), numpy's 31.62...: beyond its bound of 20, as typed
        c("B6", "FACT(SQRT(1000))", 0)])
    assert set(kept) == {"S!B1", "S!B6"} and "15 significant digits" in kept["S!B1"]
    assert [res[f"S!B{i}"] for i in (2, 3, 4, 5)] == [8, -8, 3, 1200]


def test_large_and_small_of_a_k_not_whole_are_refused(tmp_path):
    # LARGE of 4 and 0 with k 2.7: formulas took k up to 3 (#NUM!), LibreOffice cut it to
    # 2 (0); neither the LARGE nor the SMALL page says. A whole k stays computed: the 2nd
    # largest of 4 and 0 is 0, the smallest 0
    res, kept = _calc(tmp_path, [
        c("A1", None, 4), c("A2", None, 0),
        c("B1", "LARGE(A1:A2,2.7)", 0), c("B2", "SMALL(A1:A2,1.5)", 0),
        c("B3", "LARGE(A1:A2,2)", 0), c("B4", "SMALL(A1:A2,1)", 0)])
    assert set(kept) == {"S!B1", "S!B2"} and all("not a whole number" in w for w in kept.values())
    assert (res["S!B3"], res["S!B4"]) == (0, 0)


def test_the_unary_plus_of_the_empty_text_read_by_a_function_is_refused(tmp_path):
    # AVERAGE({1,2;3,4},2,+""): napkin's +"" is the text "", a text given directly that is
    # no number (#VALUE!, the AVERAGE page); PtgUplus leaving its operand unchanged, +A5 of
    # a cell holding ="" may be the cell, whose text AVERAGE leaves out (LibreOffice: 2.4).
    # No page or saved cell says which: refused. The formula's own value +A5 is "" either
    # way (A5's value)
    res, kept = _calc(tmp_path, [
        c("A1", None, 2), c("A2", None, 4), c("A5", '""', "", t="str"),
        c("B1", "+A5", "", t="str"),
        c("C1", 'AVERAGE(A1:A2,+"")', 0), c("C2", "AVERAGE(A1:A2,2,+A5)", 0)])
    assert res["S!B1"] == ""
    assert set(kept) == {"S!C1", "S!C2"}
    assert all('unary + of an empty cell or of the empty text ""' in why
               for why in kept.values())
