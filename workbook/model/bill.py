"""What a fleet costs, once, as formula expressions every sheet uses (Cost, Finance,
Finance's range, Plan): the month's bill and the cost per million output tokens, the
bill ÷ the month's output tokens.

The month is the hours the GPUs are rented and serving (SCENARIO_HOURS_PER_MONTH, H):
the bill counts G GPUs × price p × H, the tokens D output tokens a day × H ÷ 24, so the
cost per million output tokens

.. math:: c = \\frac{G \\cdot p \\cdot H}{D \\cdot H / 24} \\cdot 10^6

does not move with H (``udfs.inference.finance.cost_per_mtok`` is the same figure from the
average rate D ÷ 86,400 s). A sheet says "no price" without a price and "no traffic"
without tokens; each function takes expressions or formula text (``workbook.expr.of``).
"""

from __future__ import annotations

from udfs.inference.constants import SECONDS_PER_DAY
from workbook.expr import Expr, F, Name, Text, of
from workbook.model.fleet import HOURS, TOKENS_DAY

NO_PRICE, NO_TRAFFIC = "no price", "no traffic"


def priced(price, e, words: str = NO_PRICE) -> Expr:
    """``e`` where ``price`` is a number, else ``words``."""
    return F.IF(F.ISNUMBER(of(price)), of(e), Text(words))


def average_rate(tokens_day=TOKENS_DAY) -> Expr:
    """The average output rate [tokens/s]: tokens a day ÷ 86,400 s."""
    return of(tokens_day) / SECONDS_PER_DAY


def monthly_bill(gpus, price, hours=HOURS) -> Expr:
    """The month's bill: MONTHLY_COST(GPUs, price per GPU-hour, hours) = G × p × H."""
    return F.MONTHLY_COST(of(gpus), of(price), of(hours))


def month_tokens(tokens_day=TOKENS_DAY, hours=HOURS) -> Expr:
    """The month's output tokens: tokens a day × hours ÷ 24."""
    return of(tokens_day) * of(hours) / 24


def cost_of_bill(bill, tokens_day=TOKENS_DAY, hours=HOURS) -> Expr:
    """The cost per million output tokens of a month's ``bill``: bill ÷ ``month_tokens``
    × 10⁶, "no traffic" without tokens (no price test: a caller's bill is a number)."""
    d = of(tokens_day)
    return F.IF(d.gt(0), of(bill) / month_tokens(d, hours) * 1000000, Text(NO_TRAFFIC))


def bill_cost_per_mtok(gpus, price, tokens_day=TOKENS_DAY, hours=HOURS) -> Expr:
    """The cost per million output tokens of ``gpus`` at ``price``: the month's bill
    (``monthly_bill``) ÷ the month's tokens; "no price", "no traffic" where it has no
    meaning."""
    return priced(price, cost_of_bill(monthly_bill(gpus, price, hours), tokens_day, hours))


def cost_per_mtok(price, gpus, rate=None, traffic=None) -> Expr:
    """The same figure from the average rate: COST_PER_MTOK(price, ``rate`` (default the
    scenario's ``average_rate``), GPUs); "no traffic" where ``traffic`` (default: tokens a
    day > 0) is false, "no price" without a price."""
    rate = average_rate() if rate is None else of(rate)
    traffic = Name(TOKENS_DAY).gt(0) if traffic is None else traffic
    return priced(price, F.IF(traffic, F.COST_PER_MTOK(of(price), rate, of(gpus)),
                              Text(NO_TRAFFIC)))


__all__ = ["NO_PRICE", "NO_TRAFFIC", "priced", "average_rate", "monthly_bill",
           "month_tokens", "cost_of_bill", "bill_cost_per_mtok", "cost_per_mtok"]
