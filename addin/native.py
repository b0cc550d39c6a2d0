"""``napkin native``: a workbook's napkin functions become Excel's own formulas.

The recipient of a workbook may have no add-in (many companies forbid them), or open it
in LibreOffice or Google Sheets. ``napkin freeze`` gives such a reader values; ``native``
gives a live model: every call of a napkin function becomes an equivalent formula of the
Excel 2010 function set (:mod:`addin.native_forms` declares each one), so changing the
model, the GPU, the precision or a price recomputes every figure, with no add-in and no
macro.

How a workbook is translated:

* it is computed first, as ``napkin calc`` does: the cached values in the output are
  napkin's own results, so the file shows numbers on open;
* each formula is split into tokens (:class:`openpyxl.formula.tokenizer.Tokenizer`) and
  each call of ours is replaced by its native form, nested calls inside out. The
  arguments are checked first, in order, as the catalog checks them (empty, wrong type,
  out of domain), so that bad input gives the same error value;
* constant text with units (``"3.35 TB/s"``, ``"8.03B"``, ``"BF16"``) becomes its number at
  translation; a precision, a result unit or a GPU/model name in a cell is looked up in a
  hidden sheet that ``native`` adds (``napkin_tables``) with the tables it needs;
* what no formula can say (EXPLAIN's text, text with units in a cell, a range mapped over
  by a function) becomes its value, as ``freeze`` does, and is listed; ``strict`` refuses
  instead;
* the package is rewritten as ``calc`` rewrites it: only the translated formulas and
  their cached values change (plus the hidden sheet, its relationship and content type,
  and ``calcChain.xml`` is dropped when cells become values); every other part is copied
  byte for byte.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from zipfile import ZipFile

from openpyxl.formula.tokenizer import Token, Tokenizer
from openpyxl.formula.translate import Translator

from . import guard, package
from . import xlsx_values as xv
from .native_forms import ABSENT, NOT_TRANSLATABLE, REQUIRED, Native, Param, _num, forms

TABLE_SHEET = "napkin_tables"
MAX_FORMULA = 8192  # Excel's limit on the length of a formula's text
WORKSHEET_TYPE = ("application/vnd.openxmlformats-officedocument.spreadsheetml."
                  "worksheet+xml")
REL_ID = "rIdNapkinTables"


class Untranslatable(Exception):
    """A call no native formula can stand for; the message says why."""


@dataclass
class NativeResult:
    translated: list[str] = field(default_factory=list)  # "Sheet!A1"
    frozen: dict[str, str] = field(default_factory=dict)  # "Sheet!A1" -> reason
    formulas: dict[str, str] = field(default_factory=dict)  # "Sheet!A1" -> new formula


# --------------------------------------------------------------------------- formula tree


@dataclass
class Group:
    """A function call, a parenthesis or an array constant, with its tokens inside."""

    open: Token
    children: list
    close: Token | None = None

    @property
    def name(self) -> str | None:
        if self.open.type != Token.FUNC:
            return None
        name = self.open.value[:-1]
        name = name.rpartition("!")[2]  # 'napkin.xlam'!WEIGHT_GB( as an add-in call
        for prefix in ("_xludf.", "_xll."):
            if name.lower().startswith(prefix):
                name = name[len(prefix):]
        return name.upper()

    def args(self) -> list[list]:
        if not self.children:
            return []
        out, cur = [], []
        for x in self.children:
            if isinstance(x, Token) and x.type == Token.SEP and x.subtype == Token.ARG:
                out.append(cur)
                cur = []
            else:
                cur.append(x)
        out.append(cur)
        return out


def parse(formula: str) -> list:
    """The formula (without its leading "=") as a tree of tokens and groups."""
    tokens = _merge_exponents(Tokenizer("=" + formula).items)
    root: list = []
    stack: list[tuple[Group | None, list]] = [(None, root)]
    for t in tokens:
        if t.subtype == Token.OPEN:
            g = Group(t, [])
            stack[-1][1].append(g)
            stack.append((g, g.children))
        elif t.subtype == Token.CLOSE and len(stack) > 1:
            stack.pop()[0].close = t
        else:
            stack[-1][1].append(t)
    return root


_MANTISSA = re.compile(r"(?:\d+\.?\d*|\.\d+)[Ee]")


def _merge_exponents(tokens: list[Token]) -> list[Token]:
    """Join "70E" "+" "9" back into the number 70E+9: the tokenizer reads a number in
    scientific notation only with a one-digit mantissa, and the rest as a range."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if (t.subtype == Token.RANGE and _MANTISSA.fullmatch(t.value) and i + 2 < len(tokens)
                and tokens[i + 1].value in "+-" and tokens[i + 1].type == Token.OP_IN
                and tokens[i + 2].subtype == Token.NUMBER and tokens[i + 2].value.isdigit()):
            out.append(Token(t.value + tokens[i + 1].value + tokens[i + 2].value,
                             Token.OPERAND, Token.NUMBER))
            i += 3
            continue
        out.append(t)
        i += 1
    return out


