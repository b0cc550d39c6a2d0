"""Our corrections of how formulas' functions read some arguments, where Excel reads them
otherwise: IF's logical_test given as text, the counts of MID, LEFT and RIGHT given as
text that reads as a number, TYPE of an error value, TRIM's spaces, CHAR and CODE
beyond the ASCII characters; FLOOR given an empty cell as its significance, refused.
Each is a builder of ``addin.formula.patches`` (``by(original, key)`` returns the
replacement).

References
----------
apache/poi FormulaEvalTestData, saved by Excel (tests/corpus/poi/FormulaEvalTestData_Copy.xlsx):
``IF("tRue","A","B")`` is ``"A"`` (M732), ``LEFT("a string","6")`` is ``"a stri"``
(E824), ``LEFT("a string",TRUE)`` is ``"a"`` (K824), ``CHAR(-1)`` is ``#VALUE!`` (F220).
Microsoft Support, "TYPE function", "TRIM function", "CHAR function", "CODE function".
"""

from __future__ import annotations

import re

import numpy as np

from addin.formula import branch_reference, context, excel_functions
from addin.formula.fx_excel import excel_text, text_value


def one_value(v, ns):
    """The one value of an argument as formulas gives it (``ns``: its namespace): a
    one-cell reference or array read, or None for several values, none, or a reference
    formulas cannot read (what the checks below leave to formulas)."""
    if isinstance(v, ns.Ranges):
        try:
            v = v.value
        except Exception:
            return None
    if isinstance(v, np.ndarray):
        if v.size != 1:
            return None
        v = v.item()
    return v


def one_number(v, ns):
    """The one number of an argument or result (``one_value``), or None: Python's numbers
    and numpy's (formulas often gives a numpy float), never a logical value (bool, numpy's
    bool)."""
    v = one_value(v, ns)
    if isinstance(v, (bool, np.bool_)):
        return None
    return float(v) if type(v) in (int, float) or isinstance(v, np.floating | np.integer) \
        else None


def if_text(original, key: str):
    """Excel's IF given a text as logical_test: "TRUE" or "FALSE" in any case is that
    logical value (formulas: ``#VALUE!`` for any text); other text stops strict mode
    (``context.refuse``), Excel's value undocumented. A range IF chooses by one test is
    given back as the reference (``branch_reference.if_keeping_references``)."""
    from formulas.functions import Error, XlError, get_error, wrap_ufunc

    def excel_if(condition, x, y=False):
        if isinstance(condition, str) and not isinstance(condition, XlError):
            word = condition.upper()
            if word not in ("TRUE", "FALSE"):
                context.refuse(f"IF with the text {condition!r} as its logical_test")
                return Error.errors["#VALUE!"]
            condition = word == "TRUE"
        return x if condition else y

    def c_e(cond, *a):  # the condition's error: get_error(cond) without the walk
        if isinstance(cond, XlError):
            return cond
        return None if type(cond) in _ONE_VALUE else get_error(cond)

    each = wrap_ufunc(excel_if, input_parser=lambda *a: a, check_nan=False, check_error=c_e)
    return {**original, "function": branch_reference.if_keeping_references(each)}


#: the values get_error gives as they are (no walk inside them), none of them an error
_ONE_VALUE = frozenset({float, int, bool, str})


def text_counts(original, key: str):
    """formulas' MID, LEFT or RIGHT (``key``, and their B forms) reading a count or a
    start given as text as Excel does (``text_value``: ``" 3.5"`` is 3.5, truncated to
    3); formulas reads it with ``int()``, which takes ``"3"`` but not ``"3.5"``."""
    import functools

    from formulas.functions import XlError, replace_empty, text, wrap_ufunc

    raw = {"MID": text.xmid, "LEFT": text.xleft, "RIGHT": text.xright}[key.removesuffix("B")]

    def count(v):
        if isinstance(v, str) and not isinstance(v, XlError) and v.strip():
            return text_value(v)
        return v

    def excel_text(from_str, *counts):
        return raw(from_str, *map(count, counts))

    return wrap_ufunc(excel_text, input_parser=lambda *a: a, args_parser=lambda *a: map(
        functools.partial(replace_empty, empty=""), a))


