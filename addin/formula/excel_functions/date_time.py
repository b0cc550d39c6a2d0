"""Excel's date and time functions: what napkin knows of each, one declaration a function
(``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import ALL, excel

excel("DATE", "scalars, cells, ranges, numeric text, empty, errors, 1904",
      "values Excel saved in tests/corpus/poi/55927.xlsx, tests/corpus/xlcalculator/DATE.xlsx "
      "and 2 more (tests/test_fidelity.py); tests/test_excel_cases.py (values asserted there);"
      " tests/test_excel_core.py (values asserted there); an error value (the first in "
      "argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given"
      " an error value returns it; the saved cells of tools/error_evidence.py: YEAR, MONTH, "
      "DAY given an error saved it): tests/test_first_error.py ; a range or an array where it "
      "takes one value, in an array formula or inside SUMPRODUCT (element by element, the "
      "result the broadcast of its arguments, an error value per element; arrays of different "
      "sizes refused, addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and "
      "examples of array formulas\"; tests/test_elementwise_lifting.py ; DATE of a row of years"
      " with one month and day: the 15 cells Excel saved in the business corpus's fourth "
      "held-out part (seen): super-dcf-model's Template.xlsx, 'DCF Model'!D13:R13, rebuilt "
      "there ; an empty cell read as 0 (Microsoft Knowledge Base Q149577, a blank cell is "
      "zero; Excel saved HOUR(D7) of the empty D7 as 0, DAY(0) 0, MONTH(0) 1, YEAR(0) 1900 in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G720, F340, F940, "
      "F1496; a date argument of 0 refused where the function refuses serial 0): "
      "tests/test_dates_empty.py",
      elementwise=True, value_args=ALL, value_context=True, date_system=True, first_error=True)
excel("DATEDIF", "scalars, cells, errors",
      "values Excel saved in tests/corpus/xlcalculator/DATEDIF.xlsx (tests/test_fidelity.py) ;"
      " a range or an array where it takes one value, in an array formula or inside SUMPRODUCT"
      " (element by element, the result the broadcast of its arguments, an error value per "
      "element; arrays of different sizes refused, addin/formula/array_sizes.py): Microsoft "
      "Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, date_system=True, serials_checked=((0, 1), 2),
      first_error=(2,), in_1904=((0, 1), False))
excel("DATEVALUE", "scalars, cells, numeric text, empty, errors, 1904",
      "tests/test_excel_cases.py (values from Microsoft's documented examples or worked by "
      "hand) ; a range or an array where it takes one value, in an array formula or inside "
      "SUMPRODUCT (element by element, each element its own call's value and checks, "
      "addin/formula/array_sizes.py each_element; arrays of different sizes refused): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py ; an empty cell read as 0 (Microsoft Knowledge Base "
      "Q149577, a blank cell is zero; Excel saved HOUR(D7) of the empty D7 as 0, DAY(0) 0, "
      "MONTH(0) 1, YEAR(0) 1900 in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!G720, F340, F940, F1496; a date argument of 0 refused where the "
      "function refuses serial 0): tests/test_dates_empty.py ; an error value (the first in "
      "argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given"
      " an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, date_system=True, serials_checked=((0,), 1),
      first_error="all", in_1904=((), True))
excel("DAY", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/DAY.xlsx (tests/test_fidelity.py) ; an "
      "error value (given back: addin/engine/first_error.py, [MS-VSDX] 2.2.11.2.2.2.8; "
      "DAY(#DIV/0!) #DIV/0! as Excel saved it in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!H340): "
      "tests/test_checked_common_more.py ; an empty cell read as 0 (Microsoft Knowledge Base "
      "Q149577, a blank cell is zero; Excel saved HOUR(D7) of the empty D7 as 0, DAY(0) 0, "
      "MONTH(0) 1, YEAR(0) 1900 in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!G720, F340, F940, F1496; a date argument of 0 refused where the "
      "function refuses serial 0): tests/test_dates_empty.py",
      elementwise=True, value_args=ALL, value_context=True, date_system=True,
      serials_checked=((0,), 1), first_error=True, in_1904=((0,), False))
excel("DAYS", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/DAYS.xlsx (tests/test_fidelity.py) ; a "
      "range or an array where it takes one value, in an array formula or inside SUMPRODUCT "
      "(element by element, each element its own call's value and checks, "
      "addin/formula/array_sizes.py each_element; arrays of different sizes refused): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py ; an empty cell read as 0 (Microsoft Knowledge "
      "Base Q149577, a blank cell is zero; Excel saved HOUR(D7) of the empty D7 as 0, DAY(0) "
      "0, MONTH(0) 1, YEAR(0) 1900 in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!G720, F340, F940, F1496; a date argument of 0 refused where the "
      "function refuses serial 0): tests/test_dates_empty.py",
      xlfn=True, elementwise=True, date_system=True, serials_checked=((0, 1), 2),
      first_error=True, in_1904=((0, 1), False))
excel("DAYS360", "scalars, cells, empty",
      "tests/test_checked_forms.py (Microsoft's DAYS360 examples and methods) ; a range or an "
      "array where it takes one value, in an array formula or inside SUMPRODUCT (element by "
      "element, the result the broadcast of its arguments, an error value per element; arrays "
      "of different sizes refused, addin/formula/array_sizes.py): Microsoft Support, "
      "\"Guidelines and examples of array formulas\"; tests/test_elementwise_lifting.py ; an "
      "empty cell read as 0 (Microsoft Knowledge Base Q149577, a blank cell is zero; Excel "
      "saved HOUR(D7) of the empty D7 as 0, DAY(0) 0, MONTH(0) 1, YEAR(0) 1900 in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G720, F340, F940, "
      "F1496; a date argument of 0 refused where the function refuses serial 0): "
      "tests/test_dates_empty.py",
      xlfn=True, elementwise=True, date_system=True, serials_checked=((0, 1), 2),
      in_1904=((0, 1), False))
excel("EDATE", "scalars, cells, empty, errors, 1904",
      "values Excel saved in tests/corpus/poi/56688_1.xlsx, tests/corpus/poi/56688_2.xlsx and "
      "3 more (tests/test_fidelity.py); tests/test_excel_cases.py (values asserted there) ; an"
      " error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): "
      "tests/test_checked_common_more.py ; an array in an array or dynamic array formula, "
      "element by element (Microsoft Support, \"Guidelines and examples of array formulas\"; the"
      " 143 month ends Excel saved for EOMONTH(Start.Date,_xlfn.ANCHORARRAY(B22)-1) and "
      "EOMONTH(Start.Date-1,(_xlfn.ANCHORARRAY(C3))*12) in part tune3 of "
      "tools/business_corpus.csv): tests/test_dates_arrays.py",
      elementwise=True, value_args=ALL, date_system=True, first_error=True, in_1904=((0,), True))
excel("EOMONTH", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/EOMONTH.xlsx (tests/test_fidelity.py); "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py"
      " ; an empty cell read as 0 (Microsoft Knowledge Base Q149577, a blank cell is zero; "
      "Excel saved HOUR(D7) of the empty D7 as 0, DAY(0) 0, MONTH(0) 1, YEAR(0) 1900 in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G720, F340, F940, "
      "F1496; a date argument of 0 refused where the function refuses serial 0): "
      "tests/test_dates_empty.py ; an array in an array or dynamic array formula, element by "
      "element (Microsoft Support, \"Guidelines and examples of array formulas\"; the 143 month "
      "ends Excel saved for EOMONTH(Start.Date,_xlfn.ANCHORARRAY(B22)-1) and "
      "EOMONTH(Start.Date-1,(_xlfn.ANCHORARRAY(C3))*12) in part tune3 of "
      "tools/business_corpus.csv): tests/test_dates_arrays.py",
      elementwise=True, value_args=ALL, date_system=True, serials_checked=((0, 1), 1),
      first_error=True, in_1904=((0,), True))
excel("HOUR", "scalars, cells, empty, errors",
      "Microsoft Support, \"HOUR function\" (HOUR(0.75) = 18, 7/18/2011 7:45 gives 7, 4/21/2012 "
      "gives 0); tests/test_checked_common.py; ours (addin/excel/dates.py): refused for a time"
      " that is not a whole second, a serial below 0 or after 9999 and a logical value ; a "
      "range or an array where it takes one value, in an array formula or inside SUMPRODUCT "
      "(element by element, each element its own call's value and checks, "
      "addin/formula/array_sizes.py each_element; arrays of different sizes refused): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("ISOWEEKNUM", "scalars, cells, errors",
      "Microsoft Support, \"ISOWEEKNUM function\" (3/9/2012 gives 10); "
      "tests/test_excel_workdays.py (ISO weeks of a hand-checked calendar); ours "
      "(addin/excel/workdays.py): refused for a date before 1 March 1900, a logical value and "
      "a date given as text ; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      xlfn=True, value_args=ALL, date_system=True, refused_in_1904=True, first_error=True)
excel("MINUTE", "scalars, cells, empty, errors",
      "Microsoft Support, \"MINUTE function\" (12:45:00 PM gives 45); "
      "tests/test_checked_common.py; ours (addin/excel/dates.py): refused for a time that is "
      "not a whole second, a serial below 0 or after 9999 and a logical value ; a range or an "
      "array where it takes one value, in an array formula or inside SUMPRODUCT (element by "
      "element, each element its own call's value and checks, addin/formula/array_sizes.py "
      "each_element; arrays of different sizes refused): Microsoft Support, \"Guidelines and "
      "examples of array formulas\"; tests/test_elementwise_lifting.py; an error value (the "
      "first in argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a "
      "function given an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("MONTH", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/MONTH.xlsx (tests/test_fidelity.py) ; a"
      " date written as text, read as YEAR reads it (one conversion), a month and a number "
      "without a year its month either way (\"Jun-25\": June, as Excel saved "
      "IF(MONTH($S$7)<C$6,0,1) in Calculations!C3:N3 of Personal Finance Tracker.xlsx, part "
      "heldout15 (seen) of tools/business_corpus.csv), one read by the computer's settings "
      "refused: tests/test_month_texts.py ; an error value (given back: "
      "addin/engine/first_error.py, [MS-VSDX] 2.2.11.2.2.2.8; MONTH(#N/A) #N/A as Excel saved "
      "it in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!H940): "
      "tests/test_checked_common_more.py ; an empty cell read as 0 (Microsoft Knowledge Base "
      "Q149577, a blank cell is zero; Excel saved HOUR(D7) of the empty D7 as 0, DAY(0) 0, "
      "MONTH(0) 1, YEAR(0) 1900 in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!G720, F340, F940, F1496; a date argument of 0 refused where the "
      "function refuses serial 0): tests/test_dates_empty.py",
      elementwise=True, value_args=ALL, value_context=True, date_system=True,
      serials_checked=((0,), 1), first_error=True, in_1904=((0,), False))
excel("NETWORKDAYS", "scalars, cells, ranges, empty",
      "Microsoft Support, \"NETWORKDAYS function\" (2012-10-1 to 2013-3-1: 110, 109, 107 with "
      "one and three holidays); the value Excel saved in "
      "tests/corpus/sheetjs/formula_stress_test.xlsx (Date!B24, 283); "
      "tests/test_excel_workdays.py (the page's examples, hand-counted calendars); ours "
      "(addin/excel/workdays.py): refused for a date before 1 March 1900, a logical value, a "
      "date given as text, text, logical or error values among the holidays, a date out of "
      "range (its page #VALUE!, ECMA-376 #NUM!)",
      value_args=(0, 1), date_system=True, refused_in_1904=True)
excel("NETWORKDAYS.INTL", "scalars, cells, ranges, numeric text, empty, omitted",
      "Microsoft Support, \"NETWORKDAYS.INTL function\" (22 and -21 for January 2006; #VALUE! "
      "for a weekend string of other length or characters, #NUM! for a date out of range, "
      "\"1111111\" 0); the value Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx "
      "(Date!B25, weekend 17: 340); tests/test_excel_workdays.py (the page's examples, "
      "hand-counted calendars); ours (addin/excel/workdays.py): refused for a date before 1 "
      "March 1900, a logical value, a date given as text, text, logical or error values among "
      "the holidays, a weekend that is neither a whole number nor text, a weekend number other"
      " than 1-7 and 11-17 (its page gives no error value for one)",
      value_args=(0, 1, 2), date_system=True, refused_in_1904=True)
excel("NOW", "no argument",
      "Microsoft Support, \"NOW function\" (the serial number of the current date and time: the "
      "date a whole number, the time its fraction); tests/test_excel_workdays.py (between the "
      "clock read before and after); volatile as TODAY: a cell depending on it is left out of "
      "the census's comparison (addin/engine/census.py)",
      date_system=True, refused_in_1904=True)
excel("SECOND", "scalars, cells, empty, errors",
      "Microsoft Support, \"SECOND function\" (4:48:18 PM gives 18, 4:48 PM 0); "
      "tests/test_checked_common.py; ours (addin/excel/dates.py): refused for a time that is "
      "not a whole second, a serial below 0 or after 9999 and a logical value ; a range or an "
      "array where it takes one value, in an array formula or inside SUMPRODUCT (element by "
      "element, each element its own call's value and checks, addin/formula/array_sizes.py "
      "each_element; arrays of different sizes refused): Microsoft Support, \"Guidelines and "
      "examples of array formulas\"; tests/test_elementwise_lifting.py; an error value (the "
      "first in argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a "
      "function given an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("TIME", "scalars, cells, empty, errors",
      "tests/test_excel_text.py (values from Microsoft's documented examples or worked by "
      "hand) ; a range or an array where it takes one value, in an array formula or inside "
      "SUMPRODUCT (element by element, each element its own call's value and checks, "
      "addin/formula/array_sizes.py each_element; arrays of different sizes refused): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py ; an empty cell read as 0 (Microsoft Knowledge Base "
      "Q149577, a blank cell is zero; Excel saved HOUR(D7) of the empty D7 as 0, DAY(0) 0, "
      "MONTH(0) 1, YEAR(0) 1900 in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!G720, F340, F940, F1496; a date argument of 0 refused where the "
      "function refuses serial 0): tests/test_dates_empty.py ; an error value (the first in "
      "argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given"
      " an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("TIMEVALUE", "scalars, cells, numeric text, errors",
      "Microsoft Support, \"TIMEVALUE function\" (\"2:24 AM\" gives 0.1); the value Excel saved in"
      " tests/corpus/sheetjs/formula_stress_test.xlsx (Date!B5, \"11:23:45 PM\" "
      "0.974826388888889); tests/test_excel_workdays.py; ours (addin/excel/workdays.py): only "
      "a time written H:MM or H:MM:SS with AM, PM or none computed, the rest refused ; an "
      "error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error="all")
excel("TODAY", "no argument",
      "values Excel saved in tests/corpus/poi/56574.xlsx, tests/corpus/poi/56688_4.xlsx and 1 "
      "more (tests/test_fidelity.py)",
      date_system=True, refused_in_1904=True)
excel("WEEKDAY", "scalars, cells, errors, 1904",
      "Microsoft Support, \"WEEKDAY function\" (return_type 1 or omitted, 2, 3, 11 to 17; #NUM! "
      "for a serial_number out of range or another return_type; 2/14/2008 gives 5, 4 and 3 for"
      " return_type 1, 2 and 3); ECMA-376 Part 4 (serial-value and the flag truncated to an "
      "integer); Microsoft Knowledge Base 214058 (before 1 March 1900 the weekdays are a day "
      "early: 16 February 1900 gives 5); tests/test_weekday.py (hand-computed weekdays, the "
      "two calendars of part heldout6 of tools/business_corpus.csv); ours "
      "(addin/excel/dates.py): refused for serial numbers 0 and 60 (January 0, 1900 and "
      "Excel's 29 February 1900, days of no calendar) and a logical value ; a range or an "
      "array where it takes one value, in an array formula or inside SUMPRODUCT (element by "
      "element, the result the broadcast of its arguments, an error value per element; arrays "
      "of different sizes refused, addin/formula/array_sizes.py): Microsoft Support, "
      "\"Guidelines and examples of array formulas\"; tests/test_elementwise_lifting.py ; an "
      "error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, date_system=True, serials_checked=((0, 1), 1),
      first_error=True, in_1904=((0,), False))
excel("WEEKNUM", "scalars, cells, errors, omitted",
      "Microsoft Support, \"WEEKNUM function\" (return_type 1 or omitted, 2, 11 to 17, 21; "
      "3/9/2012 gives 10, and 11 with return_type 2; #NUM! for a serial number out of range or"
      " another return_type); the value Excel saved in "
      "tests/corpus/sheetjs/formula_stress_test.xlsx (Date!B17, 24); "
      "tests/test_excel_workdays.py (hand-counted weeks); ours (addin/excel/workdays.py): "
      "refused for a date before 1 March 1900, a logical value and a date given as text ; an "
      "error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, date_system=True, refused_in_1904=True, first_error=True)
excel("WORKDAY", "scalars, cells, ranges, empty",
      "values Excel saved in tests/corpus/poi/50755_workday_formula_example.xlsx, "
      "tests/corpus/poi/59106.xlsx (tests/test_fidelity.py); tests/test_checked_forms.py "
      "(Microsoft's WORKDAY examples) ; an empty cell read as 0 (Microsoft Knowledge Base "
      "Q149577, a blank cell is zero; Excel saved HOUR(D7) of the empty D7 as 0, DAY(0) 0, "
      "MONTH(0) 1, YEAR(0) 1900 in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!G720, F340, F940, F1496; a date argument of 0 refused where the "
      "function refuses serial 0): tests/test_dates_empty.py",
      value_args=(0, 1), date_system=True, refused_in_1904=True)
excel("WORKDAY.INTL", "scalars, cells, ranges, numeric text, empty, omitted",
      "Microsoft Support, \"WORKDAY.INTL function\" (start_date and days truncated, 0 days "
      "yields start_date, \"1111111\" an invalid string; DATE(2012,1,1): 30 days with weekend 0 "
      "#NUM!, 90 days with weekend 11 41013, 30 days with weekend 17 2/05/2012); the value "
      "Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Date!B27, 41577); "
      "tests/test_excel_workdays.py (the page's examples, hand-counted calendars); ours "
      "(addin/excel/workdays.py): refused for a date before 1 March 1900, a logical value, a "
      "date given as text, text, logical or error values among the holidays, a weekend number "
      "other than 1-7, 11-17 and 0, a holiday out of range",
      value_args=(0, 1, 2), date_system=True, refused_in_1904=True)
excel("YEAR", "scalars, cells, numeric text, empty, errors, 1904",
      "values Excel saved in tests/corpus/xlcalculator/YEAR.xlsx (tests/test_fidelity.py); "
      "tests/test_excel_cases.py (values asserted there) ; an error value (given back: "
      "addin/engine/first_error.py, [MS-VSDX] 2.2.11.2.2.2.8; YEAR(#REF!) #REF! as Excel saved"
      " it in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!H1496): "
      "tests/test_checked_common_more.py ; an empty cell read as 0 (Microsoft Knowledge Base "
      "Q149577, a blank cell is zero; Excel saved HOUR(D7) of the empty D7 as 0, DAY(0) 0, "
      "MONTH(0) 1, YEAR(0) 1900 in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!G720, F340, F940, F1496; a date argument of 0 refused where the "
      "function refuses serial 0): tests/test_dates_empty.py",
      elementwise=True, value_args=ALL, value_context=True, date_system=True,
      serials_checked=((0,), 1), first_error=True, in_1904=((0,), False))
excel("YEARFRAC", "scalars, cells, empty, errors, omitted, 1904",
      "values Excel saved in tests/corpus/xlcalculator/YEARFRAC.xlsx (tests/test_fidelity.py);"
      " tests/test_excel_cases.py; tests/test_excel_text.py (values from Microsoft's "
      "documented examples or worked by hand); a basis left out is basis 0 (Microsoft Support,"
      " \"YEARFRAC function\": \"0 or omitted\"; tests/test_checked_widened.py); an error value "
      "(the first in argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a "
      "function given an error value returns it): tests/test_errors_given.py ; an empty cell "
      "read as 0 (Microsoft Knowledge Base Q149577, a blank cell is zero; Excel saved HOUR(D7)"
      " of the empty D7 as 0, DAY(0) 0, MONTH(0) 1, YEAR(0) 1900 in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G720, F340, F940, "
      "F1496; a date argument of 0 refused where the function refuses serial 0): "
      "tests/test_dates_empty.py",
      value_args=ALL, date_system=True, first_error=True)
