"""Cost of serving tokens.

.. math:: C_{Mtok} = \\frac{c_{hour} \\cdot G}{3600 \\cdot R \\cdot u} \\times 10^6

c_hour: price of one GPU-hour; G: GPUs serving; R: aggregate tokens/s those GPUs produce
while busy; u: share of paid hours that are busy (utilization). Money is in the currency
of ``gpu_hourly_cost``; nothing is converted.
"""

from __future__ import annotations

from .constants import SECONDS_PER_HOUR, TOKENS_PER_MILLION


def cost_per_mtok(gpu_hourly_cost, tokens_per_second, gpus=1.0, utilization=1.0):
    """Cost per 10⁶ tokens.

    Parameters
    ----------
    gpu_hourly_cost : float
        Price of one GPU-hour c_hour, in the user's currency [currency/h].
    tokens_per_second : float
        Tokens per second R that all the GPUs produce together while busy [tokens/s].
    gpus : float
        GPUs paid for G [count].
    utilization : float
        Share u of paid hours spent producing tokens, 0 to 1 [fraction].

    Returns
    -------
    Currency per million tokens. One GPU at 2.00 per hour producing 1,000 tokens/s all the
    time makes 3.6e6 tokens an hour, so 10⁶ tokens cost 2.00 ÷ 3.6 = 0.5556.
    """
    tokens_per_hour = tokens_per_second * SECONDS_PER_HOUR * utilization
    return gpu_hourly_cost * gpus / tokens_per_hour * TOKENS_PER_MILLION
