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
    Cost         tokens per day -> GPUs -> monthly cost -> cost per million tokens, per GPU;
                 floors, then realistic columns (floor ÷ the calibrated efficiency)
    Finance      the Sizing case as finance models it: low/base/high bands and a tornado,
                 input vs output tokens, rented vs owned, monthly budget, break-even
    Calibration  measured ms/token -> floor, MBU, MFU, efficiency found, plausibility; the
                 average efficiency feeds the realistic rows of Sizing, Cost and Finance
    Roofline     the chosen GPU's BF16/FP8 roofs and the reference kernels, log-log chart
    Speedup      Amdahl grid (p x s) and the reference examples
    Assumptions  roof efficiency, utilization, context, batch, traffic, currency; finance
                 (capex, PUE, kWh, API price...); low/high ranges; precisions
    GPUs         the GPU table (udfs/data/gpus.csv) with an editable price per GPU-hour
    Models       the model table (udfs/data/models.csv) with KV bytes per token and flags
    xlwings.conf the xlwings add-in's settings (UDF Modules...), read from A1 down

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
from openpyxl.chart import BarChart, Reference, ScatterChart, Series
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

# Defaults of the Sizing inputs (the issue's manager story)
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
    "hours": '#,##0.0 "h/month"', "ratio": '0.0"×"', "plain": "General", "row": '0',
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
    ("tdp_W", "TDP (W)", "GPU_TDP", "#,##0"),
    ("interconnect_GBps", "Interconnect (GB/s, both ways)", None, "#,##0"),
]


