"""The ``napkin`` command: LLM-inference napkin math in spreadsheets, computed without Excel.

Every subcommand reads what it is given and writes only the file it is asked to write.
The checks of paths are shared (``add_in_out``, ``in_out``, ``check_input``,
``check_output``, in ``addin.cli.paths``) so that a new subcommand gets the same
rules:

* IN must be a regular file (a symbolic link is followed); folders, devices and pipes
  are refused.
* OUT must end in ``.xlsx`` or ``.xlsm`` (the same as IN's), and be a new path or a
  regular file. A symbolic link is followed: the file it points to is written and the
  link stays. Folders, devices, pipes and a folder that does not exist are refused.
* ``--in-place`` writes over IN (its link target, for a link), keeping ``IN.bak``.

Exit status: 0 done (an Excel error value in a cell is a result, not a failure); 1 a
file could not be read or written, or a workbook was refused; 2 misuse (a bad option, a
formula that does not parse, a function that does not exist); 3 ``napkin bench``: a
target was missed; 4 ``napkin calc``: computed and written, but some cells keep the
values Excel saved (strict mode does not compute them, and no value it computed depends
on them; standard error lists them).

This module is the parser and ``main``; what each subcommand does is in
``addin.cli.commands``.
"""

from __future__ import annotations

import argparse
import sys

from addin.cli.commands import (
    run_addin,
    run_addin_uninstall,
    run_bench,
    run_calc,
    run_embed,
    run_eval,
    run_freeze,
    run_lite,
    run_native,
    run_template,
    run_unfreeze,
)
from addin.cli.paths import (  # noqa: F401 - the shared checks, also named here for subcommands
    EXIT_BENCH_MISS,
    EXIT_FILE,
    EXIT_KEPT,
    EXIT_OK,
    EXIT_USAGE,
    WORKBOOK_SUFFIXES,
    CliError,
    UsageError,
    add_in_out,
    check_input,
    check_output,
    in_out,
    os_message,
)

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
  4  napkin calc: OUT is written, but some cells keep the values Excel saved in IN, as
     strict mode does not compute them and no value it computed reads them (standard
     error lists them, one line per cause; docs/fidelity.md says when napkin does this)
