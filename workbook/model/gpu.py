"""The GPU a replica runs on, once, as formula expressions every sheet uses (Cost,
Frontier, Finance, Plan): a figure of the GPUs table, the compute roof used for a weight
precision, the GPUs per replica as people deploy them, the efficiency the realistic step
divides by and the layers' fixed time it adds.

Each function takes expressions or formula text (``workbook.expr.of``) and returns an
``Expr``; the sheets lay them out as rows and cells. (``workbook.sheet`` keeps the text
forms of a few of these for Sizing and Calibration, which render the same formulas.)

References
----------
.. [1] NVIDIA, "NVIDIA Collective Communications Library (NCCL) documentation": tensor
   parallelism in powers of two up to one 8-GPU node (NVLink), then whole nodes.
"""

from __future__ import annotations

from workbook.expr import Column, Expr, F, Name, Text, of, words

#: The Calibration table's columns: a measurement's GPU and its efficiency (floor ÷
#: measured).
CAL_GPU, CAL_EFF = Name("CAL_GPU"), Name("CAL_EFF")
#: Calibration's column of measured ÷ the model's estimate, counted rows (``calibration_ratio``).
CAL_RATIO = Name("CAL_RATIO")
#: What a cell that needs a figure the GPUs table lacks says.
NO_FIGURE = "no figure"


def figure(column, row, words: str = NO_FIGURE) -> Expr:
    """The figure of ``column`` (a table column's defined name, ``GPU_TDP``) at ``row``:
    the number, else ``words`` (text, never an error value), so that the cells which do
    not need it still compute."""
    at = Column(column).at(of(row)) if isinstance(column, str) else of(column).at(of(row))
    return F.IF(F.ISNUMBER(at), at, Text(words))


def figure_says(cell, what: str = "GPU") -> Expr:
    """The note beside a ``figure`` cell: ``what`` (the table) where ``cell`` holds a
    number, else that the table has no figure and the cells needing it say so."""
    return F.IF(F.ISNUMBER(of(cell)), Text(what), Text(
        f"no figure in the {what} table (none published or none trustworthy): the cells "
        "that need it say so, the others compute"))


def lookup(column, row) -> Expr:
    """The figure of ``column`` at ``row``, #N/A where the table leaves it empty (never
    0)."""
    at = Column(column).at(of(row))
    return F.IF(F.ISNUMBER(at), at, F.NA())


def blank_or(names, k, values=None) -> Expr:
    """Slot ``k`` of a table: INDEX(``values``, k), or "" where the slot's name in
    ``names`` is empty (the spare rows below a table, where a user adds one)."""
    names = Column(names) if isinstance(names, str) else names
    values = names if values is None else Column(values)
    return F.IF(names.at(of(k)).eq(Text("")), Text(""), values.at(of(k)))


def empty_says(cell, what: str) -> Expr:
    """A note that says why ``cell`` is #N/A (``lookup``): an empty figure in the ``what``
    table."""
    return F.IF(F.ISNA(of(cell)), Text(f"empty in the {what} table: no trustworthy figure"),
                Text(""))


def numbers_or(cells, e, words: str) -> Expr:
    """``e`` where every one of ``cells`` holds a number, else ``words`` (never an error
    value): IF(AND(ISNUMBER(c₁), ...), e, words)."""
    return F.IF(F.AND(*[F.ISNUMBER(of(c)) for c in cells]), of(e), Text(words))


def roof_used(precision, fp8, bf16, elementwise: bool = False) -> Expr:
    """The compute roof for weights in ``precision`` [TFLOPS]: the FP8 peak ``fp8`` for
    weights of one byte or less where the GPU has one, else the BF16 peak ``bf16``, else
    the words "no figure". ``elementwise``: the test "both" as a product of comparisons
    (an array formula over a column: AND would reduce it to one value)."""
    small, has = F.BYTES_PER_PARAM(of(precision)).le(1), F.ISNUMBER(of(fp8))
    both = small * has if elementwise else F.AND(small, has)
    return F.IF(both, of(fp8), F.IF(F.ISNUMBER(of(bf16)), of(bf16), Text(NO_FIGURE)))


def deployed(gpus_needed) -> Expr:
    """GPUs per replica as people deploy them [1]: the tensor-parallel degree 1, 2, 4 or 8
    at or above the minimum ``gpus_needed``, then whole 8-GPU nodes."""
    n = of(gpus_needed)
    return F.IF(n.le(1), 1, F.IF(n.le(2), 2, F.IF(n.le(4), 4, 8 * F.CEILING(n / 8, 1))))


def staged(gpus_needed, stages) -> Expr:
    """GPUs per replica in ``stages`` pipeline stages: each stage a ``deployed`` degree at
    or above its share of the minimum, CEILING(``gpus_needed`` ÷ stages, 1), × the
    stages."""
    return of(stages) * deployed(F.CEILING(of(gpus_needed) / of(stages), 1))


#: The scenario's GPUs per replica, typed or "smallest that fits" (``replica_gpus``).
TYPED_GPUS = Name("SCENARIO_GPUS_PER_REPLICA")


