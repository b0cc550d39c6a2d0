"""Formula shapes: formulas that differ only in their references or number operands share
one compiled program, and each cell still gets its own numbers.

Every expected value is computed here by hand (Python arithmetic of the same numbers).
"""

from __future__ import annotations

import math
from zipfile import ZipFile

import openpyxl
import pytest

from addin.engine import executor
from addin.engine.api import calc_workbook
from addin.engine.book import Workbook
from addin.engine.evaluator import Evaluation
from addin.formula import calls
from addin.formula import formula_text as ft


def RIDGE(peak, bandwidth, efficiency=1):
    return peak * efficiency / bandwidth


FUNCS = {"RIDGE": RIDGE}


@pytest.mark.parametrize("text, key_has, numbers", [
    ("=RIDGE(A2+2.5,3.35)*B2", "RIDGE(", ("2.5", "3.35")),
    ("=A1+1+1.0+1", None, ("1", "1.0")),  # equal texts share one parameter
    ("=LOG10(100)", "LOG10(", ("100",)),  # not the 10 of a function's name
    ('="a1"&5', '"a1"', ("5",)),  # nor the digits of a string
    ("=#DIV/0!+0", "#DIV/0!", ("0",)),  # nor those of an error value
    ("='Sheet 2'!X+2", "'Sheet 2'!X", ("2",)),  # nor those of a quoted sheet name
    ("=SUM(1:3)+.5*1E+9", None, (".5", "1E+9")),  # 1:3 is a reference
    ("=SUM({1,2})+1", "{1,2}", ()),  # array constants keep all numbers
    ("=007+1", "007", ("1",)),  # a number with leading zeros is formulas' to refuse
])
def test_lex_numbers(text, key_has, numbers):
    key, _, got = ft.lex(text, 2, 3)
    assert got == numbers
    if key_has:
        assert key_has in key
    assert "\x02" not in ft.put_numbers(text, numbers)
    assert ft.put_numbers(text, numbers) == text


def test_put_numbers_keeps_everything_else():
    assert ft.put_numbers("=RIDGE(A2+2.5,3.35)*B2", ("7", "1E+3")) == "=RIDGE(A2+7,1E+3)*B2"
    assert ft.put_numbers("=A1+1+1.0+1", ("4", "5")) == "=A1+4+5+4"


def _rows():
    """(formula, expected) per row: numbers that differ from row to row, and numbers in
    places where their text matters."""
    out = []
    for i in range(2, 62):
        a, b = 900 + i, 1 + (i % 7) / 10  # the values of A and B in row i
        x, y = (i % 3, i % 3) if i % 2 else (i % 3, i % 3 + 1)  # equal numbers, or not
        d = "2" if i % 4 else "2.0"
        row = [
            (f"=RIDGE(A{i}+{i}.5,3.35)*B{i}", (a + i + 0.5) / 3.35 * b),
            (f"=A{i}+{x}+{y}", a + x + y),
            (f"=A{i}/{d}", a / 2),
            (f"=LOG10({10 ** (i % 5)})", float(i % 5)),
            (f'=IF(A{i}>{a - 1},"{i}",TRUE)', str(i)),
            (f"=A{i}&{'1.50' if i % 2 else i}", f"{a}{'1.5' if i % 2 else i}"),
            (f"=ISERROR(#DIV/0!)+{i}", 1 + i),
            (f"=SUM({{1,2}})*{i}", 3 * i),
            (f"=ROW()*{i}", i * i),
            (f"=2^{i}", 2 ** i),
        ]
        out.append((a, b, row))
    return out


@pytest.fixture(scope="module")
def numbers_book(tmp_path_factory):
    path = tmp_path_factory.mktemp("shapes") / "numbers.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    rows = _rows()
    for i, (a, b, row) in enumerate(rows, start=2):
        ws.cell(i, 1, a)
        ws.cell(i, 2, b)
        for j, (formula, _) in enumerate(row, start=3):
            ws.cell(i, j, formula)
    wb.save(path)
    return path, rows


def _same(got, want):
    if isinstance(want, float):
        return isinstance(got, (int, float)) and math.isclose(got, want, rel_tol=1e-12)
    if isinstance(want, (bool, str)):
        return type(got) is type(want) and got == want
    return got == want and not isinstance(got, (bool, str))


def test_numbers_per_cell(numbers_book, tmp_path):
    path, rows = numbers_book
    got = calc_workbook(path, tmp_path / "out.xlsx", FUNCS)
    for i, (_, _, row) in enumerate(rows, start=2):
        for j, (formula, want) in enumerate(row, start=3):
            cell = f"S!{openpyxl.utils.get_column_letter(j)}{i}"
            assert _same(got[cell], want), (cell, formula, got[cell], want)


