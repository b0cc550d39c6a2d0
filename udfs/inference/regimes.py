"""Efficiency by serving regime: the share of the decode floor a deployment reaches.

A floor (``udfs.inference.timing.decode_step_ms``) is what datasheet peaks allow; what a
deployment pays is the floor ÷ efficiency plus a fixed time per layer
(``layer_overhead_ms``: the kernels' setup and teardown, which move no bytes). The
efficiency differs by regime: one GPU at
a small batch runs near its memory roofline, large-batch serving loses to scheduling and
attention kernels, tensor parallelism adds all-reduce latency to every layer, and an MoE
model served with expert parallelism adds all-to-all dispatch and load imbalance.

Each regime is an anchor made from its published measurements
(``tests/data/serving_measurements.csv``), kept in ``data/efficiency.csv`` with its
sources, dates and software: its efficiency, the geometric mean of its rows' floor ÷
(measured − the per-layer time, ``data/layer_time.csv``),
and the range of GPUs and of batches its rows span. Inside a regime's range
the efficiency is the regime's; between two ranges it moves linearly in the logarithm of
the GPUs and of the batch (``regime_efficiency``), so it has no step at any batch.

=======================  ===========================================================
regime                   rule that names a measurement's regime (in this order)
=======================  ===========================================================
moe_expert_parallel      an MoE model, experts spread by expert parallelism and the
                         attention data-parallel (each GPU its own sequences)
tp8_small_batch          8 or more GPUs in tensor parallel, at most 8 sequences
small_batch              1 to 7 GPUs, at most 8 sequences
throughput_one_gpu       one GPU, more than 8 sequences
throughput_tp            2 or more GPUs in tensor parallel, more than 8 sequences
=======================  ===========================================================
"""

from __future__ import annotations

import csv
import io
import re
from functools import cache
from importlib import resources

from ..machinery.xp import log, maximum, minimum, where

#: Largest batch (sequences per replica) of a measurement named a small-batch one.
SMALL_BATCH = 8
#: Fewest GPUs of a tensor-parallel measurement whose small batches form their own regime.
WIDE_TP = 8
#: The numeric columns of ``data/efficiency.csv``.
NUMBERS = ("efficiency", "gpus_low", "gpus_high", "batch_low", "batch_high")


@cache
def table() -> dict[str, dict]:
    """The regime table, ``data/efficiency.csv``, read once: regime → row (column → text).

    Columns: ``efficiency`` (the anchor's value, 0–1), ``gpus_low`` and ``gpus_high``
    (the GPUs per replica its measurements span), ``batch_low`` and ``batch_high`` (the
    batches they span), ``rule``, ``measurements`` (the ids of the rows it is made from),
    ``derivation``, ``software``, ``dates``, ``sources``.
    """
    text = (resources.files("udfs") / "data" / "efficiency.csv").read_text("utf-8")
    return {r["regime"]: r for r in csv.DictReader(io.StringIO(text))}


@cache
def estimate_range() -> dict[str, dict]:
    """How far the realistic estimate is from what runs, by regime,
    ``data/estimate_range.csv``, read once: regime → row (column → text).

    Columns: ``low`` and ``high`` (measured ÷ realistic over the regime's published
    measurements, each predicted without its source, ⌊rows ÷ 10⌋ cut at each end: at
    least 80 % of them lie between realistic × low and realistic × high), ``rows``,
    ``method``, ``checked`` (the date they were computed).
    """
    text = (resources.files("udfs") / "data" / "estimate_range.csv").read_text("utf-8")
    return {r["regime"]: r for r in csv.DictReader(io.StringIO(text))}


@cache
def layer_time() -> dict:
    """The per-layer time, ``data/layer_time.csv``, read once: column → text.

    Columns: ``layer_time_us`` (the time each layer adds to a decode step beyond the floor
    [µs]), ``rule``, ``measurements`` (the ids of the rows it is made from),
    ``derivation``, ``sources``.
    """
    text = (resources.files("udfs") / "data" / "layer_time.csv").read_text("utf-8")
    return next(csv.DictReader(io.StringIO(text)))


