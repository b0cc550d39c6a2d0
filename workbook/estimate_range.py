"""How sure the headline is: the range of the realistic estimate from published
deployments napkin was not made from, on Finance (row 29) and beside Sizing's headline.

For each serving regime, ``udfs/data/estimate_range.csv`` holds the measured ÷ realistic
of its published measurements, each predicted by anchors and a per-layer time made
without the measurement's source (leave one source out), as a low and a high that hold
at least 80 % of them (``tests/serving_floor.estimate_range`` makes them;
``tests/test_serving_measurements.py`` checks the file against it). The Assumptions
sheet's regime table shows them (REGIME_RANGE_LOW, REGIME_RANGE_HIGH). The scenario's
regime is the rule's (``udfs.inference.regimes.serving_regime``: expert parallel, at most 8
sequences on fewer or more than 8 GPUs, one GPU or tensor parallel above 8); its
realistic step × low and × high give a fleet each (one rule for replicas,
``workbook.model.fleet``), a monthly bill and a cost per million output tokens:
RESULT_COST_PER_MTOK_LOW and RESULT_COST_PER_MTOK_HIGH.
"""

from __future__ import annotations

from openpyxl.styles import Alignment

from udfs.inference import regimes
from workbook.expr import Cell, Column, Expr, F, Name, Text, of, words
from workbook.model import fleet
from workbook.model.bill import bill_cost_per_mtok
from workbook.model.fleet import gpus_total, replica_tps, replicas
from workbook.sheet import Sheet

#: Finance's row of the range (between the ranges of assumptions and the tornado).
RANGE_ROW = 29
RANGE_CELLS = {"low": f"B{RANGE_ROW}", "regime": f"C{RANGE_ROW}",
               "high": f"D{RANGE_ROW}"}
TPD, PEAK, UTIL = fleet.TOKENS_DAY, fleet.PEAK_TO_AVERAGE, fleet.UTILIZATION


def regime_rule(gpus, batch, expert_parallel) -> Expr:
    """The regime of a deployment in Excel's functions, as ``serving_regime`` says it:
    ``gpus`` per replica, ``batch`` per replica, ``expert_parallel`` 1 or 0 (cells)."""
    g = of(gpus)
    return F.IF(of(expert_parallel).eq(1), Text("moe_expert_parallel"), F.IF(
        of(batch).le(regimes.SMALL_BATCH), F.IF(g.ge(regimes.WIDE_TP), Text("tp8_small_batch"),
                                                Text("small_batch")),
        F.IF(g.eq(1), Text("throughput_one_gpu"), Text("throughput_tp"))))


#: How the headline begins where the scenario's layout does not run
#: (``workbook.model.step.NO_LAYOUT``, ``NO_LAYOUT_HEADS``).
NO_WAY = "no layout"


def unless_no_layout(cost) -> Expr:
    """``cost``, or the headline's words (RESULT_COST_PER_MTOK) where they say the
    scenario has no layout that runs: a range of a cost that is not there is not there."""
    base = Name("RESULT_COST_PER_MTOK")
    # LEFT of text only: the text of a number is Excel's 15 digits, not napkin's to say
    words_of = F.IF(F.ISTEXT(base), F.LEFT(base, len(NO_WAY)), Text(""))
    return F.IF(words_of.eq(Text(NO_WAY)), base, of(cost))


def _cost_at(share, gpus, batch, price) -> Expr:
    """The cost per million output tokens with the realistic step × ``share``: the fleet
    for the peak, its monthly bill, ÷ the month's output tokens (``unless_no_layout``)."""
    step = Name("RESULT_STEP_MS") * of(share)
    fleet_at = gpus_total(replicas(TPD, replica_tps(step, batch), PEAK, UTIL), gpus)
    return unless_no_layout(bill_cost_per_mtok(fleet_at, price))


def range_row(s: Sheet, gpus: str, batch: str, price: str, expert_parallel: str) -> None:
    """Finance's row ``RANGE_ROW``: the low-cost end (B), the scenario's regime (C), the
    high-cost end (D) and how (E); ``gpus``, ``batch``, ``price`` and ``expert_parallel``
    are the scenario's cells."""
    r, c = RANGE_ROW, RANGE_CELLS
    s.put(f"A{r}", "Range: 80 % of published deployments")
    s.put(c["regime"], regime_rule(gpus, batch, expert_parallel), "formula")
    at = F.MATCH(Cell(c["regime"]), Name("REGIME_NAME"), 0)
    low, high = Column("REGIME_RANGE_LOW").at(at), Column("REGIME_RANGE_HIGH").at(at)
    for key, share in (("low", low), ("high", high)):
        s.put(c[key], _cost_at(share, gpus, batch, price), "result", "money")
    for cell in c.values():
        s.ws[cell].alignment = Alignment(horizontal="right")
    s.put(f"E{r}", words(
        "the realistic step × ", F.ROUND(low, 2), " and × ", F.ROUND(high, 2),
        ": measured ÷ realistic of ", Column("REGIME_RANGE_ROWS").at(at),
        " published deployments of this regime, each predicted without its source "
        "(Assumptions, regime table); the fleet, bill and cost of each"), "note")
    s.ws[f"E{r}"].alignment = Alignment(wrap_text=True, vertical="top")
    s.ws.row_dimensions[r].height = 42  # the note's three lines beside the figures


def headline_note(means: str) -> str:
    """Sizing's note beside the headline: its range, then what it means (``means``)."""
    low, high = Name("RESULT_COST_PER_MTOK_LOW"), Name("RESULT_COST_PER_MTOK_HIGH")
    return words(F.IF(F.AND(F.ISNUMBER(low), F.ISNUMBER(high)), words(
        "range ", F.ROUND(low, 2), " to ", F.ROUND(high, 2), " (80 % of published "
        f"deployments of this regime, each predicted without its source: Finance row "
        f"{RANGE_ROW}); "), Text("")), means).formula()


__all__ = ["RANGE_ROW", "RANGE_CELLS", "regime_rule", "range_row", "headline_note"]
