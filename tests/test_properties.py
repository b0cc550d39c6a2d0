"""Property tests (hypothesis): identities of the formulas, for inputs Excel can pass."""

import itertools
import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from udfs import (
    AMDAHL,
    CATALOG,
    DECODE_FLOOR,
    FITS,
    GPUS_NEEDED,
    KV_CACHE_GB,
    MS_PER_TOKEN,
    RIDGE,
    SPEEDUP,
    TOKENS_PER_SEC,
    UNIT_CONVERT,
    WEIGHT_GB,
    ExcelError,
)
from udfs.machinery.ranges import rows_as_array

approx = pytest.approx
positive = st.floats(min_value=1e-6, max_value=1e12, allow_nan=False, allow_infinity=False)
share = st.floats(min_value=0, max_value=1, exclude_max=True)


@given(positive)
def test_tokens_per_sec_and_ms_per_token_are_inverses(x):
    assert TOKENS_PER_SEC(MS_PER_TOKEN(x)) == approx(x, rel=1e-12)
    assert MS_PER_TOKEN(TOKENS_PER_SEC(x)) == approx(x, rel=1e-12)


@given(share, st.floats(min_value=1e-3, max_value=1e9))
def test_amdahl_is_bounded_by_the_infinitely_fast_case(p, s):
    bound = AMDAHL(p)
    got = AMDAHL(p, s)
    assert got <= bound * (1 + 1e-12)
    if s >= 1:
        assert got >= 1 - 1e-12  # making a part faster never makes the whole slower


@given(share, st.floats(min_value=1, max_value=1e6), st.floats(min_value=1, max_value=1e6))
def test_amdahl_grows_with_the_factor(p, s1, s2):
    lo, hi = sorted((s1, s2))
    assert AMDAHL(p, lo) <= AMDAHL(p, hi) * (1 + 1e-12)


@given(st.floats(min_value=1, max_value=1e5), st.floats(min_value=0.01, max_value=100),
       st.floats(min_value=0.01, max_value=1))
def test_ridge_is_proportional_to_efficiency(peak, bandwidth, efficiency):
    assert RIDGE(peak, bandwidth, efficiency) == approx(RIDGE(peak, bandwidth) * efficiency)


@given(st.floats(min_value=1e6, max_value=1e13), st.sampled_from(["FP32", "BF16", "FP8", "INT4"]),
       st.floats(min_value=0.1, max_value=100))
def test_decode_floor_grows_with_params_and_shrinks_with_bandwidth(params, precision, bw):
    t = DECODE_FLOOR(params, precision, bw)
    assert DECODE_FLOOR(params * 2, precision, bw) == approx(2 * t)
    assert DECODE_FLOOR(params, precision, bw * 2) == approx(t / 2)


@given(st.floats(min_value=0, max_value=1e6), st.floats(min_value=0.1, max_value=1e4), share)
def test_gpus_needed_is_the_smallest_count_that_fits(need, capacity, reserve):
    n = GPUS_NEEDED(need, capacity, reserve)
    assert n == int(n) and n >= 0
    usable = capacity * (1 - reserve)
    assume(usable > 0)
    # n GPUs hold it; n − 1 do not (within the 12-digit rounding that absorbs float noise)
    assert need <= n * usable * (1 + 1e-11)
    if n >= 1:
        assert need > (n - 1) * usable * (1 - 1e-11)
    assert FITS(need, capacity, reserve) == (n <= 1)


@given(st.integers(1, 200), st.integers(1, 128), st.sampled_from([64, 96, 128, 256]),
       st.integers(0, 10**6), st.integers(1, 512))
def test_kv_cache_is_linear_in_tokens_and_batch(layers, heads, dim, tokens, batch):
    one = KV_CACHE_GB(layers, heads, dim, tokens)
    assert KV_CACHE_GB(layers, heads, dim, tokens, "BF16", batch) == approx(one * batch)
    assert KV_CACHE_GB(layers, heads, dim, tokens, "FP8") == approx(one / 2)


# A unit string and its bare-number equivalent agree ------------------------------------
scaled = st.sampled_from([
    # (spelling, how to write a bandwidth given in TB/s as text)
    ("bandwidth TB/s", lambda x: f"{x!r} TB/s"),
    ("bandwidth GB/s", lambda x: f"{x * 1000!r} GB/s"),
    ("bandwidth B/s", lambda x: f"{x * 1e12!r} B/s"),
])


@given(st.floats(min_value=1e-3, max_value=1e4), scaled)
def test_bandwidth_text_and_bare_number_agree(bw, spelling):
    _, write = spelling
    assert RIDGE(989, write(bw)) == approx(RIDGE(989, bw), rel=1e-9)


@given(st.floats(min_value=1e-3, max_value=1e6))
def test_peak_text_and_bare_number_agree(peak):
    assert RIDGE(f"{peak!r} TFLOPS", 3.35) == approx(RIDGE(peak, 3.35), rel=1e-9)
    assert RIDGE(f"{peak / 1000!r} PFLOPS", 3.35) == approx(RIDGE(peak, 3.35), rel=1e-9)


@given(st.floats(min_value=1e3, max_value=1e13))
def test_params_text_and_number_agree(params):
    assert WEIGHT_GB(f"{params / 1e9!r}B", "BF16") == approx(WEIGHT_GB(params, "BF16"))
    assert WEIGHT_GB(f"{params!r}", "BF16") == approx(WEIGHT_GB(params, "BF16"))


