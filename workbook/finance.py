"""The Finance sheet: the Sizing case priced as finance models it."""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl import Workbook
from openpyxl.styles import Alignment

from workbook.estimate_range import RANGE_CELLS, range_row, unless_no_layout
from workbook.expr import Cell, Expr, Name, Num, Text, of, words
from workbook.expr import F as fx
from workbook.model import fleet
from workbook.model.bill import (
    cost_per_mtok,
    monthly_bill,
    priced,
)
from workbook.model.fleet import gpus_total, replica_tps, replicas
from workbook.model.gpu import NO_FIGURE, efficiency_says, figure, numbers_or
from workbook.model.serving import SERVING
from workbook.owned import rented_owned
from workbook.scenario import HEADLINE
from workbook.sheet import NO_TDP, Sheet, define_name
from workbook.sizing import SIZING
from workbook.tornado import TORNADO, tornado  # noqa: F401  (TORNADO: build names it)

#: Key cells of the Finance sheet (tests refer to them by name).
FINANCE = {
    # the case, from Sizing
    "model": "B6", "precision": "B7", "gpu": "B8", "gpus": "B9", "batch": "B10",
    "price": "B11", "params_b": "B12", "roof": "B13", "tdp": "B14", "step_ms": "B15",
    "calibrated": "B16", "real_step_ms": "B17",
    # ranges: low cost / base / high cost in B / C / D
    "eff": 21, "util": 22, "price_range": 23, "ms_range": 24, "tps_range": 25,
    "gpus_range": 26, "monthly_range": 27, "cost_range": 28,
    # the range from published deployments (workbook.estimate_range)
    "range_low": RANGE_CELLS["low"], "range_high": RANGE_CELLS["high"],
    # tornado rows 32..34 (A..H), "moves it most" B35
    "tornado_first": 32, "most": "B35", "base_cost": "B36",
    # input vs output
    "prompt": "B54", "prefill_ms": "B55", "input_cost": "B56", "output_cost": "B57",
    "ratio": "B58", "blended": "B59",
    # rented (B) vs owned (C)
    "hourly": 63, "capex_part": 64, "energy_part": 65, "in_cost": 66, "out_cost": 67,
    "mix_cost": 68, "purchase": "C69",
    # monthly budget from demand
    "tokens_day": "B71", "replica_tps": "B72", "replicas": "B73", "gpus_total": "B74",
    "volume": "B75", "monthly": 77,
    # break-even against an API
    "api_price": "B80", "api_bill": "B81", "capacity": "B82", "breakeven": 84, "within": 85,
    "cheaper": 86,
}
#: The defined names of Finance's figures that other sheets show (Plan) by name.
FINANCE_NAMES = {"RESULT_INPUT_COST_PER_MTOK": "input_cost",
                 "RESULT_BLENDED_COST_PER_MTOK": "blended", "API_PRICE": "api_price",
                 "RESULT_COST_PER_MTOK_LOW": "range_low",
                 "RESULT_COST_PER_MTOK_HIGH": "range_high"}



