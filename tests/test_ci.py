"""CI cannot pass by accident: nothing collected fails, a skip fails where every tool is
installed (NAPKIN_REQUIRE_ALL=1), and a user's plain run still skips with a reason. CI also
runs the engine against the newest formulas and schedula, and fails only when the release
that breaks it is one our range admits."""

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CI = (ROOT / ".ci" / "run").read_text()
README_TEST_COMMAND = "pip install -e '.[test]' && python -m pytest"


def pytest_in(folder: Path, require_all: bool):
    env = {k: v for k, v in os.environ.items() if k != "NAPKIN_REQUIRE_ALL"}
    if require_all:
        env["NAPKIN_REQUIRE_ALL"] = "1"
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(folder)], capture_output=True, text=True, cwd=folder, env=env,
                          timeout=120)


def a_suite_with_a_skip(tmp_path):
    # the project's conftest.py as it is, with the module it takes the template fixtures from
    for name in ("conftest.py", "template_support.py"):
        shutil.copy(ROOT / "tests" / name, tmp_path / name)
    (tmp_path / "test_tool.py").write_text(
        "import pytest\n\n"
        "def test_runs():\n    assert 1 + 1 == 2\n\n"
        "def test_needs_a_tool():\n    pytest.skip('LibreOffice not installed')\n")
    return tmp_path


def test_a_plain_run_skips_with_its_reason(tmp_path):
    r = pytest_in(a_suite_with_a_skip(tmp_path), require_all=False)
    assert r.returncode == 0, r.stdout
    assert "1 passed, 1 skipped" in r.stdout


def test_under_require_all_a_skip_fails_and_is_named(tmp_path):
    r = pytest_in(a_suite_with_a_skip(tmp_path), require_all=True)
    assert r.returncode == 1, r.stdout
    assert "test_tool.py::test_needs_a_tool: LibreOffice not installed" in r.stdout


