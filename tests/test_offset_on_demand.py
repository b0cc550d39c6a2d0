"""OFFSET and INDIRECT reaching a formula the order of computing puts later
(``addin/engine/demand.py``): that formula is computed then, with what it reads, and the
value is Excel's; a loop closed through such a reference is refused. Each workbook is
written in the test, its saved values 0 where a computed value must show."""

from __future__ import annotations

import pytest
import xlsx_make
from xlsx_make import cell

from addin.engine import cycles, demand
from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError


def _calc(tmp_path, cells, **kw):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    notes, kept = [], []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, notes=notes, kept=kept, **kw)
    return res, notes, kept


def test_offset_over_formulas_later_in_the_order(tmp_path):
    # A1 reads B1:B3 through OFFSET; B2 and B3 come after A1 (row 2, 3) and read D5, later
    # still: B1 = 1, B2 = D5+1 = 11, B3 = B2*2 = 22 (D5 = 5*2 = 10), so A1 = 1+11+22 = 34
    res, notes, kept = _calc(tmp_path, [
        cell("A1", "SUM(OFFSET(B1,0,0,3,1))", 0), cell("B1", None, 1),
        cell("B2", "D5+1", 0), cell("B3", "B2*2", 0), cell("D5", "5*2", 0)])
    assert (res["S!A1"], res["S!B2"], res["S!B3"], res["S!D5"]) == (34, 11, 22, 10)
    assert notes == [] and kept == []


def test_indirect_onto_a_formula_later_in_the_order(tmp_path):
    # A1 = INDIRECT("C9")*3 with C9 = A5+1 = 8 (A5 = 7): 24; C9 then read by A2: 9
    res, _, kept = _calc(tmp_path, [cell("A1", 'INDIRECT("C9")*3', 0),
                                    cell("A2", "C9+1", 0), cell("A5", None, 7),
                                    cell("C9", "A5+1", 0)])
    assert (res["S!A1"], res["S!A2"], res["S!C9"]) == (24, 9, 8)
    assert kept == []


def test_a_chain_of_offsets_each_onto_a_later_row(tmp_path):
    # B_n = OFFSET($A$1,n,1)+1 reads B_(n+1) (A1 a number); B11 = 0, so B_n = 11 - n
    cells = [cell("A1", None, 0)] + [cell(f"B{n}", f"OFFSET($A$1,{n},1)+1", 0)
                                     for n in range(1, 11)]
    res, _, kept = _calc(tmp_path, cells + [cell("B11", None, 0)])
    assert [res[f"S!B{n}"] for n in range(1, 11)] == [11 - n for n in range(1, 11)]
    assert kept == []


def _chain(n):
    # B_k = OFFSET($A$1,k,1)+1 reads B_(k+1), B_(n+1) = 0: B_k = n + 1 - k
    return [cell("A1", None, 0)] + [cell(f"B{k}", f"OFFSET($A$1,{k},1)+1", 0)
                                    for k in range(1, n + 1)] + [cell(f"B{n + 1}", None, 0)]


def test_a_chain_deeper_than_the_limit_is_computed_again_in_order(tmp_path):
    # past demand.MAX_DEPTH formulas computed one inside another, the run stops there;
    # the references it made join the formulas' inputs and it computes again, in order
    n = 3 * demand.MAX_DEPTH
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": _chain(n)})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert [res[f"S!B{k}"] for k in range(1, n + 1)] == [n + 1 - k for k in range(1, n + 1)]


def test_without_computing_again_a_chain_past_the_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(cycles, "with_loops", lambda ev: False)
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": _chain(demand.MAX_DEPTH + 5)})
    with pytest.raises(WorkbookError, match="references made while computing"):
        calc_workbook(src, tmp_path / "out.xlsx", {})


