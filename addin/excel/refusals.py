"""formulas' own MROUND, DELTA, RANK and POWER, computed only where napkin has evidence
of Excel's value: MROUND, DELTA and RANK given a logical value (TRUE or FALSE) as a
number, and a power whose result is too small for a float (``POWER(-1E+10,-1E+10)``),
stop strict mode (``Cannot``); ``--lenient`` keeps Excel's value.

Microsoft's pages say what these give for a nonnumeric argument (``#VALUE!``) but not
whether TRUE is one; LibreOffice reads it as 1. For a result below the smallest float
formulas gives 0, LibreOffice ``#NUM!``, and Microsoft's POWER page says neither.

References
----------
Microsoft Support, "MROUND function", "DELTA function", "RANK function", "POWER
function"; ECMA-376 Part 1, SpreadsheetML function POWER ("the result cannot be
represented as a number": #NUM!).
"""

from __future__ import annotations

import numpy as np

from addin.excel.args import ORIGINAL, Cannot
from addin.formula import fx

#: function -> the positions of its arguments read as numbers, and their names
NUMBERS = {"MROUND": ("number", "multiple"), "DELTA": ("number1", "number2"),
           "RANK": ("number",), "POWER": ()}  # (POWER(TRUE,-2) is 1: FormulaEvalTestData)


def _logical(v) -> bool:
    """Whether ``v`` is, or holds, TRUE or FALSE (a one-cell reference read)."""
    if isinstance(v, fx.load().Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        return any(isinstance(x, (bool, np.bool_)) for x in v.ravel())
    return isinstance(v, (bool, np.bool_))


def _checked(name: str):
    params = NUMBERS[name]

    def call(*args):
        for param, arg in zip(params, args, strict=False):
            if _logical(arg):
                raise Cannot(f"{name}() given a logical value as its {param}")
        got = ORIGINAL[name](*args)
        if name == "POWER" and _underflows(args, got):
            raise Cannot("POWER with a result too small for a number (below 2.2E-308)")
        return got

    call.__name__ = name.lower()
    call.__doc__ = (f"formulas' {name}, refused (``Cannot``) given a logical value as "
                    f"its {' or '.join(params)}" if params else
                    f"formulas' {name}, refused (``Cannot``) where its result underflows")
    return call


def _underflows(args, got) -> bool:
    """Whether POWER's result ``got`` is 0 for a base that is not 0 (one value each)."""
    ns = fx.load()
    try:
        base = args[0].value if isinstance(args[0], ns.Ranges) else args[0]
        base = np.asarray(base, dtype=object).ravel()
        result = np.asarray(got, dtype=object).ravel()
        if base.size != 1 or result.size != 1:
            return False
        x, y = base[0], result[0]
        return isinstance(y, (int, float, np.number)) and y == 0 and \
            isinstance(x, (int, float, np.number)) and x != 0
    except (TypeError, ValueError):
        return False


CHECKED = {name: _checked(name) for name in NUMBERS}
