"""The formulas of one row of the Plan sheet's tensor-parallel table (``workbook.plan``):
the all-reduce time, the weights a step reads, the realistic step (Sizing's:
DECODE_STEP_MS ÷ tokens per step ÷ the efficiency of the row's regime at the batch; in
the search cells the same declaration in Excel's own functions, ``realistic_in_excel``),
the batch a step target allows, and each column's formula, per cell or as the top row of one
array formula down the table (``workbook.arrays``: MIN, MAX, AND and OR said element by
element); the search for the largest batch that meets the step target: bisection steps
of native functions that read blocks of candidate batches, one array formula a block; a
row's verdict. Without a FLOPS figure the arithmetic takes the memory floor (``math_roof``)
and the first token is words (``NO_FLOPS``), not held against its target."""

from __future__ import annotations

from openpyxl.utils import get_column_letter

from workbook.arrays import fixed
from workbook.expr import Bool, Cell, Column, Expr, F, Name, Num, Span, Text, larger, of, words
from workbook.expr_excel import in_excel
from workbook.model.prefill import first_token_ms
from workbook.model.serving import kv_copies, step_tokens
from workbook.model.step import (
    NETWORK_TBPS,
    PCIE_TBPS,
    hop_us,
    server_gpus,
    tp_degree,
)
from workbook.model.step import (
    layout_says as layout_verdict,
)
from workbook.sheet import NO_FLOPS, expert_parallel, step_floor
from workbook.sizing import SIZING
from workbook.speculation import verified

SEARCH_STEPS = 16  # bisection steps from 0 to O: exact below 2^16 sequences
SEARCH_FIRST = 16  # column P: the first step
LEVEL_BITS = 4  # the steps a block of candidates serves (4 bits of the batch)
LEVELS = SEARCH_STEPS // LEVEL_BITS
CANDIDATES = 2 ** LEVEL_BITS - 1  # candidate batches of a block, one a column
COMM_COL = get_column_letter(SEARCH_FIRST + SEARCH_STEPS)  # AF: the all-reduces at batch 1
LEVEL_FIRST = SEARCH_FIRST + SEARCH_STEPS + 1  # column AG: the first block's first column
#: The column of each row's pipeline stages p (after the blocks, CO: beside O on screen
#: while P..CN are hidden); a row's replica is $A GPUs in p stages of $A ÷ p GPUs.
STAGES_COL = get_column_letter(LEVEL_FIRST + LEVELS * CANDIDATES)
#: The column of each row's layout in words, beside the stages: "TP t", or "TP t ÷ p × PP p".
LAYOUT_COL = get_column_letter(LEVEL_FIRST + LEVELS * CANDIDATES + 1)
#: The column of the KV cache one sequence's step reads on each row, all GPUs (hidden):
#: Sizing's at the mean context × the copies a stage of the row holds (``kv_step_seq``).
KV_COL = get_column_letter(LEVEL_FIRST + LEVELS * CANDIDATES + 2)
#: The column of each row's layout verdict (hidden): "" where it runs, else why not in
#: words (``layout_says``), read by the row's replicas and verdict.
RUNS_COL = get_column_letter(LEVEL_FIRST + LEVELS * CANDIDATES + 3)
#: The column of each row's tensor-parallel degree of the heads (hidden): the GPUs of a
#: stage, 1 with expert parallelism (``workbook.model.step.tp_degree``).
DEGREE_COL = get_column_letter(LEVEL_FIRST + LEVELS * CANDIDATES + 4)
#: The column of each row's ring-step latency (hidden, ``hop_cell``).
HOP_COL = get_column_letter(LEVEL_FIRST + LEVELS * CANDIDATES + 5)


def heads_degree(K: dict, r: int) -> Expr:
    """The GPUs row ``r`` splits each layer's heads over: its stage's, 1 with expert
    parallelism (``expert_parallel_at``); the formula of the row's ``DEGREE_COL`` cell."""
    return tp_degree(stage_gpus(r), expert_parallel_at(K, r))


