"""napkin's own Excel functions (``addin/excel/``) that take the place of formulas' in its
table of functions: one row each, (name, ours under ``addin.excel``, what it corrects,
evidence). ``addin.formula.patches`` makes each row a ``Patch``; the rows are here, apart
from formulas' other corrections, because they are many and of one kind."""

from __future__ import annotations

MISSING = "missing from formulas"
_UNLIKE = "formulas' {} computes unlike Excel; ours follows Microsoft's help page"
_AGGREGATE = ("formulas' {} takes its arguments unlike Excel: in a reference Excel ignores "
              "text, logical values and empty cells; given directly, \"3\" and TRUE count")
_AGGREGATE_EVIDENCE = ("Microsoft Support, \"SUM function\" and \"COUNT function\"; "
                       "tests/test_excel_functions.py")


def _ms(name: str, test: str) -> str:
    return f"Microsoft Support, \"{name} function\" (its examples); tests/{test}"


#: Excel functions of addin/excel/ in formulas' table: (name, ours under addin.excel,
#: what it corrects, evidence)
EXCEL_FUNCTIONS = (
    ("SUBTOTAL", "aggregates:subtotal", MISSING, _ms("SUBTOTAL", "test_excel_functions.py")),
    *((name, "aggregate:aggregate", MISSING, _ms("AGGREGATE", "test_excel_aggregate.py"))
      for name in ("AGGREGATE", "_XLFN.AGGREGATE")),
    ("COMBIN", "aggregates:combin", MISSING, _ms("COMBIN", "test_excel_functions.py")),
    ("COMBINA", "aggregates:combina", MISSING, _ms("COMBINA", "test_excel_functions.py")),
    ("_XLFN.COMBINA", "aggregates:combina", MISSING,
     _ms("COMBINA", "test_excel_functions.py")),
    ("CHOOSE", "choose:choose", _UNLIKE.format("CHOOSE") + " (the reference chosen, "
     "SUM(CHOOSE(2,A1:A3,B1:B3)) sums B1:B3)", _ms("CHOOSE", "test_excel_lookups.py")),
    ("LOOKUP", "lookup:lookup", _UNLIKE.format("LOOKUP"), _ms("LOOKUP", "test_excel_lookups.py")),
    ("ADDRESS", "address:address", "formulas' ADDRESS quotes every sheet name and writes rows"
     " and columns past Excel's grid: ours follows Microsoft's page and Excel's saved cells, "
     "refusing in strict mode what neither shows", _ms("ADDRESS", "test_checked_lookups.py")),
    *((name, "refusals:CHECKED", f"formulas' {name} given TRUE or FALSE as a number, "
       "where Microsoft's page does not say Excel's value: refused in strict mode"
       + (" (and its half rounded to even: away from zero, MROUND(1.3,0.2) is 1.4)"
          if name == "MROUND" else ""),
       _ms(name.removeprefix("_XLFN."),
           "test_excel_referee_math.py::test_logical_numbers_refused"
           if name in ("MROUND", "DELTA", "RANK") else "test_checked_rank.py"))
      for name in ("MROUND", "DELTA", "RANK", "RANK.EQ", "_XLFN.RANK.EQ", "RANK.AVG",
                   "_XLFN.RANK.AVG")),
    *((name, "refusals:CHECKED", f"formulas' {name} given TRUE or FALSE as a number, "
       "where Microsoft's page does not say Excel's value: refused in strict mode"
       + (" (and a size below 1, of which its page says nothing)"
          if name.endswith("CONFIDENCE.T") else ""),
       _ms(name.removeprefix("_XLFN."), "test_checked_confidence.py"))
      for name in ("CONFIDENCE", "CONFIDENCE.NORM", "_XLFN.CONFIDENCE.NORM", "CONFIDENCE.T",
                   "_XLFN.CONFIDENCE.T")),
    *((name, "refusals:CHECKED", f"formulas' {name} computes arguments Microsoft's page "
       "does not settle (HOUR, MINUTE, SECOND: round a time unlike Excel; POISSON: does not "
       "truncate x; FIND: \"\" past within_text): ours in strict mode refuses them",
       _ms(name.removeprefix("_XLFN."), "test_checked_common.py"))
      for name in ("AVERAGEA", "FIND", "HOUR", "ISEVEN", "ISODD", "MAXA", "MINA",
                   "MINUTE", "POISSON", "POISSON.DIST", "_XLFN.POISSON.DIST", "REPLACE",
                   "SECOND", "SUMX2MY2", "SUMX2PY2", "SUMXMY2")),
    ("POWER", "refusals:CHECKED", "formulas' POWER gives 0 for a result too small for a "
     "float, where Microsoft's page does not say Excel's value: refused in strict mode",
     _ms("POWER", "test_excel_referee_math.py::test_a_power_too_small_for_a_float")),
    ("XNPV", "refusals:CHECKED", "formulas' XNPV sorts the dates and counts from the "
     "earliest: #NUM! where a date precedes the first (its page); a rate not above 0 "
     "refused in strict mode", _ms("XNPV", "test_excel_referee_math.py::test_xnpv_dates")),
    ("NPV", "refusals:CHECKED", "formulas' NPV at a rate of -1 divides by 0 and gives a "
     "value no error test sees, where Microsoft's page does not say Excel's value: refused "
     "in strict mode", _ms("NPV", "test_excel_referee_math.py::test_npv_at_a_rate_of_minus_1")),
    ("MOD", "refusals:CHECKED", "formulas' MOD of a text that is no number by 0 is "
     "#VALUE!, where Microsoft's page does not say which error comes first: refused in "
     "strict mode", _ms("MOD", "test_excel_referee_math.py::test_mod_of_text_by_0")),
    ("MDETERM", "refusals:CHECKED", "formulas' MDETERM in floating point, whose last "
     "digits Microsoft does not document: refused in strict mode where it is not exact",
     _ms("MDETERM", "test_excel_referee_math.py::test_mdeterm_not_exact")),
    ("MINVERSE", "refusals:CHECKED", "formulas' MINVERSE in floating point, whose last "
     "digits Microsoft does not document: refused in strict mode where it is not the exact "
     "inverse", _ms("MINVERSE", "test_excel_referee_math.py::test_minverse_not_exact")),
    *((name, f"annuity:{name.lower()}", f"formulas' {name} (numpy-financial) computes "
       "(1+rate)^nper by a power, its last digits 1e-14 off Excel's (a loan's last "
       "balance 7.6 times Excel's -5.6E-11), and computes a rate of -1 or below and a type "
       "other than 0 or 1, where Microsoft's page does not say Excel's value (LibreOffice "
       "#NUM!): ours with exp and expm1 of nper * log1p(rate), those refused in strict mode",
       f"Microsoft Support, \"{name} function\" (its examples), \"PV function\" (the "
       "annuity equation); the values Excel saved in tests/corpus/xlcalculator/PMT.xlsx and "
       "tests/corpus/poi/FormulaEvalTestData_Copy.xlsx; tests/test_excel_finance.py, "
       "tests/test_checked_widened.py")
      for name in ("PMT", "FV", "PV")),
    *((name, f"annuity:{name.lower()}", f"formulas' {name} (numpy-financial) computes the "
       "balance forward from pv, (1+rate)^per by a power, its last digits off Excel's "
       "(Excel's IPMT and PPMT are the present value of the payments left: "
       "formula_stress_test Finance!B17, B21 to the last digit), and computes a per that is "
       "not a whole number, a rate of -1 or below, a type other than 0 or 1 and logical "
       "values, where Microsoft's pages do not say Excel's value: ours with exp and expm1 "
       "of -(nper-per+1) * log1p(rate), those refused in strict mode, and #NUM! for a whole "
       "per below 1 or above nper ([MS-OI29500] 2.1.978, 2.1.1019)",
       f"Microsoft Support, \"{name} function\" (its examples), \"PV function\" (the "
       "annuity equation); the values Excel saved in "
       "tests/corpus/sheetjs/formula_stress_test.xlsx; tests/test_excel_finance.py")
      for name in ("IPMT", "PPMT")),
    *((name, "annuity:rri", "formulas' RRI gives #NUM! for an fv of 0 or below, where "
       "Microsoft's page does not say which values are not valid: refused in strict mode "
       "wherever an argument is not above 0", _ms("RRI", "test_checked_widened.py"))
      for name in ("RRI", "_XLFN.RRI")),
    ("DB", "depreciation:db", "formulas' DB gives #NUM! for arguments Microsoft's page "
     "does not settle (LibreOffice #VALUE!): refused in strict mode there",
     "Microsoft Support, \"DB function\" (its examples); the values Excel saved in "
     "tests/corpus/xlcalculator/VDB.xlsx; tests/test_excel_finance.py"),
    ("DDB", "depreciation:ddb", "formulas' DDB (LibreOffice's closed form) puts the last "
     "digits 1e-13 off Excel's, and computes arguments Microsoft's page does not settle: "
     "ours sums the page's formula period by period, those refused in strict mode",
     "Microsoft Support, \"DDB function\" (its examples); the value Excel saved in "
     "tests/corpus/sheetjs/formula_stress_test.xlsx; tests/test_checked_finance.py"),
    ("SYD", "depreciation:syd", "formulas' SYD computes a salvage above the cost and "
     "fractional periods, where Microsoft's page does not say Excel's value: refused in "
     "strict mode", _ms("SYD", "test_checked_finance.py")),
    *((name, f"annuity:{name.lower()}", f"formulas' {name} sums numpy-financial's "
       "IPMT or PPMT (their last digits off Excel's, as formulas' IPMT's and PPMT's): ours "
       "sums napkin's, Excel's saved cells to 1e-15, fractional periods (Excel truncates "
       "them, its page does not say) and logical values refused in strict mode",
       _ms(name, "test_checked_finance.py")) for name in ("CUMIPMT", "CUMPRINC")),
    *((name, f"rate_conversions:{name.lower()}", f"formulas' {name} computes a rate near 0 "
       "whose last digits depend on how 1 is subtracted, where Microsoft's page does not "
       "say Excel's: refused in strict mode where two roundings differ",
       _ms(name, "test_checked_finance.py"))
      for name in ("EFFECT", "NOMINAL")),
    *((name, "rate_conversions:mirr", "formulas' MIRR, numpy-financial's form, is not the "
       "page's formula: ours computes the page's, checked against that form, and refuses "
       "in strict mode a single value, an empty or logical rate and a rate of -1 or below, "
       "which the page does not settle",
       _ms("MIRR", "test_checked_finance.py")) for name in ("MIRR", "_XLFN.MIRR")),
    ("VDB", "depreciation:vdb", _UNLIKE.format("VDB") + " (for whole periods; the rest "
     "refused in strict mode)", "Microsoft Support, \"VDB function\" (its examples); the "
     "values Excel saved in tests/corpus/xlcalculator/VDB.xlsx; tests/test_excel_finance.py"),
    ("DOLLAR", "text:dollar", MISSING, _ms("DOLLAR", "test_excel_text.py")),
    ("BASE", "text:base", MISSING, _ms("BASE", "test_excel_text.py")),
    ("_XLFN.BASE", "text:base", MISSING, _ms("BASE", "test_excel_text.py")),
    ("HYPERLINK", "text:hyperlink", MISSING, _ms("HYPERLINK", "test_excel_text.py")),
    ("OFFSET", "references:offset", MISSING, _ms("OFFSET", "test_excel_lookups.py")),
    ("INDIRECT", "references:indirect", MISSING, _ms("INDIRECT", "test_excel_lookups.py")),
    *((name, f"references:{name.lower()}", _UNLIKE.format(name) + " (an array constant "
       "has rows and columns too: formulas' takes references only)",
       _ms(name, "test_excel_referee.py")) for name in ("ROWS", "COLUMNS")),
    ("COUNTA", "aggregates:counta", _UNLIKE.format("COUNTA") + " (a formula's \"\" and "
     "error values count, empty cells do not)", _ms("COUNTA", "test_excel_text.py")),
    ("SEARCH", "text:search", _UNLIKE.format("SEARCH") + " (? * ~ wildcards, numbers "
     "searched as Excel writes them)", "Microsoft Support, \"SEARCH, SEARCHB functions\" "
     "(its examples); apache/poi FormulaEvalTestData.xls (SEARCH(1,0.00001) is 7); "
     "tests/test_excel_text.py"),
    ("SEARCHB", "text:search", _UNLIKE.format("SEARCHB") + " (as SEARCH)",
     "Microsoft Support, \"SEARCH, SEARCHB functions\""),
    *((name, "aggregates:AGGREGATES", _AGGREGATE.format(name), _AGGREGATE_EVIDENCE)
      for name in ("SUM", "AVERAGE", "MIN", "MAX", "COUNT", "PRODUCT", "SUMSQ", "DEVSQ",
                   "AVEDEV", "MEDIAN", "VAR", "VARP", "STDEV", "STDEVP", "_XLFN.VAR.S",
                   "VAR.S", "_XLFN.VAR.P", "VAR.P", "_XLFN.STDEV.S", "STDEV.S",
                   "_XLFN.STDEV.P", "STDEV.P")),
    *((f"{a}2{b}", "text:BASE_CONVERSIONS", _UNLIKE.format(f"{a}2{b}") + " (places checked "
       "first, ten digits of two's complement for a negative number)",
       _ms(f"{a}2{b}", "test_excel_text.py"))
      for a in ("BIN", "OCT", "DEC", "HEX") for b in ("BIN", "OCT", "DEC", "HEX") if a != b),
    ("TEXT", "text:text", _UNLIKE.format("TEXT") + " (the number formats of addin/excel/"
     "numfmt.py)", _ms("TEXT", "test_excel_text.py")),
    ("XLOOKUP", "lookup:xlookup", _UNLIKE.format("XLOOKUP"),
     _ms("XLOOKUP", "test_excel_lookups.py")),
    ("_XLFN.XLOOKUP", "lookup:xlookup", _UNLIKE.format("XLOOKUP"),
     _ms("XLOOKUP", "test_excel_lookups.py")),
    *((name, "workdays:WORKDAYS", _UNLIKE.format(name.removeprefix("_XLFN.")) + " (formulas "
       "reads a weekend string by its first seven characters, an empty weekend as #NUM!, "
       "and dates before 1 March 1900 by its own calendar): ours computes what the page "
       "settles and refuses the rest in strict mode",
       _ms(name.removeprefix("_XLFN."), "test_excel_workdays.py"))
      for name in ("NETWORKDAYS", "NETWORKDAYS.INTL", "WORKDAY.INTL", "WEEKNUM",
                   "ISOWEEKNUM", "_XLFN.ISOWEEKNUM", "TIMEVALUE")),
    ("YEARFRAC", "dates:yearfrac", _UNLIKE.format("YEARFRAC") + " (2012-01-01 to "
     "2012-07-30 is 0.58055556, 0.57650273, 0.57808219 for bases 0, 1, 3)",
     _ms("YEARFRAC", "test_excel_cases.py")),
    ("DATE", "dates:date", _UNLIKE.format("DATE") + " (a year from 0 to 1899 counted from "
     "1900, months and days beyond their range carried over)",
     _ms("DATE", "test_excel_cases.py")),
    *((name, f"logic:{by}", _UNLIKE.format(name.removeprefix("_XLFN.")) + " (the text "
       "\"TRUE\" given directly is TRUE; text in a reference is left out)",
       _ms(name.removeprefix("_XLFN."), "test_excel_core.py"))
      for name, by in (("AND", "and_"), ("OR", "or_"), ("XOR", "xor"), ("_XLFN.XOR", "xor"))),
    *((name, "logic:switch", _UNLIKE.format("SWITCH") + " (text matched without case, a "
       "number never equal to a logical value)", _ms("SWITCH", "test_excel_core.py"))
      for name in ("SWITCH", "_XLFN.SWITCH")),
    *((name, "logic:ifs", _UNLIKE.format("IFS") + " (a test that is a number, an empty "
       "cell, an error value or a range refused where the page does not settle it)",
       _ms("IFS", "test_checked_common_more.py")) for name in ("IFS", "_XLFN.IFS")),
    ("RANDBETWEEN", "dynamic_shape:randbetween", "formulas' RANDBETWEEN gives numbers that "
     "are not whole (RANDBETWEEN(1,3) 2.51...)", _ms("RANDBETWEEN", "test_checked_common_more.py")),
    ("PROPER", "text:proper", "formulas' PROPER capitalizes letters beyond ASCII by "
     "Python's rules: ours refuses text holding them in strict mode",
     _ms("PROPER", "test_checked_common_more.py")),
    *((name, "text:textjoin", _UNLIKE.format("TEXTJOIN") + " (an omitted delimiter is "
       "none, not \"0\")", _ms("TEXTJOIN", "test_excel_core.py"))
      for name in ("TEXTJOIN", "_XLFN.TEXTJOIN")),
    *((name, "references:single", "formulas' SINGLE (the @ operator) intersects a "
       "one-cell reference or a row with the formula's row only (=@A1 in B3 and =@B1:D1 "
       "in C5 were #VALUE!); Excel takes a one-cell reference's value and a row's cell in "
       "the formula's column", "Microsoft Support, \"Implicit intersection operator: @\"; "
       "tests/test_excel_lookups.py::test_single_is_the_implicit_intersection_operator")
      for name in ("SINGLE", "_XLFN.SINGLE")),
    *((name, f"dynamic:{by}", f"formulas' {name.split('.')[-1]} computes unlike Excel "
       "(SORT: text by case and TRUE among numbers; UNIQUE: text by case; FILTER: #VALUE! "
       "where Excel gives #CALC!); ours follows Microsoft's page, refusing in strict mode "
       "what it does not settle", _ms(name.split(".")[-1], "test_excel_dynamic.py"))
      for name, by in (("SORT", "sort"), ("_XLFN._XLWS.SORT", "sort"), ("UNIQUE", "unique"),
                       ("_XLFN.UNIQUE", "unique"), ("FILTER", "filter_"),
                       ("_XLFN._XLWS.FILTER", "filter_"), ("TAKE", "take"),
                       ("_XLFN.TAKE", "take"), ("DROP", "drop"), ("_XLFN.DROP", "drop"))),
    *((name, f"dynamic_shape:{name.split('.')[-1].lower()}", f"formulas' "
       f"{name.split('.')[-1]} takes an empty cell as it is and CHOOSECOLS an index past "
       "the array unlike Excel; ours follows Microsoft's page, refusing in strict mode what "
       "it does not settle", _ms(name.split(".")[-1], "test_excel_dynamic_shape.py"))
      for name in ("SORTBY", "_XLFN.SORTBY", "CHOOSECOLS", "_XLFN.CHOOSECOLS", "CHOOSEROWS",
                   "_XLFN.CHOOSEROWS", "VSTACK", "_XLFN.VSTACK", "HSTACK", "_XLFN.HSTACK")),
    *((name, "dynamic_shape:sequence", MISSING,
       _ms("SEQUENCE", "test_excel_dynamic_shape.py")) for name in ("SEQUENCE",
                                                                     "_XLFN.SEQUENCE")),
    *((name, "dynamic_shape:randarray", MISSING,
       _ms("RANDARRAY", "test_excel_dynamic_shape.py")) for name in ("RANDARRAY",
                                                                      "_XLFN.RANDARRAY")),
    *((name, "lookup:xmatch", _UNLIKE.format("XMATCH") + " (text and numbers never "
       "matched, its modes read as XLOOKUP's, refusing what the page does not settle)",
       _ms("XMATCH", "test_excel_text_parts.py")) for name in ("XMATCH", "_XLFN.XMATCH")),
    *((name, f"text_parts:{name.split('.')[-1].lower()}", f"formulas' "
       f"{name.split('.')[-1]} computes unlike Excel (TEXTBEFORE, TEXTAFTER: an empty "
       "delimiter #VALUE!, where the page says it matches at once; NUMBERVALUE: signs, "
       "exponents and parentheses read, the locale taken as en-US); ours follows "
       "Microsoft's page, refusing in strict mode what it does not settle",
       _ms(name.split(".")[-1], "test_excel_text_parts.py"))
      for name in ("TEXTBEFORE", "_XLFN.TEXTBEFORE", "TEXTAFTER", "_XLFN.TEXTAFTER",
                   "TEXTSPLIT", "_XLFN.TEXTSPLIT", "NUMBERVALUE", "_XLFN.NUMBERVALUE")),
    # (FIELDVALUE, a field of a linked data type, Stocks or Geography: Excel saves
    # FIELDVALUE(A1,"Price") and A1.Price as _FV)
    *((name, "linked_data:field_value", MISSING, "Microsoft Support, "
       "\"FIELDVALUE function\"; [MS-XLSX] 2.6.175 CT_RichValue; "
       "tests/test_excel_linked_data.py") for name in ("_FV", "FIELDVALUE")),
    # (STOCKHISTORY: the prices Excel fetched, as saved in its spill range)
    *((name, "stock_history:stock_history", MISSING, "Microsoft Support, \"STOCKHISTORY "
       "function\"; tests/test_excel_stock_history.py")
      for name in ("STOCKHISTORY", "_XLFN.STOCKHISTORY")),
    # (GETPIVOTDATA: the value a pivot table shows, read from its cells as Excel drew them)
    ("GETPIVOTDATA", "pivot_data:getpivotdata", MISSING,
     _ms("GETPIVOTDATA", "test_excel_pivot_data.py")),
    *((name, "formulatext:formulatext", MISSING, "Microsoft Support, \"FORMULATEXT "
       "function\"; tests/test_excel_formulatext.py")
      for name in ("FORMULATEXT", "_XLFN.FORMULATEXT")),
    ("INDEX", "lookup:index", _UNLIKE.format("INDEX") + " (a reference, row or column 0 "
     "the whole column or row)", _ms("INDEX", "test_excel_lookups.py")),
    *((name, "unit_convert:convert", "formulas' CONVERT multiplies by the ratio of the "
       "units (CONVERT(x,\"day\",\"hr\") x*24); Excel takes the number to the base unit "
       "and then from it (x*86400/3600), other last digits: ours, for the units of time, "
       "others refused", "Microsoft Support, \"CONVERT function\" (its table of units); "
       "tests/test_checked_convert.py") for name in ("CONVERT", "_XLFN.CONVERT")),
    ("REPT", "repeat_text:rept", "formulas' REPT gives \"\" for a negative number_times "
     "and text of any length: ours follows Microsoft's page (#VALUE! past 32,767 "
     "characters)", _ms("REPT", "test_checked_criteria_extremes.py")),
    ("N", "number_value:n", "formulas' N gives TRUE back as TRUE and a numpy integer as 0:"
     " ours follows Microsoft's table (TRUE 1, FALSE 0, text 0)",
     _ms("N", "test_checked_criteria_extremes.py")),
    *((name, f"criteria_extremes:{name.removeprefix('_XLFN.').lower()}",
       f"formulas' {name} reads a matched empty cell, text or logical value and a call "
       "matching nothing unlike anything Microsoft's page settles, and counts a formula's "
       "\"\" as empty for \"<>\" and \"=\": ours computes what the page settles and "
       "refuses the rest in strict mode",
       _ms(name.removeprefix("_XLFN."), "test_checked_criteria_extremes.py"))
      for name in ("MAXIFS", "_XLFN.MAXIFS", "MINIFS", "_XLFN.MINIFS")),
)
