"""Excel's information functions: what napkin knows of each, one declaration a function
(``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import ALL, excel

excel("ERROR.TYPE", "scalars, cells, arrays, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/ErrorTypes.xlsx (tests/test_fidelity.py); "
      "tests/test_engine.py (values from Microsoft's documented examples or worked by hand) ; "
      "an empty cell (0 in a number's place: Microsoft KB Q149577, \"Microsoft Excel interprets"
      " a blank cell as zero\"; the empty text in a text's, as Excel saved MID(E20,1,2) and "
      "T(D8) of empty cells in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!G900, H1352): #N/A, no error, as Excel saved ERROR.TYPE(A14) of an "
      "empty cell (EverythingTests!K460); tests/test_checked_empty_cells.py",
      value_args=ALL)
excel("ISBLANK", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/59132.xlsx (tests/test_fidelity.py); "
      "tests/test_native.py (values from Microsoft's documented examples or worked by hand) ; "
      "an error value (FALSE: Microsoft Support, \"IS functions\", ISBLANK is TRUE for an empty "
      "cell only); tests/test_checked_common_more.py",
      elementwise=True, value_args=ALL, value_context=True)
excel("ISERR", "scalars, cells, arrays, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/ErrorTypes.xlsx (tests/test_fidelity.py) ; "
      "an empty cell (0 in a number's place: Microsoft KB Q149577, \"Microsoft Excel interprets"
      " a blank cell as zero\"; the empty text in a text's, as Excel saved MID(E20,1,2) and "
      "T(D8) of empty cells in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!G900, H1352): FALSE, as Excel saved ISERR(C5) of an empty cell "
      "(tests/corpus/sheetjs/formula_stress_test.xlsx, Information!B5); "
      "tests/test_checked_empty_cells.py",
      elementwise=True, value_args=ALL, value_context=True)
excel("ISERROR", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/poi/ValueFunctionOfBlank.xlsx "
      "(tests/test_fidelity.py); workbook/napkin.xlsx, its values equal to LibreOffice's "
      "(tests/test_template.py) ; "
      "tests/test_checked_forms.py::test_if_and_isnumber_over_ranges_in_array_formulas "
      "(Microsoft Support, Guidelines and examples of array formulas: each item of a range in "
      "an array formula) ; an empty cell (FALSE: Microsoft Support, \"IS functions\", ISERROR is"
      " TRUE for an error value only); tests/test_checked_common_more.py",
      elementwise=True, value_args=ALL, value_context=True)
excel("ISEVEN", "scalars, cells",
      "Microsoft Support, \"ISEVEN function\" (ISEVEN(-1) FALSE, ISEVEN(2.5) TRUE (truncated), "
      "ISEVEN(5) FALSE, ISEVEN(0) TRUE, a text #VALUE!); tests/test_checked_common.py",
      value_args=ALL, no_logical=("number",))
excel("ISLOGICAL", "scalars, cells, empty, errors",
      "tests/test_native.py (values from Microsoft's documented examples or worked by hand)",
      elementwise=True, value_args=ALL, value_context=True)
excel("ISNA", "scalars, cells, arrays, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/ErrorTypes.xlsx (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py) ; an "
      "empty cell (0 in a number's place: Microsoft KB Q149577, \"Microsoft Excel interprets a "
      "blank cell as zero\"; the empty text in a text's, as Excel saved MID(E20,1,2) and T(D8) "
      "of empty cells in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900,"
      " H1352): FALSE, as Excel saved ISNA(AA14) of an empty cell (EverythingTests!H788); "
      "tests/test_checked_empty_cells.py",
      elementwise=True, value_args=ALL, value_context=True)
excel("ISNONTEXT", "scalars, cells, empty, errors",
      "Microsoft Support, \"IS functions\" (ISNONTEXT: TRUE for any value that is not text, and "
      "for a blank cell); tests/test_checked_common.py",
      elementwise=True, value_args=ALL, value_context=True)
excel("ISNUMBER", "scalars, cells, ranges, arrays, numeric text, empty, errors",
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); "
      "tests/test_excel_functions.py (values asserted there) ; "
      "tests/test_checked_forms.py::test_if_and_isnumber_over_ranges_in_array_formulas "
      "(Microsoft Support, Guidelines and examples of array formulas: each item of a range in "
      "an array formula) ; "
      "tests/test_checked_forms.py::test_if_and_isnumber_over_ranges_in_array_formulas "
      "(Microsoft Support, Guidelines and examples of array formulas: each item of an array in"
      " an array formula)",
      elementwise=True, value_args=ALL, value_context=True)
excel("ISODD", "scalars, cells",
      "Microsoft Support, \"ISODD function\" (ISODD(-1) TRUE, ISODD(2.5) FALSE, ISODD(5) TRUE); "
      "tests/test_checked_common.py",
      value_args=ALL, no_logical=("number",))
excel("ISTEXT", "scalars, cells, empty, errors",
      "tests/test_native.py (values from Microsoft's documented examples or worked by hand)",
      elementwise=True, value_args=ALL, value_context=True)
excel("N", "scalars, cells, numeric text, errors",
      "Microsoft Support, \"N function\" (N of 7, \"Even\", TRUE and the date 4/17/2011: 7, 0, 1, "
      "40650; N(\"7\") = 0; an error value is the result); addin/excel/number_value.py; "
      "tests/test_checked_criteria_extremes.py; the differential test "
      "(tests/test_differential.py)",
      elementwise=True, value_context=True)
excel("NA", "no argument",
      "values Excel saved in tests/corpus/poi/ValueFunctionOfBlank.xlsx "
      "(tests/test_fidelity.py); workbook/napkin.xlsx, its values equal to LibreOffice's "
      "(tests/test_template.py)",
      elementwise=True)
excel("TYPE", "scalars, cells, arrays, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/ErrorTypes.xlsx (tests/test_fidelity.py) ; "
      "an empty cell (0 in a number's place: Microsoft KB Q149577, \"Microsoft Excel interprets"
      " a blank cell as zero\"; the empty text in a text's, as Excel saved MID(E20,1,2) and "
      "T(D8) of empty cells in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!G900, H1352): 1, a number; tests/test_checked_empty_cells.py")
