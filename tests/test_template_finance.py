"""The template computed: Calibration (realistic = floor ÷ efficiency + the layers' time,
examples left out)
and Finance (bands in order, the tornado's data, owned vs rented, budget, break-even)
against hand calculations."""

from __future__ import annotations

import math

import pytest
from template_support import (
    BATCH,
    CAL_CASES,
    CHART_GAPS,
    ERRORS,
    GPUS,
    HOURS,
    LAYERS_70B_MS,
    PEAK,
    PRICE,
    READ,
    READ_8B,
    STEP,
    TOKENS_PER_DAY,
    calibrated_efficiency,
    floor_ms,
    headline,
    sizing,
    variant,
)

from workbook import build
from workbook.build import (
    CAL_EXAMPLES,
    CAL_FIRST,
    CAL_SUMMARY,
    FINANCE,
    SIZING,
)


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("template")


# ------------------------------------------------------------------------ calibration


def test_calibration_against_hand_calculation(default):
    v = default["Calibration"]
    for i, (params, bpp, kv, ctx, batch, bw, roof, n, measured) in enumerate(CAL_CASES):
        r = CAL_FIRST + i
        kv_gb = kv * ctx * batch / 1e9  # e.g. 8B: 131,072 B × 2,048 tokens × 1 = 0.268 GB
        read = READ[params] * bpp + kv_gb  # weights read + KV cache, GB per step
        f = floor_ms(params, bpp, kv_gb, bw, batch, roof, n)
        assert v[f"I{r}"] == pytest.approx(measured)
        assert v[f"J{r}"] == pytest.approx(read)
        assert v[f"K{r}"] == pytest.approx(f)
        assert v[f"L{r}"] == pytest.approx(read / measured / (bw * n))  # MBU
        # MFU: 2 × params × tokens/s (batch × 1000 / ms) ÷ datasheet roof of the n GPUs
        assert v[f"M{r}"] == pytest.approx(2 * params * 1e9 * batch * 1000 / measured
                                           / (roof * 1e12 * n))
        assert v[f"N{r}"] == pytest.approx(f / measured)  # CALIBRATE
        assert v[f"O{r}"] == ("plausible" if measured >= f else
                              "below the floor: an assumption is wrong")
    # e.g. row 1: 15.28 GB ÷ 3.35 TB/s = 4.561 ms floor, measured 6.5 ms: 70 %
    assert v[f"N{CAL_FIRST}"] == pytest.approx((READ_8B * 2 + 0.268435456) / 3.35 / 6.5)
    assert v[f"O{CAL_FIRST + 3}"].startswith("below the floor")  # 15 ms < 21.9 ms
    assert v[CAL_SUMMARY["efficiency"]] == pytest.approx(0.7)  # examples are not counted
    assert (v[CAL_SUMMARY["plausible"]], v[CAL_SUMMARY["below"]]) == (0, 1)
    assert v[CAL_SUMMARY["examples"]] == len(CAL_EXAMPLES)
    assert "no measurement counted" in v["C5"]
    assert all(v.get(f"Y{CAL_FIRST + i}") in (None, "") for i in range(len(CAL_CASES)))
    for r in range(CAL_FIRST + len(CAL_CASES), CAL_FIRST + build.CAL_ROWS):  # empty rows
        assert all(v.get(f"{col}{r}") in (None, "") for col in "IJKLMNO"), r


def test_calibration_row_of_the_sizing_case_gives_the_sizing_floor(tmp):
    """Example row 2 is the scenario's default (70B FP8, 2 × H100, batch 16) at 8,192
    tokens. A Calibration row's floor is a decode step at the context typed, prefill not
    counted (a measured inter-token time); the scenario's step reads the mean context,
    prompt + output ÷ 2. With a prompt of 8,042 and 300 output tokens (a mean of 8,192)
    and prefill elsewhere (serving "disaggregated") the row's floor is Sizing's step
    floor, so floor ÷ efficiency is consistent on both; in aggregated serving Sizing's
    step also carries the prompts' prefill, which the row's measurement does not."""
    v = variant(tmp, "ctx8192", {"Sizing!" + SIZING["prompt"]: 8192 - 150,
                                 "Sizing!" + SIZING["serving_input"]: "disaggregated"})
    assert sizing(v, "mean_context") == 8192 and sizing(v, "prefill_share") == 0
    assert v["Calibration"][f"K{CAL_FIRST + 1}"] == pytest.approx(sizing(v, "step_ms"),
                                                                  rel=1e-12)


