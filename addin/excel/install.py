"""Excel functions the ``formulas`` package lacks, or computes differently from Excel,
written here after Microsoft's documentation and checked against values Excel saved
(``tests/corpus``, ``tests/test_excel_*.py``).

Each is put in formulas' table of functions by ``addin.engine.boot.ready``, from the
entries of ``addin.formula.patches.PATCHES`` that name it (with ``registered``
and the other builders here), and called as ``f(compiling, *args)`` with formulas'
values: references arrive as ``Ranges`` (so SUBTOTAL sees which cells it reads, and CHOOSE
can return a reference), everything else as scalars or arrays. The functions live by
topic:

* ``addin.excel.args`` -- what they share: the calling convention, ``Cannot``,
  formulas' own functions they fall back on, arguments converted as Excel does;
* ``addin.excel.aggregates`` -- SUM, AVERAGE, COUNT, ... with Excel's argument rules,
  SUBTOTAL, COMBIN, COMBINA;
* ``addin.excel.lookup`` -- CHOOSE, LOOKUP, XLOOKUP, INDEX, approximate VLOOKUP,
  HLOOKUP and MATCH;
* ``addin.excel.references`` -- OFFSET, INDIRECT, ``:`` between computed references;
* ``addin.excel.text`` -- TEXT, DOLLAR, BASE, HYPERLINK, SEARCH, BIN2DEC and the
  other base conversions;
* ``addin.excel.dates`` -- DATE, YEARFRAC, the 1904 date system;
* ``addin.excel.dynamic``, ``addin.excel.dynamic_shape`` -- Excel 365's dynamic-array
  functions: SORT, UNIQUE, FILTER, TAKE, DROP; SEQUENCE, SORTBY, CHOOSECOLS, CHOOSEROWS,
  VSTACK, HSTACK.

References
----------
Microsoft Support, the help page of each function (named in its docstring).
"""

from __future__ import annotations

import functools

import numpy as np

from addin.excel.args import ORIGINAL, as_udf
from addin.excel.dates import checked_serials, in_1904
from addin.excel.lookup import match, table_lookup
from addin.excel.references import range_operator, resized
from addin.formula import context, criterion_test, fx, fx_excel


def registered(func):
    """A builder of ``addin.formula.fx.replace``: ``func``, called as Excel calls it
    (``addin.excel.args.as_udf``), as the entry of formulas' table; formulas' own
    entry is kept in ``addin.excel.args.ORIGINAL``."""

    def make(original, key):
        ORIGINAL[key] = original
        return fx.udf_entry(as_udf(func))

    return make


def in_1904_system(original, key: str):
    """formulas' date function ``key`` computed in the 1904 date system when the workbook
    uses it (``addin.excel.dates.in_1904``)."""
    return in_1904(key, original)


def serials_checked(original, key: str):
    """formulas' date function ``key`` with the arguments no evidence settles refused in
    strict mode (``addin.excel.dates.checked_serials``)."""
    return checked_serials(key, original)


_APPROXIMATE = {"VLOOKUP": lambda: table_lookup("VLOOKUP", True),
                "HLOOKUP": lambda: table_lookup("HLOOKUP", False), "MATCH": lambda: match}


def approximate(original, key: str):
    """VLOOKUP, HLOOKUP or MATCH (``key``): formulas' own, its approximate match computed
    only on sorted values (``addin.excel.lookup``)."""
    return registered(_APPROXIMATE[key]())(original, key)


def range_operator_in(original, key: str):
    """Excel's ``:`` between computed references (``addin.excel.references.range_operator``),
    formulas' own kept in ``addin.excel.args.ORIGINAL``; given an error value as an end
    (``INDEX(...):#REF!``, in a name a deleted sheet left), refused as the union is
    (``reference_operator_given_an_error``)."""
    ORIGINAL[key] = original
    return reference_operator_given_an_error(range_operator, key)


def reference_operator_given_an_error(original, key: str):
    """formulas' union (``,``), intersection (`` ``) or range (``:``) of references, given
    an error value as an operand: a defined name left by a deleted sheet, ``#REF!,#REF!`` or
    ``Budget!#REF!,Budget!$BV$19`` (Excel writes such names). formulas gave #VALUE!; no
    page says which error Excel gives, so the cell keeps the value Excel saved
    (``context.refuse``); the value computed is the first error value given (LibreOffice
    gives #REF! there)."""

    @functools.wraps(original)
    def checked(*operands):
        ns = fx.load()
        for v in operands:
            if isinstance(v, ns.XlError):
                context.refuse(f"the reference operator {key!r} given an error value "
                               "(no page says which error Excel gives)")
                return v
        return original(*operands)

    return checked


def criteria_resized(original, key: str):
    """SUMIF or AVERAGEIF (``key``): ``addin.formula.fx_excel.criteria_total``, a range to
    add of another size than its range sized as Excel sizes it
    (``addin.excel.references.resized``)."""
    from addin.formula.error_criteria import one_error_added, several_criteria_over_errors

    def added(args):  # (the range to add, where it is the range's size: else resized)
        cells = args[2] if len(args) > 2 else args[0] if args else None
        same = len(args) < 3 or np.shape(getattr(args[0], "value", args[0])) == \
            np.shape(getattr(cells, "value", cells))
        return (2, cells) if same and args else None

    total = one_error_added(fx_excel.criteria_total(original, key, resize=resized), key,
                            added)

    def checked_total(*args):
        if several_criteria_over_errors(key, [tuple(args[:2])] if len(args) > 1 else []):
            return fx.load().errors["#VALUE!"]
        return total(*args)

    return checked_total


def criteria_over_errors(original, key: None):
    """formulas' test of a COUNTIF/SUMIF/... criterion (``__xfilter``):
    ``addin.formula.criterion_test.criteria``, checked over error values
    (``addin.formula.error_criteria.criteria_checked``)."""
    from addin.formula.error_criteria import criteria_checked

    return criteria_checked(criterion_test.criteria(original, key))
