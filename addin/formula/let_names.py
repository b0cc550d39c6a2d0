"""Excel 365's ``LET``: each name written out as the expression it is bound to.

``LET(name1, name_value1, [name2, name_value2, ...], calculation)`` binds names left to
right, each value may use the names bound before it, and the last argument is the
result; names hold only inside the call (a nested ``LET`` may bind a name again, which
then holds inside it). Excel saves a name as ``_xlpm.name`` and the call as
``_xlfn.LET(``. ``expand`` rewrites a formula's text so that every use of a name is its
value's expression, in parentheses: ``_xlfn.LET(_xlpm.x,"3",ROUND(_xlpm.x,0))`` is
``ROUND(("3"),0)``. Everything strict mode checks then sees what reaches each use: the
forms of argument a function is given (the text ``"3"`` reaching ROUND, refused as
unchecked), a range staying a range (``LET(x,A1:A3,x*2)`` is ``(A1:A3)*2``, spilled as a
dynamic array formula spills it), the functions called. Each name is still computed
once: formulas' parser makes one node of a graph for each distinct expression (its
``AstBuilder.append``: a call whose text is already a node is not added again), so the
copies of a value are one node, computed once.

Refused (``LetRefused``, a sentence naming the form), as Microsoft's page leaves them or
as this rewriting cannot hold them: a LAMBDA anywhere in the formula (one called where it
is written, or named and called, is written out as a LET first, by
``addin.formula.lambda_calls``: what remains is not checked); a
name that is not ``_xlpm.`` followed by a name Excel accepts (a letter first, no period,
not a cell reference: ``c`` and ``r`` conflict with R1C1 references), bound twice in one
call, or used and bound nowhere; a call without a name, value and calculation or with
more than 126 names; an empty value; text longer than Excel's 8,192 characters once
written out; and, in a cell Excel did not save as an array formula, a name bound to
what may be a reference of many cells or an array (a range, a defined name, a spill
reference, OFFSET/INDEX/INDIRECT... or an array constant), or whose calculation reads
one: where Excel takes one value of it there (implicit intersection inside LET, or in
the function around the LET) is not documented.

References
----------
Microsoft Support, "LET function" (https://support.microsoft.com/en-us/office/
let-function-34842dd8-b92b-4d3f-b325-b8b8f9908999): names and values in pairs, at most
126; each name must begin with a letter and be a valid name of the Name Manager ("a" is
valid, "c" is not: it conflicts with R1C1-style references); the last argument is the
calculation returning the result; Excel computes a named expression once.
"""

from __future__ import annotations

import re

from addin.formula import formula_text as ft

#: Excel's longest formula, in characters (Microsoft Support, "Excel specifications and
#: limits": "Length of formula contents: 8,192 characters")
MAX_FORMULA = 8192
#: at most 126 name/value pairs (Microsoft Support, "LET function")
MAX_PAIRS = 126

_LET = re.compile(r"(?i)(?<![\w.\\])(?:_xlfn\.)?LET\(")
_PARAM = re.compile(r"(?i)(?<![\w.\\])_xlpm\.([A-Za-z_\\][\w\\.]*)")
_LAMBDA = re.compile(r"(?i)(?<![\w.\\])(?:_xlfn\.)?LAMBDA\(|_xleta\.")
#: a name Excel's LET accepts: a letter first, then letters, digits or _, no period
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
#: names that are cell references (A1, XFD1048576, R1C1, R, C, R2, C3)
_CELL_LIKE = re.compile(r"(?i)[A-Z]{1,3}[0-9]+|R[0-9]*C?[0-9]*|C[0-9]*")
#: functions that may return a reference of many cells or an array given arguments of one
#: value each (IF, CHOOSE, IFERROR... return one of their arguments: one value when each
#: is, which the scan of the whole text sees)
_REFERENCE_FUNCTIONS = frozenset(
    "OFFSET INDEX INDIRECT XLOOKUP LOOKUP HLOOKUP VLOOKUP ANCHORARRAY "
    "CHOOSECOLS CHOOSEROWS TAKE DROP FILTER SORT SORTBY UNIQUE SEQUENCE VSTACK HSTACK "
    "TRANSPOSE RANDARRAY TOCOL TOROW WRAPROWS WRAPCOLS EXPAND MMULT MUNIT MINVERSE "
    "FREQUENCY TEXTSPLIT LINEST LOGEST TREND GROWTH MODE.MULT STOCKHISTORY TRIMRANGE "
    "REGEXEXTRACT FILTERXML GROUPBY PIVOTBY".split())
#: one token of a value that is one cell's or one value's in a one-cell formula
_SCALAR_TOKEN = re.compile(r"""
  \s+
| "(?:[^"]|"")*"
| (?:'(?:[^']|'')+'!|[A-Za-z_][\w.]*!)?\$?(?P<col>[A-Za-z]{1,3})\$?(?P<row>[0-9]+)(?![\w.(:!])
| (?P<call>_?[A-Za-z][\w.]*)\(
| (?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?
| (?i:TRUE|FALSE)(?![\w.(])
| \#(?:NULL!|DIV/0!|VALUE!|REF!|NAME\?|NUM!|N/A)
| <=|>=|<>|[-+*/^&=<>%(),]
""", re.X)


class LetRefused(ValueError):
    """A LET napkin does not write out; its message says which form and why."""


