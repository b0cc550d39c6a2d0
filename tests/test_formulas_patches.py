"""napkin's changes to formulas (``addin.formula.patches.PATCHES``) against the
formulas release installed (``pyproject.toml`` pins it): every name replaced exists there,
the functions said to be missing from formulas are missing, and after ``ready()`` each
name holds its replacement. An upgrade of formulas that renames, adds or drops one of
them fails here."""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys

import pytest

from addin.engine import boot
from addin.formula import fx, patches, patches_excel

_TARGETS = [(p.module, p.name, p.key) for p in patches.PATCHES]

#: formulas as released, before napkin changes anything: run in a fresh interpreter
_PROBE = """
import importlib, json, sys
targets, parse, reads = json.loads(sys.stdin.read())
out = {"targets": [], "parse": [], "reads": []}
for module, name, key in targets:
    mod = importlib.import_module(module)
    if not hasattr(mod, name):
        out["targets"].append("no name")
        continue
    if key is None:
        out["targets"].append("name")
        continue
    table = mod.get_functions() if name == "get_functions" else getattr(mod, name)
    out["targets"].append("key" if key in table else "no key")
for module, cls, attr in parse:
    out["parse"].append(attr in vars(getattr(importlib.import_module(module), cls)))
for module, name in reads:
    out["reads"].append(hasattr(importlib.import_module(module), name))
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def released():
    """What formulas holds before ``ready()``, read in a fresh interpreter."""
    given = json.dumps([_TARGETS, [d[:3] for d in patches.DURING_PARSE],
                        list(patches.READS)])
    run = subprocess.run([sys.executable, "-c", _PROBE], input=given, capture_output=True,
                         text=True, timeout=120, check=True)
    return json.loads(run.stdout)


def test_every_name_replaced_exists_in_the_pinned_formulas(released):
    for patch, found in zip(patches.PATCHES, released["targets"], strict=True):
        if patch.key is None:
            assert found == "name", patch
        elif patch.corrects == patches_excel.MISSING:
            assert found == "no key", f"formulas now has {patch.key}: {patch}"
        else:
            assert found == "key", patch


def test_the_names_swapped_during_a_parse_and_those_read_exist(released):
    assert all(released["parse"]), list(zip(patches.DURING_PARSE, released["parse"], strict=True))
    assert all(released["reads"]), list(zip(patches.READS, released["reads"], strict=True))


def test_after_ready_each_name_holds_its_replacement():
    boot.ready()
    applied = boot.APPLIED
    assert [p for p, _ in applied] == list(patches.PATCHES)
    last = {}
    for i, (patch, _) in enumerate(applied):
        last[(patch.module, patch.name, patch.key)] = i
    for i, (patch, new) in enumerate(applied):
        target = (patch.module, patch.name, patch.key)
        now = fx.current(*target)
        if last[target] == i:
            assert now is new, patch
        else:  # replaced again later: the later replacement stands in front of this one
            if isinstance(now, dict) and isinstance(new, dict):  # its function wrapped
                now, new = now["function"], new["function"]  # (addin/formula/discrete_doubt)
            elif isinstance(now, dict):  # one of addin/excel's, calling what it replaced
                from addin.excel.args import ORIGINAL
                now = ORIGINAL[patch.key]
            assert inspect.unwrap(now, stop=lambda f, new=new: f is new) is new, patch


def test_every_module_that_holds_text2num_holds_the_same_one():
    boot.ready()
    held = {fx.current(p.module, p.name) for p in patches.PATCHES if p.name == "_text2num"}
    assert len(held) == 1
    names = [p.module.rsplit(".", 1)[-1] for p in patches.PATCHES if p.name == "_text2num"]
    # formulas' modules that hold _text2num (functions and the five that import it)
    for name in ("stat", "financial", "math", "text", "look", "date", "logic", "info", "eng",
                 "operators"):
        module = importlib.import_module(f"formulas.functions.{name}")
        assert hasattr(module, "_text2num") == (name in names), name


def test_parsing_leaves_formulas_own_parser_in_place():
    boot.ready()
    fx.parse("=--TRUE+F(1,,3)", "'[1]S'!A1")
    for module, cls, attr, _ in patches.DURING_PARSE:
        held = vars(getattr(importlib.import_module(module), cls))[attr]
        held = getattr(held, "__func__", held)
        assert held.__module__ == module, (cls, attr)


def test_every_entry_names_ours_below_the_engine_and_says_why():
    seen = set()
    for patch in patches.PATCHES:
        module = patch.by.split(":")[0]
        assert module.startswith(("addin.formula.", "addin.excel.")), patch
        assert patch.how in ("build", "udf")
        assert callable(boot.ours(patch)), patch
        assert patch.corrects and ("tests/" in patch.evidence
                                   or "Microsoft Support" in patch.evidence), patch
        key = (patch.module, patch.name, patch.key, patch.by)
        assert key not in seen, patch
        seen.add(key)


def test_docs_list_the_excel_functions_formulas_lacks_and_those_it_computes_unlike_excel(
        released):
    """docs/dependencies.md names, as corrections and as missing, exactly the functions of
    addin/excel/ registered in formulas' table (``_XLFN.`` names with their function)."""
    import re
    from pathlib import Path

    ours = {}  # function -> present in formulas as released
    for patch, found in zip(patches.PATCHES, released["targets"], strict=True):
        if patch.name == "get_functions" and (patch.how == "udf"
                                              or patch.by.endswith(":approximate")):
            name = patch.key.removeprefix("_XLFN.").removeprefix("_XLWS.")
            ours[name] = ours.get(name, False) or found == "key"
    doc = (Path(__file__).parent.parent / "docs" / "dependencies.md").read_text("utf-8")

    def listed(head):
        m = re.search(rf"- \*\*{head}\*\*(.*?)\.\n", doc, re.S)
        return set(re.findall(r"`([A-Z0-9._]+)`", m.group(1)))  # (_FV: an underscore)

    corrections = {n for n, present in ours.items() if present}
    missing = {n for n, present in ours.items() if not present}
    assert listed(f"{len(corrections)} correct formulas' own:") == corrections
    assert listed(f"{len(missing)} that formulas lacks:") == missing
    assert f"It holds {len(ours)} functions" in doc
