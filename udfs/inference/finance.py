"""Cost as finance models it: calibration, prefill vs decode, owned vs rented, demand,
break-even.

Conventions: money in the user's currency (no conversion); hours per year 8,766
(365.25 days) and per month 730.5, as ``HOURS_PER_YEAR`` / 12; power in watts,
energy price per kWh; token rates in tokens/s; times in ms.

References
----------
.. [1] kipply (2022), "Transformer Inference Arithmetic",
   https://kipp.ly/transformer-inference-arithmetic/ (prefill is compute-bound: 2 FLOPs
   per parameter per prompt token at the compute roof).
.. [2] Williams, S., Waterman, A. and Patterson, D. (2009), "Roofline: an insightful
   visual performance model for multicore architectures", Communications of the ACM
   52(4), 65–76 (a measurement cannot beat the roof: floor ÷ measured ≤ 1).
.. [3] ISO/IEC 30134-2:2016, "Key performance indicators — Power usage effectiveness
   (PUE)".
.. [4] Austin, J. et al. (2025), "How to Scale Your Model", ch. "All the Transformer
   Math You Need to Know", https://jax-ml.github.io/scaling-book/transformers/ (attention
   FLOPs 4·B·T·S·N·H per layer forward for QKᵀ and AV, halved by causal masking; kipply [1]
   counts 2·n_layers·n_ctx·d_attn per token for each of the two products).
"""

from __future__ import annotations

from ..machinery.xp import ceil, maximum, round_sig, where
from .constants import (
    HOURS_PER_MONTH,
    HOURS_PER_YEAR,
    SECONDS_PER_DAY,
    SECONDS_PER_HOUR,
    TOKENS_PER_MILLION,
    WATTS_PER_KW,
)


# Calibration ----------------------------------------------------------------------------
def efficiency(floor_ms, measured_ms, tokens_per_step=1.0):
    """Share of the floor a measurement reaches: floor per token ÷ measured [2].

    .. math:: e = \\frac{T_{floor} / \\tau}{T_{measured}}

    0.7 means the real system takes 1/0.7 = 1.43× the floor. Above 1 the measurement
    beat the floor: an assumption (bytes moved, bandwidth, precision, tokens per step) is
    wrong. With speculative decoding or multi-token prediction a step yields τ tokens, so
    the floor per token is the step floor ÷ τ.

    Parameters
    ----------
    floor_ms : float
        The floor of one decode step of the case (DECODE_FLOOR) [ms].
    measured_ms : float
        What was measured for the same case, per token [ms].
    tokens_per_step : float
        Tokens τ each step yields per sequence, 1 or more (SPEC_TOKENS_PER_STEP) [count].

    Returns
    -------
    Fraction. Floor 4.79 ms, measured 6.2 ms: 0.773. Llama 3.3 70B FP8 on one H200
    (step floor 70.6 GB ÷ 4.8 TB/s = 14.71 ms) at 181.74 tokens/s (5.502 ms) with 3.55
    tokens per step: 14.71 ÷ 3.55 ÷ 5.502 = 0.753.
    """
    return floor_ms / tokens_per_step / measured_ms


def estimate_ms(floor_ms, efficiency_, fixed_ms=0.0):
    """Realistic time from a floor, an efficiency and a fixed time: floor ÷ efficiency +
    fixed.

    .. math:: T = \\frac{T_{floor}}{e} + T_{fixed}

    Without measurements the efficiency is the deployment's regime's
    (``udfs.inference.regimes.regime_efficiency``) and the fixed time its layers' kernels
    (``udfs.inference.regimes.layer_overhead_ms``); an efficiency calibrated on a measurement
    (``efficiency``) already holds the fixed time, so with it the fixed time is 0.

    Parameters
    ----------
    floor_ms : float
        A floor [ms].
    efficiency_ : float
        Efficiency found by ``efficiency`` (or assumed), 0 to 1 [fraction].
    fixed_ms : float
        Time added whatever the floor (``udfs.inference.regimes.layer_overhead_ms``; 0: none) [ms].

    Returns
    -------
    ms. Floor 4.79 ms at efficiency 0.8: 5.99 ms; with 32 layers × 65.8 µs: 5.99 + 2.11
    = 8.10 ms.
    """
    return floor_ms / efficiency_ + fixed_ms


