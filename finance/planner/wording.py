"""A request as people type it, put in the words the planner reads: misspelt finance words
("efective tax rate", "revenu"), chat spellings ("wat was"), and short fiscal years ("FY23",
"Q2'23", "2Q23") are written out in full. Company names and other words are left as typed.
"""

from __future__ import annotations

import difflib
import re

# The words the planner's rules are written in: a typed word close to one of them (and to no
# other) is read as it.
_VOCABULARY = """
    accounts administrative amortization annual assets average balance basic billions buyback
    buybacks capital cash coverage current debt depreciation development diluted dividend
    dividends earnings effective equipment equity expenditure expenditures expense expenses
    fiscal flows general gross growth income interest inventories inventory liabilities margin
    margins millions operating payable percent percentage profit property provision quarter
    quarterly ratio receivable repurchase repurchases research revenue revenues sales selling
    share shares shareholders spend statement stock stockholders thousands total turnover
"""
VOCABULARY = frozenset(_VOCABULARY.split())
CHAT = {"wat": "what", "waht": "what", "whats": "what's", "hw": "how", "yr": "year"}
_WORD = re.compile(r"[A-Za-z]{3,}")
_CLOSE = 0.85
_SHORT_FY = re.compile(r"\bFY\s?'?(\d{2})\b", re.IGNORECASE)
_SHORT_QUARTER = re.compile(r"\bQ([1-4])\s?'(\d{2})\b|\b([1-4])Q\s?'?(\d{2})\b", re.IGNORECASE)


def normalise_request(text: str) -> str:
    """The request with its misspellings and short years written out (idempotent)."""
    text = _SHORT_FY.sub(lambda m: f"FY20{m.group(1)}", text)
    text = _SHORT_QUARTER.sub(
        lambda m: f"Q{m.group(1) or m.group(3)} 20{m.group(2) or m.group(4)}", text
    )
    return _WORD.sub(lambda m: _spelled(m.group(0)), text)


def _spelled(word: str) -> str:
    """A lower-case word (a capitalised one may be a name: "Generac") near a finance word."""
    if word in CHAT:
        return CHAT[word]
    if len(word) < 5 or not word.islower() or _known(word):
        return word
    close = difflib.get_close_matches(word, VOCABULARY, n=1, cutoff=_CLOSE)
    return close[0] if close else word


def _known(word: str) -> bool:
    """A vocabulary word, its singular or plural ("asset" for "assets"), or a word made from one
    ("interested", "currently", "marginal": another word, not a misspelling)."""
    singular = word[:-1] if word.endswith("s") else word
    return any(form in VOCABULARY for form in (word, f"{word}s", singular)) or any(
        word.startswith(known) for known in VOCABULARY
    )
