"""What the template tests (``test_template*.py``) share: the template built as
``napkin template`` writes it, computed by ``napkin calc`` as a user runs it, and read back.
The fixtures are session-scoped, so each workbook is built and computed once for all the
files; ``tests/conftest.py`` makes them visible to every test."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from addin.routes.embed import write_template
from udfs.inference import regimes
from workbook.build import (
    CAL_FIRST,
    SIZING,
    build_template,
)

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "workbook" / "napkin.xlsx"
SHEETS = ["Start", "Summary", "Sizing", "Cost", "Frontier", "Finance", "Plan", "Calibration",
          "Roofline", "Speedup", "Assumptions", "GPUs", "Models", "xlwings.conf"]
ERRORS = ("#N/A", "#VALUE!", "#NUM!", "#DIV/0!", "#REF!", "#NAME?", "#NULL!", "#CALC!",
          "#SPILL!")

# Excel 2010 functions the native formulas may use (besides napkin's own)
NATIVE = {"IF", "INDEX", "MATCH", "ISNUMBER", "ISNA", "ISERROR", "NA", "AND", "OR", "NOT",
          "MAX", "MIN", "ABS", "CEILING", "COUNT", "COUNTIF", "COUNTIFS", "AVERAGE",
          "AVERAGEIF", "ROUND", "COUNTA", "SMALL", "MID",
          "LN",  # (Calibration's experts read: the power guarded where it underflows)
          # (GPUS_FOR_DEMAND's native form on Plan and Cost: ROUND to 12 significant
          # digits, 11 − INT(LOG10(x)) places, before CEILING, as udfs.machinery.xp.round_sig)
          "INT", "LOG10",
          "ROWS",  # (the tables' names: INDEX(span,2):INDEX(span,ROWS(span)-1))
          # (Finance's range asks whether the headline says "no layout": LEFT of text only)
          "ISTEXT", "LEFT"}
#: Chart data that is #N/A on purpose, in the hidden columns K..P of Roofline: a line the
#: chosen GPU has no figure for is left out of the chart (a text value would plot as 0). The
#: visible table says so in words.
#: On Frontier, the frontier's data (hidden columns Z..AQ): #N/A past the largest batch memory
#: allows, where a curve stops.
CHART_GAPS = {f"Roofline!{c}{r}" for c in "LMNO" for r in range(12, 17)} | {
    f"Roofline!K{r}" for r in range(13, 16)} | {f"Roofline!P{r}" for r in range(21, 29)} | {
    f"Frontier!{c}{r}" for c in ("Z", *(f"A{x}" for x in "ABCDEFGHIJKLMNOPQ"))
    for r in range(1, 300)} | {
    # On Summary, the chart's two series (hidden columns Y, Z): #N/A where a bar belongs to
    # the other series (workbook.summary.BARS)
    f"Summary!{c}{r}" for c in "YZ" for r in range(5, 20)}



def napkin_calc(src: Path, dst: Path) -> None:
    """Run ``napkin calc SRC -o DST`` as a user would."""
    proc = subprocess.run([sys.executable, "-m", "addin.cli", "calc", str(src), "-o", str(dst)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr


def engine_calc(src: Path, dst: Path) -> None:
    """What ``napkin calc SRC -o DST`` computes and writes, in this process: the engine
    called as the CLI calls it (``addin.cli.commands.run_calc``: strict, nothing kept, or
    the CLI's exit status would be 4, not 0), without a Python started and the engine
    imported for each workbook. ``napkin_calc`` runs the command itself (the ``computed``
    fixture, tests/test_cli.py)."""
    from addin.engine.api import calc_workbook

    kept: list = []
    calc_workbook(src, dst, strict=True, notes=[], kept=kept)
    assert not kept, kept


_BUILT: dict[bool, bytes] = {}


def build_copy(path: Path, native: bool = False) -> Path:
    """``build_template(path, native)``: the template built once a process and copied.
    Every build is the same workbook (``tools.regenerate --check`` holds the committed one
    to it) but for ``dcterms:modified``, the moment openpyxl saved it."""
    if native not in _BUILT:
        first = build_template(path, native=native)
        _BUILT[native] = first.read_bytes()
        return first
    path.write_bytes(_BUILT[native])
    return path


def values(path: Path) -> dict[str, dict[str, object]]:
    """Cached values of a computed workbook: {sheet: {cell: value}}. Read in openpyxl's
    read-only mode (the same values as a full load, in half the time: no styles)."""
    wb = openpyxl.load_workbook(path, data_only=True, read_only=True)
    try:
        return {ws.title: {c.coordinate: c.value for row in ws.iter_rows() for c in row
                           if c.value is not None} for ws in wb}
    finally:
        wb.close()


def models_range() -> list[list]:
    """The committed template's Models table as a range of values, as a user selects the
    whole table: its header row (row 5) and every row with a name, columns A..AB (through
    "Per-layer embeddings, looked up", its last column); the computed
    cells as Excel last saved them, read without saving the workbook."""
    from workbook.models import MODEL_FIRST

    wb = openpyxl.load_workbook(COMMITTED, data_only=True, read_only=True)
    rows = [list(r) for r in wb["Models"].iter_rows(min_row=MODEL_FIRST - 1, max_col=28,
                                                   values_only=True)]
    wb.close()
    return [r for i, r in enumerate(rows) if r[0] is not None or i == 0]


_OPENED: dict[str, openpyxl.Workbook] = {}


def save_edited(src: Path, changes: dict[str, object]) -> None:
    """Write to ``src`` the built template (``build_copy``'s) with ``changes`` typed in
    ({"Sheet!A1": value}), as openpyxl loading it, typing them and saving would: the
    template is read by openpyxl once a process, and after each save the cells typed get
    back what they held (a cell the template did not have is removed again), so the next
    copy starts from the built template."""
    wb = _OPENED.get("template")
    if wb is None:
        wb = _OPENED["template"] = openpyxl.load_workbook(src)
    before = {}
    for ref, value in changes.items():
        sheet, cell = ref.split("!")
        ws = wb[sheet]
        key = openpyxl.utils.cell.coordinate_to_tuple(cell)
        before.setdefault(ref, (ws, key, ws._cells[key].value if key in ws._cells else None,
                                key in ws._cells))
        ws[cell] = value
    try:
        wb.save(src)
    finally:
        for ws, key, value, had in before.values():
            if had:
                ws._cells[key].value = value
            else:
                del ws._cells[key]


def variant(tmp: Path, name: str, changes: dict[str, object]) -> dict:
    """Build the template, change some input cells, compute it (``engine_calc``); the
    cached values."""
    src = build_copy(tmp / f"{name}.xlsx")
    if changes:
        save_edited(src, changes)
    dst = tmp / f"{name}-calc.xlsx"
    engine_calc(src, dst)
    return values(dst)



def run_dir(tmp_path_factory) -> Path:
    """A folder every process of this run sees: with pytest-xdist the parent of the
    workers' base temporary folders (the controller's, new each run), else this process's
    own base temporary folder."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once(path: Path, make) -> Path:
    """``path``, made by ``make(path)`` by the first process of the run that asks for it;
    the others wait for it (a lock file beside it) and read the same file. ``make`` writes
    beside it and the file is renamed into place, so a failed ``make`` leaves nothing for
    the next to read. Without ``fcntl`` (Windows) each process makes its own."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on CI's Linux
        fcntl = None
    if fcntl is None:
        path = path.with_name(f"{path.stem}-{os.getpid()}{path.suffix}")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            part = path.with_name(f"part-{path.name}")
            make(part)
            part.replace(path)
    return path


def shared_variant(tmp_path_factory, name: str, changes: dict[str, object]) -> dict:
    """``variant`` of a session fixture, computed once for the run (``once``: the first
    worker of pytest-xdist to ask computes it, the others read its values)."""
    import pickle

    shared = run_dir(tmp_path_factory) / "shared"

    def make(dst: Path) -> None:
        dst.write_bytes(pickle.dumps(variant(shared, name, changes)))
    return pickle.loads(once(shared / f"{name}.pickle", make).read_bytes())


@pytest.fixture(scope="session")
def template_dir(tmp_path_factory):
    """A folder shared by the template fixtures of every test file."""
    return tmp_path_factory.mktemp("template")


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """The template as `napkin template` writes it: built, computed, with the Lite code.
    Written once for the run (``once``): every worker of pytest-xdist reads the same file."""
    return once(run_dir(tmp_path_factory) / "shared" / "napkin.xlsx", write_template)


@pytest.fixture(scope="session")
def computed(tmp_path_factory, built) -> Path:
    """``built`` computed by ``napkin calc`` (once for the run, as ``built``)."""
    return once(run_dir(tmp_path_factory) / "shared" / "napkin-calc.xlsx",
                lambda dst: napkin_calc(built, dst))


@pytest.fixture(scope="session")
def printed(tmp_path_factory):
    """LibreOffice's PDF of a workbook as a user prints it: ``printed(path)``, a path of
    the repository's. One ``soffice --convert-to pdf`` a workbook for the run (``once``:
    tests/test_print.py and tests/test_summary.py print the same committed files), not one
    a test: the same file gives the same PDF."""
    def pdf(path: Path) -> Path:
        def make(dst: Path) -> None:
            out = dst.parent / f"lo-{dst.stem}"
            subprocess.run(["soffice", f"-env:UserInstallation=file://{out}/profile",
                            "--headless", "--convert-to", "pdf", "--outdir", str(out),
                            str(path)], check=True, capture_output=True, timeout=600)
            (out / f"{path.stem}.pdf").replace(dst)
        return once(run_dir(tmp_path_factory) / "printed" / f"{path.stem}.pdf", make)
    return pdf


@pytest.fixture(scope="session")
def default(computed) -> dict:
    return values(computed)


@pytest.fixture(scope="session")
def llama8b_bf16(tmp_path_factory) -> dict:
    """Llama 3.1 8B in BF16 on the H100, roof efficiency 1 (the datasheet)."""
    return shared_variant(tmp_path_factory, "llama8b",
                          {"Sizing!" + SIZING["model"]: "Llama 3.1 8B",
                           "Sizing!" + SIZING["precision"]: "BF16", "Assumptions!B5": 1})


@pytest.fixture(scope="session")
def llama70b_bf16(tmp_path_factory) -> dict:
    return shared_variant(tmp_path_factory, "llama70b",
                          {"Sizing!" + SIZING["precision"]: "BF16"})



def sizing(vals: dict, key: str):
    return vals["Sizing"][SIZING[key]]



@pytest.fixture(scope="session")
def book(built):
    """The built template as openpyxl reads it (formulas, not values)."""
    return openpyxl.load_workbook(built)


def formulas(book):
    for ws in book:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    yield ws.title, c


def error_cells(v: dict) -> set[str]:
    return {f"{s}!{c}" for s, cells in v.items() for c, x in cells.items()
            if isinstance(x, str) and x in ERRORS}


# Hand calculations the sheets are checked against


def deployed(n: int) -> int:
    """GPUs per replica as deployed: tensor parallel 1, 2, 4, 8, then whole 8-GPU nodes."""
    return next(d for d in (1, 2, 4, 8) if n <= d) if n <= 8 else 8 * math.ceil(n / 8)


def floor_ms(params_b, bytes_per_param, kv_gb, bw_tbps, batch, roof_tflops, gpus=1,
             share=0.0, prompt=0.0):
    """The Sizing step floor by hand (DECODE_STEP_MS, the JAX scaling book's inference
    chapter), in ms: max(KV ÷ bandwidth, attention FLOPs ÷ roof) + max(weights' FLOPs ÷
    roof, weights read ÷ bandwidth) + the all-reduces, over the GPUs (datasheet peaks).
    ``kv_gb`` the KV cache the step reads (its context: the mean one on Sizing, the
    typed one on Calibration); ``share`` the prompt tokens a step carries a sequence
    (aggregated serving: prompt ÷ output on Sizing, 0 on Calibration), each attending to
    ``prompt`` ÷ 2 tokens: the matmuls and the all-reduces carry batch × (1 + share)
    tokens (``workbook.model.serving``)."""
    layers, hidden = SHAPE[params_b]  # attention dim = heads × head dim = hidden here
    context = kv_gb * 1e9 / (KV[params_b] * batch)
    tokens = batch * (1 + share)
    # QKᵀ and AV: each decoded token over the context, each prompt token over half the prompt
    attention = 4 * layers * hidden * (context + share * prompt / 2) * batch
    kv = max(kv_gb / (bw_tbps * gpus), attention / (roof_tflops * 1e12 * gpus) * 1e3)
    weights = max(2 * params_b * 1e9 * tokens / (roof_tflops * 1e12 * gpus) * 1e3,
                  READ[params_b] * bytes_per_param / (bw_tbps * gpus))  # GB ÷ TB/s = ms
    return kv + weights + comm_ms(layers, hidden, tokens, gpus)


def comm_ms(layers, hidden, batch, gpus, link_gbps=450, hop_us=0.6):
    """The all-reduces of a step, ms: 2 a layer, each NCCL's 6.6 µs a call + 2(g − 1) ring
    steps × ``hop_us`` (0.6 over NVLink, 1.0 over PCIe: src/graph/tuning.cc) + the
    bandwidth term 2(g − 1)/g × batch × hidden × 2 B ÷ the link one way (``link_gbps``:
    H100/H200, 900 GB/s in + out, 450)."""
    if gpus == 1:
        return 0.0
    per = 6.6 + 2 * (gpus - 1) * hop_us + 2 * (gpus - 1) / gpus * batch * hidden * 2 / (
        link_gbps * 1e9) * 1e6
    return 2 * layers * per / 1e3


KV_8B = 2 * 32 * 8 * 128 * 2  # bytes per token, BF16: 131,072
# Weights a decode step reads, billions: all but the input embedding table (config.json:
# vocab 128,256; hidden 4,096 for 8B, 8,192 for 70B; embeddings not tied)
READ_8B = 8.03 - 128256 * 4096 / 1e9  # 7.5047
READ_70B = 70.6 - 128256 * 8192 / 1e9  # 69.5493
READ = {8.03: READ_8B, 70.6: READ_70B}
KV_70B = 2 * 80 * 8 * 128 * 2  # 327,680
KV = {8.03: KV_8B, 70.6: KV_70B}
#: (layers, hidden) from config.json; heads × head dim = hidden (32 × 128, 64 × 128)
SHAPE = {8.03: (32, 4096), 70.6: (80, 8192)}
# The example rows: (params B, bytes/param, KV bytes/token, context, batch, bandwidth TB/s,
# roof TFLOPS, GPUs, measured ms)
CAL_CASES = [
    (8.03, 2, KV_8B, 2048, 1, 3.35, 989.4, 1, 6.5),  # 8B BF16, H100
    (70.6, 1, KV_70B, 8192, 16, 3.35, 1978.9, 2, 24),  # 70B FP8, 2 × H100 (the Sizing case)
    (8.03, 1, KV_8B, 4096, 32, 4.8, 1978.9, 1, 1000 / 120),  # 8B FP8, H200, 120 tokens/s
    (70.6, 1, KV_70B, 8192, 1, 3.35, 1978.9, 1, 15),  # below its floor: flagged
]


#: REGIME_EFFICIENCY's anchors (udfs/data/efficiency.csv; each the geometric mean of its
#: published measurements' floor ÷ (measured − their layers' time), docs/measurements.md):
#: small_batch up to batch 8 on up to 4 GPUs, tp8_small_batch on 8, throughput_one_gpu
#: from batch 56 on one GPU, throughput_tp from batch 16 on 2 or more. They are data, made
#: from the measurement set by tests/serving_floor.py and checked against it by
#: test_serving_measurements.py; the template's tests check the sheets' arithmetic given
#: them, so they read them from the file (a new measurement moves them).
_ANCHORS = {k: float(r["efficiency"]) for k, r in regimes.table().items()}
SMALL, TP8_SMALL, ONE_GPU, TP = (_ANCHORS[k] for k in (
    "small_batch", "tp8_small_batch", "throughput_one_gpu", "throughput_tp"))
MOE = _ANCHORS["moe_expert_parallel"]
#: The per-layer time (udfs/data/layer_time.csv, µs) and the layers' time per token of
#: Llama 3.1 70B's 80 layers (config.json), ms: what the realistic step adds to floor ÷
#: efficiency without Calibration's measurements (LAYER_OVERHEAD_MS)
LAYER_US = regimes.layer_time_us()
LAYERS_70B_MS = 80 * LAYER_US / 1000
#: The largest batch of the small-batch rows; the smallest of the throughput rows on one
#: GPU and on 2 or more (udfs/data/efficiency.csv, batch_high and batch_low): data too
_RANGES = regimes.table()
SMALL_END, ONE_GPU_START, TP_START = (float(_RANGES[k][c]) for k, c in (
    ("small_batch", "batch_high"), ("throughput_one_gpu", "batch_low"),
    ("throughput_tp", "batch_low")))


def log_between(x, x0, x1, y0, y1):
    """y0 at x ≤ x0, y1 at x ≥ x1, linear in ln x between (docs/math.md, REGIME_EFFICIENCY)."""
    t = min(1.0, max(0.0, math.log(x / x0) / math.log(x1 / x0)))
    return y0 * (1 - t) + y1 * t


def regime_efficiency(gpus: int, batch: float) -> float:
    """REGIME_EFFICIENCY of a dense model by docs/math.md's rule, from the anchors above:
    from the small-batch efficiency (small_batch to 4 GPUs, tp8_small_batch from 8) at
    batch 8 to the throughput efficiency (one GPU's from batch 56, tensor parallel's from
    16), linear in ln(GPUs) and ln(batch)."""
    small = log_between(gpus, 4, 8, SMALL, TP8_SMALL)
    large, start = (ONE_GPU, ONE_GPU_START) if gpus == 1 else (TP, TP_START)
    return log_between(batch, SMALL_END, start, small, large)


def calibrated_efficiency() -> float:
    """The efficiency the scenario uses by default: the example rows are not counted, so it
    is REGIME_EFFICIENCY of 2 GPUs at 16 sequences: batch 16 is the smallest of
    throughput_tp's rows, so its anchor, 0.541 (with the layers' time, LAYERS_70B_MS)."""
    return TP


def examples_efficiency() -> float:
    """Average of floor ÷ measured over the example rows at or above their floor (what the
    efficiency is once the user keeps the examples)."""
    effs = []
    for params, bpp, kv, ctx, batch, bw, roof, n, measured in CAL_CASES:
        f = floor_ms(params, bpp, kv * ctx * batch / 1e9, bw, batch, roof, n)
        if measured >= f:
            effs.append(f / measured)
    assert len(effs) == 3
    return sum(effs) / len(effs)


# The scenario's defaults: a sequence holds its prompt and its output (2,000 + 300 tokens)
CONTEXT = 2000 + 300
#: ... and a decode step reads it at the mean context, 2,000 + 300 ÷ 2 (memory holds the
#: full one); prefill shares the GPUs (aggregated serving, the default): each step carries
#: 2,000 ÷ 300 prompt tokens a sequence (``workbook.model.serving``)
MEAN_CONTEXT, SHARE, PROMPT = 2000 + 300 / 2, 2000 / 300, 2000
#: The all-reduces of a step on 2 H100 at batch 16 (TP_COMM_MS: 2 per layer × 80 layers ×
#: (NCCL's 6.6 µs a call + 2 ring steps × 0.6 µs over NVLink, src/graph/tuning.cc, + 2 ×
#: 1/2 × 16 × (1 + 2,000 ÷ 300) tokens × 8,192 × 2 B ÷ 450 GB/s one way)), ms
COMM_70B = comm_ms(80, 8192, 16 * (1 + SHARE), 2)
#: The Sizing step floor, ms: the KV cache at the mean context and the weights read at 2 ×
#: 3.35 TB/s (above the attention's and the weights' math of 16 × (1 + 2,000 ÷ 300) tokens
#: at 2 × 1,978.9 TFLOPS), + the all-reduces: floor_ms with the share, 14.0255 ms
STEP = (READ_70B + KV_70B * MEAN_CONTEXT * 16 / 1e9) / (3.35 * 2) + COMM_70B
#: The floor of the same deployment as a Calibration row sees it (batch 16, 2,300 tokens
#: typed as its context, no prefill: a measured decode step), ms: 13.5215
CAL_STEP = floor_ms(70.6, 1, KV_70B * CONTEXT * 16 / 1e9, 3.35, 16, 1978.9, 2)
PRICE, GPUS, BATCH = 2.95, 2, 16
TOKENS_PER_DAY, PEAK, HOURS = 100e6, 2, 8766 / 12  # the scenario's traffic and month


def unit_cost(price, eff, util, fixed=LAYERS_70B_MS):
    """Cost per million output tokens of one replica: COST_PER_MTOK at STEP ÷ eff + fixed
    (the layers' time; 0 with an efficiency from Calibration's measurements)."""
    tps = 1000 / (STEP / eff + fixed) * BATCH  # tokens/s of the replica
    return price * GPUS / (tps * 3600 * util) * 1e6


def headline(price, eff, util, fixed=LAYERS_70B_MS):
    """The headline, cost per million output tokens: the month's bill for the GPUs sized for
    the peak (replicas = ⌈peak tokens/s ÷ (tokens/s per replica × utilization)⌉, each of
    GPUS) ÷ the month's output tokens, at STEP ÷ eff + fixed (the layers' time; 0 with an
    efficiency from Calibration's measurements)."""
    tps = 1000 / (STEP / eff + fixed) * BATCH  # tokens/s of a replica
    replicas = math.ceil(TOKENS_PER_DAY / 86400 * PEAK / (tps * util))
    return replicas * GPUS * price * HOURS / (TOKENS_PER_DAY * HOURS / 24) * 1e6


