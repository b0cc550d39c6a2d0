"""Excel functions of ``udfs.inference.memory``: weights, KV cache, fit."""

from __future__ import annotations

from ..inference import memory
from ..machinery.args import AT_LEAST_ONE, NONNEGATIVE, POSITIVE, RESERVE, Arg, Count
from ..machinery.broadcast import BOOL
from ..machinery.declare import OMIT, declare, param, result_unit
from ..machinery.explain import num, plural, q, show
from .common import (
    BATCH,
    CAPACITY,
    D_CAPACITY,
    D_NEED,
    D_PARAMS,
    D_PRECISION,
    D_RESERVE,
    D_UNIT_GB,
    MEMORY_NEED,
    PARAMS,
    PRECISION,
)

RESERVE_FRACTION = Arg("reserve_fraction", "dimensionless", RESERVE)


def _weight(w):
    gb = memory.weight_gb(w.params, w.precision, w.kept_params)
    if w.kept_params is None:
        text = f"{num(w.params)} params × {num(w.precision)} B = {q(gb, 'GB')}"
    else:
        kept = max(w.precision, 2.0)
        text = (f"({num(w.params - w.kept_params)} params × {num(w.precision)} B + "
                f"{num(w.kept_params)} kept × {num(kept)} B) = {q(gb, 'GB')}")
    return text if w.unit == "GB" else f"{text} = {q(w.result, w.unit)}"


_WEIGHT = '{params}*{precision}/1E9'
_WEIGHT_KEPT = '(({params}-{kept_params})*{precision}+{kept_params}*MAX({precision},2))/1E9'


declare(
    "WEIGHT_GB",
    "Weight memory = params × bytes per parameter, in GB (10^9 bytes) unless unit says otherwise; kept_params stay in 16 bits. WEIGHT_GB(\"8.03B\",\"BF16\") = 16.06.",  # noqa: E501
    param(PARAMS, D_PARAMS),
    param(PRECISION, D_PRECISION),
    result_unit("GB", D_UNIT_GB),
    param(Count("kept_params", domain=NONNEGATIVE),
          "Optional. Parameters a quantized checkpoint keeps in BF16 (embedding, LM head; gpt-oss: all but its experts): MODEL_SPEC(name,\"kept_params\"). Default 0.",  # noqa: E501
          default=OMIT),
    formula=memory.weight_gb,
    nonfinite="kept_params is more than params: a checkpoint cannot keep more weights than it has",
    explain=_weight,
    example=('=WEIGHT_GB("8.03B","BF16")', "16.06"),
    summary="params × bytes per parameter, GB",
    native={(): _WEIGHT_KEPT, ("kept_params",): _WEIGHT},
    native_result="positive",
)

declare(
    "BYTES_PER_PARAM",
    "Bytes per parameter of a number format: FP32 4, BF16/FP16 2, FP8/INT8 1, FP6 0.75, INT4/FP4 0.5, MXFP4 0.53125, NVFP4 0.5625.",  # noqa: E501
    param(PRECISION, D_PRECISION),
    formula=lambda b: b,
    explain=lambda w: f"{w.raw['precision']} = {num(w.result)} bytes per parameter",
    example=('=BYTES_PER_PARAM("MXFP4")', "0.53125"),
    native='{precision}',
    native_result="positive",
)


def _kv(w):
    per_token = memory.kv_bytes_per_token(w.layers, w.kv_heads, w.head_dim, w.precision)
    text = (f"2 × {num(w.layers)} layers × {num(w.kv_heads)} kv_heads × {num(w.head_dim)} "
            f"head_dim × {num(w.precision)} B = {num(per_token)} B per token; × "
            f"{num(w.tokens)} tokens")
    if w.state_bytes is not None:
        text = f"({text} + {num(w.state_bytes)} B of fixed state)"
    return f"{text} × {num(w.batch)} batch = {q(w.result, w.unit)}"


_KV = '2*{layers}*{kv_heads}*{head_dim}*{precision}*{tokens}*{batch}/1E9'
_KV_STATE = ('(2*{layers}*{kv_heads}*{head_dim}*{precision}*{tokens}+{state_bytes})'
             '*{batch}/1E9')


declare(
    "KV_CACHE_GB",
    "KV cache = (2 × layers × kv_heads × head_dim × bytes × tokens + state_bytes) × batch, in GB. Right for MHA and GQA; not MLA (DeepSeek-V3) or sliding-window layers (Gemma 2).",  # noqa: E501
    param(Arg("layers", None, POSITIVE, whole=True),
          "Layers that keep a KV cache (whole number): all of them, or a hybrid model's attention layers (MODEL_SPEC(name,\"kv_layers\"))."),  # noqa: E501
    param(Arg("kv_heads", None, POSITIVE, whole=True),
          "Key/value heads per layer (whole number; GQA models have fewer than query heads)."),
    param(Arg("head_dim", None, POSITIVE, whole=True),
          "Dimension of one attention head (whole number; not always hidden ÷ heads)."),
    param(Arg("tokens", "token", NONNEGATIVE),
          "Tokens held per sequence (context length): a number or text such as '8192 tokens'."),
    param(PRECISION, "Optional. Number format of the cache, default BF16; or bytes per element.",
          default="BF16"),
    param(BATCH, "Optional. Number of sequences held at once. Default 1.", default=1),
    result_unit("GB", D_UNIT_GB),
    param(Arg("state_bytes", "B", NONNEGATIVE),
          "Optional. Fixed state each sequence keeps in linear-attention or Mamba layers, bytes or text ('39.5 MB'): MODEL_SPEC(name,\"recurrent_state_bytes\"). Default 0.",  # noqa: E501
          default=OMIT),
    formula=memory.kv_cache_gb,
    explain=_kv,
    example=("=KV_CACHE_GB(32,8,128,8192)", "1.0737"),
    summary="2·L·H·D·bytes·tokens·batch",
    native={(): _KV_STATE, ("state_bytes",): _KV},
    native_result="nonnegative",
)


