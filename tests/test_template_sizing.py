"""The template computed: Sizing, its grids, Roofline, Speedup and Cost against the
reference values and hand calculations, and mixture-of-experts models read as the hardware
reads them."""

from __future__ import annotations

import csv
import math

import openpyxl
import pytest
from template_support import (
    CAL_CASES,
    CAL_STEP,
    CHART_GAPS,
    CONTEXT,
    KV_70B,
    LAYER_US,
    LAYERS_70B_MS,
    MEAN_CONTEXT,
    MIXTRAL_EXPERT,
    MIXTRAL_READ_1,
    ONE_GPU,
    PROMPT,
    READ_8B,
    READ_70B,
    ROOT,
    SHARE,
    SMALL,
    STEP,
    TP,
    comm_ms,
    deployed,
    error_cells,
    floor_ms,
    regime_efficiency,
    sizing,
    variant,
)
from template_values import recompute, sizing_at, template_env

from udfs.inference import tables
from workbook import build
from workbook.build import (
    CAL_FIRST,
    COST,
    COST_FIRST,
    FINANCE,
    MODEL_FIRST,
    MODEL_SPARE,
    SIZING,
)
from workbook.plan import PLAN


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("template")


# ------------------------------------------------------------------------ computed


def test_no_error_values_after_calc(default):
    assert error_cells(default) <= CHART_GAPS
    assert "Roofline!L12" not in error_cells(default)  # the H100 has every roof


def test_the_answer_says_whether_the_service_level_is_met(default):
    # the default scenario (README, test_cli's main job by hand): 1000 ÷ (14.0255 ms ÷
    # 0.471 + 80 layers × 65.8 µs) = 1000 ÷ (29.778 + 5.264) = 1000 ÷ 35.042 = 28.54
    # realistic tokens/s per user at batch 16, short of the 30 its service level asks
    # (layers: config.json; 65.8 µs: udfs/data/layer_time.csv; 0.471: throughput_tp's
    # anchor, udfs/data/efficiency.csv); at batch 8 on the same 2 GPUs (typed: batch 8
    # alone fits one GPU, 70.6 + 8 × 0.754 GB < 80) the efficiency is small_batch's anchor,
    # 0.742 against 0.471, and it meets even 40: 1000 ÷ (12.827 ÷ 0.742 + 5.264) = 1000 ÷
    # (17.287 + 5.264) = 1000 ÷ 22.551 = 44.34
    note = "C" + SIZING["real_tps_user"][1:]
    s = default["Sizing"]
    user = 1000 / (STEP / TP + LAYERS_70B_MS)
    assert user == pytest.approx(28.54, abs=5e-3)
    assert s[SIZING["real_tps_user"]] == pytest.approx(user)
    assert s[SIZING["real_tps_user"]] < s[SIZING["tps_target"]] == 30
    assert s[note] == ("PER_USER_TPS(tokens/s per replica, batch): misses the service level "
                       "of 30 tokens/s per user (Plan: the batch and GPUs that meet it)")
    # (Sizing computed in Python from its formulas with the three inputs typed,
    # template_values.sizing_at: what the engine computes, tests/test_scenario_step.py)
    v = sizing_at({"Sizing!" + SIZING["batch_input"]: 8, "Sizing!" + SIZING["gpus_input"]: 2,
                   "Sizing!" + SIZING["tps_target"]: 40})
    assert v[SIZING["gpus"]] == 2 and v[SIZING["regime_eff"]] == SMALL == 0.742
    # the step floor at batch 8 by hand: KV of 8 sequences at the mean context of 2,150
    # tokens + the weights read at 2 × 3.35 TB/s, + the all-reduces of 8 × (1 + 2,000 ÷
    # 300) tokens, decoded and prefilled
    step8 = floor_ms(70.6, 1, KV_70B * MEAN_CONTEXT * 8 / 1e9, 3.35, 8, 1978.9, 2, SHARE,
                     PROMPT)
    assert step8 == pytest.approx(12.827, abs=5e-4)
    assert v[SIZING["step_ms"]] == pytest.approx(step8)
    user8 = 1000 / (step8 / SMALL + LAYERS_70B_MS)
    assert v[SIZING["real_tps_user"]] == pytest.approx(user8)
    assert user8 == pytest.approx(44.34, abs=5e-3) and user8 >= 40
    assert v[note] == ("PER_USER_TPS(tokens/s per replica, batch): meets the service level "
                       "of 40 tokens/s per user")


