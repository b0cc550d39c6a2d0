"""Excel's annuity functions PMT, FV, PV, IPMT and PPMT, computed as Excel computes them.

Each solves Microsoft's annuity equation (the "PV function" page)::

    pv * (1 + rate)^nper + pmt * (1 + rate * type) * ((1 + rate)^nper - 1) / rate + fv = 0

for one of its terms (``pv + pmt * nper + fv = 0`` when rate is 0). formulas computes it
with numpy-financial, ``(1 + rate)^nper`` by a power and ``(1 + rate)^nper - 1`` by a
subtraction, whose rounding puts its last digits 1e-14 off Excel's; Excel's digits are
those of ``exp(nper * log1p(rate))`` and ``expm1(nper * log1p(rate))``: of the PMT cells
Excel saved in tests/corpus/xlcalculator/PMT.xlsx and five held by the tuning files of
docs/fidelity.md ("A held-out corpus"), this form gives five exactly and the sixth to one
unit in the last place, numpy-financial's none. The difference matters where the payment
is subtracted from a balance until it is 0: a loan's last balance, Excel's -5.6E-11, was
-4.3E-10 (a value 7.6 times Excel's).

Where a page does not settle Excel's value, each refuses (``Cannot``): a rate of -1 or
below ((1 + rate)^nper is 0 or changes sign: LibreOffice #NUM!), a type other than 0 or 1,
PMT with no period, a result beyond the largest number.

References
----------
Microsoft Support, "PV function" (the equation above), "PMT function", "FV function".
"""

from __future__ import annotations

import math

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import fx
from udfs.machinery.errors import ExcelError


def _optional(v, what: str) -> float:
    return 0.0 if v is None or fx.is_omitted(v) else xa.number(v, what)


def _terms(name: str, rate, nper, type_) -> tuple[float, float, float, float, float]:
    """``rate``, ``nper``, ``type``, ``(1 + rate)^nper`` and ``(1 + rate)^nper - 1`` of a
    call of ``name``, or ``Cannot`` where its page does not say Excel's value."""
    r = xa.number(rate, f"{name}'s rate")
    n = xa.number(nper, f"{name}'s nper")
    t = _optional(type_, f"{name}'s type")
    if r <= -1 or t not in (0.0, 1.0):
        raise Cannot(f"{name} with a rate of -1 or below, or a type other than 0 or 1 "
                     "(its page does not say Excel's value)")
    try:
        log = n * math.log1p(r)
        return r, n, t, math.exp(log), math.expm1(log)
    except OverflowError:
        raise Cannot(f"{name} whose (1 + rate)^nper is beyond the largest number") from None


def _finite(name: str, x: float) -> float:
    if not math.isfinite(x):
        raise Cannot(f"{name} whose value is beyond the largest number")
    return x


def pmt(rate, nper, pv, fv=None, type_=None):
    """Excel's ``PMT(rate, nper, pv, [fv], [type])``: the payment each period,
    ``-(pv * (1 + rate)^nper + fv) / ((1 + rate * type) * ((1 + rate)^nper - 1) / rate)``,
    ``-(pv + fv) / nper`` at a rate of 0 (the module's equation solved for pmt).

    References
    ----------
    Microsoft Support, "PMT function"; "PV function" (the annuity equation).
    """
    r, n, t, grown, gain = _terms("PMT", rate, nper, type_)
    p, f = xa.number(pv, "PMT's pv"), _optional(fv, "PMT's fv")
    if n == 0:
        raise Cannot("PMT with no period (its page does not say Excel's value)")
    if r == 0:
        return _finite("PMT", -(p + f) / n)
    return _finite("PMT", -(p * grown + f) / ((1 + r * t) * gain / r))


def fv(rate, nper, pmt, pv=None, type_=None):
    """Excel's ``FV(rate, nper, pmt, [pv], [type])``: the future value,
    ``-(pv * (1 + rate)^nper + pmt * (1 + rate * type) * ((1 + rate)^nper - 1) / rate)``,
    ``-(pv + pmt * nper)`` at a rate of 0.

    References
    ----------
    Microsoft Support, "FV function"; "PV function" (the annuity equation).
    """
    r, n, t, grown, gain = _terms("FV", rate, nper, type_)
    a, p = xa.number(pmt, "FV's pmt"), _optional(pv, "FV's pv")
    if r == 0:
        return _finite("FV", -(p + a * n))
    return _finite("FV", -(p * grown + a * (1 + r * t) * gain / r))


