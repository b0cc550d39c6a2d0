"""Build the template workbook ``napkin.xlsx`` with openpyxl (``napkin template -o PATH``).

The workbook answers, for one model on one GPU type: does it fit, how many GPUs, the
per-token floor, tokens/s per user and in total, what a million tokens costs, and where
kernels sit against the roofline. Every result cell calls a napkin function (``=RIDGE(..)``,
``=DECODE_FLOOR(..)``); lookups into the tables are native Excel 2010 formulas
(INDEX/MATCH through named ranges), so LibreOffice and Excel without the add-in compute the
native parts and show the cached values that ``napkin calc`` wrote for ours.

Sheets, in order (each has a ``sheet_*`` builder below whose docstring gives its layout):

    Start        what the workbook answers, how to get the functions, legend, data date
    Sizing       dropdowns (model, precision, GPU) -> fit, GPUs, floors, tokens/s, ridge;
                 model x GPU grids (fits / floor ms) with conditional formatting
    Cost         tokens per day -> GPUs -> monthly cost -> cost per million tokens, per GPU
    Roofline     the chosen GPU's BF16/FP8 roofs and the reference kernels, log-log chart
    Speedup      Amdahl grid (p x s) and the reference examples
    Assumptions  roof efficiency, utilization, context, batch, traffic, currency; precisions
    GPUs         the GPU table (udfs/data/gpus.csv) with an editable price per GPU-hour
    Models       the model table (udfs/data/models.csv) with KV bytes per token and flags

Rules kept: Excel 2010 functions only, no structured references, named ranges for the
tables; input cells unlocked and yellow, everything else locked; sheets protected without a
password; number formats carry units; inputs validated (numbers, ranges, list choices)
with an input message. The output is deterministic: fixed document properties, and the zip
is rewritten with fixed member dates, so two builds give identical bytes.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
from importlib import resources
from pathlib import Path

from openpyxl import Workbook
from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.chart.series import SeriesLabel, StrRef
from openpyxl.formatting.rule import CellIsRule, ColorScaleRule, FormulaRule
from openpyxl.styles import Alignment, Border, Font, NamedStyle, PatternFill, Protection, Side
from openpyxl.utils import get_column_letter
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from udfs import tables

#: The date the GPU and model tables were gathered (../shared/data/README.md).
DATA_DATE = "2026-11"
#: Fixed document dates: a rebuild without changes gives the same bytes.
FIXED_TIME = dt.datetime(2026, 11, 1, 0, 0, 0)
ZIP_TIME = (2026, 11, 1, 0, 0, 0)

DEFAULT_PATH = Path(__file__).with_name("napkin.xlsx")

# Defaults of the Sizing inputs (the manager story)
DEFAULT_MODEL = "Llama 3.1 70B"
DEFAULT_PRECISION = "FP8"
DEFAULT_GPU = "NVIDIA H100 SXM"

# ---------------------------------------------------------------------------- styles
INPUT_FILL = PatternFill("solid", fgColor="FFF2CC")
HEADER_FILL = PatternFill("solid", fgColor="D9E1F2")
EMPTY_FILL = PatternFill("solid", fgColor="E7E6E6")
RESULT_FILL = PatternFill("solid", fgColor="E2EFDA")
THIN = Side(style="thin", color="BFBFBF")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)


def _styles() -> dict[str, NamedStyle]:
    """The named styles, defined once: input, formula, result, data, header, title..."""
    def style(name, font=None, fill=None, border=None, align=None, locked=True):
        s = NamedStyle(name=name)
        s.font = font or Font(name="Calibri", size=11)
        if fill is not None:
            s.fill = fill
        if border is not None:
            s.border = border
        if align is not None:
            s.alignment = align
        s.protection = Protection(locked=locked)
        return s

    return {
        "title": style("napkin title", Font(name="Calibri", size=16, bold=True,
                                             color="1F3864")),
        "subtitle": style("napkin subtitle", Font(name="Calibri", size=11, italic=True,
                                                   color="595959")),
        "section": style("napkin section", Font(name="Calibri", size=12, bold=True,
                                                 color="1F3864"),
                         border=Border(bottom=Side(style="medium", color="1F3864"))),
        "header": style("napkin header", Font(name="Calibri", size=11, bold=True),
                        HEADER_FILL, BOX, Alignment(wrap_text=True, vertical="center")),
        "label": style("napkin label"),
        "note": style("napkin note", Font(name="Calibri", size=10, color="595959")),
        "wrap": style("napkin wrap", Font(name="Calibri", size=10, color="595959"),
                      align=Alignment(wrap_text=True, vertical="top")),
        "input": style("napkin input", Font(name="Calibri", size=11, color="1F4E79",
                                             bold=True),
                       INPUT_FILL, BOX, Alignment(vertical="top"), locked=False),
        "formula": style("napkin formula", border=BOX),
        "result": style("napkin result", Font(name="Calibri", size=11, bold=True),
                        RESULT_FILL, BOX),
        "data": style("napkin data", border=BOX, align=Alignment(vertical="top")),
        "empty": style("napkin empty", fill=EMPTY_FILL, border=BOX,
                       align=Alignment(vertical="top")),
    }


# Number formats: every figure carries its unit
FMT = {
    "GB": '#,##0.00 "GB"', "GiB": '#,##0.00 "GiB"', "ms": '#,##0.00 "ms"',
    "ms_token": '#,##0.00 "ms/token"', "tps": '#,##0.0 "tokens/s"', "B": '#,##0.00 "B"',
    "flop_byte": '#,##0.00 "FLOP/byte"', "tflops": '#,##0.0 "TFLOPS"',
    "tbps": '0.000 "TB/s"', "gpus": '#,##0 "GPU(s)"', "seq": '#,##0 "sequences"',
    "tokens": '#,##0 "tokens"', "tokens_day": '#,##0 "tokens/day"', "x": '0.00"×"',
    "pct": '0%', "money": '#,##0.00', "count": '#,##0', "bytes": '#,##0 "bytes"',
    "flop": '#,##0 "FLOP"', "bytes_moved": '#,##0 "bytes"', "us": '#,##0.00 "µs"',
    "hours": '#,##0 "h/month"', "ratio": '0.0"×"', "plain": "General", "row": '0',
    "frac": '0.00',
}


class Sheet:
    """A worksheet with the helpers every builder uses: styled cells and validation."""

    def __init__(self, wb: Workbook, title: str, widths: dict[str, float]):
        self.ws = wb.create_sheet(title)
        self.title = title
        for col, w in widths.items():
            self.ws.column_dimensions[col].width = w
        self._validations: dict[tuple, DataValidation] = {}

    def ref(self, cell: str, absolute: bool = True) -> str:
        """A reference to one of this sheet's cells from another sheet."""
        col, row = re.match(r"([A-Z]+)(\d+)", cell).groups()
        return f"'{self.title}'!${col}${row}" if absolute else f"'{self.title}'!{cell}"

    def put(self, cell: str, value, style: str = "label", fmt: str | None = None):
        c = self.ws[cell]
        c.value = value
        c.style = f"napkin {style}"
        if fmt:
            c.number_format = FMT.get(fmt, fmt)
        return c

    def title_rows(self, title: str, subtitle: str):
        self.put("A1", title, "title")
        self.put("A2", subtitle, "subtitle")
        self.ws.row_dimensions[1].height = 24

    def section(self, row: int, text: str, last_col: str = "C"):
        for col in range(1, _col(last_col) + 1):
            self.ws.cell(row=row, column=col).style = "napkin section"
        self.ws.cell(row=row, column=1).value = text

    def header(self, row: int, names: list[str], first_col: int = 1, height: float = 30):
        for i, name in enumerate(names):
            self.put(f"{get_column_letter(first_col + i)}{row}", name, "header")
        self.ws.row_dimensions[row].height = height

    def validate(self, cells: str, kind: str, prompt: str, title: str = "Input",
                 lo=None, hi=None, formula1: str | None = None):
        """Data validation for input cells: numbers in a range, whole numbers, a list, or
        text of a length. Text in a number cell and values out of range are refused, and
        the input message says what is expected."""
        key = (kind, prompt, lo, hi, formula1)
        dv = self._validations.get(key)
        if dv is None:
            if kind == "list":
                dv = DataValidation(type="list", formula1=formula1, allow_blank=False)
                error = "Choose a value from the list."
            elif kind in ("decimal", "whole"):
                dv = DataValidation(type=kind, operator="between", formula1=str(lo),
                                    formula2=str(hi), allow_blank=True)
                what = "a whole number" if kind == "whole" else "a number"
                error = f"Expected {what} from {lo:g} to {hi:g}; text is not accepted."
            elif kind == "text":
                dv = DataValidation(type="textLength", operator="between", formula1=str(lo),
                                    formula2=str(hi), allow_blank=False)
                error = f"Expected text of {lo} to {hi} characters."
            else:  # pragma: no cover - a builder bug
                raise ValueError(kind)
            dv.error, dv.errorTitle, dv.errorStyle = error, "napkin: not accepted", "stop"
            dv.prompt, dv.promptTitle = prompt[:255], title[:32]
            dv.showErrorMessage = dv.showInputMessage = True
            self.ws.add_data_validation(dv)
            self._validations[key] = dv
        dv.add(cells)

    def protect(self):
        """Protect without a password: inputs stay editable, columns and rows resizable."""
        p = self.ws.protection
        p.sheet = True
        p.formatColumns = False
        p.formatRows = False
        p.formatCells = True


