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
    ("_xlfn.TEXTBEFORE(\"aaa\",\"aa\",2)", "delimiters found overlapping"),
    ("_xlfn.TEXTBEFORE(\"abc\",{\"a\",\"ab\"})", "delimiters found overlapping"),
    ("_xlfn.TEXTBEFORE(\"a b\",\" \",-1.5)", "only numbers and TRUE"),
    ("_xlfn.TEXTBEFORE(\"a b\",\" \",\"1\")", "only numbers and TRUE"),
    ("_xlfn.TEXTBEFORE(E2,\" \")", "given an empty cell"),
    ("_xlfn.XMATCH(\"ss\",{\"a\",\"\u00df\"})", "folds to other letters"),
    ("_xlfn.TEXTBEFORE(\"a b\",\" \",-1,,1)", "match_end in a search from the end"),
    ("_xlfn.TEXTAFTER(\"\u00c9t\u00e9\",\"\u00e9\",1,1)", "beyond ASCII"),
    ("_xlfn.TEXTAFTER(\"\",\"x\")", "of an empty text"),
    ("_xlfn.TEXTBEFORE(\"a b\",\" \",,2)", "none of the values its page lists"),
    ("_xlfn.NUMBERVALUE(\"1.5\")", "only digits, spaces"),
    ("_xlfn.NUMBERVALUE(\"-5\",\".\")", "only digits, spaces"),
    ("_xlfn.NUMBERVALUE(\"1E3\",\".\")", "only digits, spaces"),
    ("_xlfn.NUMBERVALUE(\"1234567890123456\")", "more than 15 digits"),
    ("_xlfn.NUMBERVALUE(\"5\",\".\",\".\")", "the same decimal and group separator"),
    ("_xlfn.TEXTSPLIT(\"abc\",{\"ab\",\"bc\"})", "overlapping"),
    ("_xlfn.XMATCH(2,{1,\"a\",3},1)", "next smaller or larger item among values"),
    ("_xlfn.XMATCH(2,{3,1,2},0,2)", "binary search in values that are not sorted"),
])
def test_what_the_pages_leave_open_is_refused(tmp_path, formula, why):
    res, kept = _calc(tmp_path, [c("E1", formula, 0)])
    assert why in kept["S!E1"]


# vinci1it2000/formulas, test/test_files/test.xlsx (saved by Excel for Mac; commit 78e4b77),
# sheet TEXT, rebuilt here: each row's inputs C:Q (numbers, an empty cell, a text, TRUE and
# the seven error values) and the formulas of R:AF with the values Excel saved in them,
# those napkin computes (the others, refused: a match_mode given as an empty cell or a
# date's text, a number as text in instance_num, NUMBERVALUE of signs, exponents and
# parentheses, a separator ")" or "2")
_INPUTS = [0.0, 1.9, 2.3, 10.0, -1.0, None, "1987-08-26", True, "#VALUE!", "#N/A",
           "#DIV/0!", "#NAME?", "#NULL!", "#NUM!", "#REF!"]
_SAVED = {  # column: (formula, the value Excel saved); {r} is the row
    44: {"R": ('_xlfn.TEXTAFTER("1,2,3,4,5,6,7,8",{{"3","4"}},C{r})', "#VALUE!"),
         "S": ('_xlfn.TEXTAFTER("1,2,3,4,5,6,7,8",{{"3","4"}},D{r})', ",4,5,6,7,8"),
         "W": ('_xlfn.TEXTAFTER("1,2,3,4,5,6,7,8",{{"3","4"}},H{r},J{r})', "#VALUE!"),
         "Y": ('_xlfn.TEXTAFTER("1,2,3,4,5,6,7,8",{{"3","4"}},J{r})', ",4,5,6,7,8"),
         **{col: (f'_xlfn.TEXTAFTER("1,2,3,4,5,6,7,8",{{{{"3","4"}}}},{src}{{r}})', err)
            for col, src, err in (("Z", "K", "#VALUE!"), ("AA", "L", "#N/A"),
                                  ("AB", "M", "#DIV/0!"), ("AC", "N", "#NAME?"),
                                  ("AD", "O", "#NULL!"), ("AE", "P", "#NUM!"),
                                  ("AF", "Q", "#REF!"))}},
    45: {"R": ('_xlfn.TEXTBEFORE("1,2,3,4,5,6,7,8",{{"3","4"}},C{r})', "#VALUE!"),
         "S": ('_xlfn.TEXTBEFORE("1,2,3,4,5,6,7,8",{{"3","4"}},D{r})', "1,2,"),
         "T": ('_xlfn.TEXTBEFORE("1,2,3,4,5,6,7,8",{{"3","4"}},E{r})', "1,2,3,"),
         "U": ('_xlfn.TEXTBEFORE("1,2,3,4,5,6,7,8",{{"3","4"}},F{r})', "#N/A"),
         "V": ('_xlfn.TEXTBEFORE("1,2,3,4,5,6,7,8",{{"3","4"}},G{r})', "1,2,3,"),
         "W": ('_xlfn.TEXTBEFORE("1,2,3,4,5,6,7,8",{{"3","4"}},H{r})', "#VALUE!"),
         "Y": ('_xlfn.TEXTBEFORE("1,2,3,4,5,6,7,8",{{"3","4"}},J{r})', "1,2,")},
    27: {"W": ('_xlfn.NUMBERVALUE(H{r},".",",.,")', 0.0),
         "X": ("_xlfn.NUMBERVALUE(E{r})", 2.3), "Y": ("_xlfn.NUMBERVALUE(F{r})", 10.0),
         "Z": ("_xlfn.NUMBERVALUE(G{r})", -1.0), "AA": ("_xlfn.NUMBERVALUE(H{r})", 0.0),
         "AC": ("_xlfn.NUMBERVALUE(J{r})", "#VALUE!"), "AD": ("_xlfn.NUMBERVALUE(K{r})", "#VALUE!"),
         "AE": ("_xlfn.NUMBERVALUE(L{r})", "#N/A"), "AF": ("_xlfn.NUMBERVALUE(M{r})", "#DIV/0!")},
}
_SPLIT = {  # row 47, one-cell array formulas: the first value of each split
    "R": ("C", "123434,43r23123-1,2.3"), "S": ("D", "123434,43r23123-1,2.3"),
    "T": ("E", "123434,43r23123-1,"), "U": ("F", "123434,43r23123-1,2.3"),
    "W": ("H", "#VALUE!"), "X": ("I", "123434,43r23123-1,2.3"),
    "Y": ("J", "123434,43r23123-1,2.3"), "Z": ("K", "#VALUE!"), "AA": ("L", "#N/A"),
    "AF": ("Q", "#REF!")}


