"""Excel 365's LAMBDA called, each call written out as a LET of its parameters
(``addin.formula.lambda_calls``, then ``addin.formula.let_names``): the page's example and
errors, values worked by hand, the named LAMBDAs of the Option Pricing Model Excel saved
(``calebjgartner/Financial-Modeling-Projects``, in the pool of mirrored files) with the
values Excel saved, and the forms refused. LibreOffice 7.4 (Debian's) has no LAMBDA
(it came in 24.8): no differential.

Microsoft Support, "LAMBDA function" (https://support.microsoft.com/en-us/office/
lambda-function-bd212d27-1cd1-4321-a34a-ccbf254b8b67)."""

from __future__ import annotations

import math
import re
from zipfile import ZIP_DEFLATED, ZipFile

import pytest
import xlsx_make
from sheet_calc import calc_sheet, text
from test_excel_dynamic import METADATA, spill, spilled

from addin.engine.api import calc_workbook
from addin.formula import lambda_calls
from addin.formula.lambda_calls import LambdaRefused, expand, named_lambda
from addin.ooxml.guard import WorkbookError

cell = xlsx_make.cell

#: the named LAMBDAs of "Option Pricing Model (BlackScholes).xlsx" as Excel saved them
#: in xl/workbook.xml (calebjgartner/Financial-Modeling-Projects)
OPTION_NAMES = {
    "CallPrice": "_xlfn.LAMBDA(_xlpm.S,_xlpm.K,_xlpm.T,_xlpm.r,_xlpm.sigma,_xlpm.q, _xlpm.S "
    "* EXP(-_xlpm.q * _xlpm.T) * _xlfn.NORM.S.DIST((LN(_xlpm.S / _xlpm.K) + (_xlpm.r - "
    "_xlpm.q + (_xlpm.sigma^2) / 2) * _xlpm.T) / (_xlpm.sigma * SQRT(_xlpm.T)), TRUE) - "
    "_xlpm.K * EXP(-_xlpm.r * _xlpm.T) * _xlfn.NORM.S.DIST(((LN(_xlpm.S / _xlpm.K) + "
    "(_xlpm.r - _xlpm.q + (_xlpm.sigma^2) / 2) * _xlpm.T) / (_xlpm.sigma * SQRT(_xlpm.T)))"
    " - _xlpm.sigma * SQRT(_xlpm.T), TRUE))",
    "PutPrice": "_xlfn.LAMBDA(_xlpm.spot1,_xlpm.strike1,_xlpm.expiry1,_xlpm.riskfree1,"
    "_xlpm.volatility1,_xlpm.divyld1,-_xlpm.spot1*EXP(-_xlpm.divyld1*_xlpm.expiry1)*"
    "_xlfn.NORM.S.DIST(-(LN(_xlpm.spot1/_xlpm.strike1)+(_xlpm.riskfree1-_xlpm.divyld1+"
    "(_xlpm.volatility1^2)/2)*_xlpm.expiry1)/(_xlpm.volatility1*SQRT(_xlpm.expiry1)),TRUE)"
    "+_xlpm.strike1*EXP(-_xlpm.riskfree1*_xlpm.expiry1)*_xlfn.NORM.S.DIST(-((LN(_xlpm.spot1"
    "/_xlpm.strike1)+(_xlpm.riskfree1-_xlpm.divyld1+(_xlpm.volatility1^2)/2)*_xlpm.expiry1)"
    "/(_xlpm.volatility1*SQRT(_xlpm.expiry1))-(_xlpm.volatility1*SQRT(_xlpm.expiry1))),"
    "TRUE))",
    "CallDelta": "_xlfn.LAMBDA(_xlpm.spot,_xlpm.strike,_xlpm.time,_xlpm.interest,"
    "_xlpm.implied,_xlpm.divyld,+EXP(-_xlpm.divyld*_xlpm.time)*_xlfn.NORM.S.DIST((LN("
    "_xlpm.spot/_xlpm.strike)+_xlpm.time*(_xlpm.interest-_xlpm.divyld+(_xlpm.implied^2/2)))"
    "/(_xlpm.implied*SQRT(_xlpm.time)),TRUE))",
    "PutDelta": "_xlfn.LAMBDA(_xlpm.spot,_xlpm.strike,_xlpm.time,_xlpm.interest,"
    "_xlpm.implied,_xlpm.divyld,+EXP(-_xlpm.divyld*_xlpm.time)*(-1+_xlfn.NORM.S.DIST((LN("
    "_xlpm.spot/_xlpm.strike)+_xlpm.time*(_xlpm.interest-_xlpm.divyld+(_xlpm.implied^2/2)))"
    "/(_xlpm.implied*SQRT(_xlpm.time)),TRUE)))",
    "CallPayout": "_xlfn.LAMBDA(_xlpm.spot,_xlpm.strike,MAX(0,_xlpm.spot-_xlpm.strike))",
    "PutPayout": "_xlfn.LAMBDA(_xlpm.spot,_xlpm.strike,MAX(0,_xlpm.strike-_xlpm.spot))",
    "Payout": "_xlfn.LAMBDA(_xlpm.type,_xlpm.spot,_xlpm.strike,_xlfn.IFS(_xlpm.type=\"Call\","
    "CallPayout(_xlpm.spot,_xlpm.strike),_xlpm.type=\"Put\",PutPayout(_xlpm.spot,"
    "_xlpm.strike),_xlpm.type=\"Spot\",(_xlpm.spot-_xlpm.strike)))",
}


