"""Which calls of a compiled formula reach its value: IF, IFS, IFERROR, IFNA, CHOOSE and
SWITCH return one of their arguments, where ``formulas`` computes them all.

``IF(condition, value_if_true, value_if_false)`` returns one value, as its condition
says; ``IFERROR(value, value_if_error)`` (and ``IFNA``) its second argument only when the
first is an error; ``CHOOSE(index_num, value1, ...)`` the value chosen; ``IFS`` the value
of the first TRUE condition; ``SWITCH`` the result of the value that matches, or its
default. In a one-cell formula Excel evaluates only the argument IF or CHOOSE returns;
IFS and SWITCH evaluate every argument but return one, so the others do not reach the
value either. The arguments that may not be returned are *conditional*
(``conditional``); a call reached from the formula's result through no conditional
argument is *certain* (``Flow.certain``). Strict mode's check of argument forms
(``addin.engine.forms``) refuses at compile only what certain calls are given; for the
other calls of a one-cell formula it waits for the values: ``Flow.live`` lists the calls
the values of one run reach through the arguments the branching functions return
(``taken``). In an array formula Excel evaluates every argument of IF and CHOOSE, and
their sizes shape the result (Excel lifts the function over the arrays), so there every
call counts.

Where the values do not settle which argument is returned (a condition that is an
array, a range of many cells, text or an error value; an index that is not a number; a
SWITCH value Excel may or may not match), every argument counts; so do all the
conditions of IFS and all the values SWITCH compares.

References
----------
Microsoft Support, "IF function", "IFS function", "IFERROR function", "IFNA function",
"CHOOSE function", "SWITCH function". C. Williams, "Short-circuiting Excel Formulas: IF,
CHOOSE, IFS and SWITCH" and "Short-circuiting in Array Formulas", FastExcel blog, January
2023 (which arguments Excel evaluates, with a function that logs its calls).
"""

from __future__ import annotations

import math
import re

import numpy as np

from addin.engine.boot import ready
from addin.excel.args import one_value
from addin.formula import excel_functions, fx

#: the functions that evaluate only some of their arguments (names as ``bare`` gives them;
#: declared ``branching``)
BRANCHING = excel_functions.names("branching")

_MANY = object()  # an argument of many values: it does not settle a branch


def conditional(name: str, n: int) -> frozenset:
    """The positions (0 first) among ``n`` arguments of ``name`` that Excel may leave
    unevaluated."""
    if name == "IF":
        return frozenset({1, 2})
    if name in ("IFERROR", "IFNA"):
        return frozenset({1})
    if name == "IFS":
        return frozenset(range(1, n, 2))
    if name == "CHOOSE":
        return frozenset(range(1, n))
    if name == "SWITCH":  # (expression, value1, result1, ..., [default])
        return frozenset(range(2, n, 2)) | (frozenset({n - 1}) if n % 2 == 0 else
                                            frozenset())
    return frozenset()


def _truth(v) -> bool | None:
    """A condition's logical value as IF takes it (a number: not 0; an empty cell:
    FALSE), or None when the value does not settle it."""
    v = one_value(v, _MANY)
    if isinstance(v, bool):
        return v
    if type(v) in (int, float):
        return None if math.isnan(v) else v != 0
    return False if v is ready().EMPTY else None


def _holds_error(v) -> bool:
    """Whether a value is, or may hold, an error value (True when it cannot tell)."""
    ns = ready()
    if isinstance(v, ns.Ranges):
        try:
            v = v.value
        except Exception:
            return True
    if isinstance(v, np.ndarray):
        return any(isinstance(x, ns.XlError) for x in v.ravel())
    if isinstance(v, ns.XlError):
        return True
    return not (isinstance(v, (bool, int, float, str, np.generic)) or v is ns.EMPTY)


def _kind(v) -> int | None:
    """0 a number, 1 text, 2 a logical value; None for anything else."""
    if isinstance(v, bool):
        return 2
    if type(v) in (int, float):
        return 0
    if type(v) is str:
        return 1
    return None


def _match(a, b) -> bool | None:
    """Whether SWITCH matches ``a`` with ``b`` (Excel's ``=``: text without case, a number
    never equal to text or a logical value); None when the values do not settle it."""
    a, b = one_value(a, _MANY), one_value(b, _MANY)
    ka, kb = _kind(a), _kind(b)
    if ka is None or kb is None:
        return None
    if ka != kb:
        return False
    if ka == 1:
        if not (a.isascii() and b.isascii()):
            return None  # (case rules beyond ASCII)
        return a.upper() == b.upper()
    return a == b


