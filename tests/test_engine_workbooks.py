"""The headless engine on whole workbooks written to disk: values computed with the fake
registry (``fake_registry.py``), and every other byte of the workbook kept."""

from __future__ import annotations

import hashlib
import io
import math
import os
import re
import xml.etree.ElementTree as ET
import zipfile

import openpyxl
import pytest
from fake_registry import (
    FAKE,
    NUM_BW,
)
from openpyxl.chart import BarChart, Reference
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.formula import ArrayFormula
from xml_support import canonical

from addin.engine import api as engine
from addin.engine import executor
from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError
from udfs.machinery.errors import ExcelError

# reads or writes workbook XML: .ci/run runs it again with openpyxl's lxml off
pytestmark = pytest.mark.xml

# --------------------------------------------------------------------------- workbooks


def sha(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4c30000000049454e44ae426082"
)


def _inject(path, members: dict[str, bytes]):
    """Add raw zip members (as Excel would keep parts openpyxl does not know)."""
    with zipfile.ZipFile(path, "a") as z:
        for name, data in members.items():
            z.writestr(name, data)


@pytest.fixture
def book(tmp_path):
    """A workbook as a user builds it: tables, named ranges, a dropdown, a chart."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "GPUs"
    ws.append(["GPU", "TFLOPS", "TB/s", "Ridge"])
    for i, (g, t, b) in enumerate([("H100", 989, 3.35), ("H200", 989, 4.8),
                                   ("B200", 2250, 8)], start=2):
        ws.append([g, t, b, f"=RIDGE(B{i},C{i})"])
    ws["F1"] = "=SUM(B:B)"
    ws["F2"] = "=COUNTA(A:A)"
    wb.defined_names["GPU_NAMES"] = DefinedName("GPU_NAMES", attr_text="GPUs!$A$2:$A$4")
    wb.defined_names["GPU_TFLOPS"] = DefinedName("GPU_TFLOPS", attr_text="GPUs!$B$2:$B$4")
    wb.defined_names["GPU_BW"] = DefinedName("GPU_BW", attr_text="GPUs!$C$2:$C$4")
    wb.defined_names["EFF"] = DefinedName("EFF", attr_text="0.8")
    wb.defined_names["BEST"] = DefinedName("BEST", attr_text="MAX(GPUs!$D$2:$D$4)")

    calc = wb.create_sheet("Bob's calc")
    calc["A1"] = "GPU"
    calc["B1"] = "H200"  # a dropdown cell
    dv = DataValidation(type="list", formula1="=GPU_NAMES", allow_blank=False)
    calc.add_data_validation(dv)
    dv.add("B1")
    calc["A2"] = "peak"
    calc["B2"] = "=INDEX(GPU_TFLOPS,MATCH(B1,GPU_NAMES,0))"
    calc["B3"] = "=INDEX(GPU_BW,MATCH(B1,GPU_NAMES,0))"
    calc["B4"] = "=RIDGE(B2,B3,EFF)"
    calc["B5"] = "=GPUs!D2*2"
    calc["B6"] = "=WEIGHT_GB(70E9,\"FP8\")"
    calc["B7"] = "=FITS(B6,80)"
    calc["B8"] = "=BOUND(1,B4)"
    calc["B9"] = "=IF(B8=\"memory-bound\",1,2)"
    calc["B10"] = "=RIDGE(B2,0)"
    calc["B11"] = "=B10*2"  # an error of ours, through Excel arithmetic
    calc["B12"] = "=FITS(B10,80)"  # and through another function of ours
    calc["B13"] = "=1/0"
    calc["B14"] = "=B15+1"
    calc["B15"] = "=B14+1"  # circular
    calc["B16"] = "=BEST"
    calc["B17"] = "=B18*10"  # refers to a cell computed later in the sheet
    calc["B18"] = "=SUM(C1:C3)"
    calc["C1"] = ArrayFormula("C1:C3", "=RIDGE(GPUs!B2:B4,GPUs!C2:C4)")
    calc["B19"] = "=KIND(GPUs!B2:C3)"
    calc["B20"] = "=WEIGHT_GB(1,\"FP99\")"
    calc["B21"] = "='Bob''s calc'!B6+1"
    calc["B22"] = "=\"n=\"&B6"

    chart = BarChart()
    chart.add_data(Reference(ws, min_col=4, min_row=1, max_row=4), titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=4))
    ws.add_chart(chart, "H2")

    src = tmp_path / "book.xlsx"
    wb.save(src)
    _inject(src, {"xl/media/image1.png": PNG, "xl/vbaProject.bin": b"\x00VBA\x01" * 50,
                  "customXml/item1.xml": b"<root>keep me</root>"})
    return src


EXPECTED = {
    "GPUs!D2": 989 / 3.35,
    "GPUs!D3": 989 / 4.8,
    "GPUs!D4": 2250 / 8,
    "GPUs!F1": 989 + 989 + 2250,
    "GPUs!F2": 4,
    "'Bob''s calc'!B2": 989,
    "'Bob''s calc'!B3": 4.8,
    "'Bob''s calc'!B4": 989 * 0.8 / 4.8,
    "'Bob''s calc'!B5": 2 * 989 / 3.35,
    "'Bob''s calc'!B6": 70.0,
    "'Bob''s calc'!B7": True,
    "'Bob''s calc'!B8": "memory-bound",
    "'Bob''s calc'!B9": 1,
    "'Bob''s calc'!B10": NUM_BW,
    "'Bob''s calc'!B11": NUM_BW,
    "'Bob''s calc'!B12": NUM_BW,
    "'Bob''s calc'!B13": ExcelError("#DIV/0!", ""),
    "'Bob''s calc'!B14": ExcelError("#VALUE!", "circular reference"),
    "'Bob''s calc'!B15": ExcelError("#VALUE!", "circular reference"),
    "'Bob''s calc'!B16": 989 / 3.35,
    "'Bob''s calc'!B17": 10 * (989 / 3.35 + 989 / 4.8 + 2250 / 8),
    "'Bob''s calc'!B18": 989 / 3.35 + 989 / 4.8 + 2250 / 8,
    "'Bob''s calc'!C1": 989 / 3.35,
    "'Bob''s calc'!C2": 989 / 4.8,
    "'Bob''s calc'!C3": 2250 / 8,
    "'Bob''s calc'!B19": "list 2x2",
    "'Bob''s calc'!B20": ExcelError("#N/A", "unknown precision 'FP99'"),
    "'Bob''s calc'!B21": 71.0,
    "'Bob''s calc'!B22": "n=70",
}


def _same(got, exp):
    if isinstance(exp, float):
        return isinstance(got, (int, float)) and not isinstance(got, bool) and \
            math.isclose(got, exp, rel_tol=1e-12)
    return got == exp and type(got) is type(exp) or (
        isinstance(exp, int) and not isinstance(exp, bool) and got == exp
        and not isinstance(got, bool))


def test_calc_workbook_values(book, tmp_path):
    res = calc_workbook(book, tmp_path / "out.xlsx", FAKE, strict=False)
    assert set(res) == set(EXPECTED)
    bad = {k: (res[k], v) for k, v in EXPECTED.items() if not _same(res[k], v)}
    assert not bad


def test_calc_workbook_cached_values_for_any_reader(book, tmp_path):
    out = tmp_path / "out.xlsx"
    calc_workbook(book, out, FAKE, strict=False)
    wb = openpyxl.load_workbook(out, data_only=True)
    for key, exp in EXPECTED.items():
        sheet, _, ref = key.rpartition("!")
        sheet = sheet.strip("'").replace("''", "'")
        got = wb[sheet][ref].value
        if isinstance(exp, ExcelError):
            assert got == exp.code, key
        elif isinstance(exp, float):
            assert got == pytest.approx(exp, rel=1e-15), key
        else:
            assert got == exp, key
    # the formulas themselves are still there
    wf = openpyxl.load_workbook(out)
    assert wf["Bob's calc"]["B4"].value == "=RIDGE(B2,B3,EFF)"
    assert wf["Bob's calc"]["B6"].value == "=WEIGHT_GB(70E9,\"FP8\")"
    assert wf["GPUs"]["D2"].value == "=RIDGE(B2,C2)"
    assert len(wf["GPUs"]._charts) == 1
    assert wf["Bob's calc"].data_validations.dataValidation[0].formula1 == "=GPU_NAMES"


def _strip_formula_values(xml: str) -> str:
    """The sheet XML with the cached values (and types) of formula cells taken out."""
    def clean(m):
        cell = m.group(0)
        if "<f" not in cell:
            return cell
        cell = re.sub(r'\s+t="[^"]*"', "", cell, count=1)
        return re.sub(r"<v>.*?</v>|<v\s*/>", "", cell)
    return re.sub(r"<c\b[^>]*?(?:/>|>.*?</c>)", clean, xml)


def test_calc_workbook_is_lossless(book, tmp_path):
    before = sha(book)
    out = tmp_path / "out.xlsx"
    calc_workbook(book, out, FAKE, strict=False)
    assert sha(book) == before  # src untouched
    zs, zd = zipfile.ZipFile(book), zipfile.ZipFile(out)
    assert zd.namelist() == zs.namelist()  # same members, same order
    assert zd.testzip() is None
    names = zs.namelist()
    assert "xl/charts/chart1.xml" in names and "xl/media/image1.png" in names
    for name in names:
        a, b = zs.read(name), zd.read(name)
        if name.startswith("xl/worksheets/sheet"):
            a, b = a.decode(), b.decode()
            # array formula cells C2:C3 did not exist: they are inserted, nothing else
            b = re.sub(r'<c r="C[23]"><v>[^<]*</v></c>', "", b)
            b = b.replace('<row r="3"><c r="B3">', '<row r="3"><c r="B3">')
            assert _strip_formula_values(a) == _strip_formula_values(b), name
        elif name == "xl/workbook.xml":
            # fullCalcOnLoad off; calcId that of current Excel (addin.ooxml.package.stamp_calc_id)
            want = ET.fromstring(a)
            calc_pr = next(e for e in want.iter() if e.tag.endswith("}calcPr"))
            calc_pr.attrib.pop("fullCalcOnLoad")
            calc_pr.set("calcId", "191029")
            assert canonical(b) == canonical(ET.tostring(want))
        else:
            assert a == b, name


def test_cached_values_in_the_xml(book, tmp_path):
    out = tmp_path / "out.xlsx"
    calc_workbook(book, out, FAKE, strict=False)
    with zipfile.ZipFile(out) as z:
        xml = z.read("xl/worksheets/sheet2.xml").decode()
    cell = lambda ref: re.search(rf'<c r="{ref}"[^>]*?(?:/>|>.*?</c>)', xml).group(0)  # noqa: E731
    assert cell("B6") == '<c r="B6"><f>WEIGHT_GB(70E9,"FP8")</f><v>70</v></c>'
    assert cell("B7") == '<c r="B7" t="b"><f>FITS(B6,80)</f><v>1</v></c>'
    assert cell("B8") == '<c r="B8" t="str"><f>BOUND(1,B4)</f><v>memory-bound</v></c>'
    assert cell("B10") == '<c r="B10" t="e"><f>RIDGE(B2,0)</f><v>#NUM!</v></c>'
    assert cell("B4").endswith(f"<v>{989 * 0.8 / 4.8!r}</v></c>")
    assert cell("C2") == f'<c r="C2"><v>{989 / 4.8!r}</v></c>'


def test_recalc_on_open(book, tmp_path):
    calc_workbook(book, tmp_path / "a.xlsx", FAKE, recalc_on_open=True, strict=False)
    with zipfile.ZipFile(tmp_path / "a.xlsx") as z:
        assert 'fullCalcOnLoad="1"' in z.read("xl/workbook.xml").decode()


def test_refuses_to_overwrite_src_unless_in_place(book):
    before = sha(book)
    with pytest.raises(ValueError, match="in_place"):
        calc_workbook(book, book, FAKE, strict=False)
    assert sha(book) == before
    res = calc_workbook(book, str(book), FAKE, in_place=True, strict=False)
    assert res["'Bob''s calc'!B6"] == 70.0
    bak = book.with_name(book.name + ".bak")
    assert sha(bak) == before
    assert openpyxl.load_workbook(book, data_only=True)["Bob's calc"]["B6"].value == 70


def test_failure_leaves_no_dst(book, tmp_path, monkeypatch):
    out = tmp_path / "sub" / "out.xlsx"

    def fail(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(engine.os, "replace", fail)
    with pytest.raises(OSError):
        calc_workbook(book, out, FAKE, strict=False)
    assert not out.exists()
    assert os.listdir(out.parent) == []  # no temp file left behind


def test_garbage_collector_as_it_was_after_calc(book, tmp_path):
    """calc_workbook pauses Python's cyclic garbage collector while it computes, and
    leaves it as it found it: on, after a success or a refusal; off, when it was off."""
    import gc

    assert gc.isenabled()
    calc_workbook(book, tmp_path / "out.xlsx", FAKE, strict=False)
    assert gc.isenabled()
    src = tmp_path / "not.xlsx"
    src.write_bytes(b"not a zip")
    with pytest.raises(WorkbookError):
        calc_workbook(src, tmp_path / "out2.xlsx", FAKE)
    assert gc.isenabled()
    gc.disable()
    try:
        calc_workbook(book, tmp_path / "out3.xlsx", FAKE, strict=False)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_bad_source_leaves_no_dst(tmp_path):
    src = tmp_path / "not.xlsx"
    src.write_bytes(b"not a zip")
    with pytest.raises(WorkbookError, match="not an .xlsx workbook"):
        calc_workbook(src, tmp_path / "out.xlsx", FAKE)
    assert not (tmp_path / "out.xlsx").exists()


def test_existing_dst_is_replaced_whole(book, tmp_path):
    out = tmp_path / "out.xlsx"
    out.write_bytes(b"old")
    calc_workbook(book, out, FAKE, strict=False)
    assert zipfile.is_zipfile(out)


def test_sheet_scoped_names_and_name_formulas(tmp_path):
    wb = openpyxl.Workbook()
    a = wb.active
    a.title = "A"
    b = wb.create_sheet("B")
    a["A1"], b["A1"] = 10, 20
    a["B1"] = "=RATE_X*2"
    b["B1"] = "=RATE_X*2"
    a["B3"] = "=HALF"
    a["B4"] = "=TOTAL"
    wb.defined_names["RATE_X"] = DefinedName("RATE_X", attr_text="A!$A$1")
    b.defined_names["RATE_X"] = DefinedName("RATE_X", attr_text="B!$A$1")
    wb.defined_names["HALF"] = DefinedName("HALF", attr_text="A!$A$1/2")
    wb.defined_names["TOTAL"] = DefinedName("TOTAL", attr_text="A!$B$1+HALF")
    src = tmp_path / "n.xlsx"
    wb.save(src)
    res = calc_workbook(src, tmp_path / "o.xlsx", FAKE)
    assert res == {"A!B1": 20, "A!B3": 5.0, "A!B4": 25.0, "B!B1": 40}


def test_error_cells_reach_our_functions(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = "#N/A"
    ws["A1"].data_type = "e"
    ws["B1"] = "=KIND(A1)"
    ws["B2"] = "=KIND(B3)"
    ws["B3"] = "=RIDGE(1,-1)"
    ws["B4"] = "=KIND(B5)"  # an empty cell
    src = tmp_path / "e.xlsx"
    wb.save(src)
    res = calc_workbook(src, tmp_path / "o.xlsx", FAKE)
    assert res["Sheet!B1"] == "error #N/A"
    assert res["Sheet!B2"] == "error #NUM! bandwidth must be greater than 0"
    assert res["Sheet!B4"] == "NoneType"


def _shared_formula_book(tmp_path):
    """A sheet as Excel writes a filled-down column: shared formulas, shared strings."""
    wb = openpyxl.Workbook()
    ws = wb.active
    for r in range(1, 6):
        ws.cell(r, 1, r * 10)
        ws.cell(r, 2, f"=A{r}*2")  # replaced by a shared formula below
        ws.cell(r, 3, f"=A{r}+$A$1")  # shared, and not shareable by shape at C1
        ws.cell(r, 4, f"=RIDGE(A{r},2)")
    ws["E1"] = "=SUM(B1:B5)"
    src = tmp_path / "shared.xlsx"
    wb.save(src)
    with zipfile.ZipFile(src) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    xml = parts["xl/worksheets/sheet1.xml"].decode()
    for col, si, master in (("B", 0, "A1*2"), ("C", 1, "A1+$A$1"), ("D", 2, "RIDGE(A1,2)")):
        for r in range(1, 6):
            old = re.search(rf'<c r="{col}{r}"[^>]*>.*?</c>', xml).group(0)
            f = (f'<f t="shared" ref="{col}1:{col}5" si="{si}">{master}</f>' if r == 1
                 else f'<f t="shared" si="{si}"/>')
            xml = xml.replace(old, f'<c r="{col}{r}">{f}<v>0</v></c>')
    parts["xl/worksheets/sheet1.xml"] = xml.encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in parts.items():
            z.writestr(n, d)
    src.write_bytes(buf.getvalue())
    return src


def test_shared_formulas(tmp_path):
    src = _shared_formula_book(tmp_path)
    res = calc_workbook(src, tmp_path / "o.xlsx", FAKE)
    for r in range(1, 6):
        assert res[f"Sheet!B{r}"] == r * 20
        assert res[f"Sheet!C{r}"] == r * 10 + 10
        assert res[f"Sheet!D{r}"] == r * 5
    assert res["Sheet!E1"] == 300
    wb = openpyxl.load_workbook(tmp_path / "o.xlsx", data_only=True)
    assert [wb.active.cell(r, 3).value for r in range(1, 6)] == [20, 30, 40, 50, 60]


def _raw_book(tmp_path, sheet_xml: str, shared=("GPU", "H100")):
    """A minimal package as Excel writes it (shared strings, a calc chain)."""
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    parts = {
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxml'
            'formats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
            '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
            '<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.spreadsheetml.calcChain+xml"/></Types>'),
        "_rels/.rels": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
            f'relationships"><Relationship Id="rId1" Type="{rel}/officeDocument" '
            'Target="xl/workbook.xml"/></Relationships>'),
        "xl/workbook.xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<workbook {ns} xmlns:r="{rel}"><sheets><sheet name="Data" sheetId="1" '
            'r:id="rId1"/></sheets><definedNames><definedName name="Peaks">Data!$B$2:$B$3'
            '</definedName></definedNames><calcPr calcId="191029"/></workbook>'),
        "xl/_rels/workbook.xml.rels": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
            f'relationships"><Relationship Id="rId1" Type="{rel}/worksheet" '
            'Target="worksheets/sheet1.xml"/><Relationship Id="rId2" '
            f'Type="{rel}/sharedStrings" Target="sharedStrings.xml"/><Relationship '
            f'Id="rId3" Type="{rel}/calcChain" Target="calcChain.xml"/></Relationships>'),
        "xl/sharedStrings.xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<sst {ns} count="{len(shared)}" uniqueCount="{len(shared)}">'
            + "".join(f"<si><t>{s}</t></si>" for s in shared) + "</sst>"),
        "xl/calcChain.xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<calcChain {ns}><c r="C2" i="1"/></calcChain>'),
        "xl/worksheets/sheet1.xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<worksheet {ns}><sheetData>{sheet_xml}</sheetData></worksheet>'),
    }
    src = tmp_path / "raw.xlsx"
    with zipfile.ZipFile(src, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in parts.items():
            z.writestr(n, d)
    return src


def test_excel_written_package(tmp_path):
    sheet = (
        '<row r="1" spans="1:4"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>989</v></c></row>'
        '<row r="2" spans="1:4"><c r="A2" t="s"><v>1</v></c><c r="B2"><v>989</v></c>'
        '<c r="C2" s="0"><f>RIDGE(B2,3.35)</f><v>1</v></c>'
        '<c r="D2" t="str"><f>A2&amp;" &lt;ok&gt;"</f><v>old</v></c></row>'
        '<row r="3"><c r="B3"><v>1979</v></c><c r="C3" t="e"><f>RIDGE(B3,0)</f><v>#N/A</v>'
        '</c><c r="D3"><f>SUM(Peaks)</f></c><c r="E3"><f t="array" ref="E3:F4" aca="false">'
        'GRID()</f><v>0</v></c></row>'
        '<row r="5"><c r="A5"><f>COUNTIF(A1:A2,"H*")</f><v>0</v></c></row>'
    )
    src = _raw_book(tmp_path, sheet)
    out = tmp_path / "o.xlsx"
    res = calc_workbook(src, out, FAKE)
    assert res == {"Data!C2": 989 / 3.35, "Data!D2": "H100 <ok>", "Data!C3": NUM_BW,
                   "Data!D3": 989 + 1979, "Data!E3": 1, "Data!F3": 2, "Data!E4": 3,
                   "Data!F4": 4, "Data!A5": 1}
    with zipfile.ZipFile(out) as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode()
        assert z.read("xl/calcChain.xml") == zipfile.ZipFile(src).read("xl/calcChain.xml")
        assert z.read("xl/workbook.xml") == zipfile.ZipFile(src).read("xl/workbook.xml")
    assert f'<c r="C2" s="0"><f>RIDGE(B2,3.35)</f><v>{989 / 3.35!r}</v></c>' in xml
    assert '<c r="D2" t="str"><f>A2&amp;" &lt;ok&gt;"</f><v>H100 &lt;ok&gt;</v></c>' in xml
    assert '<c r="C3" t="e"><f>RIDGE(B3,0)</f><v>#NUM!</v></c>' in xml
    assert '<c r="D3"><f>SUM(Peaks)</f><v>2968</v></c>' in xml
    assert '<row r="4"><c r="E4"><v>3</v></c><c r="F4"><v>4</v></c></row><row r="5">' in xml
    assert '<row r="1" spans="1:4"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>989</v></c></row>' \
        in xml
    ws = openpyxl.load_workbook(out, data_only=True).active
    assert [[c.value for c in row] for row in ws["E3:F4"]] == [[1, 2], [3, 4]]
    assert ws["C3"].value == "#NUM!" and ws["D2"].value == "H100 <ok>"


def test_each_formula_shape_compiles_once(tmp_path, monkeypatch):
    wb = openpyxl.Workbook()
    ws = wb.active
    for r in range(1, 301):
        ws.cell(r, 1, r)
        ws.cell(r, 2, f"=RIDGE(A{r},$A$1)*2")
        ws.cell(r, 3, f"=B{r}+A{r}/3")
    src = tmp_path / "many.xlsx"
    wb.save(src)
    compiled = []
    real = executor.compile_formula
    monkeypatch.setattr(executor, "compile_formula",
                        lambda *a, **k: compiled.append(a) or real(*a, **k))
    res = calc_workbook(src, tmp_path / "o.xlsx", FAKE)
    assert len(res) == 600
    assert res["Sheet!B7"] == 14.0 and res["Sheet!C9"] == 18 + 3
    assert len(compiled) <= 4  # row 1 (A1 = $A$1 there) compiles on its own


_SHEET = ('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
          '<sheetData>{}</sheetData></worksheet>')


@pytest.mark.parametrize("rows, plain", [
    ('<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>A1*2</f><v/></c></row>'
     '<row r="2" spans="1:3"><c r="B2" t="str"><f>"x"</f><v>x</v></c>'
     '<c r="C2" s="1"><f>B1+1</f></c></row>', True),
    # a row's start tag with a space at its end: write_values writes it without
    ('<row r="1" ><c r="A1"><v>2</v></c><c r="B1"><f>A1*2</f><v/></c></row>', False),
    # rows out of order, a cell twice, cells out of column order
    ('<row r="2"><c r="B2"><f>1+1</f></c></row><row r="1"><c r="B1"><f>2</f></c></row>',
     False),
    ('<row r="1"><c r="B1"><f>1</f></c><c r="B1"><f>2</f></c></row>', False),
    ('<row r="1"><c r="C1"><f>1</f></c><c r="B1"><f>2</f></c></row>', False),
])
def test_values_set_in_place_as_write_values_reads_them(rows, plain):
    """write_values with the layout read_cells found (the cells set where they are) gives
    the part write_values gives reading it again, byte for byte; where the part is laid
    out otherwise (layout.plain False) it reads it again."""
    from addin.ooxml import xlsx_values as xv

    xml = _SHEET.format(rows)
    layout = xv.Layout()
    cells = xv.read_cells(xml, layout)
    assert layout.plain is plain
    formulas = [(c.row, c.col) for c in cells if c.f is not None]
    assert sorted(layout.cells) == sorted(set(formulas))
    for ups in ({p: (None, "5") for p in formulas},
                {formulas[0]: ("str", "a &amp; b ")},
                {formulas[0]: ("e", "#N/A"), (9, 2): (None, "1")}):  # a new row too
        assert xv.write_values(xml, ups, layout) == xv.write_values(xml, ups)
    got = xv.write_values(xml, {formulas[0]: (None, "5")}, layout)
    assert got.count("<v>5</v>") == 1
