"""Evidence for the common functions and forms strict mode computes since December 2026
(``addin/formula/excel_functions/``): the hyperbolic functions, HLOOKUP, MAXA, MINA,
AVERAGEA, HOUR, MINUTE, SECOND, REPLACE, ISEVEN, ISODD, ISNONTEXT, SUMX2MY2, SUMX2PY2,
SUMXMY2, DEVSQ, AVEDEV, POISSON and POISSON.DIST; AND, PRODUCT, VAR, COMBIN and DOLLAR
given a reference to one cell; AVERAGE given an error value. And the refusals of what
their pages leave unsaid (``addin/excel/refusals.py``, ``addin/excel/dates.py``,
``addin/excel/aggregates.py``, ``addin/excel/text.py``).

Each value is Microsoft's documented example, worked by hand here too (the formula the
page gives, or the count by its definition). The pages (Microsoft Support):

* https://support.microsoft.com/en-us/excel/functions/sinh-function (and tanh-function,
  asinh-function, acosh-function, atanh-function)
* https://support.microsoft.com/en-us/excel/functions/hlookup-function
* https://support.microsoft.com/en-us/excel/functions/maxa-function, mina-function,
  averagea-function
* https://support.microsoft.com/en-us/excel/functions/hour-function, minute-function,
  second-function
* https://support.microsoft.com/en-us/excel/functions/replace-replaceb-functions
* https://support.microsoft.com/en-us/excel/functions/iseven-function, isodd-function,
  is-functions
* https://support.microsoft.com/en-us/excel/functions/sumx2my2-function,
  sumx2py2-function, sumxmy2-function
* https://support.microsoft.com/en-us/excel/functions/devsq-function, avedev-function
* https://support.microsoft.com/en-us/excel/functions/poisson-dist-function,
  poisson-function
* https://support.microsoft.com/en-us/excel/functions/and-function, product-function,
  var-function, combin-function, dollar-function, average-function
"""

from __future__ import annotations

import math

import pytest
import sheet_calc
import xlsx_make

from addin.engine import checked

c = xlsx_make.cell


_calc, _text = sheet_calc.calc_sheet, sheet_calc.text


_formulas = sheet_calc.formulas_down


def test_the_functions_are_checked():
    got = checked.checked()
    for name in ("SINH", "TANH", "ASINH", "ACOSH", "ATANH", "HLOOKUP", "MAXA", "MINA",
                 "AVERAGEA", "HOUR", "MINUTE", "SECOND", "REPLACE", "ISEVEN", "ISODD",
                 "ISNONTEXT", "SUMX2MY2", "SUMX2PY2", "SUMXMY2", "DEVSQ", "AVEDEV",
                 "POISSON", "POISSON.DIST"):
        assert "scalars" in got[name][0] or "ranges" in got[name][0], name
    for name in ("AND", "PRODUCT", "VAR", "COMBIN", "DOLLAR"):
        assert "cells" in got[name][0], name
    assert "errors" in got["AVERAGE"][0]


def test_hyperbolic_functions(tmp_path):
    # the pages' examples; by hand: sinh x = (e^x - e^-x)/2, tanh = sinh/cosh,
    # asinh x = ln(x + sqrt(x^2+1)), acosh x = ln(x + sqrt(x^2-1)), atanh x =
    # ln((1+x)/(1-x))/2
    res, kept = _calc(tmp_path, [c("A1", None, 10), *_formulas("B", [
        "SINH(1)", "2.868*SINH(0.0342*1.03)", "TANH(-2)", "TANH(0)", "TANH(0.5)",
        "ASINH(-2.5)", "ASINH(A1)", "ACOSH(1)", "ACOSH(A1)", "ATANH(0.76159416)",
        "ATANH(-0.1)"])])
    assert kept == {}
    got = [res[f"S!B{i}"] for i in range(1, 12)]
    page = [1.175201194, 0.1010491, -0.964028, 0, 0.462117, -1.647231146, 2.99822295, 0,
            2.9932228, 1.00000001, -0.100335348]
    for value, shown in zip(got, page, strict=True):
        assert value == pytest.approx(shown, abs=5e-7)
    e = math.e
    assert got[0] == pytest.approx((e - 1 / e) / 2, rel=1e-15)
    assert got[2] == pytest.approx((e ** -2 - e ** 2) / (e ** -2 + e ** 2), rel=1e-15)
    assert got[6] == pytest.approx(math.log(10 + math.sqrt(101)), rel=1e-15)
    assert got[8] == pytest.approx(math.log(10 + math.sqrt(99)), rel=1e-15)
    assert got[10] == pytest.approx(math.log(0.9 / 1.1) / 2, rel=1e-15)


