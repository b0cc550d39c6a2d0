"""Published serving measurements against napkin's decode floor and regime defaults.

The set (``tests/data/serving_measurements.csv``, columns in ``tests/data/README.md``)
holds measurements read from their primary sources. For each: the floor (with its tokens
per step) is below the measurement, and the realistic estimate, floor ÷ the regime's
efficiency at its GPUs and batch (REGIME_EFFICIENCY) + its layers × the per-layer time
(LAYER_OVERHEAD_MS), is within 1.5× of it but for the rows of ``OUTSIDE``, which are
outside. The per-layer time (``udfs/data/layer_time.csv``) and the regimes' anchors
(``udfs/data/efficiency.csv``) are checked to be made from the set by the rules of
``serving_floor`` (the least-squares fit over the small-batch rows; the geometric mean of
floor ÷ (measured − the per-layer time); the GPUs and batches the rows span), so they
come from the set and from nothing else.
"""

import math
import re
import statistics

import pytest
import serving_floor as sf

from udfs.inference import regimes

ROWS = sf.rows()
IDS = [r["id"] for r in ROWS]


def test_the_set_spans_the_regimes_from_primary_sources():
    # the target: at least 80 measurements from at least 20 independent sources (the
    # ``source`` column names the source a row belongs to: one document, whatever its
    # version, as TensorRT-LLM's perf overview at v1.0 and at commit 03e27c7)
    assert len(ROWS) >= 80
    assert len({r["source"] for r in ROWS}) >= 20
    assert len(set(IDS)) == len(IDS)
    assert {r["serving"] for r in sf.all_rows()} == {"aggregated", "disaggregated"}
    assert {r["regime"] for r in ROWS} == set(regimes.table())
    for r in ROWS:
        assert re.match(r"https://", r["source_url"]), r["id"]
        assert r["source_date"] and r["software"], r["id"]
        assert (r["itl_ms"] or r["batch_latency_ms"] or r["tokens_per_sec_user"]
                or r["tokens_per_sec_total"]), r["id"]
    # speculative rows carry the source's own tokens per step (acceptance length)
    speculative = {r["id"]: float(r["tokens_per_step"]) for r in ROWS
                   if float(r["tokens_per_step"]) != 1}
    assert speculative == {"trtllm-r1-b200-mtp1": 1.92, "trtllm-r1-b200-mtp3": 2.82,
                           "sglang-v3-16xh200-mtp4": 2.44, "trtllm-maverick-b200-eagle3": 4,
                           "nvidia-70b-h200-draft": 3.55, "nvidia-405b-h200-tp4-draft": 3.61}


def test_the_rows_that_leave_are_those_the_twin_rule_names():
    # the rule (serving_floor.contradicted), applied to every row of every source alike: a
    # row leaves when its figure, or that of a twin (the same source's same configuration
    # on another GPU or precision), is faster than its floor. It takes out the TensorRT-LLM
    # v0.9.0 Mixtral figure on 2 A100 at batch 32 (faster than its floor) and its twin on 2
    # H100 (the v0.9.0 row); the file keeps both, its left_out column saying why
    everything = sf.all_rows()
    written = {r["id"]: r["left_out"] for r in everything if r["left_out"]}
    assert written == sf.contradicted()
    assert set(written) == {"trtllm09-mixtral-a100-tp2-b32", "trtllm09-mixtral-h100-tp2-b32"}
    assert len(everything) == len(ROWS) + 2
    a100 = sf.floor(next(r for r in everything if r["id"] == "trtllm09-mixtral-a100-tp2-b32"))
    assert a100.token_ms > a100.measured_ms


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_the_regime_column_is_the_rule(row):
    assert sf.regime_of(row, sf.floor(row)) == row["regime"]


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_the_floor_is_below_the_measurement(row):
    f = sf.floor(row)
    assert f.token_ms < f.measured_ms


