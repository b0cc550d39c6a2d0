"""Excel tables (ListObjects) and their structured references.

A workbook's tables are read from its package (``xl/tables/tableN.xml``, linked from
each worksheet's relationships): name, area, header and totals rows, column names.
``rewrite`` turns each structured reference of a formula into the plain reference
it stands for, before the formula is parsed: ``Table1[Amount]`` is the data rows of
the column (``Sheet1!$C$2:$C$9``), ``Table1[[#This Row],[Amount]]`` the column's cell
in the formula's row (``Sheet1!$C5``), ``[Amount]`` in a table's own cells that
table's column; ``#All``, ``#Data``, ``#Headers``, ``#Totals``, column ranges
``[[A]:[C]]`` and the escape ``'`` (``[Column']]`` is the column ``Column]``) as Excel
writes them. A table's name alone is its data rows.

References
----------
Microsoft Support, "Using structured references with Excel tables".
ECMA-376 Part 1, 18.5 (Tables) and 18.17.6 (structured reference syntax).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from zipfile import ZipFile

from defusedxml import ElementTree as ET

from addin.formula import formula_text as ft
from addin.ooxml import xlsx_values as xv

#: a name as Excel allows one: a letter of any script (a table named 表1 or أمريكية, as
#: Excel saved them in the business corpus's sixteenth part), an underscore or a backslash,
#: then letters, digits, periods, underscores and backslashes
_NAME = re.compile(r"(?:[^\W\d]|\\)[\w.\\]*")
_SPECIALS = {"#ALL", "#DATA", "#HEADERS", "#TOTALS", "#THIS ROW"}


@dataclass
class Table:
    name: str  # the name formulas use (displayName)
    sheet: int  # index of its worksheet
    sheet_name: str
    r1: int
    c1: int
    r2: int
    c2: int
    header: int  # header rows (0 or 1)
    totals: int  # totals rows (0 or 1)
    columns: list[str]
    filtered: bool  # a filter of the table hides rows

    @property
    def data(self) -> tuple[int, int]:
        return self.r1 + self.header, self.r2 - self.totals


def read_tables(zf: ZipFile, book: xv.Book) -> list[Table]:
    """The tables of every worksheet of a package."""
    out = []
    for part in book.sheets:
        for typ, target in xv.read_rels(zf, part.path).values():
            if not typ.endswith("/table") or target not in zf.NameToInfo:
                continue
            root = ET.fromstring(zf.read(target), forbid_dtd=True)
            ns = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
            try:
                r1, c1, r2, c2 = xv.parse_area(root.get("ref", ""))
            except ValueError:
                continue
            cols = [xv.decode_xstring(tc.get("name", ""))
                    for tc in root.iter(f"{ns}tableColumn")]
            out.append(Table(
                root.get("displayName") or root.get("name", ""), part.index, part.name,
                r1, c1, r2, c2, int(root.get("headerRowCount", "1") or 1),
                int(root.get("totalsRowCount", "0") or 0), cols,
                any(True for _ in root.iter(f"{ns}filterColumn"))))
    return out


class Unresolved(ValueError):
    """A structured reference napkin cannot place (the formula is then refused)."""


def rewrite(text: str, tables: dict[str, Table], sheet: int | None, row: int = 0,
            col: int = 0) -> str:
    """Formula text (as stored, ``=`` or not) with its structured references written
    as plain references, for a formula at (``sheet``, ``row``, ``col``) (``sheet``
    None: a defined name). ``tables``: NAME.upper() -> table. Unresolved if a
    reference names no table or column."""
    out, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            j = ft.end_of_quoted(text, i) or len(text)
            out.append(text[i:j])
            i = j
            continue
        prev = text[i - 1] if i else " "
        if ch == "[" and not (prev.isalnum() or prev in "_.\\]"):
            j, items = _bracket(text, i)
            if _external(text, i, j):
                out.append(text[i:j])
                i = j
                continue
            table = _home(tables, sheet, row, col)
            if table is None:
                raise Unresolved("a column name outside a table")
            out.append(_resolve(table, items, sheet, row))
            i = j
            continue
        m = _NAME.match(text, i) if not (prev.isalnum() or prev in "_.\\$") else None
        if m:
            name, j = m.group(0), m.end()
            nxt = text[j] if j < n else ""
            table = tables.get(name.upper())
            if nxt == "[" and table is not None:
                j, items = _bracket(text, j)
                out.append(_resolve(table, items, sheet, row))
            elif table is not None and nxt not in "(!" and not _is_cell(name):
                out.append(_resolve(table, [], sheet, row))  # the data rows
            else:
                out.append(name)
            i = j
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _is_cell(name: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z]{1,3}\d+", name))


def _external(text: str, i: int, j: int) -> bool:
    """``[1]Sheet1!A1``: a link to another workbook, not a structured reference."""
    return bool(re.fullmatch(r"\[\d+\]", text[i:j])) and bool(
        re.match(r"[^\s,()\[\]]*!", text[j:]))


def _plain(text: str, i: int) -> tuple[str, int]:
    """Text of a bracket item from ``i`` to its unescaped ``]`` (exclusive)."""
    buf, n = [], len(text)
    while i < n:
        ch = text[i]
        if ch == "'" and i + 1 < n:
            buf.append(text[i + 1])
            i += 2
            continue
        if ch == "]":
            return "".join(buf), i
        buf.append(ch)
        i += 1
    raise Unresolved("a structured reference without its closing bracket")


def _bracket(text: str, i: int):
    """Parse the structured reference part starting at ``text[i] == '['``; returns
    (end index, items): each item ``("#SPECIAL",)`` or ``(first column, last column)``."""
    n, items = len(text), []
    j = i + 1
    if j < n and text[j] == "@":  # [@Col], [@[Col]], [@]
        items.append(("#THIS ROW",))
        j += 1
        if j < n and text[j] == "[":
            j, more = _bracket(text, j)
            items += more
            if j >= n or text[j] != "]":
                raise Unresolved("a structured reference not closed")
            return j + 1, items
        name, j = _plain(text, j)
        if name.strip():
            items.append((name, name))
        return j + 1, items
    if j < n and text[j] == "[":
        while True:
            while j < n and text[j] == " ":
                j += 1
            if j >= n or text[j] != "[":
                raise Unresolved("an unexpected character in a structured reference")
            name, j = _plain(text, j + 1)
            j += 1
            if name.upper() in _SPECIALS:
                items.append((name.upper(),))
            elif j < n and text[j] == ":" and j + 1 < n and text[j + 1] == "[":
                last, j = _plain(text, j + 2)
                j += 1
                items.append((name, last))
            else:
                items.append((name, name))
            while j < n and text[j] == " ":
                j += 1
            if j < n and text[j] == ",":
                j += 1
                continue
            if j < n and text[j] == "]":
                return j + 1, items
            raise Unresolved("a structured reference not closed")
    name, j = _plain(text, j)
    if name.upper() in _SPECIALS:
        items.append((name.upper(),))
    elif name:
        items.append((name, name))
    return j + 1, items


def _home(tables: dict[str, Table], sheet, row, col) -> Table | None:
    if sheet is None:
        return None
    for t in tables.values():
        if t.sheet == sheet and t.r1 <= row <= t.r2 and t.c1 <= col <= t.c2:
            return t
    return None


def _resolve(t: Table, items, sheet, row) -> str:
    specials = {it[0] for it in items if len(it) == 1}
    cols = [it for it in items if len(it) == 2]
    lower = [c.lower() for c in t.columns]
    c1, c2 = t.c1, t.c2
    if cols:
        idx = []
        for a, b in cols:
            for name in (a, b):
                if name.lower() not in lower:
                    raise Unresolved(f"no column {name!r} in the table {t.name}")
                idx.append(t.c1 + lower.index(name.lower()))
        c1, c2 = min(idx), max(idx)
    d1, d2 = t.data
    if "#THIS ROW" in specials:
        if specials != {"#THIS ROW"}:
            raise Unresolved("#This Row with another item")
        if not d1 <= row <= d2:
            return "#VALUE!"  # Excel: the formula's row is not one of the table's
        # (on another sheet too: the formula's row number, as implicit intersection
        # reads a range of another sheet; Excel saved tbl_AR[[#This Row],[Invoice_No]]
        # so, read from another sheet, in part heldout7's AR and Journal Entry1.xlsx)
        return _area(t, row, c1, row, c2, row_relative=True)
    if not specials or specials == {"#DATA"}:
        r1, r2 = d1, d2
    elif "#ALL" in specials:
        r1, r2 = t.r1, t.r2
    elif specials == {"#HEADERS"}:
        if not t.header:
            return "#REF!"
        r1 = r2 = t.r1
    elif specials == {"#TOTALS"}:
        if not t.totals:
            return "#REF!"
        r1 = r2 = t.r2
    elif specials == {"#HEADERS", "#DATA"}:
        r1, r2 = t.r1, d2
    elif specials == {"#DATA", "#TOTALS"}:
        r1, r2 = d1, t.r2
    else:
        raise Unresolved("a combination of table parts Excel does not allow")
    if r1 > r2:
        return "#REF!"  # no data rows
    return _area(t, r1, c1, r2, c2)


def _area(t: Table, r1, c1, r2, c2, row_relative: bool = False) -> str:
    name = t.sheet_name
    sheet = name if re.fullmatch(r"[A-Za-z_][\w.]*", name) and not _is_cell(name) \
        else ft.quote_sheet(name)
    rr = "" if row_relative else "$"
    a = f"${xv.num2col(c1)}{rr}{r1}"
    b = f"${xv.num2col(c2)}{rr}{r2}"
    return f"{sheet}!{a}" if (r1, c1) == (r2, c2) else f"{sheet}!{a}:{b}"
