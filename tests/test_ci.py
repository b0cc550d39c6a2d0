"""CI cannot pass by accident: nothing collected fails, a skip fails where every tool is
installed (NAPKIN_REQUIRE_ALL=1), and a user's plain run still skips with a reason."""

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
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
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
    env = dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}")
    (fake / "python").symlink_to(sys.executable)
    r = subprocess.run(["bash", "-c", "set -euo pipefail\n" + step], cwd=project, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "pytest collected no tests: that is a failure" in r.stdout
