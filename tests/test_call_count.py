"""The template's napkin calls: each grid, table column and sweep is one array formula
(``workbook.arrays``), on both routes (Lite's stored form and the classic add-in's plain
names), and a full recalculation of the committed template makes at most CALLS_TARGET
(300) calls, counted independently from the ``_xldudf_`` form it stores. The tables a
user inserts rows into, Models and Calibration, stay per cell: their columns are Excel's
arithmetic where napkin's function is not the point (Models none, Calibration its floor,
MBU, MFU, CALIBRATE, PLAUSIBLE, the weights read and the default efficiency, per row);
Plan's batch search calls napkin once a block of candidate batches, not once a step."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.formula import ArrayFormula

from addin.cli.bench_workload import CALLS_TARGET, napkin_calls
from addin.formula.formula_text import count_calls
from udfs.catalog import CATALOG
from udfs.inference import tables
from workbook import arrays
from workbook.arrays import widen
from workbook.build import DEFAULT_PATH, build_workbook
from workbook.calibration import CAL_FIRST, CAL_ROWS
from workbook.models import MODEL_SPARE
from workbook.plan import TP_FIRST, TP_ROWS
from workbook.plan_cells import LEVELS, SEARCH_FIRST, SEARCH_STEPS, level_columns
from workbook.sizing import GRID_TOP


def _formulas(path):
    """{(sheet, top-left cell): (formula text, array range or None)}, read with openpyxl
    (read only: nothing is saved)."""
    wb = load_workbook(path)
    out = {}
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                v = c.value
                if isinstance(v, ArrayFormula):
                    out[(ws.title, c.coordinate)] = (v.text, v.ref)
                elif isinstance(v, str) and v.startswith("="):
                    out[(ws.title, c.coordinate)] = (v, None)
    return out


def _stored_calls(text: str) -> int:
    """Calls in Excel's stored form, string literals left out: an independent count."""
    return len(re.findall(r"_xldudf_\w+\(", re.sub(r'"(?:[^"]|"")*"', '""', text)))


@pytest.fixture(scope="module")
def addin_template(tmp_path_factory):
    path = tmp_path_factory.mktemp("addin") / "napkin-addin.xlsx"
    subprocess.run([sys.executable, "-m", "addin.cli", "template", "--addin", "-o",
                    str(path)], check=True, capture_output=True)
    return path


def _plain_calls(wb) -> dict[str, int]:
    """{sheet: napkin calls} of a workbook built in memory (plain names), each array
    formula's text once."""
    names = {n.upper() for n in CATALOG}
    out = {}
    for ws in wb.worksheets:
        texts = [c.value.text if isinstance(c.value, ArrayFormula) else c.value
                 for row in ws.iter_rows() for c in row]
        out[ws.title] = sum(count_calls(t, names) for t in texts
                            if isinstance(t, str) and t.startswith("="))
    return out


def test_the_committed_template_makes_at_most_300_calls():
    formulas = _formulas(DEFAULT_PATH)
    committed = napkin_calls(DEFAULT_PATH)
    stored = sum(_stored_calls(text) for text, _ in formulas.values())
    assert stored == sum(committed.values()) <= CALLS_TARGET == 300
    assert committed == {k: v for k, v in _plain_calls(build_workbook()).items()
                         if k in committed}  # the committed template is the build's


def test_the_committed_template_counts_its_calls():
    committed = napkin_calls(DEFAULT_PATH)
    per_cell = _plain_calls(build_workbook(per_cell=True))
    with_arrays = _plain_calls(build_workbook())
    for sheet, n in committed.items():  # the tables rows are inserted into are per cell
        assert n == with_arrays[sheet] <= per_cell[sheet], sheet
        if sheet in ("Models", "Calibration"):
            assert n == per_cell[sheet], sheet
    assert sum(committed.values()) < sum(per_cell.values()) / 10


#: The napkin functions of a Calibration row: the floor (K: DECODE_STEP_MS of the
#: attention's FLOPs and the all-reduces), MBU, MFU, CALIBRATE, PLAUSIBLE, WEIGHT_GB and
#: REGIME_EFFICIENCY (AE: the model's default efficiency at the row's GPUs and batch, of
#: the model's estimate there that the measurement is divided by).
CAL_ROW_CALLS = {"DECODE_STEP_MS", "DECODE_ATTENTION_FLOP", "TP_COMM_MS", "MBU", "MFU",
                 "CALIBRATE", "PLAUSIBLE", "WEIGHT_GB", "REGIME_EFFICIENCY"}


def test_the_tables_rows_are_inserted_into_stay_per_cell():
    formulas = _formulas(DEFAULT_PATH)

    def calls(sheet, row=None):
        return sum(_stored_calls(text) for (ws, cell), (text, _) in formulas.items()
                   if ws == sheet and (row is None or
                                       int(cell.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) == row))

    # no array formula in the tables' rows (the note in the subtitle, A2, is one cell
    # above them that makes no call: workbook.elsewhere)
    assert not [k for k, (_, ref) in formulas.items()
                if ref and k[0] in ("Models", "Calibration") and k[1] != "A2"]
    assert all(formulas[(sheet, "A2")][1] == "A2" for sheet in ("Models", "Calibration"))
    # Models: Excel's arithmetic only, in its every row and the spare ones
    rows = len(tables.models()) + MODEL_SPARE
    assert sum(1 for ws, cell in formulas if ws == "Models" and cell.startswith("P")) == rows
    assert calls("Models") == 0
    # Calibration: the same napkin functions in each row, once each
    names = {m for (ws, cell), (text, _) in formulas.items() if ws == "Calibration"
             and cell.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ") == str(CAL_FIRST)
             for m in re.findall(r"_xldudf_(\w+)\(", text)}
    assert names == CAL_ROW_CALLS
    assert all(calls("Calibration", CAL_FIRST + i) == len(CAL_ROW_CALLS)
               for i in range(CAL_ROWS))
    assert calls("Calibration") == CAL_ROWS * len(CAL_ROW_CALLS)


