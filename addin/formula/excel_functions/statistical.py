"""Excel's statistical functions: what napkin knows of each, one declaration a function
(``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import excel

excel("AVERAGE", "scalars, cells, ranges, arrays, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, "
      "tests/corpus/poi/55906-MultiSheetRefs.xlsx and 1 more (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); "
      "tests/test_excel_functions.py (values asserted there) ; an error value (the result): "
      "Microsoft Support, \"AVERAGE function\" (error values as arguments cause errors); "
      "tests/test_checked_common.py; refused where the arguments hold two different error "
      "values (which comes first is not documented: addin/excel/aggregates.py) ; an array of "
      "numbers (its mean; an array holding a text, logical or empty value refused: the page "
      "speaks of ranges, addin/excel/aggregates.py): the cells Excel saved in the business "
      "corpus's fourth held-out part (seen), Cost Model.xlsx, Model!AA25 = "
      "+AA24*(AVERAGE($W$25:$Z$25/$W$24:$Z$24)) as an array formula, 14 cells; "
      "tests/test_checked_paired.py",
      value_context=True, three_d=True)
excel("AVERAGEIF", "scalars, cells, ranges, numeric text, empty, errors",
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py) ; "
      "tests/test_excel_referee.py::test_sumif_and_averageif_add_numbers_only (Microsoft "
      "Support, \"AVERAGEIF function\": cells in average_range that are empty or hold text are "
      "ignored; the text \"40\" left out, an empty cell of range matched by \"<>5\") ; an "
      "average_range of another size than range, range's size from its top left cell "
      "(Microsoft Learn, \"WorksheetFunction.AverageIf method\"; worked by hand in "
      "tests/test_excel_referee.py::test_sumif_sizes_its_range_to_add); an error value "
      "(addin/formula/error_criteria.py: skipped in a criteria range by a number criterion or "
      "a text one with no <>, wildcard or leading #, matched by an error criterion as "
      "SUMIF(AA7:AA13,C10:D10,C7) 1.1 saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx,"
      " EverythingTests!E1324; the rest refused): tests/test_errors_given.py; a criterion "
      "given as several cells over a range holding an error value refused (E1324's C10:D10, "
      "which Excel intersects with the formula's row in a one-cell formula and takes whole in "
      "an array context) ; a range as a criterion intersected with the formula's cell in a "
      "one-cell formula, as Excel does with an argument that takes one value (Microsoft "
      "Support, \"Implicit intersection operator: @\"; SUMIF(AA7:AA13,C10:D10,C7) 1.1 saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!E1324, C10:D10 outside "
      "row 1324 giving #VALUE!): tests/test_criteria_intersected.py",
      value_args=(1,))
excel("AVERAGEIFS", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B66, "
      "AVERAGEIFS(C66:I66,C66:I66,\">3\",C66:I66,\"<20\") = 9.3333333333333339, the TRUE of I66 "
      "not matched: its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_ifs.py computes it) and in the business corpus's third held-out part"
      " (seen): Sales Pipeline.xlsx, 39,972 AVERAGEIFS cells over windows of 10,000 rows "
      "holding numbers, text criteria and empty cells, all equal; Microsoft Support, "
      "\"AVERAGEIFS function\" (an empty cell of average_range ignored; #DIV/0! where no cell "
      "meets the criteria); criteria as COUNTIFS's; text or a logical value to average where "
      "the criteria match refused (addin/formula/fx_excel_args.py, averaged_numbers), error "
      "values by their form; tests/test_checked_ifs.py; an error value "
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
excel("CORREL", "ranges, arrays, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B67, "
      "against an array constant; its file computed since 7 December 2026 "
      "(tests/test_fidelity.py), and tests/test_checked_paired.py computes it); Microsoft "
      "Support, \"CORREL function\" (CORREL of 3,2,4,5,6 and 9,7,12,15,17 = 0.997054; #DIV/0! "
      "for a standard deviation of 0; text, logical values and empty cells of an array or "
      "reference ignored, #N/A for different numbers of points); an empty cell drops its pair:"
      " the cells Excel saved in the business corpus's fourth held-out part (seen), "
      "Forecast.xlsx, CORREL with leading empty cells equal to CORREL without them "
      "(addin/formula/fx_excel_paired.py); tests/test_checked_paired.py; refused for a text or"
      " logical value among the points, areas of different shapes, fewer than 2 pairs",
      array_context=True)
excel("COUNT", "scalars, cells, ranges, arrays, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/55906-MultiSheetRefs.xlsx, "
      "tests/corpus/poi/ForShifting.xlsx and 1 more (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); "
      "tests/test_excel_functions.py (values asserted there) ; "
      "tests/test_excel_functions.py::test_negative_numbers_in_array_constants (Microsoft "
      "Support, \"COUNT function\": in an array only its numbers are counted); an error value, "
      "given or in a range, not counted (Microsoft Support, \"COUNT function\": \"Arguments that "
      "are error values ... are not counted\"; COUNT(2,\"A\",\"\",#REF!,#DIV/0!) saved as 1 in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!F284): "
      "tests/test_errors_given.py",
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
excel("COUNTIF", "scalars, cells, ranges, empty, errors",
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); "
      "tests/test_excel_core.py (values asserted there); an error value "
      "(addin/formula/error_criteria.py: skipped in a criteria range by a number criterion or "
      "a text one with no <>, wildcard or leading #, matched by an error criterion as "
      "SUMIF(AA7:AA13,C10:D10,C7) 1.1 saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx,"
      " EverythingTests!E1324; the rest refused): tests/test_errors_given.py",
      value_args=(1,))
excel("COUNTIFS", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/poi/56822-Countifs.xlsx (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py); an "
      "error value (addin/formula/error_criteria.py: skipped in a criteria range by a number "
      "criterion or a text one with no <>, wildcard or leading #, matched by an error "
      "criterion as SUMIF(AA7:AA13,C10:D10,C7) 1.1 saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!E1324; the rest "
      "refused): tests/test_errors_given.py ; a reference to one cell as a criterion "
      "(Microsoft Support, \"COUNTIFS function\": criteria1 \"in the form of a number, "
      "expression, cell reference, or text\"; read as COUNTIF and SUMIFS read theirs, "
      "addin/excel/criteria_columns.py), and a range there intersected with the formula's cell"
      " in a one-cell formula (Microsoft Support, \"Implicit intersection operator: @\"; as "
      "Excel saved SUMIF(AA7:AA13,C10:D10,C7) 1.1 in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!E1324): "
      "tests/test_criteria_intersected.py",
      value_args=range(1, 255, 2))
excel("COVARIANCE.P", "ranges, arrays, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B74; "
      "its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_paired.py computes it); Microsoft Support, \"COVARIANCE.P function\" "
      "(COVARIANCE.P of 3,2,4,5,6 and 9,7,12,15,17 = 5.2; text, logical values and empty cells"
      " of an array or reference ignored, #N/A for different numbers of points); an empty cell"
      " drops its pair: the cells Excel saved in the business corpus's fourth held-out part "
      "(seen), Forecast.xlsx, CORREL with leading empty cells equal to CORREL without them "
      "(addin/formula/fx_excel_paired.py); tests/test_checked_paired.py; refused for a text or"
      " logical value among the points, areas of different shapes, fewer than 2 pairs",
      xlfn=True, array_context=True)
excel("COVARIANCE.S", "ranges, arrays, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B75; "
      "its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_paired.py computes it); Microsoft Support, \"COVARIANCE.S function\" "
      "(COVARIANCE.S of 2,4,8 and 5,11,12 = 9.666666667; text, logical values and empty cells "
      "of an array or reference ignored, #N/A for different numbers of points); an empty cell "
      "drops its pair: the cells Excel saved in the business corpus's fourth held-out part "
      "(seen), Forecast.xlsx, CORREL with leading empty cells equal to CORREL without them "
      "(addin/formula/fx_excel_paired.py); tests/test_checked_paired.py; refused for a text or"
      " logical value among the points, areas of different shapes, fewer than 2 pairs",
      xlfn=True, array_context=True)
excel("COVAR", "ranges, arrays, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B73; "
      "its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_paired.py computes it); Microsoft Support, \"COVAR function\" (COVAR "
      "of 3,2,4,5,6 and 9,7,12,15,17 = 5.2; text, logical values and empty cells of an array "
      "or reference ignored, #N/A for different numbers of points); an empty cell drops its "
      "pair: the cells Excel saved in the business corpus's fourth held-out part (seen), "
      "Forecast.xlsx, CORREL with leading empty cells equal to CORREL without them "
      "(addin/formula/fx_excel_paired.py); tests/test_checked_paired.py; refused for a text or"
      " logical value among the points, areas of different shapes, fewer than 2 pairs",
      array_context=True)
excel("FORECAST", "scalars, cells, ranges, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B128; "
      "tests/test_fidelity.py); Microsoft Support, \"FORECAST and FORECAST.LINEAR functions\" "
      "(FORECAST(30,{6,7,9,15,21},{20,28,31,38,40}) = 10.607253); tests/test_checked_stats.py;"
      " refused for known_y's and known_x's of different shapes or holding text or logical "
      "values, or fewer than 2 pairs (addin/formula/fx_excel_paired.py) ; an empty cell: as x "
      "read as 0, the cells Excel saved in the business corpus's fourth held-out part (seen), "
      "Motilal_Oswal(1).xlsm, 'Ratio Analysis'!M32:Q33 (FORECAST(M4,...) with M4 empty: the "
      "intercept); among the points it drops its pair, as Excel's CORREL cells show "
      "(addin/formula/fx_excel_paired.py); tests/test_checked_paired.py",
      array_context=True)
excel("FREQUENCY", "scalars, ranges, numeric text, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B129; "
      "tests/test_fidelity.py); Microsoft Support, \"FREQUENCY function\" (its example: scores "
      "79,85,78,85,50,81,95,88,97 in bins 70,79,89 give 1,2,4,2, entered as an array formula "
      "over four cells; \"FREQUENCY ignores blank cells and text\" in data_array); "
      "tests/test_checked_frequency.py; a bins_array of one number is one bin: Excel saved "
      "FREQUENCY(I4:AG4,-1) in 360 cells of each of the CLO-Cash-Flow-Model's two ABS models "
      "as the count of values at most -1 (the second held-out part; "
      "tests/test_checked_frequency.py); refused for a data_array of one value, and unless the"
      " bins are numbers rising strictly and data_array holds numbers, empty cells and text "
      "only (addin/formula/fx_excel_stats.py)",
      array_context=True)
excel("GROWTH", array_context=True, differs="GROWTH")
excel("HARMEAN", "ranges, empty",
      "tests/test_checked_forms.py (Microsoft's HARMEAN example); an empty cell of a reference"
      " left out (Microsoft Support, \"HARMEAN function\": text, logical values or empty cells "
      "of an array or reference are ignored); tests/test_checked_empty_math.py")
excel("INTERCEPT", "ranges, arrays, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B131; "
      "its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_paired.py computes it); Microsoft Support, \"INTERCEPT function\" "
      "(INTERCEPT of 2,3,9,1,8 and 6,5,11,7,5 = 0.0483871; text, logical values and empty "
      "cells of an array or reference ignored, #N/A for different numbers of points); an empty"
      " cell drops its pair: the cells Excel saved in the business corpus's fourth held-out "
      "part (seen), Forecast.xlsx, CORREL with leading empty cells equal to CORREL without "
      "them (addin/formula/fx_excel_paired.py); tests/test_checked_paired.py; refused for a "
      "text or logical value among the points, areas of different shapes, fewer than 2 pairs",
      array_context=True)
excel("LARGE", "scalars, cells, ranges, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); tests/test_checked_widened.py (Microsoft's LARGE examples); k"
      " as a reference to one cell: 14 cells Excel saved in the fourth held-out part's Tata "
      "Steel and financial-analysis models, LARGE(D64:D68,$C$77) "
      "(tests/test_checked_more_forms.py); a logical k refused "
      "(addin/formula/fx_excel_args.py); an error value, in a cell or a range (the first, a "
      "range's cells row by row: addin/engine/first_error.py; Microsoft Support, \"AGGREGATE "
      "function\": left out of LARGE only by its options \"Ignore error values\"): "
      "tests/test_errors_given.py",
      first_error=True)
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
excel("MEDIAN", "scalars, ranges, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); tests/test_checked_widened.py (Microsoft's MEDIAN examples); "
      "an error value (given back, as Excel saved it in the business corpus's third held-out "
      "part (seen): Startup Financial Model.xlsx, two cells; Microsoft Support, \"MEDIAN "
      "function\": \"Arguments that are error values ... cause errors\"; two different error "
      "values refused, which comes first no page says): tests/test_checked_lookups.py",
      value_context=True, first_error=True)
excel("MIN", "scalars, cells, ranges, arrays, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, "
      "tests/corpus/poi/55906-MultiSheetRefs.xlsx and 1 more (tests/test_fidelity.py); "
      "workbook/napkin.xlsx, its values equal to LibreOffice's (tests/test_template.py) ; "
      "tests/test_checked_forms.py::test_min_of_an_error_value (Microsoft Support, \"MIN "
      "function\": error values as arguments cause errors; two different error values refused, "
      "which comes first no page says: the differential's MIN({1;2;3},(0^0),(\"\"^0)), formulas "
      "#NUM!, LibreOffice #VALUE!)",
      value_context=True, three_d=True, first_error=True)
excel("MODE", "ranges, empty",
      "tests/test_checked_forms.py (Microsoft's MODE example); an empty cell of a reference "
      "left out (Microsoft Support, \"MODE function\": text, logical values or empty cells of an"
      " array or reference are ignored); tests/test_checked_empty_math.py")
excel("MODE.MULT", "arrays",
      "tests/test_excel_cases.py (values from Microsoft's documented examples or worked by "
      "hand)",
      xlfn=True)
excel("PEARSON", "ranges, arrays, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B133; "
      "its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_paired.py computes it); Microsoft Support, \"PEARSON function\" "
      "(PEARSON of 9,7,5,3,1 and 10,6,1,5,3 = 0.699379; text, logical values and empty cells "
      "of an array or reference ignored, #N/A for different numbers of points); an empty cell "
      "drops its pair: the cells Excel saved in the business corpus's fourth held-out part "
      "(seen), Forecast.xlsx, CORREL with leading empty cells equal to CORREL without them "
      "(addin/formula/fx_excel_paired.py); tests/test_checked_paired.py; refused for a text or"
      " logical value among the points, areas of different shapes, fewer than 2 pairs, and a "
      "standard deviation of 0",
      array_context=True)
excel("RANK", "scalars, cells, ranges, empty",
      "values Excel saved in tests/corpus/poi/61063.xlsx (tests/test_fidelity.py); empty "
      "cells, text and logical values in ref left out: Microsoft Support, \"RANK function\" and "
      "Microsoft Learn, \"WorksheetFunction.Rank method (Excel)\" (\"Nonnumeric values in ref are"
      " ignored\"); tests/test_checked_rank.py; an empty cell as number refused "
      "(addin/excel/refusals.py)",
      no_logical=("number",))
excel("RANK.AVG", "scalars, cells, ranges, empty",
      "Microsoft Support, \"RANK.AVG function\" (RANK.AVG(94,B2:B8) = 4 over 89, 88, 92, 101, "
      "94, 97, 95; the average rank of duplicates; nonnumeric values in ref ignored) and "
      "\"RANK.EQ function\" (its rank adjusted for ties, 3 + 0.5 = 3.5 for 3.5 of 7, 3.5, 3.5, "
      "1, 2 ascending); formula_stress_test.xlsx B99 (tests/test_checked_confidence.py); "
      "tests/test_checked_rank.py; the differential test (tests/test_differential.py); refused"
      " as RANK.EQ (addin/excel/refusals.py)",
      xlfn=True, no_logical=("number",))
excel("RANK.EQ", "scalars, cells, ranges, empty",
      "Microsoft Support, \"RANK.EQ function\" (of 7, 3.5, 3.5, 1, 2: RANK.EQ(A2,A2:A6,1) = 5, "
      "RANK.EQ(A6,A2:A6) = 4, RANK.EQ(A3,A2:A6,1) = 3, duplicates given the top rank; "
      "nonnumeric values in ref ignored); formulas' RANK; Excel's saved cell in "
      "tests/corpus/sheetjs/formula_stress_test.xlsx, B100 (tests/test_checked_confidence.py);"
      " tests/test_checked_rank.py; the differential test against LibreOffice "
      "(tests/test_differential.py); an empty cell or a logical value as number refused "
      "(addin/excel/refusals.py)",
      xlfn=True, no_logical=("number",))
excel("RSQ", "ranges, arrays, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B134; "
      "its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_paired.py computes it); Microsoft Support, \"RSQ function\" (RSQ of "
      "2,3,9,1,8,7,5 and 6,5,11,7,5,4,4 = 0.05795; text, logical values and empty cells of an "
      "array or reference ignored, #N/A for different numbers of points); an empty cell drops "
      "its pair: the cells Excel saved in the business corpus's fourth held-out part (seen), "
      "Forecast.xlsx, CORREL with leading empty cells equal to CORREL without them "
      "(addin/formula/fx_excel_paired.py); tests/test_checked_paired.py; refused for a text or"
      " logical value among the points, areas of different shapes, fewer than 2 pairs, and a "
      "standard deviation of 0",
      array_context=True)
excel("SLOPE", "ranges, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B135),"
      " tests/corpus/sheetjs/named_ranges_2011.xlsx (Sheet1!E8; tests/test_fidelity.py) and in"
      " the business corpus's tuning part (tools/business_corpus.csv, "
      "anujquants/Alkem-Laboratories-DCF-Model: SLOPE over 1,234 points); Microsoft Support, "
      "\"SLOPE function\" (SLOPE of 2,3,9,1,8,7,5 on 6,5,11,7,5,4,4 = 0.305556); "
      "tests/test_checked_stats.py; refused for ranges of different shapes or holding text or "
      "logical values, or fewer than 2 pairs (addin/formula/fx_excel_paired.py) ; an empty "
      "cell drops its pair, as Excel's CORREL cells show (addin/formula/fx_excel_paired.py), "
      "and SLOPE's: the business corpus's first held-out part (seen), Star Cements.xlsx, "
      "Beta!I11 over D4:E272, rows 266-272 empty; tests/test_checked_paired.py",
      array_context=True)
excel("SMALL", "scalars, cells, ranges, arrays, empty, errors",
      "Microsoft's documented example (tests/test_excel_functions.py); workbook/napkin.xlsx's "
      "Cost sheet, its values equal to LibreOffice's (tests/test_template.py); k as a "
      "reference to one cell: 14 cells Excel saved in the fourth held-out part's Tata Steel "
      "and financial-analysis models, SMALL(D63:D67,$C$76); one cell as the array (Microsoft "
      "Support, \"SMALL function\": SMALL(array,1) is the smallest value, #NUM! for an empty "
      "array; tests/test_checked_more_forms.py); a logical k refused "
      "(addin/formula/fx_excel_args.py); an empty cell of the array left out (Microsoft "
      "Support, \"SMALL function\"; Excel saved SMALL(C7:D11,3) = 1.00001 and SMALL(D7:E10,2) = "
      "#NUM! in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!F1272, G1272);"
      " an empty k is 0: #NUM! (its page, k <= 0); tests/test_checked_empty_math.py; an error "
      "value, in a cell or a range (the first, a range's cells row by row: "
      "addin/engine/first_error.py; Microsoft Support, \"AGGREGATE function\": left out of SMALL"
      " only by its options \"Ignore error values\"): tests/test_errors_given.py",
      first_error=True)
excel("STDEV", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx (tests/test_fidelity.py); "
      "tests/test_excel_functions.py (values asserted there); an empty cell of a reference "
      "left out (Microsoft Support, \"STDEV function\": \"Empty cells, logical values, text, or "
      "error values in the array or reference are ignored\"); tests/test_checked_empty_math.py;"
      " an error value, in a cell or a range (the first, a range's cells row by row: "
      "addin/engine/first_error.py; Microsoft Support, \"AGGREGATE function\": left out of "
      "STDEV.S only by its options \"Ignore error values\"): tests/test_errors_given.py",
      value_context=True, three_d=True, first_error=True)
excel("STDEV.P", "scalars, cells, ranges, arrays, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B104; "
      "tests/test_fidelity.py); Microsoft Support, \"STDEV.P function\" (STDEV.P of its ten "
      "strengths = 26.05456); tests/test_checked_spread.py; computed as STDEVP "
      "(addin/excel/aggregates.py AGGREGATES) ; an array or an empty cell of a reference: "
      "Microsoft Support, \"STDEV.P function\" (only the numbers of an array or reference are "
      "counted, its empty cells, logical values and text ignored); an empty value given "
      "outside a reference refused (addin/excel/aggregates.py); tests/test_checked_paired.py; "
      "an error value, in a cell or a range (the first, a range's cells row by row: "
      "addin/engine/first_error.py; Microsoft Support, \"AGGREGATE function\": left out of "
      "STDEV.P only by its options \"Ignore error values\"): tests/test_errors_given.py",
      xlfn=True, three_d=True, first_error=True)
excel("STDEV.S", "scalars, cells, ranges, arrays, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B105; "
      "tests/test_fidelity.py); Microsoft Support, \"STDEV.S function\" (STDEV.S of its ten "
      "strengths = 27.46392); tests/test_checked_spread.py; computed as STDEV "
      "(addin/excel/aggregates.py AGGREGATES) ; an array or an empty cell of a reference: "
      "Microsoft Support, \"STDEV.S function\" (only the numbers of an array or reference are "
      "counted, its empty cells, logical values and text ignored); an empty value given "
      "outside a reference refused (addin/excel/aggregates.py); tests/test_checked_paired.py; "
      "an error value, in a cell or a range (the first, a range's cells row by row: "
      "addin/engine/first_error.py; Microsoft Support, \"AGGREGATE function\": left out of "
      "STDEV.S only by its options \"Ignore error values\"): tests/test_errors_given.py",
      xlfn=True, three_d=True, first_error=True)
excel("STDEVP", "scalars, cells, ranges, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B107; "
      "tests/test_fidelity.py); Microsoft Support, \"STDEVP function\" (STDEVP of its ten "
      "strengths = 26.05456); tests/test_checked_spread.py; computed as STDEV.P "
      "(addin/excel/aggregates.py AGGREGATES); an empty cell of a reference left out "
      "(Microsoft Support, \"STDEVP function\": \"Empty cells, logical values, text, or error "
      "values in the array or reference are ignored\"); tests/test_checked_empty_math.py",
      three_d=True)
excel("STEYX", "ranges, arrays, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B136; "
      "its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_paired.py computes it); Microsoft Support, \"STEYX function\" (STEYX "
      "of 2,3,9,1,8,7,5 and 6,5,11,7,5,4,4 = 3.305719; text, logical values and empty cells of"
      " an array or reference ignored, #N/A for different numbers of points); an empty cell "
      "drops its pair: the cells Excel saved in the business corpus's fourth held-out part "
      "(seen), Forecast.xlsx, CORREL with leading empty cells equal to CORREL without them "
      "(addin/formula/fx_excel_paired.py); tests/test_checked_paired.py; refused for a text or"
      " logical value among the points, areas of different shapes, fewer than 3 pairs, and "
      "known_x's of a standard deviation of 0",
      array_context=True)
excel("TREND", array_context=True, differs="TREND")
excel("VAR", "cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx (tests/test_fidelity.py) ; a "
      "reference to one cell (only its number counts: Microsoft Support, \"VAR function\", text,"
      " logical values and empty cells of a reference are ignored; VAR of the ten strengths = "
      "754.2667); tests/test_checked_common.py; an empty cell of a reference left out "
      "(Microsoft Support, \"VAR function\": \"Empty cells, logical values, text, or error values"
      " in the array or reference are ignored\"); tests/test_checked_empty_math.py; an error "
      "value, in a cell or a range (the first, a range's cells row by row: "
      "addin/engine/first_error.py; Microsoft Support, \"AGGREGATE function\": left out of VAR.S"
      " only by its options \"Ignore error values\"): tests/test_errors_given.py",
      value_context=True, three_d=True, first_error=True)
excel("VAR.P", "scalars, cells, ranges, arrays, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B111; "
      "tests/test_fidelity.py); Microsoft Support, \"VAR.P function\" (VAR.P of its ten "
      "strengths = 678.84); tests/test_checked_spread.py; computed as VARP "
      "(addin/excel/aggregates.py AGGREGATES) ; an array or an empty cell of a reference: "
      "Microsoft Support, \"VAR.P function\" (only the numbers of an array or reference are "
      "counted, its empty cells, logical values and text ignored); an empty value given "
      "outside a reference refused (addin/excel/aggregates.py); tests/test_checked_paired.py; "
      "an error value, in a cell or a range (the first, a range's cells row by row: "
      "addin/engine/first_error.py; Microsoft Support, \"AGGREGATE function\": left out of VAR.P"
      " only by its options \"Ignore error values\"): tests/test_errors_given.py",
      xlfn=True, three_d=True, first_error=True)
excel("VAR.S", "scalars, cells, ranges, arrays, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B112; "
      "tests/test_fidelity.py); Microsoft Support, \"VAR.S function\" (VAR.S of its ten "
      "strengths = 754.2667); tests/test_checked_spread.py; computed as VAR "
      "(addin/excel/aggregates.py AGGREGATES) ; an array or an empty cell of a reference: "
      "Microsoft Support, \"VAR.S function\" (only the numbers of an array or reference are "
      "counted, its empty cells, logical values and text ignored); an empty value given "
      "outside a reference refused (addin/excel/aggregates.py); tests/test_checked_paired.py; "
      "an error value, in a cell or a range (the first, a range's cells row by row: "
      "addin/engine/first_error.py; Microsoft Support, \"AGGREGATE function\": left out of VAR.S"
      " only by its options \"Ignore error values\"): tests/test_errors_given.py",
      xlfn=True, three_d=True, first_error=True)
excel("VARP", "scalars, cells, ranges, numeric text, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B114) "
      "and tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (row 1456: text and logical values "
      "given directly; tests/test_fidelity.py; an empty cell refused: Excel's unary + of one, "
      "0 or left out, is unsettled in the differential); Microsoft Support, \"VARP function\" "
      "(VARP of its ten strengths = 678.84); tests/test_checked_spread.py; computed as VAR.P "
      "(addin/excel/aggregates.py AGGREGATES); an empty cell of a reference left out "
      "(Microsoft Support, \"VARP function\": \"Empty cells, logical values, text, or error "
      "values in the array or reference are ignored\"); tests/test_checked_empty_math.py",
      three_d=True)
excel("FORECAST.LINEAR", "scalars, cells, ranges, empty",
      "Microsoft Support, \"FORECAST and FORECAST.LINEAR functions\" (the same computation as "
      "FORECAST; its example 10.607253); tests/test_checked_stats.py; refused as FORECAST ; an"
      " empty cell: as FORECAST's (tests/test_checked_paired.py)")
excel("PERCENTILE", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B89); "
      "tests/test_checked_stats.py (values worked by hand: rank k*(n-1), interpolated); "
      "refused for a k that is not a number (addin/formula/fx_excel_stats.py); an error value,"
      " in a cell or a range (the first, a range's cells row by row: "
      "addin/engine/first_error.py; Microsoft Support, \"AGGREGATE function\": left out of "
      "PERCENTILE.INC only by its options \"Ignore error values\"): tests/test_errors_given.py",
      first_error=True)
excel("PERCENTILE.INC", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B91); "
      "Microsoft Support, \"PERCENTILE.INC function\" (PERCENTILE.INC({1,3,2,4},0.3) = 1.9); "
      "tests/test_checked_stats.py; refused for a k that is not a number; an error value, in a"
      " cell or a range (the first, a range's cells row by row: addin/engine/first_error.py; "
      "Microsoft Support, \"AGGREGATE function\": left out of PERCENTILE.INC only by its options"
      " \"Ignore error values\"): tests/test_errors_given.py",
      first_error=True)
excel("QUARTILE", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B95); "
      "Microsoft Support, \"QUARTILE function\" (QUARTILE of 1,2,4,7,8,9,10,12 at 1 = 3.5); "
      "tests/test_checked_stats.py; refused for a quart that is not a number or a fraction "
      "outside 0 to 4; an error value, in a cell or a range (the first, a range's cells row by"
      " row: addin/engine/first_error.py; Microsoft Support, \"AGGREGATE function\": left out of"
      " QUARTILE.INC only by its options \"Ignore error values\"): tests/test_errors_given.py",
      first_error=True)
excel("QUARTILE.INC", "scalars, cells, ranges, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B97); "
      "Microsoft Support, \"QUARTILE.INC function\" (the same example, 3.5); "
      "tests/test_checked_stats.py; refused for a quart that is not a number or a fraction "
      "outside 0 to 4; an error value, in a cell or a range (the first, a range's cells row by"
      " row: addin/engine/first_error.py; Microsoft Support, \"AGGREGATE function\": left out of"
      " QUARTILE.INC only by its options \"Ignore error values\"): tests/test_errors_given.py",
      first_error=True)
excel("AVEDEV", "scalars, cells, ranges, numeric text, empty",
      "Microsoft Support, \"AVEDEV function\" (AVEDEV(4,5,6,7,5,4,3) = 1.020408; text, logical "
      "values and empty cells of a reference ignored, those typed counted); "
      "tests/test_checked_common.py; computed by addin/excel/aggregates.py AGGREGATES; the "
      "cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(EverythingTests!D176:L176: AVEDEV(TRUE, FALSE) = 0.5, #NUM! of no numbers; "
      "tests/test_fidelity.py)",
      value_context=True)
excel("AVERAGEA", "scalars, cells, ranges",
      "Microsoft Support, \"AVERAGEA function\" (AVERAGEA of 10,7,9,2 and the text \"Not "
      "available\" = 5.6: text in a reference counts 0, TRUE 1); tests/test_checked_common.py; "
      "an empty cell in a reference not checked (the page's second example contradicts its "
      "rule); the empty text \"\" given directly refused (addin/excel/refusals.py)",
      value_context=True)
excel("DEVSQ", "scalars, cells, ranges, numeric text, empty",
      "Microsoft Support, \"DEVSQ function\" (DEVSQ(4,5,8,7,11,4,3) = 48; text, logical values "
      "and empty cells of a reference ignored, those typed counted); "
      "tests/test_checked_common.py; computed by addin/excel/aggregates.py AGGREGATES; the "
      "cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(EverythingTests!D392:J392: DEVSQ(\"1\",\"2\",2) = 0.666667, #NUM! of no numbers; "
      "tests/test_fidelity.py)",
      value_context=True)
excel("MAXA", "scalars, cells, ranges, empty",
      "Microsoft Support, \"MAXA function\" (MAXA of 0,0.2,0.5,0.4,TRUE = 1; text in a reference"
      " counts 0, as AVERAGEA's example shows; no values give 0); "
      "tests/test_checked_common.py; the empty text \"\" given directly refused "
      "(addin/excel/refusals.py)",
      value_context=True)
excel("MAXIFS", "scalars, cells, ranges, empty",
      "Microsoft Support, \"MAXIFS function\" (MAXIFS(A2:A7,B2:B7,1) = 91, "
      "MAXIFS(A2:A5,B3:B6,\"a\") = 10 over ranges not aligned, "
      "MAXIFS(A2:A7,B2:B7,\"b\",D2:D7,\">100\") = 50; ranges of another size or shape #VALUE!; "
      "criteria as SUMIFS's); tests/test_checked_criteria_extremes.py (worked by hand); the "
      "differential test against LibreOffice (tests/test_differential.py); refused for a "
      "matched cell holding text or a logical value, a matched empty cell that would decide "
      "the result read as 0, no number matched, and \"<>\" or \"=\" over a formula's \"\" "
      "(addin/excel/criteria_extremes.py)",
      xlfn=True)
excel("MINA", "scalars, cells, ranges, empty",
      "Microsoft Support, \"MINA function\" (MINA of FALSE,0.2,0.5,0.4,0.8 = 0; text in a "
      "reference counts 0); tests/test_checked_common.py; the empty text \"\" given directly "
      "refused (addin/excel/refusals.py)",
      value_context=True)
excel("MINIFS", "scalars, cells, ranges, empty",
      "Microsoft Support, \"MINIFS function\" (its examples 88, 10 and 13, as MAXIFS's); "
      "tests/test_checked_criteria_extremes.py; the differential test "
      "(tests/test_differential.py); refused as MAXIFS (addin/excel/criteria_extremes.py)",
      xlfn=True)
