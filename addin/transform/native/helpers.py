"""``napkin native``, the helper cells: long subexpressions of the translated formulas,
each written once in a cell of a hidden sheet (``napkin_helpers``) and referred to.

A napkin call nested in another formula, or an argument that is itself a long expression,
would otherwise be written out in full wherever the translated formula uses it (an
argument is read by its checks and by the formula, often several times), and formulas
grow to thousands of characters. ``Helpers.ref`` gives the text a cell of its own (one
per distinct text in the workbook: the same precision look-up in a thousand cells is one
helper) and returns the absolute reference to it, which stands for the text exactly: a
cell holding an expression has the expression's value, an error included. Every helper
is an Excel 2010 formula like the others (no LET, no LAMBDA); its references are written
with the sheet they came from, so that they mean the same cells on the hidden sheet. Once
every formula is translated, a helper that one formula alone refers to goes back into that
formula (``Helpers.inline_once_used``): it saves no repetition, and each helper cell is one
more for napkin's engine to compute (three quarters of the template's were used once).

The helper cells get their cached values from napkin's engine
(``addin.transform.native._helper_values``), over
a copy of the workbook where every other cell holds its computed value, so that the
workbook shows the right numbers in any program that does not recalculate on open.
"""

from __future__ import annotations

import functools
import re
import string
from collections import Counter

from addin.formula import formula_text as ft
from addin.ooxml import xlsx_values as xv
from addin.transform.native.book import cell_xml

HELPER_SHEET = "napkin_helpers"
#: A subexpression longer than this many characters is written in a helper cell (the
#: reference to it, ``napkin_helpers!$A$123``, is about 20).
HOIST_MIN = 60
#: The same for an argument of a call that is an expression: its checks and the formula
#: read it several times each.
HOIST_ARGUMENT = 20

#: A helper used by one formula alone is written into it (``Helpers.inline_once_used``)
#: unless that formula would grow past this many characters: a cell of its own saves no
#: repetition, and each costs a hidden cell and its computation.
INLINE_MAX = 1000

#: The characters before a reference to a helper cell that make it part of another word
#: or reference (``Helpers._ref_patterns``' look-behind ``[\w.$'!\]:]``, in ASCII)
_REF_BEFORE = frozenset(string.ascii_letters + string.digits + "_.$'!]:")

#: A table placeholder of the translator (``NativeTranslator.rng``), kept whole.
_PLACEHOLDER = re.compile("(\x00[^\x00]*\x00)")


def _is_qualified_or_called(text: str, start: int, end: int) -> bool:
    """Whether the word at ``text[start:end]`` is not a name of the formula's own sheet:
    a sheet's name (``Word!``), a name of another sheet (``Sheet!Word``), or a
    function's (``Word(``)."""
    after = text[end:].lstrip()
    return text[start - 1:start] == "!" or after[:1] in ("(", "!")


#: where ``LEX_REFS_RE`` would read a reference inside what ``LEX_RE`` reads as one word
#: or number: after a backslash in a name (``a\\A1``), after an exponent's sign
#: (``1E+10:20``)
_INSIDE_A_WORD = re.compile(r"\\|\d[eE][+-]")


def _may_name(text: str, names: frozenset[str]) -> bool:
    """Whether ``text`` may hold one of ``names`` (upper case) as a word: it holds one as
    text, in any case, or a place where reading its words changes its references. Where
    it does not, ``LEX_REFS_RE`` finds the references ``LEX_RE`` finds, and no word."""
    upper = text.upper()
    return any(n in upper for n in names) or _INSIDE_A_WORD.search(text) is not None


@functools.lru_cache(maxsize=256)
def quote(sheet: str) -> str:
    """A sheet name as a formula writes it before ``!`` (read once a name: every helper
    reference asks it)."""
    return sheet if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", sheet) else \
        "'" + sheet.replace("'", "''") + "'"


