"""Excel 365's functions that cut a text into parts or read a number out of it:
TEXTBEFORE, TEXTAFTER, TEXTSPLIT and NUMBERVALUE, written after Microsoft's pages; what
the pages leave open is ``Cannot`` (strict mode refuses the cell): a text or a delimiter
given as a number, logical value or empty cell (whether Excel writes it as text there
no page says), a delimiter found overlapping itself (``"aa"`` in ``"aaa"``: which
occurrence counts is not documented), matching without case beyond ASCII letters, the
end of the text as a delimiter in a search from the end, NUMBERVALUE's locale where
the text has a character whose meaning the locale decides.

References
----------
Microsoft Support, "TEXTBEFORE function",
https://support.microsoft.com/en-us/office/textbefore-function-d099c28a-dba8-448e-ac6c-f086d0fa1b29
(instance_num 1 by default, negative from the end; #VALUE! where it is 0 or greater than
the length of text; #N/A, or if_not_found, where the delimiter is not in the text or
occurs fewer times; an empty delimiter matches at once: empty text from the front, the
whole text from the end; match_mode 0 with case, 1 without; match_end 1 the end of the
text a delimiter: =TEXTBEFORE("Socrates"," ",,,1) is "Socrates"); "TEXTAFTER function",
https://support.microsoft.com/en-us/office/textafter-function-c8db2546-5b51-416a-9690-c7e6722e90b4
(its mirror: an empty delimiter gives the whole text from the front, empty text from the
end); "TEXTSPLIT function",
https://support.microsoft.com/en-us/office/textsplit-function-b1ca414e-4c21-4ca0-b1b7-bdecace8a6e7
(columns split at col_delimiter, rows at row_delimiter, each a text or an array of texts;
ignore_empty TRUE leaves out the empty parts two delimiters in a row make; pad_with, #N/A
by default, where a row is short); "NUMBERVALUE function",
https://support.microsoft.com/en-us/office/numbervalue-function-1b05c8cf-2bfa-4437-af70-596c7ea7d879
("" is 0; spaces ignored, even in the middle; only the first character of a separator;
a decimal separator twice, or a group separator after it, #VALUE!; group separators
before it ignored; trailing percent signs each divide by 100: =NUMBERVALUE("9%%") is
0.0009, =NUMBERVALUE("2.500,27",",",".") is 2500.27).
"""

from __future__ import annotations

import re

import numpy as np

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import fx, fx_excel
from udfs.machinery.errors import ExcelError


def _left_out(v) -> bool:
    return v is None or fx.is_omitted(v)


def _text(v, what: str) -> str:
    """A text argument: a text as it is, a number or logical value as Excel writes it
    (1.9 is "1.9", TRUE "TRUE": the cells Excel saved in formulas' test.xlsx, TEXT!AI45:AO45
    and AI47:AO47), an error value raised; an empty cell refused (Excel saved an error
    there, AM45 and the DCF template's D15:R15, which one no cell shows)."""
    v = xa.scalar(v, what)
    kind = xa.kind(v)
    if kind is None:
        raise Cannot(f"{what} given an empty cell (Excel gives an error there; which one "
                     "no saved cell shows)")
    return str(v) if kind == 1 else fx_excel.excel_text(v)


def _instance(v, who: str) -> int:
    """TEXTBEFORE's and TEXTAFTER's instance_num: 1 left out; a number truncated toward
    0 and TRUE 1, an empty cell #VALUE! (formulas' test.xlsx, TEXT!AI44:AO44: 1.9 is 1,
    2.3 is 2, TRUE 1, the empty H44 #VALUE!); text, FALSE and a negative fraction refused."""
    what = f"{who}'s instance_num"
    if _left_out(v):
        return 1
    one = xa.scalar(v, what)
    if one is fx.load().EMPTY:
        raise ExcelError("#VALUE!", f"{what} is an empty cell")
    if one is True or isinstance(one, np.bool_) and bool(one):
        return 1
    if xa.kind(one) != 0 or float(one) < 0 and not float(one).is_integer():
        raise Cannot(f"{what} given {one!r} (only numbers and TRUE are checked there)")
    return int(float(one))


def _setting(v, what: str, allowed: tuple[int, ...], default: int) -> int:
    """A numeric setting (instance_num, match_mode, match_end): a number or logical
    value, whole; text, a fraction or a value the page does not list refused."""
    if _left_out(v):
        return default
    one = xa.scalar(v, what)
    if xa.kind(one) not in (0, 2) or float(one) != int(one):
        raise Cannot(f"{what} given {one!r} (only whole numbers are checked there)")
    n = int(one)
    if allowed and n not in allowed:
        raise Cannot(f"{what} {n} is none of the values its page lists")
    return n


