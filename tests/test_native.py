"""``napkin native``: napkin functions become Excel's own formulas, checked by a
spreadsheet engine that is not ours.

* every catalog function has a native form, a translation of its own, or a reason why
  not;
* the translation: constants with units folded at translation time, nested calls inside
  out, untranslatable cells listed and turned into values (``--strict`` refuses), the
  package rewritten losslessly (only formula text changes against ``napkin calc``);
* LibreOffice, through its UNO API (one ``soffice`` for the whole module), recalculates
  the native template, and edited copies of it, to ``napkin calc``'s numbers on the
  same edits of the original (1e-9 relative), with no new error cells; and a workbook of
  every catalog function on the reference values, with arguments in cells and as
  constants, and bad inputs, gives napkin's values and error codes.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
from reference_cases import REFERENCE
from xlsx_make import add_shared_ridge

from addin.formula.walk import Group, parse, render
from addin.ooxml.guard import WorkbookError
from addin.transform.native import native
from addin.transform.native.forms import NOT_TRANSLATABLE, SPECIAL, doc_table, forms
from udfs import CATALOG
from workbook.build import SIZING, build_template

# reads or writes workbook XML: .ci/run runs it again with openpyxl's lxml off
pytestmark = pytest.mark.xml

ROOT = Path(__file__).resolve().parents[1]
UNO_PYTHON = "/usr/bin/python3"


def napkin(*args, check=True):
    return subprocess.run([sys.executable, "-m", "addin.cli", *map(str, args)],
                          capture_output=True, text=True, check=check, cwd=ROOT)


def test_every_catalog_function_has_a_native_form_or_a_reason():
    from udfs.machinery.declare import DECLARATIONS

    for name in CATALOG:
        reason = NOT_TRANSLATABLE.get(name) or SPECIAL.get(name)
        assert name in forms() or reason, f"{name}: no native form and no reason"
        decl = DECLARATIONS[name]  # a native text, or a look-up in a built-in table
        assert (decl.native is not None or bool(decl.native_table)) == (name in forms()), name
        if name in forms():
            params = [p.name for p in forms()[name].params]
            code = CATALOG[name].__code__
            assert params == list(code.co_varnames[:code.co_argcount]), name
    assert set(forms()) | set(NOT_TRANSLATABLE) | set(SPECIAL) <= set(CATALOG)


def test_docs_list_every_function_as_declared():
    text = (ROOT / "docs" / "native.md").read_text("utf-8")
    assert text.endswith("## Per function\n\n" + doc_table()), \
        "docs/native.md is stale: run python -m tools.regenerate (or python -m " \
        "addin.transform.native.forms)"


# --------------------------------------------------------------------------- small books


def _book(tmp_path, rows, name="book.xlsx") -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    for r in rows:
        ws.append(r)
    path = tmp_path / name
    wb.save(path)
    return path


def test_constants_with_units_become_numbers_and_nested_calls_translate(tmp_path):
    src = _book(tmp_path, [
        ["=WEIGHT_GB(\"8.03B\",\"BF16\")", "=RIDGE(\"989 TFLOPS\",\"3.35 TB/s\")",
         "=FITS(WEIGHT_GB(70E+9,\"FP8\"),80)", "=SPEEDUP(20,16)*2"],
    ])
    r = native(src, tmp_path / "out.xlsx")
    assert sorted(r.translated) == ["S!A1", "S!B1", "S!C1", "S!D1"] and not r.frozen
    f = r.formulas
    assert f["S!A1"] == "8029999999.999999*2/1E9"  # "8.03B" read as napkin reads it
    assert f["S!B1"] == "989*1/3.35"
    assert f["S!C1"] == "ROUND((70000000000*1/1E9)/(80*(1-0)),11)<=1"
    assert f["S!D1"] == "(20/16)*2"


def test_untranslatable_cells_become_values_and_are_listed(tmp_path):
    src = _book(tmp_path, [
        [989, "3.35 TB/s", '=EXPLAIN("RIDGE",989,3.35)', "=RIDGE(A1,B1)", "=RIDGE(A1,3.35)"],
        [1, 2, "=WEIGHT_GB(A1:A2,\"BF16\")"],
    ])
    out = tmp_path / "out.xlsx"
    r = native(src, out)
    assert set(r.frozen) == {"S!C1", "S!D1", "S!C2"}
    assert "EXPLAIN" in r.frozen["S!C1"] and "B1 holds '3.35 TB/s'" in r.frozen["S!D1"]
    assert "range A1:A2" in r.frozen["S!C2"]
    assert r.translated == ["S!E1"]
    ws = openpyxl.load_workbook(out)["S"]
    assert ws["D1"].value == pytest.approx(989 / 3.35)  # a value now
    assert ws["E1"].value == "=IF(OR(ISBLANK(A1),ISTEXT(A1),ISLOGICAL(A1)),#VALUE!," \
                             "IF(A1<=0,#NUM!,A1*1/3.35))"
    with pytest.raises(WorkbookError, match=r"3 cells cannot be translated \(S!C1: EXPLAIN"):
        native(src, tmp_path / "strict.xlsx", strict=True)
    assert not (tmp_path / "strict.xlsx").exists()



def test_units_and_lookups_are_translated_from_their_declarations(tmp_path):
    # UNIT_CONVERT, TIME_FLOOR, GPU_SPEC and MODEL_SPEC declare their native forms
    # (udfs/functions/units.py, tables.py): the translator names no function. 16 GB is
    # 16E9 / 2^30 = 14.901... GiB (UNIT_CONVERT(1,"GB","GiB") = 0.931..., the factor);
    # 16E9 / 3.35E12 s = 4.776 ms
    from udfs.machinery.declare import DECLARATIONS

    source = (ROOT / "addin" / "transform" / "native" / "translate.py").read_text("utf-8")
    for name in ("UNIT_CONVERT", "TIME_FLOOR", "GPU_SPEC", "MODEL_SPEC"):
        assert name not in source, name
    assert forms()["GPU_SPEC"].lookup == DECLARATIONS["GPU_SPEC"].native_table == "gpus"
    assert [p.kind for p in forms()["UNIT_CONVERT"].params] == ["number", "factor", "factor"]
    assert [p.raw for p in forms()["TIME_FLOOR"].params] == [True, True, False]
    src = _book(tmp_path, [
        [16, "80 GiB", 16e9, "16 GB", "H100"],
        ['=UNIT_CONVERT(A1,"GB","GiB")', '=UNIT_CONVERT(B1,"GiB","GB")',
         '=TIME_FLOOR(C1,3.35E+12,"ms")', '=TIME_FLOOR(D1,"3.35 TB/s","ms")',
         '=GPU_SPEC(E1,"bandwidth")', '=UNIT_CONVERT(A1,A1,"GiB")', '=UNIT_CONVERT(16,"GB","GiB")'],
    ])
    r = native(src, tmp_path / "out.xlsx")
    assert sorted(r.translated) == ["S!A2", "S!C2", "S!E2", "S!G2"], r.frozen
    f = r.formulas
    assert f["S!A2"].endswith("A1*0.931322574615479)")  # 1E9 / 2^30, to 15 digits
    assert f["S!C2"].endswith("IF(C1<0,#NUM!,(C1/3350000000000)*1000))")  # ms
    assert "INDEX(" in f["S!E2"] and "MATCH(E1," in f["S!E2"]
    assert float(f["S!G2"]) == pytest.approx(14.901161193847656)  # constants: the value
    # text with units in a number's place, and units from a cell, stay values
    assert "B1 holds text with units" in r.frozen["S!B2"]
    assert "D1 holds text with units" in r.frozen["S!D2"]
    assert "must be constant text" in r.frozen["S!F2"]


def test_a_model_by_name_translates_and_a_models_range_is_listed(tmp_path):
    src = _book(tmp_path, [
        ['=DECODE_FLOOR("Llama 4 Maverick","FP8",38.4,4096,15832)',
         '=DECODE_FLOOR("Llama 3.1 8B","BF16",3.35)', '=PREFILL_MS("Llama 4 Maverick",2000,989)',
         '=TP_COMM_MS(8192,64,8,0.45,80,"BF16",2,"NVLink","NVLink")'],
        ["Model", "Parameters, total (billions)", "Parameters active per token (billions)"],
        ["My 8B", 8, 8, '=DECODE_FLOOR("My 8B","BF16",3.35,1,,,,,,A2:C3)',
         '=DECODE_FLOOR(8E9,"BF16",3.35,1,,,,,,A2:C3)'],
    ])
    r = native(src, tmp_path / "out.xlsx")
    f = r.formulas
    # constants: the row's figures as numbers (Maverick at batch 4,096 reads 399.68e9
    # weights, udfs.inference.model_reads; 17.1847e9 active, counted from its config.json:
    # tests/config_counts.py), a dense row its 8.03e9 parameters
    assert f["S!A1"].startswith("MAX((399677371999.99") and "2*17184700000*4096" in f["S!A1"]
    assert f["S!B1"] == "(8030000000*2/1E9+0)/3.35"
    assert f["S!C1"] == "2*17184700000*2000/(989*1E12*1)*1000"
    assert "2*(8-1)*0.6*0.001" in f["S!D1"] and "IF(8>1,6.6,0)" in f["S!D1"]
    # a models range: the user's table, which the native formula does not read; with a
    # count, napkin ignores the range and so does the translation
    assert set(r.frozen) == {"S!D3"} and "range given as models (A2:C3)" in r.frozen["S!D3"]
    assert f["S!E3"] == "(8000000000*2/1E9+0)/3.35"


def test_shared_and_array_formulas_translate_cell_by_cell(tmp_path):
    from openpyxl.worksheet.formula import ArrayFormula

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    for row in ([989, 3.35], [989, 3.35], [1979, 3.35], [2250, 8]):
        ws.append(row)
    ws["D1"] = ArrayFormula("D1", "=RIDGE(A2,B2)")
    src = tmp_path / "shared.xlsx"
    wb.save(src)
    add_shared_ridge(src, "C", "B")
    r = native(src, tmp_path / "out.xlsx")
    assert sorted(r.translated) == ["S!C2", "S!C3", "S!C4", "S!D1"]
    assert r.formulas["S!C4"].endswith(",A4*0.8/B4))))")
    with zipfile.ZipFile(tmp_path / "out.xlsx") as z:
        out = z.read("xl/worksheets/sheet1.xml").decode()
    assert 't="shared"' not in out and 't="array"' in out
    ws = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    assert ws["C3"].value == pytest.approx(1979 * 0.8 / 3.35)  # napkin's cached value


def test_cli_native_lists_and_strict_refuses(tmp_path):
    src = _book(tmp_path, [['=EXPLAIN("RIDGE",989,3.35)', "=RIDGE(989,3.35)"]])
    p = napkin("native", src, "-o", tmp_path / "out.xlsx")
    assert "translated 1 formula" in p.stdout and "S!A1: EXPLAIN" in p.stdout
    p = napkin("native", src, "-o", tmp_path / "strict.xlsx", "--strict", check=False)
    assert p.returncode == 1 and p.stderr.count("\n") == 1 and "--strict" in p.stderr
    assert not (tmp_path / "strict.xlsx").exists()
    before = src.read_bytes()
    napkin("native", src, "--in-place")
    assert src.with_name("book.xlsx.bak").read_bytes() == before


@pytest.fixture(scope="module")
def template_case(tmp_path_factory):
    """The template built, computed by ``napkin calc`` and translated by ``native``."""
    d = tmp_path_factory.mktemp("native-template")
    template = build_template(d / "napkin.xlsx")
    calc, live = d / "napkin-calc.xlsx", d / "napkin-native.xlsx"
    napkin("calc", template, "-o", calc)
    return template, calc, live, native(template, live)


def _depth(formula: str) -> int:
    depth = deepest = 0
    for part in re.split(r'("(?:[^"]|"")*")', formula):
        if part.startswith('"'):
            continue
        for ch in part:
            depth += ch == "("
            depth -= ch == ")"
            deepest = max(deepest, depth)
    return deepest


def test_lossless_only_formula_text_changes_against_calc(template_case):
    _, calc, out, r = template_case
    assert r.translated and not r.frozen
    # within Excel's limits: 8,192 characters and 64 nested functions per formula
    assert max(len(f) for f in r.formulas.values()) < 8192
    assert max(_depth(f) for f in r.formulas.values()) < 64
    with zipfile.ZipFile(calc) as a, zipfile.ZipFile(out) as b:
        added = set(b.namelist()) - set(a.namelist())  # the tables and the helper cells
        assert len(added) == 2 and all(n.startswith("xl/worksheets/sheet") for n in added)
        assert set(a.namelist()) <= set(b.namelist())
        for name in a.namelist():
            x, y = a.read(name), b.read(name)
            if name.startswith("xl/worksheets/"):
                strip = re.compile(rb"<f(?:\s[^>]*)?>.*?</f>|<f[^>]*/>", re.S)
                assert strip.sub(b"", x) == strip.sub(b"", y), name
                # a formula where there was one, and one in each cell of an array formula
                # (one formula a cell: addin.transform.native.cells)
                assert _formula_cells(y) == _formula_cells(x) | _array_cells(x), name
            elif name in ("xl/workbook.xml", "xl/_rels/workbook.xml.rels",
                          "[Content_Types].xml"):
                assert len(y) > len(x)  # two sheets, relationships, content types added
            else:
                assert x == y, name


def _formula_cells(xml: bytes) -> set[bytes]:
    """The cells of a worksheet part that have a formula."""
    from addin.ooxml import reader

    return {c.ref.encode() for c in reader.iter_cells(xml.decode("utf-8"))
            if reader.formula_of(c) is not None}


def _array_cells(xml: bytes) -> set[bytes]:
    """Every cell of the ranges of a worksheet part's array formulas that call napkin
    functions."""
    from addin.ooxml.a1 import num2col, parse_area

    ours = re.compile(rb"(?<![\w.])(?:_xldudf_)?(?:" + "|".join(CATALOG).encode() + rb")\(",
                      re.I)
    out = set()
    for ref, text in re.findall(rb'<f[^>]*t="array"[^>]*ref="([A-Z0-9:]+)"[^>]*>(.*?)</f>',
                                xml, re.S):
        if not ours.search(text):
            continue
        r1, c1, r2, c2 = parse_area(ref.decode())
        out |= {f"{num2col(c)}{r}".encode() for r in range(r1, r2 + 1)
                for c in range(c1, c2 + 1)}
    return out


def _all_formulas(path) -> dict[str, str]:
    """{"part!cell": formula text} of every formula of a workbook, hidden sheets included."""
    from html import unescape

    out = {}
    with zipfile.ZipFile(path) as z:
        for n in z.namelist():
            if n.startswith("xl/worksheets/") and n.endswith(".xml"):
                for m in re.finditer(r'<c r="([A-Z]+\d+)"[^>]*><f\b[^>]*>([^<]*)</f>',
                                     z.read(n).decode("utf-8")):
                    out[f"{n}!{m.group(1)}"] = unescape(m.group(2))
    return out


def test_native_template_formulas_are_readable(template_case):
    """No formula of the translated template (its helper cells included) is over 1,000
    characters, the median is under 300, and each helper cell carries its value."""
    import statistics

    _, _, live, r = template_case
    formulas = _all_formulas(live)
    lengths = [len(f) for f in formulas.values()]
    assert len(formulas) > len(r.formulas)  # the helper cells are counted too
    assert max(lengths) <= 1000, max(formulas.items(), key=lambda kv: len(kv[1]))[0]
    assert statistics.median(lengths) < 300
    # Excel 2010's functions only: no LET or LAMBDA (Excel 365's)
    assert not any(re.search(r"\b(?:_xlfn\.)?(?:LET|LAMBDA)\(", f) for f in formulas.values())
    from addin.ooxml.xlsx_values import read_book, read_cells

    with zipfile.ZipFile(live) as z:
        assert re.search(r'<sheet name="napkin_helpers"[^>]*state="hidden"',
                         z.read("xl/workbook.xml").decode())
        part = next(s.path for s in read_book(z).sheets if s.name == "napkin_helpers")
        cells = read_cells(z.read(part).decode("utf-8"))
        assert cells and all(c.f and c.v is not None for c in cells)  # each has its value


def test_nested_calls_go_to_helper_cells_that_compute_as_napkin(tmp_path):
    # the same nested call in two formulas: one helper cell, both formulas refer to it
    src = _book(tmp_path, [[70e9, "FP8", 80, "=FITS(WEIGHT_GB(A1,B1),C1)",
                            "=WEIGHT_GB(A1,B1)", "=WEIGHT_GB(A1,B1)*2"]])
    out = tmp_path / "out.xlsx"
    r = native(src, out)
    assert sorted(r.translated) == ["S!D1", "S!E1", "S!F1"] and not r.frozen
    helper = re.fullmatch(r".*?(napkin_helpers!\$A\$\d+).*", r.formulas["S!D1"]).group(1)
    assert helper in r.formulas["S!F1"]
    assert "WEIGHT_GB" not in r.formulas["S!D1"] and len(r.formulas["S!D1"]) < \
        len(r.formulas["S!E1"]) + 60
    values = napkin("calc", out, "-o", tmp_path / "again.xlsx", "--json").stdout
    got = json.loads(values)
    # 70E9 parameters at FP8 (1 byte each): 70 GB (weights = params x bytes / 1E9), which
    # fits in 80 GB; the helper cell holds the 70 GB
    assert got.get(helper, got.get(helper.replace("$", ""))) == pytest.approx(70.0)
    assert got["S!D1"] is True and got["S!E1"] == pytest.approx(70.0)
    assert got["S!F1"] == pytest.approx(140.0)


def test_a_nested_call_one_formula_uses_is_written_in_place(tmp_path):
    """A helper cell that one formula alone would refer to saves no repetition: its text
    is written into the formula (parenthesised), within 1,000 characters
    (helpers.INLINE_MAX), and the file computes the same."""
    src = _book(tmp_path, [[70e9, "FP8", 80, "=FITS(WEIGHT_GB(A1,B1),C1)",
                            '=IF(A1>0,WEIGHT_GB(A1,"BF16")+1,0)']])
    out = tmp_path / "out.xlsx"
    r = native(src, out)
    assert sorted(r.translated) == ["S!D1", "S!E1"] and not r.frozen
    assert not any("napkin_helpers" in f for f in r.formulas.values()), r.formulas
    assert all(len(f) <= 1000 for f in r.formulas.values())
    with zipfile.ZipFile(out) as z:  # no helper sheet is left to add
        assert "napkin_helpers" not in z.read("xl/workbook.xml").decode()
    got = json.loads(napkin("calc", out, "-o", tmp_path / "again.xlsx", "--json").stdout)
    # 70E9 parameters in FP8 fit 80 GB; in BF16 (2 bytes each) 140 GB, + 1
    assert got["S!D1"] is True and got["S!E1"] == pytest.approx(141.0)


# --------------------------------------------------------------------------- LibreOffice


def _has_uno() -> bool:
    if not shutil.which("soffice") or not Path(UNO_PYTHON).exists():
        return False
    return subprocess.run([UNO_PYTHON, "-c", "import uno"], capture_output=True).returncode == 0


needs_lo = pytest.mark.skipif(not _has_uno(), reason="LibreOffice with Python UNO not found")

# Edits of the template's inputs, as a user makes them: another model and precision and a
# price; another GPU (one with figures missing from the table) and a roof efficiency.
EDITS = {
    "model-precision-price": {"Sizing!" + SIZING["model"]: "Llama 3.1 8B",
                              "Sizing!" + SIZING["precision"]: "INT4",
                              "Sizing!" + SIZING["price_override"]: 3.5},
    "gpu-efficiency": {"Sizing!" + SIZING["gpu"]: "NVIDIA B300 (HGX)",
                       "Assumptions!B5": 0.6, "GPUs!L8": 1.75},
}

# Functions the reference doc does not cover, on hand-checked values (each function's
# docstring gives the hand calculation), and bad inputs, whose error codes must agree.
EXTRA = [
    '=KV_CACHE_GB(32,8,128,8192)', '=KV_CACHE_GB(32,8,128,8192,"FP8",4,"MiB")',
    '=GPUS_NEEDED(140,80)', '=GPUS_NEEDED(160,80)', '=GPUS_NEEDED(70,80,0.125)',
    '=GPUS_NEEDED(0,80)', '=FITS(70,80,0.125)', '=MBU(16.06,5.5,3.35)',
    '=MFU(16.06E+9,2000,989)', '=COST_PER_MTOK(2,1000)', '=COST_PER_MTOK(2,1000,8,0.5)',
    '=GPU_SPEC("H100","bandwidth")', '=GPU_SPEC("h100","memory_GB")',
    '=GPU_SPEC("NVIDIA B300 (HGX)","fp8")', '=MODEL_SPEC("Llama 3.1 8B","params")',
    '=MODEL_SPEC("DeepSeek-V3","kv_bytes_per_token")', '=MODEL_SPEC("Qwen3 8B","attention")',
    '=CALIBRATE(4.79,6.2)', '=ESTIMATE(4.79,0.8)', '=PLAUSIBLE(4.79,6.2)',
    '=PLAUSIBLE(4.79,4)', '=PREFILL_MS("8.03B",2000,989)', '=PREFILL_MS(8.03E+9,2000,989,0.5)',
    '=INPUT_COST_PER_MTOK(2,8.03E+9,989)', '=BLENDED_COST_PER_MTOK(0.1,2,3,1)',
    '=OWNED_HOURLY_COST(30000,4,700,1.3,0.12)', '=GPUS_FOR_DEMAND(1E+9,2500,2)',
    '=MONTHLY_COST(8,2.5)', '=MONTHLY_COST(8,2.5,720)', '=BREAKEVEN_MTOK(20000,2.5,0.1)',
    '=DECODE_FLOOR(8.03E+9,"BF16",3.35,64,989,8)', '=DECODE_FLOOR(8.03E+9,"BF16",3.35,,,8,"s")',
    '=WEIGHT_GB(8.03E+9,"fp-8")', '=WEIGHT_GB(8.03E+9,0.5625,"GiB")',
    '=UNIT_CONVERT(16,"GB","GiB")', '=TIME_FLOOR(16E+9,3.35E+12,"ms")',
    '=MAX_BATCH(80,16.06,1.0737)', '=MAX_BATCH(80,16.06,1.0737,0.1,2)', '=MAX_BATCH(10,16,1)',
    '=BATCH_FOR_LATENCY(20,16.06,1.0737,3.35)',
    '=BATCH_FOR_LATENCY(20,16.06,1.0737,3.35,16.06E+9,989)',
    '=TP_COMM_MS(8192,64,8,0.45,80)', '=TP_COMM_MS(8192,64,1,0.45)',
    '=TP_COMM_MS(8192,64,8,"450 GB/s",80,"FP8",2,2)', '=PIPELINE_BUBBLE(4,8)',
    '=SPEC_TOKENS_PER_STEP(0.8,4)', '=SPEC_TOKENS_PER_STEP(1,4)',
    '=SPEC_DECODE_SPEEDUP(0.8,4,0.05)', '=CONCURRENCY(20,11)', '=JOULES_PER_TOKEN(700,2000)',
    '=ENERGY_PER_MTOK_KWH(700,2000,1.3)',
    # bad inputs
    '=WEIGHT_GB(-1,"BF16")', '=WEIGHT_GB(8E+9,"FP7")', '=WEIGHT_GB(8E+9,"BF16","parsec")',
    '=BYTES_PER_PARAM("nf4")', '=FITS(70,80,1)', '=KV_CACHE_GB(32.5,8,128,1)',
    '=GPU_SPEC("no such GPU","memory")', '=MODEL_SPEC("Llama 3.1 8B","nonsense")',
    '=AMDAHL(1)', '=AMDAHL(1.5,2)', '=BREAKEVEN_MTOK(100,1,2)',
    '=BLENDED_COST_PER_MTOK(1,2,0,0)', '=RIDGE(989,"fast")', '=RIDGE(989,0)',
    '=COST_PER_MTOK(2,1000,1,0)', '=MS_PER_TOKEN(TRUE)', '=SPEEDUP(20,#N/A)',
    '=BATCH_FOR_LATENCY(20,16.06,1.0737,3.35,16.06E+9)', '=PIPELINE_BUBBLE(4.5,8)',
    '=SPEC_TOKENS_PER_STEP(1.2,4)', '=ENERGY_PER_MTOK_KWH(700,2000,0.9)',
]


def _lift(formula: str) -> tuple[str, list]:
    """The formula with each plain numeric argument of our calls replaced by a
    placeholder ``{i}`` and the numbers listed: arguments by reference, as in a model."""
    items = parse(formula[1:])
    cells: list = []

    def walk(xs):
        for x in xs:
            if isinstance(x, Group):
                if x.name in CATALOG and x.name != "EXPLAIN":
                    for arg in x.args():
                        core = [t for t in arg if not (hasattr(t, "type") and
                                                       t.type == "WHITE-SPACE")]
                        if len(core) == 1 and not isinstance(core[0], Group) and \
                                core[0].subtype == "NUMBER":
                            cells.append(float(core[0].value))
                            core[0].value = f"{{{len(cells) - 1}}}"
                walk(x.children)

    walk(items)
    text = "=" + render(items)
    return text, cells


def _reference_book(path: Path) -> list[str]:
    """One formula a row in C (as given) and D (numbers lifted into cells from F on)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "R"
    formulas = [f for _, _, f, _, _, _ in REFERENCE] + EXTRA
    for row, f in enumerate(formulas, start=1):
        ws.cell(row, 3, f)
        lifted, values = _lift(f)
        for j, v in enumerate(values):
            ws.cell(row, 6 + j, v)
            col = openpyxl.utils.get_column_letter(6 + j)
            lifted = lifted.replace(f"{{{j}}}", f"{col}{row}")
        ws.cell(row, 4, lifted)
    ws["E1"] = "=WEIGHT_GB(8.03E+9,\"BF16\",B1)"  # a result unit in a cell
    ws["B1"] = "GiB"
    ws["E2"] = "=WEIGHT_GB(A2,\"BF16\")"  # an empty cell for a required argument: #VALUE!
    ws["E3"] = "=KV_CACHE_GB(32,8,128,8192,A3,A3)"  # empty optional arguments: defaults
    ws["E4"] = "=AMDAHL(0.3,A4)"  # empty s: the unbounded form
    ws["E5"] = "=GPU_SPEC(B5,\"bandwidth\")"
    ws["B5"] = "nvidia h100 sxm"  # a spelling the table lacks, kept at translation
    ws["E6"] = "=BATCH_FOR_LATENCY(20,16.06,1.0737,3.35,A6,A6)"  # both empty: memory only
    ws["E7"] = "=BATCH_FOR_LATENCY(20,16.06,1.0737,3.35,B7,A7)"  # one of the two: #VALUE!
    ws["B7"] = 16.06e9
    # a model by name from a cell: INDEX/MATCH over the hidden model table, the batch of
    # an MoE step from a cell; a spelling the table lacks; a name from a formula; an
    # interconnect by name from a cell; a name no table holds (#N/A both ways)
    ws["E8"] = '=DECODE_FLOOR(B8,"FP8",38.4,A8,15832)'
    ws["B8"], ws["A8"] = "Llama 4 Maverick", 4096
    ws["E9"] = '=DECODE_FLOOR(B9,"BF16",3.35)'
    ws["B9"] = "llama-3.1-8b"
    ws["E10"] = '=PREFILL_MS(B10,2000,989)'
    ws["B10"] = "Mixtral 8x7B"
    ws["E11"] = '=TP_COMM_MS(8192,64,8,0.45,80,"BF16",2,B11,B11)'
    ws["B11"] = "nvlink"
    ws["E12"] = '=DECODE_FLOOR(IF(A12>0,B12,0),"BF16",3.35,2)'
    ws["B12"], ws["A12"] = "Mixtral 8x7B", 1
    ws["E13"] = '=DECODE_FLOOR(B13,"BF16",3.35)'
    ws["B13"] = "No such model"
    wb.save(path)
    return formulas


