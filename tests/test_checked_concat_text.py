"""Evidence for CONCAT given text that looks like a number (``addin/formula/
excel_functions/text.py``): joined as written, never read as a number.

Each value is a cell Excel saved in the seen corpora (its file and cell in the comment,
its inputs copied here) or worked by hand from Microsoft's page.
"""

from __future__ import annotations

import sheet_calc
import xlsx_make

c = xlsx_make.cell
text = sheet_calc.text


def test_concat_of_number_texts_as_excel_saved(tmp_path):
    # B-Bharath-Reddy/Business-Data-Repository-Excel, Car Inventory.xlsx (the fifth
    # held-out part), Sheet2: A3 = "CR04CAR047", J3 = "White", B3 = LEFT(A3,2) "CR",
    # F3 = MID(A3,3,2) "04", D3 = MID(A3,5,3) "CAR"; N3 =
    # CONCAT(B3,F3,D3,UPPER(LEFT(J3,3)),RIGHT(A3,3)) saved "CR04CARWHI047": "04" and "047"
    # joined as written (read as numbers they would be 4 and 47). Row 2 likewise:
    # "TY96CAM020", "Green" -> "TY96CAMGRE020".
    cells = []
    for row, (car, colour) in enumerate((("TY96CAM020", "Green"), ("CR04CAR047", "White")), 2):
        cells += [text(f"A{row}", car), text(f"J{row}", colour),
                  c(f"B{row}", f"LEFT(A{row},2)", "", t="str"),
                  c(f"F{row}", f"MID(A{row},3,2)", "", t="str"),
                  c(f"D{row}", f"MID(A{row},5,3)", "", t="str"),
                  c(f"N{row}", f"_xlfn.CONCAT(B{row},F{row},D{row},UPPER(LEFT(J{row},3)),"
                               f"RIGHT(A{row},3))", "", t="str")]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {}
    assert (res["S!N2"], res["S!N3"]) == ("TY96CAMGRE020", "CR04CARWHI047")


def test_concat_keeps_every_number_text_as_written(tmp_path):
    # Microsoft Support, "CONCAT function": each text item is joined as it is; by hand
    # "1E3" & " 2.50" & "$1,000" & "007" & "5" (a number) = "1E3 2.50$1,000007" & "5"
    cells = [text("A1", "1E3"), text("A2", " 2.50"), text("A3", "$1,000"), text("A4", "007"),
             c("A5", None, 5),
             c("B1", "_xlfn.CONCAT(A1:A5)", "", t="str"),
             c("B2", '_xlfn.CONCAT(A4,"-",A1)', "", t="str")]
    res, kept = sheet_calc.calc_sheet(tmp_path, cells)
    assert kept == {}
    assert res["S!B1"] == "1E3 2.50$1,0000075"
    assert res["S!B2"] == "007-1E3"
