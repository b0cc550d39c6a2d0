"""The Excel functions of napkin: one per catalog entry, declared with xlwings.

Each function's docstring is what Excel shows as its description (at most 255
characters, the limit of Excel's ``MacroOptions``), and each argument's doc is declared
with xlwings' ``arg`` (also at most 255). The formulas themselves, with their sources,
live in the topic modules (:mod:`udfs.memory`, :mod:`udfs.timing`, :mod:`udfs.roofline`,
:mod:`udfs.speedup`, :mod:`udfs.cost`, :mod:`udfs.tables`); this module reads Excel's
arguments (units, ranges, errors) and calls them.

Default units of bare numbers: parameter counts as counts, memory GB, bandwidth TB/s,
compute TFLOPS, per-token times ms, kernel FLOPs and bytes as counts.
"""

from __future__ import annotations

from . import cost, energy, finance, memory, roofline, serving, speedup, tables, timing, units
from .args import (
    ANY,
    AT_LEAST_ONE,
    FRACTION,
    NONNEGATIVE,
    OPEN_FRACTION,
    POSITIVE,
    RESERVE,
    Arg,
    Count,
    Precision,
    is_range,
    out_unit,
)
from .broadcast import BOOL, TEXT, guard, map_elements, run
from .errors import ExcelError, as_excel_error, value_error
from .formula import Formula

try:  # xlwings declares the functions to Excel; without it they are plain functions
    from xlwings import arg, func
except ImportError:  # pragma: no cover - e.g. a bare Pyodide
    def func(f=None, **_):
        return f if f is not None else (lambda g: g)

    def arg(*_, **__):
        return lambda g: g

#: Excel name -> function, in catalog order.
CATALOG: dict = {}
#: Excel name -> {argument: doc}, as declared to xlwings (Linux xlwings keeps no copy).
ARG_DOCS: dict = {}


def excel_function(**docs):
    """Declare a catalog function to xlwings (``func`` and one ``arg`` per argument, with
    its doc) and record it in :data:`CATALOG` and :data:`ARG_DOCS`."""

    def declare(f):
        g = f
        for name, doc in reversed(docs.items()):
            g = arg(name, doc=doc)(g)
        g = func(g)
        CATALOG[f.__name__] = g
        ARG_DOCS[f.__name__] = dict(docs)
        return g

    return declare


def _or(value, default):
    """An omitted optional argument or an empty cell takes the default."""
    return default if value is None else value


# Argument readers and formulas, built once (see udfs.formula) ---------------------------
PARAMS = Count("params", domain=POSITIVE)
PRECISION = Precision()
MEMORY_NEED = Arg("need_gb", "GB", NONNEGATIVE)
CAPACITY = Arg("capacity_gb", "GB", POSITIVE)
RESERVE_FRACTION = Arg("reserve_fraction", "dimensionless", RESERVE)
BANDWIDTH = Arg("bandwidth", "TB/s", POSITIVE)
PEAK = Arg("peak_flops", "TFLOPS", POSITIVE)
MS_TOKEN = Arg("ms_per_token", "ms", POSITIVE, also=("ms/token",))
TPS = Arg("tokens_per_sec", "token/s", POSITIVE)
BATCH = Arg("batch", None, POSITIVE)

_WEIGHT_GB = Formula(memory.weight_gb, PARAMS, PRECISION)
_BYTES_PER_PARAM = Formula(lambda b: b, PRECISION)
_KV_CACHE_GB = Formula(
    memory.kv_cache_gb, Arg("layers", None, POSITIVE, whole=True),
    Arg("kv_heads", None, POSITIVE, whole=True), Arg("head_dim", None, POSITIVE, whole=True),
    Arg("tokens", "token", NONNEGATIVE), PRECISION, BATCH)
_FITS = Formula(memory.fits, MEMORY_NEED, CAPACITY, RESERVE_FRACTION, result=BOOL)
_GPUS_NEEDED = Formula(memory.gpus_needed, MEMORY_NEED, CAPACITY, RESERVE_FRACTION)
_KERNEL_TIME = Formula(timing.kernel_time_ms, Arg("flops", "FLOP", NONNEGATIVE),
                       Arg("bytes", "B", NONNEGATIVE), PEAK, BANDWIDTH)
_DECODE_ARGS = (PARAMS, PRECISION, BANDWIDTH, BATCH, Arg("kv_gb", "GB", NONNEGATIVE))
_DECODE_FLOOR_MEMORY = Formula(
    lambda n, b, bw, batch, kv: timing.decode_floor_ms(memory.weight_gb(n, b), kv, bw, n, batch),
    *_DECODE_ARGS)
_DECODE_FLOOR = Formula(
    lambda n, b, bw, batch, kv, peak: timing.decode_floor_ms(
        memory.weight_gb(n, b), kv, bw, n, batch, peak),
    *_DECODE_ARGS, PEAK)
_TOKENS_PER_SEC = Formula(timing.tokens_per_sec, MS_TOKEN)
_MS_PER_TOKEN = Formula(timing.ms_per_token, TPS)
_PER_USER_TPS = Formula(timing.per_user_tps, Arg("aggregate_tps", "token/s", NONNEGATIVE),
                        Arg("streams", None, POSITIVE))
_INTENSITY = Formula(roofline.intensity, Arg("flops", "FLOP", NONNEGATIVE),
                     Arg("bytes", "B", POSITIVE))
_MATMUL_INTENSITY = Formula(
    roofline.matmul_intensity, Arg("m", None, POSITIVE, whole=True),
    Arg("n", None, POSITIVE, whole=True), Arg("k", None, POSITIVE, whole=True), PRECISION)
_RIDGE = Formula(roofline.ridge, PEAK, BANDWIDTH,
                 Arg("efficiency", "dimensionless", OPEN_FRACTION))
_ATTAINABLE = Formula(roofline.attainable_tflops, Arg("intensity", "FLOP/B", NONNEGATIVE),
                      PEAK, BANDWIDTH)
_BOUND = Formula(roofline.bound, Arg("intensity", "FLOP/B", NONNEGATIVE),
                 Arg("ridge", "FLOP/B", POSITIVE), result=TEXT)
