"""CI: napkin's engine against the newest releases of formulas and schedula.

``addin/formula/fx.py`` uses internals of ``formulas`` and ``schedula``, so ``pyproject.toml``
holds each below its next minor release. This job installs the newest release of each
from the package index into a separate virtual environment, ignoring that upper bound,
and runs the engine's tests there (``ENGINE_TESTS``), so that a release which breaks
the engine is seen before anyone widens the range.

What it decides (``docs/dependencies.md``, "Newest formulas and schedula"):

* the tests pass: exit 0; when a newest release lies outside our range, it says that the
  bound could be raised;
* the tests fail (or the install fails) and every newest release lies inside our range:
  exit 1, CI fails, since a user installing napkin today gets that release;
* the tests fail and a newest release lies outside our range: exit 0 with a loud warning
  naming the versions, since users get the release our range allows; the range must not
  be widened until the engine is fixed.

Run it from the repository root with a Python that has ``packaging`` (the test venv):
``python .ci/newest_engine.py``. ``--keep DIR`` keeps the virtual environment in DIR;
``--release formulas==X`` tests that release instead of the newest.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("formulas", "schedula")
ENGINE_TESTS = ("tests/test_engine.py", "tests/test_engine_workbooks.py",
                "tests/test_fidelity.py", "tests/test_excel_cases.py",
                "tests/test_excel_functions.py", "tests/test_excel_lookups.py",
                "tests/test_excel_text.py", "tests/test_formulas_patches.py")
BAR = "=" * 78


@dataclass
class Tested:
    """One package: the version tested, the newest on the index, our range."""

    name: str
    installed: str | None  # None: the install failed
    newest: str | None  # None: the index could not be asked
    pinned: str  # our specifier, e.g. ">=1.3.4,<1.4"
    asked: bool = False  # the release was given with --release, not the index's newest

    @property
    def version(self) -> str | None:
        """The newest release as far as is known: the index's, else what pip installed."""
        return self.newest or self.installed

    @property
    def inside(self) -> bool:
        """True when the newest release is one our range admits (users may get it)."""
        v = self.version
        if v is None:
            return True  # unknown: assume the worst, that users get it
        return Requirement(f"{self.name}{self.pinned}").specifier.contains(Version(v),
                                                                           prereleases=True)


def pins(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, str]:
    """Our specifier of each of ``PACKAGES``, from ``[project] dependencies``."""
    deps = tomllib.loads(pyproject.read_text("utf-8"))["project"]["dependencies"]
    out = {}
    for d in deps:
        r = Requirement(d)
        if r.name.lower() in PACKAGES:
            out[r.name.lower()] = ",".join(str(x) for x in sorted(
                r.specifier, key=lambda x: x.operator.startswith("<")))  # ">=a,<b"
    missing = set(PACKAGES) - set(out)
    if missing:
        raise SystemExit(f"pyproject.toml declares no {', '.join(sorted(missing))}")
    return out


