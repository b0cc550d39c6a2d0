"""Dates written as text whose value depends on the computer's regional settings or clock
(``addin.formula.locale_texts``).

Evidence: Microsoft Learn, "DateValue function" (VBA, the same conversion): it
"recognizes the order for month, day, and year according to the short date format you
specified for your system". So "1/2/2024" is 2 January with a month-first short date and
1 February with a day-first one; a workbook does not record which computer computed it.
A month and a number without a year ("May-25", "January1") are kept: the page says a year
left out is the clock's, but Excel read "May-25" as May 2025 (the business corpus's
fourteenth part: =G39+31 of "May-25" saved as 1 June 2025). A month, a weekday or a day alone
("March", "Mon", "1st") is no date: typed into a cell it stays a text (formulas' parser
read each as a date of the current year, and COUNTIF(A1:A5,"<>Jan") counted 3 of 5 texts).
"""

from __future__ import annotations

import pytest
import sheet_calc
import xlsx_make

from addin.formula.locale_texts import numeric_date_read_by_locale

c, text = xlsx_make.cell, sheet_calc.text


@pytest.mark.parametrize(("written", "by_locale"), [
    ("1/2/2024", True),  # 2 January or 1 February
    ("15/1/2024", True),  # 15 January where the day is first, no date where the month is
    ("1/2/2024 10:00", True),
    ("1/1/2024", False),  # the same either way
    ("13/13/2024", False),  # no date either way (#VALUE!)
    ("2024-01-15", False),  # year first
    ("2024/1/15", False),
    ("1-2-24", True),  # hyphens: read as a date where the short date format has them
    ("1.5.2024", True),  # dots: a date in German settings, a text in American ones
    ("1/24", True),  # a month and a day, or a month and a year
    ("001/2024", True),
    ("Q1 2024", False),  # not numbers alone: not this rule's
])
def test_which_date_texts_depend_on_the_computer(written, by_locale):
    assert (numeric_date_read_by_locale(written) is not None) is by_locale


@pytest.mark.parametrize(("formula", "expected"), [
    ("DATEVALUE(A1)", None),  # A1 "1/2/2024"
    ("A1+0", None),
    ('"1-2-24"+0', None),
    ('MONTH(DATEVALUE("January"&"1"))', None),  # a month and a number: a day or a year?
    ('"May-25"+0', None),  # Excel read it as May 2025 (heldout14), formulas 25 May
    ('DATEVALUE("1/1/2024")', 45292),  # 1 January 2024 either way (serial: DATE(2024,1,1))
    ('"2024-01-15"+0', 45306),  # DATE(2024,1,15)
    ('"15 January 2024"+0', 45306),
    ('"January 2024"+0', 45292),  # a month and a year: its first day
    # a month alone is a text: "March"+0 is #VALUE!, and a criterion "Jan" a text
    ('COUNTIF(B2:B6,"<>Jan")', 4),  # March, Q1, Mon, 1st
    ('COUNTIF(B2:B6,"1st")', 1),
    ('SUMIF(B2:B6,"March",C2:C6)', 1),
])
def test_date_texts_computed_or_kept(tmp_path, formula, expected):
    """``None``: kept (Excel's value, here 0, stays), the reason naming the text."""
    cells = [text("A1", "1/2/2024"), *(text(f"B{i}", v) for i, v in enumerate(
        ["March", "Jan", "Q1", "Mon", "1st"], start=2)),
        *(c(f"C{i}", None, i - 1) for i in range(2, 7)), c("D1", formula, 0)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    if expected is None:
        assert "as a date" in kept["S!D1"] and res["S!D1"] == 0
    else:
        assert "S!D1" not in kept and res["S!D1"] == expected


def test_a_month_alone_is_no_number(tmp_path):
    res, kept = sheet_calc.calc_sheet(tmp_path, [c("A1", '"March"+0', 0),
                                                 c("A2", 'ISERROR(DATEVALUE("Mon"))', 0)])
    assert str(res["S!A1"]) == "#VALUE!" and res["S!A2"] is True and not kept


@pytest.mark.parametrize(("written", "expected"), [
    ("\u00a01,000", None),  # a no-break space, as text copied from a web page has
    ("\uff11\uff12", None),  # full-width digits (Python's float reads them: 12)
    ("\u0661", None),  # an Arabic-Indic one (float: 1)
    ("\u00a35", None),  # a pound sign: a currency of British settings
    ("12\t", None),
    ("12 PM", None),  # a time not written h:mm (formulas added 1 January of this year)
    ("1,000", 1000),  # American settings, as napkin reads numbers
    ("12:30 PM", 0.5208333333333334),  # 12.5 hours: 12.5/24
])
def test_numbers_written_with_other_characters_are_kept(tmp_path, written, expected):
    res, kept = sheet_calc.calc_sheet(tmp_path, [text("A1", written), c("B1", "A1+0", 0),
                                                 c("C1", 'A1&"x"', "x", t="str")])
    assert res["S!C1"] == written + "x"  # (as text it is itself)
    if expected is None:
        assert "regional settings" in kept["S!B1"] and res["S!B1"] == 0
    else:
        assert not kept and res["S!B1"] == expected


def test_a_text_that_is_no_number_either_way_stays_a_text(tmp_path):
    # "Café" and "Q1 \u20ac" read as no number with ASCII's characters either: a criterion
    # of them is a text, computed
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        text("A1", "Caf\u00e9"), text("A2", "Q1 \u20ac"), text("A3", "Q1"),
        c("B1", 'COUNTIF(A1:A3,"Caf\u00e9")', 0), c("B2", 'COUNTIF(A1:A3,"Q1 \u20ac")', 0)])
    assert not kept and (res["S!B1"], res["S!B2"]) == (1, 1)
