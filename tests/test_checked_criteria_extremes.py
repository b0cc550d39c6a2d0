"""MAXIFS and MINIFS in strict mode (addin/excel/criteria_extremes.py): Microsoft's
examples, values worked by hand, and the cases the pages leave open refused.

Microsoft Support, "MAXIFS function" and "MINIFS function": Examples 1 to 3 of each page
(their data written here as the pages give them, their results asserted)."""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine import checked
from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell


def _text(ref: str, text: str) -> str:
    return c(ref, None, text, t="inlineStr")


def _column(col: str, values, first: int = 2) -> list[str]:
    return [(_text(f"{col}{i}", v) if isinstance(v, str) else c(f"{col}{i}", None, v))
            for i, v in enumerate(values, first) if v is not None]


def _calc(tmp_path, cells, **kw):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    return calc_workbook(src, tmp_path / "out.xlsx", {}, **kw)


def test_maxifs_and_minifs_are_checked():
    for name in ("MAXIFS", "MINIFS"):
        assert {"ranges", "empty"} <= checked.checked()[name][0]


def test_maxifs_microsoft_examples(tmp_path):
    # Example 1: grades 89,93,96,85,91,88 weighted 1,2,2,3,1,1; weight 1 at rows 2, 6, 7:
    # max(89, 91, 88) = 91 (the page's result). Example 2 (F:G): B3:B6 = a,a,b,a matches
    # the 1st, 2nd and 4th cells of F2:F5 = 10,1,100,1: max(10, 1, 1) = 10. Example 3
    # (J:M): "b" at rows 2, 5, 7 and level > 100 at 5 and 7: max(1, 50) = 50.
    cells = [*_column("A", [89, 93, 96, 85, 91, 88]), *_column("B", [1, 2, 2, 3, 1, 1]),
             *_column("F", [10, 1, 100, 1, 1, 1]), *_column("G", list("baabaa")),
             *_column("J", [10, 1, 100, 1, 1, 50]), *_column("K", list("baabab")),
             *_column("M", [100, 100, 200, 300, 100, 400]),
             c("P1", "_xlfn.MAXIFS(A2:A7,B2:B7,1)", 91),
             c("P2", '_xlfn.MAXIFS(F2:F5,G3:G6,"a")', 10),
             c("P3", '_xlfn.MAXIFS(J2:J7,K2:K7,"b",M2:M7,">100")', 50)]
    res = _calc(tmp_path, cells)
    assert [res[f"S!P{i}"] for i in (1, 2, 3)] == [91, 10, 50]


def test_minifs_microsoft_examples(tmp_path):
    # Example 1: the same grades and weights: min(89, 91, 88) = 88. Example 2: F2:F7 =
    # 10,11,100,111,1,1, G3:G6 = a,a,b,a matches the 1st, 2nd and 4th cells of F2:F5:
    # min(10, 11, 111) = 10. Example 3: J2:J7 = 10..15, "b" at rows 2, 5, 6, 7 and level
    # > 100 at 5, 6, 7: min(13, 14, 15) = 13.
    cells = [*_column("A", [89, 93, 96, 85, 91, 88]), *_column("B", [1, 2, 2, 3, 1, 1]),
             *_column("F", [10, 11, 100, 111, 1, 1]), *_column("G", list("baabaa")),
             *_column("J", [10, 11, 12, 13, 14, 15]), *_column("K", list("baabbb")),
             *_column("M", [100, 100, 200, 300, 300, 400]),
             c("P1", "_xlfn.MINIFS(A2:A7,B2:B7,1)", 88),
             c("P2", '_xlfn.MINIFS(F2:F5,G3:G6,"a")', 10),
             c("P3", '_xlfn.MINIFS(J2:J7,K2:K7,"b",M2:M7,">100")', 13)]
    res = _calc(tmp_path, cells)
    assert [res[f"S!P{i}"] for i in (1, 2, 3)] == [88, 10, 13]


