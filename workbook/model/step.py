"""The decode step of a replica, once, as formula expressions every sheet uses (Sizing,
Cost, Frontier, Plan, Calibration): the weights a step reads, its KV cache, the
all-reduces of tensor parallelism, and the step floor DECODE_STEP_MS of them.

Each function takes its inputs as expressions or formula text (a cell, a defined name,
an expression: ``workbook.expr.of``) and returns an ``Expr``; a caller that puts the
result in formula text gets its operand form (parenthesised unless atomic), so no
precedence depends on where it lands. The Models-table columns are defined names
(``MODEL_*``) read with ``INDEX`` at the model's row.
"""

from __future__ import annotations

from udfs import interconnects
from workbook.expr import Column, Expr, F, Name, Raw, Text, of

# --------------------------------------------------------------------- the Models table
MODEL_DECODE_B, MODEL_ACTIVE_B = Column("MODEL_DECODE_B"), Column("MODEL_ACTIVE_B")
MODEL_EXPERTS, MODEL_TOPK = Column("MODEL_EXPERTS"), Column("MODEL_TOPK")
MODEL_EXPERT_B, MODEL_KEPT_B = Column("MODEL_EXPERT_B"), Column("MODEL_KEPT_B")
MODEL_KEPT_DECODE_B = Column("MODEL_KEPT_DECODE_B")
MODEL_STATE_BYTES, MODEL_HEADS = Column("MODEL_STATE_BYTES"), Column("MODEL_HEADS")
MODEL_ATTENTION, MODEL_HEAD_DIM = Column("MODEL_ATTENTION"), Column("MODEL_HEAD_DIM")
BILLION = 1000000000

#: One direction of a PCIe 5.0 x16 link, TB/s: 32 GT/s × 16 lanes × 128/130 ÷ 8 bits =
#: 63.0 GB/s (PCI-SIG, PCI Express Base Specification 5.0); the all-reduces of a GPU
#: without an interconnect figure go over PCIe, 4.0 cards at half of it, so it keeps
#: their floor a floor.
PCIE_TBPS = 0.063


def decode_read(row) -> Expr:
    """The weights (billions) a decode step reads at batch 1 for the model in ``row`` of the
    Models table: column V (MODEL_SPEC decode_params: the active weights without the input
    embedding table), else, where a user's row leaves it empty, the active parameters (the
    input embedding counted)."""
    r = of(row)
    return F.IF(F.ISNUMBER(MODEL_DECODE_B.at(r)), MODEL_DECODE_B.at(r), MODEL_ACTIVE_B.at(r))


def batch_read(row, batch, at_one=None) -> Expr:
    """The weights (billions) a decode step of ``batch`` sequences reads: the batch-1 reads
    (``at_one``, else ``decode_read``) plus, for a mixture of experts, one routed expert's
    weights (Models column W) per further distinct expert the batch picks,
    MOE_EXPERTS_READ(experts, top_k, batch) − top_k (uniform routing)."""
    r = of(row)
    e, k, w = MODEL_EXPERTS.at(r), MODEL_TOPK.at(r), MODEL_EXPERT_B.at(r)
    base = decode_read(r) if at_one is None else of(at_one)
    return base + F.IF(F.AND(F.ISNUMBER(e), F.ISNUMBER(k), F.ISNUMBER(w)),
                       w * (F.MOE_EXPERTS_READ(e, k, of(batch)) - k), 0)


def kept_weights(row) -> Expr:
    """The weights (a count) the model in ``row`` keeps in BF16 when quantized: column Z,
    MODEL_SPEC kept_params (0 without a checkpoint row)."""
    return MODEL_KEPT_B.at(of(row)) * BILLION


def kept_read_weights(row) -> Expr:
    """Of ``kept_weights``, the ones a decode step reads (a count): the LM head and the
    kept parts of each layer, Models column AA."""
    return MODEL_KEPT_DECODE_B.at(of(row)) * BILLION


def weight_gb(billions, prec, kept) -> Expr:
    """WEIGHT_GB of ``billions`` weights in ``prec`` with ``kept`` (a count) of them in
    BF16: the weights, in GB, of a checkpoint that keeps some parts in 16 bits."""
    return F.WEIGHT_GB(of(billions) * BILLION, of(prec), Text("GB"), of(kept))


def stored_weights(billions, prec, row) -> Expr:
    """WEIGHT_GB of the model in ``row``: ``billions`` weights in ``prec``, the ones its
    checkpoint keeps in BF16 (``kept_weights``) at 2 bytes."""
    return weight_gb(billions, prec, kept_weights(row))


def read_weights(billions, prec, row) -> Expr:
    """WEIGHT_GB of the ``billions`` weights a decode step of the model in ``row`` reads: in
    ``prec``, the kept ones it reads (``kept_read_weights``) at 2 bytes."""
    return weight_gb(billions, prec, kept_read_weights(row))


