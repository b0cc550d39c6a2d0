"""The one 2-D conversion of a formula's values: an array or a range as rows and columns.

``as_2d`` is the conversion, and says whether a value is an array at all (the engine
stores a single value as one cell and an array as a spill, and our functions receive a
single value as a scalar); ``grid`` is the same conversion for a caller that indexes
every value as rows and columns (the lookup functions), a single value being a 1x1 grid.
"""

from __future__ import annotations

import numpy as np

from addin.formula import fx


def as_2d(v) -> np.ndarray | None:
    """The values of an array or a range, two-dimensional; None for a single value.

    Parameters
    ----------
    v : formulas value
        A ``formulas`` Ranges (its values are taken), a numpy array, or a single value.

    Returns
    -------
    numpy.ndarray or None
        A 1-D array as one row (shape ``(1, n)``), a 2-D array as it is (the same
        object). A 0-d array is a single value, like a number, a text, an error or a
        blank: None, and the caller uses the value itself.
    """
    if isinstance(v, fx.load().Ranges):
        v = v.value
    if isinstance(v, np.ndarray) and v.ndim:
        return v.reshape(1, -1) if v.ndim == 1 else v
    return None


def grid(v) -> np.ndarray:
    """``as_2d``, with a single value as a 1x1 grid: a 0-d array reshaped (its dtype
    kept), any other value in an object array."""
    if isinstance(v, fx.load().Ranges):
        v = v.value
    arr = as_2d(v)
    if arr is not None:
        return arr
    return v.reshape(1, 1) if isinstance(v, np.ndarray) else np.full((1, 1), v, dtype=object)
