"""The prefill floor of each published first-token measurement (``data/prefill_measurements.csv``).

One function, ``floor``, turns a row of the measurement set into the floor of its first
token with napkin's own functions (``udfs.inference.timing.prefill_floor_ms``): the larger of the
prompt's math at the datasheet peak (2 × active params × prompt + the causal attention's
2 × layers × heads × head dim × prompt², ``udfs.inference.finance.prefill_attention_flop``, over the
peak of the weights' format × the GPUs) and its bytes at the datasheet bandwidth (the weights the
prompt's tokens read once, an MoE model's experts they pick, + the keys and values it
writes, over the bandwidth × the GPUs), plus the tensor-parallel all-reduces of the
prompt's tokens through every layer over the row's interconnect
(``udfs.inference.serving.tp_comm_ms`` with NCCL's ring latencies,
``udfs.inference.interconnects``). A row whose figure is faster than its
floor leaves the set (``contradicted``; the file keeps it with the reason in ``left_out``).

The estimate of a first token is the decode step's form (``udfs.inference.timing.first_token_ms``):
floor ÷ efficiency + layers × the per-layer time (LAYER_TIME_US, fitted on the decode
measurements, ``udfs.inference.regimes.layer_time_us``). A row's efficiency is floor ÷ (measured −
layers × the per-layer time) and the anchor is their geometric mean (``anchor``), the rule
of the decode regimes; it is judged leave-one-source-out (``leave_one_source_out``).
The workbook's formula before this floor, PREFILL_MS ÷ 0.8 + the all-reduces, is shown
beside (``summary``'s ``default_*``).

The model's figures come from napkin's model table where the model is in it (active
parameters, the parameters a token reads, the routed experts, the KV bytes per token, the
layers with attention, ``kv_layers``, where the table gives them), else from the row's own
``params_B``, ``layers``, ``attn_dim``, ``kv_dim`` and ``hidden`` (read from the model's
config, cited in the row's notes; a dense model reads all its parameters). Keys and values
are counted in the weights' format (bytes per parameter, at most 2), the fewest a
deployment of it would write: a lower floor.

``python tests/prefill_floor.py`` prints the figures ``docs/measurements.md`` shows.
"""

from __future__ import annotations

import csv
import math
import statistics
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from serving_floor import MLA_KEY, MLA_VALUE

from udfs.inference import (
    finance,
    interconnects,
    memory,
    precisions,
    regimes,
    serving,
    tables,
    timing,
)

MEASUREMENTS = Path(__file__).parent / "data" / "prefill_measurements.csv"

#: The GPU table's column of dense peak compute for the format the matmuls run in.
PEAK_COLUMN = {"BF16": "bf16_dense_TFLOPS", "FP16": "fp16_dense_TFLOPS",
               "FP8": "fp8_dense_TFLOPS", "NVFP4": "fp4_dense_TFLOPS",
               "MXFP4": "fp4_dense_TFLOPS"}


@dataclass(frozen=True)
class Floor:
    """The first-token floor of one measurement and its parts (times in ms)."""

    total_ms: float  # the floor: max(compute, memory) + comm (timing.prefill_floor_ms)
    compute_ms: float  # the prompt's FLOPs at the peak × GPUs
    memory_ms: float  # the weights read + the keys and values written, at bandwidth × GPUs
    comm_ms: float  # the all-reduces of the prompt's tokens
    measured_ms: float  # the source's time to first token
    layers: float  # the model's layers (the per-layer time counts them)

    def fixed_ms(self, layer_us: float | None = None) -> float:
        """layers × the per-layer time (default LAYER_TIME_US) [ms]."""
        return self.layers * (regimes.layer_time_us() if layer_us is None else layer_us) / 1000

    @property
    def efficiency(self) -> float:
        """floor ÷ (measured − the layers' time): the share of the floor's pace reached."""
        return self.total_ms / (self.measured_ms - self.fixed_ms())

    @property
    def bound(self) -> str:
        """Which term rules the floor: "compute" or "memory"."""
        return "compute" if self.compute_ms >= self.memory_ms else "memory"


@cache
def _file_rows() -> tuple[dict, ...]:
    with MEASUREMENTS.open(encoding="utf-8") as f:
        return tuple(csv.DictReader(f))


def all_rows() -> list[dict]:
    """Every row of the file, those that leave the set included (fresh dicts)."""
    return [dict(r) for r in _file_rows()]


