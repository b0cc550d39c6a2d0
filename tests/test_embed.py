"""napkin's xlwings Lite code inside a workbook (``napkin embed``, the template), and the
calcId of every file napkin writes.

The form of the parts is the one in workbooks that xlwings Lite saved itself (the six
Lite workbooks of github.com/amararun/xlwings-lite-apps-codes-docs at commit f90d89d, e.g.
``web-scraper/INTELISCAPE_X_DYNAMIC_WEB_SCRAPER_v2_1125.xlsx``; docs/lite-format.md):
element names and namespaces, the store reference of the Lite add-in, the relationship
and content types, and the value encoding, checked here against a value copied from one
of them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import openpyxl
import pytest
from xml_support import attributes, part

from addin.ooxml.package import EXCEL_CALC_ID
from addin.routes import embed as em
from addin.routes.lite import main_py, requirements_txt

# reads or writes workbook XML: .ci/run runs it again with openpyxl's lxml off
pytestmark = pytest.mark.xml

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "workbook" / "napkin.xlsx"
WE = "{http://schemas.microsoft.com/office/webextensions/webextension/2010/11}"
WETP = "{http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"

# requirements.txt as xlwings Lite stored it in web-scraper/INTELISCAPE_X_DYNAMIC_WEB_
# SCRAPER_v2_1125.xlsx (xl/webextensions/webextension1.xml), the attribute's raw text.
LITE_SAVED_REQUIREMENTS = (
    "&quot;xlwings==0.33.11  # required\\npython-dotenv==1.0.1  # required\\npyodide-http  "
    "# required\\nblack  # required\\npandas\\nmatplotlib\\nseaborn\\nrequests\\n&quot;")


def napkin(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "addin.cli", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=600)


@pytest.fixture
def plain(tmp_path) -> Path:
    """A small workbook with a napkin formula and a native one (openpyxl: a test input)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    ws["A1"], ws["A2"], ws["A3"] = 989, "=RIDGE(A1,3.35)", "=A1*2"
    path = tmp_path / "plain.xlsx"
    wb.save(path)
    return path


