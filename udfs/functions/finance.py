"""Excel functions of ``udfs.inference.finance``: calibration, input vs output cost, owned vs
rented, demand and break-even."""

from __future__ import annotations

from ..inference import finance, model_reads
from ..inference.constants import HOURS_PER_MONTH, HOURS_PER_YEAR, SECONDS_PER_DAY, SECONDS_PER_HOUR
from ..machinery.args import AT_LEAST_ONE, NONNEGATIVE, POSITIVE, Arg
from ..machinery.broadcast import TEXT
from ..machinery.declare import OMIT, ByName, declare, param, table
from ..machinery.explain import above_one, num, plural, q
from .common import (
    D_FLOOR,
    D_HOURLY,
    D_MEASURED,
    D_MODELS,
    D_PARAMS,
    D_PEAK,
    D_UTIL,
    EFFICIENCY,
    FLOOR_MS,
    HOURLY,
    MEASURED_MS,
    PARAMS,
    PEAK,
    UTILIZATION,
)

# Calibration ----------------------------------------------------------------------------
TOKENS_PER_STEP = Arg("tokens_per_step", None, AT_LEAST_ONE)
D_TOKENS_PER_STEP = ("Optional. Tokens each step yields (speculative decoding: "
                     "SPEC_TOKENS_PER_STEP); the floor per token is floor ÷ this. Default 1.")


def _per_step(w):
    """" ÷ τ tokens per step" when τ is not 1."""
    return "" if w.tokens_per_step == 1 else f" ÷ {num(w.tokens_per_step)} tokens per step"


declare(
    "CALIBRATE",
    "Efficiency from a measurement = floor ÷ tokens per step ÷ measured (0.7: real time is 1/0.7 × the floor). Above 1 the measurement beat the floor: an assumption is wrong. CALIBRATE(4.79,6.2) = 0.773.",  # noqa: E501
    param(FLOOR_MS, D_FLOOR),
    param(MEASURED_MS, D_MEASURED),
    param(TOKENS_PER_STEP, D_TOKENS_PER_STEP, default=1),
    formula=finance.efficiency,
    explain=lambda w: (f"floor {q(w.floor_ms, 'ms')}{_per_step(w)} ÷ measured "
                       f"{q(w.measured_ms, 'ms')} = {num(w.result)}{above_one(w.result)}"),
    example=("=CALIBRATE(4.79,6.2)", "0.7726"),
    summary="efficiency = floor ÷ tokens per step ÷ measured",
    native='{floor_ms}/{tokens_per_step}/{measured_ms}',
    native_result="positive",
)

declare(
    "ESTIMATE",
    "Realistic time per token = floor ÷ efficiency + fixed time (LAYER_OVERHEAD_MS without measurements; 0 with a calibrated efficiency), in ms. ESTIMATE(4.79,0.8) = 5.99.",  # noqa: E501
    param(FLOOR_MS, D_FLOOR),
    param(EFFICIENCY, "Efficiency found by CALIBRATE (or assumed), >0 to 1."),
    param(Arg("fixed_ms", "ms", NONNEGATIVE),
          "Optional. Time added whatever the floor, in ms: the layers' kernels (LAYER_OVERHEAD_MS) with a regime's efficiency; 0 with CALIBRATE's, which holds it. Default 0.",  # noqa: E501
          default=0),
    formula=finance.estimate_ms,
    explain=lambda w: (f"floor {q(w.floor_ms, 'ms')} ÷ efficiency {num(w.efficiency)}"
                       + (f" + fixed {q(w.fixed_ms, 'ms')}" if w.fixed_ms else "")
                       + f" = {q(w.result, 'ms')}"),
    example=("=ESTIMATE(4.79,0.8)", "5.9875"),
    summary="floor ÷ efficiency + fixed time, ms",
    native='{floor_ms}/{efficiency}+{fixed_ms}',
    native_result="positive",
)

declare(
    "PLAUSIBLE",
    "\"plausible\" when a measurement is at or above its floor ÷ tokens per step; \"below the floor: an assumption is wrong\" otherwise.",  # noqa: E501
    param(FLOOR_MS, D_FLOOR),
    param(MEASURED_MS, D_MEASURED),
    param(TOKENS_PER_STEP, D_TOKENS_PER_STEP, default=1),
    formula=finance.plausibility,
    result=TEXT,
    explain=lambda w: (f"measured {q(w.measured_ms, 'ms')} "
                       f"{'≥' if w.measured_ms >= w.floor_ms / w.tokens_per_step else '<'} "
                       f"floor {q(w.floor_ms, 'ms')}{_per_step(w)}: {w.result}"),
    example=("=PLAUSIBLE(4.79,4)", "below the floor: an assumption is wrong"),
    native='IF({measured_ms}>={floor_ms}/{tokens_per_step},"plausible","below the floor: an assumption is wrong")',  # noqa: E501
)


