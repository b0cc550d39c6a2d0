"""The Sizing step against deployments: a tensor-parallel degree of 8 at batch 1, where
the all-reduces' latency dominates, and published measurements
(``data/serving_measurements.csv``) run through the template's defined names.

Each case is a copy of the template with the scenario's inputs (``SCENARIO_*``) typed in,
computed by ``napkin calc`` (as ``test_scenario.py`` does) where a test reads other sheets
than Sizing; where it reads Sizing alone, Sizing's formulas are computed in Python with the
same inputs typed (``template_values.sheet_at``, milliseconds a case), which
``test_sizing_in_python_is_the_engines_for_a_published_deployment`` holds to the engine's.
"""

from __future__ import annotations

import math

import openpyxl
import pytest
from scenario_support import agree
from serving_floor import floor, measured_ms, rows
from template_support import variant
from template_values import sheet_at

from workbook.scenario import SCENARIO_NAMES
from workbook.sizing import GRID_TOP, SIZING

S = {name: "Sizing!" + SIZING[key] for name, key in SCENARIO_NAMES.items()}
#: Measurements with a stated batch, tensor parallel (no expert parallelism), no
#: speculation: the regimes of one GPU and of tensor parallel, small and large batches,
#: on NVIDIA and AMD GPUs (each row's source: tests/data/serving_measurements.csv).
CASES = ["vllm-8b-a100-c1", "nim-70b-tp2-c1-long", "nim-70b-tp2-c1-short", "nim-70b-tp2-c5",
         "nim-70b-tp2-c25", "nim-70b-tp2-c50", "vllm-ci-8b-a100-tp1-b8",
         "vllm-ci-70b-h200-tp4-b8", "trtllm09-mistral7b-h100-tp1-b56",
         "amd-70b-mi300x-tp8-b1", "amd-405b-mi300x-tp8-b16", "amd-70b-mi300x-tp8-b64"]
#: The layers of each case's model (config.json, num_hidden_layers): the layers' time a
#: realistic step adds counts them
LAYERS = {"Llama 3.1 8B": 32, "Llama 3.3 70B": 80, "Llama 3.1 70B": 80, "Llama 3.1 405B": 126,
          "Mistral 7B v0.3": 32}


def _names(path):
    """The copy at ``path`` as openpyxl reads it in read-only mode: its defined names,
    all ``agree`` reads of a workbook (its cells are read from the computed values)."""
    wb = openpyxl.load_workbook(path, read_only=True)
    wb.close()
    return wb


def _scenario(model, precision, kv_precision, gpu, gpus, batch, prompt, output,
              tokens_per_step=1, expert_parallel="auto"):
    return {S["SCENARIO_EXPERT_PARALLEL"]: expert_parallel, S["SCENARIO_MODEL"]: model,
            S["SCENARIO_PRECISION"]: precision,
            S["SCENARIO_KV_PRECISION"]: kv_precision, S["SCENARIO_GPU"]: gpu,
            S["SCENARIO_GPUS_PER_REPLICA"]: gpus, S["SCENARIO_BATCH"]: batch,
            S["SCENARIO_PROMPT_TOKENS"]: prompt, S["SCENARIO_OUTPUT_TOKENS"]: output,
            S["SCENARIO_TOKENS_PER_STEP"]: tokens_per_step}


