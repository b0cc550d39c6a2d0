"""Strict mode's per-cell refusal (``addin/engine/kept.py``): a cell strict mode does not
compute keeps the value Excel saved, and so does every formula reading it, and the
workbook is computed (``napkin calc`` exits 4 and names the cells), when the values they
read are the ones Excel computed them from; otherwise the workbook is refused as before.
Each workbook is written in the test (``xlsx_make``), with the values "Excel saved"
chosen so that a kept value is told from a computed one: BITAND is Excel's but not
checked (``addin/formula/excel_functions/``), and the value saved in its cell is 7 where
BITAND(1,5) is 1 (Microsoft Support, "BITAND function"), so a 7 in the output is the
value kept, never one napkin computed.
"""

from __future__ import annotations

import re

import pytest
import xlsx_make
from xlsx_make import cell

from addin.cli import main
from addin.engine import checked
from addin.engine.api import calc_workbook, refusal_causes
from addin.engine.census import cached_values
from addin.ooxml.guard import WorkbookError

UNCHECKED = "_xlfn.BITAND(1,5)"  # Excel's value 1; its cell says 7 (see above)
KEPT_CLAUSE = 'Nor can it keep the value Excel saved there (docs/fidelity.md, "Cells kept")'
KEPT = re.escape(KEPT_CLAUSE)  # (as a pattern)


def _calc(tmp_path, cells, **write):
    """Compute a workbook of ``cells`` (sheet S) as ``napkin calc`` does: the results,
    the notes and the cells kept."""
    assert "BITAND" not in checked.checked()
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells}, **write)
    notes, kept = [], []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, notes=notes, kept=kept)
    return res, notes, kept


def test_a_kept_leaf_keeps_excel_s_value_and_the_rest_is_computed(tmp_path):
    res, notes, kept = _calc(tmp_path, [cell("A1", None, 2), cell("B1", UNCHECKED, 7),
                                        cell("C1", "A1*3", 0)])
    assert res["S!B1"] == 7  # Excel's saved value, not BITAND's 1
    assert res["S!C1"] == 6  # 2*3, computed (the file said 0)
    assert [(k.label, k.kind, k.reason, k.positions) for k in kept] == [
        ("S!B1", "function not checked", "BITAND()", (("S", 1, 2),))]
    assert notes == ["kept Excel's values in 1 cell: BITAND(), a function napkin has not "
                     "checked against Excel (S!B1)"]
    out = cached_values(tmp_path / "out.xlsx")
    assert out[("S", 1, 2)] == 7.0 and out[("S", 1, 3)] == 6.0


def test_a_cell_reading_a_kept_cell_keeps_excel_s_value_too(tmp_path):
    # C1 reads B1, which napkin does not compute: C1 is not computed from Excel's 7 but
    # keeps the value Excel saved (23 = 7*3+2, as Excel computed it), and so does D1,
    # which reads C1; E1 reads nothing kept and is computed (the file said 0)
    res, notes, kept = _calc(tmp_path, [cell("A1", None, 2), cell("B1", UNCHECKED, 7),
                                        cell("C1", "B1*3+A1", 23), cell("D1", "C1-1", 22),
                                        cell("E1", "A1+1", 0)])
    assert (res["S!B1"], res["S!C1"], res["S!D1"], res["S!E1"]) == (7, 23, 22, 3)
    assert [(k.label, k.kind) for k in kept] == [
        ("S!B1", "function not checked"), ("S!C1", "reads a cell kept"),
        ("S!D1", "reads a cell kept")]
    assert notes == ["kept Excel's values in 1 cell: BITAND(), a function napkin has not "
                     "checked against Excel (S!B1)",
                     "kept Excel's values in 2 cells: it reads a cell napkin does not "
                     "compute, which keeps Excel's value (S!C1, S!D1)"]
    out = cached_values(tmp_path / "out.xlsx")
    assert (out[("S", 1, 3)], out[("S", 1, 4)], out[("S", 1, 5)]) == (23.0, 22.0, 3.0)


