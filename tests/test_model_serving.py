"""What a decode step carries in real serving (``workbook.model.serving``), tested on its
expressions in milliseconds: each quantity evaluated in Python with the inputs the
committed template holds (the default scenario: Llama 3.1 70B in FP8 on 2 H100 SXM,
batch 16, 2,000 prompt and 300 output tokens, prefill sharing the GPUs) against a hand
calculation, and against the cell the workbook computed for it where Sizing shows it."""

from __future__ import annotations

import math

import pytest
from template_values import template_env

from udfs.inference import tables
from workbook.expr import Env
from workbook.model import serving
from workbook.sizing import SIZING


@pytest.fixture(scope="module")
def env() -> Env:
    return template_env("Sizing")


def cell(env: Env, key: str):
    return env.cells[SIZING[key]]


def test_the_mean_context(env):
    # a sequence holds P + t tokens at its t-th step: on average P + O ÷ 2 = 2,000 + 150
    assert serving.mean_context().evaluate(env) == 2150 == cell(env, "mean_context")
    assert serving.mean_context(1000, 2000).evaluate(env) == 2000


def test_the_prompt_share_aggregated_and_disaggregated(env):
    # aggregated: each step carries 2,000 ÷ 300 = 6.667 prompt tokens a sequence decoded
    assert serving.prefill_share().evaluate(env) == pytest.approx(2000 / 300)
    assert cell(env, "prefill_share") == pytest.approx(2000 / 300)
    # disaggregated: none; no output tokens: none (no division by 0)
    off = Env(names={**env.names, "SCENARIO_SERVING": "disaggregated"}, cells=env.cells)
    assert serving.prefill_share().evaluate(off) == 0
    assert serving.prefill_share(2000, 0).evaluate(env) == 0


def test_the_tokens_a_step_computes(env):
    # 16 sequences × (0 draft tokens + 1 + 6.667 prompt tokens) = 122.67
    assert serving.step_tokens(16).evaluate(env) == pytest.approx(16 * (1 + 2000 / 300))
    assert cell(env, "step_tokens") == pytest.approx(16 * (1 + 2000 / 300))
    # with 3 draft tokens and prefill elsewhere: 16 × 4 = 64
    assert serving.step_tokens(16, 3, 0).evaluate(env) == 64


def test_the_tokens_attended(env):
    # one verified token over the mean context, 6.667 prompt tokens over half the prompt:
    # 2,150 + 6.667 × 1,000 = 8,816.7 a sequence; DECODE_ATTENTION_FLOP is linear in it,
    # so Sizing's attention is 4 × 80 layers × 64 × 128 × 8,816.7 × 16 (config.json)
    per_sequence = serving.attended_per_sequence().evaluate(env)
    assert per_sequence == pytest.approx(2150 + 2000 / 300 * 1000)
    assert cell(env, "attn_flop") == pytest.approx(4 * 80 * 64 * 128 * per_sequence * 16)


def test_the_kv_copies_a_stage_reads(env):
    # Llama 3.1 70B, 8 KV heads (config.json): one copy up to 8 GPUs, 2 on 16
    row = SIZING["model_row"]
    assert serving.kv_copies(row, 2, 0).evaluate(env) == 1
    assert serving.kv_copies(row, 8, 0).evaluate(env) == 1
    assert serving.kv_copies(row, 16, 0).evaluate(env) == 2
    # attention data parallel (expert parallelism): one copy at any degree
    assert serving.kv_copies(row, 16, 1).evaluate(env) == 1


def test_mla_under_tensor_parallelism_reads_the_latent_cache_on_every_gpu(env):
    # DeepSeek-V3 caches one latent vector a token (MLA: kv_lora_rank 512 + rope 64,
    # config.json): on a tensor-parallel stage of 8 GPUs each holds and reads all of it;
    # its row of the Models table (MODEL_* columns, INDEX by position)
    row = list(tables.models()).index("DeepSeek-V3") + 1
    assert env.names["MODEL_NAME"][row - 1] == "DeepSeek-V3"
    assert env.names["MODEL_ATTENTION"][row - 1] == "MLA"
    assert serving.kv_copies(row, 8, 0).evaluate(env) == 8
    assert serving.kv_copies(row, 8, 1).evaluate(env) == 1


def test_the_kv_cache_a_step_reads(env):
    # 327,680 B a token in BF16 (2 × 80 × 8 × 128 × 2, config.json) × 2,150 tokens × 16
    # sequences × one copy = 11.27 GB; memory holds the full 2,300 tokens: 12.06 GB
    one = cell(env, "kv_step_seq_gb")
    assert one == pytest.approx(327680 * 2150 / 1e9)
    assert cell(env, "kv_step_gb") == pytest.approx(16 * 327680 * 2150 / 1e9)
    assert cell(env, "kv_gb") == pytest.approx(16 * 327680 * 2300 / 1e9)
    k = {key: SIZING[key] for key in ("kv_heads", "head_dim", "kv_bytes", "sliding",
                                      "window", "kv_precision", "mean_context")}
    expr = serving.kv_sequence_gb(k["kv_bytes"], k["kv_precision"], k["mean_context"],
                                  k["sliding"], k["window"], k["kv_heads"], k["head_dim"], 0)
    assert math.isclose(expr.evaluate(env), one, rel_tol=1e-12)
