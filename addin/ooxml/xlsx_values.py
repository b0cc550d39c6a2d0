"""Read the formulas and values of an .xlsx/.xlsm package, and write cached values back.

The writer is *lossless*: it never loads and re-saves the workbook with a library that
knows only part of the format. It edits the text of the worksheet parts in place, cell
by cell: for each formula cell only the ``t`` attribute and the ``<v>`` child change,
every other byte of the part stays as it was. All the other zip members (charts, images,
VBA projects, custom XML, add-in parts, ...) are copied unchanged.

``re`` works over the worksheet text; the metadata parts, which are only read, are
parsed with ``defusedxml`` (no DTDs, no entities), after ``addin.ooxml.guard`` has checked
the whole package.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from zipfile import ZipFile

from defusedxml import ElementTree as ET

# A1 references live in addin.ooxml.a1 (light to import: napkin eval needs them, not the XML);
# named here too, as the workbook modules have always used them
from addin.ooxml.a1 import MAX_COL, MAX_ROW, col2num, num2col, parse_area, parse_cell_ref  # noqa: F401

# the XML text, relationships and sheetData scanning live in addin.ooxml.reader; its XML
# text functions are named here too, as the workbook modules have always used them
from addin.ooxml.reader import (  # noqa: F401
    PKG_REL_NS,
    SHEETDATA_RE,
    attr,
    cell_column,
    decode_xstring,
    element_patterns,
    iter_row_cells,
    iter_rows,
    read_rels,
    xml_escape_text,
    xml_unescape,
)

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_WORKSHEET_TYPE = REL_NS + "/worksheet"
_OFFICE_DOC_TYPE = REL_NS + "/officeDocument"


# --------------------------------------------------------------------------- package


@dataclass
class SheetPart:
    name: str
    path: str  # zip member name
    index: int  # position among worksheets (as in localSheetId)


@dataclass
class DefinedName:
    name: str
    text: str
    local_sheet: int | None  # index into Book.sheets (None = workbook scope)
    hidden: bool = False


@dataclass
class Book:
    workbook_path: str
    sheets: list[SheetPart] = field(default_factory=list)
    names: list[DefinedName] = field(default_factory=list)
    shared_strings: list[str] = field(default_factory=list)


def workbook_path(zf: ZipFile) -> str:
    """The workbook part the package's relationships name (xl/workbook.xml usually)."""
    for typ, target in read_rels(zf, "").values():
        if typ == _OFFICE_DOC_TYPE or typ.endswith("/officeDocument"):
            return target
    return "xl/workbook.xml"


def read_book(zf: ZipFile) -> Book:
    """Sheets (in workbook order), defined names and shared strings of a package."""
    wb_path = workbook_path(zf)
    root = ET.fromstring(zf.read(wb_path), forbid_dtd=True)
    rels = read_rels(zf, wb_path)
    book = Book(wb_path)
    all_sheets = root.find(f"{{{MAIN_NS}}}sheets")
    position = {}  # localSheetId counts every sheet (also chart sheets)
    for i, sh in enumerate(all_sheets if all_sheets is not None else ()):
        rid = sh.get(f"{{{REL_NS}}}id")
        typ, target = rels.get(rid, ("", ""))
        position[i] = None
        if typ == _WORKSHEET_TYPE or typ.endswith("/worksheet"):
            if target in zf.NameToInfo:
                position[i] = len(book.sheets)
                book.sheets.append(SheetPart(sh.get("name"), target, len(book.sheets)))
    dn = root.find(f"{{{MAIN_NS}}}definedNames")
    for el in dn if dn is not None else ():
        name = el.get("name", "")
        local = el.get("localSheetId")
        local_idx = position.get(int(local)) if local is not None else None
        if local is not None and local_idx is None:
            continue  # scoped to a chart sheet
        book.names.append(DefinedName(
            name, el.text or "", local_idx, el.get("hidden") in ("1", "true")
        ))
    for typ, target in rels.values():
        if typ.endswith("/sharedStrings") and target in zf.NameToInfo:
            book.shared_strings = _read_shared_strings(zf.read(target))
    return book


def _read_shared_strings(data: bytes) -> list[str]:
    """The strings of a sharedStrings part, each ``<si>`` dropped once read (memory stays
    that of the strings, not of a tree)."""
    import io

    si_tag, t_tag, r_tag = f"{{{MAIN_NS}}}si", f"{{{MAIN_NS}}}t", f"{{{MAIN_NS}}}r"
    out, root = [], None
    for event, el in ET.iterparse(io.BytesIO(data), events=("start", "end"), forbid_dtd=True):
        if root is None:
            root = el
        if event != "end" or el.tag != si_tag:
            continue
        parts = []
        for child in el:
            if child.tag == t_tag:
                parts.append(child.text or "")
            elif child.tag == r_tag:
                t = child.find(t_tag)
                if t is not None:
                    parts.append(t.text or "")
        out.append(decode_xstring("".join(parts)))
        root.clear()
    return out


# --------------------------------------------------------------------------- worksheets


