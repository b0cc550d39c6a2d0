"""EXPLAIN: a catalog function's formula with the numbers substituted (issue 7, §1).

``explain("DECODE_FLOOR", 70e9, "FP8", 3.35)`` gives::

    DECODE_FLOOR: max((70 GB + 0 GB) ÷ 3.35 TB/s, 2 × 70e9 × 1 ÷ peak not given)
    = 20.9 ms (memory-bound)

Each argument is read exactly as the function reads it (same units, same defaults, same
errors), then put into the formula of the topic module's docstring. The result shown is
the function's own result: the text can never disagree with the cell.
"""

from __future__ import annotations

import inspect
import math

from .errors import ExcelError, value_error
from .finance import HOURS_PER_MONTH


def num(x: float) -> str:
    """A number as a person writes it in a formula: 4 significant digits, and counts
    above a million in engineering notation (70e9)."""
    if x == 0:
        return "0"
    if x == int(x) and abs(x) < 1e9:
        return f"{int(x):,}"
    if abs(x) >= 1e6 or abs(x) < 1e-3:
        exp = int(math.floor(math.log10(abs(x)) / 3) * 3)
        mant = f"{x / 10**exp:.4g}"
        return f"{mant}e{exp}"
    return f"{x:.4g}"


def q(x: float, unit: str) -> str:
    return f"{num(x)} {unit}".rstrip()


def _read(catalog, name, arg_values):
    """The function's arguments as its readers take them: {arg name: float or text}."""
    f = catalog.CATALOG[name]
    params = list(inspect.signature(f).parameters.values())
    if len(arg_values) > len(params):
        raise value_error(f"{name} takes at most {len(params)} arguments")
    required = [p.name for p in params if p.default is inspect.Parameter.empty]
    if len(arg_values) < len(required):
        raise value_error(f"{name} needs {', '.join(required)}")
    return {p.name: (arg_values[i] if i < len(arg_values) else None)
            for i, p in enumerate(params)}


def _verdict_bound(mem, math_):
    return "memory-bound" if mem >= math_ else "compute-bound"


def explain(catalog, name, *values) -> str:
    """The worked formula of catalog function ``name`` for ``values`` (Excel values)."""
    key = str(name).strip().upper().lstrip("=").split("(")[0]
    if key not in catalog.CATALOG:
        raise ExcelError("#N/A", f"function_name: no catalog function named {name!r}")
    if any(isinstance(v, list | tuple) for v in values):
        raise value_error("EXPLAIN works on single values, not ranges")
    f = catalog.CATALOG[key]
    a = _read(catalog, key, list(values))
    result = f(*values)
    if isinstance(result, ExcelError):
        return f"{key}: {result}"
    worked = _WORKED.get(key)
    body = worked(catalog, a, result) if worked else f"= {_show(result)}"
    return f"{key}: {body}"


def _show(v):
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return num(v)
    return str(v)


# Readers: each returns the value the function itself reads (default units).
def _r(catalog, formula_name, index, value):
    return getattr(catalog, formula_name).args[index].scalar(value)


def _opt(a, k, default):
    """An omitted optional argument takes the default the function itself uses."""
    return a[k] if a[k] is not None else default


def _unit(u, default):
    return default if u is None else u


def _weight(c, a, r):
    n, b = _r(c, "_WEIGHT_GB", 0, a["params"]), _r(c, "_WEIGHT_GB", 1, a["precision"])
    gb = f"{q(n * b / 1e9, 'GB')}"
    unit = _unit(a["unit"], "GB")
    return f"{num(n)} params × {num(b)} B = {gb}" + ("" if unit == "GB" else f" = {q(r, unit)}")


def _bytes(c, a, r):
    return f"{a['precision']} = {num(r)} bytes per parameter"


def _kv(c, a, r):
    L, H, D, T = (_r(c, "_KV_CACHE_GB", i, a[k]) for i, k in
                  enumerate(["layers", "kv_heads", "head_dim", "tokens"]))
    b = _r(c, "_KV_CACHE_GB", 4, _opt(a, "precision", "BF16"))
    B = _r(c, "_KV_CACHE_GB", 5, _opt(a, "batch", 1))
    per_token = 2 * L * H * D * b
    return (f"2 × {num(L)} layers × {num(H)} kv_heads × {num(D)} head_dim × {num(b)} B "
            f"= {num(per_token)} B per token; × {num(T)} tokens × {num(B)} batch "
            f"= {q(r, _unit(a['unit'], 'GB'))}")


