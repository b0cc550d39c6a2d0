"""The Sizing sheet: one model on one GPU type, then the model × GPU grids."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.formatting.rule import ColorScaleRule, FormulaRule
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from workbook.sheet import (
    Sheet,
    empty_says,
    lookup,
    yes_no_colours,
)

# Defaults of the Sizing inputs (the manager story)
DEFAULT_MODEL = "Llama 3.1 70B"
DEFAULT_PRECISION = "FP8"
DEFAULT_GPU = "NVIDIA H100 SXM"

# ---------------------------------------------------------------------------- sizing
#: Key cells of the Sizing sheet (tests and the README refer to them by name).
SIZING = {
    "model": "B5", "precision": "B6", "gpu": "B7", "kv_precision": "B8",
    "price_override": "B9",
    "model_row": "B12", "params_b": "B13", "active_b": "B14", "layers": "B15",
    "kv_heads": "B16", "head_dim": "B17", "attention": "B18", "kv_bytes": "B19",
    "window": "B20", "sliding": "B21",
    "gpu_row": "B23", "memory": "B24", "bandwidth": "B25", "bf16": "B26", "fp8": "B27",
    "price": "B28", "context": "B29", "batch": "B30", "efficiency": "B31",
    "reserve": "B32",
    "weight_gb": "B35", "weight_gib": "B36", "kv_gqa_gb": "B37", "kv_factor": "B38",
    "kv_gb": "B39", "need_gb": "B40", "fits_weights": "B41", "fits_all": "B42",
    "gpus_needed": "B43", "floor_ms": "B44", "roof_tflops": "B45", "step_ms": "B46",
    "tps_total": "B47", "tps_user": "B48", "ridge_bf16": "B49", "ridge_used": "B50",
    "critical_batch": "B51", "decode_intensity": "B52", "side": "B53",
    "cost_mtok": "B54",
    "calibrated": "B57", "real_step_ms": "B58", "real_tps_total": "B59",
    "real_tps_user": "B60", "real_cost_mtok": "B61",
}
GRID_TOP = 64  # first row of the model x GPU grids



def sheet_sizing(wb: Workbook, n_models: int, n_gpus: int) -> Sheet:
    """Sizing: one model on one GPU type; below, every model against every GPU.

    B5..B9   INPUTS: model, weight precision, GPU (dropdowns fed by the tables), KV cache
             precision, optional price override
    B12..B32 what the tables and the Assumptions say (native INDEX/MATCH lookups; an
             empty figure is #N/A and column C says so)
    B35..B54 RESULTS, each a napkin function: weights GB and GiB, KV GB (GQA formula, then
             corrected for MLA / sliding window), fits, GPUs needed, decode floor (weights
             only, batch 1), step floor at the batch over the GPUs needed, tokens/s in
             total and per user, ridges, critical batch, decode intensity and its side of
             the ridge, cost per million tokens at the assumed utilization
    B57..B61 REALISTIC, beside the floors: the efficiency found on Calibration
             (CAL_EFFICIENCY), the step ESTIMATE(floor, efficiency), tokens/s in total and
             per user, cost per million tokens (ranges: Finance sheet)
    Row 64.. grid 1: weights fit on one GPU? (model rows × GPU columns, green/red)
             grid 2: decode floor in ms/token (weights only, batch 1, one GPU; greyed
             where the weights do not fit: a floor of a model that does not fit is fiction)
    """
    s = Sheet(wb, "Sizing", {"A": 44, "B": 24, "C": 9})
    K = SIZING
    s.title_rows("Sizing: does it fit, how many GPUs, how fast can it possibly go?",
                 "Pick in the yellow cells. Results are floors from datasheet peaks, not "
                 "predictions: real measurements sit above them.")
    s.section(4, "Choose")
    inputs = [
        ("model", "Model", DEFAULT_MODEL, "list", "MODEL_NAME",
         "A model from the Models sheet."),
        ("precision", "Weight precision", DEFAULT_PRECISION, "list", "PRECISION_NAME",
         "Number format of the weights: BF16 = 2 bytes per parameter, FP8 = 1, INT4 = 0.5."),
        ("gpu", "GPU", DEFAULT_GPU, "list", "GPU_NAME", "A GPU from the GPUs sheet."),
        ("kv_precision", "KV cache precision", "BF16", "list", "PRECISION_NAME",
         "Number format of the KV cache (BF16 unless your server quantises it)."),
    ]
    for key, label, default, kind, source, prompt in inputs:
        cell = K[key]
        s.put(f"A{cell[1:]}", label)
        s.put(cell, default, "input")
        s.put(f"C{cell[1:]}", prompt, "note")
        s.validate(cell, kind, prompt, label, formula1=source)
    r = K["price_override"][1:]
    s.put(f"A{r}", '=\"Price per GPU-hour override (\"&CURRENCY&\")\"')
    s.put(K["price_override"], None, "input", "money")
    s.put(f"C{r}", "Leave empty to use the price on the GPUs sheet.", "note")
    s.validate(K["price_override"], "decimal", "Optional. Price of one GPU-hour; empty: "
               "the GPUs sheet's price. A number from 0 to 1000.", "Price override", 0, 1000)

    s.section(11, "What the tables and assumptions say (lookups)")
    m, g = K["model_row"], K["gpu_row"]
    lookups = [
        ("model_row", "Row in the Models table", f"=MATCH({K['model']},MODEL_NAME,0)",
         "row", "MATCH on the model name"),
        ("params_b", "Parameters, total", lookup("MODEL_PARAMS_B", m), '#,##0.00 "B"',
         "billions"),
        ("active_b", "Parameters active per token", lookup("MODEL_ACTIVE_B", m),
         '#,##0.00 "B"', f'=IF({K["active_b"]}<{K["params_b"]},"mixture of experts: '
         'the floors below read all weights (right at large batch, pessimistic at batch '
         '1)","")'),
        ("layers", "Layers", lookup("MODEL_LAYERS", m), "count", None),
        ("kv_heads", "KV heads", lookup("MODEL_KV_HEADS", m), "count", None),
        ("head_dim", "Head dim", lookup("MODEL_HEAD_DIM", m), "count", None),
        ("attention", "Attention", f"=INDEX(MODEL_ATTENTION,{m})", None, None),
        ("kv_bytes", "KV bytes per token (BF16, full context)", lookup("MODEL_KV_BYTES", m),
         "bytes", "Models column P: right for GQA and MLA"),
        ("window", "Sliding window", f"=IF(ISNUMBER(INDEX(MODEL_WINDOW,{m})),"
         f"INDEX(MODEL_WINDOW,{m}),0)", "tokens", "0: no sliding-window layers"),
        ("sliding", "Sliding-window layers", f"=INDEX(MODEL_SLIDING_LAYERS,{m})", "count",
         None),
        ("gpu_row", "Row in the GPUs table", f"=MATCH({K['gpu']},GPU_NAME,0)", "row",
         "MATCH on the GPU name"),
        ("memory", "GPU memory", lookup("GPU_MEM", g), "GB", "GPU"),
        ("bandwidth", "Memory bandwidth", lookup("GPU_BW", g), "tbps", "GPU"),
        ("bf16", "BF16 dense peak", lookup("GPU_BF16", g), "tflops", "GPU"),
        ("fp8", "FP8 dense peak", lookup("GPU_FP8", g), "tflops", "GPU"),
        ("price", '=\"Price per GPU-hour (\"&CURRENCY&\")\"',
         f"=IF(ISNUMBER({K['price_override']}),{K['price_override']},"
         f"IF(ISNUMBER(INDEX(GPU_PRICE,{g})),INDEX(GPU_PRICE,{g}),NA()))", "money",
         f'=IF(ISNA({K["price"]}),"no price on the GPUs sheet: enter one there or in '
         f'{K["price_override"]}","override if given, else the GPUs sheet")'),
        ("context", "Context length", "=CONTEXT", "tokens", "Assumptions"),
        ("batch", "Batch (sequences decoded together)", "=BATCH", "seq", "Assumptions"),
        ("efficiency", "Roof efficiency", "=ROOF_EFFICIENCY", "pct", "Assumptions"),
        ("reserve", "Memory reserve", "=RESERVE", "pct", "Assumptions"),
    ]
    for key, label, formula, fmt, note in lookups:
        if note == "GPU":
            note = empty_says(K[key], "GPU")
        s.line(K[key], label, formula, "formula", fmt, note)

    s.section(34, "Results (napkin functions)")
    p = f"{K['params_b']}*1000000000"
    prec, kvp = K["precision"], K["kv_precision"]
    bw, roof, eff = K["bandwidth"], K["roof_tflops"], K["efficiency"]
    results = [
        ("weight_gb", "Weights", f"=WEIGHT_GB({p},{prec})", "GB",
         "WEIGHT_GB(params, precision): parameters × bytes per parameter"),
        ("weight_gib", "Weights in GiB", f'=WEIGHT_GB({p},{prec},"GiB")', "GiB",
         "1 GiB = 1024³ bytes, 7 % more than 1 GB"),
        ("kv_gqa_gb", "KV cache, GQA formula (context × batch)",
         f"=KV_CACHE_GB({K['layers']},{K['kv_heads']},{K['head_dim']},{K['context']},"
         f"{kvp},{K['batch']})", "GB",
         "KV_CACHE_GB: 2 × layers × KV heads × head dim × bytes × tokens × batch"),
        ("kv_factor", "Attention correction (MLA, sliding window)",
         f"={K['kv_bytes']}/(4*{K['layers']}*{K['kv_heads']}*{K['head_dim']})"
         f"*IF({K['sliding']}=0,1,1-{K['sliding']}/{K['layers']}"
         f"*MAX(0,{K['context']}-{K['window']})/{K['context']})", "0.000",
         f'=IF({K["kv_factor"]}=1,"1: the GQA formula is right for "&{K["attention"]},'
         f'{K["attention"]}&": the GQA formula over-counts; this factor corrects it")'),
        ("kv_gb", "KV cache for this model", f"={K['kv_gqa_gb']}*{K['kv_factor']}", "GB",
         "What the KV cache really takes at this context and batch"),
        ("need_gb", "Memory needed: weights + KV cache", f"={K['weight_gb']}+{K['kv_gb']}",
         "GB", "runtime overhead comes on top (Assumptions: memory reserve)"),
        ("fits_weights", "Weights fit on one GPU?",
         f'=IF(FITS({K["weight_gb"]},{K["memory"]}),"yes","no")', None,
         "FITS(weights, GPU memory)"),
        ("fits_all", "Weights + KV cache fit on one GPU?",
         f'=IF(FITS({K["need_gb"]},{K["memory"]},{K["reserve"]}),"yes","no")', None,
         "FITS(need, GPU memory, reserve)"),
        ("gpus_needed", "GPUs needed for weights + KV cache",
         f"=GPUS_NEEDED({K['need_gb']},{K['memory']},{K['reserve']})", "gpus",
         "GPUS_NEEDED: whole GPUs to hold it (split evenly, e.g. tensor parallel)"),
        ("floor_ms", "Decode floor: weights only, batch 1, one GPU",
         f"=DECODE_FLOOR({p},{prec},{bw})", "ms_token",
         f'=IF({K["fits_weights"]}="yes","DECODE_FLOOR: weights ÷ bandwidth; the reference\'s '
         f'per-token floor","the weights do not fit on one GPU: this floor is fiction, see '
         f'the next rows")'),
        ("roof_tflops", "Compute roof used",
         f"=IF(AND(BYTES_PER_PARAM({prec})<=1,ISNUMBER({K['fp8']})),{K['fp8']},"
         f"{K['bf16']})", "tflops",
         f'=IF(ISNA({K["roof_tflops"]}),"no FLOPS figure for this GPU: math time not '
         f'counted",IF(AND(BYTES_PER_PARAM({prec})<=1,ISNUMBER({K["fp8"]})),"FP8 roof '
         f'(weights in 1 byte or less)","BF16 roof"))'),
        ("step_ms", "Decode step floor at the batch, over the GPUs needed",
         f"=IF(ISNUMBER({roof}),DECODE_FLOOR({p},{prec},{bw}*{K['gpus_needed']},"
         f"{K['batch']},{roof}*{eff}*{K['gpus_needed']},{K['kv_gb']}),"
         f"DECODE_FLOOR({p},{prec},{bw}*{K['gpus_needed']},{K['batch']},,{K['kv_gb']}))",
         "ms_token", "DECODE_FLOOR with KV cache and batch; the GPUs' bandwidth and roof "
         "(× efficiency) add up"),
        ("tps_total", "Tokens/s in total (all sequences)",
         f"=TOKENS_PER_SEC({K['step_ms']})*{K['batch']}", "tps",
         "TOKENS_PER_SEC(step) × batch: one token per sequence per step"),
        ("tps_user", "Tokens/s per user", f"=PER_USER_TPS({K['tps_total']},{K['batch']})",
         "tps", "PER_USER_TPS(total, batch): batching raises the total, not each user's"),
        ("ridge_bf16", "Ridge, BF16 datasheet", f"=RIDGE({K['bf16']},{bw})", "flop_byte",
         "RIDGE(peak, bandwidth): H100 ≈ 295 FLOP/byte"),
        ("ridge_used", "Ridge, roof used × efficiency", f"=RIDGE({roof},{bw},{eff})",
         "flop_byte", "below it memory-bound, above it compute-bound"),
        ("critical_batch", "Critical batch (decode reaches the ridge)",
         f"=CRITICAL_BATCH({roof}*{eff},{bw},{prec})", "seq",
         "CRITICAL_BATCH(roof × efficiency, bandwidth, weight precision)"),
        ("decode_intensity", "Decode intensity at the batch",
         f"=INTENSITY(2*{p}*{K['batch']},{K['weight_gb']}*1000000000)", "flop_byte",
         "INTENSITY(2 × params × batch, weight bytes)"),
        ("side", "Side of the ridge at the batch",
         f"=BOUND({K['decode_intensity']},{K['ridge_used']})", None,
         "BOUND(intensity, ridge): left of it, batching is nearly free"),
        ("cost_mtok", '=\"Cost per million tokens (\"&CURRENCY&\")\"',
         f"=COST_PER_MTOK({K['price']},{K['tps_total']},{K['gpus_needed']},UTILIZATION)",
         "money", "COST_PER_MTOK(price, tokens/s, GPUs, utilization); the Cost sheet adds "
         "traffic"),
    ]
    needs_flops = {"ridge_bf16", "ridge_used", "critical_batch", "side", "cost_mtok"}
    for key, label, formula, fmt, note in results:
        cell = K[key]
        if key in needs_flops:
            note = (f'=IF(ISERROR({cell}),"not available: the tables have no figure for it '
                    f'(FLOPS or price of this GPU)","{note}")')
        s.line(cell, label, formula, "result", fmt, note)
    for key in ("fits_weights", "fits_all"):
        yes_no_colours(s.ws, K[key])

    s.section(56, "Realistic estimates: floor ÷ the efficiency measured on Calibration")
    price = K["price"]
    realistic = [
        ("calibrated", "Efficiency used (Calibration sheet)", "=CAL_EFFICIENCY", "pct",
         "floor ÷ measured, averaged over the plausible rows of Calibration"),
        ("real_step_ms", "Realistic decode step at the batch",
         f"=ESTIMATE({K['step_ms']},{K['calibrated']})", "ms_token",
         f"ESTIMATE(floor, efficiency) = floor ÷ efficiency; the floor is in "
         f"{K['step_ms']}"),
        ("real_tps_total", "Realistic tokens/s in total",
         f"=TOKENS_PER_SEC({K['real_step_ms']})*{K['batch']}", "tps",
         "TOKENS_PER_SEC(realistic step) × batch"),
        ("real_tps_user", "Realistic tokens/s per user",
         f"=PER_USER_TPS({K['real_tps_total']},{K['batch']})", "tps",
         "PER_USER_TPS(total, batch)"),
        ("real_cost_mtok", '=\"Realistic cost per million tokens (\"&CURRENCY&\")\"',
         f"=IF(ISNUMBER({price}),COST_PER_MTOK({price},{K['real_tps_total']},"
         f"{K['gpus_needed']},UTILIZATION),\"no price\")", "money",
         "COST_PER_MTOK at the realistic rate; low / base / high bands and the tornado: "
         "Finance sheet"),
    ]
    for key, label, formula, fmt, note in realistic:
        s.line(K[key], label, formula, "result", fmt, note)
    _sizing_grids(s, n_models, n_gpus)
    return s



def _sizing_grids(s: Sheet, n_models: int, n_gpus: int):
    """The model × GPU grids under the Sizing results (see :func:`sheet_sizing`)."""
    ws = s.ws
    prec = SIZING["precision"]
    first_col = 3  # C
    last_col = first_col + n_gpus - 1
    last_letter = get_column_letter(last_col)
    for j in range(n_gpus):
        ws.column_dimensions[get_column_letter(first_col + j)].width = 9
    # column C holds the notes above (narrow, the text overflows to the right)
    top = GRID_TOP

    def block(title_row: int, title: str, kind: str):
        s.section(title_row, title, last_letter)
        head = title_row + 1
        s.put(f"A{head}", "Model  \\  GPU", "header")
        s.put(f"B{head}", "Parameters (B)", "header")
        ws.row_dimensions[head].height = 120
        for j in range(n_gpus):
            col = get_column_letter(first_col + j)
            s.put(f"{col}{head}", f"=INDEX(GPU_NAME,{j + 1})", "header")
            ws[f"{col}{head}"].alignment = Alignment(text_rotation=90, wrap_text=True,
                                                     horizontal="center", vertical="bottom")
            what = ("GPU_MEM", "GB") if kind == "fits" else ("GPU_BW", "tbps")
            s.put(f"{col}{head + 1}", f"=INDEX({what[0]},{j + 1})", "formula",
                  "#,##0\" GB\"" if kind == "fits" else '0.00" TB/s"')
        s.put(f"A{head + 1}", "GPU memory" if kind == "fits" else "GPU bandwidth", "note")
        first = head + 2
        for i in range(n_models):
            r = first + i
            s.put(f"A{r}", f"=INDEX(MODEL_NAME,{i + 1})", "formula")
            s.put(f"B{r}", f"=INDEX(MODEL_PARAMS_B,{i + 1})", "formula", "#,##0.00")
            for j in range(n_gpus):
                col = get_column_letter(first_col + j)
                if kind == "fits":
                    f = (f"=IF(FITS(WEIGHT_GB($B{r}*1000000000,{prec}),{col}${head + 1}),"
                         '"yes","no")')
                    s.put(f"{col}{r}", f, "formula")
                    ws[f"{col}{r}"].alignment = Alignment(horizontal="center")
                else:
                    f = f"=DECODE_FLOOR($B{r}*1000000000,{prec},{col}${head + 1})"
                    s.put(f"{col}{r}", f, "formula", "#,##0.0")
        return first, first + n_models - 1

    f1, l1 = block(top, "Grid 1: do the weights fit on one GPU? (weight precision above; "
                        "the KV cache needs room too)", "fits")
    yes_no_colours(ws, f"C{f1}:{last_letter}{l1}")
    top2 = l1 + 3
    f2, l2 = block(top2, "Grid 2: decode floor in ms/token (weights ÷ bandwidth, batch 1, one "
                         "GPU); grey where the weights do not fit", "floor")
    rng2 = f"C{f2}:{last_letter}{l2}"
    ws.conditional_formatting.add(rng2, FormulaRule(
        formula=[f'C{f1}="no"'], stopIfTrue=True, fill=PatternFill("solid", fgColor="D9D9D9"),
        font=Font(color="A6A6A6", italic=True)))
    ws.conditional_formatting.add(rng2, ColorScaleRule(
        start_type="num", start_value=5, start_color="63BE7B",
        mid_type="num", mid_value=30, mid_color="FFEB84",
        end_type="num", end_value=200, end_color="F8696B"))
    s.put(f"A{l2 + 2}", "Green: under 5 ms/token (200+ tokens/s per stream); yellow: about "
                        "30 ms; red: 200 ms and more. Change the weight precision in B6 "
                        "to redraw both grids.", "note")

