"""The Sizing sheet: one model on one GPU type, then the model × GPU grids."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.formatting.rule import ColorScaleRule, FormulaRule
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from workbook.sheet import (
    Sheet,
    batch_read,
    blank_or,
    decode_read,
    deployed,
    efficiency_says,
    empty_says,
    figure,
    figure_says,
    gpu_efficiency,
    lookup,
    roof_used,
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
    "window": "B20", "sliding": "B21", "max_context": "B22", "decode_b": "B23",
    "gpu_row": "B24", "memory": "B25", "bandwidth": "B26", "bf16": "B27", "fp8": "B28",
    "price": "B29", "context": "B30", "batch": "B31", "efficiency": "B32",
    "reserve": "B33",
    "weight_gb": "B36", "weight_gib": "B37", "kv_gqa_gb": "B38", "kv_factor": "B39",
    "kv_gb": "B40", "need_gb": "B41", "fits_weights": "B42", "fits_all": "B43",
    "gpus_needed": "B44", "gpus": "B45", "floor_ms": "B46", "roof_tflops": "B47",
    "step_ms": "B48", "tps_total": "B49", "tps_user": "B50", "ridge_bf16": "B51",
    "ridge_used": "B52", "critical_batch": "B53", "decode_intensity": "B54", "side": "B55",
    "cost_mtok": "B56", "read_b": "B57",
    "calibrated": "B59", "real_step_ms": "B60", "real_tps_total": "B61",
    "real_tps_user": "B62", "real_cost_mtok": "B63",
}
GRID_TOP = 66  # first row of the model x GPU grids
#: The headline figure, named alike on every sheet that shows it.
HEADLINE = "Cost per million output tokens, realistic, at planned utilization"
NO_FIGURE = "no figure"


def sheet_sizing(wb: Workbook, n_models: int, n_gpus: int) -> Sheet:
    """Sizing: one model on one GPU type; below, every model against every GPU.

    B5..B9   INPUTS: model, weight precision, GPU (dropdowns fed by the tables), KV cache
             precision, optional price override
    B12..B33 what the tables and the Assumptions say (native INDEX/MATCH lookups; a
             figure the GPU table lacks reads "no figure" and column C says so)
    B36..B57 RESULTS, each a napkin function: weights GB and GiB (all weights: memory),
             KV GB (GQA formula, then corrected for MLA / sliding window), fits, GPUs
             needed (the minimum) and GPUs per replica as deployed (tensor parallel 1, 2,
             4, 8, then whole 8-GPU nodes), decode floor (the weights a step reads at
             batch 1: MODEL_SPEC decode_params, B23), step floor at the batch over the GPUs
             per replica (the weights read at the batch, B57: MOE_EXPERTS_READ for MoE;
             the math with the active parameters), tokens/s in total and per user,
             ridges, critical batch, decode intensity and its side of the ridge, cost per
             million output tokens at the floor and the planned utilization
    B59..B63 REALISTIC, beside the floors: the efficiency used (this GPU's measurements on
             Calibration, else all measurements, else the Assumptions' stated one), the
             step ESTIMATE(floor, efficiency), tokens/s in total and per user, and the
             headline: cost per million output tokens, realistic, at planned utilization
    Row 66.. grid 1: weights fit on one GPU? (model rows × GPU columns, green/red)
             grid 2: decode floor in ms/token (weights read, batch 1, one GPU; greyed
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
        s.line(K[key], label, default, "input", None, prompt, right=False)
        s.validate(K[key], kind, prompt, label, formula1=source)
    s.line(K["price_override"], '="Price per GPU-hour override ("&CURRENCY&")"', None,
           "input", "money", "Leave empty to use the price on the GPUs sheet.", right=False)
    s.validate(K["price_override"], "decimal", "Optional. Price of one GPU-hour; empty: "
               "the GPUs sheet's price. A number from 0 to 1000.", "Price override", 0, 1000)

    s.section(11, "What the tables and assumptions say (lookups)")
    m, g = K["model_row"], K["gpu_row"]
    ctx, mx = K["context"], K["max_context"]
    lookups = [
        ("model_row", "Row in the Models table", f"=MATCH({K['model']},MODEL_NAME,0)",
         "row", "MATCH on the model name"),
        ("params_b", "Parameters, total", lookup("MODEL_PARAMS_B", m), '#,##0.00 "B"',
         "billions"),
        ("active_b", "Parameters active per token", lookup("MODEL_ACTIVE_B", m),
         '#,##0.00 "B"', f'=IF({K["active_b"]}<{K["params_b"]}*(1-0.000000001),"mixture of '
         'experts: memory holds all weights, compute per token uses these","dense: all '
         'weights are active")'),
        ("layers", "Layers", lookup("MODEL_LAYERS", m), "count", None),
        ("kv_heads", "KV heads", lookup("MODEL_KV_HEADS", m), "count", None),
        ("head_dim", "Head dim", lookup("MODEL_HEAD_DIM", m), "count", None),
        ("attention", "Attention", f"=INDEX(MODEL_ATTENTION,{m})", None, None),
        ("kv_bytes", "KV bytes per token (BF16, full context)", lookup("MODEL_KV_BYTES", m),
         "bytes", "Models column P: right for GQA and MLA"),
        ("window", "Sliding window", f"=IF(ISNUMBER(INDEX(MODEL_WINDOW,{m})),"
         f"INDEX(MODEL_WINDOW,{m}),0)", "tokens", "0: no sliding-window layers"),
        ("sliding", "Sliding-window layers", f"=IF(ISNUMBER(INDEX(MODEL_SLIDING_LAYERS,{m})),"
         f"INDEX(MODEL_SLIDING_LAYERS,{m}),0)", "count",
         None),
        ("max_context", "Longest context the model supports",
         f'=IF(ISNUMBER(INDEX(MODEL_MAX_CONTEXT,{m})),INDEX(MODEL_MAX_CONTEXT,{m}),'
         f'"{NO_FIGURE}")', "tokens", "Models sheet (max context)"),
        ("decode_b", "Weights read per decode step, batch 1", f"={decode_read(m)}",
         '#,##0.00 "B"', "Models column V (MODEL_SPEC decode_params): the active weights "
         "without the input embedding table (a token reads one row of it)"),
        ("gpu_row", "Row in the GPUs table", f"=MATCH({K['gpu']},GPU_NAME,0)", "row",
         "MATCH on the GPU name"),
        ("memory", "GPU memory", lookup("GPU_MEM", g), "GB", "GPU"),
        ("bandwidth", "Memory bandwidth", lookup("GPU_BW", g), "tbps", "GPU"),
        ("bf16", "BF16 dense peak", figure("GPU_BF16", g), "tflops", "words"),
        ("fp8", "FP8 dense peak", figure("GPU_FP8", g), "tflops", "words"),
        ("price", '="Price per GPU-hour ("&CURRENCY&")"',
         f"=IF(ISNUMBER({K['price_override']}),{K['price_override']},"
         f'IF(ISNUMBER(INDEX(GPU_PRICE,{g})),INDEX(GPU_PRICE,{g}),"no price"))', "money",
         f'=IF(ISNUMBER({K["price"]}),"override if given, else the GPUs sheet","no price on '
         f'the GPUs sheet: enter one there (column L) or in {K["price_override"]}")'),
        ("context", "Context length", "=CONTEXT", "tokens",
         f'=IF(AND(ISNUMBER({mx}),{ctx}>{mx}),"longer than the "&ROUND({mx},0)&'
         f'" tokens this model supports: lower it on Assumptions","Assumptions")'),
        ("batch", "Batch (sequences decoded together)", "=BATCH", "seq", "Assumptions"),
        ("efficiency", "Roof efficiency", "=ROOF_EFFICIENCY", "pct", "Assumptions"),
        ("reserve", "Memory reserve", "=RESERVE", "pct", "Assumptions"),
    ]
    for key, label, formula, fmt, note in lookups:
        if note == "GPU":
            note = empty_says(K[key], "GPU")
        elif note == "words":
            note = figure_says(K[key])
        s.line(K[key], label, formula, "formula", fmt, note)

    s.section(35, "Results (napkin functions)")
    p = f"{K['params_b']}*1000000000"
    a = f"{K['active_b']}*1000000000"
    prec, kvp = K["precision"], K["kv_precision"]
    bw, roof, eff, n = K["bandwidth"], K["roof_tflops"], K["efficiency"], K["gpus"]
    bf16, price = K["bf16"], K["price"]
    step_mem = (f"DECODE_FLOOR({K['read_b']}*1000000000,{prec},{bw}*{n},{K['batch']},,"
                f"{K['kv_gb']})")
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
         f'=IF(ABS({K["kv_factor"]}-1)<0.000000001,"1: the GQA formula is right for "&'
         f'{K["attention"]},{K["attention"]}&": the GQA formula over-counts; this factor '
         'corrects it")'),
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
        ("gpus_needed", "GPUs needed for weights + KV cache (the minimum)",
         f"=GPUS_NEEDED({K['need_gb']},{K['memory']},{K['reserve']})", "gpus",
         "GPUS_NEEDED: whole GPUs to hold it, split evenly"),
        ("gpus", "GPUs per replica as deployed (tensor parallel)",
         f"={deployed(K['gpus_needed'])}", "gpus",
         "tensor-parallel degree 1, 2, 4 or 8, then whole 8-GPU nodes; the rows below and "
         "the Cost and Finance sheets use this count"),
        ("floor_ms", "Decode floor: weights only, batch 1, one GPU",
         f"=DECODE_FLOOR({K['decode_b']}*1000000000,{prec},{bw})", "ms_token",
         f'=IF({K["fits_weights"]}="yes","DECODE_FLOOR: the weights a step reads (B23) ÷ '
         f'bandwidth","the weights do not fit on one GPU: this floor is fiction, see '
         f'the next rows")'),
        ("roof_tflops", "Compute roof used", "=" + roof_used(prec, K["fp8"], bf16), "tflops",
         f'=IF(ISNUMBER({roof}),IF(AND(BYTES_PER_PARAM({prec})<=1,ISNUMBER({K["fp8"]})),'
         f'"FP8 roof (weights in 1 byte or less)","BF16 roof"),"no FLOPS figure for this '
         f'GPU: math time not counted, the floors below are memory floors")'),
        ("step_ms", "Decode step floor at the batch, over the GPUs per replica",
         f"=IF(ISNUMBER({roof}),MAX({step_mem},KERNEL_TIME(2*{a}*{K['batch']},0,"
         f"{roof}*{eff}*{n},{bw}*{n})),{step_mem})",
         "ms_token", "MAX(DECODE_FLOOR(weights read at the batch, B57, with the KV cache), "
         "2 × active params × batch ÷ roof): the GPUs' bandwidth and roof (× efficiency) "
         "add up"),
        ("tps_total", "Tokens/s in total (all sequences)",
         f"=TOKENS_PER_SEC({K['step_ms']})*{K['batch']}", "tps",
         "TOKENS_PER_SEC(step) × batch: one token per sequence per step"),
        ("tps_user", "Tokens/s per user", f"=PER_USER_TPS({K['tps_total']},{K['batch']})",
         "tps", "PER_USER_TPS(total, batch): batching raises the total, not each user's"),
        ("ridge_bf16", "Ridge, BF16 datasheet",
         f'=IF(ISNUMBER({bf16}),RIDGE({bf16},{bw}),"no BF16 figure")', "flop_byte",
         "RIDGE(peak, bandwidth): H100 ≈ 295 FLOP/byte"),
        ("ridge_used", "Ridge, roof used × efficiency",
         f'=IF(ISNUMBER({roof}),RIDGE({roof},{bw},{eff}),"no FLOPS figure")',
         "flop_byte", "below it memory-bound, above it compute-bound"),
        ("critical_batch", "Critical batch (decode reaches the ridge)",
         f'=IF(ISNUMBER({roof}),CRITICAL_BATCH({roof}*{eff},{bw},{prec}),"no FLOPS figure")',
         "seq", "CRITICAL_BATCH(roof × efficiency, bandwidth, weight precision)"),
        ("decode_intensity", "Decode intensity at the batch",
         f"=INTENSITY(2*{a}*{K['batch']},WEIGHT_GB({K['read_b']}*1000000000,{prec})"
         "*1000000000)", "flop_byte",
         "INTENSITY(2 × active params × batch, bytes of the weights read at the batch)"),
        ("side", "Side of the ridge at the batch",
         f'=IF(ISNUMBER({K["ridge_used"]}),BOUND({K["decode_intensity"]},{K["ridge_used"]}),'
         '"no FLOPS figure")', None,
         "BOUND(intensity, ridge): left of it, batching is nearly free"),
        ("cost_mtok", '="Cost per million output tokens, floor, at planned utilization ("'
         '&CURRENCY&")"',
         f'=IF(ISNUMBER({price}),COST_PER_MTOK({price},{K["tps_total"]},{n},UTILIZATION),'
         '"no price")', "money", "COST_PER_MTOK(price, tokens/s, GPUs per replica, "
         "utilization) at the floor; the headline is the realistic one below"),
        ("read_b", "Weights read per decode step at the batch",
         f"={batch_read(m, K['batch'], K['decode_b'])}", '#,##0.00 "B"',
         "batch 1 reads (B23) + one routed expert's weights (Models column W) per further "
         "distinct expert, MOE_EXPERTS_READ (uniform routing); dense: the batch 1 reads"),
    ]
    words = {"ridge_bf16": "the BF16 peak of this GPU", "ridge_used": "a FLOPS figure",
             "critical_batch": "a FLOPS figure", "side": "a FLOPS figure",
             "cost_mtok": "a price for this GPU"}
    for key, label, formula, fmt, note in results:
        cell = K[key]
        if key in words:
            note = (f'=IF(ISNUMBER({cell}),"{note}","not available: the tables have no '
                    f'figure for {words[key]}")') if key != "side" else (
                    f'=IF(ISNUMBER({K["ridge_used"]}),"{note}","not available: the tables '
                    f'have no figure for {words[key]}")')
        s.line(cell, label, formula, "result", fmt, note)
    for key in ("fits_weights", "fits_all"):
        yes_no_colours(s.ws, K[key])

    s.section(58, "Realistic estimates: floor ÷ the efficiency measured on Calibration")
    realistic = [
        ("calibrated", "Efficiency used", f"={gpu_efficiency(K['gpu'])}", "pct",
         f"={efficiency_says(K['gpu'])}"),
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
        ("real_cost_mtok", f'="{HEADLINE} ("&CURRENCY&")"',
         f"=IF(ISNUMBER({price}),COST_PER_MTOK({price},{K['real_tps_total']},"
         f"{n},UTILIZATION),\"no price\")", "money",
         f'=IF(ISNUMBER({K["real_cost_mtok"]}),"the headline: COST_PER_MTOK at the '
         'realistic rate; the same figure on Cost and Finance (low / base / high, '
         'tornado)","not available: no price for this GPU (GPUs sheet, column L)")'),
    ]
    for key, label, formula, fmt, note in realistic:
        s.line(K[key], label, formula, "result", fmt, note)
    _sizing_grids(s, n_models, n_gpus)
    return s


