"""The Plan sheet: size a deployment to a service level.

From traffic (requests per second at the peak and on average, prompt and output tokens)
and a service level (time to first token, tokens per second each user sees) to the batch
per replica, the tensor-parallel degree, replicas, GPUs, monthly cost, cost and energy per
million tokens; and when no layout meets the targets, which target fails and by how much.

The layout:

B5..B18  the scenario (SCENARIO_ names, Sizing): peak and average requests/s (tokens
         per day ÷ 86,400 ÷ output tokens, × peak-to-average), prompt and output tokens,
         the service level, model, precisions, GPU, Sizing's efficiency, the price
B19..B20 INPUTS: link bandwidth per GPU one way (default: half GPU_INTERCONNECT, in +
         out; PCIe 5.0 x16 without a figure), the interconnect whose NCCL latencies
         the all-reduces pay (default: Sizing's)
B23..B50 what that means: lookups, KV per sequence at prompt + output tokens (MLA and
         sliding window as on Sizing), weights (all of them: memory), roof used and
         TDP ("no figure" where the GPUs table has none: the batch arithmetic then takes
         a roof of 10⁹ TFLOPS, the steps are memory floors as on Sizing), FLOPs per
         token (2 × active parameters), step target = MS_PER_TOKEN(tokens/s per user),
         seconds per request = first-token target + output ÷ tokens/s per user,
         peak concurrency = CONCURRENCY(peak requests/s, seconds per request); what a
         decode step reads: R(1) at batch 1 (Models column V: the active weights but the
         input embedding table), one routed expert (column W; 0 for dense models),
         routed experts E and experts per token k (dense: 1 and 1), R(all experts)
A decode step of batch b reads R(b) = R(1) + expert × (MOE_EXPERTS_READ(E, k, b) − k)
GB of weights: more distinct experts at a larger batch (uniform routing).
B21      the scenario's pipeline stages (SCENARIO_PIPELINE_STAGES)
Rows 54..57, one per layout: t GPUs per replica (yellow: 1, 2, 4, 8, yours to change) in
p pipeline stages (column CO, beside O while P..CN are hidden; yellow: 1, yours to
change), 58 the scenario's (its GPUs per replica and stages; its E: the scenario's
batch when "largest that meets the service"). A row's all-reduces span the t ÷ p GPUs
of a stage for a micro-batch of b ÷ p sequences, its weights are read p times a step
(DECODE_STEP_MS with p stages of p micro-batches); memory, prefill and the efficiency
(REGIME_EFFICIENCY(t, b)) take all t GPUs:
  B MAX_BATCH(memory, weights, KV per sequence, reserve, t)
  C BATCH_FOR_LATENCY(step target × the most efficiency × tokens per step, R(all
    experts), KV, t × bandwidth, FLOPs per sequence, t × roof): an upper guide, the
    all-reduces and the layers' time left out
  D TP_COMM_MS(hidden, 1, t, link, layers): what each sequence adds to a step's
    all-reduces (the bandwidth term; the latency term is the same at any batch)
  The realistic step at batch b is Sizing's: ESTIMATE(DECODE_STEP_MS(R(b), b × KV,
    bandwidth, active parameters, b, roof, b × attention FLOPs per sequence, t,
    TP_COMM_MS at b) ÷ tokens per step, e(b), f), e(b) = REGIME_EFFICIENCY(t, b,
    expert parallel: an MoE model on t > 1 GPUs unless the scenario says "no", no
    all-reduce then; "auto" is chosen on Sizing at the batch this search finds,
    ``workbook.plan_cells.expert_parallel_at``) ÷ B17, Calibration's ratio measured ÷
    model for this GPU (1 without); f the layers' fixed time, Sizing's
    LAYER_OVERHEAD_MS × B17: the model's estimate × the ratio.
  E MIN(B, the last search cell): the largest batch that fits in memory and whose
    realistic step meets the per-user speed. With S(R, e) = BATCH_FOR_LATENCY((step
    target − f) × e × tokens per step − latency term, R, KV + D × t × bandwidth, t ×
    bandwidth, FLOPs per sequence + D × t × roof, t × roof): N = S(R(all experts), the
    least efficiency) a guide, O = S(R(1), the most efficiency) at or above the answer
    (the step is at least that max rule's); P..AE bisect from 0, each cell adding 2^k
    (k = 15 .. 0) to the one before when that batch's realistic step, said in
    arithmetic (TP_COMM_MS linear in the batch, AF its value at batch 1), still meets
    the target and stays within O. Four blocks of 15 candidates (AG..CN, one array
    formula each: one call of each napkin function for the table) hold 1 where a
    candidate meets it, each block the batches its four steps can try (the batch
    reached before them + j × 2^12, 2^8, 2^4, 2^0, j in the header row); the steps
    read them with INDEX. Where the efficiency rises with the batch (none of the
    regime anchors does; a GPU's own Calibration rows may) the search keeps the first
    batch that fails (a larger batch that meets the target again is not looked for)
  F the realistic step at E (as Sizing's: the scenario's row equals RESULT_STEP_MS);
    G = TOKENS_PER_SEC(F); H the same at batch 1
  I PREFILL_MS(active parameters, prompt, t × roof, ROOF_EFFICIENCY (as Sizing's first
    token), layers, heads × head dim) + TP_COMM_MS over the prompt's tokens:
    the first token, the causal attention counted ("no FLOPS figure" without a roof)
  J GPUS_FOR_DEMAND(tokens/day, TOKENS_PER_SEC(F) × E, peak-to-average, utilization)
    when E ≥ 1 and I ≤ the first-token target (I not known: E alone decides): Sizing's
    rule (``workbook.model.fleet``), so the layout typed into Sizing gives as many
    replicas, "none" where the layout does not run; K = J × t
  L no layout (the stage's GPUs do not divide the attention heads, vLLM's rule; a PCIe
    stage past one server: hidden column CR, ``workbook.plan_cells.layout_says``), or
    which targets fail and by how much (memory, first token, per-user speed)
  M R(E): the weights a step of that batch reads (GB); N, O, P..CN the search (grey;
    P..CN hidden)
B64..B77 THE ANSWER: whether the scenario meets the service level at its degree and
         batch (B64), the degree of the table with the fewest GPUs for the service level
         (B65; when no row meets both targets, why, for the largest degree), then the
         scenario's figures by reference (RESULT_ names: the same cells as Sizing and
         Finance): degree, batch, step, tokens/s per user, first token, replicas, GPUs,
         monthly cost, cost per million output tokens; the bill over all tokens;
         JOULES_PER_TOKEN and ENERGY_PER_MTOK_KWH at TDP × GPUs × PUE ("no TDP
         figure" without one).
"""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from workbook import sheet
from workbook.arrays import fill, fixed
from workbook.expr import Cell, F, Name, Text
from workbook.expr_excel import in_excel
from workbook.model import fleet
from workbook.model.fleet import peak_replicas, replica_tps
from workbook.plan_answer import plan_results
from workbook.plan_cells import (
    CANDIDATES,
    COMM_COL,
    DEGREE_COL,
    HOP_COL,
    KV_COL,
    LAYOUT_COL,
    LEVELS,
    RUNS_COL,
    SEARCH_FIRST,
    SEARCH_STEPS,
    STAGES_COL,
    first_token_ok,
    heads_degree,
    hop_cell,
    kv_step_seq_cell,
    layout,
    layout_says,
    level_block,
    level_columns,
    level_shift,
    row_cells,
    search_steps,
    verdict,
)
from workbook.plan_inputs import plan_inputs
from workbook.scenario import PLAN_SCENARIO_ROW
from workbook.sheet import Sheet

