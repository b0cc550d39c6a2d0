"""The Sizing sheet's working rows of napkin functions (``workbook.sizing`` lays them
out): the weights and the KV cache, memory and the GPUs it needs (``memory_rows``), the
floor, roof, ridge and speed at the floor (``speed_rows``), and the step's parts, the
attention FLOPs, the stages, expert parallelism and the all-reduces (``step_rows``). Each
row is (key of ``SIZING``, label, formula, number format, note).
"""

from __future__ import annotations

from workbook.expr import Cell, Expr, F, Name, Text, of, words
from workbook.model.bill import priced
from workbook.model.fleet import replica_tps
from workbook.model.gpu import roof_used
from workbook.model.prefill import prefill_moved_gb
from workbook.model.serving import (
    attended_per_sequence,
    kv_sequence_gb,
    prefill_share,
    step_kv_gb,
    step_tokens,
)
from workbook.model.step import moe_spread, read_weights, step_floor
from workbook.sheet import (
    NO_FLOPS,
    attention_dim,
    batch_read,
    expert_parallel,
    kept_weights,
    read_bytes,
    sliding_share,
    state_bytes,
    stored_weights,
    tp_comm,
)
from workbook.speculation import verified


def memory_rows(K: dict) -> list:
    """Sizing's rows of napkin functions from the weights to the GPUs they need: (key,
    label, formula, number format, note)."""
    m = K["model_row"]
    k = {key: of(ref) for key, ref in K.items()}  # each key cell as an expression
    prec = K["precision"]
    kv_args = (k["layers"], k["kv_heads"], k["head_dim"], k["context"], k["kv_precision"])
    searched = F.IF(F.ISNUMBER(k["batch_input"]), k["batch_input"], 1)
    per_seq_state = state_bytes(m) / 1000000000  # GB a sequence holds in fixed state
    return [
        ("weight_gb", "Weights", stored_weights(K["params_b"], prec, m).formula(), "GB",
         "WEIGHT_GB(params, precision, , kept): parameters × bytes per parameter, the "
         "ones a quantized checkpoint keeps in BF16 (Models column Z) at 2 bytes"),
        ("weight_gib", "Weights in GiB", F.WEIGHT_GB(k["params_b"] * 1000000000, k["precision"],
                                                   Text("GiB"), kept_weights(m)).formula(),
         "GiB",
         "1 GiB = 1024³ bytes, 7 % more than 1 GB"),
        ("kv_gqa_gb", "KV cache, GQA formula (context × batch)",
         F.KV_CACHE_GB(*kv_args, k["batch"]).formula(), "GB",
         "KV_CACHE_GB: 2 × layers × KV heads × head dim × bytes × tokens × batch"),
        ("kv_factor", "Attention correction (MLA, sliding window)",
         (k["kv_bytes"] / (4 * k["layers"] * k["kv_heads"] * k["head_dim"])
          * F.IF(k["sliding"].eq(0), 1, 1 - sliding_share(k["sliding"], k["kv_heads"],
                                                          k["head_dim"], k["kv_bytes"])
                 * F.MAX(0, k["context"] - k["window"]) / k["context"])).formula(), "0.000",
         F.IF(F.ABS(k["kv_factor"] - 1).lt(0.000000001),
              words("1: the GQA formula is right for ", k["attention"]),
              words(k["attention"], ": the GQA formula over-counts; this factor corrects "
                    "it"))),
        ("kv_seq_gb", "KV cache per sequence",
         (F.KV_CACHE_GB(*kv_args, 1) * k["kv_factor"] + per_seq_state).formula(), "GB",
         "one sequence at this context, corrected as "
         "above, with the fixed state of linear-attention or Mamba layers (Models column Y)"),
        ("kv_gb", "KV cache for this model at the batch",
         (k["kv_gqa_gb"] * k["kv_factor"] + state_bytes(m) * k["batch"] / 1000000000)
         .formula(), "GB",
         "What the KV cache really takes at this context and batch"),
        ("kv_step_seq_gb", "KV cache a sequence's step reads (mean context)",
         kv_sequence_gb(K["kv_bytes"], K["kv_precision"], K["mean_context"], K["sliding"],
                        K["window"], K["kv_heads"], K["head_dim"], state_bytes(m)).formula(),
         "GB",
         "one sequence's KV cache at the mean context (prompt + output ÷ 2), corrected as "
         "above: what each decode step reads of it on average"),
        ("need_gb", "Memory needed: weights + KV cache",
         (k["weight_gb"] + k["kv_gb"]).formula(), "GB",
         "runtime overhead comes on top (Assumptions: memory reserve)"),
        ("need_tp_gb", "Memory the GPUs per replica are chosen for",
         (k["weight_gb"] + k["kv_seq_gb"] * searched).formula(), "GB",
         "weights + the KV cache of the typed batch (of one sequence when the batch is "
         "searched: the search then fills the memory left)"),
        ("fits_weights", "Weights fit on one GPU?",
         F.IF(F.FITS(k["weight_gb"], k["memory"]), Text("yes"), Text("no")).formula(), None,
         "FITS(weights, GPU memory)"),
        ("fits_all", "Weights + KV cache fit on one GPU?",
         F.IF(F.FITS(k["need_gb"], k["memory"], k["reserve"]), Text("yes"), Text("no"))
         .formula(), None,
         "FITS(need, GPU memory, reserve)"),
        ("gpus_needed", "GPUs needed for weights + KV cache (the minimum)",
         F.GPUS_NEEDED(k["need_tp_gb"], k["memory"], k["reserve"]).formula(), "gpus",
         "GPUS_NEEDED: whole GPUs to hold it, split evenly"),
    ]