def parts(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


# --- the value encoding ----------------------------------------------------------------

def test_value_encoding_matches_lite():
    text = em.decode_value(LITE_SAVED_REQUIREMENTS)
    assert text.startswith("xlwings==0.33.11  # required\npython-dotenv")
    assert em.encode_value(text) == LITE_SAVED_REQUIREMENTS
    # "/" is written "\/" (Lite's JSON), non-ASCII kept, XML specials escaped
    assert em.encode_value('a/b "c" <d> & é') == \
        '&quot;a\\/b \\&quot;c\\&quot; &lt;d&gt; &amp; é&quot;'
    for s in ("", "x\ty\r\n", "\"\"\"doc\"\"\"", "€ → 📊", "\\n not a newline"):
        assert em.decode_value(em.encode_value(s)) == s


# --- the template carries the code ----------------------------------------------------

def check_structure(path: Path) -> ET.Element:
    """The web-extension parts of ``path`` have the form of a Lite-saved workbook."""
    p = parts(path)
    we_parts = [n for n in p if re.fullmatch(r"xl/webextensions/webextension\d+\.xml", n)]
    assert len(we_parts) == 1
    we = ET.fromstring(p[we_parts[0]])
    assert we.tag == f"{WE}webextension" and re.fullmatch(r"\{[0-9A-F-]{36}\}", we.get("id"))
    ref = we.find(f"{WE}reference")
    assert ref.attrib == {"id": "wa200008175", "version": "1.0.0.0", "store": "en-US",
                          "storeType": "OMEX"}
    alt = we.find(f"{WE}alternateReferences/{WE}reference")
    assert alt.attrib == {"id": "WA200008175", "version": "1.0.0.0", "store": "WA200008175",
                          "storeType": "OMEX"}
    assert [c.tag for c in we] == [f"{WE}{t}" for t in (
        "reference", "alternateReferences", "properties", "bindings", "snapshot", "extLst")]
    assert we.find(f"{WE}extLst").find(".//{*}containsCustomFunctions") is not None
    panes = ET.fromstring(p["xl/webextensions/taskpanes.xml"])
    assert panes.tag == f"{WETP}taskpanes"
    pane = panes.find(f"{WETP}taskpane")
    assert pane.get("dockstate") == "right" and pane.get("visibility") == "1"
    rid = pane.find(f"{WETP}webextensionref").get(f"{R}id")
    rels = p["xl/webextensions/_rels/taskpanes.xml.rels"].decode()
    assert re.search(rf'Id="{rid}" Type="http://schemas.microsoft.com/office/2011/'
                     rf'relationships/webextension" Target="{we_parts[0].rsplit("/")[-1]}"',
                     rels)
    assert re.search(r'Type="http://schemas.microsoft.com/office/2011/relationships/'
                     r'webextensiontaskpanes" Target="xl/webextensions/taskpanes.xml"',
                     p["_rels/.rels"].decode())
    ct = p["[Content_Types].xml"].decode()
    assert (f'<Override PartName="/{we_parts[0]}" '
            'ContentType="application/vnd.ms-office.webextension+xml"/>') in ct
    assert ('<Override PartName="/xl/webextensions/taskpanes.xml" '
            'ContentType="application/vnd.ms-office.webextensiontaskpanes+xml"/>') in ct
    for n in (we_parts[0], "xl/webextensions/taskpanes.xml"):
        assert p[n].startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n')
    return we


def test_template_carries_napkins_lite_code():
    we = check_structure(TEMPLATE)
    names = [p.get("name") for p in we.iter(f"{WE}property")]
    assert names == ["main.py", "requirements.txt"]
    files = em.embedded_files(TEMPLATE)
    assert files["main.py"] == main_py()  # exactly what `napkin lite` writes
    assert files["requirements.txt"] == requirements_txt()
    # the packages Lite marks "# required" in the workbook it saved, listed without the
    # comment (micropip parses no comment: tests/test_lite.py)
    reqs = files["requirements.txt"].splitlines()
    lite_required = [line.split("==")[0].split()[0]
                     for line in em.decode_value(LITE_SAVED_REQUIREMENTS).splitlines()
                     if line.endswith("  # required")]
    assert lite_required == ["xlwings", "python-dotenv", "pyodide-http", "black"]
    names = [re.match(r"[A-Za-z0-9_.-]+", r).group(0) for r in reqs]
    assert names[:4] == lite_required and reqs[0].startswith("xlwings>=")
    assert not any("#" in r for r in reqs)


def test_start_sheet_names_the_napkin_version_inside():
    from addin.routes.lite import napkin_version

    ws = openpyxl.load_workbook(TEMPLATE)["Start"]
    text = " ".join(str(c.value) for row in ws.iter_rows() for c in row if c.value)
    assert napkin_version()[0].isdigit()
    assert f"napkin {napkin_version()}'s code" in text
    assert f"from napkin {napkin_version()} (udfs" in em.embedded_files(TEMPLATE)["main.py"]
    assert "#NAME?" in text and "napkin freeze" in text


def test_template_ships_computed():
    with zipfile.ZipFile(TEMPLATE) as z:
        wb = z.read("xl/workbook.xml").decode()
        assert f'calcId="{EXCEL_CALC_ID}"' in wb and "fullCalcOnLoad" not in wb
        sheets = [n for n in z.namelist() if n.startswith("xl/worksheets/sheet")]
        formulas = missing = 0
        for n in sheets:
            xml = z.read(n).decode()
            for c in re.finditer(r"<c\b([^>]*?)(?<!/)>(.*?)</c>", xml):
                if "<f" in c.group(2):
                    formulas += 1
                    has_v = re.search(r"<v>[^<]+</v>", c.group(2))
                    text_empty = 't="str"' in c.group(1)  # a formula giving "" (text)
                    missing += not (has_v or text_empty)
    assert formulas > 500 and missing == 0


# --- napkin embed ---------------------------------------------------------------------

def test_embed_is_lossless_and_stores_the_code(plain, tmp_path):
    out = tmp_path / "out.xlsx"
    r = napkin("embed", str(plain), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "added" in r.stdout
    check_structure(out)
    before, after = parts(plain), parts(out)
    changed = {n for n in before if before[n] != after.get(n)}
    assert changed == {"[Content_Types].xml", "_rels/.rels", "xl/workbook.xml",
                       "xl/worksheets/sheet1.xml"}
    # the sheet: only the napkin call, in the form Excel stores a Lite function's
    sheet = "xl/worksheets/sheet1.xml"
    assert after[sheet] == before[sheet].replace(b"<f>RIDGE(", b"<f>_xldudf_RIDGE(")
    assert after[sheet].count(b"_xldudf_") == 1
    # the workbook part: only the calcId changes
    assert re.sub(r' calcId="\d+"', "", after["xl/workbook.xml"].decode()) == \
        re.sub(r' calcId="\d+"', "", before["xl/workbook.xml"].decode())
    assert set(after) - set(before) == {"xl/webextensions/webextension1.xml",
                                        "xl/webextensions/taskpanes.xml",
                                        "xl/webextensions/_rels/taskpanes.xml.rels"}
    assert em.embedded_files(out)["main.py"] == main_py()
    assert list(zipfile.ZipFile(out).namelist())[:len(before)] == list(before)  # order kept


def test_embed_again_updates_in_place_and_keeps_a_backup(plain, tmp_path):
    a = tmp_path / "a.xlsx"
    shutil.copy(plain, a)
    assert napkin("embed", str(a), "--in-place").returncode == 0
    assert (tmp_path / "a.xlsx.bak").read_bytes() == plain.read_bytes()
    first = parts(a)
    r = napkin("embed", str(a), "--in-place")
    assert r.returncode == 0 and "updated" in r.stdout
    assert parts(a) == first  # same napkin: same parts


def _with_lite_code(src: Path, dst: Path, code: str, extra: dict[str, str]) -> None:
    """``src`` with a Lite web extension carrying ``code`` and more properties, as an
    older napkin or another author's Lite workbook would have it."""
    em.embed(src, dst)
    with zipfile.ZipFile(dst) as z:
        xml = z.read("xl/webextensions/webextension1.xml").decode()
    xml = em._set_properties(xml, {"main.py": code, **extra})
    data = parts(dst)
    data["xl/webextensions/webextension1.xml"] = xml.encode()
    with zipfile.ZipFile(dst, "w") as z:
        for n, b in data.items():
            z.writestr(n, b)


def test_embed_refuses_foreign_lite_code_unless_asked(plain, tmp_path):
    foreign = tmp_path / "foreign.xlsx"
    _with_lite_code(plain, foreign, "import xlwings as xw\n# someone's own code\n",
                    {"pyodideVersion": "0.27.5"})
    before = foreign.read_bytes()
    out = tmp_path / "out.xlsx"
    r = napkin("embed", str(foreign), "-o", str(out))
    assert r.returncode == 1 and not out.exists()
    assert "not napkin's" in r.stderr and "--replace" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    r = napkin("embed", str(foreign), "-o", str(out), "--replace")
    assert r.returncode == 0 and "replaced" in r.stdout
    files = em.embedded_files(out)
    assert files["main.py"] == main_py() and files["pyodideVersion"] == "0.27.5"
    assert foreign.read_bytes() == before


def test_embed_updates_an_older_napkin(plain, tmp_path):
    old = tmp_path / "old.xlsx"
    older = main_py().replace("Generated by `napkin lite` from napkin",
                              "Generated by `napkin lite` from napkin 0.0.1 (was")
    _with_lite_code(plain, old, older, {})
    out = tmp_path / "out.xlsx"
    r = napkin("embed", str(old), "-o", str(out))
    assert r.returncode == 0 and "updated" in r.stdout
    assert em.embedded_files(out)["main.py"] == main_py()
    assert len(em.lite_parts(zipfile.ZipFile(out))) == 1


def test_embedded_code_imports_against_a_recording_xlwings(tmp_path):
    """main.py read back out of the template declares every catalog function."""
    import udfs

    code = em.embedded_files(TEMPLATE)["main.py"]
    (tmp_path / "main.py").write_text(code, encoding="utf-8")
    standin = ROOT / "tests" / "pyodide" / "xlwings_standin"
    prog = (f"import sys; sys.path[:0] = [{str(tmp_path)!r}, {str(standin)!r}]\n"
            "import main, xlwings\n"
            "print(sorted(n for (m, n), e in xlwings.REGISTRY.items() if m == 'main' "
            "and e['func'].get('declared')))\n"
            "print(xlwings.call_udf(main.RIDGE, [989, 3.35, "
            "{'type': 'Error', 'basicValue': '#N/A'}]))\n"
            "print(xlwings.call_udf(main.RIDGE, [989, 3.35, None]))\n")
    r = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True,
                       cwd=tmp_path, timeout=300, env={"TMPDIR": str(tmp_path),
                                                       "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    declared, na, ridge = r.stdout.splitlines()
    assert declared == str(sorted(udfs.CATALOG))
    assert na == "#N/A"
    assert float(ridge) == pytest.approx(989 / 3.35)  # 295.22 FLOP/byte (H100 SXM)


# --- calcId: no file napkin writes asks Excel to recalculate on open -------------------

def _calc_pr(path) -> dict[str, str]:
    """The attributes of the workbook's ``<calcPr>``, as parsed."""
    return attributes(part(path, "xl/workbook.xml"), "calcPr")


def test_every_written_file_says_current_excel_calculated_it(plain, tmp_path):
    assert _calc_pr(plain)["calcId"] == "124519"  # openpyxl writes Excel 2007's id
    outs = {}
    for cmd in ("calc", "freeze"):
        outs[cmd] = tmp_path / f"{cmd}.xlsx"
        r = napkin(cmd, str(plain), "-o", str(outs[cmd]))
        assert r.returncode == 0, r.stderr
    # embed computes nothing: it keeps the source's fullCalcOnLoad (openpyxl's files ask
    # for a full calculation, having no values), and raises only the calcId
    r = napkin("embed", str(outs["calc"]), "-o", str(tmp_path / "embed.xlsx"))
    assert r.returncode == 0, r.stderr
    outs["embed"] = tmp_path / "embed.xlsx"
    r = napkin("embed", str(plain), "-o", str(tmp_path / "embed-plain.xlsx"))
    assert _calc_pr(tmp_path / "embed-plain.xlsx") == \
        {"calcId": str(EXCEL_CALC_ID), "fullCalcOnLoad": "1"}
    r = napkin("unfreeze", str(outs["freeze"]), "-o", str(tmp_path / "unfreeze.xlsx"))
    assert r.returncode == 0, r.stderr
    outs["unfreeze"] = tmp_path / "unfreeze.xlsx"
    outs["template"] = TEMPLATE
    for cmd, path in outs.items():
        assert _calc_pr(path) == {"calcId": str(EXCEL_CALC_ID)}, cmd


def test_stamp_calc_id_keeps_everything_else():
    from addin.ooxml.package import stamp_calc_id

    assert stamp_calc_id('<workbook><sheets><sheet/></sheets><calcPr calcId="124519" '
                         'fullCalcOnLoad="1"/></workbook>') == \
        '<workbook><sheets><sheet/></sheets><calcPr calcId="191029" fullCalcOnLoad="1"/>' \
        '</workbook>'
    assert stamp_calc_id('<workbook><sheets><sheet/></sheets><definedNames><d/>'
                         '</definedNames></workbook>') == \
        '<workbook><sheets><sheet/></sheets><definedNames><d/></definedNames>' \
        '<calcPr calcId="191029"/></workbook>'
    newer = '<x:workbook><x:calcPr calcId="999999" iterate="1"/></x:workbook>'
    assert stamp_calc_id(newer) == newer


def test_libreoffice_opens_an_embedded_workbook(plain, tmp_path):
    soffice = shutil.which("soffice")
    if soffice is None:
        pytest.skip("LibreOffice is not installed")
    out = tmp_path / "embedded.xlsx"
    em.embed(plain, out)
    r = subprocess.run([soffice, f"-env:UserInstallation=file://{tmp_path}/lo", "--headless",
                        "--convert-to", "csv", "--outdir", str(tmp_path / "csv"), str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rows = (tmp_path / "csv" / "embedded.csv").read_text().split()
    assert rows[0] == "989" and rows[2] == "1978"  # the native formula A1*2


def test_embed_beside_another_add_in(plain, tmp_path):
    """A workbook that already shows another add-in's task pane keeps it; Lite's pane is
    added beside it (a second web extension, taskpane and relationship)."""
    other = tmp_path / "other.xlsx"
    em.embed(plain, other)
    data = parts(other)
    data["xl/webextensions/webextension1.xml"] = data["xl/webextensions/webextension1.xml"] \
        .replace(b'id="wa200008175"', b'id="wa104380646"') \
        .replace(b'id="WA200008175"', b'id="WA104380646"')
    with zipfile.ZipFile(other, "w") as z:
        for n, b in data.items():
            z.writestr(n, b)
    out = tmp_path / "out.xlsx"
    assert em.embed(other, out) == "added"
    p = parts(out)
    assert p["xl/webextensions/webextension1.xml"] == data["xl/webextensions/webextension1.xml"]
    panes = ET.fromstring(p["xl/webextensions/taskpanes.xml"]).findall(f"{WETP}taskpane")
    assert len(panes) == 2
    rels = p["xl/webextensions/_rels/taskpanes.xml.rels"].decode()
    assert 'Id="rId2"' in rels and 'Target="webextension2.xml"' in rels
    assert em.embedded_files(out)["main.py"] == main_py()
    assert p["_rels/.rels"].count(b"webextensiontaskpanes") == 1