def _fit_args(c, a, formula):
    need = _r(c, formula, 0, a["need_gb"])
    cap = _r(c, formula, 1, a["capacity_gb"])
    res = _r(c, formula, 2, _opt(a, "reserve_fraction", 0))
    return need, cap, res


def _fits(c, a, r):
    need, cap, res = _fit_args(c, a, "_FITS")
    usable = cap * (1 - res)
    return (f"{q(need, 'GB')} ≤ {q(cap, 'GB')} × (1 − {num(res)}) = {q(usable, 'GB')}? "
            f"{_show(r)}")


def _gpus(c, a, r):
    need, cap, res = _fit_args(c, a, "_GPUS_NEEDED")
    usable = cap * (1 - res)
    return (f"⌈{q(need, 'GB')} ÷ {q(usable, 'GB')}⌉ = ⌈{num(need / usable)}⌉ = "
            f"{num(r)} GPU{'' if r == 1 else 's'}")


def _kernel(c, a, r):
    F, Q, P, BW = (_r(c, "_KERNEL_TIME", i, a[k]) for i, k in
                   enumerate(["flops", "bytes", "peak_flops", "bandwidth"]))
    tm, tb = F / (P * 1e12) * 1e3, Q / (BW * 1e12) * 1e3
    unit = _unit(a["unit"], "ms")
    k = r / max(tm, tb) if max(tm, tb) else 1.0  # ms -> the result's unit
    return (f"max({num(F)} FLOP ÷ {q(P, 'TFLOPS')}, {num(Q)} B ÷ {q(BW, 'TB/s')}) "
            f"= max({q(tm * k, unit)}, {q(tb * k, unit)}) = {q(r, unit)} "
            f"({_verdict_bound(tb, tm)})")


def _decode(c, a, r):
    name = "_DECODE_FLOOR" if a["peak_flops"] is not None else "_DECODE_FLOOR_MEMORY"
    n = _r(c, name, 0, a["params"])
    b = _r(c, name, 1, a["precision"])
    bw = _r(c, name, 2, a["bandwidth"])
    batch = _r(c, name, 3, _opt(a, "batch", 1))
    kv = _r(c, name, 4, _opt(a, "kv_gb", 0))
    w = n * b / 1e9
    tmem = (w + kv) / bw
    mem = f"({q(w, 'GB')} + {q(kv, 'GB')} KV) ÷ {q(bw, 'TB/s')}"
    unit = _unit(a["unit"], "ms")
    if a["peak_flops"] is None:
        return (f"{mem} = {q(r, unit)} (memory floor; the math term 2 × params × batch ÷ "
                "peak counts only when peak_flops is given)")
    p = _r(c, name, 5, a["peak_flops"])
    tmath = 2 * n * batch / (p * 1e12) * 1e3
    return (f"max({mem}, 2 × {num(n)} × {num(batch)} ÷ {q(p, 'TFLOPS')}) = "
            f"max({q(tmem, 'ms')}, {q(tmath, 'ms')}) = {q(r, unit)} "
            f"({_verdict_bound(tmem, tmath)})")


def _tps(c, a, r):
    t = _r(c, "_TOKENS_PER_SEC", 0, a["ms_per_token"])
    return f"1000 ÷ {q(t, 'ms')} = {num(r)} tokens/s"


def _mspt(c, a, r):
    t = _r(c, "_MS_PER_TOKEN", 0, a["tokens_per_sec"])
    return f"1000 ÷ {q(t, 'tokens/s')} = {q(r, 'ms')} per token"


def _per_user(c, a, r):
    agg = _r(c, "_PER_USER_TPS", 0, a["aggregate_tps"])
    s = _r(c, "_PER_USER_TPS", 1, a["streams"])
    return f"{q(agg, 'tokens/s')} ÷ {num(s)} streams = {q(r, 'tokens/s')} per stream"


def _intensity(c, a, r):
    F, Q = _r(c, "_INTENSITY", 0, a["flops"]), _r(c, "_INTENSITY", 1, a["bytes"])
    return f"{num(F)} FLOP ÷ {num(Q)} B = {q(r, 'FLOP/byte')}"


def _matmul(c, a, r):
    m, n, k = (_r(c, "_MATMUL_INTENSITY", i, a[x]) for i, x in enumerate("mnk"))
    b = _r(c, "_MATMUL_INTENSITY", 3, _opt(a, "precision", "BF16"))
    return (f"2 × {num(m)} × {num(n)} × {num(k)} ÷ ({num(b)} B × ({num(m)}×{num(k)} + "
            f"{num(k)}×{num(n)} + {num(m)}×{num(n)})) = {q(r, 'FLOP/byte')}")


