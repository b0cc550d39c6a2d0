"""Our corrections of how formulas' functions read some arguments, where Excel reads them
otherwise: IF's logical_test given as text, the counts of MID, LEFT and RIGHT given as
text that reads as a number. Each is a builder of ``addin.formula.patches``
(``by(original, key)`` returns the replacement).

References
----------
apache/poi FormulaEvalTestData, saved by Excel (tests/corpus/poi/FormulaEvalTestData_Copy.xlsx):
``IF("tRue","A","B")`` is ``"A"`` (M732), ``LEFT("a string","6")`` is ``"a stri"``
(E824), ``LEFT("a string",TRUE)`` is ``"a"`` (K824).
"""

from __future__ import annotations

from addin.formula import context
from addin.formula.fx_excel import text_value


def if_text(original, key: str):
    """Excel's IF given a text as logical_test: ``"TRUE"`` or ``"FALSE"`` in any case is
    that logical value (formulas gives ``#VALUE!`` for every text); any other text stops
    strict mode (``context.refuse``), Excel's value for it not being documented."""
    from formulas.functions import Error, XlError, get_error, wrap_ufunc

    def excel_if(condition, x, y=False):
        if isinstance(condition, str) and not isinstance(condition, XlError):
            word = condition.upper()
            if word not in ("TRUE", "FALSE"):
                context.refuse(f"IF with the text {condition!r} as its logical_test")
                return Error.errors["#VALUE!"]
            condition = word == "TRUE"
        return x if condition else y

    return {**original, "function": wrap_ufunc(
        excel_if, input_parser=lambda *a: a, check_nan=False,
        check_error=lambda cond, *a: get_error(cond))}


def text_counts(original, key: str):
    """formulas' MID, LEFT or RIGHT (``key``, and their B forms) reading a count or a
    start given as text as Excel does (``text_value``: ``" 3.5"`` is 3.5, truncated to
    3); formulas reads it with ``int()``, which takes ``"3"`` but not ``"3.5"``."""
    import functools

    from formulas.functions import XlError, replace_empty, text, wrap_ufunc

    raw = {"MID": text.xmid, "LEFT": text.xleft, "RIGHT": text.xright}[key.removesuffix("B")]

    def count(v):
        if isinstance(v, str) and not isinstance(v, XlError) and v.strip():
            return text_value(v)
        return v

    def excel_text(from_str, *counts):
        return raw(from_str, *map(count, counts))

    return wrap_ufunc(excel_text, input_parser=lambda *a: a, args_parser=lambda *a: map(
        functools.partial(replace_empty, empty=""), a))


def ranges_of_one_shape(original, key: str):
    """formulas' COUNTIFS, SUMIFS or AVERAGEIFS (``key``), refused in strict mode
    (``context.refuse``, ``#VALUE!``) where a criteria range, or the range summed, is not
    of the shape of the first criteria range: Microsoft's pages ask for "the same number
    of rows and columns" and formulas computes such a call anyway (COUNTIFS over a range
    of 6 by 2 and one of 6 by 1 gave a count)."""
    import functools

    import numpy as np
    from formulas.functions import Error

    first = 0 if key.endswith("COUNTIFS") else 1  # (SUMIFS: sum_range, then the pairs)

    def shape(v):
        return np.shape(getattr(v, "value", v))

    @functools.wraps(original)
    def of_one_shape(*args):
        areas = ([args[0]] if first else []) + list(args[first::2])
        if len({shape(a) for a in areas}) > 1:
            context.refuse(f"{key.removeprefix('_XLFN.')} with ranges of different sizes")
            return Error.errors["#VALUE!"]
        return original(*args)

    return of_one_shape
