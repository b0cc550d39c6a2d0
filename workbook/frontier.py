"""Throughput against interactivity, on the Frontier sheet: the scenario's model on its GPU and
two others the user picks, at batch 1, 2, 4 … up to what memory allows: tokens/s per GPU
and cost per million output tokens against tokens/s per user (the frontier serving
benchmarks publish), the scenario's own point marked."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.chart.series import SeriesLabel, StrRef
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter

from workbook.arrays import fill, fixed
from workbook.expr import Cell, Column, Expr, F, Name, Text, of, words
from workbook.model.decode import floor_per_token
from workbook.model.gpu import calibration_ratio, figure, replica_gpus, roof_used
from workbook.model.serving import attended_per_sequence, step_tokens
from workbook.model.step import scaleup_domain
from workbook.scenario import AT_UTILIZATION
from workbook.sheet import (
    Sheet,
    attention_dim,
    batch_read,
    expert_parallel,
)
from workbook.sizing import SIZING
from workbook.speculation import verified

BATCHES = [2 ** k for k in range(11)]  # 1 .. 1,024 sequences
#: The two GPUs compared with the scenario's by default (yellow: the user's to change).
COMPARED = ("NVIDIA H200 SXM", "NVIDIA B200 (HGX)")
#: Per GPU (columns B, C, D): the figures its curve is computed from, in this order.
PARAMS = ["name", "row", "memory", "bandwidth", "roof", "gpus", "max_batch", "efficiency",
          "price"]
HIDDEN_FIRST = 26  # column Z: the chart's data (#N/A past what memory allows), hidden
WIDE = 6  # hidden columns per GPU: weights read, floor, step, tokens/s per user, per GPU, cost
COLORS = ("1F4E79", "C55A11", "70AD47")
#: The scenario's pipeline stages: every curve's replicas have them (micro-batches = stages).
STAGES = "SCENARIO_PIPELINE_STAGES"


def sheet_frontier(wb: Workbook) -> Sheet:
    """Frontier: the scenario's throughput against interactivity on three GPUs, the
    block ``frontier`` writes under the title rows."""
    # B..D hold the three GPUs' figures ("1,978.9 TFLOPS") as well as the table's first columns
    s = Sheet(wb, "Frontier", {"A": 26, **{col: 16 for col in "BCD"},
                               **{col: 11 for col in "EFGHIJ"}})
    s.title_rows("Frontier: throughput against interactivity for the scenario",
                 "The scenario's model, precision and traffic (Sizing); one curve a GPU. "
                 "Higher is more throughput, further right is faster for each user.")
    frontier(s, 4)
    return s


def frontier(s: Sheet, top: int) -> int:
    """The frontier block with its section at row ``top``; returns the last row it takes
    (the two charts included)."""
    z = {k: f"Sizing!{v}" for k, v in SIZING.items()}
    s.section(top, "Throughput against interactivity: the scenario's model on three GPUs, "
                   "batch 1, 2, 4 … up to what memory allows", "J")
    s.put(f"A{top + 1}", "The first GPU is the scenario's (its GPUs); the others are yours "
                         "(yellow), each at the smallest degree that holds the weights and "
                         "one sequence, or the scenario's typed GPUs; all in its stages. "
                         "Realistic steps (floor ÷ efficiency + the layers' time), as on "
                         "Sizing.", "note")
    p = _gpu_params(s, top, z)
    last = _batch_rows(s, p, z)
    return _charts(s, p, last, _scenario_point(s, z, last))


def _gpu_params(s: Sheet, top: int, z: dict) -> dict[str, int]:
    """The three GPUs' figures (rows from ``top`` + 2, columns B..D: the scenario's GPU,
    then the user's two); returns {figure: row}."""
    ws = s.ws
    p = {key: top + 2 + i for i, key in enumerate(PARAMS)}
    labels = {"name": "GPU", "row": "Row in the GPUs table", "memory": "Memory (GB)",
              "bandwidth": "Bandwidth (TB/s)", "roof": "Compute roof used (TFLOPS)",
              "gpus": "GPUs per replica", "max_batch": "Largest batch memory allows",
              "efficiency": "Calibration: measured ÷ model",
              "price": "Price per GPU-hour"}
    for key, row in p.items():
        s.put(f"A{row}", labels[key])
    for j, col in enumerate("BCD"):
        c = {key: f"${col}${row}" for key, row in p.items()}
        if j == 0:
            s.put(c["name"], Name("SCENARIO_GPU"), "formula")
        else:
            s.put(c["name"], COMPARED[j - 1], "input")
            s.validate(c["name"], "list", "A GPU from the GPUs sheet to compare with the "
                       "scenario's.", "GPU compared", formula1="GPU_NAME")
        fmts = {"memory": "GB", "bandwidth": "tbps", "roof": "tflops", "gpus": "gpus",
                "max_batch": "seq", "efficiency": "x", "price": "money", "row": "row"}
        for key, formula in _gpu_cells(j, {k: Cell(v) for k, v in c.items()}, z).items():
            s.put(c[key], formula, "formula", fmts[key])
            ws[c[key]].alignment = Alignment(horizontal="right")
    zf = {k: fixed(v) for k, v in z.items()}  # one array formula across the GPUs
    fill(ws, f"C{p['gpus']}:D{p['gpus']}", _fits(Cell(f"C${p['memory']}"), zf), keep=True)
    fill(ws, f"B{p['max_batch']}:D{p['max_batch']}", _max_batch(
        Cell(f"B${p['memory']}"), Cell(f"B${p['gpus']}"), zf), keep=True)
    return p


