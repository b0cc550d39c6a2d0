"""``addin.cli.run``, the ``napkin`` process: a subcommand runs with Python's cyclic
garbage collector off (``napkin bench`` keeps it) and the process leaves by ``os._exit``
with main's exit status once standard output and error are flushed, without the
interpreter's teardown (docs/bench.md, "Run of 2026-12-06 09:57 (main)", its branch)."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

import addin.cli as cli


class _Exited(Exception):
    def __init__(self, code):
        self.code = code


def _run(monkeypatch, argv, code=0):
    """Run ``cli.run`` with ``argv``, main replaced by a recorder: (whether the collector
    was on in main, the status os._exit was given, what was flushed)."""
    seen = {}

    def main(args):
        seen["argv"], seen["collector on"] = args, gc.isenabled()
        print("out")
        return code

    def exit_(status):
        raise _Exited(status)

    monkeypatch.setattr(cli, "main", main)
    monkeypatch.setattr(sys, "argv", ["napkin", *argv])
    monkeypatch.setattr("os._exit", exit_)
    was = gc.isenabled()
    try:
        with pytest.raises(_Exited) as out:
            cli.run()
    finally:
        if was:
            gc.enable()
    return seen, out.value.code


def test_a_subcommand_runs_without_the_collector_and_leaves_with_its_status(monkeypatch,
                                                                            capsys):
    seen, status = _run(monkeypatch, ["calc", "in.xlsx", "-o", "out.xlsx"], code=4)
    assert seen == {"argv": ["calc", "in.xlsx", "-o", "out.xlsx"], "collector on": False}
    assert status == 4  # main's own status, passed on
    assert capsys.readouterr().out == "out\n"  # flushed before leaving


def test_bench_keeps_the_collector(monkeypatch):
    seen, status = _run(monkeypatch, ["bench", "--only", "scalar"])
    assert seen["collector on"] is True and status == 0


def test_the_process_prints_and_exits_as_main_says():
    # a real process: its output arrives whole and its status is main's (2: no formula)
    ok = subprocess.run([sys.executable, "-m", "addin.cli", "eval", "=1+2"],
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and ok.stdout.strip() == "3"  # 1 + 2
    bad = subprocess.run([sys.executable, "-m", "addin.cli", "eval", "=1+"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "cannot read the formula =1+" in bad.stderr
