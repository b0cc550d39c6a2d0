"""Excel's AGGREGATE in its reference form (function_num 1 to 12) and with a reference as
its array (14 to 17: LARGE, SMALL, PERCENTILE.INC, QUARTILE.INC), every option.

References
----------
Microsoft Support, "AGGREGATE function": ``AGGREGATE(function_num, options, ref1,
[ref2], ...)``; function_num 1 AVERAGE, 2 COUNT, 3 COUNTA, 4 MAX, 5 MIN, 6 PRODUCT, 7
STDEV.S, 8 STDEV.P, 9 SUM, 10 VAR.S, 11 VAR.P, 12 MEDIAN, 13 MODE.SNGL, 14 LARGE, 15
SMALL, 16 PERCENTILE.INC, 17 QUARTILE.INC, 18 PERCENTILE.EXC, 19 QUARTILE.EXC (14-19
the array form, with k); options 0 or omitted: ignore nested SUBTOTAL and AGGREGATE
functions; 1: those and hidden rows; 2: those and error values; 3: those, hidden rows
and error values; 4: ignore nothing; 5: hidden rows; 6: error values; 7: hidden rows
and error values. "If a second ref argument is required but not provided, AGGREGATE
returns a #VALUE! error"; "The AGGREGATE function is designed for columns of data, or
vertical ranges": hidden columns are not left out.
"""

from __future__ import annotations

import numpy as np

from addin.excel import args as xa
from addin.excel.aggregates import _NESTED, AGGREGATES
from addin.excel.args import Cannot
from addin.formula import context, fx, ranges
from udfs.machinery.errors import ExcelError

#: function_num -> the aggregate of ``addin.excel.aggregates.AGGREGATES`` (2 and 3,
#: COUNT and COUNTA, are counted here)
FUNCTIONS = {1: "AVERAGE", 4: "MAX", 5: "MIN", 6: "PRODUCT", 7: "STDEV", 8: "STDEVP",
             9: "SUM", 10: "VAR", 11: "VARP", 12: "MEDIAN"}


def _whole(v, what: str, low: int, high: int) -> int:
    """A one-value argument as a whole number from ``low`` to ``high``; a fraction or a
    logical value refused (its page does not say how it is read), else #VALUE!."""
    one = xa.one_value(v)
    if isinstance(one, fx.load().XlError):
        raise Cannot(f"AGGREGATE() given an error value as its {what} (its page does not say "
                     "the result)")
    x = xa.number(v, f"AGGREGATE's {what}")
    if isinstance(xa.scalar(v, what), (bool, np.bool_)) or x != int(x):
        raise Cannot(f"AGGREGATE() given {what} {x:g} that is not a whole number (its page "
                     "does not say how it is read)")
    if not low <= x <= high:
        raise ExcelError("#VALUE!", f"AGGREGATE's {what} {x:g} is not {low} to {high}")
    return int(x)


def _cells(refs, skip_nested: bool, skip_hidden: bool, option: int):
    """The values of the cells of references ``refs`` AGGREGATE reads: nested SUBTOTAL
    and AGGREGATE cells left out (``skip_nested``), hidden rows (``skip_hidden``)."""
    ns = fx.load()
    book = getattr(context.STATE, "book", None)
    for ref in refs:
        if fx.is_omitted(ref) or not isinstance(ref, ns.Ranges):
            raise Cannot("AGGREGATE() given an array or a value where its reference form "
                         "reads a reference (its array form is not checked)")
        for (sid, r1, c1, _r2, _c2), arr in ranges.area_values(ref):
            sheet = book.sheets[book.sid_map[sid]] if book and sid in book.sid_map else None
            if sheet is None and (skip_hidden or skip_nested):
                raise Cannot("AGGREGATE() given a reference whose sheet napkin does not "
                             "read (its hidden rows and nested formulas are not known)")
            hidden = sheet.hidden_rows if sheet is not None else set()
            rows = range(r1, r1 + arr.shape[0])
            if not skip_hidden and sheet is not None and sheet.filtered and \
                    any(r in hidden for r in rows):
                raise Cannot(f"AGGREGATE() given option {option}, which keeps hidden rows, "
                             "over rows a filter hides (its page does not say whether "
                             "they count)")
            nested = sheet.formula_at if sheet is not None else {}
            for (i, j), v in np.ndenumerate(arr):
                r, c = r1 + i, c1 + j
                if skip_hidden and r in hidden:
                    continue
                node = nested.get((r, c)) if skip_nested else None
                if node is not None and node.text and _NESTED.search(node.text):
                    continue
                yield v


