"""Cases where Excel's answer is known by hand, each in a minimal workbook of our own:
``napkin calc`` must give Excel's value (or refuse the workbook, saying why)."""

from __future__ import annotations

import re
from zipfile import ZipFile

import openpyxl
import pytest
import xlsx_make

from addin.engine import calc_workbook
from addin.guard import WorkbookError
from udfs.errors import ExcelError


def _calc(tmp_path, sheets: dict[str, dict[str, object]], **kw):
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, cells in sheets.items():
        ws = wb.create_sheet(name)
        for ref, v in cells.items():
            ws[ref] = v
    src = tmp_path / "in.xlsx"
    wb.save(src)
    return calc_workbook(src, tmp_path / "out.xlsx", {}, **kw)


@pytest.mark.parametrize("name", ["1", "2019", "places-dec2", "my sheet", "Q1-2025 (draft)"])
def test_sheet_names_excel_quotes(tmp_path, name):
    q = "'" + name + "'"
    res = _calc(tmp_path, {name: {"A1": 5, "A2": "=A1*2"},
                           "Main": {"A1": f"={q}!A1+{q}!A2", "A2": f"=SUM({q}!A1:A2)"}})
    assert res[f"{q}!A2"] == 10  # 5*2
    assert res["Main!A1"] == 15 and res["Main!A2"] == 15  # 5 + 10


def test_row_and_column_without_argument(tmp_path):
    res = _calc(tmp_path, {"S": {"B3": "=ROW()", "C2": "=COLUMN()", "D4": "=ROW()*100+COLUMN()"}})
    assert res["S!B3"] == 3 and res["S!C2"] == 3 and res["S!D4"] == 404  # D = column 4


def test_double_minus_turns_booleans_into_numbers(tmp_path):
    res = _calc(tmp_path, {"S": {"A1": 1, "A2": 2, "A3": 3,
                                 "B1": "=SUMPRODUCT(--(A1:A3>1))",  # 0+1+1
                                 "B2": "=--TRUE", "B3": "=+TRUE", "B4": "=1--1",
                                 "B5": '=--"3"', "B6": "=-TRUE"}})
    assert res["S!B1"] == 2 and res["S!B2"] == 1 and res["S!B3"] is True
    assert res["S!B4"] == 2 and res["S!B5"] == 3 and res["S!B6"] == -1


