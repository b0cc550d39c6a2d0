"""What the scenario tests (``test_scenario.py``) share: the scenario's names and edits,
the checks every computed copy passes, and the headline computed by hand.

The template's scenario is its inputs at the top of Sizing (the defined names
``SCENARIO_*``) and its headline figures (``RESULT_*``). This module holds, with no
fixture, what a test of the scenario needs besides the workbook:

- ``REQUIRED``, ``S``, ``VARIANTS``: the names the scenario defines, its inputs as cells
  of a copy, and the edits of those inputs the tests type in;
- ``cell_of``, ``named``, ``agree``: a defined name's cell and value, and the checks that
  every sheet showing a scenario input or a headline figure shows the scenario's value;
- ``by_hand``, ``pipeline_step``: the headline and the realistic step computed by hand
  from the tables (``udfs/data/*.csv``), NCCL's ring latencies (``NCCL_BASE_US``,
  ``NCCL_NVLINK_US``) and ``template_support``'s efficiency and layers' time;
- ``hidden_columns``, ``has_uno``: a worksheet's hidden columns, and whether LibreOffice
  with Python UNO is installed (``tools/lo_uno.py`` drives it).

Tests import these names from this module as a plain module (``tests/conftest.py`` puts
``tests/`` on ``sys.path``).
"""

from __future__ import annotations

import math
import re
import subprocess
from pathlib import Path

from openpyxl.utils import get_column_letter
from template_support import CHART_GAPS, ERRORS, LAYER_US, regime_efficiency

from udfs.inference import tables
from workbook.build import COST_FIRST, FINANCE, PLAN, SIZING
from workbook.scenario import LARGEST, PLAN_SCENARIO_ROW, RESULT_NAMES, SCENARIO_NAMES

#: The Python that imports LibreOffice's ``uno`` (the system's, not the venv's).
UNO_PYTHON = "/usr/bin/python3"

#: The names the issue asks for (the scenario's inputs and its headline results).
REQUIRED = [
    "SCENARIO_MODEL", "SCENARIO_PRECISION", "SCENARIO_KV_PRECISION", "SCENARIO_GPU",
    "SCENARIO_GPUS_PER_REPLICA", "SCENARIO_BATCH", "SCENARIO_PROMPT_TOKENS",
    "SCENARIO_OUTPUT_TOKENS", "SCENARIO_OUTPUT_TOKENS_PER_DAY", "SCENARIO_PEAK_TO_AVERAGE",
    "SCENARIO_PRICE_PER_GPU_HOUR", "SCENARIO_HOURS_PER_MONTH", "SCENARIO_UTILIZATION",
    "RESULT_GPUS", "RESULT_REPLICAS", "RESULT_MONTHLY_COST", "RESULT_COST_PER_MTOK",
    "RESULT_STEP_MS", "RESULT_FLOOR_STEP_MS", "RESULT_TOKENS_PER_SEC_PER_USER",
    "RESULT_TOKENS_PER_SEC_PER_REPLICA", "RESULT_FIRST_TOKEN_MS"]

H100, H200 = "NVIDIA H100 SXM", "NVIDIA H200 SXM"
#: The scenario's inputs as cells of a copy (the variants below change them).
S = {name: "Sizing!" + SIZING[key] for name, key in SCENARIO_NAMES.items()}
#: Edits of the scenario, each a user's change of one or more of its inputs.
VARIANTS = {
    "price-traffic": {S["SCENARIO_PRICE_OVERRIDE"]: 2.5,
                      S["SCENARIO_OUTPUT_TOKENS_PER_DAY"]: 300000000,
                      S["SCENARIO_PEAK_TO_AVERAGE"]: 3},
    "model-gpu-precision-degree": {S["SCENARIO_MODEL"]: "Llama 3.1 8B",
                                   S["SCENARIO_PRECISION"]: "BF16", S["SCENARIO_GPU"]: H200,
                                   S["SCENARIO_GPUS_PER_REPLICA"]: 4},
    "searched-batch": {S["SCENARIO_BATCH"]: LARGEST,
                       S["SCENARIO_TOKENS_PER_SEC_PER_USER_TARGET"]: 28},
    "pipeline-stages": {S["SCENARIO_MODEL"]: "Llama 3.1 405B",
                        S["SCENARIO_GPUS_PER_REPLICA"]: 16, S["SCENARIO_PIPELINE_STAGES"]: 2,
                        S["SCENARIO_BATCH"]: LARGEST,
                        S["SCENARIO_TOKENS_PER_SEC_PER_USER_TARGET"]: 10,
                        S["SCENARIO_OUTPUT_TOKENS_PER_DAY"]: 150000000},
}


