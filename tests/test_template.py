"""The template workbook: built by ``workbook.build``, computed by ``napkin calc``.

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
* the ``xlwings.conf`` sheet holds ``addin.install.xlwings_conf_rows()`` from A1 down;
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

from addin.embed import write_template
from udfs import tables
from workbook import build
from workbook.build import (
    CAL_EXAMPLES,
    CAL_FIRST,
    CAL_SUMMARY,
    COST,
    COST_FIRST,
    FINANCE,
    GPU_FIRST,
    GPU_SPARE,
    HEADLINE,
    MODEL_FIRST,
    MODEL_SPARE,
    SIZING,
    build_template,
)

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "workbook" / "napkin.xlsx"
SHEETS = ["Start", "Sizing", "Cost", "Finance", "Plan", "Calibration", "Roofline", "Speedup",
          "Assumptions", "GPUs", "Models", "xlwings.conf"]
ERRORS = ("#N/A", "#VALUE!", "#NUM!", "#DIV/0!", "#REF!", "#NAME?", "#NULL!", "#CALC!",
          "#SPILL!")

# Excel 2010 functions the native formulas may use (besides napkin's own)
NATIVE = {"IF", "INDEX", "MATCH", "ISNUMBER", "ISNA", "ISERROR", "NA", "AND", "OR", "NOT",
          "MAX", "MIN", "ABS", "CEILING", "COUNT", "COUNTIF", "COUNTIFS", "AVERAGE",
          "AVERAGEIF", "ROUND", "COUNTA"}
#: Chart data that is #N/A on purpose: a line the chosen GPU has no figure for is left out of
#: the Roofline chart (a text value would plot as 0). Column C of Roofline says so in words.
CHART_GAPS = {f"Roofline!{c}{r}" for c in "BCDF" for r in range(12, 17)} | {
    f"Roofline!A{r}" for r in range(13, 16)} | {f"Roofline!F{r}" for r in range(21, 27)}


def napkin_calc(src: Path, dst: Path) -> None:
    """Run ``napkin calc SRC -o DST`` as a user would."""
    proc = subprocess.run([sys.executable, "-m", "addin.cli", "calc", str(src), "-o", str(dst)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr


def values(path: Path) -> dict[str, dict[str, object]]:
    """Cached values of a computed workbook: {sheet: {cell: value}}."""
    wb = openpyxl.load_workbook(path, data_only=True)
    return {ws.title: {c.coordinate: c.value for row in ws.iter_rows() for c in row
                       if c.value is not None} for ws in wb}


def variant(tmp: Path, name: str, changes: dict[str, object]) -> dict:
    """Build the template, change some input cells, compute it; the cached values."""
    src = build_template(tmp / f"{name}.xlsx")
    if changes:
        wb = openpyxl.load_workbook(src)
        for ref, value in changes.items():
            sheet, cell = ref.split("!")
            wb[sheet][cell] = value
        wb.save(src)
    dst = tmp / f"{name}-calc.xlsx"
    napkin_calc(src, dst)
    return values(dst)


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("template")


@pytest.fixture(scope="module")
def built(tmp) -> Path:
    """The template as `napkin template` writes it: built, computed, with the Lite code."""
    return write_template(tmp / "napkin.xlsx")


@pytest.fixture(scope="module")
def computed(tmp, built) -> Path:
    dst = tmp / "napkin-calc.xlsx"
    napkin_calc(built, dst)
    return dst


@pytest.fixture(scope="module")
def default(computed) -> dict:
    return values(computed)


@pytest.fixture(scope="module")
def llama8b_bf16(tmp) -> dict:
    """Llama 3.1 8B in BF16 on the H100, roof efficiency 1 (the datasheet)."""
    return variant(tmp, "llama8b", {"Sizing!" + SIZING["model"]: "Llama 3.1 8B",
                                    "Sizing!" + SIZING["precision"]: "BF16",
                                    "Assumptions!B5": 1})


@pytest.fixture(scope="module")
def llama70b_bf16(tmp) -> dict:
    return variant(tmp, "llama70b", {"Sizing!" + SIZING["precision"]: "BF16"})


def sizing(vals: dict, key: str):
    return vals["Sizing"][SIZING[key]]


# ------------------------------------------------------------------------ build


def test_committed_workbook_is_not_stale(built):
    assert COMMITTED.exists(), "run: napkin template -o workbook/napkin.xlsx"
    with zipfile.ZipFile(COMMITTED) as old, zipfile.ZipFile(built) as new:
        assert sorted(old.namelist()) == sorted(new.namelist())
        stale = [n for n in new.namelist() if old.read(n) != new.read(n)]
    assert not stale, f"workbook/napkin.xlsx is stale ({stale}): napkin template -o " \
                      "workbook/napkin.xlsx"
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


@pytest.fixture(scope="module")
def book(built):
    return openpyxl.load_workbook(built)


def formulas(book):
    for ws in book:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    yield ws.title, c


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
    assert book.defined_names["GPU_NAME"].attr_text == \
        f"'GPUs'!$A${GPU_FIRST}:$A${GPU_FIRST + n_gpus - 1}"


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
        assert ws.protection.sheet and not ws.protection.password, ws.title
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


def test_validation_refuses_text_and_out_of_range(book):
    for ws in book:
        for dv in ws.data_validations.dataValidation:
            assert dv.showInputMessage and dv.prompt, (ws.title, dv.sqref)
            assert dv.showErrorMessage and dv.errorStyle == "stop", (ws.title, dv.sqref)
            assert dv.type in ("list", "decimal", "whole", "textLength")
    dvs = {str(dv.sqref): dv for dv in book["Assumptions"].data_validations.dataValidation}
    eff = dvs["B5"]
    assert (eff.type, float(eff.formula1), float(eff.formula2)) == ("decimal", 0.01, 1)
    sizing_dvs = {str(dv.sqref): dv for dv in book["Sizing"].data_validations.dataValidation}
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
        for row in book[sheet].iter_rows():
            for c in row:
                if c.style == "napkin result" and (sheet, c.coordinate) not in glue:
                    assert any(f"{name}(" in c.value for name in CATALOG), (sheet, c.coordinate)


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
    assert ws[f"O{ds}"].value == "MLA" and "MODEL_SPEC" in ws[f"P{ds}"].value
    assert "576" in ws[f"S{ds}"].value
    gemma = MODEL_FIRST + names.index("Gemma 2 9B")
    assert "sliding" in ws[f"O{gemma}"].value and ws[f"Q{gemma}"].value == 4096
    assert ws[f"R{gemma}"].value == 21 and "4,096" in ws[f"S{gemma}"].value
    llama = MODEL_FIRST + names.index("Llama 3.1 8B")
    assert ws[f"P{llama}"].value.startswith("=KV_CACHE_GB(")


# ------------------------------------------------------------------------ computed


def error_cells(v: dict) -> set[str]:
    return {f"{s}!{c}" for s, cells in v.items() for c, x in cells.items()
            if isinstance(x, str) and x in ERRORS}


def test_no_error_values_after_calc(default):
    assert error_cells(default) <= CHART_GAPS
    assert "Roofline!B12" not in error_cells(default)  # the H100 has every roof


def test_empty_figures_say_so_in_words(tmp):
    """The A100 has no FP8 figure: the cell that would hold it says so in words, everything
    else computes, and the Roofline chart still draws the BF16 roofs (only the FP8 line is
    left out, as #N/A chart data)."""
    v = variant(tmp, "a100", {"Sizing!" + SIZING["gpu"]: "NVIDIA A100 80GB SXM"})
    assert error_cells(v) == {f"Roofline!{c}{r}" for c in "DF"
                              for r in range(build.ROOF_FIRST, build.ROOF_FIRST + 5)}
    assert v["Sizing"][SIZING["fp8"]] == "no figure" and v["Roofline"]["B6"] == "no figure"
    assert "no figure in the GPU table" in v["Sizing"]["C" + SIZING["fp8"][1:]]
    assert "the BF16 roof still is" in v["Roofline"]["C6"]
    assert v["Sizing"][SIZING["roof_tflops"]] == 312  # falls back to the BF16 roof
    assert sizing(v, "fits_weights") == "yes"
    # the BF16 roof is drawn: 312 TFLOPS flat right of its ridge (312 ÷ 2.039 FLOP/byte)
    assert v["Roofline"][f"B{build.ROOF_FIRST + 4}"] == pytest.approx(312)
    assert v["Roofline"][f"A{build.ROOF_FIRST + 2}"] == pytest.approx(312 / 2.039)


def test_kv_bytes_per_token(default):
    ws = default["Models"]
    got = {ws[f"A{MODEL_FIRST + i}"]: ws[f"P{MODEL_FIRST + i}"]
           for i in range(len(tables.models()))}
    assert got["Llama 3.1 8B"] == 2 * 32 * 8 * 128 * 2  # GQA: 131,072 B
    assert got["Llama 3.1 70B"] == 2 * 80 * 8 * 128 * 2
    assert got["DeepSeek-V3"] == 61 * 576 * 2  # MLA: 70,272 B, not 2 × 61 × 128 × 192 × 2
    for name, v in got.items():
        assert v == pytest.approx(float(tables.model_spec(name, "kv_bytes_per_token")))


def test_reference_llama_8b_bf16(llama8b_bf16):
    v = llama8b_bf16
    assert sizing(v, "weight_gb") == pytest.approx(16.06)
    assert sizing(v, "weight_gib") == pytest.approx(14.96, abs=0.01)  # "14.9 GiB"
    # a decode step reads all weights but the input embedding table (one row of it per
    # token): (8.03e9 − 128,256 × 4,096) × 2 B ÷ 3.35 TB/s = 4.480 ms; the reference
    # doc's 4.79 ms counts the whole table (config.json: vocab 128256, hidden 4096, untied)
    assert sizing(v, "floor_ms") == pytest.approx(READ_8B * 2 / 3.35)
    assert sizing(v, "decode_b") == pytest.approx(READ_8B)
    assert sizing(v, "ridge_bf16") == pytest.approx(295, abs=0.5)
    assert sizing(v, "ridge_used") == pytest.approx(295, abs=0.5)  # efficiency 1, BF16 roof
    assert sizing(v, "critical_batch") == pytest.approx(295, abs=0.5)
    assert sizing(v, "fits_weights") == "yes"
    # 8B BF16 KV at 8,192 tokens × 16 sequences: 131,072 B × 8,192 × 16
    assert sizing(v, "kv_gb") == pytest.approx(131072 * 8192 * 16 / 1e9)
    assert sizing(v, "side") == "memory-bound"


def test_reference_70b_bf16_does_not_fit_fp8_does(default, llama70b_bf16):
    assert sizing(llama70b_bf16, "weight_gb") == pytest.approx(141.2)
    assert sizing(llama70b_bf16, "fits_weights") == "no"
    assert sizing(default, "weight_gb") == pytest.approx(70.6)
    assert sizing(default, "fits_weights") == "yes"
    # ... tightly: with 16 sequences of 8,192 tokens the KV cache no longer fits
    assert sizing(default, "fits_all") == "no"
    assert sizing(default, "gpus_needed") == 2
    # 70B FP8 on H100 ≈ 21 ms/token: 69.55 GB read (70.6e9 − 128,256 × 8,192) ÷ 3.35 TB/s
    assert sizing(default, "floor_ms") == pytest.approx(READ_70B / 3.35, rel=1e-9)
    assert sizing(default, "ridge_bf16") == pytest.approx(989.4 / 3.35)
    # FP8 weights on the FP8 roof × 0.8: ridge 472.6, critical batch ≈ 236
    assert sizing(default, "critical_batch") == pytest.approx(1978.9 * 0.8 / 3.35 / 2)


def test_sizing_chain_is_consistent(default):
    v = default["Sizing"]
    need = sizing(default, "weight_gb") + sizing(default, "kv_gb")
    assert sizing(default, "need_gb") == pytest.approx(need)
    n = sizing(default, "gpus_needed")
    assert n == math.ceil(need / 80)
    # step: (weights read + KV) over n GPUs' bandwidth vs 2 × params × batch over n roofs
    mem_ms = (READ_70B + sizing(default, "kv_gb")) / (3.35 * n)
    math_ms = 2 * 70.6e9 * 16 / (1978.9e12 * 0.8 * n) * 1e3
    assert sizing(default, "step_ms") == pytest.approx(max(mem_ms, math_ms))
    total = 1000 / sizing(default, "step_ms") * 16
    assert sizing(default, "tps_total") == pytest.approx(total)
    assert sizing(default, "tps_user") == pytest.approx(total / 16)
    assert sizing(default, "cost_mtok") == pytest.approx(2.95 * n / (total * 3600 * 0.6) * 1e6)
    # FP8: I ≈ 2B (2 × 70.6e9 × 16 FLOP over the 69.55e9 bytes read)
    assert v[SIZING["decode_intensity"]] == pytest.approx(2 * 70.6 * 16 / READ_70B)
    assert sizing(default, "read_b") == pytest.approx(READ_70B)  # dense: batch 1 reads


def test_sizing_grids(llama70b_bf16):
    v = llama70b_bf16["Sizing"]
    head = build.GRID_TOP + 1
    gpus = [v[f"{openpyxl.utils.get_column_letter(3 + j)}{head}"]
            for j in range(len(tables.gpus()))]
    models = [r["name"] for r in tables.models().values()]
    row = head + 2 + models.index("Llama 3.1 70B")
    col = openpyxl.utils.get_column_letter(3 + gpus.index("NVIDIA H100 SXM"))
    b200 = openpyxl.utils.get_column_letter(3 + gpus.index("NVIDIA B200 (HGX)"))
    assert v[f"{col}{row}"] == "no" and v[f"{b200}{row}"] == "yes"
    floor_top = head + 2 + len(models) + MODEL_SPARE + 3  # the second grid's header row
    assert v[f"{col}{floor_top + 2 + models.index('Llama 3.1 8B')}"] == \
        pytest.approx(READ_8B * 2 / 3.35)


def test_roofline_reference_kernels(default):
    v = default["Roofline"]
    k = {v[f"A{r}"]: r for r in range(build.KERNEL_FIRST, build.KERNEL_FIRST + 6)}
    y2 = k["y = x × 2 (BF16)"]
    assert v[f"E{y2}"] == pytest.approx(0.25)
    assert v[f"F{y2}"] == pytest.approx(0.8375)  # ≤ 0.84 TFLOPS
    assert v[f"G{y2}"] == pytest.approx(20, abs=0.1)  # ≈ 20 µs of bytes
    assert v[f"E{k['decode GEMM, batch 1']}"] == pytest.approx(1)
    assert v[f"F{k['decode GEMM, batch 1']}"] == pytest.approx(3.35)
    assert v[f"H{k['decode GEMM, batch 64']}"] == "memory-bound"
    assert v[f"E{k['decode GEMM, batch 295']}"] == pytest.approx(295)
    mm = k["matmul 4096³ (BF16)"]
    assert v[f"E{mm}"] == pytest.approx(1365.33, abs=0.01)
    assert v[f"H{mm}"] == "compute-bound"
    assert v[f"H{k['softmax (BF16)']}"] == "memory-bound"
    roofs = {v[f"E{r}"]: r for r in range(build.ROOF_FIRST, build.ROOF_FIRST + 5)}
    assert v[f"A{roofs['ridge, BF16 × efficiency']}"] == pytest.approx(236.3, abs=0.1)
    assert v[f"A{roofs['ridge, FP8']}"] == pytest.approx(590.7, abs=0.1)
    assert v[f"B{roofs['right edge']}"] == pytest.approx(989.4)


def test_speedup_reference_examples(default):
    v = default["Speedup"]
    got = [v[f"D{r}"] for r in range(build.SPEEDUP_TOP + 2, build.SPEEDUP_TOP + 7)]
    assert got == pytest.approx([20 / 15, 1.25, 1 / 0.75, 1.25, 1 / 0.7])
    p30 = build.GRID_HEAD + 1 + build.AMDAHL_P.index(0.3)
    s3 = openpyxl.utils.get_column_letter(2 + build.AMDAHL_S.index(3))
    assert v[f"{s3}{p30}"] == pytest.approx(1.25)
    assert v[f"H{p30}"] == pytest.approx(1 / 0.7)


def deployed(n: int) -> int:
    """GPUs per replica as deployed: tensor parallel 1, 2, 4, 8, then whole 8-GPU nodes."""
    return next(d for d in (1, 2, 4, 8) if n <= d) if n <= 8 else 8 * math.ceil(n / 8)


def test_cost_sheet_against_hand_calculation(default):
    """Every GPU row of the Cost sheet, recomputed by hand from the tables: the floors
    (B..M), then the realistic columns (N..S: floor ÷ the efficiency used)."""
    v = default["Cost"]
    params, batch = 70.6e9, 16
    kv = 2 * 80 * 8 * 128 * 2 * 8192 * batch / 1e9  # BF16 KV cache, GB
    need = params / 1e9 + kv  # FP8 weights: 1 byte per parameter
    avg = 100e6 / 86400
    peak = avg * 2
    prices = {r["name"]: float(r["price_per_gpu_hour_usd"])
              for r in csv.DictReader(open(ROOT / "workbook" / "data" / "gpu_prices.csv"))
              if r["price_per_gpu_hour_usd"].strip()}
    eff = calibrated_efficiency()
    assert v[COST["month_tokens"]] == pytest.approx(avg * 3600 * 730.5)
    checked = 0
    for i, g in enumerate(tables.gpus().values()):
        r = COST_FIRST + i
        assert v[f"A{r}"] == g["name"]
        n = deployed(math.ceil(need / float(g["memory_GB"])))
        assert v[f"F{r}"] == n
        bw = float(g["memory_bandwidth_TBps"]) * n
        roof = g["fp8_dense_TFLOPS"] or g["bf16_dense_TFLOPS"]
        mem_ms = (READ_70B + kv) / bw  # weights read per step (no embedding table) + KV
        step = mem_ms if not roof else max(mem_ms, 2 * params * batch /
                                           (float(roof) * 1e12 * 0.8 * n) * 1e3)
        assert v[f"G{r}"] == pytest.approx(step), g["name"]
        tps = 1000 / step * batch
        assert v[f"H{r}"] == pytest.approx(tps)
        replicas = math.ceil(peak / (tps * 0.6))
        assert v[f"J{r}"] == replicas * n
        # realistic: the step ÷ efficiency, GPUs sized again for the slower rate
        assert v[f"N{r}"] == pytest.approx(eff)
        real = step / eff
        assert v[f"O{r}"] == pytest.approx(real)
        real_replicas = math.ceil(peak / (1000 / real * batch * 0.6))
        assert v[f"P{r}"] == real_replicas * n
        if g["name"] in prices:
            price = prices[g["name"]]
            # 730.5 h = 8,766 h ÷ 12 (the Assumptions default, as MONTHLY_COST)
            monthly = replicas * n * price * 730.5
            assert v[f"K{r}"] == pytest.approx(monthly)
            # cost per million tokens = the month's bill ÷ the month's tokens
            assert v[f"L{r}"] == pytest.approx(monthly / (avg * 3600 * 730.5) * 1e6)
            assert v[f"M{r}"] == pytest.approx(price * n / (tps * 3600 * 0.6) * 1e6)
            real_monthly = real_replicas * n * price * 730.5
            assert v[f"Q{r}"] == pytest.approx(real_monthly)
            assert v[f"R{r}"] == pytest.approx(real_monthly / (avg * 3600 * 730.5) * 1e6)
            assert v[f"R{r}"] >= v[f"L{r}"]  # slower than the floor: never cheaper
            # the headline: one replica at the realistic rate, at planned utilization
            assert v[f"S{r}"] == pytest.approx(price * n / (1000 / real * batch * 3600 * 0.6)
                                               * 1e6)
            checked += 1
        else:  # no price: the cells say so instead of an error
            assert v[f"B{r}"] == "no price" and v[f"L{r}"] == "no price"
            assert v[f"Q{r}"] == "no price" and v[f"R{r}"] == "no price"
            assert v[f"S{r}"] == "no price" and "no price" in v[f"T{r}"]
        if not roof:
            assert "no FLOPS figure" in v[f"T{r}"]
    assert checked == len(set(prices) & set(tables.gpus())) >= 3
    assert v[COST["peak_tps"]] == pytest.approx(peak)
    # empty slots (the spare rows of the GPUs table) stay blank
    spare = COST_FIRST + len(tables.gpus())
    assert all(v.get(f"{c}{spare}") in (None, "") for c in "ABFGST")
    # the headline of the Sizing GPU is the Sizing headline
    h100 = COST_FIRST + list(tables.gpus()).index("NVIDIA H100 SXM")
    assert v[f"S{h100}"] == pytest.approx(sizing(default, "real_cost_mtok"))


# ------------------------------------------------------------------------ calibration


def floor_ms(params_b, bytes_per_param, kv_gb, bw_tbps, batch, roof_tflops, gpus=1,
             roof_eff=0.8):
    """The Sizing step floor by hand: max(bytes ÷ bandwidth, FLOPs ÷ roof), in ms."""
    mem = (READ[params_b] * bytes_per_param + kv_gb) / (bw_tbps * gpus)  # GB ÷ TB/s = ms
    math_ = 2 * params_b * 1e9 * batch / (roof_tflops * 1e12 * roof_eff * gpus) * 1e3
    return max(mem, math_)


KV_8B = 2 * 32 * 8 * 128 * 2  # bytes per token, BF16: 131,072
# Weights a decode step reads, billions: all but the input embedding table (config.json:
# vocab 128,256; hidden 4,096 for 8B, 8,192 for 70B; embeddings not tied)
READ_8B = 8.03 - 128256 * 4096 / 1e9  # 7.5047
READ_70B = 70.6 - 128256 * 8192 / 1e9  # 69.5493
READ = {8.03: READ_8B, 70.6: READ_70B}
KV_70B = 2 * 80 * 8 * 128 * 2  # 327,680
# The example rows: (params B, bytes/param, KV bytes/token, context, batch, bandwidth TB/s,
# roof TFLOPS, GPUs, measured ms)
CAL_CASES = [
    (8.03, 2, KV_8B, 2048, 1, 3.35, 989.4, 1, 6.5),  # 8B BF16, H100
    (70.6, 1, KV_70B, 8192, 16, 3.35, 1978.9, 2, 24),  # 70B FP8, 2 × H100 (the Sizing case)
    (8.03, 1, KV_8B, 4096, 32, 4.8, 1978.9, 1, 1000 / 120),  # 8B FP8, H200, 120 tokens/s
    (70.6, 1, KV_70B, 8192, 1, 3.35, 1978.9, 1, 15),  # below its floor: flagged
]


def calibrated_efficiency() -> float:
    """The efficiency used by default: the example rows are not counted, so it is the
    Assumptions' stated efficiency without measurements (EFF_DEFAULT)."""
    return 0.7


def examples_efficiency() -> float:
    """Average of floor ÷ measured over the example rows at or above their floor (what the
    efficiency is once the user keeps the examples)."""
    effs = []
    for params, bpp, kv, ctx, batch, bw, roof, n, measured in CAL_CASES:
        f = floor_ms(params, bpp, kv * ctx * batch / 1e9, bw, batch, roof, n)
        if measured >= f:
            effs.append(f / measured)
    assert len(effs) == 3
    return sum(effs) / len(effs)


def test_calibration_against_hand_calculation(default):
    v = default["Calibration"]
    for i, (params, bpp, kv, ctx, batch, bw, roof, n, measured) in enumerate(CAL_CASES):
        r = CAL_FIRST + i
        kv_gb = kv * ctx * batch / 1e9  # e.g. 8B: 131,072 B × 2,048 tokens × 1 = 0.268 GB
        read = READ[params] * bpp + kv_gb  # weights read + KV cache, GB per step
        f = floor_ms(params, bpp, kv_gb, bw, batch, roof, n)
        assert v[f"I{r}"] == pytest.approx(measured)
        assert v[f"J{r}"] == pytest.approx(read)
        assert v[f"K{r}"] == pytest.approx(f)
        assert v[f"L{r}"] == pytest.approx(read / measured / (bw * n))  # MBU
        # MFU: 2 × params × tokens/s (batch × 1000 / ms) ÷ datasheet roof of the n GPUs
        assert v[f"M{r}"] == pytest.approx(2 * params * 1e9 * batch * 1000 / measured
                                           / (roof * 1e12 * n))
        assert v[f"N{r}"] == pytest.approx(f / measured)  # CALIBRATE
        assert v[f"O{r}"] == ("plausible" if measured >= f else
                              "below the floor: an assumption is wrong")
    # e.g. row 1: 15.28 GB ÷ 3.35 TB/s = 4.561 ms floor, measured 6.5 ms: 70 %
    assert v[f"N{CAL_FIRST}"] == pytest.approx((READ_8B * 2 + 0.268435456) / 3.35 / 6.5)
    assert v[f"O{CAL_FIRST + 3}"].startswith("below the floor")  # 15 ms < 21.9 ms
    assert v[CAL_SUMMARY["efficiency"]] == pytest.approx(0.7)  # examples are not counted
    assert (v[CAL_SUMMARY["plausible"]], v[CAL_SUMMARY["below"]]) == (0, 1)
    assert v[CAL_SUMMARY["examples"]] == len(CAL_EXAMPLES)
    assert "no measurement counted" in v["C5"]
    assert all(v.get(f"Y{CAL_FIRST + i}") in (None, "") for i in range(len(CAL_CASES)))
    for r in range(CAL_FIRST + len(CAL_CASES), CAL_FIRST + build.CAL_ROWS):  # empty rows
        assert all(v.get(f"{col}{r}") in (None, "") for col in "IJKLMNO"), r


def test_calibration_row_of_the_sizing_case_gives_the_sizing_floor(default):
    """Example row 2 is the Sizing default (70B FP8, 2 × H100, batch 16, 8,192 tokens):
    its floor is Sizing's step floor, so floor ÷ efficiency is consistent on both."""
    assert default["Calibration"][f"K{CAL_FIRST + 1}"] == pytest.approx(
        sizing(default, "step_ms"), rel=1e-12)


def test_calibration_floor_follows_sizing_for_sliding_window_and_mla(tmp, moe):
    """Gemma 2 9B (sliding window) and DeepSeek-V3 (MLA, 5 × H200) in empty rows, each also
    chosen on Sizing: the row's floor is Sizing's step floor (the KV correction included)."""
    r = CAL_FIRST + len(CAL_CASES)
    for name, model, prec, gpu, n in (("gemma", "Gemma 2 9B", "BF16", "NVIDIA H100 SXM", 1),
                                      ("dsv3", "DeepSeek-V3", "FP8", "NVIDIA H200 SXM", 8)):
        v = moe if name == "dsv3" else variant(tmp, name, {
            "Sizing!" + SIZING["model"]: model, "Sizing!" + SIZING["precision"]: prec,
            "Sizing!" + SIZING["gpu"]: gpu, f"Calibration!A{r}": model,
            f"Calibration!B{r}": prec, f"Calibration!C{r}": gpu, f"Calibration!D{r}": n,
            f"Calibration!E{r}": 16, f"Calibration!F{r}": 8192})
        assert sizing(v, "gpus") == n, name  # DeepSeek-V3: 5 needed, 8 deployed
        assert v["Calibration"][f"K{r}"] == pytest.approx(sizing(v, "step_ms"), rel=1e-12)
        assert v["Calibration"][f"O{r}"] == "enter a measurement (G or H)"
        assert v["Calibration"].get(f"N{r}") in (None, "")


def test_calibration_without_plausible_rows_uses_the_default(tmp):
    changes = {f"Calibration!G{CAL_FIRST + i}": 1 for i in range(len(CAL_CASES))}
    changes[f"Calibration!H{CAL_FIRST + 2}"] = 100000  # 0.01 ms: far below every floor
    changes[f"Calibration!G{CAL_FIRST + 2}"] = None
    v = variant(tmp, "nocal", changes)
    assert v["Calibration"][CAL_SUMMARY["efficiency"]] == 0.7  # EFF_DEFAULT
    assert v["Calibration"][CAL_SUMMARY["below"]] == 4
    assert sizing(v, "real_step_ms") == pytest.approx(sizing(v, "step_ms") / 0.7)


def test_sizing_realistic_rows(default):
    eff = calibrated_efficiency()
    step = sizing(default, "step_ms")
    assert sizing(default, "calibrated") == pytest.approx(eff)
    assert sizing(default, "real_step_ms") == pytest.approx(step / eff)  # ESTIMATE
    total = 1000 / (step / eff) * 16
    assert sizing(default, "real_tps_total") == pytest.approx(total)
    assert sizing(default, "real_tps_user") == pytest.approx(total / 16)
    # 2 H100 at 2.95 an hour, at 60 % utilization
    assert sizing(default, "real_cost_mtok") == pytest.approx(2.95 * 2 / (total * 3600 * 0.6)
                                                              * 1e6)
    assert sizing(default, "real_cost_mtok") > sizing(default, "cost_mtok")


# ------------------------------------------------------------------------ finance

STEP = (READ_70B + KV_70B * 8192 * 16 / 1e9) / (3.35 * 2)  # the Sizing step floor, ms
PRICE, GPUS, BATCH = 2.95, 2, 16


def unit_cost(price, eff, util):
    """Cost per million output tokens of one replica: COST_PER_MTOK at STEP ÷ eff."""
    tps = 1000 / (STEP / eff) * BATCH  # tokens/s of the replica
    return price * GPUS / (tps * 3600 * util) * 1e6


def test_finance_bands_are_ordered_and_right(default):
    v, F = default["Finance"], FINANCE
    eff = calibrated_efficiency()
    band = {k: [v[f"{c}{F[k]}"] for c in "BCD"] for k in
            ("eff", "util", "price_range", "ms_range", "tps_range", "cost_range")}
    for key, (lo, base, hi) in band.items():
        assert lo <= base <= hi, (key, lo, base, hi)
    assert band["eff"] == pytest.approx([0.5, eff, 0.9])
    assert band["util"] == pytest.approx([0.4, 0.6, 0.8])
    assert band["price_range"] == pytest.approx([PRICE * 0.7, PRICE, PRICE * 1.7])
    # realistic ms/token: low from the high efficiency, high from the low one
    assert band["ms_range"] == pytest.approx([STEP / 0.9, STEP / eff, STEP / 0.5])
    assert band["tps_range"] == pytest.approx([1000 * 0.5 / STEP, 1000 * eff / STEP,
                                               1000 * 0.9 / STEP])
    assert band["cost_range"] == pytest.approx([
        unit_cost(PRICE * 0.7, 0.9, 0.8),  # every assumption at its favourable end
        unit_cost(PRICE, eff, 0.6),
        unit_cost(PRICE * 1.7, 0.5, 0.4)])  # ... at its unfavourable end
    assert v[F["real_step_ms"]] == pytest.approx(STEP / eff)
    assert band["cost_range"][1] == pytest.approx(sizing(default, "real_cost_mtok"))


def test_finance_tornado_data_and_chart(default, book):
    v, F = default["Finance"], FINANCE
    eff = calibrated_efficiency()
    base = unit_cost(PRICE, eff, 0.6)
    expected = {  # assumption: (cost at its low value, at its high value), others at base
        "Efficiency (Calibration)": (unit_cost(PRICE, 0.5, 0.6), unit_cost(PRICE, 0.9, 0.6)),
        "Utilization": (unit_cost(PRICE, eff, 0.4), unit_cost(PRICE, eff, 0.8)),
        "Price per GPU-hour": (unit_cost(PRICE * 0.7, eff, 0.6),
                               unit_cost(PRICE * 1.7, eff, 0.6)),
    }
    swings = {}
    for i, (name, (lo, hi)) in enumerate(expected.items()):
        r = F["tornado_first"] + i
        assert v[f"A{r}"] == name
        assert (v[f"D{r}"], v[f"E{r}"]) == pytest.approx((lo, hi))
        assert (v[f"F{r}"], v[f"G{r}"]) == pytest.approx((lo - base, hi - base))
        assert v[f"H{r}"] == pytest.approx(abs(hi - lo))
        swings[name] = abs(hi - lo)
    # price × 0.7 .. × 1.7 swings the cost by 1.0 × base: more than utilization 0.4..0.8
    assert v[F["most"]] == max(swings, key=swings.get) == "Price per GPU-hour"
    assert v[F["base_cost"]] == pytest.approx(base)
    charts = book["Finance"]._charts
    assert len(charts) == 1
    chart = charts[0]
    assert chart.type == "bar" and len(chart.series) == 2  # low and high around the base
    first, last = F["tornado_first"], F["tornado_first"] + 2
    refs = [s.val.numRef.f for s in chart.series]
    assert refs == [f"'Finance'!$F${first}:$F${last}", f"'Finance'!$G${first}:$G${last}"]


def test_finance_against_hand_calculation(default):
    v, F = default["Finance"], FINANCE
    eff = calibrated_efficiency()
    assert (v[F["gpus"]], v[F["price"]], v[F["tdp"]]) == (2, PRICE, 700)
    # prefill of 2,000 tokens on 2 H100 at the FP8 roof × 0.8, the causal attention
    # counted (config.json: 80 layers, 64 heads × 128; 2 L d T² as in kipply's "Transformer
    # inference arithmetic"): (2 × 70.6e9 × 2,000 + 2 × 80 × 8,192 × 2,000²) ÷
    # (1,978.9e12 × 0.8 × 2) = 90.8 ms
    flop = 2 * 70.6e9 * 2000 + 2 * 80 * 64 * 128 * 2000**2
    assert v[F["prefill_ms"]] == pytest.approx(flop / (1978.9e12 * 0.8 * 2) * 1e3)
    # input tokens: 2.95 / 3600 per GPU-second × 2 × 70.6e9 ÷ (1,978.9e12 × 0.8) s per token
    # × 1e6 ÷ 0.6 utilization
    cin = 2.95 / 3600 * (2 * 70.6e9 / (1978.9e12 * 0.8)) * 1e6 / 0.6
    cout = unit_cost(PRICE, eff, 0.6)
    assert v[F["input_cost"]] == pytest.approx(cin)
    assert v[F["output_cost"]] == pytest.approx(cout)
    assert v[F["blended"]] == pytest.approx((3 * cin + 1 * cout) / 4)  # 3 : 1 mix
    # owned: 30,000 ÷ (4 × 8,766 h) + 0.7 kW × 1.3 × 0.12 = 0.8556 + 0.1092
    owned = 30000 / (4 * 8766) + 0.7 * 1.3 * 0.12
    h = F["hourly"]
    assert (v[f"B{h}"], v[f"C{h}"]) == pytest.approx((PRICE, owned))
    assert v[f"C{F['capex_part']}"] == pytest.approx(30000 / (4 * 8766))
    assert v[f"C{F['energy_part']}"] == pytest.approx(0.7 * 1.3 * 0.12)
    assert v[f"C{F['in_cost']}"] == pytest.approx(cin * owned / PRICE)
    assert v[f"C{F['out_cost']}"] == pytest.approx(cout * owned / PRICE)
    assert v[f"C{F['mix_cost']}"] == pytest.approx((3 * cin + cout) / 4 * owned / PRICE)
    # demand: 100e6 tokens/day ÷ 86,400 × 2 (peak) ÷ (replica tokens/s × 0.6), rounded up
    replica_tps = 1000 / (STEP / eff) * BATCH
    replicas = math.ceil(100e6 / 86400 * 2 / (replica_tps * 0.6))
    assert v[F["replica_tps"]] == pytest.approx(replica_tps)
    assert v[F["replicas"]] == replicas and v[F["gpus_total"]] == replicas * GPUS
    m = F["monthly"]
    rented, own = replicas * GPUS * PRICE * 730.5, replicas * GPUS * owned * 730.5
    assert (v[f"B{m}"], v[f"C{m}"]) == pytest.approx((rented, own))
    volume = 100e6 * (1 + 3) * 365.25 / 12 / 1e6  # input + output, M tokens a month
    assert v[F["volume"]] == pytest.approx(volume)
    be = F["breakeven"]
    assert (v[f"B{be}"], v[f"C{be}"]) == pytest.approx((rented / 1.0, own / 1.0))
    assert v[F["api_bill"]] == pytest.approx(volume * 1.0)
    cheaper = F["cheaper"]
    assert v[f"B{cheaper}"] == ("self-hosting" if volume > rented else "the API")
    assert v[f"C{cheaper}"] == ("self-hosting" if volume > own else "the API")


def test_finance_without_price_or_tdp_says_so(tmp):
    """NVIDIA B300: no price on the GPUs sheet and no TDP: text, never an error value."""
    v = variant(tmp, "b300", {"Sizing!" + SIZING["gpu"]: "NVIDIA B300 (HGX)"})
    f = v["Finance"]
    assert f[FINANCE["price"]] == "no price" and f[FINANCE["tdp"]] == "no figure"
    assert f[f"C{FINANCE['cost_range']}"] == "no price"
    assert f[f"C{FINANCE['hourly']}"] == "no TDP figure"
    assert f[f"B{FINANCE['monthly']}"] == "no price"
    assert isinstance(f[FINANCE["prefill_ms"]], float)  # needs no price
    bad = [(s, c, x) for s in ("Finance", "Calibration", "Cost") for c, x in v[s].items()
           if isinstance(x, str) and x in ERRORS]
    assert not bad
    assert v["Sizing"][SIZING["real_cost_mtok"]] == "no price"


# ------------------------------------------------------------------------ real use


def test_calibration_counts_a_gpus_own_measurements(tmp):
    """Kept examples count; a GPU with measurements of its own uses their average, a GPU
    without any uses the average of all counted rows."""
    keep = {f"Calibration!X{CAL_FIRST + i}": "yes" for i in range(len(CAL_CASES))}
    v = variant(tmp, "keep", keep)
    effs = []
    for params, bpp, kv, ctx, batch, bw, roof, n, measured in CAL_CASES[:3]:
        effs.append(floor_ms(params, bpp, kv * ctx * batch / 1e9, bw, batch, roof, n)
                    / measured)
    assert v["Calibration"][CAL_SUMMARY["efficiency"]] == pytest.approx(examples_efficiency())
    assert v["Calibration"][CAL_SUMMARY["plausible"]] == 3
    h100 = (effs[0] + effs[1]) / 2  # rows 1 and 2 are H100, row 3 is H200
    assert sizing(v, "calibrated") == pytest.approx(h100)
    assert "this GPU's 2 measurement(s)" in v["Sizing"]["C" + SIZING["calibrated"][1:]]
    gpus = list(tables.gpus())
    cost = v["Cost"]
    assert cost[f"N{COST_FIRST + gpus.index('NVIDIA H200 SXM')}"] == pytest.approx(effs[2])
    assert cost[f"N{COST_FIRST + gpus.index('NVIDIA B200 (HGX)')}"] == pytest.approx(
        sum(effs) / 3)
    assert v["Finance"][FINANCE["calibrated"]] == pytest.approx(h100)


def test_a_users_measurement_alone_sets_the_efficiency(tmp):
    """The examples stay out: one real measurement of the Sizing case (70B FP8 on 2 H100,
    batch 16, 8,192 tokens, 30 ms per token) gives floor ÷ 30 ms, not an average with
    invented rows."""
    r = CAL_FIRST + len(CAL_CASES)  # the first empty row
    row = dict(zip("ABCDEFG", ("Llama 3.1 70B", "FP8", "NVIDIA H100 SXM", 2, 16, 8192, 30),
                   strict=True))
    v = variant(tmp, "mine", {f"Calibration!{c}{r}": x for c, x in row.items()})
    assert v["Calibration"][CAL_SUMMARY["efficiency"]] == pytest.approx(STEP / 30)
    assert sizing(v, "calibrated") == pytest.approx(STEP / 30)
    assert sizing(v, "real_step_ms") == pytest.approx(30)


def test_deployed_gpus_context_warning_and_tolerant_notes(tmp):
    """Llama 3.1 405B in BF16 on H100 with 200,000 tokens of context: GPUs per replica as
    deployed (whole 8-GPU nodes), cost at that count, a warning that the context is longer
    than the model's 131,072 tokens, and the GQA note despite 0.9999999999999999."""
    v = variant(tmp, "405b", {"Sizing!" + SIZING["model"]: "Llama 3.1 405B",
                              "Sizing!" + SIZING["precision"]: "BF16",
                              "Assumptions!B7": 200000})
    kv = 2 * 126 * 8 * 128 * 2 * 200000 * 16 / 1e9  # GB
    need = 405.85 * 2 + kv
    n = math.ceil(need / 80)
    assert sizing(v, "gpus_needed") == n and sizing(v, "gpus") == deployed(n) == 32
    # a step reads all weights but the input embedding (config.json: vocab 128,256, hidden
    # 16,384, untied) and the KV cache
    read = (405.85 - 128256 * 16384 / 1e9) * 2 + kv
    assert sizing(v, "step_ms") == pytest.approx(read / (3.35 * 32))
    tps = 1000 / (read / (3.35 * 32) / 0.7) * 16
    assert sizing(v, "real_cost_mtok") == pytest.approx(2.95 * 32 / (tps * 3600 * 0.6) * 1e6)
    assert "longer than the 131072 tokens" in v["Sizing"]["C" + SIZING["context"][1:]]
    assert v["Sizing"]["C" + SIZING["kv_factor"][1:]].startswith("1: the GQA formula is right")
    assert v["Cost"][f"F{COST_FIRST + list(tables.gpus()).index('NVIDIA H100 SXM')}"] == 32
    assert error_cells(v) <= CHART_GAPS


def test_finance_hours_per_month_keep_cost_and_volume_together(tmp, default):
    """200 hours a month: the GPUs are rented and serve for 200 hours, so the bill and the
    tokens shrink together; the cost per token and the verdict stay."""
    v = variant(tmp, "hours", {"Assumptions!B11": 200})
    f, d, F = v["Finance"], default["Finance"], FINANCE
    m = F["monthly"]
    assert f[F["volume"]] == pytest.approx(100e6 / 24 * 200 * 4 / 1e6)
    assert f[f"B{m}"] == pytest.approx(d[f"B{m}"] * 200 / 730.5)
    assert f[f"B{F['cheaper']}"] == d[f"B{F['cheaper']}"]
    assert f[f"C{F['cost_range']}"] == pytest.approx(d[f"C{F['cost_range']}"])
    # owned: the purchase is paid every calendar month, energy only for the hours served
    gpus = f[F["gpus_total"]]
    owned = gpus * (30000 / (4 * 8766) * 730.5 + 0.7 * 1.3 * 0.12 * 200)
    assert f[f"C{m}"] == pytest.approx(owned)
    gpus_row = COST_FIRST + list(tables.gpus()).index("NVIDIA H100 SXM")
    assert v["Cost"][f"L{gpus_row}"] == pytest.approx(default["Cost"][f"L{gpus_row}"])


def test_finance_zero_traffic_and_low_utilization_stay_sane(tmp):
    """No traffic: sentences, never #NUM!. Base utilization 5 % (below the low end of its
    range): the range widens so that low ≤ base ≤ high for every figure."""
    v = variant(tmp, "zero", {"Assumptions!B9": 0, "Assumptions!B6": 0.05})
    assert error_cells(v) <= CHART_GAPS
    h100 = COST_FIRST + list(tables.gpus()).index("NVIDIA H100 SXM")
    assert v["Cost"][f"L{h100}"] == "no traffic" and v["Cost"][f"R{h100}"] == "no traffic"
    assert "no traffic" in v["Cost"]["C" + COST["tokens_day"][1:]]
    f, F = v["Finance"], FINANCE
    assert f[F["replicas"]] == 0 and f[f"B{F['monthly']}"] == 0
    for key in ("eff", "util", "price_range", "ms_range", "tps_range", "cost_range"):
        lo, base, hi = (f[f"{c}{F[key]}"] for c in "BCD")
        assert lo <= base <= hi, key
    assert f[f"B{F['util']}"] == 0.05 and "widened" in f[f"E{F['util']}"]
    assert f[f"C{F['cost_range']}"] == pytest.approx(unit_cost(PRICE, 0.7, 0.05))


def test_finance_break_even_is_flagged_above_the_fleets_capacity(default):
    f, F = default["Finance"], FINANCE
    cap = f[F["replicas"]] * f[F["replica_tps"]] * 0.6 * 3600 * 730.5 * 4 / 1e6
    assert f[F["capacity"]] == pytest.approx(cap)
    for col in "BC":
        be = f[f"{col}{F['breakeven']}"]
        said = f[f"{col}{F['within']}"]
        assert (said == "yes") == (be <= cap), (col, be, cap, said)
        if be > cap:
            assert said.startswith("no: above the") and "the API stays cheaper" in said


def test_one_headline_everywhere(default):
    """The headline cost per million tokens carries one name and one value on Sizing, Cost
    and Finance."""
    value = sizing(default, "real_cost_mtok")
    f = default["Finance"]
    assert f[f"C{FINANCE['cost_range']}"] == pytest.approx(value)
    assert f[FINANCE["output_cost"]] == pytest.approx(value)
    assert f[FINANCE["base_cost"]] == pytest.approx(value)
    h100 = COST_FIRST + list(tables.gpus()).index("NVIDIA H100 SXM")
    assert default["Cost"][f"S{h100}"] == pytest.approx(value)
    assert default["Sizing"]["A" + SIZING["real_cost_mtok"][1:]].startswith(HEADLINE)
    assert f"A{FINANCE['cost_range']}" in f and f[f"A{FINANCE['cost_range']}"].startswith(
        HEADLINE)
    assert default["Cost"][f"S{COST_FIRST - 1}"].startswith(HEADLINE)
    # the other figures say what they are
    assert "floor" in default["Sizing"]["A" + SIZING["cost_mtok"][1:]]
    assert "blended" in f["A" + FINANCE["blended"][1:]]


def _insert_row(ws, row: int, wb, sheet: str) -> None:
    """Insert a row at ``row`` as Excel does: the cells below move down with their relative
    references, and every named range of the sheet that spans the row grows by one."""
    ws.move_range(f"A{row}:{openpyxl.utils.get_column_letter(ws.max_column)}{ws.max_row}",
                  rows=1, translate=True)
    for dn in list(wb.defined_names.values()):
        m = re.fullmatch(rf"'{sheet}'!\$([A-Z]+)\$(\d+):\$([A-Z]+)\$(\d+)", dn.attr_text)
        if m and int(m[2]) <= row <= int(m[4]):
            dn.attr_text = f"'{sheet}'!${m[1]}${m[2]}:${m[3]}${int(m[4]) + 1}"


def test_rows_added_to_the_tables_reach_every_sheet(tmp):
    """As a user would: insert a GPU row inside the GPUs table and type a GPU in the first
    yellow row below it, insert a model row inside the Models table (its KV formula filled
    down) and type one below, add a measurement in Calibration's first empty row. Every
    sheet picks them up, and the last GPU of the table (TPU v6e) is still on Cost."""
    src = build_template(tmp / "rows.xlsx")
    wb = openpyxl.load_workbook(src)
    gpus, models = wb["GPUs"], wb["Models"]
    n_gpus, n_models = len(tables.gpus()), len(tables.models())
    _insert_row(gpus, GPU_FIRST + 3, wb, "GPUs")
    mine = {"A": "My GPU inside", "C": 96, "D": 4.0, "E": 1000, "G": 2000, "J": 700, "L": 2.5}
    for col, x in mine.items():
        gpus[f"{col}{GPU_FIRST + 3}"] = x
    below = GPU_FIRST + n_gpus + 1  # the first yellow row, one lower after the insert
    for col, x in {"A": "My GPU below", "C": 48, "D": 1.0, "E": 400, "L": 1.2}.items():
        gpus[f"{col}{below}"] = x
    _insert_row(models, MODEL_FIRST + 1, wb, "Models")
    r = MODEL_FIRST + 1
    for col, x in zip("ABCDEFGH", ("My model inside", 13, 13, 40, 5120, 40, 8, 128),
                      strict=True):
        models[f"{col}{r}"] = x
    models[f"O{r}"] = "GQA"
    models[f"P{r}"] = f'=KV_CACHE_GB(D{r},G{r},H{r},1,"BF16",1,"B")'  # filled down
    models[f"R{r}"] = 0
    mb = MODEL_FIRST + n_models + 1
    for col, x in zip("ABCDEFGH", ("My model below", 3, 3, 28, 3072, 24, 8, 128),
                      strict=True):
        models[f"{col}{mb}"] = x
    cal = CAL_FIRST + len(CAL_CASES)
    for col, x in zip("ABCDEFG", ("My model below", "BF16", "My GPU below", 1, 1, 1000, 9),
                      strict=True):
        wb["Calibration"][f"{col}{cal}"] = x
    wb["Sizing"][SIZING["model"]] = "My model inside"
    wb["Sizing"][SIZING["gpu"]] = "My GPU inside"
    wb.save(src)
    dst = tmp / "rows-calc.xlsx"
    napkin_calc(src, dst)
    v = values(dst)
    assert error_cells(v) <= CHART_GAPS
    cost_names = [v["Cost"].get(f"A{COST_FIRST + i}") for i in range(n_gpus + GPU_SPARE)]
    for name in ("My GPU inside", "My GPU below", "Google TPU v6e (Trillium)"):
        assert name in cost_names, name
    grid = [v["Sizing"].get(f"{openpyxl.utils.get_column_letter(3 + j)}{build.GRID_TOP + 1}")
            for j in range(n_gpus + GPU_SPARE)]
    assert {"My GPU inside", "My GPU below", "Google TPU v6e (Trillium)"} <= set(grid)
    rows = [v["Sizing"].get(f"A{build.GRID_TOP + 3 + i}") for i in range(n_models + MODEL_SPARE)]
    assert {"My model inside", "My model below", list(tables.models())[-1]} <= set(rows)
    # the inserted model on the inserted GPU: 13 B in FP8 = 13 GB on 4 TB/s
    assert sizing(v, "weight_gb") == pytest.approx(13)
    assert sizing(v, "floor_ms") == pytest.approx(13 / 4.0)
    assert isinstance(sizing(v, "real_cost_mtok"), float)
    # the measurement of the added model on the added GPU is counted for that GPU
    assert v["Calibration"][f"O{cal}"] in ("plausible", "below the floor: an assumption is "
                                                         "wrong")
    assert v["Calibration"][f"W{cal}"] == "yes"


def test_every_sheet_prints_one_page_wide(book):
    for ws in book:
        ps = ws.page_setup
        assert ps.orientation in ("portrait", "landscape"), ws.title
        assert ps.fitToWidth == 1 and ps.fitToHeight == 0, ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        assert ws.print_area, ws.title
    assert book["Cost"].print_title_rows == f"${COST_FIRST - 1}:${COST_FIRST - 1}"
    assert book["GPUs"].print_title_rows == f"${GPU_FIRST - 1}:${GPU_FIRST - 1}"


# ------------------------------------------------------------------------ xlwings.conf


def test_xlwings_conf_sheet(book):
    from addin.install import xlwings_conf_rows

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
    """LibreOffice does not know napkin's functions: it must show the cached values."""
    out = tmp / "lo-csv"
    lo_convert(computed, out, CSV_FILTER)
    book = openpyxl.load_workbook(computed)
    checked = 0
    for sheet in SHEETS:
        grid = list(csv.reader(open(out / f"{computed.stem}-{sheet}.csv", encoding="utf-8")))
        for _, c in ((s, c) for s, c in formulas(book) if s == sheet):
            ours = default[sheet].get(c.coordinate)
            if ours is None:
                continue
            shown = grid[c.row - 1][c.column - 1] if c.row <= len(grid) else ""
            assert _same(ours, shown), (sheet, c.coordinate, ours, shown)
            checked += 1
    assert checked > 1400


@needs_lo
def test_libreoffice_renders_every_sheet(tmp, computed):
    out = tmp / "lo-pdf"
    lo_convert(computed, out, "pdf")
    pdf = out / f"{computed.stem}.pdf"
    assert pdf.stat().st_size > 10000
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True,
                              text=True).stdout
        for title in ("napkin: LLM-inference", "Sizing: does it fit", "Cost: tokens per day",
                      "Roofline: where each kernel", "Speedup: time before",
                      "Assumptions: the choices", "GPUs: datasheet", "Models: architecture",
                      "Finance: ranges", "Calibration: how far", "Read by the xlwings add-in",
                      "Plan: size a deployment"):
            assert title in text, title
        # the Start sheet says what a reader without the add-in sees after an edit
        text = text.replace("napkin's cells show #NAME?", "")
        assert "#NAME?" not in text, text[text.index("#NAME?") - 300:text.index("#NAME?")]
        # only the chart data of a line the GPU has no figure for (the H100 has every
        # roof: the memory-only line's five points) is #N/A; the sheet says why in words
        assert text.count("#N/A") == 5


