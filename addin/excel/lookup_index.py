"""The exact matches of VLOOKUP, HLOOKUP, MATCH, XLOOKUP and XMATCH over a tall range,
found by an index of its keys made once per range instead of a search of every key in
every formula.

A workbook of 73,148 formulas ``VLOOKUP(C2,PVP!A:B,2,0)`` searched some 30,000 keys in
each: 4.45 billion cells. While a workbook is computed (``addin.formula.context.STATE.
columns``, the engine's ``addin.engine.columns.Columns``), a range's values are one array
for every formula reading the same reference (``addin.engine.evaluator``'s cache of
areas); ``position`` makes, once per such array, a dictionary from each key of its first
column (VLOOKUP), first row (HLOOKUP) or only row or column (MATCH) to the first place it
holds it, and then finds a formula's value by looking it up there. The value is then the
function's own, computed by it on the one row (column, cell) found, or on one of empty
cells where nothing is found: so the result, the column past the table's (#REF!) and the
form of the value are formulas' as before, and only the search differs. XLOOKUP and
XMATCH (napkin's own, ``addin.excel.lookup``) with match_mode 0 and search_mode 1 or -1
take the first or last place of the key from their index (``x_position``), as their
search (``_position``) would find it.

Excel's rules kept (and where the index does not decide, the function searches itself):

* a number matches an equal number, a text a text equal without regard to case (Python's
  ``str.lower``, what formulas compares), never a number with a text (Microsoft KB
  213476, "When you look up a text value, Microsoft Excel looks only at the text values
  in your table"), and the first match wins ("If range_lookup is FALSE, VLOOKUP will only
  find an exact match. If there are two or more values in the first column of
  table_array that match the lookup_value, the first value found is used": Microsoft
  Support, "VLOOKUP function");
* logical values, error values and empty cells of the range are keys of no index; a
  lookup value that is one of them, an array of several, a number that is not a number
  (NaN), or a text with ``?``, ``*`` or ``~`` (wildcards in an exact match of text:
  Microsoft Support, "MATCH function", "VLOOKUP function") is searched by the function;
  so is a range whose keys hold anything but numbers, text, logical values, errors and
  empty cells, a range of several areas, a computed array (its values are new in each
  formula), and every lookup outside the computation of a workbook.

The index is never stale: it is kept with the array it was made of (so that its id is
not reused while it is kept) and that array is made read-only when the index is made,
so that a write into it raises instead of leaving the index behind; a reference read
again after its cells change (each computation of a workbook is a new evaluation; a
workbook computed again, ``Evaluation.forget_areas``) is a new array, with its own index.

The work: ``addin.engine.budget`` counts each formula's range as ``LOOKUP_RANGE`` units,
and the range's cells once; where the function searches itself the range's cells are
counted as read while computing (``context.STATE.cells_read``).

References
----------
Microsoft Support, "VLOOKUP function", "HLOOKUP function", "MATCH function" (an exact
match: range_lookup FALSE or 0; match_type 0, "the first value that is exactly equal to
lookup_value"; "If match_type is 0 and lookup_value is a text string, you can use the
wildcard characters").
Microsoft KB 213476 (Q113261), "Unexpected Results with Mixed Text and Numbers in Lookup
Table".
"""

from __future__ import annotations

import numpy as np

from addin.formula import context, fx

#: a range at least this long along its keys is searched by an index (the length from
#: which a column is read as one array: ``addin.engine.columns.TALL``)
TALL = 33
#: the functions searched by an index, and which way their range's keys lie: down the
#: first column (VLOOKUP), along the first row (HLOOKUP), either (MATCH)
ALONG = {"VLOOKUP": "rows", "HLOOKUP": "columns", "MATCH": "either", "XLOOKUP": "either",
         "XMATCH": "either"}
#: not an index: the function searches
SEARCH = object()
#: whether lookups use indexes at all (``napkin bench`` turns it off to time the search
#: of every key in the same run)
INDEXED = True
_WILDCARDS = ("?", "*", "~")


def tall(name: str, rows: int, columns: int) -> bool:
    """Whether a range of ``rows`` x ``columns`` cells that ``name`` searches is searched
    by an index (``addin.engine.budget`` counts it so)."""
    along = ALONG.get(name)
    if along == "rows":
        return rows >= TALL
    if along == "columns":
        return columns >= TALL
    return along == "either" and min(rows, columns) == 1 and max(rows, columns) >= TALL


