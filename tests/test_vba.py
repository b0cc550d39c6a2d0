"""The xlwings add-in route, tested with xlwings' own Windows code on any OS.

pywin32's modules are stubbed in ``sys.modules`` so that ``xlwings.udfs`` (the code behind
"Import Functions" and every UDF call on Windows) imports; its real ``xlfunc``/``xlarg``/
``xlret`` declare ``addin.xlwings_udfs`` exactly as ``from xlwings import func, arg``
does on Windows, and its real ``generate_vba_wrapper`` writes the VBA module that Excel
would get. Calls go through ``xlwings.conversion.read``/``write`` as ``call_udf`` sends
them, with the data-cleaning code of xlwings' Windows engine (taken from its source).
"""

from __future__ import annotations

import ast
import datetime as dt
import importlib
import inspect
import io
import re
import sys
import types
from pathlib import Path

import pytest

import udfs

MISSING = -2147352572  # what VBA passes for an omitted Optional argument
MODULE = "addin.xlwings_udfs"


class VARIANT:
    """pywin32's win32com.client.VARIANT, as its source defines it."""

    def __init__(self, vt, value):
        self.varianttype = vt
        self.value = value

    def __repr__(self):
        return f"VARIANT({self.varianttype!r}, {self.value!r})"


def _stub_pywin32() -> dict:
    class ComError(Exception):
        pass

    pythoncom = types.ModuleType("pythoncom")
    pythoncom.CoInitialize = lambda: None
    pythoncom.VT_ERROR = 10
    pywintypes = types.ModuleType("pywintypes")
    pywintypes.com_error = ComError
    pywintypes.TimeType = dt.datetime
    win32com = types.ModuleType("win32com")
    client = types.ModuleType("win32com.client")
    client.Dispatch = lambda *a, **k: None
    client.VARIANT = VARIANT
    win32com.client = client
    return {"pythoncom": pythoncom, "pywintypes": pywintypes, "win32com": win32com,
            "win32com.client": client}


def _windows_engine():
    """xlwings' Windows Engine class and the helpers it uses, from _xlwindows.py."""
    import xlwings

    source = (Path(xlwings.__file__).parent / "_xlwindows.py").read_text("utf-8")
    wanted = {"cell_errors", "_clean_value_data_element", "Engine"}
    nodes = []
    for node in ast.parse(source).body:
        names = ({t.id for t in node.targets if isinstance(t, ast.Name)}
                 if isinstance(node, ast.Assign) else {getattr(node, "name", None)})
        if names & wanted:
            nodes.append(node)
    ns = {"time_types": (dt.date, dt.datetime), "pd": None, "np": None,
          "_com_time_to_datetime": lambda v, b: v, "_datetime_to_com_time": lambda v: v}
    try:
        import numpy

        ns["np"] = numpy
    except ImportError:  # pragma: no cover
        pass
    exec(compile(ast.Module(nodes, []), "xlwings/_xlwindows.py", "exec"), ns)
    return ns["Engine"]()


@pytest.fixture(scope="module")
def xw():
    """xlwings with its Windows UDF code imported, and our module declared through it."""
    import xlwings
    from xlwings import Engine, engines

    saved_modules = {k: sys.modules.get(k) for k in
                     ("pythoncom", "pywintypes", "win32com", "win32com.client",
                      "xlwings.udfs", MODULE)}
    saved = {k: getattr(xlwings, k) for k in ("func", "arg", "ret")}
    saved_engines = (list(engines.engines), dict(engines.engines_by_name),
                     engines.active)
    sys.modules.update(_stub_pywin32())
    sys.modules.pop("xlwings.udfs", None)
    sys.modules.pop(MODULE, None)
    try:
        xludfs = importlib.import_module("xlwings.udfs")
        xlwings.func, xlwings.arg, xlwings.ret = xludfs.xlfunc, xludfs.xlarg, xludfs.xlret
        engine = Engine(impl=_windows_engine())
        if "excel" not in engines.engines_by_name:
            engines.add(engine)
        module = importlib.import_module(MODULE)
        yield types.SimpleNamespace(udfs=xludfs, module=module, xlwings=xlwings)
    finally:
        for k, v in saved.items():
            setattr(xlwings, k, v)
        engines.engines[:] = saved_engines[0]
        engines.engines_by_name.clear()
        engines.engines_by_name.update(saved_engines[1])
        engines.active = saved_engines[2]
        for k, v in saved_modules.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