def period() -> tuple[str, str]:
    """The period the anchors describe: the earliest and the latest date (year and month,
    ``YYYY-MM``, or the year where a source gives no month) among the dates of the
    measurements the regimes are made from (``data/efficiency.csv``, column ``dates``:
    each source's date, or the release its software is; "undated" ones left out).
    """
    found = sorted({m[:7] for row in table().values()
                    for m in re.findall(r"\b20\d\d(?:-\d\d)?", row["dates"])})
    return found[0], found[-1]


def layer_time_us() -> float:
    """The per-layer time of ``data/layer_time.csv`` [µs]."""
    return float(layer_time()["layer_time_us"])


def layer_overhead_ms(layers, tokens_per_step=1.0, layer_us=None):
    """The fixed time a decode step pays per layer beyond its floor, per token.

    .. math:: T_{fixed} = \\frac{L \\cdot t_{layer}}{\\tau}

    A step is a sequence of kernels, several per layer (norms, projections, attention,
    the MLP, the all-reduces: about a hundred over the 16 layers of Llama 3.2 1B [1]);
    each has a setup and teardown in which no bytes move [1], and the floor
    (``udfs.inference.timing.decode_step_ms``) counts only the bytes and FLOPs. At a small batch,
    where the step is the weights, the measured step exceeds the floor by a time the
    layers account for better than the bytes do: t_layer is the least-squares fit of
    that time over the small-batch measurements of
    ``tests/data/serving_measurements.csv`` (``data/layer_time.csv``). The realistic step
    is floor ÷ efficiency + T_fixed (``udfs.inference.finance.estimate_ms``).

    Parameters
    ----------
    layers : float
        Layers a step runs, L: the model's, all pipeline stages together, and one more
        for each draft pass of speculative decoding (an MTP module or an EAGLE head is
        one transformer layer) [count].
    tokens_per_step : float
        Tokens each step yields, τ (speculative decoding; 1 without) [count].
    layer_us : float or None
        Time per layer, t_layer (default ``layer_time_us()``) [µs].

    Returns
    -------
    ms per token. Llama 3.1 70B (80 layers) without speculation: 80 × t_layer.

    References
    ----------
    .. [1] B. Spector, J. Juravsky, S. Sul, O. Dugan, D. Lim, D. Fu, S. Arora and C. Ré,
       "Look Ma, No Bubbles! Designing a Low-Latency Megakernel for Llama-1B", Hazy
       Research blog, 2025-05-27 (vLLM and SGLang at batch 1 on an H100 use at most half
       the memory bandwidth: a forward pass is about a hundred kernels, each with a setup
       and teardown), https://hazyresearch.stanford.edu/blog/2025-05-27-no-bubbles
    """
    t = layer_time_us() if layer_us is None else layer_us
    return layers * t / 1000 / tokens_per_step


def anchors(rows: dict[str, dict] | None = None) -> dict[str, dict[str, float]]:
    """The numbers of each regime's anchor (``NUMBERS``) of ``rows`` (default ``table()``)."""
    rows = table() if rows is None else rows
    return {k: {c: float(r[c]) for c in NUMBERS} for k, r in rows.items()}


def efficiency_of(regime: str) -> float:
    """The anchor efficiency of ``regime`` (a name of ``table``)."""
    return float(table()[regime]["efficiency"])


def serving_regime(gpus: float, batch: float, expert_parallel: bool = False) -> str:
    """The regime a measurement is counted in, by the rules of the module's table.

    Parameters
    ----------
    gpus : float
        GPUs of one replica, a whole number [count].
    batch : float
        Sequences decoded together per replica [count].
    expert_parallel : bool
        An MoE model served with expert parallelism and data-parallel attention.

    Returns
    -------
    The regime's name. 8 H200 at batch 1 in tensor parallel: ``tp8_small_batch``; one
    H100 at batch 700: ``throughput_one_gpu``.
    """
    if expert_parallel:
        return "moe_expert_parallel"
    if batch <= SMALL_BATCH:
        return "tp8_small_batch" if gpus >= WIDE_TP else "small_batch"
    return "throughput_one_gpu" if gpus == 1 else "throughput_tp"


