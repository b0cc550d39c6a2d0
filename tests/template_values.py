"""The committed template's cached values as a ``workbook.expr.Env``: what the model's
expressions are evaluated against in Python (``tests/test_model_step.py``,
``tests/test_expr_excel.py``); and a few of its cells computed again in Python from their
formulas with some inputs typed (``recompute``), the fast layer of the template's
variants."""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl

from workbook.expr import Env
from workbook.expr_parse import parse

TEMPLATE = Path(__file__).resolve().parent.parent / "workbook" / "napkin.xlsx"


def template_env(bare: str) -> Env:
    """Every sheet's cells with their sheet (``Plan!B5``), the cells of sheet ``bare``
    also without it (as that sheet's formulas write them), and each defined name's value
    (a cell) or values (a column)."""
    wb = openpyxl.load_workbook(TEMPLATE, data_only=True)
    return _env({ws.title: {c.coordinate: c.value for row in ws.iter_rows() for c in row
                            if c.value is not None} for ws in wb.worksheets}, bare, wb)


def values_env(vals: dict[str, dict[str, object]], bare: str) -> Env:
    """``template_env`` of a computed copy of the template: ``vals`` its cached values
    ({sheet: {cell: value}}, ``template_support.values``), its defined names the committed
    template's (a copy with inputs typed has the same)."""
    return _env(vals, bare, openpyxl.load_workbook(TEMPLATE, read_only=True))


def _env(vals: dict[str, dict[str, object]], bare: str, wb) -> Env:
    cells: dict[str, object] = {}
    for sheet, values in vals.items():
        for ref, value in values.items():
            cells[f"{sheet}!{ref}"] = value
            if sheet == bare:
                cells[ref] = value
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


def _one_cell_names(wb) -> dict[str, list[str]]:
    """{"Sheet!A1": [the defined names of that one cell]}."""
    out: dict[str, list[str]] = {}
    for name, dn in wb.defined_names.items():
        m = re.fullmatch(r"'?([^'!]+)'?!\$?([A-Z]+)\$?(\d+)", dn.attr_text)
        if m:
            out.setdefault(f"{m[1]}!{m[2]}{m[3]}", []).append(name)
    return out


def recompute(env: Env, bare: str, changes: dict[str, object], cells: list[str]) -> Env:
    """``env`` (``template_env(bare)``) with ``changes`` typed in ({"Sheet!A1": value})
    and ``cells`` (cells of sheet ``bare``, "A1", each after the cells it reads) computed
    again in Python from the committed template's formulas (``workbook.expr_parse``; the
    stored form's ``_xldudf_`` prefixes dropped); every other cell keeps the value napkin
    computed into the template, so ``cells`` must hold every cell between the changes and
    the cells a test reads. A defined name of one cell follows its cell."""
    wb = openpyxl.load_workbook(TEMPLATE)
    names_of = _one_cell_names(wb)
    names, values = dict(env.names), dict(env.cells)

    def put(ref: str, value) -> None:
        values[ref] = value
        sheet, cell = ref.split("!")
        if sheet == bare:
            values[cell] = value
        for name in names_of.get(ref, ()):
            names[name] = value

    for ref, value in changes.items():
        put(ref, value)
    for cell in cells:
        text = getattr(wb[bare][cell].value, "text", wb[bare][cell].value)
        text = re.sub(r"_xldudf_(?=[A-Za-z_][\w.]*\()", "", text, flags=re.I)
        put(f"{bare}!{cell}", parse(text).evaluate(Env(names=names, cells=values)))
    return Env(names=names, cells=values)