class Book:
    Name = "napkin.xlsm"


@pytest.fixture(scope="module")
def vba(xw) -> str:
    out = io.StringIO()
    xw.udfs.generate_vba_wrapper(MODULE, xw.module, out, Book())
    return out.getvalue()


def test_every_catalog_function_is_declared_through_xlwings(xw):
    declared = {n for n in dir(xw.module) if hasattr(getattr(xw.module, n), "__xlfunc__")}
    assert declared == set(udfs.CATALOG)
    for name, f in udfs.CATALOG.items():
        info = getattr(xw.module, name).__xlfunc__
        assert info["name"] == name and info["category"] == "napkin"
        assert info["ret"]["doc"] == f.__doc__
        params = list(inspect.signature(f).parameters.values())
        assert [a["name"] for a in info["args"]] == [p.name for p in params]
        for a, p in zip(info["args"], params, strict=True):
            assert a["doc"] == udfs.ARG_DOCS[name][p.name]
            assert a["options"] == {"ndim": 2, "err_to_str": True}
            assert ("optional" in a) == (p.default is not inspect.Parameter.empty)


def test_generated_vba_declares_every_function(vba):
    signatures = dict(re.findall(r"^Function (\w+)\((.*)\)$", vba, re.M))
    assert list(signatures) == sorted(udfs.CATALOG)  # xlwings writes them in dir() order
    for name, f in udfs.CATALOG.items():
        expect = ", ".join(("Optional " if p.default is not inspect.Parameter.empty else "")
                           + p.name for p in inspect.signature(f).parameters.values())
        assert signatures[name] == expect
        names = ", ".join(inspect.signature(f).parameters)
        assert (f'{name} = XLPy.CallUDF("{MODULE}", "{name}", Array({names}), ThisWorkbook, '
                "Application.Caller)") in vba
    assert all(len(line) < 1024 for line in vba.splitlines()), "VBA's line limit"


# Words VBA reserves (a parameter or function named so would not compile).
VBA_KEYWORDS = set("""
and as boolean byref byte byval call case class close const currency date debug decimal
declare dim do double each else elseif empty end endif enum eqv erase error event exit
false for friend function get global gosub goto if imp implements in input integer is let
like lock long longlong longptr loop lset me mod new next not nothing null object on open
option optional or paramarray preserve print private property public put raiseevent
redim rem resume return rset select set single static step stop string sub then to true
type typeof unlock until variant wend while with write xor
""".split())


def test_names_are_safe_in_excel_and_vba():
    cell_ref = re.compile(r"^[A-Za-z]{1,3}[0-9]+$")  # A1 .. XFD1048576 (or beyond: still)
    r1c1 = re.compile(r"^[Rr][0-9]*([Cc][0-9]*)?$|^[Cc][0-9]*$")
    for name, f in udfs.CATALOG.items():
        assert not cell_ref.match(name), f"{name} reads as a cell reference"
        assert not r1c1.match(name), f"{name} reads as an R1C1 reference"
        assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,254}", name)
        assert name.lower() not in VBA_KEYWORDS
        for p in inspect.signature(f).parameters:
            assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", p), p
            assert p.lower() not in VBA_KEYWORDS, f"{name}({p}): a VBA keyword"
            assert p.lower() != name.lower(), f"{name}({p}): same name as its function"


def test_macro_options_fit_255_characters(xw):
    # what import_udfs passes to Application.MacroOptions, before it cuts at 255
    for name in udfs.CATALOG:
        info = getattr(xw.module, name).__xlfunc__
        assert len(info["ret"]["doc"]) <= 255, name
        for a in info["args"]:
            assert len(a["doc"]) <= 255, (name, a["name"])


