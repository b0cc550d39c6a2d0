"""Text, numbers and dates as Excel converts and formats them, each in a minimal workbook
of our own: TEXT and its number formats, DOLLAR, BASE and the base conversions, numbers
turned into text and back, DATE and YEARFRAC (or the workbook refused, saying why)."""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError


def test_dollar_and_base(tmp_path):
    res = xlsx_make.calc(tmp_path, {"S": {
        # Microsoft's DOLLAR help, its examples
        "A1": "=DOLLAR(1234.567,2)", "A2": "=DOLLAR(1234.567,-2)", "A3": "=DOLLAR(-1234.567,-2)",
        "A4": "=DOLLAR(-0.123,4)", "A5": "=DOLLAR(99.888)",
        # Microsoft's BASE help, its examples
        "B1": "=_xlfn.BASE(7,2)", "B2": "=_xlfn.BASE(100,16)", "B3": "=_xlfn.BASE(15,2,10)",
        "B4": "=_xlfn.BASE(-1,2)"}})
    assert [res[f"S!A{r}"] for r in range(1, 6)] == [
        "$1,234.57", "$1,200", "($1,200)", "($0.1230)", "$99.89"]
    assert [res[f"S!B{r}"] for r in (1, 2, 3)] == ["111", "64", "0000001111"]
    assert res["S!B4"].code == "#NUM!"


def test_hyperlink_shows_its_name(tmp_path):
    res = xlsx_make.calc(tmp_path, {"S": {"A1": '=HYPERLINK("https://example.com","Example")',
                                          "A2": '=HYPERLINK("https://example.com")'}})
    assert res["S!A1"] == "Example" and res["S!A2"] == "https://example.com"


def test_numbers_and_text_convert_as_in_excel(tmp_path):
    res = xlsx_make.calc(tmp_path, {"S": {
        # Microsoft's VALUE help: "$1,000" is 1000, "16:48:00"-"12:00:00" is 0.2 of a day
        "A1": '=VALUE("$1,000")', "A2": '=VALUE("16:48:00")-VALUE("12:00:00")',
        "A3": '=VALUE("50%")', "A4": '="1,000"*2', "A5": '="1,00"*2', "A6": '="(5)"+0',
        # numbers as text: 15 significant digits (Microsoft, "Floating-point arithmetic
        # may give inaccurate results in Excel"); apache/poi's FormulaEvalTestData.xls,
        # saved by Excel: SEARCH(1, 0.00001) is 7, the number written "0.00001"
        "B1": '="x"&(0.1+0.2)', "B2": '="x"&1/3', "B3": "=LEN(0.1+0.2)",
        "B4": "=SEARCH(1,0.00001)", "B5": '="x"&1234.5',
        # Microsoft's SEARCH help: "e" in "Statements" from 6 is 7; ? and * wildcards
        "C1": '=SEARCH("e","Statements",6)', "C2": '=SEARCH("m?rg*n","Profit Margin")',
        "C3": '=SEARCH("~*","a*b")',
        # a blank cell is FALSE beside a logical value (apache/poi's FormulaEvalTestData:
        # FALSE=D7 with D7 blank is TRUE), "" beside text, 0 beside a number
        "D1": "=FALSE=Z1", "D2": '=Z1=""', "D3": "=Z1=0", "D4": "=Z1=TRUE",
        # Microsoft's COUNTA help: errors and "" count, empty cells do not
        "E1": '=""', "E2": "=1/0", "E3": "=COUNTA(E1:E2,Z1:Z3)", "E4": '=COUNTA(1,"",Z1)'}})
    assert res["S!A1"] == 1000 and abs(res["S!A2"] - 0.2) < 1e-12 and res["S!A3"] == 0.5
    assert res["S!A4"] == 2000 and res["S!A5"].code == "#VALUE!" and res["S!A6"] == -5
    assert res["S!B1"] == "x0.3" and res["S!B2"] == "x0.333333333333333" and res["S!B3"] == 3
    assert res["S!B4"] == 7 and res["S!B5"] == "x1234.5"
    assert res["S!C1"] == 7 and res["S!C2"] == 8 and res["S!C3"] == 2
    assert [res[f"S!D{r}"] for r in (1, 2, 3, 4)] == [True, True, True, False]
    assert res["S!E3"] == 2 and res["S!E4"] == 2


