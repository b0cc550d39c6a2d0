"""What a model's weights take in each precision, part by part (``data/checkpoints.csv``).

A quantized checkpoint rarely stores every weight in one format: FP8 checkpoints keep the
embedding table and the LM head in BF16 (DeepSeek-V3, MiniMax-M2), gpt-oss stores only
its routed experts in MXFP4 and Kimi K2.5 only its routed experts in INT4. The parts are
counted from the model's ``config.json``: the routed experts R = E_routed × P_expert, the
embedding table E = V × h, the LM head H (E again unless tied, else 0), the per-layer
embedding table P_pl (Gemma 4 E2B and E4B; 0 for most), and the rest
D = N − R − E − H − P_pl (attention, router, norms, shared experts, dense layers).

References
----------
.. [1] openai/gpt-oss-120b ``config.json`` on Hugging Face: quantization_config mxfp4 with
   modules_to_not_convert self_attn, router, embed_tokens, lm_head.
.. [2] deepseek-ai/DeepSeek-V3 ``config.json``: quantization_config fp8 (e4m3, 128 × 128
   weight blocks); the embedding and LM head are stored in BF16.
.. [3] OCP Microscaling Formats (MX) Specification v1.0 (2023): MXFP4 is 4-bit E2M1
   elements sharing one 8-bit scale per 32, 4.25 bits.
"""

from __future__ import annotations

from .precisions import bytes_per_param

#: A format of 2 bytes or more is not a quantized one: a part in it is "kept" in 16 bits
KEPT_BYTES = 2.0


def part_bytes(text: str) -> float:
    """Bytes per parameter of a cell of data/checkpoints.csv: a precision's name ("FP8",
    "MXFP4") or a number of bytes ("0.5625", for a format the precision table lacks)."""
    b = bytes_per_param(text)
    return float(text) if b is None else b


def parts(r: dict) -> dict:
    """The parameter counts of a model row's parts: routed experts, embedding, LM head,
    per-layer embeddings, the rest.

    Parameters
    ----------
    r : dict
        A model row with its derived counts (``params``, ``embedding_params``,
        ``expert_params``, ``num_experts``, ``tie_word_embeddings``,
        ``per_layer_embedding_params``).

    Returns
    -------
    dict of floats [count]: ``routed``, ``embedding``, ``head``, ``per_layer``, ``dense``.
    gpt-oss-120b:
    routed 128 × 895,795,200 = 114,661,785,600; embedding and head 579,133,440 each [1].
    """
    expert = float(r["expert_params"])
    routed = expert * float(r["num_experts"] or 0)
    embedding = float(r["embedding_params"])
    head = 0.0 if (r["tie_word_embeddings"] or "").strip().lower() == "true" else embedding
    per_layer = float(r.get("per_layer_embedding_params") or 0)
    return {"routed": routed, "embedding": embedding, "head": head, "per_layer": per_layer,
            "dense": float(r["params"]) - routed - embedding - head - per_layer}


def checkpoint_fields(r: dict, c: dict | None) -> dict:
    """Weights stored and read per decode step, and the parameters a quantized checkpoint
    keeps in 16 bits.

    .. math:: W = R \\, b_x + D \\, b_d + (E + H + P_{pl}) \\, b_e, \\quad
              W_{decode} = k P_{expert} \\, b_x + D \\, b_d + E \\, b_e

    with b each part's bytes per parameter (data/checkpoints.csv) and k the experts per
    token. A decode step reads k experts per layer, all of D and the whole LM head (the
    head is the embedding when tied), one row of the embedding and of each layer's part of
    P_pl (stored as the embedding is).

    The kept parameters K are the parts the row stores in 2 bytes or more: E + H + P_pl where
    it keeps the embedding and the head in BF16 (FP8 checkpoints [2]), and D too where it
    keeps D in BF16 (gpt-oss) [1]; K_decode, the kept parameters a decode step reads: the
    head (E when tied), and D where kept. A model without a row has no checkpoint read:
    one precision, K = K_decode = 0.

    Parameters
    ----------
    r : dict
        A model row with its derived counts (see ``parts``) and ``experts_per_token``.
    c : dict
        Its row of data/checkpoints.csv (None: the model has none).

    Returns
    -------
    dict of text: ``checkpoint_gb`` and ``checkpoint_decode_gb`` (empty without a row),
    ``kept_params`` and ``kept_decode_params`` (counts; 0 without a row). Hand check,
    gpt-oss-120b: R = 114.66e9 at 0.53125 B (MXFP4) = 60.91 GB [3]; D = 116.83e9 − R − 2 ×
    579,133,440 = 1.010e9 at 2 B = 2.02 GB; embeddings and head 2.32 GB: 65.25 GB, where
    all-MXFP4 would give 62.07 GB.
    """
    if c is None:
        return {"kept_params": "0", "kept_decode_params": "0", "checkpoint_gb": "",
                "checkpoint_decode_gb": ""}
    p = parts(r)
    kept_head = p["head"] or p["embedding"]  # the head a step reads: the table when tied
    bx, bd, be = (part_bytes(c[k]) for k in
                  ("experts_precision", "dense_precision", "embedding_precision"))
    tables = p["embedding"] + p["head"] + p["per_layer"]
    stored = p["routed"] * bx + p["dense"] * bd + tables * be
    read = (float(r["expert_params"]) * float(r["experts_per_token"] or 0) * bx
            + p["dense"] * bd + kept_head * be)
    dense_kept = p["dense"] if bd >= KEPT_BYTES else 0.0
    table_kept = be >= KEPT_BYTES
    return {"kept_params": repr(dense_kept + tables * table_kept),
            "kept_decode_params": repr(dense_kept + kept_head * table_kept),
            "checkpoint_gb": repr(stored / 1e9), "checkpoint_decode_gb": repr(read / 1e9)}
