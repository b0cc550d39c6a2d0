"""No #NUM! at any batch for a mixture of experts, in either edition.

The distinct experts a step reads, E·(1 − (1 − k/E)^B), has a power that underflows at a
large batch; LibreOffice's ``^`` gives #NUM! there (``=0.75^3000``), and every headline of
the native edition was an error for Mixtral from batch ≈ 2,500. ``workbook/moe.py`` and
MOE_EXPERTS_READ's native form write the power as 0 below e^−700 and E where k = E.
"""

from __future__ import annotations

import json
import math
import subprocess
import zipfile
from pathlib import Path

import openpyxl
import pytest
from fidelity import cached_values
from scenario_support import UNO_PYTHON, cell_of, has_uno

from addin.cli import main as napkin
from udfs.inference import tables
from udfs.inference.memory import moe_experts_read
from workbook.expr import Name
from workbook.moe import experts_read

pytestmark = pytest.mark.xml

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "workbook" / "napkin-native.xlsx"
#: batch 1 to 10^6, with the batches where the old formula failed in LibreOffice for
#: Mixtral (2,500), Qwen3-235B (11,000) and DeepSeek (22,000)
BATCHES = [1, 2, 10, 100, 1000, 2500, 11000, 22000, 100000, 1000000]


def moe_models() -> dict[str, tuple[int, int]]:
    """{model: (E, k)} of every mixture of experts in the Models table."""
    out = {}
    for name, row in tables.models().items():
        if row.get("num_experts") not in (None, "", "0", 0):
            out[name] = (int(row["num_experts"]), int(row["experts_per_token"]))
    return out


def by_hand(e: int, k: int, b: float) -> float:
    """E·(1 − (1 − k/E)^B), Feller's occupancy expectation; Python's power gives 0 on
    underflow, the limit."""
    return e * (1 - (1 - k / e) ** b)


def test_the_python_function_reaches_e_without_error():
    assert len(moe_models()) >= 20
    for name, (e, k) in moe_models().items():
        got = [float(moe_experts_read(e, k, b)) for b in BATCHES]
        assert got[0] == pytest.approx(k, rel=1e-12), name  # batch 1 reads k experts
        assert all(x <= y for x, y in zip(got, got[1:], strict=False)), name
        assert got[-1] == e, name  # (1 − k/E)^1e6 < 1e-300 for every model here


def test_the_native_form_is_the_any_batch_formula():
    """MOE_EXPERTS_READ's native form (udfs/functions/memory.py) and workbook.moe say the
    same formula: one rendered from the other with the parameters as names."""
    from udfs.catalog import DECLARATIONS

    native = DECLARATIONS["MOE_EXPERTS_READ"].native
    rendered = experts_read(Name("{experts}"), Name("{top_k}"), Name("{batch}")).render()
    assert native == rendered
    # and the tree's own value is the limit at every batch, E at k = E
    from workbook.expr import Env, Num

    for e, k in ((8, 2), (256, 8), (512, 22)):
        for b in BATCHES:
            v = experts_read(Num(e), Num(k), Num(b)).evaluate(Env())
            assert v == pytest.approx(by_hand(e, k, b), rel=1e-12, abs=1e-9)
    assert experts_read(Num(4), Num(4), Num(3)).evaluate(Env()) == 4
    assert experts_read(Num(4), Num(5), Num(3)).evaluate(Env()).code == "#NUM!"


def _grid(path):
    """A workbook of MOE_EXPERTS_READ(E, k, B) for every MoE model and batch."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Grid"
    cells = {}
    for i, (_model, (e, k)) in enumerate(sorted(moe_models().items()), start=1):
        for j, b in enumerate(BATCHES, start=1):
            ref = f"{openpyxl.utils.get_column_letter(j)}{i}"
            ws[ref] = f"=MOE_EXPERTS_READ({e},{k},{b})"
            cells[f"Grid!{ref}"] = by_hand(e, k, b)
    wb.save(path)
    return cells


def _lo(jobs, tmp_path) -> list[dict]:
    jobs_file = tmp_path / "jobs.json"
    jobs_file.write_text(json.dumps(jobs))
    proc = subprocess.run([UNO_PYTHON, str(ROOT / "tools" / "lo_uno.py")],
                          stdin=jobs_file.open(), capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_napkin_native_gives_the_limit_at_every_batch(tmp_path):
    want = _grid(tmp_path / "grid.xlsx")
    assert napkin(["native", str(tmp_path / "grid.xlsx"), "-o",
                   str(tmp_path / "native.xlsx")]) == 0
    with zipfile.ZipFile(tmp_path / "native.xlsx") as z:  # Excel's own functions only
        assert b"MOE_EXPERTS_READ" not in z.read("xl/worksheets/sheet1.xml")
    got = {f"{s}!{openpyxl.utils.get_column_letter(c)}{r}": v  # napkin's cached values
           for (s, r, c), v in cached_values(tmp_path / "native.xlsx").items()}
    for ref, value in want.items():
        assert got[ref] == pytest.approx(value, rel=1e-12, abs=1e-9), ref
    if not has_uno():
        pytest.skip("LibreOffice with Python UNO is not installed")
    [job] = _lo([{"path": str(tmp_path / "native.xlsx"), "edits": {}}], tmp_path)
    for ref, value in want.items():
        kind, v = job["cells"][ref]
        assert kind == "n", (ref, kind, v)  # no #NUM! in LibreOffice either
        assert v == pytest.approx(value, rel=1e-12, abs=1e-9), ref


def test_the_native_editions_headline_at_a_million_sequences(tmp_path):
    """The shipped native edition in LibreOffice, as a user types a wide expert-parallel
    batch: every RESULT_ name a number (or a sentence), none an error; and a Calibration
    measurement of an MoE model at that batch gets a floor."""
    if not has_uno():
        pytest.skip("LibreOffice with Python UNO is not installed")
    from workbook.scenario import RESULT_NAMES

    book = openpyxl.load_workbook(NATIVE, read_only=False)
    where = {n: "!".join(cell_of(book, n)) for n in [*RESULT_NAMES, "SCENARIO_MODEL",
                                                     "SCENARIO_BATCH"]}
    calibration = {"Calibration!A16": "Mixtral 8x7B", "Calibration!B16": "BF16",
                   "Calibration!C16": "NVIDIA H100 SXM", "Calibration!D16": 8,
                   "Calibration!E16": 1000000, "Calibration!F16": 2048,
                   "Calibration!G16": 500}
    jobs = [{"path": str(NATIVE), "edits": {where["SCENARIO_MODEL"]: model,
                                           where["SCENARIO_BATCH"]: 1000000, **calibration}}
            for model in ("Mixtral 8x7B", "DeepSeek-R1", "Qwen3.5 397B-A17B")]
    for model, job in zip(("Mixtral 8x7B", "DeepSeek-R1", "Qwen3.5 397B-A17B"),
                          _lo(jobs, tmp_path), strict=True):
        errors = {n: job["cells"].get(where[n]) for n in RESULT_NAMES
                  if job["cells"].get(where[n], ["n"])[0] == "e"}
        assert errors == {}, model
        assert job["cells"][where["RESULT_BATCH"]] == ["n", 1000000.0]
        kind, floor = job["cells"]["Calibration!K16"]
        assert kind == "n" and math.isfinite(floor) and floor > 0, (model, kind, floor)
