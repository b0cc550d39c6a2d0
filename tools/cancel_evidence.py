"""Which rule reproduces Excel's values where a ``+`` or ``-`` cancels, and where two
nearly equal numbers are compared: ``python -m tools.cancel_evidence FOLDER...``.

Every formula cell of the Excel-saved workbooks under the folders (``docProps/app.xml``'s
Application names Excel) is re-done in plain IEEE arithmetic on the values Excel saved
in the cells it references (``tools.saved_arithmetic``: numbers, references, ``+ - * /
^ %``, comparisons and ``SUM``; other formulas are skipped). A cell is evidence where a
``+`` or ``-`` of two numbers cancels to within 2^-40 of the larger (the IEEE result not
0), or a comparison is given two different numbers within 2^-40 of each other. Each
is printed with its formula, the two operands and the IEEE result to 17 digits, the
value Excel saved, and which rules give that value:

* ``none``: plain IEEE arithmetic;
* ``gap50``: napkin's rule (``addin.formula.cancellation``): a ``+`` or ``-`` at the
  formula's top whose result's binary exponent is 50 or more below its larger operand's
  gives 0;
* ``top15``: a ``+`` or ``-`` at the formula's top (not inside parentheses or a function)
  whose two operands (the second with the sign of ``-``) agree to 15 significant digits
  gives 0 (Apache POI's ``ExcelArithmetic.approxAdd``, POI 6.0);
* ``all15``: the same at every ``+`` and ``-`` of the formula;
* ``topN``: a top ``+`` or ``-`` whose result is within 2^-N of the larger operand gives
  0 (N from 44 to 53: LibreOffice's ``approxAdd`` takes 2^-48);
* for comparisons, ``eq15``: two numbers agreeing to 15 significant digits are equal
  (POI's ``NumberComparer``), ``eqN``: within 2^-N of the larger.

The counts at the end say, for each rule, how many of the cells Excel saved it
reproduces and which it does not. A sanity line counts the re-done formulas without a
cancellation whose IEEE value is Excel's to the last bit (how far plain arithmetic on
saved values can be trusted), and those of them with ``^`` apart (how far Python's ``**``
is Excel's ``^``: ``addin.engine.last_digits``). Nothing here is needed by the tests.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections import Counter
from pathlib import Path
from zipfile import BadZipFile, ZipFile

from openpyxl.formula.translate import Translator

from addin.formula.cancellation import ZERO_GAP, exponent_gap
from addin.ooxml import xlsx_values as xv
from tools.saved_arithmetic import COMPARISONS, Evaluator, Unsupported, parse

NEAR = 2.0 ** -40
_APP = re.compile(r"<(?:\w+:)?Application>([^<]*)<")
_CHARACTERS = re.compile(r"[\s$A-Z0-9.+\-*/()]+")
_CALL = re.compile(r"[A-Z]\s*\(")


def arithmetic(text: str) -> bool:
    """A formula of numbers, cell references, ``+ - * /`` and parentheses only."""
    return bool(_CHARACTERS.fullmatch(text)) and not _CALL.search(text)
TOP_BITS = tuple(range(44, 54))


def same15(a: float, b: float) -> bool:
    """``a`` and ``b`` agree to 15 significant decimal digits (as Excel shows them)."""
    return f"{a:.14e}" == f"{b:.14e}"


def cancels(a: float, b: float, result: float) -> bool:
    return result != 0 and abs(result) <= max(abs(a), abs(b)) * NEAR


def _rule(kind: str, bits: int = 0):
    def correct(op, a, b, result, top):
        if kind.startswith(("top", "gap")) and not top:
            return result
        other = b if op == "+" else -b
        if kind == "gap":
            return 0.0 if result and exponent_gap(a, other, result) >= bits else result
        if kind.endswith("15"):
            return 0.0 if a and other and (a > 0) != (other > 0) and \
                same15(a, -other) else result
        return 0.0 if abs(result) <= max(abs(a), abs(b)) * 2.0 ** -bits else result
    return correct


RULES = {"none": None, "gap50": _rule("gap", ZERO_GAP), "top15": _rule("top15"),
         "all15": _rule("all15"),
         **{f"top{n}": _rule("top", n) for n in TOP_BITS}}


COMPARE_RULES = ("exact", "eq15", "eq40", "eq44", "eq46", "eq48", "eq50", "eq52")


def _equality(name: str):
    """Whether two numbers are equal under the candidate rule ``name`` of Excel's
    comparison: exactly, to 15 significant digits, or within 2^-N of the larger."""
    if name == "exact":
        return lambda a, b: a == b
    if name == "eq15":
        return same15
    bits = int(name[2:])
    return lambda a, b: abs(a - b) <= max(abs(a), abs(b)) * 2.0 ** -bits


def excel_saved(zf: ZipFile) -> bool:
    try:
        app = _APP.search(zf.read("docProps/app.xml").decode("utf-8", "replace"))
    except KeyError:
        return False
    return bool(app) and "Excel" in app.group(1)


def _cached(cell: xv.RawCell, shared: list[str]):
    if cell.v is None:
        return cell.inline
    if cell.t in (None, "n"):
        return float(cell.v)
    if cell.t == "b":
        return cell.v in ("1", "true")
    if cell.t == "s":
        return shared[int(cell.v)]
    return cell.v  # str, e (an error value as its text)


def moved_formulas(cells):
    """(cell, formula text) of each formula cell of one sheet's ``cells``
    (``xlsx_values.read_cells``), a shared formula's text moved from its master cell to
    the cell (None where openpyxl's Translator cannot move it)."""
    masters = {c.f_si: (c.f, c.row, c.col) for c in cells if c.f_type == "shared" and c.f}
    for c in cells:
        text = c.f
        if c.f_type == "shared" and not c.f and c.f_si in masters:
            f, r0, c0 = masters[c.f_si]
            try:
                text = Translator("=" + f, f"{xv.num2col(c0)}{r0}").translate_formula(
                    f"{xv.num2col(c.col)}{c.row}")[1:]
            except Exception:  # a formula openpyxl cannot move
                text = None
        yield c, text


def workbook_formulas(path: Path):
    """The saved values of an Excel-saved workbook by sheet, and its formula cells as
    (sheet, row, col, formula text) with shared formulas moved to their cells."""
    with ZipFile(path) as zf:
        if not excel_saved(zf):
            return None, []
        book = xv.read_book(zf)
        values, formulas = {}, []
        for part in book.sheets:
            cells = xv.read_cells(zf.read(part.path).decode("utf-8"))
            values[part.name] = {(c.row, c.col): _cached(c, book.shared_strings)
                                 for c in cells}
            for c, text in moved_formulas(cells):
                if text and c.f_type not in ("array", "dataTable"):
                    formulas.append((part.name, c.row, c.col, text))
        return values, formulas


def _g17(x) -> str:
    return repr(x) if isinstance(x, float) else str(x)


def examine(paths: list[Path], out=sys.stdout) -> dict:
    """Prints the evidence table of ``paths``; returns the counts."""
    tally = {"redone": 0, "plain": 0, "redone_equal": 0, "power": 0, "power_equal": 0,
             "power_against": [], "arithmetic": 0, "arithmetic_equal": 0, "cells": 0,
             "rules": Counter(),
             "against": {}, "cmp_cells": 0, "cmp_rules": Counter(), "cmp_against": {}}
    for path in paths:
        try:
            values, formulas = workbook_formulas(path)
        except (BadZipFile, KeyError, ValueError) as exc:
            print(f"# {path}: not read ({exc})", file=out)
            continue
        for sheet, r, c, text in formulas:
            _one_cell(path, values, sheet, r, c, text, tally, out)
    return tally


def _one_cell(path, values, sheet, r, c, text, tally, out) -> None:
    saved = values[sheet].get((r, c))
    try:
        tree = parse(text)
    except (Unsupported, IndexError, ValueError, TypeError, KeyError):
        return
    ev = Evaluator(values, sheet)
    try:
        plain = ev.value(tree, top=True)
    except (Unsupported, IndexError, ValueError, TypeError, KeyError):
        plain = Unsupported  # (a comparison met before may still decide it: IF's branch)
    where = f"{path.parent.name}/{path.name} {sheet}!{xv.num2col(c)}{r}"
    steps = [s for s in ev.steps if s.op in "+-" and cancels(s.left, s.right, s.result)]
    near = [s for s in ev.steps if s.op in COMPARISONS and s.left != s.right and
            abs(s.left - s.right) <= max(abs(s.left), abs(s.right)) * NEAR]
    if plain is Unsupported:
        if near and not steps:
            _comparison_cell(values, sheet, tree, near[0], where, text, saved, tally, out)
        return
    tally["redone"] += 1
    if not steps and not near:
        tally["plain"] += 1
        tally["redone_equal"] += _equal(plain, saved)
        if arithmetic(text):
            tally["arithmetic"] += 1
            tally["arithmetic_equal"] += _equal(plain, saved)
        if "^" in text:  # (how far Python's ** is Excel's ^: addin.engine.last_digits)
            tally["power"] += 1
            tally["power_equal"] += _equal(plain, saved)
            if not _equal(plain, saved):
                tally["power_against"].append(f"{where} ={text}: IEEE {_g17(plain)}, "
                                              f"Excel saved {_g17(saved)}")
        if saved == 0.0 and isinstance(plain, float) and plain != 0:
            print(f"ZERO {where} ={text}: IEEE {_g17(plain)}, Excel saved 0", file=out)
        return
    if steps and isinstance(saved, float):
        tally["cells"] += 1
        got = {}
        for name, rule in RULES.items():
            try:
                got[name] = Evaluator(values, sheet, rule).value(tree, top=True)
            except Unsupported:
                got[name] = None
            if _equal(got[name], saved):
                tally["rules"][name] += 1
            else:
                tally["against"].setdefault(name, []).append(where)
        s = steps[0]
        rel = abs(s.result) / max(abs(s.left), abs(s.right))
        fits = " ".join(n for n in RULES if _equal(got[n], saved)) or "-"
        print(f"SUM {where} ={text}\n    {_g17(s.left)} {s.op} {_g17(s.right)} = "
              f"{_g17(s.result)} (2^{math.log2(rel):.1f}, top={s.top}, 15 digits "
              f"{'same' if same15(s.left, s.right if s.op == '-' else -s.right) else 'differ'}"
              f"); Excel saved {_g17(saved)}; fits: {fits}", file=out)
    if near and not steps:
        _comparison_cell(values, sheet, tree, near[0], where, text, saved, tally, out)


def _comparison_cell(values, sheet, tree, s, where, text, saved, tally, out) -> None:
    """A formula whose comparison of two numbers within 2^-40 decides its value: which
    rules of equality give the value Excel saved (a formula whose value is the same
    either way says nothing and is left out)."""
    got = {}
    for name in COMPARE_RULES:
        try:
            got[name] = Evaluator(values, sheet, equal=_equality(name)).value(tree, top=True)
        except (Unsupported, IndexError, ValueError, TypeError, KeyError):
            got[name] = Unsupported  # (the branch it takes cannot be re-done)
    known = {repr(v) for v in got.values() if v is not Unsupported}
    if len(set(map(repr, got.values()))) == 1 or not known:
        return
    # a rule whose branch cannot be re-done fits where no re-done value is Excel's (the
    # value saved came from the other branch), and not where one is
    other = any(_equal(v, saved) or v == saved for v in got.values() if v is not Unsupported)
    tally["cmp_cells"] += 1
    fits = []
    for name, v in got.items():
        if (v is Unsupported and not other) or \
                (v is not Unsupported and (_equal(v, saved) or v == saved)):
            tally["cmp_rules"][name] += 1
            fits.append(name)
        else:
            tally["cmp_against"].setdefault(name, []).append(where)
    rel = abs(s.left - s.right) / max(abs(s.left), abs(s.right))
    print(f"CMP {where} ={text}\n    {_g17(s.left)} {s.op} {_g17(s.right)} "
          f"(2^{math.log2(rel):.1f}, 15 digits "
          f"{'same' if same15(s.left, s.right) else 'differ'}); Excel saved {saved!r}; "
          f"fits: {' '.join(fits) or '-'}", file=out)


def _equal(got, saved) -> bool:
    if isinstance(got, bool) or isinstance(saved, bool):
        return got is saved or (isinstance(got, bool) and got == saved)
    if isinstance(got, float) and isinstance(saved, float):
        return got == saved or (got == 0 and saved == 0)
    return False


def summary(t: dict, out=sys.stdout) -> None:
    print(f"\nformulas re-done from saved values: {t['redone']}; without a cancelling "
          f"+/- or near comparison: {t['plain']}, {t['redone_equal']} of them equal to "
          f"Excel's to the last bit", file=out)
    print(f"  of those of numbers, references, + - * / and parentheses only: "
          f"{t['arithmetic']}, {t['arithmetic_equal']} of them equal to Excel's to the last "
          "bit", file=out)
    print(f"  of those with ^ (Python's **, the C library's pow): {t['power']}, "
          f"{t['power_equal']} of them equal to Excel's to the last bit"
          + (f"; not: {'; '.join(t['power_against'][:2])}" if t["power_against"] else ""),
          file=out)
    print(f"cells with a +/- cancelling within 2^-40: {t['cells']}", file=out)
    for name in RULES:
        against = t["against"].get(name, [])
        print(f"  {name:6} reproduces {t['rules'][name]:4}, not {len(against):4}"
              + (f"  e.g. {', '.join(against[:3])}" if against else ""), file=out)
    print(f"cells whose value a comparison of two numbers within 2^-40 decides: "
          f"{t['cmp_cells']}", file=out)
    for name in COMPARE_RULES:
        against = t["cmp_against"].get(name, [])
        print(f"  {name:6} reproduces {t['cmp_rules'][name]:4}, not {len(against):4}"
              + (f"  e.g. {', '.join(against[:3])}" if against else ""), file=out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    a = ap.parse_args(argv)
    paths = sorted(p for f in a.folders for p in f.rglob("*")
                   if p.suffix.lower() in (".xlsx", ".xlsm"))
    summary(examine(paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