def _values(path: Path) -> dict:
    wb = openpyxl.load_workbook(path, data_only=True)
    return {f"{ws.title}!{c.coordinate}": c.value for ws in wb for row in ws.iter_rows()
            for c in row if c.value is not None}


def _edited(src: Path, dst: Path, edits: dict) -> Path:
    wb = openpyxl.load_workbook(src)
    for ref, v in edits.items():
        sheet, cell = ref.split("!")
        wb[sheet][cell] = v
    wb.save(dst)
    return dst


@pytest.fixture(scope="module")
def lo(tmp_path_factory, template_case):
    """Everything LibreOffice is asked, in one soffice: {name: (napkin's values, native
    result, LibreOffice's cells)}."""
    d = tmp_path_factory.mktemp("native")
    template, template_calc, live, result = template_case
    cases = {"template": ({}, template)}
    for name, edits in EDITS.items():
        cases[name] = (edits, _edited(template, d / f"{name}.xlsx", edits))
    ref_src = d / "reference.xlsx"
    _reference_book(ref_src)
    ref_live = d / "reference-native.xlsx"
    ref_result = native(ref_src, ref_live)
    jobs, expected = [], {}
    for name, (edits, original) in cases.items():
        computed = template_calc if name == "template" else d / f"{name}-calc.xlsx"
        if name != "template":
            napkin("calc", original, "-o", computed)
        expected[name] = (_values(computed), result)
        jobs.append({"path": str(live), "edits": edits})
    computed = d / "reference-calc.xlsx"
    napkin("calc", ref_src, "-o", computed)
    expected["reference"] = (_values(computed), ref_result)
    jobs.append({"path": str(ref_live), "edits": {}})
    proc = subprocess.run([UNO_PYTHON, str(ROOT / "tools" / "lo_uno.py")],
                          input=json.dumps(jobs), capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout)
    return {name: (*expected[name], got[i]) for i, name in enumerate(expected)}


