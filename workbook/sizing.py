"""The Sizing sheet: one model on one GPU type, then the model × GPU grids."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.formatting.rule import ColorScaleRule, FormulaRule
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from workbook.arrays import fill, fixed
from workbook.expr import Cell, Column, Expr, F, Name, Text, of, words
from workbook.model.bill import priced
from workbook.model.fleet import replica_tps
from workbook.model.gpu import (
    CAL_GPU,
    blank_or,
    calibration_ratio,
    efficiency_says,
    empty_says,
    figure,
    figure_says,
    gpu_efficiency,
    layer_time,
    layers_ms,
    lookup,
    regime_says,
)
from workbook.model.serving import mean_context
from workbook.model.step import NETWORK_TBPS, scaleup_domain, server_gpus, stage_link_kind
from workbook.scenario import (
    ANSWER_KEYS,
    AT_UTILIZATION,
    SCENARIO_KEYS,
    answer_block,
    define_scenario_names,
    scenario_inputs,
)
from workbook.sheet import (
    Sheet,
    decode_read,
    has_link,
    link_kind,
    yes_no_colours,
)
from workbook.sizing_rows import memory_rows, replica_step, speed_rows, step_rows
from workbook.speculation import layers_run

# ---------------------------------------------------------------------------- sizing
LOOKUP_KEYS = ["model_row", "params_b", "active_b", "layers", "kv_heads", "head_dim",
               "attention", "kv_bytes", "window", "sliding", "max_context", "decode_b",
               "gpu_row", "memory", "bandwidth", "bf16", "fp8", "context", "mean_context",
               "efficiency",
               "reserve", "hidden", "link", "link_kind", "domain", "stage_link"]
RESULT_KEYS = ["weight_gb", "weight_gib", "kv_gqa_gb", "kv_factor", "kv_seq_gb", "kv_gb",
               "kv_step_seq_gb",
               "need_gb", "need_tp_gb", "fits_weights", "fits_all", "gpus_needed",
               "floor_ms", "roof_tflops", "tps_total", "tps_user", "ridge_bf16", "ridge_used",
               "critical_batch", "decode_intensity", "side", "cost_mtok", "verified",
               "prefill_share", "step_tokens", "read_b", "attn_flop", "stage_gpus",
               "ep_step_ms", "tp_step_ms", "auto_ep", "expert_parallel", "kv_step_gb", "comm_ms",
               "prefill_gb"]
REALISTIC_KEYS = ["regime_eff", "cal_ratio", "calibrated", "layer_ms", "layer_used",
                  "real_cost_mtok"]


def floor_per_token(K: dict) -> Expr:
    """The answer's step floor per token (Sizing's ``step_ms``): DECODE_STEP_MS of the
    scenario's replica (``workbook.model.step.step_floor``: the weights the step's tokens
    read, decoded and prefilled (``workbook.model.serving.step_tokens``), the KV cache of
    the batch at the mean context with its copies, the attention FLOPs, the all-reduces
    of a micro-batch, the pipeline stages: ``workbook.sizing_rows.replica_step``) ÷ the
    tokens a step yields. ``K``: Sizing's key cells."""
    return replica_step(K, K["kv_step_gb"], K["comm_ms"]) / of(K["tokens_per_step"])


def _layout() -> tuple[dict[str, str], dict[str, int]]:
    """Key cells (column B) and section rows of the Sizing sheet: the answer, the scenario,
    the lookups, the results, the realistic rows, each block under its section row."""
    cells, sections, row = {}, {}, 4
    for block, keys in (("answer", ANSWER_KEYS), ("scenario", SCENARIO_KEYS),
                        ("lookups", LOOKUP_KEYS), ("results", RESULT_KEYS),
                        ("realistic", REALISTIC_KEYS)):
        sections[block] = row
        for i, key in enumerate(keys):
            cells[key] = f"B{row + 1 + i}"
        row += len(keys) + 2
    sections["grids"] = row + 1
    return cells, sections


#: Key cells of the Sizing sheet (tests and the README refer to them by name).
SIZING, SECTIONS = _layout()
GRID_TOP = SECTIONS["grids"]  # first row of the model x GPU grids
NO_FIGURE = "no figure"
#: The row of grid 1's GPU names: the Sizing sheet's print titles (repeated atop each
#: printed page from the first grid page on, grid 2's included: the same GPU columns).
GRID_TITLE_ROW = GRID_TOP + 1
#: Column B's header of both grids (what the repeated row says on grid 2's pages too).
GRID_B_HEADER = ("Billions of parameters (B params): all the weights (grid 1), those a "
                 "decode step reads at batch 1 (grid 2)")