def sheet_finance(wb: Workbook) -> Sheet:
    """Finance: the Sizing case priced as finance models it.

    B6..B17   the scenario from Sizing: model, precision, GPU, GPUs per replica, batch,
              price in use, parameters active per token (the compute), compute roof, TDP
              (GPUs sheet), step floor, the efficiency found on Calibration, the realistic
              step (RESULT_ names)
    Rows 21..28 ranges, LOW COST / BASE / HIGH COST in B / C / D, each column computed from
              the inputs it shows: efficiency, utilization, price per GPU-hour
              (Assumptions' ends; low cost = the favourable ones), realistic ms/token
              (ESTIMATE), tokens/s per user, GPUs in total (GPUS_FOR_DEMAND), monthly cost,
              cost per million output tokens (the month's bill ÷ the month's tokens). Base
              is the scenario's headline (RESULT_ names), so low ≤ base ≤ high
    Rows 32..34 tornado data: the headline with one assumption at its low and at its high
              value, the others at base; change vs base; swing. B35 names the assumption
              that moves it most. Chart below (horizontal bars).
    Rows 54..59 input vs output tokens: PREFILL_MS for the prompt, INPUT_COST_PER_MTOK,
              output cost (realistic), the mix, BLENDED_COST_PER_MTOK
    Rows 63..69 rented (B) vs owned (C): cost per GPU-hour (OWNED_HOURLY_COST from the
              purchase price, years, TDP, PUE, kWh price; split into purchase and energy),
              cost per million input tokens (at the planned utilization), output tokens
              (the monthly cost ÷ the month's output tokens) and blended; C69 the purchase
              price per GPU: the GPUs sheet's for the scenario's GPU, else CAPEX
              (``workbook.owned``)
    Rows 71..77 monthly budget: the scenario's replicas and GPUs (Sizing), tokens a month,
              monthly cost rented (B77: RESULT_MONTHLY_COST) and owned (C77)
    Rows 80..86 break-even against an API: the API's price and bill, what the fleet can
              serve in the hours per month, BREAKEVEN_MTOK rented and owned, whether that
              volume is within the fleet's capacity, which is cheaper at your volume
    Hours per month are the hours the GPUs are rented and serving: the bill and the tokens
    a month both count them, so the verdict does not flip when they change.
    """
    s = Sheet(wb, "Finance", {"A": 44, "B": 26, "C": 26, "D": 34, "E": 16, "F": 14,
                              "G": 14, "H": 12, "I": 40})
    F = FINANCE
    s.title_rows("Finance: ranges, input vs output tokens, rented vs owned, budget, "
                 "break-even",
                 "For the model, precision and GPU chosen on Sizing. Realistic = floor ÷ the "
                 "efficiency + the layers' time, scaled to the GPU's measurements on "
                 "Calibration. Every default is an assumption: change it on the Assumptions "
                 "sheet.")
    s.put("A3", words("Money in ", CURRENCY, " (the scenario's label on Sizing; no "
                      "conversion)."), "note")
    sz = {k: f"Sizing!{v}" for k, v in SIZING.items()}
    _the_case(s, F, sz)
    c = _Case(s, F, sz["layer_used"])  # the layers' time, as Sizing's step takes it
    _ranges(c)
    range_row(s, F["gpus"], F["batch"], F["price"], sz["expert_parallel"])
    tornado(s, F, c.kernels)
    _input_output(c)
    rented_owned(s, F)
    _budget(c)
    _break_even(c)
    for name, key in FINANCE_NAMES.items():  # each figure named once, read by that name
        define_name(wb, name, s.title, "$" + F[key][0] + "$" + F[key][1:])
    return s


@dataclass(frozen=True)
class _Case:
    """What the blocks of Finance share: the sheet, its key cells, the layers' time."""

    s: Sheet
    F: dict
    kernels: str


#: The scenario's demand (defined names); the hours of a month and the currency.
TPD, PEAK = Name(fleet.TOKENS_DAY), Name(fleet.PEAK_TO_AVERAGE)
HOURS_PER_MONTH, CURRENCY = Name("HOURS_PER_MONTH"), Name("CURRENCY")


def _currency(text: str) -> Expr:
    """A label with the scenario's currency: ``text (CURRENCY)``."""
    return words(f"{text} (", CURRENCY, ")")