def test_hyperbolic_arguments_outside_their_domain(tmp_path):
    # ACOSH: "must be greater than or equal to 1"; ATANH: "between -1 and 1 (excluding
    # -1 and 1)"; the error value is the one Excel saved there in
    # tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests!F108, ACOSH(-534),
    # and E172, ATANH(1.1): #NUM!). SINH beyond 709 overflows a float: refused.
    res, kept = _calc(tmp_path, _formulas("B", ["ACOSH(0.5)", "ATANH(1)", "SINH(1000)"]))
    assert str(res["S!B1"]).startswith("#NUM!") and str(res["S!B2"]).startswith("#NUM!")
    assert list(kept) == ["S!B3"] and "SINH() given 1000 beyond 709" in kept["S!B3"]


def test_hlookup(tmp_path):
    # the page's table: Axles, Bearings, Bolts over 4,5,6 / 4,7,8 / 9,10,11
    table = [_text("A1", "Axles"), _text("B1", "Bearings"), _text("C1", "Bolts")]
    for row, values in ((2, (4, 4, 9)), (3, (5, 7, 10)), (4, (6, 8, 11))):
        table += [c(f"{col}{row}", None, v) for col, v in zip("ABC", values, strict=True)]
    res, kept = _calc(tmp_path, [*table, *_formulas("E", [
        'HLOOKUP("Axles",A1:C4,2,TRUE)', 'HLOOKUP("Bearings",A1:C4,3,FALSE)',
        'HLOOKUP("B",A1:C4,3,TRUE)', 'HLOOKUP("Bolts",A1:C4,4)',
        'HLOOKUP(3,{1,2,3;"a","b","c";"d","e","f"},2,TRUE)', 'HLOOKUP("x",A1:C4,2,FALSE)'])])
    assert kept == {}
    # "B" is below "Bearings": the largest value below it in the first row is Axles
    assert [res[f"S!E{i}"] for i in range(1, 6)] == [4, 7, 5, 11, "c"]
    assert str(res["S!E6"]).startswith("#N/A")  # exact match not found: #N/A (the page)


def test_maxa_mina_averagea(tmp_path):
    cells = [c(f"A{i}", None, v) for i, v in enumerate((0, 0.2, 0.5, 0.4), start=2)]
    cells += [c("A6", None, 1, t="b"), c("B2", None, 0, t="b")]  # TRUE, FALSE
    cells += [c(f"B{i}", None, v) for i, v in enumerate((0.2, 0.5, 0.4, 0.8), start=3)]
    cells += [c(f"C{i}", None, v) for i, v in enumerate((10, 7, 9, 2), start=2)]
    cells += [_text("C6", "Not available")]
    res, kept = _calc(tmp_path, [*cells, *_formulas("E", [
        "MAXA(A2:A6)", "MINA(B2:B6)", "AVERAGEA(C2:C6)", "MAXA(-1,-2,TRUE)",
        "MINA(C2:C6)", "MAXA(D1:D3)"])])
    assert kept == {}
    # MAXA: TRUE counts 1; MINA: FALSE counts 0; AVERAGEA: (10+7+9+2+0)/5 = 5.6, the
    # text counted as 0; typed TRUE counted; MINA over text in a reference: 0; no values: 0
    assert [res[f"S!E{i}"] for i in range(1, 7)] == [1, 0, pytest.approx(5.6, rel=1e-15),
                                                     1, 0, 0]


