"""Serving and energy functions beyond their reference cases: units, ranges, edges, errors.

Expected numbers are hand calculations shown inline; model figures come from the configs
in ``udfs/data/models.csv`` and GPU figures from the datasheets in ``udfs/data/gpus.csv``.
"""

import pytest
from template_support import models_range

from udfs import (
    BATCH_FOR_LATENCY,
    CONCURRENCY,
    DECODE_FLOOR,
    ENERGY_PER_MTOK_KWH,
    EXPLAIN,
    JOULES_PER_TOKEN,
    KV_CACHE_GB,
    MAX_BATCH,
    PIPELINE_BUBBLE,
    PREFILL_MS,
    SPEC_DECODE_SPEEDUP,
    SPEC_TOKENS_PER_STEP,
    TP_COMM_MS,
    ExcelError,
)
from udfs.inference import interconnects

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
    (lambda: TP_COMM_MS(8192, 64, 8, 0.45, 80, "BF16", 2, "NVLnk"), "#N/A", "latency_us"),
    (lambda: TP_COMM_MS(8192, 64, 8, 0.45, 80, "BF16", 2, 0.6, "Ethernet"), "#N/A",
     "base_latency_us"),
    (lambda: DECODE_FLOOR("Lama 4", "FP8", 38.4), "#N/A", "params"),
    (lambda: DECODE_FLOOR("8.03 Gb", "FP8", 38.4), "#VALUE!", "params"),
    (lambda: DECODE_FLOOR("Llama 3.1 8B", "FP8", 38.4, 1, None, 0, None, None, None, 5),
     "#VALUE!", "models"),
    (lambda: DECODE_FLOOR("Llama 3.1 8B", "FP8", 38.4, 1, None, 0, None, None, None,
                          [["name", "layers"], ["Llama 3.1 8B", 32]]), "#VALUE!",
     "models: the first row of the range must be the table's headers; no 'Parameters, "
     "total (billions)', 'Parameters active per token (billions)' column: select the whole "
     "Models table"),
    (lambda: PREFILL_MS("Mistral 9000", 2000, 989), "#N/A", "params"),
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


# --------------------------------------------------------------- a model named, not counted
# Llama 4 Maverick (udfs/data/models.csv, from meta-llama/Llama-4-Maverick-17B-128E's
# config.json): 400.7118e9 total, 17.1847e9 active (counted from the config), vocab
# 202,048 × hidden 5,120 = 1,034,485,760 embedding parameters, untied; 24 MoE layers of
# 128 experts, 1 per token, expert width 8,192. A decode step at batch 1 reads 17.1847e9 −
# 1,034,485,760 = 16,150,214,240 weights; one routed expert over all MoE layers is 24 × 3
# × 5,120 × 8,192 = 3,019,898,880; at batch 4,096 a layer reads 128 × (1 − (127/128)^4096)
# = 128 − 1.4e-12 experts, so the step reads 16,150,214,240 + 3,019,898,880 × 127 =
# 399,677,372,000.
MAVERICK_ACTIVE = 17.1847e9
MAVERICK_READS = 16_150_214_240 + 3_019_898_880 * 127
# 8 H200: 8 × 4.8 TB/s, 8 × 1,979 dense FP8 TFLOPS (NVIDIA H200 datasheet)
H200X8 = (8 * 4.8, 8 * 1979)


def test_an_moe_model_by_name_reads_the_experts_its_batch_touches():
    bw, peak = H200X8
    by_name = DECODE_FLOOR("Llama 4 Maverick", "FP8", bw, 4096, peak, 0, "us")
    assert by_name == approx(MAVERICK_READS / 1e9 / bw * 1e3, rel=1e-12)  # 10,408.265 µs
    # the same as the count form given the weights read and the active parameters
    assert by_name == approx(DECODE_FLOOR(MAVERICK_READS, "FP8", bw, 4096, peak, 0, "us",
                                          MAVERICK_ACTIVE), rel=1e-12)
    # per token 10,408.265 ÷ 4,096 = 2.541 µs, below TensorRT-LLM's measured 1e6 ÷ 40,572
    # tokens/s = 24.65 µs (perf-overview, v1.0, 8 H200, FP8)
    assert by_name / 4096 == approx(2.5411, abs=1e-4)
    assert by_name / 4096 < 1e6 / 40572
    # at batch 1 it reads one expert a layer: 16,150,214,240 weights, 1 B each in FP8
    assert DECODE_FLOOR("Llama 4 Maverick", "FP8", 4.8) == approx(16.15021424 / 4.8)
    # the math term takes the active parameters: at batch 8,192 it rules, 2 × 17.1847e9 ×
    # 8,192 ÷ 15,832 TFLOPS = 17.7839 ms (the weights: about 399.7 GB ÷ 38.4 TB/s = 10.41 ms)
    assert DECODE_FLOOR("Llama 4 Maverick", "FP8", bw, 8192, peak) == approx(17.783863,
                                                                              abs=1e-6)
    # an active count given wins over the row's: 2 × 20e9 × 8,192 ÷ 15,832e12 = 20.6973 ms
    assert DECODE_FLOOR("Llama 4 Maverick", "FP8", bw, 8192, peak, 0, "ms", 20e9) == \
        approx(20.697322, abs=1e-6)


