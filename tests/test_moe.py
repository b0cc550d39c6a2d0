"""What a decode step reads and what prefill computes: mixture-of-experts, embeddings,
attention over the context. Every expected value is a hand calculation from the model's
config.json (values quoted in comments) or a closed form worked out in the comment."""

import math

import pytest
from pytest import approx

from udfs import EXPLAIN, MODEL_SPEC, MOE_EXPERTS_READ, PREFILL_MS
from udfs.inference import memory
from udfs.machinery.errors import ExcelError


def code(v):
    return v.code if isinstance(v, ExcelError) else None


# --- MOE_EXPERTS_READ ---------------------------------------------------------------------

@pytest.mark.parametrize(("e", "k", "b", "expected"), [
    (8, 2, 1, 2),                     # batch 1 reads exactly the k chosen experts
    (8, 2, 2, 8 * (1 - 0.75**2)),     # 8 × (1 − 0.5625) = 3.5
    (8, 8, 5, 8),                     # every token picks every expert
    (256, 8, 0, 0),                   # an empty step reads nothing
    (256, 8, 64, 256 * (1 - (248 / 256) ** 64)),  # DeepSeek-V3 at batch 64: 222.4
])
def test_moe_experts_read_closed_form(e, k, b, expected):
    assert MOE_EXPERTS_READ(e, k, b) == approx(expected)


def test_moe_experts_read_matches_counting_for_small_cases():
    # E = 4, k = 1, B = 2: the two tokens pick the same expert with probability 1/4
    # (1 expert read) or different ones with probability 3/4 (2 read): 1/4 + 3/2 = 1.75.
    assert MOE_EXPERTS_READ(4, 1, 2) == approx(1.75)
    # E = 3, k = 2, B = 2: each token picks one of the 3 pairs; same pair (1/3) reads
    # 2 experts, different pairs (2/3) read all 3: 2/3 + 2 = 2.6667
    assert MOE_EXPERTS_READ(3, 2, 2) == approx(8 / 3)


def test_moe_experts_read_grows_towards_all_experts():
    reads = [MOE_EXPERTS_READ(128, 8, b) for b in (1, 2, 8, 32, 128, 1024)]
    assert reads == sorted(reads) and reads[0] == 8 and reads[-1] == approx(128, rel=1e-9)


def test_moe_experts_read_refuses_impossible_routing():
    assert code(MOE_EXPERTS_READ(8, 9, 1)) == "#NUM!"
    assert "top_k" in MOE_EXPERTS_READ(8, 9, 1).message
    assert code(MOE_EXPERTS_READ(0, 1, 1)) == "#NUM!"
    assert code(MOE_EXPERTS_READ(8, 2, -1)) == "#NUM!"
    assert code(MOE_EXPERTS_READ("eight", 2, 1)) == "#VALUE!"


def test_moe_experts_read_explained():
    assert "3.5 experts read" in EXPLAIN("MOE_EXPERTS_READ", 8, 2, 2)


# --- active_params, decode_params, expert_params --------------------------------------------

@pytest.mark.parametrize(("model", "vocab", "hidden"), [
    ("Llama 3.1 8B", 128256, 4096),   # config.json: vocab_size 128256, hidden_size 4096
    ("Qwen2.5 7B", 152064, 3584),     # vocab_size 152064, hidden_size 3584
    ("Qwen3 8B", 151936, 4096),       # vocab_size 151936, hidden_size 4096
])
def test_untied_models_read_all_but_the_input_embedding(model, vocab, hidden):
    params = MODEL_SPEC(model, "params")
    decode = MODEL_SPEC(model, "decode_params")
    assert decode == params - vocab * hidden
    # the measure: counting the whole table overstates the bytes read by 7-8 %
    assert 0.069 < params / decode - 1 < 0.083


def test_tied_models_read_the_table_as_their_lm_head():
    # Llama 3.2 1B and Gemma 2 9B tie the embedding to the LM head (tie_word_embeddings
    # true): the head is read in full every step, so nothing is left out
    for model in ("Llama 3.2 1B", "Gemma 2 9B", "Gemma 3 27B"):
        assert MODEL_SPEC(model, "decode_params") == MODEL_SPEC(model, "params")
        assert MODEL_SPEC(model, "tied") == "true"


def test_dense_models_are_fully_active():
    for model in ("Llama 3.1 70B", "Phi-4", "Mistral Large 2"):
        assert MODEL_SPEC(model, "active_params") == MODEL_SPEC(model, "params")
        assert MODEL_SPEC(model, "expert_params") == 0


@pytest.mark.parametrize(("model", "total", "active"), [
    # counted from each config.json's shapes (tests/test_model_rows.py counts them layer
    # by layer); the cards' rounded figures in the comments
    ("Mixtral 8x7B", 46.7028e9, 12.8799e9),    # Mistral: 46.7B total, 12.9B per token
    ("DeepSeek-V3", 671.0264e9, 37.5523e9),    # card: 671B total, 37B activated
    ("DeepSeek-R1", 671.0264e9, 37.5523e9),
    ("Qwen3 235B-A22B", 235.0936e9, 22.1908e9),  # Qwen3 card: 235B / 22B
    ("Qwen3 30B-A3B", 30.5321e9, 3.3530e9),     # 30.5B / 3.3B
    ("Llama 4 Scout", 107.7699e9, 17.1729e9),  # Meta: 109B with the vision encoder, 17B
    ("Llama 4 Maverick", 400.7118e9, 17.1847e9),  # 400B total, 17B active
    ("gpt-oss-120b", 116.83e9, 5.13e9),      # OpenAI gpt-oss model card, Table 1 (exact)
    ("gpt-oss-20b", 20.91e9, 3.61e9),
    ("Kimi K2", 1026.4082e9, 32.8615e9),     # card: 1T total, 32B activated
])
def test_moe_total_and_active_params(model, total, active):
    assert MODEL_SPEC(model, "params") == approx(total)
    assert MODEL_SPEC(model, "active_params") == approx(active)