def speed_rows(K: dict) -> list:
    """Sizing's rows from the decode floor to the weights a step reads (as
    ``memory_rows``)."""
    m = K["model_row"]
    k = {key: of(ref) for key, ref in K.items()}  # each key cell as an expression
    prec = K["precision"]
    has_roof = F.ISNUMBER(k["roof_tflops"])
    return [
        ("floor_ms", "Decode floor: weights only, batch 1, one GPU",
         F.DECODE_FLOOR(k["decode_b"] * 1000000000, read_bytes(K["decode_b"], prec, m),
                        k["bandwidth"]).formula(), "ms_token",
         F.IF(k["fits_weights"].eq(Text("yes")), Text(
             f"DECODE_FLOOR: the weights a step reads ({K['decode_b']}) ÷ bandwidth"), Text(
             "the weights do not fit on one GPU: this floor is fiction, see the next rows"))),
        ("roof_tflops", "Compute roof used", roof_used(prec, K["fp8"], K["bf16"]), "tflops",
         F.IF(has_roof, F.IF(F.AND(F.BYTES_PER_PARAM(k["precision"]).le(1),
                                   F.ISNUMBER(k["fp8"])),
                             Text("FP8 roof (weights in 1 byte or less)"), Text("BF16 roof")),
              Text("no FLOPS figure for this GPU: math time not counted, the floors below "
                   "are memory floors"))),
        ("tps_total", "Tokens/s in total at the floor (all sequences)",
         replica_tps(k["step_ms"], k["batch"]).formula(), "tps",
         "TOKENS_PER_SEC(step floor) × batch: one token per sequence per step"),
        ("tps_user", "Tokens/s per user at the floor",
         F.PER_USER_TPS(k["tps_total"], k["batch"]).formula(), "tps",
         "PER_USER_TPS(total, batch): batching raises the total, not each user's"),
        ("ridge_bf16", "Ridge, BF16 datasheet",
         F.IF(F.ISNUMBER(k["bf16"]), F.RIDGE(k["bf16"], k["bandwidth"]),
              Text("no BF16 figure")).formula(), "flop_byte",
         "RIDGE(peak, bandwidth): the intensity at which this GPU's BF16 peak meets its "
         "bandwidth"),
        ("ridge_used", "Ridge, roof used × efficiency",
         F.IF(has_roof, F.RIDGE(k["roof_tflops"], k["bandwidth"], k["efficiency"]),
              Text(NO_FLOPS)).formula(), "flop_byte",
         "below it memory-bound, above it compute-bound"),
        ("critical_batch", "Critical batch (decode reaches the ridge)",
         F.IF(has_roof, F.CRITICAL_BATCH(k["roof_tflops"] * k["efficiency"], k["bandwidth"],
                                         k["precision"]), Text(NO_FLOPS)).formula(), "seq",
         "CRITICAL_BATCH(roof × efficiency, bandwidth, weight precision)"),
        ("decode_intensity", "Decode intensity at the batch",
         F.INTENSITY(2 * k["active_b"] * 1000000000 * k["step_tokens"],
                     F.WEIGHT_GB(k["read_b"] * 1000000000, k["precision"]) * 1000000000)
         .formula(), "flop_byte",
         "INTENSITY(2 × active params × tokens a step computes, bytes of the weights they "
         "read)"),
        ("side", "Side of the ridge at the batch",
         F.IF(F.ISNUMBER(k["ridge_used"]), F.BOUND(k["decode_intensity"], k["ridge_used"]),
              Text(NO_FLOPS)).formula(), None,
         "BOUND(intensity, ridge): left of it, batching is nearly free"),
        ("cost_mtok", words("At the floor, if every GPU were busy at the planned "
                            "utilization: cost per million output tokens (", Name("CURRENCY"),
                            ")"),
         priced(k["price"], F.COST_PER_MTOK(k["price"], k["tps_total"], k["gpus"],
                                            Name("UTILIZATION"))).formula(), "money",
         "COST_PER_MTOK(price, tokens/s at the floor, GPUs per "
         "replica, utilization): a bound, not the bill (the headline is at the top)"),
        ("verified", "Tokens a step computes: batch × (draft tokens + 1)",
         verified(k["batch"]).formula(), "tokens",
         F.IF(k["tokens_per_step"].gt(k["draft_tokens"] + 1), Text(
             "more tokens a step than it verifies: set the draft tokens (k) above, tokens "
             "per step is at most k + 1"), Text(
             "the verifying pass multiplies the weights by every sequence's k + 1 tokens; "
             "the KV cache is read once a sequence"))),
        ("prefill_share", "Prompt tokens a step carries per sequence (aggregated serving)",
         prefill_share(K["prompt"], K["output"]).formula(), "0.00",
         "prompt ÷ output tokens where prefill shares these GPUs (Serving above: "
         "aggregated): each request's prompt is computed in its neighbours' decode steps; "
         "0 disaggregated"),
        ("step_tokens", "Tokens a step computes: batch × (draft tokens + 1 + prompt share)",
         step_tokens(K["batch"], K["draft_tokens"], K["prefill_share"]).formula(), "tokens",
         "the decoded and the prefilled tokens: the weights' FLOPs, the experts they route "
         "to and the all-reduces' activations count them all"),
        ("read_b", "Weights read per decode step at the batch",
         batch_read(m, K["verified"], K["decode_b"]).formula(), "B",
         f"batch 1 reads ({K['decode_b']}) + one routed expert's weights (Models column W) "
         "per further distinct expert, MOE_EXPERTS_READ (uniform routing); dense: the batch "
         "1 reads"),
    ]


