"""Dynamic-array formulas (Excel 365's spills) as Excel saves them, and what strict mode
refuses of them.

Excel saves a formula that spills as an array formula of its anchor cell,
``<c r="A34" cm="1"><f t="array" ref="A34:A40">_xlfn._xlws.SORT(...)</f><v>...</v></c>``,
the values of the spill range in their own cells; ``cm`` points to a cell-metadata
record of ``xl/metadata.xml`` whose type is ``XLDAPR`` with
``<xda:dynamicArrayProperties fDynamic="1"/>`` ([MS-XLSX] 2.3.29 and 2.6.133). The
reference to a spill, ``A34#``, is saved as ``_xlfn.ANCHORARRAY(A34)``.

napkin computes such a formula into the range Excel saved (``Node.spill``); a result of
another size would spill elsewhere in Excel, or give ``#SPILL!`` where the range it
needs holds values (Excel then saves the error in the anchor with ``ref`` one cell):
``mismatched`` refuses those cells rather than writing a spill of Excel's size that is
not Excel's. Excel saves the errors of dynamic arrays, ``#CALC!`` and ``#SPILL!``, as
``#VALUE!`` with a rich value (``vm``, ``xl/richData/``) saying which: napkin does not
write those, so ``rich_errors`` refuses a cell whose value is one (a formula reading it,
``IFERROR(FILTER(...),0)``, is computed). ``anchor_arrays`` writes
``_xlfn.ANCHORARRAY(A34)`` as the range of the spill anchored there (``A34:A40``), and
``_xlfn.ANCHORARRAY(Name)`` (``Name#``) where the defined name ``Name`` is one cell (its
sheet's name first, then the workbook's) anchoring a dynamic array; one whose cell anchors
no dynamic array is left as it is and its cell refused with a sentence saying so (Excel
saved ``AVERAGE(E33#)`` of a one-value formula E33 as ``AVERAGE(E33)``, one cell: too
little to settle what # gives there).

References
----------
[MS-XLSX] Excel (.xlsx) Extensions to the Office Open XML SpreadsheetML File Format,
2.6.133 dynamicArrayProperties; ECMA-376 Part 1, 18.9 Metadata (cellMetadata, rc).
Microsoft Support, "Dynamic array formulas and spilled array behavior" (the # spill
range operator; #SPILL! when the spill range is not blank); "Spilled range operator",
https://support.microsoft.com/excel/spilled-range-operator (A2 =SEQUENCE(10) spilling
into A2:A11, =SUM(A2#) the same as =SUM(A2:A11)). Values Excel saved of ``Name#``:
calebjgartner/Financial-Modeling-Projects, "Real Estate Private Equity Model.xlsx"
(Timeline, Expenses!$F$4, =SEQUENCE spilled; 'Cash Flow'!E3 =+Timeline#).
Values Excel saved: vinci1it2000/formulas, test/test_files/test.xlsx (Excel for Mac):
LOOKUP!U123 =TAKE(...,0) and EXTRA!I20 =FILTER(...) of no match saved as ``#VALUE!``
with a rich value ``_error`` of errorType 13 (#CALC!);
tests/corpus/sheetjs/metadata_2019.xlsx (B13, ``_xlfn.UNIQUE`` spilled
into B13:B17; C13, the same formula blocked by text in C15:C17, saved as an error with
``ref="C13"``).
"""

from __future__ import annotations

import re

from addin.formula import formula_text as ft
from addin.formula.arrays import as_2d
from addin.ooxml import xlsx_values as xv

_TYPE = re.compile(r"<(?:\w+:)?metadataType\b[^>]*\bname\s*=\s*\"([^\"]*)\"")
_FUTURE = re.compile(r"<(?:\w+:)?futureMetadata\b[^>]*\bname\s*=\s*\"([^\"]*)\"[^>]*>"
                     r"(.*?)</(?:\w+:)?futureMetadata>", re.S)