def cell_of(book, name: str) -> tuple[str, str]:
    """(sheet, cell) a workbook-scoped defined name points at."""
    m = re.fullmatch(r"'?([^'!]+)'?!\$([A-Z]+)\$(\d+)", book.defined_names[name].attr_text)
    assert m, (name, book.defined_names[name].attr_text)
    return m[1], f"{m[2]}{m[3]}"


def named(v: dict, book, name: str):
    """The value, in the computed values ``v`` ({sheet: {cell: value}}), of the cell the
    defined name ``name`` of ``book`` points at (None where the cell is empty)."""
    sheet, cell = cell_of(book, name)
    return v[sheet].get(cell)


def close(a, b) -> bool:
    """Whether two values are the same: numbers within 1e-9 (relative or absolute), any
    other value equal."""
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def agree(v: dict, book) -> dict:
    """The checks every computed copy passes: the two identities of the headline, and every
    sheet that shows a scenario input or a headline figure shows the scenario's value.
    Returns the headline figures by name."""
    r = {name: named(v, book, name) for name in REQUIRED + list(RESULT_NAMES)}
    price, hours = r["SCENARIO_PRICE_PER_GPU_HOUR"], r["SCENARIO_HOURS_PER_MONTH"]
    tpd = r["SCENARIO_OUTPUT_TOKENS_PER_DAY"]
    assert isinstance(r["RESULT_MONTHLY_COST"], int | float)
    assert close(r["RESULT_MONTHLY_COST"], r["RESULT_GPUS"] * price * hours)
    assert close(r["RESULT_COST_PER_MTOK"],
                 r["RESULT_MONTHLY_COST"] / (tpd * hours / 24) * 1e6)
    assert close(r["RESULT_GPUS"], r["RESULT_REPLICAS"] * r["RESULT_GPUS_PER_REPLICA"])
    plan = v["Plan"]
    for key, name in (("model", "SCENARIO_MODEL"), ("precision", "SCENARIO_PRECISION"),
                      ("kv_precision", "SCENARIO_KV_PRECISION"), ("gpu", "SCENARIO_GPU"),
                      ("price", "SCENARIO_PRICE_PER_GPU_HOUR"),
                      ("prompt", "SCENARIO_PROMPT_TOKENS"), ("output", "SCENARIO_OUTPUT_TOKENS"),
                      ("tp", "RESULT_GPUS_PER_REPLICA"), ("batch", "RESULT_BATCH"),
                      ("step_ms", "RESULT_STEP_MS"), ("tps_user", "RESULT_TOKENS_PER_SEC_PER_USER"),
                      ("ttft", "RESULT_FIRST_TOKEN_MS"), ("replicas", "RESULT_REPLICAS"),
                      ("gpus_total", "RESULT_GPUS"), ("monthly", "RESULT_MONTHLY_COST"),
                      ("cost_out_mtok", "RESULT_COST_PER_MTOK")):
        assert close(plan[PLAN[key]], r[name]), ("Plan", key, plan[PLAN[key]], r[name])
    assert close(plan[PLAN["avg_rps"]], tpd / 86400 / r["SCENARIO_OUTPUT_TOKENS"])
    assert close(plan[PLAN["peak_rps"]], plan[PLAN["avg_rps"]] * r["SCENARIO_PEAK_TO_AVERAGE"])
    assert close(plan[f"A{PLAN_SCENARIO_ROW}"], r["RESULT_GPUS_PER_REPLICA"])
    fin = v["Finance"]
    for key, name in (("model", "SCENARIO_MODEL"), ("precision", "SCENARIO_PRECISION"),
                      ("gpu", "SCENARIO_GPU"), ("price", "SCENARIO_PRICE_PER_GPU_HOUR"),
                      ("gpus", "RESULT_GPUS_PER_REPLICA"), ("batch", "RESULT_BATCH"),
                      ("step_ms", "RESULT_FLOOR_STEP_MS"), ("real_step_ms", "RESULT_STEP_MS"),
                      ("tokens_day", "SCENARIO_OUTPUT_TOKENS_PER_DAY"),
                      ("replicas", "RESULT_REPLICAS"), ("gpus_total", "RESULT_GPUS"),
                      ("replica_tps", "RESULT_TOKENS_PER_SEC_PER_REPLICA"),
                      ("prefill_ms", "RESULT_FIRST_TOKEN_MS"),
                      ("output_cost", "RESULT_COST_PER_MTOK"),
                      ("base_cost", "RESULT_COST_PER_MTOK")):
        assert close(fin[FINANCE[key]], r[name]), ("Finance", key, fin[FINANCE[key]], r[name])
    for row, name in (("gpus_range", "RESULT_GPUS"), ("monthly_range", "RESULT_MONTHLY_COST"),
                      ("cost_range", "RESULT_COST_PER_MTOK"), ("ms_range", "RESULT_STEP_MS"),
                      ("price_range", "SCENARIO_PRICE_PER_GPU_HOUR"),
                      ("util", "SCENARIO_UTILIZATION")):
        assert close(fin[f"C{FINANCE[row]}"], r[name]), ("Finance", row)
    assert close(fin[f"B{FINANCE['monthly']}"], r["RESULT_MONTHLY_COST"])
    # low / base / high: each column computed from the inputs it shows
    lo, base, hi = (fin[f"{c}{FINANCE['cost_range']}"] for c in "BCD")
    assert lo <= base <= hi
    assert fin[f"B{FINANCE['eff']}"] >= fin[f"C{FINANCE['eff']}"] >= fin[f"D{FINANCE['eff']}"]
    for key in ("gpus_range", "monthly_range", "price_range"):
        row = FINANCE[key]
        assert fin[f"B{row}"] <= fin[f"C{row}"] <= fin[f"D{row}"], key
    low_gpus = math.ceil(tpd / 86400 * r["SCENARIO_PEAK_TO_AVERAGE"] / (
        fin[f"B{FINANCE['tps_range']}"] * r["RESULT_BATCH"] * fin[f"B{FINANCE['util']}"]))
    assert close(fin[f"B{FINANCE['gpus_range']}"], low_gpus * r["RESULT_GPUS_PER_REPLICA"])
    # Cost compares GPUs: the scenario's GPU row is the scenario
    cost = v["Cost"]
    row = next(COST_FIRST + i for i in range(60)
               if cost.get(f"A{COST_FIRST + i}") == r["SCENARIO_GPU"])
    for col, name in (("B", "SCENARIO_PRICE_PER_GPU_HOUR"), ("F", "RESULT_GPUS_PER_REPLICA"),
                      ("O", "RESULT_STEP_MS"), ("G", "RESULT_FLOOR_STEP_MS"),
                      ("P", "RESULT_GPUS"), ("Q", "RESULT_MONTHLY_COST"),
                      ("R", "RESULT_COST_PER_MTOK")):
        assert close(cost[f"{col}{row}"], r[name]), ("Cost", col, cost[f"{col}{row}"], r[name])
    assert cost["B4"] == r["SCENARIO_MODEL"] and cost["B5"] == r["SCENARIO_PRECISION"]
    assert v["Roofline"]["B3"] == r["SCENARIO_GPU"]
    errors = {f"{s}!{c}" for s, cells in v.items() for c, x in cells.items()
              if isinstance(x, str) and x in ERRORS}
    assert errors <= CHART_GAPS, sorted(errors - CHART_GAPS)[:9]
    return r


