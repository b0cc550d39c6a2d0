"""The declarations of the Excel functions, one module per topic module.

``udfs/functions/memory.py`` declares the functions whose formulas are in
``udfs/inference/memory.py``, and so on. ``udfs.catalog`` imports them in order; that order is
the catalog's.
"""

MODULES = ("memory", "units", "timing", "roofline", "speedup", "cost", "tables", "finance",
           "serving", "energy", "regimes", "explain")