_BK = re.compile(r"<(?:\w+:)?bk\b[^>]*>(.*?)</(?:\w+:)?bk>", re.S)
_RC = re.compile(r"<(?:\w+:)?rc\b[^>]*\bt\s*=\s*\"(\d+)\"[^>]*\bv\s*=\s*\"(\d+)\"")
_CELL_META = re.compile(r"<(?:\w+:)?cellMetadata\b[^>]*>(.*?)</(?:\w+:)?cellMetadata>", re.S)
_DYNAMIC = re.compile(r"\bfDynamic\s*=\s*\"(?:1|true)\"")
_CM = re.compile(r"\bcm\s*=\s*[\"'](\d+)[\"']")
_ANCHOR = re.compile(r"(?<![\w.])_xlfn\.ANCHORARRAY\(\s*((?:(?:'(?:[^']|'')+'|[^\W\d][\w.]*)!)?"
                     r"\$?[A-Z]{1,3}\$?\d+)\s*\)", re.I)
#: ``_xlfn.ANCHORARRAY(Name)``: a defined name (not a cell reference) as the argument
_ANCHOR_NAME = re.compile(r"(?<![\w.])_xlfn\.ANCHORARRAY\(\s*([A-Za-z_\\][\w.]*)\s*\)", re.I)
#: an ``_xlfn.ANCHORARRAY(...)`` left as it is, and its argument
_LEFT = re.compile(r"(?<![\w.])_xlfn\.ANCHORARRAY\(\s*([^()]*?)\s*\)", re.I)
#: a defined name's text that is one cell of a sheet, ``'Sheet 1'!$A$1`` or ``Sheet1!A1``
_NAMED_CELL = re.compile(r"=?\s*((?:'(?:[^']|'')+'|[^\W\d][\w.]*)!\$?[A-Z]{1,3}\$?\d+)\s*$", re.I)


def dynamic_records(metadata_xml: str | None) -> frozenset[int]:
    """The ``cm`` values (1 for the first ``cellMetadata`` record) that mark a dynamic
    array formula: records whose ``rc`` names the ``XLDAPR`` type and a
    ``futureMetadata`` entry with ``fDynamic="1"``."""
    if not metadata_xml or "XLDAPR" not in metadata_xml:
        return frozenset()
    types = _TYPE.findall(metadata_xml)  # rc's t: 1 for the first
    dynamic = {}
    for m in _FUTURE.finditer(metadata_xml):
        dynamic[m.group(1)] = [bool(_DYNAMIC.search(b)) for b in _BK.findall(m.group(2))]
    cells = _CELL_META.search(metadata_xml)
    out = set()
    for n, bk in enumerate(_BK.findall(cells.group(1)) if cells else (), start=1):
        for t, v in _RC.findall(bk):
            t, v = int(t), int(v)
            name = types[t - 1] if 0 < t <= len(types) else None
            flags = dynamic.get(name, [])
            if name == "XLDAPR" and v < len(flags) and flags[v]:
                out.add(n)
    return frozenset(out)


def is_dynamic(cell_attrs: str, records: frozenset[int]) -> bool:
    """Whether a ``<c>`` element's attributes mark it a dynamic array formula's anchor."""
    m = _CM.search(cell_attrs) if "cm" in cell_attrs else None
    return bool(m) and int(m.group(1)) in records


def anchor_arrays(wb) -> None:
    """Each ``_xlfn.ANCHORARRAY(A1)`` of the workbook's formulas written as the range of
    the dynamic array anchored at ``A1`` (its sheet as written), where there is one."""
    for node in wb.nodes:
        if node.text and "ANCHORARRAY" in node.text.upper():
            node.text = ft.change_outside_strings(
                node.text, lambda part, n=node: _ANCHOR_NAME.sub(
                    lambda m: _named(wb, n, m), _ANCHOR.sub(lambda m: _range(wb, n, m), part)))
            left = _LEFT.search(ft.outside_strings(node.text))
            if left and not node.let_refused:
                node.let_refused = (
                    f"the spill reference {left.group(1)}# (saved as "
                    f"_xlfn.ANCHORARRAY({left.group(1)})) to what is not a cell anchoring a "
                    "dynamic array Excel saved (nor a defined name of one): Microsoft's page on "
                    "the spilled range operator does not say what # gives there, so napkin does "
                    "not compute it (a # on the cell of a spilling formula is computed)")


