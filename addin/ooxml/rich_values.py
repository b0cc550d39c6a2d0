"""The rich values of a package (Excel's linked data types: Stocks, Geography...), read.

A cell holding a linked data type is saved with the value Excel shows to programs that do
not know rich values (``<c r="H3" t="e" vm="1"><v>#VALUE!</v></c>``) and a ``vm``
attribute: the index, 1 for the first, of a ``bk`` of ``xl/metadata.xml``'s
``valueMetadata``. Its ``rc`` names, by ``t`` (1 for the first), the ``metadataType``
``XLRICHVALUE`` and, by ``v`` (0 for the first), a ``bk`` of the ``futureMetadata`` of that
name, whose ``xlrd:rvb i=`` is the index (0 for the first) of an ``rv`` of the Rich Value
Data part (``xl/richData/rdrichvalue.xml``). An ``rv``'s ``s`` is the index of its
structure (``s`` of ``xl/richData/rdrichvaluestructure.xml``): the structure's ``k`` keys
name, in order, the ``v`` values of the ``rv``, and their ``t`` says what each is (``d``, the
default, a number; ``i`` an integer; ``b`` a logical value; ``e`` an error; ``s`` a text;
``r`` the index of an earlier ``rv``; ``a`` an array; ``spb`` a supporting property bag).

A linked entity is saved as an ``rv`` of structure type ``_linkedentity`` whose one key
``%cvi`` (``t="r"``) names the ``rv`` of type ``_linkedentitycore`` holding its fields
(``Price``, ``Market cap``..., and the ``%``/``_`` keys Excel keeps for itself).

Only reading: these parts are parsed with ``defusedxml`` (no DTDs, no entities), after
``addin.ooxml.guard`` has checked the whole package.

References
----------
[MS-XLSX] Excel (.xlsx) Extensions to the Office Open XML SpreadsheetML File Format:
2.1.x Rich Value Data part (``rvData``; "a Rich Value Data part MUST be the target of an
implicit relationship from the Metadata part"), 2.6.175 CT_RichValue (the ``v`` matched by
index with the ``CT_Key`` of the structure named by ``s``; ``r``, ``a``, ``spb``: zero-based
indexes), 2.6.180 CT_RichValueStructure, 2.6.163 CT_Key, the richdata schema
(ST_RichValueValueType: d, i, b, e, s, r, a, spb; default d), CT_RichValueBlock (``rvb``,
``i``); https://learn.microsoft.com/en-us/openspecs/office_standards/ms-xlsx/
b8d7927a-79b4-4f2c-b76b-3a6e9cd7ad40 and .../9058338f-cf3b-4a7b-8f84-622e180eacc5.
ECMA-376 Part 1, 18.9 Metadata (``valueMetadata``, ``bk``, ``rc``; the cell's ``vm``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from zipfile import ZipFile

from defusedxml import ElementTree as ET

from addin.ooxml.reader import read_rels

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RICH_NS = "http://schemas.microsoft.com/office/spreadsheetml/2017/richdata"
_RICH_VALUE_TYPE = "/relationships/rdRichValue"
_STRUCTURE_TYPE = "/relationships/rdRichValueStructure"
_METADATA_TYPE = "/relationships/sheetMetadata"


@dataclass(frozen=True)
class RichValue:
    """One ``rv``: its structure's type (``_linkedentity``, ``_error``...) and its keys in
    order, each ``(name, t, text)`` (``t`` as the structure writes it, ``"d"`` if none)."""

    index: int
    type: str
    keys: tuple[tuple[str, str, str], ...]

    def get(self, name: str) -> tuple[str, str] | None:
        """``(t, text)`` of the key ``name`` (matched exactly), None where it has none."""
        for k, t, text in self.keys:
            if k == name:
                return t, text
        return None


@dataclass
class RichData:
    """The rich values of a package and the ``vm`` records that name them."""

    values: list[RichValue] = field(default_factory=list)
    #: ``vm`` (1 for the first valueMetadata bk) -> index of its rv, for XLRICHVALUE records
    by_vm: dict[int, int] = field(default_factory=dict)

    def of_vm(self, vm: int) -> RichValue | None:
        """The rich value a cell's ``vm`` names, None where it names none."""
        i = self.by_vm.get(vm)
        return self.values[i] if i is not None and 0 <= i < len(self.values) else None

    def entity_fields(self, rv: RichValue) -> RichValue | None:
        """The ``_linkedentitycore`` rich value a ``_linkedentity`` names by ``%cvi``
        (None for any other rich value, or a ``%cvi`` naming no such value)."""
        if rv.type != "_linkedentity":
            return None
        cvi = rv.get("%cvi")
        if cvi is None or cvi[0] != "r" or not cvi[1].strip().isdigit():
            return None
        i = int(cvi[1])
        if not 0 <= i < rv.index:  # (MUST come before the rv naming it: 2.6.175)
            return None
        core = self.values[i]
        return core if core.type == "_linkedentitycore" else None


