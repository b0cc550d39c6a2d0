"""Excel functions of ``udfs.inference.timing``: the max rule, the decode floor, token rates."""

from __future__ import annotations

from ..inference import memory, model_reads, timing
from ..inference.roofline import verdict
from ..machinery.args import AT_LEAST_ONE, NONNEGATIVE, POSITIVE, Arg, Count
from ..machinery.declare import OMIT, ByName, declare, param, result_unit, table
from ..machinery.explain import num, q
from .common import (
    BANDWIDTH,
    BATCH,
    D_BANDWIDTH,
    D_MODELS,
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
    native_result="nonnegative",
)


def decode_floor(params, bytes_per_param, bandwidth, batch, peak_flops, kv_gb,
                 active_params=None, tokens_per_step=None):
    """The decode floor from a parameter count: the weights are params × bytes; the math
    counts the active parameters where given; ÷ the tokens each step yields."""
    flop_params = params if active_params is None else active_params
    t = timing.decode_floor_ms(memory.weight_gb(params, bytes_per_param), kv_gb, bandwidth,
                               flop_params, batch, peak_flops)
    return t if tokens_per_step is None else t / tokens_per_step


def _decode(w):
    weights = memory.weight_gb(w.params, w.precision)
    mem = f"({q(weights, 'GB')} + {q(w.kv_gb, 'GB')} KV) ÷ {q(w.bandwidth, 'TB/s')}"
    per = "" if w.tokens_per_step is None else f" ÷ {num(w.tokens_per_step)} tokens per step"
    if w.peak_flops is None:
        return (f"{mem}{per} = {q(w.result, w.unit)} (memory floor; the math term 2 × params "
                "× batch ÷ peak counts only when peak_flops is given)")
    n = w.params if w.active_params is None else w.active_params
    tmem = timing.decode_memory_ms(weights, w.kv_gb, w.bandwidth)
    tmath = timing.decode_compute_ms(n, w.batch, w.peak_flops)
    return (f"max({mem}, 2 × {num(n)} × {num(w.batch)} ÷ {q(w.peak_flops, 'TFLOPS')}) "
            f"= max({q(tmem, 'ms')}, {q(tmath, 'ms')}){per} = {q(w.result, w.unit)} "
            f"({verdict(tmem, tmath)})")


_MEM = '({params}*{precision}/1E9+{kv_gb})/{bandwidth}'


def _floor_native(flop_params, per_step):
    math = f'2*{flop_params}*{{batch}}/({{peak_flops}}*1E12)*1000'
    return f'MAX({_MEM},{math}){per_step}', f'{_MEM}{per_step}'


def _floor_forms():
    """DECODE_FLOOR's native text for each set of optional arguments left out."""
    out = {}
    for active in (True, False):
        for per in (True, False):
            with_peak, without = _floor_native('{active_params}' if active else '{params}',
                                               '/{tokens_per_step}' if per else '')
            left = (() if active else ('active_params',)) + (() if per else ('tokens_per_step',))
            out[left] = with_peak
            out[('peak_flops',) + left] = without
    return out


declare(
    "DECODE_FLOOR",
    "Per-step decode floor = MAX((weights + KV) ÷ bandwidth, 2 × active params × batch ÷ peak) ÷ tokens per step, in ms. A floor, not a prediction. DECODE_FLOOR(70E9,\"FP8\",3.35) = 20.9.",  # noqa: E501
    param(PARAMS, "Parameters the step reads (weights = params × precision): 8.03E+9 or '8.03B'; or a model name ('Llama 4 Maverick'): the weights it reads at the batch (MoE: the experts the batch touches; its checkpoint's BF16 parts at 2 bytes) and its active parameters."),  # noqa: E501
    param(PRECISION, D_PRECISION),
    param(BANDWIDTH, D_BANDWIDTH),
    param(BATCH, "Optional. Sequences decoded per step. Default 1.", default=1),
    param(PEAK, "Optional. Peak compute (TFLOPS or text); if given, the math time 2 × params × batch ÷ peak counts too.",  # noqa: E501
          default=OMIT),
    param(Arg("kv_gb", "GB", NONNEGATIVE),
          "Optional. KV cache read per step, all sequences together: GB or text. Default 0.",
          default=0),
    result_unit("ms", D_UNIT_MS),
    param(Count("active_params", domain=POSITIVE),
          "Optional. Parameters each token multiplies, for the math term (an MoE model's active parameters). Default: params.",  # noqa: E501
          default=OMIT),
    param(Arg("tokens_per_step", None, AT_LEAST_ONE),
          "Optional. Tokens each step yields per sequence (speculative decoding: SPEC_TOKENS_PER_STEP). Default 1.",  # noqa: E501
          default=OMIT),
    table("models", D_MODELS),
    formula=decode_floor,
    by_name=ByName("params", ("params", "precision", "batch", "active_params", "models"),
                   ("params", "active_params", "precision"), model_reads.decode_args,
                   model_reads.describe_decode, model_reads.names_in),
    explain=_decode,
    example=('=DECODE_FLOOR(70E9,"FP8",3.35)', "20.90"),
    summary="the max rule over one decode step, ms",
    native=_floor_forms(),
    native_result="positive",
    native_note=("A model name as params: from a constant, the row's figures as numbers; from a"
                 " cell, INDEX/MATCH over the model table (names as the table or its aliases "
                 "spell them). A models range is not translated (the cell stays a value). A "
                 "cell that holds a number when translated is read as a number, one that holds "
                 "a name as a name; text from a formula is read as a name (a count as text, "
                 "'8.03B', is #N/A there)."),
)


