"""Evidence for forms of argument of common functions checked in December 2026 (the
fourth round of the held-out parts): SMALL and LARGE given a reference to one cell,
PRODUCT and IRR given an array, CHOOSE given an empty cell, SUM given an argument left
out (``addin/formula/excel_functions/``).

Each value is a cell Excel saved in the seen corpora (its file and cell in the comment,
its inputs copied here) or worked by hand from Microsoft's page.
"""

from __future__ import annotations

import pytest
import sheet_calc
import xlsx_make

c = xlsx_make.cell
text = sheet_calc.text


def _calc(tmp_path, cells):
    return sheet_calc.calc_sheet(tmp_path, cells)


def test_small_and_large_given_k_in_one_cell_as_excel_saved(tmp_path):
    # hfwalvir/Financial-Modelling, Financial Model - Tata Steel.xlsx (the fourth held-out
    # part), Sheet1: D63:D68 = 8000, 2000, 800, 200, 2700, 13700 (their sum), C76 = C77 = 3;
    # D76 = SMALL(D63:D67,$C$76) saved 2000 and D77 = LARGE(D64:D68,$C$77) saved 2000.
    # By hand: sorted up 200, 800, 2000, 2700, 8000 -> the 3rd is 2000; sorted down
    # 13700, 2700, 2000, 800, 200 -> the 3rd is 2000. Column E (9000, 2250, 900, 225,
    # 3037.5, 15412.5) saved 2250 in both: up 225, 900, 2250; down 15412.5, 3037.5, 2250.
    cells = [c("C76", None, 3), c("C77", None, 3)]
    for col, values in (("D", [8000, 2000, 800, 200, 2700, 13700]),
                        ("E", [9000, 2250, 900, 225, 3037.5, 15412.5])):
        cells += [c(f"{col}{r}", None, v) for r, v in enumerate(values, start=63)]
        cells += [c(f"{col}76", f"SMALL({col}63:{col}67,$C$76)", 0),
                  c(f"{col}77", f"LARGE({col}64:{col}68,$C$77)", 0)]
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert (res["S!D76"], res["S!D77"], res["S!E76"], res["S!E77"]) == (2000, 2000, 2250, 2250)


def test_small_of_one_cell(tmp_path):
    # the page: "If n is the number of data points in array, SMALL(array,1) equals the
    # smallest value": one cell holding 5 is that value; one holding text has no data
    # point, "If array is empty, SMALL returns the #NUM! error value"
    res, kept = _calc(tmp_path, [c("A1", None, 5), text("A2", "abc"),
                                 c("B1", "SMALL(A1,1)", 0), c("B2", "LARGE(A1,1)", 0),
                                 c("B3", "SMALL(A2,1)", 0)])
    assert kept == {}
    assert res["S!B1"] == res["S!B2"] == 5
    assert str(res["S!B3"]).split()[0] == "#NUM!"


def test_a_logical_k_is_refused(tmp_path):
    # SMALL(A1:A3,TRUE), or TRUE in the cell k refers to: no page says how Excel reads it
    cells = [c("A1", None, 5), c("A2", None, 2), c("A3", None, 9), c("C1", None, 1, t="b"),
             c("B1", "SMALL(A1:A3,C1)", 2), c("B2", "LARGE(A1:A3,TRUE)", 9)]
    _, kept = _calc(tmp_path, cells)
    assert kept == {"S!B1": "SMALL given a logical value as its k (its page does not say how "
                            "Excel reads it)",
                    "S!B2": "LARGE given a logical value as its k (its page does not say how "
                            "Excel reads it)"}


def test_product_of_an_array_as_excel_saved(tmp_path):
    # LouieCeliberti/Financial-Modeling, Return.xlsx (the fourth held-out part): the
    # array formula {=PRODUCT(F3:F62+1)-1} compounds a column of returns. Here three
    # returns, by hand: 1.1 * 0.95 * 1.2 - 1 = 0.254 (to the last digit as IEEE: the same
    # products in the same order)
    cells = [c("F3", None, 0.1), c("F4", None, -0.05), c("F5", None, 0.2),
             '<c r="F7"><f t="array" ref="F7">PRODUCT(F3:F5+1)-1</f><v>0</v></c>']
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert res["S!F7"] == 1.1 * 0.95 * 1.2 - 1 == pytest.approx(0.254, rel=1e-15)


def test_product_keeps_the_numbers_of_an_array(tmp_path):
    # Microsoft Support, "PRODUCT function" (WorksheetFunction.Product): "If an argument
    # is an array or reference, only numbers in the array or reference are counted.
    # Empty cells, logical values, text ... in the array or reference are ignored":
    # {2,"a",TRUE,3} -> 2*3 = 6. A text that looks like a number is not a form PRODUCT
    # is checked for (refused: Excel's value kept)
    res, kept = _calc(tmp_path, [c("B1", 'PRODUCT({2,"a",TRUE,3})', 0),
                                 c("B2", 'PRODUCT({2,"4",3})', 6)])
    assert kept == {"S!B2": "PRODUCT() given text that looks like a number"}
    assert res["S!B1"] == 6


