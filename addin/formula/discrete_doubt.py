"""Rounding and the like, downstream of a function whose last digits napkin does not know to
be Excel's: refused where the result would change within the doubt of its argument.

INT, TRUNC, ROUND and the other functions of ``STEPS`` turn a number into a step: their
result jumps where the number crosses a boundary (an integer, a half-cent), and is the same
on either side of it. Downstream of PMT, ``^``, LOG10 and the like
(``addin.engine.last_digits``) napkin's number may differ from Excel's in its last binary
digits, so where it lies that near a boundary Excel's may lie on the other side:
``INT(LOG10(1000))`` is 3 if LOG10 gives exactly 3, 2 if it gives 2.9999999999999996.
Comparisons have the same doubt and are refused within it
(``addin.formula.excel_numbers.near_equal``); these functions are refused within the same
bounds, where the formula is one of them (below):

* downstream of such a function, 2^-40 of the number (``NEAR_EQUAL``: napkin's operands
  differ from Excel's by far less, ``addin.formula.cancellation``);
* where a cell the formula reads holds a value within 2^-36 of the one Excel saved but not
  it (a chain of last digits), 2^-36 (``UNKNOWN_DIGITS_EQUAL``);
* downstream of a circular reference Excel saved short of its fixed point, the noise its
  unfinished iteration leaves (``context.saved_noise``), times ``context.NOISE_MARGIN``.

**Where.** Only in a formula that is one such call and nothing else, its arguments after
the first written numbers (``=ROUND(PMT(...),2)``, ``addin.engine.last_digits.settles``,
listed in ``context.STATE.settling``), whose value then is Excel's exactly:
``addin.engine.last_digits.downstream`` does not carry the doubt through it to the formulas
reading it. A step call inside a larger formula is not checked, as before: the doubt is
known of a whole formula, not of each argument, and checking every
call with the formula's doubt refused the template's own ``CEILING(ROUND(x,
11-INT(LOG10(x))),1)``, whose number ``x`` carries no doubt, and ``CEILING`` of exact head
counts (docs/fidelity.md). The principled fix, a doubt carried with each value, is not
built.

The test is the function itself: it is computed again with its first argument made
``1 - doubt`` and ``1 + doubt`` times itself; a result other than the first, at either end,
refuses the cell (``context.refuse``). Each function of ``STEPS`` is monotone in its first
argument (a larger number never gives a smaller step), so the same result at both ends is
the result for every number between, Excel's among them. MOD, which is not monotone, is
not among them; nor are the date parts (YEAR, MONTH...), whose serial numbers are seldom
computed through powers. Its first argument is checked whatever its form: one number, or
each number of a range or an array (an array formula's). A call that gives an error value
is not checked: it was refused for a reason of its own, or has no step to be on either
side of.

References
----------
Microsoft Support, "ROUND function", "INT function", "TRUNC function", "CEILING function",
"FLOOR function", "MROUND function", "EVEN function", "ODD function" (each a step of its
first argument); Microsoft Learn, "Floating-point arithmetic may give inaccurate results in
Excel".
"""

from __future__ import annotations

import functools

import numpy as np

from addin.formula import context, fx
from addin.formula.excel_numbers import NEAR_EQUAL, UNKNOWN_DIGITS_EQUAL  # (comparisons')

#: the monotone step functions of one number checked so (formulas' table names, the
#: ``_XLFN.`` forms Excel saves included)
STEPS = ("INT", "TRUNC", "ROUND", "ROUNDUP", "ROUNDDOWN", "MROUND", "EVEN", "ODD",
         "CEILING", "FLOOR", "CEILING.MATH", "_XLFN.CEILING.MATH", "FLOOR.MATH",
         "_XLFN.FLOOR.MATH", "CEILING.PRECISE", "_XLFN.CEILING.PRECISE", "FLOOR.PRECISE",
         "_XLFN.FLOOR.PRECISE", "ISO.CEILING")
