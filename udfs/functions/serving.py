"""Excel functions of ``udfs.inference.serving``: batch, latency, parallelism, speculative
decoding, traffic."""

from __future__ import annotations

from ..inference import serving
from ..inference.interconnects import Latency
from ..machinery.args import FRACTION, NONNEGATIVE, POSITIVE, RESERVE, Arg
from ..machinery.declare import OMIT, declare, param
from ..machinery.explain import num, q
from .common import BANDWIDTH, CAPACITY, D_BANDWIDTH, D_CAPACITY, D_PEAK, PEAK, PRECISION

WEIGHTS_GB = Arg("weights_gb", "GB", NONNEGATIVE)
KV_PER_SEQUENCE = Arg("kv_gb_per_sequence", "GB", POSITIVE)
FLOPS_PER_TOKEN = Arg("flops_per_token", "FLOP", POSITIVE, also=("FLOP/token",))
ACCEPTANCE = Arg("acceptance_rate", "dimensionless", FRACTION)
DRAFT_TOKENS = Arg("draft_tokens", None, NONNEGATIVE, whole=True)

D_WEIGHTS = "Weight memory, GB (WEIGHT_GB), or text ('16.06 GB'); all GPUs together."
D_KV_SEQ = "KV cache of one sequence at its full context, GB (KV_CACHE_GB), or text."
D_ALPHA = "Chance each draft token is accepted, 0 to 1 (0.8 or '80 %')."
D_GAMMA = "Draft tokens proposed per step (whole number, 0 or more)."


def _s(r):
    return "" if r == 1 else "s"


def _max_batch(w):
    free = serving.free_gb(w.capacity_gb, w.weights_gb, w.reserve_fraction, w.gpus)
    head = (f"⌊({num(w.gpus)} × {q(w.capacity_gb, 'GB')} × (1 − {num(w.reserve_fraction)}) − "
            f"{q(w.weights_gb, 'GB')} weights) ÷ {q(w.kv_gb_per_sequence, 'GB')} per sequence⌋")
    if free < 0:
        return f"{head}: the weights alone do not fit ({q(free, 'GB')} left) = 0 sequences"
    return (f"{head} = ⌊{num(free / w.kv_gb_per_sequence)}⌋ = {num(w.result)} "
            f"sequence{_s(w.result)}")


declare(
    "MAX_BATCH",
    "Sequences whose KV cache fits beside the weights = FLOOR((gpus × capacity × (1 − reserve) − weights) ÷ KV per sequence); 0 when the weights do not fit. MAX_BATCH(80,16.06,1.0737) = 59.",  # noqa: E501
    param(CAPACITY, D_CAPACITY),
    param(WEIGHTS_GB, D_WEIGHTS),
    param(KV_PER_SEQUENCE, D_KV_SEQ),
    param(Arg("reserve_fraction", "dimensionless", RESERVE),
          "Optional. Share of capacity held back for activations and runtime, 0 to <1. Default 0.",
          default=0),
    param(Arg("gpus", None, POSITIVE, whole=True),
          "Optional. GPUs the model and its cache are spread over (whole number). Default 1.",
          default=1),
    formula=serving.max_batch,
    explain=_max_batch,
    example=("=MAX_BATCH(80,16.06,1.073741824)", "59"),
    summary="sequences whose KV fits beside the weights; 0 when the weights do not fit",
    native='IF(({gpus}*{capacity_gb}*(1-{reserve_fraction})-{weights_gb})/{kv_gb_per_sequence}>0,INT(ROUND(({gpus}*{capacity_gb}*(1-{reserve_fraction})-{weights_gb})/{kv_gb_per_sequence},11-INT(LOG10(({gpus}*{capacity_gb}*(1-{reserve_fraction})-{weights_gb})/{kv_gb_per_sequence})))),0)',
    native_result="nonnegative",
)


