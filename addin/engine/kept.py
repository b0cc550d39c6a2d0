"""Strict mode's per-cell refusal: the cells napkin does not compute keep the values Excel
saved, and so do the formulas reading them: no value napkin computes depends on them.

``napkin calc`` (strict) used to refuse a whole workbook for one cell it cannot compute
as Excel does (a function not checked, a form of argument not checked, a link to another
workbook, a circular reference...). Now such a cell keeps the value Excel saved in it, and
the workbook is computed, when every one of these holds (``check``):

1. **Nothing computed reads it.** Every formula that reads a kept cell, through a
   reference written in it or one OFFSET or INDIRECT makes while computing, is kept too:
   for a reason of its own, or for reading it (``downstream``, ``READS_KEPT``; until
   December 2026 such a reader refused the workbook). No defined name a formula napkin
   computes reads is kept (a name has no saved value; one read by no formula, or by
   formulas kept only, in a workbook without INDIRECT, which could name it by its text,
   is left uncomputed and said so; the cells it reads are checked as by rule 3). So the
   dependency closure of every kept cell is kept: no value napkin writes is computed
   from a value napkin did not compute. A formula kept for reading a kept cell is first
   computed from the values kept, Excel's: it must give the value Excel saved in it, else
   an input it reads changed since (a constant, which no rule below can see) and the
   workbook is refused.
2. **Excel saved a value in it** (every cell of an array formula): a cell with none has
   nothing to keep.
3. **Its inputs are the ones Excel computed it from.** Every formula cell it reads
   directly that napkin computes gives the value Excel saved there (numbers to 1e-9
   relative), so its inputs did not change since Excel computed it. This holds for the
   cells kept for reading a kept cell too: each of their other inputs is checked.
4. **The workbook does not ask to be recalculated**: no ``<calcPr fullCalcOnLoad="1">``
   (what a program writes when it changed cells without computing them: the values saved
   may be stale) and not manual calculation saved without computing
   (``calcMode="manual"`` with ``calcOnSave="0"``).

Else the workbook is refused, as before, with the refusal sentence of the cause and the
rule the keeping would break. The kept cells are listed in one sentence per cause
(``notes``), and ``napkin calc`` exits with status 4 (computed, some cells Excel's).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from addin.engine.boot import ready
from addin.engine.executor import norm_scalar
from addin.formula import context
from addin.formula import formula_text as ft
from addin.ooxml.guard import WorkbookError

#: how close a computed input must be to the value Excel saved (relative; absolute near 0)
REL, ABS = 1e-9, 1e-12

#: why a cell a kept cell reads computes otherwise than Excel saved (``check``, rule 3)
_CHANGED = "its inputs changed since Excel computed it"
_MOVES = ("it calls TODAY, NOW or RAND, or reads a cell that does, whose value Excel saved "
          "is that of the moment it computed: the cell kept would be as stale")

#: a formula that may read a defined name by its text (``check``)
_INDIRECT = re.compile(r"\bINDIRECT\s*\(", re.IGNORECASE)
_CALCPR = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?calcPr(?=[\s/>])([^>]*)>")


class Kept:
    """The cells strict mode keeps Excel's values in, each with its reason and the
    sentence that refuses the workbook for it (``addin.engine.api``'s ``_refuse_or_keep``
    adds them while computing; ``check`` decides at the end)."""

    def __init__(self):
        self.found: list[tuple[object, str, Callable[[list], str]]] = []
        self.nodes: set = set()  # (those of ``found``)
        self.inconsistent: list = []  # readers whose saved value their inputs do not give

    def add(self, found: list, refusal: Callable[[list], str]) -> list:
        """Keep the cells of ``found`` (``[(node, reason)]``) not kept yet; the new ones.
        (A formula reading a kept defined name may already keep Excel's value,
        ``readers_of_kept_names``; it is added here all the same, with its reason.)"""
        new = []
        for node, reason in found:
            if node not in self.nodes:
                self.nodes.add(node)
                node.keep = reason
                self.found.append((node, reason, refusal))
                new.append((node, reason))
        return new

    def refuse(self, node, why: str) -> None:
        """Refuse the workbook for kept ``node``: the sentence of its cause (naming every
        cell found for it), then ``why`` Excel's value cannot be kept."""
        refusal = next((f for n, _, f in self.found if n is node), None)
        said = refusal([(n, r) for n, r, f in self.found if f is refusal]) \
            if refusal is not None else f"napkin cannot compute {node.label} ({node.keep})"
        raise WorkbookError(f"{said}. Nor can it keep the value Excel saved there "
                            f"(docs/fidelity.md, \"Cells kept\"): {why}")


