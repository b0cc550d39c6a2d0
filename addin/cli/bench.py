"""``napkin bench``: speed and memory figures, each a ratio to a baseline measured in the
same run. Medians over repeats; the spread of the repeats is printed as the
machine's noise. Timings live here, never in unit tests.

Figures and their targets:

1. scalar call, numbers       ≤ 10× a bare Python function doing the same arithmetic
2. scalar call, unit text     ≤ 30× the bare function; ≥ 20× faster than a fresh pint
                              quantity per call
3. 100,000-row range          as Excel passes a column to the add-in's UDF (a list of
                              one-cell rows) ≥ 20× faster than 100,000 calls of that UDF;
                              as a numpy array ≥ 50× faster, and ≤ 10× bare numpy (a
                              Python list is timed, without a target: Excel never passes
                              one on napkin's routes)
4. napkin calc, 10,000 formulas   ≤ 1.5× LibreOffice headless on the same workbook (our
                              functions replaced there by native formulas)
5. start-up                   napkin eval, process start to first result ≤ 0.5 s
6. peak memory of napkin calc on the 10,000-formula workbook ≤ 500 MB
7. 20,000 distinct formulas (``=RIDGE(A2+2.5,3.35)*B2``, a different number in each
   row): peak memory ≤ 500 MB, and time linear in the rows: 20,000 rows take ≤ 2.4×
   the time of 10,000 (2× is linear, 4× quadratic)
8. hostile packages           a part declaring 3 GB, and a part declaring 200 MB that
                              inflates to 3 GB: each refused in ≤ 1 s of CPU with the
                              sentence of a zip bomb (``addin.cli.bench_hostile``)
9-11. the work users run      napkin's template and a generated sizing workbook against
                              LibreOffice on their native copies, ``napkin template`` and
                              ``napkin native`` ≤ 5 s of CPU (``addin.cli.bench_workload``)
13. memory by cells           peak resident set and address space of ``napkin calc`` on
                              synthetic workbooks of 250,000 to 2,000,000 cells, strict
                              and ``--lenient``; the address space at the guard's limits
                              ≤ 1.5 GB (``addin.cli.bench_memory``; about 25 minutes)
14. exact-match lookups       1,000 ``VLOOKUP(...,0)`` over 10,000 keys by an index against
                              the search of every key, in one run (``addin.cli.bench_lookup``)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from addin.cli.bench_timing import _env, _med, _noise, _runs, _times, _warm

# ``napkin`` imports this module for its options: what only a run needs is imported there


class Report:
    def __init__(self):
        self.rows = []

    def add(self, name, value, unit, ratio=None, target=None, ok=None, noise=None, note=""):
        self.rows.append(dict(figure=name, value=value, unit=unit, ratio=ratio, target=target,
                              ok=ok, noise=noise, note=note))

    def print(self):
        for r in self.rows:
            ratio = "" if r["ratio"] is None else f"{r['ratio']:8.1f}×"
            ok = {True: "ok  ", False: "MISS", None: "    "}[r["ok"]]
            noise = "" if r["noise"] is None else f"  (noise ±{r['noise'] * 50:.0f} %)"
            print(f"{ok} {r['figure']:<58} {r['value']:>10.4g} {r['unit']:<4} {ratio:>10}"
                  f"  target {r['target'] or '-'}{noise}")
            if r["note"]:
                print(f"     {r['note']}")


def bench_scalar(rep: Report, repeat=7):
    import udfs
    from udfs.machinery import units

    def bare(peak, bw, eff=1.0):
        return peak * eff / bw

    n = 20000
    t_bare = _times(lambda: [bare(989.0, 3.35) for _ in range(n)], repeat)
    t_num = _times(lambda: [udfs.RIDGE(989.0, 3.35) for _ in range(n)], repeat)
    t_txt = _times(lambda: [udfs.RIDGE("989 TFLOPS", "3.35 TB/s") for _ in range(n)], repeat)
    ureg = units.registry()

    def fresh_pint():
        p = ureg.Quantity("989 TFLOPS").to("TFLOPS").magnitude
        b = ureg.Quantity("3.35 TB/s").to("TB/s").magnitude
        return p / b

    m = 500
    t_pint = _times(lambda: [fresh_pint() for _ in range(m)], repeat)
    per = lambda ts, k: _med(ts) / k  # noqa: E731
    b, x, t, p = per(t_bare, n), per(t_num, n), per(t_txt, n), per(t_pint, m)
    rep.add("1. RIDGE(989, 3.35) per call vs bare Python", x * 1e9, "ns", x / b, "≤ 10×",
            x / b <= 10, _noise(t_num), f"bare function: {b * 1e9:.0f} ns")
    rep.add('2. RIDGE("989 TFLOPS","3.35 TB/s") vs bare Python', t * 1e9, "ns", t / b, "≤ 30×",
            t / b <= 30, _noise(t_txt))
    rep.add("2. ... speed-up over a fresh pint parse per call", p * 1e9, "ns", p / t, "≥ 20×",
            p / t >= 20, _noise(t_pint), "fresh pint: two Quantity() parses and conversions")


def bench_range(rep: Report, repeat=5):
    import numpy as np

    import udfs

    n = 100_000
    peaks = [float(989 + i % 1000) for i in range(n)]
    column = [[p] for p in peaks]
    arr = np.array(peaks)
    t_np = _times(lambda: arr * 1.0 / 3.35, repeat * 4, 10)
    t_arr = _times(lambda: udfs.RIDGE(arr, 3.35), repeat * 4, 10)
    # a list call is far shorter than the scalar calls: each sample of it averages five
    # calls, so that one slow call (a page fault, a context switch) moves the median
    # less; the scalar calls get five samples too
    t_list = _times(lambda: udfs.RIDGE(peaks, 3.35), repeat * 3, 5)
    t_col = _times(lambda: udfs.RIDGE(column, 3.35), repeat)
    t_scalar = _times(lambda: [udfs.RIDGE(p, 3.35) for p in peaks], 5)
    s = _med(t_scalar)
    # the same column through the add-in's UDF module, as xlwings hands it over: a list
    # of one-cell rows (ndim=2) against one cell per call; the result goes back as
    # xlwings receives it (an array, which its NumpyArrayConverter writes)
    from addin import xlwings_udfs

    t_route = _times(lambda: xlwings_udfs.RIDGE(column, 3.35), repeat * 3, 5)
    t_route_scalar = _times(lambda: [xlwings_udfs.RIDGE(p, 3.35) for p in peaks], 5)
    s_route = _med(t_route_scalar)
    rep.add("3. RIDGE over 100,000 rows (ndarray) vs 100,000 scalar calls", _med(t_arr) * 1e3,
            "ms", s / _med(t_arr), "≥ 50×", s / _med(t_arr) >= 50, _noise(t_arr))
    rep.add("3. ... (ndarray) vs the same arithmetic in bare numpy", _med(t_arr) * 1e3, "ms",
            _med(t_arr) / _med(t_np), "≤ 10×", _med(t_arr) / _med(t_np) <= 10, _noise(t_np))
    rep.add("3. ... as a Python list (1-D) vs 100,000 scalar calls", _med(t_list) * 1e3, "ms",
            s / _med(t_list), None, None, _noise(t_list),
            "no target: Excel never passes a flat list on napkin's routes")
    rep.add("3. ... as a list of one-cell rows vs scalar calls", _med(t_col) * 1e3, "ms",
            s / _med(t_col), None, None, _noise(t_col),
            "no target: a caller's list of rows, each row's type and length checked")
    rep.add("3. ... a column through the add-in's UDF vs 100,000 calls of it",
            _med(t_route) * 1e3, "ms", s_route / _med(t_route), "≥ 20×",
            s_route / _med(t_route) >= 20, _noise(t_route),
            f"what Excel passes (one-cell rows, ndim=2); one cell per call: "
            f"{s_route / n * 1e9:.0f} ns")


def bench_startup(rep: Report, repeat=5):
    import subprocess

    cmd = [sys.executable, "-m", "addin.cli", "eval", "=RIDGE(989,3.35)"]
    base = [sys.executable, "-c", "pass"]
    env = _env()
    _warm()
    t_eval, c_eval = _runs(lambda: subprocess.run(cmd, check=True, capture_output=True,
                                                  env=env), repeat)
    t_py, c_py = _runs(lambda: subprocess.run(base, check=True, capture_output=True, env=env),
                       repeat)
    rep.add("5. napkin eval, process start to printed result", _med(t_eval), "s",
            _med(t_eval) / _med(t_py), "≤ 0.5 s", _med(t_eval) <= 0.5, _noise(t_eval),
            f"ratio to a bare `python -c pass` ({_med(t_py) * 1e3:.0f} ms); CPU time "
            f"{_med(c_eval):.2f} s (python -c pass: {_med(c_py) * 1e3:.0f} ms)")

def make_10k_workbook(path: Path, native_only: bool = False) -> None:
    """10,000 formulas: 5,000 calls of ours and 5,000 of native arithmetic on inputs.

    With ``native_only`` our calls are replaced by the same arithmetic written natively
    (what LibreOffice can compute), for the LibreOffice baseline.
    """
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Bench"
    ws.append(["peak TFLOPS", "bandwidth TB/s", "params", "ridge", "floor ms", "ridge x2",
               "floor + 1"])
    for i in range(2, 2502):
        ws.append([900 + i % 200, 2 + (i % 50) / 10, 1e9 * (1 + i % 70)])
        if native_only:
            ws[f"D{i}"] = f"=A{i}/B{i}"
            ws[f"E{i}"] = f"=C{i}*2/1E+9/B{i}"
        else:
            ws[f"D{i}"] = f"=RIDGE(A{i},B{i})"
            ws[f"E{i}"] = f'=DECODE_FLOOR(C{i},"BF16",B{i})'
        ws[f"F{i}"] = f"=D{i}*2"
        ws[f"G{i}"] = f"=E{i}+1"
    wb.save(path)


def bench_calc(rep: Report, repeat=3):
    import shutil
    import subprocess
    import tempfile

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        ours, native = d / "ours.xlsx", d / "native.xlsx"
        make_10k_workbook(ours)
        make_10k_workbook(native, native_only=True)
        code = ("import resource,sys; from addin.engine.api import calc_workbook; "
                f"calc_workbook({str(ours)!r}, {str(d / 'out.xlsx')!r}); "
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        peaks = []

        env = _env()
        _warm()

        def run_ours():
            r = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                               text=True, env=env)
            peaks.append(int(r.stdout.split()[-1]) / 1024)

        t_ours, c_ours = _runs(run_ours, repeat)
        if soffice:
            profile = d / "lo-profile"

            def run_lo():
                subprocess.run([soffice, f"-env:UserInstallation=file://{profile}",
                                "--headless", "--calc", "--convert-to", "csv", "--outdir",
                                str(d / "lo"), str(native)], check=True, capture_output=True)

            run_lo()  # first start builds LibreOffice's profile: not counted
            t_lo, c_lo = _runs(run_lo, repeat)
            ratio = _med(t_ours) / _med(t_lo)
            rep.add("4. napkin calc, 10,000 formulas, vs LibreOffice headless", _med(t_ours),
                    "s", ratio, "≤ 1.5×", ratio <= 1.5, _noise(t_ours),
                    f"LibreOffice: {_med(t_lo):.2f} s to load, compute and write CSV "
                    f"(noise ±{_noise(t_lo) * 50:.0f} %); both from process start; CPU time "
                    f"{_med(c_ours):.2f} s vs {_med(c_lo):.2f} s "
                    f"({_med(c_ours) / _med(c_lo):.1f}×)")
        else:
            rep.add("4. napkin calc, 10,000 formulas", _med(t_ours), "s", None, "≤ 1.5× LO",
                    None, _noise(t_ours), "LibreOffice not installed: no baseline")
        rep.add("6. peak memory of napkin calc, 10,000 formulas", max(peaks), "MB", None,
                "≤ 500 MB", max(peaks) <= 500, None, "max resident set size of the process")


def make_distinct_workbook(path: Path, rows: int) -> None:
    """``rows`` formulas that differ only in a number: ``=RIDGE(A2+2.5,3.35)*B2``,
    ``=RIDGE(A3+3.5,3.35)*B3``... (one shape; each number its own)."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Bench"
    ws.append(["peak TFLOPS", "factor", "ridge"])
    for i in range(2, rows + 2):
        ws.append([900 + i % 200, 1 + (i % 7) / 10])
        ws[f"C{i}"] = f"=RIDGE(A{i}+{i}.5,3.35)*B{i}"
    wb.save(path)


