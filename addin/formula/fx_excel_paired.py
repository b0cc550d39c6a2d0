"""Excel's statistics of paired points (CORREL, PEARSON, RSQ, STEYX, COVAR, COVARIANCE.P,
COVARIANCE.S) and the guard on formulas' SLOPE, INTERCEPT and FORECAST: where Excel's
value is settled, the points are paired, an empty cell drops its pair, and the statistic
is computed here (the first group) or by formulas (the second); elsewhere strict mode is
refused (``context.refuse``, ``#VALUE!``). Each is a builder of
``addin.formula.patches`` (``by(original, key)`` returns the replacement).

What is settled:

* Microsoft's pages (CORREL, PEARSON, RSQ, SLOPE, INTERCEPT, STEYX, COVARIANCE.S,
  COVARIANCE.P, FORECAST) say alike: "If an array or reference argument contains text,
  logical values, or empty cells, those values are ignored; however, cells with the
  value zero are included", and #N/A where the two hold different numbers of data
  points. That an empty cell drops the value of the other argument at its place (its
  *pair*), the cells Excel saved show: in the business corpus's fourth held-out part
  (seen), PhongDiii/Individual-project-Production-Planning-in-Hoa-Phat, Forecast.xlsx,
  'observed data'!C55 = CORREL(D2:D25,E2:E25) = 0.15798063581296687 with E2 empty and
  D2 = 610000, the same value as L28 = CORREL(D3:D25,E3:E25); C56:C58 likewise with two
  to four leading empty cells (tests/test_checked_paired.py computes them by hand).
  LibreOffice drops the pair too (the differential test). The cells Excel saved in
  tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B67 CORREL of an array
  constant and a row, B73:B75 COVAR and COVARIANCE.P/.S, B131 INTERCEPT, B133 PEARSON,
  B134 RSQ, B136 STEYX) are computed to within 1E-14 (tests/test_checked_paired.py).
* Text and logical values among the points stay refused: whether they drop their pair
  too no page says, and no cell Excel saved shows it.
* Ranges of different shapes with as many cells (a row beside a column) are refused;
  with different numbers of cells the result is #N/A, as every page says.
* Fewer than two pairs (three for STEYX) are refused: the pages give #N/A for "empty"
  arguments (RSQ, SLOPE) but #DIV/0! (CORREL) for the same words.
* A zero standard deviation gives #DIV/0! for CORREL (its page says so); for PEARSON,
  RSQ and STEYX, whose pages say nothing of it, it is refused.
* Error values among the points are refused by their form (``errors`` is not
  declared, ``addin/formula/excel_functions/statistical.py``).

The formulas, over the n pairs (x, y) kept, with means x̄ and ȳ (each sum ``math.fsum``):

    Sxy = Σ (x - x̄)(y - ȳ),  Sxx = Σ (x - x̄)²,  Syy = Σ (y - ȳ)²
    CORREL = PEARSON = Sxy / sqrt(Sxx Syy),  RSQ = CORREL²
    STEYX = sqrt((Syy - Sxy² / Sxx) / (n - 2))
    COVAR = COVARIANCE.P = Sxy / n,  COVARIANCE.S = Sxy / (n - 1)

References
----------
Microsoft Support, "CORREL function" (CORREL of 3,2,4,5,6 and 9,7,12,15,17 = 0.997054),
"PEARSON function" (PEARSON of 9,7,5,3,1 and 10,6,1,5,3 = 0.699379), "RSQ function"
(RSQ of 2,3,9,1,8,7,5 and 6,5,11,7,5,4,4 = 0.05795), "STEYX function" (STEYX of
2,3,9,1,8,7,5 and 6,5,11,7,5,4,4 = 3.305719), "COVARIANCE.P function" (5.2),
"COVARIANCE.S function" (9.666666667), "COVAR function" (5.2), "SLOPE function",
"INTERCEPT function", "FORECAST and FORECAST.LINEAR functions".
"""

from __future__ import annotations

import functools
import math

import numpy as np

from addin.formula import context

#: the fewest pairs of numbers a function computes from (2 for those not named)
MIN_PAIRS = {"STEYX": 3}
#: the functions whose page gives #DIV/0! for a zero standard deviation
ZERO_SPREAD_DIV0 = frozenset({"CORREL"})


def _moments(pairs):
    """n, Sxx, Syy, Sxy of the pairs (y, x), each sum ``math.fsum`` about the means."""
    n = len(pairs)
    ys, xs = [p[0] for p in pairs], [p[1] for p in pairs]
    my, mx = math.fsum(ys) / n, math.fsum(xs) / n
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    syy = math.fsum((y - my) ** 2 for y in ys)
    sxy = math.fsum((x - mx) * (y - my) for y, x in zip(ys, xs, strict=True))
    return n, sxx, syy, sxy


def correl(pairs):
    """Pearson's r: Sxy / sqrt(Sxx Syy); None where a standard deviation is 0."""
    _n, sxx, syy, sxy = _moments(pairs)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def rsq(pairs):
    """r², the square of ``correl``."""
    r = correl(pairs)
    return None if r is None else r * r


class Unsettled(Exception):
    """A statistic whose value the last digits of its sums decide: refused."""


#: a residual Syy - Sxy²/Sxx within this fraction of Syy is refused: it is then the
#: rounding errors of the two terms (points on a line), which Excel's sums and ours
#: leave differently (LibreOffice's STEYX of a column against itself differs from ours
#: at the 8th digit: the differential test)
CANCELLED = 2.0 ** -30


