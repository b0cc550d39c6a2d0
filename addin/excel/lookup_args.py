"""What Excel's lookup functions (``addin.excel.lookup``) refuse of their arguments before
they look anything up: an argument left out where no page says how Excel reads it, and a
numeric setting (an index, a match type) given as text.

References
----------
Microsoft Support, "VLOOKUP function", "HLOOKUP function", "MATCH function" (what each
number means; silent on an empty argument and on a number written as text there).
"""

from __future__ import annotations

from addin.excel import args as xa
from addin.excel.args import Cannot
from addin.formula import fx
from udfs.machinery.errors import ExcelError


def none_left_out(name: str, *given) -> None:
    """``Cannot`` where one of ``given`` ((value, its name), ...) is left out: no page says
    how Excel reads it."""
    for v, what in given:
        if fx.is_omitted(v):
            raise Cannot(f"{name} given its {what} left out (its page does not say how Excel "
                         "reads it): write the value there")


def text_setting_or_cannot(*given, who: str) -> None:
    """``Cannot`` where one of the numeric settings ``given`` ((value, its name), ...) is
    text: Microsoft's lookup pages say what each number means, not whether a text that
    reads as one is converted there (formulas converts some, ``MATCH(2,A1:A3,"0")`` is
    #VALUE! in it), so strict mode does not guess. The text a lookup looks for, or
    returns, is another matter: text and numbers never match (Microsoft KB 213476)."""
    for v, what in given:
        if v is None or fx.is_omitted(v):
            continue
        try:
            one = xa.scalar(v, f"{who}'s {what}")
        except (ExcelError, Cannot):
            continue
        ns = fx.load()
        if isinstance(one, str) and one is not ns.EMPTY and not isinstance(one, ns.XlError):
            raise Cannot(f"{who}'s {what} given as text (whether Excel reads it as a number "
                         "there is not documented)")
