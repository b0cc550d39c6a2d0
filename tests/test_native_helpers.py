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
