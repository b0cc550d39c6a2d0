"""Excel functions of ``udfs.inference.cost``: cost per million tokens."""

from __future__ import annotations

from ..inference import cost
from ..inference.constants import SECONDS_PER_HOUR
from ..machinery.args import OPEN_FRACTION, POSITIVE, Arg
from ..machinery.declare import declare, param
from ..machinery.explain import num, plural, q
from .common import HOURLY, TPS


def _cost(w):
    return (f"{num(w.gpu_hourly_cost)} per GPU-hour × {plural(w.gpus, 'GPU')} ÷ "
            f"({q(w.tokens_per_sec, 'tokens/s')} × {SECONDS_PER_HOUR:g} s × "
            f"{num(w.utilization)}) × 1e6 = {num(w.result)} per million tokens")


declare(
    "COST_PER_MTOK",
    f"Cost per million tokens = hourly cost × gpus ÷ (tokens/s × {SECONDS_PER_HOUR:g} × utilization) × 10^6. COST_PER_MTOK(2,1000) = 0.556.",  # noqa: E501
    param(HOURLY, "Price of one GPU-hour, in your currency."),
    param(TPS, "Tokens/s that all these GPUs produce together while busy."),
    param(Arg("gpus", None, POSITIVE), "Optional. Number of GPUs paid for. Default 1.",
          default=1),
    param(Arg("utilization", "dimensionless", OPEN_FRACTION),
          "Optional. Share of paid hours spent producing tokens, >0 to 1. Default 1.",
          default=1),
    formula=cost.cost_per_mtok,
    explain=_cost,
    example=("=COST_PER_MTOK(2,1000)", "0.5556"),
    native='{gpu_hourly_cost}*{gpus}/({tokens_per_sec}*3600*{utilization})*1000000',
    native_result="nonnegative",
)
