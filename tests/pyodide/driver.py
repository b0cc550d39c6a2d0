"""Runs the Lite bundle's main.py the way the tests need, in Pyodide or CPython.

``run(cases_json)`` imports ``main`` (the bundle, with the xlwings stand-in on the path),
lists what it declared through ``func``/``arg``, calls each case and returns a JSON text:

    {"python": "3.13.2", "numpy": false,
     "timings_ms": {"import_main": ..., "first_call": ...},
     "registered": {NAME: {"doc": ..., "params": [...], "optional": [...],
                           "args": {arg: {"doc": ..., "ndim": 2, "err_to_str": True}}}},
     "results": [value or {"raised": type, "message": text}, ...]}

Each case is [NAME, [args...]]: what Office.js hands to xlwings Lite (numbers, text,
booleans, ``{"type": "Error", "basicValue": "#N/A", ...}`` for an error cell, None for an
omitted argument or empty cell, lists of rows for a range). Each call goes through the
stand-in's ``call_udf``, which converts the arguments with their declared options as
xlwings Lite does (an error cell is None unless the argument asks for ``err_to_str``).
"""

import inspect
import json
import sys
import time


def _encode(value):
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return {"unexpected": type(value).__name__, "repr": repr(value)}


def run(cases_json):
    cases = json.loads(cases_json)
    t0 = time.perf_counter()
    import main  # the bundle
    t1 = time.perf_counter()
    first = main.RIDGE("989 TFLOPS", "3.35 TB/s")
    t2 = time.perf_counter()

    import xlwings

    registered = {}
    for (module, name), e in xlwings.REGISTRY.items():
        if module != "main" or not e["func"].get("declared"):
            continue
        params = inspect.signature(e["function"]).parameters.values()
        registered[name] = {
            "doc": e["doc"],
            "params": [p.name for p in params],
            "optional": [p.name for p in params if p.default is not inspect.Parameter.empty],
            "args": {a: {"doc": o.get("doc"), "ndim": o.get("ndim"),
                         "err_to_str": o.get("err_to_str", False)}
                     for a, o in e["args"].items()},
        }
    results = []
    for name, args in cases:
        try:
            results.append(_encode(xlwings.call_udf(getattr(main, name), args)))
        except Exception as exc:  # recorded, compared by the test
            results.append({"raised": type(exc).__name__, "message": str(exc)})
    try:
        import numpy  # noqa: F401

        has_numpy = True
    except ImportError:
        has_numpy = False
    return json.dumps({
        "python": sys.version.split()[0],
        "numpy": has_numpy,
        "first_value": _encode(first),
        "udfs_file": main._udfs.__file__,
        "timings_ms": {"import_main": (t1 - t0) * 1000, "first_call": (t2 - t1) * 1000},
        "registered": registered,
        "results": results,
    })