#: strict mode's sentence for a workbook set to "precision as displayed"
ROUNDS_TO_DISPLAY = (
    "{name} is set to \"Set precision as displayed\": Excel rounds each value it computes to "
    "its cell's number format, which napkin does not; turn that option off in Excel (File > "
    "Options > Advanced) and save, or run with --lenient to compute at full precision")


def rounds_to_display(workbook_xml: str) -> bool:
    """Whether a workbook is set to "precision as displayed" (``<calcPr
    fullPrecision="0">``): Excel then stores every value it computes rounded to the
    precision its cell's format shows.

    References
    ----------
    ISO/IEC 29500-1, 18.2.2 calcPr, its attribute fullPrecision (Full Precision
    Calculation); [MS-XLS] 2.4.35 CalcPrecision, the same flag in a .xls: "If the value
    is 0, the precision as displayed mode is selected".
    """
    m = _CALCPR.search(workbook_xml or "")
    return bool(m and re.search(r"""\sfullPrecision\s*=\s*["'](?:0|false)["']""", m.group(1)))


def asks_recalculation(workbook_xml: str) -> str | None:
    """Why the values a workbook holds may be stale, from its ``<calcPr>``: it asks to be
    recalculated when opened, or was saved in manual calculation without computing;
    None when neither."""
    m = _CALCPR.search(workbook_xml or "")
    attrs = m.group(1) if m else ""

    def attr(name):
        a = re.search(rf'\s{name}\s*=\s*["\']([^"\']*)["\']', attrs)
        return a.group(1) if a else None

    if attr("fullCalcOnLoad") in ("1", "true"):
        return ("the workbook asks to be recalculated when opened (fullCalcOnLoad), so "
                "the values saved in it may be stale")
    if attr("calcMode") == "manual" and attr("calcOnSave") in ("0", "false"):
        return ("the workbook was saved in manual calculation without computing, so the "
                "values saved in it may be stale")
    return None


def values_current(wb) -> bool:
    """Whether the values workbook ``wb`` holds are those Excel computed for its formulas
    as saved (``asks_recalculation`` finds no reason to doubt it)."""
    return asks_recalculation(getattr(wb, "workbook_xml", "")) is None


def readers_of_kept_names(wb, order) -> None:
    """Keep (``Node.keep``) every formula of ``order`` that reads a defined name that is
    kept, with that name's reason (nothing to do when no name is kept)."""
    if not any(n.keep is not None for n in wb.name_nodes.values()):
        return
    for node in order:
        if node.keep is None and any(d.keep is not None and d.is_name for d in node.deps):
            node.keep = next(d.keep for d in node.deps if d.keep is not None and d.is_name)


def same(saved, ours) -> bool:
    """Whether computed value ``ours`` is the value Excel saved (numbers to ``REL``)."""
    saved, ours = norm_scalar(saved), norm_scalar(ours)
    if isinstance(saved, bool) or isinstance(ours, bool):
        return type(saved) is type(ours) and saved == ours
    if isinstance(saved, int | float) and isinstance(ours, int | float):
        return math.isclose(saved, ours, rel_tol=REL, abs_tol=ABS)
    if isinstance(saved, str) or isinstance(ours, str):
        return type(saved) is type(ours) and saved == ours
    return str(saved) == str(ours)  # error values, by code


#: why a cell that reads a kept cell is kept too (``downstream``)
READS_KEPT = "it reads a cell napkin does not compute, which keeps Excel's value"


def reads_kept(found: list) -> str:
    """The sentence refusing the workbook for cells kept because they read kept ones."""
    cells = ", ".join(n.label for n, _ in found[:5])
    more = f" and {len(found) - 5} more" if len(found) > 5 else ""
    return (f"napkin cannot compute {cells}{more}: {READS_KEPT}; run with --lenient to "
            "keep the values Excel saved in those cells")


