"""The headless engine (addin.engine.api), one formula at a time; whole workbooks are in
``test_engine_workbooks.py``.

A small fake registry (``fake_registry.py``) stands for the catalog, so that these tests
check the engine only: how arguments reach our functions (omitted, empty, ranges, errors)
and how results and error messages come back.
"""

from __future__ import annotations

import numpy as np
import pytest
from fake_registry import (
    CALLS,
    NUM_BW,
    ev,
)

from addin.engine import executor
from addin.engine.api import evaluate, format_value, normalize_formula, to_json
from udfs.machinery.errors import ExcelError

# --------------------------------------------------------------------------- evaluate()


@pytest.mark.parametrize("formula, expected", [
    ("=RIDGE(989,3.35)", 989 / 3.35),
    ("=RIDGE(989,3.35)*2", 989 / 3.35 * 2),
    ("RIDGE(989,3.35)", 989 / 3.35),  # the = is optional
    ("=ridge(989, 3.35, 0.8)", 989 * 0.8 / 3.35),
    ("=FITS(WEIGHT_GB(70E9,\"FP8\"),80)", True),
    ("=FITS(WEIGHT_GB(70E9),80)", False),
    ("=WEIGHT_GB(1e9,\"FP32\")", 4.0),
    ("=WEIGHT_GB(2.5E-1*4e9,\"BF16\")", 2.0),
    ("=IF(BOUND(1,295)=\"memory-bound\",1,2)", 1),
    ("=BOUND(4096,RIDGE(989,3.35))", "compute-bound"),
    ("=LEN(\"70E9\")", 4),  # not inside strings
    ("=SUM(GRID())", 10),
    ("=SUM(NPGRID())", 12),
    ("=IFERROR(RIDGE(1,0),\"bad\")", "bad"),
    ("=ISERROR(RIDGE(1,0))", True),
    ("=ISNA(WEIGHT_GB(1,\"FP99\"))", True),
    ("=ERROR.TYPE(RIDGE(1,0))", 6),
    ("=KIND()", "NoneType"),
    ("=KIND(A1)", "NoneType"),  # an empty cell
    ("=KIND(1.5)", "float"),
    ("=KIND(\"x\")", "str"),
    ("=KIND(TRUE)", "bool"),
    ("=KIND({1,2;3,4})", "list 2x2"),
    ("=KIND({1,2,3})", "list 1x3"),
    ("=KIND(1/0)", "error #DIV/0!"),
    ("=KIND(#N/A)", "error #N/A"),
    ("=KIND(RIDGE(1,0))", "error #NUM! bandwidth must be greater than 0"),
])
def test_evaluate_values(formula, expected):
    got = ev(formula)
    if isinstance(expected, float):
        assert got == pytest.approx(expected, rel=1e-15)
        assert not isinstance(got, bool)
    elif isinstance(expected, bool | str):
        assert got == expected and type(got) is type(expected)
    else:
        assert got == expected and not isinstance(got, bool)


def test_evaluate_returns_our_error_with_its_message():
    assert ev("=RIDGE(989,0)") == NUM_BW
    # through Excel arithmetic and through another of our functions
    assert ev("=RIDGE(989,0)*2+1") == NUM_BW
    assert ev("=FITS(RIDGE(989,0),80)") == NUM_BW
    assert ev("=WEIGHT_GB(70E9,\"FP99\")") == ExcelError("#N/A", "unknown precision 'FP99'")


def test_evaluate_native_errors():
    assert ev("=1/0") == ExcelError("#DIV/0!", "")
    assert ev("=NOPE(1)").code == "#NAME?"
    assert ev("=RIDGE(1/0,3)") == ExcelError("#DIV/0!", "")


def test_evaluate_arrays_are_lists_of_rows():
    assert ev("=RIDGE({989,1979},3.35)") == [[989 / 3.35, 1979 / 3.35]]
    assert ev("=RIDGE({989;1979},3.35)") == [[989 / 3.35], [1979 / 3.35]]
    assert ev("=GRID()") == [[1, 2], [3, 4]]
    assert ev("=NPGRID()*2") == [[3.0, 5.0], [7.0, 9.0]]
    assert ev("=RIDGE({1,2},{0,1})") == [[NUM_BW, 2.0]]


