"""Excel functions of ``udfs.machinery.units``: conversions and amount ÷ rate."""

from __future__ import annotations

from ..machinery import units
from ..machinery.args import ANY, NONNEGATIVE, POSITIVE, Arg, is_range, out_unit
from ..machinery.broadcast import guard, map_elements, run
from ..machinery.declare import declare, raw, result_unit
from ..machinery.errors import as_excel_error, value_error
from ..machinery.explain import num, q


def _unit_convert(value, from_unit, to_unit):
    if not isinstance(to_unit, str) or not to_unit.strip():
        raise value_error("to_unit: expected a unit as text, e.g. 'GiB'")
    if from_unit is None or (isinstance(from_unit, str) and not from_unit.strip()):
        if is_range(value):
            raise value_error("from_unit: give the unit of the values in the range")
        err = as_excel_error(value)
        if err is not None:
            raise err
        if not isinstance(value, str):
            raise value_error("from_unit is empty: give the unit of value, or value as text "
                              "with its unit ('80 GiB')")
        try:
            mag, u = units.parse(value)
        except ValueError as exc:
            raise value_error(f"value: {exc}") from None
        from_unit = str(u)
        value = mag
    elif not isinstance(from_unit, str):
        raise value_error("from_unit: expected a unit as text, e.g. 'GB'")
    to, factor = out_unit(to_unit, "to_unit", units.check_unit(from_unit, "from_unit",
                                                                from_unit.strip()))
    return run(lambda x: x, [(Arg("value", from_unit.strip(), ANY), value)], scale=factor)


def _convert_explain(w):
    frm = w.raw["from_unit"] or ""
    return f"{w.raw['value']} {frm} = {num(w.result)} {w.raw['to_unit']}".replace("  ", " ")


declare(
    "UNIT_CONVERT",
    "Converts value from from_unit to to_unit: GB, GiB, TB/s, GB/s, TFLOPS, PFLOPS, FLOP, tokens, tokens/s, ms, s, h... GB and GiB are distinct. UNIT_CONVERT(16,\"GB\",\"GiB\") = 14.9.",  # noqa: E501
    raw("value",
        "Number to convert, or text with its unit ('80 GiB'; then from_unit may be empty)."),
    raw("from_unit", "Unit of value: GB, GiB, TB/s, TFLOPS, FLOP, tokens, tokens/s, ms, h..."),
    raw("to_unit", "Unit to convert to; must measure the same thing as from_unit."),
    call=lambda value, from_unit, to_unit: guard(_unit_convert, value, from_unit, to_unit),
    explain=_convert_explain,
    example=('=UNIT_CONVERT(16,"GB","GiB")', "14.90"),
    native="{value}",
    native_readers={"value": Arg("value", None, ANY)},
    native_factor=("from_unit", "to_unit"),
    native_fold=True,
    native_when=("translated when from_unit and to_unit are constant text (the factor is "
                 "computed at translation); units from cells stay values"),
    native_refusal=("from_unit and to_unit must be constant text (the factor is computed when "
                    "translating); units from cells are read by napkin only"),
)


def _time_floor_seconds(amount, rate):
    """amount ÷ rate in seconds, checking that the units of the two agree."""
    for v in (amount, rate):
        err = as_excel_error(v)
        if err is not None:
            raise err
    parsed = []
    for name, v in (("amount", amount), ("rate", rate)):  # name is used below
        if isinstance(v, bool) or v is None or not isinstance(v, int | float | str):
            raise value_error(f"{name}: expected a number or text with units, got "
                              f"{'an empty cell' if v is None else repr(v)}")
        if isinstance(v, str):
            try:
                mag, u = units.parse(v)
            except ValueError as exc:
                raise value_error(f"{name}: {exc}") from None
            parsed.append((mag, None if u == units.registry().dimensionless else u))
        else:
            parsed.append((float(v), None))
    (a, ua), (r, ur) = parsed
    Arg("amount", None, NONNEGATIVE).check(a)
    Arg("rate", None, POSITIVE).check(r)
    if ua is None and ur is None:
        return a / r
    if ua is None or ur is None:
        raise value_error(
            f"{'amount' if ua is None else 'rate'}: give a unit too when "
            f"{'rate' if ua is None else 'amount'} has one ('16 GB' with '3.35 TB/s')")
    import pint

    try:
        return units.registry().Quantity(a / r, ua / ur).to("s").magnitude
    except pint.DimensionalityError:
        raise value_error(
            f"rate: {units.dimension_name(ur)} does not divide {units.dimension_name(ua)} "
            "into a time (bytes with bytes/s, FLOP with FLOPS, tokens with tokens/s)"
        ) from None


def _time_floor(amount, rate, unit):
    def one(a, r, factor):
        return run(lambda t: t, [(Arg("time", None, ANY), _time_floor_seconds(a, r))],
                   scale=factor)

    return guard(lambda: map_elements(
        lambda a, r: one(a, r, out_unit(unit, "unit", "s")[1]),
        [("amount", amount), ("rate", rate)]))


declare(
    "TIME_FLOOR",
    "Time = amount ÷ rate. Bare numbers in matching units give seconds; text with units must match (bytes with bytes/s, FLOP with FLOPS, tokens with tokens/s). TIME_FLOOR(\"16 GB\",\"3.35 TB/s\",\"ms\") = 4.78.",  # noqa: E501
    raw("amount", "Bytes, FLOPs or tokens: '16 GB', '16 GFLOP', '1000 tokens'; or a bare number."),
    raw("rate", "Bytes/s, FLOPS or tokens/s matching amount: '3.35 TB/s', '989 TFLOPS'; or bare."),
    result_unit("s", "Optional. Unit of the result: s (default), ms, us, min, h..."),
    call=_time_floor,
    explain=lambda w: f"{w.raw['amount']} ÷ {w.raw['rate']} = {q(w.result, w.unit)}",
    example=('=TIME_FLOOR("16 GB","3.35 TB/s","ms")', "4.776"),
    summary="amount ÷ rate, units checked",
    native="{amount}/{rate}",
    native_readers={"amount": Arg("amount", None, NONNEGATIVE),
                    "rate": Arg("rate", None, POSITIVE)},
    native_fold=True,
    native_when=("translated when amount and rate are plain numbers (seconds), or both "
                 "constants; text with units from cells stays a value"),
    native_refusal=("text with units for amount or rate is read by napkin only; give plain "
                    "numbers (seconds) or constants for both"),
)