def _ascii_or_cannot(who: str, *texts: str) -> None:
    if any(not t.isascii() for t in texts):
        raise Cannot(f"{who} without case of a text beyond ASCII (how Excel folds its "
                     "case is not documented)")


def _occurrences(text: str, delims, fold: bool, who: str) -> list[tuple[int, int]]:
    """(start, end) of every one of ``delims`` in ``text``, left to right; refused where
    two overlap (``"aa"`` in ``"aaa"``, or two delimiters at one place)."""
    hay = text.lower() if fold else text
    found = sorted((m.start(), m.start() + len(d)) for d in delims for m in re.finditer(
        f"(?={re.escape(d.lower() if fold else d)})", hay))
    if any(b[0] < a[1] for a, b in zip(found, found[1:], strict=False)):
        raise Cannot(f"{who}'s delimiters found overlapping in the text (which occurrence "
                     "counts is not documented)")
    return found


def _delimiter_texts(v, what: str) -> tuple[str, ...]:
    """A delimiter: one text, or an array of them (any of which cuts: formulas' test.xlsx,
    TEXT!S44 and T45, {"3","4"}), numbers written as Excel writes them."""
    return tuple(_text(x, what) for x in _delimiter_values(v, what))


def _delimiter_values(v, what: str) -> list:
    """The values of a delimiter: one value, or those of an array; a range of several
    cells refused (whether a formula not entered as an array reads it whole or
    intersects it with its cell no saved cell shows)."""
    ns = fx.load()
    if isinstance(v, ns.Ranges):
        v = v.value
        if np.size(v) > 1:
            raise Cannot(f"{what} given a range of several cells")
    return list(np.asarray(v, dtype=object).ravel()) if isinstance(v, np.ndarray) else [v]


def _before_after(after: bool, text, delimiter, instance_num, match_mode, match_end,
                  if_not_found):
    """TEXTBEFORE (``after`` False) or TEXTAFTER of one text; ``delimiter`` a tuple of
    texts (``_delimiter_texts``)."""
    who = "TEXTAFTER" if after else "TEXTBEFORE"
    s = _text(text, f"{who}'s text")
    n = _instance(instance_num, who)
    fold = _setting(match_mode, f"{who}'s match_mode", (0, 1), 0) == 1
    end = _setting(match_end, f"{who}'s match_end", (0, 1), 0) == 1
    if not s:
        raise Cannot(f"{who} of an empty text (its page says empty text, and #VALUE! for "
                     "an instance_num greater than the length of text)")
    if n == 0 or abs(n) > len(s):
        if n < 0:
            raise Cannot(f"{who}'s instance_num {n} given a text of {len(s)} characters "
                         "(its page names 0 and a number greater than the length)")
        raise ExcelError("#VALUE!", f"{who}'s instance_num is 0 or greater than the "
                                    "length of text")
    if fold:
        _ascii_or_cannot(who, s, *delimiter)
    if delimiter == ("",):  # its page: an empty delimiter matches at once
        return ("" if n < 0 else s) if after else (s if n < 0 else "")
    if "" in delimiter:
        raise Cannot(f"{who}'s delimiters with an empty one among others")
    if end and n < 0:
        raise Cannot(f"{who}'s match_end in a search from the end (its page does not say "
                     "which end is the delimiter)")
    cuts = _occurrences(s, delimiter, fold, who) + ([(len(s), len(s))] if end else [])
    if abs(n) > len(cuts):
        if _left_out(if_not_found):
            raise ExcelError("#N/A", f"{who}: the delimiter is not in the text {abs(n)} "
                                     "times")
        one = xa.one_value(if_not_found)
        if one is fx.load().EMPTY or one is None:
            raise Cannot(f"{who}'s if_not_found given an empty cell or an array")
        return one
    a, b = cuts[n - 1] if n > 0 else cuts[n]
    return s[b:] if after else s[:a]


