"""The arguments each checked function (``addin/formula/excel_functions/``) takes, as the
differential test writes calls of it.

A signature is ``(required, optional, repeat)``: the kinds of the required arguments, of
the optional ones (a call takes a prefix of them), and of arguments that may follow
(up to two more). The kinds are the letters of ``inputs.ATOMS`` (``rr``: a range of
cells, where Excel takes a reference and no array constant). A function whose result is
an array is called inside ``SUM(...)``, ``INDEX(...,1,1)`` or ``COUNT(...)``
(``ARRAY_RESULT``), so that one cell holds one value in every spreadsheet program.
``vr``: a value or a range of cells, where a function may give back the range it is
given (IF, CHOOSE, IFS, SWITCH, IFERROR, IFNA), read at the formula's cell
(tests/test_branch_references.py).
"""

from __future__ import annotations

SIGNATURES: dict[str, tuple[tuple[str, ...], tuple[str, ...], str | None]] = {
    "ABS": (("n",), (), None), "ACOS": (("n",), (), None), "ASIN": (("n",), (), None),
    "ATAN": (("n",), (), None), "ATAN2": (("n", "n"), (), None),
    "AND": (("v",), (), "v"), "OR": (("v",), (), "v"), "NOT": (("v",), (), None),
    "AVERAGE": (("r",), (), "n"), "AVERAGEIF": (("rr", "c"), ("rr",), None),
    "BASE": (("i", "base"), ("i",), None),
    "BIN2DEC": (("bin",), (), None), "BIN2HEX": (("bin",), ("i",), None),
    "BIN2OCT": (("bin",), ("i",), None),
    "CEILING": (("n", "n"), (), None), "CEILING.MATH": (("n",), ("n", "n"), None),
    "FLOOR": (("n", "n"), (), None), "FLOOR.MATH": (("n",), ("n", "n"), None),
    "CHAR": (("i",), (), None), "CODE": (("t",), (), None), "CLEAN": (("t",), (), None),
    "CHOOSE": (("i", "vr", "vr"), ("vr",), None),
    "COLUMN": ((), ("ref",), None), "ROW": ((), ("ref",), None),
    "COLUMNS": (("r",), (), None), "ROWS": (("r",), (), None),
    "COMBIN": (("i", "i"), (), None), "COMBINA": (("i", "i"), (), None),
    "CONVERT": (("n", "tu", "tu"), (), None),
    "CONCAT": (("r",), (), "v"), "CONCATENATE": (("v",), (), "v"),
    "COS": (("n",), (), None), "COT": (("n",), (), None), "SIN": (("n",), (), None),
    "TAN": (("n",), (), None),
    "COUNT": (("r",), (), "v"), "COUNTA": (("r",), (), "v"), "COUNTBLANK": (("rr",), (), None),
    "COUNTIF": (("rr", "c"), (), None), "COUNTIFS": (("rr", "c"), ("rr", "c"), None),
    "DATE": (("y", "i", "i"), (), None), "DATEDIF": (("d", "d", "u"), (), None),
    "DATEVALUE": (("s",), (), None),
    "DEC2BIN": (("i",), ("i",), None), "DEC2HEX": (("i",), ("i",), None),
    "DEC2OCT": (("i",), ("i",), None),
    "HEX2BIN": (("hex",), ("i",), None), "HEX2DEC": (("hex",), (), None),
    "HEX2OCT": (("hex",), ("i",), None),
    "OCT2BIN": (("oct",), ("i",), None), "OCT2DEC": (("oct",), (), None),
    "OCT2HEX": (("oct",), ("i",), None),
    "DOLLAR": (("n",), ("i",), None), "EDATE": (("d", "i"), (), None),
    "ERROR.TYPE": (("v",), (), None), "FALSE": ((), (), None), "TRUE": ((), (), None),
    "FIND": (("t", "t"), ("i",), None), "SEARCH": (("t", "t"), ("i",), None),
    "HYPERLINK": (("t",), ("t",), None),
    "IF": (("v", "vr"), ("vr",), None), "IFERROR": (("vr", "v"), (), None),
    "INDEX": (("r", "i"), ("i",), None), "INDIRECT": (("rt",), (), None),
    "INT": (("n",), (), None),
    "ISBLANK": (("v",), (), None), "ISERROR": (("v",), (), None),
    "ISLOGICAL": (("v",), (), None), "ISNA": (("v",), (), None),
    "ISNUMBER": (("v",), (), None), "ISTEXT": (("v",), (), None),
    "LEN": (("t",), (), None), "LOG10": (("n",), (), None),
    "LOOKUP": (("v", "r"), ("r",), None), "MATCH": (("v", "r"), ("m",), None),
    "MAX": (("r",), (), "n"), "MIN": (("r",), (), "n"),
    "MDETERM": (("x",), (), None), "MINVERSE": (("x",), (), None),
    "MMULT": (("x", "x"), (), None),
    "MID": (("t", "i", "i"), (), None), "MOD": (("n", "n"), (), None),
    "MODE": (("r",), (), "n"), "MODE.MULT": (("r",), (), None),
    "MROUND": (("n", "n"), (), None), "NA": ((), (), None),
    "NPV": (("n", "r"), (), "n"), "PI": ((), (), None), "POWER": (("n", "n"), (), None),
    "PRODUCT": (("r",), (), "n"), "RAND": ((), (), None),
    "ROUND": (("n", "i"), (), None), "ROUNDDOWN": (("n", "i"), (), None),
    "ROUNDUP": (("n", "i"), (), None),
    "SMALL": (("r", "i"), (), None), "SQRT": (("n",), (), None),
    "STDEV": (("r",), (), "n"), "VAR": (("r",), (), "n"),
    "STDEV.S": (("r",), (), "n"), "STDEV.P": (("r",), (), "n"),
    "VAR.S": (("r",), (), "n"), "VAR.P": (("r",), (), "n"),
    "STDEVP": (("r",), (), "n"), "VARP": (("r",), (), "n"),
    "SUBSTITUTE": (("t", "t", "t"), ("i",), None),
    "SUBTOTAL": (("st", "rr"), (), "rr"), "SUM": (("r",), (), "n"),
    "SUMIF": (("rr", "c"), ("rr",), None), "SUMPRODUCT": (("r",), ("r",), None),
    "SWITCH": (("v", "v", "vr"), ("v", "vr"), None), "T": (("v",), (), None),
    "TEXT": (("n", "f"), (), None), "TEXTJOIN": (("t", "v", "r"), (), "v"),
    "TIME": (("i", "i", "i"), (), None), "TODAY": ((), (), None),
    "TRANSPOSE": (("r",), (), None), "TRIM": (("t",), (), None),
    "VALUE": (("t",), (), None), "VLOOKUP": (("v", "r", "i"), ("lk",), None),
    "WORKDAY": (("d", "wd"), ("r",), None), "XLOOKUP": (("v", "r", "r"), ("v",), None),
    "SINGLE": (("rr",), (), None),
    "YEAR": (("d",), (), None), "YEARFRAC": (("d", "d"), ("basis",), None),
    "OFFSET": (("ref", "i", "i"), ("i", "i"), None),
    "DAY": (("d",), (), None), "MONTH": (("d",), (), None),
    "DAYS": (("d", "d"), (), None), "DAYS360": (("d", "d"), ("v",), None),
    "EOMONTH": (("d", "i"), (), None),
    "WEEKDAY": (("d",), ("wt",), None),
    "DEGREES": (("n",), (), None), "RADIANS": (("n",), (), None), "LN": (("n",), (), None),
    "DELTA": (("n",), ("n",), None), "EXACT": (("t", "t"), (), None),
    "HARMEAN": (("r",), (), "n"), "ISERR": (("v",), (), None), "TYPE": (("v",), (), None),
    "RANK": (("n", "rr"), ("i",), None), "RIGHT": (("t",), ("i",), None),
    "ROMAN": (("i",), ("i",), None), "SLN": (("n", "n", "n"), (), None),
    "EXP": (("n",), (), None), "COSH": (("n",), (), None),
    "PMT": (("n", "n", "n"), ("n", "i"), None), "DB": (("n", "n", "i", "i"), ("i",), None),
    "VDB": (("n", "n", "i", "i", "i"), ("n", "v"), None),
    "DDB": (("n", "n", "i", "i"), ("n",), None), "SYD": (("n", "n", "i", "i"), (), None),
    "CUMIPMT": (("n", "i", "n", "i", "i", "i"), (), None),
    "CUMPRINC": (("n", "i", "n", "i", "i", "i"), (), None),
    "EFFECT": (("n", "i"), (), None), "NOMINAL": (("n", "i"), (), None),
    "MIRR": (("r", "n", "n"), (), None),
    "SUMIFS": (("rr", "rr", "c"), ("rr", "c"), None), "XNPV": (("n", "r", "r"), (), None),
    "FV": (("n", "n", "n"), ("n", "i"), None), "PV": (("n", "n", "n"), ("n", "i"), None),
    "NPER": (("n", "n", "n"), ("n", "i"), None), "RRI": (("n", "n", "n"), (), None),
    "IPMT": (("n", "i", "i", "n"), ("n", "i"), None),
    "PPMT": (("n", "i", "i", "n"), ("n", "i"), None),
    "FREQUENCY": (("rr", "bins"), (), None),
    "IRR": (("r",), ("n",), None), "RATE": (("i", "n", "n"), ("n", "i", "n"), None),
    "MEDIAN": (("r",), (), "n"), "LARGE": (("r", "i"), (), None),
    "LOG": (("n",), ("n",), None), "UPPER": (("t",), (), None), "LOWER": (("t",), (), None),
    "LEFT": (("t",), ("i",), None), "SIGN": (("n",), (), None), "TRUNC": (("n",), ("i",), None),
    "FACT": (("n",), (), None), "SUMSQ": (("r",), (), "n"), "EVEN": (("n",), (), None),
    "ODD": (("n",), (), None),
    "NORM.INV": (("n", "n", "n"), (), None), "NORMINV": (("n", "n", "n"), (), None),
    "NORM.S.INV": (("n",), (), None), "NORMSINV": (("n",), (), None),
    "PERCENTILE": (("r", "n"), (), None), "PERCENTILE.INC": (("r", "n"), (), None),
    "QUARTILE": (("r", "n"), (), None), "QUARTILE.INC": (("r", "n"), (), None),
    "SLOPE": (("rr", "rr"), (), None), "FORECAST": (("n", "rr", "rr"), (), None),
    "FORECAST.LINEAR": (("n", "rr", "rr"), (), None),
    "SINH": (("n",), (), None), "TANH": (("n",), (), None), "ASINH": (("n",), (), None),
    "ACOSH": (("n",), (), None), "ATANH": (("n",), (), None),
    "HLOOKUP": (("v", "r", "i"), ("v",), None),
    "MAXA": (("r",), (), "v"), "MINA": (("r",), (), "v"), "AVERAGEA": (("r",), (), "v"),
    "HOUR": (("n",), (), None), "MINUTE": (("n",), (), None), "SECOND": (("n",), (), None),
    "REPLACE": (("t", "i", "i", "t"), (), None), "ISEVEN": (("n",), (), None),
    "ISODD": (("n",), (), None), "ISNONTEXT": (("v",), (), None),
    "SUMX2MY2": (("r", "r"), (), None), "SUMX2PY2": (("r", "r"), (), None),
    "SUMXMY2": (("r", "r"), (), None), "DEVSQ": (("r",), (), "n"),
    "AVEDEV": (("r",), (), "n"), "POISSON": (("n", "n", "v"), (), None),
    "POISSON.DIST": (("n", "n", "v"), (), None),
    "BETA.DIST": (("n", "n", "n", "v"), ("n", "n"), None),
    "BETA.INV": (("n", "n", "n"), ("n", "n"), None),
    "BETADIST": (("n", "n", "n"), ("n", "n"), None),
    "ADDRESS": (("i", "i"), ("i", "v", "t"), None),
    "AVERAGEIFS": (("rr", "rr", "c"), ("rr", "c"), None),
    "SORT": (("r",), ("i", "i", "v"), None), "SORTBY": (("r", "r"), ("i",), None),
    "UNIQUE": (("r",), ("v", "v"), None), "FILTER": (("r", "r"), ("v",), None),
    "TAKE": (("r", "i"), ("i",), None), "DROP": (("r", "i"), ("i",), None),
    "SEQUENCE": (("i",), ("i", "n", "n"), None),
    "CHOOSECOLS": (("r", "i"), (), "i"), "CHOOSEROWS": (("r", "i"), (), "i"),
    "VSTACK": (("r",), (), "r"), "HSTACK": (("r",), (), "r"),
    "NUMBERVALUE": (("nt",), ("sep", "sep"), None),
    "XMATCH": (("v", "r"), ("m", "i"), None),
    "TEXTBEFORE": (("t", "t"), ("i", "i", "i", "v"), None),
    "TEXTAFTER": (("t", "t"), ("i", "i", "i", "v"), None),
    "TEXTSPLIT": (("t", "t"), ("t", "v", "i", "v"), None),
    "RANDARRAY": ((), ("i", "i", "n", "n", "v"), None),
    "CORREL": (("rr", "rr"), (), None), "PEARSON": (("rr", "rr"), (), None),
    "RSQ": (("rr", "rr"), (), None), "STEYX": (("rr", "rr"), (), None),
    "COVAR": (("rr", "rr"), (), None), "COVARIANCE.P": (("rr", "rr"), (), None),
    "COVARIANCE.S": (("rr", "rr"), (), None), "INTERCEPT": (("rr", "rr"), (), None),
    "AGGREGATE": (("ag", "ago", "rr"), ("i",), None),
    "NORM.S.DIST": (("n", "v"), (), None), "NORM.DIST": (("n", "n", "n", "v"), (), None),
    "NORMDIST": (("n", "n", "n", "v"), (), None), "NORMSDIST": (("n",), (), None),
    "FIELDVALUE": (("ref", "t"), (), None), "_FV": (("ref", "t"), ("v",), None),
    "IFS": (("v", "vr"), ("v", "vr"), None), "IFNA": (("vr", "v"), (), None),
    "PROPER": (("t",), (), None), "RANDBETWEEN": ((), (), None),
    "FORMULATEXT": (("ref",), (), None),
    "STOCKHISTORY": (("t", "n"), ("n", "i", "i", "i"), None),
    "GETPIVOTDATA": (("t", "ref"), ("t", "v"), None),
    "MAXIFS": (("rr", "rr", "c"), ("rr", "c"), None),
    "MINIFS": (("rr", "rr", "c"), ("rr", "c"), None),
    "RANK.EQ": (("n", "rr"), ("i",), None), "RANK.AVG": (("n", "rr"), ("i",), None),
    "XOR": (("v",), (), "v"),
    "CONFIDENCE": (("n", "n", "n"), (), None), "CONFIDENCE.NORM": (("n", "n", "n"), (), None),
    "CONFIDENCE.T": (("n", "n", "n"), (), None), "CHISQ.TEST": (("rr", "rr"), (), None),
    "N": (("v",), (), None), "REPT": (("t", "i"), (), None),
    "NETWORKDAYS": (("d", "d"), ("r",), None),
    "NETWORKDAYS.INTL": (("d", "d"), ("we", "r"), None),
    "WORKDAY.INTL": (("d", "wd"), ("wwe", "r"), None),
    "WEEKNUM": (("d",), ("wn",), None), "ISOWEEKNUM": (("d",), (), None),
    "TIMEVALUE": (("tv",), (), None), "NOW": ((), (), None),
    "KURT": (("r",), (), "n"), "SKEW": (("r",), (), "n"),
    "CHISQ.DIST.RT": (("n", "n"), (), None),
}