def sheet_sizing(wb: Workbook, n_models: int, n_gpus: int) -> Sheet:
    """Sizing: the answer, the scenario every sheet reads, the working; below, every model
    against every GPU. The rows of each block follow from the key lists (``_layout``).

    Answer   the headline, each a RESULT_ name (``workbook.scenario``): GPUs in total,
             replicas for the peak, GPUs per replica, batch, monthly cost, cost per million
             output tokens (the month's bill ÷ the month's output tokens), realistic
             tokens/s per user and per replica, realistic step, first token, step floor
    Scenario INPUTS, each a SCENARIO_ name: model, weight and KV precision, GPU, GPUs per
             replica ("smallest that fits" or a number), pipeline stages (1: tensor
             parallel only), expert parallel ("auto", "yes",
             "no": ``workbook.sheet.expert_parallel``), batch (a number or "largest that
             meets the service level": the Plan sheet's search at the scenario's degree),
             tokens per step and draft tokens (speculative decoding), prompt and output
             tokens, output tokens per day, peak-to-average, the service
             level, price override and the price in use, hours per month, utilization,
             currency
    Lookups  what the tables and the Assumptions say (native INDEX/MATCH; a figure the GPU
             table lacks reads "no figure" and column C says so); the context each
             sequence holds is prompt + output tokens
    Results  napkin functions: weights GB and GiB (all weights: memory), KV GB (GQA
             formula, then corrected for MLA / sliding window), per sequence and at the
             batch, fits, GPUs needed (the minimum: weights + the KV cache of the typed
             batch, or of one sequence when the batch is searched), decode floor at batch 1
             (the weights a step reads: Models column V), tokens/s at the floor, ridges,
             critical batch, decode intensity and its side of the ridge, cost per million
             output tokens at the floor and the planned utilization, the tokens a step
             computes (batch × (draft tokens + 1): ``workbook.speculation``), the weights
             they read (MOE_EXPERTS_READ for MoE), their attention FLOPs, expert
             parallel or not (an MoE model on more than one GPU), the all-reduces
             of a micro-batch (batch ÷ stages) over the GPUs of a stage (GPUs per
             replica ÷ stages) (TP_COMM_MS over the GPU's interconnect, NCCL's latencies:
             NVLink where the GPUs sheet has a figure, PCIe without); the step floor of the
             answer is DECODE_STEP_MS of these, with the stages, ÷ tokens per step
    Realistic the default efficiency (REGIME_EFFICIENCY(GPUs per replica, batch, expert
             parallel), all stages together: an anchor of the Assumptions' regime table,
             named, or between them), Calibration's ratio for this GPU (measured ÷ the
             model's estimate at the measured point, 1 without: ``workbook.sheet.
             calibration_ratio``), the efficiency used (the default ÷ the ratio), the
             fixed time per token of the layers' kernels (LAYER_OVERHEAD_MS) and the time
             used (× the ratio): the realistic step, ESTIMATE(floor, efficiency, fixed),
             is the model's estimate × the ratio; and
             the unit cost of a replica busy at the
             planned utilization (not the bill's figure)
    Grids    grid 1: weights fit on one GPU? (model rows × GPU columns, green/red)
             grid 2: decode floor in ms/token (weights read, batch 1, one GPU; greyed
             where the weights do not fit: a floor of a model that does not fit is fiction)
    """
    s = Sheet(wb, "Sizing", {"A": 44, "B": 24, "C": 9})
    K = SIZING
    s.title_rows("Sizing: the answer for one deployment, and how it is reached",
                 "Change the yellow cells of the scenario: every sheet follows. Realistic = "
                 "the floor from datasheet peaks ÷ the regimes' efficiency + the layers' "
                 "time, scaled to this GPU's measurements on Calibration.")
    answer_block(
        s, K, SECTIONS["answer"],
        realistic_step=F.ESTIMATE(Cell(K["step_ms"]), Cell(K["calibrated"]),
                                  Cell(K["layer_used"])).formula(),
        tps_total=replica_tps(K["real_step_ms"], K["batch"]).formula(),
        step_floor=floor_per_token(K).formula())
    scenario_inputs(s, K, SECTIONS["scenario"])
    define_scenario_names(wb, K)

    _lookups(s, K)
    _results(s, K)
    _realistic(s, K)
    _sizing_grids(s, n_models, n_gpus)
    return s


