"""The Plan sheet, computed headless by ``napkin calc``, against hand calculations.

The hand calculation below (``by_hand``) is written from the formulas' sources, in plain
arithmetic, with no napkin function: the KV cache per token (kipply 2022; config values
from ``udfs/data/models.csv``), the decode step's max rule over the weights and every
sequence's KV cache (the reference doc's §2 and §5), the ring all-reduce's α–β cost
(Thakur, Rabenseifner & Gropp 2005; two all-reduces per layer, Megatron-LM §3), prefill
at the compute roof (2 × active params × tokens + the causal attention 2 × layers × heads ×
head_dim × tokens², kipply 2022, over the peak), and Little's law (Little 1961). The
weights a decode step reads: all but the input embedding table (one row of it per token;
the LM head in full), and for a mixture of experts the distinct experts the batch picks,
E·(1 − (1 − k/E)^B) per MoE layer under uniform routing (the expected number of occupied
cells, Feller vol. 1 ch. II). The realistic step: the floor ÷ the regime's efficiency +
the layers' time, the model's layers (config.json) × 65.8 µs (``udfs/data/layer_time.csv``).
GPU figures are the datasheet values of ``udfs/data/gpus.csv``.
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import pytest
from template_support import (
    LAYER_US,
    LAYERS_70B_MS,
    ONE_GPU,
    SMALL,
    STEP,
    TP,
    TP8_SMALL,
    build_copy,
    comm_ms,
    engine_calc,
    save_edited,
    values,
)
from template_support import regime_efficiency as dense_efficiency

from udfs.inference import tables
from workbook.build import SIZING
from workbook.plan import PLAN, TP_COLUMNS, TP_DEGREES, TP_FIRST

ROOT = Path(__file__).resolve().parents[1]
# Llama 3.1 70B (config.json: vocab 128,256, hidden 8,192, untied): the weights a decode
# step reads, billions, all but the input embedding table
READ_70B = 70.6 - 128256 * 8192 / 1e9  # 69.549
#: The per-layer time, its layers' time for Llama 3.1 70B and the dense regimes' anchors
#: (udfs/data/layer_time.csv, efficiency.csv) are template_support's; moe_expert_parallel's
#: anchor, the geometric mean of its 8 rows' floor ÷ (measured − the layers' time):
MOE = 0.239


#: The traffic of these checks, typed into the scenario on Sizing: 207,360,000 output
#: tokens a day of 300-token answers are 8 requests/s on average (207,360,000 ÷ 86,400 ÷
#: 300), 20 at the peak (× 2.5).
TRAFFIC = {"tokens_day": 207360000, "peak_to_avg": 2.5}


def computed(tmp: Path, name: str, changes: dict[str, object]) -> dict[str, object]:
    """Build the template, set the traffic above and some inputs of the scenario (keys of
    SIZING), compute it as ``napkin calc`` does (``engine_calc``); the Plan's values."""
    src = build_copy(tmp / f"{name}.xlsx")
    save_edited(src, {"Sizing!" + SIZING[key]: value
                      for key, value in {**TRAFFIC, **changes}.items()})
    dst = tmp / f"{name}-calc.xlsx"
    engine_calc(src, dst)
    return values(dst)["Plan"]


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("plan")


@pytest.fixture(scope="module")
def default(tmp):
    return computed(tmp, "default", {})


@pytest.fixture(scope="module")
def deepseek(tmp):
    """DeepSeek-V3 in FP8 on H200s: 671 GB of weights, only 8 GPUs hold them, and the
    all-reduces of 8-way tensor parallelism weigh on every step."""
    return computed(tmp, "deepseek", {"model": "DeepSeek-V3", "gpu": "NVIDIA H200 SXM"})


@pytest.fixture(scope="module")
def missed(tmp):
    """Llama 3.1 70B in BF16 (141.2 GB: not on one H100), a first token in 20 ms and 500
    tokens/s per user: targets no layout can meet."""
    return computed(tmp, "missed", {"precision": "BF16", "ttft_target": 20,
                                    "tps_target": 500})


def general(x: float, digits: int) -> str:
    """ROUND(x, digits) as Excel shows a number joined to text (General format)."""
    v = round(x, digits)
    return str(int(v)) if v == int(v) else repr(v)


#: NCCL's ring latencies, µs: a call, a ring step over NVLink (NCCL src/graph/tuning.cc,
#: baseLatencies[Ring][LL] and hwLatencies[NVLINK][Ring][LL]).
NCCL_BASE_US, NCCL_NVLINK_US = 6.6, 0.6
#: The anchor efficiency of each serving regime: udfs/data/efficiency.csv (each the
#: geometric mean of floor ÷ (measured − the layers' time) over its published
#: measurements in tests/data/serving_measurements.csv).
REGIME = {r["regime"]: float(r["efficiency"]) for r in csv.DictReader(
    (ROOT / "udfs" / "data" / "efficiency.csv").open(encoding="utf-8"))}
ROOF_EFFICIENCY = 0.8  # Assumptions (prefill without measurements)


