"""The helper cells of ``napkin native`` (``addin.transform.native.helpers``), on their own:
a helper that one formula alone uses goes back into it, with its references to other
helpers written with the helper sheet's name once it sits in a sheet's cell; a helper used
twice stays a cell; nothing inside a string literal is taken for a reference."""

from __future__ import annotations

from addin.transform.native.helpers import Helpers


def _helpers(*texts: str) -> Helpers:
    h = Helpers("napkin_helpers", lambda i: set())
    for k, t in enumerate(texts, start=1):
        h.texts[t] = k
    return h


def test_a_chain_used_once_goes_into_the_cell_with_its_references_named():
    # row 1 is used twice (by rows 2 and 3); row 2 only by row 3; row 3 only by the cell
    h = _helpers("Sizing!B1*2", "$A$1+1", "IF($A$2>0,$A$1,0)")
    formulas = {"Sizing!C5": "=napkin_helpers!$A$3*10"}
    h.inline_once_used(formulas)
    assert h.by_row() == {1: "Sizing!B1*2"}  # the shared one stays
    # row 2 parenthesised where it lands (not atomic); the IF is one call: as it is
    assert formulas["Sizing!C5"] == \
        "=IF((napkin_helpers!$A$1+1)>0,napkin_helpers!$A$1,0)*10"


def test_a_helper_two_formulas_use_stays_a_cell():
    h = _helpers("WEIGHT(A1)+B1")
    formulas = {"S!A1": "=napkin_helpers!$A$1", "S!A2": "=napkin_helpers!$A$1*2"}
    h.inline_once_used(formulas)
    assert h.by_row() == {1: "WEIGHT(A1)+B1"}
    assert formulas == {"S!A1": "=napkin_helpers!$A$1", "S!A2": "=napkin_helpers!$A$1*2"}


def test_the_length_limit_keeps_a_helper_and_strings_are_not_references():
    long = "1+" * 300 + "1"  # 601 characters
    h = _helpers(long, '"$A$1"&Sizing!$A$1')
    formulas = {"S!A1": "=napkin_helpers!$A$1+napkin_helpers!$A$2",
                "S!A2": '="napkin_helpers!$A$1"'}  # text, not a reference
    h.inline_once_used(formulas, limit=500)
    assert h.by_row() == {1: long}  # too long to write in place
    # the second one went in, parenthesised; its own text and other sheet's A1 untouched
    assert formulas["S!A1"] == '=napkin_helpers!$A$1+("$A$1"&Sizing!$A$1)'
    assert formulas["S!A2"] == '="napkin_helpers!$A$1"'


def test_a_helpers_one_reference_is_found_where_the_full_reading_finds_it():
    """``Helpers._first_ref`` (where its ``$A$n`` stands) gives the place ``_refs`` (a
    reading of the whole text) gives first for that row: not inside a string literal,
    not the start of a longer row number, with the helper sheet's name in any case or
    without a sheet, and as ``_refs`` reads an unclosed literal."""
    h = _helpers()
    texts = [
        ('"napkin_helpers!$A$3"&napkin_helpers!$A$3', False, 3),  # the literal passed over
        ("napkin_helpers!$A$31+napkin_helpers!$A$3", False, 3),  # $A$31 is row 31
        ("NAPKIN_HELPERS!$A$7*2", False, 7),  # the sheet's name in another case
        ('IF("a""b"="x",$A$12,$A$1)', True, 1),  # an escaped quote inside the literal
        ("Sizing!$A$5+$A$5", True, 5),  # another sheet's $A$5 is not a helper's
        ('"open $A$2+$A$2', True, 2),  # an unclosed literal: read as _refs reads it
        ("1+mynapkin_helpers!$A$4+napkin_helpers!$A$4", False, 4),  # a longer sheet name
    ]
    for text, own, row in texts:
        want = next((s, e) for s, e, r in h._refs(text, own) if r == row)
        assert h._first_ref(text, own, row) == want, text
        assert text[want[0]:want[1]].upper().endswith(f"$A${row}")


def _refs_by_pattern(h: Helpers, text: str, own: bool) -> list[tuple[int, int, int]]:
    """``Helpers._refs`` as it read every text before its short way: the whole pattern
    (string literals passed over, the look-behind in the pattern, case ignored)."""
    return [(m.start("ref"), m.end("ref"), int(m.group("row")))
            for m in h._ref_patterns[own].finditer(text) if m.group("ref")]


def test_the_short_reading_of_references_equals_the_patterns():
    """``Helpers._refs`` on ASCII text without a string literal (its fixed text searched
    for, the look-behind tested where it is found) finds what the whole pattern finds:
    on the cases that decide it and on 3,000 random texts made of the pieces a
    reference is made of, for both the helper sheet's own references and named ones
    (and a sheet's name that must be quoted)."""
    import random

    cases = ["napkin_helpers!$A$3+NAPKIN_HELPERS!$a$4", "x$A$1+$A$12+A$A$3", "1.$A$2",
             "Sizing!$A$5+$A$5", "$A$5!x", "$A$5(", "$A$5:$A$6", "$A$$A$7", "'$A$8'",
             "napkin_helpers!napkin_helpers!$A$9", "mynapkin_helpers!$A$4", "]$A$1",
             "$A$1$A$2", "$A$0012*2", "$A$3.5"]
    pieces = ["$A$", "$a$", "1", "23", "napkin_helpers!", "Napkin_Helpers!", "'n h'!",
              "x", "_", ".", "$", "'", "!", "]", ":", "(", "[", "+", ",", " ", "A", "Sizing!"]
    rng = random.Random(35)  # any seed: the claim is for every text
    texts = cases + ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
                     for _ in range(3000)]
    for sheet in ("napkin_helpers", "n h"):
        h = Helpers(sheet, lambda i: set())
        for text in texts:
            for own in (True, False):
                assert h._refs(text, own) == _refs_by_pattern(h, text, own), (sheet, text)
    h = Helpers("napkin_helpers", lambda i: set())
    assert h._refs("NAPKIN_HELPERS!$a$4+x$A$1", False) == [(0, 19, 4)]  # 14 + 1 + 4
    assert h._refs("$A$1+x$A$2+($A$30)", True) == [(0, 4, 1), (12, 17, 30)]
