"""What the engine cannot compute as Excel does.

Found before anything is computed, ``unsupported`` lists ``(node, reason)`` for
every formula that uses:

* a function neither Excel's (as far as ``formulas`` and ``addin.excel.install``
  implement them) nor ours;
* a structured (table) reference that names no table or column of the workbook
  (the others are rewritten as plain references by ``addin.engine.tables``);
* a 3-D reference, ``Sheet1:Sheet4!C1``, outside the functions that take one (those
  are rewritten by ``addin.engine.threed``);
* a link to another workbook, ``[1]Sheet1!A1``, whose values Excel did not keep (the
  others read them: ``addin.engine.links``);
* a date function in a workbook that uses the 1904 date system (Mac workbooks):
  ``formulas`` knows only the 1900 system (TEXT knows both);
* functions whose results differ from Excel's for some arguments (see
  ``DIFFERENT``).

Once every formula's inputs are known, ``after_plan`` adds ranges used as single
values inside functions of unknown kind and the size of whole columns; once computed,
``refused_while_computing`` collects what a function found out of reach (a value
whose message starts with ``CANNOT``) and ``text_disagreements`` TEXT results
that differ from the text Excel saved.

In strict mode (``napkin calc``) the workbook is refused with a sentence naming the
cells; with ``--lenient`` those cells keep the value Excel cached and are not rewritten.
"""

from __future__ import annotations

import re

from addin.engine import kept as keep
from addin.engine import linked, range_operands, roots, spills
from addin.engine.boot import ready
from addin.formula import calls, context, excel_functions, fx
from addin.formula import formula_text as ft
from addin.formula.context import CANNOT, KEEP_CELLS

_QUOTED = re.compile(r"'(?:[^']|'')*'")
_STRUCTURED = re.compile(r"(?<![\w.\]\\])[A-Za-z_\\][\w.\\]*\[|\[#(?:This Row|All|Data|"
                         r"Headers|Totals)\]|\[@", re.I)
_THREE_D = re.compile(r"(?<![\w.])[A-Za-z_\\][\w.\\]*:[A-Za-z_\\][\w.\\]*!")
_EXTERNAL = re.compile(r"\[[^\[\]]+\][^\[\]!,()]*!")

#: Date functions napkin does not compute in the 1904 date system (the others are put
#: right by ``addin.excel.dates.DATES_1904``, TEXT and YEARFRAC).
DATE_FUNCTIONS = excel_functions.names("refused_in_1904")

#: Excel functions that ``formulas`` implements, but not as Excel does for some
#: arguments (found by comparing with the values Excel saved): refused, rather than
#: written with a value that may be wrong (declared ``differs``: the words of the refusal).
DIFFERENT = excel_functions.facts("differs")


#: what a reason says of a function neither Excel's nor ours (``unsupported``)
UNKNOWN = "which is neither Excel's (as far as the formulas package implements them) nor napkin's"


def _code(text: str) -> str:
    """Formula text without string literals and with quoted sheet names blanked."""
    text = ft.outside_strings(text)
    if "'" not in text:
        return text
    return _QUOTED.sub(lambda m: "'" + ("#" if ":" in m.group(0) else "Q") + "'", text)


def known_functions(registry) -> set[str]:
    """The upper-case names of every function a formula may call: Excel's (as far as
    ``formulas`` and ``addin.excel.install`` implement them) and ``registry``'s."""
    ready()  # our Excel functions are among the names
    return fx.function_names() | set(registry)


def is_known(name: str, known: set[str]) -> bool:
    """Whether function ``name`` (any case) is in ``known`` (``known_functions``),
    with or without Excel's ``_xlfn.`` prefix: ``_xlfn.CONCAT`` and ``CONCAT`` are one
    function."""
    bare = name.upper().removeprefix("_XLFN.")
    return bare in known or f"_XLFN.{bare}" in known


def unknown_functions(text: str, known: set[str]) -> list[str]:
    """The functions formula ``text`` calls (as written, in order) that are not
    ``is_known``."""
    return [name for name in ft.called_functions(text) if not is_known(name, known)]


