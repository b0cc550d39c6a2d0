"""One declaration per Excel function, and what is generated from it.

A declaration (``declare``) says, in one place, everything about an Excel function:

* its **name** and **description** (Excel's Insert Function text, at most 255 characters);
* its **arguments** in order: each with its reader (``udfs.machinery.args.Arg``: default unit,
  domain, error messages), its help text, and its default when omitted;
* the **formula** it computes: a function of a topic module (``udfs.inference.memory``,
  ``udfs.inference.timing``, ...), or, for the few functions that are not one formula over
  numbers, its own ``call``;
* how **EXPLAIN** shows its work (``explain``: a function of a ``udfs.machinery.explain.Work``);
* its **example** for the README's function table, and a short summary;
* ``native``: the same computation as a native Excel formula, where there is one
  (optional; ``napkin native`` uses it): Excel formula text with ``{argument}`` where each
  argument's value goes, e.g. ``"{params}*{precision}/1E9"`` (the value in the argument's
  default unit, a precision as bytes; the result unit is applied around it). With OMIT
  arguments, a dict from the names omitted (a tuple, ``()`` for none) to the text;
  beside it ``native_result`` (the result known positive or nonnegative),
  ``native_note`` (its behaviour in words, for docs/native.md), ``native_when`` (the
  arguments decide whether a call is translated) and ``native_refusal`` (why a call is
  not translated). A function reading text with units itself (``raw`` arguments) says how
  the native text reads them: ``native_readers`` (an argument's reader there, a plain
  number), ``native_factor`` (the unit arguments, constant text, that fix a factor the
  function gives at translation), ``native_fold`` (a call of constants becomes the
  function's value); a look-up in a built-in table gives ``native_table`` ("gpus",
  "models") instead of a text.

From the declarations come the Python functions Excel calls (``CATALOG``, declared to
xlwings with ``func`` and ``arg``), their argument help (``ARG_DOCS``), the xlwings
Lite bundle and the add-in module (both iterate over ``CATALOG``), EXPLAIN, and the
README's function table (``udfs.docs``).

A declaration, from ``udfs.functions.roofline``::

    declare(
        "RIDGE",
        "Ridge point = peak × efficiency ÷ bandwidth, in FLOP/byte. ...",
        param(PEAK, D_PEAK),
        param(BANDWIDTH, D_BANDWIDTH),
        param(Arg("efficiency", "dimensionless", OPEN_FRACTION), "Optional. ...", default=1),
        formula=roofline.ridge,
        explain=lambda w: (f"{q(w.peak_flops, 'TFLOPS')} × {num(w.efficiency)} ÷ "
                           f"{q(w.bandwidth, 'TB/s')} = {q(w.result, 'FLOP/byte')}"),
        example=('=RIDGE("989 TFLOPS","3.35 TB/s")', "295.22"),
    )

A function may take a **name** where a number goes (``by_name``, a ``ByName``): when its
``trigger`` argument holds a name (DECODE_FLOOR's ``params`` naming a model), ``resolve``
turns the arguments it reads into the numbers the formula takes, before any is read, and
a ``table`` argument (the model table range it looks the name up in) reaches ``resolve``
only, never the formula.

An optional argument declared with ``default=OMIT`` reaches the formula as None when it is
empty (DECODE_FLOOR's ``peak_flops``: the memory term alone); ``together`` names OMIT
arguments that are given together or not at all (BATCH_FOR_LATENCY's ``flops_per_token``
and ``peak_flops``). A ``result_unit`` argument lets the user choose the unit of the
result. Functions that are not one formula over numbers (UNIT_CONVERT, TIME_FLOOR,
GPU_SPEC, EXPLAIN) give a ``call`` instead of a ``formula``.

The Python function of a declaration is generated as source once (as ``dataclasses``
does), so that a call costs what a hand-written one would: defaults substituted, the
result unit read, then the formula's compiled fast path (``udfs.machinery.formula``).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from .args import Arg, out_unit
from .broadcast import NUMBER, guard
from .errors import ExcelError, value_error
from .formula import Formula

#: Catalog functions not yet declared to xlwings: (function, declaration) pairs. The
#: declaration is deferred to ``declare_to_xlwings``, so that the headless engine
#: (``napkin eval``, ``napkin calc``), which calls the functions but never shows them to
#: Excel, does not import xlwings (about a tenth of a second at start).
_UNDECLARED: list = []
_DECLARING = threading.Lock()


def declare_to_xlwings() -> None:
    """Declare every catalog function to xlwings, with its ``func`` and ``arg``
    decorators (argument docs and ``ARG_OPTIONS``); done once, on the first use of
    the catalog through the ``udfs`` package (how xlwings and users reach it).

    xlwings' decorators mark the function object they are given and return it, so the
    functions in ``CATALOG`` are the declared ones afterwards. Without xlwings (a bare
    Pyodide) they stay plain functions.
    """
    if not _UNDECLARED:
        return
    with _DECLARING:
        try:
            from xlwings import arg as xw_arg
            from xlwings import func as xw_func
        except ImportError:  # pragma: no cover - e.g. a bare Pyodide
            _UNDECLARED.clear()
            return
        while _UNDECLARED:
            f, fn = _UNDECLARED.pop(0)
            g = f
            for p in reversed(fn.params):
                g = xw_arg(p.name, doc=p.doc, **ARG_OPTIONS)(g)
            if xw_func(g) is not f:  # pragma: no cover - an xlwings that wraps instead
                raise RuntimeError(f"xlwings replaced {fn.name} instead of marking it")


class _Marker:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


#: The argument has no default: Excel requires it.
REQUIRED = _Marker("REQUIRED")
#: The argument is optional, and the formula is called with ``None`` in its place when it
#: is omitted (e.g. DECODE_FLOOR without a peak: the memory term alone).
OMIT = _Marker("OMIT")

#: Options of every argument declared to xlwings: an error cell passed in arrives as its
#: code text ("#N/A"), which the argument readers give back as that error. Without
#: ``err_to_str`` xlwings (add-in and Lite alike) passes an error cell as None, the same as
#: an empty cell, and an optional argument would silently take its default.
ARG_OPTIONS = {"err_to_str": True}

#: Excel name -> Python function, in declaration order.
CATALOG: dict = {}
#: Excel name -> {argument: help text}, as declared to xlwings.
ARG_DOCS: dict = {}
#: Excel name -> ``Function`` (the declaration).
DECLARATIONS: dict = {}


@dataclass(frozen=True)
class Param:
    """One argument of an Excel function."""

    name: str
    doc: str
    #: Reads one Excel value into a number in the argument's default unit (None: the
    #: function's own ``call`` reads it).
    reader: Arg | None = None
    #: REQUIRED, OMIT, or the value an omitted (empty) argument takes.
    default: object = REQUIRED
    #: For the result-unit argument: the unit the formula's result is in.
    result_unit: str | None = None
    #: A table range read by the declaration's ``by_name`` only, not by the formula.
    table: bool = False

    @property
    def optional(self) -> bool:
        return self.default is not REQUIRED


def param(reader: Arg, doc: str, default=REQUIRED) -> Param:
    """An argument read by ``reader`` (its name is the reader's)."""
    return Param(reader.name, doc, reader, default)


def raw(name: str, doc: str, default=REQUIRED) -> Param:
    """An argument the function's own ``call`` reads."""
    return Param(name, doc, None, default)


def table(name: str, doc: str) -> Param:
    """An optional table range that only the declaration's ``by_name`` reads."""
    return Param(name, doc, None, None, table=True)


@dataclass(frozen=True)
class ByName:
    """A name in place of a number: when ``test(trigger's value)`` is true, ``resolve``,
    called with the arguments ``reads`` (in that order), gives the new values of
    ``writes`` (a tuple, in that order), or raises ``ExcelError``; ``describe``, called
    the same way, says in words what the name became (for EXPLAIN)."""

    trigger: str
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    resolve: Callable
    describe: Callable
    test: Callable

    def values(self, fn: Function, values: list) -> list:
        """``values`` (the arguments in order) with the name resolved."""
        names = [p.name for p in fn.params]
        given = dict(zip(names, list(values) + [None] * (len(names) - len(values)),
                         strict=True))
        new = self.resolve(*[given[n] for n in self.reads])
        given.update(zip(self.writes, new, strict=True))
        return [given[n] for n in names]


def result_unit(unit: str, doc: str) -> Param:
    """The optional ``unit`` argument: the unit to give the result in (default ``unit``)."""
    return Param("unit", doc, None, None, unit)


@dataclass
class Function:
    """The declaration of one Excel function (see the module's docstring)."""

    name: str
    doc: str
    params: tuple[Param, ...]
    formula: object = None
    call: object = None
    result: str = NUMBER
    nonfinite: str = "the result is not a finite number"
    explain: object = None
    example: tuple[str, str] | None = None
    summary: str = ""
    usage: str = ""
    native: str | dict | None = None
    #: Groups of OMIT arguments given together or not at all.
    together: tuple[tuple[str, ...], ...] = ()
    #: A name the function takes in place of a number (``ByName``), or None.
    by_name: ByName | None = None
    #: What the native formula's result is known to lie in ("positive", "nonnegative"):
    #: a call nested in another needs no check of its domain (``napkin native``).
    native_result: str = ""
    #: The native formula's behaviour in words, where it needs them (docs/native.md).
    native_note: str = ""
    #: With no ``native`` text: when ``addin.transform.native`` translates a call all the
    #: same (the arguments decide; docs/native.md's words), and why a call is not
    #: translated (the reason ``napkin native`` gives).
    native_when: str = ""
    native_refusal: str = ""
    #: The readers the native text reads ``raw`` arguments with (name -> ``Arg``: a plain
    #: number in its default unit and domain); text with units there is napkin's only.
    native_readers: dict = field(default_factory=dict)
    #: Unit arguments, constant text, whose factor the native text is multiplied by: the
    #: function's value at 1 with them, found at translation. Where the first is empty the
    #: value carries its unit in its text, which only napkin reads.
    native_factor: tuple[str, ...] = ()
    #: A call whose arguments are all constants becomes the function's value.
    native_fold: bool = False
    #: The built-in table ("gpus", "models") a (name, field) look-up reads: the native form
    #: is INDEX/MATCH over that table's hidden copy.
    native_table: str = ""
    #: The formula over the arguments' readers; with OMIT arguments, one per combination
    #: of them given or omitted (key: the names omitted).
    formulas: dict = field(default_factory=dict)
    excel: object = None

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def signature(self) -> str:
        """``NAME(a, b, [c])``, as the README shows it."""
        if self.usage:
            return self.usage
        args = ", ".join(f"[{p.name}]" if p.optional else p.name for p in self.params)
        return f"{self.name}({args})"


def declare(name: str, doc: str, *params: Param, formula=None, call=None, result=NUMBER,
            nonfinite: str = "the result is not a finite number", explain=None,
            example: tuple[str, str] | None = None, summary: str = "", usage: str = "",
            native: str | dict | None = None,
            together: tuple[tuple[str, ...], ...] = (),
            by_name: ByName | None = None, native_result: str = "", native_note: str = "",
            native_when: str = "", native_refusal: str = "", native_readers=None,
            native_factor: tuple[str, ...] = (), native_fold: bool = False,
            native_table: str = "") -> Function:
    """Declare the Excel function ``name``; return its declaration (also registered)."""
    if (formula is None) == (call is None):
        raise ValueError(f"{name}: give either a formula or a call")
    if name in DECLARATIONS:
        raise ValueError(f"{name} is declared twice")
    fn = Function(name, doc, tuple(params), formula, call, result, nonfinite, explain,
                  example, summary, usage, native, together, by_name=by_name,
                  native_result=native_result, native_note=native_note,
                  native_when=native_when, native_refusal=native_refusal,
                  native_readers=dict(native_readers or {}), native_factor=native_factor,
                  native_fold=native_fold, native_table=native_table)
    if formula is not None:
        _bind_formulas(fn)
    fn.excel = _excel_function(fn)
    DECLARATIONS[name] = fn
    CATALOG[name] = fn.excel
    ARG_DOCS[name] = {p.name: p.doc for p in fn.params}
    return fn


def _operands(fn: Function) -> list[Param]:
    """The arguments the formula takes, in order (all but the result unit)."""
    ops = [p for p in fn.params if p.result_unit is None and not p.table]
    for p in ops:
        if p.reader is None:
            raise ValueError(f"{fn.name}({p.name}): a formula's arguments need a reader")
    return ops


def _bind_formulas(fn: Function) -> None:
    ops = _operands(fn)
    omittable = [p.name for p in ops if p.default is OMIT]
    for omitted in itertools.chain.from_iterable(
            itertools.combinations(omittable, k) for k in range(len(omittable) + 1)):
        if any(0 < len(set(group) & set(omitted)) < len(group) for group in fn.together):
            continue  # half a group: refused before any formula runs
        kernel = fn.formula if not omitted else _with_none(
            fn.formula, [i for i, p in enumerate(ops) if p.name in omitted], len(ops))
        readers = [p.reader for p in ops if p.name not in omitted]
        fn.formulas[frozenset(omitted)] = Formula(kernel, *readers, result=fn.result,
                                                  nonfinite=fn.nonfinite)


def _with_none(kernel, positions, n):
    """``kernel`` called with None at ``positions`` (omitted arguments)."""
    def call(*xs):
        it = iter(xs)
        return kernel(*[None if i in positions else next(it) for i in range(n)])
    return call


def _apart(group):
    """The error for a group of arguments given in part."""
    names = f"{', '.join(group[:-1])} and {group[-1]}"

    def error(*values):
        missing = next(n for n, v in zip(group, values, strict=True) if v is None)
        return value_error(f"{missing} is empty: give {names} together, or neither")
    return error


def _guarded(resolve):
    """``resolve``, giving back the ExcelError it raises (a cell never shows a
    traceback)."""
    return lambda *args: guard(resolve, *args)


def _first_call(formula: Formula, ns: dict, key: str):
    """Stands for ``formula.fast`` in a generated function's namespace ``ns`` until the
    first call, which compiles the fast path and puts it in its place: later calls go
    straight to it, and a start that calls few functions compiles only those."""

    def first(*args):
        fast = ns[key] = formula.fast
        return fast(*args)

    return first


def _excel_function(fn: Function):
    """Generate the Python function Excel calls (declared to xlwings later, by
    ``declare_to_xlwings``)."""
    names = [p.name for p in fn.params]
    signature = ", ".join(f"{p.name}=None" if p.optional else p.name for p in fn.params)
    ns = {"_ExcelError": ExcelError, "_out_unit": out_unit, "_call": fn.call}
    lines = [f"def {fn.name}({signature}):"]
    if fn.by_name is not None:
        b = fn.by_name
        ns.update(_named=b.test, _resolve=_guarded(b.resolve))
        lines += [f"    if type({b.trigger}) is not float and _named({b.trigger}):",
                  f"        _r = _resolve({', '.join(b.reads)})",
                  "        if type(_r) is _ExcelError:",
                  "            return _r",
                  f"        {', '.join(b.writes)}, = _r"]
    for i, group in enumerate(fn.together):
        ns[f"_apart{i}"] = _apart(group)
        given = " + ".join(f"({n} is None)" for n in group)
        lines += [f"    if 0 < {given} < {len(group)}:",
                  f"        return _apart{i}({', '.join(group)})"]
    if fn.call is not None:
        lines.append(f"    return _call({', '.join(names)})")
    else:
        ops = _operands(fn)
        unit = [p for p in fn.params if p.result_unit is not None]
        scale = "1.0"
        if unit:
            ns["_unit"] = unit[0].result_unit
            lines += ["    if unit is None:", "        scale = 1.0", "    else:", "        try:",
                      "            scale = _out_unit(unit, 'unit', _unit)[1]",
                      "        except _ExcelError as e:", "            return e"]
            scale = "scale"

        def value(i, p):
            if p.default is REQUIRED or p.default is OMIT:
                return p.name
            ns[f"_d{i}"] = p.default
            return f"(_d{i} if {p.name} is None else {p.name})"

        omittable = [p.name for p in ops if p.default is OMIT]
        for key, formula in sorted(fn.formulas.items(), key=lambda kv: -len(kv[0])):
            tag = "_".join(sorted(key)) or "all"
            ns[f"_fast_{tag}"] = _first_call(formula, ns, f"_fast_{tag}")
            args = ", ".join([scale] + [value(i, p) for i, p in enumerate(ops)
                                        if p.name not in key])
            test = " and ".join([f"{n} is None" for n in omittable if n in key]
                                + [f"{n} is not None" for n in omittable if n not in key])
            indent = "    "
            if test and key != frozenset():
                lines.append(f"    if {test}:")
                indent = "        "
            lines.append(f"{indent}return _fast_{tag}({args})")
    exec("\n".join(lines), ns)  # source built above from our declarations
    f = ns[fn.name]
    f.__doc__ = fn.doc
    f.__module__ = "udfs.catalog"
    _UNDECLARED.append((f, fn))  # declared to xlwings on first use (declare_to_xlwings)
    return f
