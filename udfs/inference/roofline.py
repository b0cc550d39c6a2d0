"""The roofline: intensity, ridge point, attainable FLOPS, utilisation.

Arithmetic intensity I = FLOPs ÷ bytes moved. A chip's ridge point is
I_ridge = peak FLOPS ÷ bandwidth: below it a kernel is memory-bound (more FLOPS change
nothing), above it compute-bound. Attainable FLOPS = min(peak, bandwidth × I) [1].

Units: compute rate TFLOPS, bandwidth TB/s, intensity FLOP/byte (TFLOPS ÷ TB/s is
FLOP/byte with no factor).

References
----------
.. [1] Williams, S., Waterman, A. and Patterson, D. (2009), "Roofline: an insightful
   visual performance model for multicore architectures", Communications of the ACM
   52(4), 65–76.
.. [2] Austin, J. et al. (2025), "How to Scale Your Model", Google DeepMind,
   https://jax-ml.github.io/scaling-book/ (intensity of matrix products; the batch at
   which inference becomes compute-bound).
.. [3] NVIDIA H100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/h100/
   (989 TFLOPS dense BF16, 1,979 dense FP8, 3.35 TB/s: the examples' figures).
.. [4] Chowdhery, A. et al. (2022), "PaLM: Scaling Language Modeling with Pathways",
   https://arxiv.org/abs/2204.02311, Appendix B (model FLOPs utilisation).
.. [5] Databricks (2023), "LLM Inference Performance Engineering: Best Practices"
   (model bandwidth utilisation of decoding).
"""

from __future__ import annotations

from ..machinery.xp import minimum, where

MEMORY_BOUND = "memory-bound"
COMPUTE_BOUND = "compute-bound"


def intensity(flop, nbytes):
    """Arithmetic intensity I = F ÷ Q, FLOP/byte.

    Parameters
    ----------
    flop : float
        FLOPs done F [FLOP].
    nbytes : float
        Bytes moved Q [B].

    Returns
    -------
    FLOP/byte. y = x × 2 in BF16 does 1 FLOP per 4 bytes: I = 0.25.
    """
    return flop / nbytes


def matmul_intensity(m, n, k, bytes_per_elem):
    """Intensity of an (m×k)·(k×n) matrix product that reads both inputs and writes the
    output once [2].

    .. math:: I = \\frac{2mnk}{b\\,(mk + kn + mn)}

    Parameters
    ----------
    m, n, k : float
        The matrices' dimensions [count].
    bytes_per_elem : float
        Bytes per element b of all three matrices [B].

    Returns
    -------
    FLOP/byte. Square N = 4096 in BF16: 2N³ ÷ (2 × 3N²) = N/3 ≈ 1,365.
    """
    return 2 * m * n * k / (bytes_per_elem * (m * k + k * n + m * n))


def ridge(peak_tflops, bandwidth_tbps, efficiency=1.0):
    """Ridge point, FLOP/byte: peak × efficiency ÷ bandwidth [1].

    .. math:: I_{ridge} = P \\cdot e / BW

    Parameters
    ----------
    peak_tflops : float
        Peak compute P [TFLOPS].
    bandwidth_tbps : float
        Memory bandwidth BW [TB/s].
    efficiency : float
        Share e of the peak reached in practice, 0 to 1 [fraction].

    Returns
    -------
    FLOP/byte. H100 SXM BF16: 989 ÷ 3.35 ≈ 295 [3]; at the real roof (0.8 × 989 ≈ 791
    TFLOPS) the ridge moves in to ≈ 236; on the FP8 roof (1,979) out to ≈ 590.
    """
    return peak_tflops * efficiency / bandwidth_tbps


def attainable_tflops(intensity_, peak_tflops, bandwidth_tbps):
    """Roofline: attainable compute min(P, BW × I), TFLOPS [1].

    Parameters
    ----------
    intensity_ : float
        Arithmetic intensity I [FLOP/byte].
    peak_tflops : float
        Peak compute P [TFLOPS].
    bandwidth_tbps : float
        Memory bandwidth BW [TB/s].

    Returns
    -------
    TFLOPS. I = 0.25 on an H100: min(989, 0.84) = 0.84.
    """
    return minimum(peak_tflops, memory_roof_tflops(intensity_, bandwidth_tbps))


def memory_roof_tflops(intensity_, bandwidth_tbps):
    """The sloped roof: BW × I, TFLOPS (TB/s × FLOP/byte).

    Parameters
    ----------
    intensity_ : float
        Arithmetic intensity [FLOP/byte].
    bandwidth_tbps : float
        Memory bandwidth [TB/s].
    """
    return bandwidth_tbps * intensity_


def bound(intensity_, ridge_):
    """"memory-bound" below the ridge, "compute-bound" at or above it [1].

    Parameters
    ----------
    intensity_ : float
        Intensity of the kernel [FLOP/byte].
    ridge_ : float
        Ridge point of the chip [FLOP/byte].
    """
    return where(intensity_ < ridge_, MEMORY_BOUND, COMPUTE_BOUND)


def verdict(memory_time, math_time):
    """Which term of the max rule wins: "memory-bound" when moving the bytes takes at least
    as long as the arithmetic (a tie counts as memory-bound), else "compute-bound". EXPLAIN
    says it beside a floor that is the larger of the two times.

    Parameters
    ----------
    memory_time : float
        Time to move the bytes at the memory roof [ms].
    math_time : float
        Time of the arithmetic at the compute roof [ms].
    """
    return MEMORY_BOUND if memory_time >= math_time else COMPUTE_BOUND