_CRITICAL_BATCH = Formula(roofline.critical_batch, PEAK, BANDWIDTH,
                          Precision("weight_precision"))
_MBU = Formula(roofline.mbu, Arg("bytes_per_token_gb", "GB", POSITIVE), MS_TOKEN, BANDWIDTH)
_MFU = Formula(roofline.mfu, Arg("flops_per_token", "FLOP", POSITIVE, also=("FLOP/token",)),
               TPS, PEAK)
_UNBOUNDED = "p = 1 with s omitted: the speedup has no bound"
_AMDAHL_INFINITE = Formula(speedup.amdahl, Arg("p", "dimensionless", FRACTION),
                           nonfinite=_UNBOUNDED)
_AMDAHL = Formula(speedup.amdahl, Arg("p", "dimensionless", FRACTION),
                  Arg("s", "dimensionless", POSITIVE))
_SPEEDUP = Formula(speedup.speedup, Arg("before", "ms", POSITIVE), Arg("after", "ms", POSITIVE))
_COST_PER_MTOK = Formula(
    cost.cost_per_mtok, Arg("gpu_hourly_cost", None, NONNEGATIVE), TPS,
    Arg("gpus", None, POSITIVE), Arg("utilization", "dimensionless", OPEN_FRACTION))


FLOOR_MS = Arg("floor_ms", "ms", POSITIVE, also=("ms/token",))
MEASURED_MS = Arg("measured_ms", "ms", POSITIVE, also=("ms/token",))
EFFICIENCY = Arg("efficiency", "dimensionless", OPEN_FRACTION)
UTILIZATION = Arg("utilization", "dimensionless", OPEN_FRACTION)
HOURLY = Arg("gpu_hourly_cost", None, NONNEGATIVE)
_CALIBRATE = Formula(finance.efficiency, FLOOR_MS, MEASURED_MS)
_ESTIMATE = Formula(finance.estimate_ms, FLOOR_MS, EFFICIENCY)
_PLAUSIBLE = Formula(finance.plausibility, FLOOR_MS, MEASURED_MS, result=TEXT)
_PREFILL_MS = Formula(finance.prefill_ms, PARAMS, Arg("prompt_tokens", "token", NONNEGATIVE),
                      PEAK, EFFICIENCY)
_INPUT_COST_PER_MTOK = Formula(finance.input_cost_per_mtok, HOURLY, PARAMS, PEAK, EFFICIENCY,
                               UTILIZATION)
_BLENDED_COST_PER_MTOK = Formula(
    finance.blended_cost_per_mtok, Arg("input_cost_per_mtok", None, NONNEGATIVE),
    Arg("output_cost_per_mtok", None, NONNEGATIVE), Arg("input_tokens", "token", NONNEGATIVE),
    Arg("output_tokens", "token", NONNEGATIVE),
    nonfinite="input_tokens and output_tokens are both 0: no mix to price")
_OWNED_HOURLY_COST = Formula(
    finance.owned_hourly_cost, Arg("capex", None, NONNEGATIVE), Arg("years", "yr", POSITIVE),
    Arg("power_w", "W", NONNEGATIVE), Arg("pue", "dimensionless", AT_LEAST_ONE),
    Arg("price_per_kwh", None, NONNEGATIVE))
_GPUS_FOR_DEMAND = Formula(
    finance.gpus_for_demand, Arg("tokens_per_day", "token", NONNEGATIVE, also=("token/day",)),
    Arg("tokens_per_sec_per_gpu", "token/s", POSITIVE),
    Arg("peak_to_average", "dimensionless", AT_LEAST_ONE), UTILIZATION)
_MONTHLY_COST = Formula(finance.monthly_cost, Arg("gpus", None, NONNEGATIVE), HOURLY,
                        Arg("hours_per_month", "h", POSITIVE))
_BREAKEVEN_MTOK = Formula(
    finance.breakeven_mtok_per_month, Arg("monthly_fixed_cost", None, NONNEGATIVE),
    Arg("api_price_per_mtok", None, POSITIVE), Arg("marginal_cost_per_mtok", None, NONNEGATIVE),
    nonfinite="api_price_per_mtok is not above marginal_cost_per_mtok: self-hosting never "
              "breaks even")

# Serving and energy (udfs.serving, udfs.energy) ----------------------------------------
WEIGHTS_GB = Arg("weights_gb", "GB", NONNEGATIVE)
KV_PER_SEQUENCE = Arg("kv_gb_per_sequence", "GB", POSITIVE)
FLOPS_PER_TOKEN = Arg("flops_per_token", "FLOP", POSITIVE, also=("FLOP/token",))
ACCEPTANCE = Arg("acceptance_rate", "dimensionless", FRACTION)
DRAFT_TOKENS = Arg("draft_tokens", None, NONNEGATIVE, whole=True)
POWER = Arg("power_w", "W", NONNEGATIVE)
_MAX_BATCH = Formula(serving.max_batch, CAPACITY, WEIGHTS_GB, KV_PER_SEQUENCE,
                     RESERVE_FRACTION, Arg("gpus", None, POSITIVE, whole=True))
_LATENCY_ARGS = (Arg("target_ms", "ms", POSITIVE, also=("ms/token",)), WEIGHTS_GB,
                 KV_PER_SEQUENCE, BANDWIDTH)
_BATCH_FOR_LATENCY_MEMORY = Formula(serving.batch_for_latency, *_LATENCY_ARGS)
_BATCH_FOR_LATENCY = Formula(serving.batch_for_latency, *_LATENCY_ARGS, FLOPS_PER_TOKEN, PEAK)
_TP_COMM_MS = Formula(
    serving.tp_comm_ms, Arg("hidden", None, POSITIVE, whole=True), Arg("batch", None, POSITIVE),
    Arg("tp", None, POSITIVE, whole=True), Arg("link_bandwidth", "TB/s", POSITIVE),
    Arg("layers", None, POSITIVE, whole=True), PRECISION,
    Arg("allreduces_per_layer", None, NONNEGATIVE, whole=True),
    Arg("latency_us", "us", NONNEGATIVE))
_PIPELINE_BUBBLE = Formula(serving.pipeline_bubble, Arg("stages", None, POSITIVE, whole=True),
                           Arg("microbatches", None, POSITIVE, whole=True))
