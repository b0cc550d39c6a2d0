"""Excel's probability distributions and tests (Excel's category "Statistical"): what napkin
knows of each, one declaration a function (``addin.formula.excel_functions``)."""

from addin.formula.excel_functions import ALL, excel

excel("BETA.DIST", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B2, "
      "its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_beta.py computes it); Microsoft Support, \"BETA.DIST function\" "
      "(BETA.DIST(2,8,10,TRUE,1,3) = 0.6854706, FALSE 1.4837646); tests/test_checked_beta.py "
      "(40-digit values, LibreOffice); refused where its page settles no value "
      "(addin/formula/fx_excel_stats.py); an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it; 51 cells the business corpus's second held-out part (seen) saved: "
      "Containership_ABS_Model - Copy.xlsm, Beta_Dis!AC5:AC55, "
      "BETA.DIST(#NAME?,#REF!,#REF!,FALSE,#NAME?,#NAME?) #NAME?): tests/test_first_error.py; "
      "an empty cell (read as 0, Microsoft KB Q149577, \"XL: Formula to Correctly Evaluate "
      "Blank Cells\"): x, A or B 0 (BETA.DIST(0.5,2,3,TRUE,A1) = 11/16 by hand); an empty "
      "cumulative refused; tests/test_checked_empty_math.py",
      xlfn=True, value_args=ALL, first_error=True)
excel("BETA.INV", "scalars, cells, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B3, "
      "its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_beta.py computes it); Microsoft Support, \"BETA.INV function\" "
      "(BETA.INV(0.685470581,8,10,1,3) = 2); tests/test_checked_beta.py (40-digit values, "
      "LibreOffice); refused where its page settles no value or the result magnifies the last "
      "digits of BETA.DIST (addin/formula/fx_excel_stats.py); an error value (the first in "
      "argument order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given"
      " an error value returns it; Containership_ABS_Model - Copy.xlsm, Beta_Dis!Z15, "
      "BETA.INV(RAND(),#REF!,#REF!,#NAME?,#NAME?) #REF!): tests/test_first_error.py",
      xlfn=True, value_args=ALL, first_error=True)