def plausibility(floor_ms, measured_ms, tokens_per_step=1.0):
    """"plausible" when the measurement is at or above the floor per token, else a
    warning [2].

    .. math:: T_{measured} \\ge T_{floor} / \\tau

    Parameters
    ----------
    floor_ms, measured_ms, tokens_per_step : float
        As ``efficiency``.

    Returns
    -------
    Text. The 70B on one H200 of ``efficiency``: 5.502 ms against 14.71 ms of step floor
    is below the floor at one token per step, plausible at 3.55 (14.71 ÷ 3.55 = 4.14 ms).
    """
    return where(measured_ms >= floor_ms / tokens_per_step, "plausible",
                 "below the floor: an assumption is wrong")


# Input vs output tokens -----------------------------------------------------------------
def prefill_attention_flop(layers, attn_dim, prompt_tokens):
    """FLOPs of the attention products of a causal prefill: QKᵀ and AV over the context
    [4] [1].

    .. math:: F_{attn} = 2 \\cdot L \\cdot d_{attn} \\cdot T^2

    Per layer and query token t, QKᵀ against t keys costs 2·t·d FLOPs and AV as much
    again: 4·t·d. Summed over t = 1..T with the causal mask that is about 2·d·T² per
    layer (half of the 4·d·T² an unmasked pass would do); the exact sum 2·d·T(T+1)
    differs by 1/T. d_attn is query heads × head_dim, which is not always hidden_size
    (Qwen3-32B: 64 × 128 = 8192 against a hidden size of 5120).

    Parameters
    ----------
    layers : float
        Transformer layers L [count].
    attn_dim : float
        Query heads × head_dim, d_attn [count].
    prompt_tokens : float
        Tokens prefilled T [tokens].

    Returns
    -------
    FLOP. Hand check, Llama 3.1 8B (32 layers, 32 × 128 = 4096) at T = 32,768:
    2 × 32 × 4096 × 32768² = 2.815e14, against 2 × 8.03e9 × 32768 = 5.263e14 for the
    weights: attention is 35 % of the work.
    """
    return 2 * layers * attn_dim * prompt_tokens * prompt_tokens


def prefill_ms(params, prompt_tokens, peak_tflops, efficiency_=1.0, layers=None,
               attn_dim=None):
    """Prefill time at the compute roof [1]: an estimate, not a bound.

    .. math:: T = \\frac{2 N T_{prompt} + 2 L d_{attn} T_{prompt}^2}{P \\cdot e}

    Prefill processes thousands of prompt tokens at once, a huge batch that sits on the
    roof, so the math term rules. The first term is the weights' matmuls (2 FLOPs per
    active parameter per token: pass the active parameters of an MoE model); the second
    the attention products over the causal context (``prefill_attention_flop``),
    counted when ``layers`` and ``attn_dim`` are given (None: left out). Leaving them out
    under-counts long prompts: at 32K tokens attention is a third of Llama 3.1 8B's
    prefill. Not a floor: kernels rarely reach the datasheet peak, and the memory traffic
    of attention is not counted.

    Parameters
    ----------
    params : float
        Parameter count N (active parameters per token for an MoE model) [count].
    prompt_tokens : float
        Prompt length T_prompt [tokens].
    peak_tflops : float
        Peak compute P [TFLOPS].
    efficiency_ : float
        Share e of peak reached, 0 to 1 [fraction].
    layers : float or None
        Layers L (optional, with attn_dim) [count].
    attn_dim : float or None
        Query heads × head_dim, d_attn (optional, with layers) [count].

    Returns
    -------
    ms. 8.03e9 params, 2,000 tokens, 989 TFLOPS: 3.212e13 ÷ 9.89e14 = 32.48 ms; with
    32 layers and d_attn 4096: + 2 × 32 × 4096 × 2000² = 1.049e12 FLOP, 33.54 ms.
    """
    flop = 2 * params * prompt_tokens
    if layers is not None:
        flop = flop + prefill_attention_flop(layers, attn_dim, prompt_tokens)
    return flop / (peak_tflops * 1e12 * efficiency_) * 1e3