def _book(tmp_path, cells: list[str], names: dict, kept: list | None = None):
    """Napkin's values of a one-sheet workbook ``S`` of ``cells`` with the defined names
    ``names`` (Excel's ``xl/metadata.xml`` added, for dynamic array formulas)."""
    path = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells}, names=names)
    with ZipFile(path, "a", ZIP_DEFLATED) as z:
        z.writestr("xl/metadata.xml", METADATA)
    return calc_workbook(path, tmp_path / "out.xlsx", {}, kept=kept)


def _n(x: float) -> float:
    """The standard normal distribution function, from math.erf: N(x) = (1+erf(x/√2))/2."""
    return (1 + math.erf(x / math.sqrt(2))) / 2


def test_the_pages_example_and_calls_worked_by_hand(tmp_path):
    res, kept = calc_sheet(tmp_path, [
        cell("A1", "_xlfn.LAMBDA(_xlpm.number,_xlpm.number+1)(1)", 0),  # the page: 2
        # Fahrenheit to Celsius (the kind of LAMBDA the page names), by hand (5/9)*72 = 40
        cell("A10", "_xlfn.LAMBDA(_xlpm.temp,(5/9)*(_xlpm.temp-32))(104)", 0),
        cell("B1", None, 4), cell("B2", None, 5),
        # x = 4, y = 5: 4*10+5 = 45
        cell("A2", "_xlfn.LAMBDA(_xlpm.x,_xlpm.y,_xlpm.x*10+_xlpm.y)(B1,B2)", 0),
        # LAMBDA(x,y,x+y)(5,x) inside LET(x,1,...): y is the caller's x, 1: 5+1 = 6 (a
        # LET binding x then y in order would give 5+5 = 10)
        cell("A3", "_xlfn.LET(_xlpm.x,1,_xlfn.LAMBDA(_xlpm.x,_xlpm.y,_xlpm.x+_xlpm.y)"
                   "(5,_xlpm.x))", 0),
        # no parameter: the calculation, 7
        cell("A4", "_xlfn.LAMBDA(7)()", 0),
        # the page: an incorrect number of arguments is #VALUE!
        cell("A5", "_xlfn.LAMBDA(_xlpm.x,_xlpm.x+1)(1,2)", 0),
        cell("A6", "_xlfn.LAMBDA(_xlpm.x,_xlpm.y,_xlpm.x+_xlpm.y)(1)", 0),
        # a parameter's error where it is used: #DIV/0!; unused: 3
        cell("A7", "_xlfn.LAMBDA(_xlpm.x,_xlpm.x+1)(1/0)", 0),
        cell("A8", "_xlfn.LAMBDA(_xlpm.x,3)(1/0)", 0),
        # "_xlpm.x" in a string is text: "_xlpm.x" & 2
        text("B3", "t"),
        cell("A9", '_xlfn.LAMBDA(_xlpm.x,"_xlpm.x"&_xlpm.x)(2)', "", t="str"),
    ])
    assert kept == {}
    assert res["S!A1"] == 2
    assert res["S!A10"] == pytest.approx(40, rel=1e-15)
    assert res["S!A2"] == 45
    assert res["S!A3"] == 6
    assert res["S!A4"] == 7
    assert str(res["S!A5"]) == "#VALUE!"
    assert str(res["S!A6"]) == "#VALUE!"
    assert str(res["S!A7"]) == "#DIV/0!"
    assert res["S!A8"] == 3
    assert res["S!A9"] == "_xlpm.x2"


