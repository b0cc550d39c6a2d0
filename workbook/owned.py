"""Finance's rented-vs-owned block: what a GPU-hour, and a million tokens, cost when the
GPUs are bought instead of rented.

The purchase price is the scenario GPU's own where the GPUs sheet has one (its column
P, GPU_PURCHASE_PRICE: a vendor list price or a published street price, with its source
in column Q, from ``workbook/data/gpu_prices.csv``), else the Assumptions' CAPEX, and
the sheet says which in words beside it. OWNED_HOURLY_COST spreads it over the write-off
years and adds the energy (``udfs.inference.finance.owned_hourly_cost``).
"""

from __future__ import annotations

from openpyxl.styles import Alignment

from workbook.expr import Cell, Column, Expr, F, Name, Text, of, words
from workbook.model.bill import cost_of_bill
from workbook.model.gpu import numbers_or
from workbook.model.serving import SERVING
from workbook.scenario import HEADLINE
from workbook.sheet import Sheet
from workbook.sizing import SIZING


def purchase_price(gpu_row) -> Expr:
    """The purchase price per GPU the owned case uses: the GPUs sheet's for the GPU in row
    ``gpu_row`` of the table (a cell), else CAPEX."""
    own = Column("GPU_PURCHASE_PRICE").at(of(gpu_row))
    return F.IF(F.ISNUMBER(own), own, Name("CAPEX"))


def purchase_says(gpu_row) -> Expr:
    """The note beside the purchase price: where it comes from, in words."""
    own = Column("GPU_PURCHASE_PRICE").at(of(gpu_row))
    return F.IF(F.ISNUMBER(own), Text("the GPUs sheet's, column P: the GPU alone (source: "
                                      "column Q)"),
                Text("none on the GPUs sheet (column P) for this GPU: CAPEX, on Assumptions"))


def _owned_hourly(buy, tdp) -> Expr:
    """OWNED_HOURLY_COST(purchase, YEARS, TDP, PUE, KWH_PRICE) per GPU-hour."""
    return F.OWNED_HOURLY_COST(of(buy), Name("YEARS"), of(tdp), Name("PUE"), Name("KWH_PRICE"))


def _owned_rows(F_: dict) -> list:
    """The rows of the block (``rented_owned``): (row, label, rented, owned, how)."""
    k = {key: Cell(v) if isinstance(v, str) else v for key, v in F_.items()}
    h, cp, en, mo = F_["hourly"], F_["capex_part"], F_["energy_part"], F_["monthly"]
    tdp, buy, roof = k["tdp"], k["purchase"], k["roof"]
    hourly, monthly = Cell(f"C{h}"), Cell(f"C{mo}")
    ins, outs = Cell(f"C{F_['in_cost']}"), Cell(f"C{F_['out_cost']}")
    return [
        (h, "Cost per GPU-hour", k["price"],
         numbers_or([tdp], _owned_hourly(buy, tdp), "no TDP figure"),
         f"OWNED_HOURLY_COST(purchase ({F_['purchase']}), years, TDP, PUE, kWh price): "
         "purchase ÷ (years × 8,766 h) + kW × PUE × price"),
        (cp, "of which the purchase, written off", None, _owned_hourly(buy, 0),
         "OWNED_HOURLY_COST with 0 W"),
        (en, "of which energy", None,
         numbers_or([tdp], _owned_hourly(0, tdp), "no TDP figure"),
         "OWNED_HOURLY_COST with 0 capex: TDP ÷ 1000 × PUE × kWh price"),
        (F_["in_cost"], "Cost per million input tokens, prefill at planned utilization",
         k["input_cost"],
         F.IF(SERVING.eq(Text("disaggregated")), numbers_or(  # aggregated: in the bill
             [hourly, roof], F.INPUT_COST_PER_MTOK(
                 hourly, k["params_b"] * 1000000000, roof, Name("ROOF_EFFICIENCY"),
                 Name("UTILIZATION")), "not available"), 0),
         "INPUT_COST_PER_MTOK at each hourly cost (disaggregated; aggregated, 0: in the bill)"),
        (F_["out_cost"], HEADLINE, k["output_cost"],
         numbers_or([monthly], cost_of_bill(monthly), "not available"),
         "the monthly cost below ÷ the month's output tokens"),
        (F_["mix_cost"], "Cost per million tokens, input and output blended at the mix",
         k["blended"],
         numbers_or([ins, outs], F.BLENDED_COST_PER_MTOK(ins, outs, Name("INPUT_PER_OUTPUT"),
                                                         1), "not available"),
         "BLENDED_COST_PER_MTOK at the mix"),
    ]


def rented_owned(s: Sheet, F_: dict) -> None:
    """Rows 63..69 of Finance (``F_``: its key cells): rented (B) against owned (C), the
    purchase price in use in C69."""
    o0 = F_["hourly"] - 2
    s.section(o0, "Rented vs owned", "E")
    currency = Name("CURRENCY")
    s.header(o0 + 1, ["", words("Rented (", currency, ")"), words("Owned (", currency, ")"),
                      "How"])
    for r, label, rented, own, how in _owned_rows(F_):
        s.put(f"A{r}", label)
        if rented is not None:
            s.put(f"B{r}", rented, "formula", "money")
        s.put(f"C{r}", own, "result" if r in (F_["hourly"], F_["mix_cost"]) else "formula",
              "money")
        for col in "BC":
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
        s.put(f"D{r}", how, "note")
    gpu_row = f"Sizing!{SIZING['gpu_row']}"
    buy = F_["purchase"]
    s.put(f"A{buy[1:]}", words("Purchase price per GPU (", currency, ")"))
    s.put(buy, purchase_price(gpu_row), "formula", "#,##0")
    s.ws[buy].alignment = Alignment(horizontal="right")
    s.put(f"D{buy[1:]}", purchase_says(gpu_row), "note")


__all__ = ["rented_owned", "purchase_price", "purchase_says"]
