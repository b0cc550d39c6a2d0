"""Excel's VDB (depreciation by declining balance switching to straight line), DB, DDB
and SYD.

formulas' own VDB gives other values than Excel for some arguments
(``addin.engine.support.DIFFERENT`` refused it); this one follows Microsoft's pages for
whole periods, and refuses (``Cannot``) what they leave unsaid: a fractional period or
life, an end beyond the life, a start not before the end.

References
----------
Microsoft Support, "VDB function"; "DDB function" (the declining balance of a period:
``min((cost - prior depreciation) * factor / life, cost - salvage - prior
depreciation)``); "SYD function".
"""

from __future__ import annotations

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import fx

#: the most periods VDB computes (one step each): 1,000 years of days, past any asset's
#: schedule; more is refused rather than looped over
MAX_PERIODS = 366_000


def _whole(x: float, what: str) -> int:
    if x != int(x):
        raise Cannot(f"VDB with a fractional {what}")
    return int(x)


def vdb(cost, salvage, life, start_period, end_period, factor=None, no_switch=None):
    """Excel's ``VDB(cost, salvage, life, start_period, end_period, [factor],
    [no_switch])``: the depreciation from the end of period ``start_period`` to the end
    of ``end_period``, each period's the declining balance (``factor``, 2 when left
    out, over ``life``), or the straight line of what remains over the periods left
    when that is larger and ``no_switch`` is FALSE (the default).

    Parameters
    ----------
    cost, salvage : float
        The asset's cost and its value at the end of its life (currency).
    life : float
        Its life, in periods (whole).
    start_period, end_period : float
        Whole periods, 0 <= start < end <= life.
    factor : float, optional
        The declining balance's rate over the straight line's (2: double declining).
    no_switch : bool, optional
        TRUE: never switch to the straight line.

    Returns
    -------
    float
        The sum of the depreciation of periods start_period+1 to end_period (currency).
    """
    ns = fx.load()
    c = xa.number(cost, "VDB's cost")
    s = xa.number(salvage, "VDB's salvage")
    n = xa.number(life, "VDB's life")
    a = xa.number(start_period, "VDB's start_period")
    b = xa.number(end_period, "VDB's end_period")
    f = 2.0 if factor is None or fx.is_omitted(factor) else xa.number(factor, "VDB's factor")
    switch = no_switch is None or fx.is_omitted(no_switch) or no_switch is ns.EMPTY or \
        not xa.number(no_switch, "VDB's no_switch")
    if c < 0 or s < 0 or n <= 0 or f <= 0 or a < 0 or b < a:
        # (its page: "must be positive numbers", the error value not said; LibreOffice
        # gives #VALUE!)
        raise Cannot("VDB with an argument below 0 or a start after the end")
    n_, a_, b_ = _whole(n, "life"), _whole(a, "start_period"), _whole(b, "end_period")
    if b_ > n_ or a_ == b_ or s > c:
        raise Cannot("VDB with an end beyond the life, no period, or a salvage above the "
                     "cost")
    if b_ > MAX_PERIODS:  # (computed period by period)
        raise Cannot(f"VDB over more than {MAX_PERIODS:,} periods")
    book, total, straight = c, 0.0, None
    for p in range(b_):
        if straight is None:
            dep = min(book * f / n_, max(book - s, 0.0))
            line = (book - s) / (n_ - p)
            if switch and line > dep:
                straight = line
        dep = straight if straight is not None else dep
        if p >= a_:
            total += dep
        book -= dep
    return total


def db(cost, salvage, life, period, month=None):
    """Excel's ``DB(cost, salvage, life, period, [month])``, computed by formulas, where
    Microsoft's page settles the value: cost above 0, salvage from 0 to the cost, a
    whole life of at least 1, a whole period from 1 to the life (one more with a first
    year of ``month`` < 12 months), a whole month from 1 to 12. Elsewhere (cost 0, life
    0...: LibreOffice gives #VALUE!, formulas #NUM!, the page says nothing) ``Cannot``.

    References
    ----------
    Microsoft Support, "DB function": rate = 1 - (salvage/cost)^(1/life) rounded to three
    places; the first period cost * rate * month / 12, then (cost - prior
    depreciation) * rate, the last ((cost - total) * rate * (12 - month)) / 12.
    """
    c = xa.number(cost, "DB's cost")
    s = xa.number(salvage, "DB's salvage")
    n = xa.number(life, "DB's life")
    p = xa.number(period, "DB's period")
    m = 12.0 if month is None or fx.is_omitted(month) else xa.number(month, "DB's month")
    whole = all(x == int(x) for x in (n, p, m))
    if not (whole and c > 0 and 0 <= s <= c and n >= 1 and 1 <= m <= 12
            and 1 <= p <= n + (m < 12)):
        raise Cannot("DB with arguments its page does not settle (a cost of 0, a life or "
                     "period out of range or fractional...)")
    args = [cost, salvage, life, period] + ([] if month is None else [month])
    return xa.ORIGINAL["DB"](*args)