def test_mixtral_by_name_at_batch_two():
    # Mixtral 8x7B (config: 8 experts, top-2, 32 MoE layers, hidden 4,096, expert width
    # 14,336, vocab 32,000; 12.8799e9 active, counted from it): batch 1 reads 12.8799e9 −
    # 32,000 × 4,096 = 12,748,828,000; one expert 32 × 3 × 4,096 × 14,336 = 5,637,144,576;
    # batch 2 picks 8 × (1 − 0.75²) = 3.5 experts a layer: 12,748,828,000 + 1.5 ×
    # 5,637,144,576 = 21,204,544,864 weights, 42.4091 GB in BF16 ÷ 3.35 TB/s = 12.65943 ms
    assert DECODE_FLOOR("Mixtral 8x7B", "BF16", 3.35, 2) == approx(12.659430, abs=1e-6)
    # a range of batches: each its own reads; batch 1 is 25.497656 GB ÷ 3.35 = 7.61124 ms
    got = DECODE_FLOOR("Mixtral 8x7B", "BF16", 3.35, [[1], [2]])
    assert got.ravel().tolist() == [approx(7.611241, abs=1e-6), approx(12.659430, abs=1e-6)]


def test_a_dense_model_by_name_equals_the_count():
    # Llama 3.1 8B: 8.03e9 parameters (model card), all read each step, all multiplied
    for args in [("BF16", 3.35), ("BF16", 3.35, 64, 989), ("FP8", "4.8 TB/s", 256, 1979, 20),
                 ("BF16", 3.35, 1, 989, 0, "us", None, 3.3616)]:
        assert DECODE_FLOOR("Llama 3.1 8B", *args) == DECODE_FLOOR(8.03e9, *args)
    # 16.06 GB ÷ 3.35 TB/s = 4.794 ms; the names as MODEL_SPEC reads them
    assert DECODE_FLOOR("meta-llama/Llama-3.1-8B-Instruct", "BF16", 3.35) == \
        approx(16.06 / 3.35)
    # prefill multiplies the active parameters: 2 × 8.03e9 × 2,000 ÷ 989e12 = 32.477 ms;
    # Maverick's 17.1847e9: 2 × 17.1847e9 × 2,000 ÷ 989e12 = 69.503 ms
    assert PREFILL_MS("Llama 3.1 8B", 2000, 989) == PREFILL_MS(8.03e9, 2000, 989)
    assert PREFILL_MS("Llama 4 Maverick", 2000, 989, 1, 48, 5120) == \
        PREFILL_MS(MAVERICK_ACTIVE, 2000, 989, 1, 48, 5120)
    assert PREFILL_MS("Llama 4 Maverick", 2000, 989) == approx(69.503337, abs=1e-6)
    # counts as text stay counts; names and counts mix in a range
    assert DECODE_FLOOR("8.03B", "BF16", 3.35) == DECODE_FLOOR(8.03e9, "BF16", 3.35)
    mixed = DECODE_FLOOR([["Llama 3.1 8B", 70e9, "nope"]], "BF16", 3.35)
    assert mixed[0, 0] == approx(16.06 / 3.35) and mixed[0, 1] == approx(140 / 3.35)
    assert code(mixed[0, 2]) == "#N/A"


