"""Excel's number formats, as the TEXT function applies them.

:func:`text` renders a value with a format code: up to four sections separated by
``;`` (positive; negative; zero; text), conditions (``[<10]``), colours (ignored, as
in TEXT), quoted and escaped literals, ``_x`` (a space), ``@`` (the text), ``General``;
numbers with ``0 # ?`` placeholders, the thousands separator and scaling commas,
``%``, and ``E+``/``E-`` exponents; dates and times with ``y m d h s``, ``AM/PM``,
fractions of a second and elapsed ``[h] [m] [s]``.

What it does not render as Excel does (fractions ``# ?/?``, ``*`` fill, locale codes
``[$-409]``, a number in General beyond plain notation) raises :class:`Unsupported`:
the formula is then refused rather than computed.

References
----------
Microsoft Support, "Number format codes"; "Review guidelines for customizing a number
format"; ECMA-376 Part 1, 18.8.31 (numFmts).
"""

from __future__ import annotations

import datetime
import decimal
import math
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


def _tokens(section: str):
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


def _cond(op: str, a: float, b: float) -> bool:
    return {"<": a < b, ">": a > b, "=": a == b, "<=": a <= b, ">=": a >= b,
            "<>": a != b}[op]


def text(value, code: str, date1904: bool = False) -> str:
    """``value`` (a number, a text or a logical value) rendered with the format
    ``code``, as Excel's TEXT gives it; ``date1904``: the workbook counts days from
    1 January 1904 (serial 0), not from 1900."""
    sections = split_sections(code)
    if len(sections) > 4:
        raise Unsupported("more than four sections in a format")
    parsed = [_tokens(s) for s in sections]
    if isinstance(value, bool):  # a logical value is formatted as its text
        value = "TRUE" if value else "FALSE"
    if isinstance(value, str):
        if len(parsed) == 4:
            return _render_text(parsed[3], value)
        if len(parsed) == 1 and any(k == "char" and v == "@" for k, v in parsed[0]):
            return _render_text(parsed[0], value)
        return value
    x = float(value)
    section, sign = _choose(parsed, x)
    return _render(section, x, sign, date1904)


def _choose(parsed, x: float):
    """(section, whether to write a minus sign) for the number ``x``."""
    conds = [next((v for k, v in p if k == "cond"), None) for p in parsed]
    if any(conds):
        n = len(parsed)
        if conds[0] is not None and _cond(*conds[0][:1], x, conds[0][1]):
            return parsed[0], x < 0 and not _has_sign_literal(parsed[0])
        if n > 1:
            if conds[1] is not None:
                if _cond(conds[1][0], x, conds[1][1]):
                    return parsed[1], x < 0 and not _has_sign_literal(parsed[1])
                if n > 2:
                    return parsed[2], x < 0
                raise Unsupported("a number no section of its format takes")
            return parsed[1], x < 0 and False
        raise Unsupported("a number no section of its format takes")
    texts = [p for p in parsed if not (len(parsed) == 4 and p is parsed[3])]
    if x > 0 or (x == 0 and len(texts) < 3):
        return texts[0], False
    if x < 0:
        if len(texts) >= 2:
            return texts[1], False
        return texts[0], True
    return texts[2], False


def _has_sign_literal(section) -> bool:
    return False


def _render_text(section, value: str) -> str:
    out = []
    for kind, v in section:
        if kind == "char" and v == "@":
            out.append(value)
        elif kind in ("lit", "char"):
            out.append(v)
        elif kind == "cond":
            continue
        else:
            raise Unsupported("a number code in the text section of a format")
    return "".join(out)


def _is_date(section) -> bool:
    return any(k in ("date", "ampm", "elapsed") for k, _ in section)


def _render(section, x: float, sign: bool, date1904: bool = False) -> str:
    section = [t for t in section if t[0] != "cond"]
    if not section:
        return "-" if sign else ""
    if any(k == "general" for k, _ in section):
        return _general(section, x, sign)
    if _is_date(section):
        if x < 0:
            raise Unsupported("a negative date")
        return _date(section, x, date1904)
    return _number(section, x, sign)


def _general(section, x, sign):
    """General: the number in at most 11 characters (:func:`_general_number`), with the
    section's literals."""
    out = []
    for kind, v in section:
        if kind == "general":
            body = _general_number(abs(x))
            out.append(("-" if sign and x != 0 else "") + body)
        elif kind in ("lit", "char"):
            if v in "0#?.,%":
                raise Unsupported("General with number codes")
            out.append(v)
        else:
            raise Unsupported("General with other codes")
    return "".join(out)


