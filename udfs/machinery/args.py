"""Reading Excel arguments: types, default units, domains, ranges and error values.

Each catalog argument is described by an ``Arg``: its name (used in every message),
its default unit for bare numbers, and its domain. ``Arg.scalar`` turns one Excel value
into a float or raises ``udfs.machinery.errors.ExcelError``; ``Arg.array`` does the same for
a whole range at once, vectorised when numpy is present.

What Excel can pass, and what happens:

============================  =====================================================
float, int                    read in the argument's default unit (so is any other
                              real number Python reads as a float: Decimal, Fraction,
                              numpy numbers; numpy's bool_ is a truth value)
text "3.35 TB/s"              converted with pint (``udfs.machinery.units``); cached
text "3.35"                   a number typed as text: read like a bare number
bool (TRUE/FALSE)             ``#VALUE!`` (a truth value is not a quantity)
None (empty cell)             the default of an optional argument, else ``#VALUE!``
an error value                comes back out unchanged
NaN, ±inf                     ``#NUM!``
a range (list, list of lists,  mapped element-wise; the result is a numpy array of the
numpy array)                  range's shape (nested lists where numpy is missing)
============================  =====================================================

References
----------
.. [1] Microsoft, "Excel specifications and limits" (the largest number a cell holds,
   about 1.797E+308; a cell never holds NaN or infinity).
.. [2] Microsoft, "How to correct a #VALUE! error", "How to correct a #NUM! error" and
   "How to correct a #N/A error" (the error values used here, by kind of bad input).
.. [3] xlwings documentation, "Converters and Options" (what a range and an empty cell
   arrive as in Python).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from . import units
from .errors import ExcelError, as_excel_error, num_error, value_error
from .ranges import numbers_only, object_array, real
from .xp import np


@dataclass(frozen=True)
class Domain:
    """The interval of numbers an argument accepts, and the rule as the message says it.

    Bounds rather than arbitrary predicates, so that the same test runs on a float, on a
    numpy array, and in the compiled fast path of ``udfs.machinery.formula``. An open bound at
    ±inf also refuses infinity, and every comparison refuses NaN.
    """

    lo: float
    hi: float
    lo_open: bool
    hi_open: bool
    rule: str

    def ok(self, x):
        """Whether ``x`` lies in the interval.

        .. math:: lo < x < hi \\quad (\\le \\text{ on a closed side})

        Parameters
        ----------
        x : a float or a numpy array, in the argument's default unit

        Returns
        -------
        bool, or a boolean array of the shape of ``x``. NaN is never inside.
        """
        above = x > self.lo if self.lo_open else x >= self.lo
        below = x < self.hi if self.hi_open else x <= self.hi
        return above & below

    def condition(self, var: str) -> str:
        """The test of ``ok`` as Python source on the variable ``var``, for the
        compiled fast path (``udfs.machinery.formula``): POSITIVE gives ``0.0 < x < _INF``."""
        return (f"{self.lo!r} {'<' if self.lo_open else '<='} {var} "
                f"{'<' if self.hi_open else '<='} {self.hi!r}").replace("inf", "_INF")


_INF = math.inf
ANY = Domain(-_INF, _INF, True, True, "must be a finite number")
POSITIVE = Domain(0.0, _INF, True, True, "must be greater than 0")
NONNEGATIVE = Domain(0.0, _INF, False, True, "must be 0 or more")
FRACTION = Domain(0.0, 1.0, False, False, "must be between 0 and 1 (0 % to 100 %)")
OPEN_FRACTION = Domain(0.0, 1.0, True, False, "must be greater than 0 and at most 1")
RESERVE = Domain(0.0, 1.0, False, True, "must be at least 0 and less than 1")
AT_LEAST_ONE = Domain(1.0, _INF, False, True, "must be 1 or more")


def is_range(v) -> bool:
    """A range as hosts pass one: a list, a tuple (of rows) or a numpy array."""
    return isinstance(v, list | tuple) or (np is not None and isinstance(v, np.ndarray))


def describe(v) -> str:
    """A value as a message shows it: TRUE/FALSE, text quoted (cut at 40 characters), or
    its type's name."""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, str):
        return repr(v if len(v) <= 40 else v[:37] + "...")
    return type(v).__name__