def input_cost_per_mtok(gpu_hourly_cost, params, peak_tflops, efficiency_=1.0,
                        utilization=1.0):
    """Cost per 10⁶ input (prompt) tokens: GPU-seconds per token at the compute roof.

    .. math:: C_{in} = \\frac{c_{hour}}{3600} \\cdot \\frac{2N}{P \\cdot e} \\cdot
              \\frac{10^6}{u}

    Parameters
    ----------
    gpu_hourly_cost : float
        Price of one GPU-hour c_hour [currency/h].
    params : float
        Parameter count N [count].
    peak_tflops : float
        Peak compute P [TFLOPS].
    efficiency_ : float
        Share e of peak reached in prefill, 0 to 1 [fraction].
    utilization : float
        Share u of paid hours spent producing tokens, 0 to 1 [fraction].

    Returns
    -------
    Currency per million input tokens. 2.00/h, 8.03e9 params, 989 TFLOPS, e = 1, u = 1:
    2/3600 × 1.624e-5 s × 1e6 = 0.009021.
    """
    seconds_per_token = seconds_per_input_token(params, peak_tflops, efficiency_)
    return (gpu_hourly_cost / SECONDS_PER_HOUR * seconds_per_token * TOKENS_PER_MILLION
            / utilization)


def seconds_per_input_token(params, peak_tflops, efficiency_=1.0):
    """GPU-seconds one prompt token takes at the compute roof: 2N ÷ (P × e).

    Parameters
    ----------
    params, peak_tflops, efficiency_ : float
        As ``input_cost_per_mtok``.
    """
    return 2 * params / (peak_tflops * 1e12 * efficiency_)


def blended_cost_per_mtok(input_cost, output_cost, input_tokens, output_tokens):
    """Cost per 10⁶ tokens of a traffic mix.

    .. math:: C = \\frac{n_{in} c_{in} + n_{out} c_{out}}{n_{in} + n_{out}}

    Parameters
    ----------
    input_cost, output_cost : float
        Cost per million input and output tokens [currency/Mtok].
    input_tokens, output_tokens : float
        The mix n_in : n_out, as counts or shares [count].

    Returns
    -------
    Currency per million tokens. A 3:1 mix at 0.10 and 2.00: (0.3 + 2.0) ÷ 4 = 0.575.
    """
    return (input_tokens * input_cost + output_tokens * output_cost) / (
        input_tokens + output_tokens)


# Owned vs rented ------------------------------------------------------------------------
def owned_hourly_cost(capex, years, power_w, pue, price_per_kwh):
    """Cost of owning one GPU per hour: straight-line depreciation + energy [3].

    .. math:: c_{hour} = \\frac{capex}{years \\times 8766} + \\frac{W}{1000} \\cdot PUE
              \\cdot price_{kWh}

    Assumes no resale value and no cost of capital, and the GPU drawing ``power_w`` all
    the time (its TDP is an upper bound).

    Parameters
    ----------
    capex : float
        Purchase price of one GPU with its share of the server [currency].
    years : float
        Years over which it is written off [years].
    power_w : float
        Power drawn [W].
    pue : float
        Power usage effectiveness of the data centre, at least 1 [ratio].
    price_per_kwh : float
        Electricity price [currency/kWh].

    Returns
    -------
    Currency per hour. 30,000 over 4 years, 700 W, PUE 1.3, 0.12 per kWh: 30,000 ÷
    35,064 h = 0.8556 + 0.7 × 1.3 × 0.12 = 0.1092, total 0.9648.
    """
    return amortised_hourly(capex, years) + energy_hourly(power_w, pue, price_per_kwh)


