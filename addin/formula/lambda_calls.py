"""Excel 365's ``LAMBDA`` called: each call written out as a ``LET`` of its parameters.

``LAMBDA([parameter1, parameter2, ...,] calculation)`` makes a function; it computes
only where it is called: given a name in the Name Manager (a defined name whose text is
the LAMBDA, a user's own function, called like Excel's: ``CallPrice(B12,B11,...)``) or
called at once in a cell (``=LAMBDA(number, number + 1)(1)``, the page's example: 2).
Excel saves the parameters as ``_xlpm.name`` and the function as ``_xlfn.LAMBDA(``; a
call of a named LAMBDA is saved as written (``CallPrice(B12,...)``, no prefix: the
files of ``calebjgartner/Financial-Modeling-Projects``, mirrored in the corpora).

``expand`` rewrites a formula's text so that each such call is
``_xlfn.LET(_xlpm.p1,(argument1),...,calculation)``, the parameters renamed to names of
their own (``napkinlambda<n>_<name>``) so that an argument's names are the caller's
and the calculation's the LAMBDA's: a call binds each parameter to its argument,
computed where the call is written (the page: "a value that you want to pass to the
function, such as a cell reference, string or number"), then computes the calculation.
``addin.formula.let_names`` then writes each name out, so that everything strict mode
checks sees what reaches each use, as for LET: the forms of argument the functions of
the calculation are given (text passed to a parameter that reaches ROUND is refused as
``ROUND("3",0)`` is), the functions called, a range staying a range.

Written as the page says:

* a call given a number of arguments other than the number of parameters is
  ``#VALUE!`` ("If an incorrect number of arguments is passed to a LAMBDA function,
  Excel returns a #VALUE! error");
* a cell whose whole formula is a LAMBDA not called is ``#CALC!`` ("If you create a
  LAMBDA function in a cell without also calling it from within the cell, Excel returns
  a #CALC! error"): refused with that sentence, as every cell whose value is #CALC! is
  (Excel saves it as #VALUE! with a rich value napkin does not write).

Refused (``LambdaRefused``, a sentence naming the form), where the page and the saved
cells leave it open or this rewriting cannot hold it: a LAMBDA given to a function
(MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY, or bound by LET) or not called elsewhere
than as a cell's whole formula; a named LAMBDA calling itself, directly or through
others (recursion: the page's #NUM! when too deep, the depth undocumented); an argument
left empty (``ISOMITTED``'s optional parameters); more than 253 parameters; a parameter
that is not ``_xlpm.`` and a name Excel accepts (let_names' rule: a letter first, no
period, not a cell reference), or named twice; a named LAMBDA scoped to one sheet, or
whose calculation reads anything but its parameters, constants, function calls and
references qualified with their sheet (a defined name's other names and unqualified
references are resolved where the name is defined, not where it is called), or holds
LET or LAMBDA; an optional parameter (``[y]``, saved ``_xlop.y``); Excel's eta-reduced
``_xleta.`` form; and, in a cell Excel did not save
as an array formula, an argument that may be a range or an array (which of its values
Excel takes there is not documented).

References
----------
Microsoft Support, "LAMBDA function" (https://support.microsoft.com/en-us/office/
lambda-function-bd212d27-1cd1-4321-a34a-ccbf254b8b67): parameters, at most 253, and the
calculation last; a LAMBDA named in the Name Manager is called like Excel's functions;
parameter names follow Excel's rules for names, without a period; the errors above.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from addin.formula import formula_text as ft
from addin.formula import let_names

#: at most 253 parameters (Microsoft Support, "LAMBDA function")
MAX_PARAMETERS = 253
#: how deep named LAMBDAs may call one another while written out (a call deeper than
#: this is recursion or close to it: refused)
MAX_DEPTH = 32
#: the most rows (columns) a BYROW (BYCOL) is written out for, one call each
MAX_PARTS = 1024
#: the prefix of the names napkin gives parameters (a formula holding it is refused)
FRESH = "napkinlambda"

_LAMBDA = re.compile(r"(?i)(?:_xlfn\.)?LAMBDA\(")
_CALL = re.compile(r"(?i)(_xlfn\.|_xlws\.)*([A-Za-z_\\][\w.\\]*)\(")
_WORD = re.compile(r"[A-Za-z_\\][\w.\\]*(?![\w.\\!(])")
_PARAM = re.compile(r"(?i)(?<![\w.\\])_xlpm\.([A-Za-z_\\][\w\\]*)")
#: what a named LAMBDA's calculation may hold besides its parameters and calls: string
#: literals, numbers, TRUE/FALSE, error values, operators, absolute references qualified
#: with their sheet (a relative one in a defined name moves with the cell that uses it)
_NAMED_BODY_TOKEN = re.compile(r"""
  \s+
