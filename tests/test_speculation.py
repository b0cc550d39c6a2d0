"""Speculative decoding on the template: the draft tokens (``SCENARIO_DRAFT_TOKENS``, k)
make each step verify B × (k + 1) tokens and run k draft passes of one layer
(``workbook.speculation``).

Each case is a copy of the template with the scenario typed in, computed by ``napkin
calc`` (or, where a test reads Sizing alone, Sizing's formulas computed in Python with the
same inputs, ``template_values.sizing_at``, which tests/test_scenario_step.py holds to the
engine's), checked against hand arithmetic from the configs and datasheets named in the
comments, and against the same scenario without drafts (k = 0): what the drafts add.
"""

from __future__ import annotations

import pytest
from template_support import variant
from template_values import sizing_at

from workbook.plan import PLAN
from workbook.scenario import LARGEST, PLAN_SCENARIO_ROW, SCENARIO_NAMES
from workbook.sizing import SIZING

S = {name: "Sizing!" + SIZING[key] for name, key in SCENARIO_NAMES.items()}


def _scenario(model, precision, gpu, gpus, batch, prompt, output, tokens_per_step, draft,
              expert_parallel="auto", serving="aggregated"):
    return {S["SCENARIO_MODEL"]: model, S["SCENARIO_PRECISION"]: precision,
            S["SCENARIO_KV_PRECISION"]: "FP8", S["SCENARIO_GPU"]: gpu,
            S["SCENARIO_GPUS_PER_REPLICA"]: gpus, S["SCENARIO_BATCH"]: batch,
            S["SCENARIO_PROMPT_TOKENS"]: prompt, S["SCENARIO_OUTPUT_TOKENS"]: output,
            S["SCENARIO_TOKENS_PER_STEP"]: tokens_per_step,
            S["SCENARIO_DRAFT_TOKENS"]: draft,
            S["SCENARIO_EXPERT_PARALLEL"]: expert_parallel, S["SCENARIO_SERVING"]: serving}


@pytest.fixture(scope="module")
def mtp():
    """DeepSeek-R1 NVFP4 on 8 B200 in tensor parallel at batch 1, 1,000 + 2,000 tokens:
    TensorRT-LLM's minimum-latency run (trtllm-r1-b200-mtp3 of the measurement set), with
    MTP 3 (2.82 tokens a step) and, to compare, the same with no draft (1 token)."""
    args = ("DeepSeek-R1", "NVFP4", "NVIDIA B200 (HGX)", 8, 1, 1000, 2000)
    return (sizing_at(_scenario(*args, 2.82, 3, "no")), sizing_at(_scenario(*args, 1, 0, "no")))


def test_the_verifying_pass_reads_the_experts_of_k_plus_1_tokens(mtp):
    drafts, plain = mtp
    assert drafts[SIZING["verified"]] == 4  # 1 sequence × (3 drafts + 1)
    assert plain[SIZING["verified"]] == 1
    # DeepSeek-R1 (config.json): 256 routed experts a layer, 8 a token; one routed expert
    # over its 58 MoE layers is 58 × 3 × 7,168 × 2,048 = 2.5543e9 parameters. Uniform
    # routing: 4 tokens read 256 × (1 − (248/256)^4) = 30.53 distinct experts a layer,
    # not 8: 22.53 more experts' weights a step
    expert_b = 58 * 3 * 7168 * 2048 / 1e9
    more = 256 * (1 - (248 / 256) ** 4) - 8
    assert more == pytest.approx(22.53, abs=0.01)
    assert drafts[SIZING["read_b"]] - plain[SIZING["read_b"]] == pytest.approx(
        expert_b * more, rel=1e-9)


