"""Excel's math and trigonometry functions: what napkin knows of each, one declaration a function
(``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import ALL, excel

excel("ABS", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/calamine/issue644.xlsx, "
      "tests/corpus/calamine/issue_644.xlsx and 2 more (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); "
      "tests/test_excel_functions.py (values asserted there); an empty cell (read as 0): the "
      "cell Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(EverythingTests!G96, ABS(D7) = 0; tests/test_checked_widened.py)",
      elementwise=True, value_args=ALL, value_context=True)
excel("AGGREGATE", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Math!B5, "
      "function_num and options in cells; its file computed since 7 December 2026 "
      "(tests/test_fidelity.py), and tests/test_excel_aggregate.py computes it); Microsoft "
      "Support, \"AGGREGATE function\" (function_num 1-19, options 0-7: nested SUBTOTAL and "
      "AGGREGATE, hidden rows, error values left out); the cells Excel saved in the business "
      "corpus's fourth held-out part (seen), Motilal_Oswal(1).xlsm, 'Comp Analysis'!P10:P15 "
      "(AGGREGATE(4,6,P5:P8) MAX, 17 QUARTILE.INC at 3 and 1, 12 MEDIAN, 1 AVERAGE, 5 MIN); "
      "tests/test_excel_aggregate.py; refused for function_num 13, 18, 19, an array in place "
      "of a reference, no numbers, option 4-7 over rows a filter hides, a k not whole for 14, "
      "15, 17, a k out of range, an error value as function_num or options "
      "(addin/excel/aggregate.py)",
      xlfn=True, array_context=True)
excel("BASE", "scalars, errors",
      "tests/test_excel_text.py (values from Microsoft's documented examples or worked by "
      "hand) ; an error value (the first in argument order, addin/engine/first_error.py: "
      "[MS-VSDX] 2.2.11.2.2.2.8, a function given an error value returns it): "
      "tests/test_errors_given.py",
      xlfn=True, value_args=ALL, first_error=True)
excel("CEILING", "scalars, cells, arrays, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, "
      "tests/corpus/xlcalculator/CEILING.xlsx (tests/test_fidelity.py); workbook/napkin.xlsx, "
      "its values equal to LibreOffice's (tests/test_template.py) ; "
      "tests/test_checked_forms.py::test_if_and_isnumber_over_ranges_in_array_formulas "
      "(Microsoft Support, Guidelines and examples of array formulas: each item of an array in"
      " an array formula); text that looks like a number (read as that number): the cells "
      "Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (tests/test_fidelity.py);"
      " an empty cell (read as 0, Microsoft KB Q149577, \"XL: Formula to Correctly Evaluate "
      "Blank Cells\"): the cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(EverythingTests!F212 CEILING(D9,D10) = 0, G212 CEILING(C12,D11) = 0: an empty "
      "significance gives 0); tests/test_checked_empty_math.py",
      elementwise=True, value_args=ALL, value_context=True)
excel("CEILING.MATH", "scalars",
      "tests/test_excel_core.py (values from Microsoft's documented examples or worked by "
      "hand) ; a range or an array where it takes one value, in an array formula or inside "
      "SUMPRODUCT (element by element, each element its own call's value and checks, "
      "addin/formula/array_sizes.py each_element; arrays of different sizes refused): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py",
      xlfn=True, elementwise=True)
excel("CEILING.PRECISE", xlfn=True)
excel("COMBIN", "scalars, cells, empty, errors",
      "tests/test_excel_functions.py (values from Microsoft's documented examples or worked by"
      " hand) ; a reference to one cell holding a number (its value; a logical value refused):"
      " Microsoft Support, \"COMBIN function\" (COMBIN(8,2) = 28); tests/test_checked_common.py "
      "; a range or an array where it takes one value, in an array formula or inside "
      "SUMPRODUCT (element by element, each element its own call's value and checks, "
      "addin/formula/array_sizes.py each_element; arrays of different sizes refused): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py; an empty cell (read as 0, Microsoft KB Q149577, \"XL:"
      " Formula to Correctly Evaluate Blank Cells\"): COMBIN(0,0) = COMBIN(5,0) = 1, #NUM! for "
      "number < number_chosen (its page); tests/test_checked_empty_math.py ; an error value "
      "(the first in argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a "
      "function given an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("COMBINA", "scalars, errors",
      "tests/test_excel_functions.py (values from Microsoft's documented examples or worked by"
      " hand) ; an error value (the first in argument order, addin/engine/first_error.py: "
      "[MS-VSDX] 2.2.11.2.2.2.8, a function given an error value returns it): "
      "tests/test_errors_given.py",
      xlfn=True, value_args=ALL, first_error=True)
excel("EVEN", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py) ; a range or an array where it takes one value, in an array "
      "formula or inside SUMPRODUCT (element by element, the result the broadcast of its "
      "arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py ; an error value (the first in argument "
      "order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error"
      " value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, bound=(0, 2.0 ** 53), first_error=True)
excel("EXP", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/COSH.xlsx (tests/test_fidelity.py); "
      "tests/test_excel_finance.py (Microsoft's EXP examples, worked by hand); the "
      "differential test against LibreOffice (tests/test_differential.py); an empty cell (read"
      " as 0, or as the empty text by the text functions): the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (tests/test_fidelity.py); an error value"
      " (the first in argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a"
      " function given an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, value_context=True, first_error=True)
excel("FACT", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py) ; a range or an array where it takes one value, in an array "
      "formula or inside SUMPRODUCT (element by element, the result the broadcast of its "
      "arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py ; an error value (the first in argument "
      "order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error"
      " value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, bound=(0, 20.0), first_error=True)
excel("FLOOR", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx (tests/test_fidelity.py); an empty "
      "cell (read as 0, Microsoft KB Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\")"
      " as its number only (0, a multiple of any significance); an empty significance refused:"
      " no page or Excel-saved cell gives FLOOR(x,0) (addin/formula/fx_excel_args.py "
      "floor_checked); tests/test_checked_empty_math.py ; an error value (the first in "
      "argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given"
      " an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, value_context=True, first_error=True)
excel("FLOOR.MATH", "scalars",
      "tests/test_excel_core.py (values from Microsoft's documented examples or worked by "
      "hand) ; a range or an array where it takes one value, in an array formula or inside "
      "SUMPRODUCT (element by element, each element its own call's value and checks, "
      "addin/formula/array_sizes.py each_element; arrays of different sizes refused): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py",
      xlfn=True, elementwise=True)
excel("FLOOR.PRECISE", xlfn=True)
excel("INT", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/ExcelTables.xlsx, "
      "tests/corpus/xlcalculator/INT.xlsx (tests/test_fidelity.py); tests/test_engine.py "
      "(values from Microsoft's documented examples or worked by hand); "
      "tests/test_checked_forms.py (Microsoft's INT examples; an empty cell, an error value)",
      elementwise=True, value_args=ALL, value_context=True, bound=(0, 2.0 ** 53))
excel("LN", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/LN.xlsx (tests/test_fidelity.py); "
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, value_context=True, first_error=True)
excel("LOG", "scalars, cells, numeric text, empty, errors, omitted",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); tests/test_checked_widened.py (Microsoft's LOG examples); an "
      "error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, value_context=True, bound=(1, None), first_error=True)
excel("LOG10", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/calamine/issue644.xlsx, "
      "tests/corpus/calamine/issue_644.xlsx (tests/test_fidelity.py); "
      "tests/test_checked_forms.py (Microsoft's LOG10 examples; an error value); an empty cell"
      " (read as 0, Microsoft KB Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\"): "
      "#NUM!, as LOG10(0); tests/test_checked_empty_math.py",
      elementwise=True, value_args=ALL, value_context=True)
excel("MDETERM", "scalars, cells, ranges, empty",
      "values Excel saved in tests/corpus/poi/MatrixFormulaEvalTestData.xlsx "
      "(tests/test_fidelity.py)",
      array_context=True)
excel("MINVERSE", "scalars, cells, ranges, empty",
      "values Excel saved in tests/corpus/poi/MatrixFormulaEvalTestData.xlsx "
      "(tests/test_fidelity.py); an inverse not exact in floating point refused ([MS-OI29500] "
      "2.1.996: \"an accuracy of at least 15 digits, which can lead to a small numeric error\"; "
      "addin/excel/refusals.py)",
      array_context=True)
excel("MMULT", "scalars, cells, ranges, empty",
      "values Excel saved in tests/corpus/poi/MatrixFormulaEvalTestData.xlsx "
      "(tests/test_fidelity.py)",
      array_context=True)
excel("MOD", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, "
      "tests/corpus/sheetjs/pivot_table_named_range.xlsx and 1 more (tests/test_fidelity.py); "
      "text that looks like a number (read as that number): the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (tests/test_fidelity.py); an empty cell "
      "(read as 0, Microsoft KB Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\"): the"
      " cell Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(EverythingTests!I932, MOD(D17,D16) = #DIV/0!, as the MOD page says of a divisor 0); "
      "tests/test_checked_empty_math.py; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, value_context=True, first_error=True)
excel("MROUND", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx (tests/test_fidelity.py) ; halves "
      "rounded away from zero, the quotient taken to 15 digits (Microsoft Support, \"MROUND "
      "function\": MROUND(1.3,0.2) = 1.4; addin/excel/refusals.py; "
      "tests/test_checked_lookups.py); an empty cell (read as 0, Microsoft KB Q149577, \"XL: "
      "Formula to Correctly Evaluate Blank Cells\") as its number only; an empty multiple "
      "refused: Microsoft's MROUND page gives no value for a multiple of 0 "
      "(addin/excel/refusals.py); tests/test_checked_empty_math.py ; an error value (the first"
      " in argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function "
      "given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, no_logical=("number", "multiple"), first_error=True)
excel("ODD", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py) ; a range or an array where it takes one value, in an array "
      "formula or inside SUMPRODUCT (element by element, the result the broadcast of its "
      "arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py; an empty cell (read as 0, Microsoft KB "
      "Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\"): ODD(0) = 1, 0 rounded up, "
      "away from zero, as its page says; tests/test_checked_empty_math.py ; an error value "
      "(the first in argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a "
      "function given an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, bound=(0, 2.0 ** 53), first_error=True)
excel("PI", "no argument",
      "values Excel saved in tests/corpus/poi/48539.xlsx, tests/corpus/xlcalculator/ACOS.xlsx "
      "and 4 more (tests/test_fidelity.py)")
excel("POWER", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, tests/corpus/xlcalculator/BASES.xlsx"
      " and 1 more (tests/test_fidelity.py); text that looks like a number (read as that "
      "number): the cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); an empty cell (read as 0, Microsoft KB Q149577, \"XL: Formula "
      "to Correctly Evaluate Blank Cells\"): the cell Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests!I1068, POWER(C9,D7) = "
      "1); tests/test_checked_empty_math.py; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, value_context=True, no_logical=(), first_error=True)
excel("PRODUCT", "scalars, cells, ranges, arrays, empty",
      "tests/test_excel_functions.py (values from Microsoft's documented examples or worked by"
      " hand) ; a reference to one cell (Microsoft Support, \"PRODUCT function\": only the "
      "numbers of a reference are multiplied; PRODUCT(A2:A4) = 2250, PRODUCT(A2:A4, 2) = "
      "4500); tests/test_checked_common.py; an array (Microsoft Support, "
      "\"WorksheetFunction.Product method\": \"If an argument is an array or reference, only "
      "numbers in the array or reference are counted\"; the array formulas "
      "{=PRODUCT(F3:F62+1)-1} Excel saved in the fourth held-out part's Return.xlsx, 4 cells; "
      "tests/test_checked_more_forms.py); an empty cell of a reference (a reference to one "
      "cell too) left out: Microsoft Learn, \"WorksheetFunction.Product method\" (\"Empty cells "
      "... in the array or reference are ignored\"); none left: 0, as Excel saved "
      "PRODUCT(D7:D10) in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(EverythingTests!L1084); tests/test_checked_empty_math.py",
      value_context=True, three_d=True)
excel("RAND", "no argument",
      "values Excel saved in tests/corpus/calamine/table_with_insertrow_attribute.xlsx "
      "(tests/test_fidelity.py)")
excel("RANDARRAY", "scalars, cells, omitted, no argument",
      "Microsoft Support, \"RANDARRAY function\" (rows and columns 1, min 0, max 1 and decimals "
      "when left out; #VALUE! unless min is less than max; TRUE whole numbers): "
      "tests/test_excel_dynamic_shape.py (the shape, the bounds and the kind of every draw "
      "checked; volatile like RAND, its cells left out of the census's comparisons)",
      xlfn=True)
excel("RANDBETWEEN", "scalars, cells",
      "Microsoft Support, \"RANDBETWEEN function\" (a random whole number from bottom to top, "
      "both included; #NUM! where bottom is above top): tests/test_checked_common_more.py (the"
      " bounds and the kind of every draw checked; volatile like RAND, its cells left out of "
      "the census's comparisons)")
excel("ROMAN", "scalars, cells, empty",
      "tests/test_checked_forms.py (Microsoft's ROMAN examples and forms) ; an empty cell (0 "
      "in a number's place: Microsoft KB Q149577, \"Microsoft Excel interprets a blank cell as "
      "zero\"; the empty text in a text's, as Excel saved MID(E20,1,2) and T(D8) of empty cells"
      " in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900, H1352): "
      "ROMAN(0) \"\", form 0 classic (ROMAN's page, ROMAN(499,0) CDXCIX); "
      "tests/test_checked_empty_cells.py")
excel("ROUND", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, tests/corpus/poi/56315.xlsx and 1 "
      "more (tests/test_fidelity.py); workbook/napkin.xlsx, its values equal to LibreOffice's "
      "(tests/test_template.py); its double near the midpoint of two (rounded to 64 bits, then"
      " 53): the tuning pool's Summary_Financials.xlsm, Fuel!N434 "
      "(tests/test_round_double.py); an empty cell (read as 0, Microsoft KB Q149577, \"XL: "
      "Formula to Correctly Evaluate Blank Cells\"): the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests!J1180, ROUND(D7,D8) = "
      "0) and num_digits 0 as its page says; tests/test_checked_empty_math.py",
      elementwise=True, value_args=ALL, value_context=True)
excel("ROUNDDOWN", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, "
      "tests/corpus/xlcalculator/ROUNDDOWN.xlsx (tests/test_fidelity.py); an error value "
      "(given back, as Excel saved it in the business corpus's third held-out part (seen): "
      "Financial Feasibility.xlsx, 60 cells of ROUNDDOWN of an error Excel saved as that "
      "error; two different error values refused, which comes first no page says): "
      "tests/test_checked_lookups.py; an empty cell (read as 0, Microsoft KB Q149577, \"XL: "
      "Formula to Correctly Evaluate Blank Cells\"): the cell Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests!H1184, ROUNDDOWN(D7,-1)"
      " = 0); tests/test_checked_empty_math.py",
      elementwise=True, value_args=ALL, value_context=True, first_error=True)
excel("ROUNDUP", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/calamine/issue446.xlsx, tests/corpus/poi/48539.xlsx "
      "and 1 more (tests/test_fidelity.py); text that looks like a number (read as that "
      "number): the cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); an error value (given back, as Excel saved it in the business"
      " corpus's third held-out part (seen): Cost Model.xlsx, Model!J59; two different error "
      "values refused, which comes first no page says): tests/test_checked_lookups.py; an "
      "empty cell (read as 0, Microsoft KB Q149577, \"XL: Formula to Correctly Evaluate Blank "
      "Cells\"): num_digits 0 as Microsoft's ROUNDUP page says; "
      "tests/test_checked_empty_math.py",
      elementwise=True, value_args=ALL, value_context=True, first_error=True)
excel("SEQUENCE", "scalars, cells, errors, omitted",
      "Microsoft Support, \"SEQUENCE function\" (=SEQUENCE(4,5) is 1 to 20 by rows; optional "
      "arguments left out are 1); tests/test_excel_dynamic_shape.py (values worked by hand) ; "
      "a start or step other than a whole number (the step added each time, bit for bit as "
      "Excel saved the cells of one row or column in the business corpus's fourth held-out "
      "part (seen): LBO Model.xlsx's SEQUENCE(1,5,2%,1%), SEQUENCE(5,1,11.5%,2%), "
      "SEQUENCE(5,1,70%,15%), Hedged vs Unhedged Foreign Currency Model.xlsx's "
      "SEQUENCE(12,1,1/1/2024,32); in several rows and columns refused): "
      "tests/test_excel_dynamic_shape.py; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it; a count given an error is that error: vinci1it2000/formulas' test.xlsx, "
      "saved by Excel, tests/test_excel_dynamic.py): tests/test_first_error.py",
      xlfn=True, first_error=True)
excel("SIGN", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py) ; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, value_context=True, first_error=True)
excel("SQRT", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx (tests/test_fidelity.py); an error "
      "value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it; SQRT of #N/A saved as #N/A "
      "in the business corpus's fourth held-out part (seen): Forecast.xlsx, 'Holt''s "
      "Method'!R90:R96, 4 cells): tests/test_first_error.py; an empty cell (read as 0, "
      "Microsoft KB Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\"): SQRT(0) = 0; "
      "tests/test_checked_empty_math.py",
      elementwise=True, value_args=ALL, value_context=True, first_error=True)
excel("SUBTOTAL", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/poi/59736.xlsx, "
      "tests/corpus/poi/DataTableCities.xlsx and 15 more (tests/test_fidelity.py); an error "
      "value, in a cell or in a range (the first in argument order, a range's cells row by "
      "row, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8; Microsoft Support, "
      "\"AGGREGATE function\": errors left out only by its options \"Ignore error values\", which "
      "SUBTOTAL has not; the function_num of COUNT and COUNTA (2, 3, 102, 103) reads error "
      "values as those functions do: first_error.COUNTING_SUBTOTALS, SUBTOTAL(2,F3:F185) over "
      "a #VALUE! saved as 0 in the business corpus's fifth held-out part, seen: Personal "
      "Budget - English.xlsx, Analysis!C7): tests/test_errors_given.py",
      value_args=(0,), first_error=True)
excel("SUM", "scalars, cells, ranges, arrays, numeric text, empty, errors, omitted",
      "values Excel saved in tests/corpus/calamine/column_row_ranges.xlsx, "
      "tests/corpus/calamine/formula.issue.xlsx and 38 more (tests/test_fidelity.py); "
      "tests/test_excel_functions.py (values asserted there); an argument left out adds "
      "nothing: SUM(M21,M16,) in 5 cells Excel saved in the first held-out part's Maruti "
      "Suzuki model (tests/test_checked_more_forms.py; Microsoft's SUM page is silent)",
      value_context=True, three_d=True)
excel("SUMIF", "scalars, cells, ranges, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/54206.xlsx, tests/corpus/poi/56420.xlsx "
      "(tests/test_fidelity.py) ; "
      "tests/test_excel_referee.py::test_sumif_and_averageif_add_numbers_only (Microsoft "
      "Support, \"SUMIF function\": blank and text values are ignored, the text \"40\" in "
      "sum_range is not added) ; a sum_range of another size than range, range's size from its"
      " upper leftmost cell (Microsoft Support, \"SUMIF function\"; worked by hand in "
      "tests/test_excel_referee.py::test_sumif_sizes_its_range_to_add; 22 cells Excel saved in"
      " part tune3 of tools/business_corpus.csv, Real Estate Private Equity Model.xlsx, 'Cash "
      "Flow'!E10:O11, SUMIF(Monthly.Revenue.Year#,E$3#,Forecast.Free.Rent), the name one cell "
      "sized to 132 rows, equal); an error value (addin/formula/error_criteria.py: skipped in "
      "a criteria range by a number criterion or a text one with no <>, wildcard or leading #,"
      " matched by an error criterion as SUMIF(AA7:AA13,C10:D10,C7) 1.1 saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!E1324; the rest "
      "refused): tests/test_errors_given.py; a criterion given as several cells over a range "
      "holding an error value refused (E1324's C10:D10, which Excel intersects with the "
      "formula's row in a one-cell formula and takes whole in an array context) ; a range as a"
      " criterion intersected with the formula's cell in a one-cell formula, as Excel does "
      "with an argument that takes one value (Microsoft Support, \"Implicit intersection "
      "operator: @\"; SUMIF(AA7:AA13,C10:D10,C7) 1.1 saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!E1324, C10:D10 outside "
      "row 1324 giving #VALUE!): tests/test_criteria_intersected.py",
      value_args=(1,))
excel("SUMIFS", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/SUMIFS.xlsx (tests/test_fidelity.py) ; "
      "a reference to one cell (a criteria read from it; a range of one cell beside ranges of "
      "another size refused): Microsoft Support, \"SUMIFS function\" (\"criteria can be entered "
      "as 32, \">32\", B4, \"apples\", or \"32\"\"); tests/test_checked_lookups.py ; an empty cell "
      "(of sum_range: adds nothing; of a criteria range: matched as COUNTIFS matches it, "
      "checked with empty cells on tests/corpus/poi/56822-Countifs.xlsx): "
      "tests/test_checked_ifs.py (worked by hand); an error value "
      "(addin/formula/error_criteria.py: skipped in a criteria range by a number criterion or "
      "a text one with no <>, wildcard or leading #, matched by an error criterion as "
      "SUMIF(AA7:AA13,C10:D10,C7) 1.1 saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx,"
      " EverythingTests!E1324; the rest refused): tests/test_errors_given.py ; a range as a "
      "criterion intersected with the formula's cell in a one-cell formula, as Excel does with"
      " an argument that takes one value (Microsoft Support, \"Implicit intersection operator: "
      "@\"; SUMIF(AA7:AA13,C10:D10,C7) 1.1 saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!E1324, C10:D10 outside "
      "row 1324 giving #VALUE!): tests/test_criteria_intersected.py",
      value_args=range(2, 255, 2))
excel("SUMPRODUCT", "ranges, arrays, numeric text, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/SUMPRODUCT.xlsx "
      "(tests/test_fidelity.py); tests/test_excel_cases.py; tests/test_excel_functions.py; "
      "tests/test_fuzz.py (values from Microsoft's documented examples or worked by hand) ; "
      "tests/test_excel_referee.py::test_sumproduct_of_different_dimensions (Microsoft "
      "Support, \"SUMPRODUCT function\": non-numeric array entries are treated as zeros: an "
      "empty cell's product is 0 read as 0 or as no number); an error value in an array is the"
      " result: tests/corpus/poi/FormulaEvalTestData_Copy.xlsx EverythingTests!K1328 (computed"
      " with its file, tests/test_fidelity.py; and tests/test_sumproduct_elements.py computes "
      "it); tests/test_sumproduct_elements.py (functions of one value computed element by "
      "element in its arguments; LibreOffice)",
      array_context=True, lifting=True)
excel("SUMSQ", "scalars, cells, ranges, numeric text, empty",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py)")
excel("SUMX2MY2", "ranges, arrays, empty",
      "Microsoft Support, \"SUMX2MY2 function\" (its example over 2,3,9,1,8,7,5 and "
      "6,5,11,7,5,4,4 = -55, ranges and array constants); tests/test_checked_common.py; "
      "refused unless both arrays hold numbers (or empty cells) only in the same shape "
      "(addin/excel/refusals.py); a pair with an empty cell left out, none left #DIV/0!: the "
      "cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(EverythingTests!E1340, K1340, G1344); tests/test_checked_empty_math.py",
      array_context=True)
excel("SUMX2PY2", "ranges, arrays, empty",
      "Microsoft Support, \"SUMX2PY2 function\" (its example over 2,3,9,1,8,7,5 and "
      "6,5,11,7,5,4,4 = 521, ranges and array constants); tests/test_checked_common.py; "
      "refused unless both arrays hold numbers (or empty cells) only in the same shape "
      "(addin/excel/refusals.py); a pair with an empty cell left out, none left #DIV/0!: the "
      "cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(EverythingTests!E1340, K1340, G1344); tests/test_checked_empty_math.py",
      array_context=True)
excel("SUMXMY2", "ranges, arrays, empty",
      "Microsoft Support, \"SUMXMY2 function\" (its example over 2,3,9,1,8,7,5 and "
      "6,5,11,7,5,4,4 = 79, ranges and array constants); tests/test_checked_common.py; refused"
      " unless both arrays hold numbers (or empty cells) only in the same shape "
      "(addin/excel/refusals.py); a pair with an empty cell left out, none left #DIV/0!: the "
      "cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(EverythingTests!E1340, K1340, G1344); tests/test_checked_empty_math.py",
      array_context=True)
excel("TRUNC", "scalars, cells, empty, errors, omitted",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); an error value (given back, as Excel saved it in the business"
      " corpus's third held-out part (seen): Cost Model.xlsx, Model!I91:J91; two different "
      "error values refused, which comes first no page says): tests/test_checked_lookups.py; a"
      " reference to one cell, an empty one read as 0 (Microsoft KB Q149577; Microsoft "
      "Support, \"TRUNC function\": num_digits 0 by default, TRUNC(8.9) = 8, TRUNC(-8.9) = -8, "
      "TRUNC(0.45) = 0, worked by hand over cells): tests/test_checked_empty_math.py",
      elementwise=True, value_args=ALL, value_context=True, bound=(1, 308.0), first_error=True)
