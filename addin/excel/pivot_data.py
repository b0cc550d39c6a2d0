"""Excel's GETPIVOTDATA: a value a pivot table shows, found by its data field and items.

GETPIVOTDATA(data_field, pivot_table, [field1, item1], ...) "returns visible data from a
PivotTable"; "if the arguments do not describe a visible field, or if they include a
report filter in which the filtered data is not displayed", and "if pivot_table is not a
range in which a PivotTable is found", it gives #REF! (Microsoft Support). napkin never
refreshes a pivot table: what it shows is what Excel drew, saved in the sheet's cells as
values. So the value is read from the table's own cells, at the row and the column whose
items are those named (``addin.ooxml.pivot_tables`` reads where each row and column of
the body is and what it shows).

Given, in this order:

1. ``pivot_table`` a reference none of whose cells lies in a pivot table, on a sheet whose
   every pivot table was read and has no report filter above it: #REF!;
2. the table's cache refreshed when the workbook opens, not a worksheet's range, parts
   not read, data fields on rows, calculated items, several data fields but with the
   Values field (``-2``) not alone on the columns, rows and columns (``rowItems``,
   ``colItems``) that do not fill its range from its first data cell: refused;
3. ``data_field`` naming none of the table's data fields (its name, or its source field's):
   #REF!; naming two (Sum and Max of one field, by the field's name): refused; with
   several data fields, the column is the one Values shows that data field in; an item
   named for a field that is none of the cache's: #REF!;
4. each ``item`` compared with the items of its field: a number with a number, a text with
   a text (exactly); where the comparison is not settled (a date item, a number against a
   text Excel may read as one, ``addin.formula.excel_numbers.looks_numeric``: "$2,024",
   "1/1/2024"; an empty cell, texts equal but for case, a field's items
   grouped or renamed) refused; an item equal to no item of its field that the table
   shows or hides: #REF!; equal only to items the table hides (``h``, filtered out, as by
   a slicer): #REF!, as Excel saved it (heldout13's Personal Finance.xlsx,
   ``GETPIVOTDATA("Sum of Inflow",Control!$A$3,"Month",""&O2)`` for months a slicer
   filters out); equal to an item missing from the source (``m``): refused;
5. the row (and column) whose leading members are exactly the named items, the named
   fields being the first ones of the axis, one such line: the number saved there; no
   field named on an axis: its grand total line (the one line when no field lies there).
   Anything else (a field named that is not on an axis, no line or two lines, an empty or
   non-number cell) refused; so is an error value given as an argument (which error
   Excel gives then is not documented).

References
----------
Microsoft Support, "GETPIVOTDATA function",
https://support.microsoft.com/en-us/excel/functions/getpivotdata-function
(GETPIVOTDATA(data_field, pivot_table, [field1, item1, field2, item2], ...); it "returns
visible data from a PivotTable"; pivot_table "a reference to any cell, range of cells, or
named range of cells in a PivotTable"; "if the pivot_table argument is a range that
includes two or more PivotTables, data will be retrieved from whichever PivotTable was
created most recently" (refused here: which is newest is not read); an item that is a date
given as a serial number or by DATE (refused here); #REF! where the arguments do not
describe a visible field or pivot_table is not a range in which a PivotTable is found).
ECMA-376 Part 1, 18.10 (the parts read: ``addin.ooxml.pivot_tables``).
The cells Excel saved: part heldout18 of tools/business_corpus.csv, vlan99's two
Forex.xlsm, 'Monthly Log'!G7:H1000 (``IF(C7="","",GETPIVOTDATA("WinPips",ProfitRpt!$A$9,
"Trade Month",C7,"Trade Year",B7))``: #REF! for a month and year the tables do not show,
and for ``pivot_table`` outside every table); part heldout13's Personal Finance.xlsx
(mina638), Processing!R2:Y13, tables of several data fields with the Values field on the
columns, #REF! for the months a slicer filters out.
"""

from __future__ import annotations

import numpy as np

from addin.excel.args import Cannot, scalar
from addin.formula import context, fx, ranges
from addin.formula.excel_numbers import looks_numeric
from addin.ooxml.pivot_tables import VALUES_FIELD, PivotTable
from udfs.machinery.errors import ExcelError

_NAME = "GETPIVOTDATA()"


def _ref(message: str) -> ExcelError:
    return ExcelError("#REF!", f"{_NAME}: {message}")


