"""What a metric question says about its line that the statements' canonical line is not.

* A qualifier: "services revenue", "wireless equipment revenue", "electric revenue" name a part
  of the revenue line (a segment, a product line) that the canonical statements do not carry;
  answering with the total would be a wrong number. The words typed right before the line are
  the qualifier, unless they are the company's own name (checked against the filing, in
  `metric_answer`), a ticker, a period or a word that leaves the line whole ("total", "net").
  Where the statement prints that part as a row of its own above the total ("Services" over
  "Total net sales"), that row answers (`finance.statements.parts`); otherwise the planner says
  it cannot.
* Per share: "dividends per share", "book value per share" ask for an amount per share that no
  canonical line holds (only earnings per share is printed per share).
* A percentage of an amount: "SG&A % of net sales" read as SG&A alone would be an amount where
  a percentage is asked.
* A ratio the planner does not know: "payout ratio (dividends paid vs net income)", "price to
  earnings ratio", "receivables turnover" name a line, but that line alone is no answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from finance.planner.metric_catalogue import LINE_ITEMS, PER_SHARE, STATEMENT_OF

QUALIFIABLE = frozenset({"revenue", "cost_of_revenue", "gross_profit", "operating_income"})
MARGIN_OF = {
    "gross_profit": r"gross( profit)? margins?",
    "operating_income": r"operating margins?",
}
_WHOLE = """
    a an and about annual annualized at by company company's consolidated did does entire
    for from full gaap group hey how in is its last latest much of on our overall quarter
    quarterly reported the their this to top top-line total was were what what's whole year
    yearly fiscal fy ttm yoy net gross first second third fourth
"""
# "fourth-quarter revenue", "full-year sales", "six-month revenue": the period, not a part.
_PERIOD_WORD = re.compile(r"quarter|year|month|week|half|period|annual")
WHOLE = frozenset(_WHOLE.split())
_WORD = re.compile(r"[\w&'.-]+")
PER_SHARE_ASKED = re.compile(r"\bper (common |ordinary )?share\b|/share\b|\bdps\b", re.IGNORECASE)
_MOST_WORDS = 3


def qualifier(text: str, name: str) -> str:
    """The words typed right before a qualifiable line ("wireless equipment" in "Verizon wireless
    equipment revenue growth"), lower case; "" when none."""
    lowered = text.lower()
    for key in _bases(name):
        if key not in QUALIFIABLE:
            continue
        patterns = [MARGIN_OF[key]] if name.endswith(" margin") and key in MARGIN_OF else []
        patterns += [pattern for pattern, _, line in LINE_ITEMS if line == key]
        for pattern in patterns:
            found = re.search(pattern, lowered)
            if found:
                words = _before(text[: found.start()])
                if words:
                    return " ".join(words)
                break
    return ""


def _bases(name: str) -> list[str]:
    if name.startswith("share:"):
        return name.removeprefix("share:").split("/")
    return [name.removesuffix(" margin")]


def _before(prefix: str) -> list[str]:
    """Content words at the end of `prefix`, nearest last: stops at a word that leaves the line
    whole, a number, a possessive or a ticker (a company's)."""
    words: list[str] = []
    for word in reversed(_WORD.findall(prefix)):
        plain = word.strip(".'-")
        if (
            not plain
            or plain.lower() in WHOLE
            or _PERIOD_WORD.search(plain.lower()) is not None
            or any(ch.isdigit() for ch in plain)
            or plain.lower().endswith("'s")
            or (plain.isupper() and len(plain) >= 2)
            or len(words) == _MOST_WORDS
        ):
            break
        words.insert(0, plain.lower())
    return words


def own_words(qualifier: str, names: Iterable[str]) -> str:
    """The qualifier less the words that are the company's own (its name, file name, ticker):
    "verizon wireless equipment" -> "wireless equipment"; "" when nothing else is left."""
    tokens = {t for n in names for t in re.findall(r"[a-z]+", n.lower()) if len(t) >= 2}
    left = []
    for word in qualifier.split():
        parts = [p for p in re.findall(r"[a-z]+", word) if len(p) >= 2]
        theirs = parts and all(
            any(t.startswith(p) or (len(t) >= 3 and p.startswith(t)) for t in tokens) for p in parts
        )
        if not theirs:
            left.append(word)
    return " ".join(left)


def per_share_refusal(text: str, name: str) -> str:
    """Why an amount asked per share cannot be answered from the statements ("" if it can)."""
    if name in PER_SHARE or not PER_SHARE_ASKED.search(text):
        return ""
    line = name.removeprefix("share:").replace("_", " ")
    return (
        f"the statements print {line} in total, not per share (only earnings per share is "
        "printed per share)"
    )


# "efficiency ratio", "payout ratio", "receivables turnover": a quotient the request names.
RATIO_ASKED = re.compile(r"\b([a-z-]+(?: [a-z-]+)?) (ratio|turnover|multiple|yield)\b", re.I)


def unknown_ratio_refusal(text: str, name: str) -> str:
    """Why a ratio the planner does not know is not answered with a line the request happens
    to name ("payout ratio (dividends paid over net income)" is a quotient, "price to earnings
    ratio" no EPS): "" when the metric found is itself a ratio, a margin or a share."""
    if name not in STATEMENT_OF:
        return ""
    asked = RATIO_ASKED.search(text)
    if asked is None:
        return ""
    line = name.replace("_", " ")
    return (
        f"the request names a ratio the planner does not compute (“{asked.group(0).lower()}”); "
        f"{line} alone is no answer"
    )


PERCENT_ASKED = re.compile(r"%|\bper ?cent(age)?\b", re.IGNORECASE)


def percent_refusal(text: str, name: str) -> str:
    """Why an amount is no answer to a request for a percentage ("" when the metric found is
    one, or no percentage is asked)."""
    if name not in STATEMENT_OF or not PERCENT_ASKED.search(text):
        return ""
    line = name.replace("_", " ")
    return f"the request asks for a percentage and {line} is an amount"
