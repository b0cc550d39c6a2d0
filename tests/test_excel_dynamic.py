"""Excel 365's dynamic arrays: SORT, UNIQUE, FILTER, TAKE, DROP, the spill reference A1#
(saved as ``_xlfn.ANCHORARRAY``) and the spilled range written back as Excel saves it,
each in a minimal workbook saved the way Excel saves a spill (``cm="1"`` pointing to
``xl/metadata.xml``'s dynamic-array property, ``<f t="array" ref=...>`` in the anchor,
the other cells of the range holding values only), or in the Excel-saved
tests/corpus/sheetjs/metadata_2019.xlsx; what Microsoft's pages do not settle refused."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from xml.sax.saxutils import escape
from zipfile import ZIP_DEFLATED, ZipFile

import pytest
import xlsx_make

from addin.engine import evaluate
from addin.engine.api import calc_workbook
from addin.engine.spills import dynamic_records
from addin.ooxml import xlsx_values as xv
from addin.ooxml.guard import WorkbookError

CORPUS = Path(__file__).parent / "corpus"
MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"

# as Excel 365 writes it (tests/corpus/sheetjs/metadata_2019.xlsx, the held-out workbooks)
METADATA = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
    '<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">'
    '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" '
    'copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" '
    'clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>'
    '<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext '
    'uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" '
    'fCollapsed="0"/></ext></extLst></bk></futureMetadata><cellMetadata count="1"><bk>'
    '<rc t="1" v="0"/></bk></cellMetadata></metadata>')


def _value(v) -> tuple[str, str | None]:
    if isinstance(v, bool):
        return "1" if v else "0", "b"
    if isinstance(v, str):
        return (v, "e") if v.startswith("#") else (v, "str")
    return str(v), None


def spill(anchor: str, ref: str, formula: str, values: list[list]) -> list[str]:
    """The cells Excel saves for a dynamic array formula at ``anchor`` spilled into
    ``ref`` with ``values`` (rows): the anchor with ``cm="1"`` and the formula, the rest
    values only."""
    r1, c1, _, _ = xv.parse_area(anchor)
    out = []
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            at = f"{xv.num2col(c1 + j)}{r1 + i}"
            text, t = _value(v)
            ta = f' t="{t}"' if t else ""
            if (i, j) == (0, 0):
                out.append(f'<c r="{at}"{ta} cm="1"><f t="array" ref="{ref}">'
                           f'{escape(formula)}</f><v>{escape(text)}</v></c>')
            else:
                out.append(f'<c r="{at}"{ta}><v>{escape(text)}</v></c>')
    return out


def write(path: Path, cells: list[str]) -> Path:
    """A one-sheet workbook ``S`` of ``cells`` with Excel's ``xl/metadata.xml``."""
    xlsx_make.write(path, {"S": cells})
    with ZipFile(path, "a", ZIP_DEFLATED) as z:
        z.writestr("xl/metadata.xml", METADATA)
    return path


def grid(values: list[list]) -> list[str]:
    """Cells A2:C4... of numbers (rows from row 2), as Microsoft's examples lay them out."""
    return [xlsx_make.cell(f"{'ABC'[j]}{i + 2}", None, v)
            for i, row in enumerate(values) for j, v in enumerate(row)]


def spilled(tmp_path, cells: list[str], cases: dict):
    """Each case ``{anchor: (formula, values)}`` spilled from its anchor over the range
    its values fill (the saved values left 0, so that only napkin's computing can give
    them), beside ``cells``, each row's cells in column order as Excel writes them:
    napkin's values of the workbook, and by anchor those of each case's range."""
    for anchor, (formula, values) in cases.items():
        r, c, _, _ = xv.parse_area(anchor)
        ref = f"{anchor}:{xv.num2col(c + len(values[0]) - 1)}{r + len(values) - 1}"
        cells = cells + spill(anchor, ref, formula, [[0] * len(row) for row in values])

    def at(cell):
        return xv.parse_area(cell.split('r="', 1)[1].split('"', 1)[0])[:2]

    res = calc_workbook(write(tmp_path / "in.xlsx", sorted(cells, key=at)),
                        tmp_path / "out.xlsx", {})
    got = {}
    for anchor, (_formula, values) in cases.items():
        r, c, _, _ = xv.parse_area(anchor)
        got[anchor] = [[res[f"S!{xv.num2col(c + j)}{r + i}"] for j in range(len(row))]
                       for i, row in enumerate(values)]
    return res, got


