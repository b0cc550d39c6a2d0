"""The one error type of the catalog: an Excel error value with a message.

A catalog function never lets an exception escape into a cell. Bad input becomes an
``ExcelError`` that carries the Excel error code a spreadsheet shows and a message
that names the argument and what was expected::

    #VALUE!  wrong type, unparseable text, incompatible units
    #NUM!    a number out of the argument's domain (negative memory, zero bandwidth, ...)
    #N/A     an unknown name: precision, GPU, model, table field, or an empty table cell

``ExcelError`` is an exception (the argument converters raise it) and also the *value* a
catalog function returns for a cell: each Excel route (headless engine, xlwings Lite, the
xlwings add-in) turns it into what its host can show.
"""

from __future__ import annotations

#: The error values Excel knows, as typed in a cell.
EXCEL_ERROR_CODES = (
    "#NULL!",
    "#DIV/0!",
    "#VALUE!",
    "#REF!",
    "#NAME?",
    "#NUM!",
    "#N/A",
    "#GETTING_DATA",
    "#SPILL!",
    "#CALC!",
)


class ExcelError(Exception):
    """An Excel error value (``code``) with a human message (``message``)."""

    __slots__ = ("code", "message")

    def __init__(self, code: str, message: str = ""):
        if code not in EXCEL_ERROR_CODES:
            raise ValueError(f"not an Excel error code: {code!r}")
        super().__init__(code, message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code} {self.message}".rstrip()

    def __repr__(self) -> str:
        return f"ExcelError({self.code!r}, {self.message!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ExcelError):
            return (self.code, self.message) == (other.code, other.message)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.code, self.message))


def value_error(message: str) -> ExcelError:
    """``#VALUE!``: wrong type, unparseable text or incompatible units."""
    return ExcelError("#VALUE!", message)


def num_error(message: str) -> ExcelError:
    """``#NUM!``: a number outside the argument's domain."""
    return ExcelError("#NUM!", message)


def na_error(message: str) -> ExcelError:
    """``#N/A``: an unknown name or an empty table cell."""
    return ExcelError("#N/A", message)


def as_excel_error(value: object) -> ExcelError | None:
    """The ``ExcelError`` that ``value`` stands for, or None.

    An argument that already is an error value (an ``ExcelError``, or the text of an
    Excel error code as some hosts pass it, e.g. ``"#N/A"``) comes back out unchanged, as
    Excel's own functions do.
    """
    if isinstance(value, ExcelError):
        return value
    if isinstance(value, str) and value in EXCEL_ERROR_CODES:
        return ExcelError(value, "")
    return None
