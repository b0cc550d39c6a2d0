"""The GPU and model tables against their sources: the figures the vendor pages print, the
fixes of figures that were wrong, and the bookkeeping every row owes (a source, a price or
the reason there is none)."""

import csv
from pathlib import Path

import pytest
from pytest import approx

from udfs import GPU_SPEC
from udfs.inference import tables
from udfs.machinery.errors import ExcelError

ROOT = Path(__file__).resolve().parents[1]
FLOPS = ("bf16_dense_TFLOPS", "fp16_dense_TFLOPS", "fp8_dense_TFLOPS", "int8_dense_TOPS",
         "fp4_dense_TFLOPS")


# --- figures as the vendors print them -------------------------------------------------------

@pytest.mark.parametrize(("gpu", "field", "value"), [
    # cloud.google.com/tpu/docs/v5p (2026 revision) and Compute Engine's TPU machines page:
    # "HBM capacity per chip (GiB) 95" = 95 x 2^30 B = 102.0 GB; "2765 GBps"
    ("TPU v5p", "memory_GB", round(95 * 2**30 / 1e9, 1)),
    ("TPU v5p", "memory_bandwidth_TBps", 2.765),
    ("TPU v5p", "bf16_dense_TFLOPS", 459),
    # cloud.google.com/tpu/docs/v6e: 918 TFLOPs BF16, 1836 TOPs Int8, 1638 GBps; memory
    # 32 GiB (Compute Engine's TPU machines page, "HBM capacity per chip (GiB)") = 34.4 GB
    ("v6e", "memory_bandwidth_TBps", 1.638), ("v6e", "bf16_dense_TFLOPS", 918),
    ("v6e", "int8_dense_TOPS", 1836), ("v6e", "memory_GB", round(32 * 2**30 / 1e9, 1)),
    # cloud.google.com/tpu/docs/v5e: 197 TFLOPs BF16, 393 TOPs Int8, 16 GB, 819 GBps
    ("v5e", "memory_bandwidth_TBps", 0.819), ("v5e", "int8_dense_TOPS", 393),
    # cloud.google.com/tpu/docs/tpu7x: BF16 2307, FP8 4614 TFLOPs; 192 GiB = 206.2 GB
    ("TPU v7", "bf16_dense_TFLOPS", 2307), ("TPU v7", "fp8_dense_TFLOPS", 4614),
    ("TPU v7", "memory_GB", round(192 * 2**30 / 1e9, 1)),
    # NVIDIA H20 brief: FP8 296 TFLOPS dense (the table had 294), BF16 148, 400 W
    ("H20", "fp8_dense_TFLOPS", 296), ("H20", "bf16_dense_TFLOPS", 148), ("H20", "tdp_W", 400),
    # H100 datasheet, NVL column: 1,671 BF16 and 3,341 FP8 TFLOPS with sparsity -> half dense
    ("H100 NVL", "bf16_dense_TFLOPS", 1671 / 2), ("H100 NVL", "fp8_dense_TFLOPS", 3341 / 2),
    # AMD MI325X page: 1307.4 BF16 and 2614.9 FP8 TFLOPS dense, 1000 W
    ("MI325X", "fp8_dense_TFLOPS", 2614.9), ("MI325X", "tdp_W", 1000),
    # AMD MI355X page: 2.5 PF BF16, 5.0 PF FP8, 10 PF MXFP4 dense (2516.6 x 1, 2, 4)
    ("MI355X", "bf16_dense_TFLOPS", 2516.6), ("MI355X", "fp8_dense_TFLOPS", 2 * 2516.6),
    ("MI355X", "fp4_dense_TFLOPS", 4 * 2516.6),
    # AWS Neuron docs, Trainium2: 1,299 FP8 and 667 BF16 TFLOPS dense, 96 GiB, 2.9 TB/s
    ("Trainium2", "fp8_dense_TFLOPS", 1299), ("Trainium2", "bf16_dense_TFLOPS", 667),
    ("Trainium2", "memory_GB", round(96 * 2**30 / 1e9, 1)),
    ("Trainium2", "memory_bandwidth_TBps", 2.9),
    # L40 datasheet: BF16 181.05 | 362.1* TFLOPS, FP8 362 | 724*, 864 GB/s, 300 W
    ("L40", "bf16_dense_TFLOPS", 362.1 / 2), ("L40", "fp8_dense_TFLOPS", 362),
    ("L40", "tdp_W", 300),
    # A10 datasheet: BF16 125 | 250* TFLOPS, 600 GB/s, 150 W; T4: 65 FP16, 130 INT8, 70 W
    ("A10", "bf16_dense_TFLOPS", 125), ("A10", "tdp_W", 150),
    ("T4", "fp16_dense_TFLOPS", 65), ("T4", "int8_dense_TOPS", 130), ("T4", "tdp_W", 70),
    # V100 datasheet (SXM2): 125 tensor TFLOPS, 900 GB/s, 300 W
    ("V100", "fp16_dense_TFLOPS", 125), ("V100", "memory_bandwidth_TBps", 0.9),
    # Ada whitepaper, RTX 4090: 1,008 GB/s, FP16/BF16 with FP32 accumulate 165.2 dense
    ("RTX 4090", "memory_bandwidth_TBps", 1.008), ("RTX 4090", "bf16_dense_TFLOPS", 165.2),
    # RTX 5090: 32 GB GDDR7, 1,792 GB/s, 575 W; RTX PRO 6000: 96 GB, 1,792 GB/s
    ("RTX 5090", "memory_GB", 32), ("RTX 5090", "tdp_W", 575),
    ("RTX PRO 6000", "memory_GB", 96), ("RTX PRO 6000", "memory_bandwidth_TBps", 1.792),
    # GB300 NVL72 table / 72: FP4 1,080 PF dense -> 15 PF; 576 TB/s -> 8 TB/s
    ("GB300", "fp4_dense_TFLOPS", 1080e3 / 72), ("GB300", "memory_bandwidth_TBps", 576 / 72),
    # HGX B300 table / 8: FP4 108 PF dense -> 13.5 PF per GPU
    ("B300", "fp4_dense_TFLOPS", 108e3 / 8),
    # H800: the H100 SXM's compute and memory, NVLink 400 GB/s
    ("H800", "bf16_dense_TFLOPS", 989.4), ("H800", "interconnect_GBps", 400),
    # GB200: the Blackwell GPU at 1,200 W (its 2.5 PF BF16 configuration); HGX B300 1,100 W
    ("GB200", "tdp_W", 1200), ("B300", "tdp_W", 1100),
    # AMD product pages: 7 Infinity Fabric links of 128 GB/s (MI300X, MI325X), 153 GB/s
    # (MI350X, MI355X)
    ("MI300X", "interconnect_GBps", 7 * 128), ("MI325X", "interconnect_GBps", 7 * 128),
    ("MI355X", "interconnect_GBps", 7 * 153), ("MI350X", "interconnect_GBps", 7 * 153),
    # MI350X: the MI355X die at 2.2 GHz instead of 2.4 (Hot Chips 2025), 1000 W, 288 GB, 8 TB/s
    ("MI350X", "bf16_dense_TFLOPS", 2516.6 * 2.2 / 2.4),
    ("MI350X", "fp8_dense_TFLOPS", 2 * 2516.6 * 2.2 / 2.4),
    ("MI350X", "fp4_dense_TFLOPS", 4 * 2516.6 * 2.2 / 2.4), ("MI350X", "tdp_W", 1000),
    ("MI350X", "memory_GB", 288), ("MI350X", "memory_bandwidth_TBps", 8.0),
    # Google's TPU pages: bidirectional ICI per chip 400 (v5e), 1200 (v5p), 800 (v6e);
    # Ironwood 1.5 × Trillium
    ("v5e", "interconnect_GBps", 400), ("TPU v5p", "interconnect_GBps", 1200),
    ("v6e", "interconnect_GBps", 800), ("TPU v7", "interconnect_GBps", 1.5 * 800),
    # AWS Neuron docs: Trainium3 2,517 MXFP8 and 671 BF16 TFLOPS, 144 GiB at 4.9 TB/s,
    # NeuronLink-v4 2.56 TB/s; Trainium2 NeuronLink-v3 1.28 TB/s
    ("Trainium3", "fp8_dense_TFLOPS", 2517), ("Trainium3", "bf16_dense_TFLOPS", 671),
    ("Trainium3", "memory_GB", round(144 * 2**30 / 1e9, 1)),
    ("Trainium3", "memory_bandwidth_TBps", 4.9), ("Trainium3", "interconnect_GBps", 2560),
    ("Trainium2", "interconnect_GBps", 1280),
])
def test_vendor_figures(gpu, field, value):
    assert GPU_SPEC(gpu, field) == approx(value, rel=1e-4)


