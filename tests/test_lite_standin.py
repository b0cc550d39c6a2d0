"""The xlwings stand-in of the Lite tests (tests/pyodide/xlwings_standin) converts
arguments and results as xlwings Lite does, checked against xlwings' own code."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
from lite_support import ERR, STANDIN


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
