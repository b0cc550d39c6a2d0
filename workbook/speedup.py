"""The Speedup sheet: the reference examples and an Amdahl grid."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.formatting.rule import ColorScaleRule
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter

from workbook.arrays import fill
from workbook.expr import Cell, Expr, F
from workbook.sheet import Sheet

AMDAHL_P = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99]
AMDAHL_S = [1.5, 2, 3, 4, 10, 100]
SPEEDUP_TOP = 4
GRID_HEAD = 14


def speedup(r: int) -> Expr:
    """Row ``r``'s speedup of a time ``B`` before to ``C`` after: SPEEDUP(B, C) = B ÷ C."""
    return F.SPEEDUP(Cell(f"B{r}"), Cell(f"C{r}"))


def amdahl(r: int) -> Expr:
    """Row ``r``'s overall speedup when a share ``B`` of the time gets ``C`` times faster:
    AMDAHL(p, s) = 1 ÷ ((1 − p) + p ÷ s)."""
    return F.AMDAHL(Cell(f"B{r}"), Cell(f"C{r}"))


def ceiling(r: int) -> Expr:
    """Row ``r``'s speedup when a share ``B`` gets infinitely faster: AMDAHL(p) =
    1 ÷ (1 − p)."""
    return F.AMDAHL(Cell(f"B{r}"))


def grid_cell(r: int, col: str | None) -> Expr:
    """The Amdahl grid at row ``r`` and column ``col``: AMDAHL(p, s), the share p in
    column A of the row, the factor s in the header row (``GRID_HEAD``) of the column;
    ``col`` None: the ceiling AMDAHL(p)."""
    p = Cell(f"$A{r}")
    return F.AMDAHL(p) if col is None else F.AMDAHL(p, Cell(f"{col}${GRID_HEAD}"))


def sheet_speedup(wb: Workbook) -> Sheet:
    """Speedup: the reference examples, then an Amdahl grid.

    Rows 5..9   examples: before/after or p/s INPUTS in B and C, the speedup in D
                (SPEEDUP or AMDAHL): 20 → 15 ms 1.33×, "25 % faster" 1.25×, "25 % less time"
                1.33×, 30 % made 3× faster 1.25×, made infinitely faster 1.43×
    Row 14..    Amdahl grid: share p down column A (INPUTS), factor s across row 14
                (INPUTS), AMDAHL(p, s) in the body and AMDAHL(p) in the last column (∞)
    """
    s = Sheet(wb, "Speedup", {"A": 40, "B": 12, "C": 12, "D": 12, "E": 12, "F": 12,
                              "G": 12, "H": 12, "I": 54})
    s.title_rows("Speedup: time before ÷ time after, and Amdahl's law",
                 "Speedups combine by adding times, not percentages. Before judging an "
                 "optimisation, ask what share of the time it touches.")
    _examples(s)
    _amdahl_grid(s)
    return s


