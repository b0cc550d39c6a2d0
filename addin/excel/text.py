"""Excel's functions of text and of numbers written as text: TEXT, DOLLAR, BASE,
HYPERLINK, SEARCH, PROPER, and the base conversions BIN2DEC, DEC2HEX, ... (binary, octal,
decimal, hexadecimal).

References
----------
Microsoft Support, "TEXT function", "DOLLAR function", "BASE function", "HYPERLINK
function", "SEARCH, SEARCHB functions", "PROPER function" (https://support.microsoft.com/
en-us/office/proper-function-52a5a283-e8b2-49be-8506-b2887b889f94), and the help page of
each base conversion.
"""

from __future__ import annotations

import math

import numpy as np

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import context, fx, fx_excel
from addin.formula.arrays import grid
from udfs.machinery.errors import ExcelError

# --------------------------------------------------------------------------- text


def dollar(number, decimals=2):
    """Excel's ``DOLLAR(number, [decimals])``: the number rounded to ``decimals`` places
    (left of the point when negative) as text in the format ``$#,##0.00_);($#,##0.00)``
    (Microsoft's DOLLAR help; the United States currency format)."""
    import decimal

    if any(isinstance(v, fx.load().Ranges) and isinstance(xa.one_value(v), bool)
           for v in (number, decimals)):
        raise Cannot("DOLLAR() given a reference to a logical value (its page does not say "
                     "Excel's value)")
    x = xa.number(number, "DOLLAR's number")
    d = 2 if fx.is_omitted(decimals) else math.trunc(xa.number(decimals, "DOLLAR's decimals"))
    if d > 127:
        raise ExcelError("#VALUE!", "DOLLAR's decimals must be at most 127")
    r = fx_excel._round15(x, d, decimal.ROUND_HALF_UP)
    text = f"${abs(r):,.{max(d, 0)}f}"
    return f"({text})" if r < 0 else text


_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def base(number, radix, min_length=0):
    """Excel's ``BASE(number, radix, [min_length])``: the number (truncated, 0 to
    2^53) written in base ``radix`` (2-36), padded with zeros to ``min_length``
    (at most 255)."""
    n = math.trunc(xa.number(number, "BASE's number"))
    b = math.trunc(xa.number(radix, "BASE's radix"))
    m = 0 if fx.is_omitted(min_length) else math.trunc(xa.number(min_length, "BASE's min_length"))
    if not 0 <= n < 2 ** 53:
        raise ExcelError("#NUM!", "BASE's number must be from 0 to 2^53")
    if not 2 <= b <= 36:
        raise ExcelError("#NUM!", "BASE's radix must be from 2 to 36")
    if not 0 <= m <= 255:
        raise ExcelError("#NUM!", "BASE's min_length must be from 0 to 255")
    digits = ""
    while n:
        n, r = divmod(n, b)
        digits = _DIGITS[r] + digits
    return (digits or "0").rjust(m, "0")


def hyperlink(link_location, friendly_name=None):
    """Excel's ``HYPERLINK(link_location, [friendly_name])``: the cell shows
    ``friendly_name`` when given, else ``link_location`` (the link itself is not
    followed). link_location is a text: a number or logical value given there is its
    text (ECMA-376 Part 1, SpreadsheetML function HYPERLINK: link-location of type text,
    the value returned text); a number or logical value as friendly_name stops strict
    mode (``Cannot``): whether Excel shows that number or its text, Microsoft's page
    does not say."""
    ns = fx.load()
    named = not (friendly_name is None or fx.is_omitted(friendly_name))
    v = xa.scalar(friendly_name if named else link_location, "HYPERLINK's argument")
    if isinstance(v, (bool, int, float, np.bool_, np.number)):
        if named:
            raise Cannot("HYPERLINK showing a number or a logical value as friendly_name")
        return fx_excel.excel_text(v)
    return ns.EMPTY if v is None else v


