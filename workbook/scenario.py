"""The scenario and its answer, at the top of the Sizing sheet: the one place every sheet
reads the deployment's inputs from, and the headline figures every sheet shows.

The inputs (yellow) and the headline results are workbook-scoped defined names
(``SCENARIO_*`` and ``RESULT_*``, ``SCENARIO_NAMES`` and ``RESULT_NAMES``), so that
users' formulas and the checks refer to them by name. The names the Assumptions sheet used
to hold for the same inputs (``UTILIZATION``, ``TOKENS_PER_DAY``...) point at these cells
too (``ALIASES``), so that formulas written against them keep working.
"""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.worksheet.datavalidation import DataValidation

from udfs.inference.constants import HOURS_PER_MONTH
from workbook.estimate_range import headline_note
from workbook.expr import Cell, Column, Expr, F, Name, Text, words
from workbook.model.bill import NO_PRICE, cost_of_bill, monthly_bill, priced
from workbook.model.fleet import gpus_total, replicas
from workbook.model.gpu import figure, replica_gpus
from workbook.model.prefill import ROOF_EFFICIENCY, first_token_ms
from workbook.model.serving import SERVING_CHOICES
from workbook.model.step import (
    NO_LAYOUT,
    NO_LAYOUT_HEADS,
    layout_runs,
    model_heads_split,
    tp_comm,
)
from workbook.sheet import CURRENCY, Sheet, define_name, validate_stages

# Defaults of the scenario (the manager story)
DEFAULT_MODEL = "Llama 3.1 70B"
DEFAULT_PRECISION = "FP8"
DEFAULT_GPU = "NVIDIA H100 SXM"
#: The choices of expert parallelism: "auto" (an MoE model on more than one GPU is served
#: in the faster of the two layouts by Sizing's comparison, AUTO_EXPERT_PARALLEL), "yes"
#: (expert parallel, as TensorRT-LLM and SGLang serve MoE models at high throughput), "no"
#: (tensor parallel: every layer's all-reduces paid).
EXPERT_PARALLEL = ("auto", "yes", "no")
#: What the expert-parallel input means, on Sizing.
EXPERT_PARALLEL_MEANS = ("auto: a mixture of experts on more than one GPU is served in the "
                         "faster layout, expert or tensor parallel (the rows 'Realistic step "
                         "with expert parallelism' and 'in tensor parallel' below), the same "
                         "on every sheet; yes: experts spread over the GPUs, attention data "
                         "parallel, no all-reduce; no: tensor parallel for every model, two "
                         "all-reduces a layer (dense models and one GPU: tensor parallel)")
#: What the serving input means, on Sizing (``workbook.model.serving``).
SERVING_MEANS = ("aggregated: prefill shares the decode GPUs (vLLM, SGLang, TensorRT-LLM "
                 "by default), each step also computes batch × prompt ÷ output prompt "
                 "tokens; disaggregated: prefill runs on other GPUs, not counted here")
#: What the pipeline-stages input means, on Sizing.
STAGES_MEANS = ("1: tensor parallel only; p > 1: each stage holds 1/p of the layers on GPUs "
                "per replica ÷ p GPUs in tensor parallel, the batch in p micro-batches (the "
                "weights are read p times a step: DECODE_STEP_MS)")
#: The words of the two choices that are not numbers.
SMALLEST = "smallest that fits"
LARGEST = "largest that meets the service level"
#: The row of the Plan sheet's tensor-parallel table that holds the scenario's own degree
#: (its column E: the largest batch meeting the service level at that degree).
PLAN_SCENARIO_ROW = 58

#: The answer block, in reading order (keys of ``workbook.sizing.SIZING``).
ANSWER_KEYS = ["gpus_total", "replicas", "gpus", "batch", "monthly", "headline",
               "real_tps_user", "real_tps_total", "real_step_ms", "first_token_ms", "step_ms"]
