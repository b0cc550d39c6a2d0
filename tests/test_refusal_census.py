"""The refusal census (``python -m tools.refusal_census``) on four small corpus files, its
counts worked out by hand from their formulas:

* ``calamine/issue644.xlsx``: Sheet1!B1:B10, ``LOG10(ABS(A1)+1)`` shared down the column,
  both checked: computed, its 10 cells equal to Excel's; no cause.
* ``xlcalculator/PMT.xlsx``: A1 and B1 ``PMT(A2/12,A3,A4)``, C1
  ``PMT(A12/12,A13*12, 0,A14)``; PMT is not checked: one cause, 3 cells.
* ``xlcalculator/COSH.xlsx``: A2 ``COSH(4)``, A3 ``COSH(EXP(1))``; neither COSH nor EXP
  is checked: COSH() covers 2 cells, EXP() 1 (strict mode's sentence names COSH only,
  the first of each formula).
* ``poi/atp.xlsx``: B1 ``DELTA(1.3,1.5)`` and B5 ``MROUND(10,3)`` checked; B2
  ``COMPLEX(2,4)``, B3 ``ISODD(2)``, B4 ``ISEVEN(2)``, B6 ``IMLN(B2)``, B7 ``IMEXP(B2)``
  call functions not checked, and B2, B6, B7 complex-number functions, whose values
  napkin cannot compute as Excel does: six causes, 7 cells compared, none computed.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from tools import refusal_census as rc

CORPUS = Path(__file__).parent / "corpus"
FILES = ["calamine/issue644.xlsx", "xlcalculator/PMT.xlsx", "xlcalculator/COSH.xlsx",
         "poi/atp.xlsx"]
COMPLEX = "complex-number functions, whose results differ from Excel's for some arguments"


@pytest.fixture(scope="module")
def census():
    return rc.count([CORPUS / f for f in FILES], CORPUS)


def test_counts_by_cause(census):
    got = {c.name: (sorted(c.files), len(c.only), c.cell_count)
           for c in census.causes.values()}
    assert got == {
        "PMT(): function not checked": (["xlcalculator/PMT.xlsx"], 1, 3),
        "COSH(): function not checked": (["xlcalculator/COSH.xlsx"], 0, 2),
        "EXP(): function not checked": (["xlcalculator/COSH.xlsx"], 0, 1),
        "COMPLEX(): function not checked": (["poi/atp.xlsx"], 0, 1),
        "ISODD(): function not checked": (["poi/atp.xlsx"], 0, 1),
        "ISEVEN(): function not checked": (["poi/atp.xlsx"], 0, 1),
        "IMLN(): function not checked": (["poi/atp.xlsx"], 0, 1),
        "IMEXP(): function not checked": (["poi/atp.xlsx"], 0, 1),
        COMPLEX: (["poi/atp.xlsx"], 0, 3),
    }


def test_counts_add_up(census):
    assert len(census.files) == 4 and not census.crashed
    refused = sorted(f.path for f in census.refused)
    assert refused == sorted(FILES[1:])
    # the files refused by at least one cause are the files refused, and no other
    assert sorted({f for c in census.causes.values() for f in c.files}) == refused
    assert census.mismatched() == []
    assert census.one_cause() == 1  # PMT.xlsx
    assert (census.cells, census.equal) == (10 + 3 + 2 + 7, 10)


def test_the_section_says_the_figures(census):
    text = rc.markdown(census, when=datetime.date(2026, 1, 2))
    flat = " ".join(text.split())  # (its prose is wrapped)
    assert flat.startswith(rc.SECTION + " `" + rc.COMMAND + "` (2 January 2026)")
    assert "refused in strict mode: 3; refused with at least one cause found: 3; " \
           "refused by exactly one cause: 1" in flat
    assert "10 / 22 = **45.5%**" in flat
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    # the most cells of the one-file causes; of two, first the one a file has alone
    assert rows[1:3] == ["| PMT(): function not checked | 1 | 1 | 3 |",
                         f"| {COMPLEX} | 1 | 0 | 3 |"]


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
    census.libreoffice = {"poi/atp.xlsx": 4, "calamine/issue644.xlsx": 10}
    try:
        flat = " ".join(rc.markdown(census).split())
    finally:
        census.libreoffice = None
    assert "14 / 22 = **63.6%**; in the files strict mode computes: 10 / 10 = 100.0%; " \
           "in those it refuses: 4 / 12 = 33.3%" in flat
