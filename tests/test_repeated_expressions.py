"""An expression a formula repeats is computed where each occurrence is read: formulas'
parser makes one node of a repeated expression (computed once), which gave the value of
one context to another. In ``=IF(A1<0,(B1:B3>1)*1,SUMPRODUCT((B1:B3>1)*C1:C3))`` in row 3
the first ``B1:B3>1`` is implicitly intersected (B3 > 1, FALSE), the second is the whole
column; computed once, the SUMPRODUCT read FALSE and gave 0, in strict and lenient mode.
``addin.engine.executor.parse`` parses such a formula again with each occurrence its own
node (``addin.formula.fx_parser.EachCallBuilder``); occurrences read in one context stay
one node (LET's names are computed once, as Excel computes them).

Excel's values, worked by hand: A1 = 3, B1:B3 = 5, 2, 1, C1:C3 = 10, 20, 30. In a one-cell
formula an operator given a range takes the cell of the formula's row (Microsoft Support,
"Implicit intersection operator: @"): in row 3, (B1:B3>1)*1 is (1>1)*1 = 0; in row 2,
(2>1)*1 = 1. SUMPRODUCT's arguments are arrays (Microsoft Support, "SUMPRODUCT function"):
SUMPRODUCT((B1:B3>1)*C1:C3) = 1*10 + 1*20 + 0*30 = 30, SUMPRODUCT(B1:B3*2*C1:C3) =
2*(5*10 + 2*20 + 1*30) = 240. IF, CHOOSE, IFERROR, IFNA, IFS and SWITCH return the
argument their pages say (3 > 0; index 2; no error; the second test TRUE; 2 matches 2).
LibreOffice gives the same values (the last test, ``tools/lo_uno.py``).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import xlsx_make
from scenario_support import UNO_PYTHON, has_uno

from addin.engine import executor
from addin.engine.api import calc_workbook

c = xlsx_make.cell
ROOT = Path(__file__).resolve().parents[1]
GIVEN = [c("A1", None, 3), c("B1", None, 5), c("B2", None, 2), c("B3", None, 1),
         c("C1", None, 10), c("C2", None, 20), c("C3", None, 30)]
ARRAY = "SUMPRODUCT((B1:B3>1)*C1:C3)"  # 30
ONE = "(B1:B3>1)*1"  # 0 in row 3, 1 in row 2
#: (cell, formula, Excel's value): the formulas of rows 3 and 2 (each in column F, G...)
CASES = [
    ("F3", f"IF(A1<0,{ONE},{ARRAY})", 30),  # 3 < 0 is FALSE: value_if_false
    ("G3", f"IF(A1>0,{ARRAY},{ONE})", 30),
    ("H3", f"IF(A1<0,(B1:B3>1),{ARRAY})", 30),  # (the repeated expression alone)
    ("I3", "IF(A1>0,SUMPRODUCT(B1:B3*2*C1:C3),B1:B3*2)", 240),
    ("J3", f"IFERROR({ARRAY},{ONE})", 30),  # 30 is no error
    ("K3", f"_xlfn.IFNA({ARRAY},{ONE})", 30),
    # CHOOSE, IFS and SWITCH given a range where one value goes are refused (strict) or
    # keep Excel's value (lenient): the repeated expression is read outside them here
    ("L3", f"CHOOSE(2,0,{ARRAY})+IF(A1<0,{ONE},0)", 30),  # index 2: 30; + 0
    ("M3", f"_xlfn.IFS(A1<0,0,A1>0,{ARRAY})+IF(A1<0,{ONE},0)", 30),
    ("N3", f"_xlfn.SWITCH(2,1,0,2,{ARRAY})+IF(A1<0,{ONE},0)", 30),
    ("O3", f"IFERROR({ARRAY},0)+IF(A1<0,{ONE},0)", 30),
    ("P3", f"IF(A1<0,1,{ARRAY})+IF(A1<0,{ONE},0)", 30),
    ("F2", f"{ARRAY}+{ONE}", 31),  # 30 + (2>1)*1, no branch: both read
    ("G2", f"IF(A1>0,{ONE},{ARRAY})", 1),  # value_if_true, in row 2: (2>1)*1
]


def _book(tmp_path):
    return xlsx_make.write(tmp_path / "in.xlsx", {"S": GIVEN + [
        c(ref, formula, 999) for ref, formula, _ in CASES]})  # (999: no value of Excel's)


@pytest.mark.parametrize("strict", [True, False])
def test_each_occurrence_is_read_in_its_own_context(tmp_path, strict):
    res = calc_workbook(_book(tmp_path), tmp_path / "out.xlsx", {}, strict=strict)
    assert {ref: res[f"S!{ref}"] for ref, _, _ in CASES} == {
        ref: want for ref, _, want in CASES}


def _steps(formula: str) -> list[str]:
    return [name for name in executor.compile_formula(formula, "S!F3").names if name]


def test_occurrences_read_in_one_context_stay_one_node():
    # SQRT(A1) twice, each read as one value: one node, computed once (as LET's names)
    assert _steps("=IF(A1>0,SQRT(A1),0)+SQRT(A1)").count("SQRT") == 1
    # (B1:B3>1) read as one value and as an array: each occurrence computed
    assert _steps(f"=IF(A1<0,{ONE},{ARRAY})").count(">") == 2
    assert _steps(f"=IF(A1<0,{ARRAY},{ARRAY}+1)").count(">") == 1


@pytest.mark.skipif(not has_uno(), reason="needs LibreOffice and its uno module")
def test_libreoffice_gives_the_same_values(tmp_path):
    src = _book(tmp_path)
    proc = subprocess.run([UNO_PYTHON, str(ROOT / "tools" / "lo_uno.py")],
                          input=json.dumps([{"path": str(src)}]), capture_output=True,
                          text=True, timeout=300, check=True)
    cells = json.loads(proc.stdout)[0]["cells"]
    assert {ref: cells[f"S!{ref}"] for ref, _, _ in CASES} == {
        ref: ["n", float(want)] for ref, _, want in CASES}