| "(?:[^"]|"")*"
| (?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!\$[A-Za-z]{1,3}\$[0-9]+(?::\$[A-Za-z]{1,3}\$[0-9]+)?
| (?i:_xlpm\.)[A-Za-z_\\][\w\\]*
| (?i:_xlfn\.|_xlws\.)*[A-Za-z_\\][\w.\\]*\(
| (?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?
| (?i:TRUE|FALSE)(?![\w.(])
| \#(?:NULL!|DIV/0!|VALUE!|REF!|NAME\?|NUM!|N/A|CALC!)
| <=|>=|<>|[-+*/^&=<>%(),]
""", re.X)


#: calls whose value depends on the cell a formula is in
_PLACE_CALL = re.compile(r"(?i)(?<![\w.\\])(?:INDIRECT|CELL|INFO)\(|(?<![\w.\\])(?:ROW|COLUMN)"
                         r"\(\s*\)")


class LambdaRefused(ValueError):
    """A LAMBDA napkin does not write out; its message says which form and why."""


@dataclass(frozen=True)
class NamedLambda:
    """A defined name whose text is a LAMBDA: its parameters and calculation."""

    name: str
    parameters: tuple[str, ...]
    calculation: str
    refused: str | None = None  # why a call of it is not written out


def named_lambda(name: str, text: str, local: bool = False) -> NamedLambda | None:
    """The LAMBDA a defined name's text is (``_xlfn.LAMBDA(_xlpm.a,...,calculation)``,
    nothing after it), or None when its text is something else."""
    body = text.strip().removeprefix("=").strip()
    m = _LAMBDA.match(body)
    if m is None:
        return None
    try:
        args, end = let_names.arguments(body, m.end())
    except let_names.LetRefused:
        return None
    if body[end:].strip():
        return None
    try:
        params = _parameters(args)
    except LambdaRefused as ex:
        return NamedLambda(name, (), "", str(ex))
    calc = args[-1]
    why = None
    if local:
        why = "a LAMBDA named for one sheet only (not checked)"
    elif re.search(r"(?i)(?<![\w.\\])(?:_xlfn\.)?(?:LET|LAMBDA)\(|_xleta\.",
                   ft.outside_strings(calc)):
        why = "a named LAMBDA whose calculation holds LET or LAMBDA (not checked)"
    elif _PLACE_CALL.search(ft.outside_strings(calc)):
        why = ("a named LAMBDA whose calculation calls INDIRECT, CELL, INFO, or ROW() or "
               "COLUMN() of no reference (which cell they read there: not checked)")
    else:
        why = _named_body_refusal(calc, params)
    return NamedLambda(name, params, calc, why)


def _named_body_refusal(calc: str, params: tuple[str, ...]) -> str | None:
    """Why a named LAMBDA's calculation cannot be written where it is called, or None."""
    i, text, known = 0, calc.strip(), {p.upper() for p in params}
    while i < len(text):
        m = _NAMED_BODY_TOKEN.match(text, i)
        if m is None:
            return (f"a named LAMBDA whose calculation reads {text[i:i + 30]!r} (a name "
                    "or a reference not qualified with its sheet: resolved where the name "
                    "is defined, not where it is called; not checked)")
        p = _PARAM.fullmatch(m.group(0))
        if p and p.group(1).upper() not in known:
            return f"a named LAMBDA whose calculation reads _xlpm.{p.group(1)}, no parameter"
        i = m.end()
    return None


def expand(text: str, named: dict[str, NamedLambda] | None = None,
           one_cell: bool = False) -> str:
    """``text`` with each LAMBDA call written out as a LET (the module's docstring); as
    it is when it has none. ``named``: the workbook's named LAMBDAs by upper-case name.
    LambdaRefused for the forms the module's docstring lists."""
    named = named or {}
    code = ft.outside_strings(text)
    if not _LAMBDA.search(code) and "_xleta." not in code.lower() and not (
            named and any(w.upper() in named for w in re.findall(r"[\w.\\]+", code))):
        return text
    if FRESH in code.lower():
        raise LambdaRefused(f"a formula holding the name {FRESH} (napkin's own)")
    whole = text.strip().removeprefix("=").strip()
    m = _LAMBDA.match(whole)
    if m and not whole[_arguments(whole, m.end())[1]:].strip():
        raise LambdaRefused("a LAMBDA not called, the cell's whole formula (Excel gives "
                            "#CALC!, saved as #VALUE! with a rich value napkin does not "
                            "write)")
    return _Writer(named, one_cell).write(text, ())


def _arguments(text: str, start: int) -> tuple[list[str], int]:
    try:
        return let_names.arguments(text, start)
    except let_names.LetRefused as ex:
        raise LambdaRefused(str(ex).replace("LET()", "LAMBDA()")) from None


def _parameters(args: list[str]) -> tuple[str, ...]:
    """The parameter names of a LAMBDA's arguments (the last is its calculation)."""
    if not args[-1].strip():
        raise LambdaRefused("LAMBDA() with no calculation")
    if len(args) - 1 > MAX_PARAMETERS:
        raise LambdaRefused(f"LAMBDA() with {len(args) - 1} parameters, past Excel's "
                            f"{MAX_PARAMETERS}")
    names: list[str] = []
    for a in args[:-1]:
        if a.strip()[:6].lower() == "_xlop.":
            raise LambdaRefused(f"LAMBDA() with the optional parameter [{a.strip()[6:]}] "
                                "(saved _xlop.; ISOMITTED: not checked)")
        bare = a.strip()[6:] if a.strip()[:6].lower() == "_xlpm." else ""
        try:
            # ("r" and "c", which LET refuses for R1C1, Excel saves as parameters: the
            # Option Pricing Model's CallPrice, _xlfn.LAMBDA(_xlpm.S,...,_xlpm.r,...))
            name = bare if bare.upper() in ("R", "C") else let_names.valid_name(a)
        except let_names.LetRefused:
            raise LambdaRefused(f"LAMBDA() naming {a.strip()[:40]!r}, not a name Excel "
                                "accepts (a letter first, no period, not a cell "
                                "reference)") from None
        if name.upper() in (n.upper() for n in names):
            raise LambdaRefused(f"LAMBDA() naming the parameter {name} twice")
        names.append(name)
    return tuple(names)


def _not_called(text: str, at: int) -> str:
    """The refusal of a LAMBDA at ``at`` not called where it is written, naming the
    function it is given to."""
    code = ft.outside_strings(text[:at])  # (its strings emptied: no parenthesis in them)
    depth, i = 0, len(code) - 1
    while i >= 0:
        if code[i] == ")":
            depth += 1
        elif code[i] == "(":
            if depth == 0:
                m = re.search(r"([A-Za-z_\\][\w.\\]*)$", code[:i])
                name = m.group(1).upper().removeprefix("_XLFN.").removeprefix("_XLWS.") \
                    if m else ""
                if name:
                    return (f"{name}() given a LAMBDA (the LAMBDA helper functions MAP, "
                            "REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY, and a LAMBDA bound by "
                            "LET, are not checked)")
                break
            depth -= 1
        i -= 1
    return "a LAMBDA not called where it is written (not checked)"


class _Writer:
    """Writes out the LAMBDA calls of one formula (fresh parameter names counted)."""

    def __init__(self, named: dict[str, NamedLambda], one_cell: bool):
        self.named, self.one_cell, self.count = named, one_cell, 0

    def write(self, text: str, stack: tuple[str, ...]) -> str:
        out, i = [], 0
        while i < len(text):
            ch = text[i]
            if ch in "\"'":
                end = ft.end_of_quoted(text, i)
                if end is None:
                    raise LambdaRefused("LAMBDA() in a formula whose quotes are not closed")
                out.append(text[i:end])
                i = end
                continue
            if ch == "_" and text[i:i + 7].lower() == "_xleta.":
                raise LambdaRefused("a LAMBDA saved eta-reduced (_xleta.; not checked)")
            m = _CALL.match(text, i) if (ch.isalpha() or ch in "_\\") else None
            if m is None and (ch.isalpha() or ch in "_\\") and not (
                    i and (text[i - 1].isalnum() or text[i - 1] in "_.\\!$")):
                word = _WORD.match(text, i)
                if word and word.group(0).upper() in self.named:
                    raise LambdaRefused(f"the named LAMBDA {word.group(0)} not called (not "
                                        "checked)")
            if m is None or (i and (text[i - 1].isalnum() or text[i - 1] in "_.\\!$")):
                out.append(ch)
                i += 1
                continue
            if _LAMBDA.fullmatch(m.group(0)):
                args, end = _arguments(text, m.end())
                params = _parameters(args)
                if end >= len(text) or text[end] != "(":
                    raise LambdaRefused(_not_called(text, i))
                call_args, i = _arguments(text, end + 1)
                out.append(self._call(params, args[-1], call_args, stack, None))
                continue
            lam = self.named.get(m.group(2).upper()) if not m.group(1) else None
            if lam is None:
                out.append(m.group(0))
                i = m.end()
                continue
            if lam.refused:
                raise LambdaRefused(f"{lam.name}(): {lam.refused}")
            if lam.name.upper() in stack or len(stack) >= MAX_DEPTH:
                raise LambdaRefused(f"{lam.name}(): a named LAMBDA calling itself "
                                    "(recursion: not checked)")
            call_args, i = _arguments(text, m.end())
            out.append(self._call(lam.parameters, lam.calculation, call_args,
                                  (*stack, lam.name.upper()), lam.name))
        return "".join(out)

    def _call(self, params: tuple[str, ...], calc: str, args: list[str],
              stack: tuple[str, ...], name: str | None) -> str:
        """One call written out: a LET binding fresh names to the arguments."""
        what = f"{name}()" if name else "LAMBDA()"
        if args == [""] and not params:
            args = []
        if len(args) != len(params):
            return "#VALUE!"  # the page: an incorrect number of arguments
        if any(not a.strip() for a in args):
            raise LambdaRefused(f"{what} called with an argument left empty (optional "
                                "parameters, ISOMITTED: not checked)")
        written = [self.write(a, stack[:-1] if name else stack) for a in args]
        if self.one_cell:
            for p, a in zip(params, written, strict=True):
                if not let_names.one_value(_PARAM.sub("0", a)):  # (let_names checks
                    # what a name holds)
                    raise LambdaRefused(
                        f"{what} given {a.strip()[:60]} for {p} (which may be a reference "
                        "of many cells or an array: which of its values Excel takes is "
                        "not documented; saved as a dynamic array formula it would "
                        "compute) in a cell not saved as an array formula")
        self.count += 1
        fresh = {p.upper(): f"{FRESH}{self.count}_{p}" for p in params}
        body = ft.change_outside_strings(calc, lambda s: _PARAM.sub(
            lambda m: "_xlpm." + fresh.get(m.group(1).upper(), m.group(1)), s))
        body = self.write(body, stack)
        if len(body) > let_names.MAX_FORMULA:
            raise LambdaRefused(f"{what} whose calculation written out is past "
                                f"{let_names.MAX_FORMULA:,} characters (Excel's longest "
                                "formula)")
        if not params:
            return f"({body.strip()})"
        pairs = ",".join(f"_xlpm.{fresh[p.upper()]},({a.strip()})"
                         for p, a in zip(params, written, strict=True))
        return f"_xlfn.LET({pairs},{body})"


#: the functions a row or column given by BYROW or BYCOL may be summed with: each gives
#: the same for a range and for an array of its values, which the page leaves open
#: ("If an argument is an array or reference, only numbers in that array or reference are
#: counted. Empty cells, logical values, or text in the array or reference are ignored":
#: Microsoft Learn, "WorksheetFunction.Sum method (Excel)", https://learn.microsoft.com/
#: en-us/office/vba/api/excel.worksheetfunction.sum; ECMA-376 Part 4, SUM and SUMSQ; an
#: empty cell read as 0 in an array adds 0 to a sum or a sum of squares either way)
_ROW_SUMS = frozenset({"SUM", "SUMSQ"})
_BY = re.compile(r"(?i)(?<![\w.\\])(?:_xlfn\.)?(BYROW|BYCOL)\(")
_AREA = re.compile(r"(?P<sheet>(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?(?P<c1>[A-Za-z]{1,3})"
                   r"\$?(?P<r1>[0-9]+)(?::\$?(?P<c2>[A-Za-z]{1,3})\$?(?P<r2>[0-9]+))?")


def by_rows_and_columns(text: str) -> str:
    """``text`` with each ``BYROW(range, LAMBDA(row, SUM(row)))`` (or ``BYCOL``, or
    ``SUMSQ``) whose range is written as one (a spill's, ``A1#``, once written as its
    range) as ``VSTACK`` (``HSTACK``) of the LAMBDA called on each row (column) of it:
    the page's "Applies a LAMBDA to each row and returns an array of the results" (a
    range of 3 columns by 2 rows gives 1 column by 2 rows). A LAMBDA of other than one
    parameter gives #VALUE! (the page: "an incorrect number of parameters"); a
    calculation that reads its row otherwise than summed, or reads another name, is
    refused (``LambdaRefused``): where it gives more than one value Excel gives #CALC!,
    and whether the row is a range or an array (MAX, AVERAGE, COUNT and PRODUCT differ
    there over empty cells) the page does not say.

    References
    ----------
    Microsoft Support, "BYROW function" (https://support.microsoft.com/en-us/excel/
    functions/byrow-function) and "BYCOL function" (https://support.microsoft.com/en-us/
    excel/functions/bycol-function): array, and a LAMBDA of one parameter (a row, a
    column) calculating one result; errors as above."""
    out, end = [], 0
    code = ft.STRING_RE.sub(lambda q: '"' + " " * (len(q.group(0)) - 2) + '"', text)
    for m in _BY.finditer(code):
        if m.start() < end:
            continue
        args, stop = _arguments(text, m.end())
        out += (text[end:m.start()], _by(m.group(1).upper(), args))
        end = stop
    return "".join(out) + text[end:]


def _by(which: str, args: list[str]) -> str:
    """One BYROW or BYCOL call (its arguments as written) written out."""
    area = _AREA.fullmatch(args[0].strip()) if len(args) == 2 else None
    lam = _LAMBDA.match(args[1].strip()) if len(args) == 2 else None
    if area is None or lam is None:
        raise LambdaRefused(f"{which}() given other than a range and a LAMBDA (not checked)")
    inner, after = _arguments(args[1].strip(), lam.end())
    if args[1].strip()[after:].strip():
        raise LambdaRefused(f"{which}() given a LAMBDA called (not checked)")
    params = _parameters(inner)
    if len(params) != 1:
        return "#VALUE!"  # the page: an incorrect number of parameters
    calc = ft.change_outside_strings(inner[-1], lambda s: re.sub(
        rf"(?i)(?<![\w.\\])(?:_xlfn\.)?({'|'.join(_ROW_SUMS)})\(\s*_xlpm\.{params[0]}\s*\)",
        "0", s))
    if _PARAM.search(ft.outside_strings(calc)) or _LAMBDA.search(calc) or _BY.search(calc) \
            or not let_names.one_value(calc):
        raise LambdaRefused(
            f"{which}() given a LAMBDA whose calculation {inner[-1].strip()[:60]} reads its "
            "parameter otherwise than summed (SUM, SUMSQ), or may give more than one value "
            "(Excel's #CALC!): not checked")
    sheet = area.group("sheet") or ""
    c1, r1 = area.group("c1").upper(), int(area.group("r1"))
    c2, r2 = (area.group("c2") or c1).upper(), int(area.group("r2") or r1)
    count = r2 - r1 + 1 if which == "BYROW" else \
        let_names.column_number(c2) - let_names.column_number(c1) + 1
    if not 1 <= count <= MAX_PARTS:
        raise LambdaRefused(f"{which}() over {count:,} rows or columns (written out, past "
                            f"the {MAX_PARTS:,} napkin writes: not checked)")
    cols = [_letters(n) for n in range(let_names.column_number(c1),
                                       let_names.column_number(c2) + 1)]
    if which == "BYROW":
        parts = [f"{sheet}{c1}{r}:{c2}{r}" for r in range(r1, r2 + 1)]
    else:
        parts = [f"{sheet}{c}{r1}:{c}{r2}" for c in cols]
    lam_text = args[1].strip()
    stack = "_xlfn.VSTACK" if which == "BYROW" else "_xlfn.HSTACK"
    return f"{stack}({','.join(f'{lam_text}({p})' for p in parts)})"


def _letters(n: int) -> str:
    """The letters of column ``n`` (1 is A, 16,384 XFD)."""
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out