def _fits(w):
    usable = memory.usable_gb(w.capacity_gb, w.reserve_fraction)
    return (f"{q(w.need_gb, 'GB')} ≤ {q(w.capacity_gb, 'GB')} × (1 − {num(w.reserve_fraction)})"
            f" = {q(usable, 'GB')}? {show(w.result)}")


declare(
    "FITS",
    "TRUE when need_gb <= capacity_gb × (1 − reserve_fraction). Memory in GB unless given as text with units. FITS(140,80) = FALSE; FITS(70,80) = TRUE.",  # noqa: E501
    param(MEMORY_NEED, D_NEED),
    param(CAPACITY, D_CAPACITY),
    param(RESERVE_FRACTION, D_RESERVE, default=0),
    formula=memory.fits,
    result=BOOL,
    explain=_fits,
    example=("=FITS(140,80)", "FALSE"),
    native='ROUND({need_gb}/({capacity_gb}*(1-{reserve_fraction})),11)<=1',
    native_note=("TRUE when need ÷ usable capacity, rounded to 12 significant digits, is at "
                 "most 1 (the function's rule)."),
)


def _gpus(w):
    usable = memory.usable_gb(w.capacity_gb, w.reserve_fraction)
    return (f"⌈{q(w.need_gb, 'GB')} ÷ {q(usable, 'GB')}⌉ = ⌈{num(w.need_gb / usable)}⌉ = "
            f"{plural(w.result, 'GPU')}")


declare(
    "GPUS_NEEDED",
    "Whole GPUs to hold need_gb: CEILING(need ÷ (capacity × (1 − reserve))). Memory in GB unless given with units. GPUS_NEEDED(140,80) = 2.",  # noqa: E501
    param(MEMORY_NEED, D_NEED),
    param(CAPACITY, D_CAPACITY),
    param(RESERVE_FRACTION, D_RESERVE, default=0),
    formula=memory.gpus_needed,
    explain=_gpus,
    example=("=GPUS_NEEDED(140,80)", "2"),
    native='IF({need_gb}>0,MAX(CEILING(ROUND({need_gb}/({capacity_gb}*(1-{reserve_fraction})),11-INT(LOG10({need_gb}/({capacity_gb}*(1-{reserve_fraction}))))),1),1),0)',
    native_result="nonnegative",
)


declare(
    "MOE_EXPERTS_READ",
    "Distinct experts one MoE layer reads in a decode step = E × (1 − (1 − k/E)^B), under uniform routing: k at batch 1, towards E at large batch. MOE_EXPERTS_READ(8,2,2) = 3.5.",  # noqa: E501
    param(Arg("experts", None, AT_LEAST_ONE, whole=True),
          "Routed experts per MoE layer, E (MODEL_SPEC(name,\"num_experts\"))."),
    param(Arg("top_k", None, AT_LEAST_ONE, whole=True),
          "Experts each token picks, k (MODEL_SPEC(name,\"experts_per_token\")); at most E."),
    param(Arg("batch", None, NONNEGATIVE),
          "Tokens the step computes, B: the sequences in the batch (× draft tokens + 1 with speculative decoding)."),  # noqa: E501
    formula=memory.moe_experts_read,
    nonfinite="top_k is more than experts: a token cannot pick more experts than there are",
    explain=lambda w: (f"{num(w.experts)} × (1 − (1 − {num(w.top_k)}/{num(w.experts)})^"
                       f"{num(w.batch)}) = {num(w.result)} experts read per layer of "
                       f"{num(w.experts)} ({num(w.top_k)} at batch 1; uniform routing)"),
    example=("=MOE_EXPERTS_READ(8,2,2)", "3.5"),
    summary="distinct experts a decode step reads, uniform routing",
    # (1-k/E)^B underflows at a large batch, where LibreOffice's ^ gives #NUM!: 0 below
    # e^-700, E where k = E (workbook/moe.py, the same formula; tests/test_moe_any_batch.py)
    native='IF({top_k}<{experts},{experts}*(1-IF({batch}*LN(1-{top_k}/{experts})<-700,0,(1-{top_k}/{experts})^{batch})),IF({top_k}={experts},IF({batch}>0,{experts},0),#NUM!))',
)
