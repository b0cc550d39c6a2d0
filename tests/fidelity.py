"""Compare what ``napkin calc`` writes with the values Excel cached in a workbook.

Used by ``tests/test_fidelity.py`` (the corpus test). For a workbook saved by Excel, every
formula cell that has a cached value (``<v>``) is a check: after ``calc_workbook`` the
output's cached value must equal the input's -- numbers to 1e-9 relative (1e-12 absolute
near zero), text and booleans exactly, errors by their code. Reading and comparing the
cached values is ``addin.engine.census``'s (the refusal census counts cells as this
test does).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from addin.engine.api import calc_workbook
from addin.engine.census import ABS, REL, cached_values, compared_cells, same, volatile_cells
from addin.ooxml.guard import WorkbookError

__all__ = ["REL", "ABS", "cached_values", "same", "volatile_cells", "check", "Outcome"]


@dataclass
class Outcome:
    path: str
    refused: str | None = None  # the refusal's message (strict mode)
    crashed: str | None = None  # an exception other than a refusal
    cells: int = 0  # formula cells with a cached value
    wrong: list = field(default_factory=list)  # [(sheet, r, c, excel, ours)]
    kept: int = 0  # cells compared that keep Excel's values (addin/engine/kept.py)
    kept_cells: int = 0  # every formula cell that keeps Excel's value

    @property
    def ok(self) -> bool:
        return self.crashed is None and not self.wrong


def check(path, strict: bool = True, functions=None) -> Outcome:
    """Compute ``path`` into a temporary copy, as ``napkin calc`` does (strict: the
    cells it does not compute keep Excel's values where that is safe,
    ``addin.engine.kept``), and compare cached values, the cells kept left out."""
    path = Path(path)
    res = Outcome(str(path))
    expected = compared_cells(path)
    res.cells = len(expected)
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "out.xlsx"
        try:
            kept: list = []
            calc_workbook(path, out, functions, strict=strict,
                          kept=kept if strict else None)
        except WorkbookError as ex:
            res.refused = str(ex)
            return res
        except Exception as ex:  # reported, the test fails on it
            res.crashed = f"{type(ex).__name__}: {ex}"
            return res
        got = cached_values(out)
    held = {p for r in kept for p in r.positions}
    res.kept, res.kept_cells = sum(key in held for key in expected), len(held)
    for key, excel in expected.items():
        if key in held:
            continue
        ours = got.get(key, "<no value>")
        if not same(excel, ours):
            res.wrong.append((*key, excel, ours))
    return res
