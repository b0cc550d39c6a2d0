"""Cost as finance models it (issue 7, §2 and §4): calibration, prefill vs decode,
owned vs rented, demand, break-even.

Conventions: money in the user's currency (no conversion); hours per year 8,766
(365.25 days) and per month 730.5, as :data:`HOURS_PER_YEAR` / 12; power in watts,
energy price per kWh; token rates in tokens/s; times in ms.
"""

from __future__ import annotations

from .constants import (
    HOURS_PER_MONTH,
    HOURS_PER_YEAR,
    SECONDS_PER_DAY,
    SECONDS_PER_HOUR,
    TOKENS_PER_MILLION,
    WATTS_PER_KW,
)
from .xp import ceil, maximum, round_sig, where


# Calibration ----------------------------------------------------------------------------
def efficiency(floor_ms, measured_ms):
    """Share of the floor a measurement reaches: floor ÷ measured.

    0.7 means the real system takes 1/0.7 = 1.43× the floor. Above 1 the measurement
    beat the floor: an assumption (bytes moved, bandwidth, precision) is wrong
    (reference doc §2).
    """
    return floor_ms / measured_ms


def estimate_ms(floor_ms, efficiency_):
    """Realistic time from a floor and a calibrated efficiency: floor ÷ efficiency."""
    return floor_ms / efficiency_


def plausibility(floor_ms, measured_ms):
    """"plausible" when the measurement is at or above the floor, else a warning."""
    return where(measured_ms >= floor_ms, "plausible",
                 "below the floor: an assumption is wrong")


# Input vs output tokens -----------------------------------------------------------------
def prefill_ms(params, prompt_tokens, peak_tflops, efficiency_=1.0):
    """Prefill time at the compute roof: 2 × params × prompt tokens ÷ (peak × efficiency).

    Prefill processes thousands of prompt tokens at once, a huge batch that sits on the
    roof (reference doc §5), so the math term rules. In ms.
    Hand check: 8.03e9 params, 2,000 tokens, 989 TFLOPS: 3.212e13 ÷ 9.89e14 = 32.48 ms.
    """
    return 2 * params * prompt_tokens / (peak_tflops * 1e12 * efficiency_) * 1e3


def input_cost_per_mtok(gpu_hourly_cost, params, peak_tflops, efficiency_=1.0,
                        utilization=1.0):
    """Cost per 10⁶ input (prompt) tokens: GPU-seconds per token at the compute roof.

    .. math:: C_{in} = \\frac{c_{hour}}{3600} \\cdot \\frac{2N}{P \\cdot e} \\cdot
              \\frac{10^6}{u}

    Hand check: 2.00/h, 8.03e9 params, 989 TFLOPS, e = 1, u = 1: 2/3600 × 1.624e-5 s ×
    1e6 = 0.009021 per million input tokens.
    """
    seconds_per_token = seconds_per_input_token(params, peak_tflops, efficiency_)
    return (gpu_hourly_cost / SECONDS_PER_HOUR * seconds_per_token * TOKENS_PER_MILLION
            / utilization)


def seconds_per_input_token(params, peak_tflops, efficiency_=1.0):
    """GPU-seconds one prompt token takes at the compute roof: 2 × params ÷ (peak × e)."""
    return 2 * params / (peak_tflops * 1e12 * efficiency_)


def blended_cost_per_mtok(input_cost, output_cost, input_tokens, output_tokens):
    """Cost per 10⁶ tokens of a traffic mix: (in × c_in + out × c_out) ÷ (in + out).

    A 3:1 prompt:completion mix at 0.10 and 2.00: (3 × 0.10 + 1 × 2.00) ÷ 4 = 0.575.
    """
    return (input_tokens * input_cost + output_tokens * output_cost) / (
        input_tokens + output_tokens)


# Owned vs rented ------------------------------------------------------------------------
def owned_hourly_cost(capex, years, power_w, pue, price_per_kwh):
    """Cost of owning one GPU per hour: amortised capex + energy.

    .. math:: c_{hour} = \\frac{capex}{years \\times 8766} + \\frac{W}{1000} \\cdot PUE
              \\cdot price_{kWh}

    Hand check: 30,000 over 4 years, 700 W, PUE 1.3, 0.12 per kWh: 30,000 ÷ 35,064 h =
    0.8556 + 0.7 × 1.3 × 0.12 = 0.1092, total 0.9648 per hour.
    """
    return amortised_hourly(capex, years) + energy_hourly(power_w, pue, price_per_kwh)


def amortised_hourly(capex, years):
    """Capex written off evenly over the hours of ``years``: capex ÷ (years × 8766)."""
    return capex / (years * HOURS_PER_YEAR)


def energy_hourly(power_w, pue, price_per_kwh):
    """Energy cost of one hour at ``power_w`` with the facility's PUE: kW × PUE × price."""
    return power_w / WATTS_PER_KW * pue * price_per_kwh


def gpus_for_demand(tokens_per_day, tokens_per_sec_per_gpu, peak_to_average=1.0,
                    utilization=1.0):
    """GPUs to serve a daily volume at its peak: ⌈day ÷ 86,400 × peak/avg ÷ (R × u)⌉.

    Hand check: 1e9 tokens a day = 11,574 tokens/s on average; × 2 at peak = 23,148;
    at 2,500 tokens/s per GPU: 9.26, so 10 GPUs.
    """
    need = round_sig(peak_tokens_per_sec(tokens_per_day, peak_to_average)
                     / (tokens_per_sec_per_gpu * utilization))
    return where(tokens_per_day > 0, maximum(ceil(need), 1.0), 0.0)


def peak_tokens_per_sec(tokens_per_day, peak_to_average=1.0):
    """Token rate at the peak: tokens per day ÷ 86,400 s × peak-to-average."""
    return tokens_per_day / SECONDS_PER_DAY * peak_to_average


def monthly_cost(gpus, gpu_hourly_cost, hours_per_month=HOURS_PER_MONTH):
    """GPUs × hourly cost × hours per month (default 730.5: a mean month, 8,766 h ÷ 12)."""
    return gpus * gpu_hourly_cost * hours_per_month


def breakeven_mtok_per_month(monthly_fixed_cost, api_price_per_mtok,
                             marginal_cost_per_mtok=0.0):
    """Millions of tokens a month above which self-hosting is cheaper than an API.

    .. math:: V^* = \\frac{F}{p_{API} - c_{marginal}}

    Hand check: 20,000 a month of GPUs against an API at 2.50 per million tokens, with
    0.10 of marginal cost per million: 20,000 ÷ 2.40 = 8,333 million tokens a month.
    An API cheaper than the marginal cost never breaks even (#NUM!).
    """
    margin = api_price_per_mtok - marginal_cost_per_mtok
    return where(margin > 0, monthly_fixed_cost / where(margin > 0, margin, 1.0), float("nan"))
