"""The evidence tool of Excel's cancellation rule (``tools/cancel_evidence.py``,
``tools/saved_arithmetic.py``): its parser keeps Excel's precedence and marks the top
node, and its rules give the values worked by hand below."""

from __future__ import annotations

from tools.cancel_evidence import RULES, same15
from tools.saved_arithmetic import Evaluator, parse

VALUES = {"S": {(1, 1): 0.5, (2, 1): 0.4, (3, 1): 0.1, (1, 2): 2.0}}


def _value(formula: str, rule: str = "none"):
    return Evaluator(VALUES, "S", RULES[rule]).value(parse(formula), top=True)


def test_precedence_as_excel():
    # Excel: unary minus before ^ (=-2^2 is 4), ^ left to right (=2^3^2 is 64), % first
    assert _value("=-B1^2") == 4.0 and _value("=2^3^2") == 64.0
    assert _value("=1+B1*3") == 7.0 and _value("=50%*B1") == 1.0
    assert _value("=A1-A2-A3") == 0.5 - 0.4 - 0.1  # left to right: (A1-A2)-A3


def test_top_node_and_parentheses():
    ev = Evaluator(VALUES, "S")
    ev.value(parse("=A1-A2-A3"), top=True)
    assert [s.top for s in ev.steps] == [False, True]
    ev = Evaluator(VALUES, "S")
    ev.value(parse("=(A1-A2-A3)"), top=True)
    assert [s.top for s in ev.steps] == [False, False]


def test_rules_on_microsofts_example():
    # Microsoft Learn, "Floating-point arithmetic may give inaccurate results in Excel":
    # =.5-.4-.1 is 0, =1*(.5-.4-.1) is -2.78E-17 (-2^-55 by hand, the binary result)
    assert _value("=A1-A2-A3", "none") == -(2.0 ** -55)
    assert _value("=A1-A2-A3", "gap50") == 0.0 and _value("=A1-A2-A3", "top15") == 0.0
    assert _value("=1*(A1-A2-A3)", "gap50") == -(2.0 ** -55)
    assert _value("=(A1-A2-A3)", "gap50") == -(2.0 ** -55)


def test_fifteen_digits():
    assert same15(84596.90000000001, 84596.9) and not same15(674.9140000000007, 674.914)


def test_arithmetic_only_is_told_from_functions_and_powers():
    # the baseline tools.cancel_evidence sets ^ against (addin/engine/last_digits.py)
    from tools.cancel_evidence import arithmetic

    assert arithmetic("A1+B2*$C$3/(1-D4)") and arithmetic("0.5-0.4-0.1")
    assert not arithmetic("SUM(A1:A3)+1") and not arithmetic("A1^2")
    assert not arithmetic("Sheet2!A1+1")  # (another sheet: left out)
