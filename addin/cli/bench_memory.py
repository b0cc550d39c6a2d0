"""``napkin bench --only memory``: the memory ``napkin calc`` takes, by the cells of the
workbook it computes, and the evidence for the guard's cell limit.

Synthetic workbooks of ``N`` cells (``make_workbook``), for several ``N``, each computed by
``napkin calc`` (strict, then ``--lenient``) in a fresh process with the guard's cell and
shared-string limits lifted, so that sizes past them are measured as they would run. The
process reports, from ``/proc/self/status`` (Linux), its peak resident set (``VmHWM``)
and its peak address space (``VmPeak``, what ``RLIMIT_AS`` bounds) just before the output
workbook is written, and the peak resident set of the writing alone (``VmHWM`` reset by
writing ``5`` to ``/proc/self/clear_refs`` at that moment; ``VmPeak`` cannot be reset, so
the address space is the whole run's). Compositions (``KINDS``):

- ``mixed``: rows of 18 cells as a business sheet has them: an id, a category (one of 20
  shared strings), an item name (a shared string of its own), ten numbers, and five
  formulas: ``SUM`` of the ten and ``IF`` on it (shared formulas, as Excel writes a
  column filled down), an exact ``VLOOKUP`` into a 20-row table on a second sheet and a
  text join (each written out), and a one-cell array formula ``{=MAX(D2:M2-1)}``; every
  1,000th row also a 10-cell array formula. 5 of 18 cells are formulas;
- ``values``: the same rows with numbers in place of the formulas;
- ``formulas``: every cell a formula (``=A1+1`` down the first column, then ``=A2*2``
  across: shared formulas), which the work limit (``addin.engine.budget.MAX_WORK``)
  refuses past about 570,000 formulas, after reading and compiling them: the peak is
  that of the refusal;
- ``distinct``: every cell a formula of one shape whose numbers differ from cell to
  cell (``=2*1+MAX(0,1)``, ``=3*1+MAX(1,1)``...): each cell its own compiled program
  (the constants its own), the most memory a formula cell was found to take;
- ``strings``: every cell a shared string of its own (the shared-string limit);
- ``limits``: the guard's ``MAX_FORMULAS`` formula cells as ``distinct`` has them, and
  every other cell a shared string of its own (the worst the guard lets through, as
  far as these compositions show).

Figures: peak MB, bytes per cell (peak less the process at rest, measured by a workbook
of one cell), and the growth of the per-cell figure from the smallest size to the largest
(1.0 is linear). Target: the address space of the ``limits`` composition at the guard's
``MAX_CELLS`` ≤ 1,536 MB, the bound ``tests/test_hostile.py`` runs ``napkin calc`` under.
About 30 minutes on the project's machine; ``python -m addin.cli.bench_memory --cells N
... --kind K --mode strict`` measures a choice.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
NS_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
KINDS = ("mixed", "values", "formulas", "distinct", "strings", "limits")
SIZES = (150_000, 300_000, 600_000, 1_200_000)
#: compositions whose every cell is a formula: measured up to the guard's MAX_FORMULAS
#: only (past it their memory grows by gigabytes: 3.7 KB a cell)
FORMULA_KINDS = ("formulas", "distinct")
#: compositions measured with ``--lenient`` too (it takes the same memory where no cell
#: is kept, as on these workbooks: within 1 % measured)
LENIENT_KINDS = ("mixed", "limits")
#: the address space ``napkin calc`` must stay within at the guard's limits (MB)
BOUND_MB = 1536
_ROW = 18  # cells of a mixed row
_CATS = 20

_RUNNER = r"""
import json, sys
from addin.ooxml import guard
guard.MAX_CELLS = guard.MAX_FORMULAS = guard.MAX_SHARED_STRINGS = 10**9
import addin.engine.api as api

def status():
    got = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(("VmPeak:", "VmHWM:")):
                got[line.split(":")[0]] = int(line.split()[1]) / 1024
    return got

phases = {}
real = api.calc_workbook

def calc(*args, before_write=None, **kw):
    def at_write(results):
        phases["read and computed"] = status()
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")  # VmHWM from here on: the writer's
        if before_write:
            before_write(results)
    return real(*args, before_write=at_write, **kw)

