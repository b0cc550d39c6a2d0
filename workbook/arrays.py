"""One formula over a block of cells: a legacy array formula (one call of each napkin
function for the whole block), or the same formula filled into every cell.

A block (a grid, a table column, a sweep) is written once, as the formula of its top-left
cell, with references relative where they move from cell to cell (``$A90``, ``C$89``) and
absolute where they do not (``$B$12``), as a formula is filled down and right in Excel.
``fill`` then writes either

* the array form (the template): one ``{=...}`` array formula over the block, each
  relative reference widened to the rows and columns of the block (``$A90`` becomes
  ``$A90:$A126``, ``C$89`` becomes ``C$89:AL$89``), so that Excel, LibreOffice and
  ``napkin calc`` compute the formula element by element and each napkin function is
  called once with whole ranges (``udfs.machinery.broadcast``); or
* the per-cell form (the native edition, ``per_cell``): the top-left formula translated
  to every cell of the block, as Excel's fill gives it, for ``napkin native`` to translate
  cell by cell.

In the array form, only some functions compute element by element: operators, napkin's
functions and ``addin.formula.walk.ELEMENTWISE`` (the formula layer's one table, which
``napkin native`` reads too). Any other (AND, OR, MAX, MIN, SUM, INDEX...) reads an array
whole: a block's formula says "any of" with ``+`` and "all of" with ``*`` of comparisons,
and ``fill`` refuses a moving reference inside such a function.
"""

from __future__ import annotations

import contextlib
import re
from contextvars import ContextVar

from openpyxl.formula.translate import Translator
from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import column_index_from_string, range_boundaries
from openpyxl.worksheet.formula import ArrayFormula

from addin.formula.walk import is_reference, parse, read_whole, tokens

#: Whether the template (not its native edition) writes its blocks of napkin calls as
#: array formulas (a full recalculation: CALLS_TARGET napkin calls at most, where one call
#: per cell would be thousands; tests/test_call_count.py). The tables a user inserts rows
#: into, Models and Calibration, stay per cell (LibreOffice refuses to insert a row inside
#: an array formula's range, as Excel's rules for array formulas do): their columns are
#: Excel's arithmetic where napkin's function is not the point. Excel shows
#: an array formula's cached values on opening, as it does a cell's; LibreOffice recomputes
#: array formulas on opening (a one-cell formula keeps its cached value), so without the
#: add-in it shows #NAME? in the template's grids and table columns at once, where it showed
#: napkin's numbers until an input changed (the Start sheet says so).
TEMPLATE_ARRAYS = True

#: True while the per-cell form is built (the native edition, ``per_cell``).
PER_CELL: ContextVar[bool] = ContextVar("napkin_per_cell", default=False)

_CELL = re.compile(r"^(?P<sheet>(?:'[^']+'|[A-Za-z0-9_.]+)!)?(?P<cabs>\$?)(?P<col>[A-Z]{1,3})"
                   r"(?P<rabs>\$?)(?P<row>\d+)$")


@contextlib.contextmanager
def per_cell(on: bool = True):
    """Within this block, ``fill`` writes the per-cell form (``on``) or the array form."""
    token = PER_CELL.set(on)
    try:
        yield
    finally:
        PER_CELL.reset(token)


def widen(formula: str, block: str) -> str:
    """The array form of ``formula`` (the formula of the top-left cell of ``block``, an A1
    range): each single-cell reference widened along the directions it is relative in, to
    the rows and columns of ``block``. Raises ValueError for a moving reference inside a
    function that reads an array whole (``addin.formula.walk.read_whole``) or a relative
    range reference (ambiguous)."""
    c1, r1, c2, r2 = range_boundaries(block)
    out = []
    for tok, around in tokens(parse(formula.removeprefix("="))):
        text = tok.value
        if is_reference(tok):
            text = _widen_ref(text, c1, r1, c2, r2)
            whole = read_whole(around) if text != tok.value else None
            if whole:
                raise ValueError(f"{tok.value} moves through {block} inside {whole[-1]}, "
                                 "which reads an array whole, not element by element")
        out.append(text)
    return "=" + "".join(out)


def _widen_ref(text: str, c1: int, r1: int, c2: int, r2: int) -> str:
    m = _CELL.match(text)
    if m is None:
        if ":" in text and _has_relative(text):
            raise ValueError(f"{text}: a relative range in a block is ambiguous")
        return text
    sheet, col, row = m["sheet"] or "", m["col"], int(m["row"])
    wide_col = not m["cabs"] and c2 > c1
    wide_row = not m["rabs"] and r2 > r1
    if not (wide_col or wide_row):
        return text
    last_col = get_column_letter(column_index_from_string(col) + c2 - c1) if wide_col else col
    last_row = row + r2 - r1 if wide_row else row
    return f"{sheet}{m['cabs']}{col}{m['rabs']}{row}:{m['cabs']}{last_col}{m['rabs']}{last_row}"


def _has_relative(text: str) -> bool:
    """Whether a range reference (``A1:B2``) has a relative column or row."""
    refs = text.split("!")[-1].split(":")
    return any(re.match(r"^\$?[A-Z]{1,3}\$?\d+$", r) and not re.match(
        r"^\$[A-Z]{1,3}\$\d+$", r) for r in refs)


def fill(ws, block: str, formula: str, keep: bool = False) -> None:
    """Write ``formula`` (the top-left cell's, references relative where they move) over
    ``block`` of ``ws``: one array formula (``widen``), or in the per-cell form
    (``PER_CELL``) the formula translated to each cell; with ``keep``, the per-cell form is
    what the caller wrote in the block's cells (left as it is). Styles are the caller's."""
    if not isinstance(formula, str):  # an expression (workbook.expr): its formula
        formula = formula.formula()
    c1, r1, c2, r2 = range_boundaries(block)
    origin = f"{get_column_letter(c1)}{r1}"
    if PER_CELL.get():
        if keep:
            return
        for r in range(r1, r2 + 1):
            for c in range(c1, c2 + 1):
                dest = f"{get_column_letter(c)}{r}"
                ws[dest] = formula if dest == origin else \
                    Translator(formula, origin=origin).translate_formula(dest)
        return
    if (c1, r1) == (c2, r2):
        ws[origin] = formula
        return
    text = widen(formula, block)
    for r in range(r1, r2 + 1):  # the array formula holds the block's every value
        for c in range(c1, c2 + 1):
            ws.cell(row=r, column=c).value = None
    ws[origin] = ArrayFormula(block, text)


def fixed(cell: str) -> str:
    """``cell`` (``B19``, ``'Sizing'!B19``) made absolute (``$B$19``): a reference that
    stays put when a block's formula moves from cell to cell."""
    m = _CELL.match(cell)
    if m is None:
        raise ValueError(f"{cell}: not a cell reference")
    return f"{m['sheet'] or ''}${m['col']}${m['row']}"