# Input vs output tokens -----------------------------------------------------------------
def _prefill(w):
    if w.layers is None:
        return (f"2 × {num(w.params)} × {num(w.prompt_tokens)} tokens ÷ "
                f"({q(w.peak_flops, 'TFLOPS')} × {num(w.efficiency)}) = {q(w.result, 'ms')} "
                "(weights only: give layers and attn_dim to count attention)")
    weights = 2 * w.params * w.prompt_tokens
    att = finance.prefill_attention_flop(w.layers, w.attn_dim, w.prompt_tokens)
    share = att / (weights + att) if weights + att else 0.0
    return (f"(2 × {num(w.params)} × {num(w.prompt_tokens)} tokens + 2 × {num(w.layers)} "
            f"layers × {num(w.attn_dim)} × {num(w.prompt_tokens)}²) ÷ "
            f"({q(w.peak_flops, 'TFLOPS')} × {num(w.efficiency)}) = ({num(weights)} + "
            f"{num(att)} FLOP) ÷ {q(w.peak_flops * w.efficiency, 'TFLOPS')} = "
            f"{q(w.result, 'ms')} (attention {share:.0%} of the work)")


def _prefill_args(params, models):
    return (model_reads.prefill_args(params, models),)


declare(
    "PREFILL_MS",
    "Prefill time estimate at the compute roof = (2 × params × tokens + 2 × layers × attn_dim × tokens²) ÷ (peak × efficiency), in ms; attention counted when layers and attn_dim are given. PREFILL_MS(\"8.03B\",2000,989) = 32.5.",  # noqa: E501
    param(PARAMS, "Parameters active per token (an MoE model's active count): 8.03E+9 or '8.03B'; or a model name ('Llama 3.1 8B'): its active parameters."),  # noqa: E501
    param(Arg("prompt_tokens", "token", NONNEGATIVE),
          "Prompt length in tokens (a number or text such as '32k tokens')."),
    param(PEAK, D_PEAK),
    param(EFFICIENCY, "Optional. Share of peak reached, >0 to 1. Default 1 (the roof).",
          default=1),
    param(Arg("layers", None, NONNEGATIVE, whole=True),
          "Optional. Layers of the model: with attn_dim, counts attention over the causal context.",
          default=OMIT),
    param(Arg("attn_dim", None, NONNEGATIVE, whole=True),
          "Optional. Query heads × head_dim (MODEL_SPEC heads × head_dim), with layers.",
          default=OMIT),
    table("models", D_MODELS),
    formula=finance.prefill_ms,
    together=(("layers", "attn_dim"),),
    by_name=ByName("params", ("params", "models"), ("params",), _prefill_args,
                   model_reads.describe_prefill, model_reads.names_in),
    explain=_prefill,
    example=('=PREFILL_MS("8.03B",32768,989,1,32,4096)', "816.71"),
    summary="an estimate; attention counted with layers and attn_dim",
    native={
        ():
            '(2*{params}*{prompt_tokens}+2*{layers}*{attn_dim}*{prompt_tokens}^2)/({peak_flops}*1E12*{efficiency})*1000',
        ('layers', 'attn_dim'):
            '2*{params}*{prompt_tokens}/({peak_flops}*1E12*{efficiency})*1000',
    },
    native_result="nonnegative",
    native_note=("A model name as params: its active parameters, as for DECODE_FLOOR. A models "
                 "range is not translated."),
)


def _input_cost(w):
    s = finance.seconds_per_input_token(w.params, w.peak_flops, w.efficiency)
    return (f"{num(w.gpu_hourly_cost)} ÷ {SECONDS_PER_HOUR:g} s × (2 × {num(w.params)} ÷ "
            f"({q(w.peak_flops, 'TFLOPS')} × {num(w.efficiency)}) = {num(s)} s per token) × "
            f"1e6 ÷ {num(w.utilization)} = {num(w.result)} per million input tokens")


