"""Formula text as a tree, and the one walk over it: each token with the functions it
sits inside.

The tokens are openpyxl's (``openpyxl.formula.tokenizer.Tokenizer``), with numbers in
scientific notation joined back together (``_merge_exponents``). ``parse`` gives a tree of
tokens and ``Group`` nodes (a function call, a parenthesis, an array constant);
``render`` writes it back, character for character. ``tokens`` walks it in text order
and gives each token the names of the groups around it, outermost first: what the
template's array formulas (``workbook.arrays``, which widens references) and
``napkin native``'s cell-by-cell translation of an array formula
(``addin.transform.native.cells``, which narrows them) both ask ("is this reference read
element by element?"), answered by the one table ``ELEMENTWISE``.

References
----------
.. [1] Microsoft Support, "Guidelines and examples of array formulas": a function given a
   range where it takes one value is evaluated once per element of the array formula's
   range; one that takes a range (SUM, INDEX, MATCH...) reads it whole.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from openpyxl.formula.tokenizer import Token, Tokenizer

from addin.formula import excel_functions
from addin.formula import formula_text as ft

#: Excel's functions that compute element by element on an array argument in an array
#: formula [1] (besides the operators and napkin's own functions, which broadcast:
#: ``udfs.machinery.broadcast``). Any other function (AND, OR, MAX, SUM, INDEX, MATCH...) reads
#: an array argument whole, so a reference inside it is not one element a cell (declared
#: ``elementwise``).
ELEMENTWISE = excel_functions.names("elementwise", spelled=True)


class _read_once:
    """``functools.cached_property`` without its lock (Python 3.11 takes one at each
    first read: the cells of native's array formulas make groups by the ten thousand,
    each read once)."""

    def __init__(self, fn):
        self.fn, self.attr = fn, fn.__name__
        self.__doc__ = fn.__doc__

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = obj.__dict__[self.attr] = self.fn(obj)
        return value


@functools.lru_cache(maxsize=4096)
def _function_name(opening: str) -> str:
    """``Group.name`` of a call opened by ``opening`` (``_xldudf_RIDGE(``), read once a
    text: the cells of an array formula said one by one open their calls alike."""
    name = opening[:-1]
    name = name.rpartition("!")[2]  # 'napkin.xlam'!WEIGHT_GB( as an add-in call
    for prefix in ("_xludf.", "_xll."):
        if name.lower().startswith(prefix):
            name = name[len(prefix):]
    return ft.plain_name(name).upper()  # _xldudf_RIDGE( as Excel stores a Lite call


@dataclass
class Group:
    """A function call, a parenthesis or an array constant, with its tokens inside."""

    open: Token
    children: list
    close: Token | None = None

    @_read_once
    def name(self) -> str | None:
        """The function's name in upper case, as napkin's catalog and Excel's set name it
        (an add-in's or Lite's stored prefix dropped); None for a parenthesis. (Read once:
        ``napkin native`` asks it of each group several times.)"""
        if self.open.type != Token.FUNC:
            return None
        return _function_name(self.open.value)

    @_read_once
    def text(self) -> str:
        """The group's text, as ``render([group])`` writes it (read once: ``napkin
        native`` keys each call it translates by it, and a call's text holds its nested
        calls' texts, each read once too)."""
        return "".join((self.open.value, *(x.text if isinstance(x, Group) else x.value
                                           for x in self.children),
                        self.close.value if self.close is not None else ""))

    def args(self) -> list[list]:
        """The items of each argument, in order (none for an empty call)."""
        if not self.children:
            return []
        out, cur = [], []
        for x in self.children:
            if isinstance(x, Token) and x.type == Token.SEP and x.subtype == Token.ARG:
                out.append(cur)
                cur = []
            else:
                cur.append(x)
        out.append(cur)
        return out


def parse(formula: str) -> list:
    """The formula (without its leading "=") as a tree of tokens and groups."""
    return tree(_merge_exponents(Tokenizer("=" + formula).items))


def tree(tokens: list[Token]) -> list:
    """The tree of a sequence of tokens (``parse``'s, or one made from them: the tokens of
    one formula with some references replaced), with no tokenising."""
    root: list = []
    stack: list[tuple[Group | None, list]] = [(None, root)]
    for t in tokens:
        if t.subtype == Token.OPEN:
            g = Group(t, [])
            stack[-1][1].append(g)
            stack.append((g, g.children))
        elif t.subtype == Token.CLOSE and len(stack) > 1:
            stack.pop()[0].close = t
        else:
            stack[-1][1].append(t)
    return root


_MANTISSA = re.compile(r"(?:\d+\.?\d*|\.\d+)[Ee]")


def _merge_exponents(tokens: list[Token]) -> list[Token]:
    """Join "70E" "+" "9" back into the number 70E+9: the tokenizer reads a number in
    scientific notation only with a one-digit mantissa, and the rest as a range."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if (t.subtype == Token.RANGE and _MANTISSA.fullmatch(t.value) and i + 2 < len(tokens)
                and tokens[i + 1].value in "+-" and tokens[i + 1].type == Token.OP_IN
                and tokens[i + 2].subtype == Token.NUMBER and tokens[i + 2].value.isdigit()):
            out.append(Token(t.value + tokens[i + 1].value + tokens[i + 2].value,
                             Token.OPERAND, Token.NUMBER))
            i += 3
            continue
        out.append(t)
        i += 1
    return out


def render(items) -> str:
    """The text of a tree (``parse``'s), as it was read."""
    return "".join(t.value for t, _ in tokens(items))


def tokens(items, around: tuple[str, ...] = ()) -> Iterator[tuple[Token, tuple[str, ...]]]:
    """Every token of a tree in text order, each with the names of the groups it sits
    inside, outermost first (a function's ``Group.name``, ``""`` for a parenthesis or an
    array constant; a group's own parentheses are outside it)."""
    for x in items:
        if isinstance(x, Group):
            yield x.open, around
            yield from tokens(x.children, around + (x.name or "",))
            if x.close is not None:
                yield x.close, around
        else:
            yield x, around


def is_reference(token: Token) -> bool:
    """Whether ``token`` is a reference operand (a cell, a range, a name)."""
    return token.type == Token.OPERAND and token.subtype == Token.RANGE


@functools.cache
def napkin_names() -> frozenset[str]:
    """napkin's function names, upper case (``udfs.catalog``): each computes element by
    element (``udfs.machinery.broadcast``)."""
    from udfs.catalog import CATALOG

    return frozenset(n.upper() for n in CATALOG)


def read_whole(around: tuple[str, ...], ours: frozenset[str] | None = None) -> list[str]:
    """The functions of ``around`` (``tokens``'s) that read an array argument whole
    (neither in ``ELEMENTWISE`` nor napkin's, ``ours``: upper-case names, by default
    ``napkin_names``), outermost first: a reference inside any of them is not one
    element per cell."""
    ours = napkin_names() if ours is None else ours
    return [f for f in around if f and f not in ELEMENTWISE and f not in ours]


def may_call(text: str, names: frozenset[str]) -> bool:
    """Whether formula ``text`` may call a function of ``names`` (upper case): one of them
    is in it, in any letter case. A call's name (``Group.name``: its token's text less an
    add-in's or Lite's prefix, in upper case) is part of the formula's text, so a formula
    without any calls none, and need not be tokenised to say so (``calls_of``)."""
    return _names_pattern(names).search(text.upper()) is not None


@functools.lru_cache(maxsize=8)
def _names_pattern(names: frozenset[str]) -> re.Pattern:
    return re.compile("|".join(map(re.escape, sorted(names, key=len, reverse=True))))


def calls_of(items, names) -> bool:
    """Whether the tree calls any function of ``names`` (upper case)."""
    for x in items:
        if isinstance(x, Group) and ((x.name in names) or calls_of(x.children, names)):
            return True
    return False


_OPERAND = re.compile(
    r"(?:'(?:[^']|'')+'!|[A-Za-z0-9_.$\\]+!)?[A-Za-z0-9_.$\\:]+"  # a reference or name
    r"|(?:\d+\.?\d*|\.\d+)(?:[Ee][+-]?\d+)?"  # a number
    r"|#[A-Z/0!?]+[!?A]?"  # an error value
    r'|"(?:[^"]|"")*"')  # a text literal
_CALL_HEAD = re.compile(r"[A-Za-z_][\w.]*\(")
_BRACKETS = re.compile(r'"(?:[^"]|"")*"|\'(?:[^\']|\'\')*\'|[(){}]')


def is_atomic(text: str) -> bool:
    """Whether formula text is one operand that no operator around it can split, so that
    it needs no parentheses: a reference or name, a number, an error value, a text
    literal, a call, or a whole parenthesised expression or array constant."""
    t = text.strip()
    if _OPERAND.fullmatch(t):
        return True
    m = _CALL_HEAD.match(t)
    start = m.end() - 1 if m else 0
    if not m and t[:1] not in ("(", "{"):
        return False
    depth = 0
    for b in _BRACKETS.finditer(t, start):  # string literals and quoted names passed over
        ch = b.group()
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth == 0:
                return b.end() == len(t)
    return False
