"""Circular references: the order of computing with its cycles found whole, and the one
kind of cycle strict mode computes, a fixed point Excel saved.

Finance models close loops on purpose (interest on the average debt, a cash sweep) and
are saved with iterative calculation on (``<calcPr iterate="1" iterateCount="100"
iterateDelta="0.001">`` in ``xl/workbook.xml``). Excel then recomputes the cells of a
loop until no value changes by more than ``iterateDelta`` (or ``iterateCount`` times)
and saves where it stopped; the order it computes them in is not documented, so napkin
does not iterate. It checks instead that the values Excel saved are a **fixed point**
(``compute_cycle``): each cell of the cycle (a strongly connected component of the
references written in formulas) is computed once, reading the saved values of the
cycle's cells and napkin's own values of every other cell; when every result is its
saved value (``addin.engine.kept.same``: numbers to 1e-9 relative, text, logical values
and errors exactly), the saved values solve the cycle's equations with the inputs napkin
computed, the cycle's cells take them, and the cells downstream are computed from them.
How far short of an exact fixed point they are (Excel stops once no value changes by
``iterateDelta``, and the cells it reads from a loop may hold an earlier round's values)
is noted (``context.note_noise``): a sum downstream that cancels within it, or a
comparison of two numbers within it, is refused (``addin.formula.cancellation``).
Otherwise (or a cell of the cycle with no saved value, or a workbook saying its values
may be stale) the cells of the cycle give ``#VALUE!`` "circular reference", as before:
strict mode refuses them, or keeps their saved values, and those of the formulas reading
them, where that is safe (``addin.engine.kept``).

**Iterative calculation off** (no ``iterate="1"``: ``checks_saved``). Excel does not
iterate: once it has warned of the circular reference it "displays either a zero or the
last calculated value in the cell" (Microsoft Support, below), and that is the value it
saves. The same check is made. Saved values that are a fixed point are what Excel shows
for the file as saved: computed once more from them, in any order, each cell of the cycle
gives its saved value again, so Excel shows the same after a pass over the cycle or
without one; the cells downstream are computed from them. Saved values that are not (the
0 Excel shows when a cycle is first made, or an input changed since) are refused, or kept
(``NOT_FIXED_OFF``, ``why_refused`` says what would let them compute). The corpora's
examples: a row averaging itself, a scenario's value remembered by ``IF(switch, source,
itself)``, ``ROW`` of the cell itself (fixed points of many), a debt schedule's loop
saved at its (likely one) fixed point, iterated there before the workbook was saved with
iteration off (docs/fidelity.md, "Circular references saved without iterative
calculation").

An input changed after Excel saved, and read by the cycle, makes the saved values no
fixed point of the new equations, and is refused there. What the check cannot see: a
cycle with more than one fixed point (``A1=IF(B1>0,A1,5)`` is one for any A1 while B1
is above 0) keeps the one Excel saved, which Excel too would keep when it iterates
from the saved values.

References
----------
Microsoft Support, "Remove or allow a circular reference" (iterative calculation: "Maximum
Iterations", "Maximum Change"; without it, "Excel displays either a zero or the last
calculated value in the cell"). Microsoft Office Online, "Allow or correct a circular
reference" (Excel 2003),
http://office.microsoft.com/en-us/excel-help/allow-or-correct-a-circular-reference-HP005200285.aspx.
ECMA-376 Part 1, 18.2.2 calcPr (``iterate``,
``iterateCount``, ``iterateDelta``).
"""

from __future__ import annotations

import re

from addin.engine.executor import norm_scalar
from addin.engine.kept import asks_recalculation, same
from addin.formula import context

#: the cause of refusing a cycle whose saved values were checked (``compute_cycle``)
NOT_FIXED = "a circular reference whose saved values are not a fixed point"
#: the same, in a workbook saved with iterative calculation off
NOT_FIXED_OFF = ("a circular reference whose saved values are not a fixed point, "
                 "iterative calculation off")

