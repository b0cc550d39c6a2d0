"""The README's examples are true: every row of its function table, through the engine."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from addin.engine.api import evaluate, format_value

README = Path(__file__).resolve().parent.parent / "README.md"
ROW = re.compile(r"^\| `(?P<sig>[A-Z_]+)\(.*?\| `(?P<formula>=[^`]+)` \| (?P<shown>.+?) \|$")


def examples():
    rows = [m.groupdict() for m in map(ROW.match, README.read_text("utf-8").splitlines()) if m]
    assert len(rows) >= 30
    return rows


@pytest.mark.parametrize("row", examples(), ids=lambda r: r["formula"])
def test_readme_example(row):
    got = evaluate(row["formula"])
    shown = row["shown"]
    if re.fullmatch(r"-?[\d.]+", shown):
        decimals = len(shown.split(".")[1]) if "." in shown else 0
        assert round(got, decimals) == pytest.approx(float(shown), abs=10**-decimals / 2 + 1e-12)
    else:
        assert format_value(got) == shown


def test_the_function_table_is_generated_from_the_declarations():
    from udfs.docs import with_table

    text = README.read_text("utf-8")
    assert with_table(text) == text, \
        "the README's function table is stale: python -m tools.regenerate (or python -m udfs.docs)"


def test_regenerate_names_and_rewrites_a_stale_table(tmp_path):
    """``python -m tools.regenerate``: ``--check`` names a stale README table and writes
    nothing; without it the table is rewritten; a current file is left as it is."""
    from udfs.docs import START, with_table

    text = README.read_text("utf-8")
    stale = text.replace(START, START + "\n| `OLD(x)`: gone | `=OLD(1)` | 1 |", 1)
    copy = tmp_path / "README.md"
    copy.write_text(stale, encoding="utf-8", newline="\n")

    def regenerate(*options):
        return subprocess.run([sys.executable, "-m", "tools.regenerate", "--root",
                               str(tmp_path), *options, "README.md"],
                              cwd=README.parent, capture_output=True, text=True, check=False)

    checked = regenerate("--check")
    assert (checked.returncode, checked.stdout) == (1, "README.md: stale\n"), checked.stderr
    assert copy.read_text("utf-8") == stale
    written = regenerate()
    assert (written.returncode, written.stdout) == (0, "README.md: updated\n"), written.stderr
    assert copy.read_text("utf-8") == with_table(stale) == with_table(text)
    again = regenerate("--check")
    assert (again.returncode, again.stdout) == (0, "README.md: current\n"), again.stderr


def test_every_catalog_function_is_in_the_readme():
    from udfs import CATALOG

    assert {r["sig"] for r in examples()} == set(CATALOG)


def test_links_in_the_readme_and_docs_point_at_files_that_exist():
    root = README.parent
    pages = [README, *sorted((root / "docs").glob("*.md"))]
    checked = 0
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text("utf-8")):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            assert (page.parent / target).exists(), f"{page.name}: {target} does not exist"
            checked += 1
    assert checked >= 10


def test_the_repository_stands_alone():
    """No path outside the repository and no issue numbers in code, help, data or docs."""
    import subprocess

    root = README.parent
    files = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                           check=True).stdout.split()
    # (the patterns are split so that this file does not match itself)
    outside = re.compile(r"\.\./" "shared|/" "work/")
    issue = re.compile(r"\bissue" r" \d|\(" "issue", re.IGNORECASE)
    bad = []
    for name in files:
        if not name.endswith((".py", ".md", ".csv", ".txt", ".toml", ".sh")) or \
                name.startswith("tests/corpus/"):
            continue
        text = (root / name).read_text("utf-8", errors="replace")
        bad += [f"{name}: {m.group(0)}" for rx in (outside, issue) for m in rx.finditer(text)]
    assert not bad, bad
