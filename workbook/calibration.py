"""The Calibration sheet: measured ms per token → the efficiency that turns floors into
estimates."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.formatting.rule import CellIsRule, FormulaRule
from openpyxl.styles import Alignment, Font, PatternFill

from workbook.assumptions import PRECISION_FIRST
from workbook.expr import Cell, Column, Expr, F, Name, Text, of, words
from workbook.expr_excel import in_excel
from workbook.model.gpu import CAL_EFF, layers_ms
from workbook.model.serving import kv_copies
from workbook.model.step import batch_read, scaleup_domain, stage_comm
from workbook.sheet import (
    Sheet,
    attention_dim,
    define_column,
    define_name,
    expert_parallel,
    read_csv,
    read_weights,
    sliding_share,
    state_bytes,
    step_floor,
    table_span,
)
from workbook.sizing import SIZING
from workbook.speculation import verified

CAL_SUMMARY = {"efficiency": "B5", "plausible": "B6", "below": "B7", "examples": "B8"}
CAL_FIRST = 12  # first measurement row
CAL_ROWS = 10
#: column letter -> (header, width, number format); inputs A..H, P, X, AC and AD, results
#: I..O, lookups Q..W (what the formulas need, visible so that every step can be checked)
CAL_COLUMNS = {
    "A": ("Model", 26, None), "B": ("Weight precision", 10, None), "C": ("GPU", 22, None),
    "D": ("GPUs (tensor parallel)", 9, "gpus"), "E": ("Batch (sequences)", 12, "count"),
    "F": ("Context (tokens)", 10, "#,##0"), "G": ("Measured ms/token (per user)", 12, "ms"),
    "H": ("or measured tokens/s per user", 15, "tps"),
    "I": ("Measured ms/token used", 15, "ms_token"),
    "J": ("Read per step: weights + KV (GB)", 12, "GB"),
    "K": ("Floor (ms/token)", 15, "ms_token"), "L": ("MBU", 8, "0.0%"), "M": ("MFU", 8, "0.0%"),
    "N": ("Efficiency found = floor ÷ measured", 12, "pct"), "O": ("Verdict", 38, None),
    "P": ("Where it was measured (your note)", 40, None),
    "Q": ("Model row", 7, "row"), "R": ("GPU row", 7, "row"),
    "S": ("Bandwidth, all GPUs (TB/s)", 10, "0.000"),
    "T": ("Compute roof, all GPUs (TFLOPS)", 10, "#,##0.0"),
    "U": ("KV cache (GB)", 10, "#,##0.00"),
    "V": ("Weights read per step (billions)", 10, "#,##0.00"),
    "W": ("Row complete?", 9, None),
    "X": ("Count this row? (examples: no)", 10, None),
    "Y": ("Efficiency counted", 10, "pct"), "Z": ("GPU counted", 22, None),
    "AA": ("Weights read per step (GB)", 10, "GB"),
    "AB": ("Active parameters (billions)", 10, "#,##0.00"),
    "AC": ("Tokens per step (speculative decoding, MTP; empty = 1)", 15, "0.00"),
    "AD": ("Draft tokens per step (speculative decoding; empty = 0)", 15, "0"),
    "AE": ("Default efficiency (regimes)", 12, "pct"),
    "AF": ("Model's estimate (ms/token)", 15, "ms_token"),
    "AG": ("Measured ÷ model", 11, "x"),
    "AH": ("Ratio counted", 11, "x"),
}
#: the lookup columns, grey
CAL_LOOKUPS = ("Q", "R", "S", "T", "U", "V", "W", "Z", "AA", "AB", "AE", "AF", "AH")
#: How a measurement reaches the other sheets, said on the sheet (A9).
CAL_RULE = ("A measurement holds where it was measured: each row's measured time ÷ the "
            "model's own estimate at that row's GPUs, batch and context (column AG) scales "
            "every estimate of that GPU (Sizing, Cost, Finance, Frontier, Plan: the model's "
            "estimate × this ratio), so a scenario at the row's model, precision, GPUs, batch "
            "and context shows the time you measured (a little more where prefill shares the "
            "GPUs: the step also carries the prompts), and other batches and GPU counts move "
            "from it as the model says. A GPU with several counted rows takes the average "
            "of their ratios: set column X to no on the others to make one row the one that "
            "holds.")
#: Example rows: illustrations of how a row reads, NOT measurements (the note says so).
CAL_EXAMPLES = [
    ("Llama 3.1 8B", "BF16", "NVIDIA H100 SXM", 1, 1, 2048, 6.5, None),
    ("Llama 3.1 70B", "FP8", "NVIDIA H100 SXM", 2, 16, 8192, 24, None),
    ("Llama 3.1 8B", "FP8", "NVIDIA H200 SXM", 1, 32, 4096, None, 120),
    ("Llama 3.1 70B", "FP8", "NVIDIA H100 SXM", 1, 1, 8192, 15, None),
]
CAL_EXAMPLE_NOTE = "example, not a measurement: replace with yours"
#: The notes below the measurements.
CAL_NOTES = [
    "Floor: the Sizing step floor for that row's case (the weights a step reads at the "
    "batch, no input embedding table, MoE experts by MOE_EXPERTS_READ, + KV cache at the "
    "batch and context, streamed at the GPUs' datasheet bandwidth, or the math on the "
    "datasheet roof; + the attention and the tensor-parallel all-reduces, as Sizing), "
    "KV cache in the precision chosen on Sizing.",
    "MBU: bytes read per step ÷ measured time ÷ bandwidth. MFU: 2 × active parameters × "
    "tokens/s ÷ datasheet roof. Efficiency found: floor ÷ measured (1 = the floor).",
    "Default efficiency: REGIME_EFFICIENCY(GPUs, batch) of the row. Model's estimate: the "
    "floor per token ÷ it + the layers' time ((layers + draft tokens) × the per-layer time "
    "on Assumptions ÷ tokens per step), Sizing's realistic step without measurements. "
    "Measured ÷ model: the ratio a counted row (Ratio counted, named CAL_RATIO) gives the "
    "other sheets (row 9).",
    "Measure tokens per second of ONE user at a known batch (concurrent sequences); "
    "an aggregate figure means nothing without the number of streams.",
    "Context: the tokens a sequence's KV cache held on average while measured (prompt "
    "+ half the output). The floor is a decode step without prefill; where prefill "
    "shares the GPUs (Sizing's Serving: aggregated) Sizing's step also carries the "
    "prompts, so its realistic step is a little above what you measured.",
]


def _model(column: str, r: int) -> Expr:
    """The Models table's ``column`` for measurement row ``r`` (its Models row in Q)."""
    return Column(column).at(Cell(f"Q{r}"))