def test_a_cycle_through_offset_is_refused(tmp_path):
    # A1 reads C2 through OFFSET, C2 reads A1: a loop no written reference shows
    cells = [cell("A1", "OFFSET(C1,1,0)+1", 0), cell("C1", None, 5), cell("C2", "A1*2", 0),
             cell("D1", "C2+1", 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    with pytest.raises(WorkbookError, match="circular reference through a reference made"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    # cell by cell: the loop and what reads it keep Excel's values (the 0s saved)
    res, _, kept = _calc(tmp_path, cells)
    assert (res["S!A1"], res["S!C2"], res["S!D1"]) == (0, 0, 0)
    assert sorted(k.label for k in kept) == ["S!A1", "S!C2", "S!D1"]


def _iterating(path, cells):
    return xlsx_make.with_calc_pr(xlsx_make.write(path, {"S": cells}), 'iterate="1"')


def test_a_cycle_through_offset_is_fixed_point_checked_with_iterative_calculation_on(
        tmp_path):
    # A1 = OFFSET(C1,1,0)+1 reads C2 = A1*2: A1 = 2*A1+1 has the one solution A1 = -1,
    # C2 = -2 (by hand). Saved so, with iterate="1": the loop is found in a first run,
    # made a cycle of A1 and C2, and its saved values checked: taken, D1 = C2+1 = -1
    # computed (saved 0)
    cells = [cell("A1", "OFFSET(C1,1,0)+1", -1), cell("C1", None, 5),
             cell("C2", "A1*2", -2), cell("D1", "C2+1", 0)]
    kept = []
    res = calc_workbook(_iterating(tmp_path / "in.xlsx", cells), tmp_path / "out.xlsx", {},
                        notes=[], kept=kept)
    assert (res["S!A1"], res["S!C2"], res["S!D1"]) == (-1, -2, -1) and kept == []
    # saved 0 and 0 (A1 = 0*2+1 = 1, not 0): no fixed point, refused
    cells[0], cells[2] = cell("A1", "OFFSET(C1,1,0)+1", 0), cell("C2", "A1*2", 0)
    with pytest.raises(WorkbookError, match="circular reference through S!A1, S!C2: the "
                       "workbook iterates .* not a fixed point"):
        calc_workbook(_iterating(tmp_path / "in2.xlsx", cells), tmp_path / "out.xlsx", {})


def test_a_written_cycle_read_through_offset_waits_for_its_fixed_point(tmp_path):
    # the loan of tests/test_cycles_fixed_point.py, its interest read first by OFFSET from
    # A1 (row 1, before the cycle): 170/1.9 (hand solved there), doubled
    from test_cycles_fixed_point import INTEREST, _loan

    src = _loan(tmp_path, downstream=False)
    import zipfile

    with zipfile.ZipFile(src) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    sheet = sheet.replace('<c r="A1">', '<c r="D1"><f>OFFSET(A1,1,0)*2</f><v>0</v></c>'
                          '<c r="A1">')
    parts["xl/worksheets/sheet1.xml"] = sheet.encode()
    with zipfile.ZipFile(src, "w") as z:
        for n, b in parts.items():
            z.writestr(n, b)
    kept = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, notes=[], kept=kept)
    assert res["S!D1"] == pytest.approx(2 * INTEREST, rel=1e-12) and kept == []


def test_a_dynamic_range_name_over_later_formulas(tmp_path):
    # DATA = OFFSET(S!$B$1,0,0,S!$D$1,1), a defined name computed before every cell; its
    # height D1 = 1+2 = 3, so SUM(DATA) = B1+B2+B3 = 4 + 8 + 16 = 28 (B1 = 2*2, B2 = B1*2,
    # B3 = B2*2)
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        cell("A1", "SUM(DATA)", 0), cell("B1", "2*2", 0), cell("B2", "B1*2", 0),
        cell("B3", "B2*2", 0), cell("D1", "1+2", 0)]},
        names={"DATA": "OFFSET(S!$B$1,0,0,S!$D$1,1)"})
    kept = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, notes=[], kept=kept)
    assert (res["S!A1"], res["S!B3"]) == (28, 16) and kept == []