def _calc_process(src: Path, dst: Path) -> tuple[float, float]:
    """(seconds, peak MB) of ``calc_workbook(src, dst)`` in a fresh process."""
    import subprocess

    code = ("import resource; from addin.engine.api import calc_workbook; "
            f"calc_workbook({str(src)!r}, {str(dst)!r}); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                       text=True, env=_env())
    return time.perf_counter() - t, int(r.stdout.split()[-1]) / 1024


def bench_distinct(rep: Report, repeat=2):
    import tempfile

    _warm()
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        runs = {}
        for rows in (10_000, 20_000):
            src = d / f"distinct{rows}.xlsx"
            make_distinct_workbook(src, rows)
            runs[rows] = [_calc_process(src, d / "out.xlsx") for _ in range(repeat)]
    t10 = [t for t, _ in runs[10_000]]
    t20 = [t for t, _ in runs[20_000]]
    peak = max(m for _, m in runs[20_000])
    growth = _med(t20) / _med(t10)
    rep.add("7. napkin calc, 20,000 distinct formulas (one shape)", _med(t20), "s", None,
            None, None, _noise(t20), f"10,000 of them: {_med(t10):.2f} s")
    rep.add("7. ... time of 20,000 rows over 10,000 rows", growth, "", growth, "≤ 2.4×",
            growth <= 2.4, None, "2× is linear, 4× quadratic")
    rep.add("7. ... peak memory, 20,000 distinct formulas", peak, "MB", None, "≤ 500 MB",
            peak <= 500, None, "max resident set size of the process")


def bench_hostile(rep: Report):
    from addin.cli.bench_hostile import bench_hostile as run

    run(rep)


def bench_template(rep: Report):
    from addin.cli.bench_workload import bench_template as run

    run(rep)


def bench_sizing(rep: Report):
    from addin.cli.bench_workload import bench_sizing as run

    run(rep)


def bench_calls(rep: Report):
    from addin.cli.bench_workload import bench_calls as run

    run(rep)


def bench_memory(rep: Report):
    from addin.cli.bench_memory import bench_memory as run

    run(rep)


def bench_lookup(rep: Report):
    from addin.cli.bench_lookup import bench_lookup as run

    run(rep)


def add_arguments(p) -> None:
    """The options of ``napkin bench`` (also used by the ``napkin`` command's parser)."""
    p.add_argument("--json", action="store_true",
                   help="print the figures as JSON instead of a table")
    p.add_argument("--only", choices=list(PARTS), action="append", metavar="PART",
                   help=f"run only this part ({', '.join(PARTS)}); repeat for more "
                        "(default: all)")


def run(args) -> int:
    """Run the parts ``args.only`` (all by default); exit status 3 when a target is missed."""
    import json

    rep = Report()
    for name in args.only or PARTS:
        PARTS[name](rep)
    if args.json:
        json.dump({"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
                   "figures": rep.rows}, sys.stdout, indent=1, default=float)
        print()
    else:
        print(f"napkin bench: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}; "
              "medians of repeats, noise = spread of the repeats")
        rep.print()
    return 0 if all(r["ok"] is not False for r in rep.rows) else 3


PARTS = {"scalar": bench_scalar, "range": bench_range, "startup": bench_startup,
         "calc": bench_calc, "distinct": bench_distinct, "hostile": bench_hostile,
         "template": bench_template, "sizing": bench_sizing, "calls": bench_calls,
         "memory": bench_memory, "lookup": bench_lookup}


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="napkin bench", description=__doc__.split("\n\n")[0])
    add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
