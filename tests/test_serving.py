"""Serving and energy functions beyond their reference cases: units, ranges, edges, errors.

Expected numbers are hand calculations shown inline; model figures come from the configs
in ``udfs/data/models.csv`` and GPU figures from the datasheets in ``udfs/data/gpus.csv``.
"""

import pytest

from udfs import (
    BATCH_FOR_LATENCY,
    CONCURRENCY,
    DECODE_FLOOR,
    ENERGY_PER_MTOK_KWH,
    JOULES_PER_TOKEN,
    KV_CACHE_GB,
    MAX_BATCH,
    PIPELINE_BUBBLE,
    SPEC_DECODE_SPEEDUP,
    SPEC_TOKENS_PER_STEP,
    TP_COMM_MS,
    ExcelError,
    interconnects,
)

approx = pytest.approx


def code(v):
    assert isinstance(v, ExcelError), f"expected an Excel error value, got {v!r}"
    return v.code


def test_max_batch_edges():
    # exactly full: (80 − 16) ÷ 1 = 64 sequences, not 63 from float noise
    assert MAX_BATCH(80, 16, 1) == 64
    # 0.1 + 0.2 style noise: (0.3 − 0.1) ÷ 0.1 = 2 (2.0000000000000004 or 1.9999999999999998)
    assert MAX_BATCH(0.3, 0.1, 0.1) == 2
    # weights exactly equal to the capacity: nothing left, 0
    assert MAX_BATCH(80, 80, 1) == 0
    # 80 GiB given as text: 85.899 GB − 16.06 = 69.84 ÷ 1.0737 = 65.04 → 65
    assert MAX_BATCH("80 GiB", "16.06 GB", KV_CACHE_GB(32, 8, 128, 8192)) == 65
    # ranges map: 1, 2, 4 GPUs of 80 GB for 70B FP8 with 2.684 GB sequences:
    # (80 − 70) ÷ 2.684 = 3.7 → 3; (160 − 70) ÷ 2.684 = 33.5 → 33; (320 − 70) = 93.1 → 93
    assert MAX_BATCH(80, 70, 2.68435456, 0, [1, 2, 4]).tolist() == [3, 33, 93]


def test_batch_for_latency_agrees_with_decode_floor():
    # The batch it returns meets the target and one more does not (Llama 3.1 8B, H100).
    kv = KV_CACHE_GB(32, 8, 128, 8192)
    b = BATCH_FOR_LATENCY(20, 16.06, kv, 3.35, 2 * 8.03e9, 989)
    assert b == 47
    assert DECODE_FLOOR("8.03B", "BF16", 3.35, b, 989, b * kv) <= 20
    assert DECODE_FLOOR("8.03B", "BF16", 3.35, b + 1, 989, (b + 1) * kv) > 20
    # the target as text, and as the per-user rate: 50 tokens/s = 20 ms per token
    assert BATCH_FOR_LATENCY("20 ms", "16.06 GB", kv, "3350 GB/s") == 47
    assert BATCH_FOR_LATENCY("0.02 s", 16.06, kv, 3.35) == 47


def test_batch_for_latency_needs_both_compute_arguments():
    assert code(BATCH_FOR_LATENCY(20, 16.06, 1, 3.35, 1.6e10)) == "#VALUE!"
    assert "peak_flops" in BATCH_FOR_LATENCY(20, 16.06, 1, 3.35, 1.6e10).message
    assert "flops_per_token" in BATCH_FOR_LATENCY(20, 16.06, 1, 3.35, None, 989).message


