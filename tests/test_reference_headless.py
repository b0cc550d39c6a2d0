"""The reference cases through the headless engine, as a user would type them:
``napkin eval`` on the command line, and ``napkin calc`` on a workbook written by
openpyxl."""

import json
import subprocess
import sys

import openpyxl
import pytest
from reference_cases import REFERENCE

CASES = [pytest.param(f, exp, tol, id=f"§{sec} {case}") for sec, case, f, _, exp, tol in REFERENCE]


def _check(got, expected, tol):
    if tol is None:
        assert got == expected
    else:
        assert isinstance(got, int | float) and not isinstance(got, bool), got
        assert got == pytest.approx(expected, abs=tol)


def _parse_printed(line: str):
    """A line printed by ``napkin eval`` back to a value."""
    if line in ("TRUE", "FALSE"):
        return line == "TRUE"
    try:
        return float(line)
    except ValueError:
        return line


def test_napkin_eval_prints_every_reference_value():
    formulas = [f for _, _, f, _, _, _ in REFERENCE]
    out = subprocess.run([sys.executable, "-m", "addin.cli", "eval", *formulas],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == len(formulas)
    for line, (sec, case, f, _, exp, tol) in zip(out, REFERENCE, strict=True):
        try:
            _check(_parse_printed(line), exp, tol)
        except AssertionError as e:
            raise AssertionError(f"§{sec} {case}: {f} printed {line!r}") from e


@pytest.fixture(scope="module")
def computed(tmp_path_factory):
    """A workbook with one reference formula per row, computed by ``napkin calc``."""
    d = tmp_path_factory.mktemp("ref")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Reference"
    ws.append(["section", "case", "formula", "expected"])
    for sec, case, f, _, exp, _ in REFERENCE:
        ws.append([sec, case, f, exp])
    src, dst = d / "reference.xlsx", d / "computed.xlsx"
    wb.save(src)
    out = subprocess.run([sys.executable, "-m", "addin.cli", "calc", str(src), "-o", str(dst),
                          "--json"], capture_output=True, text=True, check=True).stdout
    return json.loads(out), dst


@pytest.mark.parametrize("row", range(len(REFERENCE)),
                         ids=[f"§{r[0]} {r[1]}" for r in REFERENCE])
def test_napkin_calc_computes_every_reference_value(computed, row):
    results, _ = computed
    _, _, _, _, exp, tol = REFERENCE[row]
    _check(results[f"Reference!C{row + 2}"], exp, tol)


def test_computed_workbook_holds_the_values_for_any_reader(computed):
    _, dst = computed
    ws = openpyxl.load_workbook(dst, data_only=True)["Reference"]
    for row, (_, _, _, _, exp, tol) in enumerate(REFERENCE, start=2):
        _check(ws.cell(row, 3).value, exp, tol)
