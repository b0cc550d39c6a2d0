"""A1 references: column letters, cell and area references, and the sheet's limits.

Apart from ``addin.ooxml.xlsx_values`` (which reads and writes worksheet XML) so that what
only parses formulas (``addin.formula.formula_text``, ``napkin eval``) does not import the XML
layer.

References
----------
.. [1] Microsoft, "Excel specifications and limits" (1,048,576 rows by 16,384 columns).
"""

from __future__ import annotations

import re

MAX_ROW = 1048576
MAX_COL = 16384

#: an A1 reference as INDIRECT reads it: an optional sheet, then a cell, an area, whole
#: columns (``A:C``) or whole rows (``1:3``)
A1_AREA = re.compile(
    r"(?:(?P<sheet>'(?:[^']|'')+'|[^'!:\[\]]+)!)?"
    r"(?:\$?(?P<c1>[A-Za-z]{1,3})\$?(?P<r1>\d+)(?::\$?(?P<c2>[A-Za-z]{1,3})\$?(?P<r2>\d+))?"
    r"|\$?(?P<cc1>[A-Za-z]{1,3}):\$?(?P<cc2>[A-Za-z]{1,3})"
    r"|\$?(?P<rr1>\d+):\$?(?P<rr2>\d+))")


# --------------------------------------------------------------------------- references


def col2num(col: str) -> int:
    """The number of a column from its letters, in any case: ``"A"`` is 1, ``"AB"`` 28."""
    n = 0
    for ch in col.upper():
        n = n * 26 + (ord(ch) - 64)
    return n


_COL_CACHE: dict[int, str] = {}
_COLS: dict[str, int] = {}  # column letters -> number, for the first 702 columns (A..ZZ)


def num2col(n: int) -> str:
    """The letters of column ``n`` (1-based): 1 is ``"A"``, 28 ``"AB"``, 16384 ``"XFD"``."""
    s = _COL_CACHE.get(n)
    if s is None:
        m, s = n, ""
        while m:
            m, rem = divmod(m - 1, 26)
            s = chr(65 + rem) + s
        _COL_CACHE[n] = s
    return s


_COLS.update((num2col(n), n) for n in range(1, 703))


_CELL_REF_RE = re.compile(r"\$?([A-Za-z]{1,3})\$?(\d+)")


def parse_cell_ref(ref: str) -> tuple[int, int]:
    """'B12' -> (12, 2) (row, column), 1-based."""
    m = _CELL_REF_RE.fullmatch(ref.strip())
    if not m:
        raise ValueError(f"not a cell reference: {ref!r}")
    col, row = m.group(1, 2)
    return int(row), _COLS.get(col) or col2num(col)


def parse_area(ref: str) -> tuple[int, int, int, int]:
    """'B2:C10' -> (r1, c1, r2, c2); a single cell is a 1x1 area."""
    a, _, b = ref.strip().partition(":")
    r1, c1 = parse_cell_ref(a)
    r2, c2 = parse_cell_ref(b) if b else (r1, c1)
    return min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)
