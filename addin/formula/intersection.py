"""Excel's implicit intersection in a parsed formula: which operators and function
arguments take one value of a reference (the cell in the formula's row or column) in a
one-cell formula, and which take whole arrays.

The tables say it per operator and per function (``VALUE_OPERATORS``,
``ARRAY_CONTEXT``, ``VALUE_CONTEXT``, ``VALUE_PARAMS``);
``operand_contexts`` applies them to the dispatcher graph ``addin.formula.fx`` parsed
(it reads the graph's nodes; only ``addin.formula.fx`` imports formulas and schedula).

References
----------
Microsoft, "Implicit intersection operator: @"; [MS-XLS] 2.5.198.x (parameter classes:
reference, value, array).
"""

from __future__ import annotations

import re

from addin.formula import excel_functions, fx, ranges

#: operators that take values (not references): a reference given to one of them in a
#: one-cell formula is implicitly intersected with the formula's cell
VALUE_OPERATORS = frozenset("+ - * / ^ & = <> < > <= >= U- U+ %".split())
_REF_OPERATORS = frozenset([":", ",", " "])
#: formulas' BYPASS: where a formula repeats a subexpression (``(A1:A3>1)*(A1:A3>1)``),
#: its graph computes it once and passes the value on through BYPASS, which is no Excel
#: function: the value's context is that of where BYPASS passes it
_PASS_ON = frozenset(["BYPASS"])
#: functions whose arguments Excel computes as arrays in a one-cell formula (array-class
#: parameters): ``=SUMPRODUCT((A1:A5>1)*B1:B5)`` needs no Ctrl+Shift+Enter (declared
#: ``array_context``)
ARRAY_CONTEXT = excel_functions.names("array_context", spelled=True)
#: functions whose arguments are single values (or references) in a one-cell formula:
#: an operator on a range inside them takes the range's value in the formula's row or
#: column (``=SUM(A1:A5*B1:B5)`` in row 6 is #VALUE!; ``=IF(A1:A9>0,1,0)`` in row 3
#: compares A3; declared ``value_context``)
VALUE_CONTEXT = excel_functions.names("value_context", spelled=True)


#: functions whose arguments Excel computes as arrays in a one-cell formula, a function of
#: ``LIFTED`` given a range there (through operators and other such functions) computed
#: element by element over the range's values, not on the cell of the formula's row
#: (``=SUMPRODUCT(LN(1+C5:C30))``; declared ``lifting``; Microsoft Support, "SUMPRODUCT
#: function": its arguments are arrays, multiplied element by element)
LIFTING = excel_functions.names("lifting", spelled=True)

#: arguments of array-context functions where an operator on a range in a one-cell
#: formula is not settled: INDEX's array (Microsoft's "INDEX function": "a range of cells
#: or an array constant"; ``INDEX(B1:B3*2,2)`` is 4 read as an array, LibreOffice
#: intersects B1:B3 with the formula's row and gives #VALUE! or Err:504; no Excel-saved
#: cell of the corpora has the form). Name -> positions; its context is the function's name
#: (refused: ``addin.engine.support.after_plan``)
UNSETTLED_ARGS = {"INDEX": frozenset({0})}

_ALL = None  # every argument
#: parameters of Excel's functions that are single values (value class): a range given
#: there in a one-cell formula is implicitly intersected with the formula's cell
#: (``=ABS(A1:A9)`` in row 3 is ABS(A3); ``=VLOOKUP(A:A,T,2,0)`` looks up the row's A).
#: Name -> positions of those arguments (None: all; declared ``value_args``). [MS-XLS]
#: 2.5.198 parameter classes.
VALUE_PARAMS = excel_functions.value_args()
#: the functions of one value a ``LIFTING`` function's argument computes element by
#: element: those Excel computes so in an array formula (declared ``elementwise``) whose
#: single-value arguments are intersected elsewhere, but not IF and IFERROR, which take
#: one value there unless the formula is an array formula (declared ``branching``)
LIFTED = frozenset(excel_functions.names("elementwise", spelled=True)
                   - excel_functions.names("branching", spelled=True)) & VALUE_PARAMS.keys()