def test_option_pricing_model_as_excel_saved_it(tmp_path):
    # "Option Pricing Model (BlackScholes).xlsx", sheet Formulas: B11 strike 100, B12 spot
    # 100, B13 expiry 1, B14 risk-free 0.05, B15 dividend yield 0.05, B16 volatility 0.2;
    # C11:C14 as Excel saved them (dynamic array formulas of one cell), their values
    inputs = [cell("B11", None, 100), cell("B12", None, 100), cell("B13", None, 1),
              cell("B14", None, 0.05), cell("B15", None, 0.05), cell("B16", None, 0.2)]
    args = "(B12,B11,B13,B14,B16,B15)"
    saved = {"C11": ("CallPrice", 7.5770821464272728), "C12": ("PutPrice", 7.5770821464272728),
             "C13": ("CallDelta", 0.51350012298249337),
             "C14": ("PutDelta", -0.43772930151822065)}
    cells = list(inputs)
    for at, (name, _) in saved.items():
        cells += spill(at, at, name + args, [[0]])
    res = _book(tmp_path, sorted(cells, key=lambda c: (int(c.split('"')[1][1:]), c)),
                OPTION_NAMES)
    for at, (_, value) in saved.items():
        assert res[f"S!{at}"] == pytest.approx(value, rel=1e-14), at
    # by hand: d1 = (ln(S/K) + (r - q + σ²/2)T)/(σ√T) = (0 + 0.02)/0.2 = 0.1, d2 = -0.1;
    # call = S e^(-qT) N(d1) - K e^(-rT) N(d2) = 100 e^-0.05 (N(0.1) - N(-0.1)); with
    # q = r, put-call parity gives put = call; call delta = e^-0.05 N(0.1)
    call = 100 * math.exp(-0.05) * (_n(0.1) - _n(-0.1))
    assert res["S!C11"] == pytest.approx(call, rel=1e-12)
    assert res["S!C12"] == pytest.approx(call, rel=1e-12)
    assert res["S!C13"] == pytest.approx(math.exp(-0.05) * _n(0.1), rel=1e-12)
    assert res["S!C14"] == pytest.approx(math.exp(-0.05) * (_n(0.1) - 1), rel=1e-12)


def test_named_lambdas_calling_named_lambdas(tmp_path):
    # Payout (IFS over CallPayout, PutPayout, spot - strike), in cells not saved as array
    # formulas, each argument one cell or a constant: by hand, call max(0,110-100) = 10,
    # put max(0,100-110) = 0, spot 110-100 = 10, put at 90: 10; "Other": IFS #N/A
    path = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        text("A1", "Call"), text("A2", "Put"), text("A3", "Spot"), text("A4", "Other"),
        cell("B1", None, 110),
        cell("C1", "Payout(A1,B1,100)", 0), cell("C2", "Payout(A2,B1,100)", 0),
        cell("C3", "Payout(A3,B1,100)", 0), cell("C4", 'Payout("Put",90,100)', 0),
        cell("C5", "Payout(A4,B1,100)", 0), cell("C6", "2*CallPayout(B1,100)+1", 0),
    ]}, names=OPTION_NAMES)
    kept = []
    res = calc_workbook(path, tmp_path / "out.xlsx", {}, kept=kept)
    assert kept == []
    assert [res[f"S!C{i}"] for i in range(1, 5)] == [10, 0, 10, 10]
    assert str(res["S!C5"]).startswith("#N/A")
    assert res["S!C6"] == 21


def test_a_range_passed_spills_whole_and_is_refused_in_one_cell(tmp_path):
    data = [cell("A1", None, 1), cell("A2", None, 2), cell("A3", None, 3)]
    _, got = spilled(tmp_path, data, {
        "B1": ("_xlfn.LAMBDA(_xlpm.x,_xlpm.x*2)(A1:A3)", [[2], [4], [6]]),
        # ROWS of the parameter: a reference of three rows, 3; SUM 1+2+3 = 6: 9
        "C1": ("_xlfn.LAMBDA(_xlpm.x,ROWS(_xlpm.x)+SUM(_xlpm.x))(A1:A3)", [[9]]),
    })
    assert got == {"B1": [[2], [4], [6]], "C1": [[9]]}
    _refused(tmp_path, [*data, cell("B1", "_xlfn.LAMBDA(_xlpm.x,SUM(_xlpm.x))(A1:A3)", 6)],
             "LAMBDA() given A1:A3 for x", "S!B1")


