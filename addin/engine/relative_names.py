"""Defined names that hold relative references, written into the formulas that use them.

A workbook stores a defined name's relative references (``Sheet1!$A1``, no ``$`` before
the row) as seen from cell A1; Excel reads them from the cell that uses the name, so
``=HOURS_PER_DAY`` in C5 reads ``Sheet1!$A5``, and a reference moved past the sheet's
edge wraps round to its other side. A name built on such a name (``=HOURS_PER_DAY*RATE``)
is relative too. The engine computes a defined name once, so each use of a relative
name is written into the using formula, its references moved to that formula's cell.
"""

from __future__ import annotations

import re

from addin.formula import formula_text as ft
from addin.ooxml import xlsx_values as xv
from addin.ooxml.a1 import MAX_COL, MAX_ROW

#: how deep a name may be built on other names before the expansion stops there
_DEPTH = 32


def has_relative_reference(text: str) -> bool:
    """Whether formula text holds a reference with a relative row or column."""
    for m in ft.LEX_RE.finditer(text):
        if m.lastgroup != "ref":
            continue
        if m.group("a1"):
            if not m.group("ca1") or not m.group("ra1"):
                return True
            if m.group("c2") and (not m.group("ca2") or not m.group("ra2")):
                return True
        elif m.group("col1"):
            if not m.group("col1").startswith("$") or not m.group("col2").startswith("$"):
                return True
        elif not m.group("row1").startswith("$") or not m.group("row2").startswith("$"):
            return True
    return False


def _words(text: str) -> list[re.Match]:
    """The names of formula text (not functions called, not inside strings)."""
    return [m for m in ft.LEX_RE.finditer(text) if m.lastgroup == "word"
            and not text[m.end():].lstrip().startswith("(")]


def find(texts: dict[str, str]) -> dict[str, str]:
    """The relative names of ``texts`` (name, upper case -> its text without ``=``), each
    with the names it is built on written into it, seen from A1."""
    relative = {k for k, t in texts.items() if has_relative_reference(t)}
    grew = True
    while grew:
        grew = False
        for k, t in texts.items():
            if k not in relative and any(w.group(0).upper() in relative for w in _words(t)):
                relative.add(k)
                grew = True
    return {k: _expand(texts[k], texts, relative, 0) for k in relative}


def _expand(text: str, texts: dict[str, str], relative: set, depth: int) -> str:
    if depth >= _DEPTH:
        return text
    out, pos = [], 0
    for w in _words(text):
        key = w.group(0).upper()
        if key in relative:
            out += (text[pos:w.start()], _wrap(_expand(texts[key], texts, relative,
                                                       depth + 1)))
            pos = w.end()
    out.append(text[pos:])
    return "".join(out)


def _wrap(body: str) -> str:
    """A name's text as an operand: a reference alone as it is (still a reference),
    anything else in parentheses."""
    m = ft.LEX_RE.match(body.strip())
    if m and m.lastgroup == "ref" and m.end() == len(body.strip()):
        return body.strip()
    return f"({body})"


def _col(dollar: str, col: str, dc: int) -> str:
    if dollar:
        return dollar + col
    return xv.num2col((xv.col2num(col) - 1 + dc) % MAX_COL + 1)


def _row(dollar: str, row: str, dr: int) -> str:
    if dollar:
        return dollar + row
    return str((int(row) - 1 + dr) % MAX_ROW + 1)


def moved(text: str, row: int, col: int) -> str:
    """Formula text written from A1 with its relative references moved to (row, col),
    wrapping round the sheet's edges as Excel does."""
    dr, dc = row - 1, col - 1
    if not dr and not dc:
        return text
    out, pos = [], 0
    for m in ft.LEX_RE.finditer(text):
        if m.lastgroup != "ref":
            continue
        sheet = m.group("sheet") or ""
        if m.group("a1"):
            ref = _col(m.group("ca1"), m.group("c1"), dc) + _row(m.group("ra1"), m.group("r1"), dr)
            if m.group("c2"):
                ref += ":" + _col(m.group("ca2"), m.group("c2"), dc) + _row(
                    m.group("ra2"), m.group("r2"), dr)
        elif m.group("col1"):
            a, b = m.group("col1"), m.group("col2")
            ref = (_col("$" if a[0] == "$" else "", a.lstrip("$"), dc) + ":"
                   + _col("$" if b[0] == "$" else "", b.lstrip("$"), dc))
        else:
            a, b = m.group("row1"), m.group("row2")
            ref = (_row("$" if a[0] == "$" else "", a.lstrip("$"), dr) + ":"
                   + _row("$" if b[0] == "$" else "", b.lstrip("$"), dr))
        out += (text[pos:m.start()], sheet + ref)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def written_in(text: str, names: dict[str, str], row: int, col: int) -> str:
    """Formula text (``=``...) at (row, col) with each use of a relative name of ``names``
    (``find``'s result for the formula's sheet) replaced by the name's text moved
    there."""
    out, pos = [], 0
    for w in _words(text):
        body = names.get(w.group(0).upper())
        if body is not None:
            out += (text[pos:w.start()], _wrap(moved(body, row, col)))
            pos = w.end()
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)
