"""Excel's logical functions AND, OR, XOR, SWITCH and IFS, with Excel's rules for their
arguments.

References
----------
Microsoft Support, "AND function", "OR function", "XOR function", "SWITCH function";
"IFS function", https://support.microsoft.com/en-us/office/
ifs-function-36329a26-37b2-467c-972b-4a39bd951d45 (the value of the first TRUE
logical_test; #N/A when none is TRUE; a logical_test that resolves to a value other than
TRUE or FALSE: #VALUE!).
"""

from __future__ import annotations

import re

import numpy as np

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import context, fx
from addin.formula import formula_text as ft
from addin.formula.arrays import grid
from udfs.machinery.errors import ExcelError


def _error(v, what: str):
    raise ExcelError(str(v), context.message_for(str(v)) or f"{what} is an error")


def _logicals(name: str, args) -> list[bool]:
    """The logical values of AND/OR/XOR's arguments, as Excel takes them: in a reference
    or an array, logical values and numbers (not 0 is TRUE), text and empty cells left
    out; given directly, a number, a logical value, or the text "TRUE" or "FALSE"; any
    other text given directly is ``#VALUE!``, and an error value anywhere the result."""
    ns = fx.load()
    _text_beside_an_error(name, args)
    out: list[bool] = []
    for a in map(_scalar, args):
        if fx.is_omitted(a):
            raise Cannot(f"{name} with an omitted argument")
        if isinstance(a, np.ndarray) and a.size == 1 and _text(a.ravel()[0], ns):
            # ("abc"&A9): one value in a formula, text left out in an array formula
            raise Cannot(f"{name}() given a text in a one-value array an operation or a "
                         "call gives: a value (#VALUE!) or an array (left out)?")
        if isinstance(a, ns.Ranges) or isinstance(a, np.ndarray):
            for v in grid(a).ravel():
                if isinstance(v, ns.XlError):
                    _error(v, f"a value of {name}'s arguments")
                if isinstance(v, (bool, np.bool_, int, float, np.number)):
                    out.append(bool(v))
            continue
        if isinstance(a, ns.XlError):
            _error(a, f"an argument of {name}")
        if a is ns.EMPTY or a is None:
            continue
        if isinstance(a, (bool, np.bool_, int, float, np.number)):
            out.append(bool(a))
        elif isinstance(a, str) and a.strip().upper() in ("TRUE", "FALSE"):
            out.append(a.strip().upper() == "TRUE")
        else:
            raise ExcelError("#VALUE!", f"{name}'s argument {str(a)!r} is not a logical value")
    if not out:
        raise ExcelError("#VALUE!", f"{name} of no logical values")
    return out


def and_(*logicals):
    """Excel's ``AND(logical1, [logical2], ...)``: TRUE when every logical value of the
    arguments (``_logicals``) is TRUE."""
    return all(_logicals("AND", logicals))


def or_(*logicals):
    """Excel's ``OR(logical1, [logical2], ...)``: TRUE when one logical value of the
    arguments (``_logicals``) is TRUE."""
    return any(_logicals("OR", logicals))


def xor(*logicals):
    """Excel's ``XOR(logical1, [logical2], ...)``: TRUE when an odd number of the logical
    values of the arguments (``_logicals``) are TRUE."""
    return sum(_logicals("XOR", logicals)) % 2 == 1


def _scalar(a):
    """A nested call's single value (formulas gives it as a 0-d array) as the value
    itself: Excel takes it as given directly, not as an array (AND(0,CLEAN("o")) is
    #VALUE!, as AND("1",1), an Excel-saved cell: tests/corpus/poi/
    FormulaEvalTestData_Copy.xlsx J136)."""
    return a[()] if isinstance(a, np.ndarray) and a.ndim == 0 else a