def regime_efficiency(t: int, batch: int, expert_parallel: bool) -> float:
    """REGIME_EFFICIENCY by docs/math.md's rule: moe_expert_parallel's anchor for an MoE
    model served expert parallel, else linear in ln(GPUs) and ln(batch) between the dense
    regimes' anchors (``template_support.regime_efficiency``)."""
    if expert_parallel:
        return REGIME["moe_expert_parallel"]
    return dense_efficiency(t, batch)


def by_hand(model: str, weight_bytes: float, gpu: str, eff: float | None, peak_rps: float,
            prompt: int, output: int, ttft_ms: float, tps: float, link_gbps: float,
            reserve: float = 0.0, kv_token: int | None = None,
            attn_dim: int | None = None, utilization: float = 0.6) -> dict:
    """Every row of the tensor-parallel table and the plan, in plain arithmetic; ``eff``
    None: no measurement, each degree and batch at its regime's default, each step floor ÷
    efficiency + the layers' time (layers × 61.0 µs); a measured ``eff``: floor ÷ it.
    Memory holds each sequence at its full context, prompt + output; a step reads its KV
    cache at the mean context, prompt + output ÷ 2, and, prefill sharing the GPUs (the
    scenario's default, aggregated), computes prompt ÷ output prompt tokens a sequence
    beside its decoded one (Sarathi-Serve's chunked prefill, Agrawal et al. OSDI 2024):
    the matmuls, the experts they pick and the all-reduces carry them, each attends to
    half the prompt (causal)."""
    m, g = tables.models()[model], tables.gpus()[gpu]
    params = float(m["total_params_B"]) * 1e9
    active = float(m["active_params_B"]) * 1e9
    layers, hidden = int(m["num_layers"]), int(m["hidden_size"])
    # config.json: the input embedding (vocab × hidden) is not read whole by a decode step
    # unless it is tied to the LM head (or the card's active count already leaves it out)
    untied = m["tie_word_embeddings"] != "true" and m["active_excludes_embedding"] != "true"
    decode = active - (int(m["vocab_size"]) * hidden if untied else 0)
    experts = int(m["num_experts"] or 0)
    top_k = int(m["experts_per_token"] or 0)
    # one routed expert, gate + up + down projections, over the MoE layers
    expert = (int(m["moe_layers"]) * 3 * hidden * int(m["moe_intermediate_size"])
              if experts else 0)

    # a quantized checkpoint's BF16 parts (udfs/data/checkpoints.csv: DeepSeek-V3's FP8
    # checkpoint keeps its embedding and LM head, 2 × vocab × hidden, in BF16; a step reads
    # the head): one byte more each below BF16
    kept, kept_read = float(m["kept_params"]), float(m["kept_decode_params"])
    extra = max(2 - weight_bytes, 0) / 1e9  # GB per kept weight above the precision

    def read(batch):  # GB of weights a decode step of ``batch`` sequences reads
        picked = experts * (1 - (1 - top_k / experts) ** max(batch, 1)) if experts else 0
        return (decode + expert * (picked - top_k)) * weight_bytes / 1e9 + kept_read * extra

    # KV per token, BF16: 2 (K and V) × layers × KV heads × head dim × 2 bytes (kipply)
    if kv_token is None:
        kv_token = 2 * layers * int(m["num_kv_heads"]) * int(m["head_dim"]) * 2
    context = prompt + output
    kv = kv_token * context / 1e9  # GB per sequence, BF16 cache: memory, the full context
    kv_read = kv_token * (prompt + output / 2) / 1e9  # what a step reads: the mean context
    share = prompt / output  # prompt tokens a step carries a sequence
    per_seq = 1 + share  # tokens a sequence adds to a step's matmuls and all-reduces
    # attention's products per sequence: QKᵀ and AV, 4 × layers × heads × head dim × the
    # tokens attended (its decoded token over the mean context, its share over prompt ÷ 2)
    heads = int(m["num_attention_heads"])
    attn_seq = 4 * layers * (attn_dim or heads * int(m["head_dim"])) * (
        prompt + output / 2 + share * prompt / 2)
    # the KV copies a tensor-parallel stage of t GPUs reads: t ÷ min(t, KV heads), MLA one
    kv_heads = 1 if m["attention"] == "MLA" else int(m["num_kv_heads"])
    w = params * weight_bytes / 1e9 + kept * extra  # GB
    mem, bw = float(g["memory_GB"]), float(g["memory_bandwidth_TBps"])
    roof = float(g["fp8_dense_TFLOPS"] if weight_bytes <= 1 else g["bf16_dense_TFLOPS"])
    flops = 2 * active  # FLOPs per token
    target = 1000 / tps  # ms per step

    def parallel(t):  # an MoE model on more than one GPU: expert parallel, no all-reduce
        return experts > 1 and t > 1

    def comm_bandwidth(tokens, t):  # ring all-reduce, 2 per layer, bandwidth term, ms
        if t == 1 or parallel(t):
            return 0.0
        return 2 * layers * 2 * (t - 1) / t * tokens * hidden * 2 / (link_gbps * 1e9) * 1e3

    def comm(tokens, t):  # with NCCL's latencies: a call and 2(t − 1) ring steps each
        if t == 1 or parallel(t):
            return 0.0
        return (comm_bandwidth(tokens, t)
                + 2 * layers * (NCCL_BASE_US + 2 * (t - 1) * NCCL_NVLINK_US) / 1e3)

    def efficiency(t, batch):
        return eff if eff is not None else regime_efficiency(t, batch, parallel(t))

    def copies(t):
        return 1 if parallel(t) else t / min(t, kv_heads)

    read_all = (decode + expert * (experts - top_k)) * weight_bytes / 1e9 + kept_read * extra
    most = eff if eff is not None else max(REGIME.values())

    def latency_batch(budget_ms, t):  # largest B with max(memory, math) ≤ budget × eff
        # (R + B·kv) ÷ (t·BW) ≤ T·e, kv what a sequence's step reads with its copies
        mem_limit = (budget_ms * most * bw * t - read_all) / (kv_read * copies(t))
        math_limit = budget_ms * most * 1e-3 * roof * t * 1e12 / (flops * per_seq)
        return max(math.floor(round(min(mem_limit, math_limit), 9)), 0)

    # the layers' time a realistic step adds to floor ÷ efficiency: layers × 61.0 µs per
    # token (udfs/data/layer_time.csv; the layers from config.json); none with a measured
    # efficiency, whose floor ÷ measured holds it
    fixed = layers * LAYER_US / 1000 if eff is None else 0.0

    def step(batch, t):  # realistic ms per token: (attention + weights + all-reduces) ÷ e
        # + the layers' time
        tokens = batch * per_seq
        floor = (max(batch * kv_read * copies(t) / (bw * t),
                     batch * attn_seq / (roof * t * 1e12) * 1e3)
                 + max(tokens * flops / (roof * t * 1e12) * 1e3, read(batch) / (bw * t))
                 + comm(tokens, t))
        return floor / efficiency(t, batch) + fixed

    seconds = ttft_ms / 1000 + output / tps  # each request in flight, s
    concurrency = peak_rps * seconds  # Little's law
    peak_tps = peak_rps * output  # output tokens/s at the peak
    rows = []
    for t in TP_DEGREES:
        mem_batch = max(math.floor(round((t * mem * (1 - reserve) - w) / kv, 9)), 0)
        lat0 = latency_batch(target, t)
        # the largest batch that fits and whose step, all-reduces in, meets the target
        batch = next((b for b in range(mem_batch, 0, -1) if step(b, t) <= target), 0)
        # the first token (workbook.model.prefill): the larger of the prompt's math and
        # what it moves (the weights its tokens pick, the keys and values it writes), with
        # its all-reduces, ÷ the roof efficiency, + the layers' time once
        attention = 2 * layers * heads * int(m["head_dim"]) * prompt**2
        math_ms = (2 * active * prompt + attention) / (roof * t * 1e12) * 1e3
        moved_ms = (read(prompt) + kv_token * prompt / 1e9) / (bw * t)
        first = ((max(math_ms, moved_ms) + comm(prompt, t)) / (eff or ROOF_EFFICIENCY)
                 + layers * LAYER_US / 1000)
        ok = batch >= 1 and first <= ttft_ms
        # Sizing's rule: the peak token rate ÷ (the replica's tokens/s × utilization)
        replica_tps = batch * 1000 / step(batch, t) if ok else None
        replicas = max(math.ceil(round(peak_tps / (replica_tps * utilization), 9)), 1) \
            if ok else None
        rows.append(dict(tp=t, mem_batch=mem_batch, lat_batch=lat0,
                         comm_ms=comm_bandwidth(per_seq, t), batch=batch,
                         step_ms=step(batch, t) if batch >= 1 else None,
                         tps_1=1000 / step(1, t), ttft=first, replicas=replicas,
                         replica_tps=replica_tps,
                         gpus=replicas * t if ok else None, w=w, kv=kv))
    return dict(rows=rows, concurrency=concurrency, w=w, kv=kv, read=read, step=step,
                fixed=fixed)