# ------------------------------------------------------------------------ MoE

# Mixtral 8x7B (config.json: 32 layers, all MoE, 8 experts, 2 per token, hidden 4096,
# intermediate 14336, vocab 32000, untied; 46.7B total, 12.9B active)
MIXTRAL_EXPERT = 32 * 3 * 4096 * 14336 / 1e9  # one expert over the 32 layers: 5.637 B
MIXTRAL_READ_1 = 12.9 - 32000 * 4096 / 1e9  # batch 1: the active weights, no embedding


@pytest.fixture(scope="module")
def moe(tmp) -> dict:
    """DeepSeek-V3 in FP8 on H200s on Sizing; on Calibration, DeepSeek-V3 as on Sizing, then
    Mixtral 8x7B in BF16 on one H100 at batch 1 and on two at batch 256 (2,048 tokens)."""
    r = CAL_FIRST + len(CAL_CASES)
    changes = {"Sizing!" + SIZING["model"]: "DeepSeek-V3", "Sizing!" + SIZING["precision"]: "FP8",
               "Sizing!" + SIZING["gpu"]: "NVIDIA H200 SXM"}
    rows = [("DeepSeek-V3", "FP8", "NVIDIA H200 SXM", 8, 16, 8192),
            ("Mixtral 8x7B", "BF16", "NVIDIA H100 SXM", 1, 1, 2048),
            ("Mixtral 8x7B", "BF16", "NVIDIA H100 SXM", 2, 256, 2048)]
    for i, row in enumerate(rows):
        for col, x in zip("ABCDEF", row, strict=True):
            changes[f"Calibration!{col}{r + i}"] = x
    return variant(tmp, "moe", changes)