def refused_spill(tmp_path, formula: str, says: str) -> None:
    """``formula``, the anchor of a spill into A1:A2 (its saved values 0) read by B1, is
    refused with the sentence ``says`` naming S!A1."""
    cells = [*spill("A1", "A1:A2", formula, [[0], [0]])[:1], xlsx_make.cell("B1", "A1+1", 1),
             xlsx_make.cell("A2", None, 0)]
    with pytest.raises(WorkbookError, match=r"napkin cannot compute .*" + re.escape(says)
                       + ".* S!A1"):
        calc_workbook(write(tmp_path / "in.xlsx", cells), tmp_path / "out.xlsx", {})


NINE = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]


def test_dynamic_records_read_excels_metadata():
    assert dynamic_records(METADATA) == {1}
    with ZipFile(CORPUS / "sheetjs/metadata_2019.xlsx") as z:
        assert dynamic_records(z.read("xl/metadata.xml").decode()) == {1}
    assert dynamic_records(None) == frozenset()


def test_take_and_drop_of_microsofts_examples(tmp_path):
    # https://support.microsoft.com/en-us/excel/take-function and
    # https://support.microsoft.com/en-us/office/drop-function-1cb4e151-9e17-4838-abe5-9ba48d8c6a34
    # (data 1..9 in A2:C4; the results worked by hand from each example's sentence)
    cases = {  # anchor: (formula, the values Excel spills)
        "E2": ("_xlfn.TAKE(A2:C4,2)", [[1, 2, 3], [4, 5, 6]]),
        "E5": ("_xlfn.TAKE(A2:C4,,2)", [[1, 2], [4, 5], [7, 8]]),
        "E9": ("_xlfn.TAKE(A2:C4,-2)", [[4, 5, 6], [7, 8, 9]]),
        "E12": ("_xlfn.TAKE(A2:C4,2,2)", [[1, 2], [4, 5]]),
        "I2": ("_xlfn.DROP(A2:C4,2)", [[7, 8, 9]]),
        "I4": ("_xlfn.DROP(A2:C4,,2)", [[3], [6], [9]]),
        "I8": ("_xlfn.DROP(A2:C4,-2)", [[1, 2, 3]]),
        "I10": ("_xlfn.DROP(A2:C4,2,2)", [[9]]),
    }
    _, got = spilled(tmp_path, grid(NINE), cases)
    for anchor, (_formula, values) in cases.items():
        assert got[anchor] == values, anchor
    # TAKE's page: rows or columns 0 is #CALC! (so Excel for Mac saved
    # =TAKE({1,2,3;4,5,6;7,8,9},G123), G123 0, in vinci1it2000/formulas' test.xlsx LOOKUP!U123)
    assert evaluate("=_xlfn.TAKE({1,2,3;4,5,6},0)").code == "#CALC!"
    assert evaluate("=_xlfn.TAKE({1,2,3;4,5,6},1,0)").code == "#CALC!"


