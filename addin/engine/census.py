"""What strict mode refuses in a workbook Excel saved, and how many of its formula cells
napkin computes to the value Excel cached: one file's part of the refusal census
(``python -m tools.refusal_census``).

``census(path)`` computes the workbook twice: as ``napkin calc`` does (strict, keeping
Excel's values in the cells it does not compute where that is safe:
``addin.engine.kept``), its output's cached values compared with the ones Excel saved,
the cells kept counted apart (never as computed); and as
``addin.engine.api.refusal_causes`` does (lenient, every refusal recorded), for the
causes strict mode would have to lift to compute it.

A formula cell is compared as ``tests/test_fidelity.py`` compares it: every formula cell
with a cached value (``<v>``), those that depend on TODAY, NOW, RAND, RANDBETWEEN or
RANDARRAY left out (Excel cached the value of the moment it saved), numbers to 1e-9
relative (1e-12 absolute near zero), text and logical values exactly, errors by code.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from zipfile import ZipFile

from addin.engine.api import Refusal, calc_workbook, refusal_causes
from addin.engine.book import Workbook
from addin.engine.evaluator import Evaluation
from addin.ooxml import xlsx_values as xv
from addin.ooxml.guard import WorkbookError

#: how close a computed number must be to Excel's: relative, and absolute near zero
REL, ABS = 1e-9, 1e-12


def cached_values(path) -> dict[tuple[str, int, int], object]:
    """``{(sheet, row, col): value}`` of every formula cell with a cached value (a data
    table's cells left out: Excel's what-if tables are not formulas napkin computes).

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
    """Whether cached value ``ours`` equals Excel's (``cached_values``' kinds)."""
    if isinstance(excel, tuple) or isinstance(ours, tuple):
        return excel == ours
    if isinstance(excel, bool) or isinstance(ours, bool):
        return type(excel) is type(ours) and excel == ours
    if isinstance(excel, float) and isinstance(ours, float):
        return math.isclose(excel, ours, rel_tol=REL, abs_tol=ABS)
    return excel == ours


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


def compared_cells(path) -> dict[tuple[str, int, int], object]:
    """``cached_values(path)`` without the ``volatile_cells`` (none left out of a file
    the engine cannot read)."""
    expected = cached_values(path)
    try:
        skip = volatile_cells(path)
    except Exception:  # a file the engine refuses to read: no skips
        skip = set()
    return {k: v for k, v in expected.items() if k not in skip}


@dataclass
class FileCensus:
    """One workbook's part of the refusal census.

    Attributes
    ----------
    path : str
        The workbook.
    cells : int
        Its formula cells compared (``compared_cells``).
    equal : int
        Of those, the cells strict mode computes to Excel's value (0 when it refuses).
    refused : str or None
        Strict mode's refusal sentence, or None when it computes the workbook.
    kept : int
        The formula cells compared that strict mode keeps Excel's values in (not counted
        in ``equal``), when it computes the workbook.
    kept_cells : int
        All the formula cells it keeps Excel's values in (those with no value to compare
        and those depending on TODAY... included).
    causes : list of Refusal
        Every refusal strict mode would have to lift (``refusal_causes``).
    whole : str or None
        The refusal of the workbook as a whole (a Strict Open XML file...), which names
        no cell: then ``causes`` is empty.
    compared : dict
        Excel's value of each cell compared, ``{(sheet, row, col): value}``.
    """

    path: str
    cells: int = 0
    equal: int = 0
    refused: str | None = None
    kept: int = 0
    kept_cells: int = 0
    causes: list[Refusal] = field(default_factory=list)
    whole: str | None = None
    compared: dict = field(default_factory=dict, repr=False)


def census(path: str | os.PathLike) -> FileCensus:
    """Strict mode's outcome on workbook ``path``, its cells equal to Excel's and the
    causes of its refusal (see the module's docstring)."""
    path = Path(path)
    out = FileCensus(str(path))
    expected = compared_cells(path)
    out.cells, out.compared = len(expected), expected
    with tempfile.TemporaryDirectory() as d:
        dst = Path(d) / "out.xlsx"
        kept: list[Refusal] = []
        try:
            calc_workbook(path, dst, kept=kept)
        except WorkbookError as ex:
            out.refused = " ".join(str(ex).split())
        else:
            got = cached_values(dst)
            held = {p for r in kept for p in r.positions}
            out.kept = sum(k in held for k in expected)
            out.kept_cells = len(held)
            out.equal = sum(same(v, got.get(k, "<no value>")) for k, v in expected.items()
                            if k not in held)
    try:
        out.causes = refusal_causes(path)
    except WorkbookError as ex:
        out.whole = " ".join(str(ex).split()).replace(path.name, "the workbook")
    return out
