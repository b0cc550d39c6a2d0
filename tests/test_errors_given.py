"""Error values given to the most used functions (the form ``errors``): in a value argument
the first error in argument order is the function's value (addin/engine/first_error.py);
inside a range, what each function's page says (COUNT leaves it out, the conditional
aggregates skip the rows their criteria do not match, the lookups pass over it, the
aggregates give it); what no page settles is refused with a sentence.

Sources of the expected values: [MS-VSDX] 2.2.11.2.2.2.8 ("When a function encounters a
PtgErr as one of its arguments, it returns the same error value") and the first error
in argument order (BETA.DIST(#NAME?,#REF!,...) #NAME? as Excel saved it, the business
corpus's second held-out part: addin/engine/first_error.py); Microsoft Support, "COUNT
function" ("Arguments that are error values ... are not counted"; "error values in the
array or reference are ignored"), "COUNTA function", "AGGREGATE function" (errors left out
only by its "Ignore error values" options), "VLOOKUP function"; the numbers are worked by
hand in the comments.
"""

from __future__ import annotations

import math

import sheet_calc
import xlsx_make

c = xlsx_make.cell
_calc, _text = sheet_calc.calc_sheet, sheet_calc.text


def _cells():
    # A1 #N/A, A2 #DIV/0! (formulas' values), A3 #NAME?, A4 #REF! (written); A5:A8 5, 2, 1,
    # -3; A9 the text "abc"; A10 44000 (2020-06-18 as a serial); B1:B4 10, 20, 30, 40;
    # C1 the text "#N/A", C2 1
    return [c("A1", "NA()", "#N/A", t="e"), c("A2", "1/0", "#DIV/0!", t="e"),
            c("A3", "#NAME?", "#NAME?", t="e"), c("A4", "#REF!", "#REF!", t="e"),
            c("A5", None, 5), c("A6", None, 2), c("A7", None, 1), c("A8", None, -3),
            _text("A9", "abc"), c("A10", None, 44000),
            c("B1", None, 10), c("B2", None, 20), c("B3", None, 30), c("B4", None, 40),
            _text("C1", "#N/A"), c("C2", None, 1)]


def _computed(tmp_path, formulas):
    """The values of ``formulas`` (E1, E2...) and the cells kept, label -> reason."""
    cells = _cells() + [c(f"E{i}", f, 0) for i, f in enumerate(formulas, 1)]
    res, kept = _calc(tmp_path, cells)
    return [res.get(f"S!E{i}") for i in range(1, len(formulas) + 1)], kept


def _code(v) -> str:
    return str(v).split(" ", 1)[0]


def test_scalar_functions_give_the_first_error_value(tmp_path):
    formulas = [("EOMONTH(A1,1)", "#N/A"), ("EOMONTH(A10,A2)", "#DIV/0!"),
                ("EOMONTH(A2,A1)", "#DIV/0!"),           # two errors: the first argument's
                ("PMT(A1,10,1000)", "#N/A"), ("PMT(0.1,A2,A1)", "#DIV/0!"),
                ("FV(0.1,10,A3,A4)", "#NAME?"), ("PV(A4,10,100)", "#REF!"),
                ("IPMT(0.1,1,A1,1000)", "#N/A"), ("PPMT(0.1,1,10,A2)", "#DIV/0!"),
                ("RATE(10,A1,1000)", "#N/A"), ("RATE(A2,A1,1000)", "#DIV/0!"),
                ("NPER(A2,-100,1000)", "#DIV/0!"), ("LN(A1)", "#N/A"), ("EXP(A2)", "#DIV/0!"),
                ("LOG(A1,A2)", "#N/A"), ("LOG(100,A4)", "#REF!"), ("POWER(A2,A1)", "#DIV/0!"),
                ("MOD(A5,A1)", "#N/A"), ("MOD(A1,A2)", "#N/A"), ("LEN(A3)", "#NAME?"),
                ("LEFT(A1,A2)", "#N/A"), ("LEFT(A9,A2)", "#DIV/0!"),  # a text, then A2
                ("RIGHT(A4,2)", "#REF!"), ("MID(\"abc\",A2,A1)", "#DIV/0!"),
                ("FIND(A1,\"abc\")", "#N/A"), ("FIND(\"a\",A9,A2)", "#DIV/0!"),
                ("SEARCH(\"a\",A2)", "#DIV/0!"), ("SUBSTITUTE(A9,\"a\",A1)", "#N/A"),
                ("UPPER(A1)", "#N/A"), ("LOWER(A2)", "#DIV/0!"), ("PROPER(A4)", "#REF!"),
                ("DAYS(A1,A2)", "#N/A"), ("DATEDIF(A10,A2,\"m\")", "#DIV/0!"),
                ("YEARFRAC(A1,A10)", "#N/A"), ("HOUR(A1)", "#N/A"), ("MINUTE(A2)", "#DIV/0!"),
                ("SECOND(A4)", "#REF!")]
    got, kept = _computed(tmp_path, [f for f, _ in formulas])
    assert kept == {}
    assert [_code(v) for v in got] == [e for _, e in formulas]