@given(st.floats(min_value=1e-6, max_value=1e9), st.sampled_from(
    [("GB", "GiB"), ("TB/s", "GB/s"), ("TFLOPS", "PFLOPS"), ("ms", "s"), ("tokens/s", "tokens/h")]))
def test_unit_convert_round_trips(x, pair):
    a, b = pair
    assert UNIT_CONVERT(UNIT_CONVERT(x, a, b), b, a) == approx(x, rel=1e-12)
    assert UNIT_CONVERT(f"{x!r} {a}", None, b) == approx(UNIT_CONVERT(x, a, b), rel=1e-12)


@given(positive, positive)
def test_speedup_of_swapped_times_is_the_inverse(a, b):
    assert SPEEDUP(a, b) * SPEEDUP(b, a) == approx(1)


# Ranges agree with scalars --------------------------------------------------------------
@settings(max_examples=50)
@given(st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                          st.none(), st.booleans(), st.just("3.35 TB/s")), min_size=1,
                max_size=6))
def test_a_range_gives_what_each_cell_would_alone(values):
    out = RIDGE(989, values)
    assert isinstance(out, np.ndarray) and out.shape == (len(values),)
    for v, o in zip(values, out.tolist(), strict=True):
        alone = RIDGE(989, v)
        if isinstance(alone, ExcelError):
            assert isinstance(o, ExcelError) and o.code == alone.code
        else:
            assert o == approx(alone) and math.isfinite(o)


# A range of numbers takes a vectorised path that trusts numpy's reading of the list;
# one odd cell anywhere (a truth value numpy would read as 1 or 0, text, an empty cell,
# an error value, an integer beyond a float) must still give that cell alone's result.
_ODD_CELLS = [True, False, None, "", "x", "3.35 TB/s", ExcelError("#N/A"), 2**1100,
              float("nan"), float("inf"), -1.0, 0, 1, 0.0, 1.0, 2**70,
              # numbers of other Python types, read as numbers alone and in a range;
              # numpy's truth values, like TRUE/FALSE, are not numbers
              Fraction(1, 3), Decimal("2.5"), Decimal("NaN"), Decimal("sNaN"),
              np.float64(3.0), np.int64(1), np.bool_(True), np.bool_(False), 1 + 2j,
              np.complex128(2 + 1j), np.complex128(2)]


@settings(max_examples=60)
@given(st.lists(st.one_of(st.floats(0.5, 1e6), st.integers(0, 10**6)), min_size=1,
                max_size=40),
       st.sampled_from(_ODD_CELLS), st.integers(0, 40), st.booleans())
def test_one_odd_cell_in_a_range_of_numbers_gives_its_own_result(nums, odd, at, column):
    values = list(nums)
    values.insert(at % (len(values) + 1), odd)
    rng = [[v] for v in values] if column else values
    out = RIDGE(989, rng)
    assert isinstance(out, np.ndarray) and out.shape == ((len(values), 1) if column
                                                         else (len(values),))
    for v, o in zip(values, out.tolist(), strict=True):
        o = o[0] if column else o
        alone = RIDGE(989, v)
        if isinstance(alone, ExcelError):
            assert isinstance(o, ExcelError) and o.code == alone.code
            assert o.message == alone.message
        else:
            assert type(o) is float and o == alone  # the same float, bit for bit


@settings(max_examples=60)
@given(st.lists(st.one_of(st.floats(0.5, 1e6), st.integers(0, 10**6)), min_size=1,
                max_size=40),
       st.sampled_from(_ODD_CELLS), st.integers(0, 40), st.integers(1, 3))
def test_the_add_in_reads_a_range_as_the_catalog_does(nums, odd, at, width):
    # the add-in packs a range xlwings passes (rows of one length) into a float array
    # without the checks a caller's list gets; every cell's result must stay the same
    values = list(nums)
    values.insert(at % (len(values) + 1), odd)
    values += [2.0] * (-len(values) % width)
    rows = [values[i:i + width] for i in range(0, len(values), width)]
    packed = rows_as_array(rows)
    assert packed is rows or (isinstance(packed, np.ndarray) and packed.dtype == float)
    direct, via = RIDGE(989, rows).tolist(), RIDGE(989, packed).tolist()
    for d, v in zip(itertools.chain(*direct), itertools.chain(*via), strict=True):
        if isinstance(d, ExcelError):
            assert isinstance(v, ExcelError) and (v.code, v.message) == (d.code, d.message)
        else:
            assert type(v) is float and v == d


def test_the_add_in_reader_leaves_what_it_cannot_pack():
    # rows_as_array packs only a non-empty list of rows of real numbers; anything else
    # (xlwings never makes most of these) goes to the catalog as it came, never raising
    for rows in ([[]], [[], []], [["x"]], [[None, 1.0]], [[1.0], []], [[True], [2.0]],
                 ["ab"], [b"x"], [[2**1100]], [[np.complex128(1)]], [[1.0], "a"], []):
        assert rows_as_array(rows) is rows, rows
    assert rows_as_array([[1, 2.5], [3, 4]]).tolist() == [[1.0, 2.5], [3.0, 4.0]]


def test_catalog_functions_never_raise_on_odd_input():
    odd = [None, True, "", "   ", "#N/A", "1e400", "nan", "∞", "3.35 TB/s", -0.0, 1e308,
           5e-324, [], [[]], [[1, 2], [3]], object()]
    for name, f in CATALOG.items():
        nargs = f.__code__.co_argcount
        for v in odd:
            out = f(*([v] * nargs))
            assert not isinstance(out, float) or math.isfinite(out), (name, v, out)
            if isinstance(out, ExcelError):
                assert "internal error" not in out.message, (name, v, out)
