"""Recalculate workbooks in LibreOffice through its UNO API and print every cell as JSON.

Run with the system Python that has LibreOffice's ``uno`` module (``/usr/bin/python3``),
not the project's virtual environment::

    /usr/bin/python3 tools/lo_uno.py < jobs.json > cells.json

``jobs.json`` is a list of ``{"path": ..., "edits": {"Sheet!A1": value, ...}}``. One
LibreOffice (``soffice --headless``, private profile) serves all jobs: each workbook is
loaded, its edits are typed in (numbers as numbers, text as text), everything is
recalculated (``calculateAll``) and every non-empty cell is read back. A job may also
edit the structure first, as a user does, with these optional keys (applied in this order,
before the edits): ``"unprotect": ["Sheet", ...]`` (Review → Unprotect Sheet, no
password), ``"insert_rows": [["Sheet", 9], ...]`` (a new empty row 9, the rows below moved
down: LibreOffice adjusts references and named ranges as Excel does), ``"copy": [["Sheet",
"A8:O8", "A9"], ...]`` (copy and paste: relative references follow); and ``"save": path``
writes the workbook as .xlsx after it is read. The cells read back:
``{"Sheet!A1": [kind, value]}`` with kind ``n`` (number), ``s`` (text) or ``e`` (an error,
value as LibreOffice shows it, e.g. ``#N/A``). Formulas are listed too, in
``"formulas": {"Sheet!A1": "=..."}``, so a test can check what was recalculated.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import uno
from com.sun.star.beans import PropertyValue

FORMULA_ERROR = 4  # com.sun.star.sheet.FormulaResult.ERROR
#: com.sun.star.sheet.CellFlags VALUE | DATETIME | STRING | FORMULA: the cells holding something
CONTENT = 1 | 2 | 4 | 16


def _prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def _connect(port: int, deadline: float):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local)
    while True:
        try:
            ctx = resolver.resolve(
                f"uno:socket,host=127.0.0.1,port={port};urp;StarOffice.ComponentContext")
            return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop",
                                                                ctx)
        except Exception:
            if time.time() > deadline:
                raise
            time.sleep(0.3)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _set(sheet, ref, value):
    cell = sheet.getCellRangeByName(ref)
    if value is None:
        cell.setString("")
    elif isinstance(value, bool):
        cell.setFormula("=TRUE()" if value else "=FALSE()")
    elif isinstance(value, (int, float)):
        cell.setValue(float(value))
    else:
        cell.setString(str(value))


def _read(doc) -> tuple[dict, dict]:
    """Every cell holding something (a value, a text, a formula) of every sheet: its value
    and its formula. Read block by block of the cells that hold something
    (``queryContentCells``), not the sheet's used area, which a formatted row or column
    can stretch to a whole sheet (LibreOffice's bridge died reading one so)."""
    cells, formulas = {}, {}
    sheets = doc.getSheets()
    for name in sheets.getElementNames():
        sheet = sheets.getByName(name)
        content = sheet.queryContentCells(CONTENT)
        for addr in content.getRangeAddresses():
            rng = sheet.getCellRangeByPosition(addr.StartColumn, addr.StartRow,
                                               addr.EndColumn, addr.EndRow)
            _read_block(sheet, name, rng, addr.StartRow, addr.StartColumn, cells, formulas)
    return cells, formulas


def _read_block(sheet, name, rng, row0, col0, cells, formulas) -> None:
    data = rng.getDataArray()
    forms = rng.getFormulaArray()
    errors = set()
    try:
        found = rng.queryFormulaCells(FORMULA_ERROR)
        for addr in found.getRangeAddresses():
            for r in range(addr.StartRow, addr.EndRow + 1):
                for c in range(addr.StartColumn, addr.EndColumn + 1):
                    errors.add((r, c))
    except Exception:  # no error cells: some versions raise instead of returning none
        pass
    for i, row in enumerate(data):
        for j, v in enumerate(row):
            r, c = row0 + i, col0 + j
            ref = f"{name}!{_col(c + 1)}{r + 1}"
            f = forms[i][j]
            if f.startswith("="):
                formulas[ref] = f
            if (r, c) in errors:
                cells[ref] = ["e", sheet.getCellByPosition(c, r).getString()]
            elif isinstance(v, float):
                cells[ref] = ["n", v]
            elif v != "":
                cells[ref] = ["s", v]


def _col(n: int) -> str:
    s = ""
    while n:
        n, rem = divmod(n - 1, 26)
        s = chr(65 + rem) + s
    return s


def main() -> int:
    jobs = json.load(sys.stdin)
    profile = tempfile.mkdtemp(prefix="napkin-lo-")
    port = _free_port()
    soffice = shutil.which("soffice") or "/usr/bin/soffice"
    proc = subprocess.Popen(
        [soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--invisible",
         "--nologo", "--norestore", "--nodefault",
         f"--accept=socket,host=127.0.0.1,port={port};urp;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = []
    try:
        desktop = _connect(port, time.time() + 90)
        for k, job in enumerate(jobs):
            # a private copy: LibreOffice locks the file it opens (.~lock.NAME#), and a
            # second LibreOffice opening the same file meanwhile (tests run in parallel)
            # is refused the load; the copy's lock is this process's alone
            copy = os.path.join(profile, f"job{k}-{os.path.basename(job['path'])}")
            shutil.copyfile(job["path"], copy)
            url = uno.systemPathToFileUrl(copy)
            doc = desktop.loadComponentFromURL(url, "_blank", 0, (_prop("Hidden", True),))
            if doc is None:
                raise RuntimeError(f"LibreOffice could not load {job['path']}")
            try:
                sheets = doc.getSheets()
                for name in job.get("unprotect") or ():
                    sheets.getByName(name).unprotect("")
                for name, row in job.get("insert_rows") or ():
                    sheets.getByName(name).getRows().insertByIndex(row - 1, 1)
                for name, src, dst in job.get("copy") or ():
                    sheet = sheets.getByName(name)
                    sheet.copyRange(sheet.getCellRangeByName(dst).getCellAddress(),
                                    sheet.getCellRangeByName(src).getRangeAddress())
                for ref, value in (job.get("edits") or {}).items():
                    sheet, _, cell = ref.rpartition("!")
                    _set(sheets.getByName(sheet.strip("'")), cell, value)
                doc.calculateAll()
                cells, formulas = _read(doc)
                out.append({"cells": cells, "formulas": formulas})
                if job.get("save"):
                    doc.storeToURL(uno.systemPathToFileUrl(os.path.abspath(job["save"])),
                                   (_prop("FilterName", "Calc MS Excel 2007 XML"),))
            finally:
                doc.close(True)
        try:
            desktop.terminate()
        except Exception:  # the bridge drops while LibreOffice quits
            pass
    finally:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
