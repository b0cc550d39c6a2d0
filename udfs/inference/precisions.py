"""Bytes per parameter of each number format, from ``data/precisions.csv``, and the
reader of a precision argument (``Precision``: a name such as "FP8", or bytes per element).

=========  ===============  =================================================
precision  bytes per param  source
=========  ===============  =================================================
FP32/TF32  4                IEEE 754 binary32 (TF32 is stored in 32 bits)
BF16/FP16  2                IEEE 754 binary16; bfloat16 (16 bits)
FP8/INT8   1                OCP 8-bit floating point (OFP8); 8-bit integer
FP6        0.75             OCP MX v1.0 element width
INT4/FP4   0.5              4-bit integer; OCP MX v1.0 FP4 (E2M1)
MXFP4      0.53125          OCP MX v1.0: 4 bits + one 8-bit scale per 32
NVFP4      0.5625           NVIDIA: 4 bits + one FP8 scale per 16
=========  ===============  =================================================

NF4 (bitsandbytes) is left out on purpose: its size depends on block size and on whether
"double quantization" is on (4.5 or about 4.13 bits), so no single figure is right. Give
such formats as a number of bytes per parameter instead (``=WEIGHT_GB(70E9, 0.5625)``).
"""

from __future__ import annotations

import csv
import io
import re
from functools import lru_cache
from importlib import resources

from ..machinery.args import POSITIVE, Arg, describe
from ..machinery.errors import na_error


@lru_cache(maxsize=1)
def table() -> dict[str, dict]:
    """Canonical name -> row of ``precisions.csv`` (bytes_per_param as float)."""
    text = (resources.files("udfs") / "data" / "precisions.csv").read_text("utf-8")
    rows = {}
    for row in csv.DictReader(io.StringIO(text)):
        row["bytes_per_param"] = float(row["bytes_per_param"])
        rows[row["name"]] = row
    return rows


def name_key(name: str) -> str:
    """The matching key of a precision's name: upper case, without spaces, ``_`` or ``-``
    ("fp8 e4m3" → "FP8E4M3")."""
    return re.sub(r"[\s_\-]", "", name).upper()


@lru_cache(maxsize=1)
def _lookup() -> dict[str, float]:
    out = {}
    for name, row in table().items():
        out[name_key(name)] = row["bytes_per_param"]
        for alias in filter(None, row["aliases"].split(";")):
            out[name_key(alias)] = row["bytes_per_param"]
    return out


def bytes_per_param(name: str) -> float | None:
    """Bytes per parameter for a precision name ("BF16", "fp8", "e4m3"), or None."""
    return _lookup().get(name_key(name))


def names() -> list[str]:
    return list(table())


class Precision(Arg):
    """A number format by name (FP32, BF16, FP8, INT4, ...) or bytes per element as a
    number. Reads to bytes per element: BF16 → 2, FP8 → 1, INT4 → 0.5, MXFP4 → 0.53125
    (the table ``data/precisions.csv`` above, with its sources). An
    unknown name is ``#N/A`` listing the known ones.

    Parameters
    ----------
    name : the argument's name, default ``"precision"``
    """

    def __init__(self, name: str = "precision"):
        super().__init__(name, None, POSITIVE)

    def read_text(self, text: str) -> float:
        b = bytes_per_param(text)
        if b is None:
            try:  # "2" typed as text
                return float(text)
            except ValueError:
                pass
            raise na_error(f"{self.name}: unknown precision {describe(text)}; "
                           f"known: {', '.join(names())}")
        return b