def _model_figure(column: str, row, otherwise) -> Expr:
    """The Models table's ``column`` at ``row``: the number, else ``otherwise`` (a number
    or text: 0 where the model has no such layers)."""
    at = Column(column).at(row)
    return F.IF(F.ISNUMBER(at), at, otherwise)


def _lookups(s: Sheet, K: dict) -> None:
    """The working: what the tables and assumptions say (lookups)."""
    s.section(SECTIONS["lookups"], "The working: what the tables and assumptions say "
                                   "(lookups)")
    for key, label, formula, fmt, note in lookup_rows(K):
        s.line(K[key], label, formula, "formula", fmt, note)


def _stage_link_says(stage, domain) -> Expr:
    """Sizing's note on the interconnect a stage of ``stage`` GPUs crosses, in words, for a
    GPU of scale-up ``domain`` (``workbook.model.step.stage_link_kind``)."""
    return F.IF(stage.le(domain), words("the stage's ", stage,
                                        " GPU(s) within one scale-up domain"),
                F.IF(stage.le(server_gpus(domain)),
                     words("a stage wider than the ", domain, "-GPU domain: PCIe inside the "
                           "server"),
                     Text("a stage wider than a server: the network, 400 Gb/s a GPU "
                          f"({NETWORK_TBPS:g} TB/s one way) at NCCL's network latency; "
                          "pipeline stages keep each stage in a server")))


def lookup_rows(K: dict) -> list:
    """Sizing's lookups, what the tables and the Assumptions say: (key, label, expression,
    number format, note). ``K``: Sizing's key cells."""
    k = {key: Cell(ref) for key, ref in K.items()}  # each key cell as an expression
    m, g = k["model_row"], k["gpu_row"]
    ctx, mx = k["context"], k["max_context"]
    ple = _model_figure("MODEL_PLE_B", m, 0)
    lookups = [
        ("model_row", "Row in the Models table", F.MATCH(k["model"], Name("MODEL_NAME"), 0),
         "row", "MATCH on the model name"),
        ("params_b", "Parameters, total", lookup("MODEL_PARAMS_B", m), "B",
         "billions of parameters (B params)"),
        ("active_b", "Parameters active per token", lookup("MODEL_ACTIVE_B", m),
         "B", F.IF(ple.gt(0), Text(
             "per-layer embeddings: memory holds them, a token looks up its rows; compute "
             "per token uses these"), F.IF(k["active_b"].lt(k["params_b"] * (1 - 0.000000001)),
             Text("mixture of experts: memory holds all weights, compute per token uses "
                  "these"), Text("dense: all weights are active")))),
        ("layers", "Layers", lookup("MODEL_LAYERS", m), "count", None),
        ("kv_heads", "KV heads", lookup("MODEL_KV_HEADS", m), "count", None),
        ("head_dim", "Head dim", lookup("MODEL_HEAD_DIM", m), "count", None),
        ("attention", "Attention", Column("MODEL_ATTENTION").at(m), None, None),
        ("kv_bytes", "KV bytes per token (BF16, full context)", lookup("MODEL_KV_BYTES", m),
         "bytes", "Models column P: right for GQA and MLA"),
        ("window", "Sliding window", _model_figure("MODEL_WINDOW", m, 0), "tokens",
         "0: no sliding-window layers"),
        ("sliding", "Sliding-window layers", _model_figure("MODEL_SLIDING_LAYERS", m, 0),
         "count", None),
        ("max_context", "Longest context the model supports",
         _model_figure("MODEL_MAX_CONTEXT", m, Text(NO_FIGURE)), "tokens",
         "Models sheet (max context)"),
        ("decode_b", "Weights read per decode step, batch 1", decode_read(m),
         "B", "Models column V: the active weights without the input embedding "
         "table (a token reads one row of it)"),
        ("gpu_row", "Row in the GPUs table", F.MATCH(k["gpu"], Name("GPU_NAME"), 0), "row",
         "MATCH on the GPU name"),
        ("memory", "GPU memory", lookup("GPU_MEM", g), "GB", "GPU"),
        ("bandwidth", "Memory bandwidth", lookup("GPU_BW", g), "tbps", "GPU"),
        ("bf16", "BF16 dense peak", figure("GPU_BF16", g), "tflops", "words"),
        ("fp8", "FP8 dense peak", figure("GPU_FP8", g), "tflops", "words"),
        ("context", "Context each sequence holds (prompt + output)",
         k["prompt"] + k["output"], "tokens",
         F.IF(F.AND(F.ISNUMBER(mx), ctx.gt(mx)), words(
             "longer than the ", F.ROUND(mx, 0), " tokens this model supports: lower the "
             "prompt or output tokens"), Text("the KV cache of each sequence holds them"))),
        ("mean_context", "Context a decode step reads on average (prompt + output ÷ 2)",
         mean_context(k["prompt"], k["output"]), "tokens",
         "a sequence holds prompt + t tokens at its t-th step: the step's KV read and "
         "attention see the mean, memory holds the full context"),
        ("efficiency", "Roof efficiency", Name("ROOF_EFFICIENCY"), "pct", "Assumptions"),
        ("reserve", "Memory reserve", Name("RESERVE"), "pct", "Assumptions"),
        ("hidden", "Hidden size", lookup("MODEL_HIDDEN", m), "count",
         "Models sheet: an all-reduce carries batch × hidden activations"),
        ("link", "GPU interconnect (in + out)", Column("GPU_INTERCONNECT").at(g),
         '#,##0 "GB/s"', F.IF(has_link(k["link"]), Text("GPUs sheet: one way is half of it"),
                              Text("no interconnect figure: the all-reduces count their "
                                   "latency only (PCIe)"))),
        ("link_kind", "Interconnect of the all-reduces within the scale-up domain",
         link_kind(k["link"]), None,
         "NCCL's latencies (udfs/data/interconnects.csv): NVLink where the GPUs sheet has "
         "an interconnect figure (the scale-up link it measures), PCIe without one"),
        ("domain", "GPUs one scale-up link joins (NVLink domain)",
         scaleup_domain(Column("GPU_SCALEUP_DOMAIN").at(g), k["link"]), "gpus",
         "GPUs sheet, column R: an HGX board 8, an NVL72 rack 72, 1 without a link (8 "
         "where a GPU with a link has no figure)"),
        ("stage_link", "Interconnect a stage's all-reduces cross",
         stage_link_kind(k["link"], k["stage_gpus"], k["domain"]), None,
         _stage_link_says(k["stage_gpus"], k["domain"])),
    ]
    says = {"GPU": lambda key: empty_says(k[key], "GPU"),
            "words": lambda key: figure_says(k[key])}
    return [(key, label, formula, fmt, says[note](key) if note in says else note)
            for key, label, formula, fmt, note in lookups]


