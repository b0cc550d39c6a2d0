"""Our guards on formulas' IRR and RATE, the two functions Excel computes by iteration:
formulas' value is kept where the root Excel's iteration finds is certain to be the one
formulas finds, and refused in strict mode (``context.refuse``, ``#VALUE!``) elsewhere.
Each is a builder of ``addin.formula.patches`` (``by(original, key)`` returns the
replacement).

Both solve for a rate ``r`` at which the net present value of a row of cash flows is 0,

.. math:: f(r) = \\sum_{i=0}^{n} \\frac{c_i}{(1 + r)^i} = 0

(IRR: the values given; RATE: ``pv`` at period 0, ``pmt`` at periods 1 to ``nper``, or 0
to ``nper - 1`` for type 1, and ``fv`` at period ``nper``). formulas solves it with
numpy-financial (the roots of the polynomial in ``1/(1+r)`` for IRR; Newton's method, 1000
steps at most, for RATE); Excel, Microsoft's pages say, iterates from ``guess`` (10% if
left out) and gives #NUM! when 20 steps do not bring it within 0.00001 percent (IRR) or
0.0000001 (RATE). The rule, each part a refusal:

1. **One root.** The cash flows (those not 0) change sign exactly once: by Descartes'
   rule of signs the polynomial in ``x = 1/(1+r)`` then has exactly one positive root,
   so there is one rate above -1 and any iteration that converges finds it. Several
   sign changes (several rates, Excel's found by where its iteration goes) or none
   (#NUM! on both sides, but by different routes) are refused.
2. **Excel's iteration converges.** Newton's method from the guess reaches a step below
   1e-7 within 20 steps, staying above -1: Excel's own method is not published, so a
   root Newton's reaches only slowly (where Excel might stop short or give #NUM!) is
   refused.
3. **formulas' value is that root.** It equals the root of step 2 to 1e-9 relative
   (two methods finding one root: numpy-financial's eigenvalues for IRR, its Newton's
   method for RATE); the value given is step 2's root polished by five more Newton
   steps, exact to a few units of the last place, where numpy-financial's RATE stops at
   a step of 1e-6 and is 4e-12 off (RATE(48,-200,8000): 0.00770147248823337, the root
   0.00770147248820201, Excel 0.00770147248820137).
4. **Not near 0.** Excel's saved values differ from the exact root by up to 3.7e-13
   (tests/test_checked_rates.py: 0.2197192812563511 for IRR of the tuning part's
   Day_004 file, the exact root 0.21971928125671960); the corpus's comparison is 1e-9
   relative, so a rate below 3.7e-4 in size could differ there. Rates below 1e-3 in size
   are refused (a margin of 2.7).
5. **Numbers only.** IRR's values are the numbers of the range or array: its page says
   Excel ignores text, logical values and empty cells in them (formulas reads empty cells
   as 0 and converts text), so those are left out before formulas' IRR is called (a
   cash flow a period for each number left); given an error value, IRR gives the first
   (``_first_error``).
   RATE's arguments must be single numbers, ``nper`` a whole number from 1 to 1200,
   ``type`` 0 or 1.

References
----------
Microsoft Support, "IRR function" (its example: -70,000, 12,000, 15,000, 18,000, 21,000,
26,000 give 8.7%); "RATE function" (RATE(4*12,-200,8000) = 0.77% a month).
Excel's saved cells: tests/corpus/sheetjs/formula_stress_test.xlsx (Finance!B8, B23),
tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (D768:F768, D1112) and the business
corpus's tuning part (tests/test_checked_rates.py).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from addin.formula import context
from addin.formula.fx_excel_args import one_number, one_value

#: Excel's steps and tolerance (Microsoft's pages: 20 tries, 0.00001 percent / 0.0000001)
STEPS, TOLERANCE = 20, 1e-7
#: formulas' root must equal ours to this, relative (two methods finding one root)
AGREE = 1e-9
#: rates smaller than this in size are refused (rule 4 above)
SMALLEST = 1e-3
#: RATE's nper computed at most (a cash flow a period)
LONGEST = 1200


def sign_changes(flows) -> int:
    """How many times the flows not 0 change sign."""
    signs = [x > 0 for x in flows if x != 0]
    return sum(a != b for a, b in zip(signs, signs[1:], strict=False))


def _npv_and_slope(flows, r: float) -> tuple[float, float]:
    """f(r) = Σ c_i (1+r)^-i and f'(r) = Σ -i c_i (1+r)^-(i+1)."""
    v = d = 0.0
    x = 1.0 / (1.0 + r)
    p = 1.0
    for i, c in enumerate(flows):
        v += c * p
        d -= i * c * p * x
        p *= x
    return v, d


def newton_root(flows, guess: float) -> float | None:
    """The root Newton's method reaches from ``guess`` with a step below ``TOLERANCE``
    within ``STEPS`` steps, staying above -1, then polished by up to 5 more steps; None
    if it does not."""
    if not guess > -1:  # (1+r)^-i has no value at -1
        return None
    r = guess
    for step in range(STEPS + 5):
        try:
            v, d = _npv_and_slope(flows, r)
        except (ZeroDivisionError, OverflowError):
            return None
        if d == 0 or not math.isfinite(v / d):
            return None
        move = v / d
        r -= move
        if not math.isfinite(r) or r <= -1:
            return None
        if abs(move) < TOLERANCE and step < STEPS:
            for _ in range(5):
                try:
                    v, d = _npv_and_slope(flows, r)
                except (ZeroDivisionError, OverflowError):
                    return None
                if d == 0:
                    break
                r -= v / d
            return r
    return None


