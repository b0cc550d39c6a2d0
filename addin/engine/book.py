"""The workbook model: sheets with their stored values, formula cells and defined names,
read from an .xlsx package (through ``addin.ooxml.xlsx_values``).

Each formula is a ``Node`` (one per cell, or one per array formula's range; one per
defined name that is not a plain range). Shared formulas get their master's text and
origin; the cells of an array formula's range keep no stale values. A sheet whose name
has a quote gets an alias, since formulas cannot name ranges of such sheets.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any
from zipfile import ZipFile

from addin.engine import links, relative_names, spills, tables, threed
from addin.engine.boot import ready
from addin.formula import formula_text as ft
from addin.formula import lambda_calls, let_names, ranges
from addin.ooxml import guard, pivot_tables, rich_values
from addin.ooxml import xlsx_values as xv
from udfs.machinery.errors import ExcelError

_HIDDEN_ROW = re.compile(r"<(?:\w+:)?row\b(?=[^>]*\bhidden\s*=\s*[\"'](?:1|true)[\"'])"
                         r"[^>]*\br\s*=\s*[\"'](\d+)[\"']")
_FILTER = re.compile(r"<(?:\w+:)?filterColumn\b")
_LITERAL_INDIRECT = re.compile(r'(?<![\w.])(INDIRECT)\s*\(\s*"((?:[^"]|"")*)"\s*\)', re.I)
_QUALIFIED_NAME = re.compile(
    r"(?<![\w.\]])(?:(?P<q>'(?:[^']|'')+')|(?P<p>[A-Za-z_][\w.]*))!"
    r"(?P<name>[A-Za-z_\\][\w.\\]*)(?![\w.(\[:!])")
_PLAIN_SHEET = re.compile(r"[^\W\d][\w.]*")
_DATE1904 = re.compile(r"<(?:\w+:)?workbookPr\b[^>]*\bdate1904\s*=\s*[\"'](?:1|true)[\"']")


@dataclass
class Sheet:
    name: str
    index: int
    sid: str  # formulas' sheet id
    fname: str = ""  # the name formulas sees (an alias when the name has a quote)
    values: dict = field(default_factory=dict)  # (r, c) -> stored value
    cached: dict = field(default_factory=dict)  # (r, c) -> value Excel cached (formulas)
    formula_at: dict = field(default_factory=dict)  # (r, c) -> node
    max_r: int = 1
    max_c: int = 1
    hidden_rows: set = field(default_factory=set)  # rows with hidden="1"
    filtered: bool = False  # a filter is applied (its hidden rows are filtered out)
    rich: dict = field(default_factory=dict)  # (r, c) -> vm of a value cell (rich_values)


#: The start of ``Node.error``'s message where formulas' parser rejects the formula (not
#: Excel's formula syntax), and where napkin's code failed compiling it (``Node.failure``)
UNREADABLE = "cannot evaluate formula"
FAILED = "napkin failed on the formula"


@dataclass(eq=False, slots=True)
class Node:
    label: str  # "Sheet!A1" or the defined name
    sheet: int
    r: int
    c: int
    prog: Any = None
    text: str | None = None  # normalized text at the shape origin
    origin: tuple | None = None  # (sheet, r, c) where text was written
    spill: tuple | None = None  # (r1, c1, r2, c2) of an array formula
    is_name: bool = False
    specs: list = field(default_factory=list)
    deps: list = field(default_factory=list)
    value: Any = None
    msgs: dict = field(default_factory=dict)
    error: ExcelError | None = None  # set when the formula cannot be used at all
    keep: str | None = None  # why it is not computed: its cached values are kept
    failure: str | None = None  # the exception napkin's code raised compiling it
    dynamic: bool = False  # a dynamic array formula's anchor (Excel 365's spill)
    let_refused: str | None = None  # why its LET (let_names) or A1# (spills) is not written out
    written: str | None = None  # the formula as the file writes it, at its origin (FORMULATEXT)

    def text_here(self) -> str:
        """The formula at the node's own cell: a shared formula's text moved there from
        the cell it is written in."""
        if (self.sheet, self.r, self.c) == self.origin:
            return self.text
        from openpyxl.formula.translate import Translator

        _, orow, ocol = self.origin
        return Translator(self.text, f"{xv.num2col(ocol)}{orow}").translate_formula(
            f"{xv.num2col(self.c)}{self.r}")

    def positions(self):
        """The cells this formula fills."""
        if self.spill is None:
            return [(self.r, self.c)]
        r1, c1, r2, c2 = self.spill
        return [(r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]


def label(sheet: Sheet, r: int, c: int) -> str:
    """``Sheet!A1``, the sheet name quoted when it must be."""
    return f"{_label_name(sheet.name)}!{xv.num2col(c)}{r}"


@functools.lru_cache(maxsize=256)
def _label_name(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_][\w.]*", name) else ft.quote_sheet(name)


class Workbook:
    def __init__(self, zf: ZipFile):
        self.book = xv.read_book(zf)
        self.tables = {t.name.upper(): t for t in tables.read_tables(zf, self.book)}
        self.book_names = {(dn.name.upper(), dn.local_sheet) for dn in self.book.names}
        # a sheet's own names written with the sheet (Defines!Rate): formulas drops the
        # sheet, so each such name also gets a workbook-wide alias the text points at
        self.local_aliases = {
            (self.book.sheets[dn.local_sheet].name.upper(), dn.name.upper()):
                f"NAPKIN_LOCAL_{dn.local_sheet}_{dn.name.upper()}"
            for dn in self.book.names if dn.local_sheet is not None
            and not dn.name.startswith("_xlnm.")}
        self.linked = links.read_links(zf, self.book)  # values kept of linked workbooks
        self.link_aliases = {(ls.book, ls.name.upper()): f"NAPKIN_LINK_{ls.book}_{n}"
                             for n, ls in enumerate(self.linked)}
        self.sheets: list[Sheet] = []
        self.sid_map: dict[str, int] = {}
        # formulas cannot name ranges of sheets whose name has a quote, starts with a
        # digit or has a '-' (2019, places-dec2): give each name Excel writes quoted an
        # alias (the others, Sheet1 or Données, stay as they are)
        taken = {p.name.upper() for p in self.book.sheets}
        self.aliases: dict[str, str] = {}  # NAME.upper() -> alias
        for part in self.book.sheets:
            fname = part.name
            if not _PLAIN_SHEET.fullmatch(fname):
                n = part.index + 1
                while f"NAPKIN_SHEET_{n}" in taken:
                    n += 1000
                fname = f"NAPKIN_SHEET_{n}"
                taken.add(fname)
                self.aliases[part.name.upper()] = fname
            sid = ranges.sheet_id(fname)
            s = Sheet(part.name, part.index, sid, fname=fname)
            self.sheets.append(s)
            self.sid_map.setdefault(sid, part.index)
        self.xml: dict[int, str] = {}
        self.layouts: dict[int, xv.Layout] = {}  # where each sheet's formula cells are
        self.nodes: list[Node] = []
        self.name_nodes: dict[tuple[str, int | None], Node] = {}
        self.name_ranges: dict[tuple[str, int | None], Any] = {}
        self._refs_cache: dict[int, dict] = {}
        self.workbook_xml = zf.read(self.book.workbook_path).decode("utf-8")
        self.date1904 = bool(_DATE1904.search(self.workbook_xml))
        self.named_lambdas = self._named_lambdas()  # a user's own functions (LAMBDA)
        self._load(zf)
        self._add_linked_sheets()

    # ---------------------------------------------------------------- loading
    def _load(self, zf: ZipFile) -> None:
        ss = self.book.shared_strings
        meta = self.book.workbook_path.rpartition("/")[0] + "/metadata.xml"
        records = spills.dynamic_records(
            zf.read(meta).decode("utf-8") if meta in zf.namelist() else None)
        # the linked data types (Stocks...) cells hold, for _FV (addin.excel.linked_data)
        self.rich = rich_values.read_rich_data(zf, self.book.workbook_path) \
            if meta in zf.namelist() else None
        # the pivot tables as Excel drew them, for GETPIVOTDATA (addin.excel.pivot_data)
        self.pivots = pivot_tables.read_pivot_tables(zf, [(s.index, s.path)
                                                          for s in self.book.sheets])
        for t in self.tables.values():
            self.sheets[t.sheet].filtered |= t.filtered
        for sheet, part in zip(self.sheets, self.book.sheets, strict=True):
            xml = zf.read(part.path).decode("utf-8")
            self.xml[sheet.index] = xml
            # (each pattern holds its word: a part without it is not searched)
            if "hidden" in xml:
                sheet.hidden_rows = {int(m.group(1)) for m in _HIDDEN_ROW.finditer(xml)}
            sheet.filtered |= "filterColumn" in xml and bool(_FILTER.search(xml))
            shared: dict[str, tuple[str, int, int]] = {}
            pending_shared = []
            layout = self.layouts[sheet.index] = xv.Layout()
            for cell in xv.read_cells(xml, layout):
                pos = (cell.row, cell.col)
                if cell.row > xv.MAX_ROW or cell.col > xv.MAX_COL:
                    raise guard.WorkbookError(
                        f"{sheet.name} has a cell at row {cell.row:,}, column {cell.col:,}, "
                        "past the sheet's last cell XFD1048576: the file is damaged; open "
                        "it in Excel and save it again")
                if cell.row > sheet.max_r:
                    sheet.max_r = cell.row
                if cell.col > sheet.max_c:
                    sheet.max_c = cell.col
                # (Excel writes an empty <f ca="1"/> in the cells a volatile array formula
                # spills into: a cell of that array, not a formula of its own)
                in_array = cell.f is not None and cell.f_type is None and not cell.f.strip() \
                    and getattr(sheet.formula_at.get(pos), "spill", None) is not None
                if cell.f is not None and cell.f_type != "dataTable" and not in_array:
                    node = Node(label(sheet, cell.row, cell.col), sheet.index,
                                cell.row, cell.col)
                    if cell.f_type == "shared" and not cell.f.strip():
                        pending_shared.append((node, cell.f_si))
                    else:
                        node.text = self.alias(ft.normalize_formula(self.literal_indirect(
                            self.three_d(self.structured(self.qualified_names(
                                self.let_written_out(node, links.rewrite(
                                    cell.f, self.link_aliases), cell.f_type != "array")),
                                sheet.index, cell.row, cell.col)))))
                        node.origin = (sheet.index, cell.row, cell.col)
                        node.written = cell.f
                        if cell.f_type == "shared" and cell.f_si is not None:
                            shared[cell.f_si] = (node.text, cell.row, cell.col)
                    if cell.f_type == "array" and cell.f_ref:
                        try:
                            r1, c1, r2, c2 = xv.parse_area(cell.f_ref)
                        except ValueError:
                            r1, c1, r2, c2 = cell.row, cell.col, cell.row, cell.col
                        node.spill = (r1, c1, r2, c2)
                        node.dynamic = bool(records) and spills.is_dynamic(
                            layout.cells.get(pos, (0, 0, ""))[2], records)
                        sheet.max_r, sheet.max_c = max(sheet.max_r, r2), max(sheet.max_c, c2)
                    self.nodes.append(node)
                    for p in node.positions():
                        sheet.formula_at.setdefault(p, node)
                    if cell.v or cell.inline is not None or (
                            cell.v is not None and cell.t in ("str", "s", "inlineStr")):
                        sheet.cached[pos] = _cell_value(cell, ss)  # (not openpyxl's <v/>)
                    continue
                sheet.values[pos] = _cell_value(cell, ss)
                if cell.vm is not None:
                    sheet.rich[pos] = cell.vm
            for node, si in pending_shared:
                master = shared.get(si)
                if master is None:
                    node.error = ExcelError("#REF!", "shared formula without its master cell")
                    continue
                node.text = master[0]
                node.origin = (sheet.index, master[1], master[2])
        # array formula cells keep no stale values of their own (but remember them)
        for sheet in self.sheets:
            for p in sheet.formula_at:
                v = sheet.values.pop(p, None)
                if v is not None:
                    sheet.cached[p] = v
        spills.anchor_arrays(self)  # A1# (_xlfn.ANCHORARRAY(A1)) as the range it spills
        self._rows_and_columns_written_out()
        self._load_names()

    def structured(self, text: str, sheet: int | None, row: int = 0, col: int = 0) -> str:
        """Formula text with its structured (table) references written as plain ones
        (``addin.engine.tables.rewrite``); as it is when one cannot be placed (the formula
        is then refused, or kept with --lenient)."""
        if not self.tables:
            return text
        try:
            return tables.rewrite(text, self.tables, sheet, row, col)
        except tables.Unresolved:
            return text

    def _add_linked_sheets(self) -> None:
        """A read-only sheet for each linked workbook's sheet whose values Excel kept
        (``addin.engine.links``), after the workbook's own sheets."""
        ns = ready()
        for ls in self.linked:
            fname = self.link_aliases[(ls.book, ls.name.upper())]
            sid = ranges.sheet_id(fname)
            sheet = Sheet(f"[{ls.book}]{ls.name}", len(self.sheets), sid, fname=fname)
            for (r, c), (t, v) in ls.values.items():
                if t == "str" or t == "s" or t == "inlineStr":
                    sheet.values[(r, c)] = xv.decode_xstring(v)
                elif t == "b":
                    sheet.values[(r, c)] = v.strip() in ("1", "true")
                elif t == "e":
                    sheet.values[(r, c)] = ns.errors.get(v.strip(), ns.errors["#VALUE!"])
                else:
                    try:
                        sheet.values[(r, c)] = int(v) if re.fullmatch(r"-?\d{1,15}", v) \
                            else float(v)
                    except ValueError:
                        sheet.values[(r, c)] = v
                sheet.max_r, sheet.max_c = max(sheet.max_r, r), max(sheet.max_c, c)
            self.sheets.append(sheet)
            self.sid_map.setdefault(sid, sheet.index)

    def qualified_names(self, text: str) -> str:
        """Formula text with ``Sheet!Name`` (a name of that sheet's own) written as the
        name's workbook-wide alias (string literals untouched)."""
        if not self.local_aliases or "!" not in text:
            return text

        def one(m):
            sheet = m.group("q")[1:-1].replace("''", "'") if m.group("q") else m.group("p")
            alias = self.local_aliases.get((sheet.upper(), m.group("name").upper()))
            return alias if alias else m.group(0)

        return ft.change_outside_strings(text, lambda part: _QUALIFIED_NAME.sub(one, part))

    def let_written_out(self, node: Node, text: str, one_cell: bool) -> str:
        """Formula text with its LAMBDA calls (``addin.formula.lambda_calls``), then its
        LET calls (``addin.formula.let_names``) written out; as it is, with the reason in
        ``node.let_refused``, when one cannot be."""
        try:
            return let_names.expand(
                lambda_calls.expand(text, self.named_lambdas, one_cell), one_cell)
        except (let_names.LetRefused, lambda_calls.LambdaRefused) as ex:
            node.let_refused = str(ex)
            return text

    def _rows_and_columns_written_out(self) -> None:
        """The array formulas refused for BYROW or BYCOL given a LAMBDA written out once
        their spill references are ranges (``lambda_calls.by_rows_and_columns``), then their
        LAMBDA and LET calls; each still refused, with the reason, where one cannot be."""
        for node in self.nodes:
            if not (node.text and node.let_refused and node.let_refused.startswith(
                    ("BYROW() given a LAMBDA", "BYCOL() given a LAMBDA"))
                    and node.origin == (node.sheet, node.r, node.c)
                    and node.spill is not None):  # (an array formula's: it spills)
                continue
            try:
                text = let_names.expand(lambda_calls.expand(
                    lambda_calls.by_rows_and_columns(node.text), self.named_lambdas))
            except (let_names.LetRefused, lambda_calls.LambdaRefused) as ex:
                node.let_refused = str(ex)
                continue
            node.text, node.let_refused = self.alias(ft.normalize_formula(text)), None

    def _named_lambdas(self) -> dict[str, lambda_calls.NamedLambda]:
        """The defined names whose text is a LAMBDA, by upper-case name (one scoped to a
        sheet is there with the reason a call of it is refused)."""
        out: dict[str, lambda_calls.NamedLambda] = {}
        for dn in self.book.names:
            if "LAMBDA" not in dn.text.upper() or dn.name.startswith("_xlnm."):
                continue
            lam = lambda_calls.named_lambda(dn.name, dn.text, dn.local_sheet is not None)
            if lam is not None and (lam.refused or dn.name.upper() not in out):
                out[dn.name.upper()] = lam
        return out

    def three_d(self, text: str) -> str:
        """Formula text with its 3-D references written one per sheet
        (``addin.engine.threed.rewrite``)."""
        if ":" not in text or "!" not in text:  # (threed.rewrite's own first test)
            return text
        return threed.rewrite(text, [s.name for s in self.sheets])

    def literal_indirect(self, text: str) -> str:
        """``INDIRECT("text")`` whose text names no cell, range or defined name is
        ``#REF!``, as in Excel (formulas would read the text as a name: ``#NAME?``)."""
        if "INDIRECT" not in text.upper():
            return text

        def one(m):
            from addin.ooxml.a1 import A1_AREA

            lit = m.group(2).replace('""', '"').strip()
            if A1_AREA.fullmatch(lit):  # (A:XFD as formulas reads it: A$1:XFD$1048576)
                whole = ft.whole_sheet_ranges(m.group(2))
                return m.group(0) if whole == m.group(2) else f'{m.group(1)}("{whole}")'
            if any(name == lit.upper() for name, _ in self.book_names):
                return m.group(0)
            return "#REF!"

        return _LITERAL_INDIRECT.sub(one, text)

    def alias(self, text: str) -> str:
        """Formula text with quoted sheet names that have an alias replaced by it."""
        return ft.alias_sheets(text, self.aliases)

    def _load_names(self) -> None:
        texts: dict[tuple[str, int | None], str] = {}
        for dn in self.book.names:
            if dn.name.startswith("_xlnm.") or not dn.text.strip():
                continue
            key = (dn.name.upper(), dn.local_sheet)
            if dn.name.upper() in self.named_lambdas:
                continue  # (each use written out where it is, or refused: lambda_calls)
            text = self.alias(ft.normalize_formula(self.three_d(self.structured(
                self.qualified_names(links.rewrite(dn.text, self.link_aliases)), None))))
            texts[key] = text[1:]
            rng = None
            body = text[1:].strip()
            m = ft.LEX_RE.match(body)
            if m and m.group("ref") and m.group("sheet") and m.end() == len(body):
                try:  # a plain (sheet-qualified) range: a reference, as Excel passes it
                    rng = ranges.reference(body.replace("$", ""))
                    if self.parts(rng) is None:
                        rng = None
                except Exception:  # then it is computed like a formula
                    rng = None
            alias = None
            if dn.local_sheet is not None:
                alias = self.local_aliases.get(
                    (self.book.sheets[dn.local_sheet].name.upper(), dn.name.upper()))
            if rng is not None:
                self.name_ranges[key] = rng
                if alias:
                    self.name_ranges[(alias, None)] = rng
                continue
            home = dn.local_sheet if dn.local_sheet is not None else 0
            node = Node(dn.name, home, 1, 1, text=text, origin=(home, 1, 1), is_name=True)
            self.name_nodes[key] = node
            if alias:
                self.name_nodes[(alias, None)] = node
        self._write_relative_names(texts)

    def _write_relative_names(self, texts: dict[tuple[str, int | None], str]) -> None:
        """Each use of a defined name holding relative references, in a formula, written
        as the name's text moved to the formula's cell (``relative_names``)."""
        if not any(relative_names.has_relative_reference(t) for t in texts.values()):
            return
        by_sheet = {}
        for sheet in self.sheets:
            scope = {name: t for (name, local), t in texts.items() if local is None}
            for (name, local), t in texts.items():
                if local is not None:
                    alias = self.local_aliases.get((self.book.sheets[local].name.upper(), name))
                    if alias:
                        scope[alias.upper()] = t
                    if local == sheet.index:
                        scope[name] = t
            by_sheet[sheet.index] = relative_names.find(scope)
        done: dict[tuple, str] = {}
        for node in self.nodes:
            names = by_sheet.get(node.origin[0])
            if not names or not node.text:
                continue
            at = (node.text, node.origin)
            if at not in done:
                done[at] = relative_names.written_in(node.text, names, *node.origin[1:])
            node.text = done[at]

    # ---------------------------------------------------------------- looking up
    def references(self, sheet_idx: int) -> dict:
        """Defined names that are plain ranges, as formulas' compile takes them, for a
        formula on sheet ``sheet_idx`` (its own sheet's local names win)."""
        refs = self._refs_cache.get(sheet_idx)
        if refs is None:
            refs = {}
            for (name, scope), rng in self.name_ranges.items():
                if scope is None and name not in refs:
                    refs[name] = rng
            for (name, scope), rng in self.name_ranges.items():
                if scope is not None:
                    refs[f"{self.sheets[scope].sid}!{name}"] = rng
                    if scope == sheet_idx:
                        refs[name] = rng
            self._refs_cache[sheet_idx] = refs
        return refs

    def find_name(self, name: str, sheet_idx: int):
        """The node of a defined name computed like a formula, or None."""
        if "!" in name:
            sid, _, bare = name.rpartition("!")
            idx = self.sid_map.get(sid)
            return self.name_nodes.get((bare, idx)) if idx is not None else None
        return self.name_nodes.get((name, sheet_idx)) or self.name_nodes.get((name, None))

    def parts(self, rng):
        """formulas Ranges -> [(sheet, r1, c1, r2, c2), ...] or None (unknown sheet)."""
        parts = []
        for sid, r1, c1, r2, c2 in ranges.areas(rng):
            idx = self.sid_map.get(sid)
            if idx is None:
                return None
            parts.append((idx, r1 or 1, c1 or 1, r2 or xv.MAX_ROW, c2 or xv.MAX_COL))
        return parts

    def sheet_index(self, name: str | None, default: int):
        """Index of the sheet a reference names (``default`` for none), None if unknown."""
        if not name:
            return default
        return self.sid_map.get(ranges.sheet_id(name))


_INT_RE = re.compile(r"-?\d+")


def _cell_value(cell: xv.RawCell, ss: list[str]):
    """The value a non-formula cell stores, as formulas' values."""
    ns = ready()
    t, v = cell.t or "n", cell.v
    if t == "inlineStr":
        return cell.inline if cell.inline is not None else (v or "")
    if v is None:
        return ns.EMPTY if cell.inline is None else cell.inline
    if t == "s":
        try:
            return ss[int(v)]
        except (ValueError, IndexError):
            return ns.errors["#REF!"]
    if t == "str":
        return xv.decode_xstring(v)
    if t == "b":
        return v.strip() in ("1", "true")
    if t == "e":
        return ns.errors.get(v.strip(), ns.errors["#VALUE!"])
    try:
        if _INT_RE.fullmatch(v.strip()) and len(v.strip()) < 16:
            return int(v)
        return float(v)
    except ValueError:
        return v
