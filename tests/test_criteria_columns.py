"""COUNTIF, COUNTIFS, SUMIF, SUMIFS, AVERAGEIF and AVERAGEIFS over tall ranges of columns
without formulas match each criterion over the column once
(``addin.excel.criteria_columns``): the same values and refusals as the functions
computed on each formula's own ranges, and the work counted as it is done
(``addin.engine.budget``)."""

from __future__ import annotations

import pytest
import xlsx_make
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from addin.engine import budget, columns
from addin.engine import evaluator as ev
from addin.engine.api import calc_workbook
from addin.excel import criteria_columns
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell

#: what a data cell holds: (its type in the sheet's XML, its value); None: blank
CELLS = (("n", 0), ("n", 1), ("n", 2), ("n", 2.5), ("n", -1.25), ("s", "lead"),
         ("s", "Lead"), ("s", "ab"), ("s", "b"), ("s", "2"), ("s", "2.5"), ("s", ""),
         ("s", "a*c"), ("b", 1), ("b", 0), ("e", "#N/A"), ("e", "#DIV/0!"), None)
#: criteria as a formula gives them: literals, and references to typed cells ($Z$1:$Z$5)
CRITERIA = ('"lead"', '">1"', '"<=2.5"', '"<>ab"', '"<>"', '"="', '""', '"a*"', '"?b"',
            '"~*"', '"2"', "2", "2.5", "1", "0", '"<>1"', "TRUE", '"#N/A"', '"<>lead"',
            '">=a"', "$Z$1", "$Z$2", "$Z$3", "$Z$4", "$Z$5")
TYPED = [c("Z1", None, "lead", "inlineStr"), c("Z2", None, 2), c("Z3", None, 1, "b"),
         c("Z5", None, "#N/A", "e")]  # (Z4 blank)
ROWS, WINDOW, FORMULAS = 75, 40, 30  # data rows; each formula's rows; formulas a column


def _data(col: str, values) -> list[str]:
    out = []
    for r, v in enumerate(values, 1):
        if v is None:
            continue
        t, x = v
        out.append(c(f"{col}{r}", None, x, {"s": "inlineStr", "b": "b", "e": "e"}.get(t)))
    return out


def _formulas(k1: str, k2: str) -> list[str]:
    """Each function over windows of WINDOW rows moving down a row a cell (and over ranges
    of different sizes, refused, and over whole columns)."""
    out = []
    for r in range(1, FORMULAS + 1):
        a, b, cc = (f"{x}{r}:{x}{r + WINDOW - 1}" for x in "ABC")
        shifted, shorter = f"B{r + 3}:B{r + WINDOW + 2}", f"B{r}:B{r + WINDOW - 2}"
        for col, f in zip("EFGHIJKLMN", (
                f"COUNTIF({a},{k1})", f"COUNTIFS({a},{k1},{b},{k2})",
                f"SUMIF({a},{k1},{cc})", f"SUMIFS({cc},{a},{k1},{b},{k2})",
                f"AVERAGEIF({a},{k1},{cc})", f"AVERAGEIFS({cc},{a},{k1})",
                f"COUNTIFS({a},{k1},{shifted},{k2})", f"SUMIF({cc},{k2})",
                f"COUNTIFS({a},{k1},{shorter},{k2})", f"SUMIFS($C:$C,$A:$A,{k1})"),
                strict=True):
            out.append(c(f"{col}{r}", f, 0))
    return out


def _outcome(path, tmp_path, strict: bool, fast: list | None = None):
    """What napkin makes of the workbook: the refusal, or the values and the cells kept;
    ``fast``: the values the columns' matches gave are appended to it."""
    kept: list = []
    value = criteria_columns._Combination.value

    def seen(self, a, b):
        got = value(self, a, b)
        if got is not None and fast is not None:
            fast.append(got)
        return got

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(criteria_columns._Combination, "value", seen)
        try:
            res = calc_workbook(path, None, {}, strict=strict,
                                kept=kept if strict else None)
        except WorkbookError as ex:
            return ("refused", str(ex))
    values = {k: (type(v).__name__, repr(v)) for k, v in res.items()}
    return values, sorted(str(r) for r in kept)


def _without_fast_path(monkeypatch):
    """The functions themselves on every formula's ranges, cell by cell (as before)."""
    monkeypatch.setattr(criteria_columns, "TALL", 10 ** 9)
    monkeypatch.setattr(columns, "TALL", 10 ** 9)