#: The scenario's inputs, in reading order ("price" is the price in use: a formula).
SCENARIO_KEYS = ["model", "precision", "kv_precision", "gpu", "gpus_input", "stages_input",
                 "ep_input", "serving_input", "batch_input",
                 "tokens_per_step", "draft_tokens", "prompt", "output", "tokens_day", "peak_to_avg",
                 "tps_target", "ttft_target", "price_override", "price", "hours",
                 "utilization", "currency"]

#: defined name -> key of the cell it names on Sizing
SCENARIO_NAMES = {
    "SCENARIO_MODEL": "model", "SCENARIO_PRECISION": "precision",
    "SCENARIO_KV_PRECISION": "kv_precision", "SCENARIO_GPU": "gpu",
    "SCENARIO_GPUS_PER_REPLICA": "gpus_input", "SCENARIO_PIPELINE_STAGES": "stages_input",
    "SCENARIO_EXPERT_PARALLEL": "ep_input", "SCENARIO_SERVING": "serving_input",
    "SCENARIO_BATCH": "batch_input",
    "SCENARIO_TOKENS_PER_STEP": "tokens_per_step",
    "SCENARIO_DRAFT_TOKENS": "draft_tokens",
    "SCENARIO_PROMPT_TOKENS": "prompt", "SCENARIO_OUTPUT_TOKENS": "output",
    "SCENARIO_OUTPUT_TOKENS_PER_DAY": "tokens_day", "SCENARIO_PEAK_TO_AVERAGE": "peak_to_avg",
    "SCENARIO_TOKENS_PER_SEC_PER_USER_TARGET": "tps_target",
    "SCENARIO_FIRST_TOKEN_TARGET_MS": "ttft_target",
    "SCENARIO_PRICE_OVERRIDE": "price_override", "SCENARIO_PRICE_PER_GPU_HOUR": "price",
    "SCENARIO_HOURS_PER_MONTH": "hours", "SCENARIO_UTILIZATION": "utilization",
    "SCENARIO_CURRENCY": "currency",
}
RESULT_NAMES = {
    "RESULT_GPUS": "gpus_total", "RESULT_REPLICAS": "replicas",
    "RESULT_GPUS_PER_REPLICA": "gpus", "RESULT_BATCH": "batch",
    "RESULT_MONTHLY_COST": "monthly", "RESULT_COST_PER_MTOK": "headline",
    "RESULT_STEP_MS": "real_step_ms", "RESULT_FLOOR_STEP_MS": "step_ms",
    "RESULT_TOKENS_PER_SEC_PER_USER": "real_tps_user",
    "RESULT_TOKENS_PER_SEC_PER_REPLICA": "real_tps_total",
    "RESULT_FIRST_TOKEN_MS": "first_token_ms",
}
#: the names the Assumptions sheet held before the scenario -> key of the cell on Sizing
ALIASES = {"UTILIZATION": "utilization", "TOKENS_PER_DAY": "tokens_day",
           "PEAK_TO_AVG": "peak_to_avg", "HOURS_PER_MONTH": "hours", "CURRENCY": "currency",
           "PROMPT_TOKENS": "prompt", "BATCH": "batch", "CONTEXT": "context"}

#: The headline figure, named alike on every sheet that shows it.
HEADLINE = "Cost per million output tokens"
#: What the headline means, in one line.
HEADLINE_MEANS = ("the month's bill (GPUs × price × hours, sized for the peak) ÷ the month's "
                  "output tokens")
#: The unit cost of a replica busy the planned share of the time (not the bill's).
AT_UTILIZATION = ("If every GPU were busy at the planned utilization: cost per million "
                  "output tokens")


def _choice(s: Sheet, cell: str, word: str, hi: int, prompt: str, title: str):
    """Validation of a cell that takes ``word`` or a whole number from 1 to ``hi`` (empty:
    ``word``); anything else is refused."""
    test = f'OR({cell}="{word}",AND(ISNUMBER({cell}),{cell}>=1,{cell}<={hi},INT({cell})={cell}))'
    dv = DataValidation(type="custom", formula1=test, allow_blank=True)
    dv.error = f'Expected "{word}" or a whole number from 1 to {hi:,}.'
    dv.errorTitle, dv.errorStyle = "napkin: not accepted", "stop"
    dv.prompt, dv.promptTitle = prompt[:255], title[:32]
    dv.showErrorMessage = dv.showInputMessage = True
    s.ws.add_data_validation(dv)
    dv.add(cell)


