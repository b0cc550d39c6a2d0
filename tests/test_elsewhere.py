"""The Lite edition opened without xlwings Lite: the top of every sheet says which file to
open instead (``workbook.elsewhere``), from Start's one call, and reads as the sheet's
title where napkin computes (Excel with Lite, ``napkin calc``). The native edition has
no such note."""

from __future__ import annotations

import csv
import re
import shutil
import subprocess

import openpyxl
import pytest
from openpyxl.worksheet.formula import ArrayFormula
from template_support import ROOT

from workbook.elsewhere import CONF_CELL, ELSEWHERE, FLAG, NOTE_CELL
from workbook.start import WITHOUT_LITE_CELL

pytestmark = pytest.mark.xml

LITE = ROOT / "workbook" / "napkin.xlsx"
NATIVE = ROOT / "workbook" / "napkin-native.xlsx"


def _note_cell(title: str) -> str:
    return CONF_CELL if title == "xlwings.conf" else NOTE_CELL


def test_every_sheet_of_the_lite_edition_carries_its_note_without_a_call():
    """Each sheet's note is a one-cell array formula (LibreOffice recomputes those on
    opening) that reads Start's test cell and calls no napkin function (Lite's call
    budget); napkin's cached value, what Excel with Lite shows, is the native edition's
    subtitle (the note's cell of xlwings.conf: empty), every string constant of it
    within Excel's 255 characters."""
    formulas = openpyxl.load_workbook(LITE)
    cached = openpyxl.load_workbook(LITE, data_only=True)
    native = openpyxl.load_workbook(NATIVE)
    assert FLAG == f"'Start'!${WITHOUT_LITE_CELL[0]}${WITHOUT_LITE_CELL[1:]}"
    for ws in formulas.worksheets:
        cell = _note_cell(ws.title)
        value = ws[cell].value
        assert isinstance(value, ArrayFormula) and value.ref == cell, ws.title
        assert FLAG in value.text and "napkin-native.xlsx" in value.text, ws.title
        assert "_xldudf_" not in value.text, ws.title  # no napkin call of its own
        assert max(map(len, re.findall(r'"((?:[^"]|"")*)"', value.text))) <= 255, ws.title
        shown = cached[ws.title][cell].value
        if ws.title == "xlwings.conf":
            assert shown in (None, "")
        else:
            assert shown == native[ws.title][NOTE_CELL].value, ws.title
            assert isinstance(shown, str) and shown.strip()
    # Start's test: a RIDGE call where it errors, the one call all the notes share
    start = formulas["Start"][WITHOUT_LITE_CELL].value
    assert isinstance(start, ArrayFormula) and "_xldudf_RIDGE(" in start.text


def test_the_native_edition_has_no_note():
    """The native edition computes everywhere: its subtitles are plain text and nothing
    in it says to open another file."""
    book = openpyxl.load_workbook(NATIVE)
    for ws in book.worksheets:
        if ws.sheet_state != "visible":
            continue
        assert not isinstance(ws[NOTE_CELL].value, ArrayFormula), ws.title
        for row in ws.iter_rows():
            for c in row:
                text = c.value.text if isinstance(c.value, ArrayFormula) else c.value
                assert not (isinstance(text, str) and "No xlwings Lite here" in text), \
                    (ws.title, c.coordinate)


@pytest.mark.skipif(not shutil.which("soffice"), reason="LibreOffice is not installed")
def test_libreoffice_shows_the_note_at_the_top_of_every_sheet(tmp_path):
    """The Lite edition opened in LibreOffice (no xlwings Lite), before any edit: each
    sheet's note cell says ``ELSEWHERE`` (every sheet written out as CSV, as LibreOffice
    shows it on opening), which names the native edition."""
    subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path}/lo", "--headless",
                    "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,"
                    "true,false,false,false,-1", "--outdir", str(tmp_path), str(LITE)],
                   check=True, capture_output=True, timeout=600)
    sheets = openpyxl.load_workbook(LITE, read_only=True).sheetnames
    assert "napkin-native.xlsx" in ELSEWHERE
    for title in sheets:
        rows = list(csv.reader((tmp_path / f"napkin-{title}.csv").open(encoding="utf-8")))
        col, row = re.match(r"([A-Z]+)(\d+)$", _note_cell(title)).groups()
        assert rows[int(row) - 1][ord(col) - 65] == ELSEWHERE, title
