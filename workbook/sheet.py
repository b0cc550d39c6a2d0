"""The drawing helpers every sheet module uses: named styles, number formats with units,
``Sheet`` (styled cells, sections, headers, validation, and ``Sheet.line``: one row
of label, formula, unit and note), and small formula builders shared by the sheets.
"""

from __future__ import annotations

import csv
import io
import re
from importlib import resources

from openpyxl import Workbook
from openpyxl.formatting.rule import CellIsRule, FormulaRule
from openpyxl.styles import Alignment, Border, Font, NamedStyle, PatternFill, Protection, Side
from openpyxl.utils import get_column_letter
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from workbook.expr import Cell, Expr, F, Name, Span, Text, words
from workbook.model.step import (  # noqa: F401  (the step's expressions, used from here)
    PCIE_TBPS,
    attention_dim,
    batch_read,
    decode_read,
    expert_parallel,
    has_link,
    kept_read_weights,
    kept_weights,
    link_kind,
    read_bytes,
    read_weights,
    sliding_share,
    state_bytes,
    step_floor,
    stored_weights,
    tp_comm,
)

#: The label of every price and cost: the scenario's currency input (a defined name).
CURRENCY = Name("CURRENCY")

#: The month the GPU and model tables were gathered (each row keeps its source).
DATA_DATE = "2026-11"

# ---------------------------------------------------------------------------- styles
INPUT_FILL = PatternFill("solid", fgColor="FFF2CC")
HEADER_FILL = PatternFill("solid", fgColor="D9E1F2")
EMPTY_FILL = PatternFill("solid", fgColor="E7E6E6")
RESULT_FILL = PatternFill("solid", fgColor="E2EFDA")
THIN = Side(style="thin", color="BFBFBF")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)


def styles() -> dict[str, NamedStyle]:
    """The named styles, defined once: input, formula, result, data, header, title..."""
    def style(name, font=None, fill=None, border=None, align=None, locked=True):
        s = NamedStyle(name=name)
        s.font = font or Font(name="Calibri", size=11)
        if fill is not None:
            s.fill = fill
        if border is not None:
            s.border = border
        if align is not None:
            s.alignment = align
        s.protection = Protection(locked=locked)
        return s

    return {
        "title": style("napkin title", Font(name="Calibri", size=16, bold=True,
                                             color="1F3864")),
        "subtitle": style("napkin subtitle", Font(name="Calibri", size=11, italic=True,
                                                   color="595959")),
        "section": style("napkin section", Font(name="Calibri", size=12, bold=True,
                                                 color="1F3864"),
                         border=Border(bottom=Side(style="medium", color="1F3864"))),
        "header": style("napkin header", Font(name="Calibri", size=11, bold=True),
                        HEADER_FILL, BOX, Alignment(wrap_text=True, vertical="center")),
        "label": style("napkin label"),
        "note": style("napkin note", Font(name="Calibri", size=10, color="595959")),
        "wrap": style("napkin wrap", Font(name="Calibri", size=10, color="595959"),
                      align=Alignment(wrap_text=True, vertical="top")),
        "input": style("napkin input", Font(name="Calibri", size=11, color="1F4E79",
                                             bold=True),
                       INPUT_FILL, BOX, Alignment(vertical="top"), locked=False),
        "formula": style("napkin formula", border=BOX),
        "result": style("napkin result", Font(name="Calibri", size=11, bold=True),
                        RESULT_FILL, BOX),
        "data": style("napkin data", border=BOX, align=Alignment(vertical="top")),
        "empty": style("napkin empty", fill=EMPTY_FILL, border=BOX,
                       align=Alignment(vertical="top")),
    }