def layout_says(K: dict, r: int) -> Expr:
    """"" where row ``r``'s layout runs, else why not (``workbook.model.step``): a stage of
    the scenario's GPU without a scale-up link at most one PCIe server's 8 GPUs
    (``layout_runs``, the GPUs table's figure on Sizing), the degree of the heads
    (``DEGREE_COL``) dividing the model's attention heads as vLLM requires
    (``heads_split``; the KV heads and the attention kind Sizing's). ``K``: the Plan
    sheet's key cells."""
    t, link = stage_gpus(r), sizing_cell("link")
    heads = Column("MODEL_HEADS").at(Cell(K["model_row"]))
    return layout_verdict(heads, sizing_cell("kv_heads"), sizing_cell("attention"), t, link,
                          Cell(f"${DEGREE_COL}{r}"))


def layout(r: int) -> Expr:
    """Row ``r``'s layout in words: "TP t", or "TP t ÷ p × PP p" in p stages."""
    t, p = Cell(f"$A{r}"), stages_at(r)
    return words("TP ", F.IF(p.gt(1), words(t / p, " × PP ", p), t))


def stages_at(r: int) -> Expr:
    """The pipeline stages of row ``r`` (its cell in ``STAGES_COL``)."""
    return Cell(f"${STAGES_COL}{r}")


def stage_gpus(r: int) -> Expr:
    """The GPUs of one pipeline stage of row ``r``: its tensor-parallel degree."""
    return Cell(f"$A{r}") / stages_at(r)


def math_roof(K: dict) -> Expr:
    """The roof the batch arithmetic divides by: the compute roof used, or 10⁹ TFLOPS where
    the GPU has no FLOPS figure, so that the math terms count nothing and a step is its
    memory floor (as Sizing's, ``workbook.model.step.step_floor``)."""
    roof = of(K["roof_tflops"])
    return F.IF(F.ISNUMBER(roof), roof, 1000000000)


def first_token_ok(first_token, target) -> Expr:
    """Whether the first token ``first_token`` (a cell) meets ``target``: TRUE where it is
    not known (no FLOPS figure: the speed and memory decide, as on Sizing)."""
    ft = of(first_token)
    return F.IF(F.ISNUMBER(ft), ft.le(of(target)), Bool(True))


def expert_parallel_at(K: dict, r: int) -> Expr:
    """1 where the model is served with expert parallelism over a stage of row ``r``, else
    0 (``workbook.model.step.expert_parallel``). With the scenario's input "auto" the
    search lays a mixture of experts on more than one GPU out expert parallel (``auto``
    1): Sizing's batch comes from this search and Sizing's choice of the faster layout
    (AUTO_EXPERT_PARALLEL) is made at that batch, so the search cannot read that choice
    without a circular reference; the layout Sizing picks is at least as fast at the
    batch, so the service level still holds."""
    return expert_parallel(K["model_row"], stage_gpus(r), 1)


def comm(K: dict, r: int, batch, latency: bool = True) -> Expr:
    """TP_COMM_MS over the GPUs of a stage of row ``r`` (its tensor-parallel degree) for
    ``batch`` tokens through all the layers, with the link one way of Plan's input (GB/s)
    and NCCL's latencies of the interconnect named in the latency cell (without them if
    ``latency`` is False): 0 on one GPU a stage and with expert parallelism, and 0 without
    a link figure, where the row's verdict says so and its replicas read "none". ``K``:
    the Plan sheet's key cells. A stage wider than the scenario GPU's scale-up domain
    (Sizing's) crosses PCIe inside a server and the network past it, at their figures
    (``workbook.model.step.tp_comm`` is the same call on the GPUs table's figure; Plan's
    link within the domain is the user's.)"""
    t, link = stage_gpus(r), Cell(K["link_gbps"])
    lat = Cell(K["latency_us"]) if latency else Num(0)
    # a stage wider than the GPU's scale-up domain (Sizing's): PCIe inside a server, the
    # network past it, as workbook.model.step.tp_comm prices them (the ring step's
    # latency: the row's HOP_COL cell, the input's interconnect within the domain)
    domain = sizing_cell("domain")
    inside, server = t.le(domain), t.le(server_gpus(domain))
    one_way = F.IF(inside, link / 1000, F.IF(server, PCIE_TBPS, NETWORK_TBPS))
    hop = Cell(f"${HOP_COL}{r}") if latency else lat
    return F.IF(t.eq(1) + expert_parallel_at(K, r), 0, F.IF(F.ISNUMBER(link), F.TP_COMM_MS(
        Cell(K["hidden"]), of(batch), t, one_way, Cell(K["layers"]), Text("BF16"), 2,
        hop, lat), 0))


