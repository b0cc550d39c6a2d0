"""The xlwings Lite bundle (``napkin lite``), run as Lite runs it.

* The bundle's ``main.py`` under CPython *without numpy*, with an xlwings stand-in that
  records ``func``/``arg``: every catalog function is declared, with the catalog's
  arguments, docstring and argument docs, and each call gives what the catalog gives,
  converted as the Lite adapter promises (a lone #VALUE! raised with its message, other
  error codes as text that xlwings turns into Excel error values).
* The same in Pyodide, the Python xlwings Lite runs (npm ``pyodide`` under Node, offline,
  pint's wheels unpacked into its file system): results equal to CPython's, bit for bit.
  Skipped, with the reason, when node, ``tests/pyodide/node_modules`` or the wheels are
  missing: ``tests/pyodide/setup.sh`` installs them.
"""

from __future__ import annotations

import ast
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import udfs
from addin.routes.lite import main_py, package_files, requirements, write_bundle
from udfs import ExcelError

HERE = Path(__file__).parent
HARNESS = HERE / "pyodide"
STANDIN = HARNESS / "xlwings_standin"



def ERR(code: str) -> dict:
    """An error cell as Office.js hands it to xlwings Lite (a custom-functions error value;
    xlwings reads its ``type`` and ``basicValue``)."""
    kinds = {"#N/A": "NotAvailable", "#DIV/0!": "Div0", "#VALUE!": "Value", "#NUM!": "Num",
             "#REF!": "Ref", "#NAME?": "Name", "#NULL!": "Null"}
    return {"type": "Error", "basicValue": code, "errorType": kinds[code]}


