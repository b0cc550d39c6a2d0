"""Excel functions of ``udfs.inference.roofline``: intensity, ridge, roofline, utilisation."""

from __future__ import annotations

from ..inference import roofline
from ..inference.precisions import Precision
from ..machinery.args import NONNEGATIVE, OPEN_FRACTION, POSITIVE, Arg, Count
from ..machinery.broadcast import TEXT
from ..machinery.declare import declare, param
from ..machinery.explain import above_one, num, q
from .common import BANDWIDTH, D_BANDWIDTH, D_PEAK, MS_TOKEN, PEAK, PRECISION, TPS

declare(
    "INTENSITY",
    "Arithmetic intensity = FLOPs ÷ bytes moved, in FLOP/byte. INTENSITY(1,4) = 0.25 (y = x × 2 in BF16).",  # noqa: E501
    param(Arg("flops", "FLOP", NONNEGATIVE), "FLOPs done: a count or text ('16 GFLOP')."),
    param(Arg("bytes", "B", POSITIVE), "Bytes moved: a count or text ('67 MB')."),
    formula=roofline.intensity,
    explain=lambda w: f"{num(w.flops)} FLOP ÷ {num(w.bytes)} B = {q(w.result, 'FLOP/byte')}",
    example=("=INTENSITY(1,4)", "0.25"),
    summary="FLOPs ÷ bytes, FLOP/byte",
    native='{flops}/{bytes}',
    native_result="nonnegative",
)


def _matmul(w):
    m, n, k, b = w.m, w.n, w.k, w.precision
    return (f"2 × {num(m)} × {num(n)} × {num(k)} ÷ ({num(b)} B × ({num(m)}×{num(k)} + "
            f"{num(k)}×{num(n)} + {num(m)}×{num(n)})) = {q(w.result, 'FLOP/byte')}")


declare(
    "MATMUL_INTENSITY",
    "Intensity of an (m×k)·(k×n) product = 2mnk ÷ (bytes × (mk + kn + mn)), FLOP/byte. MATMUL_INTENSITY(4096,4096,4096) = 1365.",  # noqa: E501
    param(Arg("m", None, POSITIVE, whole=True), "Rows of the left matrix (whole number)."),
    param(Arg("n", None, POSITIVE, whole=True), "Columns of the right matrix (whole number)."),
    param(Arg("k", None, POSITIVE, whole=True), "Shared inner dimension (whole number)."),
    param(PRECISION,
          "Optional. Number format of all three matrices, default BF16; or bytes per element.",
          default="BF16"),
    formula=roofline.matmul_intensity,
    explain=_matmul,
    example=("=MATMUL_INTENSITY(4096,4096,4096)", "1365.3"),
    native='2*{m}*{n}*{k}/({precision}*({m}*{k}+{k}*{n}+{m}*{n}))',
    native_result="positive",
)

declare(
    "RIDGE",
    "Ridge point = peak × efficiency ÷ bandwidth, in FLOP/byte. Below it a kernel is memory-bound, above it compute-bound. RIDGE(989,3.35) = 295.2.",  # noqa: E501
    param(PEAK, D_PEAK),
    param(BANDWIDTH, D_BANDWIDTH),
    param(Arg("efficiency", "dimensionless", OPEN_FRACTION),
          "Optional. Share of the datasheet peak reached, >0 to 1 (0.8 is typical). Default 1.",
          default=1),
    formula=roofline.ridge,
    explain=lambda w: (f"{q(w.peak_flops, 'TFLOPS')} × {num(w.efficiency)} ÷ "
                       f"{q(w.bandwidth, 'TB/s')} = {q(w.result, 'FLOP/byte')}"),
    example=('=RIDGE("989 TFLOPS","3.35 TB/s")', "295.22"),
    summary="peak ÷ bandwidth, FLOP/byte",
    native='{peak_flops}*{efficiency}/{bandwidth}',
    native_result="positive",
)


def _attainable(w):
    roof = roofline.memory_roof_tflops(w.intensity, w.bandwidth)
    bound = roofline.MEMORY_BOUND if roof < w.peak_flops else roofline.COMPUTE_BOUND
    return (f"min({q(w.peak_flops, 'TFLOPS')}, {q(w.bandwidth, 'TB/s')} × {num(w.intensity)} "
            f"FLOP/byte) = min({q(w.peak_flops, 'TFLOPS')}, {q(roof, 'TFLOPS')}) = "
            f"{q(w.result, 'TFLOPS')} ({bound})")


declare(
    "ATTAINABLE",
    "Roofline: attainable compute = MIN(peak, bandwidth × intensity), in TFLOPS. ATTAINABLE(0.25,989,3.35) = 0.8375.",  # noqa: E501
    param(Arg("intensity", "FLOP/B", NONNEGATIVE),
          "Arithmetic intensity in FLOP/byte: a number or text ('0.25 FLOP/B')."),
    param(PEAK, D_PEAK),
    param(BANDWIDTH, D_BANDWIDTH),
    formula=roofline.attainable_tflops,
    explain=_attainable,
    example=("=ATTAINABLE(0.25,989,3.35)", "0.8375"),
    summary="MIN(peak, bandwidth × intensity), TFLOPS",
    native='MIN({peak_flops},{bandwidth}*{intensity})',
    native_result="nonnegative",
)

declare(
    "BOUND",
    "\"memory-bound\" when intensity < ridge, else \"compute-bound\". BOUND(1,295) = \"memory-bound\".",  # noqa: E501
    param(Arg("intensity", "FLOP/B", NONNEGATIVE),
          "Arithmetic intensity of the kernel, FLOP/byte."),
    param(Arg("ridge", "FLOP/B", POSITIVE), "Ridge point of the chip, FLOP/byte (see RIDGE)."),
    formula=roofline.bound,
    result=TEXT,
    explain=lambda w: (f"{num(w.intensity)} {'<' if w.intensity < w.ridge else '≥'} ridge "
                       f"{num(w.ridge)} FLOP/byte: {w.result}"),
    example=("=BOUND(64,295)", "memory-bound"),
    native='IF({intensity}<{ridge},"memory-bound","compute-bound")',
)


