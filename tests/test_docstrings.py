"""The topic modules' docstrings keep one numpydoc form for their parameters.

Each entry of a Parameters section is ``name : type`` (several names may share one),
then its description, indented; a number's description carries its unit in brackets
(``Memory bandwidth [TB/s].``, ``[count]`` for a number of things, ``[fraction]`` for a
share, ``[ratio]`` for a quotient of two like amounts).
"""

import ast
import re
from pathlib import Path

import pytest

UDFS = Path(__file__).resolve().parents[1] / "udfs"
TOPICS = ["memory", "timing", "roofline", "speedup", "cost", "finance", "serving", "energy",
          "tables", "units"]
TYPES = {"float", "float or None", "str", "object", "dict", "pint.Unit"}
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
                    description.startswith("As :func:") or re.search(r"\[[^\]]+\]", description)):
                bad.append(f"{function}: {m.group('names')} has no [unit]")
    assert not bad, bad


def test_the_sections_are_found():
    # memory.weight_gb: params and bytes_per_param (udfs/memory.py)
    sections = dict(parameter_sections("memory"))
    assert [head for head, _ in sections["weight_gb"]] == [
        "params : float", "bytes_per_param : float"]
