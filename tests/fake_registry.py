"""A small fake registry that stands for the catalog in the engine tests
(``test_engine*.py``): functions with the catalog's shapes of arguments and results, so
that those tests check the engine only."""

from __future__ import annotations

import numpy as np

from addin.engine.api import evaluate
from udfs.machinery.errors import ExcelError

CALLS: list[tuple] = []


def RIDGE(peak, bandwidth, efficiency=1):
    for v in (peak, bandwidth, efficiency):
        if isinstance(v, ExcelError):
            return v
    if isinstance(peak, list) or isinstance(bandwidth, list):  # ranges: element-wise
        ps = peak if isinstance(peak, list) else [[peak]]
        bs = bandwidth if isinstance(bandwidth, list) else [[bandwidth]] * len(ps)
        return [[RIDGE(p, b if len(br) > 1 else br[0], efficiency)
                 for p, b in zip(pr, br * len(pr) if len(br) == 1 else br, strict=True)]
                for pr, br in zip(ps, bs, strict=True)]
    if bandwidth is None or bandwidth <= 0:
        return ExcelError("#NUM!", "bandwidth must be greater than 0")
    return peak * efficiency / bandwidth


def BOUND(intensity, ridge):
    if isinstance(intensity, ExcelError):
        return intensity
    return "memory-bound" if intensity < ridge else "compute-bound"


def WEIGHT_GB(params, precision="BF16"):
    size = {"FP32": 4, "BF16": 2, "FP8": 1, "INT4": 0.5}.get(precision)
    if size is None:
        raise ExcelError("#N/A", f"unknown precision {precision!r}")
    return params * size / 1e9


def FITS(need, capacity):
    if isinstance(need, ExcelError):
        return need
    return need <= capacity


def ARGS(*args):
    CALLS.append(args)
    return len(args)


def GRID():
    return [[1, 2], [3, 4]]


def NPGRID():
    return np.array([[1.5, 2.5], [3.5, 4.5]])


def BOOM(x=None):
    raise ZeroDivisionError("boom")


def NAN():
    return float("nan")


def KIND(x=None):
    """What the function received, as text."""
    if isinstance(x, ExcelError):
        return f"error {x.code} {x.message}".strip()
    if isinstance(x, list):
        return f"list {len(x)}x{len(x[0])}"
    return type(x).__name__


FAKE = {f.__name__: f for f in (RIDGE, BOUND, WEIGHT_GB, FITS, ARGS, GRID, NPGRID, BOOM, NAN,
                                  KIND)}

NUM_BW = ExcelError("#NUM!", "bandwidth must be greater than 0")


def ev(formula):
    return evaluate(formula, FAKE)


