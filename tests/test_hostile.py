"""Hostile and broken files get a one-line error, fast, in bounded memory, and leave no
output behind. Each case runs ``napkin calc`` as a user would, in a
subprocess with a 20 s timeout and a 1.5 GB address-space limit (the stated bound)."""

import contextlib
import io
import resource
import subprocess
import sys
import zipfile

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from addin import cli

MEMORY_LIMIT = 1536 * 2**20  # address space of the napkin process (numpy, scipy included)


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def napkin_calc(src, dst):
    return subprocess.run([sys.executable, "-m", "addin.cli", "calc", str(src), "-o", str(dst)],
                          capture_output=True, text=True, timeout=20, preexec_fn=_limit_memory)


def good_workbook(path, formulas=("=RIDGE(989,3.35)",)):
    wb = openpyxl.Workbook()
    for i, f in enumerate(formulas, start=1):
        wb.active.cell(i, 1, f)
    wb.save(path)
    return path


def refused(tmp_path, src, *words):
    dst = tmp_path / "out.xlsx"
    r = napkin_calc(src, dst)
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr  # one line, no traceback
    for w in words:
        assert w in lines[0], lines[0]
    assert not dst.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.xlsx")]  # no temp
    return lines[0]


def test_a_good_workbook_is_computed(tmp_path):
    r = napkin_calc(good_workbook(tmp_path / "ok.xlsx"), tmp_path / "out.xlsx")
    assert r.returncode == 0, r.stderr


def test_not_a_zip(tmp_path):
    src = tmp_path / "book.xlsx"
    src.write_text("name,value\nH100,3.35\n")
    refused(tmp_path, src, "not an .xlsx workbook")


def test_truncated_zip(tmp_path):
    data = good_workbook(tmp_path / "ok.xlsx").read_bytes()
    src = tmp_path / "book.xlsx"
    src.write_bytes(data[: len(data) // 2])
    refused(tmp_path, src, "damaged or truncated")


def test_zip_bomb(tmp_path):
    # A sheet that inflates to 256 MB of blanks from a ~250 KB file; the header claims it.
    src = good_workbook(tmp_path / "book.xlsx")
    with zipfile.ZipFile(src, "a", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("xl/worksheets/sheet2.xml", "w", force_zip64=True) as fh:
            block = b" " * (1 << 20)
            for _ in range(256):
                fh.write(block)
    assert src.stat().st_size < 2 * 2**20
    refused(tmp_path, src, "zip bomb")


def test_xml_entity_expansion(tmp_path):
    laughs = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
              + "".join(f'<!ENTITY lol{i} "{"&lol%s;" % (i - 1 if i > 1 else "") * 10}">'
                        for i in range(1, 10))
              + ']><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/'
              'main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is>'
              "</c></row></sheetData></worksheet>")
    src = _replace_part(good_workbook(tmp_path / "book.xlsx"), "xl/worksheets/sheet1.xml",
                        laughs.encode())
    refused(tmp_path, src, "entity")


def test_a_million_rows(tmp_path):
    src = good_workbook(tmp_path / "book.xlsx")
    body = io.BytesIO()
    body.write(b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
               b"<sheetData>")
    for r in range(1, 1_000_001):
        body.write(b'<row r="%d"><c r="A%d"><v>1</v></c></row>' % (r, r))
    body.write(b"</sheetData></worksheet>")
    src = _replace_part(src, "xl/worksheets/sheet1.xml", body.getvalue())
    refused(tmp_path, src, "more than 300,000 cells")


def test_circular_references(tmp_path):
    src = good_workbook(tmp_path / "book.xlsx", ["=A2+1", "=A1*2", "=RIDGE(989,3.35)"])
    refused(tmp_path, src, "circular reference", "Sheet!A1", "Sheet!A2")


def test_unknown_function(tmp_path):
    src = good_workbook(tmp_path / "book.xlsx", ["=RIDGE(989,3.35)", "=RIGDE(989,3.35)"])
    refused(tmp_path, src, "unknown function RIGDE()", "Sheet!A2")


def test_encrypted_workbook(tmp_path):
    msoffcrypto = pytest.importorskip("msoffcrypto")
    from msoffcrypto.format.ooxml import OOXMLFile

    plain = good_workbook(tmp_path / "plain.xlsx")
    src = tmp_path / "book.xlsx"
    with open(plain, "rb") as fin, open(src, "wb") as fout:
        OOXMLFile(fin).encrypt("secret", fout)
    assert msoffcrypto.OfficeFile(open(src, "rb")).is_encrypted()
    refused(tmp_path, src, "password-protected")


def test_xls_named_xlsx(tmp_path):
    # The first bytes of every OLE2 compound file (.xls, .doc): a legacy workbook.
    src = tmp_path / "book.xlsx"
    src.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504 + "Workbook".encode(
        "utf-16-le") + b"\0" * 1024)
    refused(tmp_path, src, ".xls")


def test_ods_named_xlsx(tmp_path):
    src = tmp_path / "book.xlsx"
    with zipfile.ZipFile(src, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("content.xml", "<office:document-content/>")
    refused(tmp_path, src, "OpenDocument")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=8))
def test_corrupted_bytes_never_crash(tmp_path_factory, edits):
    """Random byte edits of a real workbook: computed, or refused in one line; never a
    traceback (in-process, through the CLI's entry point)."""
    d = tmp_path_factory.mktemp("corrupt")
    data = bytearray(good_workbook(d / "ok.xlsx", ["=RIDGE(989,3.35)", "=A1*2"]).read_bytes())
    for pos, byte in edits:
        data[pos % len(data)] = byte
    src, dst = d / "book.xlsx", d / "out.xlsx"
    src.write_bytes(bytes(data))
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = cli.main(["calc", str(src), "-o", str(dst)])
    assert rc in (0, 1)
    if rc == 1:
        assert len(err.getvalue().strip().splitlines()) == 1 and not dst.exists()


def _replace_part(path, name, data):
    out = path.with_name("edited.xlsx")
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info, data if info.filename == name else zin.read(info))
    return out