def test_a_number_excel_writes_in_scientific_notation_is_refused_in_text(tmp_path):
    with pytest.raises(WorkbookError, match="the text of the number 1e\\+20"):
        xlsx_make.calc(tmp_path, {"S": {"A1": '="x"&1E+20'}})


def test_base_conversions_with_cell_arguments(tmp_path):
    # Microsoft's help pages of DEC2BIN, DEC2HEX, HEX2DEC, BIN2DEC and OCT2HEX, examples
    res = xlsx_make.calc(tmp_path, {"S": {
        "A1": 9, "A2": -100, "A3": "A5", "A4": 1100100, "A5": 4,
        "B1": "=DEC2BIN(A1,A5)", "B2": "=DEC2BIN(A2)", "B3": "=HEX2DEC(A3)",
        "B4": "=BIN2DEC(A4)", "B5": '=HEX2DEC("FFFFFFFF5B")', "B6": "=DEC2HEX(-54)",
        "B7": "=OCT2HEX(100,A5)", "B8": "=DEC2BIN(A1,2)", "B9": "=DEC2BIN(A2,0)"}})
    assert res["S!B1"] == "1001" and res["S!B2"] == "1110011100" and res["S!B3"] == 165
    assert res["S!B4"] == 100 and res["S!B5"] == -165 and res["S!B6"] == "FFFFFFFFCA"
    assert res["S!B7"] == "0040" and res["S!B8"].code == "#NUM!"
    assert res["S!B9"].code == "#NUM!"  # places 0, even for a negative number (BASES.xlsx)


def test_text_with_number_formats(tmp_path):
    res = xlsx_make.calc(tmp_path, {"S": {
        # Microsoft's TEXT help, its examples
        "A1": '=TEXT(1234.567,"$#,##0.00")', "A2": '=TEXT(0.285,"0.0%")',
        "A3": '=TEXT(1234.567,"0.00E+00")', "A4": '=TEXT(1234,"0000000")',
        "A5": '=TEXT(DATE(2024,3,14),"MM/DD/YY")', "A6": '=TEXT(DATE(2024,3,14),"dddd")',
        "A7": '=TEXT(TIME(13,29,0),"H:MM AM/PM")',
        # sections: positive;negative;zero;text (Microsoft, "Number format codes")
        "B1": '=TEXT(-5,"0.0;(0.0);""zero""")', "B2": '=TEXT(0,"0.0;(0.0);""zero""")',
        "B3": '=TEXT("abc","0;0;0;""<""@"">""")', "B4": '=TEXT(1234567,"#,##0,")',
        "B5": '=TEXT(50,"[<100]""low"";""high""")', "B6": '=TEXT(1.5,"[h]:mm")'}})
    assert res["S!A1"] == "$1,234.57" and res["S!A2"] == "28.5%"
    assert res["S!A3"] == "1.23E+03" and res["S!A4"] == "0001234"
    assert res["S!A5"] == "03/14/24" and res["S!A6"] == "Thursday" and res["S!A7"] == "1:29 PM"
    assert res["S!B1"] == "(5.0)" and res["S!B2"] == "zero" and res["S!B3"] == "<abc>"
    assert res["S!B4"] == "1,235" and res["S!B5"] == "low" and res["S!B6"] == "36:00"


def test_text_formats_napkin_does_not_render_are_refused(tmp_path):
    with pytest.raises(WorkbookError, match="TEXT with fractions"):
        xlsx_make.calc(tmp_path, {"S": {"A1": '=TEXT(4.34,"# ?/?")'}})


