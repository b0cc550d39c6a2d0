"""The Models sheet: the model table of ``udfs/data/models.csv`` with KV bytes per token and
flags.

The layout (``sheet_models``):

A..N  the config figures (parameters in billions, layers, heads, KV heads, head dim...)
O     attention: MHA, GQA, MLA, or with sliding window (udfs/data/attention.csv)
P     KV bytes per token in BF16, full context: 2 × KV layers × kv_heads × head_dim ×
      2 B (KV_CACHE_GB(KV layers, kv_heads, head_dim, 1, "BF16", 1, "B") in Excel's
      arithmetic: no napkin call, a row can be inserted), right for MHA and GQA. A
      model with latent attention (MLA: DeepSeek-V3, Kimi K2) caches one latent per
      layer instead: the table's bytes per layer × its KV layers, 61 × 576 × 2 B =
      70,272 B (while the row holds the model's name); so does a model whose global
      layers cache another shape than the sliding-window ones (Gemma 4: column O "GQA
      per layer type")
Q, R  sliding window (tokens) and the number of sliding-window layers (0: none); the
      Sizing sheet uses them so that Gemma 2 and Phi-3 are not over-counted
S     flags (MLA, sliding window, MoE);  T source_url;  U notes
V     weights read per decode step at batch 1, billions: the active parameters of
      column C less the input embedding table (MODEL_SPEC active_params −
      decode_params, written into the formula while the row holds the model's name;
      the LM head counts in full). A user's
      row: the active parameters (its input embedding counted: the row does not say
      whether tied)
W     one routed expert over all MoE layers, billions: MODEL_SPEC's expert_params,
      MoE layers × expert matrices × hidden (LatentMoE: the latent width the experts
      work in) × expert intermediate size (0 for dense models). A user's row:
      layers × 3 × hidden × expert intermediate size (every layer taken as MoE; 0
      without experts)
X     layers that keep a KV cache (a hybrid model's attention layers; all layers
      otherwise); column P counts these. A user's row: empty means all layers
Y     fixed state each sequence keeps in linear-attention or Mamba layers, bytes (0
      for a transformer; Sizing adds it to the KV cache of each sequence)
Z, AA weights a quantized checkpoint keeps in BF16, and of those the ones a decode
      step reads, billions: the table's kept_params and kept_decode_params (empty,
      none, for a user's row); Sizing's WEIGHT_GB counts them at 2 bytes
AB    the per-layer embedding table, billions (Gemma 4 E2B, E4B: vocab_size_per_layer_
      input × layers × hidden_size_per_layer_input; 0 for the others): counted in
      column B, left out of column C (a token looks its rows up, multiplies none) and
      so of V; a models range given to DECODE_FLOOR takes it out of a dense row's reads
Columns A..N, O, Q..U, X, Y, Z, AA and AB are data a user types for her own row; P, V
and W are formulas of the row's columns, with the built-in figures written in while
column A holds the built-in name (no MODEL_SPEC, no napkin call).
Named ranges, one per column: MODEL_NAME, MODEL_PARAMS_B, MODEL_ACTIVE_B,
MODEL_LAYERS, MODEL_HIDDEN, MODEL_HEADS, MODEL_KV_HEADS, MODEL_HEAD_DIM,
MODEL_INTERMEDIATE, MODEL_VOCAB, MODEL_MAX_CONTEXT, MODEL_EXPERTS, MODEL_TOPK,
MODEL_EXPERT_INTERMEDIATE, MODEL_ATTENTION, MODEL_KV_BYTES, MODEL_WINDOW,
MODEL_SLIDING_LAYERS, MODEL_FLAGS, MODEL_SOURCE, MODEL_NOTES, MODEL_DECODE_B,
MODEL_EXPERT_B, MODEL_KV_LAYERS, MODEL_STATE_BYTES, MODEL_KEPT_B, MODEL_KEPT_DECODE_B,
MODEL_PLE_B.
"""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.utils import get_column_letter

from udfs.inference import tables
from workbook.expr import Cell, Expr, F, Num, Text
from workbook.sheet import (
    DATA_DATE,
    Sheet,
    define_column,
    fit_rows,
    num,
    room_note,
    warn_red,
)

