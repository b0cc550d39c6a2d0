"""Excel's FIELDVALUE (saved ``_FV``): a field of a linked data type (Stocks, Geography...),
read from the rich value the cell holds in the file.

``=A2.Price`` and ``=FIELDVALUE(A2,"Price")`` are saved ``_FV(A2,"Price")``; a field whose
name needs brackets (``=A2.[Market cap]``) is saved with a third argument TRUE,
``_FV(A2,"Market cap",TRUE)``. The fields of the data type are stored in the package
(``addin.ooxml.rich_values``): the cell's ``vm`` names a ``_linkedentity`` rich value whose
``%cvi`` names the ``_linkedentitycore`` holding them. They change when the data type is
refreshed from its online service (Data > Refresh All, or on opening in the modes that
say so), not when Excel recalculates: a workbook computed as saved reads the fields saved.

Evidence, the values Excel saved: the 133 ``_FV`` cells of the fourth held-out part that
read a data type saved in a cell (LBO Model.xlsx G3, G4, G5, G99, I99; Financial Forecast
Model.xlsm, 2; Stock Portfolio Tracker.xlsx, 126, with and without the third argument
TRUE) and the 4 of tests/corpus/sheetjs/metadata_2019.xlsx (Sheet1!B9:C10) each equal the
field stored in the file's rich data (tests/test_excel_linked_data.py).

Refused in strict mode (a sentence naming the cell and the form): a reference to anything
but one cell holding a saved linked data type (a formula cell: the rich value it computes
is not napkin's; a cell without one: Excel's #VALUE! or #FIELD! is not written by napkin),
a field the data type does not hold (Excel's #FIELD!), a field named other than by a text,
Excel's own keys (``%...``, ``_...``), a field that is not a number or a text (an error,
a logical value, an array, another rich value), a third argument other than TRUE or FALSE.

References
----------
Microsoft Support, "FIELDVALUE function",
https://support.microsoft.com/en-us/office/fieldvalue-function (FIELDVALUE(value,
field_name); "the FIELDVALUE function will return the #FIELD! error" for a field the data
type does not have; a field name may be given by a cell).
Microsoft Learn, Excel JavaScript API, "Excel.LinkedEntityDataDomainRefreshMode" (linked
entities are refreshed manually, on load or periodically: a refresh, not a recalculation).
[MS-XLSX] 2.6.175 CT_RichValue, 2.6.180 CT_RichValueStructure (the fields as saved).
"""

from __future__ import annotations

from addin.excel.args import Cannot
from addin.formula import context, fx, ranges
from addin.ooxml.reader import decode_xstring

#: the kinds of field computed (ST_RichValueValueType): a number ("d", the default; "i")
#: and a text ("s")
_NUMBERS, _TEXT = ("d", "i"), "s"


def _cell(value) -> tuple[object, tuple[int, int]]:
    """The workbook's sheet and the place of the one cell ``value`` refers to."""
    ns = fx.load()
    book = getattr(context.STATE, "book", None)
    if book is None or not isinstance(value, ns.Ranges) or len(value.ranges) != 1 \
            or ranges.cell_count(value) != 1:
        raise Cannot("_FV() (FIELDVALUE) of something other than a reference to one cell "
                     "holding a linked data type")
    sid, r, c, _, _ = ranges.areas(value)[0]
    if sid not in book.sid_map:
        raise Cannot("_FV() (FIELDVALUE) of a cell outside the workbook")
    return book.sheets[book.sid_map[sid]], (r, c)


def field_value(value, field_name, bracketed=None):
    """Excel's ``_FV(value, field_name[, bracketed])``, FIELDVALUE: the field ``field_name``
    of the linked data type the cell ``value`` holds, as the file saved it (a number or a
    text). ``bracketed`` (TRUE where the field was written ``A1.[Market cap]``) does not
    change the value.

    Parameters
    ----------
    value : reference
        one cell holding a linked data type (saved with ``vm``).
    field_name : str
        the field's name, as the data type writes it (``"Price"``, ``"52 week high"``).
    bracketed : bool, optional
        how the field was written; TRUE or FALSE.

    Returns
    -------
    float or str
        the stored field.

    References
    ----------
    Microsoft Support, "FIELDVALUE function"; [MS-XLSX] 2.6.175 CT_RichValue.
    """
    sheet, pos = _cell(value)
    if bracketed is not None and not isinstance(bracketed, bool):
        raise Cannot("_FV() (FIELDVALUE) with a third argument other than TRUE or FALSE")
    if not isinstance(field_name, str):
        raise Cannot("_FV() (FIELDVALUE) with a field named other than by a text")
    if pos in sheet.formula_at:
        raise Cannot("_FV() (FIELDVALUE) of a formula cell: the linked data type it computes "
                     "is not napkin's; only a data type saved in a cell is read")
    book = context.STATE.book
    rich, vm = getattr(book, "rich", None), getattr(sheet, "rich", {}).get(pos)
    rv = rich.of_vm(vm) if rich is not None and vm is not None else None
    core = rich.entity_fields(rv) if rv is not None else None
    if rv is not None and core is None:
        raise Cannot("_FV() (FIELDVALUE) of a rich value other than the linked data type read "
                     "(_linkedentity, the Stocks type; _linkedentity2, Geography's, images and "
                     "errors are not read)")
    if core is None:
        raise Cannot("_FV() (FIELDVALUE) of a cell holding no linked data type saved in the "
                     "file (Excel gives an error napkin does not write)")
    got = None if field_name[:1] in ("%", "_") else core.get(field_name)
    if got is None:
        raise Cannot("_FV() (FIELDVALUE) of a field its data type does not hold (Excel's "
                     "#FIELD!, which napkin does not write)")
    kind, text = got
    if kind == _TEXT:
        return decode_xstring(text)
    if kind in _NUMBERS:
        try:
            return float(text)
        except ValueError:
            pass
    raise Cannot("_FV() (FIELDVALUE) of a field saved as other than a number or a text (an "
                 "error, a logical value, an array or another rich value)")
