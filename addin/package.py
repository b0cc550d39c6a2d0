"""Write a changed copy of an .xlsx package, atomically, leaving every other part alone.

Both ``napkin calc`` and ``napkin freeze`` go through :func:`rewrite`: the parts of the
source are copied in their order with their bytes unchanged (only recompressed), except
those replaced or removed; new parts are appended. The result is written to a temporary
file beside ``dst``, synced, then renamed over it, so an interrupted run never leaves a
half-written file; ``src`` is only read. Never an openpyxl load-and-save, which drops
charts, images, VBA and add-in parts.
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
from pathlib import Path
from zipfile import ZIP_DEFLATED, ZipFile, ZipInfo


def same_file(src: Path, dst: Path) -> bool:
    return (dst.exists() and src.exists() and os.path.samefile(src, dst)) or \
        src.resolve() == dst.resolve()


def rewrite(zf: ZipFile, src: Path, dst: Path, replace: dict[str, bytes] | None = None,
            remove: set[str] | frozenset = frozenset(), add: dict[str, bytes] | None = None,
            *, in_place: bool = False, backup: bool = True) -> None:
    """Write ``dst``: the parts of ``zf`` (opened on ``src``) with ``replace``d contents,
    without ``remove``d parts, plus ``add``ed ones. ``dst == src`` needs ``in_place``
    (and then keeps ``<src>.bak`` when ``backup``)."""
    replace, add = replace or {}, add or {}
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
                    zi.compress_type = info.compress_type
                    zi.external_attr = info.external_attr
                    zi.create_system = info.create_system
                    zi.comment = info.comment
                    out.writestr(zi, data)
                for name, data in add.items():
                    out.writestr(ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data,
                                 compress_type=ZIP_DEFLATED)
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
