"""workbook.expr: formula text with the parentheses Excel's precedence needs, by
construction, and the same trees evaluated in Python.

The precedence facts are Microsoft's ("Calculation operators and precedence in Excel"):
negation before ^ (-2^2 = 4), ^ left-associative (2^3^2 = 64). The property test renders
random trees and has napkin's Excel engine (``addin.engine.evaluate``, formulas' parser)
compute the text: equal to the tree's own Python value, so the text says what the tree
means."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from addin.engine import evaluate
from udfs.machinery.errors import ExcelError
from workbook.expr import (
    Bool,
    Call,
    Cell,
    Column,
    Env,
    F,
    Missing,
    Name,
    Num,
    Raw,
    Text,
    is_atomic,
    number_text,
)

a, b, c = Name("A_"), Name("B_"), Name("C_")


@pytest.mark.parametrize(("expr", "text"), [
    ((a + b) * c, "(A_+B_)*C_"),
    (a + b * c, "A_+B_*C_"),
    (a - (b - c), "A_-(B_-C_)"),
    ((a - b) - c, "A_-B_-C_"),
    (a / (b * c), "A_/(B_*C_)"),
    (a / b * c, "A_/B_*C_"),
    ((a - b) ** c, "(A_-B_)^C_"),  # the Calibration slip: a difference under ^
    (a ** (b ** c), "A_^(B_^C_)"),  # ^ is left-associative in Excel
    ((a ** b) ** c, "A_^B_^C_"),
    (-(a ** 2), "-(A_^2)"),  # negation binds tighter than ^
    ((-a) ** 2, "-A_^2"),
    (a - (-b), "A_-(-B_)"),
    (a * Num(-1), "A_*(-1)"),
    (1 - (a / 2), "1-A_/2"),
    (a.concat(Text('say "x"')), 'A_&"say ""x"""'),
    ((a + 1).lt(b), "A_+1<B_"),
    (a.lt(b).eq(Bool(True)), "A_<B_=TRUE"),
    (F.IF(a.gt(0), a / b, Text("none")), 'IF(A_>0,A_/B_,"none")'),
    (Column("MODEL_LAYERS").at(Cell("$B$20")), "INDEX(MODEL_LAYERS,$B$20)"),
    (Call("WEIGHT_GB", (a, b, Missing(), c)), "WEIGHT_GB(A_,B_,,C_)"),
    (Num(1e9) * a, "1000000000*A_"),
    (Num(1e-5) + a, "0.00001+A_"),
    (Raw("x+y") * 2, "(x+y)*2"),
    (Raw("IF(x>0,x,1)") * 2, "IF(x>0,x,1)*2"),
    (Raw("Sizing!$B$18") / 2, "Sizing!$B$18/2"),
])
def test_render_parenthesises_by_precedence(expr, text):
    assert expr.render() == text
    assert expr.formula() == "=" + text


def test_an_fstring_gets_the_operand_form():
    # text still assembled the old way around an expression stays right
    e = a + b
    assert f"{e}*2" == "(A_+B_)*2" and f"{F.MAX(a, b)}*2" == "MAX(A_,B_)*2"
    assert str(Name("SCENARIO_BATCH")) == "SCENARIO_BATCH"


@pytest.mark.parametrize(("text", "atomic"), [
    ("B18", True), ("$B$18", True), ("Sizing!$B$18", True), ("'My sheet'!A1:B2", True),
    ("SCENARIO_BATCH", True), ("12.5", True), ("1E-05", True), ('"a+b"', True),
    ("IF(a,\"x)\",b)", True), ("(a+b)", True), ("MAX(a,b)*2", False), ("(a)+(b)", False),
    ("a+b", False), ("-1", False), ("x^2", False), ('"a"&"b"', False),
])
def test_is_atomic(text, atomic):
    assert is_atomic(text) is atomic


def test_number_text_reads_back_the_same_float():
    for x in (0, 1, 1e9, 123456789012345, 0.1, 1 / 3, 1e-5, 2.5e20, -7):
        assert float(number_text(x)) == float(x)
    assert number_text(1e9) == "1000000000" and number_text(0.5) == "0.5"
    assert number_text(1e-9) == "0.000000001"  # no E notation (test_template)


def test_evaluate_by_hand():
    env = Env(names={"A_": 6.0, "B_": 3.0, "C_": 2.0, "LAYERS": [32.0, 80.0]})
    assert ((a - b) ** c).evaluate(env) == 9.0  # (6 - 3)^2
    assert (a / (b * c)).evaluate(env) == 1.0  # 6 / (3 * 2)
    assert (-(a ** 2)).evaluate(env) == -36.0 and ((-a) ** 2).evaluate(env) == 36.0
    assert Column("LAYERS").at(2).evaluate(env) == 80.0
    assert F.IF(a.gt(b), Text("bigger"), 1 / Num(0)).evaluate(env) == "bigger"
    assert F.MAX(a, b, c).evaluate(env) == 6.0
    # napkin's own functions: RIDGE(989 TFLOPS, 3.35 TB/s) = 989 / 3.35 FLOP/byte (by hand)
    assert math.isclose(F.RIDGE(989, 3.35).evaluate(env), 989 / 3.35, rel_tol=1e-15)
    # AMDAHL(0.3, 3) = 1 / (0.7 + 0.3 / 3) = 1.25 (by hand)
    assert math.isclose(F.AMDAHL(0.3, 3).evaluate(env), 1.25, rel_tol=1e-15)


