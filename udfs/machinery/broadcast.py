"""Run a catalog formula over scalars or ranges: the one path every function takes.

``run(kernel, bound)`` reads each argument with its ``udfs.machinery.args.Arg``, calls the
kernel (plain arithmetic, see ``udfs.machinery.xp``) and returns an Excel value:

* all scalars: one value, or an ``udfs.machinery.errors.ExcelError``;
* any range: an array of the broadcast shape (numpy rules; Excel spills it), with an
  error value in each element whose inputs were bad. With numpy the kernel runs once
  over whole arrays and the result is a numpy array whatever the range came as (a list,
  a tuple or an array), as numpy's own functions do: float (or bool, or text) when
  every element has a value, object when some are ``udfs.machinery.errors.ExcelError``.
  Both xlwings routes write an array to the sheet themselves (their
  ``NumpyArrayConverter``); the add-in adapters turn only the errors into Excel's.
  Without numpy the kernel runs element by element through the scalar path and the
  result is nested lists.

A result that is not a finite number (a division by zero the argument checks did not
catch) is ``#NUM!``: a cell never receives NaN or infinity.
"""

from __future__ import annotations

import itertools
import math

from .args import Arg, is_range
from .errors import ExcelError, num_error, value_error
from .xp import np

NUMBER, BOOL, TEXT = "number", "bool", "text"
_OVERFLOW = "a number is beyond the largest a cell holds (about 1.8E+308)"


def run(kernel, bound: list[tuple[Arg, object]], *, result: str = NUMBER,
        scale: float = 1.0, nonfinite: str = "the result is not a finite number"):
    """Evaluate ``kernel`` over the arguments ``bound`` = [(Arg, Excel value), ...]."""
    try:
        if not any(is_range(v) for _, v in bound):
            xs = [a.scalar(v) for a, v in bound]
            try:
                y = kernel(*xs)
            except (ZeroDivisionError, OverflowError):
                raise num_error(nonfinite) from None
            return _finish(y, result, scale, nonfinite)
        for a, v in bound:
            if is_range(v) and _is_empty(v):
                raise value_error(f"{a.name}: the range is empty")
        if np is None:
            return _map_python(kernel, bound, result, scale, nonfinite)
        return _map_numpy(kernel, bound, result, scale, nonfinite)
    except ExcelError as e:
        return e
    except OverflowError:  # an integer beyond a float (=2^1100 as a Python int)
        return ExcelError("#NUM!", _OVERFLOW)
    except Exception as exc:  # the last line of defence for a cell
        return ExcelError("#VALUE!", f"napkin internal error ({type(exc).__name__}: {exc})")


def _finish(y, result, scale, nonfinite):
    if result == NUMBER:
        y = float(y) * scale
        if not math.isfinite(y):
            raise num_error(nonfinite)
        return y
    if result == BOOL:
        return bool(y)
    return str(y)


def _map_numpy(kernel, bound, result, scale, nonfinite):
    values, errors, ranges = [], [], []
    for a, v in bound:
        if is_range(v):
            x, e = a.array(v)
            if isinstance(v, np.ndarray):
                ranges.append(v)
        else:
            try:
                # numpy scalars, so that x / 0 gives inf (then #NUM!), not an exception
                x, e = np.float64(a.scalar(v)), None
            except ExcelError as exc:
                x, e = np.float64(np.nan), np.array(exc, dtype=object)
        values.append(x)
        errors.append(e)
    try:
        shape = np.broadcast_shapes(*[np.shape(x) for x in values])
    except ValueError:
        shapes = " and ".join(str(np.shape(x)) for x in values if np.ndim(x))
        raise value_error(f"ranges of shapes {shapes} do not fit together") from None
    with np.errstate(all="ignore"):
        y = kernel(*values)
        if np.shape(y) != shape:
            y = np.broadcast_to(y, shape)
        if result == NUMBER:
            y = np.asarray(y, dtype=float)
            if scale != 1.0:
                y = y * scale
            # finite throughout when the least and the greatest are (NaN makes them NaN)
            any_bad = y.size > 0 and not (math.isfinite(y.min()) and math.isfinite(y.max()))
            if any_bad:
                bad = ~np.isfinite(y)
        else:
            any_bad = False
    if not any_bad and all(e is None for e in errors):  # the common case: no object arrays
        out = y if result != BOOL else np.asarray(y, dtype=bool)
        # a caller's own array, or a read-only view (of packed input, or broadcast), is
        # copied: what a caller receives is theirs to change
        if not out.flags.writeable or any(out is x for x in ranges):
            return out.copy()
        return out
    out = np.asarray(y).astype(object)
    if any_bad:
        out[bad] = num_error(nonfinite)
    for e in reversed(errors):  # the first argument's error wins
        if e is not None:
            e = np.broadcast_to(e, shape)
            mask = e != None  # noqa: E711 - element-wise test on an object array
            out[mask] = e[mask]
    return out


