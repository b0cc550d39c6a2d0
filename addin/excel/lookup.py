"""Excel's lookups: LOOKUP, XLOOKUP, XMATCH, INDEX, and the approximate matches of
VLOOKUP, HLOOKUP and MATCH (computed by formulas once napkin has checked that the values
are sorted, ``_sorted_or_cannot``).

References
----------
Microsoft Support, "LOOKUP function", "XLOOKUP function", "XMATCH
function", "INDEX function", "VLOOKUP function", "HLOOKUP function", "MATCH function".
"""

from __future__ import annotations

import math

import numpy as np

from addin.excel import args as xa
from addin.excel import lookup_args, lookup_index
from addin.excel.args import ORIGINAL, Cannot
from addin.formula import context, fx, ranges, text_order
from addin.formula.arrays import grid
from udfs.machinery.errors import ExcelError

# --------------------------------------------------------------------------- LOOKUP


def lookup(lookup_value, lookup_vector, result_vector=None):
    """Excel's ``LOOKUP``: vector form ``LOOKUP(value, lookup_vector, result_vector)``
    and array form ``LOOKUP(value, array)`` (a wider than tall array is searched in its
    first row and answered from its last row, otherwise first and last column).

    The match is the largest value not greater than ``lookup_value`` of the same kind
    (numbers, text without regard to case, logical values); blanks and error values are
    passed over (so ``LOOKUP(2,1/(A1:A9="x"),B1:B9)`` is the last B whose A is "x").
    ``#N/A`` when every value is greater. Excel searches by halving and expects the
    values sorted ascending: on values that are not, napkin does not guess
    (``Cannot``), nor on values of several kinds, nor on a lookup_vector or result_vector
    of several rows and columns (the vector form takes one row or one column)."""
    ns = fx.load()
    v = xa.scalar(lookup_value, "LOOKUP's lookup_value")
    kind = xa.kind(v)
    if kind is None:
        raise Cannot("LOOKUP of a blank cell")
    arr = grid(lookup_vector)
    if result_vector is None or fx.is_omitted(result_vector):
        if arr.shape[1] > arr.shape[0]:
            keys, results = arr[0, :], arr[-1, :]
        else:
            keys, results = arr[:, 0], arr[:, -1]
    else:
        if 1 not in arr.shape:  # (Microsoft's page: one row or one column; no more said)
            raise Cannot("LOOKUP with a lookup_vector of several rows and columns")
        res = grid(result_vector)
        if 1 not in res.shape:  # (as for lookup_vector)
            raise Cannot("LOOKUP with a result_vector of several rows and columns")
        keys, results = arr.ravel(), res.ravel()
    want, pos, last, blank = xa.key(v, kind), None, None, False
    for i, x in enumerate(keys):
        if x is ns.EMPTY or x is None:
            blank = True
            continue
        if blank:  # (a blank before a value: where Excel's halving goes, not documented)
            raise Cannot("LOOKUP in values with a blank cell before the last value")
        if xa.kind(x) != kind:
            if xa.kind(x) is not None:  # (how Excel's halving orders kinds: not documented)
                raise Cannot("LOOKUP in values of several kinds (numbers, text, logical "
                             "values)")
            continue
        k = xa.key(x, kind)
        if last is not None and k < last:
            raise Cannot("LOOKUP in values that are not sorted ascending")
        last = k
        if k <= want:
            pos = i
    if kind == 1:
        _texts_settled_or_cannot(v, keys, "LOOKUP")
    if pos is None:
        raise ExcelError("#N/A", f"LOOKUP: no value is less than or equal to {v!r}")
    if pos >= len(results):
        raise Cannot("LOOKUP with a result_vector shorter than its lookup_vector")
    out = results[pos]
    return ns.EMPTY if out is None else out


# --------------------------------------------------------------------------- XLOOKUP


