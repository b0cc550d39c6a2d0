"""What strict mode refuses in the corpus of Excel-saved workbooks, and how much of it
napkin computes: ``python -m tools.refusal_census``.

Every workbook of ``tests/corpus`` (``--corpus``: another folder, searched for .xlsx and
.xlsm) goes through ``addin.engine.census.census``: strict mode's outcome, its formula
cells equal to Excel's cached values, and every refusal strict mode would have to lift
for the workbook to compute. The refusals are counted by cause -- a function not
checked (``COSH()``), a function given a form of argument not checked (``TEXT() given an
empty cell``), a kind of reference or of formula napkin cannot compute (links to other
workbooks, a circular reference) -- by the files they refuse, the files strict mode
computes keeping Excel's values in their cells (``addin.engine.kept``: nothing computed
reads them) and the formula cells they cover. A file is counted under every cause it has;
the refused files with exactly one are the cheapest to win. Kept cells never count as
computed in the coverage.

With ``--libreoffice``, LibreOffice recalculates every file too (one session, through
``tools/lo_uno.py`` run by the system Python, which has LibreOffice's ``uno``), and its
values of the same cells are compared with Excel's: LibreOffice's coverage beside
napkin's. Prints the section of ``docs/fidelity.md`` (``--doc FILE``: writes it into
FILE, in place of the one there).
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from addin.engine.census import FileCensus, census, same
from addin.engine.forms import FORMS
from addin.ooxml.xlsx_values import num2col

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus"
SECTION = "## What strict mode refuses"
COMMAND = "python -m tools.refusal_census --libreoffice --top 40 --doc docs/fidelity.md"
#: LibreOffice driven through its UNO API: the script, and the Python that has ``uno``
LO_UNO, UNO_PYTHON = ROOT / "tools" / "lo_uno.py", "/usr/bin/python3"

_GIVEN = re.compile(r"(?P<name>[\w.]+\(\)) given (?P<forms>.+)")
_UNKNOWN = re.compile(r"the function (?P<name>[\w.]+)\(\)")


def causes_of(kind: str, reason: str) -> list[str]:
    """The causes a refusal of ``kind`` with ``reason`` (``addin.engine.api.Refusal``)
    counts under: one per form of argument of a form refusal (``"TEXT() given an empty
    cell, an error value"`` is two), the function of a function not checked or unknown,
    one cause for every failure of napkin's (their reasons are the exceptions)."""
    if kind == "function not checked":
        return [f"{reason}: function not checked"]
    if kind == "unknown function":
        m = _UNKNOWN.match(reason)
        return [f"{m.group('name').upper() if m else reason}(): unknown function"]
    if kind == "napkin failed":
        return ["napkin failed compiling a formula (a bug of napkin's)"]
    if kind == "form of argument not checked":
        m = _GIVEN.fullmatch(reason)
        if m:
            said = m.group("forms")
            found = [f"{m.group('name')} given {f}" for f in FORMS.values() if f in said]
            if found:
                return found
    return [reason]


@dataclass
class Cause:
    """One cause's count: the files it refuses, the formula cells it covers."""

    name: str
    files: set = field(default_factory=set)  # the files it is found in
    refuses: set = field(default_factory=set)  # of those, the files strict mode refuses
    only: set = field(default_factory=set)  # the files it alone refuses
    cells: dict = field(default_factory=dict)  # (file, label) -> formula cells

    @property
    def cell_count(self) -> int:
        """The formula cells it covers, over every file."""
        return sum(self.cells.values())


@dataclass
class Census:
    """The corpus's census (``count``)."""

    files: list[FileCensus]
    causes: dict[str, Cause]
    crashed: dict[str, str]  # file -> the exception (neither computed nor refused)
    #: file -> the cells compared whose value LibreOffice gives as Excel saved it
    libreoffice: dict[str, int] | None = None

    @property
    def refused(self) -> list[FileCensus]:
        """The files strict mode refuses."""
        return [f for f in self.files if f.refused is not None]

    @property
    def kept(self) -> list[FileCensus]:
        """The files strict mode computes keeping Excel's values in some cells."""
        return [f for f in self.files if f.refused is None and f.kept_cells]

    @property
    def with_cause(self) -> list[FileCensus]:
        """The files with at least one cause found."""
        return [f for f in self.files if f.causes or f.whole]

    def one_cause(self) -> int:
        """How many files exactly one cause refuses."""
        return len(set().union(*(c.only for c in self.causes.values())))

    @property
    def cells(self) -> int:
        """The formula cells compared, over every file."""
        return sum(f.cells for f in self.files)

    @property
    def equal(self) -> int:
        """The formula cells strict mode computes to Excel's value, over every file."""
        return sum(f.equal for f in self.files)

    def mismatched(self) -> list[str]:
        """Files refused, or computed keeping Excel's values in some cells, with no
        cause found; or computed with every cell and a cause found (a census that misses
        or invents a refusal): should be none."""
        return [f.path for f in self.files
                if (f.refused is not None or f.kept_cells > 0) != bool(f.causes or f.whole)]

    def largest_first(self) -> list[Cause]:
        """The causes by the files they refuse, then the files they are found in, then
        the cells they cover, then the files they alone are found in, most first."""
        return sorted(self.causes.values(),
                      key=lambda c: (-len(c.refuses), -len(c.files), -c.cell_count,
                                     -len(c.only), c.name))


def file_causes(fc: FileCensus) -> dict[str, dict[str, int]]:
    """Cause -> {cell label: formula cells} of one file's census."""
    out: dict[str, dict[str, int]] = {}
    if fc.whole:
        out[f"the workbook as a whole: {fc.whole}"] = {"": fc.cells}
    for r in fc.causes:
        for name in causes_of(r.kind, r.reason):
            out.setdefault(name, {})[r.label] = r.cells
    return out


def count(paths: Iterable[Path], root: Path | None = None, progress=None) -> Census:
    """The census of the workbooks ``paths`` (named relative to ``root`` when given)."""
    files, causes, crashed = [], {}, {}
    for path in paths:
        name = path.relative_to(root).as_posix() if root else str(path)
        if progress:
            progress(name)
        try:
            fc = census(path)
        except Exception as ex:  # a bug: reported beside the table
            crashed[name] = f"{type(ex).__name__}: {ex}"
            continue
        fc.path = name
        files.append(fc)
        mine = file_causes(fc)
        for cause, cells in mine.items():
            c = causes.setdefault(cause, Cause(cause))
            c.files.add(name)
            if fc.refused is not None:
                c.refuses.add(name)
            c.cells.update({(name, label): n for label, n in cells.items()})
            if len(mine) == 1:
                c.only.add(name)
    return Census(files, causes, crashed)


def libreoffice_cells(paths: list[Path]) -> list[dict[str, list]]:
    """LibreOffice's value of every cell of each workbook once recalculated
    (``calculateAll``), ``{"Sheet!A1": [kind, value]}`` (``tools/lo_uno.py``'s, one
    LibreOffice session for them all)."""
    jobs = json.dumps([{"path": str(p)} for p in paths])
    proc = subprocess.run([UNO_PYTHON, str(LO_UNO)], input=jobs, capture_output=True,
                          text=True, timeout=1800, check=True)
    return [job["cells"] for job in json.loads(proc.stdout)]


def libreoffice_equal(fc: FileCensus, cells: dict[str, list]) -> int:
    """How many of ``fc``'s compared cells LibreOffice (``cells``, as
    ``libreoffice_cells`` gives one workbook's) gives as Excel saved them. LibreOffice
    has no logical type: its 1 or 0 is taken for TRUE or FALSE; a cell it reads back
    empty holds the empty text."""
    n = 0
    for (sheet, r, c), excel in fc.compared.items():
        kind, value = cells.get(f"{sheet}!{num2col(c)}{r}", ("s", ""))
        if kind == "e":
            value = ("#ERR", value)
        elif isinstance(excel, bool) and value in (0.0, 1.0):
            value = bool(value)
        n += same(excel, value)
    return n


def corpus_files(folder: Path) -> list[Path]:
    """The .xlsx and .xlsm files under ``folder``, sorted."""
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".xlsx", ".xlsm"))


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def markdown(c: Census, top: int | None = None, when: datetime.date | None = None) -> str:
    """The census as ``docs/fidelity.md``'s section (``top``: the first causes only)."""
    when = when or datetime.date.today()
    refused, total = len(c.refused), len(c.files)
    accepted_cells = sum(f.cells for f in c.files if f.refused is None)
    prose = [
        f"`{COMMAND}` ({when.day} {when:%B %Y}). Each corpus file is computed as "
        "`napkin calc` does (strict: a cell it does not compute keeps Excel's value, and so "
        "do the formulas reading it, where that is safe, else the file is refused; "
        "\"Cells kept\" below) and "
        "again as `--lenient` does with every refusal strict mode would make recorded "
        "(`addin.engine.api.refusal_causes`), so a file is counted under every cause that "
        "would have to be lifted for all its cells to be computed. A cause is seen once a "
        "cell: a second reason behind the first in the same cell (another form of "
        "argument) shows only once the first is lifted.",
        f"- files: {total}; refused in strict mode: {refused}; computed keeping Excel's "
        f"values in some cells (`napkin calc`'s exit status 4): {len(c.kept)}, "
        f"{sum(f.kept_cells for f in c.kept):,} formula cells kept, "
        f"{sum(f.kept for f in c.kept):,} of them compared; refused or computed so with "
        f"at least one cause found: {len(c.with_cause)}; with exactly one cause: "
        f"{c.one_cause()}",
        f"- formula cells compared (with a value Excel cached, those depending on "
        f"TODAY/NOW/RAND left out): {c.cells:,}; in the files strict mode computes: "
        f"{accepted_cells:,}",
        f"- coverage, the cells strict mode computes to Excel's value ÷ all those cells "
        f"(a cell kept is not computed): {c.equal:,} / {c.cells:,} = "
        f"**{_pct(c.equal, c.cells)}**",
    ]
    if c.libreoffice is None:
        prose.append("- LibreOffice's coverage of the same cells: not measured in this run "
                     "(`--libreoffice`)")
    else:
        lo = sum(c.libreoffice.values())
        lo_refused = sum(c.libreoffice.get(f.path, 0) for f in c.refused)
        refused_cells = sum(f.cells for f in c.refused)
        prose.append(
            f"- LibreOffice's coverage of the same cells (each file recalculated, "
            f"`calculateAll`; its 1 and 0 taken for TRUE and FALSE, as it has no logical "
            f"type): {lo:,} / {c.cells:,} = **{_pct(lo, c.cells)}**; in the files strict "
            f"mode computes: {lo - lo_refused:,} / {c.cells - refused_cells:,} = "
            f"{_pct(lo - lo_refused, c.cells - refused_cells)}; in those it refuses: "
            f"{lo_refused:,} / {refused_cells:,} = {_pct(lo_refused, refused_cells)}")
    if c.crashed:
        prose.append(f"- crashed (neither computed nor refused): {', '.join(sorted(c.crashed))}")
    if c.mismatched():
        prose.append(f"- refused with no cause found, or computed with one: "
                     f"{', '.join(c.mismatched())}")
    lines = [SECTION, "", textwrap.fill(prose[0], 90), ""]
    lines += [textwrap.fill(p, 90, subsequent_indent="  ") for p in prose[1:]]
    lines += ["", "| cause | files refused | files computed, its cells kept | files where "
              "the only cause | formula cells |", "| --- | ---: | ---: | ---: | ---: |"]
    shown = c.largest_first()
    for cause in shown[:top] if top else shown:
        name = cause.name.replace("|", "\\|")
        lines.append(f"| {name} | {len(cause.refuses)} | "
                     f"{len(cause.files) - len(cause.refuses)} | {len(cause.only)} | "
                     f"{cause.cell_count:,} |")
    if top and len(shown) > top:
        lines.append(f"| ({len(shown) - top} more, none refusing more files; without "
                     "`--top` the command lists them all) | | | | |")
    return "\n".join(lines) + "\n"


