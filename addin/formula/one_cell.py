"""formulas' element-wise functions run for arguments of one cell each without
``np.vectorize``.

formulas builds IF, ISNUMBER, NOT, the comparison operators, ``&`` and most of its
functions with ``wrap_ufunc``: a ``wrapper`` that reads its arguments, runs the
function's ``safe_eval`` on each element through ``np.vectorize`` and wraps the result
(``wrap_func``, and ``wrap_ranges_func`` reading references). For one cell, the
vectorising costs more than the function. ``one_cell(func)`` gives, for such a function,
one that runs ``safe_eval`` directly when every argument (after those wrappers' own
reading) is one value, and builds the result ``np.vectorize`` would: an object array of
the arguments' broadcast shape (all ones), viewed as the wrapper's type, through its
``return_func``. Anything else -- a larger argument, a value ``np.vectorize`` would
read as a sequence, a result that is itself an array, an exception -- runs the function
as formulas wrote it, from the start. (AND, OR and XOR are napkin's own,
``addin.excel.logic``, and not formulas'.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from addin.formula import fx

_MADE: dict[int, tuple[Any, Any]] = {}  # id(func) -> (func, what runs in its place)
_PLAIN = (int, float, bool, str)


def one_cell(func):
    """``func``, or (when it is one of formulas' element-wise functions) a function with
    the same results that skips ``np.vectorize`` for one-cell arguments. A step function
    checked for its number's doubt (``addin.formula.discrete_doubt``) gets the short way
    of the function it wraps, wrapped the same."""
    got = _MADE.get(id(func))
    if got is None or got[0] is not func:
        inner = getattr(func, "doubt_inner", None)
        if inner is not None:
            short = one_cell(inner)
            made = func.doubt_rewrap(short) if short is not inner else None
        else:
            made = _make(func)
        got = _MADE[id(func)] = (func, made or func)
    return got[1]


def _closure(f) -> dict:
    return dict(zip(f.__code__.co_freevars, (c.cell_contents for c in f.__closure__),
                    strict=True))


def _make(func):
    ns = fx.load()
    codes = ns.wrapper_codes
    # a wrapper that only adds to what formulas' function does where it fails
    # (``addin.formula.array_sizes``): the short way is made from that function, and
    # anything else runs the wrapper
    f = getattr(func, "one_cell_as", func)
    code = getattr(f, "__code__", None)
    reads_ranges = code is codes["ranges"]
    if reads_ranges:  # wrap_ranges_func: references read as their values
        c = _closure(f)
        if c.get("n_out") != 1:
            return None
        f = c["func"]
    if getattr(f, "__code__", None) is not codes["func"]:
        return None
    f = _closure(f)["func"]  # wrap_func: its exceptions are the function's own run's
    if getattr(f, "__code__", None) is not codes["ufunc"]:
        return None
    c = _closure(f)
    kw = c.get("kw")
    if set(kw or ()) != {"otypes"} or list(kw["otypes"]) != [object]:
        return None
    args_parser, safe_eval = c["args_parser"], c["safe_eval"]
    otype, return_func = c["otype"], c["return_func"]
    Ranges, Token, ndarray = ns.Ranges, ns.sh.Token, np.ndarray
    if (args_parser, return_func) == _defaults(ns):  # (IF, LOG10, ROUND...)
        return _plain(func, reads_ranges, safe_eval, otype, Ranges, Token, ns.sh.EMPTY)

    on_values = _on_values(safe_eval)

    def run(*args):
        try:
            vals = [a.value if isinstance(a, Ranges) else a for a in args] \
                if reads_ranges else args
            parsed = tuple(args_parser(*vals))
            if len(parsed) >= 32:  # formulas' own loop, not np.vectorize
                return func(*args)
            elems, nd, plain = [], 0, on_values is not None
            for a in parsed:
                if isinstance(a, ndarray):
                    if a.size != 1:
                        return func(*args)
                    nd = max(nd, a.ndim)
                    a = a.item()  # as np.vectorize reads it (dtype=object)
                    if plain and type(a) not in _PLAIN and not isinstance(a, Token):
                        plain = False  # (a list, a numpy number...: formulas' own reading)
                    elems.append(a)
                elif type(a) in _PLAIN or isinstance(a, Token):
                    elems.append(a)
                else:
                    return func(*args)
            res = _one_result(elems, nd, plain, on_values, safe_eval, otype)
            return func(*args) if res is None else return_func(res, *parsed)
        except Exception:  # formulas' run says what it is
            return func(*args)

    return run


def _one_result(elems: list, nd: int, plain: bool, on_values, safe_eval, otype):
    """The one-cell result of a call's elements ``elems`` (each one value): the
    function's value (``on_values`` where every element is a plain value, else formulas'
    ``safe_eval``) as an ``nd``-dimensional object array of one cell viewed as ``otype``,
    or None where the value is itself an array (formulas' own run then says what it
    is)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        r = on_values(*elems) if plain else safe_eval(*elems)
    if isinstance(r, (np.ndarray, list, tuple)):
        return None
    res = np.empty((1,) * nd, object)
    res[(0,) * nd] = r
    return res.view(otype)


