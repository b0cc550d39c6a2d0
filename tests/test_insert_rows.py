"""A row inserted anywhere in the GPUs, Models and Calibration tables -- above the first
row, inside, below the last -- reaches the headline, in both editions: done as a user does
it in LibreOffice (through its UNO API, ``tools/lo_uno.py``), with no unprotecting (the
table sheets are not protected, ``workbook.build.TABLE_SHEETS``): LibreOffice's own insert
row, the row of a built-in entry copied into it (its formulas follow), a new name and
figures typed over it; then the Sizing scenario set to the inserted model on the
inserted GPU with the inserted measurement. The headline (``RESULT_*``) is checked
against a hand calculation in LibreOffice's own recalculation (the native edition: the
add-in's edition calls functions LibreOffice does not have) and after ``napkin calc`` of
the file LibreOffice saved (both editions). In the native edition the measurement is
typed in Calibration's last empty row, the row inserted there left empty (``_job`` says
why).

The inserted rows copy Llama 3.1 70B and the NVIDIA H100 SXM under new names, with a
price of 3.5 an hour, and a measurement of them at the scenario's own case (FP8, two
GPUs, batch 16, 2,300 tokens of context) of 1.6 × the floor: the scenario then divides
the floor by that GPU's own efficiency (floor ÷ measured) and adds no layers' fixed time
(a measurement includes it), so its step is the measured time.
"""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import openpyxl
import pytest
from scenario_support import H100, S, by_hand, has_uno
from template_support import engine_calc

from udfs.inference import tables
from workbook.build import (
    CAL_FIRST,
    CAL_ROWS,
    DEFAULT_PATH,
    GPU_FIRST,
    GPU_SPARE,
    MODEL_FIRST,
    MODEL_SPARE,
    SIZING,
    TABLE_SHEETS,
)

ROOT = Path(__file__).resolve().parents[1]
UNO_PYTHON = "/usr/bin/python3"
NATIVE = DEFAULT_PATH.with_name("napkin-native.xlsx")
MODEL = "Llama 3.1 70B"
PRICE = 3.5
#: the default scenario but for the model and GPU (FP8 weights, batch 16, 2,000 + 300
#: tokens, 100 M output tokens a day, peak 2 × the average, utilization 0.6) and prefill
#: on other GPUs (serving "disaggregated"): the measurement typed on Calibration, a decode
#: step at the scenario's mean context (2,000 + 300 ÷ 2 = 2,150 tokens), then has Sizing's
#: floor, and the realistic step is the measured one
CASE = dict(weight_bytes=1, batch=16, prompt=2000, output=300, tokens_day=1e8, peak=2,
            util=0.6, hours=8766 / 12, aggregated=False)
MEAN_CONTEXT = 2000 + 300 // 2
#: the rows a new entry is inserted at, in each table: the first row (above it), inside,
#: and the empty row under the table (below its last row, the spare rows' last)
PLACES = {
    "top": (GPU_FIRST, MODEL_FIRST, CAL_FIRST),
    "inside": (GPU_FIRST + 3, MODEL_FIRST + 3, CAL_FIRST + 3),
    "below": (GPU_FIRST + len(tables.gpus()) + GPU_SPARE,
              MODEL_FIRST + len(tables.models()) + MODEL_SPARE, CAL_FIRST + CAL_ROWS),
}

pytestmark = pytest.mark.skipif(not has_uno(), reason="LibreOffice with Python UNO not found")