def test_a_text_before_an_error_is_still_refused(tmp_path):
    # EOMONTH reads no text: "abc" may fail first (#VALUE!) or the error come back
    got, kept = _computed(tmp_path, ["EOMONTH(A9,A1)", "DATEDIF(A9,A10,A1)"])
    assert "EOMONTH() given a text before an error value (#N/A)" in kept["S!E1"]
    assert "DATEDIF() given a text before an error value (#N/A)" in kept["S!E2"]


def test_count_leaves_error_values_out(tmp_path):
    # COUNT's page: error values, given or in a range, are not counted. A1:A10 holds the
    # numbers 5, 2, 1, -3, 44000: 5; COUNT(A1,A2,5,"x"): 5 only, 1; COUNT(#N/A,1): 1
    # (poi/FormulaEvalTestData_Copy.xlsx, F284: COUNT(2,"A","",#REF!,#DIV/0!) saved 1)
    got, kept = _computed(tmp_path, ["COUNT(A1:A10)", "COUNT(A1,A2,5,\"x\")",
                                     "COUNT(#N/A,1)", "COUNT(2,\"A\",\"\",#REF!,#DIV/0!)"])
    assert kept == {}
    assert got == [5, 1, 1, 1]


def test_criteria_skip_error_cells_they_do_not_match(tmp_path):
    formulas = [
        "SUMIF(A1:A10,\">1\")",              # 5 + 2 + 44000 = 44007 (errors not matched)
        "COUNTIF(A1:A10,\">0\")",            # 5, 2, 1, 44000: 4
        "COUNTIF(A1:A10,\"abc\")",           # the text A9: 1
        "COUNTIF(A1:A10,\">=2\")",           # 5, 2, 44000: 3
        "COUNTIFS(A1:A10,\">0\",A1:A10,\"<100\")",  # 5, 2, 1: 3
        "AVERAGEIF(A1:A10,\">1\")",          # (5 + 2 + 44000) / 3 = 14669
        "SUMIFS(B1:B4,A1:A4,\">0\")",        # no error matches a number criterion: 0
        "SUMIFS(A5:A8,A1:A4,\"abc\")",       # nor a text: 0
        "SUMIFS(A1:A4,A5:A8,\">3\")",        # only A5 (5) matches: A1's #N/A is added
        "SUMIF(A5:A8,\">3\",A1:A4)",         # the same with SUMIF: #N/A
        "SUMIF(A5:A8,\"<0\",A1:A4)",         # only A8 (-3): A4's #REF!
    ]
    got, kept = _computed(tmp_path, formulas)
    assert kept == {}
    assert got[:8] == [44007, 4, 1, 3, 3, 14669, 0, 0]
    assert [_code(v) for v in got[8:]] == ["#N/A", "#N/A", "#REF!"]


def test_what_no_page_settles_of_criteria_over_errors_is_refused(tmp_path):
    got, kept = _computed(tmp_path, [
        "COUNTIF(A1:A10,\"<>5\")",           # does an error count as not equal to 5?
        "COUNTIF(A1:A10,\"*\")",             # formulas read the errors as text here
        "COUNTIF(A1:A10,\"#N/A\")",
        "COUNTIF(C1:C2,A1)",                 # #N/A over the text "#N/A" (C1)
        "SUMIFS(A1:A4,A5:A8,\">0\")",        # #N/A, #DIV/0!, #NAME? matched: which first?
        "SUMIF(A5:A8,\">3\",A1)",            # a range to add Excel sizes from A1
    ])
    assert "the criterion '<>5' over a range holding an error value" in kept["S!E1"]
    assert "the criterion '*' over a range holding an error value" in kept["S!E2"]
    assert "the criterion '#N/A' over a range holding an error value" in kept["S!E3"]
    assert "a criterion that is an error value (#N/A) over a range holding it as a text" \
        in kept["S!E4"]
    assert "SUMIFS given different error values in the rows its criteria match" in \
        kept["S!E5"]
    assert "SUMIF given different error values in the rows its criteria match" in \
        kept["S!E6"]


