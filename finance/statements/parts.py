"""A part of a canonical line as the statement prints it: "Services" and "Products" over
"Total net sales", "Electric" and "Natural gas" over "Total operating revenues". A question about
"services revenue" is answered from that row, never from the total."""

from __future__ import annotations

import re
from typing import Any


def printed_part(
    rows: list[dict[str, Any]], total: dict[str, float], part: str
) -> dict[str, Any] | None:
    """The one printed row that is `part` of a line whose values are `total`: a row above the
    total (its parts are printed over it: "Products", "Services", "Total net sales") whose
    label has the part's words; None when there is no such row, or more than one."""
    at = next((n for n, row in enumerate(rows) if _same(row.get("cells") or {}, total)), None)
    if at is None:
        return None
    words = part.split()
    found = []
    for row in reversed(rows[:at]):
        label = str(row.get("label") or "").lower()
        if label.startswith("total") or row.get("page") != rows[at].get("page"):
            break
        tokens = re.findall(r"[a-z&]+", label)
        if all(_names(tokens, word) for word in words):
            found.append(row)
    return found[0] if len(found) == 1 else None


def _names(tokens: list[str], word: str) -> bool:
    """A label's words name a typed word: "services" is "Services", "service" "Service"."""
    return any(t.startswith(word) or (len(t) >= 4 and word.startswith(t)) for t in tokens)


def _same(cells: dict[str, Any], total: dict[str, float]) -> bool:
    shared = set(cells) & set(total)
    return bool(shared) and all(abs(float(cells[k]) - total[k]) < 0.5 for k in shared)