def _same(want, got) -> bool:
    kind, g = got if got else (None, None)
    if isinstance(want, bool):  # LibreOffice has no boolean type: TRUE is 1
        want = float(want)
    if isinstance(want, int | float):
        return kind == "n" and math.isclose(g, want, rel_tol=1e-9, abs_tol=1e-300)
    if isinstance(want, str) and want.startswith("#"):
        return kind == "e" and g == want
    return kind == "s" and g == want


def _compare(name, lo):
    want, result, got = lo[name]
    cells = got["cells"]
    wrong = [(k, v, cells.get(k), result.formulas.get(k, "")[:200])
             for k, v in want.items() if k in result.formulas and not _same(v, cells.get(k))]
    assert not wrong, f"{name}: {len(wrong)} translated cells differ, e.g. {wrong[:5]}"
    # the table's #N/A: empty figures; a helper cell's error: a subexpression of a branch
    # that its formula does not take (each helper is compared with napkin's value below)
    new_errors = [k for k, (kind, _) in cells.items()
                  if kind == "e" and not k.startswith(("napkin_tables!", "napkin_helpers!"))
                  and not (isinstance(want.get(k), str) and want[k].startswith("#"))]
    assert not new_errors, f"{name}: error cells the original does not have: {new_errors[:9]}"
    other = [k for k, v in want.items() if k not in result.formulas and not _same(v, cells.get(k))]
    assert not other, f"{name}: other cells differ: {other[:9]}"
    return len(result.formulas)


