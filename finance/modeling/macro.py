"""Company revenue growth against a macro series' annual growth, year by year."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from finance.modeling.core import year_number


@dataclass(frozen=True)
class YearPair:
    """One year's company growth and macro growth, in percent, and their spread."""

    year: int
    company_growth: float  # % change
    macro_growth: float  # % change
    spread: float  # company_growth - macro_growth, percentage points

    def to_dict(self) -> dict[str, Any]:
        return {
            "year": self.year,
            "company_growth": self.company_growth,
            "macro_growth": self.macro_growth,
            "spread": self.spread,
        }


def _by_year(values: Mapping[Any, float], what: str) -> dict[int, float]:
    out: dict[int, float] = {}
    for key, value in values.items():
        year = year_number(key if isinstance(key, int) else str(key))
        if year is None:
            raise ValueError(f"{what}: cannot read a year from {key!r}")
        if year in out:
            raise ValueError(f"{what}: year {year} appears twice")
        out[year] = float(value)
    return out


def _growth_from_levels(levels: dict[int, float]) -> dict[int, float]:
    return {
        year: (value / levels[year - 1] - 1) * 100
        for year, value in levels.items()
        if levels.get(year - 1, 0) > 0
    }


def growth_vs_macro(
    company: Mapping[Any, float],
    macro: Mapping[Any, float],
    company_is_growth: bool = False,
    macro_is_growth: bool = True,
) -> tuple[list[YearPair], float | None]:
    """Per-year (company growth %, macro growth %, spread) and the mean spread.

    `company` is revenue by year ({"FY2017": 11692.7} or {2017: ...}) unless `company_is_growth`,
    when it is already % change. `macro` is an annual % change (e.g. GDP, CPI) unless
    `macro_is_growth` is False, when it is a level and its % change is computed. Only years in
    both series are paired. Fiscal years are matched to calendar years by their number.
    """
    ours = _by_year(company, "company")
    theirs = _by_year(macro, "macro")
    if not company_is_growth:
        ours = _growth_from_levels(ours)
    if not macro_is_growth:
        theirs = _growth_from_levels(theirs)
    pairs = [
        YearPair(year, ours[year], theirs[year], ours[year] - theirs[year])
        for year in sorted(ours.keys() & theirs.keys())
    ]
    mean = sum(p.spread for p in pairs) / len(pairs) if pairs else None
    return pairs, mean