def test_ranges_to_the_last_row_and_column(tmp_path):
    res = _calc(tmp_path, {"S": {"B2": 1, "B3": 2, "B9": 4, "C1": 10, "E1": 20,
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
    res = _calc(tmp_path, {"S": {"A1": "=(-8)^(1/3)", "A2": "=INDEX({1,2;3,4},2,0)",
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
    assert cli.main(["calc", str(src), "-o", str(out)]) != 0
    err = capsys.readouterr().err
    assert not out.exists() and "3-D references" in err and "in S!A1" in err
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
    from addin.freeze import freeze

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
    res = _calc(tmp_path, {"S": cells})
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
    res = _calc(tmp_path, {"S": {
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
    # are #VALUE! (Excel's dates run from 1900 to 9999)
    res = _calc(tmp_path, {"S": {"A1": "7/5/1800", "A2": "7/5/10000", "A3": "7/5/2008",
                                 "B1": "=YEAR(A1)", "B2": "=YEAR(A2)", "B3": "=YEAR(A3)",
                                 "C1": "=DATEVALUE(A1)"}})
    assert res["S!B1"] == ExcelError("#VALUE!") and res["S!B2"] == ExcelError("#VALUE!")
    assert res["S!C1"] == ExcelError("#VALUE!") and res["S!B3"] == 2008


def test_a_line_break_in_xml_is_read_as_an_xml_parser_reads_it(tmp_path):
    # Excel (sheetjs' crlf.xlsx) writes CHAR(13)&CHAR(10) in a cached text as "_x000D_"
    # then a raw CR LF, which XML parsers read as one LF: the value is "abc\r\ndef"
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        '<c r="A1" t="str"><f>"abc"&amp;CHAR(13)&amp;CHAR(10)&amp;"def"</f>'
        '<v>abc_x000D_\r\ndef</v></c>', '<c r="A2" t="str"><f>A1</f><v>x</v></c>']},
        shared_strings=["one\r\ntwo"])
    from addin import xlsx_values as xv

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


# --------------------------------------------------------------- functions napkin adds


def test_subtotal_leaves_out_hidden_rows_nested_subtotals_and_filtered_rows(tmp_path):
    # Microsoft's SUBTOTAL help: 120, 10, 150, 23 -> SUBTOTAL(9,...) 303, (1,...) 75.75
    data = [xlsx_make.cell("A1", None, "Data", t="inlineStr")] + [
        xlsx_make.cell(f"A{r}", None, v)
        for r, v in zip((2, 3, 4, 5), (120, 10, 150, 23), strict=True)]
    s = [*data, xlsx_make.cell("B1", "SUBTOTAL(9,A2:A5)", 0),
         xlsx_make.cell("B2", "SUBTOTAL(109,A2:A5)", 0),  # row 4 hidden: 120+10+23
         xlsx_make.cell("B3", "SUBTOTAL(1,A2:A5)", 0),
         xlsx_make.cell("B4", "SUBTOTAL(9,A2:A5,B1:B3)", 0),  # B1:B3 are subtotals
         xlsx_make.cell("B5", "SUBTOTAL(3,A1:A5)", 0),  # COUNTA: the header too
         xlsx_make.cell("B6", "SUBTOTAL(102,A1:A5)", 0),  # numbers in visible rows
         xlsx_make.cell("B7", "SUBTOTAL(4,A2:A5)+SUBTOTAL(105,A2:A5)", 0),  # 150 + 10
         xlsx_make.cell("B8", "SUBTOTAL(12,A2:A5)", 0),
         xlsx_make.cell("B9", "SUBTOTAL(9,A2:A5)*2", 0)]
    f = [*data, xlsx_make.cell("B1", "SUBTOTAL(9,A2:A5)", 0)]  # rows 2, 4, 5 filtered out
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": s, "F": f},
                          hidden={"S": {4}, "F": {2, 4, 5}},
                          after={"F": '<autoFilter ref="A1:A5"><filterColumn colId="0">'
                                      '<filters><filter val="10"/></filters></filterColumn>'
                                      '</autoFilter>'})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!B1"] == 303 and res["S!B2"] == 153 and res["S!B3"] == 75.75
    assert res["S!B4"] == 303 and res["S!B5"] == 5 and res["S!B6"] == 3
    assert res["S!B7"] == 160 and res["S!B8"].code == "#VALUE!"
    assert res["F!B1"] == 10  # the filter shows the rows that hold 10: only row 3
    assert res["S!B9"] == 606


def test_combin_and_combina(tmp_path):
    res = _calc(tmp_path, {"S": {
        "A1": "=COMBIN(8,2)", "A2": "=COMBIN(8.9,2.7)",  # Microsoft's COMBIN help: 28
        "A3": "=COMBIN(2,3)", "A4": "=COMBIN(-1,1)", "A5": "=COMBIN(5,0)",
        "B1": "=_xlfn.COMBINA(4,3)", "B2": "=_xlfn.COMBINA(10,3)"}})  # its help: 20, 220
    assert res["S!A1"] == 28 and res["S!A2"] == 28 and res["S!A5"] == 1
    assert res["S!A3"].code == "#NUM!" and res["S!A4"].code == "#NUM!"
    assert res["S!B1"] == 20 and res["S!B2"] == 220


def test_choose_returns_the_value_or_reference_as_it_is(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        *[xlsx_make.cell(f"{c}1", None, v) for c, v in zip("BCDE", (1, 2, 3, 4), strict=True)],
        *[xlsx_make.cell(f"F{r}", None, r * 10) for r in (1, 2, 3)],
        # xlcalculator's choose.xlsx, saved by Excel: 12, then 4
        '<c r="A1"><f t="array" ref="A1">CHOOSE(3,B1:D1,E1,12)</f><v>12</v></c>',
        xlsx_make.cell("A2", "CHOOSE(2, B1:D1,E1,11)", 4),
        xlsx_make.cell("A3", "SUM(CHOOSE(2,B1:D1,F1:F3))", 60),  # 10+20+30
        xlsx_make.cell("A4", "CHOOSE(0,1,2)", "#VALUE!", t="e"),
        xlsx_make.cell("A5", "CHOOSE(2.9,\"a\",\"b\",\"c\")", "b", t="str"),
        xlsx_make.cell("A6", "SUM(CHOOSE({1,2},B1,C1))", 3)]})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!A1"] == 12 and res["S!A2"] == 4 and res["S!A3"] == 60
    assert res["S!A4"].code == "#VALUE!" and res["S!A5"] == "b" and res["S!A6"] == 3


def test_a_named_range_keeps_its_blank_rows(tmp_path):
    # rng is A1:A10 with 3 rows filled: Excel's INDEX(rng,8) is the empty A8 (shown as 0),
    # ROWS(rng) 10, COUNTBLANK(rng) 7 (Microsoft's INDEX, ROWS and COUNTBLANK help)
    cells = [xlsx_make.cell(f"A{r}", None, r * 10) for r in (1, 2, 3)]
    cells += [xlsx_make.cell("B1", "INDEX(rng,8)", 0), xlsx_make.cell("B2", "ROWS(rng)", 10),
              xlsx_make.cell("B3", "COUNTBLANK(rng)", 7),
              xlsx_make.cell("B4", "ROWS(Other!A1:A10)", 10),
              xlsx_make.cell("B5", "INDEX(Other!A1:A10,8)", 0),
              xlsx_make.cell("B6", "SUMPRODUCT((Other!A1:A10=0)*1)", 9)]  # A1 is 1
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells, "Other": [
        xlsx_make.cell("A1", None, 1)]}, names={"rng": "S!$A$1:$A$10"})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!B1"] == 0 and res["S!B2"] == 10 and res["S!B3"] == 7
    assert res["S!B4"] == 10 and res["S!B5"] == 0 and res["S!B6"] == 9


def test_the_size_of_a_whole_column_is_refused(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", None, 1), xlsx_make.cell("B1", "ROWS(A:A)", 1048576),
        xlsx_make.cell("B2", "SUM(A:A)", 1)]})
    with pytest.raises(WorkbookError, match=r"ROWS\(\) of a whole column .* in S!B1"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False)
    assert res["S!B1"] == 1048576 and res["S!B2"] == 1


