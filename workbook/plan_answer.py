"""The answer of the Plan sheet (``workbook.plan``): the scenario against the service
level, the layout of the table with the fewest GPUs, the scenario's figures by their
RESULT_ names, the bill over prompt and output tokens, the energy, and the notes below."""

from __future__ import annotations

from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Alignment, Font, PatternFill

from udfs.constants import SECONDS_PER_DAY
from workbook.plan_cells import LAYOUT_COL, STAGES_COL, first_token_ok
from workbook.scenario import PLAN_SCENARIO_ROW
from workbook.sheet import NO_FLOPS, NO_TDP, Sheet

NOTES = [  # below the answer
    "Floors ÷ efficiency, not predictions: the step streams the weights and every sequence's "
    "KV cache at datasheet bandwidth over the t GPUs of a replica.",
    "In the table, each request is held as long as the service level allows (first-token "
    "target + output ÷ tokens/s per user): sized for the worst case the targets permit.",
    "Prefill shares the GPUs with decode in a real server (chunked prefill), and requests "
    "queue at the peak; leave headroom or lower the efficiency. Energy at TDP for every GPU "
    "all month is an upper bound.",
]


def plan_results(s: Sheet, K: dict, first: int, last: int):
    """The answer under the table of layouts (rows ``first`` .. ``last``; the last is the
    scenario's, ``PLAN_SCENARIO_ROW``): whether the scenario meets the service level, the
    layout with the fewest GPUs, the scenario's figures by their RESULT_ names, the bill
    over all tokens and the energy; ``K``: the Plan sheet's key cells."""
    top = int(K["status"][1:]) - 1
    s.section(top, "The answer: the scenario on Sizing (the same cells), and the service "
                   "level", "L")
    rows = _answer_rows(K, first, last)
    for key, label, formula, fmt, note in rows:
        s.line(K[key], label, formula, "result", fmt, note,
               right=key not in ("status", "compare"))
    for key in ("status", "compare"):
        s.ws[K[key]].alignment = Alignment(wrap_text=True, vertical="top")
        s.ws.merge_cells(f"{K[key]}:L{K[key][1:]}")
        # the comparison's sentence takes five lines as LibreOffice prints it
        s.ws.row_dimensions[int(K[key][1:])].height = 32 if key == "status" else 80
    s.ws.conditional_formatting.add(K["status"], FormulaRule(
        formula=[f'LEFT({K["status"]},6)="misses"'], font=Font(color="9C0006", bold=True),
        fill=PatternFill("solid", fgColor="FFC7CE")))
    n = int(K["energy_mtok"][1:]) + 2
    for i, text in enumerate(NOTES):
        s.put(f"A{n + i}", text, "note")


