"""``napkin native``, the formula side: ``Expr``, a translated argument with what is
known about it, and whether a tree's text is a number (``is_numeric``). The tree itself
(``parse``, ``render``, ``calls_of``, ``Group``, and ``is_atomic``) is the formula layer's
(``addin.formula.walk``): the one walk over formula text, which the template's builder
uses too.
"""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl.formula.tokenizer import Token

from addin.formula.walk import is_atomic


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


_ARITH = {"+", "-", "*", "/", "^"}


def is_numeric(items) -> bool:
    """True when the top level of an expression is arithmetic (a number or an error)."""
    ops = [x for x in items if isinstance(x, Token) and x.type in (
        Token.OP_IN, Token.OP_PRE, Token.OP_POST)]
    return bool(ops) and all(o.value in _ARITH or o.value == "%" for o in ops)
