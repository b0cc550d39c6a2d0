"""Finance's rented-vs-owned block: what a GPU-hour, and a million tokens, cost when the
GPUs are bought instead of rented.

The purchase price is the scenario GPU's own where the GPUs sheet has one (its column
P, GPU_PURCHASE_PRICE: a vendor list price or a published street price, with its source
in column Q, from ``workbook/data/gpu_prices.csv``), else the Assumptions' CAPEX, and
the sheet says which in words beside it. OWNED_HOURLY_COST spreads it over the write-off
years and adds the energy (``udfs.finance.owned_hourly_cost``).
"""

from __future__ import annotations

from openpyxl.styles import Alignment

from workbook.model import fleet
from workbook.scenario import HEADLINE
from workbook.sheet import Sheet, num_or
from workbook.sizing import SIZING

TPD, HOURS = fleet.TOKENS_DAY, fleet.HOURS


def purchase_price(gpu_row: str) -> str:
    """The purchase price per GPU the owned case uses (a formula): the GPUs sheet's for the
    GPU in row ``gpu_row`` of the table (a cell), else CAPEX."""
    own = f"INDEX(GPU_PURCHASE_PRICE,{gpu_row})"
    return f"=IF(ISNUMBER({own}),{own},CAPEX)"


def purchase_says(gpu_row: str) -> str:
    """The note beside the purchase price: where it comes from, in words."""
    own = f"INDEX(GPU_PURCHASE_PRICE,{gpu_row})"
    return (f'=IF(ISNUMBER({own}),"the GPUs sheet\'s, column P: the GPU alone (source: '
            'column Q)","none on the GPUs sheet (column P) for this GPU: CAPEX, on '
            'Assumptions")')


def rented_owned(s: Sheet, F: dict) -> None:
    """Rows 63..69 of Finance (``F``: its key cells): rented (B) against owned (C), the
    purchase price in use in C69."""
    price = F["price"]
    p, roof = f"{F['params_b']}*1000000000", F["roof"]
    o0 = F["hourly"] - 2
    s.section(o0, "Rented vs owned", "E")
    s.header(o0 + 1, ["", '="Rented ("&CURRENCY&")"', '="Owned ("&CURRENCY&")"', "How"])
    h, cp, en = F["hourly"], F["capex_part"], F["energy_part"]
    tdp, buy = F["tdp"], F["purchase"]
    owned = [
        (h, "Cost per GPU-hour", f"={price}",
         num_or([tdp], f"OWNED_HOURLY_COST({buy},YEARS,{tdp},PUE,KWH_PRICE)",
                "no TDP figure"),
         f"OWNED_HOURLY_COST(purchase ({buy}), years, TDP, PUE, kWh price): purchase ÷ "
         "(years × 8,766 h) + kW × PUE × price"),
        (cp, "of which the purchase, written off", None,
         f"=OWNED_HOURLY_COST({buy},YEARS,0,PUE,KWH_PRICE)", "OWNED_HOURLY_COST with 0 W"),
        (en, "of which energy", None,
         num_or([tdp], f"OWNED_HOURLY_COST(0,YEARS,{tdp},PUE,KWH_PRICE)", "no TDP figure"),
         "OWNED_HOURLY_COST with 0 capex: TDP ÷ 1000 × PUE × kWh price"),
        (F["in_cost"], "Cost per million input tokens, prefill at planned utilization",
         f"={F['input_cost']}",
         '=IF(SCENARIO_SERVING="disaggregated",'  # aggregated: in the bill (input_cost)
         + num_or([f"C{h}", roof], f"INPUT_COST_PER_MTOK(C{h},{p},{roof},ROOF_EFFICIENCY,"
                  "UTILIZATION)", "not available")[1:] + ",0)",
         "INPUT_COST_PER_MTOK at each hourly cost (disaggregated; aggregated, 0: in the bill)"),
        (F["out_cost"], HEADLINE, f"={F['output_cost']}",
         num_or([f"C{F['monthly']}"], f'IF({TPD}>0,C{F["monthly"]}/({TPD}*{HOURS}/24)'
                '*1000000,"no traffic")', "not available"),
         "the monthly cost below ÷ the month's output tokens"),
        (F["mix_cost"], "Cost per million tokens, input and output blended at the mix",
         f"={F['blended']}",
         num_or([f"C{F['in_cost']}", f"C{F['out_cost']}"], f"BLENDED_COST_PER_MTOK("
                f"C{F['in_cost']},C{F['out_cost']},INPUT_PER_OUTPUT,1)", "not available"),
         "BLENDED_COST_PER_MTOK at the mix"),
    ]
    for r, label, rented, own, how in owned:
        s.put(f"A{r}", label)
        if rented is not None:
            s.put(f"B{r}", rented, "formula", "money")
        s.put(f"C{r}", own, "result" if r in (h, F["mix_cost"]) else "formula", "money")
        for col in "BC":
            s.ws[f"{col}{r}"].alignment = Alignment(horizontal="right")
        s.put(f"D{r}", how, "note")
    gpu_row = f"Sizing!{SIZING['gpu_row']}"
    s.put(f"A{buy[1:]}", '="Purchase price per GPU ("&CURRENCY&")"')
    s.put(buy, purchase_price(gpu_row), "formula", "#,##0")
    s.ws[buy].alignment = Alignment(horizontal="right")
    s.put(f"D{buy[1:]}", purchase_says(gpu_row), "note")


__all__ = ["rented_owned", "purchase_price", "purchase_says"]