def test_empty_figures_say_so_in_words(tmp):
    """The A100 has no FP8 figure: the cell that would hold it says so in words, everything
    else computes, and the Roofline chart still draws the BF16 roofs (only the FP8 line is
    left out, as #N/A chart data in the hidden columns: N the FP8 roof, O the memory roof
    that only a GPU without FLOPS figures draws)."""
    v = variant(tmp, "a100", {"Sizing!" + SIZING["gpu"]: "NVIDIA A100 80GB SXM"})
    assert {e for e in error_cells(v) if e.startswith("Roofline!")} == {
        f"Roofline!{c}{r}" for c in "NO" for r in range(build.ROOF_FIRST, build.ROOF_FIRST + 5)}
    assert error_cells(v) <= CHART_GAPS  # and the frontier's gaps on Cost
    assert v["Roofline"][f"D{build.ROOF_FIRST}"] == "no figure"  # the visible table
    assert v["Sizing"][SIZING["fp8"]] == "no figure" and v["Roofline"]["B6"] == "no figure"
    assert "no figure in the GPU table" in v["Sizing"]["C" + SIZING["fp8"][1:]]
    assert "the BF16 roof still is" in v["Roofline"]["C6"]
    assert v["Sizing"][SIZING["roof_tflops"]] == 312  # falls back to the BF16 roof
    assert sizing(v, "fits_weights") == "yes"
    # the BF16 roof is drawn: 312 TFLOPS flat right of its ridge (312 ÷ 2.039 FLOP/byte)
    assert v["Roofline"][f"B{build.ROOF_FIRST + 4}"] == pytest.approx(312)
    assert v["Roofline"][f"A{build.ROOF_FIRST + 2}"] == pytest.approx(312 / 2.039)


def test_kv_bytes_per_token(default):
    ws = default["Models"]
    got = {ws[f"A{MODEL_FIRST + i}"]: ws[f"P{MODEL_FIRST + i}"]
           for i in range(len(tables.models()))}
    assert got["Llama 3.1 8B"] == 2 * 32 * 8 * 128 * 2  # GQA: 131,072 B
    assert got["Llama 3.1 70B"] == 2 * 80 * 8 * 128 * 2
    assert got["DeepSeek-V3"] == 61 * 576 * 2  # MLA: 70,272 B, not 2 × 61 × 128 × 192 × 2
    for name, v in got.items():
        assert v == pytest.approx(float(tables.model_spec(name, "kv_bytes_per_token")))


def test_gemma4_sliding_layers_hold_their_own_share_of_the_cache(tmp):
    # Gemma 4 31B (text_config: 50 sliding layers of 16 KV heads × 256 over a 1,024-token
    # window, 10 global layers of 4 KV heads × 512) at 2,000 + 300 tokens, BF16: by hand
    # 10 × 2 × 4 × 512 × 2 B × 2,300 + 50 × 2 × 16 × 256 × 2 B × 1,024 = 188,416,000 +
    # 838,860,800 = 1,027,276,800 B per sequence; counting the sliding layers as 50 ÷ 60
    # of the 901,120 B per token would give 1,114 MB
    v = variant(tmp, "gemma4", {"Sizing!" + SIZING["model"]: "Gemma 4 31B",
                                "Sizing!" + SIZING["kv_precision"]: "BF16"})
    want = (10 * 2 * 4 * 512 * 2 * 2300 + 50 * 2 * 16 * 256 * 2 * 1024) / 1e9
    assert sizing(v, "context") == 2300
    assert sizing(v, "kv_seq_gb") == pytest.approx(want)
    assert v["Plan"][PLAN["kv_seq_gb"]] == pytest.approx(want)
    assert v["Models"][f"P{MODEL_FIRST + list(tables.models()).index('Gemma 4 31B')}"] == \
        901120


def test_reference_llama_8b_bf16(llama8b_bf16):
    v = llama8b_bf16
    assert sizing(v, "weight_gb") == pytest.approx(16.06)
    assert sizing(v, "weight_gib") == pytest.approx(14.96, abs=0.01)  # "14.9 GiB"
    # a decode step reads all weights but the input embedding table (one row of it per
    # token): (8.03e9 − 128,256 × 4,096) × 2 B ÷ 3.35 TB/s = 4.480 ms; the reference
    # doc's 4.79 ms counts the whole table (config.json: vocab 128256, hidden 4096, untied)
    assert sizing(v, "floor_ms") == pytest.approx(READ_8B * 2 / 3.35)
    assert sizing(v, "decode_b") == pytest.approx(READ_8B)
    assert sizing(v, "ridge_bf16") == pytest.approx(295, abs=0.5)
    assert sizing(v, "ridge_used") == pytest.approx(295, abs=0.5)  # efficiency 1, BF16 roof
    assert sizing(v, "critical_batch") == pytest.approx(295, abs=0.5)
    assert sizing(v, "fits_weights") == "yes"
    # 8B BF16 KV at 2,300 tokens (prompt + output) × 16 sequences: 131,072 B × 2,300 × 16
    assert sizing(v, "kv_gb") == pytest.approx(131072 * CONTEXT * 16 / 1e9)
    assert sizing(v, "side") == "memory-bound"


