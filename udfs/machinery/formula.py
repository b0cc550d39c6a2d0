"""A catalog formula bound to its argument readers, with a compiled fast path.

``Formula(kernel, *args)`` is called with Excel values and returns an Excel value. Two
paths give the same answer:

* the **general path**, ``udfs.machinery.broadcast.run``: every type, ranges, units, errors;
* a **fast path** for the common case, every argument a plain number (or a text already
  read once, found in the argument's cache) inside its domain. It is Python source
  generated once per formula (as ``dataclasses`` does), so that a call costs a few
  comparisons on top of the arithmetic: in Excel every call already pays the bridge,
  and ours should add next to nothing to it. Anything else falls through to the
  general path, which stays the definition of the behaviour;
  ``tests/test_formula.py`` checks that both agree.
"""

from __future__ import annotations

import functools
import math

from .args import Arg
from .broadcast import BOOL, NUMBER, run


class Formula:
    """``kernel`` over the arguments ``args``; ``result`` is NUMBER, BOOL or TEXT."""

    def __init__(self, kernel, *args: Arg, result: str = NUMBER,
                 nonfinite: str = "the result is not a finite number"):
        self.kernel = kernel
        self.args = args
        self.result = result
        self.nonfinite = nonfinite

    @functools.cached_property
    def fast(self):
        """The compiled fast path, generated on first use, so that loading the catalog
        compiles none of its formulas."""
        return _compile(self)

    def __call__(self, *values, scale: float = 1.0):
        return self.fast(scale, *values)

    def general(self, scale: float, *values):
        """The general path (also what the fast path falls back to)."""
        return run(self.kernel, list(zip(self.args, values, strict=True)), result=self.result,
                   scale=scale, nonfinite=self.nonfinite)


def _compile(formula: Formula):
    names = [f"v{i}" for i in range(len(formula.args))]
    call = f"general(scale, {', '.join(names)})"
    lines = [f"def fast(scale, {', '.join(names)}):"]
    for i, a in enumerate(formula.args):
        v, x = f"v{i}", f"x{i}"
        lines += [
            f"    t = type({v})",
            "    if t is float:",
            f"        {x} = {v}",
            "    elif t is int:",  # as the general path reads it; beyond a float: #NUM!
            "        try:",
            f"            {x} = float({v})",
            "        except OverflowError:",
            f"            return {call}",
            "    elif t is str:",
            f"        {x} = cache{i}.get({v})",
            f"        if {x} is None:",
            f"            return {call}",
            "    else:",
            f"        return {call}",
            f"    if not ({a.domain.condition(x)}):",
            f"        return {call}",
        ]
        if a.whole:
            lines += [f"    if {x} % 1:", f"        return {call}"]
    lines += [
        "    try:",
        f"        y = kernel({', '.join(f'x{i}' for i in range(len(names)))})",
    ]
    if formula.result == NUMBER:
        lines += ["        y = float(y) * scale"]
    lines += [
        "    except ArithmeticError:",  # ZeroDivisionError, OverflowError (huge ints)
        f"        return {call}",
    ]
    if formula.result == NUMBER:
        lines += ["    if -_INF < y < _INF:", "        return y", f"    return {call}"]
    elif formula.result == BOOL:
        lines += ["    return bool(y)"]
    else:
        lines += ["    return str(y)"]
    namespace = {"kernel": formula.kernel, "general": formula.general, "_INF": math.inf}
    namespace.update({f"cache{i}": a.text_cache for i, a in enumerate(formula.args)})
    exec("\n".join(lines), namespace)  # source built above from our own specs
    return namespace["fast"]