#: The rows whose realistic estimate is outside 1.5× of the measurement with the anchors
#: of ``udfs/data/efficiency.csv`` (in sample), and why (``docs/measurements.md``,
#: "Outside 1.5×"): one anchor per regime cannot hold rows that spread wider than
#: 1.5² = 2.25× (floor ÷ measured in parentheses).
OUTSIDE = {
    "trtllm-blog3-r1-b200-dep8": "moe_expert_parallel: 0.42x, DeepSeek-R1 on 8 B200 at "
    "maximum throughput, its batch not stated (memory's batch taken)",
    "trtllm2-r1-b200-dep4-1k1k": "moe_expert_parallel: 0.65x, DeepSeek-R1 on 4 B200 at "
    "maximum throughput, its batch not stated",
    "inferencex-qwen35-mi355x-tp4-c256": "throughput_tp: 0.59x, Qwen3.5 at 8K prompts on "
    "MI355X (the one CDNA4 source)",
    "inferencex-qwen35-mi355x-tp2-c4": "small_batch: 0.64x, Qwen3.5 at 8K prompts on MI355X",
    "inferencex-qwen35-mi355x-tp2-c8": "small_batch: 0.65x, Qwen3.5 at 8K prompts on MI355X",
    "trtllm-8b-h200": "throughput_one_gpu: 1.63x slow, a 2025 stack against an anchor "
    "half of 2024 rows, at memory's batch",
    "trtllm-8b-h100": "throughput_one_gpu: 1.75x slow, as above",
    "sglang-v3-16xh200": "moe_expert_parallel: 1.79x slow, 2 sequences a GPU at 64K: the "
    "regime's anchor is of maximum-throughput rows",
    "sglang-v3-16xh200-mtp4": "moe_expert_parallel: 1.63x slow, as above with MTP",
    "trtllm2-maverick-b200-dep4-8k1k": "moe_expert_parallel: 2.24x slow, Llama 4 Maverick "
    "with attention data parallel on 4 B200",
    "trtllm2-maverick-b200-dep4-32k1k": "moe_expert_parallel: 2.02x slow, as above at 32K",
}


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_the_realistic_estimate_is_within_one_and_a_half_times(row):
    # every row but those of OUTSIDE, which are outside: the list is the finding, exact
    f = sf.floor(row)
    realistic = f.token_ms / regimes.regime_efficiency(
        float(row["gpus"]), f.batch, 1.0 if row["expert_parallel"] == "1" else 0.0
    ) + regimes.layer_overhead_ms(f.layers, f.tokens_per_step)
    inside = f.measured_ms / 1.5 <= realistic <= f.measured_ms * 1.5
    assert inside == (row["id"] not in OUTSIDE), OUTSIDE.get(row["id"], "within 1.5×")
    assert realistic == pytest.approx(sf.realistic_ms(row, f))


def test_the_docs_name_the_rows_outside():
    text = (sf.MEASUREMENTS.parents[2] / "docs" / "measurements.md").read_text("utf-8")
    section = text.split("## Outside 1.5×")[1].split("\n## ")[0]
    assert {i for i in IDS if f"`{i}`" in section} == set(OUTSIDE)


def test_each_anchor_is_made_from_its_regimes_rows():
    derived = sf.derived_anchors()
    table = regimes.table()
    assert set(derived) == set(table)
    for name, row in table.items():
        # the file keeps three significant figures of the efficiency
        assert float(row["efficiency"]) == float(f"{derived[name]['efficiency']:.3g}"), name
        for column in ("gpus_low", "gpus_high", "batch_low", "batch_high"):
            assert float(row[column]) == derived[name][column], (name, column)
        listed = [m.strip() for m in row["measurements"].split(";")]
        assert sorted(listed) == sorted(r["id"] for r in ROWS if r["regime"] == name), name


def test_the_per_layer_time_is_made_from_the_small_batch_rows():
    # the file keeps three significant figures of the least-squares fit; its list of
    # measurements is the rows of both small-batch regimes
    row = regimes.layer_time()
    assert float(row["layer_time_us"]) == sf.derived_layer_time_us() == 65.8
    listed = [m.strip() for m in row["measurements"].split(";")]
    assert sorted(listed) == sorted(r["id"] for r in ROWS if r["regime"] in sf.LAYER_REGIMES)
    assert len(listed) == 29


