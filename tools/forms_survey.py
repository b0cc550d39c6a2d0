"""The forms of argument (``addin.engine.forms.FORMS``) each Excel function is given in
workbooks or in test files: what the entries of ``addin/engine/checked_functions.csv``
are written from.

``python -m tools.forms_survey workbooks FILE.xlsx...`` computes each workbook (as
``napkin calc --lenient`` does, writing nothing) and ``python -m tools.forms_survey
tests tests/test_x.py...`` runs those test files; both print JSON (``-o FILE``: write
it there), ``{source: {function: [forms]}}`` (a test's source is ``path::name``).
Every function is watched, listed or not, and nothing is refused for its forms while
watching.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from zipfile import ZipFile

from addin.engine import checked, executor, forms
from addin.engine.boot import ready
from addin.formula import context, fx

SEEN: dict[str, dict[str, set]] = defaultdict(lambda: defaultdict(set))
SOURCE = {"now": "", "date1904": False}


def _watch_everything() -> None:
    """Every Excel function compiled from now on records the forms it is given in
    ``SEEN[SOURCE["now"]]``."""
    ready()
    every = {forms.bare(n): (frozenset(), "") for n in fx.function_names()}
    forms.listed = lambda: every  # (compile_calls finds every function)
    checked.unchecked_forms = lambda wb: []

    def guarded(func, call):
        def recording(*args):
            got = SEEN[SOURCE["now"]][call.name]
            got.update(call.static - {"nested", "ranges" if call.intersected else ""})
            if call.intersected:
                got.add("cells")
            book = getattr(context.STATE, "book", None)
            if (SOURCE["date1904"] or getattr(book, "date1904", False)) and \
                    call.name in forms.DATE_SYSTEM:
                got.add("1904")
            seen = getattr(context.STATE, "form_seen", None)
            for a in args[call.skip:]:
                got.update(forms.value_forms(a, seen))
            return func(*args)
        return recording

    forms.guarded = guarded
    executor.forms = forms


def survey_workbooks(paths: list[Path]) -> None:
    from addin.engine.api import calc_workbook
    from addin.engine.book import Workbook

    for path in paths:
        SOURCE["now"] = path.as_posix()
        with ZipFile(path) as zf:
            SOURCE["date1904"] = Workbook(zf).date1904
        with tempfile.TemporaryDirectory() as tmp:
            try:
                calc_workbook(path, Path(tmp) / "out.xlsx", None, strict=False)
            except Exception as ex:  # a refused workbook: what was seen is kept
                print(f"{path}: {ex}"[:300], file=sys.stderr)


def survey_tests(paths: list[str]) -> None:
    import pytest

    class Where:
        @staticmethod
        def pytest_runtest_setup(item):
            path = Path(item.fspath).relative_to(Path.cwd()).as_posix()
            SOURCE["now"] = f"{path}::{item.name}"
            SOURCE["date1904"] = False

    pytest.main(["-q", "-p", "no:cacheprovider", *paths], plugins=[Where()])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("kind", choices=["workbooks", "tests"])
    p.add_argument("paths", nargs="+")
    p.add_argument("-o", "--out", type=Path, help="write the JSON there (default: print it)")
    args = p.parse_args(argv)
    _watch_everything()
    if args.kind == "workbooks":
        survey_workbooks([Path(x) for x in args.paths])
    else:
        survey_tests(args.paths)
    out = {src: {f: sorted(v) for f, v in sorted(fs.items())} for src, fs in SEEN.items()}
    text = json.dumps(out, indent=1)
    if args.out is None:
        print(text)
    else:
        args.out.write_text(text + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