_SPEC_TOKENS_PER_STEP = Formula(serving.spec_tokens_per_step, ACCEPTANCE, DRAFT_TOKENS)
_SPEC_DECODE_SPEEDUP = Formula(serving.spec_decode_speedup, ACCEPTANCE, DRAFT_TOKENS,
                               Arg("draft_cost_ratio", "dimensionless", NONNEGATIVE))
_CONCURRENCY = Formula(serving.concurrency,
                       Arg("requests_per_sec", "request/s", NONNEGATIVE),
                       Arg("seconds_per_request", "s", NONNEGATIVE, also=("s/request",)))
_JOULES_PER_TOKEN = Formula(energy.joules_per_token, POWER, TPS)
_ENERGY_PER_MTOK_KWH = Formula(energy.energy_per_mtok_kwh, POWER, TPS,
                               Arg("pue", "dimensionless", AT_LEAST_ONE))


def _in_unit(formula: Formula, unit, default: str, *values):
    """Call ``formula`` with its result expressed in ``unit`` (empty: ``default``)."""
    if unit is None:
        return formula(*values)
    try:
        scale = out_unit(unit, "unit", default)[1]
    except ExcelError as e:
        return e
    return formula(*values, scale=scale)


# Argument docs shared by several functions
D_PARAMS = "Parameter count: a number (8.03E+9) or text with a scale: '8.03B', '70b', '405e9'."
D_PRECISION = ("Number format: FP32, TF32, BF16, FP16, FP8, INT8, FP6, INT4, FP4, MXFP4, "
               "NVFP4; or bytes per parameter as a number.")
D_BANDWIDTH = "Memory bandwidth: bare number in TB/s, or text such as '3.35 TB/s', '3350 GB/s'."
D_PEAK = "Peak compute: bare number in TFLOPS, or text such as '989 TFLOPS', '0.989 PFLOPS'."
D_NEED = "Memory needed: bare number in GB (10^9 bytes), or text such as '70 GB', '65 GiB'."
D_CAPACITY = "Memory of one GPU: bare number in GB (10^9 bytes), or text such as '80 GB'."
D_RESERVE = "Optional. Share of capacity held back for KV cache and runtime, 0 to <1. Default 0."
D_UNIT_GB = "Optional. Unit of the result: GB (default), GiB, MB, TB, B..."
D_UNIT_MS = "Optional. Unit of the result: ms (default), s, us, ns..."


@excel_function(params=D_PARAMS, precision=D_PRECISION, unit=D_UNIT_GB)
def WEIGHT_GB(params, precision, unit=None):
    """Weight memory = params × bytes per parameter, in GB (10^9 bytes) unless unit says otherwise. WEIGHT_GB("8.03B","BF16") = 16.06."""  # noqa: E501
    return _in_unit(_WEIGHT_GB, unit, "GB", params, precision)


@excel_function(precision=D_PRECISION)
def BYTES_PER_PARAM(precision):
    """Bytes per parameter of a number format: FP32 4, BF16/FP16 2, FP8/INT8 1, FP6 0.75, INT4/FP4 0.5, MXFP4 0.53125, NVFP4 0.5625."""  # noqa: E501
    return _BYTES_PER_PARAM(precision)


@excel_function(
    layers="Number of transformer layers (whole number).",
    kv_heads="Key/value heads per layer (whole number; GQA models have fewer than query heads).",
    head_dim="Dimension of one attention head (whole number; not always hidden ÷ heads).",
    tokens="Tokens held per sequence (context length): a number or text such as '8192 tokens'.",
    precision="Optional. Number format of the cache, default BF16; or bytes per element.",
    batch="Optional. Number of sequences held at once. Default 1.",
    unit=D_UNIT_GB,
)
def KV_CACHE_GB(layers, kv_heads, head_dim, tokens, precision=None, batch=None, unit=None):
    """KV cache = 2 × layers × kv_heads × head_dim × bytes × tokens × batch, in GB. Right for MHA and GQA; not MLA (DeepSeek-V3) or sliding-window layers (Gemma 2)."""  # noqa: E501
    return _in_unit(_KV_CACHE_GB, unit, "GB", layers, kv_heads, head_dim, tokens,
                    _or(precision, "BF16"), _or(batch, 1))


@excel_function(need_gb=D_NEED, capacity_gb=D_CAPACITY, reserve_fraction=D_RESERVE)
def FITS(need_gb, capacity_gb, reserve_fraction=None):
    """TRUE when need_gb <= capacity_gb × (1 − reserve_fraction). Memory in GB unless given as text with units. FITS(140,80) = FALSE; FITS(70,80) = TRUE."""  # noqa: E501
    return _FITS(need_gb, capacity_gb, _or(reserve_fraction, 0))


@excel_function(need_gb=D_NEED, capacity_gb=D_CAPACITY, reserve_fraction=D_RESERVE)
def GPUS_NEEDED(need_gb, capacity_gb, reserve_fraction=None):
    """Whole GPUs to hold need_gb: CEILING(need ÷ (capacity × (1 − reserve))). Memory in GB unless given with units. GPUS_NEEDED(140,80) = 2."""  # noqa: E501
    return _GPUS_NEEDED(need_gb, capacity_gb, _or(reserve_fraction, 0))


def _unit_convert(value, from_unit, to_unit):
    if not isinstance(to_unit, str) or not to_unit.strip():
        raise value_error("to_unit: expected a unit as text, e.g. 'GiB'")
    if from_unit is None or (isinstance(from_unit, str) and not from_unit.strip()):
        if is_range(value):
            raise value_error("from_unit: give the unit of the values in the range")
        err = as_excel_error(value)
        if err is not None:
            raise err
        if not isinstance(value, str):
            raise value_error("from_unit is empty: give the unit of value, or value as text "
                              "with its unit ('80 GiB')")
        try:
            mag, u = units.parse(value)
        except ValueError as exc:
            raise value_error(f"value: {exc}") from None
        from_unit = str(u)
        value = mag
    elif not isinstance(from_unit, str):
        raise value_error("from_unit: expected a unit as text, e.g. 'GB'")
    to, factor = out_unit(to_unit, "to_unit", units.check_unit(from_unit, "from_unit",
                                                                from_unit.strip()))
    return run(lambda x: x, [(Arg("value", from_unit.strip(), ANY), value)], scale=factor)


