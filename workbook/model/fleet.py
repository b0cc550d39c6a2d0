"""The fleet a scenario needs, once, as formula expressions every sheet uses (Sizing,
Plan, Cost, Finance): what a replica produces, the replicas for the peak, the GPUs in
total.

One rule for replicas everywhere: capacity for the peak token rate at the planned
utilization,

.. math:: R = \\left\\lceil \\frac{D / 86400 \\cdot k}{T \\cdot u} \\right\\rceil

D output tokens a day, k peak-to-average, T tokens/s one replica produces at its batch,
u the utilization planned at the peak (``udfs.inference.finance.gpus_for_demand``, GPUS_FOR_DEMAND,
whose argument is a replica here). A sheet that has a replica's tokens/s (Sizing's
realistic step, Plan's row of a layout, Cost's GPU, Finance's column of a range) passes
it; no sheet counts replicas another way, so a layout Plan finds gives the same replicas
typed into Sizing.

Each function takes expressions or formula text (``workbook.expr.of``) and returns an
``Expr``.

References
----------
.. [1] J. D. C. Little, "A Proof for the Queuing Formula: L = λW", Operations Research
   9(3), 1961: the sequences a fleet holds at the peak are the peak rate × the time each
   takes, the same count as the peak token rate ÷ each sequence's token rate.
"""

from __future__ import annotations

from workbook.expr import Expr, F, of

#: The scenario's demand and month, the defined names (Sizing) the fleet is sized from.
TOKENS_DAY, PEAK_TO_AVERAGE, UTILIZATION, HOURS = (
    "SCENARIO_OUTPUT_TOKENS_PER_DAY", "SCENARIO_PEAK_TO_AVERAGE", "SCENARIO_UTILIZATION",
    "SCENARIO_HOURS_PER_MONTH")


def replicas(tokens_day, replica_tps, peak_to_average, utilization) -> Expr:
    """Replicas for the peak, 0 without traffic (``tokens_day`` 0): ``peak_replicas``."""
    d = of(tokens_day)
    return F.IF(d.gt(0), peak_replicas(d, replica_tps, peak_to_average, utilization), 0)


def peak_replicas(tokens_day, replica_tps, peak_to_average, utilization) -> Expr:
    """Replicas for the peak where there is traffic (a caller that says "no traffic"
    itself): GPUS_FOR_DEMAND(output tokens a day, a replica's tokens/s, peak-to-average,
    utilization)."""
    return F.GPUS_FOR_DEMAND(of(tokens_day), of(replica_tps), of(peak_to_average),
                             of(utilization))


def replica_tps(step_ms, batch) -> Expr:
    """Tokens/s one replica produces: TOKENS_PER_SEC(the step per output token, ms) ×
    the batch (one token a sequence a step)."""
    return F.TOKENS_PER_SEC(of(step_ms)) * of(batch)


def gpus_total(replica_count, gpus_per_replica) -> Expr:
    """GPUs in total: replicas × GPUs per replica."""
    return of(replica_count) * of(gpus_per_replica)


__all__ = ["TOKENS_DAY", "PEAK_TO_AVERAGE", "UTILIZATION", "HOURS", "replicas",
           "peak_replicas", "replica_tps", "gpus_total"]
