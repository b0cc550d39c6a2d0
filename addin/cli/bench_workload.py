"""``napkin bench`` on the work users run: napkin's own template and a generated sizing
workbook of the same kind, each timed against LibreOffice on its ``napkin native`` copy.

Figures and their targets:

9.  ``napkin calc workbook/napkin.xlsx``   CPU time ≤ 1.0× LibreOffice's to load its
                                           ``napkin native`` copy, recalculate every
                                           formula and save it as .xlsx
10. a generated sizing workbook (about 3,000 formula cells, ``make_sizing_workbook``)
                                           ≤ 1.0× LibreOffice on its native copy; ten
                                           times the cells ≤ 11× the time
11. ``napkin template`` and ``napkin native workbook/napkin.xlsx``   each ≤ 5 s of CPU

LibreOffice runs with a private profile whose ``OOXMLRecalcMode`` is 0 ("always
recalculate"): it computes every formula of the file it loads instead of showing the
values cached in it. Each command is a fresh process, timed after one untimed run (the
bytecode cache written, LibreOffice's profile built); CPU time (user + system of the
process and its children) is the figure compared, since waiting for a core is not in it;
the two commands compared run by turns.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from addin.cli.bench_timing import _env, _med, _noise, _runs, _warm

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "workbook" / "napkin.xlsx"

# LibreOffice's setting "recalculation on file load" of Excel 2007 and later: 0 = always
_RECALC_ALWAYS = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry"
 xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode"
 oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""

# (name, parameters, layers, KV heads, head dimension) of the generated models table
_MODELS = [(f"model-{i}", round(1.0e9 * (1 + i * 1.7), -6), 16 + 2 * (i % 24),
            4 + 4 * (i % 4), 64 + 64 * (i % 2)) for i in range(40)]
# (name, memory GB, bandwidth TB/s, peak TFLOPS)
_GPUS = [(f"gpu-{i}", 16 + 8 * i, round(0.9 + 0.35 * i, 2), 120 + 90 * i) for i in range(12)]
_PRECISIONS = ["BF16", "FP8", "INT4", "FP16"]
_BATCHES = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 160, 192, 256, 320, 384, 448, 512,
            640]


def _quantities(k: int) -> list[str]:
    """The formulas of a scenario sheet's column B from row 8 (``k``: the sheet's number,
    which varies a few of them), written as users write them: inputs named ``B2``,
    ``B3``... without ``$``."""
    w = "INDEX(MODEL_PARAMS,B8)"
    return [
        "=MATCH(B2,MODEL_NAMES,0)",  # B8: the model's row
        "=MATCH(B3,GPU_NAMES,0)",  # B9: the GPU's row
        f'=IF(ISNUMBER(B8),{w},"")',  # B10 parameters
        '=IF(ISNUMBER(B8),INDEX(MODEL_LAYERS,B8),"")',
        '=IF(ISNUMBER(B8),INDEX(MODEL_KV_HEADS,B8),"")',
        '=IF(ISNUMBER(B8),INDEX(MODEL_HEAD_DIM,B8),"")',
        '=IF(ISNUMBER(B9),INDEX(GPU_MEMORY,B9),"")',  # B14
        '=IF(ISNUMBER(B9),INDEX(GPU_BANDWIDTH,B9),"")',
        '=IF(ISNUMBER(B9),INDEX(GPU_PEAK,B9),"")',  # B16
        '=IF(ISNUMBER(B10),WEIGHT_GB(B10,B4),"")',  # B17 weights
        '=IF(ISNUMBER(B11),KV_CACHE_GB(B11,B12,B13,B6,B4,B5),"")',  # B18 KV cache
        '=IF(AND(ISNUMBER(B17),ISNUMBER(B18)),B17+B18,"")',  # B19 memory needed
        '=IF(ISNUMBER(B19),IF(FITS(B19,B14,0.1),"fits","too big"),"")',
        '=IF(ISNUMBER(B19),GPUS_NEEDED(B19,B14,0.1),"")',  # B21
        '=IF(ISNUMBER(B10),DECODE_FLOOR(B10,B4,B15,B5,B16),"")',  # B22 step ms
        '=IF(ISNUMBER(B22),TOKENS_PER_SEC(B22),"")',
        '=IF(ISNUMBER(B23),PER_USER_TPS(B23,B5),"")',
        '=IF(ISNUMBER(B16),RIDGE(B16,B15),"")',  # B25
        f"=IF(ISNUMBER(B21),B21*{2.5 + k % 7},\"\")",  # B26 hourly cost
        '=IF(AND(ISNUMBER(B26),ISNUMBER(B23)),B26/(B23*3600)*1000000,"")',
        '=IF(ISNUMBER(B19),ROUND(B19/B14*100,1)&" % of one GPU","")',
        '=IF(ISERROR(B8),"pick a model from the Models sheet",IF(ISERROR(B9),'
        '"pick a GPU",IF(B20="fits","ok","needs "&B21&" GPUs")))',
        f"=IF(ISNUMBER(B22),MAX(B22,{0.1 * (1 + k % 5):.1f}),\"\")",
        '=IF(ISNUMBER(B17),SUMPRODUCT((MODEL_PARAMS<=B10)*1),"")',
        '=IF(ISNUMBER(B14),COUNTIF(GPU_MEMORY,">="&B19),"")',
        '=IF(ISNUMBER(B23),B23*B5,"")',
        '=IF(ISNUMBER(B17),VLOOKUP(B3,GPUS!A2:D13,2,FALSE)-B17,"")',
    ]


def make_sizing_workbook(path: Path, copies: int = 1) -> None:
    """A sizing workbook of the kind users build: a models table and a GPUs table with a
    defined name per column, ``10 * copies`` scenario sheets and a summary.

    Each scenario sheet picks a model and a GPU by name (``B2``, ``B3``), looks up their
    figures (INDEX/MATCH into the named columns, IF guards), computes memory and speed
    with napkin's functions (27 formulas in column B) and fills a grid of 20 batch sizes
    (rows) by 12 GPUs (columns); the summary totals every sheet. About 3,000 formula
    cells per copy, most of them distinct shapes in R1C1 notation (the grid reads the
    sheet's inputs as ``B4``, not ``$B$4``, as the template's builder writes them).
    """
    import openpyxl
    from openpyxl.workbook.defined_name import DefinedName

    wb = openpyxl.Workbook()
    models = wb.active
    models.title = "Models"
    models.append(["model", "parameters", "layers", "KV heads", "head dim"])
    for row in _MODELS:
        models.append(list(row))
    gpus = wb.create_sheet("GPUS")
    gpus.append(["GPU", "memory GB", "bandwidth TB/s", "peak TFLOPS"])
    for row in _GPUS:
        gpus.append(list(row))
    last_m, last_g = len(_MODELS) + 1, len(_GPUS) + 1
    for name, sheet, col, last in [
            ("MODEL_NAMES", "Models", "A", last_m), ("MODEL_PARAMS", "Models", "B", last_m),
            ("MODEL_LAYERS", "Models", "C", last_m), ("MODEL_KV_HEADS", "Models", "D", last_m),
            ("MODEL_HEAD_DIM", "Models", "E", last_m), ("GPU_NAMES", "GPUS", "A", last_g),
            ("GPU_MEMORY", "GPUS", "B", last_g), ("GPU_BANDWIDTH", "GPUS", "C", last_g),
            ("GPU_PEAK", "GPUS", "D", last_g)]:
        wb.defined_names[name] = DefinedName(name, attr_text=f"{sheet}!${col}$2:${col}${last}")
    n = 10 * copies
    for k in range(n):
        ws = wb.create_sheet(f"S{k + 1}")
        ws["A2"], ws["B2"] = "model", _MODELS[(7 * k) % len(_MODELS)][0]
        ws["A3"], ws["B3"] = "GPU", _GPUS[(5 * k) % len(_GPUS)][0]
        ws["A4"], ws["B4"] = "precision", _PRECISIONS[k % len(_PRECISIONS)]
        ws["A5"], ws["B5"] = "batch", 1 + k % 32
        ws["A6"], ws["B6"] = "context tokens", 2048 * (1 + k % 16)
        for i, f in enumerate(_quantities(k)):
            ws.cell(8 + i, 2, f)
        top = 40  # the grid: batch sizes down column A, GPUs across row `top`
        ws.cell(top, 1, "batch \\ GPU")
        for j in range(len(_GPUS)):
            col = openpyxl.utils.get_column_letter(2 + j)
            ws.cell(top, 2 + j, f"=INDEX(GPU_NAMES,{j + 1})")
            for i, b in enumerate(_BATCHES):
                r = top + 1 + i
                ws.cell(r, 1, b)
                ws.cell(r, 2 + j, _grid_cell(k, col, r, top))
    summary = wb.create_sheet("Summary")
    summary.append(["sheet", "model", "memory GB", "GPUs", "step ms", "$ per Mtok", "status",
                    "fitting cells"])
    for k in range(n):
        s, r = f"S{k + 1}", k + 2
        summary.cell(r, 1, s)
        summary.cell(r, 2, f"={s}!B2")
        summary.cell(r, 3, f"={s}!B19")
        summary.cell(r, 4, f"={s}!B21")
        summary.cell(r, 5, f"={s}!B22")
        summary.cell(r, 6, f'=IF(ISNUMBER({s}!B27),{s}!B27,"")')
        summary.cell(r, 7, f"={s}!B29")
        summary.cell(r, 8, f'=COUNTIF({s}!B41:M60,"<1000")')
    end = n + 1
    summary.cell(end + 2, 1, "total")
    for col in "CDEFH":
        summary[f"{col}{end + 2}"] = f"=SUM({col}2:{col}{end})"
    summary[f"B{end + 3}"] = f'=COUNTIF(G2:G{end},"ok")'
    summary[f"C{end + 3}"] = "=" + "+".join(f"S{k + 1}!B21" for k in range(min(n, 30)))
    wb.save(path)


def _grid_cell(k: int, col: str, r: int, top: int) -> str:
    """One cell of a scenario sheet's grid: the batch size in column A of its row, the
    GPU's row found from the name above it; which quantity depends on the sheet."""
    gpu = f"MATCH({col}${top},GPU_NAMES,0)"
    guard = f'IF(OR($A{r}="",{col}${top}="",NOT(ISNUMBER(B10))),"",'
    kind = k % 4
    if kind == 0:  # the step time at that batch on that GPU
        body = f"DECODE_FLOOR(B10,B4,INDEX(GPU_BANDWIDTH,{gpu}),$A{r},INDEX(GPU_PEAK,{gpu}))"
    elif kind == 1:  # does the model and its KV cache fit
        body = (f'IF(FITS(B17+KV_CACHE_GB(B11,B12,B13,B6,B4,$A{r}),'
                f'INDEX(GPU_MEMORY,{gpu}),0.1),"yes","no")')
    elif kind == 2:  # how many GPUs it needs
        body = f"GPUS_NEEDED(B17+KV_CACHE_GB(B11,B12,B13,B6,B4,$A{r}),INDEX(GPU_MEMORY,{gpu}))"
    else:  # tokens per second per user
        body = (f"PER_USER_TPS(TOKENS_PER_SEC(DECODE_FLOOR(B10,B4,"
                f"INDEX(GPU_BANDWIDTH,{gpu}),$A{r})),$A{r})")
    return f"={guard}{body})"


