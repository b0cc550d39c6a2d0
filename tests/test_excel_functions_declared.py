"""Excel's functions are declared once each (``addin.formula.excel_functions``), and
every table of their facts is derived from the declarations: the tables the engine,
the formula layer and the add-in read, ``docs/excel-functions.md``, and a row of the
former list (``function,forms,evidence``) ported by ``write.port``."""

from __future__ import annotations

from pathlib import Path

from addin.engine import branches, checked, forms, support, threed
from addin.excel import dates, refusals
from addin.formula import excel_functions as xf
from addin.formula import fx_excel_args, intersection, patches, walk
from addin.formula.excel_functions import write

ROOT = Path(__file__).resolve().parent.parent


def test_each_table_is_the_declarations():
    assert checked.checked() == xf.checked() and len(xf.checked()) >= 157
    assert forms.DATE_SYSTEM == xf.names("date_system") and "YEARFRAC" in forms.DATE_SYSTEM
    assert forms.PLACE_ONLY == {"AREAS", "COLUMN", "COLUMNS", "ROW", "ROWS", "FIELDVALUE", "_FV",
                                 "FORMULATEXT", "STOCKHISTORY", "GETPIVOTDATA"}
    assert branches.BRANCHING == {"IF", "IFS", "IFERROR", "IFNA", "CHOOSE", "SWITCH"}
    assert support.DIFFERENT["IMSUM"] == "complex-number functions"
    assert support.DATE_FUNCTIONS == xf.names("refused_in_1904")
    assert {"SUM", "_XLFN.STDEV.S", "STDEV.S"} <= threed.FUNCTIONS
    assert {"_XLFN.IFNA", "IFNA", "SUM"} <= intersection.VALUE_CONTEXT
    assert {"SUMPRODUCT", "_XLFN.AGGREGATE"} <= intersection.ARRAY_CONTEXT
    assert intersection.VALUE_PARAMS["VLOOKUP"] == (0, 2, 3)
    assert intersection.VALUE_PARAMS["ABS"] is None  # (every argument)
    assert walk.ELEMENTWISE == xf.names("elementwise", spelled=True) and "IF" in walk.ELEMENTWISE
    assert refusals.NUMBERS["MROUND"] == ("number", "multiple") and refusals.NUMBERS["POWER"] == ()
    assert fx_excel_args.BOUNDS["FACT"] == (0, 20.0)
    assert dates.DATES_1904["_XLFN.DAYS"] == ((0, 1), False)
    assert dates.CHECKED_SERIALS["EOMONTH"] == ((0, 1), 1)
    keys = {p.key for p in patches.PATCHES if p.by.endswith("install:approximate")}
    assert keys == {"VLOOKUP", "HLOOKUP", "MATCH"}


def test_a_declaration_is_written_as_its_module_writes_it():
    source = "".join((ROOT / "addin/formula/excel_functions" / f"{t}.py").read_text("utf-8")
                     for t in xf.TOPICS)
    assert [n for n, fn in xf.declared().items() if write.render(fn) not in source] == []


def test_a_row_of_the_former_list_ports_to_a_declaration(tmp_path):
    rows = tmp_path / "rows.csv"
    rows.write_text("function,forms,evidence\n"
                    'ABS,"scalars, cells",tests/test_excel_functions.py (values asserted)\n'
                    "BITAND,scalars,tests/test_kept.py\n", encoding="utf-8")
    got = write.port(rows)
    assert got.startswith("# addin.formula.excel_functions.math_trig\n"
                          'excel("ABS", "scalars, cells",\n'
                          '      "tests/test_excel_functions.py (values asserted)",\n'
                          "      elementwise=True, value_args=ALL, value_context=True)\n")
    assert got.endswith("# new: the module of its Excel category\n"
                        'excel("BITAND", "scalars",\n      "tests/test_kept.py")\n')
    same = tmp_path / "same.csv"
    abs_ = xf.declared()["ABS"]
    same.write_text("function,forms,evidence\n" + f'ABS,"{write.forms_text(abs_.forms)}",'
                    f'"{abs_.evidence}"\n', encoding="utf-8")
    assert write.port(same) == ""


def test_the_doc_table_is_current():
    text = (ROOT / "docs/excel-functions.md").read_text("utf-8")
    assert text == write.with_table(text), "python -m tools.regenerate docs/excel-functions.md"
