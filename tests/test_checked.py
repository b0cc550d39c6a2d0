"""Strict mode computes only the Excel functions checked against Excel
(``addin/formula/excel_functions/``): every entry names its evidence, the README lists
exactly them, and a function off the list is refused (``--lenient`` computes it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import xlsx_make

from addin.engine import checked
from addin.engine.api import calc_workbook
from addin.engine.boot import ready
from addin.formula import fx
from addin.ooxml.guard import WorkbookError
from udfs import CATALOG

ROOT = Path(__file__).resolve().parent.parent


def test_every_entry_is_an_excel_function_with_its_evidence():
    ready()
    excel = {n.upper().removeprefix("_XLFN.") for n in fx.function_names()}
    ours = {n.upper() for n in CATALOG}
    for name, (forms, evidence) in checked.checked().items():
        assert name in excel and name not in ours, name
        assert forms and evidence, name
        cited = re.findall(r"(?:tests|workbook)/[\w/.\-]+\.(?:py|xlsx|xlsm)", evidence)
        assert cited, (name, evidence)
        for path in cited:
            assert (ROOT / path).exists(), (name, path)


def test_the_readme_lists_the_functions_checked():
    text = (ROOT / "README.md").read_text("utf-8")
    m = re.search(r"The\s+(\d+)\s+functions\s+listed:(.*?)\.\n", text, re.S)
    assert m, "README: the paragraph \"Functions checked against Excel\""
    listed = re.findall(r"`([A-Z0-9._]+)`", m.group(2))
    assert listed == sorted(checked.checked()) and int(m.group(1)) == len(listed)


def test_a_function_not_checked_is_refused_in_strict_mode_and_computed_leniently(tmp_path):
    # BITAND is Excel's (Microsoft Support, "BITAND function": BITAND(1,5) is 1) and
    # formulas computes it, but it is not on the list
    assert "BITAND" not in checked.checked()
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", "_xlfn.BITAND(1,5)", 1), xlsx_make.cell("A2", "1+1", 2)]})
    with pytest.raises(WorkbookError, match=r"not checked against Excel the function "
                                            r"BITAND\(\) in S!A1.*--lenient"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    assert not (tmp_path / "out.xlsx").exists()
    res = calc_workbook(src, tmp_path / "out.xlsx", {}, strict=False)
    assert res["S!A1"] == 1 and res["S!A2"] == 2
