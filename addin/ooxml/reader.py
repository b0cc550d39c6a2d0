"""The public reader of a package's parts as text: XML character data, the attributes of
an element, relationships, and the cells of a worksheet part where they are written.

Worksheet parts are read with ``re`` over their text, so that a caller that edits them
(``addin.ooxml.xlsx_values``, freeze, native) knows each element's offsets and leaves
every other byte as it was. Relationship parts are parsed with ``defusedxml``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from zipfile import ZipFile

from defusedxml import ElementTree as ET

from addin.ooxml.a1 import _COLS, parse_cell_ref

PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"


# --------------------------------------------------------------------------- XML text


_ENTITY_RE = re.compile(r"&(#x[0-9A-Fa-f]+|#[0-9]+|amp|lt|gt|quot|apos);")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def _entity(m: re.Match) -> str:
    e = m.group(1)
    if e[0] == "#":
        return chr(int(e[2:], 16) if e[1] in "xX" else int(e[1:]))
    return _ENTITIES[e]


def xml_unescape(text: str) -> str:
    """Character data as an XML parser reads it: a line break written CR LF (or a lone
    CR) is one LF (XML 1.0, section 2.11), then entities and character references are
    resolved (``&#13;`` is a CR that stays)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "&" not in text:
        return text
    if "&#" in text:
        return _ENTITY_RE.sub(_entity, text)
    # the five named entities alone: each written so is one of _ENTITY_RE's matches (a
    # match holds no other "&"), and no replacement writes an "&" until "&amp;", last
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"') \
        .replace("&apos;", "'").replace("&amp;", "&")


_XSTRING_RE = re.compile(r"_x([0-9A-Fa-f]{4})_")


def decode_xstring(text: str) -> str:
    """Undo the OOXML ``_xHHHH_`` escaping of characters XML cannot carry."""
    return _XSTRING_RE.sub(lambda m: chr(int(m.group(1), 16)), text) if "_x" in text else text


_XML_ILLEGAL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_escape_text(text: str) -> str:
    """Character data escaped for an element's text: ``&``, ``<``, ``>`` as entities, and
    the characters XML cannot carry (and a literal ``_xHHHH_``) in ``_xHHHH_`` form."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if _XSTRING_RE.search(text):  # a literal "_x0041_" must not be decoded by readers
        text = _XSTRING_RE.sub(lambda m: "_x005F" + m.group(0), text)
    return _XML_ILLEGAL_RE.sub(lambda m: f"_x{ord(m.group(0)):04X}_", text)


def xml_escape_attr(text: str) -> str:
    """An attribute's value escaped for double quotes: ``xml_escape_text``'s escapes, the
    quote, and tab, line feed and carriage return as character references (a parser
    would read them as spaces otherwise: XML 1.0, section 3.3.3)."""
    return (xml_escape_text(text).replace('"', "&quot;").replace("\t", "&#9;")
            .replace("\n", "&#10;").replace("\r", "&#13;"))


_ATTR_RES: dict[str, re.Pattern] = {}


def attr(attrs: str, name: str) -> str | None:
    """The value of attribute ``name`` in the text of an element's attributes (or of the
    whole start tag), unescaped; None when it has none.

    Parameters
    ----------
    attrs : str
        The attributes as written, e.g. ``' r="B2" t="str"'`` or ``'<cellStyle name="x"/>'``.
    name : str
        The attribute's name, with its prefix if it has one.
    """
    if name not in attrs:  # (most cells have no t, most formulas no attributes)
        return None
    rx = _ATTR_RES.get(name)
    if rx is None:
        rx = _ATTR_RES[name] = re.compile(
            r'(?:^|\s)' + re.escape(name) + r'\s*=\s*("([^"]*)"|\'([^\']*)\')')
    m = rx.search(attrs)
    if not m:
        return None
    return xml_unescape(m.group(2) if m.group(2) is not None else m.group(3))


# --------------------------------------------------------------------------- relationships


def rels_path(part: str) -> str:
    """The zip member of the relationships of ``part`` (``""``: the package's own)."""
    d, base = posixpath.split(part)
    return posixpath.join(d, "_rels", base + ".rels")


def resolve_target(source_part: str, target: str) -> str:
    """The zip member a relationship of ``source_part`` names by ``target``."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(source_part), target))


def read_rels(zf: ZipFile, part: str) -> dict[str, tuple[str, str]]:
    """The internal relationships of ``part``: ``{Id: (Type, target zip member)}``.

    External targets are left out; a part without relationships gives ``{}``.
    """
    path = rels_path(part)
    try:
        root = ET.fromstring(zf.read(path), forbid_dtd=True)
    except KeyError:
        return {}
    out = {}
    for rel in root.iter(f"{{{PKG_REL_NS}}}Relationship"):
        if rel.get("TargetMode") == "External":
            continue
        out[rel.get("Id")] = (rel.get("Type", ""), resolve_target(part, rel.get("Target", "")))
    return out


# --------------------------------------------------------------------------- sheetData


SHEETDATA_RE = re.compile(
    r"<(?P<p>(?:[A-Za-z_][\w.-]*:)?)sheetData(?:\s[^>]*)?(?:/>|>(?P<body>.*?)</(?P=p)sheetData>)",
    re.S,
)
_TAG_CACHE: dict[str, dict[str, re.Pattern]] = {}


def element_patterns(p: str) -> dict[str, re.Pattern]:
    """The patterns of a worksheet's elements written with namespace prefix ``p``
    (``"row"``, ``"c"``, ``"f"``, ``"v"``, ``"is"``, ``"t"``, ``"rPh"``), each with the
    groups ``attrs`` and ``body`` (or ``text``)."""
    d = _TAG_CACHE.get(p)
    if d is None:
        q = re.escape(p)
        d = _TAG_CACHE[p] = {
            "row": re.compile(
                rf"<{q}row(?=[\s/>])(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</{q}row>)", re.S
            ),
            "c": re.compile(
                rf"<{q}c(?=[\s/>])(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</{q}c>)", re.S
            ),
            "f": re.compile(rf"<{q}f(?=[\s/>])(?P<attrs>[^>]*?)(?:/>|>(?P<text>.*?)</{q}f>)", re.S),
            "v": re.compile(rf"<{q}v(?=[\s/>])[^>]*?(?:/>|>(?P<text>.*?)</{q}v>)", re.S),
            "is": re.compile(rf"<{q}is(?=[\s/>])[^>]*?(?:/>|>(?P<body>.*?)</{q}is>)", re.S),
            "t": re.compile(rf"<{q}t(?=[\s/>])[^>]*?(?:/>|>(?P<text>.*?)</{q}t>)", re.S),
            "rph": re.compile(rf"<{q}rPh(?=[\s/>]).*?</{q}rPh>", re.S),
        }
    return d


def iter_rows(body: str, tags):
    """Yield (match, row number) for each <row> of a sheetData body."""
    last = 0
    for m in tags["row"].finditer(body):
        r = attr(m.group("attrs"), "r")
        last = int(r) if r else last + 1
        yield m, last


_R_ATTR_RE = re.compile(r"""(?:^|\s)r\s*=\s*(?:"([A-Z]{1,2})\d+"|'([A-Z]{1,2})\d+')""")


def cell_column(attrs: str, last: int) -> int:
    """The column of a cell from its attributes; ``last`` is the column of the cell before
    it in the row (a cell without ``r`` follows it)."""
    plain = _R_ATTR_RE.search(attrs)  # r="B12", as Excel writes it: the column at once
    if plain:
        return _COLS[plain.group(1) or plain.group(2)]
    ref = attr(attrs, "r")
    return parse_cell_ref(ref)[1] if ref else last + 1


def iter_row_cells(row_body: str, row: int, tags):
    """Yield (match, column number) for each <c> of a row's body."""
    col = 0
    for m in tags["c"].finditer(row_body):
        col = cell_column(m.group("attrs"), col)
        yield m, col


# --------------------------------------------------------------------------- cells


@dataclass(frozen=True, slots=True)
class CellElement:
    """One ``<c>`` element of a worksheet part, where it is in the part's text.

    Attributes
    ----------
    ref : str or None
        Its ``r`` attribute (``"B12"``); None when it has none.
    attrs : str
        The text of its attributes, as written.
    body : str or None
        The text between its start and end tags; None for an empty ``<c .../>``.
    body_start : int or None
        The offset of ``body`` in the part's text; None when ``body`` is None.
    prefix : str
        The namespace prefix of the part's elements (``""``, or e.g. ``"x:"``).
    """

    ref: str | None
    attrs: str
    body: str | None
    body_start: int | None
    prefix: str


@dataclass(frozen=True, slots=True)
class FormulaElement:
    """The ``<f>`` child of a cell, where it is in the part's text.

    Attributes
    ----------
    start, end : int
        The offsets of the whole element in the part's text.
    attrs : str
        The text of its attributes (``t``, ``ref``, ``si``...), as written.
    text : str
        The formula, unescaped; ``""`` for an empty ``<f/>`` (a shared formula's child).
    xml : str
        The element as written.
    """

    start: int
    end: int
    attrs: str
    text: str
    xml: str


def iter_cells(xml: str) -> Iterator[CellElement]:
    """Every ``<c>`` of the ``<sheetData>`` of a worksheet part's text, in the order
    written."""
    sd = SHEETDATA_RE.search(xml)
    if not sd or not sd.group("body"):
        return
    p = sd.group("p")
    tags = element_patterns(p)
    body_start = sd.start("body")
    for rm, _row in iter_rows(sd.group("body"), tags):
        if not rm.group("body"):
            continue
        row_start = body_start + rm.start("body")
        for cm in tags["c"].finditer(rm.group("body")):
            attrs, body = cm.group("attrs", "body")
            yield CellElement(attr(attrs, "r"), attrs, body,
                              None if body is None else row_start + cm.start("body"), p)


def formula_of(cell: CellElement) -> FormulaElement | None:
    """The ``<f>`` of a cell; None when it has no formula."""
    if not cell.body:
        return None
    fm = element_patterns(cell.prefix)["f"].search(cell.body)
    if not fm:
        return None
    return FormulaElement(cell.body_start + fm.start(), cell.body_start + fm.end(),
                          fm.group("attrs"), xml_unescape(fm.group("text") or ""), fm.group(0))
