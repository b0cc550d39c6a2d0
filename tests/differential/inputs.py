"""The input cells the generated formulas read, and the atoms (the smallest arguments:
literals, cells, ranges, array constants) of each kind of argument.

Sheet ``In`` holds every form of value a cell can hold: column A a mix (numbers, text,
text that looks like a number, an empty cell, booleans, errors typed and computed, a date
as text and as a serial number), B small whole numbers, C whole numbers in ascending order
(for approximate lookups), D text, E mostly empty, G:I square matrices.
"""

from __future__ import annotations

import re

#: Column A: one of each form of value.
MIXED = [1.5, -2, 0, "abc", "12", " 3.5", None, True, "#N/A", "=1/0", "2024-03-15", 45000,
         False, "TRUE", 1e10, -0.25]
SMALL = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8]
ASCENDING = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233]
WORDS = ["apple", "Banana", "cherry", "apple", "date", '=""', "a*b", "Apple pie", "12", "x"]
SPARSE = [None, 4, None, '=""', None, 0]  # E4: a formula's empty text, not an empty cell
MATRICES = {"G1": [[2, 1], [1, 3]], "G4": [[1, 2, 3], [0, 1, 4], [5, 6, 0]],
            "K1": [[1, 2], [2, 4]]}

COLUMNS = {"A": MIXED, "B": SMALL, "C": ASCENDING, "D": WORDS, "E": SPARSE}


def cells() -> dict[str, object]:
    """``{"A1": value}`` of sheet ``In`` (``None``: left empty; ``"=..."``: a formula;
    ``"#N/A"``: an error value typed in the cell)."""
    out: dict[str, object] = {}
    for col, values in COLUMNS.items():
        for i, v in enumerate(values, 1):
            out[f"{col}{i}"] = v
    for corner, rows in MATRICES.items():
        col, row = corner[0], int(corner[1:])
        for r, line in enumerate(rows):
            for c, v in enumerate(line):
                out[f"{chr(ord(col) + c)}{row + r}"] = v
    return out


def _refs(col: str, values) -> list[str]:
    return [f"In!{col}{i}" for i in range(1, len(values) + 1)]


ANY_CELL = _refs("A", MIXED) + ["In!E1", "In!E4"]
NUMBERS = ["0", "1", "2", "3", "-1", "-2.5", "0.5", "7.1", "1E+10", "123.456", "45000",
           "TRUE", "FALSE", '"3"', '" 2.5 "', '"abc"', '""', "#N/A", "#DIV/0!", "NA()",
           "-0"] + ANY_CELL
INTEGERS = ["0", "1", "2", "3", "5", "-1", "2.7", '"2"', "TRUE", "10", "255"] + \
    _refs("B", SMALL)[:6] + ANY_CELL[:8]
TEXTS = ['"abc"', '"Hello World"', '"  two  spaces "', '"a,b"', '"12"', '""', '"ABC"',
         '"l"', '"o"', "1.5", "TRUE", "#N/A"] + _refs("D", WORDS) + ANY_CELL[:8]
VALUES = NUMBERS[:12] + TEXTS[:7] + ANY_CELL
RANGES = ["In!A1:A12", "In!A1:A16", "In!B1:B12", "In!B1:C6", "In!C1:C12", "In!D1:D10",
          "In!E1:E6", "In!A1:A3", "In!B2:B5", "{1,2,3}", "{1;2;3}", '{1,"a",TRUE}',
          "{1,2;3,4}", "{-1,0.5,4}"]
REFERENCE_RANGES = [r for r in RANGES if r.startswith("In!")]
CRITERIA = ['">2"', '"<>5"', '"<>"', '"apple"', '"a*"', "3", '"=3"', '"<=1.5"', '""',
            "In!B2", '">"&In!B3', '"12"', "TRUE", '"?pple"', '"~*"']
