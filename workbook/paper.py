"""How a sheet is measured and printed: the width text takes (``fit_text``,
``wrap_labels``), and the page set-up of every sheet (``print_setup``).

Every sheet prints on Letter landscape, and fits A4 landscape as well: its pages are laid
out for the narrower page width (Letter's 11 in) and the shorter page height (A4's
8.27 in). The print scale keeps the smallest text of the sheet (cells and charts) at
``MIN_PRINTED_PT`` or more. A sheet too wide for one page at that scale prints on pages
across, column A repeated on each, and a block of rows whose content sits in the first
page's columns is a print area of its own (no page of bare labels). Text that would run
past a page's right edge is wrapped inside the page (its cells merged up to that edge);
manual row breaks keep each section's block of rows, and each chart, on one page.
"""

from __future__ import annotations

import math
import re

from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import range_boundaries
from openpyxl.worksheet.formula import ArrayFormula
from openpyxl.worksheet.pagebreak import Break, ColBreak, RowBreak

#: Letter (openpyxl's ``PAPERSIZE_LETTER``); the layout fits A4 too (see the module).
PAPER_SIZE = "1"
#: Margins in inches: left and right, top and bottom.
MARGIN_SIDE, MARGIN_TOP = 0.4, 0.5
#: Width inside the margins of the narrower of A4 (11.69 in) and Letter (11 in), landscape.
PAGE_WIDTH_PT = (11 - 2 * MARGIN_SIDE) * 72
#: Height inside the margins of the shorter of A4 (8.27 in) and Letter (8.5 in), landscape.
PAGE_HEIGHT_PT = (8.27 - 2 * MARGIN_TOP) * 72
#: The smallest printed text, in points.
MIN_PRINTED_PT = 7
#: Share of a page that a plan fills: room for the applications' own rounding of widths.
FILL = 0.95
#: Row height without an explicit one (Calibri 11), and chart text without a size, in pt.
DEFAULT_ROW_PT, CHART_TEXT_PT = 15.0, 10.0

#: Width units one character of 11 pt prose takes, with a margin: a width unit is the
#: width of a digit, and prose averages about 0.8 of it in Calibri (Excel) and in DejaVu
#: Sans (LibreOffice's stand-in where Calibri is missing); bold text takes 10 % more.
CHAR_WIDTH = 0.9
#: For text that spills into empty cells, a generous width per character (LibreOffice
#: draws notes such as "COST_PER_MTOK: low = ..." at about 1.05 units a character).
SPILL_WIDTH = 1.1
MAX_FIT_WIDTH = 75

_LITERAL = re.compile(r'"((?:[^"]|"")*)"')


def _formula_text(formula: str) -> int:
    """A lower bound of the length of the text a formula shows: its longest run of string
    literals joined by & (each other piece of the run counted as 4 characters)."""
    best = run = 0
    end = None
    for m in _LITERAL.finditer(formula):
        between = formula[end:m.start()] if end is not None else ""
        if end is not None and "&" in between and "," not in between:
            run += len(m.group(1)) + 4 * between.count("&") // 2
        else:
            run = len(m.group(1))
        best, end = max(best, run), m.end()
    return best


def text_width(c, formulas: bool = False, per_char: float = CHAR_WIDTH) -> float:
    """Width units the text of cell ``c`` needs on one line (0: none, or wrapped); with
    ``formulas``, for a formula the text its string literals spell at least."""
    v = c.value
    if not isinstance(v, str) or c.alignment.wrap_text or c.alignment.textRotation or \
            (v.startswith("=") and not formulas):
        return 0
    n = _formula_text(v) if v.startswith("=") else len(v)
    bold = 1.1 if c.font.b else 1
    return n * (c.font.sz or 11) / 11 * per_char * bold + 1 if n else 0


def width(ws, col: int) -> float:
    """The width of column ``col`` in width units (8.43 where none is set)."""
    dim = ws.column_dimensions.get(get_column_letter(col))
    return dim.width if dim is not None and dim.width else 8.43


def _hidden(ws, col: int) -> bool:
    dim = ws.column_dimensions.get(get_column_letter(col))
    return bool(dim is not None and dim.hidden)


def column_pt(ws, col: int) -> float:
    """Width on paper of column ``col`` at 100 %, in points, the wider of Excel's and
    LibreOffice's: Excel draws a column of width w as 7w + 5 pixels of 0.75 pt (Calibri),
    LibreOffice as w digits of its stand-in for Calibri (DejaVu Sans: 7 pt at 11 pt), so
    7w; a hidden column takes none."""
    w = width(ws, col)
    return 0.0 if _hidden(ws, col) else max(7 * w, (7 * w + 5) * 0.75)


