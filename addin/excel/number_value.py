"""N: a value converted to a number, as Microsoft's page lists the conversions.

formulas' N gives TRUE back as the logical value TRUE (Excel: 1) and numpy's integers
as 0; ours follows the page's table: a number is that number (a date is its serial
number, a number in Excel), TRUE 1, FALSE 0, an error value that error value, anything
else 0 (text, also text that looks like a number: N("7") is 0). A range of several cells
given outside an array formula is not computed here (``Cannot``).

References
----------
Microsoft Support, "N function" (its example: N(A2) = 7 for 7, N(A3) = 0 for "Even",
N(A4) = 1 for TRUE, N(A5) = 40650 for the date 4/17/2011, N("7") = 0).
"""

from __future__ import annotations

import numpy as np

from addin.excel import args as xa
from addin.formula import fx


def n(value):
    """Excel's N(value): see the module."""
    v = xa.scalar(value, "N's value")  # (an error value raised: it is the result)
    if isinstance(v, (bool, np.bool_)):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float, np.number)):
        return float(v)
    if v is fx.load().EMPTY or v is None or isinstance(v, str):
        return 0.0
    raise xa.Cannot(f"N() given {type(v).__name__}, a value its page does not list")
