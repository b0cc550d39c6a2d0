"""Rates: how fast can it possibly go?

One identity carries everything: time = amount ÷ rate. Floors, not predictions: datasheet
peaks are never sustained, so a measurement sits above the floor, and a measurement below
it means an assumption is wrong.

Units in these kernels: memory GB, bandwidth TB/s, compute rate TFLOPS, time ms. Note
GB ÷ (TB/s) = 10⁹ ÷ 10¹² s = 1 ms, which is why the memory term needs no factor.

References
----------
.. [1] Williams, S., Waterman, A. and Patterson, D. (2009), "Roofline: an insightful
   visual performance model for multicore architectures", Communications of the ACM
   52(4), 65–76 (a kernel is bound by the slower of its math and its memory traffic).
.. [2] kipply (2022), "Transformer Inference Arithmetic",
   https://kipp.ly/transformer-inference-arithmetic/ (2 FLOPs per parameter per token;
   decode reads every weight once per step).
.. [3] Pope, R. et al. (2022), "Efficiently Scaling Transformer Inference",
   https://arxiv.org/abs/2211.05102 (memory-bound decode at small batch).
.. [4] NVIDIA H100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/h100/
   (H100 SXM: 3.35 TB/s, 989 TFLOPS dense BF16; the examples' figures).
.. [5] Austin, J. et al. (2025), "How to Scale Your Model", ch. 7 "All About Transformer
   Inference", https://jax-ml.github.io/scaling-book/inference/ (a decode step is the
   attention's time, bound by loading the KV cache, plus the MLP's time,
   max(2·B·N ÷ FLOPS, weights ÷ bandwidth): the two are not assumed to overlap).
.. [6] vLLM v0.6, ``vllm/engine/llm_engine.py``, https://github.com/vllm-project/vllm
   (``LLMEngine.__init__``: one scheduler, a "virtual engine", per pipeline stage, so as
   many micro-batches in flight as stages).
.. [7] Huang, Y. et al. (2019), "GPipe: Efficient Training of Giant Neural Networks using
   Pipeline Parallelism", NeurIPS, https://arxiv.org/abs/1811.06965 (§2.3: the bubble of
   a schedule that fills and drains the pipeline for each batch).
"""

from __future__ import annotations

from ..machinery.xp import maximum, where


def kernel_time_ms(flop, nbytes, peak_tflops, bandwidth_tbps):
    """The max rule: a kernel takes about the larger of its math and memory times [1].

    .. math:: T = \\max(F / P,\\; Q / BW)

    Parameters
    ----------
    flop : float
        FLOPs the kernel does F [FLOP].
    nbytes : float
        Bytes it moves Q [B].
    peak_tflops : float
        Peak compute P [TFLOPS].
    bandwidth_tbps : float
        Memory bandwidth BW [TB/s].

    Returns
    -------
    ms. y = x × 2 over 2²⁴ BF16 elements moves 2²⁴ × 4 B = 67 MB and does 2²⁴ FLOPs; on
    67 TFLOPS and 3.35 TB/s that is max(0.25 µs, 20 µs) = 20 µs.
    """
    return maximum(math_ms(flop, peak_tflops), transfer_ms(nbytes, bandwidth_tbps))


def math_ms(flop, peak_tflops):
    """Time to do ``flop`` FLOPs at the peak rate: F ÷ P, in ms.

    Parameters
    ----------
    flop : float
        FLOPs to do [FLOP].
    peak_tflops : float
        Peak compute [TFLOPS].
    """
    return flop / (peak_tflops * 1e12) * 1e3


def transfer_ms(nbytes, bandwidth_tbps):
    """Time to move ``nbytes`` bytes at the peak bandwidth: Q ÷ BW, in ms.

    Parameters
    ----------
    nbytes : float
        Bytes to move [B].
    bandwidth_tbps : float
        Memory bandwidth [TB/s].
    """
    return nbytes / (bandwidth_tbps * 1e12) * 1e3


def decode_memory_ms(weights_gb, kv_gb, bandwidth_tbps):
    """Time to read the weights and the KV cache once: (W + KV) ÷ BW, in ms.

    Parameters
    ----------
    weights_gb : float
        Weight memory W [GB].
    kv_gb : float
        KV cache read in the step, all sequences together [GB].
    bandwidth_tbps : float
        Memory bandwidth BW [TB/s].
    """
    return (weights_gb + kv_gb) / bandwidth_tbps


