"""The Excel functions napkin has checked against Excel: strict mode computes only these.

``checked_functions.csv`` (beside this module) lists each function with the forms of
argument its evidence covers and the evidence: workbooks Excel saved whose values
``napkin calc`` gives (``tests/corpus``, checked by ``tests/test_fidelity.py``), tests
built on Microsoft's documented examples, or the template, whose values LibreOffice
agrees with (``tests/test_template.py``). In strict mode a formula calling an Excel
function not listed is refused, with a sentence naming the function and the cell;
``--lenient`` computes it. napkin's own functions are not listed: they are ours.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path

from addin.engine import support
from addin.formula import formula_text as ft

LIST = Path(__file__).with_name("checked_functions.csv")


@functools.cache
def checked() -> dict[str, tuple[str, str]]:
    """Function name (upper case, without ``_xlfn.``) -> (argument forms, evidence)."""
    with LIST.open(encoding="utf-8", newline="") as fh:
        rows = [r for r in csv.reader(fh) if r and not r[0].startswith("#")]
    return {r[0].strip().upper(): (r[1].strip(), r[2].strip()) for r in rows[1:]}


def bare(name: str) -> str:
    """A function's name as listed: upper case, without ``_xlfn.`` / ``_xlws.``."""
    return name.upper().removeprefix("_XLFN.").removeprefix("_XLWS.")


def unchecked(wb, registry) -> list[tuple[object, str]]:
    """``[(node, reason)]`` for each formula of ``wb`` that calls an Excel function not
    in ``checked()`` (the first such function of each formula)."""
    ours = {n.upper() for n in registry}
    listed = checked()
    out = []
    for node in wb.nodes + list(wb.name_nodes.values()):
        if not node.text:
            continue
        for name in ft.called_functions(node.text):
            own = name.upper().removeprefix("_XLDUDF_")  # (Lite's stored form of ours)
            if own in ours or bare(name) in ours or bare(name) in listed:
                continue
            out.append((node, f"{bare(name)}()"))
            break
    return out


def refusal(found: list[tuple[object, str]]) -> str:
    """The sentence refusing a workbook whose formulas call functions not checked."""
    return (f"napkin has not checked against Excel the function {support.describe(found)}, "
            "so strict mode does not compute it (README, \"Functions checked against "
            "Excel\"); run with --lenient to compute it anyway")
