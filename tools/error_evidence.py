"""Which error value Excel saved where a function is given error values:
``python -m tools.error_evidence FOLDER...``.

Every formula cell of the Excel-saved workbooks under the folders (``docProps/app.xml``'s
Application names Excel) whose formula is one call of a function whose arguments are
references, ranges and literals only (``=SQRT(Q90)``, ``=SUMIFS(C:C,A:A,"x")``,
``=BETA.DIST(X5,$Y$5,$Z$5,TRUE)``: no nested call, operator or defined name, so nothing
but the function stands between the values Excel saved in those cells and the one it
saved in the formula's) and one of whose arguments holds an error value (written, in a
cell, or in a range) is a piece of evidence. Each is printed with the errors its
arguments hold, in argument order (a range's cells row by row), and the value Excel
saved, then sorted into one of:

* ``first``: Excel saved the first error value of the arguments, in argument order and
  a range's cells row by row (napkin's rule, ``addin.engine.forms``: "given an error
  value"), where the arguments hold one kind of error value only;
* ``first-of-two``: the same, where they hold two different ones (the cells that say which
  comes first);
* ``other-given``: Excel saved one of the error values given, but not the first;
* ``other-error``: Excel saved an error value none of the arguments holds;
* ``ignored``: Excel saved a value that is no error (the function left the error out, as
  ``IFERROR``, ``COUNT``, ``SUMIFS`` in a row not matched, ``NPV``'s page says of an
  error in a range).

A range of several cells where the function takes one value (its declaration's
``value_args``) is skipped: Excel reads the cell of the formula's row there. The counts at
the end are by function and sort, the functions that read error values as values
(``HANDLERS``: IFERROR, the IS functions, COUNT, the conditional aggregates, IF, CHOOSE...)
apart; ``--function NAME`` (repeatable) keeps
those functions only. Nothing here is needed by the tests; ``tests/test_error_evidence.py``
runs it on a workbook written there.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from zipfile import BadZipFile, ZipFile

from openpyxl.formula.tokenizer import Token, Tokenizer
from openpyxl.utils import range_boundaries

from addin.formula import excel_functions
from addin.ooxml import xlsx_values as xv
from tools.cancel_evidence import _cached, excel_saved, moved_formulas

ERRORS = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A",
          "#GETTING_DATA", "#SPILL!", "#CALC!")
SORTS = ("first", "first-of-two", "other-given", "other-error", "ignored")
#: functions that take an error value as a value (their pages), read a reference's place
#: only, or choose among their arguments: their cells are counted apart from the rule's
HANDLERS = frozenset({
    "IFERROR", "IFNA", "ISERROR", "ISERR", "ISNA", "ERROR.TYPE", "TYPE", "ISBLANK",
    "ISTEXT", "ISNUMBER", "ISLOGICAL", "ISNONTEXT", "ISREF", "COUNT", "COUNTA",
    "COUNTBLANK", "COUNTIF", "COUNTIFS", "SUMIF", "SUMIFS", "AVERAGEIF", "AVERAGEIFS",
    "AGGREGATE", "IF", "IFS", "CHOOSE", "SWITCH", "ROW", "COLUMN", "ROWS", "COLUMNS",
    "OFFSET", "INDEX", "_FV"})
#: a reference: an optional sheet, then a cell, an area, whole columns or whole rows
_REF = re.compile(r"^(?:(?P<sheet>'(?:[^']|'')+'|[^!]+)!)?(?P<area>\$?[A-Z]{1,3}\$?\d*"
                  r"(?::\$?[A-Z]{1,3}\$?\d*)?|\$?\d+:\$?\d+)$")


class Skip(Exception):
    """A formula this tool does not read (a nested call, a name, another workbook...)."""


def _formula_cells(zf: ZipFile):
    """(sheet, row, col, formula text) of each formula cell, shared formulas moved to
    their cells, one-cell array formulas included; and the saved values by sheet."""
    book = xv.read_book(zf)
    values, out = {}, []
    for part in book.sheets:
        cells = xv.read_cells(zf.read(part.path).decode("utf-8"))
        values[part.name] = {(c.row, c.col): _cached(c, book.shared_strings) for c in cells}
        for c, text in moved_formulas(cells):
            if c.f_type == "dataTable":
                continue
            if c.f_type == "array" and c.f_ref and ":" in c.f_ref and \
                    c.f_ref.split(":")[0] != c.f_ref.split(":")[1]:
                continue  # (an array of several cells: its anchor's value is one of many)
            if text:
                out.append((part.name, c.row, c.col, text))
    return values, out


def _call(text: str):
    """(function name, [argument tokens]) of a formula that is one call whose arguments
    are operands only; ``Skip`` otherwise."""
    try:
        tokens = [t for t in Tokenizer("=" + text).items if t.type != Token.WSPACE]
    except Exception as exc:
        raise Skip from exc
    if len(tokens) < 2 or tokens[0].type != Token.FUNC or tokens[0].subtype != Token.OPEN \
            or tokens[-1].type != Token.FUNC or tokens[-1].subtype != Token.CLOSE:
        raise Skip
    name = tokens[0].value[:-1].upper().removeprefix("_XLFN.").removeprefix("_XLWS.")
    args, current = [], []
    for t in tokens[1:-1]:
        if t.type == Token.SEP and t.subtype == Token.ARG:
            args.append(current)
            current = []
        elif t.type == Token.OPERAND:
            current.append(t)
        else:
            raise Skip
    args.append(current)
    if any(len(a) > 1 for a in args):
        raise Skip
    return name, [a[0] if a else None for a in args]


def _errors(token, errors: dict, sheet: str) -> list[str]:
    """The error values of one argument, a range's row by row (``Skip`` for a name);
    ``errors``: sheet -> the cells holding an error value, ``[(row, col, error)]`` sorted
    row by row."""
    if token is None or token.subtype in (Token.NUMBER, Token.TEXT, Token.LOGICAL):
        return []
    if token.subtype == Token.ERROR:
        return [token.value.upper()]
    m = _REF.match(token.value)
    if token.subtype != Token.RANGE or not m or "[" in token.value:
        raise Skip
    where = m.group("sheet")
    if where:
        where = where[1:-1].replace("''", "'") if where.startswith("'") else where
    cells = errors.get(where or sheet)
    if cells is None:
        raise Skip
    area = m.group("area").replace("$", "")
    try:
        c1, r1, c2, r2 = range_boundaries(area if ":" in area else f"{area}:{area}")
    except (ValueError, TypeError) as exc:
        raise Skip from exc
    c1, c2, r1, r2 = c1 or 1, c2 or 16384, r1 or 1, r2 or 1048576
    return [e for r, c, e in cells if r1 <= r <= r2 and c1 <= c <= c2]


def _error(v) -> str | None:
    return v if isinstance(v, str) and v in ERRORS else None


def _intersected(name: str, args) -> bool:
    """Whether a range of several cells is given where the function takes one value
    (``value_args``): Excel reads the cell of the formula's row or column there, not
    the range's errors."""
    fn = excel_functions.declared().get(name)
    where = getattr(fn, "value_args", None)
    if where is None:
        return False
    return any(a is not None and a.subtype == Token.RANGE and ":" in a.value and
               (where == excel_functions.ALL or p in where) for p, a in enumerate(args))


