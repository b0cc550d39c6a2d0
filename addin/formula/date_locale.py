"""Dates written as text whose value in Excel depends on the reader's computer.

Excel reads a text as a date (``DATEVALUE``, ``"1/2/2024"+0``, a criterion) by the
computer's regional settings: Microsoft's page of the DateValue function (the same
conversion in VBA) says it "recognizes the order for month, day, and year according to
the short date format you specified for your system", and "if the year part of date is
omitted, DateValue uses the current year from your computer's system date" (Excel's
DATEVALUE page says the same of the year). So ``"1/2/2024"`` is 2 January in the United
States and 1 February in most other places, ``"15/1/2024"`` a date in one and no date in
the other; ``"1.2.2024"`` is a date where the short date format uses dots; ``"1-2-24"``
one where hyphens are read; ``"Jan 5"`` is in whichever year the clock says.

A workbook does not record the settings of the computer that computed it, so napkin
does not choose: strict mode stops (``context.refuse``) on a date text of numbers whose
day and month may be read either way (the first two numbers differ and either may be a
month), written with dots or hyphens but not year first, or of two numbers only
(``"1/24"``, ``"001/2024"``: a month and a year, or a month and a day), and on one
without a year. A date that reads the same either way (``"1/1/2024"``, ``"13/13/2024"``
which is none), year first (``"2024-01-15"``, ``"2024/1/15"``), or with its month in
words and a year (``"15 January 2024"``) is read as before.

References
----------
Microsoft Learn, "DateValue function" (VBA language reference,
learn.microsoft.com/office/vba/language/reference/user-interface-help/datevalue-function);
Microsoft Support, "DATEVALUE function" (the year omitted: the current year).
"""

from __future__ import annotations

import re

_TIME = r"(?:\s+\d{1,2}:\d{2}(?::\d{2}(?:\.\d*)?)?(?:\s*[AaPp][Mm])?)?"
_NUMERIC = re.compile(r"\s*(\d{1,4})\s*([/.-])\s*(\d{1,4})(?:\s*\2\s*(\d{1,4}))?" + _TIME
                      + r"\s*")


def numeric_date_read_by_locale(text: str) -> str | None:
    """Why Excel's reading of ``text``, a date written in numbers, depends on the
    computer's settings (the module's docstring), or None where it does not."""
    m = _NUMERIC.fullmatch(text)
    if not m:
        return None
    first, sep, second, third = m.groups()
    if len(first) == 4 and third is not None:
        return None  # year first: "2024-01-15", "2024/1/15"
    if third is None:
        return "a date of two numbers (a month and a day, or a month and a year)"
    if sep != "/":
        return f"a date written with \"{sep}\" (read as a date where the short date " \
               "format uses it)"
    a, b = int(first), int(second)
    if a != b and a <= 31 and b <= 31 and (a <= 12 or b <= 12):
        return "a date whose day and month may be read either way"
    return None


def why(text: str, reason: str) -> str:
    """The refusal's words for date text ``text``."""
    return (f"the text {text!r} as a date: {reason}, which Excel reads by the computer's "
            "regional settings (not saved in the workbook)")