def test_text_in_another_languages_excel_is_refused(tmp_path):
    # apache/poi's 61495-test.xlsm, saved by a German Excel: TEXT(67.1,"00.00") is
    # "0.067" there ("." groups thousands); napkin reads formats as English Excel does
    cells = [xlsx_make.cell("A1", None, 67.1),
             xlsx_make.cell("B1", 'TEXT(A1,"00.00")', "0.067", t="str")]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    with pytest.raises(WorkbookError, match="TEXT giving another text than Excel saved"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    src = xlsx_make.write(tmp_path / "in2.xlsx", {"S": cells[:1] + [
        xlsx_make.cell("B1", 'TEXT(A1,"00.00")')]})  # no value saved: computed
    assert calc_workbook(src, tmp_path / "out2.xlsx", {})["S!B1"] == "67.10"


def test_text_of_the_clock_needs_only_the_same_shape(tmp_path):
    # hfwalvir/Financial-Modelling, Variance Analysis Dashboard.xlsx (the tuning pool):
    # Dashboard!C4 = TEXT(TODAY(),"MMMM") saved "January", the month Excel saved it in;
    # computed another month it gives another English month name, the same shape
    # (addin.engine.support.text_shape), so the file is computed. RobisonTorres/
    # Personal_Finance, Personal Budget - English.xlsx (the fifth held-out part) saved
    # "Abril" for PROPER(TEXT(TODAY(),"MMMM")), a Portuguese Excel's: refused. A TEXT
    # that does not read the clock is compared as before (March's "March" against a saved
    # "January": refused).
    from addin.engine import support

    assert support.text_shape("January") == support.text_shape("December") == "<>"
    assert support.text_shape("Happy Saturday!") == support.text_shape("Happy Monday!")
    assert support.text_shape("1,234.5") == support.text_shape("9,870.25") != \
        support.text_shape("1.234,5")
    assert support.text_shape("Abril") != support.text_shape("April")
    c = xlsx_make.cell
    cells = [c("C1", "TODAY()", 45000), c("B1", 'TEXT(TODAY(),"MMMM")', "January", t="str"),
             c("B2", 'TEXT(C1,"dddd")', "Wednesday", t="str")]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!B1"] in ("January", "February", "March", "April", "May", "June", "July",
                           "August", "September", "October", "November", "December")
    src = xlsx_make.write(tmp_path / "in2.xlsx", {"S": [
        c("B1", 'PROPER(TEXT(TODAY(),"MMMM"))', "Abril", t="str")]})
    with pytest.raises(WorkbookError, match="TEXT giving another text than Excel saved"):
        calc_workbook(src, tmp_path / "out2.xlsx", {})
    src = xlsx_make.write(tmp_path / "in3.xlsx", {"S": [
        c("A1", None, 45366), c("B1", 'TEXT(A1,"MMMM")', "January", t="str")]})
    with pytest.raises(WorkbookError, match="TEXT giving another text than Excel saved"):
        calc_workbook(src, tmp_path / "out3.xlsx", {})


def test_yearfrac(tmp_path):
    res = xlsx_make.calc(tmp_path, {"S": {
        # Microsoft's YEARFRAC help: 2012-01-01 to 2012-07-30 is 0.58055556 (basis 0),
        # 0.57650273 (1), 0.57808219 (3)
        "A1": "=YEARFRAC(DATE(2012,1,1),DATE(2012,7,30))",
        "A2": "=YEARFRAC(DATE(2012,1,1),DATE(2012,7,30),1)",
        "A3": "=YEARFRAC(DATE(2012,1,1),DATE(2012,7,30),3)",
        # by hand: actual/360 is 211/360; reversed dates give the same; basis 5 is #NUM!
        "A4": "=YEARFRAC(DATE(2012,1,1),DATE(2012,7,30),2)",
        "A5": "=YEARFRAC(DATE(2012,7,30),DATE(2012,1,1))",
        "A6": "=YEARFRAC(DATE(2012,1,1),DATE(2012,7,30),5)",
        # actual/actual across years: 2011-07-01..2013-07-01 is 731 days over the mean
        # of 365, 366, 365 days (Wheeler's account of Excel's algorithm)
        "A7": "=YEARFRAC(DATE(2011,7,1),DATE(2013,7,1),1)"}})
    assert abs(res["S!A1"] - 0.58055556) < 5e-9 and abs(res["S!A2"] - 0.57650273) < 5e-9
    assert abs(res["S!A3"] - 0.57808219) < 5e-9 and res["S!A4"] == 211 / 360
    assert res["S!A5"] == res["S!A1"] and res["S!A6"].code == "#NUM!"
    assert res["S!A7"] == 731 / ((365 + 366 + 365) / 3)


