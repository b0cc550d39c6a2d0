"""Many Sizing / Cost / Finance cases of the template computed in one ``napkin calc`` run.

The template answers one case (model, precision, GPU) at a time. To check many cases
without computing the whole workbook once per case, ``sweep_workbook`` writes a copy of
the template with, for each case, its own copy of the Sizing and Finance sheets (``S1``,
``F1``...; the model × GPU grids left out) whose references to Sizing point at the copy,
and one copy of the Cost sheet (``C1``...) per model and precision (Cost covers every GPU
itself). One ``napkin calc`` then computes every case; ``errors`` lists the error
cells of each.

Used by ``tests/test_sweep.py`` on a sample of cases (CI time), and as a script on every
model × GPU × precision of the tables, or the ones named::

    python tests/template_sweep.py                          # everything (hours on 2 cores)
    python tests/template_sweep.py --precision BF16         # every model × GPU in BF16
    python tests/template_sweep.py --gpu "NVIDIA T4" --cost-precision FP8

About 170 formulas a case (Sizing and Finance) and 740 a Cost copy (every GPU of one model
and precision): on the order of a second of CPU a case.
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

from udfs.inference import tables  # noqa: E402
from workbook.build import GRID_TOP, SIZING, build_template  # noqa: E402
from workbook.scenario import RESULT_NAMES, SCENARIO_NAMES  # noqa: E402

ERRORS = ("#N/A", "#VALUE!", "#NUM!", "#DIV/0!", "#REF!", "#NAME?", "#NULL!", "#CALC!",
          "#SPILL!")
_SIZING_REF = re.compile(r"(?<![A-Za-z0-9_'])Sizing!")
#: The scenario's names (cells of Sizing), rewritten in a copy to the copy's cells.
_NAMED = {**SCENARIO_NAMES, **RESULT_NAMES}
_NAME_REF = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(sorted(_NAMED, key=len, reverse=True))
                       + r")(?![A-Za-z0-9_(])")


def _to_copy(formula: str, sizing: str) -> str:
    """``formula`` with its references to Sizing (by cell and by the scenario's names) made
    references to the copy ``sizing``."""
    def cell(m):
        ref = SIZING[_NAMED[m[1]]]
        return f"'{sizing}'!${ref[0]}${ref[1:]}"
    return _NAME_REF.sub(cell, _SIZING_REF.sub(f"'{sizing}'!", formula))


def _copy(wb, title: str, new: str, sizing: str | None, last_row: int | None = None):
    ws = wb.copy_worksheet(wb[title])
    ws.title = new
    if last_row is not None and ws.max_row > last_row:
        ws.delete_rows(last_row + 1, ws.max_row - last_row)
    if sizing:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    c.value = _to_copy(c.value, sizing)
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


def _hidden(ws) -> set[str]:
    """The letters of the hidden columns of ``ws`` (a dimension may span several)."""
    return {openpyxl.utils.get_column_letter(i) for d in ws.column_dimensions.values()
            if d.hidden for i in range(d.min or 1, (d.max or d.min or 1) + 1)}


def errors(dst: Path, names: dict) -> dict:
    """{case: [(sheet, cell, error)]} of the computed sweep workbook, cases with errors."""
    wb = openpyxl.load_workbook(dst, data_only=True)
    found = {}
    for case, sheets in names.items():  # #N/A in hidden chart data ends a curve: by design
        bad = [(t, c.coordinate, c.value) for t in sheets if t for row in wb[t].iter_rows()
               for c in row if isinstance(c.value, str) and c.value in ERRORS
               and c.column_letter not in _hidden(wb[t])]
        if bad:
            found[case] = bad
    return found


def run(cases: list[tuple[str, str, str]], costs=None, chunk: int = 250,
        log=print) -> tuple[int, dict]:
    """Compute ``cases`` in workbooks of ``chunk`` cases each; Cost copies for the
    (model, precision) pairs of ``costs`` (None: every pair of the cases). Returns (number
    of cases computed, {case: error cells})."""
    bad: dict = {}
    if costs is None:
        costs = {(m, p) for m, p, _ in cases}
    done_costs: set = set()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(0, len(cases), chunk):
            part = cases[i:i + chunk]
            want = {(m, p) for m, p, _ in part if (m, p) in costs} - done_costs
            done_costs |= want
            src, dst = Path(tmp) / "sweep.xlsx", Path(tmp) / "sweep-calc.xlsx"
            t0 = time.perf_counter()
            names = sweep_workbook(src, part, costs=want)
            compute(src, dst)
            found = errors(dst, names)
            bad.update(found)
            log(f"cases {i + 1}-{i + len(part)} of {len(cases)} (+{len(want)} Cost copies): "
                f"{len(found)} with an error cell ({time.perf_counter() - t0:.0f} s)")
            for case, cells in list(found.items())[:5]:
                log(f"    {case} {cells[:4]}")
    return len(cases), bad


def main(argv: list[str]) -> int:
    """Every model × GPU × precision of the tables (or those named), in workbooks of
    ``--chunk`` cases; prints the counts and the error cells found, grouped by cell."""
    import argparse

    from workbook.sheet import read_csv

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--precision", action="append", help="default: every precision")
    ap.add_argument("--model", action="append", help="default: every model")
    ap.add_argument("--gpu", action="append", help="default: every GPU")
    ap.add_argument("--cost-precision", action="append",
                    help="Cost copies only for these precisions (default: every one swept)")
    ap.add_argument("--chunk", type=int, default=250, help="cases per workbook")
    ap.add_argument("--cycle", action="store_true",
                    help="each model on each GPU once, the precisions taken in turn (every "
                         "model meets every GPU and every precision, not every combination)")
    a = ap.parse_args(argv)
    precisions = a.precision or [r["name"] for r in read_csv("udfs", "precisions.csv")]
    models = a.model or list(tables.models())
    gpus = a.gpu or list(tables.gpus())
    if a.cycle:
        cases = [(m, precisions[(i + j) % len(precisions)], g)
                 for i, m in enumerate(models) for j, g in enumerate(gpus)]
    else:
        cases = [(m, p, g) for p in precisions for m in models for g in gpus]
    costs = {(m, p) for m in models for p in (a.cost_precision or precisions)}
    n, bad = run(cases, costs, a.chunk, log=lambda s: print(s, flush=True))
    by_cell: dict = {}
    for case, cells in bad.items():
        for sheet, ref, err in cells:
            kind = sheet.rstrip("0123456789")  # S -> Sizing, F -> Finance, C -> Cost
            by_cell.setdefault((kind, ref, err), []).append(case)
    print(f"{n} cases, {len(bad)} with an error cell")
    for (kind, ref, err), where in sorted(by_cell.items()):
        print(f"  {kind}!{ref} {err}: {len(where)} cases, e.g. {where[:3]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
