"""The worked values of LLM-inference napkin math (``docs/math.md``), as test cases.

One table serves every test of the worked values: the Python functions
(test_reference.py), ``napkin eval`` and ``napkin calc`` on a workbook holding the same
formulas (test_reference_headless.py), the Lite bundle (test_lite.py) and ``napkin
native`` in LibreOffice (test_native.py). Each case is written once, as a user types it in
Excel, with the functions of our catalog; the Python call is read from that text
(``python_call``). Expected values are the published figures (datasheets, model
configs) or a hand calculation from them, rounded as they are usually quoted; the
tolerance is half a unit of the last digit given (or the "≈" spread where a figure is
approximate).

The last section, "serving", is written out in full: each expected value there is a hand
calculation written out in the comment above the case, with the source of its inputs
(model configs in ``udfs/data/models.csv``, datasheets in ``udfs/data/gpus.csv``).
"""

import math
import re

from udfs import CATALOG

# The catalog's functions, by name, are what the Python calls call (test_lite.py replaces
# them here to record the calls).
globals().update(CATALOG)

#: A token of a formula: a text, a number, a function's name, or an operator.
_TOKEN = re.compile(r'\s*(?:(?P<text>"(?:[^"]|"")*")'
                    r"|(?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
                    r"|(?P<function>[A-Z_][A-Z0-9_.]*)(?=\()"
                    r"|(?P<operator>[-+*/^(),]))")
_AFTER_OPERAND = re.compile(r'[\d.)"]$')


def python_call(formula: str):
    """The Python call that ``formula`` (as typed in Excel) makes, as a function of no
    arguments: the same calls, numbers and texts, with ``^`` as ``**``.

    Only what both languages read alike is taken: texts, numbers, calls, ``+ - * / ( ,``
    and ``^`` between two numbers (where no sign before it or ``^`` after it could make
    Excel's order differ from Python's: Excel's ``-2^2`` is 4). Anything else is a
    ValueError.
    """
    tokens, pos, text = [], 0, formula.removeprefix("=").strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ValueError(f"{formula}: cannot read {text[pos:]!r} as Python")
        tokens.append((m.lastgroup, m.group(m.lastgroup)))
        pos = m.end()
    out = []
    for i, (kind, tok) in enumerate(tokens):
        if kind == "text":
            tok = repr(tok[1:-1].replace('""', '"'))
        elif tok == "^":
            left = tokens[i - 1][0] if i >= 1 else None
            right = tokens[i + 1][0] if i + 1 < len(tokens) else None
            signed = i >= 2 and tokens[i - 2][1] in "+-" and (
                i == 2 or not _AFTER_OPERAND.search(tokens[i - 3][1]))
            chained = i + 2 < len(tokens) and tokens[i + 2][1] == "^"
            if left != "number" or right != "number" or signed or chained:
                raise ValueError(f"{formula}: ^ is read as ** only between two numbers")
            tok = "**"
        out.append(tok)
    code = compile(" ".join(out), formula, "eval")
    return lambda: eval(code, globals())


