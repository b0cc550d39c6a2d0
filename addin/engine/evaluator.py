"""Evaluation order: compile each formula shape once, find every formula's inputs and the
formulas they depend on, and compute the workbook in dependency order.

A shape is the formula's text with its references taken out and its numbers as
parameters (``ft.lex``), with what a compile sees of the references at the cell: each
one's sheet as written, its size, and which of them name one area (``_pattern``). So the
cells of a grid share a shape whether an input they all read is written ``$B$6`` or
``B6``, and so do the same formulas on several sheets (but for sheets with defined names
of their own).

A ``Program`` is a compiled shape plus a *plan*: for each input of the compiled
function, where its value comes from at a given cell (``("tok", i)``: the shape's i-th
reference placed at the cell; ``("rng", parts)``: fixed areas; ``("name", node)``: a
defined name computed like a formula; ``("err", value)``). When the inputs of a compile
cannot be mapped to the shape's references, the program is valid for its own cell only.
Cells are computed in dependency order, a formula reached by OFFSET or INDIRECT before
its turn at once (``addin.engine.demand``); a cycle gives ``#VALUE!`` "circular
reference" unless its saved values are a fixed point (``addin.engine.cycles``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from addin.engine import budget, columns, cycles, demand, executor, kept, last_digits, roots
from addin.engine.book import FAILED, UNREADABLE, Node, Workbook, label
from addin.engine.boot import ready
from addin.formula import calls, context, fx, intersection, ranges
from addin.formula import formula_text as ft
from addin.formula.arrays import as_2d
from addin.formula.context import KEEP_CELLS
from addin.ooxml import guard
from addin.ooxml import xlsx_values as xv
from udfs.machinery.errors import ExcelError


@dataclass
class Program:
    fn: Any
    plan: list  # per input: ("tok", i) | ("rng", parts) | ("name", NAME) | ("err", XlError)
    toks: list
    shared: bool
    text: str = ""  # the formula compiled (its shape's, for other numbers) at ``cell``
    cell: tuple = ()
    numbers: tuple = ()  # its number operands (``ft.lex``), when they are parameters

#: the most areas (and their Ranges values) kept for the formulas that read them again
#: (a lookup table, a column summed in every row): past it the caches start again, so
#: that a workbook's single-cell references do not stay in memory to its end (about
#: 700 bytes each: docs/bench.md, "Memory")
AREAS_CACHED = 16_384


class Evaluation:
    """Computes a ``addin.engine.book.Workbook``'s formulas with a registry of ours."""

    def __init__(self, wb: Workbook, registry: dict[str, Callable]):
        self.wb = wb
        self.registry = registry
        self.programs: dict[Any, Program] = {}
        self._rng_cache: dict[tuple, Any] = {}
        self._dict_cache: dict[tuple, dict] = {}
        self._deps_cache: dict[tuple, list] = {}
        self._lexed: dict[tuple, tuple] = {}  # (text, origin) -> ft.lex(text, origin...)
        # sheets with defined names of their own: a formula there compiles with them
        self._local_scopes = {dn.local_sheet for dn in wb.book.names
                              if dn.local_sheet is not None}
        self.cyclic: set = set()  # the formulas on a cycle (``cycles.order``)
        self.cycle_of: dict = {}  # formula -> its cycle (a tuple of formulas)
        self.iterate = False  # iterative calculation on (``cycles.iterates``)
        self.check_cycles = False  # saved values of cycles checked (``cycles.checks_saved``)
        self.iterated: set = set()  # the formulas calling IRR or RATE (``roots``)
        self.demand = demand.Demand(self)  # what the current run computed (and is)
        self.replanned: list | None = None  # the order again with loops (cycles.with_loops)
        #: ``progress(stage, done, total)`` now and then, or None (``napkin calc``'s bar)
        self.progress: Callable[[str, int, int], None] | None = None
        self.work = budget.Work()  # counted as it is compiled and computed
        self.columns = columns.Columns(wb)  # those without formulas, as arrays

    # ---------------------------------------------------------------- compiling
    def _program(self, node: Node) -> tuple[Program, list | None]:
        """The compiled program of a node -- its shape's (with the node's own numbers when
        they differ), or (when the inputs of a compile cannot be mapped to the shape's
        references) one of its own -- and the areas its references name at the node's
        cell (None: place the program's own references there)."""
        osheet, orow, ocol = node.origin
        lexed = self._lexed.get((node.text, node.origin))  # lexed once per text and origin
        if lexed is None:  # (references out of the key: see _pattern)
            lexed = self._lexed[(node.text, node.origin)] = ft.lex(
                node.text, orow, ocol, ref_mark="\x00")
        skeleton, toks, nums = lexed
        here = (node.sheet, node.r, node.c)
        places = self._places(toks, node.sheet, node.r, node.c)
        # a shape is compiled once for all sheets but those with names of their own
        scope = osheet if node.is_name or osheet in self._local_scopes else None
        if places is None:  # a reference off the sheet here: one shape per relative text
            key = (scope, ft.lex(node.text, orow, ocol)[0])
        else:  # the references' sizes and which of them name one area, wherever they are
            key = (scope, skeleton, self._pattern(toks, places))
        if "\x01@" in skeleton:  # ROW()/COLUMN()...: a shared formula's cells differ
            key += (here,)
        exact = key + (nums,)
        prog = self.programs.get(exact)
        if prog is not None:
            return prog, places
        shape = self.programs.get(key)  # compiled for other numbers: a parameter each
        if shape is not None:
            prog = self._with_numbers(shape, nums)
            if prog is not None:
                self.programs[exact] = prog
                return prog, places
        own_key = exact + (here,)
        prog = self.programs.get(own_key)
        if prog is not None:
            return prog, places
        text = node.text_here()
        _, ctoks, _ = ft.lex(text, node.r, node.c)
        prog = self._compile_at(text, node.sheet, node.r, node.c, ctoks,
                                by_area=places is not None, final=not node.is_name)
        if not prog.shared:
            self.programs[own_key] = prog
            return prog, places
        self.programs[exact] = prog
        if key not in self.programs and self._numbers_are_constants(prog, nums):
            prog.numbers = nums
            self.programs[key] = prog
        return prog, places

    def _places(self, toks, sidx: int, row: int, col: int) -> list | None:
        """The area ``(sheet, r1, c1, r2, c2)`` each reference names at a cell; None when
        one names no cell there (off the sheet, or an unknown sheet)."""
        wb, out = self.wb, []
        for t in toks:
            ts = wb.sheet_index(t.sheet, sidx) if t.sheet else sidx
            at = t.at(row, col)
            if ts is None or at is None:
                return None
            out.append((ts,) + at)
        return out

    @staticmethod
    def _pattern(toks, places) -> tuple:
        """What a compile sees of the references at a cell: each one's sheet as written,
        its size, and the first reference naming the same area. Two cells with one
        skeleton and one pattern compile to one graph (``B6`` written in every cell of a
        grid, as the template's builder writes it, is one shape with ``$B$6``)."""
        first: dict = {}
        return tuple((t.sheet and t.sheet.upper(), p[3] - p[1], p[4] - p[2],
                      first.setdefault(p, i))
                     for i, (t, p) in enumerate(zip(toks, places, strict=True)))

    @staticmethod
    def _numbers_are_constants(prog: Program, nums: tuple) -> bool:
        """Whether each number of the formula is a constant node of its compiled graph,
        named by its text and holding its value (then other numbers can replace them)."""
        if not nums:
            return True
        consts = getattr(prog.fn, "consts", None)
        if not isinstance(prog.fn, executor.FastFn) or consts is None:
            return False
        for t in nums:
            v = consts.get(t)
            try:
                want = ft.number_value(t)
            except ValueError:
                return False
            if type(v) is not type(want) or v != want:
                return False
        return True

    def _with_numbers(self, shape: Program, nums: tuple) -> Program | None:
        """The program of ``shape`` with the numbers ``nums`` in place of its own."""
        try:
            consts = {t: ft.number_value(n) for t, n in zip(shape.numbers, nums, strict=True)}
        except ValueError:  # an integer too long for Python to read: compile it
            return None
        sidx, row, col = shape.cell
        wb, template = self.wb, shape.text

        def make_pipe():  # formulas' own function, run when ours cannot produce a value
            ref = f"{ft.quote_sheet(wb.sheets[sidx].fname)}!{xv.num2col(col)}{row}"
            text = ft.put_numbers(template, nums)
            return executor.parse(text, ref, wb.references(sidx)).make_pipe()

        fn = shape.fn.with_consts(consts, make_pipe)
        return Program(fn, shape.plan, shape.toks, True, template, shape.cell, nums)

    def _compile_at(self, text: str, sidx: int, row: int, col: int, toks,
                    by_area: bool = False, final: bool = True) -> Program:
        """Compile ``text`` at a cell and map its inputs to its references (``toks``).
        ``by_area``: the shape's key holds which references name one area
        (``_pattern``), so an input may be any of the references naming its area; else
        only one reference may name it; ``final``: a cell's, not a name's (its last + or -
        made 0 where Excel does, ``executor.compile_formula``)."""
        ns, wb = ready(), self.wb
        self.work.compile(text)
        ref = f"{ft.quote_sheet(wb.sheets[sidx].fname)}!{xv.num2col(col)}{row}"
        refs = wb.references(sidx)
        fn = executor.compile_formula(text, ref, refs, final=final)
        tok_coords = []
        for t in toks:
            ts = wb.sheet_index(t.sheet, sidx)
            at = t.at(row, col)
            tok_coords.append(None if (ts is None or at is None) else (ts,) + at)
        plan, shared = [], True
        for k, rng in fn.inputs.items():
            if fx.is_dispatch_token(k):  # e.g. ISFORMULA's dispatcher input
                plan.append(("err", ns.errors["#VALUE!"]))
                continue
            if not isinstance(rng, ns.Ranges) or not rng.ranges:
                nn = wb.find_name(str(k).upper(), sidx)
                plan.append(("name", nn) if nn is not None else ("err", ns.errors["#NAME?"]))
                continue
            parts = wb.parts(rng)
            if parts is None:
                plan.append(("err", ns.errors["#REF!"]))
                continue
            if str(k).upper() in refs:  # a defined name that is a plain range
                plan.append(("rng", tuple(parts)))
                continue
            hits = [i for i, tc in enumerate(tok_coords) if len(parts) == 1 and tc == parts[0]]
            if hits and (by_area or len({toks[i] for i in hits}) == 1):
                plan.append(("tok", hits[0]))
            else:
                shared = False
                plan.append(("rng", tuple(parts)))
        if not shared:  # valid for (row, col) only: make every input absolute
            plan = [("rng", (tok_coords[a],)) if k == "tok" else (k, a) for k, a in plan]
        return Program(fn, plan, list(toks), shared, text, (sidx, row, col))

    def _prepare(self, node: Node) -> None:
        ns = ready()
        if node.error is not None:
            return
        try:
            prog, places = self._program(node)
        except guard.WorkbookError:  # (compiling past the count's limit)
            raise
        except Exception as ex:  # formulas' parser rejects it, or napkin's code fails on it
            syntax = fx.is_syntax_error(ex)
            node.error = ExcelError("#NAME?", f"{UNREADABLE if syntax else FAILED}: "
                                              f"{type(ex).__name__}")
            node.failure = None if syntax else f"{type(ex).__name__}: {ex}"
            return
        node.prog = prog
        specs = []
        for kind, arg in prog.plan:
            if kind == "tok" and places is not None:
                specs.append(("rng", (places[arg],)))
            elif kind == "tok":
                tok = prog.toks[arg]
                sidx = self.wb.sheet_index(tok.sheet, node.sheet)
                at = tok.at(node.r, node.c)
                if sidx is None or at is None:
                    specs.append(("err", ns.errors["#REF!"]))
                else:
                    specs.append(("rng", ((sidx,) + at,)))
            else:
                specs.append((kind, arg))
        node.specs = specs
        deps = []
        for kind, arg in specs:
            if kind == "rng":
                for part in arg:
                    try:
                        deps.extend(self._range_deps(part))
                    except guard.WorkbookError as ex:
                        raise guard.WorkbookError(f"{node.label} {ex}") from None
            elif kind == "name":
                deps.append(arg)
        node.deps = deps

    def _clip(self, part):
        """An area as it is read: up to ``KEEP_CELLS`` cells as written (its blank
        rows count for ROWS, INDEX, COUNTBLANK...), a larger one (a whole column) cut at
        the sheet's last filled row and column."""
        idx, r1, c1, r2, c2 = part
        if (r2 - r1 + 1) * (c2 - c1 + 1) <= KEEP_CELLS:
            return part
        s = self.wb.sheets[idx]
        part = idx, r1, c1, max(r1, min(r2, s.max_r)), max(c1, min(c2, s.max_c))
        n = (part[3] - r1 + 1) * (part[4] - c1 + 1)
        if n > guard.MAX_AREA_CELLS:
            raise guard.WorkbookError(
                f"reads {label(s, r1, c1)}:{xv.num2col(part[4])}{part[3]}, {n:,} cells "
                f"(the area as far as {s.name}'s cells reach); napkin reads areas of up "
                f"to {guard.MAX_AREA_CELLS:,} cells")
        return part

    def _range_deps(self, part) -> list:
        idx, r1, c1, r2, c2 = part
        if r1 == r2 and c1 == c2:  # one cell (most references): no need to keep it
            n = self.wb.sheets[idx].formula_at.get((r1, c1))
            return [] if n is None else [n]
        part = self._clip(part)
        if self.columns.formula_free(part):
            return []
        got = self._deps_cache.get(part)
        if got is None:
            idx, r1, c1, r2, c2 = part
            fa = self.wb.sheets[idx].formula_at
            if (r2 - r1 + 1) * (c2 - c1 + 1) <= len(fa):
                found = (fa.get((r, c)) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1))
                got = list({id(n): n for n in found if n is not None}.values())
            else:
                got = list({id(n): n for (r, c), n in fa.items()
                            if r1 <= r <= r2 and c1 <= c <= c2}.values())
            self._deps_cache[part] = got
        return got

    # ---------------------------------------------------------------- evaluation
    def _arg(self, spec):
        kind, arg = spec
        if kind == "rng":
            got = self._rng_cache.get(arg)
            if got is None:
                if len(arg) == 1:  # one area: the Ranges value at once
                    got = ranges.one_range(*self._area(arg[0]))
                else:
                    refs, arrays = zip(*map(self._area, arg), strict=True)
                    got = ranges.make_ranges(list(refs), list(arrays))
                if len(self._rng_cache) >= AREAS_CACHED:  # (a cache: made again if needed)
                    self._rng_cache.clear()
                self._rng_cache[arg] = got
            return got
        if kind == "name":
            return arg.value
        return arg

    def _area(self, part):
        """An area's reference (made once per area) and its values, as formulas' Ranges
        take them."""
        idx, r1, c1, r2, c2 = dk = self._clip(part)
        sheet = self.wb.sheets[idx]
        rd = self._dict_cache.get(dk)
        if rd is None:
            if len(self._dict_cache) >= AREAS_CACHED:
                self._dict_cache.clear()
            rd = self._dict_cache[dk] = ranges.area_ref(sheet.sid, r1, c1, r2, c2)
        return rd, self.columns.block(sheet, r1, c1, r2, c2)

    def plan(self) -> list[Node]:
        """Compile every formula and find its inputs; the nodes in evaluation order
        (defined names first, so that unused ones are computed too)."""
        names = list(self.wb.name_nodes.values())
        nodes, say = names + self.wb.nodes, self.progress
        for i, node in enumerate(nodes):
            self._prepare(node)
            self.work.count(node, self._clip, self.columns.rows)
            if say is not None and not i % 256:
                say("compiling", i, len(nodes))
        order = cycles.ordered(self, nodes)  # (self.cyclic, self.cycle_of)
        self.iterated = roots.calling(self.wb.nodes)  # (IRR, RATE: roots.take_saved)
        self.iterate = cycles.iterates(getattr(self.wb, "workbook_xml", ""))
        self.check_cycles = cycles.checks_saved(getattr(self.wb, "workbook_xml", ""))
        return order

    def run(self, order: list[Node] | None = None, only: set | None = None) -> None:
        """Compute every formula (in ``order``, from ``plan``, when given), or those of
        ``only``, the others keeping their values (``addin.engine.kept.to_compute``)."""
        order, only = (self.replanned, None) if self.replanned else (  # (loops: all again)
            self.plan() if order is None else order, only)
        kept.readers_of_kept_names(self.wb, order)
        self.work.compute(only)  # (refused here when past the count's limit)
        context.STATE.registry, context.STATE.columns = self.registry, self.columns
        context.STATE.noise = 0.0  # (what a cycle saved short of its fixed point leaves)
        last_digits.watch(self.wb, order)  # (PMT, ^ upstream: context.last_digits_unknown)
        context.STATE.saved_current = kept.values_current(self.wb)  # (saved_operands)
        say = self.progress
        wanted = self.demand = demand.Demand(self)  # (what OFFSET, INDIRECT reach first)
        context.STATE.demand, done, active = wanted.need, wanted.done, wanted.active
        try:
            for i, node in enumerate(order):
                if node in done:  # (reached by OFFSET or INDIRECT before its turn)
                    pass
                elif only is not None and node not in only:  # (its value stands)
                    done.add(node)
                elif node in self.cycle_of:  # a cycle: with what it reads, at once
                    wanted.need(node)
                else:  # (Demand.compute, spelled out for the common case)
                    active.add(node)
                    self._eval(node, False)
                    active.discard(node)
                    done.add(node)
                self.work.within_limits(node, i, len(order))
                if say is not None and not i % 256:
                    say("computing", i, len(order))
        finally:
            context.STATE.demand = context.STATE.columns = None
            context.STATE.unknown_digits = context.STATE.saved_current = \
                context.STATE.own_digits = context.STATE.inputs_saved = None
            calls.clear()
        if cycles.with_loops(self):  # loops closed by OFFSET, INDIRECT: now cycles
            self.rerun(self.replanned)

    def compute_one(self, node: Node, cyclic: bool = False) -> None:
        """Compute one formula, its inputs computed (``cyclic``: #VALUE!, or Excel's value)."""
        self._eval(node, cyclic)

    def forget_areas(self) -> None:  # (the values of an area read may have changed)
        self._rng_cache.clear()

    def circular(self) -> set:
        """The formulas on a cycle whose saved values were not taken (``cycles``)."""
        return self.cyclic - self.demand.settled

    def rerun(self, order: list[Node], only: set | None = None) -> None:
        """Compute again after marking cells to keep, every reference read afresh (``run``)."""
        self._rng_cache.clear()
        self.run(order, only)

    def _eval(self, node: Node, cyclic: bool) -> None:
        if node.keep is not None and not node.is_name:
            self.keep_saved(node)
            return
        ns, inherited, own = ready(), {}, {}  # (the messages of error codes: code -> text)
        for d in node.deps:
            for code, msg in d.msgs.items() if d.msgs else ():
                if msg and code not in inherited:
                    inherited[code] = msg
        if cyclic:
            out = ns.errors["#VALUE!"]
            own["#VALUE!"] = "circular reference"
        elif node.error is not None:
            out = ns.errors[node.error.code]
            own[node.error.code] = node.error.message
        else:
            context.STATE.own, context.STATE.inherited = own, inherited
            context.STATE.cell, context.STATE.node = (node.sheet, node.r, node.c), node
            args = [self._arg(s) for s in node.specs]
            at = (node.r, node.c) if node.spill is None and not node.is_name else None
            out = executor.call(node.prog.fn, args, at, reference=node.is_name)
        node.value = out
        if node.spill is None and not node.is_name and not isinstance(out, ns.Ranges) and (
                not isinstance(out, np.ndarray) or (out.size == 1 and out.ndim <= 2)):
            v = executor.store_scalar(out)  # one value: its error code, if any, is the cell's
            node.value = v  # (not the array it came in: some 300 bytes a cell, kept to the end)
            node.msgs = {str(v): own.get(str(v)) or inherited.get(str(v), "")} \
                if isinstance(v, ns.XlError) else {}
            self.wb.sheets[node.sheet].values[(node.r, node.c)] = v
            if node in self.iterated:  # Excel's saved rate, where checked
                roots.take_saved(self, node)
            return
        codes = executor.error_codes(out)
        node.msgs = {c: own.get(c) or inherited.get(c, "") for c in codes}
        if node.is_name:
            return
        sheet = self.wb.sheets[node.sheet]
        if node.spill is None:
            if isinstance(out, ns.Ranges):  # a reference: its cell in the formula's row
                v = intersection.of_reference(out, node.r, node.c)  # or column, as Excel
                if v is None:  # takes it
                    node.msgs = {"#VALUE!": context.CANNOT + "a one-cell formula whose "
                                 "result is a range of many cells (implicit intersection)"}
                    v = ns.errors["#VALUE!"]
                sheet.values[(node.r, node.c)] = executor.norm_scalar(v)
                return
            sheet.values[(node.r, node.c)] = executor.store_scalar(out)  # an array: its
            return  # first value, as Excel shows an array in one cell
        r1, c1, r2, c2 = node.spill
        shape = (r2 - r1 + 1, c2 - c1 + 1)
        arr = as_2d(out)
        if arr is None:  # a scalar fills the range (np.full would turn XlError into str)
            arr = np.empty(shape, dtype=object)
            v = executor.store_scalar(out)
            for idx in np.ndindex(shape):
                arr[idx] = v
        else:  # a larger result cut to the range, a smaller one padded with #N/A, as Excel
            arr = ns.reshape(np.asarray(arr, dtype=object)[:shape[0], :shape[1]], shape)
        for (i, j), v in np.ndenumerate(arr):
            sheet.values[(r1 + i, c1 + j)] = executor.norm_scalar(v)

    def keep_saved(self, node: Node) -> None:
        """A formula not computed: its cells hold the values Excel cached."""
        sheet = self.wb.sheets[node.sheet]
        ns = ready()
        for pos in node.positions():
            sheet.values[pos] = executor.norm_scalar(sheet.cached.get(pos, ns.EMPTY))
        node.value = sheet.values[(node.r, node.c)]
        node.msgs = {}

    def results(self) -> dict[str, Any]:
        """``{"Sheet!A1": value}`` for every formula cell, as the API returns them."""
        out = {}
        for node in self.wb.nodes:
            sheet = self.wb.sheets[node.sheet]
            if node.spill is None:  # one cell: its label is the node's
                v = sheet.values.get((node.r, node.c), 0)
                out[node.label] = executor.to_result(v, node.msgs)
                continue
            for (r, c) in node.positions():
                v = sheet.values.get((r, c), 0)
                out[label(sheet, r, c)] = executor.to_result(v, node.msgs)
        return out

