"""Every sheet of both committed workbooks prints legibly on A4 or Letter landscape: no
body text below 7 pt, nothing overprinted or clipped. What the files say (page set-up,
scale, breaks, charts), then LibreOffice's PDF of them."""

from __future__ import annotations

import re
import shutil
import subprocess

import openpyxl
import pytest
from template_support import ROOT

from workbook.paper import chart_rows, column_pt, smallest_text_pt

BOOKS = [ROOT / "workbook" / "napkin.xlsx", ROOT / "workbook" / "napkin-native.xlsx"]
#: ECMA-376 Part 1, 18.3.1.64 (pageSetup paperSize): 1 = Letter, 9 = A4.
PAPER = {1, 9}
#: Landscape width inside 0.4 in margins of the narrower of Letter (11 in) and A4
#: (11.69 in), in points (72 a inch).
PAGE_WIDTH = (11 - 0.8) * 72
#: The issue's floor for printed text, in points.
LEAST_PT = 7


@pytest.fixture(scope="module", params=BOOKS, ids=lambda p: p.name)
def book(request):
    return openpyxl.load_workbook(request.param)


def _bands(ws) -> list[tuple[int, int]]:
    """The columns of each page across: from A to each column break, and on."""
    last = max(openpyxl.utils.column_index_from_string(c) for c in
               re.findall(r":\$([A-Z]+)\$\d+", ws.print_area))
    edges = sorted(b.id for b in ws.col_breaks.brk)
    firsts = [1] + [e + 1 for e in edges]
    return [(a, b) for a, b in zip(firsts, edges + [last], strict=True) if a <= b]


def test_every_sheet_is_letter_landscape_at_a_legible_scale(book):
    """Landscape, Letter or A4, a fixed scale at which the sheet's smallest text (cells and
    charts) prints at 7 pt or more, and each page across fits the page's width at it."""
    for ws in book:
        if ws.sheet_state != "visible":  # napkin native's helper sheet
            continue
        ps = ws.page_setup
        assert ps.orientation == "landscape", ws.title
        assert ps.paperSize in PAPER, (ws.title, ps.paperSize)
        assert not ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        assert smallest_text_pt(ws) * ps.scale / 100 >= LEAST_PT, (ws.title, ps.scale)
        bands = _bands(ws)
        for i, (a, b) in enumerate(bands):
            repeated = column_pt(ws, 1) if i and ws.print_title_cols else 0
            wide = sum(column_pt(ws, c) for c in range(a, b + 1)) + repeated
            assert wide * ps.scale / 100 <= PAGE_WIDTH, (ws.title, a, b)
        if len(bands) > 1:
            assert ws.print_title_cols == "$A:$A", ws.title


def test_the_bar_chart_text_is_ten_points(book):
    """The Cost chart names every GPU in 10 pt: 7 pt printed at 70 % (10 × 0.7 = 7)."""
    from workbook.paper import chart_text_pt

    assert min(chart_text_pt(book["Cost"]._charts[0])) == 10


def test_no_chart_crosses_a_row_break(book):
    """No manual row break falls between a chart's first and last rows, and every chart
    sits inside a print area."""
    charts = 0
    for ws in book:
        breaks = [b.id for b in ws.row_breaks.brk]
        areas = [tuple(int(x) for x in re.findall(r"\$(\d+)", a)) for a in
                 ws.print_area.split(",")]
        for chart in ws._charts:
            first, last, _ = chart_rows(ws, chart)
            assert not [b for b in breaks if first <= b < last], (ws.title, first, last)
            assert any(top <= first and last <= bottom for top, bottom in areas), ws.title
            charts += 1
    assert charts == 6  # Summary's and Cost's bars, Frontier's two, Finance's tornado,
    # Roofline's


def test_every_cell_in_view_is_inside_a_print_area(book):
    """Each cell of a column in view that shows something, a value or a cell of an array
    formula's range (openpyxl keeps the formula in the range's first cell), is printed:
    it lies inside one of the sheet's print areas."""
    from openpyxl.utils.cell import range_boundaries
    from openpyxl.worksheet.formula import ArrayFormula

    checked = 0
    for ws in book:
        if ws.sheet_state != "visible":
            continue
        areas = [range_boundaries(a.replace("$", "").split("!")[-1])
                 for a in ws.print_area.split(",")]
        cells = {k for k, c in ws._cells.items() if c.value is not None}
        for c in list(ws._cells.values()):
            if isinstance(c.value, ArrayFormula):
                c1, r1, c2, r2 = range_boundaries(c.value.ref)
                cells |= {(r, x) for r in range(r1, r2 + 1) for x in range(c1, c2 + 1)}
        for row, col in cells:
            dim = ws.column_dimensions.get(openpyxl.utils.get_column_letter(col))
            if dim is not None and dim.hidden:
                continue
            assert any(c1 <= col <= c2 and r1 <= row <= r2 for c1, r1, c2, r2 in areas), \
                (ws.title, row, col)
            checked += 1
    assert checked > 1000


