"""Where Excel's order of two texts is known to be napkin's.

napkin orders texts by their characters' code points without regard to case (Python's
``<`` on ``str.upper()`` or ``str.lower()`` of them). Excel does not: Microsoft's
"Default sort orders" puts digits first, then the space, then punctuation in an order of
its own, then letters (``0 1 2 3 4 5 6 7 8 9 (space) ! " # $ % & ( ) * , . / : ; ? @ [ \\
] ^ _ ` { | } ~ + < = > A B C ... Z``), ignores apostrophes and hyphens but for a tie, and
places accented letters among the plain ones. So ``"_a" < "b"`` is FALSE in code points
(``_`` is 0x5F, ``B`` 0x42) and TRUE in that order; ``"A 1" < "A1"`` the other way round.
The page is the Sort command's; no page says that ``<``, the criteria of COUNTIF and the
approximate matches of the lookups use the same order, only that they do not use code
points is sure.

Two texts are *settled* when every such order agrees with napkin's on them (napkin folds
case by ``str.upper`` in a comparison and a criterion, by ``str.lower`` in a lookup): at
the first character where they differ (their ASCII letters taken without case), both are
ASCII letters or digits (digits before letters, letters alphabetical, in Excel's list as
in code points); or one is a letter and the other the space or one of the signs that
come before ``A`` in code points (``! " # $ % & ( ) * + , . / : ; < = > ? @``), which
Excel's list puts before the letters too; or one is the space and the other any sign
(the space first in both); or one text has ended (the shorter is first: a text after the
same characters ends, in either, and a hyphen or apostrophe ignored still sorts last).
The apostrophe and the hyphen, which Excel ignores, settle nothing; nor does a digit
beside the space or a sign (``"A 1"`` and ``"A1"``: the space first in code points, the
digit in Excel's list). The characters before the difference are the same in both
texts, so whatever an order ignores or weighs there it ignores or weighs alike. Where two
texts are not settled, strict mode refuses the ordering instead of guessing.

References
----------
Microsoft Office Help, "Default sort orders" (Excel 2003; office.microsoft.com, article
HP005199669), and Microsoft Knowledge Base 322067, "How to correctly sort alphanumeric
data in Excel": the order of characters quoted above.
"""

from __future__ import annotations

#: signs before ``A`` in code points, and in Excel's list before the letters (the
#: apostrophe and the hyphen left out: Excel ignores them)
_SIGNS_BEFORE_LETTERS = frozenset("!\"#$%&()*+,./:;<=>?@")
#: every sign but those two (the space is before each in both orders)
_SIGNS = _SIGNS_BEFORE_LETTERS | frozenset("[\\]^_`{|}~")


def _plain(ch: str) -> bool:
    """An ASCII letter or digit."""
    return ch.isascii() and ch.isalnum()


def _letter(ch: str) -> bool:
    """An ASCII letter."""
    return ch.isascii() and ch.isalpha()


def _fold(ch: str) -> str:
    """An ASCII letter without case; every other character as it is."""
    return ch.upper() if ch.isascii() else ch


def _agree(x: str, y: str) -> bool:
    """Whether every order puts the different characters ``x`` and ``y`` (folded) as
    code points do (the module's docstring)."""
    if _plain(x) and _plain(y):
        return True
    for a, b in ((x, y), (y, x)):
        if _letter(a) and (b == " " or b in _SIGNS_BEFORE_LETTERS):
            return True
        if a == " " and b in _SIGNS:
            return True
    return False


def settled(a: str, b: str) -> bool:
    """Whether Excel orders texts ``a`` and ``b`` as napkin does (the module's
    docstring): at their first difference (ASCII letters without case) every order puts
    the two characters alike, or one of the texts has ended."""
    for x, y in zip(a, b, strict=False):
        if _fold(x) != _fold(y):
            return _agree(_fold(x), _fold(y))
    return True


def first_unsettled(value: str, texts) -> str | None:
    """The first of ``texts`` (texts only: the caller leaves out error values and blank
    cells) whose order beside ``value`` is not ``settled``, or None."""
    return next((t for t in texts if not settled(value, t)), None)


def why(a: str, b: str) -> str:
    """The refusal's words for texts ``a`` and ``b`` that are not settled."""
    return (f"the order of the texts {a!r} and {b!r}, which first differ in characters "
            "whose order in Excel is not napkin's code points' (a hyphen or apostrophe, "
            "which Excel ignores, a digit beside a space or sign, a letter outside ASCII)")
