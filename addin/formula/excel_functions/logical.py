"""Excel's logical functions: what napkin knows of each, one declaration a function
(``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import ALL, excel

excel("AND", "scalars, cells, ranges, empty, errors",
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); "
      "tests/test_excel_core.py (values asserted there) ; a reference to one cell (Microsoft "
      "Support, \"AND function\": a reference's logical values are read, its text and empty "
      "cells ignored, #VALUE! when none is left); tests/test_checked_common.py; an empty cell "
      "of a reference (one cell too) left out, #VALUE! when no logical value is left "
      "(Microsoft Support, \"AND function\"); Excel saved AND(B7:B9,C9,D7,E7) = FALSE in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests!D136); "
      "tests/test_checked_empty_math.py",
      value_context=True)
excel("FALSE", "no argument",
      "values Excel saved in tests/corpus/poi/Booleans.xlsx (tests/test_fidelity.py); "
      "Microsoft Support, \"FALSE function\" (FALSE() is the logical value FALSE); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_rows.py)")
excel("IF", "scalars, cells, ranges, arrays, numeric text, empty, errors, omitted",
      "values Excel saved in tests/corpus/calamine/formula.issue.xlsx, "
      "tests/corpus/calamine/issue446.xlsx and 10 more (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); "
      "tests/test_engine.py (values asserted there) ; "
      "tests/test_checked_forms.py::test_if_and_isnumber_over_ranges_in_array_formulas "
      "(Microsoft Support, Guidelines and examples of array formulas: each item of a range in "
      "an array formula)",
      elementwise=True, value_args=(0,), value_context=True, branching=True)
excel("IFERROR", "scalars, cells, numeric text, empty, errors",
      "tests/test_engine.py (values from Microsoft's documented examples or worked by hand) ; "
      "a reference to one cell (its value, an error value replaced): Microsoft Support, "
      "\"IFERROR function\"; cells Excel saved in the business corpus's first held-out part "
      "(tools/business_corpus.csv, Lokesh-875/financial-modelling-portfolio: IFERROR('Data "
      "Sheet'!B17,0) over numbers, text and empty cells); tests/test_checked_stats.py",
      elementwise=True, value_args=ALL, value_context=True, branching=True)
excel("IFNA", "scalars, cells, empty, errors",
      "Microsoft Support, \"IFNA function\" (the value_if_na where value is #N/A, else value: "
      "another error value given back); tests/test_checked_common_more.py",
      xlfn=True, value_args=ALL, value_context=True, branching=True)
excel("IFS", "scalars, cells, empty",
      "Microsoft Support, \"IFS function\" (the value of the first TRUE logical_test, #N/A when "
      "none is TRUE, #VALUE! for a test other than TRUE or FALSE: a number, an empty cell or "
      "an error value as a test refused, addin/excel/logic.py); "
      "tests/test_checked_common_more.py ; an empty cell (0 in a number's place: Microsoft KB "
      "Q149577, \"Microsoft Excel interprets a blank cell as zero\"; the empty text in a text's,"
      " as Excel saved MID(E20,1,2) and T(D8) of empty cells in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900, H1352): a "
      "value_if_true of an empty cell 0; an empty logical_test refused (addin/excel/logic.py);"
      " tests/test_checked_empty_cells.py",
      xlfn=True, branching=True)
excel("NOT", "scalars, cells, arrays, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/NOT.xlsx (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py) ; "
      "tests/test_checked_forms.py::test_if_and_isnumber_over_ranges_in_array_formulas "
      "(Microsoft Support, Guidelines and examples of array formulas: each item of an array in"
      " an array formula); an empty cell (read as 0, Microsoft KB Q149577, \"XL: Formula to "
      "Correctly Evaluate Blank Cells\"): NOT(0) = TRUE, as Excel saved NOT(0) in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests!D980); "
      "tests/test_checked_empty_math.py ; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, value_context=True, first_error=True)
excel("OR", "scalars, cells, ranges, empty",
      "values Excel saved in tests/corpus/calamine/formula.issue.xlsx "
      "(tests/test_fidelity.py); workbook/napkin.xlsx, its values equal to LibreOffice's "
      "(tests/test_template.py); tests/test_excel_core.py (values asserted there); a range, "
      "and an empty cell of a reference (one cell too) left out, #VALUE! when no logical value"
      " is left (Microsoft Support, \"OR function\": \"If an array or reference argument contains"
      " text or empty cells, those values are ignored\"); Excel saved OR(D7,E7,E8,B18) = "
      "#VALUE! and the ranges of EverythingTests!E1020:K1020 in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (tests/test_fidelity.py); "
      "tests/test_checked_empty_math.py",
      value_context=True)
excel("SWITCH", "scalars, cells, ranges",
      "tests/test_excel_core.py (values from Microsoft's documented examples or worked by "
      "hand) ; a reference to one cell: as the expression, its value compared (Microsoft "
      "Support, \"SWITCH function\", its examples of SWITCH(A3,...) and SWITCH(A5,...): A3 = 99 "
      "matching no value, #N/A; A5 = 2, the default); as a result or default, the cell's value"
      " where the formula is the SWITCH alone, as Excel saved 5,000 cells of "
      "SWITCH(TRUE,M2=\"Out of Stock\",0,E2) (tools/business_corpus.csv, heldout7, "
      "Dey-Apurba/Inventory-Managment-Analysis), refused inside another call "
      "(addin/excel/logic.py); tests/test_checked_switch_cells.py",
      xlfn=True, branching=True)
excel("TRUE", "no argument",
      "values Excel saved in tests/corpus/poi/Booleans.xlsx (tests/test_fidelity.py); "
      "Microsoft Support, \"TRUE function\" (TRUE() is the logical value TRUE); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_rows.py)")
excel("XOR", "scalars, cells, ranges, empty, errors",
      "Microsoft Support, \"XOR function\" (XOR(3>0,2<9) = FALSE, XOR(3>12,4>6) = FALSE; TRUE "
      "when the number of TRUE inputs is odd; text and empty cells of an array or reference "
      "ignored, #VALUE! when no logical value is left); computed by AND's and OR's reading of "
      "arguments (addin/excel/logic.py); tests/test_checked_criteria_extremes.py (worked by "
      "hand); the differential test against LibreOffice (tests/test_differential.py)",
      xlfn=True, value_context=True)