def search(find_text, within_text, start_num=1):
    """Excel's ``SEARCH(find_text, within_text, [start_num])``: where ``find_text``
    first appears in ``within_text`` at or after ``start_num``, without regard to case;
    ``?`` stands for one character, ``*`` for any run, ``~`` makes the next one plain.
    Numbers are searched as Excel writes them (1E-05 is "0.00001")."""
    def text(v, what):
        v = xa.scalar(v, what)
        ns = fx.load()
        if v is ns.EMPTY or v is None:
            return ""
        return fx_excel._str(v)

    find = text(find_text, "SEARCH's find_text")
    within = text(within_text, "SEARCH's within_text")
    if not find:  # (FIND's page: the character numbered start_num; SEARCH's is silent)
        raise Cannot("SEARCH() of an empty find_text: its page does not say Excel's value")
    start = 1 if fx.is_omitted(start_num) else math.trunc(xa.number(start_num,
                                                                  "SEARCH's start_num"))
    if not 1 <= start <= len(within) + 1 or (start > len(within) and find):
        raise ExcelError("#VALUE!", f"SEARCH's start_num {start} is outside the text")
    m = xa.wildcard(find, star=".*?").search(within, start - 1)
    if m is None:
        raise ExcelError("#VALUE!", f"SEARCH: {find!r} is not in {within!r}")
    return m.start() + 1


# --------------------------------------------------------------------------- bases

_RADIX = {"BIN": 2, "OCT": 8, "DEC": 10, "HEX": 16}


def _from_based(v, radix: int, name: str) -> int:
    """The argument of BIN2..., OCT2..., HEX2...: at most 10 digits of the radix; ten
    digits with the top bit set are negative (two's complement)."""
    ns = fx.load()
    v = xa.scalar(v, f"{name}'s number")
    if v is ns.EMPTY or v is None or fx.is_omitted(v):
        return 0
    if isinstance(v, (bool, np.bool_)):
        raise ExcelError("#VALUE!", f"{name}'s number is a logical value")
    if isinstance(v, (int, float, np.number)):
        if float(v) != math.trunc(float(v)) or v < 0:
            raise ExcelError("#NUM!", f"{name}'s number {v!r} is not made of its digits")
        text = str(int(v))
    else:
        text = str(v).upper()
    if len(text) > 10:
        raise ExcelError("#NUM!", f"{name}'s number {text!r} has more than 10 digits")
    if not text:
        return 0
    try:
        n = int(text, radix)
    except ValueError:
        raise ExcelError("#NUM!", f"{name}: {text!r} is not a base-{radix} number") from None
    if not text.isalnum():  # int() takes "+1", "-1", "1_0"
        raise ExcelError("#NUM!", f"{name}: {text!r} is not a base-{radix} number")
    if len(text) == 10 and n >= radix ** 10 // 2:
        n -= radix ** 10
    return n


def _places(places, name: str) -> int | None:
    """The ``places`` argument: None when omitted, else 1 to 10 (``#NUM!`` otherwise,
    checked before the number, as Excel does: DEC2BIN("E",0) is #NUM!)."""
    if places is None or fx.is_omitted(places):
        return None
    ns = fx.load()
    p = xa.scalar(places, f"{name}'s places")
    if isinstance(p, (bool, np.bool_)):  # (Microsoft's page does not say Excel's value)
        raise Cannot(f"{name} with TRUE or FALSE as its places")
    if p is ns.EMPTY:  # (Microsoft's page does not say whether it is 0 or left out)
        raise Cannot(f"{name} with an empty cell as its places")
    p = math.trunc(xa.number(p, f"{name}'s places"))
    if not 1 <= p <= 10:
        raise ExcelError("#NUM!", f"{name}'s places must be from 1 to 10")
    return p


def _to_based(n: int, radix: int, places: int | None, name: str) -> str:
    half = radix ** 10 // 2
    if not -half <= n < half:
        raise ExcelError("#NUM!", f"{name}: {n} is out of range for 10 base-{radix} digits")
    if n < 0:
        return np.base_repr(n + radix ** 10, radix)  # ten digits; places is ignored
    digits = np.base_repr(n, radix)
    if places is None:
        return digits
    if places < len(digits):
        raise ExcelError("#NUM!", f"{name}: {digits} does not fit in {places} places")
    return digits.rjust(places, "0")


def _base_function(src: str, dst: str):
    name = f"{src}2{dst}"

    def convert(number, places=None):
        places = _places(places, name) if dst != "DEC" else None
        if src == "DEC":
            v = xa.scalar(number, f"{name}'s number")
            if isinstance(v, (bool, np.bool_)):  # (as for places)
                raise Cannot(f"{name} with TRUE or FALSE as its number")
            if isinstance(v, str) and not v.strip():
                raise ExcelError("#VALUE!", f"{name}'s number is an empty text")
            n = math.trunc(xa.number(v, f"{name}'s number"))
        else:
            n = _from_based(number, _RADIX[src], name)
        if dst == "DEC":
            return float(n)
        return _to_based(n, _RADIX[dst], places, name)

    convert.__doc__ = (f"Excel's ``{name}(number, [places])``: a base-{_RADIX[src]} number "
                       f"in base {_RADIX[dst]} (Microsoft's {name} help page).")
    return name, convert


