"""Formula text: normalising it for ``formulas``, and its *shape*.

A shape is the formula text with every reference written relative to its cell (as in
R1C1 notation), plus the sheet, and with every number that is an operand written as a
numbered parameter: the cells of a filled-down column share one shape, and so do
formulas that differ only in their numbers (``=RIDGE(A2+2.5,3.35)`` and
``=RIDGE(A3+7,3.35)``). The engine parses and compiles each shape once (``lex``
gives the key, the references and the numbers; ``Tok`` places a reference at
another cell; ``put_numbers`` writes other numbers into a formula of the shape).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import NamedTuple

from addin.ooxml.a1 import MAX_COL, MAX_ROW, col2num
from udfs.machinery.stored import STORED_PREFIX, plain_name, stored_name

__all__ = ["STORED_PREFIX", "plain_name", "stored_name"]  # (and every public name below)

#: A string literal of formula text: ``"..."``, a ``"`` inside written ``""``.
STRING_RE = re.compile(r'"(?:[^"]|"")*"')
SEGMENT_RE = re.compile(STRING_RE.pattern + r'|\'(?:[^\']|\'\')*\'|[^"\']+|["\']')
_NUMBER_RE = re.compile(r"(?<![\w.$])(\d+\.?\d*|\.\d+)(?:[eE]([+-]?)(\d+))?(?![\w.])")
# a digit before a "." no digit follows, or before an exponent: where a number
# _fix_number changes is (a mantissa ending in "." or an exponent); elsewhere it leaves
# every number as it is (0.742 and 12 are themselves)
_NUMBER_TO_FIX_RE = re.compile(r"\d(?:\.(?!\d)|[eE][+-]?\d)")
_ADDIN_PREFIX_RE = re.compile(r"(?<![\w.])(?:\[\d+\]|[\w.\-]+\.xla[m]?)!(?=[A-Za-z_][\w.]*\()")
_QUOTED_ADDIN_RE = re.compile(r"'[^']*\.xla[m]?'", re.I)
_ADDIN_CALL_RE = re.compile(r"!\s*[A-Za-z_][\w.]*\(")
# A call in Excel's stored form of a custom function (udfs.machinery.stored): the prefix it drops
_STORED_CALL_RE = re.compile(rf"(?<![\w.]){STORED_PREFIX}(?=[A-Za-z][\w.]*\s*\()", re.I)
# A call of a function by its bare name (not prefixed, not a sheet's or an add-in's)
_BARE_CALL_RE = re.compile(r"(?<![\w.!$])[A-Za-z][\w.]*(?=\s*\()")


def _fix_number(m: re.Match) -> str:
    mant, sign, exp = m.group(1), m.group(2), m.group(3)
    if mant.endswith("."):
        mant += "0"
    if exp is None:
        return mant
    return f"{mant}E{sign or '+'}{exp}"


def _may_be_stored(seg: str) -> bool:
    """False where ``_STORED_CALL_RE`` cannot match: ASCII text without its prefix in any
    letter case (other text is searched)."""
    return "_" in seg and (not seg.isascii() or STORED_PREFIX in seg.lower())


def normalize_formula(formula: str) -> str:
    """Formula text as ``formulas`` accepts it: ``=``-prefixed, ``70E9`` -> ``70E+9``.

    Only text outside string literals and quoted sheet names is touched. A leading
    ``[1]!`` / ``'napkin.xlam'!`` add-in prefix before a function name is dropped, and
    so is Excel's stored prefix of a custom function (``_xldudf_RIDGE(`` -> ``RIDGE(``,
    ``plain_calls``).
    """
    text = formula.strip()
    if text.startswith("{=") and text.endswith("}"):
        text = text[1:-1]
    if not text.startswith("="):
        text = "=" + text
    out, depth = [], 0  # depth: inside an array constant's braces
    # (no quote: the text is one segment, as SEGMENT_RE would find it)
    segs = SEGMENT_RE.findall(text) if "'" in text or '"' in text else [text]
    for i, seg in enumerate(segs):
        if seg[0] == "'" and i + 1 < len(segs) and _QUOTED_ADDIN_RE.fullmatch(seg) \
                and _ADDIN_CALL_RE.match(segs[i + 1]):
            segs[i + 1] = segs[i + 1][1:]  # 'napkin.xlam'!RIDGE( -> RIDGE(
            continue
        if seg[0] in "\"'":
            out.append(_line_breaks(seg) if "\n" in seg and seg[0] == '"' and not depth
                       else seg)
        else:
            depth += seg.count("{") - seg.count("}")
            if _NUMBER_TO_FIX_RE.search(seg):  # else _fix_number leaves every number as is
                seg = _NUMBER_RE.sub(_fix_number, seg)
            if "!" in seg and ("[" in seg or ".xla" in seg):  # (what a prefix holds)
                seg = _ADDIN_PREFIX_RE.sub("", seg)
            out.append(_STORED_CALL_RE.sub("", seg) if _may_be_stored(seg) else seg)
    text = "".join(out)
    if text.startswith("=="):
        text = text[1:]
    if ":" in text and "!" in text and "(" in text:
        text = change_outside_strings(text, lambda part: _SHEET_CELL_TO_CALL_RE.sub(
            r"(\1)\2", part))
    if ":" in text and ("XFD" in text.upper() or "1048576" in text):
        text = change_outside_strings(text, whole_sheet_ranges)
    return text


# a sheet's cell before ":" and a function (Sheet2!A1:INDEX(...)): formulas drops the
# sheet there (its A1 is then the formula's own sheet's), not in (Sheet2!A1):INDEX(...)
_SHEET_CELL_TO_CALL_RE = re.compile(
    r"(?<![\w.$:!'])((?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!\$?[A-Za-z]{1,3}\$?\d+)(\s*:\s*)"
    r"(?=[A-Za-z_][\w.]*\s*\()")


_TO_LAST_COLUMN_RE = re.compile(r"(?<![\w.$])(\$?[A-Za-z]{1,3}):(\$?)XFD(?![\w.(!])", re.I)
_TO_LAST_ROW_RE = re.compile(r"(?<![\w.$:])(\$?)(\d+):(\$?)1048576(?![\w.:(!])")


def whole_sheet_ranges(seg: str) -> str:
    """Column ranges to the last column (``A:XFD``) and row ranges to the last row
    (``1:1048576``) written with their corners (``A$1:XFD$1048576``, ``$A1:$XFD1048576``):
    formulas reads the first forms as a range without its end (``#NAME?``)."""
    seg = _TO_LAST_COLUMN_RE.sub(lambda m: f"{m.group(1)}$1:{m.group(2)}XFD$1048576", seg)
    return _TO_LAST_ROW_RE.sub(
        lambda m: f"$A{m.group(1)}{m.group(2)}:$XFD{m.group(3)}1048576", seg)


def _line_breaks(literal: str) -> str:
    """A string literal with line breaks written as ``CHAR(10)`` between its pieces:
    ``formulas`` drops every line break of a formula's text, those inside its strings
    included, where Excel keeps them."""
    pieces = literal[1:-1].split("\n")
    return "(" + "&CHAR(10)&".join(f'"{p}"' for p in pieces) + ")"


# A cell / area / column / row reference, possibly sheet-qualified; string literals,
# quoted names, identifiers and numbers are matched too so that a reference is never
# found inside one.
_LEX_HEAD = r"""
    (?=["'A-Za-z_\\$\d.])  # (what a match starts with: other places are passed at once)
    (?:
    (?P<str>""" + STRING_RE.pattern + r""")
  | (?<![\w.$])
    (?P<ref>
      (?P<sheet>(?:'(?:[^']|'')+'|[A-Za-z_\\][\w.\\]*)!)?
      (?:
          (?P<a1>(?P<ca1>\$?)(?P<c1>[A-Za-z]{1,3})(?P<ra1>\$?)(?P<r1>\d+))
          (?::(?P<ca2>\$?)(?P<c2>[A-Za-z]{1,3})(?P<ra2>\$?)(?P<r2>\d+))?
        | (?P<col1>\$?[A-Za-z]{1,3}):(?P<col2>\$?[A-Za-z]{1,3})
        | (?P<row1>\$?\d+):(?P<row2>\$?\d+)
      )
    )(?![\w.(!\[])
  | (?P<quoted>'(?:[^']|'')*')
"""
_LEX_WORDS = r"""
  | (?P<word>[A-Za-z_\\][\w.\\]*)
  | (?P<num>(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]\d+)?)
"""
LEX_RE = re.compile(_LEX_HEAD + _LEX_WORDS + ")", re.X)
#: ``LEX_RE`` less its words and numbers: enough where only references matter, since a
#: reference cannot start inside a word or a number (its look-behind).
LEX_REFS_RE = re.compile(_LEX_HEAD + ")", re.X)
_POSITIONAL_RE = re.compile(r"(?<![\w.])(?:(?:ROW|COLUMN)\s*\(\s*\)|CELL\s*\(|INDIRECT\s*\()", re.I)
_col2num = functools.lru_cache(maxsize=4096)(col2num)
_REF_GROUPS = tuple(LEX_RE.groupindex[g] for g in (
    "sheet", "a1", "ca1", "c1", "ra1", "r1", "ca2", "c2", "ra2", "r2"))
_KEYS: dict = {}  # Tok -> Tok.key()


class Tok(NamedTuple):
    """A reference of a formula shape; relative coordinates are offsets to the cell."""

    sheet: str | None  # sheet name (unquoted) or None: the formula's own sheet
    r1: int
    r1a: bool
    c1: int
    c1a: bool
    r2: int
    r2a: bool
    c2: int
    c2a: bool

    def at(self, r: int, c: int):
        """The area (r1, c1, r2, c2), corners in order, at the formula's cell (r, c);
        None when it falls off the sheet."""
        sheet, r1, r1a, c1, c1a, r2, r2a, c2, c2a = self
        if not r1a:
            r1 += r
        if not c1a:
            c1 += c
        if not r2a:
            r2 += r
        if not c2a:
            c2 += c
        if r1 > r2:
            r1, r2 = r2, r1
        if c1 > c2:
            c1, c2 = c2, c1
        if r1 < 1 or c1 < 1 or r2 > MAX_ROW or c2 > MAX_COL:
            return None
        return r1, c1, r2, c2

    def key(self) -> str:
        """The reference's text in the shape key (one string per distinct reference,
        kept: a filled column has the same few references in every cell)."""
        k = _KEYS.get(self)
        if k is None:
            if len(_KEYS) > 65536:
                _KEYS.clear()
            k = _KEYS[self] = self._key()
        return k

    def _key(self) -> str:
        s = (self.sheet or "").upper()
        return (f"\x00{s}!{'R' if self.r1a else 'R['}{self.r1}{'' if self.r1a else ']'}"
                f"{'C' if self.c1a else 'C['}{self.c1}{'' if self.c1a else ']'}:"
                f"{'R' if self.r2a else 'R['}{self.r2}{'' if self.r2a else ']'}"
                f"{'C' if self.c2a else 'C['}{self.c2}{'' if self.c2a else ']'}\x00")


# A number is a parameter of its formula's shape where ``formulas`` reads it as a Number
# operand: after an operator, "(", "," or "=", and before an operator, ")", "," or the
# end (not "1:3", "#DIV/0!", "[1]", nor a number with leading zeros, which formulas
# refuses). Formulas with array constants keep their numbers.
_NUM_BEFORE = frozenset("=+-*/^&<>(,;% \t\r\n")
_NUM_AFTER = frozenset("+-*/^&=<>),;%")
_LEADING_ZERO_RE = re.compile(r"0\d")


def _is_operand(text: str, m: re.Match) -> bool:
    a, b = m.span()
    if a == 0 or text[a - 1] not in _NUM_BEFORE or _LEADING_ZERO_RE.match(text, a):
        return False
    rest = text[b:].lstrip()
    return not rest or rest[0] in _NUM_AFTER


def number_value(literal: str):
    """A number literal's value as ``formulas`` compiles it: an int for digits only."""
    return int(literal) if literal.isdigit() else float(literal)


def lex(text: str, row: int, col: int,
        ref_mark: str | None = None) -> tuple[str, list[Tok], tuple[str, ...]]:
    """(shape key, references, numbers) of a normalized formula at (row, col).

    The numbers are the distinct texts of the number operands, in order of first
    appearance; the key holds the index of each (``\x02`` *i* ``\x02``), so formulas
    of one key write equal numbers at the same places. With ``ref_mark`` the key holds
    that text in the place of each reference (``Tok.key()`` otherwise)."""
    parts, toks, pos = [], [], 0
    nums: dict[str, int] = {}
    params = "{" not in text
    for m in LEX_RE.finditer(text):
        kind = m.lastgroup  # the outermost group that matched: ref, num, str...
        if kind == "num" and params and _is_operand(text, m):
            parts.append(text[pos: m.start()])
            pos = m.end()
            parts.append(f"\x02{nums.setdefault(m.group('num'), len(nums))}\x02")
            continue
        if kind != "ref":
            continue
        a, b = m.span()
        parts.append(text[pos:a])
        pos = b
        # the groups of LEX_RE by number (one call): sheet, a1, ca1, c1, ra1, r1, ca2, c2,
        # ra2, r2 (col1, col2, row1, row2 by name below)
        sheet, a1, ca1, c1s, ra1, r1s, ca2, c2s, ra2, r2s = m.group(*_REF_GROUPS)
        if sheet:
            sheet = sheet[:-1]
            if sheet.startswith("'"):
                sheet = sheet[1:-1].replace("''", "'")
        if a1:
            if c2s is None:
                ca2, c2s, ra2, r2s = ca1, c1s, ra1, r1s
            r1a, c1a, r2a, c2a = ra1 == "$", ca1 == "$", ra2 == "$", ca2 == "$"
            r1, c1, r2, c2 = int(r1s), _col2num(c1s), int(r2s), _col2num(c2s)
            if not r1a:
                r1 -= row
            if not c1a:
                c1 -= col
            if not r2a:
                r2 -= row
            if not c2a:
                c2 -= col
        elif m.group("col1"):
            c1s, c2s = m.group("col1"), m.group("col2")
            c1a, c2a = c1s.startswith("$"), c2s.startswith("$")
            c1, c2 = _col2num(c1s.lstrip("$")), _col2num(c2s.lstrip("$"))
            c1, c2 = (c1 if c1a else c1 - col), (c2 if c2a else c2 - col)
            r1, r1a, r2, r2a = 1, True, MAX_ROW, True
        else:
            r1s, r2s = m.group("row1"), m.group("row2")
            r1a, r2a = r1s.startswith("$"), r2s.startswith("$")
            r1, r2 = int(r1s.lstrip("$")), int(r2s.lstrip("$"))
            r1, r2 = (r1 if r1a else r1 - row), (r2 if r2a else r2 - row)
            c1, c1a, c2, c2a = 1, True, MAX_COL, True
        tok = Tok(sheet, r1, r1a, c1, c1a, r2, r2a, c2, c2a)
        toks.append(tok)
        parts.append(tok.key() if ref_mark is None else ref_mark)
    parts.append(text[pos:])
    key = "".join(parts)
    if _may_be_positional(text) and _POSITIONAL_RE.search(text):
        key += f"\x01@{row},{col}"
    return key, toks, tuple(nums)


def _may_be_positional(text: str) -> bool:
    """False where ``_POSITIONAL_RE`` cannot match: ASCII text without the names it
    looks for (other text is searched)."""
    if not text.isascii():
        return True
    u = text.upper()
    return "ROW" in u or "COLUMN" in u or "CELL" in u or "INDIRECT" in u


def put_numbers(text: str, numbers: tuple[str, ...]) -> str:
    """A normalized formula with the numbers of its shape (``lex``) replaced by
    ``numbers`` (as many, in the same order)."""
    out, pos, seen = [], 0, {}
    params = "{" not in text
    for m in LEX_RE.finditer(text):
        if m.lastgroup == "num" and params and _is_operand(text, m):
            out.append(text[pos: m.start()])
            out.append(numbers[seen.setdefault(m.group("num"), len(seen))])
            pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def quote_sheet(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


def alias_sheets(text: str, aliases: dict[str, str]) -> str:
    """Formula text with each quoted sheet name that has an alias (``{NAME.upper():
    alias}``) replaced by it."""
    if not aliases or "'" not in text:
        return text
    segs = SEGMENT_RE.findall(text)
    for i, seg in enumerate(segs):
        if seg.startswith("'") and len(seg) > 1 and i + 1 < len(segs) \
                and segs[i + 1].startswith("!"):
            alias = aliases.get(seg[1:-1].replace("''", "'").upper())
            if alias:
                segs[i] = alias
    return "".join(segs)


_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\s*\(")
#: a call of OFFSET or INDIRECT (``makes_references``)
_MAKES_REFERENCES = re.compile(r"(?<![\w.])(?:_xlfn\.)?(?:OFFSET|INDIRECT)\s*\(", re.I)


def end_of_quoted(text: str, i: int) -> int | None:
    """The index just after the string literal (``"``) or quoted sheet name (``'``) that
    opens at ``i``, a doubled quote read as one inside it; None where it is not closed."""
    q, j = text[i], i + 1
    while j < len(text):
        if text[j] == q:
            if j + 1 < len(text) and text[j + 1] == q:
                j += 2
                continue
            return j + 1
        j += 1
    return None


def outside_strings(text: str) -> str:
    """Formula text with every string literal emptied to ``""``: its names, references
    and operators, none of them found inside a text."""
    return STRING_RE.sub('""', text) if '"' in text else text


def change_outside_strings(text: str, change: Callable[[str], str]) -> str:
    """Formula text with ``change`` applied to each stretch between its string literals
    (those before the first and after the last included, even when empty); the
    literals are kept as written."""
    out, end = [], 0
    for m in STRING_RE.finditer(text):
        out += (change(text[end:m.start()]), m.group(0))
        end = m.end()
    out.append(change(text[end:]))
    return "".join(out)


def called_functions(text: str) -> list[str]:
    """Names of the functions a formula calls, as written (string literals skipped)."""
    return _CALL.findall(outside_strings(text))


def makes_references(text: str | None) -> bool:
    """Whether a formula calls OFFSET or INDIRECT (string literals skipped): it makes a
    reference while computing, to cells its dependencies do not list."""
    return bool(_MAKES_REFERENCES.search(outside_strings(text or "")))


def _change_code(text: str, change: Callable[[str], str]) -> str:
    """Formula text with ``change`` applied to each stretch outside its string literals
    and quoted sheet names (those kept as written)."""
    if "'" not in text and '"' not in text:
        return change(text)
    return "".join(seg if seg[0] in "\"'" else change(seg) for seg in SEGMENT_RE.findall(text))


def plain_calls(text: str) -> str:
    """Formula text with each call in Excel's stored form of a custom function
    (``_xldudf_RIDGE(``, ``udfs.machinery.stored``) written as a user types it (``RIDGE(``);
    string literals and quoted sheet names are kept as written."""
    if "_" not in text:
        return text
    return _change_code(text, lambda s: _STORED_CALL_RE.sub("", s))


def stored_calls(text: str, names) -> str:
    """Formula text with each call of a function of ``names`` (upper-case names) by its
    bare name written in Excel's stored form: ``RIDGE(`` -> ``_xldudf_RIDGE(``.

    Calls already stored, calls of other functions (``MYRIDGE(``), names inside string
    literals or quoted sheet names, and add-in calls (``[1]!RIDGE(``) are kept as written;
    a stored name is upper-case, as Excel writes the name of a function it knows.
    """
    def store(m: re.Match) -> str:
        name = m.group(0)
        return stored_name(name.upper()) if name.upper() in names else name

    return _change_code(text, lambda s: _BARE_CALL_RE.sub(store, s))


def count_calls(text: str, names) -> int:
    """How many calls of the functions ``names`` (upper case) the formula ``text`` makes,
    by their plain name or in Excel's stored form (``_xldudf_RIDGE(``), string literals
    left out: what one recalculation of the formula costs in calls of ours, however many
    cells an array formula of it fills."""
    bare = _STORED_CALL_RE.sub("", outside_strings(text))
    return sum(1 for m in _CALL.finditer(bare) if m.group(1).upper() in names
               and (m.start() == 0 or bare[m.start() - 1] not in "!.$"))