def _fit_rows(s: Sheet, first: int, last: int, wrapped: dict[str, float]):
    """Row heights for wrapped notes (10 pt text: about 1.2 characters per width unit,
    13 points per line), so that Excel and LibreOffice show every line."""
    for r in range(first, last + 1):
        lines = 1
        for col, width in wrapped.items():
            text = str(s.ws[f"{col}{r}"].value or "")
            lines = max(lines, -(-len(text) // int(width * 1.2)))
        s.ws.row_dimensions[r].height = 13.5 * lines + 2


def _col(letter: str) -> int:
    n = 0
    for ch in letter:
        n = n * 26 + ord(ch) - 64
    return n


def _name(wb: Workbook, name: str, sheet: str, ref: str):
    wb.defined_names[name] = DefinedName(name, attr_text=f"'{sheet}'!{ref}")


def _num(text: str):
    """A CSV figure as a number; empty stays None (an empty figure stays empty)."""
    text = (text or "").strip()
    if text == "":
        return None
    f = float(text)
    return int(f) if f.is_integer() else f


def _read_csv(package: str, name: str) -> list[dict]:
    text = (resources.files(package) / "data" / name).read_text("utf-8")
    return list(csv.DictReader(io.StringIO(text)))


# ---------------------------------------------------------------------------- tables
GPU_FIRST = 6  # first data row of the GPUs table
GPU_COLUMNS = [  # (csv column, header, named range or None, number format)
    ("name", "GPU", "GPU_NAME", None),
    ("vendor", "Vendor", None, None),
    ("memory_GB", "Memory (GB)", "GPU_MEM", "#,##0"),
    ("memory_bandwidth_TBps", "Bandwidth (TB/s)", "GPU_BW", "0.000"),
    ("bf16_dense_TFLOPS", "BF16 dense (TFLOPS)", "GPU_BF16", "#,##0.0"),
    ("fp16_dense_TFLOPS", "FP16 dense (TFLOPS)", None, "#,##0.0"),
    ("fp8_dense_TFLOPS", "FP8 dense (TFLOPS)", "GPU_FP8", "#,##0.0"),
    ("int8_dense_TOPS", "INT8 dense (TOPS)", None, "#,##0.0"),
    ("fp4_dense_TFLOPS", "FP4 dense (TFLOPS)", None, "#,##0"),
    ("tdp_W", "TDP (W)", None, "#,##0"),
    ("interconnect_GBps", "Interconnect (GB/s, both ways)", None, "#,##0"),
]


def sheet_gpus(wb: Workbook) -> Sheet:
    """GPUs: one row per accelerator of ``udfs/data/gpus.csv``, rows 6..26.

    A..K  the figures (name, vendor, memory GB, bandwidth TB/s, dense TFLOPS...), locked;
          an empty figure stays empty (grey) and lookups turn it into #N/A
    L     price per GPU-hour: INPUT, default from workbook/data/gpu_prices.csv (empty where
          no public price was checked: enter yours)
    M     where the default price comes from;  N source_url;  O notes
    Named ranges: GPU_NAME, GPU_MEM, GPU_BW, GPU_BF16, GPU_FP8, GPU_PRICE.
    """
    s = Sheet(wb, "GPUs", {"A": 26, "B": 9, "C": 9, "D": 10, "E": 11, "F": 11, "G": 11,
                           "H": 10, "I": 10, "J": 8, "K": 13, "L": 13, "M": 40, "N": 40,
                           "O": 90})
    s.title_rows("GPUs: datasheet figures, dense (no 2:4 sparsity), decimal units",
                 f"Gathered {DATA_DATE} from public datasheets and write-ups; every row keeps "
                 "its source and notes. Price per GPU-hour (yellow) is yours to change.")
    s.put("A3", "Grey cell without a number: no trustworthy figure was found. It stays "
                "empty; the lookups on the other sheets treat it as not available, never as 0.",
          "note")
    s.put("A4", "Price default: an assumption (public on-demand level, see column M); "
                "empty where none was checked. Adding a GPU: unprotect the sheet (no "
                "password) and insert a row inside the table.", "note")
    headers = [h for _, h, _, _ in GPU_COLUMNS]
    headers += ['=\"Price per GPU-hour (\"&CURRENCY&\")\"', "Price: basis and source",
                "Source (datasheet)", "Notes"]
    s.header(GPU_FIRST - 1, headers, height=45)
    prices = {r["name"]: r for r in _read_csv("workbook", "gpu_prices.csv")}
    rows = list(tables.gpus().values())
    last = GPU_FIRST + len(rows) - 1
    for i, row in enumerate(rows):
        r = GPU_FIRST + i
        for j, (key, _, _, fmt) in enumerate(GPU_COLUMNS):
            cell = f"{get_column_letter(j + 1)}{r}"
            value = row[key] if fmt is None else _num(row[key])
            s.put(cell, value, "data" if value is not None else "empty", fmt)
        price = prices.get(row["name"])
        s.put(f"L{r}", _num(price["price_per_gpu_hour_usd"]) if price else None, "input",
              "money")
        s.put(f"M{r}", f"{price['basis']} ({price['source']}, checked {price['checked']})"
              if price else "no price checked: enter your own", "wrap")
        s.put(f"N{r}", row["source_url"], "wrap")
        s.put(f"O{r}", row["notes"], "wrap")
    _fit_rows(s, GPU_FIRST, last, {"M": 40, "N": 40, "O": 90})
    s.validate(f"L{GPU_FIRST}:L{last}", "decimal", "Price of one GPU-hour in the currency "
               "of the Assumptions sheet: a number from 0 to 1000. Empty: no cost figures "
               "for this GPU.", "Price per GPU-hour", 0, 1000)
    for j, (_, _, name, _) in enumerate(GPU_COLUMNS):
        if name:
            col = get_column_letter(j + 1)
            _name(wb, name, s.title, f"${col}${GPU_FIRST}:${col}${last}")
    _name(wb, "GPU_PRICE", s.title, f"$L${GPU_FIRST}:$L${last}")
    s.ws.freeze_panes = f"B{GPU_FIRST}"
    return s


MODEL_FIRST = 6
MODEL_COLUMNS = [
    ("name", "Model", "MODEL_NAME", None),
    ("total_params_B", "Parameters, total (billions)", "MODEL_PARAMS_B", "#,##0.00"),
    ("active_params_B", "Parameters active per token (billions)", "MODEL_ACTIVE_B",
     "#,##0.00"),
    ("num_layers", "Layers", "MODEL_LAYERS", "#,##0"),
    ("hidden_size", "Hidden size", None, "#,##0"),
    ("num_attention_heads", "Attention heads", None, "#,##0"),
    ("num_kv_heads", "KV heads", "MODEL_KV_HEADS", "#,##0"),
    ("head_dim", "Head dim", "MODEL_HEAD_DIM", "#,##0"),
    ("intermediate_size", "Intermediate size", None, "#,##0"),
    ("vocab_size", "Vocabulary", None, "#,##0"),
    ("max_context", "Max context (tokens)", None, "#,##0"),
    ("num_experts", "Experts", None, "#,##0"),
    ("experts_per_token", "Experts per token", None, "#,##0"),
    ("moe_intermediate_size", "Expert intermediate size", None, "#,##0"),
]
# Derived columns after the figures: O attention, P KV bytes/token, Q window, R sliding
# layers, S flags, T source, U notes
MODEL_DERIVED_COLS = {"attention": "O", "kv": "P", "window": "Q", "sliding": "R",
                      "flag": "S", "source": "T", "notes": "U"}


def _model_flag(row: dict) -> str:
    flags = []
    if row["attention"] not in ("GQA", "MHA"):
        flags.append(row["kv_note"])
    if _num(row["active_params_B"]) != _num(row["total_params_B"]):
        flags.append("MoE: one token reads only the active experts' weights at batch 1; "
                     "the floors here read all weights (right at large batch)")
    return " | ".join(flags)


def sheet_models(wb: Workbook) -> Sheet:
    """Models: one row per model of ``udfs/data/models.csv``, rows 6..24.

    A..N  the config figures (parameters in billions, layers, heads, KV heads, head dim...)
    O     attention: MHA, GQA, MLA, or with sliding window (udfs/data/attention.csv)
    P     KV bytes per token in BF16, full context: =KV_CACHE_GB(layers, kv_heads,
          head_dim, 1, "BF16", 1, "B"), right for MHA and GQA. DeepSeek-V3 (MLA) calls
          =MODEL_SPEC(name, "kv_bytes_per_token") instead: 61 × 576 × 2 B = 70,272 B
    Q, R  sliding window (tokens) and the number of sliding-window layers (0: none); the
          Sizing sheet uses them so that Gemma 2 and Phi-3 are not over-counted
    S     flags (MLA, sliding window, MoE);  T source_url;  U notes
    Named ranges: MODEL_NAME, MODEL_PARAMS_B, MODEL_ACTIVE_B, MODEL_LAYERS, MODEL_KV_HEADS,
    MODEL_HEAD_DIM, MODEL_ATTENTION, MODEL_KV_BYTES, MODEL_WINDOW, MODEL_SLIDING_LAYERS.
    """
    widths = {"A": 24, "B": 12, "C": 12, "D": 8, "E": 9, "F": 10, "G": 8, "H": 8, "I": 12,
              "J": 11, "K": 11, "L": 9, "M": 9, "N": 11, "O": 18, "P": 14, "Q": 11,
              "R": 11, "S": 50, "T": 40, "U": 90}
    s = Sheet(wb, "Models", widths)
    s.title_rows("Models: architecture figures from each model's config.json",
                 f"Gathered {DATA_DATE}; every row keeps its source and notes. KV bytes per "
                 "token (column P) is computed, right for grouped-query attention.")
    s.put("A3", "Grey cell without a number: no figure (e.g. a dense model has no experts). "
                "Flags (column S) mark where the plain formulas would mislead: MLA, sliding "
                "window, mixture of experts.", "note")
    s.put("A4", "KV bytes per token = 2 (K and V) × layers × KV heads × head dim × 2 bytes "
                "(BF16). DeepSeek-V3 (MLA) caches one 576-element latent per layer instead.",
          "note")
    headers = [h for _, h, _, _ in MODEL_COLUMNS] + [
        "Attention", "KV bytes per token (BF16, full context)", "Sliding window (tokens)",
        "Sliding-window layers", "Flags", "Source (config)", "Notes"]
    s.header(MODEL_FIRST - 1, headers, height=60)
    rows = list(tables.models().values())
    last = MODEL_FIRST + len(rows) - 1
    c = MODEL_DERIVED_COLS
    for i, row in enumerate(rows):
        r = MODEL_FIRST + i
        for j, (key, _, _, fmt) in enumerate(MODEL_COLUMNS):
            cell = f"{get_column_letter(j + 1)}{r}"
            value = row[key] if fmt is None else _num(row[key])
            s.put(cell, value, "data" if value is not None else "empty", fmt)
        s.put(f"{c['attention']}{r}", row["attention"], "data")
        if row["attention"] == "MLA":
            kv = f'=MODEL_SPEC(A{r},"kv_bytes_per_token")'
        else:
            kv = f'=KV_CACHE_GB(D{r},G{r},H{r},1,"BF16",1,"B")'
        s.put(f"{c['kv']}{r}", kv, "formula", "#,##0")
        s.put(f"{c['window']}{r}", _num(row["sliding_window"]),
              "data" if row["sliding_window"] else "empty", "#,##0")
        s.put(f"{c['sliding']}{r}", _num(row["sliding_layers"]) or 0, "data", "#,##0")
        s.put(f"{c['flag']}{r}", _model_flag(row), "wrap")
        s.put(f"{c['source']}{r}", row["source_url"], "wrap")
        s.put(f"{c['notes']}{r}", row["notes"], "wrap")
    _fit_rows(s, MODEL_FIRST, last, {c["flag"]: 50, c["source"]: 40, c["notes"]: 90})
    for j, (_, _, name, _) in enumerate(MODEL_COLUMNS):
        if name:
            col = get_column_letter(j + 1)
            _name(wb, name, s.title, f"${col}${MODEL_FIRST}:${col}${last}")
    for name, key in (("MODEL_ATTENTION", "attention"), ("MODEL_KV_BYTES", "kv"),
                      ("MODEL_WINDOW", "window"), ("MODEL_SLIDING_LAYERS", "sliding")):
        col = c[key]
        _name(wb, name, s.title, f"${col}${MODEL_FIRST}:${col}${last}")
    s.ws.freeze_panes = f"B{MODEL_FIRST}"
    return s


# ---------------------------------------------------------------------------- assumptions
#: name -> (row, label, default, format, validation (kind, lo, hi), meaning, source)
ASSUMPTIONS = {
    "ROOF_EFFICIENCY": (5, "Roof efficiency", 0.8, "pct", ("decimal", 0.01, 1),
                        "Share of the datasheet compute peak reached in practice",
                        "Reference §6: real roof ≈ 80 % of peak (0.8 × 989 ≈ 791 TFLOPS, "
                        "H100 ridge moves in to ≈ 236)"),
    "UTILIZATION": (6, "Utilization", 0.6, "pct", ("decimal", 0.01, 1),
                    "Share of paid GPU time spent producing tokens at the floor rate "
                    "(the rest: idle, prefill, scheduling)",
                    "Assumption (no source): set your own"),
    "CONTEXT": (7, "Context length", 8192, "tokens", ("whole", 1, 10000000),
                "Tokens held in the KV cache per sequence",
                "Assumption: a typical chat context"),
    "BATCH": (8, "Batch", 16, "seq", ("whole", 1, 100000),
              "Sequences decoded together (concurrent users per replica)",
              "Assumption"),
    "TOKENS_PER_DAY": (9, "Traffic", 100000000, "tokens_day", ("decimal", 0, 1e15),
                       "Output tokens generated per day, all users together",
                       "Assumption"),
    "PEAK_TO_AVG": (10, "Peak-to-average ratio", 2, "ratio", ("decimal", 1, 100),
                    "Busiest hour's token rate ÷ the daily average; capacity is sized "
                    "for the peak", "Assumption"),
    "HOURS_PER_MONTH": (11, "Hours per month", 730, "hours", ("decimal", 1, 744),
                        "Paid hours per GPU per month (8,760 h ÷ 12)", "Calendar"),
    "RESERVE": (12, "Memory reserve", 0, "pct", ("decimal", 0, 0.95),
                "Share of GPU memory held back for activations and runtime (the KV "
                "cache is counted separately)", "Assumption: 0 keeps the reference's "
                "'fits' (weights ≤ capacity); 0.1 is a cautious choice"),
    "CURRENCY": (13, "Currency label", "USD", None, ("text", 1, 12),
                 "Label of the prices on the GPUs sheet and of the cost figures",
                 "GPU price defaults are in USD"),
}
PRECISION_FIRST = 18


def sheet_assumptions(wb: Workbook) -> Sheet:
    """Assumptions: one place for the numbers that are choices, not facts.

    Rows 5..13, column B (INPUT, each a named cell): ROOF_EFFICIENCY 0.8, UTILIZATION,
    CONTEXT, BATCH, TOKENS_PER_DAY, PEAK_TO_AVG, HOURS_PER_MONTH, RESERVE, CURRENCY.
    C says what it means, D where the default comes from.
    Rows 18..: the number formats of the precision dropdowns (PRECISION_NAME, bytes per
    parameter = BYTES_PER_PARAM(name)), from udfs/data/precisions.csv.
    """
    s = Sheet(wb, "Assumptions", {"A": 24, "B": 18, "C": 70, "D": 80})
    s.title_rows("Assumptions: the choices behind the results",
                 "Change the yellow cells; every sheet follows. Facts (datasheets, configs) "
                 "are on the GPUs and Models sheets.")
    s.header(4, ["Assumption", "Value", "Meaning", "Default from"])
    for name, (row, label, default, fmt, (kind, lo, hi), meaning, source) in \
            ASSUMPTIONS.items():
        s.put(f"A{row}", label, "label")
        s.put(f"B{row}", default, "input", fmt)
        s.put(f"C{row}", meaning, "note")
        s.put(f"D{row}", source, "note")
        _name(wb, name, s.title, f"$B${row}")
        prompt = f"{label}: {meaning}."
        if kind == "text":
            s.validate(f"B{row}", "text", prompt, label, lo, hi)
        else:
            what = "fraction" if fmt == "pct" else ("whole number" if kind == "whole"
                                                     else "number")
            s.validate(f"B{row}", kind, f"{prompt} A {what} from {lo:g} to {hi:g}.",
                       label, lo, hi)
    s.section(PRECISION_FIRST - 2, "Number formats (the precision dropdowns)", "D")
    s.header(PRECISION_FIRST - 1, ["Precision", "Bytes per parameter", "Source", "Notes"])
    rows = _read_csv("udfs", "precisions.csv")
    for i, row in enumerate(rows):
        r = PRECISION_FIRST + i
        s.put(f"A{r}", row["name"], "data")
        s.put(f"B{r}", f"=BYTES_PER_PARAM(A{r})", "formula", "0.00###")
        s.put(f"C{r}", row["source"], "note")
        s.put(f"D{r}", row["notes"], "note")
    last = PRECISION_FIRST + len(rows) - 1
    _name(wb, "PRECISION_NAME", s.title, f"$A${PRECISION_FIRST}:$A${last}")
    return s


# ---------------------------------------------------------------------------- sizing
#: Key cells of the Sizing sheet (tests and the README refer to them by name).
SIZING = {
    "model": "B5", "precision": "B6", "gpu": "B7", "kv_precision": "B8",
    "price_override": "B9",
    "model_row": "B12", "params_b": "B13", "active_b": "B14", "layers": "B15",
    "kv_heads": "B16", "head_dim": "B17", "attention": "B18", "kv_bytes": "B19",
    "window": "B20", "sliding": "B21",
    "gpu_row": "B23", "memory": "B24", "bandwidth": "B25", "bf16": "B26", "fp8": "B27",
    "price": "B28", "context": "B29", "batch": "B30", "efficiency": "B31",
    "reserve": "B32",
    "weight_gb": "B35", "weight_gib": "B36", "kv_gqa_gb": "B37", "kv_factor": "B38",
    "kv_gb": "B39", "need_gb": "B40", "fits_weights": "B41", "fits_all": "B42",
    "gpus_needed": "B43", "floor_ms": "B44", "roof_tflops": "B45", "step_ms": "B46",
    "tps_total": "B47", "tps_user": "B48", "ridge_bf16": "B49", "ridge_used": "B50",
    "critical_batch": "B51", "decode_intensity": "B52", "side": "B53",
    "cost_mtok": "B54",
}
GRID_TOP = 58  # first row of the model x GPU grids


def _lookup(table: str, row_cell: str) -> str:
    """A native lookup that turns an empty table figure into #N/A (never 0)."""
    return f"=IF(ISNUMBER(INDEX({table},{row_cell})),INDEX({table},{row_cell}),NA())"


def _empty_says(cell: str, what: str) -> str:
    return f'=IF(ISNA({cell}),"empty in the {what} table: no trustworthy figure","")'


def sheet_sizing(wb: Workbook, n_models: int, n_gpus: int) -> Sheet:
    """Sizing: one model on one GPU type; below, every model against every GPU.

    B5..B9   INPUTS: model, weight precision, GPU (dropdowns fed by the tables), KV cache
             precision, optional price override
    B12..B32 what the tables and the Assumptions say (native INDEX/MATCH lookups; an
             empty figure is #N/A and column C says so)
    B35..B54 RESULTS, each a napkin function: weights GB and GiB, KV GB (GQA formula, then
             corrected for MLA / sliding window), fits, GPUs needed, decode floor (weights
             only, batch 1), step floor at the batch over the GPUs needed, tokens/s in
             total and per user, ridges, critical batch, decode intensity and its side of
             the ridge, cost per million tokens at the assumed utilization
    Row 58.. grid 1: weights fit on one GPU? (model rows × GPU columns, green/red)
             grid 2: decode floor in ms/token (weights only, batch 1, one GPU; greyed
             where the weights do not fit: a floor of a model that does not fit is fiction)
    """
    s = Sheet(wb, "Sizing", {"A": 44, "B": 24, "C": 9})
    K = SIZING
    s.title_rows("Sizing: does it fit, how many GPUs, how fast can it possibly go?",
                 "Pick in the yellow cells. Results are floors from datasheet peaks, not "
                 "predictions: real measurements sit above them.")
    s.section(4, "Choose")
    inputs = [
        ("model", "Model", DEFAULT_MODEL, "list", "MODEL_NAME",
         "A model from the Models sheet."),
        ("precision", "Weight precision", DEFAULT_PRECISION, "list", "PRECISION_NAME",
         "Number format of the weights: BF16 = 2 bytes per parameter, FP8 = 1, INT4 = 0.5."),
        ("gpu", "GPU", DEFAULT_GPU, "list", "GPU_NAME", "A GPU from the GPUs sheet."),
        ("kv_precision", "KV cache precision", "BF16", "list", "PRECISION_NAME",
         "Number format of the KV cache (BF16 unless your server quantises it)."),
    ]
    for key, label, default, kind, source, prompt in inputs:
        cell = K[key]
        s.put(f"A{cell[1:]}", label)
        s.put(cell, default, "input")
        s.put(f"C{cell[1:]}", prompt, "note")
        s.validate(cell, kind, prompt, label, formula1=source)
    r = K["price_override"][1:]
    s.put(f"A{r}", '=\"Price per GPU-hour override (\"&CURRENCY&\")\"')
    s.put(K["price_override"], None, "input", "money")
    s.put(f"C{r}", "Leave empty to use the price on the GPUs sheet.", "note")
    s.validate(K["price_override"], "decimal", "Optional. Price of one GPU-hour; empty: "
               "the GPUs sheet's price. A number from 0 to 1000.", "Price override", 0, 1000)

    s.section(11, "What the tables and assumptions say (lookups)")
    m, g = K["model_row"], K["gpu_row"]
    lookups = [
        ("model_row", "Row in the Models table", f"=MATCH({K['model']},MODEL_NAME,0)",
         "row", "MATCH on the model name"),
        ("params_b", "Parameters, total", _lookup("MODEL_PARAMS_B", m), '#,##0.00 "B"',
         "billions"),
        ("active_b", "Parameters active per token", _lookup("MODEL_ACTIVE_B", m),
         '#,##0.00 "B"', f'=IF({K["active_b"]}<{K["params_b"]},"mixture of experts: '
         'the floors below read all weights (right at large batch, pessimistic at batch '
         '1)","")'),
        ("layers", "Layers", _lookup("MODEL_LAYERS", m), "count", None),
        ("kv_heads", "KV heads", _lookup("MODEL_KV_HEADS", m), "count", None),
        ("head_dim", "Head dim", _lookup("MODEL_HEAD_DIM", m), "count", None),
        ("attention", "Attention", f"=INDEX(MODEL_ATTENTION,{m})", None, None),
        ("kv_bytes", "KV bytes per token (BF16, full context)", _lookup("MODEL_KV_BYTES", m),
         "bytes", "Models column P: right for GQA and MLA"),
        ("window", "Sliding window", f"=IF(ISNUMBER(INDEX(MODEL_WINDOW,{m})),"
         f"INDEX(MODEL_WINDOW,{m}),0)", "tokens", "0: no sliding-window layers"),
        ("sliding", "Sliding-window layers", f"=INDEX(MODEL_SLIDING_LAYERS,{m})", "count",
         None),
        ("gpu_row", "Row in the GPUs table", f"=MATCH({K['gpu']},GPU_NAME,0)", "row",
         "MATCH on the GPU name"),
        ("memory", "GPU memory", _lookup("GPU_MEM", g), "GB", "GPU"),
        ("bandwidth", "Memory bandwidth", _lookup("GPU_BW", g), "tbps", "GPU"),
        ("bf16", "BF16 dense peak", _lookup("GPU_BF16", g), "tflops", "GPU"),
        ("fp8", "FP8 dense peak", _lookup("GPU_FP8", g), "tflops", "GPU"),
        ("price", '=\"Price per GPU-hour (\"&CURRENCY&\")\"',
         f"=IF(ISNUMBER({K['price_override']}),{K['price_override']},"
         f"IF(ISNUMBER(INDEX(GPU_PRICE,{g})),INDEX(GPU_PRICE,{g}),NA()))", "money",
         f'=IF(ISNA({K["price"]}),"no price on the GPUs sheet: enter one there or in '
         f'{K["price_override"]}","override if given, else the GPUs sheet")'),
        ("context", "Context length", "=CONTEXT", "tokens", "Assumptions"),
        ("batch", "Batch (sequences decoded together)", "=BATCH", "seq", "Assumptions"),
        ("efficiency", "Roof efficiency", "=ROOF_EFFICIENCY", "pct", "Assumptions"),
        ("reserve", "Memory reserve", "=RESERVE", "pct", "Assumptions"),
    ]
    for key, label, formula, fmt, note in lookups:
        cell = K[key]
        s.put(f"A{cell[1:]}", label)
        s.put(cell, formula, "formula", fmt)
        s.ws[cell].alignment = Alignment(horizontal="right")
        if note in ("GPU",):
            note = _empty_says(cell, "GPU")
        s.put(f"C{cell[1:]}", note, "note")

    s.section(34, "Results (napkin functions)")
    p = f"{K['params_b']}*1000000000"
    prec, kvp = K["precision"], K["kv_precision"]
    bw, roof, eff = K["bandwidth"], K["roof_tflops"], K["efficiency"]
    results = [
        ("weight_gb", "Weights", f"=WEIGHT_GB({p},{prec})", "GB",
         "WEIGHT_GB(params, precision): parameters × bytes per parameter"),
        ("weight_gib", "Weights in GiB", f'=WEIGHT_GB({p},{prec},"GiB")', "GiB",
         "1 GiB = 1024³ bytes, 7 % more than 1 GB"),
        ("kv_gqa_gb", "KV cache, GQA formula (context × batch)",
         f"=KV_CACHE_GB({K['layers']},{K['kv_heads']},{K['head_dim']},{K['context']},"
         f"{kvp},{K['batch']})", "GB",
         "KV_CACHE_GB: 2 × layers × KV heads × head dim × bytes × tokens × batch"),
        ("kv_factor", "Attention correction (MLA, sliding window)",
         f"={K['kv_bytes']}/(4*{K['layers']}*{K['kv_heads']}*{K['head_dim']})"
         f"*IF({K['sliding']}=0,1,1-{K['sliding']}/{K['layers']}"
         f"*MAX(0,{K['context']}-{K['window']})/{K['context']})", "0.000",
         f'=IF({K["kv_factor"]}=1,"1: the GQA formula is right for "&{K["attention"]},'
         f'{K["attention"]}&": the GQA formula over-counts; this factor corrects it")'),
        ("kv_gb", "KV cache for this model", f"={K['kv_gqa_gb']}*{K['kv_factor']}", "GB",
         "What the KV cache really takes at this context and batch"),
        ("need_gb", "Memory needed: weights + KV cache", f"={K['weight_gb']}+{K['kv_gb']}",
         "GB", "runtime overhead comes on top (Assumptions: memory reserve)"),
        ("fits_weights", "Weights fit on one GPU?",
         f'=IF(FITS({K["weight_gb"]},{K["memory"]}),"yes","no")', None,
         "FITS(weights, GPU memory)"),
        ("fits_all", "Weights + KV cache fit on one GPU?",
         f'=IF(FITS({K["need_gb"]},{K["memory"]},{K["reserve"]}),"yes","no")', None,
         "FITS(need, GPU memory, reserve)"),
        ("gpus_needed", "GPUs needed for weights + KV cache",
         f"=GPUS_NEEDED({K['need_gb']},{K['memory']},{K['reserve']})", "gpus",
         "GPUS_NEEDED: whole GPUs to hold it (split evenly, e.g. tensor parallel)"),
        ("floor_ms", "Decode floor: weights only, batch 1, one GPU",
         f"=DECODE_FLOOR({p},{prec},{bw})", "ms_token",
         f'=IF({K["fits_weights"]}="yes","DECODE_FLOOR: weights ÷ bandwidth; the reference\'s '
         f'per-token floor","the weights do not fit on one GPU: this floor is fiction, see '
         f'the next rows")'),
        ("roof_tflops", "Compute roof used",
         f"=IF(AND(BYTES_PER_PARAM({prec})<=1,ISNUMBER({K['fp8']})),{K['fp8']},"
         f"{K['bf16']})", "tflops",
         f'=IF(ISNA({K["roof_tflops"]}),"no FLOPS figure for this GPU: math time not '
         f'counted",IF(AND(BYTES_PER_PARAM({prec})<=1,ISNUMBER({K["fp8"]})),"FP8 roof '
         f'(weights in 1 byte or less)","BF16 roof"))'),
        ("step_ms", "Decode step floor at the batch, over the GPUs needed",
         f"=IF(ISNUMBER({roof}),DECODE_FLOOR({p},{prec},{bw}*{K['gpus_needed']},"
         f"{K['batch']},{roof}*{eff}*{K['gpus_needed']},{K['kv_gb']}),"
         f"DECODE_FLOOR({p},{prec},{bw}*{K['gpus_needed']},{K['batch']},,{K['kv_gb']}))",
         "ms_token", "DECODE_FLOOR with KV cache and batch; the GPUs' bandwidth and roof "
         "(× efficiency) add up"),
        ("tps_total", "Tokens/s in total (all sequences)",
         f"=TOKENS_PER_SEC({K['step_ms']})*{K['batch']}", "tps",
         "TOKENS_PER_SEC(step) × batch: one token per sequence per step"),
        ("tps_user", "Tokens/s per user", f"=PER_USER_TPS({K['tps_total']},{K['batch']})",
         "tps", "PER_USER_TPS(total, batch): batching raises the total, not each user's"),
        ("ridge_bf16", "Ridge, BF16 datasheet", f"=RIDGE({K['bf16']},{bw})", "flop_byte",
         "RIDGE(peak, bandwidth): H100 ≈ 295 FLOP/byte"),
        ("ridge_used", "Ridge, roof used × efficiency", f"=RIDGE({roof},{bw},{eff})",
         "flop_byte", "below it memory-bound, above it compute-bound"),
        ("critical_batch", "Critical batch (decode reaches the ridge)",
         f"=CRITICAL_BATCH({roof}*{eff},{bw},{prec})", "seq",
         "CRITICAL_BATCH(roof × efficiency, bandwidth, weight precision)"),
        ("decode_intensity", "Decode intensity at the batch",
         f"=INTENSITY(2*{p}*{K['batch']},{K['weight_gb']}*1000000000)", "flop_byte",
         "INTENSITY(2 × params × batch, weight bytes)"),
        ("side", "Side of the ridge at the batch",
         f"=BOUND({K['decode_intensity']},{K['ridge_used']})", None,
         "BOUND(intensity, ridge): left of it, batching is nearly free"),
        ("cost_mtok", '=\"Cost per million tokens (\"&CURRENCY&\")\"',
         f"=COST_PER_MTOK({K['price']},{K['tps_total']},{K['gpus_needed']},UTILIZATION)",
         "money", "COST_PER_MTOK(price, tokens/s, GPUs, utilization); the Cost sheet adds "
         "traffic"),
    ]
    needs_flops = {"ridge_bf16", "ridge_used", "critical_batch", "side", "cost_mtok"}
    for key, label, formula, fmt, note in results:
        cell = K[key]
        if key in needs_flops:
            note = (f'=IF(ISERROR({cell}),"not available: the tables have no figure for it '
                    f'(FLOPS or price of this GPU)","{note}")')
        s.put(f"A{cell[1:]}", label)
        s.put(cell, formula, "result", fmt)
        s.ws[cell].alignment = Alignment(horizontal="right")
        s.put(f"C{cell[1:]}", note, "note")
    for key in ("fits_weights", "fits_all"):
        _yes_no_colours(s.ws, K[key])
    _sizing_grids(s, n_models, n_gpus)
    return s


def _yes_no_colours(ws, cells: str):
    """Conditional formatting: "yes" green, "no" red (the FITS results)."""
    ws.conditional_formatting.add(cells, CellIsRule(
        operator="equal", formula=['"yes"'], fill=PatternFill("solid", fgColor="C6EFCE"),
        font=Font(color="006100", bold=True)))
    ws.conditional_formatting.add(cells, CellIsRule(
        operator="equal", formula=['"no"'], fill=PatternFill("solid", fgColor="FFC7CE"),
        font=Font(color="9C0006", bold=True)))


def _sizing_grids(s: Sheet, n_models: int, n_gpus: int):
    """The model × GPU grids under the Sizing results (see :func:`sheet_sizing`)."""
    ws = s.ws
    prec = SIZING["precision"]
    first_col = 3  # C
    last_col = first_col + n_gpus - 1
    last_letter = get_column_letter(last_col)
    for j in range(n_gpus):
        ws.column_dimensions[get_column_letter(first_col + j)].width = 9
    # column C holds the notes above (narrow, the text overflows to the right)
    top = GRID_TOP

    def block(title_row: int, title: str, kind: str):
        s.section(title_row, title, last_letter)
        head = title_row + 1
        s.put(f"A{head}", "Model  \\  GPU", "header")
        s.put(f"B{head}", "Parameters (B)", "header")
        ws.row_dimensions[head].height = 120
        for j in range(n_gpus):
            col = get_column_letter(first_col + j)
            s.put(f"{col}{head}", f"=INDEX(GPU_NAME,{j + 1})", "header")
            ws[f"{col}{head}"].alignment = Alignment(text_rotation=90, wrap_text=True,
                                                     horizontal="center", vertical="bottom")
            what = ("GPU_MEM", "GB") if kind == "fits" else ("GPU_BW", "tbps")
            s.put(f"{col}{head + 1}", f"=INDEX({what[0]},{j + 1})", "formula",
                  "#,##0\" GB\"" if kind == "fits" else '0.00" TB/s"')
        s.put(f"A{head + 1}", "GPU memory" if kind == "fits" else "GPU bandwidth", "note")
        first = head + 2
        for i in range(n_models):
            r = first + i
            s.put(f"A{r}", f"=INDEX(MODEL_NAME,{i + 1})", "formula")
            s.put(f"B{r}", f"=INDEX(MODEL_PARAMS_B,{i + 1})", "formula", "#,##0.00")
            for j in range(n_gpus):
                col = get_column_letter(first_col + j)
                if kind == "fits":
                    f = (f"=IF(FITS(WEIGHT_GB($B{r}*1000000000,{prec}),{col}${head + 1}),"
                         '"yes","no")')
                    s.put(f"{col}{r}", f, "formula")
                    ws[f"{col}{r}"].alignment = Alignment(horizontal="center")
                else:
                    f = f"=DECODE_FLOOR($B{r}*1000000000,{prec},{col}${head + 1})"
                    s.put(f"{col}{r}", f, "formula", "#,##0.0")
        return first, first + n_models - 1

    f1, l1 = block(top, "Grid 1: do the weights fit on one GPU? (weight precision above; "
                        "the KV cache needs room too)", "fits")
    _yes_no_colours(ws, f"C{f1}:{last_letter}{l1}")
    top2 = l1 + 3
    f2, l2 = block(top2, "Grid 2: decode floor in ms/token (weights ÷ bandwidth, batch 1, one "
                         "GPU); grey where the weights do not fit", "floor")
    rng2 = f"C{f2}:{last_letter}{l2}"
    ws.conditional_formatting.add(rng2, FormulaRule(
        formula=[f'C{f1}="no"'], stopIfTrue=True, fill=PatternFill("solid", fgColor="D9D9D9"),
        font=Font(color="A6A6A6", italic=True)))
    ws.conditional_formatting.add(rng2, ColorScaleRule(
        start_type="num", start_value=5, start_color="63BE7B",
        mid_type="num", mid_value=30, mid_color="FFEB84",
        end_type="num", end_value=200, end_color="F8696B"))
    s.put(f"A{l2 + 2}", "Green: under 5 ms/token (200+ tokens/s per stream); yellow: about "
                        "30 ms; red: 200 ms and more. Change the weight precision in B6 "
                        "to redraw both grids.", "note")


# ---------------------------------------------------------------------------- cost
COST = {"model": "B4", "precision": "B5", "params": "B6", "need_gb": "B7", "kv_gb": "B8",
        "batch": "B9", "tokens_day": "B10", "avg_tps": "B11", "peak_ratio": "B12",
        "peak_tps": "B13", "utilization": "B14", "hours": "B15", "efficiency": "B16",
        "reserve": "B17"}
COST_FIRST = 21
COST_COLUMNS = [  # header, width, format
    ("GPU", 26, None), ("Price per GPU-hour", 12, "money"), ("Memory", 10, "GB"),
    ("Bandwidth", 11, "tbps"), ("Compute roof", 16, "tflops"),
    ("GPUs per replica", 11, "gpus"), ("Step floor", 16, "ms_token"),
    ("Tokens/s per replica", 16, "tps"), ("Replicas for the peak", 11, "count"),
    ("GPUs in total", 10, "gpus"), ("Monthly cost", 14, "money"),
    ("Cost per million tokens, your traffic", 14, "money"),
    ("Cost per million tokens, replica at utilization", 15, "money"), ("Note", 60, None),
]


def sheet_cost(wb: Workbook, n_gpus: int) -> Sheet:
    """Cost: tokens per day -> GPUs needed -> monthly cost -> cost per million tokens.

    B4..B17  the chosen model and precision (from Sizing), memory per replica, batch, and
             the traffic assumptions: average and peak tokens/s (native arithmetic)
    Rows 21.. one row per GPU type, side by side:
      B price, C memory, D bandwidth, E compute roof (lookups)
      F GPUs per replica   = GPUS_NEEDED(weights + KV, memory, reserve)
      G step floor (ms)    = DECODE_FLOOR(params, precision, bandwidth × F, batch,
                             roof × efficiency × F, KV)
      H tokens/s/replica   = TOKENS_PER_SEC(G) × batch
      I replicas           = CEILING(peak tokens/s ÷ (H × utilization), 1)
      J GPUs in total      = I × F
      K monthly cost       = J × price × hours per month
      L cost per M tokens  = COST_PER_MTOK(price, average tokens/s, J)  (= K ÷ tokens)
      M unit cost          = COST_PER_MTOK(price, H, F, utilization)
      N note (no price, no FLOPS figure)
    """
    widths = {get_column_letter(i + 1): w for i, (_, w, _) in enumerate(COST_COLUMNS)}
    widths["A"], widths["B"] = 36, 22
    s = Sheet(wb, "Cost", widths)
    K = COST
    s.title_rows("Cost: tokens per day → GPUs needed → monthly cost → cost per million tokens",
                 "For the model and precision chosen on Sizing, on each GPU type. Traffic, "
                 "batch and utilization are on the Assumptions sheet; prices on GPUs.")
    sz = {k: f"Sizing!{v}" for k, v in SIZING.items()}
    rows = [
        ("model", "Model (Sizing)", f"={sz['model']}", None),
        ("precision", "Weight precision (Sizing)", f"={sz['precision']}", None),
        ("params", "Parameters", f"={sz['params_b']}", '#,##0.00 "billion"'),
        ("need_gb", "Memory per replica: weights + KV cache", f"={sz['need_gb']}", "GB"),
        ("kv_gb", "of which KV cache", f"={sz['kv_gb']}", "GB"),
        ("batch", "Batch per replica", "=BATCH", "seq"),
        ("tokens_day", "Traffic", "=TOKENS_PER_DAY", "tokens_day"),
        ("avg_tps", "Average rate", f"={K['tokens_day']}/86400", "tps"),
        ("peak_ratio", "Peak-to-average ratio", "=PEAK_TO_AVG", "ratio"),
        ("peak_tps", "Peak rate (capacity is sized for it)",
         f"={K['avg_tps']}*{K['peak_ratio']}", "tps"),
        ("utilization", "Utilization", "=UTILIZATION", "pct"),
        ("hours", "Hours per month", "=HOURS_PER_MONTH", "hours"),
        ("efficiency", "Roof efficiency", "=ROOF_EFFICIENCY", "pct"),
        ("reserve", "Memory reserve", "=RESERVE", "pct"),
    ]
    s.section(3, "Inputs (change them on Sizing and Assumptions)", "D")
    for key, label, formula, fmt in rows:
        cell = K[key]
        s.put(f"A{cell[1:]}", label)
        s.put(cell, formula, "formula", fmt)
    headers = [h for h, _, _ in COST_COLUMNS]
    headers[1] = '=\"Price per GPU-hour (\"&CURRENCY&\")\"'
    headers[10] = '=\"Monthly cost (\"&CURRENCY&\")\"'
    headers[11] = '=\"Per million tokens, your traffic (\"&CURRENCY&\")\"'
    headers[12] = '=\"Per million tokens, replica at utilization (\"&CURRENCY&\")\"'
    s.section(COST_FIRST - 2, "Each GPU type", "N")
    s.header(COST_FIRST - 1, headers, height=60)
    p, prec = f"{K['params']}*1000000000", K["precision"]
    for i in range(n_gpus):
        r = COST_FIRST + i
        k = i + 1
        s.put(f"A{r}", f"=INDEX(GPU_NAME,{k})", "formula")
        s.put(f"B{r}", f'=IF(ISNUMBER(INDEX(GPU_PRICE,{k})),INDEX(GPU_PRICE,{k}),"no price")',
              "formula", "money")
        s.put(f"C{r}", _lookup("GPU_MEM", k), "formula", "GB")
        s.put(f"D{r}", _lookup("GPU_BW", k), "formula", "tbps")
        s.put(f"E{r}", f"=IF(AND(BYTES_PER_PARAM({prec})<=1,ISNUMBER(INDEX(GPU_FP8,{k}))),"
                       f"INDEX(GPU_FP8,{k}),IF(ISNUMBER(INDEX(GPU_BF16,{k})),INDEX(GPU_BF16,{k}),"
                       '"no figure"))', "formula", "tflops")
        s.put(f"F{r}", f"=GPUS_NEEDED({K['need_gb']},C{r},{K['reserve']})", "formula", "gpus")
        s.put(f"G{r}", f"=IF(ISNUMBER(E{r}),DECODE_FLOOR({p},{prec},D{r}*F{r},{K['batch']},"
                       f"E{r}*{K['efficiency']}*F{r},{K['kv_gb']}),DECODE_FLOOR({p},{prec},"
                       f"D{r}*F{r},{K['batch']},,{K['kv_gb']}))", "formula", "ms_token")
        s.put(f"H{r}", f"=TOKENS_PER_SEC(G{r})*{K['batch']}", "formula", "tps")
        s.put(f"I{r}", f"=CEILING({K['peak_tps']}/(H{r}*{K['utilization']}),1)", "formula",
              "count")
        s.put(f"J{r}", f"=I{r}*F{r}", "formula", "gpus")
        s.put(f"K{r}", f"=IF(ISNUMBER(B{r}),J{r}*B{r}*{K['hours']},\"no price\")", "result",
              "money")
        s.put(f"L{r}", f"=IF(ISNUMBER(B{r}),COST_PER_MTOK(B{r},{K['avg_tps']},J{r}),"
                       f"\"no price\")", "result", "money")
        s.put(f"M{r}", f"=IF(ISNUMBER(B{r}),COST_PER_MTOK(B{r},H{r},F{r},{K['utilization']}),"
                       f"\"no price\")", "formula", "money")
        s.put(f"N{r}", f'=IF(ISNUMBER(B{r}),"",  "no price: enter one on the GPUs sheet (column '
                       f'L)")&IF(ISNUMBER(E{r}),"",IF(ISNUMBER(B{r}),"","; ")&"no FLOPS figure: '
                       f'math time not counted")', "note")
    last = COST_FIRST + n_gpus - 1
    for col in "BEKLM":  # text ("no price", "no figure") sits where the numbers do
        for r in range(COST_FIRST, last + 1):
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    s.ws.conditional_formatting.add(f"L{COST_FIRST}:L{last}", ColorScaleRule(
        start_type="min", start_color="63BE7B", end_type="max", end_color="F8696B"))
    s.put(f"A{last + 2}", "Capacity is sized for the peak: replicas = CEILING(peak tokens/s ÷ "
                          "(tokens/s per replica × utilization)). 'Your traffic' divides the "
                          "month's bill by the month's tokens; 'replica at utilization' is "
                          "the unit cost of one busy replica.", "note")
    s.put(f"A{last + 3}", "Floors, not predictions: the step floor assumes the bytes stream "
                          "at datasheet bandwidth, split evenly over the GPUs of a replica.",
          "note")
    s.ws.freeze_panes = f"B{COST_FIRST}"
    return s


# ---------------------------------------------------------------------------- roofline
ROOF_FIRST = 12   # rows 12..16: the roof points
KERNEL_FIRST = 21  # rows 21..26: the reference kernels
KERNELS = [  # label, size label, size, FLOPs formula, bytes formula, intensity formula
    ("y = x × 2 (BF16)", "elements", 16777216, "={s}", "=4*{s}", "=INTENSITY({f},{b})",
     "1 FLOP per 2 bytes read + 2 written: I = 0.25"),
    ("softmax (BF16)", "elements", 16777216, "=5*{s}", "=4*{s}", "=INTENSITY({f},{b})",
     "≈ 5 FLOPs per element (max, subtract, exp, sum, divide) over 4 bytes"),
    ("decode GEMM, batch 1", "batch B", 1, "=2*{s}*$B$8*$B$9", "=2*$B$8*$B$9",
     "=INTENSITY({f},{b})", "B token vectors × a D × F BF16 weight matrix: I ≈ B"),
    ("decode GEMM, batch 64", "batch B", 64, "=2*{s}*$B$8*$B$9", "=2*$B$8*$B$9",
     "=INTENSITY({f},{b})", "still memory-bound: 64 tokens in about the time of 1"),
    ("decode GEMM, batch 295", "batch B", 295, "=2*{s}*$B$8*$B$9", "=2*$B$8*$B$9",
     "=INTENSITY({f},{b})", "reaches the H100 BF16 ridge: batching stops being free"),
    ("matmul 4096³ (BF16)", "N", 4096, "=2*{s}^3", "=3*2*{s}^2",
     "=MATMUL_INTENSITY({s},{s},{s})", "2N³ ÷ (3 × 2N²) = N/3 ≈ 1,365: on the roof"),
]


def sheet_roofline(wb: Workbook) -> Sheet:
    """Roofline: the chosen GPU's roofs and the reference kernels, with a log-log chart.

    B3..B9   GPU (from Sizing), bandwidth, BF16 and FP8 peaks, roof efficiency, and the
             decode GEMM's D and F (INPUTS, 8192)
    A12..E16 the roofs at x = 0.1, the three ridges, 10,000 FLOP/byte:
             ATTAINABLE(x, peak, bandwidth) for BF16, BF16 × efficiency, FP8
    A21..I26 the kernels: size (INPUT), FLOPs, bytes, intensity (INTENSITY or
             MATMUL_INTENSITY), attainable TFLOPS on the BF16 roof (ATTAINABLE), time
             (KERNEL_TIME, µs), side of the BF16 ridge (BOUND)
    Chart    right of the tables: log-log scatter, roofs as lines, kernels as points
    """
    s = Sheet(wb, "Roofline", {"A": 28, "B": 22, "C": 18, "D": 18, "E": 16, "F": 16,
                               "G": 16, "H": 15, "I": 64})
    s.title_rows("Roofline: where each kernel sits on the chosen GPU",
                 "Attainable FLOPS = MIN(peak, bandwidth × intensity); both axes log scale. "
                 "Left of the ridge: memory-bound. Right of it: compute-bound.")
    sz = {k: f"Sizing!{v}" for k, v in SIZING.items()}
    rows = [
        ("B3", "GPU (Sizing)", f"={sz['gpu']}", None, "formula"),
        ("B4", "Memory bandwidth", f"={sz['bandwidth']}", "tbps", "formula"),
        ("B5", "BF16 dense peak", f"={sz['bf16']}", "tflops", "formula"),
        ("B6", "FP8 dense peak", f"={sz['fp8']}", "tflops", "formula"),
        ("B7", "Roof efficiency", "=ROOF_EFFICIENCY", "pct", "formula"),
        ("B8", "Decode GEMM: D (model width)", 8192, "count", "input"),
        ("B9", "Decode GEMM: F (output width)", 8192, "count", "input"),
    ]
    for cell, label, value, fmt, style in rows:
        s.put(f"A{cell[1:]}", label)
        s.put(cell, value, style, fmt)
    s.validate("B8:B9", "whole", "Width of the weight matrix: a whole number from 1 to "
               "1,000,000.", "Matrix width", 1, 1000000)
    s.put("C4", _empty_says("B4", "GPU"), "note")
    s.put("C5", _empty_says("B5", "GPU"), "note")
    s.put("C6", _empty_says("B6", "GPU"), "note")

    s.section(10, "The roofs (data of the chart's lines)", "E")
    s.header(11, ["Intensity (FLOP/byte)", "BF16 roof (TFLOPS)",
                  "BF16 roof × efficiency (TFLOPS)", "FP8 roof (TFLOPS)", "Point"])
    xs = [("0.1", "left edge"), ("=RIDGE($B$5,$B$4,$B$7)", "ridge, BF16 × efficiency"),
          ("=RIDGE($B$5,$B$4)", "ridge, BF16"),
          ("=IF(ISNUMBER($B$6),RIDGE($B$6,$B$4),RIDGE($B$5,$B$4))", "ridge, FP8"),
          ("10000", "right edge")]
    for i, (x, what) in enumerate(xs):
        r = ROOF_FIRST + i
        s.put(f"A{r}", float(x) if x[0] != "=" else x, "formula", "#,##0.0##")
        s.put(f"B{r}", f"=ATTAINABLE(A{r},$B$5,$B$4)", "formula", "#,##0.00")
        s.put(f"C{r}", f"=ATTAINABLE(A{r},$B$5*$B$7,$B$4)", "formula", "#,##0.00")
        s.put(f"D{r}", f"=IF(ISNUMBER($B$6),ATTAINABLE(A{r},$B$6,$B$4),NA())", "formula",
              "#,##0.00")
        s.put(f"E{r}", what, "note")

    s.section(KERNEL_FIRST - 2, "The reference kernels (data of the chart's points), "
                                "on the BF16 roof", "I")
    s.header(KERNEL_FIRST - 1, ["Kernel", "Size (input)", "FLOPs", "Bytes moved",
                                "Intensity (FLOP/byte)", "Attainable (TFLOPS)",
                                "Time floor (µs)", "Side of the BF16 ridge", "Why"])
    for i, (label, size_label, size, flops, nbytes, inten, why) in enumerate(KERNELS):
        r = KERNEL_FIRST + i
        s.put(f"A{r}", label, "label")
        s.put(f"B{r}", size, "input", f'#,##0 "{size_label}"')
        s.put(f"C{r}", flops.format(s=f"B{r}"), "formula", "#,##0")
        s.put(f"D{r}", nbytes.format(s=f"B{r}"), "formula", "#,##0")
        s.put(f"E{r}", inten.format(s=f"B{r}", f=f"C{r}", b=f"D{r}"), "formula", "#,##0.00")
        s.put(f"F{r}", f"=ATTAINABLE(E{r},$B$5,$B$4)", "formula", "#,##0.00")
        s.put(f"G{r}", f'=KERNEL_TIME(C{r},D{r},$B$5,$B$4,"us")', "formula", "#,##0.00")
        s.put(f"H{r}", f"=BOUND(E{r},$A${ROOF_FIRST + 2})",
              "formula")
        s.put(f"I{r}", why, "note")
        s.validate(f"B{r}", "whole", "Size of the kernel: a whole number from 1 to "
                   "1,000,000,000.", "Kernel size", 1, 1000000000)
    last = KERNEL_FIRST + len(KERNELS) - 1
    s.put(f"A{last + 2}", "A kernel far below the line is limited by its code, not the "
                          "hardware. Left of the ridge: batch more, fuse kernels, store "
                          "weights in fewer bits. Right of it: buy FLOPS.", "note")
    _roofline_chart(s, last)
    return s


def _roofline_chart(s: Sheet, last_kernel: int):
    chart = ScatterChart()
    chart.title = "Roofline of the chosen GPU (log-log)"
    chart.style = 2
    chart.scatterStyle = "lineMarker"
    chart.height, chart.width = 13, 24
    chart.x_axis.title = "Arithmetic intensity (FLOP/byte)"
    chart.y_axis.title = "Attainable TFLOPS"
    for axis, lo, hi in ((chart.x_axis, 0.1, 10000), (chart.y_axis, 0.1, 10000)):
        axis.scaling.logBase = 10
        axis.scaling.min, axis.scaling.max = lo, hi
        axis.delete = False
        axis.number_format = "#,##0.##"
        axis.majorTickMark = "out"
    chart.x_axis.crosses = "min"
    chart.y_axis.crosses = "min"
    ws = s.ws
    x = Reference(ws, min_col=1, min_row=ROOF_FIRST, max_row=ROOF_FIRST + 4)
    colors = {2: "1F4E79", 3: "9DC3E6", 4: "C55A11"}
    for col in (2, 3, 4):
        y = Reference(ws, min_col=col, min_row=ROOF_FIRST, max_row=ROOF_FIRST + 4)
        ser = Series(y, x)
        ser.tx = SeriesLabel(strRef=StrRef(f"'Roofline'!${get_column_letter(col)}$11"))
        ser.marker.symbol = "none"
        ser.smooth = False
        ser.graphicalProperties.line.solidFill = colors[col]
        ser.graphicalProperties.line.width = 28575 if col != 3 else 19050
        if col == 3:
            ser.graphicalProperties.line.dashStyle = "dash"
        chart.series.append(ser)
    palette = ["70AD47", "7030A0", "FF0000", "FFC000", "00B0F0", "000000"]
    symbols = ["circle", "diamond", "triangle", "square", "x", "star"]
    for i, r in enumerate(range(KERNEL_FIRST, last_kernel + 1)):
        ser = Series(Reference(ws, min_col=6, min_row=r), Reference(ws, min_col=5, min_row=r))
        ser.tx = SeriesLabel(strRef=StrRef(f"'Roofline'!$A${r}"))
        ser.marker.symbol = symbols[i]
        ser.marker.size = 9
        ser.marker.graphicalProperties.solidFill = palette[i]
        ser.marker.graphicalProperties.line.solidFill = palette[i]
        ser.graphicalProperties.line.noFill = True
        ser.smooth = False  # LibreOffice applies one curve style to the whole chart
        chart.series.append(ser)
    chart.legend.position = "r"
    ws.add_chart(chart, f"A{last_kernel + 4}")


# ---------------------------------------------------------------------------- speedup
AMDAHL_P = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99]
AMDAHL_S = [1.5, 2, 3, 4, 10, 100]
SPEEDUP_TOP = 4
GRID_HEAD = 14


def sheet_speedup(wb: Workbook) -> Sheet:
    """Speedup: the reference examples, then an Amdahl grid.

    Rows 5..9   examples: before/after or p/s INPUTS in B and C, the speedup in D
                (SPEEDUP or AMDAHL): 20 → 15 ms 1.33×, "25 % faster" 1.25×, "25 % less time"
                1.33×, 30 % made 3× faster 1.25×, made infinitely faster 1.43×
    Row 14..    Amdahl grid: share p down column A (INPUTS), factor s across row 14
                (INPUTS), AMDAHL(p, s) in the body and AMDAHL(p) in the last column (∞)
    """
    s = Sheet(wb, "Speedup", {"A": 40, "B": 12, "C": 12, "D": 12, "E": 12, "F": 12,
                              "G": 12, "H": 12, "I": 60})
    s.title_rows("Speedup: time before ÷ time after, and Amdahl's law",
                 "Speedups combine by adding times, not percentages. Before judging an "
                 "optimisation, ask what share of the time it touches.")
    s.section(SPEEDUP_TOP, "Reference examples", "I")
    s.header(SPEEDUP_TOP + 1, ["Case", "Before / share p", "After / factor s", "Speedup"])
    s.put(f"I{SPEEDUP_TOP + 1}", "Formula", "header")
    examples = [
        ("20 ms → 15 ms", 20, 15, "=SPEEDUP(B{r},C{r})", "SPEEDUP(before, after)",
         ("ms", "ms")),
        ('"25 % faster": 1.25 × the rate', 1, 0.8, "=SPEEDUP(B{r},C{r})",
         "usually 1.25×: the time becomes 1 ÷ 1.25 = 0.8", ("ms", "ms")),
        ('"25 % less time"', 1, 0.75, "=SPEEDUP(B{r},C{r})",
         "the time becomes 0.75: 1.33×", ("ms", "ms")),
        ("30 % of the time made 3× faster", 0.3, 3, "=AMDAHL(B{r},C{r})",
         "AMDAHL(p, s) = 1 ÷ ((1 − p) + p ÷ s)", ("p", "s")),
        ("same part made infinitely faster", 0.3, None, "=AMDAHL(B{r})",
         "AMDAHL(p) = 1 ÷ (1 − p): the ceiling", ("p", None)),
    ]
    for i, (label, before, after, formula, why, kinds) in enumerate(examples):
        r = SPEEDUP_TOP + 2 + i
        s.put(f"A{r}", label)
        for col, value, kind in (("B", before, kinds[0]), ("C", after, kinds[1])):
            if kind is None:
                s.put(f"{col}{r}", "∞", "note")
                continue
            fmt = {"ms": '#,##0.00 "ms"', "p": "0%", "s": '0.0"×"'}[kind]
            s.put(f"{col}{r}", value, "input", fmt)
            if kind == "ms":
                s.validate(f"{col}{r}", "decimal", "A time in ms: a number above 0.",
                           "Time", 0.000001, 1e12)
            elif kind == "p":
                s.validate(f"{col}{r}", "decimal", "Share of the time that gets faster: "
                           "a fraction from 0 to 1 (30 % = 0.3).", "Share p", 0, 1)
            else:
                s.validate(f"{col}{r}", "decimal", "How many times faster that part gets: "
                           "a number above 0.", "Factor s", 0.000001, 1e12)
        s.put(f"D{r}", formula.format(r=r), "result", "x")
        s.put(f"I{r}", why, "note")

    s.section(GRID_HEAD - 2, "Amdahl grid: overall speedup when a share p of the time "
                             "gets s times faster", "I")
    s.put(f"A{GRID_HEAD}", "share p  \\  factor s", "header")
    for j, factor in enumerate(AMDAHL_S):
        col = get_column_letter(2 + j)
        s.put(f"{col}{GRID_HEAD}", factor, "input", '0.0"×"')
    inf_col = get_column_letter(2 + len(AMDAHL_S))
    s.put(f"{inf_col}{GRID_HEAD}", "∞", "header")
    s.ws[f"{inf_col}{GRID_HEAD}"].alignment = Alignment(horizontal="right")
    s.validate(f"B{GRID_HEAD}:{get_column_letter(1 + len(AMDAHL_S))}{GRID_HEAD}", "decimal",
               "How many times faster the part gets: a number above 0.", "Factor s",
               0.000001, 1e12)
    for i, share in enumerate(AMDAHL_P):
        r = GRID_HEAD + 1 + i
        s.put(f"A{r}", share, "input", "0%")
        for j in range(len(AMDAHL_S)):
            col = get_column_letter(2 + j)
            s.put(f"{col}{r}", f"=AMDAHL($A{r},{col}${GRID_HEAD})", "formula", "0.00\"×\"")
        s.put(f"{inf_col}{r}", f"=AMDAHL($A{r})", "formula", "0.00\"×\"")
    last = GRID_HEAD + len(AMDAHL_P)
    s.validate(f"A{GRID_HEAD + 1}:A{last}", "decimal", "Share of the time that gets faster: "
               "a fraction from 0 to 0.999 (30 % = 0.3).", "Share p", 0, 0.999)
    s.ws.conditional_formatting.add(f"B{GRID_HEAD + 1}:{inf_col}{last}", ColorScaleRule(
        start_type="num", start_value=1, start_color="FFFFFF", mid_type="num", mid_value=2,
        mid_color="C6EFCE", end_type="num", end_value=10, end_color="63BE7B"))
    s.put(f"A{last + 2}", "Read across a row: past a point, a faster part buys almost nothing "
                          "more. The ∞ column is the ceiling 1 ÷ (1 − p).", "note")
    return s


# ---------------------------------------------------------------------------- start
def sheet_start(wb: Workbook) -> Sheet:
    """Start: what the workbook answers, how to get the functions, the legend, the data date.

    A3..A9    the questions and where each is answered
    A11..A16  how to get the functions into Excel (napkin lite, napkin addin install,
              napkin calc) and what a colleague without the add-in sees
    A18..B22  legend: input cell, formula cell, key result, empty figure
    A24..     the data date and sources
    """
    s = Sheet(wb, "Start", {"A": 30, "B": 110})
    s.title_rows("napkin: LLM-inference napkin math in cells",
                 "Pick a model, a precision and a GPU on Sizing; read whether it fits, how "
                 "many GPUs, how fast it can possibly go and what a million tokens cost.")
    s.section(4, "What it answers", "B")
    answers = [
        ("Does it fit? How many GPUs?", "Sizing: weights GB / GiB, KV cache GB, FITS, "
                                         "GPUS_NEEDED; grid 1 for every model × GPU"),
        ("How fast can it possibly go?", "Sizing: the decode floor in ms/token, tokens/s "
                                          "per user and in total; grid 2"),
        ("What does a million tokens cost?", "Cost: tokens per day → GPUs → monthly cost → "
                                              "cost per million tokens, for each GPU type"),
        ("Memory-bound or compute-bound?", "Sizing (ridge, critical batch, side of the "
                                            "ridge) and Roofline (chart with the kernels)"),
        ("Is this optimisation worth it?", "Speedup: Amdahl grid and the reference "
                                            "examples"),
        ("Which assumptions?", "Assumptions: roof efficiency, utilization, context, batch, "
                               "traffic, currency. Facts: GPUs and Models, with sources"),
    ]
    for i, (q, where) in enumerate(answers):
        s.put(f"A{5 + i}", q, "label")
        s.put(f"B{5 + i}", where, "label")
    s.section(12, "Getting the functions into Excel", "B")
    routes = [
        ("xlwings Lite (Excel 365, web)", "napkin lite -o napkin-lite → paste main.py and "
                                           "requirements.txt into the xlwings Lite add-in "
                                           "(Excel's Add-ins store)."),
        ("xlwings add-in (desktop)", "pip install napkin → napkin addin install → "
                                      "restart Excel; the functions appear as =RIDGE(...)."),
        ("No Excel at all", "napkin calc napkin.xlsx -o out.xlsx computes every formula "
                            "headless and writes the values; napkin eval \"=RIDGE(989,3.35)\""
                            " evaluates one."),
        ("A colleague without the add-in", "Sees the numbers last computed (by Excel with "
                                            "the add-in or by napkin calc); native formulas "
                                            "recompute, napkin's need the add-in to "
                                            "recompute after an edit."),
    ]
    for i, (route, how) in enumerate(routes):
        s.put(f"A{13 + i}", route, "label")
        s.put(f"B{13 + i}", how, "label")
    s.section(18, "Legend", "B")
    legend = [
        ("input", "Input: yellow, unlocked. Type here; validation says what is accepted."),
        ("formula", "Formula: locked. A napkin function (RIDGE, DECODE_FLOOR...) or a native "
                    "lookup."),
        ("result", "Key result: green, locked."),
        ("empty", "Grey, empty: no trustworthy figure in the table; results that need it "
                  "are not available (an error value, or text) and say so."),
    ]
    for i, (style, text) in enumerate(legend):
        s.put(f"A{19 + i}", {"input": 1.25, "formula": "=SPEEDUP(20,16)", "result":
                             "=SPEEDUP(20,15)", "empty": None}[style], style,
              None if style == "empty" else "x")
        s.put(f"B{19 + i}", text, "label")
    s.section(24, "Data", "B")
    s.put("A25", "Tables gathered", "label")
    s.put("B25", DATA_DATE, "label")
    s.put("A26", "Sources", "label")
    s.put("B26", "GPUs: vendor datasheets and write-ups, dense figures (no sparsity). "
                 "Models: each model's config.json. Every row keeps its source and notes.",
          "label")
    s.put("A27", "Sheets are protected", "label")
    s.put("B27", "without a password (Review → Unprotect Sheet) so that typing lands only in "
                 "the yellow cells.", "label")
    return s


# ---------------------------------------------------------------------------- workbook
def build_workbook() -> Workbook:
    """The template as an openpyxl Workbook (sheets in reading order)."""
    wb = Workbook()
    wb.remove(wb.active)
    for style in _styles().values():
        wb.add_named_style(style)
    start = sheet_start(wb)
    n_gpus, n_models = len(tables.gpus()), len(tables.models())
    sizing = sheet_sizing(wb, n_models, n_gpus)
    cost = sheet_cost(wb, n_gpus)
    roof = sheet_roofline(wb)
    speed = sheet_speedup(wb)
    assumptions = sheet_assumptions(wb)
    gpus = sheet_gpus(wb)
    models = sheet_models(wb)
    for sheet in (start, sizing, cost, roof, speed, assumptions, gpus, models):
        sheet.protect()
        ws = sheet.ws
        ws.sheet_view.zoomScale = 100
        ws.page_setup.orientation = "landscape"
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr.fitToPage = True
    wb.active = 0
    p = wb.properties
    p.creator = p.lastModifiedBy = "napkin template"
    p.title = "napkin: LLM-inference napkin math"
    p.created = p.modified = FIXED_TIME
    return wb


def _normalise(path: Path):
    """Rewrite the zip with fixed member dates and a fixed modified date (openpyxl stamps
    the current time on both), so that two builds give identical bytes."""
    with zipfile.ZipFile(path) as z:
        members = [(info.filename, z.read(info.filename)) for info in z.infolist()]
    stamp = FIXED_TIME.strftime("%Y-%m-%dT%H:%M:%SZ")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            if name == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                              rb"\g<1>" + stamp.encode() + rb"\g<2>", data)
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16
            z.writestr(info, data)


def build_template(path=None) -> Path:
    """Write the template workbook to ``path`` (default: ``workbook/napkin.xlsx``)."""
    path = Path(path) if path is not None else DEFAULT_PATH
    if path.is_dir():
        path = path / "napkin.xlsx"
    path.parent.mkdir(parents=True, exist_ok=True)
    build_workbook().save(path)
    _normalise(path)
    return path


__all__ = ["build_template", "build_workbook", "SIZING", "COST", "DATA_DATE"]
