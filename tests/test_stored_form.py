"""Excel's stored form of a Lite custom function (``_xldudf_RIDGE(``), read by every command.

docs/lite-format.md ("How Excel stores a custom function") has the evidence for the form.
Every expected number is RIDGE's formula by hand: 989 TFLOPS / 3.35 TB/s =
295.2238805970149 FLOP/byte (989 / 3.35, the H100 SXM's datasheet figures).
"""

from __future__ import annotations

import zipfile

import pytest
import xlsx_make

from addin import cli
from addin.engine.api import calc_workbook, evaluate
from addin.formula import formula_text as ft
from addin.routes.embed import embed
from addin.transform.freeze import freeze, unfreeze
from addin.transform.native import native
from udfs import CATALOG
from udfs.machinery.explain import explain

# reads or writes workbook XML: .ci/run runs it again with openpyxl's lxml off
pytestmark = pytest.mark.xml

RIDGE_H100 = 989 / 3.35  # 295.2238805970149, by hand
NAMES = {n.upper() for n in CATALOG}


def _sheet(path, part="xl/worksheets/sheet1.xml") -> str:
    with zipfile.ZipFile(path) as zf:
        return zf.read(part).decode("utf-8")


def _formulas(path, part="xl/worksheets/sheet1.xml") -> list[str]:
    import re

    from addin.ooxml.reader import xml_unescape
    return [xml_unescape(t) for t in re.findall(r"<f>([^<]*)</f>", _sheet(path, part))]


@pytest.fixture
def stored(tmp_path):
    """A workbook as Excel saves a Lite one: a call in the stored form, one plain, one
    in a longer formula, and a native formula over them."""
    return xlsx_make.write(tmp_path / "stored.xlsx", {"S": [
        xlsx_make.cell("A1", "_xldudf_RIDGE(989,3.35)", 0),
        xlsx_make.cell("A2", "RIDGE(989,3.35)", 0),
        xlsx_make.cell("A3", '2*_xldudf_RIDGE(989,"3.35 TB/s")', 0),
        xlsx_make.cell("A4", "A1-A2", 1),
    ]})


def test_formula_text_reads_both_forms():
    assert ft.normalize_formula("_xldudf_RIDGE(989,3.35)") == "=RIDGE(989,3.35)"
    assert ft.normalize_formula("[1]!_xldudf_RIDGE(1,2)") == "=RIDGE(1,2)"
    # inside a string literal or a quoted sheet name, the text is a text
    assert ft.normalize_formula("=\"_xldudf_RIDGE(\"&'_xldudf_X(1'!A1") == \
        "=\"_xldudf_RIDGE(\"&'_xldudf_X(1'!A1"
    assert ft.plain_calls("=SUM(_xldudf_WEIGHT_GB(1,\"FP8\"),1)") == \
        "=SUM(WEIGHT_GB(1,\"FP8\"),1)"


def test_calc_computes_the_stored_form_and_keeps_its_text(stored, tmp_path):
    out = tmp_path / "out.xlsx"
    results = calc_workbook(stored, out)
    assert results["S!A1"] == pytest.approx(RIDGE_H100, rel=1e-12)
    assert results["S!A2"] == pytest.approx(RIDGE_H100, rel=1e-12)
    assert results["S!A3"] == pytest.approx(2 * RIDGE_H100, rel=1e-12)
    assert results["S!A4"] == 0
    assert _formulas(out) == _formulas(stored)  # calc writes values, never <f> text


def test_eval_and_explain_read_the_stored_name(tmp_path, capsys):
    assert evaluate("=_xldudf_RIDGE(989,3.35)") == pytest.approx(RIDGE_H100, rel=1e-12)
    assert explain("_xldudf_RIDGE", 989, 3.35) == explain("RIDGE", 989, 3.35)
    assert explain("_xldudf_RIDGE", 989, 3.35).startswith("RIDGE: ")
    assert cli.main(["eval", "=_xldudf_RIDGE(989,3.35)"]) == 0
    assert float(capsys.readouterr().out) == pytest.approx(RIDGE_H100, rel=1e-9)


