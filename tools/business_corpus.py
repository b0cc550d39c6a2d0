"""The held-out corpus of Excel-saved business models: ``python -m tools.business_corpus``.

``tools/business_corpus.csv`` lists workbooks of public GitHub repositories (financial
models, DCF and three-statement models, budgets, loan and cash-flow schedules), each at
a commit with its sha256. They are not kept in this repository (most of their
repositories state no licence); ``fetch DIR`` downloads each from
raw.githubusercontent.com at its commit into ``DIR/<part>/<owner>+<name>/<path>`` (the
path's ``/`` written ``__``) and checks its sha256. Nothing here is needed by the tests.

The list and its split were made so (docs/fidelity.md, "A held-out corpus"):

* candidates: the .xlsx and .xlsm files of repositories found by name (financial-model,
  dcf-model, lbo-model, three-statement, budget-template...);
* eligible: ``docProps/app.xml``'s Application "Microsoft Excel", "Microsoft Macintosh
  Excel" or "Microsoft Excel Online" with an AppVersion of Excel's form (``16.0300``:
  openpyxl writes "Microsoft Excel" with 3.0), at least one formula cell whose cached
  value is not empty, no ``fullCalcOnLoad``; one copy of each sha256;
* split before any file was computed, by repository (``part_of``): held out when the
  first hex digit of sha256(``owner/name``) is 0 to 7, else tuned on.
* a second round (parts ``heldout2`` and ``tune2``), once the first held-out part had been
  looked at: repositories not in the first, chosen by the same rule and split by the same
  ``part_of`` before any of its files was computed;
* a third round (part ``heldout3``, all of it held out, none tuned on), once both held-out
  parts had been looked at: repositories and owners not in the first two, up to three
  files a repository (the first eligible ones by path), recorded before any was computed.
* a fourth round (part ``heldout4``, held out whole), once the third had been seen: the
  same rule, no repository or owner of the earlier rounds nor any repository an earlier
  round fetched as a candidate, at least 15 repositories, until 45 files.
* a fifth round (part ``heldout5``, held out whole), once the fourth had been seen: the
  same rule, searched by other file names and repository words, no repository or owner of
  the earlier rounds nor any repository mirrored for them, at least 15 repositories, until
  45 files.
* a sixth round (part ``heldout6``, held out whole), once the fifth had been seen: the same
  rule, searched by yet other file names and repository words, no repository or owner of
  the earlier rounds nor any repository mirrored before its rule (the pool's included), at
  least 15 repositories, until 45 files.
* a tuning pool (part ``tune3``), not a held-out part: 30 files of 10 business/finance
  repositories mirrored here for other work, chosen for work on the engine and tuned on (so
  seen): the fourth round's eligibility, at most 6 a repository, no repository or owner of
  ``heldout5``; not split by ``part_of``.
* a seventh round (part ``heldout7``, held out whole), once the sixth had been seen: the
  same rule, searched by yet other file names and repository words, no repository or owner
  of the earlier rounds (the pool's included) nor any repository mirrored before its rule,
  at least 15 repositories, until 45 files.
* an eighth round (part ``heldout8``, held out whole), once the seventh had been seen: the
  same rule, searched by yet other file names and repository words, no repository or owner
  of the earlier rounds nor any repository mirrored before its rule, at least 15
  repositories, until 45 files.
* a ninth round (part ``heldout9``, held out whole), once the eighth had been seen: the
  same rule again, with other file names and repository words.
* a tenth round (part ``heldout10``, held out whole), once the ninth had been seen: the
  same rule, other names and words, repositories of business/finance workbooks only (not
  data cleaning or a dataset's analysis).
* an eleventh round (part ``heldout11``), once the tenth had been seen: the same rule,
  stopped at 11 files of 7 repositories when the machine could fetch no new repository.
* a twelfth round (part ``heldout12``), once the eleventh had been seen: the same rule with
  other names and words, stopped at 23 files of 17 repositories for the same reason.
* a thirteenth round (part ``heldout13``), once the twelfth had been seen: the same rule
  with file names only, other ones (45 files of 32 repositories).
* a fourteenth round (part ``heldout14``), once the thirteenth had been seen: the same rule
  with other file names (45 files of 30 repositories).
* a fifteenth round (part ``heldout15``), once the fourteenth had been seen: the same rule
  with other file names, which ran out of candidates at 21 files of 13 repositories.
* a sixteenth round (part ``heldout16``), for the rest: the same rule with shorter, more
  common file names (45 files of 25 repositories).
* a seventeenth round (part ``heldout17``), once the fifteenth and sixteenth had been seen:
  the same rule with other file names, which ran out of candidates at 26 files of 18
  repositories.
* an eighteenth round (part ``heldout18``), for the rest: the same rule with other file
  names (the macro-enabled forms of common ones among them), which ran out of candidates at
  37 files of 23 repositories.
* a nineteenth round (part ``heldout19``), once the seventeenth and eighteenth had been
  seen, on a new machine: the same rule with other file names (their written forms with
  "_" and lower case), 45 files of 28 repositories.

``census DIR [--part heldout|heldout2|...|heldout18|heldout19|tune|tune2|tune3]
[--libreoffice]``: the refusal census of one part (``tools.refusal_census``'s section, on
those files).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
import urllib.request
from pathlib import Path

MANIFEST = Path(__file__).with_name("business_corpus.csv")
RAW = "https://raw.githubusercontent.com/{repository}/{commit}/{path}"
PARTS = ("heldout", "tune", "heldout2", "tune2", "heldout3", "heldout4", "heldout5", "heldout6",
         "tune3", "heldout7", "heldout8", "heldout9", "heldout10", "heldout11",
         "heldout12", "heldout13", "heldout14", "heldout15", "heldout16", "heldout17",
         "heldout18", "heldout19")


def part_of(repository: str) -> str:
    """``"heldout"`` when the first hex digit of sha256(``owner/name``) is 0-7, else
    ``"tune"``: a repository's files are all on one side."""
    first = hashlib.sha256(repository.encode("utf-8")).hexdigest()[0]
    return "heldout" if first in "01234567" else "tune"


