"""Headless evaluation of Excel formulas: Excel's own functions mixed with ours.

Built on the ``formulas`` package (EUPL; used as a library only) for parsing and for
Excel's built-in functions, with our own workbook evaluator around it:

* ``evaluate`` computes one formula, e.g. ``evaluate('=RIDGE(989,3.35)*2')``;
* ``calc_workbook`` computes every formula of an .xlsx/.xlsm and writes the results
  into a copy as cached values, losslessly (see ``addin.ooxml.xlsx_values``);
* ``format_value`` renders a result the way the ``napkin calc`` CLI prints it.

Values come back as Python values: ``float``/``int``/``bool``/``str``, nested lists (rows)
for arrays, or ``udfs.machinery.errors.ExcelError`` for error values, which keeps the message
one of our functions gave (``#NUM! bandwidth must be greater than 0``).

The engine in layers, each module one job:

* ``addin.formula.fx`` -- the only module that imports ``formulas``/``schedula``;
* ``addin.formula.calls`` -- how our functions are called (registry, argument and result
  conversion, error messages);
* ``addin.formula.formula_text`` -- normalising formula text; shapes (formulas with relative
  references written as offsets, as in R1C1 notation) and their references;
* ``addin.engine.book`` -- the workbook model (sheets, values, formula cells, defined names,
  shared and array formulas);
* ``addin.engine.evaluator`` -- one compile per shape, dependencies, evaluation order;
* ``addin.engine.executor`` -- runs a compiled formula; reads its result;
* ``addin.engine.output`` -- cached values for the XML, CLI text, JSON;
* ``addin.engine.formula_eval`` -- one formula without a workbook (``napkin eval``);
* this module -- the public functions, and strict mode's refusals.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zipfile import ZipFile

from addin.engine import checked, cycles, output, support
from addin.engine import kept as keep
from addin.engine.book import UNREADABLE, Workbook
from addin.engine.evaluator import Evaluation
from addin.engine.formula_eval import evaluate
from addin.engine.output import format_value, to_json
from addin.formula import calls, context
from addin.formula.formula_text import normalize_formula
from addin.ooxml import guard, package
from addin.ooxml import xlsx_values as xv

__all__ = ["evaluate", "calc_workbook", "format_value", "to_json", "normalize_formula",
           "without_cyclic_gc", "refusal_causes", "Refusal"]

_STRICT_NS = "http://purl.oclc.org/ooxml/spreadsheetml/main"


def _refuse_strict_ooxml(zf: ZipFile, src: Path) -> None:
    ct = zf.read("[Content_Types].xml").decode("utf-8", "replace")
    m = re.search(r'PartName="/([^"]+)"[^>]*ContentType="[^"]*sheet\.main\+xml"', ct)
    part = m.group(1) if m else "xl/workbook.xml"
    try:
        head = zf.read(part)[:2000].decode("utf-8", "replace")
    except KeyError:
        return
    if _STRICT_NS in head:
        raise guard.WorkbookError(
            f"{src.name} is saved as Strict Open XML, which napkin does not read: open it in "
            "Excel and save it as \"Excel Workbook (.xlsx)\"")


def without_cyclic_gc(fn):
    """Run ``fn`` with Python's cyclic garbage collector paused (as it was afterwards).

    A workbook being computed is many live objects (cells, formula nodes, compiled
    graphs), made at a pace that sets off the collector's full passes over all of them
    again and again, to free few objects. What the engine drops is freed by reference
    counting as before; the few cycles it leaves (and the workbook itself) are collected
    once the collector runs again after the call."""

    @functools.wraps(fn)
    def paused(*args, **kwargs):
        was = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was:
                gc.enable()

    return paused


@without_cyclic_gc
def calc_workbook(
    src: str | os.PathLike,
    dst: str | os.PathLike | None,
    functions: Mapping[str, Callable] | None = None,
    *,
    in_place: bool = False,
    backup: bool = True,
    recalc_on_open: bool = False,
    strict: bool = True,
    notes: list[str] | None = None,
    causes: list[Refusal] | None = None,
    kept: list[Refusal] | None = None,
    before_write: Callable[[dict[str, Any]], None] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """Compute every formula of ``src`` and write it with cached values to ``dst``.

    Every zip member of ``src`` is copied unchanged except the worksheets (only the
    cached value and ``t`` of formula cells change) and ``xl/workbook.xml`` (only
    ``<calcPr fullCalcOnLoad>``: removed by default so that spreadsheet programs show the
    computed values instead of recomputing without our functions; ``recalc_on_open=True``
    sets it). ``dst`` is written atomically (temp file + rename); on failure no ``dst``
    is left behind and ``src`` is never modified; ``dst=None`` writes nothing (the
    results only). ``dst == src`` needs ``in_place=True``
    (then ``backup=True`` keeps a copy as ``<name>.bak`` first).

    Returns ``{"Sheet!A1": value}`` for every formula cell (also every cell of an array
    formula's range); errors are ``ExcelError`` (see ``to_json``).

    Hostile or broken files are refused first (``addin.ooxml.guard.check_package``). With
    ``strict`` (the default, and what ``napkin calc`` does) a workbook that calls a
    function neither Excel's set nor our catalog knows, or that has a circular
    reference (but for a fixed point saved with iterative calculation on,
    ``addin.engine.cycles``), is refused too: ``WorkbookError`` names the cells, and
    no ``dst`` is written. So is a workbook with formulas the engine cannot compute as
    Excel does (``addin.engine.support.unsupported``: structured, 3-D and external
    references, ...); with ``strict=False`` those cells keep the values Excel cached, and
    a sentence saying so is appended to ``notes`` (when given). A strict Open XML file is
    refused in both modes. ``before_write(results)`` runs before ``dst`` is written.

    ``kept`` (with ``strict``; ``napkin calc`` gives it): strict mode refuses cell by
    cell where it is safe (``addin.engine.kept``): a cell it would refuse keeps the value
    Excel saved, and so does every formula that reads it (directly or not), when the
    values they read are those Excel computed them from; each gets a ``Refusal`` in
    ``kept`` and is named in ``notes`` (one sentence per cause); else the workbook is
    refused as without ``kept``.

    ``causes`` (with ``strict=False``; ``refusal_causes`` gives it) gets a ``Refusal``
    for every cell strict mode would refuse, and why: each function not checked of each
    formula (computed, as ``--lenient`` does), each cell on a circular reference, and the
    cells the lenient run keeps Excel's values in.
    """
    src, dst = Path(src), None if dst is None else Path(dst)
    guard.check_package(src)
    if dst is not None and package.same_file(src, dst) and not in_place:
        raise ValueError(f"refusing to overwrite the source workbook {src} (pass in_place=True)")
    reg = calls.registry(functions)
    calls.ensure_registered(reg)
    with ZipFile(src) as zf:
        _refuse_strict_ooxml(zf, src)
        wb = Workbook(zf)
        if strict and keep.rounds_to_display(getattr(wb, "workbook_xml", "")):
            raise guard.WorkbookError(keep.ROUNDS_TO_DISPLAY.format(name=src.name))
        policy = _Policy(strict, notes, causes, kept)
        if strict:
            _refuse_or_keep(support.unknown_in(wb, reg), policy,
                            functools.partial(support.unknown_refusal, registry=reg))
            _refuse_or_keep(checked.unchecked(wb, reg), policy, checked.refusal)
        elif causes is not None:  # every one, each computed as --lenient does
            known = support.known_functions(reg)
            policy.record(checked.unchecked(wb, reg, every=True, known=known),
                          checked.refusal)
        found = support.unsupported(wb, reg, wb.date1904)
        _refuse_or_keep(found, policy, support.cannot_compute, _kept_in_cells)
        ev = Evaluation(wb, reg)
        ev.progress = progress  # (stage, done, total) now and then: the CLI's progress bar
        order = ev.plan()
        failed = [(n, n.failure) for n in wb.nodes + list(wb.name_nodes.values())
                  if n.failure is not None and n.prog is None]
        _refuse_or_keep(failed, policy, _failed, _kept_failed)
        unread = [(n, "a formula napkin cannot read") for n in wb.nodes + list(
                  wb.name_nodes.values()) if n.error is not None and n.prog is None
                  and n.error.message.startswith(UNREADABLE)]
        _refuse_or_keep(unread, policy, _cannot_read)
        late = support.after_plan(wb)  # seen once the inputs of each formula are known
        _refuse_or_keep(late, policy, support.cannot_compute, _kept_where)
        _refuse_or_keep(checked.unchecked_forms(wb), policy, checked.form_refusal,
                        _kept_where)  # forms of argument not checked, seen in the compile
        with _current_book(wb):  # what SUBTOTAL, OFFSET... read: hidden rows, values
            _compute(wb, ev, order, policy)
        # strict refuses any cycle (or keeps its cells: _settle decides); --lenient keeps
        # the values Excel saved in the cells of one (those it has a value of)
        cyclic = sorted(ev.circular(), key=_place) if strict else [
            n for n in ev.circular() if not n.is_name and n.keep is None
            and all(p in wb.sheets[n.sheet].cached for p in n.positions())]
        unfixed = cycles.NOT_FIXED if ev.iterate else cycles.NOT_FIXED_OFF
        why = {n: unfixed if n in ev.demand.unfixed else CIRCULAR for n in cyclic}
        if causes is not None:  # (strict refuses every cell of a cycle)
            policy.record([(n, CIRCULAR) for n in ev.circular() if n not in why], _circular)
        if _refuse_or_keep(list(why.items()), policy, _circular, _kept_on_cycle):
            with _current_book(wb):
                ev.rerun(order)
        if policy.keeping is not None:
            _settle(wb, ev, order, policy)
        if dst is None:
            return ev.results()
        ups = output.updates(wb)
        new_parts: dict[str, bytes] = {}
        for sheet in wb.sheets:
            u = ups.get(sheet.index)
            if u:
                xml = xv.write_values(wb.xml[sheet.index], u, wb.layouts.get(sheet.index))
                new_parts[wb.book.sheets[sheet.index].path] = xml.encode("utf-8")
        wbxml = zf.read(wb.book.workbook_path).decode("utf-8")
        new_wb = xv.set_full_calc_on_load(wbxml, recalc_on_open)
        if new_wb != wbxml:
            new_parts[wb.book.workbook_path] = new_wb.encode("utf-8")
        results = ev.results()
        if before_write is not None:  # e.g. the CLI's JSON: if it fails, nothing is written
            before_write(results)
        package.rewrite(zf, src, dst, new_parts, in_place=in_place, backup=backup)
    return results


def _compute(wb: Workbook, ev: Evaluation, order: list, policy: _Policy) -> None:
    """Compute the workbook, then refuse (strict) or keep Excel's values in (lenient) the
    cells found out of reach while computing: a function given a form of argument not
    checked, a value napkin cannot give (``support.refused_while_computing``), TEXT
    giving another text than Excel saved. Kept cells change what their readers see: computed
    again until no new cell is found (--lenient: at most three times; strict: ``_settle``)."""
    checked.watch()
    try:
        ev.run(order)
        stopped = support.refused_while_computing(wb)
        stopped += support.text_disagreements(wb, {n for n, _ in stopped})
        formed = checked.seen_forms()
        again = _refuse_or_keep(formed, policy, checked.form_refusal, _kept_where)
        kept = _refuse_or_keep(stopped, policy, _would_differ, _kept_where) or again
        for _ in range(3 if kept and policy.keeping is None else 0):
            ev.rerun(order)  # computed again, those cells keeping Excel's values
            formed = checked.seen_forms()
            if not _refuse_or_keep(formed, policy, checked.form_refusal, _kept_where):
                break
    finally:
        checked.seen_forms(stop=True)


def _settle(wb: Workbook, ev: Evaluation, order: list, policy: _Policy) -> None:
    """Strict mode cell by cell: compute again with every cell found keeping Excel's value
    (until no new one), then with their readers (``keep.downstream``) too; keep them if safe
    (``addin.engine.kept.check``), else refuse the workbook; the kept cells go to
    ``policy.kept`` and one sentence per cause to ``policy.notes``."""
    keeping = policy.keeping
    if not keeping.found:
        return
    read, fresh = keep.watching(), [node for node, _, _ in keeping.found]
    try:
        for _ in range(6):
            read.clear()
            checked.watch()
            try:
                with _current_book(wb):  # (only what the cells kept since last can change)
                    ev.rerun(order, keep.to_compute(wb, fresh))
                stopped = support.refused_while_computing(wb)
                stopped += support.text_disagreements(wb, {n for n, _ in stopped})
                formed = checked.seen_forms()
            finally:
                checked.seen_forms(stop=True)
            new = keeping.add(formed, checked.form_refusal) + keeping.add(stopped,
                                                                          _would_differ)
            if not new:  # (computed from every cell kept so far: readers checked on it)
                new = keep.readers_kept(wb, ev, keeping, read)
            if not new:
                break
            fresh = [node for node, _ in new]
        else:
            keeping.refuse(new[0][0], "keeping Excel's values changes what other cells "
                                      "compute, again after six rounds")
        keep.check(wb, keeping, read, lambda: support.volatile_nodes(wb))
    finally:
        keep.stop_watching()
    for node, reason, refusal in keeping.found:  # (a name: left uncomputed, no cell)
        cells = () if node.is_name else node.positions()
        sheet = None if node.is_name else wb.sheets[node.sheet]
        policy.kept.append(Refusal(node.label, len(cells),
                                   KINDS.get(refusal, "unknown function"), str(reason),
                                   tuple((sheet.name, r, c) for r, c in cells)))
    if policy.notes is not None:
        policy.notes.extend(keep.notes(keeping, _describe))


def _describe(refusal: Callable, reason: str) -> str:
    """A cause of keeping Excel's values, as the note says it."""
    if refusal is checked.refusal:
        return f"{reason}, a function napkin has not checked against Excel"
    if isinstance(refusal, functools.partial):  # support.unknown_refusal
        return f"{reason}(), a function neither Excel's nor napkin's"
    if refusal is _failed:
        return f"a formula napkin failed on ({reason}: a bug in napkin, please report it)"
    return str(reason)


@contextlib.contextmanager
def _current_book(wb: Workbook):
    """Make ``wb`` the book being computed (``context.STATE.book``: what SUBTOTAL,
    OFFSET... read) for the ``with`` block, and no book after it; ``wb.stale``: why its
    saved values may be stale, or None (``addin.engine.kept.asks_recalculation``)."""
    wb.stale = keep.asks_recalculation(getattr(wb, "workbook_xml", ""))
    context.STATE.book = wb
    try:
        yield
    finally:
        context.STATE.book = None


@dataclass(frozen=True)
class Refusal:
    """A cell (or defined name) strict mode refuses, and why (``refusal_causes``).

    Attributes
    ----------
    label : str
        The cell, ``Sheet!A1`` (an array formula's first cell), or the defined name.
    cells : int
        The formula cells it fills (an array formula's whole range; 0 for a name).
    kind : str
        What strict mode refuses there: one of ``KINDS``' values, or ``"unknown
        function"`` (neither Excel's nor napkin's).
    reason : str
        The reason, as the refusal sentence says it (``"TEXT() given an empty cell"``).
    positions : tuple
        For a cell kept (``calc_workbook``'s ``kept``): its cells, ``(sheet, row,
        col)``; empty otherwise.
    """

    label: str
    cells: int
    kind: str
    reason: str
    positions: tuple = ()  # ((sheet name, row, col), ...): the cells kept (``kept``)


CIRCULAR = "a circular reference"


class _Policy:
    """calc_workbook's policy for cells it cannot compute as Excel does: refuse the
    workbook (``strict``), or keep the values Excel saved and say so in ``notes``;
    ``causes``, when given, gets a ``Refusal`` for each cell found. Strict with ``kept``
    given: keep them (``keeping``), refusing the workbook at the end unless it is safe
    (``_settle``)."""

    def __init__(self, strict: bool, notes: list[str] | None, causes: list | None,
                 kept: list | None = None):
        self.strict, self.notes, self.causes, self.kept = strict, notes, causes, kept
        self.keeping = keep.Kept() if strict and kept is not None else None

    def record(self, found: list, refusal: Callable[[list], str]) -> None:
        """Add a ``Refusal`` to ``causes`` (when given) for each ``(node, reason)``."""
        if self.causes is None:
            return
        for node, reason in found:
            cells = 0 if node.is_name else len(node.positions())
            kind = "unknown function" if str(reason).endswith(support.UNKNOWN) else \
                KINDS[refusal]
            self.causes.append(Refusal(node.label, cells, kind, str(reason)))


def _refuse_or_keep(found: list, policy: _Policy, refusal: Callable[[list], str],
                    note: Callable[[list], str] | None = None) -> bool:
    """Refuse or keep the cells napkin cannot compute as Excel does, by ``policy``.

    Parameters
    ----------
    found : list of (node, reason)
        The cells, each with the reason it cannot be computed.
    policy : _Policy
        Strict: refuse the workbook, ``addin.ooxml.guard.WorkbookError`` with
        ``refusal(found)``. Else each cell keeps the value Excel saved (its ``keep`` is
        its reason), ``note(found)``, when given, is appended to its ``notes`` and each
        cell is recorded in its ``causes``.
    refusal, note : callable
        The sentence refusing the workbook; the note saying the cells kept their values.

    Returns
    -------
    bool
        Whether any cell now keeps Excel's value (then the cells that read them must be
        computed again).
    """
    if not found:
        return False
    if policy.keeping is not None:  # strict, cell by cell: decided by _settle
        return bool(policy.keeping.add(found, refusal))
    if policy.strict:
        raise guard.WorkbookError(refusal(found))
    policy.record(found, refusal)
    for node, reason in found:
        node.keep = reason
    if policy.notes is not None and note is not None:
        policy.notes.append(note(found))
    return True


def _place(node) -> tuple:
    """Where a node is, for a steady order: cells by sheet, row and column, names last."""
    return node.is_name, node.sheet, node.r, node.c, node.label


def _cells_of(found: list) -> str:
    return support.first_cells([n.label for n, _ in found])


def _kept_in_cells(found: list) -> str:
    return (f"kept the values Excel saved in {_cells_of(found)}, which "
            f"napkin cannot compute ({support.describe(found)})")


def _kept_where(found: list) -> str:
    return f"kept the values Excel saved where napkin cannot compute {support.describe(found)}"


def _cannot_read(found: list) -> str:
    return (f"napkin cannot read the formulas in {_cells_of(found)} (not "
            "Excel's formula syntax); run with --lenient to keep the values Excel "
            "saved in those cells")


def _shortened(text: str, limit: int = 60) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    one = " ".join(str(text).split())
    return one if len(one) <= limit else one[:limit - 1] + "…"


def _failure(found: list) -> str:
    """The first cell napkin failed on, its formula shortened and the exception."""
    node, failure = found[0]
    try:
        text = node.text_here()
    except Exception:  # (moving a shared formula to its cell is what failed)
        text = node.text
    more = f" (and on {len(found) - 1} more formulas)" if len(found) > 1 else ""
    return f"{node.label} ({_shortened(text)}){more}: compiling it raised {_shortened(failure)}"


def _failed(found: list) -> str:
    return (f"napkin failed on {_failure(found)}, a bug in napkin, not in the formula: "
            "please report it with the workbook; meanwhile compute it in Excel, or run "
            f"with --lenient to keep the values Excel saved in {_cells_of(found)}")


def _kept_failed(found: list) -> str:
    return (f"kept the values Excel saved in {_cells_of(found)}, as napkin failed on "
            f"{_failure(found)}, a bug in napkin: please report it with the workbook")


def _would_differ(found: list) -> str:
    return (f"napkin cannot compute {support.describe(found)}: calc would write "
            "values that differ from Excel's; run with --lenient to keep the values "
            "Excel saved in those cells")


def _circular(found: list) -> str:
    cells = support.first_cells(sorted(n.label for n, _ in found if not n.is_name))
    return (f"circular reference through {cells}: {cycles.why_refused({r for _, r in found})}"
            "; rewrite them without the cycle, or run with --lenient to keep the values "
            "Excel saved in those cells")


def _kept_on_cycle(found: list) -> str:
    cells = support.first_cells(sorted(n.label for n, _ in found))
    return f"kept the values Excel saved in {cells}, which are on a circular reference"



#: the refusal sentence -> the kind of refusal a ``Refusal`` names
KINDS = {checked.refusal: "function not checked",
         checked.form_refusal: "form of argument not checked",
         support.cannot_compute: "cannot compute", _would_differ: "cannot compute",
         _failed: "napkin failed", _cannot_read: "formula napkin cannot read",
         _circular: "circular reference", keep.reads_kept: "reads a cell kept"}


def refusal_causes(src: str | os.PathLike, functions: Mapping[str, Callable] | None = None,
                   dst: str | os.PathLike | None = None) -> list[Refusal]:
    """Every cell strict mode refuses in workbook ``src``, and why: what would have to
    be lifted for strict mode to compute it (``[]``: strict mode computes it).

    ``src`` is computed as ``--lenient`` does (into ``dst`` when given), recording each
    refusal strict mode would make instead of stopping at the first: every function not
    checked in every formula, the forms of argument not checked, what napkin cannot
    compute, circular references. A cell is recorded with the first reason found for it
    at each stage (a form of argument not checked behind another in the same cell is not
    seen). Raises ``addin.ooxml.guard.WorkbookError`` for a workbook refused whole
    (a hostile package, Strict Open XML)."""
    causes: list[Refusal] = []
    calc_workbook(src, dst, functions, strict=False, causes=causes)
    seen, out = set(), []
    for cause in causes:  # (a cell on two stages with one reason: once)
        if (cause.label, cause.kind, cause.reason) not in seen:
            seen.add((cause.label, cause.kind, cause.reason))
            out.append(cause)
    return out