def test_the_layers_fit_the_small_batch_rows_better_than_one_efficiency():
    # docs/measurements.md, "The per-layer time": over the 29 small-batch rows, measured
    # step S = F/e + L·t (least squares in relative error) leaves an RMS relative error of
    # 19 % (largest 41 %); S = F/e alone, fitted the same way (1/e = Σu ÷ Σu², u = F/S),
    # leaves 29 % (largest 59 %)
    small = [sf.floor(r) for r in ROWS if r["regime"] in sf.LAYER_REGIMES]
    steps = [f.measured_ms * f.tokens_per_step for f in small]
    u = [f.step_ms / s for f, s in zip(small, steps, strict=True)]
    k = sum(u) / sum(x * x for x in u)
    one = [k * x - 1 for x in u]
    t = sf.derived_layer_time_us() / 1000
    inv_e = sum((1 - f.layers * t / s) * x for f, s, x in zip(small, steps, u, strict=True)) \
        / sum(x * x for x in u)  # the efficiency that goes with t, given t
    two = [inv_e * x + f.layers * t / s - 1 for f, s, x in zip(small, steps, u, strict=True)]

    def rms(errors):
        return math.sqrt(sum(e * e for e in errors) / len(errors))

    assert rms(one) == pytest.approx(0.285, abs=0.0005)
    assert max(map(abs, one)) == pytest.approx(0.587, abs=0.0005)
    assert rms(two) == pytest.approx(0.193, abs=0.001)
    assert max(map(abs, two)) == pytest.approx(0.407, abs=0.001)


def test_the_per_layer_fit_by_hand_on_two_rows():
    # the fit of S = F/e + L·t through two rows exactly (two equations, two unknowns), a
    # check of the normal equations' algebra: Llama 3.1 8B on one A100 at batch 1 (vLLM
    # 0.23.0, 32 layers) and Llama 3.3 70B on one H200 at batch 1 (TensorRT-LLM, 80 layers)
    a = next(r for r in ROWS if r["id"] == "vllm-8b-a100-c1")
    b = next(r for r in ROWS if r["id"] == "nvidia-70b-h200-nodraft")
    fa, fb = sf.floor(a), sf.floor(b)
    # Cramer's rule on [F_a L_a; F_b L_b] [1/e t] = [S_a S_b], for t
    det = fa.step_ms * fb.layers - fb.step_ms * fa.layers
    t_ms = (fa.step_ms * fb.measured_ms - fb.step_ms * fa.measured_ms) / det
    # the least-squares solution through exactly these two rows is that one
    both = sf.derived_layer_time_us([a, b])
    assert both == float(f"{t_ms * 1000:.3g}")


def test_the_realistic_step_by_hand():
    # Llama 3.1 70B FP8 on 8 MI300X at batch 1 (AMD's vLLM table): floor 4.056 ms
    # (test_floor_of_an_mi300x_tp8_row_by_hand), tp8_small_batch's 0.785, 80 layers ×
    # 65.8 µs = 5.264 ms: 4.056 ÷ 0.785 + 5.264 = 10.43 ms against 8.416 measured (1.24×)
    row = next(r for r in ROWS if r["id"] == "amd-70b-mi300x-tp8-b1")
    f = sf.floor(row)
    assert sf.realistic_ms(row, f) == pytest.approx(f.step_ms / 0.785 + 80 * 65.8e-3)
    assert sf.realistic_ms(row, f) / f.measured_ms == pytest.approx(1.2394, abs=0.0005)


def test_the_anchor_of_small_batch_by_hand():
    # floor ÷ (measured − layers × 65.8 µs) of its nineteen rows: 0.3658
    # (inferencex-qwen35-mi355x-tp2-c4) ... 1.0935 (nvidia-405b-h200-tp4-draft); their
    # geometric mean 0.7422 → 0.742
    by_id = {}
    for r in ROWS:
        if r["regime"] == "small_batch":
            f = sf.floor(r)
            by_id[r["id"]] = f.token_ms / (f.measured_ms - f.layers * 65.8e-3
                                           / f.tokens_per_step)
    assert len(by_id) == 19
    ordered = sorted(by_id, key=by_id.get)
    assert ordered[0] == "inferencex-qwen35-mi355x-tp2-c4"
    assert ordered[-1] == "nvidia-405b-h200-tp4-draft"
    assert by_id[ordered[0]] == pytest.approx(0.3658, abs=5e-5)
    assert by_id[ordered[-1]] == pytest.approx(1.0935, abs=5e-5)
    mean = math.exp(sum(math.log(e) for e in by_id.values()) / 19)
    assert mean == pytest.approx(0.7422, abs=5e-5)
    assert float(regimes.table()["small_batch"]["efficiency"]) == 0.742


