"""AVERAGEIFS checked in strict mode (``addin/formula/excel_functions/statistical.py``):
numbers averaged where every criteria matches, empty cells of average_range ignored,
#DIV/0! where nothing matches (Microsoft Support, "AVERAGEIFS function"); text or a
logical value to average where the criteria match refused, as Microsoft's two pages
disagree on them (``addin.formula.fx_excel_args.averaged_numbers``). SUMIFS given empty
cells: an empty cell of sum_range adds nothing, one of a criteria range is matched as
COUNTIFS matches it (checked with empty cells: tests/corpus/poi/56822-Countifs.xlsx)."""

from __future__ import annotations

import pytest
import xlsx_make
from xlsx_make import cell

from addin.engine.api import calc_workbook

# A1:A3 = 1, 5, 9 with B1:B4 = x, y, x, x (A4 empty); C1:C3 = "t", TRUE, 3
DATA = [cell("A1", None, 1), cell("A2", None, 5), cell("A3", None, 9),
        cell("B1", None, "x"), cell("B2", None, "y"), cell("B3", None, "x"),
        cell("B4", None, "x"), cell("C1", None, "t"), cell("C2", None, True),
        cell("C3", None, 3)]
# tests/corpus/sheetjs/formula_stress_test.xlsx, Statistical row 66 as Excel saved it:
# C66:I66 = 1, 2, 4, 8, 16, 32, TRUE (here E1:K1);
# B66 AVERAGEIFS(C66:I66,C66:I66,">3",C66:I66,"<20") = 9.3333333333333339 (the file was
# refused whole for other cells until 7 December 2026; tests/test_fidelity.py computes it)
ROW_66 = [cell(f"{c}1", None, v) for c, v in zip("EFGHIJK", (1, 2, 4, 8, 16, 32, True),
                                             strict=True)]


def _one(tmp_path, formula):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": DATA + ROW_66 + [cell("D1", formula, 0)]})
    kept = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    return res["S!D1"], [k.reason for k in kept]


@pytest.mark.parametrize("formula, expected", [
    # x matches rows 1, 3 and 4; A4 is empty, ignored: (1 + 9) / 2
    ('AVERAGEIFS(A1:A4,B1:B4,"x")', 5.0),
    # every row but 2: (1 + 9) / 2 again, B5 empty matching "<>y", A5 empty ignored
    ('AVERAGEIFS(A1:A5,B1:B5,"<>y")', 5.0),
    # the numbers between 3 and 20 of A1:A3: (5 + 9) / 2
    ('AVERAGEIFS(A1:A3,A1:A3,">3",A1:A3,"<20")', 7.0),
    # Excel's B66: (4 + 8 + 16) / 3, the TRUE in the range not matched
    ('AVERAGEIFS(E1:K1,E1:K1,">3",E1:K1,"<20")', 28 / 3),
    # C2 (TRUE) not matched by "x": only C3's 3
    ('AVERAGEIFS(C2:C3,B2:B3,"x")', 3.0),
])
def test_averageifs_averages_the_numbers_its_criteria_match(tmp_path, formula, expected):
    value, kept = _one(tmp_path, formula)
    assert value == pytest.approx(expected, rel=1e-15) and kept == []


def test_averageifs_of_no_match_is_div0(tmp_path):
    # its page: "If no cells meet all the criteria, AVERAGEIFS returns #DIV/0!"
    value, kept = _one(tmp_path, 'AVERAGEIFS(A1:A3,B1:B3,"z")')
    assert str(value) == "#DIV/0!" and kept == []


@pytest.mark.parametrize("formula", ['AVERAGEIFS(C1:C3,B1:B3,"x")',
                                     'AVERAGEIFS(C2:C3,B2:B3,"y")'])
def test_averageifs_averages_numbers_and_refuses_text(tmp_path, formula):
    # "t" (C1) and TRUE (C2) matched: the pages disagree (#DIV/0!, TRUE as 1): kept
    value, kept = _one(tmp_path, formula)
    assert value == 0 and kept == [  # (0: the value the test's file saved in D1)
        "AVERAGEIFS given text or a logical value to average where its criteria match"]


@pytest.mark.parametrize("formula, expected", [
    # x matches rows 1 and 3; A3 is empty and adds nothing: 1
    ('SUMIFS(A1:A4,B1:B4,"x")', 1.0),
    # "<>y" matches rows 1, 3 and the empty B4: 1 + 9
    ('SUMIFS(A1:A4,B1:B4,"<>y")', 10.0),
    # "" matches the empty B4 only: A4 = 9
    ('SUMIFS(A1:A4,B1:B4,"")', 9.0),
])
def test_sumifs_over_empty_cells(tmp_path, formula, expected):
    cells = [cell("A1", None, 1), cell("A2", None, 5), cell("A4", None, 9),
             cell("B1", None, "x"), cell("B2", None, "y"), cell("B3", None, "x"),
             cell("D1", formula, -1)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    kept = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    assert res["S!D1"] == expected and kept == []
