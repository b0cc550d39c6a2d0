"""Units of work against CPU for conditional aggregates over columns (docs/bench.md, "The
work limit"): ``python tests/criteria_work.py`` (in tests/, as it replaces the engine's
constants and methods for the time of a measure, which tools/ may not).

Builds workbooks in a temporary folder and computes each in this process with
``calc_workbook``: ordinary formulas (SUM over a fixed range, the path the table of
docs/bench.md measured), a sales pipeline's COUNTIFS ratios and its SUMIFS and
AVERAGEIFS over ranges moving down a row a cell (``addin.excel.criteria_columns``), one
criterion a row (COUNTIF($A$1:$A$5000,A1)...: a column matched once per criterion,
counted while computing), and the pipeline's counts with the fast path off (each formula
matching its own ranges, as before). Prints each one's units of work
(``Evaluation.work.total``), the CPU of compiling and computing them (``Evaluation.plan``
and ``run``, as docs/bench.md's table measures), the microseconds a unit, and that figure
as a ratio to the ordinary formulas', all measured in one run.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from pathlib import Path
from xml.sax.saxutils import escape

from addin.engine import budget, columns
from addin.engine import evaluator as ev
from addin.engine.api import calc_workbook
from addin.excel import criteria_columns
from addin.formula import context
from addin.ooxml import package

STAGES = ("lead", "prospect", "negotiating", "closed won")


def _cell(ref: str, formula: str | None = None, value=None) -> str:
    body = f"<f>{escape(formula)}</f>" if formula else ""
    if isinstance(value, str):
        return f'<c r="{ref}" t="inlineStr">{body}<is><t>{escape(value)}</t></is></c>'
    return f'<c r="{ref}">{body}' + ("" if value is None else f"<v>{value}</v>") + "</c>"


def _write(path: Path, rows: dict[int, list[str]]) -> Path:
    """A one-sheet workbook ``S`` of the cells by row."""
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    data = "".join(f'<row r="{r}">{"".join(cs)}</row>' for r, cs in sorted(rows.items()))
    ct = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://'
          'schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels"'
          ' ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
          '<Default Extension="xml" ContentType="application/xml"/><Override PartName='
          '"/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.'
          'spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" '
          'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
          'worksheet+xml"/></Types>')
    parts = {
        "[Content_Types].xml": ct,
        "_rels/.rels": f'<Relationships xmlns="http://schemas.openxmlformats.org/package/'
                       f'2006/relationships"><Relationship Id="rId1" Type="{rel}/'
                       'officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{main}" xmlns:r="{rel}"><sheets><sheet '
                           'name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": '<Relationships xmlns="http://schemas.openxmlformats'
                                      '.org/package/2006/relationships"><Relationship '
                                      f'Id="rId1" Type="{rel}/worksheet" '
                                      'Target="worksheets/sheet1.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{main}"><sheetData>{data}'
                                    '</sheetData></worksheet>',
    }
    package.write_parts(path, [(k, v.encode()) for k, v in parts.items()],
                        (2026, 1, 1, 0, 0, 0))
    return path


def _add(rows: dict, r: int, cell: str) -> None:
    rows.setdefault(r, []).append(cell)


def ordinary(path: Path) -> Path:
    """1,000 formulas each summing 5,000 numbers of A (SUM($A$1:$A$5000))."""
    rows: dict = {}
    for r in range(1, 5001):
        _add(rows, r, _cell(f"A{r}", None, r % 97))
    for r in range(1, 1001):
        _add(rows, r, _cell(f"B{r}", "SUM($A$1:$A$5000)"))
    return _write(path, rows)


def pipeline(path: Path, rows_n: int, window: int, n: int, totals: bool) -> Path:
    """Stages in G and amounts in Q; ``n`` rows of COUNTIFS ratios (or, ``totals``,
    SUMIFS and AVERAGEIFS) over ``window`` rows moving down a row a cell."""
    rows: dict = {}
    for i in range(rows_n):
        r = i + 3
        _add(rows, r, _cell(f"G{r}", None, STAGES[(i * 7) % 4]))
        _add(rows, r, _cell(f"Q{r}", None, (0, 1250.5, 80, 0, 33.25)[i % 5]))
    for r in range(3, n + 3):
        g, q = f"G{r}:G{r + window - 1}", f"Q{r}:Q{r + window - 1}"
        if totals:
            _add(rows, r, _cell(f"H{r}", f'SUMIFS({q},{g},"prospect")'))
            _add(rows, r, _cell(f"I{r}", f'AVERAGEIFS({q},{g},"lead",{q},">0")'))
        else:
            _add(rows, r, _cell(f"H{r}", f'COUNTIFS({g},"closed won",{q},">0")/'
                                         f'COUNTIFS({g},"lead")'))
    return _write(path, rows)


def one_criterion_a_row(path: Path) -> Path:
    """1,000 formulas COUNTIF($A$1:$A$5000,A1)...: each its own criterion."""
    rows: dict = {}
    for r in range(1, 5001):
        _add(rows, r, _cell(f"A{r}", None, r % 2500))
    for r in range(1, 1001):
        _add(rows, r, _cell(f"B{r}", f"COUNTIF($A$1:$A$5000,A{r})"))
    return _write(path, rows)


@contextlib.contextmanager
def _fast_path_off():
    saved = criteria_columns.TALL, columns.TALL
    criteria_columns.TALL = columns.TALL = 10 ** 9
    try:
        yield
    finally:
        criteria_columns.TALL, columns.TALL = saved


def measure(path: Path) -> tuple[int, float]:
    """(units of work, CPU seconds of Evaluation.plan and run) of computing ``path``
    (lenient: AVERAGEIFS is not checked)."""
    spent, works = [0.0], []
    plan, run, init = ev.Evaluation.plan, ev.Evaluation.run, ev.Evaluation.__init__

    def timed(f):
        def g(self, *a, **k):
            t = time.process_time()
            try:
                return f(self, *a, **k)
            finally:
                spent[0] += time.process_time() - t
        return g

    def keeping(self, *a, **k):
        init(self, *a, **k)
        works.append(self.work)

    ev.Evaluation.plan, ev.Evaluation.run = timed(plan), timed(run)
    ev.Evaluation.__init__ = keeping
    try:
        calc_workbook(path, None, {}, strict=False)
    finally:
        ev.Evaluation.plan, ev.Evaluation.run, ev.Evaluation.__init__ = plan, run, init
    # (with what was counted while computing, which the next computation would add)
    return works[-1].total + getattr(context.STATE, "cells_read", 0), spent[0]


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(prog="python tests/criteria_work.py",
                            description=__doc__.split("\n\n")[0]).parse_args(argv)
    budget.MAX_WORK = 10 ** 9  # (the fast path off counts past the limit: measured)
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        cases = [
            ("SUM($A$1:$A$5000), 1,000 formulas", ordinary(d / "sum.xlsx"), False),
            ("COUNTIFS ratios, windows of 5,000 rows, 5,000 formulas",
             pipeline(d / "counts.xlsx", 10_000, 5_000, 5_000, False), False),
            ("SUMIFS and AVERAGEIFS, windows of 5,000 rows, 2 x 2,500 formulas",
             pipeline(d / "totals.xlsx", 10_000, 5_000, 2_500, True), False),
            ("COUNTIF($A$1:$A$5000,A1)..., 1,000 criteria",
             one_criterion_a_row(d / "each.xlsx"), False),
            ("COUNTIFS ratios, windows of 2,000 rows, 2,000 formulas, fast path off",
             pipeline(d / "before.xlsx", 4_000, 2_000, 2_000, False), True),
        ]
        print(f"{'workbook':72} {'units':>12} {'CPU s':>7} {'µs a unit':>9} {'ratio':>6}")
        base = None
        for label, path, off in cases:
            with _fast_path_off() if off else contextlib.nullcontext():
                units, cpu = measure(path)
            per = cpu * 1e6 / units
            base = base or per
            print(f"{label:72} {units:>12,} {cpu:>7.2f} {per:>9.3f} {per / base:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
