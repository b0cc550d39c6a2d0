"""The Summary sheet: the scenario, its answer and the cost by GPU on one printed page,
for a reader who wants the figures, not the working.

Every figure is read through the template's public defined names (``SCENARIO_*`` for
the scenario, ``RESULT_*`` for the answer: ``workbook.scenario``), so the sheet shows
what Sizing shows and computes nothing of its own; the chart reads the Cost sheet's
column of the headline by GPU, sorted cheapest first (``workbook.cost.CHART``).
"""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference
from openpyxl.chart.label import DataLabelList
from openpyxl.chart.text import RichText, Text
from openpyxl.chart.title import Title
from openpyxl.drawing.text import (
    CharacterProperties,
    Paragraph,
    ParagraphProperties,
    RegularTextRun,
)
from openpyxl.styles import Alignment, Font
from openpyxl.utils import column_index_from_string

from workbook.cost import CHART, COST_FIRST
from workbook.expr import Cell, F, Name, words
from workbook.expr import Text as Literal
from workbook.scenario import HEADLINE
from workbook.sheet import CURRENCY, Sheet

#: The GPUs the chart shows: the cheapest of the Cost sheet's sorted rows.
CHEAPEST = 15
#: The section rows of the two blocks, and the first row of each block's figures.
SCENARIO_TOP, ANSWER_TOP = 4, 20
#: The chart's top-left cell, beside the blocks.
CHART_CELL = "D4"
#: The sheet's name (after Start: the first sheet a reader of figures opens).
TITLE = "Summary"

#: The scenario, in reading order: key, label, expression (a defined name), number format.
SCENARIO_ROWS = [
    ("model", "Model", Name("SCENARIO_MODEL"), None),
    ("precision", "Weight precision", Name("SCENARIO_PRECISION"), None),
    ("gpu", "GPU", Name("SCENARIO_GPU"), None),
    ("gpus", "GPUs per replica (tensor parallel × stages)", Name("RESULT_GPUS_PER_REPLICA"),
     "gpus"),
    ("batch", "Batch per replica", Name("RESULT_BATCH"), "seq"),
    ("prompt", "Prompt tokens per request", Name("SCENARIO_PROMPT_TOKENS"), "tokens"),
    ("output", "Output tokens per request", Name("SCENARIO_OUTPUT_TOKENS"), "tokens"),
    ("serving", "Serving: prefill on these GPUs?", Name("SCENARIO_SERVING"), None),
    ("tokens_day", "Output tokens per day", Name("SCENARIO_OUTPUT_TOKENS_PER_DAY"), "tokens_day"),
    ("peak", "Peak-to-average ratio", Name("SCENARIO_PEAK_TO_AVERAGE"), "ratio"),
    ("tps_target", "Service level: tokens/s per user",
     Name("SCENARIO_TOKENS_PER_SEC_PER_USER_TARGET"), "tps"),
    ("price", words("Price per GPU-hour (", CURRENCY, ")"), Name("SCENARIO_PRICE_PER_GPU_HOUR"),
     "money"),
    ("utilization", "Utilization at the peak", Name("SCENARIO_UTILIZATION"), "pct"),
    ("hours", "Hours per month", Name("SCENARIO_HOURS_PER_MONTH"), "hours"),
]
#: The answer, in reading order (the headline first): key, label, expression (a defined
#: name), number format.
ANSWER_ROWS = [
    ("headline", words(f"{HEADLINE} (", CURRENCY, ")"), Name("RESULT_COST_PER_MTOK"),
     "money"),
    ("low", "Range, low end (80 % of published deployments)", Name("RESULT_COST_PER_MTOK_LOW"),
     "money"),
    ("high", "Range, high end", Name("RESULT_COST_PER_MTOK_HIGH"), "money"),
    ("gpus_total", "GPUs in total", Name("RESULT_GPUS"), "gpus"),
    ("replicas", "Replicas for the peak", Name("RESULT_REPLICAS"), '#,##0 "replica(s)"'),
    ("monthly", words("Monthly cost (", CURRENCY, ")"), Name("RESULT_MONTHLY_COST"),
     "money"),
    ("step", "Decode step (realistic)", Name("RESULT_STEP_MS"), "ms_token"),
    ("tps_user", "Tokens/s per user (realistic)", Name("RESULT_TOKENS_PER_SEC_PER_USER"), "tps"),
    ("first_token", "First token (prefill of the prompt)", Name("RESULT_FIRST_TOKEN_MS"), "ms"),
]