def test_text_passed_to_round_is_refused(tmp_path):
    # the check of forms sees what reaches ROUND through the parameter, as through LET
    _refused(tmp_path, [cell("A1", '_xlfn.LAMBDA(_xlpm.x,ROUND(_xlpm.x,0))("3")', 3)],
             "ROUND() given text that looks like a number")


def _refused(tmp_path, cells: list[str], says: str, at: str = "S!A1",
             names: dict | None = None) -> None:
    """The cell ``at``, read by no formula, is kept for the reason ``says``; read by
    another formula, the workbook is refused saying so."""
    kept: list = []
    _book(tmp_path, cells, names or {}, kept)
    assert says in {k.label: k.reason for k in kept}[at]
    reader = cell("Z1", f"{at.split('!')[1]}+0", 0)
    with pytest.raises(WorkbookError, match=re.escape(says) + ".*" + re.escape(at)):
        _book(tmp_path, [*cells, reader], names or {})


@pytest.mark.parametrize(("formula", "names", "says"), [
    ("_xlfn.LAMBDA(_xlpm.x,_xlpm.x+1)", {}, "Excel gives #CALC!"),  # the page
    ("_xlfn.BYROW(B1:C2,_xlfn.LAMBDA(_xlpm.r,SUM(_xlpm.r)))", {}, "BYROW() given a LAMBDA"),
    ("_xlfn.MAP(B1:B2,_xlfn.LAMBDA(_xlpm.v,_xlpm.v*2))", {}, "MAP() given a LAMBDA"),
    ("_xlfn.SCAN(0,B1:B2,_xlfn.LAMBDA(_xlpm.a,_xlpm.b,_xlpm.a+_xlpm.b))", {},
     "SCAN() given a LAMBDA"),
    ("_xlfn.REDUCE(0,B1:B2,_xlfn.LAMBDA(_xlpm.a,_xlpm.b,_xlpm.a+_xlpm.b))", {},
     "REDUCE() given a LAMBDA"),
    ("_xlfn.BYCOL(B1:C2,_xlfn.LAMBDA(_xlpm.c,SUM(_xlpm.c)))", {}, "BYCOL() given a LAMBDA"),
    ("_xlfn.MAKEARRAY(2,2,_xlfn.LAMBDA(_xlpm.i,_xlpm.j,_xlpm.i*_xlpm.j))", {},
     "MAKEARRAY() given a LAMBDA"),
    ("_xlfn.LET(_xlpm.f,_xlfn.LAMBDA(_xlpm.a,_xlpm.a+1),_xlpm.f(1))", {},
     "LET() given a LAMBDA"),
    ("1+Inc", {"Inc": "_xlfn.LAMBDA(_xlpm.a,_xlpm.a+1)"}, "the named LAMBDA Inc not called"),
    ("Fact(3)", {"Fact": "_xlfn.LAMBDA(_xlpm.n,IF(_xlpm.n<2,1,_xlpm.n*Fact(_xlpm.n-1)))"},
     "calling itself"),
    ("Twice(1,)", {"Twice": "_xlfn.LAMBDA(_xlpm.a,_xlpm.b,_xlpm.a*2)"}, "left empty"),
    ("AddRate(1)", {"AddRate": "_xlfn.LAMBDA(_xlpm.a,_xlpm.a+Rate)", "Rate": "S!$B$1"},
     "a named LAMBDA whose calculation reads 'Rate'"),
    ("AddB1(1)", {"AddB1": "_xlfn.LAMBDA(_xlpm.a,_xlpm.a+B1)"}, "reads 'B1'"),
    ("AddB1(1)", {"AddB1": "_xlfn.LAMBDA(_xlpm.a,_xlpm.a+S!B1)"}, "reads 'S!B1'"),
    ("Here(1)", {"Here": "_xlfn.LAMBDA(_xlpm.a,_xlpm.a+ROW())"}, "ROW() or COLUMN()"),
    ("Inc(1)", {("Inc", 0): "_xlfn.LAMBDA(_xlpm.a,_xlpm.a+1)"}, "for one sheet only"),
    ("Inc(1)", {"Inc": "_xlfn.LAMBDA(_xlpm.a,_xlfn.LET(_xlpm.b,1,_xlpm.a+_xlpm.b))"},
     "holds LET or LAMBDA"),
    ("_xlfn.LAMBDA(_xlpm.A1,_xlpm.A1)(1)", {}, "not a name Excel accepts"),
    ("_xlfn.LAMBDA(_xlpm.x,_xlop.y,_xlpm.x)(1)", {}, "the optional parameter [y]"),
    ("_xlfn.LAMBDA(_xlpm.x,_xlpm.X,1)(1,2)", {}, "the parameter X twice"),
])
def test_forms_refused(tmp_path, formula, names, says):
    _refused(tmp_path, [cell("B1", None, 1), cell("C1", None, 2), cell("B2", None, 3),
                        cell("C2", None, 4), cell("A1", formula, 0)], says, names=names)