def _table(book, pivot_table) -> PivotTable:
    """The pivot table ``pivot_table`` names (a reference into it), #REF! where it names none."""
    ns = fx.load()
    if not isinstance(pivot_table, ns.Ranges):
        raise Cannot(f"{_NAME} given pivot_table other than a reference")
    found, outside = [], False
    for sid, r1, c1, r2, c2 in ranges.areas(pivot_table):
        if sid not in book.sid_map or not (r1 and c1 and r2 and c2):
            raise Cannot(f"{_NAME} given pivot_table outside the workbook or a whole column")
        tables = [t for t in book.pivots if t.sheet == book.sid_map[sid]]
        hit = False
        for t in tables:
            tr1, tc1, tr2, tc2 = t.ref
            if r1 > tr2 or r2 < tr1 or c1 > tc2 or c2 < tc1:
                continue  # (no cell in common)
            if not (t.contains(r1, c1) and t.contains(r2, c2)):
                raise Cannot(f"{_NAME} given pivot_table partly outside its pivot table")
            if found and found[0] is not t:
                raise Cannot(f"{_NAME} given pivot_table over two pivot tables")
            found.append(t)
            hit = True
        outside |= not hit
        if not found and any(t.unreadable or t.page_fields for t in tables):
            raise Cannot(f"{_NAME} given pivot_table outside the tables read, on a sheet "
                         "with a table not read or with report filters above one")
    if not found:
        raise _ref("pivot_table is not a range in which a PivotTable is found")
    if outside:  # (an area of it in no table)
        raise Cannot(f"{_NAME} given pivot_table partly outside its pivot table")
    table = found[0]
    r1, c1, r2, c2 = table.ref
    drawn = (r1 + table.first_data_row + len(table.rows) - 1,
             c1 + table.first_data_col + len(table.cols) - 1) == (r2, c2)
    reasons = [table.unreadable,
               "" if len(table.fields) == len(table.cache_fields) else
               "its fields not those of its cache",
               "" if drawn else "its rows and columns do not fill its range",
               "its cache refreshed when the workbook opens" if table.refresh_on_load else "",
               f"its source a {table.source} range" if table.source != "worksheet" else "",
               "" if table.data_fields else "no data field",
               "several data fields, the Values field not alone on its columns"
               if len(table.data_fields) > 1 and table.col_fields != [VALUES_FIELD] else ""]
    why = next((r for r in reasons if r), "")
    if why:
        raise Cannot(f"{_NAME} of the pivot table {table.name!r}: {why}")
    return table


def _same(given, kind: str, text: str) -> bool | None:
    """Whether ``given`` names the shared item ``(kind, text)``; None: not settled (a text
    Excel may read as a number, ``looks_numeric``, against the other kind)."""
    if isinstance(given, (bool, np.bool_)) or kind not in ("s", "n"):
        return None
    if isinstance(given, str) and kind == "s":
        if given == text:
            return True
        return None if given.casefold() == text.casefold() else False
    if isinstance(given, str):  # (a text against a number item)
        return None if looks_numeric(given) else False
    if kind == "n":
        return float(given) == float(text)
    return None if looks_numeric(text) else False  # (a number against a text item)


def _item(table: PivotTable, fld: int, given) -> int:
    """The index of the pivot field ``fld``'s item ``given`` names (see the module)."""
    cache = table.cache_fields[fld]
    name = cache.name
    if cache.grouped or cache.formula or not table.fields[fld].items:
        raise Cannot(f"{_NAME} of the field {name!r}, grouped, calculated or listing no item")
    shown, hidden, missing = [], False, False
    for index, item in enumerate(table.fields[fld].items):
        if item.get("t", "data") != "data":
            continue
        x = int(item["x"]) if item.get("x", "").isdigit() else -1
        if not 0 <= x < len(cache.items):
            raise Cannot(f"{_NAME} of the field {name!r}: an item not in its cache")
        same = _same(given, *cache.items[x])
        if same is None or same and "n" in item:
            raise Cannot(f"{_NAME} given {given!r} for the field {name!r}: its comparison "
                         "with the field's items is not settled")
        if same and item.get("m") in ("1", "true"):
            missing = True
        elif same and item.get("h") in ("1", "true"):
            hidden = True
        elif same:
            shown.append(index)
    if missing:
        raise Cannot(f"{_NAME} given an item of {name!r} missing from the table's source")
    if hidden and not shown:  # (filtered out: not visible)
        raise _ref(f"{given!r} is an item of {name!r} the pivot table hides")
    if not shown:
        raise _ref(f"{given!r} is no item of the field {name!r}")
    if len(shown) > 1:
        raise Cannot(f"{_NAME} given {given!r}, which names two items of {name!r}")
    return shown[0]


