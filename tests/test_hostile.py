"""Hostile and broken files get a one-line error, fast, in bounded memory, and leave no
output behind. Each case runs ``napkin calc`` as a user would, in a
subprocess with a 20 s timeout and a 1.5 GB address-space limit (the stated bound)."""

import contextlib
import io
import resource
import struct
import subprocess
import sys
import zipfile

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from addin import cli
from addin.cli import bench_hostile
from addin.ooxml import guard

# reads or writes workbook XML: .ci/run runs it again with openpyxl's lxml off
pytestmark = pytest.mark.xml

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
    # A sheet that inflates to 256 MB of blanks from a ~250 KB file; its headers say so.
    src = good_workbook(tmp_path / "book.xlsx")
    with zipfile.ZipFile(src, "a", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("xl/worksheets/sheet2.xml", "w", force_zip64=True) as fh:
            block = b" " * (1 << 20)
            for _ in range(256):
                fh.write(block)
    assert src.stat().st_size < 2 * 2**20
    refused(tmp_path, src, "zip bomb")


BOMB_SENTENCE = "inflates past 200 MB in xl/worksheets/sheet2.xml (a zip bomb"


def _crafted(tmp_path, parts):
    """A good workbook plus ``parts``, each (name, MiB of blanks it inflates to, size its
    headers declare)."""
    src = bench_hostile.crafted_workbook(tmp_path / "book.xlsx", parts)
    with zipfile.ZipFile(src) as zf:  # zipfile reads the declared sizes back
        assert [zf.getinfo(n).file_size for n, _, _ in parts] == [d for _, _, d in parts]
    return src


def test_a_declared_size_past_the_limit_is_refused_before_inflating(tmp_path):
    # The directory says 3 GB; the part's stream holds 1 MB of blanks. Inflating it would
    # find a part shorter than declared (damaged): the bomb sentence shows the declared
    # size alone refused it.
    src = _crafted(tmp_path, [("xl/worksheets/sheet2.xml", 1, 3 * 2**30)])
    assert src.stat().st_size < 20_000
    refused(tmp_path, src, BOMB_SENTENCE)


def test_a_part_inflating_past_the_limit_while_declaring_less(tmp_path):
    # 256 MB of blanks declaring 1 MB: zipfile would stop at 1 MB and call it damaged
    # (its CRC-32 is of the 256 MB); the count of what it inflates to stops it at 200 MB.
    src = _crafted(tmp_path, [("xl/worksheets/sheet2.xml", 256, 2**20)])
    refused(tmp_path, src, BOMB_SENTENCE)


def test_a_part_declaring_exactly_the_limit_and_inflating_past_it(tmp_path):
    src = _crafted(tmp_path, [("xl/worksheets/sheet2.xml", 256, 200 * 2**20)])
    refused(tmp_path, src, BOMB_SENTENCE)


def test_parts_declared_past_the_total_limit(tmp_path):
    # 150 + 150 MB declared are within the 400 MB of all parts; the third 150 is not
    parts = [(f"xl/media/blank{i}.bin", 1, 150 * 2**20) for i in (1, 2, 3)]
    refused(tmp_path, _crafted(tmp_path, parts), "inflates past 200 MB in "
            "xl/media/blank3.bin (a zip bomb")


def test_parts_inflating_past_the_total_limit_while_declaring_little(tmp_path):
    parts = [(f"xl/media/blank{i}.bin", 150, 2**20) for i in (1, 2, 3)]
    refused(tmp_path, _crafted(tmp_path, parts), "inflates past 200 MB in "
            "xl/media/blank3.bin (a zip bomb")


def test_a_part_whose_header_is_past_the_end_of_the_file(tmp_path):
    data = bytearray(good_workbook(tmp_path / "ok.xlsx").read_bytes())
    entry = data.rfind(b"PK\x01\x02")  # the last central directory entry
    struct.pack_into("<I", data, entry + 42, len(data) + 100)  # its local header's offset
    src = tmp_path / "book.xlsx"
    src.write_bytes(bytes(data))
    refused(tmp_path, src, "damaged or truncated (Truncated file header)")


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
    for r in range(1, 1_048_577):  # every row of a sheet, one cell each
        body.write(b'<row r="%d"><c r="A%d"><v>1</v></c></row>' % (r, r))
    body.write(b"</sheetData></worksheet>")
    src = _replace_part(src, "xl/worksheets/sheet1.xml", body.getvalue())
    assert guard.MAX_CELLS < 1_048_576
    refused(tmp_path, src, f"more than {guard.MAX_CELLS:,} cells")


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


# --------------------------------------------------------------------------- every encoding

NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
LAUGHS_DTD = ('<!DOCTYPE lolz [<!ENTITY lol "lol">'
              + "".join(f'<!ENTITY lol{i} "{"&lol%s;" % (i - 1 if i > 1 else "") * 10}">'
                        for i in range(1, 10)) + "]>")


SST_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
SST_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"


def labelled_workbook(path):
    """A workbook with a shared string (the label "ridge" in A1) and a formula in B1, as
    Excel writes it (openpyxl writes its strings inline: the shared strings part, its
    relationship and content type are added here)."""
    wb = openpyxl.Workbook()
    wb.active["B1"] = "=RIDGE(989,3.35)"
    wb.save(path)
    sst = (f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{NS_MAIN}" count="1" '
           'uniqueCount="1"><si><t>ridge</t></si></sst>').encode()
    out = path.with_name("labelled.xlsx")
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b'<c r="B1">', b'<c r="A1" t="s"><v>0</v></c><c r="B1">')
            elif info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", f'<Relationship Id="rIdS" Type="'
                                    f'{SST_REL}" Target="sharedStrings.xml"/></Relationships>'
                                    .encode())
            elif info.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", f'<Override PartName="/xl/sharedStrings.xml"'
                                    f' ContentType="{SST_TYPE}"/></Types>'.encode())
            zout.writestr(info, data)
        zout.writestr("xl/sharedStrings.xml", sst)
    out.replace(path)
    return path


