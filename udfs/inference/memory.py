"""Amounts: does it fit?

Weight memory, KV cache, and fit against a GPU's capacity. Memory is in GB, the vendors'
decimal gigabyte (1 GB = 10⁹ bytes); GiB (2³⁰ bytes) only where asked for.

References
----------
.. [1] kipply (2022), "Transformer Inference Arithmetic",
   https://kipp.ly/transformer-inference-arithmetic/ (weights and KV cache in memory).
.. [2] Llama 3.1 model configurations (``config.json`` of meta-llama/Llama-3.1-8B and
   -70B on Hugging Face): the layer and head counts of the examples.
.. [3] Model configurations on Hugging Face: openai/gpt-oss-120b (quantization_config
   mxfp4, modules_to_not_convert self_attn, router, embed_tokens, lm_head) and
   Qwen/Qwen3-Next-80B-A3B-Instruct (full_attention_interval 4; Gated DeltaNet layers of
   32 value heads of 128 × 128 keys).
"""

from __future__ import annotations

from ..machinery.xp import ceil, maximum, round_sig, where


def weight_gb(params, bytes_per_param, kept_params=None):
    """Weight memory in GB, with the parts a quantized checkpoint keeps in 16 bits.

    .. math:: W = \\left((N - K) \\, b + K \\max(b, 2)\\right) / 10^9

    Quantized checkpoints keep some parameters K in BF16 (the embedding table and the LM
    head of FP8 checkpoints; all but the routed experts of gpt-oss [3]); K = 0 is the
    one-precision weight N × b.

    Parameters
    ----------
    params : float
        Parameter count N [count] (8.03e9 for Llama 3.1 8B).
    bytes_per_param : float
        Bytes per parameter b [B] (BF16 2, FP8 1, INT4 0.5; see ``udfs.inference.precisions``).
    kept_params : float or None
        Parameters K kept at 2 bytes (or at b, when b is more) [count], at most N
        (``MODEL_SPEC(name, "kept_params")``). Default 0.

    Returns
    -------
    GB; NaN when K > N. Llama 3.1 8B in BF16: 8.03e9 × 2 ÷ 1e9 = 16.06 GB [1].
    gpt-oss-120b in MXFP4 with its 2,168,214,400 BF16 parameters kept (attention,
    router, embedding, head): (114.66e9 × 0.53125 + 2.168e9 × 2) ÷ 1e9 = 65.25 GB, where
    all of it in MXFP4 is 62.07 GB.
    """
    if kept_params is None:
        return params * bytes_per_param / 1e9
    kept = maximum(bytes_per_param, 2.0)
    return where(kept_params <= params, ((params - kept_params) * bytes_per_param
                                         + kept_params * kept) / 1e9, float("nan"))


def kv_bytes_per_token(layers, kv_heads, head_dim, bytes_per_elem):
    """KV cache bytes per token of one sequence.

    .. math:: 2 \\cdot L \\cdot H_{kv} \\cdot d_{head} \\cdot b

    Parameters
    ----------
    layers : float
        Transformer layers L [count].
    kv_heads : float
        Key/value heads per layer H_kv [count] (fewer than query heads under GQA).
    head_dim : float
        Dimension of one head d_head [count].
    bytes_per_elem : float
        Bytes per cached element b [B].

    Returns
    -------
    Bytes. Llama 3.1 8B in BF16: 2 × 32 × 8 × 128 × 2 B = 131,072 B (128 KiB) [1], [2].
    """
    return 2 * layers * kv_heads * head_dim * bytes_per_elem


def kv_cache_gb(layers, kv_heads, head_dim, tokens, bytes_per_elem, batch, state_bytes=None):
    """KV cache in GB for multi-head and grouped-query attention, with the fixed state of
    the layers that keep no KV cache.

    .. math:: KV = (2 \\cdot L \\cdot H_{kv} \\cdot d_{head} \\cdot b \\cdot T + S)
              \\cdot B / 10^9

    The 2 counts one key and one value vector per layer, KV head and token [1]. Right for
    MHA and GQA; not for multi-head latent attention (DeepSeek-V3 caches one 576-element
    latent per layer and token) nor for sliding-window layers (Gemma 2): the model table's
    ``kv_bytes_per_token`` counts what those hold. For a hybrid model, L is the layers
    that keep a KV cache (``MODEL_SPEC(name, "kv_layers")``) and S the fixed state each
    sequence keeps in its linear-attention or Mamba layers, whatever its context [3].

    Parameters
    ----------
    layers, kv_heads, head_dim, bytes_per_elem : float
        As ``kv_bytes_per_token``.
    tokens : float
        Tokens held per sequence T, its context [tokens].
    batch : float
        Sequences held at once B [count].
    state_bytes : float or None
        Fixed state per sequence S [B] (``MODEL_SPEC(name, "recurrent_state_bytes")``).
        Default 0.

    Returns
    -------
    GB. Llama 3.1 8B, BF16, 8,192 tokens: 131,072 B × 8,192 = 1.074 GB. Qwen3-Next
    80B-A3B (12 of 48 layers attend: 2 KV heads of 256; a state of 39,518,208 B): 2 × 12
    × 2 × 256 × 2 B × 8,192 + 39,518,208 B = 0.2013 + 0.0395 = 0.2409 GB per sequence.
    """
    per_token = kv_bytes_per_token(layers, kv_heads, head_dim, bytes_per_elem)
    state = 0.0 if state_bytes is None else state_bytes
    return (per_token * tokens + state) * batch / 1e9