def test_reference_70b_bf16_does_not_fit_fp8_does(default, llama70b_bf16):
    assert sizing(llama70b_bf16, "weight_gb") == pytest.approx(141.2)
    assert sizing(llama70b_bf16, "fits_weights") == "no"
    assert sizing(default, "weight_gb") == pytest.approx(70.6)
    assert sizing(default, "fits_weights") == "yes"
    # ... tightly: with 16 sequences of 2,300 tokens (12.06 GB) the KV cache no longer fits
    assert sizing(default, "fits_all") == "no"
    assert sizing(default, "gpus_needed") == 2
    # 70B FP8 on H100 ≈ 21 ms/token: 69.55 GB read (70.6e9 − 128,256 × 8,192) ÷ 3.35 TB/s
    assert sizing(default, "floor_ms") == pytest.approx(READ_70B / 3.35, rel=1e-9)
    assert sizing(default, "ridge_bf16") == pytest.approx(989.4 / 3.35)
    # FP8 weights on the FP8 roof × 0.8: ridge 472.6, critical batch ≈ 236
    assert sizing(default, "critical_batch") == pytest.approx(1978.9 * 0.8 / 3.35 / 2)


def test_sizing_chain_is_consistent(default):
    v = default["Sizing"]
    need = sizing(default, "weight_gb") + sizing(default, "kv_gb")
    assert sizing(default, "need_gb") == pytest.approx(need)
    n = sizing(default, "gpus_needed")
    assert n == math.ceil(need / 80)
    # step (DECODE_STEP_MS): the KV cache at the mean context (2,150 tokens; memory holds
    # 2,300) over n GPUs' bandwidth (above the attention's FLOPs over n roofs: 16 decoded
    # tokens over 2,150, 16 × 2,000 ÷ 300 prompt tokens over 1,000) + the weights read
    # (above 2 × params × 16 × (1 + 2,000 ÷ 300) tokens over n roofs) + the all-reduces of
    # those tokens (Sizing's row)
    tokens = 16 * (1 + SHARE)
    assert sizing(default, "step_tokens") == pytest.approx(tokens)  # 122.67
    assert sizing(default, "mean_context") == MEAN_CONTEXT == 2150
    assert sizing(default, "kv_step_gb") == pytest.approx(KV_70B * MEAN_CONTEXT * 16 / 1e9)
    kv_ms = sizing(default, "kv_step_gb") / (3.35 * n)
    attention_ms = 4 * 80 * 8192 * (MEAN_CONTEXT + SHARE * PROMPT / 2) * 16 / (
        1978.9e12 * n) * 1e3
    assert sizing(default, "attn_flop") == pytest.approx(
        4 * 80 * 8192 * (MEAN_CONTEXT + SHARE * PROMPT / 2) * 16)
    weights_ms = READ_70B / (3.35 * n)
    math_ms = 2 * 70.6e9 * tokens / (1978.9e12 * n) * 1e3
    assert kv_ms > attention_ms and weights_ms > math_ms
    assert sizing(default, "step_ms") == pytest.approx(kv_ms + weights_ms
                                                       + sizing(default, "comm_ms"))
    assert sizing(default, "comm_ms") == pytest.approx(comm_ms(80, 8192, tokens, n))
    total = 1000 / sizing(default, "step_ms") * 16
    assert sizing(default, "tps_total") == pytest.approx(total)
    assert sizing(default, "tps_user") == pytest.approx(total / 16)
    assert sizing(default, "cost_mtok") == pytest.approx(2.95 * n / (total * 3600 * 0.6) * 1e6)
    # FP8: I ≈ 2 × tokens (2 × 70.6e9 × 122.67 FLOP over the 69.55e9 bytes read)
    assert v[SIZING["decode_intensity"]] == pytest.approx(2 * 70.6 * tokens / READ_70B)
    assert sizing(default, "read_b") == pytest.approx(READ_70B)  # dense: batch 1 reads