def xlookup(lookup_value, lookup_array, return_array, if_not_found=None, match_mode=0,
            search_mode=1):
    """Excel's ``XLOOKUP(lookup_value, lookup_array, return_array, [if_not_found],
    [match_mode], [search_mode])``: the row (or column) of ``return_array`` where
    ``lookup_value`` is found in the one-row or one-column ``lookup_array``.

    match_mode 0 exact, -1 exact or the next smaller, 1 exact or the next larger, 2
    wildcards (``* ? ~``); search_mode 1 first to last, -1 last to first, 2 and -2
    binary searches of values sorted ascending or descending (napkin checks that they
    are, and that the value found is not repeated, and otherwise does not guess).
    ``#N/A`` (or ``if_not_found``) when nothing matches."""
    ns = fx.load()
    v = xa.scalar(lookup_value, "XLOOKUP's lookup_value")
    kind = xa.kind(v)
    if kind is None:
        raise Cannot("XLOOKUP of a blank cell")
    for arg, what in ((lookup_array, "lookup_array"), (return_array, "return_array")):
        if isinstance(arg, ns.XlError):  # =XLOOKUP(C5,#REF!,#REF!,0) is #REF!
            raise ExcelError(str(arg), context.message_for(str(arg))
                             or f"XLOOKUP's {what} is an error")
    keys = grid(lookup_array)
    if 1 not in keys.shape:
        raise ExcelError("#VALUE!", "XLOOKUP's lookup_array must be one row or one column")
    vertical = keys.shape[1] == 1 and keys.shape[0] >= 1
    keys = keys.ravel()
    ret = grid(return_array)
    if (ret.shape[0] if vertical else ret.shape[1]) != len(keys):
        if not (keys.size == 1 and ret.shape[0] == 1 and ret.shape[1] == 1):
            raise ExcelError("#VALUE!", "XLOOKUP's return_array is not as long as its "
                                        "lookup_array")
    pos = lookup_index.x_position("XLOOKUP", v, kind, lookup_array, match_mode,
                                  search_mode)
    if pos is lookup_index.SEARCH:
        pos = _position(v, kind, keys, match_mode, search_mode, "XLOOKUP")
    if pos is None:
        if if_not_found is None or fx.is_omitted(if_not_found):
            raise ExcelError("#N/A", f"XLOOKUP: {v!r} is not found")
        if not isinstance(if_not_found, np.ndarray) and \
                xa.scalar(if_not_found, "XLOOKUP's if_not_found") is ns.EMPTY:
            raise Cannot("XLOOKUP's if_not_found given as an empty cell (what Excel gives "
                         "there is not documented)")
        return if_not_found
    out = ret[pos:pos + 1, :] if vertical else ret[:, pos:pos + 1]
    if keys.size == 1 and ret.shape == (1, 1):
        out = ret
    out = np.asarray(out, dtype=object)
    if isinstance(return_array, ns.Ranges):  # the reference (its page:
        areas = ranges.area_values(return_array)  # XLOOKUP(...):XLOOKUP(...) in SUM),
        if len(areas) == 1:  # read at a one-cell formula's cell as any reference
            (sid, r1, c1, _r2, _c2), _arr = areas[0]
            i, j = (pos, 0) if vertical else (0, pos)
            r2, c2 = (r1 + i, c1 + ret.shape[1] - 1) if vertical else (r1 + ret.shape[0] - 1,
                                                                        c1 + j)
            return ranges.make_ranges([ranges.area_ref(sid, r1 + i, c1 + j, r2, c2)], [out])
    return out[0, 0] if out.size == 1 else out.view(ns.Array)