def _defaults(ns) -> tuple:
    """formulas' ``wrap_ufunc``'s own ``args_parser`` (empty cells as 0,
    ``replace_empty``) and ``return_func`` (the result as it is)."""
    return ns.ufunc_defaults


def _plain(func, reads_ranges: bool, safe_eval, otype, Ranges, Token, EMPTY):
    """``run`` of ``_make`` for a function with ``wrap_ufunc``'s own ``args_parser`` and
    ``return_func`` (``_defaults``): an empty cell is read as 0 where it is found, without
    ``replace_empty``'s array comparisons (about 5 us an argument, more than the rest of
    a one-cell call), and the result is returned as it is. An empty cell is the one
    value that ``replace_empty`` changes: formulas compares each element with
    ``sh.EMPTY``, whose ``__eq__`` is identity."""
    ndarray = np.ndarray
    on_values = _on_values(safe_eval)

    def run(*args):
        try:
            if len(args) >= 32:  # formulas' own loop, not np.vectorize
                return func(*args)
            elems, nd, plain = [], 0, on_values is not None
            for a in args:
                if reads_ranges and isinstance(a, Ranges):
                    a = a.value
                if isinstance(a, ndarray):
                    if a.size != 1:
                        return func(*args)
                    nd = max(nd, a.ndim)
                    a = a.item()  # as np.vectorize reads it (dtype=object)
                    if a is EMPTY:
                        a = 0
                    elif plain and type(a) not in _PLAIN and not isinstance(a, Token):
                        plain = False  # (a list, a numpy number...: formulas' own reading)
                    elems.append(a)
                elif a is EMPTY:
                    elems.append(0)
                elif type(a) in _PLAIN or isinstance(a, Token):
                    elems.append(a)
                else:
                    return func(*args)
            res = _one_result(elems, nd, plain, on_values, safe_eval, otype)
            return func(*args) if res is None else res
        except Exception:  # formulas' run says what it is
            return func(*args)

    return run


def _on_values(safe_eval):
    """formulas' ``safe_eval`` (of ``wrap_ufunc``) for arguments that are each a number,
    a logical value, a text or an error value, when it looks for an error value with
    formulas' ``get_error``: the first argument that is an error value, found without
    ``get_error``'s walk (``flatten``), which for such values gives each as it is; the
    rest as ``safe_eval`` does, with its own names. None for any other ``check_error``
    (IF's reads its condition only)."""
    c, names = _closure(safe_eval), safe_eval.__globals__
    if c.get("check_error") is not names.get("get_error"):
        return None
    func, input_parser, check_nan = c["func"], c["input_parser"], c["check_nan"]
    XlError, FoundError, errors = names["XlError"], names["FoundError"], names["Error"].errors
    convert_noshp, convert_nan = names["convert_noshp"], names["convert_nan"]

    def on_values(*vals):
        try:
            r = next((v for v in vals if isinstance(v, XlError)), None) or \
                convert_noshp(func(*input_parser(*vals)))
            if check_nan and not isinstance(r, (XlError, str)):
                r = convert_nan(r)
        except FoundError as ex:
            r = ex.err
        except (ValueError, TypeError):
            r = errors["#VALUE!"]
        return r

    return on_values