def _base_key(key) -> str:
    return re.sub(r"<\d+>$", "", key) if isinstance(key, str) else ""


def operand_contexts(dsp, references, ours=frozenset()) -> tuple[dict, tuple, frozenset]:
    """Which operators of a parsed formula take one value of a reference.

    In a one-cell (not array) formula Excel computes an operator's operands as single
    values: a range there gives its cell in the formula's row (a column) or column (a
    row), or ``#VALUE!`` (implicit intersection) -- unless the operator is inside an
    argument of a function with array-class parameters (``ARRAY_CONTEXT``), where
    the operands are whole arrays; inside a ``LIFTING`` function's argument a function of
    ``LIFTED`` takes whole arrays too, computed element by element. Returns (positions
    of such operators and functions among the graph's function nodes -> the positions of
    their inputs that take one value, names of functions around an operator on a range
    whose context is not known here, positions of the ``LIFTED`` functions computed
    element by element). ``ours``: napkin's functions (array context kept).

    References: Microsoft, "Implicit intersection operator: @"; [MS-XLS] 2.5.198.x
    (parameter classes: reference, value, array)."""
    nodes, pred = dsp.nodes, dsp.dmap.pred
    context, lifted_call = _contexts(dsp, ours)

    def may_be_range(data_key) -> bool:
        if pred.get(data_key):
            fkey = next(iter(pred[data_key]))
            return _base_key(fkey) in _REF_OPERATORS
        if not isinstance(data_key, str):
            return False
        rng = (references or {}).get(data_key)
        if rng is not None:
            try:
                return any(r1 != r2 or c1 != c2 for _, r1, c1, r2, c2 in ranges.areas(rng))
            except Exception:
                return False
        return ":" in data_key

    single, unsure, lifted, i = {}, [], set(), 0
    for key, n in nodes.items():
        if n["type"] != "function":
            continue
        name = _base_key(key).upper()
        ins = tuple(n.get("inputs", ()))
        if name in VALUE_OPERATORS:
            ctx = context(n["outputs"][0]) if n.get("outputs") else "value"
            if ctx == "value":
                single[i] = frozenset(range(len(ins)))
            elif ctx not in ("array", "lift") and any(may_be_range(k) for k in ins):
                unsure.append(ctx)
        elif name in LIFTED and name not in ours and lifted_call(key):
            lifted.add(i)  # (its arguments whole, each element computed)
        elif name in VALUE_PARAMS and name not in ours:
            skip = 0  # formulas' extra inputs (the compiling flag) come first
            while skip < len(ins) and fx.is_dispatch_token(ins[skip]):
                skip += 1
            at = VALUE_PARAMS[name]
            pos = range(skip, len(ins)) if at is _ALL else (skip + p for p in at)
            pos = frozenset(p for p in pos if p < len(ins))
            if pos:
                single[i] = pos
        i += 1
    return single, tuple(dict.fromkeys(unsure)), frozenset(lifted)