def test_calibration_floor_follows_sizing_for_sliding_window_and_mla(tmp):
    """Gemma 2 9B (sliding window) and DeepSeek-V3 (MLA, 5 × H200) in empty rows, each also
    chosen on Sizing, prefill elsewhere (serving "disaggregated") and the row's context
    the scenario's mean one, 2,000 + 300 ÷ 2: the row's floor is Sizing's step floor (the
    KV correction included; DeepSeek-V3 expert parallel on 8, one copy of its cache: a
    measurement of an MoE model on more than one GPU is taken as expert parallel, so the
    scenario types "yes", where "auto" would find tensor parallel faster at batch 16)."""
    r = CAL_FIRST + len(CAL_CASES)
    for name, model, prec, gpu, n in (("gemma", "Gemma 2 9B", "BF16", "NVIDIA H100 SXM", 1),
                                      ("dsv3", "DeepSeek-V3", "FP8", "NVIDIA H200 SXM", 8)):
        v = variant(tmp, name, {
            "Sizing!" + SIZING["model"]: model, "Sizing!" + SIZING["precision"]: prec,
            "Sizing!" + SIZING["gpu"]: gpu,
            "Sizing!" + SIZING["serving_input"]: "disaggregated",
            "Sizing!" + SIZING["ep_input"]: "yes", f"Calibration!A{r}": model,
            f"Calibration!B{r}": prec, f"Calibration!C{r}": gpu, f"Calibration!D{r}": n,
            f"Calibration!E{r}": 16, f"Calibration!F{r}": 2000 + 300 / 2})
        assert sizing(v, "gpus") == n, name  # DeepSeek-V3: 5 needed, 8 deployed
        assert v["Calibration"][f"K{r}"] == pytest.approx(sizing(v, "step_ms"), rel=1e-12)
        assert v["Calibration"][f"O{r}"] == "enter a measurement (G or H)"
        assert v["Calibration"].get(f"N{r}") in (None, "")


def test_calibration_without_plausible_rows_uses_the_default(tmp):
    changes = {f"Calibration!G{CAL_FIRST + i}": 1 for i in range(len(CAL_CASES))}
    changes[f"Calibration!H{CAL_FIRST + 2}"] = 100000  # 0.01 ms: far below every floor
    changes[f"Calibration!G{CAL_FIRST + 2}"] = None
    v = variant(tmp, "nocal", changes)
    assert v["Calibration"][CAL_SUMMARY["efficiency"]] == 0.7  # EFF_DEFAULT
    assert v["Calibration"][CAL_SUMMARY["below"]] == 4
    # no measurement of the H100 counted: REGIME_EFFICIENCY of 2 GPUs at batch 16, and the
    # layers' time added (Llama 3.1 70B's 80 layers, config.json num_hidden_layers, × 65.8
    # µs, udfs/data/layer_time.csv)
    eff = calibrated_efficiency()
    assert sizing(v, "layer_used") == pytest.approx(LAYERS_70B_MS) == 80 * 65.8 / 1000
    assert sizing(v, "real_step_ms") == pytest.approx(sizing(v, "step_ms") / eff
                                                      + LAYERS_70B_MS)


