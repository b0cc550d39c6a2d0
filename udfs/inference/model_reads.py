"""A model named instead of counted: what a decode step reads of it, and what a token
multiplies, from the built-in model table or from a model table range.

``DECODE_FLOOR("Llama 4 Maverick","FP8",8*4.8,4096)`` and ``PREFILL_MS("Llama 3.1 8B",
2000,989)`` take a model name where a parameter count goes. The name is looked up as
``MODEL_SPEC`` looks it up (``udfs.inference.tables.match``), in the built-in table, or in the
range given as the ``models`` argument (a model table with its header row, such as the
template's Models sheet, so a row the user typed or edited counts). From the row:

* the weights a decode step of B sequences reads [1]:

  .. math:: N_{read}(B) = \\begin{cases} N & \\text{dense} \\\\
            N_{decode} + N_{expert} \\left(E_{read}(B) - k\\right) & \\text{MoE}
            \\end{cases}

  with N the total parameters (less the per-layer embedding table of Gemma 4 E2B and
  E4B, of which a step reads a row per layer and token, as of the input embedding),
  N_decode the weights read at batch 1 (the active parameters without the input
  embedding table), N_expert one routed expert over all MoE layers and E_read(B) =
  E(1 − (1 − k/E)^B) the distinct experts the batch touches
  (``udfs.inference.memory.moe_decode_params``, as the template's Models, Sizing and Cost sheets
  compute it);
* the active parameters, which the math term multiplies (N for a dense model, but for
  the per-layer embedding table, which no token multiplies);
* the bytes of those weights where the model's quantized checkpoint keeps parts in BF16
  (``udfs.inference.checkpoints``: gpt-oss's attention, router and head, FP8 checkpoints' head):
  the K_decode kept weights a step reads at 2 bytes, the rest at the precision b, given
  to the floor as the bytes per parameter of the weights read,

  .. math:: b_{read} = \\frac{(N_{read} - K_{decode}) \\, b + K_{decode} \\max(b, 2)}
            {N_{read}}

  as the Sizing sheet computes its floor (WEIGHT_GB of the weights read with the kept
  ones; ``udfs.inference.memory.weight_gb``).

A row is MoE when it gives its routed experts E and experts per token k. Text that reads
as a count ("8.03B", "70b"), or starts as a number, stays a count: a name is text that
does not.

A range is read by its headers, so its columns may come in any order and it may leave
some out; a column left out counts as its cells left empty, except where that would give
a wrong number, which is ``#VALUE!`` naming ``models`` and the column: a row with fewer
active than total parameters (a mixture of experts) in a range without the experts
columns, or a mixture of experts in one without the columns of the weights a step reads;
a model of the built-in table whose checkpoint keeps weights a step reads in
BF16, at a precision below 2 bytes, in a range without the column of those weights; and a
model of the built-in table with a per-layer embedding table in a range without its
column.

References
----------
.. [1] W. Feller, *An Introduction to Probability Theory and Its Applications*, vol. 1,
   3rd ed., Wiley, 1968, ch. II (occupancy: the expected number of cells a number of
   draws fills), as ``udfs.inference.memory.moe_experts_read`` applies it to routing.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..machinery.args import POSITIVE, Arg, Count, is_range
from ..machinery.broadcast import map_elements
from ..machinery.errors import ExcelError, as_excel_error, na_error, value_error
from ..machinery.explain import num
from ..machinery.xp import np
from . import tables
from .memory import moe_decode_params, moe_experts_read, weight_gb
from .precisions import Precision

_COUNT = Count("params", domain=POSITIVE)
_BATCH = Arg("batch", None, POSITIVE)
_PRECISION = Precision()
BILLION = 1e9

#: The columns a model table range may give, by field: the header texts accepted (matched
#: as ``udfs.inference.tables.name_key`` reads them: the template's Models headers and
#: ``data/models.csv``'s column names) and the factor to a count.
TABLE_COLUMNS = {
    "name": (("Model", "name"), None),
    "params": (("Parameters, total (billions)", "total_params_B"), BILLION),
    "active_params": (("Parameters active per token (billions)", "active_params_B"), BILLION),
    "num_experts": (("Experts (routed)", "num_experts"), 1.0),
    "experts_per_token": (("Experts per token", "experts_per_token"), 1.0),
    "decode_params": (("Weights read per decode step, batch 1 (billions)",
                       "decode_params_B"), BILLION),
    "expert_params": (("One routed expert, all MoE layers (billions)", "expert_params_B"),
                      BILLION),
    "kept_decode_params": (("Of those, read per decode step (billions)",
                            "kept_decode_params_B"), BILLION),
    "per_layer_params": (("Per-layer embeddings, looked up (billions)",
                          "per_layer_embedding_params_B"), BILLION),
}
_HEADER_KEYS = {tables.name_key(h): field for field, (heads, _) in TABLE_COLUMNS.items()
                for h in heads}
#: The fix a message about a models range gives: the template's whole Models table (its
#: header row is row 5, its last column AB, the per-layer embeddings).
WHOLE_TABLE = ("select the whole Models table, header row included: columns A to AB "
               "from Models!A5 down to its last row")
_EXPERT_FIELDS = ("num_experts", "experts_per_token")


@dataclass(frozen=True)
class ModelRow:
    """The figures of one model that a decode step's floor needs, as counts.

    ``decode_params``, ``expert_params``, ``num_experts`` and ``experts_per_token`` are
    None for a dense model (or where the table leaves them empty); ``kept_decode_params``,
    the weights a step reads that the checkpoint keeps in BF16, is 0 (None: the table
    leaves it empty) where none are kept; ``per_layer_params``, the per-layer embedding
    table (Gemma 4 E2B, E4B), is 0 or None where there is none. ``absent`` holds the
    fields of ``TABLE_COLUMNS`` a models range has no column for (none for the built-in
    table).
    """

    name: str
    source: str
    params: float
    active_params: float
    decode_params: float | None = None
    expert_params: float | None = None
    num_experts: float | None = None
    experts_per_token: float | None = None
    kept_decode_params: float | None = None
    per_layer_params: float | None = None
    absent: frozenset[str] = frozenset()

    @property
    def moe(self) -> bool:
        """Whether the row gives routed experts and experts per token."""
        return bool(self.num_experts) and bool(self.experts_per_token)

    def _lacks(self, fields) -> str:
        """The headers of ``fields`` the range has no column for, quoted and joined."""
        return " or ".join(repr(TABLE_COLUMNS[f][0][0]) for f in fields if f in self.absent)

    def reads(self, batch: float) -> float:
        """Weights a decode step of ``batch`` sequences reads (see the module).

        Raises
        ------
        ExcelError
            ``#VALUE!`` naming ``models`` for a row with fewer active than total
            parameters in a range without the experts columns (the step's reads are not
            known), or for a mixture of experts in a range without the columns of the
            weights a step reads; ``#N/A`` for one whose cells of them are empty.
        """
        if not self.moe:
            held = _builtin_figure(self.name, "per_layer_embedding_params")
            if "per_layer_params" in self.absent and held:
                raise value_error(
                    f"models: the range has no {self._lacks(['per_layer_params'])} column "
                    f"(the Models sheet's column AB), and {self.name} holds {_n(held)} "
                    "parameters of per-layer embeddings, which a decode step looks up "
                    f"rather than reads: {WHOLE_TABLE}")
            lacks = self._lacks(_EXPERT_FIELDS)
            if lacks and self.active_params < self.params and not self.per_layer_params:
                raise value_error(
                    f"models: the range has no {lacks} column, and {self.name} has fewer "
                    "active than total parameters (a mixture of experts), so the weights a "
                    f"decode step reads are not known: {WHOLE_TABLE}")
            return self.params - (self.per_layer_params or 0.0)
        for field in ("decode_params", "expert_params"):
            if getattr(self, field) is None and field in self.absent:
                raise value_error(
                    f"models: the range has no {self._lacks([field])} column, and "
                    f"{self.name} is a mixture of experts, so the weights a decode step "
                    f"reads are not known: {WHOLE_TABLE}")
            if getattr(self, field) is None:
                raise na_error(f"params: {self.name} is a mixture of experts, and the "
                               f"{self.source} has no {field} for it (the weights a step "
                               "reads)")
        return float(moe_decode_params(self.decode_params, self.expert_params,
                                       self.num_experts, self.experts_per_token, batch))

    def read_bytes(self, batch: float, bytes_per_param: float) -> float:
        """Bytes per parameter of the weights a step of ``batch`` reads in the precision
        ``bytes_per_param``, its kept BF16 weights at 2 bytes (see the module)."""
        kept = self.kept_read(bytes_per_param)
        if not kept:
            return bytes_per_param
        n = self.reads(batch)
        return float(weight_gb(n, bytes_per_param, kept)) * 1e9 / n

    def kept_read(self, bytes_per_param: float) -> float:
        """The weights a step reads that the checkpoint keeps in BF16 (0: none), in a
        step whose other weights take ``bytes_per_param``.

        Raises
        ------
        ExcelError
            ``#VALUE!`` naming ``models`` where the range has no column of those weights,
            the row is a model of the built-in table whose checkpoint keeps some, and
            ``bytes_per_param`` is below 2 (where they would count at 2 bytes).
        """
        if "kept_decode_params" in self.absent and bytes_per_param < 2:
            builtin = _builtin_figure(self.name, "kept_decode_params")
            if builtin:
                raise value_error(
                    f"models: the range has no {self._lacks(['kept_decode_params'])} column "
                    f"(the Models sheet's column AA), and {self.name}'s checkpoint keeps "
                    f"{_n(builtin)} of the weights a decode step reads in BF16, at 2 bytes "
                    f"each: {WHOLE_TABLE}")
        return self.kept_decode_params or 0.0


def _builtin_figure(name: str, field: str) -> float:
    """A figure of the built-in model named ``name`` (its whole name, case, spaces and
    punctuation ignored), or 0 (none given, or no such model): the kept BF16 weights a
    step reads, or the per-layer embeddings."""
    key = tables.name_key(name)
    for built_in, row in tables.models().items():
        if tables.name_key(built_in) == key:
            return float(row.get(field) or 0.0)
    return 0.0


def is_name(v) -> bool:
    """Whether ``v`` is a model name: text that is not empty, not an error value and not
    a count ("8.03B" is a count, "Llama 3.1 8B" a name). Text that starts as a number
    ("8.03 Gb") is not a name either: it stays the count's ``#VALUE!``."""
    if not isinstance(v, str) or as_excel_error(v) is not None:
        return False
    text = v.strip()
    if not text or text[0] in "0123456789+-.,":
        return False
    try:
        _COUNT.read_text(text)
    except ExcelError:
        return True
    return False