def ranges_of_one_shape(original, key: str):
    """formulas' COUNTIFS, SUMIFS or AVERAGEIFS (``key``), refused in strict mode
    (``context.refuse``, ``#VALUE!``) where a criteria range, or the range summed, is not
    of the shape of the first criteria range: Microsoft's pages ask for "the same number
    of rows and columns" and formulas computes such a call anyway (COUNTIFS over a range
    of 6 by 2 and one of 6 by 1 gave a count)."""
    import functools

    import numpy as np
    from formulas.functions import Error

    first = 0 if key.endswith("COUNTIFS") else 1  # (SUMIFS: sum_range, then the pairs)

    def shape(v):
        return np.shape(getattr(v, "value", v))

    @functools.wraps(original)
    def of_one_shape(*args):
        areas = ([args[0]] if first else []) + list(args[first::2])
        if len({shape(a) for a in areas}) > 1:
            context.refuse(f"{key.removeprefix('_XLFN.')} with ranges of different sizes")
            return Error.errors["#VALUE!"]
        return original(*args)

    return of_one_shape


def averaged_numbers(original, key: str):
    """formulas' AVERAGEIFS (``key``), refused in strict mode (``context.refuse``,
    ``#VALUE!``) where its average_range holds text or a logical value: formulas leaves
    them out, and Microsoft's pages disagree (the function's page: text there gives
    #DIV/0!; the WorksheetFunction.AverageIfs page: "Cells in range that contain TRUE
    evaluate as 1", text "generates an error"). Numbers and empty cells (ignored, as both
    pages say) are computed, and text or logical values where no criteria match (what
    AVERAGEIFS gives for a range holding 1 in those cells only is then #DIV/0!); an error
    value is refused by its form (``errors``)."""
    import functools

    import numpy as np
    import schedula as sh
    from formulas.functions import Error

    @functools.wraps(original)
    def numbers_only(*args):
        values = np.asarray(getattr(args[0], "value", args[0]), dtype=object) if args \
            else np.empty(0, dtype=object)
        odd = np.vectorize(lambda v: v is not sh.EMPTY and isinstance(v, str | bool | np.bool_),
                           otypes=[bool])(values) if values.size else np.zeros(0, dtype=bool)
        if odd.any():  # averaged only where the criteria match: are any of them matched?
            marked = np.full(values.shape, sh.EMPTY, dtype=object)
            marked[odd.reshape(values.shape)] = 1.0
            if np.ravel(original(marked, *args[1:]))[0] == 1.0:
                context.refuse(f"{key.removeprefix('_XLFN.')} given text or a logical value "
                               "to average where its criteria match")
                return Error.errors["#VALUE!"]
        return original(*args)

    return numbers_only


def type_of_error(original, key: str):
    """Excel's TYPE, 16 for an error value however it comes (formulas' TYPE makes a bare
    error value an array of text first, and gave 2 for ``TYPE(SUM(1/0))``)."""
    from formulas.functions import wrap_func
    from formulas.functions.info import xtype
    from formulas.tokens.operand import XlError

    def excel_type(value):
        return 16 if isinstance(value, XlError) else xtype(value)

    return wrap_func(excel_type)


_SPACES = re.compile(" +")


def trim(original, key: str):
    """Excel's TRIM: the spaces (character 32 only) at both ends removed and every run
    of them within the text made one; formulas' removed every kind of white space at
    the ends only."""
    from formulas.functions import text, wrap_ufunc

    def excel_trim(value):
        return _SPACES.sub(" ", value.strip(" "))

    return wrap_ufunc(excel_trim, **text._kw1)


#: the first code of a character whose text depends on the computer: Windows' ANSI
#: character set and the Macintosh character set agree from 1 to 127 only
_BEYOND_ASCII = 128


def char(original, key: str):
    """Excel's CHAR: ``#VALUE!`` for a number below 1 or above 255; a character from 128
    to 255 stops strict mode (``context.refuse``), Excel giving it from the computer's
    character set: ANSI on Windows, the Macintosh character set on a Mac."""
    from formulas.functions import Error, wrap_ufunc
    from formulas.functions.text import xchar

    def excel_char(number):
        n = int(number)
        if _BEYOND_ASCII <= n <= 255:
            context.refuse(f"CHAR({n}), a character of the computer's own character set")
            return Error.errors["#VALUE!"]
        return xchar(number)

    return wrap_ufunc(excel_char)


