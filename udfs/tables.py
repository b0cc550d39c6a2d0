"""The built-in GPU and model tables (``data/gpus.csv``, ``data/models.csv``).

The rows are those of ``../shared/data/`` (gathered 2026-11, each with its source and
notes); an empty cell means no trustworthy figure was found and reads as ``#N/A``, never
as 0. Units are those of the column names: ``memory_GB`` decimal GB,
``memory_bandwidth_TBps`` TB/s, FLOPS columns dense TFLOPS (no 2:4 sparsity),
``total_params_B`` billions of parameters.

Names match leniently: case, spaces and punctuation are ignored, and a part of a name
matches when it points at one row only ("h100 sxm", "MI300X", "llama-3.1-70b"). An alias
table (``data/aliases.csv``) settles a few common short names ("H100" is the SXM part).
A name that fits several rows is ``#N/A`` with the candidates in the message.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from functools import cache
from importlib import resources

from .errors import ExcelError, na_error

GPU_FIELD_ALIASES = {
    "memory": "memory_GB", "capacity": "memory_GB", "memory_gb": "memory_GB",
    "bandwidth": "memory_bandwidth_TBps", "bw": "memory_bandwidth_TBps",
    "bf16": "bf16_dense_TFLOPS", "fp16": "fp16_dense_TFLOPS", "fp8": "fp8_dense_TFLOPS",
    "int8": "int8_dense_TOPS", "fp4": "fp4_dense_TFLOPS", "tdp": "tdp_W", "power": "tdp_W",
    "interconnect": "interconnect_GBps", "nvlink": "interconnect_GBps",
    "source": "source_url",
}
MODEL_FIELD_ALIASES = {
    "layers": "num_layers", "heads": "num_attention_heads", "kv_heads": "num_kv_heads",
    "hidden": "hidden_size", "context": "max_context", "source": "source_url",
    "experts": "num_experts",
}
#: Derived model fields: name -> (unit, meaning)
MODEL_DERIVED = {
    "params": "total parameters as a count (total_params_B × 10⁹)",
    "active_params": "active parameters per token as a count (active_params_B × 10⁹)",
    "attention": "MHA, GQA, MLA, or with sliding window",
    "kv_bytes_per_token": "KV cache bytes per token in BF16, full context (see kv_note)",
    "kv_note": "how kv_bytes_per_token was computed and where it over-counts",
}


def _read(name: str) -> list[dict]:
    text = (resources.files(__package__) / "data" / name).read_text("utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def _key(s: str) -> str:
    return re.sub(r"[^0-9a-z]", "", s.lower())


@cache
def gpus() -> dict[str, dict]:
    return {r["name"]: r for r in _read("gpus.csv")}


@cache
def models() -> dict[str, dict]:
    rows = {r["name"]: dict(r) for r in _read("models.csv")}
    attention = {r["name"]: r for r in _read("attention.csv")}
    for name, r in rows.items():
        a = attention.get(name)
        if a and a["kv_elements_per_layer"]:
            per_layer = float(a["kv_elements_per_layer"])
        else:
            per_layer = 2 * float(r["num_kv_heads"]) * float(r["head_dim"])
        kv_heads, heads = float(r["num_kv_heads"]), float(r["num_attention_heads"])
        r["attention"] = a["attention"] if a else ("MHA" if kv_heads == heads else "GQA")
        r["kv_bytes_per_token"] = str(int(float(r["num_layers"]) * per_layer * 2))
        r["kv_note"] = a["notes"] if a else (
            "2 × layers × kv_heads × head_dim × 2 bytes (BF16): exact for MHA and GQA")
        r["sliding_window"] = a["sliding_window"] if a else ""
        r["sliding_layers"] = a["sliding_layers"] if a else ""
        # exact decimal scaling: 8.03 × 1e9 in floats is 8029999999.999999
        r["params"] = str(Decimal(r["total_params_B"]) * 10**9)
        r["active_params"] = str(Decimal(r["active_params_B"]) * 10**9)
    return rows


@cache
def _aliases(table: str) -> dict[str, str]:
    return {_key(r["alias"]): r["name"] for r in _read("aliases.csv") if r["table"] == table}


def _word_suffixes(name: str) -> list[str]:
    """Keys of the name from each word on: "NVIDIA GB200 (per GPU)" gives
    nvidiagb200pergpu, gb200pergpu, pergpu, gpu. A query matches from a word start, so
    "B200" does not match "GB200"."""
    words = re.findall(r"[0-9A-Za-z]+", name)
    return [_key("".join(words[i:])) for i in range(len(words))]


_VENDORS = re.compile(r"^(nvidia|amd|instinct|google|intel)+")
_ORG = re.compile(r"^[\w.-]+/")  # "meta-llama/Llama-3.1-8B": a Hugging Face repo id
_VARIANT = re.compile(r"(instruct|chat|base|hf|it)$")  # "...-Instruct": same architecture


def match(query: str, rows: dict[str, dict], table: str, what: str) -> str:
    """The row name that ``query`` names, or raise ``#N/A`` naming the candidates.

    Tried in order: the whole name (case, spaces, punctuation ignored); an alias; a part of
    one name from a word start; then again without a vendor prefix ("NVIDIA H100"), a
    repository prefix ("meta-llama/") or a variant suffix ("-Instruct", "-chat", "-it"),
    which do not change the figures in these tables.
    """
    q = _key(query)
    if not q:
        raise na_error(f"{what} is empty: expected a name from the {table} table")
    try:
        return _match_key(q, query, rows, table, what)
    except ExcelError as first:
        trimmed = _VARIANT.sub("", _VENDORS.sub("", _key(_ORG.sub("", query.strip()))))
        if trimmed and trimmed != q:
            try:
                return _match_key(trimmed, query, rows, table, what)
            except ExcelError:
                pass
        raise first


def _match_key(q: str, query: str, rows: dict[str, dict], table: str, what: str) -> str:
    keys = {_key(n): n for n in rows}
    if q in keys:
        return keys[q]
    alias = _aliases(table).get(q)
    if alias:
        return alias
    hits = [n for n in rows if any(k.startswith(q) for k in _word_suffixes(n))]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise na_error(f"{what}: {query!r} fits {len(hits)} rows ({'; '.join(hits)}); "
                       "give more of the name")
    raise na_error(f"{what}: no {table[:-1]} named {query!r} in the built-in table")


def field_value(row: dict, field: str, aliases: dict[str, str], row_name: str, what: str):
    """The value of ``field`` in ``row``: a float for figures, text otherwise."""
    fields = {_key(c): c for c in row}
    fields.update({_key(a): c for a, c in aliases.items()})
    column = fields.get(_key(field))
    if column is None:
        raise na_error(f"{what}: unknown field {field!r}; fields: {', '.join(row)}")
    raw = (row[column] or "").strip()
    if raw == "":
        raise na_error(f"{what}: the table has no {column} for {row_name} "
                       "(left empty: no trustworthy source)")
    try:
        return float(raw)
    except ValueError:
        return raw


def gpu_spec(name: str, field: str):
    """A field of a GPU row (see module docstring for units and matching)."""
    row = match(name, gpus(), "gpus", "name")
    return field_value(gpus()[row], field, GPU_FIELD_ALIASES, row, "field")


def model_spec(name: str, field: str):
    """A field of a model row, including the derived fields of ``MODEL_DERIVED``."""
    row = match(name, models(), "models", "name")
    return field_value(models()[row], field, MODEL_FIELD_ALIASES, row, "field")
