"""The template's Sizing sheet with today's model rows: a hybrid model's KV cache counts its
attention layers only and adds the fixed state of its linear-attention layers, and a
mixed-precision checkpoint's weights count its BF16 parts at 2 bytes. Each expected value
is a hand calculation from the model's config.json, quoted in the comment."""

import pytest
from template_support import sizing, variant

from udfs.inference import tables
from workbook.build import MODEL_FIRST, SIZING


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("rows")


def _models_row(v, name):
    rows = {v["Models"][f"A{MODEL_FIRST + i}"]: MODEL_FIRST + i
            for i in range(len(tables.models()))}
    return rows[name]


def test_a_hybrid_model_caches_its_attention_layers_and_a_fixed_state(tmp):
    # Qwen3-Next 80B-A3B (config.json: 12 of 48 layers attend, 2 KV heads × 256; 36 Gated
    # DeltaNet layers of 32 × 128 × 128 + 3 × 8,192 state elements, BF16): 24,576 B per
    # token and 39,518,208 B per sequence, in BF16 on H200s
    v = variant(tmp, "qwen3-next", {"Sizing!" + SIZING["model"]: "Qwen3-Next 80B-A3B",
                                    "Sizing!" + SIZING["precision"]: "BF16",
                                    "Sizing!" + SIZING["gpu"]: "NVIDIA H200 SXM"})
    context, batch = sizing(v, "context"), sizing(v, "batch")
    per_seq = (12 * 2 * 2 * 256 * 2 * context + 36 * (32 * 128 * 128 + 3 * 8192) * 2) / 1e9
    assert sizing(v, "kv_seq_gb") == pytest.approx(per_seq)
    assert sizing(v, "kv_gb") == pytest.approx(per_seq * batch)
    # all 48 layers taken as attention would hold 4 × the KV of the 12
    assert sizing(v, "kv_gqa_gb") == pytest.approx(4 * 12 * 2 * 2 * 256 * 2 * context
                                                   * batch / 1e9)
    r = _models_row(v, "Qwen3-Next 80B-A3B")
    assert v["Models"][f"P{r}"] == 12 * 2 * 2 * 256 * 2
    assert (v["Models"][f"X{r}"], v["Models"][f"Y{r}"]) == (12, 39518208)


def test_a_mixed_precision_checkpoint_keeps_its_bf16_parts(tmp):
    # gpt-oss-120b in MXFP4 on one H100 (config.json: 128 experts over 36 layers of 3 ×
    # 2880², the rest, 116.83e9 − 114,661,785,600 = 2,168,214,400, in BF16): 65.25 GB of
    # weights; a step reads 5.13e9 weights (the card's active count without the input
    # embedding), of which 1,589,080,960 (attention, router, LM head) are BF16
    v = variant(tmp, "gpt-oss", {"Sizing!" + SIZING["model"]: "gpt-oss-120b",
                                 "Sizing!" + SIZING["precision"]: "MXFP4",
                                 "Sizing!" + SIZING["gpu"]: "NVIDIA H100 SXM"})
    kept = 116.83e9 - 128 * 36 * 3 * 2880 ** 2
    assert sizing(v, "weight_gb") == pytest.approx(
        ((116.83e9 - kept) * 0.53125 + kept * 2) / 1e9)
    assert sizing(v, "weight_gb") == pytest.approx(65.2505, abs=5e-5)
    read_kept = kept - 201088 * 2880
    read = ((5.13e9 - read_kept) * 0.53125 + read_kept * 2) / 1e9  # 5.059 GB
    assert sizing(v, "floor_ms") == pytest.approx(read / 3.35)  # ms, H100 3.35 TB/s
    r = _models_row(v, "gpt-oss-120b")
    assert v["Models"][f"Z{r}"] == pytest.approx(kept / 1e9)
    assert v["Models"][f"AA{r}"] == pytest.approx(read_kept / 1e9)


def test_a_model_without_a_checkpoint_row_is_one_precision(default):
    # the default scenario, Llama 3.1 70B in FP8: 70.6 GB, no part kept apart (the
    # template computed by napkin calc, the session's ``default``)
    v = default
    assert sizing(v, "weight_gb") == pytest.approx(70.6)
    r = _models_row(v, "Llama 3.1 70B")
    assert (v["Models"][f"Z{r}"], v["Models"][f"Y{r}"], v["Models"][f"X{r}"]) == (0, 0, 80)


def test_shared_kv_layers_and_per_layer_embeddings_in_the_sizing_sheet(tmp):
    # Gemma 4 E2B in BF16 on one H100 SXM (config.json text_config: 35 layers, 20 of them
    # KV-shared; the 15 that keep a cache are 12 sliding layers of 2 × 1 × 256 elements in
    # a 512-token window and 3 global of 2 × 1 × 512; per-layer embeddings 262,144 × 35 ×
    # 256 = 2,348,810,240, in memory but not read whole by a step)
    v = variant(tmp, "gemma4-e2b", {"Sizing!" + SIZING["model"]: "Gemma 4 E2B",
                                    "Sizing!" + SIZING["precision"]: "BF16",
                                    "Sizing!" + SIZING["gpu"]: "NVIDIA H100 SXM"})
    context = sizing(v, "context")
    assert context > 512
    per_seq = (3 * 2 * 512 * 2 * context + 12 * 2 * 256 * 2 * 512) / 1e9
    assert sizing(v, "kv_seq_gb") == pytest.approx(per_seq)
    # memory holds all 4.6286e9 weights: 9.2572 GB; a batch-1 step reads 4.6286e9 less the
    # per-layer table, 2.2798e9 (the active count), at 2 B over 3.35 TB/s: 1.3610 ms
    assert sizing(v, "weight_gb") == pytest.approx(4.6286 * 2)
    assert sizing(v, "floor_ms") == pytest.approx(2.2798 * 2 / 3.35)
    r = _models_row(v, "Gemma 4 E2B")
    assert (v["Models"][f"P{r}"], v["Models"][f"X{r}"]) == (18432, 15)
    assert v["Models"][f"AB{r}"] == pytest.approx(2.34881024)
    assert v["Models"][f"V{r}"] == pytest.approx(2.2798)
