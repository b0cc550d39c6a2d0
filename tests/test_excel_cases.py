"""Cases where Excel's answer is known by hand, each in a minimal workbook of our own:
``napkin calc`` must give Excel's value (or refuse the workbook, saying why)."""

from __future__ import annotations

import re
from zipfile import ZipFile

import openpyxl
import pytest
import sheet_calc
import xlsx_make

from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError
from udfs.machinery.errors import ExcelError


@pytest.mark.parametrize("name", ["1", "2019", "places-dec2", "my sheet", "Q1-2025 (draft)"])
def test_sheet_names_excel_quotes(tmp_path, name):
    q = "'" + name + "'"
    res = xlsx_make.calc(tmp_path, {name: {"A1": 5, "A2": "=A1*2"},
                                    "Main": {"A1": f"={q}!A1+{q}!A2", "A2": f"=SUM({q}!A1:A2)"}})
    assert res[f"{q}!A2"] == 10  # 5*2
    assert res["Main!A1"] == 15 and res["Main!A2"] == 15  # 5 + 10


def test_row_and_column_without_argument(tmp_path):
    res = xlsx_make.calc(tmp_path, {"S": {"B3": "=ROW()", "C2": "=COLUMN()",
                                                   "D4": "=ROW()*100+COLUMN()"}})
    assert res["S!B3"] == 3 and res["S!C2"] == 3 and res["S!D4"] == 404  # D = column 4


def test_double_minus_turns_booleans_into_numbers(tmp_path):
    res = xlsx_make.calc(tmp_path, {"S": {"A1": 1, "A2": 2, "A3": 3,
                                          "B1": "=SUMPRODUCT(--(A1:A3>1))",  # 0+1+1
                                          "B2": "=--TRUE", "B3": "=+TRUE", "B4": "=1--1",
                                          "B5": '=--"3"', "B6": "=-TRUE"}})
    assert res["S!B1"] == 2 and res["S!B2"] == 1 and res["S!B3"] is True
    assert res["S!B4"] == 2 and res["S!B5"] == 3 and res["S!B6"] == -1


def test_ranges_to_the_last_row_and_column(tmp_path):
    res = xlsx_make.calc(tmp_path, {"S": {"B2": 1, "B3": 2, "B9": 4, "C1": 10, "E1": 20,
                                          "A1": "=SUM(B2:B1048576)", "A2": "=SUM(C1:XFD1)",
                                          "A3": "=SUM(B2:XFD1048576)", "A4": "=COUNT(B:B)"}})
    assert res["S!A1"] == 7  # 1+2+4
    assert res["S!A2"] == 30  # 10+20
    assert res["S!A3"] == 7  # rows 2.. of columns B..: B2, B3, B9 (C1, E1 are in row 1)
    assert res["S!A4"] == 3


# --------------------------------------------------------------- refused, or kept (§2)

REFUSED = {
    "structured": ("SUM(Table1[Amount])", "structured (table) references"),
    "3-D": ("SUM(Jan:Mar!B2)", "3-D references"),
    "3-D quoted": ("SUM('Jan 1:Mar 1'!B2)", "3-D references"),
    "external": ("[1]Sheet1!A1*2", "links to other workbooks"),
    "external quoted": ("'[2]Other sheet'!A1+1", "links to other workbooks"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_napkin_cannot_compute_is_refused_then_kept_with_lenient(tmp_path, case):
    formula, words = REFUSED[case]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"Jan": [
        xlsx_make.cell("A1", None, 5), xlsx_make.cell("B2", formula, 66),
        xlsx_make.cell("C3", "B2+1", 67)]})
    with pytest.raises(WorkbookError) as e:
        calc_workbook(src, tmp_path / "out.xlsx", {})
    assert words in str(e.value) and "Jan!B2" in str(e.value) and "--lenient" in str(e.value)
    assert not (tmp_path / "out.xlsx").exists()
    notes: list[str] = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False, notes=notes)
    assert res["Jan!B2"] == 66 and res["Jan!C3"] == 67  # Excel's value, and 66 + 1
    assert "Jan!B2" in notes[0] and words in notes[0]
    assert _cell_xml(tmp_path / "out.xlsx", "B2") == _cell_xml(src, "B2")  # left as it was


