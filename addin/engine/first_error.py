"""The error value Excel gives for a function given error values, and where strict mode
computes it.

**The rule.** A function declared ``first_error`` (``addin.formula.excel_functions``)
given error values gives the first of them in argument order, the cells of a range and
the elements of an array read row by row (a range of several areas area by area): Excel
reads its arguments left to right and stops at the first that fails. The evidence:

* Microsoft's pages say an error value given gives an error ("MEDIAN function",
  "SUM function": "Arguments that are error values ... cause errors"; [MS-VSDX]
  2.2.11.2.2.2.8: "When a function encounters a PtgErr as one of its arguments, it
  returns the same error value"); which one of several, no page says;
* the cells Excel saved in the corpora (``python -m tools.error_evidence FOLDER...`` over
  the own corpus and the seen business parts: the formulas that are one call of a
  function whose arguments are references and literals, the functions that read error
  values as values, IFERROR, the IS functions, COUNT, the conditional aggregates, counted
  apart): of the 93 cells of 15 functions that pass an error on, 39 given one kind of
  error and 53 given two or three kinds, every one is the first error in that order
  (``BETA.DIST(#NAME?,#REF!,#REF!,FALSE,#NAME?,#NAME?)`` #NAME?, 51 cells of the business
  corpus's second held-out part, seen: Containership_ABS_Model - Copy.xlsm,
  Beta_Dis!AC5:AC55, where #NAME? is also the most frequent; ``ATAN2(#N/A,#NAME?)`` #N/A
  and ``SUMX2MY2`` of #REF!, #NAME?, #NUM! #REF!, ``poi/FormulaEvalTestData_Copy.xlsx``
  EverythingTests!O168, M1336); read by hand, ``BETA.INV(RAND(),#REF!,#REF!,#NAME?,
  #NAME?)`` #REF! (Beta_Dis!Z15), where #NAME? is as frequent and first in the alphabet.
  None saved a later error. The other orders one might think of are each contradicted:
  the lowest error code (#REF! 4 before #NAME? 5) by the 51 BETA.DIST cells, the last
  argument's error (LibreOffice's, which reads arguments last first) and the alphabet by
  Z15, O168 and M1336. The one cell saved with an error not given,
  ``MODE("1",1,#DIV/0!,2,3)`` #VALUE! (K936), is the text "1" failing before the error
  is reached: the same order, a text read as no number counting as the error of its place.

**Where it is computed.** Strict mode takes a call's value only where it is exactly that
first error; it refuses (``reason``), with a sentence naming the function:

* a text before the first error value (given directly or in a cell) where the function
  reads no text (declared: ``first_error`` is the positions of its text arguments, or
  ``ALL``) nor, where its forms list it, text that looks like a number: that text may
  fail first, as in K936;
* napkin's value not that error (a number computed past the error value, as the
  conditional aggregates do for an error in a row no criterion matches; another error);
* different error values in a block of several rows and columns, or in several areas,
  of the first argument that holds an error: the saved cells' ranges are a row or a
  column, so whether Excel reads a block row by row or column by column is open;
* an array the call gives (an array formula computing it element by element): there
  every error value given must be one and the same, as before this rule.
"""

from __future__ import annotations

import numpy as np

from addin.engine.boot import ready
from addin.formula import ranges


def _values(a):
    """The values of one argument in Excel's reading order (a range's cells row by row,
    area by area; an array's elements row by row)."""
    ns = ready()
    if isinstance(a, ns.Ranges):
        try:
            parts = [arr for _, arr in ranges.area_values(a)]
        except Exception:  # formulas' own error for the reference
            return [ns.errors["#REF!"]]
        return [x for arr in parts for x in np.asarray(arr, dtype=object).ravel()]
    if isinstance(a, np.ndarray):
        return list(a.ravel())
    return [a]


def _code(x) -> str:
    """An error value's code (napkin's carry a message after it: ``#N/A DATE's year...``)."""
    return str(x).split(" ", 1)[0]


