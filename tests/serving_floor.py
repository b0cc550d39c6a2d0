"""The decode floor of each published serving measurement (``data/serving_measurements.csv``).

One function, ``floor``, turns a row of the measurement set into the floor of its
deployment with napkin's own functions: the step (``udfs.inference.timing.decode_step_ms``)
over the GPUs of the replica, the experts the batch touches
(``udfs.inference.memory.moe_decode_params``),
the attention's products (``udfs.inference.timing.decode_attention_flop``), the tensor-parallel
all-reduces with the latency of their interconnect (``udfs.inference.serving.tp_comm_ms``,
``udfs.inference.interconnects``: NCCL's ring model), divided by the tokens each step yields. With
speculative decoding (``draft_tokens`` γ) a step verifies B × (γ + 1) tokens: the FLOPs,
the experts they touch, the attention's products and the all-reduces' bytes are those
of B × (γ + 1) tokens, the KV cache the B sequences' own (``workbook.speculation``), and
the layers' time counts γ draft passes of one layer more.
The step is the template's (``workbook.model.serving``): it reads each sequence's KV cache
at the mean context, prompt + output ÷ 2, as many copies of it as a tensor-parallel stage
holds (GPUs ÷ KV heads, one latent head for MLA; one with the attention data parallel),
and where prefill shares the GPUs (the row's ``serving`` "aggregated") its matmuls,
attention and all-reduces also carry the prompt ÷ output prompt tokens a sequence that
the arriving requests bring (their experts left out: a prompt's chunk reads them once).
Every other figure is a datasheet peak or a lower bound; the all-reduces' latency is
NCCL's model of its own ring, which custom all-reduce kernels can beat, so the step is
the floor of a deployment on NCCL's ring, and the test that it stays below every
measurement checks that term too. Where a source leaves the batch out
(maximum-throughput runs), the batch is the most that memory holds, each sequence at its
full context (no memory held back), the batch with the lowest floor per token.

``python tests/serving_floor.py`` rewrites what the set makes (``write_data_files``).
"""

from __future__ import annotations

import csv
import math
import re
import statistics
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from udfs.inference import interconnects, memory, precisions, regimes, serving, tables, timing

MEASUREMENTS = Path(__file__).parent / "data" / "serving_measurements.csv"

#: The GPU table's column of peak compute for the precision the weights' matmuls run in.
PEAK_COLUMN = {"BF16": "bf16_dense_TFLOPS", "FP8": "fp8_dense_TFLOPS",
               "MXFP4": "fp4_dense_TFLOPS", "NVFP4": "fp4_dense_TFLOPS"}
#: Where a GPU has no peak for the weights' format (MXFP4 on a Hopper GPU, which has no
#: FP4 units), the next format down it has: the highest peak it offers, a lower floor.
PEAK_FALLBACK = ("fp4_dense_TFLOPS", "fp8_dense_TFLOPS", "bf16_dense_TFLOPS")
#: Elements of a cached key of absorbed MLA (512 latent + 64 rope) and of its value.
MLA_KEY, MLA_VALUE = 576, 512


@dataclass(frozen=True)
class Floor:
    """The floor of one measurement and what it is made of (times in ms)."""

    batch: float  # sequences per replica (the source's, or the most memory holds)
    step_ms: float  # the decode step floor
    token_ms: float  # per stream: step ÷ tokens per step
    measured_ms: float  # per stream, measured
    comm_ms: float  # the all-reduces' share of the step
    layers: float  # the layers a step runs: the model's + one a draft pass (the per-layer
    # time counts them)
    tokens_per_step: float  # tokens each step yields (the source's acceptance)
    weights_ms: float = 0.0  # the step's terms: the weights read, W ÷ g·BW
    kv_ms: float = 0.0  # the KV cache read or the attention's products, the larger
    compute_ms: float = 0.0  # the weights' matmuls, 2·N_act·B ÷ g·P

    @property
    def efficiency(self) -> float:
        """floor ÷ measured: the share of the floor the deployment reached."""
        return self.token_ms / self.measured_ms


@cache
def _file_rows() -> tuple[dict, ...]:
    """The measurement file, read once."""
    with MEASUREMENTS.open(encoding="utf-8") as f:
        return tuple(csv.DictReader(f))


