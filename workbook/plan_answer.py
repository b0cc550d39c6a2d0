"""The answer of the Plan sheet (``workbook.plan``): the scenario against the service
level, the layout of the table with the fewest GPUs, the scenario's figures by their
RESULT_ names, the bill over prompt and output tokens, the energy, and the notes below."""

from __future__ import annotations

from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Alignment, Font, PatternFill

from workbook.expr import Cell, Expr, F, Name, Span, Text, words
from workbook.model.bill import average_rate
from workbook.model.fleet import TOKENS_DAY
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
        formula=[F.LEFT(Cell(K["status"]), 6).eq(Text("misses")).render()],
        font=Font(color="9C0006", bold=True),
        fill=PatternFill("solid", fgColor="FFC7CE")))
    n = int(K["energy_mtok"][1:]) + 2
    for i, text in enumerate(NOTES):
        s.put(f"A{n + i}", text, "note")


def _status(sc: int, here) -> Expr:
    """Whether the scenario (row ``sc`` of the table, its layout ``here`` in words) meets
    the service level, in words."""
    e, i, batch = Cell(f"$E${sc}"), Cell(f"$I${sc}"), Name("RESULT_BATCH")
    ttft_ok = first_token_ok(i, Name("SCENARIO_FIRST_TOKEN_TARGET_MS"))
    meets = words("meets the service level: batch ", batch, " ≤ ", e, ", the largest that "
                  "fits and meets it at ", here, F.IF(F.ISNUMBER(i), Text(""), Text(
                      f"; the first token is not known ({NO_FLOPS} for this GPU)")))
    misses = words("misses the service level at ", here, " and batch ", batch, ": ", F.IF(
        e.ge(1), words(F.IF(batch.gt(e), words("the largest batch that meets it is ", e,
                                               ". "), Text("")),
                       F.IF(F.NOT(ttft_ok), words("first token ", F.ROUND(i, 0), " ms. "),
                            Text(""))), Cell(f"$L${sc}")))
    return F.IF(F.AND(e.ge(1), batch.le(e), ttft_ok), meets, misses)


def _compare(first: int, last: int) -> Expr:
    """Each degree of the table compared, in words: the layout with the fewest GPUs for
    the service level and how to take it on Sizing, or why none meets it."""
    def col(c: str):  # column ``c`` of the table
        return Span(Cell(f"${c}${first}"), Cell(f"${c}${last}"))

    gpus = col("K")
    pick = F.MATCH(F.MIN(gpus), gpus, 0)
    largest = F.MATCH(F.MAX(col("A")), col("A"), 0)
    widest, fewest = F.INDEX(col(LAYOUT_COL), largest), F.INDEX(col(LAYOUT_COL), pick)
    return F.IF(F.COUNTIF(gpus, Text(">0")).eq(0), words(
        "No degree in the table meets both targets. At ", widest, ": ",
        F.INDEX(col("L"), largest)), words(
        "fewest GPUs for the service level: ", fewest, " × ", F.INDEX(col("J"), pick),
        " replica(s) = ", F.MIN(gpus), " GPUs at batch ", F.INDEX(col("E"), pick),
        " (replicas for the peak at the planned utilization, as Sizing counts them; "
        "all-reduces counted). The headline (Sizing, RESULT_GPUS: ", Name("RESULT_GPUS"),
        " GPUs) is the scenario as typed; to take this layout there, type ",
        F.INDEX(col("A"), pick), " GPUs per replica, ", F.INDEX(col(STAGES_COL), pick),
        " pipeline stage(s) and batch ", F.INDEX(col("E"), pick), " in Sizing's scenario"))


def _answer_rows(K: dict, first: int, last: int) -> list:
    """The rows of the answer (``plan_results``): (key, label, formula, number format,
    note)."""
    tdp, pue = Cell(K["tdp"]), Cell(K["pue"])
    total = Name("RESULT_GPUS")
    avg_out = average_rate()

    def powered(e) -> Expr:  # the words without a TDP figure; "none" without traffic
        return F.IF(F.ISNUMBER(tdp), F.IF(F.AND(Name(TOKENS_DAY).gt(0)), e, Text("none")),
                    Text(NO_TDP))

    currency = Name("CURRENCY")
    return [
        ("status", "The scenario and the service level",
         _status(PLAN_SCENARIO_ROW, Cell(f"${LAYOUT_COL}${PLAN_SCENARIO_ROW}")), None, None),
        ("compare", "Each degree compared (table above)", _compare(first, last), None, None),
        ("tp", "GPUs per replica (tensor parallel × stages)", Name("RESULT_GPUS_PER_REPLICA"),
         "gpus", "the scenario's (Sizing), in SCENARIO_PIPELINE_STAGES stages"),
        ("batch", "Batch per replica", Name("RESULT_BATCH"), "seq", "the scenario's (Sizing)"),
        ("step_ms", "Decode step, realistic", Name("RESULT_STEP_MS"), "ms_token",
         "floor ÷ efficiency + the layers' time (Sizing); the table above adds the "
         "all-reduces"),
        ("tps_user", "Tokens/s per user", Name("RESULT_TOKENS_PER_SEC_PER_USER"), "tps",
         "TOKENS_PER_SEC(step)"),
        ("ttft", "First token (prefill)", Name("RESULT_FIRST_TOKEN_MS"), "ms",
         "PREFILL_MS; queueing not counted"),
        ("replicas", "Replicas", Name("RESULT_REPLICAS"), "count",
         "GPUS_FOR_DEMAND: the peak token rate ÷ (tokens/s per replica × utilization)"),
        ("gpus_total", "GPUs in total", total, "gpus", "replicas × GPUs per replica"),
        ("monthly", words("Monthly cost (", currency, ")"), Name("RESULT_MONTHLY_COST"),
         "money", "GPUs × price × hours per month: sized for the peak, paid all month"),
        ("cost_out_mtok", words("Cost per million output tokens (", currency, ")"),
         Name("RESULT_COST_PER_MTOK"), "money",
         "the month's bill ÷ the month's output tokens (the headline)"),
        ("cost_all_mtok", words("Cost per million tokens, input and output blended at the "
                                "mix (", currency, ")"), Name("RESULT_BLENDED_COST_PER_MTOK"),
         "money", "Finance's (RESULT_BLENDED_COST_PER_MTOK): the bill and the prompts' "
         "prefill on top, over prompt and output tokens"),
        ("joules_token", "Energy per output token",
         powered(F.JOULES_PER_TOKEN(total * tdp * pue, avg_out)), '0.00 "J"',
         "JOULES_PER_TOKEN(GPUs × TDP × PUE, average output tokens/s): an upper bound"),
        ("energy_mtok", "Energy per million output tokens",
         powered(F.ENERGY_PER_MTOK_KWH(total * tdp, avg_out, pue)), '#,##0.00 "kWh"',
         "ENERGY_PER_MTOK_KWH(GPUs × TDP, average output tokens/s, PUE)"),
    ]