#: a cycle's saved values this near (relative) to what their formulas give from them are
#: its fixed point but for the rounding of the last few bits (16 units in the last place):
#: farther, Excel stopped iterating short of it (``context.note_noise``)
ROUNDING = 2.0 ** -48

_CALCPR = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?calcPr(?=[\s/>])([^>]*)>")
_ITERATE = re.compile(r"""\siterate\s*=\s*["'](?:1|true)["']""")


def checks_saved(workbook_xml: str) -> bool:
    """Whether the values Excel saved in a cycle's cells are checked for a fixed point
    (``compute_cycle``): unless the workbook says they may be stale
    (``addin.engine.kept.asks_recalculation``), with iterative calculation on or off."""
    return not asks_recalculation(workbook_xml)


def iterates(workbook_xml: str) -> bool:
    """Whether a workbook was saved with iterative calculation on (``<calcPr
    iterate="1">``) and does not say its values may be stale
    (``addin.engine.kept.asks_recalculation``)."""
    m = _CALCPR.search(workbook_xml or "")
    return bool(m and _ITERATE.search(m.group(1))) and not asks_recalculation(workbook_xml)


def order(nodes) -> tuple[list, set, list[tuple]]:
    """The nodes in an order of computing (each after the nodes it reads, but within a
    cycle), the nodes on a cycle, and the cycles: the strongly connected components of
    more than one node or of one reading itself (Tarjan's algorithm, without recursion).
    Each cycle's nodes come together, after every node outside it that they read.

    References
    ----------
    R. Tarjan, "Depth-first search and linear graph algorithms", SIAM Journal on
    Computing 1 (2), 1972.
    """
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    out: list = []
    cycles: list[tuple] = []
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(root.deps))]
        while work:
            node, it = work[-1]
            for d in it:
                if d not in index:
                    index[d] = low[d] = len(index)
                    stack.append(d)
                    on_stack.add(d)
                    work.append((d, iter(d.deps)))
                    break
                if d in on_stack and index[d] < low[node]:
                    low[node] = index[d]
            else:
                work.pop()
                if work and low[node] < low[work[-1][0]]:
                    low[work[-1][0]] = low[node]
                if low[node] != index[node]:
                    continue
                component = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    component.append(x)
                    if x is node:
                        break
                component.reverse()
                if len(component) > 1 or any(d is node for d in node.deps):
                    cycles.append(tuple(component))
                out.extend(component)
    on_cycle = {n for c in cycles for n in c}
    return out, on_cycle, cycles


def checkable(wb, members) -> bool:
    """Whether a cycle's saved values can be checked: every member a cell whose formula
    napkin compiled and computes, with a value Excel saved in each of its cells."""
    for m in members:
        if m.is_name or m.keep is not None or m.error is not None or m.prog is None:
            return False
        cached = wb.sheets[m.sheet].cached
        if any(p not in cached for p in m.positions()):
            return False
    return True


def compute_cycle(ev, members: tuple) -> bool | None:
    """Compute the cells of one cycle (``members``) in evaluation ``ev``
    (``addin.engine.evaluator.Evaluation``): the saved values when they are a fixed
    point (see the module; ``ev.check_cycles`` and ``checkable``), else ``#VALUE!``
    "circular reference" in each (or the value kept, for a cell strict mode keeps).
    Whether the saved values were taken (None: not checked)."""
    if not (ev.check_cycles and checkable(ev.wb, members)):
        for m in members:
            ev.compute_one(m, cyclic=True)
        return None
    for m in members:  # the values Excel saved, read by the cycle's formulas
        ev.keep_saved(m)
    ev.demand.seeded.update(members)
    got = {}
    try:
        for m in members:
            ev.compute_one(m)
            values = ev.wb.sheets[m.sheet].values
            got[m] = [values.get(p) for p in m.positions()], m.msgs, m.value
            ev.keep_saved(m)  # the saved values again, for the next one to read
    finally:
        ev.demand.seeded.difference_update(members)
        ev.forget_areas()  # (areas read while the saved values were in place)
    refused = getattr(context.STATE, "refused_in", None) or {}
    checked = not any(m in refused or any(msg and msg.startswith(context.CANNOT)
                                          for msg in got[m][1].values()) for m in members)
    fixed = checked and all(same(ev.wb.sheets[m.sheet].cached[p], v)
                            for m in members
                            for p, v in zip(m.positions(), got[m][0], strict=True))
    if not fixed:  # (a refusal met on the way: not checked, the cycle refused as before)
        for m in members:
            ev.compute_one(m, cyclic=True)
        return False if checked else None
    for m in members:  # (its value as computed: a dynamic array's, of its size)
        m.msgs, m.value = got[m][1], got[m][2]
    gap = max((relative_gap(ev.wb.sheets[m.sheet].cached[p], v) for m in members
               for p, v in zip(m.positions(), got[m][0], strict=True)), default=0.0)
    if gap > ROUNDING:
        context.note_noise(gap)
    return True


