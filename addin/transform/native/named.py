"""``napkin native``, a model named where a count goes: DECODE_FLOOR and PREFILL_MS with
a model name as ``params`` (``udfs.inference.model_reads``), in Excel's own functions.

The name becomes the counts napkin reads from the model table, then the call is
translated as a call with those counts (and, for DECODE_FLOOR, the bytes per parameter
of the weights a step reads with the ones the checkpoint keeps in BF16 at 2 bytes, as
``udfs.inference.model_reads`` gives them):

* a constant name: the row napkin matches, its figures written as numbers (the weights a
  step reads at a constant batch as one number, or, at a batch from a cell, the MoE
  formula N_decode + N_expert × (E(1 − (1 − k/E)^B) − k) over the row's constants);
* a name from a cell: INDEX/MATCH over the hidden model table (``Tables``), the MoE
  formula where the row gives experts, the total parameters where it does not; the
  spelling the cell holds is added to the table's keys, as for MODEL_SPEC;
* a name from a formula: the same look-up where its value is text, the count's formula
  where it is a number (``IF(ISTEXT(...))``).

What cannot be translated raises ``Untranslatable``, and ``napkin native`` names the
cell: a ``models`` range (the model is looked up in the user's table, which the native
formula does not read).
"""

from __future__ import annotations

from addin.transform.native.forms import Native, _num, number_or_row
from addin.transform.native.formula import Expr
from addin.transform.native.helpers import HOIST_ARGUMENT

#: Function → (its count argument, the active-parameter argument filled from the row, or
#: None, the batch argument the MoE reads depend on, or None, the precision argument the
#: kept BF16 weights change, or None).
NAMED = {"DECODE_FLOOR": ("params", "active_params", "batch", "precision"),
         "PREFILL_MS": ("params", None, None, None)}