def unsupported(wb, registry, date1904: bool = False) -> list[tuple[object, str]]:
    """``[(node, reason)]`` for each formula of ``wb`` the engine cannot compute as Excel
    does (one reason per node, the first found)."""
    ours = set(registry)
    known = known_functions(registry)
    out = []
    for node in wb.nodes + list(wb.name_nodes.values()):
        if not node.text:
            continue
        reason = node.let_refused or _reason(node.text, known, ours, date1904)
        if reason:
            out.append((node, reason))
    return out


def _reason(text: str, known: set, ours: set, date1904: bool) -> str | None:
    code = _code(text)
    # (each pattern below holds the characters tested before it)
    if "[" in text and _EXTERNAL.search(ft.outside_strings(text)):
        return "links to other workbooks"
    if "'#'" in code or ":" in code and "!" in code and _THREE_D.search(code):
        return "3-D references (Sheet1:Sheet3!A1)"
    if "[" in code and _STRUCTURED.search(code):
        return "structured (table) references"
    if ":" in code:
        why = range_operands.refusal(code)
        if why:
            return why
    for name in ft.called_functions(text):
        key = name.upper()
        bare = key.removeprefix("_XLFN.").removeprefix("_XLWS.")
        if not is_known(name, known) and bare not in known:  # (and _xlws.NAME if NAME is)
            return f"the function {name}(), {UNKNOWN}"
        if bare in ours or key in ours:
            continue
        if bare in DIFFERENT:
            return f"{DIFFERENT[bare]}, whose results differ from Excel's for some arguments"
        if date1904 and bare in DATE_FUNCTIONS:
            return f"{bare}() in a workbook that uses the 1904 date system"
    return None


def unknown_in(wb, registry) -> list[tuple[object, str]]:
    """``[(node, name)]`` for each function a formula calls that is neither Excel's nor
    ours (each name once a formula)."""
    known = known_functions(registry)
    out = []
    for node in wb.nodes + list(wb.name_nodes.values()):
        if node.text and not node.let_refused:  # (refused by unsupported, its reason)
            out += [(node, name) for name in dict.fromkeys(
                unknown_functions(node.text, known))]
    return out


def unknown_refusal(found: list, registry) -> str:
    """The sentence refusing a workbook that calls functions neither Excel's nor ours:
    each function, the cells that call it, the name meant (when one is near) and what
    would compute them."""
    cells: dict[str, list[str]] = {}
    for node, name in found:
        cells.setdefault(name, []).append(node.label)
    said = []
    for name, labels in cells.items():
        near = calls.suggest(name, registry)
        said.append(f"{name}() in {first_cells(labels)}"
                    + (f" (did you mean {near}?)" if near else ""))
    one = len(said) == 1 and len(next(iter(cells.values()))) == 1
    where = "that cell" if one else "those cells"
    return (
        f"unknown function{'' if len(said) == 1 else 's'} {'; '.join(said)}: neither "
        "Excel's (as far as the formulas package implements them) nor napkin's, whatever "
        f"the form of {'its' if len(said) == 1 else 'their'} arguments; rewrite "
        f"{'the formula' if one else 'those formulas'} with functions napkin knows, or "
        f"run with --lenient to keep the values Excel saved in {where}")


def first_cells(labels: list[str]) -> str:
    """Up to five cell labels, then how many more: ``"S!A1, S!A2 and 3 more"``."""
    more = f" and {len(labels) - 5} more" if len(labels) > 5 else ""
    return ", ".join(labels[:5]) + more


def describe(found: list[tuple[object, str]]) -> str:
    """One sentence per reason naming up to five cells, for the refusal message."""
    by_reason: dict[str, list[str]] = {}
    for node, reason in found:
        by_reason.setdefault(reason, []).append(node.label)
    return "; ".join(f"{reason} in {first_cells(cells)}" for reason, cells in by_reason.items())


def cannot_compute(found: list[tuple[object, str]]) -> str:
    """The refusal sentence for cells napkin cannot compute in strict mode."""
    return (f"napkin cannot compute {describe(found)}: calc would write values that differ "
            "from Excel's; run with --lenient to keep the values Excel saved in those cells")


_SIZE_SENSITIVE = re.compile(r"(?<![\w.])(?:_xlfn\.)?(ROWS|COLUMNS|COUNTBLANK|OFFSET)\s*\(", re.I)