def _the_case(s: Sheet, F: dict, sz: dict) -> None:
    """Rows 5..17: the scenario from Sizing."""
    s.section(5, "The case (from Sizing)", "D")
    z = {k: Cell(v) for k, v in sz.items()}
    stages = Name("SCENARIO_PIPELINE_STAGES")
    case = [
        ("model", "Model", z["model"], None, None),
        ("precision", "Weight precision", z["precision"], None, None),
        ("gpu", "GPU", z["gpu"], None, None),
        ("gpus", "GPUs per replica (tensor parallel × stages)",
         Name("RESULT_GPUS_PER_REPLICA"), "gpus",
         words("at least ", z["gpus_needed"], " for weights + KV cache (Sizing)",
               fx.IF(stages.gt(1), words("; in ", stages, " pipeline stages"), Text("")))),
        ("batch", "Batch per replica", Name("RESULT_BATCH"), "seq", None),
        ("price", _currency("Rented price per GPU-hour"), Name("SCENARIO_PRICE_PER_GPU_HOUR"),
         "money", "the scenario's price in use: the GPUs sheet or the override on Sizing"),
        ("params_b", "Parameters active per token (compute)", z["active_b"],
         '#,##0.00 "billion"', "mixture of experts: the active ones; dense: all of them"),
        ("roof", "Compute roof, one GPU (datasheet)",
         numbers_or([z["roof_tflops"]], z["roof_tflops"], NO_FIGURE), "tflops",
         "FP8 roof for weights of 1 byte or less, else BF16 (as Sizing)"),
        ("tdp", "GPU power (TDP)", figure("GPU_TDP", z["gpu_row"]), '#,##0 "W"',
         "GPUs sheet, column J"),
        ("step_ms", "Decode step floor at the batch", Name("RESULT_FLOOR_STEP_MS"), "ms_token",
         "Sizing: DECODE_STEP_MS (KV cache, attention, weights, all-reduces) over the GPUs "
         "of a replica in its pipeline stages, ÷ tokens per step"),
        ("calibrated", "Efficiency used (the regime's ÷ Calibration's ratio)", z["calibrated"],
         "pct", efficiency_says(z["gpu"], z["regime_eff"])),
        ("real_step_ms", "Realistic decode step", Name("RESULT_STEP_MS"), "ms_token",
         "ESTIMATE(floor, efficiency, fixed) = floor ÷ efficiency + the layers' fixed time "
         "(Sizing: LAYER_OVERHEAD_MS × Calibration's ratio for the GPU, 1 without)"),
    ]
    for key, label, formula, fmt, note in case:
        s.line(F[key], label, formula, "result" if key == "real_step_ms" else "formula", fmt,
               note, note_col="C" if note is not None else None)


def _range_rows(c: _Case) -> list:
    """The rows of the ranges (``_ranges``): (row, label, low, base, high, format, how)."""
    F = c.F
    price, gpus, batch = Cell(F["price"]), Cell(F["gpus"]), Cell(F["batch"])
    step, kernels = Cell(F["step_ms"]), of(c.kernels)
    e, u, pr = F["eff"], F["util"], F["price_range"]
    ms, tps, cost = F["ms_range"], F["tps_range"], F["cost_range"]
    gr, mr = F["gpus_range"], F["monthly_range"]

    def at(col, r):
        return Cell(f"{col}{r}")

    def fleet_of(col):  # GPUs in total from the efficiency and utilization of column col
        return gpus_total(replicas(TPD, replica_tps(at(col, ms), batch), PEAK, at(col, u)),
                          gpus)

    def bill(col):
        return priced(at(col, pr), monthly_bill(at(col, gr), at(col, pr)))

    def unit(col):  # = the column's monthly cost ÷ the month's output tokens; the base's
        # words where the scenario has no layout that runs (Sizing's headline)
        return unless_no_layout(cost_per_mtok(at(col, pr), at(col, gr)))
    return [
        (e, "Efficiency (floor ÷ measured)", fx.MAX(Name("EFF_HIGH"), at("C", e)),
         Cell(F["calibrated"]), fx.MIN(Name("EFF_LOW"), at("C", e)), "pct",
         "Assumptions (high, low); base: Calibration, else the regime's (with the layers' "
         "time, Sizing)"),
        (u, "Utilization at the peak", fx.MAX(Name("UTIL_HIGH"), at("C", u)),
         Name(fleet.UTILIZATION), fx.MIN(Name("UTIL_LOW"), at("C", u)), "pct",
         "Assumptions (high, low); base: the scenario"),
        (pr, _currency("Price per GPU-hour"),
         priced(price, price * fx.MIN(Name("PRICE_LOW"), 1)), price,
         priced(price, price * fx.MAX(Name("PRICE_HIGH"), 1)), "money",
         "the price in use × the Assumptions' multiples"),
        (ms, "Realistic ms per token", fx.ESTIMATE(step, at("B", e), kernels),
         Name("RESULT_STEP_MS"), fx.ESTIMATE(step, at("D", e), kernels), "ms_token",
         "ESTIMATE(floor, the column's efficiency, the layers' time as Sizing's)"),
        (tps, "Realistic tokens/s per user", fx.TOKENS_PER_SEC(at("B", ms)),
         Name("RESULT_TOKENS_PER_SEC_PER_USER"), fx.TOKENS_PER_SEC(at("D", ms)), "tps",
         "TOKENS_PER_SEC(ms per token)"),
        (gr, "GPUs in total", fleet_of("B"), Name("RESULT_GPUS"), fleet_of("D"), "gpus",
         "GPUS_FOR_DEMAND(tokens/day, tokens/s per replica, peak-to-average, the column's "
         "utilization) × GPUs per replica"),
        (mr, _currency("Monthly cost"), bill("B"), Name("RESULT_MONTHLY_COST"), bill("D"),
         "money", "MONTHLY_COST(GPUs, the column's price, hours per month)"),
        (cost, _currency(HEADLINE), unit("B"), Name("RESULT_COST_PER_MTOK"), unit("D"),
         "money", "the column's monthly cost ÷ the month's output tokens; base: the headline "
         "(Sizing)"),
    ]