def test_named_lambda_read():
    lam = named_lambda("CallPayout", OPTION_NAMES["CallPayout"])
    assert lam.parameters == ("spot", "strike") and lam.refused is None
    assert lam.calculation == "MAX(0,_xlpm.spot-_xlpm.strike)"
    # r is a parameter Excel saves (CallPrice), though LET refuses it (R1C1)
    assert named_lambda("CallPrice", OPTION_NAMES["CallPrice"]).parameters[3] == "r"
    assert named_lambda("Rate", "S!$B$1") is None
    assert named_lambda("AddB1", "_xlfn.LAMBDA(_xlpm.a,_xlpm.a+S!$B$1)").refused is None
    assert named_lambda("Odd", "_xlfn.LAMBDA(_xlpm.x,_xlpm.x)(1)") is None  # (a value)


def test_expand_writes_a_let_of_fresh_names():
    calls = {"INC": named_lambda("Inc", "_xlfn.LAMBDA(_xlpm.a,_xlpm.a+1)")}
    assert expand("=Inc(B1)*2", calls) == \
        "=_xlfn.LET(_xlpm.napkinlambda1_a,(B1),_xlpm.napkinlambda1_a+1)*2"
    assert expand("=SUM(B1)", calls) == "=SUM(B1)"
    assert expand('="Inc(1)"', calls) == '="Inc(1)"'
    with pytest.raises(LambdaRefused, match="napkin's own"):
        expand("=_xlfn.LET(_xlpm.napkinlambda1_a,1,Inc(_xlpm.napkinlambda1_a))", calls)


def test_named_lambdas_doubling_are_refused_long_before_written():
    # F0(x) = x + 1; F<n>(x) = F<n-1>(x) + F<n-1>(x): 2^30 copies of F0's calculation
    calls = {"F0": named_lambda("F0", "_xlfn.LAMBDA(_xlpm.x,_xlpm.x+1)")}
    for n in range(1, 31):
        calls[f"F{n}"] = named_lambda(f"F{n}", f"_xlfn.LAMBDA(_xlpm.x,F{n - 1}(_xlpm.x)+"
                                               f"F{n - 1}(_xlpm.x))")
    with pytest.raises(LambdaRefused, match="past 8,192 characters"):
        expand("=F30(1)", calls)


def test_the_module_cites_the_page():
    assert "lambda-function-bd212d27" in lambda_calls.__doc__


def test_byrow_and_bycol_summing_each_row_worked_by_hand(tmp_path):
    # A1:C2 = 1 2 3 / 4 5 6 (the page's layout: data in A1:C2, the formula in D4)
    data = [cell(f"{c}{r}", None, (r - 1) * 3 + i + 1)
            for r in (1, 2) for i, c in enumerate("ABC")]
    lam = "_xlfn.LAMBDA(_xlpm.array,{}(_xlpm.array))"
    _, got = spilled(tmp_path, data, {
        # sums of rows 1+2+3 = 6, 4+5+6 = 15; of squares 1+4+9 = 14, 16+25+36 = 77
        "D4": (f"_xlfn.BYROW(A1:C2,{lam.format('SUM')})", [[6], [15]]),
        "E4": (f"_xlfn.BYROW(A1:C2,{lam.format('SUMSQ')})", [[14], [77]]),
        # columns: 1+4 = 5, 2+5 = 7, 3+6 = 9
        "F4": (f"_xlfn.BYCOL(A1:C2,{lam.format('SUM')})", [[5, 7, 9]]),
        # a LAMBDA of two parameters: the page's #VALUE!
        "J4": ("_xlfn.BYROW(A1:C2,_xlfn.LAMBDA(_xlpm.a,_xlpm.b,SUM(_xlpm.a)))", [[0]]),
        # the sum used in the calculation: 6*2+1 = 13, 15*2+1 = 31
        "K4": ("_xlfn.BYROW(A1:C2,_xlfn.LAMBDA(_xlpm.r,SUM(_xlpm.r)*2+1))", [[13], [31]]),
    })
    assert got["D4"] == [[6], [15]]
    assert got["E4"] == [[14], [77]]
    assert got["F4"] == [[5, 7, 9]]
    assert str(got["J4"][0][0]) == "#VALUE!"
    assert got["K4"] == [[13], [31]]


