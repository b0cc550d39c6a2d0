"""The native form of each catalog function: the same formula in Excel's own functions.

``napkin native`` (``addin.transform.native``) turns each call of a napkin function into an
equivalent formula of the Excel 2010 function set, so that a workbook keeps recalculating
in Excel without the add-in, in LibreOffice or in Google Sheets. This module declares,
per function, its parameters (read as the catalog reads them: the same ``Arg``, with
its default unit and domain) and the formula over their values. ``addin.transform.native``
checks the arguments in order first, as the catalog does, so that a bad argument gives
the same error value:

==========  ============================================================================
``#VALUE!``  an empty cell for a required argument, TRUE/FALSE or text where a number is
             expected, an unknown result unit
``#NUM!``    a number outside the argument's domain (the same bounds as the catalog's)
``#N/A``     an unknown precision, GPU, model or field; an empty figure in a table
==========  ============================================================================

Where the native formula cannot give the catalog's answer, it says so in ``limits``:
text with units in a cell (napkin reads ``'80 GB'``; a spreadsheet cannot), names only as
the tables spell them, and the few places where an error code differs.

Each form's ``build`` receives the Excel text of each parameter's value (a number, a cell
reference or a parenthesised expression, always safe to embed in an expression) and
returns the formula. ``None`` stands for an optional argument that is left out when the
catalog's formula changes without it (DECODE_FLOOR without a peak, AMDAHL without s).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import udfs.catalog  # noqa: F401 - the declarations first (udfs.machinery.args alone cannot load)
from udfs.inference.interconnects import Latency
from udfs.inference.precisions import Precision
from udfs.machinery.args import NONNEGATIVE, POSITIVE, Arg, Domain
from udfs.machinery.broadcast import NUMBER
from udfs.machinery.declare import DECLARATIONS

REQUIRED = object()  # no default: an omitted argument is #VALUE!, as in the catalog
ABSENT = object()  # optional, and the formula differs without it (build gets None)


@dataclass(frozen=True)
class Param:
    """One argument of a catalog function as the native formula reads it.

    ``kind``: ``number`` (read with ``arg``: default unit, domain, whole), ``precision``
    (a name from the precisions table or bytes per element), ``latency`` (µs, or an
    interconnect's name), ``unit`` (the unit of the result, ``unit_of`` its default),
    ``name`` (a row of the GPU or model table, ``table``), ``field`` (a column of that
    table; constant text only), ``table`` (a model table range, which only a name form
    reads) or ``factor`` (a unit, constant text, fixing a factor found at translation: the
    declaration's ``native_factor``).
    """

    name: str
    kind: str = "number"
    arg: Arg | None = None
    default: object = REQUIRED
    unit_of: str = ""
    table: str = ""
    #: a number the function also reads as text with units (its declaration's ``raw``
    #: argument, read here by ``native_readers``): such text is napkin's only
    raw: bool = False


@dataclass(frozen=True)
class Native:
    """A function's native form: its parameters and the formula over their values."""

    params: tuple[Param, ...]
    build: Callable[..., str]
    result: str = NUMBER
    #: what the result is known to lie in (lets a caller skip re-checking it)
    domain: Domain | None = None
    #: where the native formula cannot match the function, in words
    limits: str = ""
    #: a call of constants becomes the function's value (the declaration's ``native_fold``)
    fold: bool = False
    #: the built-in table a (name, field) look-up reads (``native_table``), or ""
    lookup: str = ""


#: What each result is known to lie in, so that a call nested in another needs no check
#: of its domain (a floor, a count, a cost can never be negative): the declarations'
#: ``native_result`` (``udfs/functions/``).
POSITIVE_RESULTS = {n for n, d in DECLARATIONS.items() if d.native_result == "positive"}
NONNEGATIVE_RESULTS = {n for n, d in DECLARATIONS.items() if d.native_result == "nonnegative"}

#: Notes for the documentation, where a native formula's behaviour needs words (the
#: declarations' ``native_note``).
NOTES = {n: d.native_note for n, d in DECLARATIONS.items() if d.native_note}

#: Functions whose arguments decide whether a formula can say a call (the declarations'
#: ``native_when``: their native forms read text with units or fix a factor at
#: translation), and why the rest cannot (their ``native_refusal``).
SPECIAL = {n: d.native_when for n, d in DECLARATIONS.items() if d.native_when}
NOT_TRANSLATABLE = {n: d.native_refusal for n, d in DECLARATIONS.items()
                    if d.native_refusal and not d.native_when}


def _builder(name: str, operands: list[str], native, together) -> Callable[..., str]:
    """``build(*values)``: the declaration's native text with the values substituted; the
    text for the OMIT arguments left out (None), and ``#VALUE!`` for half a group given
    together (the function refuses it before reading anything else)."""
    texts = native if isinstance(native, dict) else {(): native}
    texts = {frozenset(k): v for k, v in texts.items()}

    def build(*values):
        given = dict(zip(operands, values, strict=True))
        omitted = frozenset(n for n, v in given.items() if v is None)
        for group in together:
            if 0 < len(omitted & set(group)) < len(group):
                return "#VALUE!"
        text = texts.get(omitted)
        if text is None:
            raise KeyError(f"{name}: no native text with {sorted(omitted)} omitted")
        return text.format(**{n: v for n, v in given.items() if v is not None})

    return build


@cache
def forms() -> dict[str, Native]:
    """The native form of every declaration that has one, plus the table look-ups."""
    from udfs import catalog  # noqa: F401 - registers the declarations
    from udfs.machinery.declare import DECLARATIONS, OMIT
    from udfs.machinery.declare import REQUIRED as DECLARED_REQUIRED

    out: dict[str, Native] = {}
    for name, decl in DECLARATIONS.items():
        if decl.native_table:  # a (name, field) look-up: INDEX/MATCH over the table
            t = decl.native_table
            out[name] = Native((Param("name", "name", table=t), Param("field", "field", table=t)),
                               lambda row: row, result="any", limits=NOTES.get(name, ""),
                               lookup=t)
            continue
        if decl.native is None:
            continue
        params, operands = [], []
        for p in decl.params:
            if p.result_unit is not None:
                params.append(Param(p.name, "unit", None, None, unit_of=p.result_unit))
                continue
            if p.table:  # read by the name form only (addin.transform.native.named)
                params.append(Param(p.name, "table", None, ABSENT))
                continue
            if p.name in decl.native_factor:  # constant text, its factor found at translation
                params.append(Param(p.name, "factor", None, REQUIRED))
                continue
            reader = p.reader or decl.native_readers[p.name]
            if p.default is DECLARED_REQUIRED:
                default = REQUIRED
            elif p.default is OMIT:
                default = ABSENT
            else:
                default = reader.scalar(p.default)  # "BF16" -> 2.0
            kind = ("precision" if isinstance(reader, Precision) else
                    "latency" if isinstance(reader, Latency) else "number")
            params.append(Param(p.name, kind, reader, default, raw=p.reader is None))
            operands.append(p.name)
        domain = (POSITIVE if name in POSITIVE_RESULTS else
                  NONNEGATIVE if name in NONNEGATIVE_RESULTS else None)
        out[name] = Native(tuple(params), _builder(name, operands, decl.native, decl.together),
                           result=decl.result, domain=domain, limits=NOTES.get(name, ""),
                           fold=decl.native_fold)
    return out


def doc_table() -> str:
    """The per-function table of ``docs/native.md`` (a test keeps the file in step)."""
    from udfs.catalog import CATALOG

    FORMS = forms()
    rows = ["| Function | Native form | Notes (beyond the rules above) |", "|---|---|---|"]
    for name in CATALOG:
        if name in SPECIAL:  # (a native form the arguments decide on)
            rows.append(f"| `{name}` | when the arguments allow | {SPECIAL[name]} |")
        elif name in FORMS:
            form = FORMS[name]
            how = {"precision": "look-up", "latency": "look-up", "name": "INDEX/MATCH"}
            kinds = {how[p.kind] for p in form.params if p.kind in how}
            if any(p.kind == "unit" for p in form.params):
                kinds.add("result unit")
            what = "formula" + (f" with {', '.join(sorted(kinds))}" if kinds else "")
            rows.append(f"| `{name}` | {what} | {form.limits or '—'} |")
        else:
            rows.append(f"| `{name}` | none: becomes its value | {NOT_TRANSLATABLE[name]} |")
    return "\n".join(rows) + "\n"


DOC_HEADING = "## Per function\n\n"


def write_doc(path="docs/native.md") -> bool:
    """Replace the per-function table at the end of ``docs/native.md`` (after its
    ``## Per function`` heading) by ``doc_table``; True when the file changed."""
    from pathlib import Path

    path = Path(path)
    text = path.read_text("utf-8")
    if DOC_HEADING not in text:
        raise ValueError(f"{path}: no heading {DOC_HEADING.strip()!r}")
    new = text[:text.index(DOC_HEADING) + len(DOC_HEADING)] + doc_table()
    if new != text:
        path.write_text(new, encoding="utf-8", newline="\n")
    return new != text


def _num(x: float) -> str:
    """A number as formula text (shortest round trip; Excel reads 1E-05 and 8030000000)."""
    x = float(x)
    if x == int(x) and abs(x) < 1e15:
        s = str(int(x))
    else:
        s = repr(x).upper()
    return f"({s})" if s.startswith("-") else s


__all__ = ["forms", "SPECIAL", "NOT_TRANSLATABLE", "Native", "Param", "REQUIRED", "ABSENT",
           "doc_table", "write_doc"]


if __name__ == "__main__":  # python -m addin.transform.native.forms [docs/native.md]
    import sys

    target = sys.argv[1] if len(sys.argv) > 1 else "docs/native.md"
    if target.startswith("-"):
        print("usage: python -m addin.transform.native.forms [docs/native.md]\n"
              "Rewrite the per-function table of docs/native.md from the declarations.")
        sys.exit(0)
    print(f"{target}: table {'updated' if write_doc(target) else 'already current'}")


def number_or_row(v: str, figures: str, keys: str) -> str:
    """Formula text: the value of ``v`` if it is a number, else the figure of the table
    row whose key is ``v``'s text without spaces, hyphens and underscores (MATCH is
    case-insensitive, as napkin's names are); an empty cell or an error value stays
    itself."""
    key = f'SUBSTITUTE(SUBSTITUTE(SUBSTITUTE({v}," ",""),"-",""),"_","")'
    return f"IF(ISNUMBER({v}),{v},IF(ISTEXT({v}),INDEX({figures},MATCH({key},{keys},0)),{v}))"


def names_interconnect(v) -> bool:
    """Whether ``v`` is the name of an interconnect of ``udfs.inference.interconnects`` (a latency
    argument given one is looked up, not read as a number)."""
    from udfs.inference import interconnects
    from udfs.machinery.errors import ExcelError

    if not isinstance(v, str) or not v.strip():
        return False
    try:
        interconnects.row_named(v, "latency")
    except ExcelError:
        return False
    return True
