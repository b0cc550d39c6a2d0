"""``napkin bench --only hostile``: hostile packages refused at once.

Target: each package below refused in ≤ 1 s of CPU (user and system time, computed in
this process as ``napkin calc`` computes it), with the sentence of a zip bomb and no
output file (``tests/test_hostile.py`` runs the command on them: exit status 1):

- **declared past the limits**: a 3 MB zip whose worksheet part inflates to 3 GB of
  blanks inside ``<sheetData>``, and whose zip headers say so (3 GB against the 200 MB a
  part may have);
- **a part that lies**: the same 3 GB part, its zip directory declaring 200 MB (the most
  a part may declare), so that nothing but inflating it shows the lie.

The packages are written by hand (``write_zip``), the sizes in their zip headers those
given; the deflate stream of the blanks is one compressed megabyte repeated, so writing
them compresses a megabyte, not gigabytes.
"""

from __future__ import annotations

import struct
import time
import zlib
from pathlib import Path

_MB = 2**20
#: the part made hostile (not listed by the workbook), and how it begins: blanks inside
#: a worksheet's element are text, which the parser takes in whatever amount
BOMB_PART = "xl/worksheets/sheet2.xml"
BOMB_HEAD = (b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
             b"<sheetData>")


def blanks_deflated(megabytes: int, head: bytes = b"") -> tuple[bytes, int]:
    """(raw deflate stream, CRC-32) of ``head`` then ``megabytes`` MiB of blanks (b" ").

    Each megabyte is compressed after a full flush, which resets the compressor's
    dictionary, so the compressed megabyte is the same every time and is repeated rather
    than compressed ``megabytes`` times (about 1 KB per MiB: deflate's longest match is
    258 bytes, so its ratio is at most about 1,032 to 1).
    """
    block = b" " * _MB
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = co.compress(head + block) + co.flush(zlib.Z_FULL_FLUSH)
    again = co.compress(block) + co.flush(zlib.Z_FULL_FLUSH)
    crc = zlib.crc32(head)
    for _ in range(megabytes):
        crc = zlib.crc32(block, crc)
    return first + again * (megabytes - 1) + co.flush(), crc


def write_zip(path: Path, parts: list[tuple[str, bytes, int, int]]) -> Path:
    """Write a zip of deflated ``parts``, each (name, raw deflate stream, CRC-32, declared
    size): the size written in its local header and in the central directory is the one
    given, whatever the stream inflates to (APPNOTE.TXT 4.3.7 and 4.3.12; sizes below
    4 GiB, so no Zip64 records)."""
    body, directory = bytearray(), bytearray()
    for name, data, crc, declared in parts:
        raw = name.encode()
        fields = struct.pack("<HHHHHIIIHH", 20, 0, 8, 0, 0x21, crc, len(data), declared,
                             len(raw), 0)
        directory += (b"PK\x01\x02" + struct.pack("<H", 20) + fields
                      + struct.pack("<HHHII", 0, 0, 0, 0, len(body)) + raw)
        body += b"PK\x03\x04" + fields + raw + data
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(parts), len(parts),
                      len(directory), len(body), 0)
    path.write_bytes(bytes(body + directory + end))
    return path


def crafted_workbook(path: Path, parts: list[tuple[str, int, int]],
                     head: bytes = b"") -> Path:
    """A one-sheet workbook (``=RIDGE(989,3.35)`` in A1) plus ``parts``, each (name, MiB
    of blanks it inflates to after ``head``, size it declares), not listed by the
    workbook."""
    import io
    import zipfile

    import openpyxl

    wb = openpyxl.Workbook()
    wb.active["A1"] = "=RIDGE(989,3.35)"
    buf = io.BytesIO()
    wb.save(buf)
    good = []
    with zipfile.ZipFile(buf) as zf:
        for info in zf.infolist():
            data = zf.read(info)
            co = zlib.compressobj(9, zlib.DEFLATED, -15)
            good.append((info.filename, co.compress(data) + co.flush(), zlib.crc32(data),
                         len(data)))
    return write_zip(path, good + [(name, *blanks_deflated(mb, head), declared)
                                   for name, mb, declared in parts])


def refusal(src: Path, dst: Path) -> tuple[str | None, float]:
    """(the refusal's sentence, or None if ``src`` was computed; CPU seconds) of computing
    ``src`` into ``dst`` in this process, as ``napkin calc`` does (``calc_workbook``; the
    command prints the sentence of an ``addin.ooxml.guard.WorkbookError`` and exits
    with status 1). CPU is user plus system time (``time.process_time``)."""
    from addin.engine.api import calc_workbook
    from addin.ooxml.guard import WorkbookError

    t = time.process_time()
    try:
        calc_workbook(src, dst)
        said = None
    except WorkbookError as e:
        said = str(e)
    return said, time.process_time() - t


def bench_hostile(rep) -> None:
    """Add the figures of target 4 to ``rep`` (a ``addin.cli.bench.Report``)."""
    import tempfile

    from addin.ooxml import guard

    limit = guard.MAX_PART_BYTES
    sentence = f"inflates past {limit // _MB} MB in {BOMB_PART} (a zip bomb"
    cases = [("3 GB declared", 3 * 1024 * _MB),
             (f"{limit // _MB} MB declared, 3 GB inflated", limit)]
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        out = d / "out.xlsx"
        refusal(crafted_workbook(d / "warm.xlsx", [(BOMB_PART, 1, 3 * _MB)]), out)  # imports
        for what, declared in cases:
            src = crafted_workbook(d / "bomb.xlsx", [(BOMB_PART, 3 * 1024, declared)],
                                   BOMB_HEAD)
            said, cpu = refusal(src, out)
            ok = said is not None and sentence in said and not out.exists()
            rep.add(f"8. hostile package refused: {what}", cpu, "s", None, "≤ 1 s CPU",
                    ok and cpu <= 1.0, None,
                    f"{src.stat().st_size / _MB:.1f} MB zip; CPU (user + system) in this "
                    f"process; {'the' if ok else 'NOT the'} sentence: {said}")
