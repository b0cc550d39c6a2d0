"""The ``napkin`` command: LLM-inference napkin math in spreadsheets, computed without Excel.

Every subcommand reads what it is given and writes only the file it is asked to write.
The checks of paths are shared (:func:`add_in_out`, :func:`in_out`, :func:`check_input`,
:func:`check_output`) so that a new subcommand gets the same rules:

* IN must be a regular file (a symbolic link is followed); folders, devices and pipes
  are refused.
* OUT must end in ``.xlsx`` or ``.xlsm`` (the same as IN's), and be a new path or a
  regular file. A symbolic link is followed: the file it points to is written and the
  link stays. Folders, devices, pipes and a folder that does not exist are refused.
* ``--in-place`` writes over IN (its link target, for a link), keeping ``IN.bak``.

Exit status: 0 done (an Excel error value in a cell is a result, not a failure); 1 a
file could not be read or written, or a workbook was refused; 2 misuse (a bad option, a
formula that does not parse, a function that does not exist); 3 ``napkin bench``: a
target was missed.
"""

from __future__ import annotations

import argparse
import difflib
import errno
import json
import os
import re
import stat
import sys
import unicodedata
from pathlib import Path

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")

EXIT_OK, EXIT_FILE, EXIT_USAGE, EXIT_BENCH_MISS = 0, 1, 2, 3

SUMMARY = ("napkin: LLM-inference napkin math (memory, speed, cost) as spreadsheet "
           "functions, and a command line that computes such workbooks without Excel.")

EPILOG = """\
examples:
  napkin eval '=RIDGE(989,3.35)' '=WEIGHT_GB("70B","FP8")'
  napkin calc book.xlsx -o book-computed.xlsx --show 'Sizing!A4:B9'
  napkin calc book.xlsx --in-place          (keeps book.xlsx.bak)
  napkin native book.xlsx -o book-live.xlsx (Excel's own formulas: live without napkin)
  napkin template -o napkin.xlsx

files:
  napkin reads IN and writes only OUT (or IN itself with --in-place). OUT is written to a
  temporary file beside it and renamed, so an interrupted run leaves no half-written file.
  A symbolic link is followed (its target is written, the link stays); folders, devices,
  pipes and folders that do not exist are refused.

exit status:
  0  done (an Excel error value such as #NUM! in a cell is a result, not a failure)
  1  a file could not be read or written, or a workbook was refused
  2  misuse: a bad option, a formula that does not parse, a function that does not exist
  3  napkin bench: a speed or memory target was missed
"""


# --------------------------------------------------------------------------- errors


class CliError(Exception):
    """A problem the user can fix; the message is one sentence with the fix."""

    code = EXIT_FILE


class UsageError(CliError):
    """The command line itself is wrong (exit 2, as argparse's own errors)."""

    code = EXIT_USAGE


_OS_FIX = {
    errno.EACCES: "check its permissions, or choose another path",
    errno.EPERM: "check its permissions, or choose another path",
    errno.ENOSPC: "free some disk space and run again",
    errno.EROFS: "that file system is read-only: choose another path",
    errno.ENOENT: "check the path",
    errno.EISDIR: "give the path of a file, not a folder",
    errno.ENOTDIR: "a part of the path is a file, not a folder: check the path",
    errno.EDQUOT: "your disk quota is full: free some space and run again",
    errno.ENAMETOOLONG: "choose a shorter name",
}


def os_message(exc: OSError) -> str:
    """An OSError as one sentence: the file, what went wrong, what to do."""
    what = (exc.strerror or "input/output error").rstrip(".")
    what = what[0].lower() + what[1:] if what else what
    name = f"{exc.filename}: " if exc.filename else ""
    fix = _OS_FIX.get(exc.errno, "check the path and run again")
    return f"{name}{what}; {fix}"