def _part(zf: ZipFile, rels: dict, suffix: str, default: str) -> str | None:
    for typ, target in rels.values():
        if typ.endswith(suffix) and target in zf.NameToInfo:
            return target
    return default if default in zf.NameToInfo else None


def read_rich_data(zf: ZipFile, workbook_path: str) -> RichData | None:
    """The rich values of the package whose workbook part is ``workbook_path``, None where
    it has none (no metadata part, no ``XLRICHVALUE`` records or no rich value parts)."""
    rels = read_rels(zf, workbook_path)
    base = workbook_path.rpartition("/")[0]
    meta = _part(zf, rels, _METADATA_TYPE, f"{base}/metadata.xml")
    data = _part(zf, rels, _RICH_VALUE_TYPE, f"{base}/richData/rdrichvalue.xml")
    shapes = _part(zf, rels, _STRUCTURE_TYPE, f"{base}/richData/rdrichvaluestructure.xml")
    if meta is None or data is None or shapes is None:
        return None
    try:
        by_vm = value_metadata(zf.read(meta))
        return RichData(rich_values(zf.read(data), zf.read(shapes)), by_vm) if by_vm else None
    except (ET.ParseError, ValueError):  # (parts unreadable: no data type is read, _FV refused)
        return None


def value_metadata(metadata_xml: bytes) -> dict[int, int]:
    """``{vm: rv index}`` of a metadata part: each ``valueMetadata`` ``bk`` (``vm`` 1 for the
    first) whose ``rc`` names the ``XLRICHVALUE`` type, through the ``futureMetadata`` of
    that name, the ``rvb`` it holds."""
    root = ET.fromstring(metadata_xml, forbid_dtd=True)
    types = [t.get("name") for t in root.iter(f"{{{MAIN_NS}}}metadataType")]
    blocks = []
    for future in root.iter(f"{{{MAIN_NS}}}futureMetadata"):
        if future.get("name") == "XLRICHVALUE":
            for bk in future.findall(f"{{{MAIN_NS}}}bk"):
                rvb = next(bk.iter(f"{{{RICH_NS}}}rvb"), None)
                blocks.append(int(rvb.get("i")) if rvb is not None
                              and (rvb.get("i") or "").isdigit() else None)
    out = {}
    values = root.find(f"{{{MAIN_NS}}}valueMetadata")
    for vm, bk in enumerate(values.findall(f"{{{MAIN_NS}}}bk") if values is not None else (),
                            start=1):
        rcs = bk.findall(f"{{{MAIN_NS}}}rc")
        if len(rcs) != 1:
            continue
        t, v = rcs[0].get("t", ""), rcs[0].get("v", "")
        if not (t.isdigit() and v.isdigit()) or not 1 <= int(t) <= len(types) \
                or types[int(t) - 1] != "XLRICHVALUE" or int(v) >= len(blocks):
            continue
        if blocks[int(v)] is not None:
            out[vm] = blocks[int(v)]
    return out


def rich_values(data_xml: bytes, structures_xml: bytes) -> list[RichValue]:
    """The ``rv`` of a Rich Value Data part, each with its structure's keys; an ``rv``
    whose values do not match its structure's keys one for one is left without keys."""
    shapes = []
    for s in ET.fromstring(structures_xml, forbid_dtd=True).findall(f"{{{RICH_NS}}}s"):
        shapes.append((s.get("t", ""), [(k.get("n", ""), k.get("t") or "d")
                                         for k in s.findall(f"{{{RICH_NS}}}k")]))
    out = []
    for i, rv in enumerate(ET.fromstring(data_xml, forbid_dtd=True).findall(f"{{{RICH_NS}}}rv")):
        s = rv.get("s", "")
        vs = [v.text or "" for v in rv.findall(f"{{{RICH_NS}}}v")]
        if not s.isdigit() or int(s) >= len(shapes):
            out.append(RichValue(i, "", ()))
            continue
        typ, keys = shapes[int(s)]
        if len(keys) != len(vs):
            out.append(RichValue(i, typ, ()))
            continue
        out.append(RichValue(i, typ, tuple((n, t, v) for (n, t), v in zip(keys, vs, strict=True))))
    return out