def test_the_empty_text_given_to_averagea_is_refused(tmp_path):
    # AVERAGEA's page says both that typed text no number reads is an error and that
    # empty text ("") evaluates as 0
    res, kept = _calc(tmp_path, _formulas("B", ['AVERAGEA("",1)', 'MAXA("",-1)']))
    assert 'given the empty text ""' in kept["S!B1"] and "S!B2" in kept


def test_hour_minute_second(tmp_path):
    # HOUR's data: 0.75, 7/18/2011 7:45 AM (serial 40742 + 7.75/24), 4/21/2012 (41020);
    # MINUTE: 12:45:00 PM (0.53125); SECOND: 4:48:18 PM and 4:48 PM
    cells = [c("A1", None, 0.75), c("A2", None, 40742 + 7.75 / 24), c("A3", None, 41020),
             c("A4", None, 0.53125), c("A5", None, (16 * 3600 + 48 * 60 + 18) / 86400),
             c("A6", None, (16 * 60 + 48) / 1440)]
    res, kept = _calc(tmp_path, [*cells, *_formulas("B", [
        "HOUR(A1)", "HOUR(A2)", "HOUR(A3)", "MINUTE(A4)", "SECOND(A5)", "SECOND(A6)",
        "MINUTE(A5)", "HOUR(0.999999999999)", "HOUR(A9)"])])
    assert kept == {}
    # the pages' results; a time within a millionth of a second of midnight is midnight
    # (0.999999999999 of a day is 86399.99999991 s); an empty cell is 0
    assert [res[f"S!B{i}"] for i in range(1, 10)] == [18, 7, 0, 45, 18, 0, 48, 0, 0]


def test_times_no_page_settles_are_refused(tmp_path):
    # formulas gave SECOND(0.999999999) = 60: 86399.9999136 s, not a whole second, whose
    # rounding Excel's pages do not give; a negative serial and a logical value neither
    res, kept = _calc(tmp_path, [c("A1", None, 1, t="b"), *_formulas("B", [
        "SECOND(0.999999999)", "HOUR(-1)", "MINUTE(A1)"])])
    assert "not a whole second" in kept["S!B1"]
    assert "below 0" in kept["S!B2"] and "logical value" in kept["S!B3"]


def test_replace(tmp_path):
    res, kept = _calc(tmp_path, [_text("A1", "abcdefghijk"), c("A2", None, 2009),
                                 _text("A3", "123456"), *_formulas("B", [
                                     'REPLACE(A1,6,5,"*")', 'REPLACE(A2,3,2,"10")',
                                     'REPLACE(A3,1,3,"@")', 'REPLACE(A1,0,1,"x")'])])
    # the page's examples: five characters from the sixth replaced by one "*"; the last
    # two digits of 2009; the first three characters
    assert [res[f"S!B{i}"] for i in (1, 2, 3)] == ["abcde*k", "2010", "@456"]
    assert list(kept) == ["S!B4"] and "start_num" in kept["S!B4"]


def test_iseven_isodd_isnontext(tmp_path):
    res, kept = _calc(tmp_path, [_text("A1", "x"), c("A2", None, 5), c("A4", None,
                                                                        "#DIV/0!", t="e"),
                                 c("A5", None, 1, t="b"), *_formulas("B", [
        "ISEVEN(-1)", "ISEVEN(2.5)", "ISEVEN(A2)", "ISEVEN(0)", "ISODD(-1)", "ISODD(2.5)",
        "ISODD(5)", "ISNONTEXT(A1)", "ISNONTEXT(A2)", "ISNONTEXT(A3)", "ISNONTEXT(A4)",
        'ISEVEN("x")', "ISEVEN(A5)"])])
    # ISEVEN/ISODD: the number truncated (2.5 is 2); ISNONTEXT: FALSE for text only, TRUE
    # for a blank cell (the IS functions' page); a nonnumeric number #VALUE! (the pages)
    assert [res[f"S!B{i}"] for i in range(1, 12)] == [
        False, True, False, True, True, False, True, False, True, True, True]
    assert str(res["S!B12"]).startswith("#VALUE!")
    assert list(kept) == ["S!B13"] and "logical value" in kept["S!B13"]


