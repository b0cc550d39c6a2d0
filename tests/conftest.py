import os
import sys
from pathlib import Path

# tests import their shared tables (reference_cases.py) as plain modules
sys.path.insert(0, str(Path(__file__).parent))

# A plain `python -m pytest` skips, with a reason, the tests whose tools (LibreOffice,
# Pyodide, the test extra) are missing. CI installs them all and sets NAPKIN_REQUIRE_ALL=1:
# there a skip means a tool silently did not run, so the run fails and names each skip.
REQUIRE_ALL = os.environ.get("NAPKIN_REQUIRE_ALL") == "1"


def _skips(config):
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    return reporter.stats.get("skipped", []) if reporter else []


def _reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    skips = _skips(config)
    if REQUIRE_ALL and skips:
        terminalreporter.write_line(
            f"NAPKIN_REQUIRE_ALL=1: {len(skips)} skipped test(s) count as failures here "
            "(every tool is installed, so nothing may skip):", red=True)
        for rep in skips:
            terminalreporter.write_line(f"  {rep.nodeid}: {_reason(rep)}", red=True)


#: The slowest test files, slowest first (each 75-320 s under ``--durations`` on one core of
#: a busy 2-core machine, 2026-12-06): xdist hands out whole files (``--dist loadfile``) in
#: collection order (``--no-loadscope-reorder`` in pyproject's addopts; its default order,
#: by number of tests, handed out test_sweep's one long test among the last, for one
#: worker to run alone at the end). Started first, they leave the short files to even
#: out the two workers' ends. An order only: a file not listed runs after them, as
#: collected.
SLOWEST_FIRST = ["test_scenario_step.py", "test_sweep.py", "test_insert_rows.py",
                 "test_scenario.py", "test_template_sizing.py", "test_summary.py",
                 "test_speculation.py", "test_native.py", "test_template_finance.py",
                 "test_users_walk.py"]


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(SLOWEST_FIRST)))  # (stable)


def pytest_sessionfinish(session, exitstatus):
    if REQUIRE_ALL and _skips(session.config) and session.exitstatus == 0:
        session.exitstatus = 1


# The template tests' shared, session-scoped fixtures (built and computed once for the
# test_template*.py files): a fixture must be in conftest.py to be one for every file.
from template_support import (  # noqa: E402, F401
    book,
    built,
    computed,
    default,
    llama8b_bf16,
    llama70b_bf16,
    moe,
    printed,
    template_dir,
)
