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

Two texts are *settled* when every such order agrees with napkin's on them: at the first
character where they differ (their ASCII letters taken without case), both are ASCII
letters or digits (digits before letters, letters alphabetical, in Excel's list as in
code points), or one text has ended (the shorter is first: a text after the same
characters ends, in either, and a hyphen or apostrophe ignored still sorts last). The
characters before it are the same in both, so whatever an order ignores or weighs there
it ignores or weighs alike. Where two texts are not settled, strict mode refuses the
ordering instead of guessing.

References
----------
Microsoft Office Help, "Default sort orders" (Excel 2003; office.microsoft.com, article
HP005199669), and Microsoft Knowledge Base 322067, "How to correctly sort alphanumeric
data in Excel": the order of characters quoted above.
"""

from __future__ import annotations


def _plain(ch: str) -> bool:
    """An ASCII letter or digit."""
    return ch.isascii() and ch.isalnum()


def _fold(ch: str) -> str:
    """An ASCII letter without case; every other character as it is."""
    return ch.upper() if ch.isascii() else ch


def settled(a: str, b: str) -> bool:
    """Whether Excel orders texts ``a`` and ``b`` as napkin does (the module's
    docstring): at their first difference (ASCII letters without case), both are ASCII
    letters or digits, or one of them has ended."""
    for x, y in zip(a, b, strict=False):
        if _fold(x) != _fold(y):
            return _plain(x) and _plain(y)
    return True


def first_unsettled(value: str, texts) -> str | None:
    """The first of ``texts`` (texts only: the caller leaves out error values and blank
    cells) whose order beside ``value`` is not ``settled``, or None."""
    return next((t for t in texts if not settled(value, t)), None)


def why(a: str, b: str) -> str:
    """The refusal's words for texts ``a`` and ``b`` that are not settled."""
    return (f"the order of the texts {a!r} and {b!r}, which first differ in a sign, a space "
            "or a letter outside ASCII (Excel's order of those is not napkin's code "
            "points, and no page gives it for this use)")
