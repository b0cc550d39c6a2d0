"""Excel 365's functions that build or reshape arrays: SEQUENCE, RANDARRAY, CHOOSECOLS,
CHOOSEROWS, VSTACK, HSTACK and SORTBY, written after Microsoft's pages; what the pages
leave open is ``Cannot`` (strict mode refuses the cell), as in ``addin.excel.dynamic``:
an empty cell in an array (what Excel spills for it is not on the pages), SEQUENCE's
counts below 1 or not whole, and a start or step that is not whole in more than one row
and column (Excel adds the step each time, as the cells it saved show for one row or
column: the last digits of a fraction), RANDARRAY's counts as SEQUENCE's, a min not below
its max and whole numbers between bounds that are not whole, SORTBY's keys as
SORT's (all numbers, or all text of letters and digits whose order does not depend on
case, no tie between rows that differ).

References
----------
Microsoft Support, "SEQUENCE function", https://support.microsoft.com/en-us/office/
sequence-function-57467a98-57e0-4817-9f14-2eb78519ca90 (=SEQUENCE(4,5) is 1 to 20 by
rows; optional arguments left out are 1); "CHOOSECOLS function",
https://support.microsoft.com/en-us/Excel/choosecols-function and "CHOOSEROWS function"
(#VALUE! where the absolute value of a number is 0 or exceeds the columns or rows; a
negative one counts from the end); "VSTACK function",
https://support.microsoft.com/en-us/excel/vstack-function and "HSTACK function" (the
rows added up, the widest width, #N/A where an array is narrower); "SORTBY function",
https://support.microsoft.com/en-us/office/sortby-function-cd2d7a62-1b93-435c-b561-d6a35134f28f
(by_array one row or one column as long as the array, else #VALUE!; sort orders 1 or -1);
"RANDARRAY function", https://support.microsoft.com/en-us/office/
randarray-function-21261e55-3bec-4885-86a6-8b0a47fd4d33 (rows and columns 1, min 0, max 1
and decimal numbers when left out; #VALUE! unless min is less than max; TRUE for whole
numbers; volatile, like RAND).
"""

from __future__ import annotations

import random

import numpy as np

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.excel.dynamic import PLAIN_TEXT, array_of, count, omitted, rows_equal, same15, whole
from addin.formula import fx
from udfs.machinery.errors import ExcelError

#: SEQUENCE's largest result napkin builds (Excel's sheet has 1,048,576 x 16,384 cells)
MAX_CELLS = 1_048_576


def sequence(rows, columns=None, start=None, step=None):
    """Excel's ``SEQUENCE(rows, [columns], [start], [step])``: ``rows`` x ``columns``
    numbers from ``start`` by ``step``, along each row then down; left out, each is 1.

    A start or step that is not whole is added step by step, as Excel does: the cells it
    saved in the business corpus's fourth held-out part (seen), LBO Model.xlsx's
    ``SEQUENCE(1,5,2%,1%)`` ending in 0.060000000000000005 and ``SEQUENCE(5,1,11.5%,2%)``
    in 0.19499999999999998 (2% x 4 added to the start would give 0.06 and 0.195), bit for
    bit; in more than one row and column (the order of the additions no cell shows)
    refused."""
    r = whole(rows, "SEQUENCE's rows", 1)
    c = whole(columns, "SEQUENCE's columns", 1)
    a = _number(start, "SEQUENCE's start", 1)
    s = _number(step, "SEQUENCE's step", 1)
    if r < 1 or c < 1:
        raise Cannot("SEQUENCE() of fewer than 1 row or column (its page gives no value)")
    stepwise = not (float(a).is_integer() and float(s).is_integer())
    if stepwise and r > 1 and c > 1:
        raise Cannot("SEQUENCE's start or step other than a whole number in more than one "
                     "row and column (the order Excel adds the steps in no saved cell shows)")
    if r * c > MAX_CELLS or max(abs(a), abs(a + s * (r * c - 1))) >= 2 ** 53:
        raise Cannot("SEQUENCE() larger than napkin builds exactly")
    out = np.empty((r, c), dtype=object)
    value = a
    for k, (i, j) in enumerate(np.ndindex(r, c)):
        if stepwise:
            out[i, j], value = value, value + s
        else:
            out[i, j] = int(a) + int(s) * k
    return out.view(fx.load().Array)


def _number(v, what: str, default: int) -> float | int:
    """A number argument (a whole one as an int): ``default`` when left out; anything
    but a finite number refused."""
    if omitted(v):
        return default
    x = xa.scalar(v, what)
    if x is fx.load().EMPTY or isinstance(x, (bool, np.bool_)) or not isinstance(
            x, (int, float, np.number)) or not np.isfinite(float(x)):
        raise Cannot(f"{what} other than a number")
    return int(x) if float(x).is_integer() else float(x)


