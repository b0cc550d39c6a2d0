"""Excel's own operands of a ``+``, ``-`` or comparison whose two operands are references
to one cell each: the values Excel saved in those cells, where napkin's agree with them to
within their last bits.

Downstream of a function whose last digits are not Excel's (``addin.engine.last_digits``),
a sum that cancels or a comparison of nearly equal numbers is not settled on napkin's
operands (``addin.formula.cancellation``, ``addin.formula.excel_numbers.near_equal``).
But where each operand is a reference to one cell, Excel's operands were the values it
saved in those cells: a saved number is the double Excel held, written to 17 significant
digits, read back to the same bits. When napkin's value of each cell is within 2^-40 of
the saved one (its last bits apart, as a chain from such a function leaves them), the
workbook was not changed there since Excel computed it, and Excel's rules, settled on the
saved values of such cells (``python -m tools.cancel_evidence``), applied to the saved
operands give Excel's result to the last bit.

Not taken: an operand other than a reference to one cell (a nested call's or operator's
value is napkin's own); a cell whose saved value is no number; one napkin computed more
than 2^-40 from it (an input changed: Excel's operands for the values napkin computes are
not known); a workbook whose ``<calcPr>`` says its values may be stale
(``context.STATE.saved_current`` False, ``addin.engine.kept.asks_recalculation``). A
change of an input smaller than 2^-40 of the operands, saved without recalculating and
not said in ``<calcPr>``, is what this cannot see (as for a root Excel saved:
``addin.engine.roots``).
"""

from __future__ import annotations

import numpy as np

from addin.formula import context, ranges
from addin.formula import formula_text as ft
from addin.formula.fx import load

#: how near (relative to the saved value) napkin's value of an operand cell must be for the
#: saved value to be taken as Excel's operand: the band of last bits within which sums and
#: comparisons are refused (``cancellation.NEAR``, ``excel_numbers.NEAR_EQUAL``)
AGREE = 2.0 ** -40


def _number(v) -> bool:
    return isinstance(v, int | float | np.floating | np.integer) and \
        not isinstance(v, bool | np.bool_)


def _saved_cell(v, ns) -> float | None:
    """The number Excel saved in the one cell Ranges ``v`` refers to, where napkin's value
    there agrees with it to ``AGREE``; else None."""
    book = getattr(context.STATE, "book", None)
    if book is None or not isinstance(v, ns.Ranges) or len(v.ranges) != 1 \
            or ranges.cell_count(v) != 1:
        return None
    sid, r, c, _, _ = ranges.areas(v)[0]
    idx = book.sid_map.get(sid)
    if idx is None:
        return None
    sheet = book.sheets[idx]
    ours = sheet.values.get((r, c))
    saved = sheet.cached[(r, c)] if (r, c) in sheet.cached else ours  # (a constant: itself)
    if not (_number(saved) and _number(ours)):
        return None
    saved, ours = float(saved), float(ours)
    if abs(ours - saved) > abs(saved) * AGREE:
        return None
    return saved


def excel_operands(args) -> tuple[float, float] | None:
    """``(x, y)``: the values Excel saved in the two one-cell references ``args`` of a
    binary operator, where the module's conditions hold; else None."""
    if len(args) != 2 or not getattr(context.STATE, "saved_current", False):
        return None
    ns = load()
    got = [_saved_cell(v, ns) for v in args]
    return None if None in got else (got[0], got[1])


def inputs_as_saved(within: float = 0.0) -> bool:
    """Whether every formula the formula being computed reads holds, in napkin, the value
    Excel saved in it, to the last bit (``context.STATE.inputs_saved``: the engine's
    ``addin.engine.roots.inputs_as_saved``, through defined names too): its inputs are
    then Excel's own operands, whatever upstream of them computed last digits other than
    Excel's (``addin.engine.last_digits``), but for those the formula computes itself
    (``calls_unknown_digits``). Not where the saved values may be stale
    (``context.STATE.saved_current``), nor for a formula that makes references while
    computing (OFFSET, INDIRECT: what it reads is not listed). ``within``: a number within
    that of Excel's, relative, counts as Excel's (last digits apart, not an input changed)."""
    state = context.STATE
    node, check = getattr(state, "node", None), getattr(state, "inputs_saved", None)
    if node is None or check is None or not getattr(state, "saved_current", False) or \
            ft.makes_references(getattr(node, "text", None)):
        return False
    return check(node, within=within) if within else check(node)


def calls_unknown_digits() -> bool:
    """Whether the formula being computed calls a function whose last digits are not
    Excel's itself (``^``, PMT...: ``context.STATE.own_digits``)."""
    node = getattr(context.STATE, "node", None)
    return node is not None and id(node) in (getattr(context.STATE, "own_digits", None) or ())
