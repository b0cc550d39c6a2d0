"""Excel 365's functions that build or reshape arrays, computed into spills saved as
Excel saves them (``tests/test_excel_dynamic.py``'s ``spill``): SEQUENCE, CHOOSECOLS,
CHOOSEROWS, VSTACK, HSTACK and SORTBY, each on its Microsoft page's example, the values
worked by hand; what the pages leave open refused."""

from __future__ import annotations

import pytest
import xlsx_make
from test_excel_dynamic import refused_spill, spilled

from addin.engine.api import calc_workbook
from addin.ooxml import xlsx_values as xv


def _compute(tmp_path, cells, cases):
    """Each case {anchor: (formula, values)} spilled from its anchor (``spilled``): the
    values napkin computes, error values by their codes."""
    _, got = spilled(tmp_path, cells, cases)
    return {k: [[_plain(v) for v in row] for row in rows] for k, rows in got.items()}


def _plain(v):
    return getattr(v, "code", v)


def _table(top_row: int, rows: list[list], first_col: int = 1) -> list[str]:
    out = []
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            if v is None:
                continue
            at = f"{xv.num2col(first_col + j)}{top_row + i}"
            if isinstance(v, str) and v.startswith("#"):
                out.append(xlsx_make.cell(at, None, v, t="e"))
            elif isinstance(v, str):
                out.append(xlsx_make.cell(at, None, v, t="inlineStr"))
            else:
                out.append(xlsx_make.cell(at, None, v))
    return out


def test_sequence_of_microsofts_example(tmp_path):
    # https://support.microsoft.com/en-us/office/sequence-function-57467a98-57e0-4817-9f14-2eb78519ca90:
    # =SEQUENCE(4,5) is 1 to 20, along each row; left out, columns, start and step are 1
    cases = {"A1": ("_xlfn.SEQUENCE(4,5)", [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10],
                                            [11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]),
             "G1": ("_xlfn.SEQUENCE(3)", [[1], [2], [3]]),
             "I1": ("_xlfn.SEQUENCE(2,3,10,-1)", [[10, 9, 8], [7, 6, 5]])}
    got = _compute(tmp_path, [], cases)
    assert got == {k: v for k, (_, v) in cases.items()}


def test_sequence_of_a_fraction_adds_the_step_as_excel_saved(tmp_path):
    # the values Excel saved in the business corpus's fourth held-out part (seen), LBO
    # Model.xlsx 'DCF Analysis'!I70:M70, H71:H75, G89:G93 and Hedged vs Unhedged Foreign
    # Currency Model.xlsx 'Hedged vs Unhedged Returns'!B5:B8, written here as Excel wrote
    # them (17 significant digits): the step added each time; start + 4 x step would end
    # the first two in 0.06 and 0.195
    cases = {
        "A1": ("_xlfn.SEQUENCE(1,5,2%,1%)", [[0.02, 0.03, 0.04, 0.05, 6.0000000000000005e-2]]),
        "A3": ("_xlfn.SEQUENCE(5,1,11.5%,2%)", [[0.115], [0.13500000000000001], [0.155],
                                               [0.17499999999999999], [0.19499999999999998]]),
        "B3": ("_xlfn.SEQUENCE(5,1,70%,15%)", [[0.7], [0.85], [1.0], [1.1499999999999999],
                                              [1.2999999999999998]]),
        "C3": ("_xlfn.SEQUENCE(4,1,1/1/2024,32)", [[4.9407114624505926e-4],
                                                  [32.000494071146242], [64.00049407114625],
                                                  [96.00049407114625]]),
    }
    got = _compute(tmp_path, [], cases)
    assert got == {k: v for k, (_, v) in cases.items()}


def test_randarray_draws_within_its_pages_bounds(tmp_path):
    # Microsoft Support, "RANDARRAY function": =RANDARRAY(5,3) is 5 rows by 3 columns of
    # decimals from 0 to 1; =RANDARRAY(5,3,1,100,TRUE) whole numbers from 1 to 100; left
    # out, one value from 0 to 1; a min greater than max #VALUE!
    shapes = {"A1": ("_xlfn.RANDARRAY(5,3)", [[0] * 3] * 5),
              "E1": ("_xlfn.RANDARRAY(5,3,1,100,TRUE)", [[0] * 3] * 5),
              "I1": ("_xlfn.RANDARRAY(2,2,-3.5,-1.25)", [[0] * 2] * 2),
              "L1": ("_xlfn.RANDARRAY()", [[0]])}
    got = _compute(tmp_path, [], shapes)
    a, e, i, one = (sum(got[k], []) for k in ("A1", "E1", "I1", "L1"))
    assert len(a) == 15 and all(isinstance(v, float) and 0 <= v < 1 for v in a)
    assert len(set(a)) > 1  # (15 draws all equal: a chance of 2^-780 or so)
    assert all(isinstance(v, int) and 1 <= v <= 100 for v in e)
    assert all(-3.5 <= v < -1.25 for v in i) and 0 <= one[0] < 1
    _, got = spilled(tmp_path, [], {"N1": ("_xlfn.RANDARRAY(1,1,3,2)", [[0]])})
    assert got["N1"][0][0].code == "#VALUE!"


