"""The template in real use: every choice gives numbers, assumptions moved one at a time,
rows added to the tables, warnings where a choice is out of range."""

from __future__ import annotations

import math
import re

import openpyxl
import pytest
from template_support import (
    CAL_CASES,
    CAL_STEP,
    CHART_GAPS,
    CONTEXT,
    LAYER_US,
    LAYERS_70B_MS,
    ONE_GPU,
    PRICE,
    SHAPE,
    SMALL,
    STEP,
    TP,
    build_copy,
    calibrated_efficiency,
    comm_ms,
    deployed,
    engine_calc,
    error_cells,
    examples_efficiency,
    floor_ms,
    headline,
    regime_efficiency,
    sizing,
    values,
    variant,
)

from udfs.inference import tables
from workbook import build
from workbook.build import (
    CAL_FIRST,
    CAL_SUMMARY,
    COST,
    COST_FIRST,
    FINANCE,
    GPU_FIRST,
    GPU_SPARE,
    HEADLINE,
    MODEL_FIRST,
    MODEL_SPARE,
    PLAN,
    SIZING,
)


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("template")


# ------------------------------------------------------------------------ real use


def test_calibration_counts_a_gpus_own_measurements(tmp):
    """Kept examples count: each plausible row's measured time ÷ the model's estimate at
    its own GPUs, batch and context (floor ÷ REGIME_EFFICIENCY there + its layers' time) is
    its ratio; a GPU with measurements of its own scales the model by their average ratio
    (the efficiency ÷ it, the layers' time × it), a GPU without any takes the model as it
    is: the default of its regime (REGIME_EFFICIENCY) plus the layers' time."""
    keep = {f"Calibration!X{CAL_FIRST + i}": "yes" for i in range(len(CAL_CASES))}
    v = variant(tmp, "keep", keep)
    ratios = []
    for params, bpp, kv, ctx, batch, bw, roof, n, measured in CAL_CASES[:3]:
        floor = floor_ms(params, bpp, kv * ctx * batch / 1e9, bw, batch, roof, n)
        layers = SHAPE[params][0] * LAYER_US / 1000  # 32 or 80 layers (config.json)
        ratios.append(measured / (floor / regime_efficiency(n, batch) + layers))
    assert v["Calibration"][CAL_SUMMARY["efficiency"]] == pytest.approx(examples_efficiency())
    assert v["Calibration"][CAL_SUMMARY["plausible"]] == 3
    for i, ratio in enumerate(ratios):
        assert v["Calibration"][f"AH{CAL_FIRST + i}"] == pytest.approx(ratio)
    h100 = (ratios[0] + ratios[1]) / 2  # rows 1 and 2 are H100, row 3 is H200
    assert sizing(v, "cal_ratio") == pytest.approx(h100)
    assert sizing(v, "calibrated") == pytest.approx(TP / h100)
    assert "this GPU's 2 measurement(s)" in v["Sizing"]["C" + SIZING["calibrated"][1:]]
    # the H100 has measurements: the model's estimate, with its layers' time, × the ratio
    assert sizing(v, "layer_ms") == pytest.approx(LAYERS_70B_MS)
    assert sizing(v, "layer_used") == pytest.approx(LAYERS_70B_MS * h100)
    assert sizing(v, "real_step_ms") == pytest.approx((STEP / TP + LAYERS_70B_MS) * h100)
    gpus = list(tables.gpus())
    cost = v["Cost"]
    # the B200 (180 GB) holds 70.6 GB + 12.06 GB of KV alone: one GPU at 16 sequences,
    # between small_batch's 0.742 (to batch 8) and throughput_one_gpu's 0.409 (from batch
    # 25), linear in ln(batch) (udfs/data/efficiency.csv, docs/math.md); the H200 (141 GB)
    # too. The H200's row: that efficiency ÷ its one measurement's ratio
    one_gpu_16 = 0.742 + (0.409 - 0.742) * math.log(16 / 8) / math.log(25 / 8)
    assert one_gpu_16 == pytest.approx(SMALL + (ONE_GPU - SMALL) * math.log(2)
                                       / math.log(25 / 8))
    h200 = COST_FIRST + gpus.index("NVIDIA H200 SXM")
    assert cost[f"F{h200}"] == 1
    assert cost[f"N{h200}"] == pytest.approx(one_gpu_16 / ratios[2], rel=1e-9)
    # the H100's and H200's rows on Cost: the layers' time × their ratio
    for name, ratio in (("NVIDIA H100 SXM", h100), ("NVIDIA H200 SXM", ratios[2])):
        assert cost[f"AB{COST_FIRST + gpus.index(name)}"] == pytest.approx(
            LAYERS_70B_MS * ratio), name
    # no measurement of the B200: its step adds the layers' time, 80 layers (config.json)
    # × 65.8 µs (udfs/data/layer_time.csv), to floor ÷ its regime's efficiency
    b200 = COST_FIRST + gpus.index("NVIDIA B200 (HGX)")
    assert cost[f"F{b200}"] == 1 and cost[f"N{b200}"] == pytest.approx(one_gpu_16, rel=1e-12)
    assert cost[f"AB{b200}"] == pytest.approx(80 * 65.8 / 1000)
    assert cost[f"O{b200}"] == pytest.approx(cost[f"G{b200}"] / one_gpu_16 + 80 * 65.8 / 1000)
    assert v["Finance"][FINANCE["calibrated"]] == pytest.approx(TP / h100)


