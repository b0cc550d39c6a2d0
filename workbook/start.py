"""The Start sheet: what the workbook answers, how to get the functions, legend, data date."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font

from workbook import arrays
from workbook.expr import F, Text
from workbook.sheet import (
    DATA_DATE,
    Sheet,
    define_name,
)

#: The cell that says whether the workbook is live or a frozen copy (named STATUS_NAME):
#: ``napkin freeze`` writes there when and from what file its values were frozen.
STATUS_CELL = "A3"
STATUS_NAME = "NAPKIN_STATUS"
STATUS_LIVE = ("Live workbook: napkin's cells are formulas, computed by xlwings Lite, the "
               "xlwings add-in or napkin calc. A copy made by napkin freeze says here when "
               "and from what file its numbers were frozen.")
#: The status line of the native edition (``napkin template --native``), which has no
#: napkin function and no Lite code: Excel's own functions only.
STATUS_NATIVE = ("Live workbook in Excel's own functions (napkin template --native): it "
                 "recalculates in Excel 2010 or newer, LibreOffice, Google Sheets and Numbers "
                 "with no add-in. Its tables and helper cells sit on hidden sheets.")
#: Column widths; B's text wraps (about one character per width unit at 11 pt, so that
#: Excel's Calibri and LibreOffice's substitute font both fit it).
WIDTHS = {"A": 32, "B": 100}


def _version() -> str:
    """The napkin version whose xlwings Lite code the template carries."""
    from importlib import metadata

    for dist in metadata.packages_distributions().get("udfs", []):  # whatever its name
        return metadata.version(dist)
    return "(source)"


#: Where the Lite edition says, on opening in a program without xlwings Lite, which file
#: to use instead (``without_lite``).
WITHOUT_LITE_CELL = "A19"
WITHOUT_LITE = ("⚠ napkin's functions are not available in this program (no xlwings Lite): "
                "its napkin cells show #NAME? or the numbers last computed. For live numbers "
                "without the add-in, open napkin-native.xlsx (the same sheets in Excel's own "
                "functions) instead.")


def without_lite(s: Sheet) -> None:
    """``WITHOUT_LITE`` in ``WITHOUT_LITE_CELL`` where napkin's functions do not compute,
    empty where they do: a one-cell array formula that calls RIDGE, because LibreOffice
    recomputes array formulas on opening (a one-cell formula keeps its cached value), so
    the sentence is there before any edit; in Excel without the add-in it appears at the
    first recalculation. napkin calc and xlwings Lite compute it empty."""
    from openpyxl.worksheet.formula import ArrayFormula

    from workbook.sheet import warn_red

    formula = F.IF(F.ISERROR(F.RIDGE(989, 3.35)), Text(WITHOUT_LITE), Text("")).formula()
    c = s.put(WITHOUT_LITE_CELL, "", "label")
    # the per-cell form (workbook.arrays.PER_CELL) has no array formula: a plain one there
    c.value = formula if arrays.PER_CELL.get() else ArrayFormula(WITHOUT_LITE_CELL, formula)
    c.alignment = Alignment(wrap_text=True, vertical="top")
    row = WITHOUT_LITE_CELL[1:]
    s.ws.merge_cells(f"{WITHOUT_LITE_CELL}:B{row}")
    s.ws.row_dimensions[int(row)].height = 32
    warn_red(s.ws, WITHOUT_LITE_CELL)


def sheet_start(wb: Workbook, native: bool = False) -> Sheet:
    """Start: what the workbook answers, how to get the functions, the legend, the data date.

    A3:B3     NAPKIN_STATUS: live, or (napkin freeze) frozen when and from what
    A4..B13   the questions and where each is answered
    A14..B18  the functions in Excel: with xlwings Lite (the code inside, its napkin
              version), without it (numbers until an edit; napkin freeze for readers),
              the xlwings add-in, no Excel (napkin calc)
    A19:B19   (the Lite edition) empty, or where napkin's functions do not compute, which
              file to open instead (``without_lite``)
    A20..B24  legend: input cell, formula cell, key result, empty figure
    A26..     the data date and sources

    ``native``: the Start sheet of the native edition, which says it needs no add-in.
    """
    s = Sheet(wb, "Start", WIDTHS)
    s.title_rows("napkin: LLM-inference napkin math in cells",
                 "Set the scenario at the top of Sizing (model, precision, GPU, GPUs per "
                 "replica, pipeline stages, expert parallel or not, traffic, price): every "
                 "sheet answers "
                 "for it: GPUs, monthly cost, cost per million tokens.")
    status = s.put(STATUS_CELL, STATUS_NATIVE if native else STATUS_LIVE, "label")
    status.font = Font(name="Calibri", size=11, bold=True, color="1F3864")
    status.alignment = Alignment(wrap_text=True, vertical="top")
    s.ws.merge_cells(f"{STATUS_CELL}:B{STATUS_CELL[1:]}")
    s.ws.row_dimensions[int(STATUS_CELL[1:])].height = 32
    define_name(wb, STATUS_NAME, s.title, "$A$3")
    _answers(s)
    _routes(s, native)
    _legend(s, native)
    _data(s, native)
    _wrap(s, "B", 5, 29)
    return s


def _answers(s: Sheet) -> None:
    """Rows 4..13: the questions and where each is answered."""
    s.section(4, "What it answers", "B")
    answers = [
        ("How many GPUs, what cost?", "Summary: the scenario, its cost and range, the "
                                       "cheapest GPUs, on one printed page. Sizing, the "
                                       "answer: GPUs, monthly cost, cost per million output "
                                       "tokens; then fit (FITS, GPUS_NEEDED), grid 1"),
        ("How fast can it possibly go?", "Sizing: the decode floor in ms/token, tokens/s "
                                          "per user and in total; grid 2"),
        ("Which GPU is cheapest?", "Cost: the scenario on each GPU type: GPUs → monthly "
                                    "cost → cost per million tokens"),
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
        ("Does it meet the service level?", "Plan: first-token and tokens/s targets at "
                                            "each tensor-parallel degree and pipeline "
                                            "stages → the largest batch, replicas, GPUs; "
                                            "or which target fails"),
        ("Which assumptions?", "Sizing: the scenario. Assumptions: roof efficiency, memory "
                               "reserve, finance, ranges. Facts: GPUs and Models, with "
                               "sources"),
    ]
    for i, (q, where) in enumerate(answers):
        s.put(f"A{5 + i}", q, "label")
        s.put(f"B{5 + i}", where, "label")


def _routes(s: Sheet, native: bool) -> None:
    """Rows 14..19: the ways to get the functions into Excel (the native edition: none
    needed)."""
    s.section(14, "Getting the functions into Excel", "B")
    routes = [
        ("xlwings Lite (Excel 365, web)", f"This workbook carries napkin {_version()}'s "
                                           "code: open it with the free xlwings Lite add-in "
                                           "(Home → Add-ins) and every napkin cell is live."),
        ("Without xlwings Lite", "In Excel the cells keep their numbers until an input "
                                 "changes; then napkin's cells show #NAME?. LibreOffice "
                                 "recomputes array formulas on opening: napkin's grids and "
                                 "table columns show #NAME? at once there. napkin-native.xlsx "
                                 "(napkin native IN.xlsx -o OUT.xlsx for your own) stays "
                                 "live in any spreadsheet; napkin freeze makes a values-only "
                                 "copy."),
    ] if not native else [
        ("Any spreadsheet program", "Nothing to install: every formula is one of Excel's own "
                                    "(the Excel 2010 set). Change the yellow cells and every "
                                    "sheet recalculates, in Excel, LibreOffice, Google Sheets "
                                    "or Numbers."),
        ("napkin's functions", "Not in this file (=RIDGE(...) and the others are napkin's): "
                               "open napkin.xlsx with the free xlwings Lite add-in to use "
                               "them in your own formulas."),
    ]
    routes += [
        ("xlwings add-in (desktop)", "From napkin's repository: pip install -e . → napkin "
                                      "template --addin -o napkin.xlsx → napkin addin install "
                                      "→ restart Excel; the functions appear as =RIDGE(...)."),
        ("No Excel at all", "napkin calc napkin.xlsx -o out.xlsx computes every formula "
                            "headless and writes the values; napkin eval \"=RIDGE(989,3.35)\""
                            " evaluates one."),
    ]
    for i, (route, how) in enumerate(routes):
        s.put(f"A{15 + i}", route, "label")
        s.put(f"B{15 + i}", how, "label")
    if not native:
        without_lite(s)


def _legend(s: Sheet, native: bool) -> None:
    """Rows 20..24: what each cell style means."""
    s.section(20, "Legend", "B")
    legend = [
        ("input", "Input: yellow, unlocked. Type here; validation says what is accepted."),
        ("formula", "Formula: locked. Excel's own functions only (napkin's translated)."
         if native else "Formula: locked. A napkin function (RIDGE, DECODE_FLOOR...) or a "
                        "native lookup."),
        ("result", "Key result: green, locked."),
        ("empty", "Grey, empty: no trustworthy figure in the table; results that need it "
                  "are not available (an error value, or text) and say so."),
    ]
    for i, (style, text) in enumerate(legend):
        s.put(f"A{21 + i}", {"input": 1.25, "formula": F.SPEEDUP(20, 16), "result":
                             F.SPEEDUP(20, 15), "empty": None}[style], style,
              None if style == "empty" else "x")
        s.put(f"B{21 + i}", text, "label")


def _data(s: Sheet, native: bool) -> None:
    """Rows 26..29: the data date, the sources, the protection (the native edition: a
    Calibration row copied into an inserted one keeps the hidden helper cells of the row
    it was copied from, so measurements go in its empty rows)."""
    s.section(26, "Data", "B")
    s.put("A27", "Tables gathered", "label")
    s.put("B27", DATA_DATE, "label")
    s.put("A28", "Sources", "label")
    s.put("B28", "GPUs: vendor datasheets and write-ups, dense figures (no sparsity). "
                 "Models: each model's config.json. Every row keeps its source and notes.",
          "label")
    s.put("A29", "Sheets are protected", "label")
    s.put("B29", "without a password (Review → Unprotect Sheet) so that typing lands only in "
                 "the yellow cells; but for GPUs, Models and Calibration, the tables: insert "
                 "a row anywhere in them (from the first row to the empty row under each), "
                 "sort or filter them, and every sheet picks the rows up." + (
                     " In this edition, type measurements in Calibration's empty rows: a row "
                     "inserted there and copied from another computes that row's floor "
                     "(hidden helper cells)." if native else ""), "label")


def _wrap(s: Sheet, col: str, first: int, last: int) -> None:
    """Wrap the text of ``col`` in rows ``first..last`` and give each row the height of its
    lines (one character per width unit, 15 points a line), so nothing runs off the page."""
    width = int(WIDTHS[col])
    for r in range(first, last + 1):
        c = s.ws[f"{col}{r}"]
        if not isinstance(c.value, str) or s.ws[f"A{r}"].style == "napkin section":
            continue
        c.alignment = Alignment(wrap_text=True, vertical="top")
        s.ws[f"A{r}"].alignment = Alignment(vertical="top")
        lines = -(-len(c.value) // width)
        if lines > 1:
            s.ws.row_dimensions[r].height = 15 * lines + 1

