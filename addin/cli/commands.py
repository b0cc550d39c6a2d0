"""What each ``napkin`` subcommand does once its arguments are parsed: one ``run_*``
function per subcommand, taking the parsed arguments and returning the exit status.

The parser that calls them is ``addin.cli.parser``; the shared checks of IN and OUT are
in ``addin.cli.paths``.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import sys
import unicodedata
from pathlib import Path

from addin.cli.paths import (
    EXIT_FILE,
    EXIT_KEPT,
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    UsageError,
    atomic_path,
    check_output,
    in_out,
    os_message,
    written,
)

# --------------------------------------------------------------------------- eval


def _unknown_functions(formula: str) -> list[str]:
    """Sentences for the functions of ``formula`` that neither Excel nor napkin has."""
    from addin.engine.support import known_functions, unknown_functions
    from addin.formula import calls

    registry = calls.registry(None)
    out = []
    for name in unknown_functions(formula, known_functions(registry)):
        near = calls.suggest(name.upper().removeprefix("_XLFN."), registry)
        hint = f": did you mean {near}?" if near else ": check its spelling"
        out.append(f"{name} is not a function (neither Excel's nor napkin's){hint}")
    return out


_FULLWIDTH_HINTS = {"；": ",", "，": ",", "、": ","}


def _parse_problem(formula: str) -> str:
    """Why ``formula`` does not parse, with the fix, as one sentence."""
    from addin.formula.formula_text import outside_strings

    outside = outside_strings(formula)
    odd = sorted({ch for ch in outside if ord(ch) > 127 and unicodedata.category(ch)[0] in "PS"})
    if odd:
        fixed = "".join(_FULLWIDTH_HINTS.get(ch, unicodedata.normalize("NFKC", ch))
                        if ch in odd else ch for ch in formula)
        names = ", ".join(f"'{ch}' ({unicodedata.name(ch, 'a symbol').lower()})" for ch in odd)
        return (f"{names} is not Excel formula syntax; separate arguments with commas and "
                f"use ASCII punctuation: {fixed}")
    if formula.count('"') % 2:
        return 'a text in double quotes is not closed: add the closing "'
    opened, closed = outside.count("("), outside.count(")")
    if opened != closed:
        return (f"the parentheses do not match ({opened} opened, {closed} closed): "
                "check where each argument list ends")
    return "it is not a formula Excel accepts: check the commas, parentheses and quotes"


def run_eval(args) -> int:
    from addin.engine.formula_eval import CompileFailure, evaluate
    from addin.engine.output import format_value
    from udfs.machinery.errors import ExcelError

    rc = EXIT_OK
    for formula in args.formulas:
        try:
            value = evaluate(formula)
        except ValueError:
            print(f"napkin eval: cannot read the formula {formula}: {_parse_problem(formula)}",
                  file=sys.stderr)
            rc = EXIT_USAGE
            continue
        except CompileFailure as ex:
            print(f"napkin eval: napkin failed on the formula {formula}: compiling it raised "
                  f"{' '.join(str(ex).split())}, a bug in napkin, not in the formula: please "
                  "report it with the formula; meanwhile compute it in Excel", file=sys.stderr)
            rc = EXIT_FILE
            continue
        if isinstance(value, ExcelError) and value.code == "#NAME?" and not value.message:
            problems = _unknown_functions(formula)
            if problems:
                value = ExcelError("#NAME?", "; ".join(problems))
                rc = EXIT_USAGE
        print(format_value(value))
    return rc


# --------------------------------------------------------------------------- calc


_SHOW_RE = re.compile(r"(?P<sheet>'(?:[^']|'')+'|[^'!]+)!(?P<area>\$?[A-Za-z]{1,3}\$?\d+"
                      r"(?::\$?[A-Za-z]{1,3}\$?\d+)?)")
MAX_SHOW_CELLS = 10_000


def parse_show(specs, src: Path) -> list[tuple[str, str, tuple[int, int, int, int]]]:
    """Check ``--show`` ranges against IN before anything is computed: (sheet, area text,
    (r1, c1, r2, c2)) each, or UsageError naming the range and the fix."""
    if not specs:
        return []
    from zipfile import ZipFile

    from addin.ooxml import guard
    from addin.ooxml import xlsx_values as xv

    out = []
    for spec in specs:
        m = _SHOW_RE.fullmatch(spec.strip())
        if not m:
            raise UsageError(f"--show {spec}: give a sheet and a range of cells, e.g. "
                             "--show 'Sizing!A4:B9' (quote it for the shell)")
        sheet = m.group("sheet")
        if sheet.startswith("'"):
            sheet = sheet[1:-1].replace("''", "'")
        area = xv.parse_area(m.group("area").replace("$", ""))
        r1, c1, r2, c2 = area
        if r2 > xv.MAX_ROW or c2 > xv.MAX_COL:
            raise UsageError(f"--show {spec}: that range is beyond the last cell of a sheet "
                             "(XFD1048576)")
        if (r2 - r1 + 1) * (c2 - c1 + 1) > MAX_SHOW_CELLS:
            raise UsageError(f"--show {spec}: that is {(r2 - r1 + 1) * (c2 - c1 + 1):,} cells; "
                             f"--show prints at most {MAX_SHOW_CELLS:,}: give a smaller range, "
                             "or use --json")
        out.append((sheet, m.group("area"), area))
    guard.check_package(src)
    with ZipFile(src) as zf:
        names = [s.name for s in xv.read_book(zf).sheets]
    by_upper = {n.upper(): n for n in names}
    checked = []
    for sheet, text, area in out:
        real = by_upper.get(sheet.upper())
        if real is None:
            near = difflib.get_close_matches(sheet, names, n=1, cutoff=0.6)
            hint = f"did you mean {near[0]}? " if near else ""
            raise UsageError(f"--show {sheet}!{text}: {src.name} has no sheet named {sheet}; "
                             f"{hint}its sheets are {', '.join(names)}")
        checked.append((real, text, area))
    return checked


def run_calc(args) -> int:
    from addin.engine import budget
    from addin.engine.api import calc_workbook, to_json

    src, dst, in_place = in_out(args)
    shows = parse_show(args.show, src)
    notes: list[str] = []
    kept: list = []  # cells strict mode keeps Excel's values in (exit status 4)
    text = []

    def as_json(results):  # before OUT is written: a failure here leaves no OUT
        if args.json:
            text.append(json.dumps({k: to_json(v) for k, v in results.items()}, indent=1,
                                   ensure_ascii=False))

    with progress_bar(args) as bar, budget.raised(getattr(args, "max_work", None)):
        results = calc_workbook(src, dst, strict=not args.lenient, in_place=in_place,
                                notes=notes, kept=None if args.lenient else kept,
                                before_write=as_json, progress=bar)
    for note in notes:
        print(f"napkin calc: {note}", file=sys.stderr)
    if shows:
        _show(dst, shows)
    if args.json:
        print(text[0])
    elif not args.quiet:
        print(f"computed {len(results)} formulas: {args.input} -> "
              f"{written(src, dst, in_place)}")
    return EXIT_KEPT if kept else EXIT_OK


PROGRESS_DELAY = 0.5  # seconds before a bar appears: quick runs stay silent


class progress_bar:
    """A tqdm bar on standard error for ``progress(stage, done, total)`` callbacks, when
    standard error is a terminal and ``--quiet`` was not given; otherwise ``None``."""

    def __init__(self, args):
        self.on = not getattr(args, "quiet", False) and sys.stderr.isatty()
        self.bar, self.stage = None, None

    def __enter__(self):
        return self if self.on else None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage != self.stage:
            from tqdm import tqdm

            self._close()
            self.stage = stage
            self.bar = tqdm(total=total, desc=f"napkin: {stage}", unit=" formulas",
                            file=sys.stderr, leave=False, delay=PROGRESS_DELAY,
                            dynamic_ncols=True)
        self.bar.update(done - self.bar.n)

    def _close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __exit__(self, *exc):
        self._close()
        return False


def _show(path, shows) -> None:
    """Print the cells of each checked ``--show`` range of the computed workbook, one row
    a line, as a reader sees them (values, not formulas)."""
    import openpyxl

    from addin.formula.formula_text import quote_sheet

    wb = openpyxl.load_workbook(path, data_only=True, read_only=True)
    try:
        for sheet, text, (r1, c1, r2, c2) in shows:
            ws = wb[sheet]
            label = sheet if re.fullmatch(r"[A-Za-z_][\w.]*", sheet) else quote_sheet(sheet)
            print(f"{label}!{text}")
            for row in ws.iter_rows(min_row=r1, max_row=r2, min_col=c1, max_col=c2):
                values = [getattr(c, "value", None) for c in row]
                if all(v is None for v in values):
                    continue
                print("  " + "\t".join(_shown(getattr(c, "value", None),
                                              getattr(c, "number_format", "General"))
                                       for c in row))
    finally:
        wb.close()


def _shown(v, number_format: str = "General") -> str:
    """A cell for reading: numbers to 6 significant digits (the file keeps them all),
    with the unit its number format shows (0.00 "GB" -> GB, 0% -> %)."""
    from addin.engine.api import format_value

    if v is None:
        return ""
    if isinstance(v, int | float) and not isinstance(v, bool):
        section = number_format.split(";")[0]
        if section.rstrip().endswith("%"):
            return f"{v * 100:.4g} %"
        unit = " ".join(re.findall(r'"([^"]*)"', section)).strip()
        text = f"{v:,.6g}" if abs(v) < 1e15 else f"{v:.6g}"
        return f"{text} {unit}".rstrip()
    return format_value(v)


# --------------------------------------------------------------------------- freeze


def run_freeze(args) -> int:
    from addin.transform.freeze import freeze

    src, dst, in_place = in_out(args)
    n = freeze(src, dst)
    if not args.quiet:
        print(f"froze {n} cells calling napkin functions: {args.input} -> "
              f"{written(src, dst, in_place)}")
    return EXIT_OK


def run_unfreeze(args) -> int:
    from addin.transform.freeze import unfreeze

    src, dst, in_place = in_out(args)
    n = unfreeze(src, dst)
    if not args.quiet:
        print(f"restored {n} formulas: {args.input} -> {written(src, dst, in_place)}")
    return EXIT_OK


def run_native(args) -> int:
    from addin.transform.native import native

    src, dst, in_place = in_out(args)
    r = native(src, dst, strict=args.strict, in_place=in_place)
    if not args.quiet:
        n = len(r.translated)
        print(f"translated {n} formula{'' if n == 1 else 's'} into Excel's own functions: "
              f"{args.input} -> {written(src, dst, in_place)}")
    if r.frozen:
        print(f"{len(r.frozen)} cell{'' if len(r.frozen) == 1 else 's'} became values "
              "(no spreadsheet formula can say them; --strict refuses instead):")
        for cell, reason in r.frozen.items():
            print(f"  {cell}: {reason}")
    return EXIT_OK


def write_native_edition(path) -> Path:
    """The template's native edition at ``path`` (``napkin template --native``): built with
    its Start sheet for any spreadsheet program, every napkin call translated into Excel's
    own functions (``addin.transform.native``), no Lite code, the template's fixed dates."""
    from addin.routes.embed import fix_dates, write_template
    from addin.transform.native import native

    path = write_template(path, native=True)
    native(path, path, in_place=True, backup=False)
    fix_dates(path)
    return Path(path)