def test_plans_search_calls_napkin_once_a_block():
    formulas = _formulas(DEFAULT_PATH)
    plan = {cell: f for (ws, cell), f in formulas.items() if ws == "Plan"}
    first, last = TP_FIRST, TP_FIRST + TP_ROWS - 1
    for k in range(SEARCH_STEPS):  # the steps: native functions, cell by cell
        col = get_column_letter(SEARCH_FIRST + k)
        for r in range(first, last + 1):
            text, ref = plan[f"{col}{r}"]
            assert ref is None and _stored_calls(text) == 0 and "INDEX(" in text
    for level in range(LEVELS):  # each block of candidates: one array formula
        a, b = level_columns(level)
        text, ref = plan[f"{a}{first}"]
        assert ref == f"{a}{first}:{b}{last}"
        assert 0 < _stored_calls(text) <= 3  # MOE_EXPERTS_READ (twice), REGIME_EFFICIENCY
    assert sum(_stored_calls(t) for t, _ in plan.values()) < 50


def test_the_built_template_computes_the_committed_values(tmp_path):
    from addin.engine.api import calc_workbook
    from tools.same_values import differences
    from workbook.build import build_template

    built = build_template(tmp_path / "built.xlsx")
    calc_workbook(built, tmp_path / "computed.xlsx")
    assert differences(DEFAULT_PATH, tmp_path / "computed.xlsx") == []


def test_both_routes_keep_the_array_formulas(addin_template):
    lite = {k: v for k, v in _formulas(DEFAULT_PATH).items() if v[1]}
    addin = {k: v for k, v in _formulas(addin_template).items() if v[1]}
    assert len(lite) > 50
    assert {k: ref for k, (_, ref) in lite.items()} == \
           {k: ref for k, (_, ref) in addin.items()}
    for key, (text, _) in addin.items():  # the add-in's VBA defines the plain names
        assert "_xldudf_" not in text
        assert text == lite[key][0].replace("_xldudf_", "")


def test_without_template_arrays_the_template_is_per_cell(monkeypatch):
    monkeypatch.setattr(arrays, "TEMPLATE_ARRAYS", False)
    wb = build_workbook()
    assert not any(isinstance(c.value, ArrayFormula) for ws in wb.worksheets
                   for row in ws.iter_rows() for c in row)
    assert _plain_calls(wb) == _plain_calls(build_workbook(per_cell=True))


def test_per_cell_form_has_no_array_formula():
    wb = build_workbook(per_cell=True)
    arrays = [c.coordinate for ws in wb.worksheets for row in ws.iter_rows() for c in row
              if isinstance(c.value, ArrayFormula)]
    assert arrays == []
    # its grid cell is the per-cell formula of the same place
    ws = build_workbook()["Sizing"]
    assert isinstance(ws[f"C{GRID_TOP + 3}"].value, ArrayFormula)  # grid 1's first cell
    head, second = GRID_TOP + 1, GRID_TOP + 4  # grid 1's GPU names, its second model
    assert wb["Sizing"][f"D{second}"].value.startswith(f'=IF(OR($A{second}="",D${head}=""')


def test_widen_follows_the_relative_parts():
    block = "C90:E92"
    assert widen('=IF($A90="","",FITS($B90,C$89)+C90+$B$19+MODEL_NAME)', block) == \
        '=IF($A90:$A92="","",FITS($B90:$B92,C$89:E$89)+C90:E92+$B$19+MODEL_NAME)'
    assert widen("='Sizing'!B5*Sizing!$B$5", "A1:A3") == "='Sizing'!B5:B7*Sizing!$B$5"


@pytest.mark.parametrize("formula", ["=AND($A1>0,1)", "=MAX(A1,2)", "=INDEX(GPU_BW,A1)",
                                     "=MATCH(A1,GPU_BW,0)", "=CHOOSE(A1,1,2)"])
def test_widen_refuses_a_moving_reference_a_function_reads_whole(formula):
    # MATCH and CHOOSE were let through by the old deny-list of reducing functions, while
    # napkin native's allow-list refused them: one table now (addin.formula.walk)
    with pytest.raises(ValueError, match="reads an array whole"):
        widen(formula, "A1:A3")
    assert widen(formula, "A1:A1") == formula  # one cell: nothing moves


def test_widen_lets_element_by_element_functions_and_napkins_through():
    assert widen("=ROUND(A1*2,1)+IF(ISNUMBER(B1),WEIGHT_GB(B1,\"BF16\"),0)", "A1:A2") == \
        '=ROUND(A1:A2*2,1)+IF(ISNUMBER(B1:B2),WEIGHT_GB(B1:B2,"BF16"),0)'
    # a fixed reference may sit inside any function
    assert widen("=A1+SUM($B$1:$B$9)", "A1:A2") == "=A1:A2+SUM($B$1:$B$9)"
