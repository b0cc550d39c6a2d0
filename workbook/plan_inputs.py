"""The Plan sheet's inputs and what they mean (``workbook.plan`` lays the table and the
answer under them): the scenario's traffic and service level, its model, hardware and
price, the links (the user's), and the lookups and napkin functions the table reads
(rows 4..51; their keys: ``workbook.plan.PLAN``)."""

from __future__ import annotations

from workbook import sheet
from workbook.expr import Cell, Column, F, Name, Num, Text, words
from workbook.model import fleet
from workbook.model.bill import average_rate
from workbook.model.gpu import calibration_ratio, empty_says, figure, lookup, roof_used
from workbook.model.serving import attended_per_sequence, kv_sequence_gb, step_tokens
from workbook.plan_cells import SHARE, STAGES_COL, sizing_cell
from workbook.sheet import NO_FLOPS, NO_TDP, PCIE_TBPS, Sheet, decode_read, has_link
from workbook.sizing import SIZING

#: Sizing's mean context (``workbook.model.serving.mean_context``): the scenario's.
MEAN_CONTEXT = sizing_cell("mean_context")


def plan_inputs(s: Sheet, K: dict) -> None:
    """Rows 4..51 of Plan (``K``: its key cells): the traffic, the choices, what they
    mean."""
    _traffic(s, K)
    _choices(s, K)
    _what_that_means(s, K)


def _traffic(s: Sheet, K: dict) -> None:
    """Rows 4..10: the scenario's traffic and service level."""
    s.section(4, "The scenario's traffic and service level (Sizing: change them there)", "L")
    out = Name("SCENARIO_OUTPUT_TOKENS")
    average = average_rate() / out  # requests/s: output tokens a second ÷ each one's
    traffic = [
        ("peak_rps", "Requests per second, peak", average * Name(fleet.PEAK_TO_AVERAGE),
         '#,##0.00 "requests/s"',
         "output tokens per day ÷ 86,400 s ÷ output tokens per request × peak-to-average"),
        ("avg_rps", "Requests per second, average", average, '#,##0.00 "requests/s"',
         "over the month: the tokens the bill is divided by"),
        ("prompt", "Prompt tokens per request", Name("SCENARIO_PROMPT_TOKENS"), "tokens",
         "input tokens: prefill time (first token) and the KV cache"),
        ("output", "Output tokens per request", out, "tokens",
         "generated tokens: the time each request stays in flight"),
        ("ttft_ms", "First-token target", Name("SCENARIO_FIRST_TOKEN_TARGET_MS"), '#,##0 "ms"',
         "time to first token the service must meet (prefill, no queueing)"),
        ("tps_target", "Tokens per second per user, target",
         Name("SCENARIO_TOKENS_PER_SEC_PER_USER_TARGET"), "tps",
         "streaming speed each user sees"),
    ]
    for key, label, formula, fmt, note in traffic:
        s.line(K[key], label, formula, "formula", fmt, note)