def all_rows() -> list[dict]:
    """Every row of the measurement file, those that leave the set included (each a
    fresh dict: a caller may change it)."""
    return [dict(r) for r in _file_rows()]


def rows() -> list[dict]:
    """The measurement set: the rows of the file but those the twin rule takes out
    (``contradicted``), one dict of text per row."""
    out = contradicted()
    return [r for r in all_rows() if r["id"] not in out]


#: The columns that name one configuration of one table of a source: rows equal in all of
#: them are twins (the same deployment measured on another GPU or in another precision).
TWIN_KEY = ("source_url", "model", "gpus", "parallelism", "batch", "input_tokens",
            "output_tokens", "tokens_per_step", "draft_tokens")


def contradicted() -> dict[str, str]:
    """``_contradicted``, made once (the file and the tables do not change in a run)."""
    return dict(_contradicted())


@cache
def _contradicted() -> dict[str, str]:
    """The rows that leave the set, and why (row id → reason): every row whose own figure,
    or a twin's (the same source's same configuration, ``TWIN_KEY``: model, GPUs,
    parallelism, batch, prompt and output lengths, on another GPU or precision), is
    faster than its floor. The floor is a lower bound of any deployment, so a figure
    below it says the configuration is not what the source states (its batch, most
    often), and the same statement stands behind each twin's figure.

    Applied alike to every row of every source; the rows stay in the file, with the
    reason in their ``left_out`` column (checked by the tests).
    """
    everything = all_rows()
    floors = {r["id"]: floor(r) for r in everything}
    below = {i for i, f in floors.items() if f.token_ms >= f.measured_ms}
    out = {}
    for r in everything:
        key = tuple(r[k] for k in TWIN_KEY)
        twins = [t for t in everything if tuple(t[k] for k in TWIN_KEY) == key]
        culprits = sorted(t["id"] for t in twins if t["id"] in below)
        if r["id"] in below:
            out[r["id"]] = "its figure is faster than its floor"
        elif culprits:
            out[r["id"]] = "its twin " + ", ".join(culprits) + " is faster than its floor"
    return out


def _tp(row: dict) -> int:
    """Tensor-parallel degree of the all-reduces: TPn, unless attention is data-parallel."""
    m = re.match(r"TP(\d+)", row["parallelism"])
    return int(m.group(1)) if m and row["expert_parallel"] == "0" else 1


def kv_sequence_gb(m: dict, kv_token_gb: float, tokens: float, windowed: bool) -> float:
    """One sequence's KV cache at ``tokens`` [GB]: every layer's at every token, or with
    ``windowed`` the template's rule (``workbook.model.serving.kv_sequence_gb``): its
    sliding-window or chunked-local layers hold at most their window, and a hybrid's
    recurrent state is added (``decode_candidates`` judges it: candidate C6)."""
    if not windowed:
        return tokens * kv_token_gb
    gb = tokens * kv_token_gb
    if m["sliding_layers"] and tokens > 0:
        share = (float(m["sliding_layers"]) * 4 * float(m["num_kv_heads"])
                 * float(m["head_dim"]) / float(m["kv_bytes_per_token"]))
        gb *= 1 - share * max(0.0, tokens - float(m["sliding_window"])) / tokens
    return gb + float(m["recurrent_state_bytes"]) / 1e9