cell_values = st.lists(st.sampled_from(CELLS), min_size=ROWS, max_size=ROWS)


def test_the_values_are_the_functions_own(tmp_path_factory):
    # random columns of numbers, texts, numbers as text, blanks, logical values and error
    # values, random criteria: the same outcome as the functions on each formula's ranges
    taken: list = []  # per example, the values the columns' matches gave

    @settings(max_examples=12, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(cell_values, cell_values, cell_values, st.sampled_from(CRITERIA),
           st.sampled_from(CRITERIA), st.booleans())
    def same_outcome(a, b, totals, k1, k2, strict):
        tmp = tmp_path_factory.mktemp("criteria")
        cells = _data("A", a) + _data("B", b) + _data("C", totals) + TYPED + \
            _formulas(k1, k2)
        path = xlsx_make.write(tmp / "in.xlsx", {"S": cells})
        got: list = []
        fast = _outcome(path, tmp, strict, got)
        with pytest.MonkeyPatch.context() as mp:
            _without_fast_path(mp)
            assert _outcome(path, tmp, strict) == fast
        taken.append(len(got))

    same_outcome()
    # (an example whose probe over the whole columns refuses gives every formula back)
    assert sum(taken) > 500 and sum(t > 0 for t in taken) >= 6, taken


@pytest.mark.parametrize("strict", [True, False])
def test_each_form_of_criterion_over_each_kind_of_cell(tmp_path, monkeypatch, strict):
    # every kind of cell in every window, for each criterion in turn: the same values
    # (or the same refusal) as the functions on each formula's own ranges
    pool, taken = list(CELLS) * 5, []
    for k in CRITERIA:
        cells = _data("A", pool[:ROWS]) + _data("B", pool[3:ROWS + 3]) + \
            _data("C", pool[7:ROWS + 7]) + TYPED + _formulas(k, '"<>b"')
        path = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
        fast = _outcome(path, tmp_path, strict, taken)
        with pytest.MonkeyPatch.context() as mp:
            _without_fast_path(mp)
            assert _outcome(path, tmp_path, strict) == fast, k
    assert len(taken) > 1000  # (of 25 x 300 formulas: those no refusal sends back)


STAGES = ("lead", "prospect", "negotiating", "closed won")


def _pipeline(tmp_path, rows: int, window: int, formulas: int):
    """A sales pipeline as ``Sales Pipeline.xlsx`` lays it out (written by openpyxl):
    stages in G, amounts in Q (their SUBTOTAL in Q1), and a COUNTIFS ratio per row over
    ``window`` rows moving down a row a cell."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Stages"
    ws["G2"], ws["Q2"] = "Stage", "Amount"
    ws["Q1"] = f"=SUBTOTAL(9,Q3:Q{rows + 2})"
    for i in range(rows):
        ws[f"G{i + 3}"] = STAGES[(i * 7) % 4]
        ws[f"Q{i + 3}"] = [0, 1250.5, 80, 0, 33.25][i % 5]
    for r in range(3, formulas + 3):
        g, q = f"G{r}:G{r + window - 1}", f"Q{r}:Q{r + window - 1}"
        ws[f"H{r}"] = f'=COUNTIFS({g},"closed won",{q},">0")/COUNTIFS({g},"lead")'
    path = tmp_path / "pipeline.xlsx"
    wb.save(path)
    return path


def _counted(monkeypatch) -> list:
    seen, init = [], ev.Evaluation.__init__

    def keeping(self, *args, **kwargs):
        init(self, *args, **kwargs)
        seen.append(self.work)

    monkeypatch.setattr(ev.Evaluation, "__init__", keeping)
    return seen


def test_a_pipeline_is_computed_with_the_work_of_its_columns(tmp_path, monkeypatch):
    rows, window, n = 2000, 1000, 200
    path = _pipeline(tmp_path, rows, window, n)
    works = _counted(monkeypatch)
    res = calc_workbook(path, None, {})
    # each ratio counted by hand from the data written
    stage = {i + 3: STAGES[(i * 7) % 4] for i in range(rows)}
    amount = {i + 3: [0, 1250.5, 80, 0, 33.25][i % 5] for i in range(rows)}
    for r in range(3, n + 3):
        span = range(r, r + window)
        won = sum(stage[x] == "closed won" and amount[x] > 0 for x in span)
        assert res[f"Stages!H{r}"] == won / sum(stage[x] == "lead" for x in span)
    fast = works[-1]
    with pytest.MonkeyPatch.context() as mp:
        _without_fast_path(mp)
        assert calc_workbook(path, None, {}) == res
    old = works[-1]
    # the count by hand (budget's units): 200 formulas x 20, their 3 calls (two COUNTIFS
    # and /) and SUBTOTAL's x 20; before, each formula read its two windows of 1,000
    # cells (G's one input of both COUNTIFS), SUBTOTAL its 2,000 cells
    assert old.cells == fast.cells == n + 1 and old.calls == fast.calls == 3 * n + 1
    assert old.read == n * 2 * window + rows and old.by_column == 0
    assert old.per_computation == 20 * 201 + 20 * 601 + 402_000
    # now: each window a range by its column's matches (20 each), the two columns made
    # arrays once as far as the sheet's cells reach (row 2,002), SUBTOTAL's as before
    assert fast.read == rows and fast.by_column == 2 * n and fast.windows == 0
    assert sorted(fast.columns.values()) == [rows + 2, rows + 2]
    assert fast.per_computation == 20 * 201 + 20 * 601 + 2000 + 20 * 400 + 2 * 2002
    assert old.per_computation / fast.per_computation == pytest.approx(13.92, abs=0.01)


def test_past_the_limit_a_pipeline_is_still_refused_before_computing(tmp_path, monkeypatch):
    path = _pipeline(tmp_path, 400, 200, 150)
    works = _counted(monkeypatch)
    calc_workbook(path, None, {})
    monkeypatch.setattr(budget, "MAX_WORK", works[-1].total - 1)
    with pytest.raises(WorkbookError, match=r"and 300 ranges of 0 cells read by the "
                                            r"matches of 2 columns\), more than the"):
        calc_workbook(path, None, {})


def test_criteria_matched_while_computing_are_counted(tmp_path, monkeypatch):
    # COUNTIF($A$1:$A$2000,A1) ... one criterion a row: the first few matched over column
    # A (its 2,000 rows and more), then, as no criterion comes again, each formula's
    # 2,000 cells read by COUNTIF itself: all counted while computing, and refused once
    # that passes the limit
    cells = [c(f"A{r}", None, r % 1000) for r in range(1, 2001)] + \
        [c(f"B{r}", f"COUNTIF($A$1:$A$2000,A{r})", 2) for r in range(1, 301)]
    path = xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})
    works = _counted(monkeypatch)
    res = calc_workbook(path, None, {})
    assert all(res[f"S!B{r}"] == 2 for r in range(1, 301))  # r and r + 1000
    monkeypatch.setattr(budget, "MAX_WORK", works[-1].total + 100 * 2000)
    with pytest.raises(WorkbookError, match=r"cells that OFFSET or INDIRECT read, or "
                                            r"criteria matched over whole columns"):
        calc_workbook(path, None, {})


def test_a_huge_workbook_is_refused_at_once(tmp_path, monkeypatch):
    # 1,300 formulas each summing, by a criterion, 20,000 rows: 26,000,000 cells read
    # from the numbers matched (1 unit each 100), 1,300 x 2 ranges, the columns once...
    # and the same formulas over a column with a formula in their rows read it whole
    data = [c(f"A{r}", None, r % 97) for r in range(1, 20001)]
    sums = [c(f"B{r}", "SUMIF($A$1:$A$20000,\">3\",$A$1:$A$20000)") for r in range(1, 1301)]
    assert calc_workbook(xlsx_make.write(tmp_path / "in.xlsx", {"S": data + sums}), None, {})
    cells = data[:4999] + [c("A5000", "1+1", 2)] + data[5000:] + sums
    with pytest.raises(WorkbookError, match=r"reading 26,000,000 cells\), more than the "
                                            r"25,000,000 napkin computes a workbook within"):
        calc_workbook(xlsx_make.write(tmp_path / "in2.xlsx", {"S": cells}), None, {})


def test_past_the_matches_it_keeps_the_functions_compute(tmp_path, monkeypatch):
    # with no room for matches, every formula is computed by the function on its own
    # rows (its cells counted while computing): the same values
    path = _pipeline(tmp_path, 400, 200, 150)
    res = calc_workbook(path, None, {})
    monkeypatch.setattr(criteria_columns, "HELD", -1)
    taken: list = []
    assert _outcome(path, tmp_path, True, taken) == _outcome(path, tmp_path, True)
    assert taken == [] and calc_workbook(path, None, {}) == res
