"""An empty cell given to the text, information, financial and lookup-adjacent functions
(December 2026): each case computed in strict mode over the empty cell D7 (and D8, D20,
empty too), with the value worked by hand or the cell Excel saved.

The rule: an empty cell is 0 in a number's place (Microsoft KB Q149577, "XL: Formula to
Correctly Evaluate Blank Cells": "Microsoft Excel interprets a blank cell as zero, and not
as empty or blank. Therefore, any cells that are blank are evaluated as zero in the
function") and the empty text in a text's place
(tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, saved by Excel 15: EverythingTests!G900,
MID(E20,1,2) of an empty cell, is ""; H1352, T(D8), is ""). The cells Excel saved there
(EverythingTests, D7 empty): G420 DOLLAR(D7) = "$0.00", K460 ERROR.TYPE(A14) = #N/A,
H788 ISNA(AA14) = FALSE, G992 NPER(0.05,10,100,-200,D7) = 5.896312860369899; and
tests/corpus/sheetjs/formula_stress_test.xlsx, Information!B5 ISERR(C5) = FALSE.
"""

from __future__ import annotations

import math

import pytest
import xlsx_make

from addin.engine import checked
from addin.engine.api import calc_workbook, refusal_causes
from udfs.machinery.errors import ExcelError

c = xlsx_make.cell

WIDENED = ("LEFT", "RIGHT", "MID", "FIND", "SEARCH", "LOWER", "REPLACE", "T", "CODE",
           "CLEAN", "DOLLAR", "ROMAN", "TYPE", "ERROR.TYPE", "ISERR", "ISNA", "PMT", "PV",
           "FV", "NPER", "IPMT", "PPMT", "RATE", "SLN", "DB", "VDB", "RRI", "IFS",
           "ADDRESS")
#: left unchecked for an empty cell: no page or saved cell settles it (ISEVEN, ISODD:
#: the pages say #VALUE! for a value that is not a number, the KB 0, LibreOffice
#: #VALUE!; VALUE: "" is #VALUE! (tests/corpus/poi/ValueFunctionOfBlank.xlsx) but an
#: empty cell is 0 as a number), or the reference to one cell is not checked
#: (CHAR, HYPERLINK, SWITCH, _FV), or a rate of 0 is refused anyway (XNPV)
LEFT_OPEN = ("ISEVEN", "ISODD", "VALUE", "CHAR", "HYPERLINK", "SWITCH", "_FV", "XNPV")


def _calc(tmp_path, cells):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    return calc_workbook(src, tmp_path / "out.xlsx", {})


def _error(v) -> str:
    return v.code if isinstance(v, ExcelError) else repr(v)


def test_the_declarations():
    forms = checked.checked()
    for name in WIDENED:
        assert "empty" in forms[name][0], name
    for name in LEFT_OPEN:
        assert "empty" not in forms[name][0], name


def test_an_empty_cell_in_the_text_functions(tmp_path):
    res = _calc(tmp_path, [
        c("A1", None, 499),
        c("B1", "LEFT(D7)", "", t="str"),  # "" (its text)
        c("B2", 'LEFT("abc",D7)', "", t="str"),  # num_chars 0: no character
        c("B3", "RIGHT(D7,2)", "", t="str"),
        c("B4", 'RIGHT("abc",D7)', "", t="str"),
        c("B5", "MID(D20,1,2)", "", t="str"),  # EverythingTests!G900: ""
        c("B6", 'MID("abc",1,D7)', "", t="str"),
        c("B7", 'MID("abc",D7,2)', "#VALUE!", t="e"),  # MID's page: start_num below 1
        c("B8", "LOWER(D7)", "", t="str"),
        c("B9", "CLEAN(D7)", "", t="str"),
        c("B10", "T(D8)", "", t="str"),  # EverythingTests!H1352: ""
        c("B11", 'REPLACE(D7,1,1,"x")', "x", t="str"),  # "" with its first character "x"
        c("B12", 'REPLACE("abc",1,D7,"x")', "xabc", t="str"),  # none replaced, "x" put in
        c("B13", 'REPLACE("abc",1,1,D7)', "bc", t="str"),  # "a" replaced by ""
        c("B14", 'FIND(D7,"abc")', 1),  # FIND's page: "" matches character 1
        c("B15", 'FIND(D7,"abc",2)', 2),  # ... or the one numbered start_num
        c("B16", 'FIND("a",D7)', "#VALUE!", t="e"),  # not found in ""
        c("B17", 'SEARCH("a",D7)', "#VALUE!", t="e"),
        c("B18", "CODE(D7)", "#VALUE!", t="e"),  # CODE("") (no first character)
        c("B19", "DOLLAR(D7)", "$0.00", t="str"),  # EverythingTests!G420
        c("B20", "ROMAN(D7)", "", t="str"),  # ROMAN(0) is the empty text
        c("B21", "ROMAN(A1,D7)", "CDXCIX", t="str"),  # form 0, ROMAN's page: 499 CDXCIX
        c("B22", "LEFT(D7,3)&MID(D7,1,1)&RIGHT(D7)", "", t="str"),
    ])
    texts = {f"S!B{i}": "" for i in (1, 2, 3, 4, 5, 6, 8, 9, 10, 20, 22)}
    assert {k: res[k] for k in texts} == texts
    assert [res[f"S!B{i}"] for i in (11, 12, 13, 19, 21)] == ["x", "xabc", "bc", "$0.00",
                                                              "CDXCIX"]
    assert res["S!B14"] == 1 and res["S!B15"] == 2
    assert [_error(res[f"S!B{i}"]) for i in (7, 16, 17, 18)] == ["#VALUE!"] * 4


