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
    template_dir,
)
