"""The work of computing a workbook is counted before it is done (``addin.engine.budget``):
past ``MAX_WORK`` units the workbook is refused with the figure, the limit and what to do,
before any formula is computed, and so on every machine alike; the areas OFFSET and
INDIRECT make are counted while computing."""

from __future__ import annotations

import pytest
import xlsx_make

from addin.engine import budget, executor
from addin.engine.api import calc_workbook
from addin.ooxml.guard import WorkbookError

c = xlsx_make.cell

#: A1:A100 hold 1..100; B1:B10 each sum them (one shape, compiled once)
SUMS = [c(f"A{r}", None, r) for r in range(1, 101)] + \
    [c(f"B{r}", "SUM($A$1:$A$100)", 5050) for r in range(1, 11)]
# the count by hand: "=SUM($A$1:$A$100)" compiled once, 17 characters x 25; ten formula
# cells x 20; one call (SUM) each x 20; 100 cells read each x 1
SUMS_WORK = 17 * 25 + 10 * 20 + 10 * 1 * 20 + 10 * 100


def _write(tmp_path, cells):
    return xlsx_make.write(tmp_path / "in.xlsx", {"S": cells})


def _computed(monkeypatch) -> list:
    """The formulas computed from now on (each call of ``executor.call``)."""
    seen, call = [], executor.call

    def counting(fn, args, at=None):
        seen.append(fn)
        return call(fn, args, at)

    monkeypatch.setattr(executor, "call", counting)
    return seen


def test_at_the_limit_the_workbook_is_computed(tmp_path, monkeypatch):
    monkeypatch.setattr(budget, "MAX_WORK", SUMS_WORK)
    res = calc_workbook(_write(tmp_path, SUMS), tmp_path / "out.xlsx", {})
    assert res["S!B1"] == res["S!B10"] == 5050  # 1 + ... + 100 = 100 x 101 / 2


@pytest.mark.parametrize("strict", [True, False])
def test_past_it_the_workbook_is_refused_before_computing(tmp_path, monkeypatch, strict):
    monkeypatch.setattr(budget, "MAX_WORK", SUMS_WORK - 1)
    computed = _computed(monkeypatch)
    with pytest.raises(WorkbookError) as got:
        calc_workbook(_write(tmp_path, SUMS), tmp_path / "out.xlsx", {}, strict=strict)
    said = str(got.value)
    assert f"counts {SUMS_WORK:,} units of work" in said
    assert "17 characters of formulas compiled; 10 formulas computing 10 calls and " \
           "operators and reading 1,000 cells" in said
    assert f"more than the {SUMS_WORK - 1:,} napkin computes" in said
    assert "split the workbook" in said and "does not help" in said
    assert computed == [] and not (tmp_path / "out.xlsx").exists()


def test_compiling_past_the_limit_is_refused_as_it_goes(tmp_path, monkeypatch):
    monkeypatch.setattr(budget, "MAX_WORK", 17 * 25 - 1)  # less than the one compile
    with pytest.raises(WorkbookError, match=r"compiling its formulas counts past 425 units"):
        calc_workbook(_write(tmp_path, SUMS), tmp_path / "out.xlsx", {})


def test_areas_offset_makes_are_counted_while_computing(tmp_path, monkeypatch):
    # SUM(OFFSET(A1,0,0,100,1)) reads A1:A100, which its formula does not name: 100 cells
    # (and more, scanned to make the area) beyond the count before computing, which
    # holds "=SUM(OFFSET(A1,0,0,100,1))" (26 characters x 25), one formula (20), its two
    # calls (2 x 20) and the one cell it names (1)
    before = 26 * 25 + 20 + 2 * 20 + 1
    cells = SUMS[:100] + [c("B1", "SUM(OFFSET(A1,0,0,100,1))", 5050)]
    monkeypatch.setattr(budget, "MAX_WORK", before + 99)
    with pytest.raises(WorkbookError, match=r"by S!B1 \(1 of 1 formulas\), \d+ of them "
                                            r"cells that OFFSET or INDIRECT read"):
        calc_workbook(_write(tmp_path, cells), tmp_path / "out.xlsx", {})
    monkeypatch.setattr(budget, "MAX_WORK", before + 1000)  # 100 + 1 + 100 scanned < 1000
    assert calc_workbook(_write(tmp_path, cells), tmp_path / "out.xlsx", {})["S!B1"] == 5050


def test_a_workbook_of_minutes_is_refused_at_once(tmp_path, monkeypatch):
    # 1,300 formulas each summing 20,000 cells: 26,000,000 cells read, past the limit
    # whatever the machine; refused before any is computed
    cells = [c(f"A{r}", None, r % 97) for r in range(1, 20001)] + \
        [c(f"B{r}", "SUM($A$1:$A$20000)") for r in range(1, 1301)]
    computed = _computed(monkeypatch)
    with pytest.raises(WorkbookError, match=r"reading 26,000,000 cells\), more than the "
                                            r"25,000,000 napkin computes a workbook within"):
        calc_workbook(_write(tmp_path, cells), tmp_path / "out.xlsx", {})
    assert computed == []


