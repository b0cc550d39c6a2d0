"""The formula layer's one walk over formula text (``addin.formula.walk``): the tree reads
back as written, each token knows the functions around it, and one table says which
functions read an array argument element by element."""

from __future__ import annotations

import pytest
from openpyxl.formula.tokenizer import Token

from addin.formula.walk import ELEMENTWISE, is_atomic, parse, read_whole, render, tokens


@pytest.mark.parametrize("text", [
    'IF($A90="","",FITS($B90,C$89)+C90)', "SUM(A1:B2)*-2^3%", "7E+9*70E-3+1.5E+2",
    "{1,2;3,4}", "'My sheet'!A1&\"a\"\"b\"", "_xludf.RIDGE(989, 3.35)", "((1))"])
def test_the_tree_reads_back_as_written(text):
    assert render(parse(text)) == text


def test_exponents_are_one_number():
    numbers = [t.value for t, _ in tokens(parse("70E+9*2")) if t.subtype == Token.NUMBER]
    assert numbers == ["70E+9", "2"]


def test_each_token_knows_the_functions_around_it():
    around = {t.value: a for t, a in tokens(parse("IF(A1>0,SUM((B1)),_xludf.RIDGE(C1,2))"))
              if t.subtype == Token.RANGE}
    assert around == {"A1": ("IF",), "B1": ("IF", "SUM", ""), "C1": ("IF", "RIDGE")}


def test_one_table_says_what_reads_an_array_whole():
    assert read_whole(("IF", "ROUND", "")) == []
    assert read_whole(("IF", "SUM", "ROUND")) == ["SUM"]
    assert read_whole(("RIDGE",), ours={"RIDGE"}) == []
    assert read_whole(("MATCH",)) == ["MATCH"]  # not listed: read whole
    assert {"AND", "OR", "MAX", "MIN", "SUM", "INDEX"}.isdisjoint(ELEMENTWISE)


@pytest.mark.parametrize(("text", "atomic"), [
    # operands no operator can split: each may stand beside ^ or - unparenthesised
    ("napkin_helpers!$A$3", True), ("'a''b'!A1:B2", True), ("#N/A", True), ("#DIV/0!", True),
    ("{1,2;3,4}", True), ("(a+b)", True), ('IF(A1,"""",2)', True), ("F('x)'!A1)", True),
    ("  B18 ", True),
    # an operator outside every bracket: it must be parenthesised
    ("(a)+(b)", False), ("{1}+{2}", False), ("-1", False), ("F(1)&G(2)", False),
    ('"a"&"b"', False), ("IF(a,b,c)*2", False), ("", False)])
def test_is_atomic_says_when_parentheses_are_needed(text, atomic):
    # the template's expressions (workbook.expr) and native's translation both ask this
    assert is_atomic(text) is atomic


def test_a_formula_that_names_no_function_of_ours_calls_none():
    """``may_call`` (a name of ``names`` in the text, any case) is False only where
    ``calls_of`` of the tree is False: checked on every formula of the template and of
    the corpus's workbooks that tokenise, and on the spellings a call of ours takes
    (Lite's stored prefix, an add-in's, lower case). ``napkin native`` tokenises only the
    formulas it leaves True."""
    from pathlib import Path
    from zipfile import ZipFile

    from addin.formula.walk import calls_of, may_call, napkin_names
    from addin.ooxml import reader

    names = napkin_names()
    texts = ["_xldudf_WEIGHT_GB(A1,\"BF16\")", "'napkin.xlam'!RIDGE(1,2)",
             "_xludf.ridge(1,2)", "SUM(A1:A3)", "1+weight_gb(2,3)", '"RIDGE("&A1']
    root = Path(__file__).resolve().parent.parent
    corpus = sorted((root / "tests" / "corpus").rglob("*.xlsx"))
    books = [root / "workbook" / "napkin.xlsx", *corpus]
    for path in books:
        try:
            with ZipFile(path) as zf:
                parts = [n for n in zf.namelist() if n.startswith("xl/worksheets/sheet")]
                for part in parts:
                    xml = zf.read(part).decode("utf-8", "replace")
                    texts += [f.text for f in map(reader.formula_of, reader.iter_cells(xml))
                              if f is not None and f.text]
        except Exception:  # (a damaged workbook of the corpus: its formulas are not read)
            continue
    calls = 0
    for text in texts:
        try:
            called = calls_of(parse(text), names)
        except Exception:  # (not tokenisable: native leaves it alone either way)
            continue
        calls += called
        assert may_call(text, names) or not called, text
    assert calls >= 213  # the template's 213 formula cells that call napkin, at least
    assert not may_call("SUM(A1:A3)*2", names) and may_call("1+weight_gb(2,3)", names)