def test_layers_time_is_added_without_measurements_of_the_gpu(default, tmp):
    """Sizing's layer_ms is LAYER_OVERHEAD_MS by hand: Llama 3.1 70B's 80 layers
    (config.json num_hidden_layers) × 65.8 µs (udfs/data/layer_time.csv) ÷ tokens per
    step; layer_used is it while Calibration has no counted measurement of the scenario's
    GPU (the ratio 1), and it × Calibration's ratio once it has one: the realistic step is
    then the model's estimate × measured ÷ the model's estimate at the measured point.
    Calibration's floor is a decode step at the context typed, no prefill (a measured
    inter-token time); the scenario's step carries prefill and reads the mean context, so
    a measurement of the scenario at its full context gives 30.94 ms, 3.1 % above the
    30 ms measured (the exact point: the next test)."""
    assert sizing(default, "layer_ms") == pytest.approx(80 * LAYER_US / 1000)  # 5.264 ms
    assert sizing(default, "cal_ratio") == 1
    assert sizing(default, "layer_used") == sizing(default, "layer_ms")
    # two tokens a step: the layers' time is shared by both (typed without draft tokens,
    # which Sizing's verified row notes; the division is the same with them,
    # test_speculation checks the drafts' own layers and tokens)
    v = {"Sizing": sizing_at({"Sizing!" + SIZING["tokens_per_step"]: 2})}  # (in Python)
    assert sizing(v, "layer_ms") == pytest.approx(80 * LAYER_US / 1000 / 2)  # 2.632 ms
    assert sizing(v, "layer_used") == pytest.approx(80 * LAYER_US / 1000 / 2)
    assert sizing(v, "real_step_ms") == pytest.approx(STEP / 2 / TP + 80 * LAYER_US / 1000 / 2)
    # a measurement of the scenario itself (70B FP8 on 2 H100, batch 16, 2,300 tokens):
    # 30 ms a token, above its floor CAL_STEP (13.52 ms), so counted. The model's estimate
    # there: CAL_STEP ÷ REGIME_EFFICIENCY(2, 16) (the throughput_tp anchor) + 80 layers'
    # time = 13.52 ÷ 0.471 + 5.264 = 33.97 ms; measured ÷ it = 0.8831
    r = CAL_FIRST + len(CAL_CASES)
    row = ("Llama 3.1 70B", "FP8", "NVIDIA H100 SXM", 2, 16, CONTEXT, 30)
    v = variant(tmp, "measured_h100", {f"Calibration!{c}{r}": x
                                       for c, x in zip("ABCDEFG", row, strict=True)})
    assert v["Calibration"][f"O{r}"] == "plausible"
    estimate = CAL_STEP / TP + LAYERS_70B_MS
    ratio = 30 / estimate
    assert v["Calibration"][f"AE{r}"] == pytest.approx(TP)
    assert v["Calibration"][f"AF{r}"] == pytest.approx(estimate)
    assert v["Calibration"][f"AG{r}"] == v["Calibration"][f"AH{r}"] == pytest.approx(ratio)
    assert ratio == pytest.approx(0.8831, abs=5e-5)
    assert sizing(v, "cal_ratio") == pytest.approx(ratio)
    assert sizing(v, "calibrated") == pytest.approx(TP / ratio)
    assert sizing(v, "layer_ms") == pytest.approx(LAYERS_70B_MS)  # still computed
    assert sizing(v, "layer_used") == pytest.approx(LAYERS_70B_MS * ratio)
    # the scenario's estimate, 14.03 ÷ 0.471 + 5.264 = 35.04 ms, × the ratio
    assert sizing(v, "real_step_ms") == pytest.approx((STEP / TP + LAYERS_70B_MS) * ratio)
    assert sizing(v, "real_step_ms") == pytest.approx(30.94, abs=5e-3)
    # Cost: the H100's row scales its estimate by the same ratio (its layers' time in
    # hidden column AB); a GPU without measurements adds the layers' time as it is
    c = v["Cost"]
    rows = {c[f"A{COST_FIRST + i}"]: COST_FIRST + i for i in range(len(tables.gpus()))}
    h100, h200 = rows["NVIDIA H100 SXM"], rows["NVIDIA H200 SXM"]
    assert c[f"AB{h100}"] == pytest.approx(LAYERS_70B_MS * ratio)
    assert c[f"O{h100}"] == pytest.approx(sizing(v, "real_step_ms"))
    assert c[f"AB{h200}"] == pytest.approx(80 * LAYER_US / 1000)
    assert c[f"O{h200}"] == pytest.approx(c[f"G{h200}"] / c[f"N{h200}"] + 80 * LAYER_US / 1000)


@pytest.mark.parametrize("batch, gpus", [(16, 2), (32, 2), (16, 4)])
def test_a_measurement_holds_where_it_was_measured_and_scales_elsewhere(tmp, batch, gpus):
    """One measurement typed on Calibration (Llama 3.1 70B FP8 on 2 H100 SXM, batch 16,
    the scenario's mean context 2,000 + 300 ÷ 2 = 2,150 tokens, 30 ms a token) and the
    scenario at the same model, with prefill on other GPUs (disaggregated: Sizing's step
    is then the measured decode step): at 2 GPUs and batch 16 Sizing's realistic step is
    the 30 ms measured; at batch 32, or on 4 GPUs, it is the model's estimate there
    (floor ÷ REGIME_EFFICIENCY + the layers' time, by hand) × 30 ÷ the model's estimate
    at the measured point. Floors by hand (``floor_ms``: 2 × 3.35 TB/s, 1,978.9 TFLOPS,
    the all-reduces over NVLink)."""
    r = CAL_FIRST + len(CAL_CASES)
    row = ("Llama 3.1 70B", "FP8", "NVIDIA H100 SXM", 2, 16, MEAN_CONTEXT, 30)
    changes = {f"Calibration!{c}{r}": x for c, x in zip("ABCDEFG", row, strict=True)}
    changes.update({"Sizing!" + SIZING["serving_input"]: "disaggregated",
                    "Sizing!" + SIZING["batch_input"]: batch,
                    "Sizing!" + SIZING["gpus_input"]: gpus})
    v = variant(tmp, f"measured_b{batch}_g{gpus}", changes)

    def estimate(b, g):  # the model's realistic step without measurements, ms a token
        floor = floor_ms(70.6, 1, KV_70B * MEAN_CONTEXT * b / 1e9, 3.35, b, 1978.9, g)
        return floor / regime_efficiency(g, b) + LAYERS_70B_MS

    measured_at = estimate(16, 2)  # 13.40 ÷ 0.471 + 5.264 = 33.72 ms (32: 33.35 ms, 4 GPUs: 19.42)
    assert v["Calibration"][f"AF{r}"] == pytest.approx(measured_at)
    assert sizing(v, "step_ms") == pytest.approx(floor_ms(
        70.6, 1, KV_70B * MEAN_CONTEXT * batch / 1e9, 3.35, batch, 1978.9, gpus))
    expected = estimate(batch, gpus) * 30 / measured_at
    assert sizing(v, "real_step_ms") == pytest.approx(expected)
    if (batch, gpus) == (16, 2):
        assert sizing(v, "real_step_ms") == pytest.approx(30)  # what was measured
    else:  # the model moves it: more sequences or GPUs, another step
        assert abs(sizing(v, "real_step_ms") - 30) > 1


