"""The timing helpers of ``napkin bench``'s parts: fresh processes, their wall-clock and
CPU times, medians and spreads."""

from __future__ import annotations

import os
import sys
import time


def _env() -> dict:
    """The environment of the processes timed: Python may write its bytecode cache, as it
    does for a user (``PYTHONDONTWRITEBYTECODE`` would compile every module at each
    start)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _warm() -> None:
    """One untimed ``napkin eval`` first: its bytecode cache written, as after any first
    use."""
    import subprocess

    subprocess.run([sys.executable, "-m", "addin.cli", "eval", "=RIDGE(989,3.35)"],
                   check=True, capture_output=True, env=_env())


def _child_cpu() -> float:
    import resource

    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def _runs(run, repeat: int) -> tuple[list[float], list[float]]:
    """(wall-clock seconds, CPU seconds of the processes it waited for) of each run. On a
    shared machine the CPU time is the steadier figure: waiting for a core is not in it."""
    walls, cpus = [], []
    for _ in range(repeat):
        c, t = _child_cpu(), time.perf_counter()
        run()
        walls.append(time.perf_counter() - t)
        cpus.append(_child_cpu() - c)
    return walls, cpus


def _times(fn, repeat: int, number: int = 1) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        out.append((time.perf_counter() - t) / number)
    return out


def _med(ts):
    import statistics

    return statistics.median(ts)


def _noise(ts):
    m = _med(ts)
    return (max(ts) - min(ts)) / m if m else 0.0
