"""Excel's STOCKHISTORY taken from the array Excel saved in its spill range
(``addin.excel.stock_history``): its dependents compute from the prices Excel fetched;
a formula whose arguments napkin cannot tell are Excel's is refused with a sentence
naming the cell and the fix (open the workbook in Excel to fetch the prices again).

The workbook rebuilds the first rows of part heldout4's Hedged vs Unhedged Foreign
Currency Model.xlsx (tools/business_corpus.csv), sheet 1: C3 = 45292 (1 January 2024), F3
= 45657, B11 = ``_xlfn.STOCKHISTORY(C6,C3,F3,0,0,0,1)`` spilled into B11:C262 (here cut to
B11:C13: the dates and closes Excel saved in B11:C13), E12 = ``C12/C11-1`` and E13 =
``C13/C12-1`` with the values Excel saved there. Its stock C6 is a Stocks data type there;
here the ticker as a text (the data type's own reading is tests/test_excel_linked_data.py).
"""

from __future__ import annotations

from zipfile import ZipFile

import pytest
import test_excel_dynamic as dynamic
import xlsx_make

from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError

# B11:C13 as Excel saved them in the file: dates (serials) and closes
SAVED = [[45293, 185.64], [45294, 184.25], [45295, 181.91]]
FORMULA = "_xlfn.STOCKHISTORY(C6,C3,F3,0,0,0,1)"


def _book(tmp_path, formula=FORMULA, f3=("F3", None, 45657), extra=()):
    cells = [xlsx_make.cell("C3", None, 45292), xlsx_make.cell(*f3),
             xlsx_make.cell("C6", None, "XNAS:AAPL", t="inlineStr"),
             *dynamic.spill("B11", "B11:C13", formula, SAVED),
             # Excel saved E12 and E13 (the file's values; recomputed by hand below)
             xlsx_make.cell("E12", "C12/C11-1", -7.4876104287868728E-3),
             xlsx_make.cell("E13", "C13/C12-1", -1.2700135685210334E-2), *extra]

    def at(c):
        ref = c.split('r="', 1)[1].split('"', 1)[0]
        return int("".join(ch for ch in ref if ch.isdigit())), len(ref), ref

    return dynamic.write(tmp_path / "in.xlsx", sorted(cells, key=at))


def test_saved_prices_read_by_their_dependents(tmp_path):
    res = calc_workbook(_book(tmp_path), tmp_path / "out.xlsx", {})
    assert [[res[f"S!{c}{r}"] for c in "BC"] for r in (11, 12, 13)] == SAVED
    # by hand: 184.25 / 185.64 - 1 = -0.0074876...; 181.91 / 184.25 - 1 = -0.0127001...
    assert res["S!E12"] == pytest.approx(184.25 / 185.64 - 1, rel=1e-15)
    assert res["S!E12"] == pytest.approx(-7.4876104287868728E-3, rel=1e-12)  # Excel's
    assert res["S!E13"] == pytest.approx(-1.2700135685210334E-2, rel=1e-12)  # Excel's


def test_an_end_date_computed_as_saved_is_taken(tmp_path):
    # F3 = C3+365, napkin's 45657 equal to the value Excel saved
    src = _book(tmp_path, f3=("F3", "C3+365", 45657))
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!C12"] == 184.25


def test_dates_written_as_text_are_taken_with_the_saved_prices(tmp_path):
    # the form of heldout13's (seen) Stock Portfolio.xlsx, Giovasantoru: STOCKHISTORY("ERG",
    # "01-01-2020", "01-01-2024",0,2,0,1), its dates written as text, which Excel reads by
    # the computer's settings; the saved array is taken whatever they read as (napkin
    # fetches nothing and computes nothing from them): the dependents compute as above
    formula = '_xlfn.STOCKHISTORY(C6,"01-01-2024","12-31-2024",0,0,0,1)'
    res = calc_workbook(_book(tmp_path, formula), tmp_path / "out.xlsx", {})
    assert [[res[f"S!{c}{r}"] for c in "BC"] for r in (11, 12, 13)] == SAVED
    assert res["S!E12"] == pytest.approx(-7.4876104287868728E-3, rel=1e-12)  # Excel's


@pytest.mark.parametrize("f3, formula, says", [
    # an input computed otherwise than Excel saved it (C3+366 is 45658, saved 45657):
    # the prices saved are not those of the arguments now
    (("F3", "C3+366", 45657), FORMULA, "not the one Excel saved"),
    # TODAY(): its value when Excel fetched is not known
    (("F3", None, 45657), "_xlfn.STOCKHISTORY(C6,C3,TODAY(),0,0,0,1)", "volatile"),
    # inside another function: the saved spill is not STOCKHISTORY's own value
    (("F3", None, 45657), "IFERROR(_xlfn.STOCKHISTORY(C6,C3,F3,0,0,0,1),0)",
     "inside another expression"),
    (("F3", None, 45657), "_xlfn.STOCKHISTORY(C6,C3,F3,0,0,0,1)+0",
     "inside another expression"),
])
def test_refused_where_the_arguments_are_not_known_to_be_excels(tmp_path, f3, formula, says):
    with pytest.raises(WorkbookError) as e:
        calc_workbook(_book(tmp_path, formula, f3), tmp_path / "out.xlsx", {})
    msg = str(e.value)
    assert "S!B11" in msg and says in msg and "fetch the prices again" in msg


def test_kept_when_nothing_computed_reads_it(tmp_path):
    # no dependent: the refused cell keeps Excel's values (the kept-cells rule)
    cells = [xlsx_make.cell("C3", None, 45292),
             *dynamic.spill("B11", "B11:C13", "_xlfn.STOCKHISTORY(\"MSFT\",TODAY()-7)", SAVED)]
    kept: list = []
    res = calc_workbook(dynamic.write(tmp_path / "in.xlsx", cells), tmp_path / "out.xlsx",
                        {}, kept=kept)
    assert res["S!C12"] == 184.25 and kept


def test_refused_where_the_saved_values_may_be_stale(tmp_path):
    # <calcPr fullCalcOnLoad="1">: Excel fetches again when it opens the file
    src = _book(tmp_path)
    with ZipFile(src) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(
        b'<calcPr calcId="191029"', b'<calcPr calcId="191029" fullCalcOnLoad="1"')
    with ZipFile(src, "w") as z:
        for n, b in parts.items():
            z.writestr(n, b)
    with pytest.raises(WorkbookError, match="may not be current"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