def test_the_step_pays_the_drafts_experts_and_all_reduces(mtp):
    drafts, plain = mtp
    # the step (floor per token × tokens per step) grows by the extra experts' bytes, in
    # NVFP4 (4 bits and one FP8 scale a 16: 0.5625 B), over 8 × 8 TB/s (B200 datasheet),
    # and by the all-reduces' bytes of 3 more tokens: 2 a layer × 61 layers × 2 × 7/8 ×
    # 7,168 × 2 B (BF16) ÷ 900 GB/s one way (half of NVLink 5's 1,800 GB/s); their latency
    # is paid once a step either way (the prompt's 1,000 ÷ 2,000 = 0.5 tokens a step ride in
    # both, prefill sharing the GPUs: their experts are left out, a floor)
    expert_b = 58 * 3 * 7168 * 2048 / 1e9
    more_weights_ms = expert_b * (256 * (1 - (248 / 256) ** 4) - 8) * 0.5625 / (8 * 8.0)
    more_comm_ms = 2 * 61 * 2 * 7 / 8 * 7168 * 2 * 3 / 900e9 * 1e3
    assert drafts[SIZING["comm_ms"]] - plain[SIZING["comm_ms"]] == pytest.approx(
        more_comm_ms, rel=1e-9)
    # batch 1 of 4.5 tokens stays weight-bound: 2 × 37.55e9 × 4.5 ÷ (8 × 4,500 TFLOPS,
    # the FP8 roof) is 9.4 µs against 0.30 ms of weights. The attention's products: MLA
    # (128 heads × (576 + 512) ÷ 2 = 544 × 128 dimensions), each verified token over the
    # mean context, 1,000 + 2,000 ÷ 2 = 2,000 tokens, and the prompt's 0.5 over 500:
    # 4 × 61 × 69,632 × (2,000 + 250) plain, × (4 × 2,000 + 250) with MTP 3. Tensor
    # parallel on 8 GPUs ("no" expert parallelism) each GPU holds MLA's whole latent cache:
    # the read is 8 × 2,000 × 70,272 B ÷ 2 (FP8) = 562 MB ÷ 64 TB/s = 8.78 µs, above the
    # products either way (3.89 µs with MTP 3): the drafts add no attention time
    flop = 4 * 61 * 128 * 544
    assert plain[SIZING["attn_flop"]] == pytest.approx(flop * (2000 + 250))
    assert drafts[SIZING["attn_flop"]] == pytest.approx(flop * (4 * 2000 + 250))
    assert plain[SIZING["kv_gb"]] == pytest.approx(3000 * 70272 / 2 / 1e9)  # memory: full
    assert plain[SIZING["kv_step_gb"]] == pytest.approx(8 * 2000 * 70272 / 2 / 1e9)
    kv_ms = 8 * 2000 * 70272 / 2 / (8 * 8.0e12) * 1e3
    assert kv_ms > flop * (4 * 2000 + 250) / (8 * 4500e12) * 1e3
    step3 = drafts[SIZING["step_ms"]] * 2.82
    assert step3 - plain[SIZING["step_ms"]] == pytest.approx(
        more_weights_ms + more_comm_ms, rel=1e-6)


def test_each_draft_pass_is_one_more_layer(mtp):
    drafts, plain = mtp
    # LAYER_OVERHEAD_MS: (61 layers + 3 draft passes) × 65.8 µs (udfs/data/layer_time.csv)
    # ÷ 2.82 tokens a step; without drafts 61 × 65.8 µs
    assert drafts[SIZING["layer_ms"]] == pytest.approx((61 + 3) * 65.8 / 2.82 / 1000)
    assert plain[SIZING["layer_ms"]] == pytest.approx(61 * 65.8 / 1000)
    assert drafts[SIZING["real_step_ms"]] == pytest.approx(
        drafts[SIZING["step_ms"]] / drafts[SIZING["calibrated"]] + drafts[SIZING["layer_used"]])