def test_a_users_measurement_alone_sets_the_ratio(tmp):
    """The examples stay out: one real measurement of the scenario (70B FP8 on 2 H100,
    batch 16, 2,300 tokens, 30 ms per token) gives its floor ÷ 30 ms as the efficiency
    found and 30 ÷ the model's estimate there as the ratio, not an average with invented
    rows. The row's floor is a decode step at the 2,300 tokens typed (CAL_STEP, 13.52 ms),
    its estimate 13.52 ÷ 0.471 + 5.264 = 33.97 ms; the scenario's step carries the prompts'
    prefill and reads the mean context (STEP, 14.03 ms): its realistic step is
    (14.03 ÷ 0.471 + 5.264) × 30 ÷ 33.97 = 30.94 ms."""
    r = CAL_FIRST + len(CAL_CASES)  # the first empty row
    row = dict(zip("ABCDEFG", ("Llama 3.1 70B", "FP8", "NVIDIA H100 SXM", 2, 16, CONTEXT,
                               30), strict=True))
    v = variant(tmp, "mine", {f"Calibration!{c}{r}": x for c, x in row.items()})
    assert v["Calibration"][CAL_SUMMARY["efficiency"]] == pytest.approx(CAL_STEP / 30)
    ratio = 30 / (CAL_STEP / TP + LAYERS_70B_MS)
    assert sizing(v, "cal_ratio") == pytest.approx(ratio)
    assert sizing(v, "calibrated") == pytest.approx(TP / ratio)
    assert sizing(v, "real_step_ms") == pytest.approx((STEP / TP + LAYERS_70B_MS) * ratio)
    assert sizing(v, "real_step_ms") == pytest.approx(30.94, abs=5e-3)


