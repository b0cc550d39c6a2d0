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

from udfs.inference import interconnects
from workbook.expr import Bool, Column, Expr, F, Name, Raw, Text, of

# --------------------------------------------------------------------- the Models table
MODEL_DECODE_B, MODEL_ACTIVE_B = Column("MODEL_DECODE_B"), Column("MODEL_ACTIVE_B")
MODEL_EXPERTS, MODEL_TOPK = Column("MODEL_EXPERTS"), Column("MODEL_TOPK")
MODEL_EXPERT_B, MODEL_KEPT_B = Column("MODEL_EXPERT_B"), Column("MODEL_KEPT_B")
MODEL_KEPT_DECODE_B = Column("MODEL_KEPT_DECODE_B")
MODEL_STATE_BYTES, MODEL_HEADS = Column("MODEL_STATE_BYTES"), Column("MODEL_HEADS")
MODEL_ATTENTION, MODEL_HEAD_DIM = Column("MODEL_ATTENTION"), Column("MODEL_HEAD_DIM")
MODEL_KV_HEADS = Column("MODEL_KV_HEADS")
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


#: One GPU's share of the network between servers, one way, TB/s: a 400 Gb/s InfiniBand
#: (NDR) or RoCE adapter a GPU, 400 ÷ 8 = 50 GB/s (NVIDIA DGX H100 and DGX B200: eight
#: ConnectX-7 adapters at 400 Gb/s for eight GPUs, NVIDIA DGX H100/H200 User Guide,
#: "Hardware Overview", https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html).
#: A tensor-parallel stage wider than a server's GPUs all-reduces over it.
NETWORK_TBPS = 0.05


def scaleup_domain(domain, link) -> Expr:
    """The GPUs one scale-up link joins (NVLink, Infinity Fabric, ICI, NeuronLink) for a
    GPU whose GPUs-table figures are ``domain`` (GPU_SCALEUP_DOMAIN: an HGX board 8, an
    NVL72 rack 72) and ``link`` (GPU_INTERCONNECT, GB/s): ``domain`` where the GPU has a
    link (``has_link``) and the figure is a number above 0, else ``PCIE_SERVER_GPUS`` (8:
    one board) for a linked GPU of a user's row without it; 1 without a link (PCIe
    cards: each GPU its own domain)."""
    d = of(domain)
    return F.IF(has_link(link), F.IF(F.IF(F.ISNUMBER(d), d, 0).gt(0), d, PCIE_SERVER_GPUS),
                1)


def server_gpus(domain) -> Expr:
    """The GPUs one server holds for a GPU of scale-up ``domain`` (``scaleup_domain``):
    the domain where it is wider than one server (NVL72, a TPU pod), else
    ``PCIE_SERVER_GPUS``: a stage of at most these GPUs all-reduces inside one server, at
    most over PCIe; a wider one over the network between servers. (MAX said as IF, so
    that it computes element by element in an array formula over a column.)"""
    d = of(domain)
    return F.IF(d.gt(PCIE_SERVER_GPUS), d, PCIE_SERVER_GPUS)


def stage_link_kind(link, stage, domain) -> Expr:
    """The interconnect a tensor-parallel stage of ``stage`` GPUs all-reduces over, in
    words (a name of ``udfs/data/interconnects.csv``): the scale-up link's
    (``link_kind``) within its ``domain`` (``scaleup_domain``), "PCIe" past it within a
    server (``server_gpus``: an H100 PCIe pair's bridge, then the server's PCIe),
    "InfiniBand" past the server (the network: InfiniBand or RoCE, NCCL's one NET
    constant)."""
    t = of(stage)
    return F.IF(t.le(of(domain)), link_kind(link),
                F.IF(t.le(server_gpus(domain)), Text("PCIe"), Text("InfiniBand")))


def divides(d, n) -> Expr:
    """Whether the whole number ``d`` divides the whole number ``n`` (TRUE or FALSE):
    CEILING(n ÷ d, 1) = n ÷ d, n mod d = 0 said with a function napkin's engine computes
    element by element in an array formula (MOD given an array is not checked)."""
    q = of(n) / of(d)
    return F.CEILING(q, 1).eq(q)


#: What a sheet says where a stage's GPUs do not split the attention heads (``heads_split``).
NO_LAYOUT_HEADS = "no layout: the GPUs of a stage do not divide the attention heads"


