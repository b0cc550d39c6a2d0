"""The distinct experts a decode step of a mixture of experts reads, as a formula that
holds at any batch, in Excel and in LibreOffice.

Under uniform routing a step of B tokens, each picking k of E experts, reads
E·(1 − (1 − k/E)^B) distinct experts (``udfs.inference.memory.moe_experts_read``). Written as it
stands, ``(1-k/E)^B`` underflows past the smallest double at a large batch, and
LibreOffice's ``^`` then gives #NUM! instead of 0 (seen here: ``=0.75^3000`` is #NUM! in
LibreOffice 7.4, ``=EXP(-800)`` is 0), so every headline of a wide expert-parallel
deployment was an error in the native edition (Mixtral from B ≈ 2,500). ``experts_read``
writes the power as 0 where B·ln(1 − k/E) < −700 (e^−700 ≈ 1e−304, so E·(1 − x) is E to
the last bit there), and E where k = E (every token reads every expert; ln 0 would be
#NUM!). ``udfs.functions.memory``'s native form of MOE_EXPERTS_READ is the same formula.
"""

from __future__ import annotations

from workbook.expr import Err, Expr, F, of

#: Below this exponent, B·ln(1 − k/E), the power (1 − k/E)^B is written 0: e^−700 is
#: about 1e−304, above the smallest normal double (2.2e−308).
UNDERFLOW_EXPONENT = -700


def experts_read(experts, top_k, batch) -> Expr:
    """E·(1 − (1 − k/E)^B) (expressions or formula text), the limit E where the power
    underflows, E where k = E, #NUM! where k > E (as MOE_EXPERTS_READ)."""
    e, k, b = of(experts), of(top_k), of(batch)
    miss = 1 - k / e  # the chance one token misses a given expert
    power = F.IF((b * F.LN(miss)).lt(UNDERFLOW_EXPONENT), 0, miss ** b)
    return F.IF(k.lt(e), e * (1 - power), F.IF(k.eq(e), F.IF(b.gt(0), e, 0), Err("#NUM!")))