def _named(wb, node, m) -> str:
    """``_xlfn.ANCHORARRAY(Name)`` (``Name#``) as the spill range anchored at the cell the
    defined name ``Name`` refers to (the name of the formula's sheet first, then the
    workbook's); as it is where the name is not one cell anchoring a dynamic array (a
    cell reference such as ``E33`` is left to ``_ANCHOR``)."""
    name = m.group(1)
    if re.fullmatch(r"\$?[A-Z]{1,3}\$?\d+", name, re.I):
        return m.group(0)
    found = {dn.local_sheet: wb.alias(ft.normalize_formula(dn.text)) for dn in wb.book.names
             if dn.name.upper() == name.upper() and dn.local_sheet in (node.sheet, None)}
    text = found.get(node.sheet, found.get(None))
    cell = _NAMED_CELL.match(text) if text else None
    if cell is None:
        return m.group(0)
    out = _ANCHOR.sub(lambda a: _range(wb, node, a), f"_xlfn.ANCHORARRAY({cell.group(1)})")
    return m.group(0) if "ANCHORARRAY" in out.upper() else out


def _range(wb, node, m) -> str:
    ref = m.group(1)
    sheet_name, _, cell = ref.rpartition("!")
    name = sheet_name[1:-1].replace("''", "'") if sheet_name.startswith("'") else sheet_name
    idx = wb.sheet_index(name, node.sheet)
    if idx is None:
        return m.group(0)
    try:
        r, c, _, _ = xv.parse_area(cell.replace("$", ""))
    except ValueError:
        return m.group(0)
    anchor = wb.sheets[idx].formula_at.get((r, c))
    if anchor is None or not anchor.dynamic or (anchor.r, anchor.c) != (r, c):
        return m.group(0)
    r1, c1, r2, c2 = anchor.spill
    return (f"{sheet_name}!" if sheet_name else "") + \
        f"${xv.num2col(c1)}${r1}:${xv.num2col(c2)}${r2}"


def mismatched(wb) -> list[tuple[object, str]]:
    """``[(node, reason)]`` for the dynamic array formulas whose result is not the size
    of the range Excel saved them spilled into."""
    out = []
    for n in wb.nodes:
        if not n.dynamic or n.keep is not None or n.spill is None:
            continue
        r1, c1, r2, c2 = n.spill
        arr = as_2d(n.value)
        got = (1, 1) if arr is None else arr.shape
        if got != (r2 - r1 + 1, c2 - c1 + 1):
            out.append((n, f"a dynamic array formula whose result ({got[0]}x{got[1]}) is "
                           f"not the size of the range Excel saved it in ({r2 - r1 + 1}x"
                           f"{c2 - c1 + 1}): Excel would spill it elsewhere, or give #SPILL! "
                           "where that range holds values"))
    return out


#: the error values Excel saves as ``#VALUE!`` with a rich value naming them
RICH_ERRORS = frozenset({"#CALC!", "#SPILL!"})


def rich_errors(wb, skip=()) -> list[tuple[object, str]]:
    """``[(node, reason)]`` for the formula cells (not kept, not in ``skip``) whose value
    is ``#CALC!`` or ``#SPILL!``: Excel saves those as ``#VALUE!`` with a rich value
    napkin does not write."""
    out = []
    for n in wb.nodes:
        if n.keep is not None or n.is_name or n in skip:
            continue
        sheet = wb.sheets[n.sheet]
        codes = {str(sheet.values.get(p)) for p in n.positions()} & RICH_ERRORS
        if codes:
            out.append((n, f"{min(codes)} in a cell (Excel saves it as #VALUE! with a rich "
                           "value naming the error, which napkin does not write)"))
    return out
