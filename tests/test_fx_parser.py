"""``addin.formula.fx_parser.FirstCharParser``: formulas' parser trying at each place only
the token classes that can start there. A class it skips must be one whose pattern
cannot match at that place (checked on random formula text against formulas' own
patterns), and its parse of real formulas must be formulas' own: the same tokens, the
same graph, the same error for text that is no formula; but for one reading that is
napkin's (an A1 reference with a ``$`` before the ``:`` of a function call), where
formulas refuses the formula."""

from __future__ import annotations

import random
from pathlib import Path
from zipfile import ZipFile

import pytest
import sheet_calc
import xlsx_make
from formulas.parser import Parser
from formulas.tokens.function import _re_lambda

from addin.engine.formula_eval import evaluate
from addin.formula import fx
from addin.formula.fx_parser import LAMBDA_RE, STARTS, FirstCharParser, _may_hold
from addin.ooxml import reader

ROOT = Path(__file__).resolve().parent.parent

#: pieces of formula text, each a start of some token class or a trap for one (a sheet
#: before an error value, R1C1 references, a name that begins like TRUE or LET...)
PIECES = ["A1", "$B$2", "C3:D4", "1:3", ":B", "$A:$C", "Sheet1!", "'My ''q'' sheet'!",
          "[1]Book!", "'[x.xlsx]S'!", "#N/A", "#REF!", "#DIV/0!", "#NAME?", '"t""x"', '"',
          "1.5", "E+3", ".25", "7", "TRUE", "FALSE", "true()", "TRUEX", "LAMBDA(", "LET(",
          "_xlfn.", "_XLETA.", "ANCHORARRAY(", "INDIRECT(\"", "(", ")", ",", ";", "{", "}",
          ":", "+", "-", "*", "/", "^", "&", "=", "<>", "<=", ">", "%", "@", " ", "  ",
          "SUM(", "IF(", "R1C1", "R[1]C[-2]", "C[1]:C[2]", "R2:R3", "\\name", "_x", "x",
          "SCENARIO_BATCH", "L", "t", "f", "!", "?", "'", "[", "]", "$", "~", "`", "|",
          "é", "\u212a", "\t"]


def _random_texts(n: int, seed: int = 35) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 8))) for _ in range(n)]


def test_a_class_skipped_at_a_place_cannot_match_there():
    classes = {cls.__name__: cls for cls in Parser.filters}
    assert set(STARTS) == set(classes)  # every class of the pinned formulas is described
    tried = 0
    for text in _random_texts(4000):
        held = _may_hold(text)
        for at in range(len(text)):
            place = text[at:]
            first = place[0]
            if not ("!" <= first <= "~"):
                continue  # a blank or beyond ASCII: every class is tried
            for name, cls in classes.items():
                skipped = first not in STARTS[name] or (
                    name in ("Error", "Lambda") and name not in held)
                if skipped:
                    tried += 1
                    assert cls._re.match(place) is None, (name, place)
    assert tried > 100_000


def _formula_texts() -> list[str]:
    """The formulas of every workbook of the corpus, of every third of the template's
    and every fiftieth of its native edition's (their 2.6 million characters would take
    a minute), each text once."""
    def texts_of(path: Path) -> list[str]:
        found = set()
        with ZipFile(path) as z:
            for name in z.namelist():
                if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                    try:
                        xml = z.read(name).decode("utf-8")
                        found.update(f.text for f in map(reader.formula_of,
                                                         reader.iter_cells(xml))
                                     if f and f.text)
                    except Exception:  # a part the reader refuses: no formulas from it
                        continue
        return sorted(found)

    out: set[str] = set()
    for path in sorted((ROOT / "tests" / "corpus").rglob("*.xlsx")):
        try:
            out.update(texts_of(path))
        except Exception:  # not a zip (the corpus keeps broken files too)
            continue
    out.update(texts_of(ROOT / "workbook" / "napkin.xlsx")[::3])
    out.update(texts_of(ROOT / "workbook" / "napkin-native.xlsx")[::50])
    return sorted(out)


def _outcome(parser, text: str):
    """What ``parser`` makes of formula ``text``: its tokens and its graph's nodes, or
    the name of the error it raises."""
    try:
        with fx._parsing():
            tokens, builder = parser.ast("=" + text)
    except Exception as e:  # the parser's own refusal: compared by kind
        return type(e).__name__
    return ([(type(t).__name__, t.name, t.source) for t in tokens],
            [str(k) for k in builder.dsp.nodes])