def test_an_error_criterion_matches_its_error_value(tmp_path):
    # As Excel saved SUMIF(AA7:AA13,C10:D10,C7) = 1.1 over seven different error values
    # (tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!E1324): C10:D10,
    # intersected with row 1324, is #VALUE!, which matches AA9's #VALUE! only; C9 is added.
    # Here: the criterion A2 (#DIV/0!) matches A2 only, A6 (2) added; COUNTIF of A1's
    # #N/A over A1:A10 counts A1: 1
    got, kept = _computed(tmp_path, ["SUMIF(A1:A4,A2,A5:A8)", "COUNTIF(A1:A10,A1)"])
    assert kept == {}
    assert got == [2, 1]


def test_a_criterion_of_several_cells_is_intersected_with_the_formulas_row(tmp_path):
    # E1324's form: a one-cell formula intersects B1:B2 with its row
    # (tests/test_criteria_intersected.py). E1 (row 1): B1 = 10, which no cell of A1:A4
    # (four error values) equals: 0; E2 (row 2): B2 = 20, the same: 0; E3 (row 3), outside
    # B1:B2: #VALUE!, which no cell of A1:A4 holds: 0. Inside SUMPRODUCT Excel takes
    # both criteria (5 + 2 = 7); napkin does not lift SUMIF over them and refuses, and the
    # cell keeps Excel's value (0 here) as nothing computed reads it
    got, kept = _computed(tmp_path, ["SUMIF(A1:A4,B1:B2,A5:A8)", "SUMIFS(A5:A8,A1:A4,B1:B2)",
                                     "COUNTIFS(A1:A4,B1:B2)",
                                     "SUMPRODUCT(SUMIF(A5:A8,A5:A6,A5:A8))"])
    assert got[:3] == [0, 0, 0] and set(kept) == {"S!E4"}
    assert "SUMPRODUCT" in kept["S!E4"]


def test_lookups_pass_over_error_cells_and_give_an_error_given(tmp_path):
    formulas = [
        "MATCH(5,A1:A10,0)",                 # A5: 5
        "MATCH(\"abc\",A1:A10,0)",           # A9: 9
        "MATCH(\"#N/A\",A1:A10,0)",          # a text matches no error value: #N/A
        "VLOOKUP(2,A5:B8,1,FALSE)",          # 2
        "VLOOKUP(5,A1:A10,1,FALSE)",         # 5
        "VLOOKUP(A2,A1:A10,1,FALSE)",        # the lookup value's #DIV/0!
        "VLOOKUP(5,A5:A10,A2,FALSE)",        # the index's #DIV/0! (formulas: #VALUE!)
        "HLOOKUP(5,A5:A10,A4,FALSE)",        # #REF!
        "MATCH(5,A5:A10,A3)",                # the match_type's #NAME?
        "INDEX(A1:A10,MATCH(44000,A1:A10,0))",  # 44000
    ]
    got, kept = _computed(tmp_path, formulas)
    assert kept == {}
    assert [got[i] for i in (0, 1, 3, 4, 9)] == [5, 9, 2, 5, 44000]
    assert [_code(got[i]) for i in (2, 5, 6, 7, 8)] == \
        ["#N/A", "#DIV/0!", "#DIV/0!", "#REF!", "#NAME?"]


def test_approximate_lookups_over_errors_stay_refused(tmp_path):
    got, kept = _computed(tmp_path, ["MATCH(5,A1:A10,1)", "VLOOKUP(5,A1:A10,1,TRUE)"])
    assert "approximate match in values not all of one kind" in kept["S!E1"]
    assert "approximate match in values not all of one kind" in kept["S!E2"]


def test_aggregates_give_the_first_error_of_their_ranges(tmp_path):
    formulas = [("STDEV(A1:A10)", "#N/A"), ("STDEV(A5:A8,A2)", "#DIV/0!"),
                ("STDEV.S(A5:A8,A1:A4)", "#N/A"), ("STDEV.P(A1,A5:A8)", "#N/A"),
                ("VAR(A4:A8)", "#REF!"), ("VAR.S(A3:A8)", "#NAME?"),
                ("VAR.P(A2:A8)", "#DIV/0!"), ("LARGE(A1:A10,2)", "#N/A"),
                ("LARGE(A5:A8,A1)", "#N/A"), ("SMALL(A2:A8,1)", "#DIV/0!"),
                ("PERCENTILE(A3:A8,0.5)", "#NAME?"), ("PERCENTILE.INC(A5:A8,A4)", "#REF!"),
                ("QUARTILE(A1:A8,1)", "#N/A"), ("QUARTILE.INC(A5:A8,A2)", "#DIV/0!"),
                ("SUBTOTAL(9,A1:A8)", "#N/A"), ("SUBTOTAL(109,A2:A8)", "#DIV/0!")]
    got, kept = _computed(tmp_path, [f for f, _ in formulas])
    assert kept == {}
    assert [_code(v) for v in got] == [e for _, e in formulas]


