"""Mixed-precision checkpoints (udfs/data/checkpoints.csv): weights stored and read per
decode step with each part in its own precision."""

import pytest
from template_support import models_range, variant

from udfs import DECODE_FLOOR, EXPLAIN, MODEL_SPEC, WEIGHT_GB, ExcelError
from udfs.inference import tables
from udfs.inference.model_reads import WHOLE_TABLE
from workbook.scenario import SCENARIO_NAMES
from workbook.sizing import SIZING


def test_gpt_oss_120b_stores_its_experts_in_mxfp4_and_the_rest_in_bf16():
    # config.json: 36 layers, 128 experts, hidden and expert width 2,880, vocab 201,088,
    # untied; quantization_config mxfp4 with self_attn, router, embed_tokens and lm_head
    # not converted. Routed experts 128 × 36 × 3 × 2880² = 114,661,785,600 at 4.25 bits
    # (0.53125 B, OCP MX v1.0) = 60.9141 GB; embedding and head 2 × 201,088 × 2,880 =
    # 1,158,266,880 at 2 B = 2.3165 GB; the rest 116.83e9 − both = 1,009,947,520 at 2 B
    # = 2.0199 GB: 65.2505 GB
    routed, emb2 = 128 * 36 * 3 * 2880 ** 2, 2 * 201088 * 2880
    rest = 116.83e9 - routed - emb2
    want = (routed * 0.53125 + rest * 2 + emb2 * 2) / 1e9
    assert MODEL_SPEC("gpt-oss-120b", "checkpoint_gb") == pytest.approx(want)
    assert want == pytest.approx(65.2505, abs=5e-5)
    # every weight taken at MXFP4 (the one-precision figure) is 3.2 GB less
    assert WEIGHT_GB(116.83e9, "MXFP4") == pytest.approx(62.066, abs=5e-4)


def test_gpt_oss_120b_decode_step_reads_bf16_attention_and_head():
    # batch 1 reads 4 experts per layer, 4 × 36 × 3 × 2880² = 3,583,180,800 at 0.53125 B
    # = 1.9035 GB, the rest 2.0199 GB and the BF16 LM head 579,133,440 × 2 = 1.1583 GB:
    # 5.0817 GB, against 5.13e9 × 0.53125 = 2.7253 GB were all of it MXFP4 (46 % less)
    rest = 116.83e9 - 128 * 36 * 3 * 2880 ** 2 - 2 * 201088 * 2880
    want = (4 * 36 * 3 * 2880 ** 2 * 0.53125 + rest * 2 + 201088 * 2880 * 2) / 1e9
    assert MODEL_SPEC("gpt-oss-120b", "checkpoint_decode_gb") == pytest.approx(want)
    assert 1 - 5.13e9 * 0.53125 / 1e9 / want == pytest.approx(0.4637, abs=5e-4)


def test_models_without_a_checkpoint_row_leave_the_fields_empty():
    assert tables.models()["Llama 3.1 8B"]["checkpoint_gb"] == ""
    assert str(MODEL_SPEC("Llama 3.1 8B", "checkpoint_gb")).startswith("#N/A")


def test_decode_floor_by_name_reads_the_kept_parts_as_the_sizing_sheet_does(tmp_path):
    # gpt-oss-120b in MXFP4 on one H100 SXM (3.35 TB/s) at batch 1. By hand from the
    # checkpoint's parts (config.json quantization_config: MXFP4 only in the routed
    # experts; attention, router, embedding and head in BF16): 5.13e9 weights read (the
    # card's active count without the input embedding), 1,589,080,960 of them kept in BF16
    # (116.83e9 − 128 × 36 × 3 × 2,880² − 201,088 × 2,880), the rest at 0.53125 B
    kept = 116.83e9 - 128 * 36 * 3 * 2880 ** 2 - 201088 * 2880
    want = ((5.13e9 - kept) * 0.53125 + kept * 2) / 1e9 / 3.35
    assert DECODE_FLOOR("gpt-oss-120b", "MXFP4", 3.35) == pytest.approx(want, rel=1e-12)
    # all weights read in MXFP4 would give a floor 46 % lower: the "45 % low"
    assert 5.13e9 * 0.53125 / 1e9 / 3.35 / want == pytest.approx(0.5387, abs=1e-4)
    # the Sizing sheet's batch-1 floor, through the scenario's defined names
    s = {name: "Sizing!" + SIZING[key] for name, key in SCENARIO_NAMES.items()}
    v = variant(tmp_path, "gptoss", {s["SCENARIO_MODEL"]: "gpt-oss-120b",
                                     s["SCENARIO_PRECISION"]: "MXFP4",
                                     s["SCENARIO_GPU"]: "NVIDIA H100 SXM"})["Sizing"]
    assert v[SIZING["floor_ms"]] == pytest.approx(want, rel=1e-12)


