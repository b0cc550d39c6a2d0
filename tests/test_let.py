"""Excel 365's LET, each name written out as its value's expression
(``addin.formula.let_names``): Microsoft's page's example, values worked by hand, a
dynamic array formula Excel saved in the fourth held-out part, the two wrong values
an earlier reading gave (text reaching ROUND, a range bound to a name), and the forms
refused. LibreOffice 7.4 (Debian's) has no LET (it came in 24.8): no differential.

Microsoft Support, "LET function" (https://support.microsoft.com/en-us/office/
let-function-34842dd8-b92b-4d3f-b325-b8b8f9908999)."""

from __future__ import annotations

import re

import pytest
import xlsx_make
from sheet_calc import calc_sheet
from test_excel_dynamic import spill, spilled, write

from addin.engine.api import calc_workbook
from addin.formula import let_names
from addin.formula.let_names import LetRefused, expand
from addin.ooxml.guard import WorkbookError

cell = xlsx_make.cell


def _refused(tmp_path, cells: list[str], says: str, at: str = "S!A1") -> None:
    """The cell ``at`` is not computed (Excel's value kept) for the reason ``says``; in
    strict mode without keeping cells (``calc_workbook`` not given ``kept``), the
    workbook is refused saying so."""
    _, kept = calc_sheet(tmp_path, cells)
    assert says in kept[at]
    src = xlsx_make.write(tmp_path / "whole.xlsx", {"S": cells})
    with pytest.raises(WorkbookError, match=re.escape(says) + ".*" + re.escape(at)):
        calc_workbook(src, tmp_path / "whole-out.xlsx", {})


def test_names_written_out_in_order_with_shadowing():
    assert expand("=_xlfn.LET(_xlpm.x,5,SUM(_xlpm.x,1))") == "=(SUM((5),1))"
    # each value may use the names before it (the page: "calculation_or_name2")
    assert expand("_xlfn.LET(_xlpm.a,2,_xlpm.b,_xlpm.a*3,_xlpm.b+_xlpm.A)") == \
        "(((2)*3)+(2))"  # (names are not case-sensitive, as the Name Manager's)
    # a nested LET binds x again inside itself only; its value reads the outer x
    assert expand("_xlfn.LET(_xlpm.x,1,_xlfn.LET(_xlpm.x,_xlpm.x+1,_xlpm.x)*10+_xlpm.x)") \
        == "((((1)+1))*10+(1))"
    # names in strings and quoted sheet names are text, not names
    assert expand("_xlfn.LET(_xlpm.x,'a,b'!A1,\"_xlpm.x\"&_xlpm.x)") == \
        "(\"_xlpm.x\"&('a,b'!A1))"
    assert expand("SUM(A1:A3)") == "SUM(A1:A3)"


@pytest.mark.parametrize(("text", "says"), [
    ("_xlfn.LET(_xlpm.x,1)", "LET() with 2 arguments"),
    ("_xlfn.LET(_xlpm.x,1,_xlpm.y,2)", "LET() with 4 arguments"),
    ("_xlfn.LET(_xlpm.x,1,_xlpm.x,2,_xlpm.x)", "binding the name x twice"),
    ("_xlfn.LET(_xlpm.A1,1,_xlpm.A1)", "not a name Excel's LET accepts"),
    ("_xlfn.LET(_xlpm.c,1,_xlpm.c)", "not a name Excel's LET accepts"),  # the page: R1C1
    ("_xlfn.LET(_xlpm.a.b,1,_xlpm.a.b)", "not a name Excel's LET accepts"),
    ("_xlfn.LET(x,1,x)", "not a name Excel's LET accepts"),
    ("_xlfn.LET(_xlpm.x,,_xlpm.x)", "no value for the name x"),
    ("_xlfn.LET(_xlpm.x,1,_xlpm.y)", "the name y used outside"),
    ("_xlfn.LET(_xlpm.f,_xlfn.LAMBDA(_xlpm.a,_xlpm.a+1),_xlpm.f(1))", "calls LAMBDA"),
    ("_xlfn.LET(_xlpm.x,1,_xlpm.x", "parentheses are not closed"),
])
def test_forms_refused(text, says):
    with pytest.raises(LetRefused, match=re.escape(says)):
        expand(text)


