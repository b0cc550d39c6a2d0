"""Rates: how fast can it possibly go? (reference doc §2, §3 and §5)

One identity carries everything: time = amount ÷ rate. Floors, not predictions: datasheet
peaks are never sustained, so a measurement sits above the floor, and a measurement below
it means an assumption is wrong.

Units in these kernels: memory GB, bandwidth TB/s, compute rate TFLOPS, time ms. Note
GB ÷ (TB/s) = 10⁹ ÷ 10¹² s = 1 ms, which is why the memory term needs no factor.
"""

from __future__ import annotations

from .xp import maximum


def kernel_time_ms(flop, nbytes, peak_tflops, bandwidth_tbps):
    """The max rule: a kernel takes about the larger of its math and memory times.

    .. math:: T = \\max(F / P,\\; Q / BW)

    Parameters
    ----------
    flop : FLOPs the kernel does (count)
    nbytes : bytes it moves (count)
    peak_tflops : peak compute, TFLOPS
    bandwidth_tbps : memory bandwidth, TB/s

    Returns
    -------
    ms. Reference doc §5: y = x × 2 over 2²⁴ BF16 elements moves 2²⁴ × 4 B = 67 MB and
    does 2²⁴ FLOPs; on 67 TFLOPS and 3.35 TB/s that is max(0.25 µs, 20 µs) = 20 µs.
    """
    return maximum(math_ms(flop, peak_tflops), transfer_ms(nbytes, bandwidth_tbps))


def math_ms(flop, peak_tflops):
    """Time to do ``flop`` FLOPs at the peak rate: F ÷ P, in ms."""
    return flop / (peak_tflops * 1e12) * 1e3


def transfer_ms(nbytes, bandwidth_tbps):
    """Time to move ``nbytes`` bytes at the peak bandwidth: Q ÷ BW, in ms."""
    return nbytes / (bandwidth_tbps * 1e12) * 1e3


def decode_memory_ms(weights_gb, kv_gb, bandwidth_tbps):
    """Time to read the weights and the KV cache once: (W + KV) ÷ BW, in ms."""
    return (weights_gb + kv_gb) / bandwidth_tbps


def decode_compute_ms(params, batch, peak_tflops):
    """Math of one decode step: 2 FLOPs per parameter per token, ÷ peak, in ms.

    Reference doc §2: 2 × 8e9 ÷ 989e12 ≈ 16 µs for Llama 3.1 8B on an H100.
    """
    return 2 * params * batch / (peak_tflops * 1e12) * 1e3


def decode_floor_ms(weights_gb, kv_gb, bandwidth_tbps, params, batch, peak_tflops=None):
    """Per-step decode floor: the max rule over one decode step.

    .. math:: T = \\max\\left(\\frac{W + KV}{BW},\\; \\frac{2 N B}{P}\\right)

    Reference doc §2: Llama 3.1 8B BF16 on an H100 (3.35 TB/s): 16.06 GB ÷ 3.35 TB/s =
    4.79 ms; 70B FP8: 70 GB ÷ 3.35 TB/s = 20.9 ms; 70B INT4: 10.4 ms. Without a peak,
    only the memory term counts (decode at small batch is memory-bound).
    """
    t = decode_memory_ms(weights_gb, kv_gb, bandwidth_tbps)
    if peak_tflops is None:
        return t
    return maximum(t, decode_compute_ms(params, batch, peak_tflops))


def tokens_per_sec(ms_per_token):
    """Tokens per second of one stream: 1000 ÷ ms per token (5 ms → 200 tokens/s, §3)."""
    return 1e3 / ms_per_token


def ms_per_token(tokens_per_second):
    """ms per token of one stream: 1000 ÷ tokens/s (200 tokens/s → 5 ms, §3)."""
    return 1e3 / tokens_per_second


def per_user_tps(aggregate_tps, streams):
    """Tokens/s each stream sees: aggregate ÷ streams (1,800 over 10 → 180, §3)."""
    return aggregate_tps / streams
