"""napkin's Excel functions: the module xlwings imports (``UDF Modules = udfs``).

Every catalog function is defined in :mod:`udfs.catalog` and re-exported here, so that
xlwings' "Import Functions" (which scans this module) and xlwings Lite find them all.
"""

from .catalog import *  # noqa: F403 - the catalog is this module's public surface
from .catalog import ARG_DOCS, CATALOG  # noqa: F401
from .errors import ExcelError  # noqa: F401

__all__ = list(CATALOG) + ["CATALOG", "ARG_DOCS", "ExcelError"]
