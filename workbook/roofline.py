"""The Roofline sheet: the chosen GPU's roofs and the reference kernels, log-log chart."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.chart.series import SeriesLabel, StrRef
from openpyxl.styles import Alignment
from openpyxl.utils import column_index_from_string, get_column_letter

from workbook.arrays import fill, fixed
from workbook.sheet import (
    NO_FLOPS,
    Sheet,
    empty_says,
)
from workbook.sizing import SIZING

ROOF_FIRST = 12   # rows 12..16: the roof points
KERNEL_FIRST = 21  # rows 21..26: the reference kernels, 27..28 the scenario's points
#: Hidden columns with the chart's data, #N/A where a line or point is left out (a text
#: value would plot as 0): the roofs' x and y (under A, B, C, D, F) and the points' y (F).
HELPER = {"A": "K", "B": "L", "C": "M", "D": "N", "F": "O", "points": "P"}
KERNELS = [  # label, size label, size, FLOPs formula, bytes formula, intensity formula
    ("y = x × 2 (BF16)", "elements", 16777216, "={s}", "=4*{s}", "=INTENSITY({f},{b})",
     "1 FLOP per 2 bytes read + 2 written: I = 0.25"),
    ("softmax (BF16)", "elements", 16777216, "=5*{s}", "=4*{s}", "=INTENSITY({f},{b})",
     "≈ 5 FLOPs per element (max, subtract, exp, sum, divide) over 4 bytes"),
    ("decode GEMM, batch 1", "batch B", 1, "=2*{s}*$B$8*$B$9", "=2*$B$8*$B$9",
     "=INTENSITY({f},{b})", "B token vectors × a D × F BF16 weight matrix: I ≈ B"),
    ("decode GEMM, batch 64", "batch B", 64, "=2*{s}*$B$8*$B$9", "=2*$B$8*$B$9",
     "=INTENSITY({f},{b})", "still memory-bound: 64 tokens in about the time of 1"),
    ("decode GEMM, batch 295", "batch B", 295, "=2*{s}*$B$8*$B$9", "=2*$B$8*$B$9",
     "=INTENSITY({f},{b})", None),  # None: the note says where the chosen GPU's ridge is
    ("matmul 4096³ (BF16)", "N", 4096, "=2*{s}^3", "=3*2*{s}^2",
     "=MATMUL_INTENSITY({s},{s},{s})", "2N³ ÷ (3 × 2N²) = N/3 ≈ 1,365: on the roof"),
]


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
        ("B3", "GPU (Sizing)", f"={sz['gpu']}", None, "formula"),
        ("B4", "Memory bandwidth", f"={sz['bandwidth']}", "tbps", "formula"),
        ("B5", "BF16 dense peak", f"={sz['bf16']}", "tflops", "formula"),
        ("B6", "FP8 dense peak", f"={sz['fp8']}", "tflops", "formula"),
        ("B7", "Roof efficiency", "=ROOF_EFFICIENCY", "pct", "formula"),
        ("B8", "Decode GEMM: D (model width)", 8192, "count", "input"),
        ("B9", "Decode GEMM: F (output width)", 8192, "count", "input"),
    ]
    for cell, label, value, fmt, style in rows:
        s.line(cell, label, value, style, fmt, note_col=None, right=False)
    s.validate("B8:B9", "whole", "Width of the weight matrix: a whole number from 1 to "
               "1,000,000.", "Matrix width", 1, 1000000)
    s.put("C4", empty_says("B4", "GPU"), "note")
    s.put("C5", '=IF(ISNUMBER(B5),"","no BF16 figure for this GPU: its roof and the kernels '
                'on it are not drawn")', "note")
    s.put("C6", '=IF(ISNUMBER(B6),"","no FP8 figure for this GPU: the FP8 roof is not drawn; '
                'the BF16 roof still is")', "note")

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


def _roofs(s: Sheet) -> None:
    """Rows 10..16: the roofs at chosen intensities (the chart's lines, hidden columns)."""
    s.section(10, "The roofs (data of the chart's lines; a line this GPU has no figure "
                  "for is left out of the chart)", "F")
    s.header(11, ["Intensity (FLOP/byte)", "BF16 roof (TFLOPS)",
                  "BF16 roof × efficiency (TFLOPS)", "FP8 roof (TFLOPS)", "Point",
                  "Memory roof only (no FLOPS figure)"])
    bf, fp = "ISNUMBER($B$5)", "ISNUMBER($B$6)"
    xs = [("0.1", "left edge"),
          (f"=IF({bf},RIDGE($B$5,$B$4,$B$7),NA())", "ridge, BF16 × efficiency"),
          (f"=IF({bf},RIDGE($B$5,$B$4),NA())", "ridge, BF16"),
          (f"=IF({fp},RIDGE($B$6,$B$4),IF({bf},RIDGE($B$5,$B$4),NA()))", "ridge, FP8"),
          ("10000", "right edge")]
    h = HELPER
    for i, (x, what) in enumerate(xs):
        r = ROOF_FIRST + i
        x = float(x) if x[0] != "=" else x
        data = {  # the chart's data, hidden; the table shows the numbers or words
            "A": (x, "#,##0.0##"),
            "B": (f"=IF({bf},ATTAINABLE({h['A']}{r},$B$5,$B$4),NA())", "#,##0.00"),
            "C": (f"=IF({bf},ATTAINABLE({h['A']}{r},$B$5*$B$7,$B$4),NA())", "#,##0.00"),
            "D": (f"=IF({fp},ATTAINABLE({h['A']}{r},$B$6,$B$4),NA())", "#,##0.00"),
            "F": (f"=IF(OR({bf},{fp}),NA(),{h['A']}{r}*$B$4)", "#,##0.00")}
        for col, (formula, fmt) in data.items():
            s.put(f"{h[col]}{r}", formula, "formula", fmt)
            words = "not drawn" if col == "F" else "no figure"
            s.put(f"{col}{r}", f'=IF(ISNUMBER({h[col]}{r}),{h[col]}{r},"{words}")', "formula",
                  fmt)
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
        s.put(f"E{r}", what, "note")
    r, end = ROOF_FIRST, ROOF_FIRST + len(xs) - 1  # one array formula a hidden column
    for col, peak, test in (("B", "$B$5", bf), ("C", "$B$5*$B$7", bf), ("D", "$B$6", fp)):
        fill(s.ws, f"{h[col]}{r}:{h[col]}{end}",
             f"=IF({test},ATTAINABLE({h['A']}{r},{peak},$B$4),NA())", keep=True)


def _kernels(s: Sheet) -> None:
    """Rows from ``KERNEL_FIRST``: the reference kernels (the chart's points)."""
    bf, h = "ISNUMBER($B$5)", HELPER
    s.section(KERNEL_FIRST - 2, "The reference kernels (data of the chart's points), "
                                "on the BF16 roof", "I")
    s.header(KERNEL_FIRST - 1, ["Kernel", "Size (input)", "FLOPs", "Bytes moved",
                                "Intensity (FLOP/byte)", "Attainable (TFLOPS)",
                                "Time floor (µs)", "Side of the BF16 ridge", "Why"])
    for i, (label, size_label, size, flops, nbytes, inten, why) in enumerate(KERNELS):
        r = KERNEL_FIRST + i
        s.put(f"A{r}", label, "label")
        s.put(f"B{r}", size, "input", f'#,##0 "{size_label}"')
        s.put(f"C{r}", flops.format(s=f"B{r}"), "formula", "#,##0")
        s.put(f"D{r}", nbytes.format(s=f"B{r}"), "formula", "#,##0")
        s.put(f"E{r}", inten.format(s=f"B{r}", f=f"C{r}", b=f"D{r}"), "formula", "#,##0.00")
        s.put(f"{h['points']}{r}", f"=IF({bf},ATTAINABLE(E{r},$B$5,$B$4),NA())", "formula",
              "#,##0.00")
        s.put(f"F{r}", f'=IF(ISNUMBER({h["points"]}{r}),{h["points"]}{r},"no BF16 figure")',
              "formula", "#,##0.00")
        s.put(f"G{r}", f'=IF({bf},KERNEL_TIME(C{r},D{r},$B$5,$B$4,"us"),"no BF16 figure")',
              "formula", "#,##0.00")
        s.put(f"H{r}", f'=IF({bf},BOUND(E{r},$A${ROOF_FIRST + 2}),"no BF16 figure")',
              "formula")
        s.put(f"I{r}", why or _ridge_note(r), "note")
        s.validate(f"B{r}", "whole", "Size of the kernel: a whole number from 1 to "
                   "1,000,000,000.", "Kernel size", 1, 1000000000)
    r, end = KERNEL_FIRST, KERNEL_FIRST + len(KERNELS) - 1  # one array formula a column
    same = [i for i, k in enumerate(KERNELS) if k[5] == "=INTENSITY({f},{b})"]
    assert same == list(range(len(same)))  # the kernels of INTENSITY come first
    fill(s.ws, f"E{r}:E{r + len(same) - 1}", f"=INTENSITY(C{r},D{r})", keep=True)
    fill(s.ws, f"{h['points']}{r}:{h['points']}{end}",
         f"=IF({bf},ATTAINABLE(E{r},$B$5,$B$4),NA())", keep=True)
    fill(s.ws, f"G{r}:G{end}", f'=IF({bf},KERNEL_TIME(C{r},D{r},$B$5,$B$4,"us"),'
         '"no BF16 figure")', keep=True)
    fill(s.ws, f"H{r}:H{end}", f'=IF({bf},BOUND(E{r},$A${ROOF_FIRST + 2}),"no BF16 figure")',
         keep=True)


def _scenario_points(s: Sheet, first: int) -> int:
    """Rows ``first`` and ``first`` + 1: the scenario's decode step and prefill (Sizing) on
    the roof its weights use (FP8 for weights of one byte or less); the last row."""
    z = {k: f"Sizing!{v}" for k, v in SIZING.items()}
    roof, bw, prec = z["roof_tflops"], z["bandwidth"], z["precision"]
    active = f"{z['active_b']}*1000000000"
    points = [
        ("the scenario's decode step", f"={z['batch']}", "sequences",
         f"=2*{active}*{z['step_tokens']}",
         f"=WEIGHT_GB({z['read_b']}*1000000000,{prec})*1000000000",
         "a step at the scenario's batch reads the weights once for all its tokens: each "
         "sequence's, and the prompt tokens it prefills where prefill shares the GPUs"),
        ("the scenario's prefill", f"={z['prompt']}", "tokens", f"=2*{active}*{z['prompt']}",
         f"={z['weight_gb']}*1000000000",
         "the prompt's tokens share one read of the weights: far right of the ridge"),
    ]
    h = HELPER["points"]
    times = [  # without a FLOPS figure: the decode step's memory floor, no prefill time
        f'=KERNEL_TIME(C{first},D{first},IF(ISNUMBER({roof}),{roof},1000000000),{bw},"us")',
        f'=IF(ISNUMBER({roof}),KERNEL_TIME(C{first + 1},D{first + 1},{roof},{bw},"us"),'
        f'"{NO_FLOPS}")']
    for i, (label, size, unit, flops, nbytes, why) in enumerate(points):
        r = first + i
        s.put(f"A{r}", label, "label")
        s.put(f"B{r}", size, "formula", f'#,##0 "{unit}"')
        s.put(f"C{r}", flops, "formula", "#,##0")
        s.put(f"D{r}", nbytes, "formula", "#,##0")
        s.put(f"E{r}", f"=INTENSITY(C{r},D{r})", "formula", "#,##0.00")
        s.put(f"{h}{r}", f"=IF(ISNUMBER({roof}),ATTAINABLE(E{r},{roof},{bw}),NA())",
              "formula", "#,##0.00")
        s.put(f"F{r}", f'=IF(ISNUMBER({h}{r}),{h}{r},"no FLOPS figure")', "formula",
              "#,##0.00")
        s.put(f"G{r}", times[i], "formula", "#,##0.00")
        s.put(f"H{r}", f'=IF(ISNUMBER({z["ridge_used"]}),BOUND(E{r},{z["ridge_used"]}),'
                       '"no FLOPS figure")', "formula")
        s.put(f"I{r}", f'="{why}; on the "&{z["gpu"]}&"\'s "&IF(ISNUMBER({roof}),IF(AND('
                       f'BYTES_PER_PARAM({prec})<=1,ISNUMBER($B$6)),"FP8","BF16")&" roof",'
                       f'"memory roof only ({NO_FLOPS})")', "note")
        for col in "BCDEFGH":
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
    r, end = first, first + len(points) - 1  # one array formula a column
    roof, bw, ridge = fixed(roof), fixed(bw), fixed(z["ridge_used"])
    fill(s.ws, f"E{r}:E{end}", f"=INTENSITY(C{r},D{r})", keep=True)
    fill(s.ws, f"{h}{r}:{h}{end}", f"=IF(ISNUMBER({roof}),ATTAINABLE(E{r},{roof},{bw}),NA())",
         keep=True)
    fill(s.ws, f"H{r}:H{end}", f'=IF(ISNUMBER({ridge}),BOUND(E{r},{ridge}),"no FLOPS figure")',
         keep=True)
    return end


def _ridge_note(r: int) -> str:
    """The note of kernel row ``r``: whether its intensity reaches the chosen GPU's BF16
    ridge (column A, row ROOF_FIRST + 2; within 1 % counts as at it), by the GPU's name
    (a formula)."""
    ridge = f"$A${ROOF_FIRST + 2}"
    at = f'" BF16 ridge ("&ROUND({ridge},0)&" FLOP/byte)'
    return (f'=IF(ISNUMBER({ridge}),IF(E{r}>=0.99*{ridge},"at (within 1 %) or past the "&'
            f'$B$3&{at}: batching stops being free","below the "&$B$3&{at}: still '
            f'memory-bound"),"no BF16 figure for the "&$B$3)')


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

