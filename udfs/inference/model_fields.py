"""The derived fields of the model table (``udfs.inference.tables.models``): what each means, as
``MODEL_SPEC`` documents them and lists them in its messages."""

#: Derived model fields: name -> meaning
MODEL_DERIVED = {
    "params": "total parameters as a count (total_params_B × 10⁹)",
    "active_params": "active parameters per token as a count, as the model card states it "
                     "(active_params_B × 10⁹; equal to params for dense models)",
    "embedding_params": "parameters of the input embedding table: vocab_size × hidden_size",
    "decode_params": "weights read per decode step at batch 1: the active parameters without "
                     "the input embedding table (a step reads one row of it per token; the LM "
                     "head is read in full). Tied embeddings are the LM head and stay counted",
    "expert_params": "parameters of one routed expert over all MoE layers: moe_layers × "
                     "expert_matrices (3 gated, 2 not; 3 when empty) × the width experts "
                     "work in (moe_hidden_size, LatentMoE's latent; hidden_size when "
                     "empty) × moe_intermediate_size (0 for dense models)",
    "kv_layers": "layers that keep a KV cache: the attention layers of a hybrid model "
                 "(linear-attention or Mamba layers keep a fixed state instead), the layers "
                 "before the KV-shared ones (Gemma 4 E2B: num_kv_shared_layers 20 of 35 reuse "
                 "an earlier layer's); num_layers when the row leaves it empty",
    "per_layer_embedding_params": "parameters of the per-layer embedding table (Gemma 4 "
                                  "E2B, E4B): vocab_size_per_layer_input × layers × "
                                  "hidden_size_per_layer_input; in params, not in "
                                  "active_params (a token looks up its rows, multiplies "
                                  "none), nor in the weights a step reads; 0 for most",
    "recurrent_state_bytes": "fixed state each sequence keeps in the linear-attention or "
                             "Mamba layers, bytes, whatever its context (0 for a "
                             "transformer)",
    "attention": "MHA, GQA, MLA, or with sliding window",
    "kv_bytes_per_token": "KV cache bytes per token in BF16, full context, over the layers "
                          "that keep one (see kv_note)",
    "kv_note": "how kv_bytes_per_token was computed and where it over-counts",
    "checkpoint_gb": "weights as the checkpoint stores them, GB, each part in its own "
                     "precision (data/checkpoints.csv: routed experts, the rest, embeddings "
                     "and LM head); empty for a model without such a row",
    "checkpoint_decode_gb": "weights a decode step reads at batch 1, GB, in the checkpoint's "
                            "precisions: the active experts, the rest, the LM head",
    "kept_params": "parameters the model's quantized checkpoint keeps in BF16, from "
                   "data/checkpoints.csv (FP8 checkpoints: the embedding and LM head; "
                   "gpt-oss: all but the routed experts); 0 for a model without a row; "
                   "WEIGHT_GB's kept_params",
    "kept_decode_params": "of kept_params, those a decode step reads (the LM head, and "
                          "the kept parts of each layer)",
}