#: NCCL's ring latencies over NVLink, µs: a call, a ring step (NCCL src/graph/tuning.cc,
#: baseLatencies[Ring][LL] and hwLatencies[NVLINK][Ring][LL]).
NCCL_BASE_US, NCCL_NVLINK_US = 6.6, 0.6


def by_hand(model: str, gpu: str, weight_bytes: float, batch: int, prompt: int, output: int,
            tokens_day: float, peak: float, util: float, price: float, hours: float,
            eff: float | None = None, reads_embedding: bool = False,
            aggregated: bool = True) -> dict:
    """The headline of a dense GQA model by hand (the arithmetic of ``test_scenario.py``'s
    module docstring) from the rows of the tables, the GPUs per replica the smallest of 1,
    2, 4, 8 that hold the weights and the batch's KV cache, the all-reduces over NVLink;
    the realistic step the floor ÷ the efficiency ``eff`` (else REGIME_EFFICIENCY of those
    GPUs at the batch by docs/math.md's rule, ``template_support.regime_efficiency``) + the
    layers' fixed time, the model's layers × ``LAYER_US`` (udfs/data/layer_time.csv):
    Calibration has no measurement of the GPU in these scenarios, one token a step, no
    draft tokens. Memory holds each sequence at its full context (prompt + output); the
    step reads its KV cache at the mean context (prompt + output ÷ 2) and, prefill
    sharing the GPUs (aggregated, the default), computes prompt ÷ output prompt tokens a
    sequence beside its decoded one, each attending to half the prompt: the matmuls,
    attention and all-reduces carry them (``workbook.model.serving``).

    Parameters
    ----------
    model, gpu : str
        A row of ``udfs/data/models.csv`` and of ``gpus.csv``, by name.
    weight_bytes : float
        Bytes a weight takes (1 for FP8, 2 for BF16) [bytes].
    batch : int
        Sequences decoded together [count].
    prompt, output : int
        Tokens of a sequence's prompt and of its output [count].
    tokens_day : float
        Output tokens a day [count].
    peak : float
        The peak's traffic over the average's [ratio].
    util : float
        The share of a replica's throughput the peak may use [fraction].
    price : float
        Price of a GPU-hour [currency].
    hours : float
        Hours of a month [h].
    eff : float or None
        The efficiency the floor is divided by [fraction]; None: REGIME_EFFICIENCY's.
    reads_embedding : bool
        Whether a step reads the input embedding table too: a user's row of the Models
        table (a built-in row copied under another name) does not say it is untied.
    aggregated : bool
        Whether prefill shares the decode GPUs (the scenario's serving input): the steps
        then carry prompt ÷ output prompt tokens a sequence.

    Returns
    -------
    dict
        The ``RESULT_*`` figures by name: the GPUs per replica, the floor and realistic
        step [ms], the tokens/s per replica and per user, the replicas, the GPUs, the
        monthly cost and the cost per million output tokens.
    """
    m, g = tables.models()[model], tables.gpus()[gpu]
    params, active = float(m["total_params_B"]), float(m["active_params_B"])
    hidden, layers = int(m["hidden_size"]), int(m["num_layers"])
    heads, head_dim = int(m["num_attention_heads"]), int(m["head_dim"])
    kv_token = 2 * layers * int(m["num_kv_heads"]) * head_dim * 2  # BF16 cache
    context = prompt + output
    kv = kv_token * context * batch / 1e9  # GB at the batch: memory, the full context
    kv_read = kv_token * (prompt + output / 2) * batch / 1e9  # a step's: the mean context
    share = prompt / output if aggregated else 0.0  # prompt tokens a step, a sequence
    tokens = batch * (1 + share)  # decoded and prefilled
    weights = params * weight_bytes  # GB
    mem, bw = float(g["memory_GB"]), float(g["memory_bandwidth_TBps"])
    t = next(d for d in (1, 2, 4, 8) if weights + kv <= d * mem)
    embedding = 0 if reads_embedding else int(m["vocab_size"]) * hidden / 1e9  # untied
    read = (active - embedding) * weight_bytes
    roof = float(g["fp8_dense_TFLOPS"] if weight_bytes <= 1 else g["bf16_dense_TFLOPS"])
    # QKᵀ and AV: each decoded token over the mean context, each prefilled one over half
    # the prompt
    attention_flop = 4 * layers * heads * head_dim * (
        prompt + output / 2 + share * prompt / 2) * batch
    link = float(g["interconnect_GBps"]) / 2  # GB/s one way
    comm = 0.0 if t == 1 else 2 * layers * (
        NCCL_BASE_US + 2 * (t - 1) * NCCL_NVLINK_US
        + 2 * (t - 1) / t * tokens * hidden * 2 / (link * 1e9) * 1e6) / 1e3  # ms
    # one copy of the KV cache: these GQA models have at least 8 KV heads, t ≤ 8
    assert int(m["num_kv_heads"]) >= t
    floor = (max(kv_read / (bw * t), attention_flop / (roof * 1e12 * t) * 1e3)
             + max(2 * active * 1e9 * tokens / (roof * 1e12 * t) * 1e3, read / (bw * t))
             + comm)
    fixed = layers * LAYER_US / 1000  # ms per token: LAYER_OVERHEAD_MS
    step = floor / (regime_efficiency(t, batch) if eff is None else eff) + fixed
    per_replica = batch * 1000 / step
    replicas = math.ceil(tokens_day / 86400 * peak / (per_replica * util))
    monthly = replicas * t * price * hours
    return {"RESULT_GPUS_PER_REPLICA": t, "RESULT_FLOOR_STEP_MS": floor,
            "RESULT_STEP_MS": step, "RESULT_TOKENS_PER_SEC_PER_REPLICA": per_replica,
            "RESULT_TOKENS_PER_SEC_PER_USER": per_replica / batch,
            "RESULT_REPLICAS": replicas, "RESULT_GPUS": replicas * t,
            "RESULT_MONTHLY_COST": monthly,
            "RESULT_COST_PER_MTOK": monthly / (tokens_day * hours / 24) * 1e6}