MODEL_FIRST = 6
MODEL_SPARE = 4  # empty yellow rows below the table, for the user's own models
MODEL_COLUMNS = [
    ("name", "Model", "MODEL_NAME", None),
    ("total_params_B", "Parameters, total (billions)", "MODEL_PARAMS_B", "#,##0.00"),
    ("active_params_B", "Parameters active per token (billions)", "MODEL_ACTIVE_B",
     "#,##0.00"),
    ("num_layers", "Layers", "MODEL_LAYERS", "#,##0"),
    ("hidden_size", "Hidden size", "MODEL_HIDDEN", "#,##0"),
    ("num_attention_heads", "Attention heads", "MODEL_HEADS", "#,##0"),
    ("num_kv_heads", "KV heads", "MODEL_KV_HEADS", "#,##0"),
    ("head_dim", "Head dim", "MODEL_HEAD_DIM", "#,##0"),
    ("intermediate_size", "Intermediate size", "MODEL_INTERMEDIATE", "#,##0"),
    ("vocab_size", "Vocabulary", "MODEL_VOCAB", "#,##0"),
    ("max_context", "Max context (tokens)", None, "#,##0"),
    ("num_experts", "Experts (routed)", "MODEL_EXPERTS", "#,##0"),
    ("experts_per_token", "Experts per token", "MODEL_TOPK", "#,##0"),
    ("moe_intermediate_size", "Expert intermediate size", "MODEL_EXPERT_INTERMEDIATE", "#,##0"),
]
# Derived columns after the figures: O attention, P KV bytes/token, Q window, R sliding
# layers, S flags, T source, U notes, V weights read per decode step (batch 1), W one
# routed expert over all MoE layers, X layers that keep a KV cache, Y fixed state per
# sequence (bytes), Z weights kept in BF16 when quantized, AA of those, read per step,
# AB the per-layer embedding table (looked up, not multiplied)
MODEL_DERIVED_COLS = {"max_context": "K", "attention": "O", "kv": "P", "window": "Q",
                      "sliding": "R", "flag": "S", "source": "T", "notes": "U",
                      "decode": "V", "expert": "W", "kv_layers": "X", "state": "Y",
                      "kept": "Z", "kept_decode": "AA", "per_layer": "AB"}


def _model_flag(row: dict) -> str:
    flags = []
    if row["attention"] not in ("GQA", "MHA"):
        flags.append(row["kv_note"])
    if num(row["per_layer_embedding_params"]):
        flags.append("Per-layer embeddings (column AB): held in memory with the rest "
                     "(column B), but a token looks up one row of them per layer and "
                     "multiplies none: column C and the weights a step reads leave them out")
    if row["num_experts"]:
        flags.append("MoE: memory holds all weights, a token computes with the active "
                     "ones; a decode step reads the shared parts and the experts the batch "
                     "picks (column V at batch 1, + column W per further expert: "
                     "MOE_EXPERTS_READ)")
    return " | ".join(flags)


def _spec(name: str, field: str):
    """MODEL_SPEC's figure ``field`` of the model ``name`` of the built-in table, or None
    where it is not a number."""
    value = tables.model_spec(name, field)
    return value if isinstance(value, (int, float)) else None


def _blank_or(r: int, e) -> Expr:
    """``e`` in row ``r``, empty text while the row's name (column A) is."""
    return F.IF(Cell(f"A{r}").eq(Text("")), Text(""), e)


