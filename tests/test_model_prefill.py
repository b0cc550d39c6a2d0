"""The first token (``workbook.model.prefill``): Sizing's RESULT_FIRST_TOKEN_MS and Plan's
first-token column, evaluated in Python from their declarations against the committed
template and against a hand calculation from the model's config and the GPU's datasheet,
and against napkin's Python floor (``udfs.inference.timing.prefill_floor_ms``,
``first_token_ms``)."""

from __future__ import annotations

import pytest
from template_values import template_env
from test_model_sizing import FUNCTIONS

from udfs.inference.timing import first_token_ms, prefill_floor_ms
from workbook.expr import Cell, Env
from workbook.model import prefill
from workbook.plan import PLAN
from workbook.scenario import _first_token_row
from workbook.sizing import SIZING

# Llama 3.1 70B (meta-llama/Llama-3.1-70B config.json): 80 layers, 64 query heads of 128,
# hidden 8,192, 8 KV heads, vocabulary 128,256; 70.6 B parameters (its model card)
LAYERS, HEADS, HEAD_DIM, HIDDEN, VOCAB, ACTIVE = 80, 64, 128, 8192, 128_256, 70.6e9
# NVIDIA H100 SXM datasheet: 1,978.9 TFLOPS dense FP8 (3,957.8 with sparsity ÷ 2),
# 3.35 TB/s, NVLink 900 GB/s (450 one way)
FP8_TFLOPS, TBPS, LINK_ONE_WAY = 1978.9, 3.35, 450e9
PROMPT, GPUS, ROOF_EFFICIENCY, LAYER_US = 2000, 2, 0.8, 65.8  # the template's defaults


def _default_by_hand() -> tuple[float, float, float]:
    """The default scenario's first token (Llama 3.1 70B in FP8 on 2 H100 SXM, a 2,000-token
    prompt, BF16 KV cache): (math ms, memory ms, all-reduces ms), each before the
    efficiency."""
    flop = 2 * ACTIVE * PROMPT + 2 * LAYERS * HEADS * HEAD_DIM * PROMPT**2
    math_ms = flop / (FP8_TFLOPS * 1e12 * GPUS) * 1e3  # 72.68 ms
    # the weights a step reads: all but the input embedding, 1 byte each in FP8; the
    # keys and values written: 2 × 80 × 8 × 128 × 2 bytes (BF16) a token
    weights_gb = (ACTIVE - VOCAB * HIDDEN) / 1e9
    kv_gb = PROMPT * 2 * LAYERS * 8 * HEAD_DIM * 2 / 1e9
    memory_ms = (weights_gb + kv_gb) / (TBPS * GPUS)  # GB ÷ TB/s = ms: 10.48 ms
    # two ring all-reduces a layer of 2,000 tokens × 8,192 × 2 bytes over 2 GPUs (ring
    # factor 2(g−1)/g = 1), NCCL's NVLink latency 6.6 + 2(g−1) × 0.6 µs
    comm_ms = 2 * LAYERS * (PROMPT * HIDDEN * 2 / LINK_ONE_WAY * 1e3 + (6.6 + 2 * 0.6) / 1e3)
    return math_ms, memory_ms, comm_ms


def test_the_default_first_token_by_hand():
    """Long prompts are bound by the math (72.7 ms against 10.5 ms of memory traffic):
    (72.68 + 12.90) ÷ 0.8 + 80 × 65.8 µs = 106.97 + 5.26 = 112.23 ms, on Sizing, on
    Plan's scenario row and in napkin's Python floor alike."""
    math_ms, memory_ms, comm_ms = _default_by_hand()
    hand = (max(math_ms, memory_ms) + comm_ms) / ROOF_EFFICIENCY + LAYERS * LAYER_US / 1e3
    assert hand == pytest.approx(112.234, abs=1e-3)
    env = template_env("Sizing")
    assert env.names["RESULT_FIRST_TOKEN_MS"] == pytest.approx(hand, rel=1e-9)
    plan = template_env("Plan")
    assert plan.cells[PLAN["ttft"]] == pytest.approx(hand, rel=1e-9)
    # napkin's Python floor, checked against measured first tokens (tests/prefill_floor.py)
    flop = math_ms * FP8_TFLOPS * GPUS * 1e9
    weights_gb = (ACTIVE - VOCAB * HIDDEN) / 1e9
    kv_gb = PROMPT * 327_680 / 1e9
    floor = prefill_floor_ms(flop, weights_gb, kv_gb, FP8_TFLOPS * GPUS, TBPS * GPUS, comm_ms)
    assert first_token_ms(floor, ROOF_EFFICIENCY, LAYERS, LAYER_US) == pytest.approx(hand)


def test_the_first_token_row_in_python_is_the_workbooks():
    env = template_env("Sizing")
    env = Env(names=env.names, cells=env.cells, functions=FUNCTIONS)
    _key, _label, value, _fmt, _note = _first_token_row(SIZING)
    assert value.evaluate(env) == pytest.approx(env.cells[SIZING["first_token_ms"]],
                                                rel=1e-12)


def test_a_short_prompt_is_bound_by_the_weights_read():
    """At 128 tokens Llama 2 7B in FP8 on one H100 does 0.874 ms of math but moves 6.772 GB
    (6.738 B weights + 128 × 262,144 bytes of FP8 keys and values), 2.022 ms at 3.35
    TB/s: the first token is the memory's, ÷ 0.8, + 32 layers × 65.8 µs."""
    env = Env(names={"ROOF_EFFICIENCY": 0.8, "LAYER_TIME_US": 65.8},
              cells={"A1": 0.874 / 0.8, "A2": 6.772, "A3": 3.35, "A4": 1, "A5": 32, "A6": 0},
              functions=FUNCTIONS)
    got = prefill.first_token_ms(*(Cell(f"A{i}") for i in range(1, 7))).evaluate(env)
    assert got == pytest.approx(6.772 / 3.35 / 0.8 + 32 * 65.8 / 1e3)
    # the same said element by element (Plan's array formulas) gives the same
    each = prefill.first_token_ms(*(Cell(f"A{i}") for i in range(1, 7)), elementwise=True)
    assert each.evaluate(env) == pytest.approx(got)