def test_the_per_layer_time_is_an_assumption_the_user_can_change(book):
    """The Assumptions sheet's per-layer time (LAYER_TIME_US, an input) is what Sizing's
    layers' time reads: 65.8 µs by default (udfs/data/layer_time.csv); typed as 100 µs,
    Llama 3.1 70B's 80 layers (config.json) add 80 × 100 µs = 8.0 ms to floor ÷ 0.471; typed
    as 0, the realistic step is floor ÷ efficiency alone, as before the layers' time.
    Computed in Python from Sizing's formulas in the committed template (``recompute``:
    the layers' time, the time used, the realistic step), which with nothing typed give
    the values napkin's engine computed there; Calibration's ratio stays 1 (no row of it
    counts by default: test_layers_time_is_added_without_measurements_of_the_gpu)."""
    sheet, cell = book.defined_names["LAYER_TIME_US"].attr_text.replace("$", "").split("!")
    sheet = sheet.strip("'")
    assert book[sheet][cell].value == LAYER_US == 65.8
    assert book[sheet][cell].style == "napkin input"
    env = template_env("Sizing")
    assert env.cells[SIZING["cal_ratio"]] == 1
    chain = [SIZING[k] for k in ("layer_ms", "layer_used", "real_step_ms")]
    untouched = recompute(env, "Sizing", {}, chain).cells
    for c in chain:
        assert untouched[c] == pytest.approx(env.cells[c], rel=1e-12), c
    for typed, layers_ms in ((100, 8.0), (0, 0.0)):
        v = recompute(env, "Sizing", {f"{sheet}!{cell}": typed}, chain).cells
        assert v[SIZING["layer_ms"]] == pytest.approx(layers_ms)
        assert v[SIZING["layer_used"]] == pytest.approx(layers_ms)
        assert v[SIZING["real_step_ms"]] == pytest.approx(STEP / TP + layers_ms)


def test_sizing_grids(llama70b_bf16):
    v = llama70b_bf16["Sizing"]
    head = build.GRID_TOP + 1
    gpus = [v[f"{openpyxl.utils.get_column_letter(3 + j)}{head}"]
            for j in range(len(tables.gpus()))]
    models = [r["name"] for r in tables.models().values()]
    row = head + 2 + models.index("Llama 3.1 70B")
    col = openpyxl.utils.get_column_letter(3 + gpus.index("NVIDIA H100 SXM"))
    b200 = openpyxl.utils.get_column_letter(3 + gpus.index("NVIDIA B200 (HGX)"))
    assert v[f"{col}{row}"] == "no" and v[f"{b200}{row}"] == "yes"
    floor_top = head + 2 + len(models) + MODEL_SPARE + 3  # the second grid's header row
    assert v[f"{col}{floor_top + 2 + models.index('Llama 3.1 8B')}"] == \
        pytest.approx(READ_8B * 2 / 3.35)


def test_roofline_reference_kernels(default):
    v = default["Roofline"]
    k = {v[f"A{r}"]: r for r in range(build.KERNEL_FIRST, build.KERNEL_FIRST + 6)}
    y2 = k["y = x × 2 (BF16)"]
    assert v[f"E{y2}"] == pytest.approx(0.25)
    assert v[f"F{y2}"] == pytest.approx(0.8375)  # ≤ 0.84 TFLOPS
    assert v[f"G{y2}"] == pytest.approx(20, abs=0.1)  # ≈ 20 µs of bytes
    assert v[f"E{k['decode GEMM, batch 1']}"] == pytest.approx(1)
    assert v[f"F{k['decode GEMM, batch 1']}"] == pytest.approx(3.35)
    assert v[f"H{k['decode GEMM, batch 64']}"] == "memory-bound"
    assert v[f"E{k['decode GEMM, batch 295']}"] == pytest.approx(295)
    mm = k["matmul 4096³ (BF16)"]
    assert v[f"E{mm}"] == pytest.approx(1365.33, abs=0.01)
    assert v[f"H{mm}"] == "compute-bound"
    assert v[f"H{k['softmax (BF16)']}"] == "memory-bound"
    roofs = {v[f"E{r}"]: r for r in range(build.ROOF_FIRST, build.ROOF_FIRST + 5)}
    assert v[f"A{roofs['ridge, BF16 × efficiency']}"] == pytest.approx(236.3, abs=0.1)
    assert v[f"A{roofs['ridge, FP8']}"] == pytest.approx(590.7, abs=0.1)
    assert v[f"B{roofs['right edge']}"] == pytest.approx(989.4)


