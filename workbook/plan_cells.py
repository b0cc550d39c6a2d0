"""The formulas of one row of the Plan sheet's tensor-parallel table (``workbook.plan``):
the all-reduce time, the weights a step reads, the realistic step (Sizing's:
DECODE_STEP_MS ÷ tokens per step ÷ the efficiency of the row's regime at the batch), the
batch a step target allows, and each column's formula, per cell or as the top row of one
array formula down the table (``workbook.arrays``: MIN, MAX, AND and OR said element by
element)."""

from __future__ import annotations

from openpyxl.utils import get_column_letter

from workbook.sheet import expert_parallel, step_floor

SEARCH_STEPS = 16  # bisection steps from 0 to O: exact below 2^16 sequences
SEARCH_FIRST = 16  # column P


def larger(a: str, b: str, array: bool) -> str:
    """The larger of ``a`` and ``b`` (expressions): MAX per cell, element by element in an
    array formula."""
    return f"IF({a}>{b},{a},{b})" if array else f"MAX({a},{b})"


def expert_parallel_at(K: dict, r: int) -> str:
    """1 where the model is served with expert parallelism at row ``r``'s degree, else 0
    (an expression; ``workbook.sheet.expert_parallel``)."""
    return expert_parallel(K["model_row"], f"$A{r}")


def comm(K: dict, r: int, batch: str, latency: bool = True) -> str:
    """TP_COMM_MS of row ``r``'s degree for ``batch`` tokens, NCCL's latencies of the
    interconnect named in the latency cell (without them if ``latency`` is False): 0 at
    t = 1 and with expert parallelism, and 0 without a link figure, where the row's verdict
    says so and its replicas read "none" (formula text without the leading '='). ``K``:
    the Plan sheet's key cells."""
    t = f"$A{r}"
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
    """The efficiency of row ``r`` at ``batch`` (an expression): this GPU's Calibration
    measurements, else REGIME_EFFICIENCY(degree, batch, expert parallel)."""
    cal = K["efficiency"]
    return (f"IF(ISNUMBER({cal}),{cal},REGIME_EFFICIENCY($A{r},{batch},"
            f"{expert_parallel_at(K, r)}))")


def realistic(K: dict, r: int, batch: str, array: bool = False) -> str:
    """The realistic ms per token of row ``r`` at ``batch`` (at least 1) sequences, as
    Sizing's: ESTIMATE(DECODE_STEP_MS(R(batch), batch × KV, bandwidth, active parameters,
    batch, roof, batch × attention FLOPs per sequence, t, all-reduces) ÷ tokens per step,
    the efficiency at the batch) (an expression)."""
    t = f"$A{r}"
    floor = step_floor(read_gb(K, batch, array), f"{batch}*{K['kv_seq_gb']}",
                       K["bandwidth"], f"{K['active_b']}*1000000000", batch,
                       K["roof_tflops"], f"{batch}*{K['attn_seq']}", t, comm(K, r, batch))
    return f"ESTIMATE({floor}/SCENARIO_TOKENS_PER_STEP,{efficiency_at(K, r, batch)})"


def realistic_native(K: dict, r: int, batch: str, array: bool = False) -> str:
    """``realistic`` said in arithmetic for the search cells (an expression): the same
    terms, the all-reduces as their latency part (TP_COMM_MS at batch 1 less D) + D ×
    batch, exact since TP_COMM_MS is linear in the batch; two napkin calls
    (MOE_EXPERTS_READ, REGIME_EFFICIENCY) instead of five."""
    t, kv, bw, roof = f"$A{r}", K["kv_seq_gb"], K["bandwidth"], K["roof_tflops"]
    peak = f"({roof}*{t}*1000000000)"  # FLOPs per ms of the t GPUs
    attention = larger(f"{batch}*{kv}/({bw}*{t})", f"{batch}*{K['attn_seq']}/{peak}", array)
    weights = larger(f"{batch}*{K['flops_token']}/{peak}",
                     f"{read_gb(K, batch, array)}/({bw}*{t})", array)
    comms = f"({comm(K, r, '1')}-D{r}+D{r}*{batch})"
    return (f"({attention}+{weights}+{comms})/SCENARIO_TOKENS_PER_STEP/"
            f"{efficiency_at(K, r, batch)}")


