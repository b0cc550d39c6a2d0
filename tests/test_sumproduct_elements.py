"""SUMPRODUCT's arguments computed as arrays: a function of one value given a range
inside them (``SUMPRODUCT(LN(1+C1:C3))``) is computed element by element over the
whole range, not on the cell of the formula's row (``addin.formula.intersection.LIFTED``,
``addin.engine.forms.each``).

Microsoft Support, "SUMPRODUCT function" (https://support.microsoft.com/zh-TW/Excel/
sumproduct-function; https://learn.microsoft.com/en-us/office/vba/api/
excel.worksheetfunction.sumproduct for its remarks in English): its arguments are arrays whose
corresponding entries are multiplied and summed, arithmetic operators may stand between
them (``=SUMPRODUCT(((Table1[Sales])+(Table1[Expenses]))*(Table1[Agent]=B8))``), arrays of
different dimensions give #VALUE!, non-numeric entries count as zeros. Microsoft Support,
"Guidelines and examples of array formulas": a function of one value given an array is
computed once for each of its elements. Each expected value below is worked by hand; the
last test compares napkin with LibreOffice on formulas of each such function."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import pytest
import xlsx_make

from addin.formula import intersection
from addin.ooxml.guard import WorkbookError

# A1:A3 regions, B1:B3 sales, C1:C3 returns, D1:D3 counts; the formulas sit in row 10,
# outside the rows of the ranges: a range intersected with row 10 would be #VALUE!
DATA = {"A1": "East", "A2": "West", "A3": "East", "B1": 10, "B2": 20, "B3": 30,
        "C1": 0.1, "C2": -0.2, "C3": 0.05, "D1": 2, "D2": 3, "D3": 4}


def _calc(tmp_path, formulas: dict, extra: dict | None = None, **kw):
    cells = DATA | (extra or {}) | {f"F{10 + k}": "=" + f for k, f in enumerate(formulas)}
    res = xlsx_make.calc(tmp_path, {"S": cells}, **kw)
    return {f: res[f"S!F{10 + k}"] for k, f in enumerate(formulas)}


def test_functions_of_one_value_are_computed_element_by_element(tmp_path):
    want = {
        # ln(1.1) + ln(0.8) + ln(1.05)
        "SUMPRODUCT(LN(1+C1:C3))": math.log(1.1) + math.log(0.8) + math.log(1.05),
        # e^0.1 + e^-0.2 + e^0.05
        "SUMPRODUCT(EXP(C1:C3))": math.exp(0.1) + math.exp(-0.2) + math.exp(0.05),
        "SUMPRODUCT(ABS(C1:C3))": 0.1 + 0.2 + 0.05,
        # 10/2 = 5, 20/3 = 6.67 rounded, 30/4 = 7.5
        "SUMPRODUCT(ROUND(B1:B3/D1:D3,2))": 5 + 6.67 + 7.5,
        # the operators, as before: 10 + 30 from the East rows; the returns above 0
        # (rows 1 and 3) weigh the counts 2 + 4; 5 + 20/3 + 7.5
        'SUMPRODUCT((A1:A3="East")*(B1:B3))': 40,
        "SUMPRODUCT(--(C1:C3>0),D1:D3)": 6,
        "SUMPRODUCT(B1:B3/D1:D3)": 5 + 20 / 3 + 7.5,
        # LEN of "East", "West", "East"; 1 for each number among B1:B3
        "SUMPRODUCT(LEN(A1:A3))": 12,
        "SUMPRODUCT(--ISNUMBER(B1:B3))": 3,
        # 10*1.1^-1 + 20*1.1^-2 + 30*1.1^-3: a discounting by POWER
        "SUMPRODUCT(B1:B3/POWER(1.1,{1;2;3}))": 10 / 1.1 + 20 / 1.1 ** 2 + 30 / 1.1 ** 3,
        # ISNUMBER gives logical values: non-numeric entries count as zeros (the page)
        "SUMPRODUCT(ISNUMBER(B1:B3))": 0,
        # MOD(10,3) + MOD(20,3) + MOD(30,3) = 1 + 2 + 0, times D: 2 + 6 + 0
        "SUMPRODUCT(MOD(B1:B3,3),D1:D3)": 8,
    }
    got = _calc(tmp_path, list(want))
    for f, v in want.items():
        assert got[f] == pytest.approx(v, rel=1e-12), f


def test_outside_sumproduct_a_range_is_still_intersected(tmp_path):
    # SUM's arguments are not arrays in a one-cell formula: LN(1+C1:C3) in row 2 takes C2
    # (-0.2 + 1 = 0.8), and ABS(C1:C3) in row 10, outside the range, is #VALUE!
    res = xlsx_make.calc(tmp_path, {"S": DATA | {"G2": "=SUM(LN(1+C1:C3))",
                                                 "G10": "=SUM(ABS(C1:C3))"}})
    assert res["S!G2"] == pytest.approx(math.log(0.8), rel=1e-12)
    assert str(res["S!G10"]) == "#VALUE!"


def test_if_inside_sumproduct_is_refused(tmp_path):
    # IF takes one value in SUMPRODUCT's argument unless the formula is an array formula
    # (not a function computed element by element there: intersection.LIFTED); napkin
    # computes neither, so strict mode refuses it
    assert "IF" not in intersection.LIFTED and "IFERROR" not in intersection.LIFTED
    with pytest.raises(WorkbookError, match=r"SUMPRODUCT\(\) given"):
        _calc(tmp_path, ["SUMPRODUCT(IF(C1:C3>0,1,0))"])


def test_an_element_of_a_form_not_checked_is_refused(tmp_path):
    # ABS's evidence covers no text that looks like a number: a range holding one is
    # refused as ABS given it; ABS's and SIGN's cover an error value (SIGN's since 7
    # December 2026, tests/test_errors_given.py), and the error reaches SUMPRODUCT, its
    # result
    with pytest.raises(WorkbookError, match=r"ABS\(\) given text that looks like a number"):
        _calc(tmp_path, ["SUMPRODUCT(ABS(C1:C4))"], {"C4": '="12"'})
    for formula in ("SUMPRODUCT(ABS(C1:C4))", "SUMPRODUCT(SIGN(1+C1:C4))"):
        got = _calc(tmp_path, [formula], {"C4": "=NA()"})
        assert str(got[formula]) == "#N/A"


def test_an_empty_cell_counts_as_zero(tmp_path):
    # "SUMPRODUCT treats non-numeric array entries as if they were zeros" (the page): an
    # empty cell's product is 0 whether it reads as 0 or as no number. D2 left empty:
    # 10*2 + 30*4 = 140, and 2 + 4 = 6 alone
    got = _calc(tmp_path, ["SUMPRODUCT(B1:B3,D1:D3)", "SUMPRODUCT(D1:D3)"], {"D2": None})
    assert got == {"SUMPRODUCT(B1:B3,D1:D3)": 140, "SUMPRODUCT(D1:D3)": 6}


def test_an_error_value_in_an_array_is_the_result(tmp_path):
    # tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, saved by Excel: EverythingTests!K1328,
    # SUMPRODUCT(I1330:J1330,K1330:L1330) with I1330:J1330 = 2, 3, K1330 #REF!, L1330 = 5,
    # is #REF! (computed with its file in tests/test_fidelity.py; its form is rebuilt here)
    got = _calc(tmp_path, ["SUMPRODUCT(I1:J1,K1:L1)"],
                {"I1": 2, "J1": 3, "K1": "=#REF!", "L1": 5})
    assert str(got["SUMPRODUCT(I1:J1,K1:L1)"]) == "#REF!"
    # 20/0 in the second element: #DIV/0!, as the division gives it
    got = _calc(tmp_path, ["SUMPRODUCT(B1:B3/D1:D3)"], {"D2": 0})
    assert str(got["SUMPRODUCT(B1:B3/D1:D3)"]) == "#DIV/0!"
    # errors of two kinds: which Excel gives is on no page, refused
    with pytest.raises(WorkbookError, match="error values of two kinds"):
        _calc(tmp_path, ["SUMPRODUCT(B1:B3/D1:D3)"], {"D2": 0, "B3": "=NA()"})


def test_arrays_of_different_dimensions_are_value_errors(tmp_path):
    # "The array arguments must have the same dimensions. If they do not, SUMPRODUCT
    # returns the #VALUE! error value" (the page), after the functions inside them
    got = _calc(tmp_path, ["SUMPRODUCT(ABS(C1:C3),D1:D2)"])
    assert str(got["SUMPRODUCT(ABS(C1:C3),D1:D2)"]) == "#VALUE!"


#: formulas of each function computed element by element over the differential test's
#: input ranges (tests/differential/inputs.py), except those giving logical values
#: (ISNUMBER, NOT...), where LibreOffice, which has no logical type, differs from Excel
_RANGES = ["In!B1:B12", "In!C1:C12", "In!A1:A16", "In!D1:D10", "In!E1:E6", "In!B1:C6"]
_ONE = ["ABS", "EXP", "INT", "LEN", "LN", "LOG10", "SIGN", "SQRT", "TRIM", "TRUNC",
        "UPPER", "LOWER", "VALUE", "LEFT", "RIGHT", "LOG"]
_TWO = {"CEILING": "0.5", "FLOOR": "2", "MOD": "-2", "POWER": "0.5", "ROUND": "1",
        "ROUNDDOWN": "0", "ROUNDUP": "1", "LEFT": "2", "RIGHT": "2", "LOG": "2",
        "TRUNC": "1", "TEXT": '"0.0"'}


def _referee_formulas() -> list[str]:
    out = []
    for r in _RANGES:
        for f in _ONE:
            second = ",In!C1:C12" if r.endswith("12") else ""  # (a second array alike)
            out += [f"SUMPRODUCT({f}({r}))", f"SUMPRODUCT({f}(1+{r}){second})"]
        for f, second in _TWO.items():
            out += [f"SUMPRODUCT({f}({r},{second})*1)", f"SUMPRODUCT(LEN({f}({r}/2,{second})))"]
    out += ["SUMPRODUCT(--ISNUMBER(In!A1:A16),In!B1:B16)", "SUMPRODUCT(--ISTEXT(In!D1:D10))",
            "SUMPRODUCT(--ISBLANK(In!E1:E6))", "SUMPRODUCT(--(MID(In!D1:D10,2,1)=\"p\"))",
            "SUMPRODUCT(In!C1:C12/POWER(1.1,In!B1:B12))", "SUMPRODUCT(ROUND(LN(In!C1:C12),3))",
            "SUMPRODUCT(In!E1:E6)", "SUMPRODUCT(In!E1:E6,In!B1:B6)", "SUMPRODUCT(In!B1:C6)"]
    return list(dict.fromkeys(out))


def _has_uno() -> bool:
    from differential import referee

    return shutil.which("soffice") is not None and Path(referee.UNO_PYTHON).exists() and \
        subprocess.run([referee.UNO_PYTHON, "-c", "import uno"],
                       capture_output=True).returncode == 0


@pytest.mark.xml
def test_libreoffice_agrees_where_napkin_computes():
    if not _has_uno():
        pytest.skip("LibreOffice (soffice) with Python's uno is not installed")
    from differential import referee
    from differential.generate import Formula

    formulas = [Formula(t, "SUMPRODUCT") for t in _referee_formulas()]
    results = referee.run([formulas])
    outcomes = {r.formula.text: r.outcome for r in results}
    wrong = [referee.describe(r) for r in results if r.outcome == "disagree"]
    assert not wrong, wrong
    # (four unsettled, tests/differential/unsettled.csv: POWER of a text in the array,
    # of a formula's empty text, and the same through LEN since LEN takes an error value)
    assert sum(o == "unsettled" for o in outcomes.values()) <= 4
    # 342 formulas: 163 agree when this was written, the rest refused for the forms of
    # their elements (a text or an error value among In!A1:A16, an empty cell...)
    assert sum(o == "agree" for o in outcomes.values()) >= 150


def _array_formula(tmp_path, formula: str):
    """``formula`` entered as an array formula (Ctrl+Shift+Enter) in S!F10, over DATA."""
    import openpyxl
    from openpyxl.worksheet.formula import ArrayFormula

    from addin.engine.api import calc_workbook

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    for ref, v in DATA.items():
        ws[ref] = v
    ws["F10"] = ArrayFormula("F10", "=" + formula)
    wb.save(tmp_path / "in.xlsx")
    return calc_workbook(tmp_path / "in.xlsx", tmp_path / "out.xlsx", {})["S!F10"]


def test_in_an_array_formula_the_same_functions_compute_each_element(tmp_path):
    # Microsoft Support, "Guidelines and examples of array formulas": in an array formula
    # a function of one value given a range is computed for each element, and SUM, MAX
    # read the array so made: ln(1.1) + ln(0.8) + ln(1.05); the largest of |0.1|, |-0.2|,
    # |0.05|; LN(-0.2) is #NUM!, and SUM of an array holding it that error
    got = _array_formula(tmp_path, "SUM(LN(1+C1:C3))")
    assert got == pytest.approx(math.log(1.1) + math.log(0.8) + math.log(1.05), rel=1e-12)
    assert _array_formula(tmp_path, "MAX(ABS(C1:C3))") == pytest.approx(0.2)
    assert str(_array_formula(tmp_path, "SUM(LN(C1:C3))")) == "#NUM!"