def decode_compute_ms(params, batch, peak_tflops):
    """Math of one decode step: 2 FLOPs per parameter per token, ÷ peak, in ms [2].

    Parameters
    ----------
    params : float
        Parameter count N [count].
    batch : float
        Sequences decoded in the step B [count].
    peak_tflops : float
        Peak compute P [TFLOPS].

    Returns
    -------
    ms. 2 × 8e9 ÷ 989e12 ≈ 16 µs for Llama 3.1 8B on an H100 [4].
    """
    return 2 * params * batch / (peak_tflops * 1e12) * 1e3


def decode_floor_ms(weights_gb, kv_gb, bandwidth_tbps, params, batch, peak_tflops=None):
    """Per-step decode floor: the max rule over one decode step [2], [3].

    .. math:: T = \\max\\left(\\frac{W + KV}{BW},\\; \\frac{2 N B}{P}\\right)

    Without a peak, only the memory term counts (decode at small batch is memory-bound).
    Assumes a dense model: every parameter is read and used each step.

    Parameters
    ----------
    weights_gb, kv_gb, bandwidth_tbps : float
        As ``decode_memory_ms``.
    params, batch, peak_tflops : float
        As ``decode_compute_ms`` (peak_tflops may be None).

    Returns
    -------
    ms per step. Llama 3.1 8B BF16 on an H100 (3.35 TB/s): 16.06 GB ÷ 3.35 TB/s =
    4.79 ms; 70B FP8: 70 GB ÷ 3.35 TB/s = 20.9 ms; 70B INT4: 10.4 ms.
    """
    t = decode_memory_ms(weights_gb, kv_gb, bandwidth_tbps)
    if peak_tflops is None:
        return t
    return maximum(t, decode_compute_ms(params, batch, peak_tflops))


def decode_step_ms(weights_gb, kv_gb, bandwidth_tbps, active_params, batch, peak_tflops,
                   attention_flop=0.0, gpus=1.0, comm_ms=0.0, stages=1.0, microbatches=None):
    """The decode step a deployment pays: attention, then the weights, then the
    tensor-parallel all-reduces [5], over the pipeline stages of a replica [6].

    .. math:: T = \\frac{k}{m} \\max\\left(\\frac{KV}{g \\cdot BW},\\;
              \\frac{F_{attn}}{g \\cdot P}\\right)
              + \\max\\left(\\frac{k}{m} \\cdot \\frac{2 N_{act} B}{g \\cdot P},\\;
              k \\cdot \\frac{W}{g \\cdot BW}\\right)
              + \\frac{k}{p} T_{comm}, \\quad k = \\max(m, p)

    The attention reads the KV cache of every sequence (memory-bound for multi-head and
    grouped-query attention; its products, F_attn, can exceed the read time for MLA or
    long contexts); the weights' matmuls do 2 FLOPs per active parameter per token and
    read the weights the batch touches once. The two run one after the other, so their
    times add: a tighter floor than one max over everything
    (``decode_floor_ms``), and still a floor while every figure is a datasheet peak
    and ``comm_ms`` leaves out latency. The g GPUs of a replica split bytes and FLOPs
    evenly; imbalance and replicated weights only add time.

    With p pipeline stages each stage holds 1/p of the layers on g/p GPUs in tensor
    parallel, and the batch is split into m micro-batches of B/m sequences. A stage
    passes one micro-batch in KV/(m·g·BW) ⊕ attention + max(2·N·B/(m·g·P), W/(g·BW)) +
    T_comm/p; a micro-batch's next token starts only once its current one has passed
    all p stages, and a stage serves the m micro-batches one after another, so a period
    (the time per output token of every sequence) is k = max(m, p) stage passes. With
    m = p (vLLM's schedule: a micro-batch per stage [6]) every stage is busy and
    the weights are read p times a period; with m < p the stages idle a share 1 − m/p;
    with m > p the weights are read m times. p = m = 1 is the step of one tensor-parallel
    replica. GPipe's fill-and-drain bubble [7] belongs to a schedule that drains between
    batches: continuous decoding does not drain, so it is not part of this floor. The
    activations sent from stage to stage (hidden × B/m × bytes, and a link latency, per
    hop) are left out: the step stays a floor.

    Parameters
    ----------
    weights_gb : float
        Weights the step reads, W, all GPUs together (an MoE model's experts touched
        at this batch: ``MOE_DECODE_PARAMS`` × bytes per parameter) [GB].
    kv_gb : float
        KV cache the step reads, all sequences together [GB].
    bandwidth_tbps : float
        Memory bandwidth BW of one GPU [TB/s].
    active_params : float
        Parameters each token multiplies, N_act (the active parameters of an MoE
        model) [count].
    batch : float
        Tokens the step computes, B: the sequences decoded, × (draft tokens + 1) with
        speculative decoding (the verifying pass multiplies the weights by every
        sequence's drafts and one more token; ``kv_gb`` stays the sequences' own) [count].
    peak_tflops : float
        Peak compute P of one GPU at the math precision [TFLOPS].
    attention_flop : float
        FLOPs of the attention products of the whole step, F_attn (0: left out) [FLOP].
    gpus : float
        GPUs of the replica, g, sharing bytes and FLOPs, all stages together [count].
    comm_ms : float
        Time of the tensor-parallel all-reduces of one micro-batch's pass through all
        the layers, T_comm, at the stage's degree g/p and B/m sequences
        (``udfs.inference.serving.tp_comm_ms``; 0 on one GPU a stage) [ms].
    stages : float
        Pipeline stages p, a whole divisor of g [count].
    microbatches : float or None
        Micro-batches m the batch is split into [count] (None: m = p).

    Returns
    -------
    ms per step (per period of the pipeline), NaN where ``stages`` does not divide
    ``gpus``. Llama 3.1 8B BF16 on an H100 at batch 64, 1,024 tokens each (KV 64 × 1,024
    × 131,072 B = 8.59 GB): 8.59 ÷ 3.35 = 2.564 ms + max(2 × 8.03e9 × 64 ÷ 989e12 =
    1.039 ms, 16.06 ÷ 3.35 = 4.794 ms) = 7.358 ms. Over 2 GPUs in 2 stages (m = 2):
    8.59 ÷ (2 × 3.35) = 1.282 + max(0.520, 2 × 16.06 ÷ (2 × 3.35) = 4.794) = 6.076 ms,
    against 1.282 + max(0.520, 2.397) = 3.679 ms in tensor parallel over the same two
    (all-reduces left out).

    References
    ----------
    Austin, J. et al. (2025), "How to Scale Your Model", ch. 7 "All About Transformer
    Inference", https://jax-ml.github.io/scaling-book/inference/ (the step: the attention's
    time, then the MLP's, max(2·B·N ÷ FLOPS, weights ÷ bandwidth)).
    vLLM v0.6, ``vllm/engine/llm_engine.py``, https://github.com/vllm-project/vllm (one
    scheduler, a "virtual engine", per pipeline stage: as many micro-batches as stages).
    Huang, Y. et al. (2019), "GPipe", NeurIPS, https://arxiv.org/abs/1811.06965 (§2.3: the
    fill-and-drain bubble, not part of continuous decoding).
    """
    m = stages if microbatches is None else microbatches
    k = maximum(m, stages)
    attention = maximum(kv_gb / (gpus * bandwidth_tbps),
                        math_ms(attention_flop, gpus * peak_tflops))
    weights = maximum(k / m * decode_compute_ms(active_params, batch, gpus * peak_tflops),
                      k * weights_gb / (gpus * bandwidth_tbps))
    step = k / m * attention + weights + k / stages * comm_ms
    return where(gpus % stages == 0, step, float("nan"))


