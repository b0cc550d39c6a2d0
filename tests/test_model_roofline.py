"""Roofline's, Speedup's and the Lite edition's note formulas evaluated in Python from
their declarations (the expressions ``workbook.roofline``, ``workbook.speedup`` and
``workbook.elsewhere`` write), in milliseconds: each equals the value napkin's engine
computed into the committed template, and the figures that follow from datasheets are
checked by hand beside them."""

from __future__ import annotations

import math

import openpyxl
import pytest
from template_values import TEMPLATE, template_env

from udfs.machinery.errors import ExcelError
from workbook.elsewhere import ELSEWHERE, FLAG, MAX_LITERAL, NOTE_CELL, note_formula
from workbook.expr import Env, Text
from workbook.roofline import (
    GPU_NOTES,
    KERNEL_FIRST,
    KERNELS,
    ROOF_FIRST,
    ROOF_XS,
    SCENARIO_POINTS,
    kernel_row,
    ridge_note,
    roof_row,
    scenario_row,
)
from workbook.speedup import (
    AMDAHL_P,
    AMDAHL_S,
    GRID_HEAD,
    SPEEDUP_TOP,
    amdahl,
    ceiling,
    grid_cell,
    speedup,
)

#: Excel's functions these sheets use beyond ``workbook.expr_values.EXCEL``.
FUNCTIONS = {"ROUND": lambda x, n: round(x, int(n)),
             "ISNA": lambda x: getattr(x, "code", None) == "#N/A",
             "NA": lambda: ExcelError("#N/A", "")}


def _value(x):
    """A value as the template caches it: an error value as its code, empty as ""."""
    if isinstance(x, ExcelError):
        return x.code
    return "" if x is None else x


def _same(a, b) -> bool:
    a, b = _value(a), _value(b)
    if isinstance(a, int | float) and isinstance(b, int | float) \
            and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=1e-12)
    return a == b


def _env(sheet: str) -> Env:
    env = template_env(sheet)
    return Env(names=env.names, cells=env.cells, functions=FUNCTIONS)


@pytest.fixture(scope="module")
def roofline() -> Env:
    return _env("Roofline")


def _check(env: Env, cells: dict) -> int:
    """Each cell's declared expression against the template's value; the count."""
    for cell, e in cells.items():
        got = e.evaluate(env) if hasattr(e, "evaluate") else e
        assert _same(got, env.cells.get(cell)), (cell, got, env.cells.get(cell))
    return len(cells)


def test_roofline_rows_in_python_are_the_workbooks(roofline):
    """Every computed cell of the roofs, the kernels and the scenario's points, and the
    notes that compute, from their declarations."""
    cells = dict(GPU_NOTES)
    for i, (x, _what) in enumerate(ROOF_XS):
        cells.update({c: v for c, (v, _fmt) in roof_row(ROOF_FIRST + i, x).items()})
    for i, (_l, _u, _s, flops, nbytes, inten, why) in enumerate(KERNELS):
        r = KERNEL_FIRST + i
        cells.update({f"{c}{r}": e for c, e in kernel_row(r, flops, nbytes, inten).items()})
        if why is None:
            cells[f"I{r}"] = ridge_note(r)
    first = KERNEL_FIRST + len(KERNELS)
    for i in range(len(SCENARIO_POINTS)):
        cells.update({f"{c}{first + i}": e for c, e in scenario_row(first + i, i).items()})
    # 3 notes, 5 roofs × 10 cells, 6 kernels × 7 and a note, 2 points × 9
    assert _check(roofline, cells) == 3 + 5 * 10 + 6 * 7 + 1 + 2 * 9


