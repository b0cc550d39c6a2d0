"""The reference cases (tests/reference_cases.py) through the Python functions."""

import pytest
from reference_cases import REFERENCE

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