def _body(text: str) -> str:
    return text.split("?>", 1)[1] if text.startswith("<?xml") else text


def _encoded(text: str, encoding: str) -> bytes:
    """XML text in ``encoding`` with its declaration (and the BOM Python's codec writes)."""
    return (f'<?xml version="1.0" encoding="{encoding.upper()}"?>' + text).encode(encoding)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-16-le", "utf-16-be"])
def test_entities_in_shared_strings_refused_in_every_encoding(tmp_path, encoding):
    src = labelled_workbook(tmp_path / "book.xlsx")
    sst = (LAUGHS_DTD + f'<sst xmlns="{NS_MAIN}" count="1" uniqueCount="1"><si><t>&lol9;</t>'
           "</si></sst>")
    data = _encoded(sst, encoding)
    if encoding in ("utf-16-le", "utf-16-be"):  # declared UTF-16, byte order from the BOM
        bom = b"\xff\xfe" if encoding.endswith("le") else b"\xfe\xff"
        data = bom + ('<?xml version="1.0" encoding="UTF-16"?>' + sst).encode(encoding)
    src = _replace_part(src, "xl/sharedStrings.xml", data)
    assert b"<!DOCTYPE" not in data or encoding == "utf-8"  # the raw bytes hide it
    refused(tmp_path, src, "xl/sharedStrings.xml declares a DTD or entities")


@pytest.mark.parametrize("part", ["_rels/.rels", "docProps/core.xml", "docProps/app.xml",
                                  "xl/styles.xml", "xl/theme/theme1.xml"])
def test_a_dtd_in_any_utf16_part_is_refused(tmp_path, part):
    src = labelled_workbook(tmp_path / "book.xlsx")
    with zipfile.ZipFile(src) as z:
        text = _body(z.read(part).decode("utf-8"))
    src = _replace_part(src, part, _encoded('<!DOCTYPE x [<!ENTITY e "e">]>' + text, "utf-16"))
    refused(tmp_path, src, f"{part} declares a DTD or entities")


def test_utf16_shared_strings_without_a_dtd_are_read(tmp_path):
    """UTF-16 is allowed by the Open Packaging Conventions: the shared strings in UTF-16
    are read as in UTF-8."""
    src = labelled_workbook(tmp_path / "book.xlsx")
    with zipfile.ZipFile(src) as z:
        text = _body(z.read("xl/sharedStrings.xml").decode("utf-8"))
    src = _replace_part(src, "xl/sharedStrings.xml", _encoded(text, "utf-16"))
    out = tmp_path / "out.xlsx"
    r = napkin_calc(src, out)
    assert r.returncode == 0, r.stderr
    ws = openpyxl.load_workbook(out, data_only=True).active
    assert ws["A1"].value == "ridge"
    assert ws["B1"].value == pytest.approx(989 / 3.35)  # RIDGE = peak / bandwidth


