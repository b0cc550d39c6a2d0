"""IF's chosen branch given back as it is: a range IF chooses by one logical_test stays a
reference, which the formula around it reads as Excel does.

formulas computes IF element by element (``wrap_ufunc``): ``IF(A1>0,B1:B3,0)`` became the
array of B1:B3's values, which a one-cell formula showed by its first value (B1's) in any
row. Excel's IF gives back the argument it chooses; a range given back in a one-cell
formula is implicitly intersected with the formula's cell (its row's cell of a column, its
column's cell of a row, ``#VALUE!`` outside it or for a block of many rows and columns),
and an operator or a function's value parameter around IF intersects it the same way;
SUM, an array formula and a function's array parameters read the whole range, as they
read the array before. (Had Excel's IF value parameters there, a one-cell formula would
intersect the range on the way in and give the same value.)

References
----------
Microsoft Support, "Implicit intersection operator: @" (a range: the value of the cell on
the formula's row or column); Microsoft Support, "IF function" (``IF(logical_test,
value_if_true, [value_if_false])``: the value of the argument the test chooses).
LibreOffice agrees on every shape of ``tests/test_branch_references.py``.
"""

from __future__ import annotations

import numpy as np

from addin.formula import fx, ranges


def _many(v, ns) -> bool:
    """Whether ``v`` is a reference or array of more than one value."""
    if isinstance(v, ns.Ranges):
        try:
            return ranges.cell_count(v) > 1
        except Exception:
            return False
    return isinstance(v, np.ndarray) and v.size > 1


def if_keeping_references(each):
    """IF (``each``: formulas' element-wise IF, with our reading of a text test) that
    gives back a range of many cells it chooses by a single logical_test as the
    reference; anything else is ``each``'s (a test of many values chooses element by
    element, as in an array formula)."""

    def excel_if(*args):
        ns = fx.load()
        if len(args) < 2 or _many(args[0], ns) or not any(
                isinstance(a, ns.Ranges) and _many(a, ns) for a in args[1:3]):
            return each(*args)
        test = each(args[0], True, False)  # (the test read as IF reads it)
        test = test.item() if isinstance(test, np.ndarray) and test.size == 1 else test
        if not isinstance(test, (bool, np.bool_)):
            return each(*args)  # (an error value: IF's error)
        pick = 1 if test else 2
        chosen = args[pick] if pick < len(args) else None
        if isinstance(chosen, ns.Ranges) and _many(chosen, ns):
            return chosen
        chosen = False if pick >= len(args) else args[pick]  # (the other one unread:
        return each(args[0], chosen, chosen)  # SUM(IF(TRUE,5,B1:B3)) is 5, not 15)

    excel_if.one_cell_as = each  # (one-cell arguments: ``addin.formula.one_cell``)
    return excel_if