def test_criteria_from_cells_and_empty_cells_that_cannot_decide(tmp_path):
    # A2:A7 = 5, (empty), -3, 8, 2, (empty); B2:B7 = x, x, y, x, y, x.
    # MAXIFS over "x" (criterion read from D1): rows 2, 3, 5, 7 -> 5, empty, 8, empty: the
    # empty cells cannot be the largest whether left out or read as 0 (8 > 0): 8.
    # MINIFS over "y" (rows 4, 6 -> -3, 2): -3. MINIFS over "<>y" (2, 3, 5, 7): 5 or 0
    # would differ -> refused (below). MAXIFS over B "x" and A ">0": rows 2, 5 -> 8.
    # Wildcards as SUMIFS's: "?" matches one character, "x" and "y": max(5, -3, 8, 2) = 8.
    cells = [*_column("A", [5, None, -3, 8, 2, None]), *_column("B", list("xxyxyx")),
             _text("D1", "x"),
             c("P1", "_xlfn.MAXIFS(A2:A7,B2:B7,D1)", 8),
             c("P2", '_xlfn.MINIFS(A2:A7,B2:B7,"y")', -3),
             c("P3", '_xlfn.MAXIFS(A2:A7,B2:B7,"x",A2:A7,">0")', 8),
             c("P4", '_xlfn.MAXIFS(A2:A7,B2:B7,"?")', 8)]
    res = _calc(tmp_path, cells)
    assert [res[f"S!P{i}"] for i in (1, 2, 3, 4)] == [8, -3, 8, 8]


def test_ranges_of_another_shape_are_value_errors(tmp_path):
    # "the size and shape of the max_range and criteria_rangeN arguments must be the
    # same, otherwise these functions return the #VALUE! error" (both pages).
    cells = [*_column("A", [1, 2, 3]), *_column("B", [1, 1, 1]),
             c("P1", "_xlfn.MAXIFS(A2:A4,B2:B3,1)", "#VALUE!", t="e"),
             c("P2", "_xlfn.MINIFS(A2:A4,B2:C4,1)", "#VALUE!", t="e")]
    res = _calc(tmp_path, cells)
    assert [str(res[f"S!P{i}"]).split()[0] for i in (1, 2)] == ["#VALUE!", "#VALUE!"]


@pytest.mark.parametrize("formula, why", [
    # min(5, 8) = 5 left out, 0 read as 0: the pages do not say which
    ('_xlfn.MINIFS(A2:A7,B2:B7,"x")', "empty cell"),
    # max(-3) left out, 0 read as 0
    ('_xlfn.MAXIFS(A2:A7,B2:B7,"<>x",A2:A7,"<0")', None),
    # no cell matched
    ('_xlfn.MAXIFS(A2:A7,B2:B7,"z")', "no number"),
    # a matched cell holding text
    ('_xlfn.MAXIFS(C2:C7,B2:B7,"x")', "text or a logical"),
])
def test_what_the_pages_leave_open_is_refused(tmp_path, formula, why):
    cells = [*_column("A", [5, None, -3, 8, 2, None]), *_column("B", list("xxyxyx")),
             *_column("C", [1, "n/a", 2, 3, 4, 5]), c("P1", formula, 0)]
    if why is None:  # MAXIFS(-3 only): a number, so computed
        assert _calc(tmp_path, cells)["S!P1"] == -3
        return
    with pytest.raises(WorkbookError, match=why):
        _calc(tmp_path, cells)


def test_empty_criterion_over_a_formulas_empty_text_is_refused_as_for_sumifs(tmp_path):
    # B3 = "" (a formula's empty text): whether "<>" matches it no page says (as SUMIFS).
    cells = [*_column("A", [1, 2, 3]), _text("B2", "k"), c("B3", '""', "", t="str"),
             _text("B4", "k"), c("P1", '_xlfn.MAXIFS(A2:A4,B2:B4,"<>")', 3)]
    with pytest.raises(WorkbookError, match="empty text"):
        _calc(tmp_path, cells)