def row_pt(ws, row: int) -> float:
    """Height on paper of row ``row`` at 100 %, in points (a hidden row takes none)."""
    dim = ws.row_dimensions.get(row)
    if dim is not None and dim.hidden:
        return 0.0
    return dim.height if dim is not None and dim.height else DEFAULT_ROW_PT


def print_width(ws, last_col: int, first_col: int = 1) -> float:
    """Width on paper of columns ``first_col``..``last_col`` at 100 %, in points."""
    return sum(column_pt(ws, col) for col in range(first_col, last_col + 1))


def _merged(ws) -> set[tuple[int, int]]:
    return {(y, x) for r in ws.merged_cells.ranges for x in range(r.min_col, r.max_col + 1)
            for y in range(r.min_row, r.max_row + 1)}


def fit_text(ws) -> None:
    """Widen each column to the longest text constant that would be cut on screen and on
    paper: one that is not wrapped and has a filled cell on its right (text spills only
    into empty cells), up to MAX_FIT_WIDTH."""
    merged = _merged(ws)
    need: dict[int, float] = {}
    for (row, col), c in list(ws._cells.items()):
        if ws._cells.get((row, col + 1)) is None or \
                ws._cells[(row, col + 1)].value is None or (row, col) in merged:
            continue
        w = text_width(c)
        if w > width(ws, col):
            need[col] = max(need.get(col, 0), min(w, MAX_FIT_WIDTH))
    for col, w in need.items():
        ws.column_dimensions[get_column_letter(col)].width = round(w, 1)