def test_the_template_models_range_gives_what_the_built_in_table_gives():
    table = models_range()
    names = [r[0] for r in table[1:] if isinstance(r[0], str) and not r[0].startswith("↑")]
    assert "Llama 4 Maverick" in names and "Mixtral 8x7B" in names
    for name in names:
        for batch in (1, 64, 4096):
            built_in = DECODE_FLOOR(name, "FP8", 38.4, batch, 15832)
            ranged = DECODE_FLOOR(name, "FP8", 38.4, batch, 15832, 0, "ms", None, None,
                                  table)
            assert ranged == approx(built_in, rel=1e-12), (name, batch)
        assert PREFILL_MS(name, 2000, 989, 1, None, None, table) == \
            approx(PREFILL_MS(name, 2000, 989), rel=1e-12)


def test_rows_a_user_edits_or_adds_in_the_models_range_count():
    table = [list(r) for r in models_range()]
    head = table[0]
    col = {h: head.index(h) for h in head}
    mav = next(r for r in table if r[0] == "Llama 4 Maverick")
    mav[col["Parameters active per token (billions)"]] = 20
    bw, peak = H200X8
    # 2 × 20e9 × 8,192 ÷ 15,832e12 = 20.6973 ms, where the built-in 17e9 gives 17.5927
    assert DECODE_FLOOR("Llama 4 Maverick", "FP8", bw, 8192, peak, 0, "ms", None, None,
                        table) == approx(20.697322, abs=1e-6)
    # a dense row of the user's: 8e9 parameters, 16 GB in BF16 ÷ 3.35 TB/s = 4.776 ms
    mine = [None] * len(head)
    mine[0], mine[1], mine[2] = "My 8B", 8, 8
    # an MoE row of the user's: 64 experts, 4 per token, 9.5e9 read at batch 1, 1.2e9 a
    # further expert; batch 16 picks 64 × (1 − (60/64)^16) = 64 × (1 − 0.356074) = 41.2113
    # experts a layer: 9.5e9 + 1.2e9 × 37.2113 = 54.1535e9 weights, ÷ 3.35 TB/s in FP8 =
    # 16.1652 ms
    moe = [None] * len(head)
    moe[0], moe[1], moe[2] = "My MoE", 100, 10
    moe[col["Experts (routed)"]], moe[col["Experts per token"]] = 64, 4
    moe[col["Weights read per decode step, batch 1 (billions)"]] = 9.5
    moe[col["One routed expert, all MoE layers (billions)"]] = 1.2
    table = [*table, mine, moe]
    args = (None, 0, "ms", None, None, table)
    assert DECODE_FLOOR("My 8B", "BF16", 3.35, 1, *args) == approx(16 / 3.35)
    assert DECODE_FLOOR("my moe", "FP8", 3.35, 16, *args) == approx(16.165226, abs=1e-6)
    assert DECODE_FLOOR("My MoE", "FP8", 3.35, 1, *args) == approx(9.5 / 3.35)
    assert PREFILL_MS("My MoE", 2000, 989, 1, None, None, table) == \
        approx(2 * 10e9 * 2000 / 989e12 * 1e3)
    # the user's table knows only its rows; an MoE row in a range without the columns of
    # the weights a step reads (V, W) is #VALUE! naming models, the column and the fix;
    # with the columns but their cells empty, #N/A naming params and the field
    assert code(DECODE_FLOOR("My 8B", "BF16", 3.35)) == "#N/A"
    short = [r[:3] + r[11:13] for r in table]
    got = DECODE_FLOOR("My MoE", "FP8", 3.35, 16, *args[:-1], short)
    assert code(got) == "#VALUE!"
    assert got.message.startswith("models: the range has no 'Weights read per decode step, "
                                  "batch 1 (billions)' column, and My MoE is a mixture of "
                                  "experts")
    assert got.message.endswith("columns A to AB from Models!A5 down to its last row")
    empty = [*table[:-1], [*moe[:col["Weights read per decode step, batch 1 (billions)"]],
                           None, *moe[col["Weights read per decode step, batch 1 (billions)"]
                                      + 1:]]]
    got = DECODE_FLOOR("My MoE", "FP8", 3.35, 16, *args[:-1], empty)
    assert code(got) == "#N/A" and "decode_params" in got.message
    assert DECODE_FLOOR("My 8B", "BF16", 3.35, 1, *args[:-1], short) == approx(16 / 3.35)


