"""Every catalog function, fed what Excel can pass.

Whatever comes in, what goes out is an Excel value (a finite number, TRUE/FALSE, text),
an Excel error value, or a range of those: never an exception, never NaN or infinity,
never a hang (each example has a deadline), never our "internal error" message.
"""

import inspect
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from udfs import CATALOG, ExcelError
from udfs.errors import EXCEL_ERROR_CODES

np = pytest.importorskip("numpy")

unit_like = st.sampled_from([
    "3.35 TB/s", "80 GiB", "989 TFLOPS", "16 GFLOP", "2000 tokens/s", "5 ms", "30 %", "8.03B",
    "70b", "BF16", "fp8", "H100", "Llama 3.1 8B", "GB", "TB/s/s", "1e999 GB", "-3 GB", "0 TB/s",
    "3,35 TB/s", "3,350 GB/s", "NaN GB", "inf TFLOPS", "1/0", "2**1000", "()", "GB GB",
    "µs", "%", "ms/token", "e", "1e", "++1", "0x10", "1_000", "٣", "𝟘 GB", "\x00", "\n",
])
scalars = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 5e-324, 1e308, -1e308, 2.2e-308]),
    st.integers(min_value=-(2**70), max_value=2**70),
    # beyond a float's range (about 1.8e308 < 2**1024): Excel's #NUM!, never an overflow
    st.integers(min_value=-(2**1100), max_value=2**1100),
    st.sampled_from([2**1024, -(2**1024), 2**1100, 10**400]),
    st.booleans(),
    st.none(),
    st.text(max_size=30),
    st.text(min_size=500, max_size=3000),
    unit_like,
    st.sampled_from(EXCEL_ERROR_CODES),
    st.builds(ExcelError, st.sampled_from(EXCEL_ERROR_CODES), st.text(max_size=10)),
)
ranges = st.one_of(
    st.lists(scalars, max_size=5),
    st.lists(st.lists(scalars, min_size=2, max_size=2), min_size=1, max_size=3),
    st.lists(st.lists(scalars, max_size=3), max_size=3),  # ragged, or empty
    st.lists(st.floats(), min_size=1, max_size=5).map(np.array),
    st.lists(st.lists(st.floats(min_value=-1e3, max_value=1e3), min_size=3, max_size=3),
             min_size=1, max_size=3).map(np.array),
)
excel_values = st.one_of(scalars, scalars, scalars, ranges)


def is_excel_value(v) -> bool:
    if isinstance(v, ExcelError | bool | str):
        return True
    if isinstance(v, float):
        return math.isfinite(v)
    if isinstance(v, np.ndarray):
        return all(is_excel_value(x.item() if hasattr(x, "item") else x) for x in v.ravel())
    if isinstance(v, list):
        return all(is_excel_value(x) for x in v)
    return False


def internal_errors(v):
    if isinstance(v, ExcelError):
        return ["internal error" in v.message]
    if isinstance(v, list | np.ndarray):
        return [e for x in (v.ravel() if isinstance(v, np.ndarray) else v)
                for e in internal_errors(x)]
    return []


@pytest.mark.parametrize("name", list(CATALOG))
@settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_function_returns_an_excel_value_whatever_it_is_given(name, data):
    f = CATALOG[name]
    params = inspect.signature(f).parameters
    required = sum(p.default is inspect.Parameter.empty for p in params.values())
    n = data.draw(st.integers(required, len(params)), label="number of arguments")
    args = [data.draw(excel_values, label=p) for p in list(params)[:n]]
    out = f(*args)
    assert is_excel_value(out), f"{name}{tuple(args)!r} returned {out!r}"
    assert not any(internal_errors(out)), f"{name}{tuple(args)!r} returned {out!r}"
