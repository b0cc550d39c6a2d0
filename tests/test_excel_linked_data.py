"""Excel's FIELDVALUE, saved ``_FV``: a field of a linked data type (Stocks), read from the
rich value the cell holds in the package, in a minimal workbook whose rich data parts are
written as Excel writes them ([MS-XLSX] 2.6.175 CT_RichValue; the parts of the fourth
held-out part's LBO Model.xlsx, whose Stock cell H3, CLEVELAND-CLIFFS INC., and its
``_FV`` cells are rebuilt here with the values Excel saved); what is not settled refused
with a sentence naming the cell."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from zipfile import ZIP_DEFLATED, ZipFile

import pytest
import xlsx_make

from addin.engine.api import calc_workbook
from addin.ooxml import rich_values as rv
from addin.ooxml.guard import WorkbookError

CORPUS = Path(__file__).parent / "corpus"
MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RICH_NS = "http://schemas.microsoft.com/office/spreadsheetml/2017/richdata"

# xl/metadata.xml as Excel 365 wrote it in LBO Model.xlsx: the dynamic-array type (cm="1")
# and XLRICHVALUE, whose one valueMetadata record (vm="1") names rv 2 through rvb i="2"
METADATA = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
    f'<metadata xmlns="{MAIN_NS}" xmlns:xlrd="{RICH_NS}" xmlns:xda="http://schemas.microsoft.'
    'com/office/spreadsheetml/2017/dynamicarray"><metadataTypes count="2"><metadataType '
    'name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" '
    'merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" '
    'coerce="1" cellMeta="1"/><metadataType name="XLRICHVALUE" minSupportedVersion="120000" '
    'copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" '
    'clearFormats="1" clearComments="1" assign="1" coerce="1"/></metadataTypes>'
    '<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-'
    '3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst>'
    '</bk></futureMetadata><futureMetadata name="XLRICHVALUE" count="{n}">{blocks}'
    '</futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata>'
    '<valueMetadata count="{n}">{records}</valueMetadata></metadata>')


def metadata(rvs: list[int]) -> str:
    """METADATA with one valueMetadata record (vm 1, 2...) per index of ``rvs``."""
    blocks = "".join(f'<bk><extLst><ext uri="{{3e2802c4-a4d2-4d8b-9148-e3be6c30e623}}">'
                     f'<xlrd:rvb i="{i}"/></ext></extLst></bk>' for i in rvs)
    records = "".join(f'<bk><rc t="2" v="{k}"/></bk>' for k in range(len(rvs)))
    return METADATA.replace("{n}", str(len(rvs))).replace("{blocks}", blocks) \
        .replace("{records}", records)


# the structures LBO Model.xlsx saved (the _linkedentitycore's keys cut to those read here
# and the ones Excel keeps for itself; the order of the keys is the file's)
STRUCTURES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
    f'<rvStructures xmlns="{RICH_NS}" count="4"><s t="_hyperlink"><k n="Address" t="s"/>'
    '<k n="Text" t="s"/></s><s t="_linkedentitycore"><k n="%EntityCulture" t="s"/>'
    '<k n="%EntityId" t="s"/><k n="%EntityServiceId"/><k n="%IsRefreshable" t="b"/>'
    '<k n="_Display" t="spb"/><k n="_DisplayString" t="s"/><k n="52 week high"/>'
    '<k n="52 week low"/><k n="Industry" t="s"/><k n="LearnMoreOnLink" t="r"/>'
    '<k n="Market cap"/><k n="Name" t="s"/><k n="Price"/><k n="Shares outstanding"/>'
    '<k n="Ticker symbol" t="s"/><k n="Year incorporated"/><k n="Dividend" t="e"/></s>'
    '<s t="_linkedentity"><k n="%cvi" t="r"/></s><s t="_error"><k n="errorType" t="i"/>'
    '<k n="propagated" t="b"/></s></rvStructures>')

# CLEVELAND-CLIFFS INC. (XNYS:CLF) as LBO Model.xlsx saved it; rv 3, an error value (the
# _error structure of Stock Portfolio Tracker.xlsx), and rv 4, a hyperlink, are cells
# holding a rich value that is no linked data type; "Dividend" an error-valued field
RICH = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
    f'<rvData xmlns="{RICH_NS}" count="5"><rv s="0"><v>https://www.bing.com/financeapi/'
    'forcetrigger?t=a1ptbh&amp;q=XNYS%3aCLF&amp;form=skydnc</v><v>Learn more on Bing</v></rv>'
    '<rv s="1"><v>en-US</v><v>a1ptbh</v><v>268435456</v><v>1</v><v>0</v>'
    '<v>CLEVELAND-CLIFFS INC. (XNYS:CLF)</v><v>16.7</v><v>5.63</v><v>Metals &amp; Mining</v>'
    '<v>0</v><v>5918052512</v><v>CLEVELAND-CLIFFS INC.</v><v>10.375</v><v>570414700</v>'
    '<v>CLF</v><v>1985</v><v>8</v></rv><rv s="2"><v>1</v></rv>'
    '<rv s="3"><v>8</v><v>0</v></rv><rv s="0"><v>https://example.com</v><v>x</v></rv>'
    '</rvData>')


def write(path, cells: list[str], names: dict | None = None, rvs=(2, 3, 4)):
    """A one-sheet workbook ``S`` of ``cells`` with the rich data parts above (vm 1 the
    Stock, vm 2 an error, vm 3 a hyperlink), as Excel's package names them."""
    xlsx_make.write(path, {"S": cells}, names=names)
    with ZipFile(path, "a", ZIP_DEFLATED) as z:
        z.writestr("xl/metadata.xml", metadata(list(rvs)))
        z.writestr("xl/richData/rdrichvalue.xml", RICH)
        z.writestr("xl/richData/rdrichvaluestructure.xml", STRUCTURES)
    return path


