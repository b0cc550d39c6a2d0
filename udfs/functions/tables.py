"""Excel functions of ``udfs.inference.tables``: figures from the built-in GPU and model tables."""

from __future__ import annotations

from ..inference import tables
from ..machinery.broadcast import guard, map_elements
from ..machinery.declare import declare, raw
from ..machinery.errors import as_excel_error, na_error, value_error
from ..machinery.explain import show


def _spec(lookup, what):
    def one(name, field):
        for label, v in (("name", name), ("field", field)):
            err = as_excel_error(v)
            if err is not None:
                raise err
            if v is None or (isinstance(v, str) and not v.strip()):
                raise na_error(f"{label} is empty: expected a {what} {label}")
            if not isinstance(v, str):
                raise value_error(f"{label}: expected text, got {v!r}")
        return lookup(name, field)
    return one


def _explain(w):
    return (f"{w.raw['name']} / {w.raw['field']} = {show(w.result)} "
            "(built-in table, see its source_url)")


declare(
    "GPU_SPEC",
    "A figure from the built-in GPU table (dense TFLOPS, GB of 10^9 bytes, TB/s), with its source. An empty figure is #N/A. GPU_SPEC(\"H100\",\"bandwidth\") = 3.35.",  # noqa: E501
    raw("name", "GPU name from the built-in table: 'H100 SXM', 'h100', 'MI300X', 'B200'..."),
    raw("field", "memory_GB, memory_bandwidth_TBps, bf16_dense_TFLOPS, fp8_dense_TFLOPS, tdp_W, source_url... (or memory, bandwidth, bf16, fp8)."),  # noqa: E501
    call=lambda name, field: guard(lambda: map_elements(
        _spec(tables.gpu_spec, "GPU"), [("name", name), ("field", field)])),
    explain=_explain,
    example=('=GPU_SPEC("H100","bandwidth")', "3.35"),
    native_table="gpus",
    native_note=("Names as the GPU table or its aliases spell them, in any letter case (and the"
                 " spellings the workbook held when it was translated); napkin's partial names "
                 "('h100 sx') are not matched. The field must be constant text. A number as the"
                 " name gives #N/A (the function: #VALUE!)."),
)

declare(
    "MODEL_SPEC",
    "A figure from the built-in model table, or a derived one: params, active_params, decode_params (weights read per decode step), kv_bytes_per_token. MODEL_SPEC(\"Llama 3.1 8B\",\"params\") = 8.03E+9.",  # noqa: E501
    raw("name", "Model name from the built-in table: 'Llama 3.1 70B', 'qwen3 8b', 'DeepSeek-V3'..."),  # noqa: E501
    raw("field", "total_params_B, num_layers, head_dim, params, active_params, decode_params, expert_params, num_experts, experts_per_token, kv_bytes_per_token, kv_layers, recurrent_state_bytes, kept_params, per_layer_embedding_params, source_url..."),  # noqa: E501
    call=lambda name, field: guard(lambda: map_elements(
        _spec(tables.model_spec, "model"), [("name", name), ("field", field)])),
    explain=_explain,
    example=('=MODEL_SPEC("DeepSeek-V3","kv_bytes_per_token")', "70272"),
    native_table="models",
    native_note=("Names as the model table or its aliases spell them, in any letter case (and "
                 "the spellings the workbook held when it was translated); partial names are "
                 "not matched. The field must be constant text. A number as the name gives #N/A"
                 " (the function: #VALUE!)."),
)
