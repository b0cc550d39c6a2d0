"""REPT: text repeated a number of times, as Microsoft's page says.

formulas' REPT gives "" for a negative number_times and text of any length; ours: text
repeated number_times times, number_times truncated to an integer (the page), "" for 0
(the page), #VALUE! for a result longer than 32,767 characters (the page). A negative
number_times, of which the page says nothing, and a logical value as number_times are
refused (``Cannot``). The text is a text, or a number written as Excel writes it in text
(``addin.formula.excel_numbers.number_text``: 15 significant digits), or TRUE/FALSE; an
error value in either argument is the result (the first).

References
----------
Microsoft Support, "REPT function" (REPT("*-",3) = "*-*-*-", REPT("-",10) = ten dashes;
"If number_times is 0 (zero), REPT returns "" (empty text). If number_times is not an
integer, it is truncated. The result of the REPT function cannot be longer than 32,767
characters, or REPT returns #VALUE!"); Microsoft Learn, "WorksheetFunction.Rept method".
"""

from __future__ import annotations

import math

import numpy as np

from addin.excel import args as xa
from addin.formula import fx
from addin.formula.excel_numbers import number_text
from udfs.machinery.errors import ExcelError

#: the longest text a cell holds (REPT's page: #VALUE! past it)
MOST_CHARACTERS = 32767


def _text(v) -> str:
    ns = fx.load()
    if v is ns.EMPTY or v is None:
        return ""
    if isinstance(v, (bool, np.bool_)):
        return "TRUE" if v else "FALSE"
    if isinstance(v, (int, float, np.number)):
        return number_text(float(v))
    return str(v)


def rept(text, number_times):
    """Excel's REPT(text, number_times): see the module."""
    t = _text(xa.scalar(text, "REPT's text"))
    raw = xa.scalar(number_times, "REPT's number_times")
    if isinstance(raw, (bool, np.bool_)):
        raise xa.Cannot("REPT() given a logical value as number_times (its page does not "
                        "say how it is read)")
    times = xa.number(raw, "REPT's number_times")
    if times < 0:
        raise xa.Cannot("REPT() given a negative number_times (its page does not say "
                        "Excel's value)")
    times = math.trunc(times)
    if len(t) * times > MOST_CHARACTERS:
        raise ExcelError("#VALUE!", f"REPT's result would be {len(t) * times:,} characters,"
                         f" more than {MOST_CHARACTERS:,}")
    return t * times