def test_byrow_of_a_spill_as_excel_saved_it(tmp_path):
    # calebjgartner/Financial-Modeling-Projects, "Real Estate Private Equity Model.xlsx"
    # (the pool of mirrored files), sheet "Forecast. Monthly Rent": E22 =BYROW(F22#,
    # LAMBDA(array,SUM(array))) spilled into E22:E153, F22# a spill of five columns; its
    # first three rows as Excel saved them (F22:J24 given as an array constant of the
    # values saved there): 93,240 each
    row = [20400, 15840, 20400, 10200, 26400]
    const = "{" + ";".join(",".join(map(str, row)) for _ in range(3)) + "}"
    cells = spill("E22", "E22:E24", "_xlfn.BYROW(_xlfn.ANCHORARRAY(F22),_xlfn.LAMBDA("
                  "_xlpm.array,SUM(_xlpm.array)))", [[0], [0], [0]])
    cells = spill("F22", "F22:J24", const, [row] * 3)[:1] + cells
    by_row = {}
    for c in cells:  # (each row's cells in column order, as Excel writes them)
        ref = c.split('r="', 1)[1].split('"', 1)[0]
        by_row.setdefault(int(ref[1:]), []).append((ref[0], c))
    ordered = [c for r in sorted(by_row) for _, c in sorted(by_row[r])]
    res = _book(tmp_path, ordered, {})
    assert [res[f"S!E{r}"] for r in (22, 23, 24)] == [93240, 93240, 93240]


@pytest.mark.parametrize(("formula", "says"), [
    # the page's example 1, MAX: a row as a range or as an array of its values differ
    # over empty cells (0 or nothing), which the page leaves open
    ("_xlfn.BYROW(B1:C2,_xlfn.LAMBDA(_xlpm.array,MAX(_xlpm.array)))",
     "reads its parameter otherwise than summed"),
    ("_xlfn.BYROW(B1:C2,_xlfn.LAMBDA(_xlpm.r,_xlpm.r*2))", "otherwise than summed"),
    ("_xlfn.BYROW(B1:C2*2,_xlfn.LAMBDA(_xlpm.r,SUM(_xlpm.r)))", "other than a range"),
])
def test_byrow_forms_refused(tmp_path, formula, says):
    cells = [cell("B1", None, 1), cell("C1", None, 2), cell("B2", None, 3),
             cell("C2", None, 4)]
    kept: list = []
    _book(tmp_path, [*spill("A1", "A1:A2", formula, [[0], [0]])[:1], *cells,
                     cell("A2", None, 0)], {}, kept)
    assert says in {k.label: k.reason for k in kept}["S!A1"]


def test_byrow_over_too_many_rows_is_refused():
    with pytest.raises(LambdaRefused, match="over 2,000 rows"):
        lambda_calls.by_rows_and_columns(
            "=_xlfn.BYROW(A1:B2000,_xlfn.LAMBDA(_xlpm.r,SUM(_xlpm.r)))")
    assert lambda_calls.by_rows_and_columns(
        "=_xlfn.BYCOL(S!A1:B2,_xlfn.LAMBDA(_xlpm.c,SUM(_xlpm.c)))") == \
        "=_xlfn.HSTACK(_xlfn.LAMBDA(_xlpm.c,SUM(_xlpm.c))(S!A1:A2)," \
        "_xlfn.LAMBDA(_xlpm.c,SUM(_xlpm.c))(S!B1:B2))"


def test_a_named_lambda_reading_an_absolute_reference(tmp_path):
    # AddB1(a) = a + S!$B$1, S!B1 = 5, called from another sheet's cell: 1 + 5 = 6; its
    # argument a cell of the caller's sheet (T!A1 = 2): 2 + 5 = 7
    path = xlsx_make.write(tmp_path / "in.xlsx", {
        "S": [cell("B1", None, 5)],
        "T": [cell("A1", None, 2), cell("C1", "AddB1(1)", 0), cell("C2", "AddB1(A1)", 0)],
    }, names={"AddB1": "_xlfn.LAMBDA(_xlpm.a,_xlpm.a+S!$B$1)"})
    kept = []
    res = calc_workbook(path, tmp_path / "out.xlsx", {}, kept=kept)
    assert kept == []
    assert (res["T!C1"], res["T!C2"]) == (6, 7)
