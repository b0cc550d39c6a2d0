"""A declaration is all a new function needs (udfs.machinery.declare), and each module of udfs
imports on its own."""

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import udfs
from udfs.docs import function_table
from udfs.machinery import declare as d
from udfs.machinery.args import POSITIVE, Arg
from udfs.machinery.explain import num

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def toy():
    """A function declared for the test, removed from the registries afterwards."""
    fn = d.declare(
        "TOY_HALF_LIFE_MS",
        "Time for half of amount_gb at bandwidth: amount ÷ 2 ÷ bandwidth, in ms.",
        d.param(Arg("amount_gb", "GB", POSITIVE), "Amount, GB."),
        d.param(Arg("bandwidth", "TB/s", POSITIVE), "Bandwidth, TB/s.", default=3.35),
        d.result_unit("ms", "Optional. Unit of the result."),
        formula=lambda gb, bw: gb / 2 / bw,
        explain=lambda w: f"{num(w.amount_gb)} GB ÷ 2 ÷ {num(w.bandwidth)} TB/s = "
                          f"{num(w.result)} {w.unit}",
        example=("=TOY_HALF_LIFE_MS(67)", "10"),
    )
    try:
        yield fn
    finally:
        for registry in (d.CATALOG, d.ARG_DOCS, d.DECLARATIONS):
            registry.pop(fn.name, None)


def test_one_declaration_gives_the_excel_function_its_help_explain_and_readme_row(toy):
    f = d.CATALOG["TOY_HALF_LIFE_MS"]
    assert str(inspect.signature(f)) == "(amount_gb, bandwidth=None, unit=None)"
    assert f.__doc__.startswith("Time for half")
    assert d.ARG_DOCS["TOY_HALF_LIFE_MS"] == {"amount_gb": "Amount, GB.",
                                              "bandwidth": "Bandwidth, TB/s.",
                                              "unit": "Optional. Unit of the result."}
    # 67 GB ÷ 2 ÷ 3.35 TB/s = 10 ms; in s: 0.01; text with units is read; ranges spill
    assert f(67) == pytest.approx(10)
    assert f("67 GB", "3350 GB/s", "s") == pytest.approx(0.01)
    assert f([[67], [134]]).tolist() == [pytest.approx([10]), pytest.approx([20])]
    err = f(67, 0)
    assert err.code == "#NUM!" and "bandwidth" in err.message
    assert udfs.EXPLAIN("TOY_HALF_LIFE_MS", 67) == "TOY_HALF_LIFE_MS: 67 GB ÷ 2 ÷ 3.35 TB/s = 10 ms"
    assert "| `TOY_HALF_LIFE_MS(amount_gb, [bandwidth], [unit])` | `=TOY_HALF_LIFE_MS(67)` | 10 |" \
        in function_table()


def test_a_name_is_declared_once(toy):
    with pytest.raises(ValueError, match="declared twice"):
        d.declare(toy.name, "again", formula=lambda: 1)


@pytest.mark.parametrize("module", sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts)
    for folder in ("", "inference", "machinery") for p in (ROOT / "udfs" / folder).glob("*.py")
    if p.stem != "__init__"))
def test_each_module_imports_on_its_own(module):
    proc = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