def downstream(wb, kept: Kept, read_kept: dict) -> list:
    """Every formula not kept yet that reads a kept cell, directly or through formulas
    that do (its dependencies, or ``read_kept``: a reference OFFSET or INDIRECT made),
    each with ``READS_KEPT``, in the order found: the dependency closure that keeps
    rule 1 ("nothing computed reads a kept cell") by keeping instead of refusing.

    Each reader was just computed from the values kept (Excel's); one whose value so
    computed is not the value Excel saved in it goes to ``kept.inconsistent``: an input
    it reads changed since Excel computed it, and ``check`` refuses the workbook."""
    readers = readers_of(wb)
    if read_kept:
        readers = {k: list(v) for k, v in readers.items()}
        for reader, source in read_kept.items():
            readers.setdefault(source, []).append(reader)
    todo = [node for node, _, _ in kept.found]
    seen = set(todo)
    found = []
    while todo:
        for reader in readers.get(todo.pop(), ()):
            if reader not in seen and reader not in kept.nodes:
                seen.add(reader)
                found.append((reader, READS_KEPT))
                todo.append(reader)
                if not reader.is_name and reader.keep is None and not _as_saved(wb, reader):
                    kept.inconsistent.append(reader)
    return found


def readers_of(wb) -> dict:
    """Node -> the formulas (and defined names) that read it, by their dependencies
    (made once for a workbook: its dependencies are known once planned)."""
    readers = getattr(wb, "readers_map", None)
    if readers is None:
        readers = {}
        for node in wb.nodes + list(wb.name_nodes.values()):
            for dep in node.deps:
                readers.setdefault(dep, []).append(node)
        wb.readers_map = readers
    return readers


def affected(wb, nodes) -> set:
    """``nodes`` and every formula that reads one of them, directly or through others
    (by their dependencies): what a change of their values can change, so that a
    workbook whose formulas make no reference while computing (OFFSET, INDIRECT) may be
    computed again on these alone (``addin.engine.evaluator.Evaluation.run``'s
    ``only``)."""
    readers = readers_of(wb)
    out, todo = set(nodes), list(nodes)
    while todo:
        for reader in readers.get(todo.pop(), ()):
            if reader not in out:
                out.add(reader)
                todo.append(reader)
    return out


def to_compute(wb, fresh) -> set | None:
    """The formulas a computation again after keeping ``fresh`` (nodes) must compute:
    those ``affected`` by them, where no formula makes a reference while computing (the
    others read nothing that changed); else None, every formula."""
    if any(ft.makes_references(n.text) for n in wb.nodes + list(wb.name_nodes.values())):
        return None
    return affected(wb, fresh)


def readers_kept(wb, ev, kept: Kept, read_kept: dict) -> list:
    """Keep the formulas ``downstream`` of the cells kept, and return those the workbook
    must be computed again for: none where no formula makes a reference while computing
    (OFFSET, INDIRECT), as nothing computed reads them then; their cells take Excel's
    values at once (``ev.keep_saved``), saving a computation of the workbook (within its
    work limit, ``addin.engine.budget``)."""
    new = kept.add(downstream(wb, kept, read_kept), reads_kept)
    if new and not any(ft.makes_references(n.text)
                       for n in wb.nodes + list(wb.name_nodes.values())):
        for node, _ in new:
            if not node.is_name:
                ev.keep_saved(node)
        return []
    return new


def _as_saved(wb, node) -> bool:
    """Whether napkin's value of ``node`` in each of its cells is the one Excel saved
    there (a cell with no saved value left to rule 2). An error value napkin gives says
    nothing: computed from cells kept, a formula may fail where Excel's did not for
    napkin's own reasons (the spill reference of a kept formula has no range in napkin:
    ``tune3``'s real-estate model), not because an input changed."""
    sheet, error = wb.sheets[node.sheet], ready().XlError
    return all(same(sheet.cached[p], sheet.values.get(p)) for p in node.positions()
               if p in sheet.cached and not isinstance(sheet.values.get(p), error))