def test_sizing_realistic_rows(default):
    eff = calibrated_efficiency()
    step = sizing(default, "step_ms")
    assert sizing(default, "calibrated") == pytest.approx(eff)
    # ESTIMATE: floor ÷ efficiency + the layers' time (no H100 measurement counted: 80
    # layers, config.json, × 65.8 µs, udfs/data/layer_time.csv, = 5.264 ms)
    assert sizing(default, "real_step_ms") == pytest.approx(step / eff + LAYERS_70B_MS)
    total = 1000 / (step / eff + LAYERS_70B_MS) * 16
    assert sizing(default, "real_tps_total") == pytest.approx(total)
    assert sizing(default, "real_tps_user") == pytest.approx(total / 16)
    # 2 H100 at 2.95 an hour, at 60 % utilization
    assert sizing(default, "real_cost_mtok") == pytest.approx(2.95 * 2 / (total * 3600 * 0.6)
                                                              * 1e6)
    assert sizing(default, "real_cost_mtok") > sizing(default, "cost_mtok")


# ------------------------------------------------------------------------ finance



def test_finance_bands_are_ordered_and_right(default):
    """Low cost / base / high cost: each column shows the inputs it is computed from."""
    v, F = default["Finance"], FINANCE
    eff = calibrated_efficiency()
    band = {k: [v[f"{c}{F[k]}"] for c in "BCD"] for k in
            ("eff", "util", "price_range", "ms_range", "tps_range", "gpus_range",
             "monthly_range", "cost_range")}
    for key in ("price_range", "ms_range", "gpus_range", "monthly_range", "cost_range"):
        lo, base, hi = band[key]
        assert lo <= base <= hi, (key, lo, base, hi)
    for key in ("eff", "util", "tps_range"):  # the favourable inputs are the larger ones
        lo, base, hi = band[key]
        assert lo >= base >= hi, (key, lo, base, hi)
    low = min(0.5, eff)  # EFF_LOW, widened to the base (0.471 < 0.5)
    assert band["eff"] == pytest.approx([0.9, eff, low])
    assert band["util"] == pytest.approx([0.8, 0.6, 0.4])
    assert band["price_range"] == pytest.approx([PRICE * 0.7, PRICE, PRICE * 1.7])
    # each column's step: floor ÷ its efficiency + the layers' time (80 layers × 65.8 µs:
    # no H100 measurement counted, so Sizing's layer_used, 5.264 ms)
    ms = [STEP / x + LAYERS_70B_MS for x in (0.9, eff, low)]
    assert band["ms_range"] == pytest.approx(ms)
    assert band["tps_range"] == pytest.approx([1000 / x for x in ms])
    assert band["cost_range"] == pytest.approx([
        headline(PRICE * 0.7, 0.9, 0.8),  # every input at its favourable end
        headline(PRICE, eff, 0.6),
        headline(PRICE * 1.7, low, 0.4)])  # ... at its unfavourable end
    # e.g. base: 14.0255 ms ÷ 0.471 + 80 × 65.8 µs = 29.778 + 5.264 = 35.042 ms a step,
    # 16 × 1000 ÷ 35.042 = 456.59 tokens/s a replica; ⌈2,314.8 ÷ (456.59 × 0.6)⌉ = ⌈8.45⌉
    # = 9 replicas of 2 H100 = 18 GPUs × 2.95 × 730.5 h = 38,789.55 a month
    assert STEP / eff + LAYERS_70B_MS == pytest.approx(35.042, abs=5e-4)
    assert math.ceil(100e6 / 86400 * 2 / (1000 / (STEP / eff + LAYERS_70B_MS) * BATCH
                                          * 0.6)) == 9
    assert band["gpus_range"][1] == 18
    assert band["monthly_range"][1] == pytest.approx(18 * PRICE * HOURS)
    assert band["monthly_range"][1] == pytest.approx(38789.55, abs=0.01)
    assert v[F["real_step_ms"]] == pytest.approx(STEP / eff + LAYERS_70B_MS)
    assert band["cost_range"][1] == pytest.approx(sizing(default, "headline"))


