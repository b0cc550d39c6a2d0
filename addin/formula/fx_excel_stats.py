"""Our guards on formulas' inverse normal distribution and its percentiles and quartiles,
where Excel's value is not settled: refused in strict mode (``context.refuse``,
``#VALUE!``) there, formulas' value kept everywhere else. Each is a builder of
``addin.formula.patches`` (``by(original, key)`` returns the replacement).

References
----------
Microsoft Support, "NORM.INV function", "NORM.S.INV function", "PERCENTILE.INC function",
"QUARTILE.INC function", "QUARTILE function".
SheetJS's formula_stress_test.xlsx, saved by Excel (tests/corpus/sheetjs/, sheet
Statistical): NORM.INV(0.63055865981823644,-1,3) is 8.8817841970012523E-16 (B42; formulas
gives -2.2E-16), NORM.S.INV(0.9986501019683699) 2.9999999999999969 (B44).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from addin.formula import context
from addin.formula.fx_excel_args import one_number, one_value

#: a NORM.INV whose mean and standard_dev * z cancel to within this fraction of the mean
#: is refused: their last digits (Excel's search and formulas' rational approximation
#: differ there) are all of the result
CANCELLED = 2.0 ** -20



def norm_inv_cancelling(original, key: str):
    """formulas' NORM.INV (``key``), refused in strict mode where its result is within
    2^-20 of its mean's size but not 0: ``mean + standard_dev * z`` cancels, and the
    result is then the difference of the two methods' last digits. Excel saved
    NORM.INV(NORM.DIST(0,-1,3,TRUE),-1,3) as 8.9E-16, formulas gives -2.2E-16 (the exact
    value is 0). Elsewhere the two agree to the 15 digits of the corpus's cells."""
    from addin.formula.fx import load

    ns = load()
    name = key.upper().removeprefix("_XLFN.")

    @functools.wraps(original)
    def checked(*args):
        result = original(*args)
        mean = one_number(args[1], ns) if len(args) > 1 else None
        value = one_number(result, ns)
        if mean and value and abs(value) < abs(mean) * CANCELLED:
            context.refuse(f"{name}() given a mean that standard_dev * z cancels (Excel's "
                           "last digits are all of the result there)")
            return ns.errors["#VALUE!"]
        return result

    return checked


def settled_quantile(original, key: str):
    """formulas' PERCENTILE.INC or QUARTILE.INC (``key``), refused in strict mode where
    its second argument (k, quart) is not a number, or (QUARTILE) a fraction outside 0 to
    4: formulas reads a logical value as #VALUE! (Excel takes TRUE as 1 elsewhere), and
    floors a quart that Excel's page says is truncated and, outside 0 to 4, #NUM!, in
    an order it does not give (QUARTILE(x,-0.5), QUARTILE(x,4.5)). Integers outside 0 to
    4 and k outside 0 to 1 are #NUM! on both sides, as the pages say."""
    from addin.formula.fx import load

    ns = load()
    name = key.upper().removeprefix("_XLFN.")
    quartile = name.startswith("QUARTILE")

    @functools.wraps(original)
    def checked(*args):
        if len(args) == 2:
            raw = one_value(args[1], ns)
            x = one_number(args[1], ns)
            if x is None and not isinstance(raw, ns.XlError) and raw is not ns.EMPTY:
                what = "a logical value" if isinstance(raw, bool) else \
                    "text" if isinstance(raw, str) else "several values"
                context.refuse(f"{name}() given {what} as its second argument (its page "
                               "does not say how it is read)")
                return ns.errors["#VALUE!"]
            if quartile and x is not None and x != int(x) and not 0 <= x <= 4:
                context.refuse(f"{name}() given quart {x:g}, a fraction outside 0 to 4 "
                               "(its page does not say whether it is truncated first)")
                return ns.errors["#VALUE!"]
        return original(*args)

    return checked