def wrap_labels(ws) -> None:
    """Wrap each label of column A that a formula spells (a label with the currency in it)
    and that would be cut by the filled cell on its right, and make its row tall enough for
    the lines it takes."""
    w = width(ws, 1)
    for (row, col), c in list(ws._cells.items()):
        right = ws._cells.get((row, 2))
        if col != 1 or right is None or right.value is None or \
                not (isinstance(c.value, str) and c.value.startswith("=")):
            continue
        need = text_width(c, True) + 4  # the currency label: a few characters more
        if need > w and not c.alignment.wrap_text:
            c.alignment = Alignment(wrap_text=True, vertical="top")
            lines = -(-need // w)
            height = ws.row_dimensions[row].height or 15
            ws.row_dimensions[row].height = max(height, 15 * lines)


# ---------------------------------------------------------------------------- charts
def chart_text_pt(chart) -> list[float]:
    """The sizes of a chart's text, in points (``CHART_TEXT_PT`` for text without one)."""
    from openpyxl.xml.functions import tostring

    xml = tostring(chart._write()).decode("utf-8")
    sizes = [int(x) / 100 for x in re.findall(r'<a:(?:defRPr|rPr)[^>]*\ssz="(\d+)"', xml)]
    return sizes + [CHART_TEXT_PT]


def chart_rows(ws, chart) -> tuple[int, int, int]:
    """The first and last rows a chart covers and its first column (1-based); ``chart``
    as built (its anchor a cell such as ``"A40"``) or as read (a one- or two-cell
    anchor)."""
    anchor = chart.anchor
    if isinstance(anchor, str):
        col, row = re.match(r"([A-Z]+)(\d+)$", anchor).groups()
        from openpyxl.utils import column_index_from_string

        first, col = int(row), column_index_from_string(col)
        height = chart.height / 2.54 * 72
    else:
        first, col = anchor._from.row + 1, anchor._from.col + 1
        if getattr(anchor, "to", None) is not None:
            return first, anchor.to.row + 1, col
        height = anchor.ext.height / 12700  # EMU -> pt
    last, rest = first, height - row_pt(ws, first)
    while rest > 0:
        last += 1
        rest -= row_pt(ws, last)
    return first, last, col


def _chart_cols(ws, chart) -> int:
    """The last column a chart covers (1-based)."""
    anchor = chart.anchor
    w = (chart.width / 2.54 * 72 if isinstance(anchor, str) else anchor.ext.width / 12700)
    col = chart_rows(ws, chart)[2]
    rest = w - column_pt(ws, col)
    while rest > 0:
        col += 1
        rest -= column_pt(ws, col)
    return col


# ---------------------------------------------------------------------------- the plan
def smallest_text_pt(ws) -> float:
    """The smallest text size on the sheet, in points: cells with a value and charts."""
    sizes = [c.font.sz or 11 for c in ws._cells.values() if c.value is not None]
    for chart in ws._charts:
        sizes += chart_text_pt(chart)
    return min(sizes or [11])


def least_scale(ws) -> int:
    """The smallest print scale, in percent, that prints the sheet's smallest text at
    ``MIN_PRINTED_PT`` or more."""
    return math.ceil(100 * MIN_PRINTED_PT / smallest_text_pt(ws) - 1e-9)


def _bands(ws, last_col: int, scale: int) -> list[tuple[int, int]]:
    """The columns of each page across at ``scale``, column A repeated on the pages after
    the first: as few pages as fill ``FILL`` of a page, their widths made even (the
    narrowest page room that needs no more pages)."""
    def greedy(room: float) -> list[tuple[int, int]]:
        bands, first, used = [], 1, 0.0
        for col in range(1, last_col + 1):
            w = column_pt(ws, col)
            if used + w > room and col > first:
                bands.append((first, col - 1))
                first, used = col, column_pt(ws, 1)
            used += w
        return bands + [(first, last_col)]

    room = PAGE_WIDTH_PT * FILL * 100 / scale
    best = greedy(room)
    for share in (0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6):
        bands = greedy(room * share)
        if len(bands) > len(best):
            break
        best = bands
    return best


def _block_starts(ws) -> list[int]:
    """The first row of each block: row 1, and each section row but the first one under
    the title rows (it stays with them)."""
    rows = {row for (row, col), c in ws._cells.items()
            if col == 1 and c.style == "napkin section" and row > 5}
    return [1] + sorted(rows)


def _wrap_past(ws, first: int, last: int, shown: set[tuple[int, int]]) -> None:
    """Wrap each text of columns ``first``..``last`` (a page's) that would run past column
    ``last`` inside it: its cell merged with the empty cells up to ``last`` (a cell is
    empty when it is not in ``shown``, ``_filled``'s: a cell of an array formula's range
    past its first holds no value in openpyxl, yet is not empty), its row made tall
    enough for the lines it takes."""
    merged = _merged(ws)
    for (row, col), c in sorted(ws._cells.items()):
        if not first <= col <= last or (row, col) in merged or _hidden(ws, col):
            continue  # a hidden column's text does not print
        need = text_width(c, True, SPILL_WIDTH)
        room = sum(width(ws, x) for x in range(col, last + 1) if not _hidden(ws, x))
        end = col
        while end < last and (row, end + 1) not in shown:
            end += 1
        if need <= sum(width(ws, x) for x in range(col, end + 1) if not _hidden(ws, x)) \
                or end < last or any((row, x) in merged for x in range(col, last + 1)):
            continue
        if last > col:
            ws.merge_cells(start_row=row, start_column=col, end_row=row, end_column=last)
        c.alignment = Alignment(wrap_text=True, vertical="top",
                                horizontal=c.alignment.horizontal)
        # a text a formula builds may be longer than its literals (numbers, TEXT(...)
        # pieces between them): one line more, as ``_clip_merges`` gives it
        lines = math.ceil(need / room) + (1 if c.value.startswith("=") else 0)
        line = (c.font.sz or 11) * 1.35
        ws.row_dimensions[row].height = max(row_pt(ws, row), lines * line + 2)


def _keep(ws, charts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The rows each chart keeps on one page: its own, and the text right above it (its
    caption: the filled rows up to the first empty one)."""
    filled = {row for (row, _), c in ws._cells.items() if c.value is not None}
    spans = []
    for a, b in charts:
        while a - 1 in filled:
            a -= 1
        spans.append((a, b))
    return spans


def _row_breaks(ws, areas, scale: int, title_pt: float,
                charts: list[tuple[int, int]]) -> list[int]:
    """The rows after which a page ends: each block of rows (``_block_starts``) on one
    page where it fits, a block taller than a page split between rows, never inside a
    chart or between a chart and its caption; the repeated header rows (``title_pt``)
    take room on every page but an area's first."""
    page = PAGE_HEIGHT_PT * FILL * 100 / scale
    starts, keep = _block_starts(ws), _keep(ws, charts)
    breaks: list[int] = []
    for top, bottom in areas:
        blocks = [r for r in starts if top < r <= bottom]
        blocks = [r for r in blocks if not any(a < r <= b for a, b in keep)]
        edges = [top] + blocks + [bottom + 1]
        used, room = 0.0, page

        def new_page(after: int, carried: float = 0.0):
            nonlocal used, room
            breaks.append(after)
            used, room = carried, page - title_pt

        for first, nxt in zip(edges, edges[1:], strict=False):
            h = sum(row_pt(ws, r) for r in range(first, nxt))
            if used and used + h > room and h <= page - title_pt:
                new_page(first - 1)
            if used + h <= room:
                used += h
                continue
            for r in range(first, nxt):  # taller than the room left: split between rows
                h = row_pt(ws, r)
                if used + h > room:
                    cut = next((a for a, b in keep if a < r <= b), r)
                    if cut - 1 <= (breaks[-1] if breaks else top - 1):
                        cut = r
                    new_page(cut - 1, sum(row_pt(ws, x) for x in range(cut, r)))
                used += h
    return sorted(set(breaks))


def print_setup(ws, title_rows: str | None = None) -> None:
    """Letter landscape, margins, and a scale at which the sheet's smallest text prints at
    ``MIN_PRINTED_PT`` or more: the whole width on one page (at most 100 %) where that
    scale allows, else pages across with column A repeated; print areas, wrapped text at
    the pages' right edges, and row breaks between blocks (see the module)."""
    ps = ws.page_setup
    ps.orientation, ps.paperSize = "landscape", PAPER_SIZE
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = MARGIN_SIDE
    ws.page_margins.top = ws.page_margins.bottom = MARGIN_TOP
    ws.sheet_properties.pageSetUpPr.fitToPage = False
    if title_rows:
        ws.print_title_rows = title_rows
    charts = [chart_rows(ws, c) for c in ws._charts]
    filled = _filled(ws)
    last_col = max([col for _, col in filled] + [_chart_cols(ws, c) for c in ws._charts]
                   + [1])
    last_row = max([ws.max_row] + [b for _, b, _ in charts])
    least = least_scale(ws)
    fit = math.floor(PAGE_WIDTH_PT * FILL / print_width(ws, last_col) * 100)
    scale = min(100, fit) if fit >= least else least
    ps.scale = scale
    bands = _bands(ws, last_col, scale)
    # each block whose content ends in the first band's columns: an area that narrow
    starts = _block_starts(ws) + [last_row + 1]
    areas: list[list[int]] = []
    for top, nxt in zip(starts, starts[1:], strict=False):
        used = [col for row, col in filled if top <= row < nxt]
        used += [_chart_cols(ws, c) for c, (a, _, _) in zip(ws._charts, charts, strict=True)
                 if top <= a < nxt]
        end = bands[0][1] if max(used or [1]) <= bands[0][1] else last_col
        if areas and areas[-1][2] == end:
            areas[-1][1] = nxt - 1
        else:
            areas.append([top, nxt - 1, end])
    shown = _filled(ws, hidden_too=True)  # a text is merged only into empty cells
    for top, bottom, end in areas:
        _clip_merges(ws, top, bottom, min(end, bands[0][1]))  # the first page's edge
        for band in bands:
            if band[0] <= end:
                _wrap_past(_Rows(ws, top, bottom), band[0], min(band[1], end), shown)
    ws.print_area = _area_refs(ws, areas, bands[0][1])
    if len(bands) > 1:
        ws.print_title_cols = "A:A"
        ws.col_breaks = ColBreak(brk=[Break(id=b, max=1048575, man=True)
                                      for _, b in bands[:-1]])
    title_pt = 0.0
    if title_rows:
        a, b = (int(x) for x in title_rows.replace("$", "").split(":"))
        title_pt = sum(row_pt(ws, r) for r in range(a, b + 1))
    breaks = _row_breaks(ws, [(t, b) for t, b, _ in areas], scale, title_pt,
                         [(a, b) for a, b, _ in charts])
    ws.row_breaks = RowBreak(brk=[Break(id=r, max=16383, man=True) for r in breaks])


def _clip_merges(ws, top: int, bottom: int, end: int) -> None:
    """End each merged cell of rows ``top``..``bottom`` that runs past column ``end`` (the
    print area's last, or the first page's) at ``end``, its row made tall enough for its
    wrapped text there and one line more (a text a formula builds may be longer than its
    literals)."""
    for rng in list(ws.merged_cells.ranges):
        if not (top <= rng.min_row and rng.max_row <= bottom and rng.min_col <= end
                < rng.max_col):
            continue
        first, row = rng.min_col, rng.min_row
        ws.unmerge_cells(rng.coord)
        if end > first:
            ws.merge_cells(start_row=row, start_column=first, end_row=rng.max_row,
                           end_column=end)
        c = ws.cell(row=row, column=first)
        if not (c.alignment.wrap_text and isinstance(c.value, str)):
            continue
        n = _formula_text(c.value) if c.value.startswith("=") else len(c.value)
        need = n * (c.font.sz or 11) / 11 * SPILL_WIDTH * (1.1 if c.font.b else 1)
        room = sum(width(ws, x) for x in range(first, end + 1) if not _hidden(ws, x))
        lines = math.ceil(need / room) + 1
        ws.row_dimensions[row].height = max(row_pt(ws, row),
                                            lines * (c.font.sz or 11) * 1.35 + 2)


def _area_refs(ws, areas: list[list[int]], band_end: int) -> list[str]:
    """The print areas: each of ``areas`` (top, bottom, last column); one that runs past
    the first page's columns (``band_end``) split: its rows in the first page's columns,
    then the columns after those over only the rows with content there (a table; one
    area a block, ``_block_starts``, where a text of column A between two blocks is wider
    than the column), so that column A, repeated on those pages, shows no title or note
    cut at its edge."""
    refs = []
    starts, filled = _block_starts(ws), _filled(ws)
    for top, bottom, end in areas:
        if end <= band_end:
            refs.append(f"A{top}:{get_column_letter(end)}{bottom}")
            continue
        refs.append(f"A{top}:{get_column_letter(band_end)}{bottom}")
        edges = [top] + [r for r in starts if top < r <= bottom] + [bottom + 1]
        spans: list[list[int]] = []
        for first, nxt in zip(edges, edges[1:], strict=False):
            rows = [row for row, col in filled if first <= row < nxt and col > band_end]
            for chart in ws._charts:
                a, b, _ = chart_rows(ws, chart)
                if first <= a < nxt and _chart_cols(ws, chart) > band_end:
                    rows += [a, b]
            if rows:
                spans.append([min(rows), max(rows)])
        for a, b in _joined(ws, spans):
            refs.append(f"{get_column_letter(band_end + 1)}{a}:{get_column_letter(end)}{b}")
    return refs


def _filled(ws, hidden_too: bool = False) -> set[tuple[int, int]]:
    """(row, column) of each cell in view (``hidden_too``: in hidden columns too) that
    shows something: a value, or a cell of an array formula's range (openpyxl holds the
    formula in its first cell only)."""
    out = {k for k, c in ws._cells.items() if c.value is not None}
    for c in list(ws._cells.values()):
        if isinstance(c.value, ArrayFormula):
            c1, r1, c2, r2 = range_boundaries(c.value.ref)
            out |= {(r, x) for r in range(r1, r2 + 1) for x in range(c1, c2 + 1)}
    return out if hidden_too else {(r, x) for r, x in out if not _hidden(ws, x)}


def _line_width(c) -> float:
    """Width units the text of cell ``c`` takes on one line, wrapped or not (0: none); for
    a formula, the text its string literals spell at least."""
    v = getattr(c, "value", None)
    if not isinstance(v, str):
        return 0.0
    n = _formula_text(v) if v.startswith("=") else len(v)
    return n * (c.font.sz or 11) / 11 * SPILL_WIDTH * (1.1 if c.font.b else 1)


def _joined(ws, spans: list[list[int]]) -> list[list[int]]:
    """``spans`` of rows, each joined to the one before it where no text of column A
    between the two is wider than the column (none would be cut there)."""
    out: list[list[int]] = []
    for a, b in spans:
        between = [ws._cells.get((r, 1)) for r in range(out[-1][1] + 1, a)] if out else []
        if out and all(_line_width(c) <= width(ws, 1) for c in between):
            out[-1][1] = b
        else:
            out.append([a, b])
    return out


class _Rows:
    """A worksheet seen through rows ``top``..``bottom`` only (for ``_wrap_past``)."""

    def __init__(self, ws, top: int, bottom: int):
        self._ws = ws
        self._cells = {k: c for k, c in ws._cells.items() if top <= k[0] <= bottom}

    def __getattr__(self, name):
        return getattr(self._ws, name)


__all__ = ["PAGE_WIDTH_PT", "PAGE_HEIGHT_PT", "MIN_PRINTED_PT", "PAPER_SIZE", "print_setup",
           "print_width", "least_scale", "smallest_text_pt", "chart_rows", "fit_text",
           "wrap_labels", "text_width"]
