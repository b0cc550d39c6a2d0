"""Circular references saved with iterative calculation OFF (``addin/engine/cycles.py``,
``checks_saved``): strict mode takes the values Excel saved in a cycle's cells when they
are a fixed point of its formulas, as it does with ``iterate="1"``, and computes the
cells downstream from them; values that are not (the 0 Excel shows when the cycle is
first made, or an input changed since Excel saved) are refused, or kept where nothing
computed reads them, with a sentence saying what would let them compute.

Microsoft Support, "Remove or allow a circular reference": with iterative calculation
off, once the warning is closed "Excel displays either a zero or the last calculated
value in the cell". A saved value that is a fixed point is what one more pass of Excel
over the cycle gives too, and what it shows without one.

The workbooks are made here (``tests/xlsx_make.py``), saved with ``<calcPr
calcId="191029"/>`` (no ``iterate``), as the three held-out files of the census are.
"""

from __future__ import annotations

import zipfile

import pytest
import xlsx_make
from xlsx_make import cell

from addin.engine.api import calc_workbook, refusal_causes
from addin.engine.cycles import NOT_FIXED_OFF, checks_saved
from addin.ooxml.guard import WorkbookError

# The loan of tests/test_cycles_fixed_point.py written in one cell that reads itself:
# opening balance O (A1) = 1000, rate r (B1) = 0.1, cash paid C (C1) = 300, interest
# I (A2) = r*(O + (O - C + I))/2 = B1*(2*A1-C1+A2)/2. By hand, I*(1 - r/2) = r*(2O - C)/2,
# I = r*(2O - C)/(2 - r) = 0.1*1700/1.9 = 170/1.9 = 89.47368421052632...
INTEREST = 170 / 1.9
SELF = "B1*(2*A1-C1+A2)/2"
OFF = b'<calcPr calcId="191029"'  # what xlsx_make writes: iterative calculation off
REFUSED_OFF = ("the workbook was saved with iterative calculation off, and the values "
               "Excel saved in them are not a fixed point")


def _book(tmp_path, cells, calc_pr=OFF, name="in.xlsx"):
    src = xlsx_make.write(tmp_path / name, {"S": cells})
    with zipfile.ZipFile(src) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    assert OFF in parts["xl/workbook.xml"]  # (no iterate="1" in what xlsx_make writes)
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(OFF, calc_pr)
    with zipfile.ZipFile(src, "w") as z:
        for n, b in parts.items():
            z.writestr(n, b)
    return src


def _loan(tmp_path, interest=INTEREST, cash=300, downstream=True, calc_pr=OFF):
    cells = [cell("A1", None, 1000), cell("B1", None, 0.1), cell("C1", None, cash),
             cell("A2", SELF, repr(interest))]
    if downstream:  # the interest doubled, saved as 0 so that a computed value shows
        cells.append(cell("C2", "A2*2", 0))
    return _book(tmp_path, cells, calc_pr)


def _calc(tmp_path, src):
    notes, kept = [], []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, notes=notes, kept=kept)
    return res, notes, kept

def _whole(tmp_path, src):
    """Strict mode not cell by cell: the workbook refused with the cycle's sentence (cell
    by cell, ``_calc``, a formula reading the cycle keeps Excel's value with it, and one
    whose saved value its inputs do not give refuses the workbook for that)."""
    return calc_workbook(src, tmp_path / "out.xlsx", {})



def test_a_self_reference_saved_at_its_fixed_point_is_taken_and_downstream_computed(
        tmp_path):
    res, notes, kept = _calc(tmp_path, _loan(tmp_path))
    assert res["S!A2"] == pytest.approx(INTEREST, rel=1e-12)
    assert res["S!C2"] == pytest.approx(340 / 1.9, rel=1e-12)  # computed, not the 0 saved
    assert notes == [] and kept == []
    assert refusal_causes(_loan(tmp_path)) == []  # (the census counts no cause)


def test_the_zero_excel_shows_for_a_new_cycle_is_no_fixed_point(tmp_path):
    # saved 0: B1*(2*A1-C1+0)/2 = 0.1*1700/2 = 85, not 0
    with pytest.raises(WorkbookError, match="circular reference through S!A2: " +
                       REFUSED_OFF + r" .*Enable iterative calculation, with a "
                       "Maximum Change small enough for its values to settle to 1e-9"):
        _whole(tmp_path, _loan(tmp_path, interest=0))
    # nothing computed reads it: its saved value is kept, with the cause named
    res, notes, kept = _calc(tmp_path, _loan(tmp_path, interest=0, downstream=False))
    assert res["S!A2"] == 0
    assert [(k.label, k.kind, k.reason) for k in kept] == [
        ("S!A2", "circular reference", NOT_FIXED_OFF)]