def test_deployed_gpus_context_warning_and_tolerant_notes(tmp):
    """Llama 3.1 405B in BF16 on H100 with 200,000 tokens of context: GPUs per replica as
    deployed (whole 8-GPU nodes), cost at that count, a warning that the context is longer
    than the model's 131,072 tokens, and the GQA note despite 0.9999999999999999."""
    v = variant(tmp, "405b", {"Sizing!" + SIZING["model"]: "Llama 3.1 405B",
                              "Sizing!" + SIZING["precision"]: "BF16",
                              "Sizing!" + SIZING["prompt"]: 200000 - 300})
    kv = 2 * 126 * 8 * 128 * 2 * 200000 * 16 / 1e9  # GB
    need = 405.85 * 2 + kv
    n = math.ceil(need / 80)
    assert sizing(v, "gpus_needed") == n and sizing(v, "gpus") == deployed(n) == 32
    # a step reads all weights but the input embedding (config.json: vocab 128,256, hidden
    # 16,384, untied) and the KV cache at the mean context, 199,700 + 150 tokens, 4 copies
    # of it (8 KV heads on 32 GPUs); prefill sharing the GPUs, each step computes 199,700 ÷
    # 300 = 665.7 prompt tokens a sequence beside its decoded one, 16 × 666.7 = 10,667
    # tokens, each prompt token attending to half the prompt
    weights = (405.85 - 128256 * 16384 / 1e9) * 2
    tokens = 16 * (1 + 199700 / 300)
    kv_ms = 2 * 126 * 8 * 128 * 2 * 199850 * 16 * 4 / 1e9 / (3.35 * 32)
    # DECODE_STEP_MS over 32 GPUs: the attention's products, 4 × 126 layers × 128 heads ×
    # 128 × (199,850 + 665.7 × 99,850) × 16 FLOP ÷ (32 × 989.4 TFLOPS BF16) = 278 ms,
    # exceed the KV cache's read (61.6 ms); the prompts' math, 2 × 405.85e9 × 10,667 ÷ (32
    # × 989.4 TFLOPS) = 273 ms, the weights' read (7.6 ms); + 2 × 126 all-reduces of the
    # 10,667 tokens, the stage's 32 GPUs past the HGX board's 8-GPU NVLink domain so over
    # the network (400 Gb/s a GPU, 50 GB/s one way, NCCL's NET latency 2.7 µs a ring step:
    # src/graph/tuning.cc): a 200,000-token prompt makes the step prefill's
    attention = 4 * 126 * 128 * 128 * (199850 + 199700 / 300 * 99850) * 16 / (
        32 * 989.4e12) * 1e3
    math_ms = 2 * 405.85e9 * tokens / (32 * 989.4e12) * 1e3
    assert attention > kv_ms and math_ms > weights / (3.35 * 32)
    step = attention + math_ms + comm_ms(126, 16384, tokens, 32, link_gbps=50, hop_us=2.7)
    assert sizing(v, "step_ms") == pytest.approx(step)
    # 32 GPUs at 16 sequences: batch 16 is the smallest of throughput_tp's rows, so its
    # anchor, 0.471 (udfs/data/efficiency.csv, docs/math.md); no measurement of the H100
    # counted, so the step adds the layers' time: 126 layers (config.json
    # num_hidden_layers) × 65.8 µs (udfs/data/layer_time.csv) = 8.291 ms
    eff = 0.471
    assert eff == TP
    layers_ms = 126 * LAYER_US / 1000
    assert sizing(v, "layer_used") == pytest.approx(layers_ms)
    assert sizing(v, "real_step_ms") == pytest.approx(step / eff + layers_ms)
    tps = 1000 / (step / eff + layers_ms) * 16
    assert sizing(v, "real_cost_mtok") == pytest.approx(2.95 * 32 / (tps * 3600 * 0.6) * 1e6)
    assert "longer than the 131072 tokens" in v["Sizing"]["C" + SIZING["context"][1:]]
    assert v["Sizing"]["C" + SIZING["kv_factor"][1:]].startswith("1: the GQA formula is right")
    assert v["Cost"][f"F{COST_FIRST + list(tables.gpus()).index('NVIDIA H100 SXM')}"] == 32
    assert error_cells(v) <= CHART_GAPS


def test_finance_hours_per_month_keep_cost_and_volume_together(tmp, default):
    """200 hours a month: the GPUs are rented and serve for 200 hours, so the bill and the
    tokens shrink together; the cost per token and the verdict stay."""
    v = variant(tmp, "hours", {"Sizing!" + SIZING["hours"]: 200})
    f, d, F = v["Finance"], default["Finance"], FINANCE
    m = F["monthly"]
    # output tokens: 100e6 a day ÷ 24 × 200 hours (Sizing's defaults), in millions
    assert f[F["volume"]] == pytest.approx(100e6 / 24 * 200 / 1e6)
    assert f[f"B{m}"] == pytest.approx(d[f"B{m}"] * 200 / 730.5)
    assert f[f"B{F['cheaper']}"] == d[f"B{F['cheaper']}"]
    assert f[f"C{F['cost_range']}"] == pytest.approx(d[f"C{F['cost_range']}"])
    # owned: the purchase is paid every calendar month, energy only for the hours served;
    # the H100 SXM's purchase price 27,500 (workbook/data/gpu_prices.csv)
    gpus = f[F["gpus_total"]]
    owned = gpus * (27500 / (4 * 8766) * 730.5 + 0.7 * 1.3 * 0.12 * 200)
    assert f[f"C{m}"] == pytest.approx(owned)
    gpus_row = COST_FIRST + list(tables.gpus()).index("NVIDIA H100 SXM")
    assert v["Cost"][f"L{gpus_row}"] == pytest.approx(default["Cost"][f"L{gpus_row}"])


