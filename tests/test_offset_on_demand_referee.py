"""LibreOffice as the referee of formulas computed on demand (``addin/engine/demand.py``):
workbooks generated with OFFSET and INDIRECT reaching formulas the order of computing
puts later (on the same sheet and the other), ranges of them, and references written in
formulas, computed by napkin and recalculated by LibreOffice (``tools/lo_uno.py``,
``calculateAll``), every formula cell compared.

Each workbook is acyclic by construction: every formula cell has a rank drawn at random,
independent of its place, and reads (by a written reference, OFFSET or INDIRECT) only
constants and formulas of a lower rank, so most references made while computing reach a
formula placed later. Constants are small integers and formulas add and multiply by
small integers, so both engines' values are exact and must be equal.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
import xlsx_make
from scenario_support import UNO_PYTHON, has_uno
from xlsx_make import cell

from addin.engine.api import calc_workbook
from addin.ooxml.a1 import num2col

ROOT = Path(__file__).resolve().parents[1]
SHEETS, ROWS, COLS = ("S", "T"), 12, 4  # formulas in B:E of each sheet, numbers in A


def _workbook(seed: int) -> dict[str, list[str]]:
    rnd = random.Random(seed)
    places = [(s, r, c) for s in SHEETS for r in range(1, ROWS + 1) for c in range(2, COLS + 2)]
    rank = dict(zip(places, rnd.sample(range(len(places)), len(places)), strict=True))

    def lower(place, s, r1, c1, r2, c2) -> bool:  # every formula of the area ranked lower
        return all(rank.get((s, r, c), -1) < rank[place]
                   for r in range(r1, r2 + 1) for c in range(c1, c2 + 1))

    def operand(place) -> str:
        for _ in range(50):
            s, r, c = rnd.choice(SHEETS), rnd.randint(1, ROWS), rnd.randint(1, COLS + 1)
            h, w = rnd.randint(1, 3), rnd.randint(1, 2)
            if rnd.random() < 0.5:
                h = w = 1
            r2, c2 = min(r + h - 1, ROWS), min(c + w - 1, COLS + 1)
            if not lower(place, s, r, c, r2, c2):
                continue
            kind = rnd.choice(("offset", "offset", "indirect", "written"))
            if kind == "offset":
                return f"SUM(OFFSET({s}!$A$1,{r - 1},{c - 1},{r2 - r + 1},{c2 - c + 1}))"
            ref = f"{s}!{num2col(c)}{r}" + (f":{num2col(c2)}{r2}" if (r2, c2) != (r, c) else "")
            return f'SUM(INDIRECT("{ref}"))' if kind == "indirect" else f"SUM({ref})"
        return str(rnd.randint(1, 5))

    sheets: dict[str, list[str]] = {s: [] for s in SHEETS}
    for s in SHEETS:
        for r in range(1, ROWS + 1):
            sheets[s].append(cell(f"A{r}", None, rnd.randint(-3, 5)))
    for place in places:
        s, r, c = place
        k = rnd.randint(1, 3)
        text = f"{operand(place)}*{k}+{operand(place)}" if rnd.random() < 0.7 else \
            operand(place)
        sheets[s].append(cell(f"{num2col(c)}{r}", text, 0))
    for s in SHEETS:  # (rows in order, as Excel writes them)
        sheets[s].sort(key=lambda x: (int("".join(ch for ch in x.split('"')[1] if ch.isdigit())),
                                      x.split('"')[1]))
    return sheets


@pytest.mark.skipif(not has_uno(), reason="needs LibreOffice and its uno module")
def test_napkin_and_libreoffice_agree_on_references_made_to_later_formulas(tmp_path):
    jobs, ours = [], {}
    for seed in range(4):
        src = xlsx_make.write(tmp_path / f"w{seed}.xlsx", _workbook(seed))
        kept = []
        ours[str(src)] = calc_workbook(src, None, {}, notes=[], kept=kept)
        assert kept == []
        jobs.append({"path": str(src), "edits": {}})
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    proc = subprocess.run([UNO_PYTHON, str(ROOT / "tools" / "lo_uno.py")],
                          stdin=(tmp_path / "jobs.json").open(), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    compared = 0
    for job, done in zip(jobs, json.loads(proc.stdout), strict=True):  # (in order)
        for label, value in ours[job["path"]].items():
            assert done["cells"].get(label) == ["n", value], (job["path"], label, value)
            compared += 1
    assert compared == 4 * len(SHEETS) * ROWS * COLS