def test_the_efficiency_has_no_step_at_any_batch():
    # the regime rule steps at batch 8 (on 8 GPUs tp8_small_batch 0.785 to throughput_tp
    # 0.471, the largest difference of two neighbouring anchors); the efficiency moves in
    # ln(batch) between batch 8 and 16 instead (the largest batch of the small-batch rows,
    # the smallest of throughput_tp's): from one whole batch to the next it moves at most
    # (0.785 − 0.471) × ln(9/8) ÷ ln(16/8) = 0.0534
    step = max(abs(regimes.regime_efficiency(g, b + 1) - regimes.regime_efficiency(g, b))
               for g in range(1, 9) for b in range(1, 2000))
    assert step <= (0.785 - 0.471) * math.log(9 / 8) / math.log(2) + 1e-12
    # on 2 GPUs it falls with the batch, never below the throughput anchor
    effs = [regimes.regime_efficiency(2, b) for b in range(1, 2000)]
    assert all(a >= b for a, b in zip(effs, effs[1:], strict=False))
    assert min(effs) == 0.471 and max(effs) == 0.742


def test_the_smallest_batch_a_float_holds_is_a_small_batch():
    # 5e-324 (the smallest positive float, which hypothesis draws) over batch 8 underflows
    # to 0; below small_batch's largest batch (8) the efficiency is its anchor, 0.742
    from udfs.catalog import CATALOG

    assert regimes.regime_efficiency(1.0, 5e-324) == 0.742
    assert CATALOG["REGIME_EFFICIENCY"](1, 5e-324) == 0.742


def test_floor_of_an_mi300x_tp8_row_by_hand():
    # Llama 3.1 70B FP8 on 8 MI300X (AMD's vLLM latency table), batch 1, 128 in / 2,048
    # out: mean context 128 + 1,024 = 1,152 tokens; prefill shares the GPUs (one vLLM
    # instance), so a step computes 1 + 128 ÷ 2,048 = 1.0625 tokens.
    # weights read: 69,549,326,848 B (70.6e9 − the 128,256 × 8,192 embedding) ÷ (8 × 5.3
    #   TB/s) = 1.640314 ms (math: 2 × 70.6e9 × 1.0625 ÷ (8 × 2,614.9e12) = 0.0072 ms)
    # KV: 1,152 × 80 layers × 2 × 8 × 128 × 1 B (FP8) = 188,743,680 B ÷ 42.4e12, one copy
    #   (8 KV heads on 8 GPUs)
    # all-reduces: 2 × 80 × (2 × 7/8 × 8,192 × 2 B × 1.0625 tokens ÷ 448e9 B/s, half of
    #   896 GB/s), plus NCCL's ring latency with NVLink's constants (6.6 µs + 2 × 7 × 0.6
    #   µs = 15 µs)
    # measured: 17.236 s for the batch ÷ 2,048 output tokens
    f = sf.floor(next(r for r in ROWS if r["id"] == "amd-70b-mi300x-tp8-b1"))
    weights = 69_549_326_848 / 42.4e12 * 1e3
    kv = 188_743_680 / 42.4e12 * 1e3
    comm = 2 * 80 * (2 * 7 / 8 * 8192 * 2 * 1.0625 / 448e9) * 1e3 + 2 * 80 * 15e-3
    assert f.comm_ms == pytest.approx(comm)
    assert f.step_ms == pytest.approx(weights + kv + comm)
    assert f.measured_ms == pytest.approx(17236 / 2048)