def call_udf(xw, name, *args):
    """What xlwings.udfs.call_udf and com_server.CallUDF do with a call from VBA."""
    f = getattr(xw.module, name)
    info = f.__xlfunc__
    args = list(args) + [MISSING] * (len(info["args"]) - len(args))
    for i, a in enumerate(args):
        arg_info = info["args"][min(i, len(info["args"]) - 1)]
        if isinstance(a, int) and a == MISSING:
            args[i] = arg_info.get("optional", None)
        else:
            args[i] = xw.xlwings.conversion.read(None, a, arg_info["options"])
    ret = f(*args)
    res = xw.xlwings.conversion.write(ret, None, info["ret"]["options"])
    if len(res) == 1 and len(res[0]) == 1:
        res = res[0][0]
    elif len(res) == 1 and len(res[0]) > 1:
        res = res[0]
    return res


def err(code):
    from addin.xlwings_udfs import scode

    return ("VT_ERROR", scode(code))


def cell(v):
    if isinstance(v, VARIANT):
        assert v.varianttype == 10
        return ("VT_ERROR", v.value)
    if isinstance(v, list | tuple):
        return [cell(x) for x in v]
    return v


def test_calls_as_excel_sends_them(xw):
    assert call_udf(xw, "RIDGE", 989.0, 3.35) == pytest.approx(295.2238805970149)
    assert call_udf(xw, "RIDGE", "989 TFLOPS", "3350 GB/s", 0.8) == pytest.approx(236.18, 1e-4)
    assert call_udf(xw, "FITS", 70.0, 80.0) is True
    assert call_udf(xw, "BOUND", 1.0, 295.0) == "memory-bound"
    assert call_udf(xw, "AMDAHL", 0.3) == pytest.approx(1 / 0.7)
    # a column stays a column, a row a row; a 2x2 broadcast comes back 2x2
    col = call_udf(xw, "RIDGE", ((989.0,), (1979.0,)), 3.35)
    assert col == [[pytest.approx(295.22388)], [pytest.approx(590.74627)]]
    row = call_udf(xw, "RIDGE", ((989.0, 1979.0),), 3.35)
    assert row == [pytest.approx(295.22388), pytest.approx(590.74627)]
    grid = call_udf(xw, "WEIGHT_GB", ((8.03e9,), (70e9,)), (("BF16", "FP8"),))
    assert grid == [[pytest.approx(16.06), pytest.approx(8.03)], [140, 70]]
    # a one-cell range reads as its value; an empty cell in a range is skipped or an error
    assert call_udf(xw, "RIDGE", ((989.0,),), ((3.35,),)) == pytest.approx(295.2238805970149)
    assert call_udf(xw, "GPU_SPEC", "H100", "bandwidth") == 3.35


def test_a_column_gives_each_cell_what_it_gives_alone(xw, monkeypatch):
    # a column of numbers reaches the catalog as one float array (rows_as_array); a
    # truth value (which the packer would read as 1 or 0), an empty cell, text or a
    # number out of range among them still gets the result of its own cell
    monkeypatch.delenv("NAPKIN_ERRORS", raising=False)
    cells = [989.0, 1.0, 0.0, True, False, None, "x", "989 TFLOPS", 1979.0, -1.0, 5e-324]
    alone = [cell(call_udf(xw, "RIDGE", c, 3.35)) for c in cells]
    got = cell(call_udf(xw, "RIDGE", tuple((c,) for c in cells), 3.35))
    assert got == [[a] for a in alone]
    numbers = [i for i, c in enumerate(cells) if type(c) is float]  # packed in one go
    got = cell(call_udf(xw, "RIDGE", tuple((cells[i],) for i in numbers), 3.35))
    assert got == [[alone[i]] for i in numbers]


def test_errors_are_excel_error_values(xw, monkeypatch):
    monkeypatch.delenv("NAPKIN_ERRORS", raising=False)
    assert cell(call_udf(xw, "RIDGE", 989.0, 0.0)) == err("#NUM!")
    assert cell(call_udf(xw, "RIDGE", True, 3.35)) == err("#VALUE!")
    assert cell(call_udf(xw, "GPU_SPEC", "nope", "memory")) == err("#N/A")
    assert cell(call_udf(xw, "RIDGE", "989 GB", 3.35)) == err("#VALUE!")
    mixed = cell(call_udf(xw, "RIDGE", ((989.0,), (-1.0,), ("x",)), 3.35))
    assert mixed == [[pytest.approx(295.22388)], [err("#NUM!")], [err("#VALUE!")]]
    assert err("#DIV/0!") == ("VT_ERROR", -2146826281)  # the code pywin32 reports for it
    assert err("#N/A") == ("VT_ERROR", -2146826246)