def _text(v, ns) -> bool:
    """Whether ``v`` is a text other than "TRUE" and "FALSE" (and no empty cell)."""
    return isinstance(v, str) and v is not ns.EMPTY and not isinstance(v, ns.XlError) \
        and v.strip().upper() not in ("TRUE", "FALSE")


def _text_beside_an_error(name: str, args) -> None:
    """``Cannot`` where ``args`` hold a text given directly that is neither "TRUE" nor
    "FALSE" (``#VALUE!``) and an error value other than ``#VALUE!``: which of the two
    Excel gives, its pages do not say (the differential: AND("ABC",NA()) napkin #VALUE!,
    LibreOffice #N/A)."""
    ns = fx.load()
    text, errors = False, set()
    for a in map(_scalar, args):
        if isinstance(a, (ns.Ranges, np.ndarray)):
            errors |= {str(v) for v in grid(a).ravel() if isinstance(v, ns.XlError)}
        elif isinstance(a, ns.XlError):
            errors.add(str(a))
        elif isinstance(a, str) and a is not ns.EMPTY and \
                a.strip().upper() not in ("TRUE", "FALSE"):
            text = True
    if text and errors - {"#VALUE!"}:
        raise Cannot(f"{name}() given a text that is no logical value and an error value "
                     f"({min(errors - {'#VALUE!'})}): which one Excel gives is not documented")


def _one(v, what: str):
    """A single value: a one-cell reference or array read, a larger one refused (Excel
    would lift SWITCH over it)."""
    ns = fx.load()
    if isinstance(v, (ns.Ranges, np.ndarray)):
        g = grid(v)
        if g.size != 1:
            raise Cannot(f"SWITCH over an array or range ({what})")
        v = g.ravel()[0]
    return v


def _same(a, b) -> bool:
    """Whether Excel's ``=`` holds between two values: of one kind (number, text, logical:
    text compared without case), an empty cell equal to 0, "" and FALSE."""
    ns = fx.load()
    if a is ns.EMPTY or a is None:
        return b is ns.EMPTY or b is None or b == "" or (xa.kind(b) in (0, 2) and not b)
    if b is ns.EMPTY or b is None:
        return _same(b, a)
    ka, kb = xa.kind(a), xa.kind(b)
    if ka is None or ka != kb:
        return False
    return str(a).casefold() == str(b).casefold() if ka == 1 else a == b


def _value(v):
    """A result as a cell shows it: an empty cell is 0."""
    ns = fx.load()
    return 0 if v is ns.EMPTY or v is None else v


def switch(expression, *pairs):
    """Excel's ``SWITCH(expression, value1, result1, [value2, result2], ..., [default])``:
    the result of the first value equal to ``expression`` (as ``=`` compares them:
    text without case, a number never equal to a text or a logical value), else the
    default, else ``#N/A``; an expression or value of many values computes SWITCH for
    each (``_switch_each``). A result or default that is a range of many cells is
    ``Cannot``: its page does not say whether SWITCH gives the reference back (as IF and
    CHOOSE) or takes values there, intersected with a one-cell formula's cell and lifted
    in an array formula (``SUM(SWITCH(1,1,5,B1:B3))`` 5 or 15; LibreOffice lifts it);
    formulas read it as an array and a one-cell formula showed its first value."""
    ns = fx.load()
    results = pairs[1::2] + pairs[len(pairs) - len(pairs) % 2:]
    if any(isinstance(v, ns.Ranges) and _many(v, ns) for v in results):
        raise Cannot("SWITCH() given a range of many cells as a result or default (whether "
                     "it gives the reference back or its values is not on its page): give "
                     "one cell, or INDEX(range,n) of the cell wanted")
    if any(isinstance(v, ns.Ranges) for v in results) and not _whole_formula("SWITCH"):
        raise Cannot("SWITCH() given a reference to one cell as a result or default inside "
                     "another call (whether it gives the reference or the cell's value is "
                     "not on its page; a function reading references, as SUM does, may "
                     "tell them apart): write the SWITCH in a cell of its own")
    return _switch_each(expression, *pairs)