def check_rows(values: dict, hand: dict):
    """Every cell of the tensor-parallel table against the hand calculation."""
    cols = {key: col for col, (key, *_) in TP_COLUMNS.items()}
    for i, row in enumerate(hand["rows"]):
        r = TP_FIRST + i
        for key in ("mem_batch", "lat_batch", "batch", "replicas", "gpus"):
            expected = row[key] if row[key] is not None else "none"
            assert values[f"{cols[key]}{r}"] == expected, (key, r)
        for key in ("comm_ms", "step_ms", "tps_1", "ttft"):
            if row[key] is not None:
                assert values[f"{cols[key]}{r}"] == pytest.approx(row[key], rel=1e-9), (key, r)


def test_default_plan_against_hand_calculation(default):
    K = PLAN
    assert default[K["efficiency"]] == 1  # no measurement on Calibration: the ratio 1
    # Llama 3.1 70B FP8 on the H100 SXM; 20 requests/s, 2,000 + 300 tokens, 1 s, 30 tokens/s;
    # NVLink 4: 900 GB/s in + out, 450 GB/s each way
    hand = by_hand("Llama 3.1 70B", 1, "NVIDIA H100 SXM", None, 20, 2000, 300, 1000, 30, 450)
    check_rows(default, hand)
    # KV: 2 × 80 × 8 × 128 × 2 B = 327,680 B/token × 2,300 tokens = 0.753664 GB
    assert default[K["kv_seq_gb"]] == pytest.approx(0.753664)
    assert default[K["weight_gb"]] == pytest.approx(70.6)  # 70.6e9 params × 1 byte
    # Little: 20 requests/s × (1 s + 300 ÷ 30 tokens/s = 11 s) = 220 in flight
    assert default[K["concurrency"]] == pytest.approx(220)
    # the anchors by_hand reads from udfs/data/efficiency.csv are the ones written above
    assert REGIME == {"small_batch": SMALL, "tp8_small_batch": TP8_SMALL,
                      "throughput_one_gpu": ONE_GPU, "throughput_tp": TP,
                      "moe_expert_parallel": MOE}
    # every step adds the layers' time: 80 layers (config.json) × 65.8 µs
    # (udfs/data/layer_time.csv) = 5.264 ms, none measured on Calibration
    assert hand["fixed"] == pytest.approx(80 * 65.8 / 1000) == LAYERS_70B_MS
    # a step reads each sequence's KV cache at the mean context, 327,680 B × (2,000 + 150)
    # = 0.704512 GB, and computes 1 + 2,000 ÷ 300 = 7.667 tokens a sequence (prefill shares
    # the GPUs). One H100: ⌊(80 − 70.6) ÷ 0.7537⌋ = 12 sequences fit (memory: the full
    # context), but even batch 1 misses the 33.33 ms: (69.55 GB + 0.7045) ÷ 3.35 TB/s =
    # 20.97 ms (the weights' read above the math of 7.667 tokens; the KV's read above the
    # attention's FLOPs) ÷ small_batch's 0.742 + 5.264 = 33.53 ms: no batch at TP 1
    assert (READ_70B + 0.704512) / 3.35 / SMALL + LAYERS_70B_MS > 1000 / 30
    assert SMALL == 0.742
    assert hand["rows"][0]["mem_batch"] == 12
    assert hand["rows"][0]["batch"] == 0
    # Compared: the fewest GPUs in total for the service level, ties to the smaller degree
    best = min((r for r in hand["rows"] if r["gpus"]), key=lambda r: (r["gpus"], r["tp"]))
    assert default[K["compare"]].startswith(
        f"fewest GPUs for the service level: TP {best['tp']} × {best['replicas']} replica(s)"
        f" = {best['gpus']} GPUs at batch {best['batch']}")
    # one sentence a question: it says which one Sizing's headline answers and what to
    # type there to take this layout (the default scenario has one pipeline stage)
    assert default[K["gpus_total"]] == 22 * 2  # 22 replicas of 2 GPUs (worked out below)
    assert "The headline (Sizing, RESULT_GPUS: 44 GPUs) is the " \
        f"scenario as typed; to take this layout there, type {best['tp']} GPUs per " \
        f"replica, 1 pipeline stage(s) and batch {best['batch']} in Sizing's scenario" \
        in default[K["compare"]]
    # the replicas hold the peak at the planned utilization: 20 requests/s × 300 output
    # tokens = 6,000 tokens/s ≤ replicas × the replica's tokens/s × 0.6 (Sizing's rule)
    assert best["replicas"] * best["replica_tps"] * 0.6 >= 6000
    # The answer is the scenario's (Sizing: batch 16 on the smallest degree that holds it,
    # 2 H100; replicas for the peak token rate at the planned utilization, at 2 GPUs and
    # batch 16, throughput_tp's 0.471 (16 the smallest batch of its rows) and the layers'
    # 5.264 ms: 14.03 ÷ 0.471 + 5.264 = 35.04 ms): 20 requests/s × 300 = 6,000 tokens/s ÷
    # (456.6 tokens/s per replica × 0.6) = 21.9: 22 replicas
    eff = TP  # REGIME_EFFICIENCY(2, 16): throughput_tp's anchor, no Calibration rows counted
    assert dense_efficiency(2, 16) == eff == 0.471
    assert (default[K["tp"]], default[K["batch"]]) == (2, 16)
    replicas = math.ceil(6000 / (1000 / (STEP / eff + LAYERS_70B_MS) * 16 * 0.6))
    assert default[K["replicas"]] == replicas == 22
    # ... and it misses the 30 tokens/s: on 2 H100 the largest batch that meets it is 15:
    # the KV 15 × 0.704512 ÷ 6.7 = 1.577 ms + the weights 10.380 ms (above the math of 15 ×
    # 7.667 tokens) + the all-reduces 160 × (7.8 µs + 115 tokens × 16,384 B ÷ 450 GB/s) =
    # 1.918 ms = 13.876 ms ÷ 0.4962 (0.742 + (0.471 − 0.742) × ln(15/8) ÷ ln 2) + 5.264 =
    # 33.23 ms; at 16, 14.025 ÷ 0.471 + 5.264 = 35.04 ms, over the 33.33
    e15 = 0.742 + (0.471 - 0.742) * math.log(15 / 8) / math.log(2)
    assert dense_efficiency(2, 15) == pytest.approx(e15)

    def tp2(batch, e):
        tokens = batch * (1 + 2000 / 300)
        return ((batch * 0.704512 + READ_70B) / 6.7 + comm_ms(80, 8192, tokens, 2)) / e \
            + LAYERS_70B_MS
    assert hand["step"](15, 2) == pytest.approx(tp2(15, e15))
    assert hand["step"](16, 2) == pytest.approx(STEP / 0.471 + LAYERS_70B_MS)
    assert hand["step"](15, 2) <= 1000 / 30 < hand["step"](16, 2)
    assert tp2(15, e15) == pytest.approx(33.23, abs=5e-3)
    assert hand["rows"][1]["batch"] == 15
    assert default[K["status"]].startswith("misses the service level at TP 2 and batch 16: "
                                           "the largest batch that meets it is 15.")
    # Money and energy: price from the GPUs sheet, 730.5 h a month, PUE 1.3, 700 W TDP
    price, gpus = default[K["price"]], default[K["gpus_total"]]
    assert gpus == 22 * 2  # 22 replicas of 2 H100
    assert default[K["monthly"]] == pytest.approx(gpus * price * 730.5)
    out_tps = 8 * 300  # average: 8 requests/s × 300 output tokens
    assert default[K["cost_out_mtok"]] == pytest.approx(gpus * price / (out_tps * 3600) * 1e6)
    # blended: Finance's figure by its name, the bill per output token and the prompts'
    # prefill per input token weighted 2,000 : 300; in aggregated serving (the default) the
    # bill already pays for the prompts' prefill, so the input tokens add 0 on top
    cout = gpus * price / (out_tps * 3600) * 1e6
    cin = 0.0
    assert default[K["cost_all_mtok"]] == pytest.approx(
        (2000 / 300 * cin + cout) / (2000 / 300 + 1))
    assert default[K["joules_token"]] == pytest.approx(gpus * 700 * 1.3 / out_tps)
    assert default[K["energy_mtok"]] == pytest.approx(gpus * 700 / out_tps * 1e6 / 3.6e6 * 1.3)


