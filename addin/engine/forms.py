"""The forms of argument each Excel function napkin computes in strict mode is checked
for, and how a compiled formula finds the forms its calls are given.

The declarations of Excel's functions (``addin.formula.excel_functions``) give each
function checked against Excel with the forms of argument its evidence covers
(``FORMS``: a number, text or logical value, a reference to one cell, a range, an
array, text that looks like a number, an empty cell, an error value, an argument left
out, a workbook in the 1904 date system) and the evidence. ``addin.engine.checked``
refuses what they do not cover.

The forms of a call are found in two steps:

* when a formula is compiled (``compile_calls``), from its parsed graph: each argument
  is a literal (a number, text, a logical value, an error value, an array constant), a
  reference to one cell or to a range, or the value of a nested call or operator
  (``Call.static``; a range in an argument Excel intersects with the formula's cell is
  one cell, ``Call.intersected``);
* while it is computed, for the values that only then are known: text that looks like a
  number, an empty cell, an error value (in a cell, inside a range or array, or given
  by a nested call), and an array or range a nested call gives. ``guarded`` wraps the
  function of a call whose listed forms leave one of those out; the wrapper records
  what it sees uncovered in ``context.STATE.form_refusals`` (node -> reason), when the
  engine has set it, and computes the function as before: the value is never changed.

A call in an argument IF, IFS, IFERROR, IFNA, CHOOSE or SWITCH may not take
(``addin.engine.branches``) is not certain to be evaluated: its compile's forms are not
refused before computing, and what its wrapper finds, those forms included, is held in
``context.STATE.form_pending`` (position -> reason) until the formula has run, then
recorded only if Excel evaluates the call with the values of that run (``settle``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import numpy as np

from addin.engine import branches, criteria_forms, first_error
from addin.engine.boot import ready
from addin.formula import array_sizes, context, excel_functions, fx, ranges
from addin.formula.excel_numbers import looks_numeric

#: the forms of argument, as the list names them -> how a refusal says them
FORMS = {
    "scalars": "a number, text or logical value (written, or given by a nested call)",
    "cells": "a reference to one cell",
    "ranges": "a range of cells",
    "arrays": "an array",
    "numeric text": "text that looks like a number",
    "empty": "an empty cell",
    "errors": "an error value",
    "omitted": "an argument left out",
    "1904": "a workbook in the 1904 date system",
}
#: the forms only a value shows (a reference's or a nested call's)
VALUE_FORMS = frozenset({"numeric text", "empty", "errors"})

#: Excel functions whose results depend on the workbook's date system: in a workbook of
#: the 1904 system each needs the form ``1904`` (declared ``date_system``)
DATE_SYSTEM = excel_functions.names("date_system")

#: Excel functions that compute element by element given an array where they take one
#: value, in an array formula (declared ``elementwise``; Microsoft Support, "Guidelines and
#: examples of array formulas"): there a range's or an array's forms are its elements'
ELEMENTWISE = excel_functions.names("elementwise")

#: Excel functions given error values that give the first of them in argument order
#: (declared ``first_error``; the rule and its evidence: ``addin.engine.first_error``)
FIRST_ERROR = excel_functions.facts("first_error")

#: Excel functions that read a reference's place or size, not its values: the values of
#: the cells a range given to them holds are not forms of their arguments (declared
#: ``place_only``)
PLACE_ONLY = excel_functions.names("place_only")

bare = branches.bare  # a function's name as listed


@functools.cache
def listed() -> dict[str, tuple[frozenset, str]]:
    """Function name (as ``bare`` gives it) -> (its forms, evidence), from the
    declarations (``addin.formula.excel_functions.checked``), by name."""
    out = excel_functions.checked()
    for name, (got, _evidence) in out.items():
        unknown = got - FORMS.keys() - {"no argument"}  # (TRUE(), PI()...: no form)
        if unknown:
            raise ValueError(f"the declaration of {name}: unknown forms {sorted(unknown)}")
    return out


@dataclass
class Call:
    """One call of a listed Excel function in a compiled formula."""

    name: str  # as listed (``bare``)
    static: frozenset  # the forms its compile shows (literals, references, nested values)
    intersected: bool  # a range given where Excel takes the formula's row or column
    skip: int = 0  # formulas' own inputs before the arguments (the compiling flag)
    step: int = 0  # its position in the graph's functions
    certain: bool = True  # evaluated whatever the values (no branch may drop it)
    #: IF, CHOOSE... (``addin.engine.branches.BRANCHING``): the forms its compile shows
    #: for each argument, and the arguments it may not return (else None, ())
    by_argument: tuple | None = None
    conditional: frozenset = frozenset()
    #: computed element by element over whole arrays in a ``LIFTING`` function's argument
    #: (``addin.formula.intersection.LIFTED``): a range's or an array's forms are those
    #: of its elements, each a cell's value or a value (``each``)
    lifted: bool = False

    def certain_forms(self) -> frozenset:
        """The forms its compile shows in the arguments it always evaluates."""
        if self.by_argument is None:
            return self.static
        return frozenset().union(*(f for p, f in enumerate(self.by_argument)
                                   if p not in self.conditional))


def value_forms(v, seen: dict | None = None, values: bool = True) -> frozenset:
    """The forms of an argument's value while computing: ``scalars``, ``cells``,
    ``ranges``, ``arrays`` and the ``VALUE_FORMS`` of its values (``seen``: id -> (value,
    forms), where the forms of ranges and arrays already read are kept; not ``values``:
    a reference's size only)."""
    t = type(v)
    if t is float or t is int or t is bool:
        return _SCALAR
    if t is str:
        return _TEXT_NUMBER if looks_numeric(v) else _SCALAR
    if t is np.ndarray and v.size == 1:  # (a nested call's one value)
        x = v.item(0)
        tx = type(x)
        return _SCALAR if tx is float or tx is int or tx is bool else value_forms(x)
    ns = ready()
    if t is ns.Ranges:  # a reference: its values, when the engine holds them
        arr = v._value
        if not values:
            return _ONE_CELL if ranges.cell_count(v) == 1 else _RANGE
        if type(arr) is np.ndarray and arr.size == 1:
            x = arr.item(0)
            tx = type(x)
            return _ONE_CELL if tx is float or tx is int or tx is bool else \
                _CELL_OF.get(value_forms(x)) or _ONE_CELL | value_forms(x) - _SCALAR
    if isinstance(v, ns.XlError):
        return _ERROR
    if v is ns.EMPTY:
        return _EMPTY
    if fx.is_omitted(v):
        return _OMITTED
    if isinstance(v, np.generic):  # (a numpy number, logical value or text)
        return value_forms(v.item())
    if seen is not None:
        got = seen.get(id(v))
        if got is not None and got[0] is v:
            return got[1]
    if isinstance(v, ns.Ranges) and not values:
        return _ONE_CELL if ranges.cell_count(v) == 1 else _RANGE
    if isinstance(v, ns.Ranges):
        store = getattr(context.STATE, "columns", None)  # (a tall range of a column
        got = None if store is None else store.forms(v, _cell_forms)  # without formulas)
        if got is not None:
            return _RANGE | got
        try:
            parts = [a for _, a in ranges.area_values(v)]
        except Exception:  # formulas' own error for the reference
            return _ERROR
        kind = "cells" if ranges.cell_count(v) == 1 else "ranges"
    elif hasattr(v, "ravel"):
        parts, kind = [v], "arrays" if getattr(v, "size", 1) > 1 else "scalars"
    else:
        return _SCALAR
    got = {kind}
    for arr in parts:
        for x in arr.ravel() if hasattr(arr, "ravel") else (arr,):
            tx = type(x)
            if tx is float or tx is int or tx is bool:
                continue
            got |= value_forms(x) - _SCALAR
    got = frozenset(got)
    if seen is not None and kind != "arrays":  # (the engine keeps its references; an
        seen[id(v)] = (v, got)  # array a nested call gave is not kept alive here)
    return got


def _cell_forms(x) -> frozenset:
    """The forms a cell's value adds to its range's (as ``value_forms`` reads a range)."""
    tx = type(x)
    return frozenset() if tx is float or tx is int or tx is bool else value_forms(x) - _SCALAR


_MANY = frozenset({"ranges", "arrays", "nested"})  # (forms that may hold many values)
_SCALAR = frozenset({"scalars"})
_TEXT_NUMBER = frozenset({"scalars", "numeric text"})
_ERROR = frozenset({"errors"})
_EMPTY = frozenset({"empty"})
_OMITTED = frozenset({"omitted"})
_ONE_CELL = frozenset({"cells"})
_RANGE = frozenset({"ranges"})
_CELL_OF = {_EMPTY: frozenset({"cells", "empty"}), _ERROR: frozenset({"cells", "errors"}),
            _TEXT_NUMBER: frozenset({"cells", "numeric text"}), _SCALAR: _ONE_CELL}


def each(forms) -> frozenset:
    """The forms of the elements a lifted call computes one at a time, for the forms of
    its arguments: a range's elements are cells, an array's values."""
    swap = {"ranges": "cells", "arrays": "scalars"}
    return frozenset(swap.get(f, f) for f in forms)


def describe(forms) -> str:
    """The forms, as a refusal says them: ``"an empty cell, an error value"``."""
    return ", ".join(FORMS[f] for f in FORMS if f in forms)


def guarded(func, call: Call):
    """``func``, or (when the forms listed for ``call`` leave out one only its values can
    show, or one its compile shows in an argument that may not be evaluated) a function
    that computes ``func`` and records the forms it is given outside them (in
    ``context.STATE.form_refusals``, when the engine has set it; for a call not certain,
    in ``context.STATE.form_pending`` while the engine runs its formula). A branching
    function (IF, CHOOSE...) in a one-cell formula is checked for the arguments it
    returns only (``addin.engine.branches.taken``)."""
    allowed = listed()[call.name][0]
    may = VALUE_FORMS | {"arrays", "ranges", "cells"} if "nested" in call.static else \
        VALUE_FORMS if call.static & {"cells", "ranges", "arrays"} else frozenset()
    static = not call.certain and any(static_reason(call, one, True) for one in (True, False))
    by_argument, conditional = call.by_argument, call.conditional
    later = by_argument is not None and bool(frozenset().union(
        *(f for p, f in enumerate(by_argument) if p in conditional)) - {"nested"} - allowed)
    two_errors = call.name in FIRST_ERROR
    texts, numbers = FIRST_ERROR.get(call.name), "numeric text" in allowed

    def text_ok(position: int, text: str) -> bool:  # (first_error.reason)
        return texts == excel_functions.ALL or isinstance(texts, tuple) and \
            position in texts or numbers and looks_numeric(text)
    sizes = (call.lifted or call.name in ELEMENTWISE) and bool(call.static & _MANY)
    if (each(may) if call.lifted else may) <= allowed and not static and not later and \
            not two_errors and not sizes:
        return func
    state = context.STATE
    name, values, skip, step = call.name, call.name not in PLACE_ONLY, call.skip, call.step
    check_values, certain = not each(may) <= allowed if call.lifted else \
        not may <= allowed, call.certain
    lifted, elementwise = call.lifted, call.name in ELEMENTWISE
    run = array_sizes.each_call(func, skip, call.lifted, context.STATE) if sizes else func

    def checking(*args):
        out = getattr(state, "form_refusals", None)
        if out is not None:
            node, reason, given = state.node, None, args[skip:] if skip else args
            one_cell = node is not None and node.spill is None and not node.is_name
            keep = branches.taken(name, given) if by_argument is not None and len(given) == \
                len(by_argument) and (one_cell or branches.dynamic_one(node)) else None
            if static:  # (the forms of its compile, now that it is computed)
                book = getattr(state, "book", None)
                reason = static_reason(call, node is None or node.spill is None,
                                       bool(getattr(book, "date1904", False)))
            if reason is None and later:
                extra = frozenset().union(*(
                    f for p, f in enumerate(by_argument) if p in conditional and
                    (keep is None or p in keep))) - {"nested"} - allowed
                reason = f"{name}() given {describe(extra)}" if extra else None
            if reason is None and sizes and (lifted or not one_cell and node is not None):
                reason = array_sizes.unequal_sizes(name, given)
            if reason is None and check_values:
                seen = state.form_seen
                for p, a in enumerate(given):
                    if keep is not None and p not in keep:
                        continue
                    got = value_forms(a, seen, values)
                    if "numeric text" in got and name in criteria_forms.PAIRS and \
                            criteria_forms.settled(name, given, p, looks_numeric):
                        got = got - {"numeric text"}
                    if lifted or elementwise and node is not None and \
                            node.spill is not None:  # (an array formula's)
                        got = each(got)
                    if got <= allowed:
                        continue
                    reason = f"{name}() given {describe(got - allowed)}"
                    break
            if reason is not None:
                _record(state, out, node, step, certain, reason)
            seen = getattr(state, "form_seen", None)  # (a range's forms read once)
            if two_errors and any("errors" in value_forms(a, seen, values) for a in given):
                result = run(*args)
                reason = first_error.reason(name, given, result, lifted or elementwise and
                                            node is not None and node.spill is not None,
                                            text_ok)
                if reason is not None:
                    _record(state, out, node, step, certain, reason)
                return result
        return run(*args)

    checking.__wrapped__ = func
    return checking


def _record(state, out: dict, node, step: int, certain: bool, reason: str) -> None:
    """Record ``reason`` for the call at ``step`` of ``node``'s formula (held while its
    formula runs for a call not certain to be evaluated, ``guarded``)."""
    pending = None if certain else getattr(state, "form_pending", None)
    if pending is not None:
        pending.setdefault(step, reason)
    elif node not in out:
        out[node] = reason


def settle(pending: dict, live) -> None:
    """Record, as ``guarded`` records what it finds, the reasons held for the calls of one
    run of a formula (``pending``: position in the graph -> reason) that Excel evaluates
    (``live``: those positions, ``addin.engine.branches.Flow.live``; None: every one)."""
    out = getattr(context.STATE, "form_refusals", None)
    if out is None:
        return
    node = context.STATE.node
    for step, reason in pending.items():
        if (live is None or step in live) and node not in out:
            out[node] = reason


def unseen(calls: list[Call]) -> None:
    """Record, as ``guarded`` records what it finds, the first form not listed that the
    compile of any of ``calls`` shows, in any argument: for a formula that formulas' own
    function computes after all, whose calls napkin does not see."""
    out = getattr(context.STATE, "form_refusals", None)
    node = context.STATE.node
    if out is None or node in out:
        return
    book = getattr(context.STATE, "book", None)
    for call in calls:
        reason = static_reason(replace(call, by_argument=None), node is None or
                               node.spill is None, bool(getattr(book, "date1904", False)))
        if reason:
            out[node] = reason
            return


def compile_calls(graph, inputs: dict, consts: dict,
                  certain=None) -> list[tuple[int, Call]]:
    """``[(position in graph.functions, Call)]`` for the calls of listed functions of a
    compiled formula's graph, each with the forms its compile shows; ``certain``: the
    positions of the functions evaluated whatever the values
    (``addin.engine.branches.Flow.certain``; None: every one)."""
    table = listed()
    producer = {}
    for i, (_f, _ins, outs, _flt) in enumerate(graph.functions):
        for o in outs:
            producer[o] = i
    out = []
    for i, ((_f, ins, _outs, _flt), key) in enumerate(zip(graph.functions, graph.names,
                                                           strict=True)):
        name = branches.graph_name(key)
        if name not in table:
            continue
        single = graph.single.get(i, frozenset())
        forms, intersected, skip = set(), False, 0
        while skip < len(ins) and fx.is_dispatch_token(ins[skip]):
            skip += 1
        by_argument = []
        for pos, k in enumerate(ins):
            if pos < skip:
                continue
            got = _compiled_forms(k, producer, graph, inputs, consts)
            if name in criteria_forms.PAIRS and criteria_forms.is_criterion(name, pos - skip):
                got = got - {"numeric text"}  # (settled when computed, with its range)
            if "ranges" in got and pos in single:
                intersected = True
            forms |= got
            by_argument.append(frozenset(got))
        branching = name in branches.BRANCHING
        out.append((i, Call(name, frozenset(forms), intersected, skip, i,
                            certain is None or i in certain,
                            tuple(by_argument) if branching else None,
                            branches.conditional(name, len(by_argument)) if branching
                            else frozenset(), i in getattr(graph, "lifted", ()))))
    return out


def _compiled_forms(k, producer: dict, graph, inputs: dict, consts: dict) -> set:
    """The forms a compile shows of the argument that is graph node ``k``."""
    ns = ready()
    if k in producer:
        made = graph.names[producer[k]]
        return {"arrays" if branches.graph_name(made) == "ARRAY" else "nested"}
    v = inputs.get(k) if k in inputs else consts.get(k, graph.defaults.get(k))
    if k in inputs and not isinstance(v, ns.Ranges):  # a defined name's formula
        return {"nested"}
    if v is ns.NONE or v is None:
        return set()
    if isinstance(v, ns.Ranges):  # (its values are not read yet)
        return {"cells" if ranges.cell_count(v) == 1 else "ranges"}
    return set(value_forms(v))


def static_refusal(calls: list[Call], one_cell: bool, date1904: bool) -> str | None:
    """The reason a formula with ``calls`` is refused before it is computed (a form the
    list does not cover that the compile of a call certain to be evaluated shows), or
    None. ``one_cell``: the formula fills one cell (not an array formula), so an
    intersected range is one cell."""
    for call in calls:
        reason = static_reason(call, one_cell, date1904) if call.certain else None
        if reason:
            return reason
    return None


def static_reason(call: Call, one_cell: bool, date1904: bool) -> str | None:
    """The forms of ``call``'s compile its entry does not list, as a reason, or None
    (``one_cell`` and ``date1904`` as for ``static_refusal``)."""
    allowed = listed()[call.name][0]
    forms = set(call.certain_forms()) - {"nested"}
    if call.lifted or not one_cell and call.name in ELEMENTWISE:
        forms = set(each(forms))  # (computed for each element)
    if call.intersected and one_cell:
        forms.discard("ranges")
        forms.add("cells")
    if date1904 and call.name in DATE_SYSTEM:
        forms.add("1904")
    extra = forms - allowed
    return f"{call.name}() given {describe(extra)}" if extra else None


#: the operators that read an empty cell as 0 whichever value a unary + of it gives (0, as
#: formulas computes it, or the empty cell left unchanged): arithmetic
_ARITHMETIC = frozenset({"+", "-", "*", "/", "^", "u+", "u-", "%"})


def unary_plus_readers(graph, out, certain=None) -> dict[int, tuple[str, bool]]:
    """The unary ``+`` operators of a compiled formula's graph whose value a node other than
    an arithmetic operator reads (a function, a comparison, ``&``): position in
    ``graph.functions`` -> (that reader's name, whether the ``+`` is certain to be
    evaluated). formulas computes ``+`` of an empty cell as 0; [MS-XLS] 2.5.198.95
    (PtgUplus: "a unary-operator which leaves a unary-expression unchanged") suggests the
    empty cell itself; no page or Excel-saved cell says which a function or a comparison
    sees (``LEFT(+A1)``: "0" or ""). An arithmetic operator reads 0 either way."""
    reader = {}
    for (_f, ins, _outs, _flt), key in zip(graph.functions, graph.names, strict=True):
        name = key if key in _ARITHMETIC else branches.graph_name(key) or str(key)
        for k in ins:
            if name not in _ARITHMETIC:
                reader.setdefault(k, name)
    found = {}
    for i, ((_f, _ins, outs, _flt), key) in enumerate(zip(graph.functions, graph.names,
                                                           strict=True)):
        if key != "u+":
            continue
        for o in outs:
            if o in reader and o != out:
                found[i] = (reader[o], certain is None or i in certain)
    return found


def unary_plus_checked(func, step: int, reader: str, certain: bool):
    """``func``, a unary ``+`` whose value ``reader`` reads (``unary_plus_readers``),
    recording a refusal (as ``guarded`` does) when its operand is an empty cell or the
    empty text "" (``AVERAGE(A1:A4,+"")``); the value is never changed."""
    state = context.STATE

    def checking(*args):
        out = getattr(state, "form_refusals", None)
        if out is not None and any("empty" in value_forms(a) or _empty_text(a) for a in args):
            reason = (f'the unary + of an empty cell or of the empty text "" read by {reader}'
                      " (its value, or the cell itself: no source says which)")
            pending = None if certain else getattr(state, "form_pending", None)
            if pending is not None:
                pending.setdefault(step, reason)
            elif state.node not in out:
                out[state.node] = reason
        return func(*args)

    checking.__wrapped__ = func
    return checking


def _empty_text(v) -> bool:  # the empty text "", typed or held by one cell
    v = v._value if isinstance(v, ready().Ranges) else v
    return type(x := v.item(0) if isinstance(v, np.ndarray) and v.size == 1 else v) is str \
        and not x