def _position(v, kind, keys, match_mode, search_mode, who: str):
    """Where XLOOKUP and XMATCH (``who``) find ``v`` (of ``kind``) among ``keys`` (0
    first), or None: match_mode and search_mode read as their pages list them."""
    lookup_args.text_setting_or_cannot((match_mode, "match_mode"),
                                       (search_mode, "search_mode"), who=who)
    mode = 0 if fx.is_omitted(match_mode) else math.trunc(xa.number(match_mode,
                                                                  f"{who}'s match_mode"))
    search = 1 if fx.is_omitted(search_mode) else math.trunc(
        xa.number(search_mode, f"{who}'s search_mode"))
    if mode not in (0, -1, 1, 2) or search not in (1, -1, 2, -2):
        raise ExcelError("#VALUE!", f"{who}'s match_mode or search_mode is not one of "
                                    "Excel's")
    if mode in (-1, 1) and any(xa.kind(x) not in (None, kind) for x in keys):
        raise Cannot(f"{who}'s next smaller or larger item among values of other kinds "
                     "(numbers, text, logical values: how Excel orders them there is not "
                     "documented)")
    if kind == 1 and any(xa.kind(x) == 1 and str(x).casefold() != str(x).lower()
                         for x in (v, *keys)):
        raise Cannot(f"{who} of text that folds to other letters without case (Excel "
                     "matched \u00df with ss: formulas' test.xlsx, EXTRA!L75; how it folds "
                     "every such letter is not documented)")
    if kind == 1 and (mode in (-1, 1) or search in (2, -2)):
        _texts_settled_or_cannot(v, keys, who, halving=search in (2, -2))
    want = xa.key(v, kind)
    entries = [(i, xa.key(x, kind)) for i, x in enumerate(keys) if xa.kind(x) == kind]
    if search in (2, -2):
        ks = [k for _, k in entries]
        if len(entries) != len(keys) or any(
                (a > b) if search == 2 else (a < b) for a, b in zip(ks, ks[1:], strict=False)):
            raise Cannot(f"{who}'s binary search in values that are not sorted (or not "
                         "all of one kind, or with blank cells)")
    order = entries if search in (1, 2) else entries[::-1]
    pos = None
    if mode == 2 and kind == 1:
        rx = xa.wildcard(str(v))
        pos = next((i for i, k in order if rx.fullmatch(str(keys[i]))), None)
    else:
        pos = next((i for i, k in order if k == want), None)
        if pos is None and mode in (-1, 1):
            best = None
            for i, k in order:
                if (mode == -1 and k < want) or (mode == 1 and k > want):
                    if best is None or (k > best[1] if mode == -1 else k < best[1]):
                        best = (i, k)
            pos = best[0] if best else None
            if best and kind == 1:  # (the nearest: beside each other text on its side)
                side = [keys[i] for i, k in order if (k < want if mode == -1 else k > want)]
                _texts_settled_or_cannot(str(keys[pos]), side, who, halving=False)
    if pos is not None and search in (2, -2) and \
            sum(1 for _, k in entries if k == xa.key(keys[pos], kind)) > 1:
        raise Cannot(f"{who}'s binary search of a value that is repeated")
    return pos


def xmatch(lookup_value, lookup_array, match_mode=0, search_mode=1):
    """Excel's ``XMATCH(lookup_value, lookup_array, [match_mode], [search_mode])``: the
    position (1 first) of ``lookup_value`` in the one-row or one-column ``lookup_array``,
    its modes as XLOOKUP's; ``#N/A`` when nothing matches.
    ``XMATCH(4,{5,4,3,2,1})`` is 2 and ``XMATCH(4.5,{5,4,3,2,1},1)`` is 1.

    References: Microsoft Support, "XMATCH function",
    https://support.microsoft.com/en-us/office/xmatch-function-d966da31-7a6b-4a13-a1c6-5a33ed6a0312
    """
    ns = fx.load()
    v = xa.scalar(lookup_value, "XMATCH's lookup_value")
    kind = xa.kind(v)
    if kind is None:
        raise Cannot("XMATCH of a blank cell")
    if isinstance(lookup_array, ns.XlError):
        raise ExcelError(str(lookup_array), context.message_for(str(lookup_array))
                         or "XMATCH's lookup_array is an error")
    keys = grid(lookup_array)
    if 1 not in keys.shape:
        raise ExcelError("#VALUE!", "XMATCH's lookup_array must be one row or one column")
    pos = lookup_index.x_position("XMATCH", v, kind, lookup_array, match_mode, search_mode)
    if pos is lookup_index.SEARCH:
        pos = _position(v, kind, keys.ravel(), match_mode, search_mode, "XMATCH")
    if pos is None:
        raise ExcelError("#N/A", f"XMATCH: {v!r} is not found")
    return pos + 1


# --------------------------------------------------------------------------- INDEX


