"""Every catalog function, fed what Excel can pass.

Whatever comes in, what goes out is an Excel value (a finite number, TRUE/FALSE, text),
an Excel error value, or a range of those: never an exception, never NaN or infinity,
never a hang (each example has a deadline), never our "internal error" message.
"""

import inspect
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from udfs import CATALOG, ExcelError
from udfs.machinery.errors import EXCEL_ERROR_CODES

np = pytest.importorskip("numpy")

unit_like = st.sampled_from([
    "3.35 TB/s", "80 GiB", "989 TFLOPS", "16 GFLOP", "2000 tokens/s", "5 ms", "30 %", "8.03B",
    "70b", "BF16", "fp8", "H100", "Llama 3.1 8B", "GB", "TB/s/s", "1e999 GB", "-3 GB", "0 TB/s",
    "3,35 TB/s", "3,350 GB/s", "NaN GB", "inf TFLOPS", "1/0", "2**1000", "()", "GB GB",
    "µs", "%", "ms/token", "e", "1e", "++1", "0x10", "1_000", "٣", "𝟘 GB", "\x00", "\n",
])
scalars = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 5e-324, 1e308, -1e308, 2.2e-308]),
    st.integers(min_value=-(2**70), max_value=2**70),
    # beyond a float's range (about 1.8e308 < 2**1024): Excel's #NUM!, never an overflow
    st.integers(min_value=-(2**1100), max_value=2**1100),
    st.sampled_from([2**1024, -(2**1024), 2**1100, 10**400]),
    st.booleans(),
    st.none(),
    st.text(max_size=30),
    st.text(min_size=500, max_size=3000),
    unit_like,
    st.sampled_from(EXCEL_ERROR_CODES),
    st.builds(ExcelError, st.sampled_from(EXCEL_ERROR_CODES), st.text(max_size=10)),
)
ranges = st.one_of(
    st.lists(scalars, max_size=5),
    st.lists(st.lists(scalars, min_size=2, max_size=2), min_size=1, max_size=3),
    st.lists(st.lists(scalars, max_size=3), max_size=3),  # ragged, or empty
    st.lists(st.floats(), min_size=1, max_size=5).map(np.array),
    st.lists(st.lists(st.floats(min_value=-1e3, max_value=1e3), min_size=3, max_size=3),
             min_size=1, max_size=3).map(np.array),
)
excel_values = st.one_of(scalars, scalars, scalars, ranges)


def is_excel_value(v) -> bool:
    if isinstance(v, ExcelError | bool | str):
        return True
    if isinstance(v, float):
        return math.isfinite(v)
    if isinstance(v, np.ndarray):
        return all(is_excel_value(x.item() if hasattr(x, "item") else x) for x in v.ravel())
    if isinstance(v, list):
        return all(is_excel_value(x) for x in v)
    return False


def internal_errors(v):
    if isinstance(v, ExcelError):
        return ["internal error" in v.message]
    if isinstance(v, list | np.ndarray):
        return [e for x in (v.ravel() if isinstance(v, np.ndarray) else v)
                for e in internal_errors(x)]
    return []


@pytest.mark.parametrize("name", list(CATALOG))
@settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_function_returns_an_excel_value_whatever_it_is_given(name, data):
    f = CATALOG[name]
    params = inspect.signature(f).parameters
    required = sum(p.default is inspect.Parameter.empty for p in params.values())
    n = data.draw(st.integers(required, len(params)), label="number of arguments")
    args = [data.draw(excel_values, label=p) for p in list(params)[:n]]
    out = f(*args)
    assert is_excel_value(out), f"{name}{tuple(args)!r} returned {out!r}"
    assert not any(internal_errors(out)), f"{name}{tuple(args)!r} returned {out!r}"


# ------------------------------------------------------------ huge dimensions (calc)
# Workbooks whose sizes reach Excel's limits (Microsoft Support, "Excel specifications
# and limits": 1,048,576 rows by 16,384 columns, XFD1048576 the last cell). Each is
# computed, or refused with one sentence naming the limit or the part (exit 1, no
# output) -- never "could not process this input ... please report it", never more than
# 30 s of CPU.

_HUGE_SHEET = [("A1", None, 1), ("A2", None, 2), ("XFD1048576", None, 4)]
_LIMIT = "napkin reads areas of up to"
_PAST = "past the sheet's last cell XFD1048576"
HUGE = {  # name -> (cells of S, formulas of T, XML after <sheetData> of S, outcome)
    "dimension": ([("A1", None, 1), ("A2", None, 2)], [("B1", "SUM(S!A:A)")],
                  '<dimension ref="A1:XFD1048576"/>', 3),  # 1 + 2
    "whole sheet over sparse cells": (_HUGE_SHEET, [("B1", "SUM(S!A:XFD)")], "", _LIMIT),
    "last cell": (_HUGE_SHEET, [("B1", "SUM(S!A1:XFD1048576)")], "", _LIMIT),
    "array of the whole sheet": (_HUGE_SHEET, [("B1", "SUMPRODUCT((S!A1:XFD1048576>0)*1)")],
                                 "", _LIMIT),
    "criteria over the sheet": (_HUGE_SHEET, [("B1", 'COUNTIF(S!A:XFD,"<>")')], "", _LIMIT),
    "index of the sheet": (_HUGE_SHEET, [("B1", "SUM(INDEX(S!A:XFD,0,0)+1)")], "", _LIMIT),
    "offset to the sheet's size": (_HUGE_SHEET, [("B1", "SUM(OFFSET(S!A1,0,0,1048576,16384))")],
                                   "", _LIMIT),
    "indirect of the sheet": (_HUGE_SHEET, [("B1", 'SUM(INDIRECT("S!A:XFD"))')], "", _LIMIT),
    "whole column": (_HUGE_SHEET, [("B1", "SUM(S!A:A)")], "", 3),
    "row past the last": ([("A1", None, 1), ("A1048577", None, 3)], [("B1", "SUM(S!A:A)")],
                          "", _PAST),
    "column past the last": ([("A1", None, 1), ("XFE1", None, 3)], [("B1", "SUM(S!1:1)")],
                             "", _PAST),
    "row beyond any": ([("A1", None, 1), ("A99999999999999", None, 3)],
                       [("B1", "SUM(S!A:A)")], "", _PAST),
}


