"""Excel functions computed unlike Excel that the differential test (LibreOffice as a
referee, tests/test_differential.py) found, each fixed or refused, in a minimal workbook
of our own. Each expected value is worked by hand from the Microsoft Support page named
beside it."""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine import evaluate
from addin.ooxml.guard import WorkbookError
from udfs.machinery.errors import ExcelError

# A1:A5 hold 3, the text "12", 1, TRUE, empty; B1:B5 hold 10, 20, 30, the text "40", 50
DATA = {"A1": 3, "A2": "12", "A3": 1, "A4": True, "B1": 10, "B2": 20, "B3": 30,
        "B4": "40", "B5": 50}


#: how strict mode names a form of argument that no evidence of the function covers
#: (addin/formula/excel_functions/)
NUMERIC_TEXT = r"{}\(\) given text that looks like a number"


def _calc(tmp_path, cells: dict, **kw):
    return xlsx_make.calc(tmp_path, {"S": DATA | cells}, **kw)


def test_sumif_and_averageif_add_numbers_only(tmp_path):
    # Microsoft Support, "SUMIF function" / "AVERAGEIF function": the cells of sum_range
    # that match are added; a text is not a number. "<>5" matches A1:A5 all five (none is
    # 5): of B1:B5 the numbers 10+20+30+50 = 110, their mean 27.5 (the text "40" left out)
    res = _calc(tmp_path, {"C1": '=SUMIF(A1:A5,"<>5",B1:B5)',
                           "C2": '=AVERAGEIF(A1:A5,"<>5",B1:B5)',
                           "C3": '=SUMIF(B1:B5,"<>5")'})
    assert res["S!C1"] == 110 and res["S!C2"] == 27.5 and res["S!C3"] == 110


def test_sumif_sizes_its_range_to_add(tmp_path):
    # Microsoft Support, "SUMIF function": sum_range "does not have to be the same size
    # and shape as the range"; the cells added start at its upper leftmost cell and take
    # range's size and shape (its table: A1:A5 with B1:B3 adds B1:B5); Microsoft Learn,
    # "WorksheetFunction.AverageIf method", the same of average_range. Here E1:E4 hold
    # 1, 2, 3, 4 and F1:F5 10, 20, 30, 40, 50; ">1" matches rows 2 to 4:
    # F1 -> F1:F4, 20+30+40 = 90; F1:F9 (larger) -> F1:F4, 90; F2:G2 -> F2:F5, rows 2 to 4
    # of it are F3:F5, 30+40+50 = 120; AVERAGEIF from F2 -> F2:F5: (30+40+50)/3 = 40
    data = {"E1": 1, "E2": 2, "E3": 3, "E4": 4, "F1": 10, "F2": 20, "F3": 30, "F4": 40,
            "F5": 50}
    res = _calc(tmp_path, data | {"C1": '=SUMIF(E1:E4,">1",F1)',
                                  "C2": '=SUMIF(E1:E4,">1",F1:F9)',
                                  "C3": '=SUMIF(E1:E4,">1",F2:G2)',
                                  "C4": '=AVERAGEIF(E1:E4,">1",F2)'})
    assert [res[f"S!C{r}"] for r in range(1, 5)] == [90, 90, 120, 40]
    # a formula in the cells sized to, after the SUMIF in the order: computed first
    # (F6 = F5+1 = 51; E5, E6 = 5, 6 match ">4": F5+F6 = 101)
    res = _calc(tmp_path, data | {"E5": 5, "E6": 6, "F6": "=F5+1",
                                  "C1": '=SUMIF(E1:E6,">4",F1)'})
    assert res["S!C1"] == 101


def test_sumif_refuses_a_range_to_add_it_cannot_size(tmp_path):
    # B1048575 sized to E1:E3's three rows goes past the sheet's last row (1,048,576):
    # no page says what Excel gives, so strict mode refuses and --lenient keeps the cell
    cells = {"E1": 1, "E2": 2, "E3": 3, "C1": '=SUMIF(E1:E3,">0",B1048575)'}
    with pytest.raises(WorkbookError, match="SUMIF with a range to add of another size"):
        _calc(tmp_path, cells)
    assert "S!C1" in _calc(tmp_path, cells, strict=False)


