"""A criterion of COUNTIF, SUMIFS... that looks like a number (``"Jun-25"``, ``"32"``)
over a criteria range it can match no cell of, however Excel reads it: no form to refuse.

``addin.engine.forms`` refuses "text that looks like a number" for a function whose
forms do not list it: Excel may read such a text as a number or a date (COUNTIF also
reads texts of its range as numbers: which it matches then is not documented). But over
a range whose cells are all empty or texts without a digit, none equal to the criterion
without case, the criterion matches nothing read as a number or a date (no cell holds
one) and nothing read as a text (no cell equals it): COUNTIF counts 0 whichever way
(``addin.formula.criterion_test._no_cell_can_equal``, which computes it so)."""

from __future__ import annotations

import numpy as np

from addin.engine.boot import ready
from addin.formula.criterion_test import _no_cell_can_equal

#: the functions of criteria: (position of the first criteria range, of its criterion,
#: the step to the next pair)
PAIRS = {"COUNTIF": (0, 1, 0), "SUMIF": (0, 1, 0), "AVERAGEIF": (0, 1, 0),
         "COUNTIFS": (0, 1, 2), "SUMIFS": (1, 2, 2), "AVERAGEIFS": (1, 2, 2),
         "MAXIFS": (1, 2, 2), "MINIFS": (1, 2, 2)}


def matches_nothing(name: str, given, position: int) -> bool:
    """Whether argument ``position`` of ``name`` (in ``PAIRS``), given ``given``, is a
    criterion of one text that can match no cell of its criteria range."""
    first, criterion, step = PAIRS[name]
    if position < criterion or (step == 0 and position != criterion) or \
            (step and (position - criterion) % step) or position >= len(given):
        return False
    ns = ready()
    text = _one_value(given[position], ns)
    cells = given[position - (criterion - first)]
    if type(text) is not str or not text or not isinstance(cells, ns.Ranges):
        return False
    raw = np.asarray(cells._value, dtype=object)
    raw = np.where(np.vectorize(lambda v: v is ns.EMPTY, otypes=[bool])(raw), "", raw)
    return _no_cell_can_equal(raw, text)


def _one_value(v, ns):
    if isinstance(v, ns.Ranges):
        v = v._value
    if isinstance(v, np.ndarray):
        return v.item(0) if v.size == 1 else None
    return v