def _contexts(dsp, ours):
    """(``context(data_key)``, ``lifted_call(fkey)``) of a parsed formula's graph: the
    context a data node's value is read in -- 'array', 'lift' (an argument of a
    ``LIFTING`` function, through operators and ``LIFTED`` functions), 'value' or the
    name of an unknown function -- and whether a call of a ``LIFTED`` function is computed
    element by element (its value read, through operators and such calls, by a
    ``LIFTING`` function's argument only). ``context.use(fkey)``: the contexts (a set of
    those) one function reading a value gives it."""
    nodes, succ = dsp.nodes, dsp.dmap.succ
    memo: dict = {}

    def use(fkey, depth=0, data_key=None) -> set:
        name = _base_key(fkey).upper()
        if name in UNSETTLED_ARGS and data_key is not None and name not in ours:
            ins = [k for k in nodes[fkey].get("inputs") or () if not fx.is_dispatch_token(k)]
            if any(k == data_key for p, k in enumerate(ins) if p in UNSETTLED_ARGS[name]):
                return {name}
        if name in VALUE_OPERATORS or name in _REF_OPERATORS or name in _PASS_ON:
            out = nodes[fkey].get("outputs") or ()
            if name in _PASS_ON:  # (formulas also keeps a BYPASS of each part of a
                # repeated subexpression, its value read by nothing: no context)
                out = [o for o in out if succ.get(o)]
            return {context(o, depth + 1) for o in out} if depth < 200 else {"array"}
        if name in LIFTING or name in LIFTED and depth < 200 and lifted_call(fkey, depth):
            return {"lift"}
        if name in ARRAY_CONTEXT or name in ours or name.removeprefix("_XLFN.") in ours:
            return {"array"}
        if name in VALUE_CONTEXT:
            return {"value"}
        return {name.removeprefix("_XLFN.").removeprefix("_XLWS.")}

    def context(data_key, depth=0) -> str:
        if data_key in memo:
            return memo[data_key]
        got = set()
        for fkey in succ.get(data_key, ()):
            got |= use(fkey, depth, data_key)
        memo[data_key] = _one(got)
        return memo[data_key]

    def lifted_call(fkey, depth=0) -> bool:
        out = nodes[fkey].get("outputs") or ()
        return bool(out) and all(context(o, depth + 1) == "lift" for o in out)

    context.use = use
    return context, lifted_call


def _one(got: set) -> str:
    """The context of a value read in the contexts ``got``: an unknown function's name
    first, then 'value', 'lift' where it is read only so, else 'array' ('value' where it
    is not read: the formula's result)."""
    unknown = sorted(g for g in got if g not in ("array", "value", "lift"))
    return unknown[0] if unknown else "value" if "value" in got or not got else \
        "lift" if got == {"lift"} else "array"


def shared_across_contexts(dsp, ours=frozenset()) -> bool:
    """Whether a parsed formula's graph computes once (formulas' ``bypass`` of a repeated
    expression) a value its occurrences read in different contexts: one taking the cell
    of the formula's row or column, another the whole array (``SUM((B1:B3>1)*1)`` and
    ``SUMPRODUCT((B1:B3>1)*C1:C3)`` in one formula). Such a formula is parsed again with
    each occurrence computed on its own (``addin.formula.fx.parse``, ``share=False``).
    An occurrence whose value nothing reads (the inner part of a repeated expression) is
    left out."""
    nodes, succ = dsp.nodes, dsp.dmap.succ
    context, _ = _contexts(dsp, ours)
    for key, n in nodes.items():
        if n["type"] != "function" or _base_key(key).upper() not in _PASS_ON:
            continue
        readers = set()
        for source in n.get("inputs") or ():
            for fkey in succ.get(source, ()):
                if _base_key(fkey).upper() in _PASS_ON:
                    out = [o for o in nodes[fkey].get("outputs") or () if succ.get(o)]
                    readers.update(context(o) for o in out)
                else:
                    readers.add(_one(context.use(fkey)))
        if len(readers) > 1:
            return True
    return False


def of_reference(rng, row: int, col: int):
    """The value of a one-area reference of one column (one row) in row ``row`` (column
    ``col``) of a one-cell formula, as Excel's implicit intersection takes it;
    ``#VALUE!`` where that row (column) is outside it; None when napkin cannot say
    (many areas, a block of many rows and columns, an area read only in part)."""
    areas = ranges.areas(rng)
    if len(areas) != 1:
        return None
    _, r1, c1, r2, c2 = areas[0]
    if not (r1 and c1 and r2 and c2):
        return None
    arr = rng.value
    if getattr(arr, "shape", None) != (r2 - r1 + 1, c2 - c1 + 1):
        return None
    if c1 == c2:
        at = (row - r1, 0)
    elif r1 == r2:
        at = (0, col - c1)
    else:
        return None
    if not (0 <= at[0] < arr.shape[0] and 0 <= at[1] < arr.shape[1]):
        return fx.load().errors["#VALUE!"]
    return arr[at]
