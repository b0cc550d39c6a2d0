"""Core evaluation as Excel does it, each case in a minimal workbook of our own: defined
names with relative references, comparisons across kinds, error values as arguments,
functions lifted over arrays, criteria with ``<>``, string literals with line breaks,
ranges over the whole sheet, implicit intersection, and the functions FLOOR, CEILING,
SWITCH, AND, OR and TEXTJOIN. The value each must give is Excel's, from the source
named beside it; where napkin cannot give it, strict mode refuses the workbook."""

from __future__ import annotations

import math

import pytest
import xlsx_make

from addin.engine.api import calc_workbook
from udfs.machinery.errors import ExcelError

c = xlsx_make.cell


def _code(v):
    """An error value's code (its message aside), or None."""
    return v.code if isinstance(v, ExcelError) else None


def _calc(tmp_path, cells, names=None, **kw):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells}, names=names)
    return calc_workbook(src, tmp_path / "out.xlsx", {}, **kw)


# ------------------------------------------------------------- defined names, relative

def test_defined_names_with_relative_references_follow_the_cell_that_uses_them(tmp_path):
    # PHPOffice/PhpSpreadsheet samples/DefinedNames/NamedFormulaeAndRanges.php: CHARGE_RATE
    # =$B$1, HOURS_PER_DAY =$B1 ("a cell in the row where it is used"), DAILY_CHARGE
    # =HOURS_PER_DAY*CHARGE_RATE in C4:C8, COLUMN_DATA_VALUES =A$4:A$8 ("the column where
    # it is used"), COLUMN_TOTALS =SUM(COLUMN_DATA_VALUES) in B10 and C10. A workbook
    # stores a name's relative references as seen from A1 (Excel reads them from the
    # cell that uses the name), so $B1 in C5 is $B5.
    hours = [7.5, 7.25, 6.5, 7.0, 5.5]
    cells = [c("B1", None, 7.5)]
    for i, h in enumerate(hours, 4):
        cells += [c(f"B{i}", None, h), c(f"C{i}", "DAILY_CHARGE")]
    cells += [c("B10", "COLUMN_TOTALS"), c("C10", "COLUMN_TOTALS")]
    res = _calc(tmp_path, cells, names={
        "CHARGE_RATE": "S!$B$1", "HOURS_PER_DAY": "S!$B1",
        "DAILY_CHARGE": "HOURS_PER_DAY*CHARGE_RATE", "COLUMN_DATA_VALUES": "S!A$4:A$8",
        "COLUMN_TOTALS": "SUM(COLUMN_DATA_VALUES)"})
    for i, h in enumerate(hours, 4):
        assert res[f"S!C{i}"] == pytest.approx(h * 7.5)  # C5: 7.25 * 7.5 = 54.375
    assert res["S!B10"] == pytest.approx(math.fsum(hours))  # 33.75 hours
    assert res["S!C10"] == pytest.approx(math.fsum(hours) * 7.5)  # 253.125


def test_a_name_whose_formula_gives_a_reference_is_a_reference(tmp_path):
    # Microsoft Support, "INDEX function": the reference form returns a reference, so
    # INDEX(...):INDEX(...) is a range; a defined name of it (the template's tables:
    # workbook.sheet.table_column) is that range where a formula uses it, so COUNTIF,
    # MATCH and COUNTA take it as they take a range (not an array of its values)
    cells = [c(f"A{i}", None, v) for i, v in enumerate(["GPU", "a", "b", "c", "note"], 1)]
    cells += [c("C1", 'COUNTIF(T,"b")'), c("C2", 'MATCH("c",T,0)'), c("C3", "COUNTA(T)"),
              c("C4", "INDEX(T,1)")]
    res = _calc(tmp_path, cells, names={
        "T": "INDEX(S!$A$1:$A$5,2):INDEX(S!$A$1:$A$5,ROWS(S!$A$1:$A$5)-1)"})
    assert (res["S!C1"], res["S!C2"], res["S!C3"], res["S!C4"]) == (1, 3, 3, "a")


# ----------------------------------------------------------------- comparisons, kinds

