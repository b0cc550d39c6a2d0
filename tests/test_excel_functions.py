"""Functions and references napkin computes itself, each in a minimal workbook of our own:
SUBTOTAL, COMBIN, the aggregates, blank rows of named ranges, structured and 3-D
references, implicit intersection, links to other workbooks (or the workbook refused,
saying why)."""

from __future__ import annotations

import math

import pytest
import xlsx_make

from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError


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
    res = xlsx_make.calc(tmp_path, {"S": {
        "A1": "=COMBIN(8,2)", "A2": "=COMBIN(8.9,2.7)",  # Microsoft's COMBIN help: 28
        "A3": "=COMBIN(2,3)", "A4": "=COMBIN(-1,1)", "A5": "=COMBIN(5,0)",
        "B1": "=_xlfn.COMBINA(4,3)", "B2": "=_xlfn.COMBINA(10,3)"}})  # its help: 20, 220
    assert res["S!A1"] == 28 and res["S!A2"] == 28 and res["S!A5"] == 1
    assert res["S!A3"].code == "#NUM!" and res["S!A4"].code == "#NUM!"
    assert res["S!B1"] == 20 and res["S!B2"] == 220


def test_combin_beyond_the_largest_number_is_num_at_once(tmp_path):
    # COMBIN(2000,1000) = 2.05e600 (ln: lgamma(2001) - 2*lgamma(1001) = 1382.3 > 709.8,
    # the log of the largest double): #NUM!, as Excel gives past 1.8e308 ("Excel
    # specifications and limits"); COMBINA(1352078,1352078) too, without the 34 s that
    # computing its 800,000 digits took; COMBIN(1030,515) = 2.9e308 just past, #NUM!,
    # COMBIN(1020,510) = 2.8e305 just below, a number
    res = xlsx_make.calc(tmp_path, {"S": {
        "A1": "=COMBIN(2000,1000)", "A2": "=_xlfn.COMBINA(1352078,1352078)",
        "A3": "=COMBIN(1030,515)", "A4": "=COMBIN(1020,510)"}})
    assert res["S!A1"].code == "#NUM!" and res["S!A2"].code == "#NUM!"
    assert res["S!A3"].code == "#NUM!"
    assert res["S!A4"] == pytest.approx(math.comb(1020, 510), rel=1e-12)


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


def test_a_table_named_in_another_script(tmp_path):
    # Excel allows a letter of any script in a name: the business corpus's sixteenth part
    # (seen) has tables named 表1 (Investment_vba.xlsm, 表1[[#This Row],[代码]]) and
    # أمريكية (Ledger.xlsx, SUM(أمريكية[[#This Row],[1]]+...), saved as their sums);
    # by hand: 2 + 3 + 5 = 10, and the row's 3 * 2 = 6
    table = (f'<table xmlns="{xlsx_make.MAIN}" id="1" name="表1" displayName="表1" '
             'ref="A1:B4"><autoFilter ref="A1:B4"/><tableColumns count="2">'
             '<tableColumn id="1" name="代码"/><tableColumn id="2" name="数量"/>'
             '</tableColumns></table>')
    c = xlsx_make.cell
    data = [c("A1", None, "代码", t="inlineStr"), c("B1", None, "数量", t="inlineStr")]
    for r, (code, qty) in enumerate((("51", 2), ("52", 3), ("53", 5)), 2):
        data += [c(f"A{r}", None, code, t="inlineStr"), c(f"B{r}", None, qty),
                 c(f"C{r}", "表1[[#This Row],[数量]]*2", qty * 2)]
    data.append(c("D1", "SUM(表1[数量])", 10))
    src = xlsx_make.write(tmp_path / "in.xlsx", {"再平衡": data}, tables={"再平衡": [table]},
                          after={"再平衡": '<tableParts count="1"><tablePart r:id="rId1"/>'
                                          '</tableParts>'})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["'再平衡'!D1"] == 10 and res["'再平衡'!C3"] == 6


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
        xlsx_make.cell("A9", "SUM(sales[qty])", 0),  # names are not case-sensitive
        # on another sheet, a row that is one of the table's data rows: that row's cell,
        # as implicit intersection reads a range of another sheet by the formula's row
        # (Excel saved tbl_AR[[#This Row],[Invoice_No]] so, read from another sheet, in
        # part heldout7's AR and Journal Entry1.xlsx of tools/business_corpus.csv): Qty 3
        xlsx_make.cell("B3", "Sales[[#This Row],[Qty]]", 0)])
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert [res[f"Data!D{r}"] for r in (2, 3, 4)] == [20, 60, 150]
    assert res["Data!B5"] == 10 and res["Data!D5"] == 230
    assert res["S!A1"] == 10 and res["S!A2"] == 5 and res["S!A3"] == 230
    assert res["S!A4"] == 4 and res["S!A5"] == 70 and res["S!A6"] == 300
    assert res["S!A7"] == "b" and res["S!A8"].code == "#VALUE!" and res["S!A9"] == 10
    assert res["S!B3"] == 3


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