def test_a_criterion_that_orders_numbers_over_a_text_number_is_refused(tmp_path):
    # ">2" over A1:A5, which holds the text "12": whether Excel compares it with 2 is not
    # on Microsoft's COUNTIF or SUMIF page, so strict mode refuses: COUNTIF for the form
    # (no evidence of COUNTIF given text that looks like a number), SUMIF (whose evidence
    # covers that text) for the criterion; over B1:B3 (numbers only) COUNTIF counts 10,
    # 20, 30: 3
    with pytest.raises(WorkbookError, match=NUMERIC_TEXT.format("COUNTIF")):
        _calc(tmp_path, {"C1": '=COUNTIF(A1:A5,">2")'})
    with pytest.raises(WorkbookError, match='criterion ">2" over a text'):
        _calc(tmp_path, {"C1": '=SUMIF(A1:A5,">2",B1:B5)'})
    assert _calc(tmp_path, {"C1": '=COUNTIF(B1:B3,">2")'})["S!C1"] == 3


def test_substitute_an_empty_old_text(tmp_path):
    # Microsoft Support, "SUBSTITUTE function": old_text is the text to replace; an empty
    # one replaces nothing, the text is as it was
    res = _calc(tmp_path, {"C1": '=SUBSTITUTE("ab","","x")', "C2": '=SUBSTITUTE("","","x",1)',
                           "C3": '=SUBSTITUTE("abab","b","x",2)'})
    assert res["S!C1"] == "ab" and res["S!C2"] == "" and res["S!C3"] == "abax"


def test_sumproduct_of_different_dimensions(tmp_path):
    # Microsoft Support, "SUMPRODUCT function": "The array arguments must have the same
    # dimensions. If they do not, SUMPRODUCT returns the #VALUE! error value"; the same
    # dimensions: 3*10 + 1*30 = 60 (A2 and A4 are not numbers: 0)
    res = _calc(tmp_path, {"C1": "=SUMPRODUCT(A1:A3,B1:B5)",
                           "C2": "=SUMPRODUCT(A1:A4,B1:B4)"})
    assert isinstance(res["S!C1"], ExcelError) and res["S!C1"].code == "#VALUE!"
    assert res["S!C2"] == 60
    # with an error value among them (B6) the page does not say which comes first, so
    # strict mode refuses it (fx_excel.sumproduct); computed, as napkin eval does, the
    # dimensions come first (formulas gave the error value)
    with pytest.raises(WorkbookError, match=r"arrays of different dimensions holding one"):
        _calc(tmp_path, {"B6": "=NA()", "C1": "=SUMPRODUCT(A1:A3,B1:B6)"})
    assert evaluate('=SUMPRODUCT({3;"12";1},{10;20;30;#N/A})').code == "#VALUE!"


def test_mode_mult_is_a_vertical_array(tmp_path):
    # Microsoft Support, "MODE.MULT function": a vertical array of the most frequent
    # values; {1;2;2;3;3} has two, 2 and 3: their sum 5, two rows, the second 3
    res = _calc(tmp_path, {"C1": "=SUM(_xlfn.MODE.MULT({1;2;2;3;3}))",
                           "C2": "=ROWS(_xlfn.MODE.MULT({1;2;2;3;3}))",
                           "C3": "=INDEX(_xlfn.MODE.MULT({1;2;2;3;3}),2,1)",
                           "C4": "=INDEX(_xlfn.MODE.MULT({1;2;3}),1,1)"})
    assert res["S!C1"] == 5 and res["S!C2"] == 2 and res["S!C3"] == 3
    assert isinstance(res["S!C4"], ExcelError) and res["S!C4"].code == "#N/A"


def test_rows_and_columns_of_an_array_constant(tmp_path):
    # Microsoft Support, "ROWS function", "COLUMNS function": the argument is "an array,
    # an array formula, or a reference to a range of cells"; {1,2,3} is one row of three
    # columns, {1;2;3} three rows of one, B1:B5 five rows
    res = _calc(tmp_path, {"C1": "=ROWS({1,2,3})", "C2": "=COLUMNS({1,2,3})",
                           "C3": "=ROWS({1;2;3})", "C4": "=COLUMNS({1,2;3,4})",
                           "C5": "=ROWS(B1:B5)",
                           "C7": "=ROWS({1,2,3;4,5,6})", "C8": "=COLUMNS({1,2,3;4,5,6})"})
    assert [res[f"S!C{i}"] for i in range(1, 6)] == [1, 3, 3, 2, 5]
    # the examples of Microsoft's ROWS and COLUMNS pages: 2 rows, 3 columns
    assert res["S!C7"] == 2 and res["S!C8"] == 3
    # ROWS of an error value is on neither page: strict mode refuses it; napkin eval
    # gives the error value (its argument's)
    with pytest.raises(WorkbookError, match=r"ROWS\(\) given .*an error value"):
        _calc(tmp_path, {"C6": "=ROWS(1/0)"})
    assert evaluate("=ROWS(1/0)").code == "#DIV/0!"