def test_one_compile_per_shape(numbers_book, tmp_path, monkeypatch):
    """60 rows of =RIDGE(A2+2.5,3.35)*B2, =RIDGE(A3+3.5,3.35)*B3...: one compile."""
    path, _ = numbers_book
    texts = []
    real = executor.compile_formula

    def counting(text, *a, **k):
        texts.append(text)
        return real(text, *a, **k)

    monkeypatch.setattr(executor, "compile_formula", counting)
    calc_workbook(path, tmp_path / "out.xlsx", FUNCS)
    assert sum(t.startswith("=RIDGE(") for t in texts) == 1
    assert sum(t.startswith("=LOG10(") for t in texts) == 1
    # =A2+x+y: one shape where x and y are the same text, one where they differ
    assert sum(t.startswith("=A") and "+" in t for t in texts) == 2
    # array constants keep their numbers; ROW() is compiled per cell
    assert sum(t.startswith("=SUM({") for t in texts) == 60
    assert sum(t.startswith("=ROW()") for t in texts) == 60


def test_formulas_own_function_gets_the_cells_numbers(numbers_book):
    """A shared program falls back to formulas' own compiled function when ours cannot
    produce the value; that function is compiled with the cell's own numbers."""
    path, rows = numbers_book
    reg = calls.registry(FUNCS)
    calls.ensure_registered(reg)
    with ZipFile(path) as zf:
        wb = Workbook(zf)
    ev = Evaluation(wb, reg)
    ev.run(ev.plan())
    checked = 0
    calls.STATE.registry = reg
    try:
        for node in wb.nodes:
            if node.c not in (4, 5) or node.r < 3:  # =A+x+y and =A/d; row 2 is the template
                continue
            fn = node.prog.fn
            assert isinstance(fn, executor.FastFn)
            args = [ev._arg(s) for s in node.specs]
            piped = executor.store_scalar(fn.pipe(*args))
            assert piped == wb.sheets[node.sheet].values[(node.r, node.c)]
            checked += 1
    finally:
        calls.clear()
    assert checked == 2 * (len(rows) - 1)


def test_twenty_thousand_distinct_formulas_share_a_shape(tmp_path, monkeypatch):
    """The benchmark's workbook, smaller: a distinct number in every row, one compile."""
    path = tmp_path / "distinct.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    for i in range(1, 2001):
        ws.cell(i, 1, i)
        ws.cell(i, 2, f"=RIDGE(A{i}+{i}.5,3.35)*2")
    wb.save(path)
    texts = []
    real = executor.compile_formula
    monkeypatch.setattr(executor, "compile_formula",
                        lambda t, *a, **k: texts.append(t) or real(t, *a, **k))
    got = calc_workbook(path, tmp_path / "out.xlsx", FUNCS)
    assert len(texts) == 1
    for i in (1, 777, 2000):
        assert math.isclose(got[f"Sheet!B{i}"], (i + i + 0.5) / 3.35 * 2, rel_tol=1e-12)


def _compiles(monkeypatch) -> list[str]:
    texts: list[str] = []
    real = executor.compile_formula
    monkeypatch.setattr(executor, "compile_formula",
                        lambda t, *a, **k: texts.append(t) or real(t, *a, **k))
    return texts


def test_a_cell_written_without_dollars_is_one_shape(tmp_path, monkeypatch):
    """``=A2*B1`` in C2, ``=A3*B1`` in C3...: in R1C1 every row reads another offset of
    B1, yet the compiled graph is the same (one input per reference, each one cell):
    one compile. ``=A{i}+A5`` names one area twice in row 5 only: that row compiles
    apart, and every value is still its own."""
    path = tmp_path / "grid.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["B1"] = 3
    for i in range(2, 42):
        ws.cell(i, 1, 10 * i)
        ws.cell(i, 3, f"=A{i}*B1")
        ws.cell(i, 4, f"=A{i}+A5")
    wb.save(path)
    texts = _compiles(monkeypatch)
    got = calc_workbook(path, tmp_path / "out.xlsx", FUNCS)
    assert sum(t.endswith("*B1") for t in texts) == 1
    assert sum("+A5" in t for t in texts) == 2  # row 5's A5+A5, and every other row's
    for i in range(2, 42):
        assert got[f"Sheet!C{i}"] == 10 * i * 3  # A_i = 10 i, B1 = 3
        assert got[f"Sheet!D{i}"] == 10 * i + 50  # A5 = 50


def test_one_shape_across_sheets_unless_a_sheet_has_names_of_its_own(tmp_path, monkeypatch):
    """The same formula on three sheets compiles once; on a sheet with a defined name of
    its own it compiles apart (a name there may mean something else)."""
    from openpyxl.workbook.defined_name import DefinedName

    path = tmp_path / "sheets.xlsx"
    wb = openpyxl.Workbook()
    for k, title in enumerate(["S1", "S2", "S3", "Local"]):
        ws = wb.active if k == 0 else wb.create_sheet()
        ws.title = title
        ws["A1"] = k + 1
        ws["B1"] = "=A1*7"
    wb["Local"].defined_names["Rate"] = DefinedName("Rate", attr_text="Local!$A$1")
    wb.save(path)
    texts = _compiles(monkeypatch)
    got = calc_workbook(path, tmp_path / "out.xlsx", FUNCS)
    assert texts.count("=A1*7") == 2
    for k, title in enumerate(["S1", "S2", "S3", "Local"]):
        assert got[f"{title}!B1"] == (k + 1) * 7
