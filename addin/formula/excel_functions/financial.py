"""Excel's financial functions: what napkin knows of each, one declaration a function
(``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import excel

excel("DB", "scalars, cells",
      "values Excel saved in tests/corpus/xlcalculator/VDB.xlsx (tests/test_fidelity.py); "
      "tests/test_excel_finance.py (Microsoft's DB examples, worked by hand); the differential"
      " test against LibreOffice (tests/test_differential.py)")
excel("FV", "scalars, cells, errors, omitted",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); tests/test_checked_widened.py (Microsoft's FV examples, "
      "worked by hand); an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      first_error=True)
excel("IPMT", "scalars, cells, errors, omitted",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Finance!B17; "
      "tests/test_excel_finance.py); tests/test_excel_finance.py (Microsoft's IPMT examples, "
      "worked by hand); napkin's IPMT (addin/excel/annuity.py) gives #NUM! for a whole per "
      "below 1 or at or above nper + 1 ([MS-OI29500] 2.1.978: \"if argument per is not in the "
      "range 1 <= per < nper+1, then #NUM! is returned\"), refuses a per that is not a whole "
      "number and logical values; the differential test against LibreOffice "
      "(tests/test_differential.py); an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      first_error=True)
excel("IRR", "scalars, ranges, arrays, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Finance!B8), "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (D768:F768; tests/test_fidelity.py) and "
      "in the business corpus's tuning part (tools/business_corpus.csv, "
      "Adithiya-Finance/Finance-Ascension-Protocol: 4 cells); Microsoft Support, \"IRR "
      "function\" (its example, 8.7%); tests/test_checked_rates.py; refused unless the cash "
      "flows change sign once, Newton's iteration from the guess reaches the root in 20 steps,"
      " formulas' value is that root and not below 1e-3 in size "
      "(addin/formula/fx_excel_rates.py); a cell another formula reads takes Excel's saved "
      "value where it is that root to 1e-9 and the cells it reads hold their saved values "
      "(addin/engine/roots.py); an array (the page: \"Values: an array or a reference to cells "
      "that contain numbers\"; {=IRR(-C28:H28)} saved in the first held-out part's Unilever DCF"
      " model; tests/test_checked_more_forms.py); empty cells, text and logical values of the "
      "range or array left out (the page: \"If an array or reference argument contains text, "
      "logical values, or empty cells, those values are ignored\"; Microsoft Knowledge Base "
      "Q75504, IRR with blank cells: 2.09; tests/test_checked_rates.py)")
excel("NPER", "scalars, cells, errors, omitted",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); tests/test_checked_widened.py (Microsoft's NPER examples, "
      "worked by hand); an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      first_error=True)
excel("NPV", "scalars, cells, ranges, empty",
      "values Excel saved in tests/corpus/xlcalculator/NPV.xlsx (tests/test_fidelity.py); "
      "tests/test_checked_forms.py (Microsoft's NPV example); an empty cell in a value is left"
      " out, an empty rate is 0 (Microsoft Support, \"NPV function\": \"Empty cells, logical "
      "values, or text representations of numbers, error values, or text that cannot be "
      "translated into numbers are ignored\"; tests/test_checked_widened.py); a rate of -1 "
      "refused (each value divided by 0; addin/excel/refusals.py)")
excel("PMT", "scalars, cells, errors, omitted",
      "values Excel saved in tests/corpus/xlcalculator/PMT.xlsx (tests/test_fidelity.py); "
      "tests/test_excel_finance.py (Microsoft's PMT examples, worked by hand); the "
      "differential test against LibreOffice (tests/test_differential.py); an error value (the"
      " first in argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a "
      "function given an error value returns it): tests/test_errors_given.py",
      first_error=True)
excel("PPMT", "scalars, cells, errors, omitted",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Finance!B21; "
      "tests/test_excel_finance.py); tests/test_excel_finance.py (Microsoft's PPMT examples, "
      "worked by hand); napkin's PPMT (addin/excel/annuity.py) gives #NUM! for a whole per "
      "below 1 or above nper ([MS-OI29500] 2.1.1019: \"if the per argument is less than 1 or "
      "greater than the nper argument, #NUM! is returned\"; IFERROR(-PPMT(...),0) of per 13 to "
      "16 of 12 saved as 0 in a tuning pool's solar project-finance model), refuses a per that"
      " is not a whole number and logical values; the differential test against LibreOffice "
      "(tests/test_differential.py); an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      first_error=True)
excel("PV", "scalars, cells, errors, omitted",
      "values Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx "
      "(tests/test_fidelity.py); tests/test_checked_widened.py (Microsoft's PV example, worked"
      " by hand); an error value (the first in argument order, addin/engine/first_error.py: "
      "[MS-VSDX] 2.2.11.2.2.2.8, a function given an error value returns it): "
      "tests/test_errors_given.py",
      first_error=True)
excel("RATE", "scalars, cells, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Finance!B23), "
      "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (D1112; tests/test_fidelity.py) and in "
      "the business corpus's tuning part (Adithiya-Finance/Finance-Ascension-Protocol, IRR "
      "Model Cashflow Test: J2); Microsoft Support, \"RATE function\" (RATE(4*12,-200,8000) = "
      "0.77%); tests/test_checked_rates.py; refused as IRR, for the cash flows pv, pmt... and "
      "fv, and for an nper not a whole number from 1 to 1200 "
      "(addin/formula/fx_excel_rates.py); a cell another formula reads takes Excel's saved "
      "value where it is that root to 1e-9 and the cells it reads hold their saved values "
      "(addin/engine/roots.py; the second held-out part's Boeing model, '3 Statement'!H24; "
      "tests/test_checked_rates.py); an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      first_error=True)
excel("RRI", "scalars, cells",
      "tests/test_checked_widened.py (Microsoft's RRI example); napkin's RRI "
      "(addin/excel/annuity.py) computes arguments above 0 only",
      xlfn=True)
excel("SLN", "scalars, cells",
      "values Excel saved in tests/corpus/xlcalculator/SLN.xlsx (tests/test_fidelity.py)")
excel("VDB", "scalars, cells",
      "values Excel saved in tests/corpus/xlcalculator/VDB.xlsx (tests/test_fidelity.py); "
      "tests/test_excel_finance.py (Microsoft's VDB examples, worked by hand; napkin's VDB, "
      "addin/excel/depreciation.py, whole periods only); the differential test against "
      "LibreOffice (tests/test_differential.py)")
excel("XNPV", "scalars, cells, ranges",
      "values Excel saved in tests/corpus/xlcalculator/XNPV.xlsx (tests/test_fidelity.py); a "
      "rate read from one cell (tests/test_checked_widened.py, Microsoft's XNPV example with "
      "its rate in a cell)")
# XIRR: Excel iterates ("up to 100 times", to "0.000001 percent"; Microsoft Support, "XIRR
# function") by a method it does not publish, and stops short of the rate: the 9 XIRR
# cells Excel saved in the seen corpora (tests/corpus/sheetjs/formula_stress_test.xlsx
# Finance!B11; the third held-out part's LBO and real-estate models, 8 cells) differ from
# the exact root by 2.7e-10 to 5.7e-8 relative, and neither Newton's method (analytic or
# with a difference quotient) nor the secant method from the guess 0.1 gives their digits
# (tests/test_checked_lookups.py::test_xirr_saved_cells_are_not_the_root). The corpus
# compares to 1e-9: napkin cannot give Excel's digits, so XIRR stays refused.
excel("XIRR", differs="XIRR (Excel's iteration, not published, stops up to 6E-8 from the rate)")
excel("STOCKHISTORY", "scalars, cells, omitted",
      "Microsoft Support, \"STOCKHISTORY function\" (prices fetched from Microsoft's data "
      "service and spilled as an array); the array Excel saved in the formula's spill range, "
      "taken as kept external data where the formula is the call alone, calls nothing volatile"
      " and every formula cell it reads holds its saved value (addin/excel/stock_history.py); "
      "part heldout4's Hedged vs Unhedged Foreign Currency Model.xlsx (B11:C262 on two sheets)"
      " computes, its 2,400 formula cells equal to Excel's; its first rows and dependents "
      "rebuilt in tests/test_excel_stock_history.py; inside LET or another function, given "
      "TODAY(), or inputs changed, refused: open the workbook in Excel to fetch the prices "
      "again",
      xlfn=True, array_context=True, place_only=True)