def test_moe_sizing_reads_what_the_hardware_reads(moe):
    """DeepSeek-V3 in FP8 on H200s (config.json: 61 layers, 58 of them MoE with 256 routed
    experts, 8 per token, moe_intermediate_size 2048, hidden 7168, 128 heads, q/k head dim
    192, vocab 129280, untied; model card: 671B total, 37B activated): memory holds all 671B,
    a decode step reads the active ones without the embedding at batch 1 and more distinct
    experts at batch 16, prefill computes with the 37B active ones."""
    v = moe
    assert sizing(v, "weight_gb") == pytest.approx(671)  # FP8: 1 byte per weight, all held
    assert sizing(v, "active_b") == pytest.approx(37)
    decode = 37 - 129280 * 7168 / 1e9  # 36.073 B: no input embedding table
    assert sizing(v, "decode_b") == pytest.approx(decode)
    assert sizing(v, "floor_ms") == pytest.approx(decode / 4.8)  # 7.52 ms, H200 4.8 TB/s
    expert = 58 * 3 * 7168 * 2048 / 1e9  # one routed expert over the 58 MoE layers: 2.554 B
    experts_read = 256 * (1 - (1 - 8 / 256) ** 16)  # 102.0 of 256 at batch 16
    read = decode + expert * (experts_read - 8)  # 276.2 B of the 671 B
    assert sizing(v, "read_b") == pytest.approx(read)
    n = sizing(v, "gpus")  # 8 H200 (5 needed: 671 GB + KV over 141 GB each)
    assert n == 8
    mem = (read + sizing(v, "kv_gb")) / (4.8 * n)  # GB ÷ TB/s = ms
    math_ = 2 * 37e9 * 16 / (1978.9e12 * 0.8 * n) * 1e3  # H200 FP8 dense: 1,978.9 TFLOPS
    assert sizing(v, "step_ms") == pytest.approx(max(mem, math_))
    # prefill of the default 2,000-token prompt: 2 × 37e9 × T with the 37B activated
    # (model card) plus the causal attention 2 × L × heads × head_dim × T² (kipply,
    # "Transformer inference arithmetic"; the JAX scaling book), on NVIDIA's H200 FP8 dense
    # figure (1,978.9 TFLOPS, half the sparse 3,958) × 0.8 efficiency × 8 GPUs: 12.6 ms.
    # The template showed 339 ms before: all 671B on the 5 GPUs it counted then.
    flop = 2 * 37e9 * 2000 + 2 * 61 * 128 * 192 * 2000**2
    prefill = flop / (1978.9e12 * 0.8 * n) * 1e3
    assert v["Finance"][FINANCE["prefill_ms"]] == pytest.approx(prefill)
    assert 12 < prefill < 13.5  # ms; the 37B alone on the 5 GPUs needed: 18.7 ms
    models = {v["Models"][f"A{MODEL_FIRST + i}"]: MODEL_FIRST + i
              for i in range(len(tables.models()))}
    assert v["Models"][f"V{models['DeepSeek-V3']}"] == pytest.approx(decode)
    assert v["Models"][f"W{models['DeepSeek-V3']}"] == pytest.approx(expert)
    assert v["Models"][f"V{models['Llama 3.1 8B']}"] == pytest.approx(READ_8B)
    assert v["Models"][f"W{models['Llama 3.1 8B']}"] == 0