def after_plan(wb) -> list[tuple[object, str]]:
    """``[(node, reason)]`` for formulas found out of reach once their inputs are known
    (``addin.engine.evaluator.Evaluation.plan`` has run):

    * an operator on a range inside a function whose kind of argument napkin does not
      know: Excel takes the range's value in the formula's row or column (implicit
      intersection) or the whole range, depending on the function;
    * ROWS, COLUMNS, COUNTBLANK or OFFSET of an area larger than
      ``addin.formula.context.KEEP_CELLS`` cells (a whole column), which the engine reads
      only up to the sheet's last filled row and column."""

    out = []
    for n in wb.nodes:
        if n.prog is None or n.keep is not None:
            continue
        unsure = getattr(n.prog.fn, "unsure", ())
        if unsure and n.spill is None:
            names = ", ".join(f"{f}()" for f in unsure)
            out.append((n, f"a range used as a single value inside {names} (Excel's implicit "
                           "intersection there depends on the function)"))
            continue
        m = _SIZE_SENSITIVE.search(ft.outside_strings(n.text or ""))
        if m and any(kind == "rng" and any(_cut(wb, p, KEEP_CELLS) for p in arg)
                     for kind, arg in n.specs):
            out.append((n, f"{m.group(1).upper()}() of a whole column or row (napkin reads "
                           "it up to the last filled row and column)"))
    return out


def _cut(wb, part, keep: int) -> bool:
    idx, r1, c1, r2, c2 = part
    s = wb.sheets[idx]
    return (r2 - r1 + 1) * (c2 - c1 + 1) > keep and (r2 > s.max_r or c2 > s.max_c)


def refused_while_computing(wb) -> list[tuple[object, str]]:
    """``[(node, reason)]`` for the formulas whose value carries a ``CANNOT``
    message (theirs, or one of the cells they read), those a function refused on the
    way to a value that does not show it (``ISERR(EOMONTH(60,0))``: ``context.refuse``),
    dynamic arrays of another size than Excel spilled them (``spills.mismatched``) and
    cells whose value is #CALC! or #SPILL! (``spills.rich_errors``), formulas reading a
    linked data type otherwise than by _FV (``linked.readers``)."""
    out, noted = [], getattr(context.STATE, "refused_in", None) or {}
    read = keep.read_names(wb) if wb.name_nodes else set()  # (a name's: its readers kept)
    for n in wb.nodes + [m for m in wb.name_nodes.values() if m in read]:
        for msg in n.msgs.values():
            if msg and msg.startswith(CANNOT):
                out.append((n, msg[len(CANNOT):]))
                break
        else:
            if n in noted:
                out.append((n, noted[n]))
    out += [(n, r) for n, r in spills.mismatched(wb) if n not in {m for m, _ in out}]
    out += spills.rich_errors(wb, {m for m, _ in out})
    out += linked.readers(wb, {m for m, _ in out})
    return out + iterated_and_read(wb, {n for n, _ in out})


def iterated_and_read(wb, skip=()) -> list[tuple[object, str]]:
    """``[(node, reason)]`` for formulas calling IRR or RATE that another formula reads,
    but those whose saved value was taken (``addin.engine.roots``: checked against
    napkin's root, and their inputs exactly Excel's). Excel's iteration stops short of
    the root: the values it saved differ from it by up to 3.7e-13
    (``addin/formula/fx_excel_rates.py``), napkin's is the root, and a cell computing
    from it (the NPV at the IRR, a check that it is 0) can cancel down to those last
    digits. So strict mode computes IRR and RATE from napkin's root only in cells no
    formula reads, or whose value is not a number (``roots.not_a_number``: an error value,
    a text, a logical value carry no digit of the iteration)."""
    if not roots.calling(wb.nodes):
        return []  # (no IRR nor RATE: the map of readers below is the costly part)
    readers: dict = {}
    for n in wb.nodes + list(wb.name_nodes.values()):
        for d in n.deps:
            readers.setdefault(id(d), n)
    out, taken = [], roots.taken(wb)
    for n in wb.nodes:
        if n in skip or n in taken or id(n) not in readers or roots.not_a_number(wb, n):
            continue
        m = roots.ITERATED_CALL.search(ft.outside_strings(n.text or ""))
        if m:
            out.append((n, f"{m.group(1).upper()}() read by another formula "
                           f"({readers[id(n)].label}: Excel's iteration stops short of the "
                           "root, and a cell computing from it may cancel down to its last "
                           "digits)"))
    return out