def test_speedup_reference_examples(default):
    v = default["Speedup"]
    got = [v[f"D{r}"] for r in range(build.SPEEDUP_TOP + 2, build.SPEEDUP_TOP + 7)]
    assert got == pytest.approx([20 / 15, 1.25, 1 / 0.75, 1.25, 1 / 0.7])
    p30 = build.GRID_HEAD + 1 + build.AMDAHL_P.index(0.3)
    s3 = openpyxl.utils.get_column_letter(2 + build.AMDAHL_S.index(3))
    assert v[f"{s3}{p30}"] == pytest.approx(1.25)
    assert v[f"H{p30}"] == pytest.approx(1 / 0.7)


def test_cost_sheet_against_hand_calculation(default):
    """Every GPU row of the Cost sheet, recomputed by hand from the tables: the floors
    (B..M), then the realistic columns (N..S: floor ÷ the efficiency used + the layers'
    time, hidden column AB: no GPU has counted measurements on Calibration by default)."""
    v = default["Cost"]
    params, batch = 70.6e9, 16
    kv = 2 * 80 * 8 * 128 * 2 * CONTEXT * batch / 1e9  # BF16 KV cache, GB (memory: full)
    kv_read = kv * MEAN_CONTEXT / CONTEXT  # what a step reads: the mean context
    tokens = batch * (1 + SHARE)  # decoded and prefilled (aggregated serving)
    need = params / 1e9 + kv  # FP8 weights: 1 byte per parameter
    avg = 100e6 / 86400
    peak = avg * 2
    prices = {r["name"]: float(r["price_per_gpu_hour_usd"])
              for r in csv.DictReader(open(ROOT / "workbook" / "data" / "gpu_prices.csv"))
              if r["price_per_gpu_hour_usd"].strip()}
    assert v[COST["month_tokens"]] == pytest.approx(avg * 3600 * 730.5)
    checked = 0
    for i, g in enumerate(tables.gpus().values()):
        r = COST_FIRST + i
        assert v[f"A{r}"] == g["name"]
        n = deployed(math.ceil(need / float(g["memory_GB"])))
        assert v[f"F{r}"] == n
        bw = float(g["memory_bandwidth_TBps"]) * n
        roof = g["fp8_dense_TFLOPS"] or g["bf16_dense_TFLOPS"]
        # the step: KV at the mean context (one copy: 8 KV heads, at most 8 GPUs) + weights
        # read (no embedding table), each above its math (the attention's 4 L d T B FLOPs
        # of the decoded tokens over the mean context and the prefilled ones over half the
        # prompt, the weights' 2 N × tokens) where the GPU has a roof, + the all-reduces of
        # the tokens: NVLink's latencies with the table's interconnect figure (half of it
        # one way), PCIe's (1.0 µs a ring step) at PCIe 5.0 x16's 63 GB/s without one
        kv_ms, weights_ms = kv_read / bw, READ_70B / bw
        if roof:
            kv_ms = max(kv_ms, 4 * 80 * 8192 * (MEAN_CONTEXT + SHARE * PROMPT / 2) * batch
                        / (float(roof) * 1e12 * n) * 1e3)
            weights_ms = max(weights_ms,
                             2 * params * tokens / (float(roof) * 1e12 * n) * 1e3)
        link = g["interconnect_GBps"]
        comm = (comm_ms(80, 8192, tokens, n, float(link) / 2) if link else
                comm_ms(80, 8192, tokens, n, 63, hop_us=1.0))
        step = kv_ms + weights_ms + comm
        assert v[f"G{r}"] == pytest.approx(step), g["name"]
        # no measurement: REGIME_EFFICIENCY at n GPUs and 16 sequences (docs/math.md): one
        # GPU 0.742 + (0.409 − 0.742) × ln(16/8) ÷ ln(25/8) (25 the smallest batch of
        # throughput_one_gpu's rows), 2 or more throughput_tp's 0.471 (16 is the smallest
        # batch of its rows)
        eff = regime_efficiency(n, batch)
        if n == 1:
            assert eff == pytest.approx(0.742 + (0.409 - 0.742) * math.log(16 / 8)
                                        / math.log(25 / 8))
            assert eff == pytest.approx(SMALL + (ONE_GPU - SMALL) * math.log(2)
                                        / math.log(25 / 8))
        else:
            assert eff == pytest.approx(0.471) and eff == TP
        tps = 1000 / step * batch
        assert v[f"H{r}"] == pytest.approx(tps)
        replicas = math.ceil(peak / (tps * 0.6))
        assert v[f"J{r}"] == replicas * n
        # realistic: the step ÷ efficiency + the layers' time (Llama 3.1 70B's 80 layers,
        # config.json, × 65.8 µs, udfs/data/layer_time.csv: 5.264 ms; no GPU has counted
        # Calibration rows), GPUs sized again for the slower rate
        assert v[f"N{r}"] == pytest.approx(eff)
        assert v[f"AB{r}"] == pytest.approx(80 * LAYER_US / 1000)
        real = step / eff + LAYERS_70B_MS
        assert v[f"O{r}"] == pytest.approx(real)
        real_replicas = math.ceil(peak / (1000 / real * batch * 0.6))
        assert v[f"P{r}"] == real_replicas * n
        if g["name"] in prices:
            price = prices[g["name"]]
            # 730.5 h = 8,766 h ÷ 12 (the Assumptions default, as MONTHLY_COST)
            monthly = replicas * n * price * 730.5
            assert v[f"K{r}"] == pytest.approx(monthly)
            # cost per million tokens = the month's bill ÷ the month's tokens
            assert v[f"L{r}"] == pytest.approx(monthly / (avg * 3600 * 730.5) * 1e6)
            assert v[f"M{r}"] == pytest.approx(price * n / (tps * 3600 * 0.6) * 1e6)
            real_monthly = real_replicas * n * price * 730.5
            assert v[f"Q{r}"] == pytest.approx(real_monthly)
            assert v[f"R{r}"] == pytest.approx(real_monthly / (avg * 3600 * 730.5) * 1e6)
            assert v[f"R{r}"] >= v[f"L{r}"]  # slower than the floor: never cheaper
            # if every GPU were busy: one replica at the realistic rate, at planned
            # utilization (a unit cost, not the bill: R is the headline)
            assert v[f"S{r}"] == pytest.approx(price * n / (1000 / real * batch * 3600 * 0.6)
                                               * 1e6)
            checked += 1
        else:  # no price: the cells say so instead of an error
            assert v[f"B{r}"] == "no price" and v[f"L{r}"] == "no price"
            assert v[f"Q{r}"] == "no price" and v[f"R{r}"] == "no price"
            assert v[f"S{r}"] == "no price" and "no price" in v[f"T{r}"]
        if not roof:
            assert "no FLOPS figure" in v[f"T{r}"]
    assert checked == len(set(prices) & set(tables.gpus())) >= 3
    assert v[COST["peak_tps"]] == pytest.approx(peak)
    # empty slots (the spare rows of the GPUs table) stay blank
    spare = COST_FIRST + len(tables.gpus())
    assert all(v.get(f"{c}{spare}") in (None, "") for c in "ABFGST")
    # the scenario's GPU: its headline is the scenario's, its unit cost at the planned
    # utilization Sizing's
    h100 = COST_FIRST + list(tables.gpus()).index("NVIDIA H100 SXM")
    assert v[f"R{h100}"] == pytest.approx(sizing(default, "headline"))
    assert v[f"S{h100}"] == pytest.approx(sizing(default, "real_cost_mtok"))


