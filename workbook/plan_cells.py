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

from workbook.expr import Expr, F, Name, of
from workbook.expr_excel import in_excel
from workbook.model.serving import kv_copies, step_tokens
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


def layout(r: int) -> str:
    """Row ``r``'s layout in words (a formula): "TP t", or "TP t ÷ p × PP p" in p stages."""
    t, p = f"$A{r}", stages_at(r)
    return f'="TP "&IF({p}>1,{t}/{p}&" × PP "&{p},{t})'


def stages_at(r: int) -> str:
    """The pipeline stages of row ``r`` (a reference)."""
    return f"${STAGES_COL}{r}"


def stage_gpus(r: int) -> str:
    """The GPUs of one pipeline stage of row ``r``: its tensor-parallel degree (an
    expression)."""
    return f"$A{r}/{stages_at(r)}"


def math_roof(K: dict) -> str:
    """The roof the batch arithmetic divides by (an expression): the compute roof used, or
    10⁹ TFLOPS where the GPU has no FLOPS figure, so that the math terms count nothing and
    a step is its memory floor (as Sizing's, ``workbook.sheet.step_floor``)."""
    roof = K["roof_tflops"]
    return f"IF(ISNUMBER({roof}),{roof},1000000000)"


def first_token_ok(first_token: str, target: str) -> str:
    """Whether the first token ``first_token`` (a cell) meets ``target`` (an expression):
    TRUE where it is not known (no FLOPS figure: the speed and memory decide, as on
    Sizing)."""
    return f"IF(ISNUMBER({first_token}),{first_token}<={target},TRUE)"


def larger(a: str, b: str, array: bool) -> str:
    """The larger of ``a`` and ``b`` (expressions): MAX per cell, element by element in an
    array formula."""
    return f"IF({a}>{b},{a},{b})" if array else f"MAX({a},{b})"


def expert_parallel_at(K: dict, r: int) -> str:
    """1 where the model is served with expert parallelism over a stage of row ``r``, else
    0 (an expression; ``workbook.sheet.expert_parallel``)."""
    return expert_parallel(K["model_row"], stage_gpus(r))


def comm(K: dict, r: int, batch: str, latency: bool = True) -> str:
    """TP_COMM_MS over the GPUs of a stage of row ``r`` (its tensor-parallel degree) for
    ``batch`` tokens through all the layers, NCCL's latencies of the interconnect named in
    the latency cell (without them if ``latency`` is False): 0 on one GPU a stage and with
    expert parallelism, and 0 without a link figure, where the row's verdict says so and
    its replicas read "none" (formula text without the leading '='). ``K``: the Plan
    sheet's key cells."""
    t = stage_gpus(r)
    lat = K["latency_us"] if latency else "0"
    return (f"IF(({t}=1)+{expert_parallel_at(K, r)},0,IF(ISNUMBER({K['link_gbps']}),"
            f"TP_COMM_MS({K['hidden']},{batch},{t},{K['link_gbps']}/1000,{K['layers']},"
            f"\"BF16\",2,{lat},{lat}),0))")


def read_gb(K: dict, batch: str, array: bool = False) -> str:
    """R(batch): the weights in GB a decode step of ``batch`` sequences reads (an
    expression): R(1) plus one routed expert per further distinct expert (MoE)."""
    return (f"({K['decode_gb']}+{K['expert_gb']}*(MOE_EXPERTS_READ({K['experts']},"
            f"{K['top_k']},{larger('1', batch, array)})-{K['top_k']}))")


def efficiency_at(K: dict, r: int, batch: str) -> str:
    """The efficiency of row ``r`` at ``batch`` (an expression): REGIME_EFFICIENCY(GPUs
    per replica, batch, expert parallel), all stages together, ÷ Calibration's ratio for
    this GPU (``K["efficiency"]``: 1 without measurements), as Sizing."""
    cal = K["efficiency"]
    return (f"REGIME_EFFICIENCY($A{r},{batch},"
            f"{expert_parallel_at(K, r)})/{cal}")