def _ranges(c: _Case) -> None:
    """Rows 21..28: low cost, base, high cost, each column from the inputs it shows."""
    s, F = c.s, c.F
    r0 = F["eff"] - 2
    s.section(r0, "Ranges, not points: each column computed from the inputs it shows", "E")
    s.header(r0 + 1, ["", "Low cost (favourable inputs)", "Base (the scenario)",
                      "High cost (cautious inputs)", "How"])
    results = (F["ms_range"], F["tps_range"], F["gpus_range"], F["monthly_range"],
               F["cost_range"])
    for r, label, lo, base, hi, fmt, how in _range_rows(c):
        s.put(f"A{r}", label)
        for col, f in zip("BCD", (lo, base, hi), strict=True):
            s.put(f"{col}{r}", f, "result" if r in results else "formula", fmt)
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
        s.put(f"E{r}", how, "note")
    for r, lo, hi in ((F["eff"], "EFF_LOW", "EFF_HIGH"), (F["util"], "UTIL_LOW", "UTIL_HIGH")):
        base = Cell(f"C{r}")
        s.put(f"E{r}", fx.IF(fx.AND(Name(lo).le(base), base.le(Name(hi))),
                             Text(s.ws[f"E{r}"].value),
                             Text("the base lies outside the range on Assumptions: the range "
                                  "is widened to include it, so low ≤ base ≤ high")), "note")


def _input_output(c: _Case) -> None:
    """Rows 54..59: input against output tokens."""
    s, F = c.s, c.F
    price, roof = Cell(F["price"]), Cell(F["roof"])
    i0 = int(F["prompt"][1:]) - 1
    s.section(i0, "Input vs output tokens: prompts are computed, outputs are read", "E")
    # aggregated serving: the decode steps carry the prompts' prefill, so the bill above
    # already pays for it (workbook.model.serving); counting it again would charge the
    # prompts twice
    input_cost = fx.IF(SERVING.eq(Text("disaggregated")), numbers_or(
        [roof, price], fx.INPUT_COST_PER_MTOK(price, Cell(F["params_b"]) * 1000000000, roof,
                                              Name("ROOF_EFFICIENCY"), Name("UTILIZATION")),
        "not available"), 0)
    ins, outs = Cell(F["input_cost"]), Cell(F["output_cost"])
    mix = [
        ("prompt", "Prompt length", Name("SCENARIO_PROMPT_TOKENS"), "tokens", "the scenario",
         "formula"),
        ("prefill_ms", "Prefill estimate for it (time to first token)",
         Name("RESULT_FIRST_TOKEN_MS"), "ms",
         "RESULT_FIRST_TOKEN_MS: the larger of PREFILL_MS, (2 × active params × prompt + "
         "2 × layers × heads × head dim × prompt², the causal attention) ÷ (roof × GPUs), "
         "and the weights and KV cache the prefill moves ÷ (bandwidth × GPUs), with the "
         "prompt's all-reduces, ÷ roof efficiency, + the layers' time: a long prompt's "
         "math sets it, a short one's weights read", "result"),
        ("input_cost", _currency("Cost per million input tokens, prefill at planned "
                                 "utilization"), input_cost, "money",
         "RESULT_INPUT_COST_PER_MTOK: disaggregated, INPUT_COST_PER_MTOK(price, active "
         "params, roof, roof efficiency, utilization), the prompts' prefill on GPUs of its "
         "own; aggregated (the default), 0: the decode fleet's bill already pays for it",
         "result"),
        ("output_cost", _currency(HEADLINE), Cell(f"C{F['cost_range']}"),
         "money", "the headline (base of the ranges above, as on Sizing and Cost): each decode "
         "step reads the weights (MoE: the experts the batch picks)",
         "formula"),
        ("ratio", "Input tokens per output token", Name("INPUT_PER_OUTPUT"), '0.0" : 1"',
         "the scenario's prompt ÷ output tokens (Sizing; Assumptions shows it)", "formula"),
        ("blended", _currency("Cost per million tokens, input and output blended at the mix"),
         numbers_or([ins, outs], fx.BLENDED_COST_PER_MTOK(ins, outs, Cell(F["ratio"]), 1),
                    "not available"),
         "money", "RESULT_BLENDED_COST_PER_MTOK = BLENDED_COST_PER_MTOK(input cost, output "
         "cost, input share, output share): the decode fleet's bill and the prompts' "
         "prefill, over all tokens (Plan shows it by this name)", "result"),
    ]
    for key, label, formula, fmt, note, style in mix:
        s.line(F[key], label, formula, style, fmt, note)