def names_in(v) -> bool:
    """Whether ``v``, a value or a range, holds a model name (``is_name``)."""
    if isinstance(v, str):
        return is_name(v)
    if np is not None and isinstance(v, np.ndarray):
        return v.dtype == object and any(is_name(x) for x in v.ravel())
    if isinstance(v, list | tuple):
        return any(names_in(x) for x in v)
    return False


def _figure(row: dict, field: str, name: str, optional: bool = False) -> float | None:
    raw = (row.get(field) or "").strip()
    if raw == "":
        if optional:
            return None
        raise na_error(f"params: the built-in table has no {field} for {name}")
    return float(raw)


def builtin_row(name: str) -> ModelRow:
    """The row of the built-in table (``udfs.inference.tables.models``) that ``name`` names."""
    rows = tables.models()
    row = rows[tables.match(name, rows, "models", "params")]
    moe = _figure(row, "num_experts", row["name"], True)
    return ModelRow(row["name"], "built-in table", _figure(row, "params", row["name"]),
                    _figure(row, "active_params", row["name"]),
                    _figure(row, "decode_params", row["name"], True) if moe else None,
                    _figure(row, "expert_params", row["name"], True) if moe else None,
                    moe, _figure(row, "experts_per_token", row["name"], True),
                    _figure(row, "kept_decode_params", row["name"], True),
                    _figure(row, "per_layer_embedding_params", row["name"], True))


