"""Refuse hostile and broken workbooks before the engine touches them.

``check_package(path)`` reads only what it must, with hard limits, and raises
``WorkbookError`` (a ``ValueError`` with a one-line message naming the problem and,
where there is one, the fix) for:

=====================================  ===============================================
not a regular file                      FIFOs, devices, folders
not a zip, or a truncated zip           "not an .xlsx workbook" / "damaged or truncated"
legacy .xls, encrypted workbook         recognised by their OLE2 header and streams
.ods (or another zip) named .xlsx       recognised by its ``mimetype`` / missing parts
a part name twice in the zip            Excel refuses such a package
parts compressed other than deflate     bzip2 / LZMA entries, which Excel cannot read
zip bomb                                the sizes the zip's directory declares, before
                                        anything is inflated; then every part is inflated
                                        (not parsed) in chunks and counted, so a part that
                                        declares less than it inflates to stops at the
                                        limit
XML with a DTD or entities              every XML part is parsed with ``defusedxml``
                                        (DTDs, entities and external references
                                        forbidden) in the encoding it declares, UTF-16
                                        included; UTF-32 parts (not allowed by the Open
                                        Packaging Conventions) are refused
XML that is not well-formed             the parser's line and column
comments, CDATA or processing           in a worksheet: never written by Excel, and the
instructions in a worksheet             lossless writer edits worksheet text
a worksheet that is not UTF-8           the writer edits worksheets (and the workbook
                                        part, its relationships and content types) as
                                        UTF-8; other parts may be UTF-16
a sheet whose part is missing           the workbook's relationship points nowhere
too much work                           counted while parsing, before any computing:
                                        cells (with every cell an array formula fills),
                                        formulas and shared strings
=====================================  ===============================================

Limits (module constants, stated in the README): the file at most 100 MB, each part at
most 200 MB inflated and all parts 400 MB, at most 600,000 cells in the workbook
(counting each cell of an array formula's range; an empty cell element, ``<c r="B7"
s="3"/>``, which Excel writes for a format and the reader passes over, is not counted:
it costs the part's text only, which the part's size bounds), of them at most 300,000 formulas
(``<f>`` elements: each cell of a shared formula, an array formula once), and at most
300,000 shared strings. Measured (``addin.cli.bench_memory``, docs/bench.md "Memory"):
a formula cell takes 2.4-4.0 KB of ``napkin calc``'s memory, a value or shared-string
cell about 0.5 KB; a workbook at the limits of the costliest kinds measured (300,000
formulas each with numbers of its own, 300,000 cells each a shared string of its own)
peaks at 1,358 MB of address space, under 1.5 GB; workbooks people build for sizing are
far below them. Not bounded by these limits: a formula's own numbers (each formula of a
shape its own constants: 30 numbers a formula take about 9 KB), so 300,000 formulas of
many numbers each would pass 1.5 GB, as they would have at the earlier limits.
"""

from __future__ import annotations

import os
import re
import stat
import struct
import zlib
from pathlib import Path
from xml.parsers import expat
from zipfile import ZIP_DEFLATED, ZIP_STORED, BadZipFile, LargeZipFile, ZipFile

from defusedxml import DefusedXmlException

MAX_FILE_BYTES = 100 * 2**20
MAX_PART_BYTES = 200 * 2**20
MAX_TOTAL_BYTES = 400 * 2**20
MAX_CELLS = 600_000
MAX_SHARED_STRINGS = 300_000
#: the most formulas (``<f>`` elements: a shared formula's every cell, an array formula
#: once) in the workbook: a formula cell takes five to eight times the memory of a value
#: (docs/bench.md, "Memory")
MAX_FORMULAS = 300_000
#: the most cells one area a formula reads may hold once cut to the cells in use on its
#: sheet (``A:XFD`` on a sheet with cells at A1 and XFD1048576 would be 17 billion)
MAX_AREA_CELLS = 2 * 2**20
#: the CPU time computing a workbook's formulas may take (``napkin calc``): a backstop for
#: what the engine's count of work (``addin.engine.budget.MAX_WORK``) does not see, four
#: times what that count allows on the project's machine
MAX_CPU_SECONDS = 100.0
_CHUNK = 1 << 20
#: the most bytes inflated at a time while counting a part's size (256 KB: zlib inflates
#: highly compressed data fastest in pieces that stay in the CPU's cache)
_COUNT_STEP = 1 << 18
#: a zip's local file header: signature, 22 bytes, name and extra-field lengths
#: (APPNOTE.TXT 4.3.7); the compressed data follows the name and the extra field
_LOCAL_HEADER = struct.Struct("<4s22xHH")

