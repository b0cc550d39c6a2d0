"""The Finance sheet: the Sizing case priced as finance models it."""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference
from openpyxl.styles import Alignment

from udfs.constants import SECONDS_PER_DAY
from workbook.arrays import fill, fixed
from workbook.estimate_range import RANGE_CELLS, range_row
from workbook.model import fleet
from workbook.model.fleet import gpus_total, peak_replicas, replica_tps, replicas
from workbook.owned import rented_owned
from workbook.scenario import HEADLINE
from workbook.sheet import Sheet, define_name, efficiency_says, num_or
from workbook.sizing import SIZING

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
TORNADO = [  # label, assumption whose low and high are tried (the others at base)
    "Efficiency (Calibration)", "Utilization", "Price per GPU-hour",
]



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
    s.put("A3", '="Money in "&CURRENCY&" (the scenario\'s label on Sizing; no '
                'conversion)."', "note")
    sz = {k: f"Sizing!{v}" for k, v in SIZING.items()}
    _the_case(s, F, sz)
    c = _Case(s, F, sz["layer_used"])  # the layers' time, as Sizing's step takes it
    _ranges(c)
    range_row(s, F["gpus"], F["batch"], F["price"], sz["expert_parallel"])
    _tornado(c)
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


#: The scenario's demand and hours (defined names).
TPD, PEAK, HOURS = fleet.TOKENS_DAY, fleet.PEAK_TO_AVERAGE, fleet.HOURS


def _the_case(s: Sheet, F: dict, sz: dict) -> None:
    """Rows 5..17: the scenario from Sizing."""
    s.section(5, "The case (from Sizing)", "D")
    case = [
        ("model", "Model", f"={sz['model']}", None, None),
        ("precision", "Weight precision", f"={sz['precision']}", None, None),
        ("gpu", "GPU", f"={sz['gpu']}", None, None),
        ("gpus", "GPUs per replica (tensor parallel × stages)", "=RESULT_GPUS_PER_REPLICA",
         "gpus", f'="at least "&{sz["gpus_needed"]}&" for weights + KV cache (Sizing)"&IF('
         'SCENARIO_PIPELINE_STAGES>1,"; in "&SCENARIO_PIPELINE_STAGES&" pipeline stages","")'),
        ("batch", "Batch per replica", "=RESULT_BATCH", "seq", None),
        ("price", '="Rented price per GPU-hour ("&CURRENCY&")"',
         "=SCENARIO_PRICE_PER_GPU_HOUR", "money",
         "the scenario's price in use: the GPUs sheet or the override on Sizing"),
        ("params_b", "Parameters active per token (compute)", f"={sz['active_b']}",
         '#,##0.00 "billion"', "mixture of experts: the active ones; dense: all of them"),
        ("roof", "Compute roof, one GPU (datasheet)",
         f'=IF(ISNUMBER({sz["roof_tflops"]}),{sz["roof_tflops"]},"no figure")', "tflops",
         "FP8 roof for weights of 1 byte or less, else BF16 (as Sizing)"),
        ("tdp", "GPU power (TDP)", f'=IF(ISNUMBER(INDEX(GPU_TDP,{sz["gpu_row"]})),'
         f'INDEX(GPU_TDP,{sz["gpu_row"]}),"no figure")', '#,##0 "W"', "GPUs sheet, column J"),
        ("step_ms", "Decode step floor at the batch", "=RESULT_FLOOR_STEP_MS", "ms_token",
         "Sizing: DECODE_STEP_MS (KV cache, attention, weights, all-reduces) over the GPUs "
         "of a replica in its pipeline stages, ÷ tokens per step"),
        ("calibrated", "Efficiency used (the regime's ÷ Calibration's ratio)",
         f"={sz['calibrated']}", "pct",
         f"={efficiency_says(sz['gpu'], sz['regime_eff'])}"),
        ("real_step_ms", "Realistic decode step", "=RESULT_STEP_MS", "ms_token",
         "ESTIMATE(floor, efficiency, fixed) = floor ÷ efficiency + the layers' fixed time "
         "(Sizing: LAYER_OVERHEAD_MS × Calibration's ratio for the GPU, 1 without)"),
    ]
    for key, label, formula, fmt, note in case:
        s.line(F[key], label, formula, "result" if key == "real_step_ms" else "formula", fmt,
               note, note_col="C" if note else None)


