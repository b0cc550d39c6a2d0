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


def test_the_scaleup_domain_and_the_link_a_stage_crosses(env):
    # the GPUs one scale-up link joins: the GPUs table's figure where the GPU has a link
    # (HGX H100 8, GB200 NVL72 72); 8 (one board) for a user's linked row without it; 1
    # without a link (a PCIe card: L40S, RTX 4090), whatever the figure says
    assert step.scaleup_domain(8, 900).evaluate(env) == 8
    assert step.scaleup_domain(72, 1800).evaluate(env) == 72
    assert step.scaleup_domain(Text(""), 900).evaluate(env) == 8
    assert step.scaleup_domain(8, Text("none")).evaluate(env) == 1
    # a server: the domain where wider (NVL72), else NVIDIA's 8-GPU reference server
    assert step.server_gpus(72).evaluate(env) == 72 and step.server_gpus(2).evaluate(env) == 8

    def kind(link, stage, domain):
        return step.stage_link_kind(link, stage, domain).evaluate(env)
    assert kind(900, 8, 8) == "NVLink" and kind(900, 16, 8) == "InfiniBand"  # HGX H100
    assert kind(600, 2, 2) == "NVLink" and kind(600, 4, 2) == "PCIe"  # H100 PCIe pairs
    assert kind(1800, 64, 72) == "NVLink" and kind(1800, 144, 72) == "InfiniBand"  # NVL72
    assert kind(Text("none"), 8, 1) == "PCIe"  # L40S: PCIe inside the server


def test_all_reduces_past_the_domain_pay_the_network(env):
    # Llama 3.1 70B (hidden 8,192, 80 layers: config.json), 64 tokens a step, BF16
    # activations: 64 × 8,192 × 2 B = 1,048,576 B an all-reduce, 2 a layer, 160 in all.
    # NCCL's ring (src/graph/tuning.cc, udfs/data/interconnects.csv): base 6.6 µs + 2(t−1)
    # steps at the link's latency; the bytes 2(t−1)/t × S over the link one way.
    def by_hand(t, hop_us, one_way_tbps):
        bytes_moved = 2 * (t - 1) / t * 64 * 8192 * 2
        return 160 * (6.6 + 2 * (t - 1) * hop_us + bytes_moved / (one_way_tbps * 1e12) * 1e6) / 1e3

    def comm(t, link, domain, kind=None):
        return step.tp_comm(8192, 64, t, link, 80, kind, 0, domain).evaluate(env)
    # 16 H100 SXM, an HGX board of 8 each: the network, 400 Gb/s InfiniBand a GPU (DGX
    # H100: one ConnectX-7 a GPU) = 0.05 TB/s one way, NCCL's NET latency 2.7 µs a step:
    # 160 × (6.6 + 81 + 39.32) µs = 20.307 ms, not NVLink's 4.635 ms
    assert comm(16, 900, 8) == pytest.approx(by_hand(16, 2.7, 0.05), rel=1e-12)
    assert by_hand(16, 2.7, 0.05) == pytest.approx(20.307456, rel=1e-9)
    assert comm(16, 900, 8, Text("NVLink")) == pytest.approx(by_hand(16, 2.7, 0.05))
    # the same 16 in a GB200 NVL72 rack: NVLink 5 (1,800 GB/s in + out, 0.9 one way)
    assert comm(16, 1800, 72) == pytest.approx(by_hand(16, 0.6, 0.9), rel=1e-12)
    # 8 H100 SXM on their board: NVLink as before (no domain given: the same)
    assert comm(8, 900, 8) == pytest.approx(by_hand(8, 0.6, 0.45), rel=1e-12)
    assert comm(8, 900, None) == pytest.approx(comm(8, 900, 8), rel=1e-12)
    # 4 H100 PCIe, bridged in pairs: past the pair PCIe 5.0 x16, 0.063 TB/s, 1.0 µs a step
    assert comm(4, 600, 2) == pytest.approx(by_hand(4, 1.0, 0.063), rel=1e-12)


def test_a_stage_splits_the_heads_by_vllms_rule(env):
    # vLLM (vllm/config/model.py, verify_with_parallel_config; linear.py,
    # QKVParallelLinear): query heads % tp = 0; KV heads split (kv % tp = 0) or replicated
    # (tp % kv = 0). Heads from each config.json (Models sheet).
    row = {name: env.names["MODEL_NAME"].index(name) + 1
           for name in ("Llama 3.1 405B", "Qwen2.5 7B", "Phi-4", "DeepSeek-R1")}

    def split(name, t, ep=0):
        plain = step.model_heads_split(row[name], t, ep).evaluate(env)
        assert step.model_heads_split(row[name], t, ep, elementwise=True).evaluate(env) \
            == plain
        return plain
    # Llama 3.1 405B: 128 query, 8 KV heads: 8 and 16 run, 24 does not (128 ÷ 24 = 5.33)
    assert split("Llama 3.1 405B", 8) and split("Llama 3.1 405B", 16)
    assert not split("Llama 3.1 405B", 24)
    # Qwen2.5 7B: 28 query heads, 4 KV: 4 runs, 8 does not (28 ÷ 8 = 3.5)
    assert split("Qwen2.5 7B", 4) and not split("Qwen2.5 7B", 8)
    # Phi-4: 40 query heads, 10 KV: 4 divides 40 but not the 10 KV heads (10 ÷ 4 = 2.5,
    # vLLM's divide() refuses it); 5 and 20 (10 replicated twice) run
    assert not split("Phi-4", 4) and split("Phi-4", 5) and split("Phi-4", 20)
    # DeepSeek-R1: 128 query heads, MLA (one latent KV head every GPU holds): 16 runs, 24
    # does not in tensor parallel; expert parallel splits no head (attention data parallel)
    assert split("DeepSeek-R1", 16) and not split("DeepSeek-R1", 24)
    assert split("DeepSeek-R1", 24, ep=1)
    assert step.divides(8, 128).evaluate(env) and not step.divides(24, 128).evaluate(env)
