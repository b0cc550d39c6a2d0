"""Text that looks like a number given to the text functions that read text (the form
``numeric text``): it is a text like any other, its characters as written. Excel's pages
define these arguments as text: RIGHT's ``text`` "is the text string containing the
characters you want to extract", LOWER's and UPPER's ``text`` "the text you want to
convert", PROPER's "text enclosed in quotation marks, a formula that returns text, or a
reference to a cell that contains the text", CLEAN's "any worksheet information from which
you want to remove nonprintable characters", CODE's "the text for which you want the code
of the first character", EXACT's two text strings, SEARCH's find_text and within_text
(Microsoft Support, "RIGHT, RIGHTB functions", "LOWER function", "UPPER function",
"PROPER function", "CLEAN function", "CODE function", "EXACT function", "SEARCH, SEARCHB
functions"). A number is turned into text only when it is given as a number (LEFT's and
LEN's cells of numbers, tests/test_fidelity.py); a text cell keeps its zeros and signs,
as Excel saved CONCAT's joined "047" (tests/test_checked_concat_text.py).

Every expected value below is worked by hand from those definitions; the same formulas
agree with LibreOffice (tests/differential, ``--only`` these functions, numeric text among
the generated inputs).
"""

from __future__ import annotations

import sheet_calc
import xlsx_make

c = xlsx_make.cell
_calc, _text = sheet_calc.calc_sheet, sheet_calc.text


def test_text_functions_read_numeric_text_as_its_characters(tmp_path):
    # A1 "0123", A2 "1e3", A3 "-4.50", A4 "1,234", A5 "7" (texts, inline strings)
    cells = [_text("A1", "0123"), _text("A2", "1e3"), _text("A3", "-4.50"),
             _text("A4", "1,234"), _text("A5", "7")]
    formulas = [
        ("RIGHT(A1,2)", "23"),          # the last two characters of 0123
        ("RIGHT(A3)", "0"),             # num_chars omitted: 1
        ("LOWER(\"1E3\")", "1e3"),
        ("UPPER(A2)", "1E3"),
        ("PROPER(A2)", "1E3"),          # a letter after a non-letter is capitalised
        ("CLEAN(A1)", "0123"),          # no nonprintable character to remove
        ("CODE(A5)", 55.0),             # "7" is character 55
        ("CODE(A3)", 45.0),             # "-" is character 45
        ("EXACT(A1,\"123\")", False),   # 0123 and 123 differ as text
        ("EXACT(A3,\"-4.50\")", True),
        ("SEARCH(\"2\",A4)", 3.0),      # 1 , 2: the third character
        ("SEARCH(\"1e\",A2)", 1.0),
    ]
    cells += [c(f"E{i}", f, 0) for i, (f, _) in enumerate(formulas, 1)]
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert [res.get(f"S!E{i}") for i in range(1, len(formulas) + 1)] == \
        [v for _, v in formulas]
