"""DECODE_STEP_MS with pipeline stages: each term by hand.

A replica of g GPUs in p stages of g/p GPUs in tensor parallel; the batch B in m
micro-batches. A period (the time per output token of every sequence) is k = max(m, p)
stage passes (docs/math.md, DECODE_STEP_MS; vLLM v0.6's engine keeps a micro-batch per
stage, vllm/engine/llm_engine.py: m = p):

    k/m · max(KV/(g·BW), F_attn/(g·P)) + max(k/m · 2·N·B/(g·P), k · W/(g·BW)) + k/p · comm

Figures: the H100 SXM datasheet (3.35 TB/s, 989 TFLOPS BF16, 1,979 FP8 dense, NVLink 900
GB/s in + out, 0.45 TB/s each way); Llama 3.1 405B's config (126 layers, hidden 16,384,
128 heads, 8 KV heads, head_dim 128; udfs/data/models.csv: 405.85 B parameters); NCCL's
ring latencies over NVLink (udfs/data/interconnects.csv: 0.6 µs a ring step, 6.6 µs a
call).
"""

import pytest

from udfs import DECODE_STEP_MS, EXPLAIN, PIPELINE_BUBBLE, TP_COMM_MS, ExcelError

approx = pytest.approx

# Llama 3.1 8B BF16 on H100s at batch 64 of 1,024 tokens (tests/reference_cases.py):
# W 16.06 GB, KV 64 × 1,024 × 131,072 B = 8.589934592 GB, N 8.03e9
SMALL = (16.06, 8.589934592, 3.35, 8.03e9, 64, 989)

# Llama 3.1 405B FP8 at batch 16 of 2,300 tokens (2,000 prompt + 300 output):
# W = 405.85e9 × 1 B = 405.85 GB; KV per token 2 × 126 × 8 × 128 × 2 B = 516,096 B, so
# KV = 16 × 2,300 × 516,096 B = 18.9923328 GB; attention 4 × 126 × (128 × 128) × 2,300 ×
# 16 = 3.0387732480e11 FLOP
W405, KV405, N405, B405 = 405.85, 18.9923328, 405.85e9, 16
F405 = 4 * 126 * 128 * 128 * 2300 * 16


def test_one_stage_is_the_tensor_parallel_step():
    # p = m = 1 (given or omitted) gives the step without stages: 7.3581894 ms
    # ((8.589934592 + 16.06) ÷ 3.35, tests/reference_cases.py)
    base = (8.589934592 + 16.06) / 3.35
    assert DECODE_STEP_MS(*SMALL) == approx(base, rel=1e-12)
    assert DECODE_STEP_MS(*SMALL, 0, 1, 0, 1) == approx(base, rel=1e-12)
    assert DECODE_STEP_MS(*SMALL, 0, 1, 0, 1, 1) == approx(base, rel=1e-12)
    # over 2 GPUs with 0.5 ms of all-reduces, 1 stage: 8.589934592 ÷ 6.7 = 1.2820798 +
    # max(2 × 8.03e9 × 64 ÷ 1,978e12 = 0.5196 ms, 16.06 ÷ 6.7 = 2.3970149) + 0.5
    assert DECODE_STEP_MS(*SMALL, 0, 2, 0.5, 1) == approx(
        8.589934592 / 6.7 + 16.06 / 6.7 + 0.5, rel=1e-12)


def test_405b_fp8_over_16_h100_in_2_stages_of_tp8():
    # each stage: 63 layers on 8 GPUs; m = p = 2 micro-batches of 8 sequences, k = 2
    # all-reduces of one micro-batch through the 126 layers at TP8 (ring, NCCL NVLink):
    # per call 6.6 µs + 2 × 7 × 0.6 µs = 15 µs, plus 14/8 × 8 × 16,384 × 2 B = 458,752 B
    # ÷ 450e9 B/s = 1.0194489 µs; × 2 per layer × 126 layers = 4.0369 ms
    per_call_us = 6.6 + 14 * 0.6 + 14 / 8 * 8 * 16384 * 2 / 450e9 * 1e6
    comm = 2 * 126 * per_call_us / 1e3
    assert comm == approx(4.0369, abs=1e-4)
    assert TP_COMM_MS(16384, 8, 8, 0.45, 126, 2, 2, 0.6, 6.6) == approx(comm, rel=1e-12)
    # attention: k/m = 1 × max(18.9923328 GB ÷ (16 × 3.35 TB/s) = 0.35433457 ms,
    #   3.0387732e11 FLOP ÷ (16 × 1,979e12) = 0.00959687 ms) = 0.35433457 ms
    attention = 18.9923328 / (16 * 3.35)
    assert attention == approx(0.35433457, rel=1e-7)
    # weights: max(k/m × 2 × 405.85e9 × 16 ÷ (16 × 1,979e12) = 0.41015664 ms,
    #   k × 405.85 ÷ (16 × 3.35) = 2 × 7.5718284 = 15.1436567 ms): each stage reads its
    #   202.9 GB once for each of the 2 micro-batches of a period
    weights = 2 * 405.85 / (16 * 3.35)
    assert weights == approx(15.1436567, rel=1e-7)
    # + k/p × comm = 4.0369 ms: 0.35433457 + 15.1436567 + 4.0369 = 19.535 ms a period
    expected = attention + weights + comm
    assert expected == approx(19.535, abs=1e-3)
    got = DECODE_STEP_MS(W405, KV405, 3.35, N405, B405, 1979, F405, 16, comm, 2)
    assert got == approx(expected, rel=1e-12)
    # microbatches given as 2 is the same as omitted (default: stages)
    assert DECODE_STEP_MS(W405, KV405, 3.35, N405, B405, 1979, F405, 16, comm, 2, 2) == got
    # against TP16 in one stage (no all-reduces counted, to compare the reads): 0.354335
    # + 7.5718284 = 7.926 ms: at the same batch the pipeline pays the weights twice
    tp16 = DECODE_STEP_MS(W405, KV405, 3.35, N405, B405, 1979, F405, 16)
    assert tp16 == approx(attention + 405.85 / (16 * 3.35), rel=1e-12)
    assert got - comm - tp16 == approx(405.85 / (16 * 3.35), rel=1e-9)