def code(original, key: str):
    """Excel's CODE: the code of the first character of the text, a number written as
    Excel writes it in text (formulas wrote -0 as "-0.0", where Excel's numbers have no
    negative zero). A first character beyond the ASCII ones stops strict mode
    (``context.refuse``: its code depends on the computer's character set, as CHAR's),
    and so does an empty text (``#VALUE!`` otherwise)."""
    from formulas.functions import Error, wrap_ufunc
    from formulas.functions.text import xcode
    from formulas.tokens.operand import XlError

    def excel_code(character):
        if isinstance(character, XlError):
            return character
        if isinstance(character, (bool, np.bool_, int, float, np.number)):
            character = excel_text(character)
        if isinstance(character, str) and character and ord(character[0]) >= _BEYOND_ASCII:
            context.refuse(f"CODE of {character[0]!r}, a character of the computer's own "
                           "character set")
            return Error.errors["#VALUE!"]
        if isinstance(character, str) and not character:
            context.refuse("CODE of an empty text (its page does not say Excel's value)")
            return Error.errors["#VALUE!"]
        return xcode(character)

    return wrap_ufunc(excel_code, args_parser=lambda *a: a, input_parser=lambda *a: a)


def ordered_values(original, key: str):
    """formulas' LARGE or SMALL (``key``), refused in strict mode (``context.refuse``,
    ``#VALUE!``) where the array is one logical value or one text, written or given by a
    nested call: formulas gives #NUM! (it keeps numbers only), Excel reads the value as
    a number (tests/corpus/poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!F816,
    ``LARGE(TRUE,1)``, is 1; G816, ``LARGE("2.3",1)``, is 2.3), and no page says which
    texts it reads so. A range or an array keeps its numbers only, as Microsoft's pages
    and formulas both do. A k that is not a whole number, or a logical value (written or
    in the one cell referred to), is refused too."""
    import functools

    from formulas.functions import Error

    from addin.formula.fx import load

    @functools.wraps(original)
    def ordered(*args):
        values = args[0] if args else None
        one = getattr(values, "value", values)
        if np.ndim(one) == 0 or np.size(one) == 1:
            item = np.ravel(np.asarray(one, dtype=object))[0]
            if isinstance(item, (bool, np.bool_, str, np.str_)) and \
                    not hasattr(values, "ranges"):
                context.refuse(f"{key} given one logical value or text as its array")
                return Error.errors["#VALUE!"]
        if len(args) > 1 and isinstance(one_value(args[1], load()), (bool, np.bool_)):
            # SMALL(A1:A3,C1), C1 TRUE: formulas reads it as 1; no page or saved cell
            # says how Excel reads a logical k
            context.refuse(f"{key} given a logical value as its k (its page does not say "
                           "how Excel reads it)")
            return Error.errors["#VALUE!"]
        k = one_number(args[1], load()) if len(args) > 1 else None
        if k is not None and np.isfinite(k) and k != int(k):
            # LARGE(In!E1:E6,2.7) of two numbers: formulas #NUM! (k taken up to 3),
            # LibreOffice the 2nd (k cut to 2); the pages say neither
            context.refuse(f"{key} given a k that is not a whole number (its page does not "
                           "say whether Excel rounds it up or cuts it)")
            return Error.errors["#VALUE!"]
        return original(*args)

    return ordered