DATES = ["45000", "45366.5", "In!A12", '"2024-03-15"', "1", "0", "60", "61", "-1",
         "DATE(2024,2,29)", "2958465", "In!A1", "In!A4", "In!A7"]
DATE_TEXTS = ['"2024-03-15"', '"15-Mar-2024"', '"3/15/2024"', '"1900-02-29"',
              '"2024-02-30"', '"abc"', "In!A11", "In!A4", '"1904-01-01"', '"12:30"']
YEARS = ["2024", "1900", "1899", "1904", "1903", "0", "1", "99", "100", "9999", "10000",
         "-1", '"2024"', "TRUE", "In!B2", "In!A3", "2024.7"]
#: WEEKDAY's return_type: the page's table (1, 2, 3, 11 to 17), outside it (#NUM!),
#: truncated (2.9) and read from cells
WEEKDAY_TYPES = ["1", "2", "3", "11", "12", "13", "14", "15", "16", "17", "0", "4", "18",
                 "2.9", "In!B2", "In!B3"]
#: WORKDAY's days: no nested expression (LibreOffice counts a huge number day by day)
WORKDAYS = ["0", "1", "5", "-3", "10", "2.7", '"2"', "TRUE", "In!B3", "In!A3", "In!A4",
            "In!A7", "250", "-250"]
#: NETWORKDAYS.INTL's and WORKDAY.INTL's weekend: the pages' numbers (1 to 7, 11 to 17),
#: others (#NUM!), strings of seven 0s and 1s from Monday, of other length or characters
#: (#VALUE!), "1111111", and cells
WEEKENDS = ["1", "2", "7", "11", "17", "0", "8", "18", '"0000011"', '"1000001"',
            '"1111111"', '"000001"', '"00000x1"', "In!B2", "In!A7", "2.5"]
#: WORKDAY.INTL's: the same but "1111111" (LibreOffice searches on for a working day that
#: never comes; napkin's #VALUE!, the page's, is tests/test_excel_workdays.py's)
WORKDAY_WEEKENDS = [w for w in WEEKENDS if w != '"1111111"']
#: WEEKNUM's return_type: the page's table (1, 2, 11 to 17, 21), others (#NUM!), cells
WEEKNUM_TYPES = ["1", "2", "11", "12", "13", "14", "15", "16", "17", "21", "3", "0",
                 "In!B2", "2.9"]
#: TIMEVALUE's texts: the page's "2:24 AM", times of a 24-hour clock, out of range, dates
TIME_TEXTS = ['"2:24 AM"', '"22:30"', '"12:00 AM"', '"11:23:45 PM"', '"6:35:10"',
              '"25:00"', '"abc"', '"22-Aug-2011 6:35 AM"', "In!A4", "In!A7", '"12:30"']
UNITS = ['"y"', '"m"', '"d"', '"md"', '"ym"', '"yd"', '"x"', '"Y"']
#: CONVERT's units of time (``addin/excel/unit_convert.py``)
TIME_UNITS = ['"yr"', '"day"', '"d"', '"hr"', '"mn"', '"min"', '"sec"', '"s"']
FORMATS = ['"0.00"', '"#,##0"', '"0%"', '"yyyy-mm-dd"', '"mmm d, yyyy"', '"hh:mm"',
           '"0.0E+00"', '"@"', '"General"', '"d"', '"# ?/?"', '"0;-0;zero"']
BINARY = ['"101"', '"1111111111"', "10", '"2"', '"abc"', "0", '"1000000000"', "-1"]
HEX = ['"FF"', '"ff"', '"FFFFFFFFFF"', '"1A"', '"G"', "10", '"0"']
OCTAL = ['"17"', '"7777777777"', '"8"', "10", '"0"']
MATCH_TYPES = ["0", "1", "-1", "2", "TRUE"]
SUBTOTALS = ["1", "2", "3", "4", "5", "6", "7", "9", "101", "109", "12"]
#: AGGREGATE's function_num (13, MODE.SNGL, refused) and options
AGGREGATES = ["1", "2", "3", "4", "5", "9", "10", "12", "13", "14", "15", "17"]
AGGREGATE_OPTIONS = ["0", "3", "4", "5", "6", "7"]
REFERENCES = ["In!A1", "In!B3:C5", "In!A7", "In!E2", "In!C1:C12", "In!D2"]
MATRIX = ["In!G1:H2", "In!G4:I6", "In!K1:L2", "{2,1;1,3}", "{1,2;2,4}", "In!A1:B2",
          "In!B1:C2"]
