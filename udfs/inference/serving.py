"""Serving: how many sequences fit, what batch meets a latency target, what parallelism
and speculative decoding cost or buy, and how traffic becomes concurrency.

Units in these kernels, as in ``udfs.inference.timing``: memory GB (10⁹ bytes), bandwidth TB/s,
compute rate TFLOPS, time ms; GB ÷ (TB/s) = 1 ms, so the memory terms need no factor.
Batches are whole sequences: a result that counts sequences is rounded down, after the
quotient is rounded to 12 significant digits so float noise (2.9999999999999996) does
not drop a sequence.
"""

from __future__ import annotations

from ..machinery.xp import floor, maximum, minimum, power, round_sig, where


def _whole(x):
    """⌊x⌋ of a count of sequences, never below 0."""
    return maximum(floor(round_sig(x)), 0.0)


def max_batch(capacity_gb, weights_gb, kv_gb_per_sequence, reserve_fraction=0.0, gpus=1.0):
    """Sequences whose KV cache fits in memory beside the weights.

    .. math:: B_{max} = \\left\\lfloor \\frac{g \\cdot C \\cdot (1 - r) - W}{KV_{seq}}
              \\right\\rfloor, \\quad 0 \\text{ when } W > g \\cdot C \\cdot (1 - r)

    Parameters
    ----------
    capacity_gb : float
        Memory of one GPU [GB].
    weights_gb : float
        Weight memory of the model [GB], all GPUs together (see WEIGHT_GB).
    kv_gb_per_sequence : float
        KV cache of one sequence at its full context [GB] (KV_CACHE_GB).
    reserve_fraction : float
        Share of capacity held back for activations and the runtime, 0 to 1 [fraction].
    gpus : float
        GPUs the model and its cache are spread over, tensor or pipeline parallel [count].

    Returns
    -------
    Whole sequences (0 when the weights alone do not fit).

    Assumptions: every sequence holds its full context (the worst case a server must
    admit); paged allocation (vLLM) wastes under 4 % of the cache, so the bound is close
    to what a paged server reaches, while a contiguous allocator reaches far less.

    Hand check: Llama 3.1 8B BF16 (16.06 GB) on an 80 GB H100, 8,192-token sequences at
    131,072 B per token = 1.0737 GB each: ⌊(80 − 16.06) ÷ 1.0737⌋ = ⌊59.55⌋ = 59.

    References
    ----------
    kipply (2022), "Transformer Inference Arithmetic", https://kipp.ly/transformer-inference-arithmetic/
    (the KV cache per token and the memory left for it).
    Kwon, W. et al. (2023), "Efficient Memory Management for Large Language Model
    Serving with PagedAttention", SOSP '23, https://arxiv.org/abs/2309.06180 (§3, §4).
    """
    return _whole(free_gb(capacity_gb, weights_gb, reserve_fraction, gpus)
                  / kv_gb_per_sequence)


def free_gb(capacity_gb, weights_gb, reserve_fraction=0.0, gpus=1.0):
    """Memory left for the KV cache beside the weights: g × C × (1 − r) − W, in GB."""
    return gpus * capacity_gb * (1 - reserve_fraction) - weights_gb


def batch_for_latency(target_ms, weights_gb, kv_gb_per_sequence, bandwidth_tbps,
                      flops_per_token=None, peak_tflops=None):
    """The largest batch whose decode step floor stays within a target time per step.

    The step floor is the max rule (``udfs.inference.timing.decode_floor_ms``) at batch B:

    .. math:: T(B) = \\max\\left(\\frac{W + B \\cdot KV_{seq}}{BW},\\;
              \\frac{B \\cdot F_{tok}}{P}\\right) \\le T^*

    so :math:`B^* = \\lfloor \\min((T^* \\cdot BW - W) ÷ KV_{seq},\\; T^* \\cdot P ÷
    F_{tok}) \\rfloor`, and 0 when even batch 1 misses the target.

    Parameters
    ----------
    target_ms : float
        Time allowed per decode step [ms] (1000 ÷ the tokens/s each user must see).
    weights_gb : float
        Weight memory read once per step [GB].
    kv_gb_per_sequence : float
        KV cache read per sequence per step [GB].
    bandwidth_tbps : float
        Memory bandwidth [TB/s].
    flops_per_token : float or None
        FLOPs per generated token [FLOP] (about 2 × params); omitted with ``peak_tflops``:
        only the memory term counts.
    peak_tflops : float or None
        Peak compute [TFLOPS].

    Returns
    -------
    Whole sequences (0 when batch 1 misses the target).

    Hand check: Llama 3.1 8B BF16 (16.06 GB) on an H100 (3.35 TB/s), 1.0737 GB of KV per
    sequence, 20 ms per step: ⌊(20 × 3.35 − 16.06) ÷ 1.0737⌋ = ⌊47.44⌋ = 47.

    References
    ----------
    kipply (2022), "Transformer Inference Arithmetic", https://kipp.ly/transformer-inference-arithmetic/
    (latency of a decode step: memory-bound below the ridge, compute-bound above).
    """
    limit = memory_batch_limit(target_ms, weights_gb, kv_gb_per_sequence, bandwidth_tbps)
    if flops_per_token is not None:
        limit = minimum(limit, compute_batch_limit(target_ms, flops_per_token, peak_tflops))
    return _whole(limit)


