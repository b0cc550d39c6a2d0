"""Compute generated formulas with ``napkin calc`` and with LibreOffice, and compare.

Each batch of formulas is one workbook (openpyxl): sheet ``In`` holds the inputs
(``inputs.cells()``), sheet ``F`` one formula a row in column A; every other batch uses
the 1904 date system. napkin computes each workbook in-process (``calc_workbook``,
``strict=False``: a cell strict mode would refuse keeps no value, and counts as refused);
one LibreOffice session (``tools/lo_uno.py``) loads them all, recalculates everything
(``calculateAll``) and saves each as .xlsx. Both outputs' cached values are read the same
way (``fidelity.cached_values``) and compared as the corpus test compares them: numbers to
1e-9 relative, text exactly, booleans as booleans, errors by their code.

An outcome is ``agree``, ``refused`` (napkin's strict mode would not compute the cell),
``known`` (LibreOffice differs from Excel there, as a row of ``known_differences.csv``
records with Microsoft's documented value), ``unsettled`` (a disagreement
``unsettled.csv`` lists: no source at hand says Excel's value) or ``disagree``.
"""

from __future__ import annotations

import csv
import json
import math
import re
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from zipfile import ZIP_DEFLATED, ZipFile

import openpyxl
from fidelity import cached_values, same
from openpyxl.utils.datetime import CALENDAR_MAC_1904

from addin.engine.api import calc_workbook
from differential import inputs
from differential.generate import Formula, stored

TESTS = Path(__file__).resolve().parents[1]
KNOWN = Path(__file__).with_name("known_differences.csv")
UNSETTLED = Path(__file__).with_name("unsettled.csv")
UNO_PYTHON = "/usr/bin/python3"
SHEET = "F"
UNCOMPUTED = -987654.321  # the cached value of every formula before it is computed


@dataclass
class Result:
    """One formula's values in both engines and the outcome of their comparison."""

    formula: Formula
    date1904: bool
    napkin: object
    libreoffice: object
    shown: str  # what LibreOffice shows in the cell (its own error texts: Err:502)
    outcome: str = ""
    known: dict | None = None
    serials: tuple = ()  # (function, napkin's value) of its date arguments (SERIAL_ARGUMENTS)


#: functions whose first arguments are dates: name -> how many. Their values, as napkin
#: computes them, are written beside the formula (from column B of sheet F), for the
#: rows of ``known_differences.csv`` whose form is ``serial:A..B`` (BETA.INV's
#: probability too: no date, but a number whose range settles its value)
SERIAL_ARGUMENTS = {"DAY": 1, "MONTH": 1, "YEAR": 1, "EOMONTH": 1, "EDATE": 1,
                    "WORKDAY": 1, "DAYS": 2, "DAYS360": 2, "YEARFRAC": 2, "DATEDIF": 2,
                    "TEXT": 1, "BETA.INV": 1, "WEEKDAY": 1, "NETWORKDAYS": 2,
                    "NETWORKDAYS.INTL": 2, "WORKDAY.INTL": 1, "WEEKNUM": 1, "ISOWEEKNUM": 1}


def arguments(text: str) -> list[str]:
    """The arguments of the call ``text`` (``F(a,G(b,c),"x,y")``: ``a``, ``G(b,c)``,
    ``"x,y"``), split at its top-level commas."""
    inner = text[text.index("(") + 1:text.rindex(")")]
    out, depth, start, quoted = [], 0, 0, False
    for i, ch in enumerate(inner):
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(inner[start:i])
            start = i + 1
    return [*out, inner[start:]] if inner else out


_DATE_CALL = re.compile(r"(?<![\w.])(" + "|".join(SERIAL_ARGUMENTS) + r")\(")


def date_arguments(text: str) -> list[tuple[str, str]]:
    """``(function, argument)`` of the date arguments of every call in ``text`` of a
    function of ``SERIAL_ARGUMENTS``, nested calls included (``DAY(DAYS360(1.5,A1))``:
    the DAYS360 call, then ``1.5`` and ``A1``)."""
    out = []
    for m in _DATE_CALL.finditer(text):
        depth, quoted = 0, False
        for end in range(m.end() - 1, len(text)):
            ch = text[end]
            quoted = not quoted if ch == '"' else quoted
            if not quoted and ch in "({":
                depth += 1
            elif not quoted and ch in ")}":
                depth -= 1
                if depth == 0:
                    break
        out += [(m[1], a) for a in arguments(text[m.start():end + 1])[:SERIAL_ARGUMENTS[m[1]]]]
    return out