def test_freeze_and_unfreeze_keep_the_stored_form_byte_for_byte(stored, tmp_path):
    frozen, back = tmp_path / "frozen.xlsx", tmp_path / "back.xlsx"
    assert freeze(stored, frozen) == 3  # A1, A2, A3 call napkin; A4 is Excel's own
    assert "_xldudf_" not in _sheet(frozen) and "RIDGE" not in _sheet(frozen)
    unfreeze(frozen, back)
    assert _formulas(back) == _formulas(stored)
    original = _sheet(stored)
    assert '<f>_xldudf_RIDGE(989,3.35)</f>' in original
    for f in ('<f>_xldudf_RIDGE(989,3.35)</f>', '<f>RIDGE(989,3.35)</f>'):
        assert f in _sheet(back)


def test_native_translates_the_stored_form(stored, tmp_path):
    r = native(stored, tmp_path / "native.xlsx")
    assert sorted(r.translated) == ["S!A1", "S!A2", "S!A3"] and not r.frozen
    assert r.formulas["S!A1"] == r.formulas["S!A2"] == "989*1/3.35"
    assert "_xldudf_" not in _sheet(tmp_path / "native.xlsx")


def test_embed_stores_plain_calls_of_napkin_functions_only(tmp_path):
    src = xlsx_make.write(tmp_path / "plain.xlsx", {"S": [
        xlsx_make.cell("A1", "RIDGE(989,3.35)", 0),
        xlsx_make.cell("A2", 'IF(A1>1,"RIDGE(989,3.35) is high",MYRIDGE(1))', "x", t="str"),
        xlsx_make.cell("A3", "SUM(A1,weight_gb(70E+9,\"FP8\"))+'RIDGE(x'!B1", 0),
        xlsx_make.cell("A4", "_xldudf_RIDGE(989,3.35)", 0),
        xlsx_make.cell("A5", "A1*2", 0),
    ]}, names={"PEAK": "S!$A$1", "HALF": "RIDGE(989,3.35)/2"})
    dst = tmp_path / "lite.xlsx"
    embed(src, dst)
    assert _formulas(dst) == [
        "_xldudf_RIDGE(989,3.35)",
        'IF(A1>1,"RIDGE(989,3.35) is high",MYRIDGE(1))',  # a text, and a user's own
        "SUM(A1,_xldudf_WEIGHT_GB(70E+9,\"FP8\"))+'RIDGE(x'!B1",
        "_xldudf_RIDGE(989,3.35)",
        "A1*2",
    ]
    with zipfile.ZipFile(dst) as zf:
        wb = zf.read("xl/workbook.xml").decode("utf-8")
    assert ">_xldudf_RIDGE(989,3.35)/2<" in wb and ">S!$A$1<" in wb
    # the stored workbook computes to the same numbers (MYRIDGE, unknown, keeps its value)
    results = calc_workbook(dst, tmp_path / "out.xlsx", strict=False)
    assert results["S!A1"] == results["S!A4"] == pytest.approx(RIDGE_H100, rel=1e-12)
    # embedding again changes no formula
    again = tmp_path / "again.xlsx"
    embed(dst, again)
    assert _formulas(again) == _formulas(dst)


def test_stored_calls_leave_other_names_alone():
    text = "=RIDGE(1,2)+RIDGES(1)+X.RIDGE(1)+[1]!RIDGE(1)+_xldudf_RIDGE(3,4)+\"RIDGE(\""
    assert ft.stored_calls(text, NAMES) == \
        "=_xldudf_RIDGE(1,2)+RIDGES(1)+X.RIDGE(1)+[1]!RIDGE(1)+_xldudf_RIDGE(3,4)+\"RIDGE(\""
    assert ft.plain_calls(ft.stored_calls("=RIDGE(1,2)", NAMES)) == "=RIDGE(1,2)"


def _all_formulas(path) -> list[str]:
    import re

    from addin.ooxml.reader import xml_unescape
    out = []
    with zipfile.ZipFile(path) as zf:
        for n in zf.namelist():
            if n.startswith("xl/worksheets/") and n.endswith(".xml"):
                out += [xml_unescape(t) for t in
                        re.findall(r"<f\b[^>]*>([^<]*)</f>", zf.read(n).decode("utf-8"))]
    return out


