"""The work napkin's commands do on the template, counted (not timed): engine passes,
formulas compiled, formulas computed, formulas tokenised by the formula layer's walk
(``addin.formula.walk``: native's translation, the template's array formulas); native's
calls of ours translated and texts read for helper references; formulas' empty-cell
checks and flatten steps (what ``addin.formula.one_cell``'s short ways leave to it);
formulas' parser's token tries (``addin.formula.fx_parser``).
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
    from formulas import functions as formulas_functions
    from formulas import tokens as formulas_tokens
    from openpyxl.formula import tokenizer

    from addin.engine import api, executor
    from addin.formula import walk as formula
    from addin.transform.native import helpers, translate

    work: Counter = Counter()
    counted = [  # (owner, name, kind): each call of owner.name is one of kind
        (api, "calc_workbook", "engine passes"),
        (executor, "compile_formula", "formulas compiled"),
        (executor, "call", "formulas computed"),
        # napkin native: each call of ours translated (a repeat of one text on one sheet
        # is the first's translation), each formula text read through for helper cells
        (translate.NativeTranslator, "_translate_call", "napkin calls translated"),
        (helpers.Helpers, "_refs", "texts read for helper references"),
        # formulas' element-wise functions, one cell at a time (addin.formula.one_cell):
        # each empty-cell check of an argument by replace_empty, each step of the walk
        # of get_error over arguments (flatten): what the short ways leave to formulas
        (formulas_functions, "replace_empty", "formulas' empty-cell checks"),
        (formulas_functions, "flatten", "formulas' flatten steps"),
        # formulas' parser: each token class tried at a place of a formula (a token made,
        # or a TokenError; addin.formula.fx_parser tries only those that can start there)
        (formulas_tokens.Token, "__init__", "formulas' token tries"),
    ]
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in counted]

    def counter(fn, kind):
        def count(*args, **kwargs):
            work[kind] += 1
            return fn(*args, **kwargs)
        return count

    for (owner, name, kind), (_, _, fn) in zip(counted, saved, strict=True):
        setattr(owner, name, counter(fn, kind))

    class Tokenizer(tokenizer.Tokenizer):
        def __init__(self, formula):
            work["formulas tokenised"] += 1
            super().__init__(formula)

    saved_tokenizer, formula.Tokenizer = formula.Tokenizer, Tokenizer
    try:
        yield work
    finally:
        for owner, name, fn in saved:
            setattr(owner, name, fn)
        formula.Tokenizer = saved_tokenizer


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