def lookup_key(value):
    """The key of one lookup value in an index, or None where the function searches: a
    number (not NaN), or a text without wildcards, lowered."""
    ns = fx.load()
    if isinstance(value, np.ndarray):
        if value.size != 1:
            return None
        value = value.ravel()[0]
    if value is ns.EMPTY or isinstance(value, (bool, np.bool_, ns.XlError)):
        return None
    if isinstance(value, str):
        return None if any(w in value for w in _WILDCARDS) else (1, value.lower())
    if isinstance(value, (int, float, np.number)) and value == value:
        return 0, value
    return None


def _index(keys) -> dict | None:
    """The first place of each key among ``keys`` (numbers and lowered texts); None when
    they hold a value of another sort than those, logical values, errors and empty cells."""
    ns = fx.load()
    first: dict = {}
    for i, x in enumerate(keys):
        if x is ns.EMPTY or isinstance(x, (bool, np.bool_, ns.XlError)):
            continue
        if isinstance(x, str):
            k = (1, x.lower())
        elif isinstance(x, (int, float, np.number)):
            if x != x:
                return None
            k = (0, x)
        else:
            return None
        first.setdefault(k, i)
    return first


def position(name: str, lookup_value, rng):
    """Where ``name``'s exact match of ``lookup_value`` lies along the keys of ``rng``
    (0 first), None where no key matches, or ``SEARCH`` where the function searches (the
    module's docstring); the cells of a tall range it searches are counted as read."""
    ns = fx.load()
    store = getattr(context.STATE, "columns", None)
    if not isinstance(rng, ns.Ranges) or len(rng.ranges) != 1:
        return SEARCH
    arr = rng.value
    if not isinstance(arr, np.ndarray) or arr.ndim != 2:
        return SEARCH
    rows, columns = arr.shape
    if not tall(name, rows, columns):
        return SEARCH
    want = lookup_key(getattr(lookup_value, "value", lookup_value))
    if store is None or want is None or not INDEXED:
        return _searched(arr)
    along = ALONG[name]
    down = along == "rows" or (along == "either" and columns == 1)
    key = ("lookup", id(arr), down)
    got = store.cache.get(key)
    if got is None:
        index = _index(arr[:, 0] if down else arr[0, :])
        if index is not None:
            try:
                arr.flags.writeable = False
            except ValueError:  # (a view of an array it cannot make read-only)
                index = None
        got = store.cache[key] = (arr, index)
    if got[1] is None:
        return _searched(arr)
    return got[1].get(want)


def x_position(who: str, value, kind: int, rng, match_mode, search_mode):
    """Where XLOOKUP or XMATCH (``who``) find ``value`` (of ``xa.kind`` ``kind``) in the
    range ``rng`` with match_mode 0 (left out, or a number truncated to 0) and
    search_mode 1 or -1 (the first or the last match), as ``addin.excel.lookup._position``
    finds it: keys of ``value``'s kind, texts lowered, numbers and logical values equal;
    None where nothing matches; ``SEARCH`` where ``_position`` searches (another mode, a
    text that folds to other letters without case, a value or range the index does not
    take: ``position``)."""
    from addin.excel import args as xa

    ns = fx.load()
    store = getattr(context.STATE, "columns", None)
    if not isinstance(rng, ns.Ranges) or len(rng.ranges) != 1:
        return SEARCH
    arr = rng.value
    if not isinstance(arr, np.ndarray) or arr.ndim != 2 or not tall(who, *arr.shape):
        return SEARCH
    mode, search = _setting(match_mode, 0), _setting(search_mode, 1)
    if mode != 0 or search not in (1, -1) or store is None or not INDEXED or \
            value != value or (kind == 1 and value.casefold() != value.lower()):
        return _searched(arr)
    key = ("x lookup", id(arr))
    got = store.cache.get(key)
    if got is None:
        first, last, folds = {}, {}, False
        for i, x in enumerate(arr.ravel()):
            k = xa.kind(x)
            if k is None:
                continue
            if k == 1:
                folds = folds or x.casefold() != x.lower()
            elif x != x:
                continue
            pair = (k, xa.key(x, k))
            first.setdefault(pair, i)
            last[pair] = i
        try:
            arr.flags.writeable = False
        except ValueError:
            first = None
        got = store.cache[key] = (arr, first, last, folds)
    _, first, last, folds = got
    if first is None or (kind == 1 and folds):
        return _searched(arr)
    return (first if search == 1 else last).get((kind, xa.key(value, kind)))


