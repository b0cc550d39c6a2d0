"""``napkin native``: a workbook's napkin functions become Excel's own formulas.

The recipient of a workbook may have no add-in (many companies forbid them), or open it
in LibreOffice or Google Sheets. ``napkin freeze`` gives such a reader values; ``native``
gives a live model: every call of a napkin function becomes an equivalent formula of the
Excel 2010 function set (``addin.transform.native.forms`` declares each one), so changing the
model, the GPU, the precision or a price recomputes every figure, with no add-in and no
macro.

How a workbook is translated:

* it is computed first, as ``napkin calc`` does: the cached values in the output are
  napkin's own results, so the file shows numbers on open;
* each formula is split into tokens (``openpyxl.formula.tokenizer.Tokenizer``) and
  each call of ours is replaced by its native form, nested calls inside out. The
  arguments are checked first, in order, as the catalog checks them (empty, wrong type,
  out of domain), so that bad input gives the same error value;
* constant text with units (``"3.35 TB/s"``, ``"8.03B"``, ``"BF16"``) becomes its number at
  translation; a precision, a result unit or a GPU/model name in a cell is looked up in a
  hidden sheet that ``native`` adds (``napkin_tables``) with the tables it needs;
* a long subexpression (a nested call, an argument that is an expression) is written
  once in a cell of a second hidden sheet (``napkin_helpers``,
  ``addin.transform.native.helpers``) and referred to, so that formulas stay readable;
* what no formula can say (EXPLAIN's text, text with units in a cell, a range mapped over
  by a function) becomes its value, as ``freeze`` does, and is listed; ``strict`` refuses
  instead;
* the package is rewritten as ``calc`` rewrites it: only the translated formulas and
  their cached values change (plus the hidden sheets, their relationships and content types,
  and ``calcChain.xml`` is dropped when cells become values); every other part is copied
  byte for byte.

The parts: ``addin.formula.walk`` (the formula tree, the formula layer's),
``addin.transform.native.formula`` (a translated argument),
``addin.transform.native.book`` (the workbook's values and the hidden tables),
``addin.transform.native.translate`` (the translation of one formula),
``addin.transform.native.forms`` (each function's native form); this module
computes the workbook, translates every formula and rewrites the package.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from zipfile import ZipFile

from openpyxl.formula.translate import Translator

from addin.formula.walk import calls_of, may_call
from addin.ooxml import edit, guard, package, reader
from addin.ooxml import xlsx_values as xv
from addin.transform.native.book import Book
from addin.transform.native.cells import per_cell, per_cell_refs
from addin.transform.native.translate import NativeTranslator, Untranslatable

WORKSHEET_TYPE = ("application/vnd.openxmlformats-officedocument.spreadsheetml."
                  "worksheet+xml")
REL_ID = "rIdNapkinTables"
HELPERS_REL_ID = "rIdNapkinHelpers"


@dataclass
class NativeResult:
    translated: list[str] = field(default_factory=list)  # "Sheet!A1"
    frozen: dict[str, str] = field(default_factory=dict)  # "Sheet!A1" -> reason
    formulas: dict[str, str] = field(default_factory=dict)  # "Sheet!A1" -> new formula

# --------------------------------------------------------------------------- the package


def _formula_cells(xml: str, cells: list | None = None, spans: list | None = None):
    """[(start, end of the <f> element, its attributes, formula text, cell ref, its ``t``,
    the part's namespace prefix)] of every formula cell, shared formulas resolved to each
    cell's own text. ``cells`` and ``spans``, when given, receive every cell of the part
    and the (start, end) of every <f> element, from the same one reading."""
    found = []
    masters: dict[str, tuple[str, str]] = {}
    for cell in reader.iter_cells(xml):
        f = reader.formula_of(cell)
        if cells is not None:
            cells.append(cell)
        if f and spans is not None:
            spans.append((f.start, f.end))
        ref = cell.ref
        if not f or not ref:
            continue
        text = f.text
        kind = reader.attr(f.attrs, "t")
        if kind == "shared":
            si = reader.attr(f.attrs, "si")
            if text:
                masters[si] = (text, ref)
            elif si in masters:
                master, origin = masters[si]
                text = Translator("=" + master, origin=origin).translate_formula(ref)[1:]
        found.append((f.start, f.end, f.attrs, text, ref, kind, cell.prefix))
    return found


def _add_hidden_sheet(zf: ZipFile, book: xv.Book, name: str, xml: str, rel_id: str,
                      replace: dict, add: dict) -> str:
    """Append a hidden sheet: its part, its <sheet> entry, relationship, content type.
    Returns the part's name."""
    names = set(zf.namelist()) | set(add)
    k = 1
    while f"xl/worksheets/sheet{k}.xml" in names:
        k += 1
    part = f"xl/worksheets/sheet{k}.xml"
    add[part] = xml.encode("utf-8")
    wb_path = book.workbook_path
    wb = replace.get(wb_path, zf.read(wb_path)).decode("utf-8")
    replace[wb_path] = edit.add_sheet_entry(wb, name, rel_id).encode("utf-8")
    rels_path = reader.rels_path(wb_path)
    rels = replace.get(rels_path, zf.read(rels_path)).decode("utf-8")
    rels = edit.add_relationship(rels, rel_id, f"{xv.REL_NS}/worksheet",
                                 posix_relative(part, wb_path))
    replace[rels_path] = rels.encode("utf-8")
    ct = replace.get("[Content_Types].xml", zf.read("[Content_Types].xml")).decode("utf-8")
    replace["[Content_Types].xml"] = edit.add_override(ct, part, WORKSHEET_TYPE).encode("utf-8")
    return part


def _helper_values(zf: ZipFile, computed: Path, book: xv.Book, tr: NativeTranslator,
                   folder: str, parts: dict[str, tuple[str, list]]) -> dict[int, object]:
    """{row: value} of the helper cells, computed by napkin's engine over a copy of the
    computed workbook whose other cells hold only their values (napkin's results).
    ``parts``: each worksheet's text and the places of its <f> elements
    (``_formula_cells``' ``spans``)."""
    from addin.engine.api import calc_workbook

    replace: dict[str, bytes] = {}
    for sheet in book.sheets:
        xml, spans = parts[sheet.path]
        pieces, stop = [], 0  # the part less each <f> element, in one pass
        for start, end in spans:
            pieces.append(xml[stop:start])
            stop = end
        pieces.append(xml[stop:])
        replace[sheet.path] = "".join(pieces).encode("utf-8")
    add: dict[str, bytes] = {}
    if tr.tables.used:
        _add_hidden_sheet(zf, book, tr.tables.sheet, tr.tables.sheet_xml(), REL_ID,
                          replace, add)
    _add_hidden_sheet(zf, book, tr.helpers.sheet, tr.helpers.sheet_xml(tr.fill),
                      HELPERS_REL_ID, replace, add)
    probe = Path(folder) / "helpers.xlsx"
    package.rewrite(zf, computed, probe, replace, {"xl/calcChain.xml"}, add, stored=True)
    results = calc_workbook(probe, None, strict=False)  # the values, no workbook written
    head = tr.helpers.sheet + "!A"
    return {int(label[len(head):]): _cached(v) for label, v in results.items()
            if label.startswith(head)}


def _cached(v):
    """A computed value as the helper cell caches it (an error by its code alone)."""
    from udfs.machinery.errors import ExcelError

    if isinstance(v, ExcelError):
        return ExcelError(v.code, "")
    return v


def posix_relative(part: str, source: str) -> str:
    import posixpath

    return posixpath.relpath(part, posixpath.dirname(source))


def _array_edits(tr, book, idx: int, sheet: str, cells: dict, text: str, block: str,
                 where: tuple[int, int, str], result: NativeResult) -> list:
    """The edits of an array formula over ``block`` that calls napkin functions (``cells``:
    {ref: cell} of its sheet, read once for all its arrays): each cell of the block given
    its own translated formula (``addin.transform.native.cells``), the array formula's
    ``<f>`` replaced and a ``<f>`` put before the value of each other cell;
    or, when a cell cannot be said, the block frozen (its values kept) and each of its
    cells listed in ``result.frozen`` with the reason."""
    start, end, p = where
    try:
        trees: dict[str, list] = {}  # each cell's tree, made without tokenising it
        texts = per_cell(text, block, book, idx, tr.names, trees, texts=False)
        for ref in texts:
            cell = cells.get(ref)
            if cell is None or cell.body is None:
                raise Untranslatable(f"{sheet}!{ref} of the array formula over {block} has no "
                                     "value to keep")
        new = {ref: tr.formula("", idx, trees[ref]) for ref in texts}  # (by its tree)
    except Untranslatable as e:
        for ref in per_cell_refs(block):
            result.frozen[f"{sheet}!{ref}"] = f"array formula over {block}: {e}"
        return [(start, end, None)]
    edits = []
    for ref, formula in new.items():
        label = f"{sheet}!{ref}"
        result.translated.append(label)
        result.formulas[label] = formula
        cell = cells[ref]
        if formula_start := reader.formula_of(cell):
            edits.append((formula_start.start, formula_start.end, (p, "", formula, label)))
        else:
            edits.append((cell.body_start, cell.body_start, (p, "", formula, label)))
    return edits


def _paused_gc(fn):
    """``native`` with the cyclic collector paused, as ``calc_workbook`` runs (the
    translation makes trees of tokens by the ten thousand: 0.6 s of the template's 7 s
    went to the collector's passes over them)."""
    import functools

    @functools.wraps(fn)
    def paused(*args, **kwargs):
        from addin.engine.api import without_cyclic_gc

        return without_cyclic_gc(fn)(*args, **kwargs)

    return paused


@_paused_gc
def native(src, dst, *, strict: bool = False, in_place: bool = False,
           backup: bool = True) -> NativeResult:
    """Compute ``src`` and write ``dst`` with every napkin call in native formulas.

    Calls that no formula can say become values (listed in the result's ``frozen``, with
    the reason); with ``strict`` they are refused instead (``guard.WorkbookError``,
    nothing written).
    """
    from addin.engine.api import calc_workbook

    src, dst = Path(src), Path(dst)
    guard.check_package(src)
    if package.same_file(src, dst) and not in_place:
        raise ValueError(f"refusing to overwrite the source workbook {src} (use --in-place)")
    result = NativeResult()
    with tempfile.TemporaryDirectory(dir=dst.parent if dst.parent.exists() else None) as d:
        computed = Path(d) / "computed.xlsx"
        calc_workbook(src, computed)
        with ZipFile(computed) as zf:
            book = Book(zf)
            tr = NativeTranslator(book)
            edits_by_part: dict[str, list] = {}
            parts: dict[str, tuple[str, list]] = {}  # each sheet's text, its <f>s' places
            for idx, sheet in enumerate(book.book.sheets):
                xml = zf.read(sheet.path).decode("utf-8")
                edits, cells, every, spans = [], None, [], []
                parts[sheet.path] = (xml, spans)
                for start, end, attrs, text, ref, kind, p in _formula_cells(xml, every,
                                                                            spans):
                    try:
                        if not may_call(text, tr.names) or \
                                not calls_of(tr.parsed(text), tr.names):
                            continue
                    except Exception:  # not tokenizable: leave it alone
                        continue
                    label = f"{sheet.name}!{ref}"
                    block = reader.attr(attrs, "ref") if kind == "array" else None
                    if block and ":" in block:  # an array formula over many cells: one
                        # formula a cell of its range (one cell: translated as it is)
                        if cells is None:  # the sheet's cells, found once
                            cells = {c.ref: c for c in every}
                        edits += _array_edits(tr, book, idx, sheet.name, cells, text, block,
                                              (start, end, p), result)
                        continue
                    try:
                        new = tr.formula(text, idx)
                    except Untranslatable as e:
                        result.frozen[label] = str(e)
                        edits.append((start, end, None))
                        continue
                    result.translated.append(label)
                    result.formulas[label] = new
                    keep = "" if kind == "shared" else attrs
                    edits.append((start, end, (p, keep, new, label)))
                if edits:
                    edits_by_part[sheet.path] = (xml, sorted(edits, key=lambda e: e[0]))
            if strict and result.frozen:
                first = next(iter(result.frozen.items()))
                more = len(result.frozen) - 1
                raise guard.WorkbookError(
                    f"{len(result.frozen)} cell{'s' if len(result.frozen) > 1 else ''} cannot "
                    f"be translated ({first[0]}: {first[1]}"
                    f"{f'; and {more} more' if more else ''}); without --strict they become "
                    "their values")
            # a helper that one formula alone uses is written into it (no repetition to
            # save; a hidden cell less to compute: addin.transform.native.helpers)
            formulas = {new[3]: new[2] for _, edits in edits_by_part.values()
                        for _, _, new in edits if new is not None}
            tr.helpers.inline_once_used(formulas)
            replace: dict[str, bytes] = {}
            for path, (xml, edits) in edits_by_part.items():
                pieces, stop = [], len(xml)  # the part from its end, each edit in its place
                for start, end, new in reversed(edits):
                    pieces.append(xml[end:stop])
                    stop = start
                    if new is not None:
                        p, attrs, _, label = new
                        text = tr.fill(formulas[label])
                        result.formulas[label] = text
                        pieces.append(f"<{p}f{attrs}>{xv.xml_escape_text(text)}</{p}f>")
                pieces.append(xml[:stop])
                replace[path] = "".join(reversed(pieces)).encode("utf-8")
            add: dict[str, bytes] = {}
            if tr.tables.used:
                _add_hidden_sheet(zf, book.book, tr.tables.sheet, tr.tables.sheet_xml(),
                                  REL_ID, replace, add)
            if tr.helpers.by_row():
                tr.helpers.values = _helper_values(zf, computed, book.book, tr, d, parts)
                _add_hidden_sheet(zf, book.book, tr.helpers.sheet,
                                  tr.helpers.sheet_xml(tr.fill), HELPERS_REL_ID, replace, add)
            remove = set()
            if result.frozen and "xl/calcChain.xml" in zf.NameToInfo:
                remove.add("xl/calcChain.xml")
                rels_path = reader.rels_path(book.book.workbook_path)
                rels = replace.get(rels_path, zf.read(rels_path)).decode("utf-8")
                replace[rels_path] = edit.remove_relationships(rels, "calcChain.xml") \
                    .encode("utf-8")
                ct = replace.get("[Content_Types].xml",
                                 zf.read("[Content_Types].xml")).decode("utf-8")
                replace["[Content_Types].xml"] = edit.remove_override(
                    ct, "xl/calcChain.xml").encode("utf-8")
            if package.same_file(src, dst) and backup:  # over IN: keep IN.bak first
                shutil.copy2(src, src.with_name(src.name + ".bak"))
            package.rewrite(zf, computed, dst, replace, remove, add)
    return result
