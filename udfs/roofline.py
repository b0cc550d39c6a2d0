"""The roofline: intensity, ridge point, attainable FLOPS (reference doc §5 and §6).

Arithmetic intensity I = FLOPs ÷ bytes moved. A chip's ridge point is
I_ridge = peak FLOPS ÷ bandwidth: below it a kernel is memory-bound (more FLOPS change
nothing), above it compute-bound. Attainable FLOPS = min(peak, bandwidth × I).

Units: compute rate TFLOPS, bandwidth TB/s, intensity FLOP/byte (TFLOPS ÷ TB/s is
FLOP/byte with no factor).
"""

from __future__ import annotations

from .xp import minimum, where

MEMORY_BOUND = "memory-bound"
COMPUTE_BOUND = "compute-bound"


def intensity(flop, nbytes):
    """I = FLOPs ÷ bytes. §5: y = x × 2 in BF16 does 1 FLOP per 4 bytes: I = 0.25."""
    return flop / nbytes


def matmul_intensity(m, n, k, bytes_per_elem):
    """Intensity of an (m×k)·(k×n) matrix product that reads both inputs and writes the
    output once.

    .. math:: I = \\frac{2mnk}{b\\,(mk + kn + mn)}

    §5: square N = 4096 in BF16: 2N³ ÷ (2 × 3N²) = N/3 ≈ 1,365 FLOP/byte.
    """
    return 2 * m * n * k / (bytes_per_elem * (m * k + k * n + m * n))


def ridge(peak_tflops, bandwidth_tbps, efficiency=1.0):
    """Ridge point, FLOP/byte: peak × efficiency ÷ bandwidth.

    §5: H100 SXM BF16 989 TFLOPS ÷ 3.35 TB/s ≈ 295. §6: at the real roof (0.8 × 989 ≈
    791 TFLOPS) the ridge moves in to ≈ 236; on the FP8 roof (1,979) out to ≈ 590.
    """
    return peak_tflops * efficiency / bandwidth_tbps


def attainable_tflops(intensity_, peak_tflops, bandwidth_tbps):
    """Roofline: min(peak, bandwidth × I), TFLOPS. §5: I = 0.25 on an H100 → 0.84."""
    return minimum(peak_tflops, memory_roof_tflops(intensity_, bandwidth_tbps))


def memory_roof_tflops(intensity_, bandwidth_tbps):
    """The sloped roof: bandwidth × I, TFLOPS (TB/s × FLOP/byte)."""
    return bandwidth_tbps * intensity_


def bound(intensity_, ridge_):
    """"memory-bound" below the ridge, "compute-bound" at or above it (§5)."""
    return where(intensity_ < ridge_, MEMORY_BOUND, COMPUTE_BOUND)


def critical_batch(peak_tflops, bandwidth_tbps, bytes_per_weight):
    """Batch at which a decode GEMM reaches the ridge.

    A decode GEMM of B tokens through a D×F weight matrix does 2·B·D·F FLOPs and reads
    about b·D·F bytes of weights, so I ≈ 2B ÷ b and the ridge is reached at

    .. math:: B^* = I_{ridge} \\times b / 2

    §5/§6: H100 BF16 weights on the BF16 roof: 295; FP8 weights on the FP8 roof: 590 × 1
    ÷ 2 ≈ 295; FP8 weights with BF16 math: 295 × 1 ÷ 2 ≈ 148.
    """
    return ridge(peak_tflops, bandwidth_tbps) * bytes_per_weight / 2


def mbu(bytes_per_token_gb, ms_per_token, bandwidth_tbps):
    """Memory-bandwidth utilisation: achieved bandwidth ÷ peak.

    .. math:: MBU = \\frac{Q / t}{BW}

    with Q in GB and t in ms, Q/t is in TB/s. A reading above 1 means the floor was
    beaten: an assumption (bytes per token, bandwidth) is wrong (§2).
    """
    return achieved_tbps(bytes_per_token_gb, ms_per_token) / bandwidth_tbps


def achieved_tbps(bytes_per_token_gb, ms_per_token):
    """Bandwidth a measurement achieved: GB per token ÷ ms per token, in TB/s."""
    return bytes_per_token_gb / ms_per_token


def achieved_tflops(flop_per_token, tokens_per_second):
    """Compute rate a measurement achieved: FLOPs per token × tokens/s, in TFLOPS."""
    return flop_per_token * tokens_per_second / 1e12


def mfu(flop_per_token, tokens_per_second, peak_tflops):
    """Model FLOPs utilisation: achieved FLOP/s ÷ peak (FLOPs × tokens/s ÷ peak)."""
    return flop_per_token * tokens_per_second / (peak_tflops * 1e12)
