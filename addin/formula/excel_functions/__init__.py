"""One declaration per Excel function: everything napkin knows of it, in one place.

napkin's own functions are declared once each in ``udfs/functions/`` (``udfs.machinery.declare``);
Excel's built-ins are declared here, one ``excel(...)`` call per function, in the module
of its Excel category (``math_trig``, ``trigonometry``, ``statistical``, ``distributions``,
``text``, ``date_time``, ``lookup``, ``logical``, ``information``, ``financial``,
``engineering``). A declaration
says:

* whether strict mode computes it, and for which **forms of argument**
  (``addin.engine.forms.FORMS``: ``"scalars, cells, ranges"``...), with the
  **evidence** that covers them (the two columns of what was
  ``addin/engine/checked_functions.csv``: a new row is ``excel(NAME, FORMS, EVIDENCE)``);
* how Excel reads its arguments: element by element in an array formula
  (``elementwise``, [1]_), which arguments are single values a range is intersected for
  (``value_args``: ``ALL`` or the positions, [2]_), whether an operator inside it sees one
  value or whole arrays (``value_context``, ``array_context``), whether its arguments
  are computed as arrays, a function of one value given a range there element by element
  (``lifting``, [3]_), whether it reads a
  reference's place only (``place_only``), evaluates only some arguments (``branching``),
  takes a 3-D reference (``three_d``), depends on the date system (``date_system``);
* what napkin **refuses** of it in strict mode, and why (the sentence's words):
  ``differs`` (formulas' results differ from Excel's for some arguments: the whole
  function refused), ``refused_in_1904`` (refused in a workbook of the 1904 date system),
  ``no_logical`` (the arguments where a logical value is refused, ``addin.excel.refusals``),
  ``bound`` (an argument beyond which formulas' value is not Excel's:
  ``addin.formula.fx_excel_args.bounded``), ``serials_checked`` (date serials no
  evidence settles, ``addin.excel.dates``: the positions checked, how many are dates),
  ``sorted_only`` (its approximate match computed on sorted values only,
  ``addin.excel.lookup``), ``first_error`` (given error values, it gives the first
  of them in argument order, and strict mode takes its value only where napkin's is that
  error: ``addin.engine.first_error``, the rule and its evidence);
* how napkin **corrects** formulas' version: ``in_1904`` (computed in the 1904 date
  system: the positions of its serial numbers, whether it gives one); the other
  corrections, each with what it corrects and its evidence, are
  ``addin.formula.patches.PATCHES`` entries
  (``addin.formula.excel_functions.write.corrections(name)`` lists them).

The native edition (``napkin native``) keeps Excel's functions as they are; its tables
name napkin's functions only (their ``native=`` forms, ``udfs/functions/``). What
LibreOffice, the differential test's referee, computes unlike Excel is the test's own
table (``tests/differential/known_differences.csv``), not a fact of napkin's.

Every table of these facts is derived from the declarations (``names``,
``value_args``, ``checked``); ``python -m tools.regenerate`` writes them into
``docs/excel-functions.md``. This package imports nothing of napkin: the formula layer
(``addin.formula.walk``, ``addin.formula.intersection``, ``addin.formula.patches``) reads
it as well as the engine.

References
----------
.. [1] Microsoft Support, "Guidelines and examples of array formulas".
.. [2] [MS-XLS] 2.5.198 (parameter classes: reference, value, array); Microsoft,
   "Implicit intersection operator: @".
.. [3] Microsoft Support, "SUMPRODUCT function": its arguments are arrays, multiplied
   element by element (``=SUMPRODUCT((B2:B9=B12)*(C2:C9))``, no Ctrl+Shift+Enter);
   [MS-XLS] 2.5.198.x: an expression in an array-class parameter is evaluated as an
   array, a value-class function given an array there once for each of its elements.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass

#: every argument (``value_args``)
ALL = "all"

#: the modules of the declarations, by Excel's categories of functions
TOPICS = ("math_trig", "trigonometry", "statistical", "distributions", "text", "date_time",
          "lookup", "logical", "information", "financial", "engineering")


@dataclass(frozen=True)
class ExcelFunction:
    """What napkin knows of one Excel function (see the module's docstring)."""

    name: str  # upper case, without ``_xlfn.``
    forms: frozenset | None = None  # checked forms of argument (None: not checked)
    evidence: str = ""
    xlfn: bool = False  # formulas also knows it as ``_XLFN.NAME``
    xlws: bool = False  # formulas also knows it as ``_XLFN._XLWS.NAME`` (SORT, FILTER)
    elementwise: bool = False
    value_args: object = None  # ALL, or the positions (0 first) of single-value arguments
    value_context: bool = False
    array_context: bool = False
    lifting: bool = False
    place_only: bool = False
    branching: bool = False
    three_d: bool = False
    date_system: bool = False
    differs: str = ""
    refused_in_1904: bool = False
    no_logical: tuple | None = None
    #: (argument position, the largest magnitude computed; None: the value 1 refused)
    bound: tuple | None = None
    serials_checked: tuple | None = None  # (positions checked, how many are dates)
    sorted_only: bool = False
    #: given errors, gives the first (``addin.engine.first_error``): True, or the positions
    #: of its text arguments (ALL: every one)
    first_error: object = None
    in_1904: tuple | None = None  # (positions of serial numbers, whether it gives one)

    @property
    def spellings(self) -> tuple[str, ...]:
        """The names formulas knows it by: ``NAME`` and, for ``xlfn``, ``_XLFN.NAME``
        (for ``xlws``, ``_XLFN._XLWS.NAME``)."""
        return (self.name, *((f"_XLFN.{self.name}",) if self.xlfn else ()),
                *((f"_XLFN._XLWS.{self.name}",) if self.xlws else ()))


DECLARED: dict[str, ExcelFunction] = {}


def excel(name: str, forms: str | None = None, evidence: str = "", **facts) -> ExcelFunction:
    """Declare the Excel function ``name``: its checked ``forms`` of argument (the words
    of ``addin.engine.forms.FORMS``, comma-separated; ``"no argument"`` for TRUE(),
    PI()...), the ``evidence`` for them, and its other ``facts`` (``ExcelFunction``'s
    fields). A function is declared once."""
    if name in DECLARED:
        raise ValueError(f"{name} is declared twice")
    if (forms is None) != (not evidence):
        raise ValueError(f"{name}: checked forms and their evidence go together")
    got = None if forms is None else frozenset(
        f.strip() for f in forms.split(",") if f.strip())
    fn = ExcelFunction(name, got, evidence.strip(), **facts)
    DECLARED[name] = fn
    return fn


@functools.cache
def declared() -> dict[str, ExcelFunction]:
    """Name -> declaration, every topic module read (sorted by name)."""
    for topic in TOPICS:
        importlib.import_module(f"{__name__}.{topic}")
    return dict(sorted(DECLARED.items()))


def checked() -> dict[str, tuple[frozenset, str]]:
    """Name -> (forms, evidence) of the functions strict mode computes, by name."""
    return {n: (f.forms, f.evidence) for n, f in declared().items() if f.forms is not None}


def names(fact: str, spelled: bool = False) -> frozenset[str]:
    """The functions whose ``fact`` is set: names as ``addin.engine.branches.bare``
    gives them, or with ``spelled`` as formulas knows them (``ExcelFunction.spellings``)."""
    out = set()
    for f in declared().values():
        if getattr(f, fact):
            out.update(f.spellings if spelled else (f.name,))
    return frozenset(out)


def facts(fact: str, spelled: bool = False) -> dict[str, object]:
    """Name -> the value of ``fact`` for the functions where it is set (``spelled`` as
    for ``names``)."""
    out = {}
    for f in declared().values():
        value = getattr(f, fact)
        if value is not None and value is not False and value != "":
            out.update(dict.fromkeys(f.spellings if spelled else (f.name,), value))
    return out


def value_args() -> dict[str, tuple | None]:
    """formulas' name -> the positions of its single-value arguments (None: every one),
    for ``addin.formula.intersection.VALUE_PARAMS``."""
    return {k: None if v == ALL else v for k, v in facts("value_args", True).items()}