def replica_gpus(gpus_needed, stages, typed=TYPED_GPUS) -> Expr:
    """GPUs per replica: the scenario's where it is typed (``typed``: its input,
    SCENARIO_GPUS_PER_REPLICA), else ``staged`` of the minimum ``gpus_needed`` in
    ``stages``."""
    typed = of(typed)
    return F.IF(F.ISNUMBER(typed), typed, staged(gpus_needed, stages))


def measured(gpu) -> Expr:
    """Whether Calibration has measurements of the GPU named in ``gpu``."""
    return F.COUNTIF(CAL_GPU, of(gpu)).gt(0)


def calibration_ratio(gpu) -> Expr:
    """Calibration's ratio for the GPU named in ``gpu``: the average over that GPU's
    counted measurement rows of measured ÷ the model's estimate at the row's own GPUs,
    batch and context (Calibration column AH, CAL_RATIO), else 1.

    The realistic step anywhere is the model's estimate × this ratio, ratio × (floor ÷ e
    + f) = ESTIMATE(floor, e ÷ ratio, f × ratio), e the regime's default efficiency at
    the deployment's GPUs and batch and f the layers' time: at a measured point (one row
    of the GPU, the scenario at its model, precision, GPUs, batch and context) the
    measured time itself, elsewhere the model scaled by it."""
    return F.IF(measured(gpu), F.AVERAGEIF(CAL_GPU, of(gpu), CAL_RATIO), 1)


def gpu_efficiency(gpu, regime, ratio=None) -> Expr:
    """The efficiency used for the GPU named in ``gpu``: ``regime`` (the deployment's
    REGIME_EFFICIENCY) ÷ ``calibration_ratio`` (1 without measurements of the GPU), so
    that ESTIMATE(floor, this, ``layer_time``) is the model's estimate × Calibration's
    ratio. ``ratio``: a cell that holds ``calibration_ratio`` of the GPU already (Sizing's
    row), read instead of computing it again."""
    return of(regime) / (calibration_ratio(gpu) if ratio is None else of(ratio))


#: The per-layer time of the Assumptions [µs] (``udfs/data/layer_time.csv``'s default).
LAYER_TIME_US = Name("LAYER_TIME_US")


def layers_ms(layers, tokens_per_step) -> Expr:
    """The layers' fixed time per output token [ms], the model's before calibration:
    LAYER_OVERHEAD_MS(``layers``, ``tokens_per_step``, LAYER_TIME_US) = layers × the
    per-layer time ÷ 1000 ÷ tokens per step (``layers``: the model's, + the draft tokens
    with speculative decoding). Sizing's row and, in Excel's functions, each Calibration
    row's."""
    return F.LAYER_OVERHEAD_MS(of(layers), of(tokens_per_step), LAYER_TIME_US)


def layer_time(gpu, fixed, ratio=None) -> Expr:
    """The layers' fixed time used for the GPU named in ``gpu`` [ms]: ``fixed`` (Sizing's
    LAYER_OVERHEAD_MS) × ``calibration_ratio``, the other half of the model's estimate
    scaled (``gpu_efficiency``); ``ratio`` as there."""
    return of(fixed) * (calibration_ratio(gpu) if ratio is None else of(ratio))


def regime_says(efficiency) -> Expr:
    """Where the efficiency in the cell ``efficiency`` (a REGIME_EFFICIENCY) comes from, in
    words: the regime whose anchor it is, named from the Assumptions' regime table
    (REGIME_NAME, REGIME_EFF), else that it lies between the anchors."""
    at = F.MATCH(of(efficiency), Name("REGIME_EFF"), 0)
    return F.IF(F.ISNUMBER(at), words(
        Column("REGIME_NAME").at(at), " (inside the GPUs and batches of its published "
        "measurements: Assumptions, regime table, with its sources)"), Text(
        "between the regimes' measured ranges, linear in ln(GPUs) and ln(batch) "
        "(Assumptions, regime table, with their sources)"))


def efficiency_says(gpu, regime) -> Expr:
    """Where the efficiency of ``gpu_efficiency`` comes from, in words; ``regime``: the
    cell of the regime's default efficiency."""
    n = F.COUNTIF(CAL_GPU, of(gpu))
    return F.IF(measured(gpu), words(
        "the default of its regime ÷ ", F.ROUND(calibration_ratio(gpu), 2),
        ", measured ÷ the model's estimate of this GPU's ", n, " measurement(s) on "
        "Calibration: the model's estimate scaled to what was measured"),
        words("no measurement of this GPU: the default of its regime, ",
              regime_says(regime)))


__all__ = ["CAL_GPU", "CAL_EFF", "NO_FIGURE", "figure", "figure_says", "lookup", "empty_says",
           "blank_or", "numbers_or",
           "roof_used", "deployed", "staged", "replica_gpus", "measured", "calibration_ratio",
           "gpu_efficiency", "layer_time", "layers_ms", "LAYER_TIME_US", "CAL_RATIO",
           "regime_says", "efficiency_says"]