def _examples(s: Sheet) -> None:
    """Rows 5..9: the reference examples."""
    s.section(SPEEDUP_TOP, "Reference examples", "I")
    s.header(SPEEDUP_TOP + 1, ["Case", "Before / share p", "After / factor s", "Speedup"])
    s.put(f"I{SPEEDUP_TOP + 1}", "Formula", "header")
    examples = [
        ("20 ms → 15 ms", 20, 15, speedup, "SPEEDUP(before, after)",
         ("ms", "ms")),
        ('"25 % faster": 1.25 × the rate', 1, 0.8, speedup,
         "usually 1.25×: the time becomes 1 ÷ 1.25 = 0.8", ("ms", "ms")),
        ('"25 % less time"', 1, 0.75, speedup,
         "the time becomes 0.75: 1.33×", ("ms", "ms")),
        ("30 % of the time made 3× faster", 0.3, 3, amdahl,
         "AMDAHL(p, s) = 1 ÷ ((1 − p) + p ÷ s)", ("p", "s")),
        ("same part made infinitely faster", 0.3, None, ceiling,
         "AMDAHL(p) = 1 ÷ (1 − p): the ceiling", ("p", None)),
    ]
    for i, (label, before, after, formula, why, kinds) in enumerate(examples):
        r = SPEEDUP_TOP + 2 + i
        s.put(f"A{r}", label)
        for col, value, kind in (("B", before, kinds[0]), ("C", after, kinds[1])):
            if kind is None:
                s.put(f"{col}{r}", "∞", "note")
                continue
            fmt = {"ms": '#,##0.00 "ms"', "p": "0%", "s": '0.0"×"'}[kind]
            s.put(f"{col}{r}", value, "input", fmt)
            if kind == "ms":
                s.validate(f"{col}{r}", "decimal", "A time in ms: a number above 0.",
                           "Time", 0.000001, 1e12)
            elif kind == "p":
                s.validate(f"{col}{r}", "decimal", "Share of the time that gets faster: "
                           "a fraction from 0 to 1 (30 % = 0.3).", "Share p", 0, 1)
            else:
                s.validate(f"{col}{r}", "decimal", "How many times faster that part gets: "
                           "a number above 0.", "Factor s", 0.000001, 1e12)
        s.put(f"D{r}", formula(r), "result", "x")
        s.put(f"I{r}", why, "note")


def _amdahl_grid(s: Sheet) -> None:
    """Row 14 on: the Amdahl grid, share p down, factor s across."""
    s.section(GRID_HEAD - 2, "Amdahl grid: overall speedup when a share p of the time "
                             "gets s times faster", "I")
    s.put(f"A{GRID_HEAD}", "share p  \\  factor s", "header")
    for j, factor in enumerate(AMDAHL_S):
        col = get_column_letter(2 + j)
        s.put(f"{col}{GRID_HEAD}", factor, "input", '0.0"×"')
    inf_col = get_column_letter(2 + len(AMDAHL_S))
    s.put(f"{inf_col}{GRID_HEAD}", "∞", "header")
    s.ws[f"{inf_col}{GRID_HEAD}"].alignment = Alignment(horizontal="right")
    s.validate(f"B{GRID_HEAD}:{get_column_letter(1 + len(AMDAHL_S))}{GRID_HEAD}", "decimal",
               "How many times faster the part gets: a number above 0.", "Factor s",
               0.000001, 1e12)
    for i, share in enumerate(AMDAHL_P):
        r = GRID_HEAD + 1 + i
        s.put(f"A{r}", share, "input", "0%")
        for j in range(len(AMDAHL_S)):
            col = get_column_letter(2 + j)
            s.put(f"{col}{r}", grid_cell(r, col), "formula", "0.00\"×\"")
        s.put(f"{inf_col}{r}", grid_cell(r, None), "formula", "0.00\"×\"")
    last = GRID_HEAD + len(AMDAHL_P)
    first, end = GRID_HEAD + 1, get_column_letter(1 + len(AMDAHL_S))
    fill(s.ws, f"B{first}:{end}{last}", grid_cell(first, "B"), keep=True)
    fill(s.ws, f"{inf_col}{first}:{inf_col}{last}", grid_cell(first, None), keep=True)
    s.validate(f"A{GRID_HEAD + 1}:A{last}", "decimal", "Share of the time that gets faster: "
               "a fraction from 0 to 0.999 (30 % = 0.3).", "Share p", 0, 0.999)
    s.ws.conditional_formatting.add(f"B{GRID_HEAD + 1}:{inf_col}{last}", ColorScaleRule(
        start_type="num", start_value=1, start_color="FFFFFF", mid_type="num", mid_value=2,
        mid_color="C6EFCE", end_type="num", end_value=10, end_color="63BE7B"))
    s.put(f"A{last + 2}", "Read across a row: past a point, a faster part buys almost nothing "
                          "more. The ∞ column is the ceiling 1 ÷ (1 − p).", "note")