#: Sizing's prompt tokens a step carries per sequence (0 disaggregated) and one sequence's
#: KV cache at the mean context (``workbook.model.serving``): the scenario's, as Plan's
#: model, prompt and output are.
SHARE = f"Sizing!${SIZING['prefill_share'][0]}${SIZING['prefill_share'][1:]}"
KV_STEP_SEQ = f"Sizing!${SIZING['kv_step_seq_gb'][0]}${SIZING['kv_step_seq_gb'][1:]}"


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
LAYERS_TIME = f"Sizing!${SIZING['layer_used'][0]}${SIZING['layer_used'][1:]}"


#: The napkin functions the search cells keep as calls (each an array formula a block of
#: candidates in the template): the rest of the realistic step is said in Excel's own
#: functions from the same declarations (``workbook.expr_excel``).
SEARCH_CALLS = frozenset({"MOE_EXPERTS_READ", "REGIME_EFFICIENCY"})


def realistic(K: dict, r: int, batch: str, array: bool = False, comm_ms=None) -> Expr:
    """The realistic ms per token of row ``r`` at ``batch`` (at least 1) sequences, as
    Sizing's: ESTIMATE(DECODE_STEP_MS(R(batch), batch × KV, bandwidth, active parameters,
    batch, roof, batch × attention FLOPs per sequence, t, the all-reduces of a micro-batch
    of batch ÷ p, p stages) ÷ tokens per step, the efficiency at the batch, the layers'
    fixed time ``LAYERS_TIME``) (an expression). ``comm_ms``: the all-reduces said another
    way (an expression of the same value; default TP_COMM_MS, ``comm``)."""
    t, p = f"$A{r}", stages_at(r)
    # the tokens a step computes: batch × (draft tokens + 1 + prompt share)
    computed = step_tokens(batch, share=SHARE)
    if comm_ms is None:
        comm_ms = comm(K, r, f"{computed}/{p}")
    # the experts the verified tokens pick (the prefill's left out, a floor)
    floor = step_floor(read_gb(K, verified(batch), array), of(batch) * kv_step_seq(K, r),
                       K["bandwidth"], f"{K['active_b']}*1000000000", computed,
                       K["roof_tflops"], f"{batch}*{K['attn_seq']}", t, comm_ms, p)
    return F.ESTIMATE(floor / Name("SCENARIO_TOKENS_PER_STEP"), of(efficiency_at(K, r, batch)),
                      of(LAYERS_TIME))


def realistic_in_excel(K: dict, r: int, batch: str, array: bool = False) -> Expr:
    """``realistic`` in Excel's own functions for the search cells (an expression): the
    same declaration (``workbook.expr_excel.in_excel``: DECODE_STEP_MS and ESTIMATE in
    their declared native forms), the napkin calls kept ``SEARCH_CALLS``, and the
    all-reduces as their latency part (column ``COMM_COL``, less D) + D × batch, exact
    since TP_COMM_MS is linear in the tokens a micro-batch carries (D: one sequence's,
    draft tokens included); in an array formula (``array``) MAX said element by
    element."""
    comm_ms = f"(${COMM_COL}{r}-$D{r}+$D{r}*{batch})"
    return in_excel(realistic(K, r, batch, array, comm_ms), SEARCH_CALLS, elementwise=array)


