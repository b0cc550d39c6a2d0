"""Catalog behaviour beyond the reference cases: hand calculations, units, ranges, errors.

Every expected number has its source in a comment: a hand calculation shown inline, a
config value from ``udfs/data/models.csv`` (each row with its source), or a
datasheet figure from ``udfs/data/gpus.csv``.
"""

import math
import re
from pathlib import Path

import pytest

import udfs
from udfs import (
    AMDAHL,
    ATTAINABLE,
    BOUND,
    BYTES_PER_PARAM,
    CATALOG,
    COST_PER_MTOK,
    CRITICAL_BATCH,
    DECODE_FLOOR,
    FITS,
    GPU_SPEC,
    GPUS_NEEDED,
    INTENSITY,
    KERNEL_TIME,
    KV_CACHE_GB,
    MATMUL_INTENSITY,
    MBU,
    MFU,
    MODEL_SPEC,
    MS_PER_TOKEN,
    PER_USER_TPS,
    RIDGE,
    SPEEDUP,
    TIME_FLOOR,
    TOKENS_PER_SEC,
    UNIT_CONVERT,
    WEIGHT_GB,
    ExcelError,
)

approx = pytest.approx


def code(v):
    assert isinstance(v, ExcelError), f"expected an Excel error value, got {v!r}"
    return v.code


# --- hand-computed cross-checks ---------------------------------------------------------

def test_kv_cache_llama_31_8b_gqa():
    # Llama 3.1 8B config: 32 layers, 8 KV heads (GQA, 32 query heads), head_dim 128.
    # Per token: 2 (K and V) × 32 × 8 × 128 × 2 bytes (BF16) = 131,072 B = 128 KiB.
    assert KV_CACHE_GB(32, 8, 128, 1, unit="B") == 131_072
    assert KV_CACHE_GB(32, 8, 128, 1, unit="KiB") == 128
    # 8,192 tokens × 131,072 B = 1,073,741,824 B = 1.073741824 GB = exactly 1 GiB.
    assert KV_CACHE_GB(32, 8, 128, 8192) == approx(1.073741824)
    assert KV_CACHE_GB(32, 8, 128, 8192, unit="GiB") == approx(1.0)
    # batch 16 in FP8 (1 byte): 16 × 8192 × 65,536 B = 8.589934592 GB
    assert KV_CACHE_GB(32, 8, 128, 8192, "FP8", 16) == approx(8.589934592)


def test_kv_cache_matches_model_table():
    # The table's kv_bytes_per_token is the same formula: Llama 3.1 70B has 80 layers,
    # 8 KV heads, head_dim 128: 2 × 80 × 8 × 128 × 2 = 327,680 B per token.
    assert MODEL_SPEC("Llama 3.1 70B", "kv_bytes_per_token") == 327_680
    assert KV_CACHE_GB(80, 8, 128, 1, unit="B") == 327_680
    # DeepSeek-V3 uses MLA: 61 layers × 576 cached elements × 2 B = 70,272 B per token
    # (DeepSeek-V3 config: kv_lora_rank 512 + qk_rope_head_dim 64), not
    # 2 × 61 × 128 × 192 × 2 from num_kv_heads.
    assert MODEL_SPEC("DeepSeek-V3", "kv_bytes_per_token") == 70_272
    assert MODEL_SPEC("DeepSeek-V3", "attention") == "MLA"
    assert "sliding" in MODEL_SPEC("Gemma 2 9B", "attention")


def test_matmul_intensity_by_hand():
    # (64×4096)·(4096×4096) in BF16: FLOPs = 2·64·4096·4096 = 2,147,483,648;
    # bytes = 2·(64·4096 + 4096·4096 + 64·4096) = 34,603,008; I = 62.06...
    assert MATMUL_INTENSITY(64, 4096, 4096) == approx(2_147_483_648 / 34_603_008)
    # The decode-GEMM rule of thumb I ≈ B holds for B ≪ D: here 62 ≈ 64.
    assert MATMUL_INTENSITY(64, 4096, 4096) == approx(64, rel=0.05)
    # FP8 halves the bytes and doubles intensity (1 byte per weight instead of 2)
    assert MATMUL_INTENSITY(64, 4096, 4096, "FP8") == approx(2 * MATMUL_INTENSITY(64, 4096, 4096))


