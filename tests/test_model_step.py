"""The model's arithmetic tested on its expressions, in milliseconds: the decode step as
Sizing declares it (``workbook.sizing.floor_per_token`` over ``workbook.model.step``),
evaluated in Python with the inputs the committed template holds, is the number the
workbook computed; and the terms of the step checked by hand from datasheets and configs.
"""

from __future__ import annotations

import math

import openpyxl
import pytest
from template_values import TEMPLATE, template_env

from workbook.expr import Env, Text
from workbook.expr_parse import parse
from workbook.model import step
from workbook.sizing import SIZING, floor_per_token


@pytest.fixture(scope="module")
def env() -> Env:
    """The committed template's values, Sizing's cells also without their sheet (as
    Sizing's formulas write them)."""
    return template_env("Sizing")


def test_sizings_step_in_python_is_the_workbooks(env):
    """One declaration, two evaluations: napkin's engine computed the cell when the
    template was built; Python computes the same expression now."""
    k = SIZING["step_ms"]
    assert math.isclose(floor_per_token(SIZING).evaluate(env), env.cells[k], rel_tol=1e-12)
    # and the default's figure the README states: 14.03 ms at the datasheet floor
    assert round(env.cells[k], 2) == 14.03


def test_the_step_terms_by_hand(env):
    """Llama 3.1 70B in FP8 on 2 H100 SXM, batch 16 (the default scenario): the weights a
    step reads, by hand from its config and the datasheets."""
    m = SIZING["model_row"]
    # the Models table's 70.6B parameters (config.json, rounded as the table gives it); a
    # decode step reads them without the input embedding table, vocab 128,256 × hidden
    # 8,192 (config.json; not tied to the LM head): 69.549B (Models column V)
    decode_b = step.decode_read(m).evaluate(env)
    assert decode_b == pytest.approx(70.6 - 128256 * 8192 / 1e9, rel=1e-12)
    # a dense model reads the same weights at any batch
    assert step.batch_read(m, 16).evaluate(env) == decode_b
    # FP8: one byte a parameter, the checkpoint's BF16 parts (none kept here) at two
    assert step.read_bytes(decode_b, SIZING["precision"], m).evaluate(env) == \
        pytest.approx(1.0, rel=1e-9)
    # no sliding-window layers, no Mamba state, an NVLink figure on the GPUs sheet
    assert step.state_bytes(m).evaluate(env) == 0
    assert step.has_link(SIZING["link"]).evaluate(env) is True
    assert step.link_kind(SIZING["link"]).evaluate(env) == "NVLink"
    # dense: no expert parallelism on any number of GPUs
    assert step.expert_parallel(m, 2).evaluate(env) == 0
    # GQA attention multiplies 64 heads × 128 (config.json)
    assert step.attention_dim(m).evaluate(env) == 64 * 128


def test_expert_parallel_by_the_scenarios_choice(env):
    # DeepSeek-R1's row of the Models table: 256 routed experts (config.json
    # n_routed_experts), a choice between the layouts on more than one GPU a stage
    r1 = env.names["MODEL_NAME"].index("DeepSeek-R1") + 1
    assert env.names["MODEL_EXPERTS"][r1 - 1] == 256
    assert step.moe_spread(r1, 8).evaluate(env) == 1
    assert step.moe_spread(r1, 1).evaluate(env) == 0  # one GPU a stage: nothing to spread

    def chosen(choice, auto):
        names = {**env.names, "SCENARIO_EXPERT_PARALLEL": choice,
                 "AUTO_EXPERT_PARALLEL": auto}
        return step.expert_parallel(r1, 8).evaluate(Env(names=names, cells=env.cells))

    # "no": tensor parallel; "yes": expert parallel, whatever auto found faster
    assert chosen("no", 1) == 0 and chosen("yes", 0) == 1
    # "auto" (and an empty cell, which is not "no" nor "yes"): the faster, Sizing's cell
    assert chosen("auto", 0) == 0 and chosen("auto", 1) == 1 and chosen("", 0) == 0
    # a dense model is tensor parallel whatever the choice
    m = SIZING["model_row"]
    names = {**env.names, "SCENARIO_EXPERT_PARALLEL": "yes"}
    assert step.expert_parallel(m, 8).evaluate(Env(names=names, cells=env.cells)) == 0


def test_a_layout_runs_on_pcie_cards_up_to_one_server(env):
    # a GPU with an interconnect figure (H100 SXM: NVLink 4, 900 GB/s in + out) any
    # degree; a PCIe card (no figure: RTX 4090, L40S) at most one server's 8 GPUs a stage
    # (NVIDIA's PCIe-optimized reference server: 2 CPUs, 8 GPUs, 5 adapters)
    assert step.PCIE_SERVER_GPUS == 8
    assert step.layout_runs(16, 900).evaluate(env) is True
    assert step.layout_runs(8, 0).evaluate(env) is True
    assert step.layout_runs(9, 0).evaluate(env) is False
    assert step.layout_runs(32, Text("")).evaluate(env) is False  # no figure: PCIe


def test_every_template_formula_reads_as_a_tree_and_back():
    """The parser that lets Raw text be computed reads every formula of the template, and
    its tree renders to text that reads back to the same tree."""
    wb = openpyxl.load_workbook(TEMPLATE)
    count = 0
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                text = getattr(c.value, "text", c.value)
                if isinstance(text, str) and text.startswith("="):
                    tree = parse(text)
                    assert parse(tree.render()) == tree, (ws.title, c.coordinate)
                    count += 1
    assert count > 1500