_TEXT_CALL = re.compile(r"(?<![\w.])(TEXT|DOLLAR|FIXED)\s*\(", re.I)


_VOLATILE_CALL = re.compile(r"(?<![\w.])(?:_xlfn\.)?(?:TODAY|NOW|RAND|RANDBETWEEN|RANDARRAY)"
                            r"\s*\(", re.I)
_MONTH_DAY = re.compile(
    r"(?i)\b(?:january|february|march|april|may|june|july|august|september|october|"
    r"november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun|[ap]m)\b")


def volatile_nodes(wb) -> set:
    """The formulas whose value depends on the clock or on random numbers: those calling
    TODAY, NOW, RAND, RANDBETWEEN or RANDARRAY, and those reading one."""
    found: dict = {}

    def volatile(n, seen) -> bool:
        if n not in found:
            if n in seen:  # (a cycle: what its other cells decide)
                return False
            seen.add(n)
            found[n] = bool(_VOLATILE_CALL.search(ft.outside_strings(n.text or ""))) or \
                any(volatile(d, seen) for d in n.deps)
        return found[n]

    return {n for n in wb.nodes if volatile(n, set())}


def text_shape(text: str) -> str:
    """A text with each run of digits as ``0`` and each English month or day name, or AM
    and PM, as ``<>``: the same shape for the same format given another date or number
    in English (United States) Excel (``"January"`` and ``"December"``, ``"1,234.5"`` and
    ``"9,870.25"``), another for a format read in another language (``"Abril"``,
    ``"1.234,5"``)."""
    return _MONTH_DAY.sub("<>", re.sub(r"\d+", "0", text))


def text_disagreements(wb, skip=()) -> list[tuple[object, str]]:
    """``[(node, reason)]`` for formulas calling TEXT, DOLLAR or FIXED whose value differs
    from the one Excel saved in the cell. TEXT reads its format in the language of the
    Excel that computes it (``"0.00"`` is 0.067 for 67.1 in a German Excel, where "."
    groups thousands), and DOLLAR and FIXED write the currency and the separators of the
    computer's settings (Microsoft Support, "DOLLAR function": "using currency format";
    the business corpus's third part, Financial Feasibility.xlsx, saved
    ``"Does not balance by " & DOLLAR(D56-D51,2)`` as "Does not balance by -0,00 €"):
    napkin writes them as English (United States) Excel does, and a difference with the
    saved value says the workbook was computed in another language (or its inputs
    changed since Excel saved it). A formula that reads the clock
    or random numbers (TEXT(TODAY(),"MMMM")) gives another value than the one saved by
    design: there the two texts need only the same ``text_shape`` (Excel saved "January",
    napkin computes "December": both English month names; "Abril", Portuguese Excel's,
    is refused)."""
    from addin.engine.executor import norm_scalar

    ns = ready()
    out = []
    volatile = None
    for n in wb.nodes:
        called = None if n in skip or n.spill is not None or n.keep is not None else \
            _TEXT_CALL.search(ft.outside_strings(n.text or ""))
        if called is None:
            continue
        sheet = wb.sheets[n.sheet]
        saved = sheet.cached.get((n.r, n.c))
        if saved is None or saved is ns.EMPTY:
            continue
        ours = norm_scalar(sheet.values.get((n.r, n.c)))
        if isinstance(saved, str) and ours != saved:
            if volatile is None:
                volatile = volatile_nodes(wb)
            if n in volatile and isinstance(ours, str) and text_shape(ours) == \
                    text_shape(saved):
                continue
            name = called.group(1).upper()
            out.append((n, "TEXT giving another text than Excel saved (number formats "
                           "written in another language's Excel?)" if name == "TEXT" else
                        f"{name} giving another text than Excel saved (its currency and "
                        "separators are the computer's settings, not the workbook's; "
                        "napkin writes English (United States) Excel's)"))
    return out
