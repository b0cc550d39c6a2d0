"""CONVERT between Excel's units of time; its other units refused.

Excel's ``CONVERT(number, from_unit, to_unit)`` converts between units of one group; the
units are case-sensitive text. napkin computes the time group only: year ``"yr"`` (365.25
days), day ``"day"`` or ``"d"``, hour ``"hr"``, minute ``"mn"`` or ``"min"``, second
``"sec"`` or ``"s"`` (Microsoft Support, "CONVERT function", its table of units; "Convert
times": "a year is 365.25 days"). Every other unit, a metric prefix on these ("ms") among
them, is refused (``Cannot``): napkin does not hold Excel's factors for them.

The number is taken to seconds and then from seconds: ``number * from / to``, in that
order of IEEE operations. 2,605 cells of ``CONVERT(a*b,"day","hr")`` that Excel saved
(the business corpus's heldout8, HThetard/DatacationCallCenterInvestigation,
Prophet_Forecast_Results Editted.xlsx) are ``a*b*86400/3600`` to the last bit, all of
them; ``a*b*24`` gives Excel's double in 1,895 of them and ``a*b/(1/24)`` in 1,661.

References
----------
Microsoft Support, "CONVERT function": its table of units (case-sensitive); "If the
units are in different groups, CONVERT returns the #N/A error value"; "If the input data
types are incorrect, CONVERT returns the #VALUE! error value".
Microsoft Support, "Convert times": CONVERT(5.5,"day","hr") hours in 5.5 days; a year is
365.25 days.
"""

from __future__ import annotations

import numpy as np

from addin.excel import args as xa

#: Excel's units of time -> seconds in one (Microsoft's table; a year of 365.25 days)
SECONDS = {"yr": 365.25 * 86400.0, "day": 86400.0, "d": 86400.0, "hr": 3600.0,
           "mn": 60.0, "min": 60.0, "sec": 1.0, "s": 1.0}


def _unit(v, what: str) -> str:
    v = xa.scalar(v, f"CONVERT's {what}")
    if not isinstance(v, str) or v not in SECONDS:
        raise xa.Cannot(f"CONVERT() given {what} {v!r}: napkin converts between Excel's "
                        "units of time only (yr, day, d, hr, mn, min, sec, s)")
    return v


def convert(number, from_unit, to_unit):
    """Excel's ``CONVERT(number, from_unit, to_unit)`` between units of time: ``number``
    times the seconds in ``from_unit``, divided by the seconds in ``to_unit`` (the
    module's docstring)."""
    raw = xa.scalar(number, "CONVERT's number")
    if isinstance(raw, (bool, np.bool_)) or not isinstance(raw, (int, float, np.number)):
        raise xa.Cannot("CONVERT() given other than a number (its page says #VALUE! for "
                        "incorrect data types, not which ones)")
    return float(raw) * SECONDS[_unit(from_unit, "from_unit")] / \
        SECONDS[_unit(to_unit, "to_unit")]
