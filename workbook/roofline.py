"""The Roofline sheet: the chosen GPU's roofs and the reference kernels, log-log chart."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.chart.series import SeriesLabel, StrRef
from openpyxl.styles import Alignment
from openpyxl.utils import column_index_from_string, get_column_letter

from workbook.arrays import fill, fixed
from workbook.expr import Cell, Expr, F, Name, Text, lift, of, words
from workbook.model.gpu import empty_says
from workbook.sheet import NO_FLOPS, Sheet
from workbook.sizing import SIZING

ROOF_FIRST = 12   # rows 12..16: the roof points
KERNEL_FIRST = 21  # rows 21..26: the reference kernels, 27..28 the scenario's points
#: Hidden columns with the chart's data, #N/A where a line or point is left out (a text
#: value would plot as 0): the roofs' x and y (under A, B, C, D, F) and the points' y (F).
HELPER = {"A": "K", "B": "L", "C": "M", "D": "N", "F": "O", "points": "P"}
#: The inputs at the top: the chosen GPU's name (B3), bandwidth (B4, TB/s), BF16 and FP8
#: dense peaks (B5, B6, TFLOPS), roof efficiency (B7) and the decode GEMM's D and F (B8, B9).
GPU, BW, BF16, FP8, EFF = (Cell(c) for c in ("$B$3", "$B$4", "$B$5", "$B$6", "$B$7"))
WIDTH_D, WIDTH_F = Cell("$B$8"), Cell("$B$9")
HAS_BF16, HAS_FP8 = F.ISNUMBER(BF16), F.ISNUMBER(FP8)
#: The BF16 ridge (the roofs' row of "ridge, BF16"), against which the kernels are placed.
RIDGE_BF16 = Cell(f"$A${ROOF_FIRST + 2}")


def intensity(s, f, b) -> Expr:
    """Arithmetic intensity of a kernel of ``f`` FLOPs moving ``b`` bytes [FLOP/byte]:
    INTENSITY(f, b) = f ÷ b (``s``, the size, unused)."""
    return F.INTENSITY(f, b)


def matmul_intensity(s, f, b) -> Expr:
    """Arithmetic intensity of an N × N × N BF16 matmul, N = ``s`` [FLOP/byte]:
    MATMUL_INTENSITY(N, N, N) = 2N³ ÷ (3 × 2N²) = N/3."""
    return F.MATMUL_INTENSITY(s, s, s)


def gemm_flops(s) -> Expr:
    """FLOPs of ``s`` token vectors through a D × F weight matrix: 2 × B × D × F."""
    return 2 * s * WIDTH_D * WIDTH_F


KERNELS = [  # label, size label, size, FLOPs(size), bytes(size), intensity(size, f, b), why
    ("y = x × 2 (BF16)", "elements", 16777216, lambda s: s, lambda s: 4 * s, intensity,
     "1 FLOP per 2 bytes read + 2 written: I = 0.25"),
    ("softmax (BF16)", "elements", 16777216, lambda s: 5 * s, lambda s: 4 * s, intensity,
     "≈ 5 FLOPs per element (max, subtract, exp, sum, divide) over 4 bytes"),
    ("decode GEMM, batch 1", "batch B", 1, gemm_flops, lambda s: 2 * WIDTH_D * WIDTH_F,
     intensity, "B token vectors × a D × F BF16 weight matrix: I ≈ B"),
    ("decode GEMM, batch 64", "batch B", 64, gemm_flops, lambda s: 2 * WIDTH_D * WIDTH_F,
     intensity, "still memory-bound: 64 tokens in about the time of 1"),
    ("decode GEMM, batch 295", "batch B", 295, gemm_flops, lambda s: 2 * WIDTH_D * WIDTH_F,
     intensity, None),  # None: the note says where the chosen GPU's ridge is
    ("matmul 4096³ (BF16)", "N", 4096, lambda s: 2 * s ** 3, lambda s: lift(3) * 2 * s ** 2,
     matmul_intensity, "2N³ ÷ (3 × 2N²) = N/3 ≈ 1,365: on the roof"),
]


def on_roof(x, peak, has=HAS_BF16, bandwidth=BW) -> Expr:
    """The attainable TFLOPS at intensity ``x`` under the roof of ``peak`` [TFLOPS] and
    ``bandwidth`` [TB/s], #N/A (left out of the chart) where ``has`` is false:
    IF(has, ATTAINABLE(x, peak, bandwidth) = MIN(peak, bandwidth × x), NA())."""
    return F.IF(has, F.ATTAINABLE(of(x), of(peak), of(bandwidth)), F.NA())


def shown(cell, says: str) -> Expr:
    """A hidden chart cell as the table shows it: its number, else ``says`` (text)."""
    c = of(cell)
    return F.IF(F.ISNUMBER(c), c, Text(says))


def kernel_time(r: int) -> Expr:
    """Kernel row ``r``'s time floor on the BF16 roof [µs]: KERNEL_TIME(FLOPs, bytes, peak,
    bandwidth, "us") = MAX(FLOPs ÷ peak, bytes ÷ bandwidth), else "no BF16 figure"."""
    return F.IF(HAS_BF16, F.KERNEL_TIME(Cell(f"C{r}"), Cell(f"D{r}"), BF16, BW, Text("us")),
                Text("no BF16 figure"))


def kernel_side(r: int) -> Expr:
    """Kernel row ``r``'s side of the BF16 ridge: BOUND(intensity, ridge), else "no BF16
    figure"."""
    return F.IF(HAS_BF16, F.BOUND(Cell(f"E{r}"), RIDGE_BF16), Text("no BF16 figure"))