def _ranges(c: _Case) -> None:
    """Rows 21..28: low cost, base, high cost, each column from the inputs it shows."""
    s, F = c.s, c.F
    price, gpus, batch, step, kernels = F["price"], F["gpus"], F["batch"], F["step_ms"], c.kernels
    r0 = F["eff"] - 2
    s.section(r0, "Ranges, not points: each column computed from the inputs it shows", "E")
    s.header(r0 + 1, ["", "Low cost (favourable inputs)", "Base (the scenario)",
                      "High cost (cautious inputs)", "How"])
    e, u, pr = F["eff"], F["util"], F["price_range"]
    ms, tps, cost = F["ms_range"], F["tps_range"], F["cost_range"]
    gr, mr = F["gpus_range"], F["monthly_range"]

    def fleet(col):  # GPUs in total from the efficiency and utilization of column col
        fleet_tps = replica_tps(f"{col}{ms}", batch)
        return gpus_total(replicas(TPD, fleet_tps, PEAK, f"{col}{u}"), gpus).formula()

    def bill(col):
        return num_or([f"{col}{pr}"], f"MONTHLY_COST({col}{gr},{col}{pr},{HOURS})",
                      "no price")

    def unit(col):  # = the column's monthly cost ÷ the month's output tokens
        return (f'=IF(ISNUMBER({col}{pr}),IF({TPD}>0,COST_PER_MTOK({col}{pr},{TPD}/'
                f'{SECONDS_PER_DAY:g},{col}{gr}),"no traffic"),"no price")')
    rows = [
        (e, "Efficiency (floor ÷ measured)", f"=MAX(EFF_HIGH,C{e})", f"={F['calibrated']}",
         f"=MIN(EFF_LOW,C{e})", "pct", "Assumptions (high, low); base: Calibration, else "
         "the regime's (with the layers' time, Sizing)"),
        (u, "Utilization at the peak", f"=MAX(UTIL_HIGH,C{u})", "=SCENARIO_UTILIZATION",
         f"=MIN(UTIL_LOW,C{u})", "pct", "Assumptions (high, low); base: the scenario"),
        (pr, '="Price per GPU-hour ("&CURRENCY&")"',
         num_or([price], f"{price}*MIN(PRICE_LOW,1)", "no price"), f"={price}",
         num_or([price], f"{price}*MAX(PRICE_HIGH,1)", "no price"), "money",
         "the price in use × the Assumptions' multiples"),
        (ms, "Realistic ms per token", f"=ESTIMATE({step},B{e},{kernels})", "=RESULT_STEP_MS",
         f"=ESTIMATE({step},D{e},{kernels})", "ms_token",
         "ESTIMATE(floor, the column's efficiency, the layers' time as Sizing's)"),
        (tps, "Realistic tokens/s per user", f"=TOKENS_PER_SEC(B{ms})",
         "=RESULT_TOKENS_PER_SEC_PER_USER", f"=TOKENS_PER_SEC(D{ms})", "tps",
         "TOKENS_PER_SEC(ms per token)"),
        (gr, "GPUs in total", fleet("B"), "=RESULT_GPUS", fleet("D"), "gpus",
         "GPUS_FOR_DEMAND(tokens/day, tokens/s per replica, peak-to-average, the column's "
         "utilization) × GPUs per replica"),
        (mr, '="Monthly cost ("&CURRENCY&")"', bill("B"), "=RESULT_MONTHLY_COST", bill("D"),
         "money", "MONTHLY_COST(GPUs, the column's price, hours per month)"),
        (cost, f'="{HEADLINE} ("&CURRENCY&")"', unit("B"), "=RESULT_COST_PER_MTOK",
         unit("D"), "money", "the column's monthly cost ÷ the month's output tokens; base: "
         "the headline (Sizing)"),
    ]
    for r, label, lo, base, hi, fmt, how in rows:
        s.put(f"A{r}", label)
        result = r in (ms, tps, gr, mr, cost)
        for col, f in zip("BCD", (lo, base, hi), strict=True):
            s.put(f"{col}{r}", f, "result" if result else "formula", fmt)
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
        s.put(f"E{r}", how, "note")
    for r, lo, hi in ((e, "EFF_LOW", "EFF_HIGH"), (u, "UTIL_LOW", "UTIL_HIGH")):
        s.put(f"E{r}", f'=IF(AND({lo}<=C{r},C{r}<={hi}),"{s.ws[f"E{r}"].value}",'
                       f'"the base lies outside the range on Assumptions: the range is '
                       f'widened to include it, so low ≤ base ≤ high")', "note")