def _choices(s: Sheet, K: dict) -> None:
    """Rows 12..21: the scenario's model, hardware and price; the links (the user's)."""
    s.section(12, "The scenario's model, hardware, price (Sizing); the links (yours)", "L")
    gpu = Cell(K["gpu"])
    choices = [(key, label, Name(f"SCENARIO_{key.upper()}"), None, None) for key, label in (
        ("model", "Model"), ("precision", "Weight precision"),
        ("kv_precision", "KV cache precision"), ("gpu", "GPU"))] + [
        ("efficiency", "Calibration: measured ÷ the model's estimate",
         calibration_ratio(gpu), "x",
         "this GPU's measurements on Calibration (1 without): each row and batch takes "
         "its regime's default efficiency (REGIME_EFFICIENCY, Assumptions) ÷ this and "
         "the layers' fixed time × this, as Sizing: the model's estimate × the ratio"),
        ("price", words("Price per GPU-hour (", Name("CURRENCY"), ")"),
         Name("SCENARIO_PRICE_PER_GPU_HOUR"), "money",
         "the scenario's price in use (override included)"),
    ]
    for key, label, formula, fmt, note in choices:
        s.line(K[key], label, formula, "formula", fmt, note, right=fmt is not None)
    link = Column("GPU_INTERCONNECT").at(F.MATCH(gpu, Name("GPU_NAME"), 0))
    pcie = f"{PCIE_TBPS * 1000:g}"
    s.line(K["link_gbps"], "Link bandwidth per GPU, one way",
           F.IF(has_link(link), link / 2, Num(PCIE_TBPS * 1000)), "input", '#,##0 "GB/s"',
           F.IF(has_link(link), Text("half the GPUs sheet's in + out figure (NVLink 4: 900 "
                                     "GB/s → 450); type a number to override"),
                Text(f"no interconnect figure for this GPU: PCIe 5.0 x16, {pcie} GB/s each "
                     "way; type a number to override")), right=False)
    s.validate(K["link_gbps"], "decimal", "Link bandwidth per GPU in one direction, GB/s "
               "(NCCL's bus bandwidth). A number from 1 to 100000.", "Link bandwidth", 1,
               100000)
    s.line(K["latency_us"], "Interconnect of the all-reduces (NCCL's latencies)",
           Cell(f"Sizing!{SIZING['link_kind']}"), "input", None,
           "as Sizing: NVLink where the GPUs sheet has an interconnect figure, else PCIe; "
           "NVLink 0.6, PCIe 1.0, InfiniBand 2.7 µs a ring step, 6.6 µs a call "
           "(udfs/data/interconnects.csv)", right=False)
    s.validate(K["latency_us"], "list", "The interconnect whose NCCL latencies the "
               "all-reduces pay.", "Interconnect", formula1='"NVLink,PCIe,InfiniBand"')
    s.line(K["stages"], "Pipeline stages (the scenario's)", Name("SCENARIO_PIPELINE_STAGES"),
           "formula", "count", f"the stages of the table's last row (column {STAGES_COL}); "
           "type stages in the other rows to compare tensor parallel with pipeline stages")


def _what_that_means(s: Sheet, K: dict) -> None:
    """Rows 22..51: what the scenario means, lookups and napkin functions."""
    s.section(22, "What that means (lookups and napkin functions)", "L")
    derived = _lookup_rows(K) + _derived_rows(K)
    for key, label, formula, fmt, note in derived:
        if isinstance(note, str) and note == "GPU":
            note = empty_says(Cell(K[key]), "GPU")
        s.line(K[key], label, formula, "formula", fmt, note)


def _lookup_rows(K: dict) -> list:
    """Plan's rows of what the tables say: (key, label, formula, number format, note)."""
    k = {key: Cell(v) for key, v in K.items()}
    m, g = k["model_row"], k["gpu_row"]
    heads, dims = Column("MODEL_KV_HEADS").at(m), Column("MODEL_HEAD_DIM").at(m)
    window = Column("MODEL_WINDOW").at(m)
    roof = k["roof_tflops"]
    return [
        ("model_row", "Row in the Models table", F.MATCH(k["model"], Name("MODEL_NAME"), 0),
         "row", None),
        ("gpu_row", "Row in the GPUs table", F.MATCH(k["gpu"], Name("GPU_NAME"), 0), "row",
         None),
        ("params_b", "Parameters, total", lookup("MODEL_PARAMS_B", m), "B",
         "all of them are held in memory"),
        ("active_b", "Parameters active per token", lookup("MODEL_ACTIVE_B", m),
         "B", "FLOPs per token and prefill use these (fewer in a mixture of "
         "experts)"),
        ("layers", "Layers", lookup("MODEL_LAYERS", m), "count", None),
        ("hidden", "Hidden size", lookup("MODEL_HIDDEN", m), "count",
         "Models sheet: the all-reduced activations are batch × hidden"),
        ("kv_bytes", "KV bytes per token (BF16, full context)", lookup("MODEL_KV_BYTES", m),
         "bytes", "Models column P: right for GQA and MLA"),
        ("window", "Sliding window", F.IF(F.ISNUMBER(window), window, 0), "tokens",
         "0: no sliding-window layers"),
        ("sliding", "Sliding-window layers", Column("MODEL_SLIDING_LAYERS").at(m), "count",
         None),
        ("context", "Tokens per sequence (prompt + output)", k["prompt"] + k["output"],
         "tokens", "what each sequence's KV cache holds at its end"),
        ("kv_seq_gb", "KV cache per sequence",
         kv_sequence_gb(k["kv_bytes"], k["kv_precision"], k["context"], k["sliding"],
                        k["window"], heads, dims, sheet.state_bytes(m)), "GB",
         "KV bytes per token × KV precision ÷ BF16 × tokens, sliding-window layers capped"),
        ("weight_gb", "Weights", sheet.stored_weights(k["params_b"], k["precision"], m), "GB",
         "WEIGHT_GB(params, precision): memory holds all of them"),
        ("memory", "GPU memory", lookup("GPU_MEM", g), "GB", "GPU"),
        ("bandwidth", "GPU memory bandwidth", lookup("GPU_BW", g), "tbps", "GPU"),
        ("roof_tflops", "Compute roof used",
         roof_used(k["precision"], Column("GPU_FP8").at(g), Column("GPU_BF16").at(g)),
         "tflops", F.IF(F.ISNUMBER(roof), Text("FP8 roof for weights of 1 byte or less, else "
                                               "BF16 (dense)"),
                        Text(f"{NO_FLOPS} for this GPU: the steps are memory floors and the "
                             "first token is not known"))),
        ("tdp", "GPU power (TDP)", figure("GPU_TDP", g), '#,##0 "W"',
         F.IF(F.ISNUMBER(k["tdp"]), Text(""),
              Text(f"{NO_TDP} for this GPU: the energy rows say so"))),
    ]


