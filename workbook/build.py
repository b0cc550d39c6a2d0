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
    Summary      one printed page: the scenario (SCENARIO_ names), the answer and its
                 range (RESULT_ names), a bar chart of the cheapest GPUs (Cost's column)
    Sizing       the answer (RESULT_ names: GPUs, replicas, monthly cost, cost per million
                 output tokens, tokens/s, first token), then the scenario every sheet reads
                 (SCENARIO_ names: model, precisions, GPU, GPUs per replica, batch,
                 traffic, service level, price, hours, utilization, currency; workbook.
                 scenario), then the working: lookups, fit, floors, ridge; model x GPU grids
    Cost         the scenario on every GPU type: GPUs -> monthly cost -> cost per million
                 tokens, realistic (floor ÷ the calibrated efficiency); the working in
                 grouped columns; a bar chart of the cost per million tokens by GPU
    Frontier     the scenario's tokens/s per GPU and cost per million tokens against
                 tokens/s per user, batch 1, 2, 4 ... on its GPU and two others
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
password, but for the tables' (``TABLE_SHEETS``), where a user inserts, sorts and filters
rows (a row inserted takes the locked format of the row it is inserted at, so a
protected table would refuse typing in it); number formats carry units; inputs validated
(numbers, ranges, list choices) with an input message. The output is deterministic: fixed
document properties here, and ``napkin template`` rewrites the zip with the fixed dates
``ZIP_TIME`` and ``FIXED_TIME``, so two builds give identical bytes.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from zipfile import ZIP_DEFLATED, ZipFile, ZipInfo

from openpyxl import Workbook

from udfs.inference import tables
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
from workbook.cost import COST, COST_COLUMNS, COST_FIRST, sheet_cost
from workbook.elsewhere import note_conf, note_titles
from workbook.finance import FINANCE, TORNADO, sheet_finance
from workbook.frontier import sheet_frontier
from workbook.gpus import GPU_COLUMNS, GPU_FIRST, GPU_SPARE, sheet_gpus
from workbook.models import (
    MODEL_COLUMNS,
    MODEL_DERIVED_COLS,
    MODEL_FIRST,
    MODEL_SPARE,
    sheet_models,
)
from workbook.paper import fit_text, print_setup, wrap_labels
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
from workbook.sheet import DATA_DATE, FMT, Sheet, styles, top_align_tall_rows
from workbook.sizing import GRID_TITLE_ROW, GRID_TOP, SIZING, sheet_sizing
from workbook.speedup import AMDAHL_P, AMDAHL_S, GRID_HEAD, SPEEDUP_TOP, sheet_speedup
from workbook.start import sheet_start
from workbook.summary import sheet_summary
from workbook.xlwings_conf import sheet_xlwings_conf
from workbook.xml_form import canonical_parts

#: The header rows repeated on every printed page of a sheet whose table runs over pages.
PRINT_TITLES = {
    "Sizing": f"{GRID_TITLE_ROW}:{GRID_TITLE_ROW}",
    "Cost": f"{COST_FIRST - 1}:{COST_FIRST - 1}",
    "Calibration": f"{CAL_FIRST - 1}:{CAL_FIRST - 1}",
    "Assumptions": "4:4",
    "GPUs": f"{GPU_FIRST - 1}:{GPU_FIRST - 1}",
    "Models": f"{MODEL_FIRST - 1}:{MODEL_FIRST - 1}",
}


#: The sheets of the GPU, model (and price) and measurement tables: not protected, so that
#: a user inserts rows anywhere in them (the named ranges grow: ``sheet.table_column``),
#: sorts and filters them.
TABLE_SHEETS = ("GPUs", "Models", "Calibration")


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
    summary = sheet_summary(wb, n_gpus)  # reads Cost's chart columns; shown after Start
    wb.move_sheet(summary.ws, offset=1 - wb.index(summary.ws))
    front = sheet_frontier(wb)
    finance = sheet_finance(wb)
    plan = sheet_plan(wb)
    calibration = sheet_calibration(wb)
    roof = sheet_roofline(wb)
    speed = sheet_speedup(wb)
    assumptions = sheet_assumptions(wb)
    gpus = sheet_gpus(wb)
    models = sheet_models(wb)
    conf = sheet_xlwings_conf(wb)
    sheets = (start, summary, sizing, cost, front, finance, plan, calibration, roof, speed,
              assumptions, gpus, models, conf)
    if not native:  # the Lite edition says, where it does not compute, what to open
        note_conf(conf.ws)
    for sheet in sheets:
        if sheet.title not in TABLE_SHEETS:
            sheet.protect()
        fit_text(sheet.ws)
        wrap_labels(sheet.ws)
        sheet.ws.sheet_view.zoomScale = 100
        print_setup(sheet.ws, PRINT_TITLES.get(sheet.title))
        top_align_tall_rows(sheet.ws)  # after print_setup: its wrapped text sets heights
    if not native:
        note_titles([sheet.ws for sheet in sheets if sheet is not conf])
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
    _one_form(path)
    return path


def _one_form(path: Path) -> None:
    """Rewrite the zip openpyxl saved at ``path`` with every XML part in
    ``workbook.xml_form``'s one form, so that the template's bytes do not depend on
    whether openpyxl found lxml."""
    with ZipFile(path) as zf:
        parts = [(i.filename, zf.read(i)) for i in zf.infolist()]
    with ZipFile(path, "w", ZIP_DEFLATED) as out:
        for name, data in canonical_parts(parts):
            out.writestr(ZipInfo(name, date_time=ZIP_TIME), data, ZIP_DEFLATED)


__all__ = [
    "build_template", "build_workbook", "Sheet", "FMT", "DATA_DATE", "FIXED_TIME", "ZIP_TIME",
    "DEFAULT_PATH", "DEFAULT_MODEL", "DEFAULT_PRECISION", "DEFAULT_GPU",
    "SIZING", "GRID_TOP", "PLAN", "TP_FIRST", "COST", "COST_COLUMNS", "COST_FIRST",
    "FINANCE", "TORNADO",
    "CAL_SUMMARY", "CAL_FIRST", "CAL_ROWS", "CAL_COLUMNS", "CAL_EXAMPLES", "CAL_EXAMPLE_NOTE",
    "GPU_COLUMNS", "GPU_FIRST", "GPU_SPARE", "MODEL_SPARE", "HEADLINE", "MODEL_COLUMNS",
    "MODEL_DERIVED_COLS", "MODEL_FIRST", "TABLE_SHEETS",
    "ASSUMPTIONS", "FINANCE_ASSUMPTIONS", "RANGE_ASSUMPTIONS", "PRECISION_FIRST",
    "ROOF_FIRST", "KERNEL_FIRST", "KERNELS", "PRINT_TITLES",
    "AMDAHL_P", "AMDAHL_S", "GRID_HEAD",
    "SPEEDUP_TOP", "SCENARIO_NAMES", "RESULT_NAMES", "ALIASES",
]