def _whole_formula(name: str) -> bool:
    """Whether the formula being computed (``context.STATE.node``) is one call of ``name``
    and nothing else (``=SWITCH(...)``): there a result that is a reference to one cell
    shows that cell's value whether the function gives back the reference or the value."""
    node = getattr(context.STATE, "node", None)
    text = ft.outside_strings(getattr(node, "text", None) or "").lstrip("=").strip()
    head = re.match(rf"(?:_xlfn\.)?{name}\s*\(", text, re.I)
    if head is None:
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch == ")":
            return i == len(text) - 1
    return False


def _many(v, ns) -> bool:
    """Whether ``v`` is a range or array of more than one value."""
    return isinstance(v, (ns.Ranges, np.ndarray)) and grid(v).size > 1


@xa.lifted
def _switch_each(expression, *pairs):
    """``switch`` of single values (lifted over arrays: ``xa.lifted``)."""
    return _value(_switch_one(expression, pairs, _one))


def _switch_one(expression, pairs, result):
    """The result SWITCH chooses (``result(value, what)`` reads it, ``_one``), or the
    error it raises."""
    ns = fx.load()
    v = _one(expression, "its expression")
    if isinstance(v, ns.XlError):
        _error(v, "SWITCH's expression")
    if len(pairs) < 2:
        raise ExcelError("#VALUE!", "SWITCH needs a value and a result")
    for k, res in zip(pairs[::2], pairs[1::2], strict=False):
        k = _one(k, "a value")
        if isinstance(k, ns.XlError):  # the result, or passed over? not on Microsoft's page
            raise Cannot("SWITCH with an error value among the values it compares")
        if _same(v, k):
            return result(res, "a result")
    if len(pairs) % 2:
        return result(pairs[-1], "its default")
    raise ExcelError("#N/A", "SWITCH: no value matches")


def ifs(*pairs):
    """Excel's ``IFS(logical_test1, value_if_true1, [logical_test2, value_if_true2], ...)``:
    the value of the first logical_test that is TRUE, tested in order; ``#N/A`` when none
    is TRUE; ``#VALUE!`` where a test reached is text (its page: a test that "resolves to
    a value other than TRUE or FALSE"). What the page leaves open is ``Cannot`` (strict
    mode refuses the cell): a test that is a number (the page says #VALUE!, while IF
    takes a number as TRUE or FALSE), an empty cell, an error value, a range or array of
    many values (Excel would lift IFS over it), a test left without its value."""
    ns = fx.load()
    if not pairs or len(pairs) % 2:
        raise Cannot("IFS with a logical_test without its value_if_true (Excel does not "
                     "accept the formula)")
    for k in range(0, len(pairs), 2):
        t = _scalar(pairs[k])
        if isinstance(t, (ns.Ranges, np.ndarray)):
            g = grid(t)
            if g.size != 1:
                raise Cannot("IFS() given a range or array of many values as a logical_test"
                             " (Excel lifts it over them)")
            t = g.ravel()[0]
        if isinstance(t, (bool, np.bool_)):
            if t:
                return _value(_scalar(pairs[k + 1]))
            continue
        if isinstance(t, ns.XlError):
            raise Cannot("IFS() given an error value as a logical_test (its page does not "
                         "say whether it is given back)")
        if t is ns.EMPTY or t is None:
            raise Cannot("IFS() given an empty cell as a logical_test (its page does not "
                         "say whether it is FALSE)")
        if isinstance(t, str):
            raise ExcelError("#VALUE!", "IFS's logical_test is text, not TRUE or FALSE")
        raise Cannot("IFS() given a number as a logical_test (its page says #VALUE! for a "
                     "value other than TRUE or FALSE; IF reads a number as one)")
    raise ExcelError("#N/A", "IFS: no logical_test is TRUE")