def stock(ref: str = "H3", vm: int = 1) -> str:
    """The data type cell as Excel saves it: #VALUE! for programs that read no rich value."""
    return f'<c r="{ref}" t="e" vm="{vm}"><v>#VALUE!</v></c>'


def fv(ref: str, formula: str, value, t: str | None = None) -> str:
    """A ``_FV`` cell as Excel 365 saves it: a one-cell dynamic array formula."""
    ta = f' t="{t}"' if t else ""
    return (f'<c r="{ref}"{ta} cm="1"><f t="array" aca="1" ref="{ref}" ca="1">'
            f'{formula.replace("&", "&amp;").replace(chr(34), "&quot;")}</f><v>{value}</v></c>')


def test_the_parts_are_read_as_the_spec_and_excel_write_them():
    # the parts parsed: the structure's keys name the rv's values in order (2.6.175)
    data = rv.rich_values(RICH.encode(), STRUCTURES.encode())
    assert [r.type for r in data] == ["_hyperlink", "_linkedentitycore", "_linkedentity",
                                      "_error", "_hyperlink"]
    assert rv.value_metadata(metadata([2, 3]).encode()) == {1: 2, 2: 3}
    rich = rv.RichData(data, {1: 2})
    core = rich.entity_fields(rich.of_vm(1))
    assert core.get("Price") == ("d", "10.375")  # (no t: "d", the default)
    assert core.get("Industry") == ("s", "Metals & Mining")
    assert core.get("Nope") is None
    assert rich.entity_fields(data[3]) is None  # an _error is no linked entity
    # the test's parts are well-formed XML in the spec's namespace (compared parsed)
    root = ET.fromstring(metadata([2]))
    assert root.find(f"{{{MAIN_NS}}}valueMetadata/{{{MAIN_NS}}}bk/{{{MAIN_NS}}}rc").attrib \
        == {"t": "2", "v": "0"}


def test_fields_of_lbo_models_stock_as_excel_saved_them(tmp_path):
    # LBO Model.xlsx (fourth held-out part), sheet1: G3, G4, G5 and G99, I99 through the
    # defined name stock (=Sheet!$H$3): the values Excel saved, each the stored field
    # (10.375; 570414700/1e6 = 570.4147; 5918052512/1e6 = 5918.052512; 5.63; 16.7)
    cells = [stock(), fv("G3", '+_FV(H3,"Price")', "10.375"),
             fv("G4", '_FV(H3,"Shares outstanding",TRUE)/1000000', "570.41470000000004"),
             fv("G5", '+_FV(H3,"Market cap",TRUE)/1000000', "5918.0525120000002"),
             fv("G99", '_FV(stock,"52 week low",TRUE)', "5.63"),
             fv("I99", '_FV(stock,"52 week high",TRUE)', "16.7"),
             fv("C7", '_FV(H3,"Ticker symbol",TRUE)', "CLF", "str"),
             fv("D7", '_FV(H3,"Industry")', "Metals &amp; Mining", "str"),
             xlsx_make.cell("J3", "G3*2", 20.75)]
    res = calc_workbook(write(tmp_path / "in.xlsx", cells, {"stock": "S!$H$3"}),
                        tmp_path / "out.xlsx", {})
    assert res["S!G3"] == 10.375
    assert res["S!G4"] == pytest.approx(570.4147, rel=1e-15)
    assert res["S!G5"] == pytest.approx(5918.052512, rel=1e-15)
    assert (res["S!G99"], res["S!I99"]) == (5.63, 16.7)
    assert (res["S!C7"], res["S!D7"]) == ("CLF", "Metals & Mining")
    assert res["S!J3"] == 20.75  # 10.375 * 2, a formula reading the field
    # the data type cell itself is left as saved, its vm with it (compared parsed)
    with ZipFile(tmp_path / "out.xlsx") as z:
        root = ET.fromstring(z.read("xl/worksheets/sheet1.xml"))
    h3 = next(c for c in root.iter(f"{{{MAIN_NS}}}c") if c.get("r") == "H3")
    assert (h3.get("vm"), h3.get("t"), h3.find(f"{{{MAIN_NS}}}v").text) == \
        ("1", "e", "#VALUE!")


