"""Every part napkin writes is well-formed and namespace-correct, whoever wrote the input.

Inputs with napkin's functions as five writers save them: openpyxl with lxml and without
(each in a process of its own: openpyxl reads ``OPENPYXL_LXML`` once, at its first
import), XlsxWriter, LibreOffice (a conversion by ``soffice``), and Excel (a workbook of
``tests/corpus`` that Excel saved, napkin's cells added in Excel's own form); and a sixth
whose every element is prefixed (``<ns0:workbook>``, as the Open XML SDK writes ``x:``).
Each goes through every command that writes a workbook (calc, freeze, unfreeze, native,
embed); every XML part of each output that is not the input's own bytes is parsed with a
namespace-aware parser (an unbound prefix is an error there), and the package's
references are followed: each sheet's ``r:id`` in the relationships namespace names a
relationship whose part is in the zip, each content-type override names a part that is.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as StdET
import zipfile
from pathlib import Path

import pytest
from defusedxml import ElementTree as ET
from fidelity import cached_values
from xml_support import local
from xml_writers import OFFSET, openpyxl_book, with_napkin_cells, xlsxwriter_book

from addin.cli import main as napkin
from addin.ooxml.edit import REL_NS
from addin.ooxml.reader import rels_path, resolve_target
from workbook.xml_form import is_xml_part as is_xml

# reads or writes workbook XML: .ci/run runs it again with openpyxl's lxml off
pytestmark = pytest.mark.xml

TESTS = Path(__file__).parent
ROOT = TESTS.parent
PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
#: an Excel-saved workbook of the corpus (Excel 16, with a calcChain) that strict mode takes
EXCEL_SAVED = TESTS / "corpus" / "calamine" / "issue446.xlsx"

WRITERS = ["openpyxl", "openpyxl-lxml", "xlsxwriter", "libreoffice", "excel", "prefixed"]


def _openpyxl_in_a_process(out: Path, lxml: bool) -> Path:
    env = {**os.environ, "OPENPYXL_LXML": "True" if lxml else "False"}
    subprocess.run([sys.executable, str(TESTS / "xml_writers.py"), "openpyxl", str(out)],
                   env=env, check=True, cwd=ROOT)
    return out


def _prefixed(src: Path, out: Path) -> Path:
    """``src`` with every XML part written with a prefix on every element (ElementTree's
    ``ns0:``...), the default namespace nowhere."""
    with zipfile.ZipFile(src) as zf, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in zf.infolist():
            data = zf.read(info)
            if is_xml(info.filename):
                data = StdET.tostring(ET.fromstring(data), encoding="utf-8")
            z.writestr(info, data)
    return out


@pytest.fixture(scope="module", params=WRITERS)
def written(request, tmp_path_factory) -> tuple[str, Path]:
    kind = request.param
    d = tmp_path_factory.mktemp(kind)
    src = d / f"{kind}.xlsx"
    if kind == "openpyxl":
        _openpyxl_in_a_process(src, lxml=False)
    elif kind == "openpyxl-lxml":
        pytest.importorskip("lxml", reason="lxml is not installed (the test extra has it)")
        _openpyxl_in_a_process(src, lxml=True)
    elif kind == "xlsxwriter":
        pytest.importorskip("xlsxwriter", reason="XlsxWriter is not installed (test extra)")
        xlsxwriter_book(src)
    elif kind == "libreoffice":
        soffice = shutil.which("soffice")
        if soffice is None:
            pytest.skip("LibreOffice is not installed")
        plain = openpyxl_book(d / "plain.xlsx")
        subprocess.run([soffice, f"-env:UserInstallation=file://{d}/lo", "--headless",
                        "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir",
                        str(d / "lo"), str(plain)], check=True, capture_output=True,
                       timeout=300)
        shutil.move(d / "lo" / "plain.xlsx", src)
    elif kind == "excel":
        with_napkin_cells(EXCEL_SAVED, src)
    else:
        _prefixed(openpyxl_book(d / "plain.xlsx"), src)
    return kind, src


def _outputs(src: Path) -> dict[str, Path]:
    """{command: the workbook it wrote} for every command that writes one."""
    d = src.parent / "out"
    d.mkdir(exist_ok=True)
    out = {c: d / f"{c}.xlsx" for c in ("calc", "freeze", "unfreeze", "native", "embed")}
    for command, source in (("calc", src), ("freeze", src), ("unfreeze", out["freeze"]),
                            ("native", src), ("embed", src)):
        code = napkin([command, str(source), "-o", str(out[command])])
        assert code == 0, f"napkin {command} of {src.name} exited {code}"
    return out


def _parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def namespace_problems(path: Path, before: dict[str, bytes]) -> list[str]:
    """What is wrong with the package at ``path``: XML parts napkin wrote (not ``before``'s
    bytes) that a namespace-aware parser refuses, sheets whose ``r:id`` is not in the
    relationships namespace or names no part, overrides of parts that are not there."""
    parts = _parts(path)
    problems, trees = [], {}
    for name, data in parts.items():
        if not is_xml(name):
            continue
        try:
            trees[name] = ET.fromstring(data, forbid_dtd=True)
        except StdET.ParseError as e:
            if before.get(name) != data:  # a part napkin wrote (or changed)
                problems.append(f"{name}: {e}")
    for name, root in trees.items():
        if local(root.tag) != "workbook":
            continue
        rels_name = rels_path(name)
        rels = {r.get("Id"): r for r in trees[rels_name].iter(f"{{{PKG_REL_NS}}}Relationship")}
        for sheet in root.iter():
            if local(sheet.tag) != "sheet":
                continue
            rid = sheet.get(f"{{{REL_NS}}}id")
            if rid is None:
                problems.append(f"{name}: sheet {sheet.get('name')!r} has no r:id in the "
                                f"relationships namespace ({sheet.attrib})")
            elif rid not in rels:
                problems.append(f"{name}: sheet {sheet.get('name')!r}: no relationship {rid}")
            elif resolve_target(name, rels[rid].get("Target")) not in parts:
                problems.append(f"{name}: sheet {sheet.get('name')!r}: no part "
                                f"{rels[rid].get('Target')}")
    types = trees.get("[Content_Types].xml")
    for override in types.iter(f"{{{CT_NS}}}Override") if types is not None else ():
        if override.get("PartName", "").lstrip("/") not in parts:
            problems.append(f"[Content_Types].xml: an override of a missing part "
                            f"{override.get('PartName')}")
    return problems


def test_every_part_each_command_writes_parses_namespace_correctly(written):
    kind, src = written
    before = _parts(src)
    assert namespace_problems(src, {}) == [], f"the {kind} input itself"
    for command, out in _outputs(src).items():
        assert namespace_problems(out, before) == [], f"napkin {command} of the {kind} input"


def test_every_command_computes_the_inputs_of_every_writer(written):
    kind, src = written
    outs = _outputs(src)
    for command in ("calc", "native"):
        values = {(s, r, c): v for (s, r, c), v in cached_values(outs[command]).items()}
        row = 2 + OFFSET if kind == "excel" else 2  # Napkin!B2, or B1001 of Excel's sheet
        ridge = next(v for (s, r, c), v in values.items()
                     if (r, c) == (row, 2) and (s == "Napkin" or kind == "excel"))
        # RIDGE(989 TFLOPS, 3.35 TB/s) = 989e12 / 3.35e12 FLOP/byte (hand calculation)
        assert math.isclose(ridge, 989 / 3.35, rel_tol=1e-12), (kind, command, ridge)


def test_the_committed_workbooks_parse_namespace_correctly():
    for name in ("napkin.xlsx", "napkin-native.xlsx"):
        assert namespace_problems(ROOT / "workbook" / name, {}) == [], name


# --------------------------------------------------------------------------- the edits


def _sheet_rids(xml: str) -> dict[str, str]:
    root = ET.fromstring(xml)
    return {s.get("name"): s.get(f"{{{REL_NS}}}id") for s in root.iter() if local(s.tag) == "sheet"}


MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


@pytest.mark.parametrize("workbook", [
    # Excel, openpyxl without lxml: r declared on the root
    f'<workbook xmlns="{MAIN}" xmlns:r="{REL_NS}"><sheets><sheet name="A" sheetId="1" '
    'r:id="rId1"/></sheets></workbook>',
    # openpyxl with lxml: r declared on each <sheet>, out of scope after it
    f'<workbook xmlns="{MAIN}"><sheets><sheet xmlns:r="{REL_NS}" name="A" sheetId="1" '
    'r:id="rId1"/></sheets></workbook>',
    # every element prefixed, the relationships namespace under another prefix
    f'<x:workbook xmlns:x="{MAIN}" xmlns:rel="{REL_NS}"><x:sheets><x:sheet name="A" '
    'sheetId="1" rel:id="rId1"/></x:sheets></x:workbook>',
    # r bound to something else on the root: the entry binds its own
    f'<workbook xmlns="{MAIN}" xmlns:r="urn:other"><sheets><sheet name="A" sheetId="1" '
    f'xmlns:q="{REL_NS}" q:id="rId1"/></sheets></workbook>',
])
def test_a_sheet_entry_has_its_relationship_id_in_scope(workbook):
    from addin.ooxml import edit

    out = edit.add_sheet_entry(workbook, 'napkin "tables"', "rIdNapkin")
    assert _sheet_rids(out) == {"A": "rId1", 'napkin "tables"': "rIdNapkin"}
    new = [s for s in ET.fromstring(out).iter() if s.get("name") == 'napkin "tables"'][0]
    assert new.tag == f"{{{MAIN}}}sheet"  # in the main namespace, as its siblings
    assert (new.get("sheetId"), new.get("state")) == ("2", "hidden")


@pytest.mark.parametrize("rels", [
    f'<Relationships xmlns="{PKG_REL_NS}"><Relationship Id="rId1" Type="t" Target="a.xml"/>'
    "</Relationships>",
    f'<Relationships xmlns="{PKG_REL_NS}"/>',
    f'<pr:Relationships xmlns:pr="{PKG_REL_NS}"><pr:Relationship Id="rId1" Type="t" '
    'Target="a.xml"/></pr:Relationships>',
])
def test_a_relationship_is_added_and_removed_in_the_parts_own_prefix(rels):
    from addin.ooxml import edit

    rid = edit.free_rel_id(rels)
    out = edit.add_relationship(rels, rid, "urn:type", "worksheets/sheet9.xml")
    found = {r.get("Id"): r.get("Target")
             for r in ET.fromstring(out).iter(f"{{{PKG_REL_NS}}}Relationship")}
    assert found[rid] == "worksheets/sheet9.xml"
    assert rid == ("rId2" if "rId1" in rels else "rId1")
    back = edit.remove_relationships(out, "sheet9.xml")
    assert canonical_equal(back, rels)
    assert canonical_equal(edit.remove_relationship_id(out, rid), rels)


def test_a_content_type_override_is_added_once_and_removed():
    from addin.ooxml import edit

    types = (f'<Types xmlns="{CT_NS}"><Default Extension="xml" '
             'ContentType="application/xml"/></Types>')
    out = edit.add_override(types, "xl/worksheets/sheet9.xml", "urn:ct")
    assert edit.add_override(out, "xl/worksheets/sheet9.xml", "urn:ct") == out
    over = [o.attrib for o in ET.fromstring(out).iter(f"{{{CT_NS}}}Override")]
    assert over == [{"PartName": "/xl/worksheets/sheet9.xml", "ContentType": "urn:ct"}]
    assert canonical_equal(edit.remove_override(out, "xl/worksheets/sheet9.xml"), types)


def canonical_equal(a: str, b: str) -> bool:
    from xml_support import canonical

    return canonical(a) == canonical(b)


# --------------------------------------------------------------------------- the template


def _template_in_a_process(out: Path, lxml: bool) -> bytes:
    env = {**os.environ, "OPENPYXL_LXML": "True" if lxml else "False"}
    code = ("import sys; from workbook.build import build_template; "
            "from addin.routes.embed import fix_dates; fix_dates(build_template(sys.argv[1]))")
    subprocess.run([sys.executable, "-c", code, str(out)], env=env, check=True, cwd=ROOT)
    return out.read_bytes()


def test_the_template_is_the_same_bytes_with_lxml_and_without(tmp_path):
    """openpyxl writes other bytes with lxml; workbook.xml_form gives every part one form,
    so the built template (fixed dates) is the same file either way."""
    pytest.importorskip("lxml", reason="lxml is not installed (the test extra has it)")
    with_lxml = _template_in_a_process(tmp_path / "lxml.xlsx", lxml=True)
    without = _template_in_a_process(tmp_path / "etree.xlsx", lxml=False)
    assert with_lxml == without


def test_the_one_form_keeps_the_document():
    """workbook.xml_form.canonical_part changes bytes, not the document: the two forms
    openpyxl writes of one part become the same bytes, and the same parsed XML as before."""
    from xml_support import canonical

    from workbook.xml_form import DECLARATION, canonical_part

    etree_form = (f'<workbook xmlns:r="{REL_NS}" xmlns="{MAIN}"><workbookPr /><sheets>'
                  '<sheet name="A &amp; B" sheetId="1" r:id="rId1" /></sheets>'
                  '<definedNames><definedName name="X">\'A &amp; B\'!$A$1</definedName>'
                  "</definedNames></workbook>")
    lxml_form = (f'<workbook xmlns="{MAIN}"><workbookPr/><sheets><sheet xmlns:r="{REL_NS}" '
                 'name="A &amp; B" sheetId="1" r:id="rId1"/></sheets><definedNames>'
                 "<definedName name=\"X\">'A &amp; B'!$A$1</definedName></definedNames>"
                 "</workbook>")
    one = canonical_part(etree_form.encode())
    assert one == canonical_part(lxml_form.encode())
    assert one.startswith(DECLARATION)
    assert canonical(one) == canonical(etree_form) == canonical(lxml_form)
    assert b'<workbook xmlns="' + MAIN.encode() + b'" xmlns:r="' in one  # all on the root
    assert b"<workbookPr/>" in one