def test_finance_tornado_data_and_chart(default, book):
    v, F = default["Finance"], FINANCE
    eff = calibrated_efficiency()
    base = headline(PRICE, eff, 0.6)
    expected = {  # assumption: (cost at its low value, at its high value), others at base
        "Efficiency (Calibration)": (headline(PRICE, min(0.5, eff), 0.6),
                                     headline(PRICE, 0.9, 0.6)),
        "Utilization": (headline(PRICE, eff, 0.4), headline(PRICE, eff, 0.8)),
        "Price per GPU-hour": (headline(PRICE * 0.7, eff, 0.6),
                               headline(PRICE * 1.7, eff, 0.6)),
    }
    swings = {}
    for i, (name, (lo, hi)) in enumerate(expected.items()):
        r = F["tornado_first"] + i
        assert v[f"A{r}"] == name
        assert (v[f"D{r}"], v[f"E{r}"]) == pytest.approx((lo, hi))
        assert (v[f"F{r}"], v[f"G{r}"]) == pytest.approx((lo - base, hi - base))
        assert v[f"H{r}"] == pytest.approx(abs(hi - lo))
        swings[name] = abs(hi - lo)
    # price × 0.7 .. × 1.7 swings the cost by 1.0 × base: more than utilization 0.4..0.8
    # (⌈2,314.8 ÷ (456.59 × 0.4)⌉ = ⌈12.67⌉ = 13 replicas .. ⌈2,314.8 ÷ (456.59 × 0.8)⌉ =
    # ⌈6.34⌉ = 7: 6/9 of base) and efficiency 0.471..0.9 (9 .. 6 replicas: 14.0255 ÷ 0.9
    # + 5.264 = 20.848 ms, ⌈2,314.8 ÷ (767.5 × 0.6)⌉ = ⌈5.03⌉ = 6: 3/9)
    assert v[F["most"]] == max(swings, key=swings.get) == "Price per GPU-hour"
    assert v[F["base_cost"]] == pytest.approx(base)
    charts = book["Finance"]._charts
    assert len(charts) == 1
    chart = charts[0]
    assert chart.type == "bar" and len(chart.series) == 2  # low and high around the base
    first, last = F["tornado_first"], F["tornado_first"] + 2
    refs = [s.val.numRef.f for s in chart.series]
    assert refs == [f"'Finance'!$F${first}:$F${last}", f"'Finance'!$G${first}:$G${last}"]


