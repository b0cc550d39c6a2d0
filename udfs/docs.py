"""The README's function table, generated from the declarations.

``python -m udfs.docs`` rewrites the table in ``README.md`` (between the markers
``<!-- functions -->`` and ``<!-- /functions -->``); ``tests/test_readme.py`` fails when
the committed README differs from what this writes, and evaluates every example in it.
"""

from __future__ import annotations

import sys
from pathlib import Path

START, END = "<!-- functions -->", "<!-- /functions -->"


def function_table() -> str:
    """The Markdown table: signature and summary, example, result shown."""
    from .catalog import DECLARATIONS

    rows = ["| function | example | result |", "|---|---|---|"]
    for d in DECLARATIONS.values():
        if d.example is None:
            raise ValueError(f"{d.name}: no example declared")
        formula, shown = d.example
        summary = f": {d.summary}" if d.summary else ""
        rows.append(f"| `{d.signature}`{summary} | `{formula}` | {shown} |")
    return "\n".join(rows)


def with_table(readme: str) -> str:
    """``readme`` with its function table replaced by the generated one."""
    head, sep, rest = readme.partition(START)
    _, sep2, tail = rest.partition(END)
    if not sep or not sep2:
        raise ValueError(f"README: the markers {START} and {END} are missing")
    return f"{head}{START}\n{function_table()}\n{END}{tail}"


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m udfs.docs", description="Rewrite the "
                                 "function table of README.md from the declarations.")
    ap.add_argument("readme", nargs="?", default="README.md", help="default: README.md")
    path = Path(ap.parse_args(argv).readme)
    text = path.read_text("utf-8")
    new = with_table(text)
    if new != text:
        path.write_text(new, encoding="utf-8", newline="\n")
        print(f"{path}: function table updated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