# Mixtral 8x7B (config.json: 32 layers, all MoE, 8 experts, 2 per token, hidden 4096,
# intermediate 14336, vocab 32000, untied; counted from it: 46.7028B total, 12.8799B
# active, which the card rounds to 46.7B and 12.9B)
MIXTRAL_EXPERT = 32 * 3 * 4096 * 14336 / 1e9  # one expert over the 32 layers: 5.637 B
MIXTRAL_READ_1 = 12.8799 - 32000 * 4096 / 1e9  # batch 1: the active weights, no embedding


@pytest.fixture(scope="session")
def moe(tmp_path_factory) -> dict:
    """DeepSeek-V3 in FP8 on H200s on Sizing, expert parallel (typed "yes": at batch 16
    "auto" finds tensor parallel faster; ``test_scenario_step`` tests that choice); on
    Calibration, DeepSeek-V3 as on Sizing, then Mixtral 8x7B in BF16 on one H100 at batch 1
    and on two at batch 256 (2,048 tokens)."""
    r = CAL_FIRST + len(CAL_CASES)
    changes = {"Sizing!" + SIZING["model"]: "DeepSeek-V3", "Sizing!" + SIZING["precision"]: "FP8",
               "Sizing!" + SIZING["gpu"]: "NVIDIA H200 SXM",
               "Sizing!" + SIZING["ep_input"]: "yes"}
    rows = [("DeepSeek-V3", "FP8", "NVIDIA H200 SXM", 8, 16, CONTEXT),
            ("Mixtral 8x7B", "BF16", "NVIDIA H100 SXM", 1, 1, 2048),
            ("Mixtral 8x7B", "BF16", "NVIDIA H100 SXM", 2, 256, 2048)]
    for i, row in enumerate(rows):
        for col, x in zip("ABCDEF", row, strict=True):
            changes[f"Calibration!{col}{r + i}"] = x
    return shared_variant(tmp_path_factory, "moe", changes)
