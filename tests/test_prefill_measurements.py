"""Published first-token (TTFT) measurements against napkin's prefill floor.

The set (``tests/data/prefill_measurements.csv``, columns in ``tests/data/README.md``)
holds time-to-first-token figures at concurrency 1, read from their sources. For each row
the floor (``prefill_floor.floor``: PREFILL_MS at the datasheet peak × GPUs, efficiency 1,
plus the all-reduces of the prompt) is below the figure; floor ÷ measured is the prefill
efficiency the deployment reached. Two floors are computed by hand below. The anchor the
set would give (their geometric mean) is judged leave-one-source-out, and the figures
``docs/measurements.md`` shows ("First token") are checked to be the module's.
"""

import math
import re

import prefill_floor as pf
import pytest

ROWS = pf.rows()


def test_the_rows_are_low_concurrency_figures_from_their_sources():
    everything = pf.all_rows()
    assert len({r["id"] for r in everything}) == len(everything)
    for r in everything:
        assert re.match(r"https://", r["source_url"]), r["id"]
        assert r["source_date"] and r["software"] and r["notes"], r["id"]
        assert 1 <= float(r["concurrency"]) <= 4, r["id"]  # queueing does not dominate
        assert float(r["ttft_ms"]) > 0, r["id"]
        # a model outside napkin's table carries its own config figures
        if r["model"] not in pf.tables.models():
            assert all(r[k] for k in ("params_B", "layers", "attn_dim", "hidden")), r["id"]


def test_every_floor_of_the_set_is_below_its_measurement():
    for r in ROWS:
        f = pf.floor(r)
        assert 0 < f.total_ms < f.measured_ms, r["id"]


def test_the_row_that_leaves_is_the_one_faster_than_its_floor():
    # NIM's Safety Guard 8B (a Llama 3.1 8B) page prints 15.65 ms for a 1,000-token prompt
    # in BF16 on a GH200: 2 x 8.03e9 x 1000 = 1.606e13 FLOP at 989.4 TFLOPS alone take
    # 16.23 ms, so the row cannot be what the page states; the file keeps it with the reason
    written = {r["id"]: r["left_out"] for r in pf.all_rows() if r["left_out"]}
    assert written == pf.contradicted() == {
        "nim-safetyguard8b-gh200-in1000": "its figure is faster than its floor"}
    assert 2 * 8.03e9 * 1000 / 989.4e12 * 1e3 == pytest.approx(16.23, abs=0.01)


def test_floor_by_hand_llama2_7b_on_one_h100():
    # TensorRT-LLM v0.5 'Low Latency' table, H100 FP8, LLaMA 7B, batch 1, TP1, 2,048 input
    # tokens: 36 ms. Llama-2-7b-hf config: 6,738,415,616 parameters, 32 layers, 32 heads
    # of 128 (4,096). H100 SXM FP8 dense peak 1,978.9 TFLOPS (udfs/data/gpus.csv).
    # weights: 2 x 6.738415616e9 x 2048 = 2.760055e13 FLOP
    # attention: 2 x 32 x 4096 x 2048^2 = 1.099512e12 FLOP
    # (2.760055e13 + 1.099512e12) / 1.9789e15 = 14.5030 ms; one GPU, no all-reduce
    row = next(r for r in ROWS if r["id"] == "trtllm05-llama2-7b-h100-tp1-in2048")
    f = pf.floor(row)
    assert f.compute_ms == pytest.approx(14.5030, rel=1e-4)
    assert f.comm_ms == 0
    assert f.efficiency == pytest.approx(14.5030 / 36, rel=1e-4)  # 0.4029


def test_floor_by_hand_llama33_70b_on_two_h100():
    # NIM 1.8.0, Llama 3.3 70B FP8 TP2 on 2 x H100, 500 input tokens, concurrency 1:
    # 47.77 ms. Model table: 70.6e9 active parameters, 80 layers, 64 heads of 128
    # (8,192), hidden 8,192.
    # compute: (2 x 70.6e9 x 500 + 2 x 80 x 8192 x 500^2) / (2 x 1978.9e12)
    #        = (7.06e13 + 3.2768e11) / 3.9578e15 = 17.9210 ms
    # all-reduces: 500 x 8192 x 2 B = 8.192e6 B, x 2(p-1)/p = 1 at p = 2, over
    # 900 / 2 = 450 GB/s = 18.204 us; + NCCL's NVLink latencies 6.6 + 2 x 1 x 0.6 = 7.8 us;
    # two a layer over 80 layers: 160 x 26.004 us = 4.1607 ms
    row = next(r for r in ROWS if r["id"] == "nim-70b-h100-tp2-in500")
    f = pf.floor(row)
    assert f.compute_ms == pytest.approx(17.9210, rel=1e-4)
    assert f.comm_ms == pytest.approx(4.1607, rel=1e-4)
    assert f.efficiency == pytest.approx((17.9210 + 4.1607) / 47.77, rel=1e-4)  # 0.4623


def test_the_anchor_is_the_geometric_mean_and_is_judged_out_of_sample():
    effs = [pf.floor(r).efficiency for r in ROWS]
    assert pf.anchor() == pytest.approx(math.exp(sum(map(math.log, effs)) / len(effs)))
    out = pf.leave_one_source_out()
    assert set(out) == {r["id"] for r in ROWS}
    # a source's rows are predicted from the others' anchor alone
    for source in {r["source"] for r in ROWS}:
        others = [r for r in ROWS if r["source"] != source]
        r = next(r for r in ROWS if r["source"] == source)
        assert out[r["id"]] == pytest.approx(
            pf.predicted_ms(r, pf.anchor(others)) / float(r["ttft_ms"]))


def test_the_docs_show_the_modules_figures():
    text = (pf.MEASUREMENTS.parents[2] / "docs" / "measurements.md").read_text("utf-8")
    assert pf.table() in text
    s = pf.summary()
    assert (f"{s['rows']} measurements from {s['sources']} sources" in text)
    assert f"geometric mean {s['anchor']:.3f}" in text
    assert (f"in sample {s['in_1.5']} of {s['rows']} within 1.5× ({s['in_1.2']} within "
            f"1.2×); each source left out, {s['out_1.5']} ({s['out_1.2']})") in text
    assert (f"at 80 % of peak, {s['default_1.5']} within 1.5× ({s['default_1.2']} within "
            f"1.2×), {s['default_faster']} of {s['rows']} predicted faster") in text


def test_the_default_stays_while_the_evidence_is_short():
    # the bar for replacing ROOF_EFFICIENCY in the first-token formulas by one made from
    # measurements: at least 20 rows from at least 5 independent sources. The set has
    # fewer sources, so the workbook keeps 0.8 (workbook/assumptions.py); when the set
    # passes the bar, this test fails and asks for the change
    from workbook.assumptions import ASSUMPTIONS
    enough = len(ROWS) >= 20 and len({r["source"] for r in ROWS}) >= 5
    assert not enough
    assert ASSUMPTIONS["ROOF_EFFICIENCY"][2] == pf.DEFAULT_EFFICIENCY == 0.8