def test_a_models_range_without_a_column_it_needs_is_value(xw, monkeypatch):
    # gpt-oss-120b's checkpoint keeps attention and head in BF16 (Models column AA); a
    # range without that column is #VALUE!, its message in the log or, asked, the cell
    models = (("Model", "Parameters, total (billions)",
               "Parameters active per token (billions)", "Experts (routed)", "Experts per token",
               "Weights read per decode step, batch 1 (billions)",
               "One routed expert, all MoE layers (billions)"),
              ("gpt-oss-120b", 116.83, 5.13, 128.0, 4.0, 5.13, 0.8957952))
    args = ("gpt-oss-120b", "MXFP4", 3.35, MISSING, MISSING, MISSING, MISSING, MISSING,
            MISSING, models)
    monkeypatch.delenv("NAPKIN_ERRORS", raising=False)
    assert cell(call_udf(xw, "DECODE_FLOOR", *args)) == err("#VALUE!")
    monkeypatch.setenv("NAPKIN_ERRORS", "text")
    got = call_udf(xw, "DECODE_FLOOR", *args)
    assert got.startswith("#VALUE! models: the range has no 'Of those, read per decode step "
                          "(billions)' column")


def test_error_cells_passed_in_come_back_as_that_error(xw, monkeypatch):
    # VBA passes an error cell as its COM error code (an int), which xlwings' Windows
    # engine reads as None, like an empty cell, unless the argument asks for err_to_str.
    # Excel's own functions give the error back (=SQRT(NA()) is #N/A), and so do ours:
    # =RIDGE(989,3.35,NA()) is #N/A, never 295.2 with the default efficiency.
    monkeypatch.delenv("NAPKIN_ERRORS", raising=False)
    from addin.xlwings_udfs import scode

    assert cell(call_udf(xw, "RIDGE", 989.0, 3.35, scode("#N/A"))) == err("#N/A")
    assert cell(call_udf(xw, "RIDGE", scode("#DIV/0!"), 3.35)) == err("#DIV/0!")
    assert cell(call_udf(xw, "GPU_SPEC", scode("#REF!"), "memory")) == err("#REF!")
    col = cell(call_udf(xw, "RIDGE", ((989.0,), (scode("#NUM!"),)), 3.35))
    assert col == [[pytest.approx(295.2238805970149)], [err("#NUM!")]]
    # the same call with the argument read as xlwings does by default: the error is lost
    value = xw.xlwings.conversion.read(None, scode("#N/A"), {"ndim": 2})
    assert value == [[None]]


def test_errors_as_text_when_asked(xw, monkeypatch):
    monkeypatch.setenv("NAPKIN_ERRORS", "text")
    got = call_udf(xw, "RIDGE", 989.0, 0.0)
    assert isinstance(got, str) and got.startswith("#NUM! bandwidth")


def test_error_codes_match_xlwings_windows_table():
    import xlwings

    from addin.xlwings_udfs import XL_ERRORS, scode

    source = (Path(xlwings.__file__).parent / "_xlwindows.py").read_text("utf-8")
    table = dict((v, int(k)) for k, v in re.findall(r"(-21468\d+): \"(#[A-Z/0!?]+)\"", source))
    assert table and all(scode(code) == table[code] for code in table)
    assert set(XL_ERRORS) == set(udfs.machinery.errors.EXCEL_ERROR_CODES)


# napkin addin install ----------------------------------------------------------------