def relative_gap(saved, ours) -> float:
    """How far, relative to the larger, a number computed from a cycle's saved values is
    from the one Excel saved in its cell (0 for equal ones and for other values)."""
    saved, ours = norm_scalar(saved), norm_scalar(ours)
    if isinstance(saved, int | float) and isinstance(ours, int | float) and \
            not isinstance(saved, bool) and not isinstance(ours, bool) and saved != ours:
        return abs(saved - ours) / max(abs(saved), abs(ours))
    return 0.0


def why_refused(reasons) -> str:
    """Why strict mode does not compute the cells of a cycle, given their reasons."""
    if NOT_FIXED_OFF in reasons:
        return ("the workbook was saved with iterative calculation off, and the values "
                "Excel saved in them are not a fixed point of their formulas to 1e-9 "
                "(without iterating, Excel shows 0 or the last value it computed there; "
                "or an input changed since Excel saved); napkin computes a cycle only from "
                "saved values that solve it: let Excel iterate it (File > Options > "
                "Formulas > Enable iterative calculation, with a Maximum Change small "
                "enough for its values to settle to 1e-9) and save the workbook")
    if NOT_FIXED in reasons:
        return ("the workbook iterates (Excel's iterative calculation), and the values "
                "Excel saved in them are not a fixed point of their formulas to 1e-9 (an "
                "input changed since Excel saved, or Excel stopped iterating before the "
                "values settled)")
    return ("napkin does not compute formulas that depend on their own value (Excel's "
            "iterative calculation)")


def with_loops(ev) -> bool:
    """Once, make the references the latest run made while computing inputs of the
    formulas that made them, and find the order and the cycles again
    (``ev.replanned``); whether it did (then compute again). In a workbook that iterates,
    the loops it closed (``addin.engine.demand.Demand.loops``: formula -> the formula
    its OFFSET or INDIRECT reached, which reads it): they are then cycles whose saved
    values are checked. When a chain of such references went past
    ``demand.MAX_DEPTH``, every reference onto a formula not computed yet
    (``Demand.reached``): its formulas are then computed in order, not one inside
    another."""
    dm = ev.demand
    edges = (dm.loops if ev.iterate else []) + (dm.reached if dm.too_deep else [])
    if not edges or ev.replanned is not None:
        return False
    for reader, reached in edges:
        if all(d is not reached for d in reader.deps):
            reader.deps.append(reached)
    ev.wb.readers_map = None  # (kept.readers_of: made again with these dependencies)
    for record in ("refused_in", "read_kept"):  # (what the run found: found again)
        found = getattr(context.STATE, record, None)
        if found:
            found.clear()
    ev.replanned = ordered(ev, list(ev.wb.name_nodes.values()) + ev.wb.nodes)
    return True


def ordered(ev, nodes) -> list:
    """``order(nodes)``, its cycles set in evaluation ``ev`` (``ev.cyclic``: the
    formulas on one; ``ev.cycle_of``: formula -> its cycle)."""
    out, ev.cyclic, found = order(nodes)
    ev.cycle_of = {n: c for c in found for n in c}
    return out