"""


# --------------------------------------------------------------------------- parser


def _units(text: str) -> int:
    """``--max-work``'s UNITS: a whole number of units, 1,000,000 or 1000000."""
    try:
        units = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of units "
                                         "(e.g. 100000000)") from None
    if units <= 0:
        raise argparse.ArgumentTypeError(f"{text} is not a number of units above 0")
    return units


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
    e.set_defaults(run=run_eval)

    c = sub.add_parser("calc", help="compute every formula of a workbook, without Excel",
                       description="Compute every formula of IN and write the results as "
                       "cached values into OUT, so that anyone opening it sees the numbers. "
                       "Only the values of formula cells change; charts, macros and the "
                       "rest are copied unchanged. A cell napkin has not checked against "
                       "Excel (a function, a form of argument, a link to another workbook, "
                       "a circular reference...) keeps the value Excel saved, and so do the "
                       "cells that read it, when the values they read are the ones Excel "
                       "computed them from: standard error lists those cells and the exit "
                       "status is 4; otherwise the workbook is refused (exit status 1) "
                       "with the cell, the cause and the fix.",
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
    c.add_argument("--max-work", type=_units, metavar="UNITS",
                   help="compute a workbook past the work limit, up to UNITS (default "
                        "25,000,000; a unit is about a microsecond of CPU, and memory grows "
                        "with it): for a large workbook napkin refused, knowing it takes longer")
    c.set_defaults(run=run_calc)

    f = sub.add_parser("freeze", help="replace our formulas by their values, for sharing",
                       description="Compute IN, then replace every formula that calls a "
                       "napkin function by its value, so people without the add-in see "
                       "numbers; `napkin unfreeze` puts the formulas back.",
                       formatter_class=_Help)
    add_in_out(f, "write the frozen workbook")
    f.set_defaults(run=run_freeze)
    u = sub.add_parser("unfreeze", help="put back the formulas that freeze replaced",
                       formatter_class=_Help)
    add_in_out(u, "write the restored workbook")
    u.set_defaults(run=run_unfreeze)

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
    n.set_defaults(run=run_native)

    t = sub.add_parser("template", help="write the template workbook",
                       formatter_class=_Help)
    t.add_argument("-o", "--output", default="napkin.xlsx", metavar="OUT.xlsx",
                   help="where to write it (default: napkin.xlsx in this folder)")
    t.add_argument("--addin", action="store_true",
                   help="for the classic xlwings add-in: napkin's calls by their plain "
                        "names (RIDGE(...)), which its VBA wrappers define; by default "
                        "they are in the form Excel stores an xlwings Lite function's "
                        "(_xldudf_RIDGE(...))")
    t.add_argument("--native", action="store_true",
                   help="the native edition, for any spreadsheet program: napkin's calls "
                        "translated into Excel's own functions (as napkin native does), no "
                        "Lite code, a Start sheet that says so")
    t.set_defaults(run=run_template)

    li = sub.add_parser("lite", help="write the xlwings Lite bundle (main.py, requirements.txt)",
                        formatter_class=_Help)
    li.add_argument("-o", "--output", default="napkin-lite", metavar="DIR",
                    help="the folder to write main.py and requirements.txt into "
                         "(default: napkin-lite; created if its parent exists)")
    li.set_defaults(run=run_lite)

    em = sub.add_parser("embed", help="put napkin's xlwings Lite code inside a workbook",
                        description="Store napkin's main.py and requirements.txt in IN the "
                        "way xlwings Lite keeps a workbook's code, so that Excel with the "
                        "xlwings Lite add-in computes the napkin functions, and write IN's "
                        "calls of them in the form Excel stores a Lite function's "
                        "(RIDGE( -> _xldudf_RIDGE(); everything else of IN is kept.",
                        formatter_class=_Help)
    add_in_out(em, "write the workbook with the Lite code")
    em.add_argument("--replace", action="store_true",
                    help="replace xlwings Lite code that is not napkin's (refused otherwise)")
    em.set_defaults(run=run_embed)

    a = sub.add_parser("addin", help="set up the xlwings add-in (Windows desktop Excel)",
                       formatter_class=_Help)
    asub = a.add_subparsers(dest="action", required=True, metavar="ACTION")
    ai = asub.add_parser("install", help="set up what can be set up, print the rest")
    ai.add_argument("--dry-run", action="store_true", help="only print the steps")
    ai.set_defaults(run=run_addin)
    au = asub.add_parser("uninstall", help="restore the xlwings user config as it was")
    au.set_defaults(run=run_addin_uninstall)

    from addin.cli.bench import add_arguments as bench_arguments

    b = sub.add_parser("bench", help="speed and memory, each as a ratio to a baseline",
                       description="Measure napkin's speed and memory against baselines run "
                       "in the same process (medians of repeats). Exit status 3 when a "
                       "target is missed.", formatter_class=_Help)
    bench_arguments(b)
    b.set_defaults(run=run_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    import warnings

    args = parser().parse_args(argv)
    # numpy's "overflow encountered" and the like: the cell says #NUM! with its message
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    where = f"napkin {args.command}"
    try:
        return args.run(args)
    except CliError as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        return exc.code
    except OSError as exc:
        print(f"{where}: {os_message(exc)}", file=sys.stderr)
        return EXIT_FILE
    except ValueError as exc:  # a workbook napkin refuses, or cannot make sense of
        # guard.WorkbookError (a ValueError) names file and problem. guard is looked up,
        # not imported: only a loaded guard raises it, and napkin eval never loads it
        guard = sys.modules.get("addin.ooxml.guard")
        if guard is not None and isinstance(exc, guard.WorkbookError):
            print(f"{where}: {' '.join(str(exc).split())}", file=sys.stderr)
            return EXIT_FILE
        name = getattr(args, "input", None)
        print(f"{where}: cannot process {name}: {' '.join(str(exc).split())}" if name else
              f"{where}: {' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_FILE
    except KeyboardInterrupt:
        print(f"{where}: interrupted; nothing was written", file=sys.stderr)
        return 130
    except MemoryError:  # past the memory this process may take (a limit, not a fault)
        print(f"{where}: the input needs more memory than napkin was given (MemoryError); "
              "nothing was written", file=sys.stderr)
        return EXIT_FILE
    except RecursionError:
        print(f"{where}: the input nests deeper than napkin follows (RecursionError); "
              "nothing was written", file=sys.stderr)
        return EXIT_FILE
    except Exception as exc:  # a damaged file must not print a traceback
        print(f"{where}: napkin could not process this input ({type(exc).__name__}); "
              "please report it with the file", file=sys.stderr)
        return EXIT_FILE



#: the subcommands that run for as long as they like, in one process: they keep Python's
#: cyclic garbage collector (``run``)
_LONG_RUNNING = frozenset({"bench"})


def run() -> None:
    """The ``napkin`` process (``python -m addin.cli``, the ``napkin`` script): ``main()``,
    then out at once with its exit status.

    A subcommand is one piece of work in a process of its own: it runs with Python's
    cyclic garbage collector off (``napkin bench``, which runs for minutes, keeps it), and
    the process ends with ``os._exit`` once standard output and error are flushed, without
    the interpreter's teardown. What the work leaves in memory is given back to the
    operating system whole, not freed object by object: on the template that freeing was
    about a seventh of ``napkin native``'s CPU time (its objects made while the engine
    pauses the collector, ``addin.engine.api.without_cyclic_gc``, were collected once
    more after it, then freed again at the teardown). Every file a subcommand writes is
    closed before ``main`` returns (``with`` blocks), so nothing is left unwritten."""
    import gc
    import os

    argv = sys.argv[1:]
    if not argv or argv[0] not in _LONG_RUNNING:
        gc.disable()
    code = main(argv)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (napkin ... | head): nothing to add
            pass
    os._exit(code if isinstance(code, int) else 1)