def hop_cell(K: dict, r: int) -> Expr:
    """The latency of a ring step of row ``r``'s all-reduces, the formula of its
    ``HOP_COL`` cell: Plan's latency input (an interconnect's name or µs) within the
    scenario GPU's scale-up domain, PCIe's inside a server past it, the network's past
    the server (``udfs/data/interconnects.csv``). A cell of its own, so that TP_COMM_MS
    reads a name there as it reads the input's."""
    t, domain = stage_gpus(r), sizing_cell("domain")
    return F.IF(t.le(domain), Cell(K["latency_us"]),
                F.IF(t.le(server_gpus(domain)), hop_us("PCIe"), hop_us("InfiniBand")))


def read_gb(K: dict, batch, array: bool = False) -> Expr:
    """R(batch): the weights in GB a decode step of ``batch`` sequences reads: R(1) plus
    one routed expert per further distinct expert (MoE)."""
    k = Cell(K["top_k"])
    return Cell(K["decode_gb"]) + Cell(K["expert_gb"]) * (F.MOE_EXPERTS_READ(
        Cell(K["experts"]), k, larger(1, batch, array)) - k)


def efficiency_at(K: dict, r: int, batch) -> Expr:
    """The efficiency of row ``r`` at ``batch``: REGIME_EFFICIENCY(GPUs per replica, batch,
    expert parallel), all stages together, ÷ Calibration's ratio for this GPU
    (``K["efficiency"]``: 1 without measurements), as Sizing."""
    cal = Cell(K["efficiency"])
    return F.REGIME_EFFICIENCY(Cell(f"$A{r}"), of(batch), expert_parallel_at(K, r)) / cal


#: Sizing's prompt tokens a step carries per sequence (0 disaggregated) and one sequence's
#: KV cache at the mean context (``workbook.model.serving``): the scenario's, as Plan's
#: model, prompt and output are.
def sizing_cell(key: str) -> Cell:
    """Sizing's key cell ``key`` as another sheet reads it, absolute (``Sizing!$B$45``)."""
    return Cell(fixed(f"Sizing!{SIZING[key]}"))


SHARE, KV_STEP_SEQ = sizing_cell("prefill_share"), sizing_cell("kv_step_seq_gb")
#: What the scenario's prefill moves through memory (Sizing; the same for every row)
PREFILL_GB = sizing_cell("prefill_gb")


def kv_step_seq_cell(K: dict, r: int) -> Expr:
    """The KV cache one sequence's step reads on row ``r``, all GPUs of the replica [GB]:
    Sizing's at the mean context × the copies a stage of the row holds
    (``workbook.model.serving.kv_copies``); the formula of the row's ``KV_COL`` cell."""
    return of(KV_STEP_SEQ) * kv_copies(K["model_row"], stage_gpus(r), expert_parallel_at(K, r))


def kv_step_seq(K: dict, r: int) -> Expr:
    """``kv_step_seq_cell`` of row ``r`` as the step's formulas read it: the row's
    ``KV_COL`` cell (written once a row, so that the search's formulas stay short)."""
    return of(f"${KV_COL}{r}")


#: The layers' fixed time per token a realistic step adds: Sizing's, as its step takes it
#: (``layer_used``: LAYER_OVERHEAD_MS of the model's layers × Calibration's ratio for the
#: scenario's GPU), the same at every row and batch.
LAYERS_TIME = sizing_cell("layer_used")


