"""Excel's EFFECT and NOMINAL (an annual rate compounded npery times a year, one from the
other) and MIRR (the modified internal rate of return): closed forms, no iteration.

Each is computed by the formula its page gives, and refused (``Cannot``) where the page
does not settle Excel's value (a logical value, a rate of -1 or below) or where two
roundings of that formula differ by more than ``AGREE`` (a rate so near 0 that its last
digits are those of the subtraction of 1, which no page says how Excel rounds).

References
----------
Microsoft Support, "EFFECT function" (EFFECT(5.25%,4) = 0.0535427), "NOMINAL function"
(NOMINAL(5.3543%,4) = 0.05250032), "MIRR function" (-120,000 then 39,000, 30,000,
21,000, 37,000, 46,000 at 10% and 12%: 13%; the first four: -5%; at 14%: 13%);
Excel's values in tests/corpus/sheetjs/formula_stress_test.xlsx (Finance!B4, B5, B9).
"""

from __future__ import annotations

import math

import numpy as np

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import fx
from udfs.machinery.errors import ExcelError

#: two roundings of one formula must agree to this, relative (the census compares to 1e-9)
AGREE = 1e-11


def _number(v, what: str) -> float:
    if isinstance(xa.one_value(v), bool):
        raise Cannot(f"{what} given a logical value (its page does not say Excel's value)")
    return xa.number(v, what)


def _agreed(name: str, value: float, other: float) -> float:
    if not math.isfinite(value) or not math.isclose(value, other, rel_tol=AGREE):
        raise Cannot(f"{name} of a rate so near 0 (or so large) that its last digits "
                     "depend on how 1 is subtracted (no page says)")
    return value


def _rate_and_periods(name: str, rate, npery) -> tuple[float, int]:
    """The rate and npery truncated to a whole number, #NUM! for a rate of 0 or below or
    an npery below 1 (the pages: "If nominal_rate ≤ 0 or if npery < 1, EFFECT returns
    the #NUM! error value", "Npery is truncated to an integer")."""
    r = _number(rate, f"{name}'s rate")
    n = math.trunc(_number(npery, f"{name}'s npery"))
    if r <= 0 or n < 1:
        raise ExcelError("#NUM!", f"{name}'s rate is not above 0 or its npery below 1")
    return r, n


def effect(nominal_rate, npery):
    """Excel's ``EFFECT(nominal_rate, npery)``: ``(1 + nominal_rate/npery)^npery - 1``
    (its page's formula), by a power as formulas computes it, refused where
    ``expm1(npery * log1p(nominal_rate/npery))`` differs by more than ``AGREE``."""
    r, n = _rate_and_periods("EFFECT", nominal_rate, npery)
    try:
        value = (1.0 + r / n) ** n - 1.0
        other = math.expm1(n * math.log1p(r / n))
    except OverflowError:
        raise Cannot("EFFECT whose value is beyond the largest number") from None
    return _agreed("EFFECT", value, other)


def nominal(effect_rate, npery):
    """Excel's ``NOMINAL(effect_rate, npery)``: ``((1 + effect_rate)^(1/npery) - 1) *
    npery``, EFFECT's inverse (its page), by a power as formulas computes it (Excel's
    NOMINAL(EFFECT(5.25%,4),4), Finance!B5, 0.052500000000000213: the same digits),
    refused where ``expm1(log1p(effect_rate)/npery) * npery`` differs by more than
    ``AGREE``."""
    r, n = _rate_and_periods("NOMINAL", effect_rate, npery)
    value = ((1.0 + r) ** (1.0 / n) - 1.0) * n
    return _agreed("NOMINAL", value, math.expm1(math.log1p(r) / n) * n)


def _flows(values) -> list[float]:
    """MIRR's cash flows: the numbers of a range or array, in Excel's order (rows first),
    its text, logical values and empty cells left out, zeros kept (the page: "If an array
    or reference argument contains text, logical values, or empty cells, those values
    are ignored; however, cells with the value zero are included"). A single value (no
    range nor array: the page asks for one) is refused; an error value is left to strict
    mode's forms (MIRR is not checked for errors)."""
    ns = fx.load()
    if not isinstance(values, (ns.Ranges, np.ndarray)):
        raise Cannot("MIRR given a single value as its values (its page asks for an array "
                     "or a reference)")
    raw = values.value if isinstance(values, ns.Ranges) else values
    out = []
    for x in np.asarray(raw, dtype=object).ravel():
        if isinstance(x, ns.XlError):  # (a str too: tested first)
            raise ExcelError(str(x).split(" ", 1)[0], "MIRR's values hold an error value")
        if x is ns.EMPTY or isinstance(x, (bool, np.bool_, str)):
            continue
        out.append(float(x))
    return out


def _npv(rate: float, flows) -> float:
    """Excel's NPV: ``sum(value_i / (1 + rate)^i)``, i from 1."""
    return sum(v / (1.0 + rate) ** i for i, v in enumerate(flows, 1))


def mirr(values, finance_rate, reinvest_rate):
    """Excel's ``MIRR(values, finance_rate, reinvest_rate)``, by its page's formula, n the
    number of cash flows::

        ((-NPV(rrate, values[positive]) * (1 + rrate)^n)
         / (NPV(frate, values[negative]) * (1 + frate)))^(1/(n - 1)) - 1

    #DIV/0! without a positive and a negative value (the page). Refused (``Cannot``): an
    empty cell as a rate, a rate of -1 or below (the page does not say Excel's value), and
    a result numpy-financial's form (formulas' MIRR: the future value of the positive
    flows over the present value of the negative, from period 0) gives otherwise by more
    than ``AGREE``.
    """
    flows = _flows(values)
    f = _number(finance_rate, "MIRR's finance_rate")
    r = _number(reinvest_rate, "MIRR's reinvest_rate")
    if any(xa.one_value(v) is fx.load().EMPTY for v in (finance_rate, reinvest_rate)):
        raise Cannot("MIRR given an empty cell as a rate (its page does not say Excel's "
                     "value; MIRR is checked for empty cells among its values only)")
    if f <= -1 or r <= -1:
        raise Cannot("MIRR with a rate of -1 or below (its page does not say Excel's value)")
    positive = [v if v > 0 else 0.0 for v in flows]
    negative = [v if v < 0 else 0.0 for v in flows]
    if not any(positive) or not any(negative):
        raise ExcelError("#DIV/0!", "MIRR's values need a positive and a negative value")
    n = len(flows)
    try:
        ratio = (-_npv(r, positive) * (1.0 + r) ** n) / (_npv(f, negative) * (1.0 + f))
        value = ratio ** (1.0 / (n - 1)) - 1.0
        forward = sum(v * (1.0 + r) ** (n - 1 - i) for i, v in enumerate(positive))
        back = -sum(v / (1.0 + f) ** i for i, v in enumerate(negative))
        other = (forward / back) ** (1.0 / (n - 1)) - 1.0
    except (OverflowError, ZeroDivisionError):
        raise Cannot("MIRR whose terms are beyond the largest number") from None
    return _agreed("MIRR", value, other)
