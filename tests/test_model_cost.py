"""The model's GPU, bill and step-on-another-GPU expressions (``workbook.model.gpu``,
``workbook.model.bill``, ``workbook.model.decode``) evaluated in Python, in milliseconds:
by hand, and against the committed template's computed cells (napkin's engine computed
those when the template was built; Python computes the same declarations now)."""

from __future__ import annotations

import math

import pytest
from template_values import template_env

from workbook.cost import COST, COST_FIRST, _row_cells
from workbook.expr import Env, Text
from workbook.model import bill, gpu
from workbook.sizing import SIZING


@pytest.mark.parametrize("needed, stages, gpus", [
    # the tensor-parallel degrees 1, 2, 4, 8, then whole 8-GPU nodes (workbook.model.gpu)
    (1, 1, 1), (2, 1, 2), (3, 1, 4), (5, 1, 8), (9, 1, 16), (17, 1, 24),
    # two stages: each stage deployed at or above half the minimum, CEILING(5 ÷ 2) = 3
    # → 4 a stage, 8 in all; CEILING(10 ÷ 2) = 5 → 8 a stage, 16 in all
    (5, 2, 8), (10, 2, 16),
])
def test_gpus_per_replica_as_deployed(needed, stages, gpus):
    assert gpu.staged(needed, stages).evaluate(Env()) == gpus


def test_roof_used_by_precision():
    """H100 SXM's dense peaks, 989.4 TFLOPS BF16 and 1,978.9 FP8 (NVIDIA H100 datasheet):
    FP8 for weights of one byte, BF16 for two, words without a figure."""
    e = Env()
    fp8, bf16 = Text("FP8"), Text("BF16")  # (text: "FP8" alone would read as a cell)
    assert gpu.roof_used(fp8, 1978.9, 989.4).evaluate(e) == 1978.9
    assert gpu.roof_used(bf16, 1978.9, 989.4).evaluate(e) == 989.4
    # FP8 weights on a GPU without an FP8 peak (A100: 312 TFLOPS BF16 only) take BF16's
    assert gpu.roof_used(fp8, Text("no figure"), 312).evaluate(e) == 312
    assert gpu.roof_used(bf16, Text(""), Text("")).evaluate(e) == gpu.NO_FIGURE


def test_the_bill_per_million_tokens_by_hand():
    """16 GPUs at 2.00 an hour serving a billion output tokens a day: the month's bill
    over the month's tokens is 16 × 2 × 24 ÷ 10⁹ × 10⁶ = 0.768 a million, whatever the
    hours (730 a month here), and COST_PER_MTOK at the average rate says the same."""
    e = Env(names={"SCENARIO_OUTPUT_TOKENS_PER_DAY": 1e9, "SCENARIO_HOURS_PER_MONTH": 730})
    by_bill = bill.bill_cost_per_mtok(16, 2).evaluate(e)
    assert by_bill == pytest.approx(16 * 2 * 24 / 1e9 * 1e6, rel=1e-12)
    assert bill.cost_per_mtok(2, 16).evaluate(e) == pytest.approx(by_bill, rel=1e-12)
    assert bill.monthly_bill(16, 2).evaluate(e) == pytest.approx(16 * 2 * 730, rel=1e-12)
    no_traffic = Env(names={"SCENARIO_OUTPUT_TOKENS_PER_DAY": 0,
                            "SCENARIO_HOURS_PER_MONTH": 730})
    assert bill.bill_cost_per_mtok(16, 2).evaluate(no_traffic) == bill.NO_TRAFFIC


@pytest.fixture(scope="module")
def cost_env() -> Env:
    return template_env("Cost")


def test_costs_step_in_python_is_the_workbooks_and_sizings(cost_env):
    """Cost's row of the scenario's GPU: its step (``workbook.model.decode``, Cost's
    assembly) evaluated in Python is the cell napkin computed, and Sizing's step floor
    (its own rows), the same replica on the same GPU."""
    sz = {k: f"Sizing!{v}" for k, v in SIZING.items()}
    gpu_name = cost_env.names["SCENARIO_GPU"]
    k = cost_env.names["GPU_NAME"].index(gpu_name) + 1
    r = COST_FIRST + k - 1
    step = _row_cells(r, k, COST, sz)["G"][0].evaluate(cost_env)
    assert math.isclose(step, cost_env.cells[f"G{r}"], rel_tol=1e-12)
    assert math.isclose(step, cost_env.names["RESULT_FLOOR_STEP_MS"], rel_tol=1e-12)
