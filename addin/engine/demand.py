"""Formulas computed on demand: a reference OFFSET or INDIRECT makes while computing can
reach a formula the order of computing puts later (the order follows the references
written in formulas, ``addin.engine.cycles.order``). That formula is computed then, with
the formulas it reads that are not computed yet, each after those it reads
(``Demand.need``), and not again when the order reaches it.

A reference made while computing can close a loop the written references do not show
(``OFFSET(A1,1,0)`` in A1 reading A2, which reads A1): a formula reached so that is
already running, or that reads one that is (or a cycle whose saved values are being
checked, ``addin.engine.cycles``), is not computed: the reference is refused (napkin's
"cannot compute", strict mode refuses the cell or keeps Excel's value), as is a chain of
more than ``MAX_DEPTH`` such references each onto a later formula (each one nests a
computation). Two cases are computed again, once, with the references made added to
the inputs of the formulas that made them (``addin.engine.cycles.with_loops``): a loop
in a workbook saved with iterative calculation on (it is then a cycle whose saved values
are checked), and a chain past ``MAX_DEPTH`` (its formulas are then in order).
"""

from __future__ import annotations

from addin.engine import cycles
from addin.formula import context

#: the most references made while computing, each onto a formula computed after it, that
#: are followed one inside another
MAX_DEPTH = 40

#: what a formula being computed keeps in ``context.STATE`` (saved around another's)
_PER_FORMULA = ("own", "inherited", "cell", "node", "form_pending", "refuse_pending",
                "step")

CIRCULAR = ("which reads the formula making the reference (a circular reference through "
            "a reference made while computing)")


class Demand:
    """Which formulas an evaluation (``addin.engine.evaluator.Evaluation``) has computed
    in its current run, which are running, and computing the others when reached."""

    def __init__(self, ev):
        self.ev = ev
        self.done: set = set()  # computed in this run
        self.active: set = set()  # running now (a formula, and those it reached)
        self.seeded: set = set()  # a cycle's formulas holding saved values, while checked
        self.settled: set = set()  # the cycles' formulas whose saved values are a fixed point
        self.unfixed: set = set()  # those whose saved values were checked and are not
        self.loops: list = []  # (formula, formula its reference reached): loops closed
        self.reached: list = []  # (formula, formula its reference reached before its turn)
        self.too_deep = False  # whether a chain of them went past MAX_DEPTH
        self.depth = 0

    def unit(self, node) -> tuple:
        """The formulas computed together with ``node``: its cycle, or itself."""
        return self.ev.cycle_of.get(node) or (node,)

    def reads(self, unit: tuple) -> list:
        """The formulas outside ``unit`` that it reads (none for a cycle whose cells
        give ``#VALUE!`` without reading anything: its saved values not checked, the
        workbook saying they may be stale, ``cycles.checks_saved``)."""
        if unit[0] in self.ev.cycle_of and not self.ev.check_cycles:
            return []
        inside = set(unit)
        return [d for m in unit for d in m.deps if d not in inside]

    def compute(self, unit: tuple) -> None:
        """Compute one formula, or one cycle (``addin.engine.cycles.compute_cycle``)."""
        ev = self.ev
        if unit[0] in ev.cycle_of:
            taken = cycles.compute_cycle(ev, unit)
            if taken is not None:
                (self.settled if taken else self.unfixed).update(unit)
        else:
            self.active.add(unit[0])
            try:
                ev.compute_one(unit[0])
            finally:
                self.active.discard(unit[0])
        self.done.update(unit)

    def need(self, node) -> str | None:
        """Make sure formula ``node`` is computed in this run, computing it (and the
        formulas it reads that are not) now if need be; why it cannot be, else None."""
        if node in self.done or node in self.seeded:
            return None
        if node in self.active:
            return self._loop(node)
        if self.depth >= MAX_DEPTH:
            self.too_deep = True
            return (f"a formula computed after it, reached through more than {MAX_DEPTH} "
                    "references made while computing, one inside another")
        units = self._to_compute(node)
        if isinstance(units, str):
            return self._loop(node)
        state = context.STATE
        if getattr(state, "node", None) is not None:
            self.reached.append((state.node, node))
        saved = {k: getattr(state, k, None) for k in _PER_FORMULA}
        self.depth += 1
        try:
            for unit in units:
                self.compute(unit)
        finally:
            self.depth -= 1
            for k, v in saved.items():
                setattr(state, k, v)
        return None

    def _loop(self, node) -> str:
        """Note that the formula running closed a loop through ``node`` (so that
        ``addin.engine.cycles.with_loops`` can order it as a cycle); why it is refused."""
        reader = getattr(context.STATE, "node", None)
        if reader is not None:
            self.loops.append((reader, node))
        return CIRCULAR

    def _to_compute(self, node) -> list[tuple] | str:
        """The units not computed yet that ``node``'s unit reads, through the references
        written in formulas, each after those it reads, ``node``'s last; or why they
        cannot be computed now (one of them is running: a circular reference)."""
        done = self.done
        first = self.unit(node)
        state = {first: 1}
        stack = [(first, iter(self.reads(first)))]
        out = []
        while stack:
            unit, it = stack[-1]
            for d in it:
                if d in done:
                    continue
                if d in self.active or d in self.seeded:
                    return CIRCULAR
                du = self.unit(d)
                seen = state.get(du)
                if seen is None:
                    state[du] = 1
                    stack.append((du, iter(self.reads(du))))
                    break
                if seen == 1:  # (cycles are units: not reached)
                    return CIRCULAR
            else:
                stack.pop()
                state[unit] = 2
                out.append(unit)
        return out
