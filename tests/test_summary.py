"""The Summary sheet (``workbook.summary``): every figure it shows is the value of the
defined name it reads (SCENARIO_*, RESULT_*) once ``napkin calc`` has computed the
workbook, in both editions and for a scenario other than the default; its chart is the
Cost sheet's cheapest GPUs; LibreOffice prints it on exactly one page."""

from __future__ import annotations

import re
import shutil
import subprocess

import openpyxl
import pytest
from scenario_support import cell_of, close, named
from template_support import ROOT, napkin_calc, values

from workbook.cost import CHART, COST_FIRST
from workbook.summary import BARS, BARS_FIRST, CHEAPEST, SUMMARY, SUMMARY_NAMES, TITLE

pytestmark = pytest.mark.xml

BOOKS = {"lite": ROOT / "workbook" / "napkin.xlsx",
         "native": ROOT / "workbook" / "napkin-native.xlsx"}
#: A scenario unlike the default: a mixture of experts on another GPU, in another
#: precision, with another traffic (typed into the scenario's cells).
OTHER = {"SCENARIO_MODEL": "DeepSeek-V3", "SCENARIO_GPU": "NVIDIA H200 SXM",
         "SCENARIO_PRECISION": "FP8", "SCENARIO_OUTPUT_TOKENS_PER_DAY": 2_000_000_000,
         "SCENARIO_UTILIZATION": 0.5}


@pytest.fixture(scope="module", params=sorted(BOOKS))
def edition(request, tmp_path_factory):
    """(the workbook as openpyxl reads it, its values after napkin calc), per edition:
    the committed file, computed again as a user runs it."""
    tmp = tmp_path_factory.mktemp(request.param)
    out = tmp / "computed.xlsx"
    napkin_calc(BOOKS[request.param], out)
    return openpyxl.load_workbook(BOOKS[request.param]), values(out)


@pytest.fixture(scope="module")
def other(tmp_path_factory):
    """The native edition with ``OTHER`` typed into the scenario, computed by napkin calc."""
    tmp = tmp_path_factory.mktemp("other")
    book = openpyxl.load_workbook(BOOKS["native"])
    for name, value in OTHER.items():
        sheet, cell = cell_of(book, name)
        book[sheet][cell] = value
    src = tmp / "other.xlsx"
    book.save(src)
    napkin_calc(src, tmp / "computed.xlsx")
    return book, values(tmp / "computed.xlsx")


def _same_as_names(book, v) -> int:
    shown = v[TITLE]
    for key, name in SUMMARY_NAMES.items():
        want = named(v, book, name)
        assert want is not None, name
        assert close(shown.get(SUMMARY[key]), want), (key, name, shown.get(SUMMARY[key]), want)
    return len(SUMMARY_NAMES)


def test_every_figure_is_its_defined_names_value(edition):
    book, v = edition
    assert _same_as_names(book, v) == 23  # 14 of the scenario, 9 of the answer
    assert {n for n in SUMMARY_NAMES.values()} >= {
        "RESULT_COST_PER_MTOK", "RESULT_COST_PER_MTOK_LOW", "RESULT_COST_PER_MTOK_HIGH",
        "RESULT_GPUS", "RESULT_MONTHLY_COST", "RESULT_STEP_MS",
        "RESULT_TOKENS_PER_SEC_PER_USER", "SCENARIO_MODEL", "SCENARIO_PRECISION",
        "SCENARIO_GPU", "SCENARIO_OUTPUT_TOKENS_PER_DAY", "SCENARIO_PRICE_PER_GPU_HOUR"}
    # the default scenario's headline, as the README states it (the month's bill ÷ the
    # month's output tokens: 38,789.55 ÷ (100 M/day × 730.5 h ÷ 24 h) = 12.74)
    s = v[TITLE]
    assert s[SUMMARY["model"]] == "Llama 3.1 70B" and s[SUMMARY["gpu"]] == "NVIDIA H100 SXM"
    assert round(s[SUMMARY["monthly"]], 2) == 38789.55
    assert round(s[SUMMARY["headline"]], 2) == round(38789.55 / (1e8 * 730.5 / 24) * 1e6, 2)
    assert s[SUMMARY["low"]] <= s[SUMMARY["headline"]] <= s[SUMMARY["high"]]


def test_another_scenario_too(other):
    book, v = other
    assert _same_as_names(book, v) == 23
    s = v[TITLE]
    assert s[SUMMARY["model"]] == "DeepSeek-V3" and s[SUMMARY["gpu"]] == "NVIDIA H200 SXM"
    # GPUs in total = replicas × GPUs per replica (Sizing's rule, read twice here)
    assert s[SUMMARY["gpus_total"]] == s[SUMMARY["replicas"]] * s[SUMMARY["gpus"]]