#: RANDARRAY's draws (Python's Mersenne Twister, seeded by the system)
_RANDOM = random.Random()


def randbetween(bottom, top):
    """Excel's ``RANDBETWEEN(bottom, top)``: a random whole number from ``bottom`` to
    ``top``, both included; ``#NUM!`` where bottom is greater than top (Microsoft Support,
    "RANDBETWEEN function", https://support.microsoft.com/en-us/office/
    randbetween-function-4cc7f0d1-87dc-4eb7-987f-a469ab381685). Volatile, like RAND: a new
    draw each time the workbook is computed (the census leaves its cells out). A bound
    that is not whole (Excel rounds it up or down, the page does not say) is ``Cannot``.
    formulas gave a number that is not whole (RANDBETWEEN(1,3) 2.51...)."""
    if omitted(bottom) or omitted(top):
        raise Cannot("RANDBETWEEN with an argument left out")
    lo = _number(bottom, "RANDBETWEEN's bottom", 0)
    hi = _number(top, "RANDBETWEEN's top", 0)
    if not (float(lo).is_integer() and float(hi).is_integer()):
        raise Cannot("RANDBETWEEN() given a bound that is not a whole number (its page does "
                     "not say how Excel rounds it)")
    if lo > hi:
        raise ExcelError("#NUM!", "RANDBETWEEN's bottom is greater than its top")
    return _RANDOM.randint(int(lo), int(hi))


def randarray(rows=None, columns=None, low=None, high=None, whole_number=None):
    """Excel's ``RANDARRAY([rows], [columns], [min], [max], [whole_number])``: ``rows`` x
    ``columns`` random numbers from ``min`` (``low``) up to ``max`` (``high``; 0 and 1 when
    left out), whole numbers from ``min`` to ``max`` with ``whole_number`` TRUE. Volatile,
    like RAND: a new draw each time the workbook is computed (the census leaves its cells
    out)."""
    r = whole(rows, "RANDARRAY's rows", 1)
    c = whole(columns, "RANDARRAY's columns", 1)
    lo = _number(low, "RANDARRAY's min", 0)
    hi = _number(high, "RANDARRAY's max", 1)
    if omitted(whole_number):
        integers = False
    else:
        flag = xa.scalar(whole_number, "RANDARRAY's whole_number")
        if not isinstance(flag, (bool, np.bool_)):
            raise Cannot("RANDARRAY's whole_number other than TRUE or FALSE")
        integers = bool(flag)
    if r < 1 or c < 1:
        raise Cannot("RANDARRAY() of fewer than 1 row or column (its page gives no value)")
    if r * c > MAX_CELLS:
        raise Cannot("RANDARRAY() larger than napkin builds")
    if lo == hi:
        raise Cannot("RANDARRAY with min equal to max (its page: min must be less than max,"
                     " else #VALUE!; whether an equal one is refused it does not show)")
    if lo > hi:
        raise ExcelError("#VALUE!", "RANDARRAY's min is greater than its max")
    if integers and not (float(lo).is_integer() and float(hi).is_integer()):
        raise Cannot("RANDARRAY's whole numbers between a min or max that is not whole")
    out = np.empty((r, c), dtype=object)
    for i, j in np.ndindex(r, c):
        out[i, j] = _RANDOM.randint(int(lo), int(hi)) if integers else \
            lo + (hi - lo) * _RANDOM.random()
    return out.view(fx.load().Array)


def _chosen(fn: str, g: np.ndarray, nums, axis: int) -> np.ndarray:
    size = g.shape[axis]
    picks = []
    for n in nums:
        for v in _numbers(fn, n):
            if v == 0 or abs(v) > size:
                raise ExcelError("#VALUE!", f"{fn}: a number of 0 or beyond the array's "
                                            f"{'columns' if axis else 'rows'}")
            picks.append(v - 1 if v > 0 else size + v)
    return np.take(g, picks, axis=axis)


def _numbers(fn: str, v) -> list[int]:
    """The numbers of an argument of CHOOSECOLS or CHOOSEROWS (one, or a row or column of
    them; a block of several rows and columns is #VALUE!, as Excel saved
    CHOOSECOLS(...,D6:E7) in formulas' test.xlsx LOOKUP!AH6), each truncated toward 0
    (``addin.excel.dynamic.count``)."""
    ns = fx.load()
    if isinstance(v, ns.Ranges):
        v = v.value
    if isinstance(v, np.ndarray) and v.ndim == 2 and 1 not in v.shape:
        raise ExcelError("#VALUE!", f"{fn}'s numbers given a block of several rows and "
                                    "columns")
    vals = list(np.asarray(v, dtype=object).flat) if isinstance(v, np.ndarray) else [v]
    return [count(x, f"{fn}'s numbers", negative_fraction=True) for x in vals]


