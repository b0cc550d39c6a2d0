"""One sheet of cells computed as ``napkin calc`` computes it (strict): the helper of the
tests that check Excel's functions on cells written by hand."""

from __future__ import annotations

import xlsx_make

from addin.engine.api import calc_workbook


def calc_sheet(tmp_path, cells: list[str]):
    """The values of a workbook of one sheet ``S`` holding ``cells`` (``xlsx_make.cell``
    strings), and the cells kept (Excel's value kept), label -> reason."""
    kept: list = []
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, kept=kept)
    return res, {k.label: k.reason for k in kept}


def text(ref: str, value: str) -> str:
    """A cell holding ``value`` as text (an inline string)."""
    return xlsx_make.cell(ref, None, value, t="inlineStr")


def formulas_down(column: str, formulas, start: int = 1) -> list[str]:
    """Formula cells down ``column``, each with a saved value (0) to keep if refused."""
    return [xlsx_make.cell(f"{column}{i}", f, 0) for i, f in enumerate(formulas, start=start)]