def _step(w):
    g, bw, p = w.gpus, w.bandwidth, w.peak_flops
    stages = w.stages
    m = stages if w.microbatches is None else w.microbatches
    k = max(m, stages)
    t_kv = w.kv_gb / (g * bw)
    t_attn = timing.math_ms(w.attention_flops, g * p)
    t_math = timing.decode_compute_ms(w.active_params, w.batch, g * p)
    t_w = w.weights_gb / (g * bw)
    if stages == 1 and m == 1:
        return (f"attention max({q(w.kv_gb, 'GB')} KV ÷ ({num(g)} × {q(bw, 'TB/s')}), "
                f"{num(w.attention_flops)} FLOP ÷ ({num(g)} × {q(p, 'TFLOPS')})) = "
                f"{q(max(t_kv, t_attn), 'ms')}; weights max(2 × {num(w.active_params)} × "
                f"{num(w.batch)} ÷ ({num(g)} × {q(p, 'TFLOPS')}), {q(w.weights_gb, 'GB')} ÷ "
                f"({num(g)} × {q(bw, 'TB/s')})) = {q(max(t_math, t_w), 'ms')} "
                f"({verdict(t_w, t_math)}); + all-reduces {q(w.comm_ms, 'ms')} = "
                f"{q(w.result, 'ms')}")
    idle = (f"; the stages idle {num(1 - m / stages)} of the time (fewer micro-batches "
            "than stages)" if m < stages else "")
    return (f"{num(stages)} stages of {num(g / stages)} GPU(s), {num(m)} micro-batches of "
            f"{num(w.batch / m)}: a period is max({num(m)}, {num(stages)}) = {num(k)} stage "
            f"passes{idle}; attention {num(k)} ÷ {num(m)} × max({q(w.kv_gb, 'GB')} KV ÷ "
            f"({num(g)} × {q(bw, 'TB/s')}), {num(w.attention_flops)} FLOP ÷ ({num(g)} × "
            f"{q(p, 'TFLOPS')})) = {q(k / m * max(t_kv, t_attn), 'ms')}; weights max("
            f"{num(k)} ÷ {num(m)} × 2 × {num(w.active_params)} × {num(w.batch)} ÷ ({num(g)} "
            f"× {q(p, 'TFLOPS')}), {num(k)} × {q(w.weights_gb, 'GB')} ÷ ({num(g)} × "
            f"{q(bw, 'TB/s')})) = {q(max(k / m * t_math, k * t_w), 'ms')} "
            f"({verdict(k * t_w, k / m * t_math)}; each stage reads its weights once a "
            f"micro-batch); + {num(k)} ÷ {num(stages)} × all-reduces "
            f"{q(w.comm_ms, 'ms')} = {q(w.result, 'ms')}")


# the terms over one GPU, ÷ the gpus once (MAX(a/g, b/g) = MAX(a, b)/g for g > 0): each
# argument written as few times as the formula allows
_K = 'MAX({microbatches},{stages})'
_STEP_PIPELINE = (f'({_K}/{{microbatches}}*MAX({{kv_gb}}/{{bandwidth}},'
                  '{attention_flops}/({peak_flops}*1E9))'
                  f'+MAX({_K}/{{microbatches}}*2*{{active_params}}*{{batch}}/({{peak_flops}}'
                  f'*1E9),{_K}*{{weights_gb}}/{{bandwidth}}))/{{gpus}}'
                  f'+{_K}/{{stages}}*{{comm_ms}}')
_STEP_STAGES = ('(MAX({kv_gb}/{bandwidth},{attention_flops}/({peak_flops}*1E9))'
                '+MAX(2*{active_params}*{batch}/({peak_flops}*1E9),'
                '{stages}*{weights_gb}/{bandwidth}))/{gpus}+{comm_ms}')


def _divides(text):
    return f'IF(MOD({{gpus}},{{stages}})=0,{text},#NUM!)'