def _line(lines, fields: list[int], named: dict[int, int], axis: str) -> int:
    """The one line of ``lines`` whose members are exactly the named items (``named``:
    field -> item index), the named fields the first of the axis ``fields``."""
    depth = len(named)
    if fields[:depth] != sorted(named, key=fields.index) or \
            VALUES_FIELD in fields:
        raise Cannot(f"{_NAME} naming fields of the {axis} other than its first ones")
    want = tuple(named[f] for f in fields[:depth])
    if depth == 0:
        hits = [k for k, line in enumerate(lines) if line.kind == "grand"] or (
            [0] if not fields and len(lines) == 1 and lines[0].kind == "data" else [])
    else:
        hits = [k for k, line in enumerate(lines) if line.kind not in ("grand", "blank")
                and line.members == want]
    if len(hits) != 1:
        raise Cannot(f"{_NAME}: {len(hits)} lines of the {axis} show the items named")
    return hits[0]


def _data_field(table: PivotTable, wanted: str) -> int:
    """The index of the one data field ``wanted`` names, by its name or its source field's
    (#REF! where none; refused where two, or only in other letter case)."""
    names = [(name, table.cache_fields[fld].name if 0 <= fld < len(table.cache_fields)
              else None) for name, fld in table.data_fields]
    hits = [d for d, both in enumerate(names) if wanted in both]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise Cannot(f"{_NAME} naming {wanted!r}, the source of two data fields")
    if any(wanted.casefold() in (n.casefold() for n in both if n) for both in names):
        raise Cannot(f"{_NAME} naming the data field in other letter case")
    raise _ref(f"{wanted!r} is no data field of the pivot table")


def _values_column(table: PivotTable, data: int) -> int:
    """The column the Values field, alone on the columns, shows the data field ``data``
    in: the one ``colItems`` line of it (``i`` and its member both ``data``)."""
    hits = [j for j, line in enumerate(table.cols) if line.kind == "data"
            and line.data_index == data and line.members == (data,)]
    if len(hits) != 1:
        raise Cannot(f"{_NAME}: {len(hits)} columns show the data field named")
    return hits[0]


def getpivotdata(data_field, pivot_table, *pairs):
    """Excel's ``GETPIVOTDATA(data_field, pivot_table, [field1, item1], ...)``: the value
    the pivot table shows for the data field at the items named.

    Parameters
    ----------
    data_field : str
        the data field's name (``"Sum of Sales"``) or its source field's (``"Sales"``).
    pivot_table : reference
        any cell or range of the pivot table.
    *pairs : str, number
        field names and items, in pairs.

    Returns
    -------
    float
        the number the table shows there, as saved; #REF! where nothing visible is named.

    References
    ----------
    Microsoft Support, "GETPIVOTDATA function".
    """
    book, ns = getattr(context.STATE, "book", None), fx.load()
    if book is None:
        raise Cannot(f"{_NAME} outside a workbook's cell")
    table = _table(book, pivot_table)
    try:
        values = [scalar(a, _NAME) for a in (data_field, *pairs)]
    except ExcelError as ex:  # (which error Excel gives then is not documented)
        raise Cannot(f"{_NAME} given an error value ({ex.code})") from None
    if len(pairs) % 2 or not all(isinstance(v, str) for v in [values[0], *values[1::2]]):
        raise Cannot(f"{_NAME} given a field name other than a text, or a field without item")
    if any(v is ns.EMPTY or v is None or fx.is_omitted(v) for v in values):
        raise Cannot(f"{_NAME} given an empty cell or an argument left out")
    data = _data_field(table, values[0])
    names = [c.name for c in table.cache_fields]
    by_axis: dict[str, dict[int, int]] = {"rows": {}, "columns": {}}
    for field_name, given in zip(values[1::2], values[2::2], strict=True):
        if field_name not in names:
            if field_name.casefold() in (n.casefold() for n in names):
                raise Cannot(f"{_NAME} naming the field {field_name!r} in other letter case")
            raise _ref(f"{field_name!r} is no field of the pivot table")
        f = names.index(field_name)
        axis = "rows" if f in table.row_fields else "columns" if f in table.col_fields else ""
        if not axis or f in by_axis[axis]:
            raise Cannot(f"{_NAME} naming the field {field_name!r}, not on the table's rows "
                         "or columns, or twice")
        by_axis[axis][f] = _item(table, f, given)
    k = _line(table.rows, table.row_fields, by_axis["rows"], "rows")
    j = _line(table.cols, table.col_fields, by_axis["columns"], "columns") \
        if table.col_fields != [VALUES_FIELD] else _values_column(table, data)
    r1, c1, _, _ = table.ref
    place = (r1 + table.first_data_row + k, c1 + table.first_data_col + j)
    sheet = book.sheets[table.sheet]
    got = sheet.values.get(place)
    if place in sheet.formula_at or not table.contains(*place) or isinstance(got, bool) or \
            not isinstance(got, (int, float)):
        raise Cannot(f"{_NAME}: the table's cell there holds no number saved")
    return float(got)
