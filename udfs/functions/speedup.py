"""Excel functions of ``udfs.inference.speedup``: Amdahl's law and before ÷ after."""

from __future__ import annotations

from ..inference import speedup
from ..machinery.args import FRACTION, POSITIVE, Arg
from ..machinery.declare import OMIT, declare, param
from ..machinery.explain import num, q


def _amdahl(w):
    if w.s is None:
        return f"1 ÷ (1 − {num(w.p)}) = {num(w.result)}× (the part made infinitely fast)"
    return f"1 ÷ ((1 − {num(w.p)}) + {num(w.p)} ÷ {num(w.s)}) = {num(w.result)}×"


declare(
    "AMDAHL",
    "Amdahl's law: speedup = 1 ÷ ((1 − p) + p ÷ s); s omitted: 1 ÷ (1 − p). AMDAHL(0.3,3) = 1.25; AMDAHL(0.3) = 1.43.",  # noqa: E501
    param(Arg("p", "dimensionless", FRACTION),
          "Share of the time that gets faster, 0 to 1 (30 % = 0.3)."),
    param(Arg("s", "dimensionless", POSITIVE),
          "Optional. How many times faster that part gets (> 0). Omitted: infinitely faster.",
          default=OMIT),
    formula=speedup.amdahl,
    # only reachable with s omitted: with s > 0 the denominator is never 0
    nonfinite="p = 1 with s omitted: the speedup has no bound",
    explain=_amdahl,
    example=("=AMDAHL(0.3,3)", "1.25"),
    native={
        ():
            '1/((1-{p})+{p}/{s})',
        ('s',):
            'IF({p}=1,#NUM!,1/(1-{p}))',
    },
    native_result="positive",
    native_note="p = 1 with s omitted has no bound: #NUM!, as the function.",
)

declare(
    "SPEEDUP",
    "Speedup = time before ÷ time after (×). SPEEDUP(20,15) = 1.33.",
    param(Arg("before", "ms", POSITIVE),
          "Time before: bare number (ms) or text with a unit ('20 ms')."),
    param(Arg("after", "ms", POSITIVE),
          "Time after, in the same unit as before, or text with a unit ('15 ms')."),
    formula=speedup.speedup,
    explain=lambda w: f"{q(w.before, 'ms')} ÷ {q(w.after, 'ms')} = {num(w.result)}×",
    example=("=SPEEDUP(20,15)", "1.3333"),
    native='{before}/{after}',
    native_result="positive",
)
