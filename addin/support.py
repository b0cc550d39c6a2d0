"""What the engine cannot compute as Excel does, found before anything is computed.

:func:`unsupported` lists ``(node, reason)`` for every formula that uses something the
engine does not compute, or does not compute as Excel does:

* a function neither Excel's (as far as ``formulas`` implements it) nor ours;
* a structured (table) reference, ``Table1[Column]``;
* a 3-D reference, ``Sheet1:Sheet4!C1``;
* a link to another workbook, ``[1]Sheet1!A1``;
* a date function in a workbook that uses the 1904 date system (Mac workbooks):
  ``formulas`` knows only the 1900 system;
* functions whose results differ from Excel's for some arguments (see
  :data:`DIFFERENT`).

In strict mode (``napkin calc``) the workbook is refused with a sentence naming the
cells; with ``--lenient`` those cells keep the value Excel cached and are not rewritten.
"""

from __future__ import annotations

import re

from . import formula_text as ft
from . import fx

_STRINGS = re.compile(r'"(?:[^"]|"")*"')
_QUOTED = re.compile(r"'(?:[^']|'')*'")
_STRUCTURED = re.compile(r"(?<![\w.\]\\])[A-Za-z_\\][\w.\\]*\[|\[#(?:This Row|All|Data|"
                         r"Headers|Totals)\]|\[@", re.I)
_THREE_D = re.compile(r"(?<![\w.])[A-Za-z_\\][\w.\\]*:[A-Za-z_\\][\w.\\]*!")
_EXTERNAL = re.compile(r"\[[^\[\]]+\][^\[\]!,()]*!")

#: Date functions: their serial numbers differ in the 1904 date system.
DATE_FUNCTIONS = frozenset(
    "DATE DATEVALUE DAY DAYS DAYS360 EDATE EOMONTH MONTH NETWORKDAYS NETWORKDAYS.INTL NOW "
    "TODAY WEEKDAY WEEKNUM ISOWEEKNUM WORKDAY WORKDAY.INTL YEAR YEARFRAC DATEDIF TEXT "
    "DOLLAR FIXED VALUE".split())

#: Excel functions that ``formulas`` implements, but not as Excel does for some
#: arguments (found by comparing with the values Excel saved): refused, rather than
#: written with a value that may be wrong.
DIFFERENT = {
    "TEXT": "TEXT with number formats",
    "DEC2BIN": "DEC2BIN", "DEC2OCT": "DEC2OCT", "DEC2HEX": "DEC2HEX",
    "BIN2DEC": "BIN2DEC", "BIN2OCT": "BIN2OCT", "BIN2HEX": "BIN2HEX",
    "OCT2DEC": "OCT2DEC", "OCT2BIN": "OCT2BIN", "OCT2HEX": "OCT2HEX",
    "HEX2DEC": "HEX2DEC", "HEX2BIN": "HEX2BIN", "HEX2OCT": "HEX2OCT",
    "YEARFRAC": "YEARFRAC", "LINEST": "LINEST", "TREND": "TREND", "LOGEST": "LOGEST",
    "GROWTH": "GROWTH", "VDB": "VDB", "XLOOKUP": "XLOOKUP", "LOOKUP": "LOOKUP",
    "IMSQRT": "complex-number functions", "IMSUM": "complex-number functions",
    "IMPRODUCT": "complex-number functions", "COMPLEX": "complex-number functions",
    "IMABS": "complex-number functions", "IMARGUMENT": "complex-number functions",
    "IMEXP": "complex-number functions", "IMLN": "complex-number functions",
    "IMPOWER": "complex-number functions", "IMSUB": "complex-number functions",
    "IMDIV": "complex-number functions",
}


def _code(text: str) -> str:
    """Formula text without string literals and with quoted sheet names blanked."""
    return _QUOTED.sub(lambda m: "'" + ("#" if ":" in m.group(0) else "Q") + "'",
                       _STRINGS.sub('""', text))


def unsupported(wb, registry, date1904: bool = False) -> list[tuple[object, str]]:
    """``[(node, reason)]`` for each formula of ``wb`` the engine cannot compute as Excel
    does (one reason per node, the first found)."""
    known = fx.function_names() | set(registry)
    out = []
    for node in wb.nodes + list(wb.name_nodes.values()):
        if not node.text:
            continue
        reason = _reason(node.text, known, set(registry), date1904)
        if reason:
            out.append((node, reason))
    return out


def _reason(text: str, known: set, ours: set, date1904: bool) -> str | None:
    code = _code(text)
    if _EXTERNAL.search(_STRINGS.sub('""', text)):
        return "links to other workbooks"
    if "'#'" in code or _THREE_D.search(code):
        return "3-D references (Sheet1:Sheet3!A1)"
    if _STRUCTURED.search(code):
        return "structured (table) references"
    for name in ft.called_functions(text):
        key = name.upper()
        bare = key.removeprefix("_XLFN.").removeprefix("_XLWS.")
        if key not in known and f"_XLFN.{key}" not in known and bare not in known:
            return f"the function {name}(), which is neither Excel's (as far as the " \
                   "formulas package implements them) nor napkin's"
        if bare in ours or key in ours:
            continue
        if bare in DIFFERENT:
            return f"{DIFFERENT[bare]}, whose results differ from Excel's for some arguments"
        if date1904 and bare in DATE_FUNCTIONS:
            return f"{bare}() in a workbook that uses the 1904 date system"
    return None


def describe(found: list[tuple[object, str]]) -> str:
    """One sentence per reason naming up to five cells, for the refusal message."""
    by_reason: dict[str, list[str]] = {}
    for node, reason in found:
        by_reason.setdefault(reason, []).append(node.label)
    parts = []
    for reason, cells in by_reason.items():
        more = f" and {len(cells) - 5} more" if len(cells) > 5 else ""
        parts.append(f"{reason} in {', '.join(cells[:5])}{more}")
    return "; ".join(parts)
