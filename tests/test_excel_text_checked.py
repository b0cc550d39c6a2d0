"""Text and information functions and the comparisons the differential test (LibreOffice
as a referee, tests/test_differential.py) found computed unlike Excel, each fixed or
refused, in a minimal workbook of our own or through ``evaluate``. Each expected value is
worked by hand from the page or the Excel-saved file named beside it."""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine import evaluate
from addin.ooxml.guard import WorkbookError
from udfs.machinery.errors import ExcelError


def _calc(tmp_path, cells: dict, **kw):
    return xlsx_make.calc(tmp_path, {"S": cells}, **kw)


def _code(value) -> str | None:
    return value.code if isinstance(value, ExcelError) else None


def test_trim(tmp_path):
    # Microsoft Support, "TRIM function": "Removes all spaces from text except for single
    # spaces between words"; its example TRIM(" First Quarter Earnings ") is "First
    # Quarter Earnings"; it trims the 7-bit ASCII space (32) only, so a tab (CHAR(9))
    # stays. "  two  spaces " keeps one space of the two between its words
    res = _calc(tmp_path, {"A1": '=TRIM("  two  spaces ")',
                           "A2": '=TRIM(" First Quarter Earnings ")',
                           "A3": '=TRIM(" a"&CHAR(9)&" ")',
                           "A4": '=TRIM("   ")'})
    assert res["S!A1"] == "two spaces"
    assert res["S!A2"] == "First Quarter Earnings"
    assert res["S!A3"] == "a\t"
    assert res["S!A4"] == ""


def test_type_of_an_error_value():
    # Microsoft Support, "TYPE function": an error value is 16, a text 2, an array 64;
    # tests/corpus/sheetjs/ErrorTypes.xlsx, saved by Excel, TYPE of a cell holding an
    # error 16. SUM(1/0) and HEX2DEC("G") are error values our own functions give
    assert evaluate("=TYPE(SUM(1/0))") == 16
    assert evaluate('=TYPE(HEX2DEC("G"))') == 16
    assert evaluate("=TYPE(1/0)") == 16
    assert evaluate('=TYPE("a")') == 2
    assert evaluate("=TYPE({1,2})") == 64


def test_char_beyond_ascii(tmp_path):
    # Microsoft Support, "CHAR function": number from 1 to 255, the character of the
    # computer's set (Macintosh character set on a Mac, ANSI on Windows): CHAR(65) is
    # "A", CHAR(33) "!" (its examples); tests/corpus/poi/FormulaEvalTestData_Copy.xlsx,
    # saved by Excel 15, CHAR(-1) is #VALUE! (F220); the page's lower bound makes
    # CHAR(0) #VALUE! too. From 128 the two sets differ (255 is "ÿ" in ANSI, a caron in
    # the Macintosh set): strict mode refuses
    res = _calc(tmp_path, {"A1": "=CHAR(65)", "A2": "=CHAR(33)", "A3": "=CHAR(-1)",
                           "A4": "=CHAR(0)", "A5": "=CHAR(127)"})
    assert res["S!A1"] == "A" and res["S!A2"] == "!" and res["S!A5"] == "\x7f"
    assert _code(res["S!A3"]) == "#VALUE!" and _code(res["S!A4"]) == "#VALUE!"
    with pytest.raises(WorkbookError, match=r"CHAR\(255\), a character of the computer"):
        _calc(tmp_path, {"A1": "=CHAR(255)"})


def test_code(tmp_path):
    # Microsoft Support, "CODE function": the code of the first character of the text;
    # numbers are made text as Excel writes them, and Excel's numbers have no negative
    # zero ([MS-XLSB] 2.5.172 Xnum: it "MUST NOT be ... negative zero"): -0 is "0", code
    # 48 (formulas gave 45, "-"); 1.5 is "1.5", code 49; "A" 65 (ASCII)
    res = _calc(tmp_path, {"A1": "=CODE(SIN(-0))", "A2": "=CODE(-0)", "A3": "=CODE(1.5)",
                           "A4": '=CODE("Apple")'})
    assert [res[f"S!A{i}"] for i in range(1, 5)] == [48, 48, 49, 65]
    # a first character beyond ASCII is coded by the computer's character set, and the
    # page does not say CODE("")'s value: strict mode refuses both
    with pytest.raises(WorkbookError, match="CODE of 'é', a character of the computer"):
        _calc(tmp_path, {"A1": '=CODE("é")'})
    with pytest.raises(WorkbookError, match="CODE of an empty text"):
        _calc(tmp_path, {"A1": '=CODE("")'})