def _results(s: Sheet, K: dict) -> None:
    """The working: napkin functions."""
    s.section(SECTIONS["results"], "The working: napkin functions")
    results = memory_rows(K) + speed_rows(K) + step_rows(K)
    words = {"ridge_bf16": "the BF16 peak of this GPU", "ridge_used": "a FLOPS figure",
             "critical_batch": "a FLOPS figure", "side": "a FLOPS figure",
             "cost_mtok": "a price for this GPU"}
    for key, label, formula, fmt, note in results:
        cell = K[key]
        if key in words:  # the note, or why the row has no number
            there = Cell(K["ridge_used"] if key == "side" else cell)
            note = F.IF(F.ISNUMBER(there), Text(note), Text(
                f"not available: the tables have no figure for {words[key]}"))
        s.line(cell, label, formula, "result", fmt, note)
    for key in ("fits_weights", "fits_all"):
        yes_no_colours(s.ws, K[key])


def _realistic(s: Sheet, K: dict) -> None:
    """Realistic: the efficiency, the layers' time, a unit cost that is not the bill."""
    s.section(SECTIONS["realistic"], "Realistic: the efficiency, the layers' time, and a "
                                     "unit cost that is not the bill")
    for key, label, formula, fmt, note in realistic_rows(K):
        s.line(K[key], label, formula, "formula" if key == "real_cost_mtok" else "result",
               fmt, note)