def render(items) -> str:
    out = []
    for x in items:
        if isinstance(x, Group):
            out.append(x.open.value + render(x.children) + (x.close.value if x.close else ""))
        else:
            out.append(x.value)
    return "".join(out)


def calls_of(items, names) -> bool:
    for x in items:
        if isinstance(x, Group) and ((x.name in names) or calls_of(x.children, names)):
            return True
    return False


# --------------------------------------------------------------------------- expressions


@dataclass
class Expr:
    """A translated argument: its Excel text and what is known about it.

    kind: ``missing``, ``const`` (``value`` the Python value), ``ref`` (one cell;
    ``value`` what it holds now, ``where`` its label), ``range``, ``call`` (a call of
    ours: ``result`` and ``domain``), ``expr`` (anything else; ``numeric`` when it is
    arithmetic, so a number or an error).
    """

    text: str
    kind: str
    value: object = None
    where: str = ""
    result: str = "number"
    domain: object = None
    numeric: bool = False

    @property
    def atom(self) -> str:
        """The text, safe to embed in a larger expression."""
        if self.kind in ("ref", "missing") or _is_atomic(self.text):
            return self.text
        return f"({self.text})"


_OPERAND = re.compile(r"(?:'[^']*(?:''[^']*)*'|[A-Za-z0-9_.$\\]+)!?[A-Za-z0-9_.$:]*|"
                      r"\d+(?:\.\d*)?(?:[Ee][+-]?\d+)?|#[A-Z/0!?]+[!?A]?|\"(?:[^\"]|\"\")*\"")
