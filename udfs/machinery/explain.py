"""EXPLAIN: a function's formula with the numbers substituted.

``explain("DECODE_FLOOR", 70e9, "FP8", 3.35)`` gives::

    DECODE_FLOOR: (70 GB + 0 GB KV) ÷ 3.35 TB/s = 20.9 ms (memory floor; ...)

Each function's declaration (``udfs.machinery.declare``) says how its work is shown: a function
of a ``Work``, which holds every argument read exactly as the function reads it
(same units, same defaults, same errors). Every intermediate shown is computed by the
same topic-module function the formula uses, and the result shown is the function's own
result: the text can never disagree with the cell.
"""

from __future__ import annotations

import math

from .args import is_range
from .declare import DECLARATIONS, OMIT, REQUIRED
from .errors import ExcelError, value_error
from .stored import plain_name


def num(x: float) -> str:
    """A number as a person writes it in a formula: 4 significant digits, and counts
    above a million in engineering notation (70e9)."""
    if x == 0:
        return "0"
    if x == int(x) and abs(x) < 1e9:
        return f"{int(x):,}"
    if abs(x) >= 1e6 or abs(x) < 1e-3:
        exp = int(math.floor(math.log10(abs(x)) / 3) * 3)
        mant = f"{x / 10**exp:.4g}"
        return f"{mant}e{exp}"
    return f"{x:.4g}"


def q(x: float, unit: str) -> str:
    """A quantity: the number and its unit."""
    return f"{num(x)} {unit}".rstrip()


def show(v) -> str:
    """A result as the cell shows it."""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return num(v)
    return str(v)


def plural(n: float, word: str) -> str:
    return f"{num(n)} {word}{'' if n == 1 else 's'}"


#: Appended where a utilisation or an efficiency comes out above 1.
ABOVE_ONE = " (above 1: an assumption is wrong)"


def above_one(x: float) -> str:
    return ABOVE_ONE if x > 1 else ""


class Work:
    """The arguments of one call, for a declaration's ``explain``.

    ``w.NAME`` is argument NAME as the function read it (a number in its default unit,
    the default when omitted, None for an omitted OMIT argument); ``w.raw[NAME]`` is the
    Excel value as given; ``w.unit`` the result's unit as text; ``w.result`` the result.
    """

    def __init__(self, fn, values: list, result):
        self._fn = fn
        self.raw = {p.name: (values[i] if i < len(values) else None)
                    for i, p in enumerate(fn.params)}
        self.result = result

    @property
    def unit(self) -> str:
        for p in self._fn.params:
            if p.result_unit is not None:
                v = self.raw[p.name]
                return p.result_unit if v is None else v
        raise AttributeError("unit")

    def __getattr__(self, name):
        try:
            p = self._fn.param(name)
        except KeyError:
            raise AttributeError(name) from None
        v = self.raw[name]
        if v is None and p.default is OMIT:
            return None
        if v is None and p.default is not REQUIRED:
            v = p.default
        return v if p.reader is None else p.reader.scalar(v)


def _check_arity(fn, values):
    if len(values) > len(fn.params):
        raise value_error(f"{fn.name} takes at most {len(fn.params)} arguments")
    required = [p.name for p in fn.params if not p.optional]
    if len(values) < len(required):
        raise value_error(f"{fn.name} needs {', '.join(required)}")


def explain(name, *values) -> str:
    """The worked formula of function ``name`` for ``values`` (Excel values)."""
    key = plain_name(str(name).strip().lstrip("=").split("(")[0]).upper()
    if key not in DECLARATIONS:
        raise ExcelError("#N/A", f"function_name: no catalog function named {name!r}")
    fn = DECLARATIONS[key]
    tables = {i for i, p in enumerate(fn.params) if p.table}
    if any(is_range(v) for i, v in enumerate(values) if i not in tables):
        raise value_error("EXPLAIN works on single values, not ranges")
    _check_arity(fn, values)
    result = fn.excel(*values)
    if isinstance(result, ExcelError):
        return f"{key}: {result}"
    values, named = list(values), ""
    b = fn.by_name
    if b is not None and b.test(values[fn.params.index(fn.param(b.trigger))]):
        given = dict.fromkeys(p.name for p in fn.params)
        given.update(zip([p.name for p in fn.params], values, strict=False))
        named = b.describe(*[given[n] for n in b.reads]) + "; "
        values = b.values(fn, values)
    body = fn.explain(Work(fn, values, result)) if fn.explain else f"= {show(result)}"
    return f"{key}: {named}{body}"
