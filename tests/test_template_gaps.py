"""The template computed for a GPU whose row lacks figures: Llama 3.1 8B on the NVIDIA A10G,
which the GPUs sheet gives memory and bandwidth but no tensor TFLOPS and no TDP (AWS
publishes none). Every sheet answers as Sizing does: the step floors from memory alone (a
floor that leaves a compute term out is still a floor), the first token "no FLOPS figure",
the energy "no TDP figure"; Plan and Frontier show Sizing's figures for the scenario."""

from __future__ import annotations

import json
import math
import shutil
import subprocess

import pytest
from openpyxl.utils import get_column_letter
from template_support import (
    CHART_GAPS,
    CONTEXT,
    KV_8B,
    READ_8B,
    ROOT,
    error_cells,
    regime_efficiency,
    sizing,
    variant,
)
from test_native_edition import EDITION, UNO_PYTHON, _has_uno

from workbook.build import KERNEL_FIRST, KERNELS, ROOF_FIRST, SIZING
from workbook.frontier import BATCHES, HIDDEN_FIRST, PARAMS, WIDE
from workbook.plan import PLAN
from workbook.scenario import LARGEST, PLAN_SCENARIO_ROW, RESULT_NAMES
from workbook.sheet import NO_FLOPS, NO_TDP
from workbook.sizing import NO_FIGURE

A10G = "NVIDIA A10G"
MODEL = "Llama 3.1 8B"
# The A10G's row of udfs/data/gpus.csv: 24 GB of GDDR6 at 600 GB/s (Baseten, "NVIDIA A10 vs
# A10G for ML model inference", https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-
# inference/); its tensor TFLOPS and TDP are empty
MEMORY_GB, BANDWIDTH_TBPS = 24, 0.6
# Llama 3.1 8B in the scenario's FP8 (1 byte a parameter): 8.03 GB of weights held
# (config.json: 8.03 B parameters); a step reads all but the input embedding table
WEIGHTS_GB = 8.03
KV_SEQ_GB = KV_8B * CONTEXT / 1e9  # 131,072 B a token × 2,300 tokens: 0.3015 GB a sequence
#: ... what a step reads of it, at the mean context (2,000 + 300 ÷ 2): 0.2818 GB
KV_STEP_GB = KV_8B * (2000 + 300 / 2) / 1e9
BATCH = 16  # the scenario's typed batch
#: The layers' time a realistic step adds to floor ÷ efficiency without Calibration's
#: measurements, ms: 32 layers (Llama 3.1 8B's config.json, num_hidden_layers) × 65.8 µs
#: (udfs/data/layer_time.csv)
LAYERS_MS = 32 * 65.8 / 1000
STEP_TARGET_MS = 1000 / 30  # the service level: 30 tokens/s per user
#: The sheets' columns of Frontier's three GPUs (B the scenario's A10G, C the H200, D the
#: B200) and their memory, by datasheet (gpus.csv: H200 SXM 141 GB, B200 HGX 180 GB)
FRONTIER_MEMORY = {0: MEMORY_GB, 1: 141, 2: 180}


@pytest.fixture(scope="module")
def a10g(tmp_path_factory) -> dict:
    """Llama 3.1 8B on the A10G, the rest of the scenario as it is (FP8 weights, BF16 KV
    cache, batch 16, 2,000 + 300 tokens, the smallest degree that fits)."""
    return variant(tmp_path_factory.mktemp("gaps"), "a10g",
                   {"Sizing!" + SIZING["model"]: MODEL, "Sizing!" + SIZING["gpu"]: A10G})


@pytest.fixture(scope="module")
def a10g_searched(tmp_path_factory) -> dict:
    """The same with the batch "largest that meets the service level" (Plan's search)."""
    return variant(tmp_path_factory.mktemp("gaps"), "a10g-searched",
                   {"Sizing!" + SIZING["model"]: MODEL, "Sizing!" + SIZING["gpu"]: A10G,
                    "Sizing!" + SIZING["batch_input"]: LARGEST})


def result(v: dict, name: str):
    """The value of a RESULT_ name (a cell of Sizing)."""
    return v["Sizing"][SIZING[RESULT_NAMES[name]]]


def max_batch(memory_gb: float) -> int:
    """MAX_BATCH by hand: whole sequences of KV cache in the memory the weights leave, one
    GPU, no reserve (Assumptions' default)."""
    return math.floor((memory_gb - WEIGHTS_GB) / KV_SEQ_GB)