def test_tensor_parallel_8_at_batch_1_pays_the_all_reduces():
    # Llama 3.1 8B in BF16 on 8 H100 at batch 1, 1,000 + 24 tokens, prefill sharing the
    # GPUs: each step computes 1 + 1,000 ÷ 24 = 42.67 tokens. By hand:
    # all-reduces: 2 per layer × 32 layers × (NCCL base 6.6 µs + 2 × 7 ring steps × 0.6 µs
    # over NVLink (NCCL src/graph/tuning.cc) + 2 × 7/8 × 42.67 × 4,096 × 2 B ÷ 450 GB/s one
    # way (half of the H100's 900 GB/s) = 1.359 µs) = 64 × 16.359 µs = 1.047 ms;
    # weights: (8.03 − 128,256 × 4,096 / 1e9 = 7.505) B × 2 B = 15.01 GB ÷ (8 × 3.35 TB/s)
    # = 0.560 ms: the all-reduces are the larger part of the step.
    v = sheet_at("Sizing", SIZING_ROWS, _scenario("Llama 3.1 8B", "BF16", "BF16",
                                                  "NVIDIA H100 SXM", 8, 1, 1000, 24))
    tokens = 1 + 1000 / 24
    comm = 64 * (6.6 + 14 * 0.6 + 2 * 7 / 8 * tokens * 4096 * 2 / 450e9 * 1e6) / 1e3
    assert v[SIZING["comm_ms"]] == pytest.approx(comm)
    weights_ms = (8.03 - 128256 * 4096 / 1e9) * 2 / (8 * 3.35)
    assert v[SIZING["comm_ms"]] > weights_ms
    assert v[SIZING["step_ms"]] > comm + weights_ms  # + the KV cache's read
    # 8 GPUs at batch 1: inside tp8_small_batch's range, its anchor, the geometric mean of
    # its 10 rows' floor ÷ (measured − layers × 65.8 µs a step ÷ tokens per step), the floor
    # of a speculating row that of batch × (draft tokens + 1) tokens and its layers the
    # model's + one a draft pass (serving_floor.floor's f.layers: DeepSeek-R1 61, 62 with
    # MTP 1, 64 with MTP 3; Llama 4 Maverick 48 + 3 Eagle3 drafts = 51): from 0.387
    # (trtllm-r1-b200-mtp3) to 2.855 (trtllm-maverick-b200-eagle3), 0.785
    # (udfs/data/efficiency.csv, layer_time.csv)
    effs, layers = {}, {}
    for r in rows():
        if r["regime"] == "tp8_small_batch":
            f = floor(r)
            effs[r["id"]] = f.token_ms / (f.measured_ms - f.layers * 65.8e-3 / f.tokens_per_step)
            layers[r["id"]] = f.layers
    assert len(effs) == 10
    assert [layers[k] for k in ("trtllm-r1-b200-nomtp", "trtllm-r1-b200-mtp1",
                                "trtllm-r1-b200-mtp3", "trtllm-maverick-b200-eagle3")] == [
        61, 62, 64, 51]
    assert min(effs, key=effs.get) == "trtllm-r1-b200-mtp3"
    assert max(effs, key=effs.get) == "trtllm-maverick-b200-eagle3"
    assert (min(effs.values()), max(effs.values())) == pytest.approx((0.387, 2.855),
                                                                     abs=5e-4)
    mean = math.exp(sum(math.log(e) for e in effs.values()) / len(effs))
    assert v[SIZING["calibrated"]] == round(mean, 3) == 0.785
    # the realistic step: floor ÷ 0.785 + the layers' time, 32 layers (config.json) × 65.8
    # µs = 2.1056 ms, one token a step and no draft (no Calibration rows for the H100 here)
    assert v[SIZING["layer_ms"]] == pytest.approx(32 * 65.8 / 1000, rel=1e-12)
    assert v[SIZING["layer_used"]] == v[SIZING["layer_ms"]]
    assert v[SIZING["real_step_ms"]] == pytest.approx(v[SIZING["step_ms"]] / 0.785
                                                      + 32 * 65.8 / 1000)


