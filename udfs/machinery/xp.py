"""Array-or-scalar helpers, so each formula is written once.

Catalog kernels are plain arithmetic on floats. Under numpy they receive whole arrays
and run vectorised; without numpy (Pyodide as xlwings Lite's tests load it, or any
install without it) they receive Python floats one element at a time. The few operations
that are not arithmetic operators go through these helpers.
"""

from __future__ import annotations

import math

try:  # numpy is optional: real xlwings Lite has it, our Pyodide test image does not
    import numpy as np
except ImportError:  # pragma: no cover - exercised in the Pyodide test
    np = None


def is_array(x) -> bool:
    return np is not None and isinstance(x, np.ndarray)


def maximum(a, b):
    if is_array(a) or is_array(b):
        return np.maximum(a, b)
    return a if a >= b else b


def minimum(a, b):
    if is_array(a) or is_array(b):
        return np.minimum(a, b)
    return a if a <= b else b


def where(cond, a, b):
    if is_array(cond):
        return np.where(cond, a, b)
    return a if cond else b


def ceil(x):
    if is_array(x):
        return np.ceil(x)
    return float(math.ceil(x))


def floor(x):
    if is_array(x):
        return np.floor(x)
    return float(math.floor(x))


def log(x):
    """The natural logarithm, element-wise on arrays."""
    if is_array(x):
        return np.log(x)
    return math.log(x)


def power(a, b):
    """a ** b, element-wise on arrays."""
    if is_array(a) or is_array(b):
        return np.power(a, b)
    return a ** b


def round_sig(x, digits: int = 12):
    """Round to ``digits`` significant digits (absorbs float noise before a ceiling)."""
    if is_array(x):
        with np.errstate(divide="ignore", invalid="ignore"):
            mag = np.where(x == 0, 0, np.floor(np.log10(np.abs(np.where(x == 0, 1, x)))))
        scale = 10.0 ** (digits - 1 - mag)
        return np.round(x * scale) / scale
    if x == 0 or not math.isfinite(x):
        return x
    return round(x, digits - 1 - int(math.floor(math.log10(abs(x)))))
