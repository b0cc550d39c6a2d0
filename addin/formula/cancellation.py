"""Excel's 0 where the last ``+`` or ``-`` of a formula cancels, and its comparison of
two numbers equal but for their last bits: the replacements of formulas' ``+``, ``-``
(``near_zero_sum``) and the rule they follow, settled on cells Excel saved.

Excel 97 and later "compensate" where an addition or subtraction lands "at or very close
to zero", but not when the operation is inside parentheses or a function: ``=.5-.4-.1``
is 0, ``=1*(.5-.4-.1)`` is -2.78E-17 (Microsoft Learn, "Floating-point arithmetic may
give inaccurate results in Excel", "Example when a value reaches zero"). The page gives
no threshold. ``python -m tools.cancel_evidence`` re-does, in IEEE arithmetic on the
values Excel saved, every formula of the Excel-saved workbooks napkin has seen (the own
corpus, the business corpus's parts ``tune``, ``tune2``, ``heldout``, ``heldout2``,
``heldout3``) and lists the 94 cells where a ``+`` or ``-`` cancels to within 2^-40 of
its larger operand (docs/fidelity.md, "A sum that cancels"). What they settle:

* the **final** operation only, the formula's top node: a ``-`` inside the formula whose
  result would have been made 0 was not (``=G33-F34-D34``, 1.4210854715202004E-13
  saved), as Microsoft's ``=1*(.5-.4-.1)``;
* at the top, Excel gave 0 in all 68 cells where the result's binary exponent is 50 or
  more below the larger operand's (``ZERO_GAP``; 8 cells at 50, 18 at 51, 42 at 52, in 8
  workbooks of 8 repositories), and the IEEE result in all 5 cells where it is 48 or
  less (43, 44, 46, 46, 48; 4 workbooks): ``=Z19-Z22``
  with 22514.212556922343 and 22514.212556922444 kept -1.0186340659856796E-10 (gap 48).
  No saved cell has a gap of 49 (a forum report of Excel 2003 shows one not made 0:
  818562.54 - 778536.1 - 40026.44, 5.82077E-11). Excel's 15 significant digits are not
  the rule: 674.9140000000007 - 674.914 differ there and were made 0;
* every one of those 73 cells is a ``-``; Microsoft's page names addition and
  subtraction, and ``a + b`` is ``a - (-b)`` to the last bit, so ``+`` follows the same
  rule.

napkin therefore gives 0 for a top ``+`` or ``-`` (not inside parentheses, in a cell's
formula) whose result's exponent is ``ZERO_GAP`` or more below the larger operand's, and
refuses (strict mode, ``context.refuse``) any other ``+`` or ``-`` of two numbers of
opposite signs within 2^-40 (``NEAR``) of each other: a gap of 49 is not settled, a top
wrapped in parentheses is not settled by any saved cell, and elsewhere the result is
made of the operands' rounding errors, which a chain of operations carries (a loan's last
balance napkin gave as 1.7E-10 where Excel saved -1.0E-10). Downstream of a cycle whose
saved values are a fixed point only to within a relative ``r`` (Excel stopped iterating:
``addin.engine.cycles``), the bound is ``r`` times ``NOISE_MARGIN`` and nothing is made 0:
Excel's operands there are its iteration's, not the formulas' values. Arrays are left as
formulas gives them.

The rule decides on napkin's operands, which are Excel's to the last bit only where every
function upstream computes Excel's last bits: downstream of PMT, ``^``, EXP and the like
(``addin.engine.last_digits``, ``context.last_digits_unknown``) nothing is made 0 on
napkin's operands. Where a formula's final ``+`` or ``-`` would be refused and both
operands are references to one cell whose values napkin has as Excel saved them, to within
2^-40 (``addin.formula.saved_operands``), the rule is applied to the saved values, Excel's
own operands (``excel_result``): 0 from ``ZERO_GAP`` down, the IEEE result from
``KEPT_GAP`` (48) up, refused at 49. A ``+`` or ``-`` that is not the final operation
(inside parentheses or a function) and cancels is, with such operands, the IEEE result of
the saved values, as Excel keeps it there (``=A1-A2-A3``'s inner ``A1-A2`` saved as
1.4210854715202004E-13, not 0; Microsoft's ``=1*(.5-.4-.1)``, -2.78E-17).

References
----------
Microsoft Learn, "Floating-point arithmetic may give inaccurate results in Excel"
(learn.microsoft.com/en-us/office/troubleshoot/excel/floating-point-arithmetic-inaccurate-result),
"Example when a value reaches zero" (its text is not in the stores searched for this
work: quoted as docs/fidelity.md quotes it).
Apache POI, ``NumberComparer`` (poi.apache.org/apidocs/4.0/org/apache/poi/ss/util/
NumberComparer.html): "If the last operator in a cell formula is '+' or '-' and the
result is less than 2^50 [rendered "250"] times smaller than first operand, the result
is rounded to zero" -- the final operation and the 50 here; as a ratio to the first
operand it would leave 294.0399999999996 - 294.04 (2^-49.4 of it) unchanged, which Excel
made 0: the binary exponents are the rule the saved cells keep.
IronCalc, docs/src/features/numbers-in-ironcalc.md: "=0.3-0.2-0.1 as 0. However
=1*(0.3-0.2-0.1) in Excel is -2.77556E-17".
"""

