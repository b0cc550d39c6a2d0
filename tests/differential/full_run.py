"""The differential test's full run: thousands of generated formulas computed by napkin
and by LibreOffice, with the count of each outcome.

    python tests/differential/full_run.py                 # 6000 draws, seed 1, batches of 400
    python tests/differential/full_run.py --count 20000 --seed 7 --show 50
    python tests/differential/full_run.py --only EOMONTH,YEARFRAC   # those subjects' formulas only

Outcomes (tests/differential/referee.py): agree, refused (strict mode would not compute
it), known (a difference between LibreOffice and Excel recorded with Microsoft's
documented value), unsettled (listed as open), disagree. Every disagreement is printed
(up to ``--show``); the exit status is 1 when there is one. It lives with the harness it
runs (``tests/differential``), so that ``tools/`` imports nothing of ``tests/``.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

# the test harness it runs: tests/ on the path, as pytest puts it (rootdir conftest)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from differential import generate, referee

OUTCOMES = ("agree", "refused", "known", "unsettled", "disagree")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=6000, help="formulas drawn (distinct kept)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--batch", type=int, default=400, help="formulas per workbook")
    p.add_argument("--show", type=int, default=30, help="disagreements printed at most")
    p.add_argument("--only", default="", help="comma-separated subjects (functions or "
                   "operators) to keep of the draws; the others are not computed")
    args = p.parse_args(argv)
    warnings.simplefilter("ignore", RuntimeWarning)  # numpy's overflow in 1E+10^...
    start = time.time()
    formulas = generate.formulas(args.count, args.seed)
    if args.only:
        keep = {s.strip().upper() for s in args.only.split(",") if s.strip()}
        formulas = [f for f in formulas if f.subject.upper() in keep]
    batches = [formulas[i:i + args.batch] for i in range(0, len(formulas), args.batch)]
    results = referee.run(batches)
    counts = referee.counts(results)
    print(f"{len(results)} formulas (seed {args.seed}, {len(batches)} workbooks, "
          f"{time.time() - start:.0f} s):")
    for outcome in OUTCOMES:
        print(f"  {outcome:10} {counts.get(outcome, 0)}")
    by_function = Counter(r.formula.subject for r in results if r.outcome == "disagree")
    if by_function:
        print("disagreements by function:", ", ".join(f"{k} {v}" for k, v in
                                                      by_function.most_common()))
    shown = [r for r in results if r.outcome in ("disagree", "unsettled")][:args.show]
    for r in shown:
        print(f"  {r.outcome}: {referee.describe(r)}")
    return 1 if counts.get("disagree") else 0


if __name__ == "__main__":
    sys.exit(main())