def _huge_workbook(path, cells, formulas, extra):
    import xlsx_make

    src = xlsx_make.write(path, {"S": [xlsx_make.cell(*c) for c in cells],
                                 "T": [xlsx_make.cell(*f) for f in formulas]})
    if extra:
        import zipfile

        with zipfile.ZipFile(src) as z:
            parts = {n: z.read(n) for n in z.namelist()}
        xml = parts["xl/worksheets/sheet1.xml"].decode()
        parts["xl/worksheets/sheet1.xml"] = xml.replace("<sheetData>", extra + "<sheetData>",
                                                        1).encode()
        with zipfile.ZipFile(src, "w") as z:
            for n, data in parts.items():
                z.writestr(n, data)
    return src


def _huge_sheet_xml(path, after: str):
    """One sheet whose ``after`` (a merged range, a shared or array formula over the
    sheet) follows a few cells."""
    import xlsx_make

    return xlsx_make.write(path, {"S": [xlsx_make.cell("A1", None, 1),
                                        xlsx_make.cell("A2", None, 2), after]})


HUGE_XML = {  # name -> (a cell or XML of S, outcome)
    "shared formula over the sheet": ('<c r="B1"><f t="shared" ref="B1:XFD1048576" si="0">'
                                      "A1+1</f></c>", 2),  # B1 = A1 + 1
    "array formula over the sheet": ('<c r="B1"><f t="array" ref="B1:XFD1048576">A1+1</f>'
                                     "</c>", "cells to compute"),
}


def _calc_limited(src, dst):
    import resource
    import subprocess
    import sys

    def limits():
        resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))
        resource.setrlimit(resource.RLIMIT_CPU, (30, 30))

    return subprocess.run([sys.executable, "-m", "addin.cli", "calc", str(src), "-o",
                           str(dst), "--json"], capture_output=True, text=True, timeout=120,
                          preexec_fn=limits)


def _check_outcome(r, dst, outcome, cell):
    import json

    assert "internal" not in r.stderr and "report it" not in r.stderr, r.stderr
    if isinstance(outcome, str):  # refused: one sentence naming the limit, no output
        assert r.returncode == 1, (r.returncode, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1 and outcome in r.stderr, r.stderr
        assert not dst.exists()
    else:
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)[cell] == outcome


@pytest.mark.parametrize("name", list(HUGE))
def test_huge_dimensions_are_computed_or_refused_with_the_limit(tmp_path, name):
    cells, formulas, extra, outcome = HUGE[name]
    src = _huge_workbook(tmp_path / "in.xlsx", cells, formulas, extra)
    dst = tmp_path / "out.xlsx"
    _check_outcome(_calc_limited(src, dst), dst, outcome, "T!B1")


@pytest.mark.parametrize("name", list(HUGE_XML))
def test_formulas_over_the_whole_sheet(tmp_path, name):
    after, outcome = HUGE_XML[name]
    src = _huge_sheet_xml(tmp_path / "in.xlsx", after)
    dst = tmp_path / "out.xlsx"
    _check_outcome(_calc_limited(src, dst), dst, outcome, "S!B1")


def test_a_merged_range_over_the_whole_sheet(tmp_path):
    import xlsx_make

    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [
        xlsx_make.cell("A1", None, 1), xlsx_make.cell("B1", "A1*2")]}, after={
        "S": '<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>'})
    dst = tmp_path / "out.xlsx"
    _check_outcome(_calc_limited(src, dst), dst, 2, "S!B1")  # 1 * 2


def test_computing_past_the_cpu_budget_is_refused_with_the_figure(tmp_path, monkeypatch):
    # the budget (addin.ooxml.guard.MAX_CPU_SECONDS) set to nothing: the first formula
    # computed is past it, and the workbook is refused, naming the figure and the cell
    import xlsx_make

    from addin.engine.api import calc_workbook
    from addin.ooxml import guard

    monkeypatch.setattr(guard, "MAX_CPU_SECONDS", -1.0)
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [xlsx_make.cell("A1", None, 1),
                                                       xlsx_make.cell("B1", "A1*2")]})
    with pytest.raises(guard.WorkbookError, match=r"more than -1 s of CPU by S!B1"):
        calc_workbook(src, tmp_path / "out.xlsx", {})
    assert not (tmp_path / "out.xlsx").exists()


@pytest.mark.parametrize("exc, words", [(MemoryError, "more memory than napkin was given"),
                                        (RecursionError, "nests deeper than napkin follows")])
def test_running_out_of_memory_or_depth_names_the_limit(tmp_path, monkeypatch, capsys, exc,
                                                        words):
    import xlsx_make

    from addin import cli
    from addin.engine import api

    def short(*a, **k):
        raise exc()

    monkeypatch.setattr(api, "calc_workbook", short)
    src = xlsx_make.write(tmp_path / "in.xlsx", {"S": [xlsx_make.cell("A1", "1+1")]})
    assert cli.main(["calc", str(src), "-o", str(tmp_path / "out.xlsx")]) == 1  # EXIT_FILE
    err = capsys.readouterr().err
    assert words in err and "report it" not in err and "internal" not in err
    assert not (tmp_path / "out.xlsx").exists()