def test_choose_of_an_empty_cell(tmp_path):
    # Microsoft Support, "CHOOSE function": "If index_num is 1, CHOOSE returns value1; if
    # it is 2, CHOOSE returns value2", and CHOOSE returns the reference given
    # (=SUM(A2:CHOOSE(2,A3,A4,A5)) is SUM(A2:A4)): CHOOSE(2,A2,A3) with A3 empty is the
    # empty cell A3 -- 0 in a cell, "" joined to text, blank to ISBLANK, 0+1 = 1; an
    # empty index_num is 0, "less than 1": #VALUE!. hfwalvir/Financial-Modelling,
    # Financial-Forecast-Model.xlsx (the fourth held-out part) saved CHOOSE($J$5,D50,D70)
    # choosing an empty cell as 0.
    cells = [c("A1", None, 2), c("A2", None, 5),
             c("B1", "CHOOSE(2,A2,A3)", 0), c("B2", 'CHOOSE(2,A2,A3)&"x"', "x", t="str"),
             c("B3", "ISBLANK(CHOOSE(2,A2,A3))", 1, t="b"), c("B4", "CHOOSE(2,A2,A3)+1", 1),
             c("B5", "CHOOSE(A3,A1,A2)", "#VALUE!", t="e"), c("B6", "CHOOSE(1,A2,A3)", 5)]
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert (res["S!B1"], res["S!B2"], res["S!B3"], res["S!B4"]) == (0, "x", True, 1)
    assert str(res["S!B5"]).split()[0] == "#VALUE!" and res["S!B6"] == 5


def test_sum_given_an_argument_left_out_as_excel_saved(tmp_path):
    # Lokesh-875/financial-modelling-portfolio, maruti-suzuki__Maruti Suzuki
    # project.xlsx (the first held-out part), its sixth sheet: M23 = SUM(M21,M16,) with
    # M21 = 16615.7 and M16 = 126616.91333333333 saved 143232.61333333334, and N23 likewise
    # 153518.72303030302: the argument left out adds nothing (by hand, M21 + M16).
    cells = [c("M21", None, 16615.7), c("M16", None, 126616.91333333333),
             c("N21", None, 18021.547272727272), c("N16", None, 135497.17575757575),
             c("M23", "SUM(M21,M16,)", 0), c("N23", "SUM(N21,N16,)", 0),
             c("B1", "SUM(M21,,M16)", 0), c("B2", "SUM(,)", 0)]
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert res["S!M23"] == 143232.61333333334 == 16615.7 + 126616.91333333333
    assert res["S!N23"] == 153518.72303030302 == 18021.547272727272 + 135497.17575757575
    assert res["S!B1"] == res["S!M23"] and res["S!B2"] == 0


def test_irr_of_an_array_as_excel_saved(tmp_path):
    # pranavipujari/Equity-Valuation-Unilever-DCF-Model, notebook__DCF Model- Unilever.xlsx
    # (the first held-out part): {=IRR(-C28:H28)} of the negated flows, saved
    # 0.14897823461051662. Negating every flow leaves the rate where their net present
    # value is 0 unchanged (Microsoft Support, "IRR function": "Values must contain at
    # least one positive value and one negative value"; an array of numbers).
    flows = [-131241, 7989.3899999999994, 8274.0717000000004, 8567.2938510000004,
             8869.3126665299988, 214826.94052434224]
    cells = [c(f"{col}28", None, v) for col, v in zip("CDEFGH", flows, strict=True)]
    cells += ['<c r="M32"><f t="array" ref="M32">IRR(-C28:H28)</f><v>0</v></c>',
              c("M33", "IRR(C28:H28)", 0)]
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert res["S!M32"] == pytest.approx(0.14897823461051662, rel=1e-9)
    assert res["S!M32"] == pytest.approx(res["S!M33"], rel=1e-12)
    npv = sum(v / (1 + res["S!M32"]) ** i for i, v in enumerate(flows))
    assert abs(npv) < 1e-6  # (by hand: the rate is a root of the flows' NPV)


def test_offset_with_rows_left_out_as_excel_saved(tmp_path):
    # owyongamelia/super-dcf-model, Template.xlsx (the fourth held-out part), its third
    # sheet: E16 = IFERROR(E15:OFFSET(E15,,F6-D9-1)/D15:OFFSET(D15,,F6-D9-1)-1,"NA ")
    # spilled growth rates; D15:F15 = 274515, 365817, 394328, and Excel saved E16 =
    # 0.33259384733074704 (365817/274515 - 1) and F16 = 7.7937876041846099E-2 (394328/365817
    # - 1): the rows left out are 0, the range stays in row 15. Here over two columns.
    cells = [c("D15", None, 274515), c("E15", None, 365817), c("F15", None, 394328),
             '<c r="E16"><f t="array" ref="E16:F16">IFERROR(E15:OFFSET(E15,,1)/'
             'D15:OFFSET(D15,,1)-1,"NA ")</f><v>0</v></c>', c("F16", None, 0),
             c("G1", "SUM(OFFSET(D15,,1,1,2))", 0)]
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert res["S!E16"] == 0.33259384733074704 == 365817 / 274515 - 1
    assert res["S!F16"] == 7.7937876041846099E-2 == 394328 / 365817 - 1
    assert res["S!G1"] == 365817 + 394328  # E15:F15, by hand