def test_comparisons_between_text_numbers_and_logical_values(tmp_path):
    # Microsoft Support, "Calculation operators and precedence in Excel" and "Sort data
    # in a range or table" (numbers < text < FALSE < TRUE, text without case): "abc">400
    # and TRUE>"zzz" are TRUE; an empty cell is 0 beside a number, "" beside a text.
    res = _calc(tmp_path, [
        c("A1", None, "abc", t="inlineStr"), c("B1", "A1>400"), c("B2", '"abc">400'),
        c("B3", 'TRUE>"zzz"'), c("B4", "FALSE>99999"), c("B5", '"a"<"B"'),
        c("B6", '"A"="a"'), c("B7", '"1"=1'), c("B8", "A9=0"), c("B9", 'A9=""'),
        c("B10", "-1<A9")])
    assert [res[f"S!B{i}"] for i in range(1, 11)] == [
        True, True, True, True, True, True, False, True, True, True]


def test_if_or_and_over_an_empty_cell(tmp_path):
    # PHPOffice/PhpSpreadsheet tests/data/Reader/XLSX/issue.2301.xlsx, K57:
    # IF(OR(AO56>400,AND(AM57>400,AO56=0)),"M","H") with AO56 empty and AM57 38980:
    # OR(FALSE, AND(TRUE, TRUE)) is TRUE, "M" by the rules of the test above (the file
    # caches "H", a value its own cells do not give: a stale cache).
    res = _calc(tmp_path, [c("AM57", None, 38980),
                           c("K57", 'IF(OR(AO56>400,AND(AM57>400,AO56=0)),"M","H")')])
    assert res["S!K57"] == "M"


# -------------------------------------------------------------- error values as args

def test_an_error_value_given_as_a_range_is_the_result(tmp_path):
    # Microsoft Support, "XLOOKUP function": the lookup_array is a range; an error value
    # there is the result (Excel: =XLOOKUP(C5,#REF!,#REF!,0) is #REF!, the case of the
    # ClosedXML workbook held back from the corpus).
    res = _calc(tmp_path, [c("C5", None, 1), c("A1", "XLOOKUP(C5,#REF!,#REF!,0)"),
                           c("A2", "SUM(#REF!)")])
    assert _code(res["S!A1"]) == "#REF!" and _code(res["S!A2"]) == "#REF!"


# ----------------------------------------------------------------- lifted over arrays

def test_date_and_switch_are_computed_for_each_value_of_an_array_formula(tmp_path):
    # Microsoft Support, "Guidelines and examples of array formulas": a function of single
    # values given a range in an array formula gives one result per cell.
    # {=DATE(A2:A6,1,1)} over B2:B6: 1 January 2020..2024 are serials 43831, 44197,
    # 44562, 44927, 45292 (Microsoft Support, "DATE function": 1 January 1900 is 1).
    cells = [c(f"A{r}", None, 2018 + r) for r in range(2, 7)]
    cells += ['<c r="B2"><f t="array" ref="B2:B6">DATE(A2:A6,1,1)</f></c>',
              '<c r="C2"><f t="array" ref="C2:C6">SWITCH(A2:A6,2020,"x","y")</f></c>']
    res = _calc(tmp_path, cells)
    assert [res[f"S!B{r}"] for r in range(2, 7)] == [43831, 44197, 44562, 44927, 45292]
    assert [res[f"S!C{r}"] for r in range(2, 7)] == ["x", "y", "y", "y", "y"]


def test_a_function_of_single_values_given_many_is_computed_for_each(tmp_path):
    # TEXT has value parameters; in an array formula Excel computes it for each cell
    # (Microsoft Support, "Guidelines and examples of array formulas"), as napkin now does
    # (addin/formula/array_sizes.py, each_element): 1, 2, 3 in the format "0.0" by hand
    cells = [c(f"A{r}", None, r) for r in range(1, 4)]
    cells.append('<c r="B1"><f t="array" ref="B1:B3">TEXT(A1:A3,"0.0")</f></c>')
    got = _calc(tmp_path, cells)
    assert [got[f"S!B{r}"] for r in (1, 2, 3)] == ["1.0", "2.0", "3.0"]


# ------------------------------------------------------------------------- criteria