# Number formats: every figure carries its unit
FMT = {
    "GB": '#,##0.00 "GB"', "GiB": '#,##0.00 "GiB"', "ms": '#,##0.00 "ms"',
    "ms_token": '#,##0.00 "ms/token"', "tps": '#,##0.0 "tokens/s"',
    "B": '#,##0.00 "B params"',
    "flop_byte": '#,##0.00 "FLOP/byte"', "tflops": '#,##0.0 "TFLOPS"',
    "tbps": '0.000 "TB/s"', "gpus": '#,##0 "GPU(s)"', "seq": '#,##0 "sequences"',
    "tokens": '#,##0 "tokens"', "tokens_day": '#,##0 "tokens/day"', "x": '0.00"×"',
    "pct": '0%', "money": '#,##0.00', "count": '#,##0', "bytes": '#,##0 "bytes"',
    "flop": '#,##0 "FLOP"', "bytes_moved": '#,##0 "bytes"', "us": '#,##0.00 "µs"',
    "hours": '#,##0.0 "h/month"', "ratio": '0.0"×"', "plain": "General", "row": '0',
    "frac": '0.00',
}


class Sheet:
    """A worksheet with the helpers every builder uses: styled cells and validation."""

    def __init__(self, wb: Workbook, title: str, widths: dict[str, float]):
        self.ws = wb.create_sheet(title)
        self.title = title
        for col, w in widths.items():
            self.ws.column_dimensions[col].width = w
        self._validations: dict[tuple, DataValidation] = {}

    def ref(self, cell: str, absolute: bool = True) -> str:
        """A reference to one of this sheet's cells from another sheet."""
        col, row = re.match(r"([A-Z]+)(\d+)", cell).groups()
        return f"'{self.title}'!${col}${row}" if absolute else f"'{self.title}'!{cell}"

    def put(self, cell: str, value, style: str = "label", fmt: str | None = None):
        """Write ``value`` (a constant, formula text, or an expression: its formula) into
        ``cell`` in the named ``style`` with the number format ``fmt``."""
        if isinstance(value, Expr):
            value = value.formula()
        c = self.ws[cell]
        c.value = value
        c.style = f"napkin {style}"
        if fmt:
            c.number_format = FMT.get(fmt, fmt)
        return c

    def title_rows(self, title: str, subtitle: str):
        self.put("A1", title, "title")
        self.put("A2", subtitle, "subtitle")
        self.ws.row_dimensions[1].height = 24

    def section(self, row: int, text: str, last_col: str = "C"):
        for col in range(1, col_index(last_col) + 1):
            self.ws.cell(row=row, column=col).style = "napkin section"
        self.ws.cell(row=row, column=1).value = text

    def header(self, row: int, names: list[str], first_col: int = 1, height: float = 30):
        for i, name in enumerate(names):
            self.put(f"{get_column_letter(first_col + i)}{row}", name, "header")
        self.ws.row_dimensions[row].height = height

    def validate(self, cells: str, kind: str, prompt: str, title: str = "Input",
                 lo=None, hi=None, formula1: str | None = None):
        """Data validation for input cells: numbers in a range, whole numbers, a list, or
        text of a length. Text in a number cell and values out of range are refused, and
        the input message says what is expected."""
        key = (kind, prompt, lo, hi, formula1)
        dv = self._validations.get(key)
        if dv is None:
            if kind == "list":
                dv = DataValidation(type="list", formula1=formula1, allow_blank=False)
                error = "Choose a value from the list."
            elif kind in ("decimal", "whole"):
                dv = DataValidation(type=kind, operator="between", formula1=str(lo),
                                    formula2=str(hi), allow_blank=True)
                what = "a whole number" if kind == "whole" else "a number"
                error = f"Expected {what} from {lo:g} to {hi:g}; text is not accepted."
            elif kind == "text":
                dv = DataValidation(type="textLength", operator="between", formula1=str(lo),
                                    formula2=str(hi), allow_blank=False)
                error = f"Expected text of {lo} to {hi} characters."
            else:  # pragma: no cover - a builder bug
                raise ValueError(kind)
            dv.error, dv.errorTitle, dv.errorStyle = error, "napkin: not accepted", "stop"
            dv.prompt, dv.promptTitle = prompt[:255], title[:32]
            dv.showErrorMessage = dv.showInputMessage = True
            self.ws.add_data_validation(dv)
            self._validations[key] = dv
        dv.add(cells)

    def line(self, cell: str, label, value, style: str = "formula", fmt: str | None = None,
             note=None, note_col: str | None = "C", right: bool = True):
        """One row of a table: ``label`` in column A, ``value`` (a formula or a constant)
        in ``cell`` with its number format (the unit), and ``note`` in ``note_col``
        (None: no note cell). ``right`` aligns the value right (text where numbers sit).
        Label, value and note sit at the top of the row (``top_aligned``), so that in a row
        made tall by a wrapped note they read on one line, not a row apart."""
        row = re.match(r"[A-Z]+(\d+)$", cell).group(1)
        self.put(f"A{row}", label)  # (label, value and note: text, formula text or Expr)
        self.put(cell, value, style, fmt)
        if right:
            self.ws[cell].alignment = Alignment(horizontal="right")
        cells = [f"A{row}", cell]
        if note_col:
            self.put(f"{note_col}{row}", note, "note")
            cells.append(f"{note_col}{row}")
        top_aligned(self.ws, cells)

    def protect(self):
        """Protect without a password: inputs stay editable, columns and rows resizable."""
        p = self.ws.protection
        p.sheet = True
        p.formatColumns = False
        p.formatRows = False
        p.formatCells = True


