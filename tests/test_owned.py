"""Finance's owned case reads the scenario GPU's purchase price from the GPUs sheet
(GPU_PURCHASE_PRICE, from workbook/data/gpu_prices.csv), and the Assumptions' CAPEX where
the GPU has none, saying which in words; hand-checked on three GPUs after napkin calc."""

from __future__ import annotations

import csv

import pytest
from template_support import ROOT, variant

from udfs.inference import tables
from workbook.build import FINANCE, GPU_FIRST, SIZING

PRICES = ROOT / "workbook" / "data" / "gpu_prices.csv"
#: Assumptions' defaults (workbook/assumptions.py): 4 years' write-off, PUE 1.3, 0.12 per
#: kWh, CAPEX 30,000 (the fallback); 8,766 hours a year (365.25 × 24).
YEARS, PUE, KWH, CAPEX, YEAR_H = 4, 1.3, 0.12, 30000, 8766


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("owned")


def test_every_purchase_price_has_a_source_and_a_date_or_says_why_not():
    rows = list(csv.DictReader(PRICES.open(encoding="utf-8")))
    assert {r["name"] for r in rows} == set(tables.gpus())
    priced = 0
    for r in rows:
        if r["purchase_price_usd"]:
            price = float(r["purchase_price_usd"])
            assert 1000 < price < 100000, r["name"]  # a card or module, not a server
            assert "https://" in r["purchase_source"] and r["purchase_checked"], r["name"]
            assert r["purchase_basis"], r["name"]
            priced += 1
        else:  # empty: the reason, never an invented figure
            assert r["purchase_basis"].startswith("No "), r["name"]
            assert not r["purchase_source"] and not r["purchase_checked"], r["name"]
    # 13 at first; then B300 (Ornn, 53,000 a module), GB300 (Ornn's NVL72 rack / 72)
    # and MI355X (HSBC's 23,000 average selling price)
    assert priced == 16


def _owned_hourly(price: float, tdp_w: float) -> float:
    """OWNED_HOURLY_COST by hand: purchase ÷ (years × 8,766 h) + kW × PUE × kWh price."""
    return price / (YEARS * YEAR_H) + tdp_w / 1000 * PUE * KWH


@pytest.mark.parametrize("gpu, price, tdp, own", [
    # gpu_prices.csv: midpoint of awesomeagents.ai's 2026 street price, 25,000-30,000;
    # TDP 700 W (NVIDIA's H100 datasheet, udfs/data/gpus.csv)
    ("NVIDIA H100 SXM", 27500, 700, True),
    # gpu_prices.csv: midpoint of Citi's 10,000-15,000 average selling price (Feb 2024);
    # TDP 750 W (AMD's MI300X page, udfs/data/gpus.csv)
    ("AMD Instinct MI300X", 12500, 750, True),
    # no purchase price of the PCIe card in gpu_prices.csv: the Assumptions' CAPEX,
    # 30,000; TDP 350 W (NVIDIA's H100 PCIe product brief, udfs/data/gpus.csv)
    ("NVIDIA H100 PCIe", CAPEX, 350, False),
])
def test_the_owned_case_by_hand(tmp, gpu, price, tdp, own):
    v = variant(tmp, gpu.replace(" ", "-"), {"Sizing!" + SIZING["gpu"]: gpu})
    f, F = v["Finance"], FINANCE
    assert f[F["gpu"]] == gpu and f[F["tdp"]] == tdp
    assert f[F["purchase"]] == price
    says = f["D" + F["purchase"][1:]]
    if own:
        assert says.startswith("the GPUs sheet's, column P")
    else:
        assert says.startswith("none on the GPUs sheet (column P) for this GPU: CAPEX")
    hourly = _owned_hourly(price, tdp)
    assert f[f"C{F['hourly']}"] == pytest.approx(hourly)
    assert f[f"C{F['capex_part']}"] == pytest.approx(price / (YEARS * YEAR_H))
    assert f[f"C{F['energy_part']}"] == pytest.approx(tdp / 1000 * PUE * KWH)
    # the month owned: the purchase every calendar month (8,766 ÷ 12 h), energy for the
    # scenario's 730.5 hours served; ÷ the month's output tokens, 100 M a day × 730.5 ÷ 24
    gpus = f[F["gpus_total"]]
    month = gpus * (price / (YEARS * YEAR_H) * YEAR_H / 12 + tdp / 1000 * PUE * KWH * 730.5)
    assert f[f"C{F['monthly']}"] == pytest.approx(month)
    assert f[f"C{F['out_cost']}"] == pytest.approx(month / (100e6 * 730.5 / 24) * 1e6)


def test_a_purchase_price_typed_on_the_gpus_sheet_is_used(tmp):
    """A user's quote typed into the H100 PCIe's empty purchase-price cell (column P)
    replaces the fallback: 25,000 ÷ (4 × 8,766 h) + 0.35 kW × 1.3 × 0.12."""
    row = GPU_FIRST + list(tables.gpus()).index("NVIDIA H100 PCIe")
    v = variant(tmp, "typed", {"Sizing!" + SIZING["gpu"]: "NVIDIA H100 PCIe",
                               f"GPUs!P{row}": 25000})
    f, F = v["Finance"], FINANCE
    assert f[F["purchase"]] == 25000
    assert f[f"C{F['hourly']}"] == pytest.approx(_owned_hourly(25000, 350))
    assert f["D" + F["purchase"][1:]].startswith("the GPUs sheet's, column P")