def test_finance_against_hand_calculation(default):
    v, F = default["Finance"], FINANCE
    eff = calibrated_efficiency()
    assert (v[F["gpus"]], v[F["price"]], v[F["tdp"]]) == (2, PRICE, 700)
    # the first token (workbook.model.prefill): the prefill of 2,000 tokens on 2 H100 at
    # the FP8 roof, the causal attention counted (config.json: 80 layers, 64 heads × 128;
    # 2 L d T² as in kipply's "Transformer inference arithmetic"): (2 × 70.6e9 × 2,000 +
    # 2 × 80 × 8,192 × 2,000²) ÷ (1,978.9e12 × 2) = 72.68 ms, above the 70.2 GB it moves
    # ÷ 6.7 TB/s = 10.5 ms; + the all-reduces of the prompt's tokens, 160 × (2,000 × 8,192
    # × 2 B ÷ 450 GB/s + NCCL's 6.6 + 2 × 0.6 µs) = 12.90 ms; ÷ 0.8, + 80 layers × 65.8 µs
    # (udfs/data/layer_time.csv): 112.2 ms
    flop = 2 * 70.6e9 * 2000 + 2 * 80 * 64 * 128 * 2000**2
    comm = 160 * (2000 * 8192 * 2 / 450e9 * 1e3 + 0.0078)
    assert v[F["prefill_ms"]] == pytest.approx(
        (flop / (1978.9e12 * 2) * 1e3 + comm) / 0.8 + 80 * 65.8 / 1000)
    # input tokens: in aggregated serving (the default) the decode steps carry the
    # prompts' prefill, which the monthly bill pays: nothing on top; disaggregated, 2.95 /
    # 3600 per GPU-second × 2 × 70.6e9 ÷ (1,978.9e12 × 0.8) s per token × 1e6 ÷ 0.6
    # utilization (test_input_cost_when_prefill_runs_elsewhere)
    cin = 0.0
    cout = headline(PRICE, eff, 0.6)
    assert v[F["input_cost"]] == pytest.approx(cin)
    assert v[F["output_cost"]] == pytest.approx(cout)
    # the mix: the scenario's 2,000 prompt tokens per 300 output tokens (Sizing's defaults)
    mix = 2000 / 300
    assert v[F["ratio"]] == pytest.approx(mix)
    assert v[F["blended"]] == pytest.approx((mix * cin + 1 * cout) / (mix + 1))
    # owned: the H100 SXM's purchase price, 27,500 (workbook/data/gpu_prices.csv: the
    # midpoint of awesomeagents.ai's 2026 street price new, 25,000-30,000) ÷ (4 years ×
    # 8,766 h, Assumptions) + 0.7 kW (TDP, udfs/data/gpus.csv) × 1.3 PUE × 0.12 per kWh
    # (Assumptions) = 0.7843 + 0.1092
    assert v[F["purchase"]] == 27500
    owned = 27500 / (4 * 8766) + 0.7 * 1.3 * 0.12
    h = F["hourly"]
    assert (v[f"B{h}"], v[f"C{h}"]) == pytest.approx((PRICE, owned))
    assert v[f"C{F['capex_part']}"] == pytest.approx(27500 / (4 * 8766))
    assert v[f"C{F['energy_part']}"] == pytest.approx(0.7 * 1.3 * 0.12)
    assert v[f"C{F['in_cost']}"] == pytest.approx(cin * owned / PRICE)
    assert v[f"C{F['out_cost']}"] == pytest.approx(cout * owned / PRICE)
    assert v[f"C{F['mix_cost']}"] == pytest.approx((mix * cin + cout) / (mix + 1) * owned / PRICE)
    # demand: 100e6 tokens/day ÷ 86,400 × 2 (peak) ÷ (replica tokens/s × 0.6), rounded up;
    # the replica's step floor ÷ efficiency + the layers' time (80 layers × 65.8 µs)
    replica_tps = 1000 / (STEP / eff + LAYERS_70B_MS) * BATCH
    replicas = math.ceil(100e6 / 86400 * 2 / (replica_tps * 0.6))
    assert v[F["replica_tps"]] == pytest.approx(replica_tps)
    assert v[F["replicas"]] == replicas and v[F["gpus_total"]] == replicas * GPUS
    m = F["monthly"]
    rented, own = replicas * GPUS * PRICE * 730.5, replicas * GPUS * owned * 730.5
    assert (v[f"B{m}"], v[f"C{m}"]) == pytest.approx((rented, own))
    volume = 100e6 * 365.25 / 12 / 1e6  # output tokens, M a month (730.5 h)
    assert v[F["volume"]] == pytest.approx(volume)
    # the API's price per million output tokens with their prompts: Assumptions' example
    # 0.40 out + 2,000 ÷ 300 × 0.13 in (DeepInfra's Llama 3.1 70B Turbo list price)
    api = 0.40 + mix * 0.13
    assert v[F["api_price"]] == pytest.approx(api)
    # break-even: the monthly bill ÷ (the API's price − the prompts' prefill per output
    # token, mix × the input cost): BREAKEVEN_MTOK's marginal cost
    be = F["breakeven"]
    assert (v[f"B{be}"], v[f"C{be}"]) == pytest.approx(
        (rented / (api - mix * cin), own / (api - mix * cin * owned / PRICE)))
    assert v[F["api_bill"]] == pytest.approx(volume * api)
    cheaper = F["cheaper"]
    assert v[f"B{cheaper}"] == ("self-hosting" if volume > rented else "the API")
    assert v[f"C{cheaper}"] == ("self-hosting" if volume > own else "the API")