def test_date_functions_in_the_1904_date_system(tmp_path):
    # DATE(2024,1,1) is 45292 in the 1900 system and 45292 - 1462 = 43830 in the 1904 one
    # (Microsoft, "Date systems in Excel": the 1904 system's day 0 is 1 January 1904)
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", "DATE(2024,1,1)", 43830), xlsx_make.cell("A2", "1+1", 2),
        xlsx_make.cell("A3", "YEAR(A1)", 2024), xlsx_make.cell("A4", "EDATE(A1,1)", 43861),
        xlsx_make.cell("A5", "YEAR(0)", 1904), xlsx_make.cell("A6", 'TEXT(A1,"yyyy-mm-dd")',
                                                             "2024-01-01", t="str"),
        xlsx_make.cell("A7", 'DATEVALUE("1/1/2024")', 43830),
        xlsx_make.cell("A8", "DATE(1903,1,1)", "#NUM!", t="e"),
        xlsx_make.cell("A9", "YEARFRAC(A1,A4)", 0.08333333333333333)]}, date1904=True)
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!A1"] == 43830 and res["S!A2"] == 2 and res["S!A3"] == 2024
    assert res["S!A4"] == 43830 + 31 and res["S!A5"] == 1904 and res["S!A6"] == "2024-01-01"
    assert res["S!A7"] == 43830 and res["S!A8"].code == "#NUM!" and res["S!A9"] == 30 / 360


def test_workday_in_the_1904_date_system_is_refused(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", "WORKDAY(43830,5)", 43837), xlsx_make.cell("A2", "1+1", 2)]},
        date1904=True)
    with pytest.raises(WorkbookError, match="1904 date system"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False)
    assert res["S!A1"] == 43837 and res["S!A2"] == 2


def test_strict_open_xml_is_refused_with_the_fix(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [xlsx_make.cell("A1", "1+1", 2)]},
                          strict=True)
    for strict in (True, False):
        with pytest.raises(WorkbookError, match="Strict Open XML.*Excel Workbook"):
            calc_workbook(src, tmp_path / "out.xlsx", {}, strict=strict)
    assert not (tmp_path / "out.xlsx").exists()


def test_python_objects_are_never_written_as_text(tmp_path):
    res = xlsx_make.calc(tmp_path, {"S": {"A1": "=(-8)^(1/3)", "A2": "=INDEX({1,2;3,4},2,0)",
                                          "A3": "=MODE.MULT({1,2,2,3})"}})
    assert res["S!A1"] == ExcelError("#NUM!")  # Excel: a negative base to a fraction
    assert res["S!A2"] == 3 and res["S!A3"] == 2  # the first value, as one cell shows it


def _cell_xml(path, ref):
    with ZipFile(path) as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode()
    return re.search(rf'<c r="{ref}"[^>]*>.*?</c>', xml).group(0)


def test_cli_lenient_says_which_cells_keep_excels_values(tmp_path, capsys):
    from addin import cli

    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", "SUM(Jan:Mar!B2)", 66), xlsx_make.cell("A2", "A1*2", 132)]})
    out = tmp_path / "out.xlsx"
    # strict: A1 keeps Excel's value, and A2, which reads it, keeps its own (exit 4)
    assert cli.main(["calc", str(src), "-o", str(out)]) == 4
    err = capsys.readouterr().err
    assert "3-D references" in err and "S!A1" in err and "S!A2" in err
    out.unlink()
    assert cli.main(["calc", str(src), "-o", str(out), "--lenient", "--json"]) == 0
    cap = capsys.readouterr()
    assert '"S!A1": 66' in cap.out and '"S!A2": 132' in cap.out  # kept, then 66 * 2
    assert "kept the values Excel saved in S!A1" in cap.err


# --------------------------------------------------------------- every character kept (§3)