# ------------------------------------------------------------------------ MoE

def test_moe_sizing_reads_what_the_hardware_reads(moe):
    """DeepSeek-V3 in FP8 on H200s (config.json: 61 layers, 58 of them MoE with 256 routed
    experts, 8 per token, moe_intermediate_size 2048, hidden 7168, 128 heads, q/k head dim
    192, vocab 129280, untied; counted from it: 671.0264B total, 37.5523B active; the
    checkpoint's quantization_config: FP8, the embedding and LM head in BF16): memory holds
    all of them, a decode step reads the active ones without the embedding at batch 1 and
    more distinct experts at batch 16, prefill computes with the active ones."""
    v = moe
    table = 129280 * 7168  # the embedding table, and the LM head as large: kept in BF16
    # FP8: 1 byte per weight, 2 for the embedding and the head
    assert sizing(v, "weight_gb") == pytest.approx((671.0264192e9 + 2 * table) / 1e9)
    assert sizing(v, "active_b") == pytest.approx(37.5523)
    decode = 37.5523 - table / 1e9  # 36.626 B: no input embedding table
    # the step reads the BF16 head: one byte more for each of its weights
    assert sizing(v, "decode_b") == pytest.approx(decode)
    assert sizing(v, "floor_ms") == pytest.approx((decode + table / 1e9) / 4.8)  # H200
    expert = 58 * 3 * 7168 * 2048 / 1e9  # one routed expert over the 58 MoE layers: 2.554 B
    experts_read = 256 * (1 - (1 - 8 / 256) ** 16)  # 102.0 of 256 at batch 16
    read = decode + expert * (experts_read - 8)  # 276.8 B of the 671 B
    assert sizing(v, "read_b") == pytest.approx(read)
    n = sizing(v, "gpus")  # 8 H200 (5 needed: 672.9 GB + KV over 141 GB each)
    assert n == 8
    # the step over the 8 GPUs, expert parallel (one copy of the KV cache, no
    # all-reduce), prefill sharing them: 16 × (1 + 2,000 ÷ 300) = 122.67 tokens computed.
    # The KV cache read at the mean context, 16 × 70,272 B (MLA, BF16) × 2,150 = 2.417 GB
    # ÷ 38.4 TB/s = 0.063 ms, is below the attention's products, 4 × 61 × (128 × 544) ×
    # (2,150 + 6.667 × 1,000) × 16 = 2.397e12 FLOP ÷ (8 × 1,978.9 TFLOPS) = 0.151 ms; the
    # weights read (with the BF16 head, one byte more a weight) above their math, 2 ×
    # 37.55e9 × 122.67 ÷ (8 × 1,978.9 TFLOPS) = 0.582 ms
    kv_read = 16 * 61 * 576 * 2 * 2150 / 1e9
    assert sizing(v, "kv_step_gb") == pytest.approx(kv_read)
    attention = 4 * 61 * 128 * 544 * (2150 + 2000 / 300 * 1000) * 16 / (1978.9e12 * n) * 1e3
    weights = (read + table / 1e9) / (4.8 * n)  # GB ÷ TB/s = ms
    math_ = 2 * 37.5523e9 * 16 * (1 + 2000 / 300) / (1978.9e12 * n) * 1e3  # H200 FP8 dense
    assert attention > kv_read / (4.8 * n) and weights > math_
    assert sizing(v, "step_ms") == pytest.approx(attention + weights)
    # prefill of the default 2,000-token prompt: 2 × 37.55e9 × T with the active weights
    # plus the causal attention 2 × L × heads × head_dim × T² (kipply, "Transformer
    # inference arithmetic"; the JAX scaling book), on NVIDIA's H200 FP8 dense figure
    # (1,978.9 TFLOPS, half the sparse 3,958) × 0.8 efficiency × 8 GPUs: 12.7 ms.
    # The template showed 339 ms before: all 671B on the 5 GPUs it counted then.
    flop = 2 * 37.5523e9 * 2000 + 2 * 61 * 128 * 192 * 2000**2
    prefill = flop / (1978.9e12 * 0.8 * n) * 1e3
    assert 12 < prefill < 13.5  # ms; the active weights alone on the 5 GPUs needed: 19 ms
    # but the first token is bound by what the prefill moves (workbook.model.prefill): the
    # 2,000 tokens pick all but 256 × (1 − 8/256)^2,000 ≈ 1e-25 of the experts, so the
    # weights read are nearly all 671 B (the BF16 head one byte more a weight), + the keys
    # and values written, 2,000 × 70,272 B (MLA, BF16): 671.1 GB ÷ 38.4 TB/s = 17.48 ms,
    # ÷ 0.8 = 21.85 ms; expert parallel, no all-reduce; + 61 layers × 65.8 µs
    # (udfs/data/layer_time.csv) = 25.86 ms
    picked = 256 * (1 - (1 - 8 / 256) ** 2000)
    moved = decode + expert * (picked - 8) + table / 1e9 + 2000 * 61 * 576 * 2 / 1e9
    first = max(prefill, moved / (4.8 * n) / 0.8) + 61 * 65.8 / 1000
    assert moved / (4.8 * n) / 0.8 > prefill
    assert v["Finance"][FINANCE["prefill_ms"]] == pytest.approx(first)
    assert round(first, 2) == 25.86
    models = {v["Models"][f"A{MODEL_FIRST + i}"]: MODEL_FIRST + i
              for i in range(len(tables.models()))}
    assert v["Models"][f"V{models['DeepSeek-V3']}"] == pytest.approx(decode)
    assert v["Models"][f"W{models['DeepSeek-V3']}"] == pytest.approx(expert)
    assert v["Models"][f"V{models['Llama 3.1 8B']}"] == pytest.approx(READ_8B)
    assert v["Models"][f"W{models['Llama 3.1 8B']}"] == 0


