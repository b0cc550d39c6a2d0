"""The committed template's cached values as a ``workbook.expr.Env``: what the model's
expressions are evaluated against in Python (``tests/test_model_step.py``,
``tests/test_expr_excel.py``); and its cells computed again in Python from their formulas
with some inputs typed, the fast layer of the template's variants: a chain of cells named
(``recompute``), or every formula cell of a sheet in the order they read each other
(``sheet_at``, ``sizing_at``: Sizing in milliseconds where the engine takes seconds;
``tests/test_scenario_step.py`` holds it to the engine's copy cell by cell)."""

from __future__ import annotations

import dataclasses
import functools
import graphlib
import re
from pathlib import Path

import openpyxl

from addin.formula.formula_text import plain_calls
from workbook.expr import Cell, Env, Expr, Name
from workbook.expr_parse import parse

TEMPLATE = Path(__file__).resolve().parent.parent / "workbook" / "napkin.xlsx"


def template_env(bare: str) -> Env:
    """Every sheet's cells with their sheet (``Plan!B5``), the cells of sheet ``bare``
    also without it (as that sheet's formulas write them), and each defined name's value
    (a cell) or values (a column)."""
    wb = openpyxl.load_workbook(TEMPLATE, data_only=True)
    return _env({ws.title: {c.coordinate: c.value for row in ws.iter_rows() for c in row
                            if c.value is not None} for ws in wb.worksheets}, bare, wb)


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


def _tree(text: str) -> Expr:
    """A cell's formula as the template stores it, parsed: the stored form's ``_xldudf_``
    prefixes of napkin's calls dropped (``addin.formula.formula_text.plain_calls``)."""
    return parse(plain_calls(text))


def _typer(bare: str, names: dict, cells: dict, names_of: dict[str, list[str]]):
    """``put(ref, value)``: a value typed into or computed for ``ref`` ("Sheet!A1"), also
    under its bare reference in sheet ``bare`` and under each defined name of that one
    cell."""

    def put(ref: str, value) -> None:
        cells[ref] = value
        sheet, cell = ref.split("!")
        if sheet == bare:
            cells[cell] = value
        for name in names_of.get(ref, ()):
            names[name] = value

    return put


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
    put = _typer(bare, names, values, names_of)
    for ref, value in changes.items():
        put(ref, value)
    for cell in cells:
        text = getattr(wb[bare][cell].value, "text", wb[bare][cell].value)
        put(f"{bare}!{cell}", _tree(text).evaluate(Env(names=names, cells=values)))
    return Env(names=names, cells=values)


def _references(e, out: set) -> set:
    """The cells (``Cell.ref`` as written) and names (``Name.name``) a tree reads."""
    if isinstance(e, Cell):
        out.add(("cell", e.ref))
    elif isinstance(e, Name):
        out.add(("name", e.name))
    if dataclasses.is_dataclass(e):
        for f in dataclasses.fields(e):
            v = getattr(e, f.name)
            for x in v if isinstance(v, list | tuple) else (v,):
                if isinstance(x, Expr):
                    _references(x, out)
    return out


class _Cells(dict):
    """A sheet's values as formulas read them: ``'Start'!A19`` as ``Start!A19``, and a
    cell with no value empty (None), as Excel reads an empty cell."""

    def __missing__(self, ref: str):
        sheet, _, cell = ref.rpartition("!")
        plain = f"{sheet.strip(chr(39))}!{cell}" if sheet else cell
        return dict.get(self, plain) if plain != ref else None


@functools.cache
def _sheet_program(bare: str, last_row: int) -> tuple[Env, tuple[tuple[str, Expr], ...],
                                                      dict[str, list[str]]]:
    """The committed template's values (``template_env(bare)``), the formula cells of sheet
    ``bare`` down to ``last_row`` as trees in an order where each comes after the cells of
    that sheet it reads (by reference or by a defined name of one cell), and the names of
    each cell: made once a process."""
    env = template_env(bare)
    wb = openpyxl.load_workbook(TEMPLATE)
    names_of = _one_cell_names(wb)
    cell_of = {n: ref.split("!")[1] for ref, ns in names_of.items() for n in ns
               if ref.split("!")[0] == bare}
    trees: dict[str, Expr] = {}
    for row in wb[bare].iter_rows(max_row=last_row):
        for c in row:
            text = getattr(c.value, "text", c.value)
            if isinstance(text, str) and text.startswith("="):
                trees[c.coordinate] = _tree(text)
    graph = {}
    for ref, tree in trees.items():
        reads = set()
        for kind, what in _references(tree, set()):
            if kind == "name":
                reads.add(cell_of.get(what))
            else:
                sheet, _, cell = what.replace("$", "").rpartition("!")
                if sheet.strip("'") in ("", bare):
                    reads.add(cell)
        graph[ref] = {r for r in reads if r in trees}
    order = tuple((ref, trees[ref]) for ref in graphlib.TopologicalSorter(graph).static_order())
    return env, order, names_of


def sheet_at(bare: str, last_row: int, changes: dict[str, object]) -> dict[str, object]:
    """Sheet ``bare``'s values down to ``last_row`` with ``changes`` typed in
    ({"Sheet!A1": value}): each of its formula cells computed again in Python from the
    committed template's formulas (``workbook.expr_parse``, the stored form's ``_xldudf_``
    prefixes dropped), each after the cells of the sheet it reads; the other sheets keep
    the values napkin computed into the template, so ``changes`` must move nothing another
    sheet computes that the sheet reads (``tests/test_scenario_step.py`` checks a case
    against the engine's). Excel's functions beyond ``workbook.expr_values`` come from
    ``functions``. Returns {cell: value} of the sheet ("A1")."""
    from test_model_sizing import FUNCTIONS

    env, order, names_of = _sheet_program(bare, last_row)
    names, cells = dict(env.names), _Cells(env.cells)
    put = _typer(bare, names, cells, names_of)
    for ref, value in changes.items():
        put(ref, value)
    here = Env(names=names, cells=cells, functions=FUNCTIONS)
    for ref, tree in order:
        put(f"{bare}!{ref}", tree.evaluate(here))
    return {ref: cells[ref] for ref, _ in order}


def sizing_at(changes: dict[str, object]) -> dict[str, object]:
    """``sheet_at`` of Sizing's rows above its grids (the scenario, its answer and the
    step): {cell: value} with ``changes`` typed in."""
    from workbook.sizing import GRID_TOP

    return sheet_at("Sizing", GRID_TOP - 1, changes)
