"""The built-in GPU and model tables (``data/gpus.csv``, ``data/models.csv``).

Every row carries its source (``source_url``, ``notes``: the vendor datasheet or the
model's ``config.json``, checked 2026-11); an empty cell means no trustworthy figure was
found and reads as ``#N/A``, never as 0. Units are those of the column names:
``memory_GB`` GB (10⁹ bytes) in every row, ``memory_bandwidth_TBps`` TB/s, FLOPS columns
dense TFLOPS (no 2:4 sparsity), ``total_params_B`` billions of parameters. NVIDIA, AMD and
Intel state memory in GB; where a vendor states GiB (2³⁰ bytes: Google's TPU v5p, v6e and
TPU7x, AWS's Trainium2 and Trainium3) the row holds the figure × 1.073741824 and its
``notes`` say so.

Names match as people type them (see ``match``): case, spaces and punctuation are
ignored; an exact name wins ("H20" is not the H200); a part of a name matches when it
points at one row only ("h100 sxm", "MI300X", "llama-3.1-70b"); an alias table
(``data/aliases.csv``) settles common short names ("H100" is the SXM part) and the names
``nvidia-smi`` prints; Hugging Face repository ids resolve to the row read from that
repository ("meta-llama/Meta-Llama-3.1-8B-Instruct"). A name that fits several rows is
``#N/A`` with the candidates in the message; one that fits none suggests the closest.

References
----------
.. [1] The source of each GPU row (its ``source_url``): the vendor's datasheet, or a copy
   of it where the vendor no longer publishes one; e.g. NVIDIA H100 Tensor Core GPU
   datasheet: 80 GB HBM3, 3.35 TB/s, 989 dense BF16 TFLOPS (SXM).
.. [2] Each model's ``config.json`` on Hugging Face (its ``source_url``), e.g.
   meta-llama/Llama-3.1-8B: 32 layers, 8 KV heads, head dimension 128, vocabulary
   128,256, hidden size 4,096.
.. [3] DeepSeek-AI (2024), "DeepSeek-V3 Technical Report", arXiv:2412.19437: multi-head
   latent attention caches one 512 + 64 = 576-element latent per layer and token.
.. [4] kipply (2022), "Transformer Inference Arithmetic",
   https://kipp.ly/transformer-inference-arithmetic/ (the KV cache per token).
.. [5] Qwen/Qwen3-Next-80B-A3B-Instruct ``config.json``: full_attention_interval 4, so 12
   of 48 layers attend over the context and keep a KV cache; the other 36 (Gated
   DeltaNet) keep a fixed state per sequence.
.. [6] nvidia/Gemma-4-31B-IT-NVFP4 ``config.json`` (the shapes of google/gemma-4-31B-it):
   text_config layer_types, num_key_value_heads 16 × head_dim 256 in the sliding-window
   layers, num_global_key_value_heads 4 × global_head_dim 512 in the global ones.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from functools import cache
from importlib import resources

from ..machinery.errors import ExcelError, na_error
from .checkpoints import checkpoint_fields
from .model_fields import MODEL_DERIVED  # noqa: F401 (the fields MODEL_SPEC derives)

GPU_FIELD_ALIASES = {
    "memory": "memory_GB", "capacity": "memory_GB", "memory_gb": "memory_GB",
    "bandwidth": "memory_bandwidth_TBps", "bw": "memory_bandwidth_TBps",
    "bf16": "bf16_dense_TFLOPS", "fp16": "fp16_dense_TFLOPS", "fp8": "fp8_dense_TFLOPS",
    "int8": "int8_dense_TOPS", "fp4": "fp4_dense_TFLOPS", "tdp": "tdp_W", "power": "tdp_W",
    "interconnect": "interconnect_GBps", "nvlink": "interconnect_GBps",
    "domain": "scaleup_domain_gpus", "scaleup_domain": "scaleup_domain_gpus",
    "source": "source_url",
}
MODEL_FIELD_ALIASES = {
    "layers": "num_layers", "heads": "num_attention_heads", "kv_heads": "num_kv_heads",
    "hidden": "hidden_size", "context": "max_context", "source": "source_url",
    "experts": "num_experts", "routed_experts": "num_experts", "top_k": "experts_per_token",
    "shared_experts": "num_shared_experts", "tied": "tie_word_embeddings",
    "state_bytes": "recurrent_state_bytes", "recurrent_state": "recurrent_state_bytes",
}


def read_data(name: str) -> list[dict]:
    """The rows of ``data/<name>`` (a CSV file with a header), as dicts of text."""
    text = (resources.files("udfs") / "data" / name).read_text("utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def name_key(s: str) -> str:
    """The matching key of a name: lower case, letters and digits only ("H100 SXM" →
    "h100sxm")."""
    return re.sub(r"[^0-9a-z]", "", s.lower())


@cache
def gpus() -> dict[str, dict]:
    """The GPU table, ``data/gpus.csv``, read once.

    Returns
    -------
    dict: row name → row (column → text). Units are the columns' own: ``memory_GB`` GB
    (10⁹ bytes; a vendor's GiB converted),
    ``memory_bandwidth_TBps`` TB/s, ``*_dense_TFLOPS`` TFLOPS without sparsity,
    ``tdp_W`` W, ``interconnect_GBps`` GB/s, ``scaleup_domain_gpus`` the GPUs its
    scale-up link joins (an HGX board's NVLink 8, an NVL72 rack 72, 1 without a link;
    ``scaleup_domain_source`` says where from). The H100 SXM: 80 GB, 3.35 TB/s [1].
    """
    return {r["name"]: r for r in read_data("gpus.csv")}


@cache
def models() -> dict[str, dict]:
    """The model table, ``data/models.csv``, with the attention table
    (``data/attention.csv``) and the derived fields of ``MODEL_DERIVED``, read once.

    .. math:: KV_{token} = L_{kv} \\cdot e_{layer} \\cdot 2 \\text{ B}, \\quad
              e_{layer} = 2 \\cdot H_{kv} \\cdot d_{head}

    with L_kv the layers that keep a KV cache (``kv_layers``: all of them unless the row
    names fewer, the attention layers of a hybrid model [5]), e_layer the cached elements
    per layer and token (from the attention table where the model caches something else:
    MLA's latent, a sliding window), 2 bytes per element (BF16) [4].

    Returns
    -------
    dict: row name → row (column → text). Llama 3.1 8B: 32 × (2 × 8 × 128) × 2 B =
    131,072 B per token [2]; DeepSeek-V3: 61 × 576 × 2 B = 70,272 B per token [3].
    ``params`` is ``total_params_B`` × 10⁹ in exact decimal (8.03 → 8030000000).
    """
    rows = {r["name"]: dict(r) for r in read_data("models.csv")}
    attention = {r["name"]: r for r in read_data("attention.csv")}
    checkpoints = {r["name"]: r for r in read_data("checkpoints.csv")}
    for name, r in rows.items():
        a = attention.get(name)
        if a and a["kv_elements_per_layer"]:
            per_layer = float(a["kv_elements_per_layer"])
        else:
            per_layer = 2 * float(r["num_kv_heads"]) * float(r["head_dim"])
        kv_heads, heads = float(r["num_kv_heads"]), float(r["num_attention_heads"])
        r["attention"] = a["attention"] if a else ("MHA" if kv_heads == heads else "GQA")
        r["kv_layers"] = r.get("kv_layers") or r["num_layers"]
        r["recurrent_state_bytes"] = r.get("recurrent_state_bytes") or "0"
        r["per_layer_embedding_params"] = r.get("per_layer_embedding_params") or "0"
        r["kv_bytes_per_token"] = str(int(_kv_elements(r, a, per_layer) * 2))
        r["kv_note"] = a["notes"] if a else (
            "2 × layers × kv_heads × head_dim × 2 bytes (BF16): exact for MHA and GQA")
        r["sliding_window"] = a["sliding_window"] if a else ""
        r["sliding_layers"] = a["sliding_layers"] if a else ""
        # exact decimal scaling: 8.03 × 1e9 in floats is 8029999999.999999
        r["params"] = str(Decimal(r["total_params_B"]) * 10**9)
        r["active_params"] = str(Decimal(r["active_params_B"]) * 10**9)
        r.update(_read_params(r))
        r.update(checkpoint_fields(r, checkpoints.get(name)))
    return rows


def _kv_elements(r: dict, a: dict | None, per_layer: float) -> float:
    """Elements each token caches over the layers that keep a KV cache: ``per_layer`` in
    each, or, where the attention table gives the global layers' own shape
    (``global_kv_elements_per_layer``, Gemma 4), ``per_layer`` in the sliding-window
    layers and that figure in the others.

    .. math:: e = S \\cdot e_{sliding} + (L_{kv} - S) \\cdot e_{global}

    Gemma 4 31B (config: 50 sliding layers of 16 KV heads × 256, 10 global layers of
    4 KV heads × 512) [6]: 50 × 8,192 + 10 × 4,096 = 450,560 elements a token.
    """
    layers = float(r["kv_layers"])
    glob = (a or {}).get("global_kv_elements_per_layer") or ""
    if not glob:
        return layers * per_layer
    sliding = float(a["sliding_layers"] or 0)
    return sliding * per_layer + (layers - sliding) * float(glob)


def _flag(text: str) -> bool:
    """A TRUE/FALSE cell of a table (empty is FALSE)."""
    return (text or "").strip().lower() == "true"


def _read_params(r: dict) -> dict:
    """Derived counts of what a decode step reads (see ``MODEL_DERIVED``).

    .. math:: E = V \\cdot h, \\quad
              P_{decode} = P_{active} - E \\;(\\text{untied}), \\quad
              P_{expert} = L_{moe} \\cdot m \\cdot h_{e} \\cdot h_{moe}

    Parameters
    ----------
    r : dict
        A model row: ``vocab_size`` V, ``hidden_size`` h, ``active_params`` (a count),
        ``tie_word_embeddings``, ``moe_layers`` L_moe, ``moe_intermediate_size`` h_moe
        (empty for dense models), ``moe_hidden_size`` (the latent width LatentMoE's
        experts work in, Nemotron 3 Super; h when empty) and ``expert_matrices`` m (3:
        gate, up and down projections, when empty; 2 for an expert without a gate,
        Nemotron's relu²).

    Returns
    -------
    dict of counts as text: ``embedding_params`` E, ``decode_params``, ``expert_params``.
    With tied embeddings, or an active count that already excludes the embedding,
    nothing is subtracted.

    Hand check, Llama 3.1 8B (config: vocab 128256, hidden 4096, untied) [2]: the
    embedding table is 128256 × 4096 = 525,336,576 parameters, so a decode step reads
    8.03e9 − 525,336,576 = 7,504,663,424 weights, 7.0 % fewer than all of them.
    DeepSeek-V3 (58 MoE layers, hidden 7168, expert width 2048) [3]: one routed expert
    over all layers is 58 × 3 × 7168 × 2048 = 2,554,331,136 parameters.
    """
    embedding = int(r["vocab_size"]) * int(r["hidden_size"])
    active = Decimal(r["active_params"])
    skip = 0 if _flag(r["tie_word_embeddings"]) or _flag(r.get("active_excludes_embedding"))\
        else embedding
    expert = 0
    if r["moe_layers"] and r["moe_intermediate_size"]:
        matrices = int(r.get("expert_matrices") or 3)
        width = int(r.get("moe_hidden_size") or r["hidden_size"])
        expert = int(r["moe_layers"]) * matrices * width * int(r["moe_intermediate_size"])
    return {"embedding_params": str(embedding), "decode_params": str(active - skip),
            "expert_params": str(expert)}


@cache
def _aliases(table: str) -> dict[str, str]:
    """Alias key → row name for ``table`` (``data/aliases.csv``)."""
    return {name_key(r["alias"]): r["name"] for r in read_data("aliases.csv")
            if r["table"] == table}


def _words(name: str) -> list[str]:
    """The words of a name, lower case: runs of letters and digits."""
    return [w.lower() for w in re.findall(r"[0-9A-Za-z]+", name)]


def _word_suffixes(name: str) -> list[str]:
    """Keys of the name from each word on: "NVIDIA GB200 (per GPU)" gives
    nvidiagb200pergpu, gb200pergpu, pergpu, gpu. A query matches from a word start, so
    "B200" does not match "GB200"."""
    words = _words(name)
    return ["".join(words[i:]) for i in range(len(words))]


def _word_spans(name: str) -> set[str]:
    """Keys of every run of whole words: "NVIDIA H100 NVL" gives h100, h100nvl, nvl..."""
    words = _words(name)
    return {"".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}


# Words that name a vendor or a product line, not a part: "NVIDIA H100", "Tesla T4",
# "NVIDIA GeForce RTX 4090", "meta-llama/Meta-Llama-3.1-8B".
_VENDOR_WORDS = {"nvidia", "amd", "instinct", "google", "intel", "tesla", "geforce", "meta"}
# Variant words of a Hugging Face repository name: fine-tunes of the same architecture,
# so the figures of these tables are the same ("...-Instruct", "-chat", "-it", "-hf").
_VARIANT_WORDS = {"instruct", "chat", "base", "hf", "it"}
_ORG = re.compile(r"^\s*[\w.-]+/(?=\S)")  # "meta-llama/Llama-3.1-8B": a Hugging Face repo id
# What a name may hold besides letters and digits: spaces and the punctuation of product
# names and repository ids. Anything else ("H100 😀") is not a typo to skip but an error.
_ALLOWED = re.compile(r"^[0-9A-Za-z\s\-_./()+:,'\"]*$")


def _trimmed(query: str) -> str:
    """The key of ``query`` without a repository prefix, vendor and variant words."""
    words = re.findall(r"[0-9A-Za-z]+", _ORG.sub("", query))
    words = [w for w in words if w.lower() not in _VENDOR_WORDS | _VARIANT_WORDS]
    return name_key("".join(words))


@cache
def _repo_keys(table: str) -> dict[str, str]:
    """Trimmed keys of the Hugging Face repository each model row was read from."""
    rows = models() if table == "models" else {}
    out = {}
    for name, r in rows.items():
        m = re.search(r"huggingface\.co/([\w.-]+/[\w.-]+)", r.get("source_url", ""))
        if m:
            out[_trimmed(m.group(1))] = name
    return out


#: Names already matched, per table content: {(table, its row names): {(query, what):
#: row name or the error raised}}. The row names are what a match reads of ``rows``, so a
#: table with a row added, removed or renamed is matched afresh.
_MATCHED: dict[tuple, dict[tuple[str, str], object]] = {}
_MATCHED_TABLES, _MATCHED_NAMES = 8, 4096  # bounds: the oldest table, or all names, go


def match(query: str, rows: dict[str, dict], table: str, what: str) -> str:
    """``match_name``, cached per table content (``_MATCHED``): the same name looked up
    again in the same table (2,000 ``GPU_SPEC("H100",…)`` cells) is matched once."""
    key = (table, tuple(rows))
    seen = _MATCHED.get(key)
    if seen is None:
        if len(_MATCHED) >= _MATCHED_TABLES:
            del _MATCHED[next(iter(_MATCHED))]
        seen = _MATCHED[key] = {}
    found = seen.get((query, what))
    if found is None:
        try:
            found = match_name(query, rows, table, what)
        except ExcelError as e:
            found = e
        if len(seen) >= _MATCHED_NAMES:
            seen.clear()
        seen[(query, what)] = found
    if isinstance(found, ExcelError):
        raise ExcelError(found.code, found.message)
    return found


def match_name(query: str, rows: dict[str, dict], table: str, what: str) -> str:
    """The row name that ``query`` names, or raise ``#N/A`` with the closest rows.

    Tried in order, first on the name as typed, then without a repository prefix
    ("meta-llama/"), vendor words ("NVIDIA", "Tesla", "Meta") and variant words
    ("-Instruct", "-chat", "-it"), which do not change the figures in these tables:
    the whole name (case, spaces, punctuation ignored); an alias (``data/aliases.csv``:
    short names and the names ``nvidia-smi`` prints); the Hugging Face repository a
    model row was read from; whole words of one name (so "H20" is the H20, not the H200,
    and "L4" the L4, not the L40S); the start of one name from a word start. A name with
    characters that are not part of any name ("H100 😀") is an error, never skipped.

    Parameters
    ----------
    query : str
        The name as typed ("h100 sxm", "MI300X", "meta-llama/Llama-3.1-8B-Instruct").
    rows : dict
        The table, ``gpus`` or ``models``.
    table : str
        ``"gpus"`` or ``"models"`` (for aliases and messages).
    what : str
        The argument's name, for messages.

    Returns
    -------
    str: the row name. ``match("h100 sxm", gpus(), "gpus", "name")`` = "NVIDIA H100 SXM".

    Raises
    ------
    ExcelError
        ``#N/A`` naming ``what``: an empty name, characters no name has, a name that fits
        several rows (listed), or none (the closest suggested).
    """
    text = query.strip()
    if not name_key(text):
        raise na_error(f"{what} is empty: expected a name from the {table} table")
    if not _ALLOWED.match(text):
        odd = "".join(dict.fromkeys(c for c in text if not _ALLOWED.match(c)))
        raise na_error(f"{what}: {query!r} has characters no {table[:-1]} name has "
                       f"({odd!r}){_suggest(name_key(text), rows, table)}")
    first = None
    for q in dict.fromkeys((name_key(text), _trimmed(text))):
        if not q:
            continue
        try:
            return _match_key(q, query, rows, table, what)
        except ExcelError as e:
            first = first or e
    raise first


def _match_key(q: str, query: str, rows: dict[str, dict], table: str, what: str) -> str:
    keys = {name_key(n): n for n in rows}
    if q in keys:
        return keys[q]
    alias = _aliases(table).get(q) or _repo_keys(table).get(q)
    if alias:
        return alias
    for hits in ([n for n in rows if q in _word_spans(n)],
                 [n for n in rows if any(k.startswith(q) for k in _word_suffixes(n))]):
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise na_error(f"{what}: {query!r} fits {len(hits)} rows ({'; '.join(hits)}); "
                           "give more of the name")
    raise na_error(f"{what}: no {table[:-1]} named {query!r} in the built-in table"
                   f"{_suggest(q, rows, table)}")


def _suggest(q: str, rows: dict[str, dict], table: str) -> str:
    """"; did you mean A, B or C?" with the rows whose names are closest to ``q``."""
    import difflib

    names = {name_key(n): n for n in rows}
    names.update({a: n for a, n in _aliases(table).items() if n in rows})
    for n in rows:  # "H900" is near "h100", a word of "NVIDIA H100 SXM"
        for k in _word_suffixes(n):
            names.setdefault(k, n)
    close = difflib.get_close_matches(q, list(names), n=12, cutoff=0.5)
    picks = list(dict.fromkeys(names[k] for k in close))[:3]
    if not picks:
        return ""
    listed = ", ".join(picks[:-1]) + (" or " if len(picks) > 1 else "") + picks[-1]
    return f"; did you mean {listed}?"


def field_value(row: dict, field: str, aliases: dict[str, str], row_name: str, what: str):
    """The value of ``field`` in ``row``: a float for figures, text otherwise.

    Parameters
    ----------
    row : dict
        A row of ``gpus`` or ``models``.
    field : str
        A column name or an alias of one, matched as ``name_key`` reads it ("bandwidth",
        "memory_GB", "kv_heads").
    aliases : dict
        Alias → column (``GPU_FIELD_ALIASES``, ``MODEL_FIELD_ALIASES``).
    row_name, what : str
        The row's name and the argument's name, for messages.

    Returns
    -------
    float in the column's unit (see ``gpus``, ``MODEL_DERIVED``), or text.

    Raises
    ------
    ExcelError
        ``#N/A``: an unknown field (the fields are listed), or an empty cell: no
        trustworthy source was found, and an empty figure is never read as 0.
    """
    fields = {name_key(c): c for c in row}
    fields.update({name_key(a): c for a, c in aliases.items()})
    column = fields.get(name_key(field))
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
    """A figure of a GPU, from the vendor's datasheet.

    Parameters
    ----------
    name : str
        The GPU as typed (matched by ``match``).
    field : str
        A column of ``gpus`` or an alias of ``GPU_FIELD_ALIASES``.

    Returns
    -------
    float in the column's unit, or text. ``gpu_spec("H100", "bandwidth")`` = 3.35 (TB/s)
    [1].

    Raises
    ------
    ExcelError
        ``#N/A``: an unknown GPU or field, or a figure the table leaves empty.
    """
    row = match(name, gpus(), "gpus", "name")
    return field_value(gpus()[row], field, GPU_FIELD_ALIASES, row, "field")


def model_spec(name: str, field: str):
    """A figure of a model, from its ``config.json`` or derived from it.

    Parameters
    ----------
    name : str
        The model as typed (matched by ``match``).
    field : str
        A column of ``models``, an alias of ``MODEL_FIELD_ALIASES``, or a derived
        field of ``MODEL_DERIVED``.

    Returns
    -------
    float in the column's unit, or text. ``model_spec("Llama 3.1 8B",
    "kv_bytes_per_token")`` = 131,072 (B) [2], [4].

    Raises
    ------
    ExcelError
        ``#N/A``: an unknown model or field, or a figure the table leaves empty.
    """
    row = match(name, models(), "models", "name")
    return field_value(models()[row], field, MODEL_FIELD_ALIASES, row, "field")
