"""The one module of ours that imports ``formulas`` and ``schedula``: everything the engine
needs from them goes through the names defined here.

``formulas`` (EUPL; used as a library only) parses Excel formulas into a small
``schedula`` dispatcher graph and implements Excel's built-in functions. We use some of
their internals (the parsed graph, the functions table, the ``Ranges`` value type), so
``pyproject.toml`` pins both to the release series the suite was run against; an
upgrade starts here.

Importing ``formulas`` takes about a second: :func:`load` does it on first use and
returns a namespace of the types and constants the other engine modules use
(``EMPTY``, ``NONE``, ``XlError``, ``Ranges``, ``Array``, ``errors``: code -> error value).
"""

from __future__ import annotations

import collections
import threading
from dataclasses import dataclass
from typing import Any

from udfs.errors import EXCEL_ERROR_CODES

_NS = None
_LOCK = threading.RLock()


class _Omitted(int):
    """The value of an omitted argument (``=F(1,,3)``): 0 for Excel's own functions."""

    def __repr__(self):
        return "OMITTED"


OMITTED = _Omitted(0)


def is_omitted(v) -> bool:
    return type(v) is _Omitted


class Fallback(Exception):
    """The graph is not one our executor runs: use formulas' own compiled function."""


class _NS_:
    pass


def load():
    """Import formulas once; the namespace of what the engine uses from it."""
    global _NS
    if _NS is None:
        with _LOCK:
            if _NS is None:
                import formulas
                import schedula as sh
                from formulas.cell import Cell
                from formulas.errors import RangeValueError
                from formulas.functions import COMPILING, Array, get_functions
                from formulas.ranges import Ranges, _reshape_array_as_excel
                from formulas.tokens.operand import Error, XlError, _build_sheet_id, range2parts

                ns = _NS_()
                ns.formulas, ns.sh, ns.Cell, ns.Array = formulas, sh, Cell, Array
                ns.get_functions, ns.Ranges = get_functions, Ranges
                ns.RangeValueError = RangeValueError
                ns.reshape = _reshape_array_as_excel
                ns.XlError = XlError
                ns.build_sheet_id, ns.range2parts = _build_sheet_id, range2parts
                ns.EMPTY, ns.NONE, ns.Token = sh.EMPTY, sh.NONE, sh.Token
                ns.COMPILING = COMPILING
                ns.errors = dict(Error.errors)  # code -> canonical XlError
                for code in EXCEL_ERROR_CODES:  # codes formulas lacks (#SPILL!, #CALC!)
                    ns.errors.setdefault(code, XlError(code))
                _NS = ns
    return _NS


# --------------------------------------------------------------------------- functions


def function_names() -> set[str]:
    """Names of every function formulas knows (Excel's, plus those registered)."""
    return set(load().get_functions())


def register(name: str, udf) -> Any:
    """Make ``udf(compiling, *args)`` formulas' function ``name``; returns what the table
    held before (a function, a dict for special forms like IF, or None).

    Registered as impure (like RAND): formulas never runs it, and so never bakes its
    result in, while it compiles a formula (``compiling`` is then True)."""
    ns = load()
    table = ns.get_functions()
    original = table.get(name) if name in table else None
    table[name] = {
        "extra_inputs": collections.OrderedDict([(ns.COMPILING, False)]),
        "function": udf,
    }
    return original


# --------------------------------------------------------------------------- ranges


def sheet_id(name: str) -> str:
    return load().build_sheet_id(sheet=name)


def reference(text: str):
    """A reference text (``Sheet1!A1:B2``) as formulas' Ranges value."""
    return load().Ranges().push(text)


def areas(rng) -> list[tuple[str, int, int, int, int]]:
    """The areas of a Ranges value as (sheet id, r1, c1, r2, c2); 0 for an open end."""
    return [(r.get("sheet_id", ""), int(r["r1"]), r["n1"] or 0, int(r["r2"]), r["n2"] or 0)
            for r in rng.ranges]


def area_ref(sid: str, r1: int, c1: int, r2: int, c2: int):
    """formulas' description of one rectangular area (reused across Ranges values)."""
    return load().range2parts(None, sheet_id=sid, r1=str(r1), n1=c1, r2=str(r2), n2=c2)


def make_ranges(refs, arrays):
    """A Ranges value of the areas ``refs`` (from :func:`area_ref`) holding ``arrays``."""
    return load().Ranges(tuple(refs), {rd["name"]: (rd, a) for rd, a in zip(refs, arrays,
                                                                           strict=True)})


# --------------------------------------------------------------------------- parsing