def _sliding_share(r: int) -> Expr:
    """The share of a token's KV bytes in the sliding-window layers of the model of row
    ``r`` (its Models row in column Q; ``workbook.model.step.sliding_share``)."""
    return sliding_share(*(_model(n, r) for n in (
        "MODEL_SLIDING_LAYERS", "MODEL_KV_HEADS", "MODEL_HEAD_DIM", "MODEL_KV_BYTES")))


def _precision_bytes(prec) -> Expr:
    """Bytes per parameter of the precision named in the cell ``prec``: the Assumptions
    table's figure (BYTES_PER_PARAM of each name) by MATCH."""
    last = PRECISION_FIRST + len(read_csv("udfs", "precisions.csv")) - 1
    table = Cell(f"Assumptions!$B${PRECISION_FIRST}:$B${last}")  # (a range as written)
    return F.INDEX(table, F.MATCH(of(prec), Name("PRECISION_NAME"), 0))


def _weights_read(row, batch) -> Expr:
    """The weights (billions) a decode step of ``batch`` sequences reads of the model in
    ``row`` of the Models table: ``workbook.model.step.batch_read`` (the batch-1 reads,
    plus for a mixture of experts one routed expert, Models column W, per further
    distinct expert) in Excel's own functions (``in_excel``: MOE_EXPERTS_READ's declared
    native form, E·(1 − (1 − k/E)^B) at any batch, ``workbook.moe``)."""
    return in_excel(batch_read(row, batch))