def _fits(memory, z: dict) -> Expr:
    """GPUs per replica of a compared GPU of ``memory``: the scenario's typed ones, else
    the smallest deployed degree in its stages that holds the weights and one sequence
    (``workbook.model.gpu.replica_gpus``)."""
    need = F.GPUS_NEEDED(of(z["weight_gb"]) + of(z["kv_seq_gb"]), memory, Name("RESERVE"))
    return replica_gpus(need, Name(STAGES))


def _max_batch(memory, gpus, z: dict) -> Expr:
    """MAX_BATCH(memory, weights, KV per sequence, reserve, GPUs per replica)."""
    return F.MAX_BATCH(memory, of(z["weight_gb"]), of(z["kv_seq_gb"]), Name("RESERVE"), gpus)


def _gpu_cells(j: int, c: dict, z: dict) -> dict[str, Expr]:
    """{figure: expression} of the ``j``-th GPU (0: the scenario's) whose figures are the
    cells ``c``."""
    g = c["row"]
    return {
        "row": F.MATCH(c["name"], Name("GPU_NAME"), 0),
        "memory": Column("GPU_MEM").at(g), "bandwidth": Column("GPU_BW").at(g),
        "roof": roof_used(Name("SCENARIO_PRECISION"), Column("GPU_FP8").at(g),
                          Column("GPU_BF16").at(g)),
        "gpus": Name("RESULT_GPUS_PER_REPLICA") if j == 0 else _fits(c["memory"], z),
        "max_batch": _max_batch(c["memory"], c["gpus"], z),
        "efficiency": calibration_ratio(c["name"]),
        "price": Name("SCENARIO_PRICE_PER_GPU_HOUR") if j == 0 else
        figure("GPU_PRICE", g, "no price"),
    }