def test_match_in_an_area_of_several_rows_and_columns_is_refused(tmp_path):
    # Microsoft Support, "MATCH function": lookup_array is the range searched, one row
    # or column in every example; formulas searched an area row by row (MATCH(20,...) of
    # A1:B5 gave 4), so strict mode refuses; D1:E2 holds numbers only (10, 20; 30, 40);
    # in B1:B3 20 is the 2nd
    numbers = {"D1": 10, "E1": 20, "D2": 30, "E2": 40}
    with pytest.raises(WorkbookError, match="MATCH in an area of several rows"):
        _calc(tmp_path, numbers | {"C1": "=MATCH(20,D1:E2,0)"})
    assert _calc(tmp_path, {"C1": "=MATCH(20,B1:B3,0)"})["S!C1"] == 2
    # A1:B5 is an area of several rows and columns (refused as D1:E2); B1:B5 holds the text
    # "40", which the number 20 never matches (Microsoft KB 213476: a number is looked up
    # among numbers only; tests/test_checked_lookups.py): 20 is the 2nd
    with pytest.raises(WorkbookError, match="MATCH in an area of several rows"):
        _calc(tmp_path, {"C1": "=MATCH(20,A1:B5,0)"})
    assert _calc(tmp_path, {"C1": "=MATCH(20,B1:B5,0)"})["S!C1"] == 2


def test_a_date_written_yyyy_mm_dd_is_a_date_where_a_number_is_needed(tmp_path):
    # Microsoft Support, "DATEVALUE function" and "Calculation operators and precedence"
    # (="6/1/2001"-"5/1/2001" is 31: a date written as text is read as its serial
    # number; written year first here, as "6/1/2001" is read by the computer's settings,
    # addin/formula/locale_texts.py); 2024-03-15 is serial 45366 (45292 for 2024-01-01,
    # plus 31+29+14 days); 2024-02-30 is no date: #VALUE!
    res = _calc(tmp_path, {"C1": '="2024-03-15"+0', "C2": '="2024-03-15"-"12"',
                           "C3": '="2024-02-30"+0', "C4": '=DATEVALUE("2024-02-30")',
                           "C5": '="2001/6/1"-"2001/5/1"'})
    assert res["S!C1"] == 45366 and res["S!C2"] == 45354 and res["S!C5"] == 31
    assert res["S!C3"].code == "#VALUE!" and res["S!C4"].code == "#VALUE!"


def test_wildcard_criteria_match_the_whole_text_without_case(tmp_path):
    # Microsoft Support, "COUNTIF function" (? one character, * any sequence, ~ before
    # them for themselves; criteria are not case sensitive): of "apple", "Apple pie",
    # "a*b", "cab": "a*" matches the first three, "a~*b" only "a*b", "?ab" only "cab"
    words = {"D1": "apple", "D2": "Apple pie", "D3": "a*b", "D4": "cab"}
    res = _calc(tmp_path, words | {"E1": '=COUNTIF(D1:D4,"a*")', "E2": '=COUNTIF(D1:D4,"a~*b")',
                                   "E3": '=COUNTIF(D1:D4,"?ab")', "E4": '=COUNTIF(D1:D4,"<>a*")'})
    assert [res[f"S!E{i}"] for i in range(1, 5)] == [3, 1, 1, 1]