#: The napkin functions the search cells keep as calls (each an array formula a block of
#: candidates in the template): the rest of the realistic step is said in Excel's own
#: functions from the same declarations (``workbook.expr_excel``).
SEARCH_CALLS = frozenset({"MOE_EXPERTS_READ", "REGIME_EFFICIENCY"})


def realistic(K: dict, r: int, batch, array: bool = False, comm_ms=None) -> Expr:
    """The realistic ms per token of row ``r`` at ``batch`` (at least 1) sequences, as
    Sizing's: ESTIMATE(DECODE_STEP_MS(R(batch), batch × KV, bandwidth, active parameters,
    batch, roof, batch × attention FLOPs per sequence, t, the all-reduces of a micro-batch
    of batch ÷ p, p stages) ÷ tokens per step, the efficiency at the batch, the layers'
    fixed time ``LAYERS_TIME``). ``comm_ms``: the all-reduces said another way (an
    expression of the same value; default TP_COMM_MS, ``comm``)."""
    t, p, b = Cell(f"$A{r}"), stages_at(r), of(batch)
    # the tokens a step computes: batch × (draft tokens + 1 + prompt share)
    computed = step_tokens(b, share=SHARE)
    if comm_ms is None:
        comm_ms = comm(K, r, computed / p)
    # the experts the verified tokens pick (the prefill's left out, a floor)
    floor = step_floor(read_gb(K, verified(b), array), b * kv_step_seq(K, r),
                       K["bandwidth"], Cell(K["active_b"]) * 1000000000, computed,
                       K["roof_tflops"], b * Cell(K["attn_seq"]), t, comm_ms, p)
    return F.ESTIMATE(floor / Name("SCENARIO_TOKENS_PER_STEP"), efficiency_at(K, r, b),
                      of(LAYERS_TIME))


def realistic_in_excel(K: dict, r: int, batch, array: bool = False) -> Expr:
    """``realistic`` in Excel's own functions for the search cells: the same declaration
    (``workbook.expr_excel.in_excel``: DECODE_STEP_MS and ESTIMATE in their declared
    native forms), the napkin calls kept ``SEARCH_CALLS``, and the all-reduces as their
    latency part (column ``COMM_COL``, less D) + D × batch, exact since TP_COMM_MS is
    linear in the tokens a micro-batch carries (D: one sequence's, draft tokens
    included); in an array formula (``array``) MAX said element by element."""
    d = Cell(f"$D{r}")
    comm_ms = Cell(f"${COMM_COL}{r}") - d + d * of(batch)
    return in_excel(realistic(K, r, batch, array, comm_ms), SEARCH_CALLS, elementwise=array)


def solve(K: dict, r: int, read, eff) -> Expr:
    """S(R) of row ``r``: the largest batch whose step, reading ``read`` GB of weights p
    times (p stages), max(FLOPs ÷ roof, (p × R + batch × KV) ÷ bandwidth) + the
    all-reduces, ÷ the tokens per step τ ÷ ``eff`` + the layers' fixed time, meets the step
    target (BATCH_FOR_LATENCY with the all-reduces folded into its terms; see
    ``workbook.plan.sheet_plan``): a bound of the realistic step's batch, whose step has
    every term of this one (``realistic``).

    The step per token is (step + latency + D × batch) ÷ τ ÷ e + f ≤ target, so the
    step and the all-reduces' bytes may take (target − f) × e × τ − latency: the
    all-reduces are divided by τ and e as the realistic step divides them."""
    t, kv, bw = Cell(f"$A{r}"), kv_step_seq(K, r), Cell(K["bandwidth"])
    roof, f_tok, target = math_roof(K), Cell(K["flops_token"]), Cell(K["step_target_ms"])
    d = Cell(f"D{r}")
    # what a step and its all-reduces' bytes may take: the target less the layers' fixed
    # time, over the efficiency and the tokens a step yields, less the all-reduces'
    # latency part (the same at every batch)
    budget = ((target - of(LAYERS_TIME)) * of(eff) * Name("SCENARIO_TOKENS_PER_STEP")
              - (Cell(f"${COMM_COL}{r}") - Cell(f"$D{r}")))
    return F.IF(budget.le(0), 0, F.BATCH_FOR_LATENCY(
        budget, stages_at(r) * of(read), kv + d * bw * t, bw * t,
        f_tok + d * roof * t * 1000000000, roof * t))


