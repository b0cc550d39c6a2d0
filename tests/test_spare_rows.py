"""A user's rows in the Models and Calibration tables, typed into their empty (yellow)
rows as a user would, computed by ``napkin calc``: the columns that the template writes in
Excel's arithmetic (Models P, Calibration I, T, U, V) give what napkin's functions give
when called in Python, and a speculative measurement is judged by its tokens per step
(Calibration AC).

Model figures are the config.json values of Llama 3.1 8B (32 layers, hidden 4,096, 32
heads, 8 KV heads, head dim 128) and Mixtral 8x7B (the same attention, 8 routed experts,
2 per token, expert intermediate size 14,336; 46.7 B parameters, 12.9 B active). The
speculative measurement is NVIDIA's Llama 3.3 70B FP8 on one H200 with a draft model,
181.74 tokens/s at 3.55 tokens per step (tests/data/serving_measurements.csv,
nvidia-70b-h200-draft).
"""

from __future__ import annotations

import pytest
from template_support import MIXTRAL_EXPERT, variant

from udfs import CALIBRATE, KV_CACHE_GB, MOE_EXPERTS_READ, MS_PER_TOKEN, PLAUSIBLE
from udfs.inference import tables
from workbook.build import CAL_FIRST, MODEL_FIRST, SIZING
from workbook.calibration import CAL_EXAMPLES

MODEL_ROW = MODEL_FIRST + len(tables.models())  # the first empty row of Models
CAL_ROW = CAL_FIRST + len(CAL_EXAMPLES)  # the first empty row of Calibration
#: A..N of a Models row: name, parameters total and active (billions), layers, hidden,
#: heads, KV heads, head dim, intermediate, vocabulary, max context, experts, top-k,
#: expert intermediate size
DENSE = ("My 8B", 8.03, 8.03, 32, 4096, 32, 8, 128, 14336, 128256, 131072, None, None,
         None)
MOE = ("My Mixtral", 46.7, 12.9, 32, 4096, 32, 8, 128, 14336, 32000, 32768, 8, 2, 14336)
#: A..H and AC of a Calibration row: model, precision, GPU, GPUs, batch, context,
#: measured ms/token, tokens/s per user, tokens per step
MEASURED = {
    "dense": ("My 8B", "BF16", "NVIDIA H100 SXM", 1, 4, 4096, None, 50, None),
    "moe": ("My Mixtral", "BF16", "NVIDIA H100 SXM", 2, 2, 4096, 30, None, 1),
    # the speculative run: lengths not stated (KV left out: one token of context)
    "spec 1": ("Llama 3.3 70B", "FP8", "NVIDIA H200 SXM", 1, 1, 1, None, 181.74, 1),
    "spec 3.55": ("Llama 3.3 70B", "FP8", "NVIDIA H200 SXM", 1, 1, 1, None, 181.74, 3.55),
    "spec empty": ("Llama 3.3 70B", "FP8", "NVIDIA H200 SXM", 1, 1, 1, None, 181.74, None),
}
ROWS = {key: CAL_ROW + i for i, key in enumerate(MEASURED)}
BELOW = "below the floor: an assumption is wrong"


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    changes = {}
    for i, model in enumerate((DENSE, MOE)):
        for col, value in zip("ABCDEFGHIJKLMN", model, strict=True):
            changes[f"Models!{col}{MODEL_ROW + i}"] = value
    for key, row in MEASURED.items():
        for col, value in zip([*"ABCDEFGH", "AC"], row, strict=True):
            changes[f"Calibration!{col}{ROWS[key]}"] = value
    return variant(tmp_path_factory.mktemp("spare"), "spare", changes)


def test_a_users_models_get_their_kv_bytes_and_expert(filled):
    m = filled["Models"]
    # 2 (K and V) x 32 layers x 8 KV heads x 128 x 2 B (BF16) = 131,072 B per token
    assert KV_CACHE_GB(32, 8, 128, 1, "BF16", 1, "B") == 131072
    assert m[f"P{MODEL_ROW}"] == m[f"P{MODEL_ROW + 1}"] == 131072
    assert m[f"W{MODEL_ROW + 1}"] == pytest.approx(MIXTRAL_EXPERT)  # 32 x 3 x 4096 x 14336
    assert m[f"W{MODEL_ROW}"] == 0  # dense: no routed expert


