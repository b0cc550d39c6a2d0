"""The work of computing a workbook, counted before it is done: a workbook past
``MAX_WORK`` (or the limit the user raised it to, ``raised``) is refused with the figure,
the same on every machine.

The count is in units of about a microsecond of CPU each on the project's machine, for
the slower functions (``docs/bench.md``, "The work limit"):

* compiling a formula: ``COMPILE_CHAR`` for each character of its text (a shape
  compiled once for many cells counts once);
* computing a formula cell (or a defined name), each time the workbook is computed:
  ``FORMULA``, plus ``CALL`` for each call or operator of its compiled formula, plus
  ``CELL_READ`` for each cell of the areas it reads (a whole column as far as its
  sheet's cells reach) and each cell an array formula fills;
* while computing, ``CELL_READ`` for each cell OFFSET and INDIRECT read or scan to make
  the areas they return (``addin.formula.context.read_cells``).

A tall range of a column without formulas that a conditional aggregate reads (COUNTIFS,
SUMIFS...: ``addin.excel.criteria_columns``, which matches each criterion over the column
once) counts instead ``CRITERIA_RANGE`` in each formula, its cells once per
``WINDOW_CELLS`` (the slices of arrays its value is taken from), and ``CELL_READ`` for
each cell of its column once in the workbook (the column made an array); while
computing, ``CELL_READ`` for each cell of a column a criterion is matched over, of the
whole columns a function is run over once, and of the ranges it leaves to the function
itself after all.

A tall range that VLOOKUP, HLOOKUP or MATCH searches (``addin.excel.lookup_index``,
which finds an exact match by an index of its keys made once) counts instead
``LOOKUP_RANGE`` in each formula and ``CELL_READ`` for each of its cells once in the
workbook; while computing, ``CELL_READ`` for each cell of such a range the function
searches itself after all (an approximate match, a wildcard...).

Compiling is counted as it goes, and refused the moment the count passes the limit;
computing is counted before each computation of the workbook (``--lenient`` computes it
again when it keeps cells), and the areas OFFSET and INDIRECT make after each formula.
What the count cannot see (the arrays an operator makes of a row and a column, a
function whose time grows faster than what it reads) is bounded by
``addin.ooxml.guard.MAX_CPU_SECONDS`` of measured CPU, four times what ``MAX_WORK``
allows on the project's machine.
"""

from __future__ import annotations

import contextlib
import contextvars
import time

from addin.excel import criteria_columns, lookup_index
from addin.formula import context
from addin.formula import formula_text as ft
from addin.ooxml import guard

#: the most units of work napkin computes a workbook within (at most about 23 s of CPU on
#: the project's machine, for the slowest functions measured: docs/bench.md)
MAX_WORK = 25_000_000
COMPILE_CHAR = 25
FORMULA = 20
CALL = 20
CELL_READ = 1
#: a range a conditional aggregate reads by its column's matches, in each formula; and
#: the cells of such ranges counted as one unit
CRITERIA_RANGE = 20
WINDOW_CELLS = 100
#: a range an exact-match lookup finds its key in by an index, in each formula
LOOKUP_RANGE = 20
#: how the refusal says what to do
_FIX = ("split the workbook into smaller ones, or make its formulas read smaller ranges, or "
        "raise the limit knowingly (napkin calc --max-work UNITS; a unit is about a "
        "microsecond of CPU); --lenient computes the same formulas, so it does not help")
#: the limit raised by the user (``raised``), or None: ``MAX_WORK``
_RAISED: contextvars.ContextVar = contextvars.ContextVar("max_work", default=None)


def limit() -> int:
    """The units of work napkin computes a workbook within: ``MAX_WORK``, or what the user
    raised it to (``raised``)."""
    return _RAISED.get() or MAX_WORK


def cpu_limit() -> float:
    """The measured CPU a computation may take: ``guard.MAX_CPU_SECONDS``, raised in the
    proportion the user raised the limit of work."""
    return guard.MAX_CPU_SECONDS * max(1.0, limit() / MAX_WORK)


@contextlib.contextmanager
def raised(units: int | None):
    """Within the ``with`` block, workbooks are computed within ``units`` of work (at
    least ``MAX_WORK``: the limit is raised, never lowered; None leaves it), as
    ``napkin calc --max-work`` asks: the user's knowing choice to wait longer."""
    token = _RAISED.set(max(units, MAX_WORK) if units else None)
    try:
        yield
    finally:
        _RAISED.reset(token)