def _general_number(a: float) -> str:
    """A number (not negative) in General, as TEXT writes it: at most 11 characters --
    plain, with its decimals rounded to fit, below 1E+11; from 1E+11 up, scientific
    with the mantissa rounded to fit (112345900000 is 1.12346E+11). Below 1E-04 Excel
    also switches to scientific, by rules napkin does not reproduce."""
    if a == 0:
        return "0"
    if a < 1e-4:
        raise Unsupported("General for a number below 1E-04")
    if a < 1e11:
        whole = len(str(int(a)))
        places = max(0, 10 - whole) if a >= 1 else 9  # "0." takes two characters
        text = format(_round_half_up(a, places), "f")
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        if len(text) > 11:
            raise Unsupported("General for a number that long")
        return text
    e = math.floor(math.log10(a))
    digits = 11 - 2 - len(f"E+{e:02d}")  # "d." and the exponent
    mant = _round_half_up(a / 10 ** e, digits)
    if mant >= 10:
        e += 1
        mant = _round_half_up(a / 10 ** e, digits)
    text = format(mant, "f").rstrip("0").rstrip(".")
    return f"{text}E+{e:02d}"


# --------------------------------------------------------------------------- numbers


def _round_half_up(x: float, places: int) -> decimal.Decimal:
    d = decimal.Decimal(repr(x)) if x else decimal.Decimal(0)
    d = decimal.Decimal(f"{float(d):.15g}") if d else d
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        return d.quantize(decimal.Decimal(1).scaleb(-places), rounding=decimal.ROUND_HALF_UP)


def _number(section, x: float, sign: bool) -> str:
    # split into integer part, fraction part, exponent part
    kinds = [(k, v) for k, v in section]
    if any(k == "char" and v == "/" for k, v in kinds):
        raise Unsupported("fractions in a format")
    if any(k == "date" and v.lower() in ("e",) for k, v in kinds):
        raise Unsupported("the code e in a number format")
    placeholders = [i for i, (k, v) in enumerate(kinds) if k == "char" and v in "0#?"]
    if not placeholders:  # only literals (and perhaps %)
        pct = sum(1 for k, v in kinds if k == "char" and v == "%")
        out = "".join(v for k, v in kinds if k in ("lit", "char"))
        return ("-" if sign and x != 0 else "") + out if pct == 0 or True else out
    exp_at = next((i for i, (k, _) in enumerate(kinds) if k == "exp"), None)
    dot = next((i for i, (k, v) in enumerate(kinds) if k == "char" and v == "."
                and (exp_at is None or i < exp_at)), None)
    mant_end = exp_at if exp_at is not None else len(kinds)
    end_int = dot if dot is not None else mant_end
    int_ph = [i for i in placeholders if i < end_int]
    frac_ph = [i for i in placeholders if dot is not None and dot < i < mant_end]
    first_ph = min(placeholders)
    # commas: before the first placeholder a literal; between integer placeholders the
    # thousands separator; after the last placeholder of the integer part (or of the
    # fraction) each divides by 1000
    scale, grouping, literal_commas = 0, False, set()
    for i, (k, v) in enumerate(kinds):
        if (k, v) != ("char", ",") or i >= mant_end:
            continue
        if i < first_ph:
            literal_commas.add(i)
        elif int_ph and int_ph[0] < i < int_ph[-1]:
            grouping = True
        elif (int_ph and i > int_ph[-1] and i < end_int) or \
                (frac_ph and i > frac_ph[-1]) or (not frac_ph and i > end_int):
            scale += 1
        else:
            raise Unsupported("a comma between the decimals of a format")
    pct = sum(1 for k, v in kinds if k == "char" and v == "%")
    v = abs(x) * (100 ** pct) / (1000 ** scale)
    if exp_at is not None:
        return _scientific(kinds, v, sign, x, int_ph, frac_ph, exp_at, placeholders)
    r = _round_half_up(v, len(frac_ph))
    int_digits, _, frac_digits = format(r, "f").partition(".")
    frac_digits = (frac_digits + "0" * len(frac_ph))[:len(frac_ph)]
    if int_digits == "0":
        int_digits = ""
    # the integer part: digits right to left into the placeholders, the rest in front
    pads = {"0": "0", "?": " ", "#": ""}
    fills, digits = {}, list(int_digits)
    for n, i in enumerate(reversed(int_ph)):
        fills[i] = digits[len(digits) - 1 - n] if n < len(digits) else pads[kinds[i][1]]
    extra = "".join(digits[:max(0, len(digits) - len(int_ph))])
    if grouping:
        if any(kinds[i][0] == "lit" or (kinds[i][0] == "char" and kinds[i][1] not in "0#?,")
               for i in range(int_ph[0], int_ph[-1])):
            raise Unsupported("the thousands separator among literals")
        whole = extra + "".join(fills[i] for i in int_ph)
        fills = {i: "" for i in int_ph}
        fills[int_ph[0]] = _group(whole)
        extra = ""
    # the fraction: left to right; trailing zeros of # dropped, of ? turned to spaces
    fd = list(frac_digits)
    for n in range(len(frac_ph) - 1, -1, -1):
        ch = kinds[frac_ph[n]][1]
        if fd[n] != "0" or ch == "0":
            break
        fd[n] = "" if ch == "#" else " "
    for n, i in enumerate(frac_ph):
        fills[i] = fd[n]
    out = []
    first_int = int_ph[0] if int_ph else None
    for i, (k, val) in enumerate(kinds):
        if i in fills:
            if i == first_int:
                out.append(extra)
            out.append(fills[i])
        elif i in literal_commas:
            out.append(",")
        elif k == "char" and val == ",":
            continue  # a separator (rendered with the digits) or a scaling comma
        elif k in ("lit", "char"):
            out.append(val)
        else:
            raise Unsupported(f"the code {val} in a number format")
    negative = sign and (r != 0)
    return ("-" if negative else "") + "".join(out)


