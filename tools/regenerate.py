"""Build the committed files that are generated, from the repository alone, and compare.

``python -m tools.regenerate`` (from the repository's root) builds all five into an empty
folder and copies each over the committed one where the two differ; after adding or
changing a function (``docs/contributing.md``, "Adding a function") it is the one command
to run:

``README.md``
    its function table, by ``udfs.docs`` (alone: ``python -m udfs.docs``), into the
    README's prose, and its list of the Excel functions checked, from their declarations
    (``addin.formula.excel_functions.write.with_checked_list``);
``docs/native.md``
    its per-function table, by ``addin.transform.native.forms`` (alone:
    ``python -m addin.transform.native.forms``), after the doc's prose;
``docs/excel-functions.md``
    its per-function table of Excel's functions (checked forms, evidence, the other
    facts), from their declarations (``addin.formula.excel_functions``; alone:
    ``python -m addin.formula.excel_functions.write``), after the doc's prose;
``workbook/napkin.xlsx``
    the template, built, computed and carrying the Lite code, as
    ``napkin template -o workbook/napkin.xlsx`` writes it (the slowest);
``workbook/napkin-native.xlsx``
    its native edition, Excel's own functions only, as ``napkin template --native``
    writes it.

Nothing is built from a previous version of itself: each workbook is written to a path
that does not exist yet, and a text file's build reads only its hand-written prose (the
part before the generated table) from the committed file. The builds are byte for byte
deterministic (fixed dates; ``workbook.xml_form`` gives openpyxl's parts one form with or
without lxml), so the comparison is of bytes. Name files to regenerate only those
(``python -m tools.regenerate README.md docs/native.md``). ``--check`` writes nothing:
it names the stale files and exits with 1 if there is one; CI runs it
(``.ci/run``), as ``tests/test_readme.py``, ``test_native.py``, ``test_template.py`` and
``test_native_edition.py`` check the same files.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_table(committed: Path, out: Path) -> None:
    """The README at ``committed`` with its function table built anew, to ``out``."""
    from addin.formula.excel_functions.write import with_checked_list
    from udfs.docs import with_table

    text = with_checked_list(with_table(committed.read_text("utf-8")))
    out.write_text(text, encoding="utf-8", newline="\n")


def native_table(committed: Path, out: Path) -> None:
    """``docs/native.md`` at ``committed`` with its per-function table built anew, to
    ``out``."""
    from addin.transform.native.forms import DOC_HEADING, doc_table

    text = committed.read_text("utf-8")
    if DOC_HEADING not in text:
        raise ValueError(f"{committed}: no heading {DOC_HEADING.strip()!r}")
    prose = text[:text.index(DOC_HEADING) + len(DOC_HEADING)]
    out.write_text(prose + doc_table(), encoding="utf-8", newline="\n")


def excel_functions_table(committed: Path, out: Path) -> None:
    """``docs/excel-functions.md`` at ``committed`` with its per-function table built
    anew from the declarations of Excel's functions, to ``out``."""
    from addin.formula.excel_functions.write import with_table

    text = with_table(committed.read_text("utf-8"), str(committed))
    out.write_text(text, encoding="utf-8", newline="\n")


def template(committed: Path, out: Path) -> None:
    """The template workbook, built from nothing, to ``out``."""
    from addin.routes.embed import write_template

    write_template(out)


def native_template(committed: Path, out: Path) -> None:
    """The template's native edition (Excel's own functions only), built from nothing,
    to ``out``."""
    from addin.cli.commands import write_native_edition

    write_native_edition(out)


#: Each generated file (relative to the repository's root) and what builds it: a
#: function of (the committed file, the path to write, which does not exist yet).
GENERATED = {
    "README.md": readme_table,
    "docs/native.md": native_table,
    "docs/excel-functions.md": excel_functions_table,
    "workbook/napkin.xlsx": template,
    "workbook/napkin-native.xlsx": native_template,
}


def regenerate(root: Path, names, check: bool = False) -> list[str]:
    """Build each of ``names`` (keys of ``GENERATED``) into an empty folder; the stale
    ones (differing from the committed file, or with none committed), which are copied
    over the committed files unless ``check``."""
    stale = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, name in enumerate(names):
            committed = root / name
            fresh = Path(tmp) / str(k) / Path(name).name
            fresh.parent.mkdir()
            GENERATED[name](committed, fresh)
            if committed.exists() and filecmp.cmp(committed, fresh, shallow=False):
                continue
            stale.append(name)
            if not check:
                shutil.copyfile(fresh, committed)
    return stale


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tools.regenerate",
        description="Build the generated files (the README's function table, "
                    "docs/native.md's and docs/excel-functions.md's tables, the template "
                    "and its native edition) from the repository alone into an empty "
                    "folder, and copy each that differs over the committed one.")
    ap.add_argument("files", nargs="*", metavar="FILE",
                    help=f"only these ({', '.join(GENERATED)}; default: all)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit with 1 if a file is stale")
    ap.add_argument("--root", type=Path, default=ROOT,
                    help="the repository's root (default: the one holding this file)")
    args = ap.parse_args(argv)
    unknown = [name for name in args.files if name not in GENERATED]
    if unknown:
        ap.error(f"not a generated file: {', '.join(unknown)} (choose from "
                 f"{', '.join(GENERATED)})")
    names = args.files or list(GENERATED)
    stale = regenerate(args.root, names, check=args.check)
    for name in names:
        state = "current" if name not in stale else "stale" if args.check else "updated"
        print(f"{name}: {state}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
