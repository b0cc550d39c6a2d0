"""The committed template's cached values as a ``workbook.expr.Env``: what the model's
expressions are evaluated against in Python (``tests/test_model_step.py``,
``tests/test_expr_excel.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl

from workbook.expr import Env

TEMPLATE = Path(__file__).resolve().parent.parent / "workbook" / "napkin.xlsx"


def template_env(bare: str) -> Env:
    """Every sheet's cells with their sheet (``Plan!B5``), the cells of sheet ``bare``
    also without it (as that sheet's formulas write them), and each defined name's value
    (a cell) or values (a column)."""
    wb = openpyxl.load_workbook(TEMPLATE, data_only=True)
    cells: dict[str, object] = {}
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.value is not None:
                    cells[f"{ws.title}!{c.coordinate}"] = c.value
                    if ws.title == bare:
                        cells[c.coordinate] = c.value
    names: dict[str, object] = {}
    for name, dn in wb.defined_names.items():
        # a table's column (workbook.sheet.table_column): the rows between its ends
        t = re.fullmatch(r"INDEX\('?([^'!]+)'?!\$?([A-Z]+)\$?(\d+):\$?[A-Z]+\$?(\d+),2\):"
                         r"INDEX\(.*\)", dn.attr_text)
        if t:
            sheet, col, head, end = t.groups()
            names[name] = [cells.get(f"{sheet}!{col}{r}")
                           for r in range(int(head) + 1, int(end))]
            continue
        m = re.fullmatch(r"'?([^'!]+)'?!\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?",
                         dn.attr_text)
        if m:
            sheet, c1, r1, c2, r2 = m.groups()
            names[name] = cells.get(f"{sheet}!{c1}{r1}") if c2 is None else \
                [cells.get(f"{sheet}!{c1}{r}") for r in range(int(r1), int(r2) + 1)]
    return Env(names=names, cells=cells)