@pytest.mark.parametrize(("model", "moe_layers", "hidden", "moe_inter"), [
    ("Mixtral 8x7B", 32, 4096, 14336),        # 32 layers, all MoE
    ("DeepSeek-V3", 58, 7168, 2048),          # 61 layers, first_k_dense_replace 3
    ("Kimi K2", 60, 7168, 2048),              # 61 layers, first_k_dense_replace 1
    ("Llama 4 Maverick", 24, 5120, 8192),     # interleave_moe_layer_step 2 of 48
    ("gpt-oss-120b", 36, 2880, 2880),
    ("Qwen3 30B-A3B", 48, 2048, 768),
])
def test_expert_params_from_the_config(model, moe_layers, hidden, moe_inter):
    # a gated (SwiGLU) expert has three hidden × intermediate matrices
    assert MODEL_SPEC(model, "expert_params") == moe_layers * 3 * hidden * moe_inter


def test_moe_config_sums_to_the_card_totals():
    # Mixtral 8x7B: 8 experts × 5.637e9 = 45.10e9 in the experts; with 1.60e9 of attention,
    # norms, embedding and head (46.7e9 − 45.10e9) the active count is
    # 1.60e9 + 2 × 5.637e9 = 12.87e9, the card's 12.9B
    e = MODEL_SPEC("Mixtral 8x7B", "expert_params")
    shared = 46.7e9 - 8 * e
    assert shared + 2 * e == approx(12.9e9, rel=0.005)
    # DeepSeek-V3: 256 routed experts × 2.554e9 = 653.9e9; the rest 17.1e9; active
    # 17.1e9 + 8 × 2.554e9 = 37.5e9 against the card's 37B
    e = MODEL_SPEC("DeepSeek-V3", "expert_params")
    assert 671e9 - 256 * e + 8 * e == approx(37e9, rel=0.015)


def test_gpt_oss_card_leaves_out_the_input_embedding():
    # OpenAI's 5.13B active = attention + 4 experts + unembedding, without the
    # 201088 × 2880 input embedding, so a decode step reads the card's figure
    assert MODEL_SPEC("gpt-oss-120b", "decode_params") == 5.13e9
    # Llama 4 Scout's active count holds both tables: 202048 × 5120 = 1.0345e9 is left out
    assert MODEL_SPEC("Llama 4 Scout", "decode_params") == approx(17.1729e9 - 202048 * 5120)


def test_moe_decode_reads_grow_with_the_batch():
    # Mixtral 8x7B at batch 2: decode_params + expert_params × (3.5 − 2)
    d, e = MODEL_SPEC("Mixtral 8x7B", "decode_params"), MODEL_SPEC("Mixtral 8x7B", "expert_params")
    assert memory.moe_decode_params(d, e, 8, 2, 1) == d
    assert memory.moe_decode_params(d, e, 8, 2, 2) == approx(d + 1.5 * e)
    # at a large batch every expert is read: all weights but the input embedding (to
    # 0.1 %: the card's 12.9B active and 46.7B total are rounded figures)
    big = memory.moe_decode_params(d, e, 8, 2, 10_000)
    assert big == approx(46.7e9 - 32000 * 4096, rel=1e-3)


# --- prefill with attention -----------------------------------------------------------------

def test_prefill_attention_term_by_hand():
    # Llama 3.1 8B (32 layers, 32 heads × 128 = 4096) at 32,768 tokens on 989 TFLOPS:
    # weights 2 × 8.03e9 × 32768 = 5.2625e14, attention 2 × 32 × 4096 × 32768² = 2.8147e14
    w, att = 2 * 8.03e9 * 32768, 2 * 32 * 4096 * 32768**2
    assert PREFILL_MS("8.03B", 32768, 989, 1, 32, 4096) == approx((w + att) / 989e12 * 1e3)
    assert att / (w + att) == approx(0.3485, abs=1e-4)  # "at 32k tokens, a third"
    # without layers and attn_dim only the weights count (the former PREFILL_MS)
    assert PREFILL_MS("8.03B", 32768, 989) == approx(w / 989e12 * 1e3)


def test_prefill_attention_is_quadratic_in_the_prompt():
    base = PREFILL_MS(0.0 + 1, 1000, 989, 1, 32, 4096) - PREFILL_MS(1, 1000, 989)
    double = PREFILL_MS(1, 2000, 989, 1, 32, 4096) - PREFILL_MS(1, 2000, 989)
    assert double / base == approx(4)


def test_prefill_with_moe_active_params():
    # DeepSeek-V3 in FP8 on an H200 (1978.9 dense FP8 TFLOPS), 2,048 prompt tokens, the
    # 37.55B active parameters (counted from the config): 2 × 37.5523e9 × 2048 ÷
    # 1.9789e15 = 77.7 ms, where the 671B total would give 1,389 ms
    active = MODEL_SPEC("DeepSeek-V3", "active_params")
    assert PREFILL_MS(active, 2048, 1978.9) == approx(2 * 37.5523e9 * 2048 / 1978.9e12 * 1e3)


def test_prefill_needs_both_attention_arguments():
    r = PREFILL_MS("8.03B", 2000, 989, 1, 32)
    assert code(r) == "#VALUE!" and "attn_dim" in r.message
    assert code(PREFILL_MS("8.03B", 2000, 989, 1, 32.5, 4096)) == "#NUM!"
    assert math.isclose(PREFILL_MS("8.03B", "2k tokens", 989), PREFILL_MS("8.03B", 2000, 989))