def _soffice():
    return shutil.which("soffice") or shutil.which("libreoffice")


def _lo_runner(soffice: str, d: Path, src: Path):
    """A function running LibreOffice on ``src`` (load, recalculate all, save .xlsx)."""
    profile = d / "lo-profile"
    (profile / "user").mkdir(parents=True, exist_ok=True)
    (profile / "user" / "registrymodifications.xcu").write_text(_RECALC_ALWAYS)
    out = d / "lo-out"

    def run():
        subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless",
                        "--calc", "--convert-to", "xlsx", "--outdir", str(out), str(src)],
                       check=True, capture_output=True)

    return run


def _napkin(*args: str):
    cmd = [sys.executable, "-m", "addin.cli", *args]
    return lambda: subprocess.run(cmd, check=True, capture_output=True, env=_env())


def _alternating(first, second, repeat: int) -> tuple[list[float], list[float]]:
    """CPU seconds of ``first`` and of ``second``, run by turns ``repeat`` times each (a
    change in the machine's load falls on both)."""
    a, b = [], []
    for _ in range(repeat):
        a += _runs(first, 1)[1]
        b += _runs(second, 1)[1]
    return a, b


def _native_copy(src: Path, dst: Path) -> None:
    _napkin("native", str(src), "-o", str(dst))()