#: Key cells of the Plan sheet (tests refer to them by name).
PLAN = {
    # inputs
    "peak_rps": "B5", "avg_rps": "B6", "prompt": "B7", "output": "B8", "ttft_ms": "B9",
    "tps_target": "B10",
    "model": "B13", "precision": "B14", "kv_precision": "B15", "gpu": "B16",
    "efficiency": "B17", "price": "B18", "link_gbps": "B19", "latency_us": "B20",
    "stages": "B21",
    # what that means
    "model_row": "B23", "gpu_row": "B24", "params_b": "B25", "active_b": "B26",
    "layers": "B27", "hidden": "B28", "kv_bytes": "B29", "window": "B30", "sliding": "B31",
    "context": "B32", "kv_seq_gb": "B33", "weight_gb": "B34", "memory": "B35",
    "bandwidth": "B36", "roof_tflops": "B37", "tdp": "B38", "flops_token": "B39",
    "reserve": "B40", "pue": "B41", "hours": "B42", "step_target_ms": "B43",
    "seconds_per_request": "B44", "concurrency": "B45", "decode_gb": "B46",
    "expert_gb": "B47", "experts": "B48", "top_k": "B49", "read_all_gb": "B50",
    "attn_seq": "B51",
    # the plan
    "status": "B64", "compare": "B65", "tp": "B66", "batch": "B67", "step_ms": "B68",
    "tps_user": "B69", "ttft": "B70", "replicas": "B71", "gpus_total": "B72",
    "monthly": "B73", "cost_out_mtok": "B74", "cost_all_mtok": "B75", "joules_token": "B76",
    "energy_mtok": "B77",
}
TP_FIRST = 54  # first row of the tensor-parallel table
TP_DEGREES = [1, 2, 4, 8]
#: column -> (key, header, width, number format)
TP_COLUMNS = {
    "A": ("tp", "GPUs per replica (tensor parallel × the stages of column CO)", None,
          "gpus"),
    "B": ("mem_batch", "Memory: MAX_BATCH (sequences)", 14, "seq"),
    "C": ("lat_batch", "Latency: BATCH_FOR_LATENCY, no all-reduce nor layers' time", 14,
          "seq"),
    "D": ("comm_ms", "All-reduce per sequence (TP_COMM_MS)", 13, '#,##0.0000 "ms"'),
    "E": ("batch", "Batch meeting memory and speed", 13, "seq"),
    "F": ("step_ms", "Step at that batch, realistic + all-reduce", 13, "ms_token"),
    "G": ("tps_user", "Tokens/s per user at that batch", 13, "tps"),
    "H": ("tps_1", "Tokens/s per user at batch 1", 13, "tps"),
    "I": ("ttft", "First token: PREFILL_MS + all-reduce (ms)", 13, "ms"),
    "J": ("replicas", "Replicas for the peak", 10, "count"),
    "K": ("gpus", "GPUs in total", 13, "gpus"),  # "1,280 GPU(s)": replicas at utilization
    "L": ("verdict", "Verdict", 70, None),
    "M": ("read_gb", "Weights read at that batch (GB)", 13, "GB"),
    "N": ("moe_0", "Batch if every expert is read", 13, "seq"),
    "O": ("moe_1", "Batch if a step read batch 1's weights", 13, "seq"),
}
#: The column of the search's last step: the largest batch that meets the target (≤ O).
LAST_STEP = get_column_letter(SEARCH_FIRST + SEARCH_STEPS - 1)
#: The rows of the table: the degrees tried (yellow), then the scenario's own degree.
TP_ROWS = len(TP_DEGREES) + 1
assert TP_FIRST + len(TP_DEGREES) == PLAN_SCENARIO_ROW