# (section, case, formula as typed in Excel, expected, absolute tolerance; None where the
#  result is TRUE/FALSE or text)
# fmt: off
CASES = [
    # §1 Amounts: does it fit?
    ('1', 'FP32 bytes per parameter',
     '=BYTES_PER_PARAM("FP32")',
     4, 0),
    ('1', 'BF16 bytes per parameter',
     '=BYTES_PER_PARAM("BF16")',
     2, 0),
    ('1', 'FP16 bytes per parameter',
     '=BYTES_PER_PARAM("FP16")',
     2, 0),
    ('1', 'FP8 bytes per parameter',
     '=BYTES_PER_PARAM("FP8")',
     1, 0),
    ('1', 'INT8 bytes per parameter',
     '=BYTES_PER_PARAM("INT8")',
     1, 0),
    ('1', 'INT4 bytes per parameter',
     '=BYTES_PER_PARAM("INT4")',
     0.5, 0),
    ('1', 'FP4 bytes per parameter',
     '=BYTES_PER_PARAM("FP4")',
     0.5, 0),
    ('1', 'Llama 3.1 8B BF16 weights, GB',
     '=WEIGHT_GB("8.03B","BF16")',
     16.06, 0.005),
    ('1', 'Llama 3.1 8B FP32 weights, GB',
     '=WEIGHT_GB(8.03E+9,"FP32")',
     32.12, 0.005),
    ('1', 'Llama 3.1 8B FP8 weights, GB',
     '=WEIGHT_GB(8030000000,"FP8")',
     8.03, 0.005),
    ('1', 'Llama 3.1 8B INT4 weights, GB',
     '=WEIGHT_GB("8.03b","INT4")',
     4.015, 0.0005),
    ('1', 'FP32 to INT4 span',
     '=WEIGHT_GB("8.03B","FP32")/WEIGHT_GB("8.03B","INT4")',
     8, 0),
    ('1', '16 GB in GiB',
     '=UNIT_CONVERT(16,"GB","GiB")',
     14.9, 0.05),
    ('1', 'GiB is ~7 % larger than GB',
     '=UNIT_CONVERT(1,"GiB","GB")-1',
     0.07, 0.005),
    ('1', '70B BF16 weights',
     '=WEIGHT_GB(70E+9,"BF16")',
     140, 0),
    ('1', '70B BF16 on one 80 GB H100',
     '=FITS(WEIGHT_GB(70E+9,"BF16"),80)',
     False, None),
    ('1', '70B FP8 weights',
     '=WEIGHT_GB(70E+9,"FP8")',
     70, 0),
    ('1', '70B FP8 on one 80 GB H100',
     '=FITS(WEIGHT_GB(70E+9,"FP8"),80)',
     True, None),
    ('1', '70B INT4 weights',
     '=WEIGHT_GB(70E+9,"INT4")',
     35, 0),
    ('1', '70B INT4 on one 80 GB H100',
     '=FITS(WEIGHT_GB(70E+9,"INT4"),80)',
     True, None),
    # §2 Rates (H100 SXM: 3.35 TB/s, 989 TFLOPS BF16)
    ('2', '8B BF16 decode token reads all weights, ms',
     '=TIME_FLOOR("16 GB","3,350 GB/s","ms")',
     4.8, 0.05),
    ('2', '8B BF16 decode floor, ms',
     '=DECODE_FLOOR("8.03B","BF16",3.35)',
     4.79, 0.005),
    ('2', 'its math, 2 FLOPs per parameter, µs',
     '=TIME_FLOOR(2*8E+9,989E+12,"us")',
     16, 0.5),
    ('2', 'ratio of memory time to math time',
     '=TIME_FLOOR("16 GB","3.35 TB/s")/TIME_FLOOR("16 GFLOP","989 TFLOPS")',
     300, 5),
    ('2', '70B FP8 on H100, ms/token',
     '=DECODE_FLOOR(70E+9,"FP8",3.35)',
     21, 0.5),
    ('2', "70B FP8 on H100, ms/token (20.9)",
     '=DECODE_FLOOR(70E+9,"FP8",3.35)',
     20.9, 0.05),
    ('2', '70B INT4 on H100, ms/token',
     '=DECODE_FLOOR(70E+9,"INT4","3.35 TB/s")',
     10, 0.5),
    # §3 Latency vs throughput
    ('3', 'one stream at 5 ms/token, tokens/s',
     '=TOKENS_PER_SEC(5)',
     200, 0),
    ('3', '200 tokens/s, ms/token',
     '=MS_PER_TOKEN(200)',
     5, 0),
    ('3', '1,800 tokens/s over 10 streams',
     '=PER_USER_TPS(1800,10)',
     180, 0),
    ('3', '1,800 tokens/s over 100 streams',
     '=PER_USER_TPS(1800,100)',
     18, 0),
    # §4 Speedup
    ('4', '20 ms -> 15 ms',
     '=SPEEDUP(20,15)',
     1.33, 0.005),
    ('4', "'25 % faster'",
     '=SPEEDUP(1.25,1)',
     1.25, 0),
    ('4', "'25 % less time'",
     '=SPEEDUP(1,0.75)',
     1.33, 0.005),
    ('4', 'Amdahl p = 30 %, s = 3',
     '=AMDAHL(0.3,3)',
     1.25, 0.005),
    ('4', 'Amdahl p = 30 %, s infinite',
     '=AMDAHL(0.3)',
     1.43, 0.005),
    # §5 The max rule and the roofline
    ('5', 'H100 BF16 ridge',
     '=RIDGE("989 TFLOPS","3.35 TB/s")',
     295, 0.5),
    ('5', "H100 BF16 ridge (295.2)",
     '=RIDGE(989,3.35)',
     295.2, 0.05),
    ('5', 'y = x × 2 in BF16: intensity',
     '=INTENSITY(1,2+2)',
     0.25, 0),
    ('5', 'its ceiling on H100, TFLOPS',
     '=ATTAINABLE(0.25,989,3.35)',
     0.84, 0.005),
    ('5', 'y = x × 2 over 2^24 elements: bytes moved, MB',
     '=2^24*4/1E+6',
     67, 0.5),
    ('5', 'its time of bytes, µs',
     '=KERNEL_TIME(0,2^24*4,67,3.35,"us")',
     20, 0.5),
    ('5', 'its time of math on 67 TFLOPS, µs',
     '=KERNEL_TIME(2^24,0,67,3.35,"us")',
     0.25, 0.005),
    ('5', 'its kernel time by the max rule, µs',
     '=KERNEL_TIME(2^24,2^24*4,67,3.35,"us")',
     20, 0.5),
    ('5', 'square matmul N = 4096 BF16 intensity',
     '=MATMUL_INTENSITY(4096,4096,4096)',
     1365, 0.5),
    ('5', 'square matmul is on the roof',
     '=BOUND(MATMUL_INTENSITY(4096,4096,4096),RIDGE(989,3.35))',
     'compute-bound', None),
    ('5', 'softmax (a few FLOP/byte) is memory-bound',
     '=BOUND(5,RIDGE(989,3.35))',
     'memory-bound', None),
    ('5', 'decode GEMM B = 1: I ≈ 1, capped, TFLOPS',
     '=ATTAINABLE(1,989,3.35)',
     3.35, 0),
    ('5', 'decode GEMM B = 1: share of peak, %',
     '=ATTAINABLE(1,989,3.35)/989*100',
     0.34, 0.005),
    ('5', 'decode GEMM B = 64: memory-bound',
     '=BOUND(64,RIDGE(989,3.35))',
     'memory-bound', None),
    ('5', 'decode GEMM batch reaching the ridge',
     '=CRITICAL_BATCH(989,3.35)',
     295, 0.5),
    ('5', 'prefill (thousands of tokens) is on the roof',
     '=BOUND(4096,RIDGE(989,3.35))',
     'compute-bound', None),
    # The side of the ridge counting the KV cache: Llama 3.1 8B (config: 32 layers, 32
    # heads × 128, 8 KV heads: 131,072 B of BF16 KV per token) with INT4 weights (8.03e9
    # × 0.5 B = 4.015 GB) at batch 64, 8,192 tokens each. Weights alone: 2 × 8.03e9 × 64
    # ÷ 4.015e9 B = 256 FLOP/byte, past the H200's ridge at 70 % of its BF16 peak (989 ×
    # 0.7 ÷ 4.8 = 144.2). With the KV cache (64 × 8,192 × 131,072 B = 68,719,476,736 B)
    # and the attention (4 × 32 × 4,096 × 8,192 × 64 = 274,877,906,944 FLOP):
    # (1.02784e12 + 2.74878e11) ÷ (4.015e9 + 68.719e9) = 1.302718e12 ÷ 72.734477e9 =
    # 17.9106 FLOP/byte, memory-bound
    ('5', 'long-context batch 64, weights-only rule: compute-bound',
     '=BOUND(2*8.03E9*64/4.015E9,RIDGE(989,4.8,0.7))',
     'compute-bound', None),
    ('5', 'the same step counting its KV cache, FLOP/byte',
     '=DECODE_INTENSITY(8.03E9,64,4.015,68.719476736,274877906944)',
     1.302717906944e12 / 72.734476736e9, 1e-9),
    ('5', 'the same step counting its KV cache: memory-bound',
     '=BOUND(DECODE_INTENSITY(8.03E9,64,4.015,68.719476736,274877906944),RIDGE(989,4.8,0.7))',
     'memory-bound', None),
    # §6 Two warnings
    ('6', 'real roof 0.8 × 989, TFLOPS',
     '=ATTAINABLE(1E+6,989*0.8,3.35)',
     791, 0.5),
    ('6', 'ridge at the real roof',
     '=RIDGE(989,3.35,0.8)',
     236, 0.5),
    ('6', 'FP8 roof ridge',
     '=RIDGE(1979,3.35)',
     590, 1),
    ('6', 'FP8 weights on the FP8 roof: critical batch',
     '=CRITICAL_BATCH(1979,3.35,"FP8")',
     295, 0.5),
    ('6', 'FP8 weights, BF16 math: critical batch',
     '=CRITICAL_BATCH(989,3.35,"FP8")',
     148, 0.5),
    # Serving (hand calculations). Llama 3.1 8B: 8.03e9 params, BF16 = 16.06 GB; its KV
    # cache (config: 32 layers, 8 KV heads, head_dim 128) is 2 × 32 × 8 × 128 × 2 B =
    # 131,072 B per token, so 8,192 tokens = 1.073741824 GB per sequence. H100 SXM
    # datasheet: 80 GB, 3.35 TB/s, 989 TFLOPS BF16 dense.
    # (80 − 16.06) ÷ 1.073741824 = 63.94 ÷ 1.0737 = 59.55 → 59 sequences
    ('serving', '8B BF16 on an H100: sequences of 8,192 tokens that fit',
     '=MAX_BATCH(80,WEIGHT_GB("8.03B","BF16"),KV_CACHE_GB(32,8,128,8192))',
     59, 0),
    # 10 % reserved: 72 − 16.06 = 55.94 ÷ 1.073741824 = 52.10 → 52
    ('serving', 'the same with 10 % held back',
     '=MAX_BATCH("80 GB",16.06,"1.073741824 GB",0.1)',
     52, 0),
    # Llama 3.1 70B FP8 (70 GB), 2 × 80 × 8 × 128 × 2 B = 327,680 B/token × 8,192 =
    # 2.68435456 GB per sequence, over 2 GPUs: (160 − 70) ÷ 2.684 = 33.53 → 33
    ('serving', '70B FP8 over 2 H100s: sequences of 8,192 tokens',
     '=MAX_BATCH(80,70,2.68435456,0,2)',
     33, 0),
    # 70B BF16 = 140 GB > 80 GB: the weights alone do not fit → 0
    ('serving', '70B BF16 on one H100: no room at all',
     '=MAX_BATCH(80,140,1)',
     0, 0),
    # (20 ms × 3.35 TB/s − 16.06 GB) ÷ 1.073741824 GB = 50.94 ÷ 1.0737 = 47.44 → 47;
    # check: batch 47 reads 16.06 + 50.47 = 66.53 GB in 19.86 ms, batch 48 needs 20.18 ms
    ('serving', '8B BF16 on an H100: largest batch within 20 ms a step',
     '=BATCH_FOR_LATENCY(20,16.06,1.073741824,3.35)',
     47, 0),
    # tiny KV (0.01 GB): memory allows (67 − 16.06) ÷ 0.01 = 5,094, compute allows
    # 20e-3 s × 989e12 ÷ (2 × 8.03e9) = 1,231.6 → 1,231 (compute-bound)
    ('serving', 'the same with little KV: compute binds',
     '=BATCH_FOR_LATENCY(20,16.06,0.01,3.35,2*8.03E+9,989)',
     1231, 0),
    # 4 ms × 3.35 TB/s = 13.4 GB < 16.06 GB of weights: batch 1 misses → 0
    ('serving', '4 ms a step is below the 8B floor: batch 0',
     '=BATCH_FOR_LATENCY(4,16.06,1,3.35)',
     0, 0),
    # Llama 3.1 70B (hidden 8,192, 80 layers), batch 64, TP 8 over NVLink 4 (900 GB/s in
    # + out = 450 GB/s one way): 64 × 8,192 × 2 B = 1,048,576 B; × 2 × 7/8 = 1,835,008 B
    # ÷ 450e9 B/s = 4.0778 µs; × 2 all-reduces × 80 layers = 0.65245 ms
    ('serving', '70B TP 8 all-reduces per decode step, ms',
     '=TP_COMM_MS(8192,64,8,"450 GB/s",80)',
     0.65245, 0.000005),
    # with 5 µs per ring step: 160 × 2 × 7 × 5 µs = 11.2 ms more: 11.85245 ms
    ('serving', 'the same with 5 µs latency per ring step, ms',
     '=TP_COMM_MS(8192,64,8,0.45,80,"BF16",2,5)',
     11.85245, 0.000005),
    # with NCCL's latencies over NVLink (src/graph/tuning.cc: 0.6 µs per ring step, 6.6
    # µs per call): 160 × (6.6 + 14 × 0.6) µs = 160 × 15.0 µs = 2.4 ms more: 3.05245 ms
    ('serving', 'the same with NCCL NVLink latencies, ms',
     '=TP_COMM_MS(8192,64,8,0.45,80,"BF16",2,0.6,6.6)',
     3.05245, 0.000005),
    ('serving', 'TP 1: no communication',
     '=TP_COMM_MS(8192,64,1,0.45,80)',
     0, 0),
    ('serving', 'TP 1 with latencies: still no communication',
     '=TP_COMM_MS(8192,64,1,0.45,80,"BF16",2,0.6,6.6)',
     0, 0),
    # Speculative decoding judged per token: Llama 3.3 70B FP8 on one H200, step floor
    # 70.6 GB ÷ 4.8 TB/s = 14.7083 ms; NVIDIA measured 181.74 tokens/s (5.5024 ms) with a
    # draft model, 3.55x its 51.14 without. At 3.55 tokens per step: 14.7083 ÷ 3.55 ÷
    # 5.5024 = 0.75297; at one token per step the measurement beats the floor
    ('serving', 'calibrating a speculative run per token',
     '=CALIBRATE(70.6/4.8,1000/181.74,3.55)',
     70.6 / 4.8 / 3.55 / (1000 / 181.74), 1e-12),
    ('serving', 'the speculative run at one token per step is below the floor',
     '=PLAUSIBLE(70.6/4.8,1000/181.74)',
     'below the floor: an assumption is wrong', None),
    ('serving', 'and plausible at its 3.55 tokens per step',
     '=PLAUSIBLE(70.6/4.8,1000/181.74,3.55)',
     'plausible', None),
    # GPipe bubble: (4 − 1) ÷ (8 + 4 − 1) = 3 ÷ 11 = 0.272727
    ('serving', 'pipeline bubble, 4 stages, 8 micro-batches',
     '=PIPELINE_BUBBLE(4,8)',
     3 / 11, 1e-12),
    # Leviathan et al. eq. 1: (1 − 0.8^5) ÷ (1 − 0.8) = (1 − 0.32768) ÷ 0.2 = 3.3616
    ('serving', 'speculative decoding: tokens per step, α 0.8, γ 4',
     '=SPEC_TOKENS_PER_STEP(0.8,4)',
     3.3616, 1e-12),
    # α = 1: every draft accepted, γ + 1 = 5
    ('serving', 'speculative decoding: α = 1 gives γ + 1',
     '=SPEC_TOKENS_PER_STEP(1,4)',
     5, 0),
    # Theorem 3.8: 3.3616 ÷ (4 × 0.05 + 1) = 3.3616 ÷ 1.2 = 2.801333
    ('serving', 'speculative decoding speedup, draft 5 % of a target step',
     '=SPEC_DECODE_SPEEDUP("80 %",4,0.05)',
     3.3616 / 1.2, 1e-12),
    # Little's law: 20 requests/s × (1 s to the first token + 300 tokens at 30 tokens/s
    # = 11 s) = 220 in flight
    ('serving', "Little's law: 20 requests/s for 11 s each",
     '=CONCURRENCY(20,1+300/30)',
     220, 1e-9),
    # 700 W (H100 SXM TDP) ÷ 2,000 tokens/s = 0.35 J per token
    ('serving', 'joules per token, 700 W at 2,000 tokens/s',
     '=JOULES_PER_TOKEN(700,2000)',
     0.35, 1e-12),
    # 0.35 J × 10^6 = 350,000 J ÷ 3.6e6 J/kWh = 0.097222 kWh; × PUE 1.3 = 0.126389
    ('serving', 'kWh per million tokens at PUE 1.3',
     '=ENERGY_PER_MTOK_KWH("700 W","2000 tokens/s",1.3)',
     0.35e6 / 3.6e6 * 1.3, 1e-12),
    # The decode step deployments pay (Austin et al., "How to Scale Your Model", ch. 7):
    # attention + weights + all-reduces. Llama 3.1 8B BF16 (16.06 GB) on an H100 (3.35
    # TB/s, 989 TFLOPS), batch 64 of 1,024 tokens: KV 64 × 1,024 × 131,072 B (config:
    # 32 layers × 2 × 8 × 128 × 2 B) = 8.589934592 GB ÷ 3.35 = 2.56416 ms; weights
    # max(2 × 8.03e9 × 64 ÷ 989e12 = 1.03923 ms, 16.06 ÷ 3.35 = 4.79403 ms) = 4.79403 ms;
    # sum (8.589934592 + 16.06) ÷ 3.35 = 7.3581894 ms
    ('serving', 'decode step: 8B BF16, batch 64 of 1,024 tokens, one H100',
     '=DECODE_STEP_MS(16.06,8.589934592,3.35,8.03E+9,64,989)',
     (8.589934592 + 16.06) / 3.35, 1e-9),
    # batch 512 without KV: the math 2 × 8.03e9 × 512 = 8.22272e12 FLOP ÷ 989e12 FLOP/s =
    # 8.314176 ms exceeds the weights' 4.79403 ms
    ('serving', 'decode step: the weights turn compute-bound at batch 512',
     '=DECODE_STEP_MS(16.06,0,3.35,8.03E+9,512,989)',
     8.22272e12 / 989e12 * 1e3, 1e-9),
    # attention products above the KV read: 4e12 FLOP ÷ 1,000 TFLOPS = 4 ms against
    # 10 GB ÷ 5 TB/s = 2 ms; weights max(2 × 1e9 × 100 ÷ 1e15 = 0.2 ms, 10 ÷ 5 = 2 ms):
    # 4 + 2 = 6 ms
    ('serving', 'decode step: attention FLOPs above the KV read',
     '=DECODE_STEP_MS(10,10,5,1E+9,100,1000,4E+12)',
     6, 1e-9),
    # Llama 3.1 70B BF16 (140 GB) over 2 H100s at batch 1 with 0.5 ms of all-reduces:
    # 140 ÷ (2 × 3.35) = 20.895522 ms (math 2 × 70e9 ÷ (2 × 989e12) = 0.07 ms) + 0.5
    ('serving', 'decode step: 70B BF16 over 2 GPUs, plus 0.5 ms of all-reduces',
     '=DECODE_STEP_MS(140,0,3.35,70E+9,1,989,0,2,0.5)',
     140 / 6.7 + 0.5, 1e-9),
    # pipeline stages (docs/math.md; vLLM v0.6's engine keeps a micro-batch per stage, m =
    # p): 8B BF16 over 2 H100s in 2 stages of 1 GPU, m = 2 of 32 sequences,
    # k = max(m, p) = 2 passes a period: attention 8.589934592 ÷ (2 × 3.35) = 1.2820798 ms
    # + max(2 × 8.03e9 × 64 ÷ (2 × 989e12) = 0.5196158 ms, 2 × 16.06 ÷ 6.7 = 4.7940299 ms)
    ('serving', 'decode step: 8B BF16 over 2 GPUs in 2 pipeline stages',
     '=DECODE_STEP_MS(16.06,8.589934592,3.35,8.03E+9,64,989,0,2,0,2)',
     8.589934592 / 6.7 + 2 * 16.06 / 6.7, 1e-9),
    # 4 stages of 1 GPU with m = 2 micro-batches: k = 4, stages idle half the time;
    # 4/2 × 8.589934592 ÷ 13.4 = 1.2820798 + max(0.5196158, 4 × 16.06 ÷ 13.4 = 4.7940299)
    # + 4/4 × 1 ms of all-reduces = 7.0761097 ms
    ('serving', 'decode step: 4 pipeline stages, 2 micro-batches',
     '=DECODE_STEP_MS(16.06,8.589934592,3.35,8.03E+9,64,989,0,4,1,4,2)',
     2 * 8.589934592 / 13.4 + 4 * 16.06 / 13.4 + 1, 1e-9),
    # attention products of a decode step: 4 × 32 layers × (32 heads × 128) × 1,024
    # tokens × 64 sequences = 34,359,738,368 FLOP (Llama 3.1 8B config)
    ('serving', 'attention FLOPs of a decode step: 8B, batch 64 of 1,024 tokens',
     '=DECODE_ATTENTION_FLOP(32,4096,1024,64)',
     34359738368, 0),
    # Llama 4 Maverick FP8 on 8 H200 (8 × 4.8 TB/s, 8 × 1,979 TFLOPS) at batch 4,096 with
    # the 17e9 active parameters for the math: max(400 GB ÷ 38.4 = 10.416667 ms,
    # 2 × 17e9 × 4096 ÷ 15,832e12 = 8.796362 ms) = 10.416667 ms a step, 2.543 µs a token:
    # below TensorRT-LLM's measured 24.6 µs (40,572 tokens/s, perf overview v1.0)
    ('serving', 'decode floor of an MoE model with its active parameters',
     '=DECODE_FLOOR(400E+9,"FP8",8*4.8,4096,8*1979,0,"ms",17E+9)',
     400 / 38.4, 1e-9),
    # speculative decoding divides the floor: 70 GB ÷ 3.35 TB/s = 20.895522 ms a step ÷
    # (1 − 0.8⁵) ÷ 0.2 = 3.3616 tokens per step (Leviathan et al. 2023, eq. 1) = 6.215946 ms
    ('serving', 'decode floor per token with speculative decoding, α 0.8, γ 4',
     '=DECODE_FLOOR(70E+9,"FP8",3.35,1,1979,0,"ms",70E+9,SPEC_TOKENS_PER_STEP(0.8,4))',
     70 / 3.35 / 3.3616, 1e-9),
    # an MoE model called directly: Llama 4 Maverick FP8 on 8 H200 (4.8 TB/s and 1,979
    # TFLOPS FP8 each) at batch 4,096, where every one of its 128 experts is read: weights
    # 400e9 × 1 B ÷ 38.4 TB/s = 10.4167 ms against math 2 × 17e9 active (config) × 4,096 ÷
    # 15,832 TFLOPS = 8.796 ms: 10,416.7 µs a step ÷ 4,096 = 2.5431 µs per token, below
    # TensorRT-LLM's measured 1e6 ÷ 40,572 tokens/s = 24.65 µs (perf-overview, v1.0); the
    # one count for both (no active_params) gives 2 × 400e9 × 4,096 ÷ 15,832e12 ÷ 4,096 =
    # 50.53 µs, above it
    ('serving', 'Maverick on 8 H200 at batch 4,096, µs per token (active params)',
     '=DECODE_FLOOR(400E9,"FP8",8*4.8,4096,8*1979,0,"us",17E9)/4096',
     400 / 38.4 * 1000 / 4096, 1e-9),
    # the same model by name, the weights read from the model table: 17.1847e9 active
    # (counted from the config) less the input embedding (vocab 202,048 × hidden 5,120 =
    # 1,034,485,760) = 16,150,214,240 at batch 1, plus one routed expert (24 MoE layers ×
    # 3 × 5,120 × 8,192 = 3,019,898,880) for each further expert the batch touches: 128 ×
    # (1 − (127/128)^4096) = 128 − 1.4e-12 experts a layer, 399,677,372,000 weights =
    # 399.68 GB ÷ 38.4 TB/s = 10,408.265 µs a step (the math, 8.89 ms, is below it) ÷ 4,096
    # = 2.54108 µs per token, below TensorRT-LLM's measured 24.65 µs
    ('serving', 'Maverick by name on 8 H200 at batch 4,096, µs per token',
     '=DECODE_FLOOR("Llama 4 Maverick","FP8",8*4.8,4096,8*1979,0,"us")/4096',
     399.677372 / 38.4 * 1000 / 4096, 1e-9),
    # a dense model by name is its parameter count: Llama 3.1 8B's 8.03e9 (model card) ×
    # 2 B = 16.06 GB ÷ 3.35 TB/s (H100 SXM) = 4.79403 ms
    ('serving', 'decode floor of a dense model by name',
     '=DECODE_FLOOR("Llama 3.1 8B","BF16",3.35)',
     16.06 / 3.35, 1e-12),
    # Mixtral 8x7B by name at batch 2 (config: 8 experts, top-2, 32 MoE layers, hidden
    # 4,096, expert width 14,336, vocab 32,000; 12.8799e9 active, counted from it):
    # 12.8799e9 − 32,000 × 4,096 = 12,748,828,000 at batch 1, + (8 × (1 − 0.75²) − 2) = 1.5
    # experts × 32 × 3 × 4,096 × 14,336 = 5,637,144,576 each: 21,204,544,864 × 2 B =
    # 42.409089728 GB ÷ 3.35 TB/s
    ('serving', 'decode floor of Mixtral 8x7B by name at batch 2',
     '=DECODE_FLOOR("Mixtral 8x7B","BF16",3.35,2)',
     42.409089728 / 3.35, 1e-12),
    # gpt-oss-120b by name in MXFP4 reads its kept BF16 weights at 2 bytes: the card's
    # 5.13e9 read at batch 1 (Table 1: active without the input embedding), of which
    # 1,589,080,960 are kept in BF16 (config.json quantization_config modules_to_not_convert:
    # 116.83e9 − 128 × 36 × 3 × 2,880² routed experts − 201,088 × 2,880 input embedding);
    # the rest, 3,540,919,040, in MXFP4 at 0.53125 B (OCP MX v1.0: 4.25 bits):
    # 1.881113240 + 3.178161920 = 5.059275160 GB ÷ 3.35 TB/s (H100 SXM) = 1.510231 ms;
    # all of it in MXFP4 would be 2.725 GB, 46 % less
    ('serving', 'decode floor of gpt-oss-120b by name, its kept BF16 weights at 2 bytes',
     '=DECODE_FLOOR("gpt-oss-120b","MXFP4",3.35)',
     (3540919040 * 0.53125 + 1589080960 * 2) / 1e9 / 3.35, 1e-12),
    # prefill by name multiplies the active parameters: 2 × 17.1847e9 (Maverick's, counted
    # from the config) × 2,000 tokens ÷ 989 TFLOPS (H100 SXM, BF16 dense) = 69.50334 ms
    ('serving', 'prefill of an MoE model by name',
     '=PREFILL_MS("Llama 4 Maverick",2000,989)',
     2 * 17.1847e9 * 2000 / 989e12 * 1000, 1e-9),
    # TP_COMM_MS with the interconnect by name (NCCL tuning.cc: NVLink 0.6 µs a ring step,
    # 6.6 µs a call; PCIe 1.0): Llama 3.1 70B's 80 layers, batch 64, tp 8 on NVLink: 2 ×
    # 80 × (6.6 + 14 × 0.6) µs = 2.4 ms + 0.6525 ms of bytes (the case above) = 3.0525 ms;
    # tp 4 on PCIe: 160 × (6.6 + 6 × 1.0) µs = 2.016 ms + 160 × 1.5 × 1,048,576 B ÷ 450e9
    # B/s = 0.5592405 ms
    ('serving', 'all-reduces over NVLink, latencies by name',
     '=TP_COMM_MS(8192,64,8,0.45,80,"BF16",2,"NVLink","NVLink")',
     2.4 + 160 * 1.75 * 1048576 / 450e9 * 1000, 1e-9),
    ('serving', 'all-reduces over PCIe, latencies by name',
     '=TP_COMM_MS(8192,64,4,0.45,80,"BF16",2,"PCIe","PCIe")',
     2.016 + 160 * 1.5 * 1048576 / 450e9 * 1000, 1e-9),
    # regime anchors, each the geometric mean of floor ÷ (measured − layers × 65.8 µs) over
    # its published measurements (tests/data/serving_measurements.csv;
    # tests/test_serving_measurements.py recomputes them): one GPU at batch 1 is inside
    # small_batch's range (1 to 4 GPUs, batch 1 to 8); its 19 rows 0.366 to 1.094,
    # geometric mean 0.7422 → 0.742
    ('serving', 'regime efficiency: one GPU at batch 1',
     '=REGIME_EFFICIENCY(1,1)',
     0.742, 0),
    # 8 GPUs in tensor parallel at batch 1, the all-reduces' latency in the floor (10
    # rows: DeepSeek-R1 on 8 B200, its verifying pass's tokens counted, 0.387 the lowest;
    # Llama 3.1 70B and 405B on 8 MI300X; Llama 4 Maverick with Eagle3, 2.855 the
    # highest): geometric mean 0.7850 → 0.785
    ('serving', 'regime efficiency: tensor parallel 8 at batch 1',
     '=REGIME_EFFICIENCY(8,1)',
     0.785, 0),
    # one GPU at batch 700 (throughput, batches 25 to 3,436, 16 rows 0.298 to 0.737):
    # geometric mean → 0.409
    ('serving', 'regime efficiency: one GPU, large batch',
     '=REGIME_EFFICIENCY(1,700)',
     0.409, 0),
    # 2 GPUs at batch 100 (tensor-parallel throughput, 2 to 8 GPUs, batches 16 to 1,399, 21
    # rows 0.266 to 0.777): geometric mean → 0.471
    ('serving', 'regime efficiency: tensor parallel, large batch',
     '=REGIME_EFFICIENCY(2,100)',
     0.471, 0),
    # 2 GPUs at batch 12, between small_batch's largest batch (8) and throughput_tp's
    # smallest (16): linear in ln(batch), 0.742 + (0.471 − 0.742) × ln(12/8) ÷ ln(16/8)
    ('serving', 'regime efficiency: between small batch and throughput',
     '=REGIME_EFFICIENCY(2,12)',
     0.742 + (0.471 - 0.742) * math.log(12 / 8) / math.log(16 / 8), 1e-12),
    # 6 GPUs at batch 1, between small_batch's most GPUs (4) and tp8_small_batch's fewest
    # (8): linear in ln(GPUs), 0.742 + (0.785 − 0.742) × ln(6/4) ÷ ln(8/4); batch 1 is
    # below the small-batch end (batch 8, the largest of the small-batch measurements)
    ('serving', 'regime efficiency: between 4 and 8 GPUs at batch 1',
     '=REGIME_EFFICIENCY(6,1)',
     0.742 + (0.785 - 0.742) * math.log(6 / 4) / math.log(2), 1e-12),
    # MoE, expert parallel (25 rows, 0.099 to 0.560): geometric mean → 0.239
    ('serving', 'regime efficiency: MoE with expert parallelism',
     '=REGIME_EFFICIENCY(8,4096,1)',
     0.239, 0),
    # the layers' time: Llama 3.1 70B's 80 layers (config.json num_hidden_layers) × 65.8
    # µs (udfs/data/layer_time.csv, the fit over the 29 small-batch measurements) = 5.264
    # ms a token; with 3 tokens a step (speculative), ÷ 3 = 1.755 ms
    ('serving', 'layers\' fixed time, Llama 3.1 70B',
     '=LAYER_OVERHEAD_MS(80)',
     80 * 65.8 / 1000, 1e-12),
    ('serving', 'layers\' fixed time, 3 tokens a step',
     '=LAYER_OVERHEAD_MS(80,3)',
     80 * 65.8 / 1000 / 3, 1e-12),
    # a per-layer time of your own, 50 µs: 80 × 50 µs ÷ 2 tokens a step = 2.0 ms
    ('serving', 'layers\' fixed time, a per-layer time of 50 µs',
     '=LAYER_OVERHEAD_MS(80,2,50)',
     80 * 50 / 1000 / 2, 1e-12),
    # the template's default realistic step (README): floor 14.0255 ms ÷ 0.471 + 80 ×
    # 65.8 µs = 29.778 + 5.264 = 35.042 ms
    ('serving', 'realistic step with the layers\' time',
     '=ESTIMATE(14.0255,0.471,LAYER_OVERHEAD_MS(80))',
     14.0255 / 0.471 + 5.264, 1e-9),
    # gpt-oss-120b (config.json: 128 experts over 36 layers of 3 × 2880 × 2880, so
    # 114,661,785,600 routed weights in MXFP4; the other 116.83e9 − that = 2,168,214,400
    # are BF16, modules_to_not_convert): 114,661,785,600 × 0.53125 + 2,168,214,400 × 2 =
    # 60.9141 + 4.3364 = 65.2505 GB
    ('serving', 'gpt-oss-120b weights, MXFP4 experts and BF16 rest, GB',
     '=WEIGHT_GB(116.83E+9,"MXFP4","GB",2168214400)',
     65.2505, 0.00005),
    # DeepSeek-V3 FP8 (config.json: 671,026,419,200 weights; quantization_config fp8; the
    # embedding and LM head, 2 × 129,280 × 7,168 = 1,853,358,080, stay BF16):
    # 669,173,061,120 × 1 + 1,853,358,080 × 2 = 672.8798 GB
    ('serving', 'DeepSeek-V3 FP8 weights with BF16 embedding and head, GB',
     '=WEIGHT_GB(671026419200,"FP8","GB",1853358080)',
     672.8798, 0.00005),
    # Qwen3-Next 80B-A3B at 8,192 tokens (config.json: 12 attention layers of 2 KV heads
    # × 256; 36 Gated DeltaNet layers of (32 × 128 × 128 + 3 × 8,192) BF16 state =
    # 39,518,208 B): 2 × 12 × 2 × 256 × 2 × 8,192 = 201,326,592 B + 39,518,208 B =
    # 0.2408 GB per sequence
    ('serving', 'Qwen3-Next KV cache and linear-attention state, one sequence, GB',
     '=KV_CACHE_GB(12,2,256,8192,"BF16",1,"GB",39518208)',
     0.24084, 0.000005),
]
# fmt: on

#: The cases with their Python calls: (section, case, formula, call, expected, tolerance).
REFERENCE = [(section, case, formula, python_call(formula), expected, tolerance)
             for section, case, formula, expected, tolerance in CASES]
