"""Excel functions that make references while computing: OFFSET, INDIRECT and the ``:``
operator between computed references, each a reference to an area of the workbook being
computed, with its values; SINGLE (the ``@`` operator) taking one value of a reference.

References
----------
Microsoft Support, "OFFSET function", "INDIRECT function", "Implicit intersection
operator: @".
"""

from __future__ import annotations

import math

import numpy as np

from addin.excel import args as xa
from addin.excel.args import ORIGINAL, Cannot
from addin.formula import context, fx, intersection, ranges
from addin.ooxml.a1 import A1_AREA, MAX_COL, MAX_ROW, col2num
from addin.ooxml.guard import MAX_AREA_CELLS
from udfs.machinery.errors import ExcelError


def range_operator(x, y):
    """Excel's ``:`` between two references a formula computes (``A1:INDEX(...)``,
    ``OFFSET(...):C9``): the smallest area holding both, with the workbook's values
    (formulas' own operator only has the values of the two ends)."""
    ns = fx.load()
    book = getattr(context.STATE, "book", None)
    if book is None or not (isinstance(x, ns.Ranges) and isinstance(y, ns.Ranges)) \
            or len(x.ranges) != 1 or len(y.ranges) != 1:
        return ORIGINAL[":"](x, y)
    (sx, a1, b1, a2, b2), (sy, c1, d1, c2, d2) = ranges.areas(x)[0], ranges.areas(y)[0]
    if sx != sy or sx not in book.sid_map:
        return ns.errors["#VALUE!"]
    try:
        return _reference(book.sid_map[sx], min(a1, c1), min(b1, d1), max(a2, c2),
                          max(b2, d2), "a range between computed references")
    except (ExcelError, Cannot) as ex:
        return xa.error_value(ns, ex)


range_operator.__name__ = "napkin_range_operator"


# --------------------------------------------------------------------------- references


def _reference(sidx: int, r1: int, c1: int, r2: int, c2: int, who: str):
    """A reference to an area of the workbook being computed, with its values. The order
    of computing follows the references written in formulas, which OFFSET and INDIRECT
    make up while computing: a formula cell in the area not computed yet is computed
    now (``context.STATE.demand``, ``addin.engine.demand``), or, when it cannot be (it
    reads the formula making the reference: a circular reference), stops the
    computation (``Cannot``)."""
    book = getattr(context.STATE, "book", None)
    if book is None:
        raise Cannot(f"{who} outside a workbook")
    if not (1 <= r1 <= r2 <= MAX_ROW and 1 <= c1 <= c2 <= MAX_COL):
        raise ExcelError("#REF!", f"{who} goes beyond the sheet")
    sheet = book.sheets[sidx]
    if (r2 - r1 + 1) * (c2 - c1 + 1) > context.KEEP_CELLS:  # as the evaluator reads large areas
        r2, c2 = max(r1, min(r2, sheet.max_r)), max(c1, min(c2, sheet.max_c))
    if (r2 - r1 + 1) * (c2 - c1 + 1) > MAX_AREA_CELLS:
        raise Cannot(f"{who} of {(r2 - r1 + 1) * (c2 - c1 + 1):,} cells (as far as "
                     f"{sheet.name}'s cells reach); napkin reads areas of up to "
                     f"{MAX_AREA_CELLS:,} cells")
    ns = fx.load()
    arr = np.empty((r2 - r1 + 1, c2 - c1 + 1), dtype=object)
    arr[:] = ns.EMPTY
    values = sheet.values
    context.read_cells(arr.size + len(sheet.formula_at) + len(values))  # (all scanned)
    demand = getattr(context.STATE, "demand", None)  # computes a formula not yet computed
    for (r, c), node in sheet.formula_at.items():
        if r1 <= r <= r2 and c1 <= c <= c2:
            if node.keep is not None:  # (strict mode keeps Excel's value there)
                context.note_read_kept(node)
                continue
            why = demand(node) if demand is not None else \
                None if (r, c) in values else "a formula computed after it"
            if why:
                raise Cannot(f"{who} onto {node.label}, {why}")
    for (r, c), v in values.items():
        if r1 <= r <= r2 and c1 <= c <= c2:
            arr[r - r1, c - c1] = v
    return ranges.make_ranges([ranges.area_ref(sheet.sid, r1, c1, r2, c2)], [arr])