def _batch_latency(w):
    mem = serving.memory_batch_limit(w.target_ms, w.weights_gb, w.kv_gb_per_sequence,
                                     w.bandwidth)
    text = (f"memory: ({q(w.target_ms, 'ms')} × {q(w.bandwidth, 'TB/s')} − "
            f"{q(w.weights_gb, 'GB')}) ÷ {q(w.kv_gb_per_sequence, 'GB')} = {num(mem)}")
    if w.flops_per_token is not None:
        compute = serving.compute_batch_limit(w.target_ms, w.flops_per_token, w.peak_flops)
        text += (f"; compute: {q(w.target_ms, 'ms')} × {q(w.peak_flops, 'TFLOPS')} ÷ "
                 f"{num(w.flops_per_token)} FLOP = {num(compute)}")
    verdict = " (batch 1 misses the target)" if w.result == 0 else ""
    return f"{text}; ⌊min⌋ = batch {num(w.result)}{verdict}"


declare(
    "BATCH_FOR_LATENCY",
    "Largest batch whose decode step MAX((weights + batch × KV) ÷ bandwidth, batch × flops_per_token ÷ peak) stays within target_ms; 0 when batch 1 misses it. BATCH_FOR_LATENCY(20,16.06,1.0737,3.35) = 47.",  # noqa: E501
    param(Arg("target_ms", "ms", POSITIVE, also=("ms/token",)),
          "Time allowed per decode step, ms (1000 ÷ tokens/s per user), or text ('33 ms')."),
    param(WEIGHTS_GB, D_WEIGHTS),
    param(KV_PER_SEQUENCE, D_KV_SEQ),
    param(BANDWIDTH, D_BANDWIDTH),
    param(FLOPS_PER_TOKEN,
          "Optional, with peak_flops. FLOPs per token (about 2 × params). Omitted: memory term only.",  # noqa: E501
          default=OMIT),
    param(PEAK, "Optional, with flops_per_token. " + D_PEAK, default=OMIT),
    together=(("flops_per_token", "peak_flops"),),
    formula=serving.batch_for_latency,
    explain=_batch_latency,
    example=("=BATCH_FOR_LATENCY(20,16.06,1.073741824,3.35)", "47"),
    summary="largest batch whose step floor meets the target; 0 when batch 1 misses",
    native={
        ():
            'IF(MIN(({target_ms}*{bandwidth}-{weights_gb})/{kv_gb_per_sequence},{target_ms}*{peak_flops}*1E9/{flops_per_token})>0,INT(ROUND(MIN(({target_ms}*{bandwidth}-{weights_gb})/{kv_gb_per_sequence},{target_ms}*{peak_flops}*1E9/{flops_per_token}),11-INT(LOG10(MIN(({target_ms}*{bandwidth}-{weights_gb})/{kv_gb_per_sequence},{target_ms}*{peak_flops}*1E9/{flops_per_token}))))),0)',
        ('flops_per_token', 'peak_flops'):
            'IF(({target_ms}*{bandwidth}-{weights_gb})/{kv_gb_per_sequence}>0,INT(ROUND(({target_ms}*{bandwidth}-{weights_gb})/{kv_gb_per_sequence},11-INT(LOG10(({target_ms}*{bandwidth}-{weights_gb})/{kv_gb_per_sequence})))),0)',
    },
    native_result="nonnegative",
    native_note=("flops_per_token and peak_flops go together: one without the other is #VALUE!,"
                 " as the function."),
)


def _tp_comm(w):
    p = w.tp
    if p == 1:
        return f"tp = 1: no all-reduce = {q(w.result, 'ms')}"
    size = serving.allreduce_bytes(w.batch, w.hidden, w.precision)
    base = f"{q(w.base_latency_us, 'us')} + " if w.base_latency_us else ""
    return (f"{num(w.allreduces_per_layer)} all-reduces × {num(w.layers)} layers × ({base}2 × "
            f"{num(p - 1)} × {q(w.latency_us, 'us')} + 2 × {num(p - 1)}/{num(p)} × "
            f"({num(w.batch)} × {num(w.hidden)} × {num(w.precision)} B = {num(size)} B) ÷ "
            f"{q(w.link_bandwidth, 'TB/s')}) = {q(w.result, 'ms')} per step")


