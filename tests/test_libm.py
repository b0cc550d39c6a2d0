"""LN, LOG10, LOG and EXP by the C library, one number at a time
(``addin/formula/libm.py``): the same digits on every processor with that library.

The value checked by hand is the native edition's ``LOG10(25/8)``: ``decimal`` to 50
digits gives 0.494850021680094023931..., between the doubles 0.494850021680094 (the
correctly rounded one, 1.4E-17 away) and 0.49485002168009407 (4.1E-17 away, less than one
unit in the last place, 5.6E-17). The C library gives the second; the committed edition's
cells were computed from 0.49485002168009395, two units further, on the machine that
built it.
"""

from __future__ import annotations

import math
import random
from decimal import Decimal, localcontext

import pytest

from addin.engine.boot import ready
from addin.formula import fx


def _fn(name):
    ready()
    return fx.load().get_functions()[name]


def _value(got):
    return got.ravel()[0] if hasattr(got, "ravel") else got


def test_log10_of_the_native_editions_cell_is_within_a_unit_of_the_exact_value():
    with localcontext() as ctx:
        ctx.prec = 50
        exact = Decimal("3.125").log10()
    got = _value(_fn("LOG10")(25 / 8))
    assert got == math.log10(25 / 8) == 0.49485002168009407
    assert abs(Decimal(got) - exact) < Decimal(math.ulp(got))
    assert float(exact) == 0.494850021680094  # (the correctly rounded double)


@pytest.mark.parametrize("name, libm", [("LN", math.log), ("LOG10", math.log10),
                                        ("EXP", math.exp)])
def test_each_number_is_the_c_librarys(name, libm):
    rng = random.Random(7)
    xs = [rng.uniform(1e-6, 700) for _ in range(500)]
    fn = _fn(name)
    assert [_value(fn(x)) for x in xs] == [libm(x) for x in xs]


def test_log_divides_the_natural_logarithms_as_formulas_did():
    # formulas' LOG(x, base) is ln(x)/ln(base); 8 to the base 2 is 3 exactly
    assert _value(_fn("LOG")(8, 2)) == math.log(8) / math.log(2) == 3.0
    assert _value(_fn("LOG")(1000)) == math.log(1000) / math.log(10)


@pytest.mark.parametrize("name, args", [("LN", (0,)), ("LN", (-1,)), ("LOG10", (0,)),
                                        ("EXP", (1000,)), ("LOG", (-8, 2))])
def test_outside_the_domain_num(name, args):
    # Microsoft Support: LN and LOG10 of 0 or less, EXP beyond the largest number: #NUM!
    assert str(_value(_fn(name)(*args))) == "#NUM!"
