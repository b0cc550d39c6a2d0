"""Workbooks with napkin's functions as each spreadsheet writer saves them, for the tests
that check what napkin writes over inputs of every writer (``tests/test_xml_parts.py``).

``python tests/xml_writers.py openpyxl OUT`` writes the openpyxl one in a process of its
own, so that the caller chooses, through ``OPENPYXL_LXML``, whether openpyxl serialises
with lxml (openpyxl reads the switch once, when it is first imported).
"""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

#: (cell, value or formula) of the sheet "Napkin": a precision read from a cell (the
#: native edition's hidden tables), nested calls (its helper cells), a plain Excel formula
NAPKIN_CELLS = [
    ("A1", "FP8"),
    ("B1", "=WEIGHT_GB(70E9,A1)"),
    ("B2", "=RIDGE(989,3.35)"),
    ("B3", '=DECODE_FLOOR(70E9,"FP8",3.35)'),
    ("B4", "=RIDGE(RIDGE(989,3.35),1)"),
    ("B5", "=SUM(B2,B3)"),
]
#: (cell, formula) of the sheet "Other": a reference across sheets
OTHER_CELLS = [("A1", "=Napkin!B2*2")]
#: where napkin's cells go in an Excel-saved workbook: row r of "Napkin" is row r + OFFSET
OFFSET = 999


def openpyxl_book(path: Path) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Napkin"
    for ref, v in NAPKIN_CELLS:
        ws[ref] = v
    other = wb.create_sheet("Other")
    for ref, v in OTHER_CELLS:
        other[ref] = v
    wb.save(path)
    return path


def xlsxwriter_book(path: Path) -> Path:
    import xlsxwriter

    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Napkin")
    for ref, v in NAPKIN_CELLS:
        ws.write_formula(ref, v) if v.startswith("=") else ws.write_string(ref, v)
    other = wb.add_worksheet("Other")
    for ref, v in OTHER_CELLS:
        other.write_formula(ref, v)
    wb.close()
    return path


def with_napkin_cells(excel_saved: Path, path: Path) -> Path:
    """A copy of a workbook Excel saved (its parts as Excel wrote them) whose first sheet
    gets napkin's cells in new rows below its own, written as Excel writes cells."""
    with zipfile.ZipFile(excel_saved) as zf:
        parts = [(i, zf.read(i)) for i in zf.infolist()]
    names = [i.filename for i, _ in parts]
    sheet = next(n for n in names if re.fullmatch(r"xl/worksheets/sheet\d+\.xml", n))
    out = []
    for info, data in parts:
        if info.filename == sheet:
            xml = data.decode("utf-8")
            m = re.search(r"<(?P<p>(?:\w+:)?)sheetData\s*/>|</(?P<q>(?:\w+:)?)sheetData>", xml)
            p = m.group("p") if m.group("p") is not None else m.group("q")
            by_row: dict[int, list[str]] = {}
            for ref, v in NAPKIN_CELLS:  # row r of the sheet "Napkin" is row r + 999 here
                col, row = ref[0], int(ref[1:]) + OFFSET
                if v.startswith("="):
                    f = re.sub(r"\b([A-Z])(\d+)\b",
                               lambda m: f"{m.group(1)}{int(m.group(2)) + OFFSET}", v[1:])
                    body = (f'<{p}c r="{col}{row}"><{p}f>{_esc(f)}</{p}f><{p}v>0</{p}v>'
                            f"</{p}c>")
                else:
                    body = (f'<{p}c r="{col}{row}" t="inlineStr"><{p}is><{p}t>{_esc(v)}'
                            f"</{p}t></{p}is></{p}c>")
                by_row.setdefault(row, []).append(body)
            rows = [f'<{p}row r="{r}">{"".join(cells)}</{p}row>'
                    for r, cells in sorted(by_row.items())]
            if m.group("p") is not None:
                xml = xml[:m.start()] + f"<{p}sheetData>{''.join(rows)}</{p}sheetData>" \
                    + xml[m.end():]
            else:
                xml = xml[:m.start()] + "".join(rows) + xml[m.start():]
            data = xml.encode("utf-8")
        out.append((info, data))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in out:
            z.writestr(info, data)
    return path


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


if __name__ == "__main__":
    kind, out = sys.argv[1], Path(sys.argv[2])
    {"openpyxl": openpyxl_book, "xlsxwriter": xlsxwriter_book}[kind](out)