def test_a_reader_whose_saved_value_its_inputs_do_not_give_refuses_the_workbook(tmp_path):
    # C1 = B1*3+A1 from the values saved (B1 7, A1 2) is 23; Excel saved 24 there: A1
    # (a constant, which no computed cell shows) changed since Excel computed C1
    with pytest.raises(WorkbookError) as ex:
        _calc(tmp_path, [cell("A1", None, 2), cell("B1", UNCHECKED, 7),
                         cell("C1", "B1*3+A1", 24)])
    said = " ".join(str(ex.value).split())
    assert said.startswith("napkin cannot compute S!C1: it reads a cell napkin does not "
                           "compute")
    assert said.endswith(f"{KEPT_CLAUSE}: its formula, computed from the values Excel saved "
                         "in the cells it reads, does not give the value Excel saved in it "
                         "(an input it reads changed since Excel computed it)")
    assert not (tmp_path / "out.xlsx").exists()


def test_a_cell_reading_a_kept_cell_and_a_changed_input_refuses_the_workbook(tmp_path):
    # D1 reads the kept C1 and B1 = A1*2, which is 6 with A1 = 3 where Excel saved 4: A1
    # changed since Excel computed the sheet, so D1's saved 11 (7+4) is stale: refused
    cells = [cell("A1", None, 3), cell("B1", "A1*2", 4), cell("C1", UNCHECKED, 7),
             cell("D1", "C1+B1", 11)]
    with pytest.raises(WorkbookError) as ex:
        _calc(tmp_path, cells)
    said = " ".join(str(ex.value).split())
    assert said.startswith("napkin cannot compute S!D1: it reads a cell napkin does not "
                           "compute, which keeps Excel's value")
    assert said.endswith(f"{KEPT_CLAUSE}: it reads S!B1, whose value napkin computes "
                         "otherwise than the one Excel saved (its inputs changed since "
                         "Excel computed it)")
    assert not (tmp_path / "out.xlsx").exists()
    # with A1 = 2, as Excel saw it, D1 keeps its value
    cells[0] = cell("A1", None, 2)
    res, _, kept = _calc(tmp_path, cells)
    assert res["S!D1"] == 11 and [k.label for k in kept] == ["S!C1", "S!D1"]


def test_a_chain_of_kept_cells_is_kept_whole(tmp_path):
    res, notes, kept = _calc(tmp_path, [cell("A1", None, 2), cell("B1", UNCHECKED, 7),
                                        cell("C1", "_xlfn.BITAND(B1,3)", 9),
                                        cell("D1", "A1+1", 0)])
    assert (res["S!B1"], res["S!C1"], res["S!D1"]) == (7, 9, 3)
    assert [k.label for k in kept] == ["S!B1", "S!C1"]
    assert notes == ["kept Excel's values in 2 cells: BITAND(), a function napkin has not "
                     "checked against Excel (S!B1, S!C1)"]


def test_a_kept_cell_whose_value_excel_did_not_save_refuses_the_workbook(tmp_path):
    with pytest.raises(WorkbookError, match=f"{KEPT}: Excel saved no value in S!B1"):
        _calc(tmp_path, [cell("A1", None, 2), cell("B1", UNCHECKED)])
    assert not (tmp_path / "out.xlsx").exists()


def test_a_kept_cell_whose_inputs_changed_refuses_the_workbook(tmp_path):
    # B1 = A1*2 is 6 with A1 = 3, but Excel saved 4 there: A1 changed since Excel
    # computed the sheet, so C1's saved value is stale too
    cells = [cell("A1", None, 3), cell("B1", "A1*2", 4), cell("C1", "_xlfn.BITAND(B1,5)", 4)]
    with pytest.raises(WorkbookError, match=f"{KEPT}: it reads S!B1, whose value "
                                            "napkin computes otherwise"):
        _calc(tmp_path, cells)
    # the same with A1 = 2, as Excel saw it: C1 keeps its value
    cells[0] = cell("A1", None, 2)
    res, _, kept = _calc(tmp_path, cells)
    assert res["S!B1"] == 4 and res["S!C1"] == 4 and [k.label for k in kept] == ["S!C1"]