@excel_function(
    value="Number to convert, or text with its unit ('80 GiB'; then from_unit may be empty).",
    from_unit="Unit of value: GB, GiB, TB/s, TFLOPS, FLOP, tokens, tokens/s, ms, h...",
    to_unit="Unit to convert to; must measure the same thing as from_unit.",
)
def UNIT_CONVERT(value, from_unit, to_unit):
    """Converts value from from_unit to to_unit: GB, GiB, TB/s, GB/s, TFLOPS, PFLOPS, FLOP, tokens, tokens/s, ms, s, h... GB and GiB are distinct. UNIT_CONVERT(16,"GB","GiB") = 14.9."""  # noqa: E501
    return guard(_unit_convert, value, from_unit, to_unit)


def _time_floor_seconds(amount, rate):
    """amount ÷ rate in seconds, checking that the units of the two agree."""
    for v in (amount, rate):
        err = as_excel_error(v)
        if err is not None:
            raise err
    parsed = []
    for name, v in (("amount", amount), ("rate", rate)):  # noqa: B007 - name is used below
        if isinstance(v, bool) or v is None or not isinstance(v, int | float | str):
            raise value_error(f"{name}: expected a number or text with units, got "
                              f"{'an empty cell' if v is None else repr(v)}")
        if isinstance(v, str):
            try:
                mag, u = units.parse(v)
            except ValueError as exc:
                raise value_error(f"{name}: {exc}") from None
            parsed.append((mag, None if u == units.registry().dimensionless else u))
        else:
            parsed.append((float(v), None))
    (a, ua), (r, ur) = parsed
    Arg("amount", None, NONNEGATIVE).check(a)
    Arg("rate", None, POSITIVE).check(r)
    if ua is None and ur is None:
        return a / r
    if ua is None or ur is None:
        raise value_error(
            f"{'amount' if ua is None else 'rate'}: give a unit too when "
            f"{'rate' if ua is None else 'amount'} has one ('16 GB' with '3.35 TB/s')")
    import pint

    try:
        return units.registry().Quantity(a / r, ua / ur).to("s").magnitude
    except pint.DimensionalityError:
        raise value_error(
            f"rate: {units.dimension_name(ur)} does not divide {units.dimension_name(ua)} "
            "into a time (bytes with bytes/s, FLOP with FLOPS, tokens with tokens/s)"
        ) from None


@excel_function(
    amount="Bytes, FLOPs or tokens: '16 GB', '16 GFLOP', '1000 tokens'; or a bare number.",
    rate="Bytes/s, FLOPS or tokens/s matching amount: '3.35 TB/s', '989 TFLOPS'; or bare.",
    unit="Optional. Unit of the result: s (default), ms, us, min, h...",
)
def TIME_FLOOR(amount, rate, unit=None):
    """Time = amount ÷ rate. Bare numbers in matching units give seconds; text with units must match (bytes with bytes/s, FLOP with FLOPS, tokens with tokens/s). TIME_FLOOR("16 GB","3.35 TB/s","ms") = 4.78."""  # noqa: E501

    def one(a, r, factor):
        return run(lambda t: t, [(Arg("time", None, ANY), _time_floor_seconds(a, r))],
                   scale=factor)

    return guard(lambda: map_elements(
        lambda a, r: one(a, r, out_unit(unit, "unit", "s")[1]),
        [("amount", amount), ("rate", rate)]))


@excel_function(
    flops="FLOPs the kernel does: a count (2E+9) or text such as '16 GFLOP'.",
    bytes="Bytes the kernel moves: a count (67E+6) or text such as '67 MB'.",
    peak_flops=D_PEAK,
    bandwidth=D_BANDWIDTH,
    unit=D_UNIT_MS,
)
def KERNEL_TIME(flops, bytes, peak_flops, bandwidth, unit=None):  # noqa: A002 - Excel name
    """The max rule: time ≈ MAX(flops ÷ peak_flops, bytes ÷ bandwidth), in ms. FLOPs and bytes are counts; peak in TFLOPS, bandwidth in TB/s unless given as text."""  # noqa: E501
    return _in_unit(_KERNEL_TIME, unit, "ms", flops, bytes, peak_flops, bandwidth)


@excel_function(
    params=D_PARAMS,
    precision=D_PRECISION,
    bandwidth=D_BANDWIDTH,
    batch="Optional. Sequences decoded per step. Default 1.",
    peak_flops="Optional. Peak compute (TFLOPS or text); if given, the math time 2 × params × batch ÷ peak counts too.",  # noqa: E501
    kv_gb="Optional. KV cache read per step, all sequences together: GB or text. Default 0.",
    unit=D_UNIT_MS,
)
def DECODE_FLOOR(params, precision, bandwidth, batch=None, peak_flops=None, kv_gb=None,
                 unit=None):
    """Per-token decode floor = MAX((weights + KV) ÷ bandwidth, 2 × params × batch ÷ peak), in ms. A floor, not a prediction. DECODE_FLOOR(70E9,"FP8",3.35) = 20.9."""  # noqa: E501
    values = (params, precision, bandwidth, _or(batch, 1), _or(kv_gb, 0))
    if peak_flops is None:
        return _in_unit(_DECODE_FLOOR_MEMORY, unit, "ms", *values)
    return _in_unit(_DECODE_FLOOR, unit, "ms", *values, peak_flops)


@excel_function(ms_per_token="Time per token of one stream: bare number in ms, or text ('5 ms').")
def TOKENS_PER_SEC(ms_per_token):
    """Tokens per second of one stream = 1000 ÷ ms per token. TOKENS_PER_SEC(5) = 200."""
    return _TOKENS_PER_SEC(ms_per_token)


@excel_function(tokens_per_sec="Tokens per second: a bare number, or text ('200 tokens/s').")
def MS_PER_TOKEN(tokens_per_sec):
    """Milliseconds per token = 1000 ÷ tokens per second. MS_PER_TOKEN(200) = 5."""
    return _MS_PER_TOKEN(tokens_per_sec)