def test_moe_calibration_reads_more_experts_at_a_larger_batch(moe):
    """Mixtral 8x7B: at batch 1 a step reads 2 of the 8 experts per layer (the active
    12.9B without the embedding), at batch 256 nearly all 8 (all 46.7B but the embedding:
    8 × (1 − (6/8)^256) = 8.000 experts); the floor and MBU follow the weights read."""
    v = moe["Calibration"]
    r1 = CAL_FIRST + len(CAL_CASES) + 1
    assert v[f"V{r1}"] == pytest.approx(MIXTRAL_READ_1)  # 12.769 B
    experts = (v[f"V{r1}"] - MIXTRAL_READ_1) / MIXTRAL_EXPERT + 2
    assert experts == pytest.approx(2)
    kv1 = 2 * 32 * 8 * 128 * 2 * 2048 / 1e9  # BF16, 2,048 tokens, 1 sequence: 0.268 GB
    assert v[f"J{r1}"] == pytest.approx(MIXTRAL_READ_1 * 2 + kv1)
    assert v[f"K{r1}"] == pytest.approx((MIXTRAL_READ_1 * 2 + kv1) / 3.35)  # 7.70 ms
    r2 = r1 + 1
    assert v[f"V{r2}"] == pytest.approx(46.7 - 32000 * 4096 / 1e9, rel=2e-3)  # ≈ 46.57 B
    experts = (v[f"V{r2}"] - MIXTRAL_READ_1) / MIXTRAL_EXPERT + 2
    assert experts == pytest.approx(8 * (1 - 0.75**256)) and experts > 7.999
    kv2 = 2 * 32 * 8 * 128 * 2 * 2048 * 256 / 1e9
    mem = (v[f"V{r2}"] * 2 + kv2) / (3.35 * 2)
    math_ = 2 * 12.9e9 * 256 / (989.4e12 * 0.8 * 2) * 1e3  # BF16 roof, active parameters
    assert v[f"K{r2}"] == pytest.approx(max(mem, math_))
