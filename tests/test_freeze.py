"""napkin freeze / unfreeze: a recipient without the add-in sees numbers;
native formulas still recalculate; unfreeze gives back every formula exactly."""

import shutil
import subprocess
import sys
import zipfile

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference
from openpyxl.worksheet.formula import ArrayFormula
from xlsx_make import add_shared_ridge

from addin.ooxml.guard import WorkbookError
from addin.transform.freeze import PART, freeze, unfreeze
from workbook.build import TABLE_SHEETS

# reads or writes workbook XML: .ci/run runs it again with openpyxl's lxml off
pytestmark = pytest.mark.xml


def napkin(*args):
    return subprocess.run([sys.executable, "-m", "addin.cli", *map(str, args)],
                          capture_output=True, text=True, check=True)


@pytest.fixture
def book(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sizing"
    ws.append(["peak", "bandwidth", "ridge", "ridge x2", "label"])
    for r, (p, b) in enumerate([(989, 3.35), (1979, 3.35), (2250, 8)], start=2):
        ws.append([p, b, f"=RIDGE(A{r},B{r})", f"=C{r}*2", f'=IF(C{r}>300,"high","low")'])
    ws["G1"] = ArrayFormula("G1:G3", "=RIDGE(A2:A4,B2:B4)")
    ws["H1"] = '=rIdGe(989, 3.35) + LEN("RIDGE(")'  # any case; text inside quotes ignored
    ws["H2"] = '="WEIGHT_GB(" & 1'  # our name only inside a string: native, stays
    chart = BarChart()
    chart.add_data(Reference(ws, min_col=3, min_row=1, max_row=4), titles_from_data=True)
    ws.add_chart(chart, "J2")
    src = tmp_path / "book.xlsx"
    wb.save(src)
    # an Excel-style shared formula group calling ours: D2 holds the text, D3:D4 share it
    add_shared_ridge(src, "F", "E")
    return src


def test_freeze_replaces_our_formulas_by_values_and_keeps_native_ones(book, tmp_path):
    frozen = tmp_path / "frozen.xlsx"
    n = freeze(book, frozen)
    # C2:C4, G1 (array), H1, F2:F4 (shared group) call ours: 3 + 1 + 1 + 3
    assert n == 8
    wf = openpyxl.load_workbook(frozen)["Sizing"]
    assert wf["C2"].value == pytest.approx(989 / 3.35)  # a constant now
    assert wf["F3"].value == pytest.approx(1979 * 0.8 / 3.35)  # shared group member
    assert wf["D2"].value == "=C2*2"  # native formulas untouched
    assert wf["E2"].value == '=IF(C2>300,"high","low")'
    assert wf["H2"].value == '="WEIGHT_GB(" & 1'
    assert len(wf._charts) == 1
    with zipfile.ZipFile(frozen) as z:
        assert PART in z.namelist()
        assert "RIDGE" not in z.read("xl/worksheets/sheet1.xml").decode().split("<sheetData")[1]


def test_unfreeze_restores_every_formula_exactly(book, tmp_path):
    computed, frozen, thawed = (tmp_path / n for n in ("c.xlsx", "f.xlsx", "t.xlsx"))
    napkin("calc", book, "-o", computed)
    napkin("freeze", book, "-o", frozen)
    napkin("unfreeze", frozen, "-o", thawed)
    with zipfile.ZipFile(computed) as a, zipfile.ZipFile(thawed) as b:
        assert sorted(a.namelist()) == sorted(b.namelist())
        for name in a.namelist():
            assert a.read(name) == b.read(name), name


def test_unfreeze_needs_a_frozen_workbook(book, tmp_path):
    with pytest.raises(WorkbookError, match="no formulas frozen"):
        unfreeze(book, tmp_path / "t.xlsx")


def test_freeze_keeps_the_source(book, tmp_path):
    before = book.read_bytes()
    freeze(book, tmp_path / "f.xlsx")
    assert book.read_bytes() == before


@pytest.mark.skipif(not shutil.which("soffice"), reason="LibreOffice not installed")
def test_a_recipient_without_the_addin_sees_the_numbers(book, tmp_path):
    frozen = tmp_path / "frozen.xlsx"
    freeze(book, frozen)
    subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path}/lo", "--headless",
                    "--convert-to", "csv", "--outdir", str(tmp_path), str(frozen)],
                   check=True, capture_output=True, timeout=120)
    rows = (tmp_path / "frozen.csv").read_text().splitlines()
    # LibreOffice recalculates on load: our (now constant) cells stay, native ones compute
    assert rows[1].split(",")[2:5] == ["295.223880597015", "590.44776119403", "low"]
    assert "#NAME" not in "".join(rows)


def test_in_place_keeps_a_backup(book, tmp_path):
    original = book.read_bytes()
    napkin("freeze", book, "--in-place")
    assert book.with_name("book.xlsx.bak").read_bytes() == original
    assert openpyxl.load_workbook(book)["Sizing"]["C2"].value == pytest.approx(989 / 3.35)
    napkin("calc", book.with_name("book.xlsx.bak"), "--in-place")
    assert book.with_name("book.xlsx.bak.bak").read_bytes() == original


# --- the template, frozen: its Start sheet says so, its inputs are no longer inputs ------

UNO_PYTHON = "/usr/bin/python3"


def _has_uno() -> bool:
    return shutil.which("soffice") is not None and subprocess.run(
        [UNO_PYTHON, "-c", "import uno"], capture_output=True).returncode == 0


