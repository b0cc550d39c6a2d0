"""The native form of each catalog function: the same formula in Excel's own functions.

``napkin native`` (:mod:`addin.native`) turns each call of a napkin function into an
equivalent formula of the Excel 2010 function set, so that a workbook keeps recalculating
in Excel without the add-in, in LibreOffice or in Google Sheets. This module declares,
per function, its parameters (read as the catalog reads them: the same :class:`Arg`, with
its default unit and domain) and the formula over their values. :mod:`addin.native`
checks the arguments in order first, as the catalog does, so that a bad argument gives
the same error value:

==========  ============================================================================
``#VALUE!``  an empty cell for a required argument, TRUE/FALSE or text where a number is
             expected, an unknown result unit
``#NUM!``    a number outside the argument's domain (the same bounds as the catalog's)
``#N/A``     an unknown precision, GPU, model or field; an empty figure in a table
==========  ============================================================================

Where the native formula cannot give the catalog's answer, it says so in ``limits``:
text with units in a cell (napkin reads ``'80 GB'``; a spreadsheet cannot), names only as
the tables spell them, and the few places where an error code differs.

Each form's ``build`` receives the Excel text of each parameter's value (a number, a cell
reference or a parenthesised expression, always safe to embed in an expression) and
returns the formula. ``None`` stands for an optional argument that is left out when the
catalog's formula changes without it (DECODE_FLOOR without a peak, AMDAHL without s).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from udfs import catalog as C
from udfs import finance
from udfs.args import (
    NONNEGATIVE,
    POSITIVE,
    Arg,
    Domain,
)
from udfs.broadcast import BOOL, NUMBER, TEXT

REQUIRED = object()  # no default: an omitted argument is #VALUE!, as in the catalog
ABSENT = object()  # optional, and the formula differs without it (build gets None)


@dataclass(frozen=True)
class Param:
    """One argument of a catalog function as the native formula reads it.

    ``kind``: ``number`` (read with ``arg``: default unit, domain, whole), ``precision``
    (a name from the precisions table or bytes per element), ``unit`` (the unit of the
    result, ``unit_of`` its default), ``name`` (a row of the GPU or model table,
    ``table``) or ``field`` (a column of that table; constant text only).
    """

    name: str
    kind: str = "number"
    arg: Arg | None = None
    default: object = REQUIRED
    unit_of: str = ""
    table: str = ""


@dataclass(frozen=True)
class Native:
    """A function's native form: its parameters and the formula over their values."""

    params: tuple[Param, ...]
    build: Callable[..., str]
    result: str = NUMBER
    #: what the result is known to lie in (lets a caller skip re-checking it)
    domain: Domain | None = None
    #: where the native formula cannot match the function, in words
    limits: str = ""


def num(name: str, arg: Arg, default=REQUIRED) -> Param:
    return Param(name, "number", arg, default)


def prec(name: str = "precision", default=REQUIRED) -> Param:
    return Param(name, "precision", C.PRECISION, default)


def unit(default_unit: str) -> Param:
    return Param("unit", "unit", None, None, unit_of=default_unit)


def ceiling_of_rounded(q: str) -> str:
    """CEILING of ``q`` rounded to 12 significant digits first (the catalog's round_sig:
    float noise such as 2.0000000000000004 does not add a GPU); ``q`` > 0."""
    return f"CEILING(ROUND({q},11-INT(LOG10({q}))),1)"


def whole(x: str) -> str:
    """A count of sequences: ⌊x⌋ after rounding to 12 significant digits, never below 0
    (the catalog's rule for batches)."""
    return f"IF({x}>0,INT(ROUND({x},11-INT(LOG10({x})))),0)"


def _batch_for_latency(t, w, kv, bw, f, p):
    memory = f"({t}*{bw}-{w})/{kv}"
    if f is None and p is None:
        return whole(memory)
    if f is None or p is None:  # the catalog refuses before it reads anything else
        return "#VALUE!"
    return whole(f"MIN({memory},{t}*{p}*1E9/{f})")


# The forms, in catalog order ------------------------------------------------------------
UNITS_IN_CELLS = ("A cell holding text with units ('80 GB') cannot feed the native "
                  "formula; such calls stay values.")