def scenario_inputs(s: Sheet, K: dict, top: int):
    """The scenario's inputs (section at row ``top``), yellow, validated, each a name."""
    s.section(top, "The scenario: every sheet reads these cells (yellow: yours)")
    _chosen_inputs(s, K)
    _number_inputs(s, K)
    _price_inputs(s, K)


def _chosen_inputs(s: Sheet, K: dict) -> None:
    """The scenario's choices: model, precisions, GPU (lists), GPUs per replica, stages,
    expert parallelism, batch."""
    lists = [
        ("model", "Model", DEFAULT_MODEL, "MODEL_NAME", "A model from the Models sheet."),
        ("precision", "Weight precision", DEFAULT_PRECISION, "PRECISION_NAME",
         "Number format of the weights: BF16 = 2 bytes per parameter, FP8 = 1, INT4 = 0.5."),
        ("kv_precision", "KV cache precision", "BF16", "PRECISION_NAME",
         "Number format of the KV cache (BF16 unless your server quantises it)."),
        ("gpu", "GPU", DEFAULT_GPU, "GPU_NAME", "A GPU from the GPUs sheet."),
    ]
    for key, label, default, source, prompt in lists:
        s.line(K[key], label, default, "input", None, prompt, right=False)
        s.validate(K[key], "list", prompt, label, formula1=source)
    s.line(K["gpus_input"], "GPUs per replica (tensor parallel × pipeline stages)", SMALLEST,
           "input", "gpus", f'"{SMALLEST}": the smallest of 1, 2, 4, 8 (then whole 8-GPU '
           "nodes) a stage that holds the weights and the KV cache, × the stages; or type "
           "the GPUs (a multiple of the stages)", right=False)
    _choice(s, K["gpus_input"], SMALLEST, 64, "GPUs of one replica, all pipeline stages "
            f"together: \"{SMALLEST}\" (or empty) or a whole number from 1 to 64.",
            "GPUs per replica")
    s.line(K["stages_input"], "Pipeline stages", 1, "input", "count", STAGES_MEANS,
           right=False)
    validate_stages(s.ws, K["stages_input"], K["stages_input"], K["gpus_input"],
                    "Pipeline stages of a replica: each holds 1/stages of the layers on GPUs "
                    "per replica ÷ stages GPUs in tensor parallel. A whole number from 1 to "
                    "64 that divides the GPUs per replica.")
    label = "Expert parallel (mixture of experts)"
    s.line(K["ep_input"], label, EXPERT_PARALLEL[0], "input", None, EXPERT_PARALLEL_MEANS,
           right=False)
    s.validate(K["ep_input"], "list", "auto: an MoE model on more than one GPU in the "
               "faster layout; yes: expert parallel (no all-reduce); no: tensor parallel, "
               "two all-reduces a layer.", label[:32],
               formula1='"' + ",".join(EXPERT_PARALLEL) + '"')
    label = "Serving: prefill on these GPUs?"
    s.line(K["serving_input"], label, SERVING_CHOICES[0], "input", None, SERVING_MEANS,
           right=False)
    s.validate(K["serving_input"], "list", "aggregated: prefill shares the decode GPUs (each "
               "step carries batch × prompt ÷ output prompt tokens); disaggregated: "
               "prefill on other GPUs.", label[:32],
               formula1='"' + ",".join(SERVING_CHOICES) + '"')
    s.line(K["batch_input"], "Batch per replica (sequences decoded together)", 16, "input",
           "seq", f'a number, or "{LARGEST}" (the Plan sheet\'s search at this degree)',
           right=False)
    _choice(s, K["batch_input"], LARGEST, 100000, "Sequences decoded together per replica: "
            f"a whole number from 1 to 100,000, or \"{LARGEST}\" (or empty).", "Batch")