# (function, arguments as Office.js hands them to Lite: None = omitted or empty,
# [[...]] = a range, ERR(code) = an error cell)
CASES = [
    ("WEIGHT_GB", ["8.03B", "BF16", None]),
    ("WEIGHT_GB", ["70b", "FP8", "GiB"]),
    ("WEIGHT_GB", [[[8.03e9], [70e9]], [["BF16", "FP8"]], None]),
    ("WEIGHT_GB", ["8.03B", "FP7", None]),
    ("WEIGHT_GB", [-1, "BF16", None]),
    ("WEIGHT_GB", [True, "BF16", None]),
    ("WEIGHT_GB", [[[8.03e9], [-1], ["x"]], "BF16", None]),
    ("BYTES_PER_PARAM", ["MXFP4"]),
    ("KV_CACHE_GB", [32, 8, 128, 8192, None, None, None]),
    ("KV_CACHE_GB", [80, 8, 128, "128000 tokens", "FP8", 4, "GiB"]),
    ("FITS", [140, 80, None]),
    ("FITS", [[[70], [140]], 80, 0.1]),
    ("GPUS_NEEDED", [140, 80, None]),
    ("GPUS_NEEDED", [140, 80, 1]),
    ("UNIT_CONVERT", [16, "GB", "GiB"]),
    ("UNIT_CONVERT", ["80 GiB", None, "GB"]),
    ("UNIT_CONVERT", [16, "GB", "ms"]),
    ("TIME_FLOOR", ["16 GB", "3.35 TB/s", "ms"]),
    ("TIME_FLOOR", ["16 GB", "989 TFLOPS", None]),
    ("KERNEL_TIME", [2e9, 67e6, 989, 3.35, None]),
    ("DECODE_FLOOR", [70e9, "FP8", 3.35, None, None, None, None]),
    ("DECODE_FLOOR", [70e9, "FP8", 3.35, 64, 989, 10, "s"]),
    ("TOKENS_PER_SEC", [5]),
    ("MS_PER_TOKEN", ["200 tokens/s"]),
    ("PER_USER_TPS", [1800, 10]),
    ("INTENSITY", ["16 GFLOP", "67 MB"]),
    ("MATMUL_INTENSITY", [4096, 4096, 4096, None]),
    ("RIDGE", [989, 3.35, None]),
    ("RIDGE", ["989 TFLOPS", "3350 GB/s", 0.8]),
    ("RIDGE", [[[989, 1979]], [[3.35], [8]], None]),
    ("RIDGE", [[[989, None]], 3.35, None]),
    ("RIDGE", [989, 0, None]),
    ("RIDGE", [[[989]], [[3.35]], None]),
    ("RIDGE", [ERR("#N/A"), 3.35, None]),
    ("RIDGE", [989, 3.35, ERR("#N/A")]),
    ("RIDGE", [[[ERR("#N/A")]], 3.35, None]),
    ("RIDGE", [[[989], [ERR("#DIV/0!")]], 3.35, None]),
    ("WEIGHT_GB", ["8.03B", ERR("#REF!"), None]),
    ("GPU_SPEC", [ERR("#NAME?"), "memory"]),
    ("FITS", [140, 80, ERR("#NUM!")]),
    ("RIDGE", ["989 GB", 3.35, None]),
    ("ATTAINABLE", [0.25, 989, 3.35]),
    ("BOUND", [1, 295]),
    ("BOUND", [[[1], [1000]], 295]),
    ("CRITICAL_BATCH", [989, 3.35, "FP8"]),
    ("MBU", [16, 5, 3.35]),
    ("MFU", [16e9, 2000, 989]),
    ("AMDAHL", [0.3, 3]),
    ("AMDAHL", [0.3, None]),
    ("AMDAHL", [1, None]),
    ("SPEEDUP", ["20 ms", "15 ms"]),
    ("COST_PER_MTOK", [2, 1000, None, None]),
    ("COST_PER_MTOK", [2, 1000, 8, 0.5]),
    ("GPU_SPEC", ["H100", "bandwidth"]),
    ("GPU_SPEC", ["H100", "source_url"]),
    ("GPU_SPEC", ["nope", "memory"]),
    ("GPU_SPEC", [[["H100"], ["MI300X"]], "memory"]),
    ("MODEL_SPEC", ["Llama 3.1 8B", "params"]),
    ("MODEL_SPEC", ["DeepSeek-V3", "kv_bytes_per_token"]),
    ("EXPLAIN", ["DECODE_FLOOR", 70e9, "FP8", 3.35, 1, 989, None, None]),
    ("CALIBRATE", [4.79, 6.2]),
    ("ESTIMATE", [4.79, 0.8]),
    ("PLAUSIBLE", [4.79, 4]),
    ("PREFILL_MS", ["8.03B", 2000, 989, None, None, None]),
    ("PREFILL_MS", ["8.03B", "32k tokens", 989, 0.8, 32, 4096]),
    ("MOE_EXPERTS_READ", [256, 8, 64]),
    ("MOE_EXPERTS_READ", [8, 9, 1]),
    ("INPUT_COST_PER_MTOK", [2, "8.03B", 989, None, None]),
    ("BLENDED_COST_PER_MTOK", [0.1, 2, 3, 1]),
    ("OWNED_HOURLY_COST", [30000, 4, "700 W", 1.3, 0.12]),
    ("GPUS_FOR_DEMAND", [1e9, 2500, 2, None]),
    ("MONTHLY_COST", [8, 2.5, None]),
    ("MONTHLY_COST", [8, 2, "600 h"]),
    ("BREAKEVEN_MTOK", [20000, 2.5, 0.1]),
    ("BREAKEVEN_MTOK", [20000, 0.1, 0.2]),
    ("EXPLAIN", ["RIDGE", 989, 0, None, None, None, None, None]),
]


def _reference_calls() -> list:
    """The calls that tests/reference_cases.py makes, recorded with their arguments."""
    import reference_cases

    calls = []

    def recorder(name):
        def call(*args):
            calls.append((name, list(args)))
            return udfs.CATALOG[name](*args)
        return call

    saved = {n: getattr(reference_cases, n) for n in udfs.CATALOG if hasattr(reference_cases, n)}
    try:
        for n in saved:
            setattr(reference_cases, n, recorder(n))
        for row in reference_cases.REFERENCE:
            row[3]()
    finally:
        for n, f in saved.items():
            setattr(reference_cases, n, f)
    ok = []
    for name, args in calls:
        try:
            json.dumps(args, allow_nan=False)
        except (TypeError, ValueError):
            continue
        ok.append((name, args + [None] * (len(_params(name)) - len(args))))
    return ok


