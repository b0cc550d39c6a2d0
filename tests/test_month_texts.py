"""A month and a number without a year written as text ("Jun-25"): Excel reads it by the
computer's settings (a day of this year, or a year: Excel read "May-25" as May 2025 in the
business corpus's fourteenth part), so strict mode refuses its date; but its month is the
same either way (MONTH), and a criterion of it matches no cell of a range of month names
(COUNTIF, SUMIFS), so those are computed. Expected values worked by hand, with the cells
Excel saved where named."""

from __future__ import annotations

import sheet_calc
import xlsx_make

c = xlsx_make.cell
text = sheet_calc.text
MONTHS = ["January", "February", "March", "April", "May", "June"]


def test_month_of_a_month_and_a_number_is_its_month(tmp_path):
    # Excel's saved cells, the business corpus's fifteenth part (seen), acollant040216/
    # Portfolio, Personal Finance Tracker.xlsx: Calculations!S7 is the text "Jun-25" and
    # C3:N3, IF(MONTH($S$7)<C$6,0,1) over C6:N6 = 1..12, saved 1 for months 1 to 6 and 0
    # for 7 to 12: MONTH("Jun-25") is 6. 25 June of this year and June 2025 are both June
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        text("A1", "Jun-25"), c("B1", "MONTH(A1)", 6), c("B2", 'MONTH("May-25")', 5),
        c("B3", 'IF(MONTH(A1)<7,0,1)', 0), c("B4", 'MONTH("25-Dec")', 12)])
    assert kept == {}
    assert (res["S!B1"], res["S!B2"], res["S!B3"], res["S!B4"]) == (6, 5, 0, 12)


def test_its_year_day_and_date_stay_refused(tmp_path):
    # YEAR("Jun-25") is this year or 2025, DAY 25 or 1: the reading decides, so each cell
    # keeps the value Excel saved (nothing reads them), with the reason
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        text("A1", "Jun-25"), c("B1", "YEAR(A1)", 2025), c("B2", "DAY(A1)", 1),
        c("B3", "DATEVALUE(A1)", 45809), c("B4", "MONTH(A1)", 6)])
    assert set(kept) == {"S!B1", "S!B2", "S!B3"}
    assert "a month and a number without a year" in kept["S!B1"]
    assert "a month and a number without a year" in kept["S!B3"]
    # (DAY's forms leave out text that looks like a number: refused before it is read)
    assert kept["S!B2"] == "DAY() given text that looks like a number"
    assert res["S!B4"] == 6


def test_a_day_its_month_lacks_is_refused_even_in_month(tmp_path):
    # "Feb-30" has no day 30: formulas' parser gave no date (#VALUE!), but Excel may read
    # 30 as the year 1930 (MONTH 2) or give an error; no page says which: refused, as is
    # "Jun-31", where it was #VALUE! before
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        c("B1", 'MONTH("Feb-30")', 2), c("B2", 'YEAR("Jun-31")', 1931)])
    assert set(kept) == {"S!B1", "S!B2"}


def test_a_criterion_of_it_over_month_names_matches_nothing(tmp_path):
    # "Jun-25" as a criterion matches, if read as a date, the cells holding that number,
    # and if read as a text, the cells equal to it without case (Microsoft Support,
    # "COUNTIF function"); a range of month names holds neither: 0 and 0, whichever way.
    # "<>Jun-25" matches every cell: 6
    cells = [text(f"A{r}", m) for r, m in enumerate(MONTHS, start=1)]
    cells += [c(f"B{r}", None, r * 10) for r in range(1, 7)]
    cells += [text("C1", "Jun-25"), c("D1", "COUNTIF(A1:A6,C1)", 0),
              c("D2", "SUMIFS(B1:B6,A1:A6,C1)", 0), c("D3", 'COUNTIF(A1:A6,"<>"&C1)', 6),
              c("D4", 'SUMIFS(B1:B6,A1:A6,"June")', 60)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {}
    assert (res["S!D1"], res["S!D2"], res["S!D3"], res["S!D4"]) == (0, 0, 6, 60)


def test_a_criterion_of_it_over_numbers_or_an_equal_text_stays_refused(tmp_path):
    # over a range holding a number (45809, June 2025's first day, or 25 June of this
    # year?) or the text "jun-25" itself (matched as a text; as a date, is it?), the
    # reading decides: each cell keeps Excel's value, with the reason
    cells = [c("A1", None, 45809), text("A2", "May"), text("A3", "jun-25"),
             text("C1", "Jun-25"), c("D1", "COUNTIF(A1:A2,C1)", 1),
             c("D2", "COUNTIF(A2:A3,C1)", 1)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert set(kept) == {"S!D1", "S!D2"}


def test_a_number_in_excels_text_forms_given_as_a_date_is_refused(tmp_path):
    # "$45,809" and "50%" read as numbers by Excel's VALUE (45809, 0.5), but formulas' date
    # parser gave YEAR and MONTH #VALUE! for them; whether Excel reads them as serial
    # numbers there is on no page: each cell keeps Excel's value. A plain "45809" is read
    # as the serial number 45809, 1 June 2025 (45292 is 1 January 2024, + 366 + 151 days)
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        c("B1", 'YEAR("$45,809")', 2025), c("B2", 'MONTH("50%")', 1),
        c("B3", 'MONTH("45809")', 6), c("B4", 'YEAR("45809")', 2025)])
    assert set(kept) == {"S!B1", "S!B2"}
    assert "a number written as Excel's VALUE reads it" in kept["S!B1"]
    assert (res["S!B3"], res["S!B4"]) == (6, 2025)
