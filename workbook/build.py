"""Build the template workbook ``napkin.xlsx`` with openpyxl (``napkin template -o PATH``).

The workbook answers, for one model on one GPU type: does it fit, how many GPUs, the
per-token floor, tokens/s per user and in total, what a million tokens costs, and where
kernels sit against the roofline. Every result cell calls a napkin function (``=RIDGE(..)``,
``=DECODE_FLOOR(..)``); lookups into the tables are native Excel 2010 formulas
(INDEX/MATCH through named ranges), so LibreOffice and Excel without the add-in compute the
native parts and show the cached values that ``napkin calc`` wrote for ours.

Sheets, in order (each is built by ``sheet_*`` in its own module of ``workbook/``, whose
docstring gives its layout; ``workbook.sheet`` holds the drawing helpers they share):

    Start        what the workbook answers, how to get the functions, legend, data date
    Sizing       the answer (RESULT_ names: GPUs, replicas, monthly cost, cost per million
                 output tokens, tokens/s, first token), then the scenario every sheet reads
                 (SCENARIO_ names: model, precisions, GPU, GPUs per replica, batch,
                 traffic, service level, price, hours, utilization, currency; workbook.
                 scenario), then the working: lookups, fit, floors, ridge; model x GPU grids
    Cost         the scenario on every GPU type: GPUs -> monthly cost -> cost per million
                 tokens; floors, then realistic columns (floor ÷ the calibrated efficiency)
    Finance      the scenario as finance models it: low/base/high bands and a tornado,
                 input vs output tokens, rented vs owned, monthly budget, break-even
    Plan         the scenario's service level (first token, tokens/s per user) at each
                 tensor-parallel degree -> the largest batch that meets it, replicas, GPUs;
                 the scenario's answer by reference; which target fails and by how much
    Calibration  measured ms/token -> floor, MBU, MFU, efficiency found, plausibility; the
                 average efficiency feeds the realistic rows of Sizing, Cost and Finance
    Roofline     the chosen GPU's BF16/FP8 roofs and the reference kernels, log-log chart
    Speedup      Amdahl grid (p x s) and the reference examples
    Assumptions  roof efficiency, memory reserve; finance (capex, PUE, kWh, API price...);
                 low/high ranges; precisions
    GPUs         the GPU table (udfs/data/gpus.csv) with an editable price per GPU-hour
    Models       the model table (udfs/data/models.csv) with KV bytes per token and flags
    xlwings.conf the xlwings add-in's settings (UDF Modules...), read from A1 down

Rules kept: Excel 2010 functions only, no structured references, named ranges for the
tables; input cells unlocked and yellow, everything else locked; sheets protected without a
password; number formats carry units; inputs validated (numbers, ranges, list choices)
with an input message. The output is deterministic: fixed document properties here, and
``napkin template`` rewrites the zip with the fixed dates ``ZIP_TIME`` and
``FIXED_TIME``, so two builds give identical bytes.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter

from udfs import tables
from workbook import arrays
from workbook.assumptions import (
    ASSUMPTIONS,
    FINANCE_ASSUMPTIONS,
    PRECISION_FIRST,
    RANGE_ASSUMPTIONS,
    sheet_assumptions,
)
from workbook.calibration import (
    CAL_COLUMNS,
    CAL_EXAMPLE_NOTE,
    CAL_EXAMPLES,
    CAL_FIRST,
    CAL_ROWS,
    CAL_SUMMARY,
    sheet_calibration,
)
from workbook.cost import CHART_ROWS, COST, COST_COLUMNS, COST_FIRST, sheet_cost
from workbook.finance import FINANCE, TORNADO, sheet_finance
from workbook.gpus import GPU_COLUMNS, GPU_FIRST, GPU_SPARE, sheet_gpus
from workbook.models import (
    MODEL_COLUMNS,
    MODEL_DERIVED_COLS,
    MODEL_FIRST,
    MODEL_SPARE,
    sheet_models,
)
from workbook.plan import PLAN, TP_FIRST, sheet_plan
from workbook.roofline import KERNEL_FIRST, KERNELS, ROOF_FIRST, sheet_roofline
from workbook.scenario import (
    ALIASES,
    DEFAULT_GPU,
    DEFAULT_MODEL,
    DEFAULT_PRECISION,
    HEADLINE,
    RESULT_NAMES,
    SCENARIO_NAMES,
)
from workbook.sheet import DATA_DATE, FMT, Sheet, col_index, styles
from workbook.sizing import GRID_TOP, SIZING, sheet_sizing
from workbook.speedup import AMDAHL_P, AMDAHL_S, GRID_HEAD, SPEEDUP_TOP, sheet_speedup
from workbook.start import sheet_start
from workbook.xlwings_conf import sheet_xlwings_conf

#: Print set-up per sheet: orientation, the header rows repeated on every page, and rows
#: below the last cell that a chart takes (the print area must hold it).
PRINT = {
    "Start": ("landscape", None, 0), "Sizing": ("landscape", None, 0),
    "Cost": ("landscape", f"{COST_FIRST - 1}:{COST_FIRST - 1}", CHART_ROWS),
    "Finance": ("landscape", None, 16), "Plan": ("landscape", None, 0),
    "Calibration": ("landscape", f"{CAL_FIRST - 1}:{CAL_FIRST - 1}", 0),
    "Roofline": ("landscape", None, 28), "Speedup": ("landscape", None, 0),
    "Assumptions": ("landscape", "4:4", 0),
    "GPUs": ("landscape", f"{GPU_FIRST - 1}:{GPU_FIRST - 1}", 0),
    "Models": ("landscape", f"{MODEL_FIRST - 1}:{MODEL_FIRST - 1}", 0),
    "xlwings.conf": ("landscape", None, 0),
}


#: Width units one character of 11 pt prose takes, with a margin: a width unit is the
#: width of a digit, and prose averages about 0.8 of it in Calibri (Excel) and in DejaVu
#: Sans (LibreOffice's stand-in where Calibri is missing); bold text takes 10 % more.
CHAR_WIDTH = 0.9
#: For the print area a note may spill into, a generous width per character (LibreOffice
#: draws notes such as "COST_PER_MTOK: low = ..." at about 1.05 units a character): an
#: empty column more on the page costs nothing, a cut note costs its meaning.
SPILL_WIDTH = 1.1
MAX_FIT_WIDTH = 75


_LITERAL = re.compile(r'"((?:[^"]|"")*)"')


def _formula_text(formula: str) -> int:
    """A lower bound of the length of the text a formula shows: its longest run of string
    literals joined by & (each other piece of the run counted as 4 characters)."""
    best = run = 0
    end = None
    for m in _LITERAL.finditer(formula):
        between = formula[end:m.start()] if end is not None else ""
        if end is not None and "&" in between and "," not in between:
            run += len(m.group(1)) + 4 * between.count("&") // 2
        else:
            run = len(m.group(1))
        best, end = max(best, run), m.end()
    return best


def _text_width(c, formulas: bool = False, per_char: float = CHAR_WIDTH) -> float:
    """Width units the text of cell ``c`` needs on one line (0: none, or wrapped); with
    ``formulas``, for a formula the text its string literals spell at least."""
    v = c.value
    if not isinstance(v, str) or c.alignment.wrap_text or c.alignment.textRotation or \
            (v.startswith("=") and not formulas):
        return 0
    n = _formula_text(v) if v.startswith("=") else len(v)
    bold = 1.1 if c.font.b else 1
    return n * (c.font.sz or 11) / 11 * per_char * bold + 1 if n else 0


def _width(ws, col: int) -> float:
    w = ws.column_dimensions[get_column_letter(col)].width
    return w if w else 8.43


def fit_text(ws) -> None:
    """Widen each column to the longest text constant that would be cut on screen and on
    paper: one that is not wrapped and has a filled cell on its right (text spills only
    into empty cells), up to MAX_FIT_WIDTH."""
    merged = {c for r in ws.merged_cells.ranges for c in
              (f"{get_column_letter(x)}{y}" for x in range(r.min_col, r.max_col + 1)
               for y in range(r.min_row, r.max_row + 1))}
    need: dict[int, float] = {}
    for (row, col), c in list(ws._cells.items()):
        if ws._cells.get((row, col + 1)) is None or \
                ws._cells[(row, col + 1)].value is None or c.coordinate in merged:
            continue
        w = _text_width(c)
        if w > _width(ws, col):
            need[col] = max(need.get(col, 0), min(w, MAX_FIT_WIDTH))
    for col, w in need.items():
        ws.column_dimensions[get_column_letter(col)].width = round(w, 1)


def wrap_labels(ws) -> None:
    """Wrap each label of column A that a formula spells (a label with the currency in it)
    and that would be cut by the filled cell on its right, and make its row tall enough for
    the lines it takes."""
    width = _width(ws, 1)
    for (row, col), c in list(ws._cells.items()):
        right = ws._cells.get((row, 2))
        if col != 1 or right is None or right.value is None or \
                not (isinstance(c.value, str) and c.value.startswith("=")):
            continue
        need = _text_width(c, True) + 4  # the currency label: a few characters more
        if need > width and not c.alignment.wrap_text:
            c.alignment = Alignment(wrap_text=True, vertical="top")
            lines = -(-need // width)
            height = ws.row_dimensions[row].height or 15
            ws.row_dimensions[row].height = max(height, 15 * lines)


def _spill_end(ws, row: int, col: int, last: int) -> int:
    """The last column that the text of (row, col) spills into, past ``last``."""
    rest = _text_width(ws._cells[(row, col)], True, SPILL_WIDTH) - _width(ws, col)
    while rest > 0:
        nxt = ws._cells.get((row, col + 1))
        if nxt is not None and nxt.value is not None:
            break
        col += 1
        rest -= _width(ws, col)
    return col if col > last else last


#: The smallest print scale, in percent: 10 pt notes print at 7 pt.
MIN_SCALE = 70
#: Width inside the margins (0.4 in each side) of the narrower of A4 and Letter, points.
PAGE_WIDTH_PT = {"landscape": (11 - 0.8) * 72, "portrait": (8.27 - 0.8) * 72}


def print_width(ws, last_col: int) -> float:
    """Width on paper of columns A..``last_col`` at 100 %, in points: a column of width w
    is 7w + 5 pixels of 0.75 pt (hidden columns take none)."""
    total = 0.0
    for col in range(1, last_col + 1):
        dim = ws.column_dimensions.get(get_column_letter(col))
        if dim is not None and dim.hidden:
            continue
        total += (7 * _width(ws, col) + 5) * 0.75
    return total


def print_setup(ws, orientation: str, title_rows: str | None, chart_rows: int) -> None:
    """Orientation, one page wide (as many pages tall as needed) when that prints at
    MIN_SCALE or more, else at MIN_SCALE on as many pages across as needed with column A
    repeated on each; A4/Letter margins, the header rows repeated on every page, and a print
    area from A1 to the last cell (and the chart below it), wide enough for the notes that
    spill past the last column."""
    ws.page_setup.orientation = orientation
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.page_margins.top = ws.page_margins.bottom = 0.5
    if title_rows:
        ws.print_title_rows = title_rows
    last_col = max([ws.max_column] + [col_index(c) for c in ws.column_dimensions
                                      if ws.column_dimensions[c].width])
    for row, col in list(ws._cells):  # a note spilling past the last column is printed
        last_col = _spill_end(ws, row, col, last_col)
    ws.print_area = f"A1:{get_column_letter(last_col)}{ws.max_row + chart_rows}"
    if PAGE_WIDTH_PT[orientation] / print_width(ws, last_col) * 100 >= MIN_SCALE:
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr.fitToPage = True
    else:  # too wide for legible text on one page: several pages across, labelled
        ws.page_setup.scale = MIN_SCALE
        ws.sheet_properties.pageSetUpPr.fitToPage = False
        ws.print_title_cols = "A:A"


#: Fixed document dates (the document's, and every zip entry's that ``napkin template``
#: writes): a rebuild without changes gives the same bytes.
FIXED_TIME = dt.datetime(2026, 11, 1, 0, 0, 0)
ZIP_TIME = (2026, 11, 1, 0, 0, 0)

DEFAULT_PATH = Path(__file__).with_name("napkin.xlsx")


# ---------------------------------------------------------------------------- workbook
def build_workbook(native: bool = False, per_cell: bool | None = None) -> Workbook:
    """The template as an openpyxl Workbook (sheets in reading order); ``native``: the
    Start sheet of the native edition (``napkin template --native``). ``per_cell``
    (default: ``native``, or ``workbook.arrays.TEMPLATE_ARRAYS`` false): each block of
    napkin calls (a grid, a table column, a sweep) written cell by cell, as ``napkin
    native`` translates it, instead of as one array formula (``workbook.arrays``)."""
    if per_cell is None:
        per_cell = native or not arrays.TEMPLATE_ARRAYS
    with arrays.per_cell(per_cell):
        return _build(native)


def _build(native: bool) -> Workbook:
    wb = Workbook()
    wb.remove(wb.active)
    for style in styles().values():
        wb.add_named_style(style)
    start = sheet_start(wb, native)
    # every slot of the tables, the spare rows for the user's own included
    n_gpus = len(tables.gpus()) + GPU_SPARE
    n_models = len(tables.models()) + MODEL_SPARE
    sizing = sheet_sizing(wb, n_models, n_gpus)
    cost = sheet_cost(wb, n_gpus)
    finance = sheet_finance(wb)
    plan = sheet_plan(wb)
    calibration = sheet_calibration(wb)
    roof = sheet_roofline(wb)
    speed = sheet_speedup(wb)
    assumptions = sheet_assumptions(wb)
    gpus = sheet_gpus(wb)
    models = sheet_models(wb)
    conf = sheet_xlwings_conf(wb)
    for sheet in (start, sizing, cost, finance, plan, calibration, roof, speed, assumptions,
                  gpus, models, conf):
        sheet.protect()
        fit_text(sheet.ws)
        wrap_labels(sheet.ws)
        sheet.ws.sheet_view.zoomScale = 100
        print_setup(sheet.ws, *PRINT[sheet.title])
    wb.active = 0
    p = wb.properties
    p.creator = p.lastModifiedBy = "napkin template"
    p.title = "napkin: LLM-inference napkin math"
    p.created = p.modified = FIXED_TIME
    return wb


def build_template(path=None, native: bool = False) -> Path:
    """Write the template workbook to ``path`` (default: ``workbook/napkin.xlsx``), as
    openpyxl saves it (zip dates and ``dcterms:modified`` of the moment: ``napkin
    template``, ``addin.routes.embed.write_template``, sets them to ``ZIP_TIME``
    and ``FIXED_TIME``)."""
    path = Path(path) if path is not None else DEFAULT_PATH
    if path.is_dir():
        path = path / "napkin.xlsx"
    path.parent.mkdir(parents=True, exist_ok=True)
    build_workbook(native).save(path)
    return path


__all__ = [
    "build_template", "build_workbook", "Sheet", "FMT", "DATA_DATE", "FIXED_TIME", "ZIP_TIME",
    "DEFAULT_PATH", "DEFAULT_MODEL", "DEFAULT_PRECISION", "DEFAULT_GPU",
    "SIZING", "GRID_TOP", "PLAN", "TP_FIRST", "COST", "COST_COLUMNS", "COST_FIRST",
    "FINANCE", "TORNADO",
    "CAL_SUMMARY", "CAL_FIRST", "CAL_ROWS", "CAL_COLUMNS", "CAL_EXAMPLES", "CAL_EXAMPLE_NOTE",
    "GPU_COLUMNS", "GPU_FIRST", "GPU_SPARE", "MODEL_SPARE", "HEADLINE", "MODEL_COLUMNS",
    "MODEL_DERIVED_COLS", "MODEL_FIRST",
    "ASSUMPTIONS", "FINANCE_ASSUMPTIONS", "RANGE_ASSUMPTIONS", "PRECISION_FIRST",
    "ROOF_FIRST", "KERNEL_FIRST", "KERNELS", "MIN_SCALE", "PAGE_WIDTH_PT", "print_width",
    "AMDAHL_P", "AMDAHL_S", "GRID_HEAD",
    "SPEEDUP_TOP", "SCENARIO_NAMES", "RESULT_NAMES", "ALIASES",
]