def usable_gb(capacity_gb, reserve_fraction):
    """Capacity left for the model: C × (1 − r), in GB.

    Parameters
    ----------
    capacity_gb : float
        Memory of one GPU C [GB].
    reserve_fraction : float
        Share r held back for the KV cache, activations and runtime, 0 to 1 [fraction].
    """
    return capacity_gb * (1 - reserve_fraction)


def fits(need_gb, capacity_gb, reserve_fraction):
    """Whether ``need_gb`` fits one GPU: need ≤ C × (1 − r).

    Decided on the same rounded quotient as ``gpus_needed``, so that FITS is TRUE
    exactly when GPUS_NEEDED is at most 1 (70 GB in 80 GB with 12.5 % reserved fits).

    Parameters
    ----------
    need_gb : float
        Memory needed [GB].
    capacity_gb, reserve_fraction : float
        As ``usable_gb``.

    Returns
    -------
    bool. 140 GB (a 70B model in BF16) does not fit 80 GB; 70 GB (FP8) does.
    """
    return round_sig(need_gb / usable_gb(capacity_gb, reserve_fraction)) <= 1


def gpus_needed(need_gb, capacity_gb, reserve_fraction):
    """Whole GPUs to hold ``need_gb``.

    .. math:: G = \\lceil need \\div (C (1 - r)) \\rceil, \\quad 0 \\text{ when } need = 0

    The quotient is rounded to 12 significant digits before the ceiling, so float noise
    (160 ÷ 80 computed as 2.0000000000000004) does not add a GPU. Assumes the memory
    splits evenly across the GPUs (tensor or pipeline parallel).

    Parameters
    ----------
    need_gb, capacity_gb, reserve_fraction : float
        As ``fits``.

    Returns
    -------
    GPUs (a whole number). 140 GB on 80 GB GPUs: 2.
    """
    n = ceil(round_sig(need_gb / usable_gb(capacity_gb, reserve_fraction)))
    return where(need_gb > 0, maximum(n, 1.0), 0.0)  # any need at all takes one GPU



def moe_experts_read(experts, top_k, batch):
    """Expected number of distinct routed experts one MoE layer reads in a decode step.

    .. math:: E_{read} = E \\left(1 - \\left(1 - \\frac{k}{E}\\right)^{B}\\right)

    Each of the ``batch`` tokens of the step picks ``top_k`` of the ``experts``; an
    expert is read once if any token picked it. Under uniform, independent routing a
    given expert is missed by one token with probability 1 − k/E, by all B tokens with
    probability (1 − k/E)^B, so the expected count read is E·(1 − (1 − k/E)^B): k at
    batch 1, approaching E as the batch grows. Real routers are not uniform (some
    experts are hot), and the γ + 1 tokens a speculative step verifies for one sequence
    route alike, which makes the count lower: this is the upper estimate of the weights
    read. A floor built on it can therefore exceed the least time a skewed router
    allows; ``tests/test_serving_measurements.py`` checks that every MoE floor stays
    below its published measurement.

    Parameters
    ----------
    experts : float
        Routed experts per MoE layer E [count] (DeepSeek-V3: 256; shared experts are read
        by every token and are not counted here).
    top_k : float
        Experts chosen per token k [count] (DeepSeek-V3: 8); at most E.
    batch : float
        Tokens the step computes, B: the sequences in the batch, × (draft tokens + 1)
        with speculative decoding [tokens].

    Returns
    -------
    Experts (a count, not necessarily whole). Hand check, Mixtral 8x7B (E = 8, k = 2) at
    B = 2: 8 × (1 − 0.75²) = 3.5.

    References
    ----------
    .. [1] W. Feller, *An Introduction to Probability Theory and Its Applications*,
       vol. 1, 3rd ed., Wiley, 1968, ch. II: occupancy problems (the expected number of
       occupied cells is a sum of 1 − P(cell empty) over the cells).
    .. [2] A. Q. Jiang et al., "Mixtral of Experts", arXiv:2401.04088, 2024: top-k
       routing, each token picks k = 2 of E = 8 experts per layer.
    """
    return where(top_k <= experts, experts * (1 - (1 - top_k / experts) ** batch),
                 float("nan"))


def moe_decode_params(decode_params, expert_params, experts, top_k, batch):
    """Weights read per decode step of an MoE model at batch ``batch``.

    .. math:: N_{read}(B) = N_{decode} + N_{expert} \\left(E_{read}(B) - k\\right)

    ``decode_params`` (``MODEL_SPEC(name, "decode_params")``) already holds the k active
    experts of batch 1; each further distinct expert adds ``expert_params``, the weights of
    one routed expert over all MoE layers (``MODEL_SPEC(name, "expert_params")``).
    Hand check, Mixtral 8x7B at B = 2: 12.749e9 + 5.637e9 × (3.5 − 2) = 21.205e9.
    """
    return decode_params + expert_params * (moe_experts_read(experts, top_k, batch) - top_k)