@dataclass
class RawCell:
    row: int
    col: int
    t: str | None  # the t attribute
    f: str | None  # formula text (unescaped), None when no <f>
    f_type: str | None  # "shared" / "array" / "dataTable" / None
    f_ref: str | None
    f_si: str | None
    v: str | None  # <v> text (unescaped)
    inline: str | None  # text of <is>
    vm: int | None = None  # the vm attribute: a rich value's record (addin.ooxml.rich_values)


@dataclass
class Layout:
    """Where the formula cells of a worksheet part are, as ``read_cells`` found them:
    ``cells[(row, col)] = (start, end, attrs, body)`` of the cell's element in the
    part's text. ``plain`` says that ``write_values`` may set those cells' values
    in place: rows in increasing order, each row and cell once, cells in column order,
    and no row's start tag ending in white space (which write_values writes without)."""

    cells: dict = field(default_factory=dict)
    plain: bool = True


def read_cells(xml: str, layout: Layout | None = None) -> list[RawCell]:
    """Every cell of a worksheet part that has a formula or a value (and, into
    ``layout`` when given, where its formula cells are)."""
    sd = SHEETDATA_RE.search(xml)
    if not sd or not sd.group("body"):
        return []
    tags = element_patterns(sd.group("p"))
    f_open, is_open = f"<{sd.group('p')}f", f"<{sd.group('p')}is"  # cheap tests first
    out = []
    base, last_row = sd.start("body"), 0
    cells_in, f_search, v_search = tags["c"].finditer, tags["f"].search, tags["v"].search
    for rm, row in iter_rows(sd.group("body"), tags):
        rattrs, rbody = rm.group("attrs", "body")
        if layout is not None:
            if row <= last_row or rattrs != rattrs.rstrip():
                layout.plain = False
            last_row, last_col, at = row, 0, base + rm.start("body")
        if not rbody:
            continue
        col = 0
        for cm in cells_in(rbody):  # (as iter_row_cells, without a generator per row)
            attrs, body = cm.group("attrs", "body")
            col = cell_column(attrs, col)
            if layout is not None:
                if col <= last_col:
                    layout.plain = False
                last_col = col
            if not body:
                continue
            f = f_type = f_ref = f_si = v = inline = None
            fm = f_search(body) if f_open in body else None
            if fm:
                fa, ftext = fm.group("attrs", "text")
                f = xml_unescape(ftext or "")
                f_type, f_ref, f_si = attr(fa, "t"), attr(fa, "ref"), attr(fa, "si")
                if layout is not None:
                    layout.cells[(row, col)] = (at + cm.start(), at + cm.end(), attrs, body)
            vm = v_search(body)
            if vm:
                v = xml_unescape(vm.group("text") or "")
            im = tags["is"].search(body) if is_open in body else None
            if im:
                ib = tags["rph"].sub("", im.group("body") or "")
                inline = decode_xstring(
                    "".join(xml_unescape(t.group("text") or "") for t in tags["t"].finditer(ib))
                )
            vm_at = attr(attrs, "vm") if "vm" in attrs else None
            out.append(RawCell(row, col, attr(attrs, "t"), f, f_type, f_ref, f_si, v, inline,
                               int(vm_at) if vm_at and vm_at.isdigit() else None))
    return out


_T_ATTR_RE = re.compile(r'\s+t\s*=\s*("[^"]*"|\'[^\']*\')')


def _set_cell(attrs: str, body: str | None, t: str | None, vtext: str, p: str, tags) -> str:
    if "t" in attrs:  # (a formula cell often has r="D2" alone)
        attrs = _T_ATTR_RE.sub("", attrs)
    attrs = attrs.rstrip()
    attrs = attrs.rstrip("/").rstrip()  # defensive
    if t:
        attrs += f' t="{t}"'
    # text that starts or ends with a space, or holds a line break, needs xml:space
    space = ' xml:space="preserve"' if t == "str" and (
        vtext != vtext.strip() or "\n" in vtext or "\t" in vtext) else ""
    v = f"<{p}v{space}>{vtext}</{p}v>"
    body = body or ""
    if f"<{p}is" in body:
        body = tags["is"].sub("", body)
    vm = tags["v"].search(body)
    if vm:
        body = body[: vm.start()] + v + body[vm.end():]
    else:
        fm = tags["f"].search(body)
        at = fm.end() if fm else 0
        body = body[:at] + v + body[at:]
    return f"<{p}c{attrs}>{body}</{p}c>"


