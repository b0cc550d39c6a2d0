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

import numpy as np

from addin.formula import context
from addin.formula.fx_excel_args import one_value

#: a NORM.INV whose mean and standard_dev * z cancel to within this fraction of the mean
#: is refused: their last digits (Excel's search and formulas' rational approximation
#: differ there) are all of the result
CANCELLED = 2.0 ** -20


def _number(v, ns):
    """The one number of an argument or result, or None: Python's numbers and numpy's
    (formulas often gives a numpy float), never a logical value (bool, numpy's bool)."""
    v = one_value(v, ns)
    if isinstance(v, (bool, np.bool_)):
        return None
    return float(v) if type(v) in (int, float) or isinstance(v, np.floating | np.integer) \
        else None


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
        mean = _number(args[1], ns) if len(args) > 1 else None
        value = _number(result, ns)
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
            x = _number(args[1], ns)
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


def paired_numbers(original, key: str):
    """formulas' SLOPE or FORECAST (``key``), refused in strict mode where known_y's and
    known_x's are not of one shape, or hold a text or a logical value: Microsoft's page
    says such
    values "are ignored" without saying whether the other's value at that place goes
    with them (formulas drops the pair), and an area of another shape with as many
    points (a row beside a column) no page settles. Empty cells and error values are
    refused by their forms (``addin/formula/excel_functions/``)."""
    import numpy as np

    from addin.formula.fx import load

    ns = load()
    name = key.upper().removeprefix("_XLFN.")
    first = 0 if name == "SLOPE" else 1  # (FORECAST: x, known_y's, known_x's)

    def values(v):
        try:
            return np.asarray(getattr(v, "value", v), dtype=object)
        except Exception:  # formulas' own error for the reference
            return None

    @functools.wraps(original)
    def checked(*args):
        if len(args) == first + 2:
            ys, xs = values(args[first]), values(args[first + 1])
            reason = None
            if ys is None or xs is None or ys.shape != xs.shape:
                reason = "known_y's and known_x's of different shapes"
            elif any(isinstance(v, (str, bool)) and v is not ns.EMPTY
                     for v in (*ys.ravel(), *xs.ravel())):
                reason = "a text or logical value among known_y's or known_x's"
            if reason:
                context.refuse(f"{name}() given {reason} (its page does not say which "
                               "points Excel pairs then)")
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
    those, the counts are those of the page's example (tests/test_checked_frequency.py)."""
    import numpy as np

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
        if data is None or bins is None or not all(number(x) for x in bins):
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
