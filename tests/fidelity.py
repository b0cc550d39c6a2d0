"""Compare what ``napkin calc`` writes with the values Excel cached in a workbook.

Used by ``tests/test_fidelity.py`` (the corpus test). For a workbook saved by Excel, every
formula cell that has a cached value (``<v>``) is a check: after ``calc_workbook`` the
output's cached value must equal the input's -- numbers to 1e-9 relative (1e-12 absolute
near zero), text and booleans exactly, errors by their code.
"""

from __future__ import annotations

import math
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from zipfile import ZipFile

from addin.engine.api import calc_workbook
from addin.engine.book import Workbook
from addin.engine.evaluator import Evaluation
from addin.ooxml import xlsx_values as xv
from addin.ooxml.guard import WorkbookError

REL, ABS = 1e-9, 1e-12


def cached_values(path) -> dict[tuple[str, int, int], object]:
    """``{(sheet, row, col): value}`` of every formula cell with a cached value.

    Values: float, str, bool, or ``("#ERR", code)`` for an error value."""
    out = {}
    with ZipFile(path) as zf:
        book = xv.read_book(zf)
        ss = book.shared_strings
        for part in book.sheets:
            for cell in xv.read_cells(zf.read(part.path).decode("utf-8")):
                if cell.f is None or cell.v is None and cell.inline is None:
                    continue
                if cell.f_type == "dataTable":
                    continue
                out[(part.name, cell.row, cell.col)] = _value(cell, ss)
    return out


def _value(cell, ss):
    t, v = cell.t or "n", cell.v
    if t == "inlineStr":
        return cell.inline if cell.inline is not None else (v or "")
    if t == "s":
        return ss[int(v)]
    if t == "str":
        return xv.decode_xstring(v)
    if t == "b":
        return v.strip() in ("1", "true")
    if t == "e":
        return ("#ERR", v.strip())
    try:
        return float(v)
    except ValueError:
        return v


def same(excel, ours) -> bool:
    if isinstance(excel, tuple) or isinstance(ours, tuple):
        return excel == ours
    if isinstance(excel, bool) or isinstance(ours, bool):
        return type(excel) is type(ours) and excel == ours
    if isinstance(excel, float) and isinstance(ours, float):
        return math.isclose(excel, ours, rel_tol=REL, abs_tol=ABS)
    return excel == ours


@dataclass
class Outcome:
    path: str
    refused: str | None = None  # the refusal's message (strict mode)
    crashed: str | None = None  # an exception other than a refusal
    cells: int = 0  # formula cells with a cached value
    wrong: list = field(default_factory=list)  # [(sheet, r, c, excel, ours)]

    @property
    def ok(self) -> bool:
        return self.crashed is None and not self.wrong


def check(path, strict: bool = True, functions=None) -> Outcome:
    """Compute ``path`` into a temporary copy and compare cached values."""
    path = Path(path)
    res = Outcome(str(path))
    expected = cached_values(path)
    try:
        skip = volatile_cells(path)
    except Exception:  # a file the engine refuses to read: no skips
        skip = set()
    expected = {k: v for k, v in expected.items() if k not in skip}
    res.cells = len(expected)
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "out.xlsx"
        try:
            calc_workbook(path, out, functions, strict=strict)
        except WorkbookError as ex:
            res.refused = str(ex)
            return res
        except Exception as ex:  # reported, the test fails on it
            res.crashed = f"{type(ex).__name__}: {ex}"
            return res
        got = cached_values(out)
    for key, excel in expected.items():
        ours = got.get(key, "<no value>")
        if not same(excel, ours):
            res.wrong.append((*key, excel, ours))
    return res


_VOLATILE = re.compile(r"(?<![\w.])(?:_xlfn\.)?(?:TODAY|NOW|RAND|RANDBETWEEN|RANDARRAY)\s*\(",
                       re.I)


def volatile_cells(path) -> set[tuple[str, int, int]]:
    """Formula cells whose value depends on the clock or on random numbers (TODAY, NOW,
    RAND...): Excel cached the value of the moment it saved, so they are not compared."""
    with ZipFile(path) as zf:
        wb = Workbook(zf)
    order = Evaluation(wb, {}).plan()
    vol = set()
    for node in order:
        if _VOLATILE.search(node.text or "") or any(d in vol for d in node.deps):
            vol.add(node)
    return {(wb.sheets[n.sheet].name, r, c) for n in vol if not n.is_name
            for r, c in n.positions()}
