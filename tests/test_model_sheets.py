"""Finance's and Frontier's rows evaluated in Python from their declarations (the
expressions ``workbook.finance``, ``workbook.tornado`` and ``workbook.frontier`` write),
in milliseconds: each is the number napkin's engine computed into the committed template,
and the cost row is checked by hand from the rows above it."""

from __future__ import annotations

import math

import pytest
from openpyxl.utils import get_column_letter
from template_values import template_env

from workbook.finance import FINANCE, _Case, _range_rows
from workbook.frontier import BATCHES, HIDDEN_FIRST, PARAMS, WIDE, _hidden
from workbook.sizing import SIZING
from workbook.tornado import _tornado_cost

SZ = {k: f"Sizing!{v}" for k, v in SIZING.items()}


def _same(a, b) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=1e-12)
    return a == b


@pytest.fixture(scope="module")
def finance() -> object:
    return template_env("Finance")


def test_finances_ranges_in_python_are_the_workbooks(finance):
    """Every cell of the ranges (low cost, base, high cost; rows 21..28)."""
    c = _Case(None, FINANCE, SZ["layer_used"])
    for r, _label, lo, base, hi, _fmt, _how in _range_rows(c):
        for col, e in zip("BCD", (lo, base, hi), strict=True):
            assert _same(e.evaluate(finance), finance.cells[f"{col}{r}"]), (col, r)


def test_the_ranges_cost_by_hand(finance):
    """The high-cost column by hand from the rows above it: replicas for the peak =
    CEILING(peak tokens/s ÷ (tokens/s per replica × utilization)), GPUs = replicas × GPUs
    per replica, the bill = GPUs × price × hours, the cost = the bill ÷ the month's
    output tokens × 10⁶."""
    n, c = finance.names, finance.cells
    tpd, peak, hours = (n["SCENARIO_OUTPUT_TOKENS_PER_DAY"], n["SCENARIO_PEAK_TO_AVERAGE"],
                        n["SCENARIO_HOURS_PER_MONTH"])
    ms, util, price = c[f"D{FINANCE['ms_range']}"], c[f"D{FINANCE['util']}"], \
        c[f"D{FINANCE['price_range']}"]
    per_replica = 1000 / ms * c[FINANCE["batch"]]
    replicas = math.ceil(tpd / 86400 * peak / (per_replica * util))
    gpus = replicas * c[FINANCE["gpus"]]
    assert c[f"D{FINANCE['gpus_range']}"] == gpus
    bill = gpus * price * hours
    assert c[f"D{FINANCE['monthly_range']}"] == pytest.approx(bill, rel=1e-12)
    assert c[f"D{FINANCE['cost_range']}"] == pytest.approx(bill / (tpd * hours / 24) * 1e6,
                                                            rel=1e-12)


def test_the_tornados_costs_in_python_are_the_workbooks(finance):
    """The tornado's first row (efficiency at its low and its high value, the others at
    base) from ``workbook.tornado``'s declaration."""
    F, t0 = FINANCE, FINANCE["tornado_first"]
    e, u, pr = F["eff"], F["util"], F["price_range"]
    for col, eff in (("D", f"D{e}"), ("E", f"B{e}")):
        cost = _tornado_cost(f"C{pr}", eff, f"C{u}", F["step_ms"], F["batch"], F["gpus"],
                             SZ["layer_used"])
        assert _same(cost.evaluate(finance), finance.cells[f"{col}{t0}"]), col


def test_frontiers_curves_in_python_are_the_workbooks():
    """Each GPU's hidden columns at every batch: weights read, floor, realistic step,
    tokens/s per user and per GPU, cost (#N/A past the largest batch: not compared)."""
    env = template_env("Frontier")
    p = {key: 6 + i for i, key in enumerate(PARAMS)}  # the figures' rows (frontier(s, 4))
    first, compared = p["price"] + 3, 0
    for j, col in enumerate("BCD"):
        c = {key: f"${col}${row}" for key, row in p.items()}
        h = [get_column_letter(HIDDEN_FIRST + WIDE * j + k) for k in range(WIDE)]
        for i in range(len(BATCHES)):
            r = first + i
            for cell, e in _hidden(r, c, h, SZ, "SCENARIO_PRECISION").items():
                want = env.cells.get(f"{cell}{r}")
                if isinstance(want, int | float):
                    assert _same(e.evaluate(env), want), (col, cell, r)
                    compared += 1
    # a guard that the curves were compared, not skipped: the default scenario's largest
    # batches are 118, 93 and 145 (row 12), so batches 1 .. 64 of each curve are numbers
    assert compared >= 7 * 6 * 3, compared
