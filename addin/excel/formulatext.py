"""Excel's FORMULATEXT: the formula of a cell as Excel's formula bar shows it.

The formula is read from the file as Excel wrote it (``Node.written``, the text of its
``<f>`` element) and shown with its ``=``; a legacy array formula (``<f t="array">`` with
no dynamic-array flag) between braces, ``{=...}``, as the formula bar shows it; a dynamic
array formula (Excel 365's, ``cm``) without them. A cell holding no formula gives #N/A.

Evidence, the values Excel saved: Loan Amortization.xlsx of the fifth held-out part,
'Audit Report'!C3:C5, FORMULATEXT of three legacy array formulas, saved
``{=SUM(IF(ISERROR(Dashboard!A1:L21),1))}`` and two more; Option Pricing Model
(BlackScholes).xlsx of the tuning pool, Sheet1!D11:D14, FORMULATEXT of four dynamic array
formulas, saved ``=CallPrice(B12,B11,B13,B14,B16,B15)`` and three more
(tests/test_excel_formulatext.py).

Refused in strict mode (a sentence naming the cell and the form), where the text Excel
shows is not the text it writes, or no evidence shows it: a formula with a name Excel
writes with a prefix (``_xlfn.``, ``_xlws.``, ``_xlpm.``: Excel shows it without, and
``_xlfn.SINGLE`` as ``@``), with brackets (a table's columns, another workbook), a
shared formula's cell other than the one it is written in, a cell of an array formula's
range other than its first, a formula that is not an array formula and reads a range or a
name, or calls a function other than Excel's or one that may give a range (INDIRECT,
OFFSET: Excel 365 shows ``@`` before what may be several cells in such a formula), a
formula on a protected sheet (a hidden formula gives #N/A), a formula of more than 8,000
characters (#N/A beyond 8,192), a reference of several areas or outside the workbook.

References
----------
Microsoft Support, "FORMULATEXT function",
https://support.microsoft.com/en-us/office/formulatext-function (FORMULATEXT(reference):
"Returns a formula as a string"; "returns what is displayed in the formula bar if you
select the referenced cell"; a reference to a range gives the formula of its upper-left
cell; #N/A where the cell does not contain a formula, the formula is longer than 8192
characters or cannot be displayed, e.g. because of worksheet protection).
Microsoft Support, "Implicit intersection operator: @" (Excel 365 shows ``@`` where an
old formula could return several cells).
"""

from __future__ import annotations

import re

from addin.excel.args import Cannot
from addin.formula import context, excel_functions, fx, ranges
from udfs.machinery.errors import ExcelError

#: the longest formula computed (Excel's #N/A begins past 8,192 characters)
LONGEST = 8000

_STRING = re.compile(r'"(?:[^"]|"")*"')
_QUOTED_SHEET = re.compile(r"'(?:[^']|'')*'!")
_CELL = re.compile(r"\$?[A-Za-z]{1,3}\$?\d+")
_WORD = re.compile(r"[A-Za-z_\\$][\w.\\$]*(?P<call>\s*\()?")
#: functions that may give several cells where one is read (Excel 365 shows ``@``)
_REFERENCE_MAKERS = {"INDIRECT", "OFFSET"}


def formulatext(reference):
    """Excel's ``FORMULATEXT(reference)``: the formula of the cell ``reference`` names (of
    its upper-left cell for a range), as the formula bar shows it.

    Parameters
    ----------
    reference : reference
        a cell or a range of cells of the workbook.

    Returns
    -------
    str
        ``"=" + the formula``, ``"{=...}"`` for a legacy array formula; #N/A where the cell
        holds no formula.

    References
    ----------
    Microsoft Support, "FORMULATEXT function".
    """
    ns = fx.load()
    book = getattr(context.STATE, "book", None)
    if book is None or not isinstance(reference, ns.Ranges) or len(reference.ranges) != 1:
        raise Cannot("FORMULATEXT of something other than a reference to one area")
    sid, r, c, _, _ = ranges.areas(reference)[0]
    if sid not in book.sid_map:
        raise Cannot("FORMULATEXT of a cell outside the workbook")
    sheet = book.sheets[book.sid_map[sid]]
    node = sheet.formula_at.get((r, c))
    if node is None:
        raise ExcelError("#N/A", "FORMULATEXT of a cell that holds no formula")
    if "<sheetProtection" in book.xml.get(sheet.index, ""):
        raise Cannot("FORMULATEXT of a formula on a protected sheet (Excel gives #N/A where "
                     "the formula is hidden)")
    return shown(node)


def shown(node) -> str:
    """The formula bar's text of the formula ``node`` at its own cell, or ``Cannot``."""
    written = node.written
    if written is None or (node.sheet, node.r, node.c) != node.origin:
        raise Cannot("FORMULATEXT of a shared formula's cell other than the one it is "
                     "written in")
    if len(written) > LONGEST:
        raise Cannot("FORMULATEXT of a formula of more than 8,000 characters")
    if "_xl" in written.lower():
        raise Cannot("FORMULATEXT of a formula naming a function with Excel's prefix "
                     "(_xlfn., _xlws., _xlpm.), which Excel shows otherwise")
    bare = _QUOTED_SHEET.sub("S!", _STRING.sub('""', written))
    if "[" in bare:
        raise Cannot("FORMULATEXT of a formula with brackets (a table's columns, another "
                     "workbook)")
    if node.spill is None:
        _one_value_or_cannot(bare)
        return "=" + written
    return "=" + written if node.dynamic else "{=" + written + "}"


def _one_value_or_cannot(bare: str) -> None:
    """``Cannot`` where a formula that is not an array formula may read several cells
    (a range, a name, INDIRECT, OFFSET, a function not Excel's): there Excel 365 may show
    ``@`` the file does not write."""
    if ":" in bare:
        raise Cannot("FORMULATEXT of a formula that is not an array formula and reads a "
                     "range (Excel 365 may show @ in it)")
    known = excel_functions.declared()
    for m in _WORD.finditer(bare):
        word = m.group(0)
        start, end = m.start(), m.end()
        if start and (bare[start - 1].isalnum() or bare[start - 1] in "_."):
            continue  # (inside a number: 1E5)
        if m.group("call"):
            name = word.rstrip("( \t\r\n").upper()
            if name not in known or name in _REFERENCE_MAKERS:
                raise Cannot(f"FORMULATEXT of a formula that is not an array formula and "
                             f"calls {name} (Excel 365 may show @ in it)")
        elif bare[end:end + 1] != "!" and not _CELL.fullmatch(word) \
                and word.upper() not in ("TRUE", "FALSE"):
            raise Cannot("FORMULATEXT of a formula that is not an array formula and reads "
                         f"the name {word} (Excel 365 may show @ in it)")
