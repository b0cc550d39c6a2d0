"""The engine's survey mode (``addin.engine.survey.watching_forms``), what
``tools/forms_survey.py`` writes the checked forms of ``addin/formula/excel_functions/``
from: it sees the forms each call is given, refuses nothing for them, and leaves the
engine as it was."""

from __future__ import annotations

import openpyxl
import pytest

from addin.engine import checked, forms
from addin.engine.api import calc_workbook
from addin.engine.survey import watching_forms
from addin.ooxml.guard import WorkbookError

pytestmark = pytest.mark.xml  # (writes a workbook)


def _book(path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["B1"], ws["B2"] = 2, 3, "4"
    ws["C1"] = "=ABS(A1)+SUM(B1:B2)"
    ws["C2"] = "=_xlfn.SECH(A1)"  # a form not listed for it: strict refuses it
    wb.save(path)
    return path


def test_the_survey_sees_the_forms_and_refuses_nothing(tmp_path):
    src = _book(tmp_path / "in.xlsx")
    # (once SECH of a cell is checked, take another form the list leaves out)
    assert "cells" not in forms.listed().get("SECH", (frozenset(), ""))[0]
    with pytest.raises(WorkbookError):
        calc_workbook(src, None)
    before = (forms.listed, forms.guarded, checked.unchecked_forms)
    with watching_forms() as survey:
        survey.now = "in.xlsx"
        results = calc_workbook(src, None)  # strict, and nothing refused for its forms
    assert (forms.listed, forms.guarded, checked.unchecked_forms) == before
    assert results["Sheet!C1"] == 5  # |2| + 3: SUM leaves the text "4" in B2 out
    seen = survey.result()["in.xlsx"]
    assert "cells" in seen["ABS"] and "ranges" in seen["SUM"], seen
    assert "cells" in seen["SECH"], seen
