"""The engine's short ways give what the long ways give: ``+ - * /`` on one number
each (``addin.formula.arithmetic._fast_arithmetic``) against the operators it stands
in front of, the plain area description (``addin.formula.ranges.area_ref``) against
formulas' ``range2parts``, and the value of a one-area Ranges against formulas' own."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from addin.engine import boot
from addin.engine.api import evaluate
from addin.formula import ranges


def _operands():
    ns = boot.ready()
    values = [0, 1, -3, 2.5, 1e308, -1e308, 5e-324, True, False, "2", "x", ns.EMPTY,
              ns.errors["#N/A"], 0.0]
    out = []
    for v in values:
        cell = ranges.make_ranges([ranges.area_ref("[1]S", 3, 4, 3, 4)], [np.array([[v]], object)])
        out += [v, cell, np.array([[v]], object), np.array(v, object)]
    out.append(ranges.make_ranges([ranges.area_ref("[1]S", 3, 4, 4, 4)],
                              [np.array([[1.0], [2.0]], object)]))
    out.append(np.array([[1, 2]], object))
    return out


@pytest.mark.parametrize("sym", ["+", "-", "*", "/"])
def test_arithmetic_same_as_formulas(sym):
    from formulas.functions.operators import OPERATORS

    boot.ready()
    ours = OPERATORS[sym]
    theirs = ours.__wrapped__  # the operator the short way stands in front of
    assert ours is not theirs
    cands = _operands()
    for a, b in itertools.product(cands, cands):
        got, want = ours(a, b), theirs(a, b)
        assert type(got) is type(want) and np.shape(got) == np.shape(want), (a, b)
        g, w = np.asarray(got).ravel().tolist(), np.asarray(want).ravel().tolist()
        assert [type(x) for x in g] == [type(x) for x in w] and g == w, (a, b, g, w)


@pytest.mark.parametrize("formula, expected", [
    ("=1.5*4", 6.0),  # hand arithmetic
    ("=7/2-1", 2.5),
    ("=1/0", "#DIV/0!"),
    ("=1E+308*10", "#NUM!"),  # beyond a float: Excel's #NUM!
    ('="3"+1', 4.0),  # text that is a number: formulas' operator
    ("=TRUE+1", 2.0),
])
def test_arithmetic_in_formulas(formula, expected):
    got = evaluate(formula, {})
    assert (getattr(got, "code", None) or got) == expected


def test_area_ref_same_as_range2parts():
    ns = boot.ready()
    rnd = random.Random(7)
    for sid in ("[1]S", "S", "", "[1]MY SHEET"):
        for _ in range(3000):
            r1, c1 = rnd.randint(1, 1048576), rnd.randint(1, 16384)
            r2 = rnd.choice([r1, rnd.randint(r1, 1048576), 1048576])
            c2 = rnd.choice([c1, rnd.randint(c1, 16384), 16384])
            if rnd.random() < 0.3:
                r1, c1, r2, c2 = (rnd.randint(1, 30) for _ in range(4))
            assert ranges.area_ref(sid, r1, c1, r2, c2) == ns.range2parts(
                None, sheet_id=sid, r1=str(r1), n1=c1, r2=str(r2), n2=c2)


def test_one_area_value_same_as_formulas():
    """The value make_ranges sets for one area is what formulas computes for it."""
    ns = boot.ready()
    rnd = random.Random(3)
    for _ in range(500):
        r1, c1 = rnd.randint(1, 50), rnd.randint(1, 50)
        r2, c2 = r1 + rnd.randint(0, 4), c1 + rnd.randint(0, 4)
        arr = np.empty((r2 - r1 + 1, c2 - c1 + 1), dtype=object)
        arr[:] = ns.EMPTY
        for idx in np.ndindex(arr.shape):
            if rnd.random() < 0.7:
                arr[idx] = rnd.choice([1, 2.5, "x", True, ns.errors["#N/A"]])
        rd = ranges.area_ref("[1]S", r1, c1, r2, c2)
        theirs = ns.Ranges((rd,), {rd["name"]: (rd, arr)}).value
        ours = ranges.make_ranges([rd], [arr]).value
        assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
        assert all(a is b for a, b in zip(ours.ravel(), theirs.ravel(), strict=True))


def _installed(name):
    """formulas' function or operator ``name`` as the engine runs it (after our
    corrections)."""
    from formulas.functions.operators import OPERATORS

    ns = boot.ready()
    if name in OPERATORS:
        return OPERATORS[name]
    f = ns.get_functions()[name]
    return f["function"] if isinstance(f, dict) else f


def _same_result(got, want):
    assert type(got) is type(want) and np.shape(got) == np.shape(want)
    g, w = np.asarray(got, object).ravel().tolist(), np.asarray(want, object).ravel().tolist()
    assert [type(x) for x in g] == [type(x) for x in w] and g == w, (g, w)


@pytest.mark.parametrize("name, arity", [
    ("IF", 3), ("IF", 2), ("NOT", 1), ("ROUND", 2), ("ABS", 1), ("=", 2), ("<>", 2),
    ("<", 2), (">=", 2), ("&", 2), ("^", 2), ("U-", 1), ("%", 1)])
def test_one_cell_same_as_formulas(name, arity):
    """``addin.formula.one_cell`` gives what formulas' element-wise function gives, for
    one-cell operands of every kind (numbers, booleans, text, empty, errors; as values,
    references, 1x1 and 0-d arrays) and for the larger ones it passes on."""
    from addin.formula.one_cell import one_cell

    theirs = _installed(name)
    ours = one_cell(theirs)
    assert ours is not theirs  # a short way was made
    cands = _operands()
    combos = list(itertools.product(cands, repeat=arity))
    if len(combos) > 4000:
        combos = random.Random(26).sample(combos, 4000)
    for args in combos:
        _same_result(ours(*args), theirs(*args))
