"""Headless evaluation of Excel formulas: Excel's own functions mixed with ours.

Built on the ``formulas`` package (EUPL; used as a library only) for parsing and for
Excel's built-in functions, with our own workbook evaluator around it:

* :func:`evaluate` computes one formula, e.g. ``evaluate('=RIDGE(989,3.35)*2')``;
* :func:`calc_workbook` computes every formula of an .xlsx/.xlsm and writes the results
  into a copy as cached values, losslessly (see :mod:`addin.xlsx_values`);
* :func:`format_value` renders a result the way the ``napkin calc`` CLI prints it.

Values come back as Python values: ``float``/``int``/``bool``/``str``, nested lists (rows)
for arrays, or :class:`udfs.errors.ExcelError` for error values, which keeps the message
one of our functions gave (``#NUM! bandwidth must be greater than 0``).

How our functions are called
    Each name of the registry (``udfs.catalog.FUNCTIONS`` by default) is registered with
    ``formulas`` through a thin wrapper that converts arguments to plain Python:
    a single cell or scalar -> float/int/bool/str, an empty cell -> ``None``, a range or
    array -> list of rows (always 2-D, even for one row or one column), an Excel error
    -> :class:`ExcelError` (with the message of the cell it came from, when known).
    Omitted arguments are not passed at all when they are trailing (``=RIDGE(989,3.35,)``
    calls ``RIDGE(989, 3.35)``), and passed as ``None`` when followed by a given one
    (``=F(1,,3)`` calls ``F(1, None, 3)``). Results may be float/int/bool/str, lists or
    numpy arrays, an :class:`ExcelError` (returned or raised). Any other exception
    becomes ``#VALUE!`` with the exception text as message.

Workbook evaluator
    Formulas are grouped by *shape* (the formula text with relative references written
    as offsets, as in R1C1 notation, plus the sheet). Each shape is parsed and compiled
    by ``formulas`` once; every cell of the shape reuses the compiled function with its
    own input ranges. Cells are computed in dependency order (cycles -> ``#VALUE!``
    "circular reference"). Defined names (workbook and sheet scope), cross-sheet
    references, shared formulas and array formulas (``<f t="array" ref=...>``, Excel's
    CSE and dynamic-array formulas) are supported.
"""

from __future__ import annotations

import collections
import math
import os
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zipfile import ZipFile

import numpy as np

from udfs.errors import EXCEL_ERROR_CODES, ExcelError

from . import guard, package
from . import xlsx_values as xv

__all__ = ["evaluate", "calc_workbook", "format_value", "to_json", "normalize_formula"]

# formulas is imported lazily-ish (it takes ~1 s); everything that needs it goes through _fx().
_FX = None
_LOCK = threading.RLock()


class _Omitted(int):
    """The value of an omitted argument (``=F(1,,3)``): 0 for Excel's own functions."""

    def __repr__(self):
        return "OMITTED"


OMITTED = _Omitted(0)


def _fx():
    """Import formulas once and patch what we need."""
    global _FX
    if _FX is None:
        with _LOCK:
            if _FX is None:
                import formulas
                import formulas.tokens.operand as operand
                import schedula as sh
                from formulas.cell import Cell
                from formulas.errors import RangeValueError
                from formulas.functions import COMPILING, Array, get_functions
                from formulas.ranges import Ranges, _reshape_array_as_excel
                from formulas.tokens.operand import Error, XlError, _build_sheet_id, range2parts

                # An omitted argument compiles to 0 in formulas; make it a distinguishable 0.
                operand.Empty.compile = staticmethod(lambda: OMITTED)

                class NS:
                    pass

                ns = NS()
                ns.formulas, ns.sh, ns.Cell, ns.Array = formulas, sh, Cell, Array
                ns.get_functions, ns.Ranges = get_functions, Ranges
                ns.RangeValueError = RangeValueError
                ns.reshape = _reshape_array_as_excel
                ns.Error, ns.XlError = Error, XlError
                ns.build_sheet_id, ns.range2parts = _build_sheet_id, range2parts
                ns.EMPTY = sh.EMPTY
                ns.COMPILING = COMPILING
                ns.errors = dict(Error.errors)  # code -> canonical XlError
                for code in EXCEL_ERROR_CODES:  # codes formulas lacks (#SPILL!, #CALC!)
                    ns.errors.setdefault(code, XlError(code))
                _FX = ns
    return _FX


# --------------------------------------------------------------------------- registry


_REGISTERED: dict[str, Any] = {}  # NAME -> original formulas function (or None)
_REG_VERSION = [0]
_STATE = threading.local()


def _default_functions() -> Mapping[str, Callable]:
    from udfs import catalog  # lazily: the catalog imports pint etc.

    functions = getattr(catalog, "FUNCTIONS", None)
    return functions if functions is not None else catalog.CATALOG


def _registry(functions) -> dict[str, Callable]:
    if functions is None:
        functions = _default_functions()
    return {str(k).upper(): v for k, v in functions.items()}


def _ensure_registered(names) -> None:
    fx = _fx()
    table = fx.get_functions()
    new = [n for n in names if n not in _REGISTERED]
    if not new:
        return
    with _LOCK:
        for name in new:
            if name in _REGISTERED:
                continue
            _REGISTERED[name] = table.get(name) if name in table else None
            # impure, like RAND: never run (and baked in) while formulas compiles
            table[name] = {
                "extra_inputs": collections.OrderedDict([(fx.COMPILING, False)]),
                "function": _make_wrapper(name),
            }
        _REG_VERSION[0] += 1


def _make_wrapper(name: str):
    def udf(compiling, *args):
        fx = _fx()
        if compiling:
            return fx.sh.NONE
        reg = getattr(_STATE, "registry", None) or {}
        func = reg.get(name)
        if func is None:
            original = _REGISTERED.get(name)
            if original is not None:
                if isinstance(original, dict):  # e.g. IF: no way to call it from here
                    return fx.errors["#NAME?"]
                return original(*args)
            return fx.errors["#NAME?"]
        n = len(args)
        while n and args[n - 1] is OMITTED:
            n -= 1
        py = [None if a is OMITTED else _to_py_arg(a) for a in args[:n]]
        try:
            res = func(*py)
        except ExcelError as ex:
            res = ex
        except Exception as ex:  # a catalog function should not raise; be safe anyway
            res = ExcelError("#VALUE!", f"{name}: {type(ex).__name__}: {ex}")
        return _from_py_result(res)

    udf.__name__ = name
    return udf