def contradicted() -> dict[str, str]:
    """The rows whose figure is faster than their floor (id → reason), by the same rule
    for every row of every source."""
    return {r["id"]: "its figure is faster than its floor" for r in all_rows()
            if floor(r).total_ms >= float(r["ttft_ms"])}


def rows() -> list[dict]:
    """The measurement set: the file's rows but those ``contradicted`` names."""
    out = contradicted()
    return [r for r in all_rows() if r["id"] not in out]


def model_figures(row: dict) -> dict:
    """The figures of the row's model the floor needs: napkin's model table, else the
    row's own columns (a dense model)."""
    m = tables.models().get(row["model"])
    if m is None:
        params = float(row["params_B"]) * 1e9
        layers = float(row["layers"])
        return {"active": params, "read": params, "expert": 0.0, "experts": 0.0, "top_k": 0.0,
                "attn_layers": layers, "layers": layers, "attn_dim": float(row["attn_dim"]),
                "hidden": float(row["hidden"]),
                "kv_elements": 2 * layers * float(row["kv_dim"])}
    heads = float(m["num_attention_heads"])
    attn_dim = (heads * (MLA_KEY + MLA_VALUE) / 2 if m.get("attention") == "MLA"
                else heads * float(m["head_dim"]))
    return {"active": float(m["active_params"]), "read": float(m["decode_params"]),
            "expert": float(m["expert_params"] or 0), "experts": float(m["num_experts"] or 0),
            "top_k": float(m["experts_per_token"] or 0),
            "attn_layers": float(m.get("kv_layers") or m["num_layers"]),
            "layers": float(m["num_layers"]), "attn_dim": attn_dim,
            "hidden": float(m["hidden_size"]),
            "kv_elements": float(m["kv_bytes_per_token"]) / 2}


def peak_tflops(row: dict) -> float:
    """The dense peak of one GPU of the row in the format of its weights [TFLOPS]."""
    return float(tables.gpus()[row["gpu"]][PEAK_COLUMN[row["precision"]]])


def floor(row: dict) -> Floor:
    """The first-token floor of a measurement row (see the module's docstring)."""
    f = model_figures(row)
    g = tables.gpus()[row["gpu"]]
    gpus = float(row["gpus"])
    prompt = float(row["input_tokens"])
    per_param = precisions.bytes_per_param(row["precision"])
    peak = peak_tflops(row) * gpus
    flop = 2 * f["active"] * prompt + finance.prefill_attention_flop(
        f["attn_layers"], f["attn_dim"], prompt)
    read = f["read"]
    if f["expert"]:  # the experts the prompt's tokens pick, under uniform routing
        read = memory.moe_decode_params(read, f["expert"], f["experts"], f["top_k"], prompt)
    kv_gb = prompt * f["kv_elements"] * min(per_param, 2.0) / 1e9
    bandwidth = float(g["memory_bandwidth_TBps"]) * gpus
    comm = 0.0
    if row["tp_interconnect"] and gpus > 1:
        link = float(g["interconnect_GBps"]) / 2 / 1000  # one direction, TB/s
        name = row["tp_interconnect"]
        comm = serving.tp_comm_ms(f["hidden"], prompt, gpus, link, f["layers"], 2.0, 2.0,
                                  interconnects.hop_latency_us(name),
                                  interconnects.base_latency_us(name))
    weights_gb = memory.weight_gb(read, per_param)
    return Floor(timing.prefill_floor_ms(flop, weights_gb, kv_gb, peak, bandwidth, comm),
                 timing.math_ms(flop, peak), timing.decode_memory_ms(weights_gb, kv_gb, bandwidth),
                 comm, float(row["ttft_ms"]), f["layers"])


def geometric_mean(values) -> float:
    """exp(mean(ln v))."""
    return math.exp(statistics.fmean(math.log(v) for v in values))


def anchor(subset: list[dict] | None = None) -> float:
    """The prefill efficiency the rows of ``subset`` (default the set) make: the geometric
    mean of floor ÷ measured."""
    return geometric_mean(floor(r).efficiency for r in (rows() if subset is None else subset))


def predicted_ms(row: dict, efficiency: float, layer_us: float | None = None) -> float:
    """The first token of the row at ``efficiency``: floor ÷ efficiency + the layers'
    time (``timing.first_token_ms``)."""
    f = floor(row)
    return timing.first_token_ms(f.total_ms, efficiency, f.layers,
                                 regimes.layer_time_us() if layer_us is None else layer_us)


def compute_only_ms(row: dict, efficiency: float = 0.8) -> float:
    """The workbook's first token before this floor: PREFILL_MS at ``efficiency`` + the
    all-reduces (Sizing's first-token row, Plan's column I)."""
    f = floor(row)
    return f.compute_ms / efficiency + f.comm_ms


