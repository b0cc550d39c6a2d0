"""The reference cases (tests/reference_cases.py) through the Python functions."""

import pytest
from reference_cases import REFERENCE, python_call

from udfs import ExcelError


@pytest.mark.parametrize(
    "call, expected, tol",
    [pytest.param(call, exp, tol, id=f"§{sec} {case}")
     for sec, case, _, call, exp, tol in REFERENCE],
)
def test_reference_value(call, expected, tol):
    got = call()
    assert not isinstance(got, ExcelError), got
    if tol is None:
        assert got == expected
    else:
        assert got == pytest.approx(expected, abs=tol)


@pytest.mark.parametrize("formula, value", [
    ("=1-2^2", -3),  # by hand: 1 - 4
    ("=2*3^2", 18),  # by hand: 2 × 9
    ('="a""b"', 'a"b'),  # "" inside an Excel text is one quote
])
def test_python_call_reads_what_both_languages_read_alike(formula, value):
    assert python_call(formula)() == value


# Microsoft, "Calculation operators and precedence in Excel": negation comes before ^
# (=-2^2 is 4, Python's -2**2 is -4) and ^ is computed left to right (=2^3^2 is 64,
# Python's 2**3**2 is 512); a reference or & has no Python call.
@pytest.mark.parametrize("formula", ["=-2^2", "=2^3^2", "=(1+2)^2", "=A1+1", '=1&"a"'])
def test_python_call_refuses_what_python_reads_otherwise(formula):
    with pytest.raises(ValueError, match="cannot read|only between two numbers"):
        python_call(formula)
