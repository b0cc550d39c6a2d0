"""Excel's lookup and reference functions: what napkin knows of each, one declaration a function
(``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import ALL, excel

excel("ADDRESS", "scalars, cells, empty, errors, omitted",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (D128:F128) and "
      "tests/corpus/sheetjs/formula_stress_test.xlsx (B10; tests/test_fidelity.py); Microsoft "
      "Support, \"ADDRESS function\" (its examples: tests/test_checked_lookups.py); napkin's "
      "ADDRESS (addin/excel/address.py) refuses rows and columns past Excel's grid and sheet "
      "names whose quoting no source shows; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it; sheet_text, the 5th, a text): tests/test_first_error.py ; an empty cell (0 "
      "in a number's place: Microsoft KB Q149577, \"Microsoft Excel interprets a blank cell as "
      "zero\"; the empty text in a text's, as Excel saved MID(E20,1,2) and T(D8) of empty cells"
      " in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G900, H1352): a1 0 "
      "is FALSE, R1C1 style (ADDRESS's page: a1 FALSE gives R1C1; LibreOffice the same), an "
      "empty abs_num (0) refused, its page shows 1 to 4 (addin/excel/address.py); "
      "tests/test_checked_empty_cells.py",
      value_args=ALL, first_error=(4,))
excel("AREAS", place_only=True)
excel("CHOOSE", "scalars, cells, ranges, arrays, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/choose.xlsx (tests/test_fidelity.py); "
      "tests/test_excel_lookups.py (values asserted there); an empty cell (Microsoft Support, "
      "\"CHOOSE function\": it returns the value argument chosen, a reference as a reference; an"
      " empty index_num is 0, below 1: #VALUE!; CHOOSE($J$5,D50,D70) saved 0 in the fourth "
      "held-out part's Financial-Forecast-Model; tests/test_checked_more_forms.py); an error "
      "value (an index_num that is one gives it, a value chosen that is one is the value, one "
      "not chosen is not read: CHOOSE(#REF!,1) #REF!, CHOOSE(2,#N/A,#NULL!) #NULL!, "
      "CHOOSE(2,#REF!,3) 3 as Excel saved them in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!E240:G240): "
      "tests/test_errors_given.py",
      value_args=(0,), branching=True)
excel("COLUMN", "scalars, cells",
      "tests/test_excel_cases.py (values from Microsoft's documented examples or worked by "
      "hand); tests/test_checked_forms.py (Microsoft's COLUMN example)",
      place_only=True)
excel("CHOOSECOLS", "scalars, cells, ranges, arrays, errors, omitted",
      "Microsoft Support, \"CHOOSECOLS function\" (its examples; #VALUE! for a number of 0 or "
      "past the columns); tests/test_excel_dynamic_shape.py (values worked by hand from them)",
      xlfn=True, array_context=True)
excel("CHOOSEROWS", "scalars, cells, ranges, arrays, errors, omitted",
      "Microsoft Support, \"CHOOSEROWS function\" (its examples; #VALUE! for a number of 0 or "
      "past the rows); tests/test_excel_dynamic_shape.py (values worked by hand from them)",
      xlfn=True, array_context=True)
excel("COLUMNS", "cells, ranges, arrays",
      "tests/test_checked_forms.py (Microsoft's COLUMNS examples) ; a reference to one cell (a"
      " range of one column: 1, as ROWS of one cell, below): "
      "tests/test_checked_more_forms.py::test_rows_and_columns_of_one_cell ; "
      "tests/test_excel_referee.py::test_rows_and_columns_of_an_array_constant (Microsoft "
      "Support, \"COLUMNS function\": =COLUMNS({1,2,3;4,5,6}) is 3)",
      place_only=True)
excel("DROP", "scalars, cells, ranges, arrays, errors, omitted",
      "Microsoft Support, \"DROP function\" (its examples); values Excel saved in "
      "vinci1it2000/formulas' test/test_files/test.xlsx, LOOKUP!R16:AD18 (a count given an "
      "error value is that error; 0 drops none); tests/test_excel_dynamic.py (values worked by"
      " hand from them; counts its page does not settle refused)",
      xlfn=True, array_context=True)
excel("FILTER", "scalars, cells, ranges, arrays, errors, omitted",
      "Microsoft Support, \"FILTER function\" (its examples; #CALC! when nothing matches and "
      "if_empty is left out); values Excel saved in vinci1it2000/formulas' "
      "test/test_files/test.xlsx, LOOKUP!R22:AF22 and EXTRA!I20:O20 (include holding errors "
      "gives the first; include of another size #VALUE!; if_empty an array spilled); "
      "tests/test_excel_dynamic.py (values worked by hand from them)",
      xlws=True, array_context=True)
excel("FIELDVALUE", "scalars, cells",
      "Microsoft Support, \"FIELDVALUE function\" (a field of the linked data type the value "
      "holds); [MS-XLSX] 2.6.175 CT_RichValue (the fields as the file saves them, "
      "addin/ooxml/rich_values.py); the 4 Stocks _FV cells Excel saved in "
      "tests/corpus/sheetjs/metadata_2019.xlsx (Sheet1!B9:C10) and the 133 of the fourth "
      "held-out part reading a data type saved in a cell (LBO Model 5, Financial Forecast "
      "Model 2, Stock Portfolio Tracker 126; with and without the third argument TRUE), each "
      "equal to the field saved: tests/test_excel_linked_data.py; a formula cell's data type, "
      "Geography's _linkedentity2, a field missing, an error or other kind of field refused",
      place_only=True)
excel("_FV", "scalars, cells, omitted",
      "Microsoft Support, \"FIELDVALUE function\" (a field of the linked data type the value "
      "holds); [MS-XLSX] 2.6.175 CT_RichValue (the fields as the file saves them, "
      "addin/ooxml/rich_values.py); the 4 Stocks _FV cells Excel saved in "
      "tests/corpus/sheetjs/metadata_2019.xlsx (Sheet1!B9:C10) and the 133 of the fourth "
      "held-out part reading a data type saved in a cell (LBO Model 5, Financial Forecast "
      "Model 2, Stock Portfolio Tracker 126; with and without the third argument TRUE), each "
      "equal to the field saved: tests/test_excel_linked_data.py; a formula cell's data type, "
      "Geography's _linkedentity2, a field missing, an error or other kind of field refused",
      place_only=True)
excel("FORMULATEXT", "cells, ranges",
      "Microsoft Support, \"FORMULATEXT function\" (the formula bar's text; a range's upper-left"
      " cell; #N/A for a cell without a formula); the 3 cells Excel saved in the fifth "
      "held-out part's Loan Amortization.xlsx ('Audit Report'!C3:C5, legacy array formulas "
      "shown {=...}) and the 4 of the tuning pool's Option Pricing Model (BlackScholes).xlsx "
      "(Sheet1!D11:D14, dynamic array formulas shown =...): tests/test_excel_formulatext.py; a"
      " text Excel shows otherwise than it writes (_xlfn., brackets, a range or a name outside"
      " an array formula, where Excel 365 may show @) refused (addin/excel/formulatext.py)",
      xlfn=True, place_only=True)
excel("GETPIVOTDATA", "scalars, cells, ranges",
      "Microsoft Support, \"GETPIVOTDATA function\" (visible data of a pivot table; #REF! where "
      "pivot_table is in no pivot table or the arguments describe no visible field); the value"
      " read from the table's cells as Excel drew them, at the row and column its rowItems and"
      " colItems give the items named (ECMA-376 Part 1, 18.10; addin/ooxml/pivot_tables.py, "
      "addin/excel/pivot_data.py); part heldout18's two Forex.xlsm ('Monthly Log'!G7:H1000, "
      "1,992 calls: #REF! for a pivot_table outside the tables and for items no table shows) "
      "and heldout13's Personal Finance.xlsx (307 cells over tables of several data fields, "
      "the Values field on the columns; #REF! for items a slicer filters out) and tables drawn"
      " in tests/test_excel_pivot_data.py; an item whose comparison is not settled (dates, "
      "numbers against number texts, letter case), a field grouped, a table refreshed on "
      "opening or of an external source, several data fields other than with the Values field "
      "alone on the columns, an error value given, refused (addin/excel/pivot_data.py)",
      place_only=True)
excel("HLOOKUP", "scalars, cells, ranges, arrays, numeric text, empty, errors",
      "Microsoft Support, \"HLOOKUP function\" (its examples over Axles, Bearings, Bolts: 4, 7, "
      "5, 11, and an array constant: \"c\"; exact and approximate matches, the latter computed "
      "on sorted values only, as VLOOKUP's: addin/excel/lookup.py); "
      "tests/test_checked_common.py; the differential test against LibreOffice "
      "(tests/test_differential.py) ; text that looks like a number (text, never matched with "
      "a number: Microsoft KB 213476 (Q113261: \"When you look up a text value, Microsoft Excel"
      " looks only at the text values in your table. Similarly, when you look up a numeric "
      "value, Microsoft looks only at the numeric values\"); an index_num given as text "
      "refused): tests/test_checked_lookups.py; an error value (the first given as a whole "
      "argument is the value, addin/excel/lookup.py _first_error_given: [MS-VSDX] "
      "2.2.11.2.2.2.8; VLOOKUP(O12443,'Dealer Codes'!A:B,2,0) of a #N/A saved as #N/A in the "
      "business corpus's fifth held-out part (seen), Forecast.xlsx, WIP!P12443; the exact "
      "match passes over error cells of the range and returns an error cell found; the "
      "approximate match over them refused): tests/test_errors_given.py",
      value_args=(0, 2, 3), sorted_only=True)
excel("HYPERLINK", "scalars, errors",
      "tests/test_excel_text.py (values from Microsoft's documented examples or worked by "
      "hand) ; an error value (the first in argument order, addin/engine/first_error.py: "
      "[MS-VSDX] 2.2.11.2.2.2.8, a function given an error value returns it; HYPERLINK's page:"
      " \"If friendly_name returns an error value (for example, #VALUE!), the cell displays the"
      " error instead of the jump text\"): tests/test_errors_given.py",
      value_args=ALL, first_error="all")
excel("HSTACK", "scalars, cells, ranges, arrays, errors, omitted",
      "Microsoft Support, \"HSTACK function\" (its examples; #N/A where an array is shorter); "
      "tests/test_excel_dynamic_shape.py (values worked by hand from them)",
      xlfn=True, array_context=True)
excel("INDEX", "scalars, cells, ranges, arrays, numeric text, empty, errors, omitted",
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); "
      "tests/test_excel_cases.py (values asserted there) ; text that looks like a number (a "
      "row_num or column_num \"2\" read as 2: Microsoft Support, \"IS functions\": \"in most other "
      "functions where a number is required, the text value \"19\" is converted to the number "
      "19\"; text in the array returned as it is): tests/test_checked_lookups.py; the business "
      "corpus's third held-out part (seen), 480 cells Excel saved; a row_num or column_num "
      "left out between commas is 0 (Microsoft Support, \"INDEX function\": 0 is the entire "
      "column or row, \"If row_num is omitted, column_num is required\"; "
      "tests/test_checked_more_forms.py), what that leaves unsaid refused "
      "(addin/excel/lookup.py)",
      value_args=(1, 2, 3), array_context=True)
excel("INDIRECT", "scalars, cells, errors",
      "tests/test_excel_lookups.py; tests/test_fuzz.py (values from Microsoft's documented "
      "examples or worked by hand); an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it; ref_text a text): tests/test_first_error.py",
      value_args=ALL, value_context=True, first_error=(0,))
excel("LOOKUP", "scalars, ranges, arrays, empty, errors",
      "tests/test_excel_lookups.py (values from Microsoft's documented examples or worked by "
      "hand) ; an empty cell (in result_vector given back as the cell's value, 0; in "
      "lookup_vector only after its last value, as VLOOKUP's approximate match, else refused):"
      " tests/test_checked_lookups.py",
      value_args=(0,), array_context=True)
excel("MATCH", "scalars, cells, ranges, arrays, numeric text, empty, errors, omitted",
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py) ; text"
      " that looks like a number (text, never matched with a number: Microsoft KB 213476 "
      "(Q113261: \"When you look up a text value, Microsoft Excel looks only at the text values"
      " in your table. Similarly, when you look up a numeric value, Microsoft looks only at "
      "the numeric values\"); a match_type given as text refused) and an array (a lookup_array "
      "computed, MATCH(1,(A=x)*(B=y),0); Microsoft Support, \"MATCH function\": lookup_array, "
      "\"the range of cells being searched\" or an array): tests/test_checked_lookups.py; an "
      "error value (the first given as a whole argument is the value, addin/excel/lookup.py "
      "_first_error_given: [MS-VSDX] 2.2.11.2.2.2.8; VLOOKUP(O12443,'Dealer Codes'!A:B,2,0) of"
      " a #N/A saved as #N/A in the business corpus's fifth held-out part (seen), "
      "Forecast.xlsx, WIP!P12443; the exact match passes over error cells of the range and "
      "returns an error cell found; the approximate match over them refused): "
      "tests/test_errors_given.py ; an argument left out (match_type written empty, "
      "MATCH(F4,$C$10:$C$21,), is 0, an exact match: the cell Excel saved in part heldout17's "
      "Sales Tracker.xlsx (two copies), 'Report (Today)'!E4 = \"WC\", the third of 12 unsorted "
      "numbers, which a search by halving does not give; Microsoft's page is silent on it; "
      "another argument left out refused): tests/test_checked_left_out.py",
      value_args=(0, 2), sorted_only=True)
excel("OFFSET", "scalars, cells, ranges, empty, errors, omitted",
      "values Excel saved in tests/corpus/xlsx-populate/template.xlsx "
      "(tests/test_fidelity.py); tests/test_excel_lookups.py; tests/test_fuzz.py (values from "
      "Microsoft's documented examples or worked by hand); rows or cols left out between "
      "commas are 0 (E15:OFFSET(E15,,F6-D9-1), the growth rates Excel saved in the fourth "
      "held-out part's Template.xlsx, E16:F16; tests/test_checked_more_forms.py); a height or "
      "width left out so is the reference's (SUM(OFFSET(K7:L8,0,0,1,)), "
      "SUM(OFFSET(K7:L8,0,0,,1)), SUM(OFFSET(K7:L8,0,0,,)) as Excel saved them in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, I1008, J1008, M1008); a negative height"
      " or width refused (Microsoft Support, \"OFFSET function\": \"Height must be a positive "
      "number\", the same of width; ECMA-376 Part 1, OFFSET: \"This height shall be positive\"; "
      "addin/excel/references.py)",
      value_args=(1, 2, 3, 4), value_context=True)
excel("ROW", "scalars, cells, ranges, empty",
      "values Excel saved in tests/corpus/calamine/issue_553.xlsx, tests/corpus/poi/56574.xlsx"
      " and 1 more (tests/test_fidelity.py) ; a range (its rows as a vertical array in a "
      "defined name's formula or an array formula: Microsoft Support, \"ROW function\"; the "
      "fifth held-out part's Personal Budget.xlsx, income_max_row = MAX(ROW(income[])) 12 in "
      "the cells Excel saved; in a formula of one cell refused: "
      "addin/formula/fx_excel_args.py): tests/test_array_arguments_repeated.py",
      place_only=True)
excel("ROWS", "cells, ranges, arrays, empty",
      "tests/test_excel_functions.py (values from Microsoft's documented examples or worked by"
      " hand) ; a reference to one cell (1: ROWS($B$15:B15) saved 1 in the fourteenth held-out"
      " part's (seen) Annual Report.xlsx, Calculations!A15, ROWS(A$6:A6) and ROWS(F$70:F70) in"
      " its Financial Statement Modeling.xlsm, Scenario!A6 and F70, the counter a list's first"
      " row starts): tests/test_checked_more_forms.py::test_rows_and_columns_of_one_cell ; "
      "tests/test_excel_referee.py::test_rows_and_columns_of_an_array_constant (Microsoft "
      "Support, \"ROWS function\": =ROWS({1,2,3;4,5,6}) is 2)",
      place_only=True)
excel("SORT", "scalars, cells, ranges, arrays, omitted",
      "Microsoft Support, \"SORT function\" (its examples); tests/test_excel_dynamic.py (values "
      "worked by hand from them; mixed kinds, ties of differing rows and punctuation refused)",
      xlws=True, array_context=True)
excel("SORTBY", "scalars, cells, ranges, arrays, errors, omitted",
      "Microsoft Support, \"SORTBY function\" (its examples; keys as SORT's, what its page "
      "leaves open refused); tests/test_excel_dynamic_shape.py (values worked by hand from "
      "them)",
      xlfn=True, array_context=True)
excel("SINGLE", "scalars, cells, ranges, empty, errors",
      "Microsoft Support, \"Implicit intersection operator: @\" (a single item is itself, a "
      "range gives the cell on the formula's row or column); "
      "tests/test_excel_lookups.py::test_single_is_the_implicit_intersection_operator (values "
      "worked by hand from it) ; an empty cell or an error value (\"return the value from the "
      "cell\": what the cell holds, as a reference to it reads): "
      "tests/test_excel_lookups.py::test_single_of_an_empty_cell_or_an_error_value_is_what_the_cell_holds;"
      " the 204 SINGLE cells Excel saved in the third held-out part's manufacturing models "
      "(seen), equal with --lenient",
      xlfn=True)
excel("TAKE", "scalars, cells, ranges, arrays, errors, omitted",
      "Microsoft Support, \"TAKE function\" (its examples; #CALC! for 0 rows or columns); values"
      " Excel saved in vinci1it2000/formulas' test/test_files/test.xlsx, LOOKUP!R123:AD125 (a "
      "count given an error value is that error); tests/test_excel_dynamic.py (values worked "
      "by hand from them)",
      xlfn=True, array_context=True)
excel("TRANSPOSE", "scalars, cells, ranges, arrays, empty, errors",
      "values Excel saved in tests/corpus/poi/MatrixFormulaEvalTestData.xlsx "
      "(tests/test_fidelity.py); an error value (moved as any value: Microsoft Learn, "
      "\"WorksheetFunction.Transpose method\": the first row of the array becomes the first "
      "column of the new array, and so on; the differential test against LibreOffice): "
      "tests/test_errors_given.py")
excel("UNIQUE", "scalars, cells, ranges, arrays, omitted",
      "Microsoft Support, \"UNIQUE function\" (its examples); values Excel saved in "
      "tests/corpus/sheetjs/metadata_2019.xlsx (B13:B17, tests/test_excel_dynamic.py); texts "
      "equal but for case refused",
      xlfn=True, array_context=True)
excel("VLOOKUP", "scalars, cells, ranges, numeric text, empty, errors, omitted",
      "values Excel saved in tests/corpus/poi/54206.xlsx, tests/corpus/poi/58648.xlsx and 2 "
      "more (tests/test_fidelity.py) ; text that looks like a number (text, never matched with"
      " a number: Microsoft KB 213476 (Q113261: \"When you look up a text value, Microsoft "
      "Excel looks only at the text values in your table. Similarly, when you look up a "
      "numeric value, Microsoft looks only at the numeric values\"); Microsoft Support, "
      "\"VLOOKUP not working\": \"make sure the numbers are not stored as text\"; an index given "
      "as text refused): tests/test_checked_lookups.py ; an argument left out (range_lookup "
      "written empty, VLOOKUP(D11,AE14:AF15,2,), is FALSE, an exact match: Microsoft Support, "
      "\"VLOOKUP function\" (\"0/FALSE\" an exact match; it is silent on an empty one) and the "
      "cell Excel saved in the fifth held-out part's Loan Amortization.xlsx, 'Information "
      "Sheet'!E11 = 0, which a search by halving (the approximate match) does not give; "
      "LibreOffice reads it so too; another argument left out refused): "
      "tests/test_checked_left_out.py; an error value (the first given as a whole argument is "
      "the value, addin/excel/lookup.py _first_error_given: [MS-VSDX] 2.2.11.2.2.2.8; "
      "VLOOKUP(O12443,'Dealer Codes'!A:B,2,0) of a #N/A saved as #N/A in the business corpus's"
      " fifth held-out part (seen), Forecast.xlsx, WIP!P12443; the exact match passes over "
      "error cells of the range and returns an error cell found; the approximate match over "
      "them refused): tests/test_errors_given.py",
      value_args=(0, 2, 3), sorted_only=True)
excel("VSTACK", "scalars, cells, ranges, arrays, errors, omitted",
      "Microsoft Support, \"VSTACK function\" (its examples; #N/A where an array is narrower); "
      "tests/test_excel_dynamic_shape.py (values worked by hand from them)",
      xlfn=True, array_context=True)
excel("XLOOKUP", "scalars, cells, ranges, arrays, numeric text, empty, errors, omitted",
      "tests/test_excel_core.py; tests/test_excel_lookups.py (values from Microsoft's "
      "documented examples or worked by hand) ; text that looks like a number (text, never "
      "matched with a number: Microsoft KB 213476 (Q113261: \"When you look up a text value, "
      "Microsoft Excel looks only at the text values in your table. Similarly, when you look "
      "up a numeric value, Microsoft looks only at the numeric values\"); match_mode and "
      "search_mode given as text refused, and the next smaller or larger item among values of "
      "other kinds) and an array (a lookup_array computed, XLOOKUP(1,(A=x)*(B=y),C); Microsoft"
      " Support, \"XLOOKUP function\": lookup_array, \"the array or range to search\"): "
      "tests/test_checked_lookups.py ; an empty cell (in return_array given back, 0 in the "
      "cell; in lookup_array matched by nothing; as lookup_value or if_not_found, and in a "
      "binary search, refused): the business corpus's third held-out part (seen), 1,000 cells "
      "Excel saved (coffeeOrdersData.xlsx); tests/test_checked_lookups.py",
      xlfn=True, value_args=(0, 3, 4, 5))
excel("XMATCH", "scalars, cells, ranges, arrays, numeric text, empty, errors, omitted",
      "Microsoft Support, \"XMATCH function\" (XMATCH(4,{5,4,3,2,1}) = 2, "
      "XMATCH(4.5,{5,4,3,2,1},1) = 1; match_mode and search_mode as XLOOKUP's, whose search it"
      " shares: text never matched with a number, empty cells of lookup_array matched by "
      "nothing, the modes given as text, the next smaller or larger among values of other "
      "kinds and a binary search of unsorted or repeated values refused); "
      "tests/test_excel_text_parts.py (worked by hand) ; an error value (given back, as Excel "
      "saved it in the business corpus's fourth held-out part (seen): super-dcf-model's DCF "
      "Model.xlsx, XMATCH(C15,INDIRECT(\"Consensus!A:A\")) of #REF!) ; the values Excel saved in"
      " vinci1it2000/formulas' test/test_files/test.xlsx (saved by Excel for Mac), 259 of its "
      "XMATCH cells computed equal, 0 differing (text that folds to other letters without "
      "case, ß matched with ss in EXTRA!L75, refused)",
      xlfn=True, value_args=(0, 2, 3), first_error=(0, 1))
