"""The forms of argument (``addin.engine.forms.FORMS``) each Excel function is given in
workbooks or in test files: what the checked forms of Excel's functions
(``addin/formula/excel_functions/``) are written from.

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
from pathlib import Path
from zipfile import ZipFile

from addin.engine.survey import Survey, watching_forms


def survey_workbooks(survey: Survey, paths: list[Path]) -> None:
    from addin.engine.api import calc_workbook
    from addin.engine.book import Workbook

    for path in paths:
        survey.now = path.as_posix()
        with ZipFile(path) as zf:
            survey.date1904 = Workbook(zf).date1904
        with tempfile.TemporaryDirectory() as tmp:
            try:
                calc_workbook(path, Path(tmp) / "out.xlsx", None, strict=False)
            except Exception as ex:  # a refused workbook: what was seen is kept
                print(f"{path}: {ex}"[:300], file=sys.stderr)


def survey_tests(survey: Survey, paths: list[str]) -> None:
    import pytest

    class Where:
        @staticmethod
        def pytest_runtest_setup(item):
            path = Path(item.fspath).relative_to(Path.cwd()).as_posix()
            survey.now = f"{path}::{item.name}"
            survey.date1904 = False

    pytest.main(["-q", "-p", "no:cacheprovider", *paths], plugins=[Where()])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("kind", choices=["workbooks", "tests"])
    p.add_argument("paths", nargs="+")
    p.add_argument("-o", "--out", type=Path, help="write the JSON there (default: print it)")
    args = p.parse_args(argv)
    with watching_forms() as survey:  # (the engine's survey mode: addin.engine.survey)
        if args.kind == "workbooks":
            survey_workbooks(survey, [Path(x) for x in args.paths])
        else:
            survey_tests(survey, args.paths)
    text = json.dumps(survey.result(), indent=1)
    if args.out is None:
        print(text)
    else:
        args.out.write_text(text + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
