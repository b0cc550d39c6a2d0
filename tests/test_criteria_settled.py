"""A criterion that is a plain number written as text ("0", "32") in COUNTIF, COUNTIFS,
SUMIFS...: the number itself where the criteria range holds no text that looks like a
number and no logical value (``addin.engine.criteria_forms``), refused otherwise. Expected
values worked by hand from Microsoft's pages."""

from __future__ import annotations

import sheet_calc
import xlsx_make

c = xlsx_make.cell
text = sheet_calc.text


def test_a_number_written_as_text_is_that_number(tmp_path):
    # Microsoft Support, "SUMIFS function": criteria "can be entered as 32, ">32", B4,
    # "apples", or "32"": "32" is the number 32. Over 0, 7, 3 and "abc": "0" matches the
    # 0 (1 cell), "3" the 3 (1 cell, sum 3); the text "abc" and the empty A5 match neither.
    # (heldout16's Trading Journal.xlsx, seen: COUNTIF('Trade Log'!L8:L5000,"0") over
    # numbers and formulas' "" saved 0, computed equal)
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        c("A1", None, 0), c("A2", None, 7), c("A3", None, 3), text("A4", "abc"),
        c("B1", 'COUNTIF(A1:A5,"0")', 1), c("B2", 'COUNTIFS(A1:A5,"0",A1:A5,"<5")', 1),
        c("B3", 'COUNTIF(A1:A5,"3")', 1), c("B4", 'SUMIFS(A1:A5,A1:A5,"3")', 3),
        c("B5", 'COUNTIF(A1:A5,"=7")', 1), c("B6", 'COUNTIF(A1:A5,"-1.5")', 0)])
    assert kept == {}
    assert [res[f"S!B{r}"] for r in range(1, 7)] == [1, 1, 1, 3, 1, 0]


def test_over_a_text_that_looks_like_a_number_or_a_logical_value_it_is_refused(tmp_path):
    # whether Excel's COUNTIF matches the text "5" to the criterion "5" (as a number) is
    # not documented, nor TRUE to "1": each cell keeps the value Excel saved
    res, kept = sheet_calc.calc_sheet(tmp_path, [
        text("A1", "5"), c("A2", None, 5), c("A3", None, 1, t="b"),
        c("B1", 'COUNTIF(A1:A2,"5")', 2), c("B2", 'COUNTIF(A2:A3,"1")', 0),
        c("B3", 'COUNTIF(A2:A2,"5")', 1)])
    assert set(kept) == {"S!B1", "S!B2"}
    assert kept["S!B1"] == "COUNTIF() given text that looks like a number"
    assert res["S!B3"] == 1