def row_cells(K: dict, r: int, array: bool = False) -> dict[str, Expr]:
    """{column: expression} of the napkin-calling columns of row ``r`` (B, C, D, F, G, H,
    I, M, N, O and ``COMM_COL``); ``array``: the top row of one array formula a column
    (``K`` then holds absolute references)."""
    k = {key: Cell(v) for key, v in K.items()}
    t, cal, roof_used = Cell(f"$A{r}"), k["efficiency"], k["roof_tflops"]
    # the most and the least efficiency a batch of this row can have: the search's bounds
    most = Name("REGIME_EFF_MAX") / cal
    least = Name("REGIME_EFF_MIN") / cal
    rest = (stages_at(r) * k["read_all_gb"], kv_step_seq(K, r), k["bandwidth"] * t,
            k["flops_token"], math_roof(K) * t)
    m = k["model_row"]
    # the tokens one sequence adds to a micro-batch's all-reduces: draft tokens + 1 +
    # its prompt share
    per_sequence = step_tokens(1, share=SHARE) / stages_at(r)
    e = Cell(f"E{r}")
    prefill = F.PREFILL_MS(k["active_b"] * 1000000000, k["prompt"], roof_used * t,
                           Name("ROOF_EFFICIENCY"), k["layers"],
                           Column("MODEL_HEADS").at(m) * Column("MODEL_HEAD_DIM").at(m))
    return {
        "B": F.MAX_BATCH(k["memory"], k["weight_gb"], k["kv_seq_gb"], k["reserve"], t),
        "C": F.BATCH_FOR_LATENCY(k["step_target_ms"] * most
                                 * Name("SCENARIO_TOKENS_PER_STEP"), *rest),
        "D": comm(K, r, per_sequence, latency=False),
        "F": F.IF(e.ge(1), realistic(K, r, larger(1, e, array), array), Text("none")),
        "G": F.IF(F.ISNUMBER(Cell(f"F{r}")), F.TOKENS_PER_SEC(Cell(f"F{r}")), Text("none")),
        "H": F.TOKENS_PER_SEC(realistic_in_excel(K, r, 1, array)),
        "I": F.IF(F.ISNUMBER(roof_used),
                  first_token_ms(prefill, PREFILL_GB, k["bandwidth"], t, k["layers"],
                                 comm(K, r, k["prompt"]), elementwise=array),
                  Text(NO_FLOPS)),
        "M": read_gb(K, verified(e), array),
        # every expert read at the least efficiency: a guide, the search starts at 0
        "N": solve(K, r, k["read_all_gb"], least),
        "O": solve(K, r, k["decode_gb"], most),
        COMM_COL: comm(K, r, per_sequence),
    }


def level_columns(level: int) -> tuple[str, str]:
    """The first and last column of the block of candidates of ``level`` (0 first)."""
    first = LEVEL_FIRST + level * CANDIDATES
    return get_column_letter(first), get_column_letter(first + CANDIDATES - 1)


def level_shift(level: int) -> int:
    """log2 of the spacing of ``level``'s candidates: 2^12 for level 0 .. 1 for the last."""
    return SEARCH_STEPS - LEVEL_BITS * (level + 1)


def level_base(level: int, r: int) -> Expr:
    """The batch the search has reached in row ``r`` before ``level``: 0, or the last step
    of the level before."""
    if level == 0:
        return Num(0)
    return Cell(f"${get_column_letter(SEARCH_FIRST + LEVEL_BITS * level - 1)}{r}")