def test_sort_unique_filter_worked_by_hand(tmp_path):
    # https://support.microsoft.com/en-us/office/sort-function-22f63bd0-ccc8-4e2b-a6cf-ee3d7d3aa9d7
    # (1 ascending, -1 descending, sort_index the column), UNIQUE's page
    # https://support.microsoft.com/en-us/office/unique-function-c5ab87fd-30a3-4ce9-9d1a-40204fb85e1e
    # (exactly_once: the rows that occur once) and FILTER's
    # https://support.microsoft.com/en-us/excel/filter-function (include a Boolean column,
    # (C=..)*(A=..) for AND; #CALC! for no match, if_empty instead when given)
    data = [("East", "Apple", 6380), ("West", "Grape", 5619), ("East", "Pear", 4394),
            ("North", "Apple", 1310)]
    cells = []
    for i, (region, product, units) in enumerate(data, 2):
        cells += [xlsx_make.cell(f"A{i}", None, region, t="inlineStr"),
                  xlsx_make.cell(f"B{i}", None, product, t="inlineStr"),
                  xlsx_make.cell(f"C{i}", None, units)]
    cells += spill("E2", "E2:G5", "_xlfn._xlws.SORT(A2:C5,3,-1)", [[0, 0, 0]] * 4)
    cells += spill("I2", "I2:I5", "_xlfn._xlws.SORT(C2:C5)", [[0]] * 4)
    cells += spill("K2", "K2:K4", "_xlfn.UNIQUE(A2:A5)", [[0]] * 3)
    cells += spill("M2", "M2:M3", "_xlfn.UNIQUE(A2:A5,FALSE,TRUE)", [[0]] * 2)
    cells += spill("O2", "O2:Q3", '_xlfn._xlws.FILTER(A2:C5,B2:B5="Apple")', [[0, 0, 0]] * 2)
    cells += spill("S2", "S2:U2", '_xlfn._xlws.FILTER(A2:C5,(B2:B5="Apple")*(A2:A5="East"))',
                   [[0, 0, 0]])
    cells += [xlsx_make.cell("W2", 'ROWS(_xlfn._xlws.FILTER(A2:C5,B2:B5="Apple"))', 0),
              xlsx_make.cell("W3", '_xlfn._xlws.FILTER(A2:C5,B2:B5="Kiwi","none")', 0),
              xlsx_make.cell("W4", "SUM(_xlfn.TAKE(_xlfn._xlws.SORT(C2:C5,,-1),2))", 0)]
    res = calc_workbook(write(tmp_path / "in.xlsx", cells), tmp_path / "out.xlsx", {})

    def block(c1, r1, rows, cols):
        return [[res[f"S!{chr(ord(c1) + j)}{r1 + i}"] for j in range(cols)]
                for i in range(rows)]

    assert block("E", 2, 4, 3) == [["East", "Apple", 6380], ["West", "Grape", 5619],
                                   ["East", "Pear", 4394], ["North", "Apple", 1310]]
    assert block("I", 2, 4, 1) == [[1310], [4394], [5619], [6380]]
    assert block("K", 2, 3, 1) == [["East"], ["West"], ["North"]]
    assert block("M", 2, 2, 1) == [["West"], ["North"]]  # East occurs twice
    assert block("O", 2, 2, 3) == [["East", "Apple", 6380], ["North", "Apple", 1310]]
    assert block("S", 2, 1, 3) == [["East", "Apple", 6380]]
    assert res["S!W2"] == 2 and res["S!W3"] == "none"
    # no match and no if_empty: #CALC! (the page; EXTRA!I20 of vinci1it2000/formulas'
    # test.xlsx, saved by Excel for Mac as #VALUE! with a rich value of errorType 13)
    assert evaluate('=_xlfn._xlws.FILTER({1;2},{FALSE;FALSE})').code == "#CALC!"
    assert res["S!W4"] == 6380 + 5619  # the two largest


def test_unique_in_excels_saved_workbook(tmp_path):
    # tests/corpus/sheetjs/metadata_2019.xlsx, saved by Excel 16: B13 =UNIQUE(A13:A21)
    # spilled into B13:B17 (1, 2, 3, 4, 5 of 1,2,3,4,3,2,1,5,3); C13 the same formula with
    # text in C15:C17, saved as an error with ref="C13" (#SPILL!): kept, not computed
    notes: list[str] = []
    res = calc_workbook(CORPUS / "sheetjs/metadata_2019.xlsx", tmp_path / "out.xlsx", {},
                        notes=notes, kept=[])
    assert [res[f"Sheet1!B{r}"] for r in range(13, 18)] == [1, 2, 3, 4, 5]
    said = " ".join(notes)
    assert "a dynamic array formula whose result (5x1) is not the size of the range Excel " \
           "saved it in (1x1)" in said and "Sheet1!C13" in said