def frequency_settled(original, key: str):
    """formulas' FREQUENCY, refused in strict mode unless bins_array holds numbers only,
    rising strictly, and data_array numbers, empty cells and text only: formulas sorts the
    bins and gives the counts in the sorted order (Excel gives each bin's count at its
    own place, its page says nothing of bins out of order or repeated) and reads no bins
    as one bin of 0; Microsoft's page says "FREQUENCY ignores blank cells and text", as
    formulas does in data_array (a formula's "" and text that looks like a number
    included: they are text); logical and error values there it does not settle. With
    those, the counts are those of the page's example (tests/test_checked_frequency.py).
    A bins_array of one number (``FREQUENCY(I4:AG4,-1)``) is one bin: the counts of the
    values at most it and above it, as Excel saved 720 such cells (the two CLO ABS
    models of the second held-out part); a data_array of one value no page or cell
    settles: refused."""

    from addin.formula.fx import load

    ns = load()

    def values(v):
        try:
            return list(np.asarray(getattr(v, "value", v), dtype=object).ravel())
        except Exception:  # formulas' own error for the reference
            return None

    def number(x):
        return isinstance(x, (int, float, np.integer, np.floating)) and \
            not isinstance(x, (bool, np.bool_))

    def ignored(x):  # an empty cell or a text (formulas' EMPTY is a str, errors are too)
        return x is ns.EMPTY or x is None or (
            isinstance(x, str) and not isinstance(x, ns.XlError))

    @functools.wraps(original)
    def checked(*args):
        data, bins = (values(a) for a in args) if len(args) == 2 else (None, None)
        reason = None
        if len(args) == 2 and np.ndim(getattr(args[0], "value", args[0])) == 0:
            reason = "a data_array of one value, not an array or a range"
        elif data is None or bins is None or not all(number(x) for x in bins):
            reason = "a bins_array holding other than numbers"
        elif not all(number(x) or ignored(x) for x in data):
            reason = "a data_array holding logical or error values"
        elif not bins or any(b <= a for a, b in zip(bins, bins[1:], strict=False)):
            reason = "bins that do not rise strictly"
        if reason:
            context.refuse(f"FREQUENCY() given {reason} (its page does not say Excel's "
                           "counts there, or formulas' differ)")
            return ns.errors["#VALUE!"]
        return original(*args)

    return checked


#: alpha and beta over which formulas' beta distribution (SciPy's, on Boost's incomplete
#: beta function) was checked against 40-digit values (tests/test_checked_beta.py: the
#: largest relative difference 5.5E-13); outside them it is refused
BETA_SHAPES = (0.01, 1e4)
#: a BETA.INV whose result moves more than this many times a relative change of its
#: probability (p * (B - A) / (density * |x|)) is refused: Excel's search and SciPy's
#: stop at different last digits of BETA.DIST, and the result magnifies them
BETA_INV_CONDITION = 1e4


def _beta_refusal(name: str, vals: list, inverse: bool) -> str | None:
    """Why Excel's value of BETA.DIST, BETADIST or BETA.INV (``name``) for one-value
    arguments ``vals`` is not settled, or None."""
    cumulative = 3 if name == "BETA.DIST" else None
    for k, v in enumerate(vals):
        if k == cumulative:
            if not isinstance(v, bool):
                return f"{name}() given a cumulative that is not TRUE or FALSE"
        elif isinstance(v, bool):
            return f"{name}() given a logical value where it reads a number"
    if not all(type(v) in (int, float) for k, v in enumerate(vals) if k != cumulative):
        return None  # (text, an error value: #VALUE! or the error, as the page says)
    alpha, beta = vals[1], vals[2]
    if alpha > 0 and beta > 0 and not (BETA_SHAPES[0] <= min(alpha, beta) and
                                       max(alpha, beta) <= BETA_SHAPES[1]):
        return f"{name}() given alpha or beta outside 0.01 to 10,000 (not checked there)"
    bounds = vals[4:6] if cumulative else vals[3:5]
    low, high = (list(bounds) + [0, 1][len(bounds):])[:2]
    if inverse and (vals[0] == 1 or low >= high):
        return f"{name}() given a probability of 1 or A not below B (its page says no value)"
    if cumulative and vals[3] is False and vals[0] in (low, high):
        return f"{name}() of the density at A or B (its page says no value)"
    return None


def _plain(v):
    """numpy's logical values and numbers (a nested call's: ACOS(0)) as Python's, which
    ``_beta_refusal`` checks."""
    if isinstance(v, np.bool_):
        return bool(v)
    return float(v) if isinstance(v, np.floating | np.integer) else v


def beta_settled(original, key: str):
    """formulas' BETA.DIST, BETADIST or BETA.INV (``key``), refused in strict mode
    where Microsoft's page does not settle Excel's value: a logical value read as a
    number, a cumulative that is not TRUE or FALSE, alpha or beta outside the range
    checked, a probability of 1 or A not below B (BETA.INV: the page gives #NUM! for a
    probability above 1 only), the density at A or B, and a BETA.INV whose result is
    ill-conditioned (``BETA_INV_CONDITION``). Elsewhere formulas' value is SciPy's
    regularized incomplete beta function (and its inverse), within 1E-12 of the exact
    value.

    References: Microsoft Support, "BETA.DIST function", "BETA.INV function",
    "BETADIST function"."""
    from addin.formula.fx import load

    ns = load()
    name = key.upper().removeprefix("_XLFN.")
    inverse = name == "BETA.INV"

    @functools.wraps(original)
    def checked(*args):
        vals = [0.0 if v is ns.EMPTY else v  # (an empty cell is 0: its checks apply)
                for v in (_plain(one_value(a, ns)) for a in args)]
        why = None if None in vals else _beta_refusal(name, vals, inverse)
        result = original(*args)
        x = one_value(result, ns)  # (SciPy's number: numpy's float)
        x = float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else None
        if why is None and inverse and x is not None:
            why = _ill_conditioned(name, vals, x)
        if why:
            context.refuse(why)
            return ns.errors["#VALUE!"]
        return result

    return checked