def test_a_models_range_without_the_experts_columns_is_an_error_for_an_moe_row():
    # Models!A5:C (name, total, active) would read Llama 4 Maverick as dense, all its
    # 400.7118e9 weights a step: 400.71 GB in FP8 ÷ 4.8 TB/s = 83.48 ms, where batch 1
    # reads 16,150,214,240 (above): 3.3646 ms. It is #VALUE! naming models and the fix
    table = models_range()
    args = ("Llama 4 Maverick", "FP8", 4.8, 1, None, 0, "ms", None, None)
    assert DECODE_FLOOR(*args, table) == approx(16.15021424 / 4.8, rel=1e-12)
    for short, lacks in (([r[:3] for r in table], "'Experts (routed)' or 'Experts per token'"),
                         ([r[:12] for r in table], "'Experts per token'")):
        got = DECODE_FLOOR(*args, short)
        assert code(got) == "#VALUE!"
        assert got.message.startswith(f"models: the range has no {lacks} column, and Llama 4 "
                                      "Maverick has fewer active than total parameters")
        assert got.message.endswith("columns A to AB from Models!A5 down to its last row")
    # a dense row (total = active) reads its total without them: 16.06 GB ÷ 3.35 TB/s;
    # prefill takes the active count alone: 2 × 17.1847e9 × 2,000 ÷ 989e12 = 69.503 ms
    short = [r[:3] for r in table]
    assert DECODE_FLOOR("Llama 3.1 8B", "BF16", 3.35, *args[3:], short) == approx(16.06 / 3.35)
    assert PREFILL_MS("Llama 4 Maverick", 2000, 989, 1, None, None, short) == \
        approx(69.503337, abs=1e-6)


def test_explain_says_what_the_name_became():
    text = EXPLAIN("DECODE_FLOOR", "Llama 4 Maverick", "FP8", 38.4, 4096, 15832)
    assert text.startswith("DECODE_FLOOR: Llama 4 Maverick (built-in table): ")
    assert "399.7e9 weights read" in text and "17.18e9 active" in text and "memory-bound" in text
    text = EXPLAIN("PREFILL_MS", "Llama 3.1 8B", 2000, 989)
    assert "8.03e9 active parameters" in text and "32.48 ms" in text
    # with a models range, the last of DECODE_FLOOR's ten arguments (the user's MoE row of
    # the test above: 9.5e9 + 1.2e9 × (41.21 − 4) = 54.15e9 read at batch 16)
    table = [["Model", "Parameters, total (billions)", "Parameters active per token (billions)",
              "Experts (routed)", "Experts per token",
              "Weights read per decode step, batch 1 (billions)",
              "One routed expert, all MoE layers (billions)"], ["My MoE", 100, 10, 64, 4, 9.5, 1.2]]
    text = EXPLAIN("DECODE_FLOOR", "My MoE", "FP8", 3.35, 16, None, None, None, None, None,
                   table)
    assert "My MoE (models range): 9.5e9 + 1.2e9 × (41.21 − 4)" in text and "16.17 ms" in text


def test_tp_comm_reads_an_interconnect_by_name():
    # NCCL's constants (data/interconnects.csv): the names give the numbers, in any case
    args = (8192, 64, 8, 0.45, 80, "BF16", 2)
    assert TP_COMM_MS(*args, "NVLink", "NVLink") == TP_COMM_MS(*args, 0.6, 6.6)
    assert TP_COMM_MS(*args, "nvlink", "NVLINK") == TP_COMM_MS(*args, 0.6, 6.6)
    # Llama 3.1 70B, 8 GPUs on NVLink, batch 64: 0.6525 ms of bytes + 160 × (6.6 + 14 ×
    # 0.6) µs = 2.4 ms: 3.0525 ms
    assert TP_COMM_MS(*args, "NVLink", "NVLink") == approx(3.052447, abs=1e-6)
    # 4 GPUs on PCIe: 160 × (6.6 + 6 × 1.0) µs = 2.016 ms + 160 × 1.5 × 1,048,576 B ÷ 450e9
    # B/s = 0.559241 ms: 2.575241 ms
    assert TP_COMM_MS(8192, 64, 4, 0.45, 80, "BF16", 2, "PCIe", "pcie") == \
        approx(2.575241, abs=1e-6)
    assert TP_COMM_MS(*args, "InfiniBand") == TP_COMM_MS(*args, 2.7)
    bad = TP_COMM_MS(*args, "Ethernet")
    assert "NVLink, PCIe, InfiniBand" in bad.message
