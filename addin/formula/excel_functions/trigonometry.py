"""Excel's trigonometric and hyperbolic functions (Excel's category "Math and trigonometry"):
what napkin knows of each, one declaration a function (``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import ALL, excel

excel("ACOS", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, tests/corpus/xlcalculator/ACOS.xlsx "
      "(tests/test_fidelity.py); an empty cell (read as 0): the cell Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests!J104, ACOS(D7) = "
      "1.5707963267948966; tests/test_checked_widened.py) ; a range or an array where it takes"
      " one value, in an array formula or inside SUMPRODUCT (element by element, the result "
      "the broadcast of its arguments, an error value per element; arrays of different sizes "
      "refused, addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of "
      "array formulas\"; tests/test_elementwise_lifting.py ; an error value (the first in "
      "argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given"
      " an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("ACOSH", "scalars, cells, numeric text, empty, errors",
      "Microsoft Support, \"ACOSH function\" (ACOSH(1) = 0, ACOSH(10) = 2.9932228; #NUM! below "
      "1); tests/test_checked_common.py; #NUM! of 0, -534, an empty cell and \"0.000001\", 0 of "
      "TRUE in a cell: the cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx"
      " (EverythingTests!E108:L108); the differential test against LibreOffice "
      "(tests/test_differential.py) ; an empty cell (0), text that looks like a number (read "
      "as that number) and an error value (the result): the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests row 108; "
      "tests/test_fidelity.py)",
      value_args=ALL)
excel("ACOT", xlfn=True, value_args=ALL)
excel("ACOTH", xlfn=True, value_args=ALL)
excel("ASIN", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, tests/corpus/xlcalculator/ASIN.xlsx "
      "(tests/test_fidelity.py); an empty cell (read as 0, or as the empty text by the text "
      "functions): the cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py) ; a range or an array where it takes one value, in an array "
      "formula or inside SUMPRODUCT (element by element, the result the broadcast of its "
      "arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py ; an error value (the first in argument "
      "order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error"
      " value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("ASINH", "scalars, cells, numeric text, empty, errors",
      "Microsoft Support, \"ASINH function\" (ASINH(-2.5) = -1.647231146, ASINH(10) = "
      "2.99822295); tests/test_checked_common.py; the differential test against LibreOffice "
      "(tests/test_differential.py) ; an empty cell (0), text that looks like a number (read "
      "as that number) and an error value (the result): the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests row 160; "
      "tests/test_fidelity.py)",
      value_args=ALL)
excel("ATAN", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, tests/corpus/xlcalculator/ATAN.xlsx "
      "(tests/test_fidelity.py); an empty cell (read as 0, or as the empty text by the text "
      "functions): the cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py) ; a range or an array where it takes one value, in an array "
      "formula or inside SUMPRODUCT (element by element, the result the broadcast of its "
      "arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py ; an error value (the first in argument "
      "order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error"
      " value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("ATAN2", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx, tests/corpus/xlcalculator/ATAN2.xlsx"
      " (tests/test_fidelity.py) ; a range or an array where it takes one value, in an array "
      "formula or inside SUMPRODUCT (element by element, the result the broadcast of its "
      "arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py; an empty cell (read as 0, Microsoft KB "
      "Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\"): Microsoft Support, \"ATAN2 "
      "function\" (both 0: #DIV/0!), as Excel saved ATAN2(B7,B7) and ATAN2(B7,B8) over a 0 in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests!D168, E168); "
      "tests/test_checked_empty_math.py ; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("ATANH", "scalars, cells, numeric text, empty, errors",
      "Microsoft Support, \"ATANH function\" (ATANH(0.76159416) = 1.00000001, ATANH(-0.1) = "
      "-0.100335348; #NUM! outside -1 to 1); tests/test_checked_common.py; #NUM! of 1.1, -534 "
      "and TRUE in a cell: the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests!E172:K172); the "
      "differential test against LibreOffice (tests/test_differential.py) ; an empty cell (0),"
      " text that looks like a number (read as that number) and an error value (the result): "
      "the cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(EverythingTests row 172; tests/test_fidelity.py)",
      value_args=ALL)
excel("COS", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/47813.xlsx, tests/corpus/poi/48539.xlsx and 1 "
      "more (tests/test_fidelity.py); an empty cell (read as 0, or as the empty text by the "
      "text functions): the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (tests/test_fidelity.py) ; a range or an"
      " array where it takes one value, in an array formula or inside SUMPRODUCT (element by "
      "element, the result the broadcast of its arguments, an error value per element; arrays "
      "of different sizes refused, addin/formula/array_sizes.py): Microsoft Support, "
      "\"Guidelines and examples of array formulas\"; tests/test_elementwise_lifting.py ; an "
      "error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, bound=(0, 134217728.0), first_error=True)
excel("COSH", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/COSH.xlsx (tests/test_fidelity.py); "
      "tests/test_excel_finance.py (Microsoft's COSH examples, worked by hand); the "
      "differential test against LibreOffice (tests/test_differential.py); text that looks "
      "like a number (read as that number): the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (tests/test_fidelity.py) ; an empty cell"
      " (0) and an error value (the result): the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests row 280; "
      "tests/test_fidelity.py)",
      value_args=ALL)
excel("COT", "scalars, cells, empty, errors",
      "tests/test_excel_core.py (values from Microsoft's documented examples or worked by "
      "hand); an empty cell (read as 0, Microsoft KB Q149577, \"XL: Formula to Correctly "
      "Evaluate Blank Cells\"): Microsoft Support, \"COT function\" (COT(0) returns #DIV/0!); "
      "tests/test_checked_empty_math.py ; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      xlfn=True, value_args=ALL, bound=(0, 134217728.0), first_error=True)
excel("COTH", xlfn=True, value_args=ALL)
excel("CSC", xlfn=True, value_args=ALL)
excel("CSCH", xlfn=True, value_args=ALL)
excel("DEGREES", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/ACOS.xlsx, "
      "tests/corpus/xlcalculator/ASIN.xlsx and 2 more (tests/test_fidelity.py); values Excel "
      "saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (tests/test_fidelity.py) ; a "
      "range or an array where it takes one value, in an array formula or inside SUMPRODUCT "
      "(element by element, the result the broadcast of its arguments, an error value per "
      "element; arrays of different sizes refused, addin/formula/array_sizes.py): Microsoft "
      "Support, \"Guidelines and examples of array formulas\"; tests/test_elementwise_lifting.py"
      " ; an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("RADIANS", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/47813.xlsx, tests/corpus/xlcalculator/COS.xlsx "
      "(tests/test_fidelity.py); an empty cell (read as 0, or as the empty text by the text "
      "functions): the cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py) ; a range or an array where it takes one value, in an array "
      "formula or inside SUMPRODUCT (element by element, the result the broadcast of its "
      "arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py ; an error value (the first in argument "
      "order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error"
      " value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("SEC", xlfn=True, value_args=ALL)
excel("SECH", xlfn=True, value_args=ALL)
excel("SIN", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/47813.xlsx, tests/corpus/poi/48539.xlsx "
      "(tests/test_fidelity.py); text that looks like a number (read as that number): the "
      "cells Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py) ; a range or an array where it takes one value, in an array "
      "formula or inside SUMPRODUCT (element by element, the result the broadcast of its "
      "arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py; an empty cell (read as 0, Microsoft KB "
      "Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\"): SIN(0) = 0; "
      "tests/test_checked_empty_math.py ; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, bound=(0, 134217728.0), first_error=True)
excel("SINH", "scalars, cells, numeric text, empty, errors",
      "Microsoft Support, \"SINH function\" (SINH(1) = 1.175201194 and 2.868*SINH(0.0342*1.03) ="
      " 0.1010491); tests/test_checked_common.py; the differential test against LibreOffice "
      "(tests/test_differential.py) ; an empty cell (0), text that looks like a number (read "
      "as that number) and an error value (the result): the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests row 1256; "
      "tests/test_fidelity.py)",
      value_args=ALL, bound=(0, 709.0))
excel("TAN", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/poi/48539.xlsx (tests/test_fidelity.py); text that "
      "looks like a number (read as that number): the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (tests/test_fidelity.py); an empty cell "
      "(read as 0): the cell Excel saved there, EverythingTests!H1356, TAN(D7) = 0 "
      "(tests/test_checked_widened.py) ; a range or an array where it takes one value, in an "
      "array formula or inside SUMPRODUCT (element by element, the result the broadcast of its"
      " arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py ; an error value (the first in argument "
      "order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error"
      " value returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, bound=(0, 134217728.0), first_error=True)
excel("TANH", "scalars, cells, numeric text, empty, errors",
      "Microsoft Support, \"TANH function\" (TANH(-2) = -0.964028, TANH(0.5) = 0.462117); "
      "tests/test_checked_common.py; the differential test against LibreOffice "
      "(tests/test_differential.py) ; an empty cell (0), text that looks like a number (read "
      "as that number) and an error value (the result): the cells Excel saved in "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (EverythingTests row 1360; "
      "tests/test_fidelity.py)",
      value_args=ALL)
