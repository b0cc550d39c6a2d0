"""Excel's GETPIVOTDATA read from a pivot table's cells as Excel drew them
(``addin.excel.pivot_data``, ``addin.ooxml.pivot_tables``).

The pivot table here is drawn as Excel draws a tabular one (Report Layout "Show in
Tabular Form", subtotals at the bottom of each group, a grand total), from the source
Region / Year / Sales: East 2023 10, East 2024 20, West 2023 5, West 2024 7. Sheet P,
A3:C10, its header in row 3 (``firstDataRow="1"``) and its values in column C
(``firstDataCol="2"``):

    Region       Year   Sum of Sales
    East         2023   10
                 2024   20
    East Total          30
    West         2023    5
                 2024    7
    West Total          12
    Grand Total         42

Each expected value below is the cell Microsoft's page says GETPIVOTDATA returns (the
visible value at the items named), read off that drawing by hand. The cells Excel saved
that this follows: part heldout18's two Forex.xlsm (tools/business_corpus.csv),
``IF(C7="","",GETPIVOTDATA("WinPips",ProfitRpt!$A$9,"Trade Month",C7,"Trade Year",B7))``:
#REF! where the year and month given are no items of the tables, and where pivot_table
($C$7) lies outside every table; "" where C is empty.
"""

from __future__ import annotations

from zipfile import ZIP_DEFLATED, ZipFile

import pytest
import xlsx_make

from addin.engine.api import calc_workbook

PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

DRAWN = [("A3", "Region"), ("B3", "Year"), ("C3", "Sum of Sales"),
         ("A4", "East"), ("B4", 2023), ("C4", 10), ("B5", 2024), ("C5", 20),
         ("A6", "East Total"), ("C6", 30),
         ("A7", "West"), ("B7", 2023), ("C7", 5), ("B8", 2024), ("C8", 7),
         ("A9", "West Total"), ("C9", 12), ("A10", "Grand Total"), ("C10", 42)]

TABLE = (
    f'<pivotTableDefinition xmlns="{xlsx_make.MAIN}" name="PivotTable1" cacheId="1" '
    'dataCaption="Values" compact="0" compactData="0" outline="0" outlineData="0">'
    '<location ref="A3:C10" firstHeaderRow="1" firstDataRow="1" firstDataCol="2"/>'
    '<pivotFields count="3">'
    '<pivotField axis="axisRow" compact="0" outline="0" showAll="0"><items count="3">'
    '<item x="0"/><item x="1"/><item t="default"/></items></pivotField>'
    '<pivotField axis="axisRow" compact="0" outline="0" showAll="0"><items count="3">'
    '<item x="0"/><item x="1"/><item t="default"/></items></pivotField>'
    '<pivotField dataField="1" compact="0" outline="0" showAll="0"/></pivotFields>'
    '<rowFields count="2"><field x="0"/><field x="1"/></rowFields>'
    '<rowItems count="7"><i><x/><x/></i><i r="1"><x v="1"/></i><i t="default"><x/></i>'
    '<i><x v="1"/><x/></i><i r="1"><x v="1"/></i><i t="default"><x v="1"/></i>'
    '<i t="grand"><x/></i></rowItems><colItems count="1"><i/></colItems>'
    '<dataFields count="1"><dataField name="Sum of Sales" fld="2" baseField="0" '
    'baseItem="0"/></dataFields></pivotTableDefinition>')


# a second table, drawn at A3:C6 as Excel draws one with two data fields, the Values field
# alone on the columns, Region on the rows with its item North filtered out (h="1", as a
# slicer leaves it): Sum of Sales and Max of Sales by Region
#     Region       Sum of Sales   Max of Sales
#     East         30             20
#     West         12              7
#     Grand Total  42             20
DRAWN_VALUES = [("A3", "Region"), ("B3", "Sum of Sales"), ("C3", "Max of Sales"),
                ("A4", "East"), ("B4", 30), ("C4", 20), ("A5", "West"), ("B5", 12),
                ("C5", 7), ("A6", "Grand Total"), ("B6", 42), ("C6", 20)]

TABLE_VALUES = (
    f'<pivotTableDefinition xmlns="{xlsx_make.MAIN}" name="PivotTable2" cacheId="1" '
    'dataCaption="Values">'
    '<location ref="A3:C6" firstHeaderRow="0" firstDataRow="1" firstDataCol="1"/>'
    '<pivotFields count="3">'
    '<pivotField axis="axisRow" showAll="0"><items count="4"><item x="0"/><item x="1"/>'
    '<item h="1" x="2"/><item t="default"/></items></pivotField>'
    '<pivotField showAll="0"/>'
    '<pivotField dataField="1" showAll="0"/></pivotFields>'
    '<rowFields count="1"><field x="0"/></rowFields>'
    '<rowItems count="3"><i><x/></i><i><x v="1"/></i><i t="grand"><x/></i></rowItems>'
    '<colFields count="1"><field x="-2"/></colFields>'
    '<colItems count="2"><i><x/></i><i i="1"><x v="1"/></i></colItems>'
    '<dataFields count="2"><dataField name="Sum of Sales" fld="2" baseField="0" '
    'baseItem="0"/><dataField name="Max of Sales" fld="2" subtotal="max" baseField="0" '
    'baseItem="0"/></dataFields></pivotTableDefinition>')