excel("BETADIST", "scalars, cells, empty, errors",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B4, "
      "its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_beta.py computes it); Microsoft Support, \"BETADIST function\" "
      "(BETADIST(2,8,10,1,3) = 0.685470581); tests/test_checked_beta.py; an empty cell (read "
      "as 0, Microsoft KB Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\"): x, A or B"
      " 0 (BETADIST(0.5,2,3,A1) = 11/16 by hand); tests/test_checked_empty_math.py ; an error "
      "value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, first_error=True)
#: not checked: its page says it iterates until the result is within 3E-7, and ECMA-376's
#: example, BETAINV(0.5,1,2) = 0.29289341, is 1.9E-7 from the exact 1 - 1/sqrt(2)
excel("BETAINV", value_args=ALL)
excel("CHISQ.DIST.RT", "scalars, cells",
      "Microsoft Support, \"CHISQ.DIST.RT function\" (its example: CHISQ.DIST.RT(18.307,10) is "
      "0.0500006; deg_freedom truncated; #NUM! for a deg_freedom below 1) and \"CHIDIST "
      "function\", the function it replaces (#NUM! for an x below 0): "
      "tests/test_checked_moments.py",
      xlfn=True)
excel("CHISQ.TEST", "ranges",
      "Microsoft Support, \"CHISQ.TEST function\" (its example 0.0003082; #N/A for ranges of "
      "different numbers of points); the cell Excel saved in part heldout6 (seen), A-B "
      "Testing.xlsx, L47 = 1.8035589814179596E-13, and formula_stress_test.xlsx B118 "
      "(tests/test_checked_confidence.py); 40-digit values at many points: "
      "tests/test_checked_chisq.py; refused where its page settles nothing "
      "(addin/formula/fx_excel_stats.py)",
      xlfn=True, array_context=True)
excel("CONFIDENCE", "scalars, cells, errors",
      "Microsoft Support, \"CONFIDENCE function\" (CONFIDENCE(0.05,2.5,50) = 0.692952, "
      "NORM.S.INV(1-alpha/2)*standard_dev/SQRT(size); size truncated; #NUM! for alpha outside "
      "(0, 1), standard_dev <= 0 or size < 1); formulas computes it as CONFIDENCE.NORM; 156 "
      "cells Excel saved in the business corpus's sixth held-out part (seen), Sales "
      "Forecast.xlsx, Forecast!BJ4:BU16 = CONFIDENCE(0.05,STDEV(Z4:AK4),COUNT(Z4:AK4)), all "
      "equal (napkin calc keeps Excel's values there, as they read FORECAST.ETS cells: "
      "tests/test_checked_confidence.py computes them, and B15:B17 of "
      "tests/corpus/sheetjs/formula_stress_test.xlsx); tests/test_checked_confidence.py "
      "(40-digit values at many points); a logical value refused (addin/excel/refusals.py) ; "
      "an error value (the first in argument order, addin/engine/first_error.py: [MS-VSDX] "
      "2.2.11.2.2.2.8, a function given an error value returns it): tests/test_errors_given.py",
      value_args=ALL, no_logical=("alpha", "standard_dev", "size"), first_error=True)
excel("CONFIDENCE.NORM", "scalars, cells, errors",
      "Microsoft Support, \"CONFIDENCE.NORM function\" (0.692952, CONFIDENCE's rules); "
      "CONFIDENCE's saved cells (one function in formulas); tests/test_checked_confidence.py; "
      "refused as CONFIDENCE (addin/excel/refusals.py) ; an error value (the first in argument"
      " order, addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an "
      "error value returns it): tests/test_errors_given.py",
      xlfn=True, value_args=ALL, no_logical=("alpha", "standard_dev", "size"), first_error=True)
excel("CONFIDENCE.T", "scalars, cells, errors",
      "Microsoft Support, \"CONFIDENCE.T function\" (CONFIDENCE.T(0.05,1,50) = 0.284196855, "
      "Student's t with size - 1 degrees of freedom; size truncated; #DIV/0! for a size of 1; "
      "#NUM! for alpha outside (0, 1) or standard_dev <= 0); tests/test_checked_confidence.py "
      "(40-digit values); a logical value and a size below 1 (its page is silent) refused "
      "(addin/excel/refusals.py) ; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      xlfn=True, value_args=ALL, no_logical=("alpha", "standard_dev", "size"), first_error=True)
excel("KURT", "scalars, cells, ranges",
      "Microsoft Office 97 help, \"KURT\" (KURT(3,4,5,2,3,4,5,6,4,7) returns -0.1518) and "
      "Microsoft Support, \"KURT function\" (the same ten values in A2:A11, -0.151799637; "
      "#DIV/0! for fewer than four points or a standard deviation of 0): "
      "tests/test_checked_moments.py")
excel("NORM.DIST", "scalars, cells, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B41; "
      "its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_paired.py computes it); Microsoft Support, \"NORM.DIST function\" "
      "(NORM.DIST(42,40,1.5,TRUE) = 0.9087888, FALSE 0.10934); tests/test_checked_paired.py; "
      "refused for a cumulative that is not TRUE or FALSE (addin/formula/fx_excel_stats.py) ; "
      "a range or an array where it takes one value, in an array formula or inside SUMPRODUCT "
      "(element by element, the result the broadcast of its arguments, an error value per "
      "element; arrays of different sizes refused, addin/formula/array_sizes.py): Microsoft "
      "Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py; an empty cell (read as 0, Microsoft KB Q149577, \"XL:"
      " Formula to Correctly Evaluate Blank Cells\"): x or mean 0, #NUM! for a standard_dev of "
      "0 (its page); an empty cumulative refused (addin/formula/fx_excel_stats.py); "
      "tests/test_checked_empty_math.py",
      xlfn=True, elementwise=True)
excel("NORM.INV", "scalars, cells, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B42); "
      "Microsoft Support, \"NORM.INV function\" (NORM.INV(0.908789,40,1.5) = 42.000002); "
      "tests/test_checked_stats.py; refused where the mean and standard_dev * z cancel "
      "(addin/formula/fx_excel_stats.py) ; a range or an array where it takes one value, in an"
      " array formula or inside SUMPRODUCT (element by element, the result the broadcast of "
      "its arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py; an empty cell (read as 0, Microsoft KB "
      "Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\"): #NUM! for a probability or "
      "standard_dev of 0 (its page); tests/test_checked_empty_math.py",
      elementwise=True)
excel("NORM.S.DIST", "scalars, cells, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B43; "
      "its file computed since 7 December 2026 (tests/test_fidelity.py), and "
      "tests/test_checked_paired.py computes it); Microsoft Support, \"NORM.S.DIST function\" "
      "(NORM.S.DIST(1.333333,TRUE) = 0.908788726, FALSE 0.164010148); the cells Excel saved in"
      " the business corpus's fourth held-out part (seen), Inventory reorder point .xlsx "
      "('Reorder point'!I37 = NORM.S.DIST(1,TRUE) = 0.841344746068543); "
      "tests/test_checked_paired.py; refused for a cumulative that is not TRUE or FALSE "
      "(addin/formula/fx_excel_stats.py) ; a range or an array where it takes one value, in an"
      " array formula or inside SUMPRODUCT (element by element, the result the broadcast of "
      "its arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py; an empty cell (read as 0, Microsoft KB "
      "Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\"): NORM.S.DIST(0,TRUE) = 0.5; "
      "an empty cumulative refused; tests/test_checked_empty_math.py",
      xlfn=True, elementwise=True)
excel("NORM.S.INV", "scalars, cells, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B44); "
      "Microsoft Support, \"NORM.S.INV function\" (NORM.S.INV(0.908789) = 1.3333347); "
      "tests/test_checked_stats.py ; a range or an array where it takes one value, in an array"
      " formula or inside SUMPRODUCT (element by element, the result the broadcast of its "
      "arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py; an empty cell (read as 0, Microsoft KB "
      "Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\"): #NUM! for a probability of 0"
      " (its page); tests/test_checked_empty_math.py",
      elementwise=True)
excel("NORMDIST", "scalars, cells",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B45, "
      "NORMDIST(C41,D41,E41,F41) = NORMDIST(0,-1,3,TRUE) = 0.6305586598182364, as B41 "
      "NORM.DIST of the same cells: tests/test_fidelity.py); Microsoft Support, \"NORMDIST "
      "function\" (NORMDIST(42,40,1.5,TRUE) = 0.9087888, FALSE 0.10934: the examples of "
      "NORM.DIST's page, which replaces it); formulas computes it with NORM.DIST's function "
      "(formulas/functions/comp.py); tests/test_checked_paired.py; refused for a cumulative "
      "that is not TRUE or FALSE (addin/formula/fx_excel_stats.py)")
excel("NORMSDIST", "scalars, cells",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B47, "
      "NORMSDIST(C47) = NORMSDIST(2) = 0.9772498680518208: tests/test_fidelity.py); Microsoft "
      "Support, \"NORMSDIST function\" (NORMSDIST(1.333333) = 0.908788726); formulas computes it"
      " with NORM.S.DIST's function, cumulative (formulas/functions/comp.py); "
      "tests/test_checked_paired.py")
excel("NORMINV", "scalars, cells, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B46); "
      "Microsoft Support, \"NORMINV function\" (the same example); tests/test_checked_stats.py; "
      "refused where the mean and standard_dev * z cancel (addin/formula/fx_excel_stats.py) ; "
      "a range or an array where it takes one value, in an array formula or inside SUMPRODUCT "
      "(element by element, the result the broadcast of its arguments, an error value per "
      "element; arrays of different sizes refused, addin/formula/array_sizes.py): Microsoft "
      "Support, \"Guidelines and examples of array formulas\"; "
      "tests/test_elementwise_lifting.py; an empty cell (read as 0, Microsoft KB Q149577, \"XL:"
      " Formula to Correctly Evaluate Blank Cells\"): #NUM! for a probability or standard_dev "
      "of 0 (its page); tests/test_checked_empty_math.py",
      elementwise=True)
excel("NORMSINV", "scalars, cells, empty",
      "values Excel saved in tests/corpus/sheetjs/formula_stress_test.xlsx (Statistical!B48); "
      "Microsoft Support, \"NORMSINV function\" (NORMSINV(0.9088) = 1.3334); "
      "tests/test_checked_stats.py ; a range or an array where it takes one value, in an array"
      " formula or inside SUMPRODUCT (element by element, the result the broadcast of its "
      "arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py; an empty cell (read as 0, Microsoft KB "
      "Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\"): #NUM! for a probability of 0"
      " (its page); tests/test_checked_empty_math.py",
      elementwise=True)
excel("POISSON", "scalars, cells, empty, errors",
      "Microsoft Support, \"POISSON function\" (the same computation as POISSON.DIST: "
      "POISSON(2,5,TRUE) = 0.124652, POISSON(2,5,FALSE) = 0.084224; x truncated); "
      "tests/test_checked_common.py; refused for a mean of 0 and a cumulative that is not TRUE"
      " or FALSE (addin/excel/refusals.py) ; a range or an array where it takes one value, in "
      "an array formula or inside SUMPRODUCT (element by element, the result the broadcast of "
      "its arguments, an error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py; an empty cell (read as 0, Microsoft KB "
      "Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\") as x: P(X <= 0) = e^-mean; an"
      " empty mean (0) or cumulative refused (addin/excel/refusals.py); "
      "tests/test_checked_empty_math.py ; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      elementwise=True, value_args=ALL, first_error=True)
excel("POISSON.DIST", "scalars, cells, empty, errors",
      "Microsoft Support, \"POISSON.DIST function\" (POISSON.DIST(2,5,TRUE) = 0.124652, "
      "POISSON.DIST(2,5,FALSE) = 0.084224; x truncated); tests/test_checked_common.py; refused"
      " as POISSON ; a range or an array where it takes one value, in an array formula or "
      "inside SUMPRODUCT (element by element, the result the broadcast of its arguments, an "
      "error value per element; arrays of different sizes refused, "
      "addin/formula/array_sizes.py): Microsoft Support, \"Guidelines and examples of array "
      "formulas\"; tests/test_elementwise_lifting.py; an empty cell (read as 0, Microsoft KB "
      "Q149577, \"XL: Formula to Correctly Evaluate Blank Cells\") as x: P(X = 0) = e^-mean; an "
      "empty mean (0) or cumulative refused (addin/excel/refusals.py); "
      "tests/test_checked_empty_math.py ; an error value (the first in argument order, "
      "addin/engine/first_error.py: [MS-VSDX] 2.2.11.2.2.2.8, a function given an error value "
      "returns it): tests/test_errors_given.py",
      xlfn=True, elementwise=True, value_args=ALL, first_error=True)
excel("SKEW", "scalars, cells, ranges",
      "Microsoft Support, \"SKEW function\" (its example: 3, 4, 5, 2, 3, 4, 5, 6, 4, 7 in "
      "A2:A11, 0.359543071; #DIV/0! for fewer than three points or a standard deviation of 0):"
      " tests/test_checked_moments.py")
