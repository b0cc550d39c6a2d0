"""The Cost sheet: tokens per day → GPUs needed → monthly cost → cost per million tokens."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.formatting.rule import ColorScaleRule
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter

from udfs.constants import SECONDS_PER_DAY
from workbook.sheet import (
    Sheet,
    lookup,
)
from workbook.sizing import SIZING

COST = {"model": "B4", "precision": "B5", "params": "B6", "need_gb": "B7", "kv_gb": "B8",
        "batch": "B9", "tokens_day": "B10", "avg_tps": "B11", "peak_ratio": "B12",
        "peak_tps": "B13", "utilization": "B14", "hours": "B15", "efficiency": "B16",
        "reserve": "B17", "calibrated": "B18"}
COST_FIRST = 22
COST_COLUMNS = [  # header, width, format
    ("GPU", 26, None), ("Price per GPU-hour", 12, "money"), ("Memory", 10, "GB"),
    ("Bandwidth", 11, "tbps"), ("Compute roof", 16, "tflops"),
    ("GPUs per replica", 11, "gpus"), ("Step floor", 16, "ms_token"),
    ("Tokens/s per replica", 16, "tps"), ("Replicas for the peak", 11, "count"),
    ("GPUs in total", 10, "gpus"), ("Monthly cost", 14, "money"),
    ("Cost per million tokens, your traffic", 14, "money"),
    ("Cost per million tokens, replica at utilization", 15, "money"),
    ("Realistic step", 16, "ms_token"), ("Realistic GPUs in total", 11, "gpus"),
    ("Realistic monthly cost", 14, "money"),
    ("Realistic per million tokens, your traffic", 14, "money"), ("Note", 60, None),
]


def sheet_cost(wb: Workbook, n_gpus: int) -> Sheet:
    """Cost: tokens per day -> GPUs needed -> monthly cost -> cost per million tokens.

    B4..B17  the chosen model and precision (from Sizing), memory per replica, batch, and
             the traffic assumptions: average and peak tokens/s (native arithmetic)
    Rows 22.. one row per GPU type, side by side:
      B price, C memory, D bandwidth, E compute roof (lookups)
      F GPUs per replica   = GPUS_NEEDED(weights + KV, memory, reserve)
      G step floor (ms)    = DECODE_FLOOR(params, precision, bandwidth × F, batch,
                             roof × efficiency × F, KV)
      H tokens/s/replica   = TOKENS_PER_SEC(G) × batch
      I replicas           = CEILING(peak tokens/s ÷ (H × utilization), 1)
      J GPUs in total      = I × F
      K monthly cost       = J × price × hours per month
      L cost per M tokens  = COST_PER_MTOK(price, average tokens/s, J)  (= K ÷ tokens)
      M unit cost          = COST_PER_MTOK(price, H, F, utilization)
      REALISTIC, beside the floors (efficiency from Calibration in B18):
      N realistic step     = ESTIMATE(G, efficiency)
      O realistic GPUs     = GPUS_FOR_DEMAND(tokens/day, TOKENS_PER_SEC(N) × batch,
                             peak-to-average, utilization) × F
      P realistic monthly  = O × price × hours per month
      Q realistic per M    = COST_PER_MTOK(price, average tokens/s, O)
      R note (no price, no FLOPS figure)
    """
    widths = {get_column_letter(i + 1): w for i, (_, w, _) in enumerate(COST_COLUMNS)}
    widths["A"], widths["B"] = 36, 22
    s = Sheet(wb, "Cost", widths)
    K = COST
    s.title_rows("Cost: tokens per day → GPUs needed → monthly cost → cost per million tokens",
                 "For the model and precision chosen on Sizing, on each GPU type. Traffic, "
                 "batch and utilization are on the Assumptions sheet; prices on GPUs.")
    sz = {k: f"Sizing!{v}" for k, v in SIZING.items()}
    rows = [
        ("model", "Model (Sizing)", f"={sz['model']}", None),
        ("precision", "Weight precision (Sizing)", f"={sz['precision']}", None),
        ("params", "Parameters", f"={sz['params_b']}", '#,##0.00 "billion"'),
        ("need_gb", "Memory per replica: weights + KV cache", f"={sz['need_gb']}", "GB"),
        ("kv_gb", "of which KV cache", f"={sz['kv_gb']}", "GB"),
        ("batch", "Batch per replica", "=BATCH", "seq"),
        ("tokens_day", "Traffic", "=TOKENS_PER_DAY", "tokens_day"),
        ("avg_tps", "Average rate", f"={K['tokens_day']}/{SECONDS_PER_DAY:g}", "tps"),
        ("peak_ratio", "Peak-to-average ratio", "=PEAK_TO_AVG", "ratio"),
        ("peak_tps", "Peak rate (capacity is sized for it)",
         f"={K['avg_tps']}*{K['peak_ratio']}", "tps"),
        ("utilization", "Utilization", "=UTILIZATION", "pct"),
        ("hours", "Hours per month", "=HOURS_PER_MONTH", "hours"),
        ("efficiency", "Roof efficiency", "=ROOF_EFFICIENCY", "pct"),
        ("reserve", "Memory reserve", "=RESERVE", "pct"),
        ("calibrated", "Efficiency measured (Calibration sheet)", "=CAL_EFFICIENCY", "pct"),
    ]
    s.section(3, "Inputs (change them on Sizing and Assumptions)", "D")
    for key, label, formula, fmt in rows:
        s.line(K[key], label, formula, "formula", fmt, note_col=None, right=False)
    headers = [h for h, _, _ in COST_COLUMNS]
    headers[1] = '=\"Price per GPU-hour (\"&CURRENCY&\")\"'
    headers[10] = '=\"Monthly cost (\"&CURRENCY&\")\"'
    headers[11] = '=\"Per million tokens, your traffic (\"&CURRENCY&\")\"'
    headers[12] = '=\"Per million tokens, replica at utilization (\"&CURRENCY&\")\"'
    headers[15] = '=\"Realistic monthly cost (\"&CURRENCY&\")\"'
    headers[16] = '=\"Realistic per million tokens, your traffic (\"&CURRENCY&\")\"'
    s.section(COST_FIRST - 2, "Each GPU type: floors (B..M), then realistic = floor ÷ the "
                              "efficiency measured on Calibration (N..Q)", "R")
    s.header(COST_FIRST - 1, headers, height=60)
    p, prec = f"{K['params']}*1000000000", K["precision"]
    for i in range(n_gpus):
        r = COST_FIRST + i
        k = i + 1
        s.put(f"A{r}", f"=INDEX(GPU_NAME,{k})", "formula")
        s.put(f"B{r}", f'=IF(ISNUMBER(INDEX(GPU_PRICE,{k})),INDEX(GPU_PRICE,{k}),"no price")',
              "formula", "money")
        s.put(f"C{r}", lookup("GPU_MEM", k), "formula", "GB")
        s.put(f"D{r}", lookup("GPU_BW", k), "formula", "tbps")
        s.put(f"E{r}", f"=IF(AND(BYTES_PER_PARAM({prec})<=1,ISNUMBER(INDEX(GPU_FP8,{k}))),"
                       f"INDEX(GPU_FP8,{k}),IF(ISNUMBER(INDEX(GPU_BF16,{k})),INDEX(GPU_BF16,{k}),"
                       '"no figure"))', "formula", "tflops")
        s.put(f"F{r}", f"=GPUS_NEEDED({K['need_gb']},C{r},{K['reserve']})", "formula", "gpus")
        s.put(f"G{r}", f"=IF(ISNUMBER(E{r}),DECODE_FLOOR({p},{prec},D{r}*F{r},{K['batch']},"
                       f"E{r}*{K['efficiency']}*F{r},{K['kv_gb']}),DECODE_FLOOR({p},{prec},"
                       f"D{r}*F{r},{K['batch']},,{K['kv_gb']}))", "formula", "ms_token")
        s.put(f"H{r}", f"=TOKENS_PER_SEC(G{r})*{K['batch']}", "formula", "tps")
        s.put(f"I{r}", f"=CEILING({K['peak_tps']}/(H{r}*{K['utilization']}),1)", "formula",
              "count")
        s.put(f"J{r}", f"=I{r}*F{r}", "formula", "gpus")
        s.put(f"K{r}", f"=IF(ISNUMBER(B{r}),J{r}*B{r}*{K['hours']},\"no price\")", "result",
              "money")
        s.put(f"L{r}", f"=IF(ISNUMBER(B{r}),COST_PER_MTOK(B{r},{K['avg_tps']},J{r}),"
                       f"\"no price\")", "result", "money")
        s.put(f"M{r}", f"=IF(ISNUMBER(B{r}),COST_PER_MTOK(B{r},H{r},F{r},{K['utilization']}),"
                       f"\"no price\")", "formula", "money")
        s.put(f"N{r}", f"=ESTIMATE(G{r},{K['calibrated']})", "formula", "ms_token")
        s.put(f"O{r}", f"=GPUS_FOR_DEMAND({K['tokens_day']},TOKENS_PER_SEC(N{r})*{K['batch']},"
                       f"{K['peak_ratio']},{K['utilization']})*F{r}", "formula", "gpus")
        s.put(f"P{r}", f"=IF(ISNUMBER(B{r}),O{r}*B{r}*{K['hours']},\"no price\")", "result",
              "money")
        s.put(f"Q{r}", f"=IF(ISNUMBER(B{r}),COST_PER_MTOK(B{r},{K['avg_tps']},O{r}),"
                       f"\"no price\")", "result", "money")
        s.put(f"R{r}", f'=IF(ISNUMBER(B{r}),"",  "no price: enter one on the GPUs sheet (column '
                       f'L)")&IF(ISNUMBER(E{r}),"",IF(ISNUMBER(B{r}),"","; ")&"no FLOPS figure: '
                       f'math time not counted")', "note")
    last = COST_FIRST + n_gpus - 1
    for col in "BEKLMPQ":  # text ("no price", "no figure") sits where the numbers do
        for r in range(COST_FIRST, last + 1):
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    for col in "LQ":
        s.ws.conditional_formatting.add(f"{col}{COST_FIRST}:{col}{last}", ColorScaleRule(
            start_type="min", start_color="63BE7B", end_type="max", end_color="F8696B"))
    s.put(f"A{last + 2}", "Capacity is sized for the peak: replicas = CEILING(peak tokens/s ÷ "
                          "(tokens/s per replica × utilization)). 'Your traffic' divides the "
                          "month's bill by the month's tokens; 'replica at utilization' is "
                          "the unit cost of one busy replica.", "note")
    s.put(f"A{last + 3}", "Floors, not predictions: the step floor assumes the bytes stream "
                          "at datasheet bandwidth, split evenly over the GPUs of a replica. "
                          "The realistic columns divide the step by the efficiency measured "
                          "on the Calibration sheet (B18) and size the GPUs again.", "note")
    s.ws.freeze_panes = f"B{COST_FIRST}"
    return s

