"""``napkin addin install`` / ``uninstall``: the xlwings add-in route (Windows desktop
Excel, local Python).

What can be done from Python is done (on Windows, unless ``--dry-run``):

1. install the xlwings add-in into Excel (``xlwings addin install``);
2. in the user's xlwings config (``~/.xlwings/xlwings.conf``): ``Interpreter_Win`` = this
   Python, and nothing else. Where napkin's functions come from (``UDF Modules``) is a
   setting of the workbook, in its own ``xlwings.conf`` sheet (the template has one,
   ``xlwings_conf_rows``), which overrides the user config for that workbook only.

The user config is changed with care, because other xlwings workbooks read it too: every
other line is kept byte for byte, the file is first copied to ``xlwings.conf.napkin-bak``,
what changes is printed (with the old value), and the file is written in the encoding
that xlwings' VBA reads it with. That VBA (``GetConfigFromFile`` in ``xlwings.bas``) reads
it with ``Open ... For Input``, i.e. in the Windows ANSI code page, and xlwings' own CLI
(``xlwings.cli.update_user_config``) writes it with Python's default ``open``, which is
that code page on Windows; napkin names the code page explicitly (``mbcs``), so that a
path such as ``C:\\Users\\Jürgen\\...`` reaches VBA intact (as UTF-8 it would read
``JÃ¼rgen``). ``napkin addin uninstall`` puts back what the keys were before (from the
backup) and removes the backup.

What only the user can do in Excel is printed, step by step: trust access to the VBA
project, open the workbook, reference the add-in, Import Functions, save as ``.xlsm``.
On Linux and macOS (no Python UDFs in classic xlwings there) the steps are printed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

# The xlwings.conf rows and the UDF module name live beside the template's xlwings.conf
# sheet (re-exported here); workbook/ never imports addin/, so there is no import cycle.
from workbook.xlwings_conf import UDF_MODULE, xlwings_conf_rows

__all__ = ["UDF_MODULE", "xlwings_conf_rows", "user_config_settings", "manual_steps",
           "update_user_config", "restore_user_config", "install", "uninstall"]

#: Suffix of the copy of the user config that napkin keeps before changing it.
BACKUP_SUFFIX = ".napkin-bak"


def user_config_settings(python: str | None = None) -> list[tuple[str, str]]:
    """(key, value) written to the user's xlwings config on Windows: only the interpreter
    (the workbook's xlwings.conf sheet says where the functions come from)."""
    return [("INTERPRETER_WIN", python or sys.executable)]


def ansi_encoding() -> str:
    """The encoding xlwings' VBA reads its config file with: the ANSI code page."""
    return "mbcs" if sys.platform.startswith("win") else "cp1252"


def _user_config_path() -> str:
    import xlwings

    return xlwings.USER_CONFIG_FILE


def _key(line: bytes) -> str:
    """The key of a config line (``"KEY","value"``), lower-cased; ASCII in practice."""
    return line.split(b",", 1)[0].strip().strip(b'"').decode("ascii", "replace").lower()


def _lines(path: str) -> list[bytes]:
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        return f.read().splitlines(keepends=True)


def _value(line: bytes, encoding: str) -> str:
    v = line.split(b",", 1)[1] if b"," in line else b""
    return v.strip().strip(b'"').decode(encoding, "replace")


def update_user_config(settings: list[tuple[str, str]], path: str | None = None,
                       encoding: str | None = None) -> list[str]:
    """Set ``settings`` in xlwings' user config file (``"KEY","value"`` lines, as xlwings
    writes them); returns a sentence per change, naming the old value.

    Every other line is kept byte for byte; an existing line of a key is replaced in its
    place, whatever its letter case (the add-in reads keys case-insensitively, first match
    wins). Before the first change the file is copied to ``<file>.napkin-bak`` (an empty
    backup when there was no file), which ``restore_user_config`` reads. The new lines
    are encoded in ``encoding`` (default: the ANSI code page, ``ansi_encoding``); a
    value that code page cannot hold raises ValueError, as VBA could not read it.
    """
    path = path or _user_config_path()
    encoding = encoding or ansi_encoding()
    lines = _lines(path)
    backup = path + BACKUP_SUFFIX
    changes = []
    for key, value in settings:
        try:
            new = f'"{key}","{value}"'.encode(encoding)
        except UnicodeEncodeError:
            raise ValueError(
                f"{value!r} cannot be written in the code page ({encoding}) that xlwings' "
                f"add-in reads {path} with; install napkin into a Python whose path has "
                "only characters of that code page") from None
        eol = b"\r\n" if any(ln.endswith(b"\r\n") for ln in lines) else b"\n"
        at = [i for i, ln in enumerate(lines) if _key(ln) == key.lower()]
        if at:
            old = _value(lines[at[0]], encoding)
            if old == value and len(at) == 1:
                continue
            ending = lines[at[0]][len(lines[at[0]].rstrip(b"\r\n")):] or eol
            lines[at[0]] = new + ending
            for i in reversed(at[1:]):
                del lines[i]
            changes.append(f'"{key}": "{old}" -> "{value}"')
        else:
            if lines and not lines[-1].endswith(b"\n"):
                lines[-1] += eol
            lines.append(new + eol)
            changes.append(f'"{key}": (not set) -> "{value}"')
    if not changes:
        return []
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    if not os.path.exists(backup):
        if os.path.exists(path):
            shutil.copy2(path, backup)
        else:
            open(backup, "wb").close()
    tmp = path + ".napkin-tmp"
    with open(tmp, "wb") as f:
        f.write(b"".join(lines))
    os.replace(tmp, path)
    return changes


def restore_user_config(keys: list[str], path: str | None = None) -> list[str] | None:
    """Undo ``update_user_config`` for ``keys``: each gets back its line from the
    backup (or is removed when the backup has none); every other line stays as it is now.
    The backup is then removed, and so is a config file left empty that did not exist
    before. Returns a sentence per key, or None when there is no backup (nothing to undo).
    """
    path = path or _user_config_path()
    backup = path + BACKUP_SUFFIX
    if not os.path.exists(backup):
        return None
    before = _lines(backup)
    lines = _lines(path)
    done = []
    for key in keys:
        old = [ln for ln in before if _key(ln) == key.lower()]
        at = [i for i, ln in enumerate(lines) if _key(ln) == key.lower()]
        if old and at:
            lines[at[0]] = old[0]
            for i in reversed(at[1:]):
                del lines[i]
            done.append(f'"{key}" restored')
        elif old:
            lines.append(old[0])
            done.append(f'"{key}" restored')
        else:
            for i in reversed(at):
                del lines[i]
            done.append(f'"{key}" removed (it was not set before)')
    if not before and not b"".join(lines).strip():
        if os.path.exists(path):
            os.remove(path)
    else:
        tmp = path + ".napkin-tmp"
        with open(tmp, "wb") as f:
            f.write(b"".join(lines))
        os.replace(tmp, path)
    os.remove(backup)
    return done


def manual_steps(workbook: str = "napkin.xlsx") -> list[str]:
    """What the user does in Excel, in order, after the automatic part."""
    return [
        "Excel: File > Options > Trust Center > Trust Center Settings > Macro Settings: "
        "tick 'Trust access to the VBA project object model' (Import Functions writes VBA).",
        f"Write the template if you have none: napkin template --addin -o {workbook} "
        "(--addin: napkin's calls by the names the add-in's VBA defines); open it in "
        "Excel and save it as 'Excel Macro-Enabled Workbook (*.xlsm)' (the functions are "
        "VBA wrappers, which an .xlsx cannot keep).",
        "In that workbook: Alt+F11 (VBA editor) > Tools > References: tick 'xlwings' "
        "(the wrappers call the add-in), then close the VBA editor.",
        f"xlwings tab > Import Functions. The workbook's 'xlwings.conf' sheet sets "
        f"UDF Modules = {UDF_MODULE} for this workbook only; a workbook of your own needs "
        "that sheet too: " + "; ".join(f"A{i}: {k}, B{i}: {v}" for i, (k, v) in
                                       enumerate(xlwings_conf_rows(), 1)) + ".",
        "Type =RIDGE(989,3.35) in a cell: it shows 295.2. Save the .xlsm.",
        "Update later: install the newer napkin into the same Python, then xlwings tab > "
        "Restart UDF Server; run Import Functions again only when functions or their "
        "arguments changed.",
    ]


def _print_steps(steps: list[str], start: int) -> None:
    for i, step in enumerate(steps, start):
        print(f"  {i}. {step}")


def install(dry_run: bool = False, *, platform: str | None = None, run=subprocess.call,
            update_config=None) -> int:
    """Set up the add-in route where possible and print the remaining steps.

    Returns 0 on success, 1 when ``xlwings addin install`` failed or the user config
    could not be written. ``platform``, ``run`` and ``update_config`` are for tests
    (``sys.platform``, ``subprocess.call`` and ``update_user_config``).
    """
    platform = platform or sys.platform
    windows = platform.startswith("win")
    auto = [
        f"{sys.executable} -m xlwings.cli addin install   (copies xlwings.xlam to "
        "Excel's XLSTART folder)",
        *[f"user config ~/.xlwings/xlwings.conf: \"{k}\",\"{v}\" (the other keys kept, "
          "the file backed up; 'napkin addin uninstall' restores it)"
          for k, v in user_config_settings()],
    ]
    print("napkin in desktop Excel through the xlwings add-in (Windows, local Python).")
    if not windows:
        print(f"This is {platform}: classic xlwings runs Python functions in Excel only on "
              "Windows. On a Windows PC with Excel, install napkin into a Python there "
              "(a clone of napkin's repository, a venv, pip install -e . in the clone: "
              "docs/install-in-excel.md, section 0) and run 'napkin addin install'; it does:")
        _print_steps(auto, 1)
        print("Then, in Excel:")
        _print_steps(manual_steps(), len(auto) + 1)
        print("Excel on macOS or the web: use xlwings Lite instead (the template carries "
              "its code; see docs/install-in-excel.md).")
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
    try:
        changes = update_config(user_config_settings())
    except (OSError, ValueError) as exc:
        print(f"napkin addin install: the xlwings user config was not changed: {exc}",
              file=sys.stderr)
        return 1
    if changes:
        print("2. xlwings user config (other keys kept; a backup is kept beside it, "
              "'napkin addin uninstall' restores it): " + "; ".join(changes))
    else:
        print("2. xlwings user config: already set, nothing changed")
    print("Now, in Excel:")
    _print_steps(manual_steps(), len(auto) + 1)
    return 0


def uninstall(*, path: str | None = None) -> int:
    """Undo what ``napkin addin install`` changed in the xlwings user config."""
    done = restore_user_config([k for k, _ in user_config_settings()], path)
    if done is None:
        print("napkin addin uninstall: no backup of the xlwings user config from "
              "'napkin addin install' was found; nothing to restore.")
        return 0
    print("xlwings user config: " + "; ".join(done) + ". The xlwings add-in itself stays "
          "(other workbooks may use it): 'xlwings addin remove' removes it.")
    return 0