FORMS: dict[str, Native] = {
    "WEIGHT_GB": Native(
        (num("params", C.PARAMS), prec(), unit("GB")),
        lambda n, b: f"{n}*{b}/1E9", domain=POSITIVE),
    "BYTES_PER_PARAM": Native((prec(),), lambda b: b, domain=POSITIVE),
    "KV_CACHE_GB": Native(
        (num("layers", C._KV_CACHE_GB.args[0]), num("kv_heads", C._KV_CACHE_GB.args[1]),
         num("head_dim", C._KV_CACHE_GB.args[2]), num("tokens", C._KV_CACHE_GB.args[3]),
         prec(default=2.0), num("batch", C.BATCH, 1.0), unit("GB")),
        lambda la, h, d, t, b, n: f"2*{la}*{h}*{d}*{b}*{t}*{n}/1E9", domain=NONNEGATIVE),
    "FITS": Native(
        (num("need_gb", C.MEMORY_NEED), num("capacity_gb", C.CAPACITY),
         num("reserve_fraction", C.RESERVE_FRACTION, 0.0)),
        lambda need, cap, r: f"ROUND({need}/({cap}*(1-{r})),11)<=1", result=BOOL,
        limits="TRUE when need ÷ usable capacity, rounded to 12 significant digits, is at "
               "most 1 (the catalog's rule)."),
    "GPUS_NEEDED": Native(
        (num("need_gb", C.MEMORY_NEED), num("capacity_gb", C.CAPACITY),
         num("reserve_fraction", C.RESERVE_FRACTION, 0.0)),
        lambda need, cap, r: (f"IF({need}>0,MAX({ceiling_of_rounded(f'{need}/({cap}*(1-{r}))')}"
                              f",1),0)"),
        domain=NONNEGATIVE),
    "KERNEL_TIME": Native(
        (num("flops", C._KERNEL_TIME.args[0]), num("bytes", C._KERNEL_TIME.args[1]),
         num("peak_flops", C.PEAK), num("bandwidth", C.BANDWIDTH), unit("ms")),
        lambda f, q, p, bw: f"MAX({f}/({p}*1E12),{q}/({bw}*1E12))*1000", domain=NONNEGATIVE),
    "DECODE_FLOOR": Native(
        (num("params", C.PARAMS), prec(), num("bandwidth", C.BANDWIDTH),
         num("batch", C.BATCH, 1.0), num("peak_flops", C.PEAK, ABSENT),
         num("kv_gb", C._DECODE_ARGS[4], 0.0), unit("ms")),
        lambda n, b, bw, batch, peak, kv: (
            f"({n}*{b}/1E9+{kv})/{bw}" if peak is None else
            f"MAX(({n}*{b}/1E9+{kv})/{bw},2*{n}*{batch}/({peak}*1E12)*1000)"),
        domain=POSITIVE),
    "TOKENS_PER_SEC": Native((num("ms_per_token", C.MS_TOKEN),), lambda t: f"1000/{t}",
                             domain=POSITIVE),
    "MS_PER_TOKEN": Native((num("tokens_per_sec", C.TPS),), lambda r: f"1000/{r}",
                           domain=POSITIVE),
    "PER_USER_TPS": Native(
        (num("aggregate_tps", C._PER_USER_TPS.args[0]), num("streams", C._PER_USER_TPS.args[1])),
        lambda a, s: f"{a}/{s}", domain=NONNEGATIVE),
    "INTENSITY": Native(
        (num("flops", C._INTENSITY.args[0]), num("bytes", C._INTENSITY.args[1])),
        lambda f, q: f"{f}/{q}", domain=NONNEGATIVE),
    "MATMUL_INTENSITY": Native(
        (num("m", C._MATMUL_INTENSITY.args[0]), num("n", C._MATMUL_INTENSITY.args[1]),
         num("k", C._MATMUL_INTENSITY.args[2]), prec(default=2.0)),
        lambda m, n, k, b: f"2*{m}*{n}*{k}/({b}*({m}*{k}+{k}*{n}+{m}*{n}))", domain=POSITIVE),
    "RIDGE": Native(
        (num("peak_flops", C.PEAK), num("bandwidth", C.BANDWIDTH),
         num("efficiency", C._RIDGE.args[2], 1.0)),
        lambda p, bw, e: f"{p}*{e}/{bw}", domain=POSITIVE),
    "ATTAINABLE": Native(
        (num("intensity", C._ATTAINABLE.args[0]), num("peak_flops", C.PEAK),
         num("bandwidth", C.BANDWIDTH)),
        lambda i, p, bw: f"MIN({p},{bw}*{i})", domain=NONNEGATIVE),
    "BOUND": Native(
        (num("intensity", C._BOUND.args[0]), num("ridge", C._BOUND.args[1])),
        lambda i, r: f'IF({i}<{r},"memory-bound","compute-bound")', result=TEXT),
    "CRITICAL_BATCH": Native(
        (num("peak_flops", C.PEAK), num("bandwidth", C.BANDWIDTH),
         prec("weight_precision", 2.0)),
        lambda p, bw, b: f"{p}/{bw}*{b}/2", domain=POSITIVE),
    "MBU": Native(
        (num("bytes_per_token_gb", C._MBU.args[0]), num("ms_per_token", C.MS_TOKEN),
         num("bandwidth", C.BANDWIDTH)),
        lambda q, t, bw: f"{q}/{t}/{bw}", domain=POSITIVE),
    "MFU": Native(
        (num("flops_per_token", C._MFU.args[0]), num("tokens_per_sec", C.TPS),
         num("peak_flops", C.PEAK)),
        lambda f, r, p: f"{f}*{r}/({p}*1E12)", domain=POSITIVE),
    "AMDAHL": Native(
        (num("p", C._AMDAHL.args[0]), num("s", C._AMDAHL.args[1], ABSENT)),
        lambda p, s: (f"IF({p}=1,#NUM!,1/(1-{p}))" if s is None
                      else f"1/((1-{p})+{p}/{s})"),
        domain=POSITIVE,
        limits="p = 1 with s omitted has no bound: #NUM!, as the function."),
    "SPEEDUP": Native(
        (num("before", C._SPEEDUP.args[0]), num("after", C._SPEEDUP.args[1])),
        lambda b, a: f"{b}/{a}", domain=POSITIVE),
    "COST_PER_MTOK": Native(
        (num("gpu_hourly_cost", C.HOURLY), num("tokens_per_sec", C.TPS),
         num("gpus", C._COST_PER_MTOK.args[2], 1.0),
         num("utilization", C.UTILIZATION, 1.0)),
        lambda c, r, g, u: f"{c}*{g}/({r}*3600*{u})*1000000", domain=NONNEGATIVE),
    "GPU_SPEC": Native(
        (Param("name", "name", table="gpus"), Param("field", "field", table="gpus")),
        lambda row: row,
        limits="Names as the GPU table or its aliases spell them, in any letter case (and "
               "the spellings the workbook held when it was translated); napkin's partial "
               "names ('h100 sx') are not matched. The field must be constant text. A "
               "number as the name gives #N/A (the function: #VALUE!)."),
    "MODEL_SPEC": Native(
        (Param("name", "name", table="models"), Param("field", "field", table="models")),
        lambda row: row,
        limits="Names as the model table or its aliases spell them, in any letter case "
               "(and the spellings the workbook held when it was translated); partial "
               "names are not matched. The field must be constant text. A number as the "
               "name gives #N/A (the function: #VALUE!)."),
    "CALIBRATE": Native((num("floor_ms", C.FLOOR_MS), num("measured_ms", C.MEASURED_MS)),
                        lambda f, m: f"{f}/{m}", domain=POSITIVE),
    "ESTIMATE": Native((num("floor_ms", C.FLOOR_MS), num("efficiency", C.EFFICIENCY)),
                       lambda f, e: f"{f}/{e}", domain=POSITIVE),
    "PLAUSIBLE": Native(
        (num("floor_ms", C.FLOOR_MS), num("measured_ms", C.MEASURED_MS)),
        lambda f, m: f'IF({m}>={f},"plausible","below the floor: an assumption is wrong")',
        result=TEXT),
    "PREFILL_MS": Native(
        (num("params", C.PARAMS), num("prompt_tokens", C._PREFILL_MS.args[1]),
         num("peak_flops", C.PEAK), num("efficiency", C.EFFICIENCY, 1.0)),
        lambda n, t, p, e: f"2*{n}*{t}/({p}*1E12*{e})*1000", domain=NONNEGATIVE),
    "INPUT_COST_PER_MTOK": Native(
        (num("gpu_hourly_cost", C.HOURLY), num("params", C.PARAMS), num("peak_flops", C.PEAK),
         num("efficiency", C.EFFICIENCY, 1.0), num("utilization", C.UTILIZATION, 1.0)),
        lambda c, n, p, e, u: f"{c}/3600*(2*{n}/({p}*1E12*{e}))*1000000/{u}",
        domain=NONNEGATIVE),
    "BLENDED_COST_PER_MTOK": Native(
        tuple(num(a.name, a) for a in C._BLENDED_COST_PER_MTOK.args),
        lambda ci, co, ti, to: (f"IF({ti}+{to}=0,#NUM!,({ti}*{ci}+{to}*{co})/({ti}+{to}))"),
        domain=NONNEGATIVE),
    "OWNED_HOURLY_COST": Native(
        tuple(num(a.name, a) for a in C._OWNED_HOURLY_COST.args),
        lambda c, y, w, pue, kwh: f"{c}/({y}*{_num(finance.HOURS_PER_YEAR)})+{w}/1000*{pue}*{kwh}",
        domain=NONNEGATIVE),
    "GPUS_FOR_DEMAND": Native(
        (num("tokens_per_day", C._GPUS_FOR_DEMAND.args[0]),
         num("tokens_per_sec_per_gpu", C._GPUS_FOR_DEMAND.args[1]),
         num("peak_to_average", C._GPUS_FOR_DEMAND.args[2], 1.0),
         num("utilization", C.UTILIZATION, 1.0)),
        lambda d, r, pa, u: (
            f"IF({d}>0,MAX({ceiling_of_rounded(f'{d}/86400*{pa}/({r}*{u})')},1),0)"),
        domain=NONNEGATIVE),
    "MONTHLY_COST": Native(
        (num("gpus", C._MONTHLY_COST.args[0]), num("gpu_hourly_cost", C.HOURLY),
         num("hours_per_month", C._MONTHLY_COST.args[2], finance.HOURS_PER_MONTH)),
        lambda g, c, h: f"{g}*{c}*{h}", domain=NONNEGATIVE),
    "BREAKEVEN_MTOK": Native(
        (num("monthly_fixed_cost", C._BREAKEVEN_MTOK.args[0]),
         num("api_price_per_mtok", C._BREAKEVEN_MTOK.args[1]),
         num("marginal_cost_per_mtok", C._BREAKEVEN_MTOK.args[2], 0.0)),
        lambda f, p, m: f"IF({p}-{m}>0,{f}/({p}-{m}),#NUM!)", domain=NONNEGATIVE,
        limits="An API price not above the marginal cost never breaks even: #NUM!."),
    "MAX_BATCH": Native(
        (num("capacity_gb", C.CAPACITY), num("weights_gb", C.WEIGHTS_GB),
         num("kv_gb_per_sequence", C.KV_PER_SEQUENCE),
         num("reserve_fraction", C.RESERVE_FRACTION, 0.0),
         num("gpus", C._MAX_BATCH.args[4], 1.0)),
        lambda c, w, kv, r, g: whole(f"({g}*{c}*(1-{r})-{w})/{kv}"), domain=NONNEGATIVE),
    "BATCH_FOR_LATENCY": Native(
        (num("target_ms", C._LATENCY_ARGS[0]), num("weights_gb", C.WEIGHTS_GB),
         num("kv_gb_per_sequence", C.KV_PER_SEQUENCE), num("bandwidth", C.BANDWIDTH),
         num("flops_per_token", C.FLOPS_PER_TOKEN, ABSENT),
         num("peak_flops", C.PEAK, ABSENT)),
        _batch_for_latency, domain=NONNEGATIVE,
        limits="flops_per_token and peak_flops go together: one without the other is "
               "#VALUE!, as the function."),
    "TP_COMM_MS": Native(
        (num("hidden", C._TP_COMM_MS.args[0]), num("batch", C._TP_COMM_MS.args[1]),
         num("tp", C._TP_COMM_MS.args[2]), num("link_bandwidth", C._TP_COMM_MS.args[3]),
         num("layers", C._TP_COMM_MS.args[4], 1.0), prec(default=2.0),
         num("allreduces_per_layer", C._TP_COMM_MS.args[6], 2.0),
         num("latency_us", C._TP_COMM_MS.args[7], 0.0)),
        lambda d, b, tp, bw, la, e, n, lat: (
            f"{n}*{la}*(2*({tp}-1)*{lat}*0.001+2*({tp}-1)/{tp}*{b}*{d}*{e}/({bw}*1E9))"),
        domain=NONNEGATIVE),
    "PIPELINE_BUBBLE": Native(
        (num("stages", C._PIPELINE_BUBBLE.args[0]),
         num("microbatches", C._PIPELINE_BUBBLE.args[1])),
        lambda p, m: f"({p}-1)/({m}+{p}-1)", domain=NONNEGATIVE),
    "SPEC_TOKENS_PER_STEP": Native(
        (num("acceptance_rate", C.ACCEPTANCE), num("draft_tokens", C.DRAFT_TOKENS)),
        lambda a, g: f"IF({a}<1,(1-{a}^({g}+1))/(1-{a}),{g}+1)", domain=POSITIVE),
    "SPEC_DECODE_SPEEDUP": Native(
        (num("acceptance_rate", C.ACCEPTANCE), num("draft_tokens", C.DRAFT_TOKENS),
         num("draft_cost_ratio", C._SPEC_DECODE_SPEEDUP.args[2], 0.0)),
        lambda a, g, c: f"IF({a}<1,(1-{a}^({g}+1))/(1-{a}),{g}+1)/({g}*{c}+1)",
        domain=POSITIVE),
    "CONCURRENCY": Native(
        (num("requests_per_sec", C._CONCURRENCY.args[0]),
         num("seconds_per_request", C._CONCURRENCY.args[1])),
        lambda r, s: f"{r}*{s}", domain=NONNEGATIVE),
    "JOULES_PER_TOKEN": Native((num("power_w", C.POWER), num("tokens_per_sec", C.TPS)),
                               lambda w, r: f"{w}/{r}", domain=NONNEGATIVE),
    "ENERGY_PER_MTOK_KWH": Native(
        (num("power_w", C.POWER), num("tokens_per_sec", C.TPS),
         num("pue", C._ENERGY_PER_MTOK_KWH.args[2], 1.0)),
        lambda w, r, pue: f"{w}/{r}*1000000/3600000*{pue}", domain=NONNEGATIVE),
}

