"""EXPLAIN shows the work of every catalog function.

The cases come from the declarations: each function's README example (``example=`` in
``udfs/functions/*``; its formula and the value the README states, checked through the
engine by ``test_readme.py``). A new function needs no edit here. ``WORKED`` below adds
hand-checked texts of the work for the functions that have them.
"""

import ast
import operator
import re

import pytest

from udfs import CATALOG, EXPLAIN, ExcelError
from udfs.machinery.declare import DECLARATIONS
from udfs.machinery.explain import num

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv, ast.Pow: operator.pow, ast.USub: operator.neg}


def _constant(text: str):
    """One argument of an example as Excel reads it: "text", TRUE/FALSE, or a number
    written with + - * / ^ and E notation (``2^24``, ``70E9``)."""
    text = text.strip()
    if text.startswith('"'):
        return text[1:-1].replace('""', '"')
    if text.upper() in ("TRUE", "FALSE"):
        return text.upper() == "TRUE"

    def value(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return float(node.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.operand))
        raise ValueError(f"not a constant: {text}")

    return value(ast.parse(text.replace("^", "**"), mode="eval").body)


def _split_args(inner: str) -> list[str]:
    """The arguments of a call's text, split at the commas outside quotes."""
    out, cur, quoted = [], "", False
    for ch in inner:
        if ch == '"':
            quoted = not quoted
        if ch == "," and not quoted:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return [*out, cur] if inner.strip() else out


def example_call(name: str) -> tuple[tuple, str]:
    """(arguments, stated value) of the README example of ``name``."""
    formula, stated = DECLARATIONS[name].example
    m = re.fullmatch(rf"={name}\((.*)\)", formula)
    assert m, f"{name}'s example is not one call of {name} with constants: {formula}"
    return tuple(_constant(a) for a in _split_args(m.group(1))), stated


EXAMPLES = sorted(n for n in DECLARATIONS if n != "EXPLAIN")

