"""The sha256 of what ``napkin calc``, ``napkin native`` and ``napkin template`` write, on
the template, the bench's workbooks and the corpus: recorded once, then compared after a
change to the engine, which must leave every output byte-identical.

``python -m tools.output_hashes record FILE`` writes ``{output: sha256}`` as JSON;
``python -m tools.output_hashes check FILE`` computes them again and lists each output
whose bytes changed (exit status 1 if any). The bench's workbooks are written by openpyxl,
which stamps the time: they are generated once into ``--inputs DIR`` and reused, so that
two runs read the same input bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"


def _bench_inputs(inputs: Path) -> list[Path]:
    """The bench's workbooks, generated into ``inputs`` when they are not there yet."""
    from addin.cli import bench, bench_workload

    inputs.mkdir(parents=True, exist_ok=True)
    makers = {"ours10k.xlsx": lambda p: bench.make_10k_workbook(p),
              "native10k.xlsx": lambda p: bench.make_10k_workbook(p, native_only=True),
              "distinct10k.xlsx": lambda p: bench.make_distinct_workbook(p, 10_000)}
    makers["sizing3k.xlsx"] = lambda p: bench_workload.make_sizing_workbook(p, 1)
    out = []
    for name, make in makers.items():
        p = inputs / name
        if not p.exists():
            make(p)
        out.append(p)
    return out


def _corpus() -> list[Path]:
    found = []
    for listing in ("accepted.txt", "refused.txt"):
        for line in (CORPUS / listing).read_text().splitlines():
            line = line.split("#")[0].strip()
            if line:
                found.append(CORPUS / line.split()[0])
    return [p for p in found if p.exists()]


_VOLATILE = re.compile(rb"<(?:\w+:)?f\b[^>]*>[^<]*\b(?:NOW|TODAY|RAND|RANDBETWEEN)\(")
_FORMULA_VALUE = re.compile(rb"(<(?:\w+:)?f\b(?:[^>]*/>|[^>]*>[^<]*</(?:\w+:)?f>)\s*"
                            rb"<(?:\w+:)?v>)[^<]*")


def _sha(path: Path) -> str:
    """The sha256 of a file; of a workbook with a formula calling NOW, TODAY or RAND (a
    new value at each run), that of its parts with every formula cell's value blanked,
    marked so."""
    if not zipfile.is_zipfile(path):
        return hashlib.sha256(path.read_bytes()).hexdigest()
    with zipfile.ZipFile(path) as zf:
        parts = [(n, zf.read(n)) for n in zf.namelist()]
    if not any(_VOLATILE.search(data) for n, data in parts if n.startswith("xl/worksheets/")):
        return hashlib.sha256(path.read_bytes()).hexdigest()
    h = hashlib.sha256()
    for n, data in parts:
        h.update(n.encode() + b"\0" + _FORMULA_VALUE.sub(rb"\1", data) + b"\0")
    return "volatile-masked " + h.hexdigest()


def hashes(inputs: Path, only: str | None = None) -> dict[str, str]:
    """``{output: sha256 or the error it raised}`` of every output."""
    from addin.engine.api import calc_workbook
    from addin.routes.embed import write_template
    from addin.transform.native import native

    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as d:
        dst = Path(d) / "out.xlsx"
        jobs = [("template", None, lambda p: write_template(p))]
        books = [ROOT / "workbook" / "napkin.xlsx"] + _bench_inputs(inputs)
        for src in books + _corpus():
            name = str(src.relative_to(ROOT)) if src.is_relative_to(ROOT) else src.name
            jobs.append((f"calc {name}", src, lambda p, s=src: calc_workbook(s, p)))
            jobs.append((f"calc --lenient {name}", src,
                         lambda p, s=src: calc_workbook(s, p, strict=False)))
            jobs.append((f"native {name}", src, lambda p, s=src: native(s, p)))
        for key, _src, run in jobs:
            if only is not None and only not in key:
                continue
            dst.unlink(missing_ok=True)
            try:
                run(dst)
                out[key] = _sha(dst)
            except Exception as ex:  # refused: the sentence is the output
                out[key] = f"{type(ex).__name__}: {ex}".replace(d, "TMP")
            print(f"{key}: {out[key][:16]}", file=sys.stderr)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.output_hashes")
    p.add_argument("action", choices=["record", "check"])
    p.add_argument("file", type=Path)
    p.add_argument("--inputs", type=Path, default=Path(tempfile.gettempdir()) / "napkin-hash-in")
    p.add_argument("--only", help="only the outputs whose key contains this text")
    a = p.parse_args(argv)
    got = hashes(a.inputs, a.only)
    if a.action == "record":
        a.file.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        return 0
    want = json.loads(a.file.read_text())
    changed = [k for k in got if want.get(k) != got[k]]
    for k in changed:
        print(f"CHANGED {k}: {want.get(k, '(not recorded)')[:60]} -> {got[k][:60]}")
    print(f"{len(got) - len(changed)} of {len(got)} outputs identical")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