@pytest.mark.parametrize(("gpu", "field"), [
    ("T4", "bf16"), ("T4", "fp8"), ("V100", "bf16"),  # no BF16 before Ampere, no FP8
    ("A10", "fp8"),                                      # no FP8 on Ampere
    ("A10G", "bf16"),                                    # no NVIDIA datasheet for the A10G
    ("RTX PRO 6000", "bf16"),                            # only sparse FP4 'AI TOPS' printed
])
def test_unpublished_figures_stay_empty(gpu, field):
    r = GPU_SPEC(gpu, field)
    assert isinstance(r, ExcelError) and r.code == "#N/A"


def test_where_sources_disagree_the_notes_say_which_was_chosen():
    b200 = tables.gpus()["NVIDIA B200 (HGX)"]
    assert "CONFLICT" in b200["notes"] and "8.0 chosen" in b200["notes"]
    b300 = tables.gpus()["NVIDIA B300 (HGX)"]
    assert "CONFLICT" in b300["notes"] and "13.5 chosen" in b300["notes"]
    # B300 bandwidth: 8 TB/s (NVIDIA's HGX table) against 7.7-7.75 elsewhere
    assert "7.75" in b300["notes"] and "8.0 chosen" in b300["notes"]
    # TPU v5e: 819 GB/s against 800 GiB/s; v7: 7.37 against 7.2 TB/s
    assert "819" in tables.gpus()["Google TPU v5e"]["notes"]
    v7 = tables.gpus()["Google TPU v7 (Ironwood, TPU7x)"]["notes"]
    assert "7.37" in v7 and "7.2 TB/s" in v7


