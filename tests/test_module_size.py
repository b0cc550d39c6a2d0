"""No module of udfs/, addin/ or workbook/ is over 500 lines (docs/contributing.md): a
module that grows past it is split by topic. No function of workbook/ is over 80 lines: a
sheet builder lays out blocks, each its own function, and rows as data."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 500


def test_no_module_is_over_500_lines():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
             for folder in ("udfs", "addin", "workbook") for p in (ROOT / folder).rglob("*.py")}
    assert len(sizes) > 50  # the three folders were found (about 120 modules)
    assert {p: n for p, n in sizes.items() if n > LIMIT} == {}


FUNCTION_LIMIT = 80


def test_no_function_in_workbook_is_over_80_lines():
    long = {}
    for p in (ROOT / "workbook").rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1
                if n > FUNCTION_LIMIT:
                    long[f"{p.relative_to(ROOT)}:{node.name}"] = n
    assert long == {}