declare(
    "TP_COMM_MS",
    "Tensor-parallel all-reduce time per decode step, ring α–β model, ms = all-reduces × layers × (base + 2(tp−1) × latency + 2(tp−1)/tp × batch × hidden × bytes ÷ link). 0 when tp = 1. NCCL: latency 0.6 µs NVLink, base 6.6 µs.",  # noqa: E501
    param(Arg("hidden", None, POSITIVE, whole=True),
          "Hidden size of the model (config hidden_size, whole number)."),
    param(Arg("batch", None, POSITIVE),
          "Tokens in the step: in decode, the sequences in the batch."),
    param(Arg("tp", None, POSITIVE, whole=True),
          "Tensor-parallel degree: GPUs sharing each layer (whole number). 1: no communication."),
    param(Arg("link_bandwidth", "TB/s", POSITIVE),
          "Per-GPU link bandwidth, one direction: bare number in TB/s, or text ('450 GB/s' for H100 NVLink)."),  # noqa: E501
    param(Arg("layers", None, POSITIVE, whole=True),
          "Optional. Transformer layers (whole number). Default 1: the time per layer.",
          default=1),
    param(PRECISION,
          "Optional. Number format of the activations, default BF16; or bytes per element.",
          default="BF16"),
    param(Arg("allreduces_per_layer", None, NONNEGATIVE, whole=True),
          "Optional. All-reduces per layer per step (whole number). Default 2 (Megatron).",
          default=2),
    param(Latency("latency_us", "hop_latency_us"),
          "Optional. Latency of one ring step, µs, text ('2 us'), or an interconnect: 'NVLink' 0.6, 'PCIe' 1.0, 'InfiniBand' 2.7 (NCCL's). Default 0.",  # noqa: E501
          default=0),
    param(Latency("base_latency_us", "base_latency_us"),
          "Optional. Latency of one all-reduce call, µs, text, or an interconnect ('NVLink': NCCL's 6.6 us). Default 0.",  # noqa: E501
          default=0),
    formula=serving.tp_comm_ms,
    explain=_tp_comm,
    example=('=TP_COMM_MS(8192,64,8,"450 GB/s",80)', "0.6524"),
    summary="ring all-reduce per decode step, ms",
    native='{allreduces_per_layer}*{layers}*(IF({tp}>1,{base_latency_us},0)*0.001+2*({tp}-1)*{latency_us}*0.001+2*({tp}-1)/{tp}*{batch}*{hidden}*{precision}/({link_bandwidth}*1E9))',
    native_result="nonnegative",
    native_note=("An interconnect name (NVLink, PCIe, InfiniBand) as latency_us or "
                 "base_latency_us: its NCCL latency, from a constant or a look-up in a cell "
                 "(any letter case; spaces, - and _ ignored)."),
)

declare(
    "PIPELINE_BUBBLE",
    "Idle share of pipeline stages in GPipe's fill-and-drain schedule (training, one batch of prompts) = (stages − 1) ÷ (microbatches + stages − 1); continuous decoding does not drain (DECODE_STEP_MS). PIPELINE_BUBBLE(4,8) = 0.273.",  # noqa: E501
    param(Arg("stages", None, POSITIVE, whole=True),
          "Pipeline stages p (GPUs in the pipeline, whole number)."),
    param(Arg("microbatches", None, POSITIVE, whole=True),
          "Micro-batches m in flight per batch (whole number)."),
    formula=serving.pipeline_bubble,
    explain=lambda w: (f"({num(w.stages)} − 1) ÷ ({num(w.microbatches)} + {num(w.stages)} − 1)"
                       f" = {num(w.result)} of the time idle"),
    example=("=PIPELINE_BUBBLE(4,8)", "0.2727"),
    summary="idle share (p − 1) ÷ (m + p − 1)",
    native='({stages}-1)/({microbatches}+{stages}-1)',
    native_result="nonnegative",
)