@dataclass
class Graph:
    """A parsed formula's dispatcher graph in plain terms (see :class:`executor.FastFn`)."""

    filters: dict  # data node -> its filters
    sources: list  # data nodes nothing produces
    functions: list  # (function, inputs, outputs, filters) in the graph's node order
    defaults: dict  # data node -> default value (unfiltered)


_FUNC_KEYS = {"type", "index", "inputs", "outputs", "function", "solve_cycle", "wait_inputs",
              "filters", "description", "function_id", "extra_inputs"}
_DATA_KEYS = {"type", "index", "filters", "wait_inputs", "description"}


def graph(dsp) -> Graph:
    """The graph of a schedula dispatcher; Fallback when it uses more than we run."""
    nodes, pred = dsp.nodes, dsp.dmap.pred
    filters, funcs = {}, []
    for k, n in nodes.items():
        if n["type"] == "data":
            if not set(n) <= _DATA_KEYS or len(pred[k]) > 1:
                raise Fallback
            filters[k] = tuple(n.get("filters", ()))
        elif n["type"] == "function":
            if not set(n) <= _FUNC_KEYS:
                raise Fallback
            funcs.append((n["function"], tuple(n["inputs"]), tuple(n["outputs"]),
                          tuple(n.get("filters", ()))))
        else:
            raise Fallback
    sources = [k for k, n in nodes.items() if n["type"] == "data" and not pred[k]]
    defaults = {k: d["value"] for k, d in dsp.default_values.items()}
    return Graph(filters, sources, funcs, defaults)


@dataclass
class Parsed:
    """A formula formulas has parsed at a cell; ``make_pipe()`` compiles it formulas' way
    (a compile-time dispatch and a DispatchPipe, ~10x slower to run)."""

    cell: Any
    context: dict
    references: dict | None

    def make_pipe(self):
        self.cell.compile(references=self.references, context=self.context)
        return self.cell.func.func


def _empty_compile():
    return OMITTED


def parse(text: str, cell_ref: str | None, references=None) -> Parsed:
    """Parse a normalized formula (ValueError if it is not one). An omitted argument
    parses to :data:`OMITTED` (formulas' own parser gives a plain 0), by patching
    formulas' ``Empty`` operand for the duration of this parse only."""
    ns = load()
    from formulas.tokens import operand

    with _LOCK:
        saved = operand.Empty.__dict__["compile"]
        operand.Empty.compile = staticmethod(_empty_compile)
        try:
            cell = ns.Cell(cell_ref, text, context=None)
        finally:
            operand.Empty.compile = saved
    ctx = {}
    if cell_ref is not None:
        sheet = cell.range.ranges[0].get("sheet")
        if sheet:
            ctx["sheet"] = sheet
    if cell.builder is None:  # not a formula
        raise ValueError(f"not a formula: {text!r}")
    return Parsed(cell, ctx, references)


def builder_program(parsed: Parsed):
    """(graph, inputs, constants, output node) of a parsed formula without formulas'
    compile step: the inputs are found as ``AstBuilder.compile`` finds them."""
    ns = load()
    from formulas.cell import CELL
    from formulas.errors import AnchorRangeName, InvalidRangeName

    builder = parsed.cell.builder
    references = parsed.references or {}
    dsp = builder.dsp
    pred = dsp.dmap.pred
    defaults = dsp.default_values
    inputs, consts = collections.OrderedDict(), {}
    for k in sorted(dsp.data_nodes, key=str):
        if pred[k]:
            continue
        if k in defaults:
            v = defaults[k]["value"]
            if isinstance(v, ns.Ranges) and v.ranges:
                inputs[k] = v
        elif k is CELL:
            consts[k] = parsed.cell.range
        elif isinstance(k, ns.Token):  # e.g. ISFORMULA's dispatcher
            raise Fallback
        elif isinstance(references.get(k), ns.Ranges):
            inputs[k] = references[k]
        else:
            try:
                inputs[k] = ns.Ranges().push(k, context=parsed.context)
            except AnchorRangeName:
                raise Fallback from None
            except InvalidRangeName:
                inputs[k] = None
    out = builder.get_node_id(builder[-1])
    return graph(dsp), inputs, consts, out


def pipe_program(pipe):
    """(graph, inputs, output node) of formulas' compiled function."""
    if len(pipe.outputs) != 1:
        raise Fallback
    return graph(pipe.dsp), pipe.inputs, pipe.outputs[0]


def is_dispatch_token(k) -> bool:
    """An input of a compiled formula that is not a reference (ISFORMULA's dispatcher)."""
    return isinstance(k, load().Token)