def _draft(r: int) -> Expr:
    """The draft tokens of measurement row ``r``: AD, empty = 0."""
    ad = Cell(f"AD{r}")
    return F.IF(F.ISNUMBER(ad), ad, 0)


def computed(r: int) -> Expr:
    """The tokens a step of measurement row ``r`` computes: its batch (E) × (its draft
    tokens (AD, empty = 0) + 1), as Sizing's."""
    return verified(Cell(f"E{r}"), _draft(r))


def _step(r: int, weights_gb, active) -> Expr:
    """The floor of measurement row ``r``: Sizing's step, DECODE_STEP_MS of
    the weights read (``weights_gb``, GB), the KV cache (U, × the copies the D GPUs hold
    of it: ``workbook.model.serving.kv_copies``), the replica's bandwidth and
    roof (S and T: one GPU's times the GPUs, so the step is over one "GPU" of their sum,
    the same figures), the ``active`` parameters, the tokens the step computes (the batch
    E × (draft tokens AD + 1)), their attention FLOPs at the context (F) and the
    all-reduces of the D GPUs (``tp_comm``): the floor of one step, which N and O divide
    by the tokens per step (AC)."""
    m, d = Cell(f"Q{r}"), Cell(f"D{r}")
    link = Column("GPU_INTERCONNECT").at(Cell(f"R{r}"))
    layers = _model("MODEL_LAYERS", r)
    tokens = computed(r)
    comm = stage_comm(m, _model("MODEL_HIDDEN", r), layers, tokens, d, link=link,
                      auto=1,  # a measurement of an MoE model on GPUs: expert parallel
                      domain=scaleup_domain(Column("GPU_SCALEUP_DOMAIN").at(Cell(f"R{r}")),
                                            link))
    # the KV cache as the D GPUs hold it: once a KV head, whole on each GPU for MLA
    kv = Cell(f"U{r}") * kv_copies(m, d, expert_parallel(m, d, 1))
    return step_floor(weights_gb, kv, Cell(f"S{r}"), active, tokens, Cell(f"T{r}"),
                      F.DECODE_ATTENTION_FLOP(layers, attention_dim(m), Cell(f"F{r}"),
                                              tokens), 1, comm)