def _inputs(path) -> dict[str, list[str]]:
    wb = openpyxl.load_workbook(path)
    return {ws.title: [c.coordinate for row in ws.iter_rows() for c in row
                       if c.style == "napkin input"] for ws in wb}


@pytest.fixture(scope="module")
def frozen_template(tmp_path_factory):
    from workbook.build import DEFAULT_PATH

    d = tmp_path_factory.mktemp("frozen")
    src = d / "napkin.xlsx"
    shutil.copy(DEFAULT_PATH, src)
    frozen = d / "napkin-frozen.xlsx"
    napkin("freeze", src, "-o", frozen)
    return src, frozen


def test_frozen_template_says_so_on_its_start_sheet(frozen_template):
    import datetime as dt

    from workbook.start import STATUS_CELL, STATUS_LIVE, STATUS_NAME

    src, frozen = frozen_template
    live = openpyxl.load_workbook(src)
    assert live.defined_names[STATUS_NAME].attr_text == "'Start'!$A$3"
    assert live["Start"][STATUS_CELL].value == STATUS_LIVE
    wb = openpyxl.load_workbook(frozen)
    cell = wb["Start"][STATUS_CELL]
    today = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")
    assert cell.value.startswith(f"Frozen copy, made by napkin freeze on {today} ")
    assert "from napkin.xlsx:" in cell.value and "napkin unfreeze" in cell.value
    assert cell.font.b and cell.fill.fgColor.rgb == "FFFFC7CE"  # red: it stands out
    assert cell.alignment.wrap_text


def test_frozen_template_no_longer_marks_inputs(frozen_template):
    src, frozen = frozen_template
    before = _inputs(src)
    assert sum(map(len, before.values())) > 50  # the template has its inputs
    assert sum(map(len, _inputs(frozen).values())) == 0
    wb, live = openpyxl.load_workbook(frozen), openpyxl.load_workbook(src)
    assert {s for s in TABLE_SHEETS if before.get(s)} == set(TABLE_SHEETS)
    for sheet, cells in before.items():
        ws = wb[sheet]
        # locked cells on a protected sheet refuse typing: freeze protects the tables'
        # sheets too (the template leaves them open for a user to insert rows)
        assert ws.protection.sheet and not ws.protection.password, sheet
        if sheet in TABLE_SHEETS:
            assert not live[sheet].protection.sheet, sheet
        for ref in cells:
            c = ws[ref]
            assert c.style == "napkin formula", (sheet, ref)
            assert c.protection.locked is not False, (sheet, ref)
            assert c.fill.fill_type is None, (sheet, ref)  # no yellow
    # the number formats (units) of the former inputs are kept
    assert wb["Assumptions"]["B5"].number_format == \
        openpyxl.load_workbook(src)["Assumptions"]["B5"].number_format


def test_unfreeze_gives_the_template_back(frozen_template, tmp_path):
    src, frozen = frozen_template
    thawed = tmp_path / "thawed.xlsx"
    napkin("unfreeze", frozen, "-o", thawed)
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(thawed) as b:
        # the template ships computed, so the thawed copy has its parts back byte for byte:
        # every sheet's (the tables' without the protection freeze gave them)
        sheets = [n for n in a.namelist() if n.startswith("xl/worksheets/sheet")]
        assert len(sheets) >= 13
        for name in ("xl/styles.xml", *sheets):
            assert a.read(name) == b.read(name), name
    assert _inputs(thawed) == _inputs(src)


@pytest.mark.skipif(not _has_uno(), reason="LibreOffice with Python UNO not found")
def test_frozen_template_read_in_libreoffice(frozen_template, tmp_path):
    """A reader opens the frozen copy in LibreOffice (no add-in): it recalculates what it
    can, the status line says the copy is frozen, and no napkin cell turns into #NAME?."""
    import json
    from pathlib import Path

    from workbook.build import SIZING

    _src, frozen = frozen_template
    script = Path(__file__).parents[1] / "tools" / "lo_uno.py"
    proc = subprocess.run([UNO_PYTHON, str(script)], input=json.dumps([{"path": str(frozen)}]),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    cells = json.loads(proc.stdout)[0]["cells"]
    kind, text = cells["Start!A3"]
    assert kind == "s" and text.startswith("Frozen copy, made by napkin freeze on ")
    assert not [ref for ref, (k, v) in cells.items() if k == "e" and v == "#NAME?"]
    want = openpyxl.load_workbook(frozen, data_only=True)["Sizing"]
    for key in ("weight_gb", "floor_ms"):
        ref = SIZING[key]
        assert cells[f"Sizing!{ref}"] == ["n", pytest.approx(want[ref].value)], key


def test_freeze_and_native_run_without_xlwings(book, tmp_path):
    """The headless side reaches the catalog through udfs.catalog, never the xlwings
    declarations of ``udfs``: freeze, native and calc import no xlwings (a fresh
    process)."""
    code = ("import sys\n"
            "import addin.engine, addin.transform.freeze, addin.transform.native\n"
            f"addin.engine.calc_workbook({str(book)!r}, {str(tmp_path / 'c.xlsx')!r})\n"
            f"addin.transform.freeze.freeze({str(book)!r}, {str(tmp_path / 'f.xlsx')!r})\n"
            f"addin.transform.native.native({str(book)!r}, {str(tmp_path / 'n.xlsx')!r})\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'xlwings'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
    assert all((tmp_path / f"{name}.xlsx").exists() for name in "cfn")
