"""Speedup and Amdahl's law (reference doc §4).

Speedup = time before ÷ time after, reported with ×. Speedups combine by adding times,
not percentages.
"""

from __future__ import annotations


def speedup(before, after):
    """before ÷ after. §4: 20 ms → 15 ms is 1.33×."""
    return before / after


def amdahl(p, s=None):
    """Whole-task speedup when a share ``p`` of the time gets ``s`` times faster.

    .. math:: S = \\frac{1}{(1 - p) + p / s}

    With ``s`` omitted the part becomes infinitely fast: S = 1 ÷ (1 − p). §4: p = 0.3,
    s = 3 → 1.25×; p = 0.3, s → ∞ → 1.43×.
    """
    if s is None:
        return 1 / (1 - p)
    return 1 / ((1 - p) + p / s)