def test_tables_over_pages_repeat_their_header(book):
    """The tables that run over pages repeat their header row on each; Sizing's grids
    repeat grid 1's row of GPU names (grid 2 has the same GPU columns), whose column B
    header names what both grids' column B holds."""
    from workbook.sizing import GRID_B_HEADER, GRID_TITLE_ROW

    for sheet in ("Sizing", "Cost", "Calibration", "Assumptions", "GPUs", "Models"):
        assert book[sheet].print_title_rows, sheet
    ws = book["Sizing"]
    assert ws.print_title_rows == f"${GRID_TITLE_ROW}:${GRID_TITLE_ROW}"
    heads = [r for r in range(1, ws.max_row + 1) if ws[f"A{r}"].value == "Model  \\  GPU"]
    assert heads[0] == GRID_TITLE_ROW and len(heads) == 2
    assert {ws[f"B{r}"].value for r in heads} == {GRID_B_HEADER}
    assert ws[f"C{GRID_TITLE_ROW}"].value.startswith("=IF(INDEX(GPU_NAME,1)")


def test_a_rows_label_value_and_note_read_on_one_line(book):
    """In the rows of Sizing's answer, scenario, working and realistic blocks (tall where a
    note wraps), the label, the value and the note sit at the top of the row: the
    scenario's labels were at the bottom while its values were at the top, a row apart."""
    from workbook.sizing import GRID_TOP, SIZING

    ws = book["Sizing"]
    rows = sorted({int(cell[1:]) for cell in SIZING.values()})
    assert rows[-1] < GRID_TOP and len(rows) > 90
    tall = [r for r in rows if (ws.row_dimensions[r].height or 15) > 20]
    assert len(tall) >= 10  # the scenario's wrapped notes
    for r in rows:
        for col in "ABC":
            assert ws[f"{col}{r}"].alignment.vertical == "top", f"{col}{r}"


def test_every_cell_of_a_tall_row_sits_at_its_top(book):
    """In every row taller than one line, each filled cell that is not a header sits at
    the top, as the wrapped text that made the row tall (Finance's rented-vs-owned labels
    sat at the bottom, a row below their notes in the How column)."""
    checked = 0
    for ws in book:
        for (r, _), c in ws._cells.items():
            if c.value is None or (ws.row_dimensions[r].height or 15) <= 16 or \
                    c.style == "napkin header" or ws.column_dimensions[c.column_letter].hidden:
                continue  # a hidden column (Plan's search) does not show
            assert c.alignment.vertical in ("top", "center"), (ws.title, c.coordinate)
            checked += 1
    assert checked > 1000


def test_finances_how_column_holds_its_longest_word(book):
    """Finance's How notes (rented vs owned, the budget, break-even: column D) wrap between
    words: the longest word, a function name with its parenthesis (OWNED_HOURLY_COST(
    purchase), fits the column (0.9 width unit a character, workbook.paper.CHAR_WIDTH),
    where at 16 wide it broke mid-name."""
    from workbook.finance import FINANCE
    from workbook.paper import CHAR_WIDTH, width

    ws = book["Finance"]
    words = [w for r in range(FINANCE["hourly"], FINANCE["within"] + 1)
             for w in str(ws[f"D{r}"].value or "").split() if not str(ws[f"D{r}"].value
                                                                  ).startswith("=")]
    longest = max(words, key=len)
    assert longest.startswith("OWNED_HOURLY_COST")
    assert len(longest) * CHAR_WIDTH <= width(ws, 4)


def test_cost_shows_the_answer_columns(book):
    """Cost's working columns are grouped and folded; the answer columns stay in view."""
    ws = book["Cost"]
    hidden = {c for c, d in ws.column_dimensions.items() if d.hidden}
    assert set("DEGHIJKLMNO") <= hidden
    assert not hidden & set("ABCFPQRST")
    assert all(ws.column_dimensions[c].outline_level == 1 for c in "DEGHIJKLMNO")


# ------------------------------------------------------------------------ LibreOffice


def _dejavu_for_calibri() -> bool:
    if not (shutil.which("soffice") and shutil.which("pdftotext") and shutil.which("fc-match")):
        return False
    out = subprocess.run(["fc-match", "Calibri"], capture_output=True, text=True).stdout
    return "DejaVu Sans" in out


