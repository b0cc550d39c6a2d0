"""Hypothesis strategies that write formulas over the listed functions and the operators.

A formula is a call of one listed function (``signatures.SIGNATURES``) with atoms of
``inputs.ATOMS`` as arguments, now and then a nested call or an operation in a scalar
argument; or an operation (``signatures.BINARY_OPERATORS``, unary minus and plus) on
atoms and calls. ``formulas(n, seed)`` draws ``n`` distinct ones, the same for the same
seed.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from differential import inputs
from differential import signatures as sig

SCALAR = {"n", "t", "v", "vr", "d"}  # kinds of argument that take a nested expression (not "i":
# a computed count as large as 1E+20 sends LibreOffice into a loop of that many steps)


@dataclass(frozen=True)
class Formula:
    """A generated formula: its text as Excel shows it (no ``=``, no ``_xlfn.``) and
    what it tests (the function called outermost, or ``operator X``)."""

    text: str
    subject: str


def functions() -> list[str]:
    """The listed functions the test calls (all but those LibreOffice cannot referee)."""
    return sorted(n for n in sig.SIGNATURES if n not in sig.NOT_REFEREED)


@st.composite
def call(draw, name: str, depth: int = 0) -> str:
    """A call of ``name`` with arguments of its signature."""
    if name in sig.VOLATILE_FORMS:
        return draw(st.sampled_from(sig.VOLATILE_FORMS[name]))
    required, optional, repeat = sig.SIGNATURES[name]
    kinds = list(required) + list(optional[:draw(st.integers(0, len(optional)))])
    if repeat:
        kinds += [repeat] * draw(st.integers(0, 2))
    args = [draw(argument(k, depth)) for k in kinds]
    text = f"{name}({','.join(args)})"
    if name in sig.ARRAY_RESULT:
        wrap = draw(st.sampled_from(["SUM({})", "INDEX({},1,1)", "COUNT({})"]))
        text = wrap.format(text)
    return text


def argument(kind: str, depth: int):
    """An argument of ``kind``: an atom, or (scalar kinds, at depth 0) a nested call or
    an operation on atoms."""
    atom = st.sampled_from(inputs.ATOMS[kind])
    if kind not in SCALAR or depth > 0:
        return atom
    nested = st.sampled_from(functions()).flatmap(lambda n: call(n, depth + 1))
    return st.one_of(atom, atom, atom, atom, nested, operation(depth + 1))


def _operand(depth: int):
    atom = st.sampled_from(inputs.ATOMS["v"] + inputs.ATOMS["n"])
    if depth > 0:
        return atom
    return st.one_of(atom, atom, st.sampled_from(functions()).flatmap(lambda n: call(n, 1)))


@st.composite
def operated(draw, depth: int = 0) -> tuple[str, str]:
    """``(text, subject)`` of an operation on two operands, or a unary one on one."""
    if draw(st.integers(0, 5)) == 3:
        op = draw(st.sampled_from(sig.UNARY_OPERATORS))
        return op + draw(_operand(depth)), f"unary {op}"
    left, right = draw(_operand(depth)), draw(_operand(depth))
    op = draw(st.sampled_from(sig.BINARY_OPERATORS))
    text = f"{left}{op}{right}"
    return (text if depth == 0 else f"({text})"), f"operator {op}"


def operation(depth: int = 0):
    """The text of an operation (see ``operated``)."""
    return operated(depth).map(lambda pair: pair[0])


@st.composite
def formula(draw) -> Formula:
    """A formula: mostly a call of a listed function, else an operation."""
    if draw(st.integers(0, 6)) == 3:
        return Formula(*draw(operated()))
    name = draw(st.sampled_from(functions()))
    return Formula(draw(call(name)), name)


@contextlib.contextmanager
def _without_local_constants():
    """Hypothesis now and then draws a constant found in the source of the project's
    modules already imported (``hypothesis.internal.conjecture.providers``): the draws
    would depend on what the process imported before. Within this block it finds none."""
    try:
        from hypothesis.internal.conjecture import providers
        found, empty = providers._get_local_constants, providers.Constants()
    except (ImportError, AttributeError):  # (a release without them)
        yield
        return
    providers._get_local_constants = lambda: empty
    try:
        yield
    finally:
        providers._get_local_constants = found


def formulas(n: int, seed_value: int = 0) -> list[Formula]:
    """``n`` distinct formulas (fewer if the draws repeat), the same for the same seed,
    whatever the process imported before."""
    found: dict[str, Formula] = {}

    @seed(seed_value)
    @settings(max_examples=n, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(formula())
    def collect(f):
        if not _HANGS.search(f.text):  # (sig.LIBREOFFICE_HANGS: not drawn)
            found.setdefault(f.text, f)

    with _without_local_constants():
        collect()
    return list(found.values())


_HANGS = re.compile("|".join(sig.LIBREOFFICE_HANGS))
_FUTURE = re.compile(r"(?<![\w.])(" + "|".join(re.escape(f) for f in
                                                  sorted(sig.FUTURE, key=len, reverse=True))
                     + r")\(")


def stored(text: str) -> str:
    """The formula as a file stores it: ``=`` and ``_xlfn.`` before the functions Excel
    added after 2007."""
    return "=" + _FUTURE.sub(r"_xlfn.\1(", text)