def _group(whole: str) -> str:
    """Digits (and padding spaces) with a separator every three from the right: a comma
    after a digit, a space after a padding space."""
    out = []
    for n, ch in enumerate(reversed(whole)):
        if n and n % 3 == 0:
            out.append("," if ch.isdigit() else " ")
        out.append(ch)
    return "".join(reversed(out))


def _scientific(kinds, v, sign, x, int_ph, frac_ph, exp_at, placeholders):
    exp_ph = [i for i in placeholders if i > exp_at]
    if len(int_ph) != 1 or any(kinds[i][1] != "0" for i in exp_ph):
        raise Unsupported("this scientific format")
    if v == 0:
        mant, e = decimal.Decimal(0), 0
    else:
        e = math.floor(math.log10(v))
        mant = _round_half_up(v / 10 ** e, len(frac_ph))
        if mant >= 10:
            e += 1
            mant = _round_half_up(v / 10 ** e, len(frac_ph))
    m_int, _, m_frac = format(mant, "f").partition(".")
    m_frac = (m_frac + "0" * len(frac_ph))[:len(frac_ph)]
    fd = list(m_frac)
    for n in range(len(frac_ph) - 1, -1, -1):
        if fd[n] == "0" and kinds[frac_ph[n]][1] == "#":
            fd[n] = ""
        else:
            break
    esign = "-" if e < 0 else ("+" if kinds[exp_at][1][1] == "+" else "")
    edigits = str(abs(e)).rjust(len(exp_ph), "0")
    out = []
    for i, (k, val) in enumerate(kinds):
        if i == int_ph[0]:
            out.append(m_int)
        elif i in frac_ph:
            out.append(fd[frac_ph.index(i)])
        elif i == exp_at:
            out.append(val[0])
        elif i > exp_at and (k, val) == ("char", ","):
            continue  # a comma among the exponent's digits is not shown
        elif i in exp_ph:
            if i == exp_ph[0]:  # the exponent's sign goes with its digits
                out.append(esign + edigits)
        elif k in ("lit", "char"):
            out.append(val)
        else:
            raise Unsupported(f"the code {val} in a scientific format")
    return ("-" if sign and v != 0 else "") + "".join(out)


