"""addin/ keeps its layers: no import goes up or sideways, no import cycle, and only the
formula layer's door imports formulas (the rules are in tests/layers.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import layers

ROOT = Path(__file__).resolve().parents[1]
ADDIN = ROOT / "addin"


def test_addin_keeps_its_layers():
    assert layers.violations(ADDIN) == []


def test_every_module_is_in_a_layer():
    stray = [m for m in layers.modules(ADDIN) if m != "addin" and layers.layer(m) is None]
    assert stray == []


def _scratch(tmp_path: Path) -> Path:
    copy = tmp_path / "addin"
    shutil.copytree(ADDIN, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_a_planted_cycle_is_caught(tmp_path):
    copy = _scratch(tmp_path)
    a1 = copy / "ooxml" / "a1.py"
    # deferred into a function, as the old cycle's back edges were
    a1.write_text(a1.read_text() + "\n\ndef _planted():\n    from addin.engine import api\n")
    found = layers.violations(copy)
    assert "addin.ooxml.a1 (ooxml) imports addin.engine.api (engine): up across layers" in found
    cycle = [v for v in found if v.startswith("import cycle:")]
    assert len(cycle) == 1 and "addin.ooxml.a1" in cycle[0] and "addin.engine.api" in cycle[0]


def test_a_cycle_inside_one_layer_is_caught(tmp_path):
    copy = _scratch(tmp_path)
    fx = copy / "formula" / "fx.py"
    fx.write_text(fx.read_text() + "\n\ndef _planted():\n    from . import intersection\n")
    found = layers.violations(copy)
    # intersection imports fx and ranges, ranges imports fx: the three are one cycle now
    assert found == ["import cycle: addin.formula.fx, addin.formula.intersection, "
                     "addin.formula.ranges"]


def test_sideways_and_formulas_imports_are_caught(tmp_path):
    copy = _scratch(tmp_path)
    lite = copy / "routes" / "lite.py"
    lite.write_text(lite.read_text() + "\n\ndef _planted():\n    import formulas\n"
                    "    from addin.transform import freeze\n")
    found = layers.violations(copy)
    assert ("addin.routes.lite (routes) imports addin.transform.freeze (transform): "
            "sideways across layers") in found
    assert any(v.startswith("addin.routes.lite imports formulas") for v in found)


def test_udfs_imports_nothing_of_addin_and_workbook_only_the_formula_walk():
    """udfs/ stands below addin/; workbook/ (the template's builder) reads formula text with
    the formula layer's one walk (addin.formula.walk) and imports nothing else of addin/."""
    for package, allowed in (("udfs", set()), ("workbook", layers.WORKBOOK_MAY_IMPORT)):
        graph = layers.imports(ROOT / package, also=layers.modules(ROOT / "addin"))
        reach = {m: sorted(d for d in deps if d.split(".")[0] == "addin" and d not in allowed)
                 for m, deps in graph.items()}
        assert {m: d for m, d in reach.items() if d} == {}, package
    uses = {m for m, deps in graph.items() if layers.WORKBOOK_MAY_IMPORT & deps}
    assert "workbook.arrays" in uses  # (the rule is not vacuous)


def test_the_old_public_paths_still_work():
    code = ("from addin.cli import main; import addin.xlwings_udfs; "
            "from addin.engine import calc_workbook, evaluate; "
            "import addin.engine as e; assert e.evaluate is evaluate; "
            "print(evaluate('=RIDGE(989,3.35)*2'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "590.4477611940298"  # 2 x 989 / 3.35, by hand: 590.447...
    cli = subprocess.run([sys.executable, "-m", "addin.cli", "eval", "=AMDAHL(0.3)"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    assert cli.stdout.strip() == "1.4285714285714286"  # 1 / (1 - 0.3)


def test_workbook_keeps_its_layers():
    """workbook/: the formula layer, the model, the drawing helpers, the sheets, the build,
    each importing only what is below it (tests/layers.py, WORKBOOK_LAYERS)."""
    graph = layers.imports(ROOT / "workbook")
    assert layers.workbook_violations(graph) == []
    assert {"workbook.expr", "workbook.model.step", "workbook.sizing"} <= set(graph)


def test_an_import_up_a_workbook_layer_is_caught():
    planted = {"workbook.model.step": {"workbook.sizing", "workbook.expr"},
               "workbook.expr": {"workbook.sheet"}, "workbook.sizing": {"workbook.expr"}}
    assert layers.workbook_violations(planted) == [
        "workbook.expr imports workbook.sheet, a layer up",
        "workbook.model.step imports workbook.sizing, a layer up"]


def test_udfs_keeps_its_layers():
    """udfs/: the machinery below the topics (udfs/inference/), the topics below the
    declarations (udfs/functions/), those below the catalog; the machinery never imports a
    topic, and no module sits at the root but __init__, catalog and docs."""
    graph = layers.imports(ROOT / "udfs")
    assert layers.udfs_violations(graph) == []
    assert {"udfs.machinery.args", "udfs.inference.tables", "udfs.functions.memory",
            "udfs.catalog"} <= set(graph)


def test_an_import_of_a_topic_by_the_machinery_is_caught():
    planted = {"udfs.machinery.args": {"udfs.inference.precisions", "udfs.machinery.units"},
               "udfs.inference.precisions": {"udfs.machinery.args"},
               "udfs.inference.memory": {"udfs.functions.common"},
               "udfs.stray": set()}
    assert layers.udfs_violations(planted) == [
        "udfs.stray is in no layer of udfs/ (tests/layers.py, UDFS_LAYERS)",
        "udfs.inference.memory imports udfs.functions.common, a layer up",
        "udfs.machinery.args imports udfs.inference.precisions, a layer up"]


def test_tools_use_public_entry_points_only():
    """tools/ imports nothing of tests/ (no module there, no change of sys.path), no
    private name of addin/, and replaces no attribute of a module it imports (a survey
    mode, a hook: the engine offers it, as addin.engine.survey does)."""
    import ast

    found = []
    for path in sorted((ROOT / "tools").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules |= {(a.asname or a.name).split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                modules |= {a.asname or a.name for a in node.names}
                if (node.module or "").split(".")[0] == "addin":
                    found += [f"{path.name} imports {node.module}.{a.name}"
                              for a in node.names if a.name.startswith("_")]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    ast.unparse(node.func.value) == "sys.path":
                found.append(f"{path.name} changes sys.path (to import tests/?)")
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for x in ast.walk(t):
                        if isinstance(x, ast.Attribute) and isinstance(x.value, ast.Name) \
                                and x.value.id in modules:
                            found.append(f"{path.name} replaces {x.value.id}.{x.attr}")
    assert found == []