# --- bookkeeping every row owes ------------------------------------------------------------

def test_every_row_cites_a_source():
    for table in (tables.gpus(), tables.models()):
        for name, row in table.items():
            assert row["source_url"].strip(), name
            assert "shared" not in row["source_url"], name


@pytest.mark.parametrize(("gpu", "gpus"), [
    # each the platform's datasheet or product page (the row's scaleup_domain_source):
    # NVIDIA HGX H100/H200/B200 8-GPU boards (NVSwitch), DGX A100 (8 GPUs, 6 NVSwitches),
    # GB200/GB300 NVL72 (72 GPUs one NVLink domain), the H100 PCIe and NVL bridged in
    # pairs, AMD's MI300X Platform (8 GPUs, Infinity Fabric), Google's v5e pod (256 chips)
    ("H100 SXM", 8), ("H200", 8), ("B200", 8), ("A100 80GB", 8), ("GB200", 72),
    ("GB300", 72), ("H100 PCIe", 2), ("H100 NVL", 2), ("MI300X", 8), ("TPU v5e", 256),
    ("L40S", 1), ("RTX 4090", 1),
])
def test_scaleup_domains_as_the_platforms_state_them(gpu, gpus):
    assert GPU_SPEC(gpu, "domain") == gpus


def test_every_gpu_has_a_scaleup_domain_and_its_source():
    # a whole number of GPUs, 1 exactly where the GPU has no scale-up link (PCIe cards)
    for name, row in tables.gpus().items():
        domain = float(row["scaleup_domain_gpus"])
        assert domain == int(domain) >= 1, name
        assert (domain == 1) == (row["interconnect_GBps"] == ""), name
        assert len(row["scaleup_domain_source"]) > 20, name


def test_dense_figures_are_consistent():
    for name, g in tables.gpus().items():
        assert float(g["memory_GB"]) > 0 and float(g["memory_bandwidth_TBps"]) > 0, name
        f = {k: float(g[k]) for k in FLOPS if g[k]}
        assert all(v > 0 for v in f.values()), name
        # lower precision never runs slower than BF16 on the same tensor cores
        if "fp8_dense_TFLOPS" in f and "bf16_dense_TFLOPS" in f:
            assert f["fp8_dense_TFLOPS"] >= f["bf16_dense_TFLOPS"], name
        if "fp4_dense_TFLOPS" in f and "fp8_dense_TFLOPS" in f:
            assert f["fp4_dense_TFLOPS"] >= f["fp8_dense_TFLOPS"], name


def test_every_gpu_has_a_price_or_says_why_not():
    prices = {r["name"]: r for r in csv.DictReader(
        open(ROOT / "workbook" / "data" / "gpu_prices.csv", encoding="utf-8"))}
    assert set(prices) == set(tables.gpus())
    for name, p in prices.items():
        if p["price_per_gpu_hour_usd"]:
            assert 0 < float(p["price_per_gpu_hour_usd"]) < 100, name
            assert p["source"].startswith("https://") and p["checked"], name
        else:
            assert p["basis"].startswith("No "), name  # the reason there is none