def test_text_of_a_number_or_logical_value_without_its_section(tmp_path):
    # tests/corpus/poi/TextFormatTests.xlsx, saved by Excel: a text or a logical value
    # given a format with @ is put in its place: TRUE with "-@-" is "-TRUE-", "jello"
    # with "\@@\@" "@jello@". Neither Microsoft's TEXT page nor a saved file says what
    # a number gives in a section with @, nor a logical value in a format without a
    # text section: strict mode refuses both (napkin gave the text "@" for TEXT(22,"@"))
    res = _calc(tmp_path, {"A1": '=TEXT(TRUE,"-@-")', "A2": '=TEXT("jello","\\@@\\@")'})
    assert res["S!A1"] == "-TRUE-" and res["S!A2"] == "@jello@"
    with pytest.raises(WorkbookError, match="a number given a format whose section"):
        _calc(tmp_path, {"A1": '=TEXT(22,"@")'})
    with pytest.raises(WorkbookError, match="a logical value given a format with no"):
        _calc(tmp_path, {"A1": '=TEXT(FALSE,"0.00")'})


def test_text_of_a_date_after_9999(tmp_path):
    # ECMA-376 Part 1, SpreadsheetML date representation: 2,958,465 is 31 December 9999,
    # the last day of the 1900 date system; a date format past it is refused (napkin
    # gave #VALUE! from Python's own limit on dates)
    assert _calc(tmp_path, {"A1": '=TEXT(2958465,"yyyy-mm-dd")'})["S!A1"] == "9999-12-31"
    with pytest.raises(WorkbookError, match="TEXT with a date after 9999"):
        _calc(tmp_path, {"A1": '=TEXT(2958466,"d")'})


def test_hyperlink_of_a_number(tmp_path):
    # Microsoft Support, "HYPERLINK function": the cell shows friendly_name, else
    # link_location; apache/poi FormulaEvalTestData (saved by Excel 15) D724
    # HYPERLINK("http://poi.apache.org") is that text. ECMA-376 Part 1, SpreadsheetML
    # function HYPERLINK (https://c-rex.net/samples/ooxml/e1/Part4/OOXML_P4_DOCX_
    # HYPERLINKHYPERLINK_topic_ID0EYDTDB.html): link-location is a text, the value
    # returned a text, so 72 given there is "72", -123.456 "-123.456" (its digits as
    # Excel writes a number in text)
    res = _calc(tmp_path, {"A1": '=HYPERLINK("http://poi.apache.org")',
                           "A2": '=HYPERLINK("http://x","name")',
                           "A3": '=HYPERLINK(CODE("Hello"))', "A4": "=HYPERLINK(-123.456)"})
    assert res["S!A1"] == "http://poi.apache.org" and res["S!A2"] == "name"
    assert res["S!A3"] == "72" and res["S!A4"] == "-123.456"
    # friendly_name may be "the jump text or numeric value" (Microsoft's page): whether
    # Excel's value is then the number or its text is not said, so strict mode refuses
    with pytest.raises(WorkbookError, match="HYPERLINK showing a number or a logical"):
        _calc(tmp_path, {"A1": '=HYPERLINK("http://x",2)'})


def test_substitute_instance_num(tmp_path):
    # tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, saved by Excel 15: SUBSTITUTE(
    # "testblankmatch","","!",1) is the text (P1312), SUBSTITUTE("ABCBBDBEB","B","x",-1)
    # #VALUE! (W1312), with 3 "ABCBxDBEB" (X1312: the third B replaced)
    res = _calc(tmp_path, {"A1": '=SUBSTITUTE("testblankmatch","","!",1)',
                           "A2": '=SUBSTITUTE("ABCBBDBEB","B","x",-1)',
                           "A3": '=SUBSTITUTE("ABCBBDBEB","B","x",3)'})
    assert res["S!A1"] == "testblankmatch" and res["S!A3"] == "ABCBxDBEB"
    assert _code(res["S!A2"]) == "#VALUE!"
    # an instance_num given as text or as a logical value is in no saved file nor on
    # the page: strict mode refuses them
    for f in ('=SUBSTITUTE("abc","b","x","1")', '=SUBSTITUTE("abc","b","x",TRUE)'):
        with pytest.raises(WorkbookError, match="SUBSTITUTE with an instance_num"):
            _calc(tmp_path, {"A1": f})