_SALES = (f'<table xmlns="{xlsx_make.MAIN}" id="1" name="Sales" displayName="Sales" '
          'ref="A1:D5" totalsRowCount="1"><autoFilter ref="A1:D4"/><tableColumns count="4">'
          '<tableColumn id="1" name="Item"/><tableColumn id="2" name="Qty"/>'
          '<tableColumn id="3" name="Price"/><tableColumn id="4" name="Total"/>'
          '</tableColumns></table>')


def _sales(tmp_path, other: list[str]):
    """Data!A1:D5, the table Sales: a header row, three data rows, a totals row."""
    data = [xlsx_make.cell(f"{c}1", None, h, t="inlineStr")
            for c, h in zip("ABCD", ("Item", "Qty", "Price", "Total"), strict=True)]
    for r, (item, q, p) in enumerate((("a", 2, 10), ("b", 3, 20), ("c", 5, 30)), 2):
        data += [xlsx_make.cell(f"A{r}", None, item, t="inlineStr"),
                 xlsx_make.cell(f"B{r}", None, q), xlsx_make.cell(f"C{r}", None, p),
                 xlsx_make.cell(f"D{r}", "Sales[[#This Row],[Qty]]*Sales[[#This Row],[Price]]",
                                0)]
    data += [xlsx_make.cell("A5", None, "Total", t="inlineStr"),
             xlsx_make.cell("B5", "SUBTOTAL(109,[Qty])", 0),  # as XlsxWriter writes it
             xlsx_make.cell("D5", "SUBTOTAL(109,Sales[Total])", 0)]
    return xlsx_make.write(tmp_path / "in.xlsx", {"Data": data, "S": other},
                           tables={"Data": [_SALES]},
                           after={"Data": '<tableParts count="1"><tablePart r:id="rId1"/>'
                                          '</tableParts>'})


def test_structured_references_to_a_table(tmp_path):
    # what each reference stands for: Microsoft, "Using structured references with Excel
    # tables"; the values by hand: Total = Qty*Price = 20, 60, 150
    src = _sales(tmp_path, [
        xlsx_make.cell("A1", "SUM(Sales[Qty])", 0),  # 2+3+5
        xlsx_make.cell("A2", "ROWS(Sales[#All])", 0),  # header, 3 rows, totals
        xlsx_make.cell("A3", "Sales[[#Totals],[Total]]", 0),  # 20+60+150
        xlsx_make.cell("A4", "COUNTA(Sales[#Headers])", 0),
        xlsx_make.cell("A5", "SUM(Sales[[Qty]:[Price]])", 0),  # 10 + 60
        xlsx_make.cell("A6", "SUM(Sales)", 0),  # the data rows: 10 + 60 + 230
        xlsx_make.cell("A7", "INDEX(Sales[Item],2)", 0),
        xlsx_make.cell("A8", "Sales[[#This Row],[Qty]]", 0),  # not a row of the table
        xlsx_make.cell("A9", "SUM(sales[qty])", 0)])  # names are not case-sensitive
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert [res[f"Data!D{r}"] for r in (2, 3, 4)] == [20, 60, 150]
    assert res["Data!B5"] == 10 and res["Data!D5"] == 230
    assert res["S!A1"] == 10 and res["S!A2"] == 5 and res["S!A3"] == 230
    assert res["S!A4"] == 4 and res["S!A5"] == 70 and res["S!A6"] == 300
    assert res["S!A7"] == "b" and res["S!A8"].code == "#VALUE!" and res["S!A9"] == 10


