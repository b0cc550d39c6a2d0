"""TEXTBEFORE, TEXTAFTER, TEXTSPLIT, NUMBERVALUE (``addin/excel/text_parts.py``) and
XMATCH (``addin/excel/lookup.py``) on the cases of their Microsoft pages, the values
worked by hand from each page's definitions; what the pages leave open refused.

LibreOffice 7.4 (the differential test's referee) has NUMBERVALUE only: TEXTBEFORE,
TEXTAFTER, TEXTSPLIT and XMATCH came in its 24.8, so these tests are their referee.
"""

from __future__ import annotations

import pytest
import sheet_calc
import xlsx_make

c = xlsx_make.cell
_calc, _text = sheet_calc.calc_sheet, sheet_calc.text

# Microsoft Support, "TEXTBEFORE function" and "TEXTAFTER function", example 1's data
# (A2 with "Red", A3 all lower case) and example 2's (three names)
_DATA = [_text("A2", "Little Red Riding Hood's red hood"),
         _text("A3", "Little red riding hood's red hood"),
         _text("B2", "Marcus Aurelius"), _text("B3", "Socrates"),
         _text("B4", "Immanuel Kant")]


def _values(tmp_path, formulas, data=_DATA):
    res, kept = _calc(tmp_path, data + [c(f"E{i}", f, 0) for i, f in enumerate(formulas, 1)])
    assert kept == {}
    return [getattr(res[f"S!E{i}"], "code", res[f"S!E{i}"])
            for i in range(1, len(formulas) + 1)]


def test_textbefore_of_microsofts_examples(tmp_path):
    got = _values(tmp_path, [
        "_xlfn.TEXTBEFORE(\"Red riding hood's, red hood\",\"hood\")",  # before 1st "hood"
        "_xlfn.TEXTBEFORE(\"Red riding hood's, red hood\",\"\")",      # empty: "" (front)
        "_xlfn.TEXTBEFORE(\"Red riding hood's, red hood\",\"\",-1)",   # whole text (end)
        "_xlfn.TEXTBEFORE(A2,\"Red\")",       # "Little "
        "_xlfn.TEXTBEFORE(A3,\"Red\")",       # no "Red" with case: #N/A
        "_xlfn.TEXTBEFORE(A3,\"red\",2)",     # before the 2nd "red"
        "_xlfn.TEXTBEFORE(A3,\"red\",-2)",    # the 2nd from the end is the 1st: "Little "
        "_xlfn.TEXTBEFORE(A3,\"Red\",,FALSE)",  # match_mode FALSE (0), with case: #N/A
        "_xlfn.TEXTBEFORE(A3,\"red\",3)",     # two only: #N/A
        "_xlfn.TEXTBEFORE(B2,\" \",,,1)",     # "Marcus"
        "_xlfn.TEXTBEFORE(B3,\" \",,,0)",     # no space: #N/A
        "_xlfn.TEXTBEFORE(B3,\" \",,,1)",     # the end a delimiter: "Socrates"
        "_xlfn.TEXTBEFORE(B4,\" \",,,1)",     # "Immanuel"
        "_xlfn.TEXTBEFORE(A2,\"RED\",1,1)",   # without case: "Little "
        "_xlfn.TEXTBEFORE(B3,\" \",,,,\"none\")",  # if_not_found
        "_xlfn.TEXTBEFORE(B3,\"o\",0)",       # instance_num 0: #VALUE!
        "_xlfn.TEXTBEFORE(B3,\"o\",9)",       # greater than the length (8): #VALUE!
        "_xlfn.TEXTBEFORE(NA(),\"o\")"])      # an error: itself
    assert got == ["Red riding ", "", "Red riding hood's, red hood", "Little ", "#N/A",
                   "Little red riding hood's ", "Little ", "#N/A", "#N/A", "Marcus", "#N/A",
                   "Socrates", "Immanuel", "Little ", "none", "#VALUE!", "#VALUE!", "#N/A"]


