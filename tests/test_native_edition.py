"""``workbook/napkin-native.xlsx``, the template's native edition (``napkin template
--native``): committed current, Excel's own functions only, no Lite code, a Start sheet
that says what the file is, and live in LibreOffice after an edit, with no add-in."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest

from addin.formula.formula_text import called_functions, outside_strings
from udfs.catalog import CATALOG
from workbook.start import STATUS_NATIVE

ROOT = Path(__file__).resolve().parents[1]
EDITION = ROOT / "workbook" / "napkin-native.xlsx"
UNO_PYTHON = "/usr/bin/python3"


def _formulas(path: Path):
    import re

    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                yield from re.findall(r"<f[^>]*>([^<]*)</f>", z.read(name).decode("utf-8"))


def test_the_native_edition_is_current():
    proc = subprocess.run([sys.executable, "-m", "tools.regenerate", "--check",
                           "workbook/napkin-native.xlsx"], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode == 0, \
        f"{proc.stdout}{proc.stderr}run: python -m tools.regenerate workbook/napkin-native.xlsx"


def test_the_native_edition_has_excels_functions_only():
    with zipfile.ZipFile(EDITION) as z:
        assert not [n for n in z.namelist() if "webextension" in n]  # no Lite code
    ours = {name.upper() for name in CATALOG}
    formulas = list(_formulas(EDITION))
    assert len(formulas) > 3000  # the template's formula cells, translated
    called = {f.upper() for text in formulas
              for f in called_functions(outside_strings(text))}
    assert not {c.removeprefix("_XLDUDF_") for c in called} & ours
    assert not any(c.startswith("_XLDUDF_") for c in called)


def test_its_start_sheet_says_what_it_is():
    start = openpyxl.load_workbook(EDITION)["Start"]
    assert start["A3"].value == STATUS_NATIVE
    routes = " ".join(str(c.value) for row in start["A15:B20"] for c in row if c.value)
    assert "Nothing to install" in routes and "carries napkin" not in routes
    legend = " ".join(str(c.value) for row in start["A21:B24"] for c in row if c.value)
    assert "Excel's own functions only" in legend and "A napkin function" not in legend


def _has_uno() -> bool:
    if not shutil.which("soffice") or not Path(UNO_PYTHON).exists():
        return False
    return subprocess.run([UNO_PYTHON, "-c", "import uno"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _has_uno(), reason="LibreOffice with Python UNO not found")
def test_libreoffice_recalculates_it_after_a_change_of_model(tmp_path):
    """Opened in LibreOffice as it is, then with another model typed into the scenario:
    the headline figures are numbers, and they move."""
    book = tmp_path / "napkin-native.xlsx"
    shutil.copyfile(EDITION, book)
    names = openpyxl.load_workbook(EDITION).defined_names

    def cell(name):  # 'Sizing'!$B$18 -> Sizing!B18
        sheet, ref = names[name].attr_text.split("!")
        return f"{sheet.strip(chr(39))}!{ref.replace('$', '')}"

    jobs = [{"path": str(book), "edits": {}},
            {"path": str(book), "edits": {cell("SCENARIO_MODEL"): "Llama 3.1 8B"}}]
    proc = subprocess.run([UNO_PYTHON, str(ROOT / "tools" / "lo_uno.py")],
                          input=json.dumps(jobs), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    base, edited = (got["cells"] for got in json.loads(proc.stdout))
    heads = ["RESULT_GPUS", "RESULT_MONTHLY_COST", "RESULT_COST_PER_MTOK"]
    for got in (base, edited):
        assert all(got[cell(h)][0] == "n" for h in heads), [got[cell(h)] for h in heads]
    # the default scenario (README, test_cli's main job worked by hand): 18 GPUs, 18 x 2.95
    # x 730.5 = 38,789.55 a month, / (1e8 x 730.5 / 24 tokens) x 1e6 = 12.744 per million
    # output tokens
    assert base[cell("RESULT_GPUS")][1] == 18
    assert base[cell("RESULT_MONTHLY_COST")][1] == pytest.approx(18 * 2.95 * 730.5)
    assert base[cell("RESULT_COST_PER_MTOK")][1] == pytest.approx(
        18 * 2.95 * 730.5 / (1e8 * 730.5 / 24) * 1e6, abs=0.005)
    # an 8B model needs fewer GPUs than a 70B one for the same traffic
    assert edited[cell("RESULT_GPUS")][1] < base[cell("RESULT_GPUS")][1]
    assert edited[cell("RESULT_COST_PER_MTOK")][1] < base[cell("RESULT_COST_PER_MTOK")][1]
