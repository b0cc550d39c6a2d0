"""Constants shared by the formulas, the help texts and EXPLAIN: each is defined here once.

The hours of a year are those of a mean Julian year (365.25 days), the usual basis of a
depreciation schedule; a month is a twelfth of it.
"""

from __future__ import annotations

SECONDS_PER_HOUR = 3600.0
SECONDS_PER_DAY = 86_400.0
HOURS_PER_YEAR = 365.25 * 24  # 8,766
HOURS_PER_MONTH = HOURS_PER_YEAR / 12  # 730.5
TOKENS_PER_MILLION = 1e6
WATTS_PER_KW = 1000.0