def test_moe_calibration_reads_more_experts_at_a_larger_batch(moe):
    """Mixtral 8x7B: at batch 1 a step reads 2 of the 8 experts per layer (the active
    12.88B without the embedding), at batch 256 nearly all 8 (all 46.70B but the embedding:
    8 × (1 − (6/8)^256) = 8.000 experts); the floor and MBU follow the weights read."""
    v = moe["Calibration"]
    r1 = CAL_FIRST + len(CAL_CASES) + 1
    assert v[f"V{r1}"] == pytest.approx(MIXTRAL_READ_1)  # 12.749 B
    experts = (v[f"V{r1}"] - MIXTRAL_READ_1) / MIXTRAL_EXPERT + 2
    assert experts == pytest.approx(2)
    kv1 = 2 * 32 * 8 * 128 * 2 * 2048 / 1e9  # BF16, 2,048 tokens, 1 sequence: 0.268 GB
    assert v[f"J{r1}"] == pytest.approx(MIXTRAL_READ_1 * 2 + kv1)
    assert v[f"K{r1}"] == pytest.approx((MIXTRAL_READ_1 * 2 + kv1) / 3.35)  # 7.69 ms
    r2 = r1 + 1
    assert v[f"V{r2}"] == pytest.approx(46.7028 - 32000 * 4096 / 1e9, rel=2e-3)  # ≈ 46.57 B
    experts = (v[f"V{r2}"] - MIXTRAL_READ_1) / MIXTRAL_EXPERT + 2
    assert experts == pytest.approx(8 * (1 - 0.75**256)) and experts > 7.999
    kv2 = 2 * 32 * 8 * 128 * 2 * 2048 * 256 / 1e9
    mem = (v[f"V{r2}"] * 2 + kv2) / (3.35 * 2)
    math_ = 2 * 12.8799e9 * 256 / (989.4e12 * 0.8 * 2) * 1e3  # BF16 roof, active parameters
    assert v[f"K{r2}"] == pytest.approx(max(mem, math_))
