"""The topic modules' docstrings keep one numpydoc form for their parameters.

Each entry of a Parameters section is ``name : type`` (several names may share one),
then its description, indented; a number's description carries its unit in brackets
(``Memory bandwidth [TB/s].``, ``[count]`` for a number of things, ``[fraction]`` for a
share, ``[ratio]`` for a quotient of two like amounts). Names of code are plain, in
double backquotes (``udfs.catalog``): no Sphinx build reads these docstrings, so a
cross-reference role (func, mod, class...) would only be noise.
"""

import ast
import re
import subprocess
from pathlib import Path

import pytest

UDFS = Path(__file__).resolve().parents[1] / "udfs"
TOPICS = ["inference/memory", "inference/timing", "inference/roofline", "inference/speedup",
          "inference/cost", "inference/finance", "inference/serving", "inference/energy",
          "inference/tables", "machinery/units", "inference/regimes"]
TYPES = {"float", "float or None", "str", "object", "dict", "pint.Unit", "bool"}
ENTRY = re.compile(r"(?P<names>[a-z_][a-z0-9_]*(?:, [a-z_][a-z0-9_]*)*) : (?P<type>.+)")


def parameter_sections(module: str):
    """(function, [(entry line, description)]) for each docstring with Parameters."""
    tree = ast.parse((UDFS / f"{module}.py").read_text("utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            continue
        lines = (ast.get_docstring(node) or "").splitlines()
        if "Parameters" not in lines:
            continue
        entries = []
        for line in lines[lines.index("Parameters") + 2:]:
            if not line.strip():
                break
            if line.startswith("    "):
                entries[-1][1].append(line.strip())
            else:
                entries.append((line, []))
        yield node.name, [(head, " ".join(desc)) for head, desc in entries]


@pytest.mark.parametrize("module", TOPICS)
def test_parameters_are_name_type_and_a_description_with_its_unit(module):
    bad = []
    for function, entries in parameter_sections(module):
        for head, description in entries:
            m = ENTRY.fullmatch(head)
            if m is None or m.group("type") not in TYPES or not description:
                bad.append(f"{function}: {head!r}")
            elif m.group("type").startswith("float") and not (
                    description.startswith("As ``") or re.search(r"\[[^\]]+\]", description)):
                bad.append(f"{function}: {m.group('names')} has no [unit]")
    assert not bad, bad


def test_the_sections_are_found():
    # memory.weight_gb: params, bytes_per_param and kept_params (udfs/inference/memory.py)
    sections = dict(parameter_sections("inference/memory"))
    assert [head for head, _ in sections["weight_gb"]] == [
        "params : float", "bytes_per_param : float", "kept_params : float or None"]


#: A Sphinx cross-reference role; the math role stays, it is notation.
ROLE = re.compile(r":(?:class|data|func|meth|mod|attr|exc|obj):`")
def test_no_sphinx_roles():
    root = UDFS.parent
    files = subprocess.run(["git", "ls-files", "*.py", "*.md"], cwd=root, capture_output=True,
                           text=True, check=True).stdout.split()
    found = [f"{name}:{n}" for name in files
             for n, line in enumerate((root / name).read_text("utf-8").splitlines(), 1)
             if ROLE.search(line)]
    assert not found, f"a Sphinx role where a plain ``name`` does: {found}"
