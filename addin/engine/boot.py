"""Makes ``formulas`` ready to compute as Excel does, once per process.

``ready`` is the one place where napkin changes ``formulas``: it loads it
(``addin.formula.fx.load``, which changes nothing), corrects Excel's ``^`` and the
functions formulas computes unlike Excel (``addin.formula.fx_excel.correct``), adds
the fast arithmetic of two numbers, then installs the Excel functions of ``addin.excel``.
Every entry point that compiles or evaluates a formula calls it first; after the first
call it costs one test of a flag.
"""

from __future__ import annotations

import threading

from addin.formula import fx, fx_excel

_NS = None  # fx.load()'s namespace, once ready
_LOCK = threading.Lock()


def ready():
    """formulas loaded, corrected and with our Excel functions installed; returns
    ``addin.formula.fx.load``'s namespace."""
    global _NS
    if _NS is not None:
        return _NS
    with _LOCK:
        if _NS is None:
            ns = fx.load()
            fx.correct_power(ns)
            fx_excel.correct(ns.get_functions())
            fx.fast_arithmetic(ns)  # after the corrections: it wraps what they leave
            from addin.excel import install

            install.install()
            _NS = ns
    return _NS
