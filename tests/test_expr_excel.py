"""One declaration, both forms: a napkin call said in Excel's own functions
(``workbook.expr_excel.in_excel``, from the declaration's ``native=`` text) computes what
the call computes, in Python in milliseconds; and Plan's search step, which is the
realistic step in that form, is Sizing's realistic step, speculative decoding included
(the hand-written twin it replaced counted the weights' FLOPs for the sequences alone:
with 3 draft tokens at batch 512, where the step is compute-bound, its step was 0.58 to
0.77 of the realistic one, 380 ms against 652 on Plan's first row, so the search found
batches the step could not serve)."""

from __future__ import annotations

import itertools
import math
import re

import pytest
from template_values import template_env

from udfs.catalog import CATALOG
from udfs.machinery.errors import ExcelError
from workbook.expr import Env, F
from workbook.expr_excel import has_form, in_excel
from workbook.plan import PLAN, TP_FIRST
from workbook.plan_cells import COMM_COL, SEARCH_CALLS, realistic, realistic_in_excel, row_cells


def _same(a, b) -> bool:
    if isinstance(a, ExcelError) or isinstance(b, ExcelError):
        return isinstance(a, ExcelError) and isinstance(b, ExcelError) and a.code == b.code
    return math.isclose(a, b, rel_tol=1e-12)


# weights GB, KV GB, TB/s, active params, batch, TFLOPS, attention FLOPs, GPUs, comm ms, stages
STEPS = [(16.06, 8.59, 3.35, 8.03e9, 64, 989, 3.4e10, 1, 0, 1),  # the declaration's example
         (1342.0, 40.0, 8.0, 37e9, 256, 2250, 9e12, 8, 0.4, 2),
         (140.0, 2.0, 4.8, 70e9, 1, 989, 1e9, 8, 0.05, 4),
         (140.0, 2.0, 4.8, 70e9, 16, 989, 1e9, 6, 0.05, 4)]  # 4 stages do not divide 6


@pytest.mark.parametrize("args", STEPS)
@pytest.mark.parametrize("elementwise", [False, True])
def test_decode_step_in_excels_functions_is_the_call(args, elementwise):
    call = F.DECODE_STEP_MS(*args)
    native = in_excel(call, elementwise=elementwise)
    assert "DECODE_STEP_MS" not in native.render()
    if elementwise:  # nothing that reduces an array, nothing unchecked element by element
        assert not re.search(r"\b(MAX|MIN|MOD)\(", native.render())
    want = CATALOG["DECODE_STEP_MS"](*args)
    assert _same(native.evaluate(Env()), want)
    if args[7] % args[9]:
        assert isinstance(want, ExcelError) and want.code == "#NUM!"


@pytest.mark.parametrize("floor, eff, fixed", list(itertools.product([4.79, 20.0], [0.8, 0.31],
                                                                       [0, 1.5])))
def test_estimate_in_excels_functions_is_the_call(floor, eff, fixed):
    native = in_excel(F.ESTIMATE(floor, eff, fixed))
    assert _same(native.evaluate(Env()), CATALOG["ESTIMATE"](floor, eff, fixed))
    # by hand: floor ÷ efficiency + fixed
    assert math.isclose(native.evaluate(Env()), floor / eff + fixed)


def test_kept_calls_stay_and_forms_are_numbers_only():
    e = in_excel(F.ESTIMATE(F.MOE_EXPERTS_READ(256, 8, 64), 0.5), keep={"MOE_EXPERTS_READ"})
    assert e.render() == "MOE_EXPERTS_READ(256,8,64)/0.5+0"
    assert has_form("ESTIMATE") and not has_form("WEIGHT_GB")  # a precision: a table


@pytest.fixture(scope="module")
def plan_env() -> Env:
    """The committed template's values, Plan's cells also without their sheet."""
    return template_env("Plan")


@pytest.mark.parametrize("draft", [0, 3])
def test_plans_search_step_is_the_realistic_step(plan_env, draft):
    """Each row of Plan's table, at batches 1, 7, 64 and 512: the step the search cells compare
    with the target (Excel's functions, all-reduces by their linear form) is the step
    column F shows (napkin's calls), with the scenario's draft tokens 0 and 3 (the
    all-reduces' columns D and COMM_COL computed again for the draft)."""
    names = dict(plan_env.names, SCENARIO_DRAFT_TOKENS=draft)
    cells = dict(plan_env.cells)
    env = Env(names=names, cells=cells)
    for r in range(TP_FIRST, TP_FIRST + 5):
        formulas = row_cells(PLAN, r)
        for col in ("D", COMM_COL):  # the all-reduces of one sequence, at this draft
            cells[f"{col}{r}"] = formulas[col].evaluate(env)
        for batch in (1, 7, 64, 512):
            napkin = realistic(PLAN, r, str(batch)).evaluate(env)
            excel = realistic_in_excel(PLAN, r, str(batch))
            assert not set(re.findall(r"([A-Z_]+)\(", excel.render())) & \
                (set(CATALOG) - SEARCH_CALLS)
            assert isinstance(napkin, float) and napkin > 0, (r, batch, napkin)
            assert _same(excel.evaluate(env), napkin), (r, batch, draft)