def other_requirements(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """Our dependencies and test extra, without formulas and schedula."""
    project = tomllib.loads(pyproject.read_text("utf-8"))["project"]
    deps = project["dependencies"] + project["optional-dependencies"]["test"]
    return [d for d in deps if Requirement(d).name.lower() not in PACKAGES]


def verdict(tested: list[Tested], tests_passed: bool, summary: str) -> tuple[int, str]:
    """The exit status and the report to print (see the module's docstring)."""
    lines = [BAR, "Engine tests against the newest formulas and schedula", BAR]
    for t in tested:
        where = "inside" if t.inside else "OUTSIDE"
        newest = t.newest or "unknown (the index was not reachable)"
        source = "asked for (--release)" if t.asked else "newest on the index"
        lines.append(f"  {t.name}: tested {t.installed or 'NOT INSTALLED'}; {source} "
                     f"{newest}; ours {t.pinned} ({where} our range)")
        if t.installed and t.newest and t.installed != t.newest:
            lines.append(f"    note: pip chose {t.installed}, not the newest {t.newest} "
                         "(its requirements conflict with ours or with each other)")
    lines.append(f"  engine tests ({', '.join(Path(p).name for p in ENGINE_TESTS)}): "
                 f"{'passed' if tests_passed else 'FAILED'}; {summary}")
    outside = [t for t in tested if not t.inside]
    names = ", ".join(f"{t.name} {t.version}" for t in tested)
    if tests_passed:
        rc = 0
        if outside:
            lines.append("  The engine passes with " + ", ".join(
                f"{t.name} {t.version}" for t in outside) + ", outside our range: the upper "
                "bound in pyproject.toml could be raised (run the whole suite first).")
    elif outside:
        rc = 0
        lines += ["", "!" * 78,
                  f"WARNING: napkin's engine FAILS with the "
                  f"{'release asked for' if any(t.asked for t in tested) else 'newest release'}"
                  f" ({names}).",
                  "Users are not affected: pyproject.toml keeps them on "
                  + ", ".join(f"{t.name}{t.pinned}" for t in tested) + ".",
                  "Do not widen that range until addin/formula/fx.py is adapted;"
                  " this does not fail CI.",
                  "!" * 78]
    else:
        rc = 1
        lines.append(f"  FAILURE: the engine fails with {names}, which our range admits: "
                     "users installing napkin now get it. Fix addin/formula/fx.py, or lower the "
                     "upper bound in pyproject.toml below the breaking release.")
    lines.append(BAR)
    return rc, "\n".join(lines)


def newest_on_index(python: str, name: str) -> str | None:
    """The newest release of ``name`` that pip sees, or None."""
    r = subprocess.run([python, "-m", "pip", "index", "versions", name], capture_output=True,
                       text=True)
    m = re.search(rf"^{re.escape(name)} \(([^)]+)\)", r.stdout, re.M | re.I)
    return m.group(1) if m else None


def installed_versions(python: str) -> dict[str, str]:
    code = ("import json, importlib.metadata as m\n"
            f"out = {{}}\nfor n in {list(PACKAGES)!r}:\n"
            "    try: out[n] = m.version(n)\n"
            "    except m.PackageNotFoundError: pass\n"
            "print(json.dumps(out))")
    r = subprocess.run([python, "-c", code], capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else {}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keep", metavar="DIR", help="build the virtual environment in DIR and "
                    "keep it (default: a temporary folder, removed after)")
    ap.add_argument("--release", action="append", default=[], metavar="NAME==VERSION",
                    help="test this release of formulas or schedula instead of the newest "
                         "(e.g. a candidate before raising the bound); repeatable")
    args = ap.parse_args(argv)
    ours = pins()
    chosen = {}
    for spec in args.release:
        name, _, version = spec.partition("==")
        if name.lower() not in PACKAGES or not version:
            ap.error(f"--release {spec}: give formulas==VERSION or schedula==VERSION")
        chosen[name.lower()] = version
    start = time.monotonic()
    venv = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="napkin-newest-"))
    tested = [Tested(n, None, None, ours[n]) for n in PACKAGES]
    ok, summary = False, "not run: the virtual environment could not be made"
    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        py = str(venv / "bin" / "python")
        pip = [py, "-m", "pip", "install", "-q"]
        newest = {n: chosen.get(n) or newest_on_index(py, n) for n in PACKAGES}
        # the newest of each, whatever our range says; then the rest of what the tests need
        wanted = [f"{n}=={newest[n]}" if newest[n] else n for n in PACKAGES]
        ok = subprocess.run([*pip, *wanted, *other_requirements()]).returncode == 0
        if not ok and any(newest.values()):  # the exact pair may conflict: let pip choose
            ok = subprocess.run([*pip, "--upgrade", *PACKAGES,
                                 *other_requirements()]).returncode == 0
        ok = ok and subprocess.run([*pip, "--no-deps", "-e", str(ROOT)]).returncode == 0
        got = installed_versions(py)
        tested = [Tested(n, got.get(n), newest[n], ours[n], n in chosen) for n in PACKAGES]
        summary = "not run: the install failed"
        if ok and all(t.installed for t in tested):
            installed_at = time.monotonic()
            r = subprocess.run([py, "-m", "pytest", "-p", "no:cacheprovider", *ENGINE_TESTS],
                               cwd=ROOT, capture_output=True, text=True,
                               env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
            found = re.findall(r"^=*\s*(\d+ (?:passed|failed|error).*?)\s*=*$", r.stdout, re.M)
            summary = (found[-1] if found else f"pytest exit status {r.returncode}") + (
                f"; install {installed_at - start:.0f} s, tests "
                f"{time.monotonic() - installed_at:.0f} s")
            ok = r.returncode == 0
            if not ok:
                print(r.stdout[-6000:], r.stderr[-2000:], sep="\n")
        else:
            ok = False
    except (OSError, subprocess.CalledProcessError) as exc:
        summary = f"not run: {exc}"
    finally:
        if not args.keep:
            shutil.rmtree(venv, ignore_errors=True)
    rc, report = verdict(tested, ok, summary)
    print(report)
    return rc


if __name__ == "__main__":
    sys.exit(main())