# Hand-checked texts of the work: one call and the text EXPLAIN must end on (or contain).
# Optional: a new function is covered by its example above without an entry here.
WORKED = {
    "WEIGHT_GB": (("8.03B", "BF16"), "16.06 GB"),
    "BYTES_PER_PARAM": (("FP8",), "1 bytes per parameter"),
    "KV_CACHE_GB": ((32, 8, 128, 8192), "131,072 B per token"),
    "FITS": ((140, 80), "FALSE"),
    "GPUS_NEEDED": ((140, 80), "= 2 GPUs"),
    "UNIT_CONVERT": ((16, "GB", "GiB"), "14.9 GiB"),
    "TIME_FLOOR": (("16 GB", "3.35 TB/s", "ms"), "4.776 ms"),
    "KERNEL_TIME": ((2**24, 2**26, 67, 3.35, "us"), "20.03 us (memory-bound)"),
    "DECODE_FLOOR": ((70e9, "FP8", 3.35, 1, 989),
                     "= max(20.9 ms, 0.1416 ms) = 20.9 ms (memory-bound)"),
    "TOKENS_PER_SEC": ((5,), "200 tokens/s"),
    "MS_PER_TOKEN": ((200,), "5 ms per token"),
    "PER_USER_TPS": ((1800, 10), "180 tokens/s per stream"),
    "INTENSITY": ((1, 4), "0.25 FLOP/byte"),
    "MATMUL_INTENSITY": ((4096, 4096, 4096), "1365 FLOP/byte"),
    "RIDGE": ((989, 3.35), "989 TFLOPS × 1 ÷ 3.35 TB/s = 295.2 FLOP/byte"),
    "ATTAINABLE": ((0.25, 989, 3.35), "0.8375 TFLOPS (memory-bound)"),
    "BOUND": ((64, 295), "memory-bound"),
    "CRITICAL_BATCH": ((989, 3.35, "FP8"), "batch 147.6"),
    "DECODE_INTENSITY": ((8.03e9, 64, 4.015, 68.719476736, 274877906944),
                         "68.72 GB KV) × 1e9 B) = 17.91 FLOP/byte"),
    "MBU": ((16.06, 4.5, 3.35), "an assumption is wrong"),
    "MFU": (("16 GFLOP", 2000, 989), "= 0.03236"),
    "AMDAHL": ((0.3, 3), "= 1.25×"),
    "SPEEDUP": ((20, 15), "1.333×"),
    "COST_PER_MTOK": ((2, 1000), "0.5556 per million tokens"),
    "GPU_SPEC": (("H100", "bandwidth"), "= 3.35"),
    "MODEL_SPEC": (("Llama 3.1 8B", "num_layers"), "= 32"),
    "CALIBRATE": ((4.79, 6.2), "= 0.7726"),
    "ESTIMATE": ((4.79, 0.8), "= 5.987 ms"),
    "PLAUSIBLE": ((4.79, 4), "4 ms < floor 4.79 ms: below the floor"),
    "PREFILL_MS": (("8.03B", 2000, 989, None, 32, 4096), "= 33.54 ms (attention 3% of the work)"),
    "MOE_EXPERTS_READ": ((8, 2, 2), "8 × (1 − (1 − 2/8)^2) = 3.5 experts read"),
    "INPUT_COST_PER_MTOK": ((2, "8.03B", 989), "0.009021 per million input tokens"),
    "BLENDED_COST_PER_MTOK": ((0.1, 2, 3, 1), "= 0.575 per million tokens"),
    "OWNED_HOURLY_COST": ((30000, 4, 700, 1.3, 0.12), "0.9648 per GPU-hour"),
    "GPUS_FOR_DEMAND": ((1e9, 2500, 2), "= 10 GPUs"),
    "MONTHLY_COST": ((8, 2.5), "14,610 per month"),
    "BREAKEVEN_MTOK": ((20000, 2.5, 0.1), "8333 million tokens a month"),
    # ⌊(80 − 16.06) ÷ 1.0737⌋ = ⌊59.55⌋ = 59
    "MAX_BATCH": ((80, 16.06, 1.073741824), "= ⌊59.55⌋ = 59 sequences"),
    # (20 × 3.35 − 16.06) ÷ 1.0737 = 47.44
    "BATCH_FOR_LATENCY": ((20, 16.06, 1.073741824, 3.35), "= 47.44; ⌊min⌋ = batch 47"),
    # 160 × 1.75 × 1,048,576 B ÷ 450 GB/s = 0.6524 ms
    "TP_COMM_MS": ((8192, 64, 8, 0.45, 80), "= 1,048,576 B) ÷ 0.45 TB/s) = 0.6524 ms"),
    "PIPELINE_BUBBLE": ((4, 8), "(4 − 1) ÷ (8 + 4 − 1) = 0.2727"),  # 3 ÷ 11
    "SPEC_TOKENS_PER_STEP": ((0.8, 4), "= 3.362 tokens per step"),  # 0.67232 ÷ 0.2
    "SPEC_DECODE_SPEEDUP": ((0.8, 4, 0.05), "÷ (4 × 0.05 + 1) = 2.801×"),  # 3.3616 ÷ 1.2
    "CONCURRENCY": ((20, 11), "20 requests/s × 11 s = 220 requests in flight"),
    "JOULES_PER_TOKEN": ((700, 2000), "= 0.35 J per token"),  # 700 ÷ 2,000
    "ENERGY_PER_MTOK_KWH": ((700, 2000, 1.3), "= 0.1264 kWh per million tokens"),
}


def _check(name, args, text):
    """What every EXPLAIN text must be: the function's name, then the work ending on the
    function's own result (the number shown is the cell's number)."""
    assert isinstance(text, str) and text.startswith(f"{name}: "), text
    result = CATALOG[name](*args)
    assert not isinstance(result, ExcelError), result
    if isinstance(result, bool):
        assert ("TRUE" if result else "FALSE") in text
    elif isinstance(result, float):
        assert num(result) in text
    else:
        assert str(result) in text
    return result