XS, YS = (2, 3, 9, 1, 8, 7, 5), (6, 5, 11, 7, 5, 4, 4)


def test_sums_of_squares_of_two_arrays(tmp_path):
    cells = [c(f"A{i}", None, x) for i, x in enumerate(XS, start=1)]
    cells += [c(f"B{i}", None, y) for i, y in enumerate(YS, start=1)]
    res, kept = _calc(tmp_path, [*cells, *_formulas("D", [
        "SUMX2MY2(A1:A7,B1:B7)", "SUMX2MY2({2,3,9,1,8,7,5},{6,5,11,7,5,4,4})",
        "SUMX2PY2(A1:A7,B1:B7)", "SUMXMY2(A1:A7,B1:B7)", "SUMXMY2(A1:A7,B1:B6)",
        "SUMX2PY2(A1:A8,B1:B8)"])])
    pairs = list(zip(XS, YS, strict=True))
    assert sum(x * x - y * y for x, y in pairs) == -55  # the pages' results
    assert sum(x * x + y * y for x, y in pairs) == 521
    assert sum((x - y) ** 2 for x, y in pairs) == 79
    assert [res[f"S!D{i}"] for i in range(1, 5)] == [-55, -55, 521, 79]
    assert str(res["S!D5"]).startswith("#N/A")  # different counts: #N/A (the pages)
    # the pages: empty cells "are ignored", not whether the value paired with one is; the
    # cells Excel saved in FormulaEvalTestData (EverythingTests!E1340) leave out the pair:
    # A8 and B8 are empty, the sum that of the seven pairs (tests/test_checked_empty_math.py)
    assert res["S!D6"] == 521 and not kept


def test_devsq_avedev(tmp_path):
    cells = [c(f"A{i}", None, x) for i, x in enumerate((4, 5, 8, 7, 11, 4, 3), start=1)]
    cells += [_text("A8", "x")]
    res, kept = _calc(tmp_path, [*cells, *_formulas("B", [
        "DEVSQ(A1:A8)", "AVEDEV(4,5,6,7,5,4,3)", "DEVSQ(A1:A9,TRUE)"])])
    assert kept == {}
    # DEVSQ: mean 6, squares 4,1,4,1,25,4,9 = 48 (the text and the empty cell ignored);
    # AVEDEV: mean 34/7, |x - mean| summed 50/7, / 7 = 1.020408; TRUE typed counts 1
    assert res["S!B1"] == 48
    assert res["S!B2"] == pytest.approx(50 / 49, rel=1e-15)
    assert round(res["S!B2"], 6) == 1.020408
    xs = [4, 5, 8, 7, 11, 4, 3, 1]
    assert res["S!B3"] == pytest.approx(sum((x - sum(xs) / 8) ** 2 for x in xs), rel=1e-15)


def test_poisson(tmp_path):
    res, kept = _calc(tmp_path, _formulas("B", [
        "_xlfn.POISSON.DIST(2,5,TRUE)", "_xlfn.POISSON.DIST(2,5,FALSE)", "POISSON(2,5,TRUE)",
        "POISSON(2.7,5,FALSE)", "POISSON(2,0,FALSE)", "POISSON(2,5,1)"]))
    # by hand: e^-5 (1 + 5 + 25/2) = 0.124652, e^-5 25/2 = 0.084224 (the page); x
    # truncated (the page: 2.7 is 2)
    assert res["S!B1"] == pytest.approx(math.exp(-5) * 18.5, rel=1e-14)
    assert res["S!B2"] == pytest.approx(math.exp(-5) * 12.5, rel=1e-14)
    assert res["S!B3"] == res["S!B1"] and res["S!B4"] == res["S!B2"]
    assert round(res["S!B1"], 6) == 0.124652 and round(res["S!B2"], 6) == 0.084224
    # a mean of 0 and a cumulative that is a number: not settled by the page
    assert sorted(kept) == ["S!B5", "S!B6"]