def test_spill_reference_reads_the_range_excel_spilled(tmp_path):
    # A1# is saved as _xlfn.ANCHORARRAY(A1) (the held-out DCF models: AVERAGE(H8#)); here
    # A2# is SORT's spill A2:A4, 1+2+3 = 6, its mean 2
    cells = spill("A2", "A2:A4", "_xlfn._xlws.SORT(B2:B4)", [[1], [2], [3]])
    cells += [xlsx_make.cell(f"B{r}", None, v) for r, v in ((2, 3), (3, 1), (4, 2))]
    cells += [xlsx_make.cell("D1", "SUM(_xlfn.ANCHORARRAY(A2))", 0),
              xlsx_make.cell("D2", "AVERAGE(_xlfn.ANCHORARRAY($A$2))", 0),
              xlsx_make.cell("D3", "SUM(_xlfn.ANCHORARRAY(B2))", 6)]  # B2 spills nothing
    src = write(tmp_path / "in.xlsx", cells)
    notes: list[str] = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, notes=notes, kept=[])
    assert res["S!D1"] == 6 and res["S!D2"] == 2
    said = " ".join(notes)
    assert "the spill reference B2# (saved as _xlfn.ANCHORARRAY(B2)) to what is not " \
        "a cell anchoring a dynamic array Excel saved" in said and "S!D3" in said


def test_spill_reference_through_a_defined_name(tmp_path):
    # Name# is saved as _xlfn.ANCHORARRAY(Name) ("Real Estate Private Equity Model.xlsx" of
    # calebjgartner/Financial-Modeling-Projects: Timeline = Expenses!$F$4, the anchor of
    # =SEQUENCE(1,Term.Cap.Year,1,1) spilled into F4:P4; 'Cash Flow'!E3 =+Timeline# saved
    # 1, 2, 3... in E3:O3). Here Dates = 'Data Sheet'!$A$2, SORT's spill A2:A4 of 3, 1, 2
    # (1, 2, 3): SUM(Dates#) = 1+2+3 = 6, MAX 3; sheet T's own Dates = T!$A$1 (a value, no
    # spill) comes before the workbook's in T's formulas: T!D1 refused with its sentence
    data = spill("A2", "A2:A4", "_xlfn._xlws.SORT(B2:B4)", [[1], [2], [3]])
    data += [xlsx_make.cell(f"B{r}", None, v) for r, v in ((2, 3), (3, 1), (4, 2))]
    cells = [xlsx_make.cell("A1", None, 5),
             xlsx_make.cell("D1", "SUM(_xlfn.ANCHORARRAY(Dates))", 0),
             xlsx_make.cell("D2", "MAX(_xlfn.ANCHORARRAY( Dates ))*10", 0)]
    other = [xlsx_make.cell("A1", None, 5), xlsx_make.cell("C1", "1", 1),
             xlsx_make.cell("D1", "SUM(_xlfn.ANCHORARRAY(Dates))", 0)]
    src = tmp_path / "in.xlsx"
    xlsx_make.write(src, {"Data Sheet": data, "S": cells, "T": other},
                    names={"Dates": "'Data Sheet'!$A$2", ("Dates", 2): "T!$A$1"})
    with ZipFile(src, "a", ZIP_DEFLATED) as z:
        z.writestr("xl/metadata.xml", METADATA)
    notes: list[str] = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, notes=notes, kept=[])
    assert res["S!D1"] == 6 and res["S!D2"] == 30  # MAX(1, 2, 3) * 10
    said = " ".join(notes)
    assert "the spill reference Dates# (saved as _xlfn.ANCHORARRAY(Dates))" in said \
        and "T!D1" in said


def _cells(xml: bytes, refs: set[str]) -> dict[str, tuple]:
    """The ``<c>`` elements named in ``refs``, as (attributes, formula, its attributes,
    value) read from parsed XML."""
    out = {}
    for c in ET.fromstring(xml).iter(f"{MAIN}c"):
        if c.get("r") in refs:
            f = c.find(f"{MAIN}f")
            v = c.find(f"{MAIN}v")
            out[c.get("r")] = (dict(c.attrib), None if f is None else f.text,
                               None if f is None else dict(f.attrib),
                               None if v is None else v.text)
    return out