def settled(flows, guess: float, got) -> tuple[str | None, float | None]:
    """(why ``got``, formulas' rate for ``flows`` from ``guess``, may not be Excel's,
    None) or, where the rule above settles it, (None, the root)."""
    why = _unsettled(flows, guess, got)
    return (why, None) if why else (None, newton_root(flows, guess))


def _unsettled(flows, guess: float, got) -> str | None:
    changes = sign_changes(flows)
    if changes != 1:
        return f"cash flows that change sign {changes} times (one rate only is settled)"
    root = newton_root(flows, guess)
    if root is None:
        return "cash flows whose rate an iteration from the guess does not reach in 20 steps"
    if type(got) is not float and not isinstance(got, (int, np.floating)):
        return "cash flows formulas finds no rate for"
    got = float(got)
    if not math.isfinite(got) or abs(got - root) > AGREE * abs(root):
        return "cash flows formulas finds another rate for"
    if abs(root) < SMALLEST:
        return f"cash flows whose rate is below {SMALLEST:g} in size (Excel's last digits)"
    return None


def _numbers(v, ns):
    """The numbers of a range or array argument, in Excel's order (rows first), its empty
    cells, text and logical values left out (Microsoft Support, "IRR function": "If an
    array or reference argument contains text, logical values, or empty cells, those
    values are ignored"; Microsoft Knowledge Base Q75504, "Using IRR with a Range that
    Includes Blank Cells in Excel": -2,860, four empty cells, 8,860 give 2.09, a period
    apart, where zeros in the empty cells give 0.254), or None if one of its values is an
    error value or of another kind."""
    raw = getattr(v, "value", v)
    try:
        arr = np.asarray(raw, dtype=object).ravel()
    except Exception:
        return None
    out = []
    for x in arr:
        if isinstance(x, ns.XlError):  # a str too: tested first
            return None
        if x is ns.EMPTY or isinstance(x, (bool, np.bool_, str)):
            continue
        if type(x) not in (int, float) and not isinstance(x, np.floating | np.integer):
            return None
        out.append(float(x))
    return out


def _first_error(given, ns):
    """The first error value of IRR's arguments, the values' read rows first, or None:
    IRR is declared ``first_error`` (a function given error values gives the first of
    them in argument order, the rule and its evidence in ``addin.engine.first_error``,
    which checks this value in strict mode); Microsoft's page says nothing of errors."""
    for v in given:
        raw = getattr(v, "value", v)
        try:
            arr = np.asarray(raw, dtype=object).ravel()
        except Exception:
            return None
        for x in arr:
            if isinstance(x, ns.XlError):
                return x
    return None


def _result(value):
    """formulas' result as one value (IRR gives a one-value array)."""
    if isinstance(value, np.ndarray):
        return value.item() if value.size == 1 else None
    return value


def irr_settled(original, key: str):
    """formulas' IRR, refused in strict mode where the rule of this module's docstring
    does not settle Excel's value."""
    from addin.formula.fx import load

    ns = load()

    @functools.wraps(original)
    def checked(values, *rest):
        given = _first_error((values, *rest), ns)
        if given is not None:  # (addin.engine.first_error: strict mode checks it)
            return given
        flows = _numbers(values, ns)
        result = original(np.array([flows], dtype=float), *rest) if flows else None
        guess = one_number(rest[0], ns) if rest else 0.1
        root = None
        if flows is None:
            why = "values that are not all numbers, empty cells, text or logical values"
        elif guess is None or len(rest) > 1:
            why = "a guess that is not one number"
        else:
            why, root = settled(flows, guess, _result(result))
        if why:
            context.refuse(f"IRR() given {why}")
            return ns.errors["#VALUE!"]
        return root

    return checked


def rate_flows(nper: float, pmt: float, pv: float, fv: float, kind: float) -> list[float]:
    """RATE's cash flows, period 0 to ``nper``: ``pv`` at 0, ``pmt`` at 1 to ``nper``
    (type 0) or 0 to ``nper - 1`` (type 1), ``fv`` at ``nper``."""
    n = int(nper)
    flows = [pmt] * (n + 1)
    if kind:
        flows[n] = 0.0
    else:
        flows[0] = 0.0
    flows[0] += pv
    flows[n] += fv
    return flows


def rate_settled(original, key: str):
    """formulas' RATE, refused in strict mode where the rule of this module's docstring
    does not settle Excel's value."""
    from addin.formula.fx import load

    ns = load()
    defaults = (None, None, None, 0.0, 0.0, 0.1)

    @functools.wraps(original)
    def checked(*args):
        given = [one_value(a, ns) for a in args]
        first = next((x for x in given if isinstance(x, ns.XlError)), None)
        if first is not None:  # the first error value given (addin/engine/first_error.py)
            return first
        result = original(*args)
        # an empty cell is 0 (Microsoft KB Q149577: "Microsoft Excel interprets a blank
        # cell as zero"), as a number written there: the flows below are the same
        got = [0.0 if one_value(a, ns) is ns.EMPTY else one_number(a, ns) for a in args] + \
            list(defaults[len(args):])
        nper, pmt, pv, fv, kind, guess = got[:6]
        root = None
        if len(args) < 3 or None in got[:6]:
            why = "an argument that is not one number"
        elif nper != int(nper) or not 1 <= nper <= LONGEST or kind not in (0.0, 1.0):
            why = f"nper {nper:g} or type {kind:g} (a whole nper from 1 to {LONGEST}, " \
                "type 0 or 1 computed)"
        else:
            why, root = settled(rate_flows(nper, pmt, pv, fv, kind), guess, _result(result))
        if why:
            context.refuse(f"RATE() given {why}")
            return ns.errors["#VALUE!"]
        return root

    return checked
