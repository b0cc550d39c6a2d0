"""The refusal census (``python -m tools.refusal_census``) on six small corpus files, its
counts worked out by hand from their formulas. Strict mode keeps Excel's values in the
cells it does not compute where no computed cell reads them (``addin/engine/kept.py``):

* ``calamine/issue644.xlsx``: Sheet1!B1:B10, ``LOG10(ABS(A1)+1)`` shared down the column,
  both checked: computed, its 10 cells equal to Excel's; no cause.
* ``xlcalculator/PMT.xlsx``: A1 and B1 ``PMT(A2/12,A3,A4)``, C1
  ``PMT(A12/12,A13*12, 0,A14)``, PMT checked: computed, its 3 cells equal to Excel's.
* ``xlcalculator/COSH.xlsx``: A2 ``COSH(4)``, A3 ``COSH(EXP(1))``, both checked:
  computed, 2 cells equal.
* ``poi/56502.xlsx``: Tabelle1!A4 calls LUCANET(), an add-in's function neither Excel's
  nor napkin's, and nothing reads it: kept, one cause, 1 cell.
* ``poi/atp.xlsx``: B1 ``DELTA(1.3,1.5)``, B3 ``ISODD(2)``, B4 ``ISEVEN(2)`` and B5
  ``MROUND(10,3)`` checked, computed to Excel's 0, FALSE, TRUE and 9; B2
  ``COMPLEX(2,4)``, B6 ``IMLN(B2)``, B7 ``IMEXP(B2)`` call functions not checked, and
  complex-number functions, whose values napkin cannot compute as Excel does: four
  causes; the three cells kept (B6 and B7 read B2, kept too): 7 cells compared, 4
  computed.
* ``calamine/issue_567_absolute_shared.xlsx``: A1:E1 each read themselves (``A$1``
  shared across: a circular reference, 5 cells), A2:E3 read them. Saved with iterative
  calculation on, 0 in every cell: 0 is a fixed point of ``A1=A1``, so the cycle's
  cells take it (``addin/engine/cycles.py``) and the rest is computed from it: 15 cells
  compared, all equal, no cause (before the fixed-point check: refused, one cause).
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from tools import refusal_census as rc

CORPUS = Path(__file__).parent / "corpus"
FILES = ["calamine/issue644.xlsx", "xlcalculator/PMT.xlsx", "xlcalculator/COSH.xlsx",
         "poi/atp.xlsx", "calamine/issue_567_absolute_shared.xlsx", "poi/56502.xlsx"]
COMPLEX = "complex-number functions, whose results differ from Excel's for some arguments"


@pytest.fixture(scope="module")
def census():
    return rc.count([CORPUS / f for f in FILES], CORPUS)


def test_counts_by_cause(census):
    got = {c.name: (sorted(c.files), len(c.only), c.cell_count)
           for c in census.causes.values()}
    assert got == {
        "LUCANET(): unknown function": (["poi/56502.xlsx"], 1, 1),
        "COMPLEX(): function not checked": (["poi/atp.xlsx"], 0, 1),
        "IMLN(): function not checked": (["poi/atp.xlsx"], 0, 1),
        "IMEXP(): function not checked": (["poi/atp.xlsx"], 0, 1),
        COMPLEX: (["poi/atp.xlsx"], 0, 3),
    }


def test_counts_add_up(census):
    assert len(census.files) == 6 and not census.crashed
    assert [f.path for f in census.refused] == []
    kept = {f.path: (f.kept, f.kept_cells, f.equal) for f in census.kept}
    assert kept == {FILES[3]: (3, 3, 4), FILES[5]: (1, 1, 0)}
    # the files with a cause are the files refused or computed keeping cells
    assert sorted({f for c in census.causes.values() for f in c.files}) == sorted(
        [FILES[3], FILES[5]])
    assert census.mismatched() == []
    assert census.one_cause() == 1  # 56502
    assert (census.cells, census.equal) == (10 + 3 + 2 + 7 + 15 + 1, 10 + 3 + 2 + 4 + 15)


def test_the_section_says_the_figures(census):
    text = rc.markdown(census, when=datetime.date(2026, 1, 2))
    flat = " ".join(text.split())  # (its prose is wrapped)
    assert flat.startswith(rc.SECTION + " `" + rc.COMMAND + "` (2 January 2026)")
    assert "refused in strict mode: 0; computed keeping Excel's values in some cells " \
           "(`napkin calc`'s exit status 4): 2, 4 formula cells kept, 4 of them " \
           "compared; refused or computed so with at least one cause found: 2; with " \
           "exactly one cause: 1" in flat
    assert "34 / 38 = **89.5%**" in flat
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    # the files refused first; then the most cells; of two, first the one a file has alone
    assert rows[1:3] == [f"| {COMPLEX} | 0 | 1 | 0 | 3 |",
                         "| LUCANET(): unknown function | 0 | 1 | 1 | 1 |"]


def test_a_form_refusal_counts_once_per_form():
    assert rc.causes_of("form of argument not checked",
                        "TEXT() given an empty cell, an error value") == [
        "TEXT() given an empty cell", "TEXT() given an error value"]
    assert rc.causes_of("form of argument not checked",
                        "SUM() given a number, text or logical value (written, or given by "
                        "a nested call)") == [
        "SUM() given a number, text or logical value (written, or given by a nested call)"]


def test_the_section_replaces_its_old_self(tmp_path):
    doc = tmp_path / "f.md"
    doc.write_text(f"# F\n\nintro\n\n{rc.SECTION}\n\nold\n\n## Later\n\nkept\n")
    rc.write_section(doc, f"{rc.SECTION}\n\nnew\n")
    assert doc.read_text() == f"# F\n\nintro\n\n{rc.SECTION}\n\nnew\n\n## Later\n\nkept\n"


def test_libreoffice_s_values_are_compared_as_excel_s(census):
    # atp.xlsx's cells as LibreOffice might give them: B1 0 (Excel 0), B2 the text
    # "2+4i" (Excel's), B3 0 for FALSE and B4 1 for TRUE (no logical type), B5 10
    # (Excel 9), B6 an error (Excel a text), B7 read back empty (Excel a text)
    atp = next(f for f in census.files if f.path == "poi/atp.xlsx")
    cells = {"Sheet1!B1": ["n", 0.0], "Sheet1!B2": ["s", "2+4i"], "Sheet1!B3": ["n", 0.0],
             "Sheet1!B4": ["n", 1.0], "Sheet1!B5": ["n", 10.0], "Sheet1!B6": ["e", "#NUM!"]}
    assert rc.libreoffice_equal(atp, cells) == 4
    census.libreoffice = {"poi/atp.xlsx": 4, "calamine/issue644.xlsx": 10, FILES[4]: 15}
    try:
        flat = " ".join(rc.markdown(census).split())
    finally:
        census.libreoffice = None
    # (the 15 cells of the file of the cycle as LibreOffice might give them: 0, as
    # Excel saved; strict mode refuses no file of the six)
    assert "29 / 38 = **76.3%**; in the files strict mode computes: 29 / 38 = 76.3%" \
        in flat
