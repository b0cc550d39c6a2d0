"""Amounts: does it fit? (reference doc §1)

Weight memory, KV cache, and fit against a GPU's capacity. Memory is in GB, the vendor's
decimal gigabyte (1 GB = 10⁹ bytes); GiB (2³⁰ bytes) only where asked for.
"""

from __future__ import annotations

from .xp import ceil, maximum, round_sig, where


def weight_gb(params, bytes_per_param):
    """Weight memory in GB.

    .. math:: W = N_{params} \\times b / 10^9

    Parameters
    ----------
    params : parameter count (e.g. 8.03e9 for Llama 3.1 8B)
    bytes_per_param : bytes per parameter (BF16 2, FP8 1, INT4 0.5; see :mod:`precisions`)

    Returns
    -------
    GB. Reference doc §1: Llama 3.1 8B in BF16 is 8.03e9 × 2 / 1e9 = 16.06 GB.
    """
    return params * bytes_per_param / 1e9


def kv_bytes_per_token(layers, kv_heads, head_dim, bytes_per_elem):
    """KV cache bytes per token of one sequence: 2 × L × H_kv × d_head × b.

    Llama 3.1 8B in BF16: 2 × 32 × 8 × 128 × 2 B = 131,072 B (128 KiB) per token.
    """
    return 2 * layers * kv_heads * head_dim * bytes_per_elem


def kv_cache_gb(layers, kv_heads, head_dim, tokens, bytes_per_elem, batch):
    """KV cache in GB for multi-head and grouped-query attention.

    .. math:: KV = 2 \\cdot L \\cdot H_{kv} \\cdot d_{head} \\cdot b \\cdot T \\cdot B / 10^9

    The 2 counts one key and one value vector per layer, KV head and token. Right for MHA
    and GQA; not for MLA (DeepSeek-V3 caches 576 elements per layer) nor for sliding-
    window layers (Gemma 2): ``MODEL_SPEC(name, "kv_bytes_per_token")`` counts those
    (``data/attention.csv``).

    Hand check (Llama 3.1 8B config: 32 layers, 8 KV heads, head_dim 128, BF16):
    2 × 32 × 8 × 128 × 2 B = 131,072 B = 128 KiB per token; 8,192 tokens → 1.074 GB.
    """
    return kv_bytes_per_token(layers, kv_heads, head_dim, bytes_per_elem) * tokens * batch / 1e9


def usable_gb(capacity_gb, reserve_fraction):
    """Capacity left for the model after holding back ``reserve_fraction`` (0–1)."""
    return capacity_gb * (1 - reserve_fraction)


def fits(need_gb, capacity_gb, reserve_fraction):
    """True when ``need_gb`` ≤ capacity × (1 − reserve). Reference doc §1: 140 GB (70B
    BF16) does not fit in 80 GB; 70 GB (FP8) does.

    Decided on the same rounded quotient as :func:`gpus_needed`, so that FITS is TRUE
    exactly when GPUS_NEEDED is at most 1 (70 GB in 80 GB with 12.5 % reserved fits).
    """
    return round_sig(need_gb / usable_gb(capacity_gb, reserve_fraction)) <= 1


def gpus_needed(need_gb, capacity_gb, reserve_fraction):
    """Whole GPUs: ⌈need ÷ (capacity × (1 − reserve))⌉; 0 when nothing is needed.

    The quotient is rounded to 12 significant digits before the ceiling, so float noise
    (160 ÷ 80 computed as 2.0000000000000004) does not add a GPU.
    """
    n = ceil(round_sig(need_gb / usable_gb(capacity_gb, reserve_fraction)))
    return where(need_gb > 0, maximum(n, 1.0), 0.0)  # any need at all takes one GPU