def _tornado(c: _Case) -> None:
    """Rows 32..35 and the chart: the headline with one assumption at each end."""
    s, F = c.s, c.F
    gpus, batch, step, kernels = F["gpus"], F["batch"], F["step_ms"], c.kernels
    e, u, pr, cost = F["eff"], F["util"], F["price_range"], F["cost_range"]
    t0 = F["tornado_first"]
    s.section(t0 - 2, "Tornado: which assumption moves the cost per million output tokens "
                      "most (the others at base)", "H")
    s.header(t0 - 1, ["Assumption", "Low value", "High value", "Cost at the low value",
                      "Cost at the high value", "Low value: change vs base",
                      "High value: change vs base", "Swing"], height=45)
    base_cost = f"$C${cost}"

    # the headline with one input changed
    def at(p, m, util, step=step, batch=batch, gpus=gpus, kernels=kernels):
        fleet_at = gpus_total(peak_replicas(TPD, replica_tps(
            f"ESTIMATE({step},{m},{kernels})", batch), PEAK, util), gpus).render()
        return (f'=IF(ISNUMBER({p}),IF({TPD}>0,MONTHLY_COST({fleet_at},{p},{HOURS})/({TPD}*'
                f'{HOURS}/24)*1000000,"no traffic"),"no price")')
    cases = [  # (low value, high value, cost at low, cost at high), fmt of the values
        (f"=D{e}", f"=B{e}", at(f"C{pr}", f"D{e}", f"C{u}"), at(f"C{pr}", f"B{e}", f"C{u}"),
         "pct"),
        (f"=D{u}", f"=B{u}", at(f"C{pr}", f"C{e}", f"D{u}"), at(f"C{pr}", f"C{e}", f"B{u}"),
         "pct"),
        (f"=B{pr}", f"=D{pr}", at(f"B{pr}", f"C{e}", f"C{u}"), at(f"D{pr}", f"C{e}", f"C{u}"),
         "money"),
    ]
    for i, (label, (lo, hi, c_lo, c_hi, fmt)) in enumerate(zip(TORNADO, cases, strict=True)):
        r = t0 + i
        s.put(f"A{r}", label)
        s.put(f"B{r}", lo, "formula", fmt)
        s.put(f"C{r}", hi, "formula", fmt)
        s.put(f"D{r}", c_lo, "result", "money")
        s.put(f"E{r}", c_hi, "result", "money")
        s.put(f"F{r}", num_or([f"D{r}"], f"D{r}-{base_cost}", "no price"), "formula",
              '+#,##0.00;-#,##0.00;0.00')
        s.put(f"G{r}", num_or([f"E{r}"], f"E{r}-{base_cost}", "no price"), "formula",
              '+#,##0.00;-#,##0.00;0.00')
        # rounded: swings that tie (whole GPUs) tie in every engine, the first one named
        s.put(f"H{r}", num_or([f"D{r}", f"E{r}"], f"ROUND(MAX(D{r},E{r})-MIN(D{r},E{r}),6)",
                               "no price"), "formula", "money")
        for col in "BCDEFGH":
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    tl = t0 + len(TORNADO) - 1
    # the costs as one array formula: each row changes its own input to the values in B:C
    which = {key: f'IF($A{t0}="{label}",B{t0},{base})' for key, label, base in (
        ("m", TORNADO[0], f"$C${e}"), ("util", TORNADO[1], f"$C${u}"),
        ("p", TORNADO[2], f"$C${pr}"))}
    fill(s.ws, f"D{t0}:E{tl}", at(which["p"], which["m"], which["util"], fixed(step),
                                  fixed(batch), fixed(gpus), fixed(kernels)), keep=True)
    s.put(f"A{F['most'][1:]}", "Moves it most")
    s.put(F["most"], num_or([f"H{t0}"], f"INDEX(A{t0}:A{tl},MATCH(MAX(H{t0}:H{tl}),"
                                         f"H{t0}:H{tl},0))", "no price"), "result")
    s.put(f"A{F['base_cost'][1:]}", f'="{HEADLINE} (base, "&CURRENCY&")"')
    s.put(F["base_cost"], f"={base_cost}", "formula", "money")
    s.put(f"C{F['base_cost'][1:]}", "the zero line of the chart: every assumption at base",
          "note")
    _tornado_chart(s, t0, tl)



