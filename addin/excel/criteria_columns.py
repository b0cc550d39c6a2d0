"""COUNTIF, COUNTIFS, SUMIF, SUMIFS, AVERAGEIF and AVERAGEIFS over tall ranges of columns
without formulas: each criterion matched over its column once, each formula's value then
taken from those matches over its rows.

A model that computes one such call per row over a data table, its ranges moving down a
row a cell (``COUNTIFS(G3:G9995,"lead")``, ``COUNTIFS(G4:G9996,"lead")``...), matched
every criterion over some 10,000 cells in every cell: 80,000 formulas read 1.6 billion
cells. Here (``over_columns``, put in formulas' table of functions after napkin's other
corrections of these functions, ``addin.formula.patches``) the criterion is matched by
the one implementation of the criteria there is, formulas' ``__xfilter`` as
``addin.formula.criterion_test.criteria`` corrects it, once over the column (cached in
``addin.engine.columns.Columns.cache``, keyed by sheet, column and criterion); the
matches of a formula's criteria are combined once per combination (with a running count
of them), and each formula takes its count from the running count, and its sum or mean
from the numbers of its rows that match, computed as the function itself computes them:
the same numpy sum (SUMIFS), mean (AVERAGEIFS) or sum in order (SUMIF, AVERAGEIF).

The value is the one the function gives on the formula's own ranges, or the function
itself computes it:

* strict mode's refusals of these functions (``context.refuse``: a criterion ``"<>"``
  over a formula's empty text, ``">2"`` over a text that reads as a number, TRUE over
  numbers, ranges of different sizes) are each about some cell of the ranges; the
  function is run once over the whole of the columns every formula's rows lie in, and
  if it refuses there, or the matching fails, every formula of that combination is
  computed by the function itself, on its own ranges;
* a formula whose matched rows hold, in the range summed, a text, a logical value or an
  error value (which SUMIFS and AVERAGEIFS read their own ways) is computed by the
  function, and so are ranges of more than one column or area, fewer than
  ``addin.engine.columns.TALL`` rows, a column that holds a formula, and criteria given
  as arrays.

The cells that leaves to the function are counted as work while computing
(``context.STATE.cells_read``, ``addin.engine.budget``), as are the cells of each
column a criterion is matched over and those of each run over whole columns.

References
----------
Microsoft Support, "COUNTIFS function", "SUMIFS function", "AVERAGEIFS function" (the
criteria ranges "must have the same number of rows and columns"; the cells counted are
those where every criterion is met).
"""

from __future__ import annotations

import functools

import numpy as np

from addin.formula import context, fx
from addin.formula import ranges as rg

#: the functions over_columns computes, by how they read their arguments: the range
#: they add or average first (SUMIFS), last (SUMIF) or none (COUNTIFS)
COUNTS = ("COUNTIF", "COUNTIFS")
TOTAL_FIRST = ("SUMIFS", "AVERAGEIFS")
TOTAL_LAST = ("SUMIF", "AVERAGEIF")
NAMES = COUNTS + TOTAL_FIRST + TOTAL_LAST
#: at least this many rows (as addin.engine.columns.TALL: a column read as one array)
TALL = 33
#: past this many combinations of criteria made for ranges at the same places, each
#: serving fewer than this many formulas on average, the function computes a formula
#: whose criteria are new (a criterion a row), and matches them when they come again
FEW = 4
#: the most rows of matches, running counts and numbers kept (at most 17 bytes a row:
#: about 340 MB); past it, the functions compute the formulas whose criteria are new
HELD = 20_000_000
#: the limit of an exact sum of whole numbers in a float
_EXACT = 2.0 ** 53
#: what a range summed holds in a row: nothing, a number, a text or logical value, an error
_EMPTY, _NUMBER, _OTHER, _ERROR = 0, 1, 2, 3


def range_positions(name: str, n: int) -> frozenset:
    """The positions of ``name``'s range arguments (of ``n``) over_columns reads by
    their columns: every criteria range, and the range added or averaged."""
    if name in ("COUNTIF", "SUMIF", "AVERAGEIF"):
        return frozenset((0, 2)) if name != "COUNTIF" and n == 3 else frozenset((0,))
    if name == "COUNTIFS":
        return frozenset(range(0, n, 2))
    if name in TOTAL_FIRST:
        return frozenset((0, *range(1, n, 2)))
    return frozenset()


def total_position(name: str, n: int) -> int | None:
    """The position of the range ``name`` adds or averages (of ``n`` arguments): the one
    whose rows each formula reads (its matched numbers), where a count reads none."""
    if name in TOTAL_FIRST:
        return 0
    if name in TOTAL_LAST:
        return 2 if n == 3 else 0
    return None