def test_expert_parallel_no_serves_an_moe_model_tensor_parallel():
    # Qwen3 235B-A22B in FP8 on 8 H100 at batch 1, 1,000 + 24 tokens, prefill sharing the
    # GPUs (1 + 1,000 ÷ 24 = 42.67 tokens a step). "auto": expert parallel here, the faster
    # layout (attention data parallel, no all-reduce, one copy of the KV cache), regime
    # moe_expert_parallel; "no": tensor parallel, 2 all-reduces a layer × 94 layers
    # (config) × (NCCL base 6.6 µs + 2 × 7 ring steps × 0.6 µs over NVLink + 2 × 7/8 ×
    # 42.67 tokens × hidden 4,096 × 2 B ÷ 450 GB/s one way), regime tp8_small_batch, and
    # its 4 KV heads (config.json) on 8 GPUs: each held by 2, the KV cache read twice
    from udfs.inference.regimes import efficiency_of

    base = _scenario("Qwen3 235B-A22B", "FP8", "BF16", "NVIDIA H100 SXM", 8, 1, 1000, 24)
    auto = sheet_at("Sizing", SIZING_ROWS, base)
    no = sheet_at("Sizing", SIZING_ROWS, {**base, S["SCENARIO_EXPERT_PARALLEL"]: "no"})
    assert auto[SIZING["expert_parallel"]] == 1 and auto[SIZING["comm_ms"]] == 0
    assert auto[SIZING["ep_step_ms"]] < auto[SIZING["tp_step_ms"]]
    assert auto[SIZING["regime_eff"]] == efficiency_of("moe_expert_parallel")
    tokens = 1 + 1000 / 24
    comm = 2 * 94 * (6.6 + 14 * 0.6 + 2 * 7 / 8 * tokens * 4096 * 2 / 450e9 * 1e6) / 1e3
    assert no[SIZING["expert_parallel"]] == 0
    assert no[SIZING["comm_ms"]] == pytest.approx(comm)
    assert no[SIZING["regime_eff"]] == efficiency_of("tp8_small_batch")
    # one sequence's KV cache at the mean context, 1,000 + 12 tokens × 2 × 94 × 4 × 128 ×
    # 2 B (BF16) = 0.1948 GB, read once "auto", twice "no"; above the attention's
    # products either way, 4 × 94 × (64 × 128) × (1,012 + 41.67 × 500) ÷ (8 × 1,978.9
    # TFLOPS) = 0.0043 ms against 0.1948 GB ÷ (8 × 3.35 TB/s) = 0.0073 ms
    kv_ms = 2 * 94 * 4 * 128 * 2 * 1012 / 1e9 / (8 * 3.35)
    assert 4 * 94 * 64 * 128 * (1012 + 1000 / 24 * 500) / (8 * 1978.9e12) * 1e3 < kv_ms
    assert auto[SIZING["kv_step_gb"]] * 2 == pytest.approx(no[SIZING["kv_step_gb"]])
    # the step floor gains the all-reduces and the second read of the KV cache, the rest
    # of the step unchanged
    assert no[SIZING["step_ms"]] == pytest.approx(auto[SIZING["step_ms"]] + comm + kv_ms)


def test_auto_serves_the_faster_layout(tmp_path):
    # DeepSeek-R1 in FP8 on 8 H200, 2,000 + 300 tokens, prefill sharing the GPUs. Each
    # layout's realistic step (without the per-layer time, the same in both) is its floor ÷
    # its regime's efficiency: expert parallel, no all-reduce and one copy of the latent
    # cache, ÷ moe_expert_parallel's anchor; tensor parallel, the all-reduces and the latent
    # cache whole on each of the 8 GPUs (MLA: one KV head), ÷ the tensor-parallel regime's.
    # At batch 16 the weights dominate both floors, and 0.239 against 0.471 makes tensor
    # parallel the faster; at batch 1,024 the 8 copies of a KV cache of 1,024 sequences
    # and the all-reduces of 1,024 × 7.67 tokens a step outweigh it: expert parallel.
    from udfs.inference.regimes import efficiency_of

    def case(batch, choice):
        return _scenario("DeepSeek-R1", "FP8", "BF16", "NVIDIA H200 SXM", 8, batch, 2000, 300,
                         expert_parallel=choice)

    every = variant(tmp_path, "r1-16-auto", case(16, "auto"))
    # every sheet serves the layout Sizing chose: Cost's H200 row, Finance, Plan's figures
    agree(every, _names(tmp_path / "r1-16-auto.xlsx"))
    auto, no = every["Sizing"], sheet_at("Sizing", SIZING_ROWS, case(16, "no"))
    assert auto[SIZING["auto_ep"]] == 0 == auto[SIZING["expert_parallel"]]
    # the tensor-parallel layout's step is the one "no" computes: its floor ÷ its efficiency
    assert auto[SIZING["tp_step_ms"]] == pytest.approx(no[SIZING["step_ms"]]
                                                       / no[SIZING["regime_eff"]])
    assert auto[SIZING["ep_step_ms"]] > auto[SIZING["tp_step_ms"]]
    assert auto[SIZING["real_step_ms"]] == pytest.approx(no[SIZING["real_step_ms"]])
    assert auto[SIZING["regime_eff"]] == efficiency_of("throughput_tp")
    big = sheet_at("Sizing", SIZING_ROWS, case(1024, "auto"))
    assert big[SIZING["auto_ep"]] == 1 == big[SIZING["expert_parallel"]]
    assert big[SIZING["ep_step_ms"]] < big[SIZING["tp_step_ms"]]
    assert big[SIZING["comm_ms"]] == 0
    assert big[SIZING["regime_eff"]] == efficiency_of("moe_expert_parallel")
    # the expert-parallel step it serves: its floor ÷ moe_expert_parallel's anchor
    assert big[SIZING["ep_step_ms"]] == pytest.approx(
        big[SIZING["step_ms"]] / efficiency_of("moe_expert_parallel"))