def test_omitted_arguments():
    CALLS.clear()
    assert ev("=ARGS(1,)") == 1  # trailing omitted: not passed (Python default applies)
    assert ev("=ARGS(1,,)") == 1
    assert ev("=ARGS(1,,3)") == 3  # omitted before a given one: None
    assert ev("=ARGS()") == 0
    assert ev("=ARGS(0,\"\")") == 2  # a literal 0 and "" are values, not omitted
    assert CALLS == [(1,), (1,), (1, None, 3), (), (0, "")]
    assert ev("=RIDGE(989,3.35,)") == pytest.approx(989 / 3.35)
    # Excel's own functions still see an omitted argument as 0
    assert ev("=IF(FALSE,,3)+1") == 4
    assert ev("=IF(TRUE,,3)") == 0


def test_function_failures_become_errors():
    assert ev("=BOOM()") == ExcelError("#VALUE!", "BOOM: ZeroDivisionError: boom")
    assert ev("=NAN()") == ExcelError("#NUM!", "result is not a finite number")


def test_bad_formula_raises_value_error():
    with pytest.raises(ValueError):
        ev("=RIDGE(1,2")


def test_normalize_formula():
    n = normalize_formula
    assert n("=WEIGHT_GB(70E9,\"FP8\")") == "=WEIGHT_GB(70E+9,\"FP8\")"
    assert n("=1e9+2.5e-3+1E+2+.5e1") == "=1E+9+2.5E-3+1E+2+.5E+1"
    assert n("=\"70E9\"&'Sheet 7E9'!A1") == "=\"70E9\"&'Sheet 7E9'!A1"
    assert n("=E9+A1E9+Sheet1!E9") == "=E9+A1E9+Sheet1!E9"
    assert n("RIDGE(1,2)") == "=RIDGE(1,2)"
    assert n("{=SUM(A1:A3)}") == "=SUM(A1:A3)"
    assert n("=[1]!RIDGE(1,2)+'napkin.xlam'!AMDAHL(0.3)") == "=RIDGE(1,2)+AMDAHL(0.3)"


def test_format_value():
    assert format_value(295.2238805970149) == "295.2238805970149"
    assert format_value(0.1 + 0.2) == "0.30000000000000004"
    assert format_value(70.0) == "70"
    assert format_value(3) == "3"
    assert format_value(1e20) == "1e+20"
    assert format_value(True) == "TRUE" and format_value(False) == "FALSE"
    assert format_value("memory-bound") == "memory-bound"
    assert format_value(NUM_BW) == "#NUM! bandwidth must be greater than 0"
    assert format_value(ExcelError("#DIV/0!")) == "#DIV/0!"
    assert format_value([[1.5, "a"], [True, NUM_BW]]) == \
        "1.5\ta\nTRUE\t#NUM! bandwidth must be greater than 0"
    assert format_value(np.float64(2.5)) == "2.5"


def test_to_json():
    assert to_json({"A": NUM_BW, "B": [[1, ExcelError("#N/A")]], "C": "x"}) == {
        "A": {"error": "#NUM!", "message": "bandwidth must be greater than 0"},
        "B": [[1, {"error": "#N/A", "message": ""}]], "C": "x"}


NATIVE = [
    "=1+2*3", "=SUM(1,2,3)/4", "=IF(1>2,\"a\",\"b\")", "=INDEX({1,2;3,4},2,1)",
    "=MATCH(3,{1,2,3},0)", "=ROUND(2.345,2)", "=CONCATENATE(\"a\",1)", "=AND(TRUE,1<2)",
    "={1,2}*{3,4}", "=IFERROR(1/0,7)", "=-2^2", "=5%", "=MAX(1,,3)", "=\"a\"&\"b\"",
    "=VLOOKUP(2,{1,\"x\";2,\"y\"},2,FALSE)", "=TEXT(1.5,\"0.00\")", "=ABS(-3)+INT(2.7)",
]


@pytest.mark.parametrize("formula", NATIVE)
def test_fast_executor_matches_formulas_dispatcher(formula):
    fn = executor.compile_formula(normalize_formula(formula), None)
    assert isinstance(fn, executor.FastFn)
    fast, slow = fn(), fn.pipe()
    fast, slow = executor.api_value(fast, {}), executor.api_value(slow, {})
    assert fast == slow


def test_default_registry_is_the_catalog():
    pytest.importorskip("udfs.catalog")
    assert evaluate("=RIDGE(989,3.35)") == pytest.approx(295.2238805970149)
