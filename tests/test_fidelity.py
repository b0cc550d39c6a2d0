"""Fidelity corpus: ``napkin calc`` gives the values Excel saved, or refuses the file.

The workbooks in ``tests/corpus/`` were saved by Excel (their sources and licences are in
``tests/corpus/SOURCES.md``), with the value Excel computed cached in every formula cell.
For each, in strict mode (what ``napkin calc`` does), either every formula cell's computed
value equals Excel's (numbers to 1e-9 relative, text and booleans exactly, errors by
code; cells that depend on TODAY/NOW/RAND are skipped), or the file is refused with a
sentence that says why. Which files are computed and which refused is recorded, in
``tests/corpus/accepted.txt`` and ``tests/corpus/refused.txt``: a file of either list that
gets the other outcome fails, so refusing a file that was computed (or computing one that
was refused) is a change of those lists, made on purpose. A file computed keeping Excel's
values in the cells strict mode does not compute (``addin/engine/kept.py``: nothing
computed reads them; ``napkin calc`` exits 4) is listed in ``tests/corpus/kept.txt``; its
computed cells are checked as an accepted file's, the cells kept left out. ``KNOWN`` lists
the files on which the engine still differs; each is an expected failure that must fail
(so fixing one forces its removal here).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fidelity import check

CORPUS = Path(__file__).parent / "corpus"
FILES = sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*.xls[xm]"))


def _listed(name: str) -> list[str]:
    """The paths of ``tests/corpus/<name>``, one a line (``#`` starts a comment)."""
    lines = (CORPUS / name).read_text("utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


ACCEPTED = _listed("accepted.txt")  # computed, every value equal to Excel's
KEPT = _listed("kept.txt")  # computed, some cells keeping Excel's values
REFUSED = _listed("refused.txt")  # refused with a sentence that says why

# file -> what differs (accepted in strict mode with values that differ from Excel's)
KNOWN: dict[str, str] = {}


@pytest.mark.parametrize("name", FILES)
def test_excel_values_or_refused(name, request):
    if name in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[name], strict=True))
    res = check(CORPUS / name)
    assert res.crashed is None, res.crashed
    if res.refused is not None:
        assert name not in ACCEPTED + KEPT, (
            f"{name} was computed and is now refused ({res.refused}); if that is meant, "
            "move it from tests/corpus/accepted.txt (or kept.txt) to refused.txt")
        assert len(res.refused) > 20  # a sentence that names the problem
        return
    assert name not in REFUSED, (
        f"{name} was refused and is now computed; move it from tests/corpus/refused.txt "
        f"to {'kept.txt' if res.kept_cells else 'accepted.txt'}")
    assert (name in KEPT) == bool(res.kept_cells), (
        f"{name} is computed {'keeping' if res.kept_cells else 'without keeping'} Excel's "
        f"values in {res.kept_cells} cells: list it in tests/corpus/"
        f"{'kept.txt' if res.kept_cells else 'accepted.txt'}")
    wrong = [f"{s}!R{r}C{c}: Excel {e!r}, ours {o!r}" for s, r, c, e, o in res.wrong]
    assert not wrong, f"{len(wrong)} of {res.cells} cells differ: " + "; ".join(wrong[:5])


def test_corpus_is_recorded():
    listed = {line.split("`")[1] for line in (CORPUS / "SOURCES.md").read_text().splitlines()
              if line.startswith("| `")}
    assert listed == set(FILES)
    assert not set(KNOWN) - set(FILES)


def test_corpus_outcomes_are_recorded():
    """Every corpus file is in exactly one of accepted.txt, kept.txt, refused.txt and
    KNOWN."""
    recorded = ACCEPTED + KEPT + REFUSED + list(KNOWN)
    assert sorted(recorded) == FILES, (
        f"not recorded: {sorted(set(FILES) - set(recorded))}; "
        f"not in the corpus: {sorted(set(recorded) - set(FILES))}; "
        f"listed twice: {sorted({n for n in recorded if recorded.count(n) > 1})}")
