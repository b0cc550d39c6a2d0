"""Four users (finance, ops, a manager, an engineer) walking the native edition in
LibreOffice (``tools/lo_uno.py``: each edit typed into a cell as a user does, LibreOffice's
own recalculation), each answer checked by hand:

- ops: ten times the load (1,000 M output tokens a day) gives ten times the replicas,
  rounded up, and their bill;
- a manager changes one assumption: the utilization planned (60 % → 80 %), and the
  Assumptions' figure that only Calibration shows (its label says so, and no answer moves);
- finance: the monthly budget and the break-even against the API, and the sentence that
  says whether the fleet can serve that volume, pointing at the capacity row;
- an engineer's measurement on Calibration at the scenario's own point: Sizing's realistic
  step is the time measured (the new model and GPU rows: tests/test_insert_rows.py).

The scenario's realistic step by hand: Sizing's floor STEP ÷ the throughput_tp anchor +
80 layers × the per-layer time (tests/template_support.py, from the datasheets and
udfs/data), 35.04 ms.
"""

from __future__ import annotations

import json
import math
import subprocess

import pytest
from scenario_support import has_uno
from template_support import KV_70B, LAYERS_70B_MS, MEAN_CONTEXT, ROOT, STEP, TP, floor_ms

from workbook.assumptions import FINANCE_ASSUMPTIONS
from workbook.build import CAL_FIRST, SIZING
from workbook.finance import FINANCE

NATIVE = ROOT / "workbook" / "napkin-native.xlsx"
UNO_PYTHON = "/usr/bin/python3"
pytestmark = pytest.mark.skipif(not has_uno(), reason="LibreOffice with Python UNO not found")

S = {key: f"Sizing!{cell}" for key, cell in SIZING.items()}
F = {key: f"Finance!{cell}" for key, cell in FINANCE.items() if isinstance(cell, str)}
EFF_DEFAULT_ROW = FINANCE_ASSUMPTIONS["EFF_DEFAULT"][0]
CAPEX_ROW = FINANCE_ASSUMPTIONS["CAPEX"][0]
#: a measurement of the scenario's own deployment: Llama 3.1 70B FP8 on 2 H100 SXM, batch
#: 16, at the mean context a decode step reads (2,000 + 300 ÷ 2), 30 ms a token
MEASURED = ("Llama 3.1 70B", "FP8", "NVIDIA H100 SXM", 2, 16, MEAN_CONTEXT, 30)
#: the first empty measurement row (the four example rows above it)
CAL_ROW = CAL_FIRST + 4
JOBS = {
    "default": {},
    "ops": {S["tokens_day"]: 1e9},
    "manager": {S["utilization"]: 0.8},
    "eff_default": {f"Assumptions!B{EFF_DEFAULT_ROW}": 0.5},
    "capex": {f"Assumptions!B{CAPEX_ROW}": 50000},
    "measured": {**{f"Calibration!{c}{CAL_ROW}": v for c, v in zip("ABCDEFG", MEASURED,
                                                                     strict=True)},
                 S["serving_input"]: "disaggregated"},
}


@pytest.fixture(scope="module")
def walked():
    jobs = [{"path": str(NATIVE), "edits": edits} for edits in JOBS.values()]
    proc = subprocess.run([UNO_PYTHON, str(ROOT / "tools" / "lo_uno.py")],
                          input=json.dumps(jobs), capture_output=True, text=True,
                          timeout=900, check=True)
    out = json.loads(proc.stdout)
    return {name: {ref: value for ref, (_, value) in job["cells"].items()}
            for name, job in zip(JOBS, out, strict=True)}


def _fleet(tokens_day: float, utilization: float) -> tuple[int, float]:
    """GPUs and the monthly bill by hand: replicas = ⌈tokens/day ÷ 86,400 × peak 2 ÷
    (a replica's 16 ÷ step tokens/s × utilization)⌉, 2 GPUs each, × 2.95 an hour ×
    730.5 hours (8,766 ÷ 12)."""
    tps = 16 * 1000 / (STEP / TP + LAYERS_70B_MS)  # 456.6 tokens/s a replica
    replicas = math.ceil(tokens_day / 86400 * 2 / (tps * utilization))
    return 2 * replicas, 2 * replicas * 2.95 * 8766 / 12


def test_ops_ten_times_the_load(walked):
    gpus, monthly = _fleet(1e9, 0.6)
    assert (gpus, round(monthly, 2)) == (170, 366345.75)  # 85 replicas
    v = walked["ops"]
    assert v[S["gpus_total"]] == gpus and v[S["monthly"]] == pytest.approx(monthly)
    # the month's output tokens: 1,000 M ÷ 24 × 730.5 h = 30,437.5 M
    assert v[S["headline"]] == pytest.approx(monthly / 30437.5)
    assert v["Summary!B24"] == gpus  # the one-page summary follows


