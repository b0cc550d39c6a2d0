"""Rewrite the committed files that are generated from the function declarations.

``python -m tools.regenerate`` (from the repository's root) writes all four; after adding
or changing a function (``docs/contributing.md``, "Adding a function") it is the one
command to run:

``README.md``
    its function table, by ``udfs.docs`` (alone: ``python -m udfs.docs``);
``docs/native.md``
    its per-function table, by ``addin.transform.native.forms`` (alone:
    ``python -m addin.transform.native.forms``);
``workbook/napkin.xlsx``
    the template, built, computed and carrying the Lite code, as
    ``napkin template -o workbook/napkin.xlsx`` writes it (the slowest);
``workbook/napkin-native.xlsx``
    its native edition, Excel's own functions only, as ``napkin template --native``
    writes it.

Each file is generated into a temporary folder and copied over the committed one only
where the two differ, so a file that is current is left untouched. Name files to
regenerate only those (``python -m tools.regenerate README.md docs/native.md``).
``--check`` writes nothing: it names the stale files and exits with 1 if there is one,
as ``tests/test_readme.py``, ``test_native.py`` and ``test_template.py`` fail then.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_table(path: Path) -> None:
    """Replace the function table of the README at ``path``."""
    from udfs.docs import with_table

    path.write_text(with_table(path.read_text("utf-8")), encoding="utf-8", newline="\n")


def native_table(path: Path) -> None:
    """Replace the per-function table of ``docs/native.md`` at ``path``."""
    from addin.transform.native.forms import write_doc

    write_doc(path)


def template(path: Path) -> None:
    """Write the template workbook to ``path``."""
    from addin.routes.embed import write_template

    write_template(path)


def native_template(path: Path) -> None:
    """Write the template's native edition (Excel's own functions only) to ``path``."""
    from addin.cli.commands import write_native_edition

    write_native_edition(path)


#: Each generated file (relative to the repository's root) and what writes it in place.
GENERATED = {
    "README.md": readme_table,
    "docs/native.md": native_table,
    "workbook/napkin.xlsx": template,
    "workbook/napkin-native.xlsx": native_template,
}


def regenerate(root: Path, names, check: bool = False) -> list[str]:
    """Generate each of ``names`` (keys of ``GENERATED``) under ``root``; the stale
    ones, which are rewritten unless ``check``."""
    stale = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            committed, fresh = root / name, Path(tmp) / Path(name).name
            if committed.exists():
                shutil.copyfile(committed, fresh)  # the tables are written into the file
            GENERATED[name](fresh)
            if committed.exists() and filecmp.cmp(committed, fresh, shallow=False):
                continue
            stale.append(name)
            if not check:
                shutil.copyfile(fresh, committed)
    return stale


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tools.regenerate",
        description="Rewrite the files generated from the function declarations: the "
                    "README's function table, docs/native.md's table and the template.")
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
