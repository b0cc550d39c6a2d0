"""``napkin native``, the helper cells: long subexpressions of the translated formulas,
each written once in a cell of a hidden sheet (``napkin_helpers``) and referred to.

A napkin call nested in another formula, or an argument that is itself a long expression,
would otherwise be written out in full wherever the translated formula uses it (an
argument is read by its checks and by the formula, often several times), and formulas
grow to thousands of characters. ``Helpers.ref`` gives the text a cell of its own (one
per distinct text in the workbook: the same precision look-up in a thousand cells is one
helper) and returns the absolute reference to it, which stands for the text exactly: a
cell holding an expression has the expression's value, an error included. Every helper
is an Excel 2010 formula like the others (no LET, no LAMBDA); its references are written
with the sheet they came from, so that they mean the same cells on the hidden sheet.

The helper cells get their cached values from napkin's engine (``compute_values``), over
a copy of the workbook where every other cell holds its computed value, so that the
workbook shows the right numbers in any program that does not recalculate on open.
"""

from __future__ import annotations

import re

from openpyxl.formula.tokenizer import Token

from addin.ooxml import xlsx_values as xv
from addin.transform.native.book import cell_xml
from addin.transform.native.formula import Group, parse, render

HELPER_SHEET = "napkin_helpers"
#: A subexpression longer than this many characters is written in a helper cell (the
#: reference to it, ``napkin_helpers!$A$123``, is about 20).
HOIST_MIN = 60
#: The same for an argument of a call that is an expression: its checks and the formula
#: read it several times each.
HOIST_ARGUMENT = 20

_CELLS = re.compile(r"\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?"
                    r"|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?\d+:\$?\d+")


def quote(sheet: str) -> str:
    """A sheet name as a formula writes it before ``!``."""
    return sheet if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", sheet) else \
        "'" + sheet.replace("'", "''") + "'"


class Helpers:
    """The helper cells of one workbook: column A of the hidden sheet, one row each."""

    def __init__(self, sheet: str, local_names):
        self.sheet = sheet
        self.texts: dict[str, int] = {}  # formula text -> row
        self.values: dict[int, object] = {}  # row -> cached value
        self._local = local_names  # (sheet index) -> upper-case names local to it
        self._seen: dict[tuple, str] = {}  # (text, sheet name, index) -> qualified text

    def ref(self, text: str, sheet_name: str, sheet_idx: int) -> str:
        """The absolute reference to the helper cell holding ``text`` (a subexpression of
        a formula of sheet ``sheet_name``), added if it is new."""
        key = (text, sheet_name, sheet_idx)
        text = self._seen.get(key)
        if text is None:  # the same subexpression recurs across a sheet's cells
            text = self._seen[key] = self._qualified(*key)
        row = self.texts.setdefault(text, len(self.texts) + 1)
        return f"{quote(self.sheet)}!$A${row}"

    def _qualified(self, text: str, sheet_name: str, sheet_idx: int) -> str:
        """``text`` with each reference to its own sheet written with the sheet's name
        (cells, areas, and the defined names local to that sheet), and each reference to
        another helper cell without it (the helper sheet's own cells)."""
        local = self._local(sheet_idx)
        prefix, own = quote(sheet_name) + "!", quote(self.sheet) + "!"

        def walk(items):
            for x in items:
                if isinstance(x, Group):
                    walk(x.children)
                elif x.type != Token.OPERAND or x.subtype != Token.RANGE \
                        or "\x00" in x.value:
                    continue
                elif x.value.startswith(own):
                    x.value = x.value[len(own):]
                elif "!" not in x.value and (_CELLS.fullmatch(x.value)
                                             or x.value.upper() in local):
                    x.value = prefix + x.value

        items = parse(text)
        walk(items)
        return render(items)

    def sheet_xml(self, fill) -> str:
        """The hidden sheet: each helper's formula (``fill`` puts the tables' ranges in)
        and its cached value."""
        rows = [f'<row r="{r}">{cell_xml(f"A{r}", self.values.get(r), fill(text))}</row>'
                for text, r in self.texts.items()]
        return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                f'<worksheet xmlns="{xv.MAIN_NS}"><sheetData>{"".join(rows)}'
                "</sheetData></worksheet>")