def _no_logical(v, what: str) -> float:
    """A number argument, ``Cannot`` for a logical value (no depreciation page says how
    Excel reads TRUE there)."""
    if isinstance(xa.one_value(v), bool):
        raise Cannot(f"{what} given a logical value (its page does not say Excel's value)")
    return xa.number(v, what)


#: below this share of the cost, a last period's remainder ``cost - salvage - prior`` is
#: refused: its last digits are the rounding of the prior periods' sum (1e-16 of the cost
#: each), 1e-10 of it and more here, past the census's 1e-9 no nearer
CANCELS = 1e-6


def ddb(cost, salvage, life, period, factor=None):
    """Excel's ``DDB(cost, salvage, life, period, [factor])``: period ``period``'s
    depreciation by the declining balance, each period's by Microsoft's formula::

        min((cost - prior) * factor / life, cost - salvage - prior)

    ``prior`` the sum of the periods before it (``factor`` 2 when left out), period by
    period as the page writes it: of DDB(2400,300,3650,2), saved by Excel in
    tests/corpus/sheetjs/formula_stress_test.xlsx (Finance!B57) as 1.3143479076749858,
    this sum gives every digit and formulas' closed form (LibreOffice's, ``cost *
    (1 - factor/life)^(period-1)`` less the next power) 1.3143479076748008.

    Parameters
    ----------
    cost, salvage : float
        The asset's cost (above 0) and its value at the end of its life (0 to the cost),
        currency.
    life : float
        Its life in periods (above 0).
    period : float
        A whole period from 1 to the life.
    factor : float, optional
        The declining balance's rate over the straight line's (above 0; 2 when left out).

    Returns
    -------
    float
        The depreciation of that period (currency). Elsewhere ``Cannot``: the page says
        only "all five arguments must be positive numbers", not the error value nor a
        fractional period's depreciation.

    References
    ----------
    Microsoft Support, "DDB function" (its examples: 2,400, salvage 300, 10 years: the
    first day 1.32, month 40.00, year 480.00, year 2 at factor 1.5 306.00, year 10
    22.12).
    """
    c = _no_logical(cost, "DDB's cost")
    s = _no_logical(salvage, "DDB's salvage")
    n = _no_logical(life, "DDB's life")
    p = _no_logical(period, "DDB's period")
    f = 2.0 if factor is None or fx.is_omitted(factor) else _no_logical(factor, "DDB's factor")
    if not (c > 0 and 0 <= s <= c and n > 0 and f > 0 and p == int(p) and 1 <= p <= n):
        raise Cannot("DDB with arguments its page does not settle (not all positive, a "
                     "salvage above the cost, a period fractional or beyond the life)")
    if p > MAX_PERIODS:  # (computed period by period)
        raise Cannot(f"DDB over more than {MAX_PERIODS:,} periods")
    prior, dep, rest = 0.0, 0.0, False
    for _ in range(int(p)):
        declining, left = (c - prior) * (f / n), c - s - prior
        dep, rest = min(declining, left), left < declining
        prior += dep
    if rest and 0 < abs(dep) < CANCELS * c:  # (0 exactly: the salvage reached before)
        raise Cannot("DDB of the period its salvage is reached, whose remainder cancels to "
                     f"below {CANCELS:g} of the cost (its last digits are the rounding of "
                     "the prior periods' sum; no page says Excel's)")
    return dep


def syd(cost, salvage, life, per):
    """Excel's ``SYD(cost, salvage, life, per)``: period ``per``'s sum-of-years' digits
    depreciation, by Microsoft's formula::

        SYD = ((cost - salvage) * (life - per + 1) * 2) / (life * (life + 1))

    computed for a salvage from 0 to the cost and a whole per from 1 to a whole life;
    elsewhere (the page names no error nor a fractional period) ``Cannot``.

    References
    ----------
    Microsoft Support, "SYD function" (its examples: 30,000, salvage 7,500, 10 years:
    year 1 4,090.91, year 10 409.09; the second saved by Excel in
    tests/corpus/sheetjs/formula_stress_test.xlsx, Finance!B59, as 409.09090909090907).
    """
    c = _no_logical(cost, "SYD's cost")
    s = _no_logical(salvage, "SYD's salvage")
    n = _no_logical(life, "SYD's life")
    p = _no_logical(per, "SYD's per")
    if not (0 <= s <= c and n == int(n) and p == int(p) and 1 <= p <= n):
        raise Cannot("SYD with arguments its page does not settle (a salvage below 0 or "
                     "above the cost, a life or per fractional, a per beyond the life)")
    return ((c - s) * (n - p + 1) * 2) / (n * (n + 1))