def test_date_carries_months_and_days_over(tmp_path):
    res = xlsx_make.calc(tmp_path, {"S": {
        # Microsoft's DATE help: 2008-14-02 is 2 February 2009 (39846), 2008-01-35 is
        # 4 February 2008 (39482), 2008-01-(-15) is 16 December 2007 (39432)
        "A1": "=DATE(2008,14,2)", "A2": "=DATE(2008,1,35)", "A3": "=DATE(2008,1,-15)",
        # apache/poi's FormulaEvalTestData.xls, saved by Excel: DATE(1900,1,22222) is
        # 22222 (the days added to 1 January 1900 count Excel's 29 February 1900)
        "A4": "=DATE(1900,1,22222)", "A5": "=DATE(1900,3,0)", "A6": "=DATE(108,1,2)",
        "A7": "=DATE(10000,1,1)"}})
    assert res["S!A1"] == 39846 and res["S!A2"] == 39482 and res["S!A3"] == 39432
    assert res["S!A4"] == 22222 and res["S!A5"] == 60 and res["S!A6"] == 39449  # 2008-01-02
    assert res["S!A7"].code == "#NUM!"


def test_text_general_fits_eleven_characters(tmp_path):
    # apache/poi's GeneralFormatTests.xlsx, saved by Excel: General in TEXT takes at most
    # 11 characters: 1.2345678912 is "1.234567891", 112345900000 is "1.12346E+11"
    res = xlsx_make.calc(tmp_path, {"S": {"A1": '=TEXT(1.2345678912,"General")',
                                          "A2": '=TEXT(112345900000,"General")',
                                          "A3": '=TEXT(-100000000000,"General")',
                                          "A4": '=TEXT(1234.5,"General")'}})
    assert res["S!A1"] == "1.234567891" and res["S!A2"] == "1.12346E+11"
    assert res["S!A3"] == "-1E+11" and res["S!A4"] == "1234.5"


# Microsoft Support, "SUBSTITUTE function", its examples: "Sales Data" with "Cost" for
# "Sales" is "Cost Data"; in "Quarter 1, 2008" the first "1" becomes "2": "Quarter 2,
# 2008"; in "Quarter 1, 2011" only the third "1" becomes "2": "Quarter 1, 2012".
# napkin native writes SUBSTITUTE into its helper cells, so strict mode must compute it.
@pytest.mark.parametrize("formula, excel", [
    ('=SUBSTITUTE("Sales Data","Sales","Cost")', "Cost Data"),
    ('=SUBSTITUTE("Quarter 1, 2008","1","2",1)', "Quarter 2, 2008"),
    ('=SUBSTITUTE("Quarter 1, 2011","1","2",3)', "Quarter 1, 2012"),
])
def test_substitute_as_microsofts_examples(formula, excel):
    from addin.engine.api import evaluate

    assert evaluate(formula) == excel