def test_default_case_in_numbers(default):
    # Written out for the default, each step floor ÷ efficiency + 80 × 65.8 µs = 5.264 ms
    # (config.json's layers, udfs/data/layer_time.csv), each sequence's step reading its KV
    # cache at the mean context (0.704512 GB) and computing 1 + 2,000 ÷ 300 tokens: one
    # H100 meets the step target at no batch (see above), the row says "none"; TP 4 meets
    # it at batch 45: the KV, 45 × 0.704512 GB ÷ 13.4 TB/s = 2.366 ms (above the
    # attention's 0.13 ms of FLOPs), + the math of 45 × 7.667 = 345 tokens, 2 × 70.6e9 ×
    # 345 ÷ (4 × 1,978.9 TFLOPS) = 6.154 ms (above the weights' read, 69.549 ÷ 13.4 =
    # 5.190 ms: prefill makes TP 4 compute bound), + the all-reduces 160 × (6.6 + 6 × 0.6 µs
    # + 1.5 × 345 × 16,384 B ÷ 450 GB/s) = 4.647 ms, = 13.167 ms ÷ throughput_tp's 0.471 +
    # 5.264 = 33.22 ms; at 46, 33.76 ms, over. 45 × 1,000 ÷ 33.22 = 1,354.7 tokens/s a
    # replica: 6,000 ÷ (1,354.7 × 0.6) = 7.38, 8 replicas, 32 GPUs, the fewest (TP 2: 23 ×
    # 2 = 46; TP 8: 6 × 8 = 48); the plan's monthly cost is its GPUs × 2.95 per hour ×
    # 730.5 h.
    K = PLAN

    def tp4(batch):  # the realistic step of TP 4 at ``batch``, throughput_tp, ms
        tokens = batch * (1 + 2000 / 300)
        kv = max(batch * 0.704512 / 13.4,
                 batch * 4 * 80 * 8192 * (2150 + 2000 / 300 * 1000) / 4 / 1978.9e12 * 1e3)
        weights = max(READ_70B / 13.4, tokens * 2 * 70.6e9 / 4 / 1978.9e12 * 1e3)
        comm = 160 * (6.6 + 6 * 0.6 + 1.5 * tokens * 16384 / 450e9 * 1e6) / 1e3
        return (kv + weights + comm) / 0.471 + LAYERS_70B_MS

    assert tp4(45) <= 1000 / 30 < tp4(46)
    assert tp4(45) == pytest.approx(33.22, abs=5e-3)
    assert default[f"E{TP_FIRST}"] == 0 and default[f"K{TP_FIRST}"] == "none"
    assert default[f"E{TP_FIRST + 2}"] == 45
    assert default[f"F{TP_FIRST + 2}"] == pytest.approx(tp4(45), rel=1e-9)
    assert default[f"K{TP_FIRST + 2}"] == 4 * math.ceil(6000 / (45 * 1000 / tp4(45) * 0.6)) \
        == 32
    assert default[K["monthly"]] == pytest.approx(default[K["gpus_total"]] * 2.95 * 730.5)
    # the scenario's own degree (row 58: 2 GPUs) repeats the row of TP 2
    assert [default[f"{c}{TP_FIRST + 4}"] for c in "ABCEFGIJK"] == \
        [default[f"{c}{TP_FIRST + 1}"] for c in "ABCEFGIJK"]


