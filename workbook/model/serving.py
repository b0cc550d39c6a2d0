"""What a decode step carries in real serving, once, as formula expressions every sheet
uses (Sizing, Cost, Frontier, Plan): the context its KV read sees, the prompt tokens of
arriving requests it prefills, the tokens its matmuls compute, the context its queries
attend to, and the copies of the KV cache a tensor-parallel stage reads.

**Mean context.** A sequence that arrives with P prompt tokens and leaves after O
output tokens holds P + t tokens at its t-th decode step: over its life the KV cache a
step reads is P + O ÷ 2 tokens on average. Memory must hold the full P + O (the last
step), the step reads the mean. The efficiency anchors (``udfs/data/efficiency.csv``)
are made from measurement floors at the mean context, so the template's step uses it
too.

**Prefill in aggregated serving.** Where prefill and decode share the GPUs (vLLM,
SGLang and TensorRT-LLM by default, with chunked prefill [1, 2]), each request's P
prompt tokens are computed in the decode steps of its neighbours; in steady state every
step carries, on average, B × P ÷ O prompt tokens beside its B decoded ones (one
request leaves, and one arrives, every O ÷ B steps). Their matmuls (2 × active
parameters FLOPs a token) and the activations the all-reduces carry are the step's; each
attends to P ÷ 2 earlier prompt tokens on average (causal mask). The experts of a
mixture that a prompt's tokens pick are left out: a prompt is prefilled in one chunk
(or a few), which reads its experts once in O ÷ B steps, not P ÷ O tokens' worth every
step; the step counts the experts its decoded tokens pick (a floor). With disaggregated
serving (prefill on other GPUs [3]) the decode GPUs carry none: ``SCENARIO_SERVING``
says which.

**The KV cache under tensor parallelism.** A stage of g GPUs splits the KV heads
among them; with fewer KV heads than GPUs each head is held, and read, by g ÷ H of
them. Multi-head latent attention caches one latent vector a token (H = 1): every GPU
of a tensor-parallel attention holds and reads the whole latent cache [4]. With the
attention data parallel (expert parallelism) each GPU holds its own sequences': one
copy.

References
----------
.. [1] A. Agrawal et al., "Taming Throughput-Latency Tradeoff in LLM Inference with
   Sarathi-Serve", OSDI 2024 (chunked prefill: prompt chunks in decode batches).
.. [2] vLLM documentation, "Optimization and Tuning: chunked prefill" (on by default
   since v0.6 for the V1 engine).
.. [3] Y. Zhong et al., "DistServe: Disaggregating Prefill and Decoding for
   Goodput-optimized Large Language Model Serving", OSDI 2024.
.. [4] SGLang documentation, "Data Parallelism Attention" (and the LMSYS blog "SGLang
   v0.4", 2024-12-04): MLA models have one KV head, so with tensor parallelism the KV
   cache is duplicated across all GPUs; data-parallel attention keeps one copy.
"""

from __future__ import annotations

from workbook.expr import Column, Expr, F, Name, Text, of
from workbook.model.step import sliding_share

#: The scenario's serving input (``workbook.scenario``): prefill on the decode GPUs or not.
SERVING = Name("SCENARIO_SERVING")
#: Its choices: "aggregated" (prefill and decode share the GPUs: the default of vLLM,
#: SGLang and TensorRT-LLM), "disaggregated" (prefill on other GPUs).
SERVING_CHOICES = ("aggregated", "disaggregated")
PROMPT, OUTPUT = Name("SCENARIO_PROMPT_TOKENS"), Name("SCENARIO_OUTPUT_TOKENS")
DRAFT = Name("SCENARIO_DRAFT_TOKENS")
MODEL_KV_HEADS, MODEL_ATTENTION = Column("MODEL_KV_HEADS"), Column("MODEL_ATTENTION")


def mean_context(prompt=PROMPT, output=OUTPUT) -> Expr:
    """The tokens a sequence's KV cache holds on average over its decode steps: P + O ÷ 2
    (``prompt`` P, ``output`` O; default the scenario's). 2,000 + 300 ÷ 2 = 2,150."""
    return of(prompt) + of(output) / 2