def heads_split(heads, kv_heads, attention, degree, elementwise: bool = False) -> Expr:
    """Whether tensor parallelism of ``degree`` GPUs (``tp_degree``) can split the
    attention of a model of ``heads`` query heads, ``kv_heads`` KV heads and
    ``attention`` (its Models-table kind) (TRUE or FALSE), by vLLM's rules [1]: the query
    heads H a multiple of the degree t, H mod t = 0
    (``ModelConfig.verify_with_parallel_config``: "Total number of attention heads ...
    must be divisible by tensor parallel size"); the KV heads K split evenly, K mod t = 0
    where t < K, or replicated evenly, t mod K = 0 where t ≥ K (``QKVParallelLinear``:
    ``divide(total_num_kv_heads, tp_size)``, else ``divide(tp_size,
    total_num_kv_heads)`` replicas; the KV copies a stage holds are modelled,
    ``workbook.model.serving.kv_copies``). MLA's latent cache is one head every GPU holds
    whole: the query heads only. TRUE for a model without head counts (a user's row).
    ``elementwise``: AND and OR said as products and sums, for an array formula over a
    column.

    References
    ----------
    .. [1] vLLM, ``vllm/config/model.py`` (``verify_with_parallel_config``) and
       ``vllm/model_executor/layers/linear.py`` (``QKVParallelLinear.__init__``), at commit
       0052a5b818980ce8a0477706aaf9f75bd5af72cd, https://github.com/vllm-project/vllm.
    """
    h, kv, t = of(heads), of(kv_heads), of(degree)
    queries = divides(t, h)
    keys = F.IF(t.ge(kv), divides(kv, t), divides(t, kv))
    latent = of(attention).eq(Text("MLA"))
    if elementwise:
        split = (queries * (latent + keys).gt(0)).gt(0)
        return F.IF(F.ISNUMBER(h) * F.ISNUMBER(kv), split, Bool(True))
    return F.IF(F.AND(F.ISNUMBER(h), F.ISNUMBER(kv)), F.AND(queries, F.OR(latent, keys)),
                Bool(True))


def tp_degree(stage_gpus, expert_parallel) -> Expr:
    """The GPUs over which a stage of ``stage_gpus`` GPUs splits each layer's attention
    heads: all of them in tensor parallel, 1 with expert parallelism (``expert_parallel``
    1: the attention data parallel, each GPU whole heads)."""
    return F.IF(of(expert_parallel).eq(1), 1, of(stage_gpus))


def model_heads_split(row, stage_gpus, expert_parallel=0, elementwise: bool = False) -> Expr:
    """``heads_split`` of the model in ``row`` of the Models table (MODEL_HEADS,
    MODEL_KV_HEADS, MODEL_ATTENTION) on a stage of ``stage_gpus`` GPUs served with
    ``expert_parallel`` (``tp_degree``)."""
    r = of(row)
    return heads_split(MODEL_HEADS.at(r), MODEL_KV_HEADS.at(r), MODEL_ATTENTION.at(r),
                       tp_degree(stage_gpus, expert_parallel), elementwise)


def no_layout_says(stage_gpus, link, elementwise: bool = False) -> Expr:
    """Why a layout does not run, in words, where ``layout_runs`` or ``heads_split`` is
    FALSE: ``NO_LAYOUT`` where a PCIe stage spans servers, else ``NO_LAYOUT_HEADS``."""
    return F.IF(layout_runs(stage_gpus, link, elementwise), Text(NO_LAYOUT_HEADS),
                Text(NO_LAYOUT))


def layout_says(heads, kv_heads, attention, stage_gpus, link, degree,
                elementwise: bool = False) -> Expr:
    """"" where a stage of ``stage_gpus`` GPUs (interconnect figure ``link``) runs a model
    of ``heads`` query heads, ``kv_heads`` KV heads and ``attention`` with its heads split
    over ``degree`` GPUs (``tp_degree``), else why not in words: PCIe cards at most one
    server's GPUs a stage (``layout_runs``), the degree dividing the heads as vLLM
    requires (``heads_split``; ``no_layout_says``). ``elementwise``: the array form,
    element by element. Cost's and Plan's layout column."""
    split = heads_split(heads, kv_heads, attention, degree, elementwise)
    runs = layout_runs(stage_gpus, link, elementwise)
    runs = (runs * split).gt(0) if elementwise else F.AND(runs, split)
    return F.IF(runs, Text(""), no_layout_says(stage_gpus, link, elementwise))


def link_kind(link) -> Expr:
    """The interconnect whose NCCL latencies the all-reduces of a GPU pay (a name of
    ``udfs/data/interconnects.csv``), by its GPUs-table figure ``link`` (GB/s): "NVLink"
    where the table has a figure (the scale-up link it measures: NVLink, Infinity Fabric,
    ICI, NeuronLink; NCCL has one constant for them all), "PCIe" without one (the GPUs
    that have only PCIe: L4, L40S, RTX)."""
    return F.IF(has_link(link), Text("NVLink"), Text("PCIe"))