def test_vlookup_index_below_one_and_combina_number_below_number_chosen(tmp_path):
    # Microsoft Support, "VLOOKUP function" (col_index_num below 1: #VALUE!) and
    # "COMBINA function" (number must be "greater than or equal to number_chosen",
    # else #NUM!); COMBINA(4,3) = C(6,3) = 20, its page's example
    res = _calc(tmp_path, {"C1": "=VLOOKUP(10,B1:B3,0,FALSE)", "C2": "=VLOOKUP(10,B1:B3,1,FALSE)",
                           "C3": "=_xlfn.COMBINA(3,12)", "C4": "=_xlfn.COMBINA(4,3)"})
    assert res["S!C1"].code == "#VALUE!" and res["S!C2"] == 10
    assert res["S!C3"].code == "#NUM!" and res["S!C4"] == 20
    # B1:B5 holds the text "40", never matched by a number (Microsoft KB 213476): 10 is
    # found, so the index below 1 is #VALUE! as above
    res = _calc(tmp_path, {"C1": "=VLOOKUP(10,B1:B5,0,FALSE)"})
    assert res["S!C1"].code == "#VALUE!"


def test_datedif_units_without_case(tmp_path):
    # Microsoft Support, "DATEDIF function" writes its units in lower case: 1 March 2024
    # (serial 45352) to 15 March 2024 (45366) is 14 days, in "d" as in "D"; 0 years
    res = _calc(tmp_path, {"C1": '=DATEDIF(45352,45366,"d")', "C2": '=DATEDIF(45352,45366,"D")',
                           "C3": '=DATEDIF(45352,45366,"y")'})
    assert res["S!C1"] == 14 and res["S!C2"] == 14 and res["S!C3"] == 0



def test_a_negative_number_to_a_fractional_power_is_num_where_a_function_reads_it(tmp_path):
    # a negative number to a fractional power has no real value: #NUM! in Excel (Microsoft
    # Tech Community, "Decimal numbers in function not working": (-0.166667/5)^1.534 is
    # #NUM!) and in LibreOffice (the differential test's YEAR((-0.25^-0.25))); napkin gave
    # #NUM! in a cell of its own but #VALUE! where INT or YEAR read it, and ISERROR was
    # FALSE; an integral power of a negative number is a number: (-8)^3 = -512
    res = _calc(tmp_path, {"C1": "=INT((-0.25)^2.5)", "C2": "=ISERROR((-1)^0.5)",
                           "C3": "=(-8)^3", "C4": "=(-8)^(1/3)"})
    assert res["S!C1"].code == "#NUM!" and res["S!C2"] is True
    assert res["S!C3"] == -512 and res["S!C4"].code == "#NUM!"


def test_lookup_with_a_vector_of_several_rows_and_columns_is_refused(tmp_path):
    # Microsoft Support, "LOOKUP function": the vector form's lookup_vector is "a range
    # that contains only one row or one column"; what Excel gives for B1:C3 is not said
    # (napkin gave #N/A, LibreOffice #VALUE!), so strict mode refuses; in B1:B3 (10, 20,
    # 30) 25 matches "the largest value that is less than or equal to" it: 20
    numbers = {"C1": 1, "C2": 2, "C3": 3}
    with pytest.raises(WorkbookError, match="LOOKUP with a lookup_vector of several rows"):
        _calc(tmp_path, numbers | {"D1": "=LOOKUP(25,B1:C3,B1:C3)"})
    assert _calc(tmp_path, {"D1": "=LOOKUP(25,B1:B3,B1:B3)"})["S!D1"] == 20


def test_sumif_refuses_an_emptiness_criterion_over_a_formulas_empty_text(tmp_path):
    # Microsoft's SUMIF and AVERAGEIF pages do not say whether "<>" (or "=") matches a
    # formula's empty text; LibreOffice matches it ("<>" over In!D1:D10, D6 ="", adding
    # B2:B11 gave 41, napkin 39: the differential test's full run, seed 5). Refused, as
    # COUNTIF is; "a" over the same cells is computed (E1 = 1, the one match)
    cells = {"D1": "a", "D2": '=""', "D3": "b", "E1": 1, "E2": 2, "E3": 4}
    for formula in ('=SUMIF(D1:D3,"<>",E1:E3)', '=AVERAGEIF(D1:D3,"=",E1)'):
        with pytest.raises(WorkbookError, match="over a formula's empty text"):
            _calc(tmp_path, cells | {"C1": formula})
    assert _calc(tmp_path, cells | {"C1": '=SUMIF(D1:D3,"a",E1)'})["S!C1"] == 1
