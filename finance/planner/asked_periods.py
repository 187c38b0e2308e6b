"""The periods a metric question names, read from its words.

| The request says                                  | Read as                                    |
|---------------------------------------------------|--------------------------------------------|
| "FY2022", "fiscal 2022", "in 2022", "2022 vs 2021" | fiscal years (`years`)                     |
| "Q2 2023", "second quarter of fiscal 2022"         | that quarter of that fiscal year           |
| "Q3 vs Q3 last year", "third-quarter sales"        | that quarter, latest year (none: cannot)   |
| "first half", "H1", "six months"; "nine months"    | the year to date (`months` 6 or 9)         |
| "last quarter", "latest quarter", "three months"   | a quarter (`months` 3): the latest one     |
| "Dec 31 2022", "December 2022", "June 30, 2023"    | the period that ends on that date (`dates`)|

A year printed in a date ("at Dec 31 2022") is no fiscal year: a filing whose year ends in June
labels that balance "Q2 2023". Which period ends on a date is the statements' to say
(`period_ends`), so dates are resolved against them (`periods_ending`).
"""

from __future__ import annotations

import re
from datetime import date

from finance.statements.periods import MONTHS

YEAR = re.compile(
    r"\bFY\s?'?((?:19|20)\d{2})\b|\bfiscal (?:year )?((?:19|20)\d{2})\b|"
    r"\b(?:in|for|of|during|as of|at the end of)\s+((?:19|20)\d{2})\b|"
    r"\b((?:19|20)\d{2})\s+(?:and|vs\.?|versus|to)\b|"
    r"\b(?:and|vs\.?|versus|to)\s+((?:19|20)\d{2})\b",
    re.I,
)
# In a terse request a bare year is the period asked for ("total assets at year end 2022").
BARE_YEAR = re.compile(r"(?<![\d$.,])((?:19|20)\d{2})(?![\d,.]\d)")
QUARTER = re.compile(
    r"\bQ([1-4])\s*(?:of\s*)?(?:FY\s*)?'?((?:19|20)\d{2})\b|"
    r"\b((?:19|20)\d{2})\s*Q([1-4])\b|"
    r"\b(first|second|third|fourth)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?|FY\s*)?"
    r"((?:19|20)\d{2})\b",
    re.I,
)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4}
# "Q3 vs Q3 last year", "third-quarter sales": a quarter named without its fiscal year.
BARE_QUARTER = re.compile(
    r"\bQ([1-4])\b|\b([1-4])Q\b|\b(first|second|third|fourth)[- ](?:fiscal\s+)?quarter\b", re.I
)
YEAR_TO_DATE = (
    (6, re.compile(r"\b(first half|h1|1h|six months|6 months|half[- ]year)\b", re.I)),
    (9, re.compile(r"\b(nine months|9 months|first three quarters|9m)\b", re.I)),
)
A_QUARTER = re.compile(
    r"\b(last|latest|most recent|this|recent|past)\s+(fiscal\s+)?quarter\b|"
    r"\b(three|3)[- ]months?\b",
    re.I,
)
DATE = re.compile(
    r"\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+"
    r"(?:(\d{1,2})(?:st|nd|rd|th)?,?\s+)?((?:19|20)\d{2})\b",
    re.I,
)
Asked = tuple[int, int, int | None]  # (year, month, day or None)
_DAYS_SLACK = 7  # a 52/53-week period ends within days of the date people name


def dates(text: str) -> tuple[Asked, ...]:
    """The dates a request names, in its order: "Dec 31 2022" -> (2022, 12, 31)."""
    return tuple(
        (int(m.group(3)), MONTHS[m.group(1)[:3].lower()], int(m.group(2)) if m.group(2) else None)
        for m in DATE.finditer(text)
    )


# Words that say when, not what: "six months ended", "the prior-year quarter", "YTD".
PERIOD_WORDS = re.compile(
    r"\b(three|six|nine|twelve|3|6|9|12)[- ]months?( ended| ending| to| through)?\b|"
    r"\b(first|second) half\b|\byear[- ]to[- ]date\b|\b(ytd|qtd)\b|"
    r"\b(prior|previous|same|last)[- ](fiscal )?(year|quarter|period)\b",
    re.I,
)


def without_periods(text: str) -> str:
    """The request less its dates and the words that name a period, to count what it asks."""
    return PERIOD_WORDS.sub(" ", without_dates(text))


def without_dates(text: str) -> str:
    """The request with its dates taken out, so that their years are not read as fiscal years."""
    return DATE.sub(" ", text)


def fiscal_years(text: str, terse: bool) -> list[int]:
    """The fiscal years named ("FY2022", "in 2022"; in a terse request any bare year)."""
    plain = without_dates(text)
    years = sorted({int(next(g for g in groups if g)) for groups in YEAR.findall(plain)})
    if not years and terse:
        years = sorted({int(year) for year in BARE_YEAR.findall(plain)})
    return years


def quarters(text: str) -> list[tuple[int, int]]:
    """(quarter, fiscal year) of every quarter the text names: "Q2 of FY2023", "2023 Q1",
    "the second quarter of fiscal 2022"."""
    out = []
    for m in QUARTER.finditer(text):
        if m.group(1):
            out.append((int(m.group(1)), int(m.group(2))))
        elif m.group(3):
            out.append((int(m.group(4)), int(m.group(3))))
        else:
            out.append((_ORDINAL[m.group(5).lower()], int(m.group(6))))
    return out


def quarter_named(text: str) -> int | None:
    """The one quarter a request names without a year ("Q3 vs Q3 last year" -> 3); None when it
    names none or several."""
    found = {
        int(m.group(1) or m.group(2))
        if (m.group(1) or m.group(2))
        else _ORDINAL[m.group(3).lower()]
        for m in BARE_QUARTER.finditer(text)
    }
    return found.pop() if len(found) == 1 else None


def months_asked(text: str) -> int | None:
    """6 or 9 for a year to date, 3 for a quarter named without its number, else None."""
    for months, pattern in YEAR_TO_DATE:
        if pattern.search(text):
            return months
    return 3 if A_QUARTER.search(text) else None


def periods_ending(asked: Asked, period_ends: dict[str, str], months: int | None) -> list[str]:
    """The period labels that end on an asked date, the kind asked for first (a quarter, a
    year to date), else a fiscal year, a quarter, nine and six months."""
    year, month, day = asked
    found = []
    for label, text in period_ends.items():
        try:
            end = date.fromisoformat(text)
        except ValueError:
            continue
        if day is None:
            close = (end.year, end.month) == (year, month)
        else:
            try:
                close = abs((end - date(year, month, day)).days) <= _DAYS_SLACK
            except ValueError:
                close = False
        if close:
            found.append(label)
    order = {3: ("Q",), 6: ("6M",), 9: ("9M",)}.get(months or 0, ("FY", "Q", "9M", "6M"))
    ranked = [label for prefix in order for label in found if label.startswith(prefix)]
    return list(dict.fromkeys(ranked))