def _setting(v, omitted: int):
    """A mode given as a number (truncated), left out (``omitted``), or None for
    anything else (a text, a cell, a logical value: ``_position`` reads those)."""
    if v is None or fx.is_omitted(v):
        return omitted
    if type(v) in (int, float) and v == v and abs(v) != float("inf"):
        return int(v)
    return None


def _searched(arr) -> object:
    context.STATE.cells_read = getattr(context.STATE, "cells_read", 0) + arr.size
    return SEARCH


def on_row(original, args: list, at: int | None, down: bool, column: int | None = None):
    """``original`` (formulas' VLOOKUP, HLOOKUP or MATCH) given ``args`` with the range
    (the second) cut to the row (``down``) or column ``at``, or to one of empty cells
    (``one_row``): the function's own value where the index found the key, or none.

    The function computes it once per form of value: per range, the other arguments'
    types, shapes and values, whether a key was found and the type of the cell given
    (``column``: its column, or row, in the row found; None for MATCH, whose value is
    the place). Where it gave back that cell itself, a formula finding a cell of the same
    type elsewhere takes the same form with its cell in it (a copy)."""
    arr = args[1].value
    key = _memo_key(args, arr, at, down)
    store = getattr(context.STATE, "columns", None)
    cell = _cell(arr, at, down, column)
    if key is not None and store is not None and cell is not _NONE:
        key = (*key, type(cell).__name__)
        got = store.cache.get(key)
        if got is not None and got[2]:
            return _with(got[1], cell)
        if got is not None:
            return _copy(got[1])
    cut = list(args)
    cut[1] = one_row(arr, at, down)
    value = original(*cut)
    if key is not None and store is not None and cell is not _NONE:
        same = isinstance(value, np.ndarray) and value.size == 1 and (
            value.ravel()[0] is cell and _plain(cell))
        store.cache[key] = (arr, _copy(value), same)
    return value


#: no cell to give: a column past the range's, or a value napkin does not put in a form
_NONE = object()


def _cell(arr, at, down: bool, column):
    """The cell the function gives back for a key found at ``at`` in column (or row)
    ``column`` of the row found; None where no key was found, or for MATCH
    (``column`` "place", whose value is the place); ``_NONE`` where the value is not
    kept (``column`` None: an index that is not a plain number; one past the range)."""
    if column is None:
        return _NONE
    if at is None or column == "place":
        return None
    r, c = (at, column) if down else (column, at)
    if not (0 <= r < arr.shape[0] and 0 <= c < arr.shape[1]):
        return _NONE
    return arr[r, c]


def _plain(cell) -> bool:
    """A number or a text (not an error value, not an empty cell): what formulas gives
    back as it is."""
    ns = fx.load()
    if isinstance(cell, str):
        return cell is not ns.EMPTY and not isinstance(cell, ns.XlError)
    return type(cell) in (int, float) and cell == cell and abs(cell) != float("inf")


def _with(form, cell):
    out = np.array(form, dtype=object)
    out.ravel()[0] = cell
    return out.reshape(np.shape(form)).view(type(form))


def _copy(value):
    if isinstance(value, np.ndarray):
        return np.array(value, dtype=object).view(type(value))
    return value


def _memo_key(args: list, arr, at, down: bool):
    """What, beside the cell given, the function's value depends on: the range (its
    array's id, the array kept with the value), whether a key was found, and the type,
    shape and value of every other argument; None where one of those is an array of
    several values or cannot be a key."""
    parts = []
    for i, v in enumerate(args):
        if i == 1:
            continue
        inner = getattr(v, "value", v)
        shape = np.shape(inner)
        if isinstance(inner, np.ndarray):
            if inner.size != 1:
                return None
            inner = inner.ravel()[0]
        parts.append((type(v).__name__, shape, type(inner).__name__,
                      inner if i else type(inner).__name__))  # (not the lookup value)
    key = ("on row", id(arr), at is None, down, tuple(parts))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def one_row(arr, at: int | None, down: bool):
    """The row (``down``) or column of ``arr`` at ``at``, or one of empty cells (no key
    matches), as an array formulas' functions search."""
    ns = fx.load()
    if at is None:
        out = np.empty((1, arr.shape[1]) if down else (arr.shape[0], 1), dtype=object)
        out[...] = ns.EMPTY
    else:
        out = np.array(arr[at:at + 1, :] if down else arr[:, at:at + 1], dtype=object)
    return out.view(ns.Array)
