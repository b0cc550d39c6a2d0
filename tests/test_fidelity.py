"""Fidelity corpus: ``napkin calc`` gives the values Excel saved, or refuses the file.

The workbooks in ``tests/corpus/`` were saved by Excel (their sources and licences are in
``tests/corpus/SOURCES.md``), with the value Excel computed cached in every formula cell.
For each, in strict mode (what ``napkin calc`` does), either every formula cell's computed
value equals Excel's (numbers to 1e-9 relative, text and booleans exactly, errors by
code; cells that depend on TODAY/NOW/RAND are skipped), or the file is refused with a
sentence that says why. ``KNOWN`` lists the files on which the engine still differs;
each is an expected failure that must fail (so fixing one forces its removal here).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fidelity import check

CORPUS = Path(__file__).parent / "corpus"
FILES = sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*.xls[xm]"))

# file -> what differs (accepted in strict mode with values that differ from Excel's)
KNOWN = {
    "calamine/errors.xlsx": "a #N/A from a lookup comes back #VALUE!",
    "calamine/issue_553.xlsx": "text results come back #VALUE!",
    "poi/48703.xlsx": "SUM over a 3-D reference",
    "poi/55906-MultiSheetRefs.xlsx": "3-D references (Sheet1:Sheet3!A1)",
    "poi/56315.xlsx": "a number stored as text",
    "poi/56737.xlsx": "a link to another workbook",
    "poi/61495-test.xlsm": "TEXT formats",
    "poi/63934.xlsx": "a link to another workbook",
    "poi/DateFormatNumberTests.xlsx": "TEXT with date formats in the 1904 date system",
    "poi/DateFormatTests.xlsx": "TEXT with date formats",
    "poi/ElapsedFormatTests.xlsx": "TEXT with [h]:mm formats",
    "poi/FormatChoiceTests.xlsx": "TEXT with conditional sections",
    "poi/FormatConditionTests.xlsx": "TEXT with [<10] conditions",
    "poi/FormulaSheetRange.xlsx": "3-D references",
    "poi/GeneralFormatTests.xlsx": "TEXT with General",
    "poi/Intersection-52111-xssf.xlsx": "the intersection operator",
    "poi/NumberFormatApproxTests.xlsx": "TEXT with scientific formats",
    "poi/NumberFormatTests.xlsx": "TEXT with number formats",
    "poi/StructuredReferences.xlsx": "structured (table) references",
    "poi/TextFormatTests.xlsx": "TEXT with text sections",
    "poi/atp.xlsx": "complex numbers as text",
    "poi/clone_sheet.xlsx": "#NAME? on a cloned sheet",
    "poi/evaluate_formula_with_structured_table_references.xlsx": "structured references",
    "poi/link-external-workbook-b.xlsx": "a link to another workbook",
    "poi/ref-56737.xlsx": "links to another workbook",
    "poi/ref2-56737.xlsx": "links to another workbook",
    "poi/simple-table-named-range.xlsx": "structured references",
    "poi/xlookup.xlsx": "XLOOKUP",
    "sheetjs/1904.xlsx": "the 1904 date system",
    "sheetjs/crlf.xlsx": "a carriage return written raw",
    "sheetjs/formulae_test_simple.xlsx": "implicit intersection",
    "sheetjs/issue2717.xlsx": "TEXT with date formats",
    "sheetjs/named_ranges_2011.xlsx": "a defined name Excel could not resolve",
    "xlcalculator/BASES.xlsx": "DEC2BIN etc. with cell arguments",
    "xlcalculator/VDB.xlsx": "VDB",
    "xlcalculator/YEAR.xlsx": "dates out of Excel's range",
    "xlcalculator/choose.xlsx": "CHOOSE with a range",
    "xlsxwriter/table34.xlsx": "structured references",
}


@pytest.mark.parametrize("name", FILES)
def test_excel_values_or_refused(name, request):
    if name in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[name], strict=True))
    res = check(CORPUS / name)
    assert res.crashed is None, res.crashed
    if res.refused is not None:
        assert len(res.refused) > 20  # a sentence that names the problem
        return
    wrong = [f"{s}!R{r}C{c}: Excel {e!r}, ours {o!r}" for s, r, c, e, o in res.wrong]
    assert not wrong, f"{len(wrong)} of {res.cells} cells differ: " + "; ".join(wrong[:5])


def test_corpus_is_recorded():
    listed = {line.split("`")[1] for line in (CORPUS / "SOURCES.md").read_text().splitlines()
              if line.startswith("| `")}
    assert listed == set(FILES)
    assert not set(KNOWN) - set(FILES)
