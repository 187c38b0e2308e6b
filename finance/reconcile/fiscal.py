"""Fiscal-calendar and unit normalisation for comparing sources."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from finance.providers.periods import (
    default_fiscal_year,
    fiscal_year_for,
    is_annual,
    parse_date,
    to_millions,
)

__all__ = [
    "FiscalCalendar",
    "default_fiscal_year",
    "fiscal_year_for",
    "is_annual",
    "parse_date",
    "same_period",
    "scale_to_millions",
    "to_millions",
]

PERIOD_SLACK_DAYS = 7  # 52/53-week years end on different dates in different sources' eyes


@dataclass(frozen=True)
class FiscalCalendar:
    """A company's fiscal calendar, anchored on one known year (e.g. Apple FY2024 ended
    2024-09-28). Maps any period end (from any source) to the company's fiscal year."""

    anchor_end: dt.date
    anchor_fiscal_year: int

    def fiscal_year(self, end: dt.date) -> int:
        return fiscal_year_for(end, self.anchor_end, self.anchor_fiscal_year)


def same_period(
    a_start: dt.date | None, a_end: dt.date, b_start: dt.date | None, b_end: dt.date
) -> bool:
    """Whether two periods are the same fiscal period, allowing a week's slack at each end."""
    if abs((a_end - b_end).days) > PERIOD_SLACK_DAYS:
        return False
    if (a_start is None) != (b_start is None):
        return False
    if a_start is not None and b_start is not None:
        return abs((a_start - b_start).days) <= PERIOD_SLACK_DAYS
    return True


_SCALES = {"": 1.0, "units": 1.0, "thousands": 1e3, "millions": 1e6, "billions": 1e9}


def scale_to_millions(value: float, scale: str | int = "") -> float:
    """Convert a value stated in units/thousands/millions/billions (or 10**scale) to millions."""
    factor = 10.0**scale if isinstance(scale, int) else _SCALES[scale.lower()]
    return value * factor / 1_000_000