#: Functions with a translation of their own in :mod:`addin.native` (the arguments decide
#: whether a formula can say it), and why the rest cannot.
SPECIAL = {
    "UNIT_CONVERT": "translated when from_unit and to_unit are constant text (the factor "
                    "is computed at translation); units from cells stay values",
    "TIME_FLOOR": "translated when amount and rate are plain numbers (seconds), or both "
                  "constants; text with units from cells stays a value",
}
NOT_TRANSLATABLE = {
    "EXPLAIN": "its result is napkin's own text (the formula with the numbers and units "
               "substituted); no spreadsheet formula writes it",
}


def doc_table() -> str:
    """The per-function table of ``docs/native.md`` (a test keeps the file in step)."""
    from udfs import CATALOG

    rows = ["| Function | Native form | Notes (beyond the rules above) |", "|---|---|---|"]
    for name in CATALOG:
        if name in FORMS:
            form = FORMS[name]
            how = {"precision": "look-up", "name": "INDEX/MATCH"}
            kinds = {how[p.kind] for p in form.params if p.kind in how}
            if any(p.kind == "unit" for p in form.params):
                kinds.add("result unit")
            what = "formula" + (f" with {', '.join(sorted(kinds))}" if kinds else "")
            rows.append(f"| `{name}` | {what} | {form.limits or '—'} |")
        elif name in SPECIAL:
            rows.append(f"| `{name}` | when the arguments allow | {SPECIAL[name]} |")
        else:
            rows.append(f"| `{name}` | none: becomes its value | {NOT_TRANSLATABLE[name]} |")
    return "\n".join(rows) + "\n"


def _num(x: float) -> str:
    """A number as formula text (shortest round trip; Excel reads 1E-05 and 8030000000)."""
    x = float(x)
    if x == int(x) and abs(x) < 1e15:
        s = str(int(x))
    else:
        s = repr(x).upper()
    return f"({s})" if s.startswith("-") else s


for _name, _form in FORMS.items():  # every value-taking parameter is declared
    _declared = [p for p in _form.params if p.kind in ("number", "precision")]
    assert all(p.arg is not None for p in _declared), _name
del _name, _form, _declared

__all__ = ["FORMS", "SPECIAL", "NOT_TRANSLATABLE", "Native", "Param", "REQUIRED", "ABSENT"]
