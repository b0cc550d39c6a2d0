"""The one module of ours that imports ``formulas`` and ``schedula``: everything the engine
needs from them goes through the names defined here.

``formulas`` (EUPL; used as a library only) parses Excel formulas into a small
``schedula`` dispatcher graph and implements Excel's built-in functions. We use some of
their internals (the parsed graph, the functions table, the ``Ranges`` value type), so
``pyproject.toml`` pins both to the release series the suite was run against; an
upgrade starts here.

Importing ``formulas`` is slow: ``load`` does it on first use and
returns a namespace of the types and constants the other engine modules use
(``EMPTY``, ``NONE``, ``XlError``, ``Ranges``, ``Array``, ``errors``: code -> error value).
Its companion ``addin.formula.fx_excel`` puts right, in formulas' own tables, what formulas
computes differently from Excel; the two are the only modules that import formulas.
"""

from __future__ import annotations

import collections
import contextlib
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from udfs.machinery.errors import EXCEL_ERROR_CODES

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


class NotAFormula(ValueError):
    """Text that parses to no formula (``parse``)."""


def is_syntax_error(ex: BaseException) -> bool:
    """Whether ``ex``, raised while compiling a formula, is formulas not reading its text
    (its ``FormulaError``: not Excel's formula syntax, or ``NotAFormula``; or its
    dispatcher failing on a parameter of Excel 365's ``LET`` or ``LAMBDA``, saved as
    ``_xlpm.name``, which formulas reads only in the simplest forms: a nested ``LET`` of
    the fourth held-out part's DCF models) rather than a failure of napkin's code."""
    if isinstance(ex, NotAFormula):
        return True
    from formulas.errors import FormulaError
    from schedula.utils.exc import DispatcherError

    return isinstance(ex, FormulaError) or (
        isinstance(ex, DispatcherError) and "_XLPM." in str(ex.args).upper())


class _NS_:
    pass


class _LazyScipy:
    """Stands for ``scipy.<name>`` (or one of its names): imports it on first use."""

    def __init__(self, module: str, attr: str | None = None):
        self._module, self._attr = module, attr

    def _real(self):
        import importlib

        real = importlib.import_module(self._module)
        return getattr(real, self._attr) if self._attr else real

    def __getattr__(self, name):
        return getattr(self._real(), name)

    def __call__(self, *args, **kwargs):
        return self._real()(*args, **kwargs)


def _import_stat_lazily() -> None:
    """Import ``formulas.functions.stat`` without scipy.

    That module imports ``scipy.stats``, ``scipy.linalg`` and ``scipy.interpolate`` at
    its top, though only its statistical functions use them, when
    called. It is imported here with stand-ins that import the real scipy module on first
    use, so a formula of ours (or ``=SUM``) never pays for scipy; ``=NORM.S.INV(0.9)``
    still gets scipy's answer. The stand-ins are in ``sys.modules`` only during this
    import."""
    import sys
    import types

    if "formulas.functions.stat" in sys.modules or "scipy" in sys.modules:
        return
    names = ("scipy", "scipy.interpolate")
    saved = {n: sys.modules.get(n) for n in names}
    scipy = types.ModuleType("scipy")
    scipy.stats, scipy.linalg = _LazyScipy("scipy.stats"), _LazyScipy("scipy.linalg")
    interpolate = types.ModuleType("scipy.interpolate")
    interpolate.interp1d = _LazyScipy("scipy.interpolate", "interp1d")
    sys.modules.update({"scipy": scipy, "scipy.interpolate": interpolate})
    try:
        import formulas.functions.stat  # noqa: F401 - imported now, with the stand-ins
    finally:
        for n in names:
            if saved[n] is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = saved[n]