def hop_us(name: str) -> Raw:
    """NCCL's latency of one ring step over the interconnect ``name`` [µs], as a number
    of ``udfs/data/interconnects.csv`` (Excel's own functions compute it natively)."""
    return Raw(f"{interconnects.hop_latency_us(name):g}")


def _one_base_us() -> float:
    """NCCL's base latency of one all-reduce call [µs], the same for every interconnect
    of ``udfs/data/interconnects.csv`` (its ``baseLatencies`` do not depend on the link);
    a table where they differ is refused here, not averaged."""
    bases = {interconnects.base_latency_us(name) for name in interconnects.table()}
    if len(bases) != 1:
        raise ValueError(f"interconnects.csv: base latencies differ {sorted(bases)}")
    return bases.pop()


def tp_comm(hidden, batch, gpus, link, layers, kind, expert_parallel, domain=None) -> Expr:
    """The all-reduces of one decode step over ``gpus`` in tensor parallel: TP_COMM_MS with
    BF16 activations, two per layer, the link one way (half the GPUs table's in + out
    ``link`` GB/s; without a figure PCIe 5.0 x16, ``PCIE_TBPS``) and NCCL's latencies of
    ``kind`` (a cell naming the interconnect), or, ``kind`` None, those ``link_kind``
    picks, as numbers of ``udfs/data/interconnects.csv`` (Excel's own functions then
    compute them in the native edition); 0 on one GPU and with expert parallelism
    (``expert_parallel`` 1: the attention is data parallel, no all-reduce).

    ``domain`` (``scaleup_domain``; None: any stage within it): a stage wider than the
    GPUs its scale-up link joins crosses a slower link (``stage_link_kind``): within a
    server (``server_gpus``) PCIe, ``PCIE_TBPS`` at PCIe's latency; past it the network,
    ``NETWORK_TBPS`` at NCCL's network latency (2.7 µs a ring step for every step, an
    upper figure: NCCL counts only the steps that cross servers at it)."""
    if kind is None:
        hop = F.IF(has_link(link), hop_us("NVLink"), hop_us("PCIe"))
        base = Raw(f"{interconnects.base_latency_us('NVLink'):g}")
    else:
        hop = base = of(kind)
    li, g = of(link), of(gpus)
    one_way = F.IF(has_link(link), li / 2000, PCIE_TBPS)
    if domain is not None:  # past the domain: PCIe in the server, the network past it
        inside, server = g.le(of(domain)), g.le(server_gpus(domain))
        one_way = F.IF(inside, one_way, F.IF(server, PCIE_TBPS, NETWORK_TBPS))
        # as numbers throughout (``kind`` names the same link within the domain: NVLink
        # with a figure, PCIe without), so that the native edition computes an expression
        linked = F.IF(has_link(link), hop_us("NVLink"), hop_us("PCIe"))
        hop = F.IF(inside, linked, F.IF(server, hop_us("PCIe"), hop_us("InfiniBand")))
        # NCCL's base latency of a call is one figure over every link (baseLatencies[Ring]
        # [LL]: interconnects.csv's three rows agree), so it is the number whichever link
        base = Raw(f"{_one_base_us():g}")
    return F.IF(g.le(1) + of(expert_parallel), 0,
                F.TP_COMM_MS(of(hidden), of(batch), g, one_way, of(layers), 2, 2, hop, base))


def stage_comm(model_row, hidden, layers, tokens, gpus, stages=None, link=None,
               kind=None, auto=AUTO_EXPERT_PARALLEL, domain=None) -> Expr:
    """The all-reduces of one micro-batch through the layers of a replica of ``gpus`` GPUs
    in ``stages`` pipeline stages (None: one), the step's ``tokens`` (batch × (draft
    tokens + 1)) split into one micro-batch a stage: ``tp_comm`` at the stage's degree
    g ÷ p for t ÷ p tokens, with the stage's expert parallelism (``expert_parallel`` of
    the model in ``model_row`` over g ÷ p GPUs, "auto" read from ``auto``: no all-reduce)
    and the interconnect figure ``link`` (``kind``, ``domain``: see ``tp_comm``). What
    DECODE_STEP_MS takes as ``comm_ms``."""
    stage = of(gpus) if stages is None else of(gpus) / of(stages)
    carried = of(tokens) if stages is None else of(tokens) / of(stages)
    return tp_comm(hidden, carried, stage, link, layers, kind,
                   expert_parallel(model_row, stage, auto), domain)


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
           "NETWORK_TBPS", "hop_us", "scaleup_domain", "server_gpus", "stage_link_kind",
           "NO_LAYOUT_HEADS", "heads_split", "no_layout_says", "layout_says", "divides",
           "tp_degree",
           "model_heads_split",
           "step_floor", "PCIE_TBPS", "BILLION"]
