"""Makes ``formulas`` ready to compute as Excel does, once per process.

``ready`` is the one place where napkin changes ``formulas``: it loads it
(``addin.formula.fx.load``, which changes nothing), then puts in place every entry of
``addin.formula.patches.PATCHES``, in order: the corrections of formulas' own
functions and operators (``addin.formula.fx_excel``), the fast arithmetic of two
numbers (``addin.formula.arithmetic.fast_arithmetic``), then the Excel functions of
``addin.excel``. Every entry point that compiles or evaluates a formula calls it first;
after the first call it costs one test of a flag.
"""

from __future__ import annotations

import importlib
import threading

from addin.formula import fx, patches

_NS = None  # fx.load()'s namespace, once ready
_LOCK = threading.Lock()

#: (patch, the replacement put in place), in the order of ``patches.PATCHES``
APPLIED: list = []


def ours(patch):
    """The function (or dict of them) of ours a patch names, ``"module:name"``; a dict
    is taken at the patch's key."""
    module, name = patch.by.split(":")
    got = getattr(importlib.import_module(module), name)
    return got[patch.key] if isinstance(got, dict) else got


def builder(patch):
    """``make(original, key)``, the replacement of one patch (see ``patches.Patch``)."""
    if patch.how == "udf":
        from addin.excel import install

        return install.registered(ours(patch))
    if patch.how == "build":
        return ours(patch)
    raise ValueError(f"{patch.how!r}: a patch is built or registered")


def ready():
    """formulas loaded, corrected and with our Excel functions installed; returns
    ``addin.formula.fx.load``'s namespace."""
    global _NS
    if _NS is not None:
        return _NS
    with _LOCK:
        if _NS is None:
            ns = fx.load()
            for patch in patches.PATCHES:
                new = fx.replace(patch.module, patch.name, patch.key, builder(patch))
                APPLIED.append((patch, new))
            _NS = ns
    return _NS