def top_aligned(ws, cells: list[str]) -> None:
    """Each of ``cells`` aligned to the top of its row, its other alignment kept (a row's
    label, value and note read on one line whatever the row's height)."""
    for ref in cells:
        a = ws[ref].alignment
        ws[ref].alignment = Alignment(horizontal=a.horizontal, vertical="top",
                                      wrap_text=a.wrap_text, text_rotation=a.text_rotation,
                                      indent=a.indent, shrink_to_fit=a.shrink_to_fit)


def top_align_tall_rows(ws) -> None:
    """Every cell of a row taller than one line (a wrapped note or label made it so) that
    has no vertical alignment of its own sits at the top of the row, as the wrapped text
    does: a label at the bottom and its note at the top read a row apart."""
    from openpyxl.utils.cell import range_boundaries
    from openpyxl.worksheet.formula import ArrayFormula

    tall = {r for r, d in ws.row_dimensions.items() if (d.height or 15) > 16}
    spans = [c.value.ref for c in ws._cells.values() if isinstance(c.value, ArrayFormula)]
    for ref in spans:  # an array formula's other cells: their values are computed later
        x0, y0, x1, y1 = range_boundaries(ref)
        for row in tall & set(range(y0, y1 + 1)):
            for col in range(x0, x1 + 1):
                c = ws.cell(row=row, column=col)
                if c.alignment.vertical is None:
                    top_aligned(ws, [c.coordinate])
    for (row, _), c in list(ws._cells.items()):
        if row in tall and c.value is not None and c.alignment.vertical is None:
            top_aligned(ws, [c.coordinate])