def test_moe_on_eight_gpus_is_expert_parallel(deepseek):
    K = PLAN
    # DeepSeek-V3: 671.03e9 parameters (37.55e9 active, counted from config.json), FP8
    # with the embedding and LM head in BF16; MLA caches 61 layers × 576 × 2 B = 70,272 B
    # per token and multiplies 128 heads × (576 + 512) ÷ 2 = 544 (DeepSeek-V2 §2.1, absorbed
    # weights); H200 SXM: 141 GB, 4.8 TB/s, 1,978.9 TFLOPS FP8, NVLink 450 GB/s
    hand = by_hand("DeepSeek-V3", 1, "NVIDIA H200 SXM", None, 20, 2000, 300, 1000, 30, 450,
                   kv_token=61 * 576 * 2, attn_dim=128 * 544)
    check_rows(deepseek, hand)
    tp8 = hand["rows"][-1]
    # 8 × 141 = 1,128 GB hold 672.9 GB of weights; fewer GPUs do not
    assert hand["w"] == pytest.approx((671.0264192e9 + 2 * 129280 * 7168) / 1e9)
    assert [r["mem_batch"] > 0 for r in hand["rows"]] == [False, False, False, True]
    # an MoE model on 8 GPUs is served expert parallel, the attention data parallel: no
    # all-reduce, one copy of the KV cache, and the moe_expert_parallel regime's 0.239
    # (udfs/data/efficiency.csv), + the layers' time, 61 layers (config.json) × 65.8 µs
    # (udfs/data/layer_time.csv) = 4.014 ms. Batch 1 reads the 37.55B active but the input
    # embedding, 129,280 × 7,168, its BF16 head one byte more (the prompt's 6.67 tokens a
    # step are computed, their experts left out); the attention of its decoded token over
    # the mean context and of its prompt share over half the prompt, 4 × 61 × 69,632 ×
    # (2,150 + 6.667 × 1,000) FLOP ÷ 8 × 1,978.9 TFLOPS = 0.00946 ms, is above its KV read
    # (70,272 B × 2,150 ÷ 38.4 TB/s = 0.00393 ms): (37.55 GB ÷ 38.4 TB/s + 0.00946 ms) ÷
    # 0.239 + 4.014 = 8.15 ms
    assert deepseek[f"D{TP_FIRST + 3}"] == 0
    fixed = 61 * 65.8 / 1000
    assert hand["fixed"] == pytest.approx(fixed)
    read_1 = 37.5523 - 129280 * 7168 / 1e9 + 129280 * 7168 / 1e9
    assert hand["read"](1) == pytest.approx(read_1)
    attention = 4 * 61 * 69632 * (2150 + 2000 / 300 * 1000) / (8 * 1978.9e12) * 1e3
    assert attention > 70272 * 2150 / 1e9 / 38.4
    assert tp8["tps_1"] == pytest.approx(1000 / ((read_1 / 38.4 + attention) / 0.239 + fixed))
    # a step of b sequences reads the experts they pick (256 × (1 − (1 − 8/256)^b) a
    # layer, each 58 MoE layers × 3 × 7,168 × 2,048 = 2.554 GB in FP8) and b × the
    # attention: 14 sequences pick 91.86, (37.55 + 2.554 × 83.86) GB ÷ 38.4 TB/s + 14 ×
    # 0.00946 ms = 6.69 ms ÷ 0.239 + 4.014 = 32.00 ms, within the 33.33; 15 pick 96.99:
    # 33.47 ms, over. 14 × 1,000 ÷ 32.00 = 437.5 tokens/s a replica, 6,000 ÷ (437.5 ×
    # 0.6) = 22.86: 23 replicas, 184 GPUs
    expert = 58 * 3 * 7168 * 2048 / 1e9

    def step(batch):  # the realistic step of TP 8, expert parallel, ms
        picked = 256 * (1 - (1 - 8 / 256) ** batch)
        return ((read_1 + expert * (picked - 8)) / 38.4 + batch * attention) / 0.239 + fixed

    assert step(14) <= 1000 / 30 < step(15)
    assert tp8["batch"] == 14 and tp8["step_ms"] == pytest.approx(step(14))
    assert step(14) == pytest.approx(32.00, abs=5e-3)
    assert deepseek[f"E{TP_FIRST + 3}"] == 14
    assert (tp8["replicas"], tp8["gpus"]) == (
        math.ceil(6000 / (14 * 1000 / tp8["step_ms"] * 0.6)), 8 * 23) == (23, 184)
    assert deepseek[K["compare"]].startswith(
        "fewest GPUs for the service level: TP 8 × 23 replica(s) = 184 GPUs at batch 14")
    assert deepseek[K["tp"]] == 8  # the scenario: 5 GPUs hold it, 8 deployed


