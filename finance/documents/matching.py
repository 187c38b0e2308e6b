"""Which documents a request names, by ticker or company name.

`match_documents("compare PEP and KO capex", profiles)` returns the keys of the PepsiCo and
Coca-Cola documents; "pepsi", "PepsiCo Inc.", "J&J", "Amex" are matched fuzzily (rapidfuzz) to
the names printed on the covers. A request that names none of the documents gives [] and the
caller uses all of them. A ticker matches only the documents whose cover prints it.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from typing import TypeVar

from rapidfuzz import fuzz

from finance.documents.profile import DocumentProfile

K = TypeVar("K", bound=Hashable)

# Legal-form suffixes and filler words that say nothing about which company it is.
_SUFFIXES = {
    "inc", "incorporated", "corp", "corporation", "co", "company", "companies", "plc", "ltd",
    "limited", "llc", "lp", "nv", "sa", "ag", "se", "the", "holdings", "holding", "group", "and",
    "of", "com",
}  # fmt: skip
# Words too common to name a company on their own ("best" margin, "american" firms ...): a
# name whose first word is one of these needs its second word too.
_GENERIC = {
    "american", "general", "united", "best", "first", "national", "international", "new", "great",
    "global", "pacific", "southern", "northern", "western", "eastern", "boston", "foot", "home",
    "bank", "capital", "energy", "health", "royal", "public", "service", "services", "financial",
    "technologies", "systems", "data", "digital", "one", "big", "old", "texas", "delta", "state",
    "street", "central", "power", "electric", "gas", "air", "life", "market", "cash",
    "free", "income", "revenue", "growth", "total", "net", "sales", "margin", "stock", "share",
    "price", "return", "compare", "report", "annual", "quarter", "year", "fiscal",
}  # fmt: skip
_ENGLISH_CAPS = {"A", "I", "AN", "AT", "BE", "IT", "ON", "OR", "SO", "TO", "US", "ALL", "ARE"}
FUZZ_WORD = 88  # rapidfuzz ratio for one word ("verizon" ~ "verizons")
FUZZ_PHRASE = 90  # token ratio for a multi-word name against a span of the request


def _words(text: str) -> list[str]:
    text = text.lower().replace("\u2019", "'")
    text = re.sub(r"'s\b", "", text)
    text = re.sub(r"[^a-z0-9&]+", " ", text)
    return [w for w in text.replace("&", " & ").split() if w]


def normalize_company(name: str) -> str:
    """ "PepsiCo, Inc." -> "pepsico"; "The AES Corporation" -> "aes"; "Amazon.com, Inc." ->
    "amazon"; "Johnson & Johnson" -> "johnson johnson"."""
    words = [w for w in _words(name) if w != "&"]
    core = [w for w in words if w not in _SUFFIXES]
    return " ".join(core or words)


def _initials_match(token: str, name_words: list[str]) -> bool:
    """ "amex" = am+ex of "american express", "jj" = j+j of "johnson johnson": the token is
    made of non-empty prefixes of at least the name's first two words, in order."""

    def split(tok: str, words: list[str], used: int) -> bool:
        if not tok:
            return used >= 2
        if not words:
            return False
        for n in range(min(len(words[0]), len(tok)), 0, -1):
            if tok[:n] == words[0][:n] and split(tok[n:], words[1:], used + 1):
                return True
        return False

    return len(name_words) >= 2 and len(token) <= 8 and split(token, name_words, 0)


def _ticker_hit(ticker: str, request: str) -> bool:
    tick = re.escape(ticker)
    if re.search(rf"\${tick}(?![A-Za-z0-9])", request, re.IGNORECASE):
        return True
    if ticker.upper() in _ENGLISH_CAPS:
        return False
    hit = re.search(rf"(?<![A-Za-z0-9$&.-]){tick}(?![A-Za-z0-9&]|\.[A-Za-z])", request)
    if hit and len(ticker) == 1:
        # A one-letter ticker ("F") only when it is not a sentence-initial capital.
        before = request[: hit.start()].rstrip()
        return bool(before) and not before.endswith((".", "!", "?", ":"))
    return bool(hit)


def names_company(request: str, company: str) -> bool:
    """Whether the request names this company (fuzzy; suffixes and punctuation ignored)."""
    name = normalize_company(company).split()
    if not name:
        return False
    raw_tokens = re.findall(r"[A-Za-z0-9&.'\u2019-]+", request)
    words = [w for w in _words(request) if w != "&"]
    joined = " ".join(words)
    phrase = " ".join(name)
    if re.search(rf"(?<![a-z0-9]){re.escape(phrase)}(?![a-z0-9])", joined):
        return True
    # Glued forms ("pepsico" for "pepsi co", "jpmorgan" for "jp morgan").
    glued = "".join(name)
    if len(glued) >= 4 and glued in {w for w in words}:
        return True
    n = len(name)
    # A span of the request as long as the name, scored as tokens.
    if n >= 2:
        for i in range(len(words) - n + 1):
            span = " ".join(words[i : i + n])
            if fuzz.token_sort_ratio(span, phrase) >= FUZZ_PHRASE:
                return True
    # The first word alone, when it is distinctive: "pepsi" ~ "pepsico", "verizon".
    first = name[0]
    if len(first) >= 4 and first not in _GENERIC:
        for w in words:
            if len(w) < 4 or w in _GENERIC:
                continue
            if fuzz.ratio(w, first) >= FUZZ_WORD:
                return True
            if len(w) >= 5 and first.startswith(w):  # "pepsi" -> "pepsico"
                return True
    elif n == 1 and len(first) <= 3:  # "3M", "AES", "CVS": the whole short name, exactly
        return first in words
    # Initials / clipped forms of a multi-word name: "J&J", "Amex", "P&G".
    if n >= 2:
        for tok in raw_tokens:
            flat = re.sub(r"[^a-z0-9]", "", tok.lower())
            short_ok = len(flat) >= 3 or "&" in tok or (tok.isupper() and len(flat) >= 2)
            if short_ok and flat not in _GENERIC and _initials_match(flat, name):
                return True
    return False


def match_documents(request: str, profiles: Mapping[K, DocumentProfile]) -> list[K]:
    """The keys of the documents the request names by ticker or company; [] when it names
    none of them (the caller then uses all). Keys come back in the mapping's order."""
    if not request.strip():
        return []
    hits: list[K] = []
    for key, prof in profiles.items():
        by_ticker = bool(prof.ticker) and _ticker_hit(prof.ticker or "", request)
        if by_ticker or (bool(prof.company) and names_company(request, prof.company)):
            hits.append(key)
    return hits


__all__ = ["match_documents", "names_company", "normalize_company"]