from __future__ import annotations

import functools
import math

import numpy as np

from addin.formula import context, saved_operands

#: how near two numbers of opposite signs must be for their sum to be refused, unless
#: it is a formula's final operation made 0 (``ZERO_GAP``): within 2^-40 of the larger,
#: about 4,000 units in its last place
NEAR = 2.0 ** -40
#: a formula's final ``+`` or ``-`` is 0 in Excel where its result's binary exponent is
#: this many or more below its larger operand's (68 saved cells at 50 to 52 made 0, 5 at
#: 43 to 48 not: the module's docstring)
ZERO_GAP = 50
#: a formula's final ``+`` or ``-`` keeps its IEEE result in Excel where the result's
#: binary exponent is this many or fewer below its larger operand's (5 saved cells at 43 to
#: 48, the module's docstring; heldout7's loan balance at 45, -5.366E-11)
KEPT_GAP = 48
#: how far beyond a cycle's saved noise a sum is refused (``context.NOISE_MARGIN``)
NOISE_MARGIN = context.NOISE_MARGIN
#: downstream of a function whose last digits are not Excel's (PMT, ``^``...), how near two
#: numbers of opposite signs must be for their sum to be taken as made of those digits:
#: napkin's operands there differ from Excel's by up to about 2^-42 of themselves (the
#: twelfth part's loan schedule: a monthly payment computed with ``^``, 2.1E-15 from
#: Excel's, carried through 180 rows, left the last balance's operands 2.6E-13 apart), so
#: a sum cancelling more than 12 binary exponents carries that difference past 1E-9 of
#: its result (``addin.engine.census.REL``, the bound "Excel's value" is held to)
UNKNOWN_DIGITS_NEAR = 2.0 ** -12
#: the same where every cell the formula reads holds the value Excel saved, but the formula
#: itself calls such a function: its own result is then a few units in the last place from
#: Excel's (``^``: 3 units, ``1/(1+$D$21)^I14``, ``addin.engine.last_digits``), 2^-50 of
#: itself, which a sum cancelling more than 20 exponents carries past 1E-9
OWN_DIGITS_NEAR = 2.0 ** -20


def exponent_gap(x: float, y: float, total: float) -> int:
    """How many binary exponents ``total`` (``x + y``, not 0) lies below the larger of
    ``x`` and ``y``: ``frexp``'s exponent of max(|x|, |y|) less that of ``total``."""
    return math.frexp(max(abs(x), abs(y)))[1] - math.frexp(total)[1]


def near() -> float:
    """How near, relative to the larger, two numbers of opposite signs must be for their
    sum to be made of their errors: ``NEAR``, or more downstream of a cycle Excel saved
    short of its fixed point (``NOISE_MARGIN``)."""
    return max(NEAR, context.saved_noise() * NOISE_MARGIN)


def cancels(x: float, y: float, total: float) -> bool:
    """``x + y`` (``total``, not 0) of two numbers of opposite signs within ``near()`` of
    the larger: the result is made of their rounding errors; or, downstream of a function
    whose last digits are not Excel's, within ``UNKNOWN_DIGITS_NEAR`` of it where a cell
    the formula reads holds another value than Excel saved there
    (``saved_operands.inputs_as_saved``: where all hold Excel's, to the last bit, its
    operands are Excel's; asked only for such a sum, as it reads every input), and within
    ``OWN_DIGITS_NEAR`` where the formula calls such a function itself."""
    if not (total and x and y and (x < 0) != (y < 0)):
        return False
    ratio = abs(total) / max(abs(x), abs(y))
    if ratio < near():
        return True
    if ratio >= UNKNOWN_DIGITS_NEAR or not context.last_digits_unknown():
        return False
    if not saved_operands.inputs_as_saved():
        return True
    return ratio < OWN_DIGITS_NEAR and saved_operands.calls_unknown_digits()


def _like(result, value: float):
    """``value`` in the form of ``result`` (an array of its shape, or one number)."""
    if isinstance(result, np.ndarray):
        return np.full(result.shape, value, dtype=object).view(type(result))
    return value