def test_a_manager_changes_one_assumption(walked):
    gpus, monthly = _fleet(1e8, 0.8)
    assert (gpus, round(monthly, 2)) == (14, 30169.65)  # 7 replicas, was 9
    v = walked["manager"]
    assert v[S["gpus_total"]] == gpus and v[S["monthly"]] == pytest.approx(monthly)
    # the Assumptions' figure only Calibration shows: its label says so, no answer moves
    d, e = walked["default"], walked["eff_default"]
    assert d[f"Assumptions!A{EFF_DEFAULT_ROW}"] == "Shown when Calibration is empty"
    assert e["Calibration!B5"] == 0.5
    for key in ("gpus_total", "monthly", "headline", "real_step_ms"):
        assert e[S[key]] == d[S[key]], key
    # the Assumptions' purchase price is for a GPU without its own (GPUs sheet, column P):
    # the H100 has one, 27,500, so the owned hour stays 27,500 ÷ (4 years × 8,766 h) +
    # 0.7 kW × PUE 1.3 × 0.12 a kWh = 0.8935
    c = walked["capex"]
    assert d[f"Assumptions!A{CAPEX_ROW}"] == "Purchase price if the GPU has none (USD)"
    assert c[f"Finance!C{FINANCE['purchase'][1:]}"] == 27500
    owned = f"Finance!C{FINANCE['hourly']}"
    assert c[owned] == d[owned] == pytest.approx(27500 / (4 * 8766) + 0.7 * 1.3 * 0.12)


def test_finance_budget_and_break_even(walked):
    v = walked["default"]
    gpus, monthly = _fleet(1e8, 0.6)
    assert (gpus, round(monthly, 2)) == (18, 38789.55)
    assert v[f"Finance!B{FINANCE['monthly']}"] == pytest.approx(monthly)
    # the API's price of an output token with its prompt: 0.40 + 2,000 ÷ 300 × 0.13
    # (Assumptions' API prices), 1.2667 a million
    api = 0.40 + 2000 / 300 * 0.13
    assert v[F["api_price"]] == pytest.approx(api)
    breakeven = monthly / api  # aggregated serving: no prefill cost of its own
    assert v[f"Finance!B{FINANCE['breakeven']}"] == pytest.approx(breakeven)  # 30,623 M
    # what 9 replicas serve a month at 60 %: 9 × 456.6 × 0.6 × 730.5 h × 3,600 s
    tps = 16 * 1000 / (STEP / TP + LAYERS_70B_MS)
    capacity = 9 * tps * 0.6 * 8766 / 12 * 3600 / 1e6
    assert v[F["capacity"]] == pytest.approx(capacity)  # 6,484 M
    assert breakeven > capacity
    # the sentence points at that row's figure (it printed 6484 M beside "6,484 M")
    within = v[f"Finance!B{FINANCE['within']}"]
    assert within == ("no: more than this fleet can serve a month (What this fleet can "
                      "serve, above), so the API stays cheaper")
    assert v[f"Finance!B{FINANCE['cheaper']}"] == "the API"


def test_a_measurement_at_the_scenarios_point_is_what_sizing_shows(walked):
    """Typed in LibreOffice: the measured 30 ms is Sizing's realistic step (disaggregated:
    Sizing's step is the measured decode step, floor by hand 13.40 ms), its ratio 30 ÷
    (13.40 ÷ 0.471 + 5.264 = 33.72 ms) = 0.890; the efficiency used 0.471 ÷ it."""
    v = walked["measured"]
    floor = floor_ms(70.6, 1, KV_70B * MEAN_CONTEXT * 16 / 1e9, 3.35, 16, 1978.9, 2)
    ratio = 30 / (floor / TP + LAYERS_70B_MS)
    assert v[f"Calibration!O{CAL_ROW}"] == "plausible"
    assert v[f"Calibration!AG{CAL_ROW}"] == pytest.approx(ratio)
    assert v[S["cal_ratio"]] == pytest.approx(ratio)
    assert v[S["calibrated"]] == pytest.approx(TP / ratio)
    assert v[S["real_step_ms"]] == pytest.approx(30)


def test_the_headlines_notes_have_room_for_their_text(walked):
    """Each note of Sizing's answer block (a text a formula builds: numbers and names in
    it) fits the height of its row: LibreOffice's text at 10 pt, about 0.8 width unit a
    character (workbook.paper.CHAR_WIDTH, 0.9 at 11 pt: prose in DejaVu Sans), wrapped in
    the note's merged cell, 13.5 pt a line. The range note of the cost per million tokens
    was cut at its third line (its row sized for its literals alone)."""
    import openpyxl

    from workbook.paper import CHAR_WIDTH, width

    ws = openpyxl.load_workbook(NATIVE)["Sizing"]
    merged = {m.min_row: m for m in ws.merged_cells.ranges if m.min_col == 3}
    checked = 0
    for key in ("gpus_total", "replicas", "monthly", "headline", "real_tps_user",
                "real_step_ms"):
        r = int(SIZING[key][1:])
        text = walked["default"][f"Sizing!C{r}"]
        last = merged[r].max_col if r in merged else 3
        room = sum(width(ws, c) for c in range(3, last + 1))
        lines = math.ceil(len(text) * CHAR_WIDTH * 10 / 11 / room)
        assert (ws.row_dimensions[r].height or 15) >= lines * 13.5, (key, text, lines)
        checked += lines > 2
    assert checked >= 2
