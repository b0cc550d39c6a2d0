"""Excel's text functions: what napkin knows of each, one declaration a function
(``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import ALL, excel

excel("CHAR", "scalars, errors",
      "values Excel saved in tests/corpus/sheetjs/crlf.xlsx (tests/test_fidelity.py) ; a range"
      " or an array where it takes one value, in an array formula or inside SUMPRODUCT "
      "(element by element, each element its own call's value and checks, "
      "addin/formula/array_sizes.py each_element; arrays of different sizes refused): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py ; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("CLEAN", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/63934.xlsx (tests/test_fidelity.py) ; an empty "
      "cell (0 in a number's place: Microsoft KB Q149577, \"Microsoft Excel interprets a blank "
      "cell as zero\"; the empty text in a text's, as Excel saved MID(E20,1,2) and T(D8) of "
      "empty cells in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900, "
      "H1352): \"\"; tests/test_checked_empty_cells.py ; a range or an array where it takes one "
      "value, in an array formula or inside SUMPRODUCT (element by element, the result the "
      "broadcast of its arguments, an error value per element; arrays of different sizes "
      "refused, addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of "
      "array formulas\"; tests/test_elementwise_lifting.py ; an error value (the first in "
      "argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given"
      " an error value returns it): tests/test_errors_given.py ; text that looks like a number"
      " (a text like any other, its characters as written: Microsoft Support, \"CLEAN "
      "function\", whose argument is text; worked by hand; the differential test against "
      "LibreOffice, whose inputs hold such texts): tests/test_text_functions_numeric_text.py",
      elementwise=True, value_args=ALL, first_error="all")
excel("CODE", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/sheet_visibility.xlsx "
      "(tests/test_fidelity.py) ; an empty cell (0 in a number's place: Microsoft KB Q149577, "
      "\"Microsoft Excel interprets a blank cell as zero\"; the empty text in a text's, as Excel"
      " saved MID(E20,1,2) and T(D8) of empty cells in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900, H1352): CODE(\"\") "
      "#VALUE! (no first character); tests/test_checked_empty_cells.py ; a range or an array "
      "where it takes one value, in an array formula or inside SUMPRODUCT (element by element,"
      " the result the broadcast of its arguments, an error value per element; arrays of "
      "different sizes refused, addin/formula/array_sizes.py): Microsoft Support, \"Guidelines "
      "and examples of array formulas\"; tests/test_elementwise_lifting.py ; an error value "
      "(the first in argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a "
      "function given an error value returns it): tests/test_errors_given.py ; text that looks"
      " like a number (a text like any other, its characters as written: Microsoft Support, "
      "\"CODE function\", whose argument is text; worked by hand; the differential test against "
      "LibreOffice, whose inputs hold such texts): tests/test_text_functions_numeric_text.py",
      elementwise=True, value_args=ALL, first_error="all")
excel("CONCAT", "scalars, cells, ranges, arrays, numeric text, empty",
      "values Excel saved in tests/corpus/exceljs/formulas.xlsx, "
      "tests/corpus/xlcalculator/CONCAT.xlsx (tests/test_fidelity.py) ; "
      "tests/test_excel_functions.py::test_negative_numbers_in_array_constants (Microsoft "
      "Support, \"CONCAT function\": a text item is a string or an array of strings) ; text that"
      " looks like a number (joined as written: Microsoft Support, \"CONCAT function\", \"Text "
      "item to be joined\"; the 52 cells Excel saved in the fifth held-out part's Car "
      "Inventory.xlsx, N2:N53, e.g. N3 = CR04CARWHI047 joined from CR, 04, CAR, WHI and 047, "
      "the zeros kept): tests/test_checked_concat_text.py")
excel("CONCATENATE", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/calamine/issues.xlsx, "
      "tests/corpus/poi/TextFormatTests.xlsx and 3 more (tests/test_fidelity.py); an empty "
      "cell (read as 0, or as the empty text by the text functions): the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (tests/test_fidelity.py); an error value"
      " (given back, as Excel saved it in the business corpus's third held-out part (seen): "
      "Financial Model ( Trent comp).xlsx, 'Dupont Analysis'!B4; two different error values "
      "refused, which comes first no page says): tests/test_checked_lookups.py",
      value_args=ALL, value_context=True, first_error="all")
excel("DOLLAR", "scalars, cells, empty, errors",
      "tests/test_excel_text.py (values from Microsoft's documented examples or worked by "
      "hand) ; a reference to one cell holding a number (its value; a logical value refused): "
      "Microsoft Support, \"DOLLAR function\" (DOLLAR(1234.567,2) = $1,234.57); "
      "tests/test_checked_common.py; an error value (given back, as Excel saved it in the "
      "business corpus's third held-out part (seen): Financial Feasibility.xlsx, two cells; "
      "two different error values refused, which comes first no page says): "
      "tests/test_checked_lookups.py ; an empty cell (0 in a number's place: Microsoft KB "
      "Q149577, \"Microsoft Excel interprets a blank cell as zero\"; the empty text in a text's,"
      " as Excel saved MID(E20,1,2) and T(D8) of empty cells in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900, H1352): "
      "DOLLAR(D7) \"$0.00\" as Excel saved it (EverythingTests!G420), decimals 0; "
      "tests/test_checked_empty_cells.py",
      value_args=ALL, first_error=True)
excel("EXACT", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/EXACT.xlsx (tests/test_fidelity.py); an"
      " empty cell (read as 0, or as the empty text by the text functions): the cells Excel "
      "saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (tests/test_fidelity.py) ; a "
      "range or an array where it takes one value, in an array formula or inside SUMPRODUCT "
      "(element by element, the result the broadcast of its arguments, an error value per "
      "element; arrays of different sizes refused, addin/formula/array_sizes.py): Microsoft "
      "Support, \"Guidelines and examples of array formulas\"; tests/test_elementwise_lifting.py"
      " ; an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py"
      " ; text that looks like a number (a text like any other, its characters as written: "
      "Microsoft Support, \"EXACT function\", whose argument is text; worked by hand; the "
      "differential test against LibreOffice, whose inputs hold such texts): "
      "tests/test_text_functions_numeric_text.py",
      elementwise=True, value_args=ALL, first_error="all")
excel("FIND", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/FIND.xlsx (tests/test_fidelity.py) ; an"
      " empty cell (0 in a number's place: Microsoft KB Q149577, \"Microsoft Excel interprets a"
      " blank cell as zero\"; the empty text in a text's, as Excel saved MID(E20,1,2) and T(D8)"
      " of empty cells in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!G900, H1352): an empty find_text matches character start_num or 1 "
      "(Microsoft Support, \"FIND, FINDB functions\": \"If find_text is \"\" (empty text), FIND "
      "matches the first character in the search string\"), a start_num past within_text "
      "refused (addin/excel/refusals.py); tests/test_checked_empty_cells.py ; a range or an "
      "array where it takes one value, in an array formula or inside SUMPRODUCT (element by "
      "element, the result the broadcast of its arguments, an error value per element; arrays "
      "of different sizes refused, addin/formula/array_sizes.py): Microsoft Support, "
      "\"Guidelines and examples of array formulas\"; tests/test_elementwise_lifting.py; an "
      "error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=(0, 1))
excel("FIXED", value_args=ALL)
excel("LEFT", "scalars, cells, numeric text, empty, errors, omitted",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py) ; an empty cell (0 in a number's place: Microsoft KB Q149577, "
      "\"Microsoft Excel interprets a blank cell as zero\"; the empty text in a text's, as Excel"
      " saved MID(E20,1,2) and T(D8) of empty cells in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900, H1352): LEFT of "
      "it \"\", num_chars 0 \"\" (its page: num_chars greater than or equal to zero); "
      "tests/test_checked_empty_cells.py; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, value_context=True, first_error=(0,))
excel("LEN", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/56574.xlsx, "
      "tests/corpus/sheetjs/pivot_table_named_range.xlsx and 1 more (tests/test_fidelity.py); "
      "tests/test_engine.py (values asserted there); an error value (the first in argument "
      "order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error"
      " value returns it; LEN(#NUM!) #NUM! as Excel saved it in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!L832): "
      "tests/test_errors_given.py",
      elementwise=True, value_args=ALL, value_context=True, first_error="all")
excel("LOWER", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py) ; an empty cell (0 in a number's place: Microsoft KB Q149577, "
      "\"Microsoft Excel interprets a blank cell as zero\"; the empty text in a text's, as Excel"
      " saved MID(E20,1,2) and T(D8) of empty cells in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900, H1352): \"\"; "
      "tests/test_checked_empty_cells.py; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it; LOWER(#DIV/0!) #DIV/0! as Excel saved it in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!P876): "
      "tests/test_errors_given.py ; text that looks like a number (a text like any other, its "
      "characters as written: Microsoft Support, \"LOWER function\", whose argument is text; "
      "worked by hand; the differential test against LibreOffice, whose inputs hold such "
      "texts): tests/test_text_functions_numeric_text.py",
      elementwise=True, value_args=ALL, value_context=True, first_error="all")
excel("MID", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/FIND.xlsx, "
      "tests/corpus/xlcalculator/MID.xlsx (tests/test_fidelity.py) ; an empty cell (0 in a "
      "number's place: Microsoft KB Q149577, \"Microsoft Excel interprets a blank cell as "
      "zero\"; the empty text in a text's, as Excel saved MID(E20,1,2) and T(D8) of empty cells"
      " in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900, H1352): MID "
      "of it \"\" (EverythingTests!G900), num_chars 0 \"\", start_num 0 #VALUE! (its page: "
      "start_num less than 1); tests/test_checked_empty_cells.py; an error value (the first in"
      " argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function "
      "given an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, value_context=True, first_error=(0,))
excel("NUMBERVALUE", "scalars, cells, ranges, arrays, numeric text, empty, errors, omitted",
      "Microsoft Support, \"NUMBERVALUE function\" (2.500,27 with the decimal separator , and "
      "the group separator . is 2500.27, 9%% is 0.0009, 3 000 is 3000, a decimal separator "
      "twice #VALUE!); tests/test_excel_text_parts.py (worked by hand); the differential test "
      "against LibreOffice (tests/test_differential.py) ; an error value (given back, as Excel"
      " saved it in the business corpus's fourth held-out part (seen): super-dcf-model's DCF "
      "Model.xlsx and Template.xlsx, NUMBERVALUE(TEXTBEFORE(...)) of #REF!); separators left "
      "out (the locale's, which a workbook does not record) computed only for a text of "
      "digits, spaces and trailing % ; a number (itself), an empty cell (0), a logical value "
      "(#VALUE!), an error value and a range (element by element): the values Excel saved in "
      "vinci1it2000/formulas' test/test_files/test.xlsx (saved by Excel for Mac), "
      "TEXT!W27:AF28, rebuilt in tests/test_excel_text_parts.py, 15 of its cells computed "
      "equal, 0 differing",
      xlfn=True, value_args=ALL, first_error="all")
excel("PROPER", "scalars, cells, numeric text, empty, errors",
      "Microsoft Support, \"PROPER function\" (its three examples, 76BudGet giving 76Budget; "
      "text with letters beyond ASCII refused, addin/excel/text.py); "
      "tests/test_checked_common_more.py ; a range or an array where it takes one value, in an"
      " array formula or inside SUMPRODUCT (element by element, the result the broadcast of "
      "its arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py; an error value (the first in argument "
      "order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error"
      " value returns it): tests/test_errors_given.py ; text that looks like a number (a text "
      "like any other, its characters as written: Microsoft Support, \"PROPER function\", whose "
      "argument is text; worked by hand; the differential test against LibreOffice, whose "
      "inputs hold such texts): tests/test_text_functions_numeric_text.py",
      elementwise=True, value_args=ALL, first_error="all")
excel("REPLACE", "scalars, cells, numeric text, empty, errors",
      "Microsoft Support, \"REPLACE, REPLACEB functions\" (abcdefghijk -> abcde*k, 2009 -> 2010,"
      " 123456 -> @456); tests/test_checked_common.py; refused for a start_num below 1, a "
      "num_chars below 0, either not whole, and logical values (addin/excel/refusals.py) ; an "
      "empty cell (0 in a number's place: Microsoft KB Q149577, \"Microsoft Excel interprets a "
      "blank cell as zero\"; the empty text in a text's, as Excel saved MID(E20,1,2) and T(D8) "
      "of empty cells in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900,"
      " H1352): an empty old_text or new_text \"\", num_chars 0 (nothing replaced), start_num 0 "
      "refused as below 1; tests/test_checked_empty_cells.py ; a range or an array where it "
      "takes one value, in an array formula or inside SUMPRODUCT (element by element, each "
      "element its own call's value and checks, addin/formula/array_sizes.py each_element; "
      "arrays of different sizes refused): Microsoft Support, \"Guidelines and examples of "
      "array formulas\"; tests/test_elementwise_lifting.py ; an error value (the first in "
      "argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given"
      " an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=(0, 3))
excel("REPT", "scalars, cells, numeric text, errors",
      "Microsoft Support, \"REPT function\" (its example: *- three times is *-*-*-; number_times"
      " truncated; empty text for 0; #VALUE! past 32,767 characters); "
      "addin/excel/repeat_text.py; tests/test_checked_criteria_extremes.py; the differential "
      "test (tests/test_differential.py); a negative or logical number_times refused",
      value_args=ALL)
excel("RIGHT", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/RIGHT.xlsx (tests/test_fidelity.py) ; "
      "an empty cell (0 in a number's place: Microsoft KB Q149577, \"Microsoft Excel interprets"
      " a blank cell as zero\"; the empty text in a text's, as Excel saved MID(E20,1,2) and "
      "T(D8) of empty cells in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!G900, H1352): RIGHT of it \"\", num_chars 0 \"\"; "
      "tests/test_checked_empty_cells.py; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py ; text that looks like a number (a text like "
      "any other, its characters as written: Microsoft Support, \"RIGHT, RIGHTB functions\", "
      "whose argument is text; worked by hand; the differential test against LibreOffice, "
      "whose inputs hold such texts): tests/test_text_functions_numeric_text.py",
      elementwise=True, value_args=ALL, value_context=True, first_error=(0,))
excel("SEARCH", "scalars, cells, numeric text, empty, errors",
      "tests/test_excel_text.py (values from Microsoft's documented examples or worked by "
      "hand); tests/test_checked_forms.py (Microsoft's SEARCH examples of cells) ; an empty "
      "cell (0 in a number's place: Microsoft KB Q149577, \"Microsoft Excel interprets a blank "
      "cell as zero\"; the empty text in a text's, as Excel saved MID(E20,1,2) and T(D8) of "
      "empty cells in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900, "
      "H1352): an empty within_text (nothing found: #VALUE!); an empty find_text refused, "
      "SEARCH's page is silent (addin/excel/text.py); tests/test_checked_empty_cells.py ; a "
      "range or an array where it takes one value, in an array formula or inside SUMPRODUCT "
      "(element by element, each element its own call's value and checks, "
      "addin/formula/array_sizes.py each_element; arrays of different sizes refused): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py ; text that looks like a number (a text like "
      "any other, its characters as written: Microsoft Support, \"SEARCH, SEARCHB functions\", "
      "whose argument is text; worked by hand; the differential test against LibreOffice, "
      "whose inputs hold such texts): tests/test_text_functions_numeric_text.py",
      elementwise=True, value_args=ALL, first_error=(0, 1))
excel("SUBSTITUTE", "scalars, cells, numeric text, empty, errors",
      "Microsoft's documented examples (tests/test_excel_text.py); the helper cells napkin "
      "native writes, equal to napkin's values in LibreOffice (tests/test_native.py) ; a range"
      " or an array where it takes one value, in an array formula or inside SUMPRODUCT "
      "(element by element, the result the broadcast of its arguments, an error value per "
      "element; arrays of different sizes refused, addin/formula/array_sizes.py): Microsoft "
      "Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=(0, 1, 2))
excel("T", "scalars, cells, numeric text, empty",
      "values Excel saved in tests/corpus/sheetjs/1900.xlsx, tests/corpus/sheetjs/1904.xlsx "
      "(tests/test_fidelity.py) ; an empty cell (0 in a number's place: Microsoft KB Q149577, "
      "\"Microsoft Excel interprets a blank cell as zero\"; the empty text in a text's, as Excel"
      " saved MID(E20,1,2) and T(D8) of empty cells in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900, H1352): T(D8) of "
      "an empty cell \"\" as Excel saved it (EverythingTests!H1352); "
      "tests/test_checked_empty_cells.py",
      elementwise=True, value_context=True)
excel("TEXT", "scalars, cells, numeric text, empty, errors, 1904",
      "values Excel saved in tests/corpus/poi/59106.xlsx, "
      "tests/corpus/poi/DateFormatNumberTests.xlsx and 5 more (tests/test_fidelity.py); "
      "tests/test_excel_text.py (values asserted there); an empty cell read as 0 (Excel's "
      "empty cell in a number's place): the 199 cells of TEXT given an empty cell Excel saved "
      "in tests/corpus/poi/ElapsedFormatTests.xlsx, tests/corpus/poi/FormatChoiceTests.xlsx "
      "and 3 more (tests/test_fidelity.py), and the differential test against LibreOffice "
      "(tests/test_differential.py); an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it; a text value given back and format_text a text): tests/test_first_error.py",
      elementwise=True, value_args=ALL, value_context=True, date_system=True, first_error="all")
excel("TEXTJOIN", "scalars, ranges, empty, omitted",
      "tests/test_excel_core.py (values from Microsoft's documented examples or worked by "
      "hand)",
      xlfn=True)
excel("TEXTAFTER", "scalars, cells, ranges, arrays, numeric text, empty, errors, omitted",
      "Microsoft Support, \"TEXTAFTER function\" (its examples: TEXTAFTER(\"Red riding hood's, "
      "red hood\",\"hood\") = \"'s, red hood\", instance_num negative from the end, match_mode 1 "
      "without case, match_end 1, if_not_found); tests/test_excel_text_parts.py (worked by "
      "hand) ; text and an error value (given back, as Excel saved it in the business corpus's"
      " fourth held-out part (seen): super-dcf-model's DCF Model.xlsx and Template.xlsx, \"DCF "
      "(\"&TEXTAFTER(C229,\"(\") and TEXTAFTER(INDIRECT(...)) of #REF!) ; an array of delimiters "
      "(any cuts), instance_num 1.9 (1), TRUE (1) or an empty cell (#VALUE!), error values: "
      "the values Excel saved in vinci1it2000/formulas' test/test_files/test.xlsx (saved by "
      "Excel for Mac), TEXT!R44:AF44, rebuilt in tests/test_excel_text_parts.py, 16 of its "
      "cells computed equal, 0 differing",
      xlfn=True, value_args=(0, 2, 3, 4, 5), first_error=(0, 1, 5))
excel("TEXTBEFORE", "scalars, cells, ranges, arrays, numeric text, empty, errors, omitted",
      "Microsoft Support, \"TEXTBEFORE function\" (its examples: TEXTBEFORE(\"Red riding hood's, "
      "red hood\",\"hood\") = \"Red riding \", instance_num negative from the end, match_mode 1 "
      "without case, match_end 1: Socrates before a space is Socrates, if_not_found); "
      "tests/test_excel_text_parts.py (worked by hand) ; text and an error value (given back, "
      "as Excel saved it in the business corpus's fourth held-out part (seen): "
      "super-dcf-model's DCF Model.xlsx and Template.xlsx, TEXTBEFORE($C$53,\" as\") and "
      "TEXTBEFORE(INDIRECT(\"Consensus!A2\"),\"|\") of #REF!) ; an array of delimiters, numbers as"
      " text (1.9 is 1.9), instance_num truncated: the values Excel saved in "
      "vinci1it2000/formulas' test/test_files/test.xlsx (saved by Excel for Mac), "
      "TEXT!R45:AF45, rebuilt in tests/test_excel_text_parts.py, 14 of its cells computed "
      "equal, 0 differing",
      xlfn=True, value_args=(0, 2, 3, 4, 5), first_error=(0, 1, 5))
excel("TEXTSPLIT", "scalars, cells, arrays, numeric text, empty, errors, omitted",
      "Microsoft Support, \"TEXTSPLIT function\" (its examples: TEXTSPLIT(\"Dakota Lennon "
      "Sanchez\",\" \"), a row_delimiter, an array of delimiters, ignore_empty, pad_with); "
      "tests/test_excel_text_parts.py (worked by hand) ; an error value (given back, as Excel "
      "saved it in the business corpus's fourth held-out part (seen): super-dcf-model's DCF "
      "Model.xlsx, INDEX(TEXTSPLIT(C5,\"-\"),,2) of #REF!) ; a number or TRUE as a delimiter "
      "(its text), an empty one #VALUE!: the values Excel saved in vinci1it2000/formulas' "
      "test/test_files/test.xlsx (saved by Excel for Mac), TEXT!R47:AF47, rebuilt in "
      "tests/test_excel_text_parts.py, 18 of its cells computed equal, 0 differing",
      xlfn=True, value_args=(0, 3, 4, 5), first_error=(0, 1, 2, 5))
excel("TRIM", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/63934.xlsx (tests/test_fidelity.py); values "
      "Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (tests/test_fidelity.py);"
      " an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it; UPPER, LOWER, LEN, REPLACE "
      "given an error saved it): tests/test_first_error.py",
      elementwise=True, value_args=ALL, value_context=True, first_error="all")
excel("UPPER", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it; UPPER(#NUM!) #NUM! as Excel saved it in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!Q1436): "
      "tests/test_errors_given.py ; text that looks like a number (a text like any other, its "
      "characters as written: Microsoft Support, \"UPPER function\", whose argument is text; "
      "worked by hand; the differential test against LibreOffice, whose inputs hold such "
      "texts): tests/test_text_functions_numeric_text.py",
      elementwise=True, value_args=ALL, value_context=True, first_error="all")
excel("VALUE", "scalars, cells, numeric text, errors",
      "values Excel saved in tests/corpus/poi/ValueFunctionOfBlank.xlsx "
      "(tests/test_fidelity.py); tests/test_excel_cases.py; tests/test_excel_text.py; "
      "tests/test_fuzz.py (values from Microsoft's documented examples or worked by hand) ; a "
      "reference to one cell (its value: Microsoft Support, \"VALUE function\": \"Text Required. "
      "The text enclosed in quotation marks or a reference to a cell containing the text you "
      "want to convert\"; its examples $1,000 1000 and 16:48:00 - 12:00:00 0.2 read from cells,"
      " a number, a logical value #VALUE!): tests/test_checked_empty_cells.py; an empty cell "
      "refused: \"\" is #VALUE! (tests/corpus/poi/ValueFunctionOfBlank.xlsx) while an empty cell"
      " is 0 as a number (Microsoft KB Q149577), and no page or saved cell says which VALUE "
      "takes; an error value (the first in argument order, addin/engine/first_error.py: "
      "[MS-VSDX] 2.2.11.2.2.2.8, a function given an error value returns it): "
      "tests/test_errors_given.py",
      elementwise=True, value_args=ALL, value_context=True, date_system=True, first_error="all")
