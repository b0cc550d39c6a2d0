"""The formulas of one row of the Plan sheet's tensor-parallel table (``workbook.plan``):
the all-reduce time, the weights a step reads, the batch a step target allows, and each
column's formula, per cell or as the top row of one array formula down the table
(``workbook.arrays``: MIN, MAX, AND and OR said element by element)."""

from __future__ import annotations

from openpyxl.utils import get_column_letter

SEARCH_STEPS = 16  # bisection steps between N and O: exact for gaps under 2^16 sequences
SEARCH_FIRST = 16  # column P


def larger(a: str, b: str, array: bool) -> str:
    """The larger of ``a`` and ``b`` (expressions): MAX per cell, element by element in an
    array formula."""
    return f"IF({a}>{b},{a},{b})" if array else f"MAX({a},{b})"


def comm(K: dict, r: int, batch: str, latency: bool = True) -> str:
    """TP_COMM_MS of row ``r``'s degree for ``batch`` tokens (without the latency term if
    ``latency`` is False): 0 at t = 1, and 0 without a link figure, where the row's verdict
    says so and its replicas read "none" (formula text without the leading '='). ``K``:
    the Plan sheet's key cells."""
    t = f"$A{r}"
    lat = K["latency_us"] if latency else "0"
    return (f"IF({t}=1,0,IF(ISNUMBER({K['link_gbps']}),TP_COMM_MS({K['hidden']},{batch},{t},"
            f"{K['link_gbps']}/1000,{K['layers']},\"BF16\",2,{lat}),0))")


def read_gb(K: dict, batch: str, array: bool = False) -> str:
    """R(batch): the weights in GB a decode step of ``batch`` sequences reads (an
    expression): R(1) plus one routed expert per further distinct expert (MoE)."""
    return (f"({K['decode_gb']}+{K['expert_gb']}*(MOE_EXPERTS_READ({K['experts']},"
            f"{K['top_k']},{larger('1', batch, array)})-{K['top_k']}))")


def solve(K: dict, r: int, read: str) -> str:
    """S(R) of row ``r`` (an expression): the largest batch whose realistic step, reading
    ``read`` GB of weights, all-reduces in, meets the step target (BATCH_FOR_LATENCY with
    the all-reduces folded into its terms; see ``workbook.plan.sheet_plan``)."""
    t, eff, kv, bw = f"$A{r}", K["efficiency"], K["kv_seq_gb"], K["bandwidth"]
    roof, f_tok, target = K["roof_tflops"], K["flops_token"], K["step_target_ms"]
    fixed = f"({comm(K, r, '1')}-D{r})"  # the latency part of a step's all-reduces
    return (f"IF({target}-{fixed}<=0,0,BATCH_FOR_LATENCY(({target}-{fixed})*{eff},"
            f"{read},{kv}+D{r}*{eff}*{bw}*{t},{bw}*{t},{f_tok}+D{r}*{eff}*{roof}"
            f"*{t}*1000000000,{roof}*{t}))")


def row_cells(K: dict, r: int, array: bool = False) -> dict[str, str]:
    """{column: formula} of the napkin-calling columns of row ``r`` (B, C, D, F, G, H, I,
    M, N, O and the search columns from ``SEARCH_FIRST``); ``array``: the top row of one
    array formula a column (``K`` then holds absolute references)."""
    t, w, kv, eff = f"$A{r}", K["weight_gb"], K["kv_seq_gb"], K["efficiency"]
    bw, roof, f_tok = K["bandwidth"], K["roof_tflops"], K["flops_token"]
    target = K["step_target_ms"]
    rest = f"{K['read_all_gb']},{kv},{bw}*{t},{f_tok},{roof}*{t}"
    attn = f"{K['layers']},INDEX(MODEL_HEADS,{K['model_row']})*INDEX(MODEL_HEAD_DIM," \
           f"{K['model_row']})"
    cells = {
        "B": f"=MAX_BATCH({K['memory']},{w},{kv},{K['reserve']},{t})",
        "C": f"=BATCH_FOR_LATENCY({target}*{eff},{rest})",
        "D": f"={comm(K, r, '1', latency=False)}",
        "F": f'=IF(E{r}>=1,ESTIMATE(KERNEL_TIME(E{r}*{f_tok},(M{r}+E{r}*{kv})'
             f'*1000000000,{roof}*{t},{bw}*{t}),{eff})+{comm(K, r, f"E{r}")},'
             '"none")',
        "G": f'=IF(ISNUMBER(F{r}),TOKENS_PER_SEC(F{r}),"none")',
        "H": f"=TOKENS_PER_SEC(ESTIMATE(KERNEL_TIME({f_tok},({K['decode_gb']}+{kv})"
             f"*1000000000,{roof}*{t},{bw}*{t}),{eff})+{comm(K, r, '1')})",
        "I": f"=PREFILL_MS({K['active_b']}*1000000000,{K['prompt']},{roof}*{t},{eff},"
             f"{attn})+{comm(K, r, K['prompt'])}",
        "M": f"={read_gb(K, f'E{r}', array)}",
        "N": f"={solve(K, r, K['read_all_gb'])}",
        "O": f"={solve(K, r, K['decode_gb'])}",
    }
    prev = f"N{r}"
    for k in range(SEARCH_STEPS):  # bisection between N and O, by powers of two
        col = get_column_letter(SEARCH_FIRST + k)
        b = f"({prev}+{2 ** (SEARCH_STEPS - 1 - k)})"
        ok = (larger(f"{b}*{f_tok}/({roof}*{t}*1000000000000)",
                     f"({read_gb(K, b, array)}+{b}*{kv})/({bw}*{t}*1000)", array)
              + f"*1000/{eff}+{comm(K, r, b)}<={target}")
        cells[col] = f"=IF({b}>O{r},{prev},IF({ok},{b},{prev}))"
        prev = f"{col}{r}"
    return cells