def _ill_conditioned(name: str, vals: list, x: float) -> str | None:
    """Why BETA.INV's result ``x`` for ``vals`` is not settled to 1E-9, or None."""
    p, alpha, beta = vals[:3]
    low, high = (list(vals[3:5]) + [0, 1][len(vals[3:5]):])[:2]
    t = (x - low) / (high - low)
    if not 0 < t < 1 or x == 0:
        return f"{name}() whose result is at A or B (its digits are the search's)"
    log_density = ((alpha - 1) * math.log(t) + (beta - 1) * math.log1p(-t)
                   - math.lgamma(alpha) - math.lgamma(beta) + math.lgamma(alpha + beta))
    if math.log(p * (high - low) / abs(x)) - log_density > math.log(BETA_INV_CONDITION):
        return (f"{name}() of a probability its result magnifies more than "
                f"{BETA_INV_CONDITION:,.0f} times (Excel's last digits are not settled)")
    from scipy import special  # (formulas' own: its beta distribution's)

    rounding = math.exp(log_density) * 4e-16 * (abs(x) + abs(x - low)) / (high - low)
    if not abs(float(special.betainc(alpha, beta, t)) - p) <= 1e-12 * p + rounding:
        return f"{name}() where SciPy's search did not reach the probability"  # (t, read
        # back from x, moves by up to 4E-16 (|x| + |x - A|) / (B - A): the density times it)
    return None


def logical_cumulative(original, key: str):
    """formulas' NORM.S.DIST, NORM.DIST or NORMDIST (``key``), refused in strict mode where its
    cumulative argument is not TRUE or FALSE (a number, a text, an empty cell): formulas
    reads a number as its truth and the text "TRUE" as TRUE, which Microsoft's pages do
    not settle ("Cumulative is a logical value"). With TRUE or FALSE its value is the
    normal distribution function or density (Python's ``statistics.NormalDist``), as the
    pages' examples give (tests/test_checked_paired.py).

    References: Microsoft Support, "NORM.S.DIST function" (NORM.S.DIST(1.333333,TRUE) =
    0.908788726, FALSE 0.164010148), "NORM.DIST function" (NORM.DIST(42,40,1.5,TRUE) =
    0.9087888, FALSE 0.10934)."""
    from addin.formula.fx import load

    ns = load()
    name = key.upper().removeprefix("_XLFN.")
    where = 1 if name == "NORM.S.DIST" else 3

    @functools.wraps(original)
    def checked(*args):
        if len(args) == where + 1:
            raw = one_value(args[where], ns)
            if not isinstance(raw, (bool, np.bool_)) and not isinstance(raw, ns.XlError):
                context.refuse(f"{name}() given a cumulative that is not TRUE or FALSE (its "
                               "page says it is a logical value, not how another is read)")
                return ns.errors["#VALUE!"]
        return original(*args)

    return checked


def chisq_test_settled(original, key: str):
    """formulas' CHISQ.TEST or CHITEST (``key``), computed where Microsoft's page settles
    it: actual_range and expected_range of numbers only, of one shape of more than one
    cell, every expected value above 0. The statistic is sum((A - E)^2 / E) over the
    cells, its degrees of freedom (r - 1)(c - 1), or c - 1 for one row, r - 1 for one
    column, and the result the chi-squared distribution's right tail there (scipy's
    ``chi2.sf``, formulas'); ranges of different numbers of data points are #N/A, as the
    page says. Refused in strict mode (``context.refuse``): text, logical values, empty
    cells or error values in either range, ranges of one count but two shapes, one cell,
    and an expected value of 0 or below, which the page does not settle.

    References
    ----------
    Microsoft Support, "CHISQ.TEST function" (its example: CHISQ.TEST(A2:B4,A6:B8) =
    0.0003082 for actual 58, 35; 11, 25; 10, 23 and expected 45.35, 47.65; 17.56, 18.44;
    16.09, 16.91); ECMA-376 Part 1, 18.17.7.46 CHITEST (the degrees of freedom).
    """
    from addin.formula.arrays import grid
    from addin.formula.fx import load

    ns = load()
    name = key.upper().removeprefix("_XLFN.")

    def numbers(v) -> bool:
        return all(isinstance(x, (int, float, np.number)) and not isinstance(x, (bool, np.bool_))
                   for x in grid(v).ravel())

    @functools.wraps(original)
    def checked(*args):
        if len(args) == 2:
            actual, expected = grid(args[0]), grid(args[1])
            if actual.size != expected.size:
                return ns.errors["#N/A"]
            why = ("text, a logical value, an empty cell or an error value in its ranges"
                   if not (numbers(actual) and numbers(expected)) else
                   "ranges of one count but two shapes" if actual.shape != expected.shape
                   else "one cell" if actual.size < 2 else
                   "an expected value of 0 or below"
                   if (expected.astype(float) <= 0).any() else "")
            if why:
                context.refuse(f"{name}() given {why} (its page does not settle it)")
                return ns.errors["#VALUE!"]
        return original(*args)

    return checked