def _batch_rows(s: Sheet, p: dict, z: dict) -> int:
    """One row a batch of ``BATCHES`` under the figures: each GPU's tokens/s per user and
    per GPU and its cost, from hidden columns (one array formula each); returns the last
    row."""
    ws, prec = s.ws, "SCENARIO_PRECISION"
    zf = {k: fixed(v) for k, v in z.items()}
    head = p["price"] + 2
    s.header(head, ["Batch (sequences)"] + [
        words(Cell(f"{col}{p['name']}"), f": {what}").formula() for col in "BCD"
        for what in ("tokens/s per user", "tokens/s per GPU", "cost per M tokens")], height=60)
    first = head + 1
    for i, b in enumerate(BATCHES):
        r = first + i
        s.put(f"A{r}", b, "formula", "count")
        for j, col in enumerate("BCD"):
            c = {key: f"${col}${row}" for key, row in p.items()}
            h = [get_column_letter(HIDDEN_FIRST + WIDE * j + k) for k in range(WIDE)]
            for cell, formula in _hidden(r, c, h, z, prec).items():
                s.put(f"{cell}{r}", formula, "formula", "#,##0.00")
            for k, fmt in enumerate(("#,##0.0", "#,##0.0", "money")):
                src = f"{h[k + 3]}{r}"
                s.put(f"{get_column_letter(2 + 3 * j + k)}{r}", _shown(src), "formula", fmt)
    last = first + len(BATCHES) - 1
    for j, col in enumerate("BCD"):  # one array formula a hidden column
        c = {key: f"${col}${row}" for key, row in p.items()}
        h = [get_column_letter(HIDDEN_FIRST + WIDE * j + k) for k in range(WIDE)]
        for cell, formula in _hidden(first, c, h, zf, prec, array=True).items():
            if cell not in (h[3], h[4]):  # those two call no napkin function
                fill(ws, f"{cell}{first}:{cell}{last}", formula, keep=True)
    return last


def _scenario_point(s: Sheet, z: dict, last: int) -> int:
    """The scenario's own point under the batches (Sizing's figures); returns its row."""
    ws = s.ws
    point = last + 1  # the scenario's own point, in the hidden columns too
    s.put(f"A{point}", "Scenario, at utilization", "label")
    cost = Cell(z["real_cost_mtok"])
    scenario = {1: Name("RESULT_TOKENS_PER_SEC_PER_USER"),
                2: Name("RESULT_TOKENS_PER_SEC_PER_REPLICA") / Name("RESULT_GPUS_PER_REPLICA"),
                3: F.IF(F.ISNUMBER(cost), cost, F.NA())}
    for k, formula in scenario.items():
        src = f"{get_column_letter(HIDDEN_FIRST + 2 + k)}{point}"
        s.put(src, formula, "formula", "#,##0.00")
        s.put(f"{get_column_letter(1 + k)}{point}", _shown(src), "result",
              ("#,##0.0", "#,##0.0", "money")[k - 1])
    s.put(f"A{point + 1}", f"Cost: {AT_UTILIZATION[0].lower()}{AT_UTILIZATION[1:]} (a "
                           "replica's unit cost, not the "
                           "month's bill); past the largest batch the memory allows a curve "
                           "stops.", "note")
    for col in range(HIDDEN_FIRST, HIDDEN_FIRST + 3 * WIDE):
        ws.column_dimensions[get_column_letter(col)].hidden = True
    return point


def _charts(s: Sheet, p: dict, last: int, point: int) -> int:
    """The two charts under the scenario's point (the batches' rows end at ``last``);
    returns the last row they take."""
    ws, first = s.ws, last - len(BATCHES) + 1
    anchor = point + 3
    for n, (y, title, axis) in enumerate(((2, "Tokens/s per GPU against tokens/s per user",
                                           "tokens/s per GPU"),
                                          (3, "Cost per million output tokens against "
                                              "tokens/s per user", "cost per M tokens"))):
        chart = ScatterChart()
        chart.title, chart.style, chart.scatterStyle = title, 2, "lineMarker"
        chart.height, chart.width = 10, 14  # side by side inside one page
        chart.visible_cells_only = False  # its data sit in hidden columns
        chart.x_axis.title, chart.y_axis.title = "tokens/s per user", axis
        chart.x_axis.delete = chart.y_axis.delete = False
        for j in range(3):
            xs = Reference(ws, min_col=HIDDEN_FIRST + WIDE * j + 3, min_row=first, max_row=last)
            ys = Reference(ws, min_col=HIDDEN_FIRST + WIDE * j + 2 + y, min_row=first,
                           max_row=last)
            ser = Series(ys, xs)
            ser.tx = SeriesLabel(strRef=StrRef(f"'{s.title}'!${'BCD'[j]}${p['name']}"))
            ser.marker.symbol, ser.smooth = "circle", False
            ser.graphicalProperties.line.solidFill = COLORS[j]
            ser.marker.graphicalProperties.solidFill = COLORS[j]
            chart.series.append(ser)
        ser = Series(Reference(ws, min_col=HIDDEN_FIRST + 2 + y, min_row=point),
                     Reference(ws, min_col=HIDDEN_FIRST + 3, min_row=point))
        ser.tx = SeriesLabel(strRef=StrRef(f"'{s.title}'!$A${point}"))
        ser.marker.symbol, ser.marker.size, ser.smooth = "diamond", 13, False
        ser.marker.graphicalProperties.solidFill = "C00000"
        ser.graphicalProperties.line.noFill = True
        chart.series.append(ser)
        chart.legend.position = "b"
        ws.add_chart(chart, f"{'AE'[n]}{anchor}")  # side by side inside A..J
    return anchor + 20


