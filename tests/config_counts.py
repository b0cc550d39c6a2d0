"""Parameter counts of a model from the shapes of its ``config.json``, layer by layer, for
the tests of the model table (``udfs/data/models.csv``): an independent count of what the
table states. Norm weights (one vector of the hidden size per norm) are counted; biases
only where the config has them.

References
----------
.. [1] DeepSeek-AI (2024), "DeepSeek-V3 Technical Report", arXiv:2412.19437: the
   multi-head latent attention projections (q_a, q_b, kv_a with the rope key, kv_b, o).
.. [2] S. Yang, J. Kautz, A. Hatamizadeh (2024), "Gated Delta Networks",
   arXiv:2412.06464, as Qwen3-Next implements them (q, k, v, z, b, a projections, a
   causal convolution over q, k and v, a gated RMSNorm per head, the output projection).
.. [3] T. Dao, A. Gu (2024), "Transformers are SSMs" (Mamba-2), arXiv:2405.21060: in_proj
   to x, z, B, C and dt; the convolution over x, B and C; A, D and dt bias per head.
"""

from __future__ import annotations


def gqa_attention(h, heads, kv_heads, head_dim, qkv_bias=False, qk_norm=0, gate=False,
                  k_eq_v=False):
    """Weights of one grouped-query attention layer: q, k, v and o projections (q twice as
    wide when the output is gated, Qwen3-Next; no v projection where the keys' serves the
    values too, Gemma 4's attention_k_eq_v), the QKV bias and the QK-norm weights."""
    q = heads * head_dim * (2 if gate else 1)
    kv = (1 if k_eq_v else 2) * h * kv_heads * head_dim
    n = h * q + kv + heads * head_dim * h + qk_norm
    return n + (q + 2 * kv_heads * head_dim if qkv_bias else 0)


def mla_attention(h, heads, q_lora, kv_lora, nope, rope, v):
    """Weights of one multi-head latent attention layer [1], with its two norms."""
    return (h * q_lora + q_lora + q_lora * heads * (nope + rope)
            + h * (kv_lora + rope) + kv_lora + kv_lora * heads * (nope + v) + heads * v * h)


def dsa_indexer(h, q_lora, heads, head_dim):
    """Weights of DeepSeek-V3.2's lightning indexer in one layer: its query projection
    from the q latent, its key projection, the key's LayerNorm (weight and bias) and the
    per-head weights."""
    return q_lora * heads * head_dim + h * head_dim + 2 * head_dim + h * heads


def gated_deltanet(h, key_heads, key_dim, value_heads, value_dim, kernel):
    """Weights of one Gated DeltaNet layer [2]: q, k, v, z and the b, a gates from the
    hidden state, the convolution over q, k, v, dt bias and A per value head, the gated
    norm of one head, the output projection."""
    key, value = key_heads * key_dim, value_heads * value_dim
    return (h * (2 * key + 2 * value) + h * 2 * value_heads + (2 * key + value) * kernel
            + 2 * value_heads + value_dim + value * h)


def mamba2(h, heads, head_dim, groups, state, kernel):
    """Weights of one Mamba-2 mixer [3] with a convolution bias (Nemotron-H's
    use_conv_bias)."""
    inner = heads * head_dim
    conv = inner + 2 * groups * state
    return (h * (2 * inner + 2 * groups * state + heads) + conv * (kernel + 1)
            + 3 * heads + inner + inner * h)


def total_and_active(*, vocab, h, tied, layers, mixers, norms_per_layer=2, dense_layers=0,
                     dense_mlp=0, moe_layers=0, experts=0, top_k=0, expert=0, shared=0,
                     router_bias=False, shared_gate=False):
    """(total, active) parameters: the embedding and LM head, the attention or other
    mixers (``mixers``, summed over the layers), the norms, the dense MLPs, and per MoE
    layer its router (with its score-correction bias), shared experts (and their gate),
    and all or ``top_k`` of its experts of ``expert`` weights each."""
    embedding = vocab * h
    router = h * experts + (experts if router_bias else 0)
    common = (embedding * (1 if tied else 2) + mixers + layers * norms_per_layer * h + h
              + dense_layers * dense_mlp + moe_layers * (router + shared
                                                         + (h if shared_gate else 0)))
    return common + moe_layers * experts * expert, common + moe_layers * top_k * expert