def load():
    """Import formulas once; the namespace of what the engine uses from it."""
    global _NS
    if _NS is None:
        with _LOCK:
            if _NS is None:
                _import_stat_lazily()
                import formulas
                import schedula as sh
                from formulas.errors import RangeValueError
                from formulas.functions import COMPILING, Array, get_functions
                from formulas.ranges import Ranges, _reshape_array_as_excel
                from formulas.tokens.operand import Error, XlError, _build_sheet_id, range2parts

                from addin.formula.fx_parser import Cell, EachCallCell  # parsed faster

                ns = _NS_()
                ns.formulas, ns.sh, ns.Cell, ns.Array = formulas, sh, Cell, Array
                ns.EachCallCell = EachCallCell
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
                from formulas.functions.operators import OPERATORS

                ns.OPERATORS = OPERATORS  # formulas' operators, by symbol
                from formulas.errors import BroadcastError

                ns.BroadcastError = BroadcastError  # arrays of sizes it cannot pair
                from formulas import functions as fns

                # the code of the wrappers formulas' element-wise functions are made of
                # (``addin.formula.one_cell``): {"ufunc" | "func" | "ranges": code}
                ns.wrapper_codes = {
                    k: next(c for c in f.__code__.co_consts
                            if getattr(c, "co_name", None) == "wrapper")
                    for k, f in (("ufunc", fns.wrap_ufunc), ("func", fns.wrap_func),
                                 ("ranges", fns.wrap_ranges_func))}
                # wrap_ufunc's own args_parser and return_func (one_cell's short way)
                ns.ufunc_defaults = tuple(fns.wrap_ufunc.__defaults__[i] for i in (2, 5))
                _NS = ns
    return _NS


def replace(module: str, name: str, key: str | None, make) -> Any:
    """Put ``make(original, key)`` in the place of formulas' ``module.name`` (``key`` None)
    or of its entry ``module.name[key]``; returns the replacement. ``name`` is
    ``"get_functions"`` for the table of functions (``original`` is None for a name the
    table lacks). Run only by ``addin.engine.boot.ready``, from
    ``addin.formula.patches.PATCHES``."""
    import importlib

    mod = importlib.import_module(module)
    if key is None:
        new = make(getattr(mod, name), key)
        setattr(mod, name, new)
        return new
    table = _table(mod, name)
    new = make(table.get(key) if key in table else None, key)
    table[key] = new
    return new


def current(module: str, name: str, key: str | None = None) -> Any:
    """What formulas' ``module.name`` (or its entry ``key``) holds now; KeyError for an
    entry the table lacks."""
    import importlib

    mod = importlib.import_module(module)
    return getattr(mod, name) if key is None else _table(mod, name)[key]


def _table(mod, name: str) -> dict:
    return mod.get_functions() if name == "get_functions" else getattr(mod, name)


#: called with a sentence when ``^`` overflows (the engine records it as the cell's message)
on_overflow: list = []


def _power(x, y):
    """Excel's ``^``: a result beyond a float (``=2^1100``) is ``#NUM!``, as in Excel;
    formulas' own operator turns Python's OverflowError into ``#VALUE!``. A negative
    number to a fractional power (``=(-8)^(1/3)``), a complex number in Python, is
    ``#NUM!`` too, also where a function reads it. ``0^0`` is ``#NUM!`` and 0 to a
    negative power ``#DIV/0!``, as POWER gives them; a result below the smallest float
    (``=10^-400``) stops strict mode.

    References: ECMA-376 Part 1, SpreadsheetML function POWER (x zero and y below 0:
    #DIV/0!); Microsoft, [MS-OI29500] 2.1.1018 ("Office returns #NUM! for POWER(0,0)")."""
    if x == 0 and y <= 0:
        return _NS.errors["#NUM!" if y == 0 else "#DIV/0!"]
    try:
        got = x ** y
    except OverflowError:
        for say in on_overflow:
            say(f"{x:g}^{y:g} is beyond the largest number a cell holds (about 1.8E+308)")
        return _NS.errors["#NUM!"]
    if isinstance(got, complex):
        return _NS.errors["#NUM!"]
    if got == 0 and x != 0:  # below the smallest float: Excel's value not documented
        from addin.formula import context

        context.refuse(f"{x:g}^{y:g}, a result too small for a number (below 2.2E-308)",
                       "#NUM!")
        return _NS.errors["#NUM!"]
    return got


# --------------------------------------------------------------------------- functions


def function_names() -> set[str]:
    """Names of every function formulas knows (Excel's, plus those registered)."""
    return set(load().get_functions())