def write_values(xml: str, updates: dict[tuple[int, int], tuple[str | None, str]],
                 layout: Layout | None = None) -> str:
    """Set the cached value of cells: ``updates[(row, col)] = (t attribute or None, <v> text)``.

    ``<v>`` text must already be XML-escaped. Cells that do not exist yet (the other cells
    of an array formula, as openpyxl writes them) are inserted in column order, rows in
    row order. Everything outside the edited cells is left byte for byte. ``layout``
    (from ``read_cells`` of this same ``xml``) lets the cells be set where they are,
    without reading the part again, when all of them are formula cells it lists.
    """
    if not updates:
        return xml
    sd = SHEETDATA_RE.search(xml)
    if not sd:
        raise ValueError("worksheet has no sheetData")
    p = sd.group("p")
    tags = element_patterns(p)
    if layout is not None and layout.plain and sd.group("body") is not None:
        spots = layout.cells
        if all(pos in spots for pos in updates):  # the same edits as the reading below
            out, pos = [], 0
            for start, end, attrs, body, tv in sorted(
                    spots[rc] + (tv,) for rc, tv in updates.items()):
                out.append(xml[pos:start])
                out.append(_set_cell(attrs, body, tv[0], tv[1], p, tags))
                pos = end
            out.append(xml[pos:])
            return "".join(out)
    pending: dict[int, dict[int, tuple]] = {}
    for (r, c), tv in updates.items():
        pending.setdefault(r, {})[c] = tv

    def new_cell(r, c, tv):
        t, vtext = tv
        ta = f' t="{t}"' if t else ""
        return f'<{p}c r="{num2col(c)}{r}"{ta}><{p}v>{vtext}</{p}v></{p}c>'

    def new_row(r, cells):
        inner = "".join(new_cell(r, c, cells[c]) for c in sorted(cells))
        return f'<{p}row r="{r}">{inner}</{p}row>'

    body = sd.group("body") or ""
    # rows (and, within a row, columns) to create are taken in order from sorted lists with
    # a cursor: one pass over the part, linear in its rows and in the updates
    new_rows = sorted(pending)
    ri = 0
    out, pos = [], 0
    for rm, row in iter_rows(body, tags):
        # rows that must be created before this one
        while ri < len(new_rows) and new_rows[ri] < row:
            r = new_rows[ri]
            ri += 1
            if r in pending:
                out.append(body[pos: rm.start()])
                pos = rm.start()
                out.append(new_row(r, pending.pop(r)))
        cells = pending.pop(row, None)
        if not cells:
            continue
        out.append(body[pos: rm.start()])
        rattrs, rbody = rm.group("attrs"), rm.group("body") or ""
        cols = sorted(cells)
        ci = 0
        rout, rpos = [], 0
        for cm, col in iter_row_cells(rbody, row, tags):
            while ci < len(cols) and cols[ci] < col:
                c = cols[ci]
                ci += 1
                if c in cells:
                    rout.append(rbody[rpos: cm.start()])
                    rpos = cm.start()
                    rout.append(new_cell(row, c, cells.pop(c)))
            tv = cells.pop(col, None)
            if tv is None:
                continue
            rout.append(rbody[rpos: cm.start()])
            rout.append(_set_cell(cm.group("attrs"), cm.group("body"), tv[0], tv[1], p, tags))
            rpos = cm.end()
        rout.append(rbody[rpos:])
        for c in sorted(cells):
            rout.append(new_cell(row, c, cells[c]))
        rattrs = rattrs.rstrip()
        if rattrs.endswith("/"):
            rattrs = rattrs[:-1].rstrip()
        out.append(f"<{p}row{rattrs}>{''.join(rout)}</{p}row>")
        pos = rm.end()
    out.append(body[pos:])
    for r in sorted(pending):
        out.append(new_row(r, pending[r]))
    new_body = "".join(out)
    if sd.group("body") is None:  # <sheetData/>
        return xml[: sd.start()] + f"<{p}sheetData>{new_body}</{p}sheetData>" + xml[sd.end():]
    return xml[: sd.start("body")] + new_body + xml[sd.end("body"):]


_CALCPR_RE = re.compile(
    r"<(?P<p>(?:[A-Za-z_][\w.-]*:)?)calcPr(?=[\s/>])(?P<attrs>[^>]*?)(?P<end>/?>)")
_FULLCALC_RE = re.compile(r'\s+fullCalcOnLoad\s*=\s*("[^"]*"|\'[^\']*\')')


def set_full_calc_on_load(workbook_xml: str, on: bool) -> str:
    """Set (on) or remove (off) ``fullCalcOnLoad`` of ``<calcPr>``; the rest is kept."""
    m = _CALCPR_RE.search(workbook_xml)
    if m:
        had = _FULLCALC_RE.search(m.group("attrs"))
        if not on and not had or on and had and had.group(1)[1:-1] in ("1", "true"):
            return workbook_xml  # already so: the part keeps its bytes
        attrs = _FULLCALC_RE.sub("", m.group("attrs"))
        if attrs.endswith("/"):
            attrs = attrs[:-1]
        attrs = attrs.rstrip()
        if on:
            attrs += ' fullCalcOnLoad="1"'
        tag = f"<{m.group('p')}calcPr{attrs}{m.group('end')}"
        return workbook_xml[: m.start()] + tag + workbook_xml[m.end():]
    if not on:
        return workbook_xml
    # insert after </definedNames> or </sheets> (the schema order of CT_Workbook)
    for closing in ("definedNames>", "sheets>"):
        mm = list(re.finditer(r"</(?P<p>(?:[A-Za-z_][\w.-]*:)?)" + closing, workbook_xml))
        if mm:
            m2 = mm[-1]
            tag = f'<{m2.group("p")}calcPr fullCalcOnLoad="1"/>'
            return workbook_xml[: m2.end()] + tag + workbook_xml[m2.end():]
    return workbook_xml