def over_columns(original, key: str):
    """``key``'s entry of formulas' table (``original``, with napkin's corrections)
    computed over the columns of its ranges where it can be (the module's docstring),
    else ``original`` itself."""
    name = key.removeprefix("_XLFN.")

    @functools.wraps(original)
    def computed(*args):
        store = getattr(context.STATE, "columns", None)
        if store is not None:
            got = _over_columns(store, name, original, args)
            if got is not None:
                return got
            _charge(_tall_cells(args))  # (the count may have taken them as matched)
        return original(*args)

    return computed


def _tall_cells(args) -> int:
    """The cells of the arguments that are tall ranges of one column: those
    ``addin.engine.budget`` may have counted as read by their columns' matches, counted
    as read while computing when the function reads them itself."""
    ns, n = fx.load(), 0
    for v in args:
        if isinstance(v, ns.Ranges) and len(v.ranges) == 1:
            _sid, r1, c1, r2, c2 = rg.areas(v)[0]
            if c1 == c2 and r2 - r1 + 1 >= TALL:
                n += r2 - r1 + 1
    return n


def _layout(name: str, args):
    """(the criteria ranges, the criteria, the range totalled or None); None when the
    arguments are not of the function's form."""
    n = len(args)
    if name in COUNTS:
        if n < 2 or n % 2 or (name == "COUNTIF" and n != 2):
            return None
        return args[0::2], args[1::2], None
    if name in TOTAL_LAST:
        if n not in (2, 3):
            return None
        return (args[0],), (args[1],), args[2] if n == 3 else args[0]
    if n < 3 or n % 2 == 0:
        return None
    return args[1::2], args[2::2], args[0]


def _area(store, value):
    """(sheet, r1, column, r2) of a Ranges value of one tall area of one column whose
    rows hold no formula."""
    ns = fx.load()
    if not isinstance(value, ns.Ranges) or len(value.ranges) != 1:
        return None
    sid, r1, c1, r2, c2 = rg.areas(value)[0]
    idx = store.index(sid)
    if not (0 < r1 and 0 < c1 == c2) or r2 - r1 + 1 < TALL or idx is None or \
            store.gap(idx, c1, r1, r2) is None:
        return None
    return idx, r1, c1, r2


def _criterion(value):
    """(the one criterion, the shape of the argument) or None (an array of several)."""
    value = getattr(value, "value", value)
    if isinstance(value, np.ndarray):
        if value.size != 1:
            return None
        return value.flat[0], value.shape
    return value, ()


def _over_columns(store, name: str, original, args):
    layout = _layout(name, args)
    if layout is None:
        return None
    tests, conditions, total = layout
    areas = [_area(store, t) for t in tests] + \
        ([_area(store, total)] if total is not None else [])
    if any(a is None for a in areas) or len({a[3] - a[1] for a in areas}) != 1:
        return None
    crits = [_criterion(c) for c in conditions]
    if any(c is None for c in crits):
        return None
    try:
        shape = np.broadcast_shapes(*(s for _, s in crits))
        ckeys = tuple((type(c).__name__, c) for c, _ in crits)
        hash(ckeys)
    except (TypeError, ValueError):
        return None
    first = areas[0][1]
    # the combination: each range by sheet, column and rows from the first range's
    shifts = tuple((idx, c, r1 - first) for idx, r1, c, _ in areas)
    key = (name, ckeys, shifts)
    a, b = first, areas[0][3]  # the formula's rows, in the first range
    combo = store.cache.get(key)
    if combo is None or (combo is not False and not combo.lo <= a <= b <= combo.hi):
        family = store.cache.setdefault(("family", name, shifts), [0, 0, set()])
        if store.cache.get("held", 0) > HELD:  # (the memory of the matches kept)
            combo = None
        elif combo is None and family[0] >= FEW and family[1] < FEW * family[0] and \
                ckeys not in family[2]:  # (a criterion a formula: matching each over
            family[2].add(ckeys)  # whole columns would do more than the function over
            combo = None  # each formula's rows; a criterion seen again is matched)
        elif combo is None:
            combo = _Combination.made(store, name, original, key, (a, b), a, b)
        else:  # (twice the rows, for the next formulas of a block moving down)
            span = combo.hi - combo.lo + 1
            combo = _Combination.made(store, name, original, key, (a, b),
                                      min(a, combo.lo - span), max(b, combo.hi + span))
        if combo is not None:
            store.cache[key] = combo
            family[0] += 1
    value = combo.value(a, b) if combo else None
    if value is None:  # (computed by the function)
        return None
    store.cache[("family", name, shifts)][1] += 1
    out = np.empty(shape, dtype=object)
    out[...] = value
    return out.view(fx.load().Array)