def test_textafter_of_microsofts_examples(tmp_path):
    got = _values(tmp_path, [
        "_xlfn.TEXTAFTER(\"Red riding hood's, red hood\",\"hood\")",
        "_xlfn.TEXTAFTER(\"Red riding hood's, red hood\",\"\")",      # whole text (front)
        "_xlfn.TEXTAFTER(\"Red riding hood's, red hood\",\"\",-1)",   # "" (end)
        "_xlfn.TEXTAFTER(A2,\"Red\")",
        "_xlfn.TEXTAFTER(A2,\"basket\")",     # #N/A
        "_xlfn.TEXTAFTER(A3,\"red\",2)",      # " hood"
        "_xlfn.TEXTAFTER(A3,\"red\",-2)",     # after the 1st "red"
        "_xlfn.TEXTAFTER(A3,\"Red\",,FALSE)",  # #N/A
        "_xlfn.TEXTAFTER(A2,\"red\",3)",      # one "red" with case: #N/A
        "_xlfn.TEXTAFTER(B2,\" \",,,1)",      # "Aurelius"
        "_xlfn.TEXTAFTER(B3,\" \",,,0)",      # #N/A
        "_xlfn.TEXTAFTER(B3,\" \",,,1)",      # after the end: ""
        "_xlfn.TEXTAFTER(B4,\" \",,,1)"])     # "Kant"
    assert got == ["'s, red hood", "Red riding hood's, red hood", "", " Riding Hood's red hood",
                   "#N/A", " hood", " riding hood's red hood", "#N/A", "#N/A", "Aurelius",
                   "#N/A", "", "Kant"]


def test_xmatch_of_microsofts_examples(tmp_path):
    # Microsoft Support, "XMATCH function": =XMATCH(4,{5,4,3,2,1}) is 2;
    # =XMATCH(4.5,{5,4,3,2,1},1) is 1 (exact or the next larger: 5, the 1st). A list of
    # our own, C3:C7 Apple, Grape, Pear, Banana, Grape: "Grape" is 2nd, without case as
    # every lookup; search_mode -1 from the last finds the 5th; "Pe*" with wildcards (2)
    # the 3rd
    data = [_text(f"C{i}", v) for i, v in enumerate(
        ["Apple", "Grape", "Pear", "Banana", "Grape"], 3)] + [c("D1", None, 3)]
    got = _values(tmp_path, [
        "_xlfn.XMATCH(4,{5,4,3,2,1})", "_xlfn.XMATCH(4.5,{5,4,3,2,1},1)",
        "_xlfn.XMATCH(4.5,{5,4,3,2,1},-1)",   # exact or next smaller: 4, the 2nd
        "_xlfn.XMATCH(\"Grape\",C3:C7)", "_xlfn.XMATCH(\"grape\",C3:C7,0,-1)",  # last: 5th
        "_xlfn.XMATCH(\"Pe*\",C3:C7,2)", "_xlfn.XMATCH(\"Kiwi\",C3:C7)",
        "_xlfn.XMATCH(D1,{1,2,3,4},0,2)",     # binary search of sorted values: 3rd
        "_xlfn.XMATCH(\"3\",{1,2,3})",        # text never matches a number: #N/A
        "_xlfn.XMATCH(1,C3:C7,3)"], data)     # match_mode 3: #VALUE!
    assert got == [2, 1, 2, 2, 5, 3, "#N/A", 3, "#N/A", "#VALUE!"]


def test_textsplit_of_microsofts_examples(tmp_path):
    # Microsoft Support, "TEXTSPLIT function": "Dakota Lennon Sanchez" at " " is three
    # columns; "a,b,c;d,e,f" at "," and ";" two rows of three; {".","-"} both cut;
    # ignore_empty TRUE drops the empty part two delimiters in a row make; a short row
    # padded with pad_with (#N/A by default)
    got = _values(tmp_path, [
        "INDEX(_xlfn.TEXTSPLIT(\"Dakota Lennon Sanchez\",\" \"),1,3)",
        "COLUMNS(_xlfn.TEXTSPLIT(\"Dakota Lennon Sanchez\",\" \"))",
        "INDEX(_xlfn.TEXTSPLIT(\"a,b,c;d,e,f\",\",\",\";\"),2,1)",
        "ROWS(_xlfn.TEXTSPLIT(\"a,b,c;d,e,f\",\",\",\";\"))",
        "COLUMNS(_xlfn.TEXTSPLIT(\"Do. Or do not. There is no try. -Anonymous\","
        "{\".\",\"-\"}))",                     # 3 "." and 1 "-": 5 parts
        "COLUMNS(_xlfn.TEXTSPLIT(\"a,,b\",\",\",,TRUE))",  # "a","b"
        "COLUMNS(_xlfn.TEXTSPLIT(\"a,,b\",\",\"))",        # "a","","b"
        "INDEX(_xlfn.TEXTSPLIT(\"a,b;c\",\",\",\";\"),2,2)",  # c's row is short: #N/A
        "INDEX(_xlfn.TEXTSPLIT(\"a,b;c\",\",\",\";\",,,\"-\"),2,2)",  # pad_with "-"
        "INDEX(_xlfn.TEXTSPLIT(\"aXb\",\"x\",,,1),1,2)",   # without case: "b"
        "_xlfn.TEXTSPLIT(\"abc\",\",\")"])     # no delimiter: the text itself
    assert got == ["Sanchez", 3, "d", 2, 5, 2, 3, "#N/A", "-", "b", "abc"]