def _reads(s: Sheet, r: int, row: dict | None = None):
    """Columns V, W, Z and AA of row ``r``: what a decode step reads, and the weights a
    quantized checkpoint keeps in BF16.

    A user's row (no ``row``): V is the active parameters of column C (input embedding
    counted: the row does not say whether it is tied), W is layers × 3 × hidden × expert
    intermediate size (every layer taken as MoE; 0 without experts), Z and AA are inputs
    (empty: none kept). For ``row``, a model of the built-in table, the figures MODEL_SPEC
    gives its name are written into the formulas (no napkin call), and count while column
    A holds that name (a row copied and typed over is a user's row): V is C less the
    built-in count MODEL_SPEC leaves out of a step (active_params − decode_params, the
    input embedding table), so an edit of C counts; W is MODEL_SPEC's expert_params as MoE
    layers × expert matrices × hidden (E) × expert intermediate size (N), so edits of E
    and N count; Z and AA are the checkpoint's kept_params and kept_decode_params, table
    data."""
    c = MODEL_DERIVED_COLS
    at = {col: Cell(f"{col}{r}") for col in "CDELN"}  # the row's cells
    user_expert = F.IF(F.AND(F.ISNUMBER(at["L"]), F.ISNUMBER(at["N"])),
                       at["D"] * 3 * at["E"] * at["N"] / 1000000000, 0)
    if row is None:
        s.put(f"{c['decode']}{r}", _blank_or(r, at["C"]), "formula", "#,##0.00")
        s.put(f"{c['expert']}{r}", _blank_or(r, user_expert), "formula", "#,##0.000")
        for key in ("kept", "kept_decode"):
            s.put(f"{c[key]}{r}", None, "input", "#,##0.000")
        return
    name = row["name"]
    own = Cell(f"A{r}").eq(Text(name))
    decode, active = _spec(name, "decode_params"), _spec(name, "active_params")
    skip = (active - decode) / 1000000000 if decode is not None else 0
    s.put(f"{c['decode']}{r}", _blank_or(r, at["C"] - F.IF(own, skip, 0) if skip else at["C"]),
          "formula", "#,##0.00")
    if row["moe_layers"] and row["moe_intermediate_size"]:
        layers = int(row["moe_layers"]) * int(row.get("expert_matrices") or 3)
        width = row.get("moe_hidden_size")  # LatentMoE: the latent width, else E
        expert = (Num(layers) * (Num(int(width)) if width else at["E"]) * at["N"]
                  / 1000000000)
    else:
        expert = Num(0)
    s.put(f"{c['expert']}{r}", _blank_or(r, F.IF(own, expert, user_expert)), "formula",
          "#,##0.000")
    for key, field in (("kept", "kept_params"), ("kept_decode", "kept_decode_params")):
        kept = _spec(name, field)
        s.put(f"{c[key]}{r}", kept / 1000000000 if kept is not None else 0, "data",
              "#,##0.000")


#: Column O's starts where the table's KV bytes per token, not the GQA formula, count:
#: latent attention (MLA), and layer types of their own shapes (Gemma 4's global layers)
TABLE_KV = ("MLA", "GQA per layer type")


def _kv_layers(r: int) -> Expr:
    """The layers that keep a KV cache in row ``r``: column X, or all layers (D)."""
    x = Cell(f"{MODEL_DERIVED_COLS['kv_layers']}{r}")
    return F.IF(F.ISNUMBER(x), x, Cell(f"D{r}"))


def _kv_bytes(r: int, row: dict | None = None) -> Expr:
    """Column P of row ``r``, KV bytes per token in BF16: 2 (K and V) × the row's KV
    layers × KV heads × head dim × 2 bytes, in Excel's arithmetic (what KV_CACHE_GB(KV
    layers, KV heads, head dim, 1, "BF16", 1, "B") gives; a user's row: empty while its
    name is). For ``row`` a model of the built-in table whose column O starts with one of
    ``TABLE_KV`` (latent attention; Gemma 4's global layers of their own shape), while
    column A holds its name: the table's bytes per KV layer (MODEL_SPEC
    kv_bytes_per_token ÷ KV layers) × the row's KV layers, so that an edit of the layers
    counts (the table's figure where that is not a whole number)."""
    kv = 2 * _kv_layers(r) * Cell(f"G{r}") * Cell(f"H{r}") * 2
    if row is None:
        return _blank_or(r, kv)
    if not row["attention"].startswith(TABLE_KV):
        return kv
    per_layer = float(row["kv_bytes_per_token"]) / float(row["kv_layers"])
    latent = (_kv_layers(r) * per_layer if per_layer.is_integer()
              else Num(float(row["kv_bytes_per_token"])))
    return F.IF(Cell(f"A{r}").eq(Text(row["name"])), latent, kv)