def test_missed_targets_say_which_and_by_how_much(missed):
    K = PLAN
    hand = by_hand("Llama 3.1 70B", 2, "NVIDIA H100 SXM", None, 20, 2000, 300, 20, 500, 450)
    cols = {key: col for col, (key, *_) in TP_COLUMNS.items()}
    # TP 1: 141.2 GB of BF16 weights do not fit in 80 GB; prefill (2 × 70.6e9 × 2,000 +
    # the attention 2 × 80 layers × 64 heads × 128 × 2,000²) ÷ (989.4 TFLOPS × 0.8, the
    # roof efficiency without measurements) = 363.4 ms (more than the 139.8 GB it moves
    # take, 41.7 ms ÷ 0.8) + 80 layers × 65.8 µs = 368.7 ms against 20 ms
    tp1 = missed[f"L{TP_FIRST}"]
    assert tp1.startswith("memory: weights 141.2 GB + one sequence 0.75 GB > 80 GB usable.")
    first = hand["rows"][0]["ttft"]
    flop = 2 * 70.6e9 * 2000 + 2 * 80 * 64 * 128 * 2000**2
    assert first == pytest.approx(flop / (989.4e12 * 0.8) * 1e3 + 80 * 65.8 / 1000)
    assert (f"first token: {general(first, 0)} ms, target 20 ms ({general(first - 20, 0)} "
            "ms over).") in tp1
    # TP 8: prefill 45.43 ms + all-reduce of the 2,000 prompt tokens 160 × (1.75 ×
    # 32,768,000 B ÷ 450 GB/s + NCCL's 6.6 + 14 × 0.6 µs) = 22.79 ms ÷ 0.8 + 80 layers ×
    # 65.8 µs: 79.2 ms; batch 1
    # steps in ((139.1 GB + the KV at the mean context, 0.7045 GB) ÷ 26.8 TB/s + 160 × (15
    # µs + 1.75 × 7.667 tokens (one decoded, 2,000 ÷ 300 prefilled) × 16,384 B ÷ 450
    # GB/s)) ÷ 0.785 (tp8_small_batch) + 80 layers (config.json) × 65.8 µs
    # (udfs/data/layer_time.csv) = 7.695 ÷ 0.785 + 5.264 = 9.80 + 5.26 = 15.07 ms: 66.4
    # tokens/s, 433.6 short of 500
    tp8 = hand["rows"][-1]
    assert tp8["ttft"] == pytest.approx(flop / (989.4e12 * 8 * 0.8) * 1e3
                                        + 160 * (1.75 * 32_768_000 / 450e9 * 1e3 + 0.015)
                                        / 0.8 + 80 * 65.8 / 1000)
    tokens = 1 + 2000 / 300
    assert tp8["tps_1"] == pytest.approx(1000 / (
        ((READ_70B * 2 + 0.704512) / 26.8
         + 160 * (0.015 + 1.75 * tokens * 16384 / 450e9 * 1e3)) / 0.785 + 80 * 65.8 / 1000))
    assert round(tp8["tps_1"], 1) == 66.4
    assert missed[f"{cols['tps_1']}{TP_FIRST + 3}"] == pytest.approx(tp8["tps_1"])
    status = missed[K["compare"]]
    assert status.startswith("No degree in the table meets both targets. At TP 8: ")
    assert (f"first token: {general(tp8['ttft'], 0)} ms, target 20 ms "
            f"({general(tp8['ttft'] - 20, 0)} ms over).") in status
    assert (f"per-user speed: {general(tp8['tps_1'], 1)} tokens/s at batch 1, target 500 "
            f"({general(500 - tp8['tps_1'], 1)} tokens/s short).") in status
    assert "memory" not in status  # 8 × 80 GB hold the weights
    # the scenario (2 H100 at batch 16) misses it too, and says why at its own degree
    assert missed[K["status"]].startswith("misses the service level at TP 2 and batch 16: ")
    assert missed[K["status"]].endswith(missed[f"L{TP_FIRST + 4}"])