def test_input_cost_when_prefill_runs_elsewhere(tmp):
    """Disaggregated serving: the decode fleet's steps carry no prompts (Sizing's prompt
    share 0), and the prompts' prefill is a cost of its own, RESULT_INPUT_COST_PER_MTOK:
    2.95 ÷ 3,600 per GPU-second × 2 × 70.6e9 FLOPs ÷ (1,978.9e12 FP8 × 0.8 roof
    efficiency) a token × 1e6 ÷ 0.6 utilization = 0.1218 per million input tokens."""
    v = variant(tmp, "disaggregated", {"Sizing!" + SIZING["serving_input"]: "disaggregated"})
    assert sizing(v, "prefill_share") == 0
    cin = 2.95 / 3600 * (2 * 70.6e9 / (1978.9e12 * 0.8)) * 1e6 / 0.6
    assert cin == pytest.approx(0.1218, abs=5e-5)
    f, F = v["Finance"], FINANCE
    assert f[F["input_cost"]] == pytest.approx(cin)
    mix = 2000 / 300
    assert f[F["blended"]] == pytest.approx((mix * cin + f[F["output_cost"]]) / (mix + 1))
    assert f[f"A{F['cheaper'] + 2}"].startswith("Capacity is sized for decode at the peak; "
                                                "prefill of the prompts needs GPU time")


def test_finance_without_price_or_tdp_says_so(tmp):
    """AWS Trainium3: no price on the GPUs sheet and no TDP (AWS publishes none): text,
    never an error value."""
    v = variant(tmp, "trn3", {"Sizing!" + SIZING["gpu"]: "AWS Trainium3"})
    f = v["Finance"]
    assert f[FINANCE["price"]] == "no price" and f[FINANCE["tdp"]] == "no figure"
    assert f[f"C{FINANCE['cost_range']}"] == "no price"
    assert f[f"C{FINANCE['hourly']}"] == "no TDP figure"
    assert f[f"B{FINANCE['monthly']}"] == "no price"
    assert isinstance(f[FINANCE["prefill_ms"]], float)  # needs no price
    bad = [(s, c, x) for s in ("Finance", "Calibration", "Cost") for c, x in v[s].items()
           if isinstance(x, str) and x in ERRORS and f"{s}!{c}" not in CHART_GAPS]
    assert not bad
    assert v["Sizing"][SIZING["real_cost_mtok"]] == "no price"


def test_the_range_from_published_deployments(default):
    """Finance row 29 and Sizing's note: the headline with the realistic step × the low and
    × the high of its regime's out-of-sample range (udfs/data/estimate_range.csv, made
    leaving each measurement's source out), each a fleet for the peak and its bill."""
    from udfs.inference import regimes
    from workbook.estimate_range import RANGE_CELLS

    f, F = default["Finance"], FINANCE
    # the default: 2 H100 at batch 16, tensor parallel: more than 8 sequences on 2 GPUs
    assert f[RANGE_CELLS["regime"]] == "throughput_tp"
    span = regimes.estimate_range()["throughput_tp"]
    low, high = float(span["low"]), float(span["high"])
    assert (low, high) == (0.748, 1.463)  # 21 measurements, two cut at each end

    def _headline_at(step_ms):  # replicas for the peak at that step, their month ÷ tokens
        tps = 1000 / step_ms * BATCH
        replicas = math.ceil(TOKENS_PER_DAY / 86400 * PEAK / (tps * 0.6))
        return replicas * GPUS * PRICE * HOURS / (TOKENS_PER_DAY * HOURS / 24) * 1e6

    real = STEP / calibrated_efficiency() + LAYERS_70B_MS
    assert sizing(default, "real_step_ms") == pytest.approx(real)
    assert f[F["range_low"]] == pytest.approx(_headline_at(real * low))
    assert f[F["range_high"]] == pytest.approx(_headline_at(real * high))
    assert f[F["range_low"]] <= sizing(default, "headline") <= f[F["range_high"]]
    note = default["Sizing"]["C" + SIZING["headline"][1:]]
    assert note.startswith(f"range {round(f[F['range_low']], 2):g} to "
                           f"{round(f[F['range_high']], 2):g} (80 % of published")
