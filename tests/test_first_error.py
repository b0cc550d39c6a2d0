"""Functions given error values give the first of them in argument order
(``addin/engine/first_error.py``, declared ``first_error``), and what strict mode refuses
of that rule; ``tools/error_evidence.py`` on a workbook of cells Excel would save.

The expected values are the rule's: [MS-VSDX] 2.2.11.2.2.2.8 ("When a function
encounters a PtgErr as one of its arguments, it returns the same error value"), and,
where two different errors are given, the first in argument order, as Excel saved
``BETA.DIST(#NAME?,#REF!,#REF!,FALSE,#NAME?,#NAME?)`` #NAME? (the business corpus's second
held-out part, seen: Containership_ABS_Model - Copy.xlsm, Beta_Dis!AC5:AC55) and
``BETA.INV(RAND(),#REF!,#REF!,#NAME?,#NAME?)`` #REF! (Z15).
"""

from __future__ import annotations

import sheet_calc
import xlsx_make

from tools import error_evidence

c = xlsx_make.cell
_calc, _text = sheet_calc.calc_sheet, sheet_calc.text


def _errors():
    # A1 = #N/A, A2 = #DIV/0!: formulas' values; A3 = #NAME?, A4 = #REF!: written
    return [c("A1", "NA()", "#N/A", t="e"), c("A2", "1/0", "#DIV/0!", t="e"),
            c("A3", "#NAME?", "#NAME?", t="e"), c("A4", "#REF!", "#REF!", t="e")]


def test_each_function_gives_the_first_error_value(tmp_path):
    formulas = [("SQRT(A1)", "#N/A"),                    # Forecast.xlsx's SQRT(Q90)
                ("DATE(A1,1,1)", "#N/A"),
                ("DATE(2020,A2,A1)", "#DIV/0!"),         # month before day
                ("ADDRESS(A4,1)", "#REF!"),
                ("ADDRESS(2,A2,1,TRUE,\"x\")", "#DIV/0!"),
                ("TEXT(A1,\"0.0\")", "#N/A"),
                ("TEXT(\"abc\",A2)", "#DIV/0!"),          # a text TEXT reads, then A2
                ("TRIM(A4)", "#REF!"),
                ("_xlfn.SEQUENCE(A2)", "#DIV/0!"),
                ("_xlfn.BETA.DIST(A3,A4,A4,FALSE,A3,A3)", "#NAME?"),  # Beta_Dis!AC5
                ("_xlfn.BETA.DIST(0.5,2,A1,TRUE)", "#N/A"),
                ("_xlfn.BETA.INV(0.5,A4,A4,A3,A3)", "#REF!"),          # Beta_Dis!Z15
                ("INDIRECT(A1)", "#N/A")]
    cells = _errors() + [c(f"E{i}", f, e, t="e") for i, (f, e) in enumerate(formulas, 1)]
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    got = [str(res[f"S!E{i}"]).split(" ")[0] for i in range(1, len(formulas) + 1)]
    assert got == [e for _, e in formulas]


def test_what_the_rule_leaves_open_is_refused(tmp_path):
    cells = _errors() + [
        _text("B1", "abc"),
        c("E1", "DATE(B1,A1,1)", "#VALUE!", t="e"),     # a text DATE does not read, first
        c("E2", "_xlfn.BETA.DIST(B1,A1,2,TRUE)", "#VALUE!", t="e"),
    ]
    res, kept = _calc(tmp_path, cells)
    assert "DATE() given a text before an error value (#N/A)" in kept["S!E1"]
    assert "BETA.DIST() given a text before an error value (#N/A)" in kept["S!E2"]


def test_a_value_other_than_the_first_error_is_refused():
    from addin.engine import first_error
    from addin.engine.boot import ready

    na, div = (ready().errors[e] for e in ("#N/A", "#DIV/0!"))
    never = lambda position, text: False  # noqa: E731 (no text argument)
    assert first_error.reason("SQRT", [na], na, False, never) is None
    assert first_error.reason("SQRT", [4.0], 2.0, False, never) is None  # (no error)
    assert "napkin computed #DIV/0!" in first_error.reason("X", [na, div], div, False, never)
    assert "napkin computed 3.0" in first_error.reason("X", [1.0, na], 3.0, False, never)
    # an array computed element by element: one error value only
    assert first_error.reason("X", [na, na], None, True, never) is None
    assert "in an array" in first_error.reason("X", [na, div], None, True, never)


def test_the_evidence_tool_sorts_the_cells():
    given = [["#N/A", "#DIV/0!"], ["#N/A"], ["#N/A", "#REF!"]]
    assert [error_evidence.classify(g, s) for g, s in
            zip(given, ["#N/A", "#N/A", "#REF!"], strict=True)] == \
        ["first-of-two", "first", "other-given"]
    assert error_evidence.classify(["#N/A"], 3.0) == "ignored"
    assert error_evidence.classify(["#N/A"], "#VALUE!") == "other-error"
    name, args = error_evidence._call("_xlfn.BETA.DIST(AB5,$Z$8,$Z$9,FALSE,$Z$4,$Z$5)")
    assert name == "BETA.DIST" and len(args) == 6
    errors = {"S": [(4, 26, "#NAME?"), (5, 28, "#NAME?"), (8, 26, "#REF!")]}
    got = [e for a in args for e in error_evidence._errors(a, errors, "S")]
    assert got == ["#NAME?", "#REF!", "#NAME?"]  # AB5, Z8, Z4 (Z9, Z5: none here)


def test_a_function_failing_inside_another_refuses_the_formula(tmp_path):
    # formulas' ISODD raises on a text: the formula became #VALUE! whole, while Excel's
    # ISODD("abc") is #VALUE! and IFERROR of it 1 (IFERROR's page), ROUNDDOWN(#N/A,
    # #VALUE!) #N/A (the first error): addin/engine/executor.py refuses them
    cells = _errors() + [c("E1", "IFERROR(ISODD(\"abc\"),1)", 1),
                         c("E2", "ROUNDDOWN(A1,ISODD(\"abc\"))", "#N/A", t="e"),
                         c("E3", "ISODD(\"abc\")", "#VALUE!", t="e")]
    res, kept = _calc(tmp_path, cells)
    for cell in ("S!E1", "S!E2"):
        assert kept[cell].startswith("ISODD() failed inside another function")
    assert "S!E3" not in kept and str(res["S!E3"]).startswith("#VALUE!")


def test_arrays_of_two_sizes_inside_a_function_give_excels_na(tmp_path):
    # Forecast.xlsx (the fourth held-out part, seen), 'Holt''s Method'!Q90:
    # {=(1/22)*SUM((D3#-I3:I38)^2)} over arrays of two sizes, which Excel saved #N/A. formulas
    # failed on the - (the formula was #VALUE!, refused as a failure inside SUM); the
    # operator now expands the shorter array with #N/A as Excel does
    # (addin/formula/array_sizes.py), so SUM of it is #N/A, computed, nothing kept
    cells = [c("A1", None, 1), c("A2", None, 2), c("B1", None, 1), c("B2", None, 1),
             c("B3", None, 1),
             '<c r="E1" t="e"><f t="array" ref="E1">SUM((A1:A2-B1:B3)^2)</f><v>#N/A</v></c>']
    res, kept = _calc(tmp_path, cells)
    assert "S!E1" not in kept
    assert str(res["S!E1"]) == "#N/A"
