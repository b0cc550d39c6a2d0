"""The LLM-inference formulas and the tables they read: one module per topic.

memory (does it fit: weights, KV cache), timing (the decode and prefill floors), roofline,
serving (batches, parallelism, speculative decoding, traffic), speedup (Amdahl), cost,
finance, energy, regimes (the efficiency a deployment reaches), interconnects (the
all-reduce's latency), precisions (bytes per parameter of a number format), checkpoints
(the parts of a mixed-precision checkpoint), tables (the built-in GPU and model tables),
model_fields, model_reads (a model named instead of counted), constants (hours, seconds).

Plain arithmetic over floats or arrays, each with a pvlib-style docstring (parameters with
units, the formula, references). They import ``udfs.machinery`` (argument readers, errors,
``xp``) and each other, never ``udfs.functions`` or ``udfs.catalog``.
"""