def replica_step(K: dict, kv_gb, comm_ms) -> Expr:
    """The decode step floor of the scenario's replica [ms a step]: ``step_floor`` of the
    weights its tokens read, the KV cache ``kv_gb`` it reads, one GPU's bandwidth and roof,
    the active parameters, the tokens it computes, their attention FLOPs, the GPUs (stages
    × GPUs a stage: an expression, so that napkin native writes it once in a helper cell,
    not in each of its checks), the all-reduces ``comm_ms`` and the stages. ``K``: Sizing's
    key cells."""
    tp, stages = Cell(K["stage_gpus"]), Cell(K["stages_input"])
    return step_floor(read_weights(K["read_b"], K["precision"], K["model_row"]), kv_gb,
                      K["bandwidth"], Cell(K["active_b"]) * 1000000000, K["step_tokens"],
                      K["roof_tflops"], K["attn_flop"], stages * tp, comm_ms, stages)


def layout_step(K: dict, parallel: int) -> Expr:
    """The realistic step of the scenario's replica laid out with expert parallelism
    (``parallel`` 1: the attention data parallel, one copy of the KV cache, no all-reduce)
    or in tensor parallel (0: the KV cache's copies, the all-reduces): its floor
    (``step_floor``, as the answer's) ÷ the default efficiency of that layout,
    REGIME_EFFICIENCY(GPUs, batch, ``parallel``) [ms a step]; the per-layer time, the same
    in both, is left out. A dash where there is no choice (``moe_spread``: a dense model or
    one GPU a stage)."""
    m, tp, stages = K["model_row"], K["stage_gpus"], K["stages_input"]
    comm = 0 if parallel else tp_comm(K["hidden"], Cell(K["step_tokens"]) / Cell(stages), tp,
                                      K["link"], K["layers"], K["link_kind"], 0, K["domain"])
    floor = replica_step(K, step_kv_gb(m, K["kv_step_seq_gb"], K["batch"], tp, parallel),
                         comm)
    return F.IF(moe_spread(m, tp).eq(1),
                floor / F.REGIME_EFFICIENCY(of(K["gpus"]), of(K["batch"]), parallel),
                Text("—"))