@pytest.mark.parametrize("part", ["xl/sharedStrings.xml", "xl/worksheets/sheet1.xml"])
def test_utf32_parts_are_refused(tmp_path, part):
    src = labelled_workbook(tmp_path / "book.xlsx")
    with zipfile.ZipFile(src) as z:
        text = _body(z.read(part).decode("utf-8"))
    src = _replace_part(src, part, _encoded(LAUGHS_DTD + text, "utf-32"))
    refused(tmp_path, src, part, "UTF-32", "UTF-8 or UTF-16")


@pytest.mark.parametrize("part", ["xl/worksheets/sheet1.xml", "xl/workbook.xml"])
def test_a_utf16_part_napkin_edits_is_refused_with_the_fix(tmp_path, part):
    src = labelled_workbook(tmp_path / "book.xlsx")
    with zipfile.ZipFile(src) as z:
        text = _body(z.read(part).decode("utf-8"))
    src = _replace_part(src, part, _encoded(text, "utf-16"))
    refused(tmp_path, src, f"{part} is encoded in UTF-16", "save it from Excel again")


# --------------------------------------------------------------------------- counted work


def _sheet(body: str) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{NS_MAIN}">'
            f"<sheetData>{body}</sheetData></worksheet>").encode()


def test_an_array_formula_over_the_whole_sheet(tmp_path):
    src = _replace_part(good_workbook(tmp_path / "book.xlsx"), "xl/worksheets/sheet1.xml",
                        _sheet('<row r="1"><c r="A1"><f t="array" ref="A1:XFD1048576">1</f>'
                               "</c></row>"))
    assert src.stat().st_size < 8000
    refused(tmp_path, src, "an array formula fills A1:XFD1048576: 17,179,869,184 cells",
            f"napkin computes workbooks up to {guard.MAX_CELLS:,} cells")


def test_many_array_formulas_counted_together(tmp_path):
    rows = "".join(f'<row r="{r}"><c r="A{r}"><f t="array" ref="A{r}:Z{r + 9999}">1</f></c>'
                   "</row>" for r in range(1, 200_000, 10_000))
    src = _replace_part(good_workbook(tmp_path / "book.xlsx"), "xl/worksheets/sheet1.xml",
                        _sheet(rows))
    assert 260_000 < guard.MAX_CELLS < 20 * 260_000  # refused by a later array
    refused(tmp_path, src, f"more than {guard.MAX_CELLS:,} cells", "260,000 cells")


ARRAY_TAG = '<f t="array" ref="B1:Z80000">'  # 25 columns by 80,000 rows: 2,000,000 cells
BEFORE_B1 = '<row r="1"><c r="A1"><v>1</v></c><c r="B1">'


@pytest.mark.parametrize("inside", [
    " " * 3 * 2**20 + ARRAY_TAG,  # 3 MB of blanks before the formula
    '<f t="array"' + " " * 3 * 2**20 + ' ref="B1:Z80000">',  # 3 MB inside its tag
    # the tag begins 10 bytes before the first megabyte ends (the guard reads a part a
    # megabyte at a time)
    " " * (2**20 - 10 - len(_sheet(BEFORE_B1).split(b"</sheetData>")[0])) + ARRAY_TAG,
], ids=["after a long text", "a tag over several chunks", "a tag cut by a chunk"])
def test_an_array_formula_is_counted_wherever_the_chunks_cut(tmp_path, inside):
    src = _replace_part(good_workbook(tmp_path / "book.xlsx"), "xl/worksheets/sheet1.xml",
                        _sheet(f"{BEFORE_B1}{inside}1</f></c></row>"))
    assert guard.MAX_CELLS < 2_000_000
    refused(tmp_path, src, "an array formula fills B1:Z80000: 2,000,000 cells")


def _prefixed_sheet(body: str) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8"?><x:worksheet xmlns:x="{NS_MAIN}">'
            f"<x:sheetData>{body}</x:sheetData></x:worksheet>").encode()


