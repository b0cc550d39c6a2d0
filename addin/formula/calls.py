"""How our functions are called from formulas: the registry, the argument and result
conversions, and the messages an error value carries.

Each name of the registry (the catalog, ``udfs.catalog.CATALOG``, by default) is registered with
``formulas`` through a thin wrapper that converts arguments to plain Python: a single
cell or scalar -> float/int/bool/str, an empty cell -> ``None``, a range or array -> list
of rows (always 2-D, even for one row or one column), an Excel error ->
``ExcelError`` (with the message of the cell it came from, when known). Omitted
arguments are not passed at all when they are trailing (``=RIDGE(989,3.35,)`` calls
``RIDGE(989, 3.35)``), and passed as ``None`` when followed by a given one (``=F(1,,3)``
calls ``F(1, None, 3)``). Results may be float/int/bool/str, lists or numpy arrays, an
``ExcelError`` (returned or raised). Any other exception becomes ``#VALUE!`` with
the exception text as message.

Which registry is in force, and the messages of the cell being computed, are per thread
(``addin.formula.context.STATE``).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from addin.formula import fx
from addin.formula.arrays import as_2d
from addin.formula.context import STATE, message_for, record
from udfs.machinery.errors import EXCEL_ERROR_CODES, ExcelError

_REGISTERED: dict[str, Any] = {}  # NAME -> original formulas function (or None)
REG_VERSION = [0]  # bumped when a name is registered (compiled formulas may change)


def default_functions() -> Mapping[str, Callable]:
    from udfs import catalog  # lazily: the catalog imports pint etc.

    functions = getattr(catalog, "FUNCTIONS", None)
    return functions if functions is not None else catalog.CATALOG


def registry(functions) -> dict[str, Callable]:
    """``{NAME: function}`` of ``functions`` (the catalog when None)."""
    if functions is None:
        functions = default_functions()
    return {str(k).upper(): v for k, v in functions.items()}


def ensure_registered(names) -> None:
    new = [n for n in names if n not in _REGISTERED]
    if not new:
        return
    with fx._LOCK:
        for name in new:
            if name in _REGISTERED:
                continue
            _REGISTERED[name] = fx.register(name, _make_wrapper(name))
            fx._OURS.add(name)
        REG_VERSION[0] += 1


def clear() -> None:
    """Forget the registry and messages of this thread."""
    STATE.registry = STATE.own = STATE.inherited = None


def _make_wrapper(name: str):
    def udf(compiling, *args):
        ns = fx.load()
        if compiling:
            return ns.NONE
        reg = getattr(STATE, "registry", None) or {}
        func = reg.get(name)
        if func is None:
            original = _REGISTERED.get(name)
            if original is not None:
                if isinstance(original, dict):  # e.g. IF: no way to call it from here
                    return ns.errors["#NAME?"]
                return original(*args)
            return ns.errors["#NAME?"]
        n = len(args)
        while n and args[n - 1] is fx.OMITTED:
            n -= 1
        py = [None if a is fx.OMITTED else _to_py_arg(a) for a in args[:n]]
        try:
            res = func(*py)
        except ExcelError as ex:
            res = ex
        except Exception as ex:  # a catalog function should not raise; be safe anyway
            res = ExcelError("#VALUE!", arity_message(name, func, len(py))
                             or f"{name}: {type(ex).__name__}: {ex}")
        return _from_py_result(res)

    udf.__name__ = name
    return udf


def arity_message(name: str, func, given: int) -> str | None:
    """Too few or too many arguments, said as Excel's Insert Function dialog shows the
    function (optional arguments in brackets); None when the count is right."""
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    params = [p for p in sig.parameters.values() if p.kind in kinds]
    more = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in sig.parameters.values())
    required = [p.name for p in params if p.default is inspect.Parameter.empty]
    shown = [p.name if p.default is inspect.Parameter.empty else f"[{p.name}]" for p in params]
    usage = f"{name}({', '.join(shown + (['...'] if more else []))})"
    if given < len(required):
        missing = required[given:]
        verb = "is" if len(missing) == 1 else "are"
        return f"{name} has too few arguments: {', '.join(missing)} {verb} missing; " \
               f"the function is {usage}"
    if given > len(params) and not more:
        return f"{name} has too many arguments ({given} given, at most {len(params)}); " \
               f"the function is {usage}"
    return None


def suggest(name: str, registry) -> str | None:
    """The function most like ``name`` (ours first, then Excel's), or None."""
    import difflib

    key = name.upper()
    near = difflib.get_close_matches(key, sorted(registry), n=1, cutoff=0.6) or \
        difflib.get_close_matches(key, sorted(fx.function_names()), n=1, cutoff=0.75)
    return near[0] if near else None


fx.on_overflow.append(lambda text: record(ExcelError("#NUM!", text)))


def _to_py_scalar(v):
    t = type(v)
    if t is float or t is int:  # most cells
        return v
    ns = fx.load()
    if v is ns.EMPTY or v is None:
        return None
    if isinstance(v, ns.XlError):
        code = str(v)
        if code not in EXCEL_ERROR_CODES:
            code = "#VALUE!"
        return ExcelError(code, message_for(code))
    if isinstance(v, np.generic):
        v = v.item()
    if fx.is_omitted(v):
        return 0
    if isinstance(v, str) and type(v) is not str:
        v = str(v)
    return v


def _to_py_arg(a):
    ns = fx.load()
    if isinstance(a, ns.Ranges):
        a = a.value
    if isinstance(a, np.ndarray):
        arr = as_2d(a)
        if arr is None:  # a 0-d array
            return _to_py_scalar(a.item())
        if arr.shape == (1, 1):
            return _to_py_scalar(arr[0, 0])
        return [[_to_py_scalar(x) for x in row] for row in arr.tolist()]
    if isinstance(a, (list, tuple)):
        return [[_to_py_scalar(x) for x in row] if isinstance(row, (list, tuple))
                else _to_py_scalar(row) for row in a]
    return _to_py_scalar(a)


def _from_py_scalar(v):
    if type(v) is float and math.isfinite(v):  # most results
        return v
    ns = fx.load()
    if isinstance(v, ExcelError):
        record(v)
        return ns.errors.get(v.code, ns.errors["#VALUE!"])
    if v is None:
        return ns.EMPTY
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        if isinstance(v, float) and not math.isfinite(v):
            record(ExcelError("#NUM!", "result is not a finite number"))
            return ns.errors["#NUM!"]
        return v
    if isinstance(v, str):
        return v
    if isinstance(v, ns.XlError):
        return v
    record(ExcelError("#VALUE!", f"unsupported result type {type(v).__name__}"))
    return ns.errors["#VALUE!"]


def _from_py_result(res):
    ns = fx.load()
    if isinstance(res, (list, tuple, np.ndarray)):
        values = np.asarray(res, dtype=object)
        arr = as_2d(values)
        if arr is None:  # a 0-d array
            return _from_py_scalar(values.item())
        if arr.ndim != 2 or arr.size == 0:
            record(ExcelError("#VALUE!", "result array must be 2-D and not empty"))
            return ns.errors["#VALUE!"]
        out = np.empty(arr.shape, dtype=object)
        for idx, x in np.ndenumerate(arr):
            out[idx] = _from_py_scalar(x)
        return out.view(ns.Array)
    return _from_py_scalar(res)