_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_DTD = re.compile(r"<!DOCTYPE|<!ENTITY", re.IGNORECASE)
# parts napkin rewrites as text (besides worksheets): they must be UTF-8, as Excel writes
_EDITED = {"xl/workbook.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml"}
_ZIP_METHODS = {12: "bzip2", 14: "LZMA", 9: "Deflate64", 93: "Zstandard", 98: "PPMd"}


class WorkbookError(ValueError):
    """A workbook napkin refuses to open; the message is one line for the user."""


def _ole2_kind(head: bytes, path: Path) -> str:
    with open(path, "rb") as fh:
        data = fh.read(min(os.path.getsize(path), 4 * 2**20))
    if "EncryptedPackage".encode("utf-16-le") in data:
        return "a password-protected (encrypted) workbook: save it without a password first"
    return "a legacy Excel .xls (or other OLE2) file: save it as .xlsx first"


def check_package(path) -> None:
    """Raise WorkbookError unless ``path`` looks like an .xlsx napkin can safely read."""
    path = Path(path)
    try:
        st = path.stat()
    except OSError as e:
        raise WorkbookError(f"cannot read {path}: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):  # a FIFO would block, a device never end
        raise WorkbookError(f"{path} is not a regular file: give the path of a workbook")
    size = st.st_size
    if size > MAX_FILE_BYTES:
        raise WorkbookError(f"{path.name} is {size / 2**20:.0f} MB; napkin reads workbooks "
                            f"up to {MAX_FILE_BYTES // 2**20} MB")
    with open(path, "rb") as fh:
        head = fh.read(8)
    if head.startswith(_OLE2):
        raise WorkbookError(f"{path.name} is {_ole2_kind(head, path)}")
    if not head.startswith(b"PK"):
        raise WorkbookError(f"{path.name} is not an .xlsx workbook (not a zip package)")
    try:
        with ZipFile(path) as zf:
            listed = zf.namelist()
            names = set(listed)
            if len(names) != len(listed):
                seen: set[str] = set()
                twice = next(n for n in listed if n in seen or seen.add(n))
                raise WorkbookError(f"{path.name} holds the part {twice} twice, which Excel "
                                    "refuses as a damaged package: save it from Excel again")
            _check_declared_sizes(zf, path.name)
            if "mimetype" in names and b"opendocument" in _head(zf, "mimetype"):
                raise WorkbookError(f"{path.name} is an OpenDocument spreadsheet (.ods), not "
                                    ".xlsx: save it as .xlsx first")
            if "[Content_Types].xml" not in names or not any(
                    n.startswith("xl/worksheets/") for n in names):
                raise WorkbookError(f"{path.name} is a zip file but not an .xlsx workbook "
                                    "(no [Content_Types].xml or no worksheets)")
            for info in zf.infolist():
                if info.compress_type not in (ZIP_STORED, ZIP_DEFLATED):
                    method = _ZIP_METHODS.get(info.compress_type,
                                              f"method {info.compress_type}")
                    raise WorkbookError(
                        f"{path.name}: the part {info.filename} is compressed with {method}, "
                        "which Excel cannot read (workbooks use deflate): save it from "
                        "Excel or LibreOffice again")
            _check_inflated_sizes(zf, path)
            _inflate_all(zf, path.name)
            _check_relationships(zf, path.name)
    except (BadZipFile, LargeZipFile, EOFError, zlib.error) as e:
        raise WorkbookError(f"{path.name} is damaged or truncated ({e})") from None
    except NotImplementedError as e:  # an unsupported compression method
        raise WorkbookError(f"{path.name}: {e}") from None


class _Part:
    """One XML part, parsed as it is inflated: expat (C) with defusedxml's handlers, so a
    DTD, an entity declaration or an external reference stops it in any encoding.
    Worksheets (UTF-8, comments/CDATA/PIs refused, so the text of every tag is plain)
    are counted by scanning whole tags; shared strings by the parser's element events."""

    _CELL = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c[\s>/]")
    #: a cell element with no content (``<c r="B7" s="3"/>``: a format Excel keeps for an
    #: empty cell), which the reader passes over (``xlsx_values.read_cells``): not counted
    _EMPTY_CELL = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c(?:\s[^>]*)?/>")
    _FORMULA = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?f[\s>/]")
    _ARRAY = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?f\s[^>]*>")
    # the same without a namespace prefix: a literal start, which the regex engine finds
    # without trying the prefix at every "<"
    _CELL_UNPREFIXED = re.compile(rb"<c[\s>/]")
    _FORMULA_UNPREFIXED = re.compile(rb"<f[\s>/]")
    _EMPTY_CELL_UNPREFIXED = re.compile(rb"<c(?:\s[^>]*)?/>")
    _T_ARRAY = re.compile(rb"""\st\s*=\s*["']array["']""")
    _REF = re.compile(rb"""\sref\s*=\s*["']([^"']*)["']""")

    def __init__(self, name: str, part: str, kind: str, counts: dict):
        # defusedxml's handlers, from its ElementTree module (which the engine imports
        # anyway): its SAX module holds the same ones but imports urllib.request and
        # http.client, at every start
        from defusedxml.ElementTree import DefusedXMLParser

        self.name, self.part, self.kind, self.counts = name, part, kind, counts
        defused = DefusedXMLParser(forbid_dtd=True, forbid_entities=True,
                                   forbid_external=True)
        px = expat.ParserCreate()
        px.StartDoctypeDeclHandler = defused.defused_start_doctype_decl
        px.EntityDeclHandler = defused.defused_entity_decl
        px.UnparsedEntityDeclHandler = defused.defused_unparsed_entity_decl
        px.ExternalEntityRefHandler = defused.defused_external_entity_ref_handler
        if kind == "sheet":
            px.CommentHandler = lambda _: self._refuse("an XML comment")
            px.StartCdataSectionHandler = lambda: self._refuse("a CDATA section")
            px.ProcessingInstructionHandler = lambda *_: self._refuse(
                "a processing instruction")
        elif kind == "sst":
            px.StartElementHandler = self._sst_element
        self.px, self.carry = px, []

    def feed(self, chunk: bytes | None) -> None:
        try:
            if chunk is None:
                self.px.Parse(b"", True)
            else:
                self.px.Parse(chunk, False)
        except DefusedXmlException:
            raise WorkbookError(f"{self.name}: {self.part} declares a DTD or entities, which "
                                "no .xlsx part has (XML entity expansion): napkin does not "
                                "read it") from None
        except ValueError as e:  # an encoding expat cannot read ("multi-byte ...")
            raise WorkbookError(f"{self.name}: {self.part} is in an encoding napkin cannot "
                                f"read ({e}): save it from Excel again, which writes UTF-8") \
                from None
        except expat.ExpatError as e:
            raise WorkbookError(
                f"{self.name}: {self.part} is not well-formed XML ({expat.ErrorString(e.code)}"
                f" at line {e.lineno}, column {e.offset}): the file is damaged; open it in "
                "Excel and save it again") from None
        if self.kind == "sheet":
            self._scan(chunk)

    def _scan(self, chunk: bytes | None) -> None:
        """Count cells and the cells array formulas fill, over whole tags only: a tag cut
        by the chunk's end waits, in pieces, for the chunk that ends it. The chunk has
        been parsed, so ``<`` only opens a tag, and a tag holds no ``<``."""
        if chunk is not None and self.carry and b">" not in chunk:
            self.carry.append(chunk)  # the open tag goes on through this chunk
            return
        window = b"".join(self.carry) + (chunk or b"")
        cut = window.rfind(b"<")
        if chunk is not None and cut >= 0 and window.find(b">", cut) < 0:
            done, self.carry = window[:cut], [window[cut:]]
        else:
            done, self.carry = window, []
        if cut < 0:  # text only
            return
        prefixed = b":c" in done
        cell = self._CELL if prefixed else self._CELL_UNPREFIXED
        empty = self._EMPTY_CELL if prefixed else self._EMPTY_CELL_UNPREFIXED
        self._add(len(cell.findall(done)) - len(empty.findall(done)), "")
        if b"<f" in done or b":f" in done:
            formula = self._FORMULA if b":f" in done else self._FORMULA_UNPREFIXED
            self._add_formulas(len(formula.findall(done)))
        if b"array" not in done:  # no tag with t="array"
            return
        for m in self._ARRAY.finditer(done):
            tag = m.group(0)
            ref = self._REF.search(tag)
            if ref and self._T_ARRAY.search(tag):
                self._array(ref.group(1).decode("ascii", "replace"))

    def _array(self, ref: str) -> None:
        from addin.ooxml.xlsx_values import parse_area

        try:
            r1, c1, r2, c2 = parse_area(ref)
        except ValueError:
            return  # the engine computes a bad range as the one cell
        n = (r2 - r1 + 1) * (c2 - c1 + 1)
        self._add(n - 1, f" (an array formula fills {ref}: {n:,} cells)")

    def _add(self, n: int, what: str) -> None:
        self.counts["cells"] += n
        if self.counts["cells"] > MAX_CELLS:
            raise WorkbookError(
                f"{self.name} has more than {MAX_CELLS:,} cells to compute in {self.part}"
                f"{what}; napkin computes workbooks up to {MAX_CELLS:,} cells")

    def _add_formulas(self, n: int) -> None:
        self.counts["formulas"] += n
        if self.counts["formulas"] > MAX_FORMULAS:
            raise WorkbookError(
                f"{self.name} has more than {MAX_FORMULAS:,} formulas to compute in "
                f"{self.part}; napkin computes workbooks up to {MAX_FORMULAS:,} formulas "
                f"(and {MAX_CELLS:,} cells): split it into smaller workbooks")

    def _sst_element(self, tag, attrs):
        if tag == "si" or tag.endswith((":si", "}si")):
            self.counts["strings"] += 1
            if self.counts["strings"] > MAX_SHARED_STRINGS:
                raise WorkbookError(
                    f"{self.name} has more than {MAX_SHARED_STRINGS:,} shared strings "
                    f"({self.part}); napkin reads workbooks with up to that many")

    def _refuse(self, what: str) -> None:
        raise WorkbookError(
            f"{self.name}: the worksheet {self.part} holds {what}, which Excel never writes "
            "and napkin will not edit around: open it in Excel and save it again")


def _encoding(head: bytes) -> str:
    """The encoding of an XML part from its first bytes (XML 1.0, appendix F)."""
    if head.startswith((b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00", b"\x00\x00\x00<",
                        b"<\x00\x00\x00")):
        return "UTF-32"
    if head.startswith((b"\xfe\xff", b"\xff\xfe", b"\x00<", b"<\x00")):
        return "UTF-16"
    m = re.match(rb'(?:\xef\xbb\xbf)?<\?xml[^>]*?encoding\s*=\s*["\']([\w.:-]+)', head)
    return m.group(1).decode("ascii").upper() if m else "UTF-8"


def _too_large(name: str, part: str) -> WorkbookError:
    return WorkbookError(f"{name} inflates past {MAX_PART_BYTES // 2**20} MB in {part} (a "
                         "zip bomb, or far larger than napkin handles)")


def _head(zf: ZipFile, part: str, size: int = 200) -> bytes:
    """The first ``size`` bytes of ``part``, inflating no more than it takes."""
    with zf.open(part) as fh:
        return fh.read(size)


def _check_declared_sizes(zf: ZipFile, name: str) -> None:
    """Refuse a part whose size in the zip's central directory is past
    ``MAX_PART_BYTES``, or parts whose sizes add up past ``MAX_TOTAL_BYTES``,
    before anything is inflated."""
    total = 0
    for info in zf.infolist():
        total += info.file_size
        if info.file_size > MAX_PART_BYTES or total > MAX_TOTAL_BYTES:
            raise _too_large(name, info.filename)


def _check_inflated_sizes(zf: ZipFile, path: Path) -> None:
    """Inflate every deflated part without parsing it, counting the bytes it really
    inflates to, and refuse it as soon as the count passes ``MAX_PART_BYTES``, or the
    count over all parts ``MAX_TOTAL_BYTES``: a part that declares less than it
    inflates to is stopped at the limit, before any part is parsed.

    The compressed bytes are read from the file itself (where the part's local header
    says they start), not through ``zipfile``, which stops at the declared size.
    Encrypted parts are left to ``zipfile``, which refuses them.
    """
    total = 0
    with open(path, "rb") as fh:
        for info in zf.infolist():
            if info.compress_type == ZIP_DEFLATED and not info.flag_bits & 1:
                total = _count_inflated(fh, info, total, path.name)


def _count_inflated(fh, info, total: int, name: str) -> int:
    """``total`` plus the bytes ``info``'s part inflates to, read from ``fh`` (the zip
    file) in steps of at most ``_COUNT_STEP`` inflated bytes; WorkbookError past a
    limit."""
    fh.seek(info.header_offset)
    header = fh.read(_LOCAL_HEADER.size)
    if len(header) != _LOCAL_HEADER.size:
        raise BadZipFile("Truncated file header")  # as zipfile says
    magic, name_len, extra_len = _LOCAL_HEADER.unpack(header)
    if magic != b"PK\x03\x04":
        raise BadZipFile("Bad magic number for file header")
    fh.seek(name_len + extra_len, os.SEEK_CUR)
    left, part = info.compress_size, 0
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    while left > 0 and not inflater.eof:
        data = fh.read(min(left, 1 << 16))
        if not data:
            break  # truncated: zipfile says so when the part is read
        left -= len(data)
        while data and not inflater.eof:
            n = len(inflater.decompress(data, _COUNT_STEP))
            part, total = part + n, total + n
            if part > MAX_PART_BYTES or total > MAX_TOTAL_BYTES:
                raise _too_large(name, info.filename)
            data = inflater.unconsumed_tail
    return total


def _inflate_all(zf: ZipFile, name: str) -> None:
    """Inflate every part in chunks and parse every XML part as it comes (defusedxml's
    handlers: no DTD, no entities), counting cells and strings. What is read is bounded
    by the sizes checked before: ``zipfile`` yields at most the size a part declares."""
    counts = {"cells": 0, "formulas": 0, "strings": 0}
    for info in zf.infolist():
        fname = info.filename
        is_vml = fname.endswith(".vml")  # legacy VML is not well-formed XML: text checks only
        is_xml = fname.endswith((".xml", ".rels"))
        kind = "sheet" if fname.startswith("xl/worksheets/") and is_xml else \
            "sst" if fname.endswith("sharedStrings.xml") else "other"
        parser = None
        with zf.open(info) as fh:
            first = True
            while chunk := fh.read(_CHUNK):
                if first and (is_xml or is_vml):
                    first = False
                    enc = _encoding(chunk[:200])
                    if enc == "UTF-32":
                        raise WorkbookError(
                            f"{name}: the part {fname} is encoded in UTF-32, which the Open "
                            "Packaging Conventions do not allow (UTF-8 or UTF-16): save it "
                            "from Excel again")
                    edited = kind == "sheet" or fname in _EDITED
                    if edited and enc not in ("UTF-8", "UTF8"):
                        what = "the worksheet" if kind == "sheet" else "the part"
                        raise WorkbookError(
                            f"{name}: {what} {fname} is encoded in {enc}; napkin edits "
                            "it as UTF-8, as Excel writes it: save it from Excel again")
                    if is_xml:
                        parser = _Part(name, fname, kind, counts)
                if is_vml and _DTD.search(chunk.decode("utf-8", "replace")):
                    raise WorkbookError(f"{name}: {fname} declares a DTD or entities, which "
                                        "no .xlsx part has (XML entity expansion)")
                if parser is not None:
                    parser.feed(chunk)
            if parser is not None:
                parser.feed(None)


def _check_relationships(zf: ZipFile, name: str) -> None:
    """Every sheet the workbook lists, and its shared strings, are parts of the package."""
    from addin.ooxml import xlsx_values as xv

    parts = zf.NameToInfo
    wb_path = xv.workbook_path(zf)
    if wb_path not in parts:
        raise WorkbookError(f"{name}: the workbook part {wb_path} is missing (the file is "
                            "damaged): save it from Excel again")
    rels = xv.read_rels(zf, wb_path)
    for typ, target in rels.values():
        if typ.endswith(("/worksheet", "/sharedStrings")) and target not in parts:
            what = "a worksheet" if typ.endswith("/worksheet") else "the shared strings"
            raise WorkbookError(f"{name}: the workbook points to {what} at {target}, which is "
                                "not in the file (it is damaged): save it from Excel again")