def sheet_calibration(wb: Workbook) -> Sheet:
    """Calibration: measured ms per token -> the efficiency that turns floors into estimates.

    B5       CAL_EFFICIENCY: average of the efficiency of the counted rows (plausible and
             not marked "no" in X), else EFF_DEFAULT (the Assumptions' stated efficiency)
    B6..B8   rows counted, rows below the floor, example rows left out
    Rows 12..21, one measurement each (a row inserted inside them, its formulas copied
    down, counts too):
      A..F  INPUTS model, weight precision, GPU (dropdowns), GPUs, batch, context
      G, H  INPUT measured ms/token per user, or tokens/s per user (one of the two)
      I     measured ms/token used = G, or 1000 ÷ H (MS_PER_TOKEN)
      J     bytes read per step = the weights read (AA) + KV (GB)
      K     floor of a step = DECODE_STEP_MS(weights read (AA), KV, bandwidth, active
            params (AB), batch, roof, attention FLOPs, GPUs, all-reduces): the Sizing step
            floor for that case
      L, M  MBU(J, I × tokens per step, bandwidth), MFU(2 × active params, tokens/s,
            roof)
      N     CALIBRATE(K, I, AC) = floor ÷ tokens per step ÷ measured;
      O     PLAUSIBLE(K, I, AC): a speculative measurement is judged against its floor
            per token
      P     INPUT note;  Q..W lookups (rows, bandwidth, roof, KV GB, weights read per step
            at the row's batch: Models column V + for MoE column W per further distinct
            expert, as MOE_EXPERTS_READ; complete?)
      AA    the weights read per step in GB: WEIGHT_GB(V, precision, "GB", the kept weights
            a step reads at 2 bytes), J and K's one call of it
      AB    the model's active parameters (billions), which K and M compute with
      AC    INPUT tokens each step yields per sequence: 1 without speculative decoding
            (empty = 1); with it, accepted draft tokens + 1 (SPEC_TOKENS_PER_STEP)
      AD    INPUT draft tokens per step (the draft length; empty = 0): the floor computes
            batch × (AD + 1) tokens a step, as Sizing's (the weights read, V, at them)
      X     INPUT count this row? "no" leaves it out; the examples ship with "no"
      Y, Z  the efficiency and GPU of a counted row (named CAL_EFF, CAL_GPU)
      AE    REGIME_EFFICIENCY(D, E, expert parallel): the model's default efficiency there
      AF    the model's estimate per token there, as Sizing's without measurements:
            K ÷ AC ÷ AE + (layers + AD) × LAYER_TIME_US ÷ 1000 ÷ AC
      AG    measured ÷ model's estimate, I ÷ AF; AH the same for a counted row (CAL_RATIO):
            every sheet multiplies the model's estimate for that GPU by the average of
            its counted rows' AH (``workbook.sheet.calibration_ratio``), so a measurement
            holds at its own GPUs, batch and context and scales the model elsewhere
    I, T, U, V and AF are Excel's arithmetic of the row's cells (bytes per parameter from
    the Assumptions table): the napkin calls of a row are its floor (K), MBU, MFU,
    CALIBRATE, PLAUSIBLE, the weights read (AA) and REGIME_EFFICIENCY (AE).
    Rows 12..15 hold examples (not measurements, not counted); 16..21 are empty for yours.
    """
    widths = {col: w for col, (_, w, _) in CAL_COLUMNS.items()}
    s = Sheet(wb, "Calibration", widths)
    s.title_rows("Calibration: how far above the floor do real systems run?",
                 "Enter what you measured; each row gets its floor, MBU, MFU and the "
                 "efficiency found (floor ÷ measured) and measured ÷ the model's estimate, "
                 "which scales every estimate of that GPU on the other sheets.")
    s.put("A3", "The first rows are examples, not measurements (grey): they are not counted "
                "(column X: no). Overwrite them with yours and set X to yes, or enter yours "
                "in the empty rows, or insert a row (this sheet is not protected) and copy "
                "a row into it: its formulas follow (not in the native edition: Start says "
                "why). A measurement faster than its floor is "
                "flagged: an assumption (model, precision, GPU, batch, context, tokens per "
                "step in AC and draft tokens in AD with speculative decoding) is wrong, so "
                "that row is left out.", "note")
    first, last = CAL_FIRST, CAL_FIRST + CAL_ROWS - 1
    _summary(wb, s)
    s.section(first - 2, "Measurements (yellow: yours) and what they say", "AH")
    headers = [h for h, _, _ in CAL_COLUMNS.values()]
    s.header(first - 1, headers, height=60)
    kvp = f"Sizing!${SIZING['kv_precision'][0]}${SIZING['kv_precision'][1:]}"
    for i in range(CAL_ROWS):
        _measurement_row(s, i, kvp)
    _validations(s)
    for i, text in enumerate(CAL_NOTES):
        s.put(f"A{last + 2 + i}", text, "note")
    s.ws.freeze_panes = f"B{first}"
    return s


