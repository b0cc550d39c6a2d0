"""Excel's date and time functions: what napkin knows of each, one declaration a function
(``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import ALL, excel

excel("DATE", "scalars, cells, ranges, numeric text, errors, 1904",
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
      "there",
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
excel("DATEVALUE", "scalars, cells, numeric text, 1904",
      "tests/test_excel_cases.py (values from Microsoft's documented examples or worked by "
      "hand) ; a range or an array where it takes one value, in an array formula or inside "
      "SUMPRODUCT (element by element, each element its own call's value and checks, "
      "addin/formula/array_sizes.py each_element; arrays of different sizes refused): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py",
      elementwise=True, value_args=ALL, date_system=True, serials_checked=((0,), 1),
      in_1904=((), True))
excel("DAY", "scalars, cells, errors",
      "values Excel saved in tests/corpus/xlcalculator/DAY.xlsx (tests/test_fidelity.py) ; an "
      "error value (given back: addin/engine/first_error.py, [MS-VSDX] 2.2.11.2.2.2.8; "
      "DAY(#DIV/0!) #DIV/0! as Excel saved it in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!H340): "
      "tests/test_checked_common_more.py",
      elementwise=True, value_args=ALL, value_context=True, date_system=True,
      serials_checked=((0,), 1), first_error=True, in_1904=((0,), False))
excel("DAYS", "scalars, cells, errors",
      "values Excel saved in tests/corpus/xlcalculator/DAYS.xlsx (tests/test_fidelity.py) ; a "
      "range or an array where it takes one value, in an array formula or inside SUMPRODUCT "
      "(element by element, each element its own call's value and checks, "
      "addin/formula/array_sizes.py each_element; arrays of different sizes refused): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      xlfn=True, elementwise=True, date_system=True, serials_checked=((0, 1), 2),
      first_error=True, in_1904=((0, 1), False))
excel("DAYS360", "scalars, cells",
      "tests/test_checked_forms.py (Microsoft's DAYS360 examples and methods) ; a range or an "
      "array where it takes one value, in an array formula or inside SUMPRODUCT (element by "
      "element, the result the broadcast of its arguments, an error value per element; arrays "
      "of different sizes refused, addin/formula/array_sizes.py): Microsoft Support, "
      "\"Guidelines and examples of array formulas\"; tests/test_elementwise_lifting.py",
      xlfn=True, elementwise=True, date_system=True, serials_checked=((0, 1), 2),
      in_1904=((0, 1), False))
excel("EDATE", "scalars, cells, empty, errors, 1904",
      "values Excel saved in tests/corpus/poi/56688_1.xlsx, tests/corpus/poi/56688_2.xlsx and "
      "3 more (tests/test_fidelity.py); tests/test_excel_cases.py (values asserted there) ; an"
      " error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): "
      "tests/test_checked_common_more.py",
      value_args=ALL, date_system=True, first_error=True, in_1904=((0,), True))
excel("EOMONTH", "scalars, cells, errors",
      "values Excel saved in tests/corpus/xlcalculator/EOMONTH.xlsx (tests/test_fidelity.py); "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, date_system=True, serials_checked=((0, 1), 1), first_error=True,
      in_1904=((0,), True))
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
excel("ISOWEEKNUM", date_system=True, refused_in_1904=True)
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
excel("MONTH", "scalars, cells, errors",
      "values Excel saved in tests/corpus/xlcalculator/MONTH.xlsx (tests/test_fidelity.py) ; "
      "an error value (given back: addin/engine/first_error.py, [MS-VSDX] 2.2.11.2.2.2.8; "
      "MONTH(#N/A) #N/A as Excel saved it in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, "
      "EverythingTests!H940): tests/test_checked_common_more.py",
      elementwise=True, value_args=ALL, value_context=True, date_system=True,
      serials_checked=((0,), 1), first_error=True, in_1904=((0,), False))
excel("NETWORKDAYS", date_system=True, refused_in_1904=True)
excel("NETWORKDAYS.INTL", date_system=True, refused_in_1904=True)
excel("NOW", date_system=True, refused_in_1904=True)
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
excel("TIME", "scalars",
      "tests/test_excel_text.py (values from Microsoft's documented examples or worked by "
      "hand) ; a range or an array where it takes one value, in an array formula or inside "
      "SUMPRODUCT (element by element, each element its own call's value and checks, "
      "addin/formula/array_sizes.py each_element; arrays of different sizes refused): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py",
      elementwise=True, value_args=ALL)
excel("TIMEVALUE", value_args=ALL)
excel("TODAY", "no argument",
      "values Excel saved in tests/corpus/poi/56574.xlsx, tests/corpus/poi/56688_4.xlsx and 1 "
      "more (tests/test_fidelity.py)",
      date_system=True, refused_in_1904=True)
excel("WEEKDAY", "scalars, cells, 1904",
      "Microsoft Support, \"WEEKDAY function\" (return_type 1 or omitted, 2, 3, 11 to 17; #NUM! "
      "for a serial_number out of range or another return_type; 2/14/2008 gives 5, 4 and 3 for"
      " return_type 1, 2 and 3); ECMA-376 Part 4 (serial-value and the flag truncated to an "
      "integer); tests/test_weekday.py (hand-computed weekdays, the two calendars of part "
      "heldout6 of tools/business_corpus.csv); ours (addin/excel/dates.py): refused for a "
      "serial number above -1 and below 61 (before 1 March 1900, where Excel's 29 February "
      "1900 puts its weekdays a day off the calendar's and no page says which) and a logical "
      "value ; a range or an array where it takes one value, in an array formula or inside "
      "SUMPRODUCT (element by element, the result the broadcast of its arguments, an error "
      "value per element; arrays of different sizes refused, addin/formula/array_sizes.py): "
      "Microsoft Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py",
      elementwise=True, value_args=ALL, date_system=True, serials_checked=((0, 1), 1),
      in_1904=((0,), False))
excel("WEEKNUM", date_system=True, in_1904=((0,), False))
excel("WORKDAY", "scalars, cells, ranges",
      "values Excel saved in tests/corpus/poi/50755_workday_formula_example.xlsx, "
      "tests/corpus/poi/59106.xlsx (tests/test_fidelity.py); tests/test_checked_forms.py "
      "(Microsoft's WORKDAY examples)",
      value_args=(0, 1), date_system=True, refused_in_1904=True)
excel("WORKDAY.INTL", date_system=True, refused_in_1904=True)
excel("YEAR", "scalars, cells, numeric text, errors, 1904",
      "values Excel saved in tests/corpus/xlcalculator/YEAR.xlsx (tests/test_fidelity.py); "
      "tests/test_excel_cases.py (values asserted there) ; an error value (given back: "
      "addin/engine/first_error.py, [MS-VSDX] 2.2.11.2.2.2.8; YEAR(#REF!) #REF! as Excel saved"
      " it in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!H1496): "
      "tests/test_checked_common_more.py",
      elementwise=True, value_args=ALL, value_context=True, date_system=True,
      serials_checked=((0,), 1), first_error=True, in_1904=((0,), False))
excel("YEARFRAC", "scalars, cells, errors, omitted, 1904",
      "values Excel saved in tests/corpus/xlcalculator/YEARFRAC.xlsx (tests/test_fidelity.py);"
      " tests/test_excel_cases.py; tests/test_excel_text.py (values from Microsoft's "
      "documented examples or worked by hand); a basis left out is basis 0 (Microsoft Support,"
      " \"YEARFRAC function\": \"0 or omitted\"; tests/test_checked_widened.py); an error value "
      "(the first in argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a "
      "function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, date_system=True, first_error=True)