class Arg:
    """A numeric argument: its name, default unit and domain.

    Parameters
    ----------
    name : the argument's name, as every message about it says it
    unit : the unit a bare number is read in, and that text is converted to (``"GB"``,
        ``"TB/s"``, ``"ms"``); None for a plain number
    domain : the numbers accepted (``Domain``), in ``unit``; default POSITIVE
    whole : only whole numbers (a layer count, a batch)
    also : other units text may come in, read as if in ``unit`` (``"ms/token"`` for a
        per-token time in ms)

    A value outside ``domain`` is ``#NUM!``; a value of the wrong type is ``#VALUE!`` [2].
    """

    def __init__(self, name: str, unit: str | None = None, domain: Domain = POSITIVE,
                 whole: bool = False, also: tuple[str, ...] = ()):
        self.name = name
        self.unit = unit
        self.domain = domain
        self.whole = whole
        self.also = also  # other units text may come in, converted as if in ``unit``
        #: text -> number in ``unit``, for every text read so far (bounded)
        self.text_cache: dict[str, float] = {}

    # -- one value -------------------------------------------------------------------
    def read_text(self, text: str) -> float:
        """A number from text; subclasses read names or suffixes.

        ``also`` lists equivalent spellings of the same quantity: a per-token time
        argument in ms also takes "5 ms/token" (the value, in ms/token, is used as ms).
        """
        try:
            return units.to_unit(text, self.unit or "dimensionless", self.name)
        except ExcelError as first:
            for alt in self.also:
                try:
                    return units.to_unit(text, alt, self.name)
                except ExcelError:
                    continue
            raise first

    def scalar(self, v) -> float:
        """One Excel value as a number in the argument's default unit.

        Parameters
        ----------
        v : what the host passes: a number, text (``"3.35 TB/s"``, ``"3.35"``), TRUE or
            FALSE, None (an empty cell), or an error value

        Returns
        -------
        float in ``unit``, checked against the domain. ``Arg("bandwidth", "TB/s")``
        reads ``"3350 GB/s"`` as 3.35.

        Raises
        ------
        ExcelError
            the error value passed in; ``#VALUE!`` for TRUE/FALSE, an empty cell or text
            that is not a quantity of this kind; ``#NUM!`` outside the domain, for NaN,
            ±inf or an integer beyond a cell's largest number [1]; ``#N/A`` for an unknown
            name (``udfs.inference.precisions.Precision``).
        """
        err = as_excel_error(v)
        if err is not None:
            raise err
        if isinstance(v, bool):
            raise value_error(f"{self.name}: expected a number, got {describe(v)}")
        if isinstance(v, int | float):
            try:
                x = float(v)
            except OverflowError:  # an integer beyond a float: Excel's #NUM! too
                raise num_error(f"{self.name} is beyond the largest number a cell holds "
                                "(about 1.8E+308)") from None
        elif np is not None and isinstance(v, np.floating | np.integer):
            x = float(v)
        elif isinstance(v, str) and v.strip():
            x = self.text_cache.get(v)
            if x is None:
                x = self.read_text(v)
                if len(self.text_cache) >= 4096:
                    self.text_cache.clear()
                self.text_cache[v] = x
        elif v is None or isinstance(v, str):
            raise value_error(f"{self.name} is empty: expected a number")
        else:
            x = real(v)
            if x is None:
                raise value_error(f"{self.name}: expected a number, got {describe(v)}")
        self.check(x)
        return x

    def check(self, x: float) -> None:
        """Raise ``#NUM!`` naming the argument unless ``x`` is finite, in the domain and,
        for a whole argument, whole."""
        if not math.isfinite(x):
            raise num_error(f"{self.name} must be a finite number")
        if not self.domain.ok(x):
            raise num_error(f"{self.name} {self.domain.rule}")
        if self.whole and x != int(x):
            raise num_error(f"{self.name} must be a whole number")

    # -- a range ---------------------------------------------------------------------
    def array(self, v):
        """A whole range read at once, as ``scalar`` reads each element.

        Parameters
        ----------
        v : a range: a list, a list of rows, or a numpy array (at most two dimensions,
            rectangular)

        Returns
        -------
        (values, errors): a float ndarray of the range's shape in ``unit`` (NaN where an
        element is bad), and an object ndarray holding the ExcelError of each bad element
        (None where it is fine), or None when no element is bad. A range of numbers only
        is checked vectorised. Requires numpy.

        Raises
        ------
        ExcelError
            ``#VALUE!`` for a range that is not rectangular or has more than two
            dimensions.
        """
        a, bounds = numbers_only(v, self.name)
        if a is not None:  # numbers only: vectorised
            a = a.astype(float, copy=False)
            if a.ndim > 2:
                raise value_error(f"{self.name}: a range has at most two dimensions")
            # every cell is finite and inside the interval when the least and the
            # greatest are (NaN makes both comparisons false): two passes, no temporaries,
            # already made where the range was packed
            lo, hi = bounds or (float(a.min()), float(a.max()))
            if (not self.whole and math.isfinite(lo) and math.isfinite(hi)
                    and self.domain.ok(lo) and self.domain.ok(hi)):
                return a, None
            with np.errstate(invalid="ignore"):
                good = np.isfinite(a) & self.domain.ok(a)
                if self.whole:
                    good &= a == np.floor(a)
            if good.all():
                return a, None
            errors = np.full(a.shape, None, dtype=object)
            for idx in zip(*np.nonzero(~good), strict=True):
                try:
                    self.check(float(a[idx]))
                except ExcelError as e:
                    errors[idx] = e
            return a, errors
        # Mixed content (text, empty cells, booleans, errors): element by element.
        obj = object_array(v, self.name)
        vals = np.empty(obj.shape, dtype=float)
        errors = np.full(obj.shape, None, dtype=object)
        bad = False
        for idx, x in np.ndenumerate(obj):
            try:
                vals[idx] = self.scalar(x)
            except ExcelError as e:
                vals[idx] = np.nan
                errors[idx] = e
                bad = True
        return vals, errors if bad else None


