"""The Lite edition opened elsewhere: the top of every sheet says which file to open
instead where napkin's functions do not compute (a program without xlwings Lite).

The Start sheet holds the one test of whether napkin's functions compute
(``workbook.start.without_lite``: a one-cell array formula that calls RIDGE once, empty
where it computes, ``WITHOUT_LITE`` where it errors). Every other sheet reads that cell,
with no napkin call of its own (Lite's call budget, ``tests/test_call_count.py``): the
subtitle under its title (A2) becomes the one-cell array formula

    IF('Start'!$A$19 = "", the sheet's subtitle, ELSEWHERE)

so that where napkin computes (Excel with xlwings Lite, ``napkin calc``, which writes
the values a user sees on opening) the subtitle reads as before, and where it does not
the line under the title says, in bold dark red (``workbook.sheet.warn_red``), which file
to open. LibreOffice recomputes array formulas on opening (``without_lite``), so the words
are there before any edit; Excel without the add-in shows them at its first
recalculation. The xlwings.conf sheet, whose A:B the add-in reads from A1 down, has the
note beside its settings instead (``CONF_CELL``). The native edition has neither: it
computes everywhere.
"""

from __future__ import annotations

from openpyxl.worksheet.formula import ArrayFormula

from workbook import arrays
from workbook.expr import Cell, Expr, F, Text, words
from workbook.sheet import warn_red
from workbook.start import WITHOUT_LITE_CELL

#: What the top of each sheet says where napkin's functions do not compute.
ELSEWHERE = ("⚠ No xlwings Lite here: napkin's cells show #NAME? or old numbers. Open "
             "napkin-native.xlsx instead.")
#: The xlwings.conf sheet's note: beside its settings (the add-in reads A:B from A1 down).
CONF_CELL = "D5"
#: Start's cell that says whether napkin's functions compute (empty where they do).
FLAG = "'Start'!$" + WITHOUT_LITE_CELL[0] + "$" + WITHOUT_LITE_CELL[1:]


#: The longest string constant Excel takes in a formula.
MAX_LITERAL = 255
#: The cell of each sheet's note: its subtitle, under the title.
NOTE_CELL = "A2"


def quoted(text: str) -> Expr:
    """``text`` as a formula's string expression: literals of at most ``MAX_LITERAL``
    characters (Excel's limit for one), joined by &."""
    step = MAX_LITERAL - 5
    return words(*[text[i:i + step] for i in range(0, len(text), step)] or [""])


def note_formula(shown: str) -> Expr:
    """The formula of a sheet's note: ``shown`` (text) where Start's test cell is empty
    (napkin's functions compute), ``ELSEWHERE`` where it holds its sentence:
    IF(flag = "", shown, ELSEWHERE)."""
    return F.IF(Cell(FLAG).eq(Text("")), quoted(shown), quoted(ELSEWHERE))


def _put(ws, cell: str, expr: Expr) -> None:
    """``expr``'s formula in ``cell`` as a one-cell array formula (LibreOffice recomputes
    those on opening), or a plain one in the per-cell form (``workbook.arrays.PER_CELL``)."""
    c, formula = ws[cell], expr.formula()
    c.value = formula if arrays.PER_CELL.get() else ArrayFormula(cell, formula)
    warn_red(ws, cell)


def note_titles(worksheets) -> list[str]:
    """Turn the subtitle (``NOTE_CELL``) of each of ``worksheets`` into its note (the
    module's docstring), after the sheets' print set-up, which lays the subtitle out as
    the native edition's; returns the cells written, as ``Sheet!A2``."""
    written = []
    for ws in worksheets:
        subtitle = ws[NOTE_CELL].value
        if not isinstance(subtitle, str) or subtitle.startswith("="):
            raise ValueError(f"{ws.title}!{NOTE_CELL} is not a subtitle: {subtitle!r}")
        _put(ws, NOTE_CELL, note_formula(subtitle))
        written.append(f"{ws.title}!{NOTE_CELL}")
    return written


def note_conf(ws) -> str:
    """The xlwings.conf sheet's note in ``CONF_CELL``, beside its settings (before its
    print set-up, which takes the cell into its print area); returns the cell written."""
    ws[CONF_CELL].style = "napkin note"
    _put(ws, CONF_CELL, note_formula(""))
    return f"{ws.title}!{CONF_CELL}"


__all__ = ["ELSEWHERE", "CONF_CELL", "NOTE_CELL", "FLAG", "quoted", "note_formula",
           "note_titles", "note_conf"]
