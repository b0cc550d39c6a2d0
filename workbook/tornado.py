"""Finance's tornado: the headline (the month's bill ÷ the month's output tokens) with
one assumption at its low and at its high value, the others at base (the ranges' columns
B and D), which moves it most, and the chart of the changes."""

from __future__ import annotations

from openpyxl.chart import BarChart, Reference
from openpyxl.styles import Alignment

from workbook.arrays import fill, fixed
from workbook.expr import Cell, Expr, Name, Span, Text, of, words
from workbook.expr import F as fx
from workbook.model.bill import NO_PRICE, bill_cost_per_mtok
from workbook.model.fleet import PEAK_TO_AVERAGE, TOKENS_DAY, gpus_total, peak_replicas, replica_tps
from workbook.model.gpu import numbers_or
from workbook.scenario import HEADLINE
from workbook.sheet import Sheet

TPD, PEAK, CURRENCY = Name(TOKENS_DAY), Name(PEAK_TO_AVERAGE), Name("CURRENCY")
TORNADO = [  # label, assumption whose low and high are tried (the others at base)
    "Efficiency (Calibration)", "Utilization", "Price per GPU-hour",
]


def _tornado_cost(p, m, util, step, batch, gpus, kernels) -> Expr:
    """The headline with one input changed: the fleet at the efficiency ``m`` and the
    utilization ``util``, its bill at the price ``p`` ÷ the month's tokens."""
    fleet_at = gpus_total(peak_replicas(TPD, replica_tps(
        fx.ESTIMATE(of(step), of(m), of(kernels)), batch), PEAK, of(util)), of(gpus))
    return bill_cost_per_mtok(fleet_at, p)


def tornado(s: Sheet, F: dict, kernels: str) -> None:
    """Rows 32..35 of Finance (``F``: its key cells) and the chart: the headline with one
    assumption at each end; ``kernels``: the layers' time (Sizing's cell)."""
    gpus, batch, step = F["gpus"], F["batch"], F["step_ms"]
    e, u, pr, cost = F["eff"], F["util"], F["price_range"], F["cost_range"]
    t0 = F["tornado_first"]
    s.section(t0 - 2, "Tornado: which assumption moves the cost per million output tokens "
                      "most (the others at base)", "H")
    s.header(t0 - 1, ["Assumption", "Low value", "High value", "Cost at the low value",
                      "Cost at the high value", "Low value: change vs base",
                      "High value: change vs base", "Swing"], height=45)
    base_cost = Cell(f"$C${cost}")

    def at(p, m, util):
        return _tornado_cost(Cell(p), m, util, step, batch, gpus, kernels)
    cases = [  # (low value, high value, cost at low, cost at high), fmt of the values
        (f"D{e}", f"B{e}", at(f"C{pr}", f"D{e}", f"C{u}"), at(f"C{pr}", f"B{e}", f"C{u}"),
         "pct"),
        (f"D{u}", f"B{u}", at(f"C{pr}", f"C{e}", f"D{u}"), at(f"C{pr}", f"C{e}", f"B{u}"),
         "pct"),
        (f"B{pr}", f"D{pr}", at(f"B{pr}", f"C{e}", f"C{u}"), at(f"D{pr}", f"C{e}", f"C{u}"),
         "money"),
    ]
    for i, (label, (lo, hi, c_lo, c_hi, fmt)) in enumerate(zip(TORNADO, cases, strict=True)):
        r = t0 + i
        d, g = Cell(f"D{r}"), Cell(f"E{r}")
        s.put(f"A{r}", label)
        s.put(f"B{r}", Cell(lo), "formula", fmt)
        s.put(f"C{r}", Cell(hi), "formula", fmt)
        s.put(f"D{r}", c_lo, "result", "money")
        s.put(f"E{r}", c_hi, "result", "money")
        change = '+#,##0.00;-#,##0.00;0.00'
        # against the base: its words where the base is not a number (no price, no layout)
        s.put(f"F{r}", fx.IF(fx.ISNUMBER(base_cost), numbers_or([d], d - base_cost, NO_PRICE),
                             base_cost), "formula", change)
        s.put(f"G{r}", fx.IF(fx.ISNUMBER(base_cost), numbers_or([g], g - base_cost, NO_PRICE),
                             base_cost), "formula", change)
        # rounded: swings that tie (whole GPUs) tie in every engine, the first one named
        s.put(f"H{r}", numbers_or([d, g], fx.ROUND(fx.MAX(d, g) - fx.MIN(d, g), 6), NO_PRICE),
              "formula", "money")
        for col in "BCDEFGH":
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    tl = t0 + len(TORNADO) - 1
    # the costs as one array formula: each row changes its own input to the values in B:C
    which = {key: fx.IF(Cell(f"$A{t0}").eq(Text(label)), Cell(f"B{t0}"), Cell(base))
             for key, label, base in (("m", TORNADO[0], f"$C${e}"),
                                      ("util", TORNADO[1], f"$C${u}"),
                                      ("p", TORNADO[2], f"$C${pr}"))}
    fill(s.ws, f"D{t0}:E{tl}", _tornado_cost(
        which["p"], which["m"], which["util"], fixed(step), fixed(batch), fixed(gpus),
        fixed(kernels)), keep=True)
    s.put(f"A{F['most'][1:]}", "Moves it most")
    swings = Span(Cell(f"H{t0}"), Cell(f"H{tl}"))
    s.put(F["most"], numbers_or([Cell(f"H{t0}")], fx.INDEX(
        Span(Cell(f"A{t0}"), Cell(f"A{tl}")), fx.MATCH(fx.MAX(swings), swings, 0)), NO_PRICE),
        "result")
    s.put(f"A{F['base_cost'][1:]}", words(f"{HEADLINE} (base, ", CURRENCY, ")"))
    s.put(F["base_cost"], base_cost, "formula", "money")
    s.put(f"C{F['base_cost'][1:]}", "the zero line of the chart: every assumption at base",
          "note")
    _tornado_chart(s, t0, tl)


def _tornado_chart(s: Sheet, first: int, last: int):
    """Horizontal bars around the base cost: one assumption at its low value (one series)
    and at its high value (the other), read from the tornado table's change columns."""
    chart = BarChart()
    chart.type = "bar"
    chart.grouping = "clustered"
    chart.overlap = 100
    chart.gapWidth = 40
    chart.title = "Cost per million output tokens: change vs base"
    chart.style = 2
    chart.height, chart.width = 7.5, 22
    ws = s.ws
    data = Reference(ws, min_col=6, max_col=7, min_row=first - 1, max_row=last)
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=1, min_row=first, max_row=last))
    for ser, color in zip(chart.series, ("9DC3E6", "C55A11"), strict=True):
        ser.graphicalProperties.solidFill = color
        ser.graphicalProperties.line.solidFill = color
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.x_axis.tickLblPos = "low"
    chart.y_axis.number_format = "+#,##0.00;-#,##0.00;0"
    chart.y_axis.majorGridlines = None
    chart.y_axis.title = "change vs base, currency per million output tokens"
    chart.legend.position = "b"
    ws.add_chart(chart, f"A{last + 4}")


__all__ = ["TORNADO", "tornado"]
