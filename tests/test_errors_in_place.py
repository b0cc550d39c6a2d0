"""An error value written in place of an argument, as a deleted sheet or row leaves one
(``SUMIFS(#REF!,#REF!,A4)``, ``VLOOKUP(A1,#REF!,2,0)``), given to every function whose
declaration lists the form "errors" and that is not held to the first-error rule
(``addin.engine.first_error`` checks those on each call), in each argument position in
turn. The form "errors" covers error values inside ranges too, where these functions do
not simply give the error (COUNT leaves them out, the conditional aggregates skip the rows
no criterion matches, the lookups pass over them); this test keeps an error value given in
place of the range from hiding behind it, as it did once (the business corpus's eleventh
part: formulas gave 0 for ``SUMIFS(#REF!,#REF!,A4)``, Excel saved #REF!).

The expected values: the error value given, by [MS-VSDX] 2.2.11.2.2.2.8 ("When a function
encounters a PtgErr as one of its arguments, it returns the same error value"), except
where the function's page says otherwise (each in ``_NOT_THE_ERROR`` with its page). A
call strict mode keeps (Excel's value kept, a refusal) is listed in ``_KEPT``, so that a
change of it is seen.
"""

from __future__ import annotations

import re

import pytest
import sheet_calc
import xlsx_make
from differential import referee

from addin.engine import forms
from addin.engine.api import calc_workbook

c = xlsx_make.cell

#: one call of each function, with arguments of the forms its evidence covers: B1:B4 holds
#: 10, 20, 30, 40 and C1:C4 1, 2, 3, 4; names as Excel saves them (``_xlfn.``)
_CALLS = [
    "ABS(B1)", "ACOSH(B1)", "_xlfn.AGGREGATE(9,6,B1:B4)", "AND(TRUE,B1:B4)", "ASINH(B1)",
    "ATANH(0.5)", "AVERAGE(B1:B4,1)", "AVERAGEIF(B1:B4,\">0\",B1:B4)",
    "AVERAGEIFS(B1:B4,B1:B4,\">0\")", "CEILING(B1,1)", "CHOOSE(1,B1,B2)",
    "_xlfn.CHOOSECOLS(B1:C4,1)", "_xlfn.CHOOSEROWS(B1:B4,1)", "COSH(1)", "COUNT(B1:B4,1)",
    "COUNTA(B1:B4,1)", "COUNTIF(B1:B4,\">0\")", "COUNTIFS(B1:B4,\">0\",C1:C4,\">1\")",
    "_xlfn.DROP(B1:B4,1)", "ERROR.TYPE(B1)", "_xlfn._xlws.FILTER(B1:B4,B1:B4>15)",
    "HLOOKUP(10,B1:C2,1,FALSE)", "_xlfn.HSTACK(B1:B2,B3:B4)", "IF(TRUE,B1,B2)",
    "IFERROR(B1,0)", "_xlfn.IFNA(B1,0)", "INDEX(B1:B4,2)", "INDEX(B1:C4,2,1)", "INT(B1)",
    "ISBLANK(B1)", "ISERR(B1)", "ISERROR(B1)", "ISLOGICAL(B1)", "ISNA(B1)", "ISNONTEXT(B1)",
    "ISNUMBER(B1)", "ISTEXT(B1)", "LOG10(B1)", "LOOKUP(20,B1:B4,C1:C4)",
    "MATCH(20,B1:B4,0)", "MAX(B1:B4,1)", "N(B1)", "OFFSET(B1,1,0)", "REPT(\"a\",2)",
    "ROUND(B1,1)", "_xlfn.SINGLE(B1:B4)", "SINH(1)", "_xlfn.SORTBY(B1:B4,C1:C4)",
    "SUM(B1:B4,1)", "SUMIF(B1:B4,\">0\",C1:C4)", "SUMIFS(C1:C4,B1:B4,\">0\")",
    "SUMPRODUCT(B1:B4,C1:C4)", "_xlfn.TAKE(B1:B4,2)", "TANH(1)", "TRANSPOSE(B1:B4)",
    "TYPE(B1)", "VLOOKUP(20,B1:C4,2,FALSE)", "_xlfn.VSTACK(B1:B2,B3:B4)",
    "_xlfn.XLOOKUP(20,B1:B4,C1:C4)", "_xlfn.XOR(TRUE,B1:B4)",
]