def test_roofline_of_the_default_gpu_by_hand(roofline):
    """The H100 SXM (NVIDIA's H100 datasheet: 3.35 TB/s; 1,979 BF16 and 3,958 FP8 TFLOPS
    with sparsity, so 989.4 and 1,978.9 dense): the BF16 ridge 989.4 ÷ 3.35 = 295.3
    FLOP/byte, 236.3 at the roof efficiency 0.8. y = x × 2 in BF16 reads 2 bytes and
    writes 2 a FLOP: I = 0.25, 0.25 × 3.35 = 0.8375 TFLOPS, 4 × 2²⁴ bytes ÷ 3.35 TB/s =
    20.03 µs. A decode GEMM of B tokens has I = 2BDF ÷ 2DF = B: 64 × 3.35 = 214.4 TFLOPS.
    A 4096³ matmul: I = N/3 = 1,365.3, on the roof, 2 × 4096³ ÷ 989.4 TFLOPS = 138.9 µs."""
    c = roofline.cells
    ridge = roof_row(ROOF_FIRST + 2, ROOF_XS[2][0])[f"A{ROOF_FIRST + 2}"][0]
    assert ridge.evaluate(roofline) == pytest.approx(989.4 / 3.35, rel=1e-12)
    eff = roof_row(ROOF_FIRST + 1, ROOF_XS[1][0])[f"A{ROOF_FIRST + 1}"][0]
    assert eff.evaluate(roofline) == pytest.approx(0.8 * 989.4 / 3.35, rel=1e-12)
    r = KERNEL_FIRST
    row = kernel_row(r, *KERNELS[0][3:6])
    assert row["E"].evaluate(roofline) == 0.25
    assert row["P"].evaluate(roofline) == pytest.approx(0.25 * 3.35, rel=1e-12)
    assert row["G"].evaluate(roofline) == pytest.approx(4 * 2 ** 24 / 3.35e12 * 1e6,
                                                        rel=1e-12)
    assert row["H"].evaluate(roofline) == "memory-bound"
    g64 = kernel_row(r + 3, *KERNELS[3][3:6])
    assert (c[f"B{r + 3}"], g64["E"].evaluate(roofline)) == (64, 64)
    assert g64["P"].evaluate(roofline) == pytest.approx(64 * 3.35, rel=1e-12)
    mm = kernel_row(r + 5, *KERNELS[5][3:6])
    assert mm["E"].evaluate(roofline) == pytest.approx(4096 / 3, rel=1e-12)
    assert mm["G"].evaluate(roofline) == pytest.approx(2 * 4096 ** 3 / 989.4e12 * 1e6,
                                                       rel=1e-12)
    assert mm["H"].evaluate(roofline) == "compute-bound"
    # batch 295 is within 1 % of the ridge of 295.34 (295 >= 0.99 × 295.34 = 292.4): at
    # it, by the GPU's name; batch 64 (I = 64) would be below it
    assert ridge_note(r + 4).evaluate(roofline) == (
        "at (within 1 %) or past the NVIDIA H100 SXM BF16 ridge (295 FLOP/byte): "
        "batching stops being free")
    assert ridge_note(r + 3).evaluate(roofline).startswith("below the NVIDIA H100 SXM")


def test_roofline_scenario_points_by_hand(roofline):
    """The default scenario, Llama 3.1 70B (70.6 B parameters, its model card) in FP8 at
    batch 16 with 2,000 prompt and 300 output tokens, prefill sharing the GPUs: a step
    carries 16 × (1 + 2,000 ÷ 300) = 122.7 tokens, 2 × 70.6e9 × 122.7 FLOPs; the prefill
    2 × 70.6e9 × 2,000 FLOPs over one read of 70.6 GB (one byte a parameter in FP8), on
    the FP8 roof (1,978.9 TFLOPS: compute-bound at I = 4,000)."""
    first = KERNEL_FIRST + len(KERNELS)
    step, prefill = scenario_row(first, 0), scenario_row(first + 1, 1)
    assert step["C"].evaluate(roofline) == pytest.approx(
        2 * 70.6e9 * 16 * (1 + 2000 / 300), rel=1e-12)
    assert prefill["C"].evaluate(roofline) == pytest.approx(2 * 70.6e9 * 2000, rel=1e-12)
    assert prefill["D"].evaluate(roofline) == pytest.approx(70.6e9, rel=1e-12)
    assert prefill["E"].evaluate(roofline) == pytest.approx(4000, rel=1e-12)
    assert prefill["P"].evaluate(roofline) == pytest.approx(1978.9, rel=1e-12)
    assert prefill["I"].evaluate(roofline).endswith("on the NVIDIA H100 SXM's FP8 roof")