def floor_ms(batch: int) -> float:
    """The memory-only step floor of one A10G at ``batch``, ms: the weights a step reads
    (FP8, 1 byte) and the batch's KV cache at the mean context ÷ 0.6 TB/s (GB ÷ TB/s =
    ms); no FLOPS figure, so the prompts' prefill (aggregated serving) adds no math."""
    return (READ_8B * 1 + KV_STEP_GB * batch) / BANDWIDTH_TBPS


def realistic_ms(batch: int) -> float:
    """The realistic step of one A10G at ``batch``, ms: the memory floor ÷ the regime's
    efficiency on one GPU + the layers' time."""
    return floor_ms(batch) / regime_efficiency(1, batch) + LAYERS_MS


def searched_batch() -> int:
    """The largest batch that fits and whose realistic step (``realistic_ms``) meets the
    per-user target."""
    return max(b for b in range(1, max_batch(MEMORY_GB) + 1)
               if realistic_ms(b) <= STEP_TARGET_MS)


def expected_errors() -> set[str]:
    """The error cells that are right to be errors: chart data (hidden columns), where a
    text value would plot as 0.

    Frontier, columns Z..AQ: a GPU's step, tokens/s per user and per GPU, and cost are #N/A
    at the batches past what its memory allows (the curve stops there).
    Roofline, columns K..P: the BF16, BF16 × efficiency and FP8 roof lines (L, M, N) have
    no peak to draw; the three ridge points (K and O of rows 13..15) have no ridge without
    a peak; the kernels' and the scenario's points (P) have no attainable FLOPS without a
    peak (plotted on the memory roof they would sit above the GPU's real roof)."""
    gaps = set()
    for j, memory in FRONTIER_MEMORY.items():
        cols = [_col(HIDDEN_FIRST + WIDE * j + k) for k in range(2, WIDE)]
        gaps |= {f"Frontier!{c}{_frontier_first() + i}" for i, b in enumerate(BATCHES)
                 if b > max_batch(memory) for c in cols}
    gaps |= {f"Roofline!{c}{r}" for c in "LMN" for r in range(ROOF_FIRST, ROOF_FIRST + 5)}
    gaps |= {f"Roofline!{c}{r}" for c in "KO" for r in range(ROOF_FIRST + 1, ROOF_FIRST + 4)}
    gaps |= {f"Roofline!P{r}" for r in range(KERNEL_FIRST, KERNEL_FIRST + len(KERNELS) + 2)}
    return gaps


def _col(n: int) -> str:
    return get_column_letter(n)


def _frontier_first() -> int:
    """Frontier's first batch row: the GPUs' figures from row 6 (the section at row 4, a
    note), a blank row, the header."""
    return 6 + PARAMS.index("price") + 3


def test_no_error_cell_but_the_chart_gaps(a10g):
    # Summary's chart, hidden columns Y and Z: the scenario's GPU and the others as two
    # series, #N/A where a bar belongs to the other (template_support.CHART_GAPS)
    errors = error_cells(a10g)
    summary = {e for e in errors if e.startswith("Summary!")}
    assert summary <= CHART_GAPS
    assert errors - summary == expected_errors()
    assert not {e for e in error_cells(a10g) if e.startswith("Plan!")}


def test_sizing_answers_with_the_memory_floor(a10g):
    """Sizing's step floor by hand: (7.505 GB of FP8 weights read + 16 × 0.2818 GB of KV
    cache at the mean context) ÷ 0.6 TB/s = 20.02 ms; no compute roof, no first token."""
    assert sizing(a10g, "roof_tflops") == NO_FIGURE
    assert result(a10g, "RESULT_FLOOR_STEP_MS") == pytest.approx(floor_ms(BATCH), rel=1e-9)
    assert floor_ms(BATCH) == pytest.approx((7.5047 + 4.5089) / 0.6, rel=1e-4)
    assert result(a10g, "RESULT_FIRST_TOKEN_MS") == NO_FLOPS
    assert sizing(a10g, "weight_gb") == pytest.approx(WEIGHTS_GB)
    # no interconnect figure (PCIe only): the note says so, the all-reduces are PCIe's
    assert "no interconnect figure" in a10g["Sizing"]["C" + SIZING["link"][1:]]
    assert sizing(a10g, "link_kind") == "PCIe"
    # the realistic step: the floor ÷ REGIME_EFFICIENCY of one GPU at batch 16 + the
    # layers' time, 2.1056 ms (no Calibration rows for the A10G)
    assert sizing(a10g, "layer_used") == pytest.approx(LAYERS_MS, rel=1e-12)
    assert result(a10g, "RESULT_STEP_MS") == pytest.approx(realistic_ms(BATCH), rel=1e-3)