def test_cost_per_million_tokens_by_hand():
    # One GPU at 2.00/h making 1,000 tokens/s: 3,600,000 tokens an hour, 2.00 ÷ 3.6 per 10⁶.
    assert COST_PER_MTOK(2, 1000) == approx(2 / 3.6)
    # 8 GPUs at 3.50/h making 20,000 tokens/s together, busy 60 % of paid hours:
    # 28.00/h ÷ (20,000 × 3,600 × 0.6 = 43,200,000 tokens/h) × 10⁶ = 0.648148...
    assert COST_PER_MTOK(3.5, 20000, 8, 0.6) == approx(28 / 43.2)
    assert COST_PER_MTOK(3.5, "20000 tokens/s", 8, "60 %") == approx(28 / 43.2)


def test_decode_floor_with_compute_and_kv():
    # 8B BF16 at batch 256 on an H100: memory (16.06 GB + 10 GB KV) ÷ 3.35 TB/s = 7.779 ms;
    # math 2 × 8.03e9 × 256 ÷ 989e12 = 4.157 ms: the max rule keeps memory.
    assert DECODE_FLOOR("8.03B", "BF16", 3.35, 256, 989, 10) == approx(26.06 / 3.35)
    # batch 1024: math 16.63 ms > memory 7.779 ms: compute-bound.
    assert DECODE_FLOOR("8.03B", "BF16", 3.35, 1024, 989, 10) == approx(
        2 * 8.03e9 * 1024 / 989e12 * 1e3)
    assert DECODE_FLOOR("8.03B", "BF16", 3.35, unit="s") == approx(16.06 / 3.35 / 1e3)


def test_gpus_needed_and_fit():
    assert GPUS_NEEDED(140, 80) == 2  # 70B BF16 on H100s: ⌈140 ÷ 80⌉
    assert GPUS_NEEDED(160, 80) == 2  # exact multiple: no extra GPU from float noise
    assert GPUS_NEEDED(0, 80) == 0
    # 70 GB with 20 % held back: 64 GB usable per GPU, so it no longer fits on one.
    assert FITS(70, 80, 0.2) is False and GPUS_NEEDED(70, 80, 0.2) == 2
    assert FITS("65 GiB", "80 GB") is True  # 65 GiB = 69.8 GB
    assert FITS("75 GiB", "80 GB") is False  # 75 GiB = 80.5 GB: GiB and GB not confused


def test_measurements():
    # MBU: 16.06 GB per token in 5.0 ms is 3.212 TB/s, 95.9 % of 3.35 TB/s.
    assert MBU(16.06, 5, 3.35) == approx(3.212 / 3.35)
    # MFU: 16.06 GFLOP per token (2 × 8.03e9) × 2,000 tokens/s = 32.12 TFLOPS of 989.
    assert MFU(2 * 8.03e9, 2000, 989) == approx(32.12 / 989)
    assert MFU("16.06 GFLOP", "2000 tokens/s", "0.989 PFLOPS") == approx(32.12 / 989)


def test_gpu_spec_reads_the_table():
    assert GPU_SPEC("H100 SXM", "memory_bandwidth_TBps") == 3.35
    assert GPU_SPEC("h100", "bf16") == 989.4  # alias: "H100" is the SXM part
    assert GPU_SPEC("NVIDIA H100 PCIe", "memory") == 80
    assert GPU_SPEC("mi300x", "fp8") == 2614.9
    assert GPU_SPEC("H100 SXM", "vendor") == "NVIDIA"
    assert code(GPU_SPEC("A100", "memory")) == "#N/A"  # 40 GB or 80 GB: ambiguous
    assert "A100 40GB" in GPU_SPEC("A100", "memory").message
    assert code(GPU_SPEC("A10G", "bf16")) == "#N/A"  # left empty in the table
    assert "no trustworthy source" in GPU_SPEC("A10G", "bf16").message
    assert code(GPU_SPEC("H900", "memory")) == "#N/A"
    assert code(GPU_SPEC("H100", "colour")) == "#N/A"
    assert code(GPU_SPEC(None, "memory")) == "#N/A"  # an empty cell
    assert GPU_SPEC(["H100", "H200", "B200"], "bandwidth").tolist() == [3.35, 4.8, 8.0]