def _summary(wb: Workbook, s: Sheet) -> None:
    """Rows 4..8: the efficiency used, the rows counted, below the floor, examples; the
    names CAL_EFFICIENCY, CAL_EFF and CAL_GPU."""
    s.section(4, "Result", "O")
    first, last = CAL_FIRST, CAL_FIRST + CAL_ROWS - 1
    col = lambda c: table_span(s.title, c, first - 1, last + 1)  # noqa: E731
    verdicts, counted = col("O"), F.COUNT(CAL_EFF)
    K = CAL_SUMMARY
    s.put("A5", "Average efficiency found (floor ÷ measured), counted rows")
    s.put(K["efficiency"], F.IF(counted.gt(0), F.AVERAGE(CAL_EFF), Name("EFF_DEFAULT")),
          "result", "pct")
    s.put("C5", F.IF(counted.gt(0), words(
        "average of the ", counted, " counted rows below, for reading: the other sheets "
        "scale the model by each GPU's own rows (measured ÷ model, column AG; row 9)"),
        Text("no measurement counted: Assumptions' figure for this cell, shown for reading; "
             "the other sheets use the model as it is (the regimes' default efficiency)")),
          "note")
    s.put("A6", "Rows counted (plausible, not left out)")
    s.put(K["plausible"], counted, "formula", '0 "rows"')
    s.put("A7", "Rows below the floor (left out)")
    s.put(K["below"], F.COUNTIF(verdicts, Text("below*")), "formula", '0 "rows"')
    s.put("C7", "faster than physics allows: check that row's model, precision, GPU, GPUs, "
                "batch and context", "note")
    s.put("A8", "Example rows left out")
    s.put(K["examples"], F.COUNTIFS(col("X"), Text("no"), col("P"), Text(CAL_EXAMPLE_NOTE)),
          "formula", '0 "rows"')
    s.put("C8", "the rows that ship with the workbook are examples: set X to yes to count one",
          "note")
    s.put("A9", CAL_RULE, "note")
    define_name(wb, "CAL_EFFICIENCY", s.title, f"${K['efficiency'][0]}${K['efficiency'][1:]}")
    define_column(wb, "CAL_EFF", s.title, "Y", first - 1, last + 1)
    define_column(wb, "CAL_GPU", s.title, "Z", first - 1, last + 1)
    define_column(wb, "CAL_RATIO", s.title, "AH", first - 1, last + 1)



def _measurement_row(s: Sheet, i: int, kvp: str) -> None:
    """Measurement row ``i`` (0 first): its inputs (an example's, or empty) and the
    formulas of what it says (``_row_formulas``)."""
    r = CAL_FIRST + i
    ex = CAL_EXAMPLES[i] if i < len(CAL_EXAMPLES) else (None,) * 8
    for col, value in zip("ABCDEFGH", ex, strict=True):
        s.put(f"{col}{r}", value, "input", CAL_COLUMNS[col][2])
    s.put(f"P{r}", CAL_EXAMPLE_NOTE if i < len(CAL_EXAMPLES) else None, "input")
    s.put(f"X{r}", "no" if i < len(CAL_EXAMPLES) else None, "input")
    s.put(f"AC{r}", 1, "input", CAL_COLUMNS["AC"][2])
    s.put(f"AD{r}", None, "input", CAL_COLUMNS["AD"][2])
    for col, formula in _row_formulas(r, kvp).items():
        style = "result" if col in "NO" else "formula"
        s.put(f"{col}{r}", formula, style, CAL_COLUMNS[col][2])
        if col in CAL_LOOKUPS:
            s.ws[f"{col}{r}"].font = Font(name="Calibri", size=10, color="7F7F7F")
        if col not in "OWZ":
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")


def _layers_ms(r: int, tau) -> Expr:
    """The layers' time per token of measurement row ``r``: Sizing's
    (``workbook.model.gpu.layers_ms``) in Excel's functions, (the model's layers + the
    row's draft tokens, AD) × the per-layer time (Assumptions, LAYER_TIME_US, µs) ÷ 1000
    ÷ the tokens per step ``tau``."""
    return in_excel(layers_ms(_model("MODEL_LAYERS", r) + _draft(r), tau))


