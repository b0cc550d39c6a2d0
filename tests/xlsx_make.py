"""Minimal .xlsx packages written at the zip/XML level, as Excel writes them (cached values
with formulas, ``t="str"`` results, ``xml:space="preserve"``, 1904 dates, links to other
workbooks, strict Open XML...), for cases openpyxl would not write."""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape
from zipfile import ZIP_DEFLATED, ZipFile

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
STRICT = "http://purl.oclc.org/ooxml/spreadsheetml/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def cell(ref: str, formula: str | None = None, value=None, t: str | None = None,
         space: bool = False) -> str:
    """One ``<c>``: a formula (text as Excel stores it, no ``=``) and/or a cached value."""
    attrs = f' r="{ref}"' + (f' t="{t}"' if t else "")
    body = f"<f>{escape(formula)}</f>" if formula is not None else ""
    if value is not None:
        if t == "inlineStr":
            sp = ' xml:space="preserve"' if space else ""
            body += f"<is><t{sp}>{escape(str(value))}</t></is>"
        else:
            body += f"<v>{escape(str(value))}</v>"
    return f"<c{attrs}>{body}</c>"


def sheet_xml(cells: list[str], ns: str = MAIN, hidden=(), after: str = "") -> str:
    """A worksheet of ``cells``; rows in ``hidden`` get ``hidden="1"``; ``after``: XML
    that follows ``sheetData`` (an ``autoFilter``...)."""
    rows: dict[int, list[str]] = {r: [] for r in hidden}
    for c in cells:
        ref = c.split('r="', 1)[1].split('"', 1)[0]
        row = int("".join(ch for ch in ref if ch.isdigit()))
        rows.setdefault(row, []).append(c)
    hid = ' hidden="1"'
    body = "".join(f'<row r="{r}"{hid if r in hidden else ""}>{"".join(cs)}</row>'
                   for r, cs in sorted(rows.items()))
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
            f'<worksheet xmlns="{ns}" xmlns:r="{R}"><sheetData>{body}</sheetData>{after}'
            '</worksheet>')