def test_ci_runs_the_readme_command_and_fails_when_nothing_is_collected(tmp_path):
    readme = (ROOT / "README.md").read_text()
    assert README_TEST_COMMAND in readme and README_TEST_COMMAND in CI
    assert "export NAPKIN_REQUIRE_ALL=1" in CI
    # the test step of .ci/run, in an empty project: pytest collects nothing (status 5)
    step = CI[CI.index("export NAPKIN_REQUIRE_ALL=1"):]
    fake = tmp_path / "bin"
    fake.mkdir()
    for tool in ("pip", "ruff"):  # installing and linting are not what is tested here
        (fake / tool).write_text("#!/bin/sh\nexit 0\n")
        (fake / tool).chmod(0o755)
    project = tmp_path / "empty"
    project.mkdir()
    (project / ".ci").mkdir()  # the newest-release job is tested below, not here
    (project / ".ci" / "newest_engine.py").write_text("raise SystemExit(0)\n")
    env = dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}")
    (fake / "python").symlink_to(sys.executable)
    r = subprocess.run(["bash", "-c", "set -euo pipefail\n" + step], cwd=project, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "pytest collected no tests: that is a failure" in r.stdout


def newest_engine():
    spec = importlib.util.spec_from_file_location("newest_engine",
                                                  ROOT / ".ci" / "newest_engine.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclass looks its module up
    spec.loader.exec_module(mod)
    return mod


def test_ci_runs_the_newest_release_job_after_the_suite_and_counts_its_status():
    step = CI[CI.index(README_TEST_COMMAND):]
    assert "python .ci/newest_engine.py || rc=1" in step
    assert step.index("python .ci/newest_engine.py") < step.index('exit "$rc"')
    ne = newest_engine()
    for path in ne.ENGINE_TESTS:
        assert (ROOT / path).is_file(), path
    # our range is read from pyproject.toml, with its upper bound (fx.py uses internals)
    pins = ne.pins()
    assert set(pins) == {"formulas", "schedula"}
    assert all("<" in spec for spec in pins.values()), pins
    others = ne.other_requirements()
    assert "pytest>=8" in others and not any(r.startswith(("formulas", "schedula"))
                                             for r in others)


def test_newest_release_verdict():
    ne = newest_engine()

    def tested(formulas, schedula="1.6.15"):
        return [ne.Tested("formulas", formulas, formulas, ">=1.3.4,<1.4"),
                ne.Tested("schedula", schedula, schedula, ">=1.6.15,<1.7")]

    # inside our range and failing: users get it, CI fails and names the versions
    rc, text = ne.verdict(tested("1.3.9"), False, "2 failed, 216 passed")
    assert rc == 1
    assert "formulas 1.3.9, schedula 1.6.15" in text and "FAILURE" in text
    assert "WARNING" not in text
    # outside our range and failing: users keep the pinned one; a loud warning, CI passes
    rc, text = ne.verdict(tested("1.4.0"), False, "2 failed, 216 passed")
    assert rc == 0
    assert "WARNING: napkin's engine FAILS with the newest release (formulas 1.4.0, " \
           "schedula 1.6.15)" in text
    assert "formulas>=1.3.4,<1.4" in text and "OUTSIDE our range" in text
    # a prerelease above the bound is outside too
    assert not ne.Tested("schedula", "1.7.0rc1", "1.7.0rc1", ">=1.6.15,<1.7").inside
    # passing: CI passes; outside the range it says the bound could be raised
    rc, text = ne.verdict(tested("1.4.0", "1.7.2"), True, "218 passed")
    assert rc == 0 and "could be raised" in text and "tested 1.4.0" in text
    rc, text = ne.verdict(tested("1.3.4"), True, "218 passed")
    assert rc == 0 and "could be raised" not in text and "passed; 218 passed" in text
    # pip installed an older one than the index's newest: said, and judged by the newest
    t = [ne.Tested("formulas", "1.3.4", "1.4.0", ">=1.3.4,<1.4"),
         ne.Tested("schedula", "1.6.15", "1.6.15", ">=1.6.15,<1.7")]
    rc, text = ne.verdict(t, False, "not run: the install failed")
    assert rc == 0 and "pip chose 1.3.4, not the newest 1.4.0" in text
    # a release asked for with --release is named as such
    t = [ne.Tested("formulas", "1.2.11", "1.2.11", ">=1.3.4,<1.4", asked=True),
         ne.Tested("schedula", "1.6.15", "1.6.15", ">=1.6.15,<1.7")]
    rc, text = ne.verdict(t, False, "55 failed, 185 passed")
    assert rc == 0 and "asked for (--release) 1.2.11" in text
    assert "FAILS with the release asked for (formulas 1.2.11, schedula 1.6.15)" in text
    # nothing known (no index, no install): assume users get it, so a failure fails CI
    t = [ne.Tested("formulas", None, None, ">=1.3.4,<1.4"),
         ne.Tested("schedula", None, None, ">=1.6.15,<1.7")]
    rc, text = ne.verdict(t, False, "not run: the install failed")
    assert rc == 1 and "NOT INSTALLED" in text


def test_ci_runs_the_xml_tests_without_lxml_and_builds_from_nothing():
    """The run of the README's command has lxml (the test extra); .ci/run shows it, then
    runs the tests marked ``xml`` with openpyxl's lxml off, and regenerates every
    generated file into an empty folder (``tools.regenerate --check``)."""
    step = CI[CI.index(README_TEST_COMMAND):]
    assert "assert x.LXML" in step and "OPENPYXL_LXML=False python -c" in step
    assert "OPENPYXL_LXML=False python -m pytest -m xml" in step
    assert "python -m tools.regenerate --check || rc=1" in step
    assert step.index("tools.regenerate --check") < step.index('exit "$rc"')
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"lxml>=' in pyproject and "xml: reads or writes workbook XML" in pyproject
    marked = [p.name for p in (ROOT / "tests").glob("test_*.py")
              if "pytestmark = pytest.mark.xml" in p.read_text("utf-8")]
    assert {"test_xml_parts.py", "test_native.py", "test_freeze.py", "test_embed.py",
            "test_template.py", "test_engine_workbooks.py"} <= set(marked)