def _tp_col(key: str) -> str:
    return next(c for c, (k, *_) in TP_COLUMNS.items() if k == key)


def sheet_plan(wb: Workbook) -> Sheet:
    """Plan: size a deployment to a service level (its layout: the module's docstring)."""
    s = Sheet(wb, "Plan", {"A": 46, "B": 18, "C": 16, "D": 13, "E": 15, "F": 13, "G": 13,
                           "H": 13, "I": 13, "J": 10, "K": 13, "L": 70, "M": 13, "N": 13,
                           "O": 13})
    K = PLAN
    s.title_rows("Plan: size a deployment to a service level",
                 "Traffic and a service level in, GPUs, replicas and cost out. Floors ÷ the "
                 "regimes' efficiency, scaled to the GPU's measurements on Calibration; "
                 "every step is a napkin function.")

    plan_inputs(s, K)
    _tp_table(s)
    plan_results(s, PLAN, TP_FIRST, TP_FIRST + TP_ROWS - 1)
    s.ws.freeze_panes = "B4"
    return s


def _tp_table(s: Sheet):
    K = PLAN
    top = TP_FIRST - 2
    s.section(top, "Each layout: one replica = t GPUs in p pipeline stages of t ÷ p GPUs "
                   f"sharing each layer (yellow: the layouts tried; p in column {STAGES_COL})",
              "L")
    s.header(TP_FIRST - 1, [h for _, h, _, _ in TP_COLUMNS.values()], height=62)
    last = TP_FIRST + TP_ROWS - 1
    for i, t_default in enumerate([*TP_DEGREES, Name("RESULT_GPUS_PER_REPLICA")]):
        _tp_row(s, K, TP_FIRST + i, t_default, last)
    s.put(f"{STAGES_COL}{TP_FIRST - 1}", "Pipeline stages p (the weights read p times a "
          "step)", "header")
    s.put(f"{LAYOUT_COL}{TP_FIRST - 1}", "Layout", "header")
    s.ws.column_dimensions[STAGES_COL].width = 13
    s.ws.column_dimensions[LAYOUT_COL].width = 14
    s.put(f"{KV_COL}{TP_FIRST - 1}", "KV cache a sequence's step reads (GB, all GPUs)",
          "header")
    s.ws.column_dimensions[KV_COL].hidden = True  # read by the row's step and search
    s.put(f"{RUNS_COL}{TP_FIRST - 1}", "Layout runs? (\"\" or why not)", "header")
    s.ws.column_dimensions[RUNS_COL].hidden = True  # read by the replicas and verdict
    s.put(f"{DEGREE_COL}{TP_FIRST - 1}", "GPUs the heads are split over", "header")
    s.ws.column_dimensions[DEGREE_COL].hidden = True  # read by the layout column
    s.put(f"{HOP_COL}{TP_FIRST - 1}", "Latency of a ring step (the link a stage crosses)",
          "header")
    s.ws.column_dimensions[HOP_COL].hidden = True  # read by the all-reduces
    sheet.validate_stages(s.ws, f"{STAGES_COL}{TP_FIRST}:{STAGES_COL}{last - 1}",
                          f"{STAGES_COL}{TP_FIRST}", f"A{TP_FIRST}", "Pipeline stages of "
                          "the row's replica, dividing its GPUs (column A). A whole number "
                          "from 1 to 64.")
    top_row = row_cells({k: fixed(v) for k, v in K.items()}, TP_FIRST, array=True)
    for col, formula in top_row.items():  # one array formula a column
        fill(s.ws, f"{col}{TP_FIRST}:{col}{last}", formula, keep=True)
    _search_blocks(s, K, last)
    s.put(f"A{last + 3}", f"Row {last}: the scenario's degree (Sizing); its E is the batch "
                          "the scenario takes when it is \"largest that meets the service "
                          "level\".", "note")
    s.validate(f"A{TP_FIRST}:A{last - 1}", "whole", "Tensor-parallel degree: GPUs sharing each "
               "layer of one replica. A whole number from 1 to 64.", "Tensor-parallel degree",
               1, 64)
    verdicts = f"L{TP_FIRST}:L{last}"
    s.ws.conditional_formatting.add(verdicts, FormulaRule(
        formula=[F.LEFT(Cell(f"L{TP_FIRST}"), 4).eq(Text("meet")).render()],
        font=Font(color="006100"),
        fill=PatternFill("solid", fgColor="C6EFCE")))
    s.put(f"A{last + 1}", "The all-reduces grow by D per sequence: E reads them as D × "
                          "efficiency × bandwidth more bytes and D × efficiency × roof more "
                          "FLOPs per sequence, so its batch meets the step target exactly "
                          "with them in. Prefill all-reduces the prompt's tokens.", "note")
    first, end = get_column_letter(SEARCH_FIRST), level_columns(LEVELS - 1)[1]
    s.put(f"A{last + 2}", "A mixture of experts reads more distinct experts at a larger batch "
                          "(MOE_EXPERTS_READ): E is the largest batch whose step meets the "
                          f"target, found between N and O by halving; columns {first}..{end} "
                          "(hidden: unhide them to follow it) hold the steps and the "
                          "candidates they try. Dense: N = O.", "note")


