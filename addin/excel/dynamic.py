"""Excel 365's dynamic-array functions SORT, UNIQUE, FILTER, TAKE and DROP, written after
Microsoft's pages and computed only where those pages (and values Excel saved) settle
the value; elsewhere ``Cannot`` (strict mode refuses the cell, --lenient keeps Excel's).

What the pages leave open, and napkin therefore refuses: an empty cell in the array
(Excel spills it as a value the pages do not give), SORT keys of mixed kinds (numbers
with text or logical values), text keys with characters other than letters and digits
(Excel's collation of punctuation and spaces), tied keys of rows that differ (whether
the sort is stable), text whose order by letters alone differs from the order with
case (upper-case letters first or not), UNIQUE of texts equal but for case (whether it compares text
case-insensitively) or of numbers equal to 15 digits but not exactly, an empty result
of UNIQUE, TAKE of more rows or columns than the array has, DROP of all of them from
the end, and
arguments outside the documented values (sort_order other than 1 or -1, a sort_index
past the array, an array of sort indexes).

Text keys are ordered as Excel's sort orders them: digits before letters, without case
(Microsoft Support, "Sort data in a range or table": 0 to 9, then A to Z; "Sort
Options", case-sensitive off by default); napkin sorts only keys where the order with
case would be the same.

References
----------
Microsoft Support, "SORT function", https://support.microsoft.com/en-us/office/
sort-function-22f63bd0-ccc8-4e2b-a6cf-ee3d7d3aa9d7; "UNIQUE function",
https://support.microsoft.com/en-us/office/unique-function-c5ab87fd-30a3-4ce9-9d1a-40204fb85e1e;
"FILTER function", https://support.microsoft.com/en-us/excel/filter-function (no match
and no if_empty: #CALC!; its examples give include as (C5:C20=H1)*(A5:A20=H2) and as a
sum, numbers read as TRUE when not 0); "TAKE function",
https://support.microsoft.com/en-us/excel/take-function (rows or columns 0: #CALC!);
"DROP function", https://support.microsoft.com/en-us/office/
drop-function-1cb4e151-9e17-4838-abe5-9ba48d8c6a34.
"""

from __future__ import annotations

import re

import numpy as np

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import context, fx
from addin.formula.arrays import grid
from udfs.machinery.errors import ExcelError

PLAIN_TEXT = re.compile(r"[A-Za-z0-9]*")


def array_of(v, fn: str) -> np.ndarray:
    """The array argument as a 2-D object grid: an error value given as the array is
    that error; an empty cell in it is refused (Excel's spilled value there is not on
    the function's page)."""
    ns = fx.load()
    if isinstance(v, ns.Ranges):
        v = v.value
    if isinstance(v, ns.XlError):
        raise ExcelError(str(v), context.message_for(str(v)) or f"{fn}'s array is an error")
    g = np.asarray(grid(v), dtype=object)
    if any(x is ns.EMPTY or x is None for x in g.flat):
        raise Cannot(f"{fn}() of an array holding an empty cell")
    return g


def omitted(v) -> bool:
    return v is None or fx.is_omitted(v)


def whole(v, what: str, default: int | None) -> int | None:
    """An argument that must be a whole number: ``default`` when left out; a number that
    is not whole (or no number) refused."""
    if omitted(v):
        return default
    x = xa.scalar(v, what)
    if x is fx.load().EMPTY or isinstance(x, (bool, np.bool_)) or not isinstance(
            x, (int, float, np.number)) or not float(x).is_integer():
        raise Cannot(f"{what} other than a whole number")
    return int(x)


def count(v, what: str, negative_fraction: bool = False) -> int | None:
    """A count of TAKE, DROP, CHOOSECOLS or CHOOSEROWS: None when left out; TRUE is 1 and a
    number is truncated toward 0, as Excel saved them (vinci1it2000/formulas'
    test/test_files/test.xlsx, LOOKUP!R6:AI9, S17, AB17, S125, AB124: 1.1 is 1, 2.9 is 2,
    TRUE 1, and in CHOOSECOLS -3.9 is -3); a negative fraction where no saved cell shows
    it, FALSE and anything else refused."""
    if omitted(v):
        return None
    x = xa.scalar(v, what)
    if x is True or (isinstance(x, np.bool_) and bool(x)):
        return 1
    if x is fx.load().EMPTY or isinstance(x, (bool, np.bool_)) or not isinstance(
            x, (int, float, np.number)):
        raise Cannot(f"{what} other than a number or TRUE")
    if float(x) < 0 and not float(x).is_integer() and not negative_fraction:
        raise Cannot(f"{what} a negative number that is not whole")
    return int(float(x))


