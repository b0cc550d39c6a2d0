"""The xlwings Lite bundle (``napkin lite``), run as Lite runs it.

* The bundle's ``main.py`` under CPython *without numpy*, with an xlwings stand-in that
  records ``func``/``arg``: every catalog function is declared, with the catalog's
  arguments, docstring and argument docs, and each call gives what the catalog gives,
  converted as the Lite adapter promises (a lone #VALUE! raised with its message, other
  error codes as text that xlwings turns into Excel error values).
* The same in Pyodide, the Python xlwings Lite runs (npm ``pyodide`` under Node, offline):
  Pyodide's own platformdirs, typing-extensions and micropip loaded first, the template's
  requirements.txt installed with micropip from a local index, then the cases: results
  equal to CPython's, bit for bit. Skipped, with the reason, when node,
  ``tests/pyodide/node_modules`` or the wheels are missing: ``tests/pyodide/setup.sh``
  installs them (``tests/pyodide/offline.py`` says which and from where).
* requirements.txt is fixed text: the same bytes whatever is installed, one requirement a
  line, Pyodide's own packages without a version, the tested pint and xlwings in bounds.
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
from lite_support import ERR, HARNESS, HERE, STANDIN, offline_harness

import udfs
from addin.routes.lite import (
    main_py,
    package_files,
    requirements,
    requirements_txt,
    write_bundle,
)
from udfs import ExcelError

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
    # a model by name, from the built-in table or a models range as Office.js passes it
    ("DECODE_FLOOR", ["Llama 4 Maverick", "FP8", 38.4, 4096, 15832, None, "us", None, None,
                      None]),
    ("DECODE_FLOOR", [[["Llama 3.1 8B"], ["Mixtral 8x7B"]], "BF16", 3.35, 2, None, None,
                      None, None, None, None]),
    ("DECODE_FLOOR", ["My MoE", "FP8", 3.35, 16, None, None, None, None, None,
                      [["Model", "Parameters, total (billions)",
                        "Parameters active per token (billions)", "Experts (routed)",
                        "Experts per token",
                        "Weights read per decode step, batch 1 (billions)",
                        "One routed expert, all MoE layers (billions)"],
                       ["My MoE", 100, 10, 64, 4, 9.5, 1.2], ["", None, None, None, None,
                                                              None, None]]]),
    # a models range without the column of the kept BF16 weights a step reads (gpt-oss's
    # attention and head), or without the experts columns of an MoE row: #VALUE! raised
    ("DECODE_FLOOR", ["gpt-oss-120b", "MXFP4", 3.35, None, None, None, None, None, None,
                      [["Model", "Parameters, total (billions)",
                        "Parameters active per token (billions)", "Experts (routed)",
                        "Experts per token",
                        "Weights read per decode step, batch 1 (billions)",
                        "One routed expert, all MoE layers (billions)"],
                       ["gpt-oss-120b", 116.83, 5.13, 128, 4, 5.13, 0.8957952]]]),
    ("DECODE_FLOOR", ["Llama 4 Maverick", "FP8", 4.8, None, None, None, None, None, None,
                      [["Model", "Parameters, total (billions)",
                        "Parameters active per token (billions)"],
                       ["Llama 4 Maverick", 400.7118, 17.1847]]]),
    ("DECODE_FLOOR", ["Lama 4", "FP8", 3.35, None, None, None, None, None, None, None]),
    ("PREFILL_MS", ["Llama 4 Maverick", 2000, 989, None, None, None, None]),
    ("TP_COMM_MS", [8192, 64, 8, 0.45, 80, "BF16", 2, "NVLink", "nvlink"]),
    ("TP_COMM_MS", [8192, 64, 8, 0.45, 80, "BF16", 2, "Ethernet", None]),
    ("EXPLAIN", ["DECODE_FLOOR", "Llama 4 Maverick", "FP8", 38.4, 4096, 15832, None, None]),
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
    assert (bundle / "requirements.txt").read_text("utf-8") == requirements_txt()
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
    lacking = offline_harness().missing(requirements())
    if lacking:
        return f"{'; '.join(lacking)} missing: run tests/pyodide/setup.sh"
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


def _newest_in_index(name: str) -> str:
    """The newest version of ``name`` among the wheels micropip may install (index/)."""
    from packaging.version import Version

    offline = offline_harness()
    versions = [v for n, v in (offline.wheel_project(w.name)
                               for w in offline.INDEX.glob("*.whl")) if n == name]
    return str(max(versions, key=Version))


# The form of requirements.txt that napkin wrote before (versions read from the machine
# that ran `napkin lite`): what micropip says of each of these lines is recorded
_OLD_FORM = ("xlwings>=0.37.8,<1.0  # required",
             "# napkin: pint and its pure-Python dependencies, as tested")


@pytest.fixture(scope="module")
def pyodide_run(embedded, cases, tmp_path_factory):
    """The template's Lite code run in Pyodide: micropip and Pyodide's own packages
    (platformdirs, typing-extensions...) loaded first, then the template's requirements.txt
    installed with micropip from a local index, then every case called."""
    reason = _pyodide_ready()
    if reason:
        pytest.skip(reason)
    c, path = cases
    lines = (embedded / "requirements.txt").read_text("utf-8").splitlines()
    unavailable = offline_harness().offline_unavailable(lines)
    probes = [*_OLD_FORM, f"platformdirs=={_newest_in_index('platformdirs')}",
              f"typing-extensions=={_newest_in_index('typing-extensions')}"]
    plan = tmp_path_factory.mktemp("plan") / "plan.json"
    plan.write_text(json.dumps({"requirements": [r for r in lines if r not in unavailable],
                                "probes": probes}))
    proc = subprocess.run(["node", str(HARNESS / "run.js"), str(embedded), str(path), str(plan)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    node_line, python_line = proc.stdout.strip().split("\n")
    return {"node": json.loads(node_line), "run": json.loads(python_line), "lines": lines,
            "unavailable": unavailable, "cases": c}


def test_bundle_in_pyodide(pyodide_run):
    """The code read back out of the template, installed as Lite installs it, runs the
    cases in Pyodide and gives CPython's results."""
    node, run = pyodide_run["node"], pyodide_run["run"]
    assert run["numpy"] is False, "numpy is Pyodide's WebAssembly build: not offline here"
    assert run["python"].startswith("3.13"), run["python"]
    _check(run, pyodide_run["cases"])
    t = {**run["timings_ms"], **node["timings_ms"]}
    print(f"\nPyodide {node['pyodide_version']} (Python {run['python']}) cold start: "
          f"load {t['load_pyodide']:.0f} ms, install {t['install']:.0f} ms, "
          f"import main {t['import_main']:.0f} ms, first call {t['first_call']:.0f} ms, "
          f"total {t['total']:.0f} ms")
    # the start-up time is a benchmark figure (napkin bench; docs/bench.md), not asserted
    # here: on a shared machine it measures the load, not the bundle