def solve(K: dict, r: int, read: str, eff: str) -> str:
    """S(R) of row ``r`` (an expression): the largest batch whose step, reading ``read``
    GB of weights p times (p stages), max(FLOPs ÷ roof, (p × R + batch × KV) ÷ bandwidth)
    + the all-reduces, ÷ the tokens per step τ ÷ ``eff`` + the layers' fixed time, meets
    the step target (BATCH_FOR_LATENCY with the all-reduces folded into its terms; see
    ``workbook.plan.sheet_plan``): a bound of the realistic step's batch, whose step has
    every term of this one (``realistic``).

    The step per token is (step + latency + D × batch) ÷ τ ÷ e + f ≤ target, so the
    step and the all-reduces' bytes may take (target − f) × e × τ − latency: the
    all-reduces are divided by τ and e as the realistic step divides them."""
    t, kv, bw = f"$A{r}", kv_step_seq(K, r), K["bandwidth"]
    roof, f_tok, target = math_roof(K), K["flops_token"], K["step_target_ms"]
    # what a step and its all-reduces' bytes may take: the target less the layers' fixed
    # time, over the efficiency and the tokens a step yields, less the all-reduces'
    # latency part (the same at every batch)
    budget = (f"(({target}-{LAYERS_TIME})*{eff}*SCENARIO_TOKENS_PER_STEP"
              f"-(${COMM_COL}{r}-$D{r}))")
    return (f"IF({budget}<=0,0,BATCH_FOR_LATENCY({budget},"
            f"{stages_at(r)}*{read},{kv}+D{r}*{bw}*{t},{bw}*{t},{f_tok}+D{r}*{roof}"
            f"*{t}*1000000000,{roof}*{t}))")


def row_cells(K: dict, r: int, array: bool = False) -> dict[str, str]:
    """{column: formula} of the napkin-calling columns of row ``r`` (B, C, D, F, G, H, I,
    M, N, O and ``COMM_COL``); ``array``: the top row of one array formula a column (``K``
    then holds absolute references)."""
    t, w, kv, cal = f"$A{r}", K["weight_gb"], K["kv_seq_gb"], K["efficiency"]
    bw, roof, f_tok = K["bandwidth"], math_roof(K), K["flops_token"]
    target = K["step_target_ms"]
    # the most and the least efficiency a batch of this row can have: the search's bounds
    most = f"REGIME_EFF_MAX/{cal}"
    least = f"REGIME_EFF_MIN/{cal}"
    rest = f"{stages_at(r)}*{K['read_all_gb']},{kv_step_seq(K, r)},{bw}*{t},{f_tok},{roof}*{t}"
    attn = f"{K['layers']},INDEX(MODEL_HEADS,{K['model_row']})*INDEX(MODEL_HEAD_DIM," \
           f"{K['model_row']})"
    low = solve(K, r, K["read_all_gb"], least)
    # the tokens one sequence adds to a micro-batch's all-reduces: draft tokens + 1 +
    # its prompt share
    per_sequence = f"{step_tokens('1', share=SHARE)}/{stages_at(r)}"
    at_e = larger("1", f"E{r}", array)
    cells = {
        "B": f"=MAX_BATCH({K['memory']},{w},{kv},{K['reserve']},{t})",
        "C": f"=BATCH_FOR_LATENCY({target}*{most}*SCENARIO_TOKENS_PER_STEP,{rest})",
        "D": f"={comm(K, r, per_sequence, latency=False)}",
        "F": f'=IF(E{r}>=1,{realistic(K, r, at_e, array)},"none")',
        "G": f'=IF(ISNUMBER(F{r}),TOKENS_PER_SEC(F{r}),"none")',
        "H": F.TOKENS_PER_SEC(realistic_in_excel(K, r, "1", array)).formula(),
        "I": f"=IF(ISNUMBER({K['roof_tflops']}),PREFILL_MS({K['active_b']}*1000000000,"
             f"{K['prompt']},{K['roof_tflops']}*{t},ROOF_EFFICIENCY,"
             f"{attn})+{comm(K, r, K['prompt'])},\"{NO_FLOPS}\")",
        "M": f"={read_gb(K, verified(f'E{r}'), array)}",
        # every expert read at the least efficiency: a guide, the search starts at 0
        "N": f"={low}",
        "O": f"={solve(K, r, K['decode_gb'], most)}",
        COMM_COL: f"={comm(K, r, per_sequence)}",
    }
    return cells


def level_columns(level: int) -> tuple[str, str]:
    """The first and last column of the block of candidates of ``level`` (0 first)."""
    first = LEVEL_FIRST + level * CANDIDATES
    return get_column_letter(first), get_column_letter(first + CANDIDATES - 1)


def level_shift(level: int) -> int:
    """log2 of the spacing of ``level``'s candidates: 2^12 for level 0 .. 1 for the last."""
    return SEARCH_STEPS - LEVEL_BITS * (level + 1)