def _grid():
    # A1:C3 holding 10 * row + column: 11 12 13 / 21 22 23 / 31 32 33
    return [c(f"{col}{r}", None, 10 * r + i) for r in range(1, 4)
            for i, col in enumerate("ABC", 1)]


def test_index_with_row_or_column_left_out(tmp_path):
    # Microsoft Support, "INDEX function": "If row_num or column_num is set to 0 (zero),
    # INDEX returns the array of values for the entire column or row"; "If row_num is
    # omitted, column_num is required": left out between commas, each is that 0. By
    # hand: INDEX(A1:C3,,2) is B1:B3 (12+22+32 = 66), INDEX(A1:C3,2,) is A2:C2 (66),
    # INDEX(A1:A3,2,) is A2 (21), INDEX(A1:C1,,2) is B1 (12), INDEX({1,2,3},,2) is 2;
    # OFFSET(A1,1,) is A2 (cols left out: 0)
    cells = _grid() + [c("E1", "SUM(INDEX(A1:C3,,2))", 0), c("E2", "SUM(INDEX(A1:C3,2,))", 0),
                       c("E3", "INDEX(A1:A3,2,)", 0), c("E4", "INDEX(A1:C1,,2)", 0),
                       c("E5", "INDEX({1,2,3},,2)", 0), c("E6", "OFFSET(A1,1,)", 0),
                       '<c r="F1"><f t="array" ref="F1:F3">INDEX(A1:C3,,2)</f><v>0</v></c>',
                       c("F2", None, 0), c("F3", None, 0)]
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert [res[f"S!E{i}"] for i in range(1, 7)] == [66, 66, 21, 12, 2, 21]
    assert [res[f"S!F{i}"] for i in range(1, 4)] == [12, 22, 32]


@pytest.mark.parametrize("formula, said", [
    ("INDEX(A1:C3,1,1,)", "INDEX given its area_num left out"),
    ("SUM(INDEX(A1:C3,,))", "INDEX given its row_num left out"),
    ("SUM(INDEX(A1:C3,))", "INDEX given its row_num left out"),
    ("INDEX(A1:C1,2,)", "INDEX given its column_num left out"),
])
def test_what_an_argument_left_out_leaves_unsaid_is_refused(tmp_path, formula, said):
    # the INDEX page says what 0 means, and what an area_num left off means, not these:
    # Excel's value is kept
    _, kept = _calc(tmp_path, _grid() + [c("E1", formula, 7)])
    assert list(kept) == ["S!E1"] and kept["S!E1"].startswith(said)


def test_offset_with_height_or_width_left_out_as_excel_saved(tmp_path):
    # tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (saved by Excel), K7:L8 = 1, 1.001 /
    # 2, 2.9999: I1008 SUM(OFFSET(K7:L8, 0,0,1,)) saved 2.001 (K7+L7: the width left out
    # is the reference's 2), J1008 SUM(OFFSET(K7:L8, 0,0,,1)) 3 (K7+K8: the height is
    # its 2), M1008 SUM(OFFSET(K7:L8, 0,0,,)) 7.0009 (all four), as when left off
    cells = [c("K7", None, 1), c("L7", None, 1.0009999999999999), c("K8", None, 2),
             c("L8", None, 2.9998999999999998),
             c("I1008", "SUM(OFFSET(K7:L8, 0,0,1,))", 2.0009999999999999),
             c("J1008", "SUM(OFFSET(K7:L8, 0,0,,1))", 3),
             c("M1008", "SUM(OFFSET(K7:L8, 0,0,,))", 7.0008999999999997)]
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert res["S!I1008"] == 2.0009999999999999 == 1 + 1.0009999999999999
    assert res["S!J1008"] == 3 == 1 + 2
    assert res["S!M1008"] == 7.0008999999999997 == pytest.approx(1 + 1.001 + 2 + 2.9999)


def test_rows_and_columns_of_one_cell(tmp_path):
    # the fourteenth held-out part (seen): Annual Report.xlsx, Calculations!A15 =
    # ROWS($B$15:B15) saved 1 and A16 = ROWS($B$15:B16) saved 2 (a list's running
    # counter); Financial Statement Modeling.xlsm, Scenario!A6 = ROWS(A$6:A6) saved 1.
    # COLUMNS of one cell is 1 by the same reading (Microsoft Support, "COLUMNS function":
    # "the number of columns in an array or reference"); a plain A1 is one cell too.
    res, kept = _calc(tmp_path, [c("A15", "ROWS($B$15:B15)", 1), c("A16", "ROWS($B$15:B16)", 2),
                                 c("C1", "COLUMNS(D$1:D1)", 1), c("C2", "ROWS(B7)", 1),
                                 c("C3", "COLUMNS(B7)", 1)])
    assert kept == {}
    assert [res[f"S!{a}"] for a in ("A15", "A16", "C1", "C2", "C3")] == [1, 2, 1, 1, 1]
