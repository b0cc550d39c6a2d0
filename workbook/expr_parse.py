"""Formula text read into a ``workbook.expr`` tree: numbers, text, error values,
references, names, calls, the range operator between two references (``Span``) and the
operators by Excel's precedence (negation before ``^``, each binary operator
left-associative). ``Raw`` text is computed this way; every formula
of the template reads and renders back to the same tree (``tests/test_model_step.py``).
"""

from __future__ import annotations

import re

from workbook.expr import (
    _BINARY,
    COMPARE,
    POW,
    BinOp,
    Bool,
    Call,
    Cell,
    Err,
    Expr,
    Missing,
    Name,
    Neg,
    Num,
    Span,
    Text,
)

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<str>"(?:[^"]|"")*")
  | (?P<err>\#(?:NULL!|DIV/0!|VALUE!|REF!|NAME\?|NUM!|N/A))
  | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[Ee][+-]?\d+)?)
  | (?P<call>[A-Za-z_][\w.]*\()
  | (?P<ref>(?:(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?[A-Za-z]{1,3}\$?\d+
             (?::\$?[A-Za-z]{1,3}\$?\d+)?(?![\w(]))
  | (?P<name>[A-Za-z_][\w.]*)
  | (?P<op><>|<=|>=|[-+*/^&=<>(),:])
""", re.X)


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ValueError(f"cannot read formula text at {text[pos:pos + 20]!r}")
        pos = m.end()
        if m.lastgroup != "ws":
            out.append((m.lastgroup, m.group(0)))
    return out


def parse(text: str) -> Expr:
    """Formula text (with or without its ``=``) as a tree: numbers, text, error values,
    references, names, calls, the operators by Excel's precedence (negation before ``^``,
    each binary operator left-associative). What it cannot read raises ValueError."""
    toks = _tokens(text[1:] if text.startswith("=") else text)
    pos = 0

    def peek():
        return toks[pos] if pos < len(toks) else (None, None)

    def take():
        nonlocal pos
        pos += 1
        return toks[pos - 1]

    def binary(level: int) -> Expr:
        # levels COMPARE (1) .. POW (5); the operands of ^ are negations or atoms
        if level > POW:
            return unary()
        left = binary(level + 1)
        while True:
            kind, value = peek()
            if kind != "op" or _BINARY.get(value) != level:
                return left
            take()
            left = BinOp(value, left, binary(level + 1))

    def unary() -> Expr:
        kind, value = peek()
        if kind == "op" and value in "+-":
            take()
            inner = unary()
            return Neg(inner) if value == "-" else inner
        return atom()

    def atom() -> Expr:
        first = operand()
        return Span(first, (take(), operand())[1]) if peek() == ("op", ":") else first

    def operand() -> Expr:
        kind, value = take()
        if kind == "num":
            return Num(float(value))
        if kind == "str":  # (a Span, the range operator, is two of these: ``atom``)
            return Text(value[1:-1].replace('""', '"'))
        if kind == "err":
            return Err(value)
        if kind == "ref":
            return Cell(value)
        if kind == "name":
            if value.upper() in ("TRUE", "FALSE"):
                return Bool(value.upper() == "TRUE")
            return Name(value)
        if kind == "call":
            args: list[Expr] = []
            if peek() == ("op", ")"):
                take()
                return Call(value[:-1], ())
            while True:
                if peek() in (("op", ","), ("op", ")")):
                    args.append(Missing())
                else:
                    args.append(binary(COMPARE))
                sep = take()
                if sep == ("op", ")"):
                    return Call(value[:-1], tuple(args))
                if sep != ("op", ","):
                    raise ValueError(f"expected , or ) in {text!r}")
        if (kind, value) == ("op", "("):
            inner = binary(COMPARE)
            if take() != ("op", ")"):
                raise ValueError(f"unclosed ( in {text!r}")
            return inner
        raise ValueError(f"cannot read {value!r} in {text!r}")

    tree = binary(COMPARE)
    if pos != len(toks):
        raise ValueError(f"text left over in {text!r}: {toks[pos:]}")
    return tree


__all__ = ["parse"]