def solve(K: dict, r: int, read: str, eff: str) -> str:
    """S(R) of row ``r`` (an expression): the largest batch whose step, reading ``read``
    GB of weights, max(FLOPs ÷ roof, (R + batch × KV) ÷ bandwidth) ÷ ``eff`` + the
    all-reduces, meets the step target (BATCH_FOR_LATENCY with the all-reduces folded into
    its terms; see ``workbook.plan.sheet_plan``): a bound of the realistic step's batch."""
    t, kv, bw = f"$A{r}", K["kv_seq_gb"], K["bandwidth"]
    roof, f_tok, target = K["roof_tflops"], K["flops_token"], K["step_target_ms"]
    fixed = f"({comm(K, r, '1')}-D{r})"  # the latency part of a step's all-reduces
    return (f"IF({target}-{fixed}<=0,0,BATCH_FOR_LATENCY(({target}-{fixed})*{eff},"
            f"{read},{kv}+D{r}*{eff}*{bw}*{t},{bw}*{t},{f_tok}+D{r}*{eff}*{roof}"
            f"*{t}*1000000000,{roof}*{t}))")


def row_cells(K: dict, r: int, array: bool = False) -> dict[str, str]:
    """{column: formula} of the napkin-calling columns of row ``r`` (B, C, D, F, G, H, I,
    M, N, O and the search columns from ``SEARCH_FIRST``); ``array``: the top row of one
    array formula a column (``K`` then holds absolute references)."""
    t, w, kv, cal = f"$A{r}", K["weight_gb"], K["kv_seq_gb"], K["efficiency"]
    bw, roof, f_tok = K["bandwidth"], K["roof_tflops"], K["flops_token"]
    target = K["step_target_ms"]
    # the most and the least efficiency a batch of this row can have: the search's bounds
    most = f"IF(ISNUMBER({cal}),{cal},REGIME_EFF_MAX)"
    least = f"IF(ISNUMBER({cal}),{cal},REGIME_EFF_MIN)"
    rest = f"{K['read_all_gb']},{kv},{bw}*{t},{f_tok},{roof}*{t}"
    attn = f"{K['layers']},INDEX(MODEL_HEADS,{K['model_row']})*INDEX(MODEL_HEAD_DIM," \
           f"{K['model_row']})"
    low = solve(K, r, K["read_all_gb"], least)
    at_e = larger("1", f"E{r}", array)
    cells = {
        "B": f"=MAX_BATCH({K['memory']},{w},{kv},{K['reserve']},{t})",
        "C": f"=BATCH_FOR_LATENCY({target}*{most},{rest})",
        "D": f"={comm(K, r, '1', latency=False)}",
        "F": f'=IF(E{r}>=1,{realistic(K, r, at_e, array)},"none")',
        "G": f'=IF(ISNUMBER(F{r}),TOKENS_PER_SEC(F{r}),"none")',
        "H": f"=TOKENS_PER_SEC({realistic_native(K, r, '1', array)})",
        "I": f"=PREFILL_MS({K['active_b']}*1000000000,{K['prompt']},{roof}*{t},"
             f"IF(ISNUMBER({cal}),{cal},ROOF_EFFICIENCY),{attn})+{comm(K, r, K['prompt'])}",
        "M": f"={read_gb(K, f'E{r}', array)}",
        # every expert read at the least efficiency: a guide, the search starts at 0
        "N": f"={low}",
        "O": f"={solve(K, r, K['decode_gb'], most)}",
    }
    prev = "0"
    for k in range(SEARCH_STEPS):  # bisection between 0 and O, by powers of two
        col = get_column_letter(SEARCH_FIRST + k)
        b = f"({prev}+{2 ** (SEARCH_STEPS - 1 - k)})"
        ok = f"{realistic_native(K, r, b, array)}<={target}"
        cells[col] = f"=IF({b}>O{r},{prev},IF({ok},{b},{prev}))"
        prev = f"{col}{r}"
    return cells