def test_a_structured_reference_to_no_such_column_is_refused(tmp_path):
    src = _sales(tmp_path, [xlsx_make.cell("A1", "SUM(Sales[Nope])", 0)])
    with pytest.raises(WorkbookError, match=r"structured \(table\) references in S!A1"):
        calc_workbook(src, tmp_path / "out.xlsx", {})


def test_a_range_given_for_a_single_value_is_intersected(tmp_path):
    # Microsoft, "Implicit intersection operator: @": a range where a function takes one
    # value is the cell in the formula's row (or column); here rows 1-5 hold -1..-5
    cells = [xlsx_make.cell(f"A{r}", None, -r) for r in range(1, 6)]
    cells += [xlsx_make.cell(f"D{r}", None, -r) for r in range(1, 6)]
    cells += [xlsx_make.cell(f"E{r}", None, f"row {r}", t="inlineStr") for r in range(1, 6)]
    cells += [xlsx_make.cell("B3", "ABS(A1:A5)", 0),  # ABS(A3)
              xlsx_make.cell("B4", "VLOOKUP(A1:A5,D1:E5,2,FALSE)", 0),  # looks up A4
              xlsx_make.cell("B5", "IF(A1:A5<-4,\"low\",\"high\")", 0),  # A5 < -4
              xlsx_make.cell("B6", "ABS(A1:A5)", 0),  # no row 6 in A1:A5: #VALUE!
              xlsx_make.cell("C2", "SUM(ABS(A1:A5))", 0),  # SUM(ABS(A2))
              '<c r="C3"><f t="array" ref="C3">SUM(ABS(A1:A5))</f><v>15</v></c>']  # 1+..+5
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!B3"] == 3 and res["S!B4"] == "row 4" and res["S!B5"] == "low"
    assert res["S!B6"].code == "#VALUE!" and res["S!C2"] == 2 and res["S!C3"] == 15


def test_lookup_vector_and_array_forms(tmp_path):
    # Microsoft's LOOKUP help, its examples: 4.19 -> orange, 5.75 -> yellow, 7.66 -> blue,
    # 0 -> #N/A; array form: "C" in {"a","b","c","d";1,2,3,4} -> 3, "bump" -> 2
    freq = (4.14, 4.19, 5.17, 5.77, 6.39)
    colors = ("red", "orange", "yellow", "green", "blue")
    cells = [xlsx_make.cell(f"A{r}", None, f) for r, f in enumerate(freq, 2)]
    cells += [xlsx_make.cell(f"B{r}", None, c, t="inlineStr") for r, c in enumerate(colors, 2)]
    cells += [xlsx_make.cell("D1", "LOOKUP(4.19,A2:A6,B2:B6)", 0),
              xlsx_make.cell("D2", "LOOKUP(5.75,A2:A6,B2:B6)", 0),
              xlsx_make.cell("D3", "LOOKUP(7.66,A2:A6,B2:B6)", 0),
              xlsx_make.cell("D4", "LOOKUP(0,A2:A6,B2:B6)", 0),
              xlsx_make.cell("D5", 'LOOKUP("C",{"a","b","c","d";1,2,3,4})', 0),
              xlsx_make.cell("D6", 'LOOKUP("bump",{"a",1;"b",2;"c",3})', 0),
              # the last row below 5: 4.19 (errors of 1/FALSE are passed over)
              xlsx_make.cell("D7", "LOOKUP(2,1/(A2:A6<5),B2:B6)", 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert [res[f"S!D{r}"] for r in (1, 2, 3)] == ["orange", "yellow", "blue"]
    assert res["S!D4"].code == "#N/A" and res["S!D5"] == 3 and res["S!D6"] == 2
    assert res["S!D7"] == "orange"


def test_lookup_in_unsorted_values_is_refused(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", None, 5), xlsx_make.cell("A2", None, 1),
        xlsx_make.cell("A3", None, 3), xlsx_make.cell("B1", "LOOKUP(4,A1:A3)", 3),
        xlsx_make.cell("B2", "B1+1", 4)]})
    with pytest.raises(WorkbookError, match="LOOKUP in values that are not sorted.* S!B1"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    notes: list[str] = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False, notes=notes)
    assert res["S!B1"] == 3 and res["S!B2"] == 4 and "S!B1" in notes[0]  # Excel's 3 kept