def test_tp_comm_scales_as_the_ring_says():
    # 2(p − 1)/p: tp 2 → 1, tp 8 → 1.75: the bandwidth term grows 1.75× (no latency)
    t2 = TP_COMM_MS(8192, 64, 2, 0.45, 80)
    t8 = TP_COMM_MS(8192, 64, 8, 0.45, 80)
    assert t8 / t2 == approx(1.75)
    # tp 2, one layer, one all-reduce: 1,048,576 B ÷ 450e9 B/s = 2.3302 µs = 0.0023302 ms
    assert TP_COMM_MS(8192, 64, 2, "450 GB/s", 1, "BF16", 1) == approx(1_048_576 / 450e9 * 1e3)
    # FP8 activations halve the bytes
    assert TP_COMM_MS(8192, 64, 8, 0.45, 80, "FP8") == approx(t8 / 2)
    # latency only (a near-empty message): 2 × 7 × 2 µs × 2 × 80 = 4.48 ms + 1 token's bytes
    lat = TP_COMM_MS(8192, 1, 8, 0.45, 80, "BF16", 2, "2 us")
    assert lat == approx(4.48 + 160 * 1.75 * 16384 / 450e9 * 1e3)
    assert TP_COMM_MS(8192, 64, [1, 2, 8], 0.45, 80).tolist() == [0, approx(t2), approx(t8)]


def test_tp_comm_with_the_latencies_of_the_interconnect_table():
    # NCCL src/graph/tuning.cc (commit 5067397c, 2026-06-11), ncclTunerConstantsDefaults:
    # baseLatencies[Ring][LL] = 6.6 µs; hwLatencies[NVLINK|PCI|NET][Ring][LL] = 0.6, 1.0,
    # 2.7 µs; ring all-reduce: nsteps = 2 * (nRanks - 1)
    table = interconnects.table()
    assert {k: (float(r["hop_latency_us"]), float(r["base_latency_us"]))
            for k, r in table.items()} == {"NVLink": (0.6, 6.6), "PCIe": (1.0, 6.6),
                                           "InfiniBand": (2.7, 6.6)}
    for r in table.values():
        assert r["source_url"].startswith("https://github.com/NVIDIA/nccl/blob/")
        assert r["source_date"] and r["notes"]
    # one all-reduce over 8 GPUs on NVLink: 6.6 + 14 × 0.6 = 15.0 µs; over 4 on PCIe:
    # 6.6 + 6 × 1.0 = 12.6 µs; one GPU: none
    lat = interconnects.allreduce_latency_us
    assert lat(8, interconnects.hop_latency_us("NVLink"),
               interconnects.base_latency_us("NVLink")) == approx(15.0)
    assert lat(4, 1.0, 6.6) == approx(12.6)
    assert lat(1, 0.6, 6.6) == 0
    # TP_COMM_MS with them, a one-token message (16,384 B) over 8 H100 (0.45 TB/s one
    # way), Llama 3.1 70B's 80 layers: 160 × (15.0 µs + 1.75 × 16,384 B ÷ 450e9 B/s) =
    # 2.4 ms + 0.010194 ms
    t = TP_COMM_MS(8192, 1, 8, 0.45, 80, "BF16", 2, "0.6 us", "6.6 us")
    assert t == approx(160 * 15.0e-3 + 160 * 1.75 * 16384 / 450e9 * 1e3)
    assert t == approx(160 * 1e-3 * lat(8, 0.6, 6.6) + TP_COMM_MS(8192, 1, 8, 0.45, 80))


def test_pipeline_bubble_and_gpipe_rule():
    assert PIPELINE_BUBBLE(1, 1) == 0  # one stage: no bubble
    assert PIPELINE_BUBBLE(4, 1) == 0.75  # 3 ÷ 4: one micro-batch leaves 3 of 4 idle
    assert PIPELINE_BUBBLE(4, 16) == approx(3 / 19)  # GPipe's m = 4p: 0.158


def test_speculative_decoding_limits():
    # α = 0: only the target's own token, 1 per step, for any γ
    assert SPEC_TOKENS_PER_STEP(0, 7) == 1
    # γ = 0: plain decoding
    assert SPEC_TOKENS_PER_STEP(0.9, 0) == 1
    # close to α = 1 the formula tends to γ + 1 with no jump: 1 − 1e-9 gives 4.99999999
    assert SPEC_TOKENS_PER_STEP(1 - 1e-9, 4) == approx(5, abs=1e-7)
    assert SPEC_TOKENS_PER_STEP([0, 0.5, 1], 2).tolist() == [1, 1.75, 3]  # 1 + 0.5 + 0.25
    # a free draft (c = 0, the default): the speedup is the tokens per step
    assert SPEC_DECODE_SPEEDUP(0.8, 4) == approx(3.3616)
    # α 0.6, γ 3, c 0.5: (1 − 0.6⁴) ÷ 0.4 = 0.8704 ÷ 0.4 = 2.176; ÷ 2.5 = 0.8704: slower
    assert SPEC_DECODE_SPEEDUP(0.6, 3, 0.5) == approx(0.8704)