def test_a_large_batch_with_drafts_is_compute_bound():
    # Llama 3.1 8B FP8 on one H100 SXM at batch 512, 500 + 100 tokens, 3 drafts, 2.5
    # tokens a step. The verifying pass multiplies 8.03e9 weights by 512 × 4 tokens:
    # 2 × 8.03e9 × 2,048 ÷ 1,978.9 TFLOPS (H100 SXM FP8 dense, the datasheet's 3,958
    # sparse ÷ 2) = 16.62 ms, above the weights' read (7.50e9 B ÷ 3.35 TB/s = 2.24 ms):
    # the step is the KV cache's read + that, where without drafts it is the KV cache +
    # 2 × 8.03e9 × 512 ÷ 1,978.9e12 = 4.16 ms. Speculation's tokens are paid in FLOPs.
    # (Prefill on other GPUs, "disaggregated": the prompts' tokens would add FLOPs to both.)
    args = ("Llama 3.1 8B", "FP8", "NVIDIA H100 SXM", 1, 512, 500, 100)
    drafts = sizing_at(_scenario(*args, 2.5, 3, serving="disaggregated"))
    plain = sizing_at(_scenario(*args, 1, 0, serving="disaggregated"))
    # the KV cache, read once a sequence at the mean context: 32 layers × 8 KV heads × 128
    # × 2 (K and V) × 1 B (FP8) = 65,536 B a token (config.json) × 512 sequences × (500 +
    # 50) tokens = 18.45 GB (memory holds the full 600: 20.13 GB)
    assert drafts[SIZING["kv_gb"]] == pytest.approx(512 * 600 * 65536 / 1e9)
    assert drafts[SIZING["kv_step_gb"]] == pytest.approx(512 * 550 * 65536 / 1e9)
    assert drafts[SIZING["kv_step_gb"]] == plain[SIZING["kv_step_gb"]]
    kv_ms = 512 * 550 * 65536 / 3.35e12 * 1e3  # 5.51 ms
    compute3 = 2 * 8.03e9 * 512 * 4 / 1978.9e12 * 1e3
    compute0 = 2 * 8.03e9 * 512 / 1978.9e12 * 1e3
    assert compute3 == pytest.approx(16.62, abs=0.01)
    assert drafts[SIZING["step_ms"]] * 2.5 == pytest.approx(kv_ms + compute3, rel=1e-9)
    assert plain[SIZING["step_ms"]] == pytest.approx(kv_ms + compute0, rel=1e-9)
    # per token the drafts cost: (5.51 + 16.62) ÷ 2.5 = 8.85 ms against 9.66 ms plain,
    # a gain of 1 − 8.85 ÷ 9.66 = 8.4 %, not the 2.5 × of dividing the plain step by the
    # tokens a step
    assert 1 - drafts[SIZING["step_ms"]] / plain[SIZING["step_ms"]] == pytest.approx(
        0.084, abs=0.001)


def test_sizing_and_plan_agree_with_drafts(tmp_path):
    # The batch searched ("largest that meets the service level") with drafts: Sizing's
    # realistic step at Plan's batch is Plan's own at its scenario row, and meets the
    # target; one sequence more would not (Plan's column E is the largest).
    args = ("DeepSeek-R1", "NVFP4", "NVIDIA B200 (HGX)", 8, LARGEST, 1000, 2000)
    v = variant(tmp_path, "plan", _scenario(*args, 2.82, 3, "no"))
    sz, plan = v["Sizing"], v["Plan"]
    r = PLAN_SCENARIO_ROW
    batch = plan[f"E{r}"]
    assert batch >= 1 and sz[SIZING["batch"]] == batch
    assert sz[SIZING["real_step_ms"]] == pytest.approx(plan[f"F{r}"], rel=1e-9)
    assert plan[f"F{r}"] <= plan[PLAN["step_target_ms"]]


def test_the_published_mtp_run_through_the_scenario(mtp):
    # TensorRT-LLM's DeepSeek-R1 at batch 1 on 8 B200 with MTP 3 (tech blog 1: 253
    # tokens/s per user, 2.82 tokens a step; trtllm-r1-b200-mtp3 of the measurement set)
    # typed into the scenario: the realistic time per token is within 1.5× of the
    # measured 1000 ÷ 253 = 3.953 ms. The template's floor keeps the checkpoint's BF16
    # attention and head (the set's row takes every weight at NVFP4). Its efficiency is
    # tp8_small_batch's 0.785 (8 GPUs at batch 1, udfs/data/efficiency.csv) and its layers'
    # time (61 + 3) × 65.8 µs ÷ 2.82 (test_each_draft_pass_is_one_more_layer)
    drafts, _ = mtp
    assert drafts[SIZING["calibrated"]] == 0.785
    measured = 1000 / 253
    ratio = drafts[SIZING["real_step_ms"]] / measured
    assert 1 / 1.5 <= ratio <= 1.5, ratio