def _is_empty(v) -> bool:
    if np is not None and isinstance(v, np.ndarray):
        return v.size == 0
    return len(v) == 0 or (isinstance(v[0], list | tuple) and len(v[0]) == 0)


def _shape(v):
    if not is_range(v):
        return ()
    if np is not None and isinstance(v, np.ndarray):
        return v.shape
    rows = list(v)
    if rows and all(isinstance(r, list | tuple) for r in rows):
        return (len(rows), len(rows[0]))
    return (len(rows),)


def _at(v, shape, idx):
    if not shape:
        return v
    idx = idx[len(idx) - len(shape):]
    if len(shape) == 1:
        return v[0 if shape[0] == 1 else idx[0]]
    row = v[0 if shape[0] == 1 else idx[0]]
    return row[0 if shape[1] == 1 else idx[1]]


def map_elements(fn, named_values: list[tuple[str, object]]):
    """Call ``fn`` on each element of the broadcast arguments, in pure Python.

    ``named_values`` = [(argument name, Excel value)]. Scalars call ``fn`` once. The
    result has numpy's broadcast shape (at most 2-D): an object array where numpy is
    present, as ``run`` gives, else nested lists; an ExcelError that ``fn`` raises
    or returns becomes that element's value.
    """
    shapes = [_shape(v) for _, v in named_values]
    for (name, v), s in zip(named_values, shapes, strict=True):
        if 0 in s:
            raise value_error(f"{name}: the range is empty")
        if len(s) > 2:
            raise value_error(f"{name}: a range has at most two dimensions")
        if len(s) == 2 and not (np is not None and isinstance(v, np.ndarray)) and any(
                not isinstance(r, list | tuple) or len(r) != s[1] for r in v):
            raise value_error(f"{name}: a range must be rectangular (rows of equal length)")
        if len(s) == 1 and any(isinstance(x, list | tuple) for x in v):
            raise value_error(f"{name}: a range must be rectangular (rows of equal length)")
    ndim = max(len(s) for s in shapes)
    out_shape = []
    for d in range(ndim):
        sizes = {s[d - (ndim - len(s))] for s in shapes if d >= ndim - len(s)}
        sizes.discard(1)
        if len(sizes) > 1:
            raise value_error(f"ranges of shapes {' and '.join(str(s) for s in shapes if s)} "
                              "do not fit together")
        out_shape.append(sizes.pop() if sizes else 1)
    flat = []
    for idx in itertools.product(*[range(n) for n in out_shape]):
        try:
            flat.append(fn(*[_at(v, s, idx) for (_, v), s in zip(named_values, shapes,
                                                                   strict=True)]))
        except ExcelError as e:
            flat.append(e)
    if ndim == 0:
        return flat[0]
    if np is not None:
        out = np.empty(len(flat), dtype=object)
        out[:] = flat
        return out.reshape(out_shape)
    if ndim == 1:
        return flat
    width = out_shape[1]
    return [flat[i:i + width] for i in range(0, len(flat), width)]


def _map_python(kernel, bound, result, scale, nonfinite):
    """Element by element, for a Python without numpy (mirrors numpy broadcasting)."""
    args = [a for a, _ in bound]
    return map_elements(
        lambda *xs: run(kernel, list(zip(args, xs, strict=True)), result=result, scale=scale,
                        nonfinite=nonfinite),
        [(a.name, v) for a, v in bound])


def guard(fn, *args):
    """Call ``fn`` and turn any error into an Excel error value: a cell never shows a
    traceback. An unexpected exception is a bug of ours; its message says so."""
    try:
        return fn(*args)
    except ExcelError as e:
        return e
    except OverflowError:  # an integer beyond a float (=2^1100 as a Python int)
        return ExcelError("#NUM!", _OVERFLOW)
    except Exception as exc:  # the last line of defence for a cell
        return ExcelError("#VALUE!", f"napkin internal error ({type(exc).__name__}: {exc})")
