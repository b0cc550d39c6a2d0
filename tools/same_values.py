"""Whether two computed workbooks show the same values: ``python -m tools.same_values
BEFORE AFTER``.

Every cell that holds a value in either workbook (sheet, address) must hold an equal
value in the other: numbers within a relative 1e-12 (``math.isclose``), anything else
(text, booleans, error codes) equal. Prints each difference and how many cells were
compared; the exit status is 1 when any differ. A refactor of the template's formulas
(``workbook.arrays``: one array formula per block) is checked with it on the template
computed before and after (``napkin calc workbook/napkin.xlsx -o BEFORE``).
"""

from __future__ import annotations

import math
import sys

from openpyxl import load_workbook


def values(path) -> dict[tuple[str, str], object]:
    """{(sheet, address): cached value} of every cell with one, read only (openpyxl's
    read-only mode: nothing is saved)."""
    wb = load_workbook(path, data_only=True, read_only=True)
    out = {}
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.value is not None and c.value != "":
                    out[(ws.title, c.coordinate)] = c.value
    wb.close()
    return out


def same(a, b, rel: float = 1e-12) -> bool:
    """Numbers within ``rel`` of each other, other values equal."""
    num = (int, float)
    if isinstance(a, num) and isinstance(b, num) and not isinstance(a, bool) \
            and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=rel, abs_tol=0.0) or a == b
    return a == b


#: The hidden sheet of ``napkin native``'s helper cells: one row per distinct subexpression,
#: numbered in the order the translation first meets them, so a change of a formula's text
#: (a parenthesis) renumbers them. What they compute reaches the user through the visible
#: cells that read them, which are compared; the helper rows are not.
HELPER_SHEET = "napkin_helpers"


def differences(before, after) -> list[tuple[str, str, object, object]]:
    """[(sheet, address, value before, value after)] of every cell that differs (but the
    native edition's helper rows, ``HELPER_SHEET``)."""
    va, vb = (({k: v for k, v in values(p).items() if k[0] != HELPER_SHEET})
              for p in (before, after))
    return [(sheet, addr, va.get((sheet, addr)), vb.get((sheet, addr)))
            for sheet, addr in sorted(va.keys() | vb.keys())
            if not same(va.get((sheet, addr)), vb.get((sheet, addr)))]


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    diff = differences(*args)
    for sheet, addr, a, b in diff:
        print(f"{sheet}!{addr}: {a!r} -> {b!r}")
    n = len({k for p in args for k in values(p) if k[0] != HELPER_SHEET})
    print(f"{n} cells compared, {len(diff)} differ (the helper rows of {HELPER_SHEET} left "
          "out: their numbering follows the formulas' text)")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