#: Functions whose result is an array (or a reference of several cells): called inside
#: ``SUM(...)`` or ``INDEX(...,1,1)``.
ARRAY_RESULT = {"MINVERSE", "MMULT", "MODE.MULT", "TRANSPOSE", "OFFSET", "FREQUENCY",
                "TEXTSPLIT", "RANDARRAY",
                *(DYNAMIC := ("SORT", "SORTBY", "UNIQUE", "FILTER", "TAKE", "DROP", "SEQUENCE",
                              "CHOOSECOLS", "CHOOSEROWS", "VSTACK", "HSTACK"))}

#: Functions written with the ``_xlfn.`` prefix in a file (those Excel added after 2007).
FUTURE = {"RRI", "BASE", "CEILING.MATH", "FLOOR.MATH", "COMBINA", "CONCAT", "COT", "DAYS",
          "MODE.MULT", "SWITCH", "TEXTJOIN", "XLOOKUP", "NORM.INV", "NORM.S.INV",
          "PERCENTILE.INC", "QUARTILE.INC", "FORECAST.LINEAR", "STDEV.S", "STDEV.P", "VAR.S",
          "VAR.P", "POISSON.DIST", "BETA.DIST", "BETA.INV", "SINGLE", "NUMBERVALUE", "XMATCH",
          "TEXTBEFORE", "TEXTAFTER", "TEXTSPLIT", "RANDARRAY", "FORMULATEXT",
          "COVARIANCE.P", "COVARIANCE.S", "NORM.S.DIST", "NORM.DIST", "AGGREGATE", "IFS",
          "IFNA", "MAXIFS", "MINIFS", "RANK.EQ",
          "RANK.AVG", "XOR", "CONFIDENCE.NORM", "CONFIDENCE.T",
          "CHISQ.TEST", "ISOWEEKNUM", "CHISQ.DIST.RT", *DYNAMIC}