BASE_CONVERSIONS = dict(_base_function(a, b) for a in _RADIX for b in _RADIX if a != b)


# --------------------------------------------------------------------------- TEXT


def text(value, format_text):
    """Excel's ``TEXT(value, format_text)``: the value rendered with a number format
    (``addin.excel.numfmt.text``); a text that reads as a number is formatted as that
    number. Format codes napkin does not render as Excel does stop strict mode."""
    from addin.excel import numfmt

    ns = fx.load()
    v = xa.scalar(value, "TEXT's value")
    code = xa.scalar(format_text, "TEXT's format_text")
    if v is ns.EMPTY or v is None:
        v = 0.0
    if code is ns.EMPTY or code is None:
        code = ""
    if isinstance(code, (bool, np.bool_)):
        code = "TRUE" if code else "FALSE"
    elif not isinstance(code, str):
        code = fx_excel.number_text(float(code))
    if isinstance(v, str):
        try:
            v = fx_excel.text_value(v)
        except ValueError:
            pass
    elif isinstance(v, np.generic):
        v = v.item()
    book = getattr(context.STATE, "book", None)
    try:
        return numfmt.text(v, code, bool(book is not None and book.date1904))
    except numfmt.Unsupported as ex:
        raise Cannot(f"TEXT with {ex}") from None


def _text_of(v, what: str) -> str:
    ns = fx.load()
    if isinstance(v, ns.XlError):
        raise ExcelError(str(v), context.message_for(str(v)) or f"{what} is an error")
    if v is ns.EMPTY or v is None or fx.is_omitted(v):
        return ""
    return fx_excel.excel_text(v)


def textjoin(delimiter, ignore_empty, text1, *texts):
    """Excel's ``TEXTJOIN(delimiter, ignore_empty, text1, [text2], ...)``: the texts of
    the arguments (every cell of a reference or array, row by row) joined by
    ``delimiter``; with ``ignore_empty`` TRUE, empty cells and empty texts are left out.
    An omitted delimiter is no delimiter; an error value in an argument is the result;
    a result longer than 32,767 characters is ``#VALUE!``.

    References: Microsoft Support, "TEXTJOIN function" (its examples)."""
    ns = fx.load()
    if isinstance(delimiter, (ns.Ranges, np.ndarray)):
        cells = grid(delimiter).ravel()
        if cells.size != 1:
            raise Cannot("TEXTJOIN with a range of delimiters")
        delimiter = cells[0]
    sep = _text_of(delimiter, "TEXTJOIN's delimiter")
    skip = True if fx.is_omitted(ignore_empty) else xa.number(
        ignore_empty, "TEXTJOIN's ignore_empty") != 0
    parts = []
    for a in (text1, *texts):
        cells = grid(a).ravel() if isinstance(a, (ns.Ranges, np.ndarray)) else (a,)
        for v in cells:
            t = _text_of(v, "a text of TEXTJOIN")
            if t or not skip:
                parts.append(t)
    out = sep.join(parts)
    if len(out) > 32767:
        raise ExcelError("#VALUE!", "TEXTJOIN's result is over 32,767 characters")
    return out


def proper(text):
    """Excel's ``PROPER(text)``: the first letter of the text and every letter after a
    character other than a letter in upper case, every other letter in lower case
    (its page: "this is a TITLE" is "This Is A Title", "2-way street" "2-Way Street",
    "76BudGet" "76Budget"); formulas' PROPER, which does so for ASCII letters. Text
    holding another letter (é, ß...: whether Excel counts it a letter and how it
    changes its case, the page does not say) is ``Cannot``."""
    ns = fx.load()
    values = grid(text).ravel() if isinstance(text, (ns.Ranges, np.ndarray)) else [text]
    for v in values:
        if isinstance(v, str) and not isinstance(v, ns.XlError) and not v.isascii():
            raise Cannot("PROPER() given text with letters beyond ASCII (how Excel "
                         "changes their case its page does not say)")
    return xa.ORIGINAL["PROPER"](text)
