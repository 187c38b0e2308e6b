"""Fiscal periods and units shared by providers and reconciliation."""

from __future__ import annotations

import datetime as dt

MILLION = 1_000_000

ANNUAL_MIN_DAYS = 340
ANNUAL_MAX_DAYS = 380


def parse_date(value: str) -> dt.date:
    return dt.date.fromisoformat(value[:10])


def is_annual(start: dt.date | None, end: dt.date) -> bool:
    """An instant (no start) or a duration of about a year (52/53-week years included)."""
    if start is None:
        return True
    return ANNUAL_MIN_DAYS <= (end - start).days <= ANNUAL_MAX_DAYS


def fiscal_year_for(end: dt.date, anchor_end: dt.date, anchor_fiscal_year: int) -> int:
    """The fiscal year a period ending on ``end`` belongs to.

    ``anchor_end``/``anchor_fiscal_year`` are the end and fiscal year of a known period (a
    filing's own fiscal year). Comparatives are whole years before it, so rounding the gap to
    years tolerates 52/53-week calendars (Apple's years end on the last Saturday of September).
    """
    years_back = round((anchor_end - end).days / 365.2425)
    return anchor_fiscal_year - years_back


def default_fiscal_year(end: dt.date) -> int:
    """Fallback when no anchor is known: a year ending in the first week of January is the
    previous year (52/53-week retail calendars), otherwise the calendar year of its end."""
    if end.month == 1 and end.day <= 7:
        return end.year - 1
    return end.year


def to_millions(value: float, unit: str = "USD") -> float:
    """Scale a monetary value to millions of its currency; non-monetary units pass unchanged."""
    if unit.upper() in {"USD", "EUR", "GBP", "JPY", "CNY", "CAD", "CHF"}:
        return value / MILLION
    return value