def test_a_users_measurements_match_napkins_functions(filled):
    c = filled["Calibration"]
    kvp = filled["Sizing"][SIZING["kv_precision"]]
    dense, moe = ROWS["dense"], ROWS["moe"]
    assert c[f"W{dense}"] == c[f"W{moe}"] == "yes"
    assert c[f"I{dense}"] == MS_PER_TOKEN(50) == 20  # 1000 / 50 tokens/s
    assert c[f"I{moe}"] == 30
    # the KV cache of the batch: napkin's KV_CACHE_GB of the row's figures
    assert c[f"U{dense}"] == pytest.approx(KV_CACHE_GB(32, 8, 128, 4096, kvp, 4), rel=1e-12)
    assert c[f"U{moe}"] == pytest.approx(KV_CACHE_GB(32, 8, 128, 4096, kvp, 2), rel=1e-12)
    # weights read: the active parameters (a user's row), + one expert per further
    # distinct expert; Mixtral at batch 2 reads 8 x (1 - 0.75^2) = 3.5 experts a layer
    assert MOE_EXPERTS_READ(8, 2, 2) == pytest.approx(3.5)
    assert c[f"V{dense}"] == pytest.approx(8.03)
    assert c[f"V{moe}"] == pytest.approx(12.9 + MIXTRAL_EXPERT * (MOE_EXPERTS_READ(8, 2, 2)
                                                                  - 2), rel=1e-12)
    # the roof: BF16 (2 bytes a parameter, more than 1) x the GPUs, udfs/data/gpus.csv
    bf16 = float(tables.gpus()["NVIDIA H100 SXM"]["bf16_dense_TFLOPS"])
    assert c[f"T{dense}"] == pytest.approx(bf16)
    assert c[f"T{moe}"] == pytest.approx(2 * bf16)
    for r, measured in ((dense, 20), (moe, 30)):
        floor = c[f"K{r}"]
        assert 0 < floor < measured  # plausible: the measurements are slower than physics
        assert c[f"N{r}"] == pytest.approx(CALIBRATE(floor, measured)) == \
            pytest.approx(floor / measured)
        assert c[f"O{r}"] == PLAUSIBLE(floor, measured) == "plausible"


def test_a_speculative_measurement_is_judged_by_its_tokens_per_step(filled):
    c = filled["Calibration"]
    measured = 1000 / 181.74  # 5.502 ms a token
    floor = c[f"K{ROWS['spec 3.55']}"]
    # the step floor: 69.5 B weights read (70.6 B less the 128,256 x 8,192 input embedding,
    # config.json) x 1 B (FP8) / 4.8 TB/s (H200) = 14.49 ms, well over 5.502 ms (the KV
    # cache of one token, 0.16 MB at FP8, adds 0.00003 ms)
    assert floor == pytest.approx((70.6 - 128256 * 8192 / 1e9) / 4.8, rel=1e-4)
    assert c[f"K{ROWS['spec 1']}"] == c[f"K{ROWS['spec empty']}"] == floor
    # one token per step, or empty: faster than the floor, rejected
    for key in ("spec 1", "spec empty"):
        assert c[f"O{ROWS[key]}"] == PLAUSIBLE(floor, measured) == BELOW
        assert c[f"N{ROWS[key]}"] == pytest.approx(CALIBRATE(floor, measured))
        assert c[f"N{ROWS[key]}"] > 1
    # 3.55 tokens per step: the floor per token 14.49 / 3.55 = 4.08 ms < 5.502, accepted
    r = ROWS["spec 3.55"]
    assert c[f"O{r}"] == PLAUSIBLE(floor, measured, 3.55) == "plausible"
    assert c[f"N{r}"] == pytest.approx(floor / 3.55 / measured) == \
        pytest.approx(CALIBRATE(floor, measured, 3.55))
    assert c[f"Y{r}"] == c[f"N{r}"]  # counted (X left empty)
