"""What a statement column's header means as a period, and its canonical label.

A column header ("Three Months Ended July 29, 2023", "Fiscal 2022", "December 31, 2022", "2021",
"52 Weeks Ended January 28, 2023") is read into a `ColumnPeriod`: the year printed, the length
of a flow in months (3, 6, 9 or 12; None for a balance at a date), the end date when printed, an
explicit quarter ("Q2", "second quarter").

Labels, once every column of the document is known (`label_periods`):

* `FY2022`: the fiscal year 2022, or a balance at its end. A fiscal year is named by the
  calendar year in which it ends (Best Buy's year ended January 28, 2023 is FY2023); a 52/53-week
  year that ends in the first days of January belongs to the year before (January 1, 2022 ends
  FY2021).
* `Q2 2023`: the second quarter of FY2023 (three months, twelve to seventeen weeks), or a balance
  at its end. The quarter counts from the fiscal year's end, which the document itself shows:
  a twelve-month column's end date, else a balance column at a date no flow column ends on (a
  10-Q's balance sheet compares the quarter's end with the last fiscal year end), else December.
* `6M 2023`, `9M 2023`: six and nine months (year to date) of FY2023.

Columns that print only a year ("2022") are that fiscal year.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
"""A month's number by the first three letters of its name."""
_DATE = re.compile(
    r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(\d{1,2}),?((?:19|20)\d\d)?"
)
_NUMERIC_DATE = re.compile(r"(?<!\d)(\d{1,2})/(\d{1,2})/((?:19|20)?\d\d)(?!\d)")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_SHORT_FY = re.compile(r"\bfy\s*'?(\d\d)\b")
_WEEKS = re.compile(r"(\d{1,2})weeks")
_QUARTER = re.compile(r"\bq([1-4])\b|(first|second|third|fourth|1st|2nd|3rd|4th)\s*quarter")
_ORDINAL = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
}
_DURATIONS = (
    (3, re.compile(r"threemonths|3months|quarter(?!s)|thirteenweeks|twelveweeks")),
    (6, re.compile(r"sixmonths|6months|twoquarters|halfyear|firsthalf|secondhalf")),
    (9, re.compile(r"ninemonths|9months|threequarters")),
    (12, re.compile(r"twelvemonths|12months|years?ended|fiscal|fullyear|year")),
)
_SLACK = timedelta(days=10)
"""How far a 52/53-week period's end may fall from the nominal fiscal year end."""


@dataclass(frozen=True)
class ColumnPeriod:
    year: int
    months: int | None  # 3, 6, 9, 12; None: a balance at a date, or not said
    end: date | None
    quarter: int | None = None

    @property
    def is_flow_of_part_year(self) -> bool:
        return self.months in (3, 6, 9)


def read_column_header(text: str) -> ColumnPeriod | None:
    """The period a column header names; None when it names no year (a "% change" column)."""
    low = text.lower()
    compact = re.sub(r"\s+", "", low)
    years = [int(y) for y in _YEAR.findall(low)]
    short = _SHORT_FY.search(low)
    if not years and short:
        years = [2000 + int(short.group(1))]
    if not years or "%" in low or "change" in compact:
        return None
    year = years[-1]
    end = None
    for match in _DATE.finditer(compact):
        month, day = MONTHS[match.group(1)], int(match.group(2))
        on = int(match.group(3)) if match.group(3) else year
        try:
            end = date(on, month, day)
        except ValueError:
            continue
    for match in _NUMERIC_DATE.finditer(low):
        month, day, on = int(match.group(1)), int(match.group(2)), int(match.group(3))
        try:
            end = date(on + 2000 if on < 100 else on, month, day)
        except ValueError:
            continue
    months = _months(compact)
    quarter = None
    if found := _QUARTER.search(low):
        quarter = int(found.group(1)) if found.group(1) else _ORDINAL[found.group(2)]
        months = months if months in (3, 6, 9, 12) and months != 12 else 3
    return ColumnPeriod(year=year, months=months, end=end, quarter=quarter)