def _rows_of(v) -> list[list]:
    """A range as a list of rows (a one-dimensional range is one row)."""
    if np is not None and isinstance(v, np.ndarray):
        v = v.tolist()
    rows = [list(r) for r in v] if v and all(isinstance(r, list | tuple) for r in v) \
        else [list(v)]
    if any(len(r) != len(rows[0]) or any(isinstance(x, list | tuple) for x in r)
           for r in rows):
        raise value_error("models: a range must be rectangular (rows of equal length)")
    return rows


def _cell_number(v, field: str, name: str, factor: float) -> float | None:
    """A figure of a table range as a count (None: the cell is empty)."""
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    err = as_excel_error(v)
    if err is not None:
        raise na_error(f"models: the {field} of {name} is an error ({err.code})")
    if isinstance(v, bool) or not isinstance(v, int | float) and not (
            np is not None and isinstance(v, np.number)):
        raise value_error(f"models: the {field} of {name} is not a number ({v!r})")
    return float(v) * factor


def _range_row(name: str, r: list, where: dict) -> ModelRow | ExcelError:
    """One row of a table range, or the error it gives when it is asked for (a note
    below the table, a row without its counts)."""
    try:
        figs = {field: _cell_number(r[j], field, name, TABLE_COLUMNS[field][1])
                for field, j in where.items() if field != "name"}
        for field in ("params", "active_params"):
            if figs[field] is None:
                raise na_error(f"models: the range has no {field} for {name}")
    except ExcelError as e:
        return e
    return ModelRow(name, "models range", **figs,
                    absent=frozenset(TABLE_COLUMNS).difference(where))


