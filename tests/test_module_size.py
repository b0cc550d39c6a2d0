"""No module of udfs/, addin/ or workbook/ is over 500 lines (docs/contributing.md): a
module that grows past it is split by topic."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 500


def test_no_module_is_over_500_lines():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
             for folder in ("udfs", "addin", "workbook") for p in (ROOT / folder).rglob("*.py")}
    assert len(sizes) > 50  # the three folders were found (about 120 modules)
    assert {p: n for p, n in sizes.items() if n > LIMIT} == {}