def prefill_floor_ms(flop, weights_gb, kv_gb, peak_tflops, bandwidth_tbps, comm_ms=0.0):
    """The floor of a prompt's prefill: the max rule over one forward pass [1], plus the
    tensor-parallel all-reduces.

    .. math:: T = \\max\\left(\\frac{F}{P},\\; \\frac{W + KV}{BW}\\right) + T_{comm}

    A prefill runs the prompt's T tokens through every layer once: its matmuls do F =
    2·N·T + the causal attention's 2·L·d_attn·T² FLOPs (``udfs.inference.finance.prefill_ms``),
    and it reads the weights W once and writes the prompt's keys and values KV once.
    A long prompt is bound by F, a short one by W: at 128 tokens Llama 2 7B in FP8 on
    an H100 does 0.87 ms of math but reads 6.7 GB, 2.0 ms. Both are figures of the
    whole replica: P and BW are one GPU's peaks × its GPUs. The all-reduces
    (``udfs.inference.serving.tp_comm_ms`` over the prompt's tokens) follow the layers' matmuls
    and are added, as in the decode step (``decode_step_ms``). A floor while every
    figure is a datasheet peak: the attention's reads of keys and values, the
    activations' traffic and the kernels' setup (``udfs.inference.regimes.layer_overhead_ms``)
    are left out.

    Parameters
    ----------
    flop : float
        FLOPs of the prefill, F (``2·N·T + 2·L·d_attn·T²``) [FLOP].
    weights_gb : float
        Weights the pass reads, W, all GPUs together (an MoE model's experts the
        prompt's tokens pick: ``MOE_DECODE_PARAMS`` at B = T × bytes per parameter, an
        upper estimate under uniform routing, ``udfs.inference.memory.moe_experts_read``) [GB].
    kv_gb : float
        Keys and values the pass writes, KV: T × the KV bytes per token [GB].
    peak_tflops : float
        Peak compute P of the replica: one GPU's peak at the math precision × its
        GPUs [TFLOPS].
    bandwidth_tbps : float
        Memory bandwidth BW of the replica: one GPU's × its GPUs [TB/s].
    comm_ms : float
        The all-reduces of the prompt's tokens through every layer, T_comm (0 on one
        GPU) [ms].

    Returns
    -------
    ms. Llama 2 7B (6.738e9 parameters, 32 layers, d_attn 4,096) in FP8 on one H100
    SXM (1,978.9 TFLOPS, 3.35 TB/s) at T = 128: F = 2 × 6.738e9 × 128 + 2 × 32 × 4,096
    × 128² = 1.7293e12 FLOP, 0.874 ms; W + KV = 6.738 + 128 × 262,144 ÷ 1e9 = 6.772 GB
    (keys and values in FP8: 2 × 32 × 4,096 × 1 B a token), 2.022 ms; T = 2.022 ms.
    """
    return maximum(math_ms(flop, peak_tflops),
                   decode_memory_ms(weights_gb, kv_gb, bandwidth_tbps)) + comm_ms


