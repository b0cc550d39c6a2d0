"""The ``napkin`` command.

    napkin eval FORMULA [FORMULA ...]        evaluate Excel formulas, one line each
    napkin calc IN.xlsx -o OUT.xlsx [--json]  compute a workbook without Excel
    napkin freeze IN.xlsx -o OUT.xlsx         our formulas -> values (for sharing)
    napkin unfreeze IN.xlsx -o OUT.xlsx       put those formulas back
    napkin template [-o PATH]                 write the template workbook
    napkin lite [-o DIR]                      write the xlwings Lite bundle
    napkin addin install                      set up the xlwings add-in route
    napkin bench [--json]                     speed and memory against baselines

Exit status: 0 when every formula was evaluated (an Excel error value is a result, not
a failure), 1 when a file could not be read or written, 2 for misuse.
"""

from __future__ import annotations

import argparse
import json
import sys


def _eval(args) -> int:
    from .engine import evaluate, format_value

    for formula in args.formulas:
        print(format_value(evaluate(formula)))
    return 0


def _output(args) -> str:
    """OUT, or IN itself with --in-place (the writers then keep IN.bak first)."""
    if args.in_place == bool(args.output):  # misuse: exit 2, as argparse does
        print(f"napkin {args.command}: give either -o OUT.xlsx or --in-place", file=sys.stderr)
        raise SystemExit(2)
    return args.input if args.in_place else args.output


def _calc(args) -> int:
    from .engine import calc_workbook, to_json

    output = _output(args)
    results = calc_workbook(args.input, output, strict=not args.lenient,
                            in_place=args.in_place)
    if args.show:
        _show(output, args.show)
    if args.json:
        json.dump({k: to_json(v) for k, v in results.items()}, sys.stdout, indent=1,
                  ensure_ascii=False)
        print()
    else:
        print(f"computed {len(results)} formulas: {args.input} -> {output}")
    return 0


def _show(path, ranges) -> None:
    """Print the cells of ``ranges`` ("Sheet!A1:B9") of the computed workbook, one row a
    line, as a reader sees them (values, not formulas)."""
    import openpyxl

    wb = openpyxl.load_workbook(path, data_only=True, read_only=True)
    try:
        for spec in ranges:
            sheet, _, cells = spec.rpartition("!")
            ws = wb[sheet.strip("'")]
            print(f"{sheet}!{cells}")
            for row in ws[cells]:
                values = [getattr(c, "value", None) for c in row]
                if all(v is None for v in values):
                    continue
                print("  " + "\t".join(_shown(getattr(c, "value", None),
                                              getattr(c, "number_format", "General"))
                                       for c in row))
    finally:
        wb.close()


def _freeze(args) -> int:
    from .freeze import freeze

    output = _output(args)
    n = freeze(args.input, output)
    print(f"froze {n} cells calling napkin functions: {args.input} -> {output}")
    return 0


def _unfreeze(args) -> int:
    from .freeze import unfreeze

    output = _output(args)
    n = unfreeze(args.input, output)
    print(f"restored {n} formulas: {args.input} -> {output}")
    return 0


def _shown(v, number_format: str = "General") -> str:
    """A cell for reading: numbers to 6 significant digits (the file keeps them all),
    with the unit its number format shows (0.00 "GB" -> GB, 0% -> %)."""
    import re

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


def _template(args) -> int:
    from workbook.build import build_template

    path = build_template(args.output)
    print(f"wrote {path}")
    return 0


def _lite(args) -> int:
    from .lite import write_bundle

    for path in write_bundle(args.output):
        print(f"wrote {path}")
    return 0


def _addin(args) -> int:
    from .install import install

    return install(dry_run=args.dry_run)


def _bench(args) -> int:
    from .bench import main as bench_main

    return bench_main(args.rest)


def _in_out(p: argparse.ArgumentParser) -> None:
    """IN.xlsx, and either -o OUT.xlsx or --in-place (checked by :func:`_output`)."""
    p.add_argument("input", metavar="IN.xlsx")
    p.add_argument("-o", "--output", metavar="OUT.xlsx")
    p.add_argument("--in-place", action="store_true",
                   help="write over IN.xlsx, keeping a copy as IN.xlsx.bak")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="napkin", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)

    e = sub.add_parser("eval", help="evaluate Excel formulas (ours and Excel's own)")
    e.add_argument("formulas", nargs="+", metavar="FORMULA",
                   help="e.g. '=RIDGE(989,3.35)*2' (the leading = is optional)")
    e.set_defaults(run=_eval)

    c = sub.add_parser("calc", help="compute a workbook and write its values")
    _in_out(c)
    c.add_argument("--json", action="store_true", help="print {\"Sheet!A1\": value, ...}")
    c.add_argument("--lenient", action="store_true",
                   help="compute even with circular references or unknown functions (those "
                        "cells get #VALUE! / #NAME?) instead of refusing the workbook")
    c.add_argument("--show", action="append", metavar="SHEET!A1:B9",
                   help="print these cells of the computed workbook (repeatable)")
    c.set_defaults(run=_calc)

    f = sub.add_parser("freeze", help="replace our formulas by their values, for sharing")
    _in_out(f)
    f.set_defaults(run=_freeze)
    u = sub.add_parser("unfreeze", help="put back the formulas that freeze replaced")
    _in_out(u)
    u.set_defaults(run=_unfreeze)

    t = sub.add_parser("template", help="write the template workbook")
    t.add_argument("-o", "--output", default="napkin.xlsx", metavar="PATH")
    t.set_defaults(run=_template)

    li = sub.add_parser("lite", help="write the xlwings Lite bundle (main.py, requirements.txt)")
    li.add_argument("-o", "--output", default="napkin-lite", metavar="DIR")
    li.set_defaults(run=_lite)

    a = sub.add_parser("addin", help="xlwings add-in route (Windows desktop Excel)")
    asub = a.add_subparsers(dest="action", required=True)
    ai = asub.add_parser("install", help="set up what can be set up, print the rest")
    ai.add_argument("--dry-run", action="store_true", help="only print the steps")
    ai.set_defaults(run=_addin)
    b = sub.add_parser("bench", help="speed and memory figures against baselines (issue 6)",
                       add_help=False)
    b.add_argument("rest", nargs=argparse.REMAINDER)
    b.set_defaults(run=_bench)
    return p


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except (OSError, ValueError) as exc:  # unreadable or unwritable files, bad workbooks
        print(f"napkin {args.command}: {_one_line(exc)}", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - a damaged file must not print a traceback
        print(f"napkin {args.command}: cannot process this input "
              f"({type(exc).__name__}: {_one_line(exc)})", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