def _cheapest(v) -> list[tuple[str, float]]:
    """The Cost sheet's GPUs with a cost per million output tokens (its column R), sorted
    in Python, cheapest first (ties in the table's order)."""
    cost = v["Cost"]
    rows = [(cost.get(f"A{r}"), cost.get(f"R{r}")) for r in range(COST_FIRST, COST_FIRST + 60)]
    return sorted([(n, c) for n, c in rows if n and isinstance(c, float | int)],
                  key=lambda nc: nc[1])


@pytest.mark.parametrize("case", ["default", "other"])
def test_the_chart_and_the_rank_are_the_cost_sheets(case, edition, other):
    """The chart's bars are the Cost sheet's ``CHEAPEST`` cheapest GPUs, cheapest first,
    the scenario's GPU (and only it) in the second series, and the sentence under the
    answer ranks the scenario's GPU among the priced ones as the Cost sheet's column R
    sorted here does."""
    book, v = edition if case == "default" else other
    ws = book[TITLE]
    [chart] = ws._charts
    last = COST_FIRST + CHEAPEST - 1
    cats = chart.series[0].cat
    cats = (cats.strRef or cats.numRef).f
    assert cats == f"'Cost'!${CHART['name']}${COST_FIRST}:${CHART['name']}${last}"
    end = BARS_FIRST + CHEAPEST - 1
    assert [sr.val.numRef.f for sr in chart.series] == [
        f"'{TITLE}'!${col}${BARS_FIRST}:${col}${end}" for col in BARS.values()]
    assert all(ws.column_dimensions[col].hidden for col in BARS.values())
    ranked = _cheapest(v)
    assert len(ranked) >= CHEAPEST
    gpu = v[TITLE][SUMMARY["gpu"]]
    s = v[TITLE]
    for i, (name, cost) in enumerate(ranked[:CHEAPEST]):
        assert v["Cost"][f"{CHART['name']}{COST_FIRST + i}"] == name
        others, mine = (s[f"{col}{BARS_FIRST + i}"] for col in BARS.values())
        bar, gap = (mine, others) if name == gpu else (others, mine)
        assert close(bar, cost) and gap == "#N/A", (name, others, mine)
    rank = [n for n, _ in ranked].index(gpu) + 1
    said = [t for t in v[TITLE].values() if isinstance(t, str) and "ranks" in t]
    assert said == [f"The scenario's GPU ranks {rank} of {len(ranked)} priced GPUs by cost "
                    "(1 = cheapest); the Cost sheet lists every GPU."]


# ------------------------------------------------------------------------ LibreOffice
@pytest.mark.skipif(not (shutil.which("soffice") and shutil.which("pdftotext")),
                    reason="needs LibreOffice and pdftotext")
@pytest.mark.parametrize("name", sorted(BOOKS))
def test_libreoffice_prints_the_summary_on_one_page(name, printed):
    """LibreOffice's PDF of the workbook, as a user prints it (``printed``: one for the
    run, shared with tests/test_print.py): the pages from the Summary's title to the next
    sheet's (Sizing's) are one, and none of its cells prints ``###`` (a number wider than
    its column)."""
    path = BOOKS[name]
    text = subprocess.run(["pdftotext", "-layout", str(printed(path)), "-"],
                          capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")
    title = openpyxl.load_workbook(BOOKS["native"])[TITLE]["A1"].value
    first = [i for i, p in enumerate(pages) if title in p]
    sizing = [i for i, p in enumerate(pages) if "Sizing: the answer for one deployment" in p]
    assert len(first) == 1 and sizing, (first, sizing)
    assert sizing[0] - first[0] == 1  # exactly one page
    page = pages[first[0]]
    assert "###" not in page
    for words in ("The scenario (Sizing)", "The answer (Sizing)", "Range, high end",
                  "Hours per month", "First token"):
        assert words in page, words
    if name == "native":  # computed in LibreOffice: the figures and the chart's names
        assert "12.74" in page and "38,789.55" in page
        # the cheapest GPU's bar, named and labelled with its cost as Cost sorts it (the
        # committed edition's cached values, which napkin calc computed)
        cost = openpyxl.load_workbook(BOOKS["native"], data_only=True)["Cost"]
        name, value = cost[f"W{COST_FIRST}"].value, cost[f"X{COST_FIRST}"].value
        assert re.search(re.escape(name) + rf"\s+{value:.2f}", page), (name, value)