_NEEDS_LO = pytest.mark.skipif(
    not _dejavu_for_calibri(),
    reason="needs soffice, pdftotext and DejaVu Sans standing in for Calibri")

# LibreOffice's PDF of a committed workbook: ``printed(path)``, the session fixture of
# tests/template_support.py (one soffice a workbook for the run, shared with
# tests/test_summary.py)


@_NEEDS_LO
def test_libreoffice_names_every_priced_gpu_on_the_bar_chart(printed):
    """The printed page of Cost's bar chart names each GPU with a price (LibreOffice leaves
    out every other name of a category axis too crowded for its text): the names of
    column W, the chart's categories, each on the chart's page, where no other cell of
    the sheet prints a GPU's name but the caption listing the unpriced ones. The native
    edition: in the template LibreOffice recomputes napkin's array formulas (#NAME?)."""
    from workbook.cost import CHART, COST_FIRST

    path = BOOKS[1]
    ws = openpyxl.load_workbook(path, data_only=True)["Cost"]
    names = [ws[f"{CHART['name']}{r}"].value for r in range(COST_FIRST, ws.max_row + 1)]
    names = [n for n in names if n]
    assert len(names) >= 10  # the GPUs table's priced rows (udfs/data/gpu_prices.csv)
    pdf = printed(path)
    pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout.split("\f")
    page = next(p for p in pages if "scenario; cheapest on top)" in p)  # its title
    lines = [" ".join(line.split()) for line in page.splitlines()]
    for name in names:
        assert any(line == name or line.startswith(name + " ") for line in lines), name


@_NEEDS_LO
def test_libreoffice_prints_the_header_on_every_page_of_a_table(printed):
    """LibreOffice's PDF of the native edition: every page of a sheet from the first that
    shows its repeated header row (print titles) to the sheet's last shows that row's
    first cell again, Sizing's grids included (their continued pages printed rows of
    yes/no and ms under no GPU name). A sheet's pages run from the page that starts with
    its title (A1) to the next sheet's."""
    path = BOOKS[1]
    book = openpyxl.load_workbook(path)
    pages = [" ".join(p.split()) for p in subprocess.run(
        ["pdftotext", "-layout", str(printed(path)), "-"], capture_output=True,
        text=True, check=True).stdout.split("\f")]
    sheets = [ws for ws in book if ws.sheet_state == "visible"]
    starts = [next(i for i, p in enumerate(pages) if p.startswith(ws["A1"].value))
              for ws in sheets]
    checked = 0
    for ws, first, end in zip(sheets, starts, starts[1:] + [len(pages)], strict=True):
        if ws.title == "Sizing":  # its grids' header, print titles or not
            head = "Model \\ GPU"
        elif ws.print_title_rows:
            row = int(ws.print_title_rows.split(":")[0].strip("$"))
            head = " ".join(str(ws[f"A{row}"].value).split())
        else:
            continue
        shown = [i for i in range(first, end) if head in pages[i]]
        assert shown, ws.title
        missing = [i + 1 for i in range(shown[0], end) if head not in pages[i]]
        assert not missing, (ws.title, head, missing)
        checked += end - shown[0]
    assert checked >= 60  # Sizing's 15 grid pages, the tables of GPUs, Models...


@_NEEDS_LO
@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.name)
def test_libreoffice_prints_no_word_past_the_page_and_none_below_7pt(printed, path):
    """LibreOffice's PDF of the workbook (as a user prints it): every word inside the
    page's margins (a word past the right margin is clipped text) and no word smaller than
    7 pt. A word's box is DejaVu Sans's ascent + descent, 1.3 em (LibreOffice's 11 pt
    Calibri, drawn in DejaVu Sans, measured here as a box 14.30 pt tall)."""
    pdf = printed(path)
    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    pages = re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', html, re.S)
    assert len(pages) >= 13  # one page a sheet at least
    margin = 0.4 * 72
    for n, (w, h, body) in enumerate(pages, 1):
        w, h = float(w), float(h)
        assert (w, h) in ((792, 612), (842, 595)), n  # Letter or A4 landscape
        for x0, y0, x1, y1, word in re.findall(
                r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<',
                body):
            x0, y0, x1, y1 = (float(v) for v in (x0, y0, x1, y1))
            assert margin - 2 <= x0 and x1 <= w - margin + 2, (n, word, x0, x1)
            assert 0 <= y0 and y1 <= h, (n, word, y0, y1)
            if len(word) > 2 and y1 - y0 < x1 - x0:  # a rotated word: as tall as long
                assert (y1 - y0) / 1.3 >= LEAST_PT - 0.05, (n, word, y1 - y0)
