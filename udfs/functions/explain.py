"""EXPLAIN as an Excel function (the work itself is in ``udfs.machinery.explain``)."""

from __future__ import annotations

from ..machinery import explain
from ..machinery.broadcast import guard
from ..machinery.declare import DECLARATIONS, declare, raw

_ARG = "Optional. An argument of that function, in its order (empty: omitted)."
#: EXPLAIN's argument slots: as many as the function with the most arguments takes.
SLOTS = 11


def _explain(function_name, *args):
    args = list(args)
    while args and args[-1] is None:
        args.pop()
    return guard(explain.explain, function_name, *args)


declare(
    "EXPLAIN",
    "Shows the work: the formula of function_name with your numbers and units substituted, its result and the verdict. EXPLAIN(\"RIDGE\",989,3.35) = \"RIDGE: 989 TFLOPS × 1 ÷ 3.35 TB/s = 295.2 FLOP/byte\".",  # noqa: E501
    raw("function_name", "Name of a napkin function, e.g. \"DECODE_FLOOR\"."),
    *[raw(f"arg{i}", _ARG, default=None) for i in range(1, SLOTS + 1)],
    call=_explain,
    example=('=EXPLAIN("RIDGE",989,3.35)', "RIDGE: 989 TFLOPS × 1 ÷ 3.35 TB/s = 295.2 FLOP/byte"),
    summary="the work, as text",
    usage="EXPLAIN(function_name, args…)",
    native_refusal=("its result is napkin's own text (the formula with the numbers and units "
                    "substituted); no spreadsheet formula writes it"),
)

# every argument of every other function fits in a slot
assert max(len(d.params) for n, d in DECLARATIONS.items() if n != "EXPLAIN") <= SLOTS