def test_requirements_install_over_pyodides_own_packages(pyodide_run):
    """micropip installs the template's requirements.txt into a Pyodide that already has
    its own platformdirs and typing-extensions loaded, and keeps them."""
    from packaging.requirements import Requirement

    offline = offline_harness()
    node, lock = pyodide_run["node"], offline.lock_packages()
    before = {offline.canonical(k): v for k, v in node["before_install"].items()}
    after = {offline.canonical(k): v for k, v in node["installed"].items()}
    # loaded first, at the versions of Pyodide's lockfile (pyodide-lock.json)
    for name in ("platformdirs", "typing-extensions"):
        assert before[name] == lock[name]["version"], name
        assert after[name] == before[name], f"micropip replaced Pyodide's own {name}"
        # a newer one was on offer in the index: micropip chose the loaded one
        assert _newest_in_index(name) != before[name], name
    for line in pyodide_run["lines"]:
        if line in pyodide_run["unavailable"]:
            continue
        req = Requirement(line)
        name = offline.canonical(req.name)
        assert name in after, f"{line}: not installed"
        assert req.specifier.contains(after[name]), f"{line}: got {after[name]}"
    # pint's own dependencies came with it
    for name in ("flexcache", "flexparser"):
        assert name in after and name not in before, name
    # the lines left out offline are Pyodide's WebAssembly builds, listed without a version
    for line in pyodide_run["unavailable"]:
        assert not Requirement(line).specifier, line
        assert offline.requirement_name(line) in lock, line


def test_the_old_form_would_not_install(pyodide_run):
    """What broke Lite, reproduced by the same harness: a comment line or an inline comment
    is not a requirement micropip parses, and a pin of platformdirs or typing-extensions
    other than Pyodide's loaded one aborts the install."""
    probes = pyodide_run["node"]["probes"]
    for line in _OLD_FORM:
        assert probes[line].startswith("InvalidRequirement"), (line, probes[line])
    for name in ("platformdirs", "typing-extensions"):
        line = f"{name}=={_newest_in_index(name)}"
        assert probes[line].startswith("ValueError") and "already installed" in probes[line], \
            probes[line]


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