def test_a_models_range_reads_the_kept_weights_by_their_header_or_says_it_lacks_them():
    # gpt-oss-120b in MXFP4 on one H100 SXM (3.35 TB/s, NVIDIA's H100 datasheet, as
    # udfs/data/gpus.csv) at batch 1, by hand from config.json: 4 of 128 experts a layer
    # read, 5.13e9 weights (the card's active count without the input embedding), of
    # them 116.83e9 − 128 × 36 × 3 × 2,880² − 201,088 × 2,880 = 1,589,080,960 kept in
    # BF16 (attention, router, LM head); (5.13e9 − 1,589,080,960) × 0.53125 B +
    # 1,589,080,960 × 2 B = 5.0593 GB ÷ 3.35 TB/s = 1.5102 ms, the Sizing sheet's floor
    kept = 116.83e9 - 128 * 36 * 3 * 2880 ** 2 - 201088 * 2880
    want = ((5.13e9 - kept) * 0.53125 + kept * 2) / 1e9 / 3.35
    assert want == pytest.approx(1.5102, abs=5e-5)
    table = models_range()
    args = ("gpt-oss-120b", "MXFP4", 3.35, 1, None, 0, "ms", None, None)
    assert DECODE_FLOOR(*args, table) == pytest.approx(want, rel=1e-12)
    # the columns found by their headers, in any order: the table's columns reversed
    assert DECODE_FLOOR(*args, [r[::-1] for r in table]) == pytest.approx(want, rel=1e-12)
    # Models!A5:W (without Z and AA) would count none kept, 5.13e9 × 0.53125 B ÷ 3.35 TB/s
    # = 0.8135 ms, 46 % low: it is #VALUE! naming the argument, the column and the fix
    for short in ([r[:23] for r in table], [r[:26] for r in table]):
        got = DECODE_FLOOR(*args, short)
        assert isinstance(got, ExcelError) and got.code == "#VALUE!"
        assert got.message.startswith("models: the range has no 'Of those, read per decode "
                                      "step (billions)' column")
        assert "gpt-oss-120b" in got.message and "1.589e9" in got.message
        assert got.message.endswith(WHOLE_TABLE)
        text = EXPLAIN("DECODE_FLOOR", *args[:5], None, None, None, None, short)
        assert text == f"DECODE_FLOOR: {got}"
    # where the kept weights take 2 bytes as the rest (BF16: 5.13e9 × 2 B ÷ 3.35 TB/s =
    # 3.0627 ms), or the model keeps none (Llama 3.1 8B in FP8: 8.03e9 × 1 B ÷ 3.35 TB/s =
    # 2.3970 ms), the column changes nothing and is not needed
    short = [r[:23] for r in table]
    assert DECODE_FLOOR("gpt-oss-120b", "BF16", 3.35, 1, None, 0, "ms", None, None, short) \
        == pytest.approx(5.13e9 * 2 / 1e9 / 3.35, rel=1e-12)
    assert DECODE_FLOOR("Llama 3.1 8B", "FP8", 3.35, 1, None, 0, "ms", None, None, short) \
        == pytest.approx(8.03e9 / 1e9 / 3.35, rel=1e-12)


def test_a_models_range_without_the_per_layer_column_says_so_for_gemma_4_e2b():
    # Gemma 4 E2B (config.json text_config): 4,628,569,344 parameters of the text model, of
    # them a per-layer embedding table of 262,144 × 35 × 256 = 2,348,810,240 that a step
    # looks up, not reads; in BF16 on one H100 SXM (3.35 TB/s) at batch 1 the step reads
    # (4,628,569,344 − 2,348,810,240) × 2 B = 4.5595 GB ÷ 3.35 TB/s = 1.3611 ms; the table
    # keeps the total to four decimals of a billion (4.6286), 1.3e-5 of the step
    ple = 262144 * 35 * 256
    assert (4_628_569_344 - ple) * 2 / 1e9 / 3.35 == pytest.approx(1.3611, abs=5e-5)
    want = (4.6286e9 - ple) * 2 / 1e9 / 3.35
    table = models_range()
    args = ("Gemma 4 E2B", "BF16", 3.35, 1, None, 0, "ms", None, None)
    assert DECODE_FLOOR(*args, table) == pytest.approx(want, rel=1e-9)
    # Models!A5:AA (without AB) would read the whole 4.63e9, 2.03× the step: #VALUE!
    for short in ([r[:27] for r in table], [r[:23] for r in table]):
        got = DECODE_FLOOR(*args, short)
        assert isinstance(got, ExcelError) and got.code == "#VALUE!"
        assert got.message.startswith("models: the range has no 'Per-layer embeddings, "
                                      "looked up (billions)' column")
        assert got.message.endswith(WHOLE_TABLE)