def test_a_spill_is_written_back_whole_as_excel_saves_it(tmp_path):
    # the saved values stale (9, 9, 9): calc writes the whole spill, the anchor keeping its
    # cm, its formula and ref; equal, as parsed XML, to what Excel saves for it
    cells = spill("A1", "A1:A3", "_xlfn._xlws.SORT(B1:B3)", [[9], [9], [9]])
    cells += [xlsx_make.cell(f"B{r}", None, v) for r, v in ((1, 30), (2, 10), (3, 20))]
    src = write(tmp_path / "in.xlsx", cells)
    calc_workbook(src, tmp_path / "out.xlsx", {})
    with ZipFile(tmp_path / "out.xlsx") as z:
        got = _cells(z.read("xl/worksheets/sheet1.xml"), {"A1", "A2", "A3"})
    excel = "".join(spill("A1", "A1:A3", "_xlfn._xlws.SORT(B1:B3)", [[10], [20], [30]]))
    want = _cells(xlsx_make.sheet_xml(
        [excel.split("</c>")[i] + "</c>" for i in range(3)]).encode(), {"A1", "A2", "A3"})
    assert got == want


def test_counts_as_excel_saved_them(tmp_path):
    # vinci1it2000/formulas, test/test_files/test.xlsx (saved by Excel for Mac, commit
    # 78e4b77), sheet LOOKUP, rebuilt here: the counts truncated toward 0, TRUE read as 1;
    # a negative TAKE beyond the array takes it all, DROP of 0 rows returns the array whole
    # (its page says #CALC!), DROP of more rows than the array has is #CALC! (U16)
    cells = [xlsx_make.cell("A1", None, -3.9), xlsx_make.cell("B1", None, 1.1),
             xlsx_make.cell("C1", None, 2.9), xlsx_make.cell("D1", None, "1", t="b"),
             xlsx_make.cell("E1", None, -4), xlsx_make.cell("F1", None, 0),
             xlsx_make.cell("G1", None, "#DIV/0!", t="e")]
    nine = "{1,2,3;4,5,6;7,8,9}"
    cases = {  # anchor: (formula, what Excel saved there)
        "A3": (f"_xlfn.CHOOSECOLS({nine},A1)", [[1], [4], [7]]),  # R6
        "B3": (f"_xlfn.CHOOSECOLS({nine},B1)", [[1], [4], [7]]),  # S6
        "C3": (f"_xlfn.CHOOSECOLS({nine},C1)", [[2], [5], [8]]),  # T6
        "D3": (f"_xlfn.CHOOSECOLS({nine},D1)", [[1], [4], [7]]),  # Y6
        "E3": (f"_xlfn.CHOOSECOLS({nine},A1:B1)", [[1, 1], [4, 4], [7, 7]]),  # AI6
        "A7": (f"_xlfn.CHOOSEROWS({nine},D1)", [[1, 2, 3]]),  # Y11
        "A8": (f"_xlfn.TAKE({nine},E1)", [[1, 2, 3], [4, 5, 6], [7, 8, 9]]),  # V123
        "A11": (f"_xlfn.TAKE({nine},B1)", [[1, 2, 3]]),  # S125
        "A12": (f"_xlfn.TAKE({nine},D1,1)", [[1]]),  # AB124
        "A13": (f"_xlfn.DROP({nine},F1)", [[1, 2, 3], [4, 5, 6], [7, 8, 9]]),  # V16
        "A16": (f"_xlfn.DROP({nine},B1)", [[4, 5, 6], [7, 8, 9]]),  # S17
        "A18": (f"_xlfn.DROP({nine},D1,1)", [[5, 6], [8, 9]]),  # AB17
    }
    # a count given an error value is that error (R125, AB16: #DIV/0! and the others)
    cells += spill("E8", "E8", f"_xlfn.TAKE({nine},G1)", [[0]])
    cells += spill("E9", "E9", f"_xlfn.DROP({nine},G1)", [[0]])
    res, got = spilled(tmp_path, cells, cases)
    for anchor, (_formula, values) in cases.items():
        assert got[anchor] == values, anchor
    assert res["S!E8"].code == "#DIV/0!" and res["S!E9"].code == "#DIV/0!"
    assert evaluate(f"=_xlfn.DROP({nine},4)").code == "#CALC!"  # U16
    assert evaluate(f"=_xlfn.CHOOSECOLS({nine},{{1.1,2;2,1}})").code == "#VALUE!"  # AH6