def excel_result(x: float, y: float) -> float | None:
    """Excel's value of a formula's final ``x + y`` on its own operands (``y`` with the
    sign of ``-`` already applied): 0 where the result lies ``ZERO_GAP`` or more binary
    exponents below the larger operand, the IEEE sum where it lies ``KEPT_GAP`` or fewer
    below (or does not cancel at all), None where no saved cell settles it (a gap of 49)."""
    total = x + y
    if not total or not cancels(x, y, total):
        return total
    gap = exponent_gap(x, y, total)
    if gap >= ZERO_GAP:
        return 0.0
    return total if gap <= KEPT_GAP else None


def near_zero_sum(original, key: str):
    """formulas' ``+`` or ``-`` (``key``), refused in strict mode (``context.refuse``,
    ``#VALUE!``) where two numbers of opposite signs (after the sign of ``-``) within 2^-40
    of each other give a result that is not 0, unless both are references to one cell whose
    values Excel saved (``saved_operands``): then the IEEE result of those. Its attribute
    ``final`` is the same operator as a formula's final operation (``final_operation``): 0
    where the result's binary exponent is ``ZERO_GAP`` or more below the larger operand's,
    as Excel gives (the module's docstring), refused otherwise within 2^-40."""
    from addin.formula.fx import load
    from addin.formula.fx_excel_args import one_number

    ns = load()
    sign = 1.0 if key == "+" else -1.0

    def operands(args):  # (numpy's numbers too: a function's result, ABS(A2)+A1)
        if len(args) != 2:
            return None
        x, y = (one_number(v, ns) for v in args)
        if x is None or y is None:
            return None
        return x, y * sign

    def refused():
        unknown = context.last_digits_unknown()
        if unknown:
            context.refuse(f"'{key}' of two numbers that cancel to within 2^-12 of "
                           f"themselves, computed from {unknown} (napkin's last digits of "
                           f"{unknown} are not always Excel's: Excel may give 0 there, or "
                           "other last digits)")
        elif context.saved_noise():
            context.refuse(f"'{key}' of two numbers that cancel to within what Excel's "
                           "unfinished iteration of a circular reference leaves in its "
                           "values (its saved values are not an exact fixed point)")
        else:
            context.refuse(f"'{key}' of two numbers that cancel to within 2^-40 of "
                           "themselves (Excel may give 0 there, or other last digits)")
        return ns.errors["#VALUE!"]

    @functools.wraps(original)
    def near_zero(*args):
        result = original(*args)
        xy = operands(args)
        if xy and cancels(*xy, xy[0] + xy[1]):
            # inside parentheses or a function Excel keeps the IEEE result of its own
            # operands (the module's docstring): those it saved, where both are one cell
            saved = None if context.saved_noise() else saved_operands.excel_operands(args)
            return refused() if saved is None else _like(result, saved[0] + saved[1] * sign)
        return result

    def final(*args):
        result = original(*args)
        xy = operands(args)
        if xy and cancels(*xy, total := xy[0] + xy[1]):
            settled = exponent_gap(*xy, total) >= ZERO_GAP and not context.saved_noise() \
                and not context.last_digits_unknown()  # (Excel's operands, to the last bit)
            if settled:
                return _like(result, 0.0)
            saved = None if context.saved_noise() else saved_operands.excel_operands(args)
            got = None if saved is None else excel_result(saved[0], saved[1] * sign)
            return refused() if got is None else _like(result, got)
        return result

    near_zero.final = functools.update_wrapper(final, original)
    return near_zero


def wrapped_in_parentheses(text: str) -> bool:
    """Whether formula ``text`` (``=(A1-B1)``) is one pair of parentheses around all of
    it, strings and quoted sheet names skipped."""
    body = text.lstrip("=").strip()
    if not body.startswith("("):
        return False
    depth, quote = 0, None
    for i, ch in enumerate(body):
        if quote:
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i == len(body) - 1
    return False


def final_operation(builder, text: str, functions: list, out) -> list:
    """``functions`` (a formula's graph, ``addin.formula.fx.Graph.functions``) with its
    final ``+`` or ``-`` given its ``final`` form (``near_zero_sum``): the formula's top
    node (``builder``'s last token, producing ``out``), unless ``text`` is wrapped in
    parentheses. Anything else is returned as it is."""
    top = builder[-1] if len(builder) else None
    if getattr(top, "name", None) not in ("+", "-") or wrapped_in_parentheses(text):
        return functions
    for i, (fn, ins, outs, flt) in enumerate(functions):
        if out in outs and len(ins) == 2 and hasattr(fn, "final"):
            return [*functions[:i], (fn.final, ins, outs, flt), *functions[i + 1:]]
    return functions