def pv(rate, nper, pmt, fv=None, type_=None):
    """Excel's ``PV(rate, nper, pmt, [fv], [type])``: the present value,
    ``-(fv + pmt * (1 + rate * type) * ((1 + rate)^nper - 1) / rate) / (1 + rate)^nper``,
    ``-(fv + pmt * nper)`` at a rate of 0.

    References
    ----------
    Microsoft Support, "PV function" (the annuity equation).
    """
    r, n, t, grown, gain = _terms("PV", rate, nper, type_)
    a, f = xa.number(pmt, "PV's pmt"), _optional(fv, "PV's fv")
    if r == 0:
        return _finite("PV", -(f + a * n))
    if grown == 0:
        raise Cannot("PV whose (1 + rate)^nper is below the smallest number")
    return _finite("PV", -(f + a * (1 + r * t) * gain / r) / grown)


#: two terms of opposite signs whose sum is below this fraction of the larger cancel:
#: more than 20 of their 53 bits are lost, the sum's last digits depend on how it was
#: computed (the forward and the backward balance differ there by 5E-9 of the value, at a
#: rate of -37%), not settled by any page (the same fraction as NORM.INV's cancelling
#: mean, ``addin.formula.fx_excel_stats``)
NEAR = 2.0 ** -20


def _no_logical(v, what: str) -> float:
    if isinstance(xa.one_value(v), bool):
        raise Cannot(f"{what} given a logical value (its page does not say Excel's value)")
    return xa.number(v, what)


def _split(name: str, rate, per, nper, pv, fv, type_) -> tuple[float, float]:
    """``(interest, principal)`` of period ``per``'s payment, or ``Cannot`` where the page
    does not say Excel's value: a logical value, a per that is not a whole number (the
    pages: "must be in the range 1 to nper", not which error otherwise). A whole per below
    1 or above nper is #NUM! (Microsoft's [MS-OI29500] notes on Office's implementation:
    2.1.1019, PPMT, "if the per argument is less than 1 or greater than the nper argument,
    #NUM! is returned"; 2.1.978, IPMT, #NUM! outside 1 <= per < nper + 1, the same for a
    whole per; the saved cells of IFERROR(-PPMT(...),0) with per 13 to 16 of 12 in a
    tuning pool's solar project-finance model are 0). A non-whole per stays refused: the
    two notes differ between nper and nper + 1, and no page says the value below nper;
    so does a whole per between nper and nper + 1 (an nper not whole).

    With ``v = 1 / (1 + rate)``, ``m = nper - per + 1`` payments left and ``pmt`` the
    payment (``pmt()``), payments at the end of each period (type 0)::

        interest = pmt * (1 - v^m) + rate * fv * v^m
        principal = (pmt - rate * fv) * v^m

    at the start (type 1): the first payment has no interest (no time has passed) and is
    all principal; the balance after a later payment is owed one period less, so::

        interest = pmt * (1 - v^m) + rate * fv * v^(m + 1)
        principal = (pmt - rate * fv * v) * v^m

    (both the rate times the balance before the period, the present value of what is
    still to come; their sum is pmt). A rate of 0 has no interest.
    """
    args = (rate, per, nper, pv, fv, type_)
    whats = ("rate", "per", "nper", "pv", "fv", "type")
    for v, what in zip(args, whats, strict=True):
        if v is not None and not fx.is_omitted(v):
            _no_logical(v, f"{name}'s {what}")
    a = pmt(rate, nper, pv, fv, type_)
    r, n, t, _, _ = _terms(name, rate, nper, type_)
    k = xa.number(per, f"{name}'s per")
    f = _optional(fv, f"{name}'s fv")
    if k == math.floor(k) and (k < 1 or k >= n + 1):
        raise ExcelError("#NUM!", f"{name}'s per {k:g} is not from 1 to nper ({n:g})")
    if k != math.floor(k) or k > n:
        raise Cannot(f"{name} with a per that is not a whole number from 1 to nper (its "
                     "page does not say Excel's value)")
    if r == 0 or (t == 1 and k == 1):
        return 0.0, a
    try:
        log = -(n - k + 1) * math.log1p(r)
        v_m, less = math.exp(log), -math.expm1(log)
    except OverflowError:
        raise Cannot(f"{name} whose (1 + rate)^-nper is beyond the largest number") from None
    later = 1 / (1 + r) if t == 1 else 1.0
    interest = _sum(name, a * less, r * f * v_m * later)
    principal = _sum(name, a, -r * f * later) * v_m
    forward = r * fv_(rate, k - 1, a, pv, type_) * later
    _same_forward(name, interest, forward)
    _same_forward(name, principal, a - forward)
    return _finite(name, interest), _finite(name, principal)


