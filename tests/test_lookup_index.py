"""The exact matches of VLOOKUP, HLOOKUP and MATCH found by an index of a tall range
(``addin/excel/lookup_index.py``): the same values as the function's own search of every
key, Excel's rules by hand, the work counted, and no stale index."""

from __future__ import annotations

import random
import types

import numpy as np
import pytest
import sheet_calc
import xlsx_make

from addin.engine import budget
from addin.engine.boot import ready
from addin.engine.executor import compile_formula
from addin.excel import args as xa
from addin.excel import lookup_index
from addin.excel.args import Cannot
from addin.excel.lookup import match, table_lookup, xlookup, xmatch
from addin.formula import context, ranges
from udfs.machinery.errors import ExcelError

c = xlsx_make.cell


def _store():
    return types.SimpleNamespace(cache={})


def _range(arr):
    ref = ranges.area_ref("S", 1, 1, arr.shape[0], arr.shape[1])
    return ranges.one_range(ref, arr)


def _same(a, b) -> bool:
    a, b = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
    return a.shape == b.shape and all(
        type(x) is type(y) and (x == y or (x != x and y != y))
        for x, y in zip(a.ravel(), b.ravel(), strict=True))


def _quiet(fn):
    """``fn``, its refusal (``Cannot``: a text that folds to other letters without case)
    and its error values given as values to compare."""
    def run(*args):
        try:
            return fn(*args)
        except Cannot as ex:
            return f"Cannot: {ex}"
        except ExcelError as ex:  # (the error value napkin's functions raise)
            return f"{ex.code}: {ex}"
    return run


def _keys(ns, rng):
    pool = [1, 2, 2.0, 3.5, -0.0, 0, "a", "A", "b", "B ", "1", "x?", "a*", "~", True,
            False, ns.EMPTY, ns.errors["#N/A"], ns.errors["#DIV/0!"], "Straße"]
    return [rng.choice(pool) for _ in range(60)]


@pytest.mark.parametrize("seed", range(6))
def test_the_index_gives_the_function_s_own_values(seed):
    # each lookup computed twice: by the index (a store as the engine keeps, the same
    # range array for every formula) and by the function searching (no store)
    ns = ready()
    rng = random.Random(seed)
    keys = _keys(ns, rng)
    table = np.empty((60, 3), dtype=object)
    table[:, 0] = keys
    table[:, 1] = [rng.choice([7, "t", ns.EMPTY, ns.errors["#REF!"], True, 2.5])
                   for _ in range(60)]
    table[:, 2] = np.arange(60)
    looks = [*{repr(k): k for k in keys}.values(), 4, "zz", "a", "?", "b*", 2.0]
    vlookup, hlookup = table_lookup("VLOOKUP", True), table_lookup("HLOOKUP", False)
    column = table[:, :1].copy()
    row = column.T.copy()
    cases = []
    for v in looks:
        for index in (1, 2, 3, 4):
            cases.append((vlookup, (v, "T", index, 0)))
            cases.append((hlookup, (v, "H", index, False)))
        cases.append((match, (v, "C", 0)))
        cases.append((match, (v, "R", 0)))
        if xa.kind(v) is not None:  # (XLOOKUP, XMATCH of a blank cell: refused)
            for modes in ((), (0,), (0, 1), (0, -1), (0.7, -1.2), (2, 1), (0, 2)):
                cases.append((_quiet(xmatch), (v, "C", *modes)))
                cases.append((_quiet(xmatch), (v, "R", *modes)))
                cases.append((_quiet(xlookup), (v, "C", table[:, 2:3].copy(), "-", *modes)))
    by = {"T": table, "H": table.T.copy(), "C": column, "R": row}
    found = 0
    for fn, args in cases:
        got = {}
        for kind, store in (("index", _store()), ("scan", None)):
            context.STATE.columns = store
            try:
                a = list(args)
                a[1] = _range(by[a[1]].copy())
                try:
                    got[kind] = fn(*a)
                except ExcelError as ex:  # (an error value looked up: its value, raised)
                    got[kind] = ex.code
                    continue
                if kind == "index":  # (the same range again: the index kept)
                    again = fn(*a)
                    assert _same(again, got[kind])
                    found += len(store.cache) > 0
            finally:
                context.STATE.columns = None
        assert _same(got["index"], got["scan"]), (fn, args, got)
    assert found  # (the index was made, not only the search)


