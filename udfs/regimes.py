"""Efficiency by serving regime: the share of the decode floor a deployment reaches.

A floor (``udfs.timing.decode_step_ms``) is what datasheet peaks allow; what a
deployment pays is the floor ÷ efficiency. The efficiency differs by regime: one GPU at
a small batch runs near its memory roofline, large-batch serving loses to scheduling and
attention kernels, tensor parallelism adds all-reduce latency to every layer, and an MoE
model served with expert parallelism adds all-to-all dispatch and load imbalance. Each
regime's default is the median of floor ÷ measured over the published measurements of
that regime (``tests/data/serving_measurements.csv``), kept in ``data/efficiency.csv``
with its sources, dates and software.

=======================  ===========================================================
regime                   rule (checked in this order)
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
from functools import cache
from importlib import resources

from .xp import where

#: Largest batch (sequences per replica) that counts as a small batch.
SMALL_BATCH = 8
#: Fewest GPUs of a tensor-parallel replica whose small batches form their own regime.
WIDE_TP = 8


@cache
def table() -> dict[str, dict]:
    """The regime table, ``data/efficiency.csv``, read once: regime → row (column → text).

    Columns: ``efficiency`` (the default, 0–1), ``rule``, ``measurements`` (the ids of
    the measurements it is the median of), ``derivation``, ``software``, ``dates``,
    ``sources``.
    """
    text = (resources.files(__package__) / "data" / "efficiency.csv").read_text("utf-8")
    return {r["regime"]: r for r in csv.DictReader(io.StringIO(text))}


def efficiency_of(regime: str) -> float:
    """The default efficiency of ``regime`` (a name of ``table``)."""
    return float(table()[regime]["efficiency"])


def serving_regime(gpus: float, batch: float, expert_parallel: bool = False) -> str:
    """The regime of a deployment, by the rules of the module's table.

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


def regime_efficiency(gpus, batch, expert_parallel=0.0):
    """Default efficiency (floor ÷ realistic time) of a deployment's regime.

    .. math:: e = e_{regime}(g, B, EP)

    the median of floor ÷ measured over the published measurements of the regime
    (``serving_regime`` names it; ``data/efficiency.csv`` holds the values).

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
    Efficiency, 0–1. One GPU at batch 1: the ``small_batch`` default; divide a floor by
    it for the realistic time (``ESTIMATE``).
    """
    e = efficiency_of
    return where(expert_parallel > 0, e("moe_expert_parallel"),
                 where(batch <= SMALL_BATCH,
                       where(gpus >= WIDE_TP, e("tp8_small_batch"), e("small_batch")),
                       where(gpus == 1, e("throughput_one_gpu"), e("throughput_tp"))))