@pytest.fixture(scope="module")
def mixtral(tmp):
    """Mixtral 8x7B in BF16 on H100s at 80 tokens/s per user: a step of 12.5 ms, so small
    batches, where the experts a step reads grow fastest with the batch."""
    return computed(tmp, "mixtral", {"model": "Mixtral 8x7B", "precision": "BF16",
                                     "tps_target": 80})


def test_moe_batch_is_the_largest_that_meets_the_speed(mixtral):
    """Mixtral 8x7B (config.json: 32 layers, all MoE, 8 experts, 2 per token, hidden 4096,
    expert size 14336, vocab 32000), expert parallel on more than one GPU (the
    moe_expert_parallel regime, 0.239, one copy of the KV cache), each step + the layers'
    time, 32 × 65.8 µs (udfs/data/layer_time.csv) = 2.106 ms; the step reads its KV cache
    at the mean context (2 × 32 × 8 × 128 × 2 B × 2,150 = 0.2818 GB a sequence, above the
    attention's FLOPs) and computes 2,000 ÷ 300 prompt tokens a sequence beside its
    decoded one (their experts left out). Batch 1 reads the 12.88B active but the
    embedding, 25.50 GB in BF16. TP 4 (13.4 TB/s) meets 80 tokens/s at batch 1: (25.50 ÷
    13.4 + 0.2818 ÷ 13.4) ÷ 0.239 + 2.106 = 10.16 ms, 98.5 tokens/s; batch 2 reads 8 ×
    (1 − 0.75²) = 3.5 experts a layer, 42.4 GB, too slow there (15.52 ms). TP 8 (26.8
    TB/s): batch 4 reads 5.47 experts, 64.61 GB: (64.61 + 4 × 0.2818) ÷ 26.8 ÷ 0.239 +
    2.106 = 12.37 ms; batch 5 reads 6.10, 13.53 ms, over the 12.5. Reading every expert
    (93.1 GB) no batch meets the speed; reading batch 1's weights hundreds would: the
    search between finds 4."""
    K = PLAN
    hand = by_hand("Mixtral 8x7B", 2, "NVIDIA H100 SXM", None, 20, 2000, 300, 1000, 80, 450)
    check_rows(mixtral, hand)
    cols = {key: col for col, (key, *_) in TP_COLUMNS.items()}
    fixed = 32 * 65.8 / 1000
    assert hand["fixed"] == pytest.approx(fixed)
    tp8, tp4 = hand["rows"][-1], hand["rows"][2]
    read_1 = 12.8799 - 32000 * 4096 / 1e9
    assert hand["read"](1) == pytest.approx(read_1 * 2)
    expert = 32 * 3 * 4096 * 14336 / 1e9
    kv_1 = 2 * 32 * 8 * 128 * 2 * 2150 / 1e9  # one sequence at the mean context

    def step(batch, t):  # the realistic step, expert parallel on t GPUs, ms
        picked = 8 * (1 - 0.75 ** batch)
        return ((read_1 + expert * (picked - 2)) * 2 / (3.35 * t)
                + batch * kv_1 / (3.35 * t)) / 0.239 + fixed

    assert tp4["batch"] == 1 and step(1, 4) <= 12.5 < step(2, 4)
    assert tp4["tps_1"] == pytest.approx(1000 / step(1, 4))
    assert step(1, 4) == pytest.approx(10.16, abs=5e-3)
    assert tp8["batch"] == 4 and step(4, 8) <= 12.5 < step(5, 8)
    assert tp8["step_ms"] == pytest.approx(step(4, 8))
    assert step(4, 8) == pytest.approx(12.37, abs=5e-3)
    r = TP_FIRST + 3
    assert mixtral[f"{cols['moe_0']}{r}"] == 0  # every expert read: nothing meets it
    assert mixtral[f"{cols['moe_1']}{r}"] > 100  # batch 1's weights only: far too many
    read_4 = (read_1 + expert * (8 * (1 - 0.75**4) - 2)) * 2
    assert mixtral[f"{cols['read_gb']}{r}"] == pytest.approx(read_4)
    # TP 8 at batch 4, a step of 12.37 ms: 4 × 1,000 ÷ 12.37 = 323.4 tokens/s a replica,
    # the peak's 6,000 ÷ (323.4 × 0.6) = 30.9: 31 replicas = 248 GPUs; TP 4 at batch 1,
    # 98.5 tokens/s: 102 replicas = 408 GPUs (TP 1: 93.4 GB of weights do not fit in 80
    # GB; TP 2 at batch 1: (25.50 + 0.28) GB ÷ 6.7 ÷ 0.239 + 2.106 = 18.2 ms, too slow)
    assert [row["gpus"] for row in hand["rows"]] == [None, None, 408, 248]
    assert mixtral[f"K{r}"] == 8 * math.ceil(6000 / (4 * 1000 / tp8["step_ms"] * 0.6)) == 248
    assert mixtral[K["compare"]].startswith("fewest GPUs for the service level: TP 8 × "
                                            "31 replica(s) = 248 GPUs at batch 4")