def test_countif_where_excel_is_not_documented(tmp_path):
    # A1:A4 hold 4, an empty cell, a formula's empty text (=""), 0. Microsoft's COUNTIF
    # page does not say whether "<>" counts a formula's empty text as empty: refused;
    # over A1:A2 alone (no empty text) "<>" counts the one cell that is not empty, 4
    cells = {"A1": 4, "A3": '=""', "A4": 0}
    with pytest.raises(WorkbookError, match='COUNTIF with the criterion "<>" over'):
        _calc(tmp_path, cells | {"C1": '=COUNTIF(A1:A4,"<>")'})
    assert _calc(tmp_path, cells | {"C1": '=COUNTIF(A1:A2,"<>")'})["S!C1"] == 1
    with pytest.raises(WorkbookError, match='COUNTIFS with the criterion "=" over'):
        _calc(tmp_path, cells | {"C1": '=COUNTIFS(A1:A4,"=")'})


def test_sumifs_where_excel_is_not_documented(tmp_path):
    # A1:A4 hold 4, an empty cell, a formula's empty text (=""), 0; B1:B4 hold 1 to 4.
    # Microsoft's SUMIFS and AVERAGEIFS pages do not say whether "<>" or "=" takes a
    # formula's empty text as empty (napkin added B1+B4 = 5 for "<>", LibreOffice adds B3
    # too, 8): refused. Over A1:A2 (no empty text) "<>" adds B1 alone, 1, and "=" B2, 2;
    # AVERAGEIFS of B1:B2 over "<>" is B1's 1
    cells = {"A1": 4, "A3": '=""', "A4": 0, "B1": 1, "B2": 2, "B3": 3, "B4": 4}
    with pytest.raises(WorkbookError, match='SUMIFS with the criterion "<>" over'):
        _calc(tmp_path, cells | {"C1": '=SUMIFS(B1:B4,A1:A4,"<>")'})
    with pytest.raises(WorkbookError, match='AVERAGEIFS with the criterion "=" over'):
        _calc(tmp_path, cells | {"C1": '=AVERAGEIFS(B1:B4,B1:B4,">0",A1:A4,"=")'})
    res = _calc(tmp_path, cells | {"C1": '=SUMIFS(B1:B2,A1:A2,"<>")',
                                   "C2": '=SUMIFS(B1:B2,A1:A2,"=")',
                                   "C3": '=AVERAGEIFS(B1:B2,A1:A2,"<>")'})
    assert (res["S!C1"], res["S!C2"], res["S!C3"]) == (1, 2, 1)


def test_a_comparison_of_two_error_values_is_refused(tmp_path):
    # Microsoft Support, "Calculation operators and precedence in Excel" does not say
    # which of two error values a comparison gives: refused; with one error value the
    # comparison gives it (Microsoft Support, "How to correct a #DIV/0! error": 1/0 is
    # #DIV/0!, and so is a formula that uses it)
    assert _code(_calc(tmp_path, {"A1": "=1/0<2"})["S!A1"]) == "#DIV/0!"
    with pytest.raises(WorkbookError, match="a comparison of two error values"):
        _calc(tmp_path, {"A1": "=1/0<=NA()"})


def test_sum_of_an_error_value_and_a_text_is_refused(tmp_path):
    # WorksheetFunction.Sum (learn.microsoft.com): "Arguments that are error values or
    # text that cannot be translated into numbers cause errors", but not which of the
    # two comes out when both are there: refused; either alone is the result, and a
    # text that reads as a number typed directly is counted (1+"3" = 4)
    res = _calc(tmp_path, {"A1": "=NA()", "B1": '=SUM(A1,1)', "B2": '=SUM("abc",2)',
                           "B3": '=SUM(1,"3")'})
    assert _code(res["S!B1"]) == "#N/A" and _code(res["S!B2"]) == "#VALUE!"
    assert res["S!B3"] == 4
    with pytest.raises(WorkbookError, match="SUM given an error value .* and a text"):
        _calc(tmp_path, {"A1": "=NA()", "B1": '=SUM(A1,"")'})