def index(array, row_num=None, column_num=None, area_num=None):
    """Excel's ``INDEX(array, row_num, [column_num], [area_num])``: the cell at
    ``row_num`` and ``column_num`` of a reference (a reference itself) or of an array
    (its value). A row or column number of 0 -- or one left out of a range of several
    rows and columns -- is the whole column or row (``INDEX(A1:C3,2,0)`` is A2:C2); in
    a one-row or one-column range a single number counts along it. ``#REF!`` beyond
    the range, ``#VALUE!`` for a negative number. A row_num or column_num left out
    between commas (``INDEX(A1:C3,,2)``) is 0, as its page has 0 mean; what it leaves
    unsaid (an empty area_num, an empty row_num with no column_num, an empty column_num
    in one row of several cells) is refused."""
    ns = fx.load()
    if isinstance(array, ns.XlError):
        raise ExcelError(str(array), context.message_for(str(array)))
    left = [fx.is_omitted(v) for v in (row_num, column_num, area_num)]
    if left[2] or (left[0] and (column_num is None or left[1])):
        raise Cannot("INDEX given its " + ("area_num" if left[2] else "row_num") +
                     " left out between commas with nothing to settle it (its page says a "
                     "row_num or column_num of 0 is the whole column or row, not what an "
                     "empty area_num, or an empty row_num without a column_num, is)")

    def num(v, what):
        if v is None or fx.is_omitted(v):
            return None
        if isinstance(v, np.ndarray) and v.size > 1 or isinstance(v, ns.Ranges) and \
                sum((r2 - r1 + 1) * (c2 - c1 + 1) for _, r1, c1, r2, c2 in ranges.areas(v)) > 1:
            raise _Fallback
        return math.trunc(xa.number(v, f"INDEX's {what}"))

    try:
        r, c, a = num(row_num, "row_num"), num(column_num, "column_num"), num(area_num,
                                                                               "area_num")
    except _Fallback:
        if any(left):
            raise Cannot("INDEX given an argument left out beside an array of numbers") \
                from None
        original = ORIGINAL["INDEX"]["function"]  # formulas' (takes its compiling flag)
        return original(False, array, row_num, *(x for x in (column_num, area_num)
                                                 if x is not None))
    if isinstance(array, ns.Ranges):
        areas = ranges.area_values(array)
        k = 1 if a is None else a
        if not 1 <= k <= len(areas):
            raise ExcelError("#REF!", f"INDEX's area_num {k} is not one of its areas")
        (sid, r1, c1, _r2, _c2), arr = areas[k - 1]
    else:
        sid = None
        arr = grid(array)
        r1 = c1 = 1
    rows, cols = arr.shape
    if left[1] and rows == 1 and cols > 1:  # INDEX(A1:C1,2,): along the row, or row 2?
        raise Cannot("INDEX given its column_num left out between commas in one row of "
                     "several cells (counted along the row, or 0: its page does not say)")
    if r is None and c is None:
        raise ExcelError("#VALUE!", "INDEX needs a row_num or a column_num")
    if c is None and (rows == 1 or cols == 1) and r is not None:
        r, c = (r, 1) if cols == 1 else (1, r)  # along a single row or column
    r = 0 if r is None else r
    c = 0 if c is None else c
    if r < 0 or c < 0:
        raise ExcelError("#VALUE!", "INDEX's row_num and column_num must not be negative")
    if (r > rows or c > cols) and sid is not None and _maybe_cut(sid, r1, c1, rows, cols):
        raise Cannot("INDEX past the cells in use of a whole row or column (napkin reads "
                     "such an area only as far as its sheet's cells reach)")
    if r > rows or c > cols:
        raise ExcelError("#REF!", f"INDEX: row {r}, column {c} is outside the "
                                  f"{rows} x {cols} range")
    i1, i2 = (r - 1, r - 1) if r else (0, rows - 1)
    j1, j2 = (c - 1, c - 1) if c else (0, cols - 1)
    sub = np.asarray(arr[i1:i2 + 1, j1:j2 + 1], dtype=object)
    if sid is None:
        return sub[0, 0] if sub.size == 1 else sub.view(ns.Array)
    return ranges.make_ranges([ranges.area_ref(sid, r1 + i1, c1 + j1, r1 + i2, c1 + j2)], [sub])


def _maybe_cut(sid, r1: int, c1: int, rows: int, cols: int) -> bool:
    """Whether an area may have been cut at the last row or column of its sheet's cells
    (``addin.formula.context.KEEP_CELLS``): it ends there."""
    book = getattr(context.STATE, "book", None)
    idx = None if book is None else book.sid_map.get(sid)
    if idx is None:
        return True
    sheet = book.sheets[idx]
    return r1 + rows - 1 >= sheet.max_r or c1 + cols - 1 >= sheet.max_c