def test_dollar_and_base(tmp_path):
    res = _calc(tmp_path, {"S": {
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


def test_offset_and_indirect_give_references(tmp_path):
    # Microsoft's OFFSET help: OFFSET(D3,3,-2,1,1) is B6; SUM(OFFSET(D3:F5,3,-2,3,3)) sums
    # B6:D8; OFFSET(D3,-3,-3) is off the sheet: #REF!. INDIRECT's help: INDIRECT(A2) with
    # A2 = "B2" is B2's value; INDIRECT("B"&A5) is B5's
    cells = [xlsx_make.cell(f"{c}{r}", None, r * 10 + n)
             for r in range(6, 9) for n, c in enumerate("BCD", 1)]
    cells += [xlsx_make.cell("A2", None, "B2", t="inlineStr"), xlsx_make.cell("B2", None, 1.333),
              xlsx_make.cell("A3", None, "no such name", t="inlineStr"),
              xlsx_make.cell("A5", None, 6),
              xlsx_make.cell("F1", "OFFSET(D3,3,-2,1,1)", 0),  # B6 = 61
              xlsx_make.cell("F2", "SUM(OFFSET(D3:F5,3,-2,3,3))", 0),  # B6:D8
              xlsx_make.cell("F3", "OFFSET(D3,-3,-3)", 0),
              xlsx_make.cell("F4", "INDIRECT(A2)", 0), xlsx_make.cell("F5", 'INDIRECT("B"&A5)', 0),
              xlsx_make.cell("F6", 'SUM(INDIRECT("Other!A1:A3"))', 0),
              xlsx_make.cell("F7", 'INDIRECT("nowhere")&INDIRECT(A3)', 0),
              xlsx_make.cell("F8", "SUM(OFFSET(B6,0,0,-1,3))", 0)]  # upward: B6:D6
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells, "Other": [
        xlsx_make.cell(f"A{r}", None, r) for r in (1, 2, 3)]})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!F1"] == 61 and res["S!F2"] == (61 + 62 + 63) + (71 + 72 + 73) + (81 + 82 + 83)
    assert res["S!F3"].code == "#REF!" and res["S!F4"] == 1.333 and res["S!F5"] == 61
    assert res["S!F6"] == 6 and res["S!F7"].code == "#REF!" and res["S!F8"] == 61 + 62 + 63


def test_offset_onto_a_formula_computed_later_is_refused(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", "OFFSET(B1,2,0)", 4), xlsx_make.cell("B3", "2*2", 4)]})
    with pytest.raises(WorkbookError, match="OFFSET onto S!B3, a formula computed after"):
        calc_workbook(src, tmp_path / "out.xlsx", {})


def test_aggregates_count_only_numbers_of_references(tmp_path):
    # Microsoft's SUM help: in a reference "empty cells, logical values, or text ... are
    # ignored"; given directly, "3" and TRUE count (COUNT's help: text representations of
    # numbers typed into the arguments are counted). A1 holds the text "1"
    res = _calc(tmp_path, {"S": {
        "A1": '="1"', "A2": 5, "A3": "'2", "A4": True, "A5": "x",
        "B1": "=SUM(A1:A5)", "B2": "=MAX(A1:A5)", "B3": "=COUNT(A1:A5)",
        "B4": "=AVERAGE(A1:A5)", "B5": '=SUM(A2,"3",TRUE)', "B6": '=SUM(A2,"x")',
        "B7": "=PRODUCT(A3:A5)", "B8": "=ISNUMBER(A1)", "B9": '=COUNT(1,"2","x",TRUE)',
        "C1": "=STDEV(A2)", "C2": "=MIN(A3:A5)"}})
    assert res["S!B1"] == 5 and res["S!B2"] == 5 and res["S!B3"] == 1 and res["S!B4"] == 5
    assert res["S!B5"] == 9 and res["S!B6"].code == "#VALUE!" and res["S!B7"] == 0
    assert res["S!B8"] is False and res["S!B9"] == 3
    assert res["S!C1"].code == "#DIV/0!" and res["S!C2"] == 0


def test_hyperlink_shows_its_name(tmp_path):
    res = _calc(tmp_path, {"S": {"A1": '=HYPERLINK("https://example.com","Example")',
                                 "A2": '=HYPERLINK("https://example.com")'}})
    assert res["S!A1"] == "Example" and res["S!A2"] == "https://example.com"


def test_numbers_and_text_convert_as_in_excel(tmp_path):
    res = _calc(tmp_path, {"S": {
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
        _calc(tmp_path, {"S": {"A1": '="x"&1E+20'}})


def test_base_conversions_with_cell_arguments(tmp_path):
    # Microsoft's help pages of DEC2BIN, DEC2HEX, HEX2DEC, BIN2DEC and OCT2HEX, examples
    res = _calc(tmp_path, {"S": {
        "A1": 9, "A2": -100, "A3": "A5", "A4": 1100100, "A5": 4,
        "B1": "=DEC2BIN(A1,A5)", "B2": "=DEC2BIN(A2)", "B3": "=HEX2DEC(A3)",
        "B4": "=BIN2DEC(A4)", "B5": '=HEX2DEC("FFFFFFFF5B")', "B6": "=DEC2HEX(-54)",
        "B7": "=OCT2HEX(100,A5)", "B8": "=DEC2BIN(A1,2)", "B9": "=DEC2BIN(A2,0)"}})
    assert res["S!B1"] == "1001" and res["S!B2"] == "1110011100" and res["S!B3"] == 165
    assert res["S!B4"] == 100 and res["S!B5"] == -165 and res["S!B6"] == "FFFFFFFFCA"
    assert res["S!B7"] == "0040" and res["S!B8"].code == "#NUM!"
    assert res["S!B9"].code == "#NUM!"  # places 0, even for a negative number (BASES.xlsx)


def test_three_d_references_in_the_functions_that_take_them(tmp_path):
    # Microsoft, "Create a 3-D reference to the same cell range on multiple worksheets":
    # Jan:Mar!B2 is B2 of Jan, Feb and Mar (sheet order), in SUM, AVERAGE, COUNT, MAX...
    sheets = {n: [xlsx_make.cell("B2", None, v), xlsx_make.cell("B3", None, v * 10)]
              for n, v in (("Jan", 1), ("Feb", 2), ("Mar 1", 4))}
    sheets["Sum"] = [xlsx_make.cell("A1", "SUM('Jan:Mar 1'!B2)", 0),  # quoted, as Excel writes
                     xlsx_make.cell("A2", "AVERAGE(Jan:Feb!B2:B3)", 0),
                     xlsx_make.cell("A3", "MAX(Jan:Feb!B2,100)", 0),
                     xlsx_make.cell("A4", "COUNT(Jan:Feb!B2:B3)", 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx", sheets)
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["Sum!A1"] == 7 and res["Sum!A2"] == (1 + 10 + 2 + 20) / 4
    assert res["Sum!A3"] == 100 and res["Sum!A4"] == 4
    src = xlsx_make.write(tmp_path / "in2.xlsx", {**sheets, "Sum": [
        xlsx_make.cell("A1", "Jan:Feb!B2*2", 0)]})  # not an argument of SUM...: refused
    with pytest.raises(WorkbookError, match="3-D references"):
        calc_workbook(src, tmp_path / "out2.xlsx", {})


def test_text_with_number_formats(tmp_path):
    res = _calc(tmp_path, {"S": {
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
        _calc(tmp_path, {"S": {"A1": '=TEXT(4.34,"# ?/?")'}})


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


def test_xlookup(tmp_path):
    # Microsoft's XLOOKUP help: exact match by default, if_not_found, match_mode -1/1
    # (next smaller/larger), 2 (wildcards), search_mode -1 (last to first), a row of a
    # two-column return_array; the values here by hand
    names = ("Ann", "Bob", "Cy", "Bob")
    cells = [xlsx_make.cell(f"A{r}", None, n, t="inlineStr") for r, n in enumerate(names, 1)]
    cells += [xlsx_make.cell(f"B{r}", None, r * 10) for r in range(1, 5)]
    cells += [xlsx_make.cell(f"C{r}", None, r * 100) for r in range(1, 5)]
    cells += [xlsx_make.cell("E1", '_xlfn.XLOOKUP("bob",A1:A4,B1:B4)', 0),  # first Bob: 20
              xlsx_make.cell("E2", '_xlfn.XLOOKUP("Bob",A1:A4,B1:B4,,0,-1)', 0),  # last: 40
              xlsx_make.cell("E3", '_xlfn.XLOOKUP("Dee",A1:A4,B1:B4,"none")', 0),
              xlsx_make.cell("E4", '_xlfn.XLOOKUP("Dee",A1:A4,B1:B4)', 0),
              xlsx_make.cell("E5", "_xlfn.XLOOKUP(25,B1:B4,A1:A4,,-1)", 0),  # 20: Bob
              xlsx_make.cell("E6", "_xlfn.XLOOKUP(25,B1:B4,A1:A4,,1)", 0),  # 30: Cy
              xlsx_make.cell("E7", '_xlfn.XLOOKUP("C?",A1:A4,B1:B4,,2)', 0),  # Cy: 30
              '<c r="F1"><f t="array" ref="F1:G1">_xlfn.XLOOKUP("Cy",A1:A4,B1:C4)</f>'
              '<v>0</v></c>']  # 30 and 300
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!E1"] == 20 and res["S!E2"] == 40 and res["S!E3"] == "none"
    assert res["S!E4"].code == "#N/A" and res["S!E5"] == "Bob" and res["S!E6"] == "Cy"
    assert res["S!E7"] == 30 and res["S!F1"] == 30 and res["S!G1"] == 300


def test_index_of_a_whole_row_or_column(tmp_path):
    # Microsoft's INDEX help: row_num or column_num 0 gives the whole column or row (a
    # reference); values by hand: row r, column c holds 10*r + c
    cells = [xlsx_make.cell(f"{c}{r}", None, r * 10 + i)
             for r in (1, 2, 3) for i, c in enumerate("ABC", 1)]
    cells += [xlsx_make.cell("E1", "SUM(INDEX(A1:C3,2,0))", 0),  # 21+22+23
              xlsx_make.cell("E2", "SUM(INDEX(A1:C3,0,2))", 0),  # 12+22+32
              xlsx_make.cell("E3", "INDEX(A1:C3,3,2)", 0),
              xlsx_make.cell("E4", "INDEX(A1:A3,2)", 0), xlsx_make.cell("E5", "INDEX(A1:C1,3)", 0),
              xlsx_make.cell("E6", "INDEX(A1:C3,4,1)", 0),
              xlsx_make.cell("E7", "SUM(A1:INDEX(A1:C3,2,2))", 0),  # A1:B2: 11+12+21+22
              xlsx_make.cell("B5", "INDEX(A1:C3,2,0)", 0),  # one cell: the row's B, 22
              '<c r="F1"><f t="array" ref="F1:H1">INDEX(A1:C3,2,0)</f><v>0</v></c>']
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!E1"] == 66 and res["S!E2"] == 66 and res["S!E3"] == 32 and res["S!E4"] == 21
    assert res["S!E5"] == 13 and res["S!E6"].code == "#REF!" and res["S!E7"] == 66
    assert res["S!B5"] == 22 and [res[f"S!{c}1"] for c in "FGH"] == [21, 22, 23]


def test_yearfrac(tmp_path):
    res = _calc(tmp_path, {"S": {
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


def test_approximate_lookups_in_sorted_values_or_refused(tmp_path):
    # Microsoft's VLOOKUP and MATCH help: an approximate match (range_lookup TRUE or left
    # out, match_type 1 or -1) needs values sorted; the largest value not greater (1) or
    # the smallest not less (-1) is found. Brackets here: 0, 10000, 50000 by hand
    cells = [xlsx_make.cell(f"A{r}", None, v) for r, v in ((1, 0), (2, 10000), (3, 50000))]
    cells += [xlsx_make.cell(f"B{r}", None, v) for r, v in ((1, 0.1), (2, 0.2), (3, 0.3))]
    cells += [xlsx_make.cell(f"C{r}", None, v) for r, v in ((1, 30), (2, 20), (3, 10))]
    cells += [xlsx_make.cell("D1", "VLOOKUP(25000,A1:B3,2)", 0),
              xlsx_make.cell("D2", "VLOOKUP(25000,A1:B3,2,TRUE)", 0),
              xlsx_make.cell("D3", "MATCH(60000,A1:A3)", 0),
              xlsx_make.cell("D4", "MATCH(15,C1:C3,-1)", 0),
              xlsx_make.cell("D5", "VLOOKUP(10000,A1:B3,2,FALSE)", 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!D1"] == 0.2 and res["S!D2"] == 0.2 and res["S!D3"] == 3
    assert res["S!D4"] == 2 and res["S!D5"] == 0.2
    src = xlsx_make.write(tmp_path / "in2.xlsx", {"S": [  # A1:A3 not sorted
        *[xlsx_make.cell(f"A{r}", None, v) for r, v in ((1, 0), (2, 90000), (3, 50000))],
        *cells[3:6], xlsx_make.cell("D1", "VLOOKUP(25000,A1:B3,2)", 0)]})
    with pytest.raises(WorkbookError, match="VLOOKUP's approximate match in values that are "
                                            "not sorted"):
        calc_workbook(src, tmp_path / "out2.xlsx", {})


def test_links_to_other_workbooks_use_the_values_excel_kept(tmp_path):
    # ECMA-376 18.14: Excel keeps the values it last read of a linked workbook
    # (externalLink parts) and computes with them when links are not updated
    book = ('<externalBook><sheetNames><sheetName val="Prices"/><sheetName val="Gone"/>'
            '</sheetNames><sheetDataSet><sheetData sheetId="0"><row r="2">'
            '<cell r="B2"><v>2.5</v></cell><cell r="C2" t="str"><v>GPU</v></cell></row>'
            '</sheetData><sheetData sheetId="1" refreshError="1"/></sheetDataSet>'
            '</externalBook>')
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", "[1]Prices!B2*4", 10), xlsx_make.cell("A2", "'[1]Prices'!C2", "GPU",
                                                                    t="str"),
        xlsx_make.cell("A3", "SUM([1]Prices!B1:B3)", 2.5)]}, links=[book])
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!A1"] == 10 and res["S!A2"] == "GPU" and res["S!A3"] == 2.5
    src = xlsx_make.write(tmp_path / "in2.xlsx", {"S": [
        xlsx_make.cell("A1", "[1]Gone!B2*4", 10)]}, links=[book])  # values not kept
    with pytest.raises(WorkbookError, match="links to other workbooks in S!A1"):
        calc_workbook(src, tmp_path / "out2.xlsx", {})


def test_lenient_keeps_excels_values_on_a_circular_reference(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", "A1+1", 5), xlsx_make.cell("B1", "A1*2", 10)]})
    with pytest.raises(WorkbookError, match="circular reference through S!A1"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    notes: list[str] = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False, notes=notes)
    assert res["S!A1"] == 5 and res["S!B1"] == 10  # Excel's 5 kept, then 5 * 2
    assert "S!A1" in notes[-1] and "circular" in notes[-1]


def test_references_that_do_not_meet(tmp_path):
    # Microsoft, "How to correct a #NULL! error": the intersection of two areas that do
    # not intersect (calamine's errors.xlsx, saved by Excel, has =A1:B1 D1:D9: #NULL!)
    res = _calc(tmp_path, {"S": {"A1": 1, "D5": 2, "F1": "=A1:B1 D1:D9",
                                 "F2": "=SUM(A1:B1 A1:A9)"}})
    assert res["S!F1"].code == "#NULL!" and res["S!F2"] == 1


def test_date_carries_months_and_days_over(tmp_path):
    res = _calc(tmp_path, {"S": {
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


def test_a_sheets_own_name_written_with_its_sheet(tmp_path):
    # apache/poi's 56737.xlsx, saved by Excel: =Defines!NR_To_A1 from another sheet reads
    # the name NR_To_A1 that belongs to the sheet Defines (here Rate, 0.25, and Twice)
    src = xlsx_make.write(tmp_path / "in.xlsx", {
        "Uses": [xlsx_make.cell("A1", "Defines!Rate*4", 1),
                 xlsx_make.cell("A2", "'Defines'!Twice+1", 1.5)],
        "Defines": [xlsx_make.cell("A1", None, 0.25)]},
        names={("Rate", 1): "Defines!$A$1", ("Twice", 1): "Defines!$A$1*2"})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["Uses!A1"] == 1 and res["Uses!A2"] == 1.5


def test_text_general_fits_eleven_characters(tmp_path):
    # apache/poi's GeneralFormatTests.xlsx, saved by Excel: General in TEXT takes at most
    # 11 characters: 1.2345678912 is "1.234567891", 112345900000 is "1.12346E+11"
    res = _calc(tmp_path, {"S": {"A1": '=TEXT(1.2345678912,"General")',
                                 "A2": '=TEXT(112345900000,"General")',
                                 "A3": '=TEXT(-100000000000,"General")',
                                 "A4": '=TEXT(1234.5,"General")'}})
    assert res["S!A1"] == "1.234567891" and res["S!A2"] == "1.12346E+11"
    assert res["S!A3"] == "-1E+11" and res["S!A4"] == "1234.5"
