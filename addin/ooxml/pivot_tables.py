"""The pivot tables of a package, read: where each is drawn, its fields and their items,
and what each of its rows and columns shows (for GETPIVOTDATA, ``addin.excel.pivot_data``).

A sheet names its pivot tables by relationships of type ``.../pivotTable``; each
``pivotTableDefinition`` names its cache definition by one of type
``.../pivotCacheDefinition`` (ECMA-376 Part 1, 12.3, the parts of SpreadsheetML). What
is read:

* ``location``: ``ref`` (the range the table is drawn in, its page fields left out),
  ``firstHeaderRow``, ``firstDataRow``, ``firstDataCol`` (relative to ``ref``'s first
  cell, 0 for it: 18.10.1.49);
* ``pivotFields``, one per cache field, in order: each ``item``
  with ``x`` (the index of a shared item of the cache field), ``t`` (``data``, the
  default; ``default``, ``sum``... for a subtotal's place; ``blank``, ``grand``), ``h``
  (hidden), ``m`` (missing from the source), ``n`` (a name given by the user);
* ``rowFields``, ``colFields``: the fields on the axis, in order;
  ``-2`` is the Values field (several data fields);
* ``rowItems``, ``colItems``: one ``i`` per row (or column) of the
  table's body, in order: ``t`` (ST_ItemType: ``data``, the default, ``default``
  and the other subtotals, ``grand``, ``blank``), ``r`` (how many of the previous line's
  members it repeats, 0 the default), ``i`` (its data field's index), and one ``x`` per
  member after those, ``v`` (0 the default) the index of the field's ``item``;
* ``dataFields``: ``name``, ``fld`` (the cache field), ``subtotal``;
* the cache definition: ``refreshOnLoad``, the source's ``type`` and each
  ``cacheField``'s ``name``, its ``sharedItems`` (``s``, ``n``, ``d``, ``b``, ``e``,
  ``m``), whether it has a ``fieldGroup`` (grouped items) or a ``formula``.

Only reading: the parts are parsed with ``defusedxml`` (no DTDs, no entities), after
``addin.ooxml.guard`` has checked the whole package. A part that cannot be read gives a
table marked ``unreadable``, and GETPIVOTDATA on its sheet is refused.

References
----------
ISO/IEC 29500-1 (ECMA-376 Part 1), 18.10 PivotTable, as Microsoft's Open XML SDK
documentation quotes it ("Location Class": 18.10.1.49 location, "firstDataRow ...
Specifies the first row of the PivotTable data, relative to the top left cell in the ref
value", firstDataCol likewise; its parent pivotTableDefinition, 18.10.1.73): the elements
pivotField, item, rowItems/colItems and their i and x, dataField, pivotCacheDefinition,
cacheField and sharedItems, and the simple type ST_ItemType, of the same clause.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from zipfile import ZipFile

from defusedxml import ElementTree as ET

from addin.ooxml.a1 import parse_area
from addin.ooxml.reader import read_rels

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_PIVOT_TABLE = "/relationships/pivotTable"
_CACHE = "/relationships/pivotCacheDefinition"
#: the Values field's index in rowFields or colFields (several data fields)
VALUES_FIELD = -2


def _q(tag: str) -> str:
    return f"{{{MAIN_NS}}}{tag}"


@dataclass(frozen=True)
class Line:
    """One row (or column) of a pivot table's body: its item type (``kind``), its
    ``members``, the index of the item it shows of each leading field of the axis in turn
    (an index into that pivot field's items), and ``data_index``, its data field's."""

    kind: str
    members: tuple[int, ...]
    data_index: int = 0


@dataclass
class CacheField:
    name: str
    items: list = field(default_factory=list)  # (kind, text): s n d b e m
    grouped: bool = False  # fieldGroup: its items are groups of the source's
    formula: bool = False  # a calculated field


@dataclass
class PivotField:
    axis: str = ""
    items: list = field(default_factory=list)  # dicts of the item's attributes


@dataclass
class PivotTable:
    """One pivot table, as its parts describe it (see the module's docstring)."""

    name: str
    sheet: int
    ref: tuple[int, int, int, int]  # r1, c1, r2, c2 (1-based)
    first_header_row: int = 0
    first_data_row: int = 0
    first_data_col: int = 0
    fields: list[PivotField] = field(default_factory=list)
    row_fields: list[int] = field(default_factory=list)
    col_fields: list[int] = field(default_factory=list)
    rows: list[Line] = field(default_factory=list)
    cols: list[Line] = field(default_factory=list)
    data_fields: list[tuple[str, int]] = field(default_factory=list)  # (name, cache field)
    cache_fields: list[CacheField] = field(default_factory=list)
    page_fields: int = 0
    refresh_on_load: bool = False
    source: str = ""  # the cache source's type: worksheet, external, consolidation, scenario
    unreadable: str = ""  # what in the parts is not read (the table is then not used)

    def contains(self, r: int, c: int) -> bool:
        r1, c1, r2, c2 = self.ref
        return r1 <= r <= r2 and c1 <= c <= c2


def _int(el, name: str, default: int = 0) -> int:
    v = el.get(name)
    return default if v is None else int(v)


def _lines(parent) -> list[Line]:
    out, previous = [], ()
    if parent is None:
        return out
    for i in parent.findall(_q("i")):
        repeated = _int(i, "r")
        members = previous[:repeated] + tuple(_int(x, "v") for x in i.findall(_q("x")))
        out.append(Line(i.get("t", "data"), members, _int(i, "i")))
        previous = members
    return out


def _cache(xml: bytes) -> tuple[list[CacheField], bool, str]:
    root = ET.fromstring(xml, forbid_dtd=True)
    source = root.find(_q("cacheSource"))
    fields = []
    for cf in root.iter(_q("cacheField")):
        shared = cf.find(_q("sharedItems"))
        items = [] if shared is None else [
            (el.tag.rpartition("}")[2], el.get("v", "")) for el in shared]
        fields.append(CacheField(cf.get("name", ""), items, cf.find(_q("fieldGroup")) is not None,
                                 cf.get("formula") is not None))
    refresh = root.get("refreshOnLoad", "0") in ("1", "true")
    return fields, refresh, "" if source is None else source.get("type", "")


def _table(xml: bytes, sheet: int, cache: tuple[list[CacheField], bool, str]) -> PivotTable:
    root = ET.fromstring(xml, forbid_dtd=True)
    loc = root.find(_q("location"))
    fields = []
    pf_parent = root.find(_q("pivotFields"))
    for pf in (pf_parent.findall(_q("pivotField")) if pf_parent is not None else ()):
        items = pf.find(_q("items"))
        fields.append(PivotField(pf.get("axis", ""), [dict(it.attrib) for it in (
            items.findall(_q("item")) if items is not None else ())]))

    def axis(tag):
        el = root.find(_q(tag))
        return [] if el is None else [_int(f, "x") for f in el.findall(_q("field"))]

    data = root.find(_q("dataFields"))
    pages = root.find(_q("pageFields"))
    unreadable = []
    if root.find(_q("calculatedItems")) is not None:
        unreadable.append("calculated items")
    if root.get("dataOnRows", "0") in ("1", "true"):
        unreadable.append("data fields on rows")
    return PivotTable(
        name=root.get("name", ""), sheet=sheet, ref=parse_area(loc.get("ref", "")),
        first_header_row=_int(loc, "firstHeaderRow"), first_data_row=_int(loc, "firstDataRow"),
        first_data_col=_int(loc, "firstDataCol"), fields=fields,
        row_fields=axis("rowFields"), col_fields=axis("colFields"),
        rows=_lines(root.find(_q("rowItems"))), cols=_lines(root.find(_q("colItems"))),
        data_fields=[(d.get("name", ""), _int(d, "fld")) for d in (
            data.findall(_q("dataField")) if data is not None else ())],
        cache_fields=cache[0], refresh_on_load=cache[1], source=cache[2],
        page_fields=0 if pages is None else len(pages.findall(_q("pageField"))),
        unreadable=", ".join(unreadable))


def read_pivot_tables(zf: ZipFile, sheet_parts: list[tuple[int, str]]) -> list[PivotTable]:
    """The pivot tables of the sheets ``sheet_parts`` (``(sheet index, part path)``), in
    the order their sheets and relationships name them; a table whose parts cannot be read
    is kept with ``unreadable`` saying so, and no place (GETPIVOTDATA on its sheet is then
    refused, never given #REF! for want of it)."""
    out, caches = [], {}
    if not any("pivotTable" in name for name in zf.NameToInfo):
        return out
    for sheet, part in sheet_parts:
        for typ, target in read_rels(zf, part).values():
            if not typ.endswith(_PIVOT_TABLE) or target not in zf.NameToInfo:
                continue
            try:
                cache_part = next((t for ty, t in read_rels(zf, target).values()
                                   if ty.endswith(_CACHE) and t in zf.NameToInfo), None)
                if cache_part not in caches:
                    caches[cache_part] = _cache(zf.read(cache_part)) if cache_part else (
                        [], False, "")
                out.append(_table(zf.read(target), sheet, caches[cache_part]))
            except (ET.ParseError, ValueError, AttributeError, KeyError) as ex:
                out.append(PivotTable("", sheet, (0, 0, 0, 0), unreadable=(
                    f"its parts could not be read ({type(ex).__name__})")))
    return out
