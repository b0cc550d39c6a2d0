"""Ranges as arrays: a range of numbers read as a float array at C speed
(``numbers_only``, ``rows_as_array``), any other range as an object array
(``object_array``); the real number a single cell holds (``real``).

The rule for a number is ``struct.pack("d")``'s (``PyFloat_AsDouble``): a float, an int,
a numpy number, any object with ``__float__`` or ``__index__``; not a truth value, text,
None, an error value or an integer beyond a float. ``udfs.machinery.args.Arg`` reads its
arguments with these.
"""

from __future__ import annotations

import itertools
import math
import operator
import struct
import warnings

from .errors import value_error
from .xp import np

_NUMBER_TYPES = {float, int}


def real(v) -> float | None:
    """``v`` as a float if Python reads it as a real number (a Decimal, a Fraction, any
    object with ``__float__`` or ``__index__``), else None. The rule is the one of
    ``struct.pack("d")``, which reads ranges of numbers (``numbers_only``), so a
    cell gives the same value alone and in a range; numpy's truth values are not
    numbers, as TRUE and FALSE are not. An integer beyond a float raises OverflowError
    (``#NUM!``)."""
    if np is not None and isinstance(v, np.bool_):
        return None
    try:
        return struct.unpack("d", pack_reals(1, (v,)))[0]
    except struct.error:
        try:
            operator.index(v)
        except TypeError:
            return None  # text-like, None, or Decimal("sNaN") (which has no float)
        raise OverflowError("an integer beyond a float") from None


def pack_reals(count: int, cells) -> bytes:
    """``count`` cells as machine doubles, by ``struct.pack`` (the rule of
    ``PyFloat_AsDouble``); ``struct.error`` for a cell that is not a real number. numpy's
    complex numbers convert with only a ComplexWarning (the imaginary part dropped): that
    warning is an error here, so they are refused too."""
    if np is None:
        return struct.pack(f"{count}d", *cells)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        try:
            return struct.pack(f"{count}d", *cells)
        except np.exceptions.ComplexWarning:
            raise struct.error("a complex number is not a real number") from None


def numbers_only(v, name):
    """``(array, bounds)``: a float (or int) array of the range if it holds only
    numbers, else None; and its least and greatest values where they were found on the
    way (a packed list), else None.

    The common case, a range of numbers, is read at C speed: ``struct.pack`` converts
    the cells to machine doubles in one call (``np.asarray`` would first work out the
    type and depth of the list) and numpy views those bytes without copying them. The
    packer reads exactly what ``Arg.scalar`` reads as a number (a float, an int, a
    numpy number, any object with ``__float__`` or ``__index__``, the rule of
    ``PyFloat_AsDouble``) and refuses the rest (text, an empty cell's None, an error
    value, an integer beyond a float, a row of another length); the range then goes to
    the element-by-element path, which gives each cell its own value or error. The
    packer also reads TRUE/FALSE as 1/0: when some cell equals 0 or 1 (rare in a range
    of quantities; the least and greatest value tell), those cells have their types
    checked one by one, and a truth value among them sends the range to the
    element-by-element path too, where it is ``#VALUE!``. The array is read-only (it
    views the packed bytes).
    """
    if isinstance(v, np.ndarray):
        return (v if v.dtype.kind in "iuf" else None), None
    rows = v if isinstance(v, list) else list(v)
    two_d = bool(rows) and isinstance(rows[0], list | tuple)
    if two_d:
        # rows of one length, each a list or tuple (a text row would be read as letters)
        if not set(map(type, rows)) <= {list, tuple} or len(set(map(len, rows))) != 1:
            return numbers_by_type(rows, name), None
        shape = (len(rows), len(rows[0]))
        cells = [r[0] for r in rows] if shape[1] == 1 else itertools.chain.from_iterable(rows)
    else:
        shape = (len(rows),)
        cells = rows
    packed = packed_floats(rows, shape, cells)
    return packed or (numbers_by_type(rows, name), None)


