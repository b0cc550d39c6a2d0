"""Every visible cell readable when printed, for the widest figures the tables give: the
native edition in LibreOffice with the largest model on the priciest GPU, and with
DeepSeek-R1, printed to PDF; no cell prints ``###`` (a number wider than its column).

LibreOffice draws Calibri in DejaVu Sans here (wider), so a column that holds its number
here holds it in Excel's Calibri too.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from scenario_support import UNO_PYTHON, cell_of, has_uno

from udfs.inference import tables

pytestmark = pytest.mark.xml

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "workbook" / "napkin-native.xlsx"


def largest_model() -> str:
    models = tables.models()
    return max(models, key=lambda n: float(models[n]["total_params_B"] or 0))


def priciest_gpu() -> str:
    with open(ROOT / "workbook" / "data" / "gpu_prices.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return max(rows, key=lambda r: float(r["price_per_gpu_hour_usd"] or 0))["name"]


CASES = {"largest-on-priciest": (largest_model(), priciest_gpu()),
         "deepseek-r1": ("DeepSeek-R1", None)}


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_cell_prints_hashes(case, tmp_path):
    if not (has_uno() and shutil.which("pdftotext")):
        pytest.skip("needs LibreOffice with Python UNO and pdftotext")
    model, gpu = CASES[case]
    book = openpyxl.load_workbook(NATIVE, read_only=False)
    edits = {"!".join(cell_of(book, "SCENARIO_MODEL")): model}
    if gpu:
        edits["!".join(cell_of(book, "SCENARIO_GPU"))] = gpu
    saved = tmp_path / f"{case}.xlsx"
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([{"path": str(NATIVE), "edits": edits, "save": str(saved)}]))
    proc = subprocess.run([UNO_PYTHON, str(ROOT / "tools" / "lo_uno.py")],
                          stdin=jobs.open(), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    [job] = json.loads(proc.stdout)
    assert job["cells"]["!".join(cell_of(book, "SCENARIO_MODEL"))] == ["s", model]
    subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path}/lo", "--headless",
                    "--convert-to", "pdf", "--outdir", str(tmp_path), str(saved)],
                   check=True, capture_output=True, timeout=600)
    text = subprocess.run(["pdftotext", "-layout", str(tmp_path / f"{case}.pdf"), "-"],
                          capture_output=True, text=True, check=True).stdout
    hashes = [line.strip() for line in text.splitlines() if "###" in line]
    assert hashes == [], f"{model} on {gpu or 'the default GPU'}: {hashes}"


def test_the_lite_edition_says_which_file_to_open_elsewhere(tmp_path):
    """The Lite edition opened in LibreOffice (no xlwings Lite): before any edit, Start
    says napkin's functions are not there and names the native edition; computed by
    napkin (as xlwings Lite computes it) the cell is empty."""
    from workbook.start import WITHOUT_LITE, WITHOUT_LITE_CELL

    lite = ROOT / "workbook" / "napkin.xlsx"
    ws = openpyxl.load_workbook(lite, data_only=True)["Start"]
    assert ws[WITHOUT_LITE_CELL].value in (None, "")  # napkin's cached value: it computes
    if not shutil.which("soffice"):
        pytest.skip("LibreOffice is not installed")
    subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path}/lo", "--headless",
                    "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76", "--outdir",
                    str(tmp_path), str(lite)], check=True, capture_output=True, timeout=600)
    rows = list(csv.reader((tmp_path / "napkin.csv").open(encoding="utf-8")))
    row = int(WITHOUT_LITE_CELL[1:])
    assert rows[row - 1][0] == WITHOUT_LITE  # on opening: LibreOffice recomputed it
    assert "napkin-native.xlsx" in WITHOUT_LITE
