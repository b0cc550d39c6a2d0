"""Name lookups are cached per table content (``udfs.inference.tables.match``): the same name in the
same table is matched once, and a table whose rows change is matched afresh."""

from __future__ import annotations

import pytest

from udfs.inference import tables
from udfs.machinery.errors import ExcelError


@pytest.fixture
def counted(monkeypatch):
    """The calls of the uncached matcher, with an empty cache."""
    calls = []
    real = tables.match_name

    def spy(query, rows, table, what):
        calls.append(query)
        return real(query, rows, table, what)

    monkeypatch.setattr(tables, "match_name", spy)
    monkeypatch.setattr(tables, "_MATCHED", {})
    return calls


def test_the_same_name_is_matched_once(counted):
    # NVIDIA H100 SXM datasheet: 3.35 TB/s of HBM3 bandwidth
    values = {tables.gpu_spec("H100 SXM", "bandwidth") for _ in range(2000)}
    assert values == {3.35}
    assert counted == ["H100 SXM"]
    tables.gpu_spec("MI300X", "bandwidth")  # another name: matched once more
    assert counted == ["H100 SXM", "MI300X"]


def test_a_changed_table_is_matched_afresh(counted):
    rows = {"Alpha GPU": {"name": "Alpha GPU"}, "Beta GPU": {"name": "Beta GPU"}}
    assert tables.match("alpha", rows, "user", "name") == "Alpha GPU"
    assert tables.match("alpha", rows, "user", "name") == "Alpha GPU"
    assert counted == ["alpha"]
    with pytest.raises(ExcelError):
        tables.match("gamma", rows, "user", "name")
    renamed = {"Gamma GPU": {"name": "Gamma GPU"}, "Beta GPU": {"name": "Beta GPU"}}
    assert tables.match("gamma", renamed, "user", "name") == "Gamma GPU"
    with pytest.raises(ExcelError):  # "alpha" is gone from the changed table
        tables.match("alpha", renamed, "user", "name")
    assert counted == ["alpha", "gamma", "gamma", "alpha"]


def test_a_cached_error_is_raised_every_time(counted):
    errors = []
    for _ in range(3):
        with pytest.raises(ExcelError) as e:
            tables.gpu_spec("no such gpu at all", "bandwidth")
        errors.append(e.value)
    assert {err.code for err in errors} == {"#N/A"}
    assert len({id(err) for err in errors}) == 3  # a fresh error each time
    assert counted == ["no such gpu at all"]
