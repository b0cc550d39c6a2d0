"""Latency of the tensor-parallel all-reduce by interconnect: the table of per-step and
per-call latencies (``data/interconnects.csv``) and the ring's latency term.

A decode step's all-reduce sums a few kilobytes (batch × hidden × 2 B), so its time is
latency, not bandwidth. NCCL's own cost model (``src/graph/tuning.cc``) puts the latency
of a ring all-reduce over n GPUs at a per-call base plus 2(n − 1) ring steps, each at the
latency of the link it crosses [1]:

.. math:: T_{lat} = \\alpha_0 + 2(n - 1)\\,\\alpha

with α₀ = 6.6 µs and α = 0.6 µs over NVLink, 1.0 µs over PCIe, 2.7 µs over the
network (the LL protocol, which NCCL picks for small messages). Custom all-reduce kernels
of the serving stacks (TensorRT-LLM's one-shot and MultiShot, vLLM's custom all-reduce)
take fewer steps over NVSwitch [2], so the term is a realistic figure for NCCL's ring,
not a lower bound.

References
----------
.. [1] NVIDIA, NCCL ``src/graph/tuning.cc`` at commit 5067397c (2026-06-11),
   https://github.com/NVIDIA/nccl/blob/5067397c2676d5aed50042fc39e5c8ee96eb0027/src/graph/tuning.cc
   (``ncclTunerConstantsDefaults``: ``baseLatencies``, ``hwLatencies``; ring all-reduce
   ``nsteps = 2 * (nRanks - 1)``).
.. [2] NVIDIA (2024), "3x Faster AllReduce with NVSwitch and TensorRT-LLM MultiShot",
   https://developer.nvidia.com/blog/3x-faster-allreduce-with-nvswitch-and-tensorrt-llm-multishot/
   (the ring repeats its step 2N − 2 times; MultiShot takes two).
"""

from __future__ import annotations

import csv
import io
from functools import cache
from importlib import resources

from ..machinery.args import NONNEGATIVE, Arg
from ..machinery.errors import ExcelError, na_error
from ..machinery.xp import where


@cache
def table() -> dict[str, dict]:
    """The interconnect table, ``data/interconnects.csv``, read once: name → row.

    Columns: ``hop_latency_us`` (one ring step), ``base_latency_us`` (one call),
    ``nccl_hw`` and ``protocol`` (the entry of NCCL's table), ``source_url``,
    ``source_date``, ``notes``.
    """
    text = (resources.files("udfs") / "data" / "interconnects.csv").read_text("utf-8")
    return {r["interconnect"]: r for r in csv.DictReader(io.StringIO(text))}


def row_named(text: str, what: str) -> dict:
    """The row of ``table`` that ``text`` names, in any letter case, spaces and
    punctuation ignored ("nvlink", "Infini Band").

    Raises
    ------
    ExcelError
        ``#N/A`` naming ``what`` and the known names, for a name not in the table.
    """
    from .tables import name_key

    key = name_key(text)
    for name, row in table().items():
        if name_key(name) == key:
            return row
    raise na_error(f"{what}: unknown interconnect {text.strip()!r}; known: "
                   f"{', '.join(table())} (or a latency in µs)")


class Latency(Arg):
    """A latency in µs, or the name of an interconnect of ``table`` read as its column
    ``column`` (``hop_latency_us`` or ``base_latency_us``): ``"NVLink"`` → 0.6 as a ring
    step, 6.6 as a call; ``"2 us"`` and 2 as 2 µs.

    Parameters
    ----------
    name : str
        The argument's name, for messages.
    column : str
        The column of ``data/interconnects.csv`` a name reads.
    """

    def __init__(self, name: str, column: str):
        super().__init__(name, "us", NONNEGATIVE)
        self.column = column

    def read_text(self, text: str) -> float:
        try:
            return super().read_text(text)
        except ExcelError as not_a_time:
            if not any(c.isalpha() for c in text) or text.strip()[:1].isdigit():
                raise not_a_time from None
            return float(row_named(text, self.name)[self.column])


def hop_latency_us(interconnect: str) -> float:
    """Latency of one ring step over ``interconnect`` (a name of ``table``), µs."""
    return float(table()[interconnect]["hop_latency_us"])


def base_latency_us(interconnect: str) -> float:
    """Latency of one all-reduce call, whatever the GPUs (a name of ``table``), µs."""
    return float(table()[interconnect]["base_latency_us"])


def allreduce_latency_us(tp, hop_us, base_us=0.0):
    """Latency of one ring all-reduce over tp GPUs: the call plus 2(tp − 1) ring steps.

    .. math:: T_{lat} = \\alpha_0 + 2(p - 1)\\,\\alpha, \\quad 0 \\text{ when } p = 1

    Parameters
    ----------
    tp : float
        GPUs in the all-reduce, p [count]; 1 means none.
    hop_us : float
        Latency α of one ring step [µs] (``hop_latency_us``).
    base_us : float
        Latency α₀ of the call [µs] (``base_latency_us``).

    Returns
    -------
    µs. 8 GPUs over NVLink: 6.6 + 2 × 7 × 0.6 = 15.0 µs; 2 GPUs: 6.6 + 2 × 0.6 =
    7.8 µs (NCCL's constants [1]).
    """
    return where(tp > 1, base_us + 2 * (tp - 1) * hop_us, 0.0)