def _flag(v, what: str) -> bool:
    """A logical argument (by_col, exactly_once): TRUE, FALSE, 1 or 0; left out FALSE."""
    if omitted(v):
        return False
    x = xa.scalar(v, what)
    if isinstance(x, (bool, np.bool_)) or (isinstance(x, (int, float, np.number))
                                           and float(x) in (0.0, 1.0)):
        return bool(x)
    raise Cannot(f"{what} other than TRUE, FALSE, 1 or 0")


def same15(a: float, b: float) -> bool:
    return f"{float(a):.15g}" == f"{float(b):.15g}"


def rows_equal(a, b) -> bool:
    return all(type(x) is type(y) and x == y for x, y in zip(a, b, strict=True))


# --------------------------------------------------------------------------- SORT


def sort(array, sort_index=None, sort_order=None, by_col=None):
    """Excel's ``SORT(array, [sort_index], [sort_order], [by_col])``: the rows (columns
    with ``by_col``) of ``array`` in the order of their ``sort_index``-th value, 1
    ascending (the default), -1 descending; the result has the array's shape."""
    g = array_of(array, "SORT")
    if not omitted(sort_index) and np.size(getattr(sort_index, "value", sort_index)) > 1:
        raise Cannot("SORT() given an array of sort indexes (a sort on several keys)")
    if not omitted(sort_order) and np.size(getattr(sort_order, "value", sort_order)) > 1:
        # SORT({2,1,2,1},1,{1;-1}): #VALUE! as Excel saved it (formulas' test.xlsx AR118)
        raise ExcelError("#VALUE!", "SORT's sort_order is an array where its sort_index is "
                                    "one number")
    idx = whole(sort_index, "SORT's sort_index", 1)
    order = whole(sort_order, "SORT's sort_order", 1)
    cols = _flag(by_col, "SORT's by_col")
    if cols:
        g = g.T
    if order not in (1, -1):
        raise Cannot("SORT's sort_order other than 1 or -1")
    if not 1 <= idx <= g.shape[1]:  # SORT(F117:G117,-1): #VALUE! (formulas' test.xlsx AR117)
        raise ExcelError("#VALUE!", "SORT's sort_index is not a column (or row) of its array")
    keys = list(g[:, idx - 1])
    kinds = {xa.kind(k) for k in keys}
    if kinds == {0}:
        ranked = [float(k) for k in keys]
    elif kinds == {1} and all(PLAIN_TEXT.fullmatch(k) for k in keys):
        ranked = [k.lower() for k in keys]
    else:
        raise Cannot("SORT() of keys other than all numbers or all text of letters and "
                     "digits (Excel's order of mixed kinds, errors and punctuation is not "
                     "on its page)")
    at = sorted(range(len(keys)), key=lambda i: ranked[i], reverse=order == -1)
    for i, j in zip(at, at[1:], strict=False):
        tied = same15(ranked[i], ranked[j]) if kinds == {0} else ranked[i] == ranked[j]
        if tied and not rows_equal(g[i], g[j]):
            raise Cannot("SORT() of rows that tie on their key but differ (whether Excel "
                         "keeps their order, or tells text apart by case, is not on its "
                         "page)")
        if kinds == {1} and not tied and (keys[i] < keys[j]) != (ranked[i] < ranked[j]):
            raise Cannot("SORT() of text whose order depends on case (upper before lower "
                         "or not: not on its page)")
    out = g[at, :]
    return (out.T if cols else out).view(fx.load().Array)


# --------------------------------------------------------------------------- UNIQUE


def unique(array, by_col=None, exactly_once=None):
    """Excel's ``UNIQUE(array, [by_col], [exactly_once])``: the distinct rows (columns
    with ``by_col``) of ``array`` in the order they first occur; with ``exactly_once``
    those that occur once only."""
    g = array_of(array, "UNIQUE")
    cols = _flag(by_col, "UNIQUE's by_col")
    once = _flag(exactly_once, "UNIQUE's exactly_once")
    if cols:
        g = g.T
    texts, numbers = set(), set()
    for x in g.flat:
        k = xa.kind(x)
        if k is None:
            raise Cannot("UNIQUE() of an array holding an error value")
        if k == 1:
            texts.add(x)
        elif k == 0:
            numbers.add(float(x))
    if len({t.lower() for t in texts}) != len(texts):
        raise Cannot("UNIQUE() of texts that differ only in case (whether Excel tells "
                     "them apart is not on its page)")
    if len({f"{n:.15g}" for n in numbers}) != len(numbers):
        raise Cannot("UNIQUE() of numbers equal to 15 digits but not exactly")

    def key(row):
        return tuple((xa.kind(x), float(x) if xa.kind(x) == 0 else bool(x)
                      if xa.kind(x) == 2 else x) for x in row)

    counts: dict = {}
    first: dict = {}
    for i, row in enumerate(g):
        k = key(row)
        counts[k] = counts.get(k, 0) + 1
        first.setdefault(k, i)
    keep = [i for k, i in first.items() if not once or counts[k] == 1]
    if not keep:
        raise Cannot("UNIQUE() with no row left (an empty result, whose error is not on "
                     "its page)")
    out = g[sorted(keep), :]
    return (out.T if cols else out).view(fx.load().Array)