def plain_numeric_text(original, key: str):
    """formulas' ``key`` (a function checked for text that looks like a number), refused
    in strict mode (``context.refuse``, ``#VALUE!``) where it is given a text Excel reads
    as a number and formulas reads otherwise: formulas reads a text with ``float()``,
    Excel also a date, a percentage, a currency or thousands separators
    (``ROUNDUP("2024-03-15",5)`` gave #VALUE!; Excel reads the date, as LibreOffice does:
    the differential test). Plain numbers ("1", "2.99999", "23") read alike: the cells
    Excel saved in tests/corpus/poi/FormulaEvalTestData_Copy.xlsx."""
    import functools

    from formulas.functions import Error

    from addin.formula.fx import load

    ns = load()

    def texts(v):
        if isinstance(v, ns.Ranges):
            try:
                v = v.value
            except Exception:
                return
        if isinstance(v, np.ndarray):
            for x in v.ravel():
                if isinstance(x, str) and x is not ns.EMPTY:
                    yield x
        elif isinstance(v, str):
            yield v

    def differs(text: str) -> bool:
        try:
            excel = text_value(text)
        except ValueError:
            return False  # no number for Excel either
        try:
            return float(text) != excel
        except ValueError:
            return True

    @functools.wraps(original)
    def plain(*args):
        if any(differs(t) for a in args for t in texts(a)):
            context.refuse(f"{key}() given a text that reads as a number only as Excel "
                           "reads a date, a percentage or a currency")
            return Error.errors["#VALUE!"]
        return original(*args)

    return plain


def nper_settled(original, key: str):
    """formulas' NPER, refused in strict mode (``context.refuse``, ``#VALUE!``) where its
    page does not settle the value: a rate of -1 or below, a payment of 0 with a rate of
    0 or a present value of 0 (no number of periods solves the equation, or every one
    does: formulas #NUM!, LibreOffice 0), a type other than 0 or 1 (formulas #VALUE!,
    LibreOffice a number). At a rate of 0 it gives -(pv + fv)/pmt, from
    pmt*nper + pv + fv = 0 (Microsoft Support, "PV function"), where formulas'
    numpy_financial gives (pv - fv)/pmt."""
    import functools

    from formulas.functions import Error

    from addin.formula import fx
    from addin.formula.fx import load

    ns = load()

    def number(v):  # (a logical value as its number; numpy's numbers too: TANH(0)); an
        w = one_value(v, ns)  # empty cell 0 (Microsoft KB Q149577: "Microsoft Excel
        if w is ns.EMPTY:  # interprets a blank cell as zero"; NPER(...,D7) of
            return 0.0  # FormulaEvalTestData's EverythingTests!G992, saved 5.8963128603699)
        return float(w) if isinstance(w, (bool, np.bool_)) else one_number(v, ns)

    @functools.wraps(original)
    def settled(*args):
        rate, pmt, pv = (number(a) for a in args[:3]) if len(args) >= 3 else (None,) * 3
        kind = number(args[4]) if len(args) > 4 else 0.0
        if kind not in (0.0, 1.0) or rate is not None and pmt is not None and pv is not None \
                and (rate <= -1 or (pmt == 0 and (rate == 0 or pv == 0))):
            context.refuse("NPER with a rate of -1 or below, a payment of 0 with a rate or "
                           "a present value of 0, or a type other than 0 or 1 (its page "
                           "does not say Excel's value)")
            return Error.errors["#VALUE!"]
        fv = number(args[3]) if len(args) > 3 and not fx.is_omitted(args[3]) else 0.0
        if rate == 0 and pmt and pv is not None and fv is not None:
            # at a rate of 0 the payments alone carry pv to -fv: pmt*nper + pv + fv = 0
            # (Microsoft Support, "PV function"); numpy_financial's nper there gives
            # (pv - fv)/pmt, NPER(0,-2,1,3) 1 for 2
            return -(pv + fv) / pmt
        return original(*args)

    return settled


#: function -> (argument, the largest magnitude napkin computes it for): FACT of more than
#: 20 (formulas' product in 64-bit integers: #VALUE! from 21!, Excel 5.1E+19; 10^10! took
#: it minutes), TRUNC to
#: more than 308 places (formulas loops over them), EVEN, ODD and INT beyond 2^53 (formulas
#: gives #VALUE!: INT(8E+58), INT(-1E+19)), LOG to the base 1; no page says Excel's value
#: there (declared ``bound``)
BOUNDS = excel_functions.facts("bound")


def _digits_cut_differ(x, digits) -> bool:
    """Whether ``x`` truncated to ``digits`` places differs from its 15 significant
    digits (the number Excel shows) truncated so."""
    from decimal import ROUND_DOWN, Decimal

    if x is None or digits is None or not np.isfinite(x):
        return False
    d = int(digits)

    def cut(v: Decimal) -> Decimal:
        return v.scaleb(d).to_integral_value(rounding=ROUND_DOWN)

    return cut(Decimal(x)) != cut(Decimal(f"{x:.15g}"))


