"""The decode step of a replica per output token, once, assembled from its terms
(``workbook.model.step``, ``workbook.model.serving``) for the sheets that compute it for
a GPU other than the scenario's own cells: Cost (one row a GPU) and Frontier (one row a
batch). Sizing lays the same terms out as rows of its own.

.. math:: s = \\frac{\\mathrm{DECODE\\_STEP\\_MS}(W, B \\cdot K \\cdot c, b_w, A, T, R,
   F_{att}, g, C, p)}{\\tau}

W the weights the step reads (``read_weights`` of the billions read at the batch), B the
batch, K one sequence's KV cache at the mean context and c the copies a stage of g ÷ p
GPUs holds (``step_kv_gb``), b_w one GPU's bandwidth, A the active parameters, T the
tokens the step computes (``step_tokens``), R the compute roof, F_att the attention
FLOPs, g the GPUs per replica in p pipeline stages, C the all-reduces of a micro-batch
(``stage_comm``), τ the tokens a step yields (SCENARIO_TOKENS_PER_STEP).
"""

from __future__ import annotations

from workbook.expr import Expr, Name, of
from workbook.model.serving import step_kv_gb
from workbook.model.step import expert_parallel, read_weights, stage_comm, step_floor

#: The tokens a step yields per sequence (speculative decoding: the accepted ones).
TOKENS_PER_STEP = Name("SCENARIO_TOKENS_PER_STEP")


def floor_per_token(row, read_b, precision, kv_sequence_gb, batch, tokens, bandwidth,
                    active_b, roof, attention_flop, gpus, stages, hidden, layers,
                    link, domain=None) -> Expr:
    """The step floor per output token [ms] of a replica of ``gpus`` GPUs (``bandwidth``
    TB/s and ``roof`` TFLOPS each, interconnect figure ``link``) in ``stages`` pipeline
    stages serving the model in ``row`` of the Models table: ``read_b`` billion weights in
    ``precision`` read a step, ``batch`` sequences of ``kv_sequence_gb`` each, ``tokens``
    computed, ``active_b`` billion active parameters, ``attention_flop``, the model's
    ``hidden`` size and ``layers`` (the all-reduces, past the GPU's scale-up ``domain``
    over PCIe or the network: ``workbook.model.step.tp_comm``); ÷
    SCENARIO_TOKENS_PER_STEP."""
    stage = of(gpus) / of(stages)  # the GPUs of a stage: the degree of its all-reduces
    parallel = expert_parallel(row, stage)
    comm = stage_comm(row, hidden, layers, tokens, gpus, stages, link, domain=domain)
    kv = step_kv_gb(row, kv_sequence_gb, batch, stage, parallel)  # the stage's copies
    return step_floor(read_weights(read_b, precision, row), kv, bandwidth,
                      of(active_b) * 1000000000, tokens, roof, attention_flop, gpus, comm,
                      stages) / TOKENS_PER_STEP


__all__ = ["TOKENS_PER_STEP", "floor_per_token"]
