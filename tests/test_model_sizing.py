"""Sizing's, Calibration's and the tables' rows evaluated in Python from their
declarations (the expressions ``workbook.sizing``, ``workbook.scenario``,
``workbook.calibration`` and ``workbook.models`` write), in milliseconds: each equals the
value napkin's engine computed into the committed template, and the figures that follow
from datasheets and model configs are checked by hand beside them."""

from __future__ import annotations

import math

import pytest
from template_values import template_env

from workbook.calibration import CAL_FIRST, _row_formulas
from workbook.expr import Cell, Env
from workbook.model import gpu
from workbook.models import _kv_bytes
from workbook.scenario import answer_rows
from workbook.sheet import room_note
from workbook.sizing import SIZING, _grid_value, lookup_rows, realistic_rows


def _match(x, values, kind):
    """Excel's MATCH(x, values, 0): the 1-based place of x (text without case), #N/A."""
    assert kind == 0
    for i, v in enumerate(values, 1):
        if v == x or (isinstance(v, str) and isinstance(x, str) and v.lower() == x.lower()):
            return i
    from udfs.machinery.errors import ExcelError

    return ExcelError("#N/A", "no match")


def _countif(values, x):
    return sum(1 for v in values if v == x)


def _averageif(keys, x, values):
    picked = [v for k, v in zip(keys, values, strict=True) if k == x]
    return sum(picked) / len(picked)


#: Excel's functions the rows use beyond ``workbook.expr_values.EXCEL`` (their text rules
#: only as far as these rows need them).
FUNCTIONS = {"MATCH": _match, "COUNTIF": _countif, "AVERAGEIF": _averageif,
             "ROUND": lambda x, n: round(x, int(n)),
             "ISNA": lambda x: getattr(x, "code", None) == "#N/A",
             "NA": lambda: __import__("udfs.machinery.errors").errors.ExcelError("#N/A", "")}


def _same(a, b) -> bool:
    a, b = ("" if x is None else x for x in (a, b))  # (an empty cell is not stored)
    if isinstance(a, int | float) and isinstance(b, int | float) \
            and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=1e-12)
    return a == b


@pytest.fixture(scope="module")
def sizing() -> Env:
    env = template_env("Sizing")
    return Env(names=env.names, cells=env.cells, functions=FUNCTIONS)


def _evaluated(env: Env, rows) -> int:
    """Each row's value, label and note (where an expression) against the workbook's; the
    count compared."""
    n = 0
    for key, label, value, _fmt, note in rows:
        row = SIZING[key][1:]
        for cell, e in ((SIZING[key], value), (f"A{row}", label), (f"C{row}", note)):
            if hasattr(e, "evaluate"):
                got, want = e.evaluate(env), env.cells.get(cell)
                assert _same(got, want), (key, cell, got, want)
                n += 1
    return n


def test_sizings_lookups_realistic_rows_and_answer_in_python_are_the_workbooks(sizing):
    rows = lookup_rows(SIZING) + realistic_rows(SIZING) + answer_rows(SIZING)
    assert all(hasattr(value, "evaluate") for _k, _l, value, _f, _n in rows)
    # every row's value, and the labels and notes that are expressions
    assert _evaluated(sizing, rows) > len(rows) == 26 + 6 + 7


def test_sizings_default_scenario_by_hand(sizing):
    """The default scenario, Llama 3.1 70B in FP8 on an H100 SXM, 2,000 prompt and 300
    output tokens: Llama 3.1 70B's config.json (meta-llama/Llama-3.1-70B) has 80 layers,
    8 KV heads, head dim 8,192 ÷ 64 = 128; NVIDIA's H100 SXM datasheet 80 GB and 3.35
    TB/s."""
    v = {key: value.evaluate(sizing) for key, _label, value, _f, _n in lookup_rows(SIZING)}
    assert (v["layers"], v["kv_heads"], v["head_dim"]) == (80, 8, 128)
    assert v["kv_bytes"] == 2 * 80 * 8 * 128 * 2  # K and V, BF16: 327,680 bytes a token
    assert (v["memory"], v["bandwidth"]) == (80, 3.35)
    assert v["context"] == 2000 + 300 and v["mean_context"] == 2000 + 300 / 2
    assert (v["window"], v["sliding"]) == (0, 0)  # no sliding-window layers


def test_the_efficiency_and_layer_time_used_are_the_models(sizing):
    """Calibration's rows ship as examples, none counted: the ratio is 1, so the
    efficiency used is the regime's and the layers' time is LAYER_OVERHEAD_MS's
    (workbook.model.gpu.gpu_efficiency and layer_time, here of Sizing's ratio row)."""
    rows = {key: (value, note) for key, _l, value, _f, note in realistic_rows(SIZING)}
    c = sizing.cells
    assert rows["cal_ratio"][0].evaluate(sizing) == 1
    assert rows["calibrated"][0].evaluate(sizing) == c[SIZING["regime_eff"]]
    assert rows["layer_used"][0].evaluate(sizing) == c[SIZING["layer_ms"]]
    # the model's expression with its own ratio (no ratio cell) gives the same
    own = gpu.gpu_efficiency(Cell(SIZING["gpu"]), Cell(SIZING["regime_eff"]))
    assert own.evaluate(sizing) == c[SIZING["regime_eff"]]
    # a GPU with two counted rows of ratios 1.2 and 1.4: the ratio 1.3, the efficiency
    # ÷ 1.3 and the layers' time × 1.3 (hand: 0.52 ÷ 1.3 = 0.4; 0.2 × 1.3 = 0.26)
    env = Env(names={"CAL_GPU": ["H100", "H100", "", ""], "CAL_RATIO": [1.2, 1.4, "", ""]},
              cells={"G1": "H100"}, functions=FUNCTIONS)
    assert gpu.gpu_efficiency(Cell("G1"), 0.52).evaluate(env) == pytest.approx(0.4)
    assert gpu.layer_time(Cell("G1"), 0.2).evaluate(env) == pytest.approx(0.26)


