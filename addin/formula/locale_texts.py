"""Texts whose value as a number or date in Excel depends on the reader's computer.

Excel reads a text as a date (``DATEVALUE``, ``"1/2/2024"+0``, a criterion) by the
computer's regional settings: Microsoft's page of the DateValue function (the same
conversion in VBA) says it "recognizes the order for month, day, and year according to
the short date format you specified for your system". So ``"1/2/2024"`` is 2 January in
the United States and 1 February in most other places, ``"15/1/2024"`` a date in one and
no date in the other; ``"1.2.2024"`` is a date where the short date format uses dots;
``"1-2-24"`` one where hyphens are read.

A workbook does not record the settings of the computer that computed it, so napkin
does not choose: strict mode stops (``context.refuse``) on a date text of numbers whose
day and month may be read either way (the first two numbers differ and either may be a
month), written with dots or hyphens but not year first, or of two numbers only
(``"1/24"``, ``"001/2024"``: a month and a year, or a month and a day). A date that reads
the same either way (``"1/1/2024"``, ``"13/13/2024"`` which is none), year first
(``"2024-01-15"``, ``"2024/1/15"``), or with its month in words and a year (``"15 January
2024"``) is read as before. A month in words and a number without a year (``"May-25"``,
``"January1"``) is refused where the text is read as a date (``addin.formula.fx_excel.
text_date``): the page says a year left out is the clock's, but Excel read "May-25" as
May 2025. Its month is the same either way, so MONTH reads it
(``addin.formula.fx_excel_dates.month_of_text``); as a criterion over a range of texts
without a digit, none equal to it, it matches no cell either way
(``addin.formula.criterion_test``).

Numbers written with other digits than ASCII's (``"１２"``, ``"١"``), with a space other
than the ASCII space (a no-break space, as text copied from a web page has, or a tab), or
with a currency sign other than ``$`` (``"£5"``, ``"5 €"``) are read by the same settings
(and Python's ``float`` reads the first two as numbers, which no page says Excel does):
strict mode stops where such a text would read as a number once those characters are
taken as their ASCII forms (``number_read_by_locale``). A text that reads as no number
either way (``"Café"``, ``"Q1 €"``) is a text, as before. napkin reads ``"$1,000"`` and
``"1.5"`` as Excel does with American settings (a comma groups thousands, a point marks
decimals), the settings of the corpora's Excel-saved files where their texts show them.

References
----------
Microsoft Learn, "DateValue function" (VBA language reference,
learn.microsoft.com/office/vba/language/reference/user-interface-help/datevalue-function);
Microsoft Support, "DATEVALUE function" (the year omitted: the current year).
"""

from __future__ import annotations

import re
import unicodedata

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
    """The refusal's words for ``text``, read as a date or a number."""
    kind = "a number" if reason.startswith("a number") else "a date"
    return (f"the text {text!r} read as {kind}: {reason}, which Excel reads by the "
            "computer's regional settings (not saved in the workbook)")


_CURRENCY = "\u00a3\u20ac\u00a5\u20b9"  # pound, euro, yen, rupee signs


def _ascii_form(text: str) -> str:
    """``text`` with other digits as ASCII digits, every space as the ASCII space and
    other currency signs as ``$``."""
    out = []
    for ch in text:
        if ch.isdigit() and not ch.isascii():
            out.append(str(unicodedata.digit(ch, 0)))
        elif ch.isspace():
            out.append(" ")
        else:
            out.append("$" if ch in _CURRENCY else ch)
    return "".join(out)


def number_read_by_locale(text: str, reads_as_number) -> str | None:
    """Why ``text``, a number once its digits, spaces and currency signs are taken as
    ASCII's (``reads_as_number``: a test of the ASCII form, napkin's reading of numbers),
    is read by the computer's settings, or None (the module's docstring)."""
    if text.isascii() and not any(ch in "\t\n\r\f\v" for ch in text):
        return None
    plain = _ascii_form(text)
    if plain == text or not reads_as_number(plain):
        return None
    return "a number written with digits, spaces or a currency sign other than ASCII's"
