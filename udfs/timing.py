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
"""

from __future__ import annotations

from .xp import maximum


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