def first_token_ms(floor_ms, efficiency_, layers=0.0, layer_us=0.0):
    """The first token a deployment pays: the prefill floor at the efficiency reached,
    plus the layers' fixed time, the decode step's form.

    .. math:: T = \\frac{T_{floor}}{e} + L \\cdot t_{layer}

    The realistic decode step is its floor ÷ an efficiency + the layers × a time per
    layer (``udfs.inference.regimes.layer_overhead_ms``); a prefill is one pass through the same
    layers, so it pays that time once. Queueing, the client's round trip and the
    tokenizer are not counted.

    Parameters
    ----------
    floor_ms : float
        The prefill floor, T_floor (``prefill_floor_ms``) [ms].
    efficiency_ : float
        Share e of the floor's pace reached, 0 to 1 [fraction].
    layers : float
        Layers of the model, L [count].
    layer_us : float
        Time per layer beyond the floor, t_layer (LAYER_TIME_US) [µs].

    Returns
    -------
    ms. A 2.022 ms floor at e = 0.5 with 32 layers × 65.8 µs: 4.044 + 2.106 = 6.150 ms.
    """
    return floor_ms / efficiency_ + layers * layer_us / 1000


def decode_attention_flop(layers, attn_dim, context, batch):
    """FLOPs of the attention products of one decode step: QKᵀ and AV over the context.

    .. math:: F_{attn} = 4 \\cdot L \\cdot d_{attn} \\cdot T \\cdot B

    Each new token's query meets T cached keys (2·T·d FLOPs per layer) and weighs T
    values (as much again). d_attn is query heads × head_dim for multi-head and
    grouped-query attention; for MLA decoded with absorbed weights it is heads × (576 +
    512) ÷ 2 (keys of 576 elements, values of 512), which makes MLA's attention
    compute-heavy.

    Parameters
    ----------
    layers : float
        Layers L with attention over the whole context [count].
    attn_dim : float
        Query heads × head_dim, d_attn [count].
    context : float
        Tokens each sequence attends to, T [count].
    batch : float
        Sequences in the step, B [count].

    Returns
    -------
    FLOP. Llama 3.1 8B (32 layers, 32 × 128 = 4,096) at 1,024 tokens, batch 64:
    4 × 32 × 4096 × 1024 × 64 = 3.436e10; DeepSeek-V3 (61 layers, 128 heads × 544) at
    2,000 tokens, batch 1: 4 × 61 × 69,632 × 2000 = 3.398e10, half of its 2 × 37e9 =
    7.4e10 weight FLOPs.
    """
    return 4 * layers * attn_dim * context * batch


def tokens_per_sec(ms_per_token):
    """Tokens per second of one stream: 1000 ÷ ms per token (5 ms → 200 tokens/s).

    Parameters
    ----------
    ms_per_token : float
        Time per token of the stream [ms].
    """
    return 1e3 / ms_per_token


def ms_per_token(tokens_per_second):
    """ms per token of one stream: 1000 ÷ tokens/s (200 tokens/s → 5 ms).

    Parameters
    ----------
    tokens_per_second : float
        Tokens per second of the stream [tokens/s].
    """
    return 1e3 / tokens_per_second


def per_user_tps(aggregate_tps, streams):
    """Tokens/s each stream sees: aggregate ÷ streams (1,800 over 10 → 180).

    Parameters
    ----------
    aggregate_tps : float
        Tokens per second of all streams together [tokens/s].
    streams : float
        Concurrent streams sharing them [count].
    """
    return aggregate_tps / streams