def _floor_and_headline() -> tuple[float, float, int, dict]:
    """The scenario's floor by hand (``by_hand``: the H100's and Llama 3.1 70B's figures),
    the measured step (1.6 × it, to 0.01 ms), the GPUs per replica and the headline with
    that step."""
    # the copied row is a user's: a step reads its input embedding table too (column V
    # is its active parameters, C); 70.6 GB of FP8 weights and 16 × 2,300 tokens of KV
    # cache (12.06 GB) fit on 2 GPUs of 80 GB
    hand = by_hand(MODEL, H100, price=PRICE, eff=1, reads_embedding=True, **CASE)
    floor, t = hand["RESULT_FLOOR_STEP_MS"], hand["RESULT_GPUS_PER_REPLICA"]
    assert t == 2
    step = round(1.6 * floor, 2)
    per_replica = CASE["batch"] * 1000 / step
    replicas = math.ceil(CASE["tokens_day"] / 86400 * CASE["peak"]
                         / (per_replica * CASE["util"]))
    monthly = replicas * t * PRICE * CASE["hours"]
    return floor, step, t, {
        "RESULT_GPUS_PER_REPLICA": t, "RESULT_FLOOR_STEP_MS": floor, "RESULT_STEP_MS": step,
        "RESULT_REPLICAS": replicas, "RESULT_GPUS": replicas * t,
        "RESULT_MONTHLY_COST": monthly,
        "RESULT_COST_PER_MTOK": monthly / (CASE["tokens_day"] * CASE["hours"] / 24) * 1e6}


FLOOR, STEP, TP, HEADLINE = _floor_and_headline()


def _after(row: int, at: int) -> int:
    """Where row ``row`` is once a row is inserted at ``at``."""
    return row + 1 if row >= at else row


def _job(src: Path, saved: Path, place: str, last_col: dict, native: bool) -> dict:
    """The edits of ``place``: a row inserted in each table there, a built-in row copied
    into it, its name (and the GPU's price, the measurement) typed over it, the
    scenario set to them. In the native edition the measurement goes in Calibration's
    last empty row instead (the row inserted is left empty): its napkin functions are
    computed on helper rows made for the rows it was built with, which a row copied into
    an inserted one does not get (it would show the helper of the row it was copied
    from)."""
    g, m, c = PLACES[place]
    gpu, model = f"My GPU {place}", f"My model {place}"
    h100 = _after(GPU_FIRST + list(tables.gpus()).index(H100), g)
    llama = _after(MODEL_FIRST + list(tables.models()).index(MODEL), m)
    example = _after(CAL_FIRST, c)
    measured = {"A": model, "B": "FP8", "C": gpu, "D": TP, "E": 16, "F": MEAN_CONTEXT, "G": STEP,
                "H": None, "P": "mine", "X": "yes", "AC": 1, "AD": None}
    c_typed = _after(CAL_FIRST + CAL_ROWS - 1, c) if native else c
    edits = {f"GPUs!A{g}": gpu, f"GPUs!L{g}": PRICE, f"Models!A{m}": model,
             **{f"Calibration!{col}{c_typed}": v for col, v in measured.items()},
             S["SCENARIO_MODEL"]: model, S["SCENARIO_GPU"]: gpu,
             S["SCENARIO_PRECISION"]: "FP8", S["SCENARIO_SERVING"]: "disaggregated"}
    return {"path": str(src), "save": str(saved),
            "insert_rows": [["GPUs", g], ["Models", m], ["Calibration", c]],
            "copy": [["GPUs", f"A{h100}:{last_col['GPUs']}{h100}", f"A{g}"],
                     ["Models", f"A{llama}:{last_col['Models']}{llama}", f"A{m}"]] + (
                [] if native else [["Calibration", f"A{example}:{last_col['Calibration']}"
                                                   f"{example}", f"A{c}"]]),
            "edits": edits}