def test_errors_propagate_as_in_excel():
    env = Env(names={"A_": 1.0, "B_": 0.0})
    div = (a / b).evaluate(env)
    assert isinstance(div, ExcelError) and div.code == "#DIV/0!"
    assert ((a / b) + 1).evaluate(env).code == "#DIV/0!"
    assert F.RIDGE(989, b).evaluate(env).code == "#NUM!"  # bandwidth must be > 0
    assert (a + Text("x")).evaluate(env).code == "#VALUE!"
    assert (Num(-8) ** Num(0.5)).evaluate(env).code == "#NUM!"


def test_raw_text_is_read_then_computed():
    env = Env(names={"X_": 2.0}, cells={"B18": 5.0})
    assert (Raw("X_+B18") * 2).evaluate(env) == 14.0  # (2 + 5) × 2
    assert Raw("-2^2").evaluate(env) == 4.0  # Excel: negation first
    with pytest.raises(KeyError, match="no value for the name Y_"):
        Raw("Y_*2").evaluate(env)
    with pytest.raises(ValueError, match="cannot read"):
        Raw("1+{1,2}").evaluate(env)
    with pytest.raises(TypeError, match="wrap text"):
        a * "B18"
    assert a + "*2" == "A_*2"  # text joined to text: the legacy way, kept


# --------------------------------------------------------------------- the property

LEAVES = st.sampled_from([Num(2), Num(3), Num(0.5), Num(7), Num(-2), Num(1.5)])
OPS = ["+", "-", "*", "/", "^"]


def _trees():
    def extend(children):
        binary = st.builds(lambda op, x, y: {"+": x + y, "-": x - y, "*": x * y,
                                             "/": x / y, "^": x ** y}[op],
                           st.sampled_from(OPS), children, children)
        negated = st.builds(lambda x: -x, children)
        called = st.builds(lambda x, y: F.MAX(x, y), children, children)
        return binary | negated | called

    return st.recursive(LEAVES, extend, max_leaves=6)


def _same(x, y) -> bool:
    if isinstance(x, ExcelError) or isinstance(y, ExcelError):
        return isinstance(x, ExcelError) and isinstance(y, ExcelError) and x.code == y.code
    if isinstance(x, float) and isinstance(y, float) and not (math.isfinite(x) and
                                                             math.isfinite(y)):
        return True  # overflow: both sides past what a double holds
    return math.isclose(float(x), float(y), rel_tol=1e-12, abs_tol=1e-300)


@settings(max_examples=300, deadline=None, derandomize=True)  # the same trees every run
@given(_trees())
@example(Num(0.5) ** (Num(3) ** Num(7)))  # found by hypothesis: below 2.2E-308
@example((Num(2) - Num(2)) ** (Num(2) - Num(2)))  # found by hypothesis: Excel's 0^0
def test_excel_computes_the_text_to_the_trees_value(tree):
    """Rendered text, computed by napkin's Excel engine, equals the tree's Python value:
    the parentheses say what the tree means."""
    mine = tree.evaluate(Env())
    if isinstance(mine, float) and (math.isnan(mine) or abs(mine) > 1e300):
        return  # past Excel's range: no value to compare
    if isinstance(mine, complex):
        return
    excel = evaluate(tree.formula())
    if isinstance(excel, ExcelError) and "napkin cannot compute" in excel.message:
        return  # where Excel's value is not documented (a power below 2.2E-308) the
        # engine refuses the cell; the tree gives the limit, 0
    assert _same(mine, excel), (tree.formula(), mine, excel)


def test_the_range_operator_reads_and_renders_back():
    # the tables' names (workbook.sheet.table_column): INDEX(span,2):INDEX(span,n-1), the
    # reference operator binding tighter than any other (Microsoft, "Calculation operators
    # and precedence in Excel": ":" first)
    from workbook.expr import Span
    from workbook.expr_parse import parse

    text = "COUNTIF(INDEX('Cal'!$A$5:$A$9,2):INDEX('Cal'!$A$5:$A$9,ROWS('Cal'!$A$5:$A$9)-1),1)+2"
    tree = parse(text)
    assert tree.render() == text
    assert isinstance(tree.left.args[0], Span)
    with pytest.raises(ValueError, match="range of two references"):
        tree.left.args[0].evaluate(Env())