#: The notes beside the GPU's figures: why a figure is missing and what is not drawn then.
GPU_NOTES = {
    "C4": empty_says(Cell("B4"), "GPU"),
    "C5": F.IF(F.ISNUMBER(Cell("B5")), Text(""), Text(
        "no BF16 figure for this GPU: its roof and the kernels on it are not drawn")),
    "C6": F.IF(F.ISNUMBER(Cell("B6")), Text(""), Text(
        "no FP8 figure for this GPU: the FP8 roof is not drawn; the BF16 roof still is"))}


def sheet_roofline(wb: Workbook) -> Sheet:
    """Roofline: the chosen GPU's roofs and the reference kernels, with a log-log chart.

    B3..B9   GPU (from Sizing), bandwidth, BF16 and FP8 peaks, roof efficiency, and the
             decode GEMM's D and F (INPUTS, 8192)
    A12..E16 the roofs at x = 0.1, the three ridges, 10,000 FLOP/byte:
             ATTAINABLE(x, peak, bandwidth) for BF16, BF16 × efficiency, FP8
    A21..I26 the kernels: size (INPUT), FLOPs, bytes, intensity (INTENSITY or
             MATMUL_INTENSITY), attainable TFLOPS on the BF16 roof (ATTAINABLE), time
             (KERNEL_TIME, µs), side of the BF16 ridge (BOUND)
    A27..I28 the scenario's decode step and prefill (Sizing) on its roof; without a FLOPS
             figure the decode step's time is its memory floor, the other cells say so
    Chart    right of the tables: log-log scatter, roofs as lines, kernels as points
    """
    s = Sheet(wb, "Roofline", {"A": 28, "B": 22, "C": 18, "D": 18, "E": 16, "F": 16,
                               "G": 16, "H": 15, "I": 64})
    s.title_rows("Roofline: where each kernel sits on the chosen GPU",
                 "Attainable FLOPS = MIN(peak, bandwidth × intensity); both axes log scale. "
                 "Left of the ridge: memory-bound. Right of it: compute-bound.")
    sz = {k: f"Sizing!{v}" for k, v in SIZING.items()}
    rows = [
        ("B3", "GPU (Sizing)", Cell(sz['gpu']), None, "formula"),
        ("B4", "Memory bandwidth", Cell(sz['bandwidth']), "tbps", "formula"),
        ("B5", "BF16 dense peak", Cell(sz['bf16']), "tflops", "formula"),
        ("B6", "FP8 dense peak", Cell(sz['fp8']), "tflops", "formula"),
        ("B7", "Roof efficiency", Name("ROOF_EFFICIENCY"), "pct", "formula"),
        ("B8", "Decode GEMM: D (model width)", 8192, "count", "input"),
        ("B9", "Decode GEMM: F (output width)", 8192, "count", "input"),
    ]
    for cell, label, value, fmt, style in rows:
        s.line(cell, label, value, style, fmt, note_col=None, right=False)
    s.validate("B8:B9", "whole", "Width of the weight matrix: a whole number from 1 to "
               "1,000,000.", "Matrix width", 1, 1000000)
    for cell, note in GPU_NOTES.items():
        s.put(cell, note, "note")

    _roofs(s)
    _kernels(s)
    last = _scenario_points(s, KERNEL_FIRST + len(KERNELS))
    for col in HELPER.values():
        s.ws.column_dimensions[col].hidden = True
    s.put(f"A{ROOF_FIRST + 5}", "The chart's data are in columns K..P (hidden): a line or a "
                                "point without a figure is left out.", "note")
    s.put(f"A{last + 2}", "A kernel far below the line is limited by its code, not the "
                          "hardware. Left of the ridge: batch more, fuse kernels, store "
                          "weights in fewer bits. Right of it: buy FLOPS.", "note")
    _roofline_chart(s, last)
    return s