@pytest.mark.parametrize("formula, says", [
    ('_FV(H3,"Nope")', "of a field its data type does not hold (Excel's #FIELD!"),
    ('_FV(H3,"price")', "of a field its data type does not hold"),  # (names as saved)
    ('_FV(H3,"%EntityId")', "of a field its data type does not hold"),  # (Excel's own)
    ('_FV(H3,"Dividend")', "of a field saved as other than a number or a text"),  # t="e"
    ('_FV(H3,"LearnMoreOnLink",TRUE)', "of a field saved as other than a number or a text"),
    ('_FV(K1,"Price")', "of a cell holding no linked data type saved in the file"),
    ('_FV(K2,"Price")', "of a rich value other than the linked data type read"),
    ('_FV(K3,"Price")', "of a rich value other than the linked data type read"),
    ('_FV(K4,"Price")', "of a formula cell: the linked data type it computes"),
    ('_FV(H3,"Price",2)', "with a third argument other than TRUE or FALSE"),
    ('_FV(H3,1)', "with a field named other than by a text"),
    # a range: a form of argument not checked (strict mode's forms, before the call)
    ('_FV(H3:H4,"Price")', "given a range of cells"),
])
def test_what_is_not_settled_is_refused_naming_the_cell(tmp_path, formula, says):
    # K1 a number, K2 a rich error (vm 2), K3 a hyperlink (vm 3), K4 a formula whose value
    # is the data type (Stock Portfolio Tracker.xlsx's Watchlist: a data type computed)
    cells = [stock(), xlsx_make.cell("K1", None, 3),
             '<c r="K2" t="e" vm="2"><v>#VALUE!</v></c>',
             '<c r="K3" t="e" vm="3"><v>#VALUE!</v></c>',
             '<c r="K4" t="e" vm="1"><f>H3</f><v>#VALUE!</v></c>',
             fv("B1", formula, "0"), xlsx_make.cell("B2", "B1+1", 1)]
    with pytest.raises(WorkbookError, match=r"napkin (cannot compute|has not checked) .*"
                       + re.escape(says) + r".* S!B1"):
        calc_workbook(write(tmp_path / "in.xlsx", cells), tmp_path / "out.xlsx", {})


def test_the_stock_fields_excel_saved_in_the_corpus(tmp_path):
    # tests/corpus/sheetjs/metadata_2019.xlsx (Excel 365): Sheet1!B9:C10 =_FV(A9,"High"),
    # _FV(A9,"Low"), the same of A10, saved 439.77, 429.755, 124.97, 116.485; B2, B3 the
    # Geography type's "Leader(s)" (_linkedentity2, its fields rich values): refused, kept
    kept = []
    res = calc_workbook(CORPUS / "sheetjs/metadata_2019.xlsx", tmp_path / "out.xlsx", {},
                        kept=kept)
    assert [res[f"Sheet1!{c}"] for c in ("B9", "C9", "B10", "C10")] == \
        [439.77, 429.755, 124.97, 116.485]
    assert {k.label for k in kept if "_FV()" in k.reason} == {"Sheet1!B2", "Sheet1!B3"}


def test_a_workbook_without_rich_data_refuses_fv(tmp_path):
    path = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        '<c r="H3" t="e"><v>#VALUE!</v></c>', fv("B1", '_FV(H3,"Price")', "1"),
        xlsx_make.cell("B2", "B1+1", 2)]})
    with pytest.raises(WorkbookError, match="of a cell holding no linked data type .* S!B1"):
        calc_workbook(path, tmp_path / "out.xlsx", {})


@pytest.mark.parametrize("formula", ["ISERROR(H3)", "SUM(H1:H5)", "IF(H3=1,1,2)",
                                     '_FV(H3,"Price")+ISERROR(H3)', "COUNTA(S!H3)",
                                     "ISERROR(stock)", "H3"])
def test_a_data_type_read_otherwise_than_by_fv_is_refused(tmp_path, formula):
    # napkin would read the #VALUE! saved in H3's place, which is not what Excel reads
    # (a data type: ISERROR of it is no error value)
    cells = [stock(), xlsx_make.cell("B1", formula, 0), xlsx_make.cell("B2", "B1+1", 1)]
    with pytest.raises(WorkbookError, match=r"napkin cannot compute a cell holding a linked "
                       r"data type .* otherwise than by _FV\(\) .* S!B1"):
        calc_workbook(write(tmp_path / "in.xlsx", cells, {"stock": "S!$H$3"}),
                      tmp_path / "out.xlsx", {})


def test_references_beside_fv_that_miss_the_data_type_compute(tmp_path):
    # G7 - _FV(H3,"Price"), as Stock Portfolio Tracker's I7 (F7-_FV(B7,...)): 20 - 10.375
    cells = [stock(), xlsx_make.cell("G7", None, 20),
             fv("I7", 'G7-_FV(H3,"Price")', "9.625"), xlsx_make.cell("I8", "I7*2", 19.25)]
    res = calc_workbook(write(tmp_path / "in.xlsx", cells), tmp_path / "out.xlsx", {})
    assert (res["S!I7"], res["S!I8"]) == (9.625, 19.25)