def run_template(args) -> int:
    from addin.routes.embed import write_template

    dst = check_output(args.output, suffixes=(".xlsx",))
    tmp = atomic_path(dst)
    try:
        if args.native and args.addin:
            raise CliError("--native and --addin are two editions of the template; "
                           "give one of them")
        if args.native:
            write_native_edition(tmp)
        else:
            write_template(tmp, stored=not args.addin)
        os.replace(tmp, dst)
    except OSError as exc:
        raise CliError(os_message(OSError(exc.errno, exc.strerror, str(args.output)))) \
            from None
    finally:
        if tmp.exists():
            tmp.unlink()
    print(f"wrote {args.output}")
    return EXIT_OK


def run_lite(args) -> int:
    from addin.routes.lite import write_bundle

    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise CliError(f"{out} exists and is not a folder: give a folder for the bundle "
                       "(it gets main.py and requirements.txt)")
    if not out.exists():
        check_output(out, suffixes=())  # its parent must exist
    else:
        for name in ("main.py", "requirements.txt"):
            check_output(out / name, suffixes=())
    for path in write_bundle(out):
        print(f"wrote {path}")
    return EXIT_OK


def run_embed(args) -> int:
    from addin.routes.embed import embed

    src, dst, in_place = in_out(args)
    done = embed(src, dst, in_place=in_place, replace=args.replace)
    if not args.quiet:
        print(f"{done} napkin's xlwings Lite code: {args.input} -> "
              f"{written(src, dst, in_place)} (open it in Excel with the xlwings Lite "
              "add-in and the napkin functions compute)")
    return EXIT_OK


def run_addin(args) -> int:
    from addin.routes.install import install

    return install(dry_run=args.dry_run)


def run_addin_uninstall(args) -> int:
    from addin.routes.install import uninstall

    return uninstall()


def run_bench(args) -> int:
    from addin.cli.bench import run

    return run(args)