def test_fewer_microbatches_than_stages_idle_the_stages():
    # 8B BF16 over 4 GPUs in 4 stages of 1 GPU, m = 2 micro-batches of 32: k = 4
    # attention 4/2 × 8.589934592 ÷ (4 × 3.35) = 2 × 0.64103990 = 1.2820798 ms
    # weights max(4/2 × 2 × 8.03e9 × 64 ÷ (4 × 989e12) = 0.51961577 ms,
    #             4 × 16.06 ÷ (4 × 3.35) = 4.7940299 ms) = 4.7940299 ms
    # comm 1 ms (given) × 4/4 = 1 ms; sum 7.0761097 ms, and the stages idle 1 − 2/4
    expected = 2 * 8.589934592 / 13.4 + 4 * 16.06 / 13.4 + 1
    assert expected == approx(7.0761097, rel=1e-7)
    assert DECODE_STEP_MS(*SMALL, 0, 4, 1, 4, 2) == approx(expected, rel=1e-12)
    # m = 1 of 4 stages: k = 4, a period is 4 passes of the whole batch:
    # 4 × 0.6410399 + max(4 × 2 × 8.03e9 × 64 ÷ 3,956e12 = 1.0392315, 4.7940299) + 1
    expected_one = 4 * 8.589934592 / 13.4 + 4 * 16.06 / 13.4 + 1
    assert DECODE_STEP_MS(*SMALL, 0, 4, 1, 4, 1) == approx(expected_one, rel=1e-12)
    text = EXPLAIN("DECODE_STEP_MS", *SMALL, 0, 4, 1, 4, 2)
    assert "4 stages of 1 GPU(s), 2 micro-batches of 32" in text
    assert "idle 0.5 of the time" in text


def test_more_microbatches_than_stages_read_the_weights_more():
    # 8B BF16 over 2 GPUs in 2 stages, m = 4 micro-batches of 16: k = 4
    # attention 4/4 × 8.589934592 ÷ (2 × 3.35) = 1.2820798 ms
    # weights max(4/4 × 2 × 8.03e9 × 64 ÷ (2 × 989e12) = 0.51961577 ms,
    #             4 × 16.06 ÷ 6.7 = 9.5880597 ms) = 9.5880597 ms
    # comm 0.2 ms × 4/2 = 0.4 ms (each of the 4 passes of a stage: 0.1 ms)
    expected = 8.589934592 / 6.7 + 4 * 16.06 / 6.7 + 0.4
    assert expected == approx(11.2701395, rel=1e-7)
    assert DECODE_STEP_MS(*SMALL, 0, 2, 0.2, 2, 4) == approx(expected, rel=1e-12)
    # compute-bound at a large batch: 8B, no KV, batch 8,192 over 2 GPUs in 2 stages, m = 4
    # math 4/4 × 2 × 8.03e9 × 8,192 ÷ (2 × 989e12) = 66.5134 ms > 4 × 16.06 ÷ 6.7
    math = 2 * 8.03e9 * 8192 / (2 * 989e12) * 1e3
    assert math == approx(66.5134, rel=1e-5)
    assert DECODE_STEP_MS(16.06, 0, 3.35, 8.03e9, 8192, 989, 0, 2, 0, 2, 4) == approx(
        math, rel=1e-12)