#: (call, argument position) -> the value Excel gives, where it is not the error given
_NOT_THE_ERROR = {
    # IF, CHOOSE: the argument not chosen is not the value ("IF function", "CHOOSE
    # function": the value chosen is returned)
    ("IF(TRUE,B1,B2)", 2): 10, ("CHOOSE(1,B1,B2)", 2): 10,
    # IFERROR returns value_if_error when value is an error, else value ("IFERROR
    # function"); IFNA the same for #N/A only ("IFNA function")
    ("IFERROR(B1,0)", 0): 0, ("IFERROR(B1,0)", 1): 10, ("_xlfn.IFNA(B1,0)", 1): 10,
    # COUNT: "Arguments that are error values ... are not counted" (the 1 only; B1:B4's
    # four numbers); COUNTA counts "cells containing any type of information, including
    # error values" (the error and 1: 2; four cells and the error: 5)
    ("COUNT(B1:B4,1)", 0): 1, ("COUNT(B1:B4,1)", 1): 4,
    ("COUNTA(B1:B4,1)", 0): 2, ("COUNTA(B1:B4,1)", 1): 5,
    # ERROR.TYPE: #REF! is 4; TYPE: an error value is 16 ("ERROR.TYPE function", "TYPE
    # function")
    ("ERROR.TYPE(B1)", 0): 4, ("TYPE(B1)", 0): 16,
    # the IS functions ("IS functions"): ISERR and ISERROR are TRUE for #REF!, ISNA only
    # for #N/A; ISNONTEXT is TRUE for anything not text; the others FALSE
    ("ISBLANK(B1)", 0): False, ("ISERR(B1)", 0): True, ("ISERROR(B1)", 0): True,
    ("ISLOGICAL(B1)", 0): False, ("ISNA(B1)", 0): False, ("ISNONTEXT(B1)", 0): True,
    ("ISNUMBER(B1)", 0): False, ("ISTEXT(B1)", 0): False,
    # an error value as a criterion matches the cells holding it (tests/
    # test_errors_given.py): none of B1:B4, C1:C4 does, so 0 matched; AVERAGEIF(S) over no
    # cell is #DIV/0! ("AVERAGEIF function": "If no cells in the range meet the criteria,
    # AVERAGEIF returns the #DIV/0! error value")
    ("COUNTIF(B1:B4,\">0\")", 1): 0, ("COUNTIFS(B1:B4,\">0\",C1:C4,\">1\")", 1): 0,
    ("COUNTIFS(B1:B4,\">0\",C1:C4,\">1\")", 3): 0, ("SUMIF(B1:B4,\">0\",C1:C4)", 1): 0,
    ("SUMIFS(C1:C4,B1:B4,\">0\")", 2): 0,
    ("AVERAGEIF(B1:B4,\">0\",B1:B4)", 1): "#DIV/0!",
    ("AVERAGEIFS(B1:B4,B1:B4,\">0\")", 2): "#DIV/0!",
}

#: (call, argument position) -> the words of the refusal strict mode gives
_KEPT = {
    ("_xlfn.AGGREGATE(9,6,B1:B4)", 0): "AGGREGATE() given an error value as its function_num",
    ("_xlfn.AGGREGATE(9,6,B1:B4)", 1): "AGGREGATE() given an error value as its options",
    ("_xlfn.AGGREGATE(9,6,B1:B4)", 2): "AGGREGATE() given an array or a value where its "
                                       "reference form reads a reference",
    ("_xlfn._xlws.FILTER(B1:B4,B1:B4>15)", 1): "FILTER's include given an error value",
    ("LOOKUP(20,B1:B4,C1:C4)", 1): "LOOKUP in values of several kinds",
    ("LOOKUP(20,B1:B4,C1:C4)", 2): "LOOKUP with a result_vector shorter than its "
                                   "lookup_vector",
    ("OFFSET(B1,1,0)", 0): "OFFSET() given an error value as its reference",
    ("SUMPRODUCT(B1:B4,C1:C4)", 0): "SUMPRODUCT() given error values of two kinds",
    ("SUMPRODUCT(B1:B4,C1:C4)", 1): "SUMPRODUCT() given error values of two kinds",
}


def _arguments(call: str) -> tuple[str, list[str]]:
    """A call's function name and its arguments' texts (``referee.arguments``)."""
    return call.split("(", 1)[0], referee.arguments(call)