def _params(name):
    import inspect

    return list(inspect.signature(udfs.CATALOG[name]).parameters)


def all_cases() -> list:
    return CASES + _reference_calls()


def _unwrap(v):
    if isinstance(v, list) and len(v) == 1 and isinstance(v[0], list) and len(v[0]) == 1:
        return v[0][0]
    return v


def _element(v):
    return v.code if isinstance(v, ExcelError) else v


def _as_passed(v):
    """What the function receives for ``v`` with ``err_to_str``: an error cell as its code."""
    if isinstance(v, dict) and v.get("type") == "Error":
        return v["basicValue"]
    if isinstance(v, list):
        return [_as_passed(x) for x in v]
    return v


def expected(name, args):
    """What the Lite adapter promises for ``name(*args)``, computed from ``udfs``."""
    value = udfs.CATALOG[name](*[_unwrap(_as_passed(a)) for a in args])
    if isinstance(value, np.ndarray):  # a range's result; xlwings writes its tolist()
        value = value.tolist()
    if isinstance(value, ExcelError):
        if value.code == "#VALUE!":
            return {"raised": "NapkinError", "message": value.message or value.code}
        return value.code
    if isinstance(value, list):
        return [[_element(x) for x in r] if isinstance(r, list) else _element(r) for r in value]
    return value


def catalog_declarations() -> dict:
    import inspect

    out = {}
    for name, f in udfs.CATALOG.items():
        params = inspect.signature(f).parameters.values()
        out[name] = {
            "doc": f.__doc__,
            "params": [p.name for p in params],
            "optional": [p.name for p in params if p.default is not inspect.Parameter.empty],
            "args": {a: {"doc": d, "ndim": 2, "err_to_str": True}
                     for a, d in udfs.ARG_DOCS[name].items()},
        }
    return out