_CALL_START = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\(")


def _is_atomic(text: str) -> bool:
    """A single operand, or one call whose parenthesis closes at the end of the text."""
    text = text.strip()
    if _OPERAND.fullmatch(text):
        return True
    m = _CALL_START.match(text)
    if not m:
        return False
    depth, i, n = 0, m.end() - 1, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i = text.index('"', i + 1)
            while i + 1 < n and text[i + 1] == '"':
                i = text.index('"', i + 2)
        elif ch == "'":
            i = text.index("'", i + 1)
        elif ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth == 0:
                return i == n - 1
        i += 1
    return False


_ARITH = {"+", "-", "*", "/", "^"}


def _numeric(items) -> bool:
    """True when the top level of an expression is arithmetic (a number or an error)."""
    ops = [x for x in items if isinstance(x, Token) and x.type in (
        Token.OP_IN, Token.OP_PRE, Token.OP_POST)]
    return bool(ops) and all(o.value in _ARITH or o.value == "%" for o in ops)


# --------------------------------------------------------------------------- the workbook


class Book:
    """What the translator needs to know of the computed workbook: cell values, sheet
    names and defined names, and the hidden tables it asks for."""

    def __init__(self, zf: ZipFile):
        self.book = xv.read_book(zf)
        self.values: dict[tuple[str, int, int], object] = {}
        ss = self.book.shared_strings
        for sheet in self.book.sheets:
            for c in xv.read_cells(zf.read(sheet.path).decode("utf-8")):
                self.values[(sheet.name.upper(), c.row, c.col)] = _cell_value(c, ss)
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
                    hit = self.resolve(dn.text, sheet_idx, 1)
                    if dn.local_sheet == sheet_idx or hit is not None:
                        return hit
        return None

    def value(self, loc) -> object:
        return self.values.get((loc[1].upper(), loc[2], loc[3]))


def _cell_value(c: xv.RawCell, ss: list[str]):
    from udfs.errors import EXCEL_ERROR_CODES, ExcelError

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


def _unique_sheet_name(base: str, taken: dict) -> str:
    name, k = base, 2
    while name.upper() in taken:
        name, k = f"{base}{k}", k + 1
    return name


# --------------------------------------------------------------------------- hidden tables


MEMORY_UNITS = ("B", "kB", "KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "PiB",
                "byte", "bytes")
TIME_UNITS = ("ns", "us", "µs", "μs", "ms", "s", "sec", "second", "seconds", "min",
              "minute", "minutes", "h", "hr", "hour", "hours", "day", "days")


class Tables:
    """The hidden sheet's tables: precisions, result units, GPUs, models. Each block is
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
        from udfs import precisions

        rows = []
        for name, row in precisions.table().items():
            for key in [name, *filter(None, row["aliases"].split(";"))]:
                rows.append((precisions._key(key), row["bytes_per_param"]))
        return rows

    def unit_rows(self, default: str) -> list[tuple[str, float]]:
        from udfs import units

        base = MEMORY_UNITS if default == "GB" else TIME_UNITS
        rows = []
        for u in [*base, *sorted(self.extra_units.get(default, ()))]:
            if u not in {r[0] for r in rows}:
                rows.append((u, units.unit_factor(default, u)))
        return rows

    def table_rows(self, table: str) -> tuple[list[str], list[tuple[str, list]]]:
        """(columns, [(key, values)]): one row per accepted spelling of each name."""
        from udfs import tables
        from udfs.errors import ExcelError

        rows = tables.gpus() if table == "gpus" else tables.models()
        columns = [c for c in next(iter(rows.values())) if c != "name"]
        keys: list[tuple[str, str]] = [(n, n) for n in rows]
        for a in tables._read("aliases.csv"):
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
        from udfs.errors import ExcelError

        cells: dict[int, list[str]] = {}

        def put(r, c, v):
            ref = f"{xv.num2col(c)}{r}"
            if isinstance(v, ExcelError):
                x = f'<c r="{ref}" t="e"><v>{v.code}</v></c>'
            elif isinstance(v, bool):
                x = f'<c r="{ref}" t="b"><v>{int(v)}</v></c>'
            elif isinstance(v, int | float):
                x = f'<c r="{ref}"><v>{repr(float(v))}</v></c>'
            else:
                x = (f'<c r="{ref}" t="inlineStr"><is><t xml:space="preserve">'
                     f"{xv.xml_escape_text(str(v))}</t></is></c>")
            cells.setdefault(r, []).append((c, x))

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


# --------------------------------------------------------------------------- translation


class Translator_:
    """Translates formulas of one workbook. Table ranges are written as placeholders
    first and filled in once every formula is known (the layout depends on what is used).
    """

    def __init__(self, book: Book):
        self.book = book
        self.tables = book.tables
        from udfs import CATALOG

        self.names = {n.upper() for n in CATALOG}

    # placeholders: the hidden sheet's layout is known only at the end
    def rng(self, block: str, column: int | str) -> str:
        self.tables.used.add(block)
        return f"\x00{block}\x01{column}\x00"

    def fill(self, text: str) -> str:
        def one(m):
            block, column = m.group(1), m.group(2)
            col = int(column) if column.isdigit() else self.tables.column(block, column)
            return self.tables.rng(block, col)

        return re.sub("\x00([^\x01]*)\x01([^\x00]*)\x00", one, text)

    # -- a whole formula --------------------------------------------------------------
    def formula(self, text: str, sheet_idx: int) -> str:
        items = parse(text)
        core = [x for x in items if not (isinstance(x, Token) and x.type == Token.WSPACE)]
        if len(core) == 1 and isinstance(core[0], Group) and core[0].name in self.names:
            return self._call(core[0], sheet_idx).text  # the whole formula: no parentheses
        return self._render(items, sheet_idx)

    def _render(self, items, sheet_idx) -> str:
        out = []
        for x in items:
            if isinstance(x, Group):
                if x.name in self.names:
                    out.append(self._call(x, sheet_idx).atom)
                else:
                    out.append(x.open.value + self._render(x.children, sheet_idx) +
                               (x.close.value if x.close else ""))
            else:
                out.append(x.value)
        return "".join(out)

    def _expr(self, items, sheet_idx) -> Expr:
        from udfs.errors import ExcelError

        core = [x for x in items if not (isinstance(x, Token) and x.type == Token.WSPACE)]
        if not core:
            return Expr("", "missing")
        if len(core) == 1 and isinstance(core[0], Group) and core[0].name in self.names:
            return self._call(core[0], sheet_idx)
        text = self._render(items, sheet_idx).strip()
        if len(core) == 2 and isinstance(core[0], Token) and core[0].type == Token.OP_PRE \
                and isinstance(core[1], Token) and core[1].subtype == Token.NUMBER:
            v = float(core[1].value) * (-1 if core[0].value == "-" else 1)
            return Expr(_num(v), "const", v)
        if len(core) == 1 and isinstance(core[0], Token) and core[0].type == Token.OPERAND:
            t = core[0]
            if t.subtype == Token.NUMBER:
                return Expr(text, "const", float(t.value))
            if t.subtype == Token.TEXT:
                return Expr(text, "const", t.value[1:-1].replace('""', '"'))
            if t.subtype == Token.LOGICAL:
                return Expr(text, "const", t.value.upper() == "TRUE")
            if t.subtype == Token.ERROR:
                return Expr(text, "const", ExcelError(t.value.upper(), ""))
            if t.subtype == Token.RANGE:
                loc = self.book.resolve(t.value, sheet_idx)
                if loc is not None and loc[0] == "cell":
                    return Expr(text, "ref", self.book.value(loc), where=t.value)
                if loc is not None:
                    return Expr(text, "range", where=t.value)
        return Expr(text, "expr", numeric=_numeric(core))

    # -- a call of ours -----------------------------------------------------------------
    def _call(self, g: Group, sheet_idx: int) -> Expr:
        name = g.name
        if name in NOT_TRANSLATABLE:
            raise Untranslatable(f"{name}: {NOT_TRANSLATABLE[name]}")
        args = [self._expr(a, sheet_idx) for a in g.args()]
        for a in args:
            if a.kind == "range":
                raise Untranslatable(f"{name} maps over the range {a.where} (an array "
                                     "result); a single-cell formula cannot say it")
        if name == "UNIT_CONVERT":
            return self._unit_convert(args)
        if name == "TIME_FLOOR":
            return self._time_floor(args)
        form = forms()[name]
        if len(args) > len(form.params):
            return Expr("#VALUE!", "call", result=form.result, domain=form.domain)
        args += [Expr("", "missing")] * (len(form.params) - len(args))
        if name in ("GPU_SPEC", "MODEL_SPEC"):
            return self._spec(name, form, args)
        return self._branch(name, form, args, frozenset())

    def _branch(self, name: str, form: Native, args: list[Expr], present) -> Expr:
        """An optional argument whose absence changes the formula, given as a cell: both
        formulas, chosen by whether the cell is blank (it may be filled in later)."""
        for i, (p, a) in enumerate(zip(form.params, args, strict=True)):
            if p.default is ABSENT and a.kind == "ref" and i not in present:
                without = self._branch(name, form, args[:i] + [Expr("", "missing")] +
                                       args[i + 1:], present)
                with_ = self._branch(name, form, args, present | {i})
                return Expr(f"IF(ISBLANK({a.text}),{without.text},{with_.text})", "call",
                            result=form.result, domain=form.domain)
        return self._build(name, form, args, present)

    def _build(self, name: str, form: Native, args: list[Expr], present=frozenset()) -> Expr:
        from udfs.errors import EXCEL_ERROR_CODES, ExcelError

        checks: list[tuple[str | None, str]] = []
        values: list[str | None] = []
        factor = None
        for i, (p, a) in enumerate(zip(form.params, args, strict=True)):
            if p.kind == "unit":
                factor = self._unit(p, a, checks)
                continue
            try:
                values.append(self._value(name, p, a, checks, i in present))
            except ExcelError as e:
                checks.append((None, e.code))
                values.append("0")
        cut = next((k for k, (c, _) in enumerate(checks) if c is None), None)
        if cut is not None:
            body = checks[cut][1]
            checks = checks[:cut]
        else:
            body = form.build(*values)
            if body in EXCEL_ERROR_CODES:  # refused before any argument is read
                checks = []
            elif factor not in (None, "1"):
                body = f"{_wrap(body)}*{factor}"
        for cond, err in reversed(checks):
            body = f"IF({cond},{err},{body})"
        if len(body) > MAX_FORMULA:
            raise Untranslatable(f"{name}: the native formula would pass Excel's "
                                 f"{MAX_FORMULA} characters")
        return Expr(body, "call", result=form.result, domain=form.domain)

    # -- one argument -------------------------------------------------------------------
    def _value(self, fname: str, p: Param, a: Expr, checks, present: bool) -> str | None:
        """The Excel text of a parameter's value; its checks are appended to ``checks``.
        Raises ExcelError for a constant that the catalog refuses."""
        from udfs.errors import ExcelError, as_excel_error, value_error

        if a.kind == "missing":
            if p.default is REQUIRED:
                raise value_error(f"{p.name} is empty")
            if p.default is ABSENT:
                return None
            return _num(p.default)
        if a.kind == "const":
            err = as_excel_error(a.value)
            if err is not None:
                raise err
            return _num(p.arg.scalar(a.value))
        if p.kind == "precision":
            return self._precision(fname, p, a, checks)
        if a.kind == "ref":
            if isinstance(a.value, str) and a.value.strip():
                try:
                    p.arg.read_text(a.value)
                except ExcelError:
                    pass  # napkin cannot read it either: #VALUE! both ways
                else:
                    raise Untranslatable(
                        f"{fname}: {a.where} holds {a.value!r}, text that napkin reads as a "
                        "number; a spreadsheet formula cannot")
            r = a.text
            if p.default is REQUIRED or present or p.default is ABSENT:
                checks.append((f"OR(ISBLANK({r}),ISTEXT({r}),ISLOGICAL({r}))", "#VALUE!"))
                v = r
            else:
                checks.append((f"OR(ISTEXT({r}),ISLOGICAL({r}))", "#VALUE!"))
                v = f"IF(ISBLANK({r}),{_num(p.default)},{r})"
        elif a.kind == "call":
            if a.result != "number":
                raise Untranslatable(f"{fname}: {p.name} is given a {a.result} result")
            v = a.atom
            if a.domain is not None and _within(a.domain, p.arg.domain):
                return v
        else:
            v = a.atom
            if not a.numeric:
                checks.append((f"OR(ISTEXT({v}),ISLOGICAL({v}))", "#VALUE!"))
        cond = _domain_condition(p.arg.domain, v)
        if cond:
            checks.append((cond, "#NUM!"))
        if p.arg.whole:
            checks.append((f"{v}<>INT({v})", "#NUM!"))
        return v

    def _precision(self, fname: str, p: Param, a: Expr, checks) -> str:
        from udfs import precisions

        if a.kind == "ref" and isinstance(a.value, str) and a.value.strip() and \
                precisions.bytes_per_param(a.value) is None:
            try:
                float(a.value)
            except ValueError:
                pass  # an unknown name: #N/A both ways
            else:
                raise Untranslatable(f"{fname}: {a.where} holds the number {a.value!r} as "
                                     "text; a spreadsheet formula reads it as a name")
        if a.kind == "call" and a.result != "number":
            raise Untranslatable(f"{fname}: {p.name} is given a {a.result} result")
        v = a.text if a.kind == "ref" else a.atom
        optional = p.default not in (REQUIRED, ABSENT)
        if a.kind == "ref":
            checks.append((f"OR(ISBLANK({v}),ISLOGICAL({v}))" if not optional
                           else f"ISLOGICAL({v})", "#VALUE!"))
        elif a.kind == "expr":
            checks.append((f"ISLOGICAL({v})", "#VALUE!"))
        checks.append((f"AND(ISNUMBER({v}),{v}<=0)", "#NUM!"))
        key = f'SUBSTITUTE(SUBSTITUTE(SUBSTITUTE({v}," ",""),"-",""),"_","")'
        look = (f"IF(ISNUMBER({v}),{v},INDEX({self.rng('precision', 1)},"
                f"MATCH({key},{self.rng('precision', 0)},0)))")
        if optional and a.kind == "ref":
            return f"IF(ISBLANK({v}),{_num(p.default)},{look})"
        return look

    def _unit(self, p: Param, a: Expr, checks) -> str | None:
        """The factor from the default unit to the asked one (None: no scaling)."""
        from udfs.args import out_unit
        from udfs.errors import ExcelError, as_excel_error

        if a.kind == "missing":
            return None
        if a.kind == "const":
            err = as_excel_error(a.value)
            try:
                if err is not None:
                    raise err
                f = out_unit(a.value, "unit", p.unit_of)[1]
            except ExcelError as e:
                checks.insert(0, (None, e.code))
                return None
            return None if f == 1 else _num(f)
        if a.kind != "ref":
            raise Untranslatable("the result unit is computed by a formula; give it as "
                                 "text or a cell")
        if isinstance(a.value, str) and a.value.strip():
            try:
                out_unit(a.value, "unit", p.unit_of)
            except ExcelError:
                pass
            else:
                self.tables.extra_units.setdefault(p.unit_of, set()).add(a.value.strip())
        r, block = a.text, f"unit:{p.unit_of}"
        keys, facs = self.rng(block, 0), self.rng(block, 1)
        checks.insert(0, (f'AND(TRIM({r})<>"",SUMPRODUCT(--EXACT({keys},TRIM({r})))=0)',
                          "#VALUE!"))
        return f'IF(TRIM({r})="",1,SUMPRODUCT(EXACT({keys},TRIM({r}))*{facs}))'

    # -- the special ones -----------------------------------------------------------------
    def _spec(self, fname: str, form: Native, args: list[Expr]) -> Expr:
        from udfs import tables
        from udfs.errors import ExcelError

        table = form.params[0].table
        name, fld = args
        if fld.kind != "const" or not isinstance(fld.value, str):
            if fld.kind == "const":  # a number, TRUE, an error: the catalog's answer
                return self._const_result(fname, name, fld)
            raise Untranslatable(f"{fname}: the field comes from a cell or a formula; "
                                 "the native formula needs it as text")
        aliases = tables.GPU_FIELD_ALIASES if table == "gpus" else tables.MODEL_FIELD_ALIASES
        rows = tables.gpus() if table == "gpus" else tables.models()
        sample = next(iter(rows.values()))
        fields = {tables._key(c): c for c in sample}
        fields.update({tables._key(k): c for k, c in aliases.items()})
        column = fields.get(tables._key(fld.value))
        if name.kind == "const":
            return self._const_result(fname, name, fld, column)
        if name.kind == "ref" and isinstance(name.value, str) and name.value.strip():
            try:
                row = tables.match(name.value, rows, table, "name")
            except ExcelError:
                pass
            else:
                self.tables.extra_names[table][name.value] = row
        if name.kind == "call" and name.result == "number":
            raise Untranslatable(f"{fname}: the name is given a number")
        n = name.text if name.kind == "ref" else name.atom
        keys = self.rng(table, 0)
        if column is None or column == "name":
            text = f"IF(MATCH({n},{keys},0),#N/A,#N/A)"
        else:
            text = f"INDEX({self.rng(table, column)},MATCH({n},{keys},0))"
        return Expr(text, "call", result="any")

    def _const_result(self, fname, name: Expr, fld: Expr, column=None) -> Expr:
        """Both arguments constant: the catalog's own answer (an error) or the look-up."""
        from udfs import catalog
        from udfs.errors import ExcelError

        v = getattr(catalog, fname)(name.value if name.kind == "const" else None,
                                    fld.value)
        if isinstance(v, ExcelError):
            return Expr(v.code, "call", result="any")
        table = "gpus" if fname == "GPU_SPEC" else "models"
        keys = self.rng(table, 0)
        return Expr(f"INDEX({self.rng(table, column)},MATCH({_text(name.value)},{keys},0))",
                    "call", result="any")

    def _unit_convert(self, args: list[Expr]) -> Expr:
        from udfs import catalog
        from udfs.args import ANY, Arg
        from udfs.errors import ExcelError

        args = args + [Expr("", "missing")] * (3 - len(args))
        value, frm, to = args[:3]
        if len(args) > 3:
            return Expr("#VALUE!", "call")
        if frm.kind not in ("const", "missing") or to.kind not in ("const", "missing"):
            raise Untranslatable("UNIT_CONVERT: " + _SPECIAL_REASON["UNIT_CONVERT"])
        if value.kind == "const" or frm.kind == "missing" or \
                (frm.kind == "const" and not str(frm.value).strip()):
            if value.kind != "const":
                raise Untranslatable("UNIT_CONVERT: the value's unit is in its text, "
                                     "which only napkin reads")
            v = catalog.UNIT_CONVERT(value.value, frm.value if frm.kind == "const" else None,
                                     to.value if to.kind == "const" else None)
            if isinstance(v, ExcelError):
                return Expr(v.code, "call")
            return Expr(_num(v), "call", domain=None)
        probe = catalog.UNIT_CONVERT(1.0, frm.value, to.value if to.kind == "const" else None)
        if isinstance(probe, ExcelError):
            return Expr(probe.code, "call")
        form = Native((Param("value", "number", Arg("value", None, ANY)),),
                      lambda x: f"{x}*{_num(probe)}" if probe != 1 else x)
        return self._build("UNIT_CONVERT", form, [value])

    def _time_floor(self, args: list[Expr]) -> Expr:
        from udfs import catalog
        from udfs.args import NONNEGATIVE, POSITIVE, Arg
        from udfs.errors import ExcelError

        args = args + [Expr("", "missing")] * (3 - len(args))
        amount, rate, unit_ = args[:3]
        if len(args) > 3:
            return Expr("#VALUE!", "call")
        if amount.kind == "const" and rate.kind == "const" and unit_.kind in ("const", "missing"):
            v = catalog.TIME_FLOOR(amount.value, rate.value,
                                   unit_.value if unit_.kind == "const" else None)
            return Expr(v.code if isinstance(v, ExcelError) else _num(v), "call")
        for a in (amount, rate):
            if a.kind == "const" and isinstance(a.value, str):
                raise Untranslatable("TIME_FLOOR: " + _SPECIAL_REASON["TIME_FLOOR"])
            if a.kind == "ref" and isinstance(a.value, str) and a.value.strip():
                raise Untranslatable(f"TIME_FLOOR: {a.where} holds text with units, which "
                                     "only napkin reads")
        form = Native((Param("amount", "number", Arg("amount", None, NONNEGATIVE)),
                       Param("rate", "number", Arg("rate", None, POSITIVE)),
                       Param("unit", "unit", None, None, unit_of="s")),
                      lambda a, r: f"{a}/{r}")
        return self._build("TIME_FLOOR", form, [amount, rate, unit_])


_SPECIAL_REASON = {
    "UNIT_CONVERT": "from_unit and to_unit must be constant text (the factor is computed "
                    "when translating); units from cells are read by napkin only",
    "TIME_FLOOR": "text with units for amount or rate is read by napkin only; give plain "
                  "numbers (seconds) or constants for both",
}


def _text(s: str) -> str:
    return '"' + str(s).replace('"', '""') + '"'


def _wrap(body: str) -> str:
    return body if _is_atomic(body) else f"({body})"


def _domain_condition(d, v: str) -> str | None:
    import math

    conds = []
    if d.lo > -math.inf:
        conds.append(f"{v}<={_num(d.lo)}" if d.lo_open else f"{v}<{_num(d.lo)}")
    if d.hi < math.inf:
        conds.append(f"{v}>={_num(d.hi)}" if d.hi_open else f"{v}>{_num(d.hi)}")
    if not conds:
        return None
    return conds[0] if len(conds) == 1 else f"OR({','.join(conds)})"


def _within(inner, outer) -> bool:
    """Every number of domain ``inner`` lies in ``outer``."""
    lo_ok = inner.lo > outer.lo or (inner.lo == outer.lo and (inner.lo_open or not outer.lo_open))
    hi_ok = inner.hi < outer.hi or (inner.hi == outer.hi and (inner.hi_open or not outer.hi_open))
    return lo_ok and hi_ok


# --------------------------------------------------------------------------- the package


def _formula_cells(xml: str):
    """[(cell match start, end of <f> span, f attrs, formula text, ref)] with shared
    formulas resolved to each cell's own text."""
    sd = xv._SHEETDATA_RE.search(xml)
    if not sd or not sd.group("body"):
        return []
    tags = xv._tags(sd.group("p"))
    body_start = sd.start("body")
    found = []
    masters: dict[str, tuple[str, str]] = {}
    for rm, _row in xv._iter_rows(sd.group("body"), tags):
        if not rm.group("body"):
            continue
        row_start = body_start + rm.start("body")
        for cm, _col in xv._iter_row_cells(rm.group("body"), 0, tags):
            body = cm.group("body") or ""
            fm = tags["f"].search(body)
            ref = xv._attr(cm.group("attrs"), "r")
            if not fm or not ref:
                continue
            attrs = fm.group("attrs")
            text = xv.xml_unescape(fm.group("text") or "")
            kind = xv._attr(attrs, "t")
            if kind == "shared":
                si = xv._attr(attrs, "si")
                if text:
                    masters[si] = (text, ref)
                elif si in masters:
                    master, origin = masters[si]
                    text = Translator("=" + master, origin=origin).translate_formula(ref)[1:]
            start = row_start + cm.start("body") + fm.start()
            end = row_start + cm.start("body") + fm.end()
            found.append((start, end, attrs, text, ref, kind, sd.group("p")))
    return found


def _add_table_sheet(zf: ZipFile, book: xv.Book, tables: Tables, replace: dict,
                     add: dict) -> None:
    """Append the hidden sheet: its part, its <sheet> entry, relationship, content type."""
    names = set(zf.namelist())
    k = 1
    while f"xl/worksheets/sheet{k}.xml" in names:
        k += 1
    part = f"xl/worksheets/sheet{k}.xml"
    add[part] = tables.sheet_xml().encode("utf-8")
    wb_path = book.workbook_path
    wb = replace.get(wb_path, zf.read(wb_path)).decode("utf-8")
    ids = [int(x) for x in re.findall(r'<(?:\w+:)?sheet\b[^>]*\bsheetId="(\d+)"', wb)]
    m = re.search(r'xmlns:(\w+)="' + re.escape(xv.REL_NS) + '"', wb)
    prefix = m.group(1) if m else "r"
    decl = "" if m else f' xmlns:r="{xv.REL_NS}"'
    close = re.search(r"</(\w+:)?sheets>", wb)
    p = close.group(1) or ""
    entry = (f'<{p}sheet name="{xv.xml_escape_text(tables.sheet)}" '
             f'sheetId="{max(ids, default=0) + 1}" state="hidden" {prefix}:id="{REL_ID}"{decl}/>')
    replace[wb_path] = (wb[:close.start()] + entry + wb[close.start():]).encode("utf-8")
    rels_path = xv._rels_path(wb_path)
    rels = zf.read(rels_path).decode("utf-8")
    target = posix_relative(part, wb_path)
    rels = rels.replace("</Relationships>",
                        f'<Relationship Id="{REL_ID}" Type="{xv.REL_NS}/worksheet" '
                        f'Target="{target}"/></Relationships>')
    replace[rels_path] = rels.encode("utf-8")
    ct = replace.get("[Content_Types].xml", zf.read("[Content_Types].xml")).decode("utf-8")
    ct = ct.replace("</Types>", f'<Override PartName="/{part}" '
                                f'ContentType="{WORKSHEET_TYPE}"/></Types>')
    replace["[Content_Types].xml"] = ct.encode("utf-8")


def posix_relative(part: str, source: str) -> str:
    import posixpath

    return posixpath.relpath(part, posixpath.dirname(source))


def native(src, dst, *, strict: bool = False, in_place: bool = False,
           backup: bool = True) -> NativeResult:
    """Compute ``src`` and write ``dst`` with every napkin call in native formulas.

    Calls that no formula can say become values (listed in the result's ``frozen``, with
    the reason); with ``strict`` they are refused instead (:class:`guard.WorkbookError`,
    nothing written).
    """
    from .engine import calc_workbook

    src, dst = Path(src), Path(dst)
    guard.check_package(src)
    if package.same_file(src, dst) and not in_place:
        raise ValueError(f"refusing to overwrite the source workbook {src} (use --in-place)")
    result = NativeResult()
    with tempfile.TemporaryDirectory(dir=dst.parent if dst.parent.exists() else None) as d:
        computed = Path(d) / "computed.xlsx"
        calc_workbook(src, computed)
        with ZipFile(computed) as zf:
            book = Book(zf)
            tr = Translator_(book)
            edits_by_part: dict[str, list] = {}
            for idx, sheet in enumerate(book.book.sheets):
                xml = zf.read(sheet.path).decode("utf-8")
                edits = []
                for start, end, attrs, text, ref, kind, p in _formula_cells(xml):
                    try:
                        if not calls_of(parse(text), tr.names):
                            continue
                    except Exception:  # noqa: BLE001 - not tokenizable: leave it alone
                        continue
                    label = f"{sheet.name}!{ref}"
                    try:
                        new = tr.formula(text, idx)
                    except Untranslatable as e:
                        result.frozen[label] = str(e)
                        edits.append((start, end, None))
                        continue
                    result.translated.append(label)
                    result.formulas[label] = new
                    keep = "" if kind == "shared" else attrs
                    edits.append((start, end, (p, keep, new, label)))
                if edits:
                    edits_by_part[sheet.path] = (xml, edits)
            if strict and result.frozen:
                first = next(iter(result.frozen.items()))
                more = len(result.frozen) - 1
                raise guard.WorkbookError(
                    f"{len(result.frozen)} cell{'s' if len(result.frozen) > 1 else ''} cannot "
                    f"be translated ({first[0]}: {first[1]}"
                    f"{f'; and {more} more' if more else ''}); without --strict they become "
                    "their values")
            replace: dict[str, bytes] = {}
            for path, (xml, edits) in edits_by_part.items():
                for start, end, new in reversed(edits):
                    if new is None:
                        xml = xml[:start] + xml[end:]
                    else:
                        p, attrs, text, label = new
                        text = tr.fill(text)
                        result.formulas[label] = text
                        xml = (xml[:start] + f"<{p}f{attrs}>{xv.xml_escape_text(text)}</{p}f>"
                               + xml[end:])
                replace[path] = xml.encode("utf-8")
            add: dict[str, bytes] = {}
            if tr.tables.used:
                _add_table_sheet(zf, book.book, tr.tables, replace, add)
            remove = set()
            if result.frozen and "xl/calcChain.xml" in zf.NameToInfo:
                remove.add("xl/calcChain.xml")
                rels_path = xv._rels_path(book.book.workbook_path)
                rels = replace.get(rels_path, zf.read(rels_path)).decode("utf-8")
                replace[rels_path] = re.sub(r'<Relationship\b[^>]*calcChain.xml"[^>]*/>', "",
                                            rels).encode("utf-8")
                ct = replace.get("[Content_Types].xml",
                                 zf.read("[Content_Types].xml")).decode("utf-8")
                replace["[Content_Types].xml"] = re.sub(
                    r'<Override PartName="/xl/calcChain.xml"[^>]*/>', "", ct).encode("utf-8")
            if package.same_file(src, dst) and backup:  # over IN: keep IN.bak first
                shutil.copy2(src, src.with_name(src.name + ".bak"))
            package.rewrite(zf, computed, dst, replace, remove, add)
    return result