def _critical(w):
    ridge = roofline.ridge(w.peak_flops, w.bandwidth)
    return (f"ridge ({q(w.peak_flops, 'TFLOPS')} ÷ {q(w.bandwidth, 'TB/s')} = {num(ridge)}) × "
            f"{num(w.weight_precision)} B ÷ 2 = batch {num(w.result)}")


declare(
    "CRITICAL_BATCH",
    "Batch at which a decode GEMM reaches the ridge = ridge × bytes per weight ÷ 2. H100 BF16: CRITICAL_BATCH(989,3.35) = 295; FP8 weights on the BF16 roof: 148.",  # noqa: E501
    param(PEAK, D_PEAK),
    param(BANDWIDTH, D_BANDWIDTH),
    param(Precision("weight_precision"),
          "Optional. Number format of the weights, default BF16; or bytes per weight.",
          default="BF16"),
    formula=roofline.critical_batch,
    explain=_critical,
    example=('=CRITICAL_BATCH(989,3.35,"FP8")', "147.61"),
    native='{peak_flops}/{bandwidth}*{weight_precision}/2',
    native_result="positive",
)


declare(
    "DECODE_INTENSITY",
    "Intensity of a whole decode step = (2 × active params × batch + attention FLOPs) ÷ (weights + KV cache read), FLOP/byte: with BOUND and RIDGE, the side of the ridge counting the KV cache. DECODE_INTENSITY(8.03E9,64,4.015,68.72,2.749E11) = 17.9.",  # noqa: E501
    param(Count("active_params", domain=POSITIVE),
          "Parameters each token multiplies (an MoE model's active parameters): 8.03E+9 or '8.03B'."),  # noqa: E501
    param(Arg("batch", None, POSITIVE), "Sequences decoded in the step."),
    param(Arg("weights_gb", "GB", NONNEGATIVE),
          "Weights the step reads, GB (WEIGHT_GB; for MoE the experts the batch touches)."),
    param(Arg("kv_gb", "GB", NONNEGATIVE),
          "KV cache the step reads, all sequences together: GB or text ('68.7 GB')."),
    param(Arg("attention_flops", "FLOP", NONNEGATIVE),
          "Optional. FLOPs of the attention products of the step (DECODE_ATTENTION_FLOP). Default 0.",  # noqa: E501
          default=0),
    formula=roofline.decode_intensity,
    explain=lambda w: (f"(2 × {num(w.active_params)} × {num(w.batch)} + "
                       f"{num(w.attention_flops)} FLOP) ÷ (({q(w.weights_gb, 'GB')} + "
                       f"{q(w.kv_gb, 'GB')} KV) × 1e9 B) = {q(w.result, 'FLOP/byte')}"),
    example=("=DECODE_INTENSITY(8.03E9,64,4.015,68.719476736,274877906944)", "17.911"),
    summary="FLOPs ÷ (weights + KV) of a step, FLOP/byte",
    native='(2*{active_params}*{batch}+{attention_flops})/(({weights_gb}+{kv_gb})*1E9)',
)


def _mbu(w):
    achieved = roofline.achieved_tbps(w.bytes_per_token_gb, w.ms_per_token)
    return (f"({q(w.bytes_per_token_gb, 'GB')} ÷ {q(w.ms_per_token, 'ms')} = "
            f"{q(achieved, 'TB/s')}) ÷ {q(w.bandwidth, 'TB/s')} = {num(w.result)}"
            f"{above_one(w.result)}")


declare(
    "MBU",
    "Memory-bandwidth utilisation from a measurement = (GB per token ÷ time per token) ÷ peak bandwidth. Above 1 means an assumption is wrong.",  # noqa: E501
    param(Arg("bytes_per_token_gb", "GB", POSITIVE),
          "Bytes read per token (weights + KV): bare number in GB, or text."),
    param(MS_TOKEN, "Measured time per token: bare number in ms, or text ('5 ms')."),
    param(BANDWIDTH, D_BANDWIDTH),
    formula=roofline.mbu,
    explain=_mbu,
    example=("=MBU(16.06,5,3.35)", "0.9588"),
    native='{bytes_per_token_gb}/{ms_per_token}/{bandwidth}',
    native_result="positive",
)


def _mfu(w):
    achieved = roofline.achieved_tflops(w.flops_per_token, w.tokens_per_sec)
    return (f"{num(w.flops_per_token)} FLOP × {q(w.tokens_per_sec, 'tokens/s')} = "
            f"{q(achieved, 'TFLOPS')} ÷ {q(w.peak_flops, 'TFLOPS')} = {num(w.result)}"
            f"{above_one(w.result)}")


declare(
    "MFU",
    "Model FLOPs utilisation from a measurement = FLOPs per token × tokens/s ÷ peak FLOPS. Above 1 means an assumption is wrong.",  # noqa: E501
    param(Arg("flops_per_token", "FLOP", POSITIVE, also=("FLOP/token",)),
          "FLOPs per token (about 2 × params): a count or text ('16 GFLOP')."),
    param(TPS, "Measured tokens per second: a number or text ('2000 tokens/s')."),
    param(PEAK, D_PEAK),
    formula=roofline.mfu,
    explain=_mfu,
    example=("=MFU(16.06E9,2000,989)", "0.03248"),
    native='{flops_per_token}*{tokens_per_sec}/({peak_flops}*1E12)',
    native_result="positive",
)