def realistic_rows(K: dict) -> list:
    """Sizing's realistic rows: the default efficiency, Calibration's ratio, the efficiency
    used (``workbook.model.gpu.gpu_efficiency``), the layers' time and the time used
    (``layer_time``), both of the ratio row, and the unit cost at the planned utilization;
    as ``lookup_rows``."""
    k = {key: Cell(ref) for key, ref in K.items()}  # each key cell as an expression
    gpu, n, ratio = k["gpu"], k["gpus"], k["cal_ratio"]
    counted = F.COUNTIF(CAL_GPU, gpu)
    realistic = [
        ("regime_eff", "Default efficiency (regimes' anchors)",
         F.REGIME_EFFICIENCY(n, k["batch"], k["expert_parallel"]), "pct",
         words("REGIME_EFFICIENCY(GPUs per replica, batch, expert parallel): ",
               regime_says(k["regime_eff"]))),
        ("cal_ratio", "Calibration: measured ÷ the model's estimate (this GPU)",
         calibration_ratio(gpu), "x",
         F.IF(counted.gt(0), words(
             "the average over this GPU's ", counted, " counted row(s) on Calibration "
             "(column AG): measured ÷ the model's estimate at that row's GPUs, batch and "
             "context. The realistic step is the model's estimate here × this: the time "
             "measured at that point, scaled elsewhere by the model"), Text(
             "1: no measurement of this GPU counted on Calibration, the model's estimate "
             "as it is"))),
        ("calibrated", "Efficiency used", gpu_efficiency(gpu, k["regime_eff"], ratio),
         "pct", efficiency_says(gpu, k["regime_eff"])),
        ("layer_ms", "Fixed time per token: the layers' kernels",
         layers_ms(layers_run(k["layers"]), k["tokens_per_step"]), "ms",
         words("LAYER_OVERHEAD_MS(layers + draft tokens, tokens per step, per-layer time): ",
               layers_run(k["layers"]), " layers × ", Name("LAYER_TIME_US"),
               " µs (Assumptions: yours to change; the default is fitted on published "
               "measurements) ÷ tokens per step")),
        ("layer_used", "Fixed time per token used", layer_time(gpu, k["layer_ms"], ratio),
         "ms", "the row above × Calibration's ratio, added to floor ÷ efficiency: "
         "ESTIMATE(floor, efficiency, this) = the model's estimate × the ratio"),
        ("real_cost_mtok", words(f"{AT_UTILIZATION} (", Name("CURRENCY"), ")"),
         priced(k["price"], F.COST_PER_MTOK(k["price"], k["real_tps_total"], n,
                                            Name("UTILIZATION"))), "money",
         F.IF(F.ISNUMBER(k["real_cost_mtok"]), Text(
             "COST_PER_MTOK at the realistic rate, one replica busy that share of the "
             f"time: below the headline ({K['headline']}), which pays for the whole fleet "
             "all month"), Text("not available: no price for this GPU"))),
    ]
    return realistic


def _grid_value(kind: str, r: int, col: str, head: int, prec: str,
                elementwise: bool = False) -> Expr:
    """A cell of grid ``kind`` ("fits" or "floor") in row ``r`` and column ``col`` (its
    GPU's name in row ``head``, the GPU's memory or bandwidth under it): blank where the
    model's or the GPU's slot is empty, else whether the weights (column B, billions) in
    precision ``prec`` fit on the GPU, or their decode floor on it. "Any of the three
    empty" is OR, or a sum of tests in an array formula (``elementwise``: OR would reduce
    the block to one value)."""
    name, b, gpu = Cell(f"$A{r}"), Cell(f"$B{r}"), Cell(f"{col}${head}")
    tests = (name.eq(Text("")), gpu.eq(Text("")), F.NOT(F.ISNUMBER(b)))
    empty = tests[0] + tests[1] + tests[2] if elementwise else F.OR(*tests)
    figure_ = Cell(f"{col}${head + 1}")
    if kind == "fits":
        value = F.IF(F.FITS(F.WEIGHT_GB(b * 1000000000, of(prec)), figure_), Text("yes"),
                     Text("no"))
    else:
        value = F.DECODE_FLOOR(b * 1000000000, of(prec), figure_)
    return F.IF(empty, Text(""), value)


