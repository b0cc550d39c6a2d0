"""The Excel functions napkin has checked against Excel, and the forms of argument each
is checked for: strict mode computes only these.

The declarations of Excel's functions (``addin.formula.excel_functions``, read by
``addin.engine.forms``) give each function checked with the forms of argument its
evidence covers and the evidence: workbooks
Excel saved whose values ``napkin calc`` gives (``tests/corpus``, checked by
``tests/test_fidelity.py``), tests built on Microsoft's documented examples, or the
template, whose values LibreOffice agrees with (``tests/test_template.py``). In strict
mode a formula calling an Excel function not listed is refused, with a sentence naming
the function and the cell (``--lenient`` computes it); so is a call given a form of
argument its entry does not list (``--lenient`` keeps the value Excel saved in that
cell). napkin's own functions are not listed: they are ours.
"""

from __future__ import annotations

from addin.engine import forms, support
from addin.formula import context
from addin.formula import formula_text as ft

bare = forms.bare


def checked() -> dict[str, tuple[frozenset, str]]:
    """Function name (upper case, without ``_xlfn.``) -> (argument forms, evidence)."""
    return forms.listed()


def unchecked(wb, registry, every: bool = False,
              known: set[str] | None = None) -> list[tuple[object, str]]:
    """``[(node, reason)]`` for each formula of ``wb`` that calls an Excel function not
    in ``checked()``: the first such function of each formula, or with ``every`` each
    one (once a formula), leaving out the functions not in ``known`` when given (those
    neither Excel's nor ours: ``support.known_functions``)."""
    ours = {n.upper() for n in registry}
    listed = checked()
    out = []
    for node in wb.nodes + list(wb.name_nodes.values()):
        if not node.text or node.let_refused:  # (support.unsupported gives its reason)
            continue
        found = []
        for name in ft.called_functions(node.text):
            own = name.upper().removeprefix("_XLDUDF_")  # (Lite's stored form of ours)
            if own in ours or bare(name) in ours or bare(name) in listed:
                continue
            if known is not None and not support.is_known(name, known):
                continue
            if f"{bare(name)}()" not in found:
                found.append(f"{bare(name)}()")
            if not every:
                break
        out += [(node, reason) for reason in found]
    return out


def refusal(found: list[tuple[object, str]]) -> str:
    """The sentence refusing a workbook whose formulas call functions not checked: each
    function with the cells that call it, that no form of its arguments is checked, and
    what would compute them (a function napkin has checked, or ``--lenient``)."""
    several = len({reason for _, reason in found}) > 1
    it, formula = ("them", "those formulas") if len(found) > 1 else ("it", "the formula")
    return (f"napkin has not checked against Excel the function{'s' if several else ''} "
            f"{support.describe(found)}, with any form of argument, so strict mode does not "
            f"compute {it} (README, \"Functions checked against Excel\", lists those it "
            f"has); rewrite {formula} with functions napkin has checked, or run with "
            f"--lenient to compute {it} anyway")


def unchecked_forms(wb) -> list[tuple[object, str]]:
    """``[(node, reason)]`` for each formula of ``wb`` whose compile shows a call certain
    to be evaluated given a form of argument its entry does not list
    (``forms.static_refusal``; a call in a branch is checked while computing); run after
    ``addin.engine.evaluator.Evaluation.plan``."""
    out = []
    listed = checked()
    for n in wb.nodes + list(wb.name_nodes.values()):
        if n.prog is None or n.keep is not None:
            continue
        calls = getattr(n.prog.fn, "calls", None)
        if calls is None:  # formulas' own compiled function: its calls are not seen
            name = next((bare(f) for f in ft.called_functions(n.text or "")
                         if bare(f) in listed), None)
            if name:
                out.append((n, f"{name}() in a formula whose forms of argument napkin "
                               "does not see"))
            continue
        reason = forms.static_refusal(calls, n.spill is None, wb.date1904)
        if reason:
            out.append((n, reason))
    return out


def watch() -> None:
    """Start recording the forms of argument the listed functions are given outside their
    entries while computing (``forms.guarded``; ``seen_forms`` reads them)."""
    context.STATE.form_refusals, context.STATE.form_seen = {}, {}
    context.STATE.refused_in = {}


def seen_forms(stop: bool = False) -> list[tuple[object, str]]:
    """``[(node, reason)]`` recorded since ``watch()`` (and its record emptied); with
    ``stop``, nothing more is recorded."""
    got = getattr(context.STATE, "form_refusals", None) or {}
    out = [(n, reason) for n, reason in got.items() if n is not None]
    if stop:  # (and no node of the workbook is held after it)
        context.STATE.form_refusals = context.STATE.form_seen = context.STATE.node = None
        context.STATE.refused_in = None
    else:
        watch()
    return out


def form_refusal(found: list[tuple[object, str]]) -> str:
    """The sentence refusing a workbook whose formulas give a function a form of argument
    not checked: the function, the form and the cells, and what would compute them."""
    return (f"napkin has not checked against Excel {support.describe(found)}, so strict "
            "mode does not compute it (README, \"Functions checked against Excel\", lists "
            "the forms of argument checked for each function); rewrite the formula so that "
            "it does not give the function that form of argument, or run with --lenient "
            "to keep the values Excel saved in those cells")