def test_floor_of_a_tp2_row_by_hand():
    # Llama 3.3 70B FP8 on 2 H100 (NIM 1.8.0), batch 1, 5,000 in / 500 out: mean context
    # 5,000 + 250 = 5,250 tokens; prefill shares the GPUs, so a step computes 1 + 5,000 ÷
    # 500 = 11 tokens.
    # weights read: 70.6e9 − 128,256 × 8,192 (embedding, config) = 69,549,326,848 B
    #   ÷ (2 × 3.35 TB/s) = 10.380497 ms (math: 2 × 70.6e9 × 11 ÷ (2 × 1,979e12) = 0.392
    #   ms: below)
    # KV: 5,250 × 80 layers × 2 × 8 × 128 × 1 B (FP8) = 860,160,000 B ÷ 6.7e12 = 0.128382
    #   ms, one copy (8 KV heads on 2 GPUs) (attention FLOPs 4 × 80 × 8,192 × (5,250 + 10
    #   × 2,500) ÷ 3,958e12 = 0.0200 ms: below)
    # all-reduces: 2 × 80 × (2 × 1/2 × 8,192 × 2 B × 11 ÷ 450e9 B/s) = 0.064080 ms, plus
    #   their latency over NVLink in NCCL's ring model (src/graph/tuning.cc: base 6.6 µs +
    #   2 × (2 − 1) steps × 0.6 µs = 7.8 µs per all-reduce): 2 × 80 × 7.8 µs = 1.248 ms
    f = sf.floor(next(r for r in ROWS if r["id"] == "nim-70b-tp2-c1-long"))
    weights = 69_549_326_848 / 6.7e12 * 1e3
    kv = 860_160_000 / 6.7e12 * 1e3
    comm = 2 * 80 * (8192 * 2 * 11 / 450e9) * 1e3 + 2 * 80 * 7.8e-3
    assert f.comm_ms == pytest.approx(comm)
    assert f.step_ms == pytest.approx(weights + kv + comm)
    assert f.measured_ms == 18.58


def test_memory_batch_of_a_max_throughput_row_by_hand():
    # Llama 3.1 8B FP8 on one H100, 1,000 in / 1,000 out, batch not published: the most
    # that 80 GB holds beside 8.03 GB of weights, each sequence at its full context (its
    # last step) of 2,000 tokens × 65,536 B (FP8 KV, half of 131,072) = 131,072,000 B:
    # ⌊71.97e9 ÷ 131.072e6⌋ = 549
    f = sf.floor(next(r for r in ROWS if r["id"] == "trtllm-8b-h100"))
    assert f.batch == 549
    # measured per stream: 549 ÷ 15,220 tokens/s = 36.071 ms
    assert f.measured_ms == pytest.approx(549 / 15220 * 1e3)


def test_speculative_rows_verify_their_drafts_and_divide_by_the_accepted_tokens():
    # MTP 3 on DeepSeek-R1 (TensorRT-LLM: one MTP module called 3 times; the main model
    # verifies 3 drafts + 1 token a step): the step is the plain one and what 3 more tokens
    # add at batch 1 (mean context 1,000 + 2,000 ÷ 2 = 2,000 tokens, 8 B200; prefill
    # shares the GPUs, 1,000 ÷ 2,000 = 0.5 prompt tokens a step: 1.5 tokens computed a
    # step plain, 4.5 with MTP 3):
    # - experts: the 4 verified tokens pick 256 × (1 − (248/256)^4) − 8 = 22.53 more of
    #   256 a layer than one does (the prompt's experts, read once a prefill chunk, are
    #   left out), each 58 MoE layers × 3 × 7,168 × 2,048 = 2.5543e9 weights
    #   (config.json), NVFP4 0.5625 B, over 8 × 8 TB/s: 0.5058 ms;
    # - the all-reduces' bytes of 3 more tokens: 2 × 61 × 2 × 7/8 × 7,168 × 2 B × 3 ÷ 900
    #   GB/s (NVLink 5 one way) = 0.0102 ms (their latency is paid once a step);
    # - the attention: none. MLA in tensor parallel on 8 GPUs holds the latent cache on
    #   each of them, so the KV read is 8 × 2,000 × 35,136 B FP8 ÷ 64 TB/s = 8.78 µs, and
    #   the products, 4 × 61 × (128 × 544) × (4 × 2,000 + 0.5 × 500) ÷ (8 × 9,000 TFLOPS FP4
    #   dense) = 1.95 µs with MTP (0.53 µs plain), stay below it
    # then ÷ 2.82 tokens a step; its layers' time counts 61 + 3 layers
    plain = sf.floor(next(r for r in ROWS if r["id"] == "trtllm-r1-b200-nomtp"))
    mtp = sf.floor(next(r for r in ROWS if r["id"] == "trtllm-r1-b200-mtp3"))
    experts = (256 * (1 - (248 / 256) ** 4) - 8) * 58 * 3 * 7168 * 2048 * 0.5625 / 64e12
    comm = 2 * 61 * 2 * 7 / 8 * 7168 * 2 * 3 / 900e9
    kv = 8 * 2000 * 35136 / 64e12
    assert 4 * 61 * 128 * 544 * (4 * 2000 + 0.5 * 500) / (8 * 9000e12) < kv
    assert mtp.step_ms == pytest.approx(plain.step_ms + (experts + comm) * 1e3)
    assert mtp.comm_ms == pytest.approx(plain.comm_ms + comm * 1e3)
    assert mtp.token_ms == pytest.approx(mtp.step_ms / 2.82)
    assert (plain.layers, mtp.layers) == (61, 64)
    assert mtp.measured_ms == pytest.approx(1000 / 253)  # 253 tokens/s per user