def test_every_function_has_a_worked_form_and_an_example():
    assert set(EXAMPLES) == set(CATALOG) - {"EXPLAIN"}
    for name in EXAMPLES:
        assert DECLARATIONS[name].explain is not None, f"{name}: declare its explain="
    assert set(WORKED) <= set(EXAMPLES)


@pytest.mark.parametrize("name", EXAMPLES)
def test_explain_of_the_example_shows_the_stated_value(name):
    args, stated = example_call(name)
    result = _check(name, args, EXPLAIN(name, *args))
    if isinstance(result, float):  # the README's stated value, to the digits it gives
        digits = stated.split(".")[1] if "." in stated else ""
        assert result == pytest.approx(float(stated.replace(",", "")),
                                       abs=0.5 * 10 ** -len(digits), rel=5e-4)
    elif isinstance(result, bool):
        assert stated == ("TRUE" if result else "FALSE")
    else:
        assert result == stated


@pytest.mark.parametrize("name", sorted(WORKED))
def test_explain_shows_the_work_and_the_function_result(name):
    args, expected = WORKED[name]
    text = EXPLAIN(name, *args)
    assert expected in text
    _check(name, args, text)


def test_explain_matches_the_reference_example():
    # the worked form: DECODE_FLOOR: max(70.00 GB ÷ 3.35 TB/s, 2 × 70e9 × 1 ÷ 989 TFLOPS)
    #          = max(20.90 ms, 0.14 ms) = 20.90 ms (memory-bound)
    text = EXPLAIN("decode_floor", 70e9, "FP8", 3.35, 1, 989)
    assert re.search(r"70 GB .*÷ 3\.35 TB/s, 2 × 70e9 × 1 ÷ 989 TFLOPS\)", text)
    assert text.endswith("= 20.9 ms (memory-bound)")


def test_explain_passes_errors_through_with_their_message():
    assert EXPLAIN("RIDGE", 989, 0) == "RIDGE: #NUM! bandwidth must be greater than 0"
    out = EXPLAIN("NOT_A_FUNCTION", 1)
    assert isinstance(out, ExcelError) and out.code == "#N/A"
    out = EXPLAIN("RIDGE")
    assert isinstance(out, ExcelError) and "peak_flops" in out.message


def test_explain_says_why_a_serving_limit_is_zero():
    # 140 GB of weights on 80 GB: 80 − 140 = −60 GB left
    assert "the weights alone do not fit (-60 GB left) = 0 sequences" in EXPLAIN(
        "MAX_BATCH", 80, 140, 1)
    # 4 ms × 3.35 TB/s = 13.4 GB < 16.06 GB: (13.4 − 16.06) ÷ 1 = −2.66
    assert EXPLAIN("BATCH_FOR_LATENCY", 4, 16.06, 1, 3.35).endswith(
        "= -2.66; ⌊min⌋ = batch 0 (batch 1 misses the target)")
    assert EXPLAIN("TP_COMM_MS", 8192, 64, 1, 0.45) == "TP_COMM_MS: tp = 1: no all-reduce = 0 ms"
    assert "γ + 1 = 4 + 1 = 5 tokens" in EXPLAIN("SPEC_TOKENS_PER_STEP", 1, 4)


def test_explain_takes_all_eight_arguments_of_tp_comm_ms():
    # 160 × (14 × 5 µs = 0.07 ms) = 11.2 ms + 0.6524 ms = 11.85 ms
    text = EXPLAIN("TP_COMM_MS", 8192, 64, 8, "450 GB/s", 80, "BF16", 2, 5)
    assert "2 × 7 × 5 us" in text and text.endswith("= 11.85 ms per step")


def test_example_arguments_are_read_as_excel_reads_them():
    assert _split_args('"8.03B","BF16"') == ['"8.03B"', '"BF16"']
    assert _split_args('"a,b",2^24') == ['"a,b"', "2^24"]
    assert _constant("2^24") == 16777216 and _constant("70E9") == 70e9
    assert _constant('"say ""hi"""') == 'say "hi"' and _constant("TRUE") is True
    with pytest.raises(ValueError):
        _constant("A1")
