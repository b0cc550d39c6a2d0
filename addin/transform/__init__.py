"""Transforms of a whole workbook: ``addin.transform.freeze`` (our formulas to their
values and back) and ``addin.transform.native`` (our functions to Excel's own)."""