def test_countif_not_equal(tmp_path):
    # Microsoft Support, "COUNTIF function": =COUNTIF(A2:A5,"<>"&B4) counts the cells
    # not equal to B4, empty ones included; "<>" alone counts the cells that are not
    # empty. A1:A5 here: 1, 5, "x", empty, 7; A6:A10 empty.
    res = _calc(tmp_path, [
        c("A1", None, 1), c("A2", None, 5), c("A3", None, "x", t="inlineStr"),
        c("A5", None, 7), c("B2", None, 5),
        c("C1", 'COUNTIF(A1:A5,"<>")'),  # 1, 5, "x", 7
        c("C2", 'COUNTIF(A1:A10,"<>5")'),  # ten cells but A2
        c("C3", 'COUNTIF(A1:A5,CONCAT("<>",B2))'),  # five cells but A2
        c("C4", 'COUNTIF(A1:A5,"<>x")'),  # five cells but A3
        c("C5", 'SUMIF(A1:A5,"<>5")')])  # 1 + 7
    assert (res["S!C1"], res["S!C2"], res["S!C3"], res["S!C4"], res["S!C5"]) == (
        4, 9, 4, 4, 8)


# -------------------------------------------------------------------- string literals

def test_a_line_break_inside_a_string_literal_is_kept(tmp_path):
    # Microsoft Support, "LEN function": every character counts; CHAR(10) is the line
    # break (apache/poi dataValidationTableRange.xlsx has one inside a literal).
    res = _calc(tmp_path, [c("A1", 'LEN("a\nb")'), c("A2", '"a\nb"'),
                           c("A3", 'FIND(CHAR(10),"ab\ncd")')])
    assert res["S!A1"] == 3 and res["S!A2"] == "a\nb" and res["S!A3"] == 3


# ----------------------------------------------------- whole sheet, implicit intersect

def test_ranges_over_the_whole_sheet(tmp_path):
    # Microsoft Support, "Excel specifications and limits": 16,384 columns (XFD) and
    # 1,048,576 rows; A:XFD and 1:1048576 are every cell of the sheet: 1 + 2 + 7.
    src = xlsx_make.write(tmp_path / "in.xlsx", {
        "S": [c("A1", None, 1), c("A2", None, 2), c("C5", None, 7)],
        "T": [c("A1", "SUM(S!A:XFD)"), c("A2", "SUM(S!$A:$XFD)"),
              c("A3", "SUM(S!1:1048576)"), c("A4", "SUM(S!B:XFD)")]})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert (res["T!A1"], res["T!A2"], res["T!A3"], res["T!A4"]) == (10, 10, 10, 7)


def test_a_column_given_to_a_value_parameter_is_intersected_with_the_row(tmp_path):
    # Microsoft, "Implicit intersection operator: @": =COT(A:A) in row 2 is COT(A2);
    # COT(2) = cos(2)/sin(2) (Microsoft Support, "COT function"). =S!A:A in row 2 of a
    # one-cell formula is the value of A2.
    src = xlsx_make.write(tmp_path / "in.xlsx", {
        "S": [c("A1", None, 1), c("A2", None, 2)],
        "T": [c("A2", "COT(S!A:A)"), c("B2", "S!A1:A3")]})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["T!A2"] == pytest.approx(math.cos(2) / math.sin(2))
    assert res["T!B2"] == 2


# -------------------------------------------------------------------------- functions

def test_floor_and_ceiling(tmp_path):
    # Microsoft Support, "FLOOR function" (FLOOR(3.7,2) is 2, FLOOR(-2.5,-2) is -2,
    # FLOOR(2.5,-2) #NUM!), "CEILING function" (CEILING(2.5,1) is 3, CEILING(-2.5,2) is
    # -2, CEILING(-2.5,-2) is -4), "FLOOR.MATH function" (FLOOR.MATH(-5.5,2,-1) is -4),
    # "CEILING.MATH function" (CEILING.MATH(-5.5,2,-1) is -6, CEILING.MATH(-5.5) is
    # -5). FLOOR(7.1,0.1) is 7.1 in Excel (828 cells of a held-back Excel-saved file),
    # though 7.1/0.1 is 70.99999999999999 in binary.
    forms = {"A1": ("FLOOR(7.1,0.1)", 7.1), "A2": ("FLOOR(3.7,2)", 2),
             "A3": ("FLOOR(-2.5,-2)", -2), "A4": ("CEILING(2.5,1)", 3),
             "A5": ("CEILING(-2.5,2)", -2), "A6": ("CEILING(-2.5,-2)", -4),
             "A7": ("_xlfn.FLOOR.MATH(-5.5,2,-1)", -4),
             "A8": ("_xlfn.CEILING.MATH(-5.5,2,-1)", -6),
             "A9": ("_xlfn.CEILING.MATH(-5.5)", -5), "A10": ("CEILING(0.3,0.1)", 0.3)}
    res = _calc(tmp_path, [c(ref, f) for ref, (f, _) in forms.items()]
                + [c("B1", "FLOOR(2.5,-2)")])
    for ref, (_, want) in forms.items():
        assert res[f"S!{ref}"] == want, ref
    assert _code(res["S!B1"]) == "#NUM!"