def bench_template(rep, repeat=3):
    """Targets 9 and 11: the template computed by ``napkin calc`` against LibreOffice on
    its native copy; ``napkin template`` and ``napkin native`` of it."""
    _warm()
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        native = d / "native.xlsx"
        _native_copy(TEMPLATE, native)
        ours = _napkin("calc", str(TEMPLATE), "-o", str(d / "out.xlsx"))
        _, c_tpl = _runs(_napkin("template", "-o", str(d / "t.xlsx")), repeat)
        _, c_nat = _runs(_napkin("native", str(TEMPLATE), "-o", str(d / "n.xlsx")), repeat)
        soffice = _soffice()
        if soffice:
            lo = _lo_runner(soffice, d, native)
            lo()  # builds LibreOffice's profile: not counted
            c_ours, c_lo = _alternating(ours, lo, repeat)
            ratio = _med(c_ours) / _med(c_lo)
            rep.add("9. napkin calc of the template vs LibreOffice, CPU", _med(c_ours), "s",
                    ratio, "≤ 1.0×", ratio <= 1.0, _noise(c_ours),
                    f"LibreOffice: {_med(c_lo):.2f} s of CPU to load the native copy, "
                    f"recalculate all and save .xlsx (noise ±{_noise(c_lo) * 50:.0f} %)")
        else:
            _, c_ours = _runs(ours, repeat)
            rep.add("9. napkin calc of the template, CPU", _med(c_ours), "s", None,
                    "≤ 1.0× LO", None, _noise(c_ours), "LibreOffice not installed")
    rep.add("11. napkin template, CPU", _med(c_tpl), "s", None, "≤ 5 s", _med(c_tpl) <= 5,
            _noise(c_tpl), "builds the template and computes all of it")
    rep.add("11. napkin native workbook/napkin.xlsx, CPU", _med(c_nat), "s", None, "≤ 5 s",
            _med(c_nat) <= 5, _noise(c_nat), "computes the template and translates it")


