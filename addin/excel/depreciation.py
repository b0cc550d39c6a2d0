"""Excel's VDB, depreciation by declining balance switching to straight line.

formulas' own VDB gives other values than Excel for some arguments
(``addin.engine.support.DIFFERENT`` refused it); this one follows Microsoft's pages for
whole periods, and refuses (``Cannot``) what they leave unsaid: a fractional period or
life, an end beyond the life, a start not before the end.

References
----------
Microsoft Support, "VDB function"; "DDB function" (the declining balance of a period:
``min((cost - prior depreciation) * factor / life, cost - salvage - prior
depreciation)``).
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