def test_install_on_windows_runs_xlwings_and_sets_only_the_interpreter(capsys):
    from addin.routes.install import install

    calls, written = [], []
    rc = install(platform="win32", run=lambda cmd: calls.append(cmd) or 0,
                 update_config=lambda settings: written.append(settings) or
                 ['"INTERPRETER_WIN": "python" -> "x"'])
    assert rc == 0
    assert calls == [[sys.executable, "-m", "xlwings.cli", "addin", "install"]]
    # UDF Modules is the workbook's setting (its xlwings.conf sheet), not a user-wide one
    assert written == [[("INTERPRETER_WIN", sys.executable)]]
    out = capsys.readouterr().out
    for step in ("Trust access to the VBA project", "Import Functions", ".xlsm",
                 "Tools > References", "=RIDGE(989,3.35)", '"python" -> "x"',
                 "napkin addin uninstall", "A1: UDF Modules, B1: addin.xlwings_udfs"):
        assert step in out


def test_install_reports_a_failed_addin_install(capsys):
    from addin.routes.install import install

    rc = install(platform="win32", run=lambda cmd: 3, update_config=lambda settings: [])
    assert rc == 1 and "exit status 3" in capsys.readouterr().err


@pytest.mark.parametrize("platform,dry", [("linux", False), ("darwin", False), ("win32", True)])
def test_install_elsewhere_or_dry_only_prints(platform, dry, capsys):
    from addin.routes.install import install

    def refuse(*a, **k):
        raise AssertionError("nothing may run")

    assert install(dry_run=dry, platform=platform, run=refuse, update_config=refuse) == 0
    out = capsys.readouterr().out
    assert "xlwings.cli addin install" in out and "Import Functions" in out


def test_xlwings_conf_rows():
    from addin.routes.install import UDF_MODULE, xlwings_conf_rows

    rows = xlwings_conf_rows()
    assert ("UDF Modules", UDF_MODULE) in rows
    assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in rows)
    keys = [k.upper() for k, _ in rows]
    assert len(keys) == len(set(keys)) and not any(k.startswith("INTERPRETER") for k in keys)
    # every key is one the xlwings add-in reads (its VBA asks GetConfig("KEY"))
    import xlwings

    bas = (Path(xlwings.__file__).parent / "xlwings.bas").read_text("utf-8", "replace")
    assert all(f'GetConfig("{k}"' in bas for k in keys)


# The user config, in a home folder whose name is not ASCII ------------------------------

PYTHON_JURGEN = "C:\\Users\\Jürgen\\AppData\\Local\\Programs\\Python\\Python312\\python.exe"
# A config as xlwings' VBA writes it (Write #: quoted, CRLF), in the ANSI code page
# (cp1252 on Western Windows), with keys of the user's that napkin must not touch.
ORIGINAL = ('"Interpreter_Win","C:\\Python39\\python.exe"\r\n'
            '"LICENSE_KEY","abc"\r\n'
            '"PYTHONPATH","C:\\Users\\Jürgen\\Documents\\lib"\r\n').encode("cp1252")


def _vba_reads(data: bytes, key: str) -> str | None:
    """What xlwings' VBA GetConfigFromFile finds: Input # in the ANSI code page, first
    case-insensitive match."""
    for line in data.decode("cp1252").splitlines():
        k, _, v = line.partition(",")
        if k.strip('"').lower() == key.lower():
            return v.strip('"')
    return None


@pytest.fixture
def jurgen(tmp_path) -> Path:
    conf = tmp_path / "Jürgen" / ".xlwings" / "xlwings.conf"
    conf.parent.mkdir(parents=True)
    return conf


