"""Excel's rules for the values ``workbook.expr`` computes in Python: an operand of
arithmetic (empty is 0, TRUE is 1, text that is a number is its number, other text
#VALUE!), text joined with ``&``, comparisons (numbers before text before logicals, text
without case), error values passed on, and the few Excel functions the template's model
uses (``EXCEL``: each takes the environment and its unevaluated arguments, so that IF
computes only the branch it takes, as Excel does).

References
----------
.. [1] Microsoft, "Calculation operators and precedence in Excel" (comparison of values
   of different types), and each function's page of support.microsoft.com.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import Decimal


def number_text(x: float) -> str:
    """A number as formula text: integers in digits (``1000000000``), others in the
    shortest digits that read back the same float, written out without ``E`` notation
    (``0.000000001``: the template's formulas hold no ``1E-09`` literal)."""
    x = float(x)
    if math.isfinite(x) and x == int(x) and abs(x) < 1e15:
        return str(int(x))
    if not math.isfinite(x):
        return repr(x).upper()
    return format(Decimal(repr(x)), "f")


class ExcelErrorValue(Exception):
    """Raised inside ``evaluate`` to carry an error value out of an operation."""

    def __init__(self, error):
        super().__init__(getattr(error, "code", error))
        self.error = error


def _error(v):
    from udfs.machinery.errors import ExcelError

    return v if isinstance(v, ExcelError) else None


def _number(v):
    """An operand of arithmetic as Excel reads it: empty is 0, TRUE 1, a number as it
    is, text that is a number its number; other text is #VALUE!."""
    from udfs.machinery.errors import ExcelError

    if (e := _error(v)) is not None:
        raise ExcelErrorValue(e)
    if v is None:
        return 0.0
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, int | float):
        return float(v)
    try:
        return float(str(v).strip())
    except ValueError:
        raise ExcelErrorValue(ExcelError("#VALUE!", f"{v!r} is not a number")) from None


def _text(v) -> str:
    if (e := _error(v)) is not None:
        raise ExcelErrorValue(e)
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return number_text(v)
    return str(v)


def _compare(op: str, a, b) -> bool:
    for v in (a, b):
        if (e := _error(v)) is not None:
            raise ExcelErrorValue(e)
    # Excel orders numbers < text < logicals; text compares without case
    def rank(v):
        if v is None:
            return (0, 0.0)
        if isinstance(v, bool):
            return (2, float(v))
        if isinstance(v, int | float):
            return (0, float(v))
        return (1, str(v).upper())

    x, y = rank(a), rank(b)
    return {"=": x == y, "<>": x != y, "<": x < y, "<=": x <= y, ">": x > y,
            ">=": x >= y}[op]


def _if(env, cond, yes, no=None):
    c = cond.evaluate(env)
    if (e := _error(c)) is not None:
        return e
    try:
        truth = bool(_number(c)) if not isinstance(c, str) else None
    except ExcelErrorValue as e:
        return e.error
    if truth is None:
        from udfs.machinery.errors import ExcelError

        return ExcelError("#VALUE!", "IF's condition is text")
    if truth:
        return yes.evaluate(env)
    return False if no is None else no.evaluate(env)


def _values(env, args):
    return [a.evaluate(env) for a in args]


def _numbers(vals):
    out = []
    for v in vals:
        for x in (v if isinstance(v, list | tuple) else [v]):
            if (e := _error(x)) is not None:
                raise ExcelErrorValue(e)
            if isinstance(x, int | float) and not isinstance(x, bool):
                out.append(float(x))
    return out


def _aggregate(fn):
    def run(env, *args):
        try:
            nums = _numbers(_values(env, args))
        except ExcelErrorValue as e:
            return e.error
        return fn(nums) if nums else 0.0
    return run


def _index(env, table, row, col=None):
    from udfs.machinery.errors import ExcelError

    values, r = table.evaluate(env), row.evaluate(env)
    if (e := _error(r)) is not None:
        return e
    k = int(_number(r))
    if not isinstance(values, list | tuple) or not 1 <= k <= len(values):
        return ExcelError("#REF!", "INDEX's row is outside the range")
    return values[k - 1]


def _isnumber(env, x):
    v = x.evaluate(env)
    return isinstance(v, int | float) and not isinstance(v, bool)


#: Excel's functions ``evaluate`` knows (each takes the environment and the unevaluated
#: arguments, so that IF evaluates only the branch it takes, as Excel does).
EXCEL: dict[str, Callable] = {
    "IF": _if,
    "MAX": _aggregate(max),
    "MIN": _aggregate(min),
    "SUM": _aggregate(sum),
    "INDEX": _index,
    "ISNUMBER": _isnumber,
    "ISTEXT": lambda env, x: isinstance(x.evaluate(env), str),
    "LEFT": lambda env, t, n=None: _left(t.evaluate(env), 1 if n is None else n.evaluate(env)),
    "AND": lambda env, *a: all(bool(v) for v in _values(env, a)),
    "OR": lambda env, *a: any(bool(v) for v in _values(env, a)),
    "NOT": lambda env, a: not a.evaluate(env),
    "ABS": lambda env, a: abs(_number(a.evaluate(env))),
    "LN": lambda env, a: _ln(_number(a.evaluate(env))),
    "MOD": lambda env, n, d: _mod(_number(n.evaluate(env)), _number(d.evaluate(env))),
    "CEILING": lambda env, x, s: _ceiling(_number(x.evaluate(env)), _number(s.evaluate(env))),
}


def _left(text, n):
    """Excel's LEFT of text: its first ``n`` characters (Microsoft Support, "LEFT, LEFTB
    functions"); the template applies it to text only."""
    return str(text)[:int(_number(n))]


def _mod(n: float, d: float):
    """Excel's MOD: n − d × INT(n ÷ d), the sign of d (Microsoft Support, "MOD
    function"); #DIV/0! for d = 0."""
    from udfs.machinery.errors import ExcelError

    return n - d * math.floor(n / d) if d else ExcelError("#DIV/0!", "MOD by 0")


def _ceiling(x: float, s: float):
    """Excel's CEILING for x ≥ 0 and s > 0 (the only forms the template writes): x rounded
    up to a multiple of s (Microsoft Support, "CEILING function"). Other forms are not
    evaluated here (ValueError), rather than guessed."""
    if x < 0 or s <= 0:
        raise ValueError(f"CEILING({x}, {s}): evaluated here for x ≥ 0 and s > 0 only")
    return math.ceil(x / s) * s


def _ln(x: float):
    from udfs.machinery.errors import ExcelError

    return math.log(x) if x > 0 else ExcelError("#NUM!", "LN of a number not above 0")
