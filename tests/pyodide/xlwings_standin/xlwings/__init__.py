"""A stand-in for xlwings in tests: records what ``func``/``arg``/``ret`` declare.

Used where the real xlwings is absent (Pyodide under Node) or must not register
anything (CPython tests of the Lite bundle). ``REGISTRY[name]`` holds, per decorated
function: the function, its module, its docstring and {argument: options} from ``arg``.
"""

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