#: Formulas LibreOffice does not finish computing, and why (they are not drawn): its
#: session stays busy and the differential never ends.
LIBREOFFICE_HANGS = {
    r"\b(EOMONTH|EDATE)\((OCT2BIN|HEX2BIN|DEC2BIN)\(":
        "LibreOffice 7.4 (Debian's) kept its session busy past 15 minutes on "
        "EOMONTH(OCT2BIN(\"7777777777\"),0), a date given as the text \"1111111111\" "
        "(found when the fixed sample drew it, 6 December 2026); napkin refuses it "
        "(a serial number past 9999)",
}

#: Functions LibreOffice cannot referee, and why (they are not generated).
NOT_REFEREED = {
    "SINGLE": "LibreOffice 7.4 (Debian's) reads _xlfn.SINGLE as an unknown function "
              "(#NAME?): checked on Microsoft's page, tests/test_excel_lookups.py",
    "XLOOKUP": "LibreOffice 7.4 (Debian's) has no XLOOKUP: it was added in 24.8",
    **{name: f"LibreOffice 7.4 (Debian's) has no {name}: it was added in 24.8; checked on "
             "Microsoft's page's examples worked by hand and Excel-saved cells, "
             "tests/test_excel_text_parts.py" for name in ("XMATCH", "TEXTBEFORE",
                                                           "TEXTAFTER", "TEXTSPLIT")},
    "RANDARRAY": "LibreOffice 7.4 (Debian's) has no RANDARRAY (added in 24.8), and its "
                 "values are random draws: checked on Microsoft's page (shape, bounds, "
                 "kind), tests/test_excel_dynamic_shape.py",
    **{name: "LibreOffice 7.4 (Debian's) has none of Excel 365's dynamic-array functions "
             "(SORT, FILTER, UNIQUE... came in 24.8): checked on Microsoft's pages and "
             "Excel-saved cells, tests/test_excel_dynamic.py, tests/test_excel_dynamic_shape.py"
       for name in DYNAMIC},
    **{name: "LibreOffice 7.4 (Debian's) has no linked data types (Stocks, Geography: "
             "rich values of xl/richData/, [MS-XLSX] 2.6.175) nor FIELDVALUE, and a drawn "
             "workbook holds none: checked on Microsoft's page, the rich data Excel saved and "
             "its _FV cells, tests/test_excel_linked_data.py" for name in ("FIELDVALUE", "_FV")},
    "STOCKHISTORY": "LibreOffice has no STOCKHISTORY (Microsoft's data service; Excel "
                    "saves the prices fetched in the spill range, which a drawn formula "
                    "has none of): checked on the arrays Excel saved and their dependents, "
                    "tests/test_excel_stock_history.py",
    "GETPIVOTDATA": "a drawn workbook holds no pivot table (its parts, xl/pivotTables/, are "
                    "not written by the draws): checked on Microsoft's page over a table drawn"
                    " as Excel draws it and on the cells Excel saved, "
                    "tests/test_excel_pivot_data.py",
    "CONVERT": "not in the random draws (added after the fixed sample was settled: every "
               "later draw would move); its own calls refereed once, 7 December 2026: 8 "
               "numbers (1, 5.5, 3.45, -2, 0, 0.1, 1E+10, 0.0018287037037037037*57) by the 64 "
               "pairs of its units of time, in both date systems: 512 formulas, 512 agree; "
               "tests/test_checked_convert.py",
    **{name: "not in the random draws (added after the fixed sample was settled: every later "
             "draw would move); formulas computes it with the function of "
             f"{'NORM.DIST' if name == 'NORMDIST' else 'NORM.S.DIST'}, which the draws "
             "referee (formulas/functions/comp.py); Microsoft's examples and the cells Excel "
             "saved: tests/test_checked_paired.py" for name in ("NORMDIST", "NORMSDIST")},
    "VDB": "LibreOffice computes VDB period by period: a life drawn as 1E+10 (a nested "
           "call's value) keeps its session busy for hours; napkin's refuses past 366,000 "
           "periods. Its own draws (VDB at the top, seeds 1 and 2: 133 formulas, 11 agree, "
           "122 refused, 0 disagree) were refereed before it was taken out of the draws",
}