def _message_for(code: str) -> str:
    own = getattr(_STATE, "own", None)
    if own and own.get(code):
        return own[code]
    inh = getattr(_STATE, "inherited", None)
    if inh and inh.get(code):
        return inh[code]
    return ""


def _record(err: ExcelError) -> None:
    own = getattr(_STATE, "own", None)
    if own is not None and err.message and not own.get(err.code):
        own[err.code] = err.message


def _to_py_scalar(v):
    fx = _FX
    if v is fx.EMPTY or v is None:
        return None
    if isinstance(v, fx.XlError):
        code = str(v)
        if code not in EXCEL_ERROR_CODES:
            code = "#VALUE!"
        return ExcelError(code, _message_for(code))
    if isinstance(v, np.generic):
        v = v.item()
    if type(v) is _Omitted:
        return 0
    if isinstance(v, str) and type(v) is not str:
        v = str(v)
    return v


def _to_py_arg(a):
    fx = _FX
    if isinstance(a, fx.Ranges):
        a = a.value
    if isinstance(a, np.ndarray):
        if a.ndim == 0:
            return _to_py_scalar(a.item())
        if a.ndim == 1:
            a = a.reshape(1, -1)
        if a.shape == (1, 1):
            return _to_py_scalar(a[0, 0])
        return [[_to_py_scalar(x) for x in row] for row in a.tolist()]
    if isinstance(a, (list, tuple)):
        return [[_to_py_scalar(x) for x in row] if isinstance(row, (list, tuple))
                else _to_py_scalar(row) for row in a]
    return _to_py_scalar(a)


def _from_py_scalar(v):
    fx = _FX
    if isinstance(v, ExcelError):
        _record(v)
        return fx.errors.get(v.code, fx.errors["#VALUE!"])
    if v is None:
        return fx.EMPTY
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        if isinstance(v, float) and not math.isfinite(v):
            _record(ExcelError("#NUM!", "result is not a finite number"))
            return fx.errors["#NUM!"]
        return v
    if isinstance(v, str):
        return v
    if isinstance(v, fx.XlError):
        return v
    _record(ExcelError("#VALUE!", f"unsupported result type {type(v).__name__}"))
    return fx.errors["#VALUE!"]


def _from_py_result(res):
    fx = _FX
    if isinstance(res, (list, tuple, np.ndarray)):
        arr = np.asarray(res, dtype=object)
        if arr.ndim == 0:
            return _from_py_scalar(arr.item())
        if arr.ndim == 1:
            arr = arr.reshape(1, -1)
        if arr.ndim != 2 or arr.size == 0:
            _record(ExcelError("#VALUE!", "result array must be 2-D and not empty"))
            return fx.errors["#VALUE!"]
        out = np.empty(arr.shape, dtype=object)
        for idx, x in np.ndenumerate(arr):
            out[idx] = _from_py_scalar(x)
        return out.view(fx.Array)
    return _from_py_scalar(res)


# --------------------------------------------------------------------------- formula text


_SEGMENT_RE = re.compile(r'"(?:[^"]|"")*"|\'(?:[^\']|\'\')*\'|[^"\']+|["\']')
_NUMBER_RE = re.compile(r"(?<![\w.$])(\d+\.?\d*|\.\d+)(?:[eE]([+-]?)(\d+))?(?![\w.])")
_ADDIN_PREFIX_RE = re.compile(r"(?<![\w.])(?:\[\d+\]|[\w.\-]+\.xla[m]?)!(?=[A-Za-z_][\w.]*\()")
_QUOTED_ADDIN_RE = re.compile(r"'[^']*\.xla[m]?'", re.I)
_ADDIN_CALL_RE = re.compile(r"!\s*[A-Za-z_][\w.]*\(")


def _fix_number(m: re.Match) -> str:
    mant, sign, exp = m.group(1), m.group(2), m.group(3)
    if mant.endswith("."):
        mant += "0"
    if exp is None:
        return mant
    return f"{mant}E{sign or '+'}{exp}"


def normalize_formula(formula: str) -> str:
    """Formula text as ``formulas`` accepts it: ``=``-prefixed, ``70E9`` -> ``70E+9``.

    Only text outside string literals and quoted sheet names is touched. A leading
    ``[1]!`` / ``'napkin.xlam'!`` add-in prefix before a function name is dropped.
    """
    text = formula.strip()
    if text.startswith("{=") and text.endswith("}"):
        text = text[1:-1]
    if not text.startswith("="):
        text = "=" + text
    out = []
    segs = _SEGMENT_RE.findall(text)
    for i, seg in enumerate(segs):
        if seg[0] == "'" and i + 1 < len(segs) and _QUOTED_ADDIN_RE.fullmatch(seg) \
                and _ADDIN_CALL_RE.match(segs[i + 1]):
            segs[i + 1] = segs[i + 1][1:]  # 'napkin.xlam'!RIDGE( -> RIDGE(
            continue
        if seg[0] in "\"'":
            out.append(seg)
        else:
            seg = _NUMBER_RE.sub(_fix_number, seg)
            out.append(_ADDIN_PREFIX_RE.sub("", seg))
    text = "".join(out)
    if text.startswith("=="):
        text = text[1:]
    return text


# A cell / area / column / row reference, possibly sheet-qualified; string literals,
# identifiers and numbers are matched too so that a reference is never found inside one.
_LEX_RE = re.compile(
    r"""
    (?P<str>"(?:[^"]|"")*")
  | (?<![\w.$])
    (?P<ref>
      (?P<sheet>(?:'(?:[^']|'')+'|[A-Za-z_\\][\w.\\]*)!)?
      (?:
          (?P<a1>\$?[A-Za-z]{1,3}\$?\d+)(?::(?P<a2>\$?[A-Za-z]{1,3}\$?\d+))?
        | (?P<col1>\$?[A-Za-z]{1,3}):(?P<col2>\$?[A-Za-z]{1,3})
        | (?P<row1>\$?\d+):(?P<row2>\$?\d+)
      )
    )(?![\w.(!\[])
  | (?P<word>[A-Za-z_\\][\w.\\]*)
  | (?P<num>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)
    """,
    re.X,
)
_POSITIONAL_RE = re.compile(r"(?<![\w.])(?:(?:ROW|COLUMN)\s*\(\s*\)|CELL\s*\(|INDIRECT\s*\()", re.I)
_A1_RE = re.compile(r"(\$?)([A-Za-z]{1,3})(\$?)(\d+)")