@pytest.mark.parametrize("stages, microbatches, code, words", [
    (0, None, "#NUM!", "stages must be 1 or more"),
    (3, None, "#NUM!", "stages must divide gpus"),
    (1.5, None, "#NUM!", "stages must be a whole number"),
    ("two", None, "#VALUE!", "stages"),
    (2, 0, "#NUM!", "microbatches must be 1 or more"),
    (2, 1.5, "#NUM!", "microbatches must be a whole number"),
    (2, "many", "#VALUE!", "microbatches"),
])
def test_bad_stages_name_the_argument(stages, microbatches, code, words):
    # 8 GPUs: 3 stages would leave 8 ÷ 3 GPUs a stage
    got = DECODE_STEP_MS(*SMALL, 0, 8, 0, stages, microbatches)
    assert isinstance(got, ExcelError) and got.code == code
    assert words in got.message


def test_stages_spread_over_a_range():
    # 8 GPUs in 1, 2, 3 stages (m = p): 8.589934592 ÷ 26.8 = 0.32052 + p × 16.06 ÷ 26.8
    got = DECODE_STEP_MS(*SMALL, 0, 8, 0, [[1, 2, 3]])
    row = got.tolist()[0]
    assert row[0] == approx(8.589934592 / 26.8 + 16.06 / 26.8, rel=1e-12)
    assert row[1] == approx(8.589934592 / 26.8 + 2 * 16.06 / 26.8, rel=1e-12)
    assert isinstance(row[2], ExcelError) and row[2].code == "#NUM!"


def test_pipeline_bubble_is_gpipe_fill_and_drain_not_the_decode_step():
    # (4 − 1) ÷ (8 + 4 − 1) = 0.2727 of a schedule that drains between batches (GPipe
    # §2.3); the decode step with m = p has no such term: m ≥ p keeps every stage busy
    assert PIPELINE_BUBBLE(4, 8) == approx(3 / 11, rel=1e-12)
    assert DECODE_STEP_MS(16.06, 0, 3.35, 8.03e9, 1, 989, 0, 4, 0, 4, 8) == approx(
        8 * 16.06 / 13.4, rel=1e-12)


# TensorRT-LLM v1.0 "perf-overview" (trtllm-bench, maximum throughput, 1,000 input + 1,000
# output tokens), Llama 3.3 70B FP4 on RTX 6000 Pro Blackwell Server Edition in TP1 × PP1,
# PP2, PP4, PP8: total output tokens/s (the table of that GPU):
# https://github.com/NVIDIA/TensorRT-LLM/blob/00f37686aa854010d68bcbd0f4ab000221541ca6/docs/source/performance/perf-overview.md
TRTLLM_PP = {1: 1787, 2: 3707, 4: 5961, 8: 8166}


@pytest.mark.parametrize("stages", sorted(TRTLLM_PP))
def test_published_pipeline_parallel_decode(stages):
    """The floor of each pipelined measurement is below it, as serving_floor.py builds a
    floor (tests/data/serving_measurements.csv): the batch the most that memory holds at
    the full context, 1,000 + 1,000 tokens, the step reading the KV cache at the mean one,
    1,000 + 500, FP8 KV cache (the source does not state it: the smaller), no memory held
    back; the GPUs table's RTX PRO 6000 Blackwell (96 GB, 1.792 TB/s, Workstation and
    Server Editions alike; no FLOPS figure: a memory floor, which the prompts' prefill
    does not move). REGIME_EFFICIENCY of the replica's GPUs and batch (all stages
    together), with the 80 layers' LAYER_OVERHEAD_MS, puts the realistic estimate within
    1.5× of the measurement up to 4 stages (1.21, 0.952, 0.727); at 8 it is 2.1× below
    (0.487; docs/measurements.md)."""
    from udfs import KV_CACHE_GB, LAYER_OVERHEAD_MS, MAX_BATCH, REGIME_EFFICIENCY, WEIGHT_GB
    # Llama 3.3 70B (config.json): 80 layers, 8 KV heads, head_dim 128; 70.6e9 parameters,
    # 69.549e9 read a step (all but the input embedding, models.csv); NVFP4 0.5625 B
    kv_seq = KV_CACHE_GB(80, 8, 128, 1500, "FP8")  # 2 × 80 × 8 × 128 × 1 B × 1,500
    assert kv_seq == approx(0.24576, rel=1e-12)
    full = KV_CACHE_GB(80, 8, 128, 2000, "FP8")  # memory: each sequence's last step
    batch = MAX_BATCH(96, WEIGHT_GB(70.6e9, "NVFP4"), full, 0, stages)
    step = DECODE_STEP_MS(WEIGHT_GB(69549326848, "NVFP4"), batch * kv_seq, 1.792, 70.6e9,
                          batch, 1e9, 0, stages, 0, stages)
    measured = 1000 * batch / TRTLLM_PP[stages]  # ms per token of one stream
    assert step < measured
    realistic = step / REGIME_EFFICIENCY(stages, batch) + LAYER_OVERHEAD_MS(80)
    ratio = realistic / measured
    if stages <= 4:
        assert 1 / 1.5 <= ratio <= 1.5, (stages, ratio)
    else:
        assert ratio < 1 / 1.5  # below: outside the 1.5× the set holds its rows to