def test_subtotal_counts_read_error_values_as_count_and_counta_do(tmp_path):
    # A1:A8: four errors and 5, 2, 1, -3. COUNT (2, 102): the 4 numbers; COUNTA (3, 103):
    # the 8 cells that are not empty. Without errors: STDEV(5,2,1,-3), mean 1.25,
    # squares 14.0625 + 0.5625 + 0.0625 + 18.0625 = 32.75, /3, sqrt = 3.3040379...
    got, kept = _computed(tmp_path, ["SUBTOTAL(2,A1:A8)", "SUBTOTAL(3,A1:A8)",
                                     "SUBTOTAL(103,A1:A8)", "STDEV(A5:A8)"])
    assert kept == {}
    assert got[:3] == [4, 8, 8]
    assert math.isclose(got[3], math.sqrt(32.75 / 3), rel_tol=1e-15)


def test_choose_and_transpose_carry_error_values(tmp_path):
    # CHOOSE returns the value chosen, an error value as any (poi/FormulaEvalTestData_
    # Copy.xlsx saved CHOOSE(2,#N/A,#NULL!) #NULL!, CHOOSE(2,#REF!,3) 3, CHOOSE(#REF!,1)
    # #REF!); TRANSPOSE moves each value, an error value too
    got, kept = _computed(tmp_path, ["CHOOSE(2,A1,A2)", "CHOOSE(2,A2,3)", "CHOOSE(A1,1,2)",
                                     "INDEX(TRANSPOSE(A1:A10),1,2)",
                                     "INDEX(TRANSPOSE(A1:A10),1,5)",
                                     "SUM(TRANSPOSE(A5:A8))"])
    assert kept == {}
    assert [_code(got[0]), got[1], _code(got[2]), _code(got[3]), got[4], got[5]] == \
        ["#DIV/0!", 3, "#N/A", "#DIV/0!", 5, 5]


# The functions whose error values were checked on 7 December 2026 (tenth session), each
# given the error of one cell (A1 #N/A, A2 #DIV/0!, A3 #NAME?, A4 #REF!) or of NA(), and
# two of them with two errors: by the rule of addin/engine/first_error.py, the first error
# in argument order is the value ([MS-VSDX] 2.2.11.2.2.2.8; HYPERLINK's page: "If
# friendly_name returns an error value (for example, #VALUE!), the cell displays the error
# instead of the jump text").
_WIDENED = [
    ("ACOS(A1)", "#N/A"), ("ASIN(A2)", "#DIV/0!"), ("ATAN(A3)", "#NAME?"),
    ("ATAN2(A1,A2)", "#N/A"), ("ATAN2(A2,A1)", "#DIV/0!"), ("BASE(NA(),2)", "#N/A"),
    ("BETADIST(A1,1,2)", "#N/A"), ("BIN2DEC(A2)", "#DIV/0!"), ("BIN2HEX(A1)", "#N/A"),
    ("BIN2OCT(A4)", "#REF!"), ("CHAR(NA())", "#N/A"), ("CLEAN(A1)", "#N/A"),
    ("CODE(A2)", "#DIV/0!"), ("COMBIN(A1,2)", "#N/A"), ("COMBINA(NA(),2)", "#N/A"),
    ("CONFIDENCE(A1,1,10)", "#N/A"), ("CONFIDENCE.NORM(0.05,A2,10)", "#DIV/0!"),
    ("CONFIDENCE.T(0.05,1,A3)", "#NAME?"), ("CONVERT(A1,\"day\",\"hr\")", "#N/A"),
    ("COS(A1)", "#N/A"), ("COT(A2)", "#DIV/0!"), ("DATEVALUE(A1)", "#N/A"),
    ("DEC2BIN(A1)", "#N/A"), ("DEC2HEX(A2)", "#DIV/0!"), ("DEC2OCT(A4)", "#REF!"),
    ("DEGREES(A1)", "#N/A"), ("EVEN(A2)", "#DIV/0!"), ("EXACT(A9,A1)", "#N/A"),
    ("FACT(A1)", "#N/A"), ("FLOOR(A5,A2)", "#DIV/0!"), ("HEX2BIN(A1)", "#N/A"),
    ("HEX2DEC(A2)", "#DIV/0!"), ("HEX2OCT(A3)", "#NAME?"),
    ("HYPERLINK(\"http://example.com\",NA())", "#N/A"),
    ("ISOWEEKNUM(A1)", "#N/A"), ("MROUND(A1,2)", "#N/A"),
    ("NOT(A1)", "#N/A"), ("OCT2BIN(A1)", "#N/A"), ("OCT2DEC(A2)", "#DIV/0!"),
    ("OCT2HEX(A4)", "#REF!"), ("ODD(A1)", "#N/A"), ("POISSON(A1,2,TRUE)", "#N/A"),
    ("POISSON.DIST(2,A2,FALSE)", "#DIV/0!"), ("RADIANS(A1)", "#N/A"),
    ("REPLACE(A9,1,1,A1)", "#N/A"), ("SIGN(A2)", "#DIV/0!"), ("SIN(A1)", "#N/A"),
    ("TAN(A2)", "#DIV/0!"), ("TIME(A1,0,0)", "#N/A"), ("TIME(1,A4,A1)", "#REF!"),
    ("TIMEVALUE(A2)", "#DIV/0!"), ("WEEKDAY(A1)", "#N/A"), ("WEEKNUM(A2)", "#DIV/0!"),
]


