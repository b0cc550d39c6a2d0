"""Formula expressions: the template's formulas as typed trees, rendered to Excel's text
with the parentheses they need, and evaluated in Python from the same tree.

A sheet module writes ``step / Name("SCENARIO_TOKENS_PER_STEP")`` instead of the text
``f"{step}/SCENARIO_TOKENS_PER_STEP"``; the parentheses follow from Excel's operator
precedence [1], so a sum divided, a difference under ``^`` or a negated power are
parenthesised by construction (a slip under ``^`` once made Calibration's value negative).

Precedence, tightest first, as Excel applies it [1]: negation (``-x``), percent,
``^``, ``*`` and ``/``, ``+`` and ``-``, ``&``, comparisons. Every binary operator is
left-associative, ``^`` included (``2^3^2`` is 64 in Excel), and negation binds tighter
than ``^`` (``-2^2`` is 4). ``render`` writes a child in parentheses where its operator
binds looser than its parent's, or as loose on the right.

References and defined names are objects: ``Name("SCENARIO_BATCH")``, ``Column("MODEL_LAYERS")``
(a table column; ``.at(row)`` is its ``INDEX``), ``Cell("B18")``. A formula text the
migration has not turned into a tree yet is ``Raw(text)``: it is parenthesised wherever
it is an operand unless it is one reference, number or call. ``str(e)`` (and so an
f-string) gives the text as an operand, parenthesised unless atomic, so that text
assembled the old way around an expression stays right.

``evaluate(env)`` computes a tree in Python: names and cells from ``env``, napkin's
functions from ``udfs.catalog``, a few of Excel's (``workbook.expr_values``: Excel's
rules for operands, errors and comparisons); an error value of an operand is the result,
as in Excel. ``workbook.expr_parse.parse`` reads formula text into a tree (how ``Raw``
text is computed). The model's arithmetic is tested that way, in
milliseconds (``tests/test_expr.py``), and the same trees render the workbook's
formulas.

References
----------
.. [1] Microsoft, "Calculation operators and precedence in Excel",
   https://support.microsoft.com/en-us/office/calculation-operators-and-precedence-in-excel-48be406d-4975-4d31-b2b8-7af9e0e2878a
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from addin.formula.walk import is_atomic
from workbook.expr_values import (
    EXCEL,
    ExcelErrorValue,
    _compare,
    _number,
    _text,
    number_text,
)

# Binding strength of each kind of expression (higher binds tighter).
COMPARE, CONCAT, ADD, MUL, POW, NEG, ATOM = 1, 2, 3, 4, 5, 7, 9
_BINARY = {"=": COMPARE, "<>": COMPARE, "<": COMPARE, "<=": COMPARE, ">": COMPARE,
           ">=": COMPARE, "&": CONCAT, "+": ADD, "-": ADD, "*": MUL, "/": MUL, "^": POW}


@dataclass
class Env:
    """What ``evaluate`` reads: the values of names and cells, and functions beyond
    napkin's catalog and ``EXCEL`` (by upper-case name)."""

    names: Mapping[str, object] = field(default_factory=dict)
    cells: Mapping[str, object] = field(default_factory=dict)
    functions: Mapping[str, Callable] = field(default_factory=dict)


def _binary(op: str, doc: str | None = None):
    """The two methods of the operator ``op``: ``self op o`` and ``o op self`` (a number or
    a bool on the other side is lifted; text is refused, see ``lift``)."""
    def left(self, o):
        return BinOp(op, self, lift(o))

    def right(self, o):
        return BinOp(op, lift(o), self)

    left.__doc__ = doc or f"``self {op} o``."
    right.__doc__ = f"``o {op} self``."
    return left, right


class Expr:
    """A formula expression. Subclasses give ``prec`` and ``render``/``evaluate``."""

    prec = ATOM

    def render(self) -> str:  # pragma: no cover - every subclass renders
        raise NotImplementedError

    def evaluate(self, env: Env):  # pragma: no cover - every subclass evaluates
        raise NotImplementedError

    def formula(self) -> str:
        """The cell's formula text: ``=`` and the expression."""
        return "=" + self.render()

    def operand(self) -> str:
        """The text as an operand of an unknown operator: parenthesised unless atomic."""
        text = self.render()
        return text if self.prec == ATOM else f"({text})"

    def __str__(self) -> str:
        return self.operand()

    def __format__(self, spec: str) -> str:
        return format(self.operand(), spec)

    # -- operators --------------------------------------------------------------------
    def __add__(self, o):
        if isinstance(o, str):  # text assembled around an expression: its operand form
            return self.operand() + o
        return BinOp("+", self, lift(o))

    def __radd__(self, o):
        if isinstance(o, str):  # ("=" + expression: the legacy way to write a formula)
            return o + self.operand()
        return BinOp("+", lift(o), self)

    __sub__, __rsub__ = _binary("-")
    __mul__, __rmul__ = _binary("*")
    __truediv__, __rtruediv__ = _binary("/")
    __pow__, __rpow__ = _binary("^")
    concat = _binary("&", "``self & o`` (text joined).")[0]
    eq, ne = _binary("=")[0], _binary("<>")[0]
    lt, le = _binary("<")[0], _binary("<=")[0]
    gt, ge = _binary(">")[0], _binary(">=")[0]

    def __neg__(self):
        return Neg(self)


