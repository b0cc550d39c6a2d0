"""Texts ordered where Excel's order is not known to be napkin's (``addin.formula.text_order``).

Evidence: Microsoft Office Help, "Default sort orders" (Excel 2003, article HP005199669),
and Microsoft Knowledge Base 322067, "How to correctly sort alphanumeric data in Excel",
give Excel's order of characters as

    0 1 2 3 4 5 6 7 8 9 (space) ! " # $ % & ( ) * , . / : ; ? @ [ \\ ] ^ _ ` { | } ~ + < = >
    A B C ... Z

"Apostrophes (') and hyphens (-) are ignored, with one exception: If two text strings are
the same except for a hyphen, the text with the hyphen is sorted last." Code points put the
space before the digits, ``_`` (0x5F) after ``A`` to ``Z`` (0x41 to 0x5A), ``-`` (0x2D)
before the digits, ``é`` (0xE9) after ``z``. Where two texts first differ in such a
character, napkin's order and that list's disagree, and no page says which order ``<``,
a criterion or a lookup's search uses: strict mode keeps Excel's value there. Where they
first differ in ASCII letters or digits, the list and code points agree (digits first,
then letters alphabetically, without case), and napkin computes.
"""

from __future__ import annotations

import pytest
import sheet_calc
import xlsx_make

from addin.formula.text_order import settled

c, text = xlsx_make.cell, sheet_calc.text


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("apple", "Banana", True),  # a before B in both, without case
    ("cherry 2", "cherry 3", True),  # the same before the digits: 2 before 3 in both
    ("A100", "A11", True),  # the pages' own example: "A100" after "A1", before "A11"
    ("c", "c-d", True),  # a text ended: first in both (a hyphen ignored sorts last)
    ("Q1 - 2024", "Q1 - 2025", True),  # the same signs before 4 and 5
    ("abc", "ABC", True),  # the same without case
    ("_a", "b", False),  # _ before letters in the list, after them in code points
    ("A 1", "A1", False),  # digits before the space in the list, after it in code points
    ("Zoe Zhou", "Zoey Jack", True),  # the space before letters in the list and in code
    ("x(1)", "xa", True),  # ( before letters in both
    ("a b", "a_b", True),  # the space before every sign in both
    ("x[", "xa", False),  # [ before letters in the list; after A, before a in code points
    ("O'Neil", "Oneil", False),  # the apostrophe: Excel ignores it
    ("Mary-Ann", "Mary Ann", False),  # the hyphen: Excel ignores it
    ("a-b", "ab", False),  # the hyphen ignored in the list: "ab" then "ab" + hyphen
    ("é", "f", False),  # an accented letter among the plain ones in Excel's order
    ("Z", "[", False),  # [ before letters in the list
])
def test_settled_agrees_with_the_pages_order(a, b, expected):
    assert settled(a, b) is expected
    assert settled(b, a) is expected


_TEXTS = [text("A1", "_a"), text("A2", "b"), text("A3", "c-d"), text("A4", "\u00e9"),
          text("D1", "apple"), text("D2", "Banana"), text("D3", "cherry 2"),
          text("D4", "cherry 3")] + [c(f"C{i}", None, i) for i in range(1, 5)]


@pytest.mark.parametrize(("formula", "expected"), [
    # A1 "_a" and A2 "b": _ is before b in Excel's list, after B in code points
    ("IF(A1>A2,1,2)", None),
    ("IF(D1>D2,1,2)", 2),  # "apple" < "Banana" without case
    ('A3>"c"', True),  # "c-d" after "c": "c" has ended
    ('"a-b"<"ab"', None),
    ('COUNTIF(A1:A4,">a")', None),  # "_a" beside "a"
    # criteria without case (Microsoft Support, "COUNTIF function": "Criteria aren't case
    # sensitive"): Banana, cherry 2 and cherry 3 are >= b, apple is not
    ('COUNTIFS(D1:D4,">=b")', 3),
    ('SUMIF(D1:D4,"<B",C1:C4)', 1),  # apple (C1 = 1) only
    ('COUNTIF(D1:D5,"<B")', None),  # D5 empty: first as a text, or not a text at all?
    ('_xlfn.MAXIFS(C1:C4,A1:A4,"<z")', None),
    ('MATCH("bz",D1:D4,1)', 2),  # the last not above "bz" in apple, Banana, cherry...
    ('LOOKUP("ca",D1:D4,C1:C4)', 2),  # Banana (2) is the last not above "ca"
    ('LOOKUP("ca",A1:A4,C1:C4)', None),
    ('_xlfn.XLOOKUP("ca",D1:D4,C1:C4,0,-1)', 2),  # next smaller than "ca": Banana
    ('_xlfn.XLOOKUP("ca",A1:A4,C1:C4,0,-1)', None),
    ('_xlfn.XMATCH("c",A1:A4,-1)', None),
])
def test_orders_of_texts_computed_or_kept(tmp_path, formula, expected):
    """``None``: kept (Excel's value, here 0, stays), the reason naming the two texts."""
    res, kept = sheet_calc.calc_sheet(tmp_path, [*_TEXTS, c("B1", formula, 0)])
    if expected is None:
        assert "the order of the texts" in kept["S!B1"] or "empty cell" in kept["S!B1"]
        assert res["S!B1"] == 0
    else:
        assert "S!B1" not in kept
        assert res["S!B1"] == expected
