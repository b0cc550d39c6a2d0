"""``napkin native``, the translation: ``NativeTranslator`` turns each call of a napkin
function into its native form (``addin.transform.native.forms``), checking the arguments first in
the catalog's order so that bad input gives the same error value. What no formula can say
raises ``Untranslatable`` with the reason.
"""

from __future__ import annotations

import re

from openpyxl.formula.tokenizer import Token

from addin.formula.walk import Group, napkin_names, parse
from addin.transform.native.book import Book, _unique_sheet_name
from addin.transform.native.forms import (
    ABSENT,
    NOT_TRANSLATABLE,
    REQUIRED,
    SPECIAL,
    Native,
    Param,
    _num,
    forms,
    names_interconnect,
    number_or_row,
)
from addin.transform.native.formula import Expr, is_atomic, is_numeric
from addin.transform.native.helpers import HELPER_SHEET, HOIST_ARGUMENT, HOIST_MIN, Helpers
from addin.transform.native.named import NAMED, Named
from udfs.machinery.declare import DECLARATIONS

MAX_FORMULA = 8192  # Excel's limit on the length of a formula's text


class Untranslatable(Exception):
    """A call no native formula can stand for; the message says why."""


class NativeTranslator:
    """Translates formulas of one workbook. Table ranges are written as placeholders
    first and filled in once every formula is known (the layout depends on what is used).
    """

    def __init__(self, book: Book):
        self.book = book
        self.tables = book.tables
        self._parsed: dict[str, list] = {}
        self._calls: dict[tuple[str, int], Expr] = {}  # (call's text, sheet) -> Expr
        self.names = napkin_names()
        taken = dict(book.sheet_names, **{book.tables.sheet.upper(): book.tables.sheet})
        names = book.book.names
        self.helpers = Helpers(_unique_sheet_name(HELPER_SHEET, taken), lambda i: {
            dn.name.upper() for dn in names if dn.local_sheet == i})

    def hoist(self, e: Expr, sheet_idx: int, longer_than: int = HOIST_MIN) -> Expr:
        """``e``, or, when its text is long, ``e`` as a reference to a helper cell that
        holds the text (``addin.transform.native.helpers``)."""
        if len(e.text) <= longer_than or e.kind not in ("call", "expr"):
            return e
        sheet = self.book.book.sheets[sheet_idx].name
        # (dataclasses.replace(e, text=...) without its reading of the fields)
        return Expr(self.helpers.ref(e.text, sheet, sheet_idx), e.kind, e.value, e.where,
                    e.result, e.domain, e.numeric)

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
    def parsed(self, text: str) -> list:
        """``parse(text)``, kept until ``formula`` translates the same text (``native``
        asks whether a formula calls napkin, then translates it: one tokenisation for
        both). Kept no longer: thousands of live trees make the collector's passes slow."""
        items = self._parsed.get(text)
        if items is None:
            items = self._parsed[text] = parse(text)
        return items

    def formula(self, text: str, sheet_idx: int, items: list | None = None) -> str:
        """The translation of formula ``text`` of sheet ``sheet_idx``; ``items``: its tree
        when the caller has it (``addin.transform.native.cells.per_cell``)."""
        self.sheet_idx = sheet_idx  # (the sheet of the helper cells' references)
        if items is None:
            items = self._parsed.pop(text, None) or parse(text)
        core = [x for x in items if not (isinstance(x, Token) and x.type == Token.WSPACE)]
        if len(core) == 1 and isinstance(core[0], Group) and core[0].name in self.names:
            return self._call(core[0], sheet_idx).text  # the whole formula: no parentheses
        return self._render(items, sheet_idx)

    def _render(self, items, sheet_idx) -> str:
        out = []
        for x in items:
            if isinstance(x, Group):
                if x.name in self.names:
                    out.append(self.hoist(self._call(x, sheet_idx), sheet_idx).atom)
                else:
                    out.append(x.open.value + self._render(x.children, sheet_idx) +
                               (x.close.value if x.close else ""))
            else:
                out.append(x.value)
        return "".join(out)

    def _expr(self, items, sheet_idx) -> Expr:
        from udfs.machinery.errors import ExcelError

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
        return Expr(text, "expr", numeric=is_numeric(core))

    # -- a call of ours -----------------------------------------------------------------
    def _call(self, g: Group, sheet_idx: int) -> Expr:
        """A call of ours, translated once per text and sheet (a repeat, as in the cells of
        an array formula said one by one, would register the same helpers again: nothing)."""
        key = (g.text, sheet_idx)
        if key not in self._calls:
            self._calls[key] = self._translate_call(g, sheet_idx)
        return self._calls[key]

    def _translate_call(self, g: Group, sheet_idx: int) -> Expr:
        name = g.name
        if name in NOT_TRANSLATABLE:
            raise Untranslatable(f"{name}: {NOT_TRANSLATABLE[name]}")
        args = [self._expr(a, sheet_idx) for a in g.args()]
        named = None
        if name in NAMED:
            form = forms()[name]
            if len(args) <= len(form.params):
                args += [Expr("", "missing")] * (len(form.params) - len(args))
                named = Named(self, Untranslatable).call(name, form, args)
                if named is not None:
                    return named
        for a in args:
            if a.kind == "range":
                raise Untranslatable(f"{name} maps over the range {a.where} (an array "
                                     "result); a single-cell formula cannot say it")
        form = forms()[name]
        if len(args) > len(form.params):
            return Expr("#VALUE!", "call", result=form.result, domain=form.domain)
        args += [Expr("", "missing")] * (len(form.params) - len(args))
        if form.lookup:
            return self._spec(name, form, args)
        if form.fold or any(p.kind == "factor" or p.raw for p in form.params):
            return self._units(name, form, args)
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

    def _build(self, name: str, form: Native, args: list[Expr], present=frozenset(),
               factor: str | None = None) -> Expr:
        """The native formula of a call: ``form.build`` over the arguments' values, their
        checks around it; ``factor``: the text the result is multiplied by (a result
        unit's factor takes its place)."""
        from udfs.machinery.errors import EXCEL_ERROR_CODES, ExcelError

        checks: list[tuple[str | None, str]] = []
        values: list[str | None] = []
        for i, (p, a) in enumerate(zip(form.params, args, strict=True)):
            if p.kind == "unit":
                factor = self._unit(p, a, checks)
                continue
            if p.kind in ("table", "factor"):  # read by the name form; fixed at translation
                continue
            try:
                values.append(self._value(name, p, a, checks, i in present, self.sheet_idx))
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
    def _value(self, fname: str, p: Param, a: Expr, checks, present: bool,
               sheet_idx: int) -> str | None:
        """The Excel text of a parameter's value; its checks are appended to ``checks``.
        Raises ExcelError for a constant that the catalog refuses."""
        from udfs.machinery.errors import ExcelError, as_excel_error, value_error

        a = self.hoist(a, sheet_idx, HOIST_ARGUMENT)  # (its checks read it again and again)
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
            return self.hoist(Expr(self._precision(fname, p, a, checks), "expr"),
                              sheet_idx).text
        if p.kind == "latency" and a.kind == "ref" and names_interconnect(a.value):
            return self._latency(p, a, checks)
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
                # the default in place of an empty cell, read by each check and the
                # formula: a helper cell when it is long
                v = self.hoist(Expr(f"IF(ISBLANK({r}),{_num(p.default)},{r})", "expr"),
                               sheet_idx, HOIST_ARGUMENT).text
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
        from udfs.inference import precisions

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
        look = number_or_row(v, self.rng('precision', 1), self.rng('precision', 0))
        if optional and a.kind == "ref":
            return f"IF(ISBLANK({v}),{_num(p.default)},{look})"
        return look

    def _latency(self, p: Param, a: Expr, checks) -> str:
        """A latency from a cell that holds an interconnect's name (or a number later):
        the number, or the name's latency from the hidden interconnect table."""
        r = a.text
        checks.append((f"ISLOGICAL({r})", "#VALUE!"))
        checks.append((f"AND(ISNUMBER({r}),{r}<0)", "#NUM!"))
        col = 1 if p.arg.column == "hop_latency_us" else 2
        look = number_or_row(r, self.rng('interconnect', col), self.rng('interconnect', 0))
        return self.hoist(Expr(f"IF(ISBLANK({r}),{_num(p.default)},{look})", "expr"),
                          self.sheet_idx).text

    def _unit(self, p: Param, a: Expr, checks) -> str | None:
        """The factor from the default unit to the asked one (None: no scaling)."""
        from udfs.machinery.args import out_unit
        from udfs.machinery.errors import ExcelError, as_excel_error

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
        from udfs.inference import tables
        from udfs.machinery.errors import ExcelError

        table = form.params[0].table
        name, fld = args
        if fld.kind != "const" or not isinstance(fld.value, str):
            if fld.kind == "const":  # a number, TRUE, an error: the catalog's answer
                return self._const_result(fname, table, name, fld)
            raise Untranslatable(f"{fname}: the field comes from a cell or a formula; "
                                 "the native formula needs it as text")
        aliases = tables.GPU_FIELD_ALIASES if table == "gpus" else tables.MODEL_FIELD_ALIASES
        rows = tables.gpus() if table == "gpus" else tables.models()
        sample = next(iter(rows.values()))
        fields = {tables.name_key(c): c for c in sample}
        fields.update({tables.name_key(k): c for k, c in aliases.items()})
        column = fields.get(tables.name_key(fld.value))
        if name.kind == "const":
            return self._const_result(fname, table, name, fld, column)
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

    def _const_result(self, fname, table: str, name: Expr, fld: Expr, column=None) -> Expr:
        """Both arguments constant: the catalog's own answer (an error) or the look-up in
        ``table``."""
        from udfs import catalog
        from udfs.machinery.errors import ExcelError

        v = getattr(catalog, fname)(name.value if name.kind == "const" else None,
                                    fld.value)
        if isinstance(v, ExcelError):
            return Expr(v.code, "call", result="any")
        keys = self.rng(table, 0)
        return Expr(f"INDEX({self.rng(table, column)},MATCH({_text(name.value)},{keys},0))",
                    "call", result="any")

    def _units(self, name: str, form: Native, args: list[Expr]) -> Expr:
        """A call of a function that reads text with units itself (its declaration's
        ``native_readers``, ``native_factor``, ``native_fold``): the factor's units must be
        constant text; a call of constants is the function's value; text with units in
        a number's place, or the value's unit left to its text, is napkin's only; else
        the native text, times the factor the function gives at 1 with those units."""
        from udfs import catalog
        from udfs.machinery.errors import ExcelError

        function = getattr(catalog, name)
        factors = [(p, a) for p, a in zip(form.params, args, strict=True) if p.kind == "factor"]
        if any(a.kind not in ("const", "missing") for _, a in factors):
            raise Untranslatable(f"{name}: {_SPECIAL_REASON[name]}")
        if form.fold and all(a.kind in ("const", "missing") for a in args):
            v = function(*[a.value if a.kind == "const" else None for a in args])
            return Expr(v.code if isinstance(v, ExcelError) else _num(v), "call")
        if factors and (factors[0][1].kind == "missing" or not str(factors[0][1].value).strip()):
            raise Untranslatable(f"{name}: the value's unit is in its text, which only "
                                 "napkin reads")
        for p, a in zip(form.params, args, strict=True):
            if not p.raw:
                continue
            if a.kind == "const" and isinstance(a.value, str):
                raise Untranslatable(f"{name}: {_SPECIAL_REASON[name]}")
            if a.kind == "ref" and isinstance(a.value, str) and a.value.strip():
                raise Untranslatable(f"{name}: {a.where} holds text with units, which "
                                     "only napkin reads")
        factor = None
        if factors:
            probe = function(*[(a.value if a.kind == "const" else None) if p.kind == "factor"
                               else 1.0 for p, a in zip(form.params, args, strict=True)])
            if isinstance(probe, ExcelError):
                return Expr(probe.code, "call")
            factor = None if probe == 1 else _num(probe)
        return self._build(name, form, args, factor=factor)


#: why a call of a function of ``SPECIAL`` is not translated (its declaration's
#: ``native_refusal``)
_SPECIAL_REASON = {n: DECLARATIONS[n].native_refusal for n in SPECIAL}


def _text(s: str) -> str:
    return '"' + str(s).replace('"', '""') + '"'


def _wrap(body: str) -> str:
    return body if is_atomic(body) else f"({body})"


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
