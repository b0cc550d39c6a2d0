"""The import graph of ``addin/`` and the rules its layers keep (tests/test_layers.py);
those of ``workbook/`` and ``udfs/`` are at the end (``WORKBOOK_LAYERS``, ``UDFS_LAYERS``).

Every ``import`` and ``from ... import`` is read from each module's syntax tree, those
inside functions included (a deferred import is still a dependency). The layers, from the
bottom (docs/contributing.md has the map):

    ooxml  <  formula  <  excel  <  engine  <  transform | routes  <  cli

A module may import its own layer and the layers below it; ``transform`` and ``routes``
stand side by side and may not import each other. ``addin/xlwings_udfs.py`` (the add-in's
UDF module, named by users' xlwings.conf) belongs to ``routes``.
"""

from __future__ import annotations

import ast
from pathlib import Path

LAYERS = {"ooxml": 0, "formula": 1, "excel": 2, "engine": 3, "transform": 4, "routes": 4,
          "cli": 5}
TOP_LEVEL = {"xlwings_udfs": "routes"}  # addin/<module>.py outside the subpackages

#: the only modules that import formulas or schedula (addin/formula/fx.py is the door;
#: fx_parser.py its parser, trying at each place the token classes that can start there;
#: fx_excel.py corrects formulas' own functions, fx_excel_dates.py its date functions,
#: fx_excel_args.py how some of them read their arguments, libm.py its logarithms and
#: exponential by the C library)
FORMULAS_IMPORTERS = {"addin.formula.fx", "addin.formula.fx_parser",
                      "addin.formula.fx_excel", "addin.formula.fx_excel_dates",
                      "addin.formula.fx_excel_args", "addin.formula.libm"}


def module_name(root: Path, path: Path) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    """``{dotted name: path}`` of every module under ``root`` (the ``addin`` folder)."""
    return {module_name(root, p): p for p in sorted(root.rglob("*.py"))}