def floor(row: dict, windowed: bool = False) -> Floor:
    """The floor of a measurement row (see the module's docstring); ``windowed``: the KV
    cache as ``kv_sequence_gb`` reads it with windows (candidate C6, not the default)."""
    m = tables.models()[row["model"]]
    g = tables.gpus()[row["gpu"]]
    gpus = float(row["gpus"])
    bandwidth = float(g["memory_bandwidth_TBps"])
    columns = PEAK_FALLBACK[PEAK_FALLBACK.index(PEAK_COLUMN[row["precision"]]):] \
        if PEAK_COLUMN[row["precision"]] in PEAK_FALLBACK else (PEAK_COLUMN[row["precision"]],)
    peak = float(next(g[c] for c in columns if g[c]))
    per_param = precisions.bytes_per_param(row["precision"])
    prompt, output = float(row["input_tokens"]), float(row["output_tokens"])
    context = prompt + output / 2  # the mean context a step reads
    kv_token_gb = (float(m["kv_bytes_per_token"]) / 2
                   * precisions.bytes_per_param(row["kv_precision"]) / 1e9)
    if row["batch"]:
        batch = float(row["batch"])
    else:  # memory holds every sequence at its full context
        stored = memory.weight_gb(float(m["params"]), per_param)
        batch = serving.max_batch(float(g["memory_GB"]), stored,
                                  kv_sequence_gb(m, kv_token_gb, prompt + output, windowed),
                                  0.0, gpus)
    drafts = float(row["draft_tokens"] or 0)  # not stated: none counted, a lower floor
    # prompt tokens a step carries per sequence where prefill shares the GPUs
    share = prompt / output if output > 0 and serving_of(row) == "aggregated" else 0.0
    computed = batch * (1 + drafts + share)  # the tokens the step's matmuls compute
    read = float(m["decode_params"])
    if float(m["expert_params"] or 0):
        # the experts the decoded tokens pick: a prompt's prefill reads its experts once
        # in O ÷ B steps, left out (a floor)
        read = memory.moe_decode_params(read, float(m["expert_params"]),
                                        float(m["num_experts"]),
                                        float(m["experts_per_token"]), batch * (1 + drafts))
    heads = float(m["num_attention_heads"])
    attn_dim = (heads * (MLA_KEY + MLA_VALUE) / 2 if m["attention"] == "MLA"
                else heads * float(m["head_dim"]))
    layers = float(m["num_layers"])
    tp = _tp(row)
    comm = 0.0
    if tp > 1:
        link = float(g["interconnect_GBps"]) / 2 / 1000  # one direction, TB/s
        name = row["tp_interconnect"]
        comm = serving.tp_comm_ms(float(m["hidden_size"]), computed, tp, link, layers, 2.0, 2.0,
                                  interconnects.hop_latency_us(name),
                                  interconnects.base_latency_us(name))
    # the KV cache as a tensor-parallel stage holds it: once a KV head, whole on every GPU
    # for MLA (one latent head); once with the attention data parallel
    kv_heads = 1.0 if m["attention"] == "MLA" else float(m["num_kv_heads"])
    copies = tp / min(tp, kv_heads)
    attended = (1 + drafts) * context + share * prompt / 2  # a sequence's queries, together
    weights_gb = memory.weight_gb(read, per_param)
    kv_gb = batch * kv_sequence_gb(m, kv_token_gb, context, windowed) * copies
    attention = timing.decode_attention_flop(layers, attn_dim, attended, batch)
    step = timing.decode_step_ms(weights_gb, kv_gb, bandwidth, float(m["active_params"]),
                                 computed, peak, attention, gpus, comm)
    tokens = float(row["tokens_per_step"])
    flop_ms = gpus * peak * 1e9  # FLOPs a millisecond of the replica
    return Floor(batch, step, step / tokens, measured_ms(row, batch), comm, layers + drafts,
                 tokens, weights_gb / (gpus * bandwidth),
                 max(kv_gb / (gpus * bandwidth), attention / flop_ms),
                 2 * float(m["active_params"]) * computed / flop_ms)


def serving_of(row: dict) -> str:
    """Whether prefill shares the row's GPUs: its ``serving`` column, "aggregated" (the
    engines' default: each step also computes the prompts of arriving requests) or
    "disaggregated" (the GPUs measured only decode)."""
    if row["serving"] not in ("aggregated", "disaggregated"):
        raise ValueError(f"row {row['id']}: serving is {row['serving']!r}, not aggregated "
                         "or disaggregated")
    return row["serving"]


def measured_ms(row: dict, batch: float) -> float:
    """Measured ms per output token of one stream: the inter-token latency, the latency of
    one batch ÷ its output tokens, 1000 ÷ the tokens/s a user sees, or the batch ÷ the
    replica's tokens/s."""
    if row["itl_ms"]:
        return float(row["itl_ms"])
    if row["batch_latency_ms"]:
        return float(row["batch_latency_ms"]) / float(row["output_tokens"])
    if row["tokens_per_sec_user"]:
        return 1000 / float(row["tokens_per_sec_user"])
    return 1000 * batch / float(row["tokens_per_sec_total"])