def cache(attrs: str = "") -> str:
    return (
        f'<pivotCacheDefinition xmlns="{xlsx_make.MAIN}" xmlns:r="{REL}" r:id="rId1" '
        f'refreshedVersion="8" recordCount="4"{attrs}><cacheSource type="worksheet">'
        '<worksheetSource ref="A1:C5" sheet="D"/></cacheSource><cacheFields count="3">'
        '<cacheField name="Region" numFmtId="0"><sharedItems count="3"><s v="East"/>'
        '<s v="West"/><s v="North"/></sharedItems></cacheField>'
        '<cacheField name="Year" numFmtId="0"><sharedItems containsSemiMixedTypes="0" '
        'containsString="0" containsNumber="1" containsInteger="1" minValue="2023" '
        'maxValue="2024" count="2"><n v="2023"/><n v="2024"/></sharedItems></cacheField>'
        '<cacheField name="Sales" numFmtId="0"><sharedItems containsSemiMixedTypes="0" '
        'containsString="0" containsNumber="1" containsInteger="1" minValue="5" '
        'maxValue="20"/></cacheField></cacheFields></pivotCacheDefinition>')


def _book(tmp_path, formulas: dict[str, str], cache_attrs: str = "", table: str = TABLE,
          drawn=tuple(DRAWN)):
    """Sheets S (the formulas, each saved with 0), P (the table drawn), D (its source);
    B1 = "West", B2 = 2023, B3 empty, D1 "$2,024" and D2 "1/1/2024" (texts)."""
    def cell(ref, v):
        return xlsx_make.cell(ref, None, v, t="inlineStr" if isinstance(v, str) else None)

    source = [cell(f"{c}{r}", v) for r, row in enumerate(
        [("Region", "Year", "Sales"), ("East", 2023, 10), ("East", 2024, 20),
         ("West", 2023, 5), ("West", 2024, 7)], 1) for c, v in zip("ABC", row, strict=True)]
    formula_cells = [xlsx_make.cell(ref, f, 0) for ref, f in formulas.items()]
    inputs = [cell("B1", "West"), cell("B2", 2023), cell("D1", "$2,024"), cell("D2", "1/1/2024")]

    def at(c):
        ref = c.split('r="', 1)[1].split('"', 1)[0]
        return int("".join(ch for ch in ref if ch.isdigit())), len(ref), ref

    path = xlsx_make.write(tmp_path / "in.xlsx", {
        "S": sorted(formula_cells + inputs, key=at),
        "P": sorted((cell(r, v) for r, v in drawn), key=at), "D": source})
    with ZipFile(path, "a", ZIP_DEFLATED) as z:
        z.writestr("xl/worksheets/_rels/sheet2.xml.rels",
                   f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" '
                   f'Type="{REL}/pivotTable" Target="../pivotTables/pivotTable1.xml"/>'
                   "</Relationships>")
        z.writestr("xl/pivotTables/pivotTable1.xml", table)
        z.writestr("xl/pivotTables/_rels/pivotTable1.xml.rels",
                   f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" '
                   f'Type="{REL}/pivotCacheDefinition" '
                   'Target="../pivotCache/pivotCacheDefinition1.xml"/></Relationships>')
        z.writestr("xl/pivotCache/pivotCacheDefinition1.xml", cache(cache_attrs))
    return path


FOUND = {
    # a detail row: West, 2024 -> C8
    "A1": ('GETPIVOTDATA("Sales",P!$A$3,"Region","West","Year",2024)', 7),
    # the data field by its own name; a group's subtotal: East Total -> C6
    "A2": ('GETPIVOTDATA("Sum of Sales",P!$A$3,"Region","East")', 30),
    # no item named: the grand total -> C10
    "A3": ('GETPIVOTDATA("Sales",P!$C$10)', 42),
    # items given by cells (B1 "West", B2 2023), pivot_table a range inside the table -> C7
    "A4": ('GETPIVOTDATA("Sales",P!A3:C10,"Region",B1,"Year",B2)', 5),
    # the Forex form, its condition true: the call is not evaluated
    "A5": ('IF(B3="","",GETPIVOTDATA("Sales",P!$A$3,"Region",B3))', ""),
    # and false: 5 + 1
    "A6": ('IF(B1="","",GETPIVOTDATA("Sales",P!$A$3,"Region",B1,"Year",B2)+1)', 6),
}

REF = {
    # an item the table does not have (Microsoft: no visible field described)
    "A1": 'GETPIVOTDATA("Sales",P!$A$3,"Region","North")',
    "A2": 'GETPIVOTDATA("Sales",P!$A$3,"Region","West","Year",2022)',
    # pivot_table outside the table (Microsoft: not a range in which a PivotTable is found;
    # the Forex files' ProfitRpt!$C$7)
    "A3": 'GETPIVOTDATA("Sales",P!$E$1)',
    "A4": 'GETPIVOTDATA("Sales",S!$A$1,"Region","West")',
    # a data field the table does not have
    "A5": 'GETPIVOTDATA("Profit",P!$A$3)',
    # a field the cache does not have
    "A6": 'GETPIVOTDATA("Sales",P!$A$3,"City","Paris")',
}