def aggregate(function_num, options, *refs):
    """Excel's ``AGGREGATE(function_num, options, ref1, [ref2], ...)`` in its reference
    form (the module's docstring): of the numbers in the references (text, logical
    values and empty cells passed over; COUNTA counts every cell not empty), the cells
    the option leaves out not read. An error value left in is the result (two different
    ones refused: which comes first no page says). Refused in strict mode
    (``Cannot``): function_num 13 to 19, an array for a reference, no numbers (for
    other than COUNT and COUNTA: the page gives no value), an error value left in for
    COUNT or COUNTA."""
    ns = fx.load()
    code = _whole(function_num, "function_num", 1, 19)
    option = 0 if fx.is_omitted(options) else _whole(options, "options", 0, 7)
    if code in (13, 18, 19):
        raise Cannot(f"AGGREGATE() given function_num {code} (MODE.SNGL, PERCENTILE.EXC and "
                     "QUARTILE.EXC are not checked)")
    if not refs or (code >= 14 and len(refs) != 2):
        raise ExcelError("#VALUE!", "AGGREGATE needs a reference after options (and k "
                         "after it for function_num 14 to 19)")
    k = refs[1] if code >= 14 else None
    refs = refs[:1] if code >= 14 else refs
    skip_errors = option in (2, 3, 6, 7)
    numbers, filled, errors = [], 0, set()
    for v in _cells(refs, option <= 3, option in (1, 3, 5, 7), option):
        if isinstance(v, ns.XlError):
            if not skip_errors:
                errors.add(str(v))
            continue
        if v is ns.EMPTY or v is None:
            continue
        filled += 1
        if not isinstance(v, (bool, np.bool_, str)):
            numbers.append(float(v))
    if errors:
        if code in (2, 3) or len(errors) > 1:
            raise Cannot(f"AGGREGATE() given function_num {code} and option {option} over "
                         f"error values ({', '.join(sorted(errors))}) it does not leave out "
                         "(its page does not say the result)")
        code_ = errors.pop()
        raise ExcelError(code_, context.message_for(code_))
    if code == 3:
        return filled
    if code == 2:
        return len(numbers)
    if not numbers:
        raise Cannot(f"AGGREGATE() given function_num {code} over no numbers (its page does "
                     "not say the result)")
    if code >= 14:
        return _kth(code, sorted(numbers), xa.number(k, "AGGREGATE's k"))
    return AGGREGATES[FUNCTIONS[code]](*numbers)


def _kth(code: int, xs: list, k: float) -> float:
    """LARGE (14), SMALL (15), PERCENTILE.INC (16) or QUARTILE.INC (17) of the sorted
    numbers ``xs`` at ``k``, as their pages say: the k-th largest or smallest, the
    percentile at rank k (n - 1) from the smallest interpolated between its neighbours,
    the quartile quart the percentile quart / 4. Refused: a k that is not a whole number
    for LARGE, SMALL and QUARTILE.INC (truncated or rounded, the pages differ), and a k
    out of range (AGGREGATE's page gives no error for it; LibreOffice's #VALUE! differs
    from the #NUM! of the functions' own pages: the differential test)."""
    n = len(xs)
    if code in (14, 15, 17) and k != int(k):
        raise Cannot(f"AGGREGATE() given function_num {code} and k {k:g}, not a whole number "
                     "(how it is read the pages do not agree)")
    if code in (14, 15):
        if not 1 <= k <= n:
            raise Cannot(f"AGGREGATE() given k {k:g}, not 1 to the {n} numbers (its page does "
                         "not say the error: SMALL's says #NUM!, LibreOffice gives #VALUE!)")
        return xs[n - int(k)] if code == 14 else xs[int(k) - 1]
    p = k / 4 if code == 17 else k
    if not 0 <= p <= 1:
        raise Cannot(f"AGGREGATE() given k {k:g} outside its range (its page does not say "
                     "the error)")
    h = p * (n - 1)
    lo = int(h)
    return xs[lo] if lo + 1 >= n else xs[lo] + (h - lo) * (xs[lo + 1] - xs[lo])
