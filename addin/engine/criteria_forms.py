"""Criteria of COUNTIF, SUMIFS... that look like a number (``"0"``, ``"Jun-25"``) where
how Excel reads them is settled by the criteria range: no form to refuse.

``addin.engine.forms`` refuses "text that looks like a number" for a function whose
forms do not list it: Excel may read such a text as a number or a date, and which cells
of the range it then matches is not documented where the range holds texts that look
like numbers too (COUNTIF is said to read those as numbers). Two cases are settled:

1. **A plain number** (``"32"``, ``"=0"``: digits, a sign, a decimal point) over a range
   holding no text that looks like a number and no logical value: the criterion is that
   number (Microsoft Support, "SUMIFS function": criteria "can be entered as 32, ">32",
   B4, "apples", or "32""), matching the cells holding it, as formulas computes it.
2. **No cell can equal it** (``"Jun-25"`` over month names): every cell empty or a text
   without a digit, none equal to it without case; then it matches nothing whether
   Excel reads it as a number, a date or a text
   (``addin.formula.criterion_test._no_cell_can_equal``, which computes it so).

A criterion read by the computer's settings (``"1/2/2024"``, ``"Jun-25"``) still stops
strict mode where it is read (``addin.formula.locale_texts``), outside case 2."""

from __future__ import annotations

import re

import numpy as np

from addin.engine.boot import ready
from addin.formula.criterion_test import _no_cell_can_equal
from addin.formula.fx_excel_args import one_value

#: the functions of criteria: (position of the first criteria range, of its criterion,
#: the step to the next pair; 0: one pair)
PAIRS = {"COUNTIF": (0, 1, 0), "SUMIF": (0, 1, 0), "AVERAGEIF": (0, 1, 0),
         "COUNTIFS": (0, 1, 2), "SUMIFS": (1, 2, 2), "AVERAGEIFS": (1, 2, 2),
         "MAXIFS": (1, 2, 2), "MINIFS": (1, 2, 2)}
_PLAIN_NUMBER = re.compile(r"=?-?(?:\d+\.?\d*|\.\d+)")


def is_criterion(name: str, position: int) -> bool:
    """Whether argument ``position`` of ``name`` (in ``PAIRS``) is a criterion: its forms
    are checked once the values of its criteria range are known (``settled``), not in
    the compile (``addin.engine.forms.compile_calls``)."""
    first, criterion, step = PAIRS[name]
    return not (position < criterion or (step == 0 and position != criterion)
                or (step and (position - criterion) % step))


def settled(name: str, given, position: int, looks_numeric) -> bool:
    """Whether argument ``position`` of ``name`` (in ``PAIRS``), given ``given``, is a
    criterion of one text that looks like a number, settled by its criteria range (the
    module's docstring); ``looks_numeric``: ``addin.engine.forms.looks_numeric``."""
    first, criterion, _ = PAIRS[name]
    if not is_criterion(name, position) or position >= len(given):
        return False
    ns = ready()
    text = one_value(given[position], ns)
    cells = given[position - (criterion - first)]
    if type(text) is not str or not text or not isinstance(cells, ns.Ranges):
        return False
    raw = np.asarray(cells._value, dtype=object)
    raw = np.where(np.vectorize(lambda v: v is ns.EMPTY, otypes=[bool])(raw), "", raw)
    if _PLAIN_NUMBER.fullmatch(text):
        return not any(type(v) is str and looks_numeric(v) or isinstance(v, (bool, np.bool_))
                       for v in raw.ravel())
    return _no_cell_can_equal(raw, text)

