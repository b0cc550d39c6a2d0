"""Excel functions the ``formulas`` package lacks, or computes differently from Excel,
written here after Microsoft's documentation and checked against values Excel saved
(``tests/corpus``, ``tests/test_excel_*.py``).

Each is installed in formulas' table of functions by ``install`` (called once by
``addin.formula.fx.load``) and called as ``f(compiling, *args)`` with formulas' values:
references arrive as ``Ranges`` (so SUBTOTAL sees which cells it reads, and CHOOSE can
return a reference), everything else as scalars or arrays. The functions live by topic:

* ``addin.excel.args`` -- what they share: the calling convention, ``Cannot``,
  formulas' own functions they fall back on, arguments converted as Excel does;
* ``addin.excel.aggregates`` -- SUM, AVERAGE, COUNT, ... with Excel's argument rules,
  SUBTOTAL, COMBIN, COMBINA;
* ``addin.excel.lookup`` -- CHOOSE, LOOKUP, XLOOKUP, INDEX, approximate VLOOKUP,
  HLOOKUP and MATCH;
* ``addin.excel.references`` -- OFFSET, INDIRECT, ``:`` between computed references;
* ``addin.excel.text`` -- TEXT, DOLLAR, BASE, HYPERLINK, SEARCH, BIN2DEC and the
  other base conversions;
* ``addin.excel.dates`` -- DATE, YEARFRAC, the 1904 date system.

References
----------
Microsoft Support, the help page of each function (named in its docstring).
"""

from __future__ import annotations

from addin.excel.aggregates import AGGREGATES, combin, combina, counta, subtotal
from addin.excel.args import ORIGINAL, as_udf
from addin.excel.dates import DATES_1904, date, in_1904, yearfrac
from addin.excel.lookup import choose, index, lookup, match, table_lookup, xlookup
from addin.excel.references import indirect, offset, range_operator
from addin.excel.text import BASE_CONVERSIONS, base, dollar, hyperlink, search, text
from addin.formula import fx


def install() -> None:
    for name, func in (("SUBTOTAL", subtotal), ("COMBIN", combin), ("COMBINA", combina),
                       ("_XLFN.COMBINA", combina), ("CHOOSE", choose), ("LOOKUP", lookup),
                       ("DOLLAR", dollar), ("BASE", base), ("_XLFN.BASE", base),
                       ("HYPERLINK", hyperlink), ("OFFSET", offset),
                       ("INDIRECT", indirect), ("COUNTA", counta), ("SEARCH", search),
                       ("SEARCHB", search), *AGGREGATES.items(),
                       *BASE_CONVERSIONS.items(), ("TEXT", text), ("XLOOKUP", xlookup),
                       ("_XLFN.XLOOKUP", xlookup), ("YEARFRAC", yearfrac),
                       ("DATE", date)):
        fx.register(name, as_udf(func))
    ORIGINAL["INDEX"] = fx.register("INDEX", as_udf(index))
    table = fx.load().get_functions()
    for name in DATES_1904:
        if name in table and not isinstance(table[name], dict):
            table[name] = in_1904(name, table[name])
    for name, func in (("VLOOKUP", table_lookup("VLOOKUP", True)),
                       ("HLOOKUP", table_lookup("HLOOKUP", False)), ("MATCH", match)):
        ORIGINAL[name] = fx.register(name, as_udf(func))
    operators = fx.load().OPERATORS
    if "napkin" not in getattr(operators[":"], "__name__", ""):
        ORIGINAL[":"] = operators[":"]
        operators[":"] = range_operator