def pipeline_step(batch: int) -> float:
    """The realistic step of Llama 3.1 405B FP8 on 16 H100 in 2 stages of TP 8 (m = p = 2
    micro-batches, DECODE_STEP_MS's pipeline: the weights read twice a period, the KV
    cache and the math over the 16 GPUs, one micro-batch's all-reduces over its stage),
    ms: config.json's 126 layers, hidden 16,384, 128 heads × 128, 8 KV heads, vocab
    128,256; 405.85 B parameters; the datasheet's 3.35 TB/s, 1,978.9 TFLOPS FP8, 900 GB/s
    NVLink (450 one way); ÷ REGIME_EFFICIENCY(16, batch) + 126 × ``LAYER_US``
    (udfs/data/layer_time.csv). The scenario's 2,000 + 300 tokens: the KV cache read at
    the mean context (2,150 tokens), 2,000 ÷ 300 prompt tokens a sequence prefilled in
    each step (aggregated serving), attending to half the prompt.

    Parameters
    ----------
    batch : int
        Sequences decoded together, 2,300 tokens each [count].

    Returns
    -------
    float
        The realistic step [ms].
    """
    g, p = 16, 2
    tokens = batch * (1 + 2000 / 300)  # decoded and prefilled
    kv = 2 * 126 * 8 * 128 * 2 * 2150 * batch / 1e9  # GB, BF16 cache, the mean context
    attention = max(kv / (g * 3.35), 4 * 126 * 16384 * (2150 + 2000 / 300 * 1000) * batch
                    / (g * 1978.9e12) * 1e3)
    weights = max(2 * 405.85e9 * tokens / (g * 1978.9e12) * 1e3,
                  p * (405.85 - 128256 * 16384 / 1e9) / (g * 3.35))
    comm = 2 * 126 * (NCCL_BASE_US + 2 * 7 * NCCL_NVLINK_US
                      + 2 * 7 / 8 * (tokens / p) * 16384 * 2 / 450e9 * 1e6) / 1e3
    return (attention + weights + comm) / regime_efficiency(g, batch) + 126 * LAYER_US / 1000


def hidden_columns(ws) -> set[str]:
    """The letters of the hidden columns (a dimension may span several columns)."""
    return {get_column_letter(i) for d in ws.column_dimensions.values() if d.hidden
            for i in range(d.min or 1, (d.max or d.min or 1) + 1)}


def has_uno() -> bool:
    """Whether LibreOffice (``soffice``) and a Python that imports its ``uno`` are here."""
    import shutil

    if not shutil.which("soffice") or not Path(UNO_PYTHON).exists():
        return False
    return subprocess.run([UNO_PYTHON, "-c", "import uno"], capture_output=True).returncode == 0