def expand(text: str, one_cell: bool = False) -> str:
    """``text`` with each ``LET`` call written out (the module's docstring); as it is
    when it calls none. ``one_cell``: the formula is a cell's that Excel did not save as
    an array formula. LetRefused for the forms the module's docstring lists."""
    if not _LET.search(text):
        return text
    if _LAMBDA.search(ft.outside_strings(text)):
        raise LetRefused("LET() in a formula that calls LAMBDA (not checked)")
    out = _expand(text, {}, one_cell)
    if len(out) > MAX_FORMULA:
        raise LetRefused("LET() whose names written out make a formula past "
                         f"{MAX_FORMULA:,} characters (Excel's longest formula)")
    return out


def _skip_quoted(text: str, i: int) -> int:
    """The index after the string literal or quoted name opening at ``i``."""
    end = ft.end_of_quoted(text, i)
    if end is None:
        raise LetRefused("LET() in a formula whose quotes are not closed")
    return end


def arguments(text: str, start: int) -> tuple[list[str], int]:
    """The arguments of the call whose ``(`` is just before ``start``, and the index
    after its ``)``: split at the commas outside parentheses, braces, brackets and
    quotes."""
    args, depth, i, begin = [], 0, start, start
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            i = _skip_quoted(text, i)
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                if ch != ")":
                    break
                args.append(text[begin:i])
                return args, i + 1
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(text[begin:i])
            begin = i + 1
        i += 1
    raise LetRefused("LET() whose parentheses are not closed")


def _expand(text: str, env: dict[str, str], one_cell: bool) -> str:
    """``text`` with the names of ``env`` (upper case -> expression written out) and
    its own LET calls written out."""
    out, i, size = [], 0, len(text)
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            j = _skip_quoted(text, i)
            out.append(text[i:j])
            i = j
            continue
        let = _LET.match(text, i) if ch in "_lL" else None
        if let and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.\\")):
            args, i = arguments(text, let.end())
            out.append(_let(args, env, one_cell))
            continue
        param = _PARAM.match(text, i) if ch == "_" else None
        if param and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.\\")):
            key = param.group(1).upper()
            if key not in env:
                raise LetRefused(f"the name {param.group(1)} used outside the LET() that "
                                 "binds it")
            out.append(env[key])
            size += len(env[key])
            if size > MAX_FORMULA:
                raise LetRefused("LET() whose names written out make a formula past "
                                 f"{MAX_FORMULA:,} characters (Excel's longest formula)")
            i = param.end()
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _let(args: list[str], env: dict[str, str], one_cell: bool) -> str:
    """One LET call (its arguments as written) written out in ``env``."""
    if len(args) < 3 or len(args) % 2 == 0:
        raise LetRefused(f"LET() with {len(args)} arguments (a name, its value and a "
                         "calculation, and more names in pairs)")
    if len(args) // 2 > MAX_PAIRS:
        raise LetRefused(f"LET() with {len(args) // 2} names, past Excel's {MAX_PAIRS}")
    inner, bound = dict(env), set()
    for name_text, value_text in zip(args[:-1:2], args[1:-1:2], strict=True):
        name = valid_name(name_text)
        if name.upper() in bound:
            raise LetRefused(f"LET() binding the name {name} twice")
        bound.add(name.upper())
        if not value_text.strip():
            raise LetRefused(f"LET() with no value for the name {name}")
        value = _expand(value_text, inner, one_cell)
        if one_cell and not one_value(value):
            raise LetRefused(
                f"LET() binding the name {name} to {value.strip()[:60]} (which may be a "
                "reference of many cells or an array: which of its values Excel takes, "
                "implicit intersection inside LET, is not documented; saved as a dynamic "
                "array formula it would compute) in a cell not saved as an array formula")
        inner[name.upper()] = _grouped(value)
    if not args[-1].strip():
        raise LetRefused("LET() with no calculation")
    body = _expand(args[-1], inner, one_cell)
    if one_cell and not one_value(body):
        raise LetRefused(
            f"LET() whose calculation {body.strip()[:60]} may read a reference of many "
            "cells or an array (where Excel takes one value of it inside LET, implicit "
            "intersection, is not documented; saved as a dynamic array formula it would "
            "compute) in a cell not saved as an array formula")
    return _grouped(body)


def valid_name(text: str) -> str:
    """The name of a LET argument saved as ``_xlpm.name``."""
    m = _PARAM.fullmatch(text.strip())
    bare = m.group(1) if m else text.strip()
    if m is None or not _NAME.fullmatch(bare) or _CELL_LIKE.fullmatch(bare) \
            or bare.upper() in ("TRUE", "FALSE"):
        raise LetRefused(f"LET() naming {text.strip()[:40]!r}, not a name Excel's LET "
                         "accepts (a letter first, no period, not a cell reference)")
    return bare


def _grouped(expr: str) -> str:
    """``expr`` in parentheses, so that it is one operand where it is written out."""
    return f"({expr.strip()})"


def one_value(expr: str) -> bool:
    """Whether ``expr`` is made only of constants, one-cell references, operators and
    calls of functions that return no reference of many cells and no array."""
    i, text = 0, expr.strip()
    while i < len(text):
        m = _SCALAR_TOKEN.match(text, i)
        if m is None:
            return False
        if m.group("col") and (column_number(m.group("col")) > 16384
                               or not 1 <= int(m.group("row")) <= 1048576):
            return False  # (a defined name such as ZZZ1, not a cell: XFD1048576 is last)
        call = m.group("call")
        if call and call.upper().removeprefix("_XLFN.").removeprefix("_XLWS.") \
                in _REFERENCE_FUNCTIONS:
            return False
        i = m.end()
    return True


def column_number(letters: str) -> int:
    """The number of a column (A is 1, XFD 16,384)."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n