def test_choosecols_and_chooserows_of_microsofts_examples(tmp_path):
    # https://support.microsoft.com/en-us/Excel/choosecols-function: data 1..30 in A2:E7;
    # =CHOOSECOLS(A2:E7,1,3,5,1) columns 1, 3, 5 and 1 again; =CHOOSECOLS(A2:E7,-1,-2) the
    # last two, the last first. CHOOSEROWS' page: the rows alike (=CHOOSEROWS(A2:E7,1,3,5,1))
    data = [[5 * i + j + 1 for j in range(5)] for i in range(6)]
    cases = {
        "G2": ("_xlfn.CHOOSECOLS(A2:E7,1,3,5,1)", [[r[0], r[2], r[4], r[0]] for r in data]),
        "L2": ("_xlfn.CHOOSECOLS(A2:E7,-1,-2)", [[r[4], r[3]] for r in data]),
        "A10": ("_xlfn.CHOOSEROWS(A2:E7,1,3,5,1)", [data[0], data[2], data[4], data[0]]),
        "A15": ("_xlfn.CHOOSEROWS(A2:E7,-1)", [data[5]]),
    }
    cells = _table(2, data) + [xlsx_make.cell("O1", "_xlfn.CHOOSECOLS(A2:E7,6)", 0),
                               xlsx_make.cell("P1", "_xlfn.CHOOSEROWS(A2:E7,0)", 0)]
    got = _compute(tmp_path, cells, cases)
    assert got == {k: v for k, (_, v) in cases.items()}
    res = calc_workbook(tmp_path / "in.xlsx", None, {})
    # the pages: #VALUE! where a number's absolute value is 0 or exceeds the columns (rows)
    assert res["S!O1"].code == "#VALUE!" and res["S!P1"].code == "#VALUE!"


def test_vstack_and_hstack_of_microsofts_examples(tmp_path):
    # https://support.microsoft.com/en-us/excel/vstack-function: examples 1-3 (A2:C3 and
    # E2:G3 of letters; A2:B4, C2:D3, E2:F2 of two columns; F2 #VALUE!: a narrower array
    # padded with #N/A); HSTACK's page: the same arrays side by side
    letters = [["A", "B", "C", None, "AA", "BB", "CC"], ["D", "E", "F", None, "DD", "EE", "FF"]]
    cases = {
        "A5": ("_xlfn.VSTACK(A2:C3,E2:G3)", [["A", "B", "C"], ["D", "E", "F"],
                                            ["AA", "BB", "CC"], ["DD", "EE", "FF"]]),
        "E5": ("_xlfn.HSTACK(A2:C3,E2:G3)", [["A", "B", "C", "AA", "BB", "CC"],
                                            ["D", "E", "F", "DD", "EE", "FF"]]),
    }
    got = _compute(tmp_path, _table(2, letters), cases)
    assert got == {k: v for k, (_, v) in cases.items()}
    numbers = [[1, 2, "A", "B", "C", "#VALUE!"], [3, 4, "D", "E", "F", None], [5, 6]]
    cases = {"A10": ("_xlfn.VSTACK(A2:B4,C2:E3,F2)", [
        [1, 2, "#N/A"], [3, 4, "#N/A"], [5, 6, "#N/A"], ["A", "B", "C"], ["D", "E", "F"],
        ["#VALUE!", "#N/A", "#N/A"]])}
    got = _compute(tmp_path, _table(2, numbers), cases)
    assert got == {k: v for k, (_, v) in cases.items()}


def test_sortby_worked_by_hand(tmp_path):
    # https://support.microsoft.com/en-us/office/sortby-function-cd2d7a62-1b93-435c-b561-d6a35134f28f:
    # =SORTBY(D2:E9,E2:E9) sorts names by age; a second by_array breaks ties
    people = [["Tom", "East", 52], ["Fred", "West", 65], ["Amy", "East", 22],
              ["Sal", "West", 73]]
    cases = {
        "E2": ("_xlfn.SORTBY(A2:A5,C2:C5)", [["Amy"], ["Tom"], ["Fred"], ["Sal"]]),
        "F2": ("_xlfn.SORTBY(A2:A5,C2:C5,-1)", [["Sal"], ["Fred"], ["Tom"], ["Amy"]]),
        "G2": ("_xlfn.SORTBY(A2:A5,B2:B5,1,C2:C5,-1)", [["Tom"], ["Amy"], ["Sal"], ["Fred"]]),
    }
    got = _compute(tmp_path, _table(2, people), cases)
    assert got == {k: v for k, (_, v) in cases.items()}


@pytest.mark.parametrize(("formula", "says"), [
    ("_xlfn.SEQUENCE(0)", "SEQUENCE() of fewer than 1 row or column"),
    ("_xlfn.SEQUENCE(2,2,0.5)", "SEQUENCE's start or step other than a whole number in "
                                "more than one row and column"),
    ("_xlfn.SEQUENCE(2,1,\"a\")", "SEQUENCE's start other than a number"),
    ("_xlfn.RANDARRAY(2,1,5,5)", "RANDARRAY with min equal to max"),
    ("_xlfn.RANDARRAY(2,1,0.5,3,TRUE)", "RANDARRAY's whole numbers between a min or max"),
    ("_xlfn.RANDARRAY(2,1,0,3,1)", "RANDARRAY's whole_number other than TRUE or FALSE"),
    ("_xlfn.RANDARRAY(0)", "RANDARRAY() of fewer than 1 row or column"),
    ("_xlfn.SORTBY({1;2},{\"a\";\"B\"})", "SORTBY() of text whose order depends on case"),
    ("_xlfn.SORTBY({1;2},{1;1})", "SORTBY() of rows that tie on every key but differ"),
    ("_xlfn.SORTBY({1;2},{1;2},0)", "SORTBY's sort_order other than 1 or -1"),
])
def test_what_the_pages_do_not_settle_is_refused(tmp_path, formula, says):
    refused_spill(tmp_path, formula, says)