@dataclass(frozen=True)
class _Tok:
    """A reference of a formula shape; relative coordinates are offsets to the cell."""

    sheet: str | None  # sheet name (unquoted) or None: the formula's own sheet
    r1: int
    r1a: bool
    c1: int
    c1a: bool
    r2: int
    r2a: bool
    c2: int
    c2a: bool

    def at(self, r: int, c: int):
        r1 = self.r1 if self.r1a else self.r1 + r
        c1 = self.c1 if self.c1a else self.c1 + c
        r2 = self.r2 if self.r2a else self.r2 + r
        c2 = self.c2 if self.c2a else self.c2 + c
        if min(r1, r2) < 1 or min(c1, c2) < 1 or max(r1, r2) > xv.MAX_ROW \
                or max(c1, c2) > xv.MAX_COL:
            return None
        return min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)

    def key(self) -> str:
        def k(v, a, axis):
            return f"{axis}{v}" if a else f"{axis}[{v}]"

        s = (self.sheet or "").upper()
        return f"\x00{s}!{k(self.r1, self.r1a, 'R')}{k(self.c1, self.c1a, 'C')}:" \
               f"{k(self.r2, self.r2a, 'R')}{k(self.c2, self.c2a, 'C')}\x00"


def _lex(text: str, row: int, col: int) -> tuple[str, list[_Tok]]:
    """(shape key, references) of a normalized formula at (row, col)."""
    parts, toks, pos = [], [], 0
    for m in _LEX_RE.finditer(text):
        if m.group("ref") is None:
            continue
        parts.append(text[pos: m.start()])
        pos = m.end()
        sheet = m.group("sheet")
        if sheet:
            sheet = sheet[:-1]
            if sheet.startswith("'"):
                sheet = sheet[1:-1].replace("''", "'")
        if m.group("a1"):
            a = _A1_RE.fullmatch(m.group("a1"))
            b = _A1_RE.fullmatch(m.group("a2") or m.group("a1"))
            vals = []
            for mm in (a, b):
                ra, cn, rr = mm.group(3) == "$", xv.col2num(mm.group(2)), int(mm.group(4))
                ca = mm.group(1) == "$"
                vals.append((rr if ra else rr - row, ra, cn if ca else cn - col, ca))
            (r1, r1a, c1, c1a), (r2, r2a, c2, c2a) = vals
        elif m.group("col1"):
            c1s, c2s = m.group("col1"), m.group("col2")
            c1a, c2a = c1s.startswith("$"), c2s.startswith("$")
            c1, c2 = xv.col2num(c1s.lstrip("$")), xv.col2num(c2s.lstrip("$"))
            c1, c2 = (c1 if c1a else c1 - col), (c2 if c2a else c2 - col)
            r1, r1a, r2, r2a = 1, True, xv.MAX_ROW, True
        else:
            r1s, r2s = m.group("row1"), m.group("row2")
            r1a, r2a = r1s.startswith("$"), r2s.startswith("$")
            r1, r2 = int(r1s.lstrip("$")), int(r2s.lstrip("$"))
            r1, r2 = (r1 if r1a else r1 - row), (r2 if r2a else r2 - row)
            c1, c1a, c2, c2a = 1, True, xv.MAX_COL, True
        tok = _Tok(sheet, r1, r1a, c1, c1a, r2, r2a, c2, c2a)
        toks.append(tok)
        parts.append(tok.key())
    parts.append(text[pos:])
    key = "".join(parts)
    if _POSITIONAL_RE.search(text):
        key += f"\x01@{row},{col}"
    return key, toks


