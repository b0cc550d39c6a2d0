"""The value Excel saved in a cell computing IRR or RATE that another formula reads, taken
where it is checked, as a cycle's saved values are (``addin.engine.cycles``).

Excel finds IRR's and RATE's rate by an iteration that stops short of the root: the
values it saved differ from the exact root by up to 3.7e-13 (``addin/formula/
fx_excel_rates.py``), napkin's is the root polished to its last digits. The cell itself
agrees to the corpus's 1e-9, but a cell computing from it can cancel down to those last
digits: the net present value at the IRR, a check that it is 0, differs from Excel's
residue in every digit. So strict mode refused a cell calling IRR or RATE that another
formula reads (``addin.engine.support.iterated_and_read``).

Excel's downstream cells were computed from the value it saved in that cell. napkin takes
that value (``take_saved``), so that they are computed from it too, when all of these
hold, and refuses the cell as before otherwise:

1. napkin computed the cell without a refusal (the rules of ``fx_excel_rates``: one rate,
   reached by Excel's iteration, not near 0) and its value equals the saved one to the
   corpus's 1e-9 relative (``addin.engine.kept.same``): the saved value is the root of
   the cash flows the cell reads, as a cycle's saved values must be its fixed point;
2. every formula cell it reads (through defined names too) holds exactly the value Excel
   saved there, and it reaches none through OFFSET or INDIRECT (cells its dependencies do
   not list): the cash flows Excel iterated on are the ones napkin reads, so the saved
   rate is Excel's rate for them to the last digit, and a downstream cell evaluating
   the net present value of those flows at it gives Excel's residue;
3. the workbook does not say its values may be stale (``addin.engine.kept.
   asks_recalculation``), the cell is one value (not an array formula) and not on a
   cycle, and it keeps no value of its own (``Node.keep``).

Then nothing downstream can differ from Excel by more than a cell computing from any
other computed value: the rate it reads is Excel's own, bit for bit, and its other inputs
are napkin's computed values, under strict mode's usual rules (a ``+`` or ``-`` that
cancels refused, ``addin.formula.cancellation``). What it cannot see: a workbook saved
after an input changed by less than 1e-9 of the rate's size, without recalculating, and
not saying so in ``<calcPr>`` (then Excel too shows the saved rate until it recalculates).

References
----------
Microsoft Support, "IRR function", "RATE function" (20 tries; 0.00001 percent,
0.0000001). The second held-out part's Boeing model ('3 Statement'!H24:
``IF($E$7="Base Case",RATE(4,0,-C$51,G$51),...)``, read by I24 and H51).
"""

from __future__ import annotations

import re

from addin.engine.executor import norm_scalar
from addin.engine.kept import asks_recalculation, same
from addin.formula import context
from addin.formula import formula_text as ft

#: a call of IRR or RATE in a formula's text
ITERATED_CALL = re.compile(r"(?<![\w.])(IRR|RATE)\s*\(", re.I)
#: references made while computing: cells they reach are not in a formula's dependencies


def calling(nodes) -> set:
    """The formulas among ``nodes`` whose text calls IRR or RATE."""
    return {n for n in nodes if not n.is_name and n.text
            and ITERATED_CALL.search(ft.outside_strings(n.text))}


def taken(wb) -> set:
    """The formulas whose saved IRR or RATE value was taken (``take_saved``)."""
    got = getattr(wb, "saved_roots", None)
    if got is None:
        got = wb.saved_roots = set()
    return got


def _read(wb) -> set:
    """The ids of the formulas another formula (or a defined name) reads."""
    got = getattr(wb, "read_ids", None)
    if got is None:
        got = wb.read_ids = {id(d) for n in wb.nodes + list(wb.name_nodes.values())
                             for d in n.deps}
    return got


def inputs_as_saved(wb, node, within: float = 0.0) -> bool:
    """Whether every formula cell ``node`` reads, through defined names too, holds exactly
    the value Excel saved in it (a number within ``within`` of it, relative, where that is
    given: last digits apart, not an input changed)."""
    seen, todo = set(), list(node.deps)
    while todo:
        d = todo.pop()
        if id(d) in seen:
            continue
        seen.add(id(d))
        if d.is_name:
            if ft.makes_references(d.text):
                return False
            todo.extend(d.deps)
            continue
        sheet = wb.sheets[d.sheet]
        for p in d.positions():
            if p not in sheet.cached or not _identical(sheet.cached[p], sheet.values.get(p),
                                                       within):
                return False
    return True


def _identical(saved, ours, within: float = 0.0) -> bool:
    """Whether ``ours`` is the value Excel saved: the same number to the last bit (a
    whole number saved as ``-1220`` is the double -1220.0: Excel's numbers are all
    doubles; or within ``within`` of it, relative), or the same value of another kind."""
    saved, ours = norm_scalar(saved), norm_scalar(ours)
    if _number(saved) and _number(ours):
        a, b = float(saved), float(ours)
        return a == b or abs(a - b) <= within * max(abs(a), abs(b))
    return type(saved) is type(ours) and (saved == ours or str(saved) == str(ours))


def _number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def not_a_number(wb, node) -> bool:
    """Whether ``node`` (one cell, not an array formula) holds a value that is not a
    number: an error value (IRR given one gives it back, ``fx_excel_rates``), a text
    (``IF(..., IRR(...), "")``) or a logical value. No digit of an iteration reaches a
    formula reading it, so that formula is not refused for reading it
    (``addin.engine.support.iterated_and_read``); the cell's own value is checked by
    strict mode's usual rules."""
    if node.is_name or node.spill is not None:
        return False
    got = norm_scalar(wb.sheets[node.sheet].values.get((node.r, node.c)))
    return isinstance(got, str | bool)  # (an error value is a str)


def take_saved(ev, node) -> None:
    """After napkin computed ``node`` (one cell, its formula calling IRR or RATE:
    ``calling``): take the value Excel saved there when another formula reads it and the
    module's rules hold; else leave napkin's value (``addin.engine.support.iterated_and_read`` then
    refuses it, when read)."""
    wb = ev.wb
    got = taken(wb)
    got.discard(node)
    if id(node) not in _read(wb) or ft.makes_references(node.text):
        return
    sheet = wb.sheets[node.sheet]
    pos = (node.r, node.c)
    ours = sheet.values.get(pos)
    refused = getattr(context.STATE, "refused_in", None) or {}
    forms = getattr(context.STATE, "form_refusals", None) or {}
    if (node.spill is not None or node.keep is not None or node in ev.cyclic
            or node in refused or node in forms or pos not in sheet.cached
            or any(msg and msg.startswith(context.CANNOT) for msg in node.msgs.values())
            or asks_recalculation(getattr(wb, "workbook_xml", ""))):
        return
    saved = norm_scalar(sheet.cached[pos])
    if not (isinstance(saved, int | float) and not isinstance(saved, bool)
            and same(saved, ours) and inputs_as_saved(wb, node)):
        return
    sheet.values[pos] = node.value = saved
    got.add(node)