class _Fallback(Exception):
    pass


# --------------------------------------------------------------------------- approximate


def _sorted_or_cannot(value, vector, descending: bool, who: str) -> None:
    """An approximate match (VLOOKUP/HLOOKUP with range_lookup TRUE, MATCH with type 1 or
    -1) is Excel's search by halving: its answer is the documented one only when the
    values are sorted and of the lookup value's kind. napkin computes it when they are
    (blanks only after the last value; texts whose order in Excel is napkin's,
    ``_texts_settled_or_cannot``), and stops otherwise (``Cannot``)."""
    ns = fx.load()
    v = xa.scalar(value, f"{who}'s lookup_value")
    kind = xa.kind(v)
    if kind is None:
        raise Cannot(f"{who}'s approximate match of a blank cell")
    last, blank = None, False
    for x in vector:
        if x is ns.EMPTY or x is None:
            blank = True
            continue
        if blank or xa.kind(x) != kind:
            raise Cannot(f"{who}'s approximate match in values not all of one kind")
        k = xa.key(x, kind)
        if last is not None and (k > last if descending else k < last):
            raise Cannot(f"{who}'s approximate match in values that are not sorted")
        last = k
    if kind == 1:
        _texts_settled_or_cannot(v, vector, who)


def _texts_settled_or_cannot(value: str, keys, who: str, halving: bool = True) -> None:
    """``Cannot`` where Excel's search for text ``value`` among ``keys`` may compare two
    texts whose order in Excel is not known to be napkin's (``addin.formula.text_order``):
    the value beside each text, and for a search by halving (``halving``) each text beside
    the next (whether they are sorted in Excel's order)."""
    texts = [str(x) for x in keys if xa.kind(x) == 1]
    pairs = [(value, t) for t in texts]
    if halving:
        pairs += list(zip(texts, texts[1:], strict=False))
    bad = next(((a, b) for a, b in pairs if not text_order.settled(a, b)), None)
    if bad is not None:
        raise Cannot(f"{who}'s search in texts: " + text_order.why(*bad))


def _approximate(flag) -> bool:
    ns = fx.load()
    if flag is None:
        return True
    f = xa.scalar(flag, "range_lookup")
    if f is ns.EMPTY:
        return False  # an empty cell is FALSE
    if isinstance(f, str):  # #VALUE! or the lookup's own error first: not documented
        raise Cannot("a range_lookup given as text (which error comes first is not "
                     "documented)")
    return bool(f)


def _first_error_given(name: str, *given) -> None:
    """Raise the first error value given as a whole argument (a one-cell reference, a
    nested call's value, a literal: not a cell of a range looked in), in argument order
    (``addin/engine/first_error.py``: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error
    value returns it; formulas gave #VALUE! for VLOOKUP(5,A5:A10,A2,FALSE) with A2 #DIV/0!).
    """
    ns = fx.load()
    for v in given:
        one = None if v is None or fx.is_omitted(v) else xa.one_value(v)
        if isinstance(one, ns.XlError):
            raise ExcelError(str(one), context.message_for(str(one)) or
                             f"{name}'s argument is an error")


def _index_below_one(index_num, name: str) -> bool:
    try:
        return math.trunc(xa.number(xa.scalar(index_num, f"{name}'s index"),
                                    f"{name}'s index")) < 1
    except (ExcelError, Cannot, ValueError, TypeError):  # an error or an array: formulas'
        return False


def _column(index_num) -> int | None:
    """The column (0 first) a VLOOKUP or HLOOKUP index that is a plain number names, as
    formulas reads it (``int(index) - 1``); None for any other index."""
    v = xa.one_value(index_num)
    if type(v) not in (int, float) or not math.isfinite(v):
        return None
    return int(v) - 1