def _same_forward(name: str, backward: float, forward: float) -> None:
    """``Cannot`` where the interest (or the principal, pmt less it) from the balance
    forward from pv (``rate * FV(rate, per - 1, pmt, pv, type)``, divided by 1 + rate for
    type 1: numpy-financial's and LibreOffice's form) is not the backward one to the
    census's 1e-9: the two are equal in exact arithmetic, and one cancels there
    (``IPMT(45000,5,5,45000)``: backward -2.02E9, the exact value; forward, LibreOffice's,
    0; a principal of 1E-12 at a rate of 16,000, LibreOffice 7E-8); which form Excel
    takes at such arguments, no page says."""
    if not math.isclose(backward, forward, rel_tol=1e-9, abs_tol=0.0):
        raise Cannot(f"{name} whose balance forward from pv cancels (its value differs "
                     "with how it is computed; no page says)")


def _sum(name: str, x: float, y: float) -> float:
    if x and y and (x > 0) != (y > 0) and abs(x + y) < NEAR * max(abs(x), abs(y)):
        raise Cannot(f"{name} whose payment and the interest on fv cancel (its last digits "
                     "depend on how it is computed; no page says)")
    return x + y


def ipmt(rate, per, nper, pv, fv=None, type_=None):
    """Excel's ``IPMT(rate, per, nper, pv, [fv], [type])``: the interest in period per's
    payment (``_split``).

    References
    ----------
    Microsoft Support, "IPMT function" (IPMT(10%/12,1,3*12,8000) = ($66.67),
    IPMT(10%,3,3,8000) = ($292.45)); "PV function" (the annuity equation).
    """
    return _split("IPMT", rate, per, nper, pv, fv, type_)[0]


def ppmt(rate, per, nper, pv, fv=None, type_=None):
    """Excel's ``PPMT(rate, per, nper, pv, [fv], [type])``: the principal in period per's
    payment (``_split``).

    References
    ----------
    Microsoft Support, "PPMT function" (PPMT(10%/12,1,2*12,2000) = ($75.62),
    PPMT(8%,10,10,200000) = ($27,598.05)); "PV function" (the annuity equation).
    """
    return _split("PPMT", rate, per, nper, pv, fv, type_)[1]


def rri(nper, pv, fv):
    """Excel's ``RRI(nper, pv, fv)``: the rate of growth each period,
    ``(fv / pv)^(1 / nper) - 1``, for nper, pv and fv above 0; elsewhere ``Cannot`` (the
    page says only that "argument values [that] are not valid" are #NUM!, not which).

    References
    ----------
    Microsoft Support, "RRI function" (the equation; ``RRI(96,10000,11000)`` is
    0.0009933).
    """
    n = xa.number(nper, "RRI's nper")
    p, f = xa.number(pv, "RRI's pv"), xa.number(fv, "RRI's fv")
    if not (n > 0 and p > 0 and f > 0):
        raise Cannot("RRI with an argument of 0 or below (its page does not say which "
                     "values are not valid)")
    try:
        return _finite("RRI", (f / p) ** (1 / n) - 1)
    except OverflowError:
        raise Cannot("RRI whose value is beyond the largest number") from None