#: The roofs' intensities [FLOP/byte] (the chart's lines are drawn through these points):
#: the left edge, the three ridges (peak ÷ bandwidth: RIDGE), the right edge.
ROOF_XS = [(0.1, "left edge"),
           (F.IF(HAS_BF16, F.RIDGE(BF16, BW, EFF), F.NA()), "ridge, BF16 × efficiency"),
           (F.IF(HAS_BF16, F.RIDGE(BF16, BW), F.NA()), "ridge, BF16"),
           (F.IF(HAS_FP8, F.RIDGE(FP8, BW), F.IF(HAS_BF16, F.RIDGE(BF16, BW), F.NA())),
            "ridge, FP8"),
           (10000.0, "right edge")]


def roof_row(r: int, x) -> dict[str, tuple]:
    """Roof row ``r`` at intensity ``x``: {cell: (value, number format)}, each hidden
    chart cell (``HELPER``, #N/A where a line is left out) followed by the cell the table
    shows (its number or words): x; the BF16 roof, BF16 × efficiency and FP8 roofs
    (``on_roof``); the memory roof x × bandwidth where the GPU has no FLOPS figure."""
    h, at = HELPER, Cell(f"{HELPER['A']}{r}")
    data = {"A": (x, "#,##0.0##"),
            "B": (on_roof(at, BF16), "#,##0.00"),
            "C": (on_roof(at, BF16 * EFF), "#,##0.00"),
            "D": (on_roof(at, FP8, HAS_FP8), "#,##0.00"),
            "F": (F.IF(F.OR(HAS_BF16, HAS_FP8), F.NA(), at * BW), "#,##0.00")}
    out = {}
    for col, (value, fmt) in data.items():
        says = "not drawn" if col == "F" else "no figure"
        out[f"{h[col]}{r}"] = (value, fmt)
        out[f"{col}{r}"] = (shown(Cell(f"{h[col]}{r}"), says), fmt)
    return out


def _roofs(s: Sheet) -> None:
    """Rows 10..16: the roofs at chosen intensities (the chart's lines, hidden columns)."""
    s.section(10, "The roofs (data of the chart's lines; a line this GPU has no figure "
                  "for is left out of the chart)", "F")
    s.header(11, ["Intensity (FLOP/byte)", "BF16 roof (TFLOPS)",
                  "BF16 roof × efficiency (TFLOPS)", "FP8 roof (TFLOPS)", "Point",
                  "Memory roof only (no FLOPS figure)"])
    h = HELPER
    for i, (x, what) in enumerate(ROOF_XS):
        r = ROOF_FIRST + i
        for col, (value, fmt) in roof_row(r, x).items():
            s.put(col, value, "formula", fmt)
            if not col.startswith(tuple(h.values())):  # the table's cells, not the chart's
                s.ws[col].alignment = Alignment(horizontal="right")
        s.put(f"E{r}", what, "note")
    r, end = ROOF_FIRST, ROOF_FIRST + len(ROOF_XS) - 1  # one array formula a hidden column
    for col, peak, has in (("B", BF16, HAS_BF16), ("C", BF16 * EFF, HAS_BF16),
                           ("D", FP8, HAS_FP8)):
        fill(s.ws, f"{h[col]}{r}:{h[col]}{end}", on_roof(Cell(f"{h['A']}{r}"), peak, has),
             keep=True)