def _lifted_text(after: bool):
    """TEXTBEFORE or TEXTAFTER computed for each element of its text, instance_num,
    match_mode, match_end and if_not_found given arrays or ranges (Excel saved formulas'
    test.xlsx TEXT!AG44:AW45 so, each element with the one beside it), the delimiter an
    array of delimiters."""
    def one(text, delimiter, *rest):
        return _before_after(after, text, delimiter, *rest)

    each = xa.lifted(one)

    def call(text, delimiter, instance_num=None, match_mode=None, match_end=None,
             if_not_found=None):
        who = "TEXTAFTER" if after else "TEXTBEFORE"
        delims = _delimiter_texts(delimiter, f"{who}'s delimiter")
        return each(text, delims, instance_num, match_mode, match_end, if_not_found)

    return call


def textbefore(text, delimiter, instance_num=None, match_mode=None, match_end=None,
               if_not_found=None):
    """Excel's ``TEXTBEFORE(text, delimiter, [instance_num], [match_mode], [match_end],
    [if_not_found])``: the text before the ``instance_num``-th ``delimiter`` (counted
    from the end if negative). ``TEXTBEFORE("Red riding hood's, red hood","hood")`` is
    ``"Red riding "``."""
    return _lifted_text(False)(text, delimiter, instance_num, match_mode, match_end,
                               if_not_found)


def textafter(text, delimiter, instance_num=None, match_mode=None, match_end=None,
              if_not_found=None):
    """Excel's ``TEXTAFTER(text, delimiter, [instance_num], [match_mode], [match_end],
    [if_not_found])``: the text after the ``instance_num``-th ``delimiter`` (counted
    from the end if negative). ``TEXTAFTER("Red riding hood's, red hood","hood")`` is
    ``"'s, red hood"``."""
    return _lifted_text(True)(text, delimiter, instance_num, match_mode, match_end,
                              if_not_found)


def _delimiters(v, what: str) -> list[str]:
    """A delimiter of TEXTSPLIT: one text, or a row or column of texts; an empty text or
    cell #VALUE! (Excel saved TEXTSPLIT(...,"") and TEXTSPLIT(...,H47) of the empty H47 so
    in formulas' test.xlsx, TEXT!V47:W47); an empty one among others refused."""
    ns = fx.load()
    vals = _delimiter_values(v, what)
    if len(vals) == 1 and (vals[0] is ns.EMPTY or vals[0] == ""):
        raise ExcelError("#VALUE!", f"{what} is empty")
    out = [_text(x, what) for x in vals]
    if not out or any(not d for d in out):
        raise Cannot(f"{what} given an empty text among others (its page gives no value)")
    return out


def _split(s: str, delims: list[str], fold: bool) -> list[str]:
    """``s`` cut at every one of ``delims``; refused where two occurrences overlap."""
    hay = s.lower() if fold else s
    found = sorted((m.start(), m.start() + len(d)) for d in delims
                   for m in re.finditer(f"(?={re.escape(d.lower() if fold else d)})", hay))
    if any(b[0] < a[1] for a, b in zip(found, found[1:], strict=False)):
        raise Cannot("TEXTSPLIT's delimiters found overlapping (which one cuts is not "
                     "documented)")
    parts, at = [], 0
    for a, b in found:
        parts.append(s[at:a])
        at = b
    return parts + [s[at:]]


def textsplit(text, col_delimiter, row_delimiter=None, ignore_empty=None, match_mode=None,
              pad_with=None):
    """Excel's ``TEXTSPLIT(text, col_delimiter, [row_delimiter], [ignore_empty],
    [match_mode], [pad_with])``: ``text`` cut into rows at ``row_delimiter`` and each
    row into columns at ``col_delimiter``; short rows padded with ``pad_with`` (#N/A).
    ``TEXTSPLIT("Dakota Lennon Sanchez"," ")`` is ``{"Dakota","Lennon","Sanchez"}``."""
    ns = fx.load()
    if xa.scalar(text, "TEXTSPLIT's text") is ns.EMPTY:  # formulas' test.xlsx, TEXT!AM47
        raise ExcelError("#VALUE!", "TEXTSPLIT's text is an empty cell")
    s = _text(text, "TEXTSPLIT's text")
    cols = _delimiters(col_delimiter, "TEXTSPLIT's col_delimiter")
    rows_by = None if _left_out(row_delimiter) else _delimiters(
        row_delimiter, "TEXTSPLIT's row_delimiter")
    skip = _setting(ignore_empty, "TEXTSPLIT's ignore_empty", (0, 1), 0) == 1
    fold = _setting(match_mode, "TEXTSPLIT's match_mode", (0, 1), 0) == 1
    if fold:
        _ascii_or_cannot("TEXTSPLIT", s, *cols, *(rows_by or ()))
    if rows_by and any(x in y or y in x for x in cols for y in rows_by):
        raise Cannot("TEXTSPLIT with a col_delimiter and a row_delimiter that contain "
                     "one another (which cuts first is not documented)")
    rows = _split(s, rows_by, fold) if rows_by else [s]
    table = [_split(r, cols, fold) for r in rows]
    if skip:
        table = [[p for p in r if p] for r in table]
        table = [r for r in table if r]
        if not table:
            raise Cannot("TEXTSPLIT with nothing left once the empty parts are ignored")
    if _left_out(pad_with):
        pad = ns.errors["#N/A"]
    else:
        pad = xa.one_value(pad_with)
        if pad is ns.EMPTY or pad is None:
            raise Cannot("TEXTSPLIT's pad_with given an empty cell or an array")
    width = max(len(r) for r in table)
    out = np.array([r + [pad] * (width - len(r)) for r in table], dtype=object)
    return out[0, 0] if out.size == 1 else out.view(ns.Array)