fv_ = fv  # FV for IPMT and PPMT, whose own argument fv hides the name


#: the most periods CUMIPMT and CUMPRINC sum (one IPMT or PPMT each): 1,000 years of
#: months; more is refused rather than looped over
MOST_PERIODS = 12_000


def _cumulative(name: str, part: int, rate, nper, pv, start_period, end_period, type_):
    """The sum of ``_split``'s ``part`` (0 interest, 1 principal) over the periods
    ``start_period`` to ``end_period``, with the errors of Microsoft's page: #NUM! for a
    rate, nper or pv of 0 or below, a start or end below 1 or a start after the end, a
    type other than 0 or 1; for CUMPRINC #NUM! for an end beyond nper ([MS-OI29500]
    2.1.918: "Office returns #NUM! if the end_period argument is greater than the nper
    argument"; no note says CUMIPMT's, refused there). Excel
    truncates the periods to whole numbers ([MS-OI29500] 2.1.918; the VBA pages: nper and
    type too), where the worksheet's page says nothing of it: a nper, start, end or type
    that is not a whole number is refused (``Cannot``), as are logical values."""
    got = []
    for v, what in zip((rate, nper, pv, start_period, end_period, type_),
                       ("rate", "nper", "pv", "start_period", "end_period", "type"),
                       strict=True):
        got.append(_no_logical(v, f"{name}'s {what}"))
    r, n, p, a, b, t = got
    if any(x != math.floor(x) for x in (n, a, b, t)):
        raise Cannot(f"{name} with an nper, start_period, end_period or type that is not a "
                     "whole number (Excel truncates them, its page does not say)")
    if b > n and name == "CUMIPMT" and a <= b:  # (no note of CUMIPMT's says)
        raise Cannot("CUMIPMT with an end_period beyond nper (its page does not say Excel's "
                     "value; [MS-OI29500] says #NUM! for CUMPRINC only)")
    if r <= 0 or n <= 0 or p <= 0 or a < 1 or b < 1 or a > b or t not in (0.0, 1.0) or b > n:
        raise ExcelError("#NUM!", f"{name}'s arguments are not a rate, nper and pv above 0, "
                         "periods from 1 to nper in order and a type of 0 or 1")
    if b - a >= MOST_PERIODS:
        raise Cannot(f"{name} over more than {MOST_PERIODS:,} periods")
    return math.fsum(_split(name, r, k, n, p, 0.0, t)[part] for k in range(int(a), int(b) + 1))


def cumipmt(rate, nper, pv, start_period, end_period, type_):
    """Excel's ``CUMIPMT(rate, nper, pv, start_period, end_period, type)``: the interest
    paid from period start_period to end_period, the sum of each period's ``IPMT(rate,
    per, nper, pv, 0, type)`` (``_split``; ``_cumulative`` for the errors and refusals).

    References
    ----------
    Microsoft Support, "CUMIPMT function" (9% a year, 30 years, 125,000: the second
    year's interest, periods 13 to 24, -11,135.23; the first month's -937.50); Excel's
    -11135.232130750841 in tests/corpus/sheetjs/formula_stress_test.xlsx (Finance!B24).
    """
    return _cumulative("CUMIPMT", 0, rate, nper, pv, start_period, end_period, type_)


def cumprinc(rate, nper, pv, start_period, end_period, type_):
    """Excel's ``CUMPRINC(rate, nper, pv, start_period, end_period, type)``: the principal
    paid from period start_period to end_period, the sum of each period's ``PPMT(rate,
    per, nper, pv, 0, type)`` (``_split``; ``_cumulative`` for the errors and refusals).

    References
    ----------
    Microsoft Support, "CUMPRINC function" (9% a year, 30 years, 125,000: periods 13 to 24
    -934.1071234, the first month -68.27827118); Excel's -934.10712342089789 in
    tests/corpus/sheetjs/formula_stress_test.xlsx (Finance!B25).
    """
    return _cumulative("CUMPRINC", 1, rate, nper, pv, start_period, end_period, type_)