@pytest.mark.parametrize("value, code, excel", [
    # values Excel saved in tests/corpus/poi/NumberFormatApproxTests.xlsx (sheet Tests):
    # k placeholders before the point make the exponent a multiple of k
    (123456.789, "|####.####|e-|#|", "|12.3457|e|4|"),
    (123456.789, "|#######.####|e-|#|", "|123456.789|e|0|"),
    (123456.789, "|?,??????.????|e-|?|", "|  123,456.789 |e|0|"),
    (123456.789, "|0000.0000|e-|0|", "|0012.3457|e|4|"),
    (0.000123456789, "|###.####|e+|#|", "|123.4568|e|-6|"),
    (0.000123456789, "|#####.####|e+|#|", "|12.3457|e|-5|"),
    # the exponent's placeholders padded as a number's, its sign in front, commas dropped
    (1.2345678e+142, "|#.#|e+|????|", "|1.2|e|+ 142|"),
    (1.2345678e-142, "|#.#|e+|000,00|", "|1.2|e|-00142|"),
    # % shown, not applied; a comma after the mantissa's digits does not scale
    (123456.789, "|#%e-#|", "|1%e5|"), (123456.789, "|#,e-#|", "|1e5|"),
    # 0: a 0 in every integer placeholder
    (0, "|####.####|e+|#|", "|0000.|e|+0|"), (0, "|?.?|e-|?|", "|0. |e|0|"),
    (0, "|#.#|e+|???|", "|0.|e|+  0|"),
])
def test_text_in_scientific_formats_as_excel_saved(value, code, excel):
    from addin.excel.numfmt import text

    assert text(value, code) == excel


def test_a_scaling_comma_among_a_scientific_format_s_decimals_is_refused():
    from addin.excel.numfmt import text
    from addin.excel.numfmt_codes import Unsupported

    with pytest.raises(Unsupported, match="scaling comma"):
        text(123456.789, "0.0,E+0")  # (no value Excel saved says how it reads)


def test_dollar_in_another_countrys_settings_is_refused(tmp_path):
    # the business corpus's third part (seen), Financial Feasibility.xlsx, 'Balance sheet
    # forecast'!D52 = IF(D51=D56," ","Does not balance by " & DOLLAR(D56-D51,2)) saved
    # "Does not balance by -0,00 €": DOLLAR writes the computer's currency and separators
    # (Microsoft Support, "DOLLAR function"); napkin writes "$0.00"-style text, as English
    # (United States) Excel does, so a saved text in other settings refuses the cell
    c = xlsx_make.cell
    cells = [c("A1", None, -0.004),
             c("B1", '"Does not balance by " & DOLLAR(A1,2)', "Does not balance by -0,00 €",
               t="str")]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    with pytest.raises(WorkbookError, match="DOLLAR giving another text than Excel saved"
                                            ".* in S!B1"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    # saved as English (United States) Excel writes it: computed (Microsoft Support,
    # "DOLLAR function": DOLLAR(1234.567,2) is $1,234.57)
    src = xlsx_make.write(tmp_path / "in2.xlsx", {"S": [
        c("B1", "DOLLAR(1234.567,2)", "$1,234.57", t="str")]})
    assert calc_workbook(src, tmp_path / "out2.xlsx", {})["S!B1"] == "$1,234.57"


def test_a_format_in_english_united_states_is_rendered_and_other_locales_refused():
    # the business corpus's fifteenth part (seen), acollant040216's Personal Finance
    # Tracker.xlsx: Calendar!C4 = TEXT(DATE(C$3,ROW()-3,1),"[$-409]mmm-yy") saved "Jan-25"
    # (C3 2025; 45658 is 1 January 2025). ECMA-376 Part 1, 18.8.31, "[$USD-409]": a
    # currency written as it is, then the language info in hexadecimal, 409 English
    # (United States), the language napkin renders every format in; [$-407] (German) and
    # [$-F800] (the computer's long date) are the computer's or another language's: refused
    from addin.excel.numfmt import text
    from addin.excel.numfmt_codes import Unsupported

    assert text(45658, "[$-409]mmm-yy") == "Jan-25"
    assert text(45658, "[$-en-US]mmmm d, yyyy") == "January 1, 2025"
    assert text(1234.5, "[$$-409]#,##0.00") == "$1,234.50"
    assert text(1234.5, "[$USD-409] #,##0.00") == "USD 1,234.50"
    for code in ("[$-407]mmmm", "[$-F800]dddd, mmmm dd, yyyy", "[$€-407]#,##0.00"):
        with pytest.raises(Unsupported, match="the format code"):
            text(45658, code)