declare(
    "DECODE_STEP_MS",
    "Decode step floor = MAX(KV ÷ bandwidth, attention FLOPs ÷ peak) + MAX(2 × active params × batch ÷ peak, weights ÷ bandwidth) + all-reduces, over a replica's GPUs, in ms; with pipeline stages, per period of the pipeline.",  # noqa: E501
    param(Arg("weights_gb", "GB", NONNEGATIVE),
          "Weights the step reads, GB, all GPUs together (WEIGHT_GB; for MoE the experts the batch touches)."),  # noqa: E501
    param(Arg("kv_gb", "GB", NONNEGATIVE),
          "KV cache the step reads, all sequences together: GB or text ('8.6 GB')."),
    param(BANDWIDTH, "Memory bandwidth of one GPU: bare number in TB/s, or text ('3.35 TB/s')."),
    param(Count("active_params", domain=POSITIVE),
          "Parameters each token multiplies (an MoE model's active parameters): 8.03E+9 or '37B'."),
    param(BATCH, "Tokens the step computes: the sequences decoded (× draft tokens + 1 with speculative decoding)."),  # noqa: E501
    param(PEAK, "Peak compute of one GPU at the math precision: TFLOPS or text ('989 TFLOPS')."),
    param(Arg("attention_flops", "FLOP", NONNEGATIVE),
          "Optional. FLOPs of the attention products of the step (DECODE_ATTENTION_FLOP). Default 0.",  # noqa: E501
          default=0),
    param(Arg("gpus", None, POSITIVE, whole=True),
          "Optional. GPUs of the replica, all stages together, sharing bytes and FLOPs (whole number). Default 1.",  # noqa: E501
          default=1),
    param(Arg("comm_ms", "ms", NONNEGATIVE),
          "Optional. All-reduces of one micro-batch through all layers at gpus ÷ stages GPUs, ms (TP_COMM_MS). Default 0.",  # noqa: E501
          default=0),
    param(Arg("stages", None, AT_LEAST_ONE, whole=True),
          "Optional. Pipeline stages, each gpus ÷ stages GPUs in tensor parallel (whole number dividing gpus). Default 1.",  # noqa: E501
          default=1),
    param(Arg("microbatches", None, AT_LEAST_ONE, whole=True),
          "Optional. Micro-batches the batch is split into, at most batch (whole number). Default: stages.",  # noqa: E501
          default=OMIT),
    formula=timing.decode_step_ms,
    nonfinite="stages must divide gpus: each stage is gpus ÷ stages whole GPUs in tensor parallel",
    explain=_step,
    example=('=DECODE_STEP_MS(16.06,8.589934592,3.35,8.03E9,64,989)', "7.358"),
    summary="attention + weights + all-reduces, ms; pipeline stages",
    native={(): _divides(_STEP_PIPELINE), ("microbatches",): _divides(_STEP_STAGES)},
)

declare(
    "DECODE_ATTENTION_FLOP",
    "FLOPs of the attention products of one decode step = 4 × layers × attn_dim × context × batch (QKᵀ and AV). attn_dim: heads × head_dim; MLA: heads × 544.",  # noqa: E501
    param(Arg("layers", None, POSITIVE, whole=True), "Layers with attention over the context (whole number)."),  # noqa: E501
    param(Arg("attn_dim", None, POSITIVE), "Query heads × head_dim (32 × 128 = 4096 for Llama 3.1 8B)."),  # noqa: E501
    param(Arg("context", None, NONNEGATIVE), "Tokens each sequence attends to (its context so far)."),  # noqa: E501
    param(BATCH, "Optional. Sequences in the step. Default 1.", default=1),
    formula=timing.decode_attention_flop,
    explain=lambda w: (f"4 × {num(w.layers)} layers × {num(w.attn_dim)} × {num(w.context)} "
                       f"tokens × {num(w.batch)} = {num(w.result)} FLOP"),
    example=("=DECODE_ATTENTION_FLOP(32,4096,1024,64)", "34359738368"),
    summary="4 · L · d_attn · T · B",
    native='4*{layers}*{attn_dim}*{context}*{batch}',
)

declare(
    "TOKENS_PER_SEC",
    "Tokens per second of one stream = 1000 ÷ ms per token. TOKENS_PER_SEC(5) = 200.",
    param(MS_TOKEN, "Time per token of one stream: bare number in ms, or text ('5 ms')."),
    formula=timing.tokens_per_sec,
    explain=lambda w: f"1000 ÷ {q(w.ms_per_token, 'ms')} = {num(w.result)} tokens/s",
    example=("=TOKENS_PER_SEC(5)", "200"),
    native='1000/{ms_per_token}',
    native_result="positive",
)

declare(
    "MS_PER_TOKEN",
    "Milliseconds per token = 1000 ÷ tokens per second. MS_PER_TOKEN(200) = 5.",
    param(TPS, "Tokens per second: a bare number, or text ('200 tokens/s')."),
    formula=timing.ms_per_token,
    explain=lambda w: f"1000 ÷ {q(w.tokens_per_sec, 'tokens/s')} = {q(w.result, 'ms')} per token",
    example=("=MS_PER_TOKEN(200)", "5"),
    native='1000/{tokens_per_sec}',
    native_result="positive",
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
    native_result="nonnegative",
)