def calls_of(prog, text: str) -> int:
    """The calls and operators a formula's compiled function computes: the steps of the
    graph napkin runs, or (a formula formulas runs itself) one per four characters of its
    text."""
    steps = getattr(prog.fn, "steps", None)
    return len(steps) if steps is not None else max(1, len(ft.outside_strings(text)) // 4)


class Work:
    """The count of one workbook's work (``Evaluation`` keeps one)."""

    __slots__ = ("total", "compiled", "cells", "calls", "read", "cpu0", "by_column",
                 "windows", "columns", "_fast", "by_index", "tables", "_looks", "units")

    def __init__(self):
        self.total = 0  # the units counted so far
        self.compiled = 0  # characters of formulas compiled
        self.cells = self.calls = self.read = 0  # per computation of the workbook
        self.by_column = self.windows = 0  # ranges read by their columns' matches, cells
        self.columns: dict = {}  # (sheet, column) -> its cells, made an array once
        self._fast: dict = {}  # id(compiled function) -> fast_inputs
        self.by_index = 0  # ranges a lookup finds its key in by an index
        self.tables: dict = {}  # (sheet, r1, c1, r2, c2) -> its cells, indexed once
        self._looks: dict = {}  # id(compiled function) -> lookup_inputs
        self.units: dict = {}  # id(node) -> its units in a computation (``compute(only)``)
        self.cpu0 = time.process_time()
        context.STATE.cells_read = 0

    def compile(self, text: str) -> None:
        """Count compiling ``text``; refuse once the count passes the limit (``limit``)."""
        self.compiled += len(text)
        self.total += COMPILE_CHAR * len(text)
        if self.total > limit():
            raise guard.WorkbookError(self._sentence(f"compiling its formulas counts past "
                                                     f"{self.total:,} units of work"))

    def count(self, node, clip, rows=None) -> None:
        """Count one formula cell (or defined name) once its inputs are known (``node``,
        an ``addin.engine.book.Node``): the calls and operators it computes, the cells of
        the areas it reads (each as ``clip(area)`` reads it) and the cells it fills.
        ``rows(sheet, column, r1, r2)``: the cells of a column whose rows r1..r2 hold no
        formula (``addin.engine.columns.Columns.rows``; None where one does), a tall
        range of which a conditional aggregate reads by its column's matches."""
        self.cells += 1
        before = self._own()
        try:
            self._count(node, clip, rows)
        finally:
            self.units[id(node)] = FORMULA + self._own() - before

    def _count(self, node, clip, rows) -> None:
        if node.prog is None:  # (a formula napkin cannot read: its error value)
            return
        self.calls += calls_of(node.prog, node.text or "")
        fn = node.prog.fn
        fast = {} if rows is None else self._fast.get(id(fn))
        if fast is None:
            fast = self._fast[id(fn)] = fast_inputs(fn)
        looks = self._looks.get(id(fn))
        if looks is None:
            looks = self._looks[id(fn)] = lookup_inputs(fn)
        for i, (kind, arg) in enumerate(node.specs):
            if kind == "rng":
                for part in arg:
                    idx, r1, c1, r2, c2 = clip(part)
                    if i in looks and len(arg) == 1 and \
                            lookup_index.tall(looks[i], r2 - r1 + 1, c2 - c1 + 1):
                        self.by_index += 1
                        self.tables.setdefault((idx, r1, c1, r2, c2),
                                               (r2 - r1 + 1) * (c2 - c1 + 1))
                        continue
                    if i in fast and len(arg) == 1 and c1 == c2 and \
                            r2 - r1 + 1 >= criteria_columns.TALL:
                        n = rows(idx, c1, r1, r2)
                        if n is not None:
                            self.by_column += 1
                            self.windows += (r2 - r1 + 1) * fast[i]
                            self.columns.setdefault((idx, c1), n)
                            continue
                    self.read += (r2 - r1 + 1) * (c2 - c1 + 1)
        if node.spill is not None:
            r1, c1, r2, c2 = node.spill
            self.read += (r2 - r1 + 1) * (c2 - c1 + 1)

    def _own(self) -> int:
        """The units of the formulas counted so far, but the columns and ranges made
        arrays once in the workbook."""
        return (CALL * self.calls + CELL_READ * self.read + CRITERIA_RANGE * self.by_column
                + self.windows // WINDOW_CELLS + LOOKUP_RANGE * self.by_index)

    @property
    def per_computation(self) -> int:
        """The units of one computation of the workbook's formulas."""
        return (FORMULA * self.cells + CALL * self.calls + CELL_READ * self.read
                + CRITERIA_RANGE * self.by_column + self.windows // WINDOW_CELLS
                + CELL_READ * sum(self.columns.values())
                + LOOKUP_RANGE * self.by_index + CELL_READ * sum(self.tables.values()))

    def compute(self, only=None) -> None:
        """Count one computation of the workbook, or of the formulas ``only`` (a set of
        nodes: their own units, with every column and range made an array once, as the
        whole workbook's); refuse, before it starts, if it takes the count past the limit
        (``limit``)."""
        if only is None:
            this = self.per_computation
        else:
            this = sum(self.units.get(id(node), FORMULA) for node in only) + CELL_READ * (
                sum(self.columns.values()) + sum(self.tables.values()))
        self.total += this + CELL_READ * _read_while_computing()
        context.STATE.cells_read = 0
        if self.total > limit():
            raise guard.WorkbookError(self._sentence(
                f"computing it counts {self.total:,} units of work ({self.compiled:,} "
                f"characters of formulas compiled; {self.cells:,} formulas computing "
                f"{self.calls:,} calls and operators and reading {self.read:,} cells"
                f"{self._by_column()})"))

    def within_limits(self, node, done: int, total: int) -> None:
        """Refuse the workbook, computed up to formula ``node`` (the ``done``-th of
        ``total``), once the cells functions read beyond their formulas' references
        (``addin.formula.context.read_cells``) take the count past the limit, or
        computing has taken ``cpu_limit()`` seconds of measured CPU."""
        read = _read_while_computing()
        if read and self.total + CELL_READ * read > limit():
            raise guard.WorkbookError(self._sentence(
                f"computing it counts past {self.total + CELL_READ * read:,} units of "
                f"work by {node.label} ({done + 1:,} of {total:,} formulas), {read:,} "
                "of them cells that OFFSET or INDIRECT read, or criteria matched over "
                "whole columns"))
        if time.process_time() - self.cpu0 > cpu_limit():
            raise guard.WorkbookError(
                f"computing took more than {cpu_limit():g} s of CPU by "
                f"{node.label} ({done + 1:,} of {total:,} formulas): napkin computes a "
                f"workbook within {cpu_limit():g} s of CPU; {_FIX}")

    def _by_column(self) -> str:
        said = ""
        if self.by_column:
            said = (f", and {self.by_column:,} ranges of {self.windows:,} cells read by "
                    f"the matches of {len(self.columns):,} columns")
        if self.by_index:
            said += (f", and {self.by_index:,} ranges searched by the indexes of "
                     f"{len(self.tables):,} ranges of {sum(self.tables.values()):,} cells")
        return said

    @staticmethod
    def _sentence(what: str) -> str:
        return (f"{what}, more than the {limit():,} napkin computes a workbook within "
                f"(docs/bench.md, \"The work limit\"): {_FIX}")


def fast_inputs(fn) -> dict:
    """The inputs (their positions in a compiled function's ``inputs``) that only
    conditional aggregates read, each as a range they take by its column
    (``addin.excel.criteria_columns.range_positions``): 1 for one whose rows a formula
    reads (the range added or averaged), 0 for a criteria range only."""
    names, steps = getattr(fn, "names", None), getattr(fn, "steps", None)
    if not names or steps is None:
        return {}
    uses: dict = {}
    for name, step in zip(names, steps, strict=True):
        ins = step[1]
        ranged = criteria_columns.range_positions(name, len(ins))
        total = criteria_columns.total_position(name, len(ins))
        for pos, k in enumerate(ins):
            uses.setdefault(k, []).append((pos in ranged, pos == total))
    return {i: int(any(t for _, t in uses[k])) for i, k in enumerate(fn.in_ids)
            if k != fn.out and uses.get(k) and all(r for r, _ in uses[k])}


def lookup_inputs(fn) -> dict:
    """The inputs (their positions in a compiled function's ``inputs``) that only VLOOKUP,
    HLOOKUP or MATCH read, each as the range they search (their second argument): input
    position -> the function's name (``addin.excel.lookup_index.ALONG``)."""
    names, steps = getattr(fn, "names", None), getattr(fn, "steps", None)
    if not names or steps is None:
        return {}
    uses: dict = {}
    for name, step in zip(names, steps, strict=True):  # (the arguments: the inputs
        for pos, k in enumerate(k for k in step[1] if type(k) is str):  # named by text)
            searched = name in lookup_index.ALONG and pos == 1
            uses.setdefault(k, []).append(name if searched else None)
    out = {}
    for i, k in enumerate(fn.in_ids):
        found = uses.get(k)
        if k != fn.out and found and None not in found and len(set(found)) == 1:
            out[i] = found[0]
    return out


def _read_while_computing() -> int:
    return getattr(context.STATE, "cells_read", 0)
