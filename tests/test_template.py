"""The template workbook: built by ``workbook.build``, computed by ``napkin calc`` (the
fixtures are in ``template_support.py``; the computed sheets are checked in
``test_template_sizing.py``, ``test_template_finance.py`` and ``test_template_use.py``).

What is checked:
* the committed ``workbook/napkin.xlsx`` is the builder's output (not stale), and two builds
  give identical bytes;
* the rules: Excel 2010 functions only (no XLOOKUP/LET, no structured references), named
  ranges for the tables, inputs unlocked + styled + validated, everything else locked,
  sheets protected without a password, number formats with units;
* the tables: every GPU and model row of ``udfs/data`` with its source and notes, empty
  figures empty;
* after ``napkin calc``: the reference values (inference-math.md), hand calculations of the
  Cost, Calibration and Finance sheets (realistic = floor ÷ efficiency, bands in order, the
  tornado's data, owned vs rented, budget, break-even), and no error value anywhere;
* the ``xlwings.conf`` sheet holds ``addin.routes.install.xlwings_conf_rows()`` from A1 down;
* LibreOffice (when installed): the computed file, exported to CSV without recalculation,
  shows the same values; every sheet renders to PDF/PNG.
"""


from __future__ import annotations

import csv
import math
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.formula import ArrayFormula
from template_support import (
    COMMITTED,
    NATIVE,
    ROOT,
    SHEETS,
    formulas,
)

from addin.routes.embed import write_template
from udfs.inference import tables
from workbook import build
from workbook.build import (
    CAL_FIRST,
    CAL_SUMMARY,
    FINANCE,
    GPU_FIRST,
    GPU_SPARE,
    MODEL_FIRST,
    SIZING,
)
from workbook.plan import TP_FIRST, TP_ROWS

# reads or writes workbook XML: .ci/run runs it again with openpyxl's lxml off
pytestmark = pytest.mark.xml


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("template")


# ------------------------------------------------------------------------ build


def test_committed_workbook_is_not_stale(built):
    assert COMMITTED.exists(), \
        "run: python -m tools.regenerate (or napkin template -o workbook/napkin.xlsx)"
    with zipfile.ZipFile(COMMITTED) as old, zipfile.ZipFile(built) as new:
        assert sorted(old.namelist()) == sorted(new.namelist())
        stale = [n for n in new.namelist() if old.read(n) != new.read(n)]
    assert not stale, f"workbook/napkin.xlsx is stale ({stale}): python -m tools.regenerate " \
                      "(or napkin template -o workbook/napkin.xlsx)"
    assert COMMITTED.read_bytes() == built.read_bytes()


def test_build_is_deterministic(tmp, built):
    again = write_template(tmp / "again.xlsx")
    assert again.read_bytes() == built.read_bytes()
    with zipfile.ZipFile(again) as z:
        assert {i.date_time for i in z.infolist()} == {build.ZIP_TIME}
        core = z.read("docProps/core.xml").decode()
    assert "2026-11-01T00:00:00Z" in core and "modified" in core


