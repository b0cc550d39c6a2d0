"""Argument readers and help texts that several declarations share."""

from __future__ import annotations

from ..inference.precisions import Precision
from ..machinery.args import NONNEGATIVE, OPEN_FRACTION, POSITIVE, Arg, Count

# Readers (see udfs.machinery.args): the argument's name, default unit and domain
PARAMS = Count("params", domain=POSITIVE)
PRECISION = Precision()
MEMORY_NEED = Arg("need_gb", "GB", NONNEGATIVE)
CAPACITY = Arg("capacity_gb", "GB", POSITIVE)
BANDWIDTH = Arg("bandwidth", "TB/s", POSITIVE)
PEAK = Arg("peak_flops", "TFLOPS", POSITIVE)
MS_TOKEN = Arg("ms_per_token", "ms", POSITIVE, also=("ms/token",))
TPS = Arg("tokens_per_sec", "token/s", POSITIVE)
BATCH = Arg("batch", None, POSITIVE)
FLOOR_MS = Arg("floor_ms", "ms", POSITIVE, also=("ms/token",))
MEASURED_MS = Arg("measured_ms", "ms", POSITIVE, also=("ms/token",))
EFFICIENCY = Arg("efficiency", "dimensionless", OPEN_FRACTION)
UTILIZATION = Arg("utilization", "dimensionless", OPEN_FRACTION)
HOURLY = Arg("gpu_hourly_cost", None, NONNEGATIVE)

# Help texts (Excel shows at most 255 characters)
D_PARAMS = "Parameter count: a number (8.03E+9) or text with a scale: '8.03B', '70b', '405e9'."
D_PRECISION = ("Number format: FP32, TF32, BF16, FP16, FP8, INT8, FP6, INT4, FP4, MXFP4, "
               "NVFP4; or bytes per parameter as a number.")
D_BANDWIDTH = "Memory bandwidth: bare number in TB/s, or text such as '3.35 TB/s', '3350 GB/s'."
D_PEAK = "Peak compute: bare number in TFLOPS, or text such as '989 TFLOPS', '0.989 PFLOPS'."
D_NEED = "Memory needed: bare number in GB (10^9 bytes), or text such as '70 GB', '65 GiB'."
D_CAPACITY = "Memory of one GPU: bare number in GB (10^9 bytes), or text such as '80 GB'."
D_RESERVE = "Optional. Share of capacity held back for KV cache and runtime, 0 to <1. Default 0."
D_UNIT_GB = "Optional. Unit of the result: GB (default), GiB, MB, TB, B..."
D_UNIT_MS = "Optional. Unit of the result: ms (default), s, us, ns..."
D_FLOOR = "The floor for the case, ms per token (from DECODE_FLOOR), or text ('4.79 ms')."
D_MEASURED = "What you measured for the same case, ms per token, or text ('6.2 ms')."
D_HOURLY = "Price of one GPU-hour, in your currency."
D_MODELS = ("Optional. With a model name: the model table to find it in, headers included "
            "(the template's Models sheet, so your rows count). Default: the built-in table.")
D_UTIL = "Optional. Share of paid hours spent producing tokens, >0 to 1. Default 1."