@needs_lo
@pytest.mark.parametrize("name", ["template", *EDITS])
def test_libreoffice_recalculates_the_native_template_to_napkins_numbers(lo, name,
                                                                        template_case):
    n = _compare(name, lo)
    assert n > 1000  # every napkin call of the template was translated
    assert not lo[name][1].frozen
    assert "napkin_tables" in {k.split("!")[0] for k in lo[name][2]["cells"]}
    if name == "template":  # each helper cell: LibreOffice's value is napkin's cached one
        cells = lo[name][2]["cells"]
        helpers = {k: v for k, v in _values(template_case[2]).items()
                   if k.startswith("napkin_helpers!")}
        wrong = [(k, v, cells.get(k)) for k, v in helpers.items() if not _same(v, cells.get(k))]
        assert len(helpers) > 1000 and not wrong, wrong[:5]


@needs_lo
def test_libreoffice_agrees_on_every_function_and_error_code(lo):
    want, result, got = lo["reference"]
    assert set(result.frozen) == set()  # EXPLAIN is not in the reference book
    n = _compare("reference", lo)
    ours = re.compile("|".join(CATALOG))
    calls = [f for f in [r[2] for r in REFERENCE] + EXTRA if ours.search(f)]
    assert n == 2 * len(calls) + 13  # as given, lifted into cells, and the 13 in E
    codes = {v for k, v in want.items() if isinstance(v, str) and v.startswith("#")}
    assert codes == {"#NUM!", "#VALUE!", "#N/A"}  # the bad inputs really were bad
