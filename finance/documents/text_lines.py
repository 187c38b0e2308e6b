"""Reading page text: its non-blank lines, whitespace squashed, and dates as printed
("September 24, 2022"). Shared by the document profile and the cover reader."""

from __future__ import annotations

import re
from datetime import date

_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
_MONTHS = {m: i + 1 for i, m in enumerate(_MONTH_NAMES)}
_MONTH_RE = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
DATE = re.compile(rf"\b({_MONTH_RE})\s+(\d{{1,2}})\s*,?\s*(\d{{4}})\b", re.IGNORECASE)


def parse_date(text: str) -> date | None:
    m = DATE.search(text)
    if not m:
        return None
    prefix = m.group(1).lower()[:3]
    month = next((v for k, v in _MONTHS.items() if k.startswith(prefix)), None)
    if month is None:
        return None
    try:
        return date(int(m.group(3)), month, int(m.group(2)))
    except ValueError:
        return None


def lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip()]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)
