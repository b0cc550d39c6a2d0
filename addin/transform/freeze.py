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
Excel rebuilds it). In a workbook made from napkin's template, so that nobody edits an
input and trusts the stale numbers beside it, freeze also

* writes into the cell named ``NAPKIN_STATUS`` (the Start sheet's status line) that the
  copy is frozen, when, and from what file, in a red "frozen" look;
* un-marks the input cells: every cell format of the named style "napkin input" (yellow,
  unlocked) becomes a plain, locked cell of the style "napkin formula" (``styles.xml``), so
  on the protected sheets the inputs show as values and refuse typing;
* protects, without a password, the sheets that are not (the template's tables, which a
  user inserts rows into), so that their former inputs refuse typing too.

All three are recorded in the custom XML part too (the status cell and ``styles.xml`` as
they were, the sheets protected), and ``napkin unfreeze`` puts them back: ``styles.xml``
only when it is still the one freeze wrote (a program that saved the copy may have
renumbered its formats).
Everything else is copied unchanged, through ``addin.ooxml.package``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import shutil
import tempfile
import uuid
from html import escape, unescape
from pathlib import Path
from zipfile import ZipFile

from addin.formula import formula_text as ft
from addin.ooxml import edit, guard, package, reader
from addin.ooxml import xlsx_values as xv

PART = "customXml/napkin-frozen.xml"
PROPS = "customXml/napkin-frozen-props.xml"
PART_RELS = "customXml/_rels/napkin-frozen.xml.rels"
NS = "urn:napkin:frozen:1"
CUSTOM_XML_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml"
PROPS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps"
PROPS_TYPE = "application/vnd.openxmlformats-officedocument.customXmlProperties+xml"
REL_ID = "rIdNapkinFrozen"

STYLES = "xl/styles.xml"
STATUS_NAME = "NAPKIN_STATUS"  # the template's status cell (workbook/start.py)
INPUT_STYLE, PLAIN_STYLE = "napkin input", "napkin formula"
#: the frozen status line's look: dark red bold on light red (as Excel's "Bad" style)
FROZEN_FONT = ('<font><b val="1"/><sz val="11"/><color rgb="FF9C0006"/>'
               '<name val="Calibri"/></font>')
#: the protection freeze gives a sheet that has none: no password, as the template's
#: other sheets (columns and rows resizable)
PROTECTION = ('<sheetProtection sheet="1" objects="1" scenarios="1" formatColumns="0" '
              'formatRows="0"/>')
FROZEN_FILL = ('<fill><patternFill patternType="solid"><fgColor rgb="FFFFC7CE"/>'
               '<bgColor indexed="64"/></patternFill></fill>')


def _calls_ours(formula: str, names: re.Pattern) -> bool:
    return bool(names.search(ft.outside_strings(ft.plain_calls(formula))))


def _names_pattern(functions) -> re.Pattern:
    alt = "|".join(sorted((re.escape(n) for n in functions), key=len, reverse=True))
    return re.compile(rf"(?<![\w.])(?:{alt})\s*\(", re.IGNORECASE)


def _freeze_sheet(xml: str, names: re.Pattern) -> tuple[str, list[tuple[str, str]]]:
    """The sheet without the <f> of cells calling ours, and [(cell ref, <f> xml)]."""
    cells = [(cell, reader.formula_of(cell)) for cell in reader.iter_cells(xml)]
    masters = {}  # shared formula si -> its text (children carry an empty <f>)
    for _cell, f in cells:
        if f and reader.attr(f.attrs, "t") == "shared" and f.text:
            masters[reader.attr(f.attrs, "si")] = f.text
    edits, records = [], []
    for cell, f in cells:
        if not f or not cell.ref:
            continue
        text = f.text
        if not text and reader.attr(f.attrs, "t") == "shared":
            text = masters.get(reader.attr(f.attrs, "si"), "")
        if not _calls_ours(text, names):
            continue
        edits.append((f.start, f.end))
        records.append((cell.ref, f.xml))
    for start, end in reversed(edits):
        xml = xml[:start] + xml[end:]
    return xml, records


def _section(xml: str, tag: str) -> re.Match | None:
    """The unprefixed ``<tag count=..>...</tag>`` element of styles.xml."""
    return re.search(rf"<{tag}(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</{tag}>", xml, re.S)


_XF = re.compile(r"<xf\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</xf>)", re.S)


def _append(xml: str, tag: str, element: str) -> tuple[str, int]:
    """``xml`` with ``element`` appended to the ``<tag>`` list, and its index there."""
    m = _section(xml, tag)
    child = {"fonts": "font", "fills": "fill", "cellXfs": "xf"}[tag]
    n = len(re.findall(rf"<{child}\b", m.group("body")))
    attrs = re.sub(r'\scount="\d+"', "", m.group("attrs")) + f' count="{n + 1}"'
    return (xml[:m.start()] + f"<{tag}{attrs}>{m.group('body')}{element}</{tag}>"
            + xml[m.end():], n)


def _set_attr(attrs: str, name: str, value: str) -> str:
    if re.search(rf'\s{name}="[^"]*"', attrs):
        return re.sub(rf'\s{name}="[^"]*"', f' {name}="{value}"', attrs)
    return f' {name}="{value}"' + attrs


def _style_xf(xml: str, name: str) -> str | None:
    m = re.search(rf'<cellStyle\b[^>]*\bname="{re.escape(name)}"[^>]*>', xml)
    return reader.attr(m.group(0), "xfId") if m else None


def _unmark_inputs(xml: str) -> tuple[str, int]:
    """styles.xml with every cell format of the "napkin input" style turned into a plain,
    locked one of the "napkin formula" style (its font, no fill); and how many."""
    inp, plain = _style_xf(xml, INPUT_STYLE), _style_xf(xml, PLAIN_STYLE)
    cell_xfs, style_xfs = _section(xml, "cellXfs"), _section(xml, "cellStyleXfs")
    if inp is None or plain is None or cell_xfs is None or style_xfs is None:
        return xml, 0
    plain_xfs = list(_XF.finditer(style_xfs.group("body")))
    if int(plain) >= len(plain_xfs):
        return xml, 0
    font = reader.attr(plain_xfs[int(plain)].group("attrs"), "fontId") or "0"
    n = 0

    def plain_xf(m: re.Match) -> str:
        nonlocal n
        attrs, body = m.group("attrs"), m.group("body") or ""
        if reader.attr(attrs, "xfId") != inp:
            return m.group(0)
        n += 1
        for k, v in (("xfId", plain), ("fontId", font), ("fillId", "0")):
            attrs = _set_attr(attrs, k, v)
        attrs = re.sub(r'\sapplyProtection="[^"]*"', "", attrs)
        body = re.sub(r"<protection\b[^>]*/>", "", body)
        return f"<xf{attrs}>{body}</xf>" if body else f"<xf{attrs}/>"

    body = _XF.sub(plain_xf, cell_xfs.group("body"))
    return (xml[:cell_xfs.start("body")] + body + xml[cell_xfs.end("body"):], n)


def _frozen_look(xml: str, s: str | None) -> tuple[str, int]:
    """styles.xml with a cell format for the frozen status line (from the status cell's
    format ``s``: its number format, border and alignment, a red font and fill)."""
    xml, font = _append(xml, "fonts", FROZEN_FONT)
    xml, fill = _append(xml, "fills", FROZEN_FILL)
    xfs = list(_XF.finditer(_section(xml, "cellXfs").group("body")))
    base = xfs[int(s)] if s and s.isdigit() and int(s) < len(xfs) else xfs[0]
    attrs = base.group("attrs")
    for k, v in (("fontId", str(font)), ("fillId", str(fill)), ("applyFont", "1"),
                 ("applyFill", "1"), ("applyAlignment", "1")):
        attrs = _set_attr(attrs, k, v)
    body = re.sub(r"<alignment\b[^>]*/>", "", base.group("body") or "")
    return _append(xml, "cellXfs",
                   f'<xf{attrs}><alignment vertical="top" wrapText="1"/>{body}</xf>')


def _status_target(book) -> tuple[str, str] | None:
    """(sheet part, cell ref) of the cell named NAPKIN_STATUS, if the workbook has one."""
    for dn in book.names:
        if dn.name.upper() != STATUS_NAME or dn.local_sheet is not None:
            continue
        m = re.fullmatch(r"'?((?:[^']|'')+?)'?!\$?([A-Z]{1,3})\$?(\d+)", dn.text.strip())
        if not m:
            return None
        sheet = m.group(1).replace("''", "'")
        for sp in book.sheets:
            if sp.name == sheet:
                return sp.path, f"{m.group(2)}{m.group(3)}"
    return None


def _cell_element(xml: str, ref: str) -> re.Match | None:
    """The ``<c r=ref>`` element of a sheet part (a match on ``xml``)."""
    return re.search(rf'<c\b[^>]*\br="{ref}"[^>]*?(?:/>|>.*?</c>)', xml, re.S)


def _status_sentence(src: Path, when: dt.datetime) -> str:
    return (f"Frozen copy, made by napkin freeze on {when:%Y-%m-%d %H:%M} UTC from "
            f"{src.name}: every napkin figure is the value computed then, not a formula, so "
            "changing an input would change none of them; the inputs are no longer marked "
            "or editable. napkin unfreeze gives the formulas back.")


def _write_status(xml: str, ref: str, s: str, text: str) -> tuple[str, str]:
    """The sheet with the status cell holding ``text`` in format ``s``, and the cell's
    element as it was (empty when the cell had none)."""
    new = (f'<c r="{ref}" s="{s}" t="inlineStr"><is><t xml:space="preserve">'
           f"{xv.xml_escape_text(text)}</t></is></c>")
    m = _cell_element(xml, ref)
    if m is None:  # no cell yet: a placeholder through write_values, then ours
        row, col = xv.parse_cell_ref(ref)
        xml = xv.write_values(xml, {(row, col): (None, "0")})
        m = _cell_element(xml, ref)
        old = ""
    else:
        old = m.group(0)
    return xml[:m.start()] + new + xml[m.end():], old


def _protect(xml: str) -> str | None:
    """The sheet part ``xml`` with ``PROTECTION`` where the schema puts it (after
    ``sheetData`` and ``sheetCalcPr``); None when it has a protection already."""
    if "<sheetProtection" in xml:
        return None
    m = re.search(r"(?:</sheetData>|<sheetData\s*/>)(?:\s*<sheetCalcPr\b[^>]*/>)?", xml)
    return None if m is None else xml[:m.end()] + PROTECTION + xml[m.end():]


def _protect_sheets(zf: ZipFile, book, replace: dict, was: list[str]) -> str:
    """Protect (into ``replace``) every sheet without a protection; the record of the
    sheets freeze protected (``was``: those of an earlier freeze of the same copy)."""
    done = list(was)
    for sheet in book.sheets:
        xml = (replace[sheet.path] if sheet.path in replace else zf.read(sheet.path))
        new = _protect(xml.decode("utf-8"))
        if new is not None:
            replace[sheet.path] = new.encode("utf-8")
            done.append(sheet.path)
    return "".join(f'<protected part="{escape(p)}"/>' for p in done)


def _read_protected(data: bytes) -> list[str]:
    """The sheet parts freeze protected, from its record."""
    return [unescape(p) for p in re.findall(r'<protected part="([^"]*)"/>',
                                            data.decode("utf-8"))]


def _record_part(records: list[tuple[str, str, str, str]], extra: str = "") -> bytes:
    rows = "".join(
        f'<cell part="{escape(p)}" sheet="{escape(s)}" ref="{escape(r)}">{escape(f)}</cell>'
        for p, s, r, f in records)
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<napkinFrozen xmlns="{NS}">{rows}{extra}</napkinFrozen>').encode()


def _read_extra(data: bytes) -> tuple[tuple[str, str, str] | None, tuple[str, str] | None]:
    """(status part, ref, cell as it was) and (sha256 of the frozen styles.xml, styles.xml
    as it was), each None when freeze did not change it."""
    text = data.decode("utf-8")
    st = re.search(r'<status part="([^"]*)" ref="([^"]*)">(.*?)</status>', text, re.S)
    sy = re.search(r'<styles sha256="([0-9a-f]*)">(.*?)</styles>', text, re.S)
    return ((unescape(st.group(1)), unescape(st.group(2)), unescape(st.group(3))) if st
            else None,
            (sy.group(1), unescape(sy.group(2))) if sy else None)


def _read_records(data: bytes) -> list[tuple[str, str, str, str]]:
    text = data.decode("utf-8")
    return [(unescape(m.group(1)), unescape(m.group(2)), unescape(m.group(3)),
             unescape(m.group(4)))
            for m in re.finditer(r'<cell part="([^"]*)" sheet="([^"]*)" ref="([^"]*)">'
                                 r"(.*?)</cell>", text, re.S)]


def _relationships(rels_xml: str) -> str:
    """The workbook's relationships with the record's (once) and without calcChain's."""
    if REL_ID not in rels_xml:
        rels_xml = edit.add_relationship(rels_xml, REL_ID, CUSTOM_XML_REL, f"../{PART}")
    return edit.remove_relationships(rels_xml, "calcChain.xml")


def _content_types(ct: str, add: bool) -> str:
    for part in (PART, PROPS, "xl/calcChain.xml"):
        ct = edit.remove_override(ct, part)
    if add:
        ct = edit.add_override(edit.add_override(ct, PART, "application/xml"), PROPS,
                               PROPS_TYPE)
    return ct


def freeze(src, dst, functions=None, *, backup: bool = True) -> int:
    """Compute ``src`` and write ``dst`` with our formulas replaced by their values.
    Returns the number of cells frozen; with none, ``dst`` gets the parts of ``src``
    unchanged (no value recomputed, ``calcChain.xml`` kept)."""
    from addin.engine.api import calc_workbook
    from udfs.catalog import CATALOG

    src, dst = Path(src), Path(dst)
    names = _names_pattern(functions or CATALOG)
    with tempfile.TemporaryDirectory(dir=dst.parent if dst.parent.exists() else None) as d:
        computed = Path(d) / "computed.xlsx"
        calc_workbook(src, computed, functions, strict=False)  # kept: Excel's values
        with ZipFile(computed) as zf:
            book = xv.read_book(zf)
            replace, records = {}, []
            old_part = zf.read(PART) if PART in zf.NameToInfo else b""
            old = _read_records(old_part) if old_part else []
            for sheet in book.sheets:
                xml = zf.read(sheet.path).decode("utf-8")
                new, recs = _freeze_sheet(xml, names)
                if recs:
                    replace[sheet.path] = new.encode("utf-8")
                    records += [(sheet.path, sheet.name, r, f) for r, f in recs]
            rels_path = reader.rels_path(book.workbook_path)
            rels = zf.read(rels_path).decode("utf-8")
            rels = _relationships(rels)
            replace[rels_path] = rels.encode("utf-8")
            replace["[Content_Types].xml"] = _content_types(
                zf.read("[Content_Types].xml").decode("utf-8"), add=True).encode("utf-8")
            extra = _mark_frozen(zf, book, replace, src, old_part) if records else ""
            part = _record_part(old + records, extra)
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


def _mark_frozen(zf: ZipFile, book, replace: dict, src: Path, old_part: bytes) -> str:
    """Write the frozen status line and un-mark the inputs (into ``replace``); the record
    of what they were, for unfreeze (kept from an earlier freeze of the same copy)."""
    was_status, was_styles = _read_extra(old_part) if old_part else (None, None)
    extra = ""
    target = _status_target(book)
    styles = zf.read(STYLES).decode("utf-8") if STYLES in zf.NameToInfo else None
    original_styles = styles
    if target and styles and _section(styles, "cellXfs") is not None:
        path, ref = target
        xml = (replace[path] if path in replace else zf.read(path)).decode("utf-8")
        cell = _cell_element(xml, ref)
        s = reader.attr(cell.group(0), "s") if cell else None
        styles, frozen_s = _frozen_look(styles, s)
        text = _status_sentence(src, dt.datetime.now(dt.UTC))
        xml, old_cell = _write_status(xml, ref, str(frozen_s), text)
        replace[path] = xml.encode("utf-8")
        if was_status:
            path, ref, old_cell = was_status
        extra += (f'<status part="{escape(path)}" ref="{escape(ref)}">'
                  f"{escape(old_cell)}</status>")
    if styles:
        styles, _n = _unmark_inputs(styles)
    if styles and styles != original_styles:
        replace[STYLES] = styles.encode("utf-8")
        sha = hashlib.sha256(replace[STYLES]).hexdigest()
        first = was_styles[1] if was_styles else original_styles
        extra += f'<styles sha256="{sha}">{escape(first)}</styles>'
    if target:  # the template's: its unprotected sheets refuse typing too
        extra += _protect_sheets(zf, book, replace,
                                 _read_protected(old_part) if old_part else [])
    return extra


def unfreeze(src, dst) -> int:
    """Put back every formula ``freeze`` took out; returns the number restored."""
    src, dst = Path(src), Path(dst)
    guard.check_package(src)
    with ZipFile(src) as zf:
        if PART not in zf.NameToInfo:
            raise guard.WorkbookError(f"{src.name} has no formulas frozen by napkin")
        data = zf.read(PART)
        records = _read_records(data)
        status, styles = _read_extra(data)
        book = xv.read_book(zf)
        restore_styles = bool(styles) and STYLES in zf.NameToInfo and \
            hashlib.sha256(zf.read(STYLES)).hexdigest() == styles[0]
        by_part: dict[str, dict[str, str]] = {}
        for part, _sheet, ref, f in records:
            by_part.setdefault(part, {})[ref] = f
        replace = {}
        for path, cells in by_part.items():
            xml = zf.read(path).decode("utf-8")
            edits = []
            for cell in reader.iter_cells(xml):
                if cell.ref in cells and cell.body is not None:
                    edits.append((cell.body_start, cells.pop(cell.ref)))
            if cells:
                raise guard.WorkbookError(f"cannot restore {len(cells)} formulas of {path}: "
                                          f"cells {', '.join(sorted(cells)[:5])} are gone")
            for at, f in reversed(edits):
                xml = xml[:at] + f + xml[at:]
            replace[path] = xml.encode("utf-8")
        if status:
            path, ref, cell = status
            xml = replace[path].decode("utf-8") if path in replace else \
                zf.read(path).decode("utf-8")
            m = _cell_element(xml, ref)
            if m is not None:
                if cell and not restore_styles:  # formats renumbered: keep today's
                    s = reader.attr(m.group(0), "s")
                    cell = re.sub(r'\ss="\d+"', "", cell, count=1)
                    if s:
                        cell = cell.replace("<c ", f'<c s="{s}" ', 1)
                xml = xml[:m.start()] + cell + xml[m.end():]
                replace[path] = xml.encode("utf-8")
        if restore_styles:
            replace[STYLES] = styles[1].encode("utf-8")
        for path in _read_protected(data):  # the protection freeze gave, taken off
            if path in zf.NameToInfo:
                xml = replace[path] if path in replace else zf.read(path)
                replace[path] = xml.decode("utf-8").replace(PROTECTION, "", 1).encode()
        rels_path = reader.rels_path(book.workbook_path)
        replace[rels_path] = edit.remove_relationship_id(
            zf.read(rels_path).decode("utf-8"), REL_ID).encode("utf-8")
        replace["[Content_Types].xml"] = _content_types(
            zf.read("[Content_Types].xml").decode("utf-8"), add=False).encode("utf-8")
        package.rewrite(zf, src, dst, replace, {PART, PROPS, PART_RELS},
                        in_place=package.same_file(src, dst))
    return len(records)