def test_plan_shows_sizings_figures_and_words(a10g):
    v, K = a10g["Plan"], PLAN
    for key, name in (("tp", "RESULT_GPUS_PER_REPLICA"), ("batch", "RESULT_BATCH"),
                      ("step_ms", "RESULT_STEP_MS"),
                      ("tps_user", "RESULT_TOKENS_PER_SEC_PER_USER"),
                      ("ttft", "RESULT_FIRST_TOKEN_MS"), ("replicas", "RESULT_REPLICAS"),
                      ("gpus_total", "RESULT_GPUS"), ("monthly", "RESULT_MONTHLY_COST"),
                      ("cost_out_mtok", "RESULT_COST_PER_MTOK")):
        assert v[K[key]] == result(a10g, name), key
    assert v[K["roof_tflops"]] == NO_FIGURE and v[K["tdp"]] == NO_FIGURE
    assert v[K["ttft"]] == NO_FLOPS
    assert v[K["joules_token"]] == NO_TDP and v[K["energy_mtok"]] == NO_TDP
    assert v[K["weight_gb"]] == pytest.approx(WEIGHTS_GB)
    assert v[K["kv_seq_gb"]] == pytest.approx(KV_SEQ_GB)


def test_plan_searches_the_batch_on_the_memory_floor(a10g):
    """The scenario's row of the tensor-parallel table: the largest batch that fits and
    meets 30 tokens/s per user on the memory floor, 13: there the realistic step is 18.61
    ms ÷ 0.6001 (REGIME_EFFICIENCY of one GPU at 13: 0.742 + (0.409 − 0.742) × ln(13/8) ÷
    ln(25/8), 25 the smallest batch of throughput_one_gpu's rows) + 2.11 ms of layers' time
    (32 × 65.8 µs) = 33.12 ms, within 33.33; at 14, 19.08 ÷ 0.5785 + 2.11 = 35.10 ms, over.
    Its step by hand, the first token not known; the scenario's batch 16 misses the service
    level (39.22 ms: 25.5 tokens/s per user), and the status says the batch that meets it."""
    v, r = a10g["Plan"], PLAN_SCENARIO_ROW
    best = searched_batch()
    e13 = 0.742 + (0.409 - 0.742) * math.log(13 / 8) / math.log(25 / 8)
    e14 = 0.742 + (0.409 - 0.742) * math.log(14 / 8) / math.log(25 / 8)
    assert regime_efficiency(1, 13) == pytest.approx(e13)
    assert floor_ms(13) / e13 + LAYERS_MS <= STEP_TARGET_MS < floor_ms(14) / e14 + LAYERS_MS
    assert best == 13 and BATCH == 16
    assert v[f"B{r}"] == max_batch(MEMORY_GB)
    assert v[f"E{r}"] == best
    assert v[f"F{r}"] == pytest.approx(realistic_ms(best), rel=1e-3)
    assert v[f"F{r}"] <= STEP_TARGET_MS
    assert realistic_ms(best + 1) > STEP_TARGET_MS
    assert v[f"I{r}"] == NO_FLOPS
    assert "first token not known" in v[f"L{r}"]
    assert result(a10g, "RESULT_TOKENS_PER_SEC_PER_USER") == pytest.approx(
        1000 / realistic_ms(BATCH), rel=1e-3)
    assert result(a10g, "RESULT_TOKENS_PER_SEC_PER_USER") < 30
    assert v[PLAN["status"]].startswith(
        f"misses the service level at TP 1 and batch {BATCH}: the largest batch that meets "
        f"it is {best}.")
    for row in range(r - 4, r + 1):  # every degree: a step, a batch, no first token
        assert isinstance(v[f"F{row}"], float) and v[f"I{row}"] == NO_FLOPS


def test_the_searched_batch_is_sizings(a10g_searched):
    """With the batch "largest that meets the service level", Sizing takes Plan's batch and
    its realistic step is the scenario row's."""
    v, r = a10g_searched, PLAN_SCENARIO_ROW
    assert result(v, "RESULT_BATCH") == searched_batch() == v["Plan"][f"E{r}"]
    assert v["Plan"][f"F{r}"] == pytest.approx(result(v, "RESULT_STEP_MS"), rel=1e-12)
    assert v["Plan"][PLAN["status"]].startswith("meets the service level")
    assert "first token is not known" in v["Plan"][PLAN["status"]]