def _cells() -> dict[str, str]:
    """{key: cell} of every figure: the scenario from row SCENARIO_TOP + 1, the answer
    from row ANSWER_TOP + 1, in column B."""
    out = {key: f"B{SCENARIO_TOP + 1 + i}" for i, (key, *_) in enumerate(SCENARIO_ROWS)}
    out |= {key: f"B{ANSWER_TOP + 1 + i}" for i, (key, *_) in enumerate(ANSWER_ROWS)}
    return out


#: Key cells of the Summary sheet (tests read them by key).
SUMMARY = _cells()
#: The defined name each figure shows (tests compare the two after ``napkin calc``).
SUMMARY_NAMES = {key: name.name for key, _, name, _ in SCENARIO_ROWS + ANSWER_ROWS}


def sheet_summary(wb: Workbook, n_gpus: int) -> Sheet:
    """Summary: the scenario, the answer, the cost by GPU, printed on one page.

    A4..B18   the scenario (SCENARIO_ names; GPUs per replica and batch as Sizing
              resolves them, RESULT_ names)
    A20..B29  the answer (RESULT_ names): the cost per million output tokens, its range
              from published deployments, GPUs, replicas, monthly cost, decode step,
              tokens/s per user (against the service level), first token
    A30..     where the scenario's GPU ranks on the Cost sheet, and where to change it
    D4..      a bar chart of the ``CHEAPEST`` cheapest GPUs' cost per million output
              tokens for the scenario: the Cost sheet's sorted columns (``n_gpus`` slots)
    """
    s = Sheet(wb, TITLE, {"A": 42, "B": 20, "C": 2})
    s.title_rows("Summary: the scenario, its cost and the cheapest GPUs for it",
                 "Read from Sizing (the scenario and its answer) and Cost (every GPU). "
                 "Change the scenario's yellow cells on Sizing; this page follows.")
    s.put("A3", words("Money in ", CURRENCY, " (no conversion). Every figure is a defined "
                      "name of the template: SCENARIO_… and RESULT_…"), "note")
    s.section(SCENARIO_TOP, "The scenario (Sizing)", "B")
    _rows(s, SCENARIO_ROWS)
    s.section(ANSWER_TOP, "The answer (Sizing)", "B")
    _rows(s, ANSWER_ROWS)
    head = s.ws[SUMMARY["headline"]]
    head.font = Font(name="Calibri", size=14, bold=True)
    s.ws[f"A{head.row}"].font = Font(name="Calibri", size=11, bold=True)
    s.ws.row_dimensions[head.row].height = 21
    _says(s, n_gpus)
    _chart(s, n_gpus)
    return s


def _rows(s: Sheet, rows: list) -> None:
    """One row a figure: its label in A, the defined name's value in B (right-aligned:
    text such as "no price" sits where the numbers do)."""
    for key, label, formula, fmt in rows:
        cell = SUMMARY[key]
        s.put(f"A{cell[1:]}", label)
        s.put(cell, formula, "result" if key == "headline" else "formula", fmt)
        s.ws[cell].alignment = Alignment(horizontal="right")


def _says(s: Sheet, n_gpus: int) -> None:
    """Under the answer: whether the service level is met, where the scenario's GPU ranks
    on Cost, and where to change what."""
    last = max(int(c[1:]) for c in SUMMARY.values())
    names = _cost_range(CHART["name"], n_gpus)
    costs = _cost_range(CHART["cost"], n_gpus)
    user, target = Name("RESULT_TOKENS_PER_SEC_PER_USER"), Name(
        "SCENARIO_TOKENS_PER_SEC_PER_USER_TARGET")
    rank = F.MATCH(Name("SCENARIO_GPU"), names, 0)
    lines = [
        F.IF(F.ISNUMBER(user), words(
            "The service level of ", target, " tokens/s per user is ",
            F.IF(user.ge(target), Literal("met."),
                 Literal("missed: the Plan sheet finds the batch and GPUs that meet it."))),
            Literal("")),
        F.IF(F.ISNUMBER(rank), words(
            "The scenario's GPU ranks ", rank, " of ", F.COUNT(costs), " priced GPUs by "
            "cost (1 = cheapest); the Cost sheet lists every GPU."), Literal(
            "The scenario's GPU has no price: enter one on the GPUs sheet or as the "
            "override on Sizing.")),
        "The range: the realistic step × the low and high ratios of measured to predicted "
        "time in published deployments of this regime (Finance, row 29).",
    ]
    for i, text in enumerate(lines):
        cell = f"A{last + 2 + i}"
        s.put(cell, text, "note")