#: The number formats of a point's computed columns (a kernel's or the scenario's).
POINT_FORMATS = {"B": None, "C": "#,##0", "D": "#,##0", "E": "#,##0.00",
                 HELPER["points"]: "#,##0.00", "F": "#,##0.00", "G": "#,##0.00", "H": None}


def kernel_row(r: int, flops, nbytes, inten) -> dict[str, Expr]:
    """Kernel row ``r`` of size B{r}: {column: expression}: its FLOPs and bytes (``flops``
    and ``nbytes`` of the size), intensity (``inten``), attainable TFLOPS on the BF16 roof
    (hidden, then shown), time floor and side of the BF16 ridge."""
    size, points = Cell(f"B{r}"), HELPER["points"]
    return {"C": flops(size), "D": nbytes(size),
            "E": inten(size, Cell(f"C{r}"), Cell(f"D{r}")),
            points: on_roof(Cell(f"E{r}"), BF16),
            "F": shown(Cell(f"{points}{r}"), "no BF16 figure"),
            "G": kernel_time(r), "H": kernel_side(r)}


def _kernels(s: Sheet) -> None:
    """Rows from ``KERNEL_FIRST``: the reference kernels (the chart's points)."""
    h = HELPER
    s.section(KERNEL_FIRST - 2, "The reference kernels (data of the chart's points), "
                                "on the BF16 roof", "I")
    s.header(KERNEL_FIRST - 1, ["Kernel", "Size (input)", "FLOPs", "Bytes moved",
                                "Intensity (FLOP/byte)", "Attainable (TFLOPS)",
                                "Time floor (µs)", "Side of the BF16 ridge", "Why"])
    for i, (label, size_label, size, flops, nbytes, inten, why) in enumerate(KERNELS):
        r = KERNEL_FIRST + i
        s.put(f"A{r}", label, "label")
        s.put(f"B{r}", size, "input", f'#,##0 "{size_label}"')
        for col, value in kernel_row(r, flops, nbytes, inten).items():
            s.put(f"{col}{r}", value, "formula", POINT_FORMATS[col])
        s.put(f"I{r}", why or ridge_note(r), "note")
        s.validate(f"B{r}", "whole", "Size of the kernel: a whole number from 1 to "
                   "1,000,000,000.", "Kernel size", 1, 1000000000)
    r, end = KERNEL_FIRST, KERNEL_FIRST + len(KERNELS) - 1  # one array formula a column
    same = [i for i, k in enumerate(KERNELS) if k[5] is intensity]
    assert same == list(range(len(same)))  # the kernels of INTENSITY come first
    fill(s.ws, f"E{r}:E{r + len(same) - 1}", intensity(None, Cell(f"C{r}"), Cell(f"D{r}")),
         keep=True)
    fill(s.ws, f"{h['points']}{r}:{h['points']}{end}", on_roof(Cell(f"E{r}"), BF16),
         keep=True)
    fill(s.ws, f"G{r}:G{end}", kernel_time(r), keep=True)
    fill(s.ws, f"H{r}:H{end}", kernel_side(r), keep=True)


def step_flops(active_b, tokens) -> Expr:
    """FLOPs of ``tokens`` through a model of ``active_b`` billion active parameters:
    2 × N_active × 10⁹ × tokens (one multiply and one add a parameter a token)."""
    return 2 * of(active_b) * 1000000000 * of(tokens)


def step_bytes(read_b, precision) -> Expr:
    """Bytes a decode step reads of the weights: WEIGHT_GB(``read_b`` × 10⁹ parameters,
    ``precision``) × 10⁹."""
    return F.WEIGHT_GB(of(read_b) * 1000000000, of(precision)) * 1000000000


def scenario_time(r: int, roof, bandwidth, decode: bool) -> Expr:
    """The time floor of the scenario's row ``r`` [µs]: KERNEL_TIME(FLOPs, bytes, roof,
    bandwidth, "us"). Without a FLOPS figure, the decode step's is its memory floor (a
    roof of 10⁹ TFLOPS) and the prefill's says ``NO_FLOPS``."""
    roof, c, d = of(roof), Cell(f"C{r}"), Cell(f"D{r}")
    if decode:
        return F.KERNEL_TIME(c, d, F.IF(F.ISNUMBER(roof), roof, 1000000000), of(bandwidth),
                             Text("us"))
    return F.IF(F.ISNUMBER(roof), F.KERNEL_TIME(c, d, roof, of(bandwidth), Text("us")),
                Text(NO_FLOPS))


