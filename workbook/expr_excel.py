"""A formula expression said in Excel's own functions: each call of a napkin function
replaced by its declared native form (``udfs.functions``, ``native=``), the one text from
which ``napkin native`` translates the same call in a user's workbook.

A sheet whose cells must not call napkin (Plan's search: 60 candidate batches a row, each
one step, where one napkin call a candidate would pass the call budget of Lite) writes
the step it shares with every other sheet and asks for it in Excel's functions:
``in_excel(step, keep={"MOE_EXPERTS_READ", "REGIME_EFFICIENCY"})``. No sheet holds an
arithmetic twin of the step, so the two cannot drift apart.

The form is the formula alone: it assumes the arguments are in range, as the cells that
use it compute them (``napkin native`` adds the checks a user's input needs: the
catalog's errors for empty, wrong and out-of-range arguments). In an array formula over
a block (``elementwise``) MAX and MIN of two values become ``IF`` (MAX would reduce the
block's arrays to one value: ``addin.formula.walk.ELEMENTWISE``), and the test
MOD(n, d) = 0 (d divides n: the stages of DECODE_STEP_MS's native form) becomes
CEILING(n ÷ d, 1) = n ÷ d, for n, d > 0 the same [1, 2], in the one of those functions
napkin's engine has checked against Excel element by element (CEILING;
``addin/formula/excel_functions/``).

References
----------
.. [1] Microsoft Support, "MOD function": MOD(n, d) = n - d*INT(n/d).
.. [2] Microsoft Support, "CEILING function": a positive number rounded up, away from
   zero, to the nearest multiple of significance.
"""

from __future__ import annotations

import functools
import re

from workbook.expr import BinOp, Call, Expr, Missing, Name, Neg, Num, Raw, lift

#: A declared native text's placeholder (``{kv_gb}``), renamed so that it parses as a name.
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_SLOT = "NAPKIN_ARGUMENT_"


@functools.cache
def _declarations() -> dict:
    from udfs import catalog  # noqa: F401 - registers the declarations
    from udfs.machinery.declare import DECLARATIONS

    return DECLARATIONS


@functools.cache
def _form(name: str, omitted: frozenset[str]) -> Expr:
    """The declared native text of ``name`` with ``omitted`` arguments left out, as a
    tree whose arguments are names ``NAPKIN_ARGUMENT_<parameter>``."""
    from workbook.expr_parse import parse

    decl = _declarations()[name]
    texts = decl.native if isinstance(decl.native, dict) else {(): decl.native}
    text = {frozenset(k): v for k, v in texts.items()}.get(omitted)
    if text is None:
        raise ValueError(f"{name} has no native form with {sorted(omitted)} left out")
    return parse(_PLACEHOLDER.sub(lambda m: _SLOT + m.group(1), text))


def has_form(name: str) -> bool:
    """Whether napkin's function ``name`` has a declared native form of numbers only."""
    from udfs.inference.interconnects import Latency
    from udfs.inference.precisions import Precision
    from udfs.machinery.args import Arg

    decl = _declarations().get(name.upper())
    return decl is not None and isinstance(decl.native, str | dict) and all(
        isinstance(p.reader, Arg) and not isinstance(p.reader, Precision | Latency)
        and p.result_unit is None and not p.table for p in decl.params)


def native_call(name: str, args: tuple[Expr, ...]) -> Expr:
    """The call ``name(args)`` of napkin's function in its declared native form: each
    parameter's value substituted where the text has it (an optional one left out takes
    its declared default, or the text for it left out)."""
    from udfs.machinery.declare import OMIT

    decl = _declarations()[name.upper()]
    if not has_form(name):
        raise ValueError(f"{name} has no native form of numbers only")
    if len(args) > len(decl.params):
        raise ValueError(f"{name} takes {len(decl.params)} arguments, given {len(args)}")
    values, omitted = {}, set()
    for k, p in enumerate(decl.params):
        a = args[k] if k < len(args) else Missing()
        if not isinstance(a, Missing):
            values[p.name] = a
        elif p.default is OMIT:
            omitted.add(p.name)
        elif p.optional:
            values[p.name] = lift(float(p.reader.scalar(p.default)))
        else:
            raise ValueError(f"{name}: {p.name} is required")
    for group in decl.together or ():  # (the function refuses half a group: #VALUE!)
        if 0 < len(omitted & set(group)) < len(group):
            raise ValueError(f"{name}: {', '.join(group)} are given together or not at all")
    return _put(_form(name.upper(), frozenset(omitted)), values)


def _put(tree: Expr, values: dict[str, Expr]) -> Expr:
    """``tree`` with each placeholder name replaced by its argument."""
    return _map(tree, lambda e: values[e.name[len(_SLOT):]]
                if isinstance(e, Name) and e.name.startswith(_SLOT) else None)


def _map(e: Expr, fn) -> Expr:
    """``e`` rebuilt from the top: where ``fn(node)`` gives a replacement it stands for the
    node (and is not visited further); else the node's children are mapped."""
    got = fn(e)
    if got is not None:
        return got
    if isinstance(e, BinOp):
        return BinOp(e.op, _map(e.left, fn), _map(e.right, fn))
    if isinstance(e, Neg):
        return Neg(_map(e.operand_, fn))
    if isinstance(e, Call):
        return Call(e.name, tuple(_map(a, fn) for a in e.args))
    return e


def in_excel(e: Expr, keep=frozenset(), elementwise: bool = False) -> Expr:
    """``e`` with every call of napkin's functions that has a native form, but those of
    ``keep`` (upper-case names), in Excel's own functions; with ``elementwise`` (an array
    formula) MAX and MIN of two values as ``IF``, MOD(n, d) = 0 by CEILING. Formula text
    (``Raw``) is read first."""
    from workbook.expr_parse import parse

    keep = frozenset(keep)

    def one(x: Expr) -> Expr | None:
        if isinstance(x, Raw):
            return in_excel(parse(x.text), keep, elementwise)
        if not isinstance(x, Call):
            return None
        args = tuple(in_excel(a, keep, elementwise) for a in x.args)
        name = x.name.upper()
        if name not in keep and name in _declarations() and has_form(name):
            return in_excel(native_call(name, args), keep, elementwise)
        if elementwise and name in ("MAX", "MIN") and len(args) == 2:
            a, b = args
            return Call("IF", ((a.gt(b) if name == "MAX" else a.lt(b)), a, b))
        if elementwise and name == "MOD":
            raise ValueError("MOD has no element-by-element form napkin's engine has "
                             "checked; MOD(n, d) = 0 has one (see in_excel)")
        return Call(x.name, args)

    def divides(x: Expr) -> Expr | None:  # MOD(n, d) = 0, n and d > 0, element by element
        if elementwise and isinstance(x, BinOp) and x.op == "=" and isinstance(x.left, Call) \
                and x.left.name.upper() == "MOD" and x.right == Num(0.0):
            n, d = (in_excel(a, keep, elementwise) for a in x.left.args)
            return Call("CEILING", (n / d, Num(1.0))).eq(n / d)
        return one(x)

    return _map(e, divides)


__all__ = ["in_excel", "native_call", "has_form"]
