"""The range operator ``:`` given a reference in parentheses or the value of a function
other than INDEX, OFFSET and XLOOKUP: refused in strict mode (``addin.engine.support``).

Excel's range operator "produces one reference to all the cells between two references,
including the two references" (Microsoft Support, "Calculation operators and
precedence in Excel", reference operators); either reference may be a defined name, a
reference in parentheses or a function giving one. The ``formulas`` package computes
``A1:B1``, ``Start:B1`` and ``Start:End`` (defined names), ``A1:INDEX(A1:B1,1,2)``,
``INDEX(...):INDEX(...)``, ``A1:OFFSET(A1,0,1)`` (``tests/test_range_operands.py``) and
``XLOOKUP(...):XLOOKUP(...)`` (Microsoft's page, ``tests/test_branch_references.py``) as
Excel does, but not a reference in parentheses on the left: with
A1 = 1 and B1 = 2, Excel's ``(A1):B1`` is A1:B1 and SUM of it 3, formulas gives 1 (A1
only); so is an intersection so written, ``SUM((Col Row):B1)`` (``heldout3``'s
TimeSim.xlsx, ``SUM((M_01 Cost_Total):J21)``: Excel 104,880, formulas 52,440).

So strict mode refuses a formula whose ``:`` has, on either side, a parenthesized
expression (``A1:(B1)`` too, which formulas gets right: no cell shows the other forms in
parentheses are), or a call to a function other than these three, rather than give
such a value (it keeps Excel's value there; so does ``--lenient``). In the seen corpora
25 formulas do: 24 are TimeSim.xlsx's intersection, one joins the spill references of a
BYCOL (kept for the BYCOL already).
"""

from __future__ import annotations

import re

#: the characters of a name, a reference or a function's name
_WORD = re.compile(r"[\w.\\$]+")
#: what follows the ``:`` of a 3-D reference, ``Sheet1:Sheet3!A1`` (a sheet's name and !)
_THREE_D_END = re.compile(r"\s*(?:[\w.\\]+|'[^']*')!")
#: the functions giving a reference that formulas takes as an operand of ``:`` as Excel
_REFERENCE_FUNCTIONS = {"INDEX", "OFFSET", "XLOOKUP"}


def refusal(code: str) -> str | None:
    """Why the range operators of formula ``code`` (strings removed, quoted sheet names
    blanked: ``addin.engine.support``) are not computed as Excel does, or None."""
    for i, ch in enumerate(code):
        if ch != ":" or _THREE_D_END.match(code, i + 1):
            continue  # (Sheet1:Sheet3!A1, a 3-D reference: addin.engine.threed)
        left = _left_operand(code[:i].rstrip())
        right = _right_operand(code[i + 1:].lstrip())
        for side in (left, right):
            if side is not None:
                return (f"the range operator ':' given {side} (napkin reads such a range "
                        "otherwise than Excel: write the cells out, or use INDEX)")
    return None


def _left_operand(text: str) -> str | None:
    """What stands left of a ``:`` when napkin does not take it, else None."""
    if text.endswith(")"):
        depth, j = 0, len(text) - 1
        while j >= 0:
            depth += {")": 1, "(": -1}.get(text[j], 0)
            if depth == 0:
                break
            j -= 1
        word = _WORD.search(text[:j][::-1])
        name = word.group(0)[::-1] if word and word.start() == 0 else ""
        if not name:
            return "a reference in parentheses"
        return None if name.upper().removeprefix("_XLFN.") in _REFERENCE_FUNCTIONS else \
            f"the value of {name}()"
    return None  # (a cell, a column, a row written out, or a defined name)


def _right_operand(text: str) -> str | None:
    """What stands right of a ``:`` when napkin does not take it, else None."""
    if text.startswith("'"):  # a quoted sheet name (blanked): the reference after its !
        end = text.find("'", 1)
        text = text[end + 2:] if end > 0 and text[end + 1:end + 2] == "!" else text
    if text.startswith("("):
        return "a reference in parentheses"
    word = _WORD.match(text)
    if not word:
        return None
    token = word.group(0)
    rest = text[word.end():].lstrip()
    if rest.startswith("!"):  # Sheet2!B1: the reference after the sheet's name
        return _right_operand(rest[1:].lstrip())
    if rest.startswith("("):
        return None if token.upper().removeprefix("_XLFN.") in _REFERENCE_FUNCTIONS else \
            f"the value of {token}()"
    return None