def errors_in_order(given) -> list[str]:
    """The error values of the arguments ``given``, in argument order, each argument's
    in its reading order (``_values``)."""
    ns = ready()
    return [_code(x) for a in given for x in _values(a) if isinstance(x, ns.XlError)]


def _block_of_errors(given) -> bool:
    """Whether the first argument holding an error value holds two different ones in a
    block of several rows and columns, or in several areas (row by row or column by
    column, area by area or not: no saved cell says)."""
    ns = ready()
    for a in given:
        vals = _values(a)
        codes = {_code(x) for x in vals if isinstance(x, ns.XlError)}
        if not codes:
            continue
        if len(codes) == 1:
            return False
        if isinstance(a, ns.Ranges):
            areas = [arr for _, arr in ranges.area_values(a)]
            return len(areas) > 1 or min(np.shape(areas[0])[:2] or (1,)) > 1
        return isinstance(a, np.ndarray) and a.ndim == 2 and min(a.shape) > 1
    return False


def _text_before_error(given, text_ok) -> bool:
    """Whether an argument before the first holding an error value is a text (written,
    or in a cell given alone) the function does not read there (``text_ok(position,
    text)`` False)."""
    ns = ready()
    for p, a in enumerate(given):
        vals = _values(a)
        if any(isinstance(x, ns.XlError) for x in vals):
            return False
        if len(vals) == 1 and isinstance(vals[0], str) and vals[0] is not ns.EMPTY and \
                not isinstance(vals[0], ns.XlError) and not text_ok(p, vals[0]):
            return True
    return False


def _one(result):
    """The one value of a call's result, or None for an array of several."""
    if isinstance(result, np.ndarray):
        return result.item(0) if result.size == 1 else None
    return result


#: SUBTOTAL's function_num of COUNT and COUNTA: error values in its ranges are read as
#: values there (Microsoft Support, "COUNT function": "error values ... are not counted";
#: "COUNTA function": it counts error values; SUBTOTAL(2,F3:F185) over a #VALUE! saved as 0
#: in the business corpus's fifth held-out part, seen: Personal Budget - English.xlsx,
#: Analysis!C7)
COUNTING_SUBTOTALS = frozenset({2.0, 3.0, 102.0, 103.0})


def _counting(given) -> bool:
    """Whether SUBTOTAL's ``given`` function_num is one of ``COUNTING_SUBTOTALS``."""
    first = _values(given[0]) if given else []
    return len(first) == 1 and type(first[0]) in (int, float) and \
        float(first[0]) in COUNTING_SUBTOTALS


def reason(name: str, given, result, elementwise: bool, text_ok) -> str | None:
    """Why strict mode refuses the value ``result`` of ``name`` given the arguments
    ``given`` (the module's rule), or None: no error value given, or the value is the
    first of them. ``elementwise``: the call computes an array element by element;
    ``text_ok(position, text)``: the function reads that text there (a text argument, or
    text that looks like a number where numbers are read)."""
    found = errors_in_order(given)
    if not found or name == "SUBTOTAL" and _counting(given):
        return None
    if elementwise:
        return None if len(set(found)) == 1 else \
            f"{name}() given different error values in an array (which one each element " \
            "gives is not documented)"
    if _block_of_errors(given):
        return f"{name}() given different error values in a block of several rows and " \
            "columns (which Excel reads first, row by row or column by column, no page or " \
            "saved cell says)"
    if _text_before_error(given, text_ok):
        return f"{name}() given a text before an error value ({found[0]}): which one " \
            "Excel gives, the text's #VALUE! or the error, no page or saved cell says"
    got = _one(result)
    if isinstance(got, ready().XlError) and _code(got) == found[0]:
        return None
    shown = "an array" if got is None else _code(got) if isinstance(got, ready().XlError) \
        else repr(got)
    return f"{name}() given the error value {found[0]} first gives it in Excel; napkin " \
        f"computed {shown}"
