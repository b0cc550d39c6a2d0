"""The one list of napkin's changes to ``formulas``: each name of formulas that napkin
replaces, what the replacement corrects, and the evidence for it.

``addin.engine.boot.ready`` puts every entry of ``PATCHES`` in place, in order,
once per process, and nothing else changes formulas' names (``addin.formula.fx.parse``
only swaps ``DURING_PARSE`` for the time of one parse). tests/test_formulas_patches.py
checks every entry against the installed formulas release (``pyproject.toml`` pins it):
the module and name exist, and after ``ready()`` each holds its replacement. An upgrade
of formulas that renames one of them fails there, loudly.

This module imports nothing but the declarations of Excel's functions
(``addin.formula.excel_functions``, which name the functions of a kind: those computed in
the 1904 date system, those whose serials are checked, those whose approximate match is
computed on sorted values only) and the step functions checked for the doubt of their
number (``addin.formula.discrete_doubt.STEPS``): the replacements are named,
``"module:function"``, and resolved by ``ready()``.
"""

from __future__ import annotations

from dataclasses import dataclass

from addin.formula import discrete_doubt, excel_functions
from addin.formula.patches_excel import EXCEL_FUNCTIONS
from addin.formula.patches_parse import DURING_PARSE as DURING_PARSE
from addin.formula.patches_parse import READS as READS


@dataclass(frozen=True)
class Patch:
    """One name of formulas napkin replaces.

    Attributes
    ----------
    module : str
        formulas' module, ``"formulas.functions.text"``.
    name : str
        the name replaced in it; ``"get_functions"`` stands for formulas' table of
        functions (what ``formulas.get_functions()`` returns).
    key : str or None
        the entry of that table or dict (``OPERATORS["^"]``), None for the name itself.
    corrects : str
        what formulas computes unlike Excel there, and what the replacement does.
    evidence : str
        where Excel's behaviour is shown: a workbook of tests/corpus or a Microsoft
        Support page's example, and the test that checks it.
    by : str
        ours, ``"module:name"``: with ``how="build"`` a function called as
        ``by(original, key)`` that returns the replacement; with ``how="udf"`` our Excel
        function (or a dict of them by name, taken at ``key``), registered in the table
        (``addin.excel.install.registered``).
    how : str
        ``"build"`` or ``"udf"``.
    """

    module: str
    name: str
    key: str | None
    corrects: str
    evidence: str
    by: str
    how: str = "build"


TABLE = "get_functions"
_F, _OPS, _TEXT = "formulas.functions", "formulas.functions.operators", "formulas.functions.text"
_ARITH, _FXE, _XL = "addin.formula.arithmetic", "addin.formula.fx_excel", "addin.excel"
_FXD = "addin.formula.fx_excel_dates"
_FXA = "addin.formula.fx_excel_args"
_CANCEL = "addin.formula.cancellation"
_FXS = "addin.formula.fx_excel_stats"
_FXP = "addin.formula.fx_excel_paired"
_FXR = "addin.formula.fx_excel_rates"
_POI_EVIDENCE = "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, saved by Excel"

_ROUND_EVIDENCE = (
    "tests/corpus/poi/56315.xlsx (=ROUND(1*(0.001+0.5-0.4-0.05-0.001),1) is 0.1); "
    "Microsoft Support, \"ROUND function\", \"ROUNDUP function\", \"ROUNDDOWN function\" "
    "(their examples); tests/test_excel_cases.py::test_round_takes_the_15_digits_excel_"
    "keeps_first")
_TEXT_NUMBER_EVIDENCE = (
    "Microsoft Support, \"VALUE function\" (\"$1,000\" is 1000); "
    "tests/test_excel_text.py::test_numbers_and_text_convert_as_in_excel")
_BLANK_EVIDENCE = (
    "apache/poi FormulaEvalTestData (FALSE=D7 with D7 blank is TRUE); "
    "tests/test_excel_text.py::test_numbers_and_text_convert_as_in_excel")
_DATE_TEXT_EVIDENCE = (
    "xlcalculator's YEAR.xlsx, saved by Excel (YEAR(\"7/5/1800\") is #VALUE!); "
    "tests/test_excel_cases.py::test_dates_as_text_outside_excels_calendar_are_errors")