class _Quiet:
    """Strict mode's refusals while a function runs over whole columns, kept apart from
    the cell's (``refused``: whether there was one)."""

    _KEYS = ("own", "refuse_pending", "refused_in")

    def __enter__(self):
        st = context.STATE
        self._saved = [getattr(st, k, None) for k in self._KEYS]
        self.own = {}
        st.own, st.refuse_pending, st.refused_in = self.own, None, None
        return self

    def __exit__(self, *exc):
        for k, v in zip(self._KEYS, self._saved, strict=True):
            setattr(context.STATE, k, v)
        return False

    @property
    def refused(self) -> bool:
        return bool(self.own)


def _charge(cells: int) -> None:
    context.STATE.cells_read = getattr(context.STATE, "cells_read", 0) + cells


def _hold(store, rows: int) -> None:
    store.cache["held"] = store.cache.get("held", 0) + rows


def _matches(store, idx: int, col: int, crit, last: int):
    """Whether each row of a column (``[r]``, to row ``last`` at least) meets ``crit``,
    by formulas' criteria (``__xfilter``, as napkin corrects it); None where that refuses
    or fails. Cached per sheet, column and criterion."""
    key = ("match", idx, col, type(crit).__name__, crit)
    got = store.cache.get(key)
    if got is not None and (got is False or len(got) > last):
        return got if got is not False else None
    arr = store.column(idx, col, last)
    ns = fx.load()
    fns = ns.formulas.functions
    raw = fns.replace_empty(arr[:, None], "")
    _charge(len(arr))
    try:
        with _Quiet() as quiet:
            found = np.asarray(getattr(fns, "__xfilter")({"raw": raw}, crit), dtype=bool)
    except Exception:  # (its refusals raise ValueError: the function computes each)
        found, quiet = None, None
    if found is None or quiet.refused or found.shape != raw.shape:
        store.cache[key] = False
        return None
    found = found[:, 0]
    store.cache[key] = found
    _hold(store, len(found))
    return found


def _kinds(store, idx: int, col: int, last: int) -> tuple:
    """What each cell of a column summed holds (``_EMPTY``...) by row (to row ``last`` at
    least), its number as a float (0 elsewhere), and the largest size of a whole number
    there. Cached per sheet and column."""
    key = ("kinds", idx, col)
    got = store.cache.get(key)
    if got is not None and len(got[0]) > last:
        return got
    ns = fx.load()
    values = store.column(idx, col, last)
    _charge(len(values))
    kinds = np.full(len(values), _OTHER, dtype=np.int8)
    numbers = np.zeros(len(values))
    largest = 0.0
    for i, v in enumerate(values):
        t = type(v)
        if v is ns.EMPTY:
            kinds[i] = _EMPTY
        elif t is float or t is int:
            kinds[i], numbers[i] = _NUMBER, v
            if t is int:
                largest = max(largest, abs(float(v)))
        elif isinstance(v, ns.XlError):
            kinds[i] = _ERROR
    got = store.cache[key] = kinds, numbers, largest
    _hold(store, len(values))
    return got