_COUNT = re.compile(
    r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*"
    r"(k|thousand|m|mn|million|b|bn|billion|t|trillion)?\s*(?:params?|parameters?)?\s*$",
    re.IGNORECASE,
)
_THOUSANDS = re.compile(r"^\s*[+-]?\d{1,3}(?:,\d{3})+(?![\d,])")
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6,
          "b": 1e9, "bn": 1e9, "billion": 1e9, "t": 1e12, "trillion": 1e12}


class Count(Arg):
    """A parameter count: a number, or text with a scale suffix ("8.03B", "70b", "405e9",
    "7.5M", "1.2 trillion"). Suffixes are case-free: in a parameter count, "B" is
    always billions, never bytes.

    .. math:: N = x \\times s, \\quad s \\in \\{k: 10^3, M: 10^6, B: 10^9, T: 10^{12}\\}

    ``"8.03B"`` → 8.03 × 10⁹ (8.03e9 to a float's precision; Llama 3.1 8B's count as its
    model card gives it); ``"1,234"`` → 1234 (a comma only between thousands).
    """

    def read_text(self, text: str) -> float:
        """A count from text, or ``#VALUE!`` naming the argument with an example."""
        m = _COUNT.match(_THOUSANDS.sub(lambda g: g.group(0).replace(",", ""), text, count=1))
        if m is None:
            raise value_error(
                f"{self.name}: cannot read {describe(text)} as a count; "
                "expected e.g. 8.03E+9, '8.03B' or '70b'")
        scale = _SCALE[m.group(2).lower()] if m.group(2) else 1.0
        return float(m.group(1)) * scale


@lru_cache(maxsize=64)
def _out_unit(text: str, name: str, dimension_of: str) -> tuple[str, float]:
    """``out_unit`` for checked, stripped text (cached)."""
    u = units.check_unit(text, name, dimension_of)
    return u, units.unit_factor(dimension_of, u)


def out_unit(v, name: str, default: str) -> tuple[str, float]:
    """A result-unit argument: the unit asked for and the factor to it.

    .. math:: y_{unit} = y_{default} \\times f

    Parameters
    ----------
    v : the argument as passed: unit text (``"GiB"``, ``"s"``), or None / empty text for
        the default
    name : the argument's name, for messages
    default : the unit the formula's result is in (``"GB"``, ``"ms"``)

    Returns
    -------
    (unit, f): ``out_unit("GiB", "unit", "GB")`` = ("GiB", 10⁹ ÷ 2³⁰ = 0.9313);
    ``out_unit(None, "unit", "GB")`` = ("GB", 1.0).

    Raises
    ------
    ExcelError
        the error value passed in; ``#VALUE!`` for a range, a number, an unknown unit, or
        a unit of another kind.
    """
    if v is None or (isinstance(v, str) and not v.strip()):
        return default, 1.0
    err = as_excel_error(v)
    if err is not None:
        raise err
    if is_range(v):
        raise value_error(f"{name}: expected one unit, not a range")
    if not isinstance(v, str):
        raise value_error(f"{name}: expected a unit as text, e.g. '{default}'")
    try:
        return _out_unit(v.strip(), name, default)
    except ExcelError:
        raise
    except Exception:  # pint can fail in more ways than it documents
        raise value_error(f"{name}: cannot read {describe(v)} as a unit") from None

