"""The Assumptions sheet: the numbers that are choices, not facts (rows given as data)."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.styles import Alignment

from udfs.inference import regimes
from workbook.arrays import fill
from workbook.expr import Cell, Expr, F, Name, words
from workbook.model.serving import OUTPUT, PROMPT
from workbook.sheet import (
    CURRENCY,
    Sheet,
    define_name,
    fit_rows,
    read_csv,
)

#: The widths of the meaning and source columns (their text wraps: one page wide).
NOTE_WIDTHS = {"C": 44, "D": 44}


def _wrap_notes(s: Sheet, row: int):
    """Wrap the meaning and source of ``row`` in their columns, the row tall enough."""
    for col in NOTE_WIDTHS:
        s.ws[f"{col}{row}"].alignment = Alignment(wrap_text=True, vertical="top")
    fit_rows(s, row, row, NOTE_WIDTHS)

#: name -> (row, label, default, format, validation (kind, lo, hi), meaning, source).
#: A label may be an expression (the currency in it: ``words``); the prompt then uses
#: ``plain``. A default that is an expression is a figure computed from the scenario (no
#: validation).
ASSUMPTIONS = {
    "ROOF_EFFICIENCY": (5, "Roof efficiency", 0.8, "pct", ("decimal", 0.01, 1),
                        "Share of the datasheet compute peak reached in practice",
                        "Reference §6: real roof ≈ 80 % of peak (0.8 × 989 ≈ 791 TFLOPS, "
                        "H100 ridge moves in to ≈ 236)"),
    "RESERVE": (6, "Memory reserve", 0, "pct", ("decimal", 0, 0.95),
                "Share of GPU memory held back for activations and runtime (the KV "
                "cache is counted separately)", "Assumption: 0 keeps the reference's "
                "'fits' (weights ≤ capacity); 0.1 is a cautious choice"),
}
FINANCE_TOP = 15  # section row of the calibration and finance assumptions
FINANCE_ASSUMPTIONS = {
    "EFF_DEFAULT": (17, "Shown when Calibration is empty",
                    0.7, "pct", ("decimal", 0.01, 1),
                    "Shown as Calibration's average (CAL_EFFICIENCY) while none of its rows "
                    "is counted; no answer uses it. Sizing, Cost, Finance, Frontier and Plan "
                    "use REGIME_EFFICIENCY of the deployment (between the regimes' anchors "
                    "below) + the per-layer time, scaled to a GPU's own measurements",
                    "Assumption (no source): measure and enter it on the Calibration sheet "
                    "instead"),
    "INPUT_PER_OUTPUT": (19, "Input tokens per output token",
                         PROMPT / OUTPUT, '0.0" : 1"', None,
                         "The traffic mix: prompt tokens read per token generated, the "
                         "scenario's prompt ÷ output tokens per request",
                         "Computed from the scenario (Sizing): change the prompt or output "
                         "tokens there"),
    "CAPEX": (20, words("Purchase price if the GPU has none (", CURRENCY, ")"), 30000, "#,##0",
              ("decimal", 0, 10000000),
              "One GPU of the type chosen on Sizing, with its share of the server and "
              "network", "Assumption: a rough level for an H100-class GPU; use your quote",
              "Purchase price per GPU"),
    "YEARS": (21, "Write-off period", 4, '0.0 "years"', ("decimal", 0.5, 20),
              "Years over which the purchase is spread (amortised)",
              "Assumption: servers are commonly written off over 3 to 5 years"),
    "PUE": (22, "PUE", 1.3, "0.00", ("decimal", 1, 3),
            "Power usage effectiveness: facility power ÷ IT power (cooling, losses)",
            "Assumption: a typical modern data centre (about 1.1 at hyperscalers, 1.5 or "
            "more in older rooms)"),
    "KWH_PRICE": (23, words("Electricity price per kWh (", CURRENCY, ")"), 0.12, "0.000",
                  ("decimal", 0, 10), "What one kWh costs you",
                  "Assumption: an order of magnitude for an industrial tariff; use yours",
                  "Electricity price per kWh"),
    "API_INPUT_PRICE": (24, words("API price per million input tokens (", CURRENCY, ")"), 0.13,
                        "money", ("decimal", 0, 10000),
                        "What the hosted API you compare with charges for the prompt's "
                        "tokens",
                        "Example: DeepInfra's list price for Llama 3.1 70B Instruct Turbo in "
                        "FP8, the default scenario's model, 0.13 in / 0.40 out per million "
                        "tokens (deepinfra.com/meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo, "
                        "seen 3 Dec 2026); not a quote: enter your provider's price",
                        "API price per million input tokens"),
    "API_OUTPUT_PRICE": (25, words("API price per million output tokens (", CURRENCY, ")"), 0.40,
                         "money", ("decimal", 0.0001, 10000),
                         "What the same API charges for each generated token",
                         "Example: the same list price (see the row above)",
                         "API price per million output tokens"),
}
RANGES_TOP = 26  # section row of the low/high ranges
RANGE_ASSUMPTIONS = {
    "EFF_LOW": (28, "Efficiency, low", 0.5, "pct", ("decimal", 0.01, 1),
                "Cautious end of the efficiency range; the base is the efficiency Sizing "
                "uses (its regime's, scaled to the GPU's measurements on Calibration)",
                "Assumption: set it from the spread of your "
                "measurements"),
    "EFF_HIGH": (29, "Efficiency, high", 0.9, "pct", ("decimal", 0.01, 1),
                 "Optimistic end of the efficiency range (1 = the floor itself, + the layers' "
                 "time as Sizing takes it)",
                 "Assumption: set it from the spread of your measurements"),
    "UTIL_LOW": (30, "Utilization, low", 0.4, "pct", ("decimal", 0.01, 1),
                 "Cautious end; the base is the utilization above",
                 "Assumption (no source)"),
    "UTIL_HIGH": (31, "Utilization, high", 0.8, "pct", ("decimal", 0.01, 1),
                  "Optimistic end of the utilization range", "Assumption (no source)"),
    "PRICE_LOW": (32, "Price per GPU-hour, low", 0.7, "x", ("decimal", 0.01, 100),
                  "Cheap end, as a multiple of the price used on Sizing (base × 1)",
                  "Public H100 on-demand rates 2026 span about 1.99 to 5.00 around a 2.95 "
                  "median (GPUs sheet, column M): × 0.7 to × 1.7"),
    "PRICE_HIGH": (33, "Price per GPU-hour, high", 1.7, "x", ("decimal", 0.01, 100),
                   "Dear end, as a multiple of the price used on Sizing",
                   "As the low end"),
}
PRECISION_FIRST = 37


def _assumption_rows(wb: Workbook, s: Sheet, table: dict):
    for name, (row, label, default, fmt, valid, meaning, source, *plain) in table.items():
        kind, lo, hi = valid or (None, None, None)
        plain = plain[0] if plain else label
        s.put(f"A{row}", label, "label")
        computed = isinstance(default, Expr)
        s.put(f"B{row}", default, "formula" if computed else "input", fmt)
        s.put(f"C{row}", meaning, "note")
        s.put(f"D{row}", source, "note")
        _wrap_notes(s, row)
        define_name(wb, name, s.title, f"$B${row}")
        prompt = f"{plain}: {meaning}."
        if computed:  # a figure the scenario gives, not an input
            continue
        if kind == "text":
            s.validate(f"B{row}", "text", prompt, plain, lo, hi)
        else:
            what = "fraction" if fmt == "pct" else ("whole number" if kind == "whole"
                                                     else "number")
            s.validate(f"B{row}", kind, f"{prompt} A {what} from {lo:g} to {hi:g}.",
                       plain, lo, hi)


def sheet_assumptions(wb: Workbook) -> Sheet:
    """Assumptions: one place for the numbers that are choices, not facts.

    Rows 5..6, column B (INPUT, each a named cell): ROOF_EFFICIENCY 0.8, RESERVE; row 8
    says where the scenario's inputs are (Sizing: traffic, batch, utilization, hours,
    currency, prompt and output tokens; one place).
    Rows 17..25: calibration and finance: EFF_DEFAULT, INPUT_PER_OUTPUT (computed: the
    scenario's prompt ÷ output tokens), CAPEX, YEARS, PUE, KWH_PRICE, API_INPUT_PRICE,
    API_OUTPUT_PRICE (row 25; Finance names API_PRICE, their price per million output
    tokens with the prompts that come with them).
    Rows 28..33: the ranges (low and high around a base): EFF_LOW/EFF_HIGH (base: the
    Calibration sheet's efficiency), UTIL_LOW/UTIL_HIGH (base: UTILIZATION),
    PRICE_LOW/PRICE_HIGH (multiples of the price used on Sizing).
    C says what it means, D where the default comes from.
    Rows 37..: the number formats of the precision dropdowns (PRECISION_NAME, bytes per
    parameter = BYTES_PER_PARAM(name)), from udfs/data/precisions.csv.
    """
    s = Sheet(wb, "Assumptions", {"A": 30, "B": 22, **NOTE_WIDTHS, "E": 12, "F": 14,
                                  "G": 13})
    s.title_rows("Assumptions: the choices behind the results",
                 "Change the yellow cells; every sheet follows. Facts (datasheets, configs) "
                 "are on the GPUs and Models sheets.")
    s.header(4, ["Assumption", "Value", "Meaning", "Default from"])
    _assumption_rows(wb, s, ASSUMPTIONS)
    s.put("A8", "The scenario's inputs (model, GPU, traffic, batch, prompt and output tokens, "
                "price, hours per month, utilization, currency) are at the top of the Sizing "
                "sheet: one place, every sheet reads them.", "note")
    s.section(FINANCE_TOP, "Calibration and cost as finance models it (Calibration and "
                           "Finance sheets)", "D")
    s.header(FINANCE_TOP + 1, ["Assumption", "Value", "Meaning", "Default from"])
    _assumption_rows(wb, s, FINANCE_ASSUMPTIONS)
    s.section(RANGES_TOP, "Ranges: a low and a high value around each base (Finance: "
                          "bands and tornado)", "D")
    s.header(RANGES_TOP + 1, ["Range end", "Value", "Meaning", "Default from"])
    _assumption_rows(wb, s, RANGE_ASSUMPTIONS)
    s.section(PRECISION_FIRST - 2, "Number formats (the precision dropdowns)", "D")
    s.header(PRECISION_FIRST - 1, ["Precision", "Bytes per parameter", "Source", "Notes"])
    rows = read_csv("udfs", "precisions.csv")
    for i, row in enumerate(rows):
        r = PRECISION_FIRST + i
        s.put(f"A{r}", row["name"], "data")
        s.put(f"B{r}", F.BYTES_PER_PARAM(Cell(f"A{r}")), "formula", "0.00###")
        s.put(f"C{r}", row["source"], "note")
        s.put(f"D{r}", row["notes"], "note")
        _wrap_notes(s, r)
    last = PRECISION_FIRST + len(rows) - 1
    fill(s.ws, f"B{PRECISION_FIRST}:B{last}", F.BYTES_PER_PARAM(Cell(f"A{PRECISION_FIRST}")),
         keep=True)
    define_name(wb, "PRECISION_NAME", s.title, f"$A${PRECISION_FIRST}:$A${last}")
    _regime_table(wb, s, last + 3)
    return s


def _regime_table(wb: Workbook, s: Sheet, top: int):
    """The anchor of each serving regime (section at row ``top``), from
    ``udfs/data/efficiency.csv`` (``udfs.inference.regimes``): name, efficiency, rule and how it was
    made (with the GPUs and batches of its measurements), its sources; REGIME_NAME and
    REGIME_EFF name the first two columns (Sizing finds there the regime whose anchor a
    REGIME_EFFICIENCY is), REGIME_EFF_MAX and REGIME_EFF_MIN their highest and lowest
    efficiency (REGIME_EFFICIENCY stays between them: the bounds of Plan's search); below,
    the per-layer time of ``udfs/data/layer_time.csv`` (LAYER_OVERHEAD_MS's default), an
    input named LAYER_TIME_US that Sizing's layers' time reads."""
    s.section(top, "Efficiency by serving regime, without measurements (REGIME_EFFICIENCY: "
                   "these anchors, made from published deployments, and linear in "
                   "ln(batch) between them)", "D")
    s.header(top + 1, ["Regime", "Anchor efficiency", "Rule; how it was made",
                       "Software, dates and sources", "Measured ÷ realistic, low",
                       "high (80 % between, out of sample)", "Measurements"], height=45)
    first = top + 2
    rows, ranges = list(regimes.table().values()), regimes.estimate_range()
    for i, row in enumerate(rows):
        r, span = first + i, ranges[row["regime"]]
        s.put(f"A{r}", row["regime"], "data")
        s.put(f"B{r}", float(row["efficiency"]), "data", "pct")
        s.put(f"C{r}", f"{row['rule']}. {row['derivation']}", "note")
        s.put(f"D{r}", f"{row['software']}; {row['dates']}; {row['sources']}", "note")
        s.put(f"E{r}", float(span["low"]), "data", "0.00")
        s.put(f"F{r}", float(span["high"]), "data", "0.00")
        s.put(f"G{r}", int(span["rows"]), "data", "0")
    last = first + len(rows) - 1
    made = next(r for r in ranges.values() if r["method"] != "as above")
    s.put(f"C{last + 1}", f"E, F: {made['method']} ({made['checked']}).", "note")
    _wrap_notes(s, last + 1)
    for col, name in (("A", "REGIME_NAME"), ("B", "REGIME_EFF"), ("E", "REGIME_RANGE_LOW"),
                      ("F", "REGIME_RANGE_HIGH"), ("G", "REGIME_RANGE_ROWS")):
        define_name(wb, name, s.title, f"${col}${first}:${col}${last}")
    # the range's bounds in cells of their own: Plan's batch search reads them (a whole
    # range inside an array formula of the same height reads as one value a cell)
    for r, (label, bound, name) in enumerate((("Highest", F.MAX, "REGIME_EFF_MAX"),
                                               ("Lowest", F.MIN, "REGIME_EFF_MIN")), last + 1):
        s.put(f"A{r}", f"{label} default efficiency", "formula")
        s.put(f"B{r}", bound(Name("REGIME_EFF")), "formula", "pct")
        define_name(wb, name, s.title, f"$B${r}")
    # the time each layer adds beyond the floor (LAYER_OVERHEAD_MS), with how it was made
    r, fixed = last + 3, regimes.layer_time()
    s.put(f"A{r}", "Per-layer time, µs (LAYER_OVERHEAD_MS)", "label")
    s.put(f"B{r}", float(fixed["layer_time_us"]), "input", '0.0 "µs"')
    s.validate(f"B{r}", "decimal", "Per-layer time: what each layer of a decode step adds "
               "beyond its floor, in µs (the default is fitted on published measurements). A "
               "number from 0 to 10000.", "Per-layer time", 0, 10000)
    s.put(f"C{r}", f"{fixed['rule']}: realistic = floor ÷ efficiency + layers × this. "
                   f"{fixed['derivation']}", "note")
    s.put(f"D{r}", fixed["sources"], "note")
    define_name(wb, "LAYER_TIME_US", s.title, f"$B${r}")
    # the period the defaults describe: the dates of the measurements they are made from
    earliest, latest = regimes.period()
    s.put(f"A{r + 1}", "Period the defaults describe", "label")
    s.put(f"B{r + 1}", f"{earliest} to {latest}", "data")
    s.put(f"C{r + 1}", f"The anchors and the per-layer time are made from measurements "
                       f"published from {earliest} to {latest} (each regime's software and "
                       "dates: column D above). Out of sample the set shows no speed-up by the "
                       "year of its sources (docs/measurements.md, \"Software vintage\"); "
                       f"serving software newer than {latest} may be faster: a measurement "
                       "of your own on Calibration replaces the default.", "note")
    _wrap_notes(s, r + 1)

