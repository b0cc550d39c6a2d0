"""3-D references (``Sheet1:Sheet3!A1``): the same cells on each sheet from the first
named to the last, in the workbook's order.

Excel takes a 3-D reference only in a few functions (SUM, AVERAGE, COUNT, COUNTA, MAX,
MIN, PRODUCT, STDEV, VAR...), where it stands for one reference per sheet.
``rewrite`` writes it so, as separate arguments, before the formula is parsed:
``SUM(Jan:Mar!B2)`` is ``SUM(Jan!B2,Feb!B2,Mar!B2)``. A 3-D reference anywhere else is
left as it is (the formula is then refused).

References
----------
Microsoft Support, "Create a 3-D reference to the same cell range on multiple
worksheets" (the functions that take one).
"""

from __future__ import annotations

import re

from addin.formula import excel_functions
from addin.formula import formula_text as ft

#: functions that take a 3-D reference and that napkin computes over several areas
#: (declared ``three_d``), as formulas spells them
FUNCTIONS = excel_functions.names("three_d", spelled=True)

_NAME = r"[A-Za-z_\\][\w.\\]*"
_CELL = r"\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?"
_REF3D = re.compile(
    rf"(?:(?P<a>{_NAME}):(?P<b>{_NAME})|'(?P<qa>(?:[^':]|'')+):(?P<qb>(?:[^':]|'')+)')"
    rf"!(?P<cell>{_CELL})(?![\w(!])")
_CALL = re.compile(rf"({_NAME})\s*\($")


def rewrite(text: str, sheet_names: list[str]) -> str:
    """Formula text with each 3-D reference that is an argument of one of
    ``FUNCTIONS`` written as one reference per sheet; the text as it is when a
    3-D reference is elsewhere or names a sheet the workbook does not have."""
    if ":" not in text or "!" not in text or _REF3D.search(text) is None:
        return text  # (the walk below copies a text where no 3-D reference starts)
    upper = [n.upper() for n in sheet_names]
    out, i, stack = [], 0, []  # stack: the function (or None) of each open parenthesis
    while i < len(text):
        ch = text[i]
        if ch == '"':
            j = text.find('"', i + 1)
            while j != -1 and text[j + 1: j + 2] == '"':
                j = text.find('"', j + 2)
            j = len(text) if j == -1 else j + 1
            out.append(text[i:j])
            i = j
            continue
        m = _REF3D.match(text, i)
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.\\$'")):
            first = m.group("a") or m.group("qa").replace("''", "'")
            last = m.group("b") or m.group("qb").replace("''", "'")
            before = "".join(out).rstrip()
            after = text[m.end():].lstrip()
            func = stack[-1] if stack else None
            if func not in FUNCTIONS or not before.endswith(("(", ",")) \
                    or not after.startswith((",", ")")) \
                    or first.upper() not in upper or last.upper() not in upper:
                return text
            k1, k2 = upper.index(first.upper()), upper.index(last.upper())
            if k1 > k2:
                k1, k2 = k2, k1
            out.append(",".join(f"{_sheet(sheet_names[k])}!{m.group('cell')}"
                                for k in range(k1, k2 + 1)))
            i = m.end()
            continue
        if ch == "'":  # a quoted sheet name of a plain reference
            j = i + 1
            while j < len(text) and not (text[j] == "'" and text[j + 1: j + 2] != "'"):
                j += 2 if text[j] == "'" else 1
            out.append(text[i:j + 1])
            i = j + 1
            continue
        if ch == "(":
            call = _CALL.search("".join(out) + "(")
            stack.append(call.group(1).upper() if call else None)
        elif ch == ")" and stack:
            stack.pop()
        out.append(ch)
        i += 1
    return "".join(out)


def _sheet(name: str) -> str:
    if re.fullmatch(r"[A-Za-z_][\w.]*", name) and not re.fullmatch(r"[A-Za-z]{1,3}\d+", name):
        return name
    return ft.quote_sheet(name)