def _number_inputs(s: Sheet, K: dict) -> None:
    """The scenario's numbers: tokens per step, draft tokens, prompt and output, traffic,
    the service level."""
    numbers = [
        ("tokens_per_step", "Tokens per decode step (speculative decoding, MTP)", 1, "0.00",
         "decimal", 1, 64, "1 without speculation; SPEC_TOKENS_PER_STEP(acceptance, draft "
         "tokens) with it: each step's time is shared by its tokens"),
        ("draft_tokens", "Draft tokens per step, k (speculative decoding, MTP)", 0, "0",
         "whole", 0, 64, "0 without speculation; with it each step verifies k + 1 tokens a "
         "sequence (FLOPs, experts, all-reduces) and runs k draft passes of one layer"),
        ("prompt", "Prompt tokens per request", 2000, "tokens", "whole", 0, 10000000,
         "input tokens: prefill (first token) and the KV cache"),
        ("output", "Output tokens per request", 300, "tokens", "whole", 1, 10000000,
         "generated tokens; prompt + output is the context each sequence holds"),
        ("tokens_day", "Output tokens per day", 100000000, "tokens_day", "decimal", 0, 1e15,
         "all users together: the traffic the bill is divided by"),
        ("peak_to_avg", "Peak-to-average ratio", 2, "ratio", "decimal", 1, 100,
         "busiest hour's rate ÷ the daily average; capacity is sized for the peak"),
        ("tps_target", "Service level: tokens/s per user", 30, "tps", "decimal", 0.01, 100000,
         "the streaming speed each user must see (Plan; the batch search)"),
        ("ttft_target", "Service level: first token within", 1000, '#,##0 "ms"', "decimal",
         1, 10000000, "time to first token the service must meet (Plan)"),
    ]
    for key, label, default, fmt, kind, lo, hi, note in numbers:
        s.line(K[key], label, default, "input", fmt, note, right=False)
        what = "whole number" if kind == "whole" else "number"
        s.validate(K[key], kind, f"{label}: {note}. A {what} from {lo:g} to {hi:g}.",
                   label[:32], lo, hi)


def _price_inputs(s: Sheet, K: dict) -> None:
    """The price (override and in use), hours, utilization, currency."""
    s.line(K["price_override"], words("Price per GPU-hour override (", CURRENCY, ")"), None,
           "input", "money", "leave empty to use the GPUs sheet's price", right=False)
    s.validate(K["price_override"], "decimal", "Optional. Price of one GPU-hour; empty: "
               "the GPUs sheet's price. A number from 0 to 1000.", "Price override", 0, 1000)
    over = Cell(K["price_override"])
    s.line(K["price"], words("Price per GPU-hour in use (", CURRENCY, ")"),
           F.IF(F.ISNUMBER(over), over, figure("GPU_PRICE", K["gpu_row"], NO_PRICE)),
           "formula", "money",
           F.IF(F.ISNUMBER(Cell(K["price"])), F.IF(F.ISNUMBER(over), Text("the override above"),
                                                   Text("the GPUs sheet (column L)")),
                Text(f"no price on the GPUs sheet: enter one there (column L) or in "
                     f"{K['price_override']}")))
    rest = [
        ("hours", "Hours per month", HOURS_PER_MONTH, "hours", "decimal", 1, 744,
         "paid hours per GPU per month: 8,766 h a year ÷ 12"),
        ("utilization", "Utilization at the peak", 0.6, "pct", "decimal", 0.01, 1,
         "share of a replica's capacity planned to be busy at the peak (headroom for "
         "queueing and scheduling; the prompts' prefill: Serving above)"),
    ]
    for key, label, default, fmt, kind, lo, hi, note in rest:
        s.line(K[key], label, default, "input", fmt, note, right=False)
        s.validate(K[key], kind, f"{label}: {note}. A number from {lo:g} to {hi:g}.",
                   label[:32], lo, hi)
    s.line(K["currency"], "Currency label", "USD", "input", None,
           "the label of every price and cost (no conversion)", right=False)
    s.validate(K["currency"], "text", "Currency label: 1 to 12 characters.", "Currency", 1, 12)


