"""Excel's LN, LOG10, LOG and EXP computed one number at a time by the C library (Python's
``math``), the same digits on every processor.

formulas computes them with numpy's ufuncs (``np.log``, ``np.log10``, ``np.exp``). numpy
dispatches a float64 ufunc to the fastest loop the processor has, and its AVX-512 loops are
approximations that may differ from the C library's in the last place: napkin's values,
and the values the template's native edition saves, changed with the machine that
computed them. The native edition's helper cells were computed from ``LOG10(25/8)`` =
0.49485002168009395 where it was built (its digits, worked back from the saved cells: that
machine's processor is not known here); on a processor without AVX-512 numpy gave the C
library's 0.49485002168009407 (the exact value is 0.4948500216800940239..., the correctly
rounded double 0.494850021680094), and four of those cells differed in their last digit.
The C library's functions do not depend on numpy's choice of loop. glibc too may choose a
build of ``exp`` and ``log`` by processor (one compiled for FMA), meant to give the same
results; the Debian image CI and the builds run on is the one checked
(``tests/test_native_edition.py``: the committed edition is rebuilt byte for byte).
Neither is known to be Excel's last digit (``addin.engine.last_digits`` treats these
functions so).

Domain errors are numpy's: a logarithm of 0 or less and an ``exp`` beyond the largest
double give ``nan`` or ``inf``, which formulas' ``wrap_ufunc`` turns into ``#NUM!`` as
before.

References
----------
NumPy, "CPU/SIMD optimizations" (numpy.org/doc/stable/reference/simd/): the float64
``exp`` and ``log`` loops for AVX512F and the SVML-based loops for AVX512_SKX.
"""

from __future__ import annotations

import math

from formulas.functions import wrap_ufunc


def _log(x: float) -> float:
    try:
        return math.log(x)
    except ValueError:  # (0: -inf in numpy; below 0: nan; both #NUM!)
        return math.nan


def _log10(x: float) -> float:
    try:
        return math.log10(x)
    except ValueError:
        return math.nan


def _exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _log_base(x: float, base: float = 10) -> float:
    """formulas' ``LOG``: ln(x) / ln(base), ``nan`` for a base of 0."""
    if not base:
        return math.nan
    den = _log(base)
    return _log(x) / den if den else (math.inf if _log(x) else math.nan)


#: Excel's function -> the C library's computation of one number
ONE_AT_A_TIME = {"LN": _log, "LOG10": _log10, "EXP": _exp, "LOG": _log_base}


def one_at_a_time(original, key: str):
    """formulas' ``key`` (LN, LOG10, EXP, LOG) with the C library's function of one
    number in place of numpy's ufunc (the module's docstring); ``original`` is replaced."""
    return wrap_ufunc(ONE_AT_A_TIME[key])