def _cost_range(col: str, n_gpus: int) -> Cell:
    """The Cost sheet's sorted column ``col`` over its ``n_gpus`` slots, absolute (a
    reference as written)."""
    return Cell(f"'Cost'!${col}${COST_FIRST}:${col}${COST_FIRST + n_gpus - 1}")


#: Hidden columns of the chart's data on this sheet, one row a bar (rows ``BARS_FIRST``
#: on): the Cost sheet's sorted cost where the GPU is not the scenario's, and where it is
#: (#N/A elsewhere: a gap, where text would plot as a bar of 0), so that the scenario's
#: GPU stands out in its own colour.
BARS = {"others": "Y", "scenario": "Z"}
BARS_FIRST = SCENARIO_TOP + 1


def _bars(s: Sheet, rows: int) -> None:
    """The chart's two series, read from the Cost sheet's sorted columns (hidden)."""
    for i in range(rows):
        r, c = BARS_FIRST + i, COST_FIRST + i
        name, cost = Cell(f"'Cost'!${CHART['name']}${c}"), Cell(f"'Cost'!${CHART['cost']}${c}")
        mine = name.eq(Name("SCENARIO_GPU"))
        s.put(f"{BARS['others']}{r}", F.IF(F.ISNUMBER(cost), F.IF(mine, F.NA(), cost), F.NA()),
              "formula", "money")
        s.put(f"{BARS['scenario']}{r}", F.IF(F.ISNUMBER(cost), F.IF(mine, cost, F.NA()),
                                             F.NA()), "formula", "money")
    for col in BARS.values():
        s.ws.column_dimensions[col].hidden = True


def _chart(s: Sheet, n_gpus: int) -> None:
    """Horizontal bars of the ``CHEAPEST`` cheapest GPUs (the Cost sheet's sorted names
    and costs, hidden columns there), cheapest on top, the scenario's GPU in orange, each
    bar's value written at its end."""
    cost = s.ws.parent["Cost"]
    rows = min(CHEAPEST, n_gpus)
    _bars(s, rows)
    chart = BarChart()
    chart.type, chart.style = "bar", 2
    chart.grouping, chart.overlap, chart.gapWidth = "clustered", 100, 60
    chart.title = _title(f"{HEADLINE}, the {rows} cheapest GPUs for the scenario (from the "
                         "Cost sheet, which lists every GPU); the scenario's GPU, when among them, "
                         "in orange")
    chart.height, chart.width = 13.5, 15.5
    for col in BARS.values():
        chart.add_data(Reference(s.ws, min_col=column_index_from_string(col),
                                 min_row=BARS_FIRST, max_row=BARS_FIRST + rows - 1),
                       titles_from_data=False)
    chart.set_categories(Reference(cost, min_col=column_index_from_string(CHART["name"]),
                                   min_row=COST_FIRST, max_row=COST_FIRST + rows - 1))
    chart.legend = None
    chart.visible_cells_only = False  # its data sits in hidden columns
    chart.x_axis.scaling.orientation = "maxMin"  # the cheapest (first) on top
    chart.x_axis.tickLblSkip = 1
    text = RichText(p=[Paragraph(pPr=ParagraphProperties(
        defRPr=CharacterProperties(sz=1000)), endParaRPr=CharacterProperties(sz=1000))])
    chart.x_axis.txPr = text
    # the value of each bar is written at its end: no value axis
    chart.x_axis.delete, chart.y_axis.delete = False, True
    chart.y_axis.majorGridlines = None
    for series, color in zip(chart.series, ("2F5597", "C55A11"), strict=True):
        series.graphicalProperties.solidFill = color
        series.graphicalProperties.line.solidFill = color
        labels = DataLabelList()
        labels.showVal = True
        labels.numFmt = "#,##0.00"
        labels.txPr = text
        labels.position = "outEnd"
        for flag in ("showSerName", "showCatName", "showLegendKey", "showPercent"):
            setattr(labels, flag, False)
        series.dLbls = labels
    s.ws.add_chart(chart, CHART_CELL)


def _title(words: str, size: int = 12) -> Title:
    """A chart title in bold of ``size`` points (openpyxl's default is 18)."""
    props = CharacterProperties(sz=size * 100, b=True)
    run = RegularTextRun(rPr=props, t=words)
    return Title(tx=Text(rich=RichText(p=[Paragraph(pPr=ParagraphProperties(defRPr=props),
                                                     r=[run])])), overlay=False)


__all__ = ["sheet_summary", "SUMMARY", "SUMMARY_NAMES", "CHEAPEST", "TITLE", "BARS",
           "BARS_FIRST",
           "SCENARIO_ROWS", "ANSWER_ROWS"]