def test_with_the_verifying_pass_deepseek_r1_reaches_one_share_of_its_floor():
    # DeepSeek-R1 on 8 B200 without MTP, with MTP 1 and MTP 3 (TensorRT-LLM tech blog 1):
    # counting the experts the verifying pass's 2 and 4 tokens read, floor ÷ measured is
    # 0.240, 0.242 and 0.241: one share of the floor at every draft length. Without them
    # (the draft tokens taken as 0: the plain step ÷ tokens per step) it falls with the
    # draft length, 0.240, 0.223, 0.194: the plain step leaves out what the drafts cost.
    ids = ("trtllm-r1-b200-nomtp", "trtllm-r1-b200-mtp1", "trtllm-r1-b200-mtp3")
    rows = [next(r for r in ROWS if r["id"] == i) for i in ids]
    counted = [sf.floor(r).efficiency for r in rows]
    plain = [sf.floor({**r, "draft_tokens": "0"}).efficiency for r in rows]
    assert counted == pytest.approx([0.240, 0.242, 0.241], abs=5e-4)
    assert plain == pytest.approx([0.240, 0.223, 0.194], abs=5e-4)


def test_the_a100_figure_beside_the_mixtral_row_is_below_its_floor():
    # TensorRT-LLM v0.9.0's "Peak Throughput" tables give Mixtral 8x7B at batch 32, TP 2,
    # 2,048 in / 2,048 out on H100 (FP8): 1,317 tokens/s a GPU, the row
    # trtllm09-mixtral-h100-tp2-b32, and on A100 80GB (FP16): 801 a GPU. At batch 32 the
    # A100 figure is faster than physics: 32 ÷ 1,602 tokens/s = 19.98 ms a step against a
    # floor of 26.61 ms (93.4 GB of BF16 weights ÷ (2 × 2.039 TB/s) = 22.9 ms alone; the
    # KV cache at the mean context and the all-reduces of the step's 32 × (1 + 2,048 ÷
    # 2,048) tokens, prefill sharing the GPUs, the rest). At batch 64 the H100 row would
    # reach 0.392 of its floor: the configuration's stated batch is in doubt. Both rows
    # leave the set by the twin rule (test_the_rows_that_leave_are_those_the_twin_rule_names);
    # this checks it by hand.
    h100 = next(r for r in sf.all_rows() if r["id"] == "trtllm09-mixtral-h100-tp2-b32")
    a100 = {**h100, "gpu": "NVIDIA A100 80GB SXM", "precision": "BF16",
            "kv_precision": "BF16", "tokens_per_sec_total": str(801 * 2)}
    f = sf.floor(a100)
    assert f.measured_ms == pytest.approx(32 / 1602 * 1e3)
    assert f.step_ms == pytest.approx(26.61, abs=0.005)
    assert f.token_ms > f.measured_ms
    at_64 = {**h100, "batch": "64"}
    assert sf.floor(at_64).efficiency == pytest.approx(0.392, abs=5e-4)


def test_the_docs_list_the_set_as_it_is():
    # docs/measurements.md shows the table serving_floor.markdown_table() writes
    text = (sf.MEASUREMENTS.parents[2] / "docs" / "measurements.md").read_text("utf-8")
    assert sf.markdown_table() in text