#: formulas' corrections, then the short way of its arithmetic, then the Excel functions
#: of addin/excel/ (each after the ones it wraps)
_FORMULAS = (
    *(Patch(_F, TABLE, name, f"formulas' {name} is numpy's ufunc, whose float64 loop numpy "
            "picks by processor (its AVX-512 loops differ from the C library's in the last "
            "place): the C library's function of one number, the same on every machine",
            "workbook/napkin-native.xlsx, its helper sheet's LOG10 cells (LOG10(25/8) "
            "0.49485002168009395 on an AVX-512 machine, 0.49485002168009407 without); "
            "tests/test_libm.py", "addin.formula.libm:one_at_a_time")
      for name in ("LN", "LOG10", "EXP", "LOG")),
    *(Patch(_F, TABLE, name, "formulas rounds the binary value; Excel first takes the "
            "number to the 15 significant digits it keeps", _ROUND_EVIDENCE,
            f"{_FXE}:rounding") for name in ("ROUND", "ROUNDUP", "ROUNDDOWN")),
    Patch(_F, TABLE, "ISNUMBER", "formulas' ISNUMBER is TRUE for a text that reads as a "
          "number (\"1\"); Excel's only for a number",
          "tests/test_excel_functions.py (ISNUMBER of the text \"1\" is FALSE, beside "
          "Microsoft's SUM and COUNT examples)", f"{_FXE}:isnumber"),
    Patch(_F, TABLE, "IF", "formulas' IF gives #VALUE! for a text logical_test; Excel "
          "reads \"TRUE\" and \"FALSE\" in any case (other text refused in strict mode)",
          _POI_EVIDENCE + " (IF(\"tRue\",\"A\",\"B\") is \"A\"); "
          "tests/test_excel_referee_math.py::test_if_reads_the_text_true_or_false",
          f"{_FXA}:if_text"),
    *(Patch(_F, TABLE, name, f"formulas' {name} reads a count given as text with int(), "
            "which takes \"3\" but not \"3.5\" nor \" 3.5\"; Excel reads it as a number",
            _POI_EVIDENCE + " (LEFT(\"a string\",\"6\") is \"a stri\"); tests/"
            "test_excel_referee_math.py::test_counts_given_as_text", f"{_FXA}:text_counts")
      for name in ("MID", "MIDB", "LEFT", "LEFTB", "RIGHT", "RIGHTB")),
    Patch(_F, TABLE, "ROW", "formulas' ROW gives the rows of a range of several rows as "
          "an array in a formula of one cell, where Excel 365 spills them and earlier "
          "versions give the top one: refused there in strict mode (a defined name's "
          "formula and an array formula computed)", "Microsoft Support, \"ROW function\"; "
          "tests/test_array_arguments_repeated.py", f"{_FXA}:row_of_range"),
    Patch(_F, TABLE, "TYPE", "formulas' TYPE makes a bare error value (one a function "
          "of ours gives) an array of text, and gave 2; Excel's TYPE of an error is 16",
          "Microsoft Support, \"TYPE function\" (error value: 16); tests/corpus/sheetjs/"
          "ErrorTypes.xlsx; tests/test_excel_text_checked.py::test_type_of_an_error_value",
          f"{_FXA}:type_of_error"),
    Patch(_F, TABLE, "TRIM", "formulas' TRIM removes white space at the ends only; "
          "Excel's removes the spaces (character 32) at the ends and makes every run of "
          "them within the text one", "Microsoft Support, \"TRIM function\" (\"Removes all "
          "spaces from text except for single spaces between words\"; the 7-bit ASCII "
          "space, value 32); tests/test_excel_text_checked.py::test_trim",
          f"{_FXA}:trim"),
    Patch(_F, TABLE, "CHAR", "formulas' CHAR gives the Macintosh character set's "
          "character from 128 to 255; Excel the computer's (ANSI on Windows): refused in "
          "strict mode", "Microsoft Support, \"CHAR function\" (operating environment: "
          "Macintosh character set, ANSI character set); " + _POI_EVIDENCE + " (CHAR(-1) "
          "is #VALUE!); tests/test_excel_text_checked.py::test_char_beyond_ascii",
          f"{_FXA}:char"),
    Patch(_F, TABLE, "CODE", "formulas' CODE writes a number with Python's str (-0 as "
          "\"-0.0\": CODE(-0) was 45) and codes a character beyond ASCII by the Macintosh "
          "character set; Excel writes numbers in text with no negative zero, and codes "
          "by the computer's character set (refused in strict mode)",
          "[MS-XLSB] 2.5.172 Xnum (a number MUST NOT be negative zero); Microsoft Support, "
          "\"CODE function\"; tests/test_excel_text_checked.py::test_code",
          f"{_FXA}:code"),
    *(Patch(_F, TABLE, name, f"formulas' {name} counts a formula's empty text as an "
            "empty cell for the criteria \"<>\" and \"=\", where Microsoft's page does "
            "not say Excel's value: refused in strict mode",
            f"Microsoft Support, \"{name} function\"; tests/test_excel_text_checked.py::"
            "test_countif_where_excel_is_not_documented",
            "addin.formula.empty_criteria:counted_ranges")
      for name in ("COUNTIF", "COUNTIFS")),
    *(Patch(_F, TABLE, name, f"formulas' {name} counts a formula's empty text as an "
            "empty cell for the criteria \"<>\" and \"=\" of its criteria ranges, where "
            "Microsoft's page does not say Excel's value: refused in strict mode",
            f"Microsoft Support, \"{name} function\"; tests/test_excel_text_checked.py::"
            "test_sumifs_where_excel_is_not_documented",
            "addin.formula.empty_criteria:criteria_after_the_first")
      for name in ("SUMIFS", "AVERAGEIFS")),
    Patch("formulas.functions.date", "_text2datetime", None, "formulas reads a date "
          "written as text in any year; Excel's dates run from 1900 to 9999",
          _DATE_TEXT_EVIDENCE, f"{_FXE}:text_date"),
    Patch(_F, TABLE, "MONTH", "a month and a number without a year (\"Jun-25\") read "
          "as a date stops strict mode (a day of this year, or a year?); its month is the "
          "same either way", "tests/test_month_texts.py", f"{_FXD}:month_of_text"),
    *(Patch(m, "_str", None, "formulas writes a number in text with Python's str "
            "(0.1+0.2 is \"0.30000000000000004\"); Excel with 15 significant digits",
            "Microsoft Support, \"Floating-point arithmetic may give inaccurate results in "
            "Excel\"; apache/poi FormulaEvalTestData.xls (SEARCH(1,0.00001) is 7); "
            "tests/test_excel_text.py::test_numbers_and_text_convert_as_in_excel",
            f"{_FXE}:excel_str") for m in (_TEXT, _OPS)),
    *(Patch(m, "_text2num", None, "formulas reads a text with float() or as a date; "
            "Excel also reads \"1,000\", \"$1,000\", \"50%\", \"(12)\" and a time alone",
            _TEXT_NUMBER_EVIDENCE, f"{_FXE}:text2num")
      for m in (_F, "formulas.functions.stat", "formulas.functions.financial", _TEXT,
                "formulas.functions.look", "formulas.functions.info")),
    Patch(_F, "_text2num_vectorize", None, "its cache holds formulas' own _text2num; "
          "emptied, it vectorizes the corrected one", _TEXT_NUMBER_EVIDENCE,
          f"{_FXE}:text2num_vectorize"),
    *(Patch(_OPS, "OPERATORS", sym, "formulas' arithmetic reads a text operand its own "
            "way; Excel's as VALUE does", _TEXT_NUMBER_EVIDENCE, f"{_FXE}:text_arithmetic")
      for sym in ("+", "-", "U-", "*", "%", "/")),
    Patch(_OPS, "OPERATORS", "^", "formulas turns a power beyond a float (=2^1100) into "
          "#VALUE!; Excel gives #NUM!; a text operand is read as VALUE does",
          "tests/test_hostile.py (=2^1100 is #NUM!); " + _TEXT_NUMBER_EVIDENCE,
          f"{_FXE}:text_arithmetic"),
    *(Patch(m, k, "VALUE", "formulas' VALUE reads a text with float() or as a date; "
            "Excel's also reads \"$1,000\", \"50%\" and a time alone (a fraction of a day)",
            _TEXT_NUMBER_EVIDENCE, f"{_FXE}:value")
      for m, k in ((_TEXT, "FUNCTIONS"), (_F, TABLE))),
    *(Patch(_OPS, "OPERATORS", sym, "formulas reads a blank cell beside a logical value as 0; "
            "Excel as FALSE (FALSE=blank is TRUE), \"\" beside text, 0 beside a number",
            _BLANK_EVIDENCE, f"{_FXE}:comparison")
      for sym in (">=", "<=", "<>", "<", ">", "=")),
    Patch(_F, "__xfilter", None, "formulas' criteria of COUNTIF, SUMIF, ... compare only "
          "cells of the criterion's kind and read \"<>\" alone as a text; Excel's \"<>x\" "
          "matches every cell \"=x\" does not (empty ones included), \"<>\" every cell "
          "that is not empty", "Microsoft Support, \"COUNTIF function\" "
          "(=COUNTIF(A2:A5,\"<>\"&B4)); tests/test_excel_core.py::test_countif_not_equal",
          f"{_XL}.install:criteria_over_errors"),
    *(Patch(_F, TABLE, name, "formulas divides in binary and rounds the quotient "
            "(FLOOR(7.1,0.1) is 7); Excel first takes it to 15 significant digits (7.1), "
            "and rounds a negative number toward or away from zero as mode says",
            "Microsoft Support, \"FLOOR function\", \"CEILING function\", "
            "\"FLOOR.MATH function\", \"CEILING.MATH function\" (their examples); "
            "tests/test_excel_core.py::test_floor_and_ceiling",
            f"{_FXA}:floor_checked" if name == "FLOOR" else f"{_FXE}:to_multiple")
      for name in ("FLOOR", "CEILING", "FLOOR.MATH", "_XLFN.FLOOR.MATH", "CEILING.MATH",
                   "_XLFN.CEILING.MATH", "FLOOR.PRECISE", "_XLFN.FLOOR.PRECISE",
                   "CEILING.PRECISE", "_XLFN.CEILING.PRECISE")),
    Patch(_F, TABLE, "EDATE", "formulas counts a year before 1900 from 1900 "
          "(EDATE(1,-5) is a date in 3799) and gives #VALUE! past 9999; Excel #NUM!; "
          "given an array of several values, formulas gives #VALUE!, Excel computes it "
          "for each element",
          "Microsoft Support, \"EDATE function\", \"Excel specifications and limits\"; "
          "tests/test_excel_core.py::test_edate_outside_excels_calendar", f"{_FXD}:edate"),
    Patch(_F, TABLE, "EOMONTH", "formulas' EOMONTH gives #VALUE! given an array of "
          "several values; Excel computes it for each element (a dynamic array formula "
          "spills the month ends)", "Microsoft Support, \"Guidelines and examples of array "
          "formulas\"; the cells Excel saved in part tune3 of tools/business_corpus.csv; "
          "tests/test_dates_arrays.py", f"{_FXD}:eomonth"),
    Patch(_F, TABLE, "WORKDAY", "formulas' WORKDAY gives #VALUE! for a start on a "
          "weekend or a holiday and for a date after 9999; Excel counts from the day "
          "after the start, and gives #NUM! after 9999",
          "Microsoft Support, \"WORKDAY function\"; tests/test_excel_dates_checked.py",
          f"{_FXD}:workday"),
    Patch(_F, TABLE, "ROMAN", "formulas takes the form FALSE as the classic form (0); "
          "Excel's FALSE is the simplified form (4)",
          "Microsoft Support, \"ROMAN function\"; tests/test_checked_forms.py::test_roman",
          f"{_FXE}:roman"),
    *(Patch(_F, TABLE, name, "formulas counts DAYS360 as YEARFRAC's basis 0 (the end of "
            "February as the 30th only when both dates are); Excel's U.S. method makes a "
            "start on the last day of any month the 30th",
            "Microsoft Support, \"DAYS360 function\"; "
            "tests/test_checked_forms.py::test_days360", f"{_FXD}:days360")
      for name in ("DAYS360", "_XLFN.DAYS360")),
    *(Patch(_F, TABLE, name, "formulas computes a negative element of an array "
            "constant as a 0-dimensional array, which SUM, MAX, COUNT... pass over "
            "(SUM({-1,0.5,4}) gave 4.5, Excel 3.5); ours makes it a number",
            "Microsoft Support, \"Use array constants in array formulas\"; "
            "tests/test_excel_functions.py::test_negative_numbers_in_array_constants; the "
            "differential test (tests/test_differential.py)", f"{_FXE}:array_constant")
      for name in ("ARRAY", "ARRAYROW")),
    *(Patch(_F, TABLE, name, "formulas' MODE.MULT gives a Python list, which SUM reads "
            "as a text (SUM(MODE.MULT(B1:B12)) was #VALUE!); ours a vertical array",
            "Microsoft Support, \"MODE.MULT function\" (a vertical array); "
            "tests/test_excel_referee.py::test_mode_mult_is_a_vertical_array; the "
            "differential test", f"{_FXE}:vertical_array")
      for name in ("MODE.MULT", "_XLFN.MODE.MULT")),
    *(Patch(_F, TABLE, name, f"formulas' {name} adds a text that reads as a number and "
            "gives #VALUE! for a range to add of another size than its range; Excel adds "
            "numbers only, and sizes that range to the first from its top left cell",
            f"Microsoft Support, \"{name} function\"; tests/test_excel_referee.py::"
            "test_sumif_and_averageif_add_numbers_only, test_sumif_sizes_its_range_to_add",
            f"{_XL}.install:criteria_resized")
      for name in ("SUMIF", "AVERAGEIF")),
    *(Patch(_F, TABLE, name, f"formulas' {name} computes ranges of different sizes; "
            "Excel asks for the same number of rows and columns: refused in strict mode",
            f"Microsoft Support, \"{name.removeprefix('_XLFN.')} function\" (each range "
            "\"must have the same number of rows and columns\"); tests/test_excel_referee_"
            "math.py::test_criteria_ranges_of_different_sizes", f"{_FXA}:ranges_of_one_shape")
      for name in ("COUNTIFS", "SUMIFS", "AVERAGEIFS")),
    Patch(_F, TABLE, "AVERAGEIFS", "formulas' AVERAGEIFS leaves text and logical values of "
          "average_range out; Microsoft's pages disagree on them (text #DIV/0! or an error, "
          "TRUE as 1): refused in strict mode",
          "Microsoft Support, \"AVERAGEIFS function\"; Microsoft Learn, "
          "\"WorksheetFunction.AverageIfs method\"; tests/test_checked_lookups.py::"
          "test_averageifs_averages_numbers_and_refuses_text", f"{_FXA}:averaged_numbers"),
    *(Patch(_F, TABLE, name, f"formulas' {name} of one logical value or text gives #NUM!; "
            "Excel reads it as a number: refused in strict mode",
            "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!F816:G816 "
            "(LARGE(TRUE,1) is 1, LARGE(\"2.3\",1) 2.3); tests/test_checked_widened.py::"
            "test_large_and_small_of_one_logical_value_or_text", f"{_FXA}:ordered_values")
      for name in ("LARGE", "SMALL")),
    *(Patch(_F, TABLE, name, f"formulas' {name} reads a text with float(); Excel also "
            "reads a date, a percentage, a currency or thousands separators in it: refused "
            "in strict mode where the two differ",
            "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (plain numbers as text read "
            "alike); the differential test (ROUNDUP(\"2024-03-15\",5): formulas #VALUE!, "
            "LibreOffice the date); tests/test_checked_widened.py::"
            "test_text_read_as_excel_reads_it_or_refused", f"{_FXA}:plain_numeric_text")
      for name in ("CEILING", "COSH", "MOD", "POWER", "ROUNDUP", "SIN", "TAN", "LOG",
                   "SIGN", "FACT", "EVEN", "LN", "DEGREES", "LARGE", "SINH", "TANH", "ASINH",
                   "ACOSH", "ATANH")),
    *(Patch(_F, TABLE, name, f"formulas' {name} beyond a bound (FACT of 21 or more, "
            "TRUNC to more than 308 places, EVEN, ODD and INT beyond 2^53, LOG to the base 1) "
            "gives #VALUE! or #NUM!, or "
            "computes for minutes; no page says Excel's value: refused in strict mode",
            "tests/test_checked_widened.py::test_bounds_refused", f"{_FXA}:bounded")
      for name in ("FACT", "TRUNC", "EVEN", "ODD", "LOG", "SINH", "INT")),
    *(Patch(_F, TABLE, name, f"formulas' {name} of a number beyond 2^27 (134,217,728) "
            "gives a value of the binary number's angle; Excel's trigonometric functions "
            "are reported to give #NUM! there and LibreOffice gives #VALUE! for 1E+20, but "
            "no page says it: refused in strict mode",
            "the differential (SIN((1E+10*1E+10)): formulas -0.645, LibreOffice #VALUE!); "
            "tests/test_branch_references.py::test_trigonometry_of_a_huge_angle_is_refused",
            f"{_FXA}:bounded") for name in ("SIN", "COS", "TAN", "COT", "_XLFN.COT")),
    *(Patch(_F, TABLE, name, f"formulas' {name} and Excel's differ in the last digits "
            "where the mean and standard_dev * z cancel (the result is then those digits): "
            "refused in strict mode", "tests/corpus/sheetjs/formula_stress_test.xlsx, "
            "Statistical!B42 (NORM.INV(NORM.DIST(0,-1,3,TRUE),-1,3): Excel 8.9E-16, formulas "
            "-2.2E-16); tests/test_checked_stats.py::test_norm_inv_refuses_a_cancelled_mean",
            f"{_FXS}:norm_inv_cancelling")
      for name in ("NORM.INV", "_XLFN.NORM.INV", "NORMINV")),
    *(Patch(_F, TABLE, name, f"formulas' {name} reads a logical value or text as its "
            "second argument as #VALUE!, and floors a fractional quart outside 0 to 4 "
            "that Excel's page says is truncated or #NUM! in an order it does not give: "
            "refused in strict mode", "Microsoft Support, \"PERCENTILE.INC function\", "
            "\"QUARTILE.INC function\"; tests/test_checked_stats.py::"
            "test_quantiles_refuse_what_their_pages_leave_unsaid", f"{_FXS}:settled_quantile")
      for name in ("PERCENTILE", "PERCENTILE.INC", "_XLFN.PERCENTILE.INC", "QUARTILE",
                   "QUARTILE.INC", "_XLFN.QUARTILE.INC")),
    *(Patch(_F, TABLE, name, f"formulas' {name} reads text, logical values and empty cells "
            "of its ranges, ranges of two shapes and expected values of 0 in ways "
            "Microsoft's page does not settle: refused in strict mode",
            "Microsoft Support, \"CHISQ.TEST function\"; tests/test_checked_chisq.py",
            f"{_FXS}:chisq_test_settled")
      for name in ("CHISQ.TEST", "_XLFN.CHISQ.TEST")),
    *(Patch(_F, TABLE, name, f"formulas' {name} reads logical values as numbers and computes "
            "where its page settles no value (a probability of 1...): refused in strict mode",
            "Microsoft Support, \"BETA.DIST function\", \"BETA.INV function\"; tests/"
            "test_checked_beta.py", f"{_FXS}:beta_settled")
      for name in ("BETA.DIST", "_XLFN.BETA.DIST", "BETA.INV", "_XLFN.BETA.INV", "BETADIST")),
    *(Patch(_F, TABLE, name, f"formulas' {name} computes known_y's and known_x's of "
            "different shapes, and drops a pair where either holds a text or a logical "
            "value; Microsoft's page says such values are ignored, not which point goes "
            "with them: refused in strict mode (an empty cell drops its pair, as Excel's "
            "saved CORREL cells show)", f"Microsoft Support, \"{name.removeprefix('_XLFN.')} "
            "function\"; tests/test_checked_stats.py; tests/test_checked_paired.py",
            f"{_FXP}:paired_numbers")
      for name in ("FORECAST", "FORECAST.LINEAR", "_XLFN.FORECAST.LINEAR", "SLOPE",
                   "INTERCEPT")),
    *(Patch(_F, TABLE, name, f"formulas' {name} drops the pair of a text or logical value "
            "(no page settles it), computes areas of different shapes, and gives no "
            "#DIV/0! for a zero standard deviation (CORREL: numpy's nan; PEARSON: within "
            "numpy's isclose of 0): computed from the pairs of numbers, an empty cell "
            "dropping its pair, the rest refused in strict mode",
            f"Microsoft Support, \"{name.removeprefix('_XLFN.')} function\"; the cells "
            "Excel saved in the business corpus's fourth held-out part (seen), Forecast.xlsx "
            "(CORREL); tests/test_checked_paired.py", f"{_FXP}:paired_statistic")
      for name in ("CORREL", "PEARSON", "_XLFN.PEARSON", "RSQ", "STEYX", "COVAR",
                   "COVARIANCE.P", "_XLFN.COVARIANCE.P", "COVARIANCE.S",
                   "_XLFN.COVARIANCE.S")),
    *(Patch(_F, TABLE, name, f"formulas' {name} reads a number as cumulative by its truth "
            "and the text \"TRUE\" as TRUE; Microsoft's page says cumulative is a logical "
            "value: other values refused in strict mode", "Microsoft Support, \"NORM.S.DIST "
            "function\", \"NORM.DIST function\", \"NORMDIST function\"; "
            "tests/test_checked_paired.py", f"{_FXS}:logical_cumulative")
      for name in ("NORM.S.DIST", "_XLFN.NORM.S.DIST", "NORM.DIST", "_XLFN.NORM.DIST",
                   "NORMDIST")),
    Patch(_F, TABLE, "NPER", "formulas' NPER gives #NUM! where its page does not settle "
          "the value (a payment of 0 with a rate or present value of 0; LibreOffice 0): "
          "refused in strict mode", "Microsoft Support, \"NPER function\"; the differential "
          "test; tests/test_checked_widened.py::test_nper_unsettled_is_refused",
          f"{_FXA}:nper_settled"),
    *(Patch(_F, TABLE, name, f"formulas' {name} finds a rate by its own method where "
            "Excel iterates from the guess: refused in strict mode unless the cash flows "
            "change sign once, an iteration from the guess reaches the root in 20 steps, "
            "formulas' value is that root and it is not below 1e-3 in size",
            f"Microsoft Support, \"{name} function\"; Excel's cells in tests/corpus/sheetjs/"
            "formula_stress_test.xlsx and tests/corpus/poi/FormulaEvalTestData_Copy.xlsx; "
            "tests/test_checked_rates.py", f"{_FXR}:{name.lower()}_settled")
      for name in ("IRR", "RATE")),
    Patch(_F, TABLE, "FREQUENCY", "formulas' FREQUENCY sorts the bins and reads no bins as "
          "0: refused in strict mode unless every value is a number and the bins rise",
          "Microsoft Support, \"FREQUENCY function\"; tests/test_checked_frequency.py",
          f"{_FXS}:frequency_settled"),
    Patch(_F, TABLE, "SUBSTITUTE", "formulas' SUBSTITUTE with an empty old_text puts "
          "new_text between every two characters; Excel leaves the text as it is",
          "Microsoft Support, \"SUBSTITUTE function\"; tests/test_excel_referee.py::"
          "test_substitute_an_empty_old_text", f"{_FXE}:empty_old_text"),
    Patch(_F, TABLE, "SUMPRODUCT", "formulas' SUMPRODUCT of arrays of different "
          "dimensions gives the first error value they hold, and reads a text that reads "
          "as a number as that number; Excel gives #VALUE! and counts the text as 0",
          "Microsoft Support, \"SUMPRODUCT function\"; tests/test_excel_referee.py::"
          "test_sumproduct_of_different_dimensions", f"{_FXE}:sumproduct"),
    Patch(_F, TABLE, "DATEDIF", "formulas' DATEDIF takes only \"D\" for days: "
          "DATEDIF(A1,B1,\"d\") was #NUM!; Excel reads the unit without case",
          "Microsoft Support, \"DATEDIF function\" (its examples write \"d\"); "
          "tests/test_excel_referee.py::test_datedif_units_without_case",
          f"{_FXD}:datedif_unit"),
    *(Patch(_OPS, "OPERATORS", sym, "nothing: the same result as formulas' operator for "
            "two numbers, without its np.vectorize; anything else goes to it",
            "tests/test_fast_paths.py::test_arithmetic_same_as_formulas",
            f"{_ARITH}:fast_arithmetic") for sym in ("+", "-", "*", "/")),
    *(Patch(_OPS, "OPERATORS", sym, "formulas adds and subtracts in binary to the last "
            "digit; Excel gives 0 where a formula's final + or - lands 50 or more binary "
            "exponents below its larger operand (napkin does so: the operator's final "
            "form, given to the formula's top node), and elsewhere within 2^-40 the "
            "result is the operands' rounding errors: refused in strict mode",
            "Microsoft Learn, \"Floating-point arithmetic may give inaccurate results in "
            "Excel\" (\"Example when a value reaches zero\"); 94 cells Excel saved "
            "(python -m tools.cancel_evidence, addin/formula/cancellation.py); "
            "tests/test_cancellation.py; tests/test_checked_widened.py::"
            "test_sums_that_cancel_are_refused", f"{_CANCEL}:near_zero_sum")
      for sym in ("+", "-")),
    *(Patch(_OPS, "OPERATORS", sym, "formulas raises BroadcastError for arrays of "
            "different sizes (the cell was #VALUE!); Excel expands both to the most rows "
            "and columns, the places one does not reach #N/A",
            "Microsoft Support, \"Guidelines and examples of array formulas\"; the cells "
            "Excel saved in the business corpus's fourth held-out part (seen), "
            "Forecast.xlsx, Holt's Method!Q90; tests/test_array_sizes.py",
            "addin.formula.array_sizes:expanding_operands")
      for sym in ("+", "-", "*", "/", "^", "&", "=", "<>", "<", ">", "<=", ">=")),
)