class Helpers:
    """The helper cells of one workbook: column A of the hidden sheet, one row each."""

    def __init__(self, sheet: str, local_names):
        self.sheet = sheet
        self.texts: dict[str, int] = {}  # formula text -> row (while translating)
        self.rows: dict[int, str] | None = None  # row -> text, once inline_once_used ran
        self.values: dict[int, object] = {}  # row -> cached value
        self._local = local_names  # (sheet index) -> upper-case names local to it
        self._seen: dict[tuple, str] = {}  # (text, sheet name, index) -> qualified text
        self._local_by_sheet: dict[int, frozenset[str]] = {}

    def ref(self, text: str, sheet_name: str, sheet_idx: int) -> str:
        """The absolute reference to the helper cell holding ``text`` (a subexpression of
        a formula of sheet ``sheet_name``), added if it is new."""
        key = (text, sheet_name, sheet_idx)
        text = self._seen.get(key)
        if text is None:  # the same subexpression recurs across a sheet's cells
            text = self._seen[key] = self._qualified(*key)
        row = self.texts.setdefault(text, len(self.texts) + 1)
        return f"{quote(self.sheet)}!$A${row}"

    def _qualified(self, text: str, sheet_name: str, sheet_idx: int) -> str:
        """``text`` with each reference to its own sheet written with the sheet's name
        (cells, areas, and the defined names local to that sheet), and each reference to
        another helper cell without it (the helper sheet's own cells).

        The text is read with ``addin.formula.formula_text.LEX_RE`` (string literals,
        references with their sheet, words), not tokenised: it is called once per
        distinct helper, thousands of times on the template; where the text holds no name
        local to the sheet (``_may_name``: the template's are its print areas), with
        ``LEX_REFS_RE`` (the same less its words and numbers). The tables' placeholders
        (``\x00block\x01column\x00``) are left as they are."""
        local = self._local_names(sheet_idx)
        prefix, own_upper = quote(sheet_name) + "!", (quote(self.sheet) + "!").upper()

        def qualified(m: re.Match) -> str:
            piece = m.group(0)
            kind = m.lastgroup
            if kind == "ref":
                sheet = m.group("sheet")
                if sheet is None:
                    return prefix + piece
                return piece[len(sheet):] if sheet.upper() == own_upper else piece
            if kind == "word" and piece.upper() in local \
                    and not _is_qualified_or_called(m.string, m.start(), m.end()):
                return prefix + piece
            return piece

        pattern = ft.LEX_RE if local and _may_name(text, local) else ft.LEX_REFS_RE
        return "".join(piece if k % 2 else pattern.sub(qualified, piece)
                       for k, piece in enumerate(_PLACEHOLDER.split(text)))

    def _local_names(self, sheet_idx: int) -> frozenset[str]:
        """The upper-case defined names local to sheet ``sheet_idx`` (read once a sheet)."""
        if sheet_idx not in self._local_by_sheet:
            self._local_by_sheet[sheet_idx] = frozenset(self._local(sheet_idx))
        return self._local_by_sheet[sheet_idx]

    def _refs(self, text: str, own: bool) -> list[tuple[int, int, int]]:
        """[(start, end, row)] of each reference to a helper cell in ``text``: written
        with the helper sheet's name, or (``own``: a helper's text) without a sheet;
        none inside a string literal."""
        if '"' not in text and text.isascii():  # no literal to pass over: the pattern
            # less that alternative, on the text in upper case (its case is ignored), and
            # none at all where the reference's fixed part is not written
            pattern = self._ref_needles[own]
            upper = text if own else text.upper()
            out, at = [], 0
            while (m := pattern.search(upper, at)) is not None:
                start = m.start()
                if start and upper[start - 1] in _REF_BEFORE:  # (the look-behind's test)
                    at = start + 1
                    continue
                out.append((start, m.end(), int(m.group(1))))
                at = m.end()
            return out
        pattern = self._ref_patterns[own]
        return [(m.start("ref"), m.end("ref"), int(m.group("row")))
                for m in pattern.finditer(text) if m.group("ref")]

    def _first_ref(self, text: str, own: bool, row: int) -> tuple[int, int]:
        """(start, end) of the first reference to helper ``row`` in ``text``, as
        ``_refs`` finds it (``own``: without a sheet), without reading the whole text:
        each place the row's ``$A$n`` is written is checked where it stands (outside a
        string literal when an even number of quotes is before it)."""
        if text.count('"') % 2:  # (an unclosed literal: read as _refs reads it)
            return next((s, e) for s, e, r in self._refs(text, own) if r == row)
        written, pattern = f"$A${row}", self._ref_patterns[own]
        head = 0 if own else len(quote(self.sheet)) + 1
        at = text.find(written)
        while at >= 0:
            start = at - head
            if start >= 0 and not text.count('"', 0, start) % 2:
                m = pattern.match(text, start)
                if m and m.group("ref") and m.end("ref") == at + len(written):
                    return start, m.end("ref")
            at = text.find(written, at + 1)
        raise ValueError(f"no reference to helper row {row}")

    @functools.cached_property
    def _ref_patterns(self) -> dict[bool, re.Pattern]:
        """The patterns of ``_refs``: a string literal (passed over) or a reference
        ``$A$n`` no other reference character touches, with the helper sheet's name
        (``False``) or without a sheet (``True``)."""
        tail = r"\$A\$(?P<row>\d+)(?![\w.(!:\[$])"
        named = re.escape(quote(self.sheet)) + "!"
        return {own: re.compile(ft.STRING_RE.pattern + r"|(?<![\w.$'!\]:])(?P<ref>" +
                                ("" if own else named) + tail + ")",
                                0 if own else re.IGNORECASE)
                for own in (True, False)}

    @functools.cached_property
    def _ref_needles(self) -> dict[bool, re.Pattern]:
        """``_refs``'s way for ASCII text without a string literal: ``_ref_patterns``'
        reference alone, in upper case and case-sensitive, from its fixed text (searched
        for as such, far faster than behind a look-behind), the look-behind tested where
        it is found (``_REF_BEFORE``)."""
        named = re.escape(quote(self.sheet).upper() + "!")
        return {own: re.compile(("" if own else named) + r"\$A\$(\d+)(?![\w.(!:\[$])")
                for own in (True, False)}

    def inline_once_used(self, formulas: dict[str, str], limit: int = INLINE_MAX) -> None:
        """Write each helper that one formula alone refers to (a cell's formula of
        ``formulas``, {label: text}, changed in place, or another helper's) into that
        formula, parenthesised where it is not atomic, while the formula stays within
        ``limit`` characters; the helper's cell goes. Moved into a sheet's cell, a helper's
        references to other helpers are written with the helper sheet's name.

        Helpers are taken in row order: a helper refers only to helpers made before it
        (lower rows), so when one is taken every helper below it is settled."""
        from addin.transform.native.formula import is_atomic

        rows = {r: t for t, r in self.texts.items()}
        uses: Counter = Counter()
        user: dict[int, tuple[bool, object]] = {}  # row -> (in a helper?, label or row)
        for label, text in formulas.items():
            for _, _, r in self._refs(text, False):
                uses[r] += 1
                user[r] = (False, label)
        for row, text in rows.items():
            for _, _, r in self._refs(text, True):
                uses[r] += 1
                user[r] = (True, row)
        own = quote(self.sheet) + "!"
        for r in sorted(rows):
            if uses[r] != 1:
                continue
            in_helper, key = user[r]
            host = rows[key] if in_helper else formulas[key]
            start, end = self._first_ref(host, in_helper, r)
            body = rows[r]
            if not in_helper:  # its references to helpers now need the sheet's name
                for s0, e0, _ in reversed(self._refs(body, True)):
                    body = body[:s0] + own + body[s0:e0].lstrip() + body[e0:]
            if len(host) - (end - start) + len(body) > limit:  # (parentheses only add)
                continue
            new = host[:start] + (body if is_atomic(body) else f"({body})") + host[end:]
            if len(new) > limit:
                continue
            if in_helper:
                rows[key] = new
            else:
                formulas[key] = new
            del rows[r]
        self.rows = rows  # (by row: two helpers may read the same now, each kept)

    def by_row(self) -> dict[int, str]:
        """{row: formula text} of the helper cells there are."""
        return self.rows if self.rows is not None else {r: t for t, r in self.texts.items()}

    def sheet_xml(self, fill) -> str:
        """The hidden sheet: each helper's formula (``fill`` puts the tables' ranges in)
        and its cached value."""
        rows = [f'<row r="{r}">{cell_xml(f"A{r}", self.values.get(r), fill(text))}</row>'
                for r, text in sorted(self.by_row().items())]
        return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                f'<worksheet xmlns="{xv.MAIN_NS}"><sheetData>{"".join(rows)}'
                "</sheetData></worksheet>")
