"""The one writer of zip files: a changed copy of an .xlsx package, and new zips.

``write_parts`` writes a new zip from its parts, every entry deflated with one fixed
date, so that the same parts give the same bytes (the Lite bundle's ``udfs`` payload, the
template). ``rewrite`` writes a changed copy of an .xlsx package, atomically, leaving
every other part alone.

``napkin calc``, ``freeze``, ``unfreeze``, ``embed`` and ``template`` go through
``rewrite``: the parts of the source are copied in their order with their bytes
unchanged (only recompressed), except those replaced or removed; new parts are appended.
One more change is made to every file written: the workbook's ``<calcPr calcId>`` is
raised to the calculation-engine id that current Excel writes (``EXCEL_CALC_ID``),
because Excel recalculates every formula on open when a file says it was last calculated
by an older engine (openpyxl writes Excel 2007's 124519), and without napkin's add-in
that turns every napkin cell into ``#NAME?`` before the reader touches anything. The
values napkin writes are computed, so the file may say so. The result is written to a temporary
file beside ``dst``, synced, then renamed over it, so an interrupted run never leaves a
half-written file; ``src`` is only read. Never an openpyxl load-and-save, which drops
charts, images, VBA and add-in parts.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO
from zipfile import ZIP_DEFLATED, ZIP_STORED, ZipFile, ZipInfo

#: The calcId of current Excel (Microsoft 365): what Excel writes in ``<calcPr>`` when it
#: saves a workbook, as in workbooks saved by Excel 365 with xlwings Lite in 2025.
EXCEL_CALC_ID = 191029

#: The date of a part ``rewrite`` adds: the earliest a zip entry can carry (MS-DOS time).
ADDED_PART_TIME = (1980, 1, 1, 0, 0, 0)

_CALCPR_RE = re.compile(
    r"<(?P<p>(?:[A-Za-z_][\w.-]*:)?)calcPr(?=[\s/>])(?P<attrs>[^>]*?)(?P<end>/?>)")
_CALCID_RE = re.compile(r'\scalcId\s*=\s*(["\'])(?P<v>[^"\']*)\1')
#: CT_Workbook's children that come before calcPr (ECMA-376 Part 1, 18.2.28), last first.
_BEFORE_CALCPR = ("definedNames", "externalReferences", "functionGroups", "sheets")


def stamp_calc_id(workbook_xml: str, calc_id: int = EXCEL_CALC_ID) -> str:
    """``workbook_xml`` with ``<calcPr calcId>`` at least ``calc_id`` (a higher one is
    kept; ``fullCalcOnLoad`` and every other attribute are left as they are)."""
    m = _CALCPR_RE.search(workbook_xml)
    if m:
        attrs = m.group("attrs")
        c = _CALCID_RE.search(attrs)
        if c:
            if c.group("v").isdigit() and int(c.group("v")) >= calc_id:
                return workbook_xml
            attrs = attrs[:c.start()] + f' calcId="{calc_id}"' + attrs[c.end():]
        else:
            attrs = f' calcId="{calc_id}"' + attrs
        tag = f"<{m.group('p')}calcPr{attrs}{m.group('end')}"
        return workbook_xml[:m.start()] + tag + workbook_xml[m.end():]
    for name in _BEFORE_CALCPR:
        closing = list(re.finditer(r"</(?P<p>(?:[A-Za-z_][\w.-]*:)?)" + name + ">",
                                   workbook_xml))
        if closing:
            e = closing[-1]
            return (workbook_xml[:e.end()] + f'<{e.group("p")}calcPr calcId="{calc_id}"/>'
                    + workbook_xml[e.end():])
    return workbook_xml


def _entry(name: str, date_time: tuple[int, ...], mode: int) -> ZipInfo:
    """The header of a deflated entry ``name`` dated ``date_time``, with Unix mode ``mode``."""
    info = ZipInfo(name, date_time=date_time)
    info.compress_type = ZIP_DEFLATED
    info.external_attr = mode << 16
    return info


def write_parts(file: str | os.PathLike | BinaryIO, parts: Iterable[tuple[str, bytes]],
                date_time: tuple[int, ...], mode: int = 0o600) -> None:
    """Write a new zip of ``parts`` to ``file``.

    Parameters
    ----------
    file : path or binary file object
        Where the zip is written (a path is created or truncated).
    parts : iterable of (str, bytes)
        The entries' names and contents, in the order they are written.
    date_time : tuple of int
        (year, month, day, hour, minute, second): the date of every entry.
    mode : int
        The Unix permission bits of every entry.

    Every entry is deflated at zlib's default level, so the same parts, date and mode
    give the same bytes.
    """
    with ZipFile(file, "w", ZIP_DEFLATED) as out:
        for name, data in parts:
            out.writestr(_entry(name, date_time, mode), data)


def workbook_part(zf: ZipFile) -> str | None:
    """The path of the workbook part (the package's officeDocument relationship)."""
    try:
        rels = zf.read("_rels/.rels").decode("utf-8")
    except KeyError:
        return None
    for rel in re.finditer(r"<(?:\w+:)?Relationship\b[^>]*>", rels):
        if re.search(r'Type="[^"]*/officeDocument"', rel.group(0)):
            t = re.search(r'Target="([^"]*)"', rel.group(0))
            if t:
                return t.group(1).lstrip("/")
    return None


def same_file(src: Path, dst: Path) -> bool:
    return (dst.exists() and src.exists() and os.path.samefile(src, dst)) or \
        src.resolve() == dst.resolve()


def rewrite(zf: ZipFile, src: Path, dst: Path, replace: dict[str, bytes] | None = None,
            remove: set[str] | frozenset = frozenset(), add: dict[str, bytes] | None = None,
            *, in_place: bool = False, backup: bool = True, stored: bool = False) -> None:
    """Write ``dst``: the parts of ``zf`` (opened on ``src``) with ``replace``d contents,
    without ``remove``d parts, plus ``add``ed ones (deflated, dated
    ``ADDED_PART_TIME``). ``dst == src`` needs ``in_place``
    (and then keeps ``<src>.bak`` when ``backup``). The workbook part's calcId is
    raised to ``EXCEL_CALC_ID`` (see the module's doc). ``stored``: every part written
    uncompressed (a copy napkin reads back once and drops: ``napkin native``'s probe)."""
    replace, add = dict(replace or {}), add or {}
    wb_part = workbook_part(zf)
    if wb_part and wb_part not in remove and wb_part in zf.NameToInfo:
        xml = replace.get(wb_part)
        text = (xml if xml is not None else zf.read(wb_part)).decode("utf-8")
        stamped = stamp_calc_id(text)
        if stamped != text:
            replace[wb_part] = stamped.encode("utf-8")
    same = same_file(src, dst)
    if same and not in_place:
        raise ValueError(f"refusing to overwrite the source workbook {src} (pass in_place=True)")
    shown = dst
    dst = Path(os.path.realpath(dst))  # a symbolic link: write its target, keep the link
    if dst.exists() and not dst.is_file():
        folder = dst.is_dir()
        raise OSError(errno.EISDIR if folder else errno.EINVAL,
                      "Is a folder" if folder else "Not a regular file", str(shown))
    if same:
        src = dst
    dst.parent.mkdir(parents=True, exist_ok=True)  # the CLI refuses a missing folder first
    # not mkstemp: its 0600 mode would stick to dst; "x" = created here, by us only
    tmp = dst.parent / f".{dst.name}.{secrets.token_hex(6)}.tmp"
    try:
        fh = open(tmp, "xb")
    except OSError as e:  # name the file asked for, not the temporary one
        raise OSError(e.errno, e.strerror, str(shown)) from None
    try:
        with fh:
            with ZipFile(fh, "w", ZIP_DEFLATED) as out:
                for info in zf.infolist():
                    if info.filename in remove:
                        continue
                    data = replace.get(info.filename)
                    if data is None:
                        data = zf.read(info)
                    zi = ZipInfo(info.filename, date_time=info.date_time)
                    zi.compress_type = ZIP_STORED if stored else info.compress_type
                    zi.external_attr = info.external_attr
                    zi.create_system = info.create_system
                    zi.comment = info.comment
                    out.writestr(zi, data)
                for name, data in add.items():
                    entry = _entry(name, ADDED_PART_TIME, 0)
                    if stored:
                        entry.compress_type = ZIP_STORED
                    out.writestr(entry, data)
            fh.flush()
            os.fsync(fh.fileno())
        if same:
            shutil.copymode(src, tmp)
            if backup:
                shutil.copy2(src, src.with_name(src.name + ".bak"))
        os.replace(tmp, dst)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError) and (e.filename is None or str(tmp) in (
                str(e.filename), str(e.filename2))):  # say OUT, not the temporary name
            raise OSError(e.errno, e.strerror, str(shown)) from None
        raise