def answer_block(s: Sheet, K: dict, top: int, realistic_step: str, tps_total: str,
                 step_floor: str):
    """The answer (section at row ``top``): the headline figures, each a RESULT_ name.
    ``realistic_step``, ``tps_total`` and ``step_floor`` are the formulas of the steps."""
    s.section(top, "The answer: what this scenario needs and costs")
    rows = answer_rows(K) + [
        ("real_tps_total", "Tokens/s per replica (realistic)", tps_total, "tps",
         "TOKENS_PER_SEC(realistic step) × batch: one token per sequence per step"),
        ("real_step_ms", "Decode step (realistic)", realistic_step, "ms_token",
         "ESTIMATE(floor, efficiency, fixed) = floor ÷ the efficiency used + the layers' "
         "fixed time used: the model's estimate × Calibration's ratio for this GPU "
         "(Realistic block below; 1 without measurements)"),
        _first_token_row(K),
        ("step_ms", "Decode step floor (datasheet peaks; for comparison)", step_floor,
         "ms_token", "DECODE_STEP_MS(weights read at the batch, KV cache, bandwidth, active "
         "params, batch, roof, attention FLOPs, GPUs per replica, all-reduces, pipeline "
         "stages) ÷ tokens per step"),
    ]
    order = {key: i for i, key in enumerate(ANSWER_KEYS)}
    for key, label, formula, fmt, note in sorted(rows, key=lambda row: order[row[0]]):
        s.line(K[key], label, formula, "result", fmt, note)


def _no_heads_split(k: dict) -> Expr:
    """The headline's words where a stage's GPUs do not divide the model's attention heads
    (vLLM's rule, ``workbook.model.step.heads_split``). ``k``: Sizing's key cells."""
    m = k["model_row"]
    return words(f"{NO_LAYOUT_HEADS} (a stage of ", k["stage_gpus"], " GPUs; ",
                 Column("MODEL_HEADS").at(m), " query and ", Column("MODEL_KV_HEADS").at(m),
                 " KV heads, which vLLM splits evenly): type GPUs per replica or pipeline "
                 "stages above so that a stage's GPUs divide them")


def answer_rows(K: dict) -> list:
    """The answer's rows from the GPUs in total to the tokens/s per user: (key, label,
    expression, number format, note)."""
    k = {key: Cell(ref) for key, ref in K.items()}  # each key cell as an expression
    tpd, hours, price, st = k["tokens_day"], k["hours"], k["price"], k["stages_input"]
    plan_batch = Cell(f"'Plan'!$E${PLAN_SCENARIO_ROW}")
    typed_gpus, typed_batch = k["gpus_input"], k["batch_input"]
    user, target = k["real_tps_user"], k["tps_target"]
    meets = user.ge(target)
    return [
        ("gpus_total", "GPUs in total", gpus_total(k["replicas"], k["gpus"]), "gpus",
         "replicas × GPUs per replica: capacity for the peak, for the scenario as typed "
         "below. Plan answers another question, the fewest GPUs that meet the service "
         "level, and says what to type here to take it"),
        ("replicas", "Replicas for the peak",
         replicas(tpd, k["real_tps_total"], k["peak_to_avg"], k["utilization"]),
         '#,##0 "replica(s)"',
         "GPUS_FOR_DEMAND(tokens/day, realistic tokens/s per replica, peak-to-average, "
         "utilization)"),
        ("gpus", "GPUs per replica (tensor parallel × stages)",
         replica_gpus(k["gpus_needed"], st, typed_gpus), "gpus",
         F.IF(F.ISNUMBER(typed_gpus), Text("the GPUs typed in the scenario"), words(
             "the smallest deployed degree that holds weights + KV cache (",
             k["gpus_needed"], " GPU(s) at least)",
             F.IF(st.gt(1), words(", a stage of ", k["gpus"] / st, " × ", st, " stages"),
                  Text(""))))),
        ("batch", "Batch per replica",
         F.IF(F.ISNUMBER(typed_batch), typed_batch, F.MAX(1, plan_batch)), "seq",
         F.IF(F.ISNUMBER(typed_batch), Text("the batch typed in the scenario"), F.IF(
             plan_batch.ge(1), Text("the largest that fits and meets the service level "
                                    f"(Plan, row {PLAN_SCENARIO_ROW})"),
             Text("no batch meets the service level at this degree: batch 1")))),
        ("monthly", words("Monthly cost (", CURRENCY, ")"),
         priced(price, monthly_bill(k["gpus_total"], price, hours)),
         "money", "MONTHLY_COST(GPUs in total, price per GPU-hour, hours per month)"),
        ("headline", words(f"{HEADLINE} (", CURRENCY, ")"),
         F.IF(layout_runs(k["stage_gpus"], k["link"]),
              F.IF(model_heads_split(k["model_row"], k["stage_gpus"], k["expert_parallel"]),
                   priced(k["monthly"], cost_of_bill(k["monthly"], tpd, hours)),
                   _no_heads_split(k)),
              Text(f"{NO_LAYOUT} (a PCIe server holds 8): type pipeline stages above to "
                   "split the replica over servers")), "money", headline_note(HEADLINE_MEANS)),
        ("real_tps_user", "Tokens/s per user (realistic)",
         F.PER_USER_TPS(k["real_tps_total"], k["batch"]), "tps",
         words("PER_USER_TPS(tokens/s per replica, batch)", F.IF(F.ISNUMBER(user), words(
             ": ", F.IF(meets, Text("meets"), Text("misses")), " the service level of ",
             target, " tokens/s per user",
             F.IF(meets, Text(""), Text(" (Plan: the batch and GPUs that meet it)"))),
             Text("")))),
    ]