#: Volatile functions, written only in calls whose value does not depend on the draw or
#: the day (a random number, the date of the run).
VOLATILE_FORMS = {"RAND": ["INT(RAND())", "RAND()<1", "AND(RAND()>=0,RAND()<1)"],
                  "RANDBETWEEN": ["RANDBETWEEN(2,2)", "RANDBETWEEN(1,3)<=3",
                                  "AND(RANDBETWEEN(-1,1)>=-1,RANDBETWEEN(-1,1)<=1)"],
                  "TODAY": ["TODAY()>45000", "INT(TODAY())=TODAY()", "YEAR(TODAY())>2000"],
                  "NOW": ["NOW()>45000", "NOW()-TODAY()<1", "INT(NOW())=TODAY()"]}

#: The operators, binary and unary.
BINARY_OPERATORS = ["+", "-", "*", "/", "^", "&", "=", "<>", "<", ">", "<=", ">="]
UNARY_OPERATORS = ["-", "+"]

#: Calls given an empty cell (``In!E1``) in each argument in turn, of the functions
#: checked for one (tests/test_checked_empty_cells.py): refereed whole by
#: tests/test_differential.py::test_napkin_and_libreoffice_agree_on_empty_cells (the
#: draws reach an empty cell in a given argument with no other unchecked form seldom).
EMPTY_CELL_CALLS = [
    *(f"{name}(In!E1)" for name in ("LEFT", "RIGHT", "LOWER", "CLEAN", "T", "CODE",
                                    "DOLLAR", "ROMAN", "TYPE", "ERROR.TYPE", "ISERR",
                                    "ISNA")),
    'LEFT("abc",In!E1)', "LEFT(In!E1,2)", 'RIGHT("abc",In!E1)', "RIGHT(In!E1,2)",
    "MID(In!E1,1,2)", 'MID("abc",In!E1,2)', 'MID("abc",1,In!E1)',
    'FIND(In!E1,"abc")', 'FIND(In!E1,"abc",2)', 'FIND("a",In!E1)', 'FIND("a","abc",In!E1)',
    'SEARCH("a",In!E1)', 'SEARCH("a","abc",In!E1)', 'SEARCH(In!E1,"abc")',
    'REPLACE(In!E1,1,1,"x")', 'REPLACE("abc",In!E1,1,"x")', 'REPLACE("abc",1,In!E1,"x")',
    'REPLACE("abc",1,1,In!E1)', "DOLLAR(1234.567,In!E1)", "ROMAN(499,In!E1)",
    "PMT(In!E1,10,100)", "PMT(0.1,In!E1,100)", "PMT(0.1,10,In!E1)", "PMT(0.1,10,100,In!E1)",
    "PMT(0.1,10,100,0,In!E1)", "PV(In!E1,10,100)", "PV(0.1,In!E1,100)", "PV(0.1,10,In!E1)",
    "PV(0.1,10,100,In!E1)", "PV(0.1,10,100,0,In!E1)", "FV(In!E1,10,100)",
    "FV(0.1,In!E1,100)", "FV(0.1,10,In!E1)", "FV(0.1,10,100,In!E1)",
    "FV(0.1,10,100,0,In!E1)", "NPER(In!E1,-10,100)", "NPER(0.1,In!E1,100)",
    "NPER(0.1,-20,In!E1)", "NPER(0.1,-20,100,In!E1)", "NPER(0.05,10,100,-200,In!E1)",
    "IPMT(In!E1,1,10,100)", "IPMT(0.1,1,In!E1,100)", "IPMT(0.1,1,10,In!E1)",
    "IPMT(0.1,2,10,100,In!E1)", "IPMT(0.1,2,10,100,0,In!E1)", "PPMT(In!E1,1,10,100)",
    "PPMT(0.1,1,In!E1,100)", "PPMT(0.1,1,10,In!E1)", "PPMT(0.1,2,10,100,In!E1)",
    "PPMT(0.1,2,10,100,0,In!E1)", "RATE(48,-200,8000,In!E1)", "RATE(48,-200,8000,0,In!E1)",
    "RATE(In!E1,-200,8000)", "SLN(In!E1,100,10)", "SLN(1000,In!E1,10)",
    "SLN(1000,100,In!E1)", "DB(In!E1,100,10,1)", "DB(1000,In!E1,10,1)",
    "DB(1000,100,In!E1,1)", "DB(1000,100,10,In!E1)", "RRI(In!E1,100,200)",
    "RRI(10,100,In!E1)", "IFS(TRUE,In!E1)", "IFS(FALSE,1,TRUE,In!E1)", "IFS(In!E1,1,TRUE,2)",
    "ADDRESS(In!E1,1)", "ADDRESS(1,In!E1)", "ADDRESS(1,1,In!E1)", "ADDRESS(2,3,1,In!E1)",
    "ADDRESS(2,3,2,In!E1)", "ISEVEN(In!E1)", "ISODD(In!E1)",
]