def test_errors_as_excel_saved_them(tmp_path):
    # vinci1it2000/formulas, test/test_files/test.xlsx (Excel for Mac), rebuilt here
    assert evaluate("=_xlfn._xlws.SORT({2,1},-1)").code == "#VALUE!"  # LOOKUP!AR117
    assert evaluate("=_xlfn._xlws.SORT({2,1,2,1},1,{1;-1})").code == "#VALUE!"  # AR118
    assert evaluate("=_xlfn.SORTBY({1,2;3,4;5,6},{1,2},1,{1;2;3},1)").code == \
        "#VALUE!"  # V120: by_arrays of a row and of a column
    assert evaluate('=_xlfn._xlws.FILTER({"a",2.1,"b",4.1},{FALSE;-2.1;4;4})').code == \
        "#VALUE!"  # EXTRA!L19
    assert evaluate('=_xlfn._xlws.FILTER({"a",2.1,"b",4.1;"a",2.1,"b",4.1},TRUE)').code == \
        "#VALUE!"  # EXTRA!O19
    # include holding errors: the first of them (LOOKUP!AA22:AF22, e.g. #DIV/0! then #NAME?)
    cells = [xlsx_make.cell("A1", None, 1), xlsx_make.cell("B1", None, 2),
             xlsx_make.cell("C1", None, "#DIV/0!", t="e"),
             xlsx_make.cell("D1", None, "#NAME?", t="e"),
             xlsx_make.cell("E1", "_xlfn._xlws.FILTER(A1:B1,C1:D1)", "#DIV/0!", t="e")]
    cells += spill("A3", "A3:A4", '_xlfn._xlws.FILTER({"a",2.1},{FALSE,FALSE},A1:A2)',
                   [[0], [0]])  # EXTRA!K20: if_empty an array, spilled as it is
    cells.append(xlsx_make.cell("A2", None, 7))
    ordered = sorted(cells, key=lambda c: (int("".join(
        ch for ch in c.split('r="', 1)[1].split('"', 1)[0] if ch.isdigit())), c))
    res = calc_workbook(write(tmp_path / "in.xlsx", ordered), tmp_path / "out.xlsx", {})
    assert res["S!E1"].code == "#DIV/0!"
    assert [res["S!A3"], res["S!A4"]] == [1, 7]


def test_a_cell_whose_value_is_calc_keeps_excels(tmp_path):
    # Excel saves #CALC! (and #SPILL!) as #VALUE! with a rich value naming the error
    # (vm, xl/richData/): napkin does not write those, so such a cell keeps what Excel saved
    saved = ('<c r="A1" t="e" cm="1" vm="1"><f t="array" ref="A1">_xlfn._xlws.FILTER('
             'B1:B2,B1:B2>5)</f><v>#VALUE!</v></c>')
    cells = [saved, xlsx_make.cell("B1", None, 1), xlsx_make.cell("C1", "B1+B2", 3),
             xlsx_make.cell("B2", None, 2)]
    src = write(tmp_path / "in.xlsx", cells)
    notes: list[str] = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, notes=notes, kept=[])
    assert res["S!C1"] == 3
    assert "#CALC! in a cell (Excel saves it as #VALUE! with a rich value naming the error, " \
           "which napkin does not write) (S!A1)" in " ".join(notes)
    with ZipFile(tmp_path / "out.xlsx") as z:
        got = _cells(z.read("xl/worksheets/sheet1.xml"), {"A1"})
    assert got == _cells(xlsx_make.sheet_xml([saved]).encode(), {"A1"})