def regime_of(row: dict, f: Floor) -> str:
    """The regime napkin's rule gives the row's deployment."""
    return regimes.serving_regime(float(row["gpus"]), f.batch, row["expert_parallel"] == "1")


def fixed_ms(f: Floor, layer_us: float) -> float:
    """The per-layer time of a row's step per token: layers × ``layer_us`` ÷ tokens per
    step (``udfs.inference.regimes.layer_overhead_ms``) [ms]."""
    return regimes.layer_overhead_ms(f.layers, f.tokens_per_step, layer_us)


def realistic_ms(row: dict, f: Floor, a: dict | None = None,
                 layer_us: float | None = None) -> float:
    """The realistic time per token of a row: its floor ÷ the efficiency of the anchors
    ``a`` (``regimes.anchors()``'s form; default the regimes' own) at its GPUs and batch,
    plus its layers × ``layer_us`` (default ``regimes.layer_time_us()``) per step."""
    a = regimes.anchors() if a is None else a
    layer_us = regimes.layer_time_us() if layer_us is None else layer_us
    e = regimes.interpolate(a, float(row["gpus"]), f.batch,
                            1.0 if row["expert_parallel"] == "1" else 0.0)
    return f.token_ms / e + fixed_ms(f, layer_us)


#: Ways to make a regime's anchor efficiency from its rows' floor ÷ (measured − the
#: per-layer time), compared in ``docs/measurements.md``: the geometric middle of the
#: extremes, √(low × high), the value whose worst ratio over the rows, √(high ÷ low), is
#: the smallest; the geometric mean; and the median, the rule of ``udfs.inference.regimes``
#: (``RULE``).
RULES = {
    "middle_of_extremes": lambda effs: math.sqrt(min(effs) * max(effs)),
    "geometric_mean": lambda effs: math.exp(statistics.fmean(math.log(e) for e in effs)),
    "median": statistics.median,
}
#: The rule ``udfs/data/efficiency.csv`` is made by.
RULE = "geometric_mean"
#: The regimes whose rows the per-layer time is made from: at a small batch the step is
#: the weights (and the all-reduces), so floor and layers vary apart across the rows.
LAYER_REGIMES = ("small_batch", "tp8_small_batch")


def derived_layer_time_us(subset: list[dict] | None = None) -> float:
    """The per-layer time made from the small-batch rows of ``subset`` (default the whole
    set), to the three significant figures ``udfs/data/layer_time.csv`` keeps [µs].

    Each row's measured step S (per token × tokens per step) is taken as F ÷ e + L × t:
    its floor step F over an efficiency e, plus its L layers × t. The pair (1/e, t) is the
    least-squares fit in relative error, min Σ ((F/e + L·t − S) ÷ S)², over the rows of
    ``LAYER_REGIMES``: the 2 × 2 normal equations in u = F/S and v = L/S, solved by hand.
    Only t is kept: each regime's efficiency is then made by ``RULE`` (``derived_anchors``).
    """
    uu = uv = vv = u1 = v1 = 0.0
    for row in rows() if subset is None else subset:
        f = floor(row)
        if regime_of(row, f) not in LAYER_REGIMES:
            continue
        step = f.measured_ms * f.tokens_per_step
        u, v = f.step_ms / step, f.layers / step
        uu, uv, vv, u1, v1 = uu + u * u, uv + u * v, vv + v * v, u1 + u, v1 + v
    t_ms = (uu * v1 - uv * u1) / (uu * vv - uv * uv)  # Cramer's rule for t
    return float(f"{t_ms * 1000:.3g}")


