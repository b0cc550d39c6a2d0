"""Rows a user adds to the GPUs, Models and Calibration tables reach every sheet, done the
way a user does it: in a spreadsheet program (LibreOffice, through its UNO API), insert a
row inside the table (the tables' sheets are not protected) and copy the row above into
it (its formulas follow), type the new figures over it, type another entry in the table's
last empty (yellow) row; then compute the saved file with ``napkin calc`` and read every
sheet. ``test_insert_rows.py`` inserts above the first row and below the last too."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import get_column_letter
from template_support import CHART_GAPS

from udfs.inference import tables
from workbook.build import (
    CAL_FIRST,
    CAL_ROWS,
    COST_FIRST,
    DEFAULT_PATH,
    GPU_COLUMNS,
    GPU_FIRST,
    GPU_SPARE,
    GRID_TOP,
    MODEL_COLUMNS,
    MODEL_FIRST,
    MODEL_SPARE,
    SIZING,
)

ROOT = Path(__file__).resolve().parents[1]
UNO_PYTHON = "/usr/bin/python3"
ERRORS = ("#N/A", "#VALUE!", "#NUM!", "#DIV/0!", "#REF!", "#NAME?", "#NULL!", "#CALC!")


def _has_uno() -> bool:
    return shutil.which("soffice") is not None and Path(UNO_PYTHON).exists() and \
        subprocess.run([UNO_PYTHON, "-c", "import uno"], capture_output=True).returncode == 0


pytestmark = pytest.mark.skipif(not _has_uno(), reason="LibreOffice with Python UNO not found")


def _col(columns, key: str) -> str:
    return get_column_letter([c[0] for c in columns].index(key) + 1)


def _gpu(row: int, name: str, mem, bw, bf16, fp8, price) -> dict:
    out = {f"GPUs!{_col(GPU_COLUMNS, 'name')}{row}": name,
           f"GPUs!{_col(GPU_COLUMNS, 'memory_GB')}{row}": mem,
           f"GPUs!{_col(GPU_COLUMNS, 'memory_bandwidth_TBps')}{row}": bw,
           f"GPUs!{_col(GPU_COLUMNS, 'bf16_dense_TFLOPS')}{row}": bf16,
           f"GPUs!{_col(GPU_COLUMNS, 'fp8_dense_TFLOPS')}{row}": fp8,
           f"GPUs!L{row}": price}
    return out


def _model(row: int, name: str, params, layers, hidden, heads, kv_heads, head_dim) -> dict:
    figures = {"name": name, "total_params_B": params, "active_params_B": params,
               "num_layers": layers, "hidden_size": hidden, "num_attention_heads": heads,
               "num_kv_heads": kv_heads, "head_dim": head_dim, "max_context": 32768}
    return {f"Models!{_col(MODEL_COLUMNS, k)}{row}": v for k, v in figures.items()}


def _measurement(row: int, model, precision, gpu, ms) -> dict:
    return {f"Calibration!{c}{row}": v for c, v in zip(
        "ABCDEFGPX", (model, precision, gpu, 1, 1, 1000, ms, "mine", "yes"), strict=True)}


@pytest.fixture(scope="module")
def added(tmp_path_factory):
    """The template after a user's edits in LibreOffice: (LibreOffice's own recalculated
    cells, the values napkin calc computes for the saved file, the row numbers)."""
    d = tmp_path_factory.mktemp("rows")
    src, saved, computed = d / "napkin.xlsx", d / "edited.xlsx", d / "edited-calc.xlsx"
    shutil.copy(DEFAULT_PATH, src)
    n_gpus, n_models = len(tables.gpus()), len(tables.models())
    last_col = {name: get_column_letter(openpyxl.load_workbook(src, read_only=True)[name]
                                        .max_column)
                for name in ("GPUs", "Models", "Calibration")}
    g_in, m_in, c_in = GPU_FIRST + 3, MODEL_FIRST + 1, CAL_FIRST + 1  # inside each table
    # below: the first empty row of each table (one lower after the insert)
    g_below = GPU_FIRST + n_gpus + 1
    m_below = MODEL_FIRST + n_models + 1
    c_below = CAL_FIRST + CAL_ROWS  # Calibration's last row: its ranges grew with the insert
    edits = {}
    edits |= _gpu(g_in, "My GPU inside", 96, 4.0, 1000, 2000, 2.5)
    edits |= _gpu(g_below, "My GPU below", 48, 1.0, 400, None, 1.2)
    edits |= _model(m_in, "My model inside", 13, 40, 5120, 40, 8, 128)
    edits |= _model(m_below, "My model below", 3, 28, 3072, 24, 8, 128)
    # the other empty rows filled too: one entry more than the places on Cost and the grids
    for k in range(1, GPU_SPARE):
        edits |= _gpu(g_below + k, f"Extra GPU {k}", 80, 2.0, 500, None, None)
    for k in range(1, MODEL_SPARE):
        edits |= _model(m_below + k, f"Extra model {k}", 1, 16, 2048, 32, 8, 64)
    # 13 B in BF16 on one "My GPU inside": floor 26 GB / 4 TB/s = 6.5 ms (+ a small KV)
    edits |= _measurement(c_in, "My model inside", "BF16", "My GPU inside", 10)
    edits |= _measurement(c_below, "My model below", "BF16", "My GPU below", 9)
    edits |= {f"Sizing!{SIZING['model']}": "My model inside",
              f"Sizing!{SIZING['precision']}": "BF16",
              f"Sizing!{SIZING['gpu']}": "My GPU inside"}
    job = {"path": str(src), "save": str(saved),
           "insert_rows": [["GPUs", g_in], ["Models", m_in], ["Calibration", c_in]],
           "copy": [["GPUs", f"A{g_in - 1}:{last_col['GPUs']}{g_in - 1}", f"A{g_in}"],
                    ["Models", f"A{m_in - 1}:{last_col['Models']}{m_in - 1}", f"A{m_in}"],
                    ["Calibration", f"A{c_in - 1}:{last_col['Calibration']}{c_in - 1}",
                     f"A{c_in}"]],
           "edits": edits}
    proc = subprocess.run([UNO_PYTHON, str(ROOT / "tools" / "lo_uno.py")],
                          input=json.dumps([job]), capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lo = json.loads(proc.stdout)[0]["cells"]
    calc = subprocess.run([sys.executable, "-m", "addin.cli", "calc", str(saved), "-o",
                           str(computed)], capture_output=True, text=True, cwd=ROOT,
                          timeout=900)
    assert calc.returncode == 0, calc.stderr
    wb = openpyxl.load_workbook(computed, data_only=True)
    got = {ws.title: {c.coordinate: c.value for row in ws.iter_rows() for c in row
                      if c.value is not None} for ws in wb}
    rows = {"g_in": g_in, "c_in": c_in, "c_below": c_below,
            # the note under each table, below the empty row that ends its named ranges
            "g_note": g_below + GPU_SPARE + 1, "m_note": m_below + MODEL_SPARE + 1}
    return lo, got, rows


NEW_GPUS = {"My GPU inside", "My GPU below", "Google TPU v6e (Trillium)",
            list(tables.gpus())[-1]}
NEW_MODELS = {"My model inside", "My model below", list(tables.models())[-1]}


def test_libreoffice_itself_shows_the_new_gpus_on_cost(added):
    lo, _, _ = added
    names = {lo.get(f"Cost!A{COST_FIRST + i}", [None, None])[1]
             for i in range(len(tables.gpus()) + GPU_SPARE + 1)}
    assert NEW_GPUS <= names


def test_new_gpus_and_models_reach_cost_and_the_grids(added):
    _, got, _ = added
    n = len(tables.gpus()) + GPU_SPARE + 1  # the table grew by the inserted row
    assert NEW_GPUS <= {got["Cost"].get(f"A{COST_FIRST + i}") for i in range(n)}
    grid = {got["Sizing"].get(f"{get_column_letter(3 + j)}{GRID_TOP + 1}") for j in range(n)}
    assert NEW_GPUS <= grid
    m = len(tables.models()) + MODEL_SPARE + 1
    assert NEW_MODELS <= {got["Sizing"].get(f"A{GRID_TOP + 3 + i}") for i in range(m)}


def test_the_inserted_model_on_the_inserted_gpu(added):
    _, got, _ = added
    s = got["Sizing"]
    assert s[SIZING["weight_gb"]] == pytest.approx(26)  # 13e9 parameters × 2 bytes
    assert s[SIZING["floor_ms"]] == pytest.approx(6.5)  # 26 GB ÷ 4 TB/s
    assert isinstance(s[SIZING["real_cost_mtok"]], float)  # priced at 2.5 an hour


def test_inserted_and_appended_measurements_are_counted_for_their_gpus(added):
    _, got, rows = added
    cal = got["Calibration"]
    for r, gpu in ((rows["c_in"], "My GPU inside"), (rows["c_below"], "My GPU below")):
        assert cal[f"O{r}"] == "plausible", (r, cal.get(f"O{r}"))
        assert cal[f"Z{r}"] == gpu
    # the Sizing case scales the model by that GPU's own measurement: 10 ms ÷ the model's
    # estimate at the row (AF), its efficiency the regime's ÷ that ratio
    r = rows["c_in"]
    assert cal[f"N{r}"] == pytest.approx(cal[f"K{r}"] / 10)
    ratio = 10 / cal[f"AF{r}"]
    assert cal[f"AG{r}"] == cal[f"AH{r}"] == pytest.approx(ratio)
    sz = got["Sizing"]
    assert sz[SIZING["cal_ratio"]] == pytest.approx(ratio)
    assert sz[SIZING["calibrated"]] == pytest.approx(sz[SIZING["regime_eff"]] / ratio)


def test_no_error_value_after_the_edits(added):
    _, got, _ = added
    bad = [(sheet, ref, v) for sheet in ("Sizing", "Cost", "Finance", "Plan", "Calibration")
           for ref, v in got[sheet].items() if v in ERRORS
           and f"{sheet}!{ref}" not in CHART_GAPS]  # a curve's end, in hidden chart data
    assert bad == []


def test_a_table_fuller_than_the_places_elsewhere_says_so(added):
    """After one inserted row, filling every empty row gives one GPU (and one model) more
    than Cost and the grids have places for: the note below the table warns, in
    LibreOffice and after napkin calc; the entries within the places are all shown."""
    lo, got, rows = added
    n_gpus, n_models = len(tables.gpus()), len(tables.models())
    g_slots, m_slots = n_gpus + GPU_SPARE, n_models + MODEL_SPARE
    for sheet, ref, slots in (("GPUs", f"A{rows['g_note']}", g_slots),
                              ("Models", f"A{rows['m_note']}", m_slots)):
        warning = got[sheet][ref]
        # the table's own rows, the spare rows all filled, and the inserted one
        assert warning.startswith(f"⚠ {slots + 1} "), warning
        assert f"have {slots} places" in warning
        assert lo[f"{sheet}!{ref}"] == ["s", warning]
    cost = {got["Cost"].get(f"A{COST_FIRST + i}") for i in range(g_slots)}
    assert {f"Extra GPU {k}" for k in range(1, GPU_SPARE - 1)} <= cost
    assert f"Extra GPU {GPU_SPARE - 1}" not in cost  # the one without a place