def test_concurrency_and_energy_units():
    assert CONCURRENCY("1200 requests/min", "11 s") == approx(220)
    assert CONCURRENCY("20 requests/s", "11000 ms") == approx(220)
    assert CONCURRENCY(0, 11) == 0
    assert JOULES_PER_TOKEN("1.2 kW", "2000 tokens/s") == approx(0.6)  # 1,200 ÷ 2,000
    # 8 H100s at 700 W making 20,000 tokens/s: 5,600 ÷ 20,000 = 0.28 J; × 1e6 ÷ 3.6e6
    assert ENERGY_PER_MTOK_KWH(8 * 700, 20000) == approx(0.28 / 3.6)


@pytest.mark.parametrize("call, expected_code, names", [
    (lambda: MAX_BATCH(80, 16, 0), "#NUM!", "kv_gb_per_sequence"),
    (lambda: MAX_BATCH(0, 16, 1), "#NUM!", "capacity_gb"),
    (lambda: MAX_BATCH(80, -1, 1), "#NUM!", "weights_gb"),
    (lambda: MAX_BATCH(80, 16, 1, 1), "#NUM!", "reserve_fraction"),
    (lambda: MAX_BATCH(80, 16, 1, 0, 1.5), "#NUM!", "gpus"),
    (lambda: MAX_BATCH("80 TFLOPS", 16, 1), "#VALUE!", "capacity_gb"),
    (lambda: BATCH_FOR_LATENCY(0, 16, 1, 3.35), "#NUM!", "target_ms"),
    (lambda: BATCH_FOR_LATENCY(20, 16, 1, "3.35 GB"), "#VALUE!", "bandwidth"),
    (lambda: TP_COMM_MS(8192, 64, 0, 0.45), "#NUM!", "tp"),
    (lambda: TP_COMM_MS(8192, 64, 2.5, 0.45), "#NUM!", "tp"),
    (lambda: TP_COMM_MS(8192, 64, 8, 0), "#NUM!", "link_bandwidth"),
    (lambda: TP_COMM_MS(8192, 64, 8, 0.45, 80, "FP7"), "#N/A", "precision"),
    (lambda: TP_COMM_MS(8192, 64, 8, 0.45, 80, "BF16", 2, -1), "#NUM!", "latency_us"),
    (lambda: PIPELINE_BUBBLE(0, 8), "#NUM!", "stages"),
    (lambda: PIPELINE_BUBBLE(4, 0), "#NUM!", "microbatches"),
    (lambda: SPEC_TOKENS_PER_STEP(1.1, 4), "#NUM!", "acceptance_rate"),
    (lambda: SPEC_TOKENS_PER_STEP(0.8, -1), "#NUM!", "draft_tokens"),
    (lambda: SPEC_TOKENS_PER_STEP(0.8, 2.5), "#NUM!", "draft_tokens"),
    (lambda: SPEC_DECODE_SPEEDUP(0.8, 4, -0.1), "#NUM!", "draft_cost_ratio"),
    (lambda: CONCURRENCY(-1, 11), "#NUM!", "requests_per_sec"),
    (lambda: CONCURRENCY("20 GB", 11), "#VALUE!", "requests_per_sec"),
    (lambda: JOULES_PER_TOKEN(700, 0), "#NUM!", "tokens_per_sec"),
    (lambda: ENERGY_PER_MTOK_KWH(700, 2000, 0.9), "#NUM!", "pue"),
    (lambda: ENERGY_PER_MTOK_KWH("700 GB", 2000), "#VALUE!", "power_w"),
])
def test_bad_input_gives_an_error_value_naming_the_argument(call, expected_code, names):
    result = call()
    assert code(result) == expected_code
    assert names in result.message