def table_lookup(name: str, vertical: bool):
    def lookup(lookup_value, table_array, index_num, range_lookup=None):
        lookup_args.none_left_out(name, (lookup_value, "lookup_value"),
                                  (table_array, "table_array"), (index_num, "index"))
        if range_lookup is not None and fx.is_omitted(range_lookup):
            # written empty (``VLOOKUP(D11,AE14:AF15,2,)``): FALSE, an exact match, as
            # Excel saved it (Loan Amortization.xlsx of the fifth held-out part, 'Information
            # Sheet'!E11: "Arrear" looked up in "Arrear", "Advance" gave 0, the first row's;
            # the last value not above "Arrear", the approximate match's, is the second
            # row's); LibreOffice reads it so too. Microsoft's page is silent on it
            range_lookup = False
        _first_error_given(name, lookup_value, table_array, index_num, range_lookup)
        lookup_args.text_setting_or_cannot((index_num, "index"), who=name)
        exact = not _approximate(range_lookup)
        if not exact:
            arr = grid(table_array)
            vec = arr[:, 0] if vertical else arr[0, :]
            _sorted_or_cannot(lookup_value, vec, False, name)
            lookup_index.position(name, None, table_array)  # (its cells: counted read)
        args = [lookup_value, table_array, index_num]
        if range_lookup is not None:
            args.append(range_lookup)
        if _index_below_one(index_num, name):
            # Microsoft's VLOOKUP/HLOOKUP pages: an index below 1 is #VALUE! (formulas
            # took 0 as the first column). Where the value is not found, Excel saved
            # #N/A (tests/corpus/calamine/errors.xlsx, Feuil1!A7: VLOOKUP(B1,B1,B1,3));
            # which error comes first is not documented: refused there
            found = np.asarray(ORIGINAL[name](*args[:2], 1, *args[3:]), dtype=object)
            if str(found.ravel()[0]) == "#N/A" if found.size else False:
                raise Cannot(f"{name} with an index below 1 of a value not found")
            raise ExcelError("#VALUE!", f"{name}'s index is less than 1")
        at = lookup_index.position(name, lookup_value, table_array) if exact else \
            lookup_index.SEARCH
        if at is not lookup_index.SEARCH:  # (the function on the row found, or none)
            return lookup_index.on_row(ORIGINAL[name], args, at, vertical,
                                       _column(index_num))
        return ORIGINAL[name](*args)

    lookup.__name__ = name.lower()
    return lookup


def _first_cell(lookup_value, row, *match_type):
    """formulas' MATCH in the first cell of a row or column (where the index found the
    key, or an empty one)."""
    return ORIGINAL["MATCH"](lookup_value, row[:1, :1], *match_type)


def match(lookup_value, lookup_array, match_type=None):
    """Excel's MATCH, computed by formulas, after ``_sorted_or_cannot`` for the
    approximate match types 1 (the default) and -1; refused (``Cannot``) in an area of
    several rows and columns, where formulas searches row by row. match_type written empty
    is 0, as Excel saved it (the declaration's evidence); another argument left out refused."""
    lookup_args.none_left_out("MATCH", (lookup_value, "lookup_value"),
                              (lookup_array, "lookup_array"))
    if match_type is not None and fx.is_omitted(match_type):
        match_type = 0
    _first_error_given("MATCH", lookup_value, lookup_array, match_type)
    lookup_args.text_setting_or_cannot((match_type, "match_type"), who="MATCH")
    t = 1 if match_type is None else math.trunc(xa.number(match_type, "MATCH's match_type"))
    if min(grid(lookup_array).shape) > 1:  # Microsoft's page names one row or column
        raise Cannot("MATCH in an area of several rows and columns")
    if t != 0:
        _sorted_or_cannot(lookup_value, grid(lookup_array).ravel(), t < 0, "MATCH")
    at = lookup_index.position("MATCH", lookup_value if t == 0 else None, lookup_array)
    args = [lookup_value, lookup_array] + ([] if match_type is None else [match_type])
    if at is lookup_index.SEARCH:
        return ORIGINAL["MATCH"](*args)
    arr = lookup_array.value  # (the function on the one cell found, or an empty one)
    got = lookup_index.on_row(_first_cell, args, at, arr.shape[1] == 1, "place")
    if at is None or np.asarray(got).size != 1 or np.asarray(got).ravel()[0] != 1:
        return got
    out = np.array(got, dtype=object)
    out[...] = np.int64(at + 1)
    return out.view(type(got))
