"""The formulas downstream of a function whose last binary digits napkin does not know to
be Excel's: where they are, a ``+`` or ``-`` that cancels, or a comparison of two numbers
equal but for their last bits, is not settled by Excel's rules and strict mode refuses it.

Strict mode's rules for a sum that cancels (``addin.formula.cancellation``: a formula's
final ``+`` or ``-`` is 0 where its result lies 50 or more binary exponents below its
larger operand) and for a comparison of nearly equal numbers
(``addin.formula.excel_numbers.near_equal``) were settled on the values Excel saved: they
give Excel's answer when napkin's operands are Excel's to the last bit. Addition,
subtraction, multiplication and division are IEEE's in both, and so are the values that
lookups, IF, SUM over the same order and the like pass on. A function computed through
powers, exponentials, logarithms or an iteration is not: napkin's PMT computes (1+r)^n as
exp(n*log1p(r)); of the 36 PMT cells with plain arguments Excel saved in the corpora seen
so far, napkin's order of the formula gives Excel's double in 3, the naive order in 3, and
neither in 32 (docs/fidelity.md, "heldout7"). One unit in the last place of a monthly
payment, carried through a sixty-row loan schedule, made napkin's last balance cancel 50
exponents below its operands where Excel's cancelled 45: napkin gave 0 and Excel kept
-5.37E-11, and 301 cells read it (heldout7's "5 Year Financial Plan for Manufacturing
Company.xlsx").

``^`` is no better. ``python -m tools.cancel_evidence`` re-does the formulas of the seen
corpora (the own one and the business corpus's parts to ``heldout8``) in IEEE doubles on
the values Excel saved in the cells they read: of the 125,693 made of numbers,
references, ``+ - * /`` and parentheses only, 124,633 (99.2%) give Excel's saved double to
the last bit; of the 9,429 with ``^`` (Python's ``**``, the C library's ``pow``), 8,771
(93.0%), the others a unit or so in the last place apart (``1/(1+$D$21)^I14``: Excel
0.8052193177194286, ``pow`` ...283). A quicker count of the 961 formulas with one ``^`` and
nothing but arithmetic besides found numpy's ``power`` Excel's in 7 more than ``pow``, 168
in neither (7 December 2026).

So a formula is *downstream* when its text calls one of ``UNKNOWN_LAST_DIGITS`` (or uses
``^``), or a formula or defined name it reads is downstream. A formula that makes a
reference while computing (OFFSET, INDIRECT), whose cells its dependencies do not list,
is downstream when any formula of the workbook is. There the cancellation and comparison
rules refuse instead of deciding (``context.last_digits_unknown``). Values Excel saved and
napkin keeps (``Node.keep``) are Excel's own, and start nothing.

References
----------
Microsoft Learn, "Floating-point arithmetic may give inaccurate results in Excel"
(learn.microsoft.com/en-us/office/troubleshoot/excel/floating-point-arithmetic-inaccurate-result):
Excel stores and computes in IEEE 754 double precision.
"""

from __future__ import annotations

import functools
import re

from addin.engine import roots
from addin.formula import context, discrete_doubt
from addin.formula import formula_text as ft

#: functions computed through powers, exponentials, logarithms, series or an iteration,
#: whose last binary digits napkin does not know to be Excel's: the annuity family (PMT
#: shown to differ, the module's docstring) and every function computed the same way
UNKNOWN_LAST_DIGITS = (
    # financial: powers of (1 + rate), roots found by iteration
    "PMT", "IPMT", "PPMT", "PV", "FV", "NPER", "RATE", "CUMIPMT", "CUMPRINC", "NPV", "XNPV",
    "IRR", "XIRR", "MIRR", "EFFECT", "NOMINAL", "RRI", "FVSCHEDULE", "DB", "DDB", "VDB",
    "PDURATION",
    # powers, exponentials, logarithms
    "POWER", "EXP", "LN", "LOG", "LOG10", "GEOMEAN", "SQRTPI",
    # trigonometric and hyperbolic
    "SIN", "COS", "TAN", "ASIN", "ACOS", "ATAN", "ATAN2", "SINH", "COSH", "TANH", "ASINH",
    "ACOSH", "ATANH", "COT", "COTH", "CSC", "CSCH", "SEC", "SECH", "ACOT", "ACOTH",
    # statistics computed through square roots of sums, series and distributions
    "STDEV", "STDEV.S", "STDEV.P", "STDEVP", "STDEVA", "STDEVPA", "VAR", "VAR.S", "VAR.P",
    "VARP", "VARA", "VARPA", "DEVSQ", "CORREL", "PEARSON", "RSQ", "SLOPE", "INTERCEPT",
    "FORECAST", "FORECAST.LINEAR", "TREND", "GROWTH", "LINEST", "LOGEST", "STEYX", "COVAR",
    "COVARIANCE.P", "COVARIANCE.S", "SKEW", "SKEW.P", "KURT", "STANDARDIZE",
    "NORM.DIST", "NORMDIST", "NORM.S.DIST", "NORMSDIST", "NORM.INV", "NORMINV",
    "NORM.S.INV", "NORMSINV", "LOGNORM.DIST", "LOGNORMDIST", "LOGNORM.INV", "LOGINV",
    "EXPON.DIST", "EXPONDIST", "POISSON", "POISSON.DIST", "BINOM.DIST", "BINOMDIST",
    "T.DIST", "T.DIST.2T", "T.DIST.RT", "TDIST", "T.INV", "T.INV.2T", "TINV", "T.TEST",
    "TTEST", "CHISQ.DIST", "CHISQ.DIST.RT", "CHIDIST", "CHISQ.INV", "CHISQ.INV.RT",
    "CHIINV", "CHISQ.TEST", "CHITEST", "F.DIST", "F.DIST.RT", "FDIST", "F.INV",
    "F.INV.RT", "FINV", "GAMMA", "GAMMALN", "GAMMALN.PRECISE", "GAMMA.DIST", "GAMMADIST",
    "GAMMA.INV", "GAMMAINV", "BETA.DIST", "BETADIST", "BETA.INV", "BETAINV", "WEIBULL",
    "WEIBULL.DIST", "FISHER", "FISHERINV", "CONFIDENCE", "CONFIDENCE.NORM",
    "CONFIDENCE.T", "ERF", "ERF.PRECISE", "ERFC", "ERFC.PRECISE", "PHI", "GAUSS",
    "Z.TEST", "ZTEST",
)
_CALL = re.compile(r"(?<![\w.])(?:_xlfn\.)?(" + "|".join(
    re.escape(f) for f in sorted(UNKNOWN_LAST_DIGITS, key=len, reverse=True))
    + r")\s*\(", re.I)