def test_template_calls_are_stored_and_compute_as_the_plain_ones(built, tmp_path):
    """``napkin template`` writes every napkin call in the stored form; ``--addin``
    (the classic add-in, whose VBA defines the plain names) writes them plain; both
    compute to the same values."""
    from addin.routes.embed import write_template

    stored = _all_formulas(built)
    assert all(ft.stored_calls(f, NAMES) == f for f in stored)  # no plain call is left
    calls = sum(f.count("_xldudf_") for f in stored)
    plain = write_template(tmp_path / "napkin-addin.xlsx", stored=False)
    plain_formulas = _all_formulas(plain)
    assert not any("_xldudf_" in f for f in plain_formulas)
    assert [ft.plain_calls(f) for f in stored] == plain_formulas  # the prefix is all
    assert calls > 100  # the template calls napkin in hundreds of formulas (an array formula once)
    a = calc_workbook(built, tmp_path / "stored-calc.xlsx")
    b = calc_workbook(plain, tmp_path / "plain-calc.xlsx")
    assert a.keys() == b.keys() and len(a) > 1000
    assert all(a[k] == b[k] or (a[k] != a[k] and b[k] != b[k]) for k in a)  # (NaN)


def test_numbers_are_rewritten_only_where_one_needs_it():
    """``normalize_formula`` passes over a segment where no number ends in "." or has an
    exponent (``formula_text._NUMBER_TO_FIX_RE``): the rewriting of every number
    (``_NUMBER_RE`` with ``_fix_number``) leaves such a segment as it is, checked on
    4,000 random texts of digits, points, exponents and what stands around numbers."""
    import random

    from addin.formula import formula_text as ft

    pieces = ["1", "23", ".", "E", "e", "+", "-", "9", "0.742", "1E9", "A", "$", "_", "(",
              ")", ",", "*", "/", " ", "x", "12.", "3e-2"]
    rng = random.Random(35)  # any seed: the claim is for every text
    for _ in range(4000):
        seg = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 10)))
        if ft._NUMBER_TO_FIX_RE.search(seg) is None:
            assert ft._NUMBER_RE.sub(ft._fix_number, seg) == seg, seg
    assert ft.normalize_formula("0.742*12+1E9") == "=0.742*12+1E+9"
    assert ft.normalize_formula("12.+x") == "=12.0+x"


def test_prefixes_are_looked_for_only_where_they_can_be():
    """``normalize_formula`` drops an add-in's prefix (``[1]!``, ``napkin.xlam!``) and the
    stored prefix (``_xldudf_``, any case) with the same patterns as before, run only on a
    segment that holds what each needs ("[" or ".xla"; the prefix in any case, or text
    not ASCII): on 4,000 random texts the patterns change nothing elsewhere."""
    import random

    from addin.formula import formula_text as ft

    pieces = ["[1]!", "napkin.xlam!", "!", "_xldudf_", "_XLDUDF_", "_xlDudf_", "RIDGE(",
              "A1", "(", ")", ",", "_", "x", ".", "[", "]", "Sheet!", "é", "K", "ſ"]
    rng = random.Random(35)  # any seed: the claim is for every text
    for _ in range(4000):
        seg = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 8)))
        if not ("[" in seg or ".xla" in seg):
            assert ft._ADDIN_PREFIX_RE.sub("", seg) == seg, seg
        if not ft._may_be_stored(seg):
            assert ft._STORED_CALL_RE.sub("", seg) == seg, seg
    assert ft.normalize_formula("[1]!RIDGE(1,2)+_XLDUDF_RIDGE(3,4)") == "=RIDGE(1,2)+RIDGE(3,4)"


def test_named_entities_are_read_as_the_pattern_reads_them():
    """``reader.xml_unescape`` resolves the five named entities by replacement (``&amp;``
    last) where the text has no character reference: the same text as
    ``_ENTITY_RE``'s one pass, on 4,000 random texts of entities, pieces of them, "&" and
    "#"; with a character reference it takes the pattern."""
    import random

    from addin.ooxml import reader

    pieces = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&", "amp;", "lt;", "#", "#65;",
              "&#65;", "&#x41;", ";", "a", "<", "&amp", "&l"]
    rng = random.Random(35)  # any seed: the claim is for every text
    for _ in range(4000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 8)))
        assert reader.xml_unescape(text) == reader._ENTITY_RE.sub(reader._entity, text), text
    assert reader.xml_unescape("IF(A1&lt;&gt;0,&quot;x&quot;,&amp;lt;)") == 'IF(A1<>0,"x",&lt;)'