@pytest.mark.parametrize("name, field, expected", [
    ("H100 SXM5", "memory_GB", 80),  # alias: the SXM5 form factor
    ("NVIDIA H100", "bandwidth", 3.35),  # vendor prefix dropped, then the "H100" alias
    ("AMD MI300X", "memory", 192),
    ("a100-80gb", "memory_bandwidth_TBps", 2.039),
])
def test_gpu_names_match_leniently(name, field, expected):
    assert GPU_SPEC(name, field) == expected


@pytest.mark.parametrize("name, field, expected", [
    ("Llama-3.1-8B-Instruct", "params", 8.03e9),  # an instruct variant: same architecture
    ("meta-llama/Llama-3.1-8B", "params", 8.03e9),  # a Hugging Face repo id
    ("google/gemma-2-9b-it", "head_dim", 256),
    ("Qwen/Qwen2.5-7B-Instruct", "num_kv_heads", 4),
])
def test_model_names_match_leniently(name, field, expected):
    assert MODEL_SPEC(name, field) == expected


def test_unit_factors_carry_no_float_noise():
    assert UNIT_CONVERT(3.35, "TB/s", "GB/s") == 3350  # not 3350.0000000000005


def test_model_spec_reads_the_table():
    assert MODEL_SPEC("Llama 3.1 8B", "params") == 8.03e9
    assert MODEL_SPEC("llama-3.1-70b", "num_layers") == 80
    # counted from the config (the card rounds it to 22B)
    assert MODEL_SPEC("Qwen3 235B-A22B", "active_params_B") == 22.1908
    assert MODEL_SPEC("qwen3 32b", "head_dim") == 128
    assert code(MODEL_SPEC("Llama", "params")) == "#N/A"  # several rows
    assert code(MODEL_SPEC("Llama 3.1 8B", "num_experts")) == "#N/A"  # empty: dense model


# The first functions of the catalog, by name
FIRST_CATALOG = """WEIGHT_GB BYTES_PER_PARAM KV_CACHE_GB FITS GPUS_NEEDED UNIT_CONVERT TIME_FLOOR
KERNEL_TIME DECODE_FLOOR TOKENS_PER_SEC MS_PER_TOKEN PER_USER_TPS INTENSITY MATMUL_INTENSITY
RIDGE ATTAINABLE BOUND CRITICAL_BATCH MBU MFU AMDAHL SPEEDUP COST_PER_MTOK GPU_SPEC
MODEL_SPEC""".split()


def test_every_catalog_name_is_exported():
    assert set(FIRST_CATALOG) <= set(CATALOG)
    assert set(CATALOG) <= set(dir(udfs))


