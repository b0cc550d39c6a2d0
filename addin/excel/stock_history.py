"""Excel's STOCKHISTORY: the prices Excel fetched, as it saved them in the cell's spill range.

STOCKHISTORY(stock, start_date, [end_date], [interval], [headers], [property0]...) fetches
historical prices from Microsoft's financial data service when Excel calculates; napkin
fetches nothing. What a workbook holds is the snapshot Excel fetched at its last refresh:
the values it spilled, saved in the dynamic array formula's range (its ``ref``, the ``cm``
naming ``XLDAPR``, ``addin.engine.spills``). napkin gives that array back as the cell's
value (kept external data, as ``_FV`` gives the fields of a linked data type saved,
``addin.excel.linked_data``) only where it can tell the arguments are those Excel computed
it from; else strict mode refuses, with the cell named and the fix: open the workbook in
Excel to fetch the prices again.

Taken when all of these hold, refused otherwise (``Cannot``):

1. the formula is the STOCKHISTORY call alone (``=STOCKHISTORY(...)``, a leading ``+``
   allowed), a dynamic array anchor with a saved value in every cell of its spill range:
   inside another expression (LET, TRANSPOSE, IFERROR...) the saved spill is not its own
   value;
2. no volatile call in its formula (TODAY, NOW, RAND..., OFFSET, INDIRECT): the value
   TODAY() had when Excel fetched cannot be compared with the one napkin computes (a date
   equal by chance would still not say the prices of that day were final);
3. every formula cell it reads, through defined names and their formulas too, holds
   exactly the value Excel saved there, and none of those calls a volatile function: the
   symbol and dates napkin reads are those Excel fetched for (cells holding values are
   read as saved: ``napkin calc`` changes none);
4. the workbook does not say its saved values may be stale (``<calcPr>``: recalculated
   when opened, or saved in manual calculation without computing).

References
----------
Microsoft Support, "STOCKHISTORY function",
https://support.microsoft.com/en-us/office/stockhistory-function-1ac8b5b3-5f62-4d94-8ab8-7504ec7239a8
(STOCKHISTORY(stock, start_date, [end_date], [interval], [headers], [property0], ...);
it "retrieves historical data about a financial instrument and loads it as an array, which
will spill if it's the final result of a formula"; stock is a ticker or "a reference to a
cell containing the Stocks data type"; it needs a Microsoft 365 subscription). The cells Excel
saved: part heldout4 of tools/business_corpus.csv, Hedged vs Unhedged Foreign Currency
Model.xlsx (B11:C262, ``STOCKHISTORY(C6,C3,F3,0,0,0,1)``, 252 dates and closes).
"""

from __future__ import annotations

import re

import numpy as np

from addin.excel.args import Cannot
from addin.formula import context, fx
from addin.formula import formula_text as ft

#: the sentence's end: what lets the cell compute
FIX = "open it in Excel to fetch the prices again (napkin fetches no data)"
#: volatile calls and references made while computing: their value when Excel fetched
#: the prices is not known
_VOLATILE = re.compile(r"(?<![\w.])(?:_xlfn\.)?(TODAY|NOW|RAND|RANDBETWEEN|RANDARRAY|OFFSET|"
                       r"INDIRECT|CELL|INFO)\s*\(", re.I)
_ALONE = re.compile(r"\s*=?\s*\+?\s*(?:_xlfn\.)?STOCKHISTORY\s*\(", re.I)


def _whole_call(text: str) -> bool:
    """Whether ``text`` is one STOCKHISTORY call and nothing else."""
    m = _ALONE.match(text or "")
    if m is None:
        return False
    bare = ft.outside_strings(text)
    depth = 0
    for i in range(m.end() - 1, len(bare)):
        depth += {"(": 1, ")": -1}.get(bare[i], 0)
        if depth == 0:
            return not bare[i + 1:].strip()
    return False


def _identical(saved, ours) -> bool:
    num = (int, float, np.number)
    if isinstance(saved, bool) or isinstance(ours, bool):
        return type(saved) is type(ours) and saved == ours
    if isinstance(saved, num) and isinstance(ours, num):
        return float(saved) == float(ours)
    if isinstance(saved, num) or isinstance(ours, num):
        return False
    return str(saved) == str(ours)


def _inputs_as_saved(book, node) -> bool:
    """Whether every formula ``node`` reads (through names too) holds Excel's saved value
    and calls nothing volatile."""
    seen, todo = set(), list(node.deps)
    while todo:
        d = todo.pop()
        if id(d) in seen:
            continue
        seen.add(id(d))
        if _VOLATILE.search(ft.outside_strings(d.text or "")):
            return False
        todo.extend(d.deps)
        if d.is_name:
            continue
        sheet = book.sheets[d.sheet]
        for p in d.positions():
            if p not in sheet.cached or not _identical(sheet.cached[p], sheet.values.get(p)):
                return False
    return True


def stock_history(stock, start_date, *more):
    """Excel's ``STOCKHISTORY(stock, start_date, [end_date], [interval], [headers],
    [property0], ...)``: the array Excel fetched and saved in the formula's spill range.

    Parameters
    ----------
    stock : reference or str
        the instrument (a ticker, or a cell holding a Stocks data type); read by Excel's
        data service, not by napkin.
    start_date, *more
        the first date and Excel's optional arguments; not read by napkin, whose value is
        the saved array (the module's conditions say when it is taken).

    Returns
    -------
    Array
        the values Excel saved in the spill range, row by row.

    References
    ----------
    Microsoft Support, "STOCKHISTORY function".
    """
    book, node = getattr(context.STATE, "book", None), getattr(context.STATE, "node", None)
    if book is None or node is None or node.is_name:
        raise Cannot(f"STOCKHISTORY() outside a workbook's cell: {FIX}")
    if not _whole_call(node.text or "") or node.spill is None:
        raise Cannot("STOCKHISTORY() inside another expression (LET, TRANSPOSE, IFERROR...) "
                     "or not as a dynamic array: the array Excel saved in the cell's range "
                     f"is not its own value; {FIX}")
    if _VOLATILE.search(ft.outside_strings(node.text)):
        raise Cannot("STOCKHISTORY() given a volatile argument (TODAY(), NOW()...): its "
                     f"value when Excel fetched the prices is not known; {FIX}")
    stale = getattr(book, "stale", "its saved values not known to be current")
    if stale:
        raise Cannot(f"STOCKHISTORY() in a workbook whose saved prices may not be current "
                     f"({stale}); {FIX}")
    sheet = book.sheets[node.sheet]
    r1, c1, r2, c2 = node.spill
    cells = [(r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]
    if not getattr(node, "dynamic", False) or any(p not in sheet.cached for p in cells):
        raise Cannot("STOCKHISTORY() without the prices Excel saved in its spill range "
                     f"(not a dynamic array, or a cell of the range saved empty); {FIX}")
    if not _inputs_as_saved(book, node):
        raise Cannot("STOCKHISTORY() reading a cell whose value is not the one Excel saved "
                     "(or that calls a volatile function): the prices saved are not those "
                     f"of its arguments now; {FIX}")
    out = np.empty((r2 - r1 + 1, c2 - c1 + 1), dtype=object)
    for r, c in cells:
        out[r - r1, c - c1] = sheet.cached[(r, c)]
    return out.view(fx.load().Array)
