"""Re-render the screenshots in this folder from the computed template.

    python docs/screenshots/render.py

Builds the template (each block of napkin calls cell by cell, not as one array formula:
see ``main``), computes it with ``napkin calc``, exports every sheet to one PDF page
each with LibreOffice (``SinglePageSheets``: nothing is cut off at a page edge), and turns
the pages into PNGs. LibreOffice sizes such a page to the sheet's used cells, not to its
print area, so the copy it exports (a temporary one) gets a blank cell at the print area's
last column: the notes that spill past the last used column are shown, as on paper.
The pages become PNGs with poppler's ``pdftoppm`` at a resolution where the smallest text
stays readable. ``grid.png`` is the lower part of the Sizing page (the model × GPU grids).
Needs ``soffice`` and ``pdftoppm`` on the PATH.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
#: sheet -> PNG name (the order of the sheets in the workbook)
PAGES = {"Start": "start", "Sizing": "sizing", "Cost": "cost", "Frontier": "frontier",
         "Finance": "finance", "Plan": "plan", "Calibration": "calibration",
         "Roofline": "roofline", "Speedup": "speedup"}
PDF_FILTER = ('pdf:calc_pdf_Export:{"SinglePageSheets":{"type":"boolean","value":"true"}}')
DPI = 110


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from openpyxl import load_workbook

    from workbook.build import GRID_TOP, build_workbook

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # napkin's blocks cell by cell: LibreOffice recomputes array formulas on opening,
        # and without napkin's functions shows #NAME? there; a cell it keeps shows the
        # value napkin calc computed
        src = tmp / "napkin.xlsx"
        build_workbook(per_cell=True).save(src)
        out = tmp / "napkin-computed.xlsx"
        subprocess.run([sys.executable, "-m", "addin.cli", "calc", str(src), "-o", str(out)],
                       check=True, cwd=ROOT)
        sheets = load_workbook(out, read_only=True).sheetnames
        _widen_to_print_area(out)
        subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp}/lo", "--headless",
                        "--convert-to", PDF_FILTER, "--outdir", str(tmp), str(out)],
                       check=True, capture_output=True, timeout=600)
        pdf = tmp / "napkin-computed.pdf"
        for title, name in PAGES.items():
            page = sheets.index(title) + 1
            subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-f", str(page), "-l",
                            str(page), "-singlefile", str(pdf), str(tmp / name)], check=True)
            shutil.copy(tmp / f"{name}.png", HERE / f"{name}.png")
        rows = load_workbook(out, read_only=True)["Sizing"].max_row
        _grid(pdf, sheets.index("Sizing") + 1, HERE / "grid.png", GRID_TOP, rows)
    return 0


def _widen_to_print_area(path: Path) -> None:
    """Put a blank (a no-break space) in row 1 of the last column of each sheet's print
    areas, in place: LibreOffice then exports the whole print area (``path`` is the
    temporary copy)."""
    from zipfile import ZipFile

    from addin.ooxml import package
    from addin.ooxml import xlsx_values as xv

    with ZipFile(path) as zf:
        book = xv.read_book(zf)
        replace = {}
        for dn in book.names:
            if dn.name != "_xlnm.Print_Area" or dn.local_sheet is None:
                continue
            last = max(re.findall(r":\$([A-Z]+)\$\d+", dn.text), key=xv.col2num)
            sheet = book.sheets[dn.local_sheet]
            xml = zf.read(sheet.path).decode("utf-8")
            col = xv.col2num(last)
            if not any(c.col >= col for c in xv.read_cells(xml)):
                ref = f"{last}1"
                xml = xv.write_values(xml, {(1, col): ("str", "")}).replace(
                    f'<c r="{ref}" t="str"><v></v></c>',
                    f'<c r="{ref}" t="inlineStr"><is><t>\u00a0</t></is></c>')
                replace[sheet.path] = xml.encode("utf-8")
        package.rewrite(zf, path, path, replace, in_place=True, backup=False)


def _grid(pdf: Path, page: int, grid: Path, grid_top: int, rows: int) -> None:
    """The model × GPU grids: the lower part of the Sizing page, from the first grid's
    title down (``rows`` rows in all on the page; the share above the grids is cut)."""
    info = subprocess.run(["pdfinfo", "-f", str(page), "-l", str(page), str(pdf)],
                          capture_output=True, text=True, check=True).stdout
    w, h = (float(x) for x in re.search(rf"Page\s+{page} size:\s+([\d.]+) x ([\d.]+)",
                                        info).groups())
    px_w, px_h = round(w / 72 * DPI), round(h / 72 * DPI)
    top = int(px_h * (grid_top - 8) / rows)
    subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-f", str(page), "-l", str(page),
                    "-x", "0", "-y", str(top), "-W", str(px_w), "-H", str(px_h - top),
                    "-singlefile", str(pdf), str(grid.with_suffix(""))], check=True)


if __name__ == "__main__":
    sys.exit(main())