def test_the_fix_a_models_message_gives_is_the_template_s_table():
    # WHOLE_TABLE says: header row 5, columns A to AB; in the committed template row 5
    # holds the headers, the name first (A) and the per-layer embeddings last (AB)
    import openpyxl
    from openpyxl.utils import get_column_letter
    from template_support import COMMITTED

    from workbook.models import MODEL_FIRST

    assert "columns A to AB from Models!A5 down" in WHOLE_TABLE
    wb = openpyxl.load_workbook(COMMITTED, read_only=True)
    head = [c for c in next(wb["Models"].iter_rows(min_row=5, max_row=5, values_only=True))
            if c is not None]
    wb.close()
    assert MODEL_FIRST - 1 == 5 and get_column_letter(len(head)) == "AB"
    assert head[0] == "Model" and head[-1] == "Per-layer embeddings, looked up (billions)"
    assert head[-2] == "Of those, read per decode step (billions)"


def test_gemma4_26b_nvfp4_quantizes_only_its_routed_experts():
    # nvidia/Gemma-4-26B-A4B-NVFP4 hf_quant_config.json: NVFP4 (E2M1 with an FP8 E4M3
    # scale per 16: 4.5 bits = 0.5625 B), exclude_modules lm_head and every layer's mlp*,
    # router* and self_attn*. config.json text_config: 30 layers, 128 experts of
    # moe_intermediate_size 704 on hidden 2816 (gate, up and down), top 8; vocab 262144,
    # tied. Routed experts 128 × 30 × 3 × 2816 × 704 = 22,837,985,280 at 0.5625 B =
    # 12.8464 GB; the rest, the table's 25.2331e9 less those, in BF16 (the embedding,
    # 262,144 × 2816 = 738,197,504, among them): 2,395,114,720 × 2 B = 4.7902 GB
    routed = 128 * 30 * 3 * 2816 * 704
    kept = 25.2331e9 - routed
    assert MODEL_SPEC("Gemma 4 26B-A4B", "kept_params") == pytest.approx(kept)
    want = (routed * 0.5625 + kept * 2) / 1e9
    assert MODEL_SPEC("Gemma 4 26B-A4B", "checkpoint_gb") == pytest.approx(want)
    assert want == pytest.approx(17.6366, abs=5e-5)
    # WEIGHT_GB with the kept parts gives the same; all of it NVFP4 would be 14.1936 GB
    assert WEIGHT_GB(25.2331e9, "NVFP4", "GB", kept) == pytest.approx(want)
    assert WEIGHT_GB(25.2331e9, "NVFP4") == pytest.approx(14.1936, abs=5e-5)
    # a batch-1 step reads 8 experts a layer in NVFP4 and the rest whole (tied: the
    # embedding is the LM head): 8 × 30 × 3 × 2816 × 704 × 0.5625 + kept × 2 B
    read = (8 * 30 * 3 * 2816 * 704 * 0.5625 + kept * 2) / 1e9
    assert MODEL_SPEC("Gemma 4 26B-A4B", "checkpoint_decode_gb") == pytest.approx(read)
    assert MODEL_SPEC("Gemma 4 26B-A4B", "kept_decode_params") == pytest.approx(kept)
    # DECODE_FLOOR by name at 8 TB/s, batch 1: the table's active 3.8225e9 weights (tied:
    # nothing left out), the kept ones at 2 B, the rest at 0.5625 B, ÷ 8 TB/s: 0.6991 ms
    floor = ((3.8225e9 - kept) * 0.5625 + kept * 2) / 1e9 / 8
    assert DECODE_FLOOR("Gemma 4 26B-A4B", "NVFP4", 8) == pytest.approx(floor, rel=1e-12)
    assert floor == pytest.approx(read / 8, rel=1e-5)


def test_a_checkpoint_stores_the_per_layer_table_with_the_embeddings():
    # a row's parts: the per-layer table of Gemma 4 E2B (262,144 × 35 × 256) is its own
    # part, stored in the embeddings' precision and read by no decode step
    from udfs.inference.checkpoints import checkpoint_fields, parts
    r = tables.models()["Gemma 4 E2B"]
    p = parts(r)
    assert p["per_layer"] == 262144 * 35 * 256
    assert p["dense"] == pytest.approx(4.6286e9 - 262144 * 1536 - 262144 * 35 * 256)
    c = {"experts_precision": "FP8", "dense_precision": "FP8", "embedding_precision": "BF16"}
    f = checkpoint_fields(r, c)
    tables_kept = 262144 * 1536 + 262144 * 35 * 256
    assert float(f["kept_params"]) == tables_kept
    assert float(f["checkpoint_gb"]) == pytest.approx((p["dense"] + tables_kept * 2) / 1e9)
    assert float(f["checkpoint_decode_gb"]) == pytest.approx(
        (p["dense"] + 262144 * 1536 * 2) / 1e9)
