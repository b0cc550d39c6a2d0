"""An array formula said cell by cell, for ``napkin native``: a legacy array formula
(``{=...}`` over a range) that calls napkin functions becomes one formula per cell of its
range, each of which ``NativeTranslator`` translates as any other.

In an array formula over a block, a multi-cell range that reaches only functions which
compute element by element (operators, ``addin.formula.walk.ELEMENTWISE``, and every
napkin function: they broadcast, ``udfs.machinery.broadcast``) gives each cell of the block its
own element: the cell ``i`` rows and ``j`` columns from the block's top left takes the
range's element (``i``, ``j``), row 0 of a one-row range and column 0 of a one-column
range (Excel's broadcasting), and ``#N/A`` past the range's end. A range that reaches any
other function (SUM, INDEX, COUNTIF...) is left whole, unless it has the block's height or
width, where which of its values a cell takes cannot be told from the text: then the
formula is not translated (``Untranslatable``), and ``napkin native`` freezes its block and says so.

References: Microsoft Support, "Guidelines and examples of array formulas" (a range of the
same size as the array formula's range gives each cell its own element).
"""

from __future__ import annotations

from openpyxl.formula.tokenizer import Token

from addin.formula.walk import is_reference, parse, read_whole, tokens, tree
from addin.ooxml.a1 import num2col, parse_area
from addin.transform.native.translate import Untranslatable


def per_cell(text: str, block: str, book, sheet_idx: int, ours,
             trees: dict | None = None, texts: bool = True) -> dict[str, str | None]:
    """{cell: formula text (no '=')} of the array formula ``text`` over ``block`` (an A1
    range of the sheet ``sheet_idx`` of ``book``, a ``addin.transform.native.book.Book``);
    ``ours``: napkin's function names (upper case). Raises ``Untranslatable`` for a range
    whose element per cell cannot be told (see the module's docstring). ``trees``, when
    given, receives each cell's formula as a tree (``addin.formula.walk.tree``), made
    from the array formula's tokens with no tokenising of the cells' texts; without
    ``texts``, the cells' texts are not written (each None: their trees are what
    ``napkin native`` translates)."""
    r1, c1, r2, c2 = parse_area(block)
    height, width = r2 - r1 + 1, c2 - c1 + 1
    pieces: list = []  # text, or (range location, sheet prefix) to narrow per cell
    ours = frozenset(ours)
    for tok, around in tokens(parse(text)):
        if is_reference(tok):
            loc = book.resolve(tok.value, sheet_idx)
            if loc is not None and loc[0] == "range":
                other = read_whole(around, ours)
                if len(loc) == 2:  # a whole column or row
                    if not other:
                        raise Untranslatable(f"{tok.value}: a whole column or row in an "
                                             f"array formula over {block}")
                elif not other:
                    pieces.append((loc, tok.value))
                    continue
                elif loc[4] - loc[2] + 1 == height > 1 or loc[5] - loc[3] + 1 == width > 1:
                    raise Untranslatable(
                        f"{tok.value} reaches {other[-1]} in the array formula over {block}: "
                        "which of its values each cell takes cannot be said cell by cell")
        pieces.append(tok)
    here = book.book.sheets[sheet_idx].name
    out = {}
    for ref, (i, j) in zip(per_cell_refs(block), ((i, j) for i in range(height)
                                                  for j in range(width)), strict=True):
        cell = [p if isinstance(p, Token) else _element(p[0], p[1], i, j, here)
                for p in pieces]
        out[ref] = "".join(p.value if isinstance(p, Token) else p for p in cell) \
            if texts else None
        if trees is not None:
            trees[ref] = tree([t for p in cell for t in (
                (p,) if isinstance(p, Token) else _element_tokens(p))])
    return out


def _element_tokens(ref: str) -> tuple[Token, ...]:
    """The tokens of an element's text (``_element``): a reference, or NA()."""
    if ref == "NA()":
        return Token("NA(", Token.FUNC, Token.OPEN), Token(")", Token.FUNC, Token.CLOSE)
    return (Token(ref, Token.OPERAND, Token.RANGE),)


def _element(loc, written: str, i: int, j: int, here: str) -> str:
    """The reference of element (``i``, ``j``) of the range ``loc`` (``Book.resolve``'s
    ``("range", sheet, r1, c1, r2, c2)``), written as ``written`` was; ``NA()`` past its
    end."""
    _, sheet, r1, c1, r2, c2 = loc
    di = 0 if r1 == r2 else i
    dj = 0 if c1 == c2 else j
    if r1 + di > r2 or c1 + dj > c2:
        return "NA()"
    ref = f"${num2col(c1 + dj)}${r1 + di}"
    if "!" in written or sheet != here:
        quoted = sheet.replace("'", "''")
        ref = f"'{quoted}'!{ref}"
    return ref


def per_cell_refs(block: str) -> list[str]:
    """The cells of ``block`` (an A1 range), row by row."""
    r1, c1, r2, c2 = parse_area(block)
    return [f"{num2col(c)}{r}" for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]