# --------------------------------------------------------------------------- paths


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_input(path, what: str = "IN") -> Path:
    """The regular file ``path`` names (a symbolic link followed), or CliError."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        if p.is_symlink():
            raise CliError(f"{p} is a symbolic link to {os.readlink(p)}, which does not "
                           "exist: fix the link or give the workbook itself") from None
        near = _near_names(p)
        hint = f": did you mean {near}?" if near else ": check the name and the folder"
        raise CliError(f"{p} does not exist{hint}") from None
    except OSError as exc:
        raise CliError(os_message(OSError(exc.errno, exc.strerror, str(p)))) from None
    if not stat.S_ISREG(st.st_mode):
        fix = ("give the path of a workbook inside it" if stat.S_ISDIR(st.st_mode)
               else "napkin reads workbooks from regular files only")
        raise CliError(f"{p} is {_kind(st.st_mode)}, not a workbook: {fix}")
    if not os.access(p, os.R_OK):
        raise CliError(f"{p}: permission denied; check its permissions")
    return p


def _near_names(p: Path) -> str | None:
    try:
        names = [q.name for q in p.parent.iterdir()] if p.parent.is_dir() else []
    except OSError:
        return None
    close = difflib.get_close_matches(p.name, names, n=1, cutoff=0.75)
    return str(p.with_name(close[0])) if close else None


def check_output(path, suffixes=WORKBOOK_SUFFIXES, what: str = "OUT") -> Path:
    """The path to write for ``path``: itself, or the target of a symbolic link. Refuses
    (CliError) a wrong suffix (exit 2), folders, devices, pipes, a dangling link and a
    folder that does not exist (exit 1)."""
    p = Path(path)
    real = p
    if p.is_symlink():
        real = Path(os.path.realpath(p))
        if not real.exists():
            raise CliError(f"{p} is a symbolic link to {real}, which does not exist: "
                           "fix the link, or give another path")
    try:
        st = real.stat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise CliError(os_message(OSError(exc.errno, exc.strerror, str(p)))) from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        fix = (f"give the path of a file inside it, e.g. {p / ('out' + (suffixes or ('',))[0])}"
               if stat.S_ISDIR(st.st_mode) else "napkin writes only regular files: "
               "give another path")
        raise CliError(f"{p} is {_kind(st.st_mode)}: {fix}")
    if suffixes and p.suffix.lower() not in suffixes:
        names = " or ".join(suffixes)
        example = (p.stem or "out") + suffixes[0]
        raise UsageError(f"{p}: {what} must be named {names}, since napkin writes an Excel "
                         f"workbook there (for example -o {example})")
    parent = real.parent
    if not parent.exists():
        raise CliError(f"the folder {parent} does not exist: create it first "
                       f"(mkdir -p '{parent}') or choose another path")
    if not parent.is_dir():
        raise CliError(f"{parent} is not a folder: check the path of {what}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise CliError(f"cannot write in the folder {parent}: permission denied; "
                       "choose another folder")
    return real


def add_in_out(p: argparse.ArgumentParser, verb: str = "write the result") -> None:
    """IN.xlsx, then either ``-o OUT.xlsx`` or ``--in-place`` (checked by :func:`in_out`)."""
    p.add_argument("input", metavar="IN.xlsx", help="the workbook to read (.xlsx or .xlsm)")
    p.add_argument("-o", "--output", metavar="OUT.xlsx",
                   help=f"{verb} to this new workbook (same suffix as IN; a link is "
                        "followed to its target); IN is never changed")
    p.add_argument("--in-place", action="store_true",
                   help=f"{verb} over IN itself, keeping a copy as IN.bak")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bar and no summary line (errors are still printed)")


def in_out(args) -> tuple[Path, Path, bool]:
    """(IN, OUT, in_place) checked: IN readable, OUT writable (see :func:`check_output`)."""
    if bool(args.in_place) == bool(args.output):
        both = "not both" if args.in_place else "one of them"
        raise UsageError(f"give either -o OUT.xlsx or --in-place ({both}): "
                         f"napkin {args.command} {args.input} -o OUT.xlsx")
    src = check_input(args.input)
    if args.in_place:
        real = Path(os.path.realpath(src))
        check_output(real, suffixes=(), what="IN")
        return real, real, True
    dst = check_output(args.output)
    src_suffix = src.suffix.lower()
    if src_suffix in WORKBOOK_SUFFIXES and Path(args.output).suffix.lower() != src_suffix:
        raise UsageError(f"{args.output}: IN is {src_suffix} and Excel opens a workbook only "
                         f"under its own suffix: name OUT {src_suffix} "
                         f"(-o {Path(args.output).with_suffix(src_suffix).name})")
    if dst.exists() and os.path.samefile(src, dst):
        raise UsageError(f"{args.output} is IN itself: to write over it, use --in-place "
                         "(which keeps IN.bak), or give another -o")
    return src, dst, False


def _written(src: Path, dst: Path, in_place: bool) -> str:
    return f"{dst} (was kept as {dst.name}.bak)" if in_place else str(dst)


# --------------------------------------------------------------------------- eval


_STRING = re.compile(r'"(?:[^"]|"")*"')


def _unknown_functions(formula: str) -> list[str]:
    """Sentences for the functions of ``formula`` that neither Excel nor napkin has."""
    from . import calls, fx
    from .formula_text import called_functions

    registry = calls.registry(None)
    known = fx.function_names() | set(registry)
    out = []
    for name in called_functions(formula):
        key = name.upper().removeprefix("_XLFN.")
        if key in known or f"_XLFN.{key}" in known:
            continue
        near = calls.suggest(key, registry)
        hint = f": did you mean {near}?" if near else ": check its spelling"
        out.append(f"{name} is not a function (neither Excel's nor napkin's){hint}")
    return out


_FULLWIDTH_HINTS = {"；": ",", "，": ",", "、": ","}


def _parse_problem(formula: str) -> str:
    """Why ``formula`` does not parse, with the fix, as one sentence."""
    outside = _STRING.sub('""', formula)
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


def _eval(args) -> int:
    from udfs.errors import ExcelError

    from .engine import evaluate, format_value

    rc = EXIT_OK
    for formula in args.formulas:
        try:
            value = evaluate(formula)
        except ValueError:
            print(f"napkin eval: cannot read the formula {formula}: {_parse_problem(formula)}",
                  file=sys.stderr)
            rc = EXIT_USAGE
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

    from . import guard
    from . import xlsx_values as xv

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


def _calc(args) -> int:
    from .engine import calc_workbook, to_json

    src, dst, in_place = in_out(args)
    shows = parse_show(args.show, src)
    notes: list[str] = []
    text = []

    def as_json(results):  # before OUT is written: a failure here leaves no OUT
        if args.json:
            text.append(json.dumps({k: to_json(v) for k, v in results.items()}, indent=1,
                                   ensure_ascii=False))

    with progress_bar(args) as bar:
        results = calc_workbook(src, dst, strict=not args.lenient, in_place=in_place,
                                notes=notes, before_write=as_json, progress=bar)
    for note in notes:
        print(f"napkin calc: {note}", file=sys.stderr)
    if shows:
        _show(dst, shows)
    if args.json:
        print(text[0])
    elif not args.quiet:
        print(f"computed {len(results)} formulas: {args.input} -> "
              f"{_written(src, dst, in_place)}")
    return EXIT_OK


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

    from .formula_text import quote_sheet

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
    from .engine import format_value

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


def _freeze(args) -> int:
    from .freeze import freeze

    src, dst, in_place = in_out(args)
    n = freeze(src, dst)
    if not args.quiet:
        print(f"froze {n} cells calling napkin functions: {args.input} -> "
              f"{_written(src, dst, in_place)}")
    return EXIT_OK


def _unfreeze(args) -> int:
    from .freeze import unfreeze

    src, dst, in_place = in_out(args)
    n = unfreeze(src, dst)
    if not args.quiet:
        print(f"restored {n} formulas: {args.input} -> {_written(src, dst, in_place)}")
    return EXIT_OK


def _native(args) -> int:
    from .native import native

    src, dst, in_place = in_out(args)
    r = native(src, dst, strict=args.strict, in_place=in_place)
    if not args.quiet:
        n = len(r.translated)
        print(f"translated {n} formula{'' if n == 1 else 's'} into Excel's own functions: "
              f"{args.input} -> {_written(src, dst, in_place)}")
    if r.frozen:
        print(f"{len(r.frozen)} cell{'' if len(r.frozen) == 1 else 's'} became values "
              "(no spreadsheet formula can say them; --strict refuses instead):")
        for cell, reason in r.frozen.items():
            print(f"  {cell}: {reason}")
    return EXIT_OK


# --------------------------------------------------------------------------- others


def atomic_path(dst: Path) -> Path:
    """A temporary name beside ``dst`` for a writer that cannot write atomically itself;
    :func:`os.replace` it over ``dst`` when done."""
    import secrets

    return dst.with_name(f".{dst.stem}.{secrets.token_hex(6)}.tmp{dst.suffix}")


def _template(args) -> int:
    from .embed import write_template

    dst = check_output(args.output, suffixes=(".xlsx",))
    tmp = atomic_path(dst)
    try:
        write_template(tmp)  # built, computed, with the xlwings Lite code
        os.replace(tmp, dst)
    except OSError as exc:
        raise CliError(os_message(OSError(exc.errno, exc.strerror, str(args.output)))) \
            from None
    finally:
        if tmp.exists():
            tmp.unlink()
    print(f"wrote {args.output}")
    return EXIT_OK


def _lite(args) -> int:
    from .lite import write_bundle

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


def _embed(args) -> int:
    from .embed import embed

    src, dst, in_place = in_out(args)
    done = embed(src, dst, in_place=in_place, replace=args.replace)
    if not args.quiet:
        print(f"{done} napkin's xlwings Lite code: {args.input} -> "
              f"{_written(src, dst, in_place)} (open it in Excel with the xlwings Lite "
              "add-in and the napkin functions compute)")
    return EXIT_OK


def _addin(args) -> int:
    from .install import install

    return install(dry_run=args.dry_run)


def _addin_uninstall(args) -> int:
    from .install import uninstall

    return uninstall()


def _bench(args) -> int:
    from .bench import run

    return run(args)


# --------------------------------------------------------------------------- parser


class _Help(argparse.RawDescriptionHelpFormatter):
    def __init__(self, prog):
        super().__init__(prog, max_help_position=30)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="napkin", description=SUMMARY, epilog=EPILOG,
                                formatter_class=_Help)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    e = sub.add_parser("eval", help="evaluate Excel formulas, ours and Excel's own",
                       description="Evaluate each formula and print its value, one line "
                       "each: numbers at full precision, TRUE/FALSE, text, or an error value "
                       "with its message. There is no workbook: references are empty cells.",
                       epilog="example: napkin eval '=RIDGE(989,3.35)*2' "
                       "'=FITS(WEIGHT_GB(70E9,\"FP8\"),80)'", formatter_class=_Help)
    e.add_argument("formulas", nargs="+", metavar="FORMULA",
                   help="an Excel formula such as '=RIDGE(989,3.35)*2' (the leading = is "
                        "optional; quote it for the shell)")
    e.set_defaults(run=_eval)

    c = sub.add_parser("calc", help="compute every formula of a workbook, without Excel",
                       description="Compute every formula of IN and write the results as "
                       "cached values into OUT, so that anyone opening it sees the numbers. "
                       "Only the values of formula cells change; charts, macros and the "
                       "rest are copied unchanged.",
                       epilog="example: napkin calc book.xlsx -o book-computed.xlsx "
                       "--show 'Sizing!A4:B9'", formatter_class=_Help)
    add_in_out(c, "write the computed workbook")
    c.add_argument("--json", action="store_true",
                   help='print every formula cell\'s value as JSON: {"Sheet!A1": value, ...}')
    c.add_argument("--lenient", action="store_true",
                   help="compute even with circular references or unknown functions (those "
                        "cells get #VALUE! / #NAME?) instead of refusing the workbook; cells "
                        "napkin cannot compute as Excel does (table, 3-D and external "
                        "references, ...) keep the values Excel saved, and it says which")
    c.add_argument("--show", action="append", metavar="SHEET!A1:B9",
                   help="print these cells of the computed workbook; repeat for more ranges")
    c.set_defaults(run=_calc)

    f = sub.add_parser("freeze", help="replace our formulas by their values, for sharing",
                       description="Compute IN, then replace every formula that calls a "
                       "napkin function by its value, so people without the add-in see "
                       "numbers; `napkin unfreeze` puts the formulas back.",
                       formatter_class=_Help)
    add_in_out(f, "write the frozen workbook")
    f.set_defaults(run=_freeze)
    u = sub.add_parser("unfreeze", help="put back the formulas that freeze replaced",
                       formatter_class=_Help)
    add_in_out(u, "write the restored workbook")
    u.set_defaults(run=_unfreeze)

    n = sub.add_parser("native", help="turn our formulas into Excel's own, so the workbook "
                       "recalculates without the add-in",
                       description="Compute IN, then turn every call of a napkin function "
                       "into a formula of Excel's own functions (tables on a hidden sheet), "
                       "so the workbook recalculates in Excel without the add-in, "
                       "LibreOffice or Google Sheets. Cells no formula can say become their "
                       "values and are listed.", formatter_class=_Help)
    add_in_out(n, "write the live workbook")
    n.add_argument("--strict", action="store_true",
                   help="refuse the workbook if a cell cannot be translated (default: it "
                        "becomes its value and is listed)")
    n.set_defaults(run=_native)

    t = sub.add_parser("template", help="write the template workbook",
                       formatter_class=_Help)
    t.add_argument("-o", "--output", default="napkin.xlsx", metavar="OUT.xlsx",
                   help="where to write it (default: napkin.xlsx in this folder)")
    t.set_defaults(run=_template)

    li = sub.add_parser("lite", help="write the xlwings Lite bundle (main.py, requirements.txt)",
                        formatter_class=_Help)
    li.add_argument("-o", "--output", default="napkin-lite", metavar="DIR",
                    help="the folder to write main.py and requirements.txt into "
                         "(default: napkin-lite; created if its parent exists)")
    li.set_defaults(run=_lite)

    em = sub.add_parser("embed", help="put napkin's xlwings Lite code inside a workbook",
                        description="Store napkin's main.py and requirements.txt in IN the "
                        "way xlwings Lite keeps a workbook's code, so that Excel with the "
                        "xlwings Lite add-in computes the napkin functions; every other "
                        "part of IN is kept.", formatter_class=_Help)
    add_in_out(em, "write the workbook with the Lite code")
    em.add_argument("--replace", action="store_true",
                    help="replace xlwings Lite code that is not napkin's (refused otherwise)")
    em.set_defaults(run=_embed)

    a = sub.add_parser("addin", help="set up the xlwings add-in (Windows desktop Excel)",
                       formatter_class=_Help)
    asub = a.add_subparsers(dest="action", required=True, metavar="ACTION")
    ai = asub.add_parser("install", help="set up what can be set up, print the rest")
    ai.add_argument("--dry-run", action="store_true", help="only print the steps")
    ai.set_defaults(run=_addin)
    au = asub.add_parser("uninstall", help="restore the xlwings user config as it was")
    au.set_defaults(run=_addin_uninstall)

    from .bench import add_arguments as bench_arguments

    b = sub.add_parser("bench", help="speed and memory, each as a ratio to a baseline",
                       description="Measure napkin's speed and memory against baselines run "
                       "in the same process (medians of repeats). Exit status 3 when a "
                       "target is missed.", formatter_class=_Help)
    bench_arguments(b)
    b.set_defaults(run=_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    import warnings

    args = parser().parse_args(argv)
    # numpy's "overflow encountered" and the like: the cell says #NUM! with its message
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    from .guard import WorkbookError

    where = f"napkin {args.command}"
    try:
        return args.run(args)
    except CliError as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        return exc.code
    except WorkbookError as exc:  # refused workbooks: the message names file and problem
        print(f"{where}: {' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_FILE
    except OSError as exc:
        print(f"{where}: {os_message(exc)}", file=sys.stderr)
        return EXIT_FILE
    except ValueError as exc:  # a workbook napkin cannot make sense of
        name = getattr(args, "input", None)
        print(f"{where}: cannot process {name}: {' '.join(str(exc).split())}" if name else
              f"{where}: {' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_FILE
    except KeyboardInterrupt:
        print(f"{where}: interrupted; nothing was written", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a damaged file must not print a traceback
        print(f"{where}: napkin could not process this input ({type(exc).__name__}); "
              "please report it with the file", file=sys.stderr)
        return EXIT_FILE


if __name__ == "__main__":
    sys.exit(main())