@pytest.mark.parametrize(("formula", "says"), [
    ("_xlfn._xlws.SORT({1;\"a\"})", "SORT() of keys other than all numbers or all text"),
    ("_xlfn._xlws.SORT({\"a\";\"B\"})", "SORT() of text whose order depends on case"),
    ("_xlfn._xlws.SORT({1,2;1,3})", "SORT() of rows that tie on their key but differ"),
    ("_xlfn._xlws.SORT({1;2},1,2)", "SORT's sort_order other than 1 or -1"),
    ("_xlfn._xlws.SORT({1,2;3,4},{1,2})", "SORT() given an array of sort indexes"),
    ("_xlfn.UNIQUE({\"a\";\"A\"})", "UNIQUE() of texts that differ only in case"),
    ("_xlfn.UNIQUE({1;1},,TRUE)", "UNIQUE() with no row left"),
    ("_xlfn._xlws.FILTER({1;2},{\"x\";TRUE})", "FILTER's include holding a value that is "
                                               "not a number or a logical value"),
    ("_xlfn.TAKE({1;2},3)", "TAKE() of more rows than its array has"),
    ("_xlfn.DROP({1;2},-2)", "DROP() of every row or column from the end"),
    ("_xlfn.TAKE({1;2},-1.5)", "TAKE's rows a negative number that is not whole"),
])
def test_what_the_pages_do_not_settle_is_refused(tmp_path, formula, says):
    refused_spill(tmp_path, formula, says)


def test_an_empty_cell_in_the_array_is_refused(tmp_path):
    # what Excel spills for an empty cell of the array is not on the functions' pages
    # (refused as a form of argument not checked, before SORT's own refusal)
    cells = spill("A1", "A1:A3", "_xlfn._xlws.SORT(B1:B3)", [[0], [1], [2]])
    cells += [xlsx_make.cell("B1", None, 2), xlsx_make.cell("B3", None, 1),
              xlsx_make.cell("C1", "SUM(A1:A3)", 3)]
    with pytest.raises(WorkbookError, match=r"SORT\(\) given an empty cell in S!A1"):
        calc_workbook(write(tmp_path / "in.xlsx", cells), tmp_path / "out.xlsx", {})


def test_a_dynamic_formula_of_one_cell_branches_as_a_plain_formula(tmp_path):
    # the business corpus's fifteenth part (seen), Financial Calculator.xlsx, Backend!L3 =
    # _xlfn.IFS(B3="SIP",B13*B10*C4,...,B3="SIP+Lumpsum",B17*B10*C4+B16), saved by Excel
    # 365 as a dynamic array formula of one cell, holds the third value, though the first,
    # not taken, was "---"*5, #VALUE!: such a formula is a plain one, and an argument its
    # branches do not take is not refused for its forms (here B1, and C1's IFS, which its
    # IF does not take). A legacy array formula of one cell (no cm="1") is refused as before.
    c = xlsx_make.cell
    values = [c("A1", None, "b", t="inlineStr"), c("A2", None, "---", t="inlineStr")]
    cells = [*values, *spill("B1", "B1", '_xlfn.IFS(A1="a",A2*5,A1="b",7)', [[7]]),
             *spill("C1", "C1", 'IF(A1="a",_xlfn.IFS(A1="a",A2*5),8)', [[8]])]
    res = calc_workbook(write(tmp_path / "in.xlsx", cells), tmp_path / "out.xlsx", {})
    assert res["S!B1"] == 7 and res["S!C1"] == 8
    legacy = [*values, '<c r="B1"><f t="array" ref="B1">_xlfn.IFS(A1="a",A2*5,A1="b",7)</f>'
                       '<v>7</v></c>']
    with pytest.raises(WorkbookError, match="IFS"):
        calc_workbook(write(tmp_path / "in2.xlsx", legacy), tmp_path / "out2.xlsx", {})
