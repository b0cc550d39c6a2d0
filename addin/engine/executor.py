"""The executor: compile a formula once, run it for many cells, and read its result.

``compile_formula`` turns formula text into a callable whose arguments are the
formula's inputs (``.inputs``: node -> the Ranges value formulas parsed, in order).
Usually that is a ``FastFn``, which runs the small graph formulas built directly
(without schedula's dispatcher); a graph it does not handle runs through
formulas' own compiled function (``.pipe``). ``call`` runs either and turns any
exception into an Excel error value.

The rest reads results: ``store_scalar`` is the value one cell keeps,
``api_value`` what the Python API returns (arrays as lists of rows, errors as
``ExcelError`` with their message).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from addin.engine import branches, forms
from addin.engine.boot import ready
from addin.formula import cancellation, context, fx, intersection, ranges
from addin.formula.arrays import as_2d
from addin.formula.one_cell import one_cell
from udfs.machinery.errors import EXCEL_ERROR_CODES, ExcelError


def compile_formula(text: str, cell_ref: str | None, references=None, final: bool = True):
    """A normalized formula compiled at ``cell_ref`` (None: no cell) with the defined
    names ``references`` (name -> Ranges). ValueError if it is not a formula.
    ``final``: a formula of its own (a cell's, not a defined name's), whose last ``+``
    or ``-`` Excel makes 0 where it cancels (``addin.formula.cancellation``)."""
    ready()
    parsed = parse(text, cell_ref, references)
    try:  # run the parsed graph as it is, without formulas' compile step
        graph, inputs, consts, out = fx.builder_program(parsed)
        if final:  # a cell's final + or -: Excel's 0 where it cancels
            graph.functions = cancellation.final_operation(
                parsed.cell.builder, text, graph.functions, out)
        graph.single, graph.unsure, graph.lifted = intersection.operand_contexts(
            parsed.cell.builder.dsp, parsed.references or {}, fx._OURS)
        return FastFn(graph, inputs, out, consts, make_pipe=parsed.make_pipe)
    except fx.Fallback:
        return _fast(parsed.make_pipe())


def parse(text: str, cell_ref: str | None, references=None) -> fx.Parsed:
    """A normalized formula parsed at ``cell_ref``; where formulas' graph would compute a
    repeated expression once though its occurrences are read in different contexts (one
    implicitly intersected, another as a whole array:
    ``intersection.shared_across_contexts``), parsed again with each occurrence a node
    of its own, as Excel computes each (``=IF(A1<0,(B1:B3>1)*1,SUMPRODUCT((B1:B3>1)*
    B1:B3))`` in row 3 is 7, the SUMPRODUCT of the whole column, not 0, the row's cell)."""
    parsed = fx.parse(text, cell_ref, references)
    if intersection.shared_across_contexts(parsed.cell.builder.dsp, fx._OURS):
        parsed = fx.parse(text, cell_ref, references, share=False)
    return parsed


class FastFn:
    """Runs the small DAG of a compiled formula directly. Same semantics for what formulas
    builds: data-node filters, NONE arguments dropped, NONE results not set; anything
    else falls back to formulas' own DispatchPipe (``pipe``)."""

    __slots__ = ("_pipe", "_make_pipe", "inputs", "in_ids", "in_filters", "consts", "steps",
                 "out", "unsure", "unfiltered", "calls", "flow", "positions", "names")

    def __init__(self, graph: fx.Graph, inputs, out, extra_consts=None, pipe=None,
                 make_pipe=None):
        self._pipe, self._make_pipe = pipe, make_pipe
        self.inputs, self.in_ids, self.out = inputs, list(inputs), out
        filters = graph.filters
        producer = {}
        for i, (_f, _ins, outs, _flt) in enumerate(graph.functions):
            for o in outs:
                producer[o] = i
        if out not in filters and out not in producer:
            raise fx.Fallback
        self.in_filters = [filters.get(k, ()) for k in self.in_ids]
        self.unfiltered = not any(self.in_filters)  # the inputs are taken as they are
        consts = dict(extra_consts or {})
        for k, v in graph.defaults.items():
            if k in inputs or k in consts:
                continue
            for f in filters.get(k, ()):
                v = f(v)
            consts[k] = v
        self.consts = consts
        # every source node must be given
        for k in graph.sources:
            if k not in consts and k not in inputs:
                raise fx.Fallback
        # functions in dependency order
        funcs = graph.functions
        order, seen = [], set()
        for f in range(len(funcs)):
            stack = [(f, False)]
            while stack:
                g, done = stack.pop()
                if done:
                    if g not in seen:
                        seen.add(g)
                        order.append(g)
                    continue
                if g in seen:
                    continue
                stack.append((g, True))
                for i in funcs[g][1]:
                    h = producer.get(i)
                    if h is not None and h not in seen:
                        stack.append((h, False))
        # the branches of IF, CHOOSE...: which calls are certain to be evaluated
        self.flow = flow = branches.Flow.of(funcs, graph.names, order, out)
        calls = dict(forms.compile_calls(graph, inputs, consts,  # listed functions' calls,
                                         flow and flow.certain))  # with the forms they see
        self.calls = list(calls.values())
        self.positions = tuple(order)  # each step's position in the graph's functions
        self.names = tuple(branches.graph_name(graph.names[g]) if g < len(graph.names)
                           else "" for g in order)  # each step's function ("" if none)
        pluses = forms.unary_plus_readers(graph, out, flow and flow.certain)
        self.steps = [
            (forms.guarded(one_cell(funcs[g][0]), calls[g]) if g in calls else
             forms.unary_plus_checked(one_cell(funcs[g][0]), g, *pluses[g]) if g in pluses
             else one_cell(funcs[g][0]), funcs[g][1], funcs[g][2], funcs[g][3],
             tuple(filters.get(o, ()) for o in funcs[g][2]), graph.single.get(g))
            for g in order
        ]
        self.unsure = graph.unsure

    @classmethod
    def from_pipe(cls, pipe):
        graph, inputs, out = fx.pipe_program(pipe)
        return cls(graph, inputs, out, pipe=pipe)

    def with_consts(self, consts: dict, make_pipe) -> FastFn:
        """The same graph with other values for some of its constant nodes (``{node:
        value}``); ``make_pipe()`` compiles formulas' own function of that formula."""
        new = object.__new__(FastFn)
        for name in FastFn.__slots__:
            setattr(new, name, getattr(self, name))
        new.consts = {**self.consts, **consts}
        new._pipe, new._make_pipe = None, make_pipe
        return new

    @property
    def pipe(self):
        if self._pipe is None:
            self._pipe = self._make_pipe()
        return self._pipe

    def __call__(self, *args, at=None, reference=False):
        """Run the graph; ``at`` = (row, column) of a one-cell formula: a reference it
        returns is then implicitly intersected with that cell (``intersect``);
        ``reference``: a reference it returns stays one (a defined name's formula, such as
        ``INDEX(A1:A9,2):INDEX(A1:A9,8)``, is a reference where a formula uses it), else
        its values are returned."""
        ns = ready()
        NONE = ns.NONE
        vals = dict(self.consts)
        if self.unfiltered:
            vals.update(zip(self.in_ids, args, strict=False))
        else:
            for k, flt, v in zip(self.in_ids, self.in_filters, args, strict=False):
                for f in flt:
                    v = f(v)
                vals[k] = v
        Ranges = ns.Ranges
        # An array formula's every call counts, but a dynamic array formula of one cell is
        # a plain formula (branches.dynamic_one): what the calls in its branches find, and
        # their refusals (context.refuse), wait for the values that say which are taken.
        state = context.STATE
        flow = self.flow if at is not None or branches.dynamic_one(
            getattr(state, "node", None)) else None
        if flow is not None:
            state.form_pending = pending = {}
            state.refuse_pending = refusals = {}
        try:
            for g, step, name in zip(self.positions, self.steps, self.names, strict=True):
                func, ins, outs, ffl, ofl, single = step
                if flow is not None:
                    state.step = g
                try:
                    a = [vals[i] for i in ins]
                except KeyError:
                    continue
                if single and at is not None:  # Excel's implicit intersection of operands
                    for k, x in enumerate(a):
                        if k in single and isinstance(x, Ranges) and ranges.cell_count(x) > 1:
                            a[k] = intersect(x, at)
                try:
                    r = func(*[x for x in a if x is not NONE])
                except fx.Fallback:
                    raise
                except Exception as ex:  # (the whole formula becomes #VALUE!, ``call``)
                    if self.out not in outs:
                        _inner_failure(name, ex)
                    raise
                for f in ffl:
                    r = f(r)
                if len(outs) == 1:
                    r = (r,)
                for o, v, flt in zip(outs, r, ofl, strict=False):
                    if v is NONE:
                        continue
                    for f in flt:
                        v = f(v)
                    vals[o] = v
        except BaseException:
            if flow is not None:  # not run to the end: every call found counts
                state.form_pending = state.refuse_pending = None
                forms.settle(pending, None)
                context.settle_refusals(refusals, None)
            raise
        if flow is not None:
            state.form_pending = state.refuse_pending = None
            if pending or refusals:
                live = flow.live(vals)
                forms.settle(pending, live)
                context.settle_refusals(refusals, live)
        try:
            v = vals[self.out]
            if isinstance(v, ns.Ranges):
                if at is None and not reference and len(v.ranges) > 1:
                    context.refuse("an array formula whose result is a reference of several "
                                   "areas ((B1:B3,D1:D3)): what Excel shows of it is not "
                                   "documented (LibreOffice #VALUE!); give one area")
                return intersect(v, at) if at is not None else v if reference else v.value
            return v
        except (KeyError, ns.RangeValueError):  # formulas' own function computes it:
            forms.unseen(self.calls)  # what its compile shows counts, branches or not
            raise fx.Fallback from None


def _fast(pipe):
    try:
        return FastFn.from_pipe(pipe)
    except fx.Fallback:
        return pipe


def intersect(rng, at):
    """Excel's implicit intersection of a reference a one-cell formula returns, with
    that cell (row, column): one cell is its value; a single column gives its value in
    the formula's row, a single row its value in the formula's column; anything else
    (a 2-D range, no common row or column) is ``#VALUE!``, a 2-D range holding the
    formula's row and column (another sheet's) refused. (``=A1:A10`` in B5 is A5.)"""
    ns = ready()
    try:
        areas = ranges.areas(rng)
        arr = as_2d(rng.value)
    except Exception:  # formulas' own error for the reference
        return ns.errors["#VALUE!"]
    if not areas:  # an intersection of references that do not meet (=A1:B1 D1:D9)
        return ns.errors["#NULL!"]
    if arr is None or len(areas) != 1:
        return ns.errors["#VALUE!"] if arr is not None else rng.value
    if arr.shape == (1, 1):
        return arr
    _, r1, c1, r2, c2 = areas[0]
    r1, c1 = r1 or 1, c1 or 1
    r, c = at
    if arr.shape[1] == 1 and r1 <= r < r1 + arr.shape[0]:
        return arr[r - r1, 0]
    if arr.shape[0] == 1 and c1 <= c < c1 + arr.shape[1]:
        return arr[0, c - c1]
    if arr.shape[0] > 1 and arr.shape[1] > 1 and r1 <= r < r1 + arr.shape[0] and \
            c1 <= c < c1 + arr.shape[1]:  # (on another sheet: in the range itself, a cycle)
        context.refuse("a block of many rows and columns intersected with a formula's cell "
                       "in its rows and columns (a reference to another sheet's block in a "
                       "one-cell formula): Microsoft's page on implicit intersection names a "
                       "cell of the formula's row or column, not both (LibreOffice takes the "
                       "cell in both); give the cell itself, or a single row or column")
    return ns.errors["#VALUE!"]


def _inner_failure(name: str, ex: Exception) -> None:
    """Refuse a formula in which a function other than its outermost failed (raised
    ``ex``): the formula's value is then #VALUE!, while in Excel the function's error
    value is read by those around it, which may give another value (``IFERROR`` its
    fallback, ``ROUNDDOWN(NA(),ISODD("abc"))`` #N/A: ``addin.engine.first_error``)."""
    what = f"{name}()" if name[:1].isalpha() or name[:1] == "_" else \
        f"the operator {name}" if name else "an operator"
    context.refuse(f"{what} failed inside another function "
                   f"({type(ex).__name__}): what the functions around it make of its error "
                   "value napkin does not compute")


def call(fn, args, at=None, reference=False):
    """Run a compiled formula; exceptions become Excel errors. ``at`` and ``reference``:
    see ``FastFn.__call__``."""
    ns = ready()
    try:
        try:
            if isinstance(fn, FastFn) and (at is not None or reference):
                return fn(*args, at=at, reference=reference)
            return fn(*args)
        except fx.Fallback:
            return fn.pipe(*args)
    except Exception as ex:  # any failure is a cell error
        inner = getattr(ex, "ex", ex)
        if isinstance(inner, NotImplementedError):
            return ns.errors["#NAME?"]
        if isinstance(inner, RecursionError):  # (formulas computed on demand, nested)
            context.refuse("a formula nested past Python's recursion limit")
            return ns.errors["#VALUE!"]
        own = getattr(context.STATE, "own", None)
        if own is not None and not own.get("#VALUE!"):
            own["#VALUE!"] = f"{type(inner).__name__}: {inner}"[:200]
        return ns.errors["#VALUE!"]


# --------------------------------------------------------------------------- results


def error_from(v, msgs: Mapping[str, str] | None) -> ExcelError:
    code = str(v)
    if code not in EXCEL_ERROR_CODES:
        code = "#VALUE!"
    return ExcelError(code, (msgs or {}).get(code, ""))


def store_scalar(v):
    """A formulas value as one cell stores it (formulas-native scalars)."""
    ns = ready()
    if isinstance(v, ns.Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        arr = as_2d(v)
        v = v.item() if arr is None else arr[0, 0]
    return norm_scalar(v)


def norm_scalar(v):
    """A value one cell can hold: a number, text, a boolean or an error value. Anything
    else formulas may return is mapped as Excel would show it: a complex number (a
    negative base to a fractional power) or a non-finite float is ``#NUM!``, a
    reference its first value, another Python object ``#VALUE!`` -- never its text."""
    t = type(v)
    if t is float:  # the common cases first
        return v if math.isfinite(v) else ready().errors["#NUM!"]
    if t is int or t is str or t is bool:
        return v
    ns = ready()
    if v is ns.EMPTY or v is None:
        return 0
    if isinstance(v, ns.Ranges):
        return store_scalar(v)
    if isinstance(v, np.ndarray):
        return store_scalar(v) if v.size else ns.errors["#VALUE!"]
    if isinstance(v, np.generic):
        v = v.item()
    if fx.is_omitted(v):
        return 0
    if isinstance(v, ns.XlError):
        return v
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return v if math.isfinite(v) else ns.errors["#NUM!"]
    if isinstance(v, str):
        return str(v)
    if isinstance(v, complex):
        return ns.errors["#NUM!"]
    if isinstance(v, (list, tuple)):
        return norm_scalar(v[0]) if len(v) else ns.errors["#VALUE!"]
    return ns.errors["#VALUE!"]


def to_result(v, msgs):
    """A stored scalar as the API returns it."""
    if isinstance(v, ready().XlError):
        return error_from(v, msgs)
    return v


def api_value(v, msgs):
    """Full result of a formula (arrays as nested lists) as the API returns it."""
    arr = as_2d(v)
    if arr is None or arr.shape == (1, 1):
        return to_result(store_scalar(v), msgs)
    return [[to_result(norm_scalar(x), msgs) for x in row] for row in arr.tolist()]


def error_codes(v) -> set[str]:
    ns = ready()
    arr = as_2d(v)
    if arr is None:
        v = store_scalar(v)
        return {str(v)} if isinstance(v, ns.XlError) else set()
    return {str(x) for x in arr.ravel() if isinstance(x, ns.XlError)}
