"""Excel functions of ``udfs.inference.energy``: joules per token, kWh per million tokens."""

from __future__ import annotations

from ..inference import energy
from ..machinery.args import AT_LEAST_ONE, NONNEGATIVE, Arg
from ..machinery.declare import declare, param
from ..machinery.explain import num, q
from .common import TPS

POWER = Arg("power_w", "W", NONNEGATIVE)
D_POWER = "Power drawn while producing the tokens, W (GPU_SPEC(name,\"tdp_W\")), or '1.2 kW'."
D_TPS_ENERGY = "Tokens/s produced at that power: a number or text ('2000 tokens/s')."

declare(
    "JOULES_PER_TOKEN",
    "Energy per token = power ÷ tokens/s, in joules (1 W = 1 J/s). JOULES_PER_TOKEN(700,2000) = 0.35.",  # noqa: E501
    param(POWER, D_POWER),
    param(TPS, D_TPS_ENERGY),
    formula=energy.joules_per_token,
    explain=lambda w: (f"{q(w.power_w, 'W')} ÷ {q(w.tokens_per_sec, 'tokens/s')} = "
                       f"{q(w.result, 'J')} per token"),
    example=("=JOULES_PER_TOKEN(700,2000)", "0.35"),
    native='{power_w}/{tokens_per_sec}',
    native_result="nonnegative",
)


def _energy(w):
    joules = energy.joules_per_token(w.power_w, w.tokens_per_sec)
    return (f"{q(w.power_w, 'W')} ÷ {q(w.tokens_per_sec, 'tokens/s')} = {q(joules, 'J')} per "
            f"token × 1e6 ÷ {energy.JOULES_PER_KWH / 1e6:g}e6 J/kWh × PUE {num(w.pue)} = "
            f"{q(w.result, 'kWh')} per million tokens")


declare(
    "ENERGY_PER_MTOK_KWH",
    "Energy per million tokens = power ÷ tokens/s × 10^6 ÷ 3.6 × 10^6 × PUE, in kWh. ENERGY_PER_MTOK_KWH(700,2000,1.3) = 0.126.",  # noqa: E501
    param(POWER, D_POWER),
    param(TPS, D_TPS_ENERGY),
    param(Arg("pue", "dimensionless", AT_LEAST_ONE),
          "Optional. Power usage effectiveness of the data centre, 1 or more. Default 1.",
          default=1),
    formula=energy.energy_per_mtok_kwh,
    explain=_energy,
    example=("=ENERGY_PER_MTOK_KWH(700,2000,1.3)", "0.1264"),
    summary="kWh per million tokens",
    native='{power_w}/{tokens_per_sec}*1000000/3600000*{pue}',
    native_result="nonnegative",
)