def _sizing_grids(s: Sheet, n_models: int, n_gpus: int):
    """The model × GPU grids under the Sizing results (see ``sheet_sizing``): one row
    per slot of the Models table and one column per slot of the GPUs table, rows a user
    adds included; an empty slot stays blank."""
    ws = s.ws
    prec_cell = SIZING["precision"]  # the per-cell form's (the native edition's)
    prec = fixed(prec_cell)
    first_col = 3  # C
    last_col = first_col + n_gpus - 1
    last_letter = get_column_letter(last_col)
    for j in range(n_gpus):
        ws.column_dimensions[get_column_letter(first_col + j)].width = 6.5
    # column C holds the notes above (narrow, the text overflows to the right)
    top = GRID_TOP

    def block(title_row: int, title: str, kind: str):
        s.section(title_row, title, last_letter)
        head = title_row + 1
        s.put(f"A{head}", "Model  \\  GPU", "header")
        # one text for both grids: the header of grid 1 prints atop every grid page
        # (the Sizing's print titles, ``GRID_TITLE_ROW``), grid 2's continued pages too
        s.put(f"B{head}", GRID_B_HEADER, "header")
        ws.row_dimensions[head].height = 120
        for j in range(n_gpus):
            col = get_column_letter(first_col + j)
            s.put(f"{col}{head}", blank_or("GPU_NAME", j + 1), "header")
            ws[f"{col}{head}"].alignment = Alignment(text_rotation=90, wrap_text=True,
                                                     horizontal="center", vertical="bottom")
            what = ("GPU_MEM", "GB") if kind == "fits" else ("GPU_BW", "tbps")
            s.put(f"{col}{head + 1}", blank_or("GPU_NAME", j + 1, what[0]), "formula",
                  "#,##0\" GB\"" if kind == "fits" else "0.0#")
        s.put(f"A{head + 1}", "GPU memory" if kind == "fits" else "GPU bandwidth (TB/s)",
              "note")
        first = head + 2
        for i in range(n_models):
            r = first + i
            s.put(f"A{r}", blank_or("MODEL_NAME", i + 1), "formula")
            per = (blank_or("MODEL_NAME", i + 1, "MODEL_PARAMS_B") if kind == "fits" else
                   F.IF(Column("MODEL_NAME").at(i + 1).eq(Text("")), Text(""),
                        decode_read(i + 1)))
            s.put(f"B{r}", per, "formula", "#,##0.00")
            for j in range(n_gpus):
                col = get_column_letter(first_col + j)
                if kind == "fits":
                    s.put(f"{col}{r}", _grid_value(kind, r, col, head, prec_cell), "formula")
                    ws[f"{col}{r}"].alignment = Alignment(horizontal="center")
                else:
                    s.put(f"{col}{r}", _grid_value(kind, r, col, head, prec_cell), "formula",
                          "#,##0.0")
        # one formula for the grid (``workbook.arrays``)
        fill(ws, f"C{first}:{last_letter}{first + n_models - 1}",
             _grid_value(kind, first, "C", head, prec, elementwise=True), keep=True)
        return first, first + n_models - 1

    f1, l1 = block(top, "Grid 1: do the weights fit on one GPU? (weight precision above; "
                        "the KV cache needs room too)", "fits")
    yes_no_colours(ws, f"C{f1}:{last_letter}{l1}")
    top2 = l1 + 3
    f2, l2 = block(top2, "Grid 2: decode floor in ms/token (weights read ÷ bandwidth, batch 1, one "
                         "GPU); grey where the weights do not fit", "floor")
    rng2 = f"C{f2}:{last_letter}{l2}"
    _floor_colours(ws, rng2, f1)
    s.put(f"A{l2 + 2}", "Green: under 5 ms/token (200+ tokens/s per stream); yellow: about "
                        "30 ms; red: 200 ms and more. Change the weight precision "
                        f"in {SIZING['precision']} to redraw both grids. A row added to the "
                        "GPUs or Models table appears here.", "note")
    return l2 + 2


def _floor_colours(ws, rng: str, fits_first: int) -> None:
    """Grid 2's colours: green under 5 ms/token, yellow about 30, red 200 and more; where
    grid 1 (its first row ``fits_first``) says the weights do not fit, italic dark grey on
    grey. Dark, not light, grey: LibreOffice paints the colour scale over that rule's fill
    (stop-if-true does not hold a colour scale back there), so the text must stay readable
    on green, yellow and red too."""
    ws.conditional_formatting.add(rng, FormulaRule(
        formula=[f'C{fits_first}="no"'], stopIfTrue=True,
        fill=PatternFill("solid", fgColor="D9D9D9"), font=Font(color="595959", italic=True)))
    ws.conditional_formatting.add(rng, ColorScaleRule(
        start_type="num", start_value=5, start_color="63BE7B",
        mid_type="num", mid_value=30, mid_color="FFEB84",
        end_type="num", end_value=200, end_color="F8696B"))
