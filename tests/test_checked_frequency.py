"""Evidence for FREQUENCY in strict mode (``addin/formula/excel_functions/statistical.py``,
December 2026), and the refusal of what its page leaves unsaid
(``addin/formula/fx_excel_stats.py``: ``frequency_settled``).

Microsoft Support, "FREQUENCY function": the scores 79, 85, 78, 85, 50, 81, 95, 88, 97
counted in the bins 70, 79, 89, entered as an array formula over four cells, give 1
(50), 2 (78, 79), 4 (81, 85, 85, 88) and 2 (95, 97: above the last bin). The counts are
also worked by hand here from the page's definition: how many values are above the bin
before and at most this bin.
"""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine import checked
from addin.engine.api import calc_workbook
from addin.ooxml.a1 import num2col
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell

SCORES = [79, 85, 78, 85, 50, 81, 95, 88, 97]
BINS = [70, 79, 89]


def _by_hand(data, bins):
    edges = [float("-inf"), *bins]
    counts = [sum(lo < x <= hi for x in data) for lo, hi in zip(edges, bins, strict=False)]
    return [*counts, sum(x > bins[-1] for x in data)]


def _sheet(bins, formula_cells):
    data = [c(f"A{i}", None, x) for i, x in enumerate(SCORES, start=2)]
    edges = [c(f"B{i}", None, x, t="inlineStr" if isinstance(x, str) else None)
             for i, x in enumerate(bins, start=2)]
    return data + edges + formula_cells


def test_frequency_is_checked():
    assert "ranges" in checked.checked()["FREQUENCY"][0]