def offset(reference, rows, cols, height=None, width=None):
    """Excel's ``OFFSET(reference, rows, cols, [height], [width])``: the area ``rows``
    down and ``cols`` right of ``reference`` (numbers truncated), ``height`` by
    ``width`` cells (the reference's size when left off); ``#REF!`` off the sheet or for
    a height or width of 0; a negative height or width refused (``Cannot``): Microsoft's
    page says "Height must be a positive number" (the same of width; ECMA-376 Part 1,
    OFFSET: "This height shall be positive") and no more, and
    LibreOffice gives an error where Excel is said to go upward or leftward. rows or
    cols left out between commas (``OFFSET(E15,,3)``) is 0; a height or width left so is
    the reference's, as when left off: Excel saved ``SUM(OFFSET(K7:L8,0,0,1,))`` as K7+L7,
    ``SUM(OFFSET(K7:L8,0,0,,1))`` as K7+K8 and ``SUM(OFFSET(K7:L8,0,0,,))`` as all four
    (tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, I1008, J1008, M1008)."""
    ns = fx.load()
    if isinstance(reference, ns.XlError):  # (#REF! in its place: Excel's value, no page)
        raise Cannot("OFFSET() given an error value as its reference")
    if not isinstance(reference, ns.Ranges) or len(reference.ranges) != 1:
        raise ExcelError("#VALUE!", "OFFSET's reference must be one area")
    book = getattr(context.STATE, "book", None)
    sid, r1, c1, r2, c2 = ranges.areas(reference)[0]
    if book is None or sid not in book.sid_map:
        raise Cannot("OFFSET of a reference napkin cannot place")
    dr = math.trunc(xa.number(rows, "OFFSET's rows"))
    dc = math.trunc(xa.number(cols, "OFFSET's cols"))

    def size(v, default, what):
        if v is None or fx.is_omitted(v):  # (left off, or left out between commas)
            return default
        return math.trunc(xa.number(v, f"OFFSET's {what}"))

    h, w = size(height, r2 - r1 + 1, "height"), size(width, c2 - c1 + 1, "width")
    if h == 0 or w == 0:
        raise ExcelError("#REF!", "OFFSET's height and width must not be 0")
    if h < 0 or w < 0:  # Microsoft: "Height must be a positive number" (so width)
        raise Cannot(f"OFFSET given a negative height or width ({h} by {w}): Microsoft's "
                     "OFFSET page says both must be positive and not what Excel gives "
                     "otherwise (upward or leftward, or an error); give a positive height "
                     "and width, moving the reference with rows and cols instead")
    top, left = r1 + dr, c1 + dc
    return _reference(book.sid_map[sid], top, left, top + h - 1, left + w - 1, "OFFSET")


def indirect(ref_text, a1=True):
    """Excel's ``INDIRECT(ref_text, [a1])``: the reference a text names, in A1 style
    (``"B9"``, ``"$B$9"``, ``"Sheet2!A1:C3"``, ``"'My sheet'!A:A"``, a defined name
    that is a range); ``#REF!`` when the text names none. R1C1 style (``a1`` FALSE) is
    not computed (``Cannot``)."""
    text = xa.scalar(ref_text, "INDIRECT's ref_text")
    style = True if a1 is None or fx.is_omitted(a1) else xa.scalar(a1, "INDIRECT's a1")
    if not style and style is not fx.load().EMPTY:
        raise Cannot("INDIRECT with an R1C1 address")
    if not isinstance(text, str):
        raise ExcelError("#REF!", f"INDIRECT's ref_text {text!r} is not a reference")
    book = getattr(context.STATE, "book", None)
    here = (getattr(context.STATE, "cell", None) or (0, 1, 1))[0]
    if book is None:
        raise Cannot("INDIRECT outside a workbook")
    t = text.strip()
    m = A1_AREA.fullmatch(t)
    if m is None:
        rng = book.references(here).get(t.upper())
        if rng is None:
            raise ExcelError("#REF!", f"INDIRECT: {text!r} names no cell or range")
        parts = book.parts(rng)
        if not parts or len(parts) != 1:
            raise Cannot(f"INDIRECT of the name {t}")
        return _reference(*parts[0], "INDIRECT")
    sheet = m.group("sheet")
    if sheet:
        sheet = sheet[1:-1].replace("''", "'") if sheet.startswith("'") else sheet
        sidx = next((s.index for s in book.sheets if s.name.upper() == sheet.upper()), None)
        if sidx is None:
            raise ExcelError("#REF!", f"INDIRECT: no sheet named {sheet!r}")
    else:
        sidx = here
    if m.group("c1"):
        r1, c1 = int(m.group("r1")), col2num(m.group("c1").upper())
        r2 = int(m.group("r2") or r1)
        c2 = col2num(m.group("c2").upper()) if m.group("c2") else c1
    elif m.group("cc1"):
        r1, r2 = 1, MAX_ROW
        c1, c2 = col2num(m.group("cc1").upper()), col2num(m.group("cc2").upper())
    else:
        c1, c2 = 1, MAX_COL
        r1, r2 = int(m.group("rr1")), int(m.group("rr2"))
    r1, r2, c1, c2 = min(r1, r2), max(r1, r2), min(c1, c2), max(c1, c2)
    return _reference(sidx, r1, c1, r2, c2, "INDIRECT")