def test_numbervalue_of_microsofts_examples(tmp_path):
    # Microsoft Support, "NUMBERVALUE function": =NUMBERVALUE("2.500,27",",",".") is
    # 2500.27; =NUMBERVALUE("3.5%") 0.035 (en-US); "" is 0; " 3 000 " is 3000; "9%%"
    # 0.0009 (9 / 100 / 100); a decimal separator twice or a group separator after it
    # #VALUE!; group separators before it ignored
    got = _values(tmp_path, [
        "_xlfn.NUMBERVALUE(\"2.500,27\",\",\",\".\")",
        "_xlfn.NUMBERVALUE(\"3.5%\",\".\",\",\")",
        "_xlfn.NUMBERVALUE(\"\")", "_xlfn.NUMBERVALUE(\" 3 000 \")",
        "_xlfn.NUMBERVALUE(\"9%%\")",
        "_xlfn.NUMBERVALUE(\"1.2.3\",\".\")",
        "_xlfn.NUMBERVALUE(\"1.234,5\",\".\",\",\")",
        "_xlfn.NUMBERVALUE(\"1,2,34.5\",\".\",\",\")",
        "_xlfn.NUMBERVALUE(\"12\")",
        "_xlfn.NUMBERVALUE(\"1 234,5\",\",xyz\")",   # only the first character: ","
        "_xlfn.NUMBERVALUE(NA())"])
    assert got == [2500.27, pytest.approx(0.035, rel=1e-15), 0.0, 3000.0,
                   pytest.approx(0.0009, rel=1e-15), "#VALUE!", "#VALUE!", 1234.5, 12.0,
                   1234.5, "#N/A"]


@pytest.mark.parametrize("formula, why", [
    ("_xlfn.TEXTBEFORE(\"aaa\",\"aa\",2)", "found overlapping itself"),
    ("_xlfn.TEXTBEFORE(12.5,\".\")", "TEXTBEFORE's text given a number"),
    ("_xlfn.TEXTBEFORE(\"a b\",\" \",1.5)", "only whole numbers"),
    ("_xlfn.TEXTBEFORE(\"a b\",\" \",-1,,1)", "match_end in a search from the end"),
    ("_xlfn.TEXTAFTER(\"\u00c9t\u00e9\",\"\u00e9\",1,1)", "beyond ASCII"),
    ("_xlfn.TEXTAFTER(\"\",\"x\")", "of an empty text"),
    ("_xlfn.TEXTBEFORE(\"a b\",\" \",,2)", "none of the values its page lists"),
    ("_xlfn.NUMBERVALUE(\"1.5\")", "only digits, spaces"),
    ("_xlfn.NUMBERVALUE(\"-5\",\".\")", "only digits, spaces"),
    ("_xlfn.NUMBERVALUE(\"1E3\",\".\")", "only digits, spaces"),
    ("_xlfn.NUMBERVALUE(\"1234567890123456\")", "more than 15 digits"),
    ("_xlfn.NUMBERVALUE(\"5\",\".\",\".\")", "the same decimal and group separator"),
    ("_xlfn.TEXTSPLIT(\"abc\",\"\")", "empty text"),
    ("_xlfn.TEXTSPLIT(\"abc\",{\"ab\",\"bc\"})", "overlapping"),
    ("_xlfn.XMATCH(2,{1,\"a\",3},1)", "next smaller or larger item among values"),
    ("_xlfn.XMATCH(2,{3,1,2},0,2)", "binary search in values that are not sorted"),
])
def test_what_the_pages_leave_open_is_refused(tmp_path, formula, why):
    res, kept = _calc(tmp_path, [c("E1", formula, 0)])
    assert why in kept["S!E1"]
