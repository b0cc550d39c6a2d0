"""formulas' ``Ranges`` values: the areas of one (sheet id, rows, columns), its values by
area, and a Ranges built from areas and arrays without formulas' own intersection.

Everything from formulas comes through ``addin.formula.fx.load``'s namespace.
"""

from __future__ import annotations

from addin.formula.fx import load
from addin.ooxml.a1 import num2col


def sheet_id(name: str) -> str:
    return load().build_sheet_id(sheet=name)


def reference(text: str):
    """A reference text (``Sheet1!A1:B2``) as formulas' Ranges value."""
    return load().Ranges().push(text)


def areas(rng) -> list[tuple[str, int, int, int, int]]:
    """The areas of a Ranges value as (sheet id, r1, c1, r2, c2); 0 for an open end."""
    return [(r.get("sheet_id", ""), int(r["r1"]), r["n1"] or 0, int(r["r2"]), r["n2"] or 0)
            for r in rng.ranges]


def cell_count(rng) -> int:
    """How many cells a Ranges value covers; an area with an open end (``A:A``, ``1:1``)
    counts as 2, more than one cell. Read from the areas as ``areas`` reads them,
    without building the list (the engine asks for it on every operand it intersects)."""
    n = 0
    for r in rng.ranges:
        r1, c1, r2, c2 = int(r["r1"]), r["n1"] or 0, int(r["r2"]), r["n2"] or 0
        n += (r2 - r1 + 1) * (c2 - c1 + 1) if r1 and c1 and r2 and c2 else 2
    return n


def area_values(rng) -> list:
    """``[((sheet id, r1, c1, r2, c2), 2-D values), ...]``, one per area of a Ranges."""
    ns = load()
    out = []
    for rd, (sid, r1, c1, r2, c2) in zip(rng.ranges, areas(rng), strict=True):
        arr = ns.Ranges((rd,), rng.values).value
        out.append(((sid, r1, c1, r2, c2), arr.reshape(1, -1) if arr.ndim == 1 else arr))
    return out


def area_ref(sid: str, r1: int, c1: int, r2: int, c2: int):
    """formulas' description of one rectangular area (reused across Ranges values): the
    dict ``range2parts`` makes, built directly when the area is plain."""
    ns = load()
    if 1 <= r1 <= r2 < 1048576 and 1 <= c1 <= c2 < 16384:  # formulas cuts the last row/col
        col1, col2 = num2col(c1), num2col(c2)
        ref = f"{col1}{r1}" if (r1, c1) == (r2, c2) else f"{col1}{r1}:{col2}{r2}"
        return {"r1": str(r1), "r2": str(r2), "c1": col1, "c2": col2, "n1": c1, "n2": c2,
                "ref": ref, "name": f"{sid}!{ref}" if sid else ref, "sheet_id": sid}
    return ns.range2parts(None, sheet_id=sid, r1=str(r1), n1=c1, r2=str(r2), n2=c2)


def one_range(ref, array):
    """``make_ranges([ref], [array])``: a Ranges value of one area holding ``array``."""
    rng = load().Ranges((ref,), {ref["name"]: (ref, array)})
    rng._value = array
    return rng


def make_ranges(refs, arrays):
    """A Ranges value of the areas ``refs`` (from ``area_ref``) holding ``arrays``.

    The value of one area is its array: set here, as formulas would find it by
    intersecting the area with itself."""
    rng = load().Ranges(tuple(refs), {rd["name"]: (rd, a) for rd, a in zip(refs, arrays,
                                                                          strict=True)})
    if len(refs) == 1:
        rng._value = arrays[0]
    return rng
