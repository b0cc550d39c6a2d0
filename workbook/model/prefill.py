"""The first token: the prefill of one prompt on a replica, once, for Sizing's answer
(RESULT_FIRST_TOKEN_MS) and each row of Plan's table.

.. math:: T_1 = \\frac{\\max\\left(\\frac{F}{R \\cdot g},\\;
   \\frac{W_P + P \\cdot kv}{b_w \\cdot g}\\right) + C_P}{e} + L \\cdot t_{layer}

A prefill runs the prompt's P tokens through every layer once: its matmuls do F = 2·A·P
+ 2·L·d_attn·P² FLOPs (PREFILL_MS), and it reads the weights its tokens pick, W_P (an
MoE model's experts under uniform routing at a batch of P tokens,
``workbook.model.step.batch_read``), and writes the prompt's keys and values, P × kv
bytes a token. A long prompt is bound by F, a short one by the weights' read: at 128
tokens Llama 2 7B in FP8 on one H100 does 0.87 ms of math but moves 6.8 GB, 2.0 ms
(``udfs.inference.timing.prefill_floor_ms``, the same floor in Python, checked against 28
measured first tokens: docs/measurements.md, "First token"). R and b_w are one GPU's
compute roof and bandwidth, g the GPUs of the replica, e ROOF_EFFICIENCY, L the layers
at the per-layer time LAYER_TIME_US (the decode step's fixed time, paid once for one
pass: ``udfs.inference.timing.first_token_ms``), C_P the tensor-parallel all-reduces of the
prompt's tokens. Queueing, the client's round trip and the tokenizer are not counted.
"""

from __future__ import annotations

from workbook.expr import Expr, F, Name, larger, of
from workbook.model.step import batch_read, read_weights

#: Share of the peak a prefill reaches (Assumptions; docs/measurements.md, "First token").
ROOF_EFFICIENCY = Name("ROOF_EFFICIENCY")
#: The per-layer time of the Assumptions [µs].
LAYER_TIME_US = Name("LAYER_TIME_US")


def prefill_moved_gb(row, prompt, precision, kv_bytes, kv_precision) -> Expr:
    """What a prefill of ``prompt`` tokens moves through memory [GB]: the weights its
    tokens read (``read_weights`` of ``batch_read`` at a batch of ``prompt`` tokens, in
    ``precision``; the model in ``row`` of the Models table) + the keys and values it
    writes, ``prompt`` × ``kv_bytes`` (the Models table's bytes a token in BF16) ×
    BYTES_PER_PARAM(``kv_precision``) ÷ 2."""
    weights = read_weights(batch_read(row, prompt), precision, row)
    written = of(prompt) * of(kv_bytes) * F.BYTES_PER_PARAM(of(kv_precision)) / 2
    return weights + written / 1000000000


def first_token_ms(math_ms, moved_gb, bandwidth, gpus, layers, comm_ms,
                   elementwise: bool = False) -> Expr:
    """The first token [ms]: the larger of the prefill's math, ``math_ms`` (PREFILL_MS at
    ROOF_EFFICIENCY, over the replica's roof), and its memory traffic, ``moved_gb`` over
    ``gpus`` × ``bandwidth`` TB/s at ROOF_EFFICIENCY, + the all-reduces ``comm_ms`` at
    ROOF_EFFICIENCY (the floor ÷ the efficiency, as ``udfs.inference.timing.first_token_ms`` and
    the decode step take it) + ``layers`` × LAYER_TIME_US. ``elementwise``: for an array
    formula over a column of ``gpus`` (``workbook.expr.larger``)."""
    memory_ms = of(moved_gb) / (of(bandwidth) * of(gpus)) / ROOF_EFFICIENCY
    return (larger(math_ms, memory_ms, elementwise) + of(comm_ms) / ROOF_EFFICIENCY
            + of(layers) * LAYER_TIME_US / 1000)


__all__ = ["ROOF_EFFICIENCY", "LAYER_TIME_US", "prefill_moved_gb", "first_token_ms"]