def write_batch(path: Path, batch: list[Formula], date1904: bool) -> None:
    """One workbook: the inputs on ``In``, a formula a row on ``F`` (column A), and the
    date arguments of the functions of ``SERIAL_ARGUMENTS`` beside it."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "In"
    for ref, value in inputs.cells().items():
        if value is not None:
            ws[ref] = value
    sheet = wb.create_sheet(SHEET)
    for row, f in enumerate(batch, 1):
        sheet.cell(row, 1, stored(f.text))
        for k, (_, arg) in enumerate(date_arguments(f.text)):
            sheet.cell(row, 2 + k, stored(arg))
    if date1904:
        wb.epoch = CALENDAR_MAC_1904
    wb.save(path)
    _cache_unknown(path)


def _cache_unknown(path: Path) -> None:
    """Give every formula of sheet F the cached value ``UNCOMPUTED``: napkin keeps it in a
    cell strict mode refuses (lenient mode keeps Excel's cached values there)."""
    with ZipFile(path) as zf:
        parts = {i.filename: zf.read(i.filename) for i in zf.infolist()}
    name = "xl/worksheets/sheet2.xml"
    # openpyxl writes an empty value as <v /> without lxml and <v></v> with it
    parts[name] = re.sub(rb"</f><v\s*(?:/>|></v>)", f"</f><v>{UNCOMPUTED}</v>".encode(),
                         parts[name])
    with ZipFile(path, "w", ZIP_DEFLATED) as zf:
        for n, data in parts.items():
            zf.writestr(n, data)


def napkin_values(src: Path, dst: Path) -> dict[int, object]:
    """``{row: value}`` napkin computes on sheet F (rows strict mode refuses: absent)."""
    calc_workbook(src, dst, strict=False, notes=[])
    return {r: v for (s, r, c), v in cached_values(dst).items()
            if s == SHEET and c == 1 and v != UNCOMPUTED}


def napkin_serials(dst: Path, batch: list[Formula]) -> dict[int, tuple]:
    """``{row: ((function, value), ...)}``: the date arguments napkin computed beside the
    formulas of ``dst`` (``write_batch``), numbers only."""
    held = cached_values(dst)
    found: dict[int, tuple] = {}
    for row, f in enumerate(batch, 1):
        pairs = []
        for k, (name, _) in enumerate(date_arguments(f.text)):
            v = held.get((SHEET, row, 2 + k))
            if isinstance(v, (int, float)) and not isinstance(v, bool) and v != UNCOMPUTED:
                pairs.append((name, float(v)))
        found[row] = tuple(pairs)
    return found


def libreoffice_values(srcs: list[Path], saved: list[Path]) -> list[tuple[dict, dict]]:
    """For each workbook: ``({row: value}, {row: shown text})`` after LibreOffice
    recalculated everything, values as LibreOffice saves them in .xlsx."""
    jobs = [{"path": str(s), "save": str(d)} for s, d in zip(srcs, saved, strict=True)]
    script = TESTS.parent / "tools" / "lo_uno.py"
    proc = subprocess.run([UNO_PYTHON, str(script)], input=json.dumps(jobs),
                          capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(f"LibreOffice failed: {proc.stderr[-2000:]}")
    out = []
    for job, d in zip(json.loads(proc.stdout), saved, strict=True):
        shown = {int(ref.split("!A")[1]): kv[1] for ref, kv in job["cells"].items()
                 if ref.startswith(f"{SHEET}!A")}
        values = {r: v for (s, r, c), v in cached_values(d).items()
                  if s == SHEET and c == 1}
        out.append((values, shown))
    return out


def render(value) -> str:
    """A value as ``known_differences.csv`` writes it: ``#NUM!``, ``TRUE``, ``"text"``,
    a number in its shortest form, ``<no value>``."""
    if value is None:
        return "<no value>"
    if isinstance(value, tuple):
        return value[1]
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return repr(value).removesuffix(".0") if math.isfinite(value) else repr(value)
    return f'"{value}"'


def known_differences() -> list[dict]:
    """The rows of ``known_differences.csv``. ``function``: a regular expression the
    subject (``Formula.subject``) matches whole, ``*`` any; ``form``: one searched in the formula
    with its input cells replaced by what they hold (``inputs.resolved``); ``napkin``,
    ``libreoffice``: ``*``, a value as ``render`` writes it (LibreOffice's also as it
    shows it, ``Err:502``), or ``re:`` and a regular expression it matches whole. A form
    ``serial(F):A..B`` is no expression: it holds in the 1900 date system when a date
    argument of a call in the formula of a function F names (a regular expression; all
    of ``SERIAL_ARGUMENTS`` when ``(F)`` is left out), as napkin computes it, is a
    number from A to B; ``serial1904(F):A..B`` the same in the 1904 date system."""
    with KNOWN.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(row for row in fh if not row.startswith("#")))
    for row in rows:
        row["subject"] = re.compile(".*" if row["function"] == "*" else row["function"])
        number = r"(-?[\d.]+(?:e\d+)?)"  # (1e300: a bound past the largest serial drawn)
        serial = re.fullmatch(rf"serial(1904)?(?:\(([^)]*)\))?:{number}\.\.{number}",
                              row["form"])
        row["serials"] = (bool(serial[1]), re.compile(serial[2] or ".*"), float(serial[3]),
                          float(serial[4])) if serial else None
        row["pattern"] = re.compile("." if serial else row["form"])
    return rows


def _value_matches(wanted: str, *values: str) -> bool:
    if wanted == "*":
        return True
    if wanted.startswith("re:"):
        return any(re.fullmatch(wanted[3:], v, re.S) for v in values)
    return wanted in values


def _serial_in(row: dict, r: Result) -> bool:
    if row["serials"] is None:
        return True
    date1904, names, low, high = row["serials"]
    return r.date1904 == date1904 and any(names.fullmatch(name) and low <= v <= high
                                          for name, v in r.serials)


def _matches(row: dict, r: Result, text: str) -> bool:
    return (bool(row["subject"].fullmatch(r.formula.subject))
            and bool(row["pattern"].search(text)) and _serial_in(row, r)
            and _value_matches(row["napkin"], render(r.napkin))
            and _value_matches(row["libreoffice"], render(r.libreoffice), r.shown))


def unsettled() -> set[str]:
    """The formulas of ``unsettled.csv``: disagreements no source settles yet."""
    with UNSETTLED.open(encoding="utf-8", newline="") as fh:
        return {row["formula"] for row in csv.DictReader(r for r in fh if not r.startswith("#"))}


def judge(results: list[Result], known: list[dict]) -> None:
    """Set each result's outcome (see the module's docstring)."""
    open_ = unsettled()
    for r in results:
        if r.napkin is None:
            r.outcome = "refused"
        elif r.libreoffice is not None and same(r.libreoffice, r.napkin):
            r.outcome = "agree"
        else:
            text = inputs.resolved(r.formula.text)
            r.known = next((row for row in known if _matches(row, r, text)), None)
            r.outcome = "known" if r.known else \
                "unsettled" if r.formula.text in open_ else "disagree"


def run(batches: list[list[Formula]], workdir: Path | None = None) -> list[Result]:
    """Compute every batch in both engines (batch k in the 1904 date system when k is
    odd) and judge each formula."""
    with tempfile.TemporaryDirectory(prefix="napkin-diff-") as tmp:
        d = Path(workdir or tmp)
        srcs = [d / f"batch{k}.xlsx" for k in range(len(batches))]
        for k, (src, batch) in enumerate(zip(srcs, batches, strict=True)):
            write_batch(src, batch, date1904=k % 2 == 1)
        ours = [napkin_values(s, s.with_name(s.stem + "-napkin.xlsx")) for s in srcs]
        serials = [napkin_serials(s.with_name(s.stem + "-napkin.xlsx"), b)
                   for s, b in zip(srcs, batches, strict=True)]
        theirs = libreoffice_values(srcs, [s.with_name(s.stem + "-lo.xlsx") for s in srcs])
    results = []
    for k, batch in enumerate(batches):
        lo, shown = theirs[k]
        for row, f in enumerate(batch, 1):
            results.append(Result(f, k % 2 == 1, ours[k].get(row), lo.get(row),
                                  str(shown.get(row, "")), serials=serials[k].get(row, ())))
    judge(results, known_differences())
    return results


def counts(results: list[Result]) -> Counter:
    """How many formulas had each outcome."""
    return Counter(r.outcome for r in results)


def describe(r: Result) -> str:
    """One line: the formula, the date system, both values."""
    system = "1904" if r.date1904 else "1900"
    return (f"={r.formula.text}  [{system}; {inputs.resolved(r.formula.text)}]  "
            f"napkin {render(r.napkin)}, LibreOffice {render(r.libreoffice)}"
            f" ({r.shown})")