def _resolve(name: str, here: str, is_package: bool, level: int) -> str:
    if not level:
        return name
    base = here.split(".") if is_package else here.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def imports(root: Path, also: dict[str, Path] | None = None) -> dict[str, set[str]]:
    """``{module: {what it imports}}`` of the modules under ``root``: dotted names, each a
    module of ``root`` (or of ``also``, another package's ``modules``) where the import
    names one (``from addin.engine import api`` is ``addin.engine.api``), else the
    top-level package (``formulas``, ``numpy``)."""
    own = modules(root)
    mods = {**(also or {}), **own}
    out: dict[str, set[str]] = {}
    for name, path in own.items():
        is_package = path.name == "__init__.py"
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                for a in node.names:
                    deps.add(a.name if a.name in mods else a.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(node.module or "", name, is_package, node.level)
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    if sub in mods:
                        deps.add(sub)
                    elif base in mods:
                        deps.add(base)
                    else:
                        deps.add(base.split(".")[0])
        deps.discard(name)
        out[name] = deps
    return out


def layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "addin" or len(parts) == 1:
        return None
    return TOP_LEVEL.get(parts[1], parts[1] if parts[1] in LAYERS else None)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def violations(root: Path) -> list[str]:
    """Sentences for every import that breaks the rules, and every cycle."""
    graph = imports(root)
    out = []
    for mod, deps in sorted(graph.items()):
        mine = layer(mod)
        for dep in sorted(deps):
            if dep in ("formulas", "schedula") and mod not in FORMULAS_IMPORTERS:
                out.append(f"{mod} imports {dep}: only {sorted(FORMULAS_IMPORTERS)} may")
            theirs = layer(dep)
            if mine is None or theirs is None or theirs == mine:
                continue
            if LAYERS[theirs] >= LAYERS[mine]:
                way = "up" if LAYERS[theirs] > LAYERS[mine] else "sideways"
                out.append(f"{mod} ({mine}) imports {dep} ({theirs}): {way} across layers")
    for comp in cycles(graph):
        out.append("import cycle: " + ", ".join(comp))
    return out


# --------------------------------------------------------------------------- workbook/

#: The layers of ``workbook/``, from the bottom: the formula layer (expressions, their
#: values and parser, array blocks, the XML form, paper sizes), the model (quantities as
#: expressions), the drawing helpers and the scenario, the sheets, the build. A module
#: imports its own layer and those below; a sheet never reaches into the build, the model
#: never into a sheet.
WORKBOOK_LAYERS = {
    "workbook.expr": 0, "workbook.expr_parse": 0, "workbook.expr_values": 0,
    "workbook.expr_excel": 0,
    "workbook.xml_form": 0, "workbook.arrays": 0, "workbook.paper": 0,
    "workbook.model": 1, "workbook.model.step": 1, "workbook.model.fleet": 1,
    "workbook.model.serving": 1, "workbook.model.gpu": 1,
    "workbook.model.bill": 1, "workbook.model.decode": 1, "workbook.model.prefill": 1,
    "workbook.moe": 1,
    "workbook.speculation": 1,
    "workbook.sheet": 2, "workbook.scenario": 2, "workbook.estimate_range": 2,
    "workbook.build": 4, "workbook": 4,
}
SHEETS_LAYER = 3  # every other module of workbook/: a sheet or its parts
#: What workbook/ may import of addin/: the formula layer's one walk over formula text
#: (the template's array formulas widen references where napkin native narrows them).
WORKBOOK_MAY_IMPORT = {"addin.formula.walk"}


def workbook_layer(module: str) -> int:
    return WORKBOOK_LAYERS.get(module, SHEETS_LAYER)


def workbook_violations(graph: dict[str, set[str]]) -> list[str]:
    """Each import of ``workbook/`` that goes up a layer (``WORKBOOK_LAYERS``)."""
    found = []
    for module, deps in sorted(graph.items()):
        for dep in sorted(deps):
            if dep.split(".")[0] == "workbook" and dep != "workbook" and \
                    workbook_layer(dep) > workbook_layer(module):
                found.append(f"{module} imports {dep}, a layer up")
    return found


# --------------------------------------------------------------------------- udfs/

#: The layers of ``udfs/``, from the bottom: the machinery (declaring a function, reading
#: its arguments, units, errors, broadcasting, EXPLAIN's text, the host), the topics (the
#: LLM-inference formulas and their tables), the declarations (one per Excel function),
#: and the package's top (``udfs/__init__.py``, the catalog in order, the README table).
#: A module imports its own layer and those below: the machinery never imports a topic.
UDFS_LAYERS = {"udfs.machinery": 0, "udfs.inference": 1, "udfs.functions": 2}
#: The modules at the root of ``udfs/`` (every other module is in one of the folders)
UDFS_TOP = {"udfs": 3, "udfs.catalog": 3, "udfs.docs": 3}


def udfs_layer(module: str) -> int | None:
    """The layer of a module of ``udfs/`` (``UDFS_LAYERS``, ``UDFS_TOP``), else None."""
    if module in UDFS_TOP:
        return UDFS_TOP[module]
    return UDFS_LAYERS.get(".".join(module.split(".")[:2]))


def udfs_violations(graph: dict[str, set[str]]) -> list[str]:
    """Each import of ``udfs/`` that goes up a layer, and each module in no layer."""
    found = [f"{m} is in no layer of udfs/ (tests/layers.py, UDFS_LAYERS)"
             for m in sorted(graph) if udfs_layer(m) is None]
    for module, deps in sorted(graph.items()):
        for dep in sorted(deps):
            if dep.split(".")[0] != "udfs" or udfs_layer(dep) is None or \
                    udfs_layer(module) is None:
                continue
            if udfs_layer(dep) > udfs_layer(module):
                found.append(f"{module} imports {dep}, a layer up")
    return found