#: the functions a formula that is one call of settles (``addin.engine.last_digits``)
SETTLING = frozenset(name.removeprefix("_XLFN.") for name in STEPS)
_REAL = (int, float, np.floating, np.integer)


def doubt() -> tuple[float, str]:
    """How far (relative) napkin's numbers in the formula being computed may lie from
    Excel's, and why (0 and "" where they are Excel's, or where the formula is not one
    step call, ``context.STATE.settling``, which this module does not check)."""
    node = getattr(context.STATE, "node", None)
    if node is None or id(node) not in getattr(context.STATE, "settling", ()):
        return 0.0, ""
    unknown = context.last_digits_unknown()
    noise = context.saved_noise() * context.NOISE_MARGIN
    got, why = 0.0, ""
    if unknown:
        from addin.formula import saved_operands

        got, why = NEAR_EQUAL, f"computed from {unknown} (napkin's last digits of {unknown} " \
                               "are not always Excel's)"
        if not saved_operands.inputs_as_saved() and \
                saved_operands.inputs_as_saved(within=UNKNOWN_DIGITS_EQUAL):
            got = UNKNOWN_DIGITS_EQUAL
    if noise > got:
        got, why = noise, ("downstream of a circular reference Excel saved short of its "
                           "fixed point (its values carry what its unfinished iteration "
                           "leaves)")
    return got, why


def _scaled(v, factor: float):
    """Argument ``v`` with each real number in it (a reference's or an array's values
    read) times ``factor``; None where it holds none."""
    ns = fx.load()
    if isinstance(v, ns.Ranges):
        try:
            v = v.value
        except Exception:  # (formulas' own error for the reference)
            return None
    if isinstance(v, np.ndarray):
        out, found = v.astype(object), False
        for i, x in enumerate(out.flat):
            if isinstance(x, _REAL) and not isinstance(x, (bool, np.bool_)) and x:
                out.flat[i], found = float(x) * factor, True
        return out if found else None
    if isinstance(v, _REAL) and not isinstance(v, (bool, np.bool_)) and v:
        return float(v) * factor
    return None


def _same(a, b) -> bool:
    a, b = (np.asarray(x, dtype=object).ravel() for x in (a, b))
    return a.shape == b.shape and all(type(x) is type(y) and x == y or
                                      str(x) == str(y) for x, y in zip(a, b, strict=True))


def guarded(original, key: str):
    """``original`` (formulas' ``key``, or napkin's in its place), refused where its result
    changes within the doubt of its first argument (the module's docstring). An entry of
    formulas' table that is a dict (napkin's own functions, ``addin.excel.install``) has
    its ``function`` wrapped, past the ``extra_inputs`` formulas gives it first."""
    if isinstance(original, dict):
        skip = len(original.get("extra_inputs") or ())
        return {**original, "function": _guarded(original["function"], key, skip)}
    return _guarded(original, key, 0)


def _guarded(original, key: str, skip: int):
    name = key.removeprefix("_XLFN.")

    @functools.wraps(original)
    def call(*args):
        got = original(*args)
        how_far, why = doubt()
        if not how_far or len(args) <= skip or isinstance(got, fx.load().XlError):
            return got  # (an error value: refused, or no step to be on either side of)
        first, before, after = args[skip], args[:skip], args[skip + 1:]
        lower, upper = _scaled(first, 1 - how_far), _scaled(first, 1 + how_far)
        if lower is None:
            return got
        try:
            ends = [original(*before, lower, *after), original(*before, upper, *after)]
        except Exception:  # (an end napkin cannot compute: not settled either)
            ends = [None]
        if not all(_same(end, got) for end in ends):
            context.refuse(f"{name}() of a number within {how_far:.2g} of itself of where "
                           f"its result changes, {why}: Excel's number may lie on the "
                           "other side")
        return got

    # the short way for one-cell arguments (addin.formula.one_cell) is made of the function
    # wrapped, and wrapped again: the check runs on either way
    call.doubt_inner, call.doubt_rewrap = original, lambda f: _guarded(f, key, skip)
    return call