def test_a_kept_cell_reading_today_refuses_the_workbook_and_says_why(tmp_path):
    # A1 = TODAY() was 45000 (15 March 2023: 1899-12-30 + 45000 days) when Excel saved;
    # napkin computes today's date, so B1's saved value is that of the day Excel computed
    # it: not kept
    cells = [cell("A1", "TODAY()", 45000), cell("B1", "_xlfn.BITAND(A1,5)", 7)]
    with pytest.raises(WorkbookError, match=f"{KEPT}: it reads S!A1, whose value napkin "
                                            r"computes otherwise than the one Excel saved "
                                            r"\(it calls TODAY, NOW or RAND"):
        _calc(tmp_path, cells)


def test_a_cell_reading_a_kept_cell_through_offset_keeps_excel_s_value(tmp_path):
    # OFFSET(A1,0,1) is B1, a reference made while computing (no dependency written):
    # C1 is found reading the kept B1 as it is computed, and keeps the value Excel saved
    res, _, kept = _calc(tmp_path, [cell("A1", None, 2), cell("B1", UNCHECKED, 7),
                                    cell("C1", "SUM(OFFSET(A1,0,1))", 7),
                                    cell("D1", "C1*2", 14)])
    assert (res["S!C1"], res["S!D1"]) == (7, 14)
    assert [(k.label, k.kind) for k in kept] == [
        ("S!B1", "function not checked"), ("S!C1", "reads a cell kept"),
        ("S!D1", "reads a cell kept")]


def test_a_defined_name_is_kept_only_where_no_formula_computed_reads_it(tmp_path):
    # TWO (BITAND, not checked) has no saved value; B1 reads it and keeps the value Excel
    # saved (4), C1 reads B1 and keeps its own, D1 reads neither and is computed (2+1)
    res, notes, kept = _calc(tmp_path, [cell("A1", None, 2), cell("B1", "TWO*2", 4),
                                        cell("C1", "B1+1", 5), cell("D1", "A1+1", 0)],
                             names={"TWO": "_xlfn.BITAND(2,3)"})
    assert (res["S!B1"], res["S!C1"], res["S!D1"]) == (4, 5, 3)
    assert [(k.label, k.kind) for k in kept] == [
        ("TWO", "function not checked"), ("S!B1", "reads a cell kept"),
        ("S!C1", "reads a cell kept")]
    assert notes[0].startswith("left the defined name TWO uncomputed, as no formula napkin "
                               "computes reads it: ")
    # a name reading a cell kept is kept with it, and the cells it reads are checked as a
    # kept cell's are (rule 3): B2 = A2*2 is 6 with A2 = 3 where Excel saved 4
    with pytest.raises(WorkbookError, match=f"{KEPT}: it reads S!B2, whose value napkin "
                                            "computes otherwise"):
        _calc(tmp_path, [cell("A2", None, 3), cell("B2", "A2*2", 4),
                         cell("C2", UNCHECKED, 7), cell("D2", "BOTH+1", 12)],
              names={"BOTH": "S!$B$2+S!$C$2"})
    # nor is one kept that a formula may read by its text, through INDIRECT
    with pytest.raises(WorkbookError, match=f"{KEPT}: TWO is a defined name"):
        _calc(tmp_path, [cell("A1", None, 2), cell("B1", 'INDIRECT("A1")', 2)],
              names={"TWO": "_xlfn.BITAND(2,3)"})


def test_a_defined_name_no_formula_reads_is_left_uncomputed(tmp_path):
    # (tune2's DCF model: a name linking to another workbook, read by nothing, refused
    # the whole file) nothing written depends on it: the workbook is computed, and the
    # note says the name was left
    res, notes, kept = _calc(tmp_path, [cell("A1", None, 2), cell("B1", "A1*3", 0)],
                             names={"TWO": "_xlfn.BITAND(2,3)"})
    assert res["S!B1"] == 6  # computed (the file said 0)
    assert [(k.label, k.cells, k.positions) for k in kept] == [("TWO", 0, ())]
    assert len(notes) == 1 and notes[0].startswith(
        "left the defined name TWO uncomputed, as no formula napkin computes reads it: ")