def layout_rows(K: dict) -> list:
    """Sizing's rows that choose the layout "auto" means: the realistic step with expert
    parallelism and in tensor parallel (``layout_step``), and the faster of the two,
    AUTO_EXPERT_PARALLEL (1 where expert parallelism is faster; 1 where there is no
    choice here, so that a sheet that spreads the scenario's MoE model over more GPUs
    than Sizing's one a stage serves it expert parallel, as before)."""
    ep, tp = Cell(K["ep_step_ms"]), Cell(K["tp_step_ms"])
    both = F.AND(F.ISNUMBER(ep), F.ISNUMBER(tp))
    return [
        ("ep_step_ms", "Realistic step with expert parallelism (for auto)",
         layout_step(K, 1).formula(), "ms",
         "step floor with the attention data parallel (one KV copy, no all-reduce) ÷ "
         "REGIME_EFFICIENCY(GPUs, batch, 1); per-layer time left out (the same in both)"),
        ("tp_step_ms", "Realistic step in tensor parallel (for auto)",
         layout_step(K, 0).formula(), "ms",
         "step floor with the all-reduces and the KV cache's copies ÷ REGIME_EFFICIENCY(GPUs, "
         "batch, 0); per-layer time left out (the same in both)"),
        ("auto_ep", "Auto: expert parallel faster?",
         F.IF(both, F.IF(ep.lt(tp), 1, 0), 1).formula(), "0",
         F.IF(both, words(F.IF(ep.lt(tp), Text("1: expert parallel is the faster layout"),
                               Text("0: tensor parallel is the faster layout")),
                          " for this model, GPU and batch; with the expert-parallel input auto "
                          "every sheet serves the model so"),
              Text("1: no choice here (a dense model or one GPU a stage); auto serves an "
                   "MoE model spread over more GPUs expert parallel"))),
    ]


def step_rows(K: dict) -> list:
    """Sizing's rows of the step's parts: the attention FLOPs, the stages, expert
    parallelism, the all-reduces (as ``memory_rows``)."""
    m = K["model_row"]
    n = K["gpus"]
    stages = K["stages_input"]
    tp = K["stage_gpus"]
    return [
        ("attn_flop", "Attention FLOPs of a step at the batch",
         F.DECODE_ATTENTION_FLOP(of(K["layers"]), attention_dim(m),
                                 attended_per_sequence(K["mean_context"], K["draft_tokens"],
                                                       K["prefill_share"], K["prompt"]),
                                 of(K["batch"])).formula(),
         '#,##0.0,,," GFLOP"', "DECODE_ATTENTION_FLOP(layers, heads × head dim (MLA: × "
         "544), tokens attended a sequence, batch): QKᵀ and AV, each verified token over "
         "the mean context, each prompt token over half the prompt"),
        ("stage_gpus", "GPUs per pipeline stage (tensor-parallel degree)",
         (of(n) / of(stages)).formula(), "gpus",
         F.IF(Cell(stages).gt(1), words(
             "GPUs per replica ÷ ", Cell(stages), " stages: each stage holds 1/stages of the "
             "layers, its all-reduces span these GPUs"),
             Text("one stage: every GPU of the replica shares every layer"))),
        *layout_rows(K),
        ("expert_parallel", "Expert parallel (MoE on more than one GPU)?",
         expert_parallel(m, tp, K["auto_ep"]).formula(), "0", "1: a mixture of experts "
         "spread over the GPUs of a stage with the attention data parallel (no all-reduce); "
         "0: tensor parallel (the scenario's expert-parallel input says no, or auto finds it "
         "faster, a dense model or one GPU a stage)"),
        ("kv_step_gb", "KV cache the step reads, all GPUs of the replica",
         step_kv_gb(m, K["kv_step_seq_gb"], K["batch"], tp, K["expert_parallel"]).formula(),
         "GB", "batch × one sequence's at the mean context × the copies a stage holds: "
         "GPUs ÷ KV heads where a stage has more GPUs than KV heads (MLA: one latent head, "
         "every GPU reads the whole cache); 1 with the attention data parallel"),
        ("comm_ms", "Tensor-parallel all-reduces of a micro-batch through the layers",
         tp_comm(K["hidden"], Cell(K["step_tokens"]) / Cell(stages), tp, K["link"], K["layers"],
                 K["link_kind"], K["expert_parallel"], K["domain"]).formula(),
         "ms", "TP_COMM_MS(hidden, batch ÷ stages, GPUs per stage, interconnect ÷ 2, layers, "
         "BF16, 2 per layer, NCCL's latencies of the interconnect); past the scale-up "
         "domain PCIe, past a server the network (the interconnect a stage crosses, above); "
         "0 on one GPU a stage"),
        ("prefill_gb", "Weights and KV cache a prompt's prefill moves",
         prefill_moved_gb(m, K["prompt"], K["precision"], K["kv_bytes"],
                          K["kv_precision"]).formula(),
         "GB", "the weights the prompt's tokens read (MoE: the experts a batch of that many "
               "tokens picks) + the keys and values it writes (prompt × KV bytes a token): "
               "what bounds a short prompt's first token"),
    ]