def memory_batch_limit(target_ms, weights_gb, kv_gb_per_sequence, bandwidth_tbps):
    """Batch at which the memory term reaches the target: (T × BW − W) ÷ KV, unrounded."""
    return (target_ms * bandwidth_tbps - weights_gb) / kv_gb_per_sequence


def compute_batch_limit(target_ms, flops_per_token, peak_tflops):
    """Batch at which the math term reaches the target: T × P ÷ F, unrounded."""
    return target_ms * peak_tflops * 1e9 / flops_per_token


def tp_comm_ms(hidden, batch, tp, link_bandwidth_tbps, layers=1.0, bytes_per_elem=2.0,
               allreduces_per_layer=2.0, latency_us=0.0, base_latency_us=0.0):
    """Time of the tensor-parallel all-reduces in one decode step (ring, α–β model).

    A ring all-reduce of S bytes over p GPUs takes 2(p − 1) steps, each sending S ÷ p
    bytes per GPU, after a fixed cost α₀ per call, so

    .. math:: T = n_{ar} \\cdot L \\cdot \\left(\\alpha_0 + 2(p - 1)\\,\\alpha +
              \\frac{2(p - 1)}{p} \\cdot \\frac{B \\cdot d \\cdot b}{\\beta}\\right)

    with S = B × d × b the activations of the step (α₀ counted only when p > 1).
    Megatron-style tensor parallelism does two all-reduces per layer in the forward
    pass (after attention, after the MLP). At decode's few kilobytes the latency terms
    rule: NCCL's own model gives α = 0.6 µs over NVLink, 1.0 over PCIe, 2.7 over the
    network, and α₀ = 6.6 µs (``udfs.inference.interconnects``, ``data/interconnects.csv``).

    Parameters
    ----------
    hidden : float
        Hidden size d of the model [count] (config ``hidden_size``).
    batch : float
        Tokens in the step B [tokens] (in decode, the sequences in the batch).
    tp : float
        Tensor-parallel degree p, in GPUs [count]; 1 means no communication.
    link_bandwidth_tbps : float
        Per-GPU link bandwidth β in one direction [TB/s] (NCCL's "bus bandwidth"; NVLink 4
        on an H100: 900 GB/s in + out, 0.45 TB/s each way).
    layers : float
        Transformer layers L [count].
    bytes_per_elem : float
        Bytes per activation element b [B] (BF16 2).
    allreduces_per_layer : float
        All-reduces per layer per step n_ar [count] (2).
    latency_us : float
        Latency α of one ring step [µs] (0: the bandwidth term only).
    base_latency_us : float
        Latency α₀ of one all-reduce call [µs] (0: left out).

    Returns
    -------
    ms per decode step; 0 when tp = 1.

    Hand check: Llama 3.1 70B (d = 8,192, 80 layers), batch 64, tp 8, BF16, 0.45 TB/s:
    64 × 8,192 × 2 B = 1,048,576 B; × 2 × 7 ÷ 8 = 1,835,008 B ÷ 450 GB/s = 4.078 µs; ×
    2 × 80 = 0.6525 ms. With NCCL's NVLink latencies (α 0.6 µs, α₀ 6.6 µs): + 2 × 80 ×
    (6.6 + 14 × 0.6) µs = 2.4 ms, 3.0525 ms in all.

    References
    ----------
    Thakur, R., Rabenseifner, R. and Gropp, W. (2005), "Optimization of Collective
    Communication Operations in MPICH", Int. J. High Performance Computing Applications
    19(1), 49–66 (the α–β cost of the ring all-reduce).
    Shoeybi, M. et al. (2019), "Megatron-LM", https://arxiv.org/abs/1909.08053 (§3: two
    all-reduces per layer in the forward pass).
    NVIDIA, nccl-tests "PERFORMANCE.md" (bus bandwidth = algorithm bandwidth × 2(p−1)/p).
    NVIDIA, NCCL ``src/graph/tuning.cc`` (the latency of a ring all-reduce: a base per
    call plus 2(p − 1) steps at the link's latency).
    """
    steps = 2 * (tp - 1)
    per_allreduce = (where(tp > 1, base_latency_us, 0.0) * 1e-3 + steps * latency_us * 1e-3
                     + steps / tp * batch * hidden * bytes_per_elem
                     / (link_bandwidth_tbps * 1e9))
    return allreduces_per_layer * layers * per_allreduce


def allreduce_bytes(batch, hidden, bytes_per_elem):
    """Bytes each all-reduce of a step sums: the activations B × d × b."""
    return batch * hidden * bytes_per_elem