def derived_anchors(subset: list[dict] | None = None, rule: str = RULE,
                    layer_us: float | None = None) -> dict[str, dict[str, float]]:
    """Each regime's anchor made from the rows ``subset`` (default the whole set): the
    efficiency by ``rule`` (a name of ``RULES``; default ``RULE``) over its rows' floor ÷
    (measured − the per-layer time made from the same rows, ``derived_layer_time_us``,
    unless ``layer_us`` gives it), the GPUs and batches the range its rows span."""
    subset = rows() if subset is None else subset
    layer_us = derived_layer_time_us(subset) if layer_us is None else layer_us
    by: dict[str, list[tuple[float, float, float]]] = {}
    for row in subset:
        f = floor(row)
        e = f.token_ms / (f.measured_ms - fixed_ms(f, layer_us))
        by.setdefault(regime_of(row, f), []).append((e, float(row["gpus"]), f.batch))
    out = {}
    for k, v in by.items():
        effs, gpus, batches = zip(*v, strict=True)
        out[k] = {"efficiency": RULES[rule](effs),
                  "gpus_low": min(gpus), "gpus_high": max(gpus),
                  "batch_low": min(batches), "batch_high": max(batches)}
    return out


def derived_efficiencies() -> dict[str, float]:
    """Each regime's anchor efficiency made from the whole set (``derived_anchors``)."""
    return {k: a["efficiency"] for k, a in derived_anchors().items()}


def in_sample(rule: str = RULE) -> dict[str, float]:
    """Each row's realistic ÷ measured against the anchors ``rule`` makes from the whole
    set, with the whole set's per-layer time (row id → ratio)."""
    layer_us = derived_layer_time_us()
    a = derived_anchors(rule=rule, layer_us=layer_us)
    out = {}
    for row in rows():
        f = floor(row)
        out[row["id"]] = realistic_ms(row, f, a, layer_us) / f.measured_ms
    return out


def out_of_sample_ratios(rule: str = RULE) -> list[tuple[str, str, float]]:
    """Each row predicted from the other sources alone, as ``leave_one_source_out``
    judges it: (id, regime, measured ÷ realistic) of every row judged, realistic made
    with the anchors and the per-layer time of ``rule`` without the row's source."""
    everything = rows()
    whole = derived_anchors(everything, rule)
    out = []
    for source in sorted({r["source"] for r in everything}):
        rest = [r for r in everything if r["source"] != source]
        layer_us = derived_layer_time_us(rest)
        others = derived_anchors(rest, rule, layer_us)
        a = {**whole, **others}
        for row in (r for r in everything if r["source"] == source):
            f = floor(row)
            if regime_of(row, f) in others:
                out.append((row["id"], regime_of(row, f),
                            f.measured_ms / realistic_ms(row, f, a, layer_us)))
    return out


def estimate_range(rule: str = RULE) -> dict:
    """The range of the realistic estimate by regime: the measured ÷ realistic of the
    regime's rows, each predicted without its source (``out_of_sample_ratios``), with
    ⌊n ÷ 10⌋ of its n rows cut at each end, so that at least 80 % of them lie inside (an
    interpolated 10th–90th percentile would leave the ends of 7 or 8 rows outside):
    regime → (low, high, rows)."""
    by: dict[str, list[float]] = {}
    for _, regime, q in out_of_sample_ratios(rule):
        by.setdefault(regime, []).append(q)
    out = {}
    for regime, qs in sorted(by.items()):
        qs.sort()
        cut = len(qs) // 10
        out[regime] = (qs[cut], qs[len(qs) - 1 - cut], len(qs))
    return out


def leave_one_source_out(rule: str = RULE) -> list[tuple[str, int, int, int, float]]:
    """Out-of-sample check of the defaults: each source's rows against the anchors and the
    per-layer time made by ``rule`` (a name of ``RULES``) from the other sources' rows
    alone (``out_of_sample_ratios``).

    A regime that only the source left out measures keeps the whole set's anchor (the
    efficiency needs all five), and the source's rows in it are not judged.

    Returns
    -------
    One (source, its rows, rows judged, rows judged within 1.5×, the worst ratio realistic
    ÷ measured of those judged: furthest from 1 either way, or nan) per source.
    """
    everything = rows()
    judged = {i: 1 / q for i, _, q in out_of_sample_ratios(rule)}  # realistic ÷ measured
    out = []
    for source in sorted({r["source"] for r in everything}):
        own = [r for r in everything if r["source"] == source]
        ratios = [judged[r["id"]] for r in own if r["id"] in judged]
        inside = sum(1 / 1.5 <= r <= 1.5 for r in ratios)
        worst = max(ratios, key=lambda r: max(r, 1 / r)) if ratios else math.nan
        out.append((source, len(own), len(ratios), inside, worst))
    return out