def leave_one_source_out() -> dict[str, float]:
    """Each row's predicted ÷ measured with the anchor made without its source (row id →
    ratio)."""
    out = {}
    the_set = rows()
    for source in sorted({r["source"] for r in the_set}):
        others = [r for r in the_set if r["source"] != source]
        a = anchor(others)
        for r in the_set:
            if r["source"] == source:
                out[r["id"]] = predicted_ms(r, a) / float(r["ttft_ms"])
    return out


def in_sample() -> dict[str, float]:
    """Each row's predicted ÷ measured at the anchor of the whole set."""
    a = anchor()
    return {r["id"]: predicted_ms(r, a) / float(r["ttft_ms"]) for r in rows()}


def within(ratios, k: float) -> int:
    """How many ratios lie within a factor k of 1."""
    return sum(1 / k <= q <= k for q in ratios)


def table() -> str:
    """The rows as ``docs/measurements.md`` shows them: the floor and its terms, the
    layers' time, measured, the efficiency, and predicted ÷ measured in sample and out of
    sample."""
    ins, out = in_sample(), leave_one_source_out()
    lines = ["| row | GPUs | prompt | floor ms: max(compute, memory) + all-reduces | "
             "layers' time ms | measured ms | efficiency | predicted ÷ measured, in / out "
             "of sample | source |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows():
        f = floor(r)
        lines.append(f"| {r['id']} | {r['gpus']} × {r['gpu']} {r['precision']} | "
                     f"{r['input_tokens']} | {f.total_ms:.2f}: max({f.compute_ms:.2f}, "
                     f"{f.memory_ms:.2f}) + {f.comm_ms:.2f} | {f.fixed_ms():.2f} | "
                     f"{f.measured_ms:g} | {f.efficiency:.3f} | "
                     f"{ins[r['id']]:.2f} / {out[r['id']]:.2f} | "
                     f"[{r['source']}]({r['source_url']}) ({r['source_date']}) |")
    return "\n".join(lines) + "\n"


#: The workbook's default today: ROOF_EFFICIENCY (workbook/assumptions.py), 80 % of peak.
DEFAULT_EFFICIENCY = 0.8


def bar_met(s: dict) -> bool:
    """The bar a default made from the measurements must pass (``docs/measurements.md``,
    "First token", stated before the out-of-sample figures were made): at least 20 rows
    from at least 5 sources, and, each source left out, the anchor puts at least half of
    the rows within 1.5× of their measurement and more of them than the workbook's
    formula at 0.8 does."""
    return (s["rows"] >= 20 and s["sources"] >= 5 and 2 * s["out_1.5"] >= s["rows"]
            and s["out_1.5"] > s["default_1.5"])


def summary() -> dict:
    """The figures of the set: rows, sources, the anchor, its lowest and highest row, the
    in-sample and leave-one-source-out counts within 1.2× and 1.5×, the rows whose floor
    the memory term rules, and the counts of the workbook's formula before this floor at
    its default (PREFILL_MS ÷ 0.8 + all-reduces, ``default_*``) and of this floor at 0.8
    (``floor_at_default_*``), no row used to make either."""
    effs = sorted((floor(r).efficiency, r["id"]) for r in rows())
    ins, out = in_sample().values(), leave_one_source_out().values()
    at_default = [compute_only_ms(r, DEFAULT_EFFICIENCY) / float(r["ttft_ms"]) for r in rows()]
    floor_at = [predicted_ms(r, DEFAULT_EFFICIENCY) / float(r["ttft_ms"]) for r in rows()]
    return {"rows": len(effs), "sources": len({r["source"] for r in rows()}),
            "anchor": anchor(), "median": statistics.median(e for e, _ in effs),
            "lowest": effs[0], "highest": effs[-1],
            "memory_bound": sum(floor(r).bound == "memory" for r in rows()),
            "in_1.2": within(ins, 1.2), "in_1.5": within(ins, 1.5),
            "out_1.2": within(out, 1.2), "out_1.5": within(out, 1.5),
            "default_1.2": within(at_default, 1.2), "default_1.5": within(at_default, 1.5),
            "default_faster": sum(q < 1 for q in at_default),
            "floor_at_default_1.5": within(floor_at, 1.5),
            "floor_at_default_faster": sum(q < 1 for q in floor_at),
            "left_out": contradicted()}


if __name__ == "__main__":
    s = summary()
    print(s, "bar met:", bar_met(s))
    print(table())
