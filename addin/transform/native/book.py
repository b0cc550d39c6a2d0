"""``napkin native``, the workbook side: what the translator knows of the computed
workbook (``Book``: cell values, sheet and defined names) and the hidden sheet of
tables it adds (``Tables``: precisions, result units, GPUs, models).
"""

from __future__ import annotations

import re
from zipfile import ZipFile

from addin.ooxml import xlsx_values as xv

TABLE_SHEET = "napkin_tables"


class Book:
    """What the translator needs to know of the computed workbook: cell values, sheet
    names and defined names, and the hidden tables it asks for."""

    def __init__(self, zf: ZipFile):
        self.book = xv.read_book(zf)
        self.values: dict[tuple[str, int, int], object] = {}
        ss = self.book.shared_strings
        for sheet in self.book.sheets:
            for c in xv.read_cells(zf.read(sheet.path).decode("utf-8")):
                self.values[(sheet.name.upper(), c.row, c.col)] = cell_value(c, ss)
        self.sheet_names = {s.name.upper(): s.name for s in self.book.sheets}
        self.tables = Tables(_unique_sheet_name(TABLE_SHEET, self.sheet_names))

    def resolve(self, text: str, sheet_idx: int, depth: int = 0):
        """``("cell", sheet, r, c)``, ``("range", ...)`` or None for a reference text."""
        text = text.strip()
        sheet = self.book.sheets[sheet_idx].name
        if "!" in text:
            s, _, addr = text.rpartition("!")
            if s.startswith("[") or "[" in s:
                return None
            sheet = s[1:-1].replace("''", "'") if s.startswith("'") else s
        else:
            addr = text
        a = addr.replace("$", "")
        if re.fullmatch(r"[A-Za-z]{1,3}\d+", a):
            r, c = xv.parse_cell_ref(a)
            return ("cell", sheet, r, c)
        if re.fullmatch(r"[A-Za-z]{1,3}\d+:[A-Za-z]{1,3}\d+", a):
            r1, c1, r2, c2 = xv.parse_area(a)
            if (r1, c1) == (r2, c2):
                return ("cell", sheet, r1, c1)
            return ("range", sheet, r1, c1, r2, c2)
        if re.fullmatch(r"\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?\d+:\$?\d+", addr):
            return ("range", sheet)
        if "!" not in text and depth == 0:
            for dn in self.book.names:
                if dn.name.upper() == text.upper() and dn.local_sheet in (sheet_idx, None):
                    hit = self.resolve(dn.text, sheet_idx, 1) or self._between(dn.text,
                                                                               sheet_idx)
                    if dn.local_sheet == sheet_idx or hit is not None:
                        return hit
        return None

    def _between(self, text: str, sheet_idx: int):
        """The range a name of the template's tables refers to
        (``workbook.sheet.table_column``: ``INDEX(span,2):INDEX(span,ROWS(span)-1)``, the
        rows of a one-column ``span`` strictly between its first and last), as
        ``resolve`` gives it; None for any other text."""
        m = _BETWEEN.fullmatch(text.strip())
        loc = self.resolve(m["span"], sheet_idx, 1) if m else None
        if loc is None or loc[0] != "range" or len(loc) != 6 or loc[3] != loc[5] \
                or loc[4] - loc[2] < 2:
            return None
        _, sheet, r1, c1, r2, c2 = loc
        return ("range", sheet, r1 + 1, c1, r2 - 1, c2) if r2 - r1 > 2 else \
            ("cell", sheet, r1 + 1, c1)

    def value(self, loc) -> object:
        return self.values.get((loc[1].upper(), loc[2], loc[3]))


#: ``workbook.sheet.table_column``'s text: the rows of ``span`` between its first and last
_BETWEEN = re.compile(r"INDEX\((?P<span>[^,()]+),2\):INDEX\((?P=span),ROWS\((?P=span)\)-1\)",
                      re.IGNORECASE)


def cell_value(c: xv.RawCell, ss: list[str]):
    from udfs.machinery.errors import EXCEL_ERROR_CODES, ExcelError

    if c.t == "s" and c.v is not None:
        try:
            return ss[int(c.v)]
        except (ValueError, IndexError):
            return None
    if c.t == "inlineStr":
        return c.inline or ""
    if c.t == "str":
        return c.v or ""
    if c.t == "b":
        return c.v == "1"
    if c.t == "e":
        return ExcelError(c.v if c.v in EXCEL_ERROR_CODES else "#VALUE!", "")
    if c.v in (None, ""):
        return None
    try:
        return float(c.v)
    except ValueError:
        return c.v


def cell_xml(ref: str, v, formula: str | None = None) -> str:
    """One ``<c>`` of a hidden sheet: the value ``v`` (an error, a boolean, a number, a
    text; None: no value) and, when given, the formula that computes it."""
    from udfs.machinery.errors import ExcelError

    f = "" if formula is None else f"<f>{xv.xml_escape_text(formula)}</f>"
    if isinstance(v, ExcelError):
        return f'<c r="{ref}" t="e">{f}<v>{v.code}</v></c>'
    if isinstance(v, bool):
        return f'<c r="{ref}" t="b">{f}<v>{int(v)}</v></c>'
    if isinstance(v, int | float):
        return f'<c r="{ref}">{f}<v>{repr(float(v))}</v></c>'
    if v is None:
        return f'<c r="{ref}">{f}</c>'
    if formula is not None:  # a formula's text result
        return f'<c r="{ref}" t="str">{f}<v>{xv.xml_escape_text(str(v))}</v></c>'
    return (f'<c r="{ref}" t="inlineStr"><is><t xml:space="preserve">'
            f"{xv.xml_escape_text(str(v))}</t></is></c>")


