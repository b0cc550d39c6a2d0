"""Error values in the ranges of COUNTIF, COUNTIFS, SUMIF, SUMIFS, AVERAGEIF and AVERAGEIFS:
what strict mode computes and what it refuses (``context.refuse``).

**What is settled.** An error value in a criteria range is a cell the criterion does not
match when the criterion is a number, or a text that compares with a number (``">0"``,
``"<=2.5"``, ``"=3"``) or equals a text (``"abc"``, ``"=abc"``) with no wildcard: an error
is no number and no text, so such a criterion cannot match it, and the row is skipped as
a row no criterion matches (Microsoft Support, "COUNT function": error values are no
numbers, they are not counted; the cells Excel saved in
tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!E1324,
``SUMIF(AA7:AA13,C10:D10,C7)`` over seven different error values, 1.1, the one row its
criterion matched; Liam Bastick (Excel MVP),
SumProduct Pty Ltd, "Multiple Criteria with Errors", FM Magazine, January 2019: SUMIFS
"ignor[es] items like #N/A in unused data", and gives the error where it is in the data
added). An error value in the range to add (or average) of a row the criteria match is
the function's value, as SUM of it is.

**What is refused.** With an error value in a criteria range: a criterion ``"<>x"`` or
``"<>"`` (does an error count as not equal? no page says), one with a wildcard (formulas
reads an error value as a text there: ``COUNTIF(A1:A10,"*")`` counted the errors), one
that orders texts (``">abc"``), a logical value, a text that begins with ``#`` (``"#N/A"``:
matched to the error by formulas, not by any page). A criterion that is itself an error
value matches the cells holding that error value (E1324 above: C10:D10 intersected with
row 1324 is #VALUE!, and Excel added C9, the row of AA9's #VALUE!, the six other errors
skipped), except over a range holding that error's text (``"#N/A"`` typed), refused. Two
different error values in the range to add of a call whose value is an error: which of
them Excel gives (the first row matched or another) no page or saved cell says.
"""

from __future__ import annotations

import functools
import re

import numpy as np

from addin.formula import context, fx, ranges
from addin.formula.excel_numbers import _WILDCARD

#: a criterion that compares with a number: an operator (or none) and a number
_NUMBER_CRITERION = re.compile(r"(?:<=|>=|<|>|=)?\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*")


def _errors(values) -> set[str]:
    """The codes of the error values among ``values`` (a range's values, an array)."""
    error = fx.load().XlError
    return {str(v).split(" ", 1)[0] for v in np.asarray(values, dtype=object).ravel()
            if isinstance(v, error)}


def settled_over_errors(condition) -> bool:
    """Whether ``condition`` is a criterion that cannot match an error value (the module's
    docstring): a number, or a text with no ``<>``, no wildcard and no leading ``#`` that
    compares with a number or equals a text."""
    if isinstance(condition, (bool, np.bool_, fx.load().XlError)):
        return False
    if isinstance(condition, (int, float, np.number)):
        return True
    if not isinstance(condition, str) or condition.startswith("<>") or \
            _WILDCARD.search(condition):
        return False
    if _NUMBER_CRITERION.fullmatch(condition):
        return True
    body = condition.removeprefix("=")
    return not condition.startswith(("<", ">")) and not body.lstrip().startswith("#")


def criteria_checked(corrected):
    """formulas' test of a criterion (``__xfilter``) as ``corrected`` computes it
    (``addin.formula.criterion_test.criteria``), stopping strict mode (``context.refuse``) on a
    criterion that is an error value over a range holding that error's text, or one not
    ``settled_over_errors`` over a range holding an error value."""
    @functools.wraps(corrected)
    def xfilter(test_range, condition):
        error = fx.load().XlError
        one = condition.item() if isinstance(condition, np.ndarray) and condition.size == 1 \
            else condition
        if isinstance(one, error):  # (matches the cells holding that error value)
            code = str(one).split(" ", 1)[0]
            if any(type(v) is str and v.strip().upper() == code for v in
                   np.asarray(test_range["raw"], dtype=object).ravel()):
                context.refuse(f"a criterion that is an error value ({code}) over a range "
                               "holding it as a text: whether Excel matches the text no "
                               "page says")
                raise ValueError(one)
            return corrected(test_range, condition)
        found = _errors(test_range["raw"])
        if found and not settled_over_errors(one):
            context.refuse(f"the criterion {one!r} over a range holding an error value "
                           f"({sorted(found)[0]}): whether Excel matches it there no page says")
            raise ValueError(one)
        return corrected(test_range, condition)

    return xfilter


def several_criteria_over_errors(key: str, pairs) -> bool:
    """Whether a criterion of ``pairs`` ((criteria range, criterion), ...) is several
    values (a range of several cells, an array) while its range holds an error value; if
    so strict mode is stopped (``context.refuse``): in a one-cell formula Excel intersects
    such a criterion with the formula's cell (E1324: C10:D10 in row 1324, #VALUE!), in an
    array context (SUMPRODUCT) it takes each value, and napkin cannot tell the two apart
    there (it takes the first value)."""
    ns = fx.load()
    for cells, criterion in pairs:
        many = ranges.cell_count(criterion) > 1 if isinstance(criterion, ns.Ranges) else \
            isinstance(criterion, np.ndarray) and criterion.size > 1
        if many and _errors(getattr(cells, "value", cells)):
            context.refuse(f"{key.removeprefix('_XLFN.')} given a criterion of several cells "
                           "over a range holding an error value (Excel intersects it with "
                           "the formula's cell, or takes each value in an array context)")
            return True
    return False


def one_error_added(compute, key: str, added):
    """``compute`` (SUMIF, SUMIFS, AVERAGEIF or AVERAGEIFS, ``key``), stopping strict mode
    where its value is an error value and the rows its criteria match hold two different
    error values in the range to add (which one Excel gives, no page or saved cell says).
    ``added(args)``: the position of the range to add and its cells, or None where the
    cells added are not a range given (one Excel sizes: refused). The rows matched are
    found by computing again with the cells of one error value as 1, the others empty."""
    name = key.removeprefix("_XLFN.")

    def first(v):
        return v.ravel()[0] if isinstance(v, np.ndarray) and v.size == 1 else v

    @functools.wraps(compute)
    def checked(*args):
        result = compute(*args)
        error = fx.load().XlError
        if not isinstance(first(result), error) or \
                context.message_for(str(first(result))).startswith(context.CANNOT):
            return result  # (no error, or one strict mode already refused, with its reason)
        got = added(args)
        matched = 2
        if got is not None:
            at, cells = got
            values = np.asarray(getattr(cells, "value", cells), dtype=object)
            codes = _errors(values)
            matched = 0 if len(codes) < 2 else sum(
                _matched(compute, args, at, values, code, error) for code in codes)
        if matched > 1:
            context.refuse(f"{name} given different error values in the rows its criteria "
                           "match of its range to add (which one Excel gives, no page or "
                           "saved cell says)")
        return result

    def _matched(func, args, at, values, code, error) -> bool:
        marked = np.full(values.shape, fx.load().EMPTY, dtype=object)
        for i, v in enumerate(values.ravel()):
            if isinstance(v, error) and str(v).split(" ", 1)[0] == code:
                marked.flat[i] = 1.0
        again = list(args) + [None] * (at + 1 - len(args))
        again[at] = marked
        got = first(func(*again))
        return not isinstance(got, error) and got != 0

    return checked
