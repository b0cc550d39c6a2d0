"""``napkin native``, the formula side: ``Expr``, a translated argument with what is
known about it, and what a tree's text says (``is_atomic``, ``is_numeric``). The tree
itself (``parse``, ``render``, ``calls_of``, ``Group``) is the formula layer's
(``addin.formula.walk``): the one walk over formula text, which the template's builder
uses too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from openpyxl.formula.tokenizer import Token


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