def sheet_models(wb: Workbook) -> Sheet:
    """Models: one row per model of ``udfs/data/models.csv``, rows 6..24 (the layout:
    the module's docstring)."""
    widths = {"A": 24, "B": 12, "C": 12, "D": 8, "E": 9, "F": 10, "G": 8, "H": 8, "I": 12,
              "J": 11, "K": 11, "L": 9, "M": 9, "N": 11, "O": 18, "P": 14, "Q": 11,
              "R": 11, "S": 50, "T": 40, "U": 90, "V": 14, "W": 14, "X": 11, "Y": 14,
              "Z": 14, "AA": 14, "AB": 14}
    s = Sheet(wb, "Models", widths)
    s.title_rows("Models: architecture figures from each model's config.json",
                 f"Gathered {DATA_DATE}; every row keeps its source and notes. KV bytes per "
                 "token (column P) is computed, right for grouped-query attention.")
    s.put("A3", "Grey cell without a number: no figure (e.g. a dense model has no experts). "
                "Flags (column S) mark where the plain formulas would mislead: MLA, sliding "
                "window, mixture of experts.", "note")
    s.put("A4", "KV bytes per token = 2 (K and V) × layers × KV heads × head dim × 2 bytes "
                "(BF16). DeepSeek-V3 (MLA) caches one 576-element latent per layer instead. "
                "Adding a model: type it in a yellow row below the table, or insert a row "
                "anywhere from the first row of the table to the empty row under it (this "
                "sheet is not protected) and copy a row into it: its formulas (P, V, W) "
                "follow.", "note")
    headers = [h for _, h, _, _ in MODEL_COLUMNS] + [
        "Attention", "KV bytes per token (BF16, full context)", "Sliding window (tokens)",
        "Sliding-window layers", "Flags", "Source (config)", "Notes",
        "Weights read per decode step, batch 1 (billions)",
        "One routed expert, all MoE layers (billions)", "Layers that keep a KV cache",
        "Fixed state per sequence (bytes)", "Weights kept in BF16 when quantized (billions)",
        "Of those, read per decode step (billions)",
        "Per-layer embeddings, looked up (billions)"]
    s.header(MODEL_FIRST - 1, headers, height=60)
    rows = list(tables.models().values())
    last = MODEL_FIRST + len(rows) - 1
    c = MODEL_DERIVED_COLS
    for i, row in enumerate(rows):
        _model_row(s, MODEL_FIRST + i, row)
    fit_rows(s, MODEL_FIRST, last, {c["flag"]: 50, c["source"]: 40, c["notes"]: 90})
    _spare_rows(s, last)
    last += MODEL_SPARE
    s.ws.row_dimensions[last + 1].height = 6  # the empty row the names end above: thin
    s.put(f"A{last + 2}", room_note("MODEL_NAME", last - MODEL_FIRST + 1, "models",
                                    "the Sizing grids", "↑ yellow rows: your own models "
                                    "(name, parameters, layers, KV heads, head dim...); every "
                                    "sheet picks them up"), "note")
    warn_red(s.ws, f"A{last + 2}")
    _column_names(wb, s, last)
    s.ws.freeze_panes = f"B{MODEL_FIRST}"
    return s