class _Combination:
    """The rows of a combination of criteria's ranges (by their first range's rows
    ``lo``..``hi``) where every criterion is met, with their running count, and the
    range totalled's numbers on those rows."""

    __slots__ = ("name", "lo", "hi", "count", "summed", "numbers", "unread", "largest")

    @classmethod
    def made(cls, store, name: str, original, key, window: tuple, first: int, last: int):
        """The combination of ``key`` over the first range's rows ``first``..``last`` (at
        most: the rows of its columns about ``window``, the rows (a, b) of a formula,
        without formulas); False where the function refuses over those rows of the
        columns, or a criterion's matching fails."""
        a, b = window
        _, ckeys, ranges = key
        lo, hi = max(1, 1 - min(d for _, _, d in ranges), first), last
        for idx, col, d in ranges:  # (only rows without formulas, those of the window's)
            g = store.gap(idx, col, a + d, b + d)
            lo, hi = max(lo, g[0] - d), min(hi, g[1] - d)
        # the function once over the whole columns (strict mode's refusals are of cells)
        whole = []
        for idx, col, d in ranges:
            arr = store.column(idx, col, hi + d)
            sid = store.wb.sheets[idx].sid
            whole.append(rg.one_range(rg.area_ref(sid, lo + d, col, hi + d, col),
                                      arr[lo + d:hi + d + 1, None].copy()))
        _charge((hi - lo + 1) * len(ranges))
        crits = [c for _, c in ckeys]
        args = _arguments(name, whole, crits)
        try:
            with _Quiet() as quiet:
                original(*args)
        except Exception:
            return False
        if quiet.refused:
            return False
        self = cls()
        self.name, self.lo, self.hi = name, lo, hi
        met = np.ones(hi - lo + 1, dtype=bool)
        for (idx, col, d), crit in zip(ranges[:len(crits)], crits, strict=True):
            found = _matches(store, idx, col, crit, hi + d)
            if found is None:
                return False
            met &= found[lo + d:hi + d + 1]
        self.count = np.concatenate(([0], np.cumsum(met, dtype=np.int64)))
        _hold(store, len(met) * (1 if name in COUNTS else 2))
        if name not in COUNTS:  # the numbers met, and a running count of the cells met
            idx, col, d = ranges[-1]  # the function reads its own way (in the range
            kinds, numbers, self.largest = _kinds(store, idx, col, hi + d)  # totalled)
            kinds, self.numbers = kinds[lo + d:hi + d + 1], numbers[lo + d:hi + d + 1]
            self.summed = met & (kinds == _NUMBER)
            unread = met & ((kinds == _ERROR) if name in TOTAL_LAST else (kinds >= _OTHER))
            self.unread = np.concatenate(([0], np.cumsum(unread, dtype=np.int64)))
        return self

    def value(self, a: int, b: int):
        """The function's value over the first range's rows ``a``..``b``; None where the
        function computes it itself."""
        i, j = a - self.lo, b - self.lo + 1
        if self.name in COUNTS:
            return int(self.count[j] - self.count[i])
        if self.unread[j] > self.unread[i]:
            return None
        xs = self.numbers[i:j][self.summed[i:j]]
        if self.name in TOTAL_LAST:  # SUMIF, AVERAGEIF: the numbers added in order
            added = float(np.cumsum(np.concatenate(([0.0], xs)))[-1])
            if self.name == "SUMIF":
                return added
            return added / len(xs) if len(xs) else fx.load().errors["#DIV/0!"]
        if self.name == "SUMIFS":
            return np.sum(xs)
        if not len(xs):
            return fx.load().errors["#DIV/0!"]
        if self.largest * len(xs) >= _EXACT:  # (a sum of whole numbers numpy adds so)
            return None
        return np.mean(xs)


def _arguments(name: str, whole: list, crits: list) -> tuple:
    """The arguments of ``name`` with the ranges ``whole`` (criteria ranges, then the
    range totalled) and the criteria ``crits``."""
    tests = whole[:len(crits)]
    pairs = [x for pair in zip(tests, crits, strict=True) for x in pair]
    if name in COUNTS:
        return tuple(pairs)
    if name in TOTAL_LAST:
        return (*pairs, whole[-1]) if len(whole) > len(crits) else tuple(pairs)
    return (whole[-1], *pairs)


def range_given_an_error(original, key: str):
    """formulas' conditional aggregate ``key`` given an error value where it takes a range
    (``SUMIFS(#REF!,#REF!,A4)``, the references of a deleted sheet): that error value,
    where formulas matched the criteria over it as over a cell and gave 0 (SUMIF, SUMIFS,
    COUNTIF, COUNTIFS) or #DIV/0! (AVERAGEIF). An error value in an argument before it
    (a criterion, which matches cells holding that error) stops strict mode
    (``context.refuse``): which of the two Excel gives, no page says.

    References: [MS-VSDX] 2.2.11.2.2.2.8 ("When a function encounters a PtgErr as one of
    its arguments, it returns the same error value"); the 70 cells Excel saved as #REF!
    of ``SUMIFS(#REF!,#REF!,'(Inc) OU Profitability'!A4)`` (B4:E17 and G4:G17) in the
    business corpus's eleventh part (seen), Sukhmani252/Last-Mile-Logistics-Optimization,
    Cost Calculator.xlsx."""

    @functools.wraps(original)
    def checked(*args):
        ns, takes_range = fx.load(), range_positions(key, len(args)).__contains__
        for i, a in enumerate(args):
            if isinstance(a, ns.XlError):
                if takes_range(i):
                    return a
                if any(isinstance(b, ns.XlError) for j, b in enumerate(args)
                       if j > i and takes_range(j)):
                    context.refuse(f"{key}() given an error value as a criterion before "
                                   "one in place of a range")
                    return ns.errors["#VALUE!"]
        return original(*args)

    return checked
