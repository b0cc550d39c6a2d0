"""Text with units -> a number in the unit an argument expects, through pint.

The registry is built from ``data/units.txt`` (ours: FLOP, FLOPS, OPS, token, byte with
decimal and binary prefixes, time). Parsing is cached per distinct text, so a column of
the same "3.35 TB/s" costs one pint parse; later calls are a dictionary look-up and a
multiplication.

Conventions
-----------
* A bare number is read in the argument's documented default unit (the caller passes it).
* Text is parsed by pint: ``"3.35 TB/s"``, ``"3350 GB/s"``, ``"0.989 PFLOPS"``,
  ``"80 GiB"``, ``"16 GFLOP"``, ``"2000 tokens/s"``, ``"30 %"``.
* A comma is accepted only as a thousands separator (``"3,350 GB/s"``); ``"3,35"`` is
  refused, because reading it either way could be silently wrong.
* A count scale before a count unit multiplies: ``"1M tokens"``, ``"2k tokens/s"``,
  ``"1.5B tokens/day"``, ``"3 billion tokens"`` (k thousand, M million, B billion,
  T trillion, in either case: before "tokens" a letter can mean nothing else; "B" there is
  never the byte).
* Unit names are case-sensitive (``ms`` is not ``Ms``); a few spellings that are only
  ever meant one way in this field (``tflops``, ``gb/s``, ``gib``) are accepted in any
  case.

References
----------
.. [1] pint, "Defining units" (the definitions-file format of ``data/units.txt``),
   https://pint.readthedocs.io/en/stable/advanced/defining.html
.. [2] BIPM (2019), "The International System of Units (SI)", 9th edition, §3: the
   decimal prefixes k, M, G, T, P, E (1 GB = 10⁹ B, 1 TB/s = 10¹² B/s).
.. [3] IEC 80000-13:2008, "Quantities and units — Part 13: Information science and
   technology": the binary prefixes Ki, Mi, Gi, Ti, Pi (1 GiB = 2³⁰ B).
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from .errors import value_error

_DEFINITIONS = "units.txt"

_registry = None


def registry():
    """The pint UnitRegistry of napkin's units, built on first use from ``data/units.txt``.

    Returns
    -------
    pint.UnitRegistry, the same object on every call (units from two registries cannot be
    compared, so there is exactly one) [1].
    """
    global _registry
    if _registry is None:
        import pint

        path = resources.files("udfs") / "data" / _DEFINITIONS
        with resources.as_file(path) as p:
            _registry = pint.UnitRegistry(str(p), cache_folder=None)
    return _registry


# Spellings accepted in any letter case: only those that have a single meaning here.
_PREFIXES = ("", "k", "K", "M", "G", "T", "P", "E")
_CASE_FREE = {
    s.lower(): s
    for s in (
        # "FLOPS" after "FLOPs": written in lower case, "tflops" means the rate
        [p + u for p in _PREFIXES for u in ("B", "FLOP", "FLOPs", "FLOPS", "OPS")]
        + [p + "B" for p in ("Ki", "Mi", "Gi", "Ti", "Pi")]
        + ["token", "tokens", "tok"]
    )
}
_WORD = re.compile(r"[A-Za-zµμ_]+")
_THOUSANDS = re.compile(r"^\s*[+-]?\d{1,3}(,\d{3})+(\.\d*)?(?=\D|$)")


# "1.5B tokens/day": a scale word between the number and a count unit
_COUNT_SCALE = re.compile(
    r"^(?P<num>\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*"
    r"(?P<scale>k|m|mn|b|bn|t|thousand|million|billion|trillion)\s*(?=(?:tokens?|tok)\b)",
    re.IGNORECASE)
_SCALES = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6,
           "b": 1e9, "bn": 1e9, "billion": 1e9, "t": 1e12, "trillion": 1e12}


def _normalise(text: str) -> str:
    """Text as pint should read it: % as ``percent``, × and ÷ as * and /, thousands
    separators dropped, and a count scale before ``tokens`` multiplied in
    (``"1.5B tokens"`` → ``"1500000000.0 tokens"``). Raises ValueError for any other comma.
    """
    s = text.strip().replace("%", " percent").replace("×", "*").replace("÷", "/")
    if "," in s:
        m = _THOUSANDS.match(s)
        if m is None or "," in s[m.end():]:
            raise ValueError("a comma is read only as a thousands separator (3,350 GB/s)")
        s = m.group(0).replace(",", "") + s[m.end():]
    m = _COUNT_SCALE.match(s)
    if m:
        s = f"{float(m.group('num')) * _SCALES[m.group('scale').lower()]!r} {s[m.end():]}"
    return s


@lru_cache(maxsize=8192)
def parse(text: str) -> tuple[float, object]:
    """Text with units as its magnitude and its units.

    Parameters
    ----------
    text : str
        A number with a unit, as a person types it: ``"3.35 TB/s"``, ``"80 GiB"``,
        ``"3,350 GB/s"``, ``"1.5B tokens/day"``, ``"30 %"``; or a number alone.

    Returns
    -------
    (magnitude, units): a float and a pint unit of ``registry``. ``"3.35 TB/s"`` →
    ``(3.35, terabyte / second)``; ``"5"`` → ``(5.0, dimensionless)``. Cached per
    distinct text.

    Raises
    ------
    ValueError
        empty text, an unknown unit, a comma that is not a thousands separator, or text
        that is not one quantity.
    """
    import pint

    ureg = registry()
    s = _normalise(text)
    if not s:
        raise ValueError("empty text")
    try:
        q = ureg.Quantity(s)
    except pint.UndefinedUnitError:
        fixed = _WORD.sub(lambda m: _CASE_FREE.get(m.group(0).lower(), m.group(0)), s)
        try:
            q = ureg.Quantity(fixed)
        except Exception as exc:  # pint raises several types for malformed text
            raise ValueError(f"unknown unit in {text!r}") from exc
    except Exception as exc:
        raise ValueError(f"cannot read {text!r} as a quantity") from exc
    if not isinstance(q, ureg.Quantity):  # "5" parses to a plain number
        return float(q), ureg.dimensionless
    mag = q.magnitude
    if isinstance(mag, bool) or not isinstance(mag, int | float):
        raise ValueError(f"cannot read {text!r} as a quantity")
    return float(mag), q.units


@lru_cache(maxsize=1024)
def factor(units: object, target: str) -> float:
    """The factor that converts a magnitude in ``units`` to ``target``.

    .. math:: x_{target} = x_{units} \\times f, \\quad f = [units] / [target]

    Parameters
    ----------
    units : pint.Unit
        Units of ``registry``, as ``parse`` returns them.
    target : str
        Unit text, e.g. ``"GB"``, ``"TB/s"``, ``"ms"``.

    Returns
    -------
    float f, rounded to 15 significant digits so that round ratios stay round (TB/s →
    GB/s: 1000, not 1000.0000000000001); GiB → GB: 2³⁰ ÷ 10⁹ = 1.073741824 [2], [3].

    Raises
    ------
    pint.DimensionalityError
        when ``units`` and ``target`` measure different things (GB → ms).
    """
    ureg = registry()
    # 15 significant digits: unit ratios are round numbers (1000, 1.073741824, 3600), and
    # pint's chained prefix arithmetic leaves float noise (TB/s -> GB/s: 1000.0000000000001)
    return float(f"{ureg.Quantity(1.0, units).to(target).magnitude:.15g}")


@lru_cache(maxsize=256)
def unit_factor(source: str, target: str) -> float:
    """The factor from unit text ``source`` to unit text ``target``, as ``factor``.

    Parameters
    ----------
    source, target : str
        Unit texts, e.g. ``"GB"`` and ``"GiB"``.

    Returns
    -------
    float. ``unit_factor("GB", "GiB")`` = 10⁹ ÷ 2³⁰ = 0.9313 [2], [3].

    Raises
    ------
    pint.UndefinedUnitError, pint.DimensionalityError
        an unknown unit text, or units of different dimensions.
    """
    return factor(registry().Unit(source), target)


@lru_cache(maxsize=256)
def dimension_name(units: object) -> str:
    """A reader's name for the kind of quantity ``units`` measures, for messages.

    Parameters
    ----------
    units : pint.Unit
        Units of ``registry``.

    Returns
    -------
    str: ``"memory (bytes)"`` for GB, ``"bandwidth (bytes/s)"`` for TB/s, ``"time"`` for
    ms, ...; pint's dimensionality text for a kind without a name.
    """
    dim = registry().Quantity(1.0, units).dimensionality
    return _DIMENSION_NAMES.get(str(dim), str(dim))


_DIMENSION_NAMES = {
    "[information]": "memory (bytes)",
    "[information] / [time]": "bandwidth (bytes/s)",
    "[compute]": "compute (FLOP)",
    "[compute] / [time]": "compute rate (FLOPS)",
    "[time]": "time",
    "[tokens]": "tokens",
    "[tokens] / [time]": "token rate (tokens/s)",
    "[time] / [tokens]": "time per token",
    "[compute] / [information]": "intensity (FLOP/byte)",
    "[requests] / [time]": "request rate (requests/s)",
    "[time] / [requests]": "time per request",
    "[power]": "power (W)",
    "dimensionless": "a plain number",
}


def to_unit(text: str, target: str, what: str) -> float:
    """Text with units as a number in ``target`` units.

    .. math:: x = m \\times f(u \\to target)

    with m and u the magnitude and units of the text (``parse``) and f the factor
    (``factor``). A text without a unit (``"3.35"``) is read in ``target``, like a bare
    number.

    Parameters
    ----------
    text : str
        The argument as typed, e.g. ``"3350 GB/s"``.
    target : str
        The unit the argument is read in, e.g. ``"TB/s"``.
    what : str
        The argument's name, for the message.

    Returns
    -------
    float in ``target``. ``to_unit("3350 GB/s", "TB/s", "bandwidth")`` = 3350 × 10⁻³ =
    3.35 [2].

    Raises
    ------
    ExcelError
        ``#VALUE!`` naming ``what``: text that is not a quantity, or a quantity of another
        kind (``"80 GB"`` for a bandwidth), with an example of what is expected.
    """
    import pint

    try:
        mag, units = parse(text)
    except ValueError as exc:
        raise value_error(
            f"{what}: {exc}; expected a number or text like '{_example(target)}'") from None
    if units == registry().dimensionless and target != "dimensionless":
        return mag
    try:
        return mag * factor(units, target)
    except pint.DimensionalityError:
        raise value_error(
            f"{what}: {text!r} is {dimension_name(units)}, expected "
            f"{dimension_name(registry().Unit(target))} such as '{_example(target)}'"
        ) from None


def _example(target: str) -> str:
    return _EXAMPLES.get(target, f"1 {target}")


_EXAMPLES = {
    "GB": "80 GB",
    "TB/s": "3.35 TB/s",
    "TFLOPS": "989 TFLOPS",
    "FLOP": "16 GFLOP",
    "B": "67 MB",
    "ms": "5 ms",
    "s": "2 s",
    "token/s": "2000 tokens/s",
    "FLOP/B": "295 FLOP/B",
    "dimensionless": "0.8 or 80 %",
    "request/s": "20 requests/s",
    "W": "700 W",
    "us": "5 us",
}


def check_unit(text: object, what: str, dimension_of: str) -> str:
    """Check a result-unit argument: text naming a unit of the same kind as
    ``dimension_of``.

    Parameters
    ----------
    text : object
        The argument as given, e.g. ``"GiB"``.
    what : str
        The argument's name, for the message.
    dimension_of : str
        The result's own unit, e.g. ``"GB"``.

    Returns
    -------
    str: ``text`` stripped of surrounding spaces.

    Raises
    ------
    ExcelError
        ``#VALUE!`` naming ``what``: not text, an unknown unit, or a unit of another kind
        (``"ms"`` for a result in GB).
    """
    import pint

    if not isinstance(text, str) or not text.strip():
        raise value_error(f"{what}: expected a unit as text, e.g. '{dimension_of}'")
    try:
        unit_factor(text.strip(), dimension_of)
    except (pint.UndefinedUnitError, ValueError, AttributeError, TypeError):
        raise value_error(f"{what}: unknown unit {text!r}") from None
    except pint.DimensionalityError:
        raise value_error(
            f"{what}: {text!r} is not a unit of {dimension_name(registry().Unit(dimension_of))}"
        ) from None
    except Exception:
        raise value_error(f"{what}: cannot read {text!r} as a unit") from None
    return text.strip()


__all__ = ["registry", "parse", "factor", "unit_factor", "to_unit", "check_unit"]
