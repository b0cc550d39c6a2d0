"""Excel functions of ``udfs.inference.regimes``: the default efficiency of a serving regime."""

from __future__ import annotations

from ..inference import regimes
from ..machinery.args import AT_LEAST_ONE, NONNEGATIVE, POSITIVE, Arg
from ..machinery.declare import declare, param
from ..machinery.explain import num


def _regime(w):
    a = regimes.anchors()
    if w.expert_parallel > 0:
        where = (f"expert parallel: moe_expert_parallel's "
                 f"{num(a['moe_expert_parallel']['efficiency'])}")
    else:
        name = regimes.serving_regime(w.gpus, w.batch)
        inside = [k for k, r in a.items() if k != "moe_expert_parallel"
                  and r["gpus_low"] <= w.gpus <= r["gpus_high"]
                  and r["batch_low"] <= w.batch <= r["batch_high"]]
        where = (f"inside {inside[0]}'s measured range" if inside else
                 f"nearest regime {name}: between the regimes' measured ranges, linear in "
                 f"ln(GPUs) and ln(batch)")
    return (f"{num(w.gpus)} GPUs, batch {num(w.batch)}, {where} = efficiency "
            f"{num(w.result)} (anchors: the geometric mean of each regime's floor ÷ "
            f"(measured − the per-layer time) over published measurements)")


def _between(x, x0, x1, y0, y1) -> str:
    """``regimes.between`` in Excel's functions, y0 × (1 − t) + y1 × t with t = ln(x/x0) ÷
    ln(x1/x0) held to 0..1 (``x0``, ``x1`` numbers or expressions; ``x`` an expression)."""
    def text(v):
        return f"{v:g}" if isinstance(v, float) else v

    numbers = isinstance(x0, float) and isinstance(x1, float)
    ratio = f"{x1 / x0:g}" if numbers else f"{text(x1)}/{text(x0)}"
    # ln a ÷ ln b as LOG10 a ÷ LOG10 b, the same ratio: strict mode (napkin calc) has
    # checked LOG10 given a cell or an error value (a branch IF does not take), LN not
    t = f"MIN(1,MAX(0,LOG10({x}/{text(x0)})/LOG10({ratio})))"
    return f"({text(y0)}*(1-{t})+{text(y1)}*{t})"


def _native():
    a = regimes.anchors()
    s, w = a["small_batch"], a["tp8_small_batch"]
    o, t = a["throughput_one_gpu"], a["throughput_tp"]
    g = "{gpus}"
    e_small = _between(g, s["gpus_high"], w["gpus_low"], s["efficiency"], w["efficiency"])
    b_small = max(s["batch_high"], w["batch_high"])
    e_large = _between(g, o["gpus_high"], t["gpus_low"], o["efficiency"], t["efficiency"])
    b_large = _between(g, o["gpus_high"], t["gpus_low"], o["batch_low"], t["batch_low"])
    return (f'IF({{expert_parallel}}>0,{a["moe_expert_parallel"]["efficiency"]:g},'
            f"{_between('{batch}', b_small, b_large, e_small, e_large)})")


declare(
    "REGIME_EFFICIENCY",
    "Default efficiency by regime, from published measurements (small batch, TP 8 at small batch, throughput on 1 GPU or in TP, MoE expert parallel), moving in ln(batch) between them; realistic = floor ÷ it + LAYER_OVERHEAD_MS. REGIME_EFFICIENCY(1,1) = 0.817.",  # noqa: E501
    param(Arg("gpus", None, POSITIVE, whole=True), "GPUs of one replica (whole number)."),
    param(Arg("batch", None, POSITIVE), "Sequences decoded together per replica."),
    param(Arg("expert_parallel", None, NONNEGATIVE),
          "Optional. 1 for an MoE model served with expert parallelism and data-parallel attention, 0 otherwise. Default 0.",  # noqa: E501
          default=0),
    formula=regimes.regime_efficiency,
    explain=_regime,
    example=("=REGIME_EFFICIENCY(1,1)", f"{regimes.regime_efficiency(1, 1):g}"),
    summary="the efficiency of the deployment from the regimes' measurements",
    native=_native(),
)


def _overhead(w):
    return (f"{num(w.layers)} layers × {num(w.layer_us)} µs"
            + ("" if w.tokens_per_step == 1 else f" ÷ {num(w.tokens_per_step)} tokens per step")
            + f" = {num(w.result)} ms per token"
            + (" (the per-layer time: a least-squares fit over published small-batch "
               "measurements)" if w.layer_us == regimes.layer_time_us() else ""))


declare(
    "LAYER_OVERHEAD_MS",
    "Time per token a decode step pays beyond its floor for its layers' kernels = layers × the per-layer time (default: fitted on published measurements) ÷ tokens per step, in ms. Add it to floor ÷ REGIME_EFFICIENCY (ESTIMATE's fixed_ms).",  # noqa: E501
    param(Arg("layers", None, NONNEGATIVE), "Layers a step runs: the model's, all pipeline stages together, + 1 a draft pass (MTP, EAGLE)."),  # noqa: E501
    param(Arg("tokens_per_step", None, AT_LEAST_ONE),
          "Optional. Tokens each step yields (speculative decoding: SPEC_TOKENS_PER_STEP). Default 1.",  # noqa: E501
          default=1),
    param(Arg("layer_us", None, NONNEGATIVE),
          f"Optional. Time per layer in µs (the template's Assumptions: LAYER_TIME_US). Default {regimes.layer_time_us():g}, the fit over published small-batch measurements.",  # noqa: E501
          default=regimes.layer_time_us()),
    formula=regimes.layer_overhead_ms,
    explain=_overhead,
    example=("=LAYER_OVERHEAD_MS(80)", f"{regimes.layer_overhead_ms(80):g}"),
    summary="layers × the per-layer time ÷ tokens per step, ms",
    native="{layers}*{layer_us}/1000/{tokens_per_step}",
)