def read_bytes(read_b, prec, row) -> Expr:
    """Bytes per parameter of the ``read_b`` billion weights a decode step reads: the
    precision ``prec``, with the kept weights a step reads (Models column AA) at 2 bytes:
    WEIGHT_GB(read, prec, "GB", kept) ÷ read."""
    return read_weights(read_b, prec, row) / of(read_b)


def state_bytes(row) -> Expr:
    """The fixed state each sequence keeps in the linear-attention or Mamba layers of the
    model in ``row``, bytes: column Y, 0 if empty."""
    r = of(row)
    return F.IF(F.ISNUMBER(MODEL_STATE_BYTES.at(r)), MODEL_STATE_BYTES.at(r), 0)


def attention_dim(row) -> Expr:
    """Query heads × the dimension attention multiplies of the model in ``row``: heads ×
    head dim, MLA decoded with absorbed weights heads × (576 + 512) ÷ 2 (keys of 576
    elements, values of 512: DeepSeek-V2 §2.1)."""
    r = of(row)
    return MODEL_HEADS.at(r) * F.IF(MODEL_ATTENTION.at(r).eq(Text("MLA")), 544,
                                    MODEL_HEAD_DIM.at(r))


def sliding_share(sliding, kv_heads, head_dim, kv_bytes) -> Expr:
    """The share of a token's KV bytes that its sliding-window layers hold: ``sliding``
    layers × 2 (K and V) × ``kv_heads`` × ``head_dim`` × 2 B (BF16) ÷ ``kv_bytes`` (Models
    column P, the token's KV bytes over all its layers). The Models KV heads and head dim
    are the sliding-window layers' (Gemma 4's global layers have their own shape, counted
    in P): layers of one shape give sliding ÷ layers (Gemma 3 27B: 52 ÷ 62); Gemma 4 31B
    50 × 8,192 × 2 ÷ 901,120 = 0.909, not 50 ÷ 60. Past the window W a sequence of T
    tokens holds P × T − P × share × (T − W) bytes."""
    return of(sliding) * 4 * of(kv_heads) * of(head_dim) / of(kv_bytes)


#: What "auto" chooses for the scenario, 1 (expert parallel) or 0 (tensor parallel): the
#: defined name of Sizing's cell that compares the two layouts' realistic steps
#: (``workbook.sizing_rows``), read by every sheet, so each lays out the replica alike.
AUTO_EXPERT_PARALLEL = Name("AUTO_EXPERT_PARALLEL")


def moe_spread(row, gpus) -> Expr:
    """Whether the model in ``row`` is a mixture of experts (routed experts > 1) on more
    than one GPU a stage (``gpus``), the layouts between which expert parallelism is a
    choice (1 or 0)."""
    e = MODEL_EXPERTS.at(of(row))
    return F.IF(F.ISNUMBER(e), F.IF(of(gpus).gt(1), F.IF(e.gt(1), 1, 0), 0), 0)


def expert_parallel(row, gpus, auto=AUTO_EXPERT_PARALLEL) -> Expr:
    """Whether the model in ``row`` is served with expert parallelism on ``gpus`` GPUs a
    stage (1 or 0), by the scenario's choice SCENARIO_EXPERT_PARALLEL (``workbook.scenario``):
    "no", 0; "yes", 1 for a mixture of experts on more than one GPU (``moe_spread``), the
    experts spread over the GPUs and the attention data parallel, as TensorRT-LLM and SGLang
    serve them at high throughput; "auto" (or an empty cell), that where ``auto`` is 1: the
    faster of the two layouts for the scenario (``AUTO_EXPERT_PARALLEL``)."""
    choice = Name("SCENARIO_EXPERT_PARALLEL")
    return F.IF(choice.eq(Text("no")), 0,
                moe_spread(row, gpus) * F.IF(choice.eq(Text("yes")), 1, of(auto)))


# ------------------------------------------------------------------------ the all-reduces


def has_link(link) -> Expr:
    """Whether the GPUs-table interconnect figure ``link`` is there (TRUE or FALSE): a
    number above 0 (an empty cell of the table reads as 0 through a cell that holds its
    INDEX, so ISNUMBER alone would take it for a link of 0 GB/s)."""
    li = of(link)
    return F.IF(F.ISNUMBER(li), li, 0).gt(0)


#: The GPUs one server holds where they have no scale-up link (PCIe cards): NVIDIA's
#: PCIe-optimized reference server, "2-8-5", two CPUs, eight GPUs, five network adapters
#: (NVIDIA AI Enterprise Reference Architecture, "Compute Node Hardware",
#: https://docs.nvidia.com/ai-enterprise/reference-architecture/latest/compute-node-hardware.html).
#: A tensor-parallel stage of more such GPUs would span servers over the network, which
#: the all-reduces here (PCIe) do not price, so no sheet offers it.
PCIE_SERVER_GPUS = 8
#: What a sheet says where a layout cannot run (``layout_runs``).
NO_LAYOUT = "no layout: more than 8 GPUs a stage without NVLink"


