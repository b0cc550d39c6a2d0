"""Excel functions of ``udfs.regimes``: the default efficiency of a serving regime."""

from __future__ import annotations

from .. import regimes
from ..args import NONNEGATIVE, POSITIVE, Arg
from ..declare import declare, param
from ..explain import num


def _regime(w):
    name = regimes.serving_regime(w.gpus, w.batch, w.expert_parallel > 0)
    row = regimes.table()[name]
    return (f"{num(w.gpus)} GPUs, batch {num(w.batch)}, expert parallel "
            f"{'yes' if w.expert_parallel > 0 else 'no'}: regime {name} ({row['rule']}) = "
            f"efficiency {num(w.result)}, the median of floor ÷ measured over "
            f"{len(row['measurements'].split(';'))} published measurements")


def _native():
    e = {k: r["efficiency"] for k, r in regimes.table().items()}
    return (f'IF({{expert_parallel}}>0,{e["moe_expert_parallel"]},'
            f'IF({{batch}}<={regimes.SMALL_BATCH},IF({{gpus}}>={regimes.WIDE_TP},'
            f'{e["tp8_small_batch"]},{e["small_batch"]}),'
            f'IF({{gpus}}=1,{e["throughput_one_gpu"]},{e["throughput_tp"]})))')


declare(
    "REGIME_EFFICIENCY",
    "Default efficiency (floor ÷ realistic) of a serving regime, the median over published measurements: small batch, TP 8 at small batch, throughput on one GPU or in TP, MoE with expert parallelism. REGIME_EFFICIENCY(1,1) = 0.731.",  # noqa: E501
    param(Arg("gpus", None, POSITIVE, whole=True), "GPUs of one replica (whole number)."),
    param(Arg("batch", None, POSITIVE), "Sequences decoded together per replica."),
    param(Arg("expert_parallel", None, NONNEGATIVE),
          "Optional. 1 for an MoE model served with expert parallelism and data-parallel attention, 0 otherwise. Default 0.",  # noqa: E501
          default=0),
    formula=regimes.regime_efficiency,
    explain=_regime,
    example=("=REGIME_EFFICIENCY(1,1)", "0.731"),
    summary="the median efficiency of the deployment's regime",
    native=_native(),
)