def _row_formulas(r: int, kvp: str) -> dict[str, Expr]:
    """{column: expression} of measurement row ``r``: the lookups, the floor, MBU, MFU,
    the efficiency found, the verdict, what counts."""
    c = {col: Cell(f"{col}{r}") for col in CAL_COLUMNS}  # the row's cells
    tau = F.IF(F.ISNUMBER(c["AC"]), c["AC"], 1)  # tokens per step, empty = 1
    ok, empty, blank = c["W"].eq(Text("yes")), Text(""), F.AND(c["A"].eq(Text("")),
                                                              c["C"].eq(Text("")))
    a = c["AB"] * 1000000000  # active parameters: the math
    has_i = F.ISNUMBER(c["I"])

    def row_of(cell, names):
        at = F.MATCH(cell, Name(names), 0)
        return F.IF(F.ISNUMBER(at), at, empty)

    def gpu(column):
        return Column(column).at(c["R"])

    f = {
        "Q": row_of(c["A"], "MODEL_NAME"),
        "R": row_of(c["C"], "GPU_NAME"),
        "W": F.IF(F.AND(F.ISNUMBER(c["Q"]), F.ISNUMBER(c["R"]),
                        F.ISNUMBER(F.MATCH(c["B"], Name("PRECISION_NAME"), 0)),
                        F.ISNUMBER(c["D"]), F.ISNUMBER(c["E"]), F.ISNUMBER(c["F"])),
                  Text("yes"), F.IF(blank, empty, Text("no"))),
        "S": F.IF(ok, gpu("GPU_BW") * c["D"], empty),
        "T": F.IF(ok, F.IF(F.AND(_precision_bytes(c["B"]).le(1), F.ISNUMBER(gpu("GPU_FP8"))),
                           gpu("GPU_FP8") * c["D"],
                           F.IF(F.ISNUMBER(gpu("GPU_BF16")), gpu("GPU_BF16") * c["D"],
                                Text("no figure"))), empty),
        "V": F.IF(ok, _weights_read(c["Q"], computed(r)), empty),
        "U": F.IF(ok, _kv_gb(r, c, kvp), empty),
        "I": F.IF(F.ISNUMBER(c["G"]), c["G"], F.IF(F.ISNUMBER(c["H"]), 1000 / c["H"], empty)),
        "AA": F.IF(ok, read_weights(c["V"], c["B"], c["Q"]), empty),
        "AB": F.IF(ok, _model("MODEL_ACTIVE_B", r), empty),
        "J": F.IF(ok, c["AA"] + c["U"], empty),
        # the math time counts where the GPU has a FLOPS figure (a floor is > 0)
        "K": F.IF(ok, _step(r, c["AA"], a), empty),
        # a step yields tau tokens: it lasts tau × the measured time per token
        "L": F.IF(F.AND(ok, has_i), F.MBU(c["J"], c["I"] * tau, c["S"]), empty),
        "M": F.IF(F.AND(ok, has_i, F.ISNUMBER(c["T"])),
                  F.MFU(2 * a, 1000 / c["I"] * c["E"], c["T"]), empty),
        "N": F.IF(F.AND(ok, has_i), F.CALIBRATE(c["K"], c["I"], tau), empty),
        "O": F.IF(ok, F.IF(has_i, F.PLAUSIBLE(c["K"], c["I"], tau),
                           Text("enter a measurement (G or H)")),
                  F.IF(blank, empty, Text("incomplete: model, precision, GPU, GPUs, batch, "
                                          "context"))),
        # the model's own estimate at the row's point, as Sizing's realistic step without
        # measurements: floor per token ÷ the regime's efficiency + the layers' time
        "AE": F.IF(ok, F.REGIME_EFFICIENCY(c["D"], c["E"], expert_parallel(c["Q"], c["D"], 1)),
                   empty),
        "AF": F.IF(F.AND(ok, F.ISNUMBER(c["AE"])),
                   c["K"] / tau / c["AE"] + _layers_ms(r, tau), empty),
        "AG": F.IF(F.AND(has_i, F.ISNUMBER(c["AF"])), c["I"] / c["AF"], empty),
        "AH": F.IF(F.ISNUMBER(c["Y"]), c["AG"], empty),
        "Y": F.IF(F.AND(c["O"].eq(Text("plausible")), c["X"].ne(Text("no"))), c["N"], empty),
        "Z": F.IF(F.ISNUMBER(c["Y"]), c["C"], empty),
    }
    return f


