"""The GPUs sheet: the GPU table of ``udfs/data/gpus.csv`` with an editable price per GPU-hour."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.utils import get_column_letter

from udfs.inference import tables
from workbook.expr import words
from workbook.sheet import (
    CURRENCY,
    DATA_DATE,
    Sheet,
    define_column,
    fit_rows,
    num,
    read_csv,
    room_note,
    warn_red,
)

GPU_FIRST = 6  # first data row of the GPUs table
GPU_SPARE = 4  # empty yellow rows below the table, for the user's own GPUs
GPU_COLUMNS = [  # (csv column, header, named range or None, number format)
    ("name", "GPU", "GPU_NAME", None),
    ("vendor", "Vendor", "GPU_VENDOR", None),
    ("memory_GB", "Memory (GB, 10⁹ bytes)", "GPU_MEM", "#,##0"),
    ("memory_bandwidth_TBps", "Bandwidth (TB/s)", "GPU_BW", "0.000"),
    ("bf16_dense_TFLOPS", "BF16 dense (TFLOPS)", "GPU_BF16", "#,##0.0"),
    ("fp16_dense_TFLOPS", "FP16 dense (TFLOPS)", "GPU_FP16", "#,##0.0"),
    ("fp8_dense_TFLOPS", "FP8 dense (TFLOPS)", "GPU_FP8", "#,##0.0"),
    ("int8_dense_TOPS", "INT8 dense (TOPS)", "GPU_INT8", "#,##0.0"),
    ("fp4_dense_TFLOPS", "FP4 dense (TFLOPS)", "GPU_FP4", "#,##0"),
    ("tdp_W", "TDP (W)", "GPU_TDP", "#,##0"),
    ("interconnect_GBps", "Interconnect (GB/s, both ways)", "GPU_INTERCONNECT", "#,##0"),
]


def sheet_gpus(wb: Workbook) -> Sheet:
    """GPUs: one row per accelerator of ``udfs/data/gpus.csv`` from row 6, then
    ``GPU_SPARE`` empty yellow rows for the user's own GPUs, an empty row, then the note
    that warns when the table outgrows Cost's places. The named ranges hold every row
    between the header and that empty row (``workbook.sheet.table_column``), so that a
    row typed in a yellow row, or inserted anywhere from the first row to the empty row
    (the sheet is not protected), reaches every sheet.

    A..K  the figures (name, vendor, memory in GB of 10⁹ bytes, bandwidth TB/s, dense
          TFLOPS...); an empty figure stays empty (grey) and lookups turn it into #N/A
    L     price per GPU-hour: INPUT, default from workbook/data/gpu_prices.csv (empty where
          no public price was checked: enter yours)
    M     where the default price comes from;  N source_url;  O notes
    P     purchase price per GPU: INPUT, default from workbook/data/gpu_prices.csv (a
          vendor list price or a published street price; empty where none was found,
          and Finance's owned case then uses the Assumptions' CAPEX)
    Q     where the purchase price comes from, or why there is none
    R     the GPUs its scale-up link joins (an HGX board's NVLink 8, an NVL72 rack 72, 1
          without a link): a tensor-parallel stage wider than it crosses PCIe or the
          network (``workbook.model.step.scaleup_domain``);  S where that comes from
    Named ranges, one per column: GPU_NAME, GPU_VENDOR, GPU_MEM, GPU_BW, GPU_BF16,
    GPU_FP16, GPU_FP8, GPU_INT8, GPU_FP4, GPU_TDP, GPU_INTERCONNECT, GPU_PRICE,
    GPU_PRICE_SOURCE, GPU_SOURCE, GPU_NOTES, GPU_PURCHASE_PRICE, GPU_PURCHASE_SOURCE,
    GPU_SCALEUP_DOMAIN, GPU_SCALEUP_SOURCE.
    """
    s = Sheet(wb, "GPUs", {"A": 26, "B": 9, "C": 9, "D": 10, "E": 11, "F": 11, "G": 11,
                           "H": 10, "I": 10, "J": 8, "K": 13, "L": 13, "M": 40, "N": 40,
                           "O": 90, "P": 13, "Q": 40, "R": 11, "S": 60})
    s.title_rows("GPUs: datasheet figures, dense (no 2:4 sparsity), decimal units",
                 f"Gathered {DATA_DATE} from public datasheets and write-ups; every row keeps "
                 "its source and notes. Price per GPU-hour (yellow) is yours to change.")
    s.put("A3", "Grey cell without a number: no trustworthy figure was found. It stays "
                "empty; the lookups on the other sheets treat it as not available, never as 0.",
          "note")
    s.put("A4", "Price defaults: assumptions (the public on-demand level per GPU-hour, see "
                "column M; a published purchase price per GPU, see column Q), empty where "
                "none was found. Adding a GPU: type it in a yellow row below "
                "the table, or insert a row anywhere from the first row of the table to the "
                "empty row under it (this sheet is not protected); every sheet picks it up.",
          "note")
    headers = [h for _, h, _, _ in GPU_COLUMNS]
    headers += [words("Price per GPU-hour (", CURRENCY, ")"), "Price: basis and source",
                "Source (datasheet)", "Notes", words("Purchase price per GPU (", CURRENCY, ")"),
                "Purchase price: basis and source",
                "GPUs one scale-up link joins (NVLink domain)", "Scale-up domain: source"]
    s.header(GPU_FIRST - 1, headers, height=45)
    prices = {r["name"]: r for r in read_csv("workbook", "gpu_prices.csv")}
    rows = list(tables.gpus().values())
    last = GPU_FIRST + len(rows) - 1
    for i, row in enumerate(rows):
        _gpu_row(s, GPU_FIRST + i, row, prices.get(row["name"]))
    fit_rows(s, GPU_FIRST, last, {"M": 40, "N": 40, "O": 90, "Q": 40, "S": 60})
    for r in range(last + 1, last + GPU_SPARE + 1):  # the user's own rows
        for j, (_, _, _, fmt) in enumerate(GPU_COLUMNS):
            s.put(f"{get_column_letter(j + 1)}{r}", None, "input", fmt)
        s.put(f"L{r}", None, "input", "money")
        s.put(f"P{r}", None, "input", "#,##0")
        s.put(f"R{r}", None, "input", "#,##0")
        for col in "MNOQS":
            s.put(f"{col}{r}", None, "input")
    last += GPU_SPARE
    slots = last - GPU_FIRST + 1  # the places Cost and the Sizing grids have
    end = last + 1  # the empty row under the table: the named ranges end above it
    s.ws.row_dimensions[end].height = 6  # (thin: not a row to type in)
    s.put(f"A{end + 1}", room_note("GPU_NAME", slots, "GPUs", "Cost and the Sizing grids",
                                    "↑ yellow rows: your own GPUs (name, memory, bandwidth, "
                                    "peaks, price); every sheet picks them up"), "note")
    warn_red(s.ws, f"A{end + 1}")
    _validate(s, last)
    for j, (_, _, name, _) in enumerate(GPU_COLUMNS):
        if name:
            col = get_column_letter(j + 1)
            define_column(wb, name, s.title, col, GPU_FIRST - 1, end)
    for name, col in (("GPU_PRICE", "L"), ("GPU_PRICE_SOURCE", "M"), ("GPU_SOURCE", "N"),
                      ("GPU_NOTES", "O"), ("GPU_PURCHASE_PRICE", "P"),
                      ("GPU_PURCHASE_SOURCE", "Q"), ("GPU_SCALEUP_DOMAIN", "R"),
                      ("GPU_SCALEUP_SOURCE", "S")):
        define_column(wb, name, s.title, col, GPU_FIRST - 1, end)
    s.ws.freeze_panes = f"B{GPU_FIRST}"
    return s


def _validate(s: Sheet, last: int) -> None:
    """Data validation of the user's rows (the ``GPU_SPARE`` rows up to ``last``) and of
    the price columns of every row."""
    spare = f"{last - GPU_SPARE + 1}:{{}}{last}"
    s.validate("A" + spare.format("A"), "text", "Your GPU's name (shown in the dropdowns): "
               "up to 60 characters.", "GPU name", 0, 60)
    for col in "BMNOQS":
        s.validate(col + spare.format(col), "text", "Optional text: up to 255 characters.",
                   "Text", 0, 255)
    s.validate("C" + spare.format("K"), "decimal", "A datasheet figure in the column's unit "
               "(GB, TB/s, TFLOPS, W, GB/s): a number from 0 to 1,000,000; empty if none.",
               "Figure", 0, 1000000)
    s.validate(f"L{GPU_FIRST}:L{last}", "decimal", "Price of one GPU-hour in the currency "
               "of the scenario (Sizing): a number from 0 to 1000. Empty: no cost figures "
               "for this GPU.", "Price per GPU-hour", 0, 1000)
    s.validate(f"P{GPU_FIRST}:P{last}", "decimal", "Purchase price of one GPU in the currency "
               "of the scenario (Sizing): a number from 0 to 10,000,000. Empty: Finance's "
               "owned case uses the Assumptions' CAPEX.", "Purchase price", 0, 10000000)
    s.validate("R" + spare.format("R"), "whole", "The GPUs one scale-up link (NVLink, "
               "Infinity Fabric, ICI) joins: 8 on an HGX board, 72 in an NVL72 rack, 1 "
               "without a link; empty: 8 where the GPU has an interconnect figure.",
               "Scale-up domain", 1, 100000)


def _gpu_row(s: Sheet, r: int, row: dict, price: dict | None) -> None:
    """Row ``r``: a GPU of ``udfs/data/gpus.csv`` and its price row of
    ``workbook/data/gpu_prices.csv`` (None: no price checked)."""
    for j, (key, _, _, fmt) in enumerate(GPU_COLUMNS):
        cell = f"{get_column_letter(j + 1)}{r}"
        value = row[key] if fmt is None else num(row[key])
        s.put(cell, value, "data" if value is not None else "empty", fmt)
    s.put(f"L{r}", num(price["price_per_gpu_hour_usd"]) if price else None, "input",
          "money")
    s.put(f"M{r}", (f"{price['basis']} ({price['source']}, checked {price['checked']})"
                    if price["source"] else f"{price['basis']}: enter your own")
          if price else "no price checked: enter your own", "wrap")
    s.put(f"N{r}", row["source_url"], "wrap")
    s.put(f"O{r}", row["notes"], "wrap")
    s.put(f"R{r}", num(row["scaleup_domain_gpus"]), "data", "#,##0")
    s.put(f"S{r}", row["scaleup_domain_source"], "wrap")
    purchase = num(price["purchase_price_usd"]) if price else None
    s.put(f"P{r}", purchase, "input", "#,##0")
    s.put(f"Q{r}", (f"{price['purchase_basis']} ({price['purchase_source']}, "
                    f"{price['purchase_checked']})" if purchase is not None
                    else f"{price['purchase_basis']}: enter yours")
          if price else "no purchase price checked: enter yours", "wrap")