def bounded(original, key: str):
    """formulas' ``key`` (``BOUNDS``), refused in strict mode (``context.refuse``,
    ``#VALUE!``) where an argument is beyond its bound: formulas' value there is not
    Excel's, or takes minutes, and Microsoft's page does not say Excel's."""
    import functools

    from formulas.functions import Error

    from addin.formula.fx import load

    ns = load()
    key = key.removeprefix("_XLFN.")
    at, limit = BOUNDS[key]

    def number(v):
        v = one_value(v, ns)
        if isinstance(v, str):
            try:
                return text_value(v)
            except ValueError:
                return None
        if isinstance(v, (bool, np.bool_)):
            return float(v)
        return one_number(v, ns)  # (numpy's numbers too: FACT(SQRT(1000)))

    @functools.wraps(original)
    def within(*args):
        x = number(args[at]) if len(args) > at else None
        if x is not None and (x == 1 if limit is None else abs(x) > limit):
            beyond = "as its base" if limit is None else f"beyond {limit:g}"
            context.refuse(f"{key}() given {x:g} {beyond} (its page does not say Excel's "
                           "value)")
            return Error.errors["#VALUE!"]
        if key == "TRUNC" and _digits_cut_differ(number(args[0]), x if len(args) > 1 else 0):
            context.refuse("TRUNC() of a number its 15 significant digits truncate "
                           "otherwise (7.1^3 to 5 places: 357.91099, or 357.911): whether "
                           "TRUNC takes them first, as ROUNDDOWN does, no page says")
            return Error.errors["#VALUE!"]
        return original(*args)

    return within


def row_of_range(original, key: str):
    """Excel's ROW given a range of several rows: its row numbers as a vertical array
    (Microsoft Support, "ROW function": "If reference is a range of cells, and if ROW is
    entered as a vertical array, ROW returns the row numbers of reference as a vertical
    array"), where Excel computes a formula as an array: a defined name's formula and an
    array formula. In a formula of one cell Excel 365 spills the rows and earlier versions
    take the top one: strict mode refuses it there (``context.refuse``), the value
    unchanged. Evidence of a name: heldout5's Personal Budget.xlsx, whose income_max_row =
    MAX(ROW(income[])) is 12, the table's last row, in the cells Excel saved ('Budget
    Dashboard'!C16:C17, 12 and then income_total_row); tests/test_array_arguments_repeated.py."""
    from addin.formula import ranges

    function = original["function"]

    def row(cell=None, ref=None):
        node = getattr(context.STATE, "node", None)
        if ref is not None and node is not None and not node.is_name and \
                node.spill is None and _rows(ranges, ref) > 1:
            context.refuse("ROW given a range of several rows in a formula of one cell "
                           "(Excel 365 spills its rows, earlier versions take the top one): "
                           "write ROW of the range's first cell, or make it an array formula")
        return function(cell, ref)

    return {**original, "function": row}


def _rows(ranges, ref) -> int:
    """The rows of the areas of a reference (0 for what is not one)."""
    try:
        return sum(r2 - r1 + 1 for _, r1, _c1, r2, _c2 in ranges.areas(ref))
    except Exception:  # (not a reference: formulas' own error follows)
        return 0


def floor_checked(original, key: str):
    """Excel's FLOOR (``addin.formula.fx_excel.to_multiple``), refused (``context.refuse``)
    given an empty cell as its significance: read as 0, whose value (formulas' #DIV/0!)
    neither Microsoft's FLOOR page nor a cell Excel saved gives (CEILING's is: 0,
    FormulaEvalTestData's EverythingTests!G212). An empty number is 0, a multiple of any.

    References: Microsoft Support, "FLOOR function"."""
    from addin.formula.fx import load
    from addin.formula.fx_excel import to_multiple

    floor = to_multiple(original, key)

    def checked(num, sig):
        ns = load()
        if one_value(sig, ns) is ns.EMPTY:
            context.refuse("FLOOR() given an empty cell as its significance (read as 0: no "
                           "Microsoft page or Excel-saved cell gives FLOOR(x,0))")
            return ns.errors["#VALUE!"]
        return floor(num, sig)

    return checked