def test_finance_zero_traffic_and_low_utilization_stay_sane(tmp):
    """No traffic: sentences, never #NUM!. Base utilization 5 % (below the low end of its
    range): the range widens so that low ≤ base ≤ high for every figure."""
    v = variant(tmp, "zero", {"Sizing!" + SIZING["tokens_day"]: 0,
                              "Sizing!" + SIZING["utilization"]: 0.05})
    assert error_cells(v) <= CHART_GAPS
    h100 = COST_FIRST + list(tables.gpus()).index("NVIDIA H100 SXM")
    assert v["Cost"][f"L{h100}"] == "no traffic" and v["Cost"][f"R{h100}"] == "no traffic"
    assert "no traffic" in v["Cost"]["C" + COST["tokens_day"][1:]]
    f, F = v["Finance"], FINANCE
    assert f[F["replicas"]] == 0 and f[f"B{F['monthly']}"] == 0
    for key in ("price_range", "ms_range", "gpus_range", "monthly_range"):
        lo, base, hi = (f[f"{c}{F[key]}"] for c in "BCD")
        assert lo <= base <= hi, key
    for key in ("eff", "util", "tps_range"):  # low cost: the larger efficiency, utilization
        lo, base, hi = (f[f"{c}{F[key]}"] for c in "BCD")
        assert lo >= base >= hi, key
    assert f[f"D{F['util']}"] == 0.05 and "widened" in f[f"E{F['util']}"]
    assert [f[f"{c}{F['cost_range']}"] for c in "BCD"] == ["no traffic"] * 3
    # the blended figure is Finance's (one name): no output cost without traffic
    assert v["Plan"][PLAN["cost_all_mtok"]] == f[F["blended"]] == "not available"


def test_finance_break_even_is_flagged_above_the_fleets_capacity(default):
    f, F = default["Finance"], FINANCE
    # output tokens a month the fleet serves at the planned utilization, in millions
    cap = f[F["replicas"]] * f[F["replica_tps"]] * 0.6 * 3600 * 730.5 / 1e6
    assert f[F["capacity"]] == pytest.approx(cap)
    for col in "BC":
        be = f[f"{col}{F['breakeven']}"]
        said = f[f"{col}{F['within']}"]
        assert (said == "yes") == (be <= cap), (col, be, cap, said)
        if be > cap:
            assert said.startswith("no: more than this fleet can serve") and \
                "the API stays cheaper" in said


def test_one_headline_everywhere(default):
    """The headline cost per million output tokens carries one name and one value on
    Sizing, Cost, Finance and Plan: the month's bill ÷ the month's output tokens."""
    value = sizing(default, "headline")
    assert value == pytest.approx(headline(PRICE, calibrated_efficiency(), 0.6))
    f = default["Finance"]
    assert f[f"C{FINANCE['cost_range']}"] == pytest.approx(value)
    assert f[FINANCE["output_cost"]] == pytest.approx(value)
    assert f[FINANCE["base_cost"]] == pytest.approx(value)
    assert default["Plan"][PLAN["cost_out_mtok"]] == pytest.approx(value)
    h100 = COST_FIRST + list(tables.gpus()).index("NVIDIA H100 SXM")
    assert default["Cost"][f"R{h100}"] == pytest.approx(value)
    assert default["Sizing"]["A" + SIZING["headline"][1:]].startswith(HEADLINE)
    assert f"A{FINANCE['cost_range']}" in f and f[f"A{FINANCE['cost_range']}"].startswith(
        HEADLINE)
    assert default["Cost"][f"R{COST_FIRST - 1}"].startswith(HEADLINE)
    # the unit cost of a busy replica is labelled as what it is, not as the headline
    assert default["Sizing"]["A" + SIZING["real_cost_mtok"][1:]].startswith("If every GPU")
    assert default["Cost"][f"S{COST_FIRST - 1}"].startswith("If every GPU")
    # the other figures say what they are
    assert "floor" in default["Sizing"]["A" + SIZING["cost_mtok"][1:]]
    assert "blended" in f["A" + FINANCE["blended"][1:]]
    # one blended figure, one input figure: Plan shows Finance's by name, with its label
    assert default["Plan"][PLAN["cost_all_mtok"]] == pytest.approx(f[FINANCE["blended"]])
    assert default["Plan"]["A" + PLAN["cost_all_mtok"][1:]] == f["A" + FINANCE["blended"][1:]]
    assert f["A" + FINANCE["input_cost"][1:]].startswith(f[f"A{FINANCE['in_cost']}"])