#: formulas' date functions that napkin computes in the 1904 date system (declared
#: ``in_1904``: addin.formula.excel_functions)
_DATES_1904 = sorted(excel_functions.names("in_1904", spelled=True))

#: formulas' date functions whose arguments strict mode checks (addin.excel.dates;
#: declared ``serials_checked``)
_CHECKED_SERIALS = sorted(excel_functions.names("serials_checked", spelled=True))

_EXCEL = (
    *(Patch(_F, TABLE, name, corrects, evidence, f"{_XL}.{by}", "udf")
      for name, by, corrects, evidence in EXCEL_FUNCTIONS),
    *(Patch(_F, TABLE, name, f"formulas' {name} computes arguments whose value in Excel no "
            "evidence settles (a logical value, a date before 1 March 1900 in EOMONTH, a "
            "time of day in DAYS...); ours refuses them in strict mode",
            "Microsoft Support, the function's page; Microsoft Knowledge Base 205719 "
            "(serial 0 is January 0, 1900); tests/test_excel_dates_checked.py",
            f"{_XL}.install:serials_checked")
      for name in _CHECKED_SERIALS),
    *(Patch(_F, TABLE, name, f"formulas' {name} counts serial numbers from 1900 only; a "
            "workbook in the 1904 date system counts them from 1 January 1904",
            "Microsoft Support, \"Date systems in Excel\"; tests/test_excel_cases.py::"
            "test_date_functions_in_the_1904_date_system", f"{_XL}.install:in_1904_system")
      for name in _DATES_1904),
    *(Patch(_F, TABLE, name, f"Excel's approximate {name} is a search by halving, whose "
            "answer is the documented one only on sorted values: formulas' is computed only "
            "when they are, refused otherwise", f"Microsoft Support, \"{name} "
            "function\" (the values must be sorted); tests/test_excel_lookups.py",
            f"{_XL}.install:approximate")
      for name in sorted(excel_functions.names("sorted_only", spelled=True))),
    Patch(_OPS, "OPERATORS", "@", "formulas' @ operator is its SINGLE: it intersects a "
          "one-cell reference or a row with the formula's row only (=@A1 in C5 and =@B1:D1 "
          "in C5 were #VALUE!); ours is Excel's SINGLE (addin.excel.references.single); "
          "Excel saves @ as _xlfn.SINGLE, another program may write @",
          "Microsoft Support, \"Implicit intersection operator: @\"; tests/"
          "test_excel_lookups.py::test_the_at_operator_in_formula_text_is_single",
          f"{_XL}.references:single", "udf"),
    Patch(_OPS, "OPERATORS", ":", "formulas' ':' between computed references "
          "(A1:INDEX(...)) has only the values of the two ends; Excel's is the area "
          "between, with the workbook's values", "Microsoft Support, \"INDEX function\"; "
          "tests/test_excel_lookups.py::test_index_of_a_whole_row_or_column "
          "(SUM(A1:INDEX(A1:C3,2,2))); given an error value, the cell keeps Excel's value, "
          "as the union's (tests/test_errors_in_place.py)", f"{_XL}.install:range_operator_in"),
    *(Patch(_OPS, "OPERATORS", sym, f"formulas' {what} of references given an error value "
            "(a deleted sheet's name, #REF!,#REF!) is #VALUE!; Excel's is not documented: "
            "the cell keeps the value Excel saved (ours gives the first error value)",
            "no page; LibreOffice gives #REF!; tests/test_errors_in_place.py::"
            "test_a_union_of_references_given_an_error_value_is_kept",
            f"{_XL}.install:reference_operator_given_an_error")
      for sym, what in ((",", "union"), (" ", "intersection"))),
    *(Patch(_F, TABLE, name, f"formulas' {name} matches its criteria over every cell of "
            "its ranges in every formula (a table's rows, each counting over 10,000 rows, "
            "match them 10,000 times); ours, last of napkin's changes to it, matches each "
            "criterion over a column without formulas once, with the same values",
            "the function itself on each formula's ranges: tests/test_criteria_columns.py",
            f"{_XL}.criteria_columns:over_columns")
      for name in ("COUNTIF", "COUNTIFS", "SUMIF", "SUMIFS", "AVERAGEIF", "AVERAGEIFS")),
    *(Patch(_F, TABLE, name, f"formulas' {name} given an error value where it takes a "
            "range matches its criteria over it as over a cell (0, or #DIV/0!); Excel gives "
            "the error value", "[MS-VSDX] 2.2.11.2.2.2.8; the 70 cells Excel saved of "
            "SUMIFS(#REF!,#REF!,A4) in the business corpus's eleventh part (seen); "
            "tests/test_errors_given.py::test_an_error_value_in_place_of_a_range",
            f"{_XL}.criteria_columns:range_given_an_error")
      for name in ("COUNTIF", "COUNTIFS", "SUMIF", "SUMIFS", "AVERAGEIF", "AVERAGEIFS")),
)

#: step functions refused where the doubt of their number's last digits (downstream of
#: PMT, ^...) could change them: last, around whichever function stands there
_DOUBT = tuple(Patch(_F, TABLE, name, f"{name} of a number whose last digits may not be "
                     "Excel's, near where its result changes: refused in strict mode",
                     "tests/test_discrete_doubt.py (INT(LOG10(1000)), ROUND(1.5^2,1))",
                     "addin.formula.discrete_doubt:guarded") for name in discrete_doubt.STEPS)

#: every change napkin makes to formulas, in the order ``ready()`` makes them
PATCHES: tuple[Patch, ...] = (*_FORMULAS, *_EXCEL, *_DOUBT)
