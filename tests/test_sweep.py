"""A sample of the template's model × GPU × precision sweep, computed in one workbook (CI
time; the full sweep is ``python tests/template_sweep.py``). The sample holds every
precision of the table, mixture-of-experts models (with MLA, with sliding windows), GPUs
the vendors publish no BF16/FP8 figure for, and every GPU and every model at least once.
No error value on Sizing, Cost and Finance, and numbers where the data has the figures."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
from template_sweep import compute, errors, sweep_workbook

from udfs.inference import tables
from workbook.build import FINANCE, SIZING
from workbook.sheet import read_csv

ROOT = Path(__file__).resolve().parents[1]
PRECISIONS = [r["name"] for r in read_csv("udfs", "precisions.csv")]
MOE = ("DeepSeek-V3", "Kimi K2", "Qwen3 30B-A3B", "gpt-oss-120b", "Llama 4 Maverick")


def sample() -> list[tuple[str, str, str]]:
    """Every GPU with an MoE model (DeepSeek-V3, MLA) in FP8; every model on the A10G (no
    BF16, FP8 or TDP figure), the precisions taken in turn; every precision with an MoE
    model on the H100 and on the T4 (no BF16/FP8 figure, 16 GB)."""
    gpus, models = list(tables.gpus()), list(tables.models())
    cases = [("DeepSeek-V3", "FP8", g) for g in gpus]
    cases += [(m, PRECISIONS[i % len(PRECISIONS)], "NVIDIA A10G")
              for i, m in enumerate(models)]
    moe = [m for m in MOE if m in models]
    cases += [(moe[i % len(moe)], p, g) for i, p in enumerate(PRECISIONS)
              for g in ("NVIDIA H100 SXM", "NVIDIA T4")]
    return list(dict.fromkeys(cases))


def test_sample_covers_what_it_should():
    cases = sample()
    assert {p for _, p, _ in cases} == set(PRECISIONS)
    assert {g for _, _, g in cases} == set(tables.gpus())
    assert {m for m, _, _ in cases} == set(tables.models())
    moe = {m for m, row in tables.models().items()
           if row["active_params_B"] != row["total_params_B"]}
    assert len({m for m, _, _ in cases} & moe) >= 5
    no_roof = {g for g, row in tables.gpus().items()
               if not row["bf16_dense_TFLOPS"].strip()}
    assert {"NVIDIA A10G", "NVIDIA T4"} <= no_roof


def test_sweep_sample_of_models_gpus_and_precisions(tmp_path):
    cases = sample()
    costs = {("DeepSeek-V3", "FP8"), ("Kimi K2", "NVFP4"), ("Gemma 2 9B", "FP32")}
    a10g = [(m, p) for m, p, g in cases if g == "NVIDIA A10G"]
    costs |= set(a10g[:len(PRECISIONS)])  # Cost for every GPU: each precision once
    costs = {c for c in costs if c in {(m, p) for m, p, _ in cases}}
    src, dst = tmp_path / "sweep.xlsx", tmp_path / "sweep-calc.xlsx"
    names = sweep_workbook(src, cases, costs=costs)
    compute(src, dst)
    assert errors(dst, names) == {}
    wb = openpyxl.load_workbook(dst, data_only=True)
    gpus = tables.gpus()
    prices = {r["name"] for r in csv.DictReader(open(ROOT / "workbook" / "data" /
                                                     "gpu_prices.csv"))
              if r["price_per_gpu_hour_usd"].strip()}
    for (model, prec, gpu), (s, f, _c) in names.items():
        for key in ("weight_gb", "kv_gb", "gpus", "step_ms", "tps_total", "real_tps_user"):
            v = wb[s][SIZING[key]].value
            assert isinstance(v, int | float), (model, prec, gpu, key, v)
        head = wb[s][SIZING["real_cost_mtok"]].value
        assert isinstance(head, int | float) == (gpu in prices), (model, prec, gpu, head)
        flops = (gpus[gpu]["bf16_dense_TFLOPS"] or gpus[gpu]["fp8_dense_TFLOPS"]).strip()
        prefill = wb[f][FINANCE["prefill_ms"]].value
        assert isinstance(prefill, int | float) == bool(flops), (model, prec, gpu, prefill)
    assert sum(c is not None for _, _, c in names.values()) >= len(costs)