def check(wb, kept: Kept, read_kept: dict,
          volatile: Callable[[], set] = frozenset) -> None:
    """Refuse the workbook (``WorkbookError``) unless every kept cell may keep the value
    Excel saved (the module's rules 1-4). ``read_kept``: node -> kept node it read
    through a reference made while computing (``context.note_read_kept``);
    ``volatile()``: the formulas calling TODAY, NOW or RAND or reading one that does
    (``addin.engine.support.volatile_nodes``), to say why a value moved."""
    if not kept.found:
        return
    everything = wb.nodes + list(wb.name_nodes.values())
    names_read = set()
    if any(node.is_name for node, _, _ in kept.found):  # (what may read a name: once)
        names_read = read_names(wb)
    for node, _, _ in kept.found:
        if node.is_name:
            if node in names_read:
                kept.refuse(node, f"{node.label} is a defined name, which has no saved "
                                  "value, and a formula napkin computes reads it")
            continue  # (read by no formula computed: left uncomputed, nothing depends on it)
        sheet = wb.sheets[node.sheet]
        missing = [p for p in node.positions() if p not in sheet.cached]
        if missing:
            kept.refuse(node, f"Excel saved no value in {node.label}")
    stale = asks_recalculation(getattr(wb, "workbook_xml", ""))
    if stale:
        kept.refuse(kept.found[0][0], stale)
    for reader in everything:
        if reader.keep is not None:
            continue
        source = next((d for d in reader.deps if d.keep is not None), None) or \
            read_kept.get(reader)
        if source is not None:
            kept.refuse(source, f"{reader.label} reads {source.label} and is computed")
    moving = None
    for node, _, _ in kept.found:  # (a name kept: the cells it reads, too)
        for dep in node.deps:
            if dep.is_name or dep.keep is not None:
                continue
            sheet = wb.sheets[dep.sheet]
            for p in dep.positions():
                if p not in sheet.cached or not same(sheet.cached[p], sheet.values.get(p)):
                    moving = volatile() if moving is None else moving
                    kept.refuse(node, f"it reads {dep.label}, whose value napkin computes "
                                      "otherwise than the one Excel saved (" + (
                                          _MOVES if dep in moving else _CHANGED) + ")")
    for node in kept.inconsistent:
        kept.refuse(node, "its formula, computed from the values Excel saved in the cells it "
                          "reads, does not give the value Excel saved in it (an input it "
                          "reads changed since Excel computed it)")


def read_names(wb) -> set:
    """The defined names a formula napkin computes (not kept) reads, directly or through
    another name; every name, where a formula calls INDIRECT, which may read one by its
    text. A name outside them has its value nowhere napkin writes."""
    everything = wb.nodes + list(wb.name_nodes.values())
    if any(_INDIRECT.search(n.text or "") for n in everything):
        return set(wb.name_nodes.values())
    return {d for n in everything if n.keep is None for d in n.deps if d.is_name}


def watching():
    """Start noting the kept cells formulas read through OFFSET and INDIRECT; the dict
    they are noted in (``context.STATE.read_kept``)."""
    context.STATE.read_kept = {}
    return context.STATE.read_kept


def stop_watching() -> None:
    context.STATE.read_kept = None


def notes(kept: Kept, describe: Callable[[Callable, str], str]) -> list[str]:
    """One sentence per cause naming the cells that keep Excel's values:
    ``"kept Excel's values in 12 cells: TEXT() given an empty cell (S!B2, ...)"``.
    ``describe(refusal, reason)``: the cause as the sentence says it."""
    by: dict[str, list[str]] = {}
    count: dict[str, int] = {}
    out = []
    for node, reason, refusal in kept.found:
        if node.is_name:  # (``check``: read by no formula)
            out.append(f"left the defined name {node.label} uncomputed, as no formula "
                       f"napkin computes reads it: {describe(refusal, reason)}")
            continue
        what = describe(refusal, reason)
        by.setdefault(what, []).append(node.label)
        count[what] = count.get(what, 0) + len(node.positions())
    for what, labels in by.items():
        n = count[what]
        more = f" and {len(labels) - 5} more" if len(labels) > 5 else ""
        out.append(f"kept Excel's values in {n} cell{'' if n == 1 else 's'}: {what} "
                   f"({', '.join(labels[:5])}{more})")
    return out