def test_in_a_one_cell_formula_only_what_is_one_value():
    # constants, one-cell references (XFD1048576 the last), operators, IF of such
    assert expand("_xlfn.LET(_xlpm.x,IF(A1=0,\"\",Sheet1!B2),_xlpm.x&1%)", one_cell=True) \
        == "((IF(A1=0,\"\",Sheet1!B2))&1%)"
    assert expand("_xlfn.LET(_xlpm.x,XFD1048576,_xlpm.x)", one_cell=True) == "((XFD1048576))"
    # ZZZ1 is past XFD: a defined name, which may be a range; so are OFFSET's, A1:A3...
    for value in ("ZZZ1", "Rate", "OFFSET(A1,1,1)", "A1:A3", "{1,2}", "_xlfn.SEQUENCE(2)"):
        with pytest.raises(LetRefused, match="may be a reference of many cells"):
            expand(f"_xlfn.LET(_xlpm.x,{value},_xlpm.x)", one_cell=True)
        assert expand(f"_xlfn.LET(_xlpm.x,{value},_xlpm.x)") == f"(({value}))"


def test_at_most_126_names_and_the_longest_formula():
    pairs = ",".join(f"_xlpm.n_{i},{i}" for i in range(127))
    with pytest.raises(LetRefused, match="127 names, past Excel's 126"):
        expand(f"_xlfn.LET({pairs},1)")
    assert expand(f"_xlfn.LET({pairs.rsplit(',_xlpm.n_126', 1)[0]},_xlpm.n_125)") == "((125))"
    # each name used twice by the next: 2^40 copies, refused long before it is written
    doubling = ",".join(f"_xlpm.n_{i},_xlpm.n_{i - 1}+_xlpm.n_{i - 1}" for i in range(1, 41))
    with pytest.raises(LetRefused, match="past 8,192 characters"):
        expand(f"_xlfn.LET(_xlpm.n_0,1,{doubling},_xlpm.n_40)")


def test_the_pages_example_and_values_worked_by_hand(tmp_path):
    res, kept = calc_sheet(tmp_path, [
        cell("A1", "_xlfn.LET(_xlpm.x,5,SUM(_xlpm.x,1))", 0),  # the page's example 1: 6
        cell("B4", None, 4), cell("B5", None, 5), cell("B6", None, 3),
        # x = 4*5 = 20, y = 3/2 = 1.5: 21.5
        cell("A2", "_xlfn.LET(_xlpm.x,B4*B5,_xlpm.y,B6/2,_xlpm.x+_xlpm.y)", 0),
        # inner x = 1+1 = 2, outer x = 1: 2*10+1 = 21
        cell("A3", "_xlfn.LET(_xlpm.x,1,_xlfn.LET(_xlpm.x,_xlpm.x+1,_xlpm.x)*10+_xlpm.x)", 0),
        # a name bound and not used: its value is not the result (1/0 unused): 7
        cell("A4", "_xlfn.LET(_xlpm.x,1/0,7)", 0),
        # the result is the error where the name carrying it is used: #DIV/0!
        cell("A5", "_xlfn.LET(_xlpm.x,1/0,_xlpm.x+1)", 0),
    ])
    assert kept == {}
    assert res["S!A1"] == 6
    assert res["S!A2"] == 21.5
    assert res["S!A3"] == 21
    assert res["S!A4"] == 7
    assert str(res["S!A5"]) == "#DIV/0!"


def test_text_bound_to_a_name_reaches_round_and_is_refused(tmp_path):
    # formulas' own LET computed 3 here: ROUND given text that looks like a number is a
    # form napkin has not checked, through the name as written plainly
    _refused(tmp_path, [cell("A1", '_xlfn.LET(_xlpm.x,"3",ROUND(_xlpm.x,0))', 0)],
             "ROUND() given text that looks like a number")
    _refused(tmp_path, [cell("A1", 'ROUND("3",0)', 0)],
             "ROUND() given text that looks like a number")


def test_a_range_bound_to_a_name_spills_whole(tmp_path):
    # formulas' own LET gave 2*A1 = 2 (its first cell); Excel 365 spills {2;4;6}: x is
    # A1:A3 (the page: a name holds "ranges"), times 2 element by element
    data = [cell("A1", None, 1), cell("A2", None, 2), cell("A3", None, 3)]
    _, got = spilled(tmp_path, data, {
        "B1": ("_xlfn.LET(_xlpm.x,A1:A3,_xlpm.x*2)", [[2], [4], [6]]),
        # ROWS of the name: a reference of three rows, 3; SUM of it 1+2+3 = 6
        "C1": ("_xlfn.LET(_xlpm.x,A1:A3,ROWS(_xlpm.x)+SUM(_xlpm.x))", [[9]]),
    })
    assert got == {"B1": [[2], [4], [6]], "C1": [[9]]}


