"""Output: computed values as cached values of the worksheet XML, as the CLI prints them,
and as JSON."""

from __future__ import annotations

import math

import numpy as np

from addin.engine.boot import ready
from udfs.machinery.errors import EXCEL_ERROR_CODES, ExcelError


def updates(wb) -> dict[int, dict]:
    """Per sheet index of a computed ``addin.engine.book.Workbook``: ``{(r, c): (t, <v>
    text)}`` for every formula cell."""
    ups: dict[int, dict] = {}
    for node in wb.nodes:
        if node.keep is not None:  # not computed: its cell is left as Excel saved it
            continue
        sheet = wb.sheets[node.sheet]
        u = ups.setdefault(node.sheet, {})
        for pos in node.positions():
            u[pos] = xml_value(sheet.values.get(pos, 0))
    return ups


def xml_value(v) -> tuple[str | None, str]:
    """A stored value as the ``t`` attribute and ``<v>`` text of its cell."""
    if type(v) is float:  # most cells (a subclass takes the way below)
        return None, _num_text(v)
    ns = ready()
    if isinstance(v, ns.XlError):
        code = str(v)
        return "e", code if code in EXCEL_ERROR_CODES else "#VALUE!"
    if isinstance(v, bool):
        return "b", "1" if v else "0"
    if isinstance(v, int):
        return None, str(v)
    if isinstance(v, float):
        return None, _num_text(v)
    if v is ns.EMPTY or v is None:
        return None, "0"
    from addin.ooxml.xlsx_values import (
        xml_escape_text,  # not at the top: napkin eval never needs it
    )

    # a carriage return as Excel writes it (readers turn a raw one into a line feed)
    return "str", xml_escape_text(str(v)).replace("\r", "_x000D_")


def _num_text(v: float) -> str:
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return repr(v)


def format_value(value) -> str:
    """A result as the CLI prints it: shortest round-trip numbers, TRUE/FALSE, text as is,
    ``#NUM! message`` for errors, arrays one row per line with tab-separated cells."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        rows = value if value and all(isinstance(r, (list, tuple)) for r in value) else [value]
        return "\n".join("\t".join(format_value(c) for c in row) for row in rows)
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, ExcelError):
        return str(value)
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value) and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if value is None:
        return ""
    return str(value)


def to_json(value):
    """A result with errors as ``{"error": code, "message": text}`` (for JSON output)."""
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, ExcelError):
        return {"error": value.code, "message": value.message}
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value