def _same(a, b) -> bool:
    """Equal, floats bit for bit (NaN never occurs: a cell never gets one)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("lite")
    paths = write_bundle(out)
    assert [p.name for p in paths] == ["main.py", "requirements.txt"]
    return out


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    c = all_cases()
    path = tmp_path_factory.mktemp("cases") / "cases.json"
    path.write_text(json.dumps(c, allow_nan=False))
    return c, path


def test_every_catalog_function_has_a_case():
    assert {n for n, _ in all_cases()} == set(udfs.CATALOG)


def test_bundle_files(bundle):
    text = (bundle / "main.py").read_text("utf-8")
    tree = ast.parse(text)
    defs = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert [d for d in defs if not d.startswith("_")] == list(udfs.CATALOG)
    assert "xlwings.server" not in text and "xlwings.pro" not in text
    assert text == main_py(), "the bundle is reproducible"
    reqs = (bundle / "requirements.txt").read_text().splitlines()
    # first the lines xlwings Lite marks as required (xlwings itself among them), then ours
    required = [r for r in reqs if r.endswith("  # required")]
    assert reqs[:len(required)] == required and required[0].startswith("xlwings>=")
    pins = [r for r in reqs[len(required):] if r and not r.startswith("#")]
    assert pins == requirements()
    assert pins[0].startswith("pint==")
    names = {p.split("==")[0] for p in pins}
    assert {"flexcache", "flexparser", "platformdirs", "typing-extensions"} <= names
    assert all("==" in p for p in pins) and "numpy" not in names
    # the embedded package carries the data tables and pint's definitions file
    files = package_files()
    for data in ("gpus.csv", "models.csv", "aliases.csv", "precisions.csv", "units.txt"):
        assert f"udfs/data/{data}" in files


def _run_cpython(bundle: Path, cases_path: Path, tmp: Path, numpy: bool) -> dict:
    code = (
        "import sys\n"
        + ("" if numpy else "sys.modules['numpy'] = None\n")
        + f"sys.path[:0] = [{str(bundle)!r}, {str(STANDIN)!r}, {str(HARNESS)!r}]\n"
        "import driver\n"
        f"print(driver.run(open({str(cases_path)!r}).read()))\n"
    )
    env = dict(os.environ, TMPDIR=str(tmp), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=tmp, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


# An error passed in comes back out as that error, as Excel's own functions do
# (=SQRT(NA()) is #N/A): xlwings writes the returned code as the error value.
def _check(run: dict, cases) -> None:
    assert run["first_value"] == pytest.approx(295.2238805970149)
    # =RIDGE(989,3.35,NA()) is #N/A, never 295.2 with the default efficiency
    got = {tuple(json.dumps(a) for a in args): r
           for (name, args), r in zip(cases, run["results"], strict=True) if name == "RIDGE"}
    assert got[tuple(json.dumps(a) for a in [989, 3.35, ERR("#N/A")])] == "#N/A"
    assert got[tuple(json.dumps(a) for a in [ERR("#N/A"), 3.35, None])] == "#N/A"
    assert got[tuple(json.dumps(a) for a in [[[989], [ERR("#DIV/0!")]], 3.35, None])] == \
        [[pytest.approx(295.2238805970149)], ["#DIV/0!"]]
    assert "napkin-" in run["udfs_file"], "main.py must import its embedded package"
    assert run["registered"] == catalog_declarations()
    bad = []
    for (name, args), got in zip(cases, run["results"], strict=True):
        want = expected(name, args)
        if not _same(json.loads(json.dumps(want)), got):
            bad.append(f"{name}{tuple(args)}: got {got!r}, want {want!r}")
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("numpy", [False, True], ids=["no-numpy", "numpy"])
def test_bundle_in_cpython(bundle, cases, tmp_path, numpy):
    c, path = cases
    run = _run_cpython(bundle, path, tmp_path, numpy)
    assert run["numpy"] is numpy
    _check(run, c)


def _pyodide_ready() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not (HARNESS / "node_modules" / "pyodide" / "pyodide.asm.wasm").exists():
        return "pyodide is not installed: run tests/pyodide/setup.sh"
    wheels = HARNESS / "wheels"
    have = {w.name.split("-")[0].lower().replace("_", "-") for w in wheels.glob("*.whl")}
    need = {r.split("==")[0] for r in requirements()}
    if not need <= have:
        return f"wheels of {sorted(need - have)} are missing: run tests/pyodide/setup.sh"
    return None


@pytest.fixture(scope="module")
def embedded(tmp_path_factory) -> Path:
    """main.py as read back out of the template workbook (``napkin embed``'s form)."""
    from addin.routes.embed import embedded_files

    out = tmp_path_factory.mktemp("embedded")
    files = embedded_files(HERE.parent / "workbook" / "napkin.xlsx")
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8", newline="\n")
    return out


def test_embedded_code_is_the_bundle(bundle, embedded):
    for name in ("main.py", "requirements.txt"):
        assert (embedded / name).read_bytes() == (bundle / name).read_bytes()


def test_bundle_in_pyodide(embedded, cases):
    """The code read back out of the template runs the cases in Pyodide."""
    reason = _pyodide_ready()
    if reason:
        pytest.skip(reason)
    c, path = cases
    bundle = embedded
    proc = subprocess.run(["node", str(HARNESS / "run.js"), str(bundle), str(HARNESS / "wheels"),
                           str(path)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    node_line, python_line = proc.stdout.strip().split("\n")
    node, run = json.loads(node_line), json.loads(python_line)
    assert run["numpy"] is False, "the test image of Pyodide has no numpy"
    assert run["python"].startswith("3.13"), run["python"]
    _check(run, c)
    t = {**run["timings_ms"], **node["timings_ms"]}
    print(f"\nPyodide {node['pyodide_version']} (Python {run['python']}) cold start: "
          f"load {t['load_pyodide']:.0f} ms, unpack wheels {t['unpack_wheels']:.0f} ms, "
          f"import main {t['import_main']:.0f} ms, first call {t['first_call']:.0f} ms, "
          f"total {t['total']:.0f} ms")
    # the start-up time is a benchmark figure (napkin bench; docs/bench.md), not asserted
    # here: on a shared machine it measures the load, not the bundle


# The stand-in converts arguments as xlwings Lite does ----------------------------------

def _standin():
    """The stand-in xlwings, loaded under another name (the real one is installed here)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "xlwings_standin_module", STANDIN / "xlwings" / "__init__.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _xlwings_officejs_cleaner():
    """``_clean_value_data_element`` from xlwings' Office.js engine, from its source (the
    module itself belongs to xlwings.pro, which napkin does not import)."""
    import xlwings

    source = (Path(xlwings.__file__).parent / "pro" / "_xlofficejs.py").read_text("utf-8")
    nodes = [n for n in ast.parse(source).body
             if isinstance(n, ast.FunctionDef) and n.name == "_clean_value_data_element"]
    assert len(nodes) == 1, "xlwings moved its Office.js cleaning code"
    ns = {"_is_jsnull": lambda v: False}
    exec(compile(ast.Module(nodes, []), "xlwings/pro/_xlofficejs.py", "exec"), ns)
    return ns["_clean_value_data_element"]


def test_standin_cleans_cells_as_xlwings_lite():
    real = _xlwings_officejs_cleaner()
    mine = _standin().clean_element
    cells = [1.5, 0, "", "text", "#N/A", True, None, ERR("#N/A"), ERR("#DIV/0!"),
             ERR("#VALUE!"), {"type": "Double", "basicValue": 2.5}]
    for err_to_str in (False, True):
        for c in cells:
            want = real(c, None, None, None, err_to_str)
            assert mine(c, None, err_to_str) == want, (c, err_to_str)
    assert real(ERR("#N/A"), None, None, None, False) is None  # the default: like an empty cell


def test_standin_writes_a_result_as_xlwings_does():
    # xlwings routes a result by its type (ValueAccessor.router); an array goes to
    # NumpyArrayConverter, whose write_value the stand-in copies. Compared on the kinds
    # of array napkin returns: numbers, truth values, text, and objects with error codes.
    from xlwings import conversion

    mine = _standin().write
    router = conversion.accessors.get(None).router
    for value in (np.array([1.5, 2.0]), np.array([[1.5], [2.0]]), np.array([True, False]),
                  np.array(["memory-bound", "compute-bound"]),
                  np.array([[1.5], ["#N/A"]], dtype=object)):
        converter = router(value, None, {})
        want = converter.write_value(value, {})
        assert mine(value) == want and type(want) is list, value
    assert mine([[1.5], ["#N/A"]]) == [[1.5], ["#N/A"]] and mine(2.5) == 2.5


def test_standin_passes_an_error_as_none_without_err_to_str():
    xw = _standin()

    def undeclared(x, y=None):
        return (x, y)

    def declared(x, y=None):
        return (x, y)

    xw.func(xw.arg("x", ndim=2)(xw.arg("y", ndim=2)(undeclared)))
    xw.func(xw.arg("x", ndim=2, err_to_str=True)(xw.arg("y", ndim=2, err_to_str=True)(declared)))
    assert xw.call_udf(undeclared, [[[ERR("#N/A")]], 3]) == ([[None]], [[3]])
    assert xw.call_udf(declared, [[[ERR("#N/A")]], 3]) == ([["#N/A"]], [[3]])
    assert xw.call_udf(declared, [[[1, ERR("#REF!")]], None]) == ([[1, "#REF!"]], None)


def test_every_bundle_argument_asks_for_error_text(bundle):
    tree = ast.parse((bundle / "main.py").read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            args = [d for d in node.decorator_list
                    if isinstance(d, ast.Call) and getattr(d.func, "id", "") == "arg"]
            assert len(args) == len(node.args.args), node.name
            for d in args:
                kw = {k.arg: ast.literal_eval(k.value) for k in d.keywords}
                assert kw.get("err_to_str") is True and kw.get("ndim") == 2, node.name