def test_a_range_bound_in_a_one_cell_formula_is_refused(tmp_path):
    # no array formula: which of the range's values Excel takes through the name
    # (implicit intersection inside LET) is not documented
    data = [cell("A1", None, 1), cell("A2", None, 2), cell("A3", None, 3)]
    _refused(tmp_path, [*data, cell("B1", "_xlfn.LET(_xlpm.x,A1:A3,_xlpm.x*2)", 2)],
             "LET() binding the name x to A1:A3", "S!B1")
    _refused(tmp_path, [*data, cell("B1", "_xlfn.LET(_xlpm.x,OFFSET(A1,0,0,3),1)", 1)],
             "LET() binding the name x to OFFSET(A1,0,0,3)", "S!B1")
    # a range read by the calculation: where Excel intersects it inside LET (or in a
    # function around the LET) is not documented either
    _refused(tmp_path, [*data, cell("B1", "_xlfn.LET(_xlpm.x,2,A1:A3*_xlpm.x)", 2)],
             "LET() whose calculation A1:A3*(2)", "S!B1")
    _refused(tmp_path, [*data, cell("B1", "SUMPRODUCT(_xlfn.LET(_xlpm.x,2,A1:A3*_xlpm.x))",
                                    12)], "LET() whose calculation A1:A3*(2)", "S!B1")
    res, _ = calc_sheet(tmp_path, [*data, cell("B1", "_xlfn.LET(_xlpm.x,A2*2,_xlpm.x+1)", 5)])
    assert res["S!B1"] == 5  # one cell's value: 2*2+1


def test_a_lambda_bound_by_let_stays_refused(tmp_path):
    # (a LAMBDA called where it is written is: addin.formula.lambda_calls, test_lambda.py)
    _refused(tmp_path, [cell("A1", "_xlfn.LET(_xlpm.f,_xlfn.LAMBDA(_xlpm.a,_xlpm.a+1),"
                                   "_xlpm.f(1))", 2)], "LET() given a LAMBDA")


def test_a_name_is_one_node_of_the_graph():
    # formulas makes one node of each distinct expression: the copies of x are one call
    from addin.formula import fx

    parsed = fx.parse(expand("=_xlfn.LET(_xlpm.x,SQRT(A1),_xlpm.x+_xlpm.x*_xlpm.x)"), "A2")
    calls = [k for k, n in parsed.cell.builder.dsp.nodes.items()
             if n["type"] == "function" and str(k).upper().startswith("SQRT")]
    assert len(calls) == 1


def test_dcf_models_stub_cash_flow_as_excel_saved_it(tmp_path):
    # owyongamelia/super-dcf-model, Template.xlsx (the fourth held-out part), sheet3
    # D224:R224 as Excel 365 saved it; its inputs D10:R10, D100:R100 and D222:R222 (spills
    # of formulas napkin refuses: STOCKHISTORY, MAP with LAMBDA) given as array constants
    # holding the values Excel saved in them. x = D100# * (1 - D10#); "" where D222# is ""
    cols = [chr(c) for c in range(ord("D"), ord("R") + 1)]
    d10 = [1, 1, 1, 1, 1] + [0] * 10
    d100 = [72676.641600000003, 92731.782999999996, 111728.20600000001,
            100064.8928, 108604.26559999998, 112393.25015999997, 129004.77508999992,
            137406.24933999998, 165338.24749999994, 184869.63249999995, 194359.69999999998,
            211925.44999999998, 222079.97764742674, 232721.06522308459, 243872.02652077877]
    d222 = ["", "", "", "", 45875, 45902.5, 46112.5, 46477.5, 46843, 47208.5, 47573.5,
            47938.5, 48304, 48669.5, 49034.5]
    saved = ["", "", "", "", 0, *d100[5:]]  # Excel's D224:R224

    def const(values):
        return "{" + ",".join(f'"{v}"' if isinstance(v, str) else repr(v)
                              for v in values) + "}"

    cells = []
    for row, values in ((10, d10), (100, d100), (222, d222)):
        cells += spill(f"D{row}", f"D{row}:R{row}", const(values), [values])
    formula = ("IFERROR(_xlfn.LET(_xlpm.x,_xlfn.ANCHORARRAY(D100)*(1-_xlfn.ANCHORARRAY(D10)),"
               "IF(_xlfn.ANCHORARRAY(D222)=\"\",\"\",_xlpm.x)),1)")
    cells += spill("D224", "D224:R224", formula, [[0] * 15])
    res = calc_workbook(write(tmp_path / "in.xlsx", cells), tmp_path / "out.xlsx", {})
    got = [res[f"S!{c}224"] for c in cols]
    assert got[:5] == saved[:5]
    assert got[5:] == pytest.approx(saved[5:], rel=1e-15)


def test_the_module_cites_the_page():
    assert "let-function-34842dd8" in let_names.__doc__