def level_base(level: int, r: int) -> str:
    """The batch the search has reached in row ``r`` before ``level`` (an expression): 0,
    or the last step of the level before."""
    if level == 0:
        return "0"
    return f"${get_column_letter(SEARCH_FIRST + LEVEL_BITS * level - 1)}{r}"


def level_block(K: dict, r: int, level: int, array: bool = False) -> str:
    """The formula of the top-left cell, row ``r``, of the block of candidates of
    ``level`` (columns ``level_columns``, one row per row of the table): in the column of
    candidate j (1 .. ``CANDIDATES``, the offset j × 2^shift in the header row above the
    table), 1 where the batch the search has
    reached before the level + the offset is at most O and its realistic step
    (``realistic_in_excel``) meets the step target, else 0. The steps of the level read
    the candidate they try from it. ``K`` holds absolute references."""
    head = f"{level_columns(level)[0]}${r - 1}"
    batch = f"({level_base(level, r)}+{head})"
    ok = realistic_in_excel(K, r, batch, array).le(of(K["step_target_ms"]))
    return F.IF(of(batch).gt(of(f"$O{r}")), 0, F.IF(ok, 1, 0)).formula()


def search_steps(r: int) -> dict[str, str]:
    """{column: formula} of row ``r``'s bisection steps from ``SEARCH_FIRST``: step k adds
    2^(15 − k) to the batch before it when its level's block of candidates says that
    batch meets the target (``level_block``); 0 before the first. Native functions only."""
    cells, prev = {}, "0"
    for k in range(SEARCH_STEPS):
        level = k // LEVEL_BITS
        first, last = level_columns(level)
        shift, base = level_shift(level), level_base(level, r)
        bit = 2 ** (SEARCH_STEPS - 1 - k)
        at = f"{bit // 2 ** shift}" if k % LEVEL_BITS == 0 else \
            f"({prev}-{base})/{2 ** shift}+{bit // 2 ** shift}"
        col = get_column_letter(SEARCH_FIRST + k)
        cells[col] = f"=IF(INDEX(${first}{r}:${last}{r},{at})=1,{prev}+{bit},{prev})"
        prev = f"{col}{r}"
    return cells


def verdict(K: dict, r: int) -> str:
    """Row ``r``'s verdict: meets both targets (the speed alone where the first token is
    not known: no FLOPS figure), or each target it misses and by how much. ``K``: the Plan
    sheet's key cells."""
    t, w, kv = f"$A{r}", K["weight_gb"], K["kv_seq_gb"]
    usable = f"{t}*{K['memory']}*(1-{K['reserve']})"
    ttft, tps = K["ttft_ms"], K["tps_target"]
    known = f"ISNUMBER(I{r})"
    return (
        f'=IF(AND({t}>1,ISNUMBER({K["link_gbps"]})=FALSE),"no link bandwidth for this GPU: '
        f'type one in {K["link_gbps"]}",IF(AND(E{r}>=1,{first_token_ok(f"I{r}", ttft)}),'
        f'IF({known},"meets both targets: ","meets the speed target: ")&"batch "&E{r}&", "&'
        f'ROUND(G{r},1)&" tokens/s per user, "&IF({known},"first token "&ROUND(I{r},0)&'
        f'" ms","first token not known ({NO_FLOPS} for this GPU)"),'
        f'IF(B{r}<1,"memory: weights "&ROUND({w},1)&" GB + one sequence "&ROUND({kv},2)&'
        f'" GB > "&ROUND({usable},1)&" GB usable. ","")'
        f'&IF(NOT({first_token_ok(f"I{r}", ttft)}),"first token: "&ROUND(I{r},0)&" ms, '
        f'target "&ROUND({ttft},0)&" ms ("&ROUND(I{r}-{ttft},0)&" ms over). ","")'
        f'&IF(AND(B{r}>=1,E{r}<1),"per-user speed: "&ROUND(H{r},1)&" tokens/s at batch 1,'
        f' target "&ROUND({tps},1)&" ("&ROUND({tps}-H{r},1)&" tokens/s short).","")))')