def sheet_gpus(wb: Workbook) -> Sheet:
    """GPUs: one row per accelerator of ``udfs/data/gpus.csv``, rows 6..26.

    A..K  the figures (name, vendor, memory GB, bandwidth TB/s, dense TFLOPS...), locked;
          an empty figure stays empty (grey) and lookups turn it into #N/A
    L     price per GPU-hour: INPUT, default from workbook/data/gpu_prices.csv (empty where
          no public price was checked: enter yours)
    M     where the default price comes from;  N source_url;  O notes
    Named ranges: GPU_NAME, GPU_MEM, GPU_BW, GPU_BF16, GPU_FP8, GPU_TDP, GPU_PRICE.
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
#: name -> (row, label, default, format, validation (kind, lo, hi), meaning, source).
#: A label starting with "=" is a formula (the currency in it); the prompt uses ``plain``.
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
    "HOURS_PER_MONTH": (11, "Hours per month", 730.5, "hours", ("decimal", 1, 744),
                        "Paid hours per GPU per month (Cost and Finance sheets)",
                        "Calendar: 8,766 h a year (365.25 days) ÷ 12, as MONTHLY_COST"),
    "RESERVE": (12, "Memory reserve", 0, "pct", ("decimal", 0, 0.95),
                "Share of GPU memory held back for activations and runtime (the KV "
                "cache is counted separately)", "Assumption: 0 keeps the reference's "
                "'fits' (weights ≤ capacity); 0.1 is a cautious choice"),
    "CURRENCY": (13, "Currency label", "USD", None, ("text", 1, 12),
                 "Label of the prices on the GPUs sheet and of the cost figures",
                 "GPU price defaults are in USD"),
}
FINANCE_TOP = 15  # section row of the calibration and finance assumptions
FINANCE_ASSUMPTIONS = {
    "EFF_DEFAULT": (17, "Efficiency without measurements", 0.7, "pct", ("decimal", 0.01, 1),
                    "Realistic time = floor ÷ efficiency. Used on Sizing, Cost and Finance "
                    "only while no row of the Calibration sheet is plausible",
                    "Assumption (no source): measure and enter it on the Calibration sheet "
                    "instead"),
    "PROMPT_TOKENS": (18, "Prompt length", 2000, "tokens", ("whole", 0, 10000000),
                      "Input tokens per request: the prefill time (time to first token) "
                      "on Finance", "Assumption: a chat turn with some history"),
    "INPUT_PER_OUTPUT": (19, "Input tokens per output token", 3, '0.0" : 1"',
                         ("decimal", 0, 10000),
                         "The traffic mix: prompt tokens read per token generated",
                         "Assumption: chat with history; retrieval and agents often read "
                         "10 or more per token generated"),
    "CAPEX": (20, '="Purchase price per GPU ("&CURRENCY&")"', 30000, "#,##0",
              ("decimal", 0, 10000000),
              "One GPU of the type chosen on Sizing, with its share of the server and "
              "network", "Assumption: a rough level for an H100-class GPU; use your quote",
              "Purchase price per GPU"),
    "YEARS": (21, "Write-off period", 4, '0.0 "years"', ("decimal", 0.5, 20),
              "Years over which the purchase is spread (amortised)",
              "Assumption: servers are commonly written off over 3 to 5 years"),
    "PUE": (22, "PUE", 1.3, "0.00", ("decimal", 1, 3),
            "Power usage effectiveness: facility power ÷ IT power (cooling, losses)",
            "Assumption: a typical modern data centre (about 1.1 at hyperscalers, 1.5 or "
            "more in older rooms)"),
    "KWH_PRICE": (23, '="Electricity price per kWh ("&CURRENCY&")"', 0.12, "0.000",
                  ("decimal", 0, 10), "What one kWh costs you",
                  "Assumption: an order of magnitude for an industrial tariff; use yours",
                  "Electricity price per kWh"),
    "API_PRICE": (24, '="API price per million tokens ("&CURRENCY&")"', 1, "money",
                  ("decimal", 0.0001, 10000),
                  "Price of the hosted API you compare with, input and output tokens "
                  "blended at the mix above",
                  "Assumption: an example level, not a quote; enter your provider's price",
                  "API price per million tokens"),
}
RANGES_TOP = 26  # section row of the low/high ranges
RANGE_ASSUMPTIONS = {
    "EFF_LOW": (28, "Efficiency, low", 0.5, "pct", ("decimal", 0.01, 1),
                "Cautious end of the efficiency range; the base is the efficiency found on "
                "the Calibration sheet", "Assumption: set it from the spread of your "
                "measurements"),
    "EFF_HIGH": (29, "Efficiency, high", 0.9, "pct", ("decimal", 0.01, 1),
                 "Optimistic end of the efficiency range (1 = the floor itself)",
                 "Assumption: set it from the spread of your measurements"),
    "UTIL_LOW": (30, "Utilization, low", 0.4, "pct", ("decimal", 0.01, 1),
                 "Cautious end; the base is the utilization above",
                 "Assumption (no source)"),
    "UTIL_HIGH": (31, "Utilization, high", 0.8, "pct", ("decimal", 0.01, 1),
                  "Optimistic end of the utilization range", "Assumption (no source)"),
    "PRICE_LOW": (32, "Price per GPU-hour, low", 0.7, "x", ("decimal", 0.01, 100),
                  "Cheap end, as a multiple of the price used on Sizing (base × 1)",
                  "Public H100 on-demand rates 2026 span about 1.99 to 5.00 around a 2.95 "
                  "median (GPUs sheet, column M): × 0.7 to × 1.7"),
    "PRICE_HIGH": (33, "Price per GPU-hour, high", 1.7, "x", ("decimal", 0.01, 100),
                   "Dear end, as a multiple of the price used on Sizing",
                   "As the low end"),
}
PRECISION_FIRST = 37


def _assumption_rows(wb: Workbook, s: Sheet, table: dict):
    for name, (row, label, default, fmt, (kind, lo, hi), meaning, source, *plain) in \
            table.items():
        plain = plain[0] if plain else label
        s.put(f"A{row}", label, "label")
        s.put(f"B{row}", default, "input", fmt)
        s.put(f"C{row}", meaning, "note")
        s.put(f"D{row}", source, "note")
        _name(wb, name, s.title, f"$B${row}")
        prompt = f"{plain}: {meaning}."
        if kind == "text":
            s.validate(f"B{row}", "text", prompt, plain, lo, hi)
        else:
            what = "fraction" if fmt == "pct" else ("whole number" if kind == "whole"
                                                     else "number")
            s.validate(f"B{row}", kind, f"{prompt} A {what} from {lo:g} to {hi:g}.",
                       plain, lo, hi)


def sheet_assumptions(wb: Workbook) -> Sheet:
    """Assumptions: one place for the numbers that are choices, not facts.

    Rows 5..13, column B (INPUT, each a named cell): ROOF_EFFICIENCY 0.8, UTILIZATION,
    CONTEXT, BATCH, TOKENS_PER_DAY, PEAK_TO_AVG, HOURS_PER_MONTH, RESERVE, CURRENCY.
    Rows 17..24: calibration and finance: EFF_DEFAULT, PROMPT_TOKENS, INPUT_PER_OUTPUT,
    CAPEX, YEARS, PUE, KWH_PRICE, API_PRICE.
    Rows 28..33: the ranges (low and high around a base): EFF_LOW/EFF_HIGH (base: the
    Calibration sheet's efficiency), UTIL_LOW/UTIL_HIGH (base: UTILIZATION),
    PRICE_LOW/PRICE_HIGH (multiples of the price used on Sizing).
    C says what it means, D where the default comes from.
    Rows 37..: the number formats of the precision dropdowns (PRECISION_NAME, bytes per
    parameter = BYTES_PER_PARAM(name)), from udfs/data/precisions.csv.
    """
    s = Sheet(wb, "Assumptions", {"A": 30, "B": 22, "C": 70, "D": 80})
    s.title_rows("Assumptions: the choices behind the results",
                 "Change the yellow cells; every sheet follows. Facts (datasheets, configs) "
                 "are on the GPUs and Models sheets.")
    s.header(4, ["Assumption", "Value", "Meaning", "Default from"])
    _assumption_rows(wb, s, ASSUMPTIONS)
    s.section(FINANCE_TOP, "Calibration and cost as finance models it (Calibration and "
                           "Finance sheets)", "D")
    s.header(FINANCE_TOP + 1, ["Assumption", "Value", "Meaning", "Default from"])
    _assumption_rows(wb, s, FINANCE_ASSUMPTIONS)
    s.section(RANGES_TOP, "Ranges: a low and a high value around each base (Finance: "
                          "bands and tornado)", "D")
    s.header(RANGES_TOP + 1, ["Range end", "Value", "Meaning", "Default from"])
    _assumption_rows(wb, s, RANGE_ASSUMPTIONS)
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
    "calibrated": "B57", "real_step_ms": "B58", "real_tps_total": "B59",
    "real_tps_user": "B60", "real_cost_mtok": "B61",
}
GRID_TOP = 64  # first row of the model x GPU grids


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
    B57..B61 REALISTIC, beside the floors: the efficiency found on Calibration
             (CAL_EFFICIENCY), the step ESTIMATE(floor, efficiency), tokens/s in total and
             per user, cost per million tokens (ranges: Finance sheet)
    Row 64.. grid 1: weights fit on one GPU? (model rows × GPU columns, green/red)
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

    s.section(56, "Realistic estimates: floor ÷ the efficiency measured on Calibration")
    price = K["price"]
    realistic = [
        ("calibrated", "Efficiency used (Calibration sheet)", "=CAL_EFFICIENCY", "pct",
         "floor ÷ measured, averaged over the plausible rows of Calibration"),
        ("real_step_ms", "Realistic decode step at the batch",
         f"=ESTIMATE({K['step_ms']},{K['calibrated']})", "ms_token",
         f"ESTIMATE(floor, efficiency) = floor ÷ efficiency; the floor is in "
         f"{K['step_ms']}"),
        ("real_tps_total", "Realistic tokens/s in total",
         f"=TOKENS_PER_SEC({K['real_step_ms']})*{K['batch']}", "tps",
         "TOKENS_PER_SEC(realistic step) × batch"),
        ("real_tps_user", "Realistic tokens/s per user",
         f"=PER_USER_TPS({K['real_tps_total']},{K['batch']})", "tps",
         "PER_USER_TPS(total, batch)"),
        ("real_cost_mtok", '=\"Realistic cost per million tokens (\"&CURRENCY&\")\"',
         f"=IF(ISNUMBER({price}),COST_PER_MTOK({price},{K['real_tps_total']},"
         f"{K['gpus_needed']},UTILIZATION),\"no price\")", "money",
         "COST_PER_MTOK at the realistic rate; low / base / high bands and the tornado: "
         "Finance sheet"),
    ]
    for key, label, formula, fmt, note in realistic:
        cell = K[key]
        s.put(f"A{cell[1:]}", label)
        s.put(cell, formula, "result", fmt)
        s.ws[cell].alignment = Alignment(horizontal="right")
        s.put(f"C{cell[1:]}", note, "note")
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
        "reserve": "B17", "calibrated": "B18"}
COST_FIRST = 22
COST_COLUMNS = [  # header, width, format
    ("GPU", 26, None), ("Price per GPU-hour", 12, "money"), ("Memory", 10, "GB"),
    ("Bandwidth", 11, "tbps"), ("Compute roof", 16, "tflops"),
    ("GPUs per replica", 11, "gpus"), ("Step floor", 16, "ms_token"),
    ("Tokens/s per replica", 16, "tps"), ("Replicas for the peak", 11, "count"),
    ("GPUs in total", 10, "gpus"), ("Monthly cost", 14, "money"),
    ("Cost per million tokens, your traffic", 14, "money"),
    ("Cost per million tokens, replica at utilization", 15, "money"),
    ("Realistic step", 16, "ms_token"), ("Realistic GPUs in total", 11, "gpus"),
    ("Realistic monthly cost", 14, "money"),
    ("Realistic per million tokens, your traffic", 14, "money"), ("Note", 60, None),
]


def sheet_cost(wb: Workbook, n_gpus: int) -> Sheet:
    """Cost: tokens per day -> GPUs needed -> monthly cost -> cost per million tokens.

    B4..B17  the chosen model and precision (from Sizing), memory per replica, batch, and
             the traffic assumptions: average and peak tokens/s (native arithmetic)
    Rows 22.. one row per GPU type, side by side:
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
      REALISTIC, beside the floors (efficiency from Calibration in B18):
      N realistic step     = ESTIMATE(G, efficiency)
      O realistic GPUs     = GPUS_FOR_DEMAND(tokens/day, TOKENS_PER_SEC(N) × batch,
                             peak-to-average, utilization) × F
      P realistic monthly  = O × price × hours per month
      Q realistic per M    = COST_PER_MTOK(price, average tokens/s, O)
      R note (no price, no FLOPS figure)
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
        ("calibrated", "Efficiency measured (Calibration sheet)", "=CAL_EFFICIENCY", "pct"),
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
    headers[15] = '=\"Realistic monthly cost (\"&CURRENCY&\")\"'
    headers[16] = '=\"Realistic per million tokens, your traffic (\"&CURRENCY&\")\"'
    s.section(COST_FIRST - 2, "Each GPU type: floors (B..M), then realistic = floor ÷ the "
                              "efficiency measured on Calibration (N..Q)", "R")
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
        s.put(f"N{r}", f"=ESTIMATE(G{r},{K['calibrated']})", "formula", "ms_token")
        s.put(f"O{r}", f"=GPUS_FOR_DEMAND({K['tokens_day']},TOKENS_PER_SEC(N{r})*{K['batch']},"
                       f"{K['peak_ratio']},{K['utilization']})*F{r}", "formula", "gpus")
        s.put(f"P{r}", f"=IF(ISNUMBER(B{r}),O{r}*B{r}*{K['hours']},\"no price\")", "result",
              "money")
        s.put(f"Q{r}", f"=IF(ISNUMBER(B{r}),COST_PER_MTOK(B{r},{K['avg_tps']},O{r}),"
                       f"\"no price\")", "result", "money")
        s.put(f"R{r}", f'=IF(ISNUMBER(B{r}),"",  "no price: enter one on the GPUs sheet (column '
                       f'L)")&IF(ISNUMBER(E{r}),"",IF(ISNUMBER(B{r}),"","; ")&"no FLOPS figure: '
                       f'math time not counted")', "note")
    last = COST_FIRST + n_gpus - 1
    for col in "BEKLMPQ":  # text ("no price", "no figure") sits where the numbers do
        for r in range(COST_FIRST, last + 1):
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    for col in "LQ":
        s.ws.conditional_formatting.add(f"{col}{COST_FIRST}:{col}{last}", ColorScaleRule(
            start_type="min", start_color="63BE7B", end_type="max", end_color="F8696B"))
    s.put(f"A{last + 2}", "Capacity is sized for the peak: replicas = CEILING(peak tokens/s ÷ "
                          "(tokens/s per replica × utilization)). 'Your traffic' divides the "
                          "month's bill by the month's tokens; 'replica at utilization' is "
                          "the unit cost of one busy replica.", "note")
    s.put(f"A{last + 3}", "Floors, not predictions: the step floor assumes the bytes stream "
                          "at datasheet bandwidth, split evenly over the GPUs of a replica. "
                          "The realistic columns divide the step by the efficiency measured "
                          "on the Calibration sheet (B18) and size the GPUs again.", "note")
    s.ws.freeze_panes = f"B{COST_FIRST}"
    return s


# ---------------------------------------------------------------------------- calibration
CAL_SUMMARY = {"efficiency": "B5", "plausible": "B6", "below": "B7"}
CAL_FIRST = 11  # first measurement row
CAL_ROWS = 10
#: column letter -> (header, width, number format); inputs A..H and P, results I..O,
#: lookups Q..W (what the formulas need, visible so that every step can be checked)
CAL_COLUMNS = {
    "A": ("Model", 26, None), "B": ("Weight precision", 10, None), "C": ("GPU", 22, None),
    "D": ("GPUs (tensor parallel)", 9, "gpus"), "E": ("Batch (sequences)", 12, "count"),
    "F": ("Context (tokens)", 10, "#,##0"), "G": ("Measured ms/token (per user)", 12, "ms"),
    "H": ("or measured tokens/s per user", 15, "tps"),
    "I": ("Measured ms/token used", 15, "ms_token"),
    "J": ("Read per step: weights + KV (GB)", 12, "GB"),
    "K": ("Floor (ms/token)", 15, "ms_token"), "L": ("MBU", 8, "0.0%"), "M": ("MFU", 8, "0.0%"),
    "N": ("Efficiency found = floor ÷ measured", 12, "pct"), "O": ("Verdict", 38, None),
    "P": ("Where it was measured (your note)", 40, None),
    "Q": ("Model row", 7, "row"), "R": ("GPU row", 7, "row"),
    "S": ("Bandwidth, all GPUs (TB/s)", 10, "0.000"),
    "T": ("Compute roof, all GPUs (TFLOPS)", 10, "#,##0.0"),
    "U": ("KV cache (GB)", 10, "#,##0.00"), "V": ("Parameters (billions)", 10, "#,##0.00"),
    "W": ("Row complete?", 9, None),
}
#: Example rows: illustrations of how a row reads, NOT measurements (the note says so).
CAL_EXAMPLES = [
    ("Llama 3.1 8B", "BF16", "NVIDIA H100 SXM", 1, 1, 2048, 6.5, None),
    ("Llama 3.1 70B", "FP8", "NVIDIA H100 SXM", 2, 16, 8192, 24, None),
    ("Llama 3.1 8B", "FP8", "NVIDIA H200 SXM", 1, 32, 4096, None, 120),
    ("Llama 3.1 70B", "FP8", "NVIDIA H100 SXM", 1, 1, 8192, 15, None),
]
CAL_EXAMPLE_NOTE = "example, not a measurement: replace with yours"


def sheet_calibration(wb: Workbook) -> Sheet:
    """Calibration: measured ms per token -> the efficiency that turns floors into estimates.

    B5       CAL_EFFICIENCY: average of the efficiency of the plausible rows (AVERAGEIF on
             the verdict), else EFF_DEFAULT; used on Sizing, Cost and Finance
    B6, B7   plausible rows, rows below the floor (COUNTIF)
    Rows 11..20, one measurement each:
      A..F  INPUTS model, weight precision, GPU (dropdowns), GPUs, batch, context
      G, H  INPUT measured ms/token per user, or tokens/s per user (one of the two)
      I     measured ms/token used = G, or MS_PER_TOKEN(H)
      J     bytes read per step = WEIGHT_GB + KV (GB)
      K     floor = DECODE_FLOOR(params, precision, bandwidth × GPUs, batch,
            roof × ROOF_EFFICIENCY × GPUs, KV): the Sizing step floor for that case
      L, M  MBU(J, I, bandwidth), MFU(2 × params, tokens/s, roof)
      N     CALIBRATE(K, I) = floor ÷ measured;  O  PLAUSIBLE(K, I)
      P     INPUT note;  Q..W lookups (rows, bandwidth, roof, KV GB, params, complete?)
    Rows 11..14 hold examples (not measurements); 15..20 are empty for yours.
    """
    widths = {col: w for col, (_, w, _) in CAL_COLUMNS.items()}
    s = Sheet(wb, "Calibration", widths)
    s.title_rows("Calibration: how far above the floor do real systems run?",
                 "Enter what you measured; each row gets its floor, MBU, MFU and the "
                 "efficiency found (floor ÷ measured). Sizing, Cost and Finance divide their "
                 "floors by it.")
    s.put("A3", "The first rows are examples, not measurements: overwrite them with yours. "
                "A measurement faster than its floor is flagged: an assumption (model, "
                "precision, GPU, batch, context) is wrong, so that row is left out.", "note")
    s.section(4, "Result", "O")
    first, last = CAL_FIRST, CAL_FIRST + CAL_ROWS - 1
    verdicts, effs = f"$O${first}:$O${last}", f"$N${first}:$N${last}"
    K = CAL_SUMMARY
    s.put("A5", "Efficiency used")
    s.put(K["efficiency"], f'=IF(COUNTIF({verdicts},"plausible")>0,AVERAGEIF({verdicts},'
                           f'"plausible",{effs}),EFF_DEFAULT)', "result", "pct")
    s.put("C5", f'=IF(COUNTIF({verdicts},"plausible")>0,"average of the "&COUNTIF('
                f'{verdicts},"plausible")&" plausible rows below. Sizing, Cost and Finance: '
                f'realistic time = floor ÷ this","no plausible row: the default of the '
                f'Assumptions sheet (Sizing, Cost and Finance: realistic time = floor ÷ this)")',
          "note")
    s.put("A6", "Plausible rows")
    s.put(K["plausible"], f'=COUNTIF({verdicts},"plausible")', "formula", '0 "rows"')
    s.put("A7", "Rows below the floor (left out)")
    s.put(K["below"], f'=COUNTIF({verdicts},"below*")', "formula", '0 "rows"')
    s.put("C7", "faster than physics allows: check that row's model, precision, GPU, GPUs, "
                "batch and context", "note")
    _name(wb, "CAL_EFFICIENCY", s.title, f"${K['efficiency'][0]}${K['efficiency'][1:]}")

    s.section(first - 2, "Measurements (yellow: yours) and what they say", "W")
    headers = [h for h, _, _ in CAL_COLUMNS.values()]
    s.header(first - 1, headers, height=60)
    kvp = f"Sizing!${SIZING['kv_precision'][0]}${SIZING['kv_precision'][1:]}"
    for i in range(CAL_ROWS):
        r = first + i
        ex = CAL_EXAMPLES[i] if i < len(CAL_EXAMPLES) else (None,) * 8
        for col, value in zip("ABCDEFGH", ex, strict=True):
            s.put(f"{col}{r}", value, "input", CAL_COLUMNS[col][2])
        s.put(f"P{r}", CAL_EXAMPLE_NOTE if i < len(CAL_EXAMPLES) else None, "input")
        ok = f'W{r}="yes"'
        p = f"V{r}*1000000000"
        f = {
            "Q": f"=IF(ISNUMBER(MATCH(A{r},MODEL_NAME,0)),MATCH(A{r},MODEL_NAME,0),\"\")",
            "R": f"=IF(ISNUMBER(MATCH(C{r},GPU_NAME,0)),MATCH(C{r},GPU_NAME,0),\"\")",
            "W": f"=IF(AND(ISNUMBER(Q{r}),ISNUMBER(R{r}),ISNUMBER(MATCH(B{r},PRECISION_NAME,0)),"
                 f"ISNUMBER(D{r}),ISNUMBER(E{r}),ISNUMBER(F{r})),\"yes\",IF(AND(A{r}=\"\",C{r}=\"\"),"
                 f"\"\",\"no\"))",
            "S": f"=IF({ok},INDEX(GPU_BW,R{r})*D{r},\"\")",
            "T": f"=IF({ok},IF(AND(BYTES_PER_PARAM(B{r})<=1,ISNUMBER(INDEX(GPU_FP8,R{r}))),"
                 f"INDEX(GPU_FP8,R{r})*D{r},IF(ISNUMBER(INDEX(GPU_BF16,R{r})),"
                 f"INDEX(GPU_BF16,R{r})*D{r},\"no figure\")),\"\")",
            "V": f"=IF({ok},INDEX(MODEL_PARAMS_B,Q{r}),\"\")",
            "U": f"=IF({ok},KV_CACHE_GB(INDEX(MODEL_LAYERS,Q{r}),INDEX(MODEL_KV_HEADS,Q{r}),"
                 f"INDEX(MODEL_HEAD_DIM,Q{r}),F{r},{kvp},E{r})*INDEX(MODEL_KV_BYTES,Q{r})/"
                 f"(4*INDEX(MODEL_LAYERS,Q{r})*INDEX(MODEL_KV_HEADS,Q{r})*INDEX(MODEL_HEAD_DIM,"
                 f"Q{r}))*IF(INDEX(MODEL_SLIDING_LAYERS,Q{r})=0,1,1-INDEX(MODEL_SLIDING_LAYERS,"
                 f"Q{r})/INDEX(MODEL_LAYERS,Q{r})*MAX(0,F{r}-INDEX(MODEL_WINDOW,Q{r}))/F{r}),"
                 f"\"\")",
            "I": f"=IF(ISNUMBER(G{r}),G{r},IF(ISNUMBER(H{r}),MS_PER_TOKEN(H{r}),\"\"))",
            "J": f"=IF({ok},WEIGHT_GB({p},B{r})+U{r},\"\")",
            "K": f"=IF({ok},IF(ISNUMBER(T{r}),DECODE_FLOOR({p},B{r},S{r},E{r},"
                 f"T{r}*ROOF_EFFICIENCY,U{r}),DECODE_FLOOR({p},B{r},S{r},E{r},,U{r})),\"\")",
            "L": f"=IF(AND({ok},ISNUMBER(I{r})),MBU(J{r},I{r},S{r}),\"\")",
            "M": f"=IF(AND({ok},ISNUMBER(I{r}),ISNUMBER(T{r})),MFU(2*{p},"
                 f"TOKENS_PER_SEC(I{r})*E{r},T{r}),\"\")",
            "N": f"=IF(AND({ok},ISNUMBER(I{r})),CALIBRATE(K{r},I{r}),\"\")",
            "O": f"=IF({ok},IF(ISNUMBER(I{r}),PLAUSIBLE(K{r},I{r}),\"enter a measurement "
                 f"(G or H)\"),IF(AND(A{r}=\"\",C{r}=\"\"),\"\",\"incomplete: model, "
                 f"precision, GPU, GPUs, batch, context\"))",
        }
        for col, formula in f.items():
            style = "result" if col in "NO" else "formula"
            s.put(f"{col}{r}", formula, style, CAL_COLUMNS[col][2])
            if col in "QRSTUVW":
                s.ws[f"{col}{r}"].font = Font(name="Calibri", size=10, color="7F7F7F")
            if col not in "OW":
                s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    rng = lambda col: f"{col}{first}:{col}{last}"  # noqa: E731
    s.validate(rng("A"), "list", "A model from the Models sheet.", "Model",
               formula1="MODEL_NAME")
    s.validate(rng("B"), "list", "Number format of the weights as served (BF16, FP8, INT4...).",
               "Weight precision", formula1="PRECISION_NAME")
    s.validate(rng("C"), "list", "A GPU from the GPUs sheet.", "GPU", formula1="GPU_NAME")
    s.validate(rng("D"), "whole", "GPUs serving one copy of the model (tensor parallel): a "
               "whole number from 1 to 1024.", "GPUs", 1, 1024)
    s.validate(rng("E"), "whole", "Sequences decoded together when you measured: a whole "
               "number from 1 to 100,000.", "Batch", 1, 100000)
    s.validate(rng("F"), "whole", "Tokens in each sequence's KV cache when you measured: a "
               "whole number from 1 to 10,000,000.", "Context", 1, 10000000)
    s.validate(rng("G"), "decimal", "Measured time per output token of one user (one decode "
               "step), in ms: a number from 0.001 to 1,000,000. Or leave it empty and fill "
               "tokens/s per user.", "Measured ms/token", 0.001, 1000000)
    s.validate(rng("H"), "decimal", "Measured tokens/s of one user (used only when the "
               "ms/token cell is empty): a number from 0.001 to 1,000,000.",
               "Measured tokens/s", 0.001, 1000000)
    s.validate(rng("P"), "text", "Optional: where and how it was measured (server, version, "
               "date), up to 200 characters.", "Note", 0, 200)
    ws = s.ws
    ws.conditional_formatting.add(rng("O"), CellIsRule(
        operator="equal", formula=['"plausible"'], fill=PatternFill("solid", fgColor="C6EFCE"),
        font=Font(color="006100", bold=True)))
    ws.conditional_formatting.add(rng("O"), FormulaRule(
        formula=[f'LEFT(O{first},5)="below"'], fill=PatternFill("solid", fgColor="FFC7CE"),
        font=Font(color="9C0006", bold=True)))
    notes = [
        "Floor: the Sizing step floor for that row's case (weights + KV cache at the batch and "
        "context, streamed at the GPUs' datasheet bandwidth; math on the roof × roof "
        "efficiency), KV cache in the precision chosen on Sizing.",
        "MBU: bytes read per step ÷ measured time ÷ bandwidth. MFU: 2 × parameters × "
        "tokens/s ÷ datasheet roof. Efficiency found: floor ÷ measured (1 = the floor).",
        "Measure tokens per second of ONE user at a known batch (concurrent sequences); "
        "an aggregate figure means nothing without the number of streams.",
    ]
    for i, text in enumerate(notes):
        s.put(f"A{last + 2 + i}", text, "note")
    ws.freeze_panes = f"B{first}"
    return s


# ---------------------------------------------------------------------------- finance
#: Key cells of the Finance sheet (tests refer to them by name).
FINANCE = {
    # the case, from Sizing
    "model": "B6", "precision": "B7", "gpu": "B8", "gpus": "B9", "batch": "B10",
    "price": "B11", "params_b": "B12", "roof": "B13", "tdp": "B14", "step_ms": "B15",
    "calibrated": "B16", "real_step_ms": "B17",
    # ranges: low / base / high in B / C / D
    "eff": 21, "util": 22, "price_range": 23, "ms_range": 24, "tps_range": 25,
    "cost_range": 26,
    # tornado rows 30..32 (A..H), "moves it most" B33
    "tornado_first": 30, "most": "B33", "base_cost": "B34",
    # input vs output
    "prompt": "B54", "prefill_ms": "B55", "input_cost": "B56", "output_cost": "B57",
    "ratio": "B58", "blended": "B59",
    # rented (B) vs owned (C)
    "hourly": 63, "capex_part": 64, "energy_part": 65, "in_cost": 66, "out_cost": 67,
    "mix_cost": 68,
    # monthly budget from demand
    "tokens_day": "B71", "replica_tps": "B72", "replicas": "B73", "gpus_total": "B74",
    "volume": "B75", "monthly": 77,
    # break-even against an API
    "api_price": "B80", "api_bill": "B81", "breakeven": 83, "cheaper": 84,
}
TORNADO = [  # label, assumption whose low and high are tried (the others at base)
    "Efficiency (Calibration)", "Utilization", "Price per GPU-hour",
]


def _num_or(cells: list[str], formula: str, text: str) -> str:
    """``formula`` when every cell holds a number, else ``text`` (never an error value)."""
    test = ",".join(f"ISNUMBER({c})" for c in cells)
    return f'=IF(AND({test}),{formula},"{text}")'


def sheet_finance(wb: Workbook) -> Sheet:
    """Finance: the Sizing case priced as finance models it.

    B6..B17   the case from Sizing: model, precision, GPU, GPUs per replica, batch, rented
              price, parameters, compute roof, TDP (GPUs sheet), step floor, the efficiency
              found on Calibration, the realistic step ESTIMATE(floor, efficiency)
    Rows 21..26 ranges, LOW / BASE / HIGH in B / C / D: efficiency, utilization, price per
              GPU-hour (Assumptions), then realistic ms/token (ESTIMATE), tokens/s per user
              and cost per million output tokens (COST_PER_MTOK): low = every assumption at
              its favourable end, high = at its unfavourable end
    Rows 30..32 tornado data: cost per million output tokens with one assumption at its low
              and at its high value, the others at base; change vs base; swing. B33 names
              the assumption that moves it most. Chart below (horizontal bars).
    Rows 54..59 input vs output tokens: PREFILL_MS for the prompt, INPUT_COST_PER_MTOK,
              output cost (realistic), the mix, BLENDED_COST_PER_MTOK
    Rows 63..68 rented (B) vs owned (C): cost per GPU-hour (OWNED_HOURLY_COST from capex,
              years, TDP, PUE, kWh price; split into purchase and energy), cost per million
              input, output and blended tokens
    Rows 71..77 monthly budget: GPUS_FOR_DEMAND (replicas) × GPUs per replica, tokens a
              month, MONTHLY_COST rented (B77) and owned (C77)
    Rows 80..84 break-even against an API: the API's price and bill, BREAKEVEN_MTOK rented
              and owned, which is cheaper at your volume
    """
    s = Sheet(wb, "Finance", {"A": 44, "B": 22, "C": 22, "D": 16, "E": 16, "F": 14,
                              "G": 14, "H": 12, "I": 40})
    F = FINANCE
    s.title_rows("Finance: ranges, input vs output tokens, rented vs owned, budget, "
                 "break-even",
                 "For the model, precision and GPU chosen on Sizing. Realistic = floor ÷ the "
                 "efficiency found on Calibration. Every default is an assumption: change it "
                 "on the Assumptions sheet.")
    s.put("A3", '="Money in "&CURRENCY&" (the label on the Assumptions sheet; no '
                'conversion)."', "note")
    sz = {k: f"Sizing!{v}" for k, v in SIZING.items()}
    s.section(5, "The case (from Sizing)", "D")
    case = [
        ("model", "Model", f"={sz['model']}", None, None),
        ("precision", "Weight precision", f"={sz['precision']}", None, None),
        ("gpu", "GPU", f"={sz['gpu']}", None, None),
        ("gpus", "GPUs per replica (weights + KV cache)", f"={sz['gpus_needed']}", "gpus",
         None),
        ("batch", "Batch per replica", f"={sz['batch']}", "seq", None),
        ("price", '="Rented price per GPU-hour ("&CURRENCY&")"',
         f'=IF(ISNUMBER({sz["price"]}),{sz["price"]},"no price")', "money",
         "GPUs sheet or the Sizing override"),
        ("params_b", "Parameters", f"={sz['params_b']}", '#,##0.00 "billion"', None),
        ("roof", "Compute roof, one GPU (datasheet)",
         f'=IF(ISNUMBER({sz["roof_tflops"]}),{sz["roof_tflops"]},"no figure")', "tflops",
         "FP8 roof for weights of 1 byte or less, else BF16 (as Sizing)"),
        ("tdp", "GPU power (TDP)", f'=IF(ISNUMBER(INDEX(GPU_TDP,{sz["gpu_row"]})),'
         f'INDEX(GPU_TDP,{sz["gpu_row"]}),"no figure")', '#,##0 "W"', "GPUs sheet, column J"),
        ("step_ms", "Decode step floor at the batch", f"={sz['step_ms']}", "ms_token",
         "Sizing: DECODE_FLOOR with KV cache, over the GPUs of a replica"),
        ("calibrated", "Efficiency found (Calibration)", "=CAL_EFFICIENCY", "pct",
         "floor ÷ measured, average of the plausible measurements"),
        ("real_step_ms", "Realistic decode step", f"=ESTIMATE({F['step_ms']},"
         f"{F['calibrated']})", "ms_token", "ESTIMATE(floor, efficiency) = floor ÷ efficiency"),
    ]
    for key, label, formula, fmt, note in case:
        cell = F[key]
        s.put(f"A{cell[1:]}", label)
        s.put(cell, formula, "result" if key == "real_step_ms" else "formula", fmt)
        s.ws[cell].alignment = Alignment(horizontal="right")
        if note:
            s.put(f"C{cell[1:]}", note, "note")
    price, gpus, batch = F["price"], F["gpus"], F["batch"]
    step = F["step_ms"]

    # ranges ---------------------------------------------------------------------------
    r0 = F["eff"] - 2
    s.section(r0, "Ranges, not points: low / base / high", "E")
    s.header(r0 + 1, ["", "Low", "Base", "High", "How"])
    e, u, pr = F["eff"], F["util"], F["price_range"]
    ms, tps, cost = F["ms_range"], F["tps_range"], F["cost_range"]
    rows = [
        (e, "Efficiency (floor ÷ measured)", "=EFF_LOW", f"={F['calibrated']}", "=EFF_HIGH",
         "pct", "Assumptions (low, high); base: Calibration"),
        (u, "Utilization", "=UTIL_LOW", "=UTILIZATION", "=UTIL_HIGH", "pct", "Assumptions"),
        (pr, '="Price per GPU-hour ("&CURRENCY&")"',
         _num_or([price], f"{price}*PRICE_LOW", "no price"), f"={price}",
         _num_or([price], f"{price}*PRICE_HIGH", "no price"), "money",
         "the rented price × the Assumptions' multiples"),
        (ms, "Realistic ms per token", f"=ESTIMATE({step},D{e})", f"=ESTIMATE({step},C{e})",
         f"=ESTIMATE({step},B{e})", "ms_token", "ESTIMATE(floor, efficiency): low from the "
         "high efficiency"),
        (tps, "Realistic tokens/s per user", f"=TOKENS_PER_SEC(D{ms})",
         f"=TOKENS_PER_SEC(C{ms})", f"=TOKENS_PER_SEC(B{ms})", "tps",
         "TOKENS_PER_SEC(ms per token)"),
        (cost, '="Cost per million output tokens ("&CURRENCY&")"',
         _num_or([f"B{pr}"], f"COST_PER_MTOK(B{pr},TOKENS_PER_SEC(B{ms})*{batch},{gpus},"
                 f"D{u})", "no price"),
         _num_or([f"C{pr}"], f"COST_PER_MTOK(C{pr},TOKENS_PER_SEC(C{ms})*{batch},{gpus},"
                 f"C{u})", "no price"),
         _num_or([f"D{pr}"], f"COST_PER_MTOK(D{pr},TOKENS_PER_SEC(D{ms})*{batch},{gpus},"
                 f"B{u})", "no price"), "money",
         "COST_PER_MTOK: low = every assumption at its favourable end, high = at its "
         "unfavourable end"),
    ]
    for r, label, lo, base, hi, fmt, how in rows:
        s.put(f"A{r}", label)
        result = r in (ms, tps, cost)
        for col, f in zip("BCD", (lo, base, hi), strict=True):
            s.put(f"{col}{r}", f, "result" if result else "formula", fmt)
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
        s.put(f"E{r}", how, "note")
    for r in (e, u):
        s.put(f"E{r}", f'=IF(AND(B{r}<=C{r},C{r}<=D{r}),"{s.ws[f"E{r}"].value}",'
                       f'"check: low above the base or high below it (Assumptions)")', "note")

    # tornado ----------------------------------------------------------------------------
    t0 = F["tornado_first"]
    s.section(t0 - 2, "Tornado: which assumption moves the cost per million output tokens "
                      "most (the others at base)", "H")
    s.header(t0 - 1, ["Assumption", "Low value", "High value", "Cost at the low value",
                      "Cost at the high value", "Low value: change vs base",
                      "High value: change vs base", "Swing"], height=45)
    base_cost = f"$C${cost}"

    def at(p, m, util):
        return _num_or([p], f"COST_PER_MTOK({p},TOKENS_PER_SEC(ESTIMATE({step},{m}))*"
                            f"{batch},{gpus},{util})", "no price")
    cases = [  # (low value, high value, cost at low, cost at high), fmt of the values
        (f"=B{e}", f"=D{e}", at(f"C{pr}", f"B{e}", f"C{u}"), at(f"C{pr}", f"D{e}", f"C{u}"),
         "pct"),
        (f"=B{u}", f"=D{u}", at(f"C{pr}", f"C{e}", f"B{u}"), at(f"C{pr}", f"C{e}", f"D{u}"),
         "pct"),
        (f"=B{pr}", f"=D{pr}", at(f"B{pr}", f"C{e}", f"C{u}"), at(f"D{pr}", f"C{e}", f"C{u}"),
         "money"),
    ]
    for i, (label, (lo, hi, c_lo, c_hi, fmt)) in enumerate(zip(TORNADO, cases, strict=True)):
        r = t0 + i
        s.put(f"A{r}", label)
        s.put(f"B{r}", lo, "formula", fmt)
        s.put(f"C{r}", hi, "formula", fmt)
        s.put(f"D{r}", c_lo, "result", "money")
        s.put(f"E{r}", c_hi, "result", "money")
        s.put(f"F{r}", _num_or([f"D{r}"], f"D{r}-{base_cost}", "no price"), "formula",
              '+#,##0.00;-#,##0.00;0.00')
        s.put(f"G{r}", _num_or([f"E{r}"], f"E{r}-{base_cost}", "no price"), "formula",
              '+#,##0.00;-#,##0.00;0.00')
        s.put(f"H{r}", _num_or([f"D{r}", f"E{r}"], f"MAX(D{r},E{r})-MIN(D{r},E{r})",
                               "no price"), "formula", "money")
        for col in "BCDEFGH":
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    tl = t0 + len(TORNADO) - 1
    s.put(f"A{F['most'][1:]}", "Moves it most")
    s.put(F["most"], _num_or([f"H{t0}"], f"INDEX(A{t0}:A{tl},MATCH(MAX(H{t0}:H{tl}),"
                                         f"H{t0}:H{tl},0))", "no price"), "result")
    s.put(f"A{F['base_cost'][1:]}", '="Base cost per million output tokens ("&CURRENCY&")"')
    s.put(F["base_cost"], f"={base_cost}", "formula", "money")
    s.put(f"C{F['base_cost'][1:]}", "the zero line of the chart: every assumption at base",
          "note")
    _tornado_chart(s, t0, tl)

    # input vs output ------------------------------------------------------------------
    i0 = int(F["prompt"][1:]) - 1
    s.section(i0, "Input vs output tokens: prompts are computed, outputs are read", "E")
    p = f"{F['params_b']}*1000000000"
    roof = F["roof"]
    mix = [
        ("prompt", "Prompt length", "=PROMPT_TOKENS", "tokens", "Assumptions", "formula"),
        ("prefill_ms", "Prefill floor for it (time to first token)",
         _num_or([roof], f"PREFILL_MS({p},PROMPT_TOKENS,{roof}*{gpus},ROOF_EFFICIENCY)",
                 "no FLOPS figure"), "ms",
         "PREFILL_MS: 2 × params × prompt ÷ (roof × roof efficiency × GPUs); the whole "
         "prompt is one big batch, so compute, not bandwidth, sets it", "result"),
        ("input_cost", '="Cost per million input tokens ("&CURRENCY&")"',
         _num_or([roof, price], f"INPUT_COST_PER_MTOK({price},{p},{roof},ROOF_EFFICIENCY,"
                 "UTILIZATION)", "not available"), "money",
         "INPUT_COST_PER_MTOK(price, params, roof, roof efficiency, utilization)", "result"),
        ("output_cost", '="Cost per million output tokens ("&CURRENCY&")"', f"=C{cost}",
         "money", "realistic base (ranges above): decode reads all weights per step",
         "formula"),
        ("ratio", "Input tokens per output token", "=INPUT_PER_OUTPUT", '0.0" : 1"',
         "Assumptions: the traffic mix", "formula"),
        ("blended", '="Blended cost per million tokens ("&CURRENCY&")"',
         _num_or([F["input_cost"], F["output_cost"]], f"BLENDED_COST_PER_MTOK("
                 f"{F['input_cost']},{F['output_cost']},{F['ratio']},1)", "not available"),
         "money", "BLENDED_COST_PER_MTOK(input cost, output cost, input share, output share)",
         "result"),
    ]
    for key, label, formula, fmt, note, style in mix:
        cell = F[key]
        s.put(f"A{cell[1:]}", label)
        s.put(cell, formula, style, fmt)
        s.ws[cell].alignment = Alignment(horizontal="right")
        s.put(f"C{cell[1:]}", note, "note")

    # rented vs owned --------------------------------------------------------------------
    o0 = F["hourly"] - 2
    s.section(o0, "Rented vs owned", "E")
    s.header(o0 + 1, ["", '="Rented ("&CURRENCY&")"', '="Owned ("&CURRENCY&")"', "How"])
    h, cp, en = F["hourly"], F["capex_part"], F["energy_part"]
    tdp = F["tdp"]
    tps_base = f"TOKENS_PER_SEC(C{ms})*{batch}"
    owned = [
        (h, "Cost per GPU-hour", f"={price}",
         _num_or([tdp], f"OWNED_HOURLY_COST(CAPEX,YEARS,{tdp},PUE,KWH_PRICE)",
                 "no TDP figure"),
         "OWNED_HOURLY_COST(capex, years, TDP, PUE, kWh price): purchase ÷ (years × 8,766 h) "
         "+ kW × PUE × price"),
        (cp, "of which the purchase, written off", None,
         "=OWNED_HOURLY_COST(CAPEX,YEARS,0,PUE,KWH_PRICE)", "OWNED_HOURLY_COST with 0 W"),
        (en, "of which energy", None,
         _num_or([tdp], f"OWNED_HOURLY_COST(0,YEARS,{tdp},PUE,KWH_PRICE)", "no TDP figure"),
         "OWNED_HOURLY_COST with 0 capex: TDP ÷ 1000 × PUE × kWh price"),
        (F["in_cost"], "Cost per million input tokens", f"={F['input_cost']}",
         _num_or([f"C{h}", roof], f"INPUT_COST_PER_MTOK(C{h},{p},{roof},ROOF_EFFICIENCY,"
                 "UTILIZATION)", "not available"), "INPUT_COST_PER_MTOK at each hourly cost"),
        (F["out_cost"], "Cost per million output tokens (realistic)", f"={F['output_cost']}",
         _num_or([f"C{h}"], f"COST_PER_MTOK(C{h},{tps_base},{gpus},UTILIZATION)",
                 "not available"), "COST_PER_MTOK at the realistic base rate"),
        (F["mix_cost"], "Blended cost per million tokens", f"={F['blended']}",
         _num_or([f"C{F['in_cost']}", f"C{F['out_cost']}"], f"BLENDED_COST_PER_MTOK("
                 f"C{F['in_cost']},C{F['out_cost']},INPUT_PER_OUTPUT,1)", "not available"),
         "BLENDED_COST_PER_MTOK at the mix"),
    ]
    for r, label, rented, own, how in owned:
        s.put(f"A{r}", label)
        if rented is not None:
            s.put(f"B{r}", rented, "formula", "money")
        s.put(f"C{r}", own, "result" if r in (h, F["mix_cost"]) else "formula", "money")
        for col in "BC":
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
        s.put(f"D{r}", how, "note")

    # monthly budget ---------------------------------------------------------------------
    m0 = int(F["tokens_day"][1:]) - 1
    s.section(m0, "Monthly budget from demand (decode capacity for the peak)", "E")
    mo = F["monthly"]
    s.header(mo - 1, ["", '="Rented ("&CURRENCY&")"', '="Owned ("&CURRENCY&")"', "How"])
    budget = [
        ("tokens_day", "Output tokens per day", "=TOKENS_PER_DAY", "tokens_day",
         "Assumptions: traffic"),
        ("replica_tps", "Realistic tokens/s per replica", f"={tps_base}", "tps",
         "TOKENS_PER_SEC(realistic step) × batch"),
        ("replicas", "Replicas for the peak", f"=GPUS_FOR_DEMAND({F['tokens_day']},"
         f"{F['replica_tps']},PEAK_TO_AVG,UTILIZATION)", '#,##0 "replica(s)"',
         "GPUS_FOR_DEMAND(tokens/day, tokens/s per replica, peak-to-average, utilization)"),
        ("gpus_total", "GPUs in total", f"={F['replicas']}*{gpus}", "gpus",
         "replicas × GPUs per replica"),
        ("volume", "Tokens a month, input + output",
         "=TOKENS_PER_DAY*(1+INPUT_PER_OUTPUT)*365.25/12/1000000", '#,##0 "M tokens"',
         "output tokens/day × (1 + input per output) × 30.44 days"),
    ]
    for key, label, formula, fmt, how in budget:
        cell = F[key]
        s.put(f"A{cell[1:]}", label)
        s.put(cell, formula, "formula", fmt)
        s.ws[cell].alignment = Alignment(horizontal="right")
        s.put(f"C{cell[1:]}", how, "note")
    s.put(f"A{mo}", "Monthly cost")
    s.put(f"B{mo}", _num_or([f"B{h}"], f"MONTHLY_COST({F['gpus_total']},B{h},HOURS_PER_MONTH)",
                               "no price"),
          "result", "money")
    s.put(f"C{mo}", _num_or([f"C{h}"], f"MONTHLY_COST({F['gpus_total']},C{h},HOURS_PER_MONTH)",
                            "no TDP figure"), "result", "money")
    s.put(f"D{mo}", "MONTHLY_COST(GPUs, cost per GPU-hour, hours per month from "
                        "Assumptions)", "note")
    for col in "BC":
        s.ws[f"{col}{mo}"].alignment = Alignment(horizontal="right")

    # break-even -------------------------------------------------------------------------
    b0 = int(F["api_price"][1:]) - 1
    s.section(b0, "Break-even against an API", "E")
    be, cheaper = F["breakeven"], F["cheaper"]
    s.header(be - 1, ["", "Rented", "Owned", "How"])
    s.put(f"A{b0 + 1}", '="API price per million tokens ("&CURRENCY&")"')
    s.put(F["api_price"], "=API_PRICE", "formula", "money")
    s.ws[F["api_price"]].alignment = Alignment(horizontal="right")
    s.put(f"C{b0 + 1}", "Assumptions: input and output blended at the mix", "note")
    s.put(f"A{be}", "Break-even volume")
    for col in "BC":
        s.put(f"{col}{be}", _num_or([f"{col}{mo}"], f"BREAKEVEN_MTOK({col}{mo},API_PRICE)",
                                    "not available"), "result", '#,##0 "M tokens/month"')
        s.put(f"{col}{cheaper}", _num_or([f"{col}{be}"], f'IF({F["volume"]}>{col}{be},'
                                         '"self-hosting","the API")', "not available"),
              "result")
        for r in (be, cheaper):
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    s.put(f"D{be}", "BREAKEVEN_MTOK(monthly cost, API price): above it the GPUs are cheaper, "
                    "as long as they can serve that volume", "note")
    s.put(f"A{F['api_bill'][1:]}", '="The API\'s bill at your volume ("&CURRENCY&")"')
    s.put(F["api_bill"], f"={F['volume']}*API_PRICE", "formula", "money")
    s.ws[F["api_bill"]].alignment = Alignment(horizontal="right")
    s.put(f"C{F['api_bill'][1:]}", "tokens a month × API price, to compare with the monthly "
                                   "cost above", "note")
    s.put(f"A{cheaper}", "Cheaper at your volume")
    s.put(f"A{cheaper + 2}", "Capacity is sized for decode at the peak; prefill of the prompts "
                             "needs GPU time on top (priced above as input tokens). Owned "
                             "assumes the GPUs are bought for this load alone.", "note")
    return s


def _tornado_chart(s: Sheet, first: int, last: int):
    """Horizontal bars around the base cost: one assumption at its low value (one series)
    and at its high value (the other), read from the tornado table's change columns."""
    chart = BarChart()
    chart.type = "bar"
    chart.grouping = "clustered"
    chart.overlap = 100
    chart.gapWidth = 40
    chart.title = "Cost per million output tokens: change vs base"
    chart.style = 2
    chart.height, chart.width = 7.5, 22
    ws = s.ws
    data = Reference(ws, min_col=6, max_col=7, min_row=first - 1, max_row=last)
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=1, min_row=first, max_row=last))
    for ser, color in zip(chart.series, ("9DC3E6", "C55A11"), strict=True):
        ser.graphicalProperties.solidFill = color
        ser.graphicalProperties.line.solidFill = color
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.x_axis.tickLblPos = "low"
    chart.y_axis.number_format = "+#,##0.00;-#,##0.00;0"
    chart.y_axis.majorGridlines = None
    chart.y_axis.title = "change vs base, currency per million output tokens"
    chart.legend.position = "b"
    ws.add_chart(chart, f"A{last + 4}")