def critical_batch(peak_tflops, bandwidth_tbps, bytes_per_weight):
    """Batch at which a decode GEMM reaches the ridge [2].

    A decode GEMM of B tokens through a D×F weight matrix does 2·B·D·F FLOPs and reads
    about b·D·F bytes of weights, so I ≈ 2B ÷ b and the ridge is reached at

    .. math:: B^* = I_{ridge} \\times b / 2

    Assumes the weights dominate the bytes read (the KV cache is small beside them).

    Parameters
    ----------
    peak_tflops, bandwidth_tbps : float
        As ``ridge``.
    bytes_per_weight : float
        Bytes per weight b [B].

    Returns
    -------
    Sequences. H100 BF16 weights on the BF16 roof: 295; FP8 weights on the FP8 roof:
    590 × 1 ÷ 2 ≈ 295; FP8 weights with BF16 math: 295 × 1 ÷ 2 ≈ 148.
    """
    return ridge(peak_tflops, bandwidth_tbps) * bytes_per_weight / 2


def decode_intensity(active_params, batch, weights_gb, kv_gb, attention_flop=0.0):
    """Intensity of a whole decode step: its FLOPs ÷ every byte it reads, KV cache
    included [2].

    .. math:: I = \\frac{2 N_{act} B + F_{attn}}{(W + KV) \\cdot 10^9}

    The weights-only rule (``critical_batch``: I ≈ 2B ÷ b) leaves out the KV cache, which
    at long contexts outweighs the weights many times over and has an intensity of its
    own of only about 1 FLOP per byte per query head sharing it: a step whose weights
    alone are past the ridge can still be memory-bound.

    Parameters
    ----------
    active_params : float
        Parameters each token multiplies N_act [count].
    batch : float
        Sequences in the step B [count].
    weights_gb : float
        Weights the step reads W [GB].
    kv_gb : float
        KV cache the step reads, all sequences together [GB].
    attention_flop : float
        FLOPs of the attention products F_attn (DECODE_ATTENTION_FLOP; 0: left out)
        [FLOP].

    Returns
    -------
    FLOP/byte. Llama 3.1 8B with INT4 weights (4.015 GB) at batch 64, 8,192 tokens each
    (KV 64 × 8,192 × 131,072 B = 68.719 GB; attention 4 × 32 × 4,096 × 8,192 × 64 =
    2.749e11 FLOP): (1.0278e12 + 2.749e11) ÷ 72.734e9 = 17.91, against 1.0278e12 ÷
    4.015e9 = 256.0 for the weights alone: memory-bound, where the weights-only rule
    says compute-bound on an H200 (ridge 989 × 0.7 ÷ 4.8 = 144.2).
    """
    return (2 * active_params * batch + attention_flop) / ((weights_gb + kv_gb) * 1e9)


def mbu(bytes_per_token_gb, ms_per_token, bandwidth_tbps):
    """Memory-bandwidth utilisation: achieved bandwidth ÷ peak [5].

    .. math:: MBU = \\frac{Q / t}{BW}

    A reading above 1 means the floor was beaten: an assumption (bytes per token,
    bandwidth) is wrong.

    Parameters
    ----------
    bytes_per_token_gb : float
        Bytes read per token Q (weights + KV) [GB].
    ms_per_token : float
        Measured time per token t [ms].
    bandwidth_tbps : float
        Peak bandwidth BW [TB/s].

    Returns
    -------
    Fraction. 16.06 GB in 6.2 ms on 3.35 TB/s: 2.59 ÷ 3.35 = 0.773.
    """
    return achieved_tbps(bytes_per_token_gb, ms_per_token) / bandwidth_tbps


def achieved_tbps(bytes_per_token_gb, ms_per_token):
    """Bandwidth a measurement achieved: Q ÷ t, TB/s (GB ÷ ms).

    Parameters
    ----------
    bytes_per_token_gb : float
        Bytes read per token [GB].
    ms_per_token : float
        Time per token [ms].
    """
    return bytes_per_token_gb / ms_per_token


def achieved_tflops(flop_per_token, tokens_per_second):
    """Compute rate a measurement achieved: F × R, in TFLOPS.

    Parameters
    ----------
    flop_per_token : float
        FLOPs per token F [FLOP].
    tokens_per_second : float
        Measured tokens per second R [tokens/s].
    """
    return flop_per_token * tokens_per_second / 1e12


def mfu(flop_per_token, tokens_per_second, peak_tflops):
    """Model FLOPs utilisation: achieved FLOP/s ÷ peak [4].

    .. math:: MFU = \\frac{F \\cdot R}{P}

    Parameters
    ----------
    flop_per_token : float
        FLOPs the model needs per token F [FLOP] (about 2 × params).
    tokens_per_second : float
        Measured tokens per second R [tokens/s].
    peak_tflops : float
        Peak compute P [TFLOPS].

    Returns
    -------
    Fraction. 16 GFLOP per token at 2,000 tokens/s on 989 TFLOPS: 0.032.
    """
    return flop_per_token * tokens_per_second / (peak_tflops * 1e12)
