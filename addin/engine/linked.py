"""Formulas that read a cell holding a linked data type otherwise than through ``_FV``.

Excel saves a cell holding a linked data type (Stocks, Geography...) or another rich value
(an image in a cell) as ``#VALUE!`` with a ``vm`` naming the rich value
(``addin.ooxml.rich_values``). napkin reads the fields of a linked data type through
``_FV`` (FIELDVALUE, ``addin.excel.linked_data``); any other reference to such a cell reads
the ``#VALUE!`` stand-in, which is not what Excel reads there: ``ISERROR(A2)``, or ``SUM``
over a range holding the cell, would give a value Excel does not. ``readers`` refuses
those formulas, but one whose every reference to such a cell is ``_FV``'s first argument.
``=A2`` alone is refused too (its cell would hold the data type, which a formula reading
it, not refused here, would read as the stand-in); a defined name naming the cell counts
as a reference to it (``_FV(stock,"Price")`` computed, ``ISERROR(stock)`` refused).

References
----------
Microsoft Support, "FIELDVALUE function"; [MS-XLSX] 2.6.175 CT_RichValue.
"""

from __future__ import annotations

from addin.formula import walk
from addin.ooxml import a1

#: the functions whose first argument reads a linked data type's fields
FIELD_FUNCTIONS = frozenset({"_FV", "FIELDVALUE"})
#: functions whose first argument Excel's data service reads, the data type itself
#: (STOCKHISTORY's stock: ``addin.excel.stock_history``; napkin reads its place only)
SERVICE_FUNCTIONS = frozenset({"STOCKHISTORY", "_XLFN.STOCKHISTORY"})


def stand_ins(wb) -> dict[int, set]:
    """``{sheet index: {(r, c)}}`` of the value cells holding a rich value saved as the
    ``#VALUE!`` stand-in."""
    rich = getattr(wb, "rich", None)
    out: dict[int, set] = {}
    if rich is None:
        return out
    for s in wb.sheets:
        for pos, vm in s.rich.items():
            if rich.of_vm(vm) is not None and str(s.values.get(pos)) == "#VALUE!":
                out.setdefault(s.index, set()).add(pos)
    return out


def _covers(part, cells: dict[int, set]) -> bool:
    idx, r1, c1, r2, c2 = part
    return any(r1 <= r <= r2 and c1 <= c <= c2 for r, c in cells.get(idx, ()))


def readers(wb, skip=()) -> list[tuple[object, str]]:
    """``[(node, reason)]`` for the formulas (not kept, not names, not in ``skip``) that
    read a cell of ``stand_ins`` otherwise than as ``_FV``'s first argument."""
    cells = stand_ins(wb)
    if not cells:
        return []
    out = []
    for n in wb.nodes:
        if n.keep is not None or n.is_name or n in skip:
            continue
        if not any(kind == "rng" and any(_covers(p, cells) for p in arg)
                   for kind, arg in n.specs):
            continue
        if not _only_through_fields(wb, n, cells):
            out.append((n, "a cell holding a linked data type (or another rich value) read "
                           "otherwise than by _FV() (FIELDVALUE): napkin would read the "
                           "#VALUE! Excel saves in its place, not the value Excel reads"))
    return out


def _only_through_fields(wb, node, cells: dict[int, set]) -> bool:
    """Whether each reference of ``node``'s formula that may reach a cell of ``cells``
    is the first argument of ``_FV``: the others resolved (a cell or range of a sheet,
    shifted from a shared formula's origin), none covering one (a name, a table or any
    other reference not resolved counts as reaching one)."""
    try:
        items = walk.parse(node.text or "")
    except Exception:  # (a formula the tokenizer cannot read: refused)
        return False
    firsts = set()
    for group in _groups(items):
        if str(group.name).upper() in FIELD_FUNCTIONS | SERVICE_FUNCTIONS:
            args = group.args()
            if args and len(args[0]) == 1:
                firsts.add(id(args[0][0]))
    by_name = {s.fname.upper(): s.index for s in wb.sheets} | \
        {s.name.upper(): s.index for s in wb.sheets}
    origin = node.origin or (node.sheet, node.r, node.c)
    dr, dc = node.r - origin[1], node.c - origin[2]
    for token, _around in walk.tokens(items):
        if not walk.is_reference(token) or id(token) in firsts:
            continue
        part = _part(token.value, node.sheet, by_name, dr, dc)
        if part is None or _covers(part, cells):
            return False
    return True


def _groups(items):
    for x in items:
        if isinstance(x, walk.Group):
            yield x
            yield from _groups(x.children)


def _part(text: str, sheet: int, by_name: dict, dr: int, dc: int):
    """``(sheet index, r1, c1, r2, c2)`` of a reference's text, relative rows and columns
    shifted by ``dr``, ``dc``; None where it is not a plain cell or range of a sheet."""
    where, bang, ref = text.rpartition("!")
    if bang:
        name = where.strip("'").replace("''", "'")
        if name.upper() not in by_name:
            return None
        sheet = by_name[name.upper()]
    corners = []
    for corner in ref.split(":"):
        bare = corner.replace("$", "")
        try:
            r, c = a1.parse_cell_ref(bare)
        except ValueError:
            return None
        col_fixed = corner.startswith("$")
        row_fixed = "$" in corner.lstrip("$")
        corners.append((r if row_fixed else r + dr, c if col_fixed else c + dc))
    if len(corners) not in (1, 2):
        return None
    (r1, c1), (r2, c2) = corners[0], corners[-1]
    return sheet, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)
