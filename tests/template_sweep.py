"""Many Sizing / Cost / Finance cases of the template computed in one ``napkin calc`` run.

The template answers one case (model, precision, GPU) at a time. To check many cases
without computing the whole workbook once per case, :func:`sweep_workbook` writes a copy of
the template with, for each case, its own copy of the Sizing and Finance sheets (``S1``,
``F1``...; the model × GPU grids left out) whose references to Sizing point at the copy,
and one copy of the Cost sheet (``C1``...) per model and precision (Cost covers every GPU
itself). One ``napkin calc`` then computes every case; :func:`errors` lists the error
cells of each.

Used by ``tests/test_template.py`` on a sample of cases (CI time), and as a script on every
model × GPU × precision of the tables::

    python tests/template_sweep.py            # all precisions (slow: one workbook per model)
    python tests/template_sweep.py BF16 FP8   # some precisions
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from udfs import tables  # noqa: E402
from workbook.build import GRID_TOP, SIZING, build_template  # noqa: E402

ERRORS = ("#N/A", "#VALUE!", "#NUM!", "#DIV/0!", "#REF!", "#NAME?", "#NULL!", "#CALC!",
          "#SPILL!")
_SIZING_REF = re.compile(r"(?<![A-Za-z0-9_'])Sizing!")


def _copy(wb, title: str, new: str, sizing: str | None, last_row: int | None = None):
    ws = wb.copy_worksheet(wb[title])
    ws.title = new
    if last_row is not None and ws.max_row > last_row:
        ws.delete_rows(last_row + 1, ws.max_row - last_row)
    if sizing:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    c.value = _SIZING_REF.sub(f"'{sizing}'!", c.value)
    return ws


def sweep_workbook(path: Path, cases: list[tuple[str, str, str]],
                   changes: dict[str, object] | None = None, costs=None) -> dict:
    """Write the template to ``path`` with one Sizing + Finance copy per case
    (model, precision, GPU) and one Cost copy per (model, precision) of ``costs`` (None:
    all); ``changes`` are input cells ("Sheet!B5": value) set first. Returns
    {case: (sizing, finance, cost or None)} sheet names."""
    build_template(path)
    wb = openpyxl.load_workbook(path)
    for ref, value in (changes or {}).items():
        sheet, cell = ref.split("!")
        wb[sheet][cell] = value
    names, cost_of = {}, {}
    for i, (model, precision, gpu) in enumerate(cases, start=1):
        s = _copy(wb, "Sizing", f"S{i}", None, GRID_TOP - 2)
        s[SIZING["model"]], s[SIZING["precision"]], s[SIZING["gpu"]] = model, precision, gpu
        f = _copy(wb, "Finance", f"F{i}", s.title)
        key = (model, precision)
        if key not in cost_of and (costs is None or key in costs):
            cost_of[key] = _copy(wb, "Cost", f"C{len(cost_of) + 1}", s.title).title
        names[(model, precision, gpu)] = (s.title, f.title, cost_of.get(key))
    wb.save(path)
    return names


def compute(src: Path, dst: Path) -> None:
    """``napkin calc SRC -o DST``, as a user runs it."""
    proc = subprocess.run([sys.executable, "-m", "addin.cli", "calc", str(src), "-o", str(dst)],
                          capture_output=True, text=True, cwd=ROOT, timeout=3000)
    assert proc.returncode == 0, proc.stderr


def errors(dst: Path, names: dict) -> dict:
    """{case: [(sheet, cell, error)]} of the computed sweep workbook, cases with errors."""
    wb = openpyxl.load_workbook(dst, data_only=True)
    found = {}
    for case, sheets in names.items():
        bad = [(t, c.coordinate, c.value) for t in sheets if t for row in wb[t].iter_rows()
               for c in row if isinstance(c.value, str) and c.value in ERRORS]
        if bad:
            found[case] = bad
    return found


def main(precisions: list[str]) -> int:
    """Every model × GPU × precision of the tables: one sweep workbook per model."""
    gpus = list(tables.gpus())
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for model in tables.models():
            cases = [(model, p, g) for p in precisions for g in gpus]
            src, dst = Path(tmp) / "sweep.xlsx", Path(tmp) / "sweep-calc.xlsx"
            t0 = time.perf_counter()
            names = sweep_workbook(src, cases)
            compute(src, dst)
            bad = errors(dst, names)
            failed += len(bad)
            print(f"{model}: {len(cases)} cases, {len(bad)} with an error cell "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
            for case, cells in list(bad.items())[:5]:
                print("   ", case, cells[:4])
    return 1 if failed else 0


if __name__ == "__main__":
    prec = sys.argv[1:] or [r["name"] for r in
                            __import__("workbook.sheet", fromlist=["read_csv"]).read_csv(
                                "udfs", "precisions.csv")]
    sys.exit(main(prec))