def test_a_defined_name_napkin_cannot_read_is_kept_with_its_readers(tmp_path):
    # GONE's text, "#REF!$A$1" (a deleted sheet's cell as some libraries write it), is not
    # Excel's formula syntax to formulas' parser; napkin gave its readers #NAME? (and
    # IFERROR(GONE,5) 5) as computed values, where Excel gives #REF! (and 5) or what its
    # own reading is. Now the name is kept as an unreadable cell formula is, and so are the
    # formulas reading it, with the values Excel saved (7, 8); D1 reads neither
    res, notes, kept = _calc(tmp_path, [cell("A1", None, 2), cell("B1", "GONE*2", 7),
                                        cell("C1", "IFERROR(GONE,5)", 8),
                                        cell("D1", "A1+1", 0)],
                             names={"GONE": "#REF!$A$1"})
    assert (res["S!B1"], res["S!C1"], res["S!D1"]) == (7, 8, 3)
    assert [(k.label, k.kind) for k in kept] == [
        ("GONE", "formula napkin cannot read"), ("S!B1", "reads a cell kept"),
        ("S!C1", "reads a cell kept")]
    # read by no formula: left uncomputed, and said so
    res, notes, kept = _calc(tmp_path, [cell("A1", None, 2), cell("D1", "A1+1", 0)],
                             names={"GONE": "#REF!$A$1"})
    assert res["S!D1"] == 3 and [(k.label, k.cells) for k in kept] == [("GONE", 0)]
    assert notes[0].startswith("left the defined name GONE uncomputed, as no formula "
                               "napkin computes reads it: ")


def test_a_workbook_that_asks_to_be_recalculated_keeps_nothing(tmp_path):
    src = xlsx_make.with_calc_pr(
        xlsx_make.write(tmp_path / "in.xlsx", {"S": [cell("B1", UNCHECKED, 7)]}),
        'fullCalcOnLoad="1"')
    with pytest.raises(WorkbookError, match="asks to be recalculated when opened"):
        calc_workbook(src, tmp_path / "out.xlsx", {}, kept=[])


def test_cycles_and_unknown_functions_are_kept_where_nothing_reads_them(tmp_path):
    res, notes, kept = _calc(tmp_path, [cell("A1", "B1+1", 5), cell("B1", "A1+1", 4),
                                        cell("C1", "NOSUCHFN(1)", 3), cell("D1", "2*2", 0)])
    assert (res["S!A1"], res["S!B1"], res["S!C1"], res["S!D1"]) == (5, 4, 3, 4)
    assert sorted(k.kind for k in kept) == ["circular reference", "circular reference",
                                            "unknown function"]
    assert notes == ["kept Excel's values in 1 cell: NOSUCHFN(), a function neither "
                     "Excel's nor napkin's (S!C1)",
                     "kept Excel's values in 2 cells: a circular reference whose saved "
                     "values are not a fixed point, iterative calculation off (S!A1, S!B1)"]
    # (A1 = B1+1 and B1 = A1+1 have no fixed point: B1 from the saved A1 is 6, not 4)


def test_without_kept_strict_mode_refuses_as_before(tmp_path):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [cell("B1", UNCHECKED, 7)]})
    with pytest.raises(WorkbookError, match="function BITAND"):
        calc_workbook(src, tmp_path / "out.xlsx", {})


