"""The xlwings.conf sheet: the xlwings add-in's settings for this workbook."""

from __future__ import annotations

from openpyxl import Workbook

from workbook.sheet import Sheet

#: The module Excel's xlwings add-in imports the functions from (addin/xlwings_udfs.py).
UDF_MODULE = "addin.xlwings_udfs"


def xlwings_conf_rows() -> list[tuple[str, str]]:
    """Rows (key, value) of the ``xlwings.conf`` sheet, from A1 down, no header.

    Only what holds on every machine: the interpreter is the user's own and lives in the
    user config (an empty value on the sheet would override it with nothing).
    """
    return [
        ("UDF Modules", UDF_MODULE),
        ("Use UDF Server", "False"),
        ("Show Console", "False"),
    ]


def sheet_xlwings_conf(wb: Workbook) -> Sheet:
    """xlwings.conf: the add-in's settings for this workbook, read from A1 down (A: key,
    B: value, no header; ``xlwings_conf_rows``). Column C stays empty so that the note
    in D is not part of the settings range."""
    s = Sheet(wb, "xlwings.conf", {"A": 18, "B": 26, "C": 3, "D": 100})
    rows = xlwings_conf_rows()
    for i, (key, value) in enumerate(rows):
        s.put(f"A{i + 1}", key, "data")
        s.put(f"B{i + 1}", value, "data")
    notes = [
        "Read by the xlwings add-in (desktop Excel): the key-value pairs from A1 down set "
        "where napkin's functions come from (UDF Modules) for this workbook.",
        "Keep this sheet's name and keep A:B free of anything else; the Python interpreter "
        "is set per user (napkin addin install), not here.",
        "Not needed by xlwings Lite or napkin calc. To change a value: Review → Unprotect "
        "Sheet (no password).",
    ]
    for i, text in enumerate(notes):
        s.put(f"D{i + 1}", text, "note")
    return s