def register(name: str, udf) -> Any:
    """Make ``udf(compiling, *args)`` formulas' function ``name``; returns what the table
    held before (a function, a dict for special forms like IF, or None).

    Registered as impure (like RAND): formulas never runs it, and so never bakes its
    result in, while it compiles a formula (``compiling`` is then True)."""
    table = load().get_functions()
    original = table.get(name) if name in table else None
    table[name] = udf_entry(udf)
    return original


def udf_entry(udf) -> dict:
    """The entry of formulas' table of functions that calls ``udf(compiling, *args)``,
    impure (see ``register``)."""
    return {"extra_inputs": collections.OrderedDict([(load().COMPILING, False)]),
            "function": udf}


# --------------------------------------------------------------------------- ranges


# --------------------------------------------------------------------------- parsing


@dataclass
class Graph:
    """A parsed formula's dispatcher graph in plain terms (see ``executor.FastFn``)."""

    filters: dict  # data node -> its filters
    sources: list  # data nodes nothing produces
    functions: list  # (function, inputs, outputs, filters) in the graph's node order
    defaults: dict  # data node -> default value (unfiltered)
    #: position in ``functions`` -> positions among its inputs that take one value of a
    #: reference (Excel's implicit intersection, see ``addin.formula.intersection``)
    single: dict = field(default_factory=dict)
    #: functions inside which a range meets an operator, not known to be array or value
    #: context: the formula is refused rather than computed one way or the other
    unsure: tuple = ()
    #: positions in ``functions`` of calls computed element by element over whole arrays
    #: in a one-cell formula (``addin.formula.intersection.LIFTED``)
    lifted: frozenset = frozenset()
    names: list = field(default_factory=list)  # the node name of each of ``functions``


_FUNC_KEYS = {"type", "index", "inputs", "outputs", "function", "solve_cycle", "wait_inputs",
              "filters", "description", "function_id", "extra_inputs"}
_DATA_KEYS = {"type", "index", "filters", "wait_inputs", "description"}


def graph(dsp) -> Graph:
    """The graph of a schedula dispatcher; Fallback when it uses more than we run."""
    nodes, pred = dsp.nodes, dsp.dmap.pred
    filters, funcs, names = {}, [], []
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
            names.append(k)
        else:
            raise Fallback
    sources = [k for k, n in nodes.items() if n["type"] == "data" and not pred[k]]
    defaults = {k: d["value"] for k, d in dsp.default_values.items()}
    return Graph(filters, sources, funcs, defaults, names=names)


@dataclass
class Parsed:
    """A formula formulas has parsed at a cell; ``make_pipe()`` compiles it formulas' way
    (a compile-time dispatch and a DispatchPipe, which ``addin.engine.executor.FastFn``
    runs without)."""

    cell: Any
    context: dict
    references: dict | None

    def make_pipe(self):
        self.cell.compile(references=self.references, context=self.context)
        return self.cell.func.func


def _empty_compile():
    return OMITTED


def _process(self, match, context=None, parser=None):
    """formulas' ``OperatorToken.process``, marking a run of signs with an even number
    of minus signs (``--``): formulas reads it as ``+``, and a unary ``+`` leaves a value
    as it is, while Excel's ``--TRUE`` is 1."""
    attr = _ORIGINAL["process"](self, match, context=context, parser=parser)
    run = attr.get("sum_minus")
    if run and attr.get("name") == "+" and "-" in run:
        attr["double_minus"] = True
    return attr


def _set_expr(self, *tokens):
    _ORIGINAL["set_expr"](self, *tokens)
    if self.attr.get("double_minus") and self.name == "u+":
        self.attr["expr"] = "--" + self.attr["expr"][1:]


def _compile(self):
    if self.attr.get("double_minus") and self.name == "u+":
        from formulas.functions.operators import OPERATORS

        neg = OPERATORS["U-"]
        return lambda *a: neg(neg(*a))
    return _ORIGINAL["compile"](self)


_ORIGINAL: dict = {}