def test_pcie_cards_offer_no_layout_past_one_server(tmp_path):
    # Llama 3.1 405B in FP8 on GeForce RTX 4090s (24 GB, no NVLink: the GPUs sheet has no
    # interconnect figure): 405 GB of weights + the KV cache over 24 GB × 0.9 need 19+
    # GPUs, deployed as 24 in tensor parallel, three 8-GPU servers' worth over PCIe: no
    # layout that runs, on Sizing and on Cost's row, and the Cost chart leaves it out
    from workbook.cost import COST_FIRST
    from workbook.model.step import NO_LAYOUT

    base = _scenario("Llama 3.1 405B", "FP8", "BF16", "NVIDIA GeForce RTX 4090", "", 16,
                     2000, 300)
    v = variant(tmp_path, "405b-4090", base)
    assert v["Sizing"][SIZING["gpus"]] == 24
    assert v["Sizing"][SIZING["headline"]].startswith(NO_LAYOUT)
    cost = v["Cost"]
    row = next(COST_FIRST + i for i in range(60)
               if cost.get(f"A{COST_FIRST + i}") == "NVIDIA GeForce RTX 4090")
    assert cost[f"F{row}"] == 24 and cost[f"R{row}"] == NO_LAYOUT
    assert NO_LAYOUT in cost[f"T{row}"]
    assert "NVIDIA GeForce RTX 4090" not in {cost.get(f"W{COST_FIRST + i}") for i in range(60)}
    # Finance's low and high cost say it as the base does (no cost of a layout that does
    # not run)
    from workbook.finance import FINANCE
    fin, r = v["Finance"], FINANCE["cost_range"]
    assert fin[f"B{r}"] == fin[f"C{r}"] == fin[f"D{r}"] == v["Sizing"][SIZING["headline"]]
    # three pipeline stages of 8: each stage one server, the layout runs, every sheet agrees
    staged = variant(tmp_path, "405b-4090-pp3",
                     {**base, S["SCENARIO_PIPELINE_STAGES"]: 3})
    assert staged["Sizing"][SIZING["stage_gpus"]] == 8
    agree(staged, _names(tmp_path / "405b-4090-pp3.xlsx"))


def _cost_row(cost: dict, gpu: str) -> int:
    """The Cost row of ``gpu``."""
    from workbook.cost import COST_FIRST
    return next(COST_FIRST + i for i in range(60) if cost.get(f"A{COST_FIRST + i}") == gpu)


def test_a_stage_past_the_nvlink_domain_pays_the_network(tmp_path):
    # Llama 3.1 70B in BF16 on 16 H100 SXM in one tensor-parallel stage, batch 1, 1,000 +
    # 24 tokens (prefill sharing the GPUs: 1 + 1,000 ÷ 24 tokens a step). An HGX H100
    # board joins 8 by NVLink (GPUs sheet, column R): the stage's all-reduces cross the
    # network, 400 Gb/s InfiniBand a GPU = 0.05 TB/s one way, at NCCL's NET latency of
    # 2.7 µs a ring step (src/graph/tuning.cc): 2 × 80 layers × (6.6 + 2 × 15 × 2.7 µs +
    # 2 × 15/16 × 42.67 × 8,192 × 2 B ÷ 50 GB/s = 26.21 µs) = 160 × 113.81 µs = 18.21 ms
    name = "test-16-h100"
    v = variant(tmp_path, name, _scenario("Llama 3.1 70B", "BF16", "BF16",
                                          "NVIDIA H100 SXM", 16, 1, 1000, 24))
    sizing = v["Sizing"]
    tokens = 1 + 1000 / 24
    comm = 160 * (6.6 + 30 * 2.7 + 2 * 15 / 16 * tokens * 8192 * 2 / 50e9 * 1e6) / 1e3
    assert sizing[SIZING["domain"]] == 8 and sizing[SIZING["stage_link"]] == "InfiniBand"
    assert sizing[SIZING["comm_ms"]] == pytest.approx(comm)
    assert comm == pytest.approx(18.2103, abs=1e-4)
    # Cost's row of the scenario's GPU computes the same step (its own domain column)
    cost = v["Cost"]
    row = _cost_row(cost, "NVIDIA H100 SXM")
    assert cost[f"F{row}"] == 16
    assert cost[f"G{row}"] == pytest.approx(sizing[SIZING["step_ms"]], rel=1e-12)
    # a GB200 NVL72 rack holds the 16 in one NVLink domain: its row is priced as NVLink
    gb200 = _cost_row(cost, "NVIDIA GB200 (per GPU)")
    assert cost[f"AC{gb200}"] == 72
    agree(v, _names(tmp_path / f"{name}.xlsx"))