def choosecols(array, col_num1, *more):
    """Excel's ``CHOOSECOLS(array, col_num1, [col_num2], ...)``: the columns named, in
    that order (a negative number counts from the last)."""
    return _chosen("CHOOSECOLS", array_of(array, "CHOOSECOLS"), (col_num1, *more),
                   1).view(fx.load().Array)


def chooserows(array, row_num1, *more):
    """Excel's ``CHOOSEROWS(array, row_num1, [row_num2], ...)``: the rows named, in that
    order (a negative number counts from the last)."""
    return _chosen("CHOOSEROWS", array_of(array, "CHOOSEROWS"), (row_num1, *more),
                   0).view(fx.load().Array)


def _stack(fn: str, arrays, axis: int):
    ns = fx.load()
    grids = [array_of(a, fn) for a in arrays]
    other = 1 - axis
    width = max(g.shape[other] for g in grids)
    parts = []
    for g in grids:
        if g.shape[other] < width:
            pad = [(0, 0), (0, 0)]
            pad[other] = (0, width - g.shape[other])
            full = np.empty(tuple(s + p[1] for s, p in zip(g.shape, pad, strict=True)),
                            dtype=object)
            full[...] = ns.errors["#N/A"]
            full[:g.shape[0], :g.shape[1]] = g
            g = full
        parts.append(g)
    return np.concatenate(parts, axis=axis).view(ns.Array)


def vstack(array1, *more):
    """Excel's ``VSTACK(array1, [array2], ...)``: the arrays one below the other, as wide
    as the widest, ``#N/A`` where one is narrower."""
    return _stack("VSTACK", (array1, *more), 0)


def hstack(array1, *more):
    """Excel's ``HSTACK(array1, [array2], ...)``: the arrays side by side, as tall as the
    tallest, ``#N/A`` where one is shorter."""
    return _stack("HSTACK", (array1, *more), 1)


def sortby(array, by_array1, sort_order1=None, *more):
    """Excel's ``SORTBY(array, by_array1, [sort_order1], [by_array2, sort_order2], ...)``:
    the rows (for one-row by_arrays, the columns) of ``array`` in the order of the
    by_arrays' values, each 1 ascending (the default) or -1 descending."""
    ns = fx.load()
    g = array_of(array, "SORTBY")
    pairs = [(by_array1, sort_order1)] + [
        (more[i], more[i + 1] if i + 1 < len(more) else None) for i in range(0, len(more), 2)]
    keys, orders, by_cols = [], [], set()
    for by, order in pairs:
        b = array_of(by, "SORTBY")
        if b.shape[1] == 1 and b.shape[0] == g.shape[0]:
            by_cols.add(False)
        elif b.shape[0] == 1 and b.shape[1] == g.shape[1]:
            by_cols.add(True)
        else:
            raise ExcelError("#VALUE!", "SORTBY's by_array is not one row or one column as "
                                        "long as the array")
        o = whole(order, "SORTBY's sort_order", 1)
        if o not in (1, -1):
            raise Cannot("SORTBY's sort_order other than 1 or -1")
        keys.append(list(b.flat))
        orders.append(o)
    if len(by_cols) != 1:  # #VALUE! as Excel saved it (formulas' test.xlsx LOOKUP!V120)
        raise ExcelError("#VALUE!", "SORTBY given by_arrays of rows and of columns")
    cols = by_cols.pop()
    if cols:
        g = g.T
    ranked = [_ranked(k) for k in keys]
    n = g.shape[0]

    def sort_key(i):
        return tuple(r[i] if o == 1 else _Desc(r[i]) for r, o in zip(ranked, orders,
                                                                      strict=True))

    at = sorted(range(n), key=sort_key)
    for i, j in zip(at, at[1:], strict=False):
        if all(_tied(r[i], r[j]) for r in ranked) and not rows_equal(g[i], g[j]):
            raise Cannot("SORTBY() of rows that tie on every key but differ (whether Excel "
                         "keeps their order is not on its page)")
    out = g[at, :]
    return (out.T if cols else out).view(ns.Array)


def _ranked(keys: list) -> list:
    kinds = {xa.kind(k) for k in keys}
    if kinds == {0}:
        return [float(k) for k in keys]
    if kinds == {1} and all(PLAIN_TEXT.fullmatch(k) for k in keys):
        low = [k.lower() for k in keys]
        by = sorted(range(len(keys)), key=lambda i: low[i])
        for i, j in zip(by, by[1:], strict=False):
            if low[i] != low[j] and (keys[i] < keys[j]) != (low[i] < low[j]):
                raise Cannot("SORTBY() of text whose order depends on case")
        return low
    raise Cannot("SORTBY() of keys other than all numbers or all text of letters and digits")


def _tied(a, b) -> bool:
    return same15(a, b) if isinstance(a, float) else a == b


class _Desc:
    """A key sorted the other way (for one descending key among ascending ones)."""

    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        return other.v < self.v

    def __eq__(self, other):
        return self.v == other.v
