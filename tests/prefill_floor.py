"""The prefill floor of each published first-token measurement (``data/prefill_measurements.csv``).

One function, ``floor``, turns a row of the measurement set into the floor of its first
token with napkin's own functions: the prefill of the prompt at the datasheet peak
(``udfs.finance.prefill_ms`` with efficiency 1: 2 × params × prompt + the causal
attention's 2 × layers × heads × head dim × prompt², over the peak of the weights' format
× the GPUs) plus the tensor-parallel all-reduces of the prompt's tokens through every
layer over the row's interconnect (``udfs.serving.tp_comm_ms`` with NCCL's ring latencies,
``udfs.interconnects``). That is the first-token formula of the workbook (Sizing's
first-token row, Plan's column I) at efficiency 1, so floor ÷ measured is the prefill
efficiency a deployment reached, and the geometric mean of it over the set is the anchor
the formula would need (``anchor``), judged leave-one-source-out (``leave_one_source_out``).

The floor leaves out what a first token also pays (the weights' read, which rules a short
prompt; the first decode step; the client's round trip; the scheduler), so it is a lower
bound: a figure below it says the row is not what its source states, and the row leaves
the set (``contradicted``; the file keeps it with the reason in ``left_out``).

The model's parameters, layers and attention width come from napkin's model table where
the model is in it (active parameters, as the workbook's formula takes them; the attention
over the layers that have attention, ``kv_layers``, where the table gives them), else from
the row's own ``params_B``, ``layers``, ``attn_dim`` and ``hidden`` (read from the model's
config, cited in the row's notes).

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

from udfs import finance, interconnects, serving, tables

MEASUREMENTS = Path(__file__).parent / "data" / "prefill_measurements.csv"

#: The GPU table's column of dense peak compute for the format the matmuls run in.
PEAK_COLUMN = {"BF16": "bf16_dense_TFLOPS", "FP16": "fp16_dense_TFLOPS",
               "FP8": "fp8_dense_TFLOPS", "NVFP4": "fp4_dense_TFLOPS",
               "MXFP4": "fp4_dense_TFLOPS"}


@dataclass(frozen=True)
class Floor:
    """The first-token floor of one measurement and its parts (times in ms)."""

    compute_ms: float  # PREFILL_MS at the peak × GPUs, efficiency 1
    comm_ms: float  # the all-reduces of the prompt's tokens
    measured_ms: float  # the source's time to first token

    @property
    def total_ms(self) -> float:
        """compute + all-reduces: the floor."""
        return self.compute_ms + self.comm_ms

    @property
    def efficiency(self) -> float:
        """floor ÷ measured: the share of the floor's pace the deployment reached."""
        return self.total_ms / self.measured_ms


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


def model_figures(row: dict) -> tuple[float, float, float, float]:
    """(params, layers with attention, attention width heads × head dim, hidden size) of
    the row's model: napkin's model table, else the row's own columns."""
    m = tables.models().get(row["model"])
    if m is None:
        return (float(row["params_B"]) * 1e9, float(row["layers"]), float(row["attn_dim"]),
                float(row["hidden"]))
    heads = float(m["num_attention_heads"])
    attn_dim = (heads * (MLA_KEY + MLA_VALUE) / 2 if m.get("attention") == "MLA"
                else heads * float(m["head_dim"]))
    layers = float(m.get("kv_layers") or m["num_layers"])
    return float(m["active_params"]), layers, attn_dim, float(m["hidden_size"])


def peak_tflops(row: dict) -> float:
    """The dense peak of one GPU of the row in the format of its weights [TFLOPS]."""
    return float(tables.gpus()[row["gpu"]][PEAK_COLUMN[row["precision"]]])


def floor(row: dict) -> Floor:
    """The first-token floor of a measurement row (see the module's docstring)."""
    params, layers, attn_dim, hidden = model_figures(row)
    gpus = float(row["gpus"])
    prompt = float(row["input_tokens"])
    compute = finance.prefill_ms(params, prompt, peak_tflops(row) * gpus, 1.0, layers,
                                 attn_dim)
    comm = 0.0
    if row["tp_interconnect"] and gpus > 1:
        g = tables.gpus()[row["gpu"]]
        link = float(g["interconnect_GBps"]) / 2 / 1000  # one direction, TB/s
        name = row["tp_interconnect"]
        all_layers = float(tables.models()[row["model"]]["num_layers"]) \
            if row["model"] in tables.models() else layers
        comm = serving.tp_comm_ms(hidden, prompt, gpus, link, all_layers, 2.0, 2.0,
                                  interconnects.hop_latency_us(name),
                                  interconnects.base_latency_us(name))
    return Floor(compute, comm, float(row["ttft_ms"]))


def geometric_mean(values) -> float:
    """exp(mean(ln v))."""
    return math.exp(statistics.fmean(math.log(v) for v in values))


def anchor(subset: list[dict] | None = None) -> float:
    """The prefill efficiency the rows of ``subset`` (default the set) make: the geometric
    mean of floor ÷ measured."""
    return geometric_mean(floor(r).efficiency for r in (rows() if subset is None else subset))


def predicted_ms(row: dict, efficiency: float) -> float:
    """The first token the workbook's formula gives the row at ``efficiency``: its
    compute ÷ the efficiency + the all-reduces (Plan column I's form)."""
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
    """The rows as ``docs/measurements.md`` shows them: floor, measured, floor ÷ measured,
    and predicted ÷ measured in sample and out of sample."""
    ins, out = in_sample(), leave_one_source_out()
    lines = ["| row | GPUs | prompt | floor ms (compute + all-reduces) | measured ms | "
             "floor ÷ measured | predicted ÷ measured, in / out of sample | source |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows():
        f = floor(r)
        lines.append(f"| {r['id']} | {r['gpus']} × {r['gpu']} {r['precision']} | "
                     f"{r['input_tokens']} | {f.total_ms:.2f} ({f.compute_ms:.2f} + "
                     f"{f.comm_ms:.2f}) | {f.measured_ms:g} | {f.efficiency:.3f} | "
                     f"{ins[r['id']]:.2f} / {out[r['id']]:.2f} | "
                     f"[{r['source']}]({r['source_url']}) ({r['source_date']}) |")
    return "\n".join(lines) + "\n"


#: The workbook's default today: ROOF_EFFICIENCY (workbook/assumptions.py), 80 % of peak.
DEFAULT_EFFICIENCY = 0.8


def summary() -> dict:
    """The figures of the set: rows, sources, the anchor, its lowest and highest row, the
    in-sample and leave-one-source-out counts within 1.2× and 1.5×, and the counts at the
    workbook's default (``DEFAULT_EFFICIENCY``, no row used to make it)."""
    effs = sorted((floor(r).efficiency, r["id"]) for r in rows())
    ins, out = in_sample().values(), leave_one_source_out().values()
    at_default = [predicted_ms(r, DEFAULT_EFFICIENCY) / float(r["ttft_ms"]) for r in rows()]
    return {"rows": len(effs), "sources": len({r["source"] for r in rows()}),
            "anchor": anchor(), "median": statistics.median(e for e, _ in effs),
            "lowest": effs[0], "highest": effs[-1],
            "in_1.2": within(ins, 1.2), "in_1.5": within(ins, 1.5),
            "out_1.2": within(out, 1.2), "out_1.5": within(out, 1.5),
            "default_1.2": within(at_default, 1.2), "default_1.5": within(at_default, 1.5),
            "default_faster": sum(q < 1 for q in at_default),
            "left_out": contradicted()}


if __name__ == "__main__":
    print(summary())
    print(table())