def test_plan_finds_the_largest_batch_with_drafts(tmp_path):
    # Llama 3.1 8B FP8 on one H100 SXM, 500 + 100 tokens, 3 drafts, 2.82 tokens a step,
    # the batch searched: Plan's batch E meets the 33.33 ms target (30 tokens/s), and the
    # scenario typed at E + 1 does not. Plan's bound O divides the step by the tokens a
    # step yields as the realistic step does (workbook.plan_cells.solve): before, it did
    # not, and the search stopped at O = 819 where batch 820 still met the target
    # (32.57 ms).
    args = ("Llama 3.1 8B", "FP8", "NVIDIA H100 SXM", 1)
    tail = (500, 100, 2.82, 3)
    v = variant(tmp_path, "largest", _scenario(*args, LARGEST, *tail))
    plan, r = v["Plan"], PLAN_SCENARIO_ROW
    batch, target = plan[f"E{r}"], plan[PLAN["step_target_ms"]]
    assert target == pytest.approx(1000 / 30)
    assert plan[f"F{r}"] <= target
    assert batch < plan[f"O{r}"]  # the bound is above the answer, not the answer
    more = sizing_at(_scenario(*args, batch + 1, *tail))
    assert more[SIZING["real_step_ms"]] > target


def test_calibrations_floor_counts_the_drafts(tmp_path):
    # A measurement typed into Calibration (row 16, the first empty one): the same case as
    # the scenario above, TensorRT-LLM's DeepSeek-R1 MTP 3 on 8 B200 at batch 1, 253
    # tokens/s per user, a 3,000-token context, 2.82 tokens a step (AC) and 3 draft tokens
    # (AD). Typed at the scenario's mean context (1,000 + 2,000 ÷ 2 = 2,000 tokens) with
    # prefill elsewhere on Sizing (serving "disaggregated": a Calibration row is a decode
    # step without prefill), its floor of a step (K) is Sizing's step for that case,
    # drafts counted: the step floor per token × 2.82; with AD empty, the plain step. Its
    # efficiency (N) is CALIBRATE of that floor: K ÷ 2.82 ÷ (1000 ÷ 253).
    args = ("DeepSeek-R1", "NVFP4", "NVIDIA B200 (HGX)", 8, 1, 1000, 2000)
    row = {"Calibration!A16": "DeepSeek-R1", "Calibration!B16": "NVFP4",
           "Calibration!C16": "NVIDIA B200 (HGX)", "Calibration!D16": 8,
           "Calibration!E16": 1, "Calibration!F16": 2000, "Calibration!H16": 253,
           "Calibration!AC16": 2.82}
    drafts = variant(tmp_path, "cal3", {**_scenario(*args, 2.82, 3, "no", "disaggregated"),
                                        **row, "Calibration!AD16": 3})
    plain = variant(tmp_path, "cal0", {**_scenario(*args, 1, 0, "no", "disaggregated"),
                                       **row})
    assert drafts["Calibration"]["K16"] == pytest.approx(
        drafts["Sizing"][SIZING["step_ms"]] * 2.82, rel=1e-9)
    assert plain["Calibration"]["K16"] == pytest.approx(
        plain["Sizing"][SIZING["step_ms"]], rel=1e-9)
    assert drafts["Calibration"]["K16"] > plain["Calibration"]["K16"]
    assert drafts["Calibration"]["N16"] == pytest.approx(
        drafts["Calibration"]["K16"] / 2.82 / (1000 / 253), rel=1e-9)
    assert drafts["Calibration"]["O16"] == "plausible"