def _quote_sheet(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


# --------------------------------------------------------------------------- results


def _error_from(v, msgs: Mapping[str, str] | None) -> ExcelError:
    code = str(v)
    if code not in EXCEL_ERROR_CODES:
        code = "#VALUE!"
    return ExcelError(code, (msgs or {}).get(code, ""))


def _store_scalar(v):
    """A formulas value as one cell stores it (formulas-native scalars)."""
    fx = _FX
    if isinstance(v, fx.Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        v = v.item() if v.ndim == 0 else (v.reshape(1, -1) if v.ndim == 1 else v)[0, 0]
    return _norm_scalar(v)


def _norm_scalar(v):
    fx = _FX
    if v is fx.EMPTY or v is None:
        return 0
    if isinstance(v, np.generic):
        v = v.item()
    if type(v) is _Omitted:
        return 0
    if isinstance(v, float) and not math.isfinite(v):
        return fx.errors["#NUM!"]
    if isinstance(v, str) and type(v) is not str and not isinstance(v, fx.XlError):
        v = str(v)
    return v


def _to_result(v, msgs):
    """A stored scalar as the API returns it."""
    if isinstance(v, _FX.XlError):
        return _error_from(v, msgs)
    return v


def _as_2d(v):
    fx = _FX
    if isinstance(v, fx.Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        if v.ndim == 0:
            return None
        return v.reshape(1, -1) if v.ndim == 1 else v
    return None


def _api_value(v, msgs):
    """Full result of a formula (arrays as nested lists) as the API returns it."""
    arr = _as_2d(v)
    if arr is None or arr.shape == (1, 1):
        return _to_result(_store_scalar(v), msgs)
    return [[_to_result(_norm_scalar(x), msgs) for x in row] for row in arr.tolist()]


def _error_codes(v) -> set[str]:
    fx = _FX
    arr = _as_2d(v)
    if arr is None:
        v = _store_scalar(v)
        return {str(v)} if isinstance(v, fx.XlError) else set()
    return {str(x) for x in arr.ravel() if isinstance(x, fx.XlError)}


# --------------------------------------------------------------------------- evaluate()


_EVAL_CACHE: dict[tuple, Any] = {}


def _compile(text: str, cell_ref: str | None, references=None):
    fx = _fx()
    cell = fx.Cell(cell_ref, text, context=None)
    ctx = {}
    if cell_ref is not None:
        sheet = cell.range.ranges[0].get("sheet")
        if sheet:
            ctx["sheet"] = sheet
    if cell.builder is None:  # not a formula
        raise ValueError(f"not a formula: {text!r}")
    builder = cell.builder

    def make_pipe():  # formulas' own compile (a compile-time dispatch + DispatchPipe)
        cell.compile(references=references, context=ctx)
        return cell.func.func

    try:  # ~10x cheaper: run the parsed graph as it is
        return _FastFn.from_builder(builder, cell.range, references or {}, ctx, make_pipe)
    except _Missing:
        return _fast(make_pipe())


class _Missing(Exception):
    """The fast executor could not produce the output: run the DispatchPipe instead."""


_FUNC_KEYS = {"type", "index", "inputs", "outputs", "function", "solve_cycle", "wait_inputs",
              "filters", "description", "function_id", "extra_inputs"}
_DATA_KEYS = {"type", "index", "filters", "wait_inputs", "description"}


class _FastFn:
    """Runs the small DAG of a compiled formula directly (the schedula dispatcher costs
    ~150 us per call). Same semantics for what formulas builds: data-node filters,
    NONE arguments dropped, NONE results not set; anything else falls back to formulas'
    own DispatchPipe (``pipe``)."""

    __slots__ = ("_pipe", "_make_pipe", "inputs", "in_ids", "in_filters", "consts", "steps",
                 "out")

    def __init__(self, dsp, inputs, out, extra_consts=None, pipe=None, make_pipe=None):
        nodes = dsp.nodes
        pred = dsp.dmap.pred
        self._pipe, self._make_pipe = pipe, make_pipe
        self.inputs, self.in_ids, self.out = inputs, list(inputs), out
        filters = {}
        for k, n in nodes.items():
            if n["type"] == "data":
                if not set(n) <= _DATA_KEYS or len(pred[k]) > 1:
                    raise _Missing
                filters[k] = tuple(n.get("filters", ()))
            elif n["type"] == "function":
                if not set(n) <= _FUNC_KEYS:
                    raise _Missing
            else:
                raise _Missing
        if out not in nodes:
            raise _Missing
        self.in_filters = [filters.get(k, ()) for k in self.in_ids]
        consts = dict(extra_consts or {})
        for k, d in dsp.default_values.items():
            if k in inputs or k in consts:
                continue
            v = d["value"]
            for f in filters.get(k, ()):
                v = f(v)
            consts[k] = v
        self.consts = consts
        # every source node must be given
        for k, n in nodes.items():
            if n["type"] == "data" and not pred[k] and k not in consts and k not in inputs:
                raise _Missing
        # functions in dependency order
        funcs = [k for k, n in nodes.items() if n["type"] == "function"]
        producer = {}
        for f in funcs:
            for o in nodes[f]["outputs"]:
                producer[o] = f
        order, seen = [], set()
        for f in funcs:
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
                for i in nodes[g]["inputs"]:
                    h = producer.get(i)
                    if h is not None and h not in seen:
                        stack.append((h, False))
        self.steps = [
            (nodes[g]["function"], tuple(nodes[g]["inputs"]), tuple(nodes[g]["outputs"]),
             tuple(nodes[g].get("filters", ())),
             tuple(filters.get(o, ()) for o in nodes[g]["outputs"]))
            for g in order
        ]

    @classmethod
    def from_pipe(cls, pipe):
        if len(pipe.outputs) != 1:
            raise _Missing
        return cls(pipe.dsp, pipe.inputs, pipe.outputs[0], pipe=pipe)

    @classmethod
    def from_builder(cls, builder, cell_range, references, context, make_pipe):
        """From the graph formulas' parser built, without its compile step: the inputs
        are found as ``AstBuilder.compile`` finds them."""
        fx = _FX
        from formulas.cell import CELL
        from formulas.errors import AnchorRangeName, InvalidRangeName

        dsp = builder.dsp
        pred = dsp.dmap.pred
        defaults = dsp.default_values
        inputs, consts = collections.OrderedDict(), {}
        for k in sorted(dsp.data_nodes, key=str):
            if pred[k]:
                continue
            if k in defaults:
                v = defaults[k]["value"]
                if isinstance(v, fx.Ranges) and v.ranges:
                    inputs[k] = v
            elif k is CELL:
                consts[k] = cell_range
            elif isinstance(k, fx.sh.Token):  # e.g. ISFORMULA's dispatcher
                raise _Missing
            elif isinstance(references.get(k), fx.Ranges):
                inputs[k] = references[k]
            else:
                try:
                    inputs[k] = fx.Ranges().push(k, context=context)
                except AnchorRangeName:
                    raise _Missing from None
                except InvalidRangeName:
                    inputs[k] = None
        out = builder.get_node_id(builder[-1])
        return cls(dsp, inputs, out, consts, make_pipe=make_pipe)

    @property
    def pipe(self):
        if self._pipe is None:
            self._pipe = self._make_pipe()
        return self._pipe

    def __call__(self, *args):
        fx = _FX
        NONE = fx.sh.NONE
        vals = dict(self.consts)
        for k, flt, v in zip(self.in_ids, self.in_filters, args, strict=False):
            for f in flt:
                v = f(v)
            vals[k] = v
        for func, ins, outs, ffl, ofl in self.steps:
            try:
                a = [vals[i] for i in ins]
            except KeyError:
                continue
            r = func(*[x for x in a if x is not NONE])
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
        try:
            v = vals[self.out]
            return v.value if isinstance(v, fx.Ranges) else v
        except (KeyError, fx.RangeValueError):
            raise _Missing from None


def _fast(pipe):
    try:
        return _FastFn.from_pipe(pipe)
    except _Missing:
        return pipe


def _call(fn, args):
    """Run a compiled formula; exceptions become Excel errors."""
    fx = _FX
    try:
        try:
            return fn(*args)
        except _Missing:
            return fn.pipe(*args)
    except Exception as ex:  # noqa: BLE001 - any failure is a cell error
        inner = getattr(ex, "ex", ex)
        if isinstance(inner, NotImplementedError):
            return fx.errors["#NAME?"]
        own = getattr(_STATE, "own", None)
        if own is not None and not own.get("#VALUE!"):
            own["#VALUE!"] = f"{type(inner).__name__}: {inner}"[:200]
        return fx.errors["#VALUE!"]


def evaluate(formula: str, functions: Mapping[str, Callable] | None = None):
    """Evaluate one formula (no workbook: references are empty cells, names ``#NAME?``).

    Returns float/int/bool/str, a list of rows for an array, or an :class:`ExcelError`.
    A malformed formula raises ``ValueError``.
    """
    fx = _fx()
    reg = _registry(functions)
    _ensure_registered(reg)
    text = normalize_formula(formula)
    key = (text, _REG_VERSION[0])
    fn = _EVAL_CACHE.get(key)
    if fn is None:
        try:
            fn = _compile(text, None)
        except Exception as ex:
            raise ValueError(f"cannot parse formula {formula!r}: {ex}") from None
        if len(_EVAL_CACHE) > 4096:
            _EVAL_CACHE.clear()
        _EVAL_CACHE[key] = fn
    args = []
    for rng in fn.inputs.values():
        if isinstance(rng, fx.Ranges) and rng.ranges:
            values = {}
            parts = []
            for r in rng.ranges:
                r1, n1 = int(r["r1"]) or 1, r["n1"] or 1
                r2 = min(int(r["r2"]), r1 + 999)
                n2 = min(r["n2"], n1 + 999)
                rd = fx.range2parts(None, sheet_id=r.get("sheet_id", ""), r1=str(r1), n1=n1,
                                    r2=str(r2), n2=n2)
                arr = np.empty((r2 - r1 + 1, n2 - n1 + 1), dtype=object)
                arr[:] = fx.EMPTY
                values[rd["name"]] = (rd, arr)
                parts.append(rd)
            args.append(fx.Ranges(tuple(parts), values))
        else:
            args.append(fx.errors["#NAME?"])
    own: dict[str, str] = {}
    _STATE.registry, _STATE.own, _STATE.inherited = reg, own, {}
    try:
        out = _call(fn, args)
    finally:
        _STATE.registry = _STATE.own = _STATE.inherited = None
    return _api_value(out, own)


# --------------------------------------------------------------------------- workbook


@dataclass
class _Sheet:
    name: str
    index: int
    sid: str  # formulas' sheet id
    fname: str = ""  # the name formulas sees (an alias when the name has a quote)
    values: dict = field(default_factory=dict)  # (r, c) -> stored value
    formula_at: dict = field(default_factory=dict)  # (r, c) -> node
    max_r: int = 1
    max_c: int = 1


@dataclass
class _Program:
    fn: Any
    plan: list  # per input: ("tok", i) | ("rng", parts) | ("name", NAME) | ("err", XlError)
    toks: list
    shared: bool


@dataclass(eq=False)
class _Node:
    label: str  # "Sheet!A1" or the defined name
    sheet: int
    r: int
    c: int
    prog: Any = None
    text: str | None = None  # normalized text at the shape origin
    origin: tuple | None = None  # (sheet, r, c) where text was written
    spill: tuple | None = None  # (r1, c1, r2, c2) of an array formula
    is_name: bool = False
    specs: list = field(default_factory=list)
    deps: list = field(default_factory=list)
    value: Any = None
    msgs: dict = field(default_factory=dict)
    error: ExcelError | None = None  # set when the formula cannot be used at all


class _Workbook:
    def __init__(self, zf: ZipFile, registry: dict[str, Callable]):
        self.fx = _fx()
        self.registry = registry
        self.book = xv.read_book(zf)
        self.sheets: list[_Sheet] = []
        self.sid_map: dict[str, int] = {}
        # formulas cannot name ranges of sheets whose name has a quote: give it an alias
        taken = {p.name.upper() for p in self.book.sheets}
        self.aliases: dict[str, str] = {}  # NAME.upper() -> alias
        for part in self.book.sheets:
            fname = part.name
            if "'" in fname:
                n = part.index + 1
                while f"NAPKIN_SHEET_{n}" in taken:
                    n += 1000
                fname = f"NAPKIN_SHEET_{n}"
                taken.add(fname)
                self.aliases[part.name.upper()] = fname
            sid = self.fx.build_sheet_id(sheet=fname)
            s = _Sheet(part.name, part.index, sid, fname=fname)
            self.sheets.append(s)
            self.sid_map.setdefault(sid, part.index)
        self.xml: dict[int, str] = {}
        self.nodes: list[_Node] = []
        self.name_nodes: dict[tuple[str, int | None], _Node] = {}
        self.name_ranges: dict[tuple[str, int | None], Any] = {}
        self.programs: dict[Any, _Program] = {}
        self._rng_cache: dict[tuple, Any] = {}
        self._dict_cache: dict[tuple, dict] = {}
        self._deps_cache: dict[tuple, list] = {}
        self._refs_cache: dict[int, dict] = {}
        self._load(zf)

    # ---------------------------------------------------------------- loading
    def _load(self, zf: ZipFile) -> None:
        ss = self.book.shared_strings
        for sheet, part in zip(self.sheets, self.book.sheets, strict=True):
            xml = zf.read(part.path).decode("utf-8")
            self.xml[sheet.index] = xml
            shared: dict[str, tuple[str, int, int]] = {}
            pending_shared = []
            for cell in xv.read_cells(xml):
                pos = (cell.row, cell.col)
                sheet.max_r, sheet.max_c = max(sheet.max_r, cell.row), max(sheet.max_c, cell.col)
                if cell.f is not None and cell.f_type != "dataTable":
                    node = _Node(self._label(sheet, cell.row, cell.col), sheet.index,
                                 cell.row, cell.col)
                    if cell.f_type == "shared" and not cell.f.strip():
                        pending_shared.append((node, cell.f_si))
                    else:
                        node.text = self._alias(normalize_formula(cell.f))
                        node.origin = (sheet.index, cell.row, cell.col)
                        if cell.f_type == "shared" and cell.f_si is not None:
                            shared[cell.f_si] = (node.text, cell.row, cell.col)
                    if cell.f_type == "array" and cell.f_ref:
                        try:
                            r1, c1, r2, c2 = xv.parse_area(cell.f_ref)
                        except ValueError:
                            r1, c1, r2, c2 = cell.row, cell.col, cell.row, cell.col
                        node.spill = (r1, c1, r2, c2)
                        sheet.max_r, sheet.max_c = max(sheet.max_r, r2), max(sheet.max_c, c2)
                    self.nodes.append(node)
                    for p in self._positions(node):
                        sheet.formula_at.setdefault(p, node)
                    continue
                sheet.values[pos] = self._cell_value(cell, ss)
            for node, si in pending_shared:
                master = shared.get(si)
                if master is None:
                    node.error = ExcelError("#REF!", "shared formula without its master cell")
                    continue
                node.text = master[0]
                node.origin = (sheet.index, master[1], master[2])
        # array formula cells keep no stale values of their own
        for sheet in self.sheets:
            for p in sheet.formula_at:
                sheet.values.pop(p, None)
        self._load_names()

    def _alias(self, text: str) -> str:
        """Formula text with quoted sheet names that have an alias replaced by it."""
        if not self.aliases or "'" not in text:
            return text
        segs = _SEGMENT_RE.findall(text)
        for i, seg in enumerate(segs):
            if seg.startswith("'") and len(seg) > 1 and i + 1 < len(segs) \
                    and segs[i + 1].startswith("!"):
                alias = self.aliases.get(seg[1:-1].replace("''", "'").upper())
                if alias:
                    segs[i] = alias
        return "".join(segs)

    @staticmethod
    def _positions(node: _Node):
        if node.spill is None:
            return [(node.r, node.c)]
        r1, c1, r2, c2 = node.spill
        return [(r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]

    def _label(self, sheet: _Sheet, r: int, c: int) -> str:
        name = sheet.name
        if not re.fullmatch(r"[A-Za-z_][\w.]*", name):
            name = _quote_sheet(name)
        return f"{name}!{xv.num2col(c)}{r}"

    def _cell_value(self, cell: xv.RawCell, ss: list[str]):
        fx = self.fx
        t, v = cell.t or "n", cell.v
        if t == "inlineStr":
            return cell.inline if cell.inline is not None else (v or "")
        if v is None:
            return fx.EMPTY if cell.inline is None else cell.inline
        if t == "s":
            try:
                return ss[int(v)]
            except (ValueError, IndexError):
                return fx.errors["#REF!"]
        if t == "str":
            return xv.decode_xstring(v)
        if t == "b":
            return v.strip() in ("1", "true")
        if t == "e":
            return fx.errors.get(v.strip(), fx.errors["#VALUE!"])
        try:
            if re.fullmatch(r"-?\d+", v.strip()) and len(v.strip()) < 16:
                return int(v)
            return float(v)
        except ValueError:
            return v

    def _load_names(self) -> None:
        fx = self.fx
        for dn in self.book.names:
            if dn.name.startswith("_xlnm.") or not dn.text.strip():
                continue
            key = (dn.name.upper(), dn.local_sheet)
            text = self._alias(normalize_formula(dn.text))
            rng = None
            body = text[1:].strip()
            m = _LEX_RE.match(body)
            if m and m.group("ref") and m.group("sheet") and m.end() == len(body):
                try:  # a plain (sheet-qualified) range: a reference, as Excel passes it
                    rng = fx.Ranges().push(body.replace("$", ""))
                    if self._parts(rng) is None:
                        rng = None
                except Exception:  # noqa: BLE001 - then it is computed like a formula
                    rng = None
            if rng is not None:
                self.name_ranges[key] = rng
                continue
            home = dn.local_sheet if dn.local_sheet is not None else 0
            node = _Node(dn.name, home, 1, 1, text=text, origin=(home, 1, 1), is_name=True)
            self.name_nodes[key] = node

    def _references(self, sheet_idx: int) -> dict:
        refs = self._refs_cache.get(sheet_idx)
        if refs is None:
            refs = {}
            for (name, scope), rng in self.name_ranges.items():
                if scope is None and name not in refs:
                    refs[name] = rng
            for (name, scope), rng in self.name_ranges.items():
                if scope is not None:
                    refs[f"{self.sheets[scope].sid}!{name}"] = rng
                    if scope == sheet_idx:
                        refs[name] = rng
            self._refs_cache[sheet_idx] = refs
        return refs

    def _find_name(self, name: str, sheet_idx: int):
        if "!" in name:
            sid, _, bare = name.rpartition("!")
            idx = self.sid_map.get(sid)
            return self.name_nodes.get((bare, idx)) if idx is not None else None
        return self.name_nodes.get((name, sheet_idx)) or self.name_nodes.get((name, None))

    # ---------------------------------------------------------------- compiling
    def _parts(self, rng):
        """formulas Ranges -> [(sheet, r1, c1, r2, c2), ...] or None (unknown sheet)."""
        parts = []
        for r in rng.ranges:
            idx = self.sid_map.get(r.get("sheet_id", ""))
            if idx is None:
                return None
            r1, r2 = int(r["r1"]) or 1, int(r["r2"]) or xv.MAX_ROW
            n1, n2 = r["n1"] or 1, r["n2"] or xv.MAX_COL
            parts.append((idx, r1, n1, r2, n2))
        return parts

    def _program(self, node: _Node) -> _Program:
        """The compiled program of a node: its shape's, or (when the inputs of a compile
        cannot be mapped to the shape's references) one of its own."""
        osheet, orow, ocol = node.origin
        key, _ = _lex(node.text, orow, ocol)
        key = (osheet, key)
        prog = self.programs.get(key)
        if prog is not None:
            return prog
        own_key = key + ((node.sheet, node.r, node.c),)
        prog = self.programs.get(own_key)
        if prog is not None:
            return prog
        text = node.text
        if (node.sheet, node.r, node.c) != node.origin:  # a cell of a shared formula
            from openpyxl.formula.translate import Translator

            text = Translator(text, f"{xv.num2col(ocol)}{orow}").translate_formula(
                f"{xv.num2col(node.c)}{node.r}")
        _, toks = _lex(text, node.r, node.c)
        prog = self._compile_at(text, node.sheet, node.r, node.c, toks)
        self.programs[key if prog.shared else own_key] = prog
        return prog

    def _compile_at(self, text: str, sidx: int, row: int, col: int, toks) -> _Program:
        fx = self.fx
        ref = f"{_quote_sheet(self.sheets[sidx].fname)}!{xv.num2col(col)}{row}"
        refs = self._references(sidx)
        fn = _compile(text, ref, refs)
        tok_coords = []
        for t in toks:
            ts = self.sid_map.get(fx.build_sheet_id(sheet=t.sheet)) if t.sheet else sidx
            at = t.at(row, col)
            tok_coords.append(None if (ts is None or at is None) else (ts,) + at)
        plan, shared = [], True
        for k, rng in fn.inputs.items():
            if isinstance(k, fx.sh.Token):  # e.g. ISFORMULA's dispatcher input
                plan.append(("err", fx.errors["#VALUE!"]))
                continue
            if not isinstance(rng, fx.Ranges) or not rng.ranges:
                nn = self._find_name(str(k).upper(), sidx)
                plan.append(("name", nn) if nn is not None else ("err", fx.errors["#NAME?"]))
                continue
            parts = self._parts(rng)
            if parts is None:
                plan.append(("err", fx.errors["#REF!"]))
                continue
            if str(k).upper() in refs:  # a defined name that is a plain range
                plan.append(("rng", tuple(parts)))
                continue
            hits = [i for i, tc in enumerate(tok_coords) if len(parts) == 1 and tc == parts[0]]
            if hits and len({toks[i] for i in hits}) == 1:
                plan.append(("tok", hits[0]))
            else:
                shared = False
                plan.append(("rng", tuple(parts)))
        if not shared:  # valid for (row, col) only: make every input absolute
            plan = [("rng", (tok_coords[a],)) if k == "tok" else (k, a) for k, a in plan]
        return _Program(fn, plan, list(toks), shared)

    def _prepare(self, node: _Node) -> None:
        fx = self.fx
        if node.error is not None:
            return
        try:
            prog = self._program(node)
        except Exception as ex:  # noqa: BLE001 - a formula formulas cannot parse
            node.error = ExcelError("#NAME?", f"cannot evaluate formula: {type(ex).__name__}")
            return
        node.prog = prog
        specs = []
        for kind, arg in prog.plan:
            if kind == "tok":
                tok = prog.toks[arg]
                sidx = self.sid_map.get(fx.build_sheet_id(sheet=tok.sheet)) if tok.sheet \
                    else node.sheet
                at = tok.at(node.r, node.c)
                if sidx is None or at is None:
                    specs.append(("err", fx.errors["#REF!"]))
                else:
                    specs.append(("rng", ((sidx,) + at,)))
            else:
                specs.append((kind, arg))
        node.specs = specs
        deps = []
        for kind, arg in specs:
            if kind == "rng":
                for part in arg:
                    deps.extend(self._range_deps(part))
            elif kind == "name":
                deps.append(arg)
        node.deps = deps

    def _clip(self, part):
        idx, r1, c1, r2, c2 = part
        s = self.sheets[idx]
        return idx, r1, c1, max(r1, min(r2, s.max_r)), max(c1, min(c2, s.max_c))

    def _range_deps(self, part) -> list:
        part = self._clip(part)
        got = self._deps_cache.get(part)
        if got is None:
            idx, r1, c1, r2, c2 = part
            fa = self.sheets[idx].formula_at
            if (r2 - r1 + 1) * (c2 - c1 + 1) <= len(fa):
                found = (fa.get((r, c)) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1))
                got = list({id(n): n for n in found if n is not None}.values())
            else:
                got = list({id(n): n for (r, c), n in fa.items()
                            if r1 <= r <= r2 and c1 <= c <= c2}.values())
            self._deps_cache[part] = got
        return got

    # ---------------------------------------------------------------- evaluation
    def _order(self) -> tuple[list[_Node], set]:
        order, state, cyclic = [], {}, set()
        for root in self.nodes:
            if root in state:
                continue
            stack = [(root, iter(root.deps))]
            state[root] = 1
            while stack:
                node, it = stack[-1]
                for d in it:
                    st = state.get(d)
                    if st is None:
                        state[d] = 1
                        stack.append((d, iter(d.deps)))
                        break
                    if st == 1:  # back edge: a cycle
                        on_path = [n for n, _ in stack]
                        cyclic.update(on_path[on_path.index(d):])
                else:
                    stack.pop()
                    state[node] = 2
                    order.append(node)
        return order, cyclic

    def _arg(self, spec):
        fx = self.fx
        kind, arg = spec
        if kind == "rng":
            got = self._rng_cache.get(arg)
            if got is None:
                parts, values = [], {}
                for part in arg:
                    idx, r1, c1, r2, c2 = self._clip(part)
                    sheet = self.sheets[idx]
                    dk = (idx, r1, c1, r2, c2)
                    rd = self._dict_cache.get(dk)
                    if rd is None:
                        rd = self._dict_cache[dk] = fx.range2parts(
                            None, sheet_id=sheet.sid, r1=str(r1), n1=c1, r2=str(r2), n2=c2)
                    values[rd["name"]] = (rd, self._block(sheet, r1, c1, r2, c2))
                    parts.append(rd)
                got = self._rng_cache[arg] = fx.Ranges(tuple(parts), values)
            return got
        if kind == "name":
            return arg.value
        return arg

    def _block(self, sheet: _Sheet, r1, c1, r2, c2):
        arr = np.empty((r2 - r1 + 1, c2 - c1 + 1), dtype=object)
        arr[:] = self.fx.EMPTY
        vals = sheet.values
        if arr.size <= len(vals):
            for r in range(r1, r2 + 1):
                for c in range(c1, c2 + 1):
                    v = vals.get((r, c))
                    if v is not None:
                        arr[r - r1, c - c1] = v
        else:
            for (r, c), v in vals.items():
                if r1 <= r <= r2 and c1 <= c <= c2:
                    arr[r - r1, c - c1] = v
        return arr

    def run(self) -> None:
        names = list(self.name_nodes.values())
        for node in names + self.nodes:
            self._prepare(node)
        all_nodes = self.nodes
        self.nodes = names + all_nodes  # names first so that unused ones are computed too
        order, cyclic = self._order()
        self.cyclic = cyclic
        self.nodes = all_nodes
        _STATE.registry = self.registry
        try:
            for node in order:
                self._eval(node, node in cyclic)
        finally:
            _STATE.registry = _STATE.own = _STATE.inherited = None

    def _eval(self, node: _Node, cyclic: bool) -> None:
        fx = self.fx
        inherited: dict[str, str] = {}
        for d in node.deps:
            for code, msg in d.msgs.items():
                if msg and code not in inherited:
                    inherited[code] = msg
        own: dict[str, str] = {}
        if cyclic:
            out = fx.errors["#VALUE!"]
            own["#VALUE!"] = "circular reference"
        elif node.error is not None:
            out = fx.errors[node.error.code]
            own[node.error.code] = node.error.message
        else:
            _STATE.own, _STATE.inherited = own, inherited
            args = [self._arg(s) for s in node.specs]
            out = _call(node.prog.fn, args)
        codes = _error_codes(out)
        node.msgs = {c: own.get(c) or inherited.get(c, "") for c in codes}
        node.value = out
        if node.is_name:
            return
        sheet = self.sheets[node.sheet]
        if node.spill is None:
            sheet.values[(node.r, node.c)] = _store_scalar(out)
            return
        r1, c1, r2, c2 = node.spill
        shape = (r2 - r1 + 1, c2 - c1 + 1)
        arr = _as_2d(out)
        if arr is None:  # a scalar fills the range (np.full would turn XlError into str)
            arr = np.empty(shape, dtype=object)
            v = _store_scalar(out)
            for idx in np.ndindex(shape):
                arr[idx] = v
        else:
            arr = fx.reshape(np.asarray(arr, dtype=object), shape)
        for (i, j), v in np.ndenumerate(arr):
            sheet.values[(r1 + i, c1 + j)] = _norm_scalar(v)

    def results(self) -> dict[str, Any]:
        out = {}
        for node in self.nodes:
            sheet = self.sheets[node.sheet]
            for (r, c) in self._positions(node):
                v = sheet.values.get((r, c), 0)
                out[self._label(sheet, r, c)] = _to_result(v, node.msgs)
        return out

    def updates(self) -> dict[int, dict]:
        """Per sheet index: {(r, c): (t, <v> text)} for every formula cell."""
        fx = self.fx
        ups: dict[int, dict] = {}
        for node in self.nodes:
            sheet = self.sheets[node.sheet]
            u = ups.setdefault(node.sheet, {})
            for pos in self._positions(node):
                u[pos] = _xml_value(sheet.values.get(pos, 0), fx)
        return ups


def _xml_value(v, fx) -> tuple[str | None, str]:
    if isinstance(v, fx.XlError):
        code = str(v)
        return "e", code if code in EXCEL_ERROR_CODES else "#VALUE!"
    if isinstance(v, bool):
        return "b", "1" if v else "0"
    if isinstance(v, int):
        return None, str(v)
    if isinstance(v, float):
        return None, _num_text(v)
    if v is fx.EMPTY or v is None:
        return None, "0"
    return "str", xv.xml_escape_text(str(v))


def _num_text(v: float) -> str:
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return repr(v)


_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\s*\(")
_STRING = re.compile(r'"(?:[^"]|"")*"')


def _refuse_unknown_functions(wb) -> None:
    """Raise WorkbookError naming a function that is neither Excel's nor ours."""
    known = set(wb.fx.get_functions()) | set(wb.registry)
    for node in wb.nodes + list(wb.name_nodes.values()):
        if not node.text:
            continue
        for name in _CALL.findall(_STRING.sub('""', node.text)):
            key = name.upper()
            if key not in known and f"_XLFN.{key}" not in known and \
                    key.removeprefix("_XLFN.") not in known:
                raise guard.WorkbookError(
                    f"unknown function {name}() in {node.label}: neither Excel's (as far as "
                    "the formulas package implements them) nor napkin's")


def calc_workbook(
    src: str | os.PathLike,
    dst: str | os.PathLike,
    functions: Mapping[str, Callable] | None = None,
    *,
    in_place: bool = False,
    backup: bool = True,
    recalc_on_open: bool = False,
    strict: bool = True,
) -> dict[str, Any]:
    """Compute every formula of ``src`` and write it with cached values to ``dst``.

    Every zip member of ``src`` is copied unchanged except the worksheets (only the
    cached value and ``t`` of formula cells change) and ``xl/workbook.xml`` (only
    ``<calcPr fullCalcOnLoad>``: removed by default so that spreadsheet programs show the
    computed values instead of recomputing without our functions; ``recalc_on_open=True``
    sets it). ``dst`` is written atomically (temp file + rename); on failure no ``dst``
    is left behind and ``src`` is never modified. ``dst == src`` needs ``in_place=True``
    (then ``backup=True`` keeps a copy as ``<name>.bak`` first).

    Returns ``{"Sheet!A1": value}`` for every formula cell (also every cell of an array
    formula's range); errors are :class:`ExcelError` (see :func:`to_json`).

    Hostile or broken files are refused first (:func:`addin.guard.check_package`). With
    ``strict`` (the default, and what ``napkin calc`` does) a workbook that calls a
    function neither Excel's set nor our catalog knows, or that has a circular
    reference, is refused too: :class:`~addin.guard.WorkbookError` names the cells, and
    no ``dst`` is written.
    """
    src, dst = Path(src), Path(dst)
    guard.check_package(src)
    if package.same_file(src, dst) and not in_place:
        raise ValueError(f"refusing to overwrite the source workbook {src} (pass in_place=True)")
    reg = _registry(functions)
    _ensure_registered(reg)
    with ZipFile(src) as zf:
        wb = _Workbook(zf, reg)
        if strict:
            _refuse_unknown_functions(wb)
        wb.run()
        if strict and wb.cyclic:
            cells = sorted(n.label for n in wb.cyclic if not n.is_name)
            more = f" and {len(cells) - 5} more" if len(cells) > 5 else ""
            raise guard.WorkbookError(f"circular reference through {', '.join(cells[:5])}{more}")
        ups = wb.updates()
        new_parts: dict[str, bytes] = {}
        for sheet in wb.sheets:
            u = ups.get(sheet.index)
            if u:
                xml = xv.write_values(wb.xml[sheet.index], u)
                new_parts[wb.book.sheets[sheet.index].path] = xml.encode("utf-8")
        wbxml = zf.read(wb.book.workbook_path).decode("utf-8")
        new_wb = xv.set_full_calc_on_load(wbxml, recalc_on_open)
        if new_wb != wbxml:
            new_parts[wb.book.workbook_path] = new_wb.encode("utf-8")
        results = wb.results()

        package.rewrite(zf, src, dst, new_parts, in_place=in_place, backup=backup)
    return results


# --------------------------------------------------------------------------- output


def format_value(value) -> str:
    """A result as the CLI prints it: shortest round-trip numbers, TRUE/FALSE, text as is,
    ``#NUM! message`` for errors, arrays one row per line with tab-separated cells."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        rows = value if value and all(isinstance(r, (list, tuple)) for r in value) else [value]
        return "\n".join("\t".join(format_value(c) for c in row) for row in rows)
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, ExcelError):
        return str(value)
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value) and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if value is None:
        return ""
    return str(value)


def to_json(value):
    """A result with errors as ``{"error": code, "message": text}`` (for JSON output)."""
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, ExcelError):
        return {"error": value.code, "message": value.message}
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


to_jsonable = to_json