def test_napkin_calc_exits_4_and_lists_the_cells_kept(tmp_path, capsys):
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        cell("A1", None, 2), cell("B1", UNCHECKED, 7), cell("C1", "A1*3", 0)]})
    rc = main(["calc", str(src), "-o", str(tmp_path / "out.xlsx")])
    err = capsys.readouterr().err
    assert rc == 4
    assert err == ("napkin calc: kept Excel's values in 1 cell: BITAND(), a function napkin "
                   "has not checked against Excel (S!B1)\n")
    # everything computed: 0; --lenient computes BITAND (1) and exits 0
    src2 = xlsx_make.write(tmp_path / "in2.xlsx", {"S": [cell("A1", None, 2),
                                                          cell("C1", "A1*3", 0)]})
    assert main(["calc", str(src2), "-o", str(tmp_path / "out2.xlsx")]) == 0
    assert main(["calc", str(src), "-o", str(tmp_path / "out3.xlsx"), "--lenient"]) == 0
    assert cached_values(tmp_path / "out3.xlsx")[("S", 1, 2)] == 1.0
    # refused: 1, nothing written (Excel saved no value in the cell kept)
    src4 = xlsx_make.write(tmp_path / "in4.xlsx", {"S": [cell("B1", UNCHECKED),
                                                          cell("C1", "A1*3", 0)]})
    assert main(["calc", str(src4), "-o", str(tmp_path / "out4.xlsx")]) == 1
    assert not (tmp_path / "out4.xlsx").exists()


def test_a_nested_let_computes_and_a_lambda_in_one_is_refused_not_a_bug(tmp_path):
    # a LET nested in a LET, with Excel 365's parameter names (_xlpm.), as the fourth
    # held-out part's DCF models save it: formulas' dispatcher failed on it; its names
    # are now written out (addin.formula.let_names): x = 2*2 = 4, not 0, so 4. A LET
    # holding a LAMBDA is refused as one napkin cannot compute, not as napkin's code
    # failing (which the user is asked to report as a bug)
    nested = ('_xlfn.LET(_xlpm.x,_xlfn.LET(_xlpm.cutoff,A1,_xlpm.result,_xlpm.cutoff*2,'
              '_xlpm.result),IF(_xlpm.x=0,"",_xlpm.x))')
    lam = '_xlfn.LET(_xlpm.f,_xlfn.LAMBDA(_xlpm.a,_xlpm.a+1),_xlpm.f(A1))'
    causes = refusal_causes(xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        cell("A1", None, 2), cell("B1", nested, 4), cell("B2", lam, 3)]}))
    assert not [c for c in causes if c.label == "S!B1"]
    kinds = {c.kind for c in causes if c.label == "S!B2"}
    assert kinds == {"cannot compute"}


def test_the_module_imports_first():
    # addin.engine.support imports roots, which imports kept: kept must not import support
    # (tests/test_layers.py), or importing it first fails (a circular import)
    import subprocess
    import sys

    got = subprocess.run([sys.executable, "-c", "import addin.engine.kept"],
                         capture_output=True, text=True)
    assert got.returncode == 0, got.stderr


def test_what_makes_references_while_computing():
    # (readers_kept computes the workbook again only where a formula does: a reference
    # OFFSET or INDIRECT makes may reach a reader kept, which no dependency lists)
    from addin.formula.formula_text import makes_references

    assert makes_references("=SUM(OFFSET(A1,0,1))") and makes_references('indirect("A1")')
    assert not makes_references('="OFFSET(A1,0,1)"&A2')  # (a text, not a call)
    assert not makes_references("=MYOFFSET(A1)") and not makes_references(None)


def test_a_workbook_set_to_precision_as_displayed_is_refused_in_strict_mode(tmp_path):
    # <calcPr fullPrecision="0">: Excel stores each computed value rounded to its format
    # (ISO/IEC 29500-1 18.2.2; [MS-XLS] 2.4.35, "If the value is 0, the precision as
    # displayed mode is selected"), which napkin does not: refused whole in strict mode,
    # the sentence saying how to compute it; --lenient computes at full precision
    src = xlsx_make.with_calc_pr(xlsx_make.write(
        tmp_path / "in.xlsx", {"S": [cell("A1", None, 2), cell("B1", "A1/3", 0.67)]}),
        'fullPrecision="0"')
    with pytest.raises(WorkbookError, match="Set precision as displayed.*--lenient"):
        calc_workbook(src, tmp_path / "out.xlsx", {}, kept=[])
    assert not (tmp_path / "out.xlsx").exists()
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False)
    assert res["S!B1"] == 2 / 3