@contextlib.contextmanager
def _parsing():
    """formulas patched for one parse (under the lock): an omitted argument parses to
    ``OMITTED`` (formulas gives a plain 0); ``--x`` negates twice (``_process``)."""
    from formulas.tokens import operand
    from formulas.tokens.operator import Operator, OperatorToken

    with _LOCK:
        if not _ORIGINAL:
            _ORIGINAL.update(process=OperatorToken.__dict__["process"],
                             set_expr=Operator.__dict__["set_expr"],
                             compile=Operator.__dict__["compile"])
        empty = operand.Empty.__dict__["compile"]
        operand.Empty.compile = staticmethod(_empty_compile)
        OperatorToken.process, Operator.set_expr, Operator.compile = \
            _process, _set_expr, _compile
        try:
            yield
        finally:
            operand.Empty.compile = empty
            OperatorToken.process = _ORIGINAL["process"]
            Operator.set_expr = _ORIGINAL["set_expr"]
            Operator.compile = _ORIGINAL["compile"]


def parse(text: str, cell_ref: str | None, references=None, share: bool = True) -> Parsed:
    """Parse a normalized formula (ValueError if it is not one), with the corrections
    of ``_parsing``. ``share``: a repeated operation or call is one node of the graph,
    computed once (formulas' way), else each occurrence is a node of its own
    (``addin.formula.fx_parser.EachCallBuilder``)."""
    ns = load()
    with _parsing():
        cell = (ns.Cell if share else ns.EachCallCell)(cell_ref, text, context=None)
    ctx = {}
    if cell_ref is not None:
        sheet = cell.range.ranges[0].get("sheet")
        if sheet:
            ctx["sheet"] = sheet
    if cell.builder is None:  # not a formula
        raise NotAFormula(f"not a formula: {text!r}")
    return Parsed(cell, ctx, references)


def builder_program(parsed: Parsed):
    """(graph, inputs, constants, output node) of a parsed formula without formulas'
    compile step: the inputs are found as ``AstBuilder.compile`` finds them. Which of the
    graph's operands are read as one value is for ``addin.formula.intersection``."""
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
        if k is CELL:  # ROW()/COLUMN() without argument: the formula's own cell
            consts[k] = parsed.cell.range
        elif k in defaults:
            v = defaults[k]["value"]
            if isinstance(v, ns.Ranges) and v.ranges:
                inputs[k] = v
        elif isinstance(k, ns.Token):  # e.g. ISFORMULA's dispatcher
            raise Fallback
        elif isinstance(references.get(k), ns.Ranges):
            inputs[k] = references[k]
        else:
            try:
                inputs[k] = ns.Ranges().push(_full_ref(k), context=parsed.context)
            except AnchorRangeName:
                raise Fallback from None
            except InvalidRangeName:
                inputs[k] = None
    out = builder.get_node_id(builder[-1])
    return graph(dsp), inputs, consts, out


#: napkin's function names (set by the engine): operators in their arguments keep
#: formulas' array semantics
_OURS: set = set()


_CUT_REF = re.compile(r"(?P<head>.*!)?(?P<a>[A-Z]*)(?P<b>\d*):(?P<c>[A-Z]*)(?P<d>\d*)")


def _full_ref(name) -> str:
    """A range's node name with the end formulas leaves out put back: it writes
    ``B2:B1048576`` as ``B2:B`` and ``B1:XFD1`` as ``B1:1`` (dropping the last row or
    column), then reads that back as a single cell."""
    m = _CUT_REF.fullmatch(name) if isinstance(name, str) else None
    if not m:
        return name
    a, b, c, d = m.group("a", "b", "c", "d")
    if a and b and not (c and d):  # B2:B, B1:1, B2:
        c, d = c or "XFD", d or "1048576"
    elif c and d and not (a and b):  # A:B5 (A1048576:B5), 1:B5 (XFD1:B5)
        a, b = a or "XFD", b or "1048576"
    else:
        return name
    return f"{m.group('head') or ''}{a}{b}:{c}{d}"


def pipe_program(pipe):
    """(graph, inputs, output node) of formulas' compiled function."""
    if len(pipe.outputs) != 1:
        raise Fallback
    return graph(pipe.dsp), pipe.inputs, pipe.outputs[0]


def is_dispatch_token(k) -> bool:
    """An input of a compiled formula that is not a reference (ISFORMULA's dispatcher)."""
    return isinstance(k, load().Token)