def _budget(c: _Case) -> None:
    """Rows 71..77: the monthly budget from demand."""
    s, F = c.s, c.F
    h, cp, en = F["hourly"], F["capex_part"], F["energy_part"]
    m0 = int(F["tokens_day"][1:]) - 1
    s.section(m0, "Monthly budget from demand (decode capacity for the peak)", "E")
    mo = F["monthly"]
    s.header(mo - 1, ["", _currency("Rented"), _currency("Owned"), "How"])
    budget = [
        ("tokens_day", "Output tokens per day", TPD, "tokens_day", "the scenario"),
        ("replica_tps", "Realistic tokens/s per replica",
         Name("RESULT_TOKENS_PER_SEC_PER_REPLICA"), "tps",
         "TOKENS_PER_SEC(realistic step) × batch (Sizing)"),
        ("replicas", "Replicas for the peak", Name("RESULT_REPLICAS"), '#,##0 "replica(s)"',
         "GPUS_FOR_DEMAND(tokens/day, tokens/s per replica, peak-to-average, utilization) "
         "(Sizing)"),
        ("gpus_total", "GPUs in total", Name("RESULT_GPUS"), "gpus",
         "replicas × GPUs per replica (Sizing)"),
        ("volume", "Output tokens a month",
         Name("TOKENS_PER_DAY") / 24 * HOURS_PER_MONTH / 1000000, '#,##0 "M tokens"',
         "output tokens/day ÷ 24 × hours per month: the traffic served in the hours the GPUs "
         "are rented, each with its INPUT_PER_OUTPUT prompt tokens"),
    ]
    for key, label, formula, fmt, how in budget:
        s.line(F[key], label, formula, "formula", fmt, how)
    s.put(f"A{mo}", "Monthly cost")
    s.put(f"B{mo}", Name("RESULT_MONTHLY_COST"), "result", "money")
    gpus = Cell(F["gpus_total"])
    s.put(f"C{mo}", numbers_or([Cell(f"C{h}")], monthly_bill(gpus, Cell(f"C{cp}"),
                                                              Num(8766) / 12)
                               + monthly_bill(gpus, Cell(f"C{en}"), HOURS_PER_MONTH),
                               NO_TDP), "result", "money")
    s.put(f"D{mo}", "MONTHLY_COST(GPUs, cost per GPU-hour, hours per month from "
                    "Assumptions); owned: the purchase every calendar month, energy for "
                    "the hours served", "note")
    for col in "BC":
        s.ws[f"{col}{mo}"].alignment = Alignment(horizontal="right")