def _spec_tokens(w):
    al, g = w.acceptance_rate, w.draft_tokens
    if al == 1:
        return (f"α = 1: every draft accepted, γ + 1 = {num(g)} + 1 = {num(w.result)} tokens "
                "per step")
    return f"(1 − {num(al)}^({num(g)} + 1)) ÷ (1 − {num(al)}) = {num(w.result)} tokens per step"


declare(
    "SPEC_TOKENS_PER_STEP",
    "Expected tokens per speculative-decoding step = (1 − α^(γ+1)) ÷ (1 − α); γ + 1 at α = 1 (Leviathan et al. 2023). SPEC_TOKENS_PER_STEP(0.8,4) = 3.36.",  # noqa: E501
    param(ACCEPTANCE, D_ALPHA),
    param(DRAFT_TOKENS, D_GAMMA),
    formula=serving.spec_tokens_per_step,
    explain=_spec_tokens,
    example=("=SPEC_TOKENS_PER_STEP(0.8,4)", "3.3616"),
    summary="(1 − α^(γ+1)) ÷ (1 − α)",
    native='IF({acceptance_rate}<1,(1-{acceptance_rate}^({draft_tokens}+1))/(1-{acceptance_rate}),{draft_tokens}+1)',
    native_result="positive",
)


def _spec_speedup(w):
    al, g, k = w.acceptance_rate, w.draft_tokens, w.draft_cost_ratio
    tokens = serving.spec_tokens_per_step(al, g)
    slower = " (slower: the draft costs more than it saves)" if w.result < 1 else ""
    return (f"{num(tokens)} tokens per step (α {num(al)}, γ {num(g)}) ÷ ({num(g)} × "
            f"{num(k)} + 1) = {num(w.result)}×{slower}")


declare(
    "SPEC_DECODE_SPEEDUP",
    "Speculative decoding speedup = SPEC_TOKENS_PER_STEP ÷ (γ × draft_cost_ratio + 1) (Leviathan et al. 2023). SPEC_DECODE_SPEEDUP(0.8,4,0.05) = 2.80.",  # noqa: E501
    param(ACCEPTANCE, D_ALPHA),
    param(DRAFT_TOKENS, D_GAMMA),
    param(Arg("draft_cost_ratio", "dimensionless", NONNEGATIVE),
          "Optional. Time of one draft step ÷ one target step, 0 or more. Default 0 (free draft: the bound).",  # noqa: E501
          default=0),
    formula=serving.spec_decode_speedup,
    explain=_spec_speedup,
    example=("=SPEC_DECODE_SPEEDUP(0.8,4,0.05)", "2.8013"),
    summary="tokens per step ÷ (γc + 1)",
    native='IF({acceptance_rate}<1,(1-{acceptance_rate}^({draft_tokens}+1))/(1-{acceptance_rate}),{draft_tokens}+1)/({draft_tokens}*{draft_cost_ratio}+1)',
    native_result="positive",
)

declare(
    "CONCURRENCY",
    "Requests in flight at once, Little's law L = λ × W: the batch the fleet must hold. CONCURRENCY(20,11) = 220.",  # noqa: E501
    param(Arg("requests_per_sec", "request/s", NONNEGATIVE),
          "Arrival rate: bare number in requests/s, or text ('1200 requests/min')."),
    param(Arg("seconds_per_request", "s", NONNEGATIVE, also=("s/request",)),
          "Time each request is in flight: bare number in s, or text ('11 s')."),
    formula=serving.concurrency,
    explain=lambda w: (f"{q(w.requests_per_sec, 'requests/s')} × "
                       f"{q(w.seconds_per_request, 's')} = {num(w.result)} requests in flight"),
    example=("=CONCURRENCY(20,11)", "220"),
    summary="Little's law L = λW",
    native='{requests_per_sec}*{seconds_per_request}',
    native_result="nonnegative",
)