def _ridge(c, a, r):
    p, bw = _r(c, "_RIDGE", 0, a["peak_flops"]), _r(c, "_RIDGE", 1, a["bandwidth"])
    e = _r(c, "_RIDGE", 2, _opt(a, "efficiency", 1))
    return f"{q(p, 'TFLOPS')} × {num(e)} ÷ {q(bw, 'TB/s')} = {q(r, 'FLOP/byte')}"


def _attainable(c, a, r):
    i = _r(c, "_ATTAINABLE", 0, a["intensity"])
    p, bw = _r(c, "_ATTAINABLE", 1, a["peak_flops"]), _r(c, "_ATTAINABLE", 2, a["bandwidth"])
    return (f"min({q(p, 'TFLOPS')}, {q(bw, 'TB/s')} × {num(i)} FLOP/byte) = "
            f"min({q(p, 'TFLOPS')}, {q(bw * i, 'TFLOPS')}) = {q(r, 'TFLOPS')} "
            f"({'memory-bound' if bw * i < p else 'compute-bound'})")


def _bound(c, a, r):
    i, rd = _r(c, "_BOUND", 0, a["intensity"]), _r(c, "_BOUND", 1, a["ridge"])
    return f"{num(i)} {'<' if i < rd else '≥'} ridge {num(rd)} FLOP/byte: {r}"


def _critical(c, a, r):
    p, bw = _r(c, "_CRITICAL_BATCH", 0, a["peak_flops"]), _r(c, "_CRITICAL_BATCH", 1,
                                                             a["bandwidth"])
    b = _r(c, "_CRITICAL_BATCH", 2, _opt(a, "weight_precision", "BF16"))
    return (f"ridge ({q(p, 'TFLOPS')} ÷ {q(bw, 'TB/s')} = {num(p / bw)}) × {num(b)} B ÷ 2 "
            f"= batch {num(r)}")


_ABOVE_ONE = " (above 1: an assumption is wrong)"


def _mbu(c, a, r):
    g, t, bw = (_r(c, "_MBU", i, a[k]) for i, k in
                enumerate(["bytes_per_token_gb", "ms_per_token", "bandwidth"]))
    return (f"({q(g, 'GB')} ÷ {q(t, 'ms')} = {q(g / t, 'TB/s')}) ÷ {q(bw, 'TB/s')} = "
            f"{num(r)}{_ABOVE_ONE if r > 1 else ''}")


def _mfu(c, a, r):
    f_, t, p = (_r(c, "_MFU", i, a[k]) for i, k in
                enumerate(["flops_per_token", "tokens_per_sec", "peak_flops"]))
    return (f"{num(f_)} FLOP × {q(t, 'tokens/s')} = {q(f_ * t / 1e12, 'TFLOPS')} ÷ "
            f"{q(p, 'TFLOPS')} = {num(r)}{_ABOVE_ONE if r > 1 else ''}")


def _amdahl(c, a, r):
    p = _r(c, "_AMDAHL_INFINITE", 0, a["p"])
    if a["s"] is None:
        return f"1 ÷ (1 − {num(p)}) = {num(r)}× (the part made infinitely fast)"
    s = _r(c, "_AMDAHL", 1, a["s"])
    return f"1 ÷ ((1 − {num(p)}) + {num(p)} ÷ {num(s)}) = {num(r)}×"


def _speedup(c, a, r):
    b, af = _r(c, "_SPEEDUP", 0, a["before"]), _r(c, "_SPEEDUP", 1, a["after"])
    return f"{q(b, 'ms')} ÷ {q(af, 'ms')} = {num(r)}×"


def _cost(c, a, r):
    h = _r(c, "_COST_PER_MTOK", 0, a["gpu_hourly_cost"])
    t = _r(c, "_COST_PER_MTOK", 1, a["tokens_per_sec"])
    g = _r(c, "_COST_PER_MTOK", 2, _opt(a, "gpus", 1))
    u = _r(c, "_COST_PER_MTOK", 3, _opt(a, "utilization", 1))
    return (f"{num(h)} per GPU-hour × {num(g)} GPU{'' if g == 1 else 's'} ÷ "
            f"({q(t, 'tokens/s')} × 3600 s × "
            f"{num(u)}) × 1e6 = {num(r)} per million tokens")