def test_cells_with_a_namespace_prefix_are_counted(tmp_path):
    cells = "".join(f'<x:c r="A{r}"><x:v>1</x:v></x:c>' for r in range(1, guard.MAX_CELLS + 2))
    src = _replace_part(good_workbook(tmp_path / "book.xlsx"), "xl/worksheets/sheet1.xml",
                        _prefixed_sheet(f'<x:row r="1">{cells}</x:row>'))
    refused(tmp_path, src, f"more than {guard.MAX_CELLS:,} cells")


def test_an_array_formula_with_a_namespace_prefix_is_counted(tmp_path):
    src = _replace_part(good_workbook(tmp_path / "book.xlsx"), "xl/worksheets/sheet1.xml",
                        _prefixed_sheet('<x:row r="1"><x:c r="B1"><x:f t="array" '
                                        'ref="B1:Z80000">1</x:f></x:c></x:row>'))
    refused(tmp_path, src, "an array formula fills B1:Z80000: 2,000,000 cells")


@pytest.mark.parametrize("prefix", ["", "x:"])
@pytest.mark.parametrize("shared", [False, True], ids=["written out", "shared"])
def test_too_many_formulas(tmp_path, prefix, shared):
    """Formula cells are counted (each cell of a shared formula, whose <f> is empty but
    for the first), and refused past the guard's MAX_FORMULAS though the cells are not
    past MAX_CELLS."""
    n = guard.MAX_FORMULAS + 1
    assert n < guard.MAX_CELLS
    p = prefix
    first = f'<{p}f t="shared" ref="A1:A{n}" si="0">1</{p}f>' if shared else f"<{p}f>1</{p}f>"
    rest = f'<{p}f t="shared" si="0"/>' if shared else f"<{p}f>1</{p}f>"
    cells = "".join(f'<{p}c r="A{r}">{first if r == 1 else rest}</{p}c>'
                    for r in range(1, n + 1))
    sheet = _prefixed_sheet(f'<x:row r="1">{cells}</x:row>') if prefix else \
        _sheet(f'<row r="1">{cells}</row>')
    src = _replace_part(good_workbook(tmp_path / "book.xlsx"), "xl/worksheets/sheet1.xml",
                        sheet)
    refused(tmp_path, src, f"more than {guard.MAX_FORMULAS:,} formulas", "sheet1.xml")


def test_too_many_shared_strings(tmp_path):
    src = labelled_workbook(tmp_path / "book.xlsx")
    sst = (f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{NS_MAIN}">'
           + "<si><t>a</t></si>" * (guard.MAX_SHARED_STRINGS + 1) + "</sst>").encode()
    src = _replace_part(src, "xl/sharedStrings.xml", sst)
    refused(tmp_path, src, f"more than {guard.MAX_SHARED_STRINGS:,} shared strings",
            "xl/sharedStrings.xml")


# --------------------------------------------------------------------------- package


def test_a_part_twice_in_the_zip(tmp_path):
    import warnings

    src = good_workbook(tmp_path / "book.xlsx")
    with warnings.catch_warnings(), zipfile.ZipFile(src, "a") as zf:
        warnings.simplefilter("ignore")  # zipfile warns, and writes it anyway
        zf.writestr("xl/worksheets/sheet1.xml", zipfile.ZipFile(src).read(
            "xl/worksheets/sheet1.xml"))
    refused(tmp_path, src, "holds the part xl/worksheets/sheet1.xml twice")


def test_a_bzip2_part(tmp_path):
    src = good_workbook(tmp_path / "book.xlsx")
    out = tmp_path / "bz.xlsx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            method = zipfile.ZIP_BZIP2 if info.filename.endswith("sheet1.xml") else \
                zipfile.ZIP_DEFLATED
            zout.writestr(info.filename, zin.read(info), compress_type=method)
    refused(tmp_path, out, "xl/worksheets/sheet1.xml is compressed with bzip2",
            "Excel cannot read")


