"""Excel's operators between arrays of different sizes in an array formula: each is
expanded to the most rows and the most columns of the two, an array of one row (one
column) repeated down (across), and the places one of them does not reach are #N/A.
formulas raises its BroadcastError there, which the cell took as #VALUE!. A builder of
``addin.formula.patches`` (``by(original, key)`` returns the replacement).

References
----------
Microsoft Support, "Guidelines and examples of array formulas" (arrays in an operation
are expanded to the same size). The cells Excel saved in the business corpus's fourth
held-out part (seen), PhongDiii/Individual-project-Production-Planning-in-Hoa-Phat,
Forecast.xlsx, sheet Holt's Method: Q90 = (1/22)*SUM((_xlfn.ANCHORARRAY(D3)-I3:I38)^2),
an array of 24 rows less one of 36, is #N/A (the 12 rows the first does not reach),
where P90 = (1/22)*SUM(ABS(_xlfn.ANCHORARRAY(D3)-I3:I26)), 24 rows less 24, is a
number; S90, T90, P91, Q91 likewise (tests/test_array_sizes.py).
"""

from __future__ import annotations

import functools

import numpy as np


def _grid(v):
    """The values of an operand as a 2-D array of objects, or None (a value napkin leaves
    to formulas)."""
    try:
        a = np.asarray(getattr(v, "value", v), dtype=object)
    except Exception:  # formulas' own error for the reference
        return None
    if a.ndim == 0:
        a = a.reshape(1, 1)
    return a if a.ndim == 2 else None


def expanded(grids, na):
    """The operands ``grids`` (2-D arrays) expanded to the most rows and columns among
    them: one row or one column repeated, the places a larger one does not reach
    ``na``."""
    rows = max(g.shape[0] for g in grids)
    cols = max(g.shape[1] for g in grids)
    out = []
    for g in grids:
        r, c = g.shape
        e = np.empty((rows, cols), dtype=object)
        for i in range(rows):
            for j in range(cols):
                si, sj = (0 if r == 1 else i), (0 if c == 1 else j)
                e[i, j] = g[si, sj] if si < r and sj < c else na
        out.append(e)
    return out


def expanding_operands(original, key: str):
    """formulas' operator ``key`` given arrays of different sizes: computed on the
    operands ``expanded`` as Excel does (the module's docstring), where formulas raises
    BroadcastError."""
    from addin.formula.fx import load

    ns = load()

    def expanding(op):
        @functools.wraps(op)
        def operator(*args):
            try:
                return op(*args)
            except ns.BroadcastError:
                grids = [_grid(a) for a in args]
                if any(g is None for g in grids):
                    raise
                return op(*(g.view(ns.Array) for g in expanded(grids, ns.errors["#N/A"])))

        # (one-cell operands never differ in size: ``addin.formula.one_cell`` makes its
        # short way from the operator this one adds to)
        operator.one_cell_as = op
        return operator

    operator = expanding(original)
    if hasattr(original, "final"):  # (+ and -: ``addin.formula.cancellation``)
        operator.final = expanding(original.final)
    return operator


def _shape(v) -> tuple[int, int]:
    """Rows and columns of an argument's value (a single value: 1 x 1)."""
    g = _grid(v)
    return (1, 1) if g is None else g.shape


def unequal_sizes(name: str, args) -> str | None:
    """Why a call of ``name`` computed element by element over ``args`` is refused: two of
    them of sizes Excel would expand with #N/A (in a dimension, both more than 1 and
    different: the module's docstring), or None. formulas' functions raised BroadcastError
    there (the cell #VALUE!); ``each_element`` expands them as the operators are, but no
    cell Excel saved shows a function given them: strict mode refuses such a call
    (``addin.engine.forms.guarded``): ``=ROUND(A1:A4,{1;2})`` in Excel is #N/A in its
    last two rows, by the page."""
    shapes = [_shape(a) for a in args if isinstance(a, np.ndarray) or hasattr(a, "value")]
    for dim in (0, 1):
        big = [s for s in shapes if s[dim] > 1]
        for s in big[1:]:
            if s[dim] != big[0][dim]:
                (r1, c1), (r2, c2) = big[0], s
                return (f"{name}() given arrays of different sizes ({r1}x{c1} and {r2}x{c2}):"
                        " Excel expands them, #N/A where one does not reach; no cell Excel "
                        "saved shows it for a function's arguments")
    return None



