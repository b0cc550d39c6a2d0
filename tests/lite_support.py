"""What the xlwings Lite tests share: the harness' folders, an error cell as Office.js
hands it to Lite, and tests/pyodide/offline.py (the wheels of the offline Pyodide test)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent
HARNESS = HERE / "pyodide"
STANDIN = HARNESS / "xlwings_standin"


def ERR(code: str) -> dict:
    """An error cell as Office.js hands it to xlwings Lite (a custom-functions error value;
    xlwings reads its ``type`` and ``basicValue``)."""
    kinds = {"#N/A": "NotAvailable", "#DIV/0!": "Div0", "#VALUE!": "Value", "#NUM!": "Num",
             "#REF!": "Ref", "#NAME?": "Name", "#NULL!": "Null"}
    return {"type": "Error", "basicValue": code, "errorType": kinds[code]}


def offline_harness():
    """tests/pyodide/offline.py: the wheels of the offline Pyodide test and their sources."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pyodide_offline", HARNESS / "offline.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