def packed_floats(rows, shape, cells):
    """``cells`` (the range ``rows`` read row by row) as ``(array, (least, greatest))``:
    a read-only float array of ``shape`` and its least and greatest values; None when a
    cell is not a number or is a truth value."""
    size = math.prod(shape)
    if not size:
        return None
    try:
        a = np.frombuffer(pack_reals(size, cells), dtype=float)
    except struct.error:  # not numbers, beyond a float, or a row of another length
        return None
    a = a.reshape(shape)
    lo, hi = float(a.min()), float(a.max())
    if lo > 1 or hi < 0 or 0 < lo <= hi < 1:  # no cell is 0 or 1, so none is a truth value
        return a, (lo, hi)
    maybe_bool = np.flatnonzero((a == 0) | (a == 1))
    if maybe_bool.size:
        width = shape[1] if len(shape) == 2 else 1
        cells = (rows[i // width][i % width] if len(shape) == 2 else rows[i]
                 for i in maybe_bool.tolist())
        if not set(map(type, cells)) <= _NUMBER_TYPES:
            return None
    return a, (lo, hi)


def rows_as_array(rows):
    """A range as napkin's xlwings routes receive it, as a float array when it holds only
    numbers.

    Both routes declare every argument with ``ndim=2``, so xlwings passes a range as a
    list of rows of one length (built from the range's own two-dimensional array), a
    column as one-cell rows. That shape is the host's promise, so the checks a caller's
    list needs (each row's type and length: three passes over the rows, which for a
    column cost more than everything else) are left out: a column's cells are taken with
    one list comprehension and packed as ``numbers_only`` packs them.

    Parameters
    ----------
    rows : a list of lists, as xlwings passes a range (anything else is returned as is)

    Returns
    -------
    a read-only float ndarray of the range's shape when every cell is a number (not a
    truth value); otherwise ``rows`` unchanged, for the catalog to read cell by cell.
    """
    if np is None or type(rows) is not list or not rows or type(rows[0]) is not list:
        return rows
    shape = (len(rows), len(rows[0]))
    try:
        cells = [r[0] for r in rows] if shape[1] == 1 else itertools.chain.from_iterable(rows)
    except (IndexError, TypeError, KeyError):  # not the rows xlwings makes
        return rows
    packed = packed_floats(rows, shape, cells)
    return rows if packed is None else packed[0]


def numbers_by_type(rows, name):
    """``numbers_only`` by each element's type (the careful path: it also finds a
    range that is not rectangular and says so)."""
    if rows and isinstance(rows[0], list | tuple):
        widths = set(map(len, rows)) if set(map(type, rows)) <= {list, tuple} else None
        if widths is None or len(widths) != 1:
            raise value_error(f"{name}: a range must be rectangular (rows of equal length)")
        flat = list(itertools.chain.from_iterable(rows))
        shape = (len(rows), widths.pop())
    else:
        flat, shape = rows, (len(rows),)
    if not set(map(type, flat)) <= _NUMBER_TYPES:
        return None
    try:
        return np.fromiter(flat, dtype=float, count=len(flat)).reshape(shape)
    except OverflowError:  # an integer too large for a float
        return None


def object_array(v, name):
    """The range as an object ndarray (one or two dimensions), or ``#VALUE!`` naming
    ``name`` when it is not rectangular."""
    if np is not None and isinstance(v, np.ndarray):
        return v.astype(object)
    rows = list(v)
    if rows and all(isinstance(r, list | tuple) for r in rows):
        width = len(rows[0])
        if any(len(r) != width for r in rows):
            raise value_error(f"{name}: a range must be rectangular (rows of equal length)")
        if any(isinstance(x, list | tuple) for r in rows for x in r):
            raise value_error(f"{name}: a range has at most two dimensions")
        out = np.empty((len(rows), width), dtype=object)
        for i, r in enumerate(rows):
            for j, x in enumerate(r):
                out[i, j] = x
        return out
    if any(isinstance(r, list | tuple) for r in rows):
        raise value_error(f"{name}: a range must be rectangular (rows of equal length)")
    out = np.empty(len(rows), dtype=object)
    for i, x in enumerate(rows):
        out[i] = x
    return out