declare(
    "INPUT_COST_PER_MTOK",
    f"Cost per million input (prompt) tokens, prefill on the compute roof = hourly ÷ {SECONDS_PER_HOUR:g} × 2 × params ÷ (peak × efficiency) × 10^6 ÷ utilization.",  # noqa: E501
    param(HOURLY, D_HOURLY),
    param(PARAMS, D_PARAMS),
    param(PEAK, D_PEAK),
    param(EFFICIENCY, "Optional. Share of peak reached in prefill, >0 to 1. Default 1.",
          default=1),
    param(UTILIZATION, D_UTIL, default=1),
    formula=finance.input_cost_per_mtok,
    explain=_input_cost,
    example=('=INPUT_COST_PER_MTOK(2,"8.03B",989)', "0.009021"),
    native='{gpu_hourly_cost}/3600*(2*{params}/({peak_flops}*1E12*{efficiency}))*1000000/{utilization}',
    native_result="nonnegative",
)


def _blended(w):
    ti, to = w.input_tokens, w.output_tokens
    return (f"({num(ti)} × {num(w.input_cost_per_mtok)} + {num(to)} × "
            f"{num(w.output_cost_per_mtok)}) ÷ ({num(ti)} + {num(to)}) = {num(w.result)} "
            "per million tokens")


declare(
    "BLENDED_COST_PER_MTOK",
    "Cost per million tokens of a mix = (in × input cost + out × output cost) ÷ (in + out). BLENDED_COST_PER_MTOK(0.1,2,3,1) = 0.575.",  # noqa: E501
    param(Arg("input_cost_per_mtok", None, NONNEGATIVE),
          "Cost per million input tokens (INPUT_COST_PER_MTOK or a price)."),
    param(Arg("output_cost_per_mtok", None, NONNEGATIVE),
          "Cost per million output tokens (COST_PER_MTOK or a price)."),
    param(Arg("input_tokens", "token", NONNEGATIVE),
          "Input tokens in the mix (a count or a share, e.g. 3)."),
    param(Arg("output_tokens", "token", NONNEGATIVE),
          "Output tokens in the mix (same basis as input_tokens, e.g. 1)."),
    formula=finance.blended_cost_per_mtok,
    nonfinite="input_tokens and output_tokens are both 0: no mix to price",
    explain=_blended,
    example=("=BLENDED_COST_PER_MTOK(0.1,2,3,1)", "0.575"),
    native='IF({input_tokens}+{output_tokens}=0,#NUM!,({input_tokens}*{input_cost_per_mtok}+{output_tokens}*{output_cost_per_mtok})/({input_tokens}+{output_tokens}))',
    native_result="nonnegative",
)


# Owned vs rented ------------------------------------------------------------------------
def _owned(w):
    amort = finance.amortised_hourly(w.capex, w.years)
    energy = finance.energy_hourly(w.power_w, w.pue, w.price_per_kwh)
    return (f"{num(w.capex)} ÷ ({num(w.years)} years × {HOURS_PER_YEAR:g} h) = {num(amort)} + "
            f"{num(w.power_w)} W ÷ 1000 × PUE {num(w.pue)} × {num(w.price_per_kwh)} per kWh = "
            f"{num(energy)}: {num(w.result)} per GPU-hour")


declare(
    "OWNED_HOURLY_COST",
    f"Cost of owning one GPU per hour = capex ÷ (years × {HOURS_PER_YEAR:g} h) + power_w ÷ 1000 × pue × price_per_kwh. OWNED_HOURLY_COST(30000,4,700,1.3,0.12) = 0.965.",  # noqa: E501
    param(Arg("capex", None, NONNEGATIVE),
          "Purchase price of one GPU (with its share of the server), in your currency."),
    param(Arg("years", "yr", POSITIVE), "Years over which it is written off (amortised)."),
    param(Arg("power_w", "W", NONNEGATIVE),
          "Power drawn, watts (a GPU's TDP: GPU_SPEC(name,\"tdp_W\"))."),
    param(Arg("pue", "dimensionless", AT_LEAST_ONE),
          "Power usage effectiveness of the data centre, 1 or more (1.2 to 1.5 is typical)."),
    param(Arg("price_per_kwh", None, NONNEGATIVE), "Electricity price per kWh, in your currency."),
    formula=finance.owned_hourly_cost,
    explain=_owned,
    example=("=OWNED_HOURLY_COST(30000,4,700,1.3,0.12)", "0.9648"),
    native='{capex}/({years}*8766)+{power_w}/1000*{pue}*{price_per_kwh}',
    native_result="nonnegative",
)