def range_rows(v) -> dict[str, ModelRow | ExcelError]:
    """The models of a table range: its first row the headers (``TABLE_COLUMNS``), one
    model a row below; rows with an empty name are skipped, and a row without its counts
    (a note below the table) is the error it gives when a name finds it.

    Parameters
    ----------
    v : range
        The range as a host passes it: a list of rows, or an array.

    Returns
    -------
    dict
        Name → ``ModelRow`` (figures as counts: billions × 10⁹), or the ``ExcelError``
        of a row that cannot be read.

    Raises
    ------
    ExcelError
        ``#VALUE!`` for a value that is not a range, a range that is not rectangular,
        or headers without the model's name, total and active parameters.
    """
    if not is_range(v):
        err = as_excel_error(v)
        if err is not None:
            raise err
        raise value_error("models: expected a model table range with its header row: "
                          f"{WHOLE_TABLE}")
    rows = _rows_of(v)
    where = {}
    for j, h in enumerate(rows[0] if rows else []):
        field = _HEADER_KEYS.get(tables.name_key(h)) if isinstance(h, str) else None
        if field is not None and field not in where:
            where[field] = j
    missing = [TABLE_COLUMNS[f][0][0] for f in ("name", "params", "active_params")
               if f not in where]
    if missing:
        raise value_error("models: the first row of the range must be the table's headers; "
                          f"no {', '.join(repr(m) for m in missing)} column: {WHOLE_TABLE}")
    out = {}
    for r in rows[1:]:
        name = r[where["name"]]
        if isinstance(name, str) and name.strip():
            out.setdefault(name.strip(), _range_row(name.strip(), r, where))
    if not out:
        raise na_error("models: the range holds no model (every name cell is empty)")
    return out


def table_row(name: str, table: dict[str, ModelRow | ExcelError] | None) -> ModelRow:
    """The row ``name`` names: in ``table`` (from ``range_rows``), else built in."""
    if table is None:
        return builtin_row(name)
    try:
        found = tables.match(name, table, "models", "params")
    except ExcelError as e:
        raise ExcelError(e.code, e.message.replace("the built-in table", "the models range")
                         ) from None
    if found not in table:  # an alias of the built-in table for a row this range lacks
        raise na_error(f"params: no model named {name!r} in the models range")
    row = table[found]
    if isinstance(row, ExcelError):
        raise row
    return row


def _read_batch(b) -> float:
    return 1.0 if b is None else _BATCH.scalar(b)


def _each(fn, named: list[tuple[str, object]]):
    """``fn`` over the arguments, element-wise where one is a range."""
    if not any(is_range(v) for _, v in named):
        return fn(*[v for _, v in named])
    return map_elements(fn, named)