def test_roofline_without_a_flops_figure_says_so():
    """A GPU with a bandwidth but no FLOPS figure: the roofs are not drawn (#N/A), the
    memory roof is x × bandwidth, and the kernels say there is no BF16 figure."""
    env = Env(cells={"B3": "G", "B4": 2.0, "B5": "no figure", "B6": "no figure",
                     "B7": 0.8, "K12": 0.1, "K16": 10000.0, "A14": ExcelError("#N/A"),
                     "E21": 0.25, "C21": 1.0, "D21": 4.0, "P21": ExcelError("#N/A")},
              functions=FUNCTIONS)
    left, right = roof_row(12, 0.1), roof_row(16, 10000.0)
    assert _value(left["L12"][0].evaluate(env)) == "#N/A"
    assert right["O16"][0].evaluate(env) == 20000.0  # 10,000 FLOP/byte × 2 TB/s
    assert _value(ROOF_XS[2][0].evaluate(env)) == "#N/A"
    row = kernel_row(21, *KERNELS[0][3:6])
    assert [row[c].evaluate(env) for c in "FGH"] == ["no BF16 figure"] * 3
    assert ridge_note(21).evaluate(env) == "no BF16 figure for the G"
    assert GPU_NOTES["C5"].evaluate(env).startswith("no BF16 figure for this GPU")


def test_speedup_rows_in_python_are_the_workbooks():
    """The examples' speedups and the Amdahl grid from their declarations; by hand:
    20 ms → 15 ms is 20 ÷ 15 = 1.33×; 30 % made 3× faster 1 ÷ (0.7 + 0.1) = 1.25×, made
    infinitely faster 1 ÷ 0.7 = 1.43×; half the time made twice as fast 1 ÷ (0.5 +
    0.25) = 1.33× (Amdahl, "Validity of the single processor approach...", AFIPS 1967)."""
    env = _env("Speedup")
    first = SPEEDUP_TOP + 2
    examples = {f"D{first + i}": f(first + i)
                for i, f in enumerate((speedup, speedup, speedup, amdahl, ceiling))}
    grid = {}
    for i in range(len(AMDAHL_P)):
        r = GRID_HEAD + 1 + i
        for j in range(len(AMDAHL_S) + 1):
            col = chr(ord("B") + j)
            grid[f"{col}{r}"] = grid_cell(r, col if j < len(AMDAHL_S) else None)
    assert _check(env, examples) + _check(env, grid) == 5 + 11 * 7
    c = env.cells
    assert c[f"D{first}"] == pytest.approx(20 / 15, rel=1e-12)
    assert c[f"D{first + 3}"] == pytest.approx(1 / (0.7 + 0.3 / 3), rel=1e-12)
    assert c[f"D{first + 4}"] == pytest.approx(1 / 0.7, rel=1e-12)
    half = GRID_HEAD + 1 + AMDAHL_P.index(0.5)
    assert c[f"C{half}"] == pytest.approx(1 / (0.5 + 0.5 / 2), rel=1e-12)  # s = 2: C


def test_the_lite_notes_in_python_are_the_workbooks():
    """Each sheet's note is its subtitle where Start's test cell is empty (as napkin
    computed it into the template) and ``ELSEWHERE`` where that cell holds its sentence;
    the formula stored is the declaration's; a text longer than one literal (255
    characters) is split into literals and joined whole."""
    formulas = openpyxl.load_workbook(TEMPLATE)
    cached = openpyxl.load_workbook(TEMPLATE, data_only=True)
    n = 0
    for ws in formulas.worksheets:
        stored = ws[NOTE_CELL].value
        if not hasattr(stored, "text"):  # (xlwings.conf: its note sits elsewhere)
            continue
        shown = cached[ws.title][NOTE_CELL].value
        e = note_formula(shown)
        assert e.formula() == stored.text, ws.title
        assert e.evaluate(Env(cells={FLAG.replace("$", ""): ""})) == shown
        assert e.evaluate(Env(cells={FLAG.replace("$", ""): "sentence"})) == ELSEWHERE
        n += 1
    assert n >= 10
    long = "x" * 600 + '"'
    e = note_formula(long)
    assert e.evaluate(Env(cells={FLAG.replace("$", ""): ""})) == long
    literals = [a for a in _texts(e)]
    assert all(len(t.value) <= MAX_LITERAL for t in literals) and len(literals) > 3


def _texts(e):
    """Every text literal of a tree."""
    if isinstance(e, Text):
        yield e
    for child in getattr(e, "args", ()) or (getattr(e, "left", None),
                                            getattr(e, "right", None)):
        if child is not None:
            yield from _texts(child)