def test_values_the_table_shows(tmp_path):
    res = calc_workbook(_book(tmp_path, {k: f for k, (f, _) in FOUND.items()}),
                        tmp_path / "out.xlsx", {})
    assert {k: res[f"S!{k}"] for k in FOUND} == {k: v for k, (_, v) in FOUND.items()}


def test_ref_where_nothing_visible_is_named(tmp_path):
    res = calc_workbook(_book(tmp_path, REF), tmp_path / "out.xlsx", {})
    assert {k: res[f"S!{k}"].code for k in REF} == dict.fromkeys(REF, "#REF!")
    # each with a message saying which argument names nothing
    assert "'City' is no field" in res["S!A6"].message
    assert "not a range in which a PivotTable is found" in res["S!A3"].message


@pytest.mark.parametrize("formula, says", [
    # a number written as text against the numbers of Year: how Excel compares is not
    # documented
    ('GETPIVOTDATA("Sales",P!$A$3,"Region","West","Year","2024")', "looks like a number"),
    # letter case: not documented
    ('GETPIVOTDATA("Sales",P!$A$3,"Region","west")', "not settled"),
    # texts Excel may read as a number against the numbers of Year, given by a cell (the
    # forms of a literal are the engine's to refuse): whether GETPIVOTDATA reads them is
    # not documented
    ('GETPIVOTDATA("Sales",P!$A$3,"Region","West","Year",D1)', "not settled"),
    ('GETPIVOTDATA("Sales",P!$A$3,"Region","West","Year",D2)', "not settled"),
    ('GETPIVOTDATA("Sales",P!$A$3,"region","West")', "letter case"),
    ('GETPIVOTDATA("sales",P!$A$3)', "letter case"),
    # Year without Region: a cell the table does not show as such
    ('GETPIVOTDATA("Sales",P!$A$3,"Year",2024)', "other than its first"),
    # an error value given, an empty cell given
    ('GETPIVOTDATA("Sales",P!$A$3,"Region",1/0)', "error value"),
    ('GETPIVOTDATA("Sales",P!$A$3,"Region",B3)', "empty cell"),
])
def test_unsettled_forms_kept_with_a_reason(tmp_path, formula, says):
    kept = []
    res = calc_workbook(_book(tmp_path, {"A1": formula}), tmp_path / "out.xlsx", {},
                        kept=kept)
    assert res["S!A1"] == 0  # Excel's value kept (saved 0 here)
    assert [r.label for r in kept] == ["S!A1"]
    assert "GETPIVOTDATA" in kept[0].reason and says in kept[0].reason


def test_a_table_refreshed_on_opening_is_not_read(tmp_path):
    # refreshOnLoad: Excel draws the table again from its source when it opens the file
    kept = []
    src = _book(tmp_path, {"A1": FOUND["A1"][0]}, cache_attrs=' refreshOnLoad="1"')
    calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    assert "refreshed when the workbook opens" in kept[0].reason


def test_several_data_fields_with_values_on_the_columns(tmp_path):
    formulas = {
        "A1": 'GETPIVOTDATA("Sum of Sales",P!$A$3,"Region","West")',  # B5
        "A2": 'GETPIVOTDATA("Max of Sales",P!$A$3,"Region","East")',  # C4
        "A3": 'GETPIVOTDATA("Max of Sales",P!$B$4)',  # the grand total, C6
        # North, filtered out (h="1"): not visible -> #REF!, as Excel saved it for the
        # months a slicer filtered out (heldout13's Personal Finance.xlsx, Processing!Y2)
        "A4": 'GETPIVOTDATA("Sum of Sales",P!$A$3,"Region","North")',
        # "Sales" is the source of both data fields: which one is not settled
        "A5": 'GETPIVOTDATA("Sales",P!$A$3,"Region","East")'}
    kept = []
    res = calc_workbook(_book(tmp_path, formulas, table=TABLE_VALUES, drawn=DRAWN_VALUES),
                        tmp_path / "out.xlsx", {}, kept=kept)
    assert [res[f"S!A{i}"] for i in (1, 2, 3)] == [12, 20, 20]
    assert res["S!A4"].code == "#REF!" and "hides" in res["S!A4"].message
    assert [r.label for r in kept] == ["S!A5"] and "source of two" in kept[0].reason


def test_a_table_whose_lines_do_not_fill_its_range_is_not_read(tmp_path):
    # the table's range one row longer than its seven rowItems from its first data row:
    # where Excel drew each line is then not known, so nothing is read from it
    kept = []
    src = _book(tmp_path, {"A1": FOUND["A1"][0]},
                table=TABLE.replace('ref="A3:C10"', 'ref="A3:C11"'))
    calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    assert "do not fill its range" in kept[0].reason
