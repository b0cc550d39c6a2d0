"""What is written from the declarations of Excel's functions: ``docs/excel-functions.md``'s
table, the README's list of the functions checked, and a declaration's source
(``render``), with which a row of the former list (``function,forms,evidence``,
``addin/engine/checked_functions.csv``) is ported.

``python -m addin.formula.excel_functions.write [docs/excel-functions.md]`` rewrites the
table (``python -m tools.regenerate`` does it with the other generated files);
``python -m addin.formula.excel_functions.write port ROWS.csv`` prints, for each row of
a CSV file of that form whose forms or evidence differ from the declarations, the
declaration to write in its place (its other facts kept), under the module it goes in.
"""

from __future__ import annotations

import csv
import json
import re
import sys
import textwrap
from dataclasses import fields, replace
from pathlib import Path

from addin.formula.excel_functions import ALL, TOPICS, ExcelFunction, checked, declared

#: the order a declaration's facts are written in (after its forms and evidence)
FACTS = tuple(f.name for f in fields(ExcelFunction)
              if f.name not in ("name", "forms", "evidence"))
#: the forms in the order ``addin.engine.forms.FORMS`` gives them
FORM_ORDER = ("scalars", "cells", "ranges", "arrays", "numeric text", "empty", "errors",
              "omitted", "1904", "no argument")
WIDTH = 100
DOC_HEADING = "## Per function\n\n"


def forms_text(forms) -> str:
    """The forms as a declaration writes them: ``"scalars, cells, ranges"``."""
    return ", ".join(f for f in FORM_ORDER if f in forms)


def _literal(text: str, indent: int) -> list[str]:
    """``text`` as double-quoted string literals, each line within ``WIDTH``."""
    pieces = textwrap.wrap(text, width=WIDTH - indent - 7, break_long_words=False,
                           break_on_hyphens=False, drop_whitespace=False)
    return [json.dumps(p, ensure_ascii=False) for p in pieces]


def _value(name: str, v) -> str:
    if name == "value_args" and v == ALL:
        return "ALL"
    if name == "bound":
        return f"({v[0]}, {'2.0 ** 53' if v[1] == 2.0 ** 53 else repr(v[1])})"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    return repr(v).replace("'", '"')


def render(fn: ExcelFunction) -> str:
    """The ``excel(...)`` call that declares ``fn``, as the topic modules write it."""
    pad = " " * 6
    given = [f"{k}={_value(k, getattr(fn, k))}" for k in FACTS
             if getattr(fn, k) not in (None, False, "")]
    out, line = [], f'excel("{fn.name}", '
    if fn.forms is not None:
        out.append(f'excel("{fn.name}", "{forms_text(fn.forms)}",')
        evidence = _literal(fn.evidence, len(pad))
        out += [pad + p for p in evidence[:-1]] + [pad + evidence[-1] + ","]
        line = pad
    for piece in given:
        if len(line) + len(piece) + 2 > WIDTH - 1 and line.strip() and \
                not line.endswith("("):
            out.append(line.rstrip())
            line = pad
        line += piece + ", "
    out.append(line.rstrip().rstrip(",") + ")")
    if not given and fn.forms is not None:  # (forms and evidence only)
        out = out[:-2] + [out[-2].rstrip(",") + ")"]
    elif not given:
        out = [f'excel("{fn.name}")']
    return "\n".join(out)


def module_of(name: str) -> str | None:
    """The topic module that declares ``name``, or None."""
    fn = declared().get(name)
    if fn is None:
        return None
    for topic in TOPICS:
        module = sys.modules[f"addin.formula.excel_functions.{topic}"]
        if f'excel("{name}"' in Path(module.__file__).read_text("utf-8"):
            return module.__name__
    return None


def port(path) -> str:
    """The declarations to write for the rows of ``path`` (``function,forms,evidence``,
    ``#`` comments) that differ from the declarations: each under the module it goes in,
    a new function under ``new``."""
    with open(path, encoding="utf-8", newline="") as fh:
        rows = [r for r in csv.reader(fh) if r and not r[0].startswith("#")]
    known, out = declared(), []
    for name, forms, evidence in rows[1:]:
        name = name.strip().upper()
        got = frozenset(f.strip() for f in forms.split(",") if f.strip())
        old = known.get(name)
        if old is not None and (old.forms, old.evidence) == (got, evidence.strip()):
            continue
        fn = replace(old or ExcelFunction(name), forms=got, evidence=evidence.strip())
        where = module_of(name) or "new: the module of its Excel category"
        out.append(f"# {where}\n{render(fn)}")
    return "\n".join(out) + ("\n" if out else "")


def corrections(name: str) -> list:
    """The entries of ``addin.formula.patches.PATCHES`` that correct formulas' ``name``
    (either spelling): what each corrects, its evidence, the replacement."""
    from addin.formula.patches import PATCHES, TABLE

    fn = declared()[name]
    return [p for p in PATCHES if p.name == TABLE and p.key in fn.spellings]


def _facts(fn: ExcelFunction) -> str:
    words = []
    for k in FACTS:
        v = getattr(fn, k)
        if v in (None, False, ""):
            continue
        words.append(k if v is True else f"{k} {_value(k, v)}")
    fixed = sorted({p.by.removeprefix("addin.") for p in corrections(fn.name)})
    if fixed:
        words.append("formulas corrected by " + ", ".join(f"`{b}`" for b in fixed))
    return "; ".join(words).replace("|", "\\|")


def doc_table() -> str:
    """The per-function table of ``docs/excel-functions.md``."""
    rows = ["| Function | Checked forms of argument | Evidence | Other facts |",
            "|---|---|---|---|"]
    for name, fn in declared().items():
        forms = forms_text(fn.forms) if fn.forms is not None else "not checked"
        evidence = (fn.evidence or "—").replace("|", "\\|")
        rows.append(f"| `{name}` | {forms} | {evidence} | {_facts(fn) or '—'} |")
    return "\n".join(rows) + "\n"


def with_table(text: str, source: str = "docs/excel-functions.md") -> str:
    """``text`` (the doc) with its table after ``DOC_HEADING`` built anew."""
    if DOC_HEADING not in text:
        raise ValueError(f"{source}: no heading {DOC_HEADING.strip()!r}")
    return text[:text.index(DOC_HEADING) + len(DOC_HEADING)] + doc_table()


#: the README's list of the functions checked (``tests/test_checked.py`` reads it)
_README_LIST = re.compile(r"The\s+\d+\s+functions\s+listed:.*?\.\n", re.S)


def with_checked_list(readme: str) -> str:
    """``readme`` with its list of the functions strict mode computes ("The N functions
    listed: ...") written from the declarations."""
    names = list(checked())
    text = f"The {len(names)} functions listed: " + ", ".join(f"`{n}`" for n in names) + ".\n"
    new, count = _README_LIST.subn(lambda m: text, readme, count=1)
    if not count:
        raise ValueError("README: no list \"The N functions listed: ...\"")
    return new


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["port"] and len(argv) == 2:
        sys.stdout.write(port(argv[1]))
        return 0
    if argv and (argv[0].startswith("-") or len(argv) > 1):
        print(__doc__.split("\n\n")[1])
        return 0
    path = Path(argv[0] if argv else "docs/excel-functions.md")
    text = path.read_text("utf-8")
    new = with_table(text, str(path))
    if new != text:
        path.write_text(new, encoding="utf-8", newline="\n")
    print(f"{path}: table {'updated' if new != text else 'already current'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