def _kv_gb(r: int, c: dict, kvp: str) -> Expr:
    """Column U of measurement row ``r`` (its cells ``c``), the KV cache [GB]: KV bytes per
    token (BF16) × the KV precision's bytes (``kvp``: Sizing's cell) ÷ 2 × context ×
    batch, less the sliding-window layers' share past the window, + the fixed state of
    linear-attention or Mamba layers × batch."""
    ctx, batch = c["F"], c["E"]
    return (_model("MODEL_KV_BYTES", r) * _precision_bytes(Cell(kvp)) / 2 * ctx * batch
            / 1000000000 * F.IF(_model("MODEL_SLIDING_LAYERS", r).eq(0), 1, 1 - _sliding_share(r)
                                * F.MAX(0, ctx - _model("MODEL_WINDOW", r)) / ctx)
            + state_bytes(c["Q"]) * batch / 1000000000)


def _validations(s: Sheet) -> None:
    """What each input column of the measurements takes, and the verdicts' colours."""
    first, last = CAL_FIRST, CAL_FIRST + CAL_ROWS - 1
    rng = lambda col: f"{col}{first}:{col}{last}"  # noqa: E731
    s.validate(rng("A"), "list", "A model from the Models sheet.", "Model",
               formula1="MODEL_NAME")
    s.validate(rng("B"), "list", "Number format of the weights as served (BF16, FP8, INT4...).",
               "Weight precision", formula1="PRECISION_NAME")
    s.validate(rng("C"), "list", "A GPU from the GPUs sheet.", "GPU", formula1="GPU_NAME")
    s.validate(rng("D"), "whole", "GPUs serving one copy of the model (tensor parallel): a "
               "whole number from 1 to 1024.", "GPUs", 1, 1024)
    s.validate(rng("E"), "whole", "Sequences decoded together when you measured: a whole "
               "number from 1 to 100,000.", "Batch", 1, 100000)
    s.validate(rng("F"), "whole", "Tokens in each sequence's KV cache when you measured: a "
               "whole number from 1 to 10,000,000.", "Context", 1, 10000000)
    s.validate(rng("G"), "decimal", "Measured time per output token of one user (one decode "
               "step), in ms: a number from 0.001 to 1,000,000. Or leave it empty and fill "
               "tokens/s per user.", "Measured ms/token", 0.001, 1000000)
    s.validate(rng("H"), "decimal", "Measured tokens/s of one user (used only when the "
               "ms/token cell is empty): a number from 0.001 to 1,000,000.",
               "Measured tokens/s", 0.001, 1000000)
    s.validate(rng("X"), "list", "Count this row in the efficiency? no: leave it out (the "
               "examples ship with no). Empty or yes: count it when plausible.", "Count it?",
               formula1='"yes,no"')
    s.validate(rng("AC"), "decimal", "Tokens each decode step yields per sequence: 1 "
               "without speculative decoding (empty = 1); with it, the accepted draft tokens "
               "+ 1. A number from 1 to 100.", "Tokens per step", 1, 100)
    s.validate(rng("AD"), "whole", "Draft tokens each step verifies beside one more token "
               "(the draft length of MTP, EAGLE or a draft model): empty or 0 without "
               "speculative decoding. A whole number from 0 to 64.", "Draft tokens", 0, 64)
    s.validate(rng("P"), "text", "Optional: where and how it was measured (server, version, "
               "date), up to 200 characters.", "Note", 0, 200)
    ws = s.ws
    ws.conditional_formatting.add(rng("O"), CellIsRule(
        operator="equal", formula=['"plausible"'], fill=PatternFill("solid", fgColor="C6EFCE"),
        font=Font(color="006100", bold=True)))
    ws.conditional_formatting.add(f"A{first}:P{last}", FormulaRule(
        formula=[f'$X{first}="no"'], font=Font(color="808080", italic=True)))
    ws.conditional_formatting.add(rng("O"), FormulaRule(
        formula=[f'LEFT(O{first},5)="below"'], fill=PatternFill("solid", fgColor="FFC7CE"),
        font=Font(color="9C0006", bold=True)))