def _break_even_cells(F: dict, col: str) -> dict[str, Expr]:
    """Column ``col``'s (B rented, C owned) break-even, whether it is within the fleet's
    capacity and which is cheaper at your volume."""
    b, cap = Cell(f"{col}{F['breakeven']}"), Cell(F["capacity"])
    api, never = Name("API_PRICE"), Text("never")
    prefill = Cell(f"{col}{F['in_cost']}")  # the prompts' prefill, a cost per output token
    marginal = fx.IF(fx.ISNUMBER(prefill), Name("INPUT_PER_OUTPUT") * prefill, 0)
    monthly = Cell(f"{col}{F['monthly']}")
    return {
        "within": fx.IF(fx.ISNUMBER(b), fx.IF(b.le(cap), Text("yes"), words(
            "no: more than this fleet can serve a month (What this fleet can serve, above), "
            "so the API stays cheaper")), fx.IF(b.eq(never), Text(
                "never: the API costs less than the prompts' prefill"), Text("not available"))),
        "breakeven": numbers_or([monthly], fx.IF(api.gt(marginal), fx.BREAKEVEN_MTOK(
            monthly, api, marginal), never), "not available"),
        "cheaper": fx.IF(fx.ISNUMBER(b), fx.IF(Cell(F["volume"]).gt(b), Text("self-hosting"),
                                               Text("the API")),
                         fx.IF(b.eq(never), Text("the API"), Text("not available"))),
    }


def _break_even(c: _Case) -> None:
    """Rows 80..88: break-even against an API."""
    s, F = c.s, c.F
    b0 = int(F["api_price"][1:]) - 1
    s.section(b0, "Break-even against an API", "E")
    be, within, cheaper = F["breakeven"], F["within"], F["cheaper"]
    s.header(be - 1, ["", "Rented", "Owned", "How"])
    s.line(F["api_price"], _currency("API price per million output tokens, their prompts "
                                     "included"),
           Name("API_OUTPUT_PRICE") + Name("INPUT_PER_OUTPUT") * Name("API_INPUT_PRICE"),
           "formula", "money", "API_PRICE: the output price + input per output × the input "
           "price (Assumptions): what the API charges for each output token with its prompt")
    s.line(F["capacity"], "What this fleet can serve, output tokens",
           Cell(F["replicas"]) * Cell(F["replica_tps"]) * Name("UTILIZATION") * 3600
           * HOURS_PER_MONTH / 1000000, "formula", '#,##0 "M tokens/month"',
           "replicas × realistic tokens/s per replica × utilization × the hours")
    s.put(f"A{be}", "Break-even volume")
    s.put(f"A{within}", "Break-even within what the fleet can serve?")
    for col in "BC":
        cells = _break_even_cells(F, col)
        s.put(f"{col}{within}", cells["within"], "result")
        s.ws[f"{col}{within}"].alignment = Alignment(horizontal="right", wrap_text=True,
                                                      vertical="top")
        s.put(f"{col}{be}", cells["breakeven"], "result", '#,##0 "M tokens/month"')
        s.put(f"{col}{cheaper}", cells["cheaper"], "result")
        for r in (be, cheaper):
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    s.put(f"D{be}", "BREAKEVEN_MTOK(monthly cost, API price, the prompts' prefill a token): "
                    "above it the GPUs are cheaper if they can serve it", "note")
    s.line(F["api_bill"], _currency("The API's bill at your volume"),
           Cell(F["volume"]) * Name("API_PRICE"), "formula", "money",
           "output tokens a month × API price (their prompts included), to compare with the "
           "monthly cost above and the prompts' prefill")
    s.put(f"A{cheaper}", "Cheaper at your volume")
    s.ws.row_dimensions[within].height = 56  # the "no: more than ..." sentence, four lines
    s.ws[f"A{within}"].alignment = Alignment(vertical="top", wrap_text=True)  # beside it
    s.put(f"A{cheaper + 2}", words(fx.IF(SERVING.eq(Text("disaggregated")), Text(
        "Capacity is sized for decode at the peak; prefill of the prompts needs GPU time on "
        "top (priced above as input tokens)."), Text(
        "Capacity is sized for decode at the peak, each step carrying the prompts' prefill "
        "(aggregated serving).")), " Owned assumes the GPUs are bought for this load alone."),
        "note")