def test_calc_changes_nothing_but_cached_values(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", None, "World ", t="inlineStr", space=True),
        xlsx_make.cell("A2", 'A1&""', "World ", t="str"),
        xlsx_make.cell("A3", 'A1&CHAR(13)&CHAR(10)&"x"', "x", t="str"),
        xlsx_make.cell("A4", "1+1", 2)]})
    out = tmp_path / "out.xlsx"
    calc_workbook(src, out, {})
    with ZipFile(src) as a, ZipFile(out) as b:
        assert a.namelist() == b.namelist()
        for name in a.namelist():
            if name != "xl/worksheets/sheet1.xml":  # workbook.xml too: nothing to change
                assert a.read(name) == b.read(name), name
        xml = b.read("xl/worksheets/sheet1.xml").decode()
    assert '<v xml:space="preserve">World </v>' in xml
    assert "<v xml:space=\"preserve\">World _x000D_\nx</v>" in xml  # CR as Excel writes it
    got = openpyxl.load_workbook(out, data_only=True)["S"]
    assert got["A2"].value == "World " and got["A4"].value == 2


def test_freeze_without_napkin_cells_changes_nothing(tmp_path):
    from addin.transform.freeze import freeze

    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", "TEXT(1,\"General\")", "1", t="str"),
        xlsx_make.cell("A2", "1+65", 66)]})
    out = tmp_path / "out.xlsx"
    assert freeze(src, out, {"RIDGE": lambda *a: 1}) == 0
    with ZipFile(src) as a, ZipFile(out) as b:
        assert {n: a.read(n) for n in a.namelist()} == {n: b.read(n) for n in b.namelist()}


def test_a_reference_in_one_cell_is_implicitly_intersected(tmp_path):
    cells = {f"A{r}": r * 10 for r in range(1, 11)}
    cells.update({"C1": 1, "D1": 2, "E1": 3,
                  "B5": "=A1:A10",  # Excel (before dynamic arrays): the row's cell, A5
                  "D7": "=C1:E1",  # the column's cell, D1
                  "F5": "=A1:B2",  # 2-D: #VALUE!
                  "G20": "=A1:A10"})  # no common row: #VALUE!
    res = xlsx_make.calc(tmp_path, {"S": cells})
    assert res["S!B5"] == 50 and res["S!D7"] == 2
    assert res["S!F5"] == ExcelError("#VALUE!") and res["S!G20"] == ExcelError("#VALUE!")


def test_row_in_a_shared_formula_is_each_cells_own(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        '<c r="B2"><f t="shared" ref="B2:B4" si="0">IF(ROW()&gt;2,"late","early")</f>'
        '<v>0</v></c>', '<c r="B3"><f t="shared" si="0"/><v>0</v></c>',
        '<c r="B4"><f t="shared" si="0"/><v>0</v></c>']})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert [res[f"S!B{r}"] for r in (2, 3, 4)] == ["early", "late", "late"]


def test_a_formula_that_is_not_excels_syntax_is_refused_or_kept(tmp_path):
    # LibreOffice with a decimal comma saved this (apache/poi's clone_sheet.xlsx has it)
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", None, 4), xlsx_make.cell("A2", "A1-(-4,3)", 8.3)]})
    with pytest.raises(WorkbookError, match="cannot read the formulas in S!A2"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    assert calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False)["S!A2"] == 8.3


# --------------------------------------------------------------- values Excel saved


def test_round_takes_the_15_digits_excel_keeps_first(tmp_path):
    res = xlsx_make.calc(tmp_path, {"S": {
        "A1": "=1*(0.001+0.5-0.4-0.05-0.001)",  # 0.049999999999999975 in binary
        "A2": "=ROUND(A1,1)",  # 0.1: the value Excel saved in apache/poi's 56315.xlsx
        # Microsoft's ROUND, ROUNDUP and ROUNDDOWN help pages, their examples
        "B1": "=ROUND(-1.475,2)", "B2": "=ROUND(21.5,-1)", "B3": "=ROUND(2.15,1)",
        "C1": "=ROUNDUP(-3.14159,1)", "C2": "=ROUNDUP(31415.92654,-2)",
        "D1": "=ROUNDDOWN(-3.14159,1)", "D2": "=ROUNDDOWN(31415.92654,-2)"}})
    assert res["S!A2"] == 0.1
    assert res["S!B1"] == -1.48 and res["S!B2"] == 20 and res["S!B3"] == 2.2
    assert res["S!C1"] == -3.2 and res["S!C2"] == 31500
    assert res["S!D1"] == -3.1 and res["S!D2"] == 31400