def _unique_sheet_name(base: str, taken: dict) -> str:
    name, k = base, 2
    while name.upper() in taken:
        name, k = f"{base}{k}", k + 1
    return name


MEMORY_UNITS = ("B", "kB", "KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "PiB",
                "byte", "bytes")
TIME_UNITS = ("ns", "us", "µs", "μs", "ms", "s", "sec", "second", "seconds", "min",
              "minute", "minutes", "h", "hr", "hour", "hours", "day", "days")


class Tables:
    """The hidden sheet's tables: precisions, interconnects, result units, GPUs, models.
    Each block is
    laid out only if a translated formula uses it; ranges are absolute references."""

    def __init__(self, sheet: str):
        self.sheet = sheet
        self.used: set[str] = set()
        self.extra_units: dict[str, set[str]] = {}
        self.extra_names: dict[str, dict[str, str]] = {"gpus": {}, "models": {}}
        self._layout: list | None = None

    @property
    def q(self) -> str:
        s = self.sheet
        return s if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", s) else "'" + s.replace("'", "''") + "'"

    # -- contents -------------------------------------------------------------------
    @staticmethod
    def precision_rows() -> list[tuple[str, float]]:
        from udfs.inference import precisions

        rows = []
        for name, row in precisions.table().items():
            for key in [name, *filter(None, row["aliases"].split(";"))]:
                rows.append((precisions.name_key(key), row["bytes_per_param"]))
        return rows

    @staticmethod
    def interconnect_rows() -> list[tuple[str, float, float]]:
        """(name, µs per ring step, µs per call) of each interconnect
        (``udfs.inference.interconnects``)."""
        from udfs.inference import interconnects

        return [(n, float(r["hop_latency_us"]), float(r["base_latency_us"]))
                for n, r in interconnects.table().items()]

    def unit_rows(self, default: str) -> list[tuple[str, float]]:
        from udfs.machinery import units

        base = MEMORY_UNITS if default == "GB" else TIME_UNITS
        rows = []
        for u in [*base, *sorted(self.extra_units.get(default, ()))]:
            if u not in {r[0] for r in rows}:
                rows.append((u, units.unit_factor(default, u)))
        return rows

    def table_rows(self, table: str) -> tuple[list[str], list[tuple[str, list]]]:
        """(columns, [(key, values)]): one row per accepted spelling of each name."""
        from udfs.inference import tables
        from udfs.machinery.errors import ExcelError

        rows = tables.gpus() if table == "gpus" else tables.models()
        columns = [c for c in next(iter(rows.values())) if c != "name"]
        keys: list[tuple[str, str]] = [(n, n) for n in rows]
        for a in tables.read_data("aliases.csv"):
            if a["table"] == table:
                keys.append((a["alias"], a["name"]))
        keys += sorted(self.extra_names[table].items())
        seen, out = set(), []
        for key, name in keys:
            if key.upper() in seen:
                continue
            seen.add(key.upper())
            vals = []
            for c in columns:
                try:
                    vals.append(tables.field_value(rows[name], c, {}, name, "field"))
                except ExcelError as e:
                    vals.append(e)
            out.append((key, vals))
        return columns, out

    # -- layout ---------------------------------------------------------------------
    def _blocks(self):
        """[(block, header, rows)] for the blocks in use, in a fixed order (computed once,
        when the first range is asked for: every formula is translated by then)."""
        if self._layout is None:
            self._layout = self._make_blocks()
        return self._layout

    def _make_blocks(self):
        out = []
        if "precision" in self.used:
            out.append(("precision", ["precision (key)", "bytes per element"],
                        [[k, v] for k, v in self.precision_rows()]))
        if "interconnect" in self.used:
            out.append(("interconnect", ["interconnect", "hop latency (us)",
                                         "base latency (us)"],
                        [list(r) for r in self.interconnect_rows()]))
        for default in ("GB", "ms", "s"):
            if f"unit:{default}" in self.used:
                out.append((f"unit:{default}", ["unit", f"factor from {default}"],
                            [[k, v] for k, v in self.unit_rows(default)]))
        for table in ("gpus", "models"):
            if table in self.used:
                cols, rows = self.table_rows(table)
                out.append((table, ["name", *cols], [[k, *v] for k, v in rows]))
        return out

    def _col_of(self, block: str) -> tuple[int, int, list[str]]:
        col = 1
        for name, header, rows in self._blocks():
            if name == block:
                return col, len(rows), header
            col += len(header) + 1
        raise KeyError(block)

    def rng(self, block: str, column: int) -> str:
        """The absolute range of one column (0 = keys) of a block."""
        first, n, _ = self._col_of(block)
        c = xv.num2col(first + column)
        return f"{self.q}!${c}$2:${c}${n + 1}"

    def column(self, block: str, name: str) -> int:
        _, _, header = self._col_of(block)
        return header.index(name)

    def sheet_xml(self) -> str:
        cells: dict[int, list[str]] = {}

        def put(r, c, v):
            cells.setdefault(r, []).append((c, cell_xml(f"{xv.num2col(c)}{r}", v)))

        col = 1
        for _name, header, rows in self._blocks():
            for j, h in enumerate(header):
                put(1, col + j, h)
            for i, row in enumerate(rows, start=2):
                for j, v in enumerate(row):
                    put(i, col + j, v)
            col += len(header) + 1
        body = "".join(f'<row r="{r}">' + "".join(x for _, x in sorted(cells[r])) + "</row>"
                       for r in sorted(cells))
        return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                f'<worksheet xmlns="{xv.MAIN_NS}"><sheetData>{body}</sheetData></worksheet>')