@pytest.mark.parametrize("inside, what", [
    ("<!-- </row> -->", "an XML comment"),
    ("<![CDATA[<row/>]]>", "a CDATA section"),
    ("<?napkin x?>", "a processing instruction"),
])
def test_comments_and_cdata_in_sheet_data(tmp_path, inside, what):
    body = f'<row r="1"><c r="A1"><f>RIDGE(989,3.35)</f></c>{inside}</row>'
    src = _replace_part(good_workbook(tmp_path / "book.xlsx"), "xl/worksheets/sheet1.xml",
                        _sheet(body))
    refused(tmp_path, src, f"worksheet xl/worksheets/sheet1.xml holds {what}")


def test_a_sheet_whose_part_is_missing(tmp_path):
    src = good_workbook(tmp_path / "book.xlsx")
    out = tmp_path / "gone.xlsx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename == "xl/worksheets/sheet1.xml":
                zout.writestr("xl/worksheets/sheet9.xml", zin.read(info))
            else:
                zout.writestr(info, zin.read(info))
    refused(tmp_path, out, "points to a worksheet at xl/worksheets/sheet1.xml",
            "not in the file")


def test_xml_that_is_not_well_formed(tmp_path):
    src = _replace_part(good_workbook(tmp_path / "book.xlsx"), "xl/worksheets/sheet1.xml",
                        _sheet('<row r="1"><c r="A1"><v>1</v></row>'))
    refused(tmp_path, src, "xl/worksheets/sheet1.xml is not well-formed XML",
            "line 1", "open it in Excel and save it again")


# --------------------------------------------------------------------------- huge numbers


def test_integers_beyond_a_float_are_num_with_a_sentence(tmp_path):
    r = subprocess.run([sys.executable, "-m", "addin.cli", "eval", "=RIDGE(2^1100,3.35)",
                        "=2^1100"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == ""
    # Excel: =2^1100 is #NUM! (beyond 1.7976931348623157E+308, the largest double)
    assert r.stdout.splitlines() == [
        "#NUM! 2^1100 is beyond the largest number a cell holds (about 1.8E+308)"] * 2
    src = good_workbook(tmp_path / "book.xlsx", ["=RIDGE(2^1100,3.35)"])
    out = tmp_path / "out.xlsx"
    assert napkin_calc(src, out).returncode == 0
    assert openpyxl.load_workbook(out, data_only=True).active["A1"].value == "#NUM!"


@pytest.mark.parametrize("prefix", ["", "x:"])
def test_empty_cells_kept_for_their_format_are_not_counted(tmp_path, monkeypatch, prefix):
    """A cell element with no content (``<c r="B2" s="1"/>``, a format Excel keeps for an
    empty cell; the thirteenth held-out part's Financial Modelling.xlsx had 699,870 cell
    elements, of them 629 with a value) is passed over by the reader and not counted
    against MAX_CELLS; a cell holding a value is."""
    monkeypatch.setattr(guard, "MAX_CELLS", 10)
    p = prefix

    def sheet(values: int, empty: int) -> bytes:
        cells = "".join(f'<{p}c r="A{r}"><{p}v>1</{p}v></{p}c>' for r in range(1, values + 1))
        cells += "".join(f'<{p}c r="B{r}" s="0"/>' for r in range(1, empty + 1))
        row = f'<{p}row r="1">{cells}</{p}row>'
        return _prefixed_sheet(row) if prefix else _sheet(row)

    good = good_workbook(tmp_path / "book.xlsx")
    guard.check_package(_replace_part(good, "xl/worksheets/sheet1.xml", sheet(5, 100)))
    with pytest.raises(guard.WorkbookError, match="more than 10 cells"):
        guard.check_package(_replace_part(good, "xl/worksheets/sheet1.xml", sheet(11, 0)))


def test_a_sheet_of_empty_formatted_cells_past_the_limit_is_computed(tmp_path):
    # end to end, at the real limit: a formula and MAX_CELLS + 1 empty formatted cells
    n = guard.MAX_CELLS + 1
    rows = '<row r="1"><c r="A1"><f>1+1</f><v>2</v></c></row>' + "".join(
        f'<row r="{r}"><c r="B{r}" s="0"/></row>' for r in range(2, n + 2))
    src = _replace_part(good_workbook(tmp_path / "book.xlsx"), "xl/worksheets/sheet1.xml",
                        _sheet(rows))
    dst = tmp_path / "out.xlsx"
    r = napkin_calc(src, dst)
    assert r.returncode == 0, r.stderr
    assert openpyxl.load_workbook(dst, data_only=True).active["A1"].value == 2