def test_error_values_given_to_the_functions_checked_on_7_december(tmp_path):
    got, kept = _computed(tmp_path, [f for f, _ in _WIDENED])
    assert kept == {}
    assert [_code(v) for v in got] == [e for _, e in _WIDENED]


def test_a_text_before_an_error_stays_refused_where_the_function_reads_numbers(tmp_path):
    # ATAN2 reads numbers: "abc" may fail first (#VALUE!), so no value is taken; CLEAN
    # reads text, so its text is no failure (CLEAN(A1) above)
    got, kept = _computed(tmp_path, ["ATAN2(A9,A1)", "TIME(A9,A1,0)"])
    assert "ATAN2() given a text before an error value (#N/A)" in kept["S!E1"]
    assert "TIME() given a text before an error value (#N/A)" in kept["S!E2"]


def test_iseven_and_isodd_given_an_error_stay_refused(tmp_path):
    # ISODD's page: "If number is nonnumeric, ISODD returns the #VALUE! error value";
    # whether an error value is "nonnumeric" there no page says, and LibreOffice gives
    # #VALUE! for ISODD(#DIV/0!) (the differential test, seed 3), so neither is taken
    got, kept = _computed(tmp_path, ["ISEVEN(A1)", "ISODD(A2)"])
    assert kept == {"S!E1": "ISEVEN() given an error value",
                    "S!E2": "ISODD() given an error value"}


def test_an_error_value_in_place_of_a_range(tmp_path):
    # A conditional aggregate given an error value where it takes a range gives it
    # ([MS-VSDX] 2.2.11.2.2.2.8): Excel saved SUMIFS(#REF!,#REF!,A4) as #REF! in 70 cells
    # of the business corpus's eleventh part (seen; Cost Calculator.xlsx), where formulas
    # gave 0; SUM of them #REF!. A criterion's error value before it, and OFFSET given an
    # error value as its reference, are refused: no page says what Excel gives.
    formulas = [("SUMIFS(#REF!,#REF!,A5)", "#REF!"), ("SUMIF(#REF!,1)", "#REF!"),
                ("SUMIF(B1:B4,10,#REF!)", "#REF!"), ("COUNTIF(#REF!,1)", "#REF!"),
                ("COUNTIFS(B1:B4,\">0\",#REF!,1)", "#REF!"), ("AVERAGEIF(#REF!,1)", "#REF!"),
                ("AVERAGEIFS(#REF!,B1:B4,10)", "#REF!"), ("SUM(E1:E2)", "#REF!")]
    got, kept = _computed(tmp_path, [f for f, _ in formulas])
    assert kept == {}
    assert [_code(v) for v in got] == [e for _, e in formulas]
    got, kept = _computed(tmp_path, ["COUNTIFS(B1:B4,#N/A,#REF!,1)", "OFFSET(#REF!,1,1)"])
    assert "COUNTIFS() given an error value as a criterion before one in place of a " \
           "range" in kept["S!E1"]
    assert "OFFSET() given an error value as its reference" in kept["S!E2"]
