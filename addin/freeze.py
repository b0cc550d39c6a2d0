"""``napkin freeze`` / ``napkin unfreeze``: share a workbook with people who lack the add-in.

Freeze computes the workbook (as ``napkin calc``), then removes the ``<f>`` element of
every cell whose formula calls a napkin function, so the cell holds its computed value as
a constant: any spreadsheet program shows it and nothing recomputes it to ``#NAME?``.
Native formulas (``=B3*2``, ``=INDEX(...)``) are left alone and keep recalculating, on top
of the frozen values. Each removed ``<f>`` element is kept verbatim (attributes and all:
shared and array formulas too) in a custom XML part of the package,
``customXml/napkin-frozen.xml``, related from the workbook as custom XML parts are, so
that ``napkin unfreeze`` puts every formula back exactly as it was.

Freeze also drops ``xl/calcChain.xml`` (the cells it lists may no longer hold formulas;
Excel rebuilds it). Everything else is copied unchanged, through :mod:`addin.package`.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import uuid
from html import escape, unescape
from pathlib import Path
from zipfile import ZipFile

from . import guard, package
from . import xlsx_values as xv

PART = "customXml/napkin-frozen.xml"
PROPS = "customXml/napkin-frozen-props.xml"
PART_RELS = "customXml/_rels/napkin-frozen.xml.rels"
NS = "urn:napkin:frozen:1"
CUSTOM_XML_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml"
PROPS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps"
PROPS_TYPE = "application/vnd.openxmlformats-officedocument.customXmlProperties+xml"
REL_ID = "rIdNapkinFrozen"

_STRING = re.compile(r'"(?:[^"]|"")*"')


def _calls_ours(formula: str, names: re.Pattern) -> bool:
    return bool(names.search(_STRING.sub('""', formula)))


def _names_pattern(functions) -> re.Pattern:
    alt = "|".join(sorted((re.escape(n) for n in functions), key=len, reverse=True))
    return re.compile(rf"(?<![\w.])(?:{alt})\s*\(", re.IGNORECASE)


def _cells(xml: str):
    """(cell match, row body offset) for every <c> of the sheetData, with its tags."""
    sd = xv._SHEETDATA_RE.search(xml)
    if not sd or not sd.group("body"):
        return None, None, []
    tags = xv._tags(sd.group("p"))
    body_start = sd.start("body")
    out = []
    for rm, _row in xv._iter_rows(sd.group("body"), tags):
        if not rm.group("body"):
            continue
        row_start = body_start + rm.start("body")
        for cm, _col in xv._iter_row_cells(rm.group("body"), 0, tags):
            out.append((cm, row_start))
    return sd, tags, out


def _freeze_sheet(xml: str, names: re.Pattern) -> tuple[str, list[tuple[str, str]]]:
    """The sheet without the <f> of cells calling ours, and [(cell ref, <f> xml)]."""
    sd, tags, cells = _cells(xml)
    masters = {}  # shared formula si -> its text (children carry an empty <f>)
    for cm, _ in cells:
        fm = tags["f"].search(cm.group("body") or "")
        if fm and xv._attr(fm.group("attrs"), "t") == "shared" and fm.group("text"):
            masters[xv._attr(fm.group("attrs"), "si")] = xv.xml_unescape(fm.group("text"))
    edits, records = [], []
    for cm, row_start in cells:
        body = cm.group("body") or ""
        fm = tags["f"].search(body)
        ref = xv._attr(cm.group("attrs"), "r")
        if not fm or not ref:
            continue
        text = xv.xml_unescape(fm.group("text") or "")
        if not text and xv._attr(fm.group("attrs"), "t") == "shared":
            text = masters.get(xv._attr(fm.group("attrs"), "si"), "")
        if not _calls_ours(text, names):
            continue
        start = row_start + cm.start("body") + fm.start()
        end = row_start + cm.start("body") + fm.end()
        edits.append((start, end))
        records.append((ref, fm.group(0)))
    for start, end in reversed(edits):
        xml = xml[:start] + xml[end:]
    return xml, records


def _record_part(records: list[tuple[str, str, str, str]]) -> bytes:
    rows = "".join(
        f'<cell part="{escape(p)}" sheet="{escape(s)}" ref="{escape(r)}">{escape(f)}</cell>'
        for p, s, r, f in records)
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<napkinFrozen xmlns="{NS}">{rows}</napkinFrozen>').encode()


def _read_records(data: bytes) -> list[tuple[str, str, str, str]]:
    text = data.decode("utf-8")
    return [(unescape(m.group(1)), unescape(m.group(2)), unescape(m.group(3)),
             unescape(m.group(4)))
            for m in re.finditer(r'<cell part="([^"]*)" sheet="([^"]*)" ref="([^"]*)">'
                                 r"(.*?)</cell>", text, re.S)]


def _add_relationship(rels_xml: str) -> str:
    if REL_ID in rels_xml:
        return rels_xml
    rel = f'<Relationship Id="{REL_ID}" Type="{CUSTOM_XML_REL}" Target="../{PART}"/>'
    return rels_xml.replace("</Relationships>", rel + "</Relationships>")


def _drop_relationship(rels_xml: str, pattern: str) -> str:
    return re.sub(rf"<Relationship\b[^>]*{pattern}[^>]*/>", "", rels_xml)


def _content_types(ct: str, add: bool) -> str:
    ct = re.sub(r'<Override PartName="/customXml/napkin-frozen[^"]*"[^>]*/>', "", ct)
    ct = re.sub(r'<Override PartName="/xl/calcChain.xml"[^>]*/>', "", ct)
    if add:
        ct = ct.replace("</Types>",
                        f'<Override PartName="/{PART}" ContentType="application/xml"/>'
                        f'<Override PartName="/{PROPS}" ContentType="{PROPS_TYPE}"/></Types>')
    return ct


def freeze(src, dst, functions=None, *, backup: bool = True) -> int:
    """Compute ``src`` and write ``dst`` with our formulas replaced by their values.
    Returns the number of cells frozen; with none, ``dst`` gets the parts of ``src``
    unchanged (no value recomputed, ``calcChain.xml`` kept)."""
    from udfs import CATALOG

    from .engine import calc_workbook

    src, dst = Path(src), Path(dst)
    names = _names_pattern(functions or CATALOG)
    with tempfile.TemporaryDirectory(dir=dst.parent if dst.parent.exists() else None) as d:
        computed = Path(d) / "computed.xlsx"
        calc_workbook(src, computed, functions, strict=False)  # kept: Excel's values
        with ZipFile(computed) as zf:
            book = xv.read_book(zf)
            replace, records = {}, []
            old = _read_records(zf.read(PART)) if PART in zf.NameToInfo else []
            for sheet in book.sheets:
                xml = zf.read(sheet.path).decode("utf-8")
                new, recs = _freeze_sheet(xml, names)
                if recs:
                    replace[sheet.path] = new.encode("utf-8")
                    records += [(sheet.path, sheet.name, r, f) for r, f in recs]
            rels_path = xv._rels_path(book.workbook_path)
            rels = zf.read(rels_path).decode("utf-8")
            rels = _drop_relationship(_add_relationship(rels), r'Target="[^"]*calcChain.xml"')
            replace[rels_path] = rels.encode("utf-8")
            replace["[Content_Types].xml"] = _content_types(
                zf.read("[Content_Types].xml").decode("utf-8"), add=True).encode("utf-8")
            part = _record_part(old + records)
            item_id = "{" + str(uuid.uuid5(uuid.NAMESPACE_URL, NS + part.decode())).upper() + "}"
            props = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                     f'<ds:datastoreItem ds:itemID="{item_id}" xmlns:ds="http://schemas.'
                     'openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs>'
                     f'<ds:schemaRef ds:uri="{NS}"/></ds:schemaRefs></ds:datastoreItem>')
            part_rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                         '<Relationships xmlns="http://schemas.openxmlformats.org/package/'
                         f'2006/relationships"><Relationship Id="rId1" Type="{PROPS_REL}" '
                         'Target="napkin-frozen-props.xml"/></Relationships>')
            if not records:  # no cell calls ours: IN as it is, Excel's values and all
                if not package.same_file(src, dst):
                    with ZipFile(src) as zin:
                        package.rewrite(zin, src, dst)
                return 0
            remove = {"xl/calcChain.xml", PART, PROPS, PART_RELS}
            if package.same_file(src, dst) and backup:  # freezing over IN: keep IN.bak
                shutil.copy2(src, src.with_name(src.name + ".bak"))
            package.rewrite(zf, computed, dst, replace, remove,
                            {PART: part, PROPS: props.encode(), PART_RELS: part_rels.encode()})
    return len(records)


def unfreeze(src, dst) -> int:
    """Put back every formula ``freeze`` took out; returns the number restored."""
    src, dst = Path(src), Path(dst)
    guard.check_package(src)
    with ZipFile(src) as zf:
        if PART not in zf.NameToInfo:
            raise guard.WorkbookError(f"{src.name} has no formulas frozen by napkin")
        records = _read_records(zf.read(PART))
        book = xv.read_book(zf)
        by_part: dict[str, dict[str, str]] = {}
        for part, _sheet, ref, f in records:
            by_part.setdefault(part, {})[ref] = f
        replace = {}
        for path, cells in by_part.items():
            xml = zf.read(path).decode("utf-8")
            sd, tags, found = _cells(xml)
            edits = []
            for cm, row_start in found:
                ref = xv._attr(cm.group("attrs"), "r")
                if ref in cells and cm.group("body") is not None:
                    at = row_start + cm.start("body")
                    edits.append((at, cells.pop(ref)))
            if cells:
                raise guard.WorkbookError(f"cannot restore {len(cells)} formulas of {path}: "
                                          f"cells {', '.join(sorted(cells)[:5])} are gone")
            for at, f in reversed(edits):
                xml = xml[:at] + f + xml[at:]
            replace[path] = xml.encode("utf-8")
        rels_path = xv._rels_path(book.workbook_path)
        replace[rels_path] = _drop_relationship(
            zf.read(rels_path).decode("utf-8"), f'Id="{REL_ID}"').encode("utf-8")
        replace["[Content_Types].xml"] = _content_types(
            zf.read("[Content_Types].xml").decode("utf-8"), add=False).encode("utf-8")
        package.rewrite(zf, src, dst, replace, {PART, PROPS, PART_RELS},
                        in_place=package.same_file(src, dst))
    return len(records)