def _tp_row(s: Sheet, K: dict, r: int, t_default, last: int) -> None:
    """Row ``r`` of the layouts' table: its degree ``t_default`` (the last row: the
    scenario's), its napkin-calling columns, the replicas, GPUs and verdict, the search's
    steps, its stages and its layout in words."""
    ttft = K["ttft_ms"]
    t = Cell(f"$A{r}")
    s.put(f"A{r}", t_default, "input" if r < last else "result", "gpus")
    s.ws[f"A{r}"].alignment = Alignment(horizontal="center", vertical="center")
    calls = row_cells(K, r)  # the columns that call napkin functions
    cells = {key: calls[col] for col, (key, *_) in TP_COLUMNS.items() if col in calls}
    e, f, i = Cell(f"E{r}"), Cell(f"F{r}"), Cell(f"I{r}")
    at_peak = in_excel(peak_replicas(fleet.TOKENS_DAY, replica_tps(f, e),
                                     fleet.PEAK_TO_AVERAGE, fleet.UTILIZATION))
    no_link = F.AND(t.gt(1), F.NOT(F.ISNUMBER(Cell(K["link_gbps"]))))
    cells.update({
        "batch": F.MIN(Cell(f"B{r}"), Cell(f"{LAST_STEP}{r}")),
        # Sizing's rule (workbook.model.fleet): the peak token rate ÷ (the row's tokens/s
        # per replica × utilization), so the layout typed into Sizing gives these replicas;
        # in Excel's own functions (GPUS_FOR_DEMAND's native form, which says "no traffic"
        # as 0 itself): five napkin calls a row fewer, within Lite's call budget
        "replicas": F.IF(F.OR(F.ISERROR(e), F.ISERROR(i), F.NOT(F.ISNUMBER(f)), no_link,
                              Cell(f"${RUNS_COL}{r}").ne(Text(""))),
                         Text("none"), F.IF(F.AND(e.ge(1), first_token_ok(i, Cell(ttft))),
                                            at_peak, Text("none"))),
        "gpus": F.IF(F.ISNUMBER(Cell(f"J{r}")), Cell(f"J{r}") * t, Text("none")),
        "verdict": verdict(K, r),
    })
    for col, (key, _, _, fmt) in TP_COLUMNS.items():
        if key == "tp":
            continue
        style = "result" if key in ("batch", "gpus") else "formula"
        s.put(f"{col}{r}", cells[key], "wrap" if key == "verdict" else style, fmt)
        if key in ("read_gb", "moe_0", "moe_1"):
            s.ws[f"{col}{r}"].font = Font(name="Calibri", size=10, color="7F7F7F")
        s.ws[f"{col}{r}"].alignment = (
            Alignment(wrap_text=True, vertical="center") if key == "verdict"
            else Alignment(horizontal="right", vertical="center"))
    search = {**search_steps(r), COMM_COL: calls[COMM_COL]}
    for col, formula in search.items():  # bisection between 0 and O, by powers of two
        s.put(f"{col}{r}", formula, "formula", "seq" if col != COMM_COL else "ms_token")
        s.ws[f"{col}{r}"].font = Font(name="Calibri", size=10, color="7F7F7F")
    s.put(f"{STAGES_COL}{r}", 1 if r < last else Cell(K["stages"]),
          "input" if r < last else "formula", "count")
    s.put(f"{LAYOUT_COL}{r}", layout(r), "formula")
    s.put(f"{KV_COL}{r}", kv_step_seq_cell(K, r), "formula", "GB")
    s.put(f"{RUNS_COL}{r}", layout_says(K, r), "formula")
    s.put(f"{DEGREE_COL}{r}", heads_degree(K, r), "formula", "gpus")
    s.put(f"{HOP_COL}{r}", hop_cell(K, r), "formula")
    s.ws.row_dimensions[r].height = 30


