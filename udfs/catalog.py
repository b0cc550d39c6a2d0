"""The Excel functions of napkin, one declaration each (see ``udfs.machinery.declare``).

The declarations live in ``udfs.functions``, one module per topic module
(``udfs.inference.memory``, ``udfs.inference.timing``, ``udfs.inference.roofline``,
``udfs.inference.speedup``, ``udfs.inference.cost``, ``udfs.inference.finance``,
``udfs.inference.tables``, ``udfs.machinery.units``), in the
order below, which is the catalog's. Each function's description is what Excel shows
(at most 255 characters, the limit of Excel's ``MacroOptions``), and so is each
argument's help text.

Default units of bare numbers: parameter counts as counts, memory GB, bandwidth TB/s,
compute TFLOPS, per-token times ms, kernel FLOPs and bytes as counts.

To add a function: write its formula in its topic module, declare it in the matching
module of ``udfs.functions``, and test it against an independent value.
"""

from __future__ import annotations

import importlib

from .functions import MODULES
from .machinery.declare import ARG_DOCS, CATALOG, DECLARATIONS, declare_to_xlwings

for _module in MODULES:
    importlib.import_module(f"{__package__}.functions.{_module}")
del _module

globals().update(CATALOG)

__all__ = list(CATALOG)
# Also public, but not Excel functions (so not in __all__): ARG_DOCS, CATALOG, DECLARATIONS,
# declare_to_xlwings
_ = (ARG_DOCS, DECLARATIONS, declare_to_xlwings)
