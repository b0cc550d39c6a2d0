"""What a formula being computed may know of its surroundings, per thread.

``STATE`` holds, for the thread that computes: ``registry`` (our functions by name),
``own`` (error code -> message this cell's call gave), ``inherited`` (code -> message of
the cells it reads), ``book`` (the ``addin.engine.book.Workbook`` being computed:
what SUBTOTAL, OFFSET, INDIRECT read), ``cell`` (``(sheet, row, col)`` of the formula),
``node`` (the formula's node) and, while strict mode watches the forms of argument
(``addin.engine.checked.watch``), ``form_refusals`` (node -> reason), ``form_seen``
(the forms of the ranges already read), ``form_pending`` (what the calls in a branch
found, while their formula runs: ``addin.engine.forms``), ``refused_in`` (node -> reason
of ``refuse``), ``refuse_pending`` and ``step`` (the refusals of a formula with
branches while it runs, and the position in its graph being computed:
``settle_refusals``), ``cells_read`` (the cells functions read beyond their
formulas' references, ``read_cells``) and, while strict mode keeps Excel's values in
cells it does not compute, ``read_kept`` (node -> a kept cell it read through OFFSET or
INDIRECT, ``note_read_kept``), ``noise`` (how far, relative, the values Excel saved in
an iterated cycle are from its fixed point: ``saved_noise``), ``unknown_digits`` (id of a
formula -> the function upstream of it whose last digits napkin does not know to be
Excel's: ``last_digits_unknown``), ``own_digits`` (ids of the formulas that call such a
function themselves), ``inputs_saved`` (node -> whether every formula it reads holds the
value Excel saved, ``addin.formula.saved_operands.inputs_as_saved``), ``saved_current``
(whether the values Excel saved are current, ``addin.formula.saved_operands``) and, while
a workbook is computed, ``demand`` (node ->
None once that formula is computed, computing it first if need be, or why it cannot be:
``addin.engine.demand``). The engine sets them; Excel's functions (``addin.excel``) and
the calling convention (``addin.formula.calls``) read them. Kept in a module of its own,
below both, so that neither has to import the engine.
"""

from __future__ import annotations

import threading

from udfs.machinery.errors import ExcelError

STATE = threading.local()

#: the start of an error value's message that stops strict mode
#: (``addin.engine.support.refused_while_computing``): a function found, while
#: computing, that it cannot give Excel's value (LOOKUP in data that is not sorted,
#: OFFSET onto cells not yet computed...)
CANNOT = "napkin cannot compute "

#: areas of up to this many cells keep their size; larger ones (a whole column) are cut to
#: the used part of the sheet
KEEP_CELLS = 65536


def message_for(code: str) -> str:
    """The message of error ``code`` in the current cell: its own call's, else that of a
    cell it reads, else ``""``."""
    own = getattr(STATE, "own", None)
    if own and own.get(code):
        return own[code]
    inh = getattr(STATE, "inherited", None)
    if inh and inh.get(code):
        return inh[code]
    return ""


def record(err: ExcelError) -> None:
    """Keep the message of an error value the current cell gives (the first per code)."""
    own = getattr(STATE, "own", None)
    if own is not None and err.message and not own.get(err.code):
        own[err.code] = err.message


def refuse(message: str, code: str = "#VALUE!") -> None:
    """Mark the current cell as one strict mode refuses: ``code``'s message becomes
    ``CANNOT`` + ``message``, and the cell is noted in ``refused_in`` (while the engine
    keeps it) even when the error value does not reach its value (ISERR(...),
    IFERROR(...))."""
    own = getattr(STATE, "own", None)
    if own is not None:
        own[code] = CANNOT + message
    pending = getattr(STATE, "refuse_pending", None)
    if pending is not None:  # a one-cell formula with branches: kept until it has run
        pending.setdefault(getattr(STATE, "step", None), message)
        return
    noted, node = getattr(STATE, "refused_in", None), getattr(STATE, "node", None)
    if noted is not None and node is not None:
        noted.setdefault(node, message)


def settle_refusals(pending: dict, live) -> None:
    """Note in ``refused_in``, as ``refuse`` notes, the refusals of one run of a formula
    with branches (``pending``: position in the graph -> message) made by the functions
    Excel evaluates (``live``: those positions, ``addin.engine.branches.Flow.live``;
    None: every one): a refusal in the branch an IF does not take refuses nothing."""
    noted, node = getattr(STATE, "refused_in", None), getattr(STATE, "node", None)
    if noted is None or node is None:
        return
    for step, message in pending.items():
        if live is None or step in live:
            noted.setdefault(node, message)
            return


def read_cells(n: int) -> None:
    """Count ``n`` cells a function reads beyond its formula's references (the areas
    OFFSET and INDIRECT make up, and the cells scanned to build them), for the engine's
    count of work (``addin.engine.budget``)."""
    STATE.cells_read = getattr(STATE, "cells_read", 0) + n


#: downstream of an iterated cycle whose saved values are a fixed point only to within a
#: relative ``r`` (``saved_noise``), Excel's values carry its unfinished
#: iteration: a sum is refused that cancels to within ``r`` times this of its larger
#: operand. A three-statement model's cash roll-forward (the first held-out part's
#: Micron workbook, cycle saved to within 2.2E-11) showed downstream cells 5 times
#: further from napkin's than ``r``, and its balance checks, Excel's 3.7E-5 and napkin's
#: -8.8E-6 of 4.1E+5, 4 times ``r``: 2^16 leaves three orders of magnitude beyond that
NOISE_MARGIN = 2.0 ** 16


def note_noise(relative: float) -> None:
    """Note that the values the workbook computes from carry, relative to themselves, up
    to ``relative`` of Excel's own unfinished iteration (``addin.engine.cycles``: a cycle
    whose saved values are a fixed point only to within that)."""
    STATE.noise = max(getattr(STATE, "noise", 0.0), relative)


def saved_noise() -> float:
    """How far, relative, values Excel saved that this workbook computes from may be from
    their formulas' values (``note_noise``; 0 where every cycle was an exact fixed point,
    or none was taken)."""
    return getattr(STATE, "noise", 0.0)


def note_read_kept(kept) -> None:
    """Note that the formula being computed read ``kept``, a formula cell that keeps the
    value Excel saved, through a reference it made while computing (OFFSET, INDIRECT):
    strict mode then refuses the workbook unless that formula is kept too
    (``addin.engine.kept``)."""
    noted, node = getattr(STATE, "read_kept", None), getattr(STATE, "node", None)
    if noted is not None and node is not None and node is not kept:
        noted.setdefault(node, kept)


def last_digits_unknown() -> str | None:
    """The function upstream of the formula being computed whose last binary digits napkin
    does not know to be Excel's (PMT, ``^``...: ``addin.engine.last_digits``), or None:
    where there is one, a sum that cancels or a comparison of nearly equal numbers is not
    settled by the rules Excel's saved values gave (they hold for Excel's operands)."""
    node = getattr(STATE, "node", None)
    unknown = getattr(STATE, "unknown_digits", None)
    return unknown.get(id(node)) if unknown and node is not None else None