def lift(x) -> Expr:
    """An operand as an expression: an ``Expr`` as it is, a number as ``Num``, a bool as
    ``Bool``. Text is not guessed at (a reference or a literal?): say ``Text`` or
    ``Raw``."""
    if isinstance(x, Expr):
        return x
    if isinstance(x, bool):
        return Bool(x)
    if isinstance(x, int | float):
        return Num(x)
    raise TypeError(f"not an expression: {x!r} (wrap text in Text(...) or Raw(...))")


_CELL_TEXT = re.compile(r"(?:(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?[A-Za-z]{1,3}\$?\d+")
_NAME_TEXT = re.compile(r"[A-Z_][A-Z0-9_.]*")


def of(x) -> Expr:
    """``lift``, with formula text read as what it is: one cell reference a ``Cell``, a
    defined name (upper case) a ``Name``, anything else ``Raw``. Where an expression meets
    a caller that still passes formula strings; the text renders as it was given."""
    if not isinstance(x, str):
        return lift(x)
    if _CELL_TEXT.fullmatch(x):
        return Cell(x)
    if _NAME_TEXT.fullmatch(x):
        return Name(x)
    return Raw(x)


# ------------------------------------------------------------------------------ atoms


@dataclass(frozen=True)
class Num(Expr):
    value: float

    @property
    def prec(self):  # a negative number is a negation: "(-1)" as an operand
        return NEG if self.value < 0 else ATOM

    def render(self) -> str:
        return number_text(self.value)

    def evaluate(self, env):
        return float(self.value)


@dataclass(frozen=True)
class Bool(Expr):
    value: bool

    def render(self) -> str:
        return "TRUE" if self.value else "FALSE"

    def evaluate(self, env):
        return self.value


@dataclass(frozen=True)
class Text(Expr):
    """A text literal."""

    value: str

    def render(self) -> str:
        return '"' + self.value.replace('"', '""') + '"'

    def evaluate(self, env):
        return self.value


@dataclass(frozen=True)
class Err(Expr):
    """An error value (``#NUM!``, ``#N/A``)."""

    code: str

    def render(self) -> str:
        return self.code

    def evaluate(self, env):
        from udfs.machinery.errors import ExcelError

        return ExcelError(self.code, "")


@dataclass(frozen=True)
class Name(Expr):
    """A defined name (``SCENARIO_BATCH``)."""

    name: str

    def render(self) -> str:
        return self.name

    def evaluate(self, env):
        try:
            return env.names[self.name]
        except KeyError:
            raise KeyError(f"no value for the name {self.name}") from None


@dataclass(frozen=True)
class Column(Name):
    """A table column, a defined name of a range (``MODEL_LAYERS``)."""

    def at(self, row) -> Call:
        """The column's value on ``row`` (an expression): ``INDEX(column,row)``."""
        return Call("INDEX", (self, lift(row)))


@dataclass(frozen=True)
class Cell(Expr):
    """A reference as written (``B18``, ``$A$1``, ``Sizing!B18``)."""

    ref: str

    def render(self) -> str:
        return self.ref

    def evaluate(self, env):
        try:
            return env.cells[self.ref.replace("$", "")]
        except KeyError:
            raise KeyError(f"no value for the cell {self.ref}") from None


@dataclass(frozen=True)
class Missing(Expr):
    """An argument left out (``WEIGHT_GB(p,prec,,kept)``): empty text."""

    def render(self) -> str:
        return ""

    def evaluate(self, env):
        return None


@dataclass(frozen=True)
class Raw(Expr):
    """Formula text not (yet) a tree: kept as written, parenthesised as an operand unless
    ``is_atomic``; ``evaluate`` reads it with ``parse`` first."""

    text: str

    @property
    def prec(self):
        return ATOM if is_atomic(self.text) else COMPARE - 1

    def render(self) -> str:
        return self.text

    def evaluate(self, env):
        from workbook.expr_parse import parse

        return parse(self.text).evaluate(env)  # (read as a tree to be computed)


# ------------------------------------------------------------------------ operations

