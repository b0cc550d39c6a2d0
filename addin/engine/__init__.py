"""The workbook engine: computes formulas and whole workbooks without Excel.

The public functions live in ``addin.engine.api`` and are named here too, so that
``from addin.engine import calc_workbook`` (the import path users and scripts have) keeps
working. They are looked up on first use: ``napkin eval`` imports only
``addin.engine.formula_eval``, and importing this package must not pull in the
workbook reader and writer.
"""

from __future__ import annotations

__all__ = ["evaluate", "calc_workbook", "format_value", "to_json", "normalize_formula"]


def __getattr__(name: str):
    if name in __all__:
        from addin.engine import api

        return getattr(api, name)
    raise AttributeError(f"module 'addin.engine' has no attribute {name!r}")