@excel_function(
    aggregate_tps="Tokens/s of all streams together: a number or text ('1800 tokens/s').",
    streams="Number of concurrent streams (users) sharing it.",
)
def PER_USER_TPS(aggregate_tps, streams):
    """Tokens/s each stream sees = aggregate ÷ streams. PER_USER_TPS(1800,10) = 180. An aggregate figure means nothing without the number of streams."""  # noqa: E501
    return _PER_USER_TPS(aggregate_tps, streams)


@excel_function(
    flops="FLOPs done: a count or text ('16 GFLOP').",
    bytes="Bytes moved: a count or text ('67 MB').",
)
def INTENSITY(flops, bytes):  # noqa: A002 - Excel name
    """Arithmetic intensity = FLOPs ÷ bytes moved, in FLOP/byte. INTENSITY(1,4) = 0.25 (y = x × 2 in BF16)."""  # noqa: E501
    return _INTENSITY(flops, bytes)


@excel_function(
    m="Rows of the left matrix (whole number).",
    n="Columns of the right matrix (whole number).",
    k="Shared inner dimension (whole number).",
    precision="Optional. Number format of all three matrices, default BF16; or bytes per element.",  # noqa: E501
)
def MATMUL_INTENSITY(m, n, k, precision=None):
    """Intensity of an (m×k)·(k×n) product = 2mnk ÷ (bytes × (mk + kn + mn)), FLOP/byte. MATMUL_INTENSITY(4096,4096,4096) = 1365."""  # noqa: E501
    return _MATMUL_INTENSITY(m, n, k, _or(precision, "BF16"))


@excel_function(
    peak_flops=D_PEAK,
    bandwidth=D_BANDWIDTH,
    efficiency="Optional. Share of the datasheet peak reached, >0 to 1 (0.8 is typical). Default 1.",  # noqa: E501
)
def RIDGE(peak_flops, bandwidth, efficiency=None):
    """Ridge point = peak × efficiency ÷ bandwidth, in FLOP/byte. Below it a kernel is memory-bound, above it compute-bound. RIDGE(989,3.35) = 295.2."""  # noqa: E501
    return _RIDGE(peak_flops, bandwidth, _or(efficiency, 1))


@excel_function(
    intensity="Arithmetic intensity in FLOP/byte: a number or text ('0.25 FLOP/B').",
    peak_flops=D_PEAK,
    bandwidth=D_BANDWIDTH,
)
def ATTAINABLE(intensity, peak_flops, bandwidth):
    """Roofline: attainable compute = MIN(peak, bandwidth × intensity), in TFLOPS. ATTAINABLE(0.25,989,3.35) = 0.8375."""  # noqa: E501
    return _ATTAINABLE(intensity, peak_flops, bandwidth)


@excel_function(
    intensity="Arithmetic intensity of the kernel, FLOP/byte.",
    ridge="Ridge point of the chip, FLOP/byte (see RIDGE).",
)
def BOUND(intensity, ridge):
    """"memory-bound" when intensity < ridge, else "compute-bound". BOUND(1,295) = "memory-bound"."""  # noqa: E501
    return _BOUND(intensity, ridge)


@excel_function(
    peak_flops=D_PEAK,
    bandwidth=D_BANDWIDTH,
    weight_precision="Optional. Number format of the weights, default BF16; or bytes per weight.",  # noqa: E501
)
def CRITICAL_BATCH(peak_flops, bandwidth, weight_precision=None):
    """Batch at which a decode GEMM reaches the ridge = ridge × bytes per weight ÷ 2. H100 BF16: CRITICAL_BATCH(989,3.35) = 295; FP8 weights on the BF16 roof: 148."""  # noqa: E501
    return _CRITICAL_BATCH(peak_flops, bandwidth, _or(weight_precision, "BF16"))


@excel_function(
    bytes_per_token_gb="Bytes read per token (weights + KV): bare number in GB, or text.",
    ms_per_token="Measured time per token: bare number in ms, or text ('5 ms').",
    bandwidth=D_BANDWIDTH,
)
def MBU(bytes_per_token_gb, ms_per_token, bandwidth):
    """Memory-bandwidth utilisation from a measurement = (GB per token ÷ time per token) ÷ peak bandwidth. Above 1 means an assumption is wrong."""  # noqa: E501
    return _MBU(bytes_per_token_gb, ms_per_token, bandwidth)


@excel_function(
    flops_per_token="FLOPs per token (about 2 × params): a count or text ('16 GFLOP').",
    tokens_per_sec="Measured tokens per second: a number or text ('2000 tokens/s').",
    peak_flops=D_PEAK,
)
def MFU(flops_per_token, tokens_per_sec, peak_flops):
    """Model FLOPs utilisation from a measurement = FLOPs per token × tokens/s ÷ peak FLOPS. Above 1 means an assumption is wrong."""  # noqa: E501
    return _MFU(flops_per_token, tokens_per_sec, peak_flops)


@excel_function(
    p="Share of the time that gets faster, 0 to 1 (30 % = 0.3).",
    s="Optional. How many times faster that part gets (> 0). Omitted: infinitely faster.",
)
def AMDAHL(p, s=None):
    """Amdahl's law: speedup = 1 ÷ ((1 − p) + p ÷ s); s omitted: 1 ÷ (1 − p). AMDAHL(0.3,3) = 1.25; AMDAHL(0.3) = 1.43."""  # noqa: E501
    return _AMDAHL_INFINITE(p) if s is None else _AMDAHL(p, s)


@excel_function(
    before="Time before: bare number (ms) or text with a unit ('20 ms').",
    after="Time after, in the same unit as before, or text with a unit ('15 ms').",
)
def SPEEDUP(before, after):
    """Speedup = time before ÷ time after (×). SPEEDUP(20,15) = 1.33."""
    return _SPEEDUP(before, after)