def bench_sizing(rep, repeat=3):
    """Target 10: a generated sizing workbook against LibreOffice on its native copy, and
    ten times its cells against it."""
    _warm()
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        one, ten, native = d / "sizing1.xlsx", d / "sizing10.xlsx", d / "native.xlsx"
        make_sizing_workbook(one, 1)
        make_sizing_workbook(ten, 10)
        _native_copy(one, native)
        calc_one = _napkin("calc", str(one), "-o", str(d / "o1.xlsx"))
        calc_ten = _napkin("calc", str(ten), "-o", str(d / "o10.xlsx"))
        c_one, c_ten = _alternating(calc_one, calc_ten, repeat)
        cells = _formula_count(one)
        soffice = _soffice()
        if soffice:
            lo = _lo_runner(soffice, d, native)
            lo()
            c_one_lo, c_lo = _alternating(calc_one, lo, repeat)
            ratio = _med(c_one_lo) / _med(c_lo)
            rep.add(f"10. napkin calc, sizing workbook ({cells:,} formulas) vs LO, CPU",
                    _med(c_one_lo), "s", ratio, "≤ 1.0×", ratio <= 1.0, _noise(c_one_lo),
                    f"LibreOffice: {_med(c_lo):.2f} s of CPU on its native copy "
                    f"(noise ±{_noise(c_lo) * 50:.0f} %)")
        growth = _med(c_ten) / _med(c_one)
        rep.add("10. ... ten times the cells over one", _med(c_ten), "s", growth, "≤ 11×",
                growth <= 11, _noise(c_ten), "CPU time of napkin calc; 10× is linear")


def _formula_count(path: Path) -> int:
    from zipfile import ZipFile

    with ZipFile(path) as zf:
        return sum(zf.read(n).count(b"<f>") for n in zf.namelist()
                   if n.startswith("xl/worksheets/"))


def napkin_calls(path) -> dict[str, int]:
    """{sheet: calls of napkin functions} in the formulas of the workbook at ``path``
    (``addin.formula.formula_text.count_calls``): the calls one full recalculation makes,
    an array formula counted once for its whole range."""
    from zipfile import ZipFile

    from addin.formula import formula_text as ft
    from addin.ooxml import reader
    from addin.ooxml import xlsx_values as xv
    from udfs.catalog import CATALOG

    names = {name.upper() for name in CATALOG}
    out = {}
    with ZipFile(path) as zf:
        for sheet in xv.read_book(zf).sheets:
            xml = zf.read(sheet.path).decode("utf-8")
            out[sheet.name] = sum(ft.count_calls(reader.xml_unescape(f.text), names)
                                  for cell in reader.iter_cells(xml)
                                  if (f := reader.formula_of(cell)) is not None and f.text)
    return out


#: The most napkin calls a full recalculation of the template may make.
CALLS_TARGET = 300


def bench_calls(rep) -> None:
    """The napkin calls of one full recalculation of the template (each one costs about
    1 ms of xlwings' own work in Lite)."""
    n = sum(napkin_calls(TEMPLATE).values())
    rep.add("12. napkin calls in a full recalculation of the template", n, "calls", None,
            f"≤ {CALLS_TARGET}", n <= CALLS_TARGET, None,
            "an array formula counts once for its whole range; the Models and Calibration "
            "columns per cell, so that rows can be inserted in them")