def _first_token_row(K: dict) -> tuple:
    """The answer's first-token row: ``workbook.model.prefill.first_token_ms`` of the
    scenario's replica, PREFILL_MS over its roof, the weights and KV cache the prefill
    moves (``prefill_gb``) over its bandwidth, the layers' time and the all-reduces of
    the prompt's tokens (``comm_ms``'s call at the prompt)."""
    k = {key: Cell(ref) for key, ref in K.items()}
    roof = k["roof_tflops"]
    attn = k["layers"], F.INDEX(Name("MODEL_HEADS"), k["model_row"]) * k["head_dim"]
    math_ms = F.PREFILL_MS(k["active_b"] * 1000000000, k["prompt"], roof * k["gpus"],
                           ROOF_EFFICIENCY, *attn)
    comm = tp_comm(K["hidden"], k["prompt"] / k["stages_input"], k["stage_gpus"], K["link"],
                   K["layers"], K["link_kind"], K["expert_parallel"], K["domain"])
    first = first_token_ms(math_ms, k["prefill_gb"], k["bandwidth"], k["gpus"], k["layers"],
                           comm)
    return ("first_token_ms", "First token (prefill of the prompt)",
            F.IF(F.ISNUMBER(roof), first, Text("no FLOPS figure")), "ms",
            "the larger of PREFILL_MS(active params, prompt, roof × GPUs per replica, roof "
            "efficiency, attention) and the weights and KV cache the prefill moves ÷ "
            "(bandwidth × GPUs) ÷ roof efficiency, + the all-reduces of the prompt's tokens "
            "÷ roof efficiency + layers × LAYER_TIME_US; queueing not counted")


def define_scenario_names(wb: Workbook, K: dict, sheet: str = "Sizing"):
    """The SCENARIO_ and RESULT_ names and the older names (``ALIASES``)."""
    for table in (SCENARIO_NAMES, RESULT_NAMES, ALIASES):
        for name, key in table.items():
            col, row = K[key][0], K[key][1:]
            define_name(wb, name, sheet, f"${col}${row}")
    if "auto_ep" in K:  # what "auto" chooses, read by every sheet (workbook.model.step)
        define_name(wb, "AUTO_EXPERT_PARALLEL", sheet, f"${K['auto_ep'][0]}${K['auto_ep'][1:]}")