def test_a_stage_that_does_not_divide_the_heads_has_no_layout(tmp_path):
    # Llama 3.1 405B (128 query heads, 8 KV heads: config.json) on 24 H100 SXM in one
    # stage: 128 ÷ 24 = 5.33 heads a GPU, which vLLM refuses ("Total number of attention
    # heads (128) must be divisible by tensor parallel size (24)", vllm/config/model.py):
    # no layout on Sizing, Cost's row (and chart), Finance's range and tornado
    from workbook.finance import FINANCE
    from workbook.model.step import NO_LAYOUT_HEADS

    base = _scenario("Llama 3.1 405B", "FP8", "BF16", "NVIDIA H100 SXM", 24, 16, 2000, 300)
    v = variant(tmp_path, "405b-24", base)
    headline = v["Sizing"][SIZING["headline"]]
    assert headline.startswith(NO_LAYOUT_HEADS) and "128 query and 8 KV heads" in headline
    cost = v["Cost"]
    row = _cost_row(cost, "NVIDIA H100 SXM")
    assert cost[f"F{row}"] == 24 and cost[f"R{row}"] == NO_LAYOUT_HEADS
    assert NO_LAYOUT_HEADS in cost[f"T{row}"]
    assert "NVIDIA H100 SXM" not in {cost.get(f"W{row0}") for row0 in range(22, 82)}
    fin = v["Finance"]
    assert fin[f"C{FINANCE['cost_range']}"] == headline
    assert fin[f"B{FINANCE['cost_range']}"] == headline == fin[f"D{FINANCE['cost_range']}"]
    assert fin["B29"] == headline == fin["D29"]  # the range of published deployments
    # Plan's row of the scenario: no layout, no replicas (the rows of 1, 2, 4, 8 GPUs run)
    from workbook.plan_cells import RUNS_COL
    from workbook.scenario import PLAN_SCENARIO_ROW
    plan, sc = v["Plan"], PLAN_SCENARIO_ROW
    assert plan[f"L{sc}"] == NO_LAYOUT_HEADS == plan[f"{RUNS_COL}{sc}"]
    assert plan[f"J{sc}"] == "none"
    assert plan.get(f"{RUNS_COL}{sc - 1}") in ("", None)
    # three pipeline stages of 8 GPUs: 128 ÷ 8 = 16 heads a GPU, it runs, and every sheet
    # agrees
    staged = variant(tmp_path, "405b-24-pp3", {**base, S["SCENARIO_PIPELINE_STAGES"]: 3})
    assert staged["Sizing"][SIZING["stage_gpus"]] == 8
    assert isinstance(staged["Sizing"][SIZING["headline"]], float)
    agree(staged, _names(tmp_path / "405b-24-pp3.xlsx"))


def test_tokens_per_step_divide_the_step():
    # 3.3616 tokens a step (SPEC_TOKENS_PER_STEP(0.8, 4): (1 − 0.8⁵) ÷ 0.2, Leviathan et
    # al. 2023 eq. 1): each token's share of the same step
    base = _scenario("Llama 3.1 8B", "BF16", "BF16", "NVIDIA H100 SXM", 1, 1, 1000, 24)
    one = sheet_at("Sizing", SIZING_ROWS, base)
    spec = sheet_at("Sizing", SIZING_ROWS, {**base, S["SCENARIO_TOKENS_PER_STEP"]: 3.3616})
    assert spec[SIZING["step_ms"]] == pytest.approx(one[SIZING["step_ms"]] / 3.3616)
    assert spec[SIZING["real_step_ms"]] == pytest.approx(one[SIZING["real_step_ms"]] / 3.3616)