def test_the_latency_of_tp8_by_hand():
    # DeepSeek-R1 at batch 1 on 8 B200, attention in TP8: 61 layers × 2 all-reduces × (6.6
    # µs + 2 × 7 × 0.6 µs = 15.0 µs, NCCL's NVLink constants) = 1.830 ms; the bandwidth
    # term of the step's 1.5 tokens (one decoded, 1,000 ÷ 2,000 prompt tokens prefilled)
    # 2 × 61 × 2 × 7/8 × 7,168 × 2 B × 1.5 ÷ 900e9 B/s (one direction of 1,800 GB/s) =
    # 0.00292 ms (hidden size 7,168: DeepSeek-R1's config)
    f = sf.floor(next(r for r in ROWS if r["id"] == "trtllm-r1-b200-nomtp"))
    assert f.comm_ms == pytest.approx(2 * 61 * 15.0e-3 + 2 * 61 * 2 * 7 / 8 * 7168 * 2 * 1.5
                                      / 900e9 * 1e3)


def test_a_speedup_as_tokens_per_step_gives_the_plain_runs_efficiency():
    # Llama 3.3 70B on one H200: 51.14 tokens/s plain, 181.74 with a draft model (3.55x).
    # Taking the speedup as tokens per step, floor ÷ measured is the plain run's times
    # 181.74 ÷ 51.14 ÷ 3.55 = 1.00107 (the source rounds 3.5538 to 3.55)
    plain = sf.floor(next(r for r in ROWS if r["id"] == "nvidia-70b-h200-nodraft"))
    draft = sf.floor(next(r for r in ROWS if r["id"] == "nvidia-70b-h200-draft"))
    assert draft.step_ms == plain.step_ms
    assert draft.efficiency == pytest.approx(plain.efficiency * 181.74 / 51.14 / 3.55)


def test_out_of_sample_each_source_against_the_others():
    # leave one source out (the ``source`` column), the anchors and the per-layer time
    # made from the others: 74 of the 91 rows judged stay within 1.5x (81 %; every row is
    # judged: each regime has two sources or more), against 80 in sample. The misses are
    # of seven sources (docs/measurements.md, "Out of sample: each source left out").
    checks = {source: (n, judged, inside) for source, n, judged, inside, _
              in sf.leave_one_source_out()}
    assert len(checks) == len({r["source"] for r in ROWS}) >= 20
    assert sum(n for n, _, _ in checks.values()) == len(ROWS)
    assert sum(j for _, j, _ in checks.values()) == 91
    assert sum(i for _, _, i in checks.values()) == 74
    missing = {s for s, (_, j, i) in checks.items() if i < j}
    assert missing == {"inferencex-2026-05-25-mi355x-qwen35", "lmsys-2025-07-17-mtp",
                       "oracle-oci-405b-mi300x", "trtllm-blog1-r1-b200-latency",
                       "trtllm-blog3-r1-b200-throughput", "trtllm-blog6-maverick-eagle",
                       "trtllm-perf-overview"}


def test_the_rules_compared_in_the_docs():
    # docs/measurements.md compares three rules by rows outside 1.5x in sample and rows
    # within out of sample, each with the per-layer time, by the criterion stated before
    # the rules were run (fewest outside in sample, then most within out of sample), among
    # the rules whose ranges pass test_the_estimate_range_is_made_out_of_sample (each
    # regime's out-of-sample range holds 1: the estimate inside its own range). On the 91
    # rows, with the step that carries prefill, reads the mean context and the KV copies,
    # the geometric mean has the fewest outside (11, against 12 and 13) and the most
    # within out of sample (74, against 70 and 72); the middle of the extremes' range of
    # tp8_small_batch, 1.114 to 1.734, would not hold 1 (its anchor, pulled up by Maverick
    # with Eagle3, puts every other row of the regime too fast)
    counts, passes = {}, {}
    for rule in sf.RULES:
        outside = sum(not 1 / 1.5 <= r <= 1.5 for r in sf.in_sample(rule).values())
        within = sum(i for _, _, _, i, _ in sf.leave_one_source_out(rule))
        counts[rule] = (outside, within)
        passes[rule] = all(low < 1 < high for low, high, _ in sf.estimate_range(rule).values())
    assert counts == {"middle_of_extremes": (12, 70), "geometric_mean": (11, 74),
                      "median": (13, 72)}
    assert passes == {"middle_of_extremes": False, "geometric_mean": True, "median": True}
    best = min((k for k in counts if passes[k]), key=lambda k: (counts[k][0], -counts[k][1]))
    assert sf.RULE == best == "geometric_mean"