api.calc_workbook = calc
from addin.cli import main
code = main(sys.argv[1:])
phases["end"] = status()
print(json.dumps({"code": code, "phases": phases}))
"""


def _sheet_xml(rows) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet '
            f'xmlns="{NS}"><sheetData>{"".join(rows)}</sheetData></worksheet>').encode()


def _col(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def _mixed_row(r: int, rows: int, formulas: bool) -> str:
    """Row ``r`` (2..rows+1) of the mixed sheet; shared strings: 0..19 the categories,
    20 + r the item of row ``r``."""
    nums = "".join(f'<c r="{_col(3 + k)}{r}"><v>{(r * 7 + k * 13) % 997 + 0.5}</v></c>'
                   for k in range(10))
    head = (f'<c r="A{r}"><v>{r}</v></c><c r="B{r}" t="s"><v>{r % _CATS}</v></c>'
            f'<c r="C{r}" t="s"><v>{_CATS + r}</v></c>{nums}')
    if not formulas:
        tail = "".join(f'<c r="{_col(13 + k)}{r}"><v>{r + k}</v></c>' for k in range(5))
        return f'<row r="{r}">{head}{tail}</row>'
    block = (r - 2) // 1000
    top, last = 2 + block * 1000, min(1 + rows, 1001 + block * 1000)
    if r == top:  # a shared formula per column and 1,000-row block, as Excel fills down
        n = f'<f t="shared" ref="N{top}:N{last}" si="{2 * block}">SUM(D{r}:M{r})</f>'
        o = (f'<f t="shared" ref="O{top}:O{last}" si="{2 * block + 1}">'
             f'IF(N{r}&gt;5000,N{r}*0.9,N{r})</f>')
    else:
        n = f'<f t="shared" si="{2 * block}"/>'
        o = f'<f t="shared" si="{2 * block + 1}"/>'
    tail = (f'<c r="N{r}">{n}<v>0</v></c><c r="O{r}">{o}<v>0</v></c>'
            f'<c r="P{r}"><f>VLOOKUP(B{r},Lookup!$A$1:$B${_CATS},2,FALSE)*N{r}</f>'
            f'<v>0</v></c>'
            f'<c r="Q{r}" t="str"><f>C{r}&amp;" ("&amp;B{r}&amp;")"</f><v></v></c>'
            f'<c r="R{r}"><f t="array" ref="R{r}">MAX(D{r}:M{r}-1)</f><v>0</v></c>')
    return f'<row r="{r}">{head}{tail}</row>'


def _array_rows(rows: int) -> dict[int, str]:
    """A 10-cell array formula in S every 1,000th row: its cells by row."""
    out = {}
    for top in range(2, rows - 8, 1000):
        for k in range(10):
            f = (f'<f t="array" ref="S{top}:S{top + 9}">N{top}:N{top + 9}*2</f>'
                 if k == 0 else "")
            out[top + k] = f'<c r="S{top + k}">{f}<v>0</v></c>'
    return out


def _mixed(cells: int, formulas: bool):
    rows = max(1, cells // _ROW)
    arrays = _array_rows(rows) if formulas else {}
    body = []
    for r in range(2, rows + 2):
        row = _mixed_row(r, rows, formulas)
        if r in arrays:
            row = row[:-6] + arrays[r] + "</row>"
        body.append(row)
    strings = [f"cat{k}" for k in range(_CATS)] + [f"item {r:07d}" for r in range(rows + 2)]
    lookup = [f'<row r="{k + 1}"><c r="A{k + 1}" t="s"><v>{k}</v></c>'
              f'<c r="B{k + 1}"><v>{k + 1}</v></c></row>' for k in range(_CATS)]
    return [("Data", body), ("Lookup", lookup)], strings


def _formulas(cells: int):
    width = 10
    rows = max(1, cells // width)
    body = []
    for r in range(1, rows + 1):
        first = (f'<c r="A{r}"><v>1</v></c>' if r == 1 else
                 f'<c r="A{r}"><f t="shared" ref="A2:A{rows}" si="0">A1+1</f><v>0</v></c>'
                 if r == 2 else f'<c r="A{r}"><f t="shared" si="0"/><v>0</v></c>')
        rest = "".join(
            f'<c r="{_col(k)}{r}"><f t="shared" ref="{_col(k)}1:{_col(k)}{rows}" si="{k}">'
            f'{_col(k - 1)}1*2</f><v>0</v></c>' if r == 1 else
            f'<c r="{_col(k)}{r}"><f t="shared" si="{k}"/><v>0</v></c>' for k in range(1, width))
        body.append(f'<row r="{r}">{first}{rest}</row>')
    return [("Data", body)], []


def _distinct(cells: int):
    width = 10
    rows = max(1, cells // width)
    body = []
    for r in range(1, rows + 1):
        row = "".join(f'<c r="{_col(k)}{r}"><f>{k + 2}*{r}+MAX({k},{r % 97})</f><v>0</v></c>'
                      for k in range(width))
        body.append(f'<row r="{r}">{row}</row>')
    return [("Data", body)], []


def _strings(cells: int):
    width = 10
    rows = max(1, cells // width)
    body = []
    for r in range(1, rows + 1):
        row = "".join(f'<c r="{_col(k)}{r}" t="s"><v>{(r - 1) * width + k}</v></c>'
                      for k in range(width))
        body.append(f'<row r="{r}">{row}</row>')
    strings = [f"text {i:08d} of the sheet" for i in range(rows * width)]
    return [("Data", body)], strings


def make_workbook(path: Path, cells: int, kind: str = "mixed") -> Path:
    """Write an .xlsx of about ``cells`` cells of the composition ``kind`` (``KINDS``),
    its XML written as Excel writes it (shared strings, shared and array formulas)."""
    if kind in ("mixed", "values"):
        sheets, strings = _mixed(cells, kind == "mixed")
    elif kind == "formulas":
        sheets, strings = _formulas(cells)
    elif kind == "distinct":
        sheets, strings = _distinct(cells)
    elif kind == "strings":
        sheets, strings = _strings(cells)
    else:  # the guard's most formulas, the other cells distinct shared strings
        from addin.ooxml import guard

        f = min(cells, guard.MAX_FORMULAS)
        sheets, _ = _distinct(f)
        more, strings = _strings(cells - f) if cells > f else ([], [])
        sheets += [("Text", more[0][1])] if more else []
    ct = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://'
          'schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" '
          'ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default '
          'Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.'
          'xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
          'sheet.main+xml"/>'
          + "".join(f'<Override PartName="/xl/worksheets/sheet{i + 1}.xml" ContentType="'
                    'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet'
                    '+xml"/>' for i in range(len(sheets)))
          + '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.'
          'openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    root_rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships '
                 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                 f'<Relationship Id="rId1" Type="{rel}/officeDocument" '
                 'Target="xl/workbook.xml"/></Relationships>')
    wb_rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships '
               'xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
               + "".join(f'<Relationship Id="rId{i + 1}" Type="{rel}/worksheet" '
                         f'Target="worksheets/sheet{i + 1}.xml"/>' for i in range(len(sheets)))
               + f'<Relationship Id="rId99" Type="{rel}/sharedStrings" '
               'Target="sharedStrings.xml"/></Relationships>')
    workbook = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook '
                f'xmlns="{NS}" xmlns:r="{NS_R}"><sheets>'
                + "".join(f'<sheet name="{name}" sheetId="{i + 1}" r:id="rId{i + 1}"/>'
                          for i, (name, _) in enumerate(sheets))
                + '</sheets><calcPr calcId="191029"/></workbook>')
    sst = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="{NS}" '
           f'count="{len(strings)}" uniqueCount="{len(strings)}">'
           + "".join(f"<si><t>{s}</t></si>" for s in strings) + "</sst>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", ct)
        z.writestr("_rels/.rels", root_rels)
        z.writestr("xl/workbook.xml", workbook)
        z.writestr("xl/_rels/workbook.xml.rels", wb_rels)
        for i, (_, rows) in enumerate(sheets):
            z.writestr(f"xl/worksheets/sheet{i + 1}.xml", _sheet_xml(rows))
        z.writestr("xl/sharedStrings.xml", sst)
    return path


def cells_of(path: Path) -> int:
    """The cells the guard counts in ``path`` (each cell of an array formula's range)."""
    from addin.ooxml import guard

    counts = {"cells": 0, "formulas": 0, "strings": 0}
    limits = guard.MAX_CELLS, guard.MAX_FORMULAS
    guard.MAX_CELLS = guard.MAX_FORMULAS = 10**9
    try:
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                if name.startswith("xl/worksheets/"):
                    part = guard._Part(path.name, name, "sheet", counts)
                    part.feed(z.read(name))
                    part.feed(None)
    finally:
        guard.MAX_CELLS, guard.MAX_FORMULAS = limits
    return counts["cells"]


def measure(src: Path, lenient: bool) -> dict:
    """``napkin calc`` of ``src`` in a fresh process: its exit status and, in MB, the
    peaks of ``/proc/self/status`` before the output is written and the writer's."""
    out = src.with_name("out.xlsx")
    args = ["calc", str(src), "-o", str(out), "-q"] + (["--lenient"] if lenient else [])
    r = subprocess.run([sys.executable, "-c", _RUNNER, *args], capture_output=True,
                       text=True)
    if r.returncode != 0 or not r.stdout.strip():
        raise RuntimeError(f"napkin calc of {src.name} failed: {r.stderr[-2000:]}")
    got = json.loads(r.stdout.strip().splitlines()[-1])
    before = got["phases"].get("read and computed", got["phases"]["end"])
    end = got["phases"]["end"]
    out.unlink(missing_ok=True)
    return {"code": got["code"], "rss": max(before["VmHWM"], end["VmHWM"]),
            "rss_computed": before["VmHWM"],
            "rss_writer": end["VmHWM"] if "read and computed" in got["phases"] else None,
            "vm": end["VmPeak"], "refusal": r.stderr.strip().splitlines()[-1:]}


def run_sizes(sizes=SIZES, kinds=KINDS, modes=("strict", "lenient"), echo=print) -> list:
    """Measure every (kind, size, mode), a formula kind up to ``guard.MAX_FORMULAS`` cells
    and ``--lenient`` for ``LENIENT_KINDS`` only; returns rows of dicts, and prints each
    as it comes (``echo``)."""
    from addin.ooxml import guard

    rows = []
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        rest = measure(make_workbook(d / "rest.xlsx", 1, "values"), False)
        echo(f"process at rest (a one-cell workbook): peak RSS {rest['rss']:.0f} MB, "
             f"address space {rest['vm']:.0f} MB")
        for kind in kinds:
            for n in sizes:
                if kind in FORMULA_KINDS and n > guard.MAX_FORMULAS:
                    continue
                src = make_workbook(d / f"{kind}{n}.xlsx", n, kind)
                cells = cells_of(src)
                for mode in modes:
                    if mode == "lenient" and kind not in LENIENT_KINDS:
                        continue
                    m = measure(src, mode == "lenient")
                    m.update(kind=kind, mode=mode, cells=cells,
                             per_cell=(m["rss"] - rest["rss"]) * 2**20 / cells,
                             vm_per_cell=(m["vm"] - rest["vm"]) * 2**20 / cells)
                    rows.append(m)
                    echo(_line(m))
                src.unlink()
    return rows, rest


def _line(m: dict) -> str:
    writer = "-" if m["rss_writer"] is None else f"{m['rss_writer']:.0f}"
    what = "computed" if m["code"] in (0, 4) else f"refused: {m['refusal'][0][:90]}"
    return (f"{m['kind']:<9} {m['mode']:<8} {m['cells']:>10,} cells  peak RSS "
            f"{m['rss']:6.0f} MB (read+computed {m['rss_computed']:6.0f}, writer {writer:>5})"
            f"  address space {m['vm']:6.0f} MB  {m['per_cell']:5.0f} B/cell RSS"
            f"  {m['vm_per_cell']:5.0f} B/cell VM  {what}")


def growth(rows: list, kind: str, mode: str) -> float | None:
    """The per-cell resident figure at the largest size over that at the smallest (1.0 is
    linear growth)."""
    mine = sorted((r for r in rows if r["kind"] == kind and r["mode"] == mode),
                  key=lambda r: r["cells"])
    if len(mine) < 2:
        return None
    return mine[-1]["per_cell"] / mine[0]["per_cell"]


def bench_memory(rep, sizes=SIZES) -> None:
    """``napkin bench``'s part: the figures above, into ``rep``."""
    from addin.ooxml import guard

    rows, rest = run_sizes(sorted(set(sizes) | {guard.MAX_CELLS}))
    for kind in KINDS:
        for mode in ("strict", "lenient"):
            mine = [r for r in rows if r["kind"] == kind and r["mode"] == mode]
            if not mine:
                continue
            # (limits: its share of formulas falls as its cells grow, so no ratio)
            g = None if kind == "limits" else growth(rows, kind, mode)
            big = max(mine, key=lambda r: r["cells"])
            rep.add(f"13. memory, {kind}, {mode}: bytes per cell at {big['cells']:,}",
                    big["per_cell"], "B", g, None, None, None,
                    f"ratio: per-cell figure at the largest size over the smallest "
                    f"(1.0 linear); peak {big['rss']:.0f} MB RSS, {big['vm']:.0f} MB "
                    "address space")
    at_limit = [r for r in rows if r["kind"] == "limits" and r["cells"] == guard.MAX_CELLS]
    if at_limit:
        worst = max(r["vm"] for r in at_limit)
        rep.add(f"13. address space at the guard's limits ({guard.MAX_CELLS:,} cells, "
                f"{guard.MAX_FORMULAS:,} formulas)", worst, "MB", None, f"≤ {BOUND_MB} MB",
                worst <= BOUND_MB, None, "the limits composition, strict and --lenient")


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m addin.cli.bench_memory",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--cells", type=int, nargs="+", default=list(SIZES))
    p.add_argument("--kind", choices=KINDS, action="append")
    p.add_argument("--mode", choices=("strict", "lenient"), action="append")
    a = p.parse_args(argv)
    rows, rest = run_sizes(a.cells, a.kind or KINDS, a.mode or ("strict", "lenient"))
    for kind in a.kind or KINDS:
        for mode in a.mode or ("strict", "lenient"):
            g = growth(rows, kind, mode)
            if g is not None:
                print(f"{kind:<9} {mode:<8} bytes per cell, largest size over smallest: "
                      f"{g:.2f}× (1.0 is linear)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