def _convert(c, a, r):
    frm = a["from_unit"] or ""
    return f"{a['value']} {frm} = {num(r)} {a['to_unit']}".replace("  ", " ")


def _time_floor(c, a, r):
    return f"{a['amount']} ÷ {a['rate']} = {q(r, _unit(a['unit'], 's'))}"


def _spec(c, a, r):
    return f"{a['name']} / {a['field']} = {_show(r)} (built-in table, see its source_url)"


def _calibrate(c, a, r):
    f_, m = _r(c, "_CALIBRATE", 0, a["floor_ms"]), _r(c, "_CALIBRATE", 1, a["measured_ms"])
    return (f"floor {q(f_, 'ms')} ÷ measured {q(m, 'ms')} = {num(r)}"
            f"{_ABOVE_ONE if r > 1 else ''}")


def _estimate(c, a, r):
    f_, e = _r(c, "_ESTIMATE", 0, a["floor_ms"]), _r(c, "_ESTIMATE", 1, a["efficiency"])
    return f"floor {q(f_, 'ms')} ÷ efficiency {num(e)} = {q(r, 'ms')}"


def _plausible(c, a, r):
    f_, m = _r(c, "_PLAUSIBLE", 0, a["floor_ms"]), _r(c, "_PLAUSIBLE", 1, a["measured_ms"])
    return f"measured {q(m, 'ms')} {'≥' if m >= f_ else '<'} floor {q(f_, 'ms')}: {r}"


def _prefill(c, a, r):
    n, t, p = (_r(c, "_PREFILL_MS", i, a[k]) for i, k in
               enumerate(["params", "prompt_tokens", "peak_flops"]))
    e = _r(c, "_PREFILL_MS", 3, _opt(a, "efficiency", 1))
    return f"2 × {num(n)} × {num(t)} tokens ÷ ({q(p, 'TFLOPS')} × {num(e)}) = {q(r, 'ms')}"


def _input_cost(c, a, r):
    h, n, p = (_r(c, "_INPUT_COST_PER_MTOK", i, a[k]) for i, k in
               enumerate(["gpu_hourly_cost", "params", "peak_flops"]))
    e = _r(c, "_INPUT_COST_PER_MTOK", 3, _opt(a, "efficiency", 1))
    u = _r(c, "_INPUT_COST_PER_MTOK", 4, _opt(a, "utilization", 1))
    s = 2 * n / (p * 1e12 * e)
    return (f"{num(h)} ÷ 3600 s × (2 × {num(n)} ÷ ({q(p, 'TFLOPS')} × {num(e)}) = "
            f"{num(s)} s per token) × 1e6 ÷ {num(u)} = {num(r)} per million input tokens")


def _blended(c, a, r):
    ci, co, ti, to = (_r(c, "_BLENDED_COST_PER_MTOK", i, a[k]) for i, k in enumerate(
        ["input_cost_per_mtok", "output_cost_per_mtok", "input_tokens", "output_tokens"]))
    return (f"({num(ti)} × {num(ci)} + {num(to)} × {num(co)}) ÷ ({num(ti)} + {num(to)}) = "
            f"{num(r)} per million tokens")


def _owned(c, a, r):
    cap, y, w, pue, kwh = (_r(c, "_OWNED_HOURLY_COST", i, a[k]) for i, k in enumerate(
        ["capex", "years", "power_w", "pue", "price_per_kwh"]))
    amort, energy = cap / (y * 8766), w / 1000 * pue * kwh
    return (f"{num(cap)} ÷ ({num(y)} years × 8766 h) = {num(amort)} + {num(w)} W ÷ 1000 × "
            f"PUE {num(pue)} × {num(kwh)} per kWh = {num(energy)}: {num(r)} per GPU-hour")


def _demand(c, a, r):
    d, g = _r(c, "_GPUS_FOR_DEMAND", 0, a["tokens_per_day"]), _r(
        c, "_GPUS_FOR_DEMAND", 1, a["tokens_per_sec_per_gpu"])
    pk = _r(c, "_GPUS_FOR_DEMAND", 2, _opt(a, "peak_to_average", 1))
    u = _r(c, "_GPUS_FOR_DEMAND", 3, _opt(a, "utilization", 1))
    return (f"⌈{num(d)} tokens ÷ 86400 s × {num(pk)} peak/avg = {q(d / 86400 * pk, 'tokens/s')}"
            f" ÷ ({q(g, 'tokens/s')} × {num(u)})⌉ = {num(r)} GPU{'' if r == 1 else 's'}")