def test_cli_template_writes_the_workbook(tmp):
    out = tmp / "cli" / "napkin.xlsx"
    out.parent.mkdir()  # napkin refuses to create missing folders
    proc = subprocess.run([sys.executable, "-m", "addin.cli", "template", "-o", str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == COMMITTED.read_bytes()


# ------------------------------------------------------------------------ rules


def test_sheets_in_reading_order(book):
    assert book.sheetnames == SHEETS


def test_formulas_use_excel_2010_functions_and_ours(book):
    from udfs.catalog import CATALOG

    allowed = NATIVE | set(CATALOG)
    for sheet, c in formulas(book):
        f = re.sub(r'"[^"]*"', '""', c.value)  # drop string literals
        used = set(re.findall(r"([A-Z][A-Z0-9_.]*)\(", f))
        assert used <= allowed, (sheet, c.coordinate, used - allowed)
        assert "_xlfn" not in f and "[" not in f, (sheet, c.coordinate)  # no structured refs
        assert not re.search(r"\d[eE][+-]?\d", f), (sheet, c.coordinate)  # no 1E9 literals


def test_named_ranges_for_the_tables(book):
    names = set(book.defined_names)
    for name in ("GPU_NAME", "GPU_MEM", "GPU_BW", "GPU_BF16", "GPU_FP8", "GPU_PRICE",
                 "MODEL_NAME", "MODEL_PARAMS_B", "MODEL_LAYERS", "MODEL_KV_HEADS",
                 "MODEL_HEAD_DIM", "MODEL_KV_BYTES", "PRECISION_NAME", "ROOF_EFFICIENCY",
                 "UTILIZATION", "CONTEXT", "BATCH", "TOKENS_PER_DAY", "PEAK_TO_AVG",
                 "CURRENCY", "GPU_TDP", "CAL_EFFICIENCY", "EFF_DEFAULT", "PROMPT_TOKENS",
                 "INPUT_PER_OUTPUT", "CAPEX", "YEARS", "PUE", "KWH_PRICE", "API_PRICE",
                 "EFF_LOW", "EFF_HIGH", "UTIL_LOW", "UTIL_HIGH", "PRICE_LOW", "PRICE_HIGH"):
        assert name in names, name
    n_gpus = len(tables.gpus()) + GPU_SPARE  # the spare rows for the user's own included
    # the rows between the header and the empty row under the spare rows: a row inserted
    # at the first row or below the last is inside (workbook.sheet.table_column)
    span = f"'GPUs'!$A${GPU_FIRST - 1}:$A${GPU_FIRST + n_gpus}"
    assert book.defined_names["GPU_NAME"].attr_text == \
        f"INDEX({span},2):INDEX({span},ROWS({span})-1)"


def _validated(ws) -> set[str]:
    cells = set()
    for dv in ws.data_validations.dataValidation:
        for rng in dv.sqref.ranges:
            for row in ws[rng.coord] if ":" in rng.coord else [[ws[rng.coord]]]:
                for c in row:
                    cells.add(c.coordinate)
    return cells


def test_inputs_unlocked_styled_validated_rest_locked(book):
    n_inputs = 0
    for ws in book:
        # the tables' sheets are not protected: a user inserts rows anywhere in them
        # (tests/test_insert_rows.py), sorts and filters them; the others are, no password
        assert bool(ws.protection.sheet) == (ws.title not in build.TABLE_SHEETS), ws.title
        assert not ws.protection.password, ws.title
        validated = _validated(ws)
        for row in ws.iter_rows():
            for c in row:
                if c.style == "napkin input":
                    n_inputs += 1
                    assert c.protection.locked is False, (ws.title, c.coordinate)
                    if ws.title != "Start":  # the legend's sample input
                        assert c.coordinate in validated, (ws.title, c.coordinate)
                else:
                    assert c.protection.locked is not False, (ws.title, c.coordinate)
    assert n_inputs > 50


#: The two inputs that take a word or a number ("smallest that fits", "largest that meets
#: the service level"), and the pipeline stages, Sizing's and Plan's rows' (a whole number
#: dividing the GPUs per replica): a custom rule, refusing anything else.
PLAN_STAGES = f"CO{TP_FIRST}:CO{TP_FIRST + TP_ROWS - 2}"
CUSTOM = {("Sizing", SIZING["gpus_input"]), ("Sizing", SIZING["batch_input"]),
          ("Sizing", SIZING["stages_input"]), ("Plan", PLAN_STAGES)}


def test_validation_refuses_text_and_out_of_range(book):
    for ws in book:
        for dv in ws.data_validations.dataValidation:
            assert dv.showInputMessage and dv.prompt, (ws.title, dv.sqref)
            assert dv.showErrorMessage and dv.errorStyle == "stop", (ws.title, dv.sqref)
            assert dv.type in ("list", "decimal", "whole", "textLength") or (
                ws.title, str(dv.sqref)) in CUSTOM, (ws.title, dv.sqref)
    dvs = {str(dv.sqref): dv for dv in book["Assumptions"].data_validations.dataValidation}
    eff = dvs["B5"]
    assert (eff.type, float(eff.formula1), float(eff.formula2)) == ("decimal", 0.01, 1)
    sizing_dvs = {str(dv.sqref): dv for dv in book["Sizing"].data_validations.dataValidation}
    st, g = SIZING["stages_input"], SIZING["gpus_input"]
    assert sizing_dvs[st].formula1 == (f"AND(ISNUMBER({st}),{st}>=1,{st}<=64,INT({st})={st},"
                                       f"OR(NOT(ISNUMBER({g})),MOD({g},{st})=0))")
    # Plan's rows (not the scenario's, the last, a formula): each row's stages divide its
    # GPUs, column A, the rule relative to the range's first row as Excel reads it
    plan_dvs = {str(dv.sqref): dv for dv in book["Plan"].data_validations.dataValidation}
    st, g = f"CO{TP_FIRST}", f"A{TP_FIRST}"
    assert plan_dvs[PLAN_STAGES].formula1 == (f"AND(ISNUMBER({st}),{st}>=1,{st}<=64,"
                                              f"INT({st})={st},OR(NOT(ISNUMBER({g})),"
                                              f"MOD({g},{st})=0))")
    assert sizing_dvs[SIZING["model"]].formula1 == "MODEL_NAME"
    assert sizing_dvs[SIZING["gpu"]].formula1 == "GPU_NAME"
    assert sizing_dvs[SIZING["precision"]].formula1 == "PRECISION_NAME"


def test_result_formats_carry_units(book):
    ws = book["Sizing"]
    for key, unit in (("weight_gb", "GB"), ("weight_gib", "GiB"), ("kv_gb", "GB"),
                      ("floor_ms", "ms/token"), ("tps_user", "tokens/s"),
                      ("ridge_bf16", "FLOP/byte"), ("gpus_needed", "GPU"),
                      ("real_step_ms", "ms/token"), ("real_tps_user", "tokens/s")):
        assert unit in ws[SIZING[key]].number_format, key
    ws = book["Finance"]
    for key, unit in (("real_step_ms", "ms/token"), ("prefill_ms", "ms"), ("tdp", "W"),
                      ("gpus_total", "GPU"), ("volume", "M tokens")):
        assert unit in ws[FINANCE[key]].number_format, key
    assert "M tokens/month" in ws[f"B{FINANCE['breakeven']}"].number_format
    assert "ms/token" in ws[f"B{FINANCE['ms_range']}"].number_format
    assert "ms/token" in book["Calibration"][f"K{CAL_FIRST}"].number_format


def test_every_result_calls_our_functions(book):
    from udfs.catalog import CATALOG

    ws = book["Sizing"]
    for key in ("weight_gb", "weight_gib", "kv_gqa_gb", "fits_weights", "fits_all",
                "gpus_needed", "floor_ms", "step_ms", "tps_total", "tps_user", "ridge_bf16",
                "ridge_used", "critical_batch", "decode_intensity", "side", "cost_mtok",
                "real_step_ms", "real_tps_total", "real_tps_user", "real_cost_mtok"):
        f = ws[SIZING[key]].value
        assert any(f"{name}(" in f for name in CATALOG), (key, f)
    # the new sheets: every result cell calls ours, but for the native glue named here
    glue = {("Calibration", CAL_SUMMARY["efficiency"]),  # AVERAGE over CALIBRATE results
            ("Finance", FINANCE["most"]),  # INDEX/MATCH: the name of the largest swing
            ("Finance", f"B{FINANCE['cheaper']}"),  # volume above break-even or not
            ("Finance", f"C{FINANCE['cheaper']}"),
            ("Finance", f"B{FINANCE['within']}"),  # break-even within the fleet's capacity
            ("Finance", f"C{FINANCE['within']}")}
    for sheet in ("Finance", "Calibration"):
        texts = _formula_texts(book[sheet])
        for row in book[sheet].iter_rows():
            for c in row:
                text = texts.get(c.coordinate)
                if c.style == "napkin result" and (sheet, c.coordinate) not in glue and \
                        not re.fullmatch(r"=RESULT_[A-Z_]+", text):  # the same cell
                    assert any(f"{name}(" in text for name in CATALOG), (sheet, c.coordinate)


def _formula_texts(ws) -> dict:
    """{cell: the formula that computes it}: a cell of an array formula's range has the
    array formula's text (``workbook.arrays``)."""
    from openpyxl.utils.cell import range_boundaries
    from openpyxl.worksheet.formula import ArrayFormula

    out = {}
    for row in ws.iter_rows():
        for c in row:
            if isinstance(c.value, ArrayFormula):
                c1, r1, c2, r2 = range_boundaries(c.value.ref)
                for r in range(r1, r2 + 1):
                    for col in range(c1, c2 + 1):
                        out[ws.cell(row=r, column=col).coordinate] = c.value.text
            elif c.coordinate not in out:
                out[c.coordinate] = c.value
    return out


# ------------------------------------------------------------------------ tables


def test_gpu_table_rows_with_sources(book):
    ws = book["GPUs"]
    rows = list(tables.gpus().values())
    for i, row in enumerate(rows):
        r = GPU_FIRST + i
        assert ws[f"A{r}"].value == row["name"]
        assert ws[f"N{r}"].value == row["source_url"] and ws[f"O{r}"].value == row["notes"]
        for col, key in (("C", "memory_GB"), ("D", "memory_bandwidth_TBps"),
                         ("E", "bf16_dense_TFLOPS"), ("G", "fp8_dense_TFLOPS")):
            cell = ws[f"{col}{r}"]
            if row[key].strip():
                assert cell.value == pytest.approx(float(row[key]))
            else:  # an empty figure stays empty and says so (grey style + legend)
                assert cell.value is None and cell.style == "napkin empty"
    assert ws[f"A{GPU_FIRST + len(rows)}"].value is None
    h100 = GPU_FIRST + [r["name"] for r in rows].index("NVIDIA H100 SXM")
    assert ws[f"L{h100}"].style == "napkin input" and ws[f"L{h100}"].value > 0
    assert "aimultiple" in ws[f"M{h100}"].value  # the price default says where it is from


def test_model_table_rows_with_sources_and_flags(book):
    ws = book["Models"]
    rows = list(tables.models().values())
    names = [r["name"] for r in rows]
    for i, row in enumerate(rows):
        r = MODEL_FIRST + i
        assert ws[f"A{r}"].value == row["name"]
        assert ws[f"T{r}"].value == row["source_url"] and ws[f"U{r}"].value == row["notes"]
    ds = MODEL_FIRST + names.index("DeepSeek-V3")
    # MLA caches one latent of kv_lora_rank 512 + rope dim 64 = 576 elements a layer, in
    # BF16 2 bytes each (DeepSeek-V3's config.json): 1,152 bytes × the row's KV layers
    assert ws[f"O{ds}"].value == "MLA" and "*1152," in ws[f"P{ds}"].value
    assert "MODEL_SPEC" not in ws[f"P{ds}"].value
    assert "576" in ws[f"S{ds}"].value
    gemma = MODEL_FIRST + names.index("Gemma 2 9B")
    assert "sliding" in ws[f"O{gemma}"].value and ws[f"Q{gemma}"].value == 4096
    assert ws[f"R{gemma}"].value == 21 and "4,096" in ws[f"S{gemma}"].value
    r = MODEL_FIRST + names.index("Llama 3.1 8B")
    # 2 (K and V) x KV layers (X, else all of D) x KV heads x head dim x 2 B (BF16): Excel's
    # arithmetic, KV_CACHE_GB's figure (tests/test_spare_rows.py), so a row can be inserted
    assert ws[f"P{r}"].value == f"=2*IF(ISNUMBER(X{r}),X{r},D{r})*G{r}*H{r}*2"
    # a Calibration row's verdict is napkin's, in the form Excel stores a Lite function's
    # (docs/lite-format.md)
    assert "_xldudf_PLAUSIBLE(" in book["Calibration"][f"O{CAL_FIRST}"].value


# ------------------------------------------------------------------------ xlwings.conf


def test_xlwings_conf_sheet(book):
    from addin.routes.install import xlwings_conf_rows

    ws = book["xlwings.conf"]
    assert book.sheetnames[-1] == "xlwings.conf" and ws.sheet_state == "visible"
    rows = xlwings_conf_rows()
    got = [(ws.cell(r, 1).value, ws.cell(r, 2).value) for r in range(1, len(rows) + 2)]
    assert got == rows + [(None, None)]  # from A1 down, no header, nothing below
    assert all(ws.cell(r, 3).value is None for r in range(1, ws.max_row + 1))  # C empty
    assert "xlwings add-in" in ws["D1"].value


# ------------------------------------------------------------------------ LibreOffice

soffice = shutil.which("soffice")
needs_lo = pytest.mark.skipif(soffice is None, reason="LibreOffice (soffice) not installed")
CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"


def lo_convert(src: Path, outdir: Path, target: str) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    profile = outdir / "profile"
    proc = subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless",
                           "--convert-to", target, "--outdir", str(outdir), str(src)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr


def _same(ours, shown: str) -> bool:
    if isinstance(ours, bool):
        return shown.upper() == str(ours).upper()
    if isinstance(ours, int | float):
        text = shown.replace(",", "")
        pct = text.endswith("%")
        try:
            x = float(text.rstrip("%")) / (100 if pct else 1)
        except ValueError:
            return False
        return math.isclose(x, ours, rel_tol=1e-12 if not pct else 1e-3, abs_tol=1e-12)
    return str(ours) == shown


@needs_lo
def test_libreoffice_shows_the_same_values(tmp, computed, default):
    """LibreOffice does not know napkin's functions. It recomputes array formulas on
    opening (their cells and the cells downstream show ``#NAME?``, as the Start sheet
    says), and shows every other formula cell's cached value: napkin's number."""
    out = tmp / "lo-csv"
    lo_convert(computed, out, CSV_FILTER)
    book = openpyxl.load_workbook(computed)
    checked = unknown = 0
    for sheet in SHEETS:
        grid = list(csv.reader(open(out / f"{computed.stem}-{sheet}.csv", encoding="utf-8")))
        has_arrays = any(isinstance(c.value, ArrayFormula) and "_xldudf_" in c.value.text
                         for row in book[sheet].iter_rows() for c in row)
        for _, c in ((s, c) for s, c in formulas(book) if s == sheet):
            ours = default[sheet].get(c.coordinate)
            if ours is None:
                continue
            shown = grid[c.row - 1][c.column - 1] if c.row <= len(grid) else ""
            if shown == "#NAME?" and has_arrays and ours != "#NAME?":
                unknown += 1  # downstream of a napkin array formula LibreOffice recomputed
                continue
            assert _same(ours, shown), (sheet, c.coordinate, ours, shown)
            checked += 1
    assert checked > 1000 and unknown < checked, (checked, unknown)


@needs_lo
def test_libreoffice_renders_every_sheet(tmp, computed):
    out = tmp / "lo-pdf"
    lo_convert(computed, out, "pdf")
    pdf = out / f"{computed.stem}.pdf"
    assert pdf.stat().st_size > 10000
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True,
                              text=True).stdout
        for title in ("napkin: LLM-inference", "Sizing: the answer", "Cost: the scenario",
                      "Roofline: where each kernel", "Speedup: time before",
                      "Assumptions: the choices", "GPUs: datasheet", "Models: architecture",
                      "Finance: ranges", "Calibration: how far", "Read by the xlwings add-in",
                      "Plan: size a deployment"):
            assert title in text, title
        # the Start sheet says what a reader without the add-in sees: napkin's array
        # formulas show #NAME? in LibreOffice (its recalculation on opening); the native
        # edition is the copy for such readers (tests/test_native_edition.py)
        assert "LibreOffice recomputes array formulas on opening" in " ".join(text.split())
        # no #N/A on paper: the chart data a line is left out by (#N/A) sit in hidden
        # columns, and the table says why in words
        assert text.count("#N/A") == 0