def scenario_side(r: int, ridge) -> Expr:
    """The side of the ridge the scenario's row ``r`` sits: BOUND(intensity, ``ridge``),
    else ``NO_FLOPS``."""
    ridge = of(ridge)
    return F.IF(F.ISNUMBER(ridge), F.BOUND(Cell(f"E{r}"), ridge), Text(NO_FLOPS))


def scenario_note(why: str, gpu, roof, precision) -> Expr:
    """The note of a scenario's row: ``why``, then the roof it sits on: FP8 for weights of
    one byte or less where the GPU has an FP8 figure, else BF16; the memory roof only
    without a FLOPS figure."""
    fp8 = F.AND(F.BYTES_PER_PARAM(of(precision)).le(1), HAS_FP8)
    return words(f"{why}; on the ", of(gpu), "'s ", F.IF(
        F.ISNUMBER(of(roof)), words(F.IF(fp8, Text("FP8"), Text("BF16")), " roof"),
        Text(f"memory roof only ({NO_FLOPS})")))


#: Sizing's cells by their keys (``workbook.sizing.SIZING``), as references from here.
SIZING_CELLS = {k: Cell(f"Sizing!{v}") for k, v in SIZING.items()}
#: The scenario's points: label, unit of its size, what its note says.
SCENARIO_POINTS = [
    ("the scenario's decode step", "sequences",
     "a step at the scenario's batch reads the weights once for all its tokens: each "
     "sequence's, and the prompt tokens it prefills where prefill shares the GPUs"),
    ("the scenario's prefill", "tokens",
     "the prompt's tokens share one read of the weights: far right of the ridge")]


def scenario_row(r: int, i: int) -> dict[str, Expr]:
    """Row ``r`` of the scenario's point ``i`` (0 the decode step, 1 the prefill, from
    Sizing): {column: expression}: its size (the batch, the prompt), FLOPs (``step_flops``
    of the step's tokens or the prompt), bytes (the weights a step reads, all the weights
    for the prefill), intensity, attainable TFLOPS on the roof Sizing uses (hidden, then
    shown), time floor, side of the ridge and the note."""
    z = SIZING_CELLS
    roof, bw, prec = z["roof_tflops"], z["bandwidth"], z["precision"]
    size = z["batch"] if i == 0 else z["prompt"]
    tokens = z["step_tokens"] if i == 0 else z["prompt"]
    nbytes = step_bytes(z["read_b"], prec) if i == 0 else z["weight_gb"] * 1000000000
    return {"B": size, "C": step_flops(z["active_b"], tokens), "D": nbytes,
            "E": intensity(None, Cell(f"C{r}"), Cell(f"D{r}")),
            HELPER["points"]: on_roof(Cell(f"E{r}"), roof, F.ISNUMBER(roof), bw),
            "F": shown(Cell(f"{HELPER['points']}{r}"), NO_FLOPS),
            "G": scenario_time(r, roof, bw, decode=i == 0),
            "H": scenario_side(r, z["ridge_used"]),
            "I": scenario_note(SCENARIO_POINTS[i][2], z["gpu"], roof, prec)}


def _scenario_points(s: Sheet, first: int) -> int:
    """Rows ``first`` and ``first`` + 1: the scenario's decode step and prefill (Sizing) on
    the roof its weights use (FP8 for weights of one byte or less); the last row."""
    z = SIZING_CELLS
    roof, bw = z["roof_tflops"], z["bandwidth"]
    h, points = HELPER["points"], SCENARIO_POINTS
    for i, (label, unit, _why) in enumerate(points):
        r = first + i
        s.put(f"A{r}", label, "label")
        for col, value in scenario_row(r, i).items():
            fmt = f'#,##0 "{unit}"' if col == "B" else POINT_FORMATS.get(col)
            s.put(f"{col}{r}", value, "note" if col == "I" else "formula", fmt)
        for col in "BCDEFGH":
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    r, end = first, first + len(points) - 1  # one array formula a column
    roof, bw = Cell(fixed(roof.ref)), Cell(fixed(bw.ref))
    ridge = Cell(fixed(z["ridge_used"].ref))
    fill(s.ws, f"E{r}:E{end}", intensity(None, Cell(f"C{r}"), Cell(f"D{r}")), keep=True)
    fill(s.ws, f"{h}{r}:{h}{end}", on_roof(Cell(f"E{r}"), roof, F.ISNUMBER(roof), bw),
         keep=True)
    fill(s.ws, f"H{r}:H{end}", scenario_side(r, ridge), keep=True)
    return end