# --------------------------------------------------------------------------- dates

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _date(section, x: float, date1904: bool = False) -> str:
    # fraction-of-second digits: "." followed by 0s right after a seconds code
    toks = list(section)
    sub_digits = 0
    for i, (k, v) in enumerate(toks):
        if k == "char" and v == "." and i > 0 and toks[i - 1][0] in ("date", "elapsed") \
                and toks[i - 1][1].lower().startswith(("s", "[s")):
            n = 0
            while i + 1 + n < len(toks) and toks[i + 1 + n] == ("char", "0"):
                n += 1
            sub_digits = max(sub_digits, n)
    if sub_digits > 3:
        raise Unsupported("more than three digits of a second")
    # round to the precision shown (Excel rounds to the shown fraction of a second)
    total = round(x * 86400 * 10 ** sub_digits) / 10 ** sub_digits
    days = math.floor(total / 86400)
    secs = total - days * 86400
    whole = math.floor(secs + 1e-9)
    frac = secs - whole
    hh, rem = divmod(whole, 3600)
    mi, ss = divmod(rem, 60)
    elapsed_days = days
    if date1904:  # day 0 is 1 January 1904, day 1462 of the 1900 system
        days += 1462
    if days == 0:
        y, mo, d, wd = 1900, 1, 0, 5  # Excel's day 0 is "January 0, 1900", a Saturday
    elif days == 60:
        y, mo, d, wd = 1900, 2, 29, 2
    else:
        serial = days - 1 if days > 60 else days
        dt = datetime.date(1899, 12, 31) + datetime.timedelta(days=serial)
        if dt.year > 9999:
            raise Unsupported("a date after 9999")
        y, mo, d, wd = dt.year, dt.month, dt.day, dt.weekday()
        if days < 60:
            wd = (dt.weekday() + 6) % 7  # 1900-03-01 onward is right; before, Excel is a day off
    ampm = any(k == "ampm" for k, _ in toks)
    elapsed = {v[0] for k, v in toks if k == "elapsed"}  # units shown in total
    hours = elapsed_days * 24 + hh
    out = []
    for i, (k, v) in enumerate(toks):
        if k == "date":
            low = v.lower()
            if low[0] == "y":
                out.append(f"{y % 100:02d}" if len(low) <= 2 else f"{y:04d}")
            elif low[0] == "d":
                n = len(low)
                out.append(str(d) if n == 1 else f"{d:02d}" if n == 2 else
                           _DAYS[wd][:3] if n == 3 else _DAYS[wd])
            elif low[0] == "h":
                h = hours if "h" in elapsed else (hh % 12 or 12 if ampm else hh)
                out.append(str(h) if len(low) == 1 else f"{h:02d}")
            elif low[0] == "s":
                sec = ((hours * 60 + mi) * 60 + ss) if "s" in elapsed else ss
                out.append(str(sec) if len(low) == 1 else f"{sec:02d}")
            elif low[0] == "m":
                if _minutes(toks, i):
                    mm = hours * 60 + mi if "m" in elapsed else mi
                    out.append(str(mm) if len(low) == 1 else f"{mm:02d}")
                else:
                    n = len(low)
                    out.append(str(mo) if n == 1 else f"{mo:02d}" if n == 2 else
                               _MONTHS[mo - 1][:3] if n == 3 else
                               _MONTHS[mo - 1][0] if n == 5 else _MONTHS[mo - 1])
            else:
                raise Unsupported(f"the date code {v}")
        elif k == "elapsed":
            c = v[0]
            n = len(v)
            value = {"h": hours, "m": hours * 60 + mi, "s": (hours * 60 + mi) * 60 + ss}[c]
            out.append(str(value).rjust(n, "0"))
        elif k == "ampm":
            pm = hh >= 12
            if v.upper() == "AM/PM":
                out.append("PM" if pm else "AM")
            else:
                letter = "P" if pm else "A"
                out.append(letter if v[0].isupper() else letter.lower())
        elif k == "char" and v == "." and sub_digits and i > 0 \
                and toks[i - 1][0] in ("date", "elapsed") \
                and toks[i - 1][1].lower().startswith(("s", "[s")):
            n = 0
            while i + 1 + n < len(toks) and toks[i + 1 + n] == ("char", "0"):
                n += 1
            digits = f"{round(frac * 10 ** n):0{n}d}"[:n] if n else ""
            out.append("." + digits)
            for m in range(n):
                toks[i + 1 + m] = ("skip", "")
        elif k == "skip":
            continue
        elif k in ("lit", "char"):
            if v in "0#?" and k == "char":
                raise Unsupported("a digit code in a date format")
            out.append(v)
        else:
            raise Unsupported(f"the code {v} in a date format")
    return "".join(out)


def _minutes(toks, i) -> bool:
    """An ``m`` is minutes right after an hour code or right before a seconds code."""
    for j in range(i - 1, -1, -1):
        k, v = toks[j]
        if k in ("date", "elapsed"):
            return v.lower().startswith(("h", "[h", "s", "[s"))
        if k == "ampm":
            break
    for j in range(i + 1, len(toks)):
        k, v = toks[j]
        if k in ("date", "elapsed"):
            return v.lower().startswith(("s", "[s"))
    return False