@excel_function(
    gpu_hourly_cost="Price of one GPU-hour, in your currency.",
    tokens_per_sec="Tokens/s that all these GPUs produce together while busy.",
    gpus="Optional. Number of GPUs paid for. Default 1.",
    utilization="Optional. Share of paid hours spent producing tokens, >0 to 1. Default 1.",
)
def COST_PER_MTOK(gpu_hourly_cost, tokens_per_sec, gpus=None, utilization=None):
    """Cost per million tokens = hourly cost × gpus ÷ (tokens/s × 3600 × utilization) × 10^6. COST_PER_MTOK(2,1000) = 0.556."""  # noqa: E501
    return _COST_PER_MTOK(gpu_hourly_cost, tokens_per_sec, _or(gpus, 1), _or(utilization, 1))


def _spec(lookup, what):
    def one(name, field):
        for label, v in (("name", name), ("field", field)):
            err = as_excel_error(v)
            if err is not None:
                raise err
            if v is None or (isinstance(v, str) and not v.strip()):
                from .errors import na_error
                raise na_error(f"{label} is empty: expected a {what} {label}")
            if not isinstance(v, str):
                raise value_error(f"{label}: expected text, got {v!r}")
        return lookup(name, field)
    return one


@excel_function(
    name="GPU name from the built-in table: 'H100 SXM', 'h100', 'MI300X', 'B200'...",
    field="memory_GB, memory_bandwidth_TBps, bf16_dense_TFLOPS, fp8_dense_TFLOPS, tdp_W, source_url... (or memory, bandwidth, bf16, fp8).",  # noqa: E501
)
def GPU_SPEC(name, field):
    """A figure from the built-in GPU table (dense TFLOPS, decimal GB and TB/s), with its source. An empty figure is #N/A. GPU_SPEC("H100","bandwidth") = 3.35."""  # noqa: E501
    return guard(lambda: map_elements(_spec(tables.gpu_spec, "GPU"),
                                      [("name", name), ("field", field)]))


@excel_function(
    name="Model name from the built-in table: 'Llama 3.1 70B', 'qwen3 8b', 'DeepSeek-V3'...",
    field="total_params_B, num_layers, num_kv_heads, head_dim, max_context, params (a count), kv_bytes_per_token, attention, source_url...",  # noqa: E501
)
def MODEL_SPEC(name, field):
    """A figure from the built-in model table, or a derived one: params (count), kv_bytes_per_token (BF16; right for GQA and MLA). MODEL_SPEC("Llama 3.1 8B","params") = 8.03E+9."""  # noqa: E501
    return guard(lambda: map_elements(_spec(tables.model_spec, "model"),
                                      [("name", name), ("field", field)]))


# Calibration and cost as finance models it (issue 7) ------------------------------------
D_FLOOR = "The floor for the case, ms per token (from DECODE_FLOOR), or text ('4.79 ms')."
D_MEASURED = "What you measured for the same case, ms per token, or text ('6.2 ms')."
D_HOURLY = "Price of one GPU-hour, in your currency."
D_UTIL = "Optional. Share of paid hours spent producing tokens, >0 to 1. Default 1."


@excel_function(floor_ms=D_FLOOR, measured_ms=D_MEASURED)
def CALIBRATE(floor_ms, measured_ms):
    """Efficiency from a measurement = floor ÷ measured (0.7: real time is 1/0.7 × the floor). Above 1 the measurement beat the floor: an assumption is wrong. CALIBRATE(4.79,6.2) = 0.773."""  # noqa: E501
    return _CALIBRATE(floor_ms, measured_ms)


@excel_function(floor_ms=D_FLOOR,
                efficiency="Efficiency found by CALIBRATE (or assumed), >0 to 1.")
def ESTIMATE(floor_ms, efficiency):
    """Realistic time per token = floor ÷ efficiency, in ms. ESTIMATE(4.79,0.8) = 5.99."""
    return _ESTIMATE(floor_ms, efficiency)


@excel_function(floor_ms=D_FLOOR, measured_ms=D_MEASURED)
def PLAUSIBLE(floor_ms, measured_ms):
    """"plausible" when a measurement is at or above its floor; "below the floor: an assumption is wrong" otherwise (reference doc §2)."""  # noqa: E501
    return _PLAUSIBLE(floor_ms, measured_ms)


@excel_function(
    params=D_PARAMS,
    prompt_tokens="Prompt length in tokens.",
    peak_flops=D_PEAK,
    efficiency="Optional. Share of peak reached, >0 to 1. Default 1 (the floor).",
)
def PREFILL_MS(params, prompt_tokens, peak_flops, efficiency=None):
    """Prefill time at the compute roof = 2 × params × prompt_tokens ÷ (peak × efficiency), in ms. PREFILL_MS("8.03B",2000,989) = 32.5."""  # noqa: E501
    return _PREFILL_MS(params, prompt_tokens, peak_flops, _or(efficiency, 1))


@excel_function(
    gpu_hourly_cost=D_HOURLY,
    params=D_PARAMS,
    peak_flops=D_PEAK,
    efficiency="Optional. Share of peak reached in prefill, >0 to 1. Default 1.",
    utilization=D_UTIL,
)
def INPUT_COST_PER_MTOK(gpu_hourly_cost, params, peak_flops, efficiency=None, utilization=None):
    """Cost per million input (prompt) tokens, prefill on the compute roof = hourly ÷ 3600 × 2 × params ÷ (peak × efficiency) × 10^6 ÷ utilization."""  # noqa: E501
    return _INPUT_COST_PER_MTOK(gpu_hourly_cost, params, peak_flops, _or(efficiency, 1),
                                _or(utilization, 1))


@excel_function(
    input_cost_per_mtok="Cost per million input tokens (INPUT_COST_PER_MTOK or a price).",
    output_cost_per_mtok="Cost per million output tokens (COST_PER_MTOK or a price).",
    input_tokens="Input tokens in the mix (a count or a share, e.g. 3).",
    output_tokens="Output tokens in the mix (same basis as input_tokens, e.g. 1).",
)
def BLENDED_COST_PER_MTOK(input_cost_per_mtok, output_cost_per_mtok, input_tokens,
                          output_tokens):
    """Cost per million tokens of a mix = (in × input cost + out × output cost) ÷ (in + out). BLENDED_COST_PER_MTOK(0.1,2,3,1) = 0.575."""  # noqa: E501
    return _BLENDED_COST_PER_MTOK(input_cost_per_mtok, output_cost_per_mtok, input_tokens,
                                  output_tokens)