def test_switch_and_or_textjoin(tmp_path):
    # Microsoft Support, "SWITCH function" (values compared as = compares them: text
    # without case), "AND function" and "OR function" (the text "TRUE" given directly is
    # TRUE; other text given directly #VALUE!; text in a reference left out),
    # "TEXTJOIN function" (an empty delimiter joins with nothing).
    res = _calc(tmp_path, [
        c("A1", None, "x", t="inlineStr"), c("A2", None, 1, t="b"),
        c("B1", '_xlfn.SWITCH("a","A",1,2)'), c("B2", "_xlfn.SWITCH(1,TRUE,1,2)"),
        c("B3", '_xlfn.SWITCH(3,1,"a")'), c("B4", 'AND("TRUE")'), c("B5", 'OR("false")'),
        c("B6", 'AND("abc")'), c("B7", "AND(A1:A2)"), c("B8", "OR(A1)"),
        c("B9", '_xlfn.TEXTJOIN(,TRUE,"a","b")'), c("B10", '_xlfn.TEXTJOIN("-",TRUE,A1:A4)'),
        c("B11", '_xlfn.TEXTJOIN("-",FALSE,A1:A3)')])
    assert res["S!B1"] == 1 and res["S!B2"] == 2 and _code(res["S!B3"]) == "#N/A"
    assert res["S!B4"] is True and res["S!B5"] is False
    assert _code(res["S!B6"]) == "#VALUE!" and res["S!B7"] is True
    assert _code(res["S!B8"]) == "#VALUE!"  # no logical value in the reference
    assert res["S!B9"] == "ab" and res["S!B10"] == "x-TRUE" and res["S!B11"] == "x-TRUE-"


def test_edate_outside_excels_calendar(tmp_path):
    # Microsoft Support, "EDATE function" (EDATE("15-Jan-11",1) is 15-Feb-11, serial
    # 40589) and "Excel specifications and limits" (dates from 1 January 1900, serial 1,
    # to 31 December 9999, serial 2958465): a date moved outside is #NUM!.
    res = _calc(tmp_path, [c("A1", "EDATE(40558,1)"), c("A2", "EDATE(1,-5)"),
                           c("A3", "EDATE(2958465,1)"), c("A4", "EDATE(40558,-1)")])
    assert res["S!A1"] == 40589 and res["S!A4"] == 40527  # 15 Dec 2010
    assert _code(res["S!A2"]) == "#NUM!" and _code(res["S!A3"]) == "#NUM!"


def test_eomonth_at_the_end_of_excels_calendar(tmp_path):
    # Microsoft Support, "EOMONTH function" ("If start_date plus months yields an invalid
    # date, EOMONTH returns the #NUM! error value") and "Excel specifications and limits"
    # (the last date is 31 December 9999, serial 2958465). Worked by hand: 2958465 - 31
    # = 2958434 is 30 November 9999; 45000 is 15 March 2023, whose next month end is
    # 30 April 2023, 45000 + 16 + 30 = 45046; months truncated (1.9 is 1). formulas gave
    # #VALUE! for every month end of December 9999 (the differential test, seed 3).
    res = _calc(tmp_path, [c("A1", "EOMONTH(2958465,0)"), c("A2", "EOMONTH(2958465,5)"),
                           c("A3", "EOMONTH(2958465,-1)"), c("A4", "EOMONTH(2958434,1)"),
                           c("A5", "EOMONTH(45000,1.9)"),
                           c("A6", "ISOWEEKNUM(EOMONTH(2958465,1))")])
    assert res["S!A1"] == 2958465 and res["S!A3"] == 2958434 and res["S!A4"] == 2958465
    assert res["S!A5"] == 45046
    assert _code(res["S!A2"]) == "#NUM!" and _code(res["S!A6"]) == "#NUM!"