def test_microsofts_example_as_an_array_formula(tmp_path):
    assert _by_hand(SCORES, BINS) == [1, 2, 4, 2]
    array = ['<c r="C2"><f t="array" ref="C2:C5">FREQUENCY(A2:A10,B2:B4)</f><v>1</v></c>',
             c("C3", None, 2), c("C4", None, 4), c("C5", None, 2)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": _sheet(BINS, array)})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert [res[f"S!C{i}"] for i in range(2, 6)] == [1, 2, 4, 2]


def test_the_cell_excel_saved(tmp_path):
    # tests/corpus/sheetjs/formula_stress_test.xlsx, Statistical!B129:
    # FREQUENCY(D128:I128,D129:I129) in one cell, data 1..6, bins 2,4,6,8,11,11: Excel
    # saved 2 (the first count: 1 and 2). Its repeated bin is refused (below); the same
    # data with rising bins gives the same first count.
    cells = [c(f"{col}1", None, x) for col, x in zip("DEFGHI", range(1, 7), strict=True)]
    cells += [c(f"{col}2", None, x) for col, x in zip("DEFGHI", [2, 4, 6, 8, 11, 12],
                                                       strict=True)]
    cells += [c("B1", "FREQUENCY(D1:I1,D2:I2)", 2)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {})
    assert res["S!B1"] == 2 == _by_hand(range(1, 7), [2, 4, 6, 8, 11, 12])[0]


@pytest.mark.parametrize("bins, said", [
    ([89, 70, 79], "bins that do not rise strictly"),  # formulas gives the sorted order
    ([70, 79, 79], "bins that do not rise strictly"),
    # text among the bins: the page says nothing of it there
    ([70, "x", 89], "a bins_array holding other than numbers"),
])
def test_what_its_page_leaves_unsaid_is_refused(tmp_path, bins, said):
    notes: list = []
    kept: list = []
    array = ['<c r="C2"><f t="array" ref="C2:C5">FREQUENCY(A2:A10,B2:B4)</f><v>1</v></c>']
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": _sheet(bins, array)})
    # the array formula has no value saved in its other cells: the workbook is refused
    with pytest.raises(WorkbookError) as refused:
        calc_workbook(src, tmp_path / "out.xlsx", {}, notes=notes, kept=kept)
    assert f"FREQUENCY() given {said}" in str(refused.value)
    assert "S!C2" in str(refused.value) and "--lenient" in str(refused.value)


def test_empty_cells_and_text_in_the_data_are_ignored(tmp_path):
    # the page: "FREQUENCY ignores blank cells and text"; the example's scores with an
    # empty cell, a text, a text that looks like a number and a formula's "" among them
    # (A11 empty) count as the scores alone: 1, 2, 4, 2
    extra = [c("A12", None, "n/a", t="inlineStr"), c("A13", None, "90", t="inlineStr"),
             c("A14", '""', "", t="str")]
    array = ['<c r="C2"><f t="array" ref="C2:C5">FREQUENCY(A2:A14,B2:B4)</f><v>0</v></c>',
             c("C3", None, 0), c("C4", None, 0), c("C5", None, 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": _sheet(BINS, array) + extra})
    kept: list = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    assert kept == []
    assert [res[f"S!C{i}"] for i in range(2, 6)] == _by_hand(SCORES, BINS) == [1, 2, 4, 2]


def test_a_logical_value_in_the_data_is_refused(tmp_path):
    # the page says nothing of logical values in data_array
    array = ['<c r="C2"><f t="array" ref="C2:C5">FREQUENCY(A2:A11,B2:B4)</f><v>0</v></c>',
             c("C3", None, 0), c("C4", None, 0), c("C5", None, 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx",
                          {"S": _sheet(BINS, array) + [c("A11", None, 1, t="b")]})
    kept: list = []
    calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    assert "a data_array holding logical or error values" in kept[0].reason


# Lords-of-Cinder/CLO-Cash-Flow-Model, ABS_Model.xlsm, sheet Asset, row 68 (the second
# held-out part): I68:AG68 as Excel saved them, and AH68 = FREQUENCY(I68:AG68,-1), not an
# array formula, saved as 2 (the two -1s: the first count, of the values at most -1)
ASSET_ROW_68 = [-1, 4, 7, 7, 5, 3, 9, 6, 6, -1, 9, 0, 8, 6, 8, 6, 4, 0, 2, 0, 3, 6, 0, 0, 9]


def _row(values, row=1):
    cols = [num2col(k) for k in range(9, 9 + len(values))]  # I, J, ... AG
    return [c(f"{col}{row}", None, x) for col, x in zip(cols, values, strict=True)]


def test_a_bins_array_of_one_number_as_excel_saved_it(tmp_path):
    cells = _row(ASSET_ROW_68) + [c("AH1", "FREQUENCY(I1:AG1,-1)", 2)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    kept: list = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    assert kept == []
    assert res["S!AH1"] == 2 == _by_hand(ASSET_ROW_68, [-1])[0]


def test_one_bin_as_an_array_formula_and_given_by_a_nested_call(tmp_path):
    # the page: one more count than bins, the last of the values above the last bin; a
    # value equal to the bin is in its count. The example's scores in the one bin 79
    # (written, then as MIN(B2:B4)+9 = 70+9): 79, 78 and 50 are at most 79 -> 3, the six
    # others above it -> 6; the same by _by_hand(SCORES, [79])
    assert _by_hand(SCORES, [79]) == [3, 6]
    array = ['<c r="C2"><f t="array" ref="C2:C3">FREQUENCY(A2:A10,79)</f><v>0</v></c>',
             c("C3", None, 0),
             '<c r="D2"><f t="array" ref="D2:D3">FREQUENCY(A2:A10,MIN(B2:B4)+9)</f>'
             '<v>0</v></c>', c("D3", None, 0)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": _sheet(BINS, array)})
    kept: list = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    assert kept == []
    assert [res["S!C2"], res["S!C3"]] == [res["S!D2"], res["S!D3"]] == [3, 6]


@pytest.mark.parametrize("bins", ['"79"', "TRUE"])
def test_one_bin_of_text_or_a_logical_value_is_refused(tmp_path, bins):
    # the page says nothing of a bin that is not a number
    kept: list = []
    cells = _sheet(BINS, [c("C2", f"FREQUENCY(A2:A10,{bins})", 0)])
    calc_workbook(xlsx_make.write(tmp_path / "in.xlsx", {"S": cells}),
                  tmp_path / "out.xlsx", {}, kept=kept)
    assert "a bins_array holding other than numbers" in kept[0].reason


def test_a_data_array_of_one_value_is_refused(tmp_path):
    # FREQUENCY(5,B2:B4): no page or saved cell says how Excel reads one value there
    kept: list = []
    cells = _sheet(BINS, [c("C2", "FREQUENCY(5,B2:B4)", 0)])
    calc_workbook(xlsx_make.write(tmp_path / "in.xlsx", {"S": cells}),
                  tmp_path / "out.xlsx", {}, kept=kept)
    assert "a data_array of one value" in kept[0].reason