def write(path: Path, sheets: dict[str, list[str]], *, date1904: bool = False,
          names: dict[str, str] | None = None, strict: bool = False,
          shared_strings: list[str] | None = None, hidden: dict | None = None,
          after: dict | None = None, tables: dict | None = None,
          links: list | None = None) -> Path:
    """Write a workbook of ``sheets`` (name -> cells from ``cell``); ``hidden``: sheet
    name -> rows hidden; ``after``: sheet name -> XML after its ``sheetData``;
    ``tables``: sheet name -> the ``<table>`` elements of its tables (Excel tables);
    ``links``: the ``<externalBook>`` elements of linked workbooks ([1], [2]...)."""
    ns = STRICT if strict else MAIN
    rel_ns = "http://purl.oclc.org/ooxml/officeDocument/relationships" if strict else R
    pr = '<workbookPr date1904="1"/>' if date1904 else "<workbookPr/>"
    sh = "".join(f'<sheet name="{escape(n, {chr(34): "&quot;"})}" sheetId="{i}" r:id="rId{i}"/>'
                 for i, n in enumerate(sheets, 1))
    dn = ""
    if names:
        def one(k, v):  # k: a name, or (name, index of the sheet it belongs to)
            name, local = k if isinstance(k, tuple) else (k, None)
            scope = "" if local is None else f' localSheetId="{local}"'
            return f'<definedName name="{name}"{scope}>{escape(v)}</definedName>'

        dn = "<definedNames>" + "".join(one(k, v) for k, v in names.items()) + \
            "</definedNames>"
    n_links = len(links or ())
    ext = "" if not n_links else "<externalReferences>" + "".join(
        f'<externalReference r:id="rIdL{i}"/>' for i in range(1, n_links + 1)
    ) + "</externalReferences>"
    wb = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
          f'<workbook xmlns="{ns}" xmlns:r="{rel_ns}">{pr}<sheets>{sh}</sheets>{ext}{dn}'
          f'<calcPr calcId="191029" concurrentCalc="0" /></workbook>')
    rels = "".join(
        f'<Relationship Id="rId{i}" Type="{rel_ns}/worksheet" Target="worksheets/sheet{i}.xml"/>'
        for i in range(1, len(sheets) + 1))
    n = len(sheets)
    rels += "".join(f'<Relationship Id="rIdL{i}" Type="{rel_ns}/externalLink" '
                    f'Target="externalLinks/externalLink{i}.xml"/>'
                    for i in range(1, n_links + 1))
    if shared_strings is not None:
        rels += (f'<Relationship Id="rId{n + 1}" Type="{rel_ns}/sharedStrings" '
                 'Target="sharedStrings.xml"/>')
    over = "".join(
        f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        for i in range(1, n + 1))
    table_parts: dict[int, list[str]] = {}  # sheet number -> table XML
    k = 0
    for i, name in enumerate(sheets, 1):
        for t in (tables or {}).get(name, ()):
            k += 1
            table_parts.setdefault(i, []).append((k, t))
            over += (f'<Override PartName="/xl/tables/table{k}.xml" ContentType="application/'
                     'vnd.openxmlformats-officedocument.spreadsheetml.table+xml"/>')
    ct = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
          '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
          'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.'
          'openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' + over + '</Types>')
    pkg = "http://schemas.openxmlformats.org/package/2006/relationships"
    with ZipFile(path, "w", ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", ct)
        z.writestr("_rels/.rels", f'<Relationships xmlns="{pkg}"><Relationship Id="rId1" '
                   f'Type="{rel_ns}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        z.writestr("xl/workbook.xml", wb)
        z.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{pkg}">{rels}'
                   "</Relationships>")
        for i, (name, cells) in enumerate(sheets.items(), 1):
            z.writestr(f"xl/worksheets/sheet{i}.xml", sheet_xml(
                cells, ns, (hidden or {}).get(name, ()), (after or {}).get(name, "")))
        for i, parts in table_parts.items():
            rel = "".join(f'<Relationship Id="rId{k}" Type="{rel_ns}/table" '
                          f'Target="../tables/table{k}.xml"/>' for k, _ in parts)
            z.writestr(f"xl/worksheets/_rels/sheet{i}.xml.rels",
                       f'<Relationships xmlns="{pkg}">{rel}</Relationships>')
            for k, t in parts:
                z.writestr(f"xl/tables/table{k}.xml", t)
        for i, book in enumerate(links or (), 1):
            z.writestr(f"xl/externalLinks/externalLink{i}.xml",
                       f'<externalLink xmlns="{ns}">{book}</externalLink>')
        if shared_strings is not None:
            si = "".join(f'<si><t xml:space="preserve">{escape(s)}</t></si>'
                         for s in shared_strings)
            z.writestr("xl/sharedStrings.xml", f'<sst xmlns="{ns}">{si}</sst>')
    return path


def add_shared_ridge(path: Path, col: str, after: str) -> None:
    """Give ``path`` (sheet1, rows 2..4 filled) an Excel-style shared formula group calling
    RIDGE: ``{col}2`` holds the text, ``{col}3:{col}4`` share it; each cell goes after the
    row's ``{after}`` cell, as Excel orders cells. openpyxl cannot write shared formulas."""
    import re

    with ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    xml = parts["xl/worksheets/sheet1.xml"].decode()
    cells = {2: f'<c r="{col}2"><f t="shared" ref="{col}2:{col}4" si="0">RIDGE(A2,B2,0.8)'
                f'</f></c>',
             3: f'<c r="{col}3"><f t="shared" si="0"/></c>',
             4: f'<c r="{col}4"><f t="shared" si="0"/></c>'}
    for r, c in cells.items():
        xml = re.sub(rf'(<row r="{r}"[^>]*>.*?<c r="{after}{r}".*?</c>)',
                     lambda m, c=c: m.group(1) + c, xml, count=1, flags=re.S)
    parts["xl/worksheets/sheet1.xml"] = xml.encode()
    with ZipFile(path, "w", ZIP_DEFLATED) as z:
        for n, data in parts.items():
            z.writestr(n, data)


def calc(tmp_path, sheets: dict[str, dict[str, object]], **kw):
    """Write ``sheets`` ({sheet: {cell: value or formula}}) with openpyxl into a new workbook
    in ``tmp_path`` and compute it with ``napkin calc``'s engine; its results by cell."""
    import openpyxl

    from addin.engine.api import calc_workbook

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, cells in sheets.items():
        ws = wb.create_sheet(name)
        for ref, v in cells.items():
            ws[ref] = v
    src = tmp_path / "in.xlsx"
    wb.save(src)
    return calc_workbook(src, tmp_path / "out.xlsx", {}, **kw)


def with_calc_pr(src: Path, attrs: str) -> Path:
    """Rewrite workbook ``src`` in place with ``attrs`` (``'fullPrecision="0"'``) added to
    its ``<calcPr>``, as ``write`` writes it."""
    import zipfile

    with zipfile.ZipFile(src) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(
        b'<calcPr calcId="191029"', f'<calcPr {attrs} calcId="191029"'.encode())
    with zipfile.ZipFile(src, "w") as z:
        for n, b in parts.items():
            z.writestr(n, b)
    return src