def _sizing_grids(s: Sheet, n_models: int, n_gpus: int):
    """The model × GPU grids under the Sizing results (see ``sheet_sizing``): one row
    per slot of the Models table and one column per slot of the GPUs table, rows a user
    adds included; an empty slot stays blank."""
    ws = s.ws
    prec = SIZING["precision"]
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
        s.put(f"B{head}", "Parameters (B)" if kind == "fits" else
              "Weights read per step, batch 1 (B)", "header")
        ws.row_dimensions[head].height = 120
        for j in range(n_gpus):
            col = get_column_letter(first_col + j)
            s.put(f"{col}{head}", f"={blank_or('GPU_NAME', j + 1)}", "header")
            ws[f"{col}{head}"].alignment = Alignment(text_rotation=90, wrap_text=True,
                                                     horizontal="center", vertical="bottom")
            what = ("GPU_MEM", "GB") if kind == "fits" else ("GPU_BW", "tbps")
            s.put(f"{col}{head + 1}", f"={blank_or('GPU_NAME', j + 1, what[0])}", "formula",
                  "#,##0\" GB\"" if kind == "fits" else "0.0#")
        s.put(f"A{head + 1}", "GPU memory" if kind == "fits" else "GPU bandwidth (TB/s)",
              "note")
        first = head + 2
        for i in range(n_models):
            r = first + i
            s.put(f"A{r}", f"={blank_or('MODEL_NAME', i + 1)}", "formula")
            per = (blank_or('MODEL_NAME', i + 1, 'MODEL_PARAMS_B') if kind == "fits" else
                   f'IF(INDEX(MODEL_NAME,{i + 1})="","",{decode_read(str(i + 1))})')
            s.put(f"B{r}", f"={per}", "formula", "#,##0.00")
            for j in range(n_gpus):
                col = get_column_letter(first_col + j)
                empty = f'OR($A{r}="",{col}${head}="",NOT(ISNUMBER($B{r})))'
                if kind == "fits":
                    f = (f'=IF({empty},"",IF(FITS(WEIGHT_GB($B{r}*1000000000,{prec}),'
                         f'{col}${head + 1}),"yes","no"))')
                    s.put(f"{col}{r}", f, "formula")
                    ws[f"{col}{r}"].alignment = Alignment(horizontal="center")
                else:
                    f = (f'=IF({empty},"",DECODE_FLOOR($B{r}*1000000000,{prec},'
                         f'{col}${head + 1}))')
                    s.put(f"{col}{r}", f, "formula", "#,##0.0")
        return first, first + n_models - 1

    f1, l1 = block(top, "Grid 1: do the weights fit on one GPU? (weight precision above; "
                        "the KV cache needs room too)", "fits")
    yes_no_colours(ws, f"C{f1}:{last_letter}{l1}")
    top2 = l1 + 3
    f2, l2 = block(top2, "Grid 2: decode floor in ms/token (weights read ÷ bandwidth, batch 1, one "
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
                        "to redraw both grids. A row added to the GPUs or Models table "
                        "appears here.", "note")
    return l2 + 2