def test_xor_microsoft_examples_and_references(tmp_path):
    # Microsoft Support, "XOR function": XOR(3>0,2<9) is FALSE (two TRUE), XOR(3>12,4>6)
    # FALSE (none TRUE); TRUE for an odd count of TRUE. A1:A5 = TRUE, "t", (empty), 2, 0:
    # text and the empty cell ignored, 2 TRUE and 0 FALSE (numbers as AND reads them):
    # TRUE, 2 -> FALSE; with TRUE given directly, 3 TRUE -> TRUE. A reference holding no
    # logical value or number (A2:A3) is #VALUE! (the page). An error value is the result.
    cells = [c("A1", None, 1, t="b"), _text("A2", "t"), c("A4", None, 2), c("A5", None, 0),
             c("B1", "_xlfn.XOR(3>0,2<9)", 0, t="b"), c("B2", "_xlfn.XOR(3>12,4>6)", 0, t="b"),
             c("B3", "_xlfn.XOR(A1:A5)", 0, t="b"), c("B4", "_xlfn.XOR(A1:A5,TRUE)", 1, t="b"),
             c("B5", "_xlfn.XOR(A2:A3)", "#VALUE!", t="e"),
             c("B6", "_xlfn.XOR(A1,1/0)", "#DIV/0!", t="e")]
    res = _calc(tmp_path, cells)
    assert [res[f"S!B{i}"] for i in range(1, 5)] == [False, False, False, True]
    assert [str(res[f"S!B{i}"]).split()[0] for i in (5, 6)] == ["#VALUE!", "#DIV/0!"]


def test_n_microsoft_example(tmp_path):
    # Microsoft Support, "N function": A2:A5 = 7, "Even", TRUE, 4/17/2011 (serial 40650):
    # N gives 7, 0, 1, 40650; N("7") is 0 (text); FALSE 0; an error value is the result.
    cells = [c("A2", None, 7), _text("A3", "Even"), c("A4", None, 1, t="b"),
             c("A5", None, 40650), c("B2", "N(A2)", 7), c("B3", "N(A3)", 0),
             c("B4", "N(A4)", 1), c("B5", "N(A5)", 40650), c("B6", 'N("7")', 0),
             c("B7", "N(FALSE)", 0), c("B8", "N(1/0)", "#DIV/0!", t="e")]
    res = _calc(tmp_path, cells)
    assert [res[f"S!B{i}"] for i in range(2, 8)] == [7, 0, 1, 40650, 0, 0]
    assert str(res["S!B8"]).split()[0] == "#DIV/0!"
    assert type(res["S!B4"]) is not bool  # 1, a number (formulas gave TRUE back)


def test_rept_microsoft_example_and_rules(tmp_path):
    # Microsoft Support, "REPT function": REPT("*-",3) = "*-*-*-", REPT("-",10) ten dashes;
    # number_times truncated (2.9 -> 2), 0 gives ""; a number as text (1.5 -> "1.5"); past
    # 32,767 characters #VALUE! (3 x 11,000 = 33,000); an error value the result.
    cells = [c("A1", 'REPT("*-",3)', "*-*-*-", t="str"), c("A2", 'REPT("-",10)', "", t="str"),
             c("A3", 'REPT("ab",2.9)', "abab", t="str"), c("A4", 'REPT("ab",0)', "", t="str"),
             c("A5", "REPT(1.5,2)", "1.51.5", t="str"),
             c("A6", 'REPT("abc",11000)', "#VALUE!", t="e"),
             c("A7", 'REPT("a",1/0)', "#DIV/0!", t="e")]
    res = _calc(tmp_path, cells)
    assert [res[f"S!A{i}"] for i in range(1, 6)] == ["*-*-*-", "-" * 10, "abab", "", "1.51.5"]
    assert [str(res[f"S!A{i}"]).split()[0] for i in (6, 7)] == ["#VALUE!", "#DIV/0!"]


@pytest.mark.parametrize("formula", ['REPT("a",-1)', 'REPT("a",TRUE)'])
def test_rept_refuses_what_its_page_leaves_open(tmp_path, formula):
    with pytest.raises(WorkbookError, match="REPT"):
        _calc(tmp_path, [c("A1", formula, "")])