def _input_row(r: int) -> list[str]:
    out = []
    for j, v in enumerate(_INPUTS):
        at = f"{chr(ord('C') + j)}{r}"
        if v is None:
            continue
        if isinstance(v, str) and v.startswith("#"):
            out.append(c(at, None, v, t="e"))
        elif isinstance(v, str):
            out.append(_text(at, v))
        elif isinstance(v, bool):
            out.append(c(at, None, 1, t="b"))
        else:
            out.append(c(at, None, v))
    return out


def test_the_cells_excel_saved_in_formulas_test_workbook(tmp_path):
    cells, want = [], {}
    for r, row in _SAVED.items():
        cells += _input_row(r)
        for col, (formula, value) in row.items():
            cells.append(c(f"{col}{r}", formula.format(r=r), 0))
            want[f"S!{col}{r}"] = value
    cells += _input_row(47)
    for col, (src, value) in _SPLIT.items():
        ref = f"{col}47"
        cells.append(f'<c r="{ref}"><f t="array" ref="{ref}">_xlfn.TEXTSPLIT('
                     f'"123434,43r23123-1,2.3",{src}47)</f><v>0</v></c>')
        want[f"S!{ref}"] = value
    res, kept = _calc(tmp_path, sorted(cells, key=_place))
    assert kept == {}
    got = {k: getattr(res[k], "code", res[k]) for k in want}
    assert got == want


def _place(cell: str):
    ref = cell.split('r="', 1)[1].split('"', 1)[0]
    col = "".join(ch for ch in ref if ch.isalpha())
    return int(ref[len(col):]), len(col), col


def test_a_range_of_texts_is_cut_element_by_element(tmp_path):
    # Excel computes them for each element of a range given as text (formulas' test.xlsx,
    # TEXT!AH27:AW27 and AG44:AW45 above): "1,000.5", "2", "3%" are 1000.5, 2 and 0.03,
    # summed 1002.53; "a-b", "c-d" before "-" are "a" and "c", joined "ac"
    cells = [_text("A1", "1,000.5"), _text("A2", "2"), _text("A3", "3%"),
             _text("B1", "a-b"), _text("B2", "c-d"),
             '<c r="E1"><f t="array" ref="E1">SUM(_xlfn.NUMBERVALUE(A1:A3,".",","))</f>'
             '<v>0</v></c>',
             '<c r="E2"><f t="array" ref="E2">CONCAT(_xlfn.TEXTBEFORE(B1:B2,"-"))</f>'
             '<v>0</v></c>']
    res, kept = _calc(tmp_path, cells)
    assert kept == {}
    assert res["S!E1"] == pytest.approx(1002.53, rel=1e-15) and res["S!E2"] == "ac"


def test_a_range_of_delimiters_is_refused(tmp_path):
    # an array constant of delimiters is read whole (Excel saved TEXT!S44 so); a range of
    # several cells in a formula not entered as an array: read whole or intersected with
    # the formula's cell, no saved cell shows
    cells = [_text("A1", "a-b_c"), _text("B1", "-"), _text("B2", "_"),
             c("E1", '_xlfn.TEXTAFTER(A1,{"-","_"},2)', 0),
             c("E2", "_xlfn.TEXTAFTER(A1,B1:B2)", 0)]
    res, kept = _calc(tmp_path, cells)
    assert res["S!E1"] == "c"
    assert "delimiter given a range of several cells" in kept["S!E2"]