def ridge_note(r: int) -> Expr:
    """The note of kernel row ``r``: whether its intensity reaches the chosen GPU's BF16
    ridge (``RIDGE_BF16``; within 1 % counts as at it), by the GPU's name."""
    def side(where: str, then: str) -> Expr:
        return words(where, GPU, " BF16 ridge (", F.ROUND(RIDGE_BF16, 0),
                     f" FLOP/byte): {then}")
    past = Cell(f"E{r}").ge(0.99 * RIDGE_BF16)
    return F.IF(F.ISNUMBER(RIDGE_BF16), F.IF(
        past, side("at (within 1 %) or past the ", "batching stops being free"),
        side("below the ", "still memory-bound")), words("no BF16 figure for the ", GPU))


def _roofline_chart(s: Sheet, last_kernel: int):
    chart = ScatterChart()
    chart.title = "Roofline of the chosen GPU (log-log)"
    chart.style = 2
    chart.scatterStyle = "lineMarker"
    chart.height, chart.width = 13, 24
    chart.x_axis.title = "Arithmetic intensity (FLOP/byte)"
    chart.y_axis.title = "Attainable TFLOPS"
    for axis, lo, hi in ((chart.x_axis, 0.1, 10000), (chart.y_axis, 0.1, 10000)):
        axis.scaling.logBase = 10
        axis.scaling.min, axis.scaling.max = lo, hi
        axis.delete = False
        axis.number_format = "#,##0.##"
        axis.majorTickMark = "out"
    chart.x_axis.crosses = "min"
    chart.visible_cells_only = False  # its data sits in hidden columns (K..P)
    chart.y_axis.crosses = "min"
    ws = s.ws
    hx = column_index_from_string(HELPER["A"])
    x = Reference(ws, min_col=hx, min_row=ROOF_FIRST, max_row=ROOF_FIRST + 4)
    colors = {2: "1F4E79", 3: "9DC3E6", 4: "C55A11", 6: "7F7F7F"}
    for col in (2, 3, 4, 6):
        helper = column_index_from_string(HELPER[get_column_letter(col)])
        y = Reference(ws, min_col=helper, min_row=ROOF_FIRST, max_row=ROOF_FIRST + 4)
        ser = Series(y, x)
        ser.tx = SeriesLabel(strRef=StrRef(f"'Roofline'!${get_column_letter(col)}$11"))
        ser.marker.symbol = "none"
        ser.smooth = False
        ser.graphicalProperties.line.solidFill = colors[col]
        ser.graphicalProperties.line.width = 28575 if col != 3 else 19050
        if col == 3:
            ser.graphicalProperties.line.dashStyle = "dash"
        chart.series.append(ser)
    palette = ["70AD47", "7030A0", "FF0000", "FFC000", "00B0F0", "000000", "C00000", "002060"]
    symbols = ["circle", "diamond", "triangle", "square", "x", "star", "circle", "diamond"]
    hy = column_index_from_string(HELPER["points"])
    for i, r in enumerate(range(KERNEL_FIRST, last_kernel + 1)):
        ser = Series(Reference(ws, min_col=hy, min_row=r), Reference(ws, min_col=5, min_row=r))
        ser.tx = SeriesLabel(strRef=StrRef(f"'Roofline'!$A${r}"))
        ser.marker.symbol = symbols[i]
        ser.marker.size = 9 if r < KERNEL_FIRST + len(KERNELS) else 13  # the scenario: big
        ser.marker.graphicalProperties.solidFill = palette[i]
        ser.marker.graphicalProperties.line.solidFill = palette[i]
        ser.graphicalProperties.line.noFill = True
        ser.smooth = False  # LibreOffice applies one curve style to the whole chart
        chart.series.append(ser)
    chart.legend.position = "r"
    ws.add_chart(chart, f"A{last_kernel + 4}")

