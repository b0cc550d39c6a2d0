"""The work napkin's commands do on the template, counted (not timed): engine passes,
formulas compiled, formulas computed, formulas tokenised by the formula layer's walk
(``addin.formula.walk``: native's translation, the template's array formulas).
``tests/test_build_work.py`` holds each command to its recorded figures; ``python
tests/build_work.py`` prints them."""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "workbook" / "napkin.xlsx"


@contextlib.contextmanager
def counting():
    """A Counter of the work done inside the block, by kind."""
    from openpyxl.formula import tokenizer

    from addin.engine import api, executor
    from addin.formula import walk as formula

    work: Counter = Counter()
    saved = (api.calc_workbook, executor.compile_formula, executor.call, formula.Tokenizer)

    def calc_workbook(*args, **kwargs):
        work["engine passes"] += 1
        return saved[0](*args, **kwargs)

    def compile_formula(*args, **kwargs):
        work["formulas compiled"] += 1
        return saved[1](*args, **kwargs)

    def call(*args, **kwargs):
        work["formulas computed"] += 1
        return saved[2](*args, **kwargs)

    class Tokenizer(tokenizer.Tokenizer):
        def __init__(self, formula):
            work["formulas tokenised"] += 1
            super().__init__(formula)

    api.calc_workbook, executor.compile_formula, executor.call = \
        calc_workbook, compile_formula, call
    formula.Tokenizer = Tokenizer
    try:
        yield work
    finally:
        api.calc_workbook, executor.compile_formula, executor.call, formula.Tokenizer = saved


def measure(command: str, out: Path) -> Counter:
    """The work of ``napkin native`` of the template, ``napkin template`` or ``napkin
    calc`` of the template (``command``), writing ``out``."""
    from addin.cli import main

    argv = {"native": ["native", str(TEMPLATE), "-o", str(out)],
            "template": ["template", "-o", str(out)],
            "calc": ["calc", str(TEMPLATE), "-o", str(out)]}[command]
    with counting() as work:
        assert main(argv) == 0
    return work


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        for c in sys.argv[1:] or ("native", "template", "calc"):
            print(c, dict(measure(c, Path(d) / f"{c}.xlsx")))