def test_user_config_keeps_other_keys_backs_up_and_restores(jurgen):
    from addin.routes.install import restore_user_config, update_user_config

    jurgen.write_bytes(ORIGINAL)
    changes = update_user_config([("INTERPRETER_WIN", PYTHON_JURGEN)], str(jurgen), "cp1252")
    assert changes == ['"INTERPRETER_WIN": "C:\\Python39\\python.exe" -> "' + PYTHON_JURGEN + '"']
    data = jurgen.read_bytes()
    assert b"J\xfcrgen\\AppData" in data  # cp1252, as VBA reads it (UTF-8 would be \xc3\xbc)
    assert _vba_reads(data, "Interpreter_Win") == PYTHON_JURGEN
    lines, before = data.split(b"\r\n"), ORIGINAL.split(b"\r\n")
    assert lines[1:] == before[1:], "every other line byte for byte, in its place"
    backup = jurgen.with_name("xlwings.conf.napkin-bak")
    assert backup.read_bytes() == ORIGINAL
    # installing again changes nothing and keeps the first backup
    assert update_user_config([("INTERPRETER_WIN", PYTHON_JURGEN)], str(jurgen),
                              "cp1252") == []
    assert backup.read_bytes() == ORIGINAL
    # the user adds a key afterwards; uninstall restores ours and keeps theirs
    jurgen.write_bytes(jurgen.read_bytes() + b'"SHOW CONSOLE","True"\r\n')
    assert restore_user_config(["INTERPRETER_WIN"], str(jurgen)) == ['"INTERPRETER_WIN" restored']
    assert jurgen.read_bytes() == ORIGINAL + b'"SHOW CONSOLE","True"\r\n'
    assert not backup.exists()
    assert restore_user_config(["INTERPRETER_WIN"], str(jurgen)) is None


def test_user_config_created_and_removed_again(jurgen):
    from addin.routes.install import restore_user_config, update_user_config

    update_user_config([("INTERPRETER_WIN", PYTHON_JURGEN)], str(jurgen), "cp1252")
    assert jurgen.read_bytes() == f'"INTERPRETER_WIN","{PYTHON_JURGEN}"\n'.encode("cp1252")
    assert restore_user_config(["INTERPRETER_WIN"], str(jurgen)) == \
        ['"INTERPRETER_WIN" removed (it was not set before)']
    assert not jurgen.exists()


def test_user_config_refuses_what_the_code_page_cannot_hold(jurgen):
    from addin.routes.install import update_user_config

    jurgen.write_bytes(ORIGINAL)
    with pytest.raises(ValueError, match="code page"):
        update_user_config([("INTERPRETER_WIN", "C:\\Users\\张伟\\python.exe")], str(jurgen),
                           "cp1252")
    assert jurgen.read_bytes() == ORIGINAL
    assert not jurgen.with_name("xlwings.conf.napkin-bak").exists()


def test_the_encoding_is_the_one_xlwings_uses():
    """xlwings' CLI writes the file with Python's default encoding (the ANSI code page on
    Windows) and its VBA reads it with Open ... For Input (ANSI): so does napkin."""
    import xlwings

    from addin.routes.install import ansi_encoding

    cli = (Path(xlwings.__file__).parent / "cli.py").read_text("utf-8")
    assert 'with open(xw.USER_CONFIG_FILE, "w") as f:' in cli  # no encoding: the default
    bas = (Path(xlwings.__file__).parent / "xlwings.bas").read_text("utf-8", "replace")
    body = bas[bas.index("Function GetConfigFromFile"):]
    assert "Open sFile For Input As iFileNum" in body[:800]
    assert ansi_encoding() == ("mbcs" if sys.platform.startswith("win") else "cp1252")


def test_cli_uninstall_in_a_non_ascii_home(tmp_path):
    # The file's content stays ASCII here: xlwings itself (utils.read_user_config, on
    # import) reads it with the locale's encoding, which is UTF-8 on this test machine and
    # the ANSI code page on Windows; the code-page bytes are tested above.
    home = tmp_path / "Jürgen"
    conf = home / ".xlwings" / "xlwings.conf"
    conf.parent.mkdir(parents=True)
    original = ORIGINAL.replace("ü".encode("cp1252"), b"ue")
    conf.write_bytes(original.replace(b"Python39", b"Python312"))
    conf.with_name("xlwings.conf.napkin-bak").write_bytes(original)
    env = dict(__import__("os").environ, HOME=str(home), USERPROFILE=str(home))
    root = Path(__file__).resolve().parent.parent
    r = __import__("subprocess").run([sys.executable, "-m", "addin.cli", "addin", "uninstall"],
                                     capture_output=True, text=True, cwd=root, env=env)
    assert r.returncode == 0, r.stderr
    assert "INTERPRETER_WIN" in r.stdout and "restored" in r.stdout
    assert conf.read_bytes() == original
