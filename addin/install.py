"""``napkin addin install``: the xlwings add-in route (Windows desktop Excel, local Python).

What can be done from Python is done (on Windows, unless ``--dry-run``):

1. install the xlwings add-in into Excel (``xlwings addin install``);
2. in the user's xlwings config (``~/.xlwings/xlwings.conf``): ``Interpreter_Win`` = this
   Python, ``UDF Modules`` = ``addin.xlwings_udfs``.

What only the user can do in Excel is printed, step by step: trust access to the VBA
project, open the workbook, reference the add-in, Import Functions, save as ``.xlsm``.
On Linux and macOS (no Python UDFs in classic xlwings there) the steps are printed.

:func:`xlwings_conf_rows` gives the rows of a workbook's ``xlwings.conf`` sheet (the
template has one), which override the user config for that workbook.
"""

from __future__ import annotations

import subprocess
import sys

# The xlwings.conf rows and the UDF module name live beside the template's xlwings.conf
# sheet (re-exported here); workbook/ never imports addin/, so there is no import cycle.
from workbook.xlwings_conf import UDF_MODULE, xlwings_conf_rows

__all__ = ["UDF_MODULE", "xlwings_conf_rows", "user_config_settings", "manual_steps",
           "update_user_config",
           "install"]


def user_config_settings(python: str | None = None) -> list[tuple[str, str]]:
    """(key, value) written to the user's xlwings config on Windows."""
    return [("INTERPRETER_WIN", python or sys.executable), ("UDF MODULES", UDF_MODULE)]


def manual_steps(workbook: str = "napkin.xlsx") -> list[str]:
    """What the user does in Excel, in order, after the automatic part."""
    return [
        "Excel: File > Options > Trust Center > Trust Center Settings > Macro Settings: "
        "tick 'Trust access to the VBA project object model' (Import Functions writes VBA).",
        f"Write the template if you have none: napkin template -o {workbook}; open it in "
        "Excel and save it as 'Excel Macro-Enabled Workbook (*.xlsm)' (the functions are "
        "VBA wrappers, which an .xlsx cannot keep).",
        "In that workbook: Alt+F11 (VBA editor) > Tools > References: tick 'xlwings' "
        "(the wrappers call the add-in), then close the VBA editor.",
        f"xlwings tab > Import Functions. The workbook's 'xlwings.conf' sheet sets "
        f"UDF Modules = {UDF_MODULE}; without that sheet, the ribbon's 'UDF Modules' box "
        "(or the user config written above) does.",
        "Type =RIDGE(989,3.35) in a cell: it shows 295.2. Save the .xlsm.",
        "Update later: install the newer napkin into the same Python, then xlwings tab > "
        "Restart UDF Server; run Import Functions again only when functions or their "
        "arguments changed.",
    ]


def update_user_config(key: str, value: str, path: str | None = None) -> None:
    """Set ``key`` in xlwings' user config file, in its format (``"KEY","value"`` lines).

    Like ``xlwings.cli.update_user_config``, but an existing line of the key is replaced
    whatever its letter case (the add-in reads keys case-insensitively, first match wins).
    """
    import os

    if path is None:
        import xlwings

        path = xlwings.USER_CONFIG_FILE
    lines = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            lines = [ln for ln in f.readlines() if ln.strip()
                     and ln.split(",")[0].strip().strip('"').lower() != key.lower()]
    lines.append(f'"{key}","{value}"\n')
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)


def _print_steps(steps: list[str], start: int) -> None:
    for i, step in enumerate(steps, start):
        print(f"  {i}. {step}")


def install(dry_run: bool = False, *, platform: str | None = None, run=subprocess.call,
            update_config=None) -> int:
    """Set up the add-in route where possible and print the remaining steps.

    Returns 0 on success, 1 when ``xlwings addin install`` failed. ``platform``, ``run``
    and ``update_config`` are for tests (``sys.platform``, ``subprocess.call`` and
    :func:`update_user_config`).
    """
    platform = platform or sys.platform
    windows = platform.startswith("win")
    auto = [
        f"{sys.executable} -m xlwings.cli addin install   (copies xlwings.xlam to "
        "Excel's XLSTART folder)",
        *[f"user config ~/.xlwings/xlwings.conf: \"{k}\",\"{v}\""
          for k, v in user_config_settings()],
    ]
    print("napkin in desktop Excel through the xlwings add-in (Windows, local Python).")
    if not windows:
        print(f"This is {platform}: classic xlwings runs Python functions in Excel only on "
              "Windows. On a Windows PC with Excel, install napkin into a Python there "
              "(pip install from napkin's repository) and run 'napkin addin install'; it does:")
        _print_steps(auto, 1)
        print("Then, in Excel:")
        _print_steps(manual_steps(), len(auto) + 1)
        print("Excel on macOS or the web: use xlwings Lite instead (napkin lite; see "
              "docs/install-in-excel.md).")
        return 0
    if dry_run:
        print("Dry run: nothing is changed. 'napkin addin install' would do:")
        _print_steps(auto, 1)
        print("Then, in Excel:")
        _print_steps(manual_steps(), len(auto) + 1)
        return 0

    print(f"1. {auto[0]}")
    rc = run([sys.executable, "-m", "xlwings.cli", "addin", "install"])
    if rc != 0:
        print(f"'xlwings addin install' failed (exit status {rc}). Close Excel and run "
              "'napkin addin install' again; if it keeps failing, run "
              "'xlwings addin install' yourself and read its message.", file=sys.stderr)
        return 1
    if update_config is None:
        update_config = update_user_config
    for i, (key, value) in enumerate(user_config_settings(), 2):
        update_config(key, value)
        print(f"{i}. set \"{key}\" = \"{value}\" in the xlwings user config")
    print("Now, in Excel:")
    _print_steps(manual_steps(), len(auto) + 1)
    return 0