def classify(given: list[str], saved) -> str:
    """The sort of one cell: the errors its arguments give in order, Excel's value."""
    err = _error(saved)
    if err is None:
        return "ignored"
    if err == given[0]:
        return "first-of-two" if len(set(given)) > 1 else "first"
    return "other-given" if err in given else "other-error"


def examine(paths: list[Path], functions: set[str] | None = None, out=sys.stdout) -> dict:
    """Prints each cell of evidence of ``paths``; returns function -> Counter of sorts."""
    tally: dict[str, Counter] = defaultdict(Counter)
    for path in paths:
        try:
            with ZipFile(path) as zf:
                if not excel_saved(zf):
                    continue
                values, formulas = _formula_cells(zf)
            errors = {sheet: [(r, c, v) for (r, c), v in sorted(cells.items()) if _error(v)]
                      for sheet, cells in values.items()}
        except (BadZipFile, KeyError, ValueError) as exc:
            print(f"# {path}: not read ({exc})", file=out)
            continue
        for sheet, r, c, text in formulas:
            try:
                name, args = _call(text)
                if functions and name not in functions or _intersected(name, args):
                    continue
                given = [e for a in args for e in _errors(a, errors, sheet)]
            except Skip:
                continue
            if not given:
                continue
            saved = values[sheet].get((r, c))
            sort = classify(given, saved)
            tally[name][sort] += 1
            shown = " ".join(dict.fromkeys(given))
            print(f"{sort:12} {path.parent.name}/{path.name} {sheet}!{xv.num2col(c)}{r} "
                  f"={text[:120]}  errors given: {shown}; Excel saved {saved!r}", file=out)
    return tally


def summary(tally: dict, out=sys.stdout) -> None:
    for title, names in (
            ("functions that pass an error value on", sorted(set(tally) - HANDLERS)),
            ("functions that read error values (HANDLERS, apart)", sorted(set(tally) & HANDLERS))):
        print(f"\n{title}: " + ", ".join(SORTS), file=out)
        total = Counter()
        for name in names:
            total.update(tally[name])
            print(f"  {name:14} " + " ".join(f"{tally[name][s]:5}" for s in SORTS), file=out)
        print(f"  {'(all)':14} " + " ".join(f"{total[s]:5}" for s in SORTS), file=out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--function", action="append", default=[],
                    help="keep this function only (repeatable)")
    a = ap.parse_args(argv)
    paths = sorted(p for f in a.folders for p in ([f] if f.is_file() else f.rglob("*"))
                   if p.suffix.lower() in (".xlsx", ".xlsm"))
    summary(examine(paths, {n.upper() for n in a.function} or None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
