"""Formulas of an Excel-saved workbook re-done in plain IEEE arithmetic on the values
Excel saved: the parser and evaluator behind ``tools.cancel_evidence``.

A formula is parsed (openpyxl's tokenizer, Excel's precedence: unary minus, ``%``,
``^``, ``*`` ``/``, ``+`` ``-``, ``&``, comparisons) into a tree whose leaves are
numbers and references, and evaluated on the values Excel cached in the cells it
references: those are Excel's own values of the operands, so a ``+`` or ``-`` at the
tree's top is given exactly the two numbers Excel added, and the value Excel cached for
the formula shows what it made of their sum. Only what can be re-done exactly is
evaluated: numbers, references to cells of the same workbook, ``+ - * / ^ %``, unary
minus, comparisons and ``SUM`` (added left to right); anything else (another function,
a defined name, text) makes the formula ``Unsupported``. Nothing here is used by the
add-in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from openpyxl.formula.tokenizer import Token, Tokenizer, TokenizerError

from addin.ooxml.a1 import col2num

#: binary operators by precedence (higher binds tighter), as Excel parses them
_BINARY = {"^": 5, "*": 4, "/": 4, "+": 3, "-": 3, "&": 2,
           "=": 1, "<>": 1, "<": 1, ">": 1, "<=": 1, ">=": 1}
_NEG, _PCT = 6, 7  # unary minus binds tighter than ^ in Excel (=-2^2 is 4)
_REF = re.compile(r"^(?:(?P<sheet>'(?:[^']|'')+'|[^!]+)!)?"
                  r"\$?(?P<c1>[A-Z]{1,3})\$?(?P<r1>\d+)"
                  r"(?::\$?(?P<c2>[A-Z]{1,3})\$?(?P<r2>\d+))?$", re.I)
COMPARISONS = ("=", "<>", "<", ">", "<=", ">=")


class Unsupported(Exception):
    """A formula (or a part of it) that cannot be re-done exactly from saved values."""


@dataclass
class Node:
    kind: str  # num, ref, str, bool, bin, neg, pct, func
    value: object = None  # the number, the text, the operator, the function's name
    args: list = field(default_factory=list)
    paren: bool = False  # written inside parentheses of its own


def parse(formula: str) -> Node:
    """The tree of ``formula`` (with or without its leading ``=``)."""
    text = formula if formula.startswith("=") else "=" + formula
    try:
        items = Tokenizer(text).items
    except TokenizerError as exc:
        raise Unsupported(str(exc)) from exc
    tokens = [t for t in items if t.type != Token.WSPACE]
    node, at = _expression(tokens, 0, 0)
    if at != len(tokens):
        raise Unsupported(f"unparsed from token {at}")
    return node


def _expression(tokens, at: int, floor: int):
    left, at = _prefix(tokens, at)
    while at < len(tokens):
        t = tokens[at]
        if t.type == Token.OP_POST and t.value == "%":
            left, at = Node("pct", args=[left]), at + 1
            continue
        if t.type != Token.OP_IN or t.value not in _BINARY:
            break
        prec = _BINARY[t.value]
        if prec <= floor:
            break
        # left-associative: the right side takes only what binds tighter
        right, at = _expression(tokens, at + 1, prec)
        left = Node("bin", t.value, [left, right])
    return left, at


def _prefix(tokens, at: int):
    if at >= len(tokens):
        raise Unsupported("formula ends early")
    t = tokens[at]
    if t.type == Token.OP_PRE:
        inner, at = _prefix_power(tokens, at + 1)
        return (Node("neg", args=[inner]) if t.value == "-" else inner), at
    if t.type == Token.PAREN and t.subtype == Token.OPEN:
        inner, at = _expression(tokens, at + 1, 0)
        if at >= len(tokens) or tokens[at].type != Token.PAREN:
            raise Unsupported("unbalanced parenthesis")
        inner.paren = True
        return inner, at + 1
    if t.type == Token.FUNC and t.subtype == Token.OPEN:
        name, args, at = t.value[:-1].upper(), [], at + 1
        if tokens[at].type == Token.FUNC and tokens[at].subtype == Token.CLOSE:
            return Node("func", name, args), at + 1
        while True:
            arg, at = _expression(tokens, at, 0)
            args.append(arg)
            t2 = tokens[at]
            if t2.type == Token.SEP and t2.subtype == Token.ARG:
                at += 1
                continue
            if t2.type == Token.FUNC and t2.subtype == Token.CLOSE:
                return Node("func", name, args), at + 1
            raise Unsupported(f"unexpected {t2.value!r} in {name}()")
    if t.type == Token.OPERAND:
        if t.subtype == Token.NUMBER:
            return Node("num", float(t.value)), at + 1
        if t.subtype == Token.TEXT:
            return Node("str", t.value[1:-1].replace('""', '"')), at + 1
        if t.subtype == Token.LOGICAL:
            return Node("bool", t.value.upper() == "TRUE"), at + 1
        if t.subtype == Token.RANGE:
            return Node("ref", t.value), at + 1
    raise Unsupported(f"token {t.value!r}")


def _prefix_power(tokens, at: int):
    """The operand of a unary minus: itself and any ``%`` after it (``^`` binds looser)."""
    inner, at = _prefix(tokens, at)
    while at < len(tokens) and tokens[at].type == Token.OP_POST:
        inner, at = Node("pct", args=[inner]), at + 1
    return inner, at


@dataclass
class Step:
    """One ``+`` or ``-`` (or comparison) of two numbers met while evaluating."""
    op: str
    left: float
    right: float
    result: object  # the IEEE sum (a float), or the comparison's result (a bool)
    top: bool  # the formula's top node, not inside parentheses
    depth: int


class Evaluator:
    """Evaluates trees on a workbook's saved values (``values[sheet][(row, col)]``), in
    the sheet ``sheet``; ``correct(op, a, b, result, top)`` may replace the IEEE result
    of each ``+``/``-`` and ``equal(a, b)`` say whether a comparison takes two numbers as
    equal (rules under test); every step is recorded in ``steps``."""

    def __init__(self, values: dict, sheet: str, correct=None, equal=None):
        self.values, self.sheet, self.correct, self.equal = values, sheet, correct, equal
        self.steps: list[Step] = []

    def cells(self, ref: str) -> list:
        m = _REF.match(ref)
        if not m or "[" in ref:
            raise Unsupported(f"reference {ref!r}")
        sheet = m.group("sheet") or self.sheet
        if sheet.startswith("'"):
            sheet = sheet[1:-1].replace("''", "'")
        if sheet not in self.values:
            raise Unsupported(f"sheet {sheet!r}")
        c1, r1 = col2num(m.group("c1").upper()), int(m.group("r1"))
        c2, r2 = (col2num(m.group("c2").upper()), int(m.group("r2"))) if m.group("c2") \
            else (c1, r1)
        if (r2 - r1 + 1) * (c2 - c1 + 1) > 100_000:
            raise Unsupported("large range")
        got = self.values[sheet]
        return [got.get((r, c)) for r in range(min(r1, r2), max(r1, r2) + 1)
                for c in range(min(c1, c2), max(c1, c2) + 1)]

    def number(self, node: Node, depth: int) -> float:
        v = self.value(node, depth)
        if v is None:
            return 0.0  # an empty cell
        if isinstance(v, bool) or not isinstance(v, float):
            raise Unsupported(f"operand {v!r}")
        return v

    def value(self, node: Node, depth: int = 0, top: bool = False):
        k = node.kind
        if k in ("num", "str", "bool"):
            return node.value
        if k == "ref" and node.value.startswith("#"):
            raise Unsupported("an error value")
        if k == "ref":
            got = self.cells(node.value)
            if len(got) != 1:
                raise Unsupported("a range as a value")
            return got[0]
        if k == "neg":
            return -self.number(node.args[0], depth + 1)
        if k == "pct":
            return self.number(node.args[0], depth + 1) / 100.0
        if k == "func":
            return self.function(node, depth)
        return self.binary(node, depth, top and not node.paren)

    def function(self, node: Node, depth: int):
        name, args = node.value, node.args
        if name == "IF" and len(args) in (2, 3):
            test = self.value(args[0], depth + 1)
            if not isinstance(test, (bool, float)):
                raise Unsupported("IF of a test that is not a number")
            if test:
                return self.value(args[1], depth + 1)
            return self.value(args[2], depth + 1) if len(args) == 3 else False
        if name == "IFERROR" and len(args) == 2:
            return self.value(args[0], depth + 1)  # (an error raises Unsupported)
        if name == "ABS" and len(args) == 1:
            return abs(self.number(args[0], depth + 1))
        if name != "SUM":
            raise Unsupported(f"function {name}")
        total = 0.0
        for a in node.args:
            if a.kind == "ref":
                for v in self.cells(a.value):
                    if isinstance(v, float):
                        total += v
                    elif isinstance(v, str) and v.startswith("#"):
                        raise Unsupported("an error value")
            else:
                total += self.number(a, depth + 1)
        return total

    def binary(self, node: Node, depth: int, top: bool):
        op = node.value
        if op == "&":
            raise Unsupported("&")
        a, b = (self.number(x, depth + 1) for x in node.args)
        if op in COMPARISONS:
            same = self.equal(a, b) if self.equal else a == b
            result = {"=": same, "<>": not same, "<": a < b and not same,
                      ">": a > b and not same, "<=": a < b or same,
                      ">=": a > b or same}[op]
            self.steps.append(Step(op, a, b, result, top, depth))
            return result
        if op in "+-":
            result = a + b if op == "+" else a - b
            self.steps.append(Step(op, a, b, result, top, depth))
            return self.correct(op, a, b, result, top) if self.correct else result
        try:
            return {"*": lambda: a * b, "/": lambda: a / b, "^": lambda: a ** b}[op]()
        except (ZeroDivisionError, OverflowError, ValueError) as exc:
            raise Unsupported(f"{op}: {exc}") from exc