@dataclass(frozen=True)
class BinOp(Expr):
    op: str
    left: Expr
    right: Expr

    @property
    def prec(self):
        return _BINARY[self.op]

    def render(self) -> str:
        p = self.prec
        left = self.left.render()
        if self.left.prec < p:
            left = f"({left})"
        right = self.right.render()
        if self.right.prec <= p or (self.right.prec == NEG and p >= ADD):
            right = f"({right})"  # left-associative; "a--1", "a^-b" written "a-(-1)"
        return f"{left}{self.op}{right}"

    def evaluate(self, env):
        from udfs.machinery.errors import ExcelError

        try:
            a, b = self.left.evaluate(env), self.right.evaluate(env)
            if self.op in ("=", "<>", "<", "<=", ">", ">="):
                return _compare(self.op, a, b)
            if self.op == "&":
                return _text(a) + _text(b)
            x, y = _number(a), _number(b)
            if self.op == "+":
                return x + y
            if self.op == "-":
                return x - y
            if self.op == "*":
                return x * y
            if self.op == "/":
                if y == 0:
                    return ExcelError("#DIV/0!", "division by zero")
                return x / y
            if x == 0 and y < 0:
                return ExcelError("#DIV/0!", "0 to a negative power")
            if x == 0 and y == 0:  # Excel's 0^0 (LibreOffice gives 1)
                return ExcelError("#NUM!", "0 to the power 0")
            if x < 0 and y != int(y):
                return ExcelError("#NUM!", "a negative number to a fractional power")
            try:
                return x ** y
            except OverflowError:
                return ExcelError("#NUM!", "too large")
        except ExcelErrorValue as e:
            return e.error


@dataclass(frozen=True)
class Span(Expr):
    """Excel's range operator between two references (``INDEX(r,2):INDEX(r,5)``): the
    tightest-binding operator, so its sides are atoms (a call, a cell or a name). Read and
    rendered; not computed in Python (its value is a reference, not a number)."""

    left: Expr
    right: Expr

    prec = ATOM

    def render(self) -> str:
        return f"{self.left.render()}:{self.right.render()}"

    def evaluate(self, env):
        raise ValueError(f"a range of two references is not computed in Python: "
                         f"{self.render()}")


@dataclass(frozen=True)
class Neg(Expr):
    operand_: Expr

    prec = NEG

    def render(self) -> str:
        inner = self.operand_.render()
        return "-" + (inner if self.operand_.prec >= NEG else f"({inner})")

    def evaluate(self, env):
        try:
            return -_number(self.operand_.evaluate(env))
        except ExcelErrorValue as e:
            return e.error


# ----------------------------------------------------------------------------- calls

@dataclass(frozen=True)
class Call(Expr):
    """A call of a function, Excel's or napkin's: ``Call("RIDGE", (peak, bandwidth))``."""

    name: str
    args: tuple = ()

    def render(self) -> str:
        return f"{self.name}({','.join(a.render() for a in self.args)})"

    def evaluate(self, env):
        name = self.name.upper()
        if name in env.functions:
            return env.functions[name](*[a.evaluate(env) for a in self.args])
        if name in EXCEL:
            try:
                return EXCEL[name](env, *self.args)
            except ExcelErrorValue as e:
                return e.error
        from udfs.catalog import CATALOG

        if name in CATALOG:
            return CATALOG[name](*[a.evaluate(env) for a in self.args])
        raise KeyError(f"evaluate knows no function {self.name}")


class _Functions:
    """``F.IF(a, b, c)``, ``F.RIDGE(peak, bw)``: a ``Call`` of any function by name,
    its arguments lifted (numbers) or expressions."""

    def __getattr__(self, name: str) -> Callable[..., Call]:
        if not name.isupper():
            raise AttributeError(name)
        return lambda *args: Call(name, tuple(lift(a) for a in args))


F = _Functions()


def words(*parts) -> Expr:
    """Text joined with ``&``: each ``str`` part a text literal (``Text``), each other part
    an expression (a number, a cell, a call): ``words("batch ", Cell("E58"), " fits")``
    renders ``"batch "&E58&" fits"``."""
    if not parts:
        return Text("")
    out = None
    for p in parts:
        e = Text(p) if isinstance(p, str) else lift(p)
        out = e if out is None else BinOp("&", out, e)
    return out


def larger(a, b, elementwise: bool = False) -> Expr:
    """The larger of ``a`` and ``b``: MAX, or with ``elementwise`` IF(a>b, a, b), so that an
    array formula takes it element by element (MAX reads an array whole)."""
    a, b = of(a), of(b)
    return F.IF(a.gt(b), a, b) if elementwise else F.MAX(a, b)


__all__ = ["Expr", "Env", "Num", "Bool", "Text", "Err", "Name", "Column", "Cell", "Missing",
           "Raw", "BinOp", "Span", "Neg", "Call", "F", "words", "larger", "EXCEL", "lift", "of",
           "number_text", "is_atomic", "COMPARE", "CONCAT", "ADD", "MUL", "POW", "NEG", "ATOM"]