def test_excel_s_rules_by_hand(tmp_path):
    # a tall column (40 rows) A, values in B; the first of two equal keys wins (Microsoft
    # "VLOOKUP function": "the first value found is used"), text without regard to case,
    # the text "7" never the number 7 (Microsoft KB 213476), a wildcard searched
    keys = ["x"] * 40
    keys[4], keys[9], keys[14], keys[19], keys[24] = "Apple", "apple", 7, "7", "ap*"
    cells = [c(f"A{i}", None, k) if not isinstance(k, str) else sheet_calc.text(f"A{i}", k)
             for i, k in enumerate(keys, 1)]
    cells += [c(f"B{i}", None, i * 10) for i in range(1, 41)]
    formulas = ['VLOOKUP("APPLE",A1:B40,2,FALSE)',  # row 5 first: 50
                'VLOOKUP(7,A1:B40,2,0)',  # the number: row 15, 150
                'VLOOKUP("7",A1:B40,2,0)',  # the text: row 20, 200
                'MATCH("apple",A1:A40,0)',  # 5
                'MATCH("ap~*",A1:A40,0)',  # the text "ap*" by its escaped wildcard: 25
                'MATCH("ap*",A1:A40,0)',  # "Apple" first: 5
                '_xlfn.XMATCH("APPLE",A1:A40)',  # 5
                '_xlfn.XLOOKUP("apple",A1:A40,B1:B40,,0,-1)',  # the last, row 10: 100
                '_xlfn.XLOOKUP(7,A1:A40,B1:B40)']  # 150
    cells += sheet_calc.formulas_down("D", formulas)
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {}
    assert [res[f"S!D{i}"] for i in range(1, 10)] == [50, 150, 200, 5, 25, 5, 5, 100, 150]
    bad = sheet_calc.formulas_down("E", ['VLOOKUP("none",A1:B40,2,0)'])
    res, _ = sheet_calc.calc_sheet(tmp_path, cells + bad)
    assert str(res["S!E1"]).startswith("#N/A")


def test_the_work_counted(tmp_path):
    # VLOOKUP over a tall range counts LOOKUP_RANGE a formula and the range's cells once;
    # the same over a short range reads its cells in each formula
    fn = compile_formula("=VLOOKUP(C2,PVP!A:B,2,0)", "C2")
    assert budget.lookup_inputs(fn) == {1: "VLOOKUP"}
    assert budget.lookup_inputs(compile_formula("=MATCH(C2,A:A,0)+SUM(A:A)", "C2")) == {}
    assert lookup_index.tall("VLOOKUP", 33, 2) and not lookup_index.tall("VLOOKUP", 32, 2)
    assert lookup_index.tall("HLOOKUP", 2, 33) and not lookup_index.tall("HLOOKUP", 33, 2)
    assert lookup_index.tall("MATCH", 1, 40) and not lookup_index.tall("MATCH", 40, 2)
    work = budget.Work()
    node = types.SimpleNamespace(prog=types.SimpleNamespace(fn=fn), text="=VLOOKUP(C2,P)",
                                 specs=[("rng", ((0, 2, 3, 2, 3),)),
                                        ("rng", ((1, 1, 1, 1000, 2),))], spill=None)
    for _ in range(3):
        work.count(node, lambda part: part)
    # 3 formulas: 20 each, 1 call each (20), C2 read (1 cell each), the lookup range 20
    # each, and its 2,000 cells once
    assert work.per_computation == 3 * (20 + 20 + 1 + 20) + 2000


def test_a_changed_range_is_never_looked_up_in_a_stale_index():
    ns = ready()
    store = _store()
    context.STATE.columns = store
    try:
        arr = np.array([[k] for k in range(40)], dtype=object)
        rng = _range(arr)
        assert np.asarray(match(5, rng, 0)).item() == 6
        with pytest.raises(ValueError):  # (the array indexed is read-only)
            arr[0, 0] = 5
        fresh = arr.copy()  # a range read again after its cells change: a new array
        fresh[0, 0] = 5
        assert np.asarray(match(5, _range(fresh), 0)).item() == 1
    finally:
        context.STATE.columns = None
    assert ns is not None


def test_the_bench_workbook_by_hand(tmp_path):
    # napkin bench's part 14 (addin/cli/bench_lookup.py), small: row 3 looks up key
    # (3 * 7919) % 100 + 1 = 58, whose number is 58 * 1.5 = 87; row 2 the missing K00000
    from addin.cli.bench_lookup import make_lookup_workbook
    from addin.engine.api import calc_workbook

    src = tmp_path / "lookup.xlsx"
    make_lookup_workbook(src, keys=100, formulas=20)
    got = {}
    try:
        for indexed in (True, False):
            lookup_index.INDEXED = indexed
            got[indexed] = {k: str(v) for k, v in calc_workbook(src, None, {}).items()}
    finally:
        lookup_index.INDEXED = True
    assert got[True] == got[False]
    assert got[True]["Look!B3"] == "87" and got[True]["Look!B2"].startswith("#N/A")