def _insert_row(ws, row: int, wb, sheet: str) -> None:
    """Insert a row at ``row`` as Excel does: the cells below move down with their relative
    references, and every named range of the sheet that spans the row grows by one."""
    ws.move_range(f"A{row}:{openpyxl.utils.get_column_letter(ws.max_column)}{ws.max_row}",
                  rows=1, translate=True)
    for dn in list(wb.defined_names.values()):
        m = re.fullmatch(rf"'{sheet}'!\$([A-Z]+)\$(\d+):\$([A-Z]+)\$(\d+)", dn.attr_text)
        if m and int(m[2]) <= row <= int(m[4]):
            dn.attr_text = f"'{sheet}'!${m[1]}${m[2]}:${m[3]}${int(m[4]) + 1}"


def test_rows_added_to_the_tables_reach_every_sheet(tmp):
    """As a user would: insert a GPU row inside the GPUs table and type a GPU in the first
    yellow row below it, insert a model row inside the Models table (its KV formula filled
    down) and type one below, add a measurement in Calibration's first empty row. Every
    sheet picks them up, and the last GPU of the table (TPU v6e) is still on Cost."""
    src = build_copy(tmp / "rows.xlsx")
    wb = openpyxl.load_workbook(src)
    gpus, models = wb["GPUs"], wb["Models"]
    n_gpus, n_models = len(tables.gpus()), len(tables.models())
    _insert_row(gpus, GPU_FIRST + 3, wb, "GPUs")
    mine = {"A": "My GPU inside", "C": 96, "D": 4.0, "E": 1000, "G": 2000, "J": 700, "L": 2.5}
    for col, x in mine.items():
        gpus[f"{col}{GPU_FIRST + 3}"] = x
    below = GPU_FIRST + n_gpus + 1  # the first yellow row, one lower after the insert
    for col, x in {"A": "My GPU below", "C": 48, "D": 1.0, "E": 400, "L": 1.2}.items():
        gpus[f"{col}{below}"] = x
    _insert_row(models, MODEL_FIRST + 1, wb, "Models")
    r = MODEL_FIRST + 1
    for col, x in zip("ABCDEFGH", ("My model inside", 13, 13, 40, 5120, 40, 8, 128),
                      strict=True):
        models[f"{col}{r}"] = x
    models[f"O{r}"] = "GQA"
    models[f"P{r}"] = f'=KV_CACHE_GB(D{r},G{r},H{r},1,"BF16",1,"B")'  # filled down
    models[f"R{r}"] = 0
    mb = MODEL_FIRST + n_models + 1
    for col, x in zip("ABCDEFGH", ("My model below", 3, 3, 28, 3072, 24, 8, 128),
                      strict=True):
        models[f"{col}{mb}"] = x
    cal = CAL_FIRST + len(CAL_CASES)
    for col, x in zip("ABCDEFG", ("My model below", "BF16", "My GPU below", 1, 1, 1000, 9),
                      strict=True):
        wb["Calibration"][f"{col}{cal}"] = x
    wb["Sizing"][SIZING["model"]] = "My model inside"
    wb["Sizing"][SIZING["gpu"]] = "My GPU inside"
    wb.save(src)
    dst = tmp / "rows-calc.xlsx"
    engine_calc(src, dst)
    v = values(dst)
    assert error_cells(v) <= CHART_GAPS
    cost_names = [v["Cost"].get(f"A{COST_FIRST + i}") for i in range(n_gpus + GPU_SPARE)]
    for name in ("My GPU inside", "My GPU below", "Google TPU v6e (Trillium)"):
        assert name in cost_names, name
    grid = [v["Sizing"].get(f"{openpyxl.utils.get_column_letter(3 + j)}{build.GRID_TOP + 1}")
            for j in range(n_gpus + GPU_SPARE)]
    assert {"My GPU inside", "My GPU below", "Google TPU v6e (Trillium)"} <= set(grid)
    rows = [v["Sizing"].get(f"A{build.GRID_TOP + 3 + i}") for i in range(n_models + MODEL_SPARE)]
    assert {"My model inside", "My model below", list(tables.models())[-1]} <= set(rows)
    # the inserted model on the inserted GPU: 13 B in FP8 = 13 GB on 4 TB/s
    assert sizing(v, "weight_gb") == pytest.approx(13)
    assert sizing(v, "floor_ms") == pytest.approx(13 / 4.0)
    assert isinstance(sizing(v, "real_cost_mtok"), float)
    # the measurement of the added model on the added GPU is counted for that GPU
    assert v["Calibration"][f"O{cal}"] in ("plausible", "below the floor: an assumption is "
                                                         "wrong")
    assert v["Calibration"][f"W{cal}"] == "yes"