def pipeline_bubble(stages, microbatches):
    """Share of time a pipeline's stages sit idle filling and draining (GPipe schedule).

    .. math:: \\text{bubble} = \\frac{p - 1}{m + p - 1}

    The schedule fills the pipeline with the m micro-batches of a batch and drains it
    before the next (training; one batch of prompts). Continuous decoding never drains:
    its stages idle only with fewer micro-batches than stages, a share 1 − m/p, which
    ``udfs.inference.timing.decode_step_ms`` counts; this bubble is not part of the decode step.

    Parameters
    ----------
    stages : float
        Pipeline stages p, the GPUs in the pipeline [count].
    microbatches : float
        Micro-batches m in flight per batch [count].

    Returns
    -------
    Fraction 0–1 of the time each stage is idle.

    Hand check: 4 stages, 8 micro-batches: 3 ÷ 11 = 0.2727. GPipe notes the bubble is
    negligible once m ≥ 4p (4 stages, 16 micro-batches: 3 ÷ 19 = 0.158).

    References
    ----------
    Huang, Y. et al. (2019), "GPipe: Efficient Training of Giant Neural Networks using
    Pipeline Parallelism", NeurIPS, https://arxiv.org/abs/1811.06965 (§2.3).
    """
    return (stages - 1) / (microbatches + stages - 1)


def spec_tokens_per_step(acceptance_rate, draft_tokens):
    """Expected tokens a speculative-decoding step yields (accepted drafts + one).

    .. math:: E[\\text{tokens}] = \\frac{1 - \\alpha^{\\gamma + 1}}{1 - \\alpha},
              \\quad \\gamma + 1 \\text{ at } \\alpha = 1

    Parameters
    ----------
    acceptance_rate : float
        Acceptance rate α, the chance each draft token is accepted, 0 to 1 [fraction].
    draft_tokens : float
        Draft tokens γ the draft model proposes per step [tokens].

    Returns
    -------
    Tokens per target-model step, 1 to γ + 1.

    Assumption: acceptances are independent with the same α (the paper's i.i.d.
    assumption). Hand check: α = 0.8, γ = 4: (1 − 0.8⁵) ÷ 0.2 = (1 − 0.32768) ÷ 0.2 =
    3.3616.

    References
    ----------
    Leviathan, Y., Kalman, M. and Matias, Y. (2023), "Fast Inference from Transformers
    via Speculative Decoding", ICML, https://arxiv.org/abs/2211.17192 (eq. 1).
    """
    below = acceptance_rate < 1
    denominator = where(below, 1 - acceptance_rate, 1.0)
    return where(below, (1 - power(acceptance_rate, draft_tokens + 1)) / denominator,
                 draft_tokens + 1.0)


def spec_decode_speedup(acceptance_rate, draft_tokens, draft_cost_ratio=0.0):
    """Walltime speedup of speculative decoding over plain decoding.

    .. math:: S = \\frac{1 - \\alpha^{\\gamma + 1}}{(1 - \\alpha)(\\gamma c + 1)}

    Parameters
    ----------
    acceptance_rate : float
        Acceptance rate α, 0 to 1 [fraction].
    draft_tokens : float
        Draft tokens γ per step [tokens].
    draft_cost_ratio : float
        Cost ratio c, the time of one draft-model step ÷ the time of one target-model step
        [ratio] (0: a free draft, the upper bound).

    Returns
    -------
    Speedup factor (×); below 1 the draft costs more than it saves.

    Assumption: verifying γ + 1 tokens costs the target model one ordinary step, true
    while decode is memory-bound (batch × γ well below the ridge). Hand check: α = 0.8, γ = 4,
    c = 0.05: 3.3616 ÷ 1.2 = 2.8013.

    References
    ----------
    Leviathan, Y., Kalman, M. and Matias, Y. (2023), "Fast Inference from Transformers
    via Speculative Decoding", ICML, https://arxiv.org/abs/2211.17192 (Theorem 3.8).
    """
    return spec_tokens_per_step(acceptance_rate, draft_tokens) / (
        draft_tokens * draft_cost_ratio + 1)


def concurrency(requests_per_sec, seconds_per_request):
    """Requests in flight at once (Little's law), the batch a fleet must hold.

    .. math:: L = \\lambda W

    Parameters
    ----------
    requests_per_sec : float
        Arrival rate λ [requests/s].
    seconds_per_request : float
        Time each request spends in the system W [s] (first token plus output tokens ÷
        tokens/s per user).

    Returns
    -------
    Sequences in flight (a mean, not rounded).

    Hand check: 20 requests/s, each 1 s to its first token + 300 tokens at 30 tokens/s
    (10 s): 20 × 11 = 220 sequences in flight.

    References
    ----------
    Little, J. D. C. (1961), "A Proof for the Queuing Formula: L = λW", Operations
    Research 9(3), 383–387.
    """
    return requests_per_sec * seconds_per_request