def steyx(pairs):
    """The standard error of y predicted from x: sqrt((Syy - Sxy²/Sxx) / (n - 2));
    ``Unsettled`` where the residual cancels (``CANCELLED``)."""
    n, sxx, syy, sxy = _moments(pairs)
    if sxx == 0:
        return None
    residual = syy - sxy * sxy / sxx
    if residual <= syy * CANCELLED:
        raise Unsettled("STEYX() given points on a line to within rounding (the residual "
                        "is the last digits of its sums)")
    return math.sqrt(residual / (n - 2))


def covariance_p(pairs):
    """The population covariance, Sxy / n."""
    n, _sxx, _syy, sxy = _moments(pairs)
    return sxy / n


def covariance_s(pairs):
    """The sample covariance, Sxy / (n - 1)."""
    n, _sxx, _syy, sxy = _moments(pairs)
    return sxy / (n - 1)


STATISTICS = {"CORREL": correl, "PEARSON": correl, "RSQ": rsq, "STEYX": steyx,
              "COVAR": covariance_p, "COVARIANCE.P": covariance_p,
              "COVARIANCE.S": covariance_s}


def _values(v):
    """The values of an argument as a 2-D array of objects, or None (formulas' own error
    for the reference)."""
    try:
        return np.asarray(getattr(v, "value", v), dtype=object)
    except Exception:  # formulas' own error for the reference
        return None


def _is_number(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and \
        not isinstance(v, (bool, np.bool_))


def _pairs(ys, xs, name: str, ns):
    """The pairs (y, x) of numbers of ``ys`` and ``xs``, an empty cell dropping its pair;
    or the error value Excel gives (#N/A for different numbers of points), or None after
    ``context.refuse`` where Excel's value is not settled, or ``...`` where an error
    value among the points leaves the call to formulas (refused by its form)."""
    if ys is None or xs is None:
        context.refuse(f"{name}() given a reference napkin cannot read")
        return None
    if ys.size != xs.size:
        return ns.errors["#N/A"]
    if ys.shape != xs.shape:
        context.refuse(f"{name}() given two areas of different shapes with as many "
                       "cells (its page does not say how Excel pairs their points)")
        return None
    flat = (*ys.ravel(), *xs.ravel())
    if any(isinstance(v, ns.XlError) for v in flat):
        return ...
    if any(not _is_number(v) and v is not ns.EMPTY and v is not None for v in flat):
        context.refuse(f"{name}() given a text or logical value among its points (its "
                       "page says they are ignored, not whether the other's value at "
                       "that place goes with them)")
        return None
    return [(float(y), float(x)) for y, x in zip(ys.ravel(), xs.ravel(), strict=True)
            if _is_number(y) and _is_number(x)]


def paired_statistic(original, key: str):
    """Excel's CORREL, PEARSON, RSQ, STEYX, COVAR, COVARIANCE.P or COVARIANCE.S
    (``key``), computed here from the pairs of numbers (this module's docstring:
    what is settled, the formulas); refused in strict mode elsewhere."""
    from addin.formula.fx import load

    ns = load()
    name = key.upper().removeprefix("_XLFN.")
    statistic, fewest = STATISTICS[name], MIN_PAIRS.get(name, 2)

    @functools.wraps(original)
    def checked(*args):
        if len(args) != 2:
            return original(*args)
        pairs = _pairs(_values(args[0]), _values(args[1]), name, ns)
        if pairs is ...:
            return original(*args)
        if pairs is None:
            return ns.errors["#VALUE!"]
        if not isinstance(pairs, list):
            return pairs
        if len(pairs) < fewest:
            context.refuse(f"{name}() given fewer than {fewest} pairs of numbers (its page "
                           "does not settle #N/A or #DIV/0! there)")
            return ns.errors["#VALUE!"]
        try:
            value = statistic(pairs)
        except Unsettled as ex:
            context.refuse(str(ex))
            return ns.errors["#VALUE!"]
        if value is None:
            if name in ZERO_SPREAD_DIV0:
                return ns.errors["#DIV/0!"]
            context.refuse(f"{name}() given points of which a standard deviation is 0 (its "
                           "page does not say Excel's value)")
            return ns.errors["#VALUE!"]
        return value

    return checked


def paired_numbers(original, key: str):
    """formulas' SLOPE, INTERCEPT or FORECAST (``key``), refused in strict mode where
    ``_pairs`` refuses (areas of different shapes, a text or a logical value among the
    points) or fewer than two pairs of numbers remain; formulas' value elsewhere (it
    drops the pair of an empty cell, as Excel's saved cells show: this module's
    docstring)."""
    from addin.formula.fx import load

    ns = load()
    name = key.upper().removeprefix("_XLFN.")
    first = 1 if name.startswith("FORECAST") else 0  # (FORECAST: x, known_y's, known_x's)

    @functools.wraps(original)
    def checked(*args):
        if len(args) == first + 2:
            pairs = _pairs(_values(args[first]), _values(args[first + 1]), name, ns)
            if pairs is None:
                return ns.errors["#VALUE!"]
            if isinstance(pairs, list) and len(pairs) < 2:
                context.refuse(f"{name}() given fewer than 2 pairs of numbers (its page "
                               "does not settle #N/A or #DIV/0! there)")
                return ns.errors["#VALUE!"]
        return original(*args)

    return checked
