"""Refuse hostile and broken workbooks before the engine touches them.

``check_package(path)`` reads only what it must, with hard limits, and raises
:class:`WorkbookError` (a ``ValueError`` with a one-line message naming the problem) for:

=====================================  ===============================================
not a zip, or a truncated zip           "not an .xlsx workbook" / "damaged or truncated"
legacy .xls, encrypted workbook         recognised by their OLE2 header and streams
.ods (or another zip) named .xlsx       recognised by its ``mimetype`` / missing parts
zip bomb                                members are inflated in chunks and counted: the
                                        real size, not the size the header claims
XML with a DOCTYPE (entity expansion)   no part of an .xlsx has a DTD; any is refused
too many cells (a million-row sheet)    counted while inflating, before any parsing
=====================================  ===============================================

Limits (module constants, stated in the README): the file at most 100 MB, each part at
most 200 MB inflated and all parts 400 MB, and at most 300,000 cells in the workbook. With
these the engine's peak memory stays under about 1 GB even on a workbook at the limits;
workbooks people build for sizing are far below them.
"""

from __future__ import annotations

import os
import re
import stat
import zlib
from pathlib import Path
from zipfile import BadZipFile, LargeZipFile, ZipFile

MAX_FILE_BYTES = 100 * 2**20
MAX_PART_BYTES = 200 * 2**20
MAX_TOTAL_BYTES = 400 * 2**20
MAX_CELLS = 300_000
_CHUNK = 1 << 20

_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_DTD = re.compile(rb"<!DOCTYPE|<!ENTITY", re.IGNORECASE)
_CELL = re.compile(rb"<(?:\w+:)?c[ >/]")  # <c r=..>, or <x:c ..> with a namespace prefix


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
            names = set(zf.namelist())
            if "mimetype" in names and b"opendocument" in zf.read("mimetype")[:200]:
                raise WorkbookError(f"{path.name} is an OpenDocument spreadsheet (.ods), not "
                                    ".xlsx: save it as .xlsx first")
            if "[Content_Types].xml" not in names or not any(
                    n.startswith("xl/worksheets/") for n in names):
                raise WorkbookError(f"{path.name} is a zip file but not an .xlsx workbook "
                                    "(no [Content_Types].xml or no worksheets)")
            _inflate_all(zf, path.name)
    except (BadZipFile, LargeZipFile, EOFError, zlib.error) as e:
        raise WorkbookError(f"{path.name} is damaged or truncated ({e})") from None
    except NotImplementedError as e:  # an unsupported compression method
        raise WorkbookError(f"{path.name}: {e}") from None


def _inflate_all(zf: ZipFile, name: str) -> None:
    """Inflate every part in chunks, counting real bytes, DTDs and cells as we go."""
    total = cells = 0
    for info in zf.infolist():
        part = 0
        is_xml = info.filename.endswith((".xml", ".rels", ".vml"))
        is_sheet = info.filename.startswith("xl/worksheets/") and is_xml
        tail = b""
        with zf.open(info) as fh:
            while chunk := fh.read(_CHUNK):
                part += len(chunk)
                total += len(chunk)
                if part > MAX_PART_BYTES or total > MAX_TOTAL_BYTES:
                    raise WorkbookError(
                        f"{name} inflates past {MAX_PART_BYTES // 2**20} MB in "
                        f"{info.filename} (a zip bomb, or far larger than napkin handles)")
                window = tail + chunk
                if is_xml and _DTD.search(window):
                    raise WorkbookError(f"{name}: {info.filename} declares a DTD or entities, "
                                        "which no .xlsx part has (XML entity expansion)")
                if is_sheet:
                    cells += len(_CELL.findall(window)) - len(_CELL.findall(tail))
                    if cells > MAX_CELLS:
                        raise WorkbookError(
                            f"{name} has more than {MAX_CELLS:,} cells ({info.filename}); "
                            "napkin computes workbooks up to that size")
                tail = chunk[-16:]