def _answer_rows(K: dict, first: int, last: int) -> list:
    """The rows of the answer (``plan_results``): (key, label, formula, number format,
    note)."""
    gpus = f"$K${first}:$K${last}"
    pick = f"MATCH(MIN({gpus}),{gpus},0)"
    none = f'COUNTIF({gpus},">0")=0'
    largest = f"MATCH(MAX($A${first}:$A${last}),$A${first}:$A${last},0)"

    def priced(formula: str, needs: list[str]) -> str:  # "none" without a figure or traffic
        test = ",".join([f"ISNUMBER({c})" for c in needs]
                        + ["SCENARIO_OUTPUT_TOKENS_PER_DAY>0"])
        return f'=IF(AND({test}),{formula},"none")'

    def powered(formula: str) -> str:  # the words without a TDP figure, else ``priced``
        return f'=IF(ISNUMBER({K["tdp"]}),{priced(formula, [])[1:]},"{NO_TDP}")'

    def at(col: str, row: str) -> str:  # column ``col`` of the table at ``row`` (a MATCH)
        return f"INDEX(${col}${first}:${col}${last},{row})"

    sc = PLAN_SCENARIO_ROW
    here, widest, fewest = f"${LAYOUT_COL}${sc}", at(LAYOUT_COL, largest), at(LAYOUT_COL, pick)
    avg_out = f"SCENARIO_OUTPUT_TOKENS_PER_DAY/{SECONDS_PER_DAY:g}"
    total = "RESULT_GPUS"
    ttft_ok = first_token_ok(f"$I${sc}", "SCENARIO_FIRST_TOKEN_TARGET_MS")
    return [
        ("status", "The scenario and the service level",
         f'=IF(AND($E${sc}>=1,RESULT_BATCH<=$E${sc},{ttft_ok}),'
         f'"meets the service level: batch "&RESULT_BATCH&" ≤ "&$E${sc}&", the largest that '
         f'fits and meets it at "&{here}&IF(ISNUMBER($I${sc}),"","; the first token is '
         f'not known ({NO_FLOPS} for this GPU)"),"misses the service level at "&{here}&'
         f'" and batch "&RESULT_BATCH&": "&IF($E${sc}>=1,IF(RESULT_BATCH>$E${sc},"the largest '
         f'batch that meets it is "&$E${sc}&". ","")&IF(NOT({ttft_ok}),'
         f'"first token "&ROUND($I${sc},0)&" ms. ",""),$L${sc}))', None, None),
        ("compare", "Each degree compared (table above)",
         f'=IF({none},"No degree in the table meets both targets. At "&{widest}&": "&'
         f'{at("L", largest)},"fewest GPUs for the service level: "&{fewest}&" × "&'
         f'{at("J", pick)}&" replica(s) = "&MIN({gpus})&" GPUs at batch "&{at("E", pick)}&'
         '" (replicas for the peak at the planned utilization, as Sizing counts them; '
         'all-reduces counted). The headline (Sizing, RESULT_GPUS: "&RESULT_GPUS&" GPUs) is '
         f'the scenario as typed; to take this layout there, type "&{at("A", pick)}&" GPUs '
         f'per replica, "&{at(STAGES_COL, pick)}&" pipeline stage(s) and batch "&'
         f'{at("E", pick)}&" in Sizing\'s scenario")',
         None, None),
        ("tp", "GPUs per replica (tensor parallel × stages)", "=RESULT_GPUS_PER_REPLICA",
         "gpus", "the scenario's (Sizing), in SCENARIO_PIPELINE_STAGES stages"),
        ("batch", "Batch per replica", "=RESULT_BATCH", "seq", "the scenario's (Sizing)"),
        ("step_ms", "Decode step, realistic", "=RESULT_STEP_MS", "ms_token",
         "floor ÷ efficiency + the layers' time (Sizing); the table above adds the "
         "all-reduces"),
        ("tps_user", "Tokens/s per user", "=RESULT_TOKENS_PER_SEC_PER_USER", "tps",
         "TOKENS_PER_SEC(step)"),
        ("ttft", "First token (prefill)", "=RESULT_FIRST_TOKEN_MS", "ms",
         "PREFILL_MS; queueing not counted"),
        ("replicas", "Replicas", "=RESULT_REPLICAS", "count",
         "GPUS_FOR_DEMAND: the peak token rate ÷ (tokens/s per replica × utilization)"),
        ("gpus_total", "GPUs in total", f"={total}", "gpus", "replicas × GPUs per replica"),
        ("monthly", '="Monthly cost ("&CURRENCY&")"', "=RESULT_MONTHLY_COST", "money",
         "GPUs × price × hours per month: sized for the peak, paid all month"),
        ("cost_out_mtok", '="Cost per million output tokens ("&CURRENCY&")"',
         "=RESULT_COST_PER_MTOK", "money",
         "the month's bill ÷ the month's output tokens (the headline)"),
        ("cost_all_mtok", '="Cost per million tokens, input and output blended at the mix ("'
         '&CURRENCY&")"', "=RESULT_BLENDED_COST_PER_MTOK", "money",
         "Finance's (RESULT_BLENDED_COST_PER_MTOK): the bill and the prompts' prefill on "
         "top, over prompt and output tokens"),
        ("joules_token", "Energy per output token",
         powered(f"JOULES_PER_TOKEN({total}*{K['tdp']}*{K['pue']},{avg_out})"), '0.00 "J"',
         "JOULES_PER_TOKEN(GPUs × TDP × PUE, average output tokens/s): an upper bound"),
        ("energy_mtok", "Energy per million output tokens",
         powered(f"ENERGY_PER_MTOK_KWH({total}*{K['tdp']},{avg_out},{K['pue']})"),
         '#,##0.00 "kWh"',
         "ENERGY_PER_MTOK_KWH(GPUs × TDP, average output tokens/s, PUE)"),
    ]
