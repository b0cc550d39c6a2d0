"""Speedup and Amdahl's law.

Speedup = time before ÷ time after, reported with ×. Speedups combine by adding times,
not percentages.

References
----------
.. [1] Amdahl, G. M. (1967), "Validity of the single processor approach to achieving
   large scale computing capabilities", AFIPS Spring Joint Computer Conference,
   483–485.
"""

from __future__ import annotations


def speedup(before, after):
    """Speedup: before ÷ after.

    Parameters
    ----------
    before, after : float
        Times, both in the same unit [any unit of time].

    Returns
    -------
    ×. 20 ms → 15 ms is 1.33× ("25 % less time"; "25 % faster" is usually 1.25×).
    """
    return before / after


def amdahl(p, s=None):
    """Whole-task speedup when a share ``p`` of the time gets ``s`` times faster [1].

    .. math:: S = \\frac{1}{(1 - p) + p / s}

    With ``s`` omitted the part becomes infinitely fast: S = 1 ÷ (1 − p).

    Parameters
    ----------
    p : float
        Share of the time that gets faster, 0 to 1 [fraction].
    s : float or None
        How many times faster that part gets, above 0 [ratio]; None for infinitely.

    Returns
    -------
    ×. p = 0.3, s = 3 → 1.25×; p = 0.3, s → ∞ → 1.43×.
    """
    if s is None:
        return 1 / (1 - p)
    return 1 / ((1 - p) + p / s)
