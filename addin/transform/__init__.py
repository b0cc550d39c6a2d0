"""Transforms of a whole workbook: :mod:`~addin.transform.freeze` (our formulas to their
values and back) and :mod:`~addin.transform.native` (our functions to Excel's own)."""