def level_block(K: dict, r: int, level: int, array: bool = False) -> Expr:
    """The formula of the top-left cell, row ``r``, of the block of candidates of
    ``level`` (columns ``level_columns``, one row per row of the table): in the column of
    candidate j (1 .. ``CANDIDATES``, the offset j × 2^shift in the header row above the
    table), 1 where the batch the search has
    reached before the level + the offset is at most O and its realistic step
    (``realistic_in_excel``) meets the step target, else 0. The steps of the level read
    the candidate they try from it. ``K`` holds absolute references."""
    head = Cell(f"{level_columns(level)[0]}${r - 1}")
    batch = level_base(level, r) + head
    ok = realistic_in_excel(K, r, batch, array).le(of(K["step_target_ms"]))
    return F.IF(batch.gt(Cell(f"$O{r}")), 0, F.IF(ok, 1, 0))


def search_steps(r: int) -> dict[str, Expr]:
    """{column: expression} of row ``r``'s bisection steps from ``SEARCH_FIRST``: step k
    adds 2^(15 − k) to the batch before it when its level's block of candidates says that
    batch meets the target (``level_block``); 0 before the first. Native functions only."""
    cells, prev = {}, Num(0)
    for k in range(SEARCH_STEPS):
        level = k // LEVEL_BITS
        first, last = level_columns(level)
        shift, base = level_shift(level), level_base(level, r)
        bit = 2 ** (SEARCH_STEPS - 1 - k)
        at = Num(bit // 2 ** shift) if k % LEVEL_BITS == 0 else \
            (prev - base) / 2 ** shift + bit // 2 ** shift
        col = get_column_letter(SEARCH_FIRST + k)
        candidates = Span(Cell(f"${first}{r}"), Cell(f"${last}{r}"))
        cells[col] = F.IF(F.INDEX(candidates, at).eq(1), prev + bit, prev)
        prev = Cell(f"{col}{r}")
    return cells


def verdict(K: dict, r: int) -> Expr:
    """Row ``r``'s verdict: no layout (``layout_says``), meets both targets (the speed
    alone where the first token is not known: no FLOPS figure), or each target it misses
    and by how much. ``K``: the Plan sheet's key cells."""
    k = {key: Cell(v) for key, v in K.items()}
    t, link = Cell(f"$A{r}"), k["link_gbps"]
    b, e, g, h, i = (Cell(f"{col}{r}") for col in "BEGHI")
    usable = t * k["memory"] * (1 - k["reserve"])
    ttft, tps = k["ttft_ms"], k["tps_target"]
    known, ok = F.ISNUMBER(i), first_token_ok(i, ttft)
    meets = words(F.IF(known, Text("meets both targets: "), Text("meets the speed target: ")),
                  "batch ", e, ", ", F.ROUND(g, 1), " tokens/s per user, ",
                  F.IF(known, words("first token ", F.ROUND(i, 0), " ms"),
                       Text(f"first token not known ({NO_FLOPS} for this GPU)")))
    misses = words(
        F.IF(b.lt(1), words("memory: weights ", F.ROUND(k["weight_gb"], 1), " GB + one "
                            "sequence ", F.ROUND(k["kv_seq_gb"], 2), " GB > ",
                            F.ROUND(usable, 1), " GB usable. "), Text("")),
        F.IF(F.NOT(ok), words("first token: ", F.ROUND(i, 0), " ms, target ",
                              F.ROUND(ttft, 0), " ms (", F.ROUND(i - ttft, 0),
                              " ms over). "), Text("")),
        F.IF(F.AND(b.ge(1), e.lt(1)), words("per-user speed: ", F.ROUND(h, 1),
                                            " tokens/s at batch 1, target ", F.ROUND(tps, 1),
                                            " (", F.ROUND(tps - h, 1), " tokens/s short)."),
             Text("")))
    says = Cell(f"${RUNS_COL}{r}")  # "" where the layout runs (layout_says)
    return F.IF(says.ne(Text("")), says, F.IF(
        F.AND(t.gt(1), F.ISNUMBER(link).eq(Bool(False))),
        Text(f"no link bandwidth for this GPU: type one in {K['link_gbps']}"),
        F.IF(F.AND(e.ge(1), ok), meets, misses)))
