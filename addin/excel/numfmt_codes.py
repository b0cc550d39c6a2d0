"""Reading an Excel number format code (``addin.excel.numfmt``): its sections
(``split_sections``) and the tokens of one section (``tokens``); a code napkin
does not render as Excel does raises ``Unsupported``.

References
----------
Microsoft Support, "Number format codes"; ECMA-376 Part 1, 18.8.31 (numFmts).
"""

from __future__ import annotations

import re


class Unsupported(ValueError):
    """A format code napkin does not render as Excel does."""


_TOKEN = re.compile(
    r'"(?P<quoted>[^"]*)"'
    r"|\\(?P<escaped>.)"
    r"|_(?P<space>.)"
    r"|\*(?P<fill>.)"
    r"|\[(?P<bracket>[^\]]*)\]"
    r"|(?P<ampm>AM/PM|am/pm|A/P|a/p)"
    r"|(?P<general>General)"
    r"|(?P<date>[yY]+|[mM]+|[dD]+|[hH]+|[sS]+|[eE](?![+-])|[bB]{1,2}(?=[0-9]))"
    r"|(?P<exp>[eE][+-])"
    r"|(?P<char>.)", re.S | re.I)
_CONDITION = re.compile(r"(<=|>=|<>|<|>|=)\s*(-?[\d.]+(?:[eE][-+]?\d+)?)")
_COLOR = re.compile(r"(?i)(black|blue|cyan|green|magenta|red|white|yellow|color\s*\d+)")
_ELAPSED = re.compile(r"(?i)(h+|m+|s+)")
#: a currency and locale, ``[$<currency>-<language info>]`` (ECMA-376 Part 1, 18.8.31,
#: "[$USD-409]": the currency a text written as it is, the language info a hexadecimal
#: number whose low 16 bits are the language, 0x409 English (United States), the next
#: bytes the calendar and the number system; or, as Excel 365 writes it, "en-US")
_LOCALE = re.compile(r"\$(?P<currency>[^-]*)"
                     r"(?:-(?P<locale>[0-9A-Fa-f]{1,8}|[A-Za-z]{2}-[A-Za-z]{2}))?")
#: the language info napkin renders: English (United States), its Gregorian calendar and
#: Western digits, as napkin reads every format
_ENGLISH_US = ("409", "en-us")


def split_sections(code: str) -> list[str]:
    out, cur, i = [], [], 0
    while i < len(code):
        ch = code[i]
        if ch == '"':
            j = code.find('"', i + 1)
            j = len(code) if j == -1 else j + 1
            cur.append(code[i:j])
            i = j
            continue
        if ch in "\\_*" and i + 1 < len(code):
            cur.append(code[i:i + 2])
            i += 2
            continue
        if ch == "[":
            j = code.find("]", i)
            j = len(code) if j == -1 else j + 1
            cur.append(code[i:j])
            i = j
            continue
        if ch == ";":
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    out.append("".join(cur))
    return out


def tokens(section: str):
    """(kind, text) pairs of a section; conditions as ("cond", (op, value))."""
    toks = []
    for m in _TOKEN.finditer(section):
        kind = m.lastgroup
        val = m.group(kind)
        if kind == "bracket":
            b = val.strip()
            c = _CONDITION.fullmatch(b)
            if c:
                toks.append(("cond", (c.group(1), float(c.group(2)))))
            elif _COLOR.fullmatch(b):
                continue
            elif _ELAPSED.fullmatch(b):
                toks.append(("elapsed", b.lower()))
            elif (loc := _LOCALE.fullmatch(b)) and (loc.group("locale") is None or (
                    loc.group("locale").lower().lstrip("0") in _ENGLISH_US)):
                if loc.group("currency"):
                    toks.append(("lit", loc.group("currency")))
            else:
                raise Unsupported(f"the format code [{b}]")
        elif kind == "fill":
            raise Unsupported("a * fill in a format")
        elif kind == "space":
            toks.append(("lit", " "))
        elif kind in ("quoted", "escaped"):
            toks.append(("lit", val))
        else:
            toks.append((kind, val))
    return toks