# --------------------------------------------------------------------------- FILTER


def filter_(array, include, if_empty=None):
    """Excel's ``FILTER(array, include, [if_empty])``: the rows of ``array`` whose value
    of the one-column ``include`` is TRUE (a number other than 0), or its columns for a
    one-row ``include`` as wide as it; ``if_empty`` when none is, else ``#CALC!``."""
    ns = fx.load()
    g = array_of(array, "FILTER")
    inc = include.value if isinstance(include, ns.Ranges) else include
    if isinstance(inc, ns.XlError):
        raise Cannot("FILTER's include given an error value")
    inc = np.asarray(grid(inc), dtype=object)
    if inc.shape[1] == 1 and inc.shape[0] == g.shape[0]:
        along_rows = True
    elif inc.shape[0] == 1 and inc.shape[1] == g.shape[1]:
        along_rows = False
    else:  # as Excel saved FILTER(a 1x4 array,{FALSE;-2.1;4;4}): formulas' test.xlsx L19, O19
        raise ExcelError("#VALUE!", "FILTER's include is neither as tall nor as wide as "
                                    "its array")
    first = next((x for x in inc.flat if isinstance(x, ns.XlError)), None)
    if first is not None:  # the first error of include, as Excel saved it (AA22:AF22)
        raise ExcelError(str(first), context.message_for(str(first))
                         or "FILTER's include holds an error value")
    picks = []
    for x in inc.flat:
        k = xa.kind(x)
        if k not in (0, 2):
            raise Cannot("FILTER's include holding a value that is not a number or a "
                         "logical value (text, an empty cell or an error)")
        picks.append(bool(x))
    if not any(picks):
        if omitted(if_empty):
            raise ExcelError("#CALC!", "FILTER found no match and has no if_empty "
                                       "(Excel does not return empty arrays)")
        if np.size(getattr(if_empty, "value", if_empty)) != 1:  # spilled as it is, as
            return array_of(if_empty, "FILTER").view(ns.Array)  # Excel saved K20:K21
        return xa.scalar(if_empty, "FILTER's if_empty")
    out = g[picks, :] if along_rows else g[:, picks]
    return out.view(ns.Array)


# --------------------------------------------------------------------------- TAKE, DROP


def _counts(fn: str, g: np.ndarray, rows, columns) -> tuple[int | None, int | None]:
    return count(rows, f"{fn}'s rows"), count(columns, f"{fn}'s columns")


def take(array, rows=None, columns=None):
    """Excel's ``TAKE(array, rows, [columns])``: the first ``rows`` rows (the last for a
    negative count) and likewise columns; a count left out takes them all; 0 is
    ``#CALC!``, an empty array; a negative count beyond the array takes it all (Excel saved
    TAKE({1,2,3;4,5,6;7,8,9},-4) whole: formulas' test.xlsx LOOKUP!V123)."""
    g = array_of(array, "TAKE")
    r, c = _counts("TAKE", g, rows, columns)
    if r == 0 or c == 0:
        raise ExcelError("#CALC!", "TAKE of 0 rows or columns is an empty array")
    for n, size, what in ((r, g.shape[0], "rows"), (c, g.shape[1], "columns")):
        if n is not None and n > size:
            raise Cannot(f"TAKE() of more {what} than its array has (its page does not "
                         "say Excel's value)")
    rs = slice(None) if r is None else slice(r) if r > 0 else slice(r, None)
    cs = slice(None) if c is None else slice(c) if c > 0 else slice(c, None)
    return g[rs, cs].view(fx.load().Array)


def drop(array, rows=None, columns=None):
    """Excel's ``DROP(array, rows, [columns])``: ``array`` without its first ``rows``
    rows (its last for a negative count) and likewise columns; 0 drops none and dropping
    every row is ``#CALC!``, as Excel saved them (formulas' test.xlsx LOOKUP!V16, the whole
    array, where DROP's page says #CALC! for 0; LOOKUP!U16, 4 rows of 3 dropped, #CALC!)."""
    g = array_of(array, "DROP")
    r, c = _counts("DROP", g, rows, columns)
    for n, size in ((r, g.shape[0]), (c, g.shape[1])):
        if n is not None and n >= size:
            raise ExcelError("#CALC!", "DROP of every row or column is an empty array")
        if n is not None and n < 0 and -n >= size:
            raise Cannot("DROP() of every row or column from the end (no saved cell shows "
                         "Excel's value)")
    rs = slice(None) if not r else slice(r, None) if r > 0 else slice(r)
    cs = slice(None) if not c else slice(c, None) if c > 0 else slice(c)
    return g[rs, cs].view(fx.load().Array)
