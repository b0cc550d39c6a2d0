"""The wheels the offline Pyodide test of the Lite bundle installs, and where they come from.

``python tests/pyodide/offline.py`` (``setup.sh`` runs it after ``npm ci``) fills two
folders beside this file, both from PyPI through pip:

``index/``
    What micropip installs from the bundle's requirements.txt: every requirement that is
    not one of Pyodide's own packages, with its dependencies, as pip resolves them for
    Pyodide's Python (pure-Python wheels, the newest versions the requirements allow).
    ``run.js`` serves the folder as a package index (PyPI's Simple JSON API) on localhost.
``preload/``
    micropip, and each of Pyodide's own pure-Python packages that the requirements reach
    (platformdirs and typing-extensions among them), at the version Pyodide's
    ``pyodide-lock.json`` gives. ``run.js`` loads them with ``pyodide.loadPackage`` before
    micropip runs, so that they are installed as Pyodide's own are in Lite. They are
    PyPI's wheels of those versions, not Pyodide's files: the npm package carries no
    wheels, and Pyodide's CDN is not reached offline.

A package of Pyodide's own that is compiled for WebAssembly (numpy) has no such wheel, and
is left out: see ``offline_unavailable``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
INDEX = HERE / "index"
PRELOAD = HERE / "preload"
LOCKFILE = HERE / "node_modules" / "pyodide" / "pyodide-lock.json"


def canonical(name: str) -> str:
    """A distribution name in its canonical form (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def wheel_project(filename: str) -> tuple[str, str]:
    """(canonical name, version) of a wheel file's name."""
    name, version = filename.split("-")[:2]
    return canonical(name), version


def lock_packages() -> dict[str, dict]:
    """Pyodide's own packages, {canonical name: its entry in pyodide-lock.json}."""
    packages = json.loads(LOCKFILE.read_text("utf-8"))["packages"]
    return {canonical(e["name"]): e for e in packages.values()}


def lock_python() -> str:
    """The Python version of Pyodide's lockfile, as major.minor (``"3.13"``)."""
    info = json.loads(LOCKFILE.read_text("utf-8"))["info"]
    return ".".join(info["python"].split(".")[:2])


def _pure(entry: dict) -> bool:
    return entry["file_name"].endswith("-none-any.whl")


def requirement_name(line: str) -> str:
    """The canonical name a requirement line asks for."""
    from packaging.requirements import Requirement

    return canonical(Requirement(line).name)


def offline_unavailable(lines: list[str]) -> list[str]:
    """The requirement lines naming a package of Pyodide's own that is compiled for
    WebAssembly: Pyodide loads its own build from its CDN, which no offline folder holds."""
    lock = lock_packages()
    return [r for r in lines
            if requirement_name(r) in lock and not _pure(lock[requirement_name(r)])]


def preload_names(lines: list[str], index_wheels: list[str]) -> list[str]:
    """micropip, and Pyodide's own pure-Python packages among the requirements and the
    wheels pip resolved for them, sorted."""
    lock = lock_packages()
    names = {"micropip"}
    names |= {requirement_name(r) for r in lines}
    names |= {wheel_project(w)[0] for w in index_wheels}
    return sorted(n for n in names if n in lock and _pure(lock[n]))


def _wheels(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.whl")) if folder.is_dir() else []


def missing(lines: list[str]) -> list[str]:
    """What the offline test lacks (empty when ``setup.sh`` has run for these lines)."""
    if not LOCKFILE.exists():
        return [f"{LOCKFILE} (npm ci)"]
    lock = lock_packages()
    have = {wheel_project(w)[0] for w in _wheels(INDEX)}
    out = [f"index/ wheel of {requirement_name(r)}" for r in lines
           if requirement_name(r) not in lock and requirement_name(r) not in have]
    preloaded = {wheel_project(w) for w in _wheels(PRELOAD)}
    out += [f"preload/ wheel of {n}=={lock[n]['version']}"
            for n in preload_names(lines, _wheels(INDEX))
            if (n, lock[n]["version"]) not in preloaded]
    return out


def _pip_download(dest: Path, args: list[str]) -> None:
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
                    "--implementation", "py", "--platform", "any", "--abi", "none",
                    "--python-version", lock_python(), "-d", str(dest), *args], check=True)


def download(lines: list[str]) -> None:
    """Fill ``index/`` and ``preload/`` for these requirement lines (replacing both)."""
    import shutil

    lock = lock_packages()
    for folder in (INDEX, PRELOAD):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
    _pip_download(INDEX, [r for r in lines if requirement_name(r) not in lock])
    names = preload_names(lines, _wheels(INDEX))
    _pip_download(PRELOAD, ["--no-deps", *(f"{n}=={lock[n]['version']}" for n in names)])
    print("index/:  ", " ".join(_wheels(INDEX)))
    print("preload/:", " ".join(_wheels(PRELOAD)))
    for r in offline_unavailable(lines):
        print(f"not offline: {r} (Pyodide's own WebAssembly build, from its CDN)")


if __name__ == "__main__":
    from addin.routes.lite import requirements

    download(requirements())
