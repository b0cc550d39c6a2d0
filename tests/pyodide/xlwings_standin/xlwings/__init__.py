"""A stand-in for xlwings in tests: records what ``func``/``arg``/``ret`` declare, and
calls a declared function the way xlwings Lite does, and converts what it returns.

Used where the real xlwings is absent (Pyodide under Node) or must not register
anything (CPython tests of the Lite bundle). ``REGISTRY[name]`` holds, per decorated
function: the function, its module, its docstring and {argument: options} from ``arg``.

``call_udf`` passes arguments as xlwings' Office.js route does
(``xlwings.pro.udfs_officejs.custom_functions_call``: ``to_scalar``, then an absent
argument takes its default, anything else goes through ``conversion.read`` with the
argument's options, whose cleaning step is ``_clean_value_data_element`` of
``xlwings/pro/_xlofficejs.py``). What matters here: an error cell, which Office.js sends
as ``{"type": "Error", "basicValue": "#N/A", ...}``, arrives as ``None`` (as if the cell
were empty) unless the argument is declared with ``err_to_str=True``; then it arrives as
its code text. ``tests/test_lite.py`` checks this cleaning against xlwings' own source.
"""

import inspect

REGISTRY = {}


def _entry(f):
    e = REGISTRY.get((f.__module__, f.__name__))
    if e is None or e["function"] is not f:
        e = {"function": f, "module": f.__module__, "name": f.__name__, "doc": f.__doc__,
             "args": {}, "ret": {}, "func": {}}
        REGISTRY[(f.__module__, f.__name__)] = e
    return e


def func(f=None, **options):
    def inner(g):
        _entry(g)["func"] = dict(options, declared=True)
        return g

    return inner if f is None else inner(f)


def arg(name, convert=None, **options):
    def inner(g):
        _entry(g)["args"][name] = dict(options, convert=convert)
        return g

    return inner


def ret(convert=None, **options):
    def inner(g):
        _entry(g)["ret"] = dict(options, convert=convert)
        return g

    return inner


script = func


# Calling a declared function as xlwings Lite does ------------------------------------

def clean_element(value, empty_as=None, err_to_str=False):
    """One cell of an argument, as ``_clean_value_data_element`` (Office.js) cleans it."""
    if value == "":
        return empty_as
    if isinstance(value, dict):
        if value["type"] == "Error":
            return value["basicValue"] if err_to_str else None
        return value["basicValue"]
    return value


def to_scalar(value):
    """``udfs_officejs.to_scalar``: a one-cell range is its value, one row a flat list."""
    if isinstance(value, (list, tuple)) and len(value) == 1:
        if isinstance(value[0], (list, tuple)) and len(value[0]) == 1:
            return value[0][0]
        return value[0]
    return value


def read(value, options):
    """``conversion.read`` of a UDF argument: Ensure2DStage, CleanDataFromReadStage, then
    AdjustDimensionsStage for ``ndim`` 2 (rows) or None (squeezed)."""
    if isinstance(value, (list, tuple)):
        rows = [value] if value and not isinstance(value[0], (list, tuple)) else value
    else:
        rows = [[value]]
    rows = [[clean_element(c, options.get("empty"), options.get("err_to_str", False))
             for c in r] for r in rows]
    if options.get("ndim") == 2:
        return rows
    if len(rows) == 1:
        return rows[0][0] if len(rows[0]) == 1 else rows[0]
    if len(rows[0]) == 1:
        return [r[0] for r in rows]
    return rows


def write(value):
    """``conversion.write`` of a result, as far as napkin's results need it: xlwings
    routes a value by its exact type, and a numpy array goes to ``NumpyArrayConverter``,
    whose ``write_value`` is ``value.tolist()``; anything else passes as it is (the
    later cleaning of each cell is not modelled: napkin returns plain values)."""
    if type(value).__name__ == "ndarray" and type(value).__module__ == "numpy":
        return value.tolist()
    return value


def call_udf(function, args):
    """Call a declared function with ``args`` as Office.js sends them (numbers, text,
    booleans, error dicts, None for an omitted argument, lists of rows for a range)."""
    e = _entry(function)
    params = list(inspect.signature(function).parameters.values())
    converted = []
    # Office.js sends every declared parameter; an omitted one as null (None)
    args = list(args) + [None] * (len(params) - len(args))
    for p, a in zip(params, args, strict=True):
        a = to_scalar(a)
        if a is None:
            converted.append(p.default if p.default is not inspect.Parameter.empty else None)
        else:
            converted.append(read(a, e["args"].get(p.name, {})))
    return write(function(*converted))
