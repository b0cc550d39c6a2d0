"""What speculative decoding adds to a decode step, as formula text every sheet shares.

With a draft of k tokens (``SCENARIO_DRAFT_TOKENS``: MTP, EAGLE, a draft model) each
step runs k draft passes, then verifies the k drafts and one more token of every
sequence in one pass of the main model [1, 2]. The verifying pass multiplies the weights
by B × (k + 1) tokens, not B: its FLOPs, the experts those tokens route to, the
attention's products and the activations the all-reduces carry all grow with it; the KV
cache it reads is still the B sequences' own (each read once for its k + 1 queries). The
step then yields the accepted tokens, ``SCENARIO_TOKENS_PER_STEP`` (at most k + 1), and
each draft pass is one more layer's kernels (an MTP module, an EAGLE head: one
transformer layer [1, 2]), so the layers' time counts k more layers. A separate draft
model's own layers and weights are not counted: the step stays a floor.

References
----------
.. [1] DeepSeek-AI, "DeepSeek-V3 Technical Report", arXiv:2412.19437, 2024, §2.2 (the
   MTP module: one transformer block, with the embedding and output head shared).
.. [2] NVIDIA TensorRT-LLM team, "DeepSeek R1 MTP Implementation and Optimization",
   2025 (MTP Eagle: one MTP module called k times; the main model takes k + 1 input
   tokens a sequence in the generation phase).
"""

from __future__ import annotations

from workbook.expr import Expr, Name, of

#: The scenario's draft length, k (Sizing's input: a defined name).
DRAFT = "SCENARIO_DRAFT_TOKENS"
DRAFT_TOKENS = Name(DRAFT)


def verified(batch: str | Expr, draft: str | Expr = DRAFT_TOKENS) -> Expr:
    """The tokens one step's verifying pass computes for ``batch`` sequences with ``draft``
    draft tokens, k (expressions, or formula text; default the scenario's): B × (k + 1),
    B without speculation (k = 0)."""
    return of(batch) * (1 + of(draft))


def layers_run(layers: str | Expr) -> Expr:
    """The layers whose kernels one step runs: the model's ``layers`` plus one a draft
    pass, L + k."""
    return of(layers) + DRAFT_TOKENS