def _demand(w):
    peak = finance.peak_tokens_per_sec(w.tokens_per_day, w.peak_to_average)
    return (f"⌈{num(w.tokens_per_day)} tokens ÷ {SECONDS_PER_DAY:g} s × "
            f"{num(w.peak_to_average)} peak/avg = {q(peak, 'tokens/s')} ÷ "
            f"({q(w.tokens_per_sec_per_gpu, 'tokens/s')} × {num(w.utilization)})⌉ = "
            f"{plural(w.result, 'GPU')}")


declare(
    "GPUS_FOR_DEMAND",
    f"GPUs to serve a daily volume at its peak = CEILING(tokens_per_day ÷ {SECONDS_PER_DAY:g} × peak_to_average ÷ (tokens/s per GPU × utilization)).",  # noqa: E501
    param(Arg("tokens_per_day", "token", NONNEGATIVE, also=("token/day",)),
          "Tokens to serve per day (average day)."),
    param(Arg("tokens_per_sec_per_gpu", "token/s", POSITIVE),
          "Tokens/s one GPU (or replica) produces at your batch."),
    param(Arg("peak_to_average", "dimensionless", AT_LEAST_ONE),
          "Optional. Peak traffic ÷ average traffic, 1 or more. Default 1.", default=1),
    param(UTILIZATION,
          "Optional. Share of capacity you plan to use at peak, >0 to 1. Default 1.", default=1),
    formula=finance.gpus_for_demand,
    explain=_demand,
    example=("=GPUS_FOR_DEMAND(1E9,2500,2)", "10"),
    native='IF({tokens_per_day}>0,MAX(CEILING(ROUND({tokens_per_day}/86400*{peak_to_average}/({tokens_per_sec_per_gpu}*{utilization}),11-INT(LOG10({tokens_per_day}/86400*{peak_to_average}/({tokens_per_sec_per_gpu}*{utilization})))),1),1),0)',
    native_result="nonnegative",
)

declare(
    "MONTHLY_COST",
    f"Monthly cost = gpus × hourly cost × hours per month (default {HOURS_PER_MONTH:g}, a mean month). MONTHLY_COST(8,2.5) = 14610.",  # noqa: E501
    param(Arg("gpus", None, NONNEGATIVE), "Number of GPUs."),
    param(HOURLY, D_HOURLY),
    param(Arg("hours_per_month", "h", POSITIVE),
          f"Optional. Paid hours per GPU per month. Default {HOURS_PER_MONTH:g} ({HOURS_PER_YEAR:,.0f} h a year ÷ 12).",  # noqa: E501
          default=HOURS_PER_MONTH),
    formula=finance.monthly_cost,
    explain=lambda w: (f"{num(w.gpus)} GPUs × {num(w.gpu_hourly_cost)} per hour × "
                       f"{num(w.hours_per_month)} h = {num(w.result)} per month"),
    example=("=MONTHLY_COST(8,2.5)", "14610"),
    summary=f"× {HOURS_PER_MONTH:g} h by default",
    native='{gpus}*{gpu_hourly_cost}*{hours_per_month}',
    native_result="nonnegative",
)

declare(
    "BREAKEVEN_MTOK",
    "Millions of tokens a month above which self-hosting beats the API = monthly cost ÷ (API price − marginal cost). BREAKEVEN_MTOK(20000,2.5,0.1) = 8333.",  # noqa: E501
    param(Arg("monthly_fixed_cost", None, NONNEGATIVE),
          "What self-hosting costs a month whatever the volume (MONTHLY_COST)."),
    param(Arg("api_price_per_mtok", None, POSITIVE), "The API's price per million tokens."),
    param(Arg("marginal_cost_per_mtok", None, NONNEGATIVE),
          "Optional. Self-hosting cost that grows with volume, per million tokens. Default 0.",
          default=0),
    formula=finance.breakeven_mtok_per_month,
    nonfinite="api_price_per_mtok is not above marginal_cost_per_mtok: self-hosting never "
              "breaks even",
    explain=lambda w: (f"{num(w.monthly_fixed_cost)} per month ÷ ({num(w.api_price_per_mtok)} "
                       f"− {num(w.marginal_cost_per_mtok)}) per million tokens = "
                       f"{num(w.result)} million tokens a month"),
    example=("=BREAKEVEN_MTOK(20000,2.5,0.1)", "8333.3"),
    native='IF({api_price_per_mtok}-{marginal_cost_per_mtok}>0,{monthly_fixed_cost}/({api_price_per_mtok}-{marginal_cost_per_mtok}),#NUM!)',
    native_result="nonnegative",
    native_note="An API price not above the marginal cost never breaks even: #NUM!.",
)
