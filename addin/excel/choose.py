"""Excel's CHOOSE: the value (or reference) its index picks, element by element where
the index is an array.

References
----------
Microsoft Support, "CHOOSE function".
"""

from __future__ import annotations

import math

import numpy as np

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import fx
from addin.formula.arrays import as_2d, grid
from udfs.machinery.errors import ExcelError


def choose(index_num, *values):
    """Excel's ``CHOOSE(index_num, value1, [value2], ...)``: the value (or reference)
    numbered ``index_num`` (truncated), as it is: ``SUM(CHOOSE(2,A1:A3,B1:B3))`` sums
    B1:B3. ``#VALUE!`` if index_num is below 1 or beyond the last value. An array of
    index numbers chooses element by element (``CHOOSE({1,2},A1:A3,B1:B3)`` is the two
    columns side by side)."""
    ns = fx.load()
    if not values:
        raise ExcelError("#VALUE!", "CHOOSE needs a value after index_num")
    idx = index_num.value if isinstance(index_num, ns.Ranges) else index_num
    if isinstance(idx, np.ndarray) and idx.size > 1:
        return _choose_each(as_2d(idx), values)
    i = _pick(index_num, len(values))
    v = values[i]
    return ns.EMPTY if fx.is_omitted(v) else v  # an omitted value is 0 in Excel


def _pick(index_num, n: int) -> int:
    v = xa.scalar(index_num, "CHOOSE's index_num")
    if isinstance(v, (bool, np.bool_)):
        raise Cannot("CHOOSE with TRUE or FALSE as its index_num (Excel's value for it "
                     "is not documented)")
    i = math.trunc(xa.number(v, "CHOOSE's index_num"))
    if not 1 <= i <= n:
        raise ExcelError("#VALUE!", f"CHOOSE's index_num {i} is not between 1 and {n}")
    return i - 1


def _choose_each(idx, values):
    ns = fx.load()
    arrays = []
    for v in values:
        arrays.append(np.asarray(grid(v), dtype=object))
    rows = max([idx.shape[0]] + [a.shape[0] for a in arrays])
    cols = max([idx.shape[1]] + [a.shape[1] for a in arrays])

    def at(a, r, c):  # Excel's expansion: one row or column repeats, else #N/A beyond
        rr = 0 if a.shape[0] == 1 else r
        cc = 0 if a.shape[1] == 1 else c
        return a[rr, cc] if rr < a.shape[0] and cc < a.shape[1] else ns.errors["#N/A"]

    out = np.empty((rows, cols), dtype=object)
    for r in range(rows):
        for c in range(cols):
            k = at(idx, r, c)
            if isinstance(k, ns.XlError):
                out[r, c] = k
                continue
            try:
                out[r, c] = at(arrays[_pick(k, len(values))], r, c)
            except ExcelError as ex:
                out[r, c] = ns.errors[ex.code]
    return out.view(ns.Array)