@pytest.mark.parametrize("gpu", ["RTX 4090", "RTX 5090", "RTX PRO 6000", "L40", "A10", "T4",
                                 "V100", "H800", "GB300", "Trainium2", "TPU v7", "MI350X",
                                 "Trainium3"])
def test_todays_accelerators_are_present(gpu):
    assert isinstance(GPU_SPEC(gpu, "memory_GB"), float)


# --- prices against their sources (workbook/data/gpu_prices.csv) ---------------------------

def _prices() -> dict:
    with open(ROOT / "workbook" / "data" / "gpu_prices.csv", encoding="utf-8") as f:
        return {r["name"]: r for r in csv.DictReader(f)}


@pytest.mark.parametrize(("gpu", "column", "value"), [
    # Oracle's price list, 'OCI - Compute - GPU - GB300', GPU Per Hour: 18.00
    ("NVIDIA GB300 (per GPU)", "price_per_gpu_hour_usd", 18.00),
    # TensorWave on demand (computeprices.com, 2026-05-12): 2.95 per GPU-hour
    ("AMD Instinct MI355X", "price_per_gpu_hour_usd", 2.95),
    # EC2 Capacity Blocks: trn2.48xlarge 35.7608 an hour for 16 Trainium2 chips
    ("AWS Trainium2", "price_per_gpu_hour_usd", 35.7608 / 16),
    # Ornn's 2026 on-demand neocloud range for one B300, 5.00-7.25: the midpoint
    ("NVIDIA B300 (HGX)", "price_per_gpu_hour_usd", (5.00 + 7.25) / 2),
    # Spheron, 17 March 2026: 9.08 per GB200 Superchip-hour, two B200 GPUs a Superchip
    ("NVIDIA GB200 (per GPU)", "price_per_gpu_hour_usd", 9.08 / 2),
    # Ornn: a GB300 NVL72 rack 3.7-5.0 million, midpoint, / 72 GPUs
    ("NVIDIA GB300 (per GPU)", "purchase_price_usd", (3.7e6 + 5.0e6) / 2 / 72),
    # Ornn: B300 modules 'reportedly commanding around $53,000 per chip'
    ("NVIDIA B300 (HGX)", "purchase_price_usd", 53000),
    # HSBC (Frank Lee): MI355 average selling price 23,000 (lowered from 25,000)
    ("AMD Instinct MI355X", "purchase_price_usd", 23000),
])
def test_prices_as_their_sources_state_them(gpu, column, value):
    # the table rounds to the cent (a dollar for purchase prices): within half of it
    assert float(_prices()[gpu][column]) == approx(value, abs=0.5 if value > 1000 else 0.005)


@pytest.mark.parametrize(("gpu", "why"), [
    ("NVIDIA H20", "export part for China"), ("NVIDIA H800 SXM", "export part for China"),
    ("AMD Instinct MI350X", "No public on-demand per-GPU price"),
    ("Intel Gaudi 3", "quotes Gaudi 3 on request"),
    ("Google TPU v7 (Ironwood, TPU7x)", "reservations"),
    ("AWS Trainium3", "Capacity Blocks"),
])
def test_unpriced_gpus_say_why(gpu, why):
    p = _prices()[gpu]
    assert p["price_per_gpu_hour_usd"] == "" and why in p["basis"]


def test_the_gpus_sheet_states_the_memory_unit():
    from workbook.gpus import GPU_COLUMNS
    [header] = [h for key, h, _, _ in GPU_COLUMNS if key == "memory_GB"]
    assert "GB" in header and "10⁹ bytes" in header


@pytest.mark.parametrize(("gpu", "gb", "gib"), [
    # AWS's tables print "GPU memory (GiB) 24" for the A10G (and 80 for the H100, which
    # NVIDIA states in GB); the A10's datasheet: 24 GB. 24 GiB = 24 x 1.073741824 = 25.8 GB
    ("NVIDIA A10G", 24, 24),
    # Google's v5e page: "HBM2 16 GB" in every revision read; 16 GiB would be 17.2 GB
    ("Google TPU v5e", 16, 16),
])
def test_where_the_unit_is_in_doubt_the_lower_reading_is_kept(gpu, gb, gib):
    row = tables.gpus()[gpu]
    assert float(row["memory_GB"]) == gb < round(gib * 2**30 / 1e9, 1)
    assert "GiB" in row["notes"] and str(round(gib * 2**30 / 1e9, 1)) in row["notes"]