def fit_rows(s: Sheet, first: int, last: int, wrapped: dict[str, float]):
    """Row heights for wrapped notes (10 pt text: about 1.2 characters per width unit,
    1.1 counted for the room lost where a line breaks between words, 13.5 points per
    line), so that Excel and LibreOffice show every line."""
    for r in range(first, last + 1):
        lines = 1
        for col, width in wrapped.items():
            text = str(s.ws[f"{col}{r}"].value or "")
            lines = max(lines, -(-len(text) // int(width * 1.1)))
        s.ws.row_dimensions[r].height = 13.5 * lines + 2


def col_index(letter: str) -> int:
    """The column number of a column letter (A = 1)."""
    n = 0
    for ch in letter:
        n = n * 26 + ord(ch) - 64
    return n


def define_name(wb: Workbook, name: str, sheet: str, ref: str):
    """A workbook-level named range (``ref`` in A1 form on ``sheet``)."""
    wb.defined_names[name] = DefinedName(name, attr_text=f"'{sheet}'!{ref}")


def define_column(wb: Workbook, name: str, sheet: str, col: str, head: int, end: int):
    """A workbook-level name for a table's column (``table_column``)."""
    wb.defined_names[name] = DefinedName(name, attr_text=table_column(sheet, col, head, end))


def table_column(sheet: str, col: str, head: int, end: int) -> str:
    """A table's column as a defined name's text: the rows strictly between the header
    row ``head`` and the row ``end`` below the table (its note), so that a row inserted
    anywhere from the first row to just below the last one is inside it. A plain range
    of the rows would not grow with a row inserted at its first row (the range moves
    down) or below its last; the header and the row below stay put around the new row."""
    return table_span(sheet, col, head, end).render()


def table_span(sheet: str, col: str, head: int, end: int) -> Expr:
    """``table_column`` as an expression: INDEX(span,2):INDEX(span,ROWS(span)-1), span the
    rows from ``head`` to ``end`` (a range as written)."""
    span = Cell(f"'{sheet}'!${col}${head}:${col}${end}")
    return Span(F.INDEX(span, 2), F.INDEX(span, F.ROWS(span) - 1))


def num(text: str):
    """A CSV figure as a number; empty stays None (an empty figure stays empty)."""
    text = (text or "").strip()
    if text == "":
        return None
    f = float(text)
    return int(f) if f.is_integer() else f


def read_csv(package: str, name: str) -> list[dict]:
    """The rows of ``<package>/data/<name>`` as dicts."""
    text = (resources.files(package) / "data" / name).read_text("utf-8")
    return list(csv.DictReader(io.StringIO(text)))



def yes_no_colours(ws, cells: str):
    """Conditional formatting: "yes" green, "no" red (the FITS results)."""
    ws.conditional_formatting.add(cells, CellIsRule(
        operator="equal", formula=['"yes"'], fill=PatternFill("solid", fgColor="C6EFCE"),
        font=Font(color="006100", bold=True)))
    ws.conditional_formatting.add(cells, CellIsRule(
        operator="equal", formula=['"no"'], fill=PatternFill("solid", fgColor="FFC7CE"),
        font=Font(color="9C0006", bold=True)))


#: What a cell that needs a compute roof says where the GPUs table has no FLOPS figure.
NO_FLOPS = "no FLOPS figure"
#: What an energy cell says where the GPUs table has no TDP for the GPU.
NO_TDP = "no TDP figure"


def validate_stages(ws, cells: str, stages: str, gpus: str, prompt: str) -> None:
    """Data validation of pipeline-stage inputs ``cells`` (a range; ``stages`` and
    ``gpus`` its first row's cells, relative as Excel reads a custom rule): a whole number
    from 1 to 64 that divides the GPUs of the replica (any, where those are not a number:
    "smallest that fits")."""
    dv = DataValidation(type="custom", allow_blank=False, formula1=(
        f"AND(ISNUMBER({stages}),{stages}>=1,{stages}<=64,INT({stages})={stages},"
        f"OR(NOT(ISNUMBER({gpus})),MOD({gpus},{stages})=0))"))
    dv.error = "Expected a whole number from 1 to 64 that divides the GPUs per replica."
    dv.errorTitle, dv.errorStyle = "napkin: not accepted", "stop"
    dv.prompt, dv.promptTitle = prompt[:255], "Pipeline stages"
    dv.showErrorMessage = dv.showInputMessage = True
    ws.add_data_validation(dv)
    dv.add(cells)


def room_note(names: str, slots: int, what: str, elsewhere: str, text: str) -> Expr:
    """The note below a table: ``text``, or a warning once the table (named range
    ``names``, grown by rows a user inserted) holds more entries than the ``slots`` places
    that ``elsewhere`` (the sheets listing every row) have for it."""
    n = F.COUNTA(Name(names))
    return F.IF(n.gt(slots), words(
        "⚠ ", n, f" {what} in the table, but {elsewhere} have {slots} places: the rows "
        f"after the {slots}th are left out there (Sizing, Finance and Plan take any row). "
        "Delete the rows you do not need."), Text(text))


def warn_red(ws, cell: str) -> None:
    """Conditional formatting: a note that starts with ⚠ in bold dark red."""
    ws.conditional_formatting.add(cell, FormulaRule(
        formula=[f'LEFT({cell},1)="⚠"'], font=Font(color="9C0006", bold=True)))

