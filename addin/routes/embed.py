"""``napkin embed``: napkin's xlwings Lite code inside a workbook, stored as Lite stores it.

xlwings Lite keeps a workbook's Python code in the workbook itself, in the Office
web-extension parts that Excel writes for an add-in used with the file
(docs/lite-format.md has the form, learned from workbooks that Lite saved, and its
sources):

``xl/webextensions/webextensionN.xml``
    ``<we:webextension>`` with a ``<we:reference>`` to the xlwings Lite add-in in the
    Office store (``id="wa200008175"``, ``storeType="OMEX"``) and one
    ``<we:property name=... value=...>`` per file: ``main.py`` and ``requirements.txt``.
    A value is the file's text as a JSON string (``/`` written ``\\/``, non-ASCII kept),
    escaped as an XML attribute.
``xl/webextensions/taskpanes.xml`` (+ its ``_rels``)
    the task pane that shows the add-in, pointing at the web extension.
``[Content_Types].xml`` overrides and a package relationship (``_rels/.rels``) to
    ``taskpanes.xml``.

The embedded ``main.py`` and ``requirements.txt`` are exactly what ``napkin lite`` writes
(``addin.routes.lite.main_py``, ``addin.routes.lite.requirements_txt``). Each call of a
napkin function that a formula makes by its plain name (``RIDGE(``) is written in the
form Excel stores a call of a Lite function in (``_xldudf_RIDGE(``,
``addin.formula.formula_text.stored_calls``; docs/lite-format.md has the evidence): the
text of those ``<f>`` and ``<definedName>`` elements changes, nothing else of them. The
workbook is rewritten through ``addin.ooxml.package.rewrite``: every other part keeps its
bytes.
A workbook whose Lite code is not napkin's is refused unless ``replace=True``; one with
an older napkin is updated in place (its other Lite properties, such as the Pyodide
version Lite recorded, are kept).
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from xml.sax.saxutils import unescape
from zipfile import ZipFile

from addin.formula import formula_text as ft
from addin.ooxml import edit, guard, package, reader
from addin.ooxml import xlsx_values as xv
from addin.routes.lite import HEADER_FIRST_LINE, main_py, requirements_txt

#: xlwings Lite in the Office store (AppSource asset id), as Lite-saved workbooks name it.
LITE_STORE_ID = "wa200008175"
WE_NS = "http://schemas.microsoft.com/office/webextensions/webextension/2010/11"
WETP_NS = "http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
REL_WEBEXTENSION = "http://schemas.microsoft.com/office/2011/relationships/webextension"
REL_TASKPANES = "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
CT_WEBEXTENSION = "application/vnd.ms-office.webextension+xml"
CT_TASKPANES = "application/vnd.ms-office.webextensiontaskpanes+xml"
TASKPANES = "xl/webextensions/taskpanes.xml"
TASKPANES_RELS = "xl/webextensions/_rels/taskpanes.xml.rels"
#: The web extension's instance id: fixed, so that the template builds to the same bytes.
INSTANCE_ID = "{" + str(uuid.uuid5(uuid.NAMESPACE_URL, "napkin/xlwings-lite")).upper() + "}"
_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'


class LiteCodeError(ValueError):
    """The workbook already carries xlwings Lite code that is not napkin's."""


