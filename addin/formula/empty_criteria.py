"""Criteria that match a cell by whether it is empty (``"<>"``, ``"="``) over a range
holding a formula's empty text (``""``): Microsoft's COUNTIF, COUNTIFS, SUMIF, SUMIFS,
AVERAGEIF and AVERAGEIFS pages do not say whether Excel counts that text as empty there,
so strict mode stops (``context.refuse``) where one is met (napkin counts it as empty for
the criterion ``""``, as the template's COUNTIF(CAL_GPU,A56) does).

References
----------
Microsoft Support, "COUNTIF function", "SUMIF function", "SUMIFS function", "AVERAGEIF
function", "AVERAGEIFS function" (blank cells and criteria; nothing on a formula's empty
text). LibreOffice counts that text as not empty for "<>" (SUMIFS(B1:B4,A1:A4,"<>") with
A3 ``=""`` adds B3; napkin did not): a value strict mode could not back.
"""

from __future__ import annotations

from addin.formula import context

#: criteria that match a cell by whether it is empty
EMPTINESS_CRITERIA = ("<>", "=")


def refused_over_empty_text(key: str, cells, criterion) -> bool:
    """Whether ``criterion`` is ``"<>"`` or ``"="`` and ``cells`` (a range's values or
    an array) hold a formula's empty text; if so strict mode is stopped
    (``context.refuse``, naming ``key``, the function)."""
    from addin.formula.arrays import grid

    c = grid(criterion)
    if c.size == 1 and isinstance(c.flat[0], str) and c.flat[0] in EMPTINESS_CRITERIA \
            and any(type(v) is str and v == "" for v in grid(cells).flat):
        context.refuse(f"{key} with the criterion \"{c.flat[0]}\" over a formula's empty "
                       "text")
        return True
    return False


def counted_ranges(original, key: str):
    """formulas' COUNTIF or COUNTIFS (``key``: pairs of a range and its criterion), stopping
    strict mode (``context.refuse``) on a criterion ``"<>"`` or ``"="`` over a range that
    holds a formula's empty text."""
    return _checked_pairs(original, key, first=0)


def criteria_after_the_first(original, key: str):
    """formulas' SUMIFS or AVERAGEIFS (``key``: the range to add or average first, then
    pairs of a criteria range and its criterion), checked as COUNTIFS is."""
    return _checked_pairs(original, key, first=1)


def _checked_pairs(original, key: str, first: int):
    """``original`` stopping strict mode where a (range, criterion) pair from argument
    ``first`` on is refused by ``refused_over_empty_text``."""
    from addin.formula import fx
    from addin.formula.error_criteria import one_error_added, several_criteria_over_errors

    def checked(*args):
        pairs = list(zip(args[first::2], args[first + 1::2], strict=False))
        for cells, criterion in pairs:
            if refused_over_empty_text(key, cells, criterion):
                return fx.load().errors["#VALUE!"]
        if several_criteria_over_errors(key, pairs):
            return fx.load().errors["#VALUE!"]
        return original(*args)

    if first:  # (an error value added: addin.formula.error_criteria)
        return one_error_added(checked, key, lambda args: (0, args[0]) if args else None)
    return checked
