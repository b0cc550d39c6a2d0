"""The values of an area as the engine reads them, and the columns between formula cells.

The rows of a column between two of its formula cells keep their values while the
workbook is computed, so a column's values are made into one numpy array once
(``Columns.column``, its formula cells left empty there), a tall area of one column
whose rows hold no formula is a read-only view of it (``Columns.block``) instead of a
cell-by-cell read of the sheet, and depends on no formula (``Columns.formula_free``);
the forms of argument such an area gives (``addin.engine.forms.value_forms``) come from
running counts over the column (``Columns.forms``). ``Columns`` is what
``addin.engine.evaluator.Evaluation`` keeps, and what the conditional aggregates find in
``addin.formula.context.STATE.columns`` while a workbook is computed
(``addin.excel.criteria_columns``): their criteria are matched over a column once.
"""

from __future__ import annotations

import bisect

import numpy as np

from addin.engine.boot import ready
from addin.formula import context, ranges
from addin.ooxml import xlsx_values as xv

#: an area of one column at least this tall is read from the column's array
TALL = 32


def block(sheet, r1: int, c1: int, r2: int, c2: int) -> np.ndarray:
    """The values of an area of ``sheet`` as a fresh 2-D object array, cell by cell (an
    empty cell as formulas' EMPTY)."""
    vals = sheet.values
    arr = np.empty((r2 - r1 + 1, c2 - c1 + 1), dtype=object)
    if r1 == r2 and c1 == c2:  # one cell (most references)
        v = vals.get((r1, c1))
        arr[0, 0] = ready().EMPTY if v is None else v
        return arr
    arr[:] = ready().EMPTY
    if arr.size <= len(vals):
        for r in range(r1, r2 + 1):
            for c in range(c1, c2 + 1):
                v = vals.get((r, c))
                if v is not None:
                    arr[r - r1, c - c1] = v
    else:
        for (r, c), v in vals.items():
            if r1 <= r <= r2 and c1 <= c <= c2:
                arr[r - r1, c - c1] = v
    return arr


class Columns:
    """The columns of one workbook (``addin.engine.book.Workbook``), each made an array
    once for the rows between its formula cells, and ``cache``: what the conditional
    aggregates keep of them."""

    def __init__(self, wb):
        self.wb = wb
        self._formula_rows: dict[int, dict] = {}  # sheet -> column -> its formulas' rows
        self._by_column: dict[int, dict] = {}  # sheet -> column -> [(row, value)]
        self._arrays: dict[tuple, np.ndarray] = {}  # (sheet, column) -> values by row
        self._index = {s.sid: s.index for s in wb.sheets}
        self.cache: dict = {}  # (addin.excel.criteria_columns: matches, numbers)

    def index(self, sid: str) -> int | None:
        """The index of the sheet whose formulas' id is ``sid``."""
        return self._index.get(sid)

    def _formulas(self, idx: int) -> dict:
        got = self._formula_rows.get(idx)
        if got is None:
            got = {}
            for (r, c) in self.wb.sheets[idx].formula_at:
                got.setdefault(c, []).append(r)
            for rows in got.values():
                rows.sort()
            self._formula_rows[idx] = got
        return got

    def gap(self, idx: int, col: int, r1: int, r2: int) -> tuple[int, int] | None:
        """The rows (first, last) of the longest run of rows of a column without formula
        cells that holds rows ``r1``..``r2``; None when one of those holds a formula."""
        rows = self._formulas(idx).get(col)
        if not rows:
            return 1, xv.MAX_ROW
        at = bisect.bisect_left(rows, r1)
        if at < len(rows) and rows[at] <= r2:
            return None
        return (rows[at - 1] + 1 if at else 1), (rows[at] - 1 if at < len(rows)
                                                 else xv.MAX_ROW)

    def rows(self, idx: int, col: int, r1: int, r2: int) -> int | None:
        """The cells an array of a column holds (as far as its sheet's cells reach), when
        its rows ``r1``..``r2`` hold no formula; else None."""
        if self.gap(idx, col, r1, r2) is None:
            return None
        return self.wb.sheets[idx].max_r

    def formula_free(self, part) -> bool:
        """Whether an area ``(sheet, r1, c1, r2, c2)`` holds no formula cell."""
        idx, r1, c1, r2, c2 = part
        found = self._formulas(idx)
        if not found:
            return True
        return c2 - c1 < 64 and all(c not in found or self.gap(idx, c, r1, r2)
                                    for c in range(c1, c2 + 1))

    def column(self, idx: int, col: int, last: int) -> np.ndarray:
        """The values of a column by row (``[r]`` for row r, index 0 unused; EMPTY past
        the sheet's cells and in its formula cells, whose values change while the
        workbook is computed: read only the rows between them), to row ``last`` at
        least."""
        arr = self._arrays.get((idx, col))
        if arr is None or len(arr) <= last:
            sheet = self.wb.sheets[idx]
            n = max(last + 1, sheet.max_r + 2, 2 * len(arr) if arr is not None else 0)
            arr = np.empty(n, dtype=object)
            arr[:] = ready().EMPTY
            formulas = set(self._formulas(idx).get(col, ()))
            for r, v in self._cells(idx).get(col, ()):
                if r not in formulas:
                    arr[r] = v
            self._arrays[(idx, col)] = arr
        return arr

    def _cells(self, idx: int) -> dict:
        got = self._by_column.get(idx)
        if got is None:
            got = self._by_column[idx] = {}
            for (r, c), v in self.wb.sheets[idx].values.items():
                got.setdefault(c, []).append((r, v))
        return got

    def block(self, sheet, r1: int, c1: int, r2: int, c2: int) -> np.ndarray:
        """``block``, or a tall area of one column whose rows hold no formula: a view of
        the column's array that cannot be written to (a formula's ranges moving down a
        row a cell share the column's values)."""
        if c1 == c2 and r2 - r1 >= TALL and self.gap(sheet.index, c1, r1, r2) is not None:
            view = self.column(sheet.index, c1, r2)[r1:r2 + 1, None]
            view.flags.writeable = False
            return view
        return block(sheet, r1, c1, r2, c2)

    def forms(self, rng, cell_forms) -> frozenset | None:
        """The union of ``cell_forms(value)`` over the cells of a Ranges value that is a
        tall area of one column without formulas (None for another): from running counts
        of each form over the column, made once (its cells counted as read while
        computing, ``context.STATE.cells_read``)."""
        if len(rng.ranges) != 1:
            return None
        sid, r1, c1, r2, c2 = ranges.areas(rng)[0]
        idx = self._index.get(sid)
        if c1 != c2 or r2 - r1 < TALL or r1 < 1 or idx is None or \
                self.gap(idx, c1, r1, r2) is None:
            return None
        key = ("forms", idx, c1, cell_forms)
        got = self.cache.get(key)
        if got is None or got[0] <= r2:
            arr = self.column(idx, c1, r2)
            by_forms: dict = {}
            for r, v in enumerate(arr):
                f = cell_forms(v)
                if f:
                    by_forms.setdefault(f, []).append(r)
            counts = {}
            for f, rows in by_forms.items():
                at = np.zeros(len(arr), dtype=np.int64)
                at[rows] = 1
                counts[f] = np.cumsum(at)
            got = self.cache[key] = len(arr), counts
            context.STATE.cells_read = getattr(context.STATE, "cells_read", 0) + len(arr)
        out = frozenset()
        for f, count in got[1].items():
            if count[r2] > count[r1 - 1]:
                out |= f
        return out
