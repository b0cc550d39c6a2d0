"""The template workbook (issue 3): built by ``workbook.build``, computed by ``napkin calc``.

What is checked:
* the committed ``workbook/napkin.xlsx`` is the builder's output (not stale), and two builds
  give identical bytes;
* the rules: Excel 2010 functions only (no XLOOKUP/LET, no structured references), named
  ranges for the tables, inputs unlocked + styled + validated, everything else locked,
  sheets protected without a password, number formats with units;
* the tables: every GPU and model row of ``udfs/data`` with its source and notes, empty
  figures empty;
* after ``napkin calc``: the reference values (inference-math.md), hand calculations of the
  Cost sheet, and no error value anywhere;
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

from udfs import tables
from workbook import build
from workbook.build import COST, COST_FIRST, GPU_FIRST, MODEL_FIRST, SIZING, build_template

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "workbook" / "napkin.xlsx"
SHEETS = ["Start", "Sizing", "Cost", "Roofline", "Speedup", "Assumptions", "GPUs", "Models"]
ERRORS = ("#N/A", "#VALUE!", "#NUM!", "#DIV/0!", "#REF!", "#NAME?", "#NULL!", "#CALC!",
          "#SPILL!")

# Excel 2010 functions the native formulas may use (besides napkin's own)
NATIVE = {"IF", "INDEX", "MATCH", "ISNUMBER", "ISNA", "ISERROR", "NA", "AND", "MAX",
          "CEILING"}


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
    return build_template(tmp / "napkin.xlsx")


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
    again = build_template(tmp / "again.xlsx")
    assert again.read_bytes() == built.read_bytes()
    with zipfile.ZipFile(again) as z:
        assert {i.date_time for i in z.infolist()} == {build.ZIP_TIME}
        core = z.read("docProps/core.xml").decode()
    assert "2026-11-01T00:00:00Z" in core and "modified" in core


def test_cli_template_writes_the_workbook(tmp):
    out = tmp / "cli" / "napkin.xlsx"
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
                 "CURRENCY"):
        assert name in names, name
    n_gpus = len(tables.gpus())
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
                      ("ridge_bf16", "FLOP/byte"), ("gpus_needed", "GPU")):
        assert unit in ws[SIZING[key]].number_format, key


def test_every_result_calls_our_functions(book):
    from udfs.catalog import CATALOG

    ws = book["Sizing"]
    for key in ("weight_gb", "weight_gib", "kv_gqa_gb", "fits_weights", "fits_all",
                "gpus_needed", "floor_ms", "step_ms", "tps_total", "tps_user", "ridge_bf16",
                "ridge_used", "critical_batch", "decode_intensity", "side", "cost_mtok"):
        f = ws[SIZING[key]].value
        assert any(f"{name}(" in f for name in CATALOG), (key, f)


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


def test_no_error_values_after_calc(default):
    bad = [(s, c, v) for s, cells in default.items() for c, v in cells.items()
           if isinstance(v, str) and v in ERRORS]
    assert not bad


def test_empty_figures_give_errors_that_say_so(tmp):
    """The A100 has no FP8 figure: only the cells that need it are errors, and say so."""
    v = variant(tmp, "a100", {"Sizing!" + SIZING["gpu"]: "NVIDIA A100 80GB SXM"})
    bad = {f"{s}!{c}" for s, cells in v.items() for c, x in cells.items()
           if isinstance(x, str) and x in ERRORS}
    assert bad == {"Sizing!" + SIZING["fp8"], "Roofline!B6"} | {
        f"Roofline!D{r}" for r in range(build.ROOF_FIRST, build.ROOF_FIRST + 5)}
    says = "no trustworthy figure"
    assert says in v["Sizing"]["C" + SIZING["fp8"][1:]] and says in v["Roofline"]["C6"]
    assert v["Sizing"][SIZING["roof_tflops"]] == 312  # falls back to the BF16 roof
    assert sizing(v, "fits_weights") == "yes"


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
    assert sizing(v, "floor_ms") == pytest.approx(4.79, abs=0.005)
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
    # 70B FP8 on H100 ≈ 21 ms/token (70.6 GB ÷ 3.35 TB/s)
    assert sizing(default, "floor_ms") == pytest.approx(70.6 / 3.35, rel=1e-9)
    assert sizing(default, "ridge_bf16") == pytest.approx(989.4 / 3.35)
    # FP8 weights on the FP8 roof × 0.8: ridge 472.6, critical batch ≈ 236
    assert sizing(default, "critical_batch") == pytest.approx(1978.9 * 0.8 / 3.35 / 2)


def test_sizing_chain_is_consistent(default):
    v = default["Sizing"]
    need = sizing(default, "weight_gb") + sizing(default, "kv_gb")
    assert sizing(default, "need_gb") == pytest.approx(need)
    n = sizing(default, "gpus_needed")
    assert n == math.ceil(need / 80)
    # step: (weights + KV) over n GPUs' bandwidth vs 2 × params × batch over n roofs
    mem_ms = need / (3.35 * n)
    math_ms = 2 * 70.6e9 * 16 / (1978.9e12 * 0.8 * n) * 1e3
    assert sizing(default, "step_ms") == pytest.approx(max(mem_ms, math_ms))
    total = 1000 / sizing(default, "step_ms") * 16
    assert sizing(default, "tps_total") == pytest.approx(total)
    assert sizing(default, "tps_user") == pytest.approx(total / 16)
    assert sizing(default, "cost_mtok") == pytest.approx(2.95 * n / (total * 3600 * 0.6) * 1e6)
    assert v[SIZING["decode_intensity"]] == pytest.approx(2 * 16)  # FP8: I ≈ 2B


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
    floor_top = head + 2 + len(models) + 3  # the second grid's header row
    assert v[f"{col}{floor_top + 2 + models.index('Llama 3.1 8B')}"] == \
        pytest.approx(16.06 / 3.35)


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


def test_cost_sheet_against_hand_calculation(default):
    """Every GPU row of the Cost sheet, recomputed by hand from the tables."""
    v = default["Cost"]
    params, batch = 70.6e9, 16
    kv = 2 * 80 * 8 * 128 * 2 * 8192 * batch / 1e9  # BF16 KV cache, GB
    need = params / 1e9 + kv  # FP8 weights: 1 byte per parameter
    avg = 100e6 / 86400
    peak = avg * 2
    prices = {r["name"]: float(r["price_per_gpu_hour_usd"])
              for r in csv.DictReader(open(ROOT / "workbook" / "data" / "gpu_prices.csv"))}
    checked = 0
    for i, g in enumerate(tables.gpus().values()):
        r = COST_FIRST + i
        assert v[f"A{r}"] == g["name"]
        n = math.ceil(need / float(g["memory_GB"]))
        assert v[f"F{r}"] == n
        bw = float(g["memory_bandwidth_TBps"]) * n
        roof = g["fp8_dense_TFLOPS"] or g["bf16_dense_TFLOPS"]
        mem_ms = need / bw
        step = mem_ms if not roof else max(mem_ms, 2 * params * batch /
                                           (float(roof) * 1e12 * 0.8 * n) * 1e3)
        assert v[f"G{r}"] == pytest.approx(step), g["name"]
        tps = 1000 / step * batch
        assert v[f"H{r}"] == pytest.approx(tps)
        replicas = math.ceil(peak / (tps * 0.6))
        assert v[f"J{r}"] == replicas * n
        if g["name"] in prices:
            price = prices[g["name"]]
            monthly = replicas * n * price * 730
            assert v[f"K{r}"] == pytest.approx(monthly)
            # cost per million tokens = the month's bill ÷ the month's tokens
            assert v[f"L{r}"] == pytest.approx(monthly / (avg * 3600 * 730) * 1e6)
            assert v[f"M{r}"] == pytest.approx(price * n / (tps * 3600 * 0.6) * 1e6)
            checked += 1
        else:  # no price: the cells say so instead of an error
            assert v[f"B{r}"] == "no price" and v[f"L{r}"] == "no price"
            assert "no price" in v[f"N{r}"]
        if not roof:
            assert "no FLOPS figure" in v[f"N{r}"]
    assert checked == 3
    assert v[COST["peak_tps"]] == pytest.approx(peak)


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
                      "Assumptions: the choices", "GPUs: datasheet", "Models: architecture"):
            assert title in text, title
        assert "#NAME?" not in text and "#N/A" not in text