def _derived_rows(K: dict) -> list:
    """Plan's rows derived from the lookups (as ``_lookup_rows``)."""
    k = {key: Cell(v) for key, v in K.items()}
    m, prec = k["model_row"], k["precision"]
    expert, experts, top_k = (Column(f"MODEL_{c}").at(m) for c in ("EXPERT_B", "EXPERTS",
                                                                     "TOPK"))
    return [
        ("flops_token", "FLOPs per sequence a step",
         2 * k["active_b"] * 1000000000 * step_tokens(1, share=SHARE), '#,##0.0,,," GFLOP"',
         "2 × active parameters × (draft tokens + 1 + prompt share, Sizing): the tokens a "
         "step verifies and prefills"),
        ("reserve", "Memory reserve", Name("RESERVE"), "pct", "Assumptions"),
        ("pue", "PUE", Name("PUE"), "0.00", "Assumptions"),
        ("hours", "Hours per month", Name(fleet.HOURS), "hours", "the scenario"),
        ("step_target_ms", "Step target (ms per token per user)",
         F.MS_PER_TOKEN(k["tps_target"]), "ms_token",
         "MS_PER_TOKEN(tokens/s per user): every decode step must take at most this"),
        ("seconds_per_request", "Seconds each request is in flight",
         k["ttft_ms"] / 1000 + k["output"] / k["tps_target"], '#,##0.00 "s"',
         "first-token target + output ÷ tokens/s per user: as long as the service level "
         "allows"),
        ("concurrency", "Sequences in flight at the peak",
         F.CONCURRENCY(k["peak_rps"], k["seconds_per_request"]), '#,##0.0 "sequences"',
         "CONCURRENCY: Little's law, peak requests/s × seconds in flight"),
        ("decode_gb", "Weights a decode step reads at batch 1, R(1)",
         sheet.read_weights(decode_read(m), prec, m), "GB", "Models column V: the active "
         "weights but the input embedding table (a token reads one row of it), in the weight "
         "precision, the BF16-kept ones (column AA) at 2 B"),
        ("expert_gb", "One routed expert, all MoE layers",
         F.IF(F.ISNUMBER(expert), F.IF(expert.gt(0), F.WEIGHT_GB(expert * 1000000000, prec),
                                       0), 0), "GB",
         "Models column W; 0 for a dense model"),
        ("experts", "Routed experts per MoE layer, E",
         F.IF(F.ISNUMBER(experts), experts, 1), "count",
         "dense: 1 (the one feed-forward block, read at any batch)"),
        ("top_k", "Experts per token, k", F.IF(F.ISNUMBER(top_k), top_k, 1), "count",
         "a step of b sequences reads MOE_EXPERTS_READ(E, k, b) of them per layer"),
        ("read_all_gb", "Weights a decode step reads, every expert picked",
         k["decode_gb"] + k["expert_gb"] * (k["experts"] - k["top_k"]), "GB",
         "all weights but the input embedding table: the most a step reads"),
        ("attn_seq", "Attention FLOPs of one sequence in a step",
         F.DECODE_ATTENTION_FLOP(k["layers"], sheet.attention_dim(m),
                                 attended_per_sequence(MEAN_CONTEXT, share=SHARE), 1),
         '#,##0.000,,," GFLOP"', "DECODE_ATTENTION_FLOP("
         "layers, heads × head dim (MLA: × 544), tokens attended, 1): QKᵀ and AV of the "
         "verified tokens over the mean context and the prompt share over half the prompt, "
         "as Sizing"),
    ]


__all__ = ["plan_inputs", "MEAN_CONTEXT"]
