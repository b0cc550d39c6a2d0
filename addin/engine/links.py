"""Links to other workbooks (``[1]Sheet1!A1``), computed from the values Excel keeps of
them.

Excel saves, for each workbook a formula links to, a copy of the values it last read
from it (``xl/externalLinks/externalLinkN.xml``); when it opens a workbook without
updating its links, it computes with those. napkin does the same: each linked sheet
becomes a read-only sheet of those values, and ``rewrite`` points the formula's
reference at it. A sheet of which Excel kept no values (a ``sheetData`` with no rows,
as Excel writes it, ``refreshError="1"``, for a sheet of a workbook it could not find), a
sheet it did not keep at all, or a defined name of the other workbook (``[1]!Name``,
``[1]Sheet!Name``) is left as it is, and the formula is refused.

A sheet marked ``refreshError`` that still holds rows is read like any other: Excel's last
attempt to update the link failed, and it kept the values it had read before and computes
with them. Evidence, cells Excel saved: in the business corpus's thirteenth held-out part
(seen), adilwali648's DCF Valuation.xlsx reads 94 cells of such a sheet ('Raw FS') and
every formula reading them holds the value computed from the kept values (LibreOffice,
which reads them so, reproduces all 1,422 of its formula cells); RomaneeLee's Financial
Modeling.xlsx holds two more such sheets, which none of its formulas read.

References
----------
ECMA-376 Part 1, 18.14 (External Workbooks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from zipfile import ZipFile

from defusedxml import ElementTree as ET

from addin.formula import formula_text as ft
from addin.ooxml import xlsx_values as xv


@dataclass
class LinkedSheet:
    book: int  # the link's number in formulas ([1] is the first)
    name: str
    values: dict = field(default_factory=dict)  # (r, c) -> value as stored (text/number)


def read_links(zf: ZipFile, book: xv.Book) -> list[LinkedSheet]:
    """The sheets of linked workbooks whose values Excel kept."""
    root = ET.fromstring(zf.read(book.workbook_path), forbid_dtd=True)
    refs = root.find(f"{{{xv.MAIN_NS}}}externalReferences")
    if refs is None:
        return []
    rels = xv.read_rels(zf, book.workbook_path)
    out = []
    for k, ref in enumerate(refs, 1):
        _typ, target = rels.get(ref.get(f"{{{xv.REL_NS}}}id"), ("", ""))
        if target not in zf.NameToInfo:
            continue
        link = ET.fromstring(zf.read(target), forbid_dtd=True)
        ns = link.tag[: link.tag.index("}") + 1] if link.tag.startswith("{") else ""
        eb = link.find(f"{ns}externalBook")
        if eb is None:
            continue
        names = [s.get("val", "") for s in eb.iter(f"{ns}sheetName")]
        for sd in eb.iter(f"{ns}sheetData"):
            try:
                i = int(sd.get("sheetId", "-1"))
            except ValueError:
                continue
            if not 0 <= i < len(names) or (sd.get("refreshError") in ("1", "true")
                                            and sd.find(f"{ns}row") is None):
                continue
            sheet = LinkedSheet(k, names[i])
            for cell in sd.iter(f"{ns}cell"):
                v = cell.find(f"{ns}v")
                if v is None or cell.get("r") is None:
                    continue
                sheet.values[xv.parse_cell_ref(cell.get("r"))] = (cell.get("t") or "n",
                                                                    v.text or "")
            out.append(sheet)
    return out


#: what a cell or area reference starts with after ``Sheet!`` (``A1``, ``$A$1:B2``,
#: ``A:C``, ``1:3``), not a defined name (``Sheet!Name``), which the values Excel kept
#: of the other workbook do not give
_CELLS = (r"(?=\$?[A-Za-z]{1,3}\$?\d+(?![\w.(])|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}(?![\w.(])"
          r"|\$?\d+:\$?\d+(?![\w.(]))")
_LINK = re.compile(r"(?P<q>')?\[(?P<k>\d+)\](?P<name>(?(q)(?:[^']|'')+|[A-Za-z_][\w.]*))"
                   r"(?(q)')!" + _CELLS)


def rewrite(text: str, aliases: dict[tuple[int, str], str]) -> str:
    """Formula text with each ``[k]Sheet!`` (or ``'[k]Sheet name'!``) whose values Excel
    kept pointing at its stand-in sheet (``aliases``: (k, NAME.upper()) -> sheet name);
    the others are left as they are. Text inside string literals is not touched."""
    if "[" not in text:
        return text

    def one(m):
        name = m.group("name").replace("''", "'") if m.group("q") else m.group("name")
        alias = aliases.get((int(m.group("k")), name.upper()))
        return f"{alias}!" if alias else m.group(0)

    return ft.change_outside_strings(text, lambda part: _LINK.sub(one, part))
