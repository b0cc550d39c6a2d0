"""Excel's engineering functions: what napkin knows of each, one declaration a function
(``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import ALL, excel

excel("BIN2DEC", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/BASES.xlsx (tests/test_fidelity.py) ; "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=(0,))
excel("BIN2HEX", "scalars, cells, numeric text, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/BASES.xlsx (tests/test_fidelity.py) ; "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=(0,))
excel("BIN2OCT", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/BASES.xlsx (tests/test_fidelity.py) ; "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=(0,))
excel("COMPLEX", differs="complex-number functions")
excel("CONVERT", "scalars, cells, errors",
      "Microsoft Support, \"CONVERT function\" (its units of time: yr, day, d, hr, mn, min, sec,"
      " s) and \"Convert times\" (5.5 days in hours, a year of 365.25 days); 2,605 cells Excel "
      "saved of CONVERT(a*b,\"day\",\"hr\"), each a*b*86400/3600 to the last bit "
      "(tools/business_corpus.csv, heldout8, HThetard/DatacationCallCenterInvestigation); "
      "other units refused (addin/excel/unit_convert.py); tests/test_checked_convert.py ; an "
      "error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=(1, 2))
excel("DEC2BIN", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/BASES.xlsx (tests/test_fidelity.py) ; "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=True)
excel("DEC2HEX", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/BASES.xlsx (tests/test_fidelity.py) ; "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=True)
excel("DEC2OCT", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/BASES.xlsx (tests/test_fidelity.py) ; "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=True)
excel("DELTA", "scalars, cells, empty",
      "tests/test_checked_forms.py (Microsoft's DELTA examples); an empty cell (read as 0, "
      "Microsoft KB Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\"): DELTA(0) = 1, "
      "DELTA(0,1) = 0 (its page: number2 defaults to 0); tests/test_checked_empty_math.py",
      no_logical=("number1", "number2"))
excel("HEX2BIN", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/BASES.xlsx (tests/test_fidelity.py) ; "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=(0,))
excel("HEX2DEC", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/poi/57196.xlsx, tests/corpus/xlcalculator/BASES.xlsx"
      " (tests/test_fidelity.py) ; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=(0,))
excel("HEX2OCT", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/BASES.xlsx (tests/test_fidelity.py) ; "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=(0,))
excel("IMABS", differs="complex-number functions")
excel("IMARGUMENT", differs="complex-number functions")
excel("IMDIV", differs="complex-number functions")
excel("IMEXP", differs="complex-number functions")
excel("IMLN", differs="complex-number functions")
excel("IMPOWER", differs="complex-number functions")
excel("IMPRODUCT", differs="complex-number functions")
excel("IMSQRT", differs="complex-number functions")
excel("IMSUB", differs="complex-number functions")
excel("IMSUM", differs="complex-number functions")
excel("OCT2BIN", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/BASES.xlsx (tests/test_fidelity.py) ; "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=(0,))
excel("OCT2DEC", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/BASES.xlsx (tests/test_fidelity.py) ; "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=(0,))
excel("OCT2HEX", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/xlcalculator/BASES.xlsx (tests/test_fidelity.py) ; "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=(0,))