def _cases(error: str) -> list[tuple[str, int, str]]:
    """Every call with ``error`` in place of each argument: (call, position, formula)."""
    cases = []
    for call in _CALLS:
        name, args = _arguments(call)
        for i in range(len(args)):
            given = args[:i] + [error] + args[i + 1:]
            cases.append((call, i, f"{name}({','.join(given)})"))
    return cases


def test_every_function_of_the_form_is_called():
    # a function declared with "errors" and without the first-error rule needs a call here
    listed = forms.listed()
    declared = {n for n, v in listed.items() if "errors" in v[0] and n not in forms.FIRST_ERROR}
    called = {re.sub(r"^(_xlfn\.|_xlws\.)+", "", _arguments(call)[0]) for call in _CALLS}
    assert declared <= called, sorted(declared - called)


@pytest.mark.parametrize("error", ["#REF!", "Deleted!#REF!"])
def test_an_error_value_in_place_of_each_argument(tmp_path, error):
    # Deleted!#REF!: a reference to a deleted sheet's cells as Excel writes it
    cases = _cases(error)
    cells = [c(f"B{r}", None, 10 * r) for r in range(1, 5)] + \
        [c(f"C{r}", None, r) for r in range(1, 5)] + \
        [c(f"E{i}", f, 0) for i, (_, _, f) in enumerate(cases, 1)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    computed = 0
    for i, (call, position, formula) in enumerate(cases, 1):
        label = f"S!E{i}"
        if (call, position) in _KEPT:
            assert _KEPT[call, position] in kept.get(label, ""), formula
            continue
        assert label not in kept, (formula, kept.get(label))
        want = _NOT_THE_ERROR.get((call, position), "#REF!")
        got = res.get(label)
        got = str(got).split(" ", 1)[0] if isinstance(want, str) else got
        assert got == want, formula
        computed += 1
    assert computed == len(cases) - len(_KEPT) > 100


def test_a_union_of_references_given_an_error_value_is_kept(tmp_path):
    # Excel writes a defined name of a deleted sheet's references as "#REF!,#REF!",
    # "IF(COUNTA(#REF!)=0,0,INDEX(#REF!,MATCH(ROW(#REF!),#REF!,TRUE)):#REF!)" or
    # "Budget!#REF!,Budget!$BV$19" (the seen corpora's Real Estate Model.xlsx,
    # Budget_Template.xlsx). formulas gave SUM of such a name #VALUE!; no page says which
    # error Excel gives (LibreOffice: #REF!), so the name is kept and so are the formulas
    # reading it (E1, E2, and E4 reading E1), with the values Excel saved (9, 9, 10); a
    # union of cells (E3: B1 + B2 = 1 + 2) is computed; a name nothing reads is not noted
    names = {"Mixed": "S!#REF!,S!$B$1", "Errs": "#REF!,#REF!", "Fine": "S!$B$1,S!$B$2",
             "Unused": "#REF!,#REF!"}
    formulas = ["SUM(Mixed)", "SUM(Errs)", "SUM(Fine)", "E1+1", "SUM((B1,#REF!))",
                "SUM(INDEX(B1:B4,2):#REF!)", "SUM(B1:INDEX(B1:B4,2))"]
    cells = [c(f"B{r}", None, r) for r in range(1, 5)] + \
        [c(f"E{i}", f, 10 if i == 4 else 9) for i, f in enumerate(formulas, 1)]
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells}, names=names)
    kept, notes = [], []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept, notes=notes)
    # the range operator ':' between computed references, the same (E6); B1:B2 is 3 (E7)
    assert [res[f"S!E{i}"] for i in range(1, 8)] == [9, 9, 3, 10, 9, 9, 3]
    assert sorted(k.label for k in kept) == ["Errs", "Mixed", "S!E1", "S!E2", "S!E4", "S!E5",
                                             "S!E6"]
    said = "the reference operator ',' given an error value"
    assert said in next(k.reason for k in kept if k.label == "S!E5")
    assert "the reference operator ':' given" in next(k.reason for k in kept
                                                       if k.label == "S!E6")
    assert not any("Unused" in n for n in notes)
    # --lenient keeps the values Excel saved there too
    res = calc_workbook(src, tmp_path / "lenient.xlsx", {}, strict=False)
    assert (res["S!E2"], res["S!E5"]) == (9, 9)
