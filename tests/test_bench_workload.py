"""The bench's workloads (``addin.cli.bench_workload``): the generated sizing workbook is
the size the targets name and computes to hand-checked values, and the LibreOffice
baseline really recalculates what it loads."""

from __future__ import annotations

import math
import shutil
import zipfile

import openpyxl
import pytest

from addin.cli import bench_workload as bw
from addin.engine.api import calc_workbook


def test_sizing_workbook_size(tmp_path):
    """About 3,000 formula cells, ten times as many for ten copies."""
    one, ten = tmp_path / "one.xlsx", tmp_path / "ten.xlsx"
    bw.make_sizing_workbook(one, 1)
    bw.make_sizing_workbook(ten, 10)
    n1, n10 = bw._formula_count(one), bw._formula_count(ten)
    assert 2500 <= n1 <= 3500
    assert 9.8 <= n10 / n1 <= 10.2


def test_sizing_workbook_values(tmp_path):
    src = tmp_path / "one.xlsx"
    bw.make_sizing_workbook(src, 1)
    got = calc_workbook(src, tmp_path / "out.xlsx")
    assert not [k for k, v in got.items() if hasattr(v, "code")]  # no error cell
    # S1 picks model-0 (1.0E+9 parameters), gpu-0 (16 GB, 0.9 TB/s, 120 TFLOPS), BF16
    # (2 bytes a parameter), batch 1: weights 1E9 x 2 / 1E9 = 2 GB
    assert math.isclose(got["S1!B17"], 2.0, rel_tol=1e-12)
    # decode step: the weights read at 0.9 TB/s, 2E9 B / 0.9E12 B/s = 2.222 ms, more than
    # the math time 2 x 1E9 x 1 / 120E12 s = 0.0167 ms
    assert math.isclose(got["S1!B22"], 2e9 / 0.9e12 * 1e3, rel_tol=1e-9)
    assert got["S1!B8"] == 1 and got["S1!B9"] == 1  # MATCH of the first rows
    assert got["S1!B29"] == "ok"  # 2 GB of weights and cache fit in 16 GB
    # the summary's total of GPUs needed is the sum of the sheets' own figures
    assert got["Summary!D13"] == sum(got[f"S{k}!B21"] for k in range(1, 11))


@pytest.mark.skipif(not bw._soffice(), reason="LibreOffice not installed")
def test_libreoffice_baseline_recalculates(tmp_path):
    """A cell whose cached value is wrong (99 for =A1*3, A1 = 2) comes back as 6: the
    profile's OOXMLRecalcMode makes LibreOffice compute what it loads."""
    src = tmp_path / "stale.xlsx"
    wb = openpyxl.Workbook()
    wb.active["A1"] = 2
    wb.active["B1"] = "=A1*3"
    wb.save(src)
    stale = tmp_path / "stale99.xlsx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(stale, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"<f>A1*3</f><v></v>", b"<f>A1*3</f><v>99</v>")
                data = data.replace(b"<f>A1*3</f><v />", b"<f>A1*3</f><v>99</v>")
                assert b"<v>99</v>" in data
            zout.writestr(info, data)
    bw._lo_runner(bw._soffice(), tmp_path, stale)()
    out = openpyxl.load_workbook(tmp_path / "lo-out" / "stale99.xlsx", data_only=True)
    assert out.active["B1"].value == 6
    shutil.rmtree(tmp_path / "lo-profile", ignore_errors=True)