def _published(case: str) -> dict:
    """The scenario's inputs of a measurement of ``CASES``: its model, precisions, GPU,
    GPUs, batch, tokens and tokens a step (tests/data/serving_measurements.csv)."""
    row = next(r for r in rows() if r["id"] == case)
    return _scenario(row["model"], row["precision"], row["kv_precision"], row["gpu"],
                     int(row["gpus"]), int(row["batch"]), int(row["input_tokens"]),
                     int(row["output_tokens"]), float(row["tokens_per_step"]))


#: Sizing's rows above its grids, computed again in Python (template_values.sheet_at)
SIZING_ROWS = GRID_TOP - 1
#: The cells of those rows that read a sheet whose values the scenario moves (Start's
#: status line, Finance's range of published deployments): sheet_at keeps the
#: committed template's value of that sheet, so they are the engine's only end to end
READ_ELSEWHERE = {"A2", "C10"}


def test_sizing_in_python_is_the_engines_for_a_published_deployment(tmp_path):
    # The fast layer of the cases below: Sizing's formula cells computed again in Python
    # from the template's formulas with the scenario typed in are what napkin's engine
    # computes into a copy of the template with the same inputs, every cell but those
    # reading another sheet the scenario moves (one case end to end: the 405B on 8 MI300X)
    case = "amd-405b-mi300x-tp8-b16"
    engine = variant(tmp_path, case, _published(case))["Sizing"]
    python = sheet_at("Sizing", SIZING_ROWS, _published(case))
    assert len(python) > 100
    differ = {c: (x, engine.get(c)) for c, x in python.items()
              if not _same(x, engine.get(c))}
    assert set(differ) <= READ_ELSEWHERE, differ
    for key in ("layer_used", "real_step_ms", "step_ms", "calibrated"):
        assert SIZING[key] not in READ_ELSEWHERE


def _same(a, b) -> bool:
    a, b = ("" if x is None else x for x in (a, b))  # (an empty cell is not stored)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
    return a == b


@pytest.mark.parametrize("case", CASES)
def test_published_deployments_within_one_and_a_half(case):
    # Sizing with the measurement's case typed into the scenario, computed in Python from
    # the template's formulas (sheet_at: the engine computes the same, the test above)
    row = next(r for r in rows() if r["id"] == case)
    batch = int(row["batch"])
    v = sheet_at("Sizing", SIZING_ROWS, _published(case))
    measured = measured_ms(row, batch)  # the source's per-stream figure
    # the realistic step holds the layers' time: floor ÷ efficiency + layers × 65.8 µs ÷
    # tokens per step (udfs/data/layer_time.csv; no Calibration rows here; no draft tokens)
    fixed = LAYERS[row["model"]] * 65.8 / 1000 / float(row["tokens_per_step"])
    assert v[SIZING["layer_used"]] == pytest.approx(fixed, rel=1e-12)
    assert v[SIZING["real_step_ms"]] == pytest.approx(
        v[SIZING["step_ms"]] / v[SIZING["calibrated"]] + fixed, rel=1e-12)
    ratio = v[SIZING["real_step_ms"]] / measured
    assert 1 / 1.5 <= ratio <= 1.5, (case, v[SIZING["real_step_ms"]], measured)
    assert v[SIZING["step_ms"]] < measured  # the floor stays below the measurement


def _405b(gpus, stages):
    """Sizing of Llama 3.1 405B FP8 on H100 SXMs at batch 16, 2,000 + 300 tokens, in
    ``stages`` pipeline stages (``sheet_at``)."""
    changes = _scenario("Llama 3.1 405B", "FP8", "BF16", "NVIDIA H100 SXM", gpus, 16, 2000,
                        300)
    return sheet_at("Sizing", SIZING_ROWS, {**changes, S["SCENARIO_PIPELINE_STAGES"]: stages})