def write_section(doc: Path, section: str) -> None:
    """Put ``section`` into ``doc`` in place of its own (from ``SECTION`` to the next
    heading of its level), or at its end."""
    text = doc.read_text(encoding="utf-8")
    start = text.find(SECTION + "\n")
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        end = text.find("\n## ", start + len(SECTION))
        text = text[:start] + section + (text[end:] if end >= 0 else "")
    doc.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.refusal_census",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="folder of workbooks")
    ap.add_argument("--doc", type=Path, help="write the section into this Markdown file")
    ap.add_argument("--top", type=int, help="list the first TOP causes only")
    ap.add_argument("--libreoffice", action="store_true",
                    help="compare LibreOffice's values of the same cells too")
    args = ap.parse_args(argv)
    import warnings

    warnings.filterwarnings("ignore", category=RuntimeWarning)  # (as napkin calc does)
    paths = corpus_files(args.corpus)
    c = count(paths, args.corpus,
              progress=lambda name: print(name, file=sys.stderr) if sys.stderr.isatty()
              else None)
    if args.libreoffice:
        by_name = {f.path: f for f in c.files}
        c.libreoffice = {}
        for path, cells in zip(paths, libreoffice_cells(paths), strict=True):
            fc = by_name.get(path.relative_to(args.corpus).as_posix())
            if fc is not None:
                c.libreoffice[fc.path] = libreoffice_equal(fc, cells)
    section = markdown(c, args.top)
    if args.doc:
        write_section(args.doc, section)
    print(section, end="")
    return 1 if c.crashed or c.mismatched() else 0


if __name__ == "__main__":
    sys.exit(main())