def test_computing_again_for_cells_kept_counts_only_what_it_computes(tmp_path, monkeypatch):
    # D1's CHAR(202) is a character of the computer's own set: strict mode keeps Excel's
    # "Ê" there once it has computed the workbook, and E1, which reads it, too. They are
    # computed again from the value kept (E1 must give the "Ê!" Excel saved); nothing else
    # reads them, so nothing else is computed again, nor counted: D1 20 for the formula
    # and 20 for CHAR, E1 20, 20 for & and 1 for the cell it reads (the module's units).
    counted, compute = [], budget.Work.compute

    def spy(self, only=None):
        before = self.total
        compute(self, only)
        counted.append((self.total - before, only and sorted(n.label for n in only),
                        self.per_computation))

    monkeypatch.setattr(budget.Work, "compute", spy)
    cells = SUMS + [c("D1", "CHAR(202)", "Ê", t="str"), c("E1", 'D1&"!"', "Ê!", t="str")]
    kept: list = []
    res = calc_workbook(_write(tmp_path, cells), tmp_path / "out.xlsx", {}, kept=kept)
    assert res["S!B10"] == 5050 and (res["S!D1"], res["S!E1"]) == ("Ê", "Ê!")
    assert [k.label for k in kept] == ["S!D1", "S!E1"]
    (first, everything, all_units), (again, only, _) = counted
    assert first == all_units == 10 * 20 + 10 * 20 + 10 * 100 + 40 + 41
    assert only == ["S!D1", "S!E1"] and again == 40 + 41


def test_computing_again_the_cells_kept_stays_within_the_limit(tmp_path, monkeypatch):
    # the same workbook with the limit at its count (compiling, one computation, the
    # cells kept computed again): computed; one unit less: refused. Before, the whole
    # workbook was counted again: 1,481 units more than now (10 x 20 + 10 x 20 + 10 x 100
    # of B1:B10 and the 81 of D1 and E1), past such a limit
    cells = SUMS + [c("D1", "CHAR(202)", "Ê", t="str"), c("E1", 'D1&"!"', "Ê!", t="str")]
    totals, compute = [], budget.Work.compute

    def spy(self, only=None):
        compute(self, only)
        totals.append((self.total, self.compiled * budget.COMPILE_CHAR, self.per_computation))

    monkeypatch.setattr(budget.Work, "compute", spy)
    calc_workbook(_write(tmp_path, cells), tmp_path / "out.xlsx", {}, kept=[])
    total, compiled, once = totals[-1]
    assert total == compiled + once + 81 < compiled + 2 * once
    monkeypatch.setattr(budget, "MAX_WORK", total)
    res = calc_workbook(_write(tmp_path, cells), tmp_path / "out2.xlsx", {}, kept=[])
    assert res["S!E1"] == "Ê!"
    monkeypatch.setattr(budget, "MAX_WORK", total - 1)
    with pytest.raises(WorkbookError, match="units of work"):
        calc_workbook(_write(tmp_path, cells), tmp_path / "out3.xlsx", {}, kept=[])


def test_the_user_may_raise_the_limit_knowingly(tmp_path, monkeypatch, capsys):
    # napkin calc refuses SUMS one unit past the limit, says how to raise it, and computes
    # it with --max-work at its count; the limit is raised, never lowered
    from addin.cli import main

    monkeypatch.setattr(budget, "MAX_WORK", SUMS_WORK - 1)
    src, out = _write(tmp_path, SUMS), tmp_path / "out.xlsx"
    assert main(["calc", str(src), "-o", str(out)]) == 1
    said = capsys.readouterr().err
    assert f"counts {SUMS_WORK:,} units of work" in said and "--max-work UNITS" in said
    assert not out.exists()
    assert main(["calc", str(src), "-o", str(out), "--max-work", f"{SUMS_WORK:,}"]) == 0
    assert out.exists() and budget.limit() == SUMS_WORK - 1  # (only within the run)
    with budget.raised(10):
        assert budget.limit() == SUMS_WORK - 1
    with budget.raised(4 * (SUMS_WORK - 1)):
        assert budget.cpu_limit() == 4 * budget.guard.MAX_CPU_SECONDS


def test_max_work_takes_a_whole_number_of_units(tmp_path, capsys):
    from addin.cli import main

    src = _write(tmp_path, SUMS)
    for bad in ("abc", "0", "-5", "1.5"):
        with pytest.raises(SystemExit) as got:
            main(["calc", str(src), "-o", str(tmp_path / "o.xlsx"), "--max-work", bad])
        assert got.value.code == 2
        assert "--max-work" in capsys.readouterr().err
