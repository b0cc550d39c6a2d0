"""``napkin bench``'s part 14: exact-match lookups over a tall range, found by an index
of its keys (``addin.excel.lookup_index``) against the search of every key in every
formula, in the same run and process."""

from __future__ import annotations

import time
from pathlib import Path

#: the keys of the range searched and the formulas searching it: the scan reads 20
#: million cells, within the work limit (``addin.engine.budget.MAX_WORK``)
KEYS, FORMULAS = 10_000, 1_000


def make_lookup_workbook(path: Path, keys: int = KEYS, formulas: int = FORMULAS) -> None:
    """Sheet ``PVP``: ``keys`` rows of a text key (``K00017``) and a number; sheet
    ``Look``: ``formulas`` rows of a key spread over the range (and one missing) and
    ``=VLOOKUP(A2,PVP!A:B,2,0)``."""
    import openpyxl

    wb = openpyxl.Workbook()
    pvp = wb.active
    pvp.title = "PVP"
    for i in range(1, keys + 1):
        pvp.append([f"K{i:05d}", i * 1.5])
    look = wb.create_sheet("Look")
    for i in range(2, formulas + 2):
        k = (i * 7919) % keys + 1 if i > 2 else 0  # (K00000 is no key: #N/A)
        look[f"A{i}"] = f"K{k:05d}"
        look[f"B{i}"] = f"=VLOOKUP(A{i},PVP!A:B,2,0)"
    wb.save(path)


def bench_lookup(rep, repeat: int = 2) -> None:
    """The CPU of ``calc_workbook`` on ``make_lookup_workbook``'s workbook with the index
    and with the search of every key (``lookup_index.INDEXED`` off), alternated in one
    process; the values of both checked equal."""
    import tempfile

    from addin.cli.bench_timing import _med, _noise
    from addin.engine.api import calc_workbook
    from addin.excel import lookup_index

    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "lookup.xlsx"
        make_lookup_workbook(src)
        calc_workbook(src, None, {})  # (warm: every module imported)
        cpu: dict = {True: [], False: []}
        values: dict = {}
        try:
            for _ in range(repeat):
                for indexed in (True, False):
                    lookup_index.INDEXED = indexed
                    t = time.process_time()
                    got = calc_workbook(src, None, {})
                    values[indexed] = {k: str(v) for k, v in got.items()}
                    cpu[indexed].append(time.process_time() - t)
        finally:
            lookup_index.INDEXED = True
    same = values[True] == values[False]
    ratio = _med(cpu[False]) / _med(cpu[True])
    rep.add(f"13. {FORMULAS:,} VLOOKUP(...,0) over {KEYS:,} keys, indexed", _med(cpu[True]),
            "s", None, None, None, _noise(cpu[True]), "CPU of calc_workbook")
    rep.add("13. ... the search of every key over the index", ratio, "", ratio,
            "values equal", same, None,
            f"search {_med(cpu[False]):.2f} s of CPU; the values "
            f"{'equal' if same else 'DIFFER'}")