def _shown(src: str) -> Expr:
    """What a visible cell shows of the hidden cell ``src``: its number, else nothing."""
    return F.IF(F.ISNUMBER(Cell(src)), Cell(src), Text(""))


def _hidden(r: int, c: dict, h: list[str], z: dict, prec: str,
            array: bool = False) -> dict[str, Expr]:
    """{column: expression} of the hidden columns ``h`` of batch row ``r`` for the GPU
    whose figures are the cells ``c``: weights read, floor (Sizing's step: DECODE_STEP_MS
    ÷ tokens per step, the KV cache at the mean context with its copies and the prompts'
    prefill in aggregated serving: ``workbook.model.serving``), realistic step (the
    floor ÷ (the regime's efficiency at the batch ÷ the GPU's Calibration ratio) + the
    layers' fixed time, Sizing's LAYER_OVERHEAD_MS, × the ratio), tokens/s per user and
    per GPU, cost. ``array``: the form
    of one array formula down the batches (``workbook.arrays``), with MAX and AND said
    element by element."""
    c = {key: Cell(v) for key, v in c.items()}
    t, b = c["gpus"], Cell(f"$A{r}")
    hid = [Cell(f"{col}{r}") for col in h]
    # the tokens a step computes, batch × (draft tokens + 1 + prompt share): Sizing's share
    computed = step_tokens(b, share=z["prefill_share"])
    m = z["model_row"]
    # the experts the verified tokens pick (a prompt's prefill reads its experts once in
    # output ÷ batch steps: left out, a floor; workbook.model.serving)
    read = batch_read(m, verified(b), z["decode_b"])
    link = Column("GPU_INTERCONNECT").at(c["row"])
    stages = Name(STAGES)
    parallel = expert_parallel(m, t / stages)  # the regime's
    attended = attended_per_sequence(z["mean_context"], share=z["prefill_share"])
    attention = F.DECODE_ATTENTION_FLOP(of(z["layers"]), attention_dim(m), attended, b)
    floor = floor_per_token(m, hid[0], prec, z["kv_step_seq_gb"], b, computed,
                            c["bandwidth"], z["active_b"], c["roof"], attention, t, stages,
                            z["hidden"], z["layers"], link, scaleup_domain(
                                Column("GPU_SCALEUP_DOMAIN").at(c["row"]), link))
    # the regime's efficiency and the layers' time, the model's estimate scaled by
    # Calibration's ratio for the GPU (workbook.model.gpu.calibration_ratio; 1 without)
    eff = F.REGIME_EFFICIENCY(t, b, parallel) / c["efficiency"]
    fixed_ms = of(z["layer_ms"]) * c["efficiency"]
    fits = b.le(c["max_batch"])
    priced = fits * F.ISNUMBER(c["price"]) if array else F.AND(fits, F.ISNUMBER(c["price"]))
    per_gpu = b * 1000 / hid[2]
    return {  # one napkin function a cell: short native translations
        h[0]: of(read),
        h[1]: floor,
        h[2]: F.IF(fits, F.ESTIMATE(hid[1], eff, fixed_ms), F.NA()),
        h[3]: F.IF(fits, 1000 / hid[2], F.NA()),
        h[4]: F.IF(fits, per_gpu / t, F.NA()),
        h[5]: F.IF(priced, F.COST_PER_MTOK(c["price"], per_gpu, t,
                                          Name("SCENARIO_UTILIZATION")), F.NA()),
    }