def test_an_empty_cell_in_the_information_functions_and_ifs(tmp_path):
    res = _calc(tmp_path, [
        c("B1", "TYPE(D7)", 1),  # a number (0): 1
        c("B2", "ERROR.TYPE(D7)", "#N/A", t="e"),  # no error: #N/A (EverythingTests!K460)
        c("B3", "ISNA(D7)", 0, t="b"),  # EverythingTests!H788: FALSE
        c("B4", "ISERR(D7)", 0, t="b"),  # formula_stress_test Information!B5: FALSE
        c("B5", "IFS(FALSE,1,TRUE,D7)", 0),  # the value of an empty cell: 0
        c("B6", "ADDRESS(2,3,1,D7)", "R2C3", t="str"),  # a1 0 is FALSE: R1C1 style
        c("B7", "ADDRESS(2,3,2,D7)", "R2C[3]", t="str"),  # ADDRESS's page, (2,3,2,FALSE)
    ])
    assert res["S!B1"] == 1 and _error(res["S!B2"]) == "#N/A"
    assert res["S!B3"] is False and res["S!B4"] is False and res["S!B5"] == 0
    assert res["S!B6"] == "R2C3" and res["S!B7"] == "R2C[3]"


def _rate(nper, pmt, pv, fv=0.0):
    """The rate r > 0 where pv*(1+r)^n + pmt*((1+r)^n - 1)/r + fv = 0, by bisection
    (Microsoft Support, "PV function": the equation RATE solves, type 0)."""
    def f(r):
        g = (1 + r) ** nper
        return pv * g + pmt * (g - 1) / r + fv
    lo, hi = 1e-9, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(lo) * f(mid) > 0 else (lo, mid)
    return (lo + hi) / 2