def layout_runs(stage_gpus, link, elementwise: bool = False) -> Expr:
    """Whether a tensor-parallel stage of ``stage_gpus`` GPUs whose GPUs-table interconnect
    figure is ``link`` can run (TRUE or FALSE): GPUs with a scale-up link (``has_link``),
    any degree; PCIe cards, at most ``PCIE_SERVER_GPUS`` (one server). ``elementwise``:
    OR said as a sum of comparisons, for an array formula over a column."""
    linked, fits = has_link(link), of(stage_gpus).le(PCIE_SERVER_GPUS)
    return (linked + fits).gt(0) if elementwise else F.OR(linked, fits)


def link_kind(link) -> Expr:
    """The interconnect whose NCCL latencies the all-reduces of a GPU pay (a name of
    ``udfs/data/interconnects.csv``), by its GPUs-table figure ``link`` (GB/s): "NVLink"
    where the table has a figure (the scale-up link it measures: NVLink, Infinity Fabric,
    ICI, NeuronLink; NCCL has one constant for them all), "PCIe" without one (the GPUs
    that have only PCIe: L4, L40S, RTX)."""
    return F.IF(has_link(link), Text("NVLink"), Text("PCIe"))


def tp_comm(hidden, batch, gpus, link, layers, kind, expert_parallel) -> Expr:
    """The all-reduces of one decode step over ``gpus`` in tensor parallel: TP_COMM_MS with
    BF16 activations, two per layer, the link one way (half the GPUs table's in + out
    ``link`` GB/s; without a figure PCIe 5.0 x16, ``PCIE_TBPS``) and NCCL's latencies of
    ``kind`` (a cell naming the interconnect), or, ``kind`` None, those ``link_kind``
    picks, as numbers of ``udfs/data/interconnects.csv`` (Excel's own functions then
    compute them in the native edition); 0 on one GPU and with expert parallelism
    (``expert_parallel`` 1: the attention is data parallel, no all-reduce)."""
    if kind is None:
        hop = F.IF(has_link(link), Raw(f"{interconnects.hop_latency_us('NVLink'):g}"),
                   Raw(f"{interconnects.hop_latency_us('PCIe'):g}"))
        base = Raw(f"{interconnects.base_latency_us('NVLink'):g}")
    else:
        hop = base = of(kind)
    li = of(link)
    one_way = F.IF(has_link(link), li / 2000, PCIE_TBPS)
    return F.IF(of(gpus).le(1) + of(expert_parallel), 0,
                F.TP_COMM_MS(of(hidden), of(batch), of(gpus), one_way, of(layers), 2, 2,
                             hop, base))


def stage_comm(model_row, hidden, layers, tokens, gpus, stages=None, link=None,
               kind=None, auto=AUTO_EXPERT_PARALLEL) -> Expr:
    """The all-reduces of one micro-batch through the layers of a replica of ``gpus`` GPUs
    in ``stages`` pipeline stages (None: one), the step's ``tokens`` (batch × (draft
    tokens + 1)) split into one micro-batch a stage: ``tp_comm`` at the stage's degree
    g ÷ p for t ÷ p tokens, with the stage's expert parallelism (``expert_parallel`` of
    the model in ``model_row`` over g ÷ p GPUs, "auto" read from ``auto``: no all-reduce)
    and the interconnect figure ``link`` (``kind``: see ``tp_comm``). What DECODE_STEP_MS
    takes as ``comm_ms``."""
    stage = of(gpus) if stages is None else of(gpus) / of(stages)
    carried = of(tokens) if stages is None else of(tokens) / of(stages)
    return tp_comm(hidden, carried, stage, link, layers, kind,
                   expert_parallel(model_row, stage, auto))


# ------------------------------------------------------------------------------- the step


def step_floor(read_gb, kv_gb, bandwidth, active, batch, roof, attention_flop, gpus, comm,
               stages=None) -> Expr:
    """The decode step floor of a replica: DECODE_STEP_MS of the weights read (GB), the KV
    cache (GB), one GPU's bandwidth and datasheet roof, the active parameters (a count),
    the batch, the attention FLOPs, the GPUs per replica, the all-reduces (``tp_comm`` at
    the stage's degree and micro-batch) and the pipeline ``stages`` (micro-batches =
    stages; None: one stage); without a FLOPS figure the math terms count nothing (a roof
    of 10⁹ TFLOPS: a memory floor)."""
    has = F.ISNUMBER(of(roof))
    args = [of(read_gb), of(kv_gb), of(bandwidth), of(active), of(batch),
            F.IF(has, of(roof), BILLION), F.IF(has, of(attention_flop), 0), of(gpus),
            of(comm)]
    if stages is not None:
        args.append(of(stages))
    return F.DECODE_STEP_MS(*args)


__all__ = ["decode_read", "batch_read", "kept_weights", "kept_read_weights", "weight_gb",
           "stored_weights", "read_weights", "read_bytes", "state_bytes", "attention_dim",
           "sliding_share", "moe_spread", "expert_parallel", "layout_runs", "PCIE_SERVER_GPUS",
           "NO_LAYOUT",
           "AUTO_EXPERT_PARALLEL", "has_link", "link_kind", "tp_comm", "stage_comm",
           "step_floor", "PCIE_TBPS", "BILLION"]