def test_dates_as_text_outside_excels_calendar_are_errors(tmp_path):
    # xlcalculator's YEAR.xlsx, saved by Excel: YEAR("7/5/1800") and YEAR("7/5/10000")
    # are #VALUE! (Excel's dates run from 1900 to 9999), whichever of 7 and 5 is the month.
    # YEAR("7/5/2008") is 2008 there; but 7 May or 5 July depends on the computer's
    # settings (addin.formula.locale_texts), decided where the text is read, before YEAR:
    # strict mode keeps Excel's value, as it keeps every reading of such a text
    t, c = sheet_calc.text, xlsx_make.cell
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        t("A1", "7/5/1800"), t("A2", "7/5/10000"), t("A3", "7/5/2008"),
        c("B1", "YEAR(A1)", "#VALUE!", t="e"), c("B2", "YEAR(A2)", "#VALUE!", t="e"),
        c("B3", "YEAR(A3)", 2008), c("C1", "DATEVALUE(A1)", "#VALUE!", t="e")])
    assert res["S!B1"] == ExcelError("#VALUE!") and res["S!B2"] == ExcelError("#VALUE!")
    assert res["S!C1"] == ExcelError("#VALUE!")
    assert list(kept) == ["S!B3"] and "day and month" in kept["S!B3"] and res["S!B3"] == 2008


def test_a_line_break_in_xml_is_read_as_an_xml_parser_reads_it(tmp_path):
    # Excel (sheetjs' crlf.xlsx) writes CHAR(13)&CHAR(10) in a cached text as "_x000D_"
    # then a raw CR LF, which XML parsers read as one LF: the value is "abc\r\ndef"
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        '<c r="A1" t="str"><f>"abc"&amp;CHAR(13)&amp;CHAR(10)&amp;"def"</f>'
        '<v>abc_x000D_\r\ndef</v></c>', '<c r="A2" t="str"><f>A1</f><v>x</v></c>']},
        shared_strings=["one\r\ntwo"])
    from addin.ooxml import xlsx_values as xv

    with ZipFile(src) as z:
        cells = list(xv.read_cells(z.read("xl/worksheets/sheet1.xml").decode()))
        assert xv.decode_xstring(cells[0].v) == "abc\r\ndef"
        assert xv.read_book(z).shared_strings == ["one\ntwo"]
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!A1"] == "abc\r\ndef" == res["S!A2"]


def test_ranges_inside_an_expression_of_a_one_cell_formula(tmp_path):
    # sheetjs' formulae_test_simple.xlsx, saved by Excel: SUM(A1:A5*B1:B5) in row 6 is
    # #VALUE! (no row of A1:A5 meets row 6), as an array formula 55 (1+4+9+16+25)
    cells = [xlsx_make.cell(f"A{r}", None, r) for r in range(1, 6)]
    cells += [xlsx_make.cell(f"B{r}", None, r) for r in range(1, 6)]
    cells += [xlsx_make.cell("A6", "SUM(A1:A5*B1:B5)", "#VALUE!", t="e"),
              '<c r="B6"><f t="array" ref="B6">SUM(A1:A5*B1:B5)</f><v>55</v></c>',
              xlsx_make.cell("C6", "SUMPRODUCT(A1:A5*B1:B5)", 55),
              # Microsoft, "Implicit intersection operator: @": in row 3, A1:A5 is A3
              xlsx_make.cell("C3", "A1:A5*B1:B5", 9),
              xlsx_make.cell("D3", "IF(A1:A5>2,\"big\",\"small\")", "big", t="str"),
              xlsx_make.cell("E3", "SUMPRODUCT(--(A1:A5>2))", 3)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!A6"] == ExcelError("#VALUE!") and res["S!B6"] == 55 and res["S!C6"] == 55
    assert res["S!C3"] == 9 and res["S!D3"] == "big" and res["S!E3"] == 3


def test_a_range_in_an_expression_inside_a_function_napkin_cannot_place_is_refused(tmp_path):
    # whether NPV's argument is one value or the whole range here is not known to napkin
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", None, 1), xlsx_make.cell("A2", None, 2),
        xlsx_make.cell("B3", "NPV(0.1,A1:A2*2)", 5.12)]})
    with pytest.raises(WorkbookError, match=r"single value inside NPV\(\) .* in S!B3"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    assert calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False)["S!B3"] == 5.12