def test_an_input_changed_after_excel_saved_is_refused(tmp_path):
    # the cash paid changed from 300 to 400 without recomputing: with 400 the interest
    # is 0.1*1600/1.9 = 84.21..., and 0.1*(2000-400+89.47...)/2 = 84.47... is not 89.47...
    with pytest.raises(WorkbookError, match="circular reference through S!A2: " +
                       REFUSED_OFF):
        _whole(tmp_path, _loan(tmp_path, cash=400))


@pytest.mark.parametrize("attrs", [b'<calcPr fullCalcOnLoad="1" calcId="191029"',
                                   b'<calcPr calcMode="manual" calcOnSave="0" '
                                   b'calcId="191029"'])
def test_a_workbook_whose_values_may_be_stale_takes_no_saved_cycle(tmp_path, attrs):
    # "Cells kept", rule 4: fullCalcOnLoad, or manual calculation saved without computing
    assert not checks_saved(attrs.decode() + "/>")
    with pytest.raises(WorkbookError, match="circular reference through S!A2: napkin "
                       "does not compute formulas that depend on their own value"):
        _calc(tmp_path, _loan(tmp_path, calc_pr=attrs))


def _average_row(tmp_path, e, f, g):
    # 'Balance Sheet'!E48:N48 of a held-out three-statement model, in small: E1:G1 each
    # =AVERAGE($E1:$G1), a cycle of three cells reading themselves; H1 the same formula
    # outside the range it averages (downstream); I1 = E1*2, saved 0
    cells = [cell(c, "AVERAGE($E1:$G1)", v) for c, v in (("E1", e), ("F1", f), ("G1", g))]
    cells += [cell("H1", "AVERAGE($E1:$G1)", 0), cell("I1", "E1*2", 0)]
    return _book(tmp_path, cells)


def test_an_average_of_its_own_row_saved_equal_is_a_fixed_point(tmp_path):
    # three equal values are their own average: (5 + 5 + 5)/3 = 5
    res, notes, kept = _calc(tmp_path, _average_row(tmp_path, 5, 5, 5))
    assert [res[f"S!{c}1"] for c in "EFGHI"] == [5, 5, 5, 5, 10] and kept == []
    # 1, 2, 3: their average 2 is not E1's 1 (nor G1's 3)
    with pytest.raises(WorkbookError, match="circular reference through S!E1, S!F1, "
                       "S!G1: " + REFUSED_OFF):
        _whole(tmp_path, _average_row(tmp_path, 1, 2, 3))


def _remembered(tmp_path, switch, source, saved):
    # a scenario's value remembered by a self-reference (a held-out Tesla model's
    # D213 = VALUE(IF($G$4=1,$B$185,$D$213))): D1 takes B1 while A1 is 1, else keeps
    # its own value; E1 = D1+1 downstream, saved 0
    return _book(tmp_path, [cell("A1", None, switch), cell("B1", None, source),
                            cell("D1", "IF($A$1=1,$B$1,$D$1)", saved),
                            cell("E1", "D1+1", 0)])


def test_a_value_remembered_by_a_self_reference(tmp_path):
    # switch 2: D1 = D1, any value a fixed point; Excel shows the last value computed,
    # 306.6 (saved), and E1 = 306.6 + 1 = 307.6
    res, _, kept = _calc(tmp_path, _remembered(tmp_path, 2, 400, 306.6))
    assert (res["S!D1"], res["S!E1"]) == (306.6, pytest.approx(307.6, rel=1e-15))
    assert kept == []
    # switch 1 and B1 400: D1 = 400; saved 400, taken
    res, _, _ = _calc(tmp_path, _remembered(tmp_path, 1, 400, 400))
    assert res["S!E1"] == 401
    # the switch changed to 1 after Excel saved 306.6: D1 would be 400, refused
    with pytest.raises(WorkbookError, match="circular reference through S!D1: " +
                       REFUSED_OFF):
        _whole(tmp_path, _remembered(tmp_path, 1, 400, 306.6))


def test_a_dynamic_array_on_a_cycle_keeps_its_size(tmp_path):
    # A1 spills =B2:C2 over A1:B1, saved 5 and 7; B2 = A1 reads it back: a cycle of A1
    # and B2 whose saved values are a fixed point (A1 from B2 5 and C2 7 gives 5 and 7;
    # B2 from A1 gives 5). The spill stays 1x2, as Excel saved it (the held-out LBO
    # model's DebtSchedule!K27 =+K44:O44 on its debt cycle); D1 = B1*2 = 14, saved 0
    from test_excel_dynamic import spill, write

    cells = [*spill("A1", "A1:B1", "B2:C2", [[5, 7]]), cell("D1", "B1*2", 0),
             cell("B2", "A1", 5), cell("C2", None, 7)]
    res = calc_workbook(write(tmp_path / "in.xlsx", cells), tmp_path / "out.xlsx", {})
    assert (res["S!A1"], res["S!B1"], res["S!B2"], res["S!D1"]) == (5, 7, 5, 14)