def _search_blocks(s: Sheet, K: dict, last: int) -> None:
    """The search's hidden columns: the heads of its steps and all-reduces, and each
    level's block of candidate batches, one array formula a block."""
    heads = {get_column_letter(SEARCH_FIRST + k): f"Search: + {2 ** (SEARCH_STEPS - 1 - k):,}?"
             for k in range(SEARCH_STEPS)}
    heads[COMM_COL] = "All-reduces at batch 1 (TP_COMM_MS)"
    for level in range(LEVELS):  # one array formula a block of candidates
        first, end = level_columns(level)
        for j in range(1, CANDIDATES + 1):
            col = get_column_letter(SEARCH_FIRST + SEARCH_STEPS + level * CANDIDATES + j)
            heads[col] = j * 2 ** level_shift(level)
            for r in range(TP_FIRST, last + 1):
                s.put(f"{col}{r}", None, "formula", "0")
                s.ws[f"{col}{r}"].font = Font(name="Calibri", size=10, color="7F7F7F")
        fill(s.ws, f"{first}{TP_FIRST}:{end}{last}",
             level_block({k: fixed(v) for k, v in K.items()}, TP_FIRST, level, array=True))
    for col, head in heads.items():
        s.put(f"{col}{TP_FIRST - 1}", head, "header", None if isinstance(head, str) else
              '"+ "#,##0')
        s.ws.column_dimensions[col].width = 8
        s.ws.column_dimensions[col].hidden = True  # the search: unhide to follow it