@excel_function(
    capex="Purchase price of one GPU (with its share of the server), in your currency.",
    years="Years over which it is written off (amortised).",
    power_w="Power drawn, watts (a GPU's TDP: GPU_SPEC(name,\"tdp_W\")).",
    pue="Power usage effectiveness of the data centre, 1 or more (1.2 to 1.5 is typical).",
    price_per_kwh="Electricity price per kWh, in your currency.",
)
def OWNED_HOURLY_COST(capex, years, power_w, pue, price_per_kwh):
    """Cost of owning one GPU per hour = capex ÷ (years × 8766 h) + power_w ÷ 1000 × pue × price_per_kwh. OWNED_HOURLY_COST(30000,4,700,1.3,0.12) = 0.965."""  # noqa: E501
    return _OWNED_HOURLY_COST(capex, years, power_w, pue, price_per_kwh)


@excel_function(
    tokens_per_day="Tokens to serve per day (average day).",
    tokens_per_sec_per_gpu="Tokens/s one GPU (or replica) produces at your batch.",
    peak_to_average="Optional. Peak traffic ÷ average traffic, 1 or more. Default 1.",
    utilization="Optional. Share of capacity you plan to use at peak, >0 to 1. Default 1.",
)
def GPUS_FOR_DEMAND(tokens_per_day, tokens_per_sec_per_gpu, peak_to_average=None,
                    utilization=None):
    """GPUs to serve a daily volume at its peak = CEILING(tokens_per_day ÷ 86400 × peak_to_average ÷ (tokens/s per GPU × utilization))."""  # noqa: E501
    return _GPUS_FOR_DEMAND(tokens_per_day, tokens_per_sec_per_gpu, _or(peak_to_average, 1),
                            _or(utilization, 1))


@excel_function(
    gpus="Number of GPUs.",
    gpu_hourly_cost=D_HOURLY,
    hours_per_month="Optional. Paid hours per GPU per month. Default 730.5 (8,766 h a year ÷ 12).",
)
def MONTHLY_COST(gpus, gpu_hourly_cost, hours_per_month=None):
    """Monthly cost = gpus × hourly cost × hours per month (default 730.5, a mean month). MONTHLY_COST(8,2.5) = 14610."""  # noqa: E501
    return _MONTHLY_COST(gpus, gpu_hourly_cost, _or(hours_per_month, finance.HOURS_PER_MONTH))


@excel_function(
    monthly_fixed_cost="What self-hosting costs a month whatever the volume (MONTHLY_COST).",
    api_price_per_mtok="The API's price per million tokens.",
    marginal_cost_per_mtok="Optional. Self-hosting cost that grows with volume, per million tokens. Default 0.",  # noqa: E501
)
def BREAKEVEN_MTOK(monthly_fixed_cost, api_price_per_mtok, marginal_cost_per_mtok=None):
    """Millions of tokens a month above which self-hosting beats the API = monthly cost ÷ (API price − marginal cost). BREAKEVEN_MTOK(20000,2.5,0.1) = 8333."""  # noqa: E501
    return _BREAKEVEN_MTOK(monthly_fixed_cost, api_price_per_mtok,
                           _or(marginal_cost_per_mtok, 0))


# Serving: batch, latency, parallelism, speculative decoding, traffic, energy -------------
D_WEIGHTS = "Weight memory, GB (WEIGHT_GB), or text ('16.06 GB'); all GPUs together."
D_KV_SEQ = "KV cache of one sequence at its full context, GB (KV_CACHE_GB), or text."
D_ALPHA = "Chance each draft token is accepted, 0 to 1 (0.8 or '80 %')."
D_GAMMA = "Draft tokens proposed per step (whole number, 0 or more)."
D_POWER = "Power drawn while producing the tokens, W (GPU_SPEC(name,\"tdp_W\")), or '1.2 kW'."
D_TPS_ENERGY = "Tokens/s produced at that power: a number or text ('2000 tokens/s')."


@excel_function(
    capacity_gb=D_CAPACITY,
    weights_gb=D_WEIGHTS,
    kv_gb_per_sequence=D_KV_SEQ,
    reserve_fraction="Optional. Share of capacity held back for activations and runtime, 0 to <1. Default 0.",  # noqa: E501
    gpus="Optional. GPUs the model and its cache are spread over (whole number). Default 1.",
)
def MAX_BATCH(capacity_gb, weights_gb, kv_gb_per_sequence, reserve_fraction=None, gpus=None):
    """Sequences whose KV cache fits beside the weights = FLOOR((gpus × capacity × (1 − reserve) − weights) ÷ KV per sequence); 0 when the weights do not fit. MAX_BATCH(80,16.06,1.0737) = 59."""  # noqa: E501
    return _MAX_BATCH(capacity_gb, weights_gb, kv_gb_per_sequence, _or(reserve_fraction, 0),
                      _or(gpus, 1))


@excel_function(
    target_ms="Time allowed per decode step, ms (1000 ÷ tokens/s per user), or text ('33 ms').",
    weights_gb=D_WEIGHTS,
    kv_gb_per_sequence=D_KV_SEQ,
    bandwidth=D_BANDWIDTH,
    flops_per_token="Optional, with peak_flops. FLOPs per token (about 2 × params). Omitted: memory term only.",  # noqa: E501
    peak_flops="Optional, with flops_per_token. " + D_PEAK,
)
def BATCH_FOR_LATENCY(target_ms, weights_gb, kv_gb_per_sequence, bandwidth, flops_per_token=None,
                      peak_flops=None):
    """Largest batch whose decode step MAX((weights + batch × KV) ÷ bandwidth, batch × flops_per_token ÷ peak) stays within target_ms; 0 when batch 1 misses it. BATCH_FOR_LATENCY(20,16.06,1.0737,3.35) = 47."""  # noqa: E501
    values = (target_ms, weights_gb, kv_gb_per_sequence, bandwidth)
    if flops_per_token is None and peak_flops is None:
        return _BATCH_FOR_LATENCY_MEMORY(*values)
    if flops_per_token is None or peak_flops is None:
        missing = "flops_per_token" if flops_per_token is None else "peak_flops"
        return value_error(f"{missing} is empty: give flops_per_token and peak_flops together, "
                           "or neither")
    return _BATCH_FOR_LATENCY(*values, flops_per_token, peak_flops)


