"""EOMONTH and EDATE given an array in a dynamic array (or array) formula: computed for
each element, as Excel does (addin/formula/fx_excel_dates.py ``each_element``).

Evidence: Microsoft Support, "Guidelines and examples of array formulas" (a function of
single values given an array in an array formula is computed for each element) and
"Dynamic array formulas and spilled array behavior"; the cells Excel saved in part
tune3 of tools/business_corpus.csv (calebjgartner's "Real Estate Private Equity
Model.xlsx": 'Forecast. Monthly Rent'!D22:D153, ``EOMONTH(Start.Date,
_xlfn.ANCHORARRAY(B22)-1)`` with Start.Date 45809 (1 June 2025) and B22# the months 1 to
132, saved as the month ends 45838, 45869, 45900, ... 49826; 'Property Returns'!C4:M4,
``EOMONTH(Start.Date-1,(_xlfn.ANCHORARRAY(C3))*12)`` with C3# 1 to 11, saved as 46173,
46538, ... 49826). Microsoft's EOMONTH page says months is truncated; a value of the
array is each truncated the same way.
"""

from __future__ import annotations

import datetime

import xlsx_make
from test_excel_dynamic import spilled

c = xlsx_make.cell
_DAY0 = datetime.date(1899, 12, 30)  # (serial numbers from 1 March 1900 count from it)


def _serial(y, m, d) -> int:
    return (datetime.date(y, m, d) - _DAY0).days


# the first twelve month ends Excel saved in D22:D33 of that file, and C4:M4
SAVED_MONTH_ENDS = [45838, 45869, 45900, 45930, 45961, 45991, 46022, 46053, 46081, 46112,
                    46142, 46173]
SAVED_YEAR_ENDS = [46173, 46538, 46904, 47269, 47634, 47999, 48365, 48730, 49095, 49460,
                   49826]


def test_eomonth_of_a_column_of_months_as_excel_saved_it(tmp_path):
    cells = [c("A1", None, 45809)] + [c(f"B{i}", None, i) for i in range(1, 13)]
    _, got = spilled(tmp_path, cells, {"D1": ("EOMONTH($A$1,B1:B12-1)",
                                              [[0]] * 12)})
    assert [row[0] for row in got["D1"]] == SAVED_MONTH_ENDS
    # by hand: the last days of June 2025 to May 2026
    ends = [_serial(2025, 6, 30), _serial(2025, 7, 31), _serial(2025, 8, 31),
            _serial(2025, 9, 30), _serial(2025, 10, 31), _serial(2025, 11, 30),
            _serial(2025, 12, 31), _serial(2026, 1, 31), _serial(2026, 2, 28),
            _serial(2026, 3, 31), _serial(2026, 4, 30), _serial(2026, 5, 31)]
    assert SAVED_MONTH_ENDS == ends


def test_eomonth_of_a_row_of_years_as_excel_saved_it(tmp_path):
    cells = [c("A1", None, 45809)] + [c(f"{col}3", None, i)
                                      for i, col in enumerate("CDEFGHIJKLM", 1)]
    _, got = spilled(tmp_path, cells, {"C4": ("EOMONTH($A$1-1,(C3:M3)*12)", [[0] * 11])})
    assert got["C4"][0] == SAVED_YEAR_ENDS
    assert SAVED_YEAR_ENDS == [_serial(2026 + k, 5, 31) for k in range(11)]  # by hand


def test_edate_of_an_array_of_months(tmp_path):
    # by hand: 1 June 2025 (45809) moved 1, 2, 3 months is the 1st of July, August,
    # September 2025; 2.9 months truncated to 2 (the page)
    cells = [c("A1", None, 45809), c("B1", None, 1), c("B2", None, 2), c("B3", None, 3),
             c("B4", None, 2.9)]
    _, got = spilled(tmp_path, cells, {"D1": ("EDATE($A$1,B1:B4)", [[0]] * 4)})
    assert [row[0] for row in got["D1"]] == [45839, 45870, 45901, 45870]
    assert [45839, 45870, 45901] == [_serial(2025, m, 1) for m in (7, 8, 9)]