def encode_value(text: str) -> str:
    """A property value as Lite stores it: JSON text, ``/`` as ``\\/``, XML-escaped."""
    j = json.dumps(text, ensure_ascii=False).replace("/", "\\/")
    return (j.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def decode_value(raw: str) -> str:
    """The text of a property value (inverse of ``encode_value``)."""
    return json.loads(unescape(raw, {"&quot;": '"', "&apos;": "'"}))


def _property(name: str, text: str) -> str:
    return f'<we:property name="{name}" value="{encode_value(text)}"/>'


def webextension_xml(files: dict[str, str]) -> str:
    """A web-extension part for xlwings Lite carrying ``files`` ({name: text})."""
    props = "".join(_property(n, t) for n, t in files.items())
    return (
        f'{_DECL}<we:webextension xmlns:we="{WE_NS}" id="{INSTANCE_ID}">'
        f'<we:reference id="{LITE_STORE_ID}" version="1.0.0.0" store="en-US" '
        'storeType="OMEX"/>'
        f'<we:alternateReferences><we:reference id="{LITE_STORE_ID.upper()}" '
        f'version="1.0.0.0" store="{LITE_STORE_ID.upper()}" storeType="OMEX"/>'
        "</we:alternateReferences>"
        f"<we:properties>{props}</we:properties><we:bindings/>"
        f'<we:snapshot xmlns:r="{R_NS}"/>'
        f'<we:extLst><a:ext xmlns:a="{A_NS}" uri="{{D87F86FE-615C-45B5-9D79-34F1136793EB}}">'
        "<we:containsCustomFunctions/></a:ext>"
        f'<a:ext xmlns:a="{A_NS}" uri="{{7C84B067-C214-45C3-A712-C9D94CD141B2}}">'
        "<we:customFunctionIdList/></a:ext></we:extLst></we:webextension>"
    )


def _taskpane(rid: str) -> str:
    # visibility="1": the pane (and with it Lite and its functions) opens with the file
    return (f'<wetp:taskpane dockstate="right" visibility="1" width="438" row="1">'
            f'<wetp:webextensionref xmlns:r="{R_NS}" r:id="{rid}"/></wetp:taskpane>')


def _rels(rels: list[tuple[str, str, str]]) -> str:
    body = "".join(f'<Relationship Id="{i}" Type="{t}" Target="{g}"/>' for i, t, g in rels)
    return (f'{_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
            f'relationships">{body}</Relationships>')


_PROP_RE = r'<(?P<p>[\w.-]+:)?property\s+name="{name}"\s+value="(?P<v>[^"]*)"\s*/>'


def lite_parts(zf: ZipFile) -> dict[str, dict[str, str]]:
    """{part: {property: text}} of the web extensions in ``zf`` that are xlwings Lite."""
    out = {}
    for name in zf.namelist():
        if re.fullmatch(r"xl/webextensions/webextension\d*\.xml", name):
            xml = zf.read(name).decode("utf-8")
            ref = re.search(r'<(?:[\w.-]+:)?reference\b[^>]*\bid="([^"]*)"', xml)
            if ref and ref.group(1).lower() == LITE_STORE_ID:
                props = {m.group("n"): decode_value(m.group("v")) for m in re.finditer(
                    r'<(?:[\w.-]+:)?property\s+name="(?P<n>[^"]*)"\s+value="(?P<v>[^"]*)"',
                    xml)}
                out[name] = props
    return out


def is_napkin(code: str) -> bool:
    """Whether a ``main.py`` is one that ``napkin lite`` wrote (any napkin version)."""
    return code.lstrip('"').startswith(HEADER_FIRST_LINE.lstrip('"'))


def _set_properties(xml: str, files: dict[str, str]) -> str:
    for name, text in files.items():
        pat = _PROP_RE.format(name=re.escape(name))
        m = re.search(pat, xml)
        if m:
            p = m.group("p") or ""
            new = f'<{p}property name="{name}" value="{encode_value(text)}"/>'
            xml = xml[:m.start()] + new + xml[m.end():]
        else:
            pm = re.search(r"<(?P<p>[\w.-]+:)?properties\s*/>", xml)
            p = (pm or re.search(r"<(?P<p>[\w.-]+:)?properties\b", xml)).group("p") or ""
            new = f'<{p}property name="{name}" value="{encode_value(text)}"/>'
            if pm:
                xml = xml[:pm.start()] + f"<{p}properties>{new}</{p}properties>" + \
                    xml[pm.end():]
            else:
                xml = xml.replace(f"</{p}properties>", new + f"</{p}properties>", 1)
    return xml


def embed(src, dst, *, in_place: bool = False, backup: bool = True,
          replace: bool = False, stored: bool = True) -> str:
    """Write ``dst``: ``src`` with napkin's Lite code in it, and (``stored``) its plain
    calls of napkin functions in Excel's stored form (``stored_parts``). Returns what was
    done: ``"added"``, ``"updated"`` (an older or equal napkin was there) or ``"replaced"``.

    Raises ``LiteCodeError`` when ``src`` carries Lite code that is not napkin's and
    ``replace`` is false (nothing is written then).
    """
    src, dst = Path(src), Path(dst)
    guard.check_package(src)
    files = {"main.py": main_py(), "requirements.txt": requirements_txt()}
    with ZipFile(src) as zf:
        existing = lite_parts(zf)
        new_parts: dict[str, bytes] = {}
        added: dict[str, bytes] = {}
        if existing:
            part, props = next(iter(existing.items()))
            napkin = is_napkin(props.get("main.py", ""))
            if not napkin and not replace:
                raise LiteCodeError(
                    f"{src.name} already carries xlwings Lite code that is not napkin's "
                    "(its main.py); pass --replace to put napkin's in its place")
            xml = zf.read(part).decode("utf-8")
            new_parts[part] = _set_properties(xml, files).encode("utf-8")
            done = "updated" if napkin else "replaced"
        else:
            done = "added"
            names = set(zf.namelist())
            n = 1
            while f"xl/webextensions/webextension{n}.xml" in names:
                n += 1
            part = f"xl/webextensions/webextension{n}.xml"
            added[part] = webextension_xml(files).encode("utf-8")
            ct = zf.read("[Content_Types].xml").decode("utf-8")
            ct = edit.add_override(ct, part, CT_WEBEXTENSION)
            if TASKPANES in names:
                rels = zf.read(TASKPANES_RELS).decode("utf-8") if TASKPANES_RELS in names \
                    else _rels([])
                rid = edit.free_rel_id(rels)
                rels = edit.add_relationship(rels, rid, REL_WEBEXTENSION, part.rsplit("/", 1)[1])
                panes = zf.read(TASKPANES).decode("utf-8")
                panes = re.sub(r"</(?P<p>[\w.-]+:)?taskpanes>",
                               lambda m: _taskpane(rid).replace(
                                   "wetp:", m.group("p") or "") + m.group(0), panes, count=1)
                new_parts[TASKPANES] = panes.encode("utf-8")
                (new_parts if TASKPANES_RELS in names else added)[TASKPANES_RELS] = \
                    rels.encode("utf-8")
            else:
                added[TASKPANES] = (f'{_DECL}<wetp:taskpanes xmlns:wetp="{WETP_NS}">'
                                    f"{_taskpane('rId1')}</wetp:taskpanes>").encode()
                added[TASKPANES_RELS] = _rels(
                    [("rId1", REL_WEBEXTENSION, part.rsplit("/", 1)[1])]).encode("utf-8")
                ct = edit.add_override(ct, TASKPANES, CT_TASKPANES)
                root = zf.read("_rels/.rels").decode("utf-8")
                root = edit.add_relationship(root, edit.free_rel_id(root), REL_TASKPANES, TASKPANES)
                new_parts["_rels/.rels"] = root.encode("utf-8")
            new_parts["[Content_Types].xml"] = ct.encode("utf-8")
        if stored:
            new_parts.update(stored_parts(zf))
        package.rewrite(zf, src, dst, new_parts, add=added, in_place=in_place, backup=backup)
    return done


_DEFINED_NAME = re.compile(r"(<(?:[\w.-]+:)?definedName\b[^>]*>)([^<]*)(</)")


def _catalog_names() -> set[str]:
    from udfs.catalog import CATALOG

    return {name.upper() for name in CATALOG}


def stored_parts(zf: ZipFile, names=None) -> dict[str, bytes]:
    """{part: bytes} of the worksheets (and the workbook part, for its defined names) of
    the package ``zf`` whose formulas call a function of ``names`` (napkin's catalog by
    default) by its plain name, with those calls in Excel's stored form
    (``ft.stored_calls``). Only the text of such a formula changes."""
    names = _catalog_names() if names is None else names
    book = xv.read_book(zf)
    out = {}
    for sheet in book.sheets:
        xml = zf.read(sheet.path).decode("utf-8")
        edits = []
        for cell in reader.iter_cells(xml):
            f = reader.formula_of(cell)
            if not f or not f.text:
                continue
            text = ft.stored_calls(f.text, names)
            if text != f.text:
                head = f.xml[:f.xml.index(">") + 1]
                edits.append((f.start, f.end, f"{head}{reader.xml_escape_text(text)}"
                                              f"{f.xml[f.xml.rindex('</'):]}"))
        for start, end, new in reversed(edits):
            xml = xml[:start] + new + xml[end:]
        if edits:
            out[sheet.path] = xml.encode("utf-8")
    xml = zf.read(book.workbook_path).decode("utf-8")

    def store(m: re.Match) -> str:
        text = reader.xml_unescape(m.group(2))
        new = ft.stored_calls(text, names)
        return m.group(0) if new == text else \
            m.group(1) + reader.xml_escape_text(new) + m.group(3)

    new = _DEFINED_NAME.sub(store, xml)
    if new != xml:
        out[book.workbook_path] = new.encode("utf-8")
    return out


def embedded_files(path) -> dict[str, str]:
    """{file name: text} of the xlwings Lite code in the workbook at ``path`` ({} if none)."""
    with ZipFile(path) as zf:
        parts = lite_parts(zf)
    return next(iter(parts.values()), {})


def write_template(path=None, *, stored: bool = True, native: bool = False) -> Path:
    """``napkin template``: the template workbook built (``workbook.build``), computed
    by napkin's engine (every formula with its cached value, so that it shows numbers
    without any add-in, and a calcId that does not make Excel recompute on open) and
    carrying napkin's xlwings Lite code, its napkin calls in the form Excel stores a Lite
    function's (``stored``; false for the classic add-in, whose VBA wrappers define the
    plain names). ``native``: the native edition's start instead, built with its own Start
    sheet and neither computed nor given Lite code (``addin.cli.commands.write_native_edition``
    then translates it: routes do not import transforms). Deterministic: the same napkin
    writes the same bytes."""
    from addin.engine.api import calc_workbook
    from workbook.build import build_template

    path = build_template(path, native=native)
    if native:
        return path
    calc_workbook(path, path, in_place=True, backup=False)
    embed(path, path, in_place=True, backup=False, stored=stored)
    fix_dates(path)
    return path


def fix_dates(path: Path) -> None:
    """Rewrite the template at ``path`` with the template's fixed dates: every zip entry
    dated ``workbook.build.ZIP_TIME`` and ``dcterms:modified`` set to
    ``workbook.build.FIXED_TIME`` (openpyxl and ``addin.ooxml.package.rewrite``
    stamp others), so that two builds give identical bytes."""
    from workbook.build import FIXED_TIME, ZIP_TIME

    stamp = FIXED_TIME.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    with ZipFile(path) as zf:
        parts = [(info.filename, zf.read(info.filename)) for info in zf.infolist()]
    parts = [(name, re.sub(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                           rb"\g<1>" + stamp + rb"\g<2>", data)
              if name == "docProps/core.xml" else data) for name, data in parts]
    package.write_parts(path, parts, ZIP_TIME)
