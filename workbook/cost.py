"""The Cost sheet: tokens per day → GPUs needed → monthly cost → cost per million tokens."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference
from openpyxl.chart.text import RichText
from openpyxl.drawing.text import CharacterProperties, Paragraph, ParagraphProperties
from openpyxl.formatting.rule import ColorScaleRule
from openpyxl.styles import Alignment
from openpyxl.utils import column_index_from_string, get_column_letter

from udfs.inference.constants import SECONDS_PER_DAY
from workbook.arrays import fill, fixed
from workbook.expr import Cell, Column, Expr, F, Name, Num, Span, Text, of, words
from workbook.expr_excel import in_excel
from workbook.model import fleet
from workbook.model.bill import cost_per_mtok, priced
from workbook.model.decode import floor_per_token
from workbook.model.fleet import gpus_total, peak_replicas, replica_tps, replicas
from workbook.model.gpu import (
    blank_or,
    figure,
    gpu_efficiency,
    layer_time,
    lookup,
    measured,
    replica_gpus,
    roof_used,
)
from workbook.model.step import (
    NO_LAYOUT,
    layout_says,
    scaleup_domain,
    tp_degree,
)
from workbook.scenario import AT_UTILIZATION, HEADLINE
from workbook.sheet import Sheet, expert_parallel
from workbook.sizing import SIZING

COST = {"model": "B4", "precision": "B5", "params": "B6", "need_gb": "B7", "kv_gb": "B8",
        "batch": "B9", "tokens_day": "B10", "avg_tps": "B11", "peak_ratio": "B12",
        "peak_tps": "B13", "utilization": "B14", "hours": "B15", "efficiency": "B16",
        "reserve": "B17", "month_tokens": "B18", "read_b": "B19"}
COST_FIRST = 22
COST_COLUMNS = [  # header, width, format
    ("GPU", 26, None), ("Price per GPU-hour", 12, "money"), ("Memory", 10, "GB"),
    ("Bandwidth", 11, "tbps"), ("Compute roof", 16, "tflops"),
    ("GPUs per replica as deployed (tensor parallel × stages)", 12, "gpus"),
    ("Step floor", 16, "ms_token"),
    ("Tokens/s per replica", 16, "tps"), ("Replicas for the peak", 11, "count"),
    ("GPUs in total", 10, "gpus"), ("Monthly cost, floor", 14, "money"),
    ("Floor: per million output tokens, the month's bill", 14, "money"),
    ("Floor: if every GPU were busy at planned utilization, per million output tokens", 15,
     "money"),
    ("Efficiency used", 10, "pct"),
    ("Realistic step", 16, "ms_token"), ("Realistic GPUs in total", 11, "gpus"),
    ("Realistic monthly cost", 14, "money"),
    (f"{HEADLINE}: the month's bill ÷ the month's tokens", 16, "money"),
    (AT_UTILIZATION, 18, "money"), ("Note", 78, None),
]
NOTE_COL = "T"
#: The working columns (bandwidth, roof; the floors; efficiency and realistic step), grouped
#: and folded; the answer columns stay in view.
WORKING = ("D", "E", "G", "H", "I", "J", "K", "L", "M", "N", "O")


def sheet_cost(wb: Workbook, n_gpus: int) -> Sheet:
    """Cost: tokens per day -> GPUs needed -> monthly cost -> cost per million tokens.

    B4..B19  the scenario (Sizing): model and precision, memory per replica, batch, and
             the traffic: average and peak tokens/s, output tokens a month (the
             average rate over the hours per month: cost and volume count the same hours),
             the weights a decode step reads at the batch (Sizing)
    Rows 22.. one row per slot of the GPUs table (blank where the slot is empty):
      B price (the scenario's GPU: the price in use, override included), C memory,
        D bandwidth, E compute roof (lookups; words where none)
      F GPUs per replica   = the scenario's when it is typed, else the stages × a
                             tensor-parallel degree 1, 2, 4, 8, then whole 8-GPU nodes, at
                             or above GPUS_NEEDED(weights + KV, memory, reserve) ÷ stages
                             (as on Sizing)
      G step floor (ms)    = DECODE_STEP_MS(weights read at the batch, KV, bandwidth,
                             active params, the tokens a step computes (Sizing's batch ×
                             (draft tokens + 1)), roof, attention FLOPs, F, all-reduces
                             (TP_COMM_MS of those tokens ÷ stages over F ÷ stages GPUs,
                             this GPU's interconnect), the scenario's stages) ÷ tokens per
                             step
      H tokens/s/replica   = TOKENS_PER_SEC(G) × batch
      I replicas           = CEILING(peak tokens/s ÷ (H × utilization), 1)
      J GPUs in total      = I × F
      K monthly cost       = J × price × hours per month
      L per M, your traffic = COST_PER_MTOK(price, average tokens/s, J)  (= K ÷ tokens)
      M per M at planned utilization = COST_PER_MTOK(price, H, F, utilization)
      REALISTIC, beside the floors:
      N efficiency used    = REGIME_EFFICIENCY(F, batch, expert parallel) ÷ this GPU's
                             Calibration ratio (measured ÷ the model's estimate; 1 without)
      O realistic step     = ESTIMATE(G, N, the fixed time: Sizing's LAYER_OVERHEAD_MS of
                             the model's layers × the ratio; hidden column AB)
      P realistic GPUs     = GPUS_FOR_DEMAND(tokens/day, TOKENS_PER_SEC(O) × batch,
                             peak-to-average, utilization) × F
      Q realistic monthly  = P × price × hours per month
      R the headline       = COST_PER_MTOK(price, average tokens/s, P) = Q ÷ the month's
                             output tokens; on the scenario's GPU row: RESULT_COST_PER_MTOK
      S if every GPU were busy at planned utilization = COST_PER_MTOK(price,
                             TOKENS_PER_SEC(O) × batch, F, utilization): a unit cost, not
                             the bill
      T note (no price, no FLOPS figure, no traffic)
    Columns D..E and G..O (the working) are grouped and folded. Below: a bar chart of
    column R by GPU, cheapest first (sorted in hidden columns U..Y), the GPUs without a
    price named.
    """
    widths = {get_column_letter(i + 1): w for i, (_, w, _) in enumerate(COST_COLUMNS)}
    widths["A"], widths["B"] = 36, 22
    s = Sheet(wb, "Cost", widths)
    K = COST
    s.title_rows("Cost: the scenario on every GPU type (this sheet compares GPUs)",
                 "Everything but the GPU is the scenario's (Sizing): model, precision, "
                 "batch, traffic, utilization, hours. The scenario's GPU row carries its "
                 "price in use (override included); the other rows the GPUs sheet's.")
    sz = {k: f"Sizing!{v}" for k, v in SIZING.items()}
    _scenario_rows(s, K, sz)
    last = _gpu_rows(s, K, sz, n_gpus)
    _notes_below(s, last)
    _cost_chart(s, COST_FIRST, last)
    for col in WORKING:  # grouped and folded: the reader sees the answer columns
        dim = s.ws.column_dimensions[col]
        dim.outline_level, dim.hidden = 1, True
    for col in (LINK_COL, REGIME_COL, FIXED_COL, DOMAIN_COL, RUNS_COL,
                DEGREE_COL):  # the helpers the rows read: hidden, as
        s.ws.column_dimensions[col].hidden = True  # their docstrings say (were shown bare)
    s.ws.freeze_panes = f"B{COST_FIRST}"
    return s


def _scenario_rows(s: Sheet, K: dict, sz: dict) -> None:
    """Rows 3..19: the scenario, from Sizing."""
    k = {key: Cell(ref) for key, ref in K.items()}
    z = {key: Cell(ref) for key, ref in sz.items()}
    rows = [
        ("model", "Model (Sizing)", z["model"], None),
        ("precision", "Weight precision (Sizing)", z["precision"], None),
        ("params", "Parameters, total (memory)", z["params_b"], '#,##0.00 "billion"'),
        ("need_gb", "Memory per replica: weights + KV cache", z["need_gb"], "GB"),
        ("kv_gb", "of which KV cache", z["kv_gb"], "GB"),
        ("batch", "Batch per replica (Sizing)", Name("RESULT_BATCH"), "seq"),
        ("tokens_day", "Output tokens per day", Name(fleet.TOKENS_DAY), "tokens_day"),
        ("avg_tps", "Average rate", k["tokens_day"] / SECONDS_PER_DAY, "tps"),
        ("peak_ratio", "Peak-to-average ratio", Name(fleet.PEAK_TO_AVERAGE), "ratio"),
        ("peak_tps", "Peak rate (capacity is sized for it)", k["avg_tps"] * k["peak_ratio"],
         "tps"),
        ("utilization", "Utilization", Name(fleet.UTILIZATION), "pct"),
        ("hours", "Hours per month (rented and serving)", Name(fleet.HOURS), "hours"),
        ("efficiency", "Roof efficiency", Name("ROOF_EFFICIENCY"), "pct"),
        ("reserve", "Memory reserve", Name("RESERVE"), "pct"),
        ("month_tokens", "Output tokens a month (average rate × the hours)",
         k["avg_tps"] * 3600 * k["hours"], "tokens"),
        ("read_b", "Weights a decode step reads at the batch (Sizing)", z["read_b"],
         '#,##0.00 "billion"'),
    ]
    s.section(3, "The scenario (change it on Sizing)", "D")
    for key, label, formula, fmt in rows:
        s.line(K[key], label, formula, "formula", fmt, note_col=None, right=False)
    s.put(f"C{K['tokens_day'][1:]}", F.IF(k["tokens_day"].gt(0), Text(""), Text(
        "no traffic: the cost per million tokens of your traffic has no meaning; set the "
        "output tokens per day on Sizing")), "note")


def _gpu_rows(s: Sheet, K: dict, sz: dict, n_gpus: int) -> int:
    """The table, one row per slot of the GPUs table (per cell, then one array formula a
    column); returns its last row."""
    headers = [h for h, _, _ in COST_COLUMNS]
    for i, h in enumerate(headers):
        if i in (1, 10, 11, 12, 16, 17, 18):
            headers[i] = words(f"{h} (", Name("CURRENCY"), ")").formula()
    s.section(COST_FIRST - 2, "Each GPU type: the answer; the working (bandwidth, roof, "
                              "floors, efficiency) is in grouped columns D..E and G..O "
                              "(+ above the columns shows them)", NOTE_COL)
    s.header(COST_FIRST - 1, headers, height=75)
    last = COST_FIRST + n_gpus - 1
    for i in range(n_gpus):
        r = COST_FIRST + i
        s.put(f"A{r}", blank_or("GPU_NAME", i + 1), "formula")
        s.put(f"{LINK_COL}{r}", figure("GPU_INTERCONNECT", i + 1, "none"), "formula")
        s.put(f"{DOMAIN_COL}{r}", _unless_blank(Cell(f"$A{r}"), scaleup_domain(
            Column("GPU_SCALEUP_DOMAIN").at(i + 1), Cell(f"{LINK_COL}{r}"))), "formula")
        for col, (expr, style) in _row_cells(r, i + 1, K, sz).items():
            fmt = COST_COLUMNS[ord(col) - 65][2] if len(col) == 1 else "0.000"
            s.put(f"{col}{r}", _unless_blank(Cell(f"$A{r}"), expr), style, fmt)
    link = Name("GPU_INTERCONNECT")  # the table's whole column
    fill(s.ws, f"{LINK_COL}{COST_FIRST}:{LINK_COL}{last}", _unless_blank(
        Name("GPU_NAME"), F.IF(F.ISNUMBER(link), link, Text("none"))), keep=True)
    fill(s.ws, f"{DOMAIN_COL}{COST_FIRST}:{DOMAIN_COL}{last}", _unless_blank(
        Name("GPU_NAME"), scaleup_domain(Name("GPU_SCALEUP_DOMAIN"), link)),
        keep=True)
    # one array formula a column (``workbook.arrays``); the per-cell form is the above
    fixed_k = {k: fixed(v) for k, v in K.items()}
    fixed_sz = {k: fixed(v) for k, v in sz.items()}
    cells = _row_cells(COST_FIRST, None, fixed_k, fixed_sz)
    for col in ARRAY_COLS:  # E reads the GPUs table's columns whole: its blanks too
        blank = Name("GPU_NAME") if col == "E" else Cell(f"$A{COST_FIRST}")
        fill(s.ws, f"{col}{COST_FIRST}:{col}{last}", _unless_blank(blank, cells[col][0]),
             keep=True)
    for col in "BEKLMQRS":  # text ("no price", "no figure") sits where the numbers do
        for r in range(COST_FIRST, last + 1):
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    for r in range(COST_FIRST, last + 1):  # a note of every kind: wrapped inside the page
        s.ws[f"{NOTE_COL}{r}"].alignment = Alignment(wrap_text=True, vertical="top")
    for col in "LRS":
        s.ws.conditional_formatting.add(f"{col}{COST_FIRST}:{col}{last}", ColorScaleRule(
            start_type="min", start_color="63BE7B", end_type="max", end_color="F8696B"))
    return last


def _notes_below(s: Sheet, last: int) -> None:
    """The notes under the table: capacity for the peak, floors not predictions."""
    s.put(f"A{last + 2}", "Capacity is sized for the peak: replicas = CEILING(peak tokens/s ÷ "
                          "(tokens/s per replica × utilization)). 'Your traffic' divides the "
                          "month's bill by the month's tokens (both over the hours per "
                          "month); 'at planned utilization' is the unit cost of one replica "
                          "busy that share of the time.", "note")
    s.put(f"A{last + 3}", "Floors, not predictions: the step floor assumes the bytes stream "
                          "at datasheet bandwidth, split evenly over the GPUs of a replica. "
                          "The realistic columns divide the step by the efficiency (column "
                          "N: the default of its regime, REGIME_EFFICIENCY, scaled to this "
                          "GPU's measurements on Calibration), add the layers' time (scaled "
                          "alike) and size the GPUs again. Column R is "
                          "the headline: on the scenario's GPU row, the same figure as on "
                          "Sizing, Finance and Plan (RESULT_COST_PER_MTOK).", "note")


#: The hidden column of the GPU rows that holds each GPU's interconnect figure (GB/s, or
#: "none"), read by the all-reduces of column G (the frontier's hidden columns, from the
#: same column, sit below the table).
LINK_COL = "Z"
#: The hidden column of each GPU row's regime default, REGIME_EFFICIENCY(F, batch, expert
#: parallel) (one array formula), that column N falls back on.
REGIME_COL = "AA"
#: The hidden column of each GPU row's fixed time per token: Sizing's LAYER_OVERHEAD_MS of
#: the model's layers, 0 where Calibration has the GPU's measurements (which hold it).
FIXED_COL = "AB"
#: The hidden column of each GPU row's scale-up domain, the GPUs its link joins
#: (``workbook.model.step.scaleup_domain``: GPU_SCALEUP_DOMAIN, 1 without a link), read by
#: the all-reduces of column G: a stage wider than it crosses PCIe or the network.
DOMAIN_COL = "AC"
#: The hidden column of each GPU row's layout: "" where it runs, else why not in words
#: (``_layout_says``), read by the costs and the note.
RUNS_COL = "AD"
#: The hidden column of each GPU row's tensor-parallel degree of the heads: the GPUs of a
#: stage, 1 with expert parallelism (``workbook.model.step.tp_degree``).
DEGREE_COL = "AE"
#: The columns of the GPU rows that call napkin functions: one array formula each.
ARRAY_COLS = ("E", "F", "G", "H", "L", "M", "O", "P", "R", "S", REGIME_COL, RUNS_COL,
              DEGREE_COL)


def _layout_says(sz: dict, stage, link, degree, each: bool) -> Expr:
    """"" where a replica of stages of ``stage`` GPUs (interconnect figure ``link``) of the
    scenario's model (Sizing's cells ``sz``) runs, its heads split over ``degree`` GPUs,
    else why not in words (``workbook.model.step``): PCIe cards at most one server's 8
    GPUs a stage (``layout_runs``), the degree dividing the attention heads as vLLM
    requires (``heads_split``). ``each``: the array form, element by element."""
    heads = Column("MODEL_HEADS").at(Cell(sz["model_row"]))
    return layout_says(heads, Cell(sz["kv_heads"]), Cell(sz["attention"]), stage, link,
                       degree, each)


def _unless_blank(name, e) -> Expr:
    """``e``, or "" where the row's GPU ``name`` is empty (a spare slot of the table)."""
    return F.IF(of(name).eq(Text("")), Text(""), e)


def _row_cells(r: int, k: int | None, K: dict, sz: dict) -> dict[str, tuple[Expr, str]]:
    """{column: (expression, style)} of the GPU row ``r`` (slot ``k`` of the GPUs table),
    each inside ``_unless_blank``. ``k`` None: the array form (the columns ``ARRAY_COLS``
    only), with AND and MAX said element by element and the GPUs table's columns read
    whole."""
    prec, m = Cell(K["precision"]), sz["model_row"]
    b, avg, tpd = Cell(K["batch"]), Cell(K["avg_tps"]), Name(fleet.TOKENS_DAY)
    util, hours, peak = Cell(K["utilization"]), Cell(K["hours"]), Cell(K["peak_ratio"])
    c = {col: Cell(f"{col}{r}") for col in "ABCDEFGHIJKLMNOPQRS"}
    c.update({col: Cell(f"{col}{r}") for col in (LINK_COL, REGIME_COL, FIXED_COL,
                                                 DOMAIN_COL, RUNS_COL, DEGREE_COL)})
    stages = Name("SCENARIO_PIPELINE_STAGES")
    parallel = expert_parallel(m, c["F"] / stages)  # the regime's (REGIME_COL)
    # Sizing's read, KV cache, tokens (batch × (draft tokens + 1 + prompt share)) and
    # attention, on this GPU (workbook.model.decode)
    step = floor_per_token(m, K["read_b"], prec, sz["kv_step_seq_gb"], b, sz["step_tokens"],
                           c["D"], sz["active_b"], c["E"], sz["attn_flop"], c["F"], stages,
                           sz["hidden"], sz["layers"], c[LINK_COL], c[DOMAIN_COL])

    # a layout that runs: PCIe cards at most one server's 8 GPUs a stage, a stage's GPUs
    # dividing the attention heads (vLLM's rule) in tensor parallel (model.step)
    # (RUNS_COL: "" where it runs, else which of the two in words)
    says = c[RUNS_COL]
    runs = says.eq(Text(""))

    def price_or(e):  # "no price" where the GPU has none, "no layout" where it cannot run
        return F.IF(runs, priced(c["B"], e), says)

    def per_mtok(gpus):  # the month's bill ÷ the month's tokens (model.bill)
        return F.IF(runs, cost_per_mtok(c["B"], gpus, rate=avg, traffic=avg.gt(0)), says)
    realistic_tps = replica_tps(c["O"], b)
    cells = {
        "E": roof_used(prec, Name("GPU_FP8"), Name("GPU_BF16"), elementwise=True)
        if k is None else roof_used(prec, Column("GPU_FP8").at(k), Column("GPU_BF16").at(k)),
        "F": replica_gpus(F.GPUS_NEEDED(Cell(sz["need_tp_gb"]), c["C"], Cell(K["reserve"])),
                          stages),
        "G": step,
        "H": replica_tps(c["G"], b),
        # (in Excel's functions, GPUS_FOR_DEMAND's native form: a call a GPU row fewer)
        "I": in_excel(peak_replicas(tpd, c["H"], peak, util)),
        "J": gpus_total(c["I"], c["F"]),
        "K": price_or(c["J"] * c["B"] * hours),
        "L": per_mtok(c["J"]),
        "M": price_or(F.COST_PER_MTOK(c["B"], c["H"], c["F"], util)),
        REGIME_COL: F.REGIME_EFFICIENCY(c["F"], b, parallel),
        DEGREE_COL: tp_degree(c["F"] / stages, parallel),
        RUNS_COL: _layout_says(sz, c["F"] / stages, c[LINK_COL], c[DEGREE_COL], k is None),
        "N": gpu_efficiency(c["A"], c[REGIME_COL]),
        FIXED_COL: layer_time(c["A"], sz["layer_ms"]),
        "O": F.ESTIMATE(c["G"], c["N"], c[FIXED_COL]),
        "P": gpus_total(replicas(tpd, realistic_tps, peak, util), c["F"]),
        "Q": price_or(c["P"] * c["B"] * hours),
        "R": per_mtok(c["P"]),
        "S": price_or(F.COST_PER_MTOK(c["B"], F.TOKENS_PER_SEC(c["O"]) * b, c["F"], util)),
    }
    if k is not None:  # the per-cell form's lookups and note
        cells.update({
            "B": F.IF(c["A"].eq(Name("SCENARIO_GPU")), Name("SCENARIO_PRICE_PER_GPU_HOUR"),
                      figure("GPU_PRICE", k, "no price")),
            "C": lookup("GPU_MEM", k), "D": lookup("GPU_BW", k),
            NOTE_COL: _note(c, runs, says),
        })
    style = {"K": "result", "L": "result", "Q": "result", "R": "result", "S": "result",
             NOTE_COL: "note"}
    return {col: (e, style.get(col, "formula")) for col, e in cells.items()}


def _note(c: dict, runs, says) -> Expr:
    """The note of a GPU row: no price, no FLOPS figure, efficiency from measurements, no
    layout that runs (``runs`` FALSE: ``workbook.model.step.layout_runs`` and
    ``heads_split``; ``says`` which, ``no_layout_says``)."""
    priced, roofed, scaled = F.ISNUMBER(c["B"]), F.ISNUMBER(c["E"]), measured(c["A"])
    return words(
        F.IF(priced, Text(""), Text("no price: enter one on the GPUs sheet (column L)")),
        F.IF(roofed, Text(""), words(F.IF(priced, Text(""), Text("; ")),
                                     "no FLOPS figure: math time not counted")),
        F.IF(scaled, words(F.IF(F.AND(priced, roofed), Text(""), Text("; ")),
                           "the model scaled by this GPU's measurements (Calibration)"),
             Text("")),
        F.IF(runs, Text(""), words(F.IF(F.AND(priced, roofed, F.NOT(scaled)), Text(""),
                                        Text("; ")),
                                   says, F.IF(says.eq(Text(NO_LAYOUT)), Text(
                                       " (a PCIe server holds 8): pipeline stages on Sizing "
                                       "split the replica over servers"), Text(
                                       " (vLLM splits them evenly): GPUs per replica or "
                                       "pipeline stages on Sizing that make a stage's GPUs "
                                       "divide them")))))


#: Hidden columns of the chart's data: a sort key, the sorted keys, names and costs, and
#: the running list of the GPUs without a price.
CHART = {"key": "U", "sorted": "V", "name": "W", "cost": "X", "unpriced": "Y"}


def _cost_chart(s: Sheet, first: int, last: int):
    """A bar chart of the headline (column R) by GPU, cheapest on top; the GPUs without a
    price are left out and named below it. Native formulas sort the table's rows: each
    priced row's key is its cost plus row number ÷ 10⁹ (ties keep the table's order),
    SMALL picks the k-th, MATCH finds its row."""
    ws, c = s.ws, CHART
    rng = {col: Span(Cell(f"${col}${first}"), Cell(f"${col}${last}"))
           for col in ("A", "R", c["key"])}
    keys, blank = rng[c["key"]], Text("")
    for i in range(last - first + 1):
        r, k = first + i, i + 1
        cost, name, key = Cell(f"R{r}"), Cell(f"A{r}"), Cell(f"{c['sorted']}{r}")
        s.put(f"{c['key']}{r}", F.IF(F.ISNUMBER(cost), cost + Num(k) / 1000000000, blank),
              "formula")
        s.put(f"{c['sorted']}{r}", F.IF(Num(k).le(F.COUNT(keys)), F.SMALL(keys, k), blank),
              "formula")
        at = F.MATCH(key, keys, 0)
        s.put(f"{c['name']}{r}", F.IF(F.ISNUMBER(key), F.INDEX(rng["A"], at), blank),
              "formula")
        s.put(f"{c['cost']}{r}", F.IF(F.ISNUMBER(key), F.INDEX(rng["R"], at), blank),
              "formula", "money")
        before = Cell(f"{c['unpriced']}{r - 1}") if i else blank
        # no price, or no layout (the row's RUNS_COL says why, "" where it runs)
        left_out = F.OR(F.NOT(F.ISNUMBER(Cell(f"B{r}"))),
                        Cell(f"{RUNS_COL}{r}").ne(blank))
        s.put(f"{c['unpriced']}{r}", before.concat(F.IF(F.AND(name.ne(blank), left_out),
                                                        words(", ", name), blank)), "formula")
    for col in c.values():
        ws.column_dimensions[col].hidden = True
    chart = BarChart()
    chart.type, chart.style = "bar", 2
    chart.title = f"{HEADLINE} by GPU (the scenario; cheapest on top)"
    # a bar for every slot of the table, each slot taller than a line of its 10 pt name (at
    # 19 cm LibreOffice named every other bar); with the header row repeated above and the
    # list of unpriced GPUs, one printed page at 70 %
    chart.height, chart.width = 21, 22
    chart.add_data(Reference(ws, min_col=column_index_from_string(c["cost"]), min_row=first,
                             max_row=last), titles_from_data=False)
    chart.set_categories(Reference(ws, min_col=column_index_from_string(c["name"]),
                                   min_row=first, max_row=last))
    chart.legend = None
    chart.visible_cells_only = False  # its data sits in hidden columns
    chart.x_axis.scaling.orientation = "maxMin"  # the cheapest (first) on top
    chart.x_axis.tickLblSkip = 1  # every GPU's name, in 10 pt (7 pt printed at 70 %)
    chart.x_axis.txPr = RichText(p=[Paragraph(pPr=ParagraphProperties(
        defRPr=CharacterProperties(sz=1000)), endParaRPr=CharacterProperties(sz=1000))])
    chart.x_axis.delete = chart.y_axis.delete = False
    chart.y_axis.number_format = "#,##0.00"
    chart.y_axis.title = "currency per million output tokens"
    chart.series[0].graphicalProperties.solidFill = "2F5597"
    note = last + 5
    unpriced = Cell(f"{c['unpriced']}{last}")
    s.put(f"A{note}", F.IF(unpriced.eq(Text("")), Text("Every GPU of the table has a price."),
                           words("Left out, no price on the GPUs sheet or no layout that "
                                 "runs (more than 8 GPUs a stage without NVLink, or a "
                                 "stage's GPUs that do not divide the attention heads): ",
                                 F.MID(unpriced, 3, 10000))), "note")
    ws.merge_cells(f"A{note}:R{note}")  # a list of any length: wrapped inside the page
    ws[f"A{note}"].alignment = Alignment(wrap_text=True, vertical="top")
    ws.row_dimensions[note].height = 30  # two lines of 10 pt
    ws.add_chart(chart, f"A{note + 1}")