BASES = ["2", "8", "16", "36", "1", "37", "10"]
BASIS = ["0", "1", "2", "3", "4", "5"]
REF_TEXTS = ['"In!A1"', '"In!B2"', '"In!B1:B3"', '"In!Z99"', '"bad ref"', '"In!A7"',
             '"In!C2"']
#: NUMBERVALUE's texts (Microsoft's examples and their neighbours) and separators
NUMBER_TEXTS = ['"2.500,27"', '"3.5%"', '" 3 000 "', '"9%%"', '"1,234.5"', '"12"', '""',
                '"1.2.3"', '"1.234,5"', '"7"', "In!A5", "In!A6", "In!A4", "In!A9"]
SEPARATORS = ['"."', '","', '",;"', '"\'"']

#: VLOOKUP's range_lookup: a value, or written empty (``VLOOKUP(x,t,2,)``: FALSE)
RANGE_LOOKUPS = VALUES[:12] + [""]

#: FREQUENCY's bins_array: a range, or one number (one bin: Excel saved such cells)
BINS = REFERENCE_RANGES + ["-1", "0", "2", "3.5", "1E+10", "MAX(In!B1:B12)"]

#: a value, or a range of cells on ``In`` (a reference a function may give back: IF's and
#: CHOOSE's branches, read at the formula's cell on sheet F, column A, rows 1 to 215:
#: inside a column's rows, outside them, a block, a row)
VALUES_OR_RANGES = VALUES + REFERENCE_RANGES

#: Atoms of each kind of argument, by the letter ``signatures`` uses.
ATOMS = {"n": NUMBERS, "i": INTEGERS, "t": TEXTS, "v": VALUES, "r": RANGES,
         "rr": REFERENCE_RANGES, "c": CRITERIA, "d": DATES, "y": YEARS, "wd": WORKDAYS,
         "s": DATE_TEXTS, "u": UNITS, "tu": TIME_UNITS, "f": FORMATS, "bin": BINARY, "hex": HEX,
         "oct": OCTAL, "m": MATCH_TYPES, "st": SUBTOTALS, "ref": REFERENCES, "x": MATRIX,
         "base": BASES, "basis": BASIS, "rt": REF_TEXTS, "nt": NUMBER_TEXTS,
         "sep": SEPARATORS, "bins": BINS,
         "ag": AGGREGATES, "ago": AGGREGATE_OPTIONS, "lk": RANGE_LOOKUPS,
         "vr": VALUES_OR_RANGES, "wt": WEEKDAY_TYPES, "we": WEEKENDS, "wwe": WORKDAY_WEEKENDS,
         "wn": WEEKNUM_TYPES, "tv": TIME_TEXTS}

_CELL = re.compile(r"In!([A-Z])(\d+)(?![\d:])")


def resolved(formula: str) -> str:
    """``formula`` with each single-cell reference to ``In`` replaced by what the cell
    holds (``<empty>`` for an empty cell): the text ``known_differences.csv`` matches."""
    held = cells()

    def show(m: re.Match) -> str:
        v = held.get(m.group(1) + m.group(2))
        if v is None:
            return "<empty>"
        if isinstance(v, bool):
            return str(v).upper()
        if isinstance(v, str) and not v.startswith(("=", "#")):
            return '"' + v + '"'
        return str(v).removeprefix("=")

    return _CELL.sub(show, formula)