def resized(reference, height: int, width: int, who: str):
    """The area of ``height`` by ``width`` cells from ``reference``'s top left cell, with
    its values (``_reference``): SUMIF's sum_range and AVERAGEIF's average_range sized to
    their range as Excel sizes them (Microsoft Support, "SUMIF function": "The actual
    cells that are added are determined by using the upper leftmost cell in the
    sum_range argument as the beginning cell, and then including cells that correspond
    in size and shape to the range argument"). A reference of several areas, or one
    napkin cannot place, stops the computation (``Cannot``), as does an area past the
    sheet's edge (no page says what Excel gives there)."""
    ns = fx.load()
    book = getattr(context.STATE, "book", None)
    if not isinstance(reference, ns.Ranges) or len(reference.ranges) != 1:
        raise Cannot(f"{who} given other than a reference to one area")
    sid, r1, c1, _r2, _c2 = ranges.areas(reference)[0]
    if book is None or sid not in book.sid_map:
        raise Cannot(f"{who} given a reference napkin cannot place")
    if r1 + height - 1 > MAX_ROW or c1 + width - 1 > MAX_COL:
        raise Cannot(f"{who} sized past the sheet's edge")
    return _reference(book.sid_map[sid], r1, c1, r1 + height - 1, c1 + width - 1, who)


def _size(array, axis: int, name: str) -> int:
    ns = fx.load()
    if isinstance(array, ns.Ranges):
        areas = ranges.areas(array)
        if len(areas) != 1:
            raise ExcelError("#REF!", f"{name} of several areas")
        _, r1, c1, r2, c2 = areas[0]
        return (r2 - r1 + 1) if axis == 0 else (c2 - c1 + 1)
    value = np.asarray(array, dtype=object)
    if value.size == 1 and isinstance(value.ravel()[0], ns.XlError):
        raise ExcelError(str(value.ravel()[0]), context.message_for(str(value.ravel()[0])))
    if value.ndim == 0:
        raise Cannot(f"{name} of a single value (not an array nor a reference)")
    return int(value.reshape(value.shape if value.ndim == 2 else (1, -1)).shape[axis])


def rows(array):
    """Excel's ``ROWS(array)``: the number of rows of a reference or an array
    (``ROWS({1;2;3})`` is 3; formulas' takes references only)."""
    return _size(array, 0, "ROWS")


def columns(array):
    """Excel's ``COLUMNS(array)``: the number of columns of a reference or an array
    (``COLUMNS({1,2,3})`` is 3; formulas' takes references only)."""
    return _size(array, 1, "COLUMNS")


def single(value):
    """Excel's ``_xlfn.SINGLE(value)``, the implicit intersection operator ``@`` as Excel
    365 saves it (``=@A1:A10`` is stored ``_xlfn.SINGLE(A1:A10)``): one value is itself,
    a one-cell reference its cell's value, a range of one column (row) in a one-cell
    formula its cell in the formula's row (column), ``#VALUE!`` where that row (column)
    is outside it (``=@A1:A10`` in B5 is A5, in B12 #VALUE!).

    Refused in strict mode, no evidence settling napkin's value there: an array of many
    values (Excel's page: its top-left value; but a function Excel gives a reference,
    such as IF of ranges, may reach here as an array, whose top-left is not the row's
    cell), a block of many rows and columns, several areas, an array formula.

    References
    ----------
    Microsoft Support, "Implicit intersection operator: @" ("If the value is a single
    item, then return the item. If the value is a range, then return the value from the
    cell on the same row or column as the formula."); SUMPRODUCT, "Dynamic Arrays in
    Action" (21 February 2019): where there is no intersection SINGLE returns #VALUE!.
    """
    ns = fx.load()
    if isinstance(value, ns.Ranges):
        if ranges.cell_count(value) == 1:
            return np.asarray(value.value, dtype=object).reshape(-1)[0]
        node, cell = getattr(context.STATE, "node", None), getattr(context.STATE, "cell", None)
        if cell is None or getattr(node, "spill", None) is not None \
                or getattr(node, "is_name", False):
            raise Cannot("SINGLE() of a range in an array formula or a defined name (the "
                         "cell it takes there is not documented)")
        got = intersection.of_reference(value, cell[1], cell[2])
        if got is None:
            raise Cannot("SINGLE() of a range of many rows and columns, or of several "
                         "areas (Excel's value for it is not documented)")
        return got
    if isinstance(value, np.ndarray):
        if value.size == 1:
            return value.reshape(-1)[0]
        raise Cannot("SINGLE() of an array of many values (Excel takes the top-left value "
                     "of an array but the row's cell of a reference a function returns; "
                     "napkin does not tell them apart here)")
    return value