def _input_output(c: _Case) -> None:
    """Rows 54..59: input against output tokens."""
    s, F = c.s, c.F
    price, cost = F["price"], F["cost_range"]
    i0 = int(F["prompt"][1:]) - 1
    s.section(i0, "Input vs output tokens: prompts are computed, outputs are read", "E")
    p = f"{F['params_b']}*1000000000"
    roof = F["roof"]
    mix = [
        ("prompt", "Prompt length", "=SCENARIO_PROMPT_TOKENS", "tokens", "the scenario",
         "formula"),
        ("prefill_ms", "Prefill estimate for it (time to first token)",
         "=RESULT_FIRST_TOKEN_MS", "ms",
         "PREFILL_MS: (2 × active params × prompt + 2 × layers × heads × head dim × "
         "prompt², the causal attention) ÷ (roof × roof efficiency × GPUs); the whole "
         "prompt is one big batch, so compute, not bandwidth, sets it", "result"),
        ("input_cost", '="Cost per million input tokens, prefill at planned utilization ("'
         '&CURRENCY&")"',
         # aggregated serving: the decode steps carry the prompts' prefill, so the bill
         # above already pays for it (workbook.model.serving); counting it again would
         # charge the prompts twice
         '=IF(SCENARIO_SERVING="disaggregated",'
         + num_or([roof, price], f"INPUT_COST_PER_MTOK({price},{p},{roof},ROOF_EFFICIENCY,"
                  "UTILIZATION)", "not available")[1:] + ",0)", "money",
         "RESULT_INPUT_COST_PER_MTOK: disaggregated, INPUT_COST_PER_MTOK(price, active "
         "params, roof, roof efficiency, utilization), the prompts' prefill on GPUs of its "
         "own; aggregated (the default), 0: the decode fleet's bill already pays for it",
         "result"),
        ("output_cost", f'="{HEADLINE} ("&CURRENCY&")"', f"=C{cost}",
         "money", "the headline (base of the ranges above, as on Sizing and Cost): each decode "
         "step reads the weights (MoE: the experts the batch picks)",
         "formula"),
        ("ratio", "Input tokens per output token", "=INPUT_PER_OUTPUT", '0.0" : 1"',
         "the scenario's prompt ÷ output tokens (Sizing; Assumptions shows it)", "formula"),
        ("blended", '="Cost per million tokens, input and output blended at the mix ("'
         '&CURRENCY&")"',
         num_or([F["input_cost"], F["output_cost"]], f"BLENDED_COST_PER_MTOK("
                 f"{F['input_cost']},{F['output_cost']},{F['ratio']},1)", "not available"),
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
    s.header(mo - 1, ["", '="Rented ("&CURRENCY&")"', '="Owned ("&CURRENCY&")"', "How"])
    budget = [
        ("tokens_day", "Output tokens per day", f"={TPD}", "tokens_day", "the scenario"),
        ("replica_tps", "Realistic tokens/s per replica", "=RESULT_TOKENS_PER_SEC_PER_REPLICA",
         "tps", "TOKENS_PER_SEC(realistic step) × batch (Sizing)"),
        ("replicas", "Replicas for the peak", "=RESULT_REPLICAS", '#,##0 "replica(s)"',
         "GPUS_FOR_DEMAND(tokens/day, tokens/s per replica, peak-to-average, utilization) "
         "(Sizing)"),
        ("gpus_total", "GPUs in total", "=RESULT_GPUS", "gpus",
         "replicas × GPUs per replica (Sizing)"),
        ("volume", "Output tokens a month", "=TOKENS_PER_DAY/24*HOURS_PER_MONTH/1000000",
         '#,##0 "M tokens"', "output tokens/day ÷ 24 × hours per month: the traffic served "
         "in the hours the GPUs are rented, each with its INPUT_PER_OUTPUT prompt tokens"),
    ]
    for key, label, formula, fmt, how in budget:
        s.line(F[key], label, formula, "formula", fmt, how)
    s.put(f"A{mo}", "Monthly cost")
    s.put(f"B{mo}", "=RESULT_MONTHLY_COST", "result", "money")
    s.put(f"C{mo}", num_or([f"C{h}"], f"MONTHLY_COST({F['gpus_total']},C{cp},8766/12)+"
                            f"MONTHLY_COST({F['gpus_total']},C{en},HOURS_PER_MONTH)",
                            "no TDP figure"), "result", "money")
    s.put(f"D{mo}", "MONTHLY_COST(GPUs, cost per GPU-hour, hours per month from "
                        "Assumptions); owned: the purchase every calendar month, energy for "
                        "the hours served", "note")
    for col in "BC":
        s.ws[f"{col}{mo}"].alignment = Alignment(horizontal="right")



def _break_even(c: _Case) -> None:
    """Rows 80..88: break-even against an API."""
    s, F = c.s, c.F
    mo = F["monthly"]
    b0 = int(F["api_price"][1:]) - 1
    s.section(b0, "Break-even against an API", "E")
    be, cheaper = F["breakeven"], F["cheaper"]
    s.header(be - 1, ["", "Rented", "Owned", "How"])
    s.line(F["api_price"], '="API price per million output tokens, their prompts included ("'
           '&CURRENCY&")"', "=API_OUTPUT_PRICE+INPUT_PER_OUTPUT*API_INPUT_PRICE", "formula",
           "money", "API_PRICE: the output price + input per output × the input price "
           "(Assumptions): what the API charges for each output token with its prompt")
    cap = F["capacity"]
    s.line(cap, "What this fleet can serve, output tokens",
           f"={F['replicas']}*{F['replica_tps']}*UTILIZATION*3600*HOURS_PER_MONTH/1000000",
           "formula", '#,##0 "M tokens/month"',
           "replicas × realistic tokens/s per replica × utilization × the hours")
    s.put(f"A{be}", "Break-even volume")
    within = F["within"]
    s.put(f"A{within}", "Break-even within what the fleet can serve?")
    for col in "BC":
        b = f"{col}{be}"
        never = f'IF({b}="never","never: the API costs less than the prompts\' prefill",' \
                '"not available")'
        s.put(f"{col}{within}", f'=IF(ISNUMBER({b}),IF({b}<={cap},"yes","no: more than this '
                                f'fleet can serve a month (What this fleet can serve, above), '
                                f'so the API stays cheaper"),{never})', "result")
        s.ws[f"{col}{within}"].alignment = Alignment(horizontal="right", wrap_text=True,
                                                      vertical="top")
        prefill = f"{col}{F['in_cost']}"  # the prompts' prefill, a cost per output token
        marginal = f"IF(ISNUMBER({prefill}),INPUT_PER_OUTPUT*{prefill},0)"
        s.put(b, num_or([f"{col}{mo}"], f"IF(API_PRICE>{marginal},BREAKEVEN_MTOK({col}{mo},"
                        f'API_PRICE,{marginal}),"never")', "not available"), "result",
              '#,##0 "M tokens/month"')
        s.put(f"{col}{cheaper}", f'=IF(ISNUMBER({b}),IF({F["volume"]}>{b},"self-hosting",'
                                 f'"the API"),IF({b}="never","the API","not available"))',
              "result")
        for r in (be, cheaper):
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    s.put(f"D{be}", "BREAKEVEN_MTOK(monthly cost, API price, the prompts' prefill a token): "
                    "above it the GPUs are cheaper if they can serve it", "note")
    s.line(F["api_bill"], '="The API\'s bill at your volume ("&CURRENCY&")"',
           f"={F['volume']}*API_PRICE", "formula", "money",
           "output tokens a month × API price (their prompts included), to compare with the "
           "monthly cost above and the prompts' prefill")
    s.put(f"A{cheaper}", "Cheaper at your volume")
    s.ws.row_dimensions[within].height = 56  # the "no: above ..." sentence, four lines
    s.ws[f"A{within}"].alignment = Alignment(vertical="top", wrap_text=True)  # beside it
    s.put(f"A{cheaper + 2}", '=IF(SCENARIO_SERVING="disaggregated","Capacity is sized for '
                             'decode at the peak; prefill of the prompts needs GPU time on '
                             'top (priced above as input tokens).","Capacity is sized for '
                             'decode at the peak, each step carrying the prompts\' prefill '
                             '(aggregated serving).")&" Owned assumes the GPUs are bought '
                             'for this load alone."', "note")


def _tornado_chart(s: Sheet, first: int, last: int):
    """Horizontal bars around the base cost: one assumption at its low value (one series)
    and at its high value (the other), read from the tornado table's change columns."""
    chart = BarChart()
    chart.type = "bar"
    chart.grouping = "clustered"
    chart.overlap = 100
    chart.gapWidth = 40
    chart.title = "Cost per million output tokens: change vs base"
    chart.style = 2
    chart.height, chart.width = 7.5, 22
    ws = s.ws
    data = Reference(ws, min_col=6, max_col=7, min_row=first - 1, max_row=last)
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=1, min_row=first, max_row=last))
    for ser, color in zip(chart.series, ("9DC3E6", "C55A11"), strict=True):
        ser.graphicalProperties.solidFill = color
        ser.graphicalProperties.line.solidFill = color
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.x_axis.tickLblPos = "low"
    chart.y_axis.number_format = "+#,##0.00;-#,##0.00;0"
    chart.y_axis.majorGridlines = None
    chart.y_axis.title = "change vs base, currency per million output tokens"
    chart.legend.position = "b"
    ws.add_chart(chart, f"A{last + 4}")