# ---------------------------------------------------------------------------- xlwings.conf
def sheet_xlwings_conf(wb: Workbook) -> Sheet:
    """xlwings.conf: the add-in's settings for this workbook, read from A1 down (A: key,
    B: value, no header; ``addin.install.xlwings_conf_rows()``). Column C stays empty so
    that the note in D is not part of the settings range."""
    from addin.install import xlwings_conf_rows

    s = Sheet(wb, "xlwings.conf", {"A": 18, "B": 26, "C": 3, "D": 100})
    rows = xlwings_conf_rows()
    for i, (key, value) in enumerate(rows):
        s.put(f"A{i + 1}", key, "data")
        s.put(f"B{i + 1}", value, "data")
    notes = [
        "Read by the xlwings add-in (desktop Excel): the key-value pairs from A1 down set "
        "where napkin's functions come from (UDF Modules) for this workbook.",
        "Keep this sheet's name and keep A:B free of anything else; the Python interpreter "
        "is set per user (napkin addin install), not here.",
        "Not needed by xlwings Lite or napkin calc. To change a value: Review → Unprotect "
        "Sheet (no password).",
    ]
    for i, text in enumerate(notes):
        s.put(f"D{i + 1}", text, "note")
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

    A4..B12   the questions and where each is answered
    A14..B18  how to get the functions into Excel (napkin lite, napkin addin install,
              napkin calc) and what a colleague without the add-in sees
    A20..B24  legend: input cell, formula cell, key result, empty figure
    A26..     the data date and sources
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
        ("How fast in reality?", "Calibration: your measurements → floor, MBU, MFU, "
                                 "efficiency found, plausible or not; Sizing and Cost show "
                                 "realistic rows"),
        ("Range, budget, buy or rent?", "Finance: low / base / high bands and a tornado, "
                                        "input vs output tokens, rented vs owned, monthly "
                                        "budget, break-even against an API"),
        ("Which assumptions?", "Assumptions: roof efficiency, utilization, context, batch, "
                               "traffic, currency, finance, ranges. Facts: GPUs and Models, "
                               "with sources"),
    ]
    for i, (q, where) in enumerate(answers):
        s.put(f"A{5 + i}", q, "label")
        s.put(f"B{5 + i}", where, "label")
    s.section(14, "Getting the functions into Excel", "B")
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
        s.put(f"A{15 + i}", route, "label")
        s.put(f"B{15 + i}", how, "label")
    s.section(20, "Legend", "B")
    legend = [
        ("input", "Input: yellow, unlocked. Type here; validation says what is accepted."),
        ("formula", "Formula: locked. A napkin function (RIDGE, DECODE_FLOOR...) or a native "
                    "lookup."),
        ("result", "Key result: green, locked."),
        ("empty", "Grey, empty: no trustworthy figure in the table; results that need it "
                  "are not available (an error value, or text) and say so."),
    ]
    for i, (style, text) in enumerate(legend):
        s.put(f"A{21 + i}", {"input": 1.25, "formula": "=SPEEDUP(20,16)", "result":
                             "=SPEEDUP(20,15)", "empty": None}[style], style,
              None if style == "empty" else "x")
        s.put(f"B{21 + i}", text, "label")
    s.section(26, "Data", "B")
    s.put("A27", "Tables gathered", "label")
    s.put("B27", DATA_DATE, "label")
    s.put("A28", "Sources", "label")
    s.put("B28", "GPUs: vendor datasheets and write-ups, dense figures (no sparsity). "
                 "Models: each model's config.json. Every row keeps its source and notes.",
          "label")
    s.put("A29", "Sheets are protected", "label")
    s.put("B29", "without a password (Review → Unprotect Sheet) so that typing lands only in "
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
    finance = sheet_finance(wb)
    calibration = sheet_calibration(wb)
    roof = sheet_roofline(wb)
    speed = sheet_speedup(wb)
    assumptions = sheet_assumptions(wb)
    gpus = sheet_gpus(wb)
    models = sheet_models(wb)
    conf = sheet_xlwings_conf(wb)
    for sheet in (start, sizing, cost, finance, calibration, roof, speed, assumptions, gpus,
                  models, conf):
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


__all__ = ["build_template", "build_workbook", "SIZING", "COST", "FINANCE", "CAL_SUMMARY",
           "DATA_DATE"]