def _monthly(c, a, r):
    g, h = _r(c, "_MONTHLY_COST", 0, a["gpus"]), _r(c, "_MONTHLY_COST", 1, a["gpu_hourly_cost"])
    hours = _r(c, "_MONTHLY_COST", 2, _opt(a, "hours_per_month", HOURS_PER_MONTH))
    return f"{num(g)} GPUs × {num(h)} per hour × {num(hours)} h = {num(r)} per month"


def _breakeven(c, a, r):
    f_, p = _r(c, "_BREAKEVEN_MTOK", 0, a["monthly_fixed_cost"]), _r(
        c, "_BREAKEVEN_MTOK", 1, a["api_price_per_mtok"])
    m = _r(c, "_BREAKEVEN_MTOK", 2, _opt(a, "marginal_cost_per_mtok", 0))
    return (f"{num(f_)} per month ÷ ({num(p)} − {num(m)}) per million tokens = {num(r)} "
            "million tokens a month")


def _s(r):
    return "" if r == 1 else "s"


def _max_batch(c, a, r):
    cap, w, kv = (_r(c, "_MAX_BATCH", i, a[k]) for i, k in
                  enumerate(["capacity_gb", "weights_gb", "kv_gb_per_sequence"]))
    res = _r(c, "_MAX_BATCH", 3, _opt(a, "reserve_fraction", 0))
    g = _r(c, "_MAX_BATCH", 4, _opt(a, "gpus", 1))
    free = g * cap * (1 - res) - w
    head = (f"⌊({num(g)} × {q(cap, 'GB')} × (1 − {num(res)}) − {q(w, 'GB')} weights) ÷ "
            f"{q(kv, 'GB')} per sequence⌋")
    if free < 0:
        return f"{head}: the weights alone do not fit ({q(free, 'GB')} left) = 0 sequences"
    return f"{head} = ⌊{num(free / kv)}⌋ = {num(r)} sequence{_s(r)}"


def _batch_latency(c, a, r):
    compute = a["flops_per_token"] is not None
    name = "_BATCH_FOR_LATENCY" if compute else "_BATCH_FOR_LATENCY_MEMORY"
    t, w, kv, bw = (_r(c, name, i, a[k]) for i, k in
                    enumerate(["target_ms", "weights_gb", "kv_gb_per_sequence", "bandwidth"]))
    mem = (t * bw - w) / kv
    text = (f"memory: ({q(t, 'ms')} × {q(bw, 'TB/s')} − {q(w, 'GB')}) ÷ {q(kv, 'GB')} = "
            f"{num(mem)}")
    if compute:
        f_, p = _r(c, name, 4, a["flops_per_token"]), _r(c, name, 5, a["peak_flops"])
        text += (f"; compute: {q(t, 'ms')} × {q(p, 'TFLOPS')} ÷ {num(f_)} FLOP = "
                 f"{num(t * p * 1e9 / f_)}")
    verdict = " (batch 1 misses the target)" if r == 0 else ""
    return f"{text}; ⌊min⌋ = batch {num(r)}{verdict}"


def _tp_comm(c, a, r):
    d, b, p, bw = (_r(c, "_TP_COMM_MS", i, a[k]) for i, k in
                   enumerate(["hidden", "batch", "tp", "link_bandwidth"]))
    L = _r(c, "_TP_COMM_MS", 4, _opt(a, "layers", 1))
    e = _r(c, "_TP_COMM_MS", 5, _opt(a, "precision", "BF16"))
    n = _r(c, "_TP_COMM_MS", 6, _opt(a, "allreduces_per_layer", 2))
    lat = _r(c, "_TP_COMM_MS", 7, _opt(a, "latency_us", 0))
    if p == 1:
        return f"tp = 1: no all-reduce = {q(r, 'ms')}"
    size = b * d * e
    return (f"{num(n)} all-reduces × {num(L)} layers × (2 × {num(p - 1)} × {q(lat, 'us')} + "
            f"2 × {num(p - 1)}/{num(p)} × ({num(b)} × {num(d)} × {num(e)} B = {num(size)} B) "
            f"÷ {q(bw, 'TB/s')}) = {q(r, 'ms')} per step")


def _bubble(c, a, r):
    p, m = _r(c, "_PIPELINE_BUBBLE", 0, a["stages"]), _r(c, "_PIPELINE_BUBBLE", 1,
                                                         a["microbatches"])
    return f"({num(p)} − 1) ÷ ({num(m)} + {num(p)} − 1) = {num(r)} of the time idle"