def test_405b_fp8_over_16_h100_in_2_pipeline_stages():
    # Llama 3.1 405B FP8 on 16 H100 in 2 stages of TP8, batch 16 of 2,000 + 300 tokens,
    # prefill sharing the GPUs: a step computes 16 × (1 + 2,000 ÷ 300) = 122.67 tokens.
    # By hand (DECODE_STEP_MS: k = max(m, p) = 2 with m = p = 2 micro-batches):
    # a step reads 405.85e9 − 128,256 × 16,384 (the input embedding table; config.json) =
    # 403.748654e9 weights × 1 B = 403.748654 GB, twice a period (once per micro-batch):
    # 2 × 403.748654 ÷ (16 × 3.35 TB/s) = 15.0652483 ms (math: 2 × 405.85e9 × 122.67 ÷ (16
    # × 1,978.9e12) = 3.145 ms); KV at the mean context, 16 × 2,150 × 516,096 B (2 × 126
    # layers × 8 × 128 × 2 B) = 17.7537 GB ÷ (16 × 3.35) = 0.3312 ms, one copy (8 KV heads
    # on a stage of 8) (attention 4 × 126 × 16,384 × (2,150 + 6.667 × 1,000) × 16 FLOP ÷
    # (16 × 1,978.9e12) = 0.037 ms); all-reduces of one micro-batch of 61.33 tokens
    # through the 126 layers at TP8: 2 × 126 × (6.6 µs + 14 × 0.6 µs (NCCL's NVLink ring,
    # src/graph/tuning.cc) + 14/8 × 61.33 × 16,384 × 2 B ÷ 450 GB/s) = 5.7496 ms; step
    # 15.0652 + 0.3312 + 5.7496 = 21.1460 ms
    v = _405b(16, 2)
    tokens = 16 * (1 + 2000 / 300)
    comm = 2 * 126 * (6.6 + 14 * 0.6 + 14 / 8 * tokens / 2 * 16384 * 2 / 450e9 * 1e6) / 1e3
    assert v[SIZING["stage_gpus"]] == 8
    assert v[SIZING["comm_ms"]] == pytest.approx(comm, rel=1e-12)
    weights = 2 * (405.85 - 128256 * 16384 / 1e9) / (16 * 3.35)
    kv = 16 * 2150 * 516096 / 1e9 / (16 * 3.35)
    assert weights + kv + comm == pytest.approx(21.1460, abs=1e-4)
    assert v[SIZING["step_ms"]] == pytest.approx(weights + kv + comm, rel=1e-9)
    assert v[SIZING["gpus"]] == 16  # RESULT_GPUS_PER_REPLICA: the GPUs typed, all stages
    # the efficiency of the replica, all stages together: REGIME_EFFICIENCY(16 GPUs, 16
    # sequences), as the function gives it (docs/measurements.md: TensorRT-LLM's pipelined
    # measurements, tests/test_pipeline.py)
    from udfs import REGIME_EFFICIENCY
    assert v[SIZING["regime_eff"]] == REGIME_EFFICIENCY(16, 16, 0)
    # one stage of the same 16 GPUs: the weights once, TP16's all-reduces of all 122.67
    # tokens, past the HGX board's 8-GPU NVLink domain over the network: 400 Gb/s a GPU,
    # 50 GB/s one way, NCCL's NET latency 2.7 µs a ring step: 2 × 126 × (6.6 + 30 × 2.7 +
    # 30/16 × 122.67 × 16,384 × 2 B ÷ 50 GB/s) µs = 252 × 238.33 µs = 60.06 ms (NVLink
    # would be 252 × 41.35 µs = 10.42 ms); 16 GPUs share the 8 KV heads: each held twice,
    # the KV cache read twice
    one = _405b(16, 1)
    comm16 = 2 * 126 * (6.6 + 30 * 2.7 + 30 / 16 * tokens * 16384 * 2 / 50e9 * 1e6) / 1e3
    assert comm16 == pytest.approx(60.0599, abs=1e-4)
    assert one[SIZING["stage_link"]] == "InfiniBand"
    assert one[SIZING["comm_ms"]] == pytest.approx(comm16, rel=1e-12)
    assert one[SIZING["step_ms"]] == pytest.approx(weights / 2 + 2 * kv + comm16, rel=1e-9)


def test_stages_with_the_smallest_gpus_that_fit():
    # "smallest that fits" in 2 stages: the weights + 16 sequences' KV need GPUS_NEEDED =
    # n GPUs; each stage takes a deployed degree (1, 2, 4, 8, whole nodes) at or above
    # n ÷ 2: 2 × deployed(⌈n ÷ 2⌉) GPUs per replica (template_support.deployed)
    import math

    from template_support import deployed
    v = _405b("smallest that fits", 2)
    n = v[SIZING["gpus_needed"]]
    assert v[SIZING["gpus"]] == 2 * deployed(math.ceil(n / 2))
    assert v[SIZING["stage_gpus"]] == deployed(math.ceil(n / 2))