def test_the_grids_cells_by_hand():
    """Grid 1 and 2's cell: Llama 3.1 8B (8.03 B parameters, its model card) in FP8 is
    8.03 GB: fits an 80 GB H100, not a 4 GB card; its decode floor on 3.35 TB/s is
    8.03 GB ÷ 3,350 GB/s = 2.397 ms; an empty slot is blank."""
    cells = {"A7": "Llama 3.1 8B", "B7": 8.03, "C5": "H100", "C6": 80, "D5": "small",
             "D6": 4, "E5": "", "E6": ""}
    env = Env(cells={**cells, "P1": "FP8"})
    fits = {col: _grid_value("fits", 7, col, 5, "$P$1").evaluate(env) for col in "CDE"}
    assert fits == {"C": "yes", "D": "no", "E": ""}
    env6 = Env(cells={**cells, "C6": 3.35, "P1": "FP8"})
    floor = _grid_value("floor", 7, "C", 5, "$P$1").evaluate(env6)
    assert floor == pytest.approx(8.03 / 3350 * 1000, rel=1e-9)
    # the array formula's form ("any of" as a sum of tests) gives the same
    assert _grid_value("fits", 7, "C", 5, "$P$1", elementwise=True).evaluate(env) == "yes"


def test_the_kv_bytes_per_token_of_the_models_table():
    """Models column P: 2 × KV layers × KV heads × head dim × 2 bytes; a user's row is
    empty while its name is. Llama 3.1 70B (config.json: 80 layers, 8 KV heads, head dim
    128): 327,680 bytes."""
    env = Env(cells={"A6": "Llama 3.1 70B", "D6": 80, "G6": 8, "H6": 128, "X6": ""})
    assert _kv_bytes(6, None).evaluate(env) == 327680
    assert _kv_bytes(6, None).evaluate(Env(cells={"A6": "", "D6": 1, "G6": 1, "H6": 1,
                                                  "X6": ""})) == ""


def test_the_room_note_warns_past_the_slots():
    """Three names in a table of two places: the warning, with the count; two: the text."""
    note = room_note("GPU_NAME", 2, "GPUs", "Cost", "ok")
    counta = {"COUNTA": lambda values: sum(1 for v in values if v not in (None, ""))}
    full = Env(names={"GPU_NAME": ["a", "b", "c"]}, functions=counta)
    assert note.evaluate(full).startswith("⚠ 3 GPUs in the table, but Cost have 2 places")
    assert note.evaluate(Env(names={"GPU_NAME": ["a", "b", ""]}, functions=counta)) == "ok"


def test_calibrations_example_rows_in_python_are_the_workbooks():
    """The first example row's formulas from their declaration, against the cells napkin's
    engine computed; by hand: Llama 3.1 8B in BF16 on one H100 SXM measured at 6.5 ms:
    bandwidth 3.35 TB/s × 1 GPU, the row complete; a step reads 8.03 B active parameters
    less the input embedding table, 128,256 × 4,096 (config.json: vocab_size,
    hidden_size) = 0.525 B, so 7.505 B, 15.009 GB in BF16 (2 bytes a parameter)."""
    from workbook.assumptions import PRECISION_FIRST
    from workbook.sheet import read_csv

    env = template_env("Calibration")
    r = CAL_FIRST
    cells = dict(env.cells)
    for col in ("AD", "Y"):  # empty cells (not stored)
        cells.setdefault(f"{col}{r}", "")
    last = PRECISION_FIRST + len(read_csv("udfs", "precisions.csv")) - 1
    cells[f"Assumptions!B{PRECISION_FIRST}:B{last}"] = [
        cells[f"Assumptions!B{i}"] for i in range(PRECISION_FIRST, last + 1)]
    env = Env(names=env.names, cells=cells, functions=FUNCTIONS)
    kvp = SIZING["kv_precision"]  # (as sheet_calibration passes it)
    formulas = _row_formulas(r, f"Sizing!${kvp[0]}${kvp[1:]}")
    for col, e in formulas.items():
        assert _same(e.evaluate(env), env.cells.get(f"{col}{r}", "")), col
    assert len(formulas) == 22  # every computed column, I..O, Q..W, Y, Z, AA, AB, AE..AH
    c = env.cells
    assert c[f"W{r}"] == "yes" and c[f"I{r}"] == 6.5 and c[f"S{r}"] == 3.35
    assert c[f"V{r}"] == pytest.approx(8.03 - 128256 * 4096 / 1e9, rel=1e-12)
    assert c[f"AA{r}"] == pytest.approx(2 * (8.03 - 128256 * 4096 / 1e9), rel=1e-12)


def test_the_layers_time_by_hand_and_in_excel():
    """LAYER_OVERHEAD_MS: 80 layers (Llama 3.1 70B's config.json) × 5 µs = 0.4 ms, ÷ 2
    tokens a step = 0.2 ms a token; Calibration's form in Excel's own functions
    (``in_excel``) computes the same."""
    from workbook.expr_excel import in_excel

    env = Env(names={"LAYER_TIME_US": 5.0})
    e = gpu.layers_ms(80, 2)
    assert e.evaluate(env) == pytest.approx(0.2, rel=1e-12)
    assert "LAYER_OVERHEAD_MS" not in in_excel(e).render()
    assert in_excel(e).evaluate(env) == pytest.approx(0.2, rel=1e-12)
