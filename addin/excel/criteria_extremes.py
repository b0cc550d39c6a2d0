"""MAXIFS and MINIFS: the largest or smallest number of a range among the cells whose
criteria ranges match their criteria, computed where Microsoft's pages settle the value.

The cells are matched as formulas matches those of COUNTIFS and SUMIFS (its
``xfilters``: the criteria of Microsoft's pages, "the same set of criteria works for the
MINIFS, SUMIFS and AVERAGEIFS functions"); a criterion ``"<>"`` or ``"="`` over a
formula's empty text is refused as for SUMIFS (``addin.formula.empty_criteria``). Of the
cells of max_range (min_range) so matched:

* the numbers give the result, ``max`` (``min``) of them;
* an error value is the result (the first, row by row; strict mode refuses the error
  values given to MAXIFS before: ``addin.engine.forms``);
* text or a logical value is refused (``Cannot``): the pages do not say whether Excel
  leaves it out, as MAX does in a reference, or reads it;
* an empty cell is refused only where it could change the result: read as 0, it would
  be the largest (all the numbers matched below 0) or the smallest (all above 0); left
  out, as MAX leaves an empty cell of a reference out, it changes nothing. Elsewhere both
  readings give the same number;
* no number at all is refused: the pages show no call that matches no cell.

Ranges of another size or shape than max_range are ``#VALUE!``, as the pages say.

References
----------
Microsoft Support, "MAXIFS function" (MAXIFS(A2:A7,B2:B7,1) = 91; MAXIFS(A2:A5,B3:B6,"a")
= 10 over ranges not aligned but of one shape; MAXIFS(A2:A7,B2:B7,"b",D2:D7,">100") = 50;
"the size and shape of the max_range and criteria_rangeN arguments must be the same,
otherwise these functions return the #VALUE! error"), "MINIFS function" (88, 10 and 13
on the same layouts).
"""

from __future__ import annotations

import numpy as np

from addin.excel.args import Cannot
from addin.formula import fx
from addin.formula.empty_criteria import refused_over_empty_text


def _values(v) -> np.ndarray:
    """The values of an argument as a 2-D object array (a reference read)."""
    from addin.formula.arrays import grid

    return grid(v)


def _criterion(v, name: str):
    """One criterion: a value, or the one value of a one-cell reference or array."""
    g = _values(v)
    if g.size != 1:
        raise Cannot(f"{name}() given an array or a range of many cells as a criterion")
    return g.flat[0]


def _matched(name: str, args) -> list:
    """The values of the first argument at the cells every (range, criterion) pair after
    it matches, row by row; ``None`` for ranges of another shape than the first;
    ``#VALUE!`` where ``refused_over_empty_text`` stopped strict mode."""
    ns = fx.load()
    if len(args) < 3 or len(args) % 2 == 0:
        raise Cannot(f"{name}() given {len(args)} arguments (a range, then pairs of a "
                     "criteria range and its criterion)")
    target = _values(args[0])
    pairs = list(zip(args[1::2], args[2::2], strict=True))
    ranges = [_values(r) for r, _ in pairs]
    if any(r.shape != target.shape for r in ranges):
        return None
    criteria = [_criterion(c, name) for _, c in pairs]
    if any(refused_over_empty_text(name, cells, crit)
           for cells, crit in zip(ranges, criteria, strict=True)):
        return ns.errors["#VALUE!"]  # (strict mode stopped: refused_over_empty_text)
    got: list = []

    def collect(values):
        got.extend(np.asarray(values, dtype=object).ravel().tolist())
        return 0

    flat = [x for r, c in zip(ranges, criteria, strict=True) for x in (r, c)]
    ns.formulas.functions.xfilters(collect, target, *flat)
    return got


def _extreme(name: str, pick, args):
    """MAXIFS (``pick`` max) or MINIFS (min) of ``args``, as the module says."""
    ns = fx.load()
    got = _matched(name, args)
    if got is None:
        return ns.errors["#VALUE!"]
    if isinstance(got, ns.XlError):
        return got
    for v in got:
        if isinstance(v, ns.XlError):
            return v
    numbers = [float(v) for v in got if isinstance(v, (int, float, np.number))
               and not isinstance(v, (bool, np.bool_))]
    if any(isinstance(v, (bool, np.bool_)) or (isinstance(v, str) and v is not ns.EMPTY)
           for v in got):
        raise Cannot(f"{name}() of a matched cell holding text or a logical value "
                     "(Microsoft's page does not say whether Excel leaves it out)")
    if not numbers:
        raise Cannot(f"{name}() where no number is matched (Microsoft's page shows no "
                     "value for it)")
    best = pick(numbers)
    if len(numbers) < len(got) and pick(best, 0.0) == 0.0 and best != 0.0:
        raise Cannot(f"{name}() of a matched empty cell where it decides the result "
                     "(Microsoft's page does not say whether Excel reads it as 0)")
    return best


def maxifs(*args):
    """Excel's MAXIFS(max_range, criteria_range1, criteria1, ...): see the module."""
    return _extreme("MAXIFS", max, args)


def minifs(*args):
    """Excel's MINIFS(min_range, criteria_range1, criteria1, ...): see the module."""
    return _extreme("MINIFS", min, args)
