"""Excel's statistical functions: what napkin knows of each, one declaration a function
(``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import excel

excel("AVERAGE", "scalars, cells, ranges, numeric text, empty",
      "values Excel saved in tests/corpus/poi/48539.xlsx, "
      "tests/corpus/poi/55906-MultiSheetRefs.xlsx and 1 more (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); "
      "tests/test_excel_functions.py (values asserted there)",
      value_context=True, three_d=True)
excel("AVERAGEIF", "scalars, cells, ranges, numeric text, empty",
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py) ; "
      "tests/test_excel_referee.py::test_sumif_and_averageif_add_numbers_only (Microsoft "
      "Support, \"AVERAGEIF function\": cells in average_range that are empty or hold text are "
      "ignored; the text \"40\" left out, an empty cell of range matched by \"<>5\")")
excel("CORREL", array_context=True)
excel("COUNT", "scalars, cells, ranges, arrays, numeric text, empty",
      "values Excel saved in tests/corpus/poi/55906-MultiSheetRefs.xlsx, "
      "tests/corpus/poi/ForShifting.xlsx and 1 more (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); "
      "tests/test_excel_functions.py (values asserted there) ; "
      "tests/test_excel_functions.py::test_negative_numbers_in_array_constants (Microsoft "
      "Support, \"COUNT function\": in an array only its numbers are counted)",
      value_context=True, three_d=True)
excel("COUNTA", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/poi/49966.xlsx, "
      "tests/corpus/poi/55906-MultiSheetRefs.xlsx and 3 more (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); "
      "tests/test_excel_text.py (values asserted there)",
      value_context=True, three_d=True)
excel("COUNTBLANK", "ranges, empty",
      "values Excel saved in tests/corpus/poi/59132.xlsx (tests/test_fidelity.py); "
      "tests/test_excel_functions.py (values from Microsoft's documented examples or worked by"
      " hand)")
excel("COUNTIF", "scalars, cells, ranges, empty",
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); "
      "tests/test_excel_core.py (values asserted there)",
      value_args=(1,))
excel("COUNTIFS", "scalars, ranges, empty",
      "values Excel saved in tests/corpus/poi/56822-Countifs.xlsx (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py)")
excel("COVAR", array_context=True)
excel("FORECAST", array_context=True)
excel("FREQUENCY", array_context=True)
excel("GROWTH", array_context=True, differs="GROWTH")
excel("HARMEAN", "ranges",
      "tests/test_checked_forms.py (Microsoft's HARMEAN example)")
excel("INTERCEPT", array_context=True)
excel("LARGE", "scalars, ranges, numeric text, empty",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); tests/test_checked_widened.py (Microsoft's LARGE examples)")
excel("LINEST", array_context=True, differs="LINEST")
excel("LOGEST", array_context=True, differs="LOGEST")
excel("MAX", "scalars, cells, ranges, arrays, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, tests/corpus/poi/49966.xlsx and 2 "
      "more (tests/test_fidelity.py); workbook/napkin.xlsx, its values equal to LibreOffice's "
      "(tests/test_template.py); tests/test_excel_functions.py (values asserted there) ; "
      "tests/test_excel_functions.py::test_negative_numbers_in_array_constants (Microsoft "
      "Support, \"MAX function\": in an array only its numbers are used; \"Use array constants in"
      " array formulas\")",
      value_context=True, three_d=True)
excel("MEDIAN", "scalars, ranges, numeric text, empty",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); tests/test_checked_widened.py (Microsoft's MEDIAN examples)",
      value_context=True)
excel("MIN", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, "
      "tests/corpus/poi/55906-MultiSheetRefs.xlsx and 1 more (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py) ; "
      "tests/test_checked_forms.py::test_min_of_an_error_value (Microsoft Support, \"MIN "
      "function\": error values as arguments cause errors)",
      value_context=True, three_d=True)
excel("MODE", "ranges",
      "tests/test_checked_forms.py (Microsoft's MODE example)")
excel("MODE.MULT", "arrays",
      "tests/test_excel_cases.py (values from Microsoft's documented examples or worked by "
      "hand)",
      xlfn=True)
excel("PEARSON", array_context=True)
excel("RANK", "scalars, cells, ranges",
      "values Excel saved in tests/corpus/poi/61063.xlsx (tests/test_fidelity.py)",
      no_logical=("number",))
excel("RSQ", array_context=True)
excel("SLOPE", array_context=True)
excel("SMALL", "scalars, ranges, arrays",
      "Microsoft's documented example (tests/test_excel_functions.py); workbook/napkin.xlsx's "
      "Cost sheet, its values equal to LibreOffice's (tests/test_template.py)")
excel("STDEV", "scalars, cells, ranges",
      "values Excel saved in tests/corpus/poi/48539.xlsx (tests/test_fidelity.py); "
      "tests/test_excel_functions.py (values asserted there)",
      value_context=True, three_d=True)
excel("STDEV.P", xlfn=True, three_d=True)
excel("STDEV.S", xlfn=True, three_d=True)
excel("STDEVP", three_d=True)
excel("STEYX", array_context=True)
excel("TREND", array_context=True, differs="TREND")
excel("VAR", "ranges",
      "values Excel saved in tests/corpus/poi/48539.xlsx (tests/test_fidelity.py)",
      value_context=True, three_d=True)
excel("VAR.P", xlfn=True, three_d=True)
excel("VAR.S", xlfn=True, three_d=True)
excel("VARP", three_d=True)
