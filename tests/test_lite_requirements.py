"""The Lite bundle's requirements.txt: fixed text, the same bytes whatever is installed,
one plain requirement a line, Pyodide's own packages without a version, and bounds that
hold the pint and xlwings the tests ran. (tests/test_lite.py installs it in Pyodide.)"""

from __future__ import annotations

import pytest
from lite_support import offline_harness

from addin.routes.lite import requirements, requirements_txt


def test_requirements_are_the_same_bytes_whatever_is_installed(monkeypatch):
    import importlib.metadata as metadata

    text = requirements_txt()

    def nothing_installed(*args, **kwargs):
        raise metadata.PackageNotFoundError(args[0] if args else "")

    # as on a machine where every distribution has another version, or none at all
    for name in ("version", "requires", "distribution", "metadata"):
        monkeypatch.setattr(metadata, name, nothing_installed)
    monkeypatch.setattr(metadata, "distributions", lambda **kw: iter(()))
    monkeypatch.setattr(metadata, "packages_distributions", lambda: {})
    assert requirements_txt().encode("utf-8") == text.encode("utf-8")
    assert text.splitlines() == requirements()


def test_requirements_are_one_plain_requirement_a_line():
    from packaging.requirements import Requirement

    text = requirements_txt()
    assert text.endswith("\n") and "\r" not in text and text.isascii()
    for line in text.splitlines():
        # micropip takes each line as a PEP 508 requirement: no comment, no blank line
        assert line and "#" not in line and line == line.strip(), repr(line)
        req = Requirement(line)
        assert not req.url and not req.marker and not req.extras, line


def test_requirements_hold_the_tested_versions():
    """The bounds admit the pint and xlwings this run tested (pint's units and xlwings'
    argument conversion); a newer series needs the bound moved after a run with it."""
    import importlib.metadata as metadata

    from packaging.requirements import Requirement

    reqs = {Requirement(r).name: Requirement(r) for r in requirements()}
    for name in ("pint", "xlwings"):
        spec = reqs[name].specifier
        assert any(s.operator == "<" for s in spec), f"{name} has no upper bound"
        assert spec.contains(metadata.version(name)), \
            f"this run tested {name} {metadata.version(name)}, outside {spec}"


def test_requirements_leave_pyodides_own_packages_unpinned():
    """Nothing Pyodide ships carries a version (Lite's docs: its version is Pyodide's), and
    pint's dependencies are not listed: micropip takes them from pint's metadata, and
    takes Pyodide's own where they are loaded."""
    from packaging.requirements import Requirement

    offline = offline_harness()
    if not offline.LOCKFILE.exists():
        pytest.skip("pyodide is not installed: run tests/pyodide/setup.sh")
    lock = offline.lock_packages()
    names = {offline.requirement_name(r): Requirement(r) for r in requirements()}
    shipped = {n for n in names if n in lock}
    assert shipped, "the bundle lists none of Pyodide's packages: check the lockfile's names"
    for n in shipped:
        assert not names[n].specifier, f"{n} is Pyodide's own ({lock[n]['version']}): unpinned"
    assert "pint" in names and "pint" not in lock
    for dep in ("platformdirs", "typing-extensions", "flexcache", "flexparser"):
        assert dep not in names, dep