def test_every_catalog_function_is_described_in_the_math():
    """docs/math.md describes each function where its name is in bold (``**RIDGE(...)**``
    or ``**GPUS_NEEDED**``): its formula, units, assumptions and a worked example."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "math.md").read_text("utf-8")
    missing = [name for name in CATALOG if not re.search(rf"\*\*{name}(\(|\*\*)", text)]
    assert not missing, f"not described in docs/math.md: {missing}"


# --- units -------------------------------------------------------------------------------

@pytest.mark.parametrize("bandwidth", [3.35, "3.35 TB/s", "3350 GB/s", "3,350 GB/s",
                                       "3.35TB/s", "3.35 tb/s", "3350000000000 B/s"])
def test_bandwidth_spellings_agree(bandwidth):
    assert RIDGE(989, bandwidth) == approx(989 / 3.35)


@pytest.mark.parametrize("peak", [989, "989 TFLOPS", "0.989 PFLOPS", "989e12 FLOPS",
                                  "989 tflops", "989000 GFLOP/s"])
def test_compute_spellings_agree(peak):
    assert RIDGE(peak, 3.35) == approx(989 / 3.35)


def test_gb_and_gib_never_confused():
    assert UNIT_CONVERT(80, "GiB", "GB") == approx(85.89934592)
    assert UNIT_CONVERT("80 GiB", None, "GB") == approx(85.89934592)
    assert WEIGHT_GB("8.03B", "BF16", "GiB") == approx(16.06e9 / 2**30)
    assert UNIT_CONVERT(1, "TB/s", "GB/s") == approx(1000)
    assert UNIT_CONVERT(1, "h", "s") == 3600
    assert UNIT_CONVERT(2000, "tokens/s", "tokens/h") == approx(7.2e6)


def test_time_floor_checks_units():
    assert TIME_FLOOR(16e9, 3.35e12) == approx(16e9 / 3.35e12)  # bare: seconds
    assert TIME_FLOOR("1000 tokens", "200 tokens/s") == 5
    assert TIME_FLOOR("16 GFLOP", "989 TFLOPS", "us") == approx(16e9 / 989e12 * 1e6)
    assert code(TIME_FLOOR("16 GB", "989 TFLOPS")) == "#VALUE!"  # bytes over FLOP/s
    assert code(TIME_FLOOR("16 GB", 3.35)) == "#VALUE!"  # ambiguous: which unit is 3.35?
    assert code(TIME_FLOOR("16 GB", "3.35 TB/s", "GB")) == "#VALUE!"  # not a time unit


def test_per_token_time_accepts_ms_per_token():
    assert TOKENS_PER_SEC("5 ms/token") == 200
    assert TOKENS_PER_SEC("0.005 s") == 200
    assert MS_PER_TOKEN("200 tokens/s") == 5


def test_decimal_comma_is_refused_not_misread():
    # "3,35" is 3.35 in much of Europe and 335 in pint: never guess.
    assert code(RIDGE(989, "3,35 TB/s")) == "#VALUE!"


# --- errors ------------------------------------------------------------------------------

@pytest.mark.parametrize("call, expected_code, names", [
    (lambda: RIDGE(989, 0), "#NUM!", "bandwidth"),
    (lambda: RIDGE(989, -3.35), "#NUM!", "bandwidth"),
    (lambda: RIDGE(989, 3.35, 1.2), "#NUM!", "efficiency"),
    (lambda: RIDGE("989 GB", 3.35), "#VALUE!", "peak_flops"),
    (lambda: RIDGE("lots", 3.35), "#VALUE!", "peak_flops"),
    (lambda: RIDGE(True, 3.35), "#VALUE!", "peak_flops"),
    (lambda: RIDGE(None, 3.35), "#VALUE!", "peak_flops"),
    (lambda: RIDGE(math.nan, 3.35), "#NUM!", "peak_flops"),
    (lambda: RIDGE(math.inf, 3.35), "#NUM!", "peak_flops"),
    (lambda: WEIGHT_GB(-1, "BF16"), "#NUM!", "params"),
    (lambda: WEIGHT_GB("70 GB", "BF16"), "#VALUE!", "params"),
    (lambda: WEIGHT_GB(70e9, "FP7"), "#N/A", "precision"),
    (lambda: WEIGHT_GB(70e9, "BF16", "GB/s"), "#VALUE!", "unit"),
    (lambda: AMDAHL(1.3), "#NUM!", "p"),
    (lambda: AMDAHL(0.3, 0), "#NUM!", "s"),
    (lambda: AMDAHL(1), "#NUM!", "p = 1"),
    (lambda: FITS(-1, 80), "#NUM!", "need_gb"),
    (lambda: FITS(70, 80, 1), "#NUM!", "reserve_fraction"),
    (lambda: KV_CACHE_GB(32.5, 8, 128, 1), "#NUM!", "layers"),
    (lambda: MATMUL_INTENSITY(0, 1, 1), "#NUM!", "m"),
    (lambda: INTENSITY(1, 0), "#NUM!", "bytes"),
    (lambda: PER_USER_TPS(1800, 0), "#NUM!", "streams"),
    (lambda: COST_PER_MTOK(2, 1000, 1, 0), "#NUM!", "utilization"),
    (lambda: SPEEDUP(20, 0), "#NUM!", "after"),
    (lambda: BOUND(1, 0), "#NUM!", "ridge"),
    (lambda: ATTAINABLE(-1, 989, 3.35), "#NUM!", "intensity"),
    (lambda: CRITICAL_BATCH(989, 3.35, "FP9"), "#N/A", "weight_precision"),
    (lambda: KERNEL_TIME(1, 1, 0, 1), "#NUM!", "peak_flops"),
    (lambda: UNIT_CONVERT(1, "GB", "ms"), "#VALUE!", "to_unit"),
    (lambda: UNIT_CONVERT(1, "parsecs", "GB"), "#VALUE!", "from_unit"),
    (lambda: BYTES_PER_PARAM(""), "#VALUE!", "precision"),
])
def test_bad_input_gives_an_error_value_naming_the_argument(call, expected_code, names):
    result = call()
    assert code(result) == expected_code
    assert names in result.message


@pytest.mark.parametrize("error", ["#N/A", "#DIV/0!", ExcelError("#REF!", "")])
def test_an_error_argument_comes_back_out(error):
    out = RIDGE(error, 3.35)
    assert code(out) == (error if isinstance(error, str) else error.code)
    assert code(GPU_SPEC(error, "memory")) == code(out)


# --- ranges ------------------------------------------------------------------------------

def test_ranges_map_element_wise_and_keep_their_shape():
    # a range in, a numpy array out (as numpy's functions do); xlwings writes it
    assert RIDGE([989, 1979], 3.35).tolist() == [approx(295.22, abs=0.01),
                                                 approx(590.75, abs=0.01)]
    column = RIDGE([[989], [1979]], [[3.35], [3.35]])
    assert column.shape == (2, 1)
    # a row of bandwidths against a column of peaks: a 2 × 3 grid, as Excel broadcasts
    grid = RIDGE([[989], [1979]], [[2.0, 3.35, 4.8]])
    assert grid.shape == (2, 3)
    assert grid[1, 2] == approx(1979 / 4.8)


def test_a_bad_element_gives_an_error_in_its_cell_only():
    out = WEIGHT_GB([70e9, "70 GB", None, -1, "8.03B"], "BF16")
    assert out[0] == 140 and out[4] == approx(16.06)
    assert [code(out[i]) for i in (1, 2, 3)] == ["#VALUE!", "#VALUE!", "#NUM!"]


def test_text_and_numbers_mixed_in_a_range():
    assert RIDGE(["989 TFLOPS", 989, "0.989 PFLOPS"], 3.35).tolist() == [approx(989 / 3.35)] * 3


def test_ragged_range_is_refused():
    assert code(RIDGE([[989, 1979], [989]], 3.35)) == "#VALUE!"


def test_mismatched_shapes_are_refused():
    assert code(RIDGE([989, 1979, 500], [3.35, 2])) == "#VALUE!"


def test_numpy_array_in_numpy_array_out():
    np = pytest.importorskip("numpy")
    out = DECODE_FLOOR(np.array([8.03e9, 70e9]), "BF16", 3.35)
    assert isinstance(out, np.ndarray)
    assert out.tolist() == approx([16.06 / 3.35, 140 / 3.35])


def test_boolean_and_text_results_over_ranges():
    assert FITS([70, 140], 80).tolist() == [True, False]
    assert BOUND([1, 64, 295, 4096], 295.2).tolist() == ["memory-bound"] * 3 + ["compute-bound"]


def test_the_engine_leaves_xlwings_alone_and_the_package_declares_to_it():
    # The headless engine calls the catalog without importing xlwings (its start time);
    # reaching the catalog through the ``udfs`` package (as xlwings and users do)
    # declares every function to xlwings first.
    import subprocess
    import sys

    code = ("import sys; from addin.engine.api import evaluate; "
            "print(evaluate('=RIDGE(989,3.35)'), 'xlwings' in sys.modules); "
            "import udfs.machinery.declare as d; print(len(d._UNDECLARED) == len(d.CATALOG)); "
            "import udfs; udfs.RIDGE; print('xlwings' in sys.modules, d._UNDECLARED)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[0] == f"{989 / 3.35} False"  # H100 SXM: 989 TFLOPS / 3.35 TB/s
    assert out[1] == "True"
    assert out[2] == "True []"