class Named:
    """The name form of one call: ``call`` gives the translated Expr, or None when the
    count argument holds no name (the call is translated as usual)."""

    def __init__(self, translator, untranslatable):
        self.t = translator
        self.untranslatable = untranslatable

    def call(self, name: str, form: Native, args: list[Expr]) -> Expr | None:
        from udfs.inference import model_reads

        count, active, batch, self.precision = NAMED[name]
        names = [p.name for p in form.params]
        self.form_params = form.params
        i = names.index(count)
        a = args[i]
        tables = [j for j, p in enumerate(form.params) if p.kind == "table"]
        if a.kind in ("const", "ref"):
            named = model_reads.is_name(a.value)
        else:
            named = None if a.kind == "expr" and not a.numeric else False
        for j in tables:
            if args[j].kind != "missing":
                if named is False:  # napkin reads the range only for a name
                    args[j] = Expr("", "missing")
                    continue
                raise self.untranslatable(
                    f"{name}: the model is looked up in the range given as "
                    f"{form.params[j].name} ({args[j].where or args[j].text}); the native "
                    "formula reads names from napkin's own model table only")
        if named is False:
            return None
        b = args[names.index(batch)] if batch else None
        j = names.index(active) if active else None
        if a.kind == "const":
            return self._constant(name, form, args, i, j, b)
        if a.kind == "ref":
            return self._looked_up(name, form, args, i, j, b, a.text, a.value)
        a = args[i] = self.t.hoist(a, self.t.sheet_idx, HOIST_ARGUMENT)
        numeric = self.t._branch(name, form, list(args), frozenset())
        looked = self._looked_up(name, form, args, i, j, b, a.atom, None)
        return Expr(f"IF(ISTEXT({a.atom}),{looked.text},{numeric.text})", "call",
                    result=form.result, domain=form.domain)

    def _with(self, name, form, args, i, j, reads: Expr, active: Expr,
              kept: str | None = None) -> Expr:
        new = list(args)
        new[i] = reads
        if j is not None and new[j].kind == "missing":
            new[j] = active
        if kept is not None:
            k = [p.name for p in form.params].index(self.precision)
            new[k] = self._read_bytes(new[k], reads, kept)
        return self.t._branch(name, form, new, frozenset())

    def _read_bytes(self, prec: Expr, reads: Expr, kept: str) -> Expr:
        """The bytes per parameter of the ``reads`` weights with ``kept`` (formula text)
        of them at 2 bytes: ((N − K) × b + K × MAX(b, 2)) ÷ N, ``udfs.inference.model_reads``."""
        if prec.kind == "const":
            x = next(p for p in self.form_params if p.name == self.precision
                     ).arg.scalar(prec.value)
            if reads.kind == "const":  # all constants: the number
                n, k = float(reads.value), float(kept)
                v = ((n - k) * x + k * max(x, 2.0)) / n
                return Expr(_num(v), "const", v)
            b = _num(x)
        else:
            b = number_or_row(prec.text if prec.kind == "ref" else prec.atom,
                              self.t.rng("precision", 1), self.t.rng("precision", 0))
        n = reads.text if reads.kind == "const" else f"({reads.text})"
        return Expr(f"(({n}-{kept})*{b}+{kept}*MAX({b},2))/{n}", "expr", numeric=True)

    def _constant(self, name, form, args, i, j, b) -> Expr:
        from udfs.inference import model_reads
        from udfs.machinery.errors import ExcelError

        try:
            row = model_reads.builtin_row(args[i].value)
        except ExcelError as e:
            return Expr(e.code, "call", result=form.result, domain=form.domain)
        active = Expr(_num(row.active_params), "const", row.active_params)
        if j is None:  # PREFILL_MS: the active parameters are the count
            return self._with(name, form, args, i, None, active, active)
        kept = _num(row.kept_decode_params) if row.kept_decode_params else None
        if not row.moe:
            return self._with(name, form, args, i, j, Expr(_num(row.params), "const",
                                                           row.params), active, kept)
        if b.kind in ("missing", "const"):
            batch = next(p for p in form.params if p.name == "batch").arg
            try:
                reads = row.reads(1.0 if b.kind == "missing" else batch.scalar(b.value))
            except ExcelError:  # the batch's own check gives the error
                reads = row.params
            return self._with(name, form, args, i, j, Expr(_num(reads), "const", reads),
                              active, kept)
        text = _moe(*(_num(x) for x in (row.decode_params, row.expert_params,
                                         row.num_experts, row.experts_per_token)),
                    _batch(b))
        return self._with(name, form, args, i, j, Expr(text, "expr", numeric=True), active,
                          kept)

    def _looked_up(self, name, form, args, i, j, b, n: str, spelled) -> Expr:
        from udfs.inference import tables
        from udfs.machinery.errors import ExcelError

        if isinstance(spelled, str):
            try:
                row = tables.match(spelled, tables.models(), "models", "params")
            except ExcelError:
                pass  # unknown: #N/A both ways
            else:
                self.t.tables.extra_names["models"][spelled] = row
        at = f"MATCH({n},{self.t.rng('models', 0)},0)"

        def field(f):
            return f"INDEX({self.t.rng('models', f)},{at})"

        active = Expr(field("active_params"), "expr", numeric=True)
        if j is None:
            return self._with(name, form, args, i, None, active, active)
        e, k = field("num_experts"), field("experts_per_token")
        moe = _moe(field("decode_params"), field("expert_params"), e, k, _batch(b))
        reads = f"IF(AND(ISNUMBER({e}),ISNUMBER({k})),{moe},{field('params')})"
        kept = field("kept_decode_params")
        return self._with(name, form, args, i, j, Expr(reads, "expr", numeric=True), active,
                          f"IF(ISNUMBER({kept}),{kept},0)")


def _batch(b: Expr) -> str:
    """The batch's value as formula text (1 when it is left out or blank)."""
    if b is None or b.kind == "missing":
        return "1"
    if b.kind == "ref":
        return f"IF(ISBLANK({b.text}),1,{b.text})"
    return b.atom


def _moe(decode: str, expert: str, e: str, k: str, batch: str) -> str:
    """The weights an MoE step of ``batch`` sequences reads (``udfs.inference.memory``'s
    moe_decode_params), as formula text over the given texts."""
    return f"({decode}+{expert}*({e}*(1-(1-{k}/{e})^{batch})-{k}))"