def taken(name: str, args: list) -> frozenset | None:
    """The positions of ``args`` (the values a call of ``name`` is given) that Excel
    evaluates; None: all of them."""
    n = len(args)
    if name == "IF":
        t = _truth(args[0]) if n else None
        return None if t is None else frozenset({0, 1} if t else {0, 2})
    if name in ("IFERROR", "IFNA"):
        return None if not n or _holds_error(args[0]) else frozenset({0})
    if name == "CHOOSE":
        i = one_value(args[0], _MANY) if n else None
        if type(i) not in (int, float) or not math.isfinite(i) or not 1 <= int(i) < n:
            return None
        return frozenset({0, int(i)})
    if name == "IFS":
        out = set(range(0, n, 2))
        for p in range(0, n - 1, 2):
            t = _truth(args[p])
            if t is not False:
                out.add(p + 1)
            if t:
                break
        return frozenset(out)
    if name == "SWITCH":
        out = {0} | set(range(1, n - 1, 2))
        for p in range(1, n - 1, 2):
            same = _match(args[0], args[p])
            if same is None:  # every result from here on may be the one
                return frozenset(out | set(range(p + 1, n, 2)) |
                                 ({n - 1} if n % 2 == 0 else set()))
            if same:
                return frozenset(out | {p + 1})
        return frozenset(out | ({n - 1} if n % 2 == 0 else set()))
    return None


def dynamic_one(node) -> bool:
    """Whether ``node`` is a formula Excel 365 saved as a dynamic array formula of one cell
    (``<f t="array" ref="L3">`` with the cell's dynamic-array metadata): a plain formula
    there, whose result was one value. Its branches are Excel's as a one-cell formula's:
    the business corpus's fifteenth part (seen), Financial Calculator.xlsx, Backend!L3 =
    IFS(B3="SIP",B13*B10*C4,...,B3="SIP+Lumpsum",B17*B10*C4+B16) saved 2957599.97, the
    third value, though the first, not taken, was "---"*5, #VALUE!."""
    if node is None or node.is_name or node.spill is None or not getattr(node, "dynamic", False):
        return False
    r1, c1, r2, c2 = node.spill
    return r1 == r2 and c1 == c2


def bare(name: str) -> str:
    """A function's name as listed: upper case, without ``_xlfn.`` / ``_xlws.``."""
    return name.upper().removeprefix("_XLFN.").removeprefix("_XLWS.")


def graph_name(key) -> str:
    """A graph function's name (``IF<3>``...) as ``bare`` gives it ("" for a key that is
    not a name)."""
    return bare(re.sub(r"<\d+>$", "", key)) if isinstance(key, str) else ""


class Flow:
    """The branching functions of a compiled formula's graph and the calls each argument
    reaches, in the order the graph computes them.

    Parameters
    ----------
    functions : list
        The graph's functions, ``(function, inputs, outputs, filters)`` each.
    names : list
        Each function's name in the graph (``IF<3>``...).
    order : list of int
        The positions of ``functions`` in the order they are computed.
    out : object
        The graph node of the formula's result.
    """

    __slots__ = ("steps", "out", "certain")

    def __init__(self, functions, names, order, out):
        self.out = out
        steps = []
        for g in order:
            ins, outs = functions[g][1], functions[g][2]
            skip = 0
            while skip < len(ins) and fx.is_dispatch_token(ins[skip]):
                skip += 1
            name = graph_name(names[g])
            steps.append((g, tuple(ins), tuple(outs), name if name in BRANCHING else "",
                          skip))
        self.steps = steps
        self.certain = self._reached(None)

    @staticmethod
    def of(functions, names, order, out) -> Flow | None:
        """The flow of a graph that calls a branching function, else None."""
        if any(graph_name(names[g]) in BRANCHING for g in order):
            return Flow(functions, names, order, out)
        return None

    def _reached(self, vals: dict | None) -> frozenset:
        """The positions of the functions the result reaches: through the arguments
        ``taken`` given ``vals`` (the values of a run), or (None) through the arguments
        that are not ``conditional``; every function when none gives the result."""
        if not any(self.out in outs for _g, _ins, outs, _name, _skip in self.steps):
            return frozenset(g for g, *_ in self.steps)
        wanted, got = {self.out}, set()
        for g, ins, outs, name, skip in reversed(self.steps):
            if not any(o in wanted for o in outs):
                continue
            got.add(g)
            if not name:
                wanted.update(ins)
                continue
            if vals is None:
                drop = conditional(name, len(ins) - skip)
                wanted.update(k for p, k in enumerate(ins) if p - skip not in drop)
                continue
            args = [vals.get(k, _MANY) for k in ins[skip:]]
            keep = None if any(a is _MANY or a is ready().NONE for a in args) else \
                taken(name, args)
            wanted.update(k for p, k in enumerate(ins)
                          if keep is None or p < skip or p - skip in keep)
        return frozenset(got)

    def live(self, vals: dict) -> frozenset:
        """The positions of the functions Excel evaluates, given the values of one run of
        the graph (``vals``: graph node -> value)."""
        return self._reached(vals)