def numbervalue(text, decimal_separator=None, group_separator=None):
    """Excel's ``NUMBERVALUE`` (``_numbervalue``) of each element of ``text`` given an
    array or range, as Excel saved formulas' test.xlsx TEXT!AH27:AW28."""
    return xa.lifted(_numbervalue)(text, decimal_separator, group_separator)


def _numbervalue(text, decimal_separator=None, group_separator=None):
    """Excel's ``NUMBERVALUE(text, [decimal_separator], [group_separator])``: the number
    a text writes with the separators given (the first character of each): spaces
    ignored, group separators before the decimal one ignored, each trailing ``%``
    dividing by 100. ``NUMBERVALUE("2.500,27",",",".")`` is 2500.27.

    Left out, the separators are the locale's, which a workbook does not record: napkin
    then computes only a text of digits, spaces and trailing ``%`` (the same in every
    locale). A sign, an exponent, a currency, parentheses: not on the page, refused.
    A number is itself, an empty cell 0 and a logical value #VALUE!, as Excel saved
    formulas' test.xlsx TEXT!AG27:AO27 (5.9, -1, ... ; the empty H27 0; TRUE #VALUE!)."""
    one = xa.scalar(text, "NUMBERVALUE's text")
    if isinstance(one, (bool, np.bool_)):
        raise ExcelError("#VALUE!", "NUMBERVALUE's text is a logical value")
    if xa.kind(one) == 0:
        return float(one)
    if one is fx.load().EMPTY:
        return 0.0
    s = _text(one, "NUMBERVALUE's text")
    seps = []
    for v, what in ((decimal_separator, "decimal_separator"),
                    (group_separator, "group_separator")):
        if _left_out(v):
            seps.append(None)
            continue
        t = _text(v, f"NUMBERVALUE's {what}")
        if not t or t[0].isdigit() or t[0] in "% \t+-eE()":
            raise Cannot(f"NUMBERVALUE's {what} {t!r} (its page gives no value)")
        seps.append(t[0])
    dec, grp = seps
    if dec is not None and dec == grp:
        raise Cannot("NUMBERVALUE with the same decimal and group separator (its page "
                     "gives no value)")
    body = re.sub(r"\s", "", s)
    if not s:
        return 0.0
    core = body.rstrip("%")
    percents = len(body) - len(core)
    allowed = set("0123456789") | {x for x in (dec, grp) if x is not None}
    if not core or any(ch not in allowed for ch in core) or not any(ch.isdigit()
                                                                    for ch in core):
        raise Cannot(f"NUMBERVALUE of {s!r} (only digits, spaces, the separators given and "
                     "trailing % are on its page)")
    if dec is not None and core.count(dec) > 1:
        raise ExcelError("#VALUE!", "NUMBERVALUE: the decimal separator is used more than "
                                    "once")
    whole, _, frac = core.partition(dec) if dec is not None else (core, "", "")
    if len((whole.replace(grp, "") if grp else whole).lstrip("0") + frac) > 15:
        raise Cannot(f"NUMBERVALUE of {s!r}: more than 15 digits (which Excel keeps is "
                     "not on its page)")
    if grp is not None and grp in frac:
        raise ExcelError("#VALUE!", "NUMBERVALUE: a group separator after the decimal "
                                    "separator")
    if grp is not None:
        whole = whole.replace(grp, "")
    value = float(f"{whole or '0'}.{frac or '0'}")
    for _ in range(percents):
        value /= 100
    return value
