"""``napkin native``, the formula side: a formula's text as a tree of tokens and calls
(``parse``, ``render``, ``calls_of``), and ``Expr``, a translated argument
with what is known about it.

The tokens are openpyxl's (``openpyxl.formula.tokenizer.Tokenizer``), with numbers in
scientific notation joined back together.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from openpyxl.formula.tokenizer import Token, Tokenizer

from addin.formula import formula_text as ft


@dataclass
class Group:
    """A function call, a parenthesis or an array constant, with its tokens inside."""

    open: Token
    children: list
    close: Token | None = None

    @property
    def name(self) -> str | None:
        if self.open.type != Token.FUNC:
            return None
        name = self.open.value[:-1]
        name = name.rpartition("!")[2]  # 'napkin.xlam'!WEIGHT_GB( as an add-in call
        for prefix in ("_xludf.", "_xll."):
            if name.lower().startswith(prefix):
                name = name[len(prefix):]
        return ft.plain_name(name).upper()  # _xldudf_RIDGE( as Excel stores a Lite call

    def args(self) -> list[list]:
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
    tokens = _merge_exponents(Tokenizer("=" + formula).items)
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
    out = []
    for x in items:
        if isinstance(x, Group):
            out.append(x.open.value + render(x.children) + (x.close.value if x.close else ""))
        else:
            out.append(x.value)
    return "".join(out)


def calls_of(items, names) -> bool:
    for x in items:
        if isinstance(x, Group) and ((x.name in names) or calls_of(x.children, names)):
            return True
    return False


@dataclass
class Expr:
    """A translated argument: its Excel text and what is known about it.

    kind: ``missing``, ``const`` (``value`` the Python value), ``ref`` (one cell;
    ``value`` what it holds now, ``where`` its label), ``range``, ``call`` (a call of
    ours: ``result`` and ``domain``), ``expr`` (anything else; ``numeric`` when it is
    arithmetic, so a number or an error).
    """

    text: str
    kind: str
    value: object = None
    where: str = ""
    result: str = "number"
    domain: object = None
    numeric: bool = False

    @property
    def atom(self) -> str:
        """The text, safe to embed in a larger expression."""
        if self.kind in ("ref", "missing") or is_atomic(self.text):
            return self.text
        return f"({self.text})"


_OPERAND = re.compile(r"(?:'[^']*(?:''[^']*)*'|[A-Za-z0-9_.$\\]+)!?[A-Za-z0-9_.$:]*|"
                      r"\d+(?:\.\d*)?(?:[Ee][+-]?\d+)?|#[A-Z/0!?]+[!?A]?|\"(?:[^\"]|\"\")*\"")
_CALL_START = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\(")


def is_atomic(text: str) -> bool:
    """A single operand, or one call whose parenthesis closes at the end of the text."""
    text = text.strip()
    if _OPERAND.fullmatch(text):
        return True
    m = _CALL_START.match(text)
    if not m:
        return False
    depth, i, n = 0, m.end() - 1, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i = text.index('"', i + 1)
            while i + 1 < n and text[i + 1] == '"':
                i = text.index('"', i + 2)
        elif ch == "'":
            i = text.index("'", i + 1)
        elif ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth == 0:
                return i == n - 1
        i += 1
    return False


_ARITH = {"+", "-", "*", "/", "^"}


def is_numeric(items) -> bool:
    """True when the top level of an expression is arithmetic (a number or an error)."""
    ops = [x for x in items if isinstance(x, Token) and x.type in (
        Token.OP_IN, Token.OP_PRE, Token.OP_POST)]
    return bool(ops) and all(o.value in _ARITH or o.value == "%" for o in ops)