@excel_function(
    hidden="Hidden size of the model (config hidden_size, whole number).",
    batch="Tokens in the step: in decode, the sequences in the batch.",
    tp="Tensor-parallel degree: GPUs sharing each layer (whole number). 1: no communication.",
    link_bandwidth="Per-GPU link bandwidth, one direction: bare number in TB/s, or text ('450 GB/s' for H100 NVLink).",  # noqa: E501
    layers="Optional. Transformer layers (whole number). Default 1: the time per layer.",
    precision="Optional. Number format of the activations, default BF16; or bytes per element.",  # noqa: E501
    allreduces_per_layer="Optional. All-reduces per layer per step (whole number). Default 2 (Megatron).",  # noqa: E501
    latency_us="Optional. Latency of one ring step, µs (bare number) or text ('2 us'). Default 0.",  # noqa: E501
)
def TP_COMM_MS(hidden, batch, tp, link_bandwidth, layers=None, precision=None,
               allreduces_per_layer=None, latency_us=None):
    """Tensor-parallel all-reduce time per decode step, ring α–β model, ms = all-reduces × layers × (2(tp−1) × latency + 2(tp−1)/tp × batch × hidden × bytes ÷ link). 0 when tp = 1."""  # noqa: E501
    return _TP_COMM_MS(hidden, batch, tp, link_bandwidth, _or(layers, 1), _or(precision, "BF16"),
                       _or(allreduces_per_layer, 2), _or(latency_us, 0))


@excel_function(
    stages="Pipeline stages p (GPUs in the pipeline, whole number).",
    microbatches="Micro-batches m in flight per batch (whole number).",
)
def PIPELINE_BUBBLE(stages, microbatches):
    """Share of time pipeline stages sit idle (GPipe) = (stages − 1) ÷ (microbatches + stages − 1). PIPELINE_BUBBLE(4,8) = 0.273."""  # noqa: E501
    return _PIPELINE_BUBBLE(stages, microbatches)


@excel_function(acceptance_rate=D_ALPHA, draft_tokens=D_GAMMA)
def SPEC_TOKENS_PER_STEP(acceptance_rate, draft_tokens):
    """Expected tokens per speculative-decoding step = (1 − α^(γ+1)) ÷ (1 − α); γ + 1 at α = 1 (Leviathan et al. 2023). SPEC_TOKENS_PER_STEP(0.8,4) = 3.36."""  # noqa: E501
    return _SPEC_TOKENS_PER_STEP(acceptance_rate, draft_tokens)


@excel_function(
    acceptance_rate=D_ALPHA,
    draft_tokens=D_GAMMA,
    draft_cost_ratio="Optional. Time of one draft step ÷ one target step, 0 or more. Default 0 (free draft: the bound).",  # noqa: E501
)
def SPEC_DECODE_SPEEDUP(acceptance_rate, draft_tokens, draft_cost_ratio=None):
    """Speculative decoding speedup = SPEC_TOKENS_PER_STEP ÷ (γ × draft_cost_ratio + 1) (Leviathan et al. 2023). SPEC_DECODE_SPEEDUP(0.8,4,0.05) = 2.80."""  # noqa: E501
    return _SPEC_DECODE_SPEEDUP(acceptance_rate, draft_tokens, _or(draft_cost_ratio, 0))


@excel_function(
    requests_per_sec="Arrival rate: bare number in requests/s, or text ('1200 requests/min').",
    seconds_per_request="Time each request is in flight: bare number in s, or text ('11 s').",
)
def CONCURRENCY(requests_per_sec, seconds_per_request):
    """Requests in flight at once, Little's law L = λ × W: the batch the fleet must hold. CONCURRENCY(20,11) = 220."""  # noqa: E501
    return _CONCURRENCY(requests_per_sec, seconds_per_request)


@excel_function(power_w=D_POWER, tokens_per_sec=D_TPS_ENERGY)
def JOULES_PER_TOKEN(power_w, tokens_per_sec):
    """Energy per token = power ÷ tokens/s, in joules (1 W = 1 J/s). JOULES_PER_TOKEN(700,2000) = 0.35."""  # noqa: E501
    return _JOULES_PER_TOKEN(power_w, tokens_per_sec)


@excel_function(
    power_w=D_POWER,
    tokens_per_sec=D_TPS_ENERGY,
    pue="Optional. Power usage effectiveness of the data centre, 1 or more. Default 1.",
)
def ENERGY_PER_MTOK_KWH(power_w, tokens_per_sec, pue=None):
    """Energy per million tokens = power ÷ tokens/s × 10^6 ÷ 3.6 × 10^6 × PUE, in kWh. ENERGY_PER_MTOK_KWH(700,2000,1.3) = 0.126."""  # noqa: E501
    return _ENERGY_PER_MTOK_KWH(power_w, tokens_per_sec, _or(pue, 1))


_EXPLAIN_ARG = "Optional. An argument of that function, in its order (empty: omitted)."


@excel_function(
    function_name="Name of a napkin function, e.g. \"DECODE_FLOOR\".",
    arg1=_EXPLAIN_ARG, arg2=_EXPLAIN_ARG, arg3=_EXPLAIN_ARG, arg4=_EXPLAIN_ARG,
    arg5=_EXPLAIN_ARG, arg6=_EXPLAIN_ARG, arg7=_EXPLAIN_ARG, arg8=_EXPLAIN_ARG,
)
def EXPLAIN(function_name, arg1=None, arg2=None, arg3=None, arg4=None, arg5=None, arg6=None,
            arg7=None, arg8=None):
    """Shows the work: the formula of function_name with your numbers and units substituted, its result and the verdict. EXPLAIN("RIDGE",989,3.35) = "RIDGE: 989 TFLOPS × 1 ÷ 3.35 TB/s = 295.2 FLOP/byte"."""  # noqa: E501
    from . import catalog, explain

    args = [arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8]
    while args and args[-1] is None:  # eight slots (no catalog function takes more)
        args.pop()
    return guard(explain.explain, catalog, function_name, *args)


__all__ = list(CATALOG)
