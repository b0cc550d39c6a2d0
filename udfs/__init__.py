"""napkin's Excel functions as a Python package: ``from udfs import RIDGE``.

Every catalog function is defined in ``udfs.catalog`` and re-exported here, with
``CATALOG`` (name -> function), ``ARG_DOCS`` and ``udfs.machinery.errors.ExcelError``. Excel
does not import this package itself: the add-in's UDF module (``UDF Modules =
addin.xlwings_udfs``) and the xlwings Lite bundle's ``main.py`` each declare one wrapper
per function of ``CATALOG`` and adapt what crosses into Excel. The catalog (with
pint and xlwings) is imported on first use of one of its names (and its functions are
declared to xlwings then), not when a submodule such as ``udfs.machinery.errors`` is imported.
The headless engine imports ``udfs.catalog`` itself and never imports xlwings.
"""

import importlib
import importlib.util

from .machinery.errors import ExcelError  # noqa: F401 - re-exported


def _catalog():
    catalog = importlib.import_module(".catalog", __name__)
    catalog.declare_to_xlwings()  # what reaches the catalog here may show it to Excel
    return catalog


def __getattr__(name):
    if name == "__all__":
        value = list(_catalog().CATALOG) + ["CATALOG", "ARG_DOCS", "ExcelError"]
    elif name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    elif importlib.util.find_spec(f"{__name__}.{name}") is not None:
        # a submodule (``from . import units`` inside the package): import it, not the
        # catalog, which may be what is importing it
        value = importlib.import_module(f".{name}", __name__)
    else:
        catalog = _catalog()
        try:
            value = getattr(catalog, name)
        except AttributeError:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__getattr__("__all__")))
