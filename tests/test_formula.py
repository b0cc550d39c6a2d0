"""The compiled fast path of each formula agrees with the general path (udfs.machinery.formula)."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from udfs import ExcelError, catalog
from udfs.machinery.args import Arg
from udfs.machinery.formula import Formula

# Every compiled formula of the catalog: one per declaration, one more per combination of
# its OMIT arguments (e.g. DECODE_FLOOR without peak_flops)
FORMULAS = {" without ".join([name, *sorted(omitted)]): f
            for name, d in catalog.DECLARATIONS.items() for omitted, f in d.formulas.items()}

values = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**80), 2**80),
    st.sampled_from([0, 1, -1, 0.5, 1.0, 2, 3.35, 989, 70e9, 1e308, 5e-324, True, None, "",
                     "BF16", "FP8", "3.35 TB/s", "989 TFLOPS", "80 GB", "-1 GB", "8.03B", "5 ms",
                     "30 %", "#N/A", "x"]),
)


def same(a, b):
    if isinstance(a, ExcelError) or isinstance(b, ExcelError):
        return isinstance(a, ExcelError) and isinstance(b, ExcelError) and a.code == b.code
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=0)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("name", sorted(FORMULAS))
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_fast_path_agrees_with_general_path(name, data):
    formula = FORMULAS[name]
    args = [data.draw(values, label=a.name) for a in formula.args]
    for _ in range(2):  # the second call may use the text cache the first one filled
        fast, general = formula(*args), formula.general(1.0, *args)
        assert same(fast, general), (args, fast, general)


def test_fast_path_is_taken_for_plain_numbers_and_cached_text():
    class Watched(Formula):
        calls = 0

        def general(self, scale, *values):
            Watched.calls += 1
            return super().general(scale, *values)

    declared = catalog.DECLARATIONS["RIDGE"]
    # readers with empty caches
    fresh = [Arg(a.name, a.unit, a.domain) for a in declared.formulas[frozenset()].args]
    ridge = Watched(declared.formula, *fresh)
    assert ridge(989.0, 3.35, 1) == pytest.approx(295.22, abs=0.01)
    assert Watched.calls == 0
    ridge("989 TFLOPS", 3.35, 1)  # first reading of the text: general path, then cached
    assert ridge("989 TFLOPS", 3.35, 1) == ridge(989, 3.35, 1)
    assert Watched.calls == 1
    assert isinstance(ridge(989.0, 0.0, 1), ExcelError) and Watched.calls == 2