def test_frontier_passes_through_sizings_point(a10g):
    """Frontier's scenario point is Sizing's; the A10G's curve at batch 16 is it too, and
    its hidden floor there is the memory floor by hand."""
    v, first = a10g["Frontier"], _frontier_first()
    point = first + len(BATCHES)
    assert v[f"A{point}"] == "Scenario, at utilization"
    per_gpu = result(a10g, "RESULT_TOKENS_PER_SEC_PER_REPLICA") / result(
        a10g, "RESULT_GPUS_PER_REPLICA")
    assert v[f"B{point}"] == result(a10g, "RESULT_TOKENS_PER_SEC_PER_USER")
    assert v[f"C{point}"] == pytest.approx(per_gpu, rel=1e-12)
    at = first + BATCHES.index(BATCH)
    assert v[f"B{at}"] == pytest.approx(result(a10g, "RESULT_TOKENS_PER_SEC_PER_USER"),
                                        rel=1e-12)
    assert v[f"{_col(HIDDEN_FIRST + 1)}{at}"] == pytest.approx(floor_ms(BATCH), rel=1e-9)
    assert v[f"B{4 + 2 + PARAMS.index('roof')}"] == NO_FIGURE
    assert v[f"B{4 + 2 + PARAMS.index('max_batch')}"] == max_batch(MEMORY_GB)


def test_roofline_times_the_decode_step_from_memory(a10g):
    """The scenario's decode step on Roofline reads the 7.505 GB of FP8 weights a step
    reads: its time floor without a FLOPS figure is 7.505 GB ÷ 0.6 TB/s = 12.51 ms; the
    prefill's time, the attainable FLOPS and the side of the ridge say "no FLOPS figure"."""
    v = a10g["Roofline"]
    decode = KERNEL_FIRST + len(KERNELS)
    assert v[f"A{decode}"] == "the scenario's decode step"
    assert v[f"G{decode}"] == pytest.approx(READ_8B / BANDWIDTH_TBPS * 1000, rel=1e-9)  # µs
    assert v[f"G{decode + 1}"] == NO_FLOPS
    for col in "FH":
        assert v[f"{col}{decode}"] == NO_FLOPS and v[f"{col}{decode + 1}"] == NO_FLOPS
    assert "memory roof only" in v[f"I{decode}"]
    assert v[f"B{ROOF_FIRST}"] == NO_FIGURE


@pytest.mark.skipif(not _has_uno(), reason="LibreOffice with Python UNO not found")
def test_the_native_edition_answers_alike_in_libreoffice(tmp_path, a10g):
    """The native edition, the same scenario typed in LibreOffice: no error on Plan, and
    Plan's, Sizing's, Roofline's decode step and Frontier's scenario point as napkin calc
    computes them on the template."""
    book = tmp_path / "napkin-native.xlsx"
    shutil.copyfile(EDITION, book)
    jobs = [{"path": str(book), "edits": {"Sizing!" + SIZING["model"]: MODEL,
                                          "Sizing!" + SIZING["gpu"]: A10G}}]
    proc = subprocess.run([UNO_PYTHON, str(ROOT / "tools" / "lo_uno.py")],
                          input=json.dumps(jobs), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout)[0]["cells"]
    assert not [k for k, (kind, _) in got.items() if kind == "e" and k.startswith("Plan!")]
    r = PLAN_SCENARIO_ROW
    cells = [f"Plan!{c}{row}" for c in "BEFGH" for row in range(r - 4, r + 1)] + [
        f"Plan!{PLAN[k]}" for k in ("status", "compare", "ttft", "joules_token")] + [
        f"Sizing!{SIZING[RESULT_NAMES[n]]}" for n in RESULT_NAMES] + [
        f"Roofline!G{KERNEL_FIRST + len(KERNELS) + i}" for i in (0, 1)] + [
        f"Frontier!{c}{_frontier_first() + len(BATCHES)}" for c in "BCD"]
    for ref in cells:
        sheet, cell = ref.split("!")
        want = a10g[sheet][cell]
        if isinstance(want, str):
            assert got[ref] == ["s", want], ref
        else:
            assert got[ref][0] == "n" and got[ref][1] == pytest.approx(want, rel=1e-9), ref