def test_plan_layout_typed_into_sizing_gives_its_gpus(default, tmp):
    """The compare sentence says what to type into Sizing to take Plan's layout; typed
    there, Sizing's headline counts the same replicas and GPUs (one rule for replicas,
    ``workbook.model.fleet``: the peak token rate ÷ (a replica's tokens/s × utilization))."""
    K = PLAN
    said = default[K["compare"]]
    m = re.search(r"type (\d+) GPUs per replica, (\d+) pipeline stage\(s\) and batch (\d+)",
                  said)
    gpus, stages, batch = map(int, m.groups())
    row = next(r for r in range(TP_FIRST, TP_FIRST + len(TP_DEGREES))
               if default[f"A{r}"] == gpus and default[f"E{r}"] == batch)
    src = build_copy(tmp / "adopted.xlsx")
    save_edited(src, {"Sizing!" + SIZING[key]: value
                      for key, value in {**TRAFFIC, "gpus_input": gpus, "stages_input": stages,
                                         "batch_input": batch}.items()})
    dst = tmp / "adopted-calc.xlsx"
    engine_calc(src, dst)
    sizing = values(dst)["Sizing"]
    # the same realistic step, so the same tokens/s a replica and the same replicas
    assert sizing[SIZING["real_step_ms"]] == pytest.approx(default[f"F{row}"], rel=1e-9)
    assert sizing[SIZING["replicas"]] == default[f"J{row}"]
    assert sizing[SIZING["gpus_total"]] == default[f"K{row}"] == 32  # TP 4 × 8 replicas