def amortised_hourly(capex, years):
    """Capex written off evenly over the hours of ``years``: capex ÷ (years × 8766).

    Parameters
    ----------
    capex, years : float
        As ``owned_hourly_cost``.
    """
    return capex / (years * HOURS_PER_YEAR)


def energy_hourly(power_w, pue, price_per_kwh):
    """Energy cost of one hour at the meter: W ÷ 1000 × PUE × price per kWh.

    Parameters
    ----------
    power_w, pue, price_per_kwh : float
        As ``owned_hourly_cost``.
    """
    return power_w / WATTS_PER_KW * pue * price_per_kwh


def gpus_for_demand(tokens_per_day, tokens_per_sec_per_gpu, peak_to_average=1.0,
                    utilization=1.0):
    """GPUs to serve a daily volume at its peak.

    .. math:: G = \\left\\lceil \\frac{D / 86400 \\cdot k}{R \\cdot u} \\right\\rceil

    Parameters
    ----------
    tokens_per_day : float
        Tokens served on an average day D [tokens/day].
    tokens_per_sec_per_gpu : float
        Tokens per second one GPU (or replica) produces R [tokens/s].
    peak_to_average : float
        Peak traffic ÷ average traffic k, at least 1 [ratio].
    utilization : float
        Share u of capacity planned to be used at peak, 0 to 1 [fraction].

    Returns
    -------
    GPUs (whole). 1e9 tokens a day = 11,574 tokens/s on average; × 2 at peak = 23,148;
    at 2,500 tokens/s per GPU: 9.26, so 10 GPUs.
    """
    need = round_sig(peak_tokens_per_sec(tokens_per_day, peak_to_average)
                     / (tokens_per_sec_per_gpu * utilization))
    return where(tokens_per_day > 0, maximum(ceil(need), 1.0), 0.0)


def peak_tokens_per_sec(tokens_per_day, peak_to_average=1.0):
    """Token rate at the peak: D ÷ 86,400 s × k.

    Parameters
    ----------
    tokens_per_day, peak_to_average : float
        As ``gpus_for_demand``.
    """
    return tokens_per_day / SECONDS_PER_DAY * peak_to_average


def monthly_cost(gpus, gpu_hourly_cost, hours_per_month=HOURS_PER_MONTH):
    """Monthly cost: GPUs × hourly cost × hours per month.

    Parameters
    ----------
    gpus : float
        Number of GPUs [count].
    gpu_hourly_cost : float
        Price of one GPU-hour [currency/h].
    hours_per_month : float
        Paid hours per GPU per month [h] (730.5: a mean month, 8,766 h ÷ 12).

    Returns
    -------
    Currency per month. 8 GPUs at 2.50: 14,610.
    """
    return gpus * gpu_hourly_cost * hours_per_month


def breakeven_mtok_per_month(monthly_fixed_cost, api_price_per_mtok,
                             marginal_cost_per_mtok=0.0):
    """Millions of tokens a month above which self-hosting is cheaper than an API.

    .. math:: V^* = \\frac{F}{p_{API} - c_{marginal}}

    An API no dearer than the marginal cost never breaks even (NaN, shown as #NUM!).

    Parameters
    ----------
    monthly_fixed_cost : float
        What self-hosting costs a month whatever the volume F [currency/month].
    api_price_per_mtok : float
        The API's price per million tokens p_API [currency/Mtok].
    marginal_cost_per_mtok : float
        Self-hosting cost that grows with volume [currency/Mtok].

    Returns
    -------
    Millions of tokens a month. 20,000 a month against an API at 2.50 with 0.10 of
    marginal cost: 20,000 ÷ 2.40 = 8,333.
    """
    margin = api_price_per_mtok - marginal_cost_per_mtok
    return where(margin > 0, monthly_fixed_cost / where(margin > 0, margin, 1.0), float("nan"))
