"""One formula without a workbook: what ``napkin eval`` computes.

Kept apart from ``addin.engine.api`` (workbooks) so that evaluating a formula imports
only the formula's layers (``addin.formula.fx``, ``addin.formula.calls``,
``addin.engine.executor``), not the workbook reader, writer and package checks.
``addin.engine.api.evaluate`` is this function.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from addin.engine import executor
from addin.engine.boot import ready
from addin.formula import calls, context, fx, ranges
from addin.formula.formula_text import normalize_formula

_EVAL_CACHE: dict[tuple, Any] = {}


class CompileFailure(Exception):
    """napkin's own code failed compiling a formula (a bug, not the formula's syntax): the
    exception it raised, as ``"TypeError: ..."``."""


def evaluate(formula: str, functions: Mapping[str, Callable] | None = None):
    """Evaluate one formula (no workbook: references are empty cells, names ``#NAME?``).

    Returns float/int/bool/str, a list of rows for an array, or an ``ExcelError``.
    A malformed formula raises ``ValueError``; an exception of napkin's code compiling
    it, ``CompileFailure``.
    """
    ns = ready()
    reg = calls.registry(functions)
    calls.ensure_registered(reg)
    text = normalize_formula(formula)
    key = (text, calls.REG_VERSION[0])
    fn = _EVAL_CACHE.get(key)
    if fn is None:
        try:
            fn = executor.compile_formula(text, None)
        except Exception as ex:
            if fx.is_syntax_error(ex):  # formulas' parser rejects it
                raise ValueError(f"cannot parse formula {formula!r}: {ex}") from None
            raise CompileFailure(f"{type(ex).__name__}: {ex}") from ex
        if len(_EVAL_CACHE) > 4096:
            _EVAL_CACHE.clear()
        _EVAL_CACHE[key] = fn
    args = []
    for rng in fn.inputs.values():
        if isinstance(rng, ns.Ranges) and rng.ranges:
            refs, arrays = [], []
            for sid, r1, n1, r2, n2 in ranges.areas(rng):
                r1, n1 = r1 or 1, n1 or 1
                r2, n2 = min(r2, r1 + 999), min(n2, n1 + 999)
                arr = np.empty((r2 - r1 + 1, n2 - n1 + 1), dtype=object)
                arr[:] = ns.EMPTY
                refs.append(ranges.area_ref(sid, r1, n1, r2, n2))
                arrays.append(arr)
            args.append(ranges.make_ranges(refs, arrays))
        else:
            args.append(ns.errors["#NAME?"])
    own: dict[str, str] = {}
    context.STATE.registry, context.STATE.own, context.STATE.inherited = reg, own, {}
    try:
        out = executor.call(fn, args)
    finally:
        calls.clear()
    return executor.api_value(out, own)