def markdown_table() -> str:
    """The set as the table of ``docs/measurements.md`` shows it, with floor ÷ measured
    and realistic (floor ÷ REGIME_EFFICIENCY + the layers' time) ÷ measured."""
    lines = ["| id | model | weights | GPUs | parallelism | batch | in / out | tokens per step "
             "| measured | software | regime | floor ÷ measured | realistic ÷ measured "
             "| source (date) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows():
        f = floor(r)
        if r["itl_ms"]:
            measured = f"{r['itl_ms']} ms per token (ITL)"
        elif r["batch_latency_ms"]:
            measured = f"{float(r['batch_latency_ms']):,g} ms per batch (latency)"
        elif r["tokens_per_sec_user"]:
            measured = f"{r['tokens_per_sec_user']} tokens/s per user"
        else:
            measured = f"{int(r['tokens_per_sec_total']):,} tokens/s in all"
        batch = f"{int(r['batch']):,}" if r["batch"] else f"({int(f.batch):,}: memory)"
        host = r["source_url"].split("/")[2]
        lines.append(
            f"| {r['id']} | {r['model']} | {r['precision']} | {r['gpus']} × "
            f"{r['gpu'].removeprefix('NVIDIA ')} | {r['parallelism']} | {batch} | "
            f"{r['input_tokens']} / {r['output_tokens']} | {r['tokens_per_step']} | {measured} "
            f"| {r['software']} | {r['regime']} | {f.efficiency:.3f} | "
            f"{realistic_ms(r, f) / f.measured_ms:.2f} | "
            f"[{host}]({r['source_url']}) ({r['source_date']}) |")
    return "\n".join(lines) + "\n"


def out_of_sample_table() -> str:
    """``leave_one_source_out`` as the table of ``docs/measurements.md``."""
    lines = ["| source left out | its rows | judged | within 1.5× | worst realistic ÷ "
             "measured |", "|---|---|---|---|---|"]
    for source, n, judged, inside, worst in leave_one_source_out():
        shown = "" if math.isnan(worst) else f"{worst:.2f}"
        lines.append(f"| {source} | {n} | {judged} | {inside} | {shown} |")
    return "\n".join(lines) + "\n"


#: The kinds of deployment the set is asked to span, each a test on a row: name →
#: predicate (batch per GPU of wide expert parallelism: low ≤ 32, middle 33–256, maximum
#: above, a batch the source leaves out being the most memory holds).
def _per_gpu(row: dict) -> float:
    return floor(row).batch / float(row["gpus"])


CATEGORIES = {
    "one GPU, at most 8 sequences": lambda r: r["gpus"] == "1" and floor(r).batch <= 8,
    "one GPU, more than 8 sequences": lambda r: r["gpus"] == "1" and floor(r).batch > 8,
    "TP2 to TP8, more than 8 sequences": lambda r: r["regime"] == "throughput_tp",
    "batch 1 on 4 to 8 GPUs": lambda r: r["batch"] == "1" and 4 <= float(r["gpus"]) <= 8,
    "wide MoE (EP), low batch per GPU": lambda r: r["expert_parallel"] == "1"
    and _per_gpu(r) <= 32,
    "wide MoE (EP), middle batch per GPU": lambda r: r["expert_parallel"] == "1"
    and 32 < _per_gpu(r) <= 256,
    "wide MoE (EP), maximum batch per GPU": lambda r: r["expert_parallel"] == "1"
    and _per_gpu(r) > 256,
    "AMD CDNA3 (MI300X, MI325X)": lambda r: r["gpu"] in ("AMD Instinct MI300X",
                                                         "AMD Instinct MI325X"),
    "AMD CDNA4 (MI350X, MI355X)": lambda r: r["gpu"] in ("AMD Instinct MI350X",
                                                         "AMD Instinct MI355X"),
    "Blackwell (B200, GB200, B300, GB300)": lambda r: "B200" in r["gpu"] or "B300" in r["gpu"],
    "prompt-heavy aggregated (≥ 4 prompt tokens an output token)": lambda r:
    r["serving"] == "aggregated" and float(r["output_tokens"]) > 0
    and float(r["input_tokens"]) >= 4 * float(r["output_tokens"]),
    "long context (≥ 32K tokens)": lambda r:
    float(r["input_tokens"]) + float(r["output_tokens"]) >= 32768,
    "speculative decoding": lambda r: float(r["tokens_per_step"]) != 1,
    "disaggregated (decode-only GPUs)": lambda r: r["serving"] == "disaggregated",
}


def judged_by(label_of) -> dict[str, dict]:
    """In-sample and leave-one-source-out realistic ÷ measured, grouped by ``label_of(row)``
    (a list of labels): label → {"rows", "in" (ratios), "out" (ratios)}."""
    ins = in_sample()
    out = {i: 1 / q for i, _, q in out_of_sample_ratios()}
    groups: dict[str, dict] = {}
    for row in rows():
        for label in label_of(row):
            g = groups.setdefault(label, {"rows": 0, "in": [], "out": []})
            g["rows"] += 1
            g["in"].append(ins[row["id"]])
            if row["id"] in out:
                g["out"].append(out[row["id"]])
    return groups


def side_by_side_table() -> str:
    """In sample and out of sample side by side, overall, by regime and by ``CATEGORIES``:
    rows, within 1.2× and 1.5× each way, and the worst realistic ÷ measured (furthest
    from 1), as ``docs/measurements.md`` shows it."""
    def worst(qs):
        return f"{max(qs, key=lambda q: max(q, 1 / q)):.2f}" if qs else ""

    def within(qs, k):
        return sum(1 / k <= q <= k for q in qs)

    lines = ["| rows of | rows | within 1.2× in / out | within 1.5× in / out "
             "| worst in / out |", "|---|---|---|---|---|"]
    order = [lambda r: ["all"], lambda r: [f"regime {r['regime']}"],
             lambda r: [k for k, test in CATEGORIES.items() if test(r)]]
    for label_of in order:
        for label, g in judged_by(label_of).items():
            lines.append(f"| {label} | {g['rows']} | {within(g['in'], 1.2)} / "
                         f"{within(g['out'], 1.2)} | {within(g['in'], 1.5)} / "
                         f"{within(g['out'], 1.5)} | {worst(g['in'])} / {worst(g['out'])} |")
    return "\n".join(lines) + "\n"

def vintage_of(row: dict) -> list[str]:
    """The row's GPU maker and the year of its source (``source_date``; "undated" where
    the source gives none): the label of ``vintage_table``."""
    year = re.match(r"20\d\d", row["source_date"])
    maker = "AMD" if row["gpu"].startswith("AMD") else "NVIDIA"
    return [f"{maker}, {year[0] if year else 'undated'}"]


def vintage_table() -> str:
    """Whether newer serving software runs faster than the anchors say: by GPU maker and
    the year of the source, the rows, those judged out of sample and the geometric mean,
    lowest and highest of their measured ÷ realistic (below 1: faster than napkin's
    realistic estimate), as ``docs/measurements.md`` shows it."""
    lines = ["| GPUs, year of the source | rows | judged | measured ÷ realistic, geometric "
             "mean | lowest | highest |", "|---|---|---|---|---|---|"]
    for label, g in sorted(judged_by(vintage_of).items()):
        qs = [1 / q for q in g["out"]]  # measured ÷ realistic
        mean = math.exp(statistics.fmean(math.log(q) for q in qs))
        lines.append(f"| {label} | {g['rows']} | {len(qs)} | {mean:.2f} | {min(qs):.2f} | "
                     f"{max(qs):.2f} |")
    return "\n".join(lines) + "\n"

# ------------------------------------------------------------------ the files made here

#: The data files the set makes (``python tests/serving_floor.py`` rewrites them).
DATA = MEASUREMENTS.parents[2] / "udfs" / "data"


def _efficiency_rows(rule: str = RULE) -> dict[str, dict[str, str]]:
    """The derived columns of ``udfs/data/efficiency.csv``, regime → column → text: the
    anchor (three significant figures), the GPUs and batches its rows span, the ids of its
    rows and the derivation in words with its figures."""
    layer_us = derived_layer_time_us()
    anchors = derived_anchors(rule=rule, layer_us=layer_us)
    by: dict[str, list[tuple[float, str, str]]] = {}
    for row in rows():
        f = floor(row)
        e = f.token_ms / (f.measured_ms - fixed_ms(f, layer_us))
        by.setdefault(regime_of(row, f), []).append((e, row["id"], row["source_url"]))
    out = {}
    for name, a in anchors.items():
        effs = sorted(by[name])
        inside = sum(1 / 1.5 <= e / a["efficiency"] <= 1.5 for e, _, _ in effs)
        out[name] = {
            "efficiency": f"{a['efficiency']:.3g}",
            **{k: f"{a[k]:g}" for k in ("gpus_low", "gpus_high", "batch_low", "batch_high")},
            "measurements": "; ".join(i for _, i, _ in by[name]),
            "derivation": (
                f"Geometric mean of floor ÷ (measured − layers × {layer_us:g} µs a step, "
                f"data/layer_time.csv) over {len(effs)} measurements of "
                f"{len({s for _, _, s in effs})} sources ({effs[0][0]:.3f} ({effs[0][1]}) to "
                f"{effs[-1][0]:.3f} ({effs[-1][1]})), held over the GPUs ({a['gpus_low']:g} to "
                f"{a['gpus_high']:g}) and batches ({a['batch_low']:g} to {a['batch_high']:g}) "
                "they span; the floor being DECODE_STEP_MS at the measured batch and the "
                "mean context (prompt + output ÷ 2), its matmuls over the tokens × (draft "
                "tokens + 1 + prompt ÷ output where prefill shares the GPUs), the KV cache "
                "× the copies a tensor-parallel stage holds (MLA: one a GPU), the "
                "all-reduces at NCCL's ring latency; ÷ tokens per step. The realistic time "
                f"is floor ÷ efficiency + the per-layer time. {inside} of {len(effs)} "
                "within 1.5× of it"),
        }
    return out


def _rewrite(path: Path, key: str, fresh: dict[str, dict[str, str]]) -> None:
    """Rewrite the columns ``fresh`` gives (row key → column → text) of the CSV ``path``,
    keyed by its column ``key``; other columns and rows keep their text."""
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        fields, table = reader.fieldnames, list(reader)
    keys = {r[key] for r in table}
    table += [{key: k} for k in fresh if k not in keys]
    for r in table:
        r.update(fresh.get(r[key], {}))
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows({c: r.get(c, "") for c in fields} for r in table)


def write_data_files(rule: str = RULE) -> None:
    """Rewrite what the set makes: the anchors (``udfs/data/efficiency.csv``), the
    per-layer time (``layer_time.csv``: its figure and rows) and the out-of-sample range
    (``estimate_range.csv``: low, high and rows of each regime)."""
    _rewrite(DATA / "efficiency.csv", "regime", _efficiency_rows(rule))
    used = [r for r in rows() if regime_of(r, floor(r)) in LAYER_REGIMES]
    t = derived_layer_time_us()
    excess = sorted(((f.measured_ms * f.tokens_per_step - f.step_ms) / f.layers * 1000,
                     r["id"]) for r, f in ((r, floor(r)) for r in used))
    text = regimes.layer_time()["derivation"]
    for pattern, figure in (
            (r"over the \d+ measurements", f"over the {len(used)} measurements"),
            (r"of \d+ sources: t = [\d.]+ µs", f"of {len({r['source_url'] for r in used})} "
             f"sources: t = {t:g} µs"),
            (r"exceeds the floor by -?\d+ µs \([^)]*\) to \d+ µs \([^)]*\)",
             f"exceeds the floor by {excess[0][0]:.0f} µs ({excess[0][1]}) to "
             f"{excess[-1][0]:.0f} µs ({excess[-1][1]})")):
        text = re.sub(pattern, figure, text)
    _rewrite(DATA / "layer_time.csv", "rule", {regimes.layer_time()["rule"]: {
        "layer_time_us": f"{t:g}", "measurements": "; ".join(r["id"] for r in used),
        "derivation": text}})
    _rewrite(DATA / "estimate_range.csv", "regime", {
        k: {"low": f"{lo:.3f}", "high": f"{hi:.3f}", "rows": str(n)}
        for k, (lo, hi, n) in estimate_range(rule).items()})


if __name__ == "__main__":
    write_data_files()
