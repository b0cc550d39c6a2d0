"""Excel's number formats, as the TEXT function applies them.

``text`` renders a value with a format code: up to four sections separated by
``;`` (positive; negative; zero; text), conditions (``[<10]``), colours (ignored, as
in TEXT), quoted and escaped literals, ``_x`` (a space), ``@`` (the text), ``General``;
numbers with ``0 # ?`` placeholders, the thousands separator and scaling commas,
``%``, and ``E+``/``E-`` exponents; dates and times with ``y m d h s``, ``AM/PM``,
fractions of a second and elapsed ``[h] [m] [s]``.

What it does not render as Excel does (fractions ``# ?/?``, ``*`` fill, locale codes
``[$-409]``, a number in General beyond plain notation, a number in a section with
``@``, a logical value given a format with no section for text) raises ``Unsupported``:
the formula is then refused rather than computed.

A code is read into sections and tokens by ``addin.excel.numfmt_codes``; dates and
times are rendered by ``addin.excel.numfmt_dates``, numbers and text here.

References
----------
Microsoft Support, "Number format codes"; "Review guidelines for customizing a number
format"; ECMA-376 Part 1, 18.8.31 (numFmts).
"""

from __future__ import annotations

import decimal
import math

from addin.excel import numfmt_dates
from addin.excel.numfmt_codes import Unsupported, split_sections, tokens


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
    parsed = [tokens(s) for s in sections]
    text_section = parsed[3] if len(parsed) == 4 else parsed[0] if len(parsed) == 1 and \
        any(k == "char" and v == "@" for k, v in parsed[0]) else None
    if isinstance(value, bool):  # a logical value is formatted as its text
        if text_section is None:
            raise Unsupported("a logical value given a format with no section for text")
        value = "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return value if text_section is None else _render_text(text_section, value)
    x = float(value)
    section, sign = _choose(parsed, x)
    if any(k == "char" and v == "@" for k, v in section):
        raise Unsupported("a number given a format whose section for it holds @, the "
                          "placeholder of a text")
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
        return numfmt_dates.date(section, x, date1904)
    return _number(section, x, sign)


def _general(section, x, sign):
    """General: the number in at most 11 characters (``_general_number``), with the
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
    if exp_at is not None:  # (% and commas do not scale a number in scientific format)
        return _scientific(kinds, abs(x), sign, int_ph, frac_ph, exp_at, placeholders)
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


def _scientific(kinds, v, sign, int_ph, frac_ph, exp_at, placeholders):
    """A number in a scientific format: the mantissa in the placeholders before the
    ``E``/``e`` (with its literals, thousands separator and decimals, rendered as a plain
    number is), the exponent in those after it.

    With k placeholders before the decimal point, the exponent is a multiple of k and
    the mantissa below 10**k (engineering notation for k = 3): 123456.789 in
    ``####.####e-#`` is ``12.3457e4``, 0.000123456789 in ``###.####e+#`` is
    ``123.4568e-6``; 0 shows a 0 in every integer placeholder (``0000.e+0``). The
    exponent's sign is written before its digits (always for ``+``,
    when negative for ``-``), its placeholders padded as a number's (``0`` zeros, ``?``
    spaces, ``#`` nothing) and commas among them dropped.

    References
    ----------
    Microsoft Support, "Number format codes" (scientific notation); the values Excel
    saved in tests/corpus/poi/NumberFormatApproxTests.xlsx (tests/test_fidelity.py).
    """
    exp_ph = [i for i in placeholders if i > exp_at]
    k = len(int_ph)
    if not k or not exp_ph:
        raise Unsupported("this scientific format")
    mantissa = []  # % is shown, not applied: Excel saved |1%e5| for 123456.789 in
    for i, (kind, val) in enumerate(kinds[:exp_at]):  # |#%e-#|, |1e5| in |#,e-#|
        if (kind, val) == ("char", "%"):
            kind = "lit"
        elif (kind, val) == ("char", ",") and i > int_ph[-1]:
            if frac_ph or any(kv == ("char", ".") for kv in kinds[:exp_at]):
                raise Unsupported("a scaling comma in a scientific format")
            continue
        mantissa.append((kind, val))
    int_ph = [i for i, (kind, val) in enumerate(mantissa) if kind == "char" and val in "0#?"
              and not any(kv == ("char", ".") for kv in mantissa[:i])]
    if v == 0:  # every integer placeholder shows a 0 (Excel saved |0000.|e|+0| for 0 in
        mant, e = decimal.Decimal(0), 0  # |####.####|e+|#|), the decimals as a number's
        mantissa = [("char", "0") if i in int_ph else kv for i, kv in enumerate(mantissa)]
    else:
        e = (math.floor(math.log10(v)) // k) * k
        mant = _round_half_up(v / 10 ** e, len(frac_ph))
        if mant >= 10 ** k:
            e += k
            mant = _round_half_up(v / 10 ** e, len(frac_ph))
    body = _number(mantissa, float(mant), False)  # (the mantissa as a number)
    marker = kinds[exp_at][1]
    esign = "-" if e < 0 else ("+" if marker[1] == "+" else "")
    digits = str(abs(e))
    pads = {"0": "0", "?": " ", "#": ""}
    lead = [pads[kinds[i][1]] for i in exp_ph[:max(0, len(exp_ph) - len(digits))]]
    out = [body]
    for i in range(exp_at, len(kinds)):
        kind, val = kinds[i]
        if i == exp_at:
            out.append(val[0])
        elif i in exp_ph:
            if i == exp_ph[0]:  # the exponent's sign goes with its digits
                out.append(esign + "".join(lead) + digits)
        elif (kind, val) == ("char", ","):
            continue  # a comma among the exponent's digits is not shown
        elif kind in ("lit", "char"):
            out.append(val)
        else:
            raise Unsupported(f"the code {val} in a scientific format")
    return ("-" if sign and v != 0 else "") + "".join(out)
