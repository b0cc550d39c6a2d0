"""Evidence for VLOOKUP given an argument left out (``addin/formula/excel_functions/
lookup.py``): range_lookup written empty, ``VLOOKUP(x,table,2,)``, is FALSE, an exact
match; any other argument left out is refused.

Each value is a cell Excel saved in the seen corpora (its file and cell in the comment,
its inputs copied here) or worked by hand from Microsoft's page.
"""

from __future__ import annotations

import sheet_calc
import xlsx_make

c = xlsx_make.cell
text = sheet_calc.text


def test_an_empty_range_lookup_is_an_exact_match_as_excel_saved(tmp_path):
    # Akshit37/Loan-Amortization, Loan Amortization.xlsx (the fifth held-out part),
    # 'Information Sheet': AE14:AF15 = "Arrear" 0, "Advance" 1; D11 = "Arrear";
    # E11 = VLOOKUP(D11,AE14:AF15,2,) saved 0. By hand: an exact match finds "Arrear" in
    # the first row -> 0. A search by halving for the last value not above "Arrear" (the
    # approximate match, Microsoft Support, "VLOOKUP function": "the next largest value
    # that is less than lookup_value") looks at row 1 ("Arrear" <= "Arrear") then row 2
    # ("Advance" <= "Arrear") and gives the second row's 1, which Excel did not save.
    cells = [text("AE14", "Arrear"), text("AE15", "Advance"),
             c("AF14", None, 0), c("AF15", None, 1), text("D11", "Arrear"),
             text("D12", "Advance"), c("D13", None, 7),
             c("E11", "VLOOKUP(D11,AE14:AF15,2,)", 0), c("E12", "VLOOKUP(D12,AE14:AF15,2,)", 0),
             c("E13", "VLOOKUP(D13,AE14:AF15,2,)", 0)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {}
    # E12: exact, "Advance" is the second row -> 1; E13: 7 is in no row -> #N/A (the
    # page: "If an exact match is not found, the value #N/A is returned" for FALSE)
    assert (res["S!E11"], res["S!E12"]) == (0, 1)
    assert str(res["S!E13"]).split()[0] == "#N/A"


def test_an_empty_range_lookup_in_unsorted_numbers(tmp_path):
    # 3, 1, 2 in the first column (not sorted): FALSE finds 2 in the third row -> "c";
    # the same without the fourth argument is an approximate match napkin refuses on
    # values not sorted (addin/excel/lookup.py), so its saved value is kept
    cells = [c("A1", None, 3), c("A2", None, 1), c("A3", None, 2),
             text("B1", "a"), text("B2", "b"), text("B3", "c"),
             c("D1", "VLOOKUP(2,A1:B3,2,)", 0), c("D2", "VLOOKUP(2,A1:B3,2)", 0)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert res["S!D1"] == "c"
    assert kept == {"S!D2": "VLOOKUP's approximate match in values that are not sorted"}


def test_another_argument_left_out_is_refused(tmp_path):
    # VLOOKUP(,A1:B2,2) and VLOOKUP(1,A1:B2,): no page says how Excel reads them
    cells = [c("A1", None, 1), c("B1", None, 5), c("A2", None, 2), c("B2", None, 6),
             c("D1", "VLOOKUP(,A1:B2,2,FALSE)", 0), c("D2", "VLOOKUP(1,A1:B2,,FALSE)", 0)]
    _, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {
        "S!D1": "VLOOKUP given its lookup_value left out (its page does not say how Excel "
                "reads it): write the value there",
        "S!D2": "VLOOKUP given its index left out (its page does not say how Excel reads "
                "it): write the value there"}


def test_an_empty_match_type_is_an_exact_match_as_excel_saved(tmp_path):
    # sunclan93/salesTracker (and its copy ChenGodRen/salesTracker), Sales Tracker.xlsx
    # (part heldout17), 'Report (Today)': C10:C21 = 54, 39, 75.9, 29.9, 21.2, 29.9, 18.4,
    # 4, 2, 37.5, 34, 47.2 (not sorted), B10:B21 = SC, HC, WC, W, B, BF, D, BB, N, T, TF, L;
    # F4 = 75.9; E4 = INDEX($B$10:$C$21,MATCH(F4,$C$10:$C$21,),1) saved "WC". By hand: an
    # exact match finds 75.9 in the third row -> "WC". A search by halving for the last
    # value not above 75.9 (match_type 1, Microsoft Support, "MATCH function") looks at row
    # 6 (29.9), 9 (2), 11 (34), 12 (47.2), all below, and gives the twelfth, "L", which
    # Excel did not save
    names = ["SC", "HC", "WC", "W", "B", "BF", "D", "BB", "N", "T", "TF", "L"]
    numbers = [54, 39, 75.9, 29.9, 21.2, 29.9, 18.4, 4, 2, 37.5, 34, 47.2]
    cells = [c("F4", None, 75.9), c("F5", None, 4), c("F6", None, 5)]
    cells += [x for r, (n, v) in enumerate(zip(names, numbers, strict=True), 10)
              for x in (text(f"B{r}", n), c(f"C{r}", None, v))]
    cells += [c(f"E{r}", f"INDEX($B$10:$C$21,MATCH(F{r},$C$10:$C$21,),1)", 0)
              for r in (4, 5, 6)]

    def place(cell):  # (row, column): a row's cells in column order, as Excel writes them
        ref = cell.split('r="', 1)[1].split('"', 1)[0]
        return int(ref[1:]), ref[0]

    res, kept = sheet_calc.calc_sheet(tmp_path, sorted(cells, key=place))
    assert kept == {}
    # E5: 4 is the eighth number -> "BB"; E6: 5 is none of them -> #N/A (an exact match)
    assert (res["S!E4"], res["S!E5"]) == ("WC", "BB")
    assert str(res["S!E6"]).split()[0] == "#N/A"


def test_match_given_another_argument_left_out_is_refused(tmp_path):
    cells = [c("A1", None, 1), c("A2", None, 2),
             c("D1", "MATCH(,A1:A2,0)", 0), c("D2", "MATCH(1,,0)", 0)]
    _, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept["S!D1"].startswith("MATCH given its lookup_value left out")
    assert kept["S!D2"].startswith("MATCH given its lookup_array left out")