def decode_args(params, precision, batch, active_params, models):
    """DECODE_FLOOR's ``params``, ``active_params`` and ``precision`` where ``params``
    names a model.

    Parameters
    ----------
    params : float, str or range
        A count, or a model name (or a range of them).
    precision : float, str or range
        The weights' precision as given (a name or bytes per parameter).
    batch : float, str, range or None
        Sequences decoded in the step (None: 1).
    active_params : float, str, range or None
        The active parameters as given (None: the row's).
    models : range or None
        A model table range with its header row (``range_rows``); None: the built-in
        table.

    Returns
    -------
    tuple
        (params, active_params, precision): where ``params`` is a name, the weights the
        step reads at the batch and the row's active parameters, as counts, and the
        bytes per parameter of those weights with the kept ones at 2 bytes (the
        precision as given where the row keeps none); elsewhere as given.
        ``decode_args("Llama 3.1 8B", "BF16", 1, None, None)`` = (8.03e9, 8.03e9,
        "BF16"); gpt-oss-120b in MXFP4 at batch 1: 5.13e9 weights read, 1,589,080,960 of
        them kept in BF16: (3,540,919,040 × 0.53125 + 1,589,080,960 × 2) ÷ 5.13e9 =
        0.98622 B per parameter.
    """
    table = None if models is None else range_rows(models)

    def reads(p, b):
        return table_row(p, table).reads(_read_batch(b)) if is_name(p) else p

    def active(p):
        return table_row(p, table).active_params if is_name(p) else p

    def read_bytes(p, x, b):
        if not is_name(p):
            return x
        row = table_row(p, table)
        if not row.kept_decode_params and "kept_decode_params" not in row.absent:
            return x
        bytes_per_param = _PRECISION.scalar(x)
        if not row.kept_read(bytes_per_param):
            return x
        return row.read_bytes(_read_batch(b), bytes_per_param)

    new_params = _each(reads, [("params", params), ("batch", batch)])
    if active_params is None:
        active_params = _each(active, [("params", params)])
    new_precision = _each(read_bytes, [("params", params), ("precision", precision),
                                       ("batch", batch)])
    return new_params, active_params, new_precision


def prefill_args(params, models):
    """PREFILL_MS's ``params`` where it names a model: the row's active parameters.

    Parameters
    ----------
    params : float, str or range
        A count, or a model name (or a range of them).
    models : range or None
        As ``decode_args``.

    Returns
    -------
    The active parameters where ``params`` is a name, else ``params`` as given:
    ``prefill_args("Llama 4 Maverick", None)`` = 17e9.
    """
    table = None if models is None else range_rows(models)
    return _each(lambda p: table_row(p, table).active_params if is_name(p) else p,
                 [("params", params)])


def describe_decode(params, precision, batch, active_params, models) -> str:
    """How a named model became DECODE_FLOOR's counts, for EXPLAIN (one call, scalars)."""
    table = None if models is None else range_rows(models)
    row = table_row(params, table)
    b = _read_batch(batch)
    if row.moe:
        k = row.experts_per_token
        seen = moe_experts_read(row.num_experts, k, b)
        how = (f"{_n(row.decode_params)} + {_n(row.expert_params)} × ({_n(seen)} − {_n(k)}) "
               f"experts at batch {_n(b)} = {_n(row.reads(b))} weights read")
    else:
        how = f"{_n(row.reads(b))} weights read (dense)"
    active = "" if active_params is not None else f", {_n(row.active_params)} active"
    kept = ""
    if row.kept_decode_params:
        x = _PRECISION.scalar(precision)
        kept = (f"; {_n(row.kept_decode_params)} of them kept in BF16: "
                f"{_n(row.read_bytes(b, x))} B per parameter")
    return f"{row.name} ({row.source}): {how}{active}{kept}"


def describe_prefill(params, models) -> str:
    """How a named model became PREFILL_MS's count, for EXPLAIN."""
    row = table_row(params, None if models is None else range_rows(models))
    return f"{row.name} ({row.source}): {_n(row.active_params)} active parameters"


def _n(x: float) -> str:
    return num(float(x))
