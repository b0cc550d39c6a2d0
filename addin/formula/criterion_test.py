"""formulas' test of a COUNTIF/SUMIF/... criterion (``__xfilter``) as Excel's: the
``"<>"`` forms, and the criteria whose answer in Excel napkin does not know (an order of
numbers over text that reads as a number, an order of texts whose order in Excel is not
known to be napkin's), which stop strict mode."""

from __future__ import annotations

import operator
import re

import numpy as np

from addin.formula import context, fx, text_order
from addin.formula.excel_numbers import _WILDCARD, _wildcard_match
from addin.formula.fx_excel import text_value


def criteria(original, key: None):
    """formulas' test of a COUNTIF/SUMIF/... criterion (``__xfilter``) with Excel's
    ``"<>"`` forms: ``"<>"`` alone matches every cell that is not empty, ``"="`` alone
    every empty one, and ``"<>x"`` every cell that ``"=x"`` does not match (empty cells
    and cells of another kind included); formulas compares only cells of the
    criterion's kind and reads ``"<>"`` alone as a text. An order of texts (``">m"``) is
    taken without case, as Excel's criteria are (formulas compares code points with
    case: "Banana" was not ``">=b"``), by ``_ordered_texts``. A criterion TRUE or FALSE
    over cells that hold numbers stops strict mode (whether Excel matches 1 and 0 to it
    is not documented).

    References: Microsoft Support, "COUNTIF function" (=COUNTIF(A2:A5,"<>"&B4) counts
    the cells not equal to B4; "Criteria aren't case sensitive. For example, the string
    "apples" and the string "APPLES" will match the same cells")."""
    def empty(test_range):
        raw = test_range["raw"]
        return np.vectorize(lambda v: isinstance(v, str) and v == "", otypes=[bool])(raw)

    def xfilter(test_range, condition):
        if isinstance(condition, str):
            _refuse_ordering_beside_number_text(test_range["raw"], condition)
            _refuse_unsettled_text_order(test_range["raw"], condition)
            negated = condition.startswith("<>")
            body = condition[2:] if negated else condition.removeprefix("=")
            if _WILDCARD.search(body):
                found = _wildcard_match(test_range["raw"], body)
                return ~found if negated else found
            if condition == "<>":
                return ~empty(test_range)
            if condition == "=":
                return empty(test_range)
            if not _ORDERING.match(condition) and _DIGIT.search(body) and \
                    _no_cell_can_equal(test_range["raw"], body):  # (else formulas' reading)
                nothing = np.zeros(np.shape(test_range["raw"]), dtype=bool)
                return ~nothing if negated else nothing
            if condition.startswith("<>"):
                return ~original(test_range, "=" + condition[2:])
            ordered = _ordered_texts(test_range["raw"], condition)
            if ordered is not None:
                return ordered
        elif isinstance(condition, (bool, np.bool_)) and any(  # (not documented)
                isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_))
                for v in np.asarray(test_range["raw"], dtype=object).ravel()):
            context.refuse("a criterion TRUE or FALSE over cells that hold numbers")
            raise ValueError(condition)
        return original(test_range, condition)

    return xfilter


_ORDERING = re.compile(r"(<=|>=|<(?!>)|>)(.+)$", re.S)  # (not "<>")
_DIGIT = re.compile(r"\d")


def _no_cell_can_equal(raw, body: str) -> bool:
    """Whether ``"=body"`` matches no cell of ``raw`` however Excel reads ``body``: every
    cell is empty or a text without a digit (no number, logical or error value, and no
    text that could read as a number or a date), and none is ``body`` without case.

    Then ``"=body"`` matches nothing and ``"<>body"`` everything, whether Excel reads
    ``body`` as a number or date (it then matches cells of that number) or as a text (it
    matches equal texts, without case). So a body read by the computer's settings
    (``"Jun-25"``: 25 June of this year, or June 2025, ``addin.formula.locale_texts``)
    need not stop strict mode over a range of month names. References: Microsoft
    Support, "COUNTIF function" (criteria are not case sensitive)."""
    if "~" in body:  # ("a~*b" matches "a*b": formulas' own reading)
        return False
    folded = {body.casefold(), body.upper(), body.lower(), body.strip().casefold()}
    for v in np.asarray(raw, dtype=object).ravel():
        if type(v) is not str or _DIGIT.search(v):
            return False
        if {v.casefold(), v.upper(), v.lower(), v.strip().casefold()} & folded:
            return False
    return True


def _reads_as_number(text: str) -> bool:
    try:
        text_value(text)
    except ValueError:
        return False
    return True


def _refuse_ordering_beside_number_text(raw, condition: str) -> None:
    """Stop strict mode (``context.refuse``) on a criterion that orders numbers
    (``">2"``) over a range holding a text that reads as a number (``"12"``): formulas
    reads that text as its number; whether Excel compares it is not documented."""
    m = _ORDERING.match(condition)
    if not m or not _reads_as_number(m.group(2)):
        return
    for v in np.asarray(raw, dtype=object).ravel():
        if isinstance(v, str) and v.strip() and _reads_as_number(v):
            context.refuse(f"the criterion \"{condition}\" over a text that reads as a "
                           f"number ({v!r})")
            raise ValueError(condition)


_ORDER_OF = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _ordered_texts(raw, condition: str):
    """Which cells of ``raw`` an order of texts (``">m"``, ``"<=Q3"``) matches, without
    case: only texts, each beside the criterion's text as ``addin.formula.text_order``
    settles it (``_refuse_unsettled_text_order`` stopped strict mode before otherwise).
    None for other criteria (numbers, logical values, error values: formulas'). An empty
    cell or empty text under ``"<"`` or ``"<="`` stops strict mode: as a text it would
    come first, and no page says whether Excel matches it."""
    XlError = fx.load().XlError
    m = _ORDERING.match(condition)
    if not m or _reads_as_number(m.group(2)) or m.group(2).upper() in ("TRUE", "FALSE") \
            or m.group(2).startswith("#"):
        return None
    op, body = _ORDER_OF[m.group(1)], m.group(2).upper()
    cells = np.asarray(raw, dtype=object)
    if m.group(1) in ("<", "<=") and any(type(v) is str and v == "" for v in cells.flat):
        context.refuse(f"the criterion \"{condition}\" over an empty cell or text (whether "
                       "Excel counts it as a text before every other is not documented)")
        raise ValueError(condition)
    return np.vectorize(lambda v: isinstance(v, str) and not isinstance(v, XlError)
                        and op(v.upper(), body), otypes=[bool])(cells)


def _refuse_unsettled_text_order(raw, condition: str) -> None:
    """Stop strict mode (``context.refuse``) on a criterion that orders texts (``">m"``)
    over a range holding a text whose order beside it in Excel is not known to be
    napkin's (``addin.formula.text_order``: ``"_a"``, ``"é"``...)."""
    XlError = fx.load().XlError
    m = _ORDERING.match(condition)
    if not m or _reads_as_number(m.group(2)):
        return
    texts = (v for v in np.asarray(raw, dtype=object).ravel()
             if isinstance(v, str) and not isinstance(v, XlError))
    other = text_order.first_unsettled(m.group(2), texts)
    if other is not None:
        context.refuse(f"the criterion \"{condition}\": " + text_order.why(m.group(2), other))
        raise ValueError(condition)