def _spec_tokens(c, a, r):
    al, g = _r(c, "_SPEC_TOKENS_PER_STEP", 0, a["acceptance_rate"]), _r(
        c, "_SPEC_TOKENS_PER_STEP", 1, a["draft_tokens"])
    if al == 1:
        return f"α = 1: every draft accepted, γ + 1 = {num(g)} + 1 = {num(r)} tokens per step"
    return f"(1 − {num(al)}^({num(g)} + 1)) ÷ (1 − {num(al)}) = {num(r)} tokens per step"


def _spec_speedup(c, a, r):
    al, g = _r(c, "_SPEC_DECODE_SPEEDUP", 0, a["acceptance_rate"]), _r(
        c, "_SPEC_DECODE_SPEEDUP", 1, a["draft_tokens"])
    k = _r(c, "_SPEC_DECODE_SPEEDUP", 2, _opt(a, "draft_cost_ratio", 0))
    tokens = r * (g * k + 1)
    return (f"{num(tokens)} tokens per step (α {num(al)}, γ {num(g)}) ÷ ({num(g)} × "
            f"{num(k)} + 1) = {num(r)}×" + (" (slower: the draft costs more than it saves)"
                                             if r < 1 else ""))


def _concurrency(c, a, r):
    lam, w = _r(c, "_CONCURRENCY", 0, a["requests_per_sec"]), _r(
        c, "_CONCURRENCY", 1, a["seconds_per_request"])
    return f"{q(lam, 'requests/s')} × {q(w, 's')} = {num(r)} requests in flight"


def _joules(c, a, r):
    pw, t = _r(c, "_JOULES_PER_TOKEN", 0, a["power_w"]), _r(c, "_JOULES_PER_TOKEN", 1,
                                                           a["tokens_per_sec"])
    return f"{q(pw, 'W')} ÷ {q(t, 'tokens/s')} = {q(r, 'J')} per token"


def _energy(c, a, r):
    pw, t = _r(c, "_ENERGY_PER_MTOK_KWH", 0, a["power_w"]), _r(c, "_ENERGY_PER_MTOK_KWH", 1,
                                                              a["tokens_per_sec"])
    pue = _r(c, "_ENERGY_PER_MTOK_KWH", 2, _opt(a, "pue", 1))
    return (f"{q(pw, 'W')} ÷ {q(t, 'tokens/s')} = {q(pw / t, 'J')} per token × 1e6 ÷ "
            f"3.6e6 J/kWh × PUE {num(pue)} = {q(r, 'kWh')} per million tokens")


_WORKED = {
    "MAX_BATCH": _max_batch, "BATCH_FOR_LATENCY": _batch_latency, "TP_COMM_MS": _tp_comm,
    "PIPELINE_BUBBLE": _bubble, "SPEC_TOKENS_PER_STEP": _spec_tokens,
    "SPEC_DECODE_SPEEDUP": _spec_speedup, "CONCURRENCY": _concurrency,
    "JOULES_PER_TOKEN": _joules, "ENERGY_PER_MTOK_KWH": _energy,
    "CALIBRATE": _calibrate, "ESTIMATE": _estimate, "PLAUSIBLE": _plausible,
    "PREFILL_MS": _prefill, "INPUT_COST_PER_MTOK": _input_cost,
    "BLENDED_COST_PER_MTOK": _blended, "OWNED_HOURLY_COST": _owned,
    "GPUS_FOR_DEMAND": _demand, "MONTHLY_COST": _monthly, "BREAKEVEN_MTOK": _breakeven,
    "WEIGHT_GB": _weight, "BYTES_PER_PARAM": _bytes, "KV_CACHE_GB": _kv, "FITS": _fits,
    "GPUS_NEEDED": _gpus, "UNIT_CONVERT": _convert, "TIME_FLOOR": _time_floor,
    "KERNEL_TIME": _kernel, "DECODE_FLOOR": _decode, "TOKENS_PER_SEC": _tps,
    "MS_PER_TOKEN": _mspt, "PER_USER_TPS": _per_user, "INTENSITY": _intensity,
    "MATMUL_INTENSITY": _matmul, "RIDGE": _ridge, "ATTAINABLE": _attainable, "BOUND": _bound,
    "CRITICAL_BATCH": _critical, "MBU": _mbu, "MFU": _mfu, "AMDAHL": _amdahl,
    "SPEEDUP": _speedup, "COST_PER_MTOK": _cost, "GPU_SPEC": _spec, "MODEL_SPEC": _spec,
}