def between(x, x0, x1, y0, y1):
    """y0 at x ≤ x0, y1 at x ≥ x1, and linear in ln x between (x0 < x1, all above 0)."""
    t = minimum(1.0, maximum(0.0, (log(x) - log(x0)) / (log(x1) - log(x0))))  # (no x / x0:
    # it underflows to 0 for a batch as small as 5e-324)
    return y0 * (1 - t) + y1 * t  # exactly y0 at t = 0 and y1 at t = 1


def interpolate(a: dict[str, dict[str, float]], gpus, batch, expert_parallel=0.0):
    """``regime_efficiency`` over the anchors ``a`` (``anchors()``'s form), the regimes'
    own or those made from part of the measurement set (``tests/serving_floor.py``)."""
    small, wide = a["small_batch"], a["tp8_small_batch"]
    one, tp = a["throughput_one_gpu"], a["throughput_tp"]
    e_small = between(gpus, small["gpus_high"], wide["gpus_low"],
                      small["efficiency"], wide["efficiency"])
    b_small = max(small["batch_high"], wide["batch_high"])
    e_large = between(gpus, one["gpus_high"], tp["gpus_low"], one["efficiency"],
                      tp["efficiency"])
    b_large = between(gpus, one["gpus_high"], tp["gpus_low"], one["batch_low"],
                      tp["batch_low"])
    return where(expert_parallel > 0, a["moe_expert_parallel"]["efficiency"],
                 between(batch, b_small, b_large, e_small, e_large))


def regime_efficiency(gpus, batch, expert_parallel=0.0):
    """Default efficiency (floor ÷ realistic time) of a deployment, from the regimes'
    anchors, continuous in the batch and the GPUs.

    .. math::

        e_s(g) = L(g;\\ G_{s}, G_{w};\\ e_{s}, e_{w}), \\quad
        B_s = \\max(B^{hi}_{s}, B^{hi}_{w})

        e_t(g) = L(g;\\ G_{1}, G_{t};\\ e_{1}, e_{t}), \\quad
        B_t(g) = L(g;\\ G_{1}, G_{t};\\ B^{lo}_{1}, B^{lo}_{t})

        e = e_{moe} \\text{ if } EP > 0, \\text{ else } L(B;\\ B_s, B_t(g);\\ e_s(g), e_t(g))

    where :math:`L(x; x_0, x_1; y_0, y_1)` is :math:`y_0` at :math:`x \\le x_0`,
    :math:`y_1` at :math:`x \\ge x_1`, and linear in :math:`\\ln x` between. Subscripts
    name the regimes of ``data/efficiency.csv``: s small_batch, w tp8_small_batch, 1
    throughput_one_gpu, t throughput_tp; :math:`e` is a regime's anchor efficiency (the
    geometric mean of its measurements' floor ÷ (measured − the per-layer time)),
    :math:`G_s` the most GPUs of small_batch's measurements and :math:`G_w`, :math:`G_t`
    the fewest of tp8_small_batch's and throughput_tp's (:math:`G_1` = 1),
    :math:`B^{hi}` the largest batch of a small-batch regime's measurements (:math:`B_s`
    the larger of the two) and :math:`B^{lo}` the smallest of a throughput regime's.

    Parameters
    ----------
    gpus : float
        GPUs of one replica, g [count].
    batch : float
        Sequences decoded together per replica, B [count].
    expert_parallel : float
        1 for an MoE model served with expert parallelism and data-parallel attention,
        0 otherwise [count].

    Returns
    -------
    Efficiency, 0–1. One GPU at batch 1: small_batch's 0.742; 2 GPUs at batch 12: 0.742
    + (0.471 − 0.742) × ln(12/8) ÷ ln(16/8) = 0.583 (batches 8 and 16: the largest of
    the small-batch measurements and the smallest of throughput_tp's). Divide a floor by
    it and add the layers' time (``layer_overhead_ms``) for the realistic time
    (``ESTIMATE``).
    """
    return interpolate(anchors(), gpus, batch, expert_parallel)