def broadcast(grids):
    """The places of a result computed element by element over ``grids`` (2-D arrays, or
    None for an argument of one value): ``(rows, cols, places)``, the most rows and
    columns among them, and for each place ``(i, j, at)``, ``at`` the position read in each
    grid (None for a value) or None where one grid does not reach it (Excel's #N/A there:
    an array of one row or column is repeated, a larger one is not)."""
    rows = max(g.shape[0] for g in grids if g is not None)
    cols = max(g.shape[1] for g in grids if g is not None)

    def places():
        for i in range(rows):
            for j in range(cols):
                at = [None if g is None else (0 if g.shape[0] == 1 else i,
                                              0 if g.shape[1] == 1 else j) for g in grids]
                reached = all(p is None or p[0] < g.shape[0] and p[1] < g.shape[1]
                              for p, g in zip(at, grids, strict=True))
                yield i, j, at if reached else None

    return rows, cols, places()


def each_element(func, skip: int, *args):
    """``func`` (a function Excel computes element by element) of ``args``, its first
    ``skip`` formulas' own: where an argument holds several values (a range of many cells,
    an array), computed once for each place of the result (the most rows and columns of
    the arguments; one row or column repeated; a place one does not reach #N/A), each
    element given as a one-value array, as a nested call gives it. So each element is the
    value, and passes the checks, of the one-cell call of its own values: napkin's checks
    of such functions read one value (the bounds of ``addin.formula.fx_excel_args.
    bounded``, POISSON's x, FIND's start_num...) and left a whole array unchecked.
    References: Microsoft Support, "Guidelines and examples of array formulas"."""
    grids = [_grid(a) if isinstance(a, np.ndarray) or hasattr(a, "value") else None
             for a in args[skip:]]
    grids = [None if g is None or g.size == 1 and not hasattr(a, "value") else g
             for a, g in zip(args[skip:], grids, strict=True)]
    if all(g is None or g.size == 1 for g in grids):
        return func(*args)
    from addin.formula import context
    from addin.formula.fx import Fallback, load

    ns = load()
    rows, cols, places = broadcast(grids)
    out = np.empty((rows, cols), dtype=object)
    for i, j, at in places:
        if at is None:
            out[i, j] = ns.errors["#N/A"]  # (a place one argument does not reach)
            continue
        vals = [a if g is None else np.asarray([[g[p]]], object).view(ns.Array)
                for a, g, p in zip(args[skip:], grids, at, strict=True)]
        try:
            r = func(*args[:skip], *vals)
        except (Fallback, RecursionError, NotImplementedError):
            raise
        except Exception:  # (a failure is the element's #VALUE!, as a one-cell
            r = ns.errors["#VALUE!"]  # call's is the cell's: addin.engine.executor.call)
        r = getattr(r, "value", r)  # (a reference given back: its value)
        if isinstance(r, np.ndarray) and r.size != 1:
            context.refuse(f"{getattr(func, '__name__', 'a function')} gave several "
                           "values for one element of an array")
            r = ns.errors["#VALUE!"]
        out[i, j] = r.item(0) if isinstance(r, np.ndarray) else r
    return out.view(ns.Array)


def each_call(func, skip: int, lifted: bool, state):
    """``func`` computed by ``each_element`` where its call is computed element by element:
    ``lifted`` (in a ``LIFTING`` function's argument) or in an array formula (the engine's
    ``state.node`` spills); elsewhere ``func`` itself, a reference it is given intersected
    with a one-cell formula's cell as before."""
    def call(*args):
        node = getattr(state, "node", None)
        if lifted or node is not None and node.spill is not None:
            return each_element(func, skip, *args)
        return func(*args)

    return call