def test_an_empty_cell_in_the_financial_functions(tmp_path):
    res = _calc(tmp_path, [
        c("A1", None, 0.1), c("A2", None, 10), c("A3", None, 100),
        c("B1", "PMT(A1,A2,A3,D7,D7)", 0),  # fv 0, type 0: 100*0.1/(1-1.1^-10)
        c("B2", "PV(A1,A2,A3,D7)", 0),  # -100*(1-1.1^-10)/0.1
        c("B3", "FV(A1,A2,A3,D7)", 0),  # -100*(1.1^10-1)/0.1
        c("B4", "FV(D7,A2,A3)", 0),  # rate 0: -pmt*nper = -1000
        c("B5", "NPER(0.05,10,100,-200,D7)", 0),  # EverythingTests!G992: 5.896312860369899
        c("B6", "IPMT(A1,2,A2,A3,D7)", 0),  # interest of period 2, type 0
        c("B7", "PPMT(A1,2,A2,A3,D7)", 0),  # payment less that interest
        c("B8", "RATE(48,-200,8000,D7)", 0),  # RATE's page: RATE(4*12,-200,8000) 0.77%
        c("B9", "RATE(48,-200,8000,0,D7)", 0),
        c("B10", "SLN(1000,D7,10)", 0),  # (1000 - 0)/10
        c("B11", "SLN(1000,100,D7)", 0),  # life 0: #DIV/0!
        c("B12", "DB(1000,D7,10,1)", 0),  # rate 1-(0/1000)^(1/10) = 1.000: 1000
        c("B13", "VDB(1000,D7,10,0,1)", 0),  # double declining: 1000*2/10
        c("B14", "VDB(1000,100,10,D7,1)", 0),  # start 0, the same period
        c("B15", "VDB(1000,100,10,0,1,2,D7)", 0),  # no_switch FALSE: the same 200
        c("B16", "PMT(D7,A2,A3)", 0),  # rate 0: -pv/nper = -10
    ])
    pmt = 100 * 0.1 / (1 - 1.1 ** -10)
    assert res["S!B1"] == pytest.approx(-pmt, rel=1e-12)
    assert res["S!B2"] == pytest.approx(-100 * (1 - 1.1 ** -10) / 0.1, rel=1e-12)
    assert res["S!B3"] == pytest.approx(-100 * (1.1 ** 10 - 1) / 0.1, rel=1e-12)
    assert res["S!B4"] == -1000
    # NPER = ln((pmt - fv*r)/(pmt + pv*r))/ln(1+r) = ln((10+10)/(10+5))/ln 1.05
    assert res["S!B5"] == pytest.approx(math.log(20 / 15) / math.log(1.05), rel=1e-12)
    assert res["S!B5"] == pytest.approx(5.896312860369899, rel=1e-9)
    interest = -(100 * 1.1 - pmt) * 0.1  # the balance after one payment, a period on
    assert res["S!B6"] == pytest.approx(interest, rel=1e-12)
    assert res["S!B7"] == pytest.approx(-pmt - interest, rel=1e-12)
    rate = _rate(48, -200, 8000)
    assert round(rate, 4) == 0.0077
    assert res["S!B8"] == pytest.approx(rate, rel=1e-9)
    assert res["S!B9"] == pytest.approx(rate, rel=1e-9)
    assert res["S!B10"] == 100 and _error(res["S!B11"]) == "#DIV/0!"
    assert [res[f"S!B{i}"] for i in (12, 13, 14, 15, 16)] == [1000, 200, 200, 200, -10]


def test_value_of_a_reference_to_one_cell(tmp_path):
    # VALUE's page: "a reference to a cell containing the text you want to convert"; its
    # examples, the texts in cells: "$1,000" is 1000, "16:48:00" - "12:00:00" is 0.2
    # (4 h 48 min of a day of 24 h); a number is itself, text no number reads #VALUE!
    assert "cells" in checked.checked()["VALUE"][0]
    res = _calc(tmp_path, [
        c("A1", None, "$1,000", t="inlineStr"), c("A2", None, "16:48:00", t="inlineStr"),
        c("A3", None, "12:00:00", t="inlineStr"), c("A4", None, 12),
        c("A5", None, "abc", t="inlineStr"),
        c("B1", "VALUE(A1)", 1000), c("B2", "VALUE(A2)-VALUE(A3)", 0.2),
        c("B3", "VALUE(A4)", 12), c("B4", "VALUE(A5)", "#VALUE!", t="e"),
    ])
    assert res["S!B1"] == 1000 and res["S!B3"] == 12
    assert res["S!B2"] == pytest.approx(0.2, abs=1e-12)
    assert _error(res["S!B4"]) == "#VALUE!"


def test_empty_cells_left_refused(tmp_path):
    # each case no page or saved cell settles stays refused, with its sentence
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        c("B1", "ISEVEN(D7)", 1, t="b"), c("B2", "ISODD(D7)", 0, t="b"),
        c("B3", "ADDRESS(1,1,D7)", "#VALUE!", t="e"),  # abs_num 0: not on its page
        c("B4", 'REPLACE("abc",D7,1,"x")', "#VALUE!", t="e"),  # start_num 0
        c("B5", 'SEARCH(D7,"abc")', 1),  # SEARCH's page is silent on ""
        c("B6", "RRI(10,100,D7)", -1),  # an argument of 0
        c("B7", 'FIND(D7,"abc",5)', "#VALUE!", t="e"),  # start_num past within_text
        c("B8", "VALUE(D7)", 0),
        c("B9", "IFS(D7,1,TRUE,2)", 2),  # an empty logical_test
    ]})
    why = {r.label: r.reason for r in refusal_causes(src)}
    assert "ISEVEN() given an empty cell" in why["S!B1"]
    assert "ISODD() given an empty cell" in why["S!B2"]
    assert "empty cell as its abs_num" in why["S!B3"]
    assert "REPLACE() with a start_num" in why["S!B4"]
    assert "SEARCH() of an empty find_text" in why["S!B5"]
    assert "RRI with an argument of 0" in why["S!B6"]
    assert "FIND() of an empty find_text" in why["S!B7"]
    assert "VALUE() given an empty cell" in why["S!B8"]
    assert "IFS() given an empty cell" in why["S!B9"]