def _months(compact: str) -> int | None:
    if weeks := _WEEKS.search(compact):
        count = int(weeks.group(1))
        return 3 if count <= 17 else 6 if count <= 28 else 9 if count <= 41 else 12
    for months, pattern in _DURATIONS:
        if pattern.search(compact):
            return months
    return None


def fiscal_year_end(periods: list[ColumnPeriod]) -> tuple[int, int]:
    """(month, day) the document's fiscal years end on (see the module docstring)."""
    for period in periods:
        if period.months == 12 and period.end is not None:
            return nominal_year_end(period.end)
    part_year = any(p.is_flow_of_part_year or p.quarter for p in periods)
    flow_ends = {p.end for p in periods if p.months is not None and p.end is not None}
    dated = sorted((p.end for p in periods if p.months is None and p.end is not None), reverse=True)
    for end in dated:
        if not part_year or end not in flow_ends:
            return nominal_year_end(end)
    return (12, 31)


def nominal_year_end(end: date) -> tuple[int, int]:
    """A 52/53-week year ending in the first days of January is a December year."""
    if end.month == 1 and end.day <= 7:
        return (12, 31)
    return (end.month, end.day)


def _fy_end(year: int, month_day: tuple[int, int]) -> date:
    month, day = month_day
    while True:
        try:
            return date(year, month, day)
        except ValueError:  # February 29 in another year
            day -= 1


def fiscal_year_of(end: date, month_day: tuple[int, int]) -> int:
    """The fiscal year a date falls in: the first fiscal year end on or after it (with slack)."""
    for year in (end.year - 1, end.year, end.year + 1):
        if end <= _fy_end(year, month_day) + _SLACK:
            return year
    return end.year + 1


def label_periods(periods: list[ColumnPeriod]) -> list[str]:
    """The canonical label of each period, in order (see the module docstring). In a document
    with no quarter or year-to-date column (an annual report) every column is a fiscal year."""
    month_day = fiscal_year_end(periods)
    if not any(p.is_flow_of_part_year or p.quarter for p in periods):
        return [
            f"FY{p.year if p.end is None else fiscal_year_of(p.end, month_day)}" for p in periods
        ]
    return [_label(period, month_day) for period in periods]


def _label(period: ColumnPeriod, month_day: tuple[int, int]) -> str:
    if period.end is None:
        if period.months in (6, 9):
            return f"{period.months}M {period.year}"
        if period.months == 3 and period.quarter:
            return f"Q{period.quarter} {period.year}"
        return f"FY{period.year}"
    fiscal = fiscal_year_of(period.end, month_day)
    if period.months == 12:
        return f"FY{fiscal}"
    if period.months in (6, 9):
        return f"{period.months}M {fiscal}"
    at_year_end = abs((period.end - _fy_end(fiscal, month_day)).days) <= _SLACK.days
    if period.months is None and at_year_end:
        return f"FY{fiscal}"
    quarter = period.quarter or _quarter(period.end, fiscal, month_day)
    if period.months is None and quarter == 4:
        return f"FY{fiscal}"
    return f"Q{quarter} {fiscal}"


def _quarter(end: date, fiscal: int, month_day: tuple[int, int]) -> int:
    start = _fy_end(fiscal - 1, month_day)
    months = (end - start).days / 30.44
    return min(4, max(1, round(months / 3)))


_LABEL = re.compile(r"^(?:FY(\d{4})|Q([1-4]) (\d{4})|([69])M (\d{4}))$")


def period_order(label: str) -> tuple[int, int, str]:
    """Sort key: newest fiscal year first; within a year the full year, then nine and six
    months, then quarters from the last; labels of another form last."""
    match = _LABEL.match(label)
    if match is None:
        return (1, 0, label)
    if match.group(1):
        return (-int(match.group(1)), 0, label)
    if match.group(2):
        return (-int(match.group(3)), 10 - int(match.group(2)), label)
    return (-int(match.group(5)), 10 - int(match.group(4)) // 3 - 1, label)