@pytest.fixture(scope="module")
def inserted(tmp_path_factory):
    """{(edition, place): (LibreOffice's own cells, napkin calc's values of the saved
    file, the saved file)} for both editions and every place, in one LibreOffice."""
    d = tmp_path_factory.mktemp("insert")
    jobs, keys = [], []
    for edition, src in (("addin", DEFAULT_PATH), ("native", NATIVE)):
        ws = openpyxl.load_workbook(src, read_only=True)
        last_col = {name: ws[name].max_column for name in TABLE_SHEETS}
        last_col = {k: openpyxl.utils.get_column_letter(v) for k, v in last_col.items()}
        for place in PLACES:
            jobs.append(_job(src, d / f"{edition}-{place}.xlsx", place, last_col,
                             edition == "native"))
            keys.append((edition, place))
    proc = subprocess.run([UNO_PYTHON, str(ROOT / "tools" / "lo_uno.py")],
                          input=json.dumps(jobs), capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = {}
    for key, job, got in zip(keys, jobs, json.loads(proc.stdout), strict=True):
        saved = Path(job["save"])
        computed = saved.with_name(saved.stem + "-calc.xlsx")
        engine_calc(saved, computed)  # what napkin calc computes, in this process
        wb = openpyxl.load_workbook(computed, data_only=True)
        values = {ws.title: {c.coordinate: c.value for row in ws.iter_rows() for c in row
                             if c.value is not None} for ws in wb}
        out[key] = (got["cells"], values, saved)
    return out


def _headline(book, read) -> dict:
    """The ``RESULT_*`` figures of ``HEADLINE``, each read by ``read(sheet, cell)``."""
    out = {}
    for name in HEADLINE:
        sheet, _, cell = book.defined_names[name].attr_text.partition("!")
        out[name] = read(sheet.strip("'"), cell.replace("$", ""))
    return out


def _check(got: dict, where) -> None:
    for name, want in HEADLINE.items():
        assert got[name] == pytest.approx(want, rel=1e-9), (where, name, got[name], want)


CASES = [(e, p) for e in ("addin", "native") for p in PLACES]


@pytest.mark.parametrize("edition, place", CASES)
def test_napkin_calc_of_the_saved_file_gives_the_headline_by_hand(inserted, edition, place):
    _, values, saved = inserted[edition, place]
    book = openpyxl.load_workbook(saved)
    _check(_headline(book, lambda s, c: values[s].get(c)), (edition, place, "napkin calc"))
    cal = values["Calibration"]
    row = PLACES[place][2]
    if edition == "native":  # the measurement in the last empty row (``_job``)
        row = _after(CAL_FIRST + CAL_ROWS - 1, row)
    assert cal[f"O{row}"] == "plausible" and cal[f"Z{row}"] == f"My GPU {place}"
    assert cal[f"N{row}"] == pytest.approx(FLOOR / STEP, rel=1e-9)  # floor ÷ measured


@pytest.mark.parametrize("place", PLACES)
def test_libreoffice_itself_gives_the_headline_by_hand(inserted, place):
    """LibreOffice computes the native edition itself: its own recalculation after the
    inserts gives the same headline."""
    lo, _, saved = inserted["native", place]
    book = openpyxl.load_workbook(saved)
    _check(_headline(book, lambda s, c: lo[f"{s}!{c}"][1]), ("native", place, "LibreOffice"))


@pytest.mark.parametrize("place", PLACES)
def test_libreoffice_lists_the_inserted_gpu_where_the_add_in_is_not_needed(inserted, place):
    """In the add-in's edition LibreOffice has no napkin functions, but the tables'
    names it computes reach every sheet: the inserted GPU and model are in Sizing's
    lookups (their rows in the tables) and the price is the inserted row's."""
    lo, values, _ = inserted["addin", place]
    g, m, _ = PLACES[place]
    assert lo[S["SCENARIO_PRICE_PER_GPU_HOUR"]][1] == PRICE
    assert lo[f"Sizing!{SIZING['gpu_row']}"][1] == g - GPU_FIRST + 1
    assert lo[f"Sizing!{SIZING['model_row']}"][1] == m - MODEL_FIRST + 1
    assert values["Sizing"][SIZING["gpu_row"]] == g - GPU_FIRST + 1


def test_the_table_sheets_are_not_protected_the_others_are():
    """The table sheets are open to inserting, sorting and filtering rows; every other
    sheet keeps its protection (typing lands in the yellow cells only)."""
    for path in (DEFAULT_PATH, NATIVE):
        wb = openpyxl.load_workbook(path)
        for ws in (ws for ws in wb if not ws.title.startswith("napkin_")):  # (helpers)
            assert bool(ws.protection.sheet) == (ws.title not in TABLE_SHEETS), ws.title