def first_unknown(text: str | None) -> str | None:
    """The first function of ``UNKNOWN_LAST_DIGITS`` formula ``text`` calls (upper case),
    ``"^"`` where it raises to a power, else None."""
    body = ft.outside_strings(text or "")
    got = _CALL.search(body)
    if got:
        return got.group(1).upper()
    return "^" if "^" in body else None


def watch(wb, order) -> None:
    """Set what the formulas of ``order`` read of their last digits while they are
    computed (``context.STATE``): ``unknown_digits`` (``downstream``: the function
    upstream whose last digits are not Excel's), ``own_digits`` (``calling``: those that
    call one themselves) and ``inputs_saved`` (``roots.inputs_as_saved`` on ``wb``: whether
    every formula a node reads holds exactly the value Excel saved) and ``settling`` (those
    that ``settles``), for ``context.last_digits_unknown``,
    ``addin.formula.saved_operands.inputs_as_saved`` and
    ``addin.formula.discrete_doubt``."""
    context.STATE.unknown_digits = downstream(order)
    context.STATE.own_digits = calling(order)
    context.STATE.settling = {id(n) for n in order if settles(n.text)}
    context.STATE.inputs_saved = functools.partial(roots.inputs_as_saved, wb)


def calling(nodes) -> set[int]:
    """``{id(node)}`` of the formulas and defined names among ``nodes`` whose own text
    calls a function of ``UNKNOWN_LAST_DIGITS`` or raises to a power: their inputs being
    Excel's does not make their operands Excel's (``saved_operands.inputs_as_saved``)."""
    return {id(n) for n in nodes if first_unknown(n.text)}


_SETTLING_CALL = re.compile(r"\s*=?\s*(?:_xlfn\.)?(" + "|".join(
    re.escape(f) for f in sorted(discrete_doubt.SETTLING, key=len, reverse=True))
    + r")\s*\(", re.I)


_LITERAL = re.compile(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*")


def settles(text: str | None) -> bool:
    """Whether formula ``text`` is one call of a step function (``=ROUND(PMT(...),2)``,
    ``addin.formula.discrete_doubt.SETTLING``) and nothing else, its arguments after the
    first written numbers: computed, its value is Excel's exactly (the call is refused
    where its number's doubt could change it: ``addin.formula.discrete_doubt``), so the
    formulas reading it are not downstream through it. (An argument after the first that
    is computed, ``ROUND(x,LOG10(y))``, could carry a doubt the check does not vary.)"""
    body = ft.outside_strings(text or "")
    m = _SETTLING_CALL.match(body)
    if not m:
        return False
    depth, commas = 0, []
    for i in range(m.end() - 1, len(body)):
        ch = body[i]
        depth += {"(": 1, ")": -1, "{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 1:
            commas.append(i)
        if depth == 0:
            rest = [body[a + 1:b] for a, b in zip(commas, [*commas[1:], i], strict=False)]
            return not body[i + 1:].strip() and all(_LITERAL.fullmatch(r) for r in rest)
    return False


def downstream(nodes) -> dict[int, str]:
    """``{id(node): function}`` of the formulas and defined names among ``nodes``
    downstream of a function of ``UNKNOWN_LAST_DIGITS`` (the module's docstring): the
    function named is the first found on the way up, through any formula but one that
    ``settles``. Computed to a fixed point, so that the order of ``nodes`` (and cycles)
    does not matter."""
    live = [n for n in nodes if n.keep is None or n.is_name]
    got = {id(n): f for n in live if (f := first_unknown(n.text))}
    if not got:
        return got
    settled = {id(n) for n in live if settles(n.text)}
    changed = True
    while changed:
        changed = False
        for n in live:
            if id(n) in got:
                continue
            up = next((got[id(d)] for d in n.deps if id(d) in got and id(d) not in settled),
                      None)
            if up is None and ft.makes_references(n.text):
                up = next(iter(got.values()))
            if up is not None:
                got[id(n)] = up
                changed = True
    return got