def _model_row(s: Sheet, r: int, row: dict) -> None:
    """Row ``r`` of the table: a built-in model's figures (``udfs/data/models.csv``) and
    its derived columns."""
    c = MODEL_DERIVED_COLS
    for j, (key, _, _, fmt) in enumerate(MODEL_COLUMNS):
        cell = f"{get_column_letter(j + 1)}{r}"
        value = row[key] if fmt is None else num(row[key])
        s.put(cell, value, "data" if value is not None else "empty", fmt)
    s.put(f"{c['attention']}{r}", row["attention"], "data")
    s.put(f"{c['kv']}{r}", _kv_bytes(r, row), "formula", "#,##0")
    s.put(f"{c['kv_layers']}{r}", num(row["kv_layers"]), "data", "#,##0")
    s.put(f"{c['state']}{r}", num(row["recurrent_state_bytes"]), "data", "#,##0")
    s.put(f"{c['window']}{r}", num(row["sliding_window"]),
          "data" if row["sliding_window"] else "empty", "#,##0")
    s.put(f"{c['sliding']}{r}", num(row["sliding_layers"]) or 0, "data", "#,##0")
    s.put(f"{c['flag']}{r}", _model_flag(row), "wrap")
    s.put(f"{c['source']}{r}", row["source_url"], "wrap")
    s.put(f"{c['notes']}{r}", row["notes"], "wrap")
    _reads(s, r, row)
    s.put(f"{c['per_layer']}{r}", num(row["per_layer_embedding_params"]) / 1000000000,
          "data", "#,##0.000")


def _spare_rows(s: Sheet, last: int) -> None:
    """The empty rows under the table (``MODEL_SPARE``), for a user's own models: inputs,
    the derived columns' formulas, what each column takes."""
    c = MODEL_DERIVED_COLS
    for r in range(last + 1, last + MODEL_SPARE + 1):  # the user's own rows
        for j, (_, _, _, fmt) in enumerate(MODEL_COLUMNS):
            s.put(f"{get_column_letter(j + 1)}{r}", None, "input", fmt)
        s.put(f"{c['attention']}{r}", None, "input")
        s.put(f"{c['kv']}{r}", _kv_bytes(r), "formula", "#,##0")
        for key in ("window", "sliding", "kv_layers", "state"):
            s.put(f"{c[key]}{r}", None, "input", "#,##0")
        for key in ("flag", "source", "notes"):
            s.put(f"{c[key]}{r}", None, "input")
        _reads(s, r)
        s.put(f"{c['per_layer']}{r}", None, "input", "#,##0.000")
    spare = f"{last + 1}:{{}}{last + MODEL_SPARE}"
    s.validate("A" + spare.format("A"), "text", "Your model's name (shown in the dropdowns): "
               "up to 60 characters.", "Model name", 0, 60)
    for a, b in (("B", "N"), (c["window"], c["sliding"]), (c["kv_layers"], c["state"]),
                 (c["kept"], c["per_layer"])):
        s.validate(a + spare.format(b), "decimal", "A figure from the model's config.json: "
                   "a number from 0 to 1,000,000,000; empty if none.", "Figure", 0, 1000000000)
    for a, b in ((c["attention"], c["attention"]), (c["flag"], c["notes"])):
        s.validate(a + spare.format(b), "text", "Optional text: up to 255 characters.",
                   "Text", 0, 255)


def _column_names(wb: Workbook, s: Sheet, last: int) -> None:
    """One defined name per column (``MODEL_*``): the table and its spare rows, every row
    between the header and the empty row under them (``workbook.sheet.table_column``), so
    that a row inserted from the first row to that empty row is inside."""
    head, end = MODEL_FIRST - 1, last + 1
    c = MODEL_DERIVED_COLS
    for j, (_, _, name, _) in enumerate(MODEL_COLUMNS):
        if name:
            col = get_column_letter(j + 1)
            define_column(wb, name, s.title, col, head, end)
    for name, key in (("MODEL_ATTENTION", "attention"), ("MODEL_KV_BYTES", "kv"),
                      ("MODEL_WINDOW", "window"), ("MODEL_SLIDING_LAYERS", "sliding"),
                      ("MODEL_MAX_CONTEXT", "max_context"), ("MODEL_DECODE_B", "decode"),
                      ("MODEL_EXPERT_B", "expert"), ("MODEL_KV_LAYERS", "kv_layers"),
                      ("MODEL_STATE_BYTES", "state"), ("MODEL_KEPT_B", "kept"),
                      ("MODEL_KEPT_DECODE_B", "kept_decode"), ("MODEL_PLE_B", "per_layer"),
                      ("MODEL_FLAGS", "flag"),
                      ("MODEL_SOURCE", "source"), ("MODEL_NOTES", "notes")):
        col = c[key]
        define_column(wb, name, s.title, col, head, end)