def test_in_and_out_of_sample_side_by_side():
    # overall: 80 of 91 within 1.5x in sample, 74 out of sample (81.3 %, past the target's
    # 80 %); within 1.2x 48 and 46 (50.5 %, its half). Each row is counted once in
    # "all" and once in its regime; the categories are computed by serving_floor.CATEGORIES
    groups = sf.judged_by(lambda r: ["all"])["all"]
    assert groups["rows"] == len(groups["in"]) == len(groups["out"]) == 91
    assert sum(1 / 1.5 <= q <= 1.5 for q in groups["in"]) == 80
    assert sum(1 / 1.5 <= q <= 1.5 for q in groups["out"]) == 74
    assert sum(1 / 1.2 <= q <= 1.2 for q in groups["in"]) == 48
    assert sum(1 / 1.2 <= q <= 1.2 for q in groups["out"]) == 46
    by_regime = sf.judged_by(lambda r: [r["regime"]])
    assert sum(g["rows"] for g in by_regime.values()) == 91
    # every category the set is asked to span has rows
    by_category = sf.judged_by(lambda r: [k for k, t in sf.CATEGORIES.items() if t(r)])
    assert set(by_category) == set(sf.CATEGORIES)
    text = (sf.MEASUREMENTS.parents[2] / "docs" / "measurements.md").read_text("utf-8")
    assert sf.side_by_side_table() in text


def test_the_docs_report_the_software_vintage():
    # by maker and year of the source, out of sample: NVIDIA's years within 8 % of the
    # estimate on average (what docs/measurements.md concludes: no correction by date)
    text = (sf.MEASUREMENTS.parents[2] / "docs" / "measurements.md").read_text("utf-8")
    assert sf.vintage_table() in text
    groups = sf.judged_by(sf.vintage_of)
    assert sum(g["rows"] for g in groups.values()) == 91
    for label, g in groups.items():
        if label.startswith("NVIDIA"):
            mean = math.exp(statistics.fmean(math.log(q) for q in g["out"]))
            assert 1 / 1.08 <= mean <= 1.08, label
    # the period the anchors describe, as the Assumptions sheet shows it: the earliest and
    # the latest source date of the rows the anchors are made from
    dated = sorted(re.match(r"20\d\d(?:-\d\d)?", r["source_date"])[0]
                   for r in sf.rows() if re.match(r"20\d\d", r["source_date"]))
    assert regimes.period() == (dated[0], dated[-1]) == ("2024", "2026-05")
    import openpyxl  # the Assumptions sheet of the committed template says it
    ws = openpyxl.load_workbook(sf.MEASUREMENTS.parents[2] / "workbook" / "napkin.xlsx")[
        "Assumptions"]
    said = {row[0].value: row[1].value for row in ws.iter_rows(max_col=2)}
    assert said["Period the defaults describe"] == "2024 to 2026-05"


def test_the_docs_report_the_out_of_sample_check():
    text = (sf.MEASUREMENTS.parents[2] / "docs" / "measurements.md").read_text("utf-8")
    assert sf.out_of_sample_table() in text


def test_the_estimate_range_is_made_out_of_sample():
    # udfs/data/estimate_range.csv holds, for each regime, the range of measured ÷
    # realistic over its rows, each predicted by anchors and a per-layer time made
    # without its source, ⌊rows ÷ 10⌋ cut at each end; recomputed here (3 decimals)
    stored = regimes.estimate_range()
    made = sf.estimate_range()
    assert set(stored) == set(made) == set(regimes.table())
    for regime, (low, high, n) in made.items():
        row = stored[regime]
        assert (float(row["low"]), float(row["high"]), int(row["rows"])) == \
            (round(low, 3), round(high, 3), n), regime
        assert float(row["low"]) < 1 < float(row["high"])
    # so each regime's range holds at least 80 % of its out-of-sample rows (a row at an
    # end counts as inside), and so all of them together
    ratios = sf.out_of_sample_ratios()
    inside = sum(float(stored[g]["low"]) - 5e-4 <= q <= float(stored[g]["high"]) + 5e-4
                 for _, g, q in ratios)
    assert len(ratios) == len(ROWS) and inside / len(ratios) >= 0.8
    for regime in stored:
        own = [q for _, g, q in ratios if g == regime]
        lo, hi = float(stored[regime]["low"]), float(stored[regime]["high"])
        assert sum(lo - 5e-4 <= q <= hi + 5e-4 for q in own) >= 0.8 * len(own), regime
