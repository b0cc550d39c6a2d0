"""Dates and times in an Excel number format (``addin.excel.numfmt``): ``y m d h s``,
``AM/PM``, fractions of a second and elapsed ``[h] [m] [s]``, rendered from a serial
number (``date``).

References
----------
Microsoft Support, "Number format codes"; "Date systems in Excel".
"""

from __future__ import annotations

import datetime
import math

from addin.excel.numfmt_codes import Unsupported

_LAST_DAY = 2958465  # 31 December 9999 in the 1900 date system

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def date(section, x: float, date1904: bool = False) -> str:
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
    elif days > _LAST_DAY:
        raise Unsupported("a date after 9999")
    else:
        serial = days - 1 if days > 60 else days
        dt = datetime.date(1899, 12, 31) + datetime.timedelta(days=serial)
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
