"""``+ - * /`` with a short way for two numbers, in front of formulas' operators: a
replacement of ``addin.formula.patches.PATCHES`` (``fast_arithmetic``).

Everything from formulas comes through ``addin.formula.fx.load``'s namespace.
"""

from __future__ import annotations

import functools
import math

from addin.formula.fx import load


def fast_arithmetic(original, key: str):
    """formulas' operator ``key`` (``+ - * /``) with a short way for two numbers
    (``_fast_arithmetic``); a replacement of ``addin.formula.patches.PATCHES``,
    after the corrections (it wraps the operators they leave)."""
    ns = load()
    return _fast_arithmetic(_ARITHMETIC[key], original, ns.Array, ns.Ranges)


_ARITHMETIC = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
               "/": lambda x, y: x / y}
_NUMBER = (int, float)


def _fast_arithmetic(op, slow, Array, Ranges):
    """formulas' ``+ - * /`` with a short way for two numbers, without the
    ``np.vectorize`` its operator runs even for one cell. Each operand is a number, or one
    cell (a reference, or a 1x1 or 0-d array) holding a number, not a boolean; the
    result is what formulas' operator gives for them: the float of ``op`` on floats, as a
    1x1 array when an operand was one (a 0-d array otherwise). Anything else (text,
    booleans, empty cells, errors, larger ranges, a zero divisor, a result that is not
    finite) goes to formulas' operator, itself without ``np.vectorize`` for one-cell
    operands (``addin.formula.one_cell``: a logical value, an empty cell or an error
    value in a sum of checks, as napkin native's helper cells write them)."""
    from addin.formula.one_cell import one_cell

    by_cell = one_cell(slow)

    def one(v):
        if type(v) in _NUMBER:
            return v, False
        if isinstance(v, Ranges):
            try:
                v = v.value
            except Exception:  # formulas' operator says what it is
                return None, False
        if isinstance(v, _np().ndarray) and v.size == 1 and v.ndim in (0, 2):
            e = v.item()
            if type(e) in _NUMBER:
                return e, v.ndim == 2
        return None, False

    def arithmetic(*args):
        if len(args) == 2:
            x, x2 = one(args[0])
            if x is not None:
                y, y2 = one(args[1])
                if y is not None and (y or op is not _ARITHMETIC["/"]):
                    r = op(float(x), float(y))
                    if math.isfinite(r):
                        return _np().asarray([[r]] if x2 or y2 else r, object).view(Array)
        return by_cell(*args)

    return functools.update_wrapper(arithmetic, slow)


def _np():
    import numpy

    return numpy
