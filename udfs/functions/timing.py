"""Excel functions of ``udfs.timing``: the max rule, the decode floor, token rates."""

from __future__ import annotations

from .. import memory, timing
from ..args import NONNEGATIVE, POSITIVE, Arg
from ..declare import OMIT, declare, param, result_unit
from ..explain import num, q, verdict
from .common import (
    BANDWIDTH,
    BATCH,
    D_BANDWIDTH,
    D_PARAMS,
    D_PEAK,
    D_PRECISION,
    D_UNIT_MS,
    MS_TOKEN,
    PARAMS,
    PEAK,
    PRECISION,
    TPS,
)


def _kernel(w):
    tm = timing.math_ms(w.flops, w.peak_flops)
    tb = timing.transfer_ms(w.bytes, w.bandwidth)
    k = w.result / max(tm, tb) if max(tm, tb) else 1.0  # ms -> the result's unit
    return (f"max({num(w.flops)} FLOP ÷ {q(w.peak_flops, 'TFLOPS')}, {num(w.bytes)} B ÷ "
            f"{q(w.bandwidth, 'TB/s')}) = max({q(tm * k, w.unit)}, {q(tb * k, w.unit)}) = "
            f"{q(w.result, w.unit)} ({verdict(tb, tm)})")


declare(
    "KERNEL_TIME",
    "The max rule: time ≈ MAX(flops ÷ peak_flops, bytes ÷ bandwidth), in ms. FLOPs and bytes are counts; peak in TFLOPS, bandwidth in TB/s unless given as text.",  # noqa: E501
    param(Arg("flops", "FLOP", NONNEGATIVE),
          "FLOPs the kernel does: a count (2E+9) or text such as '16 GFLOP'."),
    param(Arg("bytes", "B", NONNEGATIVE),
          "Bytes the kernel moves: a count (67E+6) or text such as '67 MB'."),
    param(PEAK, D_PEAK),
    param(BANDWIDTH, D_BANDWIDTH),
    result_unit("ms", D_UNIT_MS),
    formula=timing.kernel_time_ms,
    explain=_kernel,
    example=('=KERNEL_TIME(2^24,2^26,67,3.35,"us")', "20.03"),
    summary="the max rule",
    native='MAX({flops}/({peak_flops}*1E12),{bytes}/({bandwidth}*1E12))*1000',
)


def decode_floor(params, bytes_per_param, bandwidth, batch, peak_flops, kv_gb):
    """The decode floor from a parameter count: the weights are params × bytes."""
    return timing.decode_floor_ms(memory.weight_gb(params, bytes_per_param), kv_gb, bandwidth,
                                  params, batch, peak_flops)


def _decode(w):
    weights = memory.weight_gb(w.params, w.precision)
    mem = f"({q(weights, 'GB')} + {q(w.kv_gb, 'GB')} KV) ÷ {q(w.bandwidth, 'TB/s')}"
    if w.peak_flops is None:
        return (f"{mem} = {q(w.result, w.unit)} (memory floor; the math term 2 × params × "
                "batch ÷ peak counts only when peak_flops is given)")
    tmem = timing.decode_memory_ms(weights, w.kv_gb, w.bandwidth)
    tmath = timing.decode_compute_ms(w.params, w.batch, w.peak_flops)
    return (f"max({mem}, 2 × {num(w.params)} × {num(w.batch)} ÷ {q(w.peak_flops, 'TFLOPS')}) "
            f"= max({q(tmem, 'ms')}, {q(tmath, 'ms')}) = {q(w.result, w.unit)} "
            f"({verdict(tmem, tmath)})")


declare(
    "DECODE_FLOOR",
    "Per-token decode floor = MAX((weights + KV) ÷ bandwidth, 2 × params × batch ÷ peak), in ms. A floor, not a prediction. DECODE_FLOOR(70E9,\"FP8\",3.35) = 20.9.",  # noqa: E501
    param(PARAMS, D_PARAMS),
    param(PRECISION, D_PRECISION),
    param(BANDWIDTH, D_BANDWIDTH),
    param(BATCH, "Optional. Sequences decoded per step. Default 1.", default=1),
    param(PEAK, "Optional. Peak compute (TFLOPS or text); if given, the math time 2 × params × batch ÷ peak counts too.",  # noqa: E501
          default=OMIT),
    param(Arg("kv_gb", "GB", NONNEGATIVE),
          "Optional. KV cache read per step, all sequences together: GB or text. Default 0.",
          default=0),
    result_unit("ms", D_UNIT_MS),
    formula=decode_floor,
    explain=_decode,
    example=('=DECODE_FLOOR(70E9,"FP8",3.35)', "20.90"),
    summary="the max rule over one decode step, ms",
    native={
        ():
            'MAX(({params}*{precision}/1E9+{kv_gb})/{bandwidth},2*{params}*{batch}/({peak_flops}*1E12)*1000)',
        ('peak_flops',):
            '({params}*{precision}/1E9+{kv_gb})/{bandwidth}',
    },
)

declare(
    "TOKENS_PER_SEC",
    "Tokens per second of one stream = 1000 ÷ ms per token. TOKENS_PER_SEC(5) = 200.",
    param(MS_TOKEN, "Time per token of one stream: bare number in ms, or text ('5 ms')."),
    formula=timing.tokens_per_sec,
    explain=lambda w: f"1000 ÷ {q(w.ms_per_token, 'ms')} = {num(w.result)} tokens/s",
    example=("=TOKENS_PER_SEC(5)", "200"),
    native='1000/{ms_per_token}',
)

declare(
    "MS_PER_TOKEN",
    "Milliseconds per token = 1000 ÷ tokens per second. MS_PER_TOKEN(200) = 5.",
    param(TPS, "Tokens per second: a bare number, or text ('200 tokens/s')."),
    formula=timing.ms_per_token,
    explain=lambda w: f"1000 ÷ {q(w.tokens_per_sec, 'tokens/s')} = {q(w.result, 'ms')} per token",
    example=("=MS_PER_TOKEN(200)", "5"),
    native='1000/{tokens_per_sec}',
)

declare(
    "PER_USER_TPS",
    "Tokens/s each stream sees = aggregate ÷ streams. PER_USER_TPS(1800,10) = 180. An aggregate figure means nothing without the number of streams.",  # noqa: E501
    param(Arg("aggregate_tps", "token/s", NONNEGATIVE),
          "Tokens/s of all streams together: a number or text ('1800 tokens/s')."),
    param(Arg("streams", None, POSITIVE), "Number of concurrent streams (users) sharing it."),
    formula=timing.per_user_tps,
    explain=lambda w: (f"{q(w.aggregate_tps, 'tokens/s')} ÷ {num(w.streams)} streams = "
                       f"{q(w.result, 'tokens/s')} per stream"),
    example=("=PER_USER_TPS(1800,10)", "180"),
    native='{aggregate_tps}/{streams}',
)