def test_the_parse_is_formulas_own():
    fx.load()
    # random text too, less that which opens a LAMBDA or LET: formulas' own pattern for
    # them backtracks for minutes on some (LET(SCENARIO_BATCHTRUEX|_XLETA.$A:$CSUM(;
    # ours, LAMBDA_RE, is compared with it below on text short enough for it)
    texts = _formula_texts() + [t for t in _random_texts(400, seed=7)
                                if not any(k in t.upper() for k in ("LET(", "LAMBDA("))]
    assert len(texts) > 3000
    ours, theirs = FirstCharParser(True), Parser(True)  # as a cell parses
    differ = [t for t in texts if _outcome(ours, t) != _outcome(theirs, t)]
    assert not differ, differ[:5]


def test_the_engine_parses_with_it():
    assert isinstance(fx.load().Cell.parser, FirstCharParser)


def test_the_lambda_pattern_matches_as_formulas_own():
    # formulas' pattern takes time doubling with each plain character of an argument
    # that does not close: texts of at most 18 characters keep it to a few thousand steps
    rng = random.Random(35)
    pieces = ["LET(", "LAMBDA(", "_XLETA.", "x", "ab", " ", ",", "(", ")", '"', '""', "1",
              "+", "é", "\\", ".", "_", "SUM(", "A1:B2"]
    starts = ["LET(", "LAMBDA(", " _XLETA.", "_xlfn.LET(", "let(", "_XLETA.\\"]
    compared = matched = 0
    for _ in range(3000):
        text = rng.choice(starts) + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))
        if len(text) > 18:
            continue
        theirs, ours = _re_lambda.match(text), LAMBDA_RE.match(text)
        compared += 1
        matched += theirs is not None
        assert (ours is None) == (theirs is None), text
        if ours is not None:
            assert (ours.span(), ours.groupdict(), ours.captures("arg")) == \
                (theirs.span(), theirs.groupdict(), theirs.captures("arg")), text
    assert compared > 1000 and matched > 300  # both kinds of outcome were seen


def test_a_let_that_does_not_close_is_refused_in_one_pass():
    # formulas' own pattern on this text backtracked for minutes (> 60 s); LAMBDA_RE reads
    # each character once, so a 100,000-character argument is refused as quickly: the
    # second text would take formulas' pattern 2^100000 steps
    for text in ("=LET(SCENARIO_BATCHTRUEX|_XLETA.$A:$CSUM(", "=LET(" + "A" * 100_000 + "("):
        with pytest.raises(ValueError, match="cannot parse formula"):
            evaluate(text)
    assert evaluate("=LET(x,1,x+1)") == 2  # a LET that closes is computed: 1 + 1


def _kinds(parser, text):
    tokens, _ = parser.ast(text)
    return [(type(t).__name__, t.name) for t in tokens]


def test_a_reference_with_a_dollar_before_a_call_is_read_alone():
    # formulas' pattern reads $D$9:OFF as a range, finds SET( after it and refuses the
    # formula; ours reads $D$9 alone, as formulas reads D9 in D9:OFFSET(D9,0,2)
    fx.load()
    theirs, ours = Parser(True), FirstCharParser(True)
    for text in ("=$D$9:OFFSET($D$9,0,2)", "=D$9:OFFSET(D9,0,2)", "=$D9:INDEX(D9:D12,2)"):
        assert _outcome(theirs, text[1:]) == "FormulaError"
        plain = text.replace("$", "")
        assert [k for k, _ in _kinds(ours, text)] == [k for k, _ in _kinds(theirs, plain)]
    assert _kinds(ours, "=$D$9:OFF") == _kinds(theirs, "=$D$9:OFF")  # a range: D9:OF9


def test_a_range_to_a_call_is_computed(tmp_path):
    # A1:A4 = 1, 2, 3, 4: $A$1:OFFSET($A$1,2,0) is A1:A3, its sum 1 + 2 + 3 = 6;
    # A$1:OFFSET(A$1,1,0) is A1:A2, 3; $A$1:INDEX($A$1:$A$4,4) is A1:A4, 10
    c = xlsx_make.cell
    formulas = ["SUM($A$1:OFFSET($A$1,2,0))", "SUM(A$1:OFFSET(A$1,1,0))",
                "SUM($A$1:INDEX($A$1:$A$4,4))"]
    cells = [c(f"A{i}", None, i) for i in range(1, 5)] + [
        c(f"B{i}", f, 0) for i, f in enumerate(formulas, 1)]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {} and [res[f"S!B{i}"] for i in (1, 2, 3)] == [6, 3, 10]