def prefill_share(prompt=PROMPT, output=OUTPUT, serving=SERVING) -> Expr:
    """Prompt tokens a decode step carries per sequence decoded: P ÷ O in aggregated
    serving, 0 in disaggregated (``serving`` "disaggregated") or without output tokens.
    The scenario's 2,000 ÷ 300 = 6.67."""
    o = of(output)
    return F.IF(of(serving).eq(Text("disaggregated")), 0,
                F.IF(o.gt(0), of(prompt) / o, 0))


def step_tokens(batch, draft=DRAFT, share=None) -> Expr:
    """The tokens a step's matmuls compute for ``batch`` sequences: each verifies
    ``draft`` + 1 tokens (speculative decoding, ``workbook.speculation``) and carries
    ``share`` prompt tokens (``prefill_share``; default the scenario's):
    B × (k + 1 + P ÷ O). The scenario's 16 × (0 + 1 + 6.67) = 122.7."""
    share = prefill_share() if share is None else of(share)
    return of(batch) * (1 + of(draft) + share)


def attended_per_sequence(context=None, draft=DRAFT, share=None, prompt=PROMPT) -> Expr:
    """The cached tokens all of one sequence's queries in a step attend to together: its
    k + 1 verified tokens over the mean ``context`` (``mean_context``) and its ``share``
    prompt tokens (``prefill_share``) over P ÷ 2 each (a causal mask): (k + 1) × T̄ +
    share × P ÷ 2. DECODE_ATTENTION_FLOP(layers, dim, this, batch) is then the step's
    attention, FLOPs being linear in both. The scenario's 1 × 2,150 + 6.67 × 1,000 =
    8,816.7."""
    context = mean_context() if context is None else of(context)
    share = prefill_share() if share is None else of(share)
    return (1 + of(draft)) * context + share * (of(prompt) / 2)


def kv_copies(row, stage_gpus, expert_parallel) -> Expr:
    """How many times the GPUs of a stage together hold and read the KV cache of the model
    in ``row`` of the Models table: g ÷ MIN(g, H), H its KV heads (1 for MLA: one latent
    vector a token), g the stage's ``stage_gpus``; 1 where ``expert_parallel`` is 1 (the
    attention data parallel). Llama 3.1 70B (8 KV heads) on TP 8: 1; DeepSeek-R1 (MLA)
    on TP 8: 8."""
    r, g = of(row), of(stage_gpus)
    heads = F.IF(MODEL_ATTENTION.at(r).eq(Text("MLA")), 1, MODEL_KV_HEADS.at(r))
    # MIN(g, H) said as IF, so that an array formula over a column of g takes it per element
    return F.IF(of(expert_parallel).eq(1), 1, g / F.IF(g.lt(heads), g, heads))


def kv_sequence_gb(kv_bytes, kv_precision, context, sliding, window, kv_heads, head_dim,
                   state_bytes) -> Expr:
    """The KV cache of one sequence at ``context`` tokens [GB]: ``kv_bytes`` (the Models
    table's bytes a token over all layers in BF16, right for GQA, MLA and mixed layers) ×
    BYTES_PER_PARAM(``kv_precision``) ÷ 2 × the tokens, less the share its
    ``sliding``-window layers (of ``kv_heads`` × ``head_dim``) drop past ``window``
    tokens (``workbook.model.step.sliding_share``), + the fixed ``state_bytes`` of linear
    attention or Mamba layers. Plan's "KV cache per sequence" at the full context;
    Sizing's step reads it at the mean context."""
    ctx = of(context)
    share = sliding_share(sliding, kv_heads, head_dim, kv_bytes)
    return (of(kv_bytes) * F.BYTES_PER_PARAM(of(kv_precision)) / 2 * ctx
            * F.IF(of(sliding).eq(0), 1, 1 - share * F.MAX(0, ctx - of(window)) / ctx)
            / 1000000000 + of(state_bytes) / 1000000000)


def step_kv_gb(row, kv_sequence_gb, batch, stage_gpus, expert_parallel) -> Expr:
    """The KV cache a step reads, all GPUs of the replica together [GB]: ``batch``
    sequences × ``kv_sequence_gb`` (one sequence's at the mean context) × ``kv_copies``."""
    return of(batch) * of(kv_sequence_gb) * kv_copies(row, stage_gpus, expert_parallel)


__all__ = ["SERVING", "SERVING_CHOICES", "mean_context", "prefill_share", "step_tokens",
           "attended_per_sequence", "kv_copies", "kv_sequence_gb", "step_kv_gb"]
