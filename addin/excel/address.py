"""Excel's ADDRESS: the text of a cell's reference, given its row and column numbers.

formulas' ADDRESS quotes every sheet name (``'Sheet2'!$A$1``, Excel ``Sheet2!$A$1``) and
writes rows and columns beyond Excel's grid (``$XFE$1``); napkin's computes what
Microsoft's page and Excel's saved cells show and refuses the rest in strict mode
(``Cannot``):

* ``row_num`` 1 to 1,048,576 and ``column_num`` 1 to 16,384, whole numbers (Excel's grid);
* ``abs_num`` 1 (or left out) ``$C$2``, 2 ``C$2``, 3 ``$C2``, 4 ``C2``; in R1C1 style
  (``a1`` FALSE) ``R2C3``, ``R2C[3]``, ``R[2]C3``, ``R[2]C[3]``;
* an empty cell given as ``abs_num`` is 0 (Microsoft KB Q149577, "Microsoft Excel
  interprets a blank cell as zero"), which the page does not show: refused; given as
  ``a1`` it is FALSE, R1C1 style (LibreOffice the same); a written empty argument
  (``ADDRESS(1,1,,,"Sheet2")``) is left out, not an empty cell;
* ``sheet_text`` of letters, digits and underscores that starts with a letter and is
  no reference itself (``Sheet2``) is written as it is, ``Sheet2!$A$1``; one that adds
  spaces between such words is quoted, ``'EXCEL SHEET'!R2C3``. Other names (a workbook
  in brackets: Excel saved ``[Book1]Sheet1!$C2`` where Microsoft's page now shows
  ``'[Book1]Sheet1'!R2C3``; quotes, signs, other alphabets) are refused.

References
----------
Microsoft Support, "ADDRESS function" (ADDRESS(2,3) = $C$2, ADDRESS(77,300) = $KN$77,
ADDRESS(2,3,2) = C$2, ADDRESS(2,3,2,FALSE) = R2C[3], ADDRESS(2,3,1,FALSE,"EXCEL SHEET") =
'EXCEL SHEET'!R2C3, ADDRESS(1,1,,,"Sheet2") = Sheet2!$A$1); the cells Excel saved in
tests/corpus/poi/FormulaEvalTestData_Copy.xlsx (D128:F128) and
tests/corpus/sheetjs/formula_stress_test.xlsx (B10).
"""

from __future__ import annotations

import re

import numpy as np

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import fx
from addin.ooxml.a1 import num2col

ROWS, COLUMNS = 1_048_576, 16_384
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
#: a name Excel could read as a reference (A1, XFD99, R1C1, R, C): quoted or not, unknown
_REFERENCE_LIKE = re.compile(r"(?i)[a-z]{1,3}\d+|r\d*c?\d*|c\d*")


def _whole(v, what: str, low: int, high: int) -> int:
    """An argument read as a whole number from ``low`` to ``high``, else ``Cannot``."""
    v = xa.scalar(v, f"ADDRESS's {what}")
    if isinstance(v, (bool, np.bool_)):
        raise Cannot(f"ADDRESS given a logical value as its {what}")
    x = xa.number(v, f"ADDRESS's {what}")
    if x != int(x) or not low <= x <= high:
        raise Cannot(f"ADDRESS given {x:g} as its {what} (its page shows whole numbers "
                     f"from {low} to {high:,} only)")
    return int(x)


def _a1_style(v) -> bool:
    ns = fx.load()
    if v is None or fx.is_omitted(v):
        return True
    v = xa.scalar(v, "ADDRESS's a1")
    if v is ns.EMPTY:  # an empty cell is 0, FALSE (KB Q149577): R1C1 style (a written
        return False  # empty argument, ADDRESS(1,1,,,"Sheet2"), comes as omitted)
    if isinstance(v, (bool, np.bool_, int, float, np.number)):
        return bool(v)
    raise Cannot("ADDRESS given text as its a1")


def _sheet(v) -> str:
    text = xa.scalar(v, "ADDRESS's sheet_text")
    if not isinstance(text, str) or text is fx.load().EMPTY:
        raise Cannot("ADDRESS given a sheet_text that is no text")
    words = text.split(" ")
    if all(_NAME.fullmatch(w) for w in words) and not any(
            _REFERENCE_LIKE.fullmatch(w) for w in words):
        return text if len(words) == 1 else f"'{text}'"
    raise Cannot(f"ADDRESS given the sheet_text {text!r} (whether Excel quotes it is not "
                 "documented)")


def address(row_num, column_num, abs_num=None, a1=None, sheet_text=None):
    """Excel's ``ADDRESS(row_num, column_num, [abs_num], [a1], [sheet_text])``."""
    ns = fx.load()
    for v in (row_num, column_num, abs_num, a1, sheet_text):
        one = None if v is None or fx.is_omitted(v) else xa.scalar(v, "ADDRESS's argument")
        if isinstance(one, ns.XlError):
            return one
    r = _whole(row_num, "row_num", 1, ROWS)
    c = _whole(column_num, "column_num", 1, COLUMNS)
    omitted = abs_num is None or fx.is_omitted(abs_num)
    if not omitted and xa.scalar(abs_num, "ADDRESS's abs_num") is ns.EMPTY:
        raise Cannot("ADDRESS given an empty cell as its abs_num (0, KB Q149577; its page "
                     "shows 1 to 4 only)")
    kind = 1 if omitted else _whole(abs_num, "abs_num", 1, 4)
    row_fixed, col_fixed = kind in (1, 2), kind in (1, 3)
    if _a1_style(a1):
        ref = f"{'$' if col_fixed else ''}{num2col(c)}{'$' if row_fixed else ''}{r}"
    else:
        ref = f"R{r if row_fixed else f'[{r}]'}C{c if col_fixed else f'[{c}]'}"
    if sheet_text is None or fx.is_omitted(sheet_text):
        return ref
    return f"{_sheet(sheet_text)}!{ref}"
