"""Every cell of an array formula is computed and written, even where the sheet merges it
under a cell on its left; and the template's print layout never makes such a merge.

The pattern of Cost on the branch that met it: an array formula R2:R4 under a condition
``(IF(ISNUMBER(Z),Z,0)>0)+(F/stages<=8)>0``, a hidden column Y reading R one cell at a
time, and a long text in Q that ``workbook.paper`` merged into R3 and R4 (openpyxl holds an
array formula in its first cell only, so R3 and R4 looked empty to it). openpyxl then
reads R3 and R4 as empty (the cells a merge covers), although ``napkin calc`` wrote their
values: the sheet's XML is read here, not openpyxl's view of it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile

import openpyxl
import pytest
import xlsx_make
from openpyxl.worksheet.formula import ArrayFormula

from addin.engine.api import calc_workbook
from workbook.paper import print_setup

# reads or writes workbook XML: .ci/run runs it again with openpyxl's lxml off
pytestmark = pytest.mark.xml

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
NO_LAYOUT = "no layout"
#: name, price per GPU-hour, GPUs, interconnect (GB/s, or "none" for PCIe)
ROWS = [("a", 2.0, 4, 600), ("b", 1.5, 12, 600), ("c", 3.0, 20, "none")]
STAGES = 2


def _cells(path, sheet_xml="xl/worksheets/sheet1.xml") -> dict[str, tuple[str, str]]:
    """``{"R3": (t, <v> text)}`` of every cell with a value, from the sheet's XML."""
    with zipfile.ZipFile(path) as z:
        root = ET.fromstring(z.read(sheet_xml))
    out = {}
    for c in root.iter(f"{{{NS['m']}}}c"):
        v = c.find("m:v", NS)
        if v is not None:
            out[c.get("r")] = (c.get("t", "n"), v.text or "")
    return out


def test_array_cells_under_a_merge_are_computed(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Cost"
    for r, (name, price, gpus, link) in enumerate(ROWS, start=2):
        ws[f"A{r}"], ws[f"B{r}"], ws[f"F{r}"], ws[f"Z{r}"] = name, price, gpus, link
        ws[f"Q{r}"] = "a note long enough to be wrapped over the next column"
        ws[f"Y{r}"] = (f'={"Y" + str(r - 1) if r > 2 else chr(34) * 2}&IF(R{r}="{NO_LAYOUT}",'
                       f'", "&A{r},"")')
    ws["R2"] = ArrayFormula(
        "R2:R4", f'=IF((IF(ISNUMBER(Z2:Z4),Z2:Z4,0)>0)+(F2:F4/{STAGES}<=8)>0,'
                 f'B2:B4*F2:F4,"{NO_LAYOUT}")')
    ws.merge_cells("Q3:R3")  # as the print layout had merged them
    ws.merge_cells("Q4:R4")
    src, dst = tmp_path / "merged.xlsx", tmp_path / "merged-c.xlsx"
    wb.save(src)

    results = calc_workbook(src, dst)

    # by hand: a runs (600 GB/s link), 2.0 $/h × 4 GPUs; b runs (link), 1.5 × 12; c has
    # no link and 20 GPUs / 2 stages = 10 > 8 a stage: no layout
    want = {"R2": 2.0 * 4, "R3": 1.5 * 12, "R4": NO_LAYOUT}
    for ref, v in want.items():
        assert results[f"Cost!{ref}"] == v
    cells = _cells(dst)
    assert float(cells["R2"][1]) == want["R2"]
    assert float(cells["R3"][1]) == want["R3"]
    assert cells["R4"] == ("str", NO_LAYOUT)
    # Y reads R one cell at a time: only c is left out
    assert cells["Y4"] == ("str", ", c")


def test_print_layout_merges_no_cell_of_an_array(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    long = "a note long enough to run past the sheet's last column when printed " * 3
    ws["A1"] = "label"
    ws["R2"] = ArrayFormula("R2:R4", "=A2:A4*2")
    for r in range(2, 6):
        ws[f"A{r}"] = r
        ws[f"Q{r}"] = long
    ws["R5"] = None  # row 5: R is empty, its text may take it

    print_setup(ws)

    merged = {str(m) for m in ws.merged_cells.ranges}
    assert not {"Q2:R2", "Q3:R3", "Q4:R4"} & merged  # R2:R4 hold the array's values
    assert "Q5:R5" in merged  # an empty cell is still taken (the wrap still works)


def test_an_empty_volatile_formula_inside_an_array_is_a_cell_of_that_array(tmp_path):
    # Excel saves the cells a volatile array formula fills with an empty <f ca="1"/>
    # beside their value (the fourth held-out part's LBO model: G4 <f t="array"
    # aca="1" ref="G4:K4" ca="1">D.F.Revolver</f>, H4:K4 <f ca="1"/>): cells of the array,
    # computed with it. Outside an array such a cell is a formula napkin cannot read,
    # kept. By hand: B1:B3 = A1:A3*2 = 2, 4, 6; C1 = SUM(B1:B3) = 12.
    cells = [xlsx_make.cell(f"A{r}", None, r) for r in (1, 2, 3)]
    cells += ['<c r="B1"><f t="array" aca="1" ref="B1:B3" ca="1">A1:A3*2</f><v>0</v></c>',
              '<c r="B2"><f ca="1"/><v>0</v></c>', '<c r="B3"><f ca="1"/><v>0</v></c>',
              xlsx_make.cell("C1", "SUM(B1:B3)", 12), '<c r="D5"><f ca="1"/><v>7</v></c>']
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    kept = []
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    assert (res["S!B1"], res["S!B2"], res["S!B3"], res["S!C1"]) == (2, 4, 6, 12)
    assert [(k.label, k.kind) for k in kept] == [("S!D5", "formula napkin cannot read")]