def test_aggregates_count_only_numbers_of_references(tmp_path):
    # Microsoft's SUM help: in a reference "empty cells, logical values, or text ... are
    # ignored"; given directly, "3" and TRUE count (COUNT's help: text representations of
    # numbers typed into the arguments are counted). A1 holds the text "1"
    res = xlsx_make.calc(tmp_path, {"S": {
        "A1": '="1"', "A2": 5, "A3": "'2", "A4": True, "A5": "x",
        "B1": "=SUM(A1:A5)", "B2": "=MAX(A1:A5)", "B3": "=COUNT(A1:A5)",
        "B4": "=AVERAGE(A1:A5)", "B5": '=SUM(A2,"3",TRUE)', "B6": '=SUM(A2,"x")',
        "B7": "=PRODUCT(A3:A5)", "B8": "=ISNUMBER(A1)", "B9": '=COUNT(1,"2","x",TRUE)',
        "C1": "=STDEV(A2)", "C2": "=MIN(A3:A5)"}})
    assert res["S!B1"] == 5 and res["S!B2"] == 5 and res["S!B3"] == 1 and res["S!B4"] == 5
    assert res["S!B5"] == 9 and res["S!B6"].code == "#VALUE!" and res["S!B7"] == 0
    assert res["S!B8"] is False and res["S!B9"] == 3
    assert res["S!C1"].code == "#DIV/0!" and res["S!C2"] == 0


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


def test_a_linked_sheet_excel_could_not_refresh_keeps_its_values(tmp_path):
    # the thirteenth held-out part (seen), adilwali648's DCF Valuation.xlsx: its link's
    # sheet 'Raw FS' is saved <sheetData sheetId="8" refreshError="1"> holding rows
    # (J13 8802 ...), and the formulas reading it hold the values computed from them, as
    # Excel keeps what it last read when an update fails; a sheet saved with no rows
    # (the other nine there) has no values to read, and its readers are refused
    book = ('<externalBook><sheetNames><sheetName val="Raw FS"/><sheetName val="DCF"/>'
            '</sheetNames><sheetDataSet><sheetData sheetId="0" refreshError="1"><row r="13">'
            '<cell r="J13"><v>8802</v></cell><cell r="K13"><v>9068</v></cell></row>'
            '</sheetData><sheetData sheetId="1" refreshError="1"/></sheetDataSet>'
            '</externalBook>')
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", "'[1]Raw FS'!K13/'[1]Raw FS'!J13-1", 0.03)]}, links=[book])
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!A1"] == pytest.approx(9068 / 8802 - 1, rel=1e-15)  # by hand: 0.0302204...
    src = xlsx_make.write(tmp_path / "in2.xlsx", {"S": [
        xlsx_make.cell("A1", "[1]DCF!B2", 1)]}, links=[book])
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
    res = xlsx_make.calc(tmp_path, {"S": {"A1": 1, "D5": 2, "F1": "=A1:B1 D1:D9",
                                          "F2": "=SUM(A1:B1 A1:A9)"}})
    assert res["S!F1"].code == "#NULL!" and res["S!F2"] == 1


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


# Microsoft Support, "SMALL function", its example: in the column 3, 4, 5, 2, 3, 4, 6, 4,
# 7 the fourth smallest value is 4; in 1, 4, 8, 3, 7, 12, 54, 8, 23 the second smallest is
# 3. The template's Cost sheet sorts its bar chart with SMALL, so strict mode computes it.
def test_small_as_microsofts_example():
    from addin.engine.api import evaluate

    assert evaluate("=SMALL({3;4;5;2;3;4;6;4;7},4)") == 4
    assert evaluate("=SMALL({1;4;8;3;7;12;54;8;23},2)") == 3


def test_negative_numbers_in_array_constants(tmp_path):
    # each value worked by hand: -1+0.5+4 = 3.5; the larger of -5 and -1 is -1; both
    # elements of {-1,2} are numbers; CONCAT writes -1 as "-1" (Microsoft Support, "Use
    # array constants in array formulas": an array constant holds numbers)
    s = [xlsx_make.cell("A1", "SUM({-1,0.5,4})", 0), xlsx_make.cell("A2", "MAX({-5,-1})", 0),
         xlsx_make.cell("A3", "COUNT({-1,2})", 0),
         xlsx_make.cell("A4", "_xlfn.CONCAT({-1,3})", 0),
         xlsx_make.cell("A5", "SUM({1,-2;-3,4})", 0),
         xlsx_make.cell("A6", 'MAX({-5,"9",TRUE})', 0),
         xlsx_make.cell("A7", 'COUNT({1,"2",TRUE,"a"})', 0),
         xlsx_make.cell("A8", '_xlfn.CONCAT({"a","b";"c","d"})', 0)]
    res = calc_workbook(xlsx_make.write(tmp_path / "in.xlsx", {"S": s}), tmp_path / "o.xlsx", {})
    assert res["S!A1"] == 3.5 and res["S!A2"] == -1 and res["S!A3"] == 2
    assert res["S!A4"] == "-13" and res["S!A5"] == 0
    # Microsoft Support, "MAX function", "COUNT function": of an array only its numbers
    # are used (the text "9", TRUE, "2", "a" left out): the larger of -5 alone is -5, one
    # number counted; "CONCAT function": an array of strings joined row by row, "abcd"
    assert res["S!A6"] == -5 and res["S!A7"] == 1 and res["S!A8"] == "abcd"