def entries() -> list[dict[str, str]]:
    """The manifest's rows (its ``#`` lines left out)."""
    with MANIFEST.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


def local_path(folder: Path, row: dict[str, str]) -> Path:
    """Where ``fetch`` writes the workbook of ``row`` under ``folder``."""
    return (folder / row["part"] / row["repository"].replace("/", "+")
            / row["path"].replace("/", "__"))


def fetch(folder: Path) -> int:
    """Download every workbook of the manifest into ``folder`` (those already there with
    the right sha256 are kept); how many could not be had."""
    failed = 0
    for row in entries():
        dst = local_path(folder, row)
        if dst.exists() and hashlib.sha256(dst.read_bytes()).hexdigest() == row["sha256"]:
            continue
        url = RAW.format(repository=row["repository"], commit=row["commit"],
                         path=urllib.request.quote(row["path"]))
        try:
            with urllib.request.urlopen(url, timeout=60) as got:
                data = got.read()
        except OSError as ex:
            print(f"{row['repository']}/{row['path']}: not fetched ({ex})", file=sys.stderr)
            failed += 1
            continue
        if hashlib.sha256(data).hexdigest() != row["sha256"]:
            print(f"{row['repository']}/{row['path']}: its sha256 differs from the "
                  "manifest's; not kept", file=sys.stderr)
            failed += 1
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(data)
    return failed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.business_corpus",
                                 description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("fetch", help="download the workbooks").add_argument("folder", type=Path)
    census = sub.add_parser("census", help="the refusal census of one part")
    census.add_argument("folder", type=Path)
    census.add_argument("--part", choices=PARTS, default="heldout")
    census.add_argument("--libreoffice", action="store_true")
    args = ap.parse_args(argv)
    if args.command == "fetch":
        failed = fetch(args.folder)
        print(f"{len(entries()) - failed} of {len(entries())} workbooks in {args.folder}")
        return 1 if failed else 0
    from tools import refusal_census

    extra = ["--libreoffice"] if args.libreoffice else []
    return refusal_census.main(["--corpus", str(args.folder / args.part), *extra])


if __name__ == "__main__":
    sys.exit(main())