def test_and_product_var_combin_dollar_given_a_cell(tmp_path):
    cells = [c("A1", None, 1, t="b"), c("A2", None, 5), _text("A3", "x"), c("A4", None, 8),
             c("A5", None, 1234.567), c("A6", None, 15), c("A7", None, 30)]
    res, kept = _calc(tmp_path, [*cells, *_formulas("B", [
        "AND(A1)", "AND(A1,A2)", "AND(A3)", "PRODUCT(A2,A6,A7)", "PRODUCT(A2,A6,A7,2)",
        "VAR(A2)", "VAR(A2,A4,A3)", "COMBIN(A4,2)", "DOLLAR(A5)", "DOLLAR(A5,-2)",
        "COMBIN(A1,1)", "VAR(A2,A4,A1)", "DEVSQ(A3,A1)"])])
    # AND: TRUE; a number in a reference is TRUE when not 0; no logical value left:
    # #VALUE! (the page). PRODUCT's example 5*15*30 = 2250, *2 = 4500. VAR of one number:
    # #DIV/0!; of 5 and 8 (the text ignored): 4.5. COMBIN(8,2) = 28. DOLLAR: $1,234.57
    # and ($1,200) for -2 places (the page's examples)
    assert res["S!B1"] is True and res["S!B2"] is True
    assert str(res["S!B3"]).startswith("#VALUE!")
    assert (res["S!B4"], res["S!B5"]) == (2250, 4500)
    assert str(res["S!B6"]).startswith("#DIV/0!") and res["S!B7"] == 4.5
    assert res["S!B8"] == 28 and res["S!B9"] == "$1,234.57" and res["S!B10"] == "$1,200"
    assert list(kept) == ["S!B11"] and "logical value" in kept["S!B11"]
    # VAR's and DEVSQ's pages: a logical value or text in a reference is ignored; DEVSQ of
    # no number is #NUM! (Excel saved it so: FormulaEvalTestData_Copy.xlsx, H392)
    assert res["S!B12"] == 4.5 and str(res["S!B13"]).startswith("#NUM!")


def test_average_given_an_error_value(tmp_path):
    cells = [c("A1", None, 5), c("A2", None, "#N/A", t="e"), c("A3", None, "#DIV/0!", t="e")]
    res, kept = _calc(tmp_path, [*cells, *_formulas("B", [
        "AVERAGE(A1:A2)", "AVERAGE(A1,A3,A3)", "AVERAGE(A1:A3)"])])
    # the page: error values cause errors; one error value: it is the result
    assert str(res["S!B1"]).startswith("#N/A") and str(res["S!B2"]).startswith("#DIV/0!")
    assert list(kept) == ["S!B3"] and "different error values" in kept["S!B3"]


def test_find_of_an_empty_text_past_within_text_is_refused(tmp_path):
    # Microsoft Support, "FIND, FINDB functions": an empty find_text "matches the first
    # character in the search string (that is, the character numbered start_num or 1)",
    # and a start_num "greater than the length of within_text" is #VALUE!. Within the
    # text the two agree: FIND("","abc",3) is 3, FIND("","abc") 1; past it they do not
    # (FIND("","",1): formulas 1, LibreOffice #VALUE!): refused, Excel's value kept.
    res, kept = _calc(tmp_path, [
        c("A1", None, "abc", t="inlineStr"),
        c("B1", 'FIND("",A1,3)', 3), c("B2", 'FIND("",A1)', 1),
        c("B3", 'FIND("b",A1)', 2),  # the page: the position of the first match
        c("B4", 'FIND("","",1)', 1), c("B5", 'FIND("",A1,4)', 4)])
    assert (res["S!B1"], res["S!B2"], res["S!B3"]) == (3, 1, 2)
    assert set(kept) == {"S!B4", "S!B5"}
    assert all("empty find_text" in why for why in kept.values())
